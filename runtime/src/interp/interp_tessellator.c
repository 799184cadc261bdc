/* SPDX-License-Identifier: MIT */
/*
 * D3D11's fixed-function tessellator on the CPU (interp_private.h,
 * sb_interp_tessellate; public as sb_interp_tessellate_patch in interp.h):
 * from one patch's tess factors, the domain points the DS runs on and the
 * primitives that join them; sb_interp_tess_process gives the processed
 * factors alone, for the hull-shader results (interp_hull.c). It calls only
 * libc/libm and the error setter, so `run --cpu` and HS/DS validation can use
 * it without an interpreter.
 * Rules from the D3D11.3 functional specification's tessellator chapter
 * (§11.7); README.md "Tessellator" lists what is ours where D3D leaves freedom.
 *
 * Factors (§11.7.11): a used edge factor that is NaN or <= 0 culls the patch.
 * Each factor is clamped to its partitioning's range (integer, pow2 [1, 64];
 * fractional_odd [1, 63]; fractional_even [2, 64]) and to
 * dcl_hs_max_tessfactor; integer rounds up (pow2 also to a power of two, the
 * HLSL compiler's job that we do here). A fractional_odd inside factor is
 * raised to 1 + 2^-16 when any factor of the patch is above 1 + 2^-17, so the
 * patch keeps a "picture frame"; an integer inside factor of 1 beside larger
 * factors is tessellated as even, i.e. like 2. Then every factor becomes
 * 16.16 fixed point (round to nearest even), and all placement is fixed-point
 * arithmetic (§11.7.14): the float points are exact multiples of 2^-16.
 *
 * Placement along one axis (§11.7.3-11.7.5, §11.7.10): a factor's parity is
 * the mode's (fractional) or its own (integer). Half the axis is tessellated
 * at the half factor h = f/2 (odd: (f + 1)/2) between the two uniform
 * arrangements either side of it, floor(h) and ceil(h) points a half; each of
 * the finer arrangement's points sits between its own uniform place and the
 * place of its "parent" in the coarser one, by the fraction of h. The one
 * point the finer arrangement adds is split off its neighbour at the index
 * the "ruler function" picks (each epoch, a power-of-two count of points a
 * half, splits its points from the outside in), so the short segments start
 * at zero length there and grow as the factor does. The other half mirrors
 * the first exactly (1 - x), as crack-free neighbours need.
 *
 * Topology: isolines are density lines (the density's own placement) of
 * detail segments. Quads put the inside factors' grid inside the outer ring
 * and stitch each edge (its own factor) to the grid's outermost row or
 * column; tris build concentric rings from the inside factor (each ring two
 * segments shorter per side than the one outside it, at 2/3 of its inside
 * point's distance from the edges) down to a point or a triangle, and stitch
 * the outer edges to ring 1. A stitch walks two parallel polylines in order.
 * Every triangle is then turned to the requested winding. Point output lists
 * each distinct point once (§11.7.14), so the degenerate frame of an odd
 * inside factor of 1 + 2^-16 (its ring lies on the corners) adds none.
 */
#include "interp_private.h"

#include "error.h"

#include <math.h>
#include <stdlib.h>

/* 16.16 fixed point, the tessellator's number format (§11.7.14). */
#define FX_ONE 65536u
#define FX_HALF 32768u
#define FX_ONE_THIRD 21845u  /* 1/3 rounded to 16 bits: the centre of an even tri */
#define FX_TWO_THIRDS 43690u /* 2/3 cut to 16 bits (not rounded: lavapipe's rings sit there): a tri ring's inset */
#define NO_SPLIT UINT32_MAX

/* One processed factor and the fixed-point context its points are placed by. */
struct axis {
    float factor;          /* the processed (clamped, rounded) factor, as reported */
    uint32_t segments;     /* points 0..segments */
    bool odd;              /* the parity placement follows */
    uint32_t half_points;  /* points before the middle: ceil of the half factor */
    uint32_t fraction;     /* 16-bit fraction of the half factor: how far towards the finer arrangement */
    uint32_t split;        /* finer-arrangement index past which the coarser one has one point fewer */
    uint32_t step_coarse;  /* 16.16 length of one segment of the coarser uniform arrangement */
    uint32_t step_fine;    /* ... and of the finer one */
};

