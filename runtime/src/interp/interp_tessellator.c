/* SPDX-License-Identifier: MIT */
/*
 * D3D11's fixed-function tessellator on the CPU (interp_private.h,
 * sb_interp_tessellate; public as sb_interp_tessellate_patch in interp.h):
 * from one patch's tess factors, the domain points the DS runs on and the
 * primitives that join them; sb_interp_tess_process gives the processed
 * factors alone, for the hull-shader results (interp_hull.c). It calls only
 * libc/libm and the error setter, so `run --cpu` and HS/DS validation can use
 * it without an interpreter.
 * Rules from the D3D11.3 functional specification's tessellator chapter;
 * README.md "Tessellator" lists what is ours where D3D leaves freedom.
 *
 * Factors: a used edge factor that is NaN or <= 0 culls the patch. Each
 * factor is clamped to its partitioning's range (integer, pow2 [1, 64];
 * fractional_odd [1, 63]; fractional_even [2, 64]) and to
 * dcl_hs_max_tessfactor, then rounded up: integer to an integer, pow2 to a
 * power of two, fractional_odd to odd, fractional_even to even. The fractional
 * modes keep the clamped value f for placement. A tri/quad inside factor that
 * ends at 1 while another factor is above 1 is taken as just above 1, so the
 * interior still has the points the edges need to stitch to.
 *
 * Placement along one axis of n segments: n - 2 segments of 1/f and two of
 * (f - (n - 2)) / (2f) (all 1/n when f = n), the two short ones placed
 * symmetrically next to the middle (beside the middle point for even n,
 * beside the middle segment for odd n). Points of the second half are
 * 1 - the mirrored first-half point, so every edge is exactly symmetric, as
 * crack-free neighbours need.
 *
 * Topology: isolines are density lines at v = j / density of detail
 * segments. Quads put the inside factors' grid inside the outer ring and
 * stitch each edge (its own factor) to the grid's outermost row or column;
 * tris build concentric rings from the inside factor (each ring two
 * segments shorter per side than the one outside it) down to a point or a
 * triangle, and stitch the outer edges to ring 1. A stitch walks two
 * parallel polylines in order, so it never makes a zero-area triangle from
 * distinct points. Every triangle is then turned to the requested winding.
 */
#include "interp_private.h"

#include "error.h"

#include <math.h>
#include <stdlib.h>

/* One processed factor: the clamped value placement uses and the segment count. */
struct axis {
    double f;
    uint32_t n;
};

struct builder {
    float *points;
    uint32_t point_count, point_capacity, components;
    uint32_t *indices;
    uint32_t index_count, index_capacity;
    bool failed;
};

static struct axis process(float raw, uint32_t partitioning, float max_factor)
{
    double lo = partitioning == SB_INTERP_TESS_FRACTIONAL_EVEN ? 2.0 : 1.0;
    double hi = partitioning == SB_INTERP_TESS_FRACTIONAL_ODD ? 63.0 : 64.0;
    if (max_factor < hi)
        hi = max_factor;
    if (hi < lo)
        hi = lo;
    /* NaN reaches here only for inside factors (NaN edges cull): take the range's minimum. */
    double f = isnan(raw) ? lo : fmin(fmax((double)raw, lo), hi);
    uint32_t n = (uint32_t)ceil(f);
    switch (partitioning) {
    case SB_INTERP_TESS_POW2: {
        uint32_t p = 1;
        while (p < n)
            p <<= 1;
        /* Rounding up may pass a max of, say, 40: stay at the largest power of two below it. */
        while (p > 1 && p > hi)
            p >>= 1;
        n = p;
        f = n;
        break;
    }
    case SB_INTERP_TESS_FRACTIONAL_ODD:
        n |= 1;
        break;
    case SB_INTERP_TESS_FRACTIONAL_EVEN:
        n += n & 1;
        break;
    default:
        f = n;
        break;
    }
    return (struct axis){ f, n };
}

