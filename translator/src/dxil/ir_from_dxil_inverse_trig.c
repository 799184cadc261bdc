/* SPDX-License-Identifier: MIT */
/*
 * Acos, Asin and Atan (dx.op 15, 16, 17: HLSL acos, asin, atan, and the atan
 * dxc writes for atan2) on float and half lanes. The IR has no inverse
 * trigonometric op (SM4 has none: fxc expands them), so each is lowered here
 * onto IR arithmetic through one kernel, the arctangent of a ratio of two
 * non-negative numbers:
 *
 *   atan(x) = sign(x) * A(|x|, 1)
 *   asin(x) = sign(x) * A(|x|, sqrt((1 - |x|)(1 + |x|)))
 *   acos(x) = A(sqrt((1 - |x|)(1 + |x|)), |x|), or pi minus it for x < 0
 *
 * A(n, d) = atan(z) with z = min(n, d) / max(n, d) in [0, 1], or pi/2 minus it
 * when n > d; atan(z) on [0, 1] is z * P(z^2), the degree-16 odd polynomial of
 * Abramowitz and Stegun 4.4.49 (error at most 2e-8). Forming sqrt(1 - x^2) as
 * sqrt((1 - x)(1 + x)) keeps it accurate near |x| = 1, and the ratio keeps
 * small arguments relatively accurate, so in f32 the results are within about
 * 2e-7 relative of the exact ones (a few ULP; Vulkan asks 4096 ULP of its own
 * Asin/Acos/Atan). The sign is copied bit for bit (atan(-0) = -0). NaN in,
 * NaN out, and asin/acos of |x| > 1 is NaN (the IR's min/max would otherwise
 * pass a NaN over). A half result is rounded to half by the caller.
 */
#include <string.h>

#include "ir_from_dxil_private.h"
#include "translator/dxil_opcodes.h"

#define FLOAT_ONE 0x3F800000u
#define FLOAT_NAN 0x7FC00000u
#define FLOAT_SIGN 0x80000000u

/* Abramowitz and Stegun 4.4.49: atan(z) = z (1 + a2 z^2 + a4 z^4 + ... + a16 z^16), |z| <= 1. */
static const float ATAN_SERIES[8] = {
    -0.3333314528f, 0.1999355085f, -0.1420889944f, 0.1065626393f,
    -0.0752896400f, 0.0429096138f, -0.0161657367f, 0.0028662257f,
};

static struct sb_ir_operand float_imm(float value)
{
    uint32_t bits;
    memcpy(&bits, &value, sizeof(bits));
    return dxil_front_imm(bits);
}

/* `op` of `count` sources into lane x of a fresh temp; *out reads it. */
static bool calc(struct dxil_front *f, uint32_t op, const struct sb_ir_operand *src, uint32_t count,
                 struct sb_ir_operand *out)
{
    return dxil_front_emit1(f, op, dxil_front_fresh(f, out), src, count);
}

static struct sb_ir_operand negated(struct sb_ir_operand a)
{
    a.modifiers ^= SB_IR_MOD_NEG;
    return a;
}

/* atan(n / d) in [0, pi/2] for n, d >= 0, not both 0. */
static bool atan_ratio(struct dxil_front *f, struct sb_ir_operand n, struct sb_ir_operand d,
                       struct sb_ir_operand *out)
{
    struct sb_ir_operand lo, hi, z, w, p, r, past, turned;
    struct sb_ir_operand nd[2] = { n, d };
    if (!calc(f, SB_IR_OP_MIN, nd, 2, &lo) || !calc(f, SB_IR_OP_MAX, nd, 2, &hi))
        return false;
    struct sb_ir_operand ratio[2] = { lo, hi };
    if (!calc(f, SB_IR_OP_DIV, ratio, 2, &z))
        return false;
    struct sb_ir_operand square[2] = { z, z };
    if (!calc(f, SB_IR_OP_MUL, square, 2, &w))
        return false;
    /* Horner from the highest term down to the constant 1. */
    struct sb_ir_operand first[3] = { w, float_imm(ATAN_SERIES[7]), float_imm(ATAN_SERIES[6]) };
    if (!calc(f, SB_IR_OP_MAD, first, 3, &p))
        return false;
    for (int k = 5; k >= -1; k--) {
        struct sb_ir_operand step[3] = { p, w, k >= 0 ? float_imm(ATAN_SERIES[k]) : dxil_front_imm(FLOAT_ONE) };
        if (!calc(f, SB_IR_OP_MAD, step, 3, &p))
            return false;
    }
    struct sb_ir_operand odd[2] = { z, p };
    struct sb_ir_operand larger[2] = { d, n }; /* d < n: the ratio was inverted */
    if (!calc(f, SB_IR_OP_MUL, odd, 2, &r) || !calc(f, SB_IR_OP_LT, larger, 2, &past))
        return false;
    struct sb_ir_operand complement[2] = { float_imm(1.57079632679f), negated(r) };
    if (!calc(f, SB_IR_OP_ADD, complement, 2, &turned))
        return false;
    struct sb_ir_operand pick[3] = { past, turned, r };
    return calc(f, SB_IR_OP_MOVC, pick, 3, out);
}

