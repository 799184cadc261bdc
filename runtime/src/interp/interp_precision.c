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
    size_t arrays = words / s->lanes ? words / s->lanes : 1;
    pool->base = base;
    pool->words = words;
    pool->bound = malloc(arrays * s->lanes * sizeof(float));
    pool->origin = malloc(arrays * s->lanes * sizeof(uint32_t));
    pool->valid = calloc(arrays, 1);
    if (!pool->bound || !pool->origin || !pool->valid) {
        free(pool->bound);
        free(pool->origin);
        free(pool->valid);
        return sb_interp_fail(s, SB_ERROR_OUT_OF_MEMORY, "out of memory");
    }
    pool->arrays = arrays;
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
    p->origins = s->track->origins;
    size_t n = s->lanes;
    p->in_inexact = calloc(n, 1);
    p->tainted = calloc(n, 1);
    p->zeros = calloc(n, sizeof(float));
    p->no_origin = malloc(n * sizeof(uint32_t));
    p->gsm_bound = calloc(s->program->group_shared_count + 1, sizeof(*p->gsm_bound));
    p->gsm_origin = calloc(s->program->group_shared_count + 1, sizeof(*p->gsm_origin));
    if (!p->in_inexact || !p->tainted || !p->zeros || !p->no_origin || !p->gsm_bound || !p->gsm_origin)
        return sb_interp_fail(s, SB_ERROR_OUT_OF_MEMORY, "out of memory");
    memset(p->no_origin, 0xFF, n * sizeof(uint32_t));
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
        free(p->pools[i].valid);
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
    free(p->zeros);
    free(p->no_origin);
    free(p);
    s->prec = NULL;
}

void sb_interp_precision_clear(struct interp_state *s)
{
    struct interp_precision *p = s->prec;
    if (!p)
        return;
    for (uint32_t i = 0; i < p->pool_count; i++)
        memset(p->pools[i].valid, 0, p->pools[i].arrays);
    for (uint32_t i = 0; i < s->program->group_shared_count; i++) {
        memset(p->gsm_bound[i], 0, (s->gsm_dwords[i] + 1u) * sizeof(float));
        memset(p->gsm_origin[i], 0xFF, (s->gsm_dwords[i] + 1u) * sizeof(uint32_t));
    }
    memset(p->tainted, 0, s->lanes);
    p->any_tainted = false;
}

/* The pool holding `array` and the index of its lane array there, or NULL. */
static struct interp_bound_pool *find(const struct interp_state *s, const uint32_t *array, size_t *at)
{
    const struct interp_precision *p = s->prec;
    for (uint32_t i = 0; p && i < p->pool_count; i++) {
        struct interp_bound_pool *pool = &p->pools[i];
        if (array >= pool->base && array < pool->base + pool->words) {
            *at = (size_t)(array - pool->base);
            return pool;
        }
    }
    return NULL;
}

bool sb_interp_companion(const struct interp_state *s, const uint32_t *array, struct interp_companion *out)
{
    size_t at;
    struct interp_bound_pool *pool = find(s, array, &at);
    if (!pool || !pool->valid[at / s->lanes])
        return false; /* never computed into, or computed exactly */
    out->bound = pool->bound + at;
    out->origin = pool->origin + at;
    return true;
}

bool sb_interp_companion_write(struct interp_state *s, const uint32_t *array, struct interp_companion *out,
                               bool whole)
{
    size_t at;
    struct interp_bound_pool *pool = find(s, array, &at);
    if (!pool)
        return false;
    size_t index = at / s->lanes;
    if (!pool->valid[index] && !whole) { /* lanes the caller does not write stay exact */
        memset(pool->bound + index * s->lanes, 0, s->lanes * sizeof(float));
        memset(pool->origin + index * s->lanes, 0xFF, s->lanes * sizeof(uint32_t));
    }
    pool->valid[index] = 1;
    out->bound = pool->bound + at;
    out->origin = pool->origin + at;
    return true;
}

void sb_interp_precision_fresh(struct interp_state *s, const uint32_t *array)
{
    size_t at;
    struct interp_bound_pool *pool = find(s, array, &at);
    if (pool)
        pool->valid[at / s->lanes] = 0;
}

void sb_interp_precision_begin(struct interp_state *s)
{
    struct interp_precision *p = s->prec;
    p->source_count = 0;
    p->sources_overflow = false;
    p->inexact_known = false;
    p->bounds_set = false;
}

void sb_interp_precision_note_source(struct interp_state *s, const uint32_t *array)
{
    struct interp_precision *p = s->prec;
    struct interp_companion c;
    if (p->source_count < SB_INTERP_PRECISION_SOURCES && sb_interp_companion(s, array, &c))
        p->sources[p->source_count++] = c;
    else if (p->source_count >= SB_INTERP_PRECISION_SOURCES && sb_interp_companion(s, array, &c))
        p->sources_overflow = true;
}

/* Which lanes read a source with a nonzero bound (for operations without a rule), computed
 * the first time an instruction needs it. */
