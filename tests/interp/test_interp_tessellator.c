/* SPDX-License-Identifier: MIT */
/*
 * The CPU tessellator (runtime/src/interp/interp_tessellator.c,
 * sb_interp_tessellate) on patches whose points and counts are worked out by
 * hand from D3D11's rules (16.16 fixed point) in the comment beside each
 * expected value: one axis per partitioning at factors such as 1.5, 2.3, 3.75
 * and 5.5; whole point sets of quads, tris and isolines in every
 * partitioning, the inside-factor-1 rules (integer: placed as 2;
 * fractional_odd: the 1 + 2^-16 frame on the corners), culling, the
 * dcl_hs_max_tessfactor clamp, winding and point output. Then random factor
 * sets of every domain and partitioning must give indices in range, points in
 * the domain, a triangulation that covers the domain exactly once (areas sum
 * to the domain's, all of the requested sign, none zero for integer
 * partitioning), the counts a triangulated disc must have, and as points the
 * same points each once.
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

/*
 * Expected positions are 16.16 fixed-point integers (the tessellator's arithmetic, D3D11.3 §11.7.14):
 * the output float is exactly x / 65536. Derivation of one axis' points for a factor f (the rules in
 * interp_tessellator.c's opening comment):
 *   F = f in 16.16 (round to nearest even); h = floor((F + 1) / 2), plus 0.5 for odd parity (and
 *   for an even F = 1); lo = floor(h), hi = ceil(h), t = the fraction of h in 1/65536;
 *   segments S_lo = 2 lo (- 1 odd), S_hi = 2 hi (- 1 odd), steps R(S) = round(65536 / S);
 *   split = none (lo == hi), 0 (odd, lo == 1), 2 * (lo - 1 without its top bit) + 1 (odd),
 *   2 * (lo without its top bit) + 1 (even);
 *   point i < hi: c = i - (i > split), x_i = (c R(S_lo) (65536 - t) + i R(S_hi) t + 32768) >> 16;
 *   even: x_hi = 32768; the rest mirror: x_(S_hi - i) = 65536 - x_i.
 */
struct expect {
    uint32_t count;
    uint32_t p[64][2];
};

static void expect_add(struct expect *e, uint32_t u, uint32_t v)
{
    for (uint32_t i = 0; i < e->count; i++)
        if (e->p[i][0] == u && e->p[i][1] == v)
            return;
    if (e->count < 64) {
        e->p[e->count][0] = u;
        e->p[e->count][1] = v;
        e->count++;
    }
}

/* The output (point primitive: each point once) holds exactly the expected set, w = 1 - u - v for tris. */
static void check_set(const struct sb_interp_tess_output *o, const struct expect *e, const char *what)
{
    CHECK(o->point_count == e->count, "%s: %u points, want %u", what, o->point_count, e->count);
    for (uint32_t i = 0; i < e->count; i++) {
        bool found = false;
        for (uint32_t k = 0; k < o->point_count && !found; k++) {
            const float *p = &o->points[k * o->components];
            found = p[0] == e->p[i][0] / 65536.0f && p[1] == e->p[i][1] / 65536.0f &&
                    (o->components == 2 || p[2] == (65536 - e->p[i][0] - e->p[i][1]) / 65536.0f);
        }
        CHECK(found, "%s: point (%u, %u)/65536 missing", what, e->p[i][0], e->p[i][1]);
    }
}

/* Isoline u positions of line 0 (points detail+1 in order, 16.16) against `want`. */
static void check_axis(uint32_t partitioning, float detail, const uint32_t *want, uint32_t count)
{
    struct sb_interp_tess_input in =
        input(SB_INTERP_TESS_ISOLINE, partitioning, SB_INTERP_TESS_LINE, 1.0f, detail, 0, 0, 0, 0);
    struct sb_interp_tess_output o;
    CHECK(sb_interp_tessellate(&in, &o), "isoline mode %u detail %g", partitioning, detail);
    CHECK(o.point_count == count && o.edge_segments[1] == count - 1, "mode %u detail %g: %u points, want %u",
          partitioning, detail, o.point_count, count);
    for (uint32_t i = 0; i < count && i < o.point_count; i++)
        CHECK(o.points[i * 2] == want[i] / 65536.0f && o.points[i * 2 + 1] == 0.0f,
              "mode %u detail %g point %u: (%.7f, %g), want u %u/65536", partitioning, detail, i,
              o.points[i * 2] * 65536.0, o.points[i * 2 + 1], want[i]);
    CHECK(o.index_count == 2 * (count - 1), "%u indices, want %u", o.index_count, 2 * (count - 1));
    sb_interp_tess_release(&o);
}

