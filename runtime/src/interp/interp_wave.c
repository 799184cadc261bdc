/* SPDX-License-Identifier: MIT */
/*
 * Wave and quad operations (translator/IR.md §Waves; ../shared/docs/dxil.md §3.6 "Wave and
 * quad operations", §7.7) over the lanes the interpreter runs together.
 *
 * A wave is s->wave_lanes consecutive lanes of a batch (sb_interp_options::wave_lanes, by
 * default SB_INTERP_WAVE_SIZE; shaderbridge/interp.h): in a compute batch the waves of each
 * thread group start at its first invocation (flattened SV_GroupIndex order), so a wave never
 * spans two groups and a group whose size is not a multiple of the wave ends in a partial
 * wave; elsewhere they start at lane 0 of the batch. The size is a power of two from 4 to
 * 128, so every 2x2 quad of a pixel batch lies in one wave.
 *
 * Which lanes take part: the active lanes (after divergent flow: IF, LOOP, SWITCH, RET only
 * leave the lanes still running). In a pixel batch helper lanes (and discarded lanes, which
 * run on as helpers) are left out of every wave op, as D3D's wave ops exclude helpers; the
 * quad ops read them, because the quad's values are what derivatives see.
 *
 * Integer results are exact. Float sums and products are summed in lane order here; a device
 * may use any order (and D3D promises none), so a tracked run gives each such result a bound
 * that covers every order: (m - 1) roundings of the partial results, each at most one ULP of
 * the largest magnitude a partial result can reach, plus what the sources' own bounds allow.
 * Cross-lane results that copy bits carry the bound of the lane copied; other results read
 * inexact sources of other lanes become INFINITY (precision-sensitive).
 */
#include "interp_private.h"

#include <math.h>
#include <string.h>
#include "translator/ir.h"

/* One wave: lanes [start, end) of the batch; lanes past `end` up to start + W do not exist. */
struct wave {
    uint32_t start, end;
};

static struct wave wave_at(const struct interp_state *s, uint32_t start)
{
    uint32_t end = start + s->wave_lanes;
    if (s->stage == SB_IR_STAGE_COMPUTE && s->group_size) {
        uint32_t group_end = (start / s->group_size + 1) * s->group_size;
        uint32_t in_group = start % s->group_size;
        end = start + s->wave_lanes - in_group % s->wave_lanes;
        end = end < group_end ? end : group_end;
    }
    return (struct wave){ start, end < s->invocations ? end : s->invocations };
}

bool sb_interp_wave_lanes_valid(uint32_t lanes)
{
    return lanes >= 4 && lanes <= SB_INTERP_WAVE_MAX_LANES && (lanes & (lanes - 1)) == 0;
}

/* Does lane l take part in wave ops (not quad ops)? */
static bool wave_lane(const struct interp_state *s, uint32_t l)
{
    if (!s->active[l])
        return false;
    return !(s->quad && s->helper && (s->helper[l] || (s->discarded && s->discarded[l])));
}

static bool is_float_op(uint32_t op)
{
    return op == SB_IR_OP_WAVE_ACTIVE_FLOAT || op == SB_IR_OP_WAVE_PREFIX_FLOAT;
}

/* x op y in the view of `op` (float, signed or unsigned). */
static uint32_t combine(uint32_t op, uint32_t wave_op, uint32_t x, uint32_t y)
{
    bool fl = is_float_op(op), sig = op == SB_IR_OP_WAVE_ACTIVE_INT;
    switch (wave_op) {
    case SB_IR_WAVE_SUM: return fl ? U(F(x) + F(y)) : x + y;
    case SB_IR_WAVE_PRODUCT: return fl ? U(F(x) * F(y)) : x * y;
    case SB_IR_WAVE_MIN:
        if (fl) /* IR MIN: a NaN operand loses to the other */
            return isnan(F(x)) ? y : isnan(F(y)) ? x : F(y) < F(x) ? y : x;
        return sig ? ((int32_t)y < (int32_t)x ? y : x) : (y < x ? y : x);
    case SB_IR_WAVE_MAX:
        if (fl)
            return isnan(F(x)) ? y : isnan(F(y)) ? x : F(y) > F(x) ? y : x;
        return sig ? ((int32_t)y > (int32_t)x ? y : x) : (y > x ? y : x);
    case SB_IR_WAVE_AND: return x & y;
    case SB_IR_WAVE_OR: return x | y;
    default: return x ^ y;
    }
}

