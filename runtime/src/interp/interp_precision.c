/* SPDX-License-Identifier: MIT */
/*
 * Precision bounds of a tracked run (interp.h, sb_interp_tracking::precision).
 *
 * Every lane array the interpreter computes into (r#, x#, o#, scratch) has a
 * companion: per lane, a bound on how far a conformant Vulkan device's value
 * may lie from the interpreter's for the same inputs, and the byte offset of
 * the instruction whose allowed error contributed most to it. Companions
 * are found from the array's address (the pool it lies in), so a source
 * that is a plain register pointer, or a result that trades places with a
 * register, carries its companion with it at no cost.
 *
 * The bound of a result is what its inputs' bounds allow it to move (first
 * order, through the operation's derivative, plus the product of bounds for
 * products) plus what Vulkan lets the device's operation itself err
 * (Vulkan specification, "Precision and Operation of SPIR-V Instructions"):
 * OpFAdd/OpFSub/OpFMul correctly rounded (so exact inputs give exact
 * results); OpFDiv 2.5 ULP for divisors in [2^-126, 2^126]; InverseSqrt
 * 2 ULP; Sqrt inherited from 1.0 / InverseSqrt; Exp2 3 + 2|x| ULP; Log2 3 ULP
 * outside [0.5, 2] and 2^-21 absolute inside; Sin/Cos 2^-11 absolute in
 * [-pi, pi] (unbounded outside: the whole range [-1, 1]); OpDot and a fused
 * or unfused mad in any order of their roundings; denormals flushed or not.
 * The interpreter's own libm error is added on top (1 ULP where it is not
 * correctly rounded). Where a bound straddles a discontinuity (a comparison,
 * a conversion to integer, floor/ceil/round/frc), the result becomes
 * INFINITY: precision-sensitive; so does everything an invocation writes
 * after it branched on such a condition. Operations without a rule here
 * give INFINITY when any source carries a nonzero bound, else 0.
 */
#include "interp_private.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "translator/ir.h"

#define NO_ORIGIN UINT32_MAX

static enum sb_result add_pool(struct interp_state *s, const uint32_t *base, size_t words)
{
    struct interp_precision *p = s->prec;
    if (p->pool_count == p->pool_capacity) {
        uint32_t capacity = p->pool_capacity ? p->pool_capacity * 2 : 16;
        struct interp_bound_pool *pools = realloc(p->pools, capacity * sizeof(*pools));
        if (!pools)
            return sb_interp_fail(s, SB_ERROR_OUT_OF_MEMORY, "out of memory");
        p->pools = pools;
        p->pool_capacity = capacity;
    }
    struct interp_bound_pool *pool = &p->pools[p->pool_count];
    pool->base = base;
    pool->words = words;
    pool->bound = calloc(words ? words : 1, sizeof(float));
    pool->origin = malloc((words ? words : 1) * sizeof(uint32_t));
    if (!pool->bound || !pool->origin) {
        free(pool->bound);
        free(pool->origin);
        return sb_interp_fail(s, SB_ERROR_OUT_OF_MEMORY, "out of memory");
    }
    memset(pool->origin, 0xFF, (words ? words : 1) * sizeof(uint32_t));
    p->pool_count++;
    return SB_SUCCESS;
}

enum sb_result sb_interp_precision_add_pool(struct interp_state *s, const uint32_t *base, size_t words)
{
    return s->prec && base ? add_pool(s, base, words) : SB_SUCCESS;
}

enum sb_result sb_interp_precision_setup(struct interp_state *s)
{
    if (!s->track || !s->track->precision)
        return SB_SUCCESS;
    struct interp_precision *p = calloc(1, sizeof(*p));
    if (!p)
        return sb_interp_fail(s, SB_ERROR_OUT_OF_MEMORY, "out of memory");
    s->prec = p;
    size_t n = s->lanes;
    p->in_inexact = calloc(n, 1);
    p->tainted = calloc(n, 1);
    p->gsm_bound = calloc(s->program->group_shared_count + 1, sizeof(*p->gsm_bound));
    p->gsm_origin = calloc(s->program->group_shared_count + 1, sizeof(*p->gsm_origin));
    if (!p->in_inexact || !p->tainted || !p->gsm_bound || !p->gsm_origin)
        return sb_interp_fail(s, SB_ERROR_OUT_OF_MEMORY, "out of memory");
    for (uint32_t i = 0; i < s->program->group_shared_count; i++) {
        p->gsm_bound[i] = calloc(s->gsm_dwords[i] + 1u, sizeof(float));
        p->gsm_origin[i] = malloc((s->gsm_dwords[i] + 1u) * sizeof(uint32_t));
        if (!p->gsm_bound[i] || !p->gsm_origin[i])
            return sb_interp_fail(s, SB_ERROR_OUT_OF_MEMORY, "out of memory");
        memset(p->gsm_origin[i], 0xFF, (s->gsm_dwords[i] + 1u) * sizeof(uint32_t));
    }
    /* Scratch first: most lookups are results of the instruction being run. */
    if (add_pool(s, s->scratch_pool, (size_t)SB_INTERP_SCRATCH_ARRAYS * n) != SB_SUCCESS ||
        add_pool(s, s->temp_pool, (size_t)(s->temp_count ? s->temp_count : 1) * 4 * n) != SB_SUCCESS)
        return s->result;
    for (uint32_t i = 0; i < s->xtemp_ids; i++)
        if (s->xtemps[i] && add_pool(s, s->xtemps[i], (size_t)s->xtemp_count[i] * 4 * n) != SB_SUCCESS)
            return s->result;
    return SB_SUCCESS;
}