/* A processed patch: its axes, or the special case of every factor exactly 1. */
struct patch {
    struct axis edge[4], inside[2];
    bool minimum;
};

struct builder {
    float *points;
    uint32_t point_count, point_capacity, components;
    uint32_t *indices;
    uint32_t index_count, index_capacity;
    bool failed;
};

/* D3D's float -> 16.16 conversion (§3.2.4.1), round to nearest even; f is in [1, 64]. */
static uint32_t to_fixed(float f)
{
    double x = (double)f * FX_ONE, whole = floor(x), rest = x - whole;
    uint32_t fixed = (uint32_t)whole;
    if (rest > 0.5 || (rest == 0.5 && (fixed & 1)))
        fixed++;
    return fixed;
}

/* 16.16 of 1/segments, rounded to nearest. */
static uint32_t fixed_reciprocal(uint32_t segments)
{
    return (FX_ONE + segments / 2) / segments;
}

static uint32_t without_top_bit(uint32_t v)
{
    uint32_t top = 1u << 31;
    while (top && !(v & top))
        top >>= 1;
    return v & ~top;
}

/* The placement context of a factor (a float already clamped and rounded) of a parity. */
static struct axis axis_make(float factor, bool odd)
{
    uint32_t fixed = to_fixed(factor);
    /* Half the factor, rounded to nearest; odd factors count the middle segment's half too, and
     * an even factor of 1 (integer inside 1) is taken as the even minimum, 2. */
    uint32_t half = (fixed + 1) / 2;
    if (odd || half == FX_HALF)
        half += FX_HALF;
    uint32_t coarse = half >> 16, fine = (half + FX_ONE - 1) >> 16;
    struct axis a = { .factor = factor, .odd = odd, .half_points = fine, .fraction = half & (FX_ONE - 1) };
    if (coarse == fine)
        a.split = NO_SPLIT;
    else if (odd)
        a.split = coarse == 1 ? 0 : 2 * without_top_bit(coarse - 1) + 1;
    else
        a.split = 2 * without_top_bit(coarse) + 1;
    uint32_t segments_coarse = 2 * coarse - odd, segments_fine = 2 * fine - odd;
    a.segments = segments_fine;
    a.step_coarse = fixed_reciprocal(segments_coarse);
    a.step_fine = fixed_reciprocal(segments_fine);
    return a;
}

/* Position (16.16) of point i (0..segments) along the axis. */
static uint32_t axis_point(const struct axis *a, uint32_t i)
{
    uint32_t half = a->half_points;
    if (!a->odd && i == half)
        return FX_HALF; /* exactly the middle, which the 16-bit steps would miss */
    if (i >= half)
        return FX_ONE - axis_point(a, 2 * half - i - (a->odd ? 1 : 0));
    uint32_t coarse_index = i > a->split ? i - 1 : i;
    uint64_t blend = (uint64_t)coarse_index * a->step_coarse * (FX_ONE - a->fraction) +
                     (uint64_t)i * a->step_fine * a->fraction;
    return (uint32_t)((blend + FX_HALF) >> 16);
}

static float clamp_factor(float raw, float lo, float hi)
{
    /* D3D's min/max return the number when one operand is NaN: NaN takes the lower bound. */
    return isnan(raw) ? fminf(hi, lo) : fminf(hi, fmaxf(lo, raw));
}

/* The partitioning's range, narrowed by dcl_hs_max_tessfactor (never below the minimum). */
static void factor_range(uint32_t partitioning, float max_factor, float *lo, float *hi)
{
    *lo = partitioning == SB_INTERP_TESS_FRACTIONAL_EVEN ? 2.0f : 1.0f;
    *hi = partitioning == SB_INTERP_TESS_FRACTIONAL_ODD ? 63.0f : 64.0f;
    if (max_factor < *hi)
        *hi = max_factor;
    if (*hi < *lo)
        *hi = *lo;
}