/* One axis per factor and partitioning, worked out by the rule above. */
static const uint32_t int_3[] = { 0, 21845, 43691, 65536 }; /* odd 3: lo = hi = 2, x1 = R(3) = 21845 */
static const uint32_t pow2_4[] = { 0, 16384, 32768, 49152, 65536 }; /* even 4: R(4) = 16384, middle 32768 */
static const uint32_t pow2_8[] = { 0, 8192, 16384, 24576, 32768, 40960, 49152, 57344, 65536 };
/* odd 1.5: F = 98304, h = 49152 + 32768 = 81920 (1.25): lo 1, hi 2, t = 16384, split 0; S 1 and 3;
 * x1 = (0 + 1 * 21845 * 16384 + 32768) >> 16 = 5461 (about 1/12, as lavapipe places it). */
static const uint32_t odd_1_5[] = { 0, 5461, 60075, 65536 };
/* odd 2.3: 2.3f * 65536 = 150732.8 -> F = 150733, h = 75367 + 32768 = 108135: t = 42599;
 * x1 = (21845 * 42599 + 32768) >> 16 = 930607923 >> 16 = 14199. */
static const uint32_t odd_2_3[] = { 0, 14199, 51337, 65536 };
/* odd 2.5: h = 81920 + 32768 = 114688, t = 49152: x1 = (21845 * 49152 + 32768) >> 16 = 16384. */
static const uint32_t odd_2_5[] = { 0, 16384, 49152, 65536 };
/* odd 3.75: F = 245760, h = 122880 + 32768 = 155648 (2.375): lo 2, hi 3, t = 24576, split
 * 2 * (1 without top bit = 0) + 1 = 1; S 3 (R 21845) and 5 (R 13107);
 * x1 = (1 * 21845 * 40960 + 1 * 13107 * 24576 + 32768) >> 16 = 1216921600 >> 16 = 18568;
 * x2 (c = 1) = (21845 * 40960 + 2 * 13107 * 24576 + 32768) >> 16 = 1539039232 >> 16 = 23483:
 * the short segment is x1..x2, next to the ends, not the middle. */
static const uint32_t odd_3_75[] = { 0, 18568, 23483, 42053, 46968, 65536 };
/* odd 5.5: F = 360448, h = 180224 + 32768 = 212992 (3.25): lo 3, hi 4, t = 16384, split
 * 2 * (2 without top bit = 0) + 1 = 1; S 5 (R 13107) and 7 (R 9362);
 * x1 = (13107 * 49152 + 9362 * 16384 + 32768) >> 16 = 797655040 >> 16 = 12171;
 * x2 = (1 * 13107 * 49152 + 2 * 9362 * 16384 + 32768) >> 16 = 951042048 >> 16 = 14511;
 * x3 = (2 * 13107 * 49152 + 3 * 9362 * 16384 + 32768) >> 16 = 1748664320 >> 16 = 26682. */
static const uint32_t odd_5_5[] = { 0, 12171, 14511, 26682, 38854, 51025, 53365, 65536 };
/* even 2 (also 1 and 1.5, clamped to 2): h = 65536: lo = hi = 1, S 2: 0, middle, 1. */
static const uint32_t even_2[] = { 0, 32768, 65536 };
/* even 2.3: h = 150734 / 2 = 75367 (1.15): lo 1, hi 2, t = 9831, split 2 * 0 + 1 = 1; S 2 (R 32768)
 * and 4 (R 16384); x1 = (32768 * 55705 + 16384 * 9831 + 32768) >> 16 = 1986445312 >> 16 = 30310:
 * the new points leave the middle. */
static const uint32_t even_2_3[] = { 0, 30310, 32768, 35226, 65536 };
/* even 3: h = 98304, t = 32768: x1 = (32768 * 32768 + 16384 * 32768 + 32768) >> 16 = 24576. */
static const uint32_t even_3[] = { 0, 24576, 32768, 40960, 65536 };
/* even 3.75: h = 122880, t = 57344: x1 = (32768 * 8192 + 16384 * 57344 + 32768) >> 16 = 18432. */
static const uint32_t even_3_75[] = { 0, 18432, 32768, 47104, 65536 };
/* even 5.5: h = 180224 (2.75): lo 2, hi 3, t = 49152, split 2 * (2 without top bit) + 1 = 1; S 4
 * (R 16384), 6 (R 10923); x1 = (16384 * 16384 + 10923 * 49152 + 32768) >> 16 = 805355520 >> 16 = 12288;
 * x2 (c = 1) = (16384 * 16384 + 2 * 10923 * 49152 + 32768) >> 16 = 1342242816 >> 16 = 20481. */