void sb_interp_precision_release(struct interp_state *s)
{
    struct interp_precision *p = s->prec;
    if (!p)
        return;
    for (uint32_t i = 0; i < p->pool_count; i++) {
        free(p->pools[i].bound);
        free(p->pools[i].origin);
    }
    free(p->pools);
    for (uint32_t i = 0; p->gsm_bound && i < s->program->group_shared_count; i++) {
        free(p->gsm_bound[i]);
        free(p->gsm_origin[i]);
    }
    free(p->gsm_bound);
    free(p->gsm_origin);
    free(p->in_inexact);
    free(p->tainted);
    free(p);
    s->prec = NULL;
}

void sb_interp_precision_clear(struct interp_state *s)
{
    struct interp_precision *p = s->prec;
    if (!p)
        return;
    for (uint32_t i = 0; i < p->pool_count; i++) {
        memset(p->pools[i].bound, 0, p->pools[i].words * sizeof(float));
        memset(p->pools[i].origin, 0xFF, p->pools[i].words * sizeof(uint32_t));
    }
    for (uint32_t i = 0; i < s->program->group_shared_count; i++) {
        memset(p->gsm_bound[i], 0, (s->gsm_dwords[i] + 1u) * sizeof(float));
        memset(p->gsm_origin[i], 0xFF, (s->gsm_dwords[i] + 1u) * sizeof(uint32_t));
    }
    memset(p->tainted, 0, s->lanes);
    p->any_tainted = false;
}

bool sb_interp_companion(const struct interp_state *s, const uint32_t *array, struct interp_companion *out)
{
    const struct interp_precision *p = s->prec;
    for (uint32_t i = 0; p && i < p->pool_count; i++) {
        const struct interp_bound_pool *pool = &p->pools[i];
        if (array >= pool->base && array < pool->base + pool->words) {
            size_t at = (size_t)(array - pool->base);
            out->bound = pool->bound + at;
            out->origin = pool->origin + at;
            return true;
        }
    }
    return false;
}

void sb_interp_precision_begin(struct interp_state *s)
{
    struct interp_precision *p = s->prec;
    if (p->any_inexact)
        memset(p->in_inexact, 0, s->lanes);
    p->any_inexact = false;
    p->bounds_set = false;
    p->origin_hint = NO_ORIGIN;
}

void sb_interp_precision_fresh(struct interp_state *s, const uint32_t *array)
{
    struct interp_companion c;
    if (sb_interp_companion(s, array, &c)) {
        memset(c.bound, 0, s->lanes * sizeof(float));
        memset(c.origin, 0xFF, s->lanes * sizeof(uint32_t));
    }
}

void sb_interp_precision_note_source(struct interp_state *s, const uint32_t *array)
{
    struct interp_companion c;
    struct interp_precision *p = s->prec;
    if (!sb_interp_companion(s, array, &c))
        return;
    for (uint32_t l = 0; l < s->lanes; l++)
        if (c.bound[l] != 0.0f) {
            p->in_inexact[l] = 1;
            p->any_inexact = true;
            if (p->origin_hint == NO_ORIGIN)
                p->origin_hint = c.origin[l];
        }
}

void sb_interp_precision_copy(struct interp_state *s, const uint32_t *from, const uint32_t *to)
{
    struct interp_companion f, t;
    if (!sb_interp_companion(s, to, &t))
        return;
    if (sb_interp_companion(s, from, &f)) {
        memcpy(t.bound, f.bound, s->lanes * sizeof(float));
        memcpy(t.origin, f.origin, s->lanes * sizeof(uint32_t));
    } else {
        memset(t.bound, 0, s->lanes * sizeof(float));
        memset(t.origin, 0xFF, s->lanes * sizeof(uint32_t));
    }
}

