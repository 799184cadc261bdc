/* SPDX-License-Identifier: MIT */
/*
 * 64-bit ops of the CPU interpreter, following
 * translator/src/spirv/spirv_alu_double.c: a destination mask names the lane
 * pairs written; ops with a 64-bit result map by position after the swizzle
 * (IR.md §Operands, sb_ir_double_source: a .zw destination reads the
 * sources' second slot, as D3D does); comparisons and dtof/dtoi/dtou write
 * the k-th written 32-bit lane from double k. dmin/dmax are NMin/NMax
 * (fmin/fmax), dfma is fused (fma), dtoi/dtou saturate like ftoi/ftou, and
 * `_sat` clamps double results to [0, 1] with NaN -> 0 as for floats.
 */
#include "interp_private.h"

#include <math.h>
#include <string.h>
#include "translator/ir.h"

static uint32_t popcount4(uint32_t mask)
{
    return (mask & 1u) + ((mask >> 1) & 1u) + ((mask >> 2) & 1u) + ((mask >> 3) & 1u);
}

uint32_t sb_interp_wide_count(struct interp_state *s, const struct sb_ir_instruction *in, uint32_t srcs, bool pairs)
{
    if (in->dst_count < 1 || in->src_count < srcs) {
        sb_interp_fail(s, SB_ERROR_RUN_UNSUPPORTED, "'%s' has too few operands", sb_ir_op_name(in->op));
        return 0;
    }
    const struct sb_ir_operand *d = &in->dst[0];
    uint32_t lanes = popcount4(d->mask & 0xFu);
    if (d->file == SB_IR_FILE_NULL || !lanes)
        return 0;
    if (pairs)
        return lanes / 2;
    if (lanes > 2)
        sb_interp_fail(s, SB_ERROR_RUN_UNSUPPORTED, "'%s' writes %u lanes from at most two 64-bit values",
                       sb_ir_op_name(in->op), lanes);
    return lanes > 2 ? 0 : lanes;
}


/* D3D's saturate on a double: [0, 1], NaN fails both tests and gives 0. */
static void saturate(const struct interp_state *s, const struct sb_ir_instruction *in, double *r)
{
    if (!(in->flags & SB_IR_FLAG_SATURATE))
        return;
    for (uint32_t l = 0; l < s->lanes; l++)
        r[l] = r[l] > 0.0 ? (r[l] < 1.0 ? r[l] : 1.0) : 0.0;
}

static uint32_t dtoi(double d, bool is_signed)
{
    if (isnan(d))
        return 0;
    if (is_signed)
        return d >= 2147483648.0 ? 0x7FFFFFFFu : d <= -2147483648.0 ? 0x80000000u : (uint32_t)(int32_t)d;
    return d >= 4294967296.0 ? 0xFFFFFFFFu : d <= 0.0 ? 0 : (uint32_t)d;
}

static enum sb_result arithmetic(struct interp_state *s, const struct sb_ir_instruction *in)
{
    uint32_t srcs = (in->op == SB_IR_OP_DMOV || in->op == SB_IR_OP_DRCP) ? 1
                    : (in->op == SB_IR_OP_DFMA || in->op == SB_IR_OP_DMOVC) ? 3 : 2;
    uint32_t n = sb_interp_wide_count(s, in, srcs, true);
    if (!n)
        return s->result;
    const struct sb_ir_operand *d = &in->dst[0];
    double *a[3][2] = { { NULL } };
    const uint32_t *cond[4] = { NULL };
    uint32_t first = in->op == SB_IR_OP_DMOVC ? 1 : 0;
    for (uint32_t i = 0; i < srcs; i++) {
        struct sb_ir_operand src = sb_ir_double_source(&in->src[i], d->mask);
        if (i < first ? !sb_interp_load_n(s, &src, n, SB_IR_TYPE_BOOL, cond)
                      : !sb_interp_load_double(s, &src, n, a[i]))
            return s->result;
    }
    double *r[2] = { NULL, NULL };
    for (uint32_t k = 0; k < n; k++) {
        if (!(r[k] = sb_interp_scratch_double(s)))
            return s->result;
        double *R = r[k], *A = a[0][k], *Bv = a[1][k], *C = a[2][k];
        for (uint32_t l = 0; l < s->lanes; l++) {
            switch (in->op) {
            case SB_IR_OP_DMOV: R[l] = A[l]; break;
            case SB_IR_OP_DMOVC: R[l] = cond[k][l] ? Bv[l] : C[l]; break;
            case SB_IR_OP_DADD: R[l] = A[l] + Bv[l]; break;
            case SB_IR_OP_DMUL: R[l] = A[l] * Bv[l]; break;
            case SB_IR_OP_DDIV: R[l] = A[l] / Bv[l]; break;
            case SB_IR_OP_DMIN: R[l] = fmin(A[l], Bv[l]); break;
            case SB_IR_OP_DMAX: R[l] = fmax(A[l], Bv[l]); break;
            case SB_IR_OP_DFMA: R[l] = fma(A[l], Bv[l], C[l]); break;
            default: R[l] = 1.0 / A[l]; break; /* DRCP */
            }
        }
        saturate(s, in, R);
    }
    sb_interp_store_double(s, d, r, n);
    return s->result;
}

