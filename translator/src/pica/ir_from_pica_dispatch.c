/* SPDX-License-Identifier: MIT */
/*
 * The dispatch-loop lowering of PICA200 flow control (translator/IR.md
 * "PICA200 programs"), used when the structured lowering cannot reproduce
 * the hardware exactly. It replays ../shared/docs/pica200.md §7.2 literally: a temp
 * holds the program counter, `LOOP { SWITCH pc { CASE a: instruction a } CALL
 * step }` runs one PICA instruction per pass, and the step subroutine
 * updates the CALL, IF and LOOP stacks (indexable temps x0-x3, ring buffers
 * of §7.1 depth that drop the oldest frame when full) and picks the next
 * address with the priorities of §7.2 step 6. Slow but exact for every
 * program, including jumps into scopes, shared scope ends and recursion.
 */
#include <string.h>

#include "ir_from_pica_private.h"

/* sb_ir_function::id of the step routine. */
#define SB_PICA_DISPATCH_STEP_ID 0xFFFFFFFEu

/* Indexable arrays: frames of the three stacks and the aL saved by LOOP. */
enum { X_CALL = 0, X_IF = 1, X_LOOP = 2, X_SAVED_AL = 3 };

struct dispatch {
    struct pfront_ctx *ctx;
    uint32_t regs;    /* x pc, y next address, z sequential successor, w break fired */
    uint32_t counts;  /* x call frames, y if frames, z loop frames */
    uint32_t scratch; /* step routine scratch */
};

/* The instruction's operands, destinations first (pfront_emit allocates them together). */
static struct sb_ir_operand *operands(struct sb_ir_instruction *in)
{
    if (!in)
        return NULL;
    return (struct sb_ir_operand *)(in->dst_count ? in->dst : in->src);
}

/* A one-lane temp source allocated in the arena (for relative indices). */
static const struct sb_ir_operand *rel_temp(struct pfront_ctx *ctx, uint32_t reg, uint32_t lane)
{
    struct sb_ir_operand *op = sb_arena_alloc(ctx->arena, 1, sizeof(*op));
    if (!op) {
        pfront_fail(ctx, SB_ERROR_OUT_OF_MEMORY, "out of memory");
        return NULL;
    }
    pfront_temp(op, reg, (uint8_t)lane, false);
    return op;
}

/* x<array>[element + rel], as destination lanes `mask` or source lane `lane`. */
static void xop(struct sb_ir_operand *op, uint32_t array, uint32_t element,
                const struct sb_ir_operand *rel, bool is_dst, uint8_t mask_or_lane)
{
    op->file = SB_IR_FILE_INDEXABLE_TEMP;
    op->index_count = 2;
    op->index[0].offset = array;
    op->index[1].offset = element;
    op->index[1].relative = rel;
    if (is_dst)
        op->mask = mask_or_lane;
    else
        for (int i = 0; i < 4; i++)
            op->swizzle[i] = mask_or_lane;
}

static void mov(struct pfront_ctx *ctx, const struct sb_ir_operand *dst, const struct sb_ir_operand *src)
{
    struct sb_ir_operand *o = operands(pfront_emit(ctx, SB_IR_OP_MOV, 1, 1));
    if (o) {
        o[0] = *dst;
        o[1] = *src;
    }
}

static void binop(struct pfront_ctx *ctx, uint32_t op, const struct sb_ir_operand *dst,
                  const struct sb_ir_operand *a, const struct sb_ir_operand *b)
{
    struct sb_ir_operand *o = operands(pfront_emit(ctx, op, 1, 2));
    if (o) {
        o[0] = *dst;
        o[1] = *a;
        o[2] = *b;
    }
}

static struct sb_ir_operand T(uint32_t reg, uint32_t lane, bool is_dst)
{
    struct sb_ir_operand op;
    memset(&op, 0, sizeof(op));
    pfront_temp(&op, reg, is_dst ? (uint8_t)(1u << lane) : (uint8_t)lane, is_dst);
    return op;
}

static struct sb_ir_operand IMM(uint32_t v)
{
    struct sb_ir_operand op;
    memset(&op, 0, sizeof(op));
    pfront_imm(&op, v, v, v, v);
    return op;
}