/* Rounds a clamped factor for integer and pow2 partitioning (no change for the fractional modes). */
static float round_factor(float f, uint32_t partitioning, float hi)
{
    if (partitioning == SB_INTERP_TESS_POW2) {
        uint32_t p = 1;
        while (p < ceilf(f))
            p <<= 1;
        /* Rounding up may pass a max of, say, 40: stay at the largest power of two below it. */
        while (p > 1 && p > hi)
            p >>= 1;
        return (float)p;
    }
    return partitioning == SB_INTERP_TESS_INTEGER ? ceilf(f) : f;
}

/* The parity a rounded factor is placed with: the mode's, or for integer and pow2 its own. */
static bool factor_odd(float f, uint32_t partitioning)
{
    if (partitioning == SB_INTERP_TESS_FRACTIONAL_ODD)
        return true;
    if (partitioning == SB_INTERP_TESS_FRACTIONAL_EVEN)
        return false;
    return ((uint32_t)f & 1) != 0;
}

static struct axis edge_axis(float raw, uint32_t partitioning, float max_factor)
{
    float lo, hi;
    factor_range(partitioning, max_factor, &lo, &hi);
    float f = round_factor(clamp_factor(raw, lo, hi), partitioning, hi);
    return axis_make(f, factor_odd(f, partitioning));
}

static bool grow(void **array, uint32_t *capacity, uint32_t need, size_t size)
{
    if (need <= *capacity)
        return true;
    uint32_t capacity_new = *capacity ? *capacity : 64;
    while (capacity_new < need)
        capacity_new *= 2;
    void *p = realloc(*array, (size_t)capacity_new * size);
    if (!p)
        return false;
    *array = p;
    *capacity = capacity_new;
    return true;
}

/* Adds a point given in 16.16 (a tri's w is 1 - u - v, exact in fixed point). Returns its index
 * (0 after a failure). */
static uint32_t add_point(struct builder *b, uint32_t u, uint32_t v)
{
    if (b->failed || !grow((void **)&b->points, &b->point_capacity, (b->point_count + 1) * b->components,
                           sizeof(float))) {
        b->failed = true;
        return 0;
    }
    float *p = &b->points[b->point_count * b->components];
    p[0] = (float)u / FX_ONE;
    p[1] = (float)v / FX_ONE;
    if (b->components == 3)
        p[2] = (float)(FX_ONE - u - v) / FX_ONE;
    return b->point_count++;
}

static void add_indices(struct builder *b, const uint32_t *index, uint32_t count)
{
    if (b->failed || !grow((void **)&b->indices, &b->index_capacity, b->index_count + count, sizeof(uint32_t))) {
        b->failed = true;
        return;
    }
    for (uint32_t k = 0; k < count; k++)
        b->indices[b->index_count++] = index[k];
}

static void add_triangle(struct builder *b, uint32_t i0, uint32_t i1, uint32_t i2)
{
    const uint32_t index[3] = { i0, i1, i2 };
    add_indices(b, index, 3);
}

/*
 * Triangulates the strip between two parallel polylines p[0..pn-1] (outer) and
 * q[0..qn-1] (inner), both running the same way; the parameter of a point is its
 * projection on the direction from p[0] to p[pn-1]. Each step advances the line
 * whose next point comes first, so triangles never cross.
 */
static void stitch(struct builder *b, const uint32_t *p, uint32_t pn, const uint32_t *q, uint32_t qn)
{
    if (b->failed)
        return;
    const float *pts = b->points;
    uint32_t c = b->components;
    double du = pts[p[pn - 1] * c] - pts[p[0] * c], dv = pts[p[pn - 1] * c + 1] - pts[p[0] * c + 1];
#define PARAM(idx) (pts[(idx) * c] * du + pts[(idx) * c + 1] * dv)
    uint32_t i = 0, j = 0;
    while (i + 1 < pn || j + 1 < qn) {
        bool outer = j + 1 >= qn || (i + 1 < pn && PARAM(p[i + 1]) <= PARAM(q[j + 1]));
        if (outer) {
            add_triangle(b, p[i], p[i + 1], q[j]);
            i++;
        } else {
            add_triangle(b, p[i], q[j + 1], q[j]);
            j++;
        }
    }
#undef PARAM
}

