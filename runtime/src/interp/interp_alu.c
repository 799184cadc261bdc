/* SPDX-License-Identifier: MIT */
/*
 * Float ALU of the CPU interpreter, written to compute what
 * translator/src/spirv/spirv_alu.c emits (IR.md §Semantics): min/max are
 * NMin/NMax (fminf/fmaxf: the non-NaN operand wins), comparisons give
 * 0xFFFFFFFF/0 with `ne` unordered, exp/log are base 2, frc = x - floor(x),
 * rcp = 1/x, rsq = 1/sqrt(x), mad = a*b + c rounded twice (FMul then FAdd;
 * the build uses ISO C, so the compiler does not contract it), dot products
 * add the products in lane order. Each op is one tight loop over the lanes
 * of a component; the dispatch switch sits outside the loop.
 */
#include "interp_private.h"

#include <math.h>
#include <string.h>
#include "translator/ir.h"

/* GLSL.std.450 NMin/NMax: a NaN operand loses to the other (written out: libm's fminf is a call). */
static inline float nmin(float x, float y)
{
    return (y < x || x != x) ? y : x;
}

static inline float nmax(float x, float y)
{
    return (y > x || x != x) ? y : x;
}

/* Lane-wise float ops with one, two or three sources (one loop each, over whole blocks). */
SB_INTERP_KERNEL static void lanewise(uint32_t op, const uint32_t *restrict a, const uint32_t *restrict b, const uint32_t *restrict c,
                     uint32_t *restrict r, uint32_t n)
{
    switch (op) {
    case SB_IR_OP_ADD: for (uint32_t l = 0; l < n; l++) r[l] = U(F(a[l]) + F(b[l])); break;
    case SB_IR_OP_MUL: for (uint32_t l = 0; l < n; l++) r[l] = U(F(a[l]) * F(b[l])); break;
    case SB_IR_OP_DIV: for (uint32_t l = 0; l < n; l++) r[l] = U(F(a[l]) / F(b[l])); break;
    case SB_IR_OP_MAD:
        for (uint32_t l = 0; l < n; l++) {
            float m = F(a[l]) * F(b[l]);
            r[l] = U(m + F(c[l]));
        }
        break;
    case SB_IR_OP_MIN: for (uint32_t l = 0; l < n; l++) r[l] = U(nmin(F(a[l]), F(b[l]))); break;
    case SB_IR_OP_MAX: for (uint32_t l = 0; l < n; l++) r[l] = U(nmax(F(a[l]), F(b[l]))); break;
    case SB_IR_OP_FRC: for (uint32_t l = 0; l < n; l++) r[l] = U(F(a[l]) - floorf(F(a[l]))); break;
    case SB_IR_OP_SQRT: for (uint32_t l = 0; l < n; l++) r[l] = U(sqrtf(F(a[l]))); break;
    case SB_IR_OP_RSQ: for (uint32_t l = 0; l < n; l++) r[l] = U(1.0f / sqrtf(F(a[l]))); break;
    case SB_IR_OP_RCP: for (uint32_t l = 0; l < n; l++) r[l] = U(1.0f / F(a[l])); break;
    case SB_IR_OP_EXP: for (uint32_t l = 0; l < n; l++) r[l] = U(exp2f(F(a[l]))); break;
    case SB_IR_OP_LOG: for (uint32_t l = 0; l < n; l++) r[l] = U(log2f(F(a[l]))); break;
    case SB_IR_OP_ROUND_NE: for (uint32_t l = 0; l < n; l++) r[l] = U(nearbyintf(F(a[l]))); break;
    case SB_IR_OP_ROUND_NI: for (uint32_t l = 0; l < n; l++) r[l] = U(floorf(F(a[l]))); break;
    case SB_IR_OP_ROUND_PI: for (uint32_t l = 0; l < n; l++) r[l] = U(ceilf(F(a[l]))); break;
    case SB_IR_OP_ROUND_Z: for (uint32_t l = 0; l < n; l++) r[l] = U(truncf(F(a[l]))); break;
    case SB_IR_OP_EQ: for (uint32_t l = 0; l < n; l++) r[l] = B(F(a[l]) == F(b[l])); break;
    case SB_IR_OP_NE: for (uint32_t l = 0; l < n; l++) r[l] = B(!(F(a[l]) == F(b[l]))); break;
    case SB_IR_OP_LT: for (uint32_t l = 0; l < n; l++) r[l] = B(F(a[l]) < F(b[l])); break;
    case SB_IR_OP_GE: for (uint32_t l = 0; l < n; l++) r[l] = B(F(a[l]) >= F(b[l])); break;
    case SB_IR_OP_SGE: for (uint32_t l = 0; l < n; l++) r[l] = F(a[l]) >= F(b[l]) ? 0x3F800000u : 0; break;
    case SB_IR_OP_SLT: for (uint32_t l = 0; l < n; l++) r[l] = F(a[l]) < F(b[l]) ? 0x3F800000u : 0; break;
    case SB_IR_OP_MOVC: for (uint32_t l = 0; l < n; l++) r[l] = a[l] ? b[l] : c[l]; break;
    default: break;
    }
}

