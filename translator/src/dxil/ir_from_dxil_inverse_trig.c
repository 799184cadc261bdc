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

/* Failures are sticky (f->failed, which dxil_front_emit1 tests): the helpers below chain
 * results without testing each. Every operand is made in its own statement, so the order
 * of the instructions does not depend on the compiler's order of argument evaluation. */
static struct sb_ir_operand op2(struct dxil_front *f, uint32_t op, struct sb_ir_operand a,
                                struct sb_ir_operand b)
{
    return dxil_front_fresh_op2(f, op, a, b);
}

static struct sb_ir_operand op3(struct dxil_front *f, uint32_t op, struct sb_ir_operand a,
                                struct sb_ir_operand b, struct sb_ir_operand c)
{
    struct sb_ir_operand src[3] = { a, b, c };
    return dxil_front_fresh_op(f, op, src, 3);
}

static struct sb_ir_operand negated(struct sb_ir_operand a)
{
    a.modifiers ^= SB_IR_MOD_NEG;
    return a;
}

/* atan(n / d) in [0, pi/2] for n, d >= 0, not both 0. */
static struct sb_ir_operand atan_ratio(struct dxil_front *f, struct sb_ir_operand n, struct sb_ir_operand d)
{
    struct sb_ir_operand lo = op2(f, SB_IR_OP_MIN, n, d);
    struct sb_ir_operand hi = op2(f, SB_IR_OP_MAX, n, d);
    struct sb_ir_operand z = op2(f, SB_IR_OP_DIV, lo, hi);
    struct sb_ir_operand w = op2(f, SB_IR_OP_MUL, z, z);
    /* Horner from the highest term down to the constant 1. */
    struct sb_ir_operand p = op3(f, SB_IR_OP_MAD, w, float_imm(ATAN_SERIES[7]), float_imm(ATAN_SERIES[6]));
    for (int k = 5; k >= -1; k--)
        p = op3(f, SB_IR_OP_MAD, p, w, k >= 0 ? float_imm(ATAN_SERIES[k]) : dxil_front_imm(FLOAT_ONE));
    struct sb_ir_operand r = op2(f, SB_IR_OP_MUL, z, p);
    struct sb_ir_operand past = op2(f, SB_IR_OP_LT, d, n); /* d < n: the ratio was inverted */
    struct sb_ir_operand turned = op2(f, SB_IR_OP_ADD, float_imm(1.57079632679f), negated(r));
    return op3(f, SB_IR_OP_MOVC, past, turned, r);
}

/* sqrt((1 - |x|)(1 + |x|)): sqrt(1 - x^2) without the cancellation of 1 - x*x near 1. */
static struct sb_ir_operand cosine_side(struct dxil_front *f, struct sb_ir_operand magnitude)
{
    struct sb_ir_operand below = op2(f, SB_IR_OP_ADD, dxil_front_imm(FLOAT_ONE), negated(magnitude));
    struct sb_ir_operand above = op2(f, SB_IR_OP_ADD, dxil_front_imm(FLOAT_ONE), magnitude);
    struct sb_ir_operand product = op2(f, SB_IR_OP_MUL, below, above);
    return dxil_front_fresh_op(f, SB_IR_OP_SQRT, &product, 1);
}

/* The bits of `magnitude` (>= 0) with the sign bit of `x`. */
static struct sb_ir_operand with_sign_of(struct dxil_front *f, struct sb_ir_operand magnitude,
                                         struct sb_ir_operand x)
{
    struct sb_ir_operand sign = op2(f, SB_IR_OP_AND, x, dxil_front_imm(FLOAT_SIGN));
    return op2(f, SB_IR_OP_OR, magnitude, sign);
}

bool dxil_front_inverse_trig(struct dxil_front *f, uint64_t opcode, struct sb_ir_operand dst,
                             struct sb_ir_operand x)
{
    /* The sign is read with an integer AND, on which a float modifier would mean something
     * else: a modified source is computed into a temp first. */
    if (x.modifiers)
        x = dxil_front_fresh_op(f, SB_IR_OP_MOV, &x, 1);
    struct sb_ir_operand magnitude = x, value;
    magnitude.modifiers = SB_IR_MOD_ABS;
    if (opcode == SB_DXIL_OP_ATAN) {
        struct sb_ir_operand angle = atan_ratio(f, magnitude, dxil_front_imm(FLOAT_ONE));
        value = with_sign_of(f, angle, x);
        struct sb_ir_operand is_nan = op2(f, SB_IR_OP_NE, x, x);
        struct sb_ir_operand pick[3] = { is_nan, x, value };
        return dxil_front_emit1(f, SB_IR_OP_MOVC, dst, pick, 3);
    }
    struct sb_ir_operand side = cosine_side(f, magnitude);
    if (opcode == SB_DXIL_OP_ASIN) {
        struct sb_ir_operand angle = atan_ratio(f, magnitude, side);
        value = with_sign_of(f, angle, x);
    } else {
        struct sb_ir_operand angle = atan_ratio(f, side, magnitude);
        struct sb_ir_operand negative = op2(f, SB_IR_OP_LT, x, dxil_front_imm(0));
        struct sb_ir_operand from_pi = op2(f, SB_IR_OP_ADD, float_imm(3.14159265359f), negated(angle));
        value = op3(f, SB_IR_OP_MOVC, negative, from_pi, angle);
    }
    /* |x| <= 1 is false for NaN too. */
    struct sb_ir_operand in_domain = op2(f, SB_IR_OP_GE, dxil_front_imm(FLOAT_ONE), magnitude);
    struct sb_ir_operand pick[3] = { in_domain, value, dxil_front_imm(FLOAT_NAN) };
    return dxil_front_emit1(f, SB_IR_OP_MOVC, dst, pick, 3);
}