static struct sb_ir_operand AL(bool is_dst)
{
    struct sb_ir_operand op;
    memset(&op, 0, sizeof(op));
    pfront_address(&op, 2, is_dst);
    return op;
}

static struct sb_ir_operand X(uint32_t array, uint32_t element, const struct sb_ir_operand *rel,
                              bool is_dst, uint32_t lane)
{
    struct sb_ir_operand op;
    memset(&op, 0, sizeof(op));
    xop(&op, array, element, rel, is_dst, is_dst ? (uint8_t)(1u << lane) : (uint8_t)lane);
    return op;
}

/*
 * Pushes a frame of `lanes` values onto a stack of `cap` frames whose count
 * is counts.<count_lane>; a full stack drops its oldest frame (§7.1).
 */
static void push(struct dispatch *ds, uint32_t array, uint32_t cap, uint32_t count_lane,
                 const struct sb_ir_operand *values, uint32_t lanes)
{
    struct pfront_ctx *ctx = ds->ctx;
    struct sb_ir_operand s = T(ds->scratch, 3, true), sv = T(ds->scratch, 3, false);
    struct sb_ir_operand cnt = T(ds->counts, count_lane, false), cntd = T(ds->counts, count_lane, true);
    struct sb_ir_operand capv = IMM(cap);
    binop(ctx, SB_IR_OP_IEQ, &s, &cnt, &capv);
    pfront_emit_cond(ctx, SB_IR_OP_IF, &sv, true);
    for (uint32_t k = 0; k + 1 < cap; k++) {
        struct sb_ir_operand d = X(array, k, NULL, true, 0), src = X(array, k + 1, NULL, false, 0);
        d.mask = (uint8_t)((1u << lanes) - 1u);
        for (uint8_t i = 0; i < 4; i++)
            src.swizzle[i] = i;
        mov(ctx, &d, &src);
    }
    pfront_emit_temp_iadd(ctx, ds->counts, count_lane, -1);
    pfront_emit_flow(ctx, SB_IR_OP_ENDIF);
    const struct sb_ir_operand *rel = rel_temp(ctx, ds->counts, count_lane);
    for (uint32_t i = 0; i < lanes && rel; i++) {
        struct sb_ir_operand d = X(array, 0, rel, true, i);
        mov(ctx, &d, &values[i]);
    }
    struct sb_ir_operand one = IMM(1);
    binop(ctx, SB_IR_OP_IADD, &cntd, &cnt, &one);
}

static void set_next(struct dispatch *ds, const struct sb_ir_operand *value)
{
    struct sb_ir_operand d = T(ds->regs, 1, true);
    mov(ds->ctx, &d, value);
}