/* The bound lane `l` of `from` carries into a destination: its companion (for an operation
 * with a rule), or the generic rule; INFINITY for an invocation that branched on a
 * precision-sensitive condition. */
static float carried(const struct interp_state *s, const struct interp_companion *f, bool have, uint32_t l,
                     uint32_t *origin)
{
    const struct interp_precision *p = s->prec;
    float b;
    if (!p->bounds_set) {
        b = p->in_inexact[l] ? INFINITY : 0.0f;
        *origin = p->in_inexact[l] ? p->origin_hint : NO_ORIGIN;
    } else if (have) {
        b = f->bound[l];
        *origin = f->origin[l];
    } else {
        b = 0.0f;
        *origin = NO_ORIGIN;
    }
    if (p->tainted[l]) {
        b = INFINITY;
        if (*origin == NO_ORIGIN)
            *origin = p->taint_origin;
    }
    return b;
}

void sb_interp_precision_write(struct interp_state *s, const uint32_t *to, const uint32_t *from, bool all)
{
    struct interp_companion f, t;
    if (!sb_interp_companion(s, to, &t))
        return;
    bool have = sb_interp_companion(s, from, &f);
    const uint8_t *active = s->active;
    for (uint32_t l = 0; l < s->lanes; l++)
        if (all || active[l])
            t.bound[l] = carried(s, &f, have, l, &t.origin[l]);
}

void sb_interp_precision_write_word(struct interp_state *s, const uint32_t *word, const uint32_t *from, uint32_t l)
{
    struct interp_companion f, t;
    if (!sb_interp_companion(s, word, &t))
        return;
    bool have = sb_interp_companion(s, from, &f);
    t.bound[0] = carried(s, &f, have, l, &t.origin[0]);
}

/* ---- memory ------------------------------------------------------------------------------ */

bool sb_interp_precision_memory(const struct interp_state *s, const uint8_t *bytes, struct interp_companion *out)
{
    const struct interp_precision *p = s->prec;
    for (uint32_t i = 0; i < s->program->group_shared_count; i++)
        if ((const uint8_t *)s->gsm[i] == bytes) {
            out->bound = p->gsm_bound[i];
            out->origin = p->gsm_origin[i];
            return true;
        }
    const struct sb_interp_tracking *t = s->track;
    for (uint32_t i = 0; t && t->bound && i < s->resource_count && i < t->resource_count; i++)
        if ((const uint8_t *)s->resources[i].data == bytes && t->bound[i]) {
            out->bound = t->bound[i];
            out->origin = t->origin[i];
            return true;
        }
    return false;
}

void sb_interp_precision_address(struct interp_state *s, const uint32_t *address, const uint32_t *a,
                                 const uint32_t *b)
{
    struct interp_companion out, ca, cb;
    if (!sb_interp_companion(s, address, &out))
        return;
    bool ha = a && sb_interp_companion(s, a, &ca), hb = b && sb_interp_companion(s, b, &cb);
    for (uint32_t l = 0; l < s->lanes; l++) {
        bool inexact = (ha && ca.bound[l] != 0.0f) || (hb && cb.bound[l] != 0.0f);
        out.bound[l] = inexact ? INFINITY : 0.0f;
        out.origin[l] = inexact ? (ha && ca.bound[l] != 0.0f ? ca.origin[l] : cb.origin[l]) : NO_ORIGIN;
    }
}

void sb_interp_precision_loaded(struct interp_state *s, const uint32_t *result, uint32_t l,
                                const struct interp_companion *memory, bool have, uint32_t word,
                                const uint32_t *address)
{
    struct interp_companion r, a;
    s->prec->bounds_set = true;
    if (!sb_interp_companion(s, result, &r))
        return;
    if (address && sb_interp_companion(s, address, &a) && a.bound[l] != 0.0f) {
        r.bound[l] = INFINITY; /* the device may read another word */
        r.origin[l] = a.origin[l];
    } else if (have) {
        r.bound[l] = memory->bound[word];
        r.origin[l] = memory->origin[word];
    } else {
        r.bound[l] = 0.0f;
        r.origin[l] = NO_ORIGIN;
    }
}

