/* SPDX-License-Identifier: MIT */
/*
 * Integer, bit and conversion ops of the CPU interpreter, following
 * translator/src/spirv/spirv_alu_int.c (IR.md §Semantics):
 *   * shifts use count & 31; ubfe/ibfe/bfi use width & 31 and offset & 31
 *     with the field cut at bit 31 (count = min(width, 32 - offset));
 *   * udiv by 0 gives 0xFFFFFFFF for quotient and remainder;
 *   * imul/umul write (high, low), uaddc/usubb (result, carry/borrow);
 *   * firstbit_hi/shi = 31 - FindUMsb/FindSMsb, firstbit_lo = FindILsb,
 *     0xFFFFFFFF when no bit is found;
 *   * ftoi/ftou saturate (NaN -> 0, out of range -> the end of the range);
 *   * f32tof16 is PackHalf2x16 (round to nearest even, NaN stays NaN),
 *     f16tof32 UnpackHalf2x16 of the low 16 bits.
 */
#include "interp_private.h"

#include <math.h>
#include <string.h>
#include "translator/ir.h"

static uint32_t ftoi(float f)
{
    if (isnan(f))
        return 0;
    if (f >= 2147483648.0f)
        return 0x7FFFFFFFu;
    if (f <= -2147483648.0f)
        return 0x80000000u;
    return (uint32_t)(int32_t)f;
}

static uint32_t ftou(float f)
{
    if (!(f > 0.0f))
        return 0; /* NaN too */
    if (f >= 4294967296.0f)
        return 0xFFFFFFFFu;
    return (uint32_t)f;
}

static uint32_t msb_u(uint32_t v)
{
    uint32_t i = 31;
    while (!(v >> i))
        i--;
    return i;
}

static uint32_t bitfield(uint32_t op, uint32_t w, uint32_t o, uint32_t v, uint32_t base)
{
    w &= 31u;
    o &= 31u;
    uint32_t count = w < 32 - o ? w : 32 - o;
    if (op == SB_IR_OP_BFI) {
        uint32_t mask = (count == 32 ? 0xFFFFFFFFu : ((1u << count) - 1)) << o;
        return ((v << o) & mask) | (base & ~mask);
    }
    if (!count)
        return 0;
    uint32_t shifted = v >> o;
    if (count == 32)
        return shifted;
    uint32_t field = shifted & ((1u << count) - 1);
    if (op == SB_IR_OP_IBFE && (field >> (count - 1)) & 1)
        field |= ~((1u << count) - 1);
    return field;
}

static uint32_t msad(uint32_t ref, uint32_t src, uint32_t sum)
{
    for (uint32_t k = 0; k < 32; k += 8) {
        uint32_t r = (ref >> k) & 0xFFu, v = (src >> k) & 0xFFu;
        if (r)
            sum += r > v ? r - v : v - r;
    }
    return sum;
}