/* A run of points along an axis-aligned or diagonal line: point i is (u0, v0) + pos_i * (du, dv),
 * du and dv each -1, 0 or 1, pos_i the axis' point i; the ends are the given indices. */
struct line {
    uint32_t u0, v0;
    int du, dv;
};

static uint32_t *line_points(struct builder *b, const struct axis *a, uint32_t first, uint32_t last,
                             struct line l)
{
    uint32_t *points = malloc(((size_t)a->segments + 1) * sizeof(*points));
    if (!points) {
        b->failed = true;
        return NULL;
    }
    points[0] = first;
    points[a->segments] = last;
    for (uint32_t i = 1; i < a->segments; i++) {
        uint32_t t = axis_point(a, i);
        points[i] = add_point(b, l.u0 + (uint32_t)l.du * t, l.v0 + (uint32_t)l.dv * t);
    }
    return points;
}

static void tessellate_isoline(struct builder *b, const struct axis *density, const struct axis *detail,
                               uint32_t primitive)
{
    /* One line per density point but the last: v = 1 is never a line (§11.7.8). */
    for (uint32_t j = 0; j < density->segments; j++) {
        uint32_t v = axis_point(density, j);
        uint32_t first = b->point_count;
        for (uint32_t i = 0; i <= detail->segments; i++)
            add_point(b, axis_point(detail, i), v);
        for (uint32_t i = 0; primitive == SB_INTERP_TESS_LINE && i < detail->segments; i++) {
            const uint32_t pair[2] = { first + i, first + i + 1 };
            add_indices(b, pair, 2);
        }
    }
}

static void tessellate_quad(struct builder *b, const struct patch *patch)
{
    const struct axis *edge = patch->edge, *inside = patch->inside;
    uint32_t c00 = add_point(b, 0, 0), c10 = add_point(b, FX_ONE, 0), c01 = add_point(b, 0, FX_ONE),
             c11 = add_point(b, FX_ONE, FX_ONE);
    if (patch->minimum) {
        add_triangle(b, c00, c10, c11);
        add_triangle(b, c00, c11, c01);
        return;
    }
    /* The outer ring, each edge from its lower corner to its higher one. */
    uint32_t *outer[4] = {
        line_points(b, &edge[0], c00, c01, (struct line){ 0, 0, 0, 1 }),
        line_points(b, &edge[1], c00, c10, (struct line){ 0, 0, 1, 0 }),
        line_points(b, &edge[2], c10, c11, (struct line){ FX_ONE, 0, 0, 1 }),
        line_points(b, &edge[3], c01, c11, (struct line){ 0, FX_ONE, 1, 0 }),
    };
    /* The inside grid: every inside u point but the ends by every inside v point but the ends.
     * D3D lays it out as rings (and a middle row or column for an even axis), the same points. */
    uint32_t nu = inside[0].segments - 1, nv = inside[1].segments - 1;
    uint32_t *grid = calloc((size_t)nu * nv, sizeof(*grid));
    uint32_t *column = calloc(nv, sizeof(*column));
    if (!grid || !column)
        b->failed = true;
    for (uint32_t j = 0; !b->failed && j < nv; j++)
        for (uint32_t i = 0; i < nu; i++)
            grid[j * nu + i] = add_point(b, axis_point(&inside[0], i + 1), axis_point(&inside[1], j + 1));
    for (uint32_t k = 0; k < 4 && !b->failed; k++)
        if (!outer[k])
            b->failed = true;
    if (!b->failed) {
        for (uint32_t j = 0; j < nv; j++)
            column[j] = grid[j * nu];
        stitch(b, outer[0], edge[0].segments + 1, column, nv);
        for (uint32_t j = 0; j < nv; j++)
            column[j] = grid[j * nu + nu - 1];
        stitch(b, outer[2], edge[2].segments + 1, column, nv);
        stitch(b, outer[1], edge[1].segments + 1, &grid[0], nu);
        stitch(b, outer[3], edge[3].segments + 1, &grid[(nv - 1) * nu], nu);
        for (uint32_t j = 0; j + 1 < nv; j++)
            for (uint32_t i = 0; i + 1 < nu; i++) {
                uint32_t g = j * nu + i;
                add_triangle(b, grid[g], grid[g + 1], grid[g + nu + 1]);
                add_triangle(b, grid[g], grid[g + nu + 1], grid[g + nu]);
            }
    }
    for (uint32_t k = 0; k < 4; k++)
        free(outer[k]);
    free(grid);
    free(column);
}

