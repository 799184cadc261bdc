/* SPDX-License-Identifier: MIT */
/*
 * Structured control flow of the SPIR-V back end, emitted in one pass over
 * an IR function with a stack of open constructs (IR.md §Control flow):
 *   if/else/endif   -> OpSelectionMerge + OpBranchConditional; without `else`
 *                      the false target is patched to the merge block at
 *                      `endif` (an empty else block reached from the then
 *                      block would be a cross edge that Mesa rejects);
 *   loop/endloop    -> header { OpLoopMerge; branch body }, a continue block
 *                      that branches back, and the merge block;
 *   switch          -> OpSelectionMerge + OpSwitch; the case labels are found
 *                      by a scan to the matching endswitch, consecutive cases
 *                      share a label, and an open case falls through;
 *   breakc, continuec, retc, callc, discard -> the `if (c) { ... }` shape,
 *                      so every conditional branch has its own merge block;
 *   call            -> OpFunctionCall of the label's void function;
 *   discard         -> OpKill (fragment shaders only).
 * Code after a terminator lands in a fresh unreachable block (the builder
 * opens one), which SPIR-V allows.
 */
#include "spirv_private.h"

#include <stdlib.h>

enum construct_kind { CONSTRUCT_IF, CONSTRUCT_LOOP, CONSTRUCT_SWITCH };

struct switch_case {
    uint32_t value;
    uint32_t label;
};

struct construct {
    uint32_t kind;
    uint32_t merge;
    uint32_t other;          /* if: the else label; loop: the continue target */
    uint32_t header;         /* loop: the header block */
    size_t false_word;       /* if: index in the body stream of the false-target operand */
    bool seen_else;
    /* switch */
    struct switch_case *cases;
    uint32_t case_count, next_case;
    uint32_t default_label;
    uint32_t last_label;     /* label of the case being emitted */
};

struct flow_state {
    struct construct *stack;
    uint32_t depth, capacity;
    const struct sb_ir_function *function;
    uint32_t index;          /* current instruction index */
};

static struct construct *push(struct sb_spv_context *ctx, struct flow_state *f, uint32_t kind)
{
    struct construct *stack = sb_spv_grow(ctx, f->stack, f->depth, &f->capacity, sizeof(*stack), 16);
    if (!stack)
        return NULL;
    f->stack = stack;
    struct construct *c = &f->stack[f->depth++];
    *c = (struct construct){ .kind = kind };
    c->merge = sb_spv_id(&ctx->builder);
    return c;
}

static struct construct *top(struct flow_state *f, uint32_t kind)
{
    return f->depth && f->stack[f->depth - 1].kind == kind ? &f->stack[f->depth - 1] : NULL;
}

/* Innermost loop (continue) or loop/switch (break). */
static struct construct *innermost(struct flow_state *f, bool for_break)
{
    for (uint32_t i = f->depth; i-- > 0;) {
        uint32_t k = f->stack[i].kind;
        if (k == CONSTRUCT_LOOP || (for_break && k == CONSTRUCT_SWITCH))
            return &f->stack[i];
    }
    return NULL;
}

static uint32_t condition(struct sb_spv_context *ctx, const struct sb_ir_instruction *inst)
{
    if (inst->src_count < 1) {
        sb_spv_fail(ctx, SB_ERROR_TRANSLATE_INVALID, inst, "'%s' without a condition",
                    sb_ir_op_name(inst->op));
        return 0;
    }
    uint32_t v = sb_spv_load_scalar(ctx, &inst->src[0], SB_IR_TYPE_UINT);
    return v ? sb_spv_test_value(ctx, v, SB_IR_TYPE_UINT, 1, (inst->flags & SB_IR_FLAG_TEST_NZ) != 0) : 0;
}

