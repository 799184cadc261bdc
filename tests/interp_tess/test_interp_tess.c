/* SPDX-License-Identifier: MIT */
/*
 * Hull and domain programs on the CPU interpreter (sb_interp_run_hull,
 * sb_interp_run_domain) and the public tessellator entry
 * (sb_interp_tessellate_patch). Programs are hs_5_0 / ds_5_0 token streams
 * assembled here (tests/common/sm4_asm.h) and lowered to the IR; every
 * expected value is worked out by hand in the comment beside it:
 *   hs_quad     a control-point phase (2 x position, vOutputControlPointID,
 *               vPrim), a fork phase of 4 instances writing the edge factors
 *               from vocp through o[vForkInstanceID], a second fork phase for
 *               the inside factors from vicp, a join phase of 2 instances
 *               summing vpc pairs; two patches, the second culled;
 *   hs_factors  no control-point phase (D3D's pass-through), one fork phase
 *               copying raw factors from the input control point: D3D's
 *               rounding for every partitioning, dcl_hs_max_tessfactor,
 *               NaN and <= 0 culling, the inside-factor-1 rule;
 *   hs_tri, hs_iso  the factor slots of the tri and isoline domains (the
 *               isoline's detail declared before its density);
 *   hs_vpc_swap a join phase swapping two patch constants through vpc;
 *   hs_rsq      a tracked run: the precision bound of an rsq in the
 *               control-point phase reaches the fork phase through vocp;
 *   hs_uav      UAV stores from the control-point phase, and the races two
 *               patches' stores to the same words make in a tracked run;
 *   ds_quad, ds_tri  domain programs at given locations: vDomain (z = 0 for
 *               quads), vicp, vpc, vPrim; a chain hs_quad -> tessellator ->
 *               ds_quad; argument errors.
 * Usage: test_interp_tess
 */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shaderbridge/dxbc.h"
#include "shaderbridge/interp.h"
#include "sm4_asm.h"
#include "translator/ir.h"

enum {
    OP_DCL_INPUT = 95, OP_DCL_INPUT_SIV = 97, OP_DCL_OUTPUT = 101, OP_DCL_OUTPUT_SIV = 103,
    OP_HS_DECLS = 113, OP_HS_CONTROL_POINT_PHASE = 114, OP_HS_FORK_PHASE = 115, OP_HS_JOIN_PHASE = 116,
    OP_DCL_INPUT_CONTROL_POINT_COUNT = 147, OP_DCL_OUTPUT_CONTROL_POINT_COUNT = 148,
    OP_DCL_TESS_DOMAIN = 149, OP_DCL_TESS_PARTITIONING = 150, OP_DCL_TESS_OUTPUT_PRIMITIVE = 151,
    OP_DCL_HS_MAX_TESSFACTOR = 152, OP_DCL_HS_FORK_INSTANCES = 153, OP_DCL_HS_JOIN_INSTANCES = 154,
    T_PRIM = 11, T_OCP_ID = 22, T_FORK_ID = 23, T_JOIN_ID = 24, T_VICP = 25, T_VOCP = 26, T_VPC = 27,
    T_DOMAIN = 28,
    SV_QUAD_EDGE = 11, SV_QUAD_INSIDE = 15, SV_TRI_EDGE = 17, SV_TRI_INSIDE = 20, SV_LINE_DETAIL = 21,
    SV_LINE_DENSITY = 22,
};

static int failures;

#define CHECK(cond, ...)                                                                                    \
    do {                                                                                                    \
        if (!(cond)) {                                                                                      \
            printf("FAIL %s:%d: ", __FILE__, __LINE__);                                                     \
            printf(__VA_ARGS__);                                                                            \
            putchar('\n');                                                                                  \
            failures++;                                                                                     \
        }                                                                                                   \
    } while (0)

