/* SPDX-License-Identifier: MIT */
/*
 * Structured lowering of PICA200 flow control (translator/IR.md "PICA200
 * programs", ../shared/docs/pica200.md §6.6, §7). The code is walked as nested address
 * ranges: IFC/IFU -> IF/ELSE/ENDIF, LOOP -> LOOP with the counter and aL in
 * temps, CALL/CALLC/CALLU -> one subroutine per distinct range, forward
 * JMPC/JMPU -> an IF around the skipped range, END -> RET.
 *
 * The hardware does not nest scopes: it compares each executed instruction's
 * successor with the top frame of three stacks (§7.2). Nested IR scopes give
 * the same result only when every scope ends strictly inside the scope
 * around it, no scope's last instruction pushes or jumps, a subroutine never
 * executes the last instruction of a scope that is open at its call site, no
 * BREAK leaves an IF frame behind under an older live one, and jumps only go
 * forward within their scope. Whenever a rule does not hold the walk gives up
 * (pfront_unstructured) and the dispatch loop, which replays §7.2, is used.
 * Static nesting beyond the stack depths of §7.1 is refused as unsupported.
 */
#include <string.h>

#include "ir_from_pica_private.h"

/* One open scope of the walk. */
struct scope {
    const struct scope *parent;
    uint32_t end;           /* exclusive end of the range being walked */
    bool strict;            /* a hardware frame ends at `end`: inner scopes must end before */
    uint32_t trigger;       /* the frame's last instruction (IF then / LOOP), or UINT32_MAX */
    uint32_t if_depth;      /* IF frames open in this function */
    uint32_t loop_depth;    /* LOOP frames open in this function */
    uint32_t ifs_in_loop;   /* IF frames opened since the innermost LOOP */
    uint32_t loop_int;      /* int uniform of the innermost LOOP */
    uint32_t call_depth;    /* call frames live (this function's own depth) */
};

/* The subroutine being lowered or done, with what it covers transitively. */
struct callee {
    uint32_t start, count;
    uint32_t function;      /* index in ctx->functions */
    bool in_progress;
    uint32_t range_count;   /* ranges executed by it and its callees */
    uint32_t ranges[8][2];
    bool ranges_overflow;   /* more than 8: treated as covering everything */
};

struct walker {
    struct pfront_ctx *ctx;
    struct sb_ir_vec callees; /* struct callee */
    uint32_t function;        /* pica function being filled */
    uint32_t callee;          /* its callee record, UINT32_MAX for the entry */
    uint32_t active_calls;    /* subroutines being lowered (the call chain) */
    uint32_t depth;           /* nested ranges being walked */
};

/* Deepest range nesting the walk follows (IF 8 + LOOP 4 + jumps); deeper -> dispatch loop. */
#define WALK_MAX_DEPTH 48u

static bool lower_range(struct walker *w, uint32_t start, const struct scope *sc);
static bool walk(struct walker *w, uint32_t start, const struct scope *sc);

static bool pushes(const struct sb_pica_instruction *in)
{
    switch (in->opcode) {
    case SB_PICA_OP_IFC: case SB_PICA_OP_IFU: case SB_PICA_OP_CALL: case SB_PICA_OP_CALLC:
    case SB_PICA_OP_CALLU: case SB_PICA_OP_LOOP: case SB_PICA_OP_JMPC: case SB_PICA_OP_JMPU:
        return true;
    default:
        return false;
    }
}

/* Whether an inner scope ending at `end` fits in `sc`. */
static bool fits(const struct scope *sc, uint32_t end)
{
    return sc->strict ? end < sc->end : end <= sc->end;
}

static void note_depths(struct walker *w, uint32_t if_depth, uint32_t loop_depth, uint32_t calls)
{
    struct pfront_function *fn = pfront_function(w->ctx, w->function);
    if (if_depth > fn->max_if)
        fn->max_if = if_depth;
    if (loop_depth > fn->max_loop)
        fn->max_loop = loop_depth;
    if (calls > fn->max_call)
        fn->max_call = calls;
}

static bool over_limit(struct pfront_ctx *ctx, uint32_t if_depth, uint32_t loop_depth, uint32_t calls)
{
    if (if_depth > PICA_IF_DEPTH)
        return !pfront_fail(ctx, SB_ERROR_TRANSLATE_UNSUPPORTED,
                            "IF nesting %u exceeds the hardware IF stack (%u)", if_depth, PICA_IF_DEPTH);
    if (loop_depth > PICA_LOOP_DEPTH)
        return !pfront_fail(ctx, SB_ERROR_TRANSLATE_UNSUPPORTED,
                            "LOOP nesting %u exceeds the hardware LOOP stack (%u)", loop_depth,
                            PICA_LOOP_DEPTH);
    if (calls > PICA_CALL_DEPTH)
        return !pfront_fail(ctx, SB_ERROR_TRANSLATE_UNSUPPORTED,
                            "CALL nesting %u exceeds the hardware CALL stack (%u)", calls,
                            PICA_CALL_DEPTH);
    return false;
}

