/* SPDX-License-Identifier: MIT */
/*
 * Wave and quad dx.ops (../shared/docs/dxil.md §3.6 "Wave and quad
 * operations", §7.7) -> the IR's WAVE_* / QUAD_* ops (IR.md "Waves"), on
 * 32-bit scalars and i1 conditions. QuadVote has no IR op of its own: it is
 * the OR / AND of the lane's condition and the three other quad lanes'
 * (QUAD_READ_ACROSS_X / _Y / _DIAGONAL), which is what "any / all of the
 * quad" means. WaveMatch and WaveMultiPrefix* are loops over the lanes
 * (ir_from_dxil_wave_lanes.c). Refused, by name: the 16- and 64-bit overloads.
 */
#include "ir_from_dxil_private.h"
#include "translator/dxil_opcodes.h"
#include "translator/dxil_ops.h"

bool dxil_front_is_wave(uint64_t opcode)
{
    return (opcode >= SB_DXIL_OP_WAVE_IS_FIRST_LANE && opcode <= SB_DXIL_OP_QUAD_OP) ||
           opcode == SB_DXIL_OP_WAVE_ALL_BIT_COUNT || opcode == SB_DXIL_OP_WAVE_PREFIX_BIT_COUNT ||
           opcode == SB_DXIL_OP_QUAD_VOTE ||
           (opcode >= SB_DXIL_OP_WAVE_MATCH && opcode <= SB_DXIL_OP_WAVE_MULTI_PREFIX_BIT_COUNT);
}

/* The value operands must be 32-bit lanes: i1 (a D3D bool), i32 or float. */
static bool check_value_type(struct dxil_front *f, uint32_t value)
{
    const struct sb_bc_value *v = sb_bc_value_get(f->module, f->function, value);
    const struct sb_bc_type *t = v ? dxil_front_type(f, v->type) : NULL;
    if (!t || !((t->kind == SB_BC_TYPE_INTEGER && (t->width == 1 || t->width == 32)) ||
                t->kind == SB_BC_TYPE_FLOAT))
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_UNSUPPORTED,
                               "a 16- or 64-bit wave or quad op overload");
    return true;
}

/* Argument i as a lane-x source, when it is a 32-bit value. */
static bool value_arg(struct dxil_front *f, const struct sb_bc_instruction *in, uint32_t i,
                      struct sb_ir_operand *out)
{
    uint32_t value = 0;
    return dxil_front_arg(f, in, i, &value) && check_value_type(f, value) &&
           dxil_front_src(f, value, 0, out);
}

static struct sb_ir_instruction *emit_result(struct dxil_front *f,
                                             const struct sb_bc_instruction *in, uint32_t op,
                                             const struct sb_ir_operand *src, uint32_t count)
{
    uint32_t temp = 0;
    if (!dxil_front_result_temp(f, in, 1, &temp))
        return NULL;
    struct sb_ir_operand dst = dxil_front_temp_dst(temp, 0x1);
    return dxil_front_emit(f, op, &dst, 1, src, count);
}

/* WaveActiveOp / WavePrefixOp (value, op, sop): sum, product, min, max; WaveActiveBit
 * (value, op): and, or, xor on unsigned lanes. */