void sb_interp_precision_stored(struct interp_state *s, const struct interp_companion *memory, uint32_t word,
                                const uint32_t *value, uint32_t l, const uint32_t *address)
{
    struct interp_companion v, a;
    bool have = sb_interp_companion(s, value, &v);
    float b = have ? v.bound[l] : 0.0f;
    uint32_t origin = have ? v.origin[l] : NO_ORIGIN;
    if (address && sb_interp_companion(s, address, &a) && a.bound[l] != 0.0f) {
        b = INFINITY;
        origin = a.origin[l];
    }
    if (s->prec->tainted[l]) {
        b = INFINITY;
        if (origin == NO_ORIGIN)
            origin = s->prec->taint_origin;
    }
    memory->bound[word] = b;
    memory->origin[word] = origin;
}

void sb_interp_precision_set(struct interp_state *s, const struct interp_companion *memory, uint32_t word, float b,
                             uint32_t origin)
{
    (void)s;
    memory->bound[word] = b;
    memory->origin[word] = origin;
}

/* ---- control flow ------------------------------------------------------------------------ */

void sb_interp_precision_branch(struct interp_state *s, const uint32_t *condition)
{
    struct interp_companion c;
    struct interp_precision *p = s->prec;
    if (!sb_interp_companion(s, condition, &c))
        return;
    for (uint32_t l = 0; l < s->lanes; l++)
        if (s->active[l] && c.bound[l] != 0.0f && !p->tainted[l]) {
            p->tainted[l] = 1;
            if (!p->any_tainted)
                p->taint_origin = c.origin[l] != NO_ORIGIN ? c.origin[l] : (uint32_t)s->inst->offset;
            p->any_tainted = true;
        }
}

/* ---- arithmetic -------------------------------------------------------------------------- */

/* The spacing of floats at |x|; 2^-126 below the normal range, where a device may flush. */
static inline float ulp(float x)
{
    uint32_t e = (U(x) >> 23) & 0xFFu;
    if (e == 0xFFu)
        return INFINITY;
    if (e == 0)
        return 0x1p-126f;
    if (e >= 24)
        return F((e - 23u) << 23);
    return ldexpf(1.0f, (int)e - 150);
}

/* A denormal input a device may flush to zero moves by its own magnitude. */
static inline float flushable(float x)
{
    float m = fabsf(x);
    return m != 0.0f && m < 0x1p-126f ? m : 0.0f;
}

struct lane_bound {
    float bound;
    uint32_t origin;
};

/* Combines a propagated part (from the source with origin `from`) and the operation's own
 * allowed error `local`: the origin is whichever is larger. */
static inline struct lane_bound combine(float propagated, uint32_t from, float local, uint32_t here)
{
    struct lane_bound r = { propagated + local, local >= propagated ? here : from };
    if (r.bound == 0.0f)
        r.origin = NO_ORIGIN;
    if (r.bound != r.bound)
        r.bound = INFINITY;
    return r;
}

struct src_view {
    const uint32_t *v;
    struct interp_companion c;
    bool have;
};

static inline float eb(const struct src_view *x, uint32_t l)
{
    return x->have ? x->c.bound[l] : 0.0f;
}

static inline uint32_t eo(const struct src_view *x, uint32_t l)
{
    return x->have ? x->c.origin[l] : NO_ORIGIN;
}

static void view(const struct interp_state *s, const uint32_t *v, struct src_view *out)
{
    out->v = v;
    out->have = v && sb_interp_companion(s, v, &out->c);
}

/* Does [x - e, x + e] contain a point where f changes value (integer steps)? */
static bool straddles_step(float x, float e, float (*f)(float))
{
    if (e == 0.0f)
        return false;
    if (!isfinite(e))
        return true;
    return f(x - e) != f(x + e);
}

static float frc_floor(float x)
{
    return floorf(x);
}