static const uint32_t even_5_5[] = { 0, 12288, 20481, 32768, 45055, 53248, 65536 };
/* odd 1 + 2^-16 (an inside 1 beside larger factors): F = 65537, h = 32769 + 32768 = 65537: lo 1,
 * hi 2, t = 1, split 0; x1 = (21845 * 1 + 32768) >> 16 = 0: the frame's ring lies on the corners. */
static const uint32_t odd_frame[] = { 0, 0, 65536, 65536 };

static void test_axes(void)
{
    check_axis(SB_INTERP_TESS_INTEGER, 3.0f, int_3, 4);
    check_axis(SB_INTERP_TESS_INTEGER, 2.01f, int_3, 4); /* ceil 3 */
    check_axis(SB_INTERP_TESS_INTEGER, 2.3f, int_3, 4);
    check_axis(SB_INTERP_TESS_POW2, 3.0f, pow2_4, 5);   /* ceil 3, next power of two 4 */
    check_axis(SB_INTERP_TESS_POW2, 5.5f, pow2_8, 9);   /* ceil 6 -> 8 */
    check_axis(SB_INTERP_TESS_FRACTIONAL_ODD, 1.5f, odd_1_5, 4);
    check_axis(SB_INTERP_TESS_FRACTIONAL_ODD, 2.3f, odd_2_3, 4);
    check_axis(SB_INTERP_TESS_FRACTIONAL_ODD, 2.5f, odd_2_5, 4);
    check_axis(SB_INTERP_TESS_FRACTIONAL_ODD, 3.0f, int_3, 4); /* an odd factor is uniform */
    check_axis(SB_INTERP_TESS_FRACTIONAL_ODD, 3.75f, odd_3_75, 6);
    check_axis(SB_INTERP_TESS_FRACTIONAL_ODD, 5.5f, odd_5_5, 8);
    check_axis(SB_INTERP_TESS_FRACTIONAL_EVEN, 1.0f, even_2, 3);
    check_axis(SB_INTERP_TESS_FRACTIONAL_EVEN, 1.5f, even_2, 3);
    check_axis(SB_INTERP_TESS_FRACTIONAL_EVEN, 2.3f, even_2_3, 5);
    check_axis(SB_INTERP_TESS_FRACTIONAL_EVEN, 3.0f, even_3, 5);
    check_axis(SB_INTERP_TESS_FRACTIONAL_EVEN, 3.75f, even_3_75, 5);
    check_axis(SB_INTERP_TESS_FRACTIONAL_EVEN, 4.0f, pow2_4, 5); /* an even factor is uniform */
    check_axis(SB_INTERP_TESS_FRACTIONAL_EVEN, 5.5f, even_5_5, 7);
    struct sb_interp_tess_output o;
    /* fractional_odd 100 clamps to 63 (odd's maximum): 64 points. */
    struct sb_interp_tess_input in =
        input(SB_INTERP_TESS_ISOLINE, SB_INTERP_TESS_FRACTIONAL_ODD, SB_INTERP_TESS_LINE, 1, 100, 0, 0, 0, 0);
    CHECK(sb_interp_tessellate(&in, &o) && o.edge_segments[1] == 63 && o.edge_factor[1] == 63.0f,
          "odd 100: %u segments", o.edge_segments[1]);
    sb_interp_tess_release(&o);
}

/* The quad's point set from its axes: corners, each edge's inner points, the inside grid. */
static void expect_quad(struct expect *e, const uint32_t *edge[4], const uint32_t edge_n[4], const uint32_t *iu,
                        uint32_t nu, const uint32_t *iv, uint32_t nv)
{
    expect_add(e, 0, 0), expect_add(e, 65536, 0), expect_add(e, 0, 65536), expect_add(e, 65536, 65536);
    for (uint32_t i = 1; i < edge_n[0]; i++)
        expect_add(e, 0, edge[0][i]);
    for (uint32_t i = 1; i < edge_n[1]; i++)
        expect_add(e, edge[1][i], 0);
    for (uint32_t i = 1; i < edge_n[2]; i++)
        expect_add(e, 65536, edge[2][i]);
    for (uint32_t i = 1; i < edge_n[3]; i++)
        expect_add(e, edge[3][i], 65536);
    for (uint32_t j = 1; j < nv; j++)
        for (uint32_t i = 1; i < nu; i++)
            expect_add(e, iu[i], iv[j]);
}

