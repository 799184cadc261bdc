/* SPDX-License-Identifier: MIT */
/*
 * The CPU tessellator (runtime/src/interp/interp_tessellator.c,
 * sb_interp_tessellate) on patches whose points and counts are worked out by
 * hand from D3D11's rules in the comment beside each expected value: quads,
 * tris and isolines with integer factors, pow2 rounding, fractional_odd and
 * fractional_even placement, the inside-factor-1 rule, culling, the
 * dcl_hs_max_tessfactor clamp, winding and point output. Then random factor
 * sets of every domain and partitioning must give indices in range, points in
 * the domain, a triangulation that covers the domain exactly once (areas sum
 * to the domain's, all of the requested sign, none zero for integer
 * partitioning) and the counts a triangulated disc must have.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "interp_private.h"
#include "check.h"

static struct sb_interp_tess_input input(uint32_t domain, uint32_t partitioning, uint32_t primitive, float e0,
                                         float e1, float e2, float e3, float i0, float i1)
{
    return (struct sb_interp_tess_input){ domain, partitioning, primitive, { e0, e1, e2, e3 }, { i0, i1 }, 0.0f };
}

/* True when the output holds a point (u, v) (and w for tris, when w >= 0) within 1e-6. */
static bool has_point(const struct sb_interp_tess_output *o, double u, double v, double w)
{
    for (uint32_t i = 0; i < o->point_count; i++) {
        const float *p = &o->points[i * o->components];
        if (fabs(p[0] - u) < 1e-6 && fabs(p[1] - v) < 1e-6 && (o->components == 2 || fabs(p[2] - w) < 1e-6))
            return true;
    }
    return false;
}

/* Signed (u x v) area of triangle t. */
static double area(const struct sb_interp_tess_output *o, uint32_t t)
{
    const uint32_t *i = &o->indices[t * 3];
    const float *a = &o->points[i[0] * o->components], *b = &o->points[i[1] * o->components],
                *c = &o->points[i[2] * o->components];
    return 0.5 * (((double)b[0] - a[0]) * ((double)c[1] - a[1]) - ((double)b[1] - a[1]) * ((double)c[0] - a[0]));
}

/* Isoline u positions of line 0 (points detail+1 in order) against `want`. */
static void check_isoline_u(uint32_t partitioning, float detail, const double *want, uint32_t count)
{
    struct sb_interp_tess_input in =
        input(SB_INTERP_TESS_ISOLINE, partitioning, SB_INTERP_TESS_LINE, 1.0f, detail, 0, 0, 0, 0);
    struct sb_interp_tess_output o;
    CHECK(sb_interp_tessellate(&in, &o), "isoline mode %u detail %g", partitioning, detail);
    CHECK(o.point_count == count, "mode %u detail %g: %u points, want %u", partitioning, detail, o.point_count,
          count);
    for (uint32_t i = 0; i < count && i < o.point_count; i++)
        CHECK(fabs(o.points[i * 2] - want[i]) < 1e-6 && o.points[i * 2 + 1] == 0.0f,
              "mode %u detail %g point %u: (%.7f, %g), want u %.7f", partitioning, detail, i, o.points[i * 2],
              o.points[i * 2 + 1], want[i]);
    CHECK(o.index_count == 2 * (count - 1), "%u indices, want %u", o.index_count, 2 * (count - 1));
    sb_interp_tess_release(&o);
}