static void inexact_lanes(struct interp_state *s)
{
    struct interp_precision *p = s->prec;
    if (p->inexact_known)
        return;
    p->inexact_known = true;
    p->any_inexact = false;
    p->origin_hint = NO_ORIGIN;
    memset(p->in_inexact, 0, s->lanes);
    for (uint32_t k = 0; k < p->source_count; k++) {
        const float *b = p->sources[k].bound;
        uint8_t any = 0;
        for (uint32_t l = 0; l < s->lanes; l++) {
            uint8_t x = b[l] != 0.0f;
            p->in_inexact[l] |= x;
            any |= x;
        }
        if (any && !p->any_inexact) {
            p->any_inexact = true;
            for (uint32_t l = 0; l < s->lanes && p->origin_hint == NO_ORIGIN; l++)
                if (b[l] != 0.0f)
                    p->origin_hint = p->sources[k].origin[l];
        }
    }
    if (p->sources_overflow) { /* more sources than kept: every lane may be inexact */
        memset(p->in_inexact, 1, s->lanes);
        p->any_inexact = true;
    }
}

bool sb_interp_precision_inexact(struct interp_state *s, uint32_t l)
{
    inexact_lanes(s);
    return s->prec->in_inexact[l] != 0;
}

uint32_t sb_interp_precision_hint(struct interp_state *s)
{
    inexact_lanes(s);
    return s->prec->origin_hint;
}

void sb_interp_precision_copy(struct interp_state *s, const uint32_t *from, const uint32_t *to)
{
    struct interp_companion f, t;
    if (!sb_interp_companion(s, from, &f)) {
        sb_interp_precision_fresh(s, to);
        return;
    }
    if (sb_interp_companion_write(s, to, &t, true) && t.bound != f.bound) {
        memcpy(t.bound, f.bound, s->lanes * sizeof(float));
        memcpy(t.origin, f.origin, s->lanes * sizeof(uint32_t));
    }
}

/* Tainted lanes (those that branched on a precision-sensitive condition) write INFINITY. */
static void taint(struct interp_state *s, const struct interp_companion *t, bool all)
{
    const struct interp_precision *p = s->prec;
    for (uint32_t l = 0; l < s->lanes; l++)
        if (p->tainted[l] && (all || s->active[l])) {
            if (t->bound[l] == 0.0f || t->origin[l] == NO_ORIGIN)
                t->origin[l] = p->taint_origin;
            t->bound[l] = INFINITY;
        }
}

void sb_interp_precision_write(struct interp_state *s, const uint32_t *to, const uint32_t *from, bool all)
{
    struct interp_precision *p = s->prec;
    struct interp_companion f, t;
    bool have = p->bounds_set && sb_interp_companion(s, from, &f);
    if (!p->bounds_set)
        inexact_lanes(s);
    bool exact = p->bounds_set ? !have : !p->any_inexact;
    if (exact && !p->any_tainted) {
        if (all)
            sb_interp_precision_fresh(s, to);
        else if (sb_interp_companion(s, to, &t))
            for (uint32_t l = 0; l < s->lanes; l++)
                if (s->active[l])
                    t.bound[l] = 0.0f;
        return;
    }
    if (!sb_interp_companion_write(s, to, &t, all))
        return;
    const uint8_t *active = s->active;
    if (have) {
        if (t.bound == f.bound) {
            /* in place (a result about to trade places with a register) */
        } else if (all) {
            memcpy(t.bound, f.bound, s->lanes * sizeof(float));
            if (p->origins)
                memcpy(t.origin, f.origin, s->lanes * sizeof(uint32_t));
        } else {
            for (uint32_t l = 0; l < s->lanes; l++) {
                t.bound[l] = active[l] ? f.bound[l] : t.bound[l];
                t.origin[l] = active[l] ? f.origin[l] : t.origin[l];
            }
        }
    } else if (p->bounds_set || !p->any_inexact) {
        for (uint32_t l = 0; l < s->lanes; l++)
            if (all || active[l]) {
                t.bound[l] = 0.0f;
                t.origin[l] = NO_ORIGIN;
            }
    } else { /* an operation without a rule on inexact sources */
        for (uint32_t l = 0; l < s->lanes; l++)
            if (all || active[l]) {
                t.bound[l] = p->in_inexact[l] ? INFINITY : 0.0f;
                t.origin[l] = p->in_inexact[l] ? p->origin_hint : NO_ORIGIN;
            }
    }
    if (p->any_tainted)
        taint(s, &t, all);
}