/* END: leave the invocation (from a subroutine: set the flag its callers test). */
static void emit_end(struct walker *w)
{
    if (w->callee != UINT32_MAX) {
        pfront_emit_mov_temp_imm(w->ctx, PICA_TEMP_STATE, 0, 1);
        pfront_function(w->ctx, w->function)->ends = true;
    }
    pfront_emit_flow(w->ctx, SB_IR_OP_RET);
}

static bool lower_if(struct walker *w, uint32_t p, const struct scope *sc, uint32_t *next)
{
    struct pfront_ctx *ctx = w->ctx;
    const struct sb_pica_instruction *in = &ctx->code[p];
    uint32_t d = in->flow_dest, n = in->flow_num;
    if (d < p + 1 || !fits(sc, d + n) || d + n > ctx->count)
        return pfront_unstructured(ctx);
    if (d > p + 1 && pushes(&ctx->code[d - 1]))
        return pfront_unstructured(ctx);
    if (over_limit(ctx, sc->if_depth + 1, sc->loop_depth, sc->call_depth))
        return false;
    note_depths(w, sc->if_depth + 1, sc->loop_depth, sc->call_depth);
    struct sb_ir_operand cond;
    pfront_condition(ctx, in, &cond);
    pfront_emit_cond(ctx, SB_IR_OP_IF, &cond, true);
    struct scope then = *sc;
    then.parent = sc;
    then.end = d;
    then.strict = true;
    then.trigger = d > p + 1 ? d - 1 : UINT32_MAX;
    then.if_depth++;
    then.ifs_in_loop++;
    if (!lower_range(w, p + 1, &then))
        return false;
    if (n) {
        ctx->at = p;
        pfront_emit_flow(ctx, SB_IR_OP_ELSE);
        struct scope other = *sc; /* no frame: the else block falls through */
        other.parent = sc;
        other.end = d + n;
        other.strict = false;
        other.trigger = UINT32_MAX;
        if (!lower_range(w, d, &other))
            return false;
    }
    ctx->at = p;
    pfront_emit_flow(ctx, SB_IR_OP_ENDIF);
    *next = d + n;
    return true;
}

/* The LOOP temp of the LOOP at `p`: x counter, y the aL saved for nesting. */
static uint32_t loop_temp(struct pfront_ctx *ctx, uint32_t p)
{
    if (!ctx->loop_temp[p])
        ctx->loop_temp[p] = pfront_new_temp(ctx);
    return ctx->loop_temp[p];
}

static void emit_mov(struct pfront_ctx *ctx, const struct sb_ir_operand *dst, const struct sb_ir_operand *src)
{
    struct sb_ir_instruction *ir = pfront_emit(ctx, SB_IR_OP_MOV, 1, 1);
    if (!ir)
        return;
    struct sb_ir_operand *o = (struct sb_ir_operand *)ir->dst;
    o[0] = *dst;
    o[1] = *src;
}

void pfront_emit_al_step(struct pfront_ctx *ctx, uint32_t int_id)
{
    struct sb_ir_instruction *ir = pfront_emit(ctx, SB_IR_OP_IADD, 1, 2);
    if (!ir)
        return;
    struct sb_ir_operand *o = (struct sb_ir_operand *)ir->dst;
    pfront_address(&o[0], 2, true);
    pfront_address(&o[1], 2, false);
    pfront_int_uniform(ctx, int_id, 2, &o[2]);
}

/*
 * LOOP i#: aL = i.y and counter = i.x before; after each pass aL += i.z and
 * the loop ends when the counter was 0 (i.x + 1 passes). The dynamic loop
 * depth in PICA_TEMP_STATE.y decides whether the pre-LOOP aL comes back on
 * exit (only for a loop running inside another, as the emulators do).
 */