static struct lane_bound lane_rule(uint32_t op, float a, float b, float c, float r, float ea, float eb_,
                                   float ec, uint32_t oa, uint32_t ob, uint32_t oc, uint32_t here)
{
    ea += flushable(a);
    eb_ += flushable(b);
    ec += flushable(c);
    uint32_t big = ea >= eb_ ? oa : ob;
    switch (op) {
    case SB_IR_OP_ADD: {
        float e = ea + eb_;
        return combine(e, big, e != 0.0f ? ulp(fabsf(r) + e) : flushable(r), here);
    }
    case SB_IR_OP_MUL: {
        float pa = fabsf(b) * ea, pb = fabsf(a) * eb_;
        float e = pa + pb + ea * eb_;
        return combine(e, pa >= pb ? oa : ob, e != 0.0f ? ulp(fabsf(r) + e) : flushable(r), here);
    }
    case SB_IR_OP_MAD: {
        float pa = fabsf(b) * ea, pb = fabsf(a) * eb_;
        float e = pa + pb + ea * eb_ + ec;
        uint32_t from = ec >= pa && ec >= pb ? oc : pa >= pb ? oa : ob;
        /* Fused or not: on these inputs the device returns one of the two roundings (their
         * distance is exact here); inputs that may move add a rounding of the moved sum. */
        float unfused = a * b;
        unfused = unfused + c;
        float local = fabsf(fmaf(a, b, c) - unfused) + (e != 0.0f ? ulp(fabsf(r) + e) : 0.0f) + flushable(r);
        return combine(e, from, local, here);
    }
    case SB_IR_OP_DIV: case SB_IR_OP_RCP: {
        float y = op == SB_IR_OP_RCP ? a : b;
        float ex = op == SB_IR_OP_RCP ? 0.0f : ea, ey = op == SB_IR_OP_RCP ? ea : eb_;
        float my = fabsf(y);
        if (my < 0x1p-126f || my > 0x1p126f || ey >= my)
            return combine(INFINITY, op == SB_IR_OP_RCP ? oa : big, 0.0f, here);
        float e = (ex + fabsf(r) * ey) / (my - ey);
        return combine(e, ex >= fabsf(r) * ey ? oa : (op == SB_IR_OP_RCP ? oa : ob), 3.0f * ulp(r), here);
    }
    case SB_IR_OP_RSQ: {
        if (!(a > 0.0f) || ea >= a)
            return combine(INFINITY, oa, 0.0f, here);
        float e = 0.5f * ea * fabsf(r) / (a - ea) * 1.0001f;
        return combine(e, oa, 3.5f * ulp(r), here);
    }
    case SB_IR_OP_SQRT: {
        if (a < 0.0f)
            return combine(INFINITY, oa, 0.0f, here);
        float lo = a - ea > 0.0f ? a - ea : 0.0f;
        float e = ea != 0.0f ? fmaxf(sqrtf(a + ea) - r, r - sqrtf(lo)) * 1.0001f : 0.0f;
        return combine(e, oa, 5.0f * ulp(r), here);
    }
    case SB_IR_OP_EXP: {
        float e = ea != 0.0f ? fabsf(r) * (exp2f(ea) - 1.0f) * 1.0001f : 0.0f;
        return combine(e, oa, (4.0f + 2.0f * fabsf(a)) * ulp(r), here);
    }
    case SB_IR_OP_LOG: {
        if (!(a > 0.0f) || ea >= a)
            return combine(INFINITY, oa, 0.0f, here);
        float e = ea != 0.0f ? (log2f(a) - log2f(a - ea)) * 1.0001f + ulp(r) : 0.0f;
        float local = (a >= 0.5f && a <= 2.0f) ? 0x1p-21f + ulp(r) : 4.0f * ulp(r);
        return combine(e, oa, local, here);
    }
    case SB_IR_OP_MIN: case SB_IR_OP_MAX: {
        /* The result lies between the op of the low ends and the op of the high ends: an
         * operand that certainly loses (max(x, 1e-7) with x well below) contributes nothing. */
        float lo = op == SB_IR_OP_MAX ? fmaxf(a - ea, b - eb_) : fminf(a - ea, b - eb_);
        float hi = op == SB_IR_OP_MAX ? fmaxf(a + ea, b + eb_) : fminf(a + ea, b + eb_);
        float e = fmaxf(hi - r, r - lo);
        if (!(e >= 0.0f))
            e = fmaxf(ea, eb_);
        uint32_t from = (op == SB_IR_OP_MAX) == (a >= b) ? oa : ob;
        return combine(e, e != 0.0f ? (ea != 0.0f && eb_ != 0.0f ? big : ea != 0.0f ? oa : ob) : from, 0.0f, here);
    }
    case SB_IR_OP_FRC:
        if (straddles_step(a, ea, frc_floor))
            return combine(INFINITY, oa, 0.0f, here);
        return combine(ea, oa, ea != 0.0f ? ulp(1.0f) : 0.0f, here);
    case SB_IR_OP_ROUND_NE:
        return combine(straddles_step(a, ea, nearbyintf) ? INFINITY : 0.0f, oa, 0.0f, here);
    case SB_IR_OP_ROUND_NI:
        return combine(straddles_step(a, ea, floorf) ? INFINITY : 0.0f, oa, 0.0f, here);
    case SB_IR_OP_ROUND_PI:
        return combine(straddles_step(a, ea, ceilf) ? INFINITY : 0.0f, oa, 0.0f, here);
    case SB_IR_OP_ROUND_Z:
        return combine(straddles_step(a, ea, truncf) ? INFINITY : 0.0f, oa, 0.0f, here);
    case SB_IR_OP_EQ: case SB_IR_OP_NE: case SB_IR_OP_LT: case SB_IR_OP_GE: case SB_IR_OP_SGE:
    case SB_IR_OP_SLT: {
        float e = ea + eb_;
        if (e == 0.0f)
            return combine(0.0f, NO_ORIGIN, 0.0f, here);
        bool decided;
        if (op == SB_IR_OP_EQ || op == SB_IR_OP_NE)
            decided = fabsf(a - b) > e; /* certainly different */
        else
            decided = a + ea < b - eb_ || a - ea >= b + eb_;
        return combine(decided ? 0.0f : INFINITY, big, 0.0f, here);
    }
    default:
        return combine(ea + eb_ + ec != 0.0f ? INFINITY : 0.0f, big, 0.0f, here);
    }
}