static bool reduction(struct dxil_front *f, const struct sb_bc_instruction *in, uint64_t opcode)
{
    struct sb_ir_operand a;
    uint64_t op = 0, sop = 1;
    bool prefix = opcode == SB_DXIL_OP_WAVE_PREFIX_OP, bits = opcode == SB_DXIL_OP_WAVE_ACTIVE_BIT;
    if (!value_arg(f, in, 1, &a) || !dxil_front_const_arg(f, in, 2, &op) ||
        (!bits && !dxil_front_const_arg(f, in, 3, &sop)))
        return false;
    const struct sb_bc_type *t = dxil_front_arg_type(f, in, 1);
    bool is_float = t && t->kind == SB_BC_TYPE_FLOAT;
    if (!bits && t && t->kind == SB_BC_TYPE_INTEGER && t->width == 1) /* i1 sums: no IR form */
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_UNSUPPORTED,
                               "a wave sum, product, min or max of i1 values");
    static const uint32_t kinds[4] = { SB_IR_WAVE_SUM, SB_IR_WAVE_PRODUCT, SB_IR_WAVE_MIN,
                                       SB_IR_WAVE_MAX };
    static const uint32_t bit_kinds[3] = { SB_IR_WAVE_AND, SB_IR_WAVE_OR, SB_IR_WAVE_XOR };
    if (op > (bits ? 2u : prefix ? 1u : 3u) || sop > 1)
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_INVALID, "wave op kind %llu/%llu",
                               (unsigned long long)op, (unsigned long long)sop);
    uint32_t ir_op = prefix ? (is_float ? SB_IR_OP_WAVE_PREFIX_FLOAT : SB_IR_OP_WAVE_PREFIX_INT)
                            : is_float ? SB_IR_OP_WAVE_ACTIVE_FLOAT
                            : sop ? SB_IR_OP_WAVE_ACTIVE_UINT : SB_IR_OP_WAVE_ACTIVE_INT;
    struct sb_ir_instruction *out = emit_result(f, in, ir_op, &a, 1);
    if (out)
        out->wave_op = bits ? bit_kinds[op] : kinds[op];
    return out != NULL;
}

/* QuadVote (cond, op): the condition OR-ed (any) / AND-ed (all) with the other three
 * lanes of the quad. */
static bool quad_vote(struct dxil_front *f, const struct sb_bc_instruction *in)
{
    struct sb_ir_operand c;
    uint64_t op = 0;
    uint32_t temp = 0;
    if (!value_arg(f, in, 1, &c) || !dxil_front_const_arg(f, in, 2, &op) ||
        !dxil_front_result_temp(f, in, 1, &temp))
        return false;
    if (op > 1)
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_INVALID, "quad vote kind %llu",
                               (unsigned long long)op);
    static const uint32_t across[3] = { SB_IR_OP_QUAD_READ_ACROSS_X, SB_IR_OP_QUAD_READ_ACROSS_Y,
                                        SB_IR_OP_QUAD_READ_ACROSS_DIAGONAL };
    uint32_t others = dxil_front_new_temp(f);
    for (uint32_t k = 0; k < 3; k++) {
        struct sb_ir_operand d = dxil_front_temp_dst(others, (uint8_t)(1u << k));
        if (!dxil_front_emit(f, across[k], &d, 1, &c, 1))
            return false;
    }
    struct sb_ir_operand dst = dxil_front_temp_dst(temp, 0x1);
    uint32_t combine = op ? SB_IR_OP_AND : SB_IR_OP_OR;
    struct sb_ir_operand src[2] = { c, dxil_front_temp_src(others, 0) };
    for (uint32_t k = 0; k < 3; k++) {
        src[1] = dxil_front_temp_src(others, k);
        if (!dxil_front_emit(f, combine, &dst, 1, src, 2))
            return false;
        src[0] = dxil_front_temp_src(temp, 0);
    }
    return true;
}

/* WaveActiveBallot (cond) -> the four words of a fouri32 struct. */
static bool ballot(struct dxil_front *f, const struct sb_bc_instruction *in)
{
    struct sb_ir_operand c;
    uint32_t temp = 0;
    if (!value_arg(f, in, 1, &c) || !dxil_front_result_temp(f, in, 4, &temp))
        return false;
    struct sb_ir_operand dst = dxil_front_temp_dst(temp, 0xF);
    return dxil_front_emit(f, SB_IR_OP_WAVE_BALLOT, &dst, 1, &c, 1) != NULL;
}