static uint32_t fbits(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

static float bitsf(uint32_t u)
{
    float f;
    memcpy(&f, &u, 4);
    return f;
}

/* ---- assembling ------------------------------------------------------------------------------ */

/* A 2-D operand [point][reg] of `type` (v, vicp, vocp), the point relative to `rel` when given. */
static struct sm4_operand arrayed(uint32_t type, uint32_t point, uint32_t reg, const struct sm4_operand *rel,
                                  const char *sel, int dst)
{
    uint32_t idx[2] = { point, reg };
    const struct sm4_operand *rels[2] = { rel, NULL };
    return sm4_reg(type, 2, idx, rels, sel, dst);
}

/* A 1-D operand (o#, vpc#), the register relative to `rel` when given. */
static struct sm4_operand reg1(uint32_t type, uint32_t reg, const struct sm4_operand *rel, const char *sel, int dst)
{
    const struct sm4_operand *rels[1] = { rel };
    return sm4_reg(type, 1, &reg, rels, sel, dst);
}

static void dcl_special(struct sm4_program *p, uint32_t type)
{
    sm4_decl(p, OP_DCL_INPUT, sm4_reg(type, 0, NULL, NULL, "", 0), 0, NULL);
}

/* hs_decls and the tessellator state of a hull program. */
static void hs_header(struct sm4_program *p, uint32_t icp, uint32_t ocp, uint32_t domain, uint32_t partitioning,
                      uint32_t primitive, float max_factor)
{
    sm4_begin(p, 3, 5, 0, 0);
    sm4_raw(p, OP_HS_DECLS, 0, NULL);
    sm4_raw(p, OP_DCL_INPUT_CONTROL_POINT_COUNT | (icp << 11), 0, NULL);
    sm4_raw(p, OP_DCL_OUTPUT_CONTROL_POINT_COUNT | (ocp << 11), 0, NULL);
    sm4_raw(p, OP_DCL_TESS_DOMAIN | (domain << 11), 0, NULL);
    sm4_raw(p, OP_DCL_TESS_PARTITIONING | (partitioning << 11), 0, NULL);
    sm4_raw(p, OP_DCL_TESS_OUTPUT_PRIMITIVE | (primitive << 11), 0, NULL);
    uint32_t max_bits = fbits(max_factor);
    sm4_raw(p, OP_DCL_HS_MAX_TESSFACTOR, 1, &max_bits);
}

static struct sb_ir_program *lower(const struct sm4_program *p, const char *what, struct sb_dxbc **container)
{
    static const struct sig_element_spec none[1];
    struct blob b;
    sm4_container_sig(p, none, 0, none, 0, NULL, 0, &b);
    struct sb_error e;
    memset(&e, 0, sizeof(e));
    struct sb_ir_program *ir = NULL;
    *container = NULL;
    if (p->overflow || sb_dxbc_parse(b.bytes, b.size, container, &e) != SB_SUCCESS ||
        sb_ir_from_dxbc(*container, &ir, &e) != SB_SUCCESS) {
        printf("FAIL: %s does not lower: %s\n", what, e.message);
        failures++;
    }
    return ir;
}

/* A lowered program and the container (with its bytes) it points into. */
struct program {
    struct sb_ir_program *ir;
    struct sb_dxbc *container;
};

static void program_free(struct program *p)
{
    sb_ir_program_destroy(p->ir);
    sb_dxbc_destroy(p->container);
}

/*
 * hs_quad: 4 input and 4 output control points, quad, integer, max 64.
 *   control point k:  o0.xy = 2 * v[k][0].xy, o0.z = utof(k), o0.w = utof(vPrim)
 *   fork (4 instances): o[i].x = vocp[i][0].x              edge factors 0..3
 *   fork (1 instance):  o4.x = vicp[0][0].z, o5.x = 2.5    inside factors
 *   join (2 instances): o[6 + j].x = vpc[j].x + vpc[j + 2].x
 */
static struct program hs_quad(void)
{
    static struct sm4_program p;
    hs_header(&p, 4, 4, 3, 1, 3, 64.0f);
    sm4_raw(&p, OP_HS_CONTROL_POINT_PHASE, 0, NULL);
    dcl_special(&p, T_OCP_ID);
    dcl_special(&p, T_PRIM);
    sm4_decl(&p, OP_DCL_INPUT, arrayed(T_INPUT, 4, 0, NULL, "xyzw", 1), 0, NULL);
    sm4_dcl_io(&p, OP_DCL_OUTPUT, 0, T_OUTPUT, 0, "xyzw", -1);
    sm4_raw(&p, OP_DCL_TEMPS, 1, (uint32_t[]){ 1 });
    I(&p, OP_MOV, dr(0, "x"), special(T_OCP_ID, "x"));
    struct sm4_operand r0x = sr(0, "x");
    I(&p, OP_ADD, reg1(T_OUTPUT, 0, NULL, "xy", 1), arrayed(T_INPUT, 0, 0, &r0x, "xyxx", 0),
      arrayed(T_INPUT, 0, 0, &r0x, "xyxx", 0));
    I(&p, OP_UTOF, reg1(T_OUTPUT, 0, NULL, "z", 1), special(T_OCP_ID, "x"));
    I(&p, OP_UTOF, reg1(T_OUTPUT, 0, NULL, "w", 1), special(T_PRIM, "x"));
    I0(&p, OP_RET, 0);

    sm4_raw(&p, OP_HS_FORK_PHASE, 0, NULL);
    sm4_raw(&p, OP_DCL_HS_FORK_INSTANCES, 1, (uint32_t[]){ 4 });
    dcl_special(&p, T_FORK_ID);
    sm4_decl(&p, OP_DCL_INPUT, arrayed(T_VOCP, 4, 0, NULL, "x", 1), 0, NULL);
    for (uint32_t f = 0; f < 4; f++)
        sm4_dcl_io(&p, OP_DCL_OUTPUT_SIV, 0, T_OUTPUT, f, "x", (int32_t)(SV_QUAD_EDGE + f));
    sm4_raw(&p, OP_DCL_TEMPS, 1, (uint32_t[]){ 1 });
    I(&p, OP_MOV, dr(0, "x"), special(T_FORK_ID, "x"));
    I(&p, OP_MOV, reg1(T_OUTPUT, 0, &r0x, "x", 1), arrayed(T_VOCP, 0, 0, &r0x, "x", 0));
    I0(&p, OP_RET, 0);

    sm4_raw(&p, OP_HS_FORK_PHASE, 0, NULL);
    sm4_decl(&p, OP_DCL_INPUT, arrayed(T_VICP, 4, 0, NULL, "z", 1), 0, NULL);
    sm4_dcl_io(&p, OP_DCL_OUTPUT_SIV, 0, T_OUTPUT, 4, "x", SV_QUAD_INSIDE);
    sm4_dcl_io(&p, OP_DCL_OUTPUT_SIV, 0, T_OUTPUT, 5, "x", SV_QUAD_INSIDE + 1);
    I(&p, OP_MOV, reg1(T_OUTPUT, 4, NULL, "x", 1), arrayed(T_VICP, 0, 0, NULL, "z", 0));
    I(&p, OP_MOV, reg1(T_OUTPUT, 5, NULL, "x", 1), lf(2.5f));
    I0(&p, OP_RET, 0);

    sm4_raw(&p, OP_HS_JOIN_PHASE, 0, NULL);
    sm4_raw(&p, OP_DCL_HS_JOIN_INSTANCES, 1, (uint32_t[]){ 2 });
    dcl_special(&p, T_JOIN_ID);
    for (uint32_t r = 0; r < 4; r++)
        sm4_decl(&p, OP_DCL_INPUT, reg1(T_VPC, r, NULL, "x", 1), 0, NULL);
    sm4_dcl_io(&p, OP_DCL_OUTPUT, 0, T_OUTPUT, 6, "x", -1);
    sm4_dcl_io(&p, OP_DCL_OUTPUT, 0, T_OUTPUT, 7, "x", -1);
    sm4_raw(&p, OP_DCL_TEMPS, 1, (uint32_t[]){ 1 });
    I(&p, OP_MOV, dr(0, "x"), special(T_JOIN_ID, "x"));
    I(&p, OP_ADD, reg1(T_OUTPUT, 6, &r0x, "x", 1), reg1(T_VPC, 0, &r0x, "x", 0), reg1(T_VPC, 2, &r0x, "x", 0));
    sm4_end(&p);
    struct program out;
    out.ir = lower(&p, "hs_quad", &out.container);
    return out;
}

/* Input control points of hs_quad: patch 0 drives the factors, patch 1 has a negative edge. */
static const float quad_in[2][4][4] = {
    { { 0.6f, 1.0f, 2.2f, 0.0f }, { 1.5f, 2.0f, 0.0f, 0.0f }, { 0.25f, 3.0f, 0.0f, 0.0f },
      { 35.0f, 4.0f, 0.0f, 0.0f } },
    { { -0.5f, 0.5f, 4.0f, 0.0f }, { 1.0f, 1.0f, 0.0f, 0.0f }, { 1.0f, 1.0f, 0.0f, 0.0f }, { 1.0f, 1.0f, 0.0f, 0.0f } },
};

static void words_of(const float *f, uint32_t count, uint32_t *words)
{
    for (uint32_t i = 0; i < count; i++)
        words[i] = fbits(f[i]);
}

static void test_hs_quad(void)
{
    struct program prog = hs_quad();
    if (!prog.ir)
        return;
    uint32_t in_words[2 * 4 * 4], cp_words[2 * 4 * 4], pc_words[2 * 8 * 4];
    words_of(&quad_in[0][0][0], 32, in_words);
    struct sb_interp_registers in = { 1, in_words };
    struct sb_interp_tess_factors factors[2];
    struct sb_interp_hull_results res = { { 1, cp_words }, { 8, pc_words }, factors, NULL, NULL };
    struct sb_interp_stats stats;
    struct sb_error e;
    memset(&e, 0, sizeof(e));
    enum sb_result r = sb_interp_run_hull(prog.ir, NULL, 0, 2, &in, &res, NULL, &stats, &e);
    CHECK(r == SB_SUCCESS, "hs_quad: %s", e.message);
    if (r == SB_SUCCESS) {
        /* Control point k of patch p: (2x, 2y, k, p). */
        for (uint32_t pt = 0; pt < 2; pt++)
            for (uint32_t k = 0; k < 4; k++) {
                const uint32_t *w = &cp_words[(pt * 4 + k) * 4];
                CHECK(bitsf(w[0]) == 2.0f * quad_in[pt][k][0] && bitsf(w[1]) == 2.0f * quad_in[pt][k][1] &&
                          bitsf(w[2]) == (float)k && bitsf(w[3]) == (float)pt,
                      "hs_quad patch %u control point %u: (%g %g %g %g)", pt, k, bitsf(w[0]), bitsf(w[1]),
                      bitsf(w[2]), bitsf(w[3]));
            }
        /* Patch 0: o0..o3.x = 1.2, 3, 0.5, 70 (2x of each control point's x); o4.x = 2.2,
         * o5.x = 2.5; o6.x = 1.2 + 0.5, o7.x = 3 + 70. */
        const float want[8] = { 1.2f, 3.0f, 0.5f, 70.0f, 2.2f, 2.5f, 1.2f + 0.5f, 73.0f };
        for (uint32_t reg = 0; reg < 8; reg++)
            CHECK(bitsf(pc_words[reg * 4]) == want[reg] && pc_words[reg * 4 + 1] == 0,
                  "hs_quad patch 0 o%u.x = %g, want %g", reg, bitsf(pc_words[reg * 4]), want[reg]);
        /* Integer, max 64: edges ceil(1.2) = 2, 3, 0.5 -> 1, 70 -> 64; insides ceil(2.2) = 3, 3. */
        const struct sb_interp_tess_factors *f = &factors[0];
        CHECK(!f->culled && f->edge_segments[0] == 2 && f->edge_segments[1] == 3 && f->edge_segments[2] == 1 &&
                  f->edge_segments[3] == 64 && f->inside_segments[0] == 3 && f->inside_segments[1] == 3 &&
                  f->edge_factor[3] == 64.0f && f->inside_factor[0] == 3.0f,
              "hs_quad patch 0 factors: culled %d edges %u %u %u %u insides %u %u", f->culled, f->edge_segments[0],
              f->edge_segments[1], f->edge_segments[2], f->edge_segments[3], f->inside_segments[0],
              f->inside_segments[1]);
        /* Patch 1: edge 0 = 2 * -0.5 = -1 culls; o6.x = -1 + 2 = 1. */
        CHECK(factors[1].culled && factors[1].edge_segments[1] == 0, "hs_quad patch 1 not culled");
        CHECK(bitsf(pc_words[(8 + 6) * 4]) == 1.0f && bitsf(pc_words[(8 + 7) * 4]) == 4.0f,
              "hs_quad patch 1 joins: %g %g", bitsf(pc_words[(8 + 6) * 4]), bitsf(pc_words[(8 + 7) * 4]));
        /* 8 control-point invocations, then per patch: 4 + 1 fork and 2 join instances. */
        CHECK(stats.invocations == 8 + 2 * 7, "hs_quad invocations %llu, want 22",
              (unsigned long long)stats.invocations);
    }
    /* Narrower records than declared: the phases still see every register. */
    uint32_t narrow_pc[2 * 2 * 4];
    struct sb_interp_hull_results narrow = { { 0, NULL }, { 2, narrow_pc }, factors, NULL, NULL };
    r = sb_interp_run_hull(prog.ir, NULL, 0, 2, &in, &narrow, NULL, NULL, &e);
    CHECK(r == SB_SUCCESS && bitsf(narrow_pc[0]) == 1.2f && bitsf(narrow_pc[4]) == 3.0f && !factors[0].culled &&
              factors[0].inside_segments[0] == 3,
          "hs_quad with 2 patch-constant registers: %s %g", e.message, bitsf(narrow_pc[0]));
    program_free(&prog);
}

/* hs_factors: 1 input and 2 output control points, no control-point phase (so both output
 * control points are input control point 0); one fork phase o0..o3.x = vicp[0][0].xyzw,
 * o4.x, o5.x = vicp[0][1].xy, the quad's edge and inside factors. */
static struct program hs_factors(uint32_t partitioning, float max_factor)
{
    static struct sm4_program p;
    hs_header(&p, 1, 2, 3, partitioning, 3, max_factor);
    sm4_raw(&p, OP_HS_FORK_PHASE, 0, NULL);
    sm4_decl(&p, OP_DCL_INPUT, arrayed(T_VICP, 1, 0, NULL, "xyzw", 1), 0, NULL);
    sm4_decl(&p, OP_DCL_INPUT, arrayed(T_VICP, 1, 1, NULL, "xy", 1), 0, NULL);
    for (uint32_t f = 0; f < 6; f++)
        sm4_dcl_io(&p, OP_DCL_OUTPUT_SIV, 0, T_OUTPUT, f, "x", (int32_t)(SV_QUAD_EDGE + f));
    static const char *lanes[4] = { "x", "y", "z", "w" };
    for (uint32_t f = 0; f < 4; f++)
        I(&p, OP_MOV, reg1(T_OUTPUT, f, NULL, "x", 1), arrayed(T_VICP, 0, 0, NULL, lanes[f], 0));
    I(&p, OP_MOV, reg1(T_OUTPUT, 4, NULL, "x", 1), arrayed(T_VICP, 0, 1, NULL, "x", 0));
    I(&p, OP_MOV, reg1(T_OUTPUT, 5, NULL, "x", 1), arrayed(T_VICP, 0, 1, NULL, "y", 0));
    sm4_end(&p);
    struct program out;
    out.ir = lower(&p, "hs_factors", &out.container);
    return out;
}

struct factor_case {
    const char *name;
    uint32_t partitioning;
    float max_factor;
    float edge[4], inside[2];
    bool culled;
    float edge_factor[4], inside_factor[2];
    uint32_t edge_segments[4], inside_segments[2];
};

static void test_hs_factors(void)
{
    const float odd_one = 1.0f + 0x1p-16f; /* an inside 1 beside larger factors, fractional_odd (D3D §11.7.11.3) */
    /* Raw factors 1.2, 3, 0.5, 70 / 2.2, 0.3 unless said otherwise; per partitioning (1 integer,
     * 2 pow2, 3 fractional_odd, 4 fractional_even) the factor is clamped to [1, 64] ([1, 63] odd,
     * [2, 64] even) and to the max, then rounded up to an integer / power of two / odd / even count;
     * inside 0.3 -> 1 beside larger factors becomes the smallest count above 1 of the mode. */
    const struct factor_case cases[] = {
        { "integer", 1, 64.0f, { 1.2f, 3.0f, 0.5f, 70.0f }, { 2.2f, 0.3f }, false,
          { 2, 3, 1, 64 }, { 3, 2 }, { 2, 3, 1, 64 }, { 3, 2 } },
        { "integer max 5", 1, 5.0f, { 1.2f, 3.0f, 0.5f, 70.0f }, { 2.2f, 0.3f }, false,
          { 2, 3, 1, 5 }, { 3, 2 }, { 2, 3, 1, 5 }, { 3, 2 } },
        /* pow2: ceil then the next power of two: 2 -> 2, 3 -> 4, 64; 2.2 -> 3 -> 4. */
        { "pow2", 2, 64.0f, { 1.2f, 3.0f, 0.5f, 70.0f }, { 2.2f, 0.3f }, false,
          { 2, 4, 1, 64 }, { 4, 2 }, { 2, 4, 1, 64 }, { 4, 2 } },
        /* max 40: 70 -> 40 -> 64 is past the max: the largest power of two below it, 32. */
        { "pow2 max 40", 2, 40.0f, { 1.2f, 3.0f, 0.5f, 70.0f }, { 2.2f, 0.3f }, false,
          { 2, 4, 1, 32 }, { 4, 2 }, { 2, 4, 1, 32 }, { 4, 2 } },
        /* fractional_odd keeps the clamped value: 1.2 (3 segments), 3 (3), 1 (1), 63 (63). */
        { "fractional_odd", 3, 64.0f, { 1.2f, 3.0f, 0.5f, 70.0f }, { 2.2f, 0.3f }, false,
          { 1.2f, 3, 1, 63 }, { 2.2f, odd_one }, { 3, 3, 1, 63 }, { 3, 3 } },
        { "fractional_odd max 7.5", 3, 7.5f, { 1.2f, 3.0f, 0.5f, 70.0f }, { 2.2f, 0.3f }, false,
          { 1.2f, 3, 1, 7.5f }, { 2.2f, odd_one }, { 3, 3, 1, 9 }, { 3, 3 } },
        /* fractional_even: at least 2; 3 -> 4 segments; 2.2 -> 4; 0.3 -> 2 (already above 1). */
        { "fractional_even", 4, 64.0f, { 1.2f, 3.0f, 0.5f, 70.0f }, { 2.2f, 0.3f }, false,
          { 2, 3, 2, 64 }, { 2.2f, 2 }, { 2, 4, 2, 64 }, { 4, 2 } },
        { "fractional_even max 10.5", 4, 10.5f, { 1.2f, 3.0f, 0.5f, 70.0f }, { 2.2f, 0.3f }, false,
          { 2, 3, 2, 10.5f }, { 2.2f, 2 }, { 2, 4, 2, 12 }, { 4, 2 } },
        /* A NaN inside factor takes the mode's minimum; all 1: nothing is above 1. */
        { "NaN inside", 1, 64.0f, { 1, 1, 1, 1 }, { NAN, 1 }, false, { 1, 1, 1, 1 }, { 1, 1 }, { 1, 1, 1, 1 },
          { 1, 1 } },
        { "NaN edge", 1, 64.0f, { 4, NAN, 4, 4 }, { 4, 4 }, true, { 0 }, { 0 }, { 0 }, { 0 } },
        { "zero edge", 3, 64.0f, { 4, 4, 4, 0.0f }, { 4, 4 }, true, { 0 }, { 0 }, { 0 }, { 0 } },
        { "negative edge", 4, 64.0f, { -2, 4, 4, 4 }, { 4, 4 }, true, { 0 }, { 0 }, { 0 }, { 0 } },
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        const struct factor_case *c = &cases[i];
        struct program prog = hs_factors(c->partitioning, c->max_factor);
        if (!prog.ir)
            continue;
        const float raw[8] = { c->edge[0], c->edge[1], c->edge[2], c->edge[3], c->inside[0], c->inside[1], 0, 0 };
        uint32_t in_words[8], cp_words[2 * 8], pc_words[6 * 4];
        words_of(raw, 8, in_words);
        struct sb_interp_registers in = { 2, in_words };
        struct sb_interp_tess_factors f;
        struct sb_interp_hull_results res = { { 2, cp_words }, { 6, pc_words }, &f, NULL, NULL };
        struct sb_error e;
        memset(&e, 0, sizeof(e));
        enum sb_result r = sb_interp_run_hull(prog.ir, NULL, 0, 1, &in, &res, NULL, NULL, &e);
        CHECK(r == SB_SUCCESS, "%s: %s", c->name, e.message);
        /* Pass-through: the output control point is the input one, and the raw factors are kept. */
        CHECK(r != SB_SUCCESS || (memcmp(cp_words, in_words, sizeof(in_words)) == 0 &&
                                  memcmp(cp_words + 8, in_words, sizeof(in_words)) == 0 &&
                                  pc_words[3 * 4] == in_words[3] && pc_words[5 * 4] == in_words[5]),
              "%s: pass-through or raw factors differ", c->name);
        bool same = f.culled == c->culled;
        for (uint32_t k = 0; k < 4; k++)
            same = same && f.edge_factor[k] == c->edge_factor[k] && f.edge_segments[k] == c->edge_segments[k];
        for (uint32_t k = 0; k < 2; k++)
            same = same && f.inside_factor[k] == c->inside_factor[k] && f.inside_segments[k] == c->inside_segments[k];
        CHECK(r != SB_SUCCESS || same,
              "%s: culled %d edges %.9g/%u %.9g/%u %.9g/%u %.9g/%u insides %.9g/%u %.9g/%u", c->name, f.culled,
              f.edge_factor[0], f.edge_segments[0], f.edge_factor[1], f.edge_segments[1], f.edge_factor[2],
              f.edge_segments[2], f.edge_factor[3], f.edge_segments[3], f.inside_factor[0], f.inside_segments[0],
              f.inside_factor[1], f.inside_segments[1]);
        program_free(&prog);
    }
}

/* hs_tri / hs_iso: one fork phase writing constant factors to the domain's slots. */
static struct program hs_constant_factors(uint32_t domain, uint32_t partitioning, uint32_t primitive,
                                          const int32_t *system_values, const float *values, uint32_t count)
{
    static struct sm4_program p;
    hs_header(&p, 1, 1, domain, partitioning, primitive, 64.0f);
    sm4_raw(&p, OP_HS_FORK_PHASE, 0, NULL);
    for (uint32_t f = 0; f < count; f++)
        sm4_dcl_io(&p, OP_DCL_OUTPUT_SIV, 0, T_OUTPUT, f, "x", system_values[f]);
    for (uint32_t f = 0; f < count; f++)
        I(&p, OP_MOV, reg1(T_OUTPUT, f, NULL, "x", 1), lf(values[f]));
    sm4_end(&p);
    struct program out;
    out.ir = lower(&p, "hs_constant_factors", &out.container);
    return out;
}

static bool run_factors(const struct program *prog, struct sb_interp_tess_factors *f, const char *what)
{
    uint32_t in_words[4] = { 0 }, pc_words[4 * 4];
    struct sb_interp_registers in = { 1, in_words };
    struct sb_interp_hull_results res = { { 0, NULL }, { 4, pc_words }, f, NULL, NULL };
    struct sb_error e;
    memset(&e, 0, sizeof(e));
    enum sb_result r = prog->ir ? sb_interp_run_hull(prog->ir, NULL, 0, 1, &in, &res, NULL, NULL, &e)
                                : SB_ERROR_INVALID_ARGUMENT;
    CHECK(r == SB_SUCCESS, "%s: %s", what, e.message);
    return r == SB_SUCCESS;
}

static void test_tri_and_isoline_slots(void)
{
    /* Tri, fractional_even: edges 3 (4 segments), 5 (6), 0.5 -> 2 (2); inside 7 (8). */
    const int32_t tri_sv[4] = { SV_TRI_EDGE, SV_TRI_EDGE + 1, SV_TRI_EDGE + 2, SV_TRI_INSIDE };
    const float tri_values[4] = { 3.0f, 5.0f, 0.5f, 7.0f };
    struct program tri = hs_constant_factors(2, 4, 4, tri_sv, tri_values, 4);
    struct sb_interp_tess_factors f;
    if (run_factors(&tri, &f, "hs_tri"))
        CHECK(!f.culled && f.edge_segments[0] == 4 && f.edge_segments[1] == 6 && f.edge_segments[2] == 2 &&
                  f.edge_segments[3] == 0 && f.inside_segments[0] == 8 && f.edge_factor[2] == 2.0f &&
                  f.inside_factor[0] == 7.0f,
              "hs_tri: edges %u %u %u %u inside %u", f.edge_segments[0], f.edge_segments[1], f.edge_segments[2],
              f.edge_segments[3], f.inside_segments[0]);
    program_free(&tri);
    /* Isoline, fractional_odd, detail (o0) declared before density (o1): density 3.5 is always
     * integer-rounded (4, slot 0); detail 2.5 stays 2.5 with 3 segments (slot 1). */
    const int32_t iso_sv[2] = { SV_LINE_DETAIL, SV_LINE_DENSITY };
    const float iso_values[2] = { 2.5f, 3.5f };
    struct program iso = hs_constant_factors(1, 3, 2, iso_sv, iso_values, 2);
    if (run_factors(&iso, &f, "hs_iso"))
        CHECK(!f.culled && f.edge_segments[0] == 4 && f.edge_factor[0] == 4.0f && f.edge_segments[1] == 3 &&
                  f.edge_factor[1] == 2.5f,
              "hs_iso: density %g/%u detail %g/%u", f.edge_factor[0], f.edge_segments[0], f.edge_factor[1],
              f.edge_segments[1]);
    program_free(&iso);
}

/* A join phase that swaps two patch constants through vpc (o# and vpc# are one register):
 * fork: o0.xy = (1, 2); join: o0.xy = vpc0.yx -> (2, 1), each lane read before any is written. */
static void test_vpc_swap(void)
{
    static struct sm4_program p;
    hs_header(&p, 1, 1, 3, 1, 3, 64.0f);
    sm4_raw(&p, OP_HS_FORK_PHASE, 0, NULL);
    sm4_dcl_io(&p, OP_DCL_OUTPUT, 0, T_OUTPUT, 0, "xy", -1);
    I(&p, OP_MOV, reg1(T_OUTPUT, 0, NULL, "xy", 1), l4(fbits(1.0f), fbits(2.0f), 0, 0));
    I0(&p, OP_RET, 0);
    sm4_raw(&p, OP_HS_JOIN_PHASE, 0, NULL);
    sm4_decl(&p, OP_DCL_INPUT, reg1(T_VPC, 0, NULL, "xy", 1), 0, NULL);
    sm4_dcl_io(&p, OP_DCL_OUTPUT, 0, T_OUTPUT, 0, "xy", -1);
    I(&p, OP_MOV, reg1(T_OUTPUT, 0, NULL, "xy", 1), reg1(T_VPC, 0, NULL, "yxxx", 0));
    sm4_end(&p);
    struct program prog;
    prog.ir = lower(&p, "hs_vpc_swap", &prog.container);
    if (!prog.ir)
        return;
    uint32_t in_words[4] = { 0 }, pc_words[4] = { 0 };
    struct sb_interp_registers in = { 1, in_words };
    struct sb_interp_hull_results res = { { 0, NULL }, { 1, pc_words }, NULL, NULL, NULL };
    struct sb_error e;
    memset(&e, 0, sizeof(e));
    enum sb_result r = sb_interp_run_hull(prog.ir, NULL, 0, 1, &in, &res, NULL, NULL, &e);
    CHECK(r == SB_SUCCESS && bitsf(pc_words[0]) == 2.0f && bitsf(pc_words[1]) == 1.0f,
          "hs_vpc_swap: %s (%g %g), want (2 1)", e.message, bitsf(pc_words[0]), bitsf(pc_words[1]));
    program_free(&prog);
}

/* hs_rsq: control point o0.x = rsq(v[k][0].x); fork: o0.x = vocp[0][0].x (edge 0),
 * o1.x = vicp[0][0].x (edge 1, exact), edges 2, 3 and insides 1. */
static struct program hs_rsq(void)
{
    static struct sm4_program p;
    hs_header(&p, 1, 1, 3, 3, 3, 64.0f);
    sm4_raw(&p, OP_HS_CONTROL_POINT_PHASE, 0, NULL);
    sm4_decl(&p, OP_DCL_INPUT, arrayed(T_INPUT, 1, 0, NULL, "x", 1), 0, NULL);
    sm4_dcl_io(&p, OP_DCL_OUTPUT, 0, T_OUTPUT, 0, "x", -1);
    I(&p, OP_RSQ, reg1(T_OUTPUT, 0, NULL, "x", 1), arrayed(T_INPUT, 0, 0, NULL, "x", 0));
    I0(&p, OP_RET, 0);
    sm4_raw(&p, OP_HS_FORK_PHASE, 0, NULL);
    sm4_decl(&p, OP_DCL_INPUT, arrayed(T_VOCP, 1, 0, NULL, "x", 1), 0, NULL);
    sm4_decl(&p, OP_DCL_INPUT, arrayed(T_VICP, 1, 0, NULL, "x", 1), 0, NULL);
    for (uint32_t f = 0; f < 6; f++)
        sm4_dcl_io(&p, OP_DCL_OUTPUT_SIV, 0, T_OUTPUT, f, "x", (int32_t)(SV_QUAD_EDGE + f));
    I(&p, OP_MOV, reg1(T_OUTPUT, 0, NULL, "x", 1), arrayed(T_VOCP, 0, 0, NULL, "x", 0));
    I(&p, OP_MOV, reg1(T_OUTPUT, 1, NULL, "x", 1), arrayed(T_VICP, 0, 0, NULL, "x", 0));
    for (uint32_t f = 2; f < 6; f++)
        I(&p, OP_MOV, reg1(T_OUTPUT, f, NULL, "x", 1), lf(1.0f));
    sm4_end(&p);
    struct program out;
    out.ir = lower(&p, "hs_rsq", &out.container);
    return out;
}

static void test_hs_tracked(void)
{
    struct program prog = hs_rsq();
    if (!prog.ir)
        return;
    uint32_t in_words[4] = { fbits(0.25f), 0, 0, 0 }, cp_words[4], pc_words[6 * 4];
    float cp_bound[4], pc_bound[6 * 4];
    struct sb_interp_registers in = { 1, in_words };
    struct sb_interp_tess_factors f;
    struct sb_interp_hull_results res = { { 1, cp_words }, { 6, pc_words }, &f, cp_bound, pc_bound };
    struct sb_interp_tracking track;
    memset(&track, 0, sizeof(track));
    track.precision = true;
    track.undefined = true;
    struct sb_interp_options options = { .tracking = &track };
    struct sb_error e;
    memset(&e, 0, sizeof(e));
    enum sb_result r = sb_interp_run_hull(prog.ir, NULL, 0, 1, &in, &res, &options, NULL, &e);
    CHECK(r == SB_SUCCESS, "hs_rsq tracked: %s", e.message);
    /* rsq(0.25) = 2; Vulkan allows InverseSqrt 2 ULP, so the bound is positive and finite, in the
     * control point and, through vocp, in patch constant o0.x; o1.x (vicp) stays exact. */
    CHECK(r != SB_SUCCESS || (bitsf(cp_words[0]) == 2.0f && cp_bound[0] > 0.0f && isfinite(cp_bound[0]) &&
                              bitsf(pc_words[0]) == 2.0f && pc_bound[0] == cp_bound[0] && pc_bound[4] == 0.0f &&
                              f.edge_factor[0] == 2.0f && f.edge_segments[0] == 3),
          "hs_rsq bounds: cp %g (%g) pc o0 %g (%g) o1 (%g)", bitsf(cp_words[0]), cp_bound[0], bitsf(pc_words[0]),
          pc_bound[0], pc_bound[4]);
    CHECK(track.undefined_events == 0, "hs_rsq: %llu undefined events", (unsigned long long)track.undefined_events);
    sb_interp_tracking_release(&track);
    program_free(&prog);
}

/* hs_uav: 4 control points; each control-point invocation stores k + 10 * vPrim at byte 4k of
 * raw u0. One patch: words (0, 1, 2, 3), no race. Two patches: both write words 0..3, patch 1
 * last in the interpreter's order (words 10..13), and a tracked run reports write-write races
 * between invocations k and 4 + k (p * OCP + k). */
static void test_hs_uav(void)
{
    static struct sm4_program p;
    hs_header(&p, 4, 4, 3, 1, 3, 64.0f);
    sm4_dcl_uav_raw(&p, 0);
    sm4_raw(&p, OP_HS_CONTROL_POINT_PHASE, 0, NULL);
    dcl_special(&p, T_OCP_ID);
    dcl_special(&p, T_PRIM);
    sm4_raw(&p, OP_DCL_TEMPS, 1, (uint32_t[]){ 2 });
    I(&p, OP_ISHL, dr(0, "x"), special(T_OCP_ID, "x"), l1(2));
    I(&p, OP_IMAD, dr(1, "x"), special(T_PRIM, "x"), l1(10), special(T_OCP_ID, "x"));
    I(&p, OP_STORE_RAW, du(0, "x"), sr(0, "x"), sr(1, "x"));
    sm4_end(&p);
    struct program prog;
    prog.ir = lower(&p, "hs_uav", &prog.container);
    if (!prog.ir)
        return;
    uint32_t words[4] = { 0 }, in_words[8 * 4] = { 0 };
    struct sb_rt_resource uav;
    memset(&uav, 0, sizeof(uav));
    uav.resource_class = SB_IR_RESOURCE_UAV;
    uav.data = words;
    uav.size = sizeof(words);
    uav.layers = uav.mip_levels = uav.sample_count = 1;
    struct sb_interp_registers in = { 1, in_words };
    struct sb_interp_hull_results res = { { 0, NULL }, { 0, NULL }, NULL, NULL, NULL };
    struct sb_interp_tracking track;
    memset(&track, 0, sizeof(track));
    track.undefined = true;
    struct sb_interp_options options = { .tracking = &track };
    struct sb_error e;
    memset(&e, 0, sizeof(e));
    enum sb_result r = sb_interp_run_hull(prog.ir, &uav, 1, 1, &in, &res, &options, NULL, &e);
    CHECK(r == SB_SUCCESS && words[0] == 0 && words[1] == 1 && words[2] == 2 && words[3] == 3 &&
              track.undefined_events == 0,
          "hs_uav 1 patch: %s, words %u %u %u %u, %llu events", e.message, words[0], words[1], words[2], words[3],
          (unsigned long long)track.undefined_events);
    sb_interp_tracking_release(&track);
    r = sb_interp_run_hull(prog.ir, &uav, 1, 2, &in, &res, &options, NULL, &e);
    CHECK(r == SB_SUCCESS && words[0] == 10 && words[3] == 13 && track.undefined_events == 4 && track.kept == 4 &&
              track.events[0].kind == SB_INTERP_UNDEFINED_WRITE_WRITE && track.events[0].invocation[0] == 0 &&
              track.events[0].invocation[1] == 4 && track.events[0].byte_offset == 0 && track.undefined_word &&
              track.undefined_word[0] && track.undefined_word[0][3],
          "hs_uav 2 patches: %s, words %u .. %u, %llu events (first: kind %d, invocations %u %u, byte %llu)",
          e.message, words[0], words[3], (unsigned long long)track.undefined_events,
          track.kept ? (int)track.events[0].kind : -1, track.kept ? track.events[0].invocation[0] : 0,
          track.kept ? track.events[0].invocation[1] : 0,
          track.kept ? (unsigned long long)track.events[0].byte_offset : 0ull);
    sb_interp_tracking_release(&track);
    program_free(&prog);
}

/*
 * ds_quad: 4 control points, quad.
 *   o0 = (vDomain.x, vDomain.y, vDomain.z, utof(vPrim))
 *   o1.x = vDomain.x * vicp[2][0].y + vpc6.x;  o1.y = vpc0.x;  o1.zw = vicp[3][0].zw
 * o2 is declared but never written.
 */
static struct program ds_quad(void)
{
    static struct sm4_program p;
    sm4_begin(&p, 4, 5, 0, 0);
    sm4_raw(&p, OP_DCL_INPUT_CONTROL_POINT_COUNT | (4u << 11), 0, NULL);
    sm4_raw(&p, OP_DCL_TESS_DOMAIN | (3u << 11), 0, NULL);
    sm4_decl(&p, OP_DCL_INPUT, sm4_reg(T_DOMAIN, 0, NULL, NULL, "xyz", 1), 0, NULL);
    sm4_decl(&p, OP_DCL_INPUT, arrayed(T_VICP, 4, 0, NULL, "xyzw", 1), 0, NULL);
    sm4_dcl_io(&p, OP_DCL_INPUT_SIV, 0, T_VPC, 0, "x", SV_QUAD_EDGE);
    sm4_dcl_io(&p, OP_DCL_INPUT, 0, T_VPC, 6, "x", -1);
    dcl_special(&p, T_PRIM);
    sm4_dcl_io(&p, OP_DCL_OUTPUT, 0, T_OUTPUT, 0, "xyzw", -1);
    sm4_dcl_io(&p, OP_DCL_OUTPUT, 0, T_OUTPUT, 1, "xyzw", -1);
    sm4_dcl_io(&p, OP_DCL_OUTPUT, 0, T_OUTPUT, 2, "xyzw", -1);
    I(&p, OP_MOV, reg1(T_OUTPUT, 0, NULL, "xyz", 1), special(T_DOMAIN, "xyzx"));
    I(&p, OP_UTOF, reg1(T_OUTPUT, 0, NULL, "w", 1), special(T_PRIM, "x"));
    I(&p, OP_MAD, reg1(T_OUTPUT, 1, NULL, "x", 1), special(T_DOMAIN, "x"), arrayed(T_VICP, 2, 0, NULL, "y", 0),
      reg1(T_VPC, 6, NULL, "x", 0));
    I(&p, OP_MOV, reg1(T_OUTPUT, 1, NULL, "y", 1), reg1(T_VPC, 0, NULL, "x", 0));
    I(&p, OP_MOV, reg1(T_OUTPUT, 1, NULL, "zw", 1), arrayed(T_VICP, 3, 0, NULL, "xxzw", 0));
    sm4_end(&p);
    struct program out;
    out.ir = lower(&p, "ds_quad", &out.container);
    return out;
}

static void test_ds_quad(void)
{
    struct program prog = ds_quad();
    if (!prog.ir)
        return;
    /* Two patches of control points (one register) and patch constants (8 registers). */
    float cp[2][4][4] = { { { 0 } } }, pc[2][8][4] = { { { 0 } } };
    cp[0][2][1] = 6.0f, cp[0][3][2] = 7.0f, cp[0][3][3] = 8.0f;
    cp[1][2][1] = -2.0f, cp[1][3][2] = 9.0f, cp[1][3][3] = 10.0f;
    pc[0][0][0] = 1.25f, pc[0][6][0] = 0.5f;
    pc[1][0][0] = 3.0f, pc[1][6][0] = 4.0f;
    uint32_t cp_words[32], pc_words[64], out_words[3 * 3 * 4];
    words_of(&cp[0][0][0], 32, cp_words);
    words_of(&pc[0][0][0], 64, pc_words);
    for (uint32_t i = 0; i < 36; i++)
        out_words[i] = 0xDEADBEEFu;
    const uint32_t patch_of_point[3] = { 0, 1, 1 };
    /* The third float of a quad location is ignored: vDomain.z is 0. */
    const float locations[9] = { 0.25f, 0.75f, 0.9f, 1.0f, 0.0f, 0.5f, 0.5f, 0.5f, 0.0f };
    struct sb_interp_registers cps = { 1, cp_words }, pcs = { 8, pc_words }, out = { 3, out_words };
    struct sb_error e;
    memset(&e, 0, sizeof(e));
    enum sb_result r = sb_interp_run_domain(prog.ir, NULL, 0, 3, patch_of_point, locations, 2, &cps, &pcs, &out,
                                            NULL, NULL, &e);
    CHECK(r == SB_SUCCESS, "ds_quad: %s", e.message);
    if (r == SB_SUCCESS) {
        /* point 0 (patch 0): o0 = (0.25, 0.75, 0, 0), o1 = (0.25 * 6 + 0.5 = 2, 1.25, 7, 8);
         * point 1 (patch 1): o0 = (1, 0, 0, 1), o1 = (1 * -2 + 4 = 2, 3, 9, 10);
         * point 2 (patch 1): o0 = (0.5, 0.5, 0, 1), o1 = (0.5 * -2 + 4 = 3, 3, 9, 10). */
        const float want[3][2][4] = {
            { { 0.25f, 0.75f, 0, 0 }, { 2.0f, 1.25f, 7, 8 } },
            { { 1, 0, 0, 1 }, { 2.0f, 3, 9, 10 } },
            { { 0.5f, 0.5f, 0, 1 }, { 3.0f, 3, 9, 10 } },
        };
        for (uint32_t i = 0; i < 3; i++)
            for (uint32_t reg = 0; reg < 2; reg++)
                for (uint32_t c = 0; c < 4; c++)
                    CHECK(bitsf(out_words[(i * 3 + reg) * 4 + c]) == want[i][reg][c],
                          "ds_quad point %u o%u.%c = %g, want %g", i, reg, "xyzw"[c],
                          bitsf(out_words[(i * 3 + reg) * 4 + c]), want[i][reg][c]);
        CHECK(out_words[2 * 4] == 0xDEADBEEFu && out_words[(2 * 3 + 2) * 4 + 3] == 0xDEADBEEFu,
              "ds_quad: unwritten o2 changed");
    }
    /* A point naming a patch past patch_count is refused. */
    const uint32_t bad_patch[3] = { 0, 2, 1 };
    r = sb_interp_run_domain(prog.ir, NULL, 0, 3, bad_patch, locations, 2, &cps, &pcs, &out, NULL, NULL, &e);
    CHECK(r == SB_ERROR_INVALID_ARGUMENT && strstr(e.message, "point 1 names patch 2 of 2"),
          "ds_quad bad patch: %d %s", r, e.message);
    program_free(&prog);
}

/* ds_tri: o0 = (vDomain.xyz, 1): all three barycentrics reach the program. */
static void test_ds_tri(void)
{
    static struct sm4_program p;
    sm4_begin(&p, 4, 5, 0, 0);
    sm4_raw(&p, OP_DCL_INPUT_CONTROL_POINT_COUNT | (3u << 11), 0, NULL);
    sm4_raw(&p, OP_DCL_TESS_DOMAIN | (2u << 11), 0, NULL);
    sm4_decl(&p, OP_DCL_INPUT, sm4_reg(T_DOMAIN, 0, NULL, NULL, "xyz", 1), 0, NULL);
    sm4_dcl_io(&p, OP_DCL_OUTPUT, 0, T_OUTPUT, 0, "xyzw", -1);
    I(&p, OP_MOV, reg1(T_OUTPUT, 0, NULL, "xyz", 1), special(T_DOMAIN, "xyzx"));
    I(&p, OP_MOV, reg1(T_OUTPUT, 0, NULL, "w", 1), lf(1.0f));
    sm4_end(&p);
    struct program prog;
    prog.ir = lower(&p, "ds_tri", &prog.container);
    if (!prog.ir)
        return;
    const uint32_t patch_of_point[2] = { 0, 0 };
    const float locations[6] = { 0.125f, 0.375f, 0.5f, 0.0f, 0.0f, 1.0f };
    uint32_t out_words[8];
    struct sb_interp_registers none = { 0, NULL }, out = { 1, out_words };
    struct sb_error e;
    memset(&e, 0, sizeof(e));
    enum sb_result r =
        sb_interp_run_domain(prog.ir, NULL, 0, 2, patch_of_point, locations, 1, &none, &none, &out, NULL, NULL, &e);
    CHECK(r == SB_SUCCESS && bitsf(out_words[0]) == 0.125f && bitsf(out_words[1]) == 0.375f &&
              bitsf(out_words[2]) == 0.5f && bitsf(out_words[3]) == 1.0f && bitsf(out_words[6]) == 1.0f &&
              bitsf(out_words[4]) == 0.0f,
          "ds_tri: %s (%g %g %g %g)", e.message, bitsf(out_words[0]), bitsf(out_words[1]), bitsf(out_words[2]),
          bitsf(out_words[3]));
    /* A hull entry point refuses a domain program. */
    struct sb_interp_hull_results res = { { 0, NULL }, { 0, NULL }, NULL, NULL, NULL };
    r = sb_interp_run_hull(prog.ir, NULL, 0, 1, &none, &res, NULL, NULL, &e);
    CHECK(r == SB_ERROR_INVALID_ARGUMENT && strstr(e.message, "not a hull shader"), "run_hull on a DS: %d %s", r,
          e.message);
    program_free(&prog);
}

/* The public tessellator: a quad of factors 2 everywhere is the 3 x 3 grid {0, 0.5, 1}^2,
 * 8 clockwise triangles; refusals are structured errors. */
static void test_tessellate_patch(void)
{
    struct sb_interp_tess_input in = { SB_INTERP_TESS_QUAD, SB_INTERP_TESS_INTEGER, SB_INTERP_TESS_TRIANGLE_CW,
                                       { 2, 2, 2, 2 }, { 2, 2 }, 0.0f };
    struct sb_interp_tess_output out;
    struct sb_error e;
    memset(&e, 0, sizeof(e));
    enum sb_result r = sb_interp_tessellate_patch(&in, &out, &e);
    CHECK(r == SB_SUCCESS && !out.culled && out.components == 2 && out.point_count == 9 && out.index_count == 24,
          "tessellate quad 2: %s, %u points, %u indices", e.message, out.point_count, out.index_count);
    uint32_t grid = 0;
    for (uint32_t i = 0; r == SB_SUCCESS && i < out.point_count; i++) {
        float u = out.points[i * 2], v = out.points[i * 2 + 1];
        bool on_grid = (u == 0.0f || u == 0.5f || u == 1.0f) && (v == 0.0f || v == 0.5f || v == 1.0f);
        grid |= on_grid ? 1u << (uint32_t)(u * 2 + v * 6) : 0;
    }
    CHECK(r != SB_SUCCESS || grid == 0x1FF, "tessellate quad 2: points are not the 3 x 3 grid (%03x)", grid);
    for (uint32_t t = 0; r == SB_SUCCESS && t + 2 < out.index_count; t += 3) {
        const float *a = &out.points[out.indices[t] * 2], *b = &out.points[out.indices[t + 1] * 2];
        const float *c = &out.points[out.indices[t + 2] * 2];
        float cross = (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]);
        /* Half a 0.5 x 0.5 cell: area 1/8, so u x v = 2 x area = 0.25, positive when clockwise. */
        CHECK(cross == 0.25f, "tessellate quad 2: triangle %u has u x v %g, want 0.25", t / 3, cross);
    }
    sb_interp_tess_release(&out);
    in.edge[1] = NAN;
    r = sb_interp_tessellate_patch(&in, &out, &e);
    CHECK(r == SB_SUCCESS && out.culled && !out.points && !out.point_count, "tessellate NaN edge: not culled");
    sb_interp_tess_release(&out);
    in.output_primitive = SB_INTERP_TESS_LINE;
    r = sb_interp_tessellate_patch(&in, &out, &e);
    CHECK(r == SB_ERROR_INVALID_ARGUMENT && strstr(e.message, "cannot come from domain 3"), "lines from a quad: %d %s",
          r, e.message);
    sb_interp_tess_release(&out);
    r = sb_interp_tessellate_patch(NULL, &out, &e);
    CHECK(r == SB_ERROR_INVALID_ARGUMENT, "tessellate NULL input: %d", r);
    sb_interp_tess_release(NULL);
}