void sb_interp_precision_lanewise(struct interp_state *s, uint32_t op, const uint32_t *a, const uint32_t *b,
                                  const uint32_t *c, const uint32_t *r)
{
    struct src_view va, vb, vc;
    struct interp_companion out;
    s->prec->bounds_set = true;
    if (!sb_interp_companion(s, r, &out))
        return;
    view(s, a, &va);
    view(s, b, &vb);
    view(s, c, &vc);
    uint32_t here = (uint32_t)s->inst->offset;
    bool exact_inputs = !s->prec->any_inexact;
    for (uint32_t l = 0; l < s->lanes; l++) {
        if (!s->active[l]) {
            out.bound[l] = 0.0f;
            out.origin[l] = NO_ORIGIN;
            continue;
        }
        float fa = a ? F(a[l]) : 0.0f, fb = b ? F(b[l]) : 0.0f, fc = c ? F(c[l]) : 0.0f, fr = F(r[l]);
        struct lane_bound lb;
        if (exact_inputs && (op == SB_IR_OP_ADD || op == SB_IR_OP_MUL || op == SB_IR_OP_MIN ||
                             op == SB_IR_OP_MAX || op == SB_IR_OP_EQ || op == SB_IR_OP_NE ||
                             op == SB_IR_OP_LT || op == SB_IR_OP_GE || op == SB_IR_OP_SGE ||
                             op == SB_IR_OP_SLT || (op >= SB_IR_OP_ROUND_NE && op <= SB_IR_OP_ROUND_Z)) &&
            !flushable(fa) && !flushable(fb) && !flushable(fr)) {
            lb.bound = 0.0f; /* correctly rounded or exact on exact inputs: nothing to allow */
            lb.origin = NO_ORIGIN;
        } else {
            lb = lane_rule(op, fa, fb, fc, fr, eb(&va, l), eb(&vb, l), eb(&vc, l), eo(&va, l), eo(&vb, l),
                           eo(&vc, l), here);
        }
        out.bound[l] = lb.bound;
        out.origin[l] = lb.origin;
    }
}

void sb_interp_precision_movc(struct interp_state *s, const uint32_t *cond, const uint32_t *b, const uint32_t *c,
                              const uint32_t *r)
{
    struct src_view vk, vb, vc;
    struct interp_companion out;
    s->prec->bounds_set = true;
    if (!sb_interp_companion(s, r, &out))
        return;
    view(s, cond, &vk);
    view(s, b, &vb);
    view(s, c, &vc);
    for (uint32_t l = 0; l < s->lanes; l++) {
        if (eb(&vk, l) != 0.0f) {
            /* Either value may be picked: as far as they lie apart, when both are floats. */
            float x = F(b[l]), y = F(c[l]);
            bool floats = b[l] == c[l] || ((isnormal(x) || x == 0.0f) && (isnormal(y) || y == 0.0f));
            float spread = fabsf(x - y) + fmaxf(eb(&vb, l), eb(&vc, l));
            out.bound[l] = floats ? spread : INFINITY;
            out.origin[l] = eo(&vk, l);
        } else {
            const struct src_view *pick = cond[l] ? &vb : &vc;
            out.bound[l] = eb(pick, l);
            out.origin[l] = eo(pick, l);
        }
    }
}