/* sqrt((1 - |x|)(1 + |x|)): sqrt(1 - x^2) without the cancellation of 1 - x*x near 1. */
static bool cosine_side(struct dxil_front *f, struct sb_ir_operand magnitude, struct sb_ir_operand *out)
{
    struct sb_ir_operand below, above, product;
    struct sb_ir_operand minus[2] = { dxil_front_imm(FLOAT_ONE), negated(magnitude) };
    struct sb_ir_operand plus[2] = { dxil_front_imm(FLOAT_ONE), magnitude };
    if (!calc(f, SB_IR_OP_ADD, minus, 2, &below) || !calc(f, SB_IR_OP_ADD, plus, 2, &above))
        return false;
    struct sb_ir_operand both[2] = { below, above };
    return calc(f, SB_IR_OP_MUL, both, 2, &product) && calc(f, SB_IR_OP_SQRT, &product, 1, out);
}

/* The bits of `magnitude` (>= 0) with the sign bit of `x`. */
static bool with_sign_of(struct dxil_front *f, struct sb_ir_operand magnitude, struct sb_ir_operand x,
                         struct sb_ir_operand *out)
{
    struct sb_ir_operand sign;
    struct sb_ir_operand mask[2] = { x, dxil_front_imm(FLOAT_SIGN) };
    if (!calc(f, SB_IR_OP_AND, mask, 2, &sign))
        return false;
    struct sb_ir_operand join[2] = { magnitude, sign };
    return calc(f, SB_IR_OP_OR, join, 2, out);
}

bool dxil_front_inverse_trig(struct dxil_front *f, uint64_t opcode, struct sb_ir_operand dst,
                             struct sb_ir_operand x)
{
    struct sb_ir_operand magnitude, side, angle, value;
    /* The sign is read with an integer AND, on which a float modifier would mean something
     * else: a modified source is computed into a temp first. */
    if (x.modifiers && !calc(f, SB_IR_OP_MOV, &x, 1, &x))
        return false;
    magnitude = x;
    magnitude.modifiers = (uint8_t)((magnitude.modifiers & ~SB_IR_MOD_NEG) | SB_IR_MOD_ABS);
    if (opcode == SB_DXIL_OP_ATAN) {
        struct sb_ir_operand is_nan;
        struct sb_ir_operand self[2] = { x, x };
        if (!atan_ratio(f, magnitude, dxil_front_imm(FLOAT_ONE), &angle) ||
            !with_sign_of(f, angle, x, &value) || !calc(f, SB_IR_OP_NE, self, 2, &is_nan))
            return false;
        struct sb_ir_operand pick[3] = { is_nan, x, value };
        return dxil_front_emit1(f, SB_IR_OP_MOVC, dst, pick, 3);
    }
    if (!cosine_side(f, magnitude, &side))
        return false;
    if (opcode == SB_DXIL_OP_ASIN) {
        if (!atan_ratio(f, magnitude, side, &angle) || !with_sign_of(f, angle, x, &value))
            return false;
    } else {
        struct sb_ir_operand negative, from_pi;
        struct sb_ir_operand below_zero[2] = { x, dxil_front_imm(0) };
        if (!atan_ratio(f, side, magnitude, &angle) || !calc(f, SB_IR_OP_LT, below_zero, 2, &negative))
            return false;
        struct sb_ir_operand flip[2] = { float_imm(3.14159265359f), negated(angle) };
        if (!calc(f, SB_IR_OP_ADD, flip, 2, &from_pi))
            return false;
        struct sb_ir_operand pick[3] = { negative, from_pi, angle };
        if (!calc(f, SB_IR_OP_MOVC, pick, 3, &value))
            return false;
    }
    /* |x| <= 1 is false for NaN too. */
    struct sb_ir_operand in_domain;
    struct sb_ir_operand bound[2] = { dxil_front_imm(FLOAT_ONE), magnitude };
    if (!calc(f, SB_IR_OP_GE, bound, 2, &in_domain))
        return false;
    struct sb_ir_operand pick[3] = { in_domain, value, dxil_front_imm(FLOAT_NAN) };
    return dxil_front_emit1(f, SB_IR_OP_MOVC, dst, pick, 3);
}
