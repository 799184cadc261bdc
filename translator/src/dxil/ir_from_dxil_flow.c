/* SPDX-License-Identifier: MIT */
/*
 * The entry function's control flow -> IR structured markers
 * (dxil_structurize.h, ../shared/docs/dxil.md §6): builds the CFG from the
 * blocks' terminators, structures it, and walks the events, emitting each
 * block's instructions at its BLOCK event and the phi copies of an edge at
 * its EDGE event. The copies of one edge are a parallel copy: every source
 * is read into a scratch temp before any phi temp is written, so phis that
 * read each other (a swap in a loop) keep their old values.
 */
#include <stdlib.h>

#include "ir_from_dxil_private.h"
#include "dxil_structurize.h"

/* The CFG of the function, successors borrowed from the instructions. */
static bool build_cfg(struct dxil_front *f, struct sb_dxil_cfg_block *blocks)
{
    const struct sb_bc_function *fn = f->function;
    for (uint32_t b = 0; b < fn->block_count; b++) {
        const struct sb_bc_basic_block *bb = &fn->blocks[b];
        if (bb->instruction_count == 0)
            return dxil_front_fail(f, SB_ERROR_TRANSLATE_INVALID, "block %u is empty", b);
        const struct sb_bc_instruction *t = &fn->instructions[bb->first_instruction +
                                                              bb->instruction_count - 1];
        struct sb_dxil_cfg_block *out = &blocks[b];
        out->offset = t->offset;
        out->successors = t->blocks;
        out->successor_count = t->block_count;
        switch (t->opcode) {
        case SB_BC_OP_RET: out->terminator = SB_DXIL_CFG_RETURN; break;
        case SB_BC_OP_UNREACHABLE: out->terminator = SB_DXIL_CFG_UNREACHABLE; break;
        case SB_BC_OP_BR:
            out->terminator = t->block_count == 2 ? SB_DXIL_CFG_COND_BRANCH : SB_DXIL_CFG_BRANCH;
            break;
        case SB_BC_OP_SWITCH:
            out->terminator = SB_DXIL_CFG_SWITCH;
            break;
        default:
            f->offset = t->offset;
            return dxil_front_fail(f, SB_ERROR_TRANSLATE_INVALID,
                                   "block %u does not end in a terminator", b);
        }
    }
    return true;
}

/* Case values of every switch, as the structurizer wants them (32-bit literals). */
static bool switch_cases(struct dxil_front *f, struct sb_dxil_cfg_block *blocks, uint32_t **cases)
{
    const struct sb_bc_function *fn = f->function;
    size_t total = 0;
    for (uint32_t b = 0; b < fn->block_count; b++)
        if (blocks[b].terminator == SB_DXIL_CFG_SWITCH)
            total += blocks[b].successor_count;
    *cases = dxil_front_alloc(f, total, sizeof(**cases));
    if (!*cases)
        return false;
    size_t used = 0;
    for (uint32_t b = 0; b < fn->block_count; b++) {
        if (blocks[b].terminator != SB_DXIL_CFG_SWITCH)
            continue;
        const struct sb_bc_basic_block *bb = &fn->blocks[b];
        const struct sb_bc_instruction *t = &fn->instructions[bb->first_instruction +
                                                              bb->instruction_count - 1];
        uint32_t *values = *cases + used;
        for (uint32_t c = 0; c + 1 < t->block_count; c++) {
            uint64_t v;
            f->offset = t->offset;
            if (c + 1 >= t->operand_count || !dxil_front_const_int(f, t->operands[c + 1], &v))
                return dxil_front_fail(f, SB_ERROR_TRANSLATE_INVALID, "switch case %u", c);
            values[c] = (uint32_t)v;
        }
        blocks[b].case_values = values;
        used += t->block_count;
    }
    return true;
}

static const struct sb_bc_instruction *terminator(const struct dxil_front *f, uint32_t block)
{
    const struct sb_bc_basic_block *bb = &f->function->blocks[block];
    return &f->function->instructions[bb->first_instruction + bb->instruction_count - 1];
}