/* The tri's outer points from its edge axes: u == 0 (v = x), v == 0 (u = x), w == 0 (u = x, v = 1 - x). */
static void expect_tri_edges(struct expect *e, const uint32_t *edge[3], const uint32_t edge_n[3])
{
    expect_add(e, 65536, 0), expect_add(e, 0, 65536), expect_add(e, 0, 0);
    for (uint32_t i = 1; i < edge_n[0]; i++)
        expect_add(e, 0, edge[0][i]);
    for (uint32_t i = 1; i < edge_n[1]; i++)
        expect_add(e, edge[1][i], 0);
    for (uint32_t i = 1; i < edge_n[2]; i++)
        expect_add(e, edge[2][i], 65536 - edge[2][i]);
}

static void run_points(struct sb_interp_tess_input in, struct sb_interp_tess_output *o, const char *what)
{
    in.output_primitive = SB_INTERP_TESS_POINT;
    CHECK(sb_interp_tessellate(&in, o) && !o->culled, "%s refused or culled", what);
}

static void test_quads(void)
{
    struct sb_interp_tess_output o;
    struct expect e;
    /* integer: edges 2.3 -> 3, 1, 4, 2; inside 1 beside larger factors is placed as even (2
     * segments, its point the middle), inside v 5 (odd): 10 boundary + 1 x 4 grid = 14 points. */
    static const uint32_t int_1[] = { 0, 65536 }, int_5[] = { 0, 13107, 26214, 39322, 52429, 65536 };
    {
        const uint32_t *edge[4] = { int_3, int_1, pow2_4, even_2 }, n[4] = { 3, 1, 4, 2 };
        e.count = 0;
        expect_quad(&e, edge, n, even_2, 2, int_5, 5);
        run_points(input(SB_INTERP_TESS_QUAD, SB_INTERP_TESS_INTEGER, 0, 2.3f, 1, 4, 2, 1, 5), &o, "quad integer");
        CHECK(e.count == 14 && o.inside_segments[0] == 2 && o.inside_factor[0] == 2.0f, "quad integer: %u, %u",
              e.count, o.inside_segments[0]);
        check_set(&o, &e, "quad integer");
        sb_interp_tess_release(&o);
    }
    /* pow2: edges 3 -> 4, 1.5 -> 2, 5.5 -> 8, 1; inside 2.3 -> 4, 1 -> even 2: 15 + 3 x 1 = 18. */
    {
        const uint32_t *edge[4] = { pow2_4, even_2, pow2_8, int_1 }, n[4] = { 4, 2, 8, 1 };
        e.count = 0;
        expect_quad(&e, edge, n, pow2_4, 4, even_2, 2);
        run_points(input(SB_INTERP_TESS_QUAD, SB_INTERP_TESS_POW2, 0, 3, 1.5f, 5.5f, 1, 2.3f, 1), &o, "quad pow2");
        CHECK(e.count == 18, "quad pow2 expects %u", e.count);
        check_set(&o, &e, "quad pow2");
        sb_interp_tess_release(&o);
    }
    /* fractional_odd: edges 1.5, 2.3, 3.75, 5.5 (18 boundary points); inside u 2.3, inside v 1 raised
     * to 1 + 2^-16 (the frame rule): its inner points are 0 and 1, so the grid (u 14199, 51337 by
     * v 0, 1) lies on the v == 0 edge, whose factor 2.3 has the same points, and on the v == 1 edge,
     * whose factor 5.5 has not: 2 more points there, 20 in all. */
    {
        const uint32_t *edge[4] = { odd_1_5, odd_2_3, odd_3_75, odd_5_5 }, n[4] = { 3, 3, 5, 7 };
        e.count = 0;
        expect_quad(&e, edge, n, odd_2_3, 3, odd_frame, 3);
        run_points(input(SB_INTERP_TESS_QUAD, SB_INTERP_TESS_FRACTIONAL_ODD, 0, 1.5f, 2.3f, 3.75f, 5.5f, 2.3f, 1),
                   &o, "quad odd");
        CHECK(e.count == 20 && o.inside_segments[1] == 3 && o.inside_factor[1] == 1.0f + 0x1p-16f,
              "quad odd: expects %u, inside v %u %.9g", e.count, o.inside_segments[1], o.inside_factor[1]);
        check_set(&o, &e, "quad odd");
        sb_interp_tess_release(&o);
    }
    /* fractional_odd edges 3, insides 1: both insides 1 + 2^-16, the whole frame on the corners:
     * the 12 boundary points only (triangle output keeps the 4 coincident ring points: 16). */
    {
        const uint32_t *edge[4] = { int_3, int_3, int_3, int_3 }, n[4] = { 3, 3, 3, 3 };
        e.count = 0;
        expect_quad(&e, edge, n, odd_frame, 3, odd_frame, 3);
        struct sb_interp_tess_input in = input(SB_INTERP_TESS_QUAD, SB_INTERP_TESS_FRACTIONAL_ODD, 0, 3, 3, 3, 3, 1, 1);
        run_points(in, &o, "quad odd frame");
        CHECK(e.count == 12, "quad odd frame expects %u", e.count);
        check_set(&o, &e, "quad odd frame");
        sb_interp_tess_release(&o);
        in.output_primitive = SB_INTERP_TESS_TRIANGLE_CW;
        CHECK(sb_interp_tessellate(&in, &o) && o.point_count == 16, "quad odd frame triangles: %u points",
              o.point_count);
        sb_interp_tess_release(&o);
    }
    /* fractional_odd, every factor 1: nothing is above 1 + 2^-17, so no frame: the 4 corners. */
    run_points(input(SB_INTERP_TESS_QUAD, SB_INTERP_TESS_FRACTIONAL_ODD, 0, 1, 1, 1, 1, 1, 1), &o, "quad odd 1");
    CHECK(o.point_count == 4 && o.inside_segments[0] == 1, "quad odd 1: %u points", o.point_count);
    sb_interp_tess_release(&o);
    /* fractional_even: edges 2.3, 3.75, 5.5, 1.5 -> 2 (16 boundary points), insides 3.75 x 5.5:
     * a 3 x 5 grid, 31 points. */
    {
        const uint32_t *edge[4] = { even_2_3, even_3_75, even_5_5, even_2 }, n[4] = { 4, 4, 6, 2 };
        e.count = 0;
        expect_quad(&e, edge, n, even_3_75, 4, even_5_5, 6);
        run_points(input(SB_INTERP_TESS_QUAD, SB_INTERP_TESS_FRACTIONAL_EVEN, 0, 2.3f, 3.75f, 5.5f, 1.5f, 3.75f, 5.5f),
                   &o, "quad even");
        CHECK(e.count == 31, "quad even expects %u", e.count);
        check_set(&o, &e, "quad even");
        sb_interp_tess_release(&o);
    }
}