/*
 * Ring `r` of a tri's inside factor: its sides lie at distance d = 2/3 of inside point r from the
 * edges (2/3 as 0xAAAA, the product rounded to 16 bits), and the side parallel to edge s takes the
 * inside points r..n-r, each moved back by half that inset so the side ends on its neighbours:
 *   side 0 (u == d): (d, x - d/2)   side 1 (v == d): (x - d/2, d)   side 2 (w == d): (x - d/2, 1 - u - d)
 * with x the inside point. Each corner is made once, by the side D3D takes it from: V by side 0
 * at n-r, W by side 1 at r, U by side 2 at n-r.
 */
struct ring {
    const struct axis *inside;
    uint32_t inset, half_inset;
};

static void ring_point(const struct ring *ring, uint32_t side, uint32_t q, uint32_t *u, uint32_t *v)
{
    uint32_t along = axis_point(ring->inside, q) - ring->half_inset;
    *u = side == 0 ? ring->inset : along;
    *v = side == 0 ? along : side == 1 ? ring->inset : FX_ONE - along - ring->inset;
}

/* The ring's sides as polylines, side s from corner from[s] to to[s] (0: V to W, 1: W to U, 2: U to
 * V), corners included; an even factor's innermost ring is the centre (three equal corners). */
static bool tri_ring(struct builder *b, const struct axis *inside, uint32_t r, uint32_t *side[3])
{
    uint32_t n = inside->segments, segments = n - 2 * r;
    for (uint32_t s = 0; s < 3; s++) {
        side[s] = malloc(((size_t)segments + 1) * sizeof(*side[s]));
        if (!side[s])
            b->failed = true;
    }
    if (b->failed)
        return false;
    if (segments == 0) {
        uint32_t centre = add_point(b, FX_ONE_THIRD, FX_ONE_THIRD);
        side[0][0] = side[1][0] = side[2][0] = centre;
        return true;
    }
    uint32_t d = (uint32_t)(((uint64_t)axis_point(inside, r) * FX_TWO_THIRDS + FX_HALF) >> 16);
    struct ring ring = { inside, d, (d + 1) / 2 };
    uint32_t u, v;
    ring_point(&ring, 0, n - r, &u, &v);
    uint32_t corner_v = add_point(b, u, v);
    ring_point(&ring, 1, r, &u, &v);
    uint32_t corner_w = add_point(b, u, v);
    ring_point(&ring, 2, n - r, &u, &v);
    uint32_t corner_u = add_point(b, u, v);
    side[0][0] = side[2][segments] = corner_v;
    side[0][segments] = side[1][0] = corner_w;
    side[1][segments] = side[2][0] = corner_u;
    for (uint32_t i = 1; i < segments; i++) {
        /* Sides 0 and 2 run against the inside axis (from its high points down), side 1 with it. */
        ring_point(&ring, 0, n - r - i, &u, &v);
        side[0][i] = add_point(b, u, v);
        ring_point(&ring, 1, r + i, &u, &v);
        side[1][i] = add_point(b, u, v);
        ring_point(&ring, 2, n - r - i, &u, &v);
        side[2][i] = add_point(b, u, v);
    }
    return true;
}