SB_INTERP_KERNEL static void lanewise(uint32_t op, const uint32_t *restrict a, const uint32_t *restrict b, const uint32_t *restrict c,
                     const uint32_t *restrict d, uint32_t *restrict r, uint32_t n)
{
    switch (op) {
    case SB_IR_OP_IADD: for (uint32_t l = 0; l < n; l++) r[l] = a[l] + b[l]; break;
    case SB_IR_OP_INEG: for (uint32_t l = 0; l < n; l++) r[l] = 0u - a[l]; break;
    case SB_IR_OP_IMAD: case SB_IR_OP_UMAD: for (uint32_t l = 0; l < n; l++) r[l] = a[l] * b[l] + c[l]; break;
    case SB_IR_OP_IMIN: for (uint32_t l = 0; l < n; l++) r[l] = (int32_t)a[l] < (int32_t)b[l] ? a[l] : b[l]; break;
    case SB_IR_OP_IMAX: for (uint32_t l = 0; l < n; l++) r[l] = (int32_t)a[l] > (int32_t)b[l] ? a[l] : b[l]; break;
    case SB_IR_OP_UMIN: for (uint32_t l = 0; l < n; l++) r[l] = a[l] < b[l] ? a[l] : b[l]; break;
    case SB_IR_OP_UMAX: for (uint32_t l = 0; l < n; l++) r[l] = a[l] > b[l] ? a[l] : b[l]; break;
    case SB_IR_OP_IEQ: for (uint32_t l = 0; l < n; l++) r[l] = B(a[l] == b[l]); break;
    case SB_IR_OP_INE: for (uint32_t l = 0; l < n; l++) r[l] = B(a[l] != b[l]); break;
    case SB_IR_OP_ILT: for (uint32_t l = 0; l < n; l++) r[l] = B((int32_t)a[l] < (int32_t)b[l]); break;
    case SB_IR_OP_IGE: for (uint32_t l = 0; l < n; l++) r[l] = B((int32_t)a[l] >= (int32_t)b[l]); break;
    case SB_IR_OP_ULT: for (uint32_t l = 0; l < n; l++) r[l] = B(a[l] < b[l]); break;
    case SB_IR_OP_UGE: for (uint32_t l = 0; l < n; l++) r[l] = B(a[l] >= b[l]); break;
    case SB_IR_OP_AND: for (uint32_t l = 0; l < n; l++) r[l] = a[l] & b[l]; break;
    case SB_IR_OP_OR: for (uint32_t l = 0; l < n; l++) r[l] = a[l] | b[l]; break;
    case SB_IR_OP_XOR: for (uint32_t l = 0; l < n; l++) r[l] = a[l] ^ b[l]; break;
    case SB_IR_OP_NOT: for (uint32_t l = 0; l < n; l++) r[l] = ~a[l]; break;
    case SB_IR_OP_ISHL: for (uint32_t l = 0; l < n; l++) r[l] = a[l] << (b[l] & 31u); break;
    case SB_IR_OP_USHR: for (uint32_t l = 0; l < n; l++) r[l] = a[l] >> (b[l] & 31u); break;
    case SB_IR_OP_ISHR:
        /* Arithmetic shift written portably: right shift of a negative value is implementation-defined. */
        for (uint32_t l = 0; l < n; l++) {
            uint32_t k = b[l] & 31u, v = a[l] >> k;
            r[l] = (a[l] & 0x80000000u) && k ? v | ~(0xFFFFFFFFu >> k) : v;
        }
        break;
    case SB_IR_OP_COUNTBITS:
        for (uint32_t l = 0; l < n; l++) {
            uint32_t v = a[l], k = 0;
            for (; v; v &= v - 1)
                k++;
            r[l] = k;
        }
        break;
    case SB_IR_OP_BFREV:
        for (uint32_t l = 0; l < n; l++) {
            uint32_t v = a[l], o = 0;
            for (uint32_t i = 0; i < 32; i++)
                o |= ((v >> i) & 1u) << (31 - i);
            r[l] = o;
        }
        break;
    case SB_IR_OP_FIRSTBIT_HI: for (uint32_t l = 0; l < n; l++) r[l] = a[l] ? 31 - msb_u(a[l]) : 0xFFFFFFFFu; break;
    case SB_IR_OP_FIRSTBIT_SHI:
        for (uint32_t l = 0; l < n; l++) {
            uint32_t v = (a[l] & 0x80000000u) ? ~a[l] : a[l]; /* FindSMsb: the highest bit unlike the sign */
            r[l] = v ? 31 - msb_u(v) : 0xFFFFFFFFu;
        }
        break;
    case SB_IR_OP_FIRSTBIT_LO:
        for (uint32_t l = 0; l < n; l++) {
            uint32_t v = a[l], i = 0;
            if (!v) {
                r[l] = 0xFFFFFFFFu;
                continue;
            }
            while (!((v >> i) & 1u))
                i++;
            r[l] = i;
        }
        break;
    case SB_IR_OP_UBFE: case SB_IR_OP_IBFE:
        for (uint32_t l = 0; l < n; l++) r[l] = bitfield(op, a[l], b[l], c[l], 0);
        break;
    case SB_IR_OP_BFI: for (uint32_t l = 0; l < n; l++) r[l] = bitfield(op, a[l], b[l], c[l], d[l]); break;
    case SB_IR_OP_MSAD: for (uint32_t l = 0; l < n; l++) r[l] = msad(a[l], b[l], c[l]); break;
    case SB_IR_OP_FTOI: for (uint32_t l = 0; l < n; l++) r[l] = ftoi(F(a[l])); break;
    case SB_IR_OP_FTOU: for (uint32_t l = 0; l < n; l++) r[l] = ftou(F(a[l])); break;
    case SB_IR_OP_ITOF: for (uint32_t l = 0; l < n; l++) r[l] = U((float)(int32_t)a[l]); break;
    case SB_IR_OP_UTOF: for (uint32_t l = 0; l < n; l++) r[l] = U((float)a[l]); break;
    case SB_IR_OP_F32TOF16: for (uint32_t l = 0; l < n; l++) r[l] = sb_interp_half_from_float(a[l]); break;
    case SB_IR_OP_F16TOF32: for (uint32_t l = 0; l < n; l++) r[l] = sb_interp_float_from_half(a[l] & 0xFFFFu); break;
    default: break;
    }
}