/* The identity of the reduction: what a prefix of no lanes gives (0, 1 or 1.0). */
static uint32_t identity(uint32_t op, uint32_t wave_op)
{
    if (wave_op == SB_IR_WAVE_PRODUCT)
        return is_float_op(op) ? 0x3F800000u : 1u;
    return 0;
}

/* The lane a bit-copying op reads for lane l of wave w (UINT32_MAX: none, reads 0). */
static uint32_t source_lane(const struct interp_state *s, const struct sb_ir_instruction *in, struct wave w,
                            uint32_t l, uint32_t first, const uint32_t *index)
{
    uint32_t quad = w.start + ((l - w.start) & ~3u), k;
    switch (in->op) {
    case SB_IR_OP_WAVE_READ_LANE_AT:
        k = index[l] < s->wave_lanes ? w.start + index[l] : UINT32_MAX;
        break;
    case SB_IR_OP_WAVE_READ_LANE_FIRST: k = first; break;
    case SB_IR_OP_QUAD_READ_LANE_AT: k = quad + (index[l] & 3u); break;
    case SB_IR_OP_QUAD_READ_ACROSS_X: k = l ^ 1u; break;
    case SB_IR_OP_QUAD_READ_ACROSS_Y: k = l ^ 2u; break;
    default: k = l ^ 3u; break;
    }
    return k < w.end ? k : UINT32_MAX;
}

/* The value of the lowest set bit of x's significand (x finite, not 0): every partial sum
 * of addends that are multiples of q and below 2^24 q in magnitude is a float. */
static double granule(float x)
{
    int e;
    float m = frexpf(fabsf(x), &e); /* m in [0.5, 1): 24 significand bits */
    uint32_t bits = (uint32_t)ldexpf(m, 24);
    return ldexp(1.0, e - 24 + __builtin_ctz(bits));
}

/* A tracked run's bound on lane l of a float sum or product over lanes `from` (0/1 flags). */
static float float_bound(const struct sb_ir_instruction *in, const uint32_t *a, const float *e,
                         const uint8_t *from, struct wave w, float result)
{
    float magnitude = 0.0f, spread = 0.0f, relative = 0.0f;
    double total = 0.0, finest = INFINITY;
    bool finite = true;
    uint32_t m = 0;
    for (uint32_t k = w.start; k < w.end; k++) {
        if (!from[k - w.start])
            continue;
        float x = F(a[k]), ek = e ? e[k] : 0.0f;
        m++;
        magnitude += fabsf(x) + ek;
        spread += ek;
        total += fabs((double)x);
        finite &= isfinite(x);
        finest = x != 0.0f && isfinite(x) ? fmin(finest, granule(x)) : finest;
        if (ek > 0.0f)
            relative = x != 0.0f ? relative + ek / fabsf(x) : INFINITY;
    }
    if (m < 2)
        return spread;
    /* one ULP of the largest partial result per rounding: any order of m - 1 operations */
    float unit = ldexpf(1.0f, -23);
    if (in->wave_op == SB_IR_WAVE_SUM && finite && (total == 0.0 || total < ldexp(finest, 24)))
        return spread; /* every order adds exactly */
    if (in->wave_op == SB_IR_WAVE_SUM)
        return spread + (float)(m - 1) * fmaxf(unit * magnitude, ldexpf(1.0f, -149));
    float p = fabsf(result);
    return p * ((float)(m - 1) * unit + relative) + (p == 0.0f && spread > 0.0f ? INFINITY : 0.0f);
}

