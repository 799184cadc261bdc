/* SPDX-License-Identifier: MIT */
/*
 * The numerics of the PICA lowering (IR.md §PICA200 programs) as IR op sequences:
 * float24 rounding of reads and results, the flush of magnitudes below 2^-62, the legacy
 * multiply (0 * inf = 0), and RCP / RSQ / EX2 / LG2 built only from integer ops and
 * exactly rounded float adds and multiplies (a bit-level first guess plus Newton steps,
 * or range reduction plus a fixed polynomial), so that the interpreter and any Vulkan
 * driver agree bit for bit; the hardware's own approximations are unknown (§6.3).
 * The rules match pica_float24.c (sb_pica_f32_round), which tests compare against.
 */
#include "pica_lower_private.h"

#include "translator/pica_float24.h"

#define ABS_MASK 0x7FFFFFFFu
#define SIGN_MASK 0x80000000u
#define FIRST_NAN 0x7F800001u
#define F32_INF 0x7F800000u

/* d.mask <- op(a, b) on temps / immediates. */
static void op2(struct pica_lower *L, uint32_t op, uint32_t d, uint32_t mask, struct sb_ir_operand a,
                struct sb_ir_operand b)
{
    struct sb_ir_operand dst = sb_pl_dst(d, mask);
    sb_pl_emit(L, op, &dst, 2, &a, &b, NULL);
}

static void op1(struct pica_lower *L, uint32_t op, uint32_t d, uint32_t mask, struct sb_ir_operand a)
{
    struct sb_ir_operand dst = sb_pl_dst(d, mask);
    sb_pl_emit(L, op, &dst, 1, &a, NULL, NULL);
}

/* d.mask <- cond ? a : b (cond: 0 / 0xFFFFFFFF lanes). */
static void select3(struct pica_lower *L, uint32_t d, uint32_t mask, struct sb_ir_operand cond,
                    struct sb_ir_operand a, struct sb_ir_operand b)
{
    struct sb_ir_operand dst = sb_pl_dst(d, mask);
    sb_pl_emit(L, SB_IR_OP_MOVC, &dst, 3, &cond, &a, &b);
}

#define R(t) sb_pl_src(t)
#define K(bits) sb_pl_imm(bits)

void sb_pl_flush(struct pica_lower *L, uint32_t t, uint32_t mask)
{
    uint32_t s = sb_pl_scratch(L);
    op2(L, SB_IR_OP_AND, s, mask, R(t), K(ABS_MASK));
    op2(L, SB_IR_OP_ULT, s, mask, R(s), K(SB_PICA_F32_MIN_NORMAL));
    select3(L, t, mask, R(s), K(0), R(t));
}

/* float24 mantissa rounding with overflow to infinity and NaN -> SB_PICA_F32_NAN (no flush). */
static void round_normal(struct pica_lower *L, uint32_t t, uint32_t mask)
{
    uint32_t nan = sb_pl_scratch(L), r = sb_pl_scratch(L), a = sb_pl_scratch(L), inf = sb_pl_scratch(L);
    op2(L, SB_IR_OP_AND, nan, mask, R(t), K(ABS_MASK));
    op2(L, SB_IR_OP_UGE, nan, mask, R(nan), K(FIRST_NAN));
    if (L->flags & SB_IR_PICA_ROUND_TRUNCATE) {
        op1(L, SB_IR_OP_MOV, r, mask, R(t));
    } else { /* + 0x3F + the kept lsb: round half to even; a carry into the exponent is right */
        struct sb_ir_operand dst = sb_pl_dst(r, mask), one = K(1), seven = K(7), src = R(t);
        sb_pl_emit(L, SB_IR_OP_UBFE, &dst, 3, &one, &seven, &src);
        op2(L, SB_IR_OP_IADD, r, mask, R(r), R(t));
        op2(L, SB_IR_OP_IADD, r, mask, R(r), K(0x3F));
    }
    op2(L, SB_IR_OP_AND, r, mask, R(r), K(0xFFFFFF80u));
    op2(L, SB_IR_OP_AND, a, mask, R(r), K(ABS_MASK));
    op2(L, SB_IR_OP_UGE, a, mask, R(a), K(SB_PICA_F32_OVERFLOW));
    op2(L, SB_IR_OP_AND, inf, mask, R(t), K(SIGN_MASK));
    op2(L, SB_IR_OP_OR, inf, mask, R(inf), K(F32_INF));
    select3(L, r, mask, R(a), R(inf), R(r));
    select3(L, t, mask, R(nan), K(SB_PICA_F32_NAN), R(r));
}