static void test_known_answers(void)
{
    struct sb_interp_tess_output o;
    struct sb_interp_tess_input in;

    /* Quad, integer, all 1: no subdivision, the four corners, two triangles. */
    in = input(SB_INTERP_TESS_QUAD, SB_INTERP_TESS_INTEGER, SB_INTERP_TESS_TRIANGLE_CW, 1, 1, 1, 1, 1, 1);
    CHECK(sb_interp_tessellate(&in, &o), "quad 1");
    CHECK(o.point_count == 4 && o.index_count == 6, "quad 1: %u points %u indices", o.point_count, o.index_count);
    CHECK(has_point(&o, 0, 0, -1) && has_point(&o, 1, 0, -1) && has_point(&o, 0, 1, -1) && has_point(&o, 1, 1, -1),
          "quad 1 corners");
    sb_interp_tess_release(&o);

    /* Quad, integer, all 2: corners, 4 edge midpoints, the centre = 9 points; each edge's two
     * segments fan to the centre = 8 triangles of area 1/8. */
    in = input(SB_INTERP_TESS_QUAD, SB_INTERP_TESS_INTEGER, SB_INTERP_TESS_TRIANGLE_CW, 2, 2, 2, 2, 2, 2);
    CHECK(sb_interp_tessellate(&in, &o), "quad 2");
    CHECK(o.point_count == 9 && o.index_count == 24, "quad 2: %u points %u indices", o.point_count,
          o.index_count);
    for (int j = 0; j < 3; j++)
        for (int i = 0; i < 3; i++)
            CHECK(has_point(&o, i * 0.5, j * 0.5, -1), "quad 2 point (%g, %g)", i * 0.5, j * 0.5);
    for (uint32_t t = 0; t < o.index_count / 3; t++)
        CHECK(fabs(area(&o, t) - 0.125) < 1e-7, "quad 2 triangle %u area %g, want +1/8 (cw)", t, area(&o, t));
    sb_interp_tess_release(&o);

    /* Tri, integer, all 1: the three corners, one triangle. */
    in = input(SB_INTERP_TESS_TRI, SB_INTERP_TESS_INTEGER, SB_INTERP_TESS_TRIANGLE_CW, 1, 1, 1, 0, 1, 0);
    CHECK(sb_interp_tessellate(&in, &o), "tri 1");
    CHECK(o.point_count == 3 && o.index_count == 3 && o.components == 3, "tri 1: %u points %u indices",
          o.point_count, o.index_count);
    CHECK(has_point(&o, 1, 0, 0) && has_point(&o, 0, 1, 0) && has_point(&o, 0, 0, 1), "tri 1 corners");
    sb_interp_tess_release(&o);

    /* Tri, integer, all 2: corners + 3 edge midpoints + the inside factor's one-point ring at the
     * centre (1/3, 1/3, 1/3) = 7 points; each edge's 2 segments fan to it = 6 triangles. */
    in = input(SB_INTERP_TESS_TRI, SB_INTERP_TESS_INTEGER, SB_INTERP_TESS_TRIANGLE_CW, 2, 2, 2, 0, 2, 0);
    CHECK(sb_interp_tessellate(&in, &o), "tri 2");
    CHECK(o.point_count == 7 && o.index_count == 18, "tri 2: %u points %u indices", o.point_count, o.index_count);
    CHECK(has_point(&o, 0, 0.5, 0.5) && has_point(&o, 0.5, 0, 0.5) && has_point(&o, 0.5, 0.5, 0),
          "tri 2 midpoints");
    CHECK(has_point(&o, 1.0 / 3, 1.0 / 3, 1.0 / 3), "tri 2 centre");
    sb_interp_tess_release(&o);

    /* Tri, integer, all 3: 9 outer points; ring 1 (one segment a side) is a triangle at
     * t = 2/3 * (1/3) = 2/9 from each edge: corners (5/9, 2/9, 2/9) and its turns. 12 points;
     * stitches 3 * (3 + 1) = 12 triangles + the inner one = 13. */
    in = input(SB_INTERP_TESS_TRI, SB_INTERP_TESS_INTEGER, SB_INTERP_TESS_TRIANGLE_CCW, 3, 3, 3, 0, 3, 0);
    CHECK(sb_interp_tessellate(&in, &o), "tri 3");
    CHECK(o.point_count == 12 && o.index_count == 39, "tri 3: %u points %u indices", o.point_count,
          o.index_count);
    CHECK(has_point(&o, 5.0 / 9, 2.0 / 9, 2.0 / 9) && has_point(&o, 2.0 / 9, 5.0 / 9, 2.0 / 9) &&
              has_point(&o, 2.0 / 9, 2.0 / 9, 5.0 / 9),
          "tri 3 inner ring");
    CHECK(has_point(&o, 0, 1.0 / 3, 2.0 / 3) && has_point(&o, 2.0 / 3, 1.0 / 3, 0), "tri 3 edge thirds");
    sb_interp_tess_release(&o);

    /* Isoline density 2, detail 1: lines at v = 0 and v = 1/2 (v = 1 never is one), each
     * of one segment: 4 points, 2 lines. */
    in = input(SB_INTERP_TESS_ISOLINE, SB_INTERP_TESS_INTEGER, SB_INTERP_TESS_LINE, 2, 1, 0, 0, 0, 0);
    CHECK(sb_interp_tessellate(&in, &o), "isoline 2x1");
    CHECK(o.point_count == 4 && o.index_count == 4 && o.components == 2, "isoline 2x1: %u points %u indices",
          o.point_count, o.index_count);
    CHECK(has_point(&o, 0, 0, -1) && has_point(&o, 1, 0, -1) && has_point(&o, 0, 0.5, -1) &&
              has_point(&o, 1, 0.5, -1),
          "isoline 2x1 points");
    sb_interp_tess_release(&o);

    /* Density rounds as an integer whatever the mode: fractional_even density 2.2 -> 3 lines
     * (v = 0, 1/3, 2/3), detail 2.2 -> even 4. */
    in = input(SB_INTERP_TESS_ISOLINE, SB_INTERP_TESS_FRACTIONAL_EVEN, SB_INTERP_TESS_LINE, 2.2f, 2.2f, 0, 0, 0,
               0);
    CHECK(sb_interp_tessellate(&in, &o), "isoline even");
    CHECK(o.edge_segments[0] == 3 && o.edge_segments[1] == 4 && o.point_count == 15,
          "isoline even: density %u detail %u points %u", o.edge_segments[0], o.edge_segments[1], o.point_count);
    CHECK(has_point(&o, 0, 2.0 / 3, -1), "isoline even: line at v = 2/3");
    sb_interp_tess_release(&o);

    /* pow2 3 -> ceil 3 -> next power of two 4: u = i / 4. */
    static const double pow2_3[] = { 0, 0.25, 0.5, 0.75, 1 };
    check_isoline_u(SB_INTERP_TESS_POW2, 3.0f, pow2_3, 5);
    /* pow2 5 -> 8. */
    static const double pow2_5[] = { 0, 0.125, 0.25, 0.375, 0.5, 0.625, 0.75, 0.875, 1 };
    check_isoline_u(SB_INTERP_TESS_POW2, 5.0f, pow2_5, 9);
    /* fractional_odd 2.5 -> n = 3: one full segment 1/2.5 = 0.4 in the middle, two short ones
     * (2.5 - 1) / 5 = 0.3 beside it: 0, 0.3, 0.7, 1. */
    static const double odd_2_5[] = { 0, 0.3, 0.7, 1 };
    check_isoline_u(SB_INTERP_TESS_FRACTIONAL_ODD, 2.5f, odd_2_5, 4);
    /* fractional_odd 4.5 -> n = 5: full 1/4.5 = 2/9, short (4.5 - 3) / 9 = 1/6 next to the
     * middle segment: 0, 2/9, 2/9 + 1/6 = 7/18, 11/18, 7/9, 1. */
    static const double odd_4_5[] = { 0, 2.0 / 9, 7.0 / 18, 11.0 / 18, 7.0 / 9, 1 };
    check_isoline_u(SB_INTERP_TESS_FRACTIONAL_ODD, 4.5f, odd_4_5, 6);
    /* fractional_even 3 -> n = 4: full 1/3, short (3 - 2) / 6 = 1/6 either side of the middle
     * point: 0, 1/3, 1/2, 2/3, 1. */
    static const double even_3[] = { 0, 1.0 / 3, 0.5, 2.0 / 3, 1 };
    check_isoline_u(SB_INTERP_TESS_FRACTIONAL_EVEN, 3.0f, even_3, 5);
    /* fractional_even 1 clamps to 2 (the mode's minimum): 0, 1/2, 1. */
    static const double even_1[] = { 0, 0.5, 1 };
    check_isoline_u(SB_INTERP_TESS_FRACTIONAL_EVEN, 1.0f, even_1, 3);
    /* fractional_odd 3 exactly: n = f, all segments 1/3. */
    static const double odd_3[] = { 0, 1.0 / 3, 2.0 / 3, 1 };
    check_isoline_u(SB_INTERP_TESS_FRACTIONAL_ODD, 3.0f, odd_3, 4);
    /* integer 2.01 -> ceil 3: thirds. */
    check_isoline_u(SB_INTERP_TESS_INTEGER, 2.01f, odd_3, 4);
    /* fractional_odd 100 clamps to 63 (odd's maximum): 64 points. */
    in = input(SB_INTERP_TESS_ISOLINE, SB_INTERP_TESS_FRACTIONAL_ODD, SB_INTERP_TESS_LINE, 1, 100, 0, 0, 0, 0);
    CHECK(sb_interp_tessellate(&in, &o) && o.edge_segments[1] == 63 && o.edge_factor[1] == 63.0f,
          "odd 100: %u segments", o.edge_segments[1]);
    sb_interp_tess_release(&o);
}