/* Position of point i (0..n) along the axis, in [0, 1]. */
static double axis_point(const struct axis *a, uint32_t i)
{
    if (i == 0)
        return 0.0;
    if (i * 2 > a->n)
        return 1.0 - axis_point(a, a->n - i);
    if (i * 2 == a->n)
        return 0.5;
    uint32_t half = a->n / 2; /* segments before the middle (point or segment) */
    double full = 1.0 / a->f;
    if (i < half)
        return i * full;
    /* i == half, odd n: the last first-half segment is the short one. */
    return (half - 1) * full + (a->f - (a->n - 2)) / (2.0 * a->f);
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

/* Adds a point (w used by tris only). Returns its index (0 after a failure). */
static uint32_t add_point3(struct builder *b, double u, double v, double w)
{
    if (b->failed || !grow((void **)&b->points, &b->point_capacity, (b->point_count + 1) * b->components,
                           sizeof(float))) {
        b->failed = true;
        return 0;
    }
    float *p = &b->points[b->point_count * b->components];
    p[0] = (float)u;
    p[1] = (float)v;
    if (b->components == 3)
        p[2] = (float)w;
    return b->point_count++;
}

static uint32_t add_point(struct builder *b, double u, double v)
{
    return add_point3(b, u, v, 0.0);
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

/* Points i = 0..n of `a` on the line from (u0, v0) to (u1, v1); ends are the given indices. */
static uint32_t *line_points(struct builder *b, const struct axis *a, uint32_t first, uint32_t last,
                             double u0, double v0, double u1, double v1)
{
    uint32_t *line = malloc(((size_t)a->n + 1) * sizeof(*line));
    if (!line) {
        b->failed = true;
        return NULL;
    }
    line[0] = first;
    line[a->n] = last;
    for (uint32_t i = 1; i < a->n; i++) {
        double t = axis_point(a, i);
        line[i] = add_point(b, u0 + (u1 - u0) * t, v0 + (v1 - v0) * t);
    }
    return line;
}

static void tessellate_isoline(struct builder *b, const struct axis *density, const struct axis *detail,
                               uint32_t primitive)
{
    for (uint32_t j = 0; j < density->n; j++) {
        /* Lines at v = j / density: v = 1 is never a line (D3D). */
        double v = (double)j / density->n;
        uint32_t first = b->point_count;
        for (uint32_t i = 0; i <= detail->n; i++)
            add_point(b, axis_point(detail, i), v);
        for (uint32_t i = 0; primitive == SB_INTERP_TESS_LINE && i < detail->n; i++) {
            const uint32_t pair[2] = { first + i, first + i + 1 };
            add_indices(b, pair, 2);
        }
    }
}

static void tessellate_quad(struct builder *b, const struct axis edge[4], const struct axis inside[2])
{
    uint32_t c00 = add_point(b, 0, 0), c10 = add_point(b, 1, 0), c01 = add_point(b, 0, 1), c11 = add_point(b, 1, 1);
    if (inside[0].n == 1) {
        /* All factors 1 (the inside rule made every other case at least 2): two triangles. */
        add_triangle(b, c00, c10, c11);
        add_triangle(b, c00, c11, c01);
        return;
    }
    /* The outer ring, each edge from its lower corner to its higher one. */
    uint32_t *outer[4] = {
        line_points(b, &edge[0], c00, c01, 0, 0, 0, 1), line_points(b, &edge[1], c00, c10, 0, 0, 1, 0),
        line_points(b, &edge[2], c10, c11, 1, 0, 1, 1), line_points(b, &edge[3], c01, c11, 0, 1, 1, 1),
    };
    uint32_t nu = inside[0].n - 1, nv = inside[1].n - 1; /* interior grid points per row/column */
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
        stitch(b, outer[0], edge[0].n + 1, column, nv);
        for (uint32_t j = 0; j < nv; j++)
            column[j] = grid[j * nu + nu - 1];
        stitch(b, outer[2], edge[2].n + 1, column, nv);
        stitch(b, outer[1], edge[1].n + 1, &grid[0], nu);
        stitch(b, outer[3], edge[3].n + 1, &grid[(nv - 1) * nu], nu);
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

/* Barycentrics of corner `k` (0: U, 1: V, 2: W) of the ring at distance t from the edges; each
 * coordinate is interpolated on its own, so a point of the w == 0 edge has w exactly 0. */
static void ring_corner(double t, uint32_t k, double c[3])
{
    for (uint32_t i = 0; i < 3; i++)
        c[i] = i == k ? 1.0 - 2.0 * t : t;
}

/*
 * Side s of ring `ring` (s = 0: parallel to u == 0, from V to W; 1: v == 0, W to U;
 * 2: w == 0, U to V) with `segments` segments, or the outer edge s (ring 0, edge factors).
 * The inside factor's points k..n-k, stretched over the side, place a ring's points; rings
 * lie at t = 2/3 of the inside factor's point k, so an even factor's middle ring is the centre.
 */
static uint32_t *tri_side(struct builder *b, const struct axis *inside, uint32_t ring, const uint32_t corner[3],
                          uint32_t s, const struct axis *edge)
{
    static const uint32_t from[3] = { 1, 2, 0 }, to[3] = { 2, 0, 1 };
    double t = ring ? axis_point(inside, ring) * (2.0 / 3.0) : 0.0;
    uint32_t segments = ring ? inside->n - 2 * ring : edge->n;
    uint32_t *side = malloc(((size_t)segments + 1) * sizeof(*side));
    if (!side) {
        b->failed = true;
        return NULL;
    }
    double c0[3], c1[3];
    ring_corner(t, from[s], c0);
    ring_corner(t, to[s], c1);
    side[0] = corner[from[s]];
    side[segments] = corner[to[s]];
    double p0 = ring ? axis_point(inside, ring) : 0.0, p1 = ring ? axis_point(inside, inside->n - ring) : 1.0;
    for (uint32_t i = 1; i < segments; i++) {
        double x = ring ? (axis_point(inside, ring + i) - p0) / (p1 - p0) : axis_point(edge, i);
        side[i] = add_point3(b, c0[0] + (c1[0] - c0[0]) * x, c0[1] + (c1[1] - c0[1]) * x,
                             c0[2] + (c1[2] - c0[2]) * x);
    }
    return side;
}

static void tessellate_tri(struct builder *b, const struct axis edge[3], const struct axis *inside)
{
    uint32_t outer_corner[3] = { add_point3(b, 1, 0, 0), add_point3(b, 0, 1, 0), add_point3(b, 0, 0, 1) };
    if (inside->n == 1) {
        add_triangle(b, outer_corner[0], outer_corner[1], outer_corner[2]);
        return;
    }
    uint32_t *outer[3] = { NULL, NULL, NULL }, *inner[3] = { NULL, NULL, NULL };
    for (uint32_t s = 0; s < 3; s++)
        outer[s] = tri_side(b, inside, 0, outer_corner, s, &edge[s]);
    uint32_t outer_segments[3] = { edge[0].n, edge[1].n, edge[2].n };
    for (uint32_t ring = 1; !b->failed && ring * 2 <= inside->n; ring++) {
        uint32_t segments = inside->n - 2 * ring, corner[3];
        double t = axis_point(inside, ring) * (2.0 / 3.0), c[3];
        for (uint32_t k = 0; k < 3; k++) {
            /* An even factor's last ring is one point: its three corners coincide. */
            ring_corner(t, k, c);
            corner[k] = segments == 0 && k ? corner[0] : add_point3(b, c[0], c[1], c[2]);
        }
        for (uint32_t s = 0; s < 3; s++)
            inner[s] = tri_side(b, inside, ring, corner, s, NULL);
        for (uint32_t s = 0; s < 3 && !b->failed; s++)
            if (!outer[s] || !inner[s])
                b->failed = true;
        for (uint32_t s = 0; s < 3 && !b->failed; s++)
            stitch(b, outer[s], outer_segments[s] + 1, inner[s], segments + 1);
        if (segments == 1)
            add_triangle(b, corner[0], corner[1], corner[2]);
        for (uint32_t s = 0; s < 3; s++) {
            free(outer[s]);
            outer[s] = inner[s];
            inner[s] = NULL;
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

/* The processed axes of a patch (edge[k], inside[k]); false when the patch is culled. */
static bool process_patch(const struct sb_interp_tess_input *in, struct axis edge[4], struct axis inside[2])
{
    uint32_t domain = in->domain, partitioning = in->partitioning;
    bool isoline = domain == SB_INTERP_TESS_ISOLINE;
    uint32_t edges = isoline ? 2 : domain == SB_INTERP_TESS_TRI ? 3 : 4;
    for (uint32_t k = 0; k < edges; k++)
        if (edge_culls(in->edge[k]))
            return false;
    float max_factor = in->max_factor >= 1.0f && in->max_factor <= 64.0f ? in->max_factor : 64.0f;
    if (isoline) {
        /* Density is always integer-partitioned; detail follows the declared mode. */
        edge[0] = process(in->edge[0], SB_INTERP_TESS_INTEGER, max_factor);
        edge[1] = process(in->edge[1], partitioning, max_factor);
        return true;
    }
    uint32_t insides = domain == SB_INTERP_TESS_TRI ? 1 : 2;
    bool above_one = false;
    for (uint32_t k = 0; k < edges; k++) {
        edge[k] = process(in->edge[k], partitioning, max_factor);
        above_one |= edge[k].n > 1;
    }
    for (uint32_t k = 0; k < insides; k++) {
        inside[k] = process(in->inside[k], partitioning, max_factor);
        above_one |= inside[k].n > 1;
    }
    /* D3D: an inside factor of 1 beside a larger factor still gets interior points. */
    for (uint32_t k = 0; above_one && k < insides; k++)
        if (inside[k].n == 1)
            inside[k] = process(nextafterf(1.0f, 2.0f), partitioning, 64.0f);
    return true;
}

static void store_factors(const struct axis edge[4], const struct axis inside[2], float edge_factor[4],
                          uint32_t edge_segments[4], float inside_factor[2], uint32_t inside_segments[2])
{
    for (uint32_t k = 0; k < 4; k++) {
        edge_factor[k] = (float)edge[k].f;
        edge_segments[k] = edge[k].n;
    }
    for (uint32_t k = 0; k < 2; k++) {
        inside_factor[k] = (float)inside[k].f;
        inside_segments[k] = inside[k].n;
    }
}

bool sb_interp_tess_process(const struct sb_interp_tess_input *in, struct sb_interp_tess_factors *out)
{
    memset(out, 0, sizeof(*out));
    if (!known_state(in))
        return false;
    struct axis edge[4] = { { 0, 0 } }, inside[2] = { { 0, 0 } };
    out->culled = !process_patch(in, edge, inside);
    if (!out->culled)
        store_factors(edge, inside, out->edge_factor, out->edge_segments, out->inside_factor, out->inside_segments);
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
    struct axis edge[4] = { { 0, 0 } }, inside[2] = { { 0, 0 } };
    if (!process_patch(in, edge, inside)) {
        out->culled = true;
        return true;
    }
    struct builder b = { .components = out->components };
    if (isoline) {
        tessellate_isoline(&b, &edge[0], &edge[1], primitive);
    } else {
        if (domain == SB_INTERP_TESS_TRI)
            tessellate_tri(&b, edge, &inside[0]);
        else
            tessellate_quad(&b, edge, inside);
        if (!b.failed && primitive != SB_INTERP_TESS_POINT)
            wind(&b, primitive == SB_INTERP_TESS_TRIANGLE_CW);
    }
    if (!b.failed && primitive == SB_INTERP_TESS_POINT) {
        /* Points: each domain point once, replacing any topology built on the way. */
        b.index_count = 0;
        for (uint32_t i = 0; i < b.point_count; i++)
            add_indices(&b, &i, 1);
    }
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
    store_factors(edge, inside, out->edge_factor, out->edge_segments, out->inside_factor, out->inside_segments);
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
