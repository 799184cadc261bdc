/* SPDX-License-Identifier: MIT */
/*
 * Structured control flow checks and call resolution for SM4/5 lowering
 * (translator/IR.md §Control flow). The IR promises its consumers that every
 * IF/LOOP/SWITCH is closed in the function that opened it, that ELSE, CASE
 * and DEFAULT sit directly in their construct, that BREAK and CONTINUE have
 * something to leave, that a SWITCH's case literals are distinct, and that
 * calls name existing functions without recursion. Anything else is
 * SB_ERROR_TRANSLATE_INVALID at the offending instruction's offset.
 */
#include <stdlib.h>
#include <string.h>

#include "ir_from_sm4_private.h"

struct open_construct {
    uint32_t op;              /* IF, LOOP or SWITCH */
    const struct sb_ir_instruction *opener;
    bool has_else;
    bool has_default;
    bool has_case;
    uint32_t case_start;      /* first entry of its case values in flow_state::cases */
};

struct flow_state {
    struct open_construct *stack;
    uint32_t depth, capacity;
    uint32_t *cases;          /* case literals of the open switches, innermost last */
    uint32_t case_count, case_capacity;
};

/* Fails at an IR instruction: its offset, and the SM4 index it came from. */
static bool fail_at(struct sb_ir_sm4_context *ctx, const struct sb_ir_instruction *at,
                    const char *what)
{
    ctx->inst = NULL;
    uint32_t instr = SB_ERROR_NO_INSTR;
    for (uint32_t i = 0; i < ctx->sm4->instruction_count; i++)
        if (ctx->sm4->instructions[i].offset == at->offset) {
            instr = i;
            break;
        }
    return sb_ir_fail_at(ctx, at->offset, instr, SB_ERROR_TRANSLATE_INVALID, "%s", what);
}

/* Room for `needed` items; the stacks live in the program's arena (the old array is
 * abandoned there), so the walk makes no allocator call of its own. */
static bool grow(struct sb_arena *arena, void **data, uint32_t *capacity, uint32_t needed, size_t size)
{
    if (needed <= *capacity)
        return true;
    uint32_t cap = *capacity ? *capacity * 2 : 16;
    while (cap < needed)
        cap *= 2;
    void *fresh = sb_arena_grow(arena, *data, *capacity, cap, size);
    if (!fresh)
        return false;
    *data = fresh;
    *capacity = cap;
    return true;
}

static int compare_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

static bool in_construct(const struct flow_state *s, bool loop_only)
{
    for (uint32_t i = s->depth; i-- > 0;)
        if (s->stack[i].op == SB_IR_OP_LOOP || (!loop_only && s->stack[i].op == SB_IR_OP_SWITCH))
            return true;
    return false;
}

static bool push(struct sb_ir_sm4_context *ctx, struct flow_state *s,
                 const struct sb_ir_instruction *in)
{
    if (!grow(ctx->arena, (void **)&s->stack, &s->capacity, s->depth + 1, sizeof(*s->stack)))
        return sb_ir_fail(ctx, SB_ERROR_OUT_OF_MEMORY, "out of memory");
    struct open_construct *c = &s->stack[s->depth++];
    memset(c, 0, sizeof(*c));
    c->op = in->op;
    c->opener = in;
    c->case_start = s->case_count;
    return true;
}

/* CASE / DEFAULT / ENDSWITCH and what must follow SWITCH. */
static bool check_switch(struct sb_ir_sm4_context *ctx, struct flow_state *s,
                         const struct sb_ir_instruction *in)
{
    struct open_construct *top = s->depth ? &s->stack[s->depth - 1] : NULL;
    bool is_label = in->op == SB_IR_OP_CASE || in->op == SB_IR_OP_DEFAULT;
    if (is_label || in->op == SB_IR_OP_ENDSWITCH) {
        if (!top || top->op != SB_IR_OP_SWITCH)
            return fail_at(ctx, in, "case, default or endswitch outside a switch");
    } else if (top && top->op == SB_IR_OP_SWITCH && !top->has_case) {
        return fail_at(ctx, in, "instruction in a switch before its first case");
    }
    if (in->op == SB_IR_OP_DEFAULT) {
        if (top->has_default)
            return fail_at(ctx, in, "second default in one switch");
        top->has_default = top->has_case = true;
    } else if (in->op == SB_IR_OP_CASE) {
        if (!grow(ctx->arena, (void **)&s->cases, &s->case_capacity, s->case_count + 1, sizeof(uint32_t)))
            return sb_ir_fail(ctx, SB_ERROR_OUT_OF_MEMORY, "out of memory");
        s->cases[s->case_count++] = in->case_value;
        top->has_case = true;
    } else if (in->op == SB_IR_OP_ENDSWITCH) {
        uint32_t n = s->case_count - top->case_start;
        /* n < 2 cannot repeat; it also covers a switch with no case at all, whose
         * `cases` may still be NULL (no offset may be applied to it). */
        uint32_t *v = n > 1 ? s->cases + top->case_start : NULL;
        if (v)
            qsort(v, n, sizeof(*v), compare_u32);
        for (uint32_t i = 1; v && i < n; i++)
            if (v[i] == v[i - 1])
                return fail_at(ctx, top->opener, "switch with a repeated case value");
        s->case_count = top->case_start;
        s->depth--;
    }
    return true;
}