static void test_rules(void)
{
    struct sb_interp_tess_output o;
    struct sb_interp_tess_input in;

    /* A used edge factor of 0, -1 or NaN culls; an unused one (quad edge 3 of a tri) does not. */
    const float bad[] = { 0.0f, -1.0f, NAN, -0.0f };
    for (uint32_t k = 0; k < 4; k++) {
        in = input(SB_INTERP_TESS_QUAD, SB_INTERP_TESS_INTEGER, SB_INTERP_TESS_TRIANGLE_CW, 4, 4, 4, bad[k], 4, 4);
        CHECK(sb_interp_tessellate(&in, &o) && o.culled && o.point_count == 0 && o.index_count == 0 && !o.points,
              "quad edge %g: culled %d, %u points", bad[k], o.culled, o.point_count);
        sb_interp_tess_release(&o);
        in = input(SB_INTERP_TESS_ISOLINE, SB_INTERP_TESS_INTEGER, SB_INTERP_TESS_LINE, bad[k], 4, 0, 0, 0, 0);
        CHECK(sb_interp_tessellate(&in, &o) && o.culled, "isoline density %g not culled", bad[k]);
        sb_interp_tess_release(&o);
    }
    in = input(SB_INTERP_TESS_TRI, SB_INTERP_TESS_INTEGER, SB_INTERP_TESS_TRIANGLE_CW, 1, 1, 1, NAN, 1, NAN);
    CHECK(sb_interp_tessellate(&in, &o) && !o.culled && o.point_count == 3, "tri with unused NaN culled");
    sb_interp_tess_release(&o);
    /* A NaN inside factor does not cull: it takes the minimum (here 1 -> bumped, below). */
    in = input(SB_INTERP_TESS_QUAD, SB_INTERP_TESS_INTEGER, SB_INTERP_TESS_TRIANGLE_CW, 1, 1, 1, 1, NAN, NAN);
    CHECK(sb_interp_tessellate(&in, &o) && !o.culled && o.point_count == 4, "quad NaN inside");
    sb_interp_tess_release(&o);

    /* dcl_hs_max_tessfactor 4: integer edges of 10 become 4 segments (quad 4x4 inside too):
     * 16 boundary points + 3 * 3 interior = 25. */
    in = input(SB_INTERP_TESS_QUAD, SB_INTERP_TESS_INTEGER, SB_INTERP_TESS_TRIANGLE_CW, 10, 10, 10, 10, 10, 10);
    in.max_factor = 4.0f;
    CHECK(sb_interp_tessellate(&in, &o) && o.edge_segments[0] == 4 && o.inside_segments[1] == 4 &&
              o.point_count == 25,
          "max 4: %u segments, %u points", o.edge_segments[0], o.point_count);
    sb_interp_tess_release(&o);
    /* max 5.5 with fractional_odd 10: clamped to 5.5, rounded to odd 7, placement by 5.5. */
    in = input(SB_INTERP_TESS_ISOLINE, SB_INTERP_TESS_FRACTIONAL_ODD, SB_INTERP_TESS_LINE, 1, 10, 0, 0, 0, 0);
    in.max_factor = 5.5f;
    CHECK(sb_interp_tessellate(&in, &o) && o.edge_segments[1] == 7 && o.edge_factor[1] == 5.5f,
          "odd max 5.5: %u segments factor %g", o.edge_segments[1], o.edge_factor[1]);
    sb_interp_tess_release(&o);
    /* pow2 max 40 with factor 33: 33 -> 64 would pass the max, so 32. */
    in = input(SB_INTERP_TESS_ISOLINE, SB_INTERP_TESS_POW2, SB_INTERP_TESS_LINE, 1, 33, 0, 0, 0, 0);
    in.max_factor = 40.0f;
    CHECK(sb_interp_tessellate(&in, &o) && o.edge_segments[1] == 32, "pow2 max 40: %u", o.edge_segments[1]);
    sb_interp_tess_release(&o);

    /* Inside 1 beside edges of 3 (integer): the inside becomes 2, one interior point (the centre)
     * for 12 boundary points: 13 points, 12 triangles. */
    in = input(SB_INTERP_TESS_QUAD, SB_INTERP_TESS_INTEGER, SB_INTERP_TESS_TRIANGLE_CW, 3, 3, 3, 3, 1, 1);
    CHECK(sb_interp_tessellate(&in, &o) && o.inside_segments[0] == 2 && o.inside_segments[1] == 2 &&
              o.point_count == 13 && o.index_count == 36,
          "quad inside 1: %u/%u, %u points, %u indices", o.inside_segments[0], o.inside_segments[1], o.point_count,
          o.index_count);
    CHECK(has_point(&o, 0.5, 0.5, -1), "quad inside 1: centre");
    sb_interp_tess_release(&o);
    in = input(SB_INTERP_TESS_TRI, SB_INTERP_TESS_INTEGER, SB_INTERP_TESS_TRIANGLE_CW, 1, 1, 2, 0, 1, 0);
    CHECK(sb_interp_tessellate(&in, &o) && o.inside_segments[0] == 2 && o.point_count == 5,
          "tri inside 1, one edge 2: %u, %u points", o.inside_segments[0], o.point_count);
    sb_interp_tess_release(&o);

    /* Winding: the same quad cw and ccw gives the same triangles with opposite signs. */
    struct sb_interp_tess_output cw, ccw;
    in = input(SB_INTERP_TESS_QUAD, SB_INTERP_TESS_FRACTIONAL_ODD, SB_INTERP_TESS_TRIANGLE_CW, 2.5f, 3, 4.2f, 7,
               3.3f, 5);
    CHECK(sb_interp_tessellate(&in, &cw), "cw");
    in.output_primitive = SB_INTERP_TESS_TRIANGLE_CCW;
    CHECK(sb_interp_tessellate(&in, &ccw), "ccw");
    CHECK(cw.index_count == ccw.index_count && cw.index_count > 0, "winding counts %u %u", cw.index_count,
          ccw.index_count);
    for (uint32_t t = 0; t < cw.index_count / 3 && t < ccw.index_count / 3; t++) {
        CHECK(area(&cw, t) > 0 && area(&ccw, t) < 0 && fabs(area(&cw, t) + area(&ccw, t)) < 1e-12,
              "triangle %u: cw %g ccw %g", t, area(&cw, t), area(&ccw, t));
        CHECK(cw.indices[t * 3] == ccw.indices[t * 3] && cw.indices[t * 3 + 1] == ccw.indices[t * 3 + 2],
              "triangle %u not the mirror", t);
    }
    /* Point output: the same points, each once. */
    in.output_primitive = SB_INTERP_TESS_POINT;
    CHECK(sb_interp_tessellate(&in, &o) && o.point_count == cw.point_count && o.index_count == o.point_count &&
              o.indices[o.index_count - 1] == o.point_count - 1,
          "points: %u points %u indices", o.point_count, o.index_count);
    sb_interp_tess_release(&o);
    sb_interp_tess_release(&cw);
    sb_interp_tess_release(&ccw);

    /* Refused: lines from a quad, triangles from an isoline, unknown modes. */
    in = input(SB_INTERP_TESS_QUAD, SB_INTERP_TESS_INTEGER, SB_INTERP_TESS_LINE, 1, 1, 1, 1, 1, 1);
    CHECK(!sb_interp_tessellate(&in, &o) && !o.points, "quad lines accepted");
    in = input(SB_INTERP_TESS_ISOLINE, SB_INTERP_TESS_INTEGER, SB_INTERP_TESS_TRIANGLE_CW, 1, 1, 0, 0, 0, 0);
    CHECK(!sb_interp_tessellate(&in, &o), "isoline triangles accepted");
    in = input(4, SB_INTERP_TESS_INTEGER, SB_INTERP_TESS_POINT, 1, 1, 1, 1, 1, 1);
    CHECK(!sb_interp_tessellate(&in, &o), "domain 4 accepted");
    in = input(SB_INTERP_TESS_QUAD, 5, SB_INTERP_TESS_POINT, 1, 1, 1, 1, 1, 1);
    CHECK(!sb_interp_tessellate(&in, &o), "partitioning 5 accepted");
    sb_interp_tess_release(NULL);
}