/* Block `b`'s instructions, phis and terminator left out. */
static bool emit_block(struct dxil_front *f, uint32_t b)
{
    const struct sb_bc_basic_block *bb = &f->function->blocks[b];
    f->block_first_plus1 = bb->first_instruction + 1;
    for (uint32_t i = 0; i + 1 < bb->instruction_count; i++) {
        const struct sb_bc_instruction *in = &f->function->instructions[bb->first_instruction + i];
        if (in->opcode != SB_BC_OP_PHI && !dxil_front_instruction(f, in)) {
            f->block_first_plus1 = 0;
            return false;
        }
    }
    f->block_first_plus1 = 0;
    return true;
}

/* The phi copies of edge pred -> succ, through scratch temps (a parallel copy). */
static bool emit_edge(struct dxil_front *f, struct sb_dxil_cf_edge edge)
{
    const struct sb_bc_basic_block *bb = &f->function->blocks[edge.succ];
    uint32_t phis = 0;
    while (phis < bb->instruction_count &&
           f->function->instructions[bb->first_instruction + phis].opcode == SB_BC_OP_PHI)
        phis++;
    uint32_t scratch = f->temp_count;
    f->temp_count += phis;
    for (uint32_t pass = 0; pass < 2; pass++) {
        for (uint32_t p = 0; p < phis; p++) {
            const struct sb_bc_instruction *phi = &f->function->instructions[bb->first_instruction + p];
            f->offset = phi->offset;
            struct sb_ir_operand dst, src;
            uint8_t mask = dxil_front_is_wide_type(f, phi->type) ? 0x3 : 0x1; /* i64/double: xy */
            if (pass == 0) {
                uint32_t k = 0;
                while (k < phi->block_count && (phi->blocks[k] != edge.pred || k >= phi->operand_count))
                    k++;
                if (k == phi->block_count)
                    return dxil_front_fail(f, SB_ERROR_TRANSLATE_INVALID,
                                           "phi has no value for block %u", edge.pred);
                if (mask == 0x3 ? !dxil_front_src64_lanes(f, phi->operands[k], &src)
                                : dxil_front_type_lanes(f, phi->type) != 1 ||
                                      !dxil_front_src(f, phi->operands[k], 0, &src))
                    return dxil_front_fail(f, SB_ERROR_TRANSLATE_UNSUPPORTED,
                                           "a phi that is not a 32- or 64-bit scalar");
                dst = dxil_front_temp_dst(scratch + p, mask);
            } else {
                uint32_t temp = dxil_front_value_temp(f, phi->value);
                if (temp == DXIL_FRONT_NONE)
                    return false;
                dst = dxil_front_temp_dst(temp, mask);
                src = dxil_front_temp_src(scratch + p, 0);
                src.swizzle[1] = src.swizzle[3] = 1;
            }
            if (!dxil_front_emit(f, SB_IR_OP_MOV, &dst, 1, &src, 1))
                return false;
        }
    }
    return true;
}

static bool emit_marker(struct dxil_front *f, uint32_t op)
{
    return dxil_front_emit(f, op, NULL, 0, NULL, 0) != NULL;
}

/* IF on block `b`'s branch condition: true when non-zero (IF_TRUE) or zero (IF_FALSE). */
static bool emit_if(struct dxil_front *f, uint32_t b, bool when_true)
{
    const struct sb_bc_instruction *t = terminator(f, b);
    struct sb_ir_operand cond;
    f->offset = t->offset;
    if (t->operand_count < 1 || !dxil_front_src(f, t->operands[0], 0, &cond))
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_INVALID, "branch without a condition");
    struct sb_ir_instruction *in = dxil_front_emit(f, SB_IR_OP_IF, NULL, 0, &cond, 1);
    if (in && when_true)
        in->flags |= SB_IR_FLAG_TEST_NZ;
    return in != NULL;
}

static bool emit_switch(struct dxil_front *f, struct sb_ir_operand selector)
{
    return dxil_front_emit(f, SB_IR_OP_SWITCH, NULL, 0, &selector, 1) != NULL;
}