static bool lower_loop(struct walker *w, uint32_t p, const struct scope *sc, uint32_t *next)
{
    struct pfront_ctx *ctx = w->ctx;
    const struct sb_pica_instruction *in = &ctx->code[p];
    uint32_t d = in->flow_dest;
    if (d < p + 1 || d >= ctx->count || !fits(sc, d + 1) || pushes(&ctx->code[d]))
        return pfront_unstructured(ctx);
    if (over_limit(ctx, sc->if_depth, sc->loop_depth + 1, sc->call_depth))
        return false;
    note_depths(w, sc->if_depth, sc->loop_depth + 1, sc->call_depth);
    uint32_t t = loop_temp(ctx, p), id = in->int_id & 3u;
    struct sb_ir_operand dst, src;
    memset(&dst, 0, sizeof(dst));
    memset(&src, 0, sizeof(src));
    pfront_temp(&dst, t, 0x2, true);
    pfront_address(&src, 2, false);
    emit_mov(ctx, &dst, &src);
    pfront_emit_temp_iadd(ctx, PICA_TEMP_STATE, 1, 1);
    memset(&dst, 0, sizeof(dst));
    pfront_address(&dst, 2, true);
    pfront_int_uniform(ctx, id, 1, &src);
    emit_mov(ctx, &dst, &src);
    memset(&dst, 0, sizeof(dst));
    pfront_temp(&dst, t, 0x1, true);
    pfront_int_uniform(ctx, id, 0, &src);
    emit_mov(ctx, &dst, &src);
    pfront_emit_flow(ctx, SB_IR_OP_LOOP);
    struct scope body = *sc;
    body.parent = sc;
    body.end = d + 1;
    body.strict = true;
    body.trigger = d;
    body.loop_depth++;
    body.ifs_in_loop = 0;
    body.loop_int = id;
    if (!lower_range(w, p + 1, &body))
        return false;
    ctx->at = d;
    pfront_emit_al_step(ctx, id);
    memset(&src, 0, sizeof(src));
    pfront_temp(&src, t, 0, false);
    pfront_emit_cond(ctx, SB_IR_OP_BREAKC, &src, false);
    pfront_emit_temp_iadd(ctx, t, 0, -1);
    pfront_emit_flow(ctx, SB_IR_OP_ENDLOOP);
    pfront_emit_temp_iadd(ctx, PICA_TEMP_STATE, 1, -1);
    struct sb_ir_instruction *ir = pfront_emit(ctx, SB_IR_OP_MOVC, 1, 3);
    if (ir) {
        struct sb_ir_operand *o = (struct sb_ir_operand *)ir->dst;
        pfront_address(&o[0], 2, true);
        pfront_temp(&o[1], PICA_TEMP_STATE, 1, false);
        pfront_temp(&o[2], t, 1, false);
        pfront_address(&o[3], 2, false);
    }
    *next = d + 1;
    return true;
}

/*
 * BREAK/BREAKC: aL += step, then leave the IR loop. A BREAK inside an IF
 * leaves that IF's frame on the hardware stack; harmless only when no older
 * IF frame can be live under it.
 */
static bool lower_break(struct walker *w, uint32_t p, const struct scope *sc)
{
    struct pfront_ctx *ctx = w->ctx;
    const struct sb_pica_instruction *in = &ctx->code[p];
    if (!sc->loop_depth)
        return pfront_unstructured(ctx);
    if (sc->ifs_in_loop && (sc->if_depth > sc->ifs_in_loop || w->callee != UINT32_MAX))
        return pfront_unstructured(ctx);
    if (in->opcode == SB_PICA_OP_BREAKC) {
        struct sb_ir_operand cond;
        pfront_condition(ctx, in, &cond);
        pfront_emit_cond(ctx, SB_IR_OP_IF, &cond, true);
    }
    pfront_emit_al_step(ctx, sc->loop_int);
    pfront_emit_flow(ctx, SB_IR_OP_BREAK);
    if (in->opcode == SB_PICA_OP_BREAKC)
        pfront_emit_flow(ctx, SB_IR_OP_ENDIF);
    return true;
}

static struct callee *callee_at(struct walker *w, uint32_t i)
{
    return (struct callee *)w->callees.data + i;
}

/* Adds a range to a callee's coverage. */
static void cover(struct callee *c, uint32_t start, uint32_t count)
{
    for (uint32_t i = 0; i < c->range_count; i++)
        if (c->ranges[i][0] == start && c->ranges[i][1] == count)
            return;
    if (c->range_count == 8) {
        c->ranges_overflow = true;
        return;
    }
    c->ranges[c->range_count][0] = start;
    c->ranges[c->range_count][1] = count;
    c->range_count++;
}

static bool covers(const struct callee *c, uint32_t address)
{
    if (c->ranges_overflow)
        return true;
    for (uint32_t i = 0; i < c->range_count; i++)
        if (address >= c->ranges[i][0] && address - c->ranges[i][0] < c->ranges[i][1])
            return true;
    return false;
}

