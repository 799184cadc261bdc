/* SPDX-License-Identifier: MIT */
/*
 * The math dx.ops beyond ir_from_dxil_math.c's (../shared/docs/dxil.md §3.6,
 * §7.3-§7.4), each as the SM4 instruction(s) that do the same:
 * bit scans and counts, Bfrev, Ibfe/Ubfe/Bfi (the IR masks width and offset
 * to 5 bits, as D3D), IMad/UMad/Msad, the two-result IMul/UMul/UDiv and
 * UAddc/USubb (the carry as a D3D bool), legacy f16 <-> f32,
 * IsNaN/IsInf/IsFinite/IsNormal (compares on |x|), Tan (sin / cos), the
 * hyperbolic functions through exp2 (e^x = 2^(x log2 e); Htan as
 * 1 - 2 / (e^2x + 1), which stays finite for large |x|), Acos/Asin/Atan
 * (ir_from_dxil_inverse_trig.c), and the double overloads: Fma, FMad (DMUL
 * then DADD: not fused), FMin/FMax, FAbs, Saturate, MakeDouble and
 * SplitDouble. The i16/i64 Countbits, Firstbit* and Bfrev are
 * ir_from_dxil_bits_wide.c's, the i16/i64 IMad/UMad ir_from_dxil_wide.c's; the other
 * 16- and 64-bit integer overloads (Ibfe/Ubfe) refuse, as does the double
 * Sqrt/Rsqrt family (no IR op).
 */
#include "ir_from_dxil_private.h"
#include "translator/dxil_opcodes.h"

#define FLOAT_INF 0x7F800000u
#define FLOAT_MIN_NORMAL 0x00800000u
#define HALF_MIN_NORMAL_AS_FLOAT 0x38800000u /* 2^-14 */
#define FLOAT_ONE 0x3F800000u
#define FLOAT_TWO 0x40000000u
#define FLOAT_HALF 0x3F000000u
#define FLOAT_LOG2_E 0x3FB8AA3Bu     /* 1.442695 */
#define FLOAT_2_LOG2_E 0x4038AA3Bu   /* 2.885390 */

/* The IR op of the one-source ops with a 32-bit operand and the three-source integer ops
 * (Msad, Ibfe, Ubfe: D3D's operand order is the IR's); NOP for the others. */
static uint32_t bit_or_tertiary(uint64_t opcode)
{
    switch (opcode) {
    case SB_DXIL_OP_BFREV: return SB_IR_OP_BFREV;
    case SB_DXIL_OP_COUNTBITS: return SB_IR_OP_COUNTBITS;
    case SB_DXIL_OP_FIRSTBIT_LO: return SB_IR_OP_FIRSTBIT_LO;
    case SB_DXIL_OP_FIRSTBIT_HI: return SB_IR_OP_FIRSTBIT_HI;
    case SB_DXIL_OP_FIRSTBIT_SHI: return SB_IR_OP_FIRSTBIT_SHI;
    case SB_DXIL_OP_LEGACY_F32_TO_F16: return SB_IR_OP_F32TOF16;
    case SB_DXIL_OP_LEGACY_F16_TO_F32: return SB_IR_OP_F16TOF32;
    case SB_DXIL_OP_IMAD: return SB_IR_OP_IMAD;
    case SB_DXIL_OP_UMAD: return SB_IR_OP_UMAD;
    case SB_DXIL_OP_MSAD: return SB_IR_OP_MSAD;
    case SB_DXIL_OP_IBFE: return SB_IR_OP_IBFE;
    case SB_DXIL_OP_UBFE: return SB_IR_OP_UBFE;
    default: return SB_IR_OP_NOP;
    }
}