void sb_pl_read_fix(struct pica_lower *L, uint32_t t, uint32_t mask)
{
    uint32_t small = sb_pl_scratch(L), v = sb_pl_scratch(L);
    op2(L, SB_IR_OP_AND, small, mask, R(t), K(ABS_MASK));
    if (!(L->flags & SB_IR_PICA_FLOAT24)) {
        /* fast mode: float32 denormals read as a zero of their sign (devices may flush them) */
        op2(L, SB_IR_OP_ULT, small, mask, R(small), K(0x00800000u));
        op2(L, SB_IR_OP_AND, v, mask, R(t), K(SIGN_MASK));
        select3(L, t, mask, R(small), R(v), R(t));
        return;
    }
    /* Subnormal float24 range: a multiple of 2^-78, by scaling to an integer and back (exact). */
    op2(L, SB_IR_OP_ULT, small, mask, R(small), K(SB_PICA_F32_MIN_NORMAL));
    op2(L, SB_IR_OP_MUL, v, mask, R(t), K(0x66800000u)); /* 2^78 */
    op1(L, (L->flags & SB_IR_PICA_ROUND_TRUNCATE) ? SB_IR_OP_ROUND_Z : SB_IR_OP_ROUND_NE, v, mask, R(v));
    op2(L, SB_IR_OP_MUL, v, mask, R(v), K(0x18800000u)); /* 2^-78 */
    round_normal(L, t, mask);
    select3(L, t, mask, R(small), R(v), R(t));
}

void sb_pl_result_fix(struct pica_lower *L, uint32_t t, uint32_t mask)
{
    uint32_t a = sb_pl_scratch(L);
    if (L->flags & SB_IR_PICA_FLOAT24) {
        round_normal(L, t, mask);
    } else {
        uint32_t nan = sb_pl_scratch(L);
        op2(L, SB_IR_OP_AND, nan, mask, R(t), K(ABS_MASK));
        op2(L, SB_IR_OP_UGE, nan, mask, R(nan), K(FIRST_NAN));
        select3(L, t, mask, R(nan), K(SB_PICA_F32_NAN), R(t));
    }
    op2(L, SB_IR_OP_AND, a, mask, R(t), K(ABS_MASK));
    op2(L, SB_IR_OP_ULT, a, mask, R(a), K(SB_PICA_F32_MIN_NORMAL));
    select3(L, t, mask, R(a), K(0), R(t));
}

void sb_pl_legacy_fix(struct pica_lower *L, uint32_t p, uint32_t a, uint32_t b, uint32_t mask)
{
    uint32_t x = sb_pl_scratch(L), y = sb_pl_scratch(L);
    op2(L, SB_IR_OP_AND, x, mask, R(p), K(ABS_MASK));
    op2(L, SB_IR_OP_UGE, x, mask, R(x), K(FIRST_NAN));      /* the product is NaN */
    op2(L, SB_IR_OP_AND, y, mask, R(a), K(ABS_MASK));
    op2(L, SB_IR_OP_ULT, y, mask, R(y), K(FIRST_NAN));      /* a is not */
    op2(L, SB_IR_OP_AND, x, mask, R(x), R(y));
    op2(L, SB_IR_OP_AND, y, mask, R(b), K(ABS_MASK));
    op2(L, SB_IR_OP_ULT, y, mask, R(y), K(FIRST_NAN));      /* nor is b: 0 * inf */
    op2(L, SB_IR_OP_AND, x, mask, R(x), R(y));
    select3(L, p, mask, R(x), K(0), R(p));
}

/* r`d`.x <- cond(r`c`.x) ? bits : r`d`.x */
static void special(struct pica_lower *L, uint32_t d, uint32_t c, uint32_t bits)
{
    select3(L, d, 1, R(c), K(bits), R(d));
}