void sb_interp_precision_dot(struct interp_state *s, const uint32_t *const a[4], const uint32_t *const b[4],
                             uint32_t size, bool homogeneous, const uint32_t *r)
{
    struct src_view va[4], vb[4];
    struct interp_companion out;
    s->prec->bounds_set = true;
    if (!sb_interp_companion(s, r, &out))
        return;
    for (uint32_t k = 0; k < size; k++) {
        view(s, (homogeneous && k == 3) ? NULL : a[k], &va[k]);
        view(s, b[k], &vb[k]);
    }
    uint32_t here = (uint32_t)s->inst->offset;
    for (uint32_t l = 0; l < s->lanes; l++) {
        float e = 0.0f, magnitude = 0.0f, top = 0.0f;
        uint32_t from = NO_ORIGIN;
        for (uint32_t k = 0; k < size; k++) {
            float x = (homogeneous && k == 3) ? 1.0f : F(a[k][l]), y = F(b[k][l]);
            float ex = eb(&va[k], l) + flushable(x), ey = eb(&vb[k], l) + flushable(y);
            float px = fabsf(y) * ex, py = fabsf(x) * ey;
            e += px + py + ex * ey;
            if (px > top) {
                top = px;
                from = eo(&va[k], l);
            }
            if (py > top) {
                top = py;
                from = eo(&vb[k], l);
            }
            magnitude += fabsf(x * y);
        }
        /* OpDot: any order of the additions, products fused into them or not; nothing to
         * allow when every product and partial sum is exact (then every order agrees). */
        double exact = 0.0;
        bool rounded = false;
        for (uint32_t k = 0; k < size && !rounded; k++) {
            double x = (homogeneous && k == 3) ? 1.0 : (double)F(a[k][l]), y = (double)F(b[k][l]);
            double product = x * y;
            exact += product;
            rounded = (double)(float)product != product || (double)(float)exact != exact;
        }
        float local = rounded && magnitude != 0.0f ? (float)size * ulp(magnitude + e) : 0.0f;
        if (e != 0.0f && local == 0.0f)
            local = ulp(magnitude + e);
        struct lane_bound lb = combine(e, from, local, here);
        out.bound[l] = lb.bound;
        out.origin[l] = lb.origin;
    }
}

void sb_interp_precision_sincos(struct interp_state *s, const uint32_t *a, const uint32_t *r)
{
    struct src_view va;
    struct interp_companion out;
    s->prec->bounds_set = true;
    if (!sb_interp_companion(s, r, &out))
        return;
    view(s, a, &va);
    uint32_t here = (uint32_t)s->inst->offset;
    for (uint32_t l = 0; l < s->lanes; l++) {
        float x = F(a[l]), ex = eb(&va, l);
        /* Vulkan: 2^-11 absolute inside [-pi, pi]; outside it sets no bound, so any value a
         * sine can take (the range [-1, 1]) is allowed. */
        float local = fabsf(x) + ex <= 3.14159274f ? 0x1p-11f + ulp(1.0f) : 2.0f;
        struct lane_bound lb = combine(fminf(ex, 2.0f), eo(&va, l), local, here);
        out.bound[l] = lb.bound;
        out.origin[l] = lb.origin;
    }
}

void sb_interp_precision_to_integer(struct interp_state *s, uint32_t op, const uint32_t *a, const uint32_t *r)
{
    struct src_view va;
    struct interp_companion out;
    s->prec->bounds_set = true;
    if (!sb_interp_companion(s, r, &out))
        return;
    view(s, a, &va);
    for (uint32_t l = 0; l < s->lanes; l++) {
        float x = F(a[l]), ex = eb(&va, l);
        bool sensitive;
        if (op == SB_IR_OP_FTOI || op == SB_IR_OP_FTOU)
            sensitive = straddles_step(x, ex, truncf);
        else
            sensitive = ex != 0.0f; /* itof/utof of an integer that may differ */
        out.bound[l] = sensitive ? INFINITY : 0.0f;
        out.origin[l] = sensitive ? eo(&va, l) : NO_ORIGIN;
    }
}

void sb_interp_precision_double(struct interp_state *s, uint32_t op, const uint32_t *lo, const uint32_t *hi)
{
    struct interp_companion cl, ch;
    struct interp_precision *p = s->prec;
    if (!sb_interp_companion(s, lo, &cl) || !sb_interp_companion(s, hi, &ch))
        return;
    bool approximated = op == SB_IR_OP_DDIV || op == SB_IR_OP_DRCP || op == SB_IR_OP_DFMA;
    uint32_t here = (uint32_t)s->inst->offset;
    for (uint32_t l = 0; l < s->lanes; l++) {
        float b;
        uint32_t origin = NO_ORIGIN;
        if (p->in_inexact[l] || p->tainted[l]) {
            b = INFINITY;
            origin = p->origin_hint;
        } else if (approximated) {
            uint64_t bits = (uint64_t)hi[l] << 32 | lo[l];
            double d;
            memcpy(&d, &bits, 8);
            /* 2.5 ULP for a division, the fused-or-not rounding of a fma, and the interpreter's. */
            double u = d != 0.0 && isfinite(d) ? fabs(d) * 0x1p-52 : 0x1p-1022;
            b = (float)(3.0 * u);
            if (b == 0.0f)
                b = 0x1p-149f;
            origin = here;
        } else {
            b = 0.0f;
        }
        cl.bound[l] = ch.bound[l] = b;
        cl.origin[l] = ch.origin[l] = origin;
    }
    p->bounds_set = true;
}