static float random_factor(uint32_t *seed)
{
    *seed = *seed * 1664525u + 1013904223u;
    return 0.5f + (float)(*seed >> 8) / (float)(1u << 24) * 70.0f; /* (0.5, 70.5): past both ends */
}

/* Random patches: the invariants every tessellation must keep. */
static void test_random(void)
{
    uint32_t seed = 12345;
    for (uint32_t round = 0; round < 600; round++) {
        uint32_t domain = 1 + round % 3, partitioning = 1 + (round / 3) % 4;
        uint32_t primitive = domain == SB_INTERP_TESS_ISOLINE ? SB_INTERP_TESS_LINE
                                                              : SB_INTERP_TESS_TRIANGLE_CW + (round / 12) % 2;
        /* A third of the rounds use small factors, where the special cases live. */
        float scale = round % 3 == 0 ? 0.1f : 1.0f;
        struct sb_interp_tess_input in = { domain, partitioning, primitive, { 0 }, { 0 }, 0.0f };
        for (int k = 0; k < 4; k++)
            in.edge[k] = random_factor(&seed) * scale;
        for (int k = 0; k < 2; k++)
            in.inside[k] = random_factor(&seed) * scale;
        struct sb_interp_tess_output o;
        if (!sb_interp_tessellate(&in, &o)) {
            CHECK(false, "round %u refused", round);
            continue;
        }
        uint32_t c = o.components;
        for (uint32_t i = 0; i < o.index_count; i++)
            CHECK(o.indices[i] < o.point_count, "round %u index %u = %u of %u", round, i, o.indices[i], o.point_count);
        uint32_t boundary = 0, outside = 0;
        for (uint32_t i = 0; i < o.point_count; i++) {
            const float *p = &o.points[i * c];
            bool in_domain = p[0] >= 0 && p[0] <= 1 && p[1] >= 0 && p[1] <= 1;
            if (c == 3)
                in_domain = in_domain && p[2] >= 0 && fabs((double)p[0] + p[1] + p[2] - 1.0) < 1e-6;
            outside += !in_domain;
            bool edge = p[0] == 0 || p[1] == 0 || (c == 3 ? p[2] == 0 : (p[0] == 1 || p[1] == 1));
            boundary += edge;
        }
        CHECK(outside == 0, "round %u: %u points outside the domain", round, outside);
        if (domain == SB_INTERP_TESS_ISOLINE) {
            uint32_t lines = o.edge_segments[0], detail = o.edge_segments[1];
            CHECK(o.point_count == lines * (detail + 1) && o.index_count == 2 * lines * detail,
                  "round %u isoline %ux%u: %u points %u indices", round, lines, detail, o.point_count,
                  o.index_count);
        } else {
            uint32_t edges = domain == SB_INTERP_TESS_TRI ? 3 : 4, sum = 0;
            for (uint32_t k = 0; k < edges; k++)
                sum += o.edge_segments[k];
            /* The boundary holds exactly the edges' points; a triangulated disc of P points, B on
             * its boundary, has 2P - B - 2 triangles (Euler). */
            CHECK(boundary == sum, "round %u: %u boundary points, edges sum %u", round, boundary, sum);
            uint32_t triangles = o.index_count / 3;
            CHECK(triangles == 2 * o.point_count - boundary - 2, "round %u: %u triangles, %u points %u boundary",
                  round, triangles, o.point_count, boundary);
            if (domain == SB_INTERP_TESS_QUAD && partitioning <= SB_INTERP_TESS_POW2) {
                /* D3D gives the integer quad's count: boundary + the inside grid's interior. */
                uint32_t nu = o.inside_segments[0], nv = o.inside_segments[1];
                uint32_t interior = nu > 1 ? (nu - 1) * (nv - 1) : 0;
                CHECK(o.point_count == sum + interior, "round %u: %u points, want %u + %u", round, o.point_count,
                      sum, interior);
            }
            double total = 0, sign = primitive == SB_INTERP_TESS_TRIANGLE_CW ? 1 : -1;
            uint32_t wrong = 0, zero = 0;
            for (uint32_t t = 0; t < triangles; t++) {
                double a = area(&o, t) * sign;
                total += a;
                wrong += a < 0;
                zero += a == 0;
            }
            double want = domain == SB_INTERP_TESS_TRI ? 0.5 : 1.0;
            CHECK(wrong == 0, "round %u: %u triangles wound the wrong way", round, wrong);
            CHECK(fabs(total - want) < 1e-4, "round %u: area %g, want %g", round, total, want);
            if (partitioning <= SB_INTERP_TESS_POW2)
                CHECK(zero == 0, "round %u: %u zero-area triangles", round, zero);
        }
        sb_interp_tess_release(&o);
    }
}

int main(void)
{
    test_known_answers();
    test_rules();
    test_random();
    if (failures)
        fprintf(stderr, "test_interp_tessellator: %u failures\n", failures);
    return failures ? 1 : 0;
}