/* The flow instruction at `p` inside its CASE (§6.6: frames and next address only). */
static void lower_flow_case(struct dispatch *ds, uint32_t p, const struct sb_pica_instruction *in)
{
    struct pfront_ctx *ctx = ds->ctx;
    uint32_t d = in->flow_dest, n = in->flow_num;
    struct sb_ir_operand cond;
    bool conditional = in->opcode == SB_PICA_OP_CALLC || in->opcode == SB_PICA_OP_CALLU ||
                       in->opcode == SB_PICA_OP_JMPC || in->opcode == SB_PICA_OP_JMPU ||
                       in->opcode == SB_PICA_OP_BREAKC || in->opcode == SB_PICA_OP_IFC ||
                       in->opcode == SB_PICA_OP_IFU;
    if (conditional) {
        pfront_condition(ctx, in, &cond);
        bool nz = !(in->opcode == SB_PICA_OP_JMPU && in->jmpu_inverted);
        pfront_emit_cond(ctx, SB_IR_OP_IF, &cond, nz);
    }
    switch (in->opcode) {
    case SB_PICA_OP_IFC: case SB_PICA_OP_IFU: {
        struct sb_ir_operand v[2] = { IMM(d), IMM(d + n) };
        push(ds, X_IF, PICA_IF_DEPTH, 1, v, 2);
        pfront_emit_flow(ctx, SB_IR_OP_ELSE);
        struct sb_ir_operand dv = IMM(d);
        set_next(ds, &dv);
        break;
    }
    case SB_PICA_OP_CALL: case SB_PICA_OP_CALLC: case SB_PICA_OP_CALLU: {
        struct sb_ir_operand v[2] = { IMM(d + n), IMM(p + 1) }, dv = IMM(d);
        push(ds, X_CALL, PICA_CALL_DEPTH, 0, v, 2);
        set_next(ds, &dv);
        break;
    }
    case SB_PICA_OP_LOOP: {
        struct sb_ir_operand v[4], saved[1] = { AL(false) }, ald = AL(true), start;
        memset(v, 0, sizeof(v));
        v[0] = IMM(p + 1);
        v[1] = IMM(d + 1);
        pfront_int_uniform(ctx, in->int_id, 0, &v[2]);
        pfront_int_uniform(ctx, in->int_id, 2, &v[3]);
        push(ds, X_LOOP, PICA_LOOP_DEPTH, 2, v, 4);
        /* x3 mirrors x2's slot: the frame just pushed is at count - 1. */
        struct sb_ir_operand top = T(ds->scratch, 0, true), cnt = T(ds->counts, 2, false);
        struct sb_ir_operand minus1 = IMM(~0u);
        binop(ctx, SB_IR_OP_IADD, &top, &cnt, &minus1);
        const struct sb_ir_operand *rel = rel_temp(ctx, ds->scratch, 0);
        if (rel) {
            struct sb_ir_operand sd = X(X_SAVED_AL, 0, rel, true, 0);
            mov(ctx, &sd, &saved[0]);
        }
        pfront_int_uniform(ctx, in->int_id, 1, &start);
        mov(ctx, &ald, &start);
        break;
    }
    case SB_PICA_OP_BREAK: case SB_PICA_OP_BREAKC: {
        struct sb_ir_operand f = T(ds->regs, 3, true), one = IMM(1);
        mov(ctx, &f, &one);
        break;
    }
    case SB_PICA_OP_JMPC: case SB_PICA_OP_JMPU: {
        struct sb_ir_operand dv = IMM(d);
        set_next(ds, &dv);
        break;
    }
    default:
        break;
    }
    if (conditional)
        pfront_emit_flow(ctx, SB_IR_OP_ENDIF);
}

/*
 * scratch.z <- (count > 0 && stack[count-1].<lane> == value) with
 * scratch.y = the top index (clamped to 0) for the caller's relative reads.
 */
static const struct sb_ir_operand *top_matches(struct dispatch *ds, uint32_t array,
                                               uint32_t count_lane, uint32_t lane,
                                               const struct sb_ir_operand *value,
                                               const struct sb_ir_operand *or_flag)
{
    struct pfront_ctx *ctx = ds->ctx;
    struct sb_ir_operand y = T(ds->scratch, 1, true), yv = T(ds->scratch, 1, false);
    struct sb_ir_operand z = T(ds->scratch, 2, true), zv = T(ds->scratch, 2, false);
    struct sb_ir_operand w = T(ds->scratch, 3, true), wv = T(ds->scratch, 3, false);
    struct sb_ir_operand cnt = T(ds->counts, count_lane, false), m1 = IMM(~0u), zero = IMM(0);
    binop(ctx, SB_IR_OP_IADD, &y, &cnt, &m1);
    binop(ctx, SB_IR_OP_IMAX, &y, &yv, &zero);
    const struct sb_ir_operand *rel = rel_temp(ctx, ds->scratch, 1);
    if (!rel)
        return NULL;
    struct sb_ir_operand top = X(array, 0, rel, false, lane);
    binop(ctx, SB_IR_OP_IEQ, &z, &top, value);
    if (or_flag)
        binop(ctx, SB_IR_OP_OR, &z, &zv, or_flag);
    binop(ctx, SB_IR_OP_ILT, &w, &zero, &cnt);
    binop(ctx, SB_IR_OP_AND, &z, &zv, &wv);
    return rel;
}

