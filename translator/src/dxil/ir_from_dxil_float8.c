/* SPDX-License-Identifier: MIT */
/*
 * 8-bit floats as integer IR on their bit patterns, for the AGS intrinsics
 * (ir_from_dxil_ags.c: Float8Conversion; ir_from_dxil_wmma.c: wave-matrix
 * copies). FP8 is OCP E4M3 (bias 7, no infinity, S.1111.111 the only NaN,
 * largest 448), BF8 is OCP E5M2 (bias 15, IEEE infinities and NaNs, largest
 * 57344). Narrowing rounds to nearest even; widening is exact. Only integer
 * arithmetic (plus an exact UTOF of a 2-3 bit integer) is emitted, so the
 * device and the interpreter agree bit for bit and no float8 type is needed.
 */
#include "ir_from_dxil_private.h"

/* One float8 encoding: mantissa bits, exponent bias, largest finite bit pattern, the f32
 * bits of the smallest magnitude that overflows after rounding, the NaN it writes and
 * whether it has infinities. */
struct float8_format {
    uint32_t mantissa_bits, bias, max_finite, overflow_from, nan;
    bool has_infinity;
};

/* E4M3: 464 = 448 + half an ulp rounds to even 448; above it, 480 would need the NaN
 * pattern. E5M2: 61440 = 57344 + half an ulp rounds to even, the infinity. */
static const struct float8_format E4M3 = { 3, 7, 0x7E, 0x43E80001u, 0x7F, false };
static const struct float8_format E5M2 = { 2, 15, 0x7B, 0x47700000u, 0x7E, true };

/* Small emitters: each returns the lane-x source of a fresh temp. */

struct sb_ir_operand dxil_front_fresh_op(struct dxil_front *f, uint32_t op,
                                         const struct sb_ir_operand *src, uint32_t count)
{
    struct sb_ir_operand out;
    struct sb_ir_operand dst = dxil_front_fresh(f, &out);
    dxil_front_emit1(f, op, dst, src, count);
    return out;
}

struct sb_ir_operand dxil_front_fresh_op2(struct dxil_front *f, uint32_t op, struct sb_ir_operand a,
                                          struct sb_ir_operand b)
{
    struct sb_ir_operand src[2] = { a, b };
    return dxil_front_fresh_op(f, op, src, 2);
}

static struct sb_ir_operand op1(struct dxil_front *f, uint32_t op, struct sb_ir_operand a)
{
    return dxil_front_fresh_op(f, op, &a, 1);
}

static struct sb_ir_operand select3(struct dxil_front *f, struct sb_ir_operand cond,
                                    struct sb_ir_operand yes, struct sb_ir_operand no)
{
    struct sb_ir_operand src[3] = { cond, yes, no };
    return dxil_front_fresh_op(f, SB_IR_OP_MOVC, src, 3);
}

#define K(bits) dxil_front_imm(bits)
#define op2 dxil_front_fresh_op2 /* short names for the arithmetic below */

/* f32 bits -> float8 bits (low byte), round to nearest even; `matrix`: RDNA4's wave-matrix
 * conversion quirks (NaN -> 0xFF, a saturated infinity -> NaN). */
static struct sb_ir_operand narrow(struct dxil_front *f, struct sb_ir_operand x,
                                   const struct float8_format *fmt, bool saturate, bool matrix)
{
    uint32_t shift = 23 - fmt->mantissa_bits;
    struct sb_ir_operand sign = op2(f, SB_IR_OP_AND, op2(f, SB_IR_OP_USHR, x, K(24)), K(0x80));
    struct sb_ir_operand mag = op2(f, SB_IR_OP_AND, x, K(0x7FFFFFFFu));
    /* Normal in the target: round the mantissa at bit `shift` to even (a carry runs into
     * the exponent, as it should), then rebias the exponent. */
    struct sb_ir_operand odd = op2(f, SB_IR_OP_AND, op2(f, SB_IR_OP_USHR, mag, K(shift)), K(1));
    struct sb_ir_operand rounded =
        op2(f, SB_IR_OP_IADD, op2(f, SB_IR_OP_IADD, mag, K((1u << (shift - 1)) - 1)), odd);
    struct sb_ir_operand normal = op2(f, SB_IR_OP_IADD, op2(f, SB_IR_OP_USHR, rounded, K(shift)),
                                      K(0u - ((127u - fmt->bias) << fmt->mantissa_bits)));
    /* Below the smallest normal: the value in units of the smallest subnormal,
     * 2^(1 - bias - mantissa_bits), rounded to even; the f32 significand shifted right by
     * 24 - bias - mantissa_bits - exponent, at most 31 (which leaves 0). A result of
     * 2^mantissa_bits is the smallest normal's pattern, as it should be. */
    struct sb_ir_operand significand =
        op2(f, SB_IR_OP_OR, op2(f, SB_IR_OP_AND, mag, K(0x7FFFFF)), K(0x800000));
    struct sb_ir_operand exponent = op2(f, SB_IR_OP_USHR, mag, K(23)); /* biased, 0..254 */
    struct sb_ir_operand sub_shift = op2(
        f, SB_IR_OP_UMIN,
        op2(f, SB_IR_OP_IADD, op1(f, SB_IR_OP_INEG, exponent),
            K(24 - fmt->bias - fmt->mantissa_bits + 127)),
        K(31));
    struct sb_ir_operand half_minus_one =
        op2(f, SB_IR_OP_IADD, op2(f, SB_IR_OP_ISHL, K(1), op2(f, SB_IR_OP_IADD, sub_shift,
                                                                K(0xFFFFFFFFu))),
            K(0xFFFFFFFFu));
    struct sb_ir_operand sub_odd =
        op2(f, SB_IR_OP_AND, op2(f, SB_IR_OP_USHR, significand, sub_shift), K(1));
    struct sb_ir_operand subnormal = op2(
        f, SB_IR_OP_USHR,
        op2(f, SB_IR_OP_IADD, op2(f, SB_IR_OP_IADD, significand, half_minus_one), sub_odd),
        sub_shift);
    struct sb_ir_operand is_normal =
        op2(f, SB_IR_OP_UGE, mag, K((127u + 1u - fmt->bias) << 23));
    struct sb_ir_operand finite = select3(f, is_normal, normal, subnormal);
    /* Overflow and infinity; then NaN over everything. */
    uint32_t too_big = saturate ? fmt->max_finite
                                : (fmt->has_infinity ? fmt->max_finite + 1 : fmt->nan);
    struct sb_ir_operand overflows = op2(f, SB_IR_OP_UGE, mag, K(fmt->overflow_from));
    struct sb_ir_operand bits = select3(f, overflows, K(too_big), finite);
    if (matrix && saturate)
        bits = select3(f, op2(f, SB_IR_OP_IEQ, mag, K(0x7F800000u)), K(fmt->nan), bits);
    struct sb_ir_operand is_nan = op2(f, SB_IR_OP_ULT, K(0x7F800000u), mag);
    bits = select3(f, is_nan, K(matrix ? 0xFFu : fmt->nan), bits);
    return op2(f, SB_IR_OP_OR, bits, sign);
}