void sb_interp_precision_write_word(struct interp_state *s, const uint32_t *word, const uint32_t *from, uint32_t l)
{
    struct interp_precision *p = s->prec;
    struct interp_companion f, t;
    bool have = p->bounds_set && sb_interp_companion(s, from, &f);
    float b = 0.0f;
    uint32_t origin = NO_ORIGIN;
    if (have) {
        b = f.bound[l];
        origin = f.origin[l];
    } else if (!p->bounds_set && sb_interp_precision_inexact(s, l)) {
        b = INFINITY;
        origin = p->origin_hint;
    }
    if (p->tainted[l]) {
        b = INFINITY;
        if (origin == NO_ORIGIN)
            origin = p->taint_origin;
    }
    if (b == 0.0f && !sb_interp_companion(s, word, &t))
        return; /* exact into an exact array */
    if (sb_interp_companion_write(s, word, &t, false)) {
        t.bound[0] = b;
        t.origin[0] = origin;
    }
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
    bool ha = a && sb_interp_companion(s, a, &ca), hb = b && sb_interp_companion(s, b, &cb);
    if (!ha && !hb) {
        sb_interp_precision_fresh(s, address);
        return;
    }
    if (!sb_interp_companion_write(s, address, &out, true))
        return;
    for (uint32_t l = 0; l < s->lanes; l++) {
        bool from_a = ha && ca.bound[l] != 0.0f, from_b = hb && cb.bound[l] != 0.0f;
        out.bound[l] = from_a || from_b ? INFINITY : 0.0f;
        out.origin[l] = from_a ? ca.origin[l] : from_b ? cb.origin[l] : NO_ORIGIN;
    }
}

void sb_interp_precision_access_begin(struct interp_state *s, struct interp_access_track *t,
                                      const uint32_t *const lanes[4], const uint32_t *address, bool store)
{
    struct interp_companion a;
    memset(t, 0, sizeof(*t));
    if (address && sb_interp_companion(s, address, &a)) {
        t->address = a.bound;
        t->address_origin = a.origin;
    }
    for (uint32_t c = 0; c < 4; c++) {
        t->lanes[c] = lanes[c];
        if (store)
            t->open[c] = lanes[c] && sb_interp_companion(s, lanes[c], &t->value[c]);
    }
    if (!store)
        s->prec->bounds_set = true;
}

void sb_interp_precision_load_lane(struct interp_state *s, struct interp_access_track *t, uint32_t c, uint32_t l,
                                   bool in_bounds, uint32_t word)
{
    float b = 0.0f;
    uint32_t origin = NO_ORIGIN;
    if (t->address && t->address[l] != 0.0f) {
        b = INFINITY; /* the device may read another word */
        origin = t->address_origin[l];
    } else if (t->have_memory && in_bounds) {
        b = t->memory.bound[word];
        origin = t->memory.origin[word];
    }
    if (b == 0.0f && !t->open[c])
        return; /* the result array is still exact */
    if (!t->open[c] && !(t->open[c] = sb_interp_companion_write(s, t->lanes[c], &t->value[c], false)))
        return;
    t->value[c].bound[l] = b;
    t->value[c].origin[l] = origin;
}

void sb_interp_precision_store_lane(struct interp_state *s, struct interp_access_track *t, uint32_t c, uint32_t l,
                                    uint32_t word)
{
    float b = t->open[c] ? t->value[c].bound[l] : 0.0f;
    uint32_t origin = t->open[c] ? t->value[c].origin[l] : NO_ORIGIN;
    if (t->address && t->address[l] != 0.0f) {
        b = INFINITY;
        origin = t->address_origin[l];
    }
    if (s->prec->tainted[l]) {
        b = INFINITY;
        if (origin == NO_ORIGIN)
            origin = s->prec->taint_origin;
    }
    t->memory.bound[word] = b;
    t->memory.origin[word] = origin;
}

void sb_interp_precision_set(struct interp_state *s, const struct interp_companion *memory, uint32_t word, float b,
                             uint32_t origin)
{
    (void)s;
    memory->bound[word] = b;
    memory->origin[word] = origin;
}