/* Per component: lane results of the op into r, and the tracked run's bounds into bound. */
static void run_component(struct interp_state *s, const struct sb_ir_instruction *in, const uint32_t *a,
                          const uint32_t *index, const float *e, uint32_t *r, float *bound)
{
    uint8_t from[SB_INTERP_WAVE_MAX_LANES];
    for (uint32_t start = 0; start < s->invocations;) {
        struct wave w = wave_at(s, start);
        uint32_t first = UINT32_MAX, count = 0, reduced = identity(in->op, in->wave_op);
        bool any = false, all = true, equal = true, inexact = false;
        for (uint32_t k = w.start; k < w.end; k++) {
            if (!wave_lane(s, k))
                continue;
            bool truth = a && a[k] != 0;
            if (first == UINT32_MAX)
                first = k;
            any |= truth;
            all &= truth;
            equal &= a && a[k] == a[first];
            inexact |= e && e[k] > 0.0f;
            count += truth;
            if (a)
                reduced = k == first ? a[k] : combine(in->op, in->wave_op, reduced, a[k]);
        }
        uint32_t prefix = 0, partial = identity(in->op, in->wave_op);
        for (uint32_t l = w.start; l < w.end; l++) {
            uint32_t v = 0;
            float b = inexact ? INFINITY : 0.0f;
            switch (in->op) {
            case SB_IR_OP_WAVE_IS_FIRST_LANE: v = l == first ? 0xFFFFFFFFu : 0; break;
            case SB_IR_OP_WAVE_LANE_INDEX: v = l - w.start; b = 0.0f; break;
            case SB_IR_OP_WAVE_LANE_COUNT: v = s->wave_lanes; b = 0.0f; break;
            case SB_IR_OP_WAVE_ANY_TRUE: v = any ? 0xFFFFFFFFu : 0; break;
            case SB_IR_OP_WAVE_ALL_TRUE: v = all ? 0xFFFFFFFFu : 0; break;
            case SB_IR_OP_WAVE_ALL_EQUAL: v = equal ? 0xFFFFFFFFu : 0; break;
            case SB_IR_OP_WAVE_ACTIVE_COUNT_BITS: v = count; break;
            case SB_IR_OP_WAVE_PREFIX_COUNT_BITS: v = prefix; break;
            case SB_IR_OP_WAVE_ACTIVE_FLOAT: case SB_IR_OP_WAVE_ACTIVE_INT: case SB_IR_OP_WAVE_ACTIVE_UINT:
                v = first == UINT32_MAX ? 0 : reduced;
                if (in->op == SB_IR_OP_WAVE_ACTIVE_FLOAT && bound && in->wave_op <= SB_IR_WAVE_PRODUCT) {
                    for (uint32_t k = w.start; k < w.end; k++)
                        from[k - w.start] = wave_lane(s, k);
                    b = float_bound(in, a, e, from, w, F(v));
                } else if (in->op == SB_IR_OP_WAVE_ACTIVE_FLOAT && inexact) {
                    b = 0.0f; /* min/max pick one source: the largest source bound covers it */
                    for (uint32_t k = w.start; k < w.end; k++)
                        b = wave_lane(s, k) ? fmaxf(b, e[k]) : b;
                }
                break;
            case SB_IR_OP_WAVE_PREFIX_FLOAT: case SB_IR_OP_WAVE_PREFIX_INT:
                v = partial;
                if (in->op == SB_IR_OP_WAVE_PREFIX_FLOAT && bound) {
                    for (uint32_t k = w.start; k < w.end; k++)
                        from[k - w.start] = k < l && wave_lane(s, k);
                    b = float_bound(in, a, e, from, w, F(v));
                }
                break;
            default: { /* bit copies from another lane */
                uint32_t k = source_lane(s, in, w, l, first, index);
                v = k == UINT32_MAX ? 0 : a[k];
                b = k == UINT32_MAX || !e ? 0.0f : e[k];
                break;
            }
            }
            r[l] = v;
            if (bound)
                bound[l] = b;
            if (a && wave_lane(s, l)) {
                prefix += a && a[l] != 0;
                partial = combine(in->op, in->wave_op, partial, a[l]);
            }
        }
        start = w.end;
    }
}

/* The ops whose source is one condition lane (a.x) and whose result is a scalar or ballot. */
static bool scalar_source(uint32_t op)
{
    return op == SB_IR_OP_WAVE_BALLOT || op == SB_IR_OP_WAVE_ACTIVE_COUNT_BITS ||
           op == SB_IR_OP_WAVE_PREFIX_COUNT_BITS;
}

/* WAVE_BALLOT: bit (l - start) % 32 of field (l - start) / 32 for each wave lane whose
 * condition holds (D3D's four fields cover lanes 0-127; those past the wave stay 0). A tracked
 * run's bound (x only: in waves of 32 lanes or fewer the other fields are constant) is
 * INFINITY in a wave where some condition was inexact. */