struct int_row {
    uint8_t srcs;
    uint8_t src_type; /* view of the sources (modifiers) */
    uint8_t dst_type; /* view of the result (saturate) */
};

#define ROW(o, n, s, d) [SB_IR_OP_##o] = { n, SB_IR_TYPE_##s, SB_IR_TYPE_##d }
static const struct int_row rows[SB_IR_OP_COUNT] = {
    ROW(IADD, 2, UINT, UINT), ROW(INEG, 1, INT, INT), ROW(IMAD, 3, UINT, UINT), ROW(UMAD, 3, UINT, UINT),
    ROW(IMIN, 2, INT, INT), ROW(IMAX, 2, INT, INT), ROW(UMIN, 2, UINT, UINT), ROW(UMAX, 2, UINT, UINT),
    ROW(IEQ, 2, UINT, BOOL), ROW(INE, 2, UINT, BOOL), ROW(ILT, 2, INT, BOOL), ROW(IGE, 2, INT, BOOL),
    ROW(ULT, 2, UINT, BOOL), ROW(UGE, 2, UINT, BOOL), ROW(AND, 2, UINT, UINT), ROW(OR, 2, UINT, UINT),
    ROW(XOR, 2, UINT, UINT), ROW(NOT, 1, UINT, UINT), ROW(ISHL, 2, UINT, UINT), ROW(ISHR, 2, INT, INT),
    ROW(USHR, 2, UINT, UINT), ROW(COUNTBITS, 1, UINT, UINT), ROW(BFREV, 1, UINT, UINT),
    ROW(FIRSTBIT_HI, 1, UINT, UINT), ROW(FIRSTBIT_SHI, 1, INT, UINT), ROW(FIRSTBIT_LO, 1, UINT, UINT),
    ROW(UBFE, 3, UINT, UINT), ROW(IBFE, 3, UINT, INT), ROW(BFI, 4, UINT, UINT), ROW(MSAD, 3, UINT, UINT),
    ROW(FTOI, 1, FLOAT, INT), ROW(FTOU, 1, FLOAT, UINT), ROW(ITOF, 1, INT, FLOAT), ROW(UTOF, 1, UINT, FLOAT),
    ROW(F32TOF16, 1, FLOAT, UINT), ROW(F16TOF32, 1, UINT, FLOAT),
};
#undef ROW