static bool check_instruction(struct sb_ir_sm4_context *ctx, struct flow_state *s,
                              const struct sb_ir_instruction *in)
{
    if (!check_switch(ctx, s, in))
        return false;
    struct open_construct *top = s->depth ? &s->stack[s->depth - 1] : NULL;
    switch (in->op) {
    case SB_IR_OP_IF:
    case SB_IR_OP_LOOP:
    case SB_IR_OP_SWITCH:
        return push(ctx, s, in);
    case SB_IR_OP_ELSE:
        if (!top || top->op != SB_IR_OP_IF || top->has_else)
            return fail_at(ctx, in, "else without its if");
        top->has_else = true;
        return true;
    case SB_IR_OP_ENDIF:
        if (!top || top->op != SB_IR_OP_IF)
            return fail_at(ctx, in, "endif without its if");
        s->depth--;
        return true;
    case SB_IR_OP_ENDLOOP:
        if (!top || top->op != SB_IR_OP_LOOP)
            return fail_at(ctx, in, "endloop without its loop");
        s->depth--;
        return true;
    case SB_IR_OP_BREAK:
    case SB_IR_OP_BREAKC:
        return in_construct(s, false) ? true : fail_at(ctx, in, "break outside a loop or switch");
    case SB_IR_OP_CONTINUE:
    case SB_IR_OP_CONTINUEC:
        return in_construct(s, true) ? true : fail_at(ctx, in, "continue outside a loop");
    default:
        return true;
    }
}

/* Label number -> function index, for CALL/CALLC. */
static bool resolve_call(struct sb_ir_sm4_context *ctx, struct sb_ir_instruction *in)
{
    const struct sb_ir_function_builder *fns = ctx->functions.data;
    for (uint32_t f = 0; f < ctx->functions.count; f++)
        if (fns[f].section == SB_IR_SECTION_SUBROUTINE && !fns[f].is_body &&
            fns[f].id == in->target) {
            in->target = f;
            return true;
        }
    return fail_at(ctx, in, "call to a label that is not defined");
}

static bool check_interface_call(struct sb_ir_sm4_context *ctx, const struct sb_ir_instruction *in)
{
    const struct sb_ir_interface *ifc = ctx->interfaces.data;
    uint32_t id = in->src[0].index[0].offset;
    for (uint32_t i = 0; i < ctx->interfaces.count; i++)
        if (ifc[i].id == id)
            return in->target < ifc[i].call_sites || ifc[i].call_sites == 0
                       ? true
                       : fail_at(ctx, in, "interface call site beyond the interface's table");
    return fail_at(ctx, in, "interface call through an undeclared fp#");
}