/* The commonest ops with source b (and c for mad) the same in every lane, as immediates are:
 * the value is held in a register instead of being streamed from a filled array (the lane loops
 * are bound by loads and stores). Computes exactly what lanewise() does. */
SB_INTERP_KERNEL static void lanewise_uniform(uint32_t op, const uint32_t *restrict a, uint32_t b,
                                              const uint32_t *restrict c, uint32_t *restrict r, uint32_t n)
{
    float fb = F(b);
    switch (op) {
    case SB_IR_OP_ADD: for (uint32_t l = 0; l < n; l++) r[l] = U(F(a[l]) + fb); break;
    case SB_IR_OP_MUL: for (uint32_t l = 0; l < n; l++) r[l] = U(F(a[l]) * fb); break;
    case SB_IR_OP_MAD:
        for (uint32_t l = 0; l < n; l++) {
            float m = F(a[l]) * fb;
            r[l] = U(m + F(c[l]));
        }
        break;
    case SB_IR_OP_MIN: for (uint32_t l = 0; l < n; l++) r[l] = U(nmin(F(a[l]), fb)); break;
    case SB_IR_OP_MAX: for (uint32_t l = 0; l < n; l++) r[l] = U(nmax(F(a[l]), fb)); break;
    default: break;
    }
}

/* mad with both b and c the same in every lane. */
SB_INTERP_KERNEL static void mad_uniform(const uint32_t *restrict a, uint32_t b, uint32_t c, uint32_t *restrict r,
                                         uint32_t n)
{
    float fb = F(b), fc = F(c);
    for (uint32_t l = 0; l < n; l++) {
        float m = F(a[l]) * fb;
        r[l] = U(m + fc);
    }
}

/* Is `v` one of the immediate arrays (every lane holds v[0])? */
static bool uniform(const struct interp_state *s, const uint32_t *v)
{
    return v >= s->imm_arrays && v < s->imm_arrays + (size_t)SB_INTERP_IMM_SLOTS * s->lanes;
}

/* sb_interp_options::approx_ulps: finite nonzero results moved by `ulps` in magnitude (the
 * bit pattern of a float grows with its magnitude, so this is an integer add), never across
 * zero or into an infinity. */
static void nudge_ulps(uint32_t *r, uint32_t n, int32_t ulps)
{
    for (uint32_t l = 0; l < n; l++) {
        uint32_t magnitude = r[l] & 0x7FFFFFFFu;
        if (magnitude == 0 || magnitude >= 0x7F800000u)
            continue;
        int64_t moved = (int64_t)magnitude + ulps;
        if (moved < 1)
            moved = 1;
        if (moved > 0x7F7FFFFF)
            moved = 0x7F7FFFFF;
        r[l] = (r[l] & 0x80000000u) | (uint32_t)moved;
    }
}

/* sin and cos: Vulkan bounds their error absolutely (2^-11 within [-pi, pi]), so they move by
 * `ulps` units of 2^-23 (ULPs of 1.0) whatever their magnitude, away from zero when positive. */
static void nudge_absolute(uint32_t *r, uint32_t n, int32_t ulps)
{
    float step = (float)ulps * 0x1p-23f;
    for (uint32_t l = 0; l < n; l++) {
        float v;
        memcpy(&v, &r[l], 4);
        if (v != v)
            continue;
        v += v < 0 ? -step : step;
        memcpy(&r[l], &v, 4);
    }
}

static bool approximated(uint32_t op)
{
    return op == SB_IR_OP_EXP || op == SB_IR_OP_LOG || op == SB_IR_OP_RSQ || op == SB_IR_OP_RCP ||
           op == SB_IR_OP_SQRT || op == SB_IR_OP_DIV;
}