/* deq/dne/dlt/dge and dtof/dtoi/dtou: one 32-bit lane per double. */
static enum sb_result narrowing(struct interp_state *s, const struct sb_ir_instruction *in)
{
    bool compare = in->op == SB_IR_OP_DEQ || in->op == SB_IR_OP_DNE || in->op == SB_IR_OP_DLT ||
                   in->op == SB_IR_OP_DGE;
    uint32_t n = sb_interp_wide_count(s, in, compare ? 2 : 1, false);
    if (!n)
        return s->result;
    const struct sb_ir_operand *d = &in->dst[0];
    uint32_t mask = d->mask & 0xFu;
    double *a[2] = { NULL }, *b[2] = { NULL };
    if (!sb_interp_load_double(s, &in->src[0], n, a) || (compare && !sb_interp_load_double(s, &in->src[1], n, b)))
        return s->result;
    const uint32_t *out[4] = { NULL };
    uint32_t k = 0;
    for (uint32_t c = 0; c < 4; c++) {
        if (!(mask & (1u << c)))
            continue;
        uint32_t *R = sb_interp_scratch(s);
        if (!R)
            return s->result;
        const double *A = a[k], *Bv = b[k];
        for (uint32_t l = 0; l < s->lanes; l++) {
            switch (in->op) {
            case SB_IR_OP_DEQ: R[l] = A[l] == Bv[l] ? 0xFFFFFFFFu : 0; break;
            case SB_IR_OP_DNE: R[l] = !(A[l] == Bv[l]) ? 0xFFFFFFFFu : 0; break;
            case SB_IR_OP_DLT: R[l] = A[l] < Bv[l] ? 0xFFFFFFFFu : 0; break;
            case SB_IR_OP_DGE: R[l] = A[l] >= Bv[l] ? 0xFFFFFFFFu : 0; break;
            case SB_IR_OP_DTOF: {
                float f = (float)A[l];
                memcpy(&R[l], &f, 4);
                break;
            }
            default: R[l] = dtoi(A[l], in->op == SB_IR_OP_DTOI); break;
            }
        }
        out[c] = R;
        k++;
    }
    sb_interp_store(s, d, mask, out, in->op == SB_IR_OP_DTOF ? SB_IR_TYPE_FLOAT : SB_IR_TYPE_UINT);
    return s->result;
}

/* ftod/itod/utod. */
static enum sb_result widening(struct interp_state *s, const struct sb_ir_instruction *in)
{
    uint32_t n = sb_interp_wide_count(s, in, 1, true);
    if (!n)
        return s->result;
    const struct sb_ir_operand *d = &in->dst[0];
    uint32_t view = in->op == SB_IR_OP_FTOD ? SB_IR_TYPE_FLOAT : in->op == SB_IR_OP_ITOD ? SB_IR_TYPE_INT
                                                                                          : SB_IR_TYPE_UINT;
    const uint32_t *a[4];
    struct sb_ir_operand src = sb_ir_double_source(&in->src[0], d->mask);
    if (!sb_interp_load_n(s, &src, n, view, a))
        return s->result;
    double *r[2] = { NULL, NULL };
    for (uint32_t k = 0; k < n; k++) {
        if (!(r[k] = sb_interp_scratch_double(s)))
            return s->result;
        for (uint32_t l = 0; l < s->lanes; l++) {
            uint32_t u = a[k][l];
            float f;
            memcpy(&f, &u, 4);
            r[k][l] = view == SB_IR_TYPE_FLOAT ? (double)f : view == SB_IR_TYPE_INT ? (double)(int32_t)u : (double)u;
        }
        saturate(s, in, r[k]);
    }
    sb_interp_store_double(s, d, r, n);
    return s->result;
}

enum sb_result sb_interp_alu_double(struct interp_state *s, const struct sb_ir_instruction *in)
{
    switch (in->op) {
    case SB_IR_OP_DMOV: case SB_IR_OP_DMOVC: case SB_IR_OP_DADD: case SB_IR_OP_DMUL: case SB_IR_OP_DDIV:
    case SB_IR_OP_DMIN: case SB_IR_OP_DMAX: case SB_IR_OP_DFMA: case SB_IR_OP_DRCP:
        return arithmetic(s, in);
    case SB_IR_OP_DEQ: case SB_IR_OP_DNE: case SB_IR_OP_DLT: case SB_IR_OP_DGE: case SB_IR_OP_DTOF:
    case SB_IR_OP_DTOI: case SB_IR_OP_DTOU:
        return narrowing(s, in);
    case SB_IR_OP_FTOD: case SB_IR_OP_ITOD: case SB_IR_OP_UTOD:
        return widening(s, in);
    default: return SB_ERROR_TRANSLATE_UNSUPPORTED;
    }
}