bool dxil_front_is_math_more(uint64_t opcode)
{
    switch (opcode) {
    case SB_DXIL_OP_IS_NA_N: case SB_DXIL_OP_IS_INF: case SB_DXIL_OP_IS_FINITE:
    case SB_DXIL_OP_IS_NORMAL: case SB_DXIL_OP_TAN: case SB_DXIL_OP_HCOS: case SB_DXIL_OP_HSIN:
    case SB_DXIL_OP_HTAN: case SB_DXIL_OP_IMUL: case SB_DXIL_OP_UMUL: case SB_DXIL_OP_UDIV:
    case SB_DXIL_OP_UADDC: case SB_DXIL_OP_USUBB: case SB_DXIL_OP_BFI: case SB_DXIL_OP_FMA:
    case SB_DXIL_OP_MAKE_DOUBLE: case SB_DXIL_OP_SPLIT_DOUBLE:
    case SB_DXIL_OP_ACOS: case SB_DXIL_OP_ASIN: case SB_DXIL_OP_ATAN:
        return true;
    default:
        return bit_or_tertiary(opcode) != SB_IR_OP_NOP || dxil_front_is_packed(opcode);
    }
}

static bool is_i32(const struct sb_bc_type *t)
{
    return t && t->kind == SB_BC_TYPE_INTEGER && t->width == 32;
}

static bool args64(struct dxil_front *f, const struct sb_bc_instruction *in, uint32_t count,
                   struct sb_ir_operand *src)
{
    for (uint32_t i = 0; i < count; i++) {
        uint32_t value = 0;
        if (!dxil_front_arg(f, in, 1 + i, &value) || !dxil_front_src64(f, value, &src[i]))
            return false;
    }
    return true;
}

/* The ops whose 32-bit overload is the only one translated on one lane. */
static bool integer_only(uint64_t opcode)
{
    switch (opcode) {
    case SB_DXIL_OP_BFREV: case SB_DXIL_OP_COUNTBITS: case SB_DXIL_OP_FIRSTBIT_LO:
    case SB_DXIL_OP_FIRSTBIT_HI: case SB_DXIL_OP_FIRSTBIT_SHI: case SB_DXIL_OP_BFI:
    case SB_DXIL_OP_IMAD: case SB_DXIL_OP_UMAD: case SB_DXIL_OP_MSAD: case SB_DXIL_OP_IBFE:
    case SB_DXIL_OP_UBFE:
        return true;
    default:
        return false;
    }
}

/* IsNaN / IsInf / IsFinite / IsNormal of a float or half lane -> a D3D bool. */
static bool classify(struct dxil_front *f, uint64_t opcode, const struct sb_bc_type *t,
                     struct sb_ir_operand dst, struct sb_ir_operand a)
{
    struct sb_ir_operand abs_a = a;
    abs_a.modifiers |= SB_IR_MOD_ABS;
    struct sb_ir_operand s[2] = { abs_a, dxil_front_imm(FLOAT_INF) };
    switch (opcode) {
    case SB_DXIL_OP_IS_NA_N: {
        struct sb_ir_operand self[2] = { a, a };
        return dxil_front_emit1(f, SB_IR_OP_NE, dst, self, 2);
    }
    case SB_DXIL_OP_IS_INF: return dxil_front_emit1(f, SB_IR_OP_EQ, dst, s, 2);
    case SB_DXIL_OP_IS_FINITE: return dxil_front_emit1(f, SB_IR_OP_LT, dst, s, 2);
    default: { /* IsNormal: min normal <= |a| < inf */
        struct sb_ir_operand both[2];
        uint32_t min = t->kind == SB_BC_TYPE_HALF ? HALF_MIN_NORMAL_AS_FLOAT : FLOAT_MIN_NORMAL;
        struct sb_ir_operand low[2] = { abs_a, dxil_front_imm(min) };
        return dxil_front_emit1(f, SB_IR_OP_LT, dxil_front_fresh(f, &both[0]), s, 2) &&
               dxil_front_emit1(f, SB_IR_OP_GE, dxil_front_fresh(f, &both[1]), low, 2) &&
               dxil_front_emit1(f, SB_IR_OP_AND, dst, both, 2);
    }
    }
}