/* hs_quad -> the tessellator -> ds_quad: the domain program runs at every point the hull
 * shader's factors give, and its outputs follow from those points and the hull results. */
static void test_chain(void)
{
    struct program hs = hs_quad(), ds = ds_quad();
    if (!hs.ir || !ds.ir) {
        program_free(&hs);
        program_free(&ds);
        return;
    }
    uint32_t in_words[32], cp_words[32], pc_words[64];
    words_of(&quad_in[0][0][0], 32, in_words);
    struct sb_interp_registers in = { 1, in_words };
    struct sb_interp_tess_factors factors[2];
    struct sb_interp_hull_results res = { { 1, cp_words }, { 8, pc_words }, factors, NULL, NULL };
    struct sb_error e;
    memset(&e, 0, sizeof(e));
    enum sb_result r = sb_interp_run_hull(hs.ir, NULL, 0, 2, &in, &res, NULL, NULL, &e);
    struct sb_interp_tess_input patch = { SB_INTERP_TESS_QUAD, SB_INTERP_TESS_INTEGER, SB_INTERP_TESS_TRIANGLE_CW,
                                          { bitsf(pc_words[0]), bitsf(pc_words[4]), bitsf(pc_words[8]),
                                            bitsf(pc_words[12]) },
                                          { bitsf(pc_words[16]), bitsf(pc_words[20]) }, 64.0f };
    struct sb_interp_tess_output t;
    memset(&t, 0, sizeof(t));
    if (r == SB_SUCCESS)
        r = sb_interp_tessellate_patch(&patch, &t, &e);
    CHECK(r == SB_SUCCESS && t.point_count > 16 && t.edge_segments[3] == factors[0].edge_segments[3],
          "chain: %s (%u points)", e.message, t.point_count);
    if (r == SB_SUCCESS && t.point_count) {
        uint32_t *patch_of_point = calloc(t.point_count, sizeof(uint32_t));
        float *locations = calloc((size_t)t.point_count * 3, sizeof(float));
        uint32_t *out_words = calloc((size_t)t.point_count * 2 * 4, sizeof(uint32_t));
        if (patch_of_point && locations && out_words) {
            for (uint32_t i = 0; i < t.point_count; i++) {
                locations[i * 3] = t.points[i * 2];
                locations[i * 3 + 1] = t.points[i * 2 + 1];
            }
            struct sb_interp_registers cps = { 1, cp_words }, pcs = { 8, pc_words }, out = { 2, out_words };
            r = sb_interp_run_domain(ds.ir, NULL, 0, t.point_count, patch_of_point, locations, 1, &cps, &pcs, &out,
                                     NULL, NULL, &e);
            CHECK(r == SB_SUCCESS, "chain domain: %s", e.message);
            /* o0.xy = the point; o1.x = u * 6 (control point 2's y, 2 * 3) + 1.7 (o6.x); o1.y = 1.2. */
            uint32_t wrong = 0;
            for (uint32_t i = 0; r == SB_SUCCESS && i < t.point_count; i++) {
                const uint32_t *o = &out_words[i * 8];
                float u = t.points[i * 2], v = t.points[i * 2 + 1];
                float product = u * 6.0f; /* the IR's mad rounds its product first */
                float mad = product + (1.2f + 0.5f);
                wrong += bitsf(o[0]) != u || bitsf(o[1]) != v || bitsf(o[3]) != 0.0f || bitsf(o[4]) != mad ||
                         bitsf(o[5]) != 1.2f;
            }
            CHECK(wrong == 0, "chain: %u of %u points have wrong outputs", wrong, t.point_count);
        }
        free(patch_of_point);
        free(locations);
        free(out_words);
    }
    sb_interp_tess_release(&t);
    program_free(&hs);
    program_free(&ds);
}