/* Kahn's algorithm over the call graph: what is left over is a cycle. */
static bool check_recursion(struct sb_ir_sm4_context *ctx)
{
    const struct sb_ir_function *fns = ctx->program->functions;
    uint32_t n = ctx->program->function_count, calls = 0;
    for (uint32_t f = 0; f < n; f++)
        for (uint32_t i = 0; i < fns[f].instruction_count; i++)
            calls += fns[f].instructions[i].op == SB_IR_OP_CALL ||
                     fns[f].instructions[i].op == SB_IR_OP_CALLC;
    /* pending[f]: calls f makes into functions not yet known to terminate;
     * callers of t sit in caller[first[t] .. first[t + 1]). */
    uint32_t *pending = sb_arena_alloc(ctx->arena, n, sizeof(uint32_t));
    uint32_t *queue = sb_arena_alloc(ctx->arena, n, sizeof(uint32_t));
    uint32_t *first = sb_arena_alloc(ctx->arena, (size_t)n + 1, sizeof(uint32_t));
    uint32_t *caller = sb_arena_alloc(ctx->arena, calls ? calls : 1, sizeof(uint32_t));
    bool ok = pending && queue && first && caller;
    const struct sb_ir_instruction *culprit = NULL;
    if (ok) {
        for (uint32_t f = 0; f < n; f++)
            for (uint32_t i = 0; i < fns[f].instruction_count; i++) {
                const struct sb_ir_instruction *in = &fns[f].instructions[i];
                if (in->op == SB_IR_OP_CALL || in->op == SB_IR_OP_CALLC) {
                    pending[f]++;
                    first[in->target + 1]++;
                }
            }
        for (uint32_t t = 0; t < n; t++)
            first[t + 1] += first[t];
        uint32_t *fill = queue; /* reused as a cursor per callee before the walk */
        for (uint32_t t = 0; t < n; t++)
            fill[t] = first[t];
        for (uint32_t f = 0; f < n; f++)
            for (uint32_t i = 0; i < fns[f].instruction_count; i++) {
                const struct sb_ir_instruction *in = &fns[f].instructions[i];
                if (in->op == SB_IR_OP_CALL || in->op == SB_IR_OP_CALLC)
                    caller[fill[in->target]++] = f;
            }
        uint32_t head = 0, tail = 0;
        for (uint32_t f = 0; f < n; f++)
            if (!pending[f])
                queue[tail++] = f;
        while (head < tail) {
            uint32_t done = queue[head++];
            for (uint32_t k = first[done]; k < first[done + 1]; k++)
                if (--pending[caller[k]] == 0)
                    queue[tail++] = caller[k];
        }
        /* Left over: functions on a cycle and their callers. Following unresolved calls
         * n times from any of them ends on the cycle; report that function's call. */
        uint32_t at = 0;
        while (tail != n && at < n && !pending[at])
            at++;
        for (uint32_t step = 0; tail != n && step <= n; step++) {
            const struct sb_ir_instruction *next = NULL;
            for (uint32_t i = 0; i < fns[at].instruction_count && !next; i++) {
                const struct sb_ir_instruction *in = &fns[at].instructions[i];
                if ((in->op == SB_IR_OP_CALL || in->op == SB_IR_OP_CALLC) && pending[in->target])
                    next = in;
            }
            if (!next)
                break;
            culprit = next;
            at = next->target;
        }
    }
    if (!ok)
        return sb_ir_fail(ctx, SB_ERROR_OUT_OF_MEMORY, "out of memory");
    return culprit ? fail_at(ctx, culprit, "recursive call (SM4 forbids recursion)") : true;
}

bool sb_ir_check_flow(struct sb_ir_sm4_context *ctx)
{
    /* Straight-line programs (only ret/discard) have nothing to check: skip the walk. */
    if (!ctx->has_flow)
        return true;
    struct flow_state s;
    memset(&s, 0, sizeof(s));
    bool ok = true;
    bool has_calls = false;
    struct sb_ir_function *fns = (struct sb_ir_function *)ctx->program->functions;
    for (uint32_t f = 0; f < ctx->program->function_count && ok; f++) {
        s.depth = 0;
        s.case_count = 0;
        struct sb_ir_instruction *ins = (struct sb_ir_instruction *)fns[f].instructions;
        for (uint32_t i = 0; i < fns[f].instruction_count && ok; i++) {
            ok = check_instruction(ctx, &s, &ins[i]);
            if (ok && (ins[i].op == SB_IR_OP_CALL || ins[i].op == SB_IR_OP_CALLC)) {
                ok = resolve_call(ctx, &ins[i]);
                has_calls = true;
            }
            if (ok && ins[i].op == SB_IR_OP_INTERFACE_CALL)
                ok = check_interface_call(ctx, &ins[i]);
        }
        if (ok && s.depth)
            ok = fail_at(ctx, s.stack[s.depth - 1].opener,
                         s.stack[s.depth - 1].op == SB_IR_OP_IF     ? "if without endif"
                         : s.stack[s.depth - 1].op == SB_IR_OP_LOOP ? "loop without endloop"
                                                                    : "switch without endswitch");
    }
    if (ok && has_calls)
        ok = check_recursion(ctx);
    return ok;
}
