/* SPDX-License-Identifier: MIT */
/*
 * The unary, binary and tertiary math dx.ops and the dot products
 * (../shared/docs/dxil.md §3) on 32-bit float and integer scalars -> IR.
 * The IR ops carry D3D's semantics, which DXIL keeps: Exp/Log are base 2,
 * FMin/FMax return the other operand when one is NaN (§7.3), Saturate maps
 * NaN to 0. Half overloads compute at 32 bits (rounded to half with native 16-bit
 * types); double ones go to ir_from_dxil_math_more.c, as do the integer, bit,
 * classification, hyperbolic and two-result ops; IMax/IMin/UMax/UMin on i16
 * and i64 to ir_from_dxil_wide.c.
 */
#include "ir_from_dxil_private.h"
#include "translator/dxil_opcodes.h"

/* The IR op of a one-source math dx.op; NOP when it is not one. */
static uint32_t unary_op(uint64_t opcode)
{
    switch (opcode) {
    case SB_DXIL_OP_EXP: return SB_IR_OP_EXP;
    case SB_DXIL_OP_LOG: return SB_IR_OP_LOG;
    case SB_DXIL_OP_SQRT: return SB_IR_OP_SQRT;
    case SB_DXIL_OP_RSQRT: return SB_IR_OP_RSQ;
    case SB_DXIL_OP_FRC: return SB_IR_OP_FRC;
    case SB_DXIL_OP_ROUND_NE: return SB_IR_OP_ROUND_NE;
    case SB_DXIL_OP_ROUND_NI: return SB_IR_OP_ROUND_NI;
    case SB_DXIL_OP_ROUND_PI: return SB_IR_OP_ROUND_PI;
    case SB_DXIL_OP_ROUND_Z: return SB_IR_OP_ROUND_Z;
    case SB_DXIL_OP_FABS:
    case SB_DXIL_OP_SATURATE: return SB_IR_OP_MOV;
    default: return SB_IR_OP_NOP;
    }
}

static uint32_t binary_op(uint64_t opcode)
{
    switch (opcode) {
    case SB_DXIL_OP_FMAX: return SB_IR_OP_MAX;
    case SB_DXIL_OP_FMIN: return SB_IR_OP_MIN;
    case SB_DXIL_OP_IMAX: return SB_IR_OP_IMAX;
    case SB_DXIL_OP_IMIN: return SB_IR_OP_IMIN;
    case SB_DXIL_OP_UMAX: return SB_IR_OP_UMAX;
    case SB_DXIL_OP_UMIN: return SB_IR_OP_UMIN;
    default: return SB_IR_OP_NOP;
    }
}

bool dxil_front_is_math(uint64_t opcode)
{
    return unary_op(opcode) != SB_IR_OP_NOP || binary_op(opcode) != SB_IR_OP_NOP ||
           opcode == SB_DXIL_OP_SIN || opcode == SB_DXIL_OP_COS || opcode == SB_DXIL_OP_FMAD ||
           opcode == SB_DXIL_OP_DOT2 || opcode == SB_DXIL_OP_DOT3 || opcode == SB_DXIL_OP_DOT4 ||
           dxil_front_is_math_more(opcode);
}

/* Sources 1..count of the call (after the opcode), lane x. */
static bool call_sources(struct dxil_front *f, const struct sb_bc_instruction *in, uint32_t count,
                         struct sb_ir_operand *src)
{
    if (in->operand_count < 2 + count)
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_INVALID, "math dx.op with %u operands",
                               in->operand_count);
    for (uint32_t i = 0; i < count; i++)
        if (!dxil_front_src(f, in->operands[2 + i], 0, &src[i]))
            return false;
    return true;
}

/* The result's lane, when the overload is a half, float or 32-bit integer scalar. */
static bool scalar_dst(struct dxil_front *f, const struct sb_bc_instruction *in,
                       struct sb_ir_operand *dst)
{
    const struct sb_bc_type *t = dxil_front_type(f, in->type);
    if (!t || !(t->kind == SB_BC_TYPE_FLOAT || t->kind == SB_BC_TYPE_HALF ||
                (t->kind == SB_BC_TYPE_INTEGER && t->width == 32)))
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_UNSUPPORTED,
                               "a 16- or 64-bit math dx.op overload");
    uint32_t temp = dxil_front_value_temp(f, in->value);
    if (temp == DXIL_FRONT_NONE)
        return false;
    *dst = dxil_front_temp_dst(temp, 0x1);
    return true;
}