static void test_tris(void)
{
    struct sb_interp_tess_output o;
    struct expect e;
    static const uint32_t int_1[] = { 0, 65536 };
    /* integer: edges 2.3 -> 3, 1, 2; inside 1 beside them is even (2 segments): no ring but the
     * centre, (1/3, 1/3) cut to 16 bits: (21845, 21845), w = 21846. 6 + 1 = 7 points. */
    {
        const uint32_t *edge[3] = { int_3, int_1, even_2 }, n[3] = { 3, 1, 2 };
        e.count = 0;
        expect_tri_edges(&e, edge, n);
        expect_add(&e, 21845, 21845);
        run_points(input(SB_INTERP_TESS_TRI, SB_INTERP_TESS_INTEGER, 0, 2.3f, 1, 2, 0, 1, 0), &o, "tri integer");
        CHECK(e.count == 7, "tri integer expects %u", e.count);
        check_set(&o, &e, "tri integer");
        sb_interp_tess_release(&o);
    }
    /* Ring r of inside points x: inset d = (x_r * 43690 + 32768) >> 16, h = (d + 1) >> 1; side u == d
     * holds (d, x_q - h) for q = r+1..n-r, side v == d (x_q - h, d) for q = r..n-r-1, side w == d
     * (x_q - h, 65536 - (x_q - h) - d) for q = r+1..n-r.
     * pow2: edges 3 -> 4, 2, 1; inside 5.5 -> 8 (x_q = 8192 q): rings 1..3 (6, 4, 2 segments a
     * side: 18 + 12 + 6 points) and the centre: 7 boundary + 37 = 44 points. Ring 1: d =
     * (8192 * 43690 + 32768) >> 16 = 5461, h = 2731: e.g. (5461, 57344 - 2731 = 54613), (8192 - 2731
     * = 5461, 5461), (57344 - 2731 = 54613, 65536 - 54613 - 5461 = 5462); ring 3: d = (24576 * 43690 +
     * 32768) >> 16 = 16384, h = 8192: (16384, 32768), (16384, 16384), (32768, 16384) and the middles
     * (16384, 24576), (24576, 16384), (24576, 24576). */
    {
        const uint32_t *edge[3] = { pow2_4, even_2, int_1 }, n[3] = { 4, 2, 1 };
        e.count = 0;
        expect_tri_edges(&e, edge, n);
        static const uint32_t rings[][2] = {
            { 5461, 54613 }, { 5461, 5461 }, { 54613, 5462 }, { 5461, 46421 }, { 13653, 5461 }, { 46421, 13654 },
            { 5461, 38229 }, { 21845, 5461 }, { 38229, 21846 }, { 5461, 30037 }, { 30037, 5461 }, { 30037, 30038 },
            { 5461, 21845 }, { 38229, 5461 }, { 21845, 38230 }, { 5461, 13653 }, { 46421, 5461 }, { 13653, 46422 },
            /* ring 2: d = (16384 * 43690 + 32768) >> 16 = 10923, h = 5462 */
            { 10923, 43690 }, { 10922, 10923 }, { 43690, 10923 }, { 10923, 35498 }, { 19114, 10923 },
            { 35498, 19115 }, { 10923, 27306 }, { 27306, 10923 }, { 27306, 27307 }, { 10923, 19114 },
            { 35498, 10923 }, { 19114, 35499 },
            { 16384, 32768 }, { 16384, 16384 }, { 32768, 16384 }, { 16384, 24576 }, { 24576, 16384 },
            { 24576, 24576 }, { 21845, 21845 },
        };
        for (size_t k = 0; k < sizeof(rings) / sizeof(rings[0]); k++)
            expect_add(&e, rings[k][0], rings[k][1]);
        run_points(input(SB_INTERP_TESS_TRI, SB_INTERP_TESS_POW2, 0, 3, 2, 1, 0, 5.5f, 0), &o, "tri pow2");
        CHECK(e.count == 44, "tri pow2 expects %u", e.count);
        check_set(&o, &e, "tri pow2");
        sb_interp_tess_release(&o);
    }
    /* fractional_odd: edges 2.5, 1.5, 2.3, inside 1 raised to 1 + 2^-16: ring 1 (one segment a side,
     * d = 0) is the three corners, so the set is the 9 boundary points (old: 3 more just inside). */
    {
        const uint32_t *edge[3] = { odd_2_5, odd_1_5, odd_2_3 }, n[3] = { 3, 3, 3 };
        e.count = 0;
        expect_tri_edges(&e, edge, n);
        run_points(input(SB_INTERP_TESS_TRI, SB_INTERP_TESS_FRACTIONAL_ODD, 0, 2.5f, 1.5f, 2.3f, 0, 1, 0), &o,
                   "tri odd frame");
        CHECK(e.count == 9 && o.inside_segments[0] == 3, "tri odd frame expects %u", e.count);
        check_set(&o, &e, "tri odd frame");
        sb_interp_tess_release(&o);
    }
    /* fractional_odd 3.75 everywhere: 15 boundary points; ring 1 (3 segments): d = (18568 * 43690 +
     * 32768) >> 16 = 12378, h = 6189: corners (12378, 46968 - 6189 = 40779), (18568 - 6189 = 12379,
     * 12378), (40779, 65536 - 40779 - 12378 = 12379), middles (12378, 42053 - 6189 = 35864),
     * (23483 - 6189 = 17294, 12378), (35864, 17294), (12378, 17294), (35864, 12378), (17294, 35864);
     * ring 2 (1 segment, the inner triangle): d = (23483 * 43690 + 32768) >> 16 = 15655, h = 7828:
     * (15655, 42053 - 7828 = 34225), (15655, 15655), (34225, 15656). 27 points. */
    {
        const uint32_t *edge[3] = { odd_3_75, odd_3_75, odd_3_75 }, n[3] = { 5, 5, 5 };
        e.count = 0;
        expect_tri_edges(&e, edge, n);
        static const uint32_t rings[][2] = {
            { 12378, 40779 }, { 12379, 12378 }, { 40779, 12379 }, { 12378, 35864 }, { 17294, 12378 },
            { 35864, 17294 }, { 12378, 17294 }, { 35864, 12378 }, { 17294, 35864 },
            { 15655, 34225 }, { 15655, 15655 }, { 34225, 15656 },
        };
        for (size_t k = 0; k < sizeof(rings) / sizeof(rings[0]); k++)
            expect_add(&e, rings[k][0], rings[k][1]);
        run_points(input(SB_INTERP_TESS_TRI, SB_INTERP_TESS_FRACTIONAL_ODD, 0, 3.75f, 3.75f, 3.75f, 0, 3.75f, 0), &o,
                   "tri odd");
        CHECK(e.count == 27, "tri odd expects %u", e.count);
        check_set(&o, &e, "tri odd");
        sb_interp_tess_release(&o);
    }
    /* fractional_even 3.75 everywhere: 12 boundary points; ring 1 (2 segments): d = (18432 * 43690 +
     * 32768) >> 16 = 12288, h = 6144: (12288, 47104 - 6144 = 40960), (12288, 12288), (40960, 12288),
     * middles (12288, 26624), (26624, 12288), (26624, 26624); the centre: 19 points. */
    {
        const uint32_t *edge[3] = { even_3_75, even_3_75, even_3_75 }, n[3] = { 4, 4, 4 };
        e.count = 0;
        expect_tri_edges(&e, edge, n);
        static const uint32_t rings[][2] = {
            { 12288, 40960 }, { 12288, 12288 }, { 40960, 12288 }, { 12288, 26624 },
            { 26624, 12288 }, { 26624, 26624 }, { 21845, 21845 },
        };
        for (size_t k = 0; k < sizeof(rings) / sizeof(rings[0]); k++)
            expect_add(&e, rings[k][0], rings[k][1]);
        run_points(input(SB_INTERP_TESS_TRI, SB_INTERP_TESS_FRACTIONAL_EVEN, 0, 3.75f, 3.75f, 3.75f, 0, 3.75f, 0),
                   &o, "tri even");
        CHECK(e.count == 19, "tri even expects %u", e.count);
        check_set(&o, &e, "tri even");
        sb_interp_tess_release(&o);
    }
}