static void tessellate_tri(struct builder *b, const struct patch *patch)
{
    const struct axis *edge = patch->edge, *inside = &patch->inside[0];
    uint32_t corner_u = add_point(b, FX_ONE, 0), corner_v = add_point(b, 0, FX_ONE), corner_w = add_point(b, 0, 0);
    if (patch->minimum) {
        add_triangle(b, corner_u, corner_v, corner_w);
        return;
    }
    /* The outer edges, as the rings' sides: u == 0 from V to W, v == 0 from W to U, w == 0 from U to V. */
    uint32_t *outer[3] = {
        line_points(b, &edge[0], corner_v, corner_w, (struct line){ 0, FX_ONE, 0, -1 }),
        line_points(b, &edge[1], corner_w, corner_u, (struct line){ 0, 0, 1, 0 }),
        line_points(b, &edge[2], corner_u, corner_v, (struct line){ FX_ONE, 0, -1, 1 }),
    };
    uint32_t outer_segments[3] = { edge[0].segments, edge[1].segments, edge[2].segments };
    for (uint32_t s = 0; s < 3; s++)
        if (!outer[s])
            b->failed = true;
    for (uint32_t r = 1; !b->failed && r * 2 <= inside->segments; r++) {
        uint32_t *inner[3] = { NULL, NULL, NULL }, segments = inside->segments - 2 * r;
        if (tri_ring(b, inside, r, inner)) {
            for (uint32_t s = 0; s < 3; s++)
                stitch(b, outer[s], outer_segments[s] + 1, inner[s], segments + 1);
            if (segments == 1)
                add_triangle(b, inner[0][0], inner[1][0], inner[2][0]);
        }
        for (uint32_t s = 0; s < 3; s++) {
            free(outer[s]);
            outer[s] = inner[s];
            outer_segments[s] = segments;
        }
    }
    for (uint32_t s = 0; s < 3; s++)
        free(outer[s]);
}

/* Turns every triangle to the requested winding: clockwise = positive u x v with v down. */
static void wind(struct builder *b, bool clockwise)
{
    uint32_t c = b->components;
    for (uint32_t t = 0; t + 2 < b->index_count; t += 3) {
        uint32_t *i = &b->indices[t];
        const float *p0 = &b->points[i[0] * c], *p1 = &b->points[i[1] * c], *p2 = &b->points[i[2] * c];
        double cross = ((double)p1[0] - p0[0]) * ((double)p2[1] - p0[1]) -
                       ((double)p1[1] - p0[1]) * ((double)p2[0] - p0[0]);
        if (clockwise ? cross < 0 : cross > 0) {
            uint32_t swap = i[1];
            i[1] = i[2];
            i[2] = swap;
        }
    }
}

struct keyed_point {
    float p[3];
    uint32_t index;
};

static int keyed_point_order(const void *a, const void *b)
{
    const struct keyed_point *x = a, *y = b;
    for (int c = 0; c < 3; c++)
        if (x->p[c] != y->p[c])
            return x->p[c] < y->p[c] ? -1 : 1;
    return x->index < y->index ? -1 : x->index > y->index;
}

/* Point output: every distinct point once, in the order of first appearance (§11.7.14 asks for
 * unique points; only the degenerate frame of a fractional_odd inside factor just above 1 and
 * factors within 2^-16 of a step make equal ones). Replaces any topology built on the way. */
static void list_distinct_points(struct builder *b)
{
    uint32_t c = b->components, count = b->point_count;
    struct keyed_point *keyed = malloc(((size_t)count ? count : 1) * sizeof(*keyed));
    bool *repeat = calloc(count ? count : 1, sizeof(*repeat));
    if (!keyed || !repeat) {
        free(keyed);
        free(repeat);
        b->failed = true;
        return;
    }
    for (uint32_t i = 0; i < count; i++) {
        keyed[i] = (struct keyed_point){ { b->points[i * c], b->points[i * c + 1], c == 3 ? b->points[i * c + 2] : 0 },
                                         i };
    }
    qsort(keyed, count, sizeof(*keyed), keyed_point_order);
    for (uint32_t i = 1; i < count; i++)
        repeat[keyed[i].index] = memcmp(keyed[i].p, keyed[i - 1].p, sizeof(keyed[i].p)) == 0;
    uint32_t kept = 0;
    for (uint32_t i = 0; i < count; i++)
        if (!repeat[i])
            memmove(&b->points[kept++ * c], &b->points[i * c], c * sizeof(float));
    free(keyed);
    free(repeat);
    b->point_count = kept;
    b->index_count = 0;
    for (uint32_t i = 0; i < kept; i++)
        add_indices(b, &i, 1);
}