/* Tan, Hcos, Hsin, Htan of lane a. */
static bool trig(struct dxil_front *f, uint64_t opcode, struct sb_ir_operand dst,
                 struct sb_ir_operand a)
{
    struct sb_ir_operand x, ep, en, sum, q;
    if (opcode == SB_DXIL_OP_TAN) {
        uint32_t t = dxil_front_new_temp(f);
        struct sb_ir_operand d[2] = { dxil_front_temp_dst(t, 0x1), dxil_front_temp_dst(t, 0x2) };
        struct sb_ir_operand ratio[2] = { dxil_front_temp_src(t, 0), dxil_front_temp_src(t, 1) };
        return dxil_front_emit(f, SB_IR_OP_SINCOS, d, 2, &a, 1) &&
               dxil_front_emit1(f, SB_IR_OP_DIV, dst, ratio, 2);
    }
    bool is_tanh = opcode == SB_DXIL_OP_HTAN;
    struct sb_ir_operand scale[2] = { a, dxil_front_imm(is_tanh ? FLOAT_2_LOG2_E : FLOAT_LOG2_E) };
    if (!dxil_front_emit1(f, SB_IR_OP_MUL, dxil_front_fresh(f, &x), scale, 2) || !dxil_front_emit1(f, SB_IR_OP_EXP, dxil_front_fresh(f, &ep), &x, 1))
        return false;
    if (is_tanh) { /* 1 - 2 / (e^2x + 1) */
        struct sb_ir_operand plus_one[2] = { ep, dxil_front_imm(FLOAT_ONE) };
        if (!dxil_front_emit1(f, SB_IR_OP_ADD, dxil_front_fresh(f, &sum), plus_one, 2))
            return false;
        struct sb_ir_operand two_over[2] = { dxil_front_imm(FLOAT_TWO), sum };
        if (!dxil_front_emit1(f, SB_IR_OP_DIV, dxil_front_fresh(f, &q), two_over, 2))
            return false;
        q.modifiers ^= SB_IR_MOD_NEG;
        struct sb_ir_operand one_minus[2] = { dxil_front_imm(FLOAT_ONE), q };
        return dxil_front_emit1(f, SB_IR_OP_ADD, dst, one_minus, 2);
    }
    struct sb_ir_operand neg_x = x;
    neg_x.modifiers ^= SB_IR_MOD_NEG;
    if (!dxil_front_emit1(f, SB_IR_OP_EXP, dxil_front_fresh(f, &en), &neg_x, 1))
        return false;
    if (opcode == SB_DXIL_OP_HSIN)
        en.modifiers ^= SB_IR_MOD_NEG;
    struct sb_ir_operand pair[2] = { ep, en };
    if (!dxil_front_emit1(f, SB_IR_OP_ADD, dxil_front_fresh(f, &sum), pair, 2))
        return false;
    struct sb_ir_operand halve[2] = { sum, dxil_front_imm(FLOAT_HALF) };
    return dxil_front_emit1(f, SB_IR_OP_MUL, dst, halve, 2);
}

/* IMul/UMul {hi, lo}, UDiv {quotient, remainder}, UAddc/USubb {result, carry as a bool}. */
static bool two_results(struct dxil_front *f, const struct sb_bc_instruction *in, uint64_t opcode)
{
    struct sb_ir_operand src[2];
    uint32_t temp = 0;
    if (!is_i32(dxil_front_arg_type(f, in, 1)))
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_UNSUPPORTED, "a 16- or 64-bit overload");
    if (!dxil_front_call_args(f, in, 1, 2, src) || !dxil_front_result_temp(f, in, 2, &temp))
        return false;
    struct sb_ir_operand d[2] = { dxil_front_temp_dst(temp, 0x1), dxil_front_temp_dst(temp, 0x2) };
    uint32_t op = opcode == SB_DXIL_OP_IMUL ? SB_IR_OP_IMUL : opcode == SB_DXIL_OP_UMUL ? SB_IR_OP_UMUL
                  : opcode == SB_DXIL_OP_UDIV ? SB_IR_OP_UDIV
                  : opcode == SB_DXIL_OP_UADDC ? SB_IR_OP_UADDC : SB_IR_OP_USUBB;
    if (!dxil_front_emit(f, op, d, 2, src, 2))
        return false;
    if (op != SB_IR_OP_UADDC && op != SB_IR_OP_USUBB)
        return true;
    struct sb_ir_operand carry = dxil_front_temp_src(temp, 1); /* 1 -> 0xFFFFFFFF */
    return dxil_front_emit1(f, SB_IR_OP_INEG, d[1], &carry, 1);
}