void sb_pl_rcp(struct pica_lower *L, uint32_t t, uint32_t x)
{
    uint32_t s = sb_pl_scratch(L), a = sb_pl_scratch(L), y = sb_pl_scratch(L), e = sb_pl_scratch(L);
    op2(L, SB_IR_OP_AND, s, 1, R(x), K(SIGN_MASK));
    op2(L, SB_IR_OP_AND, a, 1, R(x), K(ABS_MASK));
    op2(L, SB_IR_OP_IADD, y, 1, K(0x7EF311C7u), sb_pl_neg(R(a))); /* first guess, ~12 % */
    for (int i = 0; i < 4; i++) { /* y <- y (2 - a y) */
        op2(L, SB_IR_OP_MUL, e, 1, R(a), R(y));
        op2(L, SB_IR_OP_ADD, e, 1, K(0x40000000u), sb_pl_neg(R(e)));
        op2(L, SB_IR_OP_MUL, y, 1, R(y), R(e));
    }
    op2(L, SB_IR_OP_OR, y, 1, R(y), R(s));
    op2(L, SB_IR_OP_IEQ, e, 1, R(a), K(0));
    special(L, y, e, F32_INF);                  /* rcp(+-0) = +inf */
    op2(L, SB_IR_OP_UGE, e, 1, R(a), K(0x5E800001u));
    special(L, y, e, 0);                        /* |x| > 2^62 (and inf): below 2^-62 */
    op2(L, SB_IR_OP_UGE, e, 1, R(a), K(FIRST_NAN));
    special(L, y, e, SB_PICA_F32_NAN);
    op1(L, SB_IR_OP_MOV, t, 1, R(y));
}

void sb_pl_rsq(struct pica_lower *L, uint32_t t, uint32_t x)
{
    uint32_t h = sb_pl_scratch(L), y = sb_pl_scratch(L), e = sb_pl_scratch(L);
    op2(L, SB_IR_OP_USHR, h, 1, R(x), K(1));
    op2(L, SB_IR_OP_IADD, y, 1, K(0x5F3759DFu), sb_pl_neg(R(h))); /* first guess, ~3.4 % */
    op2(L, SB_IR_OP_MUL, h, 1, R(x), K(0x3F000000u));
    for (int i = 0; i < 4; i++) { /* y <- y (1.5 - x/2 y^2) */
        op2(L, SB_IR_OP_MUL, e, 1, R(y), R(y));
        op2(L, SB_IR_OP_MUL, e, 1, R(h), R(e));
        op2(L, SB_IR_OP_ADD, e, 1, K(0x3FC00000u), sb_pl_neg(R(e)));
        op2(L, SB_IR_OP_MUL, y, 1, R(y), R(e));
    }
    op2(L, SB_IR_OP_IEQ, e, 1, R(x), K(0));
    special(L, y, e, F32_INF);                  /* rsq(0) = +inf (-0 was flushed to +0) */
    op2(L, SB_IR_OP_UGE, e, 1, R(x), K(0x7D800001u));
    special(L, y, e, 0);                        /* x > 2^124 (and +inf): below 2^-62 */
    op2(L, SB_IR_OP_UGE, e, 1, R(x), K(FIRST_NAN));
    special(L, y, e, SB_PICA_F32_NAN);          /* NaN and every negative x */
    op1(L, SB_IR_OP_MOV, t, 1, R(y));
}

/* 2^f on [0, 1): degree-6 least-squares fit, relative error < 8e-8 (float32 Horner). */
static const uint32_t ex2_poly[7] = {
    0x3F800000u, 0x3F317215u, 0x3E75FECCu, 0x3D6342BBu, 0x3C1E922Du, 0x3AA31A0Fu, 0x39636BEAu,
};
/* log2(1 + t) / t on [sqrt(1/2) - 1, sqrt(2) - 1]: degree 8, relative error < 1.3e-7. */
static const uint32_t lg2_poly[9] = {
    0x3FB8AA3Bu, 0xBF38AA3Bu, 0x3EF639F0u, 0xBEB8ACA3u, 0x3E9367DCu,
    0xBE74EF75u, 0x3E5D4E3Fu, 0xBE52A4CEu, 0x3DFB8294u,
};