void sb_interp_tess_release(struct sb_interp_tess_output *out)
{
    if (!out)
        return;
    free(out->points);
    free(out->indices);
    memset(out, 0, sizeof(*out));
}

static bool edge_culls(float f)
{
    return isnan(f) || f <= 0.0f;
}

static bool known_state(const struct sb_interp_tess_input *in)
{
    return in->domain >= SB_INTERP_TESS_ISOLINE && in->domain <= SB_INTERP_TESS_QUAD &&
           in->partitioning >= SB_INTERP_TESS_INTEGER && in->partitioning <= SB_INTERP_TESS_FRACTIONAL_EVEN;
}

/* The processed axes of a patch; false when the patch is culled. */
static bool process_patch(const struct sb_interp_tess_input *in, struct patch *patch)
{
    uint32_t domain = in->domain, partitioning = in->partitioning;
    bool isoline = domain == SB_INTERP_TESS_ISOLINE;
    uint32_t edges = isoline ? 2 : domain == SB_INTERP_TESS_TRI ? 3 : 4;
    memset(patch, 0, sizeof(*patch));
    for (uint32_t k = 0; k < edges; k++)
        if (edge_culls(in->edge[k]))
            return false;
    float max_factor = in->max_factor >= 1.0f && in->max_factor <= 64.0f ? in->max_factor : 64.0f;
    if (isoline) {
        /* Density is always integer-partitioned; detail follows the declared mode. */
        patch->edge[0] = edge_axis(in->edge[0], SB_INTERP_TESS_INTEGER, max_factor);
        patch->edge[1] = edge_axis(in->edge[1], partitioning, max_factor);
        return true;
    }
    uint32_t insides = domain == SB_INTERP_TESS_TRI ? 1 : 2;
    float lo, hi;
    factor_range(partitioning, max_factor, &lo, &hi);
    bool above_one = false, all_one = true;
    for (uint32_t k = 0; k < edges; k++) {
        patch->edge[k] = edge_axis(in->edge[k], partitioning, max_factor);
        above_one |= patch->edge[k].factor > 1.0f + 0x1p-17f;
        all_one &= to_fixed(patch->edge[k].factor) == FX_ONE;
    }
    for (uint32_t k = 0; k < insides; k++)
        above_one |= in->inside[k] > 1.0f + 0x1p-17f;
    /* fractional_odd: a factor that stays above 1 in 16.16 raises the inside factors off 1, so
     * the patch keeps a picture frame (§11.7.11.3). */
    if (partitioning == SB_INTERP_TESS_FRACTIONAL_ODD && above_one)
        lo = 1.0f + 0x1p-16f;
    float inside[2] = { 1.0f, 1.0f };
    for (uint32_t k = 0; k < insides; k++) {
        inside[k] = round_factor(clamp_factor(in->inside[k], lo, hi), partitioning, hi);
        all_one &= to_fixed(inside[k]) == FX_ONE;
    }
    /* Every factor exactly 1 (integer, pow2, fractional_odd): the domain's corners alone. */
    patch->minimum = all_one;
    for (uint32_t k = 0; k < insides; k++) {
        /* An integer inside 1 beside larger factors is placed as even, which is 2's placement. */
        if (inside[k] == 1.0f && !all_one && partitioning <= SB_INTERP_TESS_POW2)
            inside[k] = 2.0f;
        patch->inside[k] = axis_make(inside[k], factor_odd(inside[k], partitioning));
    }
    return true;
}

static void store_factors(const struct patch *patch, float edge_factor[4], uint32_t edge_segments[4],
                          float inside_factor[2], uint32_t inside_segments[2])
{
    for (uint32_t k = 0; k < 4; k++) {
        edge_factor[k] = patch->edge[k].factor;
        edge_segments[k] = patch->edge[k].segments;
    }
    for (uint32_t k = 0; k < 2; k++) {
        inside_factor[k] = patch->inside[k].factor;
        inside_segments[k] = patch->inside[k].segments;
    }
}