/* MakeDouble(lo, hi) and SplitDouble(d) -> {lo, hi}: lane copies. */
static bool double_halves(struct dxil_front *f, const struct sb_bc_instruction *in, uint64_t opcode)
{
    uint32_t temp = 0;
    if (opcode == SB_DXIL_OP_SPLIT_DOUBLE) {
        struct sb_ir_operand d;
        uint32_t value = 0;
        if (!dxil_front_arg(f, in, 1, &value) || !dxil_front_src64_lanes(f, value, &d) ||
            !dxil_front_result_temp(f, in, 2, &temp))
            return false;
        return dxil_front_emit1(f, SB_IR_OP_MOV, dxil_front_temp_dst(temp, 0x3), &d, 1);
    }
    struct sb_ir_operand halves[2];
    if (!dxil_front_is_wide_type(f, in->type) || !dxil_front_call_args(f, in, 1, 2, halves))
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_INVALID, "makeDouble without a double");
    temp = dxil_front_value_temp(f, in->value);
    return temp != DXIL_FRONT_NONE &&
           dxil_front_emit1(f, SB_IR_OP_MOV, dxil_front_temp_dst(temp, 0x1), &halves[0], 1) &&
           dxil_front_emit1(f, SB_IR_OP_MOV, dxil_front_temp_dst(temp, 0x2), &halves[1], 1);
}

/* The one-lane ops: bit ops, derivatives, classification, trig, legacy f16. */
static bool one_lane(struct dxil_front *f, const struct sb_bc_instruction *in, uint64_t opcode,
                     struct sb_ir_operand dst)
{
    const struct sb_bc_type *t = dxil_front_arg_type(f, in, 1);
    struct sb_ir_operand src[4];
    uint32_t count = opcode == SB_DXIL_OP_BFI ? 4 : 1;
    if (opcode == SB_DXIL_OP_IMAD || opcode == SB_DXIL_OP_UMAD || opcode == SB_DXIL_OP_MSAD ||
        opcode == SB_DXIL_OP_IBFE || opcode == SB_DXIL_OP_UBFE)
        count = 3;
    if (!dxil_front_call_args(f, in, 1, count, src))
        return false;
    switch (opcode) {
    case SB_DXIL_OP_IS_NA_N: case SB_DXIL_OP_IS_INF: case SB_DXIL_OP_IS_FINITE:
    case SB_DXIL_OP_IS_NORMAL:
        return classify(f, opcode, t, dst, src[0]);
    case SB_DXIL_OP_TAN: case SB_DXIL_OP_HCOS: case SB_DXIL_OP_HSIN: case SB_DXIL_OP_HTAN:
        return trig(f, opcode, dst, src[0]);
    case SB_DXIL_OP_ACOS: case SB_DXIL_OP_ASIN: case SB_DXIL_OP_ATAN:
        return dxil_front_inverse_trig(f, opcode, dst, src[0]);
    case SB_DXIL_OP_BFI: return dxil_front_emit1(f, SB_IR_OP_BFI, dst, src, 4);
    default: break;
    }
    uint32_t op = bit_or_tertiary(opcode);
    return dxil_front_emit1(f, op, dst, src, count);
}