/* DotN(a0..aN-1, b0..bN-1): both vectors gathered into temps, then DP2/DP3/DP4. */
static bool dot(struct dxil_front *f, const struct sb_bc_instruction *in, uint32_t n,
                struct sb_ir_operand dst)
{
    struct sb_ir_operand src[8];
    if (!call_sources(f, in, 2 * n, src))
        return false;
    uint32_t vec[2] = { dxil_front_new_temp(f), dxil_front_new_temp(f) };
    for (uint32_t v = 0; v < 2; v++)
        for (uint32_t lane = 0; lane < n; lane++) {
            struct sb_ir_operand d = dxil_front_temp_dst(vec[v], (uint8_t)(1u << lane));
            if (!dxil_front_emit(f, SB_IR_OP_MOV, &d, 1, &src[v * n + lane], 1))
                return false;
        }
    struct sb_ir_operand a[2];
    for (uint32_t v = 0; v < 2; v++) {
        a[v] = dxil_front_temp_src(vec[v], 0);
        for (unsigned i = 0; i < 4; i++)
            a[v].swizzle[i] = (uint8_t)i;
    }
    static const uint32_t ops[5] = { 0, 0, SB_IR_OP_DP2, SB_IR_OP_DP3, SB_IR_OP_DP4 };
    return dxil_front_emit(f, ops[n], &dst, 1, a, 2) != NULL;
}

static bool math_32(struct dxil_front *f, const struct sb_bc_instruction *in, uint64_t opcode,
                    struct sb_ir_operand dst);

bool dxil_front_math(struct dxil_front *f, const struct sb_bc_instruction *in, uint64_t opcode)
{
    if (dxil_front_is_math_more(opcode))
        return dxil_front_math_more(f, in, opcode);
    const struct sb_bc_type *result_type = dxil_front_type(f, in->type);
    uint32_t op = binary_op(opcode);
    bool integer_minmax = op == SB_IR_OP_IMAX || op == SB_IR_OP_IMIN || op == SB_IR_OP_UMAX ||
                          op == SB_IR_OP_UMIN;
    if (integer_minmax && result_type && result_type->kind == SB_BC_TYPE_INTEGER &&
        result_type->width != 32)
        return dxil_front_minmax_wide(f, in, op); /* i16, i64 */
    if (dxil_front_is_wide_type(f, in->type))
        return dxil_front_math_double(f, in, opcode);
    struct sb_ir_operand dst;
    if (!scalar_dst(f, in, &dst))
        return false;
    /* A native half result: computed at 32 bits, then rounded to the nearest half. */
    const struct sb_bc_type *t = dxil_front_type(f, in->type);
    if (t->kind != SB_BC_TYPE_HALF || !dxil_front_native_16bit(f))
        return math_32(f, in, opcode, dst);
    uint32_t full = dxil_front_new_temp(f);
    return math_32(f, in, opcode, dxil_front_temp_dst(full, 0x1)) &&
           dxil_front_round_half(f, dst, dxil_front_temp_src(full, 0));
}

static bool math_32(struct dxil_front *f, const struct sb_bc_instruction *in, uint64_t opcode,
                    struct sb_ir_operand dst)
{
    struct sb_ir_operand src[3];
    struct sb_ir_operand none;
    memset(&none, 0, sizeof(none));
    uint32_t op = unary_op(opcode);
    if (op != SB_IR_OP_NOP) {
        if (!call_sources(f, in, 1, src))
            return false;
        if (opcode == SB_DXIL_OP_FABS)
            src[0].modifiers = SB_IR_MOD_ABS;
        struct sb_ir_instruction *out = dxil_front_emit(f, op, &dst, 1, src, 1);
        if (out && opcode == SB_DXIL_OP_SATURATE)
            out->flags |= SB_IR_FLAG_SATURATE;
        return out != NULL;
    }
    if ((op = binary_op(opcode)) != SB_IR_OP_NOP)
        return call_sources(f, in, 2, src) && dxil_front_emit(f, op, &dst, 1, src, 2);
    switch (opcode) {
    case SB_DXIL_OP_SIN:
    case SB_DXIL_OP_COS: {
        struct sb_ir_operand d[2] = { opcode == SB_DXIL_OP_SIN ? dst : none,
                                      opcode == SB_DXIL_OP_COS ? dst : none };
        return call_sources(f, in, 1, src) && dxil_front_emit(f, SB_IR_OP_SINCOS, d, 2, src, 1);
    }
    case SB_DXIL_OP_FMAD:
        return call_sources(f, in, 3, src) && dxil_front_emit(f, SB_IR_OP_MAD, &dst, 1, src, 3);
    case SB_DXIL_OP_DOT2: return dot(f, in, 2, dst);
    case SB_DXIL_OP_DOT3: return dot(f, in, 3, dst);
    case SB_DXIL_OP_DOT4: return dot(f, in, 4, dst);
    default:
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_INVALID, "dx.op %llu is no math op",
                               (unsigned long long)opcode);
    }
}