/* if (c) { <body emitted by the caller> } : returns the merge label; the body block is open. */
static uint32_t begin_conditional(struct sb_spv_context *ctx, uint32_t cond)
{
    struct sb_spv_builder *b = &ctx->builder;
    uint32_t body = sb_spv_id(b), merge = sb_spv_id(b);
    sb_spv_selection_merge(b, merge);
    sb_spv_branch_conditional(b, cond, body, merge);
    sb_spv_label(b, body);
    return merge;
}

static bool check_function(struct sb_spv_context *ctx, const struct sb_ir_instruction *inst)
{
    if (inst->target < ctx->program->function_count && inst->target != 0)
        return true;
    sb_spv_fail(ctx, SB_ERROR_TRANSLATE_INVALID, inst, "call of function %u, which does not exist",
                inst->target);
    return false;
}

/* Scans from the switch at f->index to its endswitch for the case labels. */
static enum sb_result begin_switch(struct sb_spv_context *ctx, struct flow_state *f,
                                   const struct sb_ir_instruction *inst)
{
    struct sb_spv_builder *b = &ctx->builder;
    if (inst->src_count < 1)
        return sb_spv_fail(ctx, SB_ERROR_TRANSLATE_INVALID, inst, "switch without a selector");
    uint32_t selector = sb_spv_load_scalar(ctx, &inst->src[0], SB_IR_TYPE_UINT);
    struct construct *c = push(ctx, f, CONSTRUCT_SWITCH);
    if (!c || !selector)
        return ctx->result;
    uint32_t depth = 0, count = 0, label = 0;
    const struct sb_ir_instruction *list = f->function->instructions;
    uint32_t end = f->function->instruction_count, i;
    for (i = f->index + 1; i < end; i++) {
        uint32_t op = list[i].op;
        if (op == SB_IR_OP_SWITCH)
            depth++;
        else if (op == SB_IR_OP_ENDSWITCH && depth-- == 0)
            break;
        else if (depth == 0 && op == SB_IR_OP_CASE)
            count++;
    }
    if (i == end)
        return sb_spv_fail(ctx, SB_ERROR_TRANSLATE_INVALID, inst, "switch without endswitch");
    c->cases = sb_spv_zalloc(ctx, count ? count : 1, sizeof(*c->cases));
    if (!c->cases)
        return sb_spv_fail(ctx, SB_ERROR_OUT_OF_MEMORY, NULL, "out of memory");
    depth = 0;
    bool previous_was_label = false;
    for (i = f->index + 1; i < end; i++) {
        uint32_t op = list[i].op;
        bool is_label = depth == 0 && (op == SB_IR_OP_CASE || op == SB_IR_OP_DEFAULT);
        if (op == SB_IR_OP_SWITCH)
            depth++;
        else if (op == SB_IR_OP_ENDSWITCH && depth-- == 0)
            break;
        if (is_label) {
            if (!previous_was_label)
                label = sb_spv_id(b);
            if (op == SB_IR_OP_DEFAULT) {
                c->default_label = label;
            } else {
                /* Duplicate literals are invalid SPIR-V: keep the first. */
                bool dup = false;
                for (uint32_t k = 0; k < c->case_count; k++)
                    dup |= c->cases[k].value == list[i].case_value;
                if (!dup)
                    c->cases[c->case_count++] = (struct switch_case){ list[i].case_value, label };
            }
        }
        previous_was_label = is_label;
    }
    uint32_t *ops = sb_arena_alloc_uninit(ctx->scratch, 2 + 2 * (size_t)c->case_count, sizeof(*ops));
    if (!ops)
        return sb_spv_fail(ctx, SB_ERROR_OUT_OF_MEMORY, NULL, "out of memory");
    ops[0] = selector;
    ops[1] = c->default_label ? c->default_label : c->merge;
    for (uint32_t k = 0; k < c->case_count; k++) {
        ops[2 + 2 * k] = c->cases[k].value;
        ops[3 + 2 * k] = c->cases[k].label;
    }
    sb_spv_selection_merge(b, c->merge);
    sb_spv_op(b, SpvOpSwitch, ops, 2 + 2 * c->case_count);
    return ctx->result;
}