static bool emit_event(struct dxil_front *f, const struct sb_dxil_structured *s,
                       struct sb_dxil_cf_event e)
{
    switch (e.kind) {
    case SB_DXIL_CF_BLOCK: return emit_block(f, e.value);
    case SB_DXIL_CF_IF_TRUE: return emit_if(f, e.value, true);
    case SB_DXIL_CF_IF_FALSE: return emit_if(f, e.value, false);
    case SB_DXIL_CF_ELSE: return emit_marker(f, SB_IR_OP_ELSE);
    case SB_DXIL_CF_ENDIF: return emit_marker(f, SB_IR_OP_ENDIF);
    case SB_DXIL_CF_LOOP: return emit_marker(f, SB_IR_OP_LOOP);
    case SB_DXIL_CF_ENDLOOP: return emit_marker(f, SB_IR_OP_ENDLOOP);
    case SB_DXIL_CF_BREAK: return emit_marker(f, SB_IR_OP_BREAK);
    case SB_DXIL_CF_CONTINUE: return emit_marker(f, SB_IR_OP_CONTINUE);
    case SB_DXIL_CF_DEFAULT: return emit_marker(f, SB_IR_OP_DEFAULT);
    case SB_DXIL_CF_ENDSWITCH: return emit_marker(f, SB_IR_OP_ENDSWITCH);
    case SB_DXIL_CF_RETURN:
    case SB_DXIL_CF_UNREACHABLE: return emit_marker(f, SB_IR_OP_RET);
    case SB_DXIL_CF_EDGE: return emit_edge(f, s->edges[e.value]);
    case SB_DXIL_CF_CASE: {
        struct sb_ir_instruction *in = dxil_front_emit(f, SB_IR_OP_CASE, NULL, 0, NULL, 0);
        if (in)
            in->case_value = e.value;
        return in != NULL;
    }
    case SB_DXIL_CF_SWITCH: {
        const struct sb_bc_instruction *t = terminator(f, e.value);
        struct sb_ir_operand selector;
        f->offset = t->offset;
        return t->operand_count >= 1 && dxil_front_src(f, t->operands[0], 0, &selector) &&
               emit_switch(f, selector);
    }
    case SB_DXIL_CF_SWITCH_SELECTOR:
        return emit_switch(f, dxil_front_temp_src(f->selector_temp, 0));
    case SB_DXIL_CF_SET_SELECTOR: {
        struct sb_ir_operand dst = dxil_front_temp_dst(f->selector_temp, 0x1);
        struct sb_ir_operand src = dxil_front_imm(e.value);
        return dxil_front_emit(f, SB_IR_OP_MOV, &dst, 1, &src, 1) != NULL;
    }
    case SB_DXIL_CF_IF_SELECTOR: {
        uint32_t t = dxil_front_new_temp(f);
        struct sb_ir_operand dst = dxil_front_temp_dst(t, 0x1);
        struct sb_ir_operand src[2] = { dxil_front_temp_src(f->selector_temp, 0),
                                        dxil_front_imm(e.value) };
        struct sb_ir_operand cond = dxil_front_temp_src(t, 0);
        if (!dxil_front_emit(f, SB_IR_OP_IEQ, &dst, 1, src, 2))
            return false;
        struct sb_ir_instruction *in = dxil_front_emit(f, SB_IR_OP_IF, NULL, 0, &cond, 1);
        if (in)
            in->flags |= SB_IR_FLAG_TEST_NZ;
        return in != NULL;
    }
    default:
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_INVALID, "structurizer event %u",
                               (unsigned)e.kind);
    }
}

bool dxil_front_body(struct dxil_front *f)
{
    const struct sb_bc_function *fn = f->function;
    if (fn->block_count == 0)
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_INVALID, "the entry function has no body");
    struct sb_dxil_cfg_block *blocks = dxil_front_alloc(f, fn->block_count, sizeof(*blocks));
    uint32_t *cases = NULL;
    if (!blocks || !build_cfg(f, blocks) || !switch_cases(f, blocks, &cases))
        return false;
    struct sb_dxil_cfg cfg = { .block_count = fn->block_count, .blocks = blocks };
    struct sb_dxil_structured s;
    struct sb_error error;
    if (sb_dxil_structurize(&cfg, false, &s, &error) != SB_SUCCESS) {
        f->failed = true;
        f->error = error;
        return false;
    }
    f->selector_temp = dxil_front_new_temp(f);
    bool ok = true;
    for (uint32_t i = 0; i < s.event_count && ok; i++)
        ok = emit_event(f, &s, s.events[i]);
    sb_dxil_structured_free(&s);
    return ok;
}
