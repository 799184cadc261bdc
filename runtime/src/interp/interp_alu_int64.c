/* SPDX-License-Identifier: MIT */
/*
 * 64-bit integer ops of the CPU interpreter (IR.md: I64ADD ... DTOU64), the
 * counterpart of translator/src/spirv/spirv_alu_int64.c with the same lane
 * rules as the double ops: a value is a lane pair, low word first; 64-bit
 * results map by position after the swizzle (sb_ir_double_source); 32-bit
 * results take value k for the k-th written lane. The double loader and
 * storer carry the pairs (their arrays hold the bits, copied with memcpy,
 * never converted). The IR defines what C leaves undefined: division by 0 ->
 * all ones, INT64_MIN / -1 -> INT64_MIN remainder 0, counts & 63, saturating
 * float conversions; everything is computed in uint64_t so nothing overflows.
 */
#include "interp_private.h"

#include <math.h>
#include <string.h>
#include "translator/ir.h"

static uint64_t bits_of(double d)
{
    uint64_t u;
    memcpy(&u, &d, 8);
    return u;
}

static double as_double(uint64_t u)
{
    double d;
    memcpy(&d, &u, 8);
    return d;
}

/* Two's-complement reading of the bits without an implementation-defined conversion. */
static int64_t as_signed(uint64_t u)
{
    return u >> 63 ? -(int64_t)(~u) - 1 : (int64_t)u;
}

/* D3D-style saturating conversion of a float or double to 64 bits: NaN -> 0. */
static uint64_t float_to_int64(double x, bool is_signed)
{
    if (isnan(x))
        return 0;
    if (is_signed) {
        if (x >= 0x1p63)
            return (uint64_t)INT64_MAX;
        if (x < -0x1p63)
            return 1ull << 63;
        int64_t t = (int64_t)x;
        return (uint64_t)t;
    }
    if (x >= 0x1p64)
        return UINT64_MAX;
    return x > -1.0 ? (uint64_t)x : 0;
}

static uint64_t divide(uint32_t op, uint64_t a, uint64_t d)
{
    if (d == 0)
        return UINT64_MAX;
    switch (op) {
    case SB_IR_OP_I64UDIV: return a / d;
    case SB_IR_OP_I64UREM: return a % d;
    default: break;
    }
    if (a == 1ull << 63 && d == UINT64_MAX) /* INT64_MIN / -1: wraps to INT64_MIN, remainder 0 */
        return op == SB_IR_OP_I64IDIV ? a : 0;
    int64_t sa = as_signed(a), sd = as_signed(d);
    return (uint64_t)(op == SB_IR_OP_I64IDIV ? sa / sd : sa % sd);
}

static uint64_t compute(uint32_t op, uint64_t a, uint64_t b)
{
    switch (op) {
    case SB_IR_OP_I64ADD: return a + b;
    case SB_IR_OP_I64SUB: return a - b;
    case SB_IR_OP_I64MUL: return a * b;
    case SB_IR_OP_I64UDIV: case SB_IR_OP_I64UREM: case SB_IR_OP_I64IDIV: case SB_IR_OP_I64IREM:
        return divide(op, a, b);
    case SB_IR_OP_I64SHL: return a << (b & 63);
    case SB_IR_OP_I64USHR: return a >> (b & 63);
    case SB_IR_OP_I64ISHR: {
        uint32_t c = (uint32_t)(b & 63);
        uint64_t fill = (a >> 63) && c ? ~0ull << (64 - c) : 0; /* the sign copied into the top */
        return (a >> c) | fill;
    }
    case SB_IR_OP_I64AND: return a & b;
    case SB_IR_OP_I64OR: return a | b;
    case SB_IR_OP_I64XOR: return a ^ b;
    case SB_IR_OP_I64NOT: return ~a;
    case SB_IR_OP_I64TOD: return bits_of((double)as_signed(a));
    case SB_IR_OP_U64TOD: return bits_of((double)a);
    case SB_IR_OP_DTOI64: return float_to_int64(as_double(a), true);
    default: return float_to_int64(as_double(a), false); /* DTOU64 */
    }
}

/* The first `srcs` sources as `n` raw 64-bit values each (their bits in doubles), modifiers
 * dropped; `by_position` for 64-bit results (sb_ir_double_source), else value k is pair k. */
static bool load_sources(struct interp_state *s, const struct sb_ir_instruction *in, uint32_t srcs, uint32_t n,
                         bool by_position, double *a[2][2])
{
    for (uint32_t i = 0; i < srcs; i++) {
        struct sb_ir_operand src = by_position ? sb_ir_double_source(&in->src[i], in->dst[0].mask) : in->src[i];
        src.modifiers = 0;
        if (!sb_interp_load_double(s, &src, n, a[i]))
            return false;
    }
    return true;
}