/* case/default: open the label the scan gave it (shared labels open once). */
static enum sb_result switch_label(struct sb_spv_context *ctx, struct flow_state *f,
                                   const struct sb_ir_instruction *inst)
{
    struct construct *c = top(f, CONSTRUCT_SWITCH);
    if (!c)
        return sb_spv_fail(ctx, SB_ERROR_TRANSLATE_INVALID, inst, "'%s' outside a switch",
                           sb_ir_op_name(inst->op));
    uint32_t label = c->default_label;
    if (inst->op == SB_IR_OP_CASE) {
        label = 0;
        for (uint32_t k = 0; k < c->case_count; k++)
            if (c->cases[k].value == inst->case_value)
                label = c->cases[k].label;
    }
    if (!label || label == c->last_label)
        return SB_SUCCESS;
    c->last_label = label;
    sb_spv_label(&ctx->builder, label);
    return SB_SUCCESS;
}

static enum sb_result end_construct(struct sb_spv_context *ctx, struct flow_state *f,
                                    const struct sb_ir_instruction *inst, uint32_t kind)
{
    struct sb_spv_builder *b = &ctx->builder;
    struct construct *c = top(f, kind);
    if (!c)
        return sb_spv_fail(ctx, SB_ERROR_TRANSLATE_INVALID, inst, "unbalanced '%s'",
                           sb_ir_op_name(inst->op));
    if (kind == CONSTRUCT_IF && !c->seen_else) {
        /* No else: the condition's false edge goes straight to the merge, and
         * the then-path falls into the merge below. (Falling into an empty
         * else block would be a cross edge between the two constructs, which
         * spirv-val 2023.1 misses but Mesa's spirv_to_nir rejects.) */
        if (c->false_word < b->fn_body.count && b->fn_body.words[c->false_word] == c->other) {
            b->fn_body.words[c->false_word] = c->merge;
        } else { /* only after an allocation failure: keep the module well formed */
            if (b->block_open)
                sb_spv_branch(b, c->merge);
            sb_spv_label(b, c->other);
        }
    } else if (kind == CONSTRUCT_LOOP) {
        sb_spv_label(b, c->other); /* the continue block goes back to the header */
        sb_spv_branch(b, c->header);
    }
    sb_spv_label(b, c->merge);
    f->depth--;
    return ctx->result;
}