/* Ops of one value operand (or none) with a one-lane result. */
static uint32_t simple_op(uint64_t opcode, uint32_t *sources)
{
    *sources = 1;
    switch (opcode) {
    case SB_DXIL_OP_WAVE_IS_FIRST_LANE: *sources = 0; return SB_IR_OP_WAVE_IS_FIRST_LANE;
    case SB_DXIL_OP_WAVE_GET_LANE_INDEX: *sources = 0; return SB_IR_OP_WAVE_LANE_INDEX;
    case SB_DXIL_OP_WAVE_GET_LANE_COUNT: *sources = 0; return SB_IR_OP_WAVE_LANE_COUNT;
    case SB_DXIL_OP_WAVE_ANY_TRUE: return SB_IR_OP_WAVE_ANY_TRUE;
    case SB_DXIL_OP_WAVE_ALL_TRUE: return SB_IR_OP_WAVE_ALL_TRUE;
    case SB_DXIL_OP_WAVE_ACTIVE_ALL_EQUAL: return SB_IR_OP_WAVE_ALL_EQUAL;
    case SB_DXIL_OP_WAVE_READ_LANE_FIRST: return SB_IR_OP_WAVE_READ_LANE_FIRST;
    case SB_DXIL_OP_WAVE_ALL_BIT_COUNT: return SB_IR_OP_WAVE_ACTIVE_COUNT_BITS;
    case SB_DXIL_OP_WAVE_PREFIX_BIT_COUNT: return SB_IR_OP_WAVE_PREFIX_COUNT_BITS;
    case SB_DXIL_OP_WAVE_READ_LANE_AT: *sources = 2; return SB_IR_OP_WAVE_READ_LANE_AT;
    case SB_DXIL_OP_QUAD_READ_LANE_AT: *sources = 2; return SB_IR_OP_QUAD_READ_LANE_AT;
    default: return SB_IR_OP_NOP;
    }
}

bool dxil_front_wave(struct dxil_front *f, const struct sb_bc_instruction *in, uint64_t opcode)
{
    switch (opcode) {
    case SB_DXIL_OP_WAVE_ACTIVE_OP:
    case SB_DXIL_OP_WAVE_PREFIX_OP:
    case SB_DXIL_OP_WAVE_ACTIVE_BIT: return reduction(f, in, opcode);
    case SB_DXIL_OP_WAVE_ACTIVE_BALLOT: return ballot(f, in);
    case SB_DXIL_OP_QUAD_VOTE: return quad_vote(f, in);
    case SB_DXIL_OP_WAVE_MATCH:
    case SB_DXIL_OP_WAVE_MULTI_PREFIX_OP:
    case SB_DXIL_OP_WAVE_MULTI_PREFIX_BIT_COUNT: return dxil_front_wave_lanes(f, in, opcode);
    case SB_DXIL_OP_QUAD_OP: {
        struct sb_ir_operand a;
        uint64_t op = 0;
        static const uint32_t across[3] = { SB_IR_OP_QUAD_READ_ACROSS_X,
                                            SB_IR_OP_QUAD_READ_ACROSS_Y,
                                            SB_IR_OP_QUAD_READ_ACROSS_DIAGONAL };
        if (!value_arg(f, in, 1, &a) || !dxil_front_const_arg(f, in, 2, &op))
            return false;
        if (op > 2)
            return dxil_front_fail(f, SB_ERROR_TRANSLATE_INVALID, "quad op kind %llu",
                                   (unsigned long long)op);
        return emit_result(f, in, across[op], &a, 1) != NULL;
    }
    default: break;
    }
    uint32_t sources = 0, op = simple_op(opcode, &sources);
    struct sb_ir_operand src[2];
    if (op == SB_IR_OP_NOP)
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_INVALID, "dx.op %llu is no wave op",
                               (unsigned long long)opcode);
    if (sources >= 1 && !value_arg(f, in, 1, &src[0]))
        return false;
    if (sources == 2) { /* the lane index: any 32-bit value */
        uint32_t lane = 0;
        if (!dxil_front_arg(f, in, 2, &lane) || !dxil_front_src(f, lane, 0, &src[1]))
            return false;
    }
    return emit_result(f, in, op, src, sources) != NULL;
}