/* One component of a lane-wise op: the uniform kernels where they apply. */
static void lanewise_component(const struct interp_state *s, uint32_t op, const uint32_t *a, const uint32_t *b,
                               const uint32_t *c, uint32_t *r)
{
    bool fast = op == SB_IR_OP_ADD || op == SB_IR_OP_MUL || op == SB_IR_OP_MAD || op == SB_IR_OP_MIN ||
                op == SB_IR_OP_MAX;
    if (fast && uniform(s, b)) {
        if (op == SB_IR_OP_MAD && uniform(s, c))
            mad_uniform(a, b[0], c[0], r, s->lanes);
        else
            lanewise_uniform(op, a, b[0], c, r, s->lanes);
        return;
    }
    lanewise(op, a, b, c, r, s->lanes);
    if (s->approx_ulps && approximated(op))
        nudge_ulps(r, s->lanes, s->approx_ulps);
}

struct lanewise_row {
    uint8_t srcs, dst_type;
};

/* Sources and result view of each lane-wise op (0 sources: not lane-wise here). */
static const struct lanewise_row rows[SB_IR_OP_COUNT] = {
    [SB_IR_OP_ADD] = { 2, SB_IR_TYPE_FLOAT }, [SB_IR_OP_MUL] = { 2, SB_IR_TYPE_FLOAT },
    [SB_IR_OP_DIV] = { 2, SB_IR_TYPE_FLOAT }, [SB_IR_OP_MAD] = { 3, SB_IR_TYPE_FLOAT },
    [SB_IR_OP_MIN] = { 2, SB_IR_TYPE_FLOAT }, [SB_IR_OP_MAX] = { 2, SB_IR_TYPE_FLOAT },
    [SB_IR_OP_FRC] = { 1, SB_IR_TYPE_FLOAT }, [SB_IR_OP_SQRT] = { 1, SB_IR_TYPE_FLOAT },
    [SB_IR_OP_RSQ] = { 1, SB_IR_TYPE_FLOAT }, [SB_IR_OP_RCP] = { 1, SB_IR_TYPE_FLOAT },
    [SB_IR_OP_EXP] = { 1, SB_IR_TYPE_FLOAT }, [SB_IR_OP_LOG] = { 1, SB_IR_TYPE_FLOAT },
    [SB_IR_OP_ROUND_NE] = { 1, SB_IR_TYPE_FLOAT }, [SB_IR_OP_ROUND_NI] = { 1, SB_IR_TYPE_FLOAT },
    [SB_IR_OP_ROUND_PI] = { 1, SB_IR_TYPE_FLOAT }, [SB_IR_OP_ROUND_Z] = { 1, SB_IR_TYPE_FLOAT },
    [SB_IR_OP_EQ] = { 2, SB_IR_TYPE_BOOL }, [SB_IR_OP_NE] = { 2, SB_IR_TYPE_BOOL },
    [SB_IR_OP_LT] = { 2, SB_IR_TYPE_BOOL }, [SB_IR_OP_GE] = { 2, SB_IR_TYPE_BOOL },
    [SB_IR_OP_SGE] = { 2, SB_IR_TYPE_FLOAT }, [SB_IR_OP_SLT] = { 2, SB_IR_TYPE_FLOAT },
};

static bool check(struct interp_state *s, const struct sb_ir_instruction *in, uint32_t dsts, uint32_t srcs)
{
    if (in->dst_count >= dsts && in->src_count >= srcs)
        return true;
    sb_interp_fail(s, SB_ERROR_RUN_UNSUPPORTED, "'%s' needs %u destination(s) and %u source(s)",
                   sb_ir_op_name(in->op), dsts, srcs);
    return false;
}

/* Result arrays for the lanes of `mask`. */
static bool results(struct interp_state *s, uint32_t mask, uint32_t *r[4])
{
    for (uint32_t c = 0; c < 4; c++)
        if ((mask & (1u << c)) && !(r[c] = sb_interp_scratch(s)))
            return false;
    return true;
}

static enum sb_result run_lanewise(struct interp_state *s, const struct sb_ir_instruction *in,
                                   const struct lanewise_row *row)
{
    if (!check(s, in, 1, row->srcs))
        return s->result;
    const struct sb_ir_operand *d = &in->dst[0];
    uint32_t mask = d->mask & 0xFu;
    if (!mask || d->file == SB_IR_FILE_NULL)
        return SB_SUCCESS;
    const uint32_t *src[3][4] = { { NULL } };
    uint32_t *r[4] = { NULL };
    for (uint32_t i = 0; i < row->srcs; i++)
        if (!sb_interp_load(s, &in->src[i], mask, SB_IR_TYPE_FLOAT, src[i]))
            return s->result;
    if (!results(s, mask, r))
        return s->result;
    for (uint32_t c = 0; c < 4; c++)
        if (mask & (1u << c)) {
            lanewise_component(s, in->op, src[0][c], src[1][c], src[2][c], r[c]);
            if (s->prec)
                sb_interp_precision_lanewise(s, in->op, src[0][c], src[1][c], src[2][c], r[c]);
        }
    sb_interp_store(s, d, mask, (const uint32_t *const *)r, row->dst_type);
    return s->result;
}