static enum sb_result flow_op(struct sb_spv_context *ctx, struct flow_state *f,
                              const struct sb_ir_instruction *inst)
{
    struct sb_spv_builder *b = &ctx->builder;
    struct construct *c;
    uint32_t cond, merge;
    switch (inst->op) {
    case SB_IR_OP_IF:
        if (!(cond = condition(ctx, inst)) || !(c = push(ctx, f, CONSTRUCT_IF)))
            return ctx->result;
        c->other = sb_spv_id(b);
        merge = sb_spv_id(b); /* the then block */
        sb_spv_selection_merge(b, c->merge);
        sb_spv_branch_conditional(b, cond, merge, c->other);
        c->false_word = b->fn_body.count ? b->fn_body.count - 1 : 0;
        sb_spv_label(b, merge);
        return ctx->result;
    case SB_IR_OP_ELSE:
        if (!(c = top(f, CONSTRUCT_IF)) || c->seen_else)
            return sb_spv_fail(ctx, SB_ERROR_TRANSLATE_INVALID, inst, "else without if");
        c->seen_else = true;
        if (b->block_open)
            sb_spv_branch(b, c->merge);
        sb_spv_label(b, c->other);
        return ctx->result;
    case SB_IR_OP_ENDIF: return end_construct(ctx, f, inst, CONSTRUCT_IF);
    case SB_IR_OP_LOOP:
        if (!(c = push(ctx, f, CONSTRUCT_LOOP)))
            return ctx->result;
        c->header = sb_spv_id(b);
        c->other = sb_spv_id(b);
        merge = sb_spv_id(b); /* the body */
        sb_spv_label(b, c->header);
        sb_spv_loop_merge(b, c->merge, c->other);
        sb_spv_branch(b, merge);
        sb_spv_label(b, merge);
        return ctx->result;
    case SB_IR_OP_ENDLOOP: return end_construct(ctx, f, inst, CONSTRUCT_LOOP);
    case SB_IR_OP_SWITCH: return begin_switch(ctx, f, inst);
    case SB_IR_OP_CASE: case SB_IR_OP_DEFAULT: return switch_label(ctx, f, inst);
    case SB_IR_OP_ENDSWITCH:
        if ((c = top(f, CONSTRUCT_SWITCH)) && b->block_open)
            sb_spv_branch(b, c->merge);
        return end_construct(ctx, f, inst, CONSTRUCT_SWITCH);
    case SB_IR_OP_BREAK: case SB_IR_OP_CONTINUE:
    case SB_IR_OP_BREAKC: case SB_IR_OP_CONTINUEC: {
        bool is_break = inst->op == SB_IR_OP_BREAK || inst->op == SB_IR_OP_BREAKC;
        bool conditional = inst->op == SB_IR_OP_BREAKC || inst->op == SB_IR_OP_CONTINUEC;
        if (!(c = innermost(f, is_break)))
            return sb_spv_fail(ctx, SB_ERROR_TRANSLATE_INVALID, inst, "'%s' outside a %s",
                               sb_ir_op_name(inst->op), is_break ? "loop or switch" : "loop");
        uint32_t target = is_break ? c->merge : c->other;
        merge = 0;
        if (conditional) {
            if (!(cond = condition(ctx, inst)))
                return ctx->result;
            merge = begin_conditional(ctx, cond);
        }
        sb_spv_branch(b, target);
        if (merge)
            sb_spv_label(b, merge);
        return ctx->result;
    }
    case SB_IR_OP_RET: sb_spv_terminate(b, SpvOpReturn); return ctx->result;
    case SB_IR_OP_RETC: case SB_IR_OP_DISCARD: case SB_IR_OP_CALLC:
        if (inst->op == SB_IR_OP_DISCARD && ctx->execution_model != SpvExecutionModelFragment)
            return sb_spv_fail(ctx, SB_ERROR_TRANSLATE_INVALID, inst, "discard outside a pixel shader");
        if (inst->op == SB_IR_OP_CALLC && !check_function(ctx, inst))
            return ctx->result;
        if (!(cond = condition(ctx, inst)))
            return ctx->result;
        merge = begin_conditional(ctx, cond);
        if (inst->op == SB_IR_OP_CALLC) {
            sb_spv_op1(b, SpvOpFunctionCall, sb_spv_t_void(ctx), ctx->function_ids[inst->target]);
            sb_spv_branch(b, merge);
        } else {
            sb_spv_terminate(b, inst->op == SB_IR_OP_RETC ? SpvOpReturn : SpvOpKill);
        }
        sb_spv_label(b, merge);
        return ctx->result;
    case SB_IR_OP_ABORT: case SB_IR_OP_DEBUG_BREAK:
        /* Debugging aids of the reference device; hardware drivers ignore them. */
        return SB_SUCCESS;
    case SB_IR_OP_INTERFACE_CALL: /* OpSwitch over spec constants (spirv_linkage.c) */
        return sb_spv_linkage_call(ctx, inst);
    case SB_IR_OP_CALL:
        if (!check_function(ctx, inst))
            return ctx->result;
        sb_spv_op1(b, SpvOpFunctionCall, sb_spv_t_void(ctx), ctx->function_ids[inst->target]);
        return ctx->result;
    default:
        return SB_ERROR_TRANSLATE_UNSUPPORTED;
    }
}

enum sb_result sb_spv_flow_instruction(struct sb_spv_context *ctx, const struct sb_ir_instruction *inst)
{
    /* Only reachable through sb_spv_emit_function, which owns the construct stack. */
    (void)ctx;
    (void)inst;
    return SB_ERROR_TRANSLATE_UNSUPPORTED;
}