/* Finds or lowers the subroutine for [d, d + n); its index in w->callees or UINT32_MAX. */
static uint32_t subroutine(struct walker *w, uint32_t d, uint32_t n)
{
    struct pfront_ctx *ctx = w->ctx;
    for (uint32_t i = 0; i < w->callees.count; i++) {
        struct callee *c = callee_at(w, i);
        if (c->start == d && c->count == n) {
            if (c->in_progress)
                return pfront_unstructured(ctx), UINT32_MAX; /* recursion */
            return i;
        }
    }
    uint32_t saved_fn = w->function, saved_callee = w->callee, saved_at = ctx->at;
    struct callee *c = sb_ir_vec_push(ctx->arena, &w->callees, sizeof(*c));
    struct pfront_function *fn = sb_ir_vec_push(ctx->arena, &ctx->functions, sizeof(*fn));
    if (!c || !fn)
        return pfront_fail(ctx, SB_ERROR_OUT_OF_MEMORY, "out of memory"), UINT32_MAX;
    uint32_t index = w->callees.count - 1;
    c->start = d;
    c->count = n;
    c->function = ctx->functions.count - 1;
    c->in_progress = true;
    cover(c, d, n);
    fn->start = d;
    fn->count = n;
    w->function = ctx->current = c->function;
    w->callee = index;
    struct scope top;
    memset(&top, 0, sizeof(top));
    top.end = d + n;
    top.strict = true;
    top.trigger = UINT32_MAX;
    bool ok = pushes(&ctx->code[d + n - 1]) ? pfront_unstructured(ctx) : lower_range(w, d, &top);
    w->function = ctx->current = saved_fn;
    w->callee = saved_callee;
    ctx->at = saved_at;
    callee_at(w, index)->in_progress = false;
    return ok ? index : UINT32_MAX;
}

static bool lower_call(struct walker *w, uint32_t p, const struct scope *sc)
{
    struct pfront_ctx *ctx = w->ctx;
    const struct sb_pica_instruction *in = &ctx->code[p];
    uint32_t d = in->flow_dest, n = in->flow_num;
    if (!n || d >= ctx->count || n > ctx->count - d)
        return pfront_unstructured(ctx);
    if (over_limit(ctx, 0, 0, w->active_calls + 1))
        return false;
    w->active_calls++;
    uint32_t ci = subroutine(w, d, n);
    w->active_calls--;
    if (ci == UINT32_MAX)
        return false;
    ctx->at = p;
    struct callee *c = callee_at(w, ci);
    struct pfront_function *callee_fn = pfront_function(ctx, c->function);
    /* No scope open here may end inside what the call executes. */
    for (const struct scope *s = sc; s; s = s->parent)
        if (s->trigger != UINT32_MAX && covers(c, s->trigger))
            return pfront_unstructured(ctx);
    uint32_t ifs = sc->if_depth + callee_fn->max_if, loops = sc->loop_depth + callee_fn->max_loop;
    uint32_t calls = sc->call_depth + 1 + callee_fn->max_call;
    if (over_limit(ctx, ifs, loops, calls))
        return false;
    note_depths(w, ifs, loops, calls);
    if (w->callee != UINT32_MAX) {
        struct callee *me = callee_at(w, w->callee);
        struct callee copy = *c;
        for (uint32_t i = 0; i < copy.range_count; i++)
            cover(me, copy.ranges[i][0], copy.ranges[i][1]);
        me->ranges_overflow |= copy.ranges_overflow;
    }
    bool ends = callee_fn->ends;
    struct sb_ir_instruction *ir;
    if (in->opcode == SB_PICA_OP_CALL) {
        ir = pfront_emit(ctx, SB_IR_OP_CALL, 0, 0);
    } else {
        struct sb_ir_operand cond;
        pfront_condition(ctx, in, &cond);
        ir = pfront_emit_cond(ctx, SB_IR_OP_CALLC, &cond, true);
    }
    if (ir)
        ir->target = c->function;
    if (ends) {
        struct sb_ir_operand flag;
        memset(&flag, 0, sizeof(flag));
        pfront_temp(&flag, PICA_TEMP_STATE, 0, false);
        pfront_emit_cond(ctx, SB_IR_OP_RETC, &flag, true);
        if (w->callee != UINT32_MAX)
            pfront_function(ctx, w->function)->ends = true;
    }
    return true;
}