bool sb_interp_tess_process(const struct sb_interp_tess_input *in, struct sb_interp_tess_factors *out)
{
    memset(out, 0, sizeof(*out));
    if (!known_state(in))
        return false;
    struct patch patch;
    out->culled = !process_patch(in, &patch);
    if (!out->culled)
        store_factors(&patch, out->edge_factor, out->edge_segments, out->inside_factor, out->inside_segments);
    return true;
}

bool sb_interp_tessellate(const struct sb_interp_tess_input *in, struct sb_interp_tess_output *out)
{
    memset(out, 0, sizeof(*out));
    uint32_t domain = in->domain, primitive = in->output_primitive;
    if (!known_state(in) || primitive < SB_INTERP_TESS_POINT || primitive > SB_INTERP_TESS_TRIANGLE_CCW)
        return false;
    bool isoline = domain == SB_INTERP_TESS_ISOLINE;
    if (isoline ? primitive > SB_INTERP_TESS_LINE : primitive == SB_INTERP_TESS_LINE)
        return false;
    out->primitive = in->output_primitive;
    out->components = domain == SB_INTERP_TESS_TRI ? 3 : 2;
    struct patch patch;
    if (!process_patch(in, &patch)) {
        out->culled = true;
        return true;
    }
    struct builder b = { .components = out->components };
    if (isoline) {
        tessellate_isoline(&b, &patch.edge[0], &patch.edge[1], primitive);
    } else {
        if (domain == SB_INTERP_TESS_TRI)
            tessellate_tri(&b, &patch);
        else
            tessellate_quad(&b, &patch);
        if (!b.failed && primitive != SB_INTERP_TESS_POINT)
            wind(&b, primitive == SB_INTERP_TESS_TRIANGLE_CW);
    }
    if (!b.failed && primitive == SB_INTERP_TESS_POINT)
        list_distinct_points(&b);
    if (b.failed) {
        free(b.points);
        free(b.indices);
        memset(out, 0, sizeof(*out));
        return false;
    }
    out->points = b.points;
    out->point_count = b.point_count;
    out->indices = b.indices;
    out->index_count = b.index_count;
    store_factors(&patch, out->edge_factor, out->edge_segments, out->inside_factor, out->inside_segments);
    return true;
}

/* The public entry: the same, with a structured error naming what was refused. */
enum sb_result sb_interp_tessellate_patch(const struct sb_interp_tess_input *in, struct sb_interp_tess_output *out,
                                          struct sb_error *error)
{
    if (out)
        memset(out, 0, sizeof(*out));
    if (!in || !out)
        return sb_error_set(error, SB_ERROR_INVALID_ARGUMENT, 0, SB_ERROR_NO_INSTR,
                            "sb_interp_tessellate_patch: NULL input or output");
    if (!known_state(in) || in->output_primitive < SB_INTERP_TESS_POINT ||
        in->output_primitive > SB_INTERP_TESS_TRIANGLE_CCW)
        return sb_error_set(error, SB_ERROR_INVALID_ARGUMENT, 0, SB_ERROR_NO_INSTR,
                            "sb_interp_tessellate_patch: domain %u, partitioning %u or output primitive %u "
                            "is not one of sm4-tokens.md §8.5-8.7", (unsigned)in->domain,
                            (unsigned)in->partitioning, (unsigned)in->output_primitive);
    bool isoline = in->domain == SB_INTERP_TESS_ISOLINE;
    if (isoline ? in->output_primitive > SB_INTERP_TESS_LINE : in->output_primitive == SB_INTERP_TESS_LINE)
        return sb_error_set(error, SB_ERROR_INVALID_ARGUMENT, 0, SB_ERROR_NO_INSTR,
                            "sb_interp_tessellate_patch: output primitive %u cannot come from domain %u "
                            "(lines only from isolines, triangles only from tri and quad)",
                            (unsigned)in->output_primitive, (unsigned)in->domain);
    if (!sb_interp_tessellate(in, out))
        return sb_error_set(error, SB_ERROR_OUT_OF_MEMORY, 0, SB_ERROR_NO_INSTR,
                            "sb_interp_tessellate_patch: out of memory");
    return SB_SUCCESS;
}