void sb_interp_precision_read_word(struct interp_state *s, const uint32_t *out, uint32_t l, const uint32_t *word,
                                   const uint32_t *index)
{
    struct interp_companion o, w, ix;
    if (!sb_interp_companion(s, out, &o))
        return;
    if (index && sb_interp_companion(s, index, &ix) && ix.bound[l] != 0.0f) {
        o.bound[l] = INFINITY;
        o.origin[l] = ix.origin[l];
    } else if (word && sb_interp_companion(s, word, &w)) {
        o.bound[l] = w.bound[0];
        o.origin[l] = w.origin[0];
    } else {
        o.bound[l] = 0.0f;
        o.origin[l] = NO_ORIGIN;
    }
}

/* Is lane `l` of any coordinate array inexact? */
static bool coords_inexact(const struct interp_state *s, const uint32_t *const coords[4], uint32_t l,
                           uint32_t *origin)
{
    struct interp_companion c;
    for (uint32_t k = 0; k < 4; k++)
        if (coords[k] && sb_interp_companion(s, coords[k], &c) && c.bound[l] != 0.0f) {
            *origin = c.origin[l];
            return true;
        }
    return false;
}

void sb_interp_precision_texel_stored(struct interp_state *s, const struct interp_companion *memory, uint32_t word,
                                      uint32_t words, bool exact_format, const uint32_t *const value[4], uint32_t l,
                                      const uint32_t *const coords[4])
{
    uint32_t origin = NO_ORIGIN;
    bool moved = coords_inexact(s, coords, l, &origin) || s->prec->tainted[l];
    bool any = false;
    for (uint32_t c = 0; c < 4; c++) {
        struct interp_companion v;
        if (value[c] && sb_interp_companion(s, value[c], &v) && v.bound[l] != 0.0f) {
            any = true;
            if (origin == NO_ORIGIN)
                origin = v.origin[l];
        }
    }
    for (uint32_t k = 0; k < words; k++) {
        struct interp_companion v;
        float b = 0.0f;
        uint32_t o = NO_ORIGIN;
        if (moved || (!exact_format && any)) {
            b = INFINITY; /* another texel, or a conversion that rounds */
            o = origin != NO_ORIGIN ? origin : s->prec->taint_origin;
        } else if (k < 4 && value[k] && sb_interp_companion(s, value[k], &v)) {
            b = v.bound[l];
            o = v.origin[l];
        }
        memory->bound[word + k] = b;
        memory->origin[word + k] = o;
    }
}

void sb_interp_precision_texel_loaded(struct interp_state *s, uint32_t *const result[4], uint32_t l,
                                      const struct interp_companion *memory, bool have, uint32_t word,
                                      uint32_t words, bool exact_format, const uint32_t *const coords[4])
{
    s->prec->bounds_set = true;
    uint32_t origin = NO_ORIGIN;
    bool moved = coords_inexact(s, coords, l, &origin);
    float any = 0.0f;
    uint32_t any_origin = NO_ORIGIN;
    for (uint32_t k = 0; have && k < words; k++)
        if (memory->bound[word + k] != 0.0f) {
            any = INFINITY;
            any_origin = memory->origin[word + k];
        }
    for (uint32_t c = 0; c < 4; c++) {
        struct interp_companion r;
        if (!result[c] || !sb_interp_companion(s, result[c], &r))
            continue;
        if (moved) {
            r.bound[l] = INFINITY;
            r.origin[l] = origin;
        } else if (!have) {
            r.bound[l] = 0.0f;
            r.origin[l] = NO_ORIGIN;
        } else if (exact_format) {
            r.bound[l] = c < words ? memory->bound[word + c] : 0.0f;
            r.origin[l] = c < words ? memory->origin[word + c] : NO_ORIGIN;
        } else {
            r.bound[l] = any;
            r.origin[l] = any_origin;
        }
    }
}

void sb_interp_precision_output(const struct interp_state *s, const uint32_t *word, float *bound, uint32_t *origin)
{
    struct interp_companion c;
    if (sb_interp_companion(s, word, &c)) {
        *bound = c.bound[0];
        *origin = c.origin[0];
    } else {
        *bound = 0.0f;
        *origin = NO_ORIGIN;
    }
}