/* The step routine: §7.2 steps 2-6 after the instruction at pc ran. */
static void emit_step(struct dispatch *ds)
{
    struct pfront_ctx *ctx = ds->ctx;
    struct sb_ir_operand seq = T(ds->regs, 2, false), next_d = T(ds->regs, 1, true);
    struct sb_ir_operand run = T(ds->scratch, 0, true), runv = T(ds->scratch, 0, false);
    struct sb_ir_operand zv = T(ds->scratch, 2, false);
    /* Step 3: pop every call frame ending at the running successor (4 at most;
     * the fourth pop leaves the address alone, a hardware bug). */
    mov(ctx, &run, &seq);
    for (uint32_t k = 1; k <= PICA_CALL_DEPTH; k++) {
        const struct sb_ir_operand *rel = top_matches(ds, X_CALL, 0, 0, &runv, NULL);
        if (!rel)
            return;
        pfront_emit_cond(ctx, SB_IR_OP_IF, &zv, true);
        struct sb_ir_operand ret = X(X_CALL, 0, rel, false, 1);
        mov(ctx, &run, &ret);
        if (k < PICA_CALL_DEPTH)
            mov(ctx, &next_d, &runv);
        pfront_emit_temp_iadd(ctx, ds->counts, 0, -1);
        pfront_emit_flow(ctx, SB_IR_OP_ENDIF);
    }
    /* Step 4: one IF frame whose else address is the original successor. */
    const struct sb_ir_operand *rel = top_matches(ds, X_IF, 1, 0, &seq, NULL);
    if (!rel)
        return;
    pfront_emit_cond(ctx, SB_IR_OP_IF, &zv, true);
    struct sb_ir_operand end = X(X_IF, 0, rel, false, 1);
    mov(ctx, &next_d, &end);
    pfront_emit_temp_iadd(ctx, ds->counts, 1, -1);
    pfront_emit_flow(ctx, SB_IR_OP_ENDIF);
    /* Step 5: the LOOP frame, on its last instruction or a BREAK. */
    struct sb_ir_operand brk = T(ds->regs, 3, false);
    rel = top_matches(ds, X_LOOP, 2, 1, &seq, &brk);
    if (!rel)
        return;
    pfront_emit_cond(ctx, SB_IR_OP_IF, &zv, true);
    struct sb_ir_operand ald = AL(true), alv = AL(false), step = X(X_LOOP, 0, rel, false, 3);
    binop(ctx, SB_IR_OP_IADD, &ald, &alv, &step);
    struct sb_ir_operand w = T(ds->scratch, 3, true), wv = T(ds->scratch, 3, false);
    struct sb_ir_operand remaining = X(X_LOOP, 0, rel, false, 2), zero = IMM(0);
    struct sb_ir_operand *o = operands(pfront_emit(ctx, SB_IR_OP_MOVC, 1, 3));
    if (o) { /* a BREAK never repeats */
        o[0] = w;
        o[1] = brk;
        o[2] = zero;
        o[3] = remaining;
    }
    pfront_emit_cond(ctx, SB_IR_OP_IF, &wv, true);
    struct sb_ir_operand remaining_d = X(X_LOOP, 0, rel, true, 2), m1 = IMM(~0u);
    binop(ctx, SB_IR_OP_IADD, &remaining_d, &remaining, &m1);
    struct sb_ir_operand first = X(X_LOOP, 0, rel, false, 0);
    mov(ctx, &next_d, &first);
    pfront_emit_flow(ctx, SB_IR_OP_ELSE);
    struct sb_ir_operand after = X(X_LOOP, 0, rel, false, 1);
    mov(ctx, &next_d, &after);
    pfront_emit_temp_iadd(ctx, ds->counts, 2, -1);
    /* A loop that ran inside another gives the outer aL back. */
    struct sb_ir_operand saved = X(X_SAVED_AL, 0, rel, false, 0), cnt = T(ds->counts, 2, false);
    o = operands(pfront_emit(ctx, SB_IR_OP_MOVC, 1, 3));
    if (o) {
        o[0] = ald;
        o[1] = cnt;
        o[2] = saved;
        o[3] = alv;
    }
    pfront_emit_flow(ctx, SB_IR_OP_ENDIF);
    pfront_emit_flow(ctx, SB_IR_OP_ENDIF);
    /* Step 6 is the order above: LOOP over IF over CALL over step 1. */
    struct sb_ir_operand pc = T(ds->regs, 0, true), nextv = T(ds->regs, 1, false);
    mov(ctx, &pc, &nextv);
    pfront_emit_flow(ctx, SB_IR_OP_RET);
}