/* A resource or stage instruction through the parts that may know it. */
static enum sb_result resource_or_stage(struct sb_spv_context *ctx, const struct sb_ir_instruction *inst)
{
    /* t[r]/s[r]/u[r] chosen by class-linkage this data first (spirv_linkage.c). */
    enum sb_result r = sb_spv_linkage_resource_instruction(ctx, inst);
    if (r == SB_ERROR_TRANSLATE_UNSUPPORTED && ctx->result == SB_SUCCESS)
        r = sb_spv_resource_instruction(ctx, inst);
    if (r == SB_ERROR_TRANSLATE_UNSUPPORTED && ctx->result == SB_SUCCESS)
        r = sb_spv_stage_instruction(ctx, inst);
    return r;
}

/* One instruction through the parts that may know it. */
static enum sb_result dispatch(struct sb_spv_context *ctx, struct flow_state *f,
                               const struct sb_ir_instruction *inst)
{
    enum sb_result r;
    if (sb_spv_op_is_flow(inst->op)) {
        r = flow_op(ctx, f, inst);
        sb_spv_registers_forget(ctx); /* calls write r# */
        ctx->temp_region++; /* a memoryless r#'s value ends here (spirv_registers.c, struct temp_scan) */
    } else if (sb_spv_op_is_alu(inst->op)) {
        /* ALU ops stay in their block and read r# only through the operand helpers: their
         * r# writes may wait for the next flush (sb_spv_emit_function). */
        ctx->defer_temp_stores = true;
        r = sb_spv_alu_instruction(ctx, inst);
        ctx->defer_temp_stores = false;
    } else if (inst->op >= SB_IR_OP_EVAL_CENTROID && inst->op <= SB_IR_OP_EVAL_SNAPPED) {
        r = sb_spv_io_instruction(ctx, inst);
    } else if (sb_ir_op_is_wave(inst->op)) {
        r = sb_spv_wave_instruction(ctx, inst);
    } else {
        /* Non-uniform range indices the device cannot take go through a loop (spirv_waterfall.c).
         * No call is emitted by these ops and their r# writes go through the operand helpers,
         * so the cached r# values stay valid (a block they open starts its own cache). */
        r = sb_spv_waterfall_needed(ctx, inst) ? sb_spv_waterfall_emit(ctx, inst, resource_or_stage)
                                               : resource_or_stage(ctx, inst);
    }
    if (r == SB_ERROR_TRANSLATE_UNSUPPORTED && ctx->result == SB_SUCCESS)
        return sb_spv_unsupported(ctx, inst);
    if (ctx->result != SB_SUCCESS)
        return ctx->result;
    return r;
}

/*
 * Code after an unconditional break, continue or ret up to the next marker of
 * the enclosing construct can never run. Emitting it would put it in a block
 * without predecessors that then branches on to a merge or continue target
 * of a construct it is not inside, which SPIR-V forbids ("branches to the
 * loop continue target, but is not contained in the associated loop
 * construct"), so it is skipped: `dead_depth` counts the constructs opened
 * inside the dead stretch so that only the enclosing construct's own marker
 * ends it.
 */
struct dead_code {
    bool active;
    uint32_t depth;
};

static bool skip_dead(struct dead_code *dead, const struct sb_ir_instruction *inst)
{
    uint32_t op = inst->op;
    if (!dead->active) {
        if (op == SB_IR_OP_BREAK || op == SB_IR_OP_CONTINUE || op == SB_IR_OP_RET)
            *dead = (struct dead_code){ .active = true };
        return false; /* the terminator itself is emitted */
    }
    switch (op) {
    case SB_IR_OP_IF: case SB_IR_OP_LOOP: case SB_IR_OP_SWITCH:
        dead->depth++;
        return true;
    case SB_IR_OP_ENDIF: case SB_IR_OP_ENDLOOP: case SB_IR_OP_ENDSWITCH:
        if (dead->depth) {
            dead->depth--;
            return true;
        }
        break;
    case SB_IR_OP_ELSE: case SB_IR_OP_CASE: case SB_IR_OP_DEFAULT:
        if (dead->depth)
            return true;
        break;
    default:
        return true;
    }
    dead->active = false; /* a marker of the enclosing construct: live again */
    return false;
}