static void horner(struct pica_lower *L, uint32_t p, uint32_t x, const uint32_t *c, int degree)
{
    op1(L, SB_IR_OP_MOV, p, 1, K(c[degree]));
    for (int k = degree - 1; k >= 0; k--) {
        op2(L, SB_IR_OP_MUL, p, 1, R(p), R(x));
        op2(L, SB_IR_OP_ADD, p, 1, R(p), K(c[k]));
    }
}

void sb_pl_ex2(struct pica_lower *L, uint32_t t, uint32_t x)
{
    uint32_t c = sb_pl_scratch(L), xc = sb_pl_scratch(L), n = sb_pl_scratch(L), f = sb_pl_scratch(L),
             p = sb_pl_scratch(L);
    op2(L, SB_IR_OP_LT, c, 1, R(x), K(0xC27C0000u)); /* -63: below, the result flushes anyway */
    select3(L, xc, 1, R(c), K(0xC27C0000u), R(x));
    op1(L, SB_IR_OP_ROUND_NI, n, 1, R(xc));
    op2(L, SB_IR_OP_ADD, f, 1, R(xc), sb_pl_neg(R(n))); /* exact: 0 <= f < 1 */
    horner(L, p, f, ex2_poly, 6);
    op1(L, SB_IR_OP_FTOI, n, 1, R(n));
    op2(L, SB_IR_OP_ISHL, n, 1, R(n), K(23));
    op2(L, SB_IR_OP_IADD, p, 1, R(p), R(n));           /* times 2^n through the exponent */
    op2(L, SB_IR_OP_GE, c, 1, R(x), K(0x43000000u));   /* x >= 128: beyond float32 */
    special(L, p, c, F32_INF);
    op2(L, SB_IR_OP_AND, c, 1, R(x), K(ABS_MASK));
    op2(L, SB_IR_OP_UGE, c, 1, R(c), K(FIRST_NAN));
    special(L, p, c, SB_PICA_F32_NAN);
    op1(L, SB_IR_OP_MOV, t, 1, R(p));
}

void sb_pl_lg2(struct pica_lower *L, uint32_t t, uint32_t x)
{
    uint32_t e = sb_pl_scratch(L), m = sb_pl_scratch(L), c = sb_pl_scratch(L), d = sb_pl_scratch(L),
             q = sb_pl_scratch(L);
    op2(L, SB_IR_OP_USHR, e, 1, R(x), K(23));
    op2(L, SB_IR_OP_IADD, e, 1, R(e), K((uint32_t)-127));
    op2(L, SB_IR_OP_AND, m, 1, R(x), K(0x007FFFFFu));
    op2(L, SB_IR_OP_OR, m, 1, R(m), K(0x3F800000u));   /* mantissa in [1, 2) */
    op2(L, SB_IR_OP_UGE, c, 1, R(m), K(0x3FB504F3u)); /* >= sqrt(2): halve, exponent + 1 */
    op2(L, SB_IR_OP_AND, d, 1, R(c), K(0xFF800000u));
    op2(L, SB_IR_OP_IADD, m, 1, R(m), R(d));
    op2(L, SB_IR_OP_AND, d, 1, R(c), K(1));
    op2(L, SB_IR_OP_IADD, e, 1, R(e), R(d));
    op2(L, SB_IR_OP_ADD, m, 1, R(m), K(0xBF800000u)); /* t = m - 1, exact */
    horner(L, q, m, lg2_poly, 8);
    op2(L, SB_IR_OP_MUL, q, 1, R(q), R(m));
    op1(L, SB_IR_OP_ITOF, e, 1, R(e));
    op2(L, SB_IR_OP_ADD, q, 1, R(e), R(q));
    op2(L, SB_IR_OP_IEQ, c, 1, R(x), K(0));
    special(L, q, c, 0xFF800000u);                     /* lg2(0) = -inf */
    op2(L, SB_IR_OP_IEQ, c, 1, R(x), K(F32_INF));
    special(L, q, c, F32_INF);
    op2(L, SB_IR_OP_UGE, c, 1, R(x), K(FIRST_NAN));
    special(L, q, c, SB_PICA_F32_NAN);                 /* NaN and every negative x */
    op1(L, SB_IR_OP_MOV, t, 1, R(q));
}