/* 64-bit results from 64-bit sources. */
static enum sb_result arithmetic(struct interp_state *s, const struct sb_ir_instruction *in)
{
    uint32_t srcs = sb_ir_op_info(in->op)->src_max;
    uint32_t n = sb_interp_wide_count(s, in, srcs, true);
    if (!n)
        return s->result;
    const struct sb_ir_operand *d = &in->dst[0];
    double *a[2][2] = { { NULL } };
    if (!load_sources(s, in, srcs, n, true, a))
        return s->result;
    double *r[2] = { NULL, NULL };
    for (uint32_t k = 0; k < n; k++) {
        if (!(r[k] = sb_interp_scratch_double(s)))
            return s->result;
        for (uint32_t l = 0; l < s->lanes; l++) {
            uint64_t b = srcs > 1 ? bits_of(a[1][k][l]) : 0;
            r[k][l] = as_double(compute(in->op, bits_of(a[0][k][l]), b));
        }
    }
    sb_interp_store_double(s, d, r, n);
    return s->result;
}

static uint32_t narrow(uint32_t op, uint64_t a, uint64_t b)
{
    float f;
    switch (op) {
    case SB_IR_OP_I64EQ: return a == b ? 0xFFFFFFFFu : 0;
    case SB_IR_OP_I64NE: return a != b ? 0xFFFFFFFFu : 0;
    case SB_IR_OP_I64ILT: return as_signed(a) < as_signed(b) ? 0xFFFFFFFFu : 0;
    case SB_IR_OP_I64IGE: return as_signed(a) >= as_signed(b) ? 0xFFFFFFFFu : 0;
    case SB_IR_OP_I64ULT: return a < b ? 0xFFFFFFFFu : 0;
    case SB_IR_OP_I64UGE: return a >= b ? 0xFFFFFFFFu : 0;
    case SB_IR_OP_I64TOI: return (uint32_t)a;
    case SB_IR_OP_I64TOF: f = (float)as_signed(a); break;
    default: f = (float)a; break; /* U64TOF */
    }
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

/* Compares, i64toi, i64tof/u64tof: one 32-bit lane per value. */
static enum sb_result narrowing(struct interp_state *s, const struct sb_ir_instruction *in)
{
    uint32_t srcs = sb_ir_op_info(in->op)->src_max;
    uint32_t n = sb_interp_wide_count(s, in, srcs, false);
    if (!n)
        return s->result;
    const struct sb_ir_operand *d = &in->dst[0];
    uint32_t mask = d->mask & 0xFu;
    double *a[2][2] = { { NULL } };
    if (!load_sources(s, in, srcs, n, false, a))
        return s->result;
    const uint32_t *out[4] = { NULL };
    uint32_t k = 0;
    for (uint32_t c = 0; c < 4; c++) {
        if (!(mask & (1u << c)))
            continue;
        uint32_t *R = sb_interp_scratch(s);
        if (!R)
            return s->result;
        for (uint32_t l = 0; l < s->lanes; l++)
            R[l] = narrow(in->op, bits_of(a[0][k][l]), srcs > 1 ? bits_of(a[1][k][l]) : 0);
        out[c] = R;
        k++;
    }
    sb_interp_store(s, d, mask, out, sb_ir_op_info(in->op)->dst_type[0] == SB_IR_TYPE_FLOAT ? SB_IR_TYPE_FLOAT
                                                                                         : SB_IR_TYPE_UINT);
    return s->result;
}

/* itoi64/utou64/ftoi64/ftou64: one 32-bit source lane per value, by position. */
static enum sb_result widening(struct interp_state *s, const struct sb_ir_instruction *in)
{
    uint32_t n = sb_interp_wide_count(s, in, 1, true);
    if (!n)
        return s->result;
    const struct sb_ir_operand *d = &in->dst[0];
    const uint32_t *a[4];
    struct sb_ir_operand src = sb_ir_double_source(&in->src[0], d->mask);
    src.modifiers = 0;
    if (!sb_interp_load_n(s, &src, n, SB_IR_TYPE_UINT, a))
        return s->result;
    double *r[2] = { NULL, NULL };
    for (uint32_t k = 0; k < n; k++) {
        if (!(r[k] = sb_interp_scratch_double(s)))
            return s->result;
        for (uint32_t l = 0; l < s->lanes; l++) {
            uint32_t u = a[k][l];
            float f;
            memcpy(&f, &u, 4);
            uint64_t v;
            switch (in->op) {
            case SB_IR_OP_ITOI64: v = (u >> 31) ? 0xFFFFFFFF00000000ull | u : u; break;
            case SB_IR_OP_UTOU64: v = u; break;
            default: v = float_to_int64((double)f, in->op == SB_IR_OP_FTOI64); break;
            }
            r[k][l] = as_double(v);
        }
    }
    sb_interp_store_double(s, d, r, n);
    return s->result;
}

enum sb_result sb_interp_alu_int64(struct interp_state *s, const struct sb_ir_instruction *in)
{
    if (!sb_ir_op_is_int64(in->op))
        return SB_ERROR_TRANSLATE_UNSUPPORTED;
    const struct sb_ir_op_info *info = sb_ir_op_info(in->op);
    if (info->dst_type[0] == SB_IR_TYPE_DOUBLE && info->src_type[0] == SB_IR_TYPE_DOUBLE)
        return arithmetic(s, in);
    if (info->dst_type[0] == SB_IR_TYPE_DOUBLE)
        return widening(s, in);
    return narrowing(s, in);
}