/*
 * Whether r# memory is dead once function `index` returns, so that the writes still
 * deferred at a `ret` (or the body's end) need no store. True for the entry body of a
 * program with no other function: main runs it once and afterwards reads only o# and the
 * special outputs. Subroutines and class-linkage bodies share r# with their callers, and
 * hull-shader phases may run in a loop (one call per instance), so any second function,
 * or the hull stage, keeps every store.
 */
static bool temps_die_at_return(const struct sb_spv_context *ctx, uint32_t index)
{
    const struct sb_ir_program *p = ctx->program;
    return index == 0 && p->function_count == 1 && p->stage != SB_IR_STAGE_HULL;
}

static bool has_direct_file(const struct sb_spv_context *ctx)
{
    for (uint32_t file = 0; file < SB_IR_FILE_COUNT; file++)
        if (ctx->files[file].direct)
            return true;
    return false;
}

enum sb_result sb_spv_emit_function(struct sb_spv_context *ctx, uint32_t index)
{
    struct sb_spv_builder *b = &ctx->builder;
    const struct sb_ir_function *fn = &ctx->program->functions[index];
    struct flow_state f = { .function = fn };
    ctx->current_function = index;
    ctx->temp_region++;
    sb_spv_function_begin(b, ctx->function_ids[index], sb_spv_t_void(ctx), sb_spv_t_void_function(ctx));
    /* About 16 words per IR instruction (lane loads, the op, the store): one allocation
     * instead of a chain of regrowths for most bodies. */
    sb_spv_function_reserve(b, (size_t)fn->instruction_count * 16 + 64);
    if (index == 0 && has_direct_file(ctx))
        sb_spv_io_direct_begin(ctx); /* the inputs' values and zeroed outputs, first thing */
    enum sb_result r = SB_SUCCESS;
    struct dead_code dead = { 0 };
    bool temps_die = temps_die_at_return(ctx, index);
    for (uint32_t i = 0; i < fn->instruction_count && r == SB_SUCCESS; i++) {
        const struct sb_ir_instruction *inst = &fn->instructions[i];
        if (skip_dead(&dead, inst))
            continue;
        ctx->inst = inst;
        b->origin = inst->offset;
        f.index = i;
        /* Deferred r# writes land before anything that may read r# memory or leave the
         * block, under the OpLine of the ALU instructions that made them; before a `ret`
         * after which nothing reads r#, they are dropped, and the block's r# stores that
         * nothing read are taken back. */
        if (temps_die && inst->op == SB_IR_OP_RET)
            sb_spv_registers_discard(ctx);
        else if (!sb_spv_op_is_alu(inst->op))
            sb_spv_registers_flush(ctx);
        if (ctx->debug_info && (b->block_open || !b->current_block))
            sb_spv_debug_line(ctx, inst);
        r = dispatch(ctx, &f, inst);
    }
    if (r == SB_SUCCESS && f.depth)
        r = sb_spv_fail(ctx, SB_ERROR_TRANSLATE_INVALID, NULL, "function %u ends inside a %s", index,
                        f.stack[f.depth - 1].kind == CONSTRUCT_LOOP ? "loop"
                        : f.stack[f.depth - 1].kind == CONSTRUCT_IF ? "if" : "switch");
    if (temps_die) /* a body that ends without ret */
        sb_spv_registers_discard(ctx);
    else
        sb_spv_registers_flush(ctx);
    sb_spv_function_end(b);
    ctx->inst = NULL;
    b->origin = SB_SPV_NO_ORIGIN;
    return r;
}