static enum sb_result run_lanewise(struct interp_state *s, const struct sb_ir_instruction *in,
                                   const struct int_row *row)
{
    if (in->dst_count < 1 || in->src_count < row->srcs)
        return sb_interp_fail(s, SB_ERROR_RUN_UNSUPPORTED, "'%s' has too few operands", sb_ir_op_name(in->op));
    const struct sb_ir_operand *d = &in->dst[0];
    uint32_t mask = d->mask & 0xFu;
    if (!mask || d->file == SB_IR_FILE_NULL)
        return SB_SUCCESS;
    const uint32_t *src[4][4] = { { NULL } };
    uint32_t *r[4] = { NULL };
    for (uint32_t i = 0; i < row->srcs; i++)
        if (!sb_interp_load(s, &in->src[i], mask, row->src_type, src[i]))
            return s->result;
    for (uint32_t c = 0; c < 4; c++) {
        if (!(mask & (1u << c)))
            continue;
        if (!(r[c] = sb_interp_scratch(s)))
            return s->result;
        lanewise(in->op, src[0][c], src[1][c], src[2][c], src[3][c], r[c], s->lanes);
        if (s->prec && in->op >= SB_IR_OP_FTOI && in->op <= SB_IR_OP_UTOF)
            sb_interp_precision_to_integer(s, in->op, src[0][c], r[c]);
    }
    sb_interp_store(s, d, mask, (const uint32_t *const *)r, row->dst_type);
    return s->result;
}

/* imul/umul (hi, lo), udiv (quotient, remainder), uaddc/usubb (result, carry). */
static enum sb_result two_results(struct interp_state *s, const struct sb_ir_instruction *in)
{
    if (in->dst_count < 2 || in->src_count < 2)
        return sb_interp_fail(s, SB_ERROR_RUN_UNSUPPORTED, "'%s' has too few operands", sb_ir_op_name(in->op));
    uint32_t mask = (in->dst[0].mask | in->dst[1].mask) & 0xFu;
    if (!mask)
        return SB_SUCCESS;
    const uint32_t *a[4], *b[4];
    uint32_t *x[4] = { NULL }, *y[4] = { NULL };
    if (!sb_interp_load(s, &in->src[0], mask, SB_IR_TYPE_UINT, a) ||
        !sb_interp_load(s, &in->src[1], mask, SB_IR_TYPE_UINT, b))
        return s->result;
    for (uint32_t c = 0; c < 4; c++) {
        if (!(mask & (1u << c)))
            continue;
        if (!(x[c] = sb_interp_scratch(s)) || !(y[c] = sb_interp_scratch(s)))
            return s->result;
        const uint32_t *A = a[c], *Bv = b[c];
        uint32_t *X = x[c], *Y = y[c];
        for (uint32_t l = 0; l < s->lanes; l++) {
            switch (in->op) {
            case SB_IR_OP_IMUL: {
                uint64_t p = (uint64_t)((int64_t)(int32_t)A[l] * (int64_t)(int32_t)Bv[l]);
                X[l] = (uint32_t)(p >> 32), Y[l] = (uint32_t)p;
                break;
            }
            case SB_IR_OP_UMUL: {
                uint64_t p = (uint64_t)A[l] * Bv[l];
                X[l] = (uint32_t)(p >> 32), Y[l] = (uint32_t)p;
                break;
            }
            case SB_IR_OP_UDIV:
                X[l] = Bv[l] ? A[l] / Bv[l] : 0xFFFFFFFFu;
                Y[l] = Bv[l] ? A[l] % Bv[l] : 0xFFFFFFFFu;
                break;
            case SB_IR_OP_UADDC: X[l] = A[l] + Bv[l], Y[l] = X[l] < A[l]; break;
            default: X[l] = A[l] - Bv[l], Y[l] = A[l] < Bv[l]; break; /* USUBB */
            }
        }
    }
    if (sb_interp_store(s, &in->dst[0], in->dst[0].mask, (const uint32_t *const *)x, SB_IR_TYPE_UINT))
        sb_interp_store(s, &in->dst[1], in->dst[1].mask, (const uint32_t *const *)y, SB_IR_TYPE_UINT);
    return s->result;
}

enum sb_result sb_interp_alu_int(struct interp_state *s, const struct sb_ir_instruction *in)
{
    if (in->op < SB_IR_OP_COUNT && rows[in->op].srcs)
        return run_lanewise(s, in, &rows[in->op]);
    switch (in->op) {
    case SB_IR_OP_IMUL: case SB_IR_OP_UMUL: case SB_IR_OP_UDIV: case SB_IR_OP_UADDC: case SB_IR_OP_USUBB:
        return two_results(s, in);
    default: return SB_ERROR_TRANSLATE_UNSUPPORTED;
    }
}