struct sb_ir_operand dxil_front_float8_narrow(struct dxil_front *f, struct sb_ir_operand x,
                                              enum dxil_float8 format, bool saturate, bool matrix)
{
    return narrow(f, x, format == DXIL_FLOAT8_E5M2 ? &E5M2 : &E4M3, saturate, matrix);
}

/* float8 bits (low byte of x) -> f32 bits, exact. */
static struct sb_ir_operand widen(struct dxil_front *f, struct sb_ir_operand x,
                                  const struct float8_format *fmt)
{
    uint32_t m = fmt->mantissa_bits;
    struct sb_ir_operand sign = op2(f, SB_IR_OP_ISHL, op2(f, SB_IR_OP_AND, x, K(0x80)), K(24));
    struct sb_ir_operand mag = op2(f, SB_IR_OP_AND, x, K(0x7F));
    struct sb_ir_operand mantissa = op2(f, SB_IR_OP_AND, x, K((1u << m) - 1));
    /* Normal: the fields move into place and the exponent is rebiased. */
    struct sb_ir_operand normal = op2(f, SB_IR_OP_IADD, op2(f, SB_IR_OP_ISHL, mag, K(23 - m)),
                                      K((127u - fmt->bias) << 23));
    /* Subnormal: mantissa * 2^(1 - bias - m), a normal f32: UTOF of the mantissa (exact)
     * with its exponent lowered; 0 for a zero mantissa. */
    struct sb_ir_operand scaled = op2(f, SB_IR_OP_IADD, op1(f, SB_IR_OP_UTOF, mantissa),
                                      K(0u - ((fmt->bias - 1 + m) << 23)));
    struct sb_ir_operand subnormal =
        select3(f, op2(f, SB_IR_OP_IEQ, mantissa, K(0)), K(0), scaled);
    struct sb_ir_operand is_subnormal = op2(f, SB_IR_OP_ULT, mag, K(1u << m));
    struct sb_ir_operand bits = select3(f, is_subnormal, subnormal, normal);
    if (fmt->has_infinity) {
        /* Exponent all ones: infinity, or a quiet NaN keeping the payload bits. */
        struct sb_ir_operand special = op2(f, SB_IR_OP_UGE, mag, K(0x7Cu));
        struct sb_ir_operand nan = op2(f, SB_IR_OP_OR, op2(f, SB_IR_OP_ISHL, mantissa, K(21)),
                                       K(0x7FC00000u));
        struct sb_ir_operand inf_or_nan =
            select3(f, op2(f, SB_IR_OP_IEQ, mantissa, K(0)), K(0x7F800000u), nan);
        bits = select3(f, special, inf_or_nan, bits);
    } else {
        bits = select3(f, op2(f, SB_IR_OP_IEQ, mag, K(0x7F)), K(0x7FC00000u), bits);
    }
    return op2(f, SB_IR_OP_OR, bits, sign);
}

struct sb_ir_operand dxil_front_float8_widen(struct dxil_front *f, struct sb_ir_operand x,
                                             enum dxil_float8 format)
{
    return widen(f, x, format == DXIL_FLOAT8_E5M2 ? &E5M2 : &E4M3);
}