/* A tracked domain run: o0.x = rsq(vDomain.x) carries a bound, o0.y = vDomain.y none. */
static void test_ds_tracked(void)
{
    static struct sm4_program p;
    sm4_begin(&p, 4, 5, 0, 0);
    sm4_raw(&p, OP_DCL_INPUT_CONTROL_POINT_COUNT | (1u << 11), 0, NULL);
    sm4_raw(&p, OP_DCL_TESS_DOMAIN | (3u << 11), 0, NULL);
    sm4_decl(&p, OP_DCL_INPUT, sm4_reg(T_DOMAIN, 0, NULL, NULL, "xy", 1), 0, NULL);
    sm4_dcl_io(&p, OP_DCL_OUTPUT, 0, T_OUTPUT, 0, "xy", -1);
    I(&p, OP_RSQ, reg1(T_OUTPUT, 0, NULL, "x", 1), special(T_DOMAIN, "x"));
    I(&p, OP_MOV, reg1(T_OUTPUT, 0, NULL, "y", 1), special(T_DOMAIN, "y"));
    sm4_end(&p);
    struct program prog;
    prog.ir = lower(&p, "ds_rsq", &prog.container);
    if (!prog.ir)
        return;
    const uint32_t patch_of_point[1] = { 0 };
    const float locations[3] = { 0.25f, 0.5f, 0.0f };
    uint32_t out_words[4] = { 0 };
    struct sb_interp_registers none = { 0, NULL }, out = { 1, out_words };
    struct sb_interp_tracking track;
    memset(&track, 0, sizeof(track));
    track.precision = true;
    struct sb_interp_options options = { .tracking = &track };
    struct sb_error e;
    memset(&e, 0, sizeof(e));
    enum sb_result r = sb_interp_run_domain(prog.ir, NULL, 0, 1, patch_of_point, locations, 1, &none, &none, &out,
                                            &options, NULL, &e);
    CHECK(r == SB_SUCCESS && bitsf(out_words[0]) == 2.0f && track.output_bound && track.output_bound[0] > 0.0f &&
              track.output_bound[1] == 0.0f,
          "ds_rsq tracked: %s, bound %g %g", e.message, track.output_bound ? track.output_bound[0] : -1.0f,
          track.output_bound ? track.output_bound[1] : -1.0f);
    sb_interp_tracking_release(&track);
    program_free(&prog);
}

int main(void)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    test_hs_quad();
    test_hs_factors();
    test_tri_and_isoline_slots();
    test_vpc_swap();
    test_hs_tracked();
    test_hs_uav();
    test_ds_quad();
    test_ds_tri();
    test_tessellate_patch();
    test_chain();
    test_ds_tracked();
    if (failures) {
        printf("%d failure(s)\n", failures);
        return 1;
    }
    printf("interp_tess: all checks passed\n");
    return 0;
}