/* Forward JMPC/JMPU: the skipped range runs when the jump is not taken. */
static bool lower_jump(struct walker *w, uint32_t p, const struct scope *sc, uint32_t *next)
{
    struct pfront_ctx *ctx = w->ctx;
    const struct sb_pica_instruction *in = &ctx->code[p];
    uint32_t t = in->flow_dest;
    if (t <= p || !fits(sc, t) || t > ctx->count)
        return pfront_unstructured(ctx);
    struct sb_ir_operand cond;
    pfront_condition(ctx, in, &cond);
    /* JMPU jumps when b == 1 (or b == 0 inverted); JMPC when the condition holds. */
    bool run_when_nonzero = in->opcode == SB_PICA_OP_JMPU && in->jmpu_inverted;
    pfront_emit_cond(ctx, SB_IR_OP_IF, &cond, run_when_nonzero);
    struct scope skipped = *sc;
    skipped.parent = sc;
    skipped.end = t;
    skipped.strict = false;
    skipped.trigger = UINT32_MAX;
    if (!lower_range(w, p + 1, &skipped))
        return false;
    ctx->at = p;
    pfront_emit_flow(ctx, SB_IR_OP_ENDIF);
    *next = t;
    return true;
}

/* A nested range, bounded so hostile nesting (jump chains) cannot exhaust the C stack. */
static bool lower_range(struct walker *w, uint32_t start, const struct scope *sc)
{
    struct pfront_ctx *ctx = w->ctx;
    if (w->depth >= WALK_MAX_DEPTH)
        return pfront_unstructured(ctx);
    w->depth++;
    bool ok = walk(w, start, sc);
    w->depth--;
    return ok;
}

/*
 * Walks [start, sc->end). Stops early after an unconditional END or BREAK:
 * what follows in the same range is reached by no path the walk accepts.
 */
static bool walk(struct walker *w, uint32_t start, const struct scope *sc)
{
    struct pfront_ctx *ctx = w->ctx;
    uint32_t p = start;
    while (p < sc->end && !ctx->failed) {
        ctx->at = p;
        if (p >= ctx->count) { /* running off the code: an implicit END */
            emit_end(w);
            return true;
        }
        const struct sb_pica_instruction *in = &ctx->code[p];
        uint32_t next = p + 1;
        bool ok = true;
        switch (in->opcode) {
        case SB_PICA_OP_END:
            emit_end(w);
            return true;
        case SB_PICA_OP_IFC: case SB_PICA_OP_IFU: ok = lower_if(w, p, sc, &next); break;
        case SB_PICA_OP_LOOP: ok = lower_loop(w, p, sc, &next); break;
        case SB_PICA_OP_BREAK:
            return lower_break(w, p, sc);
        case SB_PICA_OP_BREAKC: ok = lower_break(w, p, sc); break;
        case SB_PICA_OP_CALL: case SB_PICA_OP_CALLC: case SB_PICA_OP_CALLU:
            ok = lower_call(w, p, sc);
            break;
        case SB_PICA_OP_JMPC: case SB_PICA_OP_JMPU: ok = lower_jump(w, p, sc, &next); break;
        default: ok = pfront_lower_alu(ctx, in); break;
        }
        if (!ok)
            return false;
        p = next;
    }
    return !ctx->failed;
}

bool pfront_lower_structured(struct pfront_ctx *ctx)
{
    struct walker w;
    memset(&w, 0, sizeof(w));
    w.ctx = ctx;
    w.callee = UINT32_MAX;
    struct pfront_function *entry = sb_ir_vec_push(ctx->arena, &ctx->functions, sizeof(*entry));
    if (!entry)
        return pfront_fail(ctx, SB_ERROR_OUT_OF_MEMORY, "out of memory");
    entry->start = ctx->dvle->main_address;
    ctx->current = 0;
    ctx->at = ctx->dvle->main_address;
    /* The END flag and the loop depth start at 0. */
    struct sb_ir_instruction *ir = pfront_emit(ctx, SB_IR_OP_MOV, 1, 1);
    if (ir) {
        struct sb_ir_operand *o = (struct sb_ir_operand *)ir->dst;
        pfront_temp(&o[0], PICA_TEMP_STATE, 0x3, true);
        pfront_imm(&o[1], 0, 0, 0, 0);
    }
    struct scope top;
    memset(&top, 0, sizeof(top));
    top.end = ctx->count;
    top.trigger = UINT32_MAX;
    if (!lower_range(&w, ctx->dvle->main_address, &top))
        return false;
    /* Falling off the end of the code is an implicit END (§1). */
    ctx->current = 0;
    const struct pfront_function *fn = pfront_function(ctx, 0);
    const struct sb_ir_instruction *code = fn->code.data;
    if (!fn->code.count || code[fn->code.count - 1].op != SB_IR_OP_RET) {
        ctx->at = ctx->count ? ctx->count - 1 : 0;
        pfront_emit_flow(ctx, SB_IR_OP_RET);
    }
    return !ctx->failed;
}