static void ballot(struct interp_state *s, const uint32_t *a, uint32_t *const r[4], const float *e, float *bound)
{
    for (uint32_t start = 0; start < s->invocations;) {
        struct wave w = wave_at(s, start);
        uint32_t bits[4] = { 0, 0, 0, 0 };
        bool inexact = false;
        for (uint32_t k = w.start; k < w.end; k++) {
            uint32_t i = k - w.start;
            bits[i / 32] |= (wave_lane(s, k) && a[k]) ? 1u << (i % 32) : 0u;
            inexact |= wave_lane(s, k) && e && e[k] > 0.0f;
        }
        for (uint32_t l = w.start; l < w.end; l++) {
            for (uint32_t c = 0; c < 4; c++)
                r[c][l] = bits[c];
            if (bound)
                bound[l] = inexact ? INFINITY : 0.0f;
        }
        start = w.end;
    }
}

/* Bound arrays of a tracked run: the source's (NULL when exact) and the result's to fill. */
static void tracked_bounds(struct interp_state *s, const uint32_t *a, const uint32_t *r, const float **e,
                           float **bound, uint32_t **origin)
{
    struct interp_companion in, out;
    *e = NULL;
    *bound = NULL;
    *origin = NULL;
    if (!s->prec)
        return;
    if (a && sb_interp_companion(s, a, &in))
        *e = in.bound;
    s->prec->bounds_set = true;
    if (!sb_interp_companion_write(s, r, &out, true))
        return;
    *bound = out.bound;
    *origin = out.origin;
}

enum sb_result sb_interp_wave(struct interp_state *s, const struct sb_ir_instruction *in)
{
    if (!sb_ir_op_is_wave(in->op))
        return SB_ERROR_TRANSLATE_UNSUPPORTED;
    if (in->dst_count < 1 || in->src_count < sb_ir_op_info(in->op)->src_min ||
        !sb_ir_wave_op_allowed(in->op, in->wave_op))
        return sb_interp_fail(s, SB_ERROR_RUN_UNSUPPORTED, "'%s' has bad operands or wave_op %u",
                              sb_ir_op_name(in->op), in->wave_op);
    uint32_t mask = in->dst[0].mask & 0xFu, type = sb_ir_op_info(in->op)->src_type[0];
    uint32_t dst_type = sb_ir_op_info(in->op)->dst_type[0];
    if (!mask || in->dst[0].file == SB_IR_FILE_NULL)
        return SB_SUCCESS;
    const uint32_t *a[4] = { NULL, NULL, NULL, NULL }, *index = NULL;
    uint32_t *r[4] = { NULL, NULL, NULL, NULL };
    if (in->src_count >= 1) {
        if (scalar_source(in->op)) {
            if (!(a[0] = sb_interp_load_scalar(s, &in->src[0], type)))
                return s->result;
            a[1] = a[2] = a[3] = a[0];
        } else if (!sb_interp_load(s, &in->src[0], mask, type, a)) {
            return s->result;
        }
    }
    if (in->src_count >= 2 && !(index = sb_interp_load_scalar(s, &in->src[1], SB_IR_TYPE_UINT)))
        return s->result;
    for (uint32_t c = 0; c < 4; c++)
        if (((mask >> c) & 1u) || in->op == SB_IR_OP_WAVE_BALLOT)
            if (!(r[c] = sb_interp_scratch(s)))
                return s->result;
    for (uint32_t c = 0; c < 4; c++) {
        if (!r[c])
            continue;
        const float *e;
        float *bound;
        uint32_t *origin;
        tracked_bounds(s, a[c], r[c], &e, &bound, &origin);
        if (in->op != SB_IR_OP_WAVE_BALLOT)
            run_component(s, in, a[c], index, e, r[c], bound);
        else if (c == 0 || (bound && s->wave_lanes > 32 * c)) /* again for field c's bounds: the same bits */
            ballot(s, a[0], r, e, bound);
        else if (bound)
            memset(bound, 0, s->lanes * sizeof(float));
        for (uint32_t l = 0; bound && l < s->lanes; l++)
            origin[l] = bound[l] > 0.0f ? (uint32_t)in->offset : UINT32_MAX;
    }
    sb_interp_store(s, &in->dst[0], mask, (const uint32_t *const *)r, dst_type);
    return s->result;
}