static void test_isolines(void)
{
    struct sb_interp_tess_output o;
    struct expect e = { 0 };
    /* Density 2.3 is integer 3 whatever the mode: lines at v = 0, 21845, 43691 (never at 1); detail
     * fractional_odd 5.5: 8 points a line, 24 points. */
    static const uint32_t lines[3] = { 0, 21845, 43691 };
    for (uint32_t j = 0; j < 3; j++)
        for (uint32_t i = 0; i < 8; i++)
            expect_add(&e, odd_5_5[i], lines[j]);
    run_points(input(SB_INTERP_TESS_ISOLINE, SB_INTERP_TESS_FRACTIONAL_ODD, 0, 2.3f, 5.5f, 0, 0, 0, 0), &o,
               "isoline odd");
    CHECK(o.edge_segments[0] == 3 && o.edge_segments[1] == 7, "isoline odd: %u x %u", o.edge_segments[0],
          o.edge_segments[1]);
    check_set(&o, &e, "isoline odd");
    sb_interp_tess_release(&o);
    /* Density 2 (even: 0 and the middle), detail fractional_even 2.3. */
    e.count = 0;
    for (uint32_t j = 0; j < 2; j++)
        for (uint32_t i = 0; i < 5; i++)
            expect_add(&e, even_2_3[i], even_2[j]);
    run_points(input(SB_INTERP_TESS_ISOLINE, SB_INTERP_TESS_FRACTIONAL_EVEN, 0, 2, 2.3f, 0, 0, 0, 0), &o,
               "isoline even");
    check_set(&o, &e, "isoline even");
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

    /* Tri, integer, all 2: corners + 3 edge midpoints + the centre (21845/65536, 21845/65536,
     * 21846/65536) = 7 points; each edge's 2 segments fan to it = 6 triangles. */
    in = input(SB_INTERP_TESS_TRI, SB_INTERP_TESS_INTEGER, SB_INTERP_TESS_TRIANGLE_CW, 2, 2, 2, 0, 2, 0);
    CHECK(sb_interp_tessellate(&in, &o), "tri 2");
    CHECK(o.point_count == 7 && o.index_count == 18, "tri 2: %u points %u indices", o.point_count, o.index_count);
    CHECK(has_point(&o, 0, 0.5, 0.5) && has_point(&o, 0.5, 0, 0.5) && has_point(&o, 0.5, 0.5, 0),
          "tri 2 midpoints");
    CHECK(has_point(&o, 21845 / 65536.0, 21845 / 65536.0, 21846 / 65536.0), "tri 2 centre");
    sb_interp_tess_release(&o);

    /* Tri, integer, all 3: 9 outer points (thirds: 21845, 43691); ring 1 (one segment a side) at
     * d = (21845 * 43690 + 32768) >> 16 = 14563, h = 7282: (14563, 43691 - 7282 = 36409, w 14564) and
     * its turns. 12 points; stitches 3 * (3 + 1) = 12 triangles + the inner one = 13. */
    in = input(SB_INTERP_TESS_TRI, SB_INTERP_TESS_INTEGER, SB_INTERP_TESS_TRIANGLE_CCW, 3, 3, 3, 0, 3, 0);
    CHECK(sb_interp_tessellate(&in, &o), "tri 3");
    CHECK(o.point_count == 12 && o.index_count == 39, "tri 3: %u points %u indices", o.point_count,
          o.index_count);
    CHECK(has_point(&o, 14563 / 65536.0, 36409 / 65536.0, 14564 / 65536.0), "tri 3 inner ring");
    CHECK(has_point(&o, 0, 21845 / 65536.0, 43691 / 65536.0) && has_point(&o, 43691 / 65536.0, 21845 / 65536.0, 0),
          "tri 3 edge thirds");
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
     * (v = 0, 21845, 43691 / 65536), detail 2.2 -> even 4. */
    in = input(SB_INTERP_TESS_ISOLINE, SB_INTERP_TESS_FRACTIONAL_EVEN, SB_INTERP_TESS_LINE, 2.2f, 2.2f, 0, 0, 0,
               0);
    CHECK(sb_interp_tessellate(&in, &o), "isoline even");
    CHECK(o.edge_segments[0] == 3 && o.edge_segments[1] == 4 && o.point_count == 15,
          "isoline even: density %u detail %u points %u", o.edge_segments[0], o.edge_segments[1], o.point_count);
    CHECK(has_point(&o, 0, 43691 / 65536.0, -1), "isoline even: line at v = 43691/65536");
    sb_interp_tess_release(&o);

    test_axes();
    test_quads();
    test_tris();
    test_isolines();
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
    /* fractional_odd max 1, inside factors 5: the frame's lower bound 1 + 2^-16 is above the max,
     * which wins (min(max, max(bound, f))): every factor is 1, the 4 corners, no frame. */
    in = input(SB_INTERP_TESS_QUAD, SB_INTERP_TESS_FRACTIONAL_ODD, SB_INTERP_TESS_POINT, 1, 1, 1, 1, 5, 5);
    in.max_factor = 1.0f;
    CHECK(sb_interp_tessellate(&in, &o) && o.point_count == 4 && o.inside_segments[0] == 1,
          "odd max 1: %u points, inside %u segments", o.point_count, o.inside_segments[0]);
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
            /* The outer ring is the edges' points; a triangulated disc of P points, B on its
             * boundary, has 2P - B - 2 triangles (Euler). Only fractional_odd's frame ring of an
             * inside factor 1 + 2^-16 lies on the boundary too (on the corners or an edge). */
            bool frame = partitioning == SB_INTERP_TESS_FRACTIONAL_ODD &&
                         (o.inside_factor[0] == 1.0f + 0x1p-16f || o.inside_factor[1] == 1.0f + 0x1p-16f);
            CHECK(frame ? boundary >= sum : boundary == sum, "round %u: %u boundary points, edges sum %u", round,
                  boundary, sum);
            uint32_t triangles = o.index_count / 3;
            CHECK(triangles == 2 * o.point_count - sum - 2, "round %u: %u triangles, %u points %u boundary", round,
                  triangles, o.point_count, sum);
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
        /* Point output: the same points, each exactly once (checked pairwise, so on the smaller
         * patches, where the frame and near-step cases live). */
        struct sb_interp_tess_output points = { 0 };
        in.output_primitive = SB_INTERP_TESS_POINT;
        if (o.point_count <= 400 && !sb_interp_tessellate(&in, &points))
            CHECK(false, "round %u points refused", round);
        if (o.point_count <= 400 && points.points) {
            uint32_t repeated = 0, missing = 0;
            for (uint32_t i = 0; i < points.point_count; i++)
                for (uint32_t k = i + 1; k < points.point_count; k++)
                    repeated += memcmp(&points.points[i * c], &points.points[k * c], c * sizeof(float)) == 0;
            for (uint32_t i = 0; i < o.point_count; i++) {
                bool found = false;
                for (uint32_t k = 0; k < points.point_count && !found; k++)
                    found = memcmp(&o.points[i * c], &points.points[k * c], c * sizeof(float)) == 0;
                missing += !found;
            }
            CHECK(repeated == 0 && missing == 0 && points.index_count == points.point_count,
                  "round %u points: %u repeated, %u missing", round, repeated, missing);
        }
        sb_interp_tess_release(&points);
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