/* mov (bits, or float when modified/saturated), movc, swapc. */
static enum sb_result moves(struct interp_state *s, const struct sb_ir_instruction *in)
{
    bool swap = in->op == SB_IR_OP_SWAPC, movc = in->op != SB_IR_OP_MOV;
    if (!check(s, in, swap ? 2 : 1, movc ? 3 : 1))
        return s->result;
    uint32_t mask = (in->dst[0].mask | (swap ? in->dst[1].mask : 0)) & 0xFu;
    if (!mask)
        return SB_SUCCESS;
    const uint32_t *src[3][4] = { { NULL } };
    if (!movc) {
        if (s->prec) /* the value moves with its bound (modifiers copy it) */
            s->prec->bounds_set = true;
        if (sb_interp_load(s, &in->src[0], mask, SB_IR_TYPE_FLOAT, src[0]))
            sb_interp_store(s, &in->dst[0], mask, src[0], SB_IR_TYPE_FLOAT);
        return s->result;
    }
    uint32_t *first[4] = { NULL }, *second[4] = { NULL };
    if (!sb_interp_load(s, &in->src[0], mask, SB_IR_TYPE_BOOL, src[0]) ||
        !sb_interp_load(s, &in->src[1], mask, SB_IR_TYPE_FLOAT, src[1]) ||
        !sb_interp_load(s, &in->src[2], mask, SB_IR_TYPE_FLOAT, src[2]) || !results(s, mask, first) ||
        (swap && !results(s, mask, second)))
        return s->result;
    for (uint32_t c = 0; c < 4; c++) {
        if (!(mask & (1u << c)))
            continue;
        lanewise(SB_IR_OP_MOVC, src[0][c], swap ? src[2][c] : src[1][c], swap ? src[1][c] : src[2][c], first[c],
                 s->lanes);
        if (swap)
            lanewise(SB_IR_OP_MOVC, src[0][c], src[1][c], src[2][c], second[c], s->lanes);
        if (s->prec) {
            sb_interp_precision_movc(s, src[0][c], swap ? src[2][c] : src[1][c], swap ? src[1][c] : src[2][c],
                                     first[c]);
            if (swap)
                sb_interp_precision_movc(s, src[0][c], src[1][c], src[2][c], second[c]);
        }
    }
    if (sb_interp_store(s, &in->dst[0], in->dst[0].mask, (const uint32_t *const *)first, SB_IR_TYPE_FLOAT) && swap)
        sb_interp_store(s, &in->dst[1], in->dst[1].mask, (const uint32_t *const *)second, SB_IR_TYPE_FLOAT);
    return s->result;
}

/* dp2/dp3/dp4/dph: products added in lane order, replicated. */
static enum sb_result dot(struct interp_state *s, const struct sb_ir_instruction *in, uint32_t size, bool homogeneous)
{
    if (!check(s, in, 1, 2))
        return s->result;
    const struct sb_ir_operand *d = &in->dst[0];
    if (!(d->mask & 0xFu))
        return SB_SUCCESS;
    const uint32_t *a[4], *b[4];
    uint32_t *r = NULL;
    if (!sb_interp_load_n(s, &in->src[0], size, SB_IR_TYPE_FLOAT, a) ||
        !sb_interp_load_n(s, &in->src[1], size, SB_IR_TYPE_FLOAT, b) || !(r = sb_interp_scratch(s)))
        return s->result;
    for (uint32_t l = 0; l < s->lanes; l++) {
        float sum = F(a[0][l]) * F(b[0][l]);
        for (uint32_t k = 1; k < size; k++) {
            float x = (homogeneous && k == 3) ? 1.0f : F(a[k][l]);
            float p = x * F(b[k][l]);
            sum = sum + p;
        }
        r[l] = U(sum);
    }
    if (s->prec)
        sb_interp_precision_dot(s, a, b, size, homogeneous, r);
    sb_interp_store_replicated(s, d, r, SB_IR_TYPE_FLOAT);
    return s->result;
}