bool dxil_front_math_more(struct dxil_front *f, const struct sb_bc_instruction *in, uint64_t opcode)
{
    switch (opcode) {
    case SB_DXIL_OP_IMUL: case SB_DXIL_OP_UMUL: case SB_DXIL_OP_UDIV: case SB_DXIL_OP_UADDC:
    case SB_DXIL_OP_USUBB:
        return two_results(f, in, opcode);
    case SB_DXIL_OP_MAKE_DOUBLE: case SB_DXIL_OP_SPLIT_DOUBLE:
        return double_halves(f, in, opcode);
    case SB_DXIL_OP_FMA:
        return dxil_front_math_double(f, in, opcode);
    default:
        if (dxil_front_is_packed(opcode))
            return dxil_front_packed(f, in, opcode);
        break;
    }
    const struct sb_bc_type *argument = dxil_front_arg_type(f, in, 1);
    bool other_width = argument && argument->kind == SB_BC_TYPE_INTEGER &&
                       (argument->width == 16 || argument->width == 64);
    if (other_width && dxil_front_bits_wide_claims(opcode))
        return dxil_front_bits_wide(f, in, opcode, argument->width);
    if (other_width && (opcode == SB_DXIL_OP_IMAD || opcode == SB_DXIL_OP_UMAD))
        return dxil_front_mad_wide(f, in);
    if (integer_only(opcode) && !is_i32(argument)) /* the other 16/64-bit integer overloads */
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_UNSUPPORTED,
                               "a 16- or 64-bit integer math overload");
    uint32_t temp = 0;
    if (!dxil_front_result_temp(f, in, 1, &temp))
        return false;
    struct sb_ir_operand dst = dxil_front_temp_dst(temp, 0x1);
    const struct sb_bc_type *t = dxil_front_type(f, in->type);
    if (t->kind != SB_BC_TYPE_HALF || !dxil_front_native_16bit(f))
        return one_lane(f, in, opcode, dst);
    struct sb_ir_operand full; /* a native half result: rounded to the nearest half */
    struct sb_ir_operand full_dst = dxil_front_fresh(f, &full);
    return one_lane(f, in, opcode, full_dst) && dxil_front_round_half(f, dst, full);
}

bool dxil_front_math_double(struct dxil_front *f, const struct sb_bc_instruction *in, uint64_t opcode)
{
    struct sb_ir_operand src[3];
    const struct sb_bc_type *t = dxil_front_type(f, in->type);
    if (!t || t->kind != SB_BC_TYPE_DOUBLE)
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_UNSUPPORTED, "a 64-bit integer math overload");
    uint32_t temp = dxil_front_value_temp(f, in->value);
    if (temp == DXIL_FRONT_NONE)
        return false;
    struct sb_ir_operand dst = dxil_front_temp_dst(temp, 0x3);
    switch (opcode) {
    case SB_DXIL_OP_FMA:
        return args64(f, in, 3, src) && dxil_front_emit1(f, SB_IR_OP_DFMA, dst, src, 3);
    case SB_DXIL_OP_FMAD: { /* not fused (dxil.md §7.2) */
        uint32_t product = dxil_front_new_temp(f);
        if (!args64(f, in, 3, src) ||
            !dxil_front_emit1(f, SB_IR_OP_DMUL, dxil_front_temp_dst(product, 0x3), src, 2))
            return false;
        struct sb_ir_operand sum[2] = { dxil_front_temp_src(product, 0), src[2] };
        return dxil_front_emit1(f, SB_IR_OP_DADD, dst, sum, 2);
    }
    case SB_DXIL_OP_FMAX:
    case SB_DXIL_OP_FMIN:
        return args64(f, in, 2, src) &&
               dxil_front_emit1(f, opcode == SB_DXIL_OP_FMAX ? SB_IR_OP_DMAX : SB_IR_OP_DMIN, dst, src, 2);
    case SB_DXIL_OP_FABS:
        if (!args64(f, in, 1, src))
            return false;
        src[0].modifiers |= SB_IR_MOD_ABS;
        return dxil_front_emit1(f, SB_IR_OP_DMOV, dst, src, 1);
    case SB_DXIL_OP_SATURATE: {
        if (!args64(f, in, 1, src))
            return false;
        struct sb_ir_instruction *out = dxil_front_emit(f, SB_IR_OP_DMOV, &dst, 1, src, 1);
        if (out)
            out->flags |= SB_IR_FLAG_SATURATE;
        return out != NULL;
    }
    default:
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_UNSUPPORTED,
                               "a double overload of dx.op %llu (no IR op)",
                               (unsigned long long)opcode);
    }
}