void sb_interp_precision_read_word(struct interp_state *s, const uint32_t *out, uint32_t l, const uint32_t *word,
                                   const uint32_t *index)
{
    struct interp_companion o, w, ix;
    float b = 0.0f;
    uint32_t origin = NO_ORIGIN;
    if (index && sb_interp_companion(s, index, &ix) && ix.bound[l] != 0.0f) {
        b = INFINITY;
        origin = ix.origin[l];
    } else if (word && sb_interp_companion(s, word, &w)) {
        b = w.bound[0];
        origin = w.origin[0];
    }
    if (b == 0.0f && !sb_interp_companion(s, out, &o))
        return;
    if (sb_interp_companion_write(s, out, &o, false)) {
        o.bound[l] = b;
        o.origin[l] = origin;
    }
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

/* The spacing of floats at |x| (x >= 0); 2^-126 at and below the normal range's bottom, where a
 * device may also flush. Branch-free, so the lane loops vectorize. */
SB_INTERP_LANE float ulp(float x)
{
    uint32_t e = U(x) & 0x7F800000u;
    uint32_t u = e > (24u << 23) ? e - (23u << 23) : (1u << 23);
    return e == 0x7F800000u ? INFINITY : F(u);
}

/* A denormal a device may flush to zero moves by its own magnitude. */
SB_INTERP_LANE float flushable(float x)
{
    float m = fabsf(x);
    return m < 0x1p-126f ? m : 0.0f;
}

struct lane_bound {
    float bound;
    uint32_t origin;
};

/* Combines a propagated part (from the source with origin `from`) and the operation's own
 * allowed error `local`: the origin is whichever is larger. */
static inline struct lane_bound combine(float propagated, uint32_t from, float local, uint32_t here)
{
    struct lane_bound r = { propagated + local, local >= propagated && propagated < INFINITY ? here : from };
    if (r.bound == 0.0f)
        r.origin = NO_ORIGIN;
    if (r.bound != r.bound)
        r.bound = INFINITY;
    return r;
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

SB_INTERP_LANE struct lane_bound lane_rule(uint32_t op, float a, float b, float c, float r, float ea, float eb_,
                                   float ec, uint32_t oa, uint32_t ob, uint32_t oc, uint32_t here)
{
    ea += flushable(a);
    eb_ += flushable(b);
    ec += flushable(c);
    uint32_t big = ea >= eb_ ? oa : ob;
    switch (op) {
    case SB_IR_OP_FRC:
        if (straddles_step(a, ea, floorf))
            return combine(0.0f, oa, INFINITY, here);
        return combine(ea, oa, ea != 0.0f ? ulp(1.0f) : 0.0f, here);
    case SB_IR_OP_ROUND_NE:
        return combine(0.0f, oa, straddles_step(a, ea, nearbyintf) ? INFINITY : 0.0f, here);
    case SB_IR_OP_ROUND_NI:
        return combine(0.0f, oa, straddles_step(a, ea, floorf) ? INFINITY : 0.0f, here);
    case SB_IR_OP_ROUND_PI:
        return combine(0.0f, oa, straddles_step(a, ea, ceilf) ? INFINITY : 0.0f, here);
    case SB_IR_OP_ROUND_Z:
        return combine(0.0f, oa, straddles_step(a, ea, truncf) ? INFINITY : 0.0f, here);
    default:
        return combine(ea + eb_ + ec != 0.0f ? INFINITY : 0.0f, big, 0.0f, here);
    }
}

/* Bound and origin arrays of a source: its companion, or the shared exact ones. */
struct src_view {
    const float *e;
    const uint32_t *o;
    bool have;
};

static void view(const struct interp_state *s, const uint32_t *v, struct src_view *out)
{
    struct interp_companion c;
    out->have = v && sb_interp_companion(s, v, &c);
    out->e = out->have ? c.bound : s->prec->zeros;
    out->o = out->have ? c.origin : s->prec->no_origin;
}

/* One lane of the branch-free kernels: the bound, and what the origin is picked from. */
struct lane_parts {
    float total;      /* the bound */
    float local;      /* the operation's own allowance (INFINITY: the operation itself is unbounded) */
    float propagated; /* what the sources' bounds allow */
    uint32_t source;  /* 0, 1, 2: the source contributing most to `propagated` */
};

/* One rounding of a result of magnitude m (at most one ULP: |m| * 2^-23 is never less, and the
 * floor 2^-126 covers results a device may flush). */
SB_INTERP_LANE float rounding(float m)
{
    float r = m * 0x1p-23f;
    return r > 0x1p-126f ? r : 0x1p-126f;
}

SB_INTERP_LANE struct lane_parts parts(float propagated, float local, uint32_t source)
{
    float total = propagated + local;
    struct lane_parts p = { total == total ? total : INFINITY, local, propagated, source };
    return p;
}

/* The rules of the commonest operations as branch-free lane functions (every term computed,
 * then selected), so each operation's loop vectorizes. Denormal operands and results may
 * flush: they move by their own magnitude. `b` is `a` and `eb` 0 for one-source operations;
 * `sign` turns min into max (max(x, y) = -min(-x, -y)). */
SB_INTERP_LANE struct lane_parts op_lane(uint32_t op, float sign, float a, float b, float c, float r, float ea,
                                         float eb, float ec)
{
    float x = ea + flushable(a), y = eb + flushable(b), z = ec + flushable(c), m = fabsf(r);
    uint32_t ab = x >= y ? 0u : 1u;
    switch (op) {
    case SB_IR_OP_ADD: {
        float e = x + y, rounded = rounding(m + e);
        return parts(e, (e != 0.0f ? rounded : 0.0f) + flushable(r), ab);
    }
    case SB_IR_OP_MUL: {
        float pa = fabsf(b) * x, pb = fabsf(a) * y, e = pa + pb + x * y, rounded = rounding(m + e);
        return parts(e, (e != 0.0f ? rounded : 0.0f) + flushable(r), pa >= pb ? 0u : 1u);
    }
    case SB_IR_OP_MAD: {
        /* On these inputs the device returns the product rounded and added, or the exact
         * product added (fused); they differ only when the product is not a float, by at most
         * half its ULP and one rounding of the sum. The product's rounding error is found
         * exactly with Dekker's split (halves of 12 bits multiply exactly; NaN when a half
         * overflows, which counts as rounded). */
        float pa = fabsf(b) * x, pb = fabsf(a) * y, e = pa + pb + x * y + z;
        float product = a * b;
        float ca = 4097.0f * a, cb = 4097.0f * b;
        float ah = ca - (ca - a), al = a - ah, bh = cb - (cb - b), bl = b - bh;
        float rest = ((ah * bh - product) + ah * bl + al * bh) + al * bl;
        float gap = 0.5f * rounding(fabsf(product)) + rounding(m), rounded = rounding(m + e);
        float local = (rest != 0.0f ? gap : 0.0f) + (e != 0.0f ? rounded : 0.0f) + flushable(r);
        uint32_t from = pa >= pb ? 0u : 1u;
        return parts(e, local, ((z >= pa) & (z >= pb)) ? 2u : from);
    }
    case SB_IR_OP_MIN: case SB_IR_OP_MAX: {
        /* The result lies between the op of the low ends and the op of the high ends, so an
         * operand that certainly loses (max(x, 1e-7) with x well below) contributes nothing. */
        float sa = sign * a, sb = sign * b, sr = sign * r;
        float al = sa - ea, ah = sa + ea, bl = sb - eb, bh = sb + eb;
        float lo = al < bl ? al : bl, hi = ah < bh ? ah : bh;
        float up = hi - sr, down = sr - lo;
        float e = up > down ? up : down;
        float fallback = ea > eb ? ea : eb;
        e = e >= 0.0f ? e : fallback; /* NaN operands */
        return parts(e, 0.0f, ea >= eb ? 0u : 1u);
    }
    case SB_IR_OP_DIV: case SB_IR_OP_RCP: {
        /* 2.5 ULP for divisors in [2^-126, 2^126] (no bound outside), the interpreter's own
         * rounding, and the quotient's first-order movement with the divisor's bound kept
         * below the divisor. */
        bool rcp = op == SB_IR_OP_RCP;
        float ny = rcp ? 0.0f : x, dy = rcp ? x : y, my = fabsf(rcp ? a : b);
        bool bounded = my >= 0x1p-126f && my <= 0x1p126f && dy < my;
        float e = (ny + m * dy) / (my - dy);
        float ok_e = bounded ? e : 0.0f;
        uint32_t from = rcp || ny >= m * dy ? 0u : 1u;
        return parts(ok_e, bounded ? 3.0f * rounding(m) : INFINITY, from);
    }
    case SB_IR_OP_RSQ: {
        bool bounded = a > 0.0f && x < a;
        float e = 0.5f * x * m / (a - x) * 1.0001f;
        return parts(bounded ? e : 0.0f, bounded ? 3.5f * rounding(m) : INFINITY, 0u);
    }
    case SB_IR_OP_SQRT: {
        float lo = a - x > 0.0f ? a - x : 0.0f;
        float up = sqrtf(a + x) - r, down = r - sqrtf(lo);
        float e = x != 0.0f ? (up > down ? up : down) * 1.0001f : 0.0f;
        bool bounded = a >= 0.0f;
        return parts(bounded ? e : 0.0f, bounded ? 5.0f * rounding(m) : INFINITY, 0u);
    }
    case SB_IR_OP_EXP: {
        /* 2^(x + e) - 2^x = 2^x (2^e - 1), and 2^e - 1 <= e ln2 (1 + e) for e in [0, 1];
         * an exponent uncertain by 1 or more bounds nothing. */
        float grow = x < 1.0f ? x * 0.6931472f * (1.0f + x) * 1.0001f : INFINITY;
        float e = x != 0.0f ? m * grow : 0.0f;
        return parts(e, (4.0f + 2.0f * fabsf(a)) * rounding(m), 0u);
    }
    case SB_IR_OP_LOG: {
        /* log2(a) - log2(a - e) = -log2(1 - t), t = e / a, which is at most t / (ln2 (1 - t)). */
        bool bounded = a > 0.0f && x < a;
        float t = x / a;
        float e = x != 0.0f ? t * 1.4426950f / (1.0f - t) * 1.0001f + rounding(m) : 0.0f;
        float local = (a >= 0.5f && a <= 2.0f) ? 0x1p-21f + rounding(m) : 4.0f * rounding(m);
        return parts(bounded ? e : 0.0f, bounded ? local : INFINITY, 0u);
    }
    default: { /* EQ, NE, LT, GE, SGE, SLT: exact unless the bounds straddle the outcome */
        float e = x + y;
        bool equality = op == SB_IR_OP_EQ || op == SB_IR_OP_NE;
        bool decided = equality ? fabsf(a - b) > e : ((a + x < b - y) | (a - x >= b + y));
        return parts(0.0f, e != 0.0f && !decided ? INFINITY : 0.0f, ab);
    }
    }
}

/* Does one of these operations have a branch-free rule (op_lane)? */
static bool has_kernel(uint32_t op)
{
    switch (op) {
    case SB_IR_OP_ADD: case SB_IR_OP_MUL: case SB_IR_OP_MAD: case SB_IR_OP_MIN: case SB_IR_OP_MAX:
    case SB_IR_OP_DIV: case SB_IR_OP_RCP: case SB_IR_OP_RSQ: case SB_IR_OP_SQRT: case SB_IR_OP_EXP:
    case SB_IR_OP_LOG: case SB_IR_OP_EQ: case SB_IR_OP_NE: case SB_IR_OP_LT: case SB_IR_OP_GE:
    case SB_IR_OP_SGE: case SB_IR_OP_SLT:
        return true;
    default:
        return false;
    }
}

SB_INTERP_LANE void bounds_loop(uint32_t op, float sign, const uint32_t *restrict a, const uint32_t *restrict b,
                                const uint32_t *restrict c, const uint32_t *restrict r, const float *restrict ea,
                                const float *restrict eb, const float *restrict ec, float *restrict out, uint32_t n)
{
    for (uint32_t l = 0; l < n; l++)
        out[l] = op_lane(op, sign, F(a[l]), F(b[l]), F(c[l]), F(r[l]), ea[l], eb[l], ec[l]).total;
}

SB_INTERP_LANE void origins_loop(uint32_t op, float sign, const uint32_t *restrict a, const uint32_t *restrict b,
                                 const uint32_t *restrict c, const uint32_t *restrict r, const float *restrict ea,
                                 const float *restrict eb, const float *restrict ec, const uint32_t *restrict oa,
                                 const uint32_t *restrict ob, const uint32_t *restrict oc, uint32_t *restrict out,
                                 uint32_t here, uint32_t n)
{
    for (uint32_t l = 0; l < n; l++) {
        struct lane_parts p = op_lane(op, sign, F(a[l]), F(b[l]), F(c[l]), F(r[l]), ea[l], eb[l], ec[l]);
        /* An infinite bound that came in keeps the origin it came with. */
        bool mine = (p.local >= p.propagated) & (p.local != 0.0f) & (p.propagated < INFINITY);
        uint32_t from = p.source == 0 ? oa[l] : p.source == 1 ? ob[l] : oc[l];
        uint32_t origin = mine ? here : from;
        out[l] = p.total == 0.0f ? NO_ORIGIN : origin;
    }
}

/* Bounds of one op over all lanes, one vectorized loop per operation (op_lane's switch folds
 * away in each); origins in a second loop only when the tracking asks for them. */
#define KERNEL_CASES(X)                                                                                 \
    X(SB_IR_OP_ADD) X(SB_IR_OP_MUL) X(SB_IR_OP_MAD) X(SB_IR_OP_MIN) X(SB_IR_OP_MAX) X(SB_IR_OP_DIV)     \
    X(SB_IR_OP_RCP) X(SB_IR_OP_RSQ) X(SB_IR_OP_SQRT) X(SB_IR_OP_EXP) X(SB_IR_OP_LOG) X(SB_IR_OP_EQ)    \
    X(SB_IR_OP_NE) X(SB_IR_OP_LT) X(SB_IR_OP_GE) X(SB_IR_OP_SGE) X(SB_IR_OP_SLT)

SB_INTERP_KERNEL static void kernel(uint32_t op, float sign, const uint32_t *restrict a, const uint32_t *restrict b,
                                    const uint32_t *restrict c, const uint32_t *restrict r,
                                    const float *restrict ea, const float *restrict eb, const float *restrict ec,
                                    float *restrict out, uint32_t n)
{
    switch (op) {
#define BOUNDS_CASE(o) case o: bounds_loop(o, sign, a, b, c, r, ea, eb, ec, out, n); break;
        KERNEL_CASES(BOUNDS_CASE)
#undef BOUNDS_CASE
    default: break;
    }
}

SB_INTERP_KERNEL static void kernel_origins(uint32_t op, float sign, const uint32_t *restrict a,
                                            const uint32_t *restrict b, const uint32_t *restrict c,
                                            const uint32_t *restrict r, const float *restrict ea,
                                            const float *restrict eb, const float *restrict ec,
                                            const uint32_t *restrict oa, const uint32_t *restrict ob,
                                            const uint32_t *restrict oc, uint32_t *restrict out, uint32_t here,
                                            uint32_t n)
{
    switch (op) {
#define ORIGINS_CASE(o) case o: origins_loop(o, sign, a, b, c, r, ea, eb, ec, oa, ob, oc, out, here, n); break;
        KERNEL_CASES(ORIGINS_CASE)
#undef ORIGINS_CASE
    default: break;
    }
}

static bool correctly_rounded(uint32_t op)
{
    return op == SB_IR_OP_ADD || op == SB_IR_OP_MUL || op == SB_IR_OP_MIN || op == SB_IR_OP_MAX ||
           op == SB_IR_OP_EQ || op == SB_IR_OP_NE || op == SB_IR_OP_LT || op == SB_IR_OP_GE ||
           op == SB_IR_OP_SGE || op == SB_IR_OP_SLT || (op >= SB_IR_OP_ROUND_NE && op <= SB_IR_OP_ROUND_Z);
}

/* The rule of `op` over every lane (inactive ones exact). */
SB_INTERP_LANE void rule_lanes(uint32_t op, const uint8_t *active, const uint32_t *a, const uint32_t *b,
                               const uint32_t *c, const uint32_t *r, const struct src_view *va,
                               const struct src_view *vb, const struct src_view *vc, struct interp_companion *out,
                               uint32_t here, uint32_t n)
{
    for (uint32_t l = 0; l < n; l++) {
        if (!active[l]) {
            out->bound[l] = 0.0f;
            out->origin[l] = NO_ORIGIN;
            continue;
        }
        struct lane_bound lb = lane_rule(op, a ? F(a[l]) : 0.0f, b ? F(b[l]) : 0.0f, c ? F(c[l]) : 0.0f, F(r[l]),
                                         va->e[l], vb->e[l], vc->e[l], va->o[l], vb->o[l], vc->o[l], here);
        out->bound[l] = lb.bound;
        out->origin[l] = lb.origin;
    }
}

void sb_interp_precision_lanewise(struct interp_state *s, uint32_t op, const uint32_t *a, const uint32_t *b,
                                  const uint32_t *c, const uint32_t *r)
{
    struct src_view va, vb, vc;
    struct interp_companion out;
    s->prec->bounds_set = true;
    view(s, a, &va);
    view(s, b, &vb);
    view(s, c, &vc);
    /* Exact inputs to an exactly rounded op: exact (denormals aside, which both sides' final
     * comparison forgives). */
    if (!va.have && !vb.have && !vc.have && correctly_rounded(op)) {
        sb_interp_precision_fresh(s, r);
        return;
    }
    if (!sb_interp_companion_write(s, r, &out, true))
        return;
    uint32_t here = (uint32_t)s->inst->offset, n = s->lanes;
    if (has_kernel(op)) {
        float sign = op == SB_IR_OP_MAX ? -1.0f : 1.0f;
        /* One-source operations read `a` again in the second and third slots, two-source ones in
         * the third: the loops read every slot, and those lanes' bounds are zero. */
        const uint32_t *second = b ? b : a, *third = c ? c : a;
        const float *eb = b ? vb.e : s->prec->zeros, *ec = c ? vc.e : s->prec->zeros;
        kernel(op, sign, a, second, third, r, va.e, eb, ec, out.bound, n);
        if (s->prec->origins)
            kernel_origins(op, sign, a, second, third, r, va.e, eb, ec, va.o, vb.o, vc.o, out.origin, here, n);
        return;
    }
    /* One loop per operation, so lane_rule's switch folds away in each (a loop over a switch
     * per lane costs more than the rules themselves). */
    switch (op) {
#define RULE_CASE(o) case o: rule_lanes(o, s->active, a, b, c, r, &va, &vb, &vc, &out, here, n); break
        RULE_CASE(SB_IR_OP_FRC); RULE_CASE(SB_IR_OP_ROUND_NE); RULE_CASE(SB_IR_OP_ROUND_NI);
        RULE_CASE(SB_IR_OP_ROUND_PI); RULE_CASE(SB_IR_OP_ROUND_Z);
#undef RULE_CASE
    default: rule_lanes(op, s->active, a, b, c, r, &va, &vb, &vc, &out, here, n); break;
    }
}

void sb_interp_precision_movc(struct interp_state *s, const uint32_t *cond, const uint32_t *b, const uint32_t *c,
                              const uint32_t *r)
{
    struct src_view vk, vb, vc;
    struct interp_companion out;
    s->prec->bounds_set = true;
    view(s, cond, &vk);
    view(s, b, &vb);
    view(s, c, &vc);
    if (!vk.have && !vb.have && !vc.have) {
        sb_interp_precision_fresh(s, r);
        return;
    }
    if (!sb_interp_companion_write(s, r, &out, true))
        return;
    for (uint32_t l = 0; l < s->lanes; l++) {
        if (vk.e[l] != 0.0f) {
            /* Either value may be picked: as far as they lie apart, when both are floats. */
            float x = F(b[l]), y = F(c[l]);
            bool floats = b[l] == c[l] || ((isnormal(x) || x == 0.0f) && (isnormal(y) || y == 0.0f));
            float spread = fabsf(x - y) + fmaxf(vb.e[l], vc.e[l]);
            out.bound[l] = floats ? spread : INFINITY;
            out.origin[l] = vk.o[l];
        } else {
            bool first = cond[l] != 0;
            out.bound[l] = first ? vb.e[l] : vc.e[l];
            out.origin[l] = first ? vb.o[l] : vc.o[l];
        }
    }
}

void sb_interp_precision_dot(struct interp_state *s, const uint32_t *const a[4], const uint32_t *const b[4],
                             uint32_t size, bool homogeneous, const uint32_t *r)
{
    struct src_view va[4], vb[4];
    struct interp_companion out;
    s->prec->bounds_set = true;
    for (uint32_t k = 0; k < size; k++) {
        view(s, (homogeneous && k == 3) ? NULL : a[k], &va[k]);
        view(s, b[k], &vb[k]);
    }
    if (!sb_interp_companion_write(s, r, &out, true))
        return;
    uint32_t here = (uint32_t)s->inst->offset;
    bool any = false;
    for (uint32_t l = 0; l < s->lanes; l++) {
        float e = 0.0f, magnitude = 0.0f, top = 0.0f;
        uint32_t from = NO_ORIGIN;
        double exact = 0.0;
        bool rounded = false;
        for (uint32_t k = 0; k < size; k++) {
            float x = (homogeneous && k == 3) ? 1.0f : F(a[k][l]), y = F(b[k][l]);
            float ex = va[k].e[l] + flushable(x), ey = vb[k].e[l] + flushable(y);
            float px = fabsf(y) * ex, py = fabsf(x) * ey;
            e += px + py + ex * ey;
            if (px > top) {
                top = px;
                from = va[k].o[l];
            }
            if (py > top) {
                top = py;
                from = vb[k].o[l];
            }
            magnitude += fabsf(x * y);
            double product = (double)x * (double)y;
            exact += product;
            rounded |= (double)(float)product != product || (double)(float)exact != exact;
        }
        /* OpDot: any order of the additions, products fused into them or not; nothing to
         * allow when every product and partial sum is exact (then every order agrees). */
        float local = rounded ? (float)size * ulp(magnitude + e) : e != 0.0f ? ulp(magnitude + e) : 0.0f;
        struct lane_bound lb = combine(e, from, local, here);
        out.bound[l] = lb.bound;
        out.origin[l] = lb.origin;
        any |= lb.bound != 0.0f;
    }
    if (!any)
        sb_interp_precision_fresh(s, r);
}

void sb_interp_precision_sincos(struct interp_state *s, const uint32_t *a, const uint32_t *r)
{
    struct src_view va;
    struct interp_companion out;
    s->prec->bounds_set = true;
    view(s, a, &va);
    if (!sb_interp_companion_write(s, r, &out, true))
        return;
    uint32_t here = (uint32_t)s->inst->offset;
    for (uint32_t l = 0; l < s->lanes; l++) {
        float x = F(a[l]), ex = va.e[l];
        /* Vulkan: 2^-11 absolute inside [-pi, pi]; outside it sets no bound, so any value a
         * sine can take (the range [-1, 1]) is allowed. */
        float local = fabsf(x) + ex <= 3.14159274f ? 0x1p-11f + ulp(1.0f) : 2.0f;
        struct lane_bound lb = combine(fminf(ex, 2.0f), va.o[l], local, here);
        out.bound[l] = lb.bound;
        out.origin[l] = lb.origin;
    }
}

void sb_interp_precision_to_integer(struct interp_state *s, uint32_t op, const uint32_t *a, const uint32_t *r)
{
    struct src_view va;
    struct interp_companion out;
    s->prec->bounds_set = true;
    view(s, a, &va);
    if (!va.have) {
        sb_interp_precision_fresh(s, r);
        return;
    }
    if (!sb_interp_companion_write(s, r, &out, true))
        return;
    for (uint32_t l = 0; l < s->lanes; l++) {
        float x = F(a[l]), ex = va.e[l];
        bool sensitive;
        if (op == SB_IR_OP_FTOI || op == SB_IR_OP_FTOU)
            sensitive = straddles_step(x, ex, truncf);
        else
            sensitive = ex != 0.0f; /* itof/utof of an integer that may differ */
        out.bound[l] = sensitive ? INFINITY : 0.0f;
        /* A truncation the bound straddles starts here; an integer that may differ, earlier. */
        out.origin[l] = !sensitive ? NO_ORIGIN : op == SB_IR_OP_FTOI || op == SB_IR_OP_FTOU ? (uint32_t)s->inst->offset
                                                                                         : va.o[l];
    }
}

void sb_interp_precision_double(struct interp_state *s, uint32_t op, const uint32_t *lo, const uint32_t *hi)
{
    struct interp_companion cl, ch;
    struct interp_precision *p = s->prec;
    inexact_lanes(s);
    bool approximated = op == SB_IR_OP_DDIV || op == SB_IR_OP_DRCP || op == SB_IR_OP_DFMA;
    if (!approximated && !p->any_inexact && !p->any_tainted) {
        sb_interp_precision_fresh(s, lo);
        sb_interp_precision_fresh(s, hi);
        p->bounds_set = true;
        return;
    }
    if (!sb_interp_companion_write(s, lo, &cl, true) || !sb_interp_companion_write(s, hi, &ch, true))
        return;
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
        float b = 0.0f;
        uint32_t o = NO_ORIGIN;
        if (moved) {
            b = INFINITY;
            o = origin;
        } else if (have && exact_format) {
            b = c < words ? memory->bound[word + c] : 0.0f;
            o = c < words ? memory->origin[word + c] : NO_ORIGIN;
        } else if (have) {
            b = any;
            o = any_origin;
        }
        if (!result[c] || (b == 0.0f && !sb_interp_companion(s, result[c], &r)))
            continue;
        if (sb_interp_companion_write(s, result[c], &r, false)) {
            r.bound[l] = b;
            r.origin[l] = o;
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