/* dst: (1, a.y * b.y, a.z, b.w). */
static enum sb_result dst_op(struct interp_state *s, const struct sb_ir_instruction *in)
{
    if (!check(s, in, 1, 2))
        return s->result;
    const uint32_t *a[4], *b[4];
    uint32_t *r[4] = { NULL };
    if (!sb_interp_load_n(s, &in->src[0], 4, SB_IR_TYPE_FLOAT, a) ||
        !sb_interp_load_n(s, &in->src[1], 4, SB_IR_TYPE_FLOAT, b) || !results(s, 0xF, r))
        return s->result;
    for (uint32_t l = 0; l < s->lanes; l++) {
        r[0][l] = 0x3F800000u;
        r[1][l] = U(F(a[1][l]) * F(b[1][l]));
        r[2][l] = a[2][l];
        r[3][l] = b[3][l];
    }
    sb_interp_store(s, &in->dst[0], in->dst[0].mask, (const uint32_t *const *)r, SB_IR_TYPE_FLOAT);
    return s->result;
}

static enum sb_result sincos(struct interp_state *s, const struct sb_ir_instruction *in)
{
    if (!check(s, in, 2, 1))
        return s->result;
    uint32_t mask = (in->dst[0].mask | in->dst[1].mask) & 0xFu;
    const uint32_t *a[4];
    uint32_t *sn[4] = { NULL }, *cs[4] = { NULL };
    if (!mask)
        return SB_SUCCESS;
    if (!sb_interp_load(s, &in->src[0], mask, SB_IR_TYPE_FLOAT, a) || !results(s, in->dst[0].mask & 0xFu, sn) ||
        !results(s, in->dst[1].mask & 0xFu, cs))
        return s->result;
    for (uint32_t c = 0; c < 4; c++) {
        for (uint32_t l = 0; sn[c] && l < s->lanes; l++)
            sn[c][l] = U(sinf(F(a[c][l])));
        for (uint32_t l = 0; cs[c] && l < s->lanes; l++)
            cs[c][l] = U(cosf(F(a[c][l])));
        if (s->prec && sn[c])
            sb_interp_precision_sincos(s, a[c], sn[c]);
        if (s->prec && cs[c])
            sb_interp_precision_sincos(s, a[c], cs[c]);
        if (s->approx_ulps && sn[c])
            nudge_absolute(sn[c], s->lanes, s->approx_ulps);
        if (s->approx_ulps && cs[c])
            nudge_absolute(cs[c], s->lanes, s->approx_ulps);
    }
    if (sb_interp_store(s, &in->dst[0], in->dst[0].mask, (const uint32_t *const *)sn, SB_IR_TYPE_FLOAT))
        sb_interp_store(s, &in->dst[1], in->dst[1].mask, (const uint32_t *const *)cs, SB_IR_TYPE_FLOAT);
    return s->result;
}

enum sb_result sb_interp_alu(struct interp_state *s, const struct sb_ir_instruction *in)
{
    if (in->op < SB_IR_OP_COUNT && rows[in->op].srcs)
        return run_lanewise(s, in, &rows[in->op]);
    switch (in->op) {
    case SB_IR_OP_MOV: case SB_IR_OP_MOVC: case SB_IR_OP_SWAPC: return moves(s, in);
    case SB_IR_OP_DP2: return dot(s, in, 2, false);
    case SB_IR_OP_DP3: return dot(s, in, 3, false);
    case SB_IR_OP_DP4: return dot(s, in, 4, false);
    case SB_IR_OP_DPH: return dot(s, in, 4, true);
    case SB_IR_OP_DST: return dst_op(s, in);
    case SB_IR_OP_SINCOS: return sincos(s, in);
    case SB_IR_OP_DERIV_RTX: case SB_IR_OP_DERIV_RTY: case SB_IR_OP_DERIV_RTX_COARSE:
    case SB_IR_OP_DERIV_RTX_FINE: case SB_IR_OP_DERIV_RTY_COARSE: case SB_IR_OP_DERIV_RTY_FINE:
        if (sb_interp_has_quads(s))
            return sb_interp_derivative(s, in);
        return sb_interp_unsupported(s, "a derivative outside a pixel shader");
    default: break;
    }
    enum sb_result r = sb_interp_alu_int(s, in);
    if (r != SB_ERROR_TRANSLATE_UNSUPPORTED || s->result != SB_SUCCESS)
        return r;
    if (sb_ir_op_is_int64(in->op))
        return sb_interp_alu_int64(s, in);
    return sb_interp_alu_double(s, in);
}