static bool declare_arrays(struct pfront_ctx *ctx)
{
    static const uint32_t sizes[4][2] = {
        [X_CALL] = { PICA_CALL_DEPTH, 2 }, [X_IF] = { PICA_IF_DEPTH, 2 },
        [X_LOOP] = { PICA_LOOP_DEPTH, 4 }, [X_SAVED_AL] = { PICA_LOOP_DEPTH, 1 },
    };
    struct sb_ir_indexable_temp *x = sb_arena_alloc(ctx->arena, 4, sizeof(*x));
    if (!x)
        return pfront_fail(ctx, SB_ERROR_OUT_OF_MEMORY, "out of memory");
    for (uint32_t i = 0; i < 4; i++) {
        x[i].id = i;
        x[i].count = sizes[i][0];
        x[i].components = sizes[i][1];
    }
    ctx->program->indexable_temps = x;
    ctx->program->indexable_temp_count = 4;
    return true;
}

/* The CASE of address p: the instruction, then leave the SWITCH. */
static void lower_case(struct dispatch *ds, uint32_t p)
{
    struct pfront_ctx *ctx = ds->ctx;
    const struct sb_pica_instruction *in = &ctx->code[p];
    ctx->at = p;
    struct sb_ir_instruction *c = pfront_emit(ctx, SB_IR_OP_CASE, 0, 0);
    if (c)
        c->case_value = p;
    if (in->opcode == SB_PICA_OP_END) {
        pfront_emit_flow(ctx, SB_IR_OP_RET);
        return;
    }
    if (pfront_is_flow(in))
        lower_flow_case(ds, p, in);
    else
        pfront_lower_alu(ctx, in);
    pfront_emit_flow(ctx, SB_IR_OP_BREAK);
}

bool pfront_lower_dispatch(struct pfront_ctx *ctx)
{
    struct dispatch ds;
    ds.ctx = ctx;
    ds.regs = pfront_new_temp(ctx);
    ds.counts = pfront_new_temp(ctx);
    ds.scratch = pfront_new_temp(ctx);
    struct pfront_function *fns = NULL;
    for (int i = 0; i < 2; i++)
        fns = sb_ir_vec_push(ctx->arena, &ctx->functions, sizeof(*fns));
    if (!fns || !declare_arrays(ctx))
        return pfront_fail(ctx, SB_ERROR_OUT_OF_MEMORY, "out of memory");
    fns->start = SB_PICA_DISPATCH_STEP_ID; /* the step routine covers no PICA range */
    ctx->current = 1;
    ctx->at = ctx->dvle->main_address;
    emit_step(&ds);
    ctx->current = 0;
    struct sb_ir_operand regs = T(ds.regs, 0, true), counts = T(ds.counts, 0, true);
    regs.mask = counts.mask = 0xF;
    struct sb_ir_operand start = IMM(0);
    start.imm[0] = ctx->dvle->main_address;
    mov(ctx, &regs, &start);
    struct sb_ir_operand zero = IMM(0);
    mov(ctx, &counts, &zero);
    pfront_emit_flow(ctx, SB_IR_OP_LOOP);
    struct sb_ir_operand brk = T(ds.regs, 3, true), seq = T(ds.regs, 2, true);
    struct sb_ir_operand pc = T(ds.regs, 0, false), one = IMM(1), seqv = T(ds.regs, 2, false);
    struct sb_ir_operand next = T(ds.regs, 1, true);
    mov(ctx, &brk, &zero);
    binop(ctx, SB_IR_OP_IADD, &seq, &pc, &one);
    mov(ctx, &next, &seqv);
    struct sb_ir_operand *o = operands(pfront_emit(ctx, SB_IR_OP_SWITCH, 0, 1));
    if (o)
        o[0] = pc;
    for (uint32_t p = 0; p < ctx->count && !ctx->failed; p++)
        lower_case(&ds, p);
    ctx->at = ctx->dvle->main_address;
    pfront_emit_flow(ctx, SB_IR_OP_DEFAULT);
    pfront_emit_flow(ctx, SB_IR_OP_RET); /* outside the code: an implicit END (§1) */
    pfront_emit_flow(ctx, SB_IR_OP_ENDSWITCH);
    struct sb_ir_instruction *call = pfront_emit(ctx, SB_IR_OP_CALL, 0, 0);
    if (call)
        call->target = 1;
    pfront_emit_flow(ctx, SB_IR_OP_ENDLOOP);
    pfront_emit_flow(ctx, SB_IR_OP_RET);
    return !ctx->failed;
}
