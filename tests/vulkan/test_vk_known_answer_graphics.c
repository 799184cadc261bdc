/* SPDX-License-Identifier: MIT */
/*
 * Graphics known answers: a translated vs_4_0 + ps_4_0 pair drawn on
 * lavapipe into two 4x4 render targets and read back. The VS makes a
 * full-screen triangle from SV_VertexID alone and passes its position as a
 * linear TEXCOORD0 and vertex id + 100 as a nointerpolation uint
 * TEXCOORD1; the PS reads SV_Position, discards pixels whose x + y is odd,
 * and writes (x, y, flat value, 9) to a uint target and (TEXCOORD0,
 * SV_Position.xy) to a float target. What this checks: SV_VertexID, the
 * position built-ins both ways (pixel centres at .5, Vulkan's y-down
 * framebuffer without any flip by the translator), interpolation modes
 * (the leading vertex's value for nointerpolation, as in D3D), discard,
 * integer and float render targets — with the validation layer on.
 *
 * A second case puts a gs_4_0 between a VS and a PS: 4 points in, each
 * expanded into a one-pixel-wide, full-height quad (a 4-vertex triangle
 * strip) whose flat uint is 10 * point + vertex; the PS writes it. This
 * checks GS inputs (2-D v[vertex][register]), emit, the strip topology, GS
 * outputs feeding the PS, and D3D's leading-vertex rule (triangle 0 of the
 * strip shows vertex 0's value, triangle 1 vertex 1's).
 *
 * Usage: test_vk_known_answer_graphics
 * Exit: 0 pass, 1 fail, 77 no Vulkan device.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sm4_asm.h"
#include "shaderbridge/translate.h"
#include "vk_harness.h"

#define W 4
#define H 4

static int failures;

static uint32_t fbits(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

static void build_vs(struct blob *out)
{
    static struct sm4_program p;
    sm4_begin(&p, 1, 4, 0, 1);
    sm4_dcl_io(&p, 96, 0, T_INPUT, 0, "x", 6);          /* dcl_input_sgv v0.x, vertex_id */
    sm4_dcl_io(&p, 103, 0, T_OUTPUT, 0, "xyzw", 1);     /* dcl_output_siv o0, position */
    sm4_dcl_io(&p, 101, 0, T_OUTPUT, 1, "xy", -1);
    sm4_dcl_io(&p, 101, 0, T_OUTPUT, 2, "x", -1);
    struct sm4_operand v0 = sm4_reg(T_INPUT, 1, (uint32_t[]){ 0 }, NULL, "x", 0);
    I(&p, OP_IEQ, dr(0, "x"), v0, l1(1));
    I(&p, OP_MOVC, dr(0, "x"), sr(0, "x"), lf(3.0f), lf(-1.0f));
    I(&p, OP_IEQ, dr(0, "y"), v0, l1(2));
    I(&p, OP_MOVC, dr(0, "y"), sr(0, "y"), lf(3.0f), lf(-1.0f));
    struct sm4_operand o0 = sm4_reg(T_OUTPUT, 1, (uint32_t[]){ 0 }, NULL, "xy", 1);
    struct sm4_operand o0zw = sm4_reg(T_OUTPUT, 1, (uint32_t[]){ 0 }, NULL, "zw", 1);
    struct sm4_operand o1 = sm4_reg(T_OUTPUT, 1, (uint32_t[]){ 1 }, NULL, "xy", 1);
    struct sm4_operand o2 = sm4_reg(T_OUTPUT, 1, (uint32_t[]){ 2 }, NULL, "x", 1);
    I(&p, OP_MOV, o0, sr(0, "xyxx"));
    I(&p, OP_MOV, o0zw, l4(0, 0, 0, fbits(1.0f)));
    I(&p, OP_MOV, o1, sr(0, "xyxx"));
    I(&p, OP_IADD, o2, v0, l1(100));
    sm4_end(&p);
    const struct sig_element_spec in[] = { { 0, "SV_VertexID", 0, 6, 1, 0, 0x1, 0x1, 0 } };
    const struct sig_element_spec outs[] = {
        { 0, "SV_Position", 0, 1, 3, 0, 0xf, 0x0, 0 },
        { 0, "TEXCOORD", 0, 0, 3, 1, 0x3, 0xc, 0 },
        { 0, "TEXCOORD", 1, 0, 1, 2, 0x1, 0xe, 0 },
    };
    sm4_container_sig(&p, in, 1, outs, 3, NULL, 0, out);
}

static void build_ps(struct blob *out)
{
    static struct sm4_program p;
    sm4_begin(&p, 0, 4, 0, 1);
    sm4_dcl_io(&p, 100, 4, T_INPUT, 0, "xy", 1);        /* linear noperspective, position */
    sm4_dcl_io(&p, 98, 2, T_INPUT, 1, "xy", -1);        /* linear */
    sm4_dcl_io(&p, 98, 1, T_INPUT, 2, "x", -1);         /* constant */
    sm4_dcl_io(&p, 101, 0, T_OUTPUT, 0, "xyzw", -1);
    sm4_dcl_io(&p, 101, 0, T_OUTPUT, 1, "xyzw", -1);
    struct sm4_operand v0 = sm4_reg(T_INPUT, 1, (uint32_t[]){ 0 }, NULL, "xyxx", 0);
    struct sm4_operand v0xy = sm4_reg(T_INPUT, 1, (uint32_t[]){ 0 }, NULL, "xxxy", 0);
    struct sm4_operand v1 = sm4_reg(T_INPUT, 1, (uint32_t[]){ 1 }, NULL, "xyxx", 0);
    struct sm4_operand v2 = sm4_reg(T_INPUT, 1, (uint32_t[]){ 2 }, NULL, "x", 0);
    I(&p, OP_FTOU, dr(0, "xy"), v0);
    I(&p, OP_IADD, dr(0, "z"), sr(0, "x"), sr(0, "y"));
    I(&p, OP_AND, dr(0, "z"), sr(0, "z"), l1(1));
    IC(&p, OP_DISCARD, SM4_NZ, sr(0, "z"));
    I(&p, OP_MOV, sm4_reg(T_OUTPUT, 1, (uint32_t[]){ 0 }, NULL, "xy", 1), sr(0, "xyxx"));
    I(&p, OP_MOV, sm4_reg(T_OUTPUT, 1, (uint32_t[]){ 0 }, NULL, "z", 1), v2);
    I(&p, OP_MOV, sm4_reg(T_OUTPUT, 1, (uint32_t[]){ 0 }, NULL, "w", 1), l1(9));
    I(&p, OP_MOV, sm4_reg(T_OUTPUT, 1, (uint32_t[]){ 1 }, NULL, "xy", 1), v1);
    I(&p, OP_MOV, sm4_reg(T_OUTPUT, 1, (uint32_t[]){ 1 }, NULL, "zw", 1), v0xy);
    sm4_end(&p);
    const struct sig_element_spec in[] = {
        { 0, "SV_Position", 0, 1, 3, 0, 0xf, 0x3, 0 },
        { 0, "TEXCOORD", 0, 0, 3, 1, 0x3, 0x3, 0 },
        { 0, "TEXCOORD", 1, 0, 1, 2, 0x1, 0x1, 0 },
    };
    const struct sig_element_spec outs[] = {
        { 0, "SV_Target", 0, 0, 1, 0, 0xf, 0x0, 0 },
        { 0, "SV_Target", 1, 0, 3, 1, 0xf, 0x0, 0 },
    };
    sm4_container_sig(&p, in, 3, outs, 2, NULL, 0, out);
}

/* VS for the GS case: position unused, TEXCOORD0.x = vertex id. */
static void build_vs_points(struct blob *out)
{
    static struct sm4_program p;
    sm4_begin(&p, 1, 4, 0, 0);
    sm4_dcl_io(&p, 96, 0, T_INPUT, 0, "x", 6);
    sm4_dcl_io(&p, 103, 0, T_OUTPUT, 0, "xyzw", 1);
    sm4_dcl_io(&p, 101, 0, T_OUTPUT, 1, "x", -1);
    I(&p, OP_MOV, sm4_reg(T_OUTPUT, 1, (uint32_t[]){ 0 }, NULL, "xyzw", 1),
      l4(0, 0, 0, fbits(1.0f)));
    I(&p, OP_MOV, sm4_reg(T_OUTPUT, 1, (uint32_t[]){ 1 }, NULL, "x", 1),
      sm4_reg(T_INPUT, 1, (uint32_t[]){ 0 }, NULL, "x", 0));
    sm4_end(&p);
    const struct sig_element_spec in[] = { { 0, "SV_VertexID", 0, 6, 1, 0, 0x1, 0x1, 0 } };
    const struct sig_element_spec outs[] = {
        { 0, "SV_Position", 0, 1, 3, 0, 0xf, 0x0, 0 },
        { 0, "TEXCOORD", 0, 0, 1, 1, 0x1, 0xe, 0 },
    };
    sm4_container_sig(&p, in, 1, outs, 2, NULL, 0, out);
}

/* GS: point p -> strip (x0,-1) (x1,-1) (x0,1) (x1,1) with x0 = p/2 - 1, value 10p + k. */
static void build_gs(struct blob *out)
{
    static struct sm4_program p;
    sm4_begin(&p, 2, 4, 0, 2);
    sm4_raw(&p, 93u | (1u << 11), 0, NULL);             /* dcl_inputprimitive point */
    sm4_raw(&p, 92u | (5u << 11), 0, NULL);             /* dcl_outputtopology trianglestrip */
    sm4_decl(&p, 95, sm4_reg(T_INPUT, 2, (uint32_t[]){ 1, 1 }, NULL, "x", 1), 0, NULL);
    sm4_dcl_io(&p, 103, 0, T_OUTPUT, 0, "xyzw", 1);
    sm4_dcl_io(&p, 101, 0, T_OUTPUT, 1, "x", -1);
    sm4_raw(&p, 94, 1, (uint32_t[]){ 4 });              /* dcl_maxout 4 */
    struct sm4_operand point = sm4_reg(T_INPUT, 2, (uint32_t[]){ 0, 1 }, NULL, "x", 0);
    I(&p, OP_UTOF, dr(0, "x"), point);
    I(&p, OP_MAD, dr(0, "x"), sr(0, "x"), lf(0.5f), lf(-1.0f));
    I(&p, OP_ADD, dr(0, "y"), sr(0, "x"), lf(0.5f));
    I(&p, OP_IMUL, snull(), dr(1, "x"), point, l1(10));
    static const char *const xs[4] = { "x", "y", "x", "y" };
    for (uint32_t k = 0; k < 4; k++) {
        I(&p, OP_MOV, sm4_reg(T_OUTPUT, 1, (uint32_t[]){ 0 }, NULL, "x", 1), sr(0, xs[k]));
        I(&p, OP_MOV, sm4_reg(T_OUTPUT, 1, (uint32_t[]){ 0 }, NULL, "yzw", 1),
          l4(0, fbits(k < 2 ? -1.0f : 1.0f), 0, fbits(1.0f)));
        I(&p, OP_IADD, sm4_reg(T_OUTPUT, 1, (uint32_t[]){ 1 }, NULL, "x", 1), sr(1, "x"), l1(k));
        I0(&p, 19 /* emit */, 0);
    }
    sm4_end(&p);
    const struct sig_element_spec in[] = {
        { 0, "SV_Position", 0, 1, 3, 0, 0xf, 0x0, 0 },
        { 0, "TEXCOORD", 0, 0, 1, 1, 0x1, 0x1, 0 },
    };
    const struct sig_element_spec outs[] = {
        { 0, "SV_Position", 0, 1, 3, 0, 0xf, 0x0, 0 },
        { 0, "TEXCOORD", 0, 0, 1, 1, 0x1, 0xe, 0 },
    };
    sm4_container_sig(&p, in, 2, outs, 2, NULL, 0, out);
}

/* PS for the GS case: target 0 = (flat value, 7, 7, 7). */
static void build_ps_flat(struct blob *out)
{
    static struct sm4_program p;
    sm4_begin(&p, 0, 4, 0, 0);
    sm4_dcl_io(&p, 98, 1, T_INPUT, 1, "x", -1);
    sm4_dcl_io(&p, 101, 0, T_OUTPUT, 0, "xyzw", -1);
    I(&p, OP_MOV, sm4_reg(T_OUTPUT, 1, (uint32_t[]){ 0 }, NULL, "x", 1),
      sm4_reg(T_INPUT, 1, (uint32_t[]){ 1 }, NULL, "x", 0));
    I(&p, OP_MOV, sm4_reg(T_OUTPUT, 1, (uint32_t[]){ 0 }, NULL, "yzw", 1), l4(0, 7, 7, 7));
    sm4_end(&p);
    const struct sig_element_spec in[] = {
        { 0, "SV_Position", 0, 1, 3, 0, 0xf, 0x0, 0 },
        { 0, "TEXCOORD", 0, 0, 1, 1, 0x1, 0x1, 0 },
    };
    const struct sig_element_spec outs[] = { { 0, "SV_Target", 0, 0, 1, 0, 0xf, 0x0, 0 } };
    sm4_container_sig(&p, in, 2, outs, 1, NULL, 0, out);
}

/* ---- tessellation: VS -> hs_5_0 (factors 1) -> ds_5_0 -> PS -------------- */

static const struct sig_element_spec control_point[] = { { 0, "POS", 0, 0, 3, 0, 0xf, 0xf, 0 } };
static const struct sig_element_spec tri_factors[] = {
    { 0, "SV_TessFactor", 0, 17, 3, 0, 0x1, 0xe, 0 },
    { 0, "SV_TessFactor", 1, 18, 3, 1, 0x1, 0xe, 0 },
    { 0, "SV_TessFactor", 2, 19, 3, 2, 0x1, 0xe, 0 },
    { 0, "SV_InsideTessFactor", 0, 20, 3, 3, 0x1, 0xe, 0 },
};

/* VS: control point POS = the full-screen triangle's corner for SV_VertexID. */
static void build_vs_patch(struct blob *out)
{
    static struct sm4_program p;
    sm4_begin(&p, 1, 5, 0, 1);
    sm4_dcl_io(&p, 96, 0, T_INPUT, 0, "x", 6);
    sm4_dcl_io(&p, 101, 0, T_OUTPUT, 0, "xyzw", -1);
    struct sm4_operand v0 = sm4_reg(T_INPUT, 1, (uint32_t[]){ 0 }, NULL, "x", 0);
    I(&p, OP_IEQ, dr(0, "x"), v0, l1(1));
    I(&p, OP_MOVC, dr(0, "x"), sr(0, "x"), lf(3.0f), lf(-1.0f));
    I(&p, OP_IEQ, dr(0, "y"), v0, l1(2));
    I(&p, OP_MOVC, dr(0, "y"), sr(0, "y"), lf(3.0f), lf(-1.0f));
    I(&p, OP_MOV, sm4_reg(T_OUTPUT, 1, (uint32_t[]){ 0 }, NULL, "xy", 1), sr(0, "xyxx"));
    I(&p, OP_MOV, sm4_reg(T_OUTPUT, 1, (uint32_t[]){ 0 }, NULL, "zw", 1),
      l4(0, 0, 0, fbits(1.0f)));
    sm4_end(&p);
    const struct sig_element_spec in[] = { { 0, "SV_VertexID", 0, 6, 1, 0, 0x1, 0x1, 0 } };
    sm4_container_sig(&p, in, 1, control_point, 1, NULL, 0, out);
}

/* HS: 3 control points passed through; every tessellation factor 1 (one triangle out). */
static void build_hs(struct blob *out)
{
    static struct sm4_program p;
    sm4_begin(&p, 3, 5, 0, 0);
    sm4_raw(&p, 113, 0, NULL);                            /* hs_decls */
    sm4_raw(&p, 147u | (3u << 11), 0, NULL);              /* input control points 3 */
    sm4_raw(&p, 148u | (3u << 11), 0, NULL);              /* output control points 3 */
    sm4_raw(&p, 149u | (2u << 11), 0, NULL);              /* domain_tri */
    sm4_raw(&p, 150u | (1u << 11), 0, NULL);              /* partitioning_integer */
    sm4_raw(&p, 151u | (3u << 11), 0, NULL);              /* output_triangle_cw */
    sm4_raw(&p, 152, 1, (uint32_t[]){ fbits(1.0f) });     /* dcl_hs_max_tessfactor 1.0 */
    sm4_raw(&p, 114, 0, NULL);                            /* hs_control_point_phase */
    sm4_decl(&p, 95, sm4_reg(T_INPUT, 2, (uint32_t[]){ 3, 0 }, NULL, "xyzw", 1), 0, NULL);
    sm4_decl(&p, 95, sm4_reg(22, 0, NULL, NULL, "", 0), 0, NULL); /* vOutputControlPointID */
    sm4_dcl_io(&p, 101, 0, T_OUTPUT, 0, "xyzw", -1);
    sm4_raw(&p, OP_DCL_TEMPS, 1, (uint32_t[]){ 1 });
    I(&p, OP_MOV, dr(0, "x"), sm4_reg(22, 0, NULL, NULL, "x", 0));
    struct sm4_operand cp = sr(0, "x");
    const struct sm4_operand *rel[2] = { &cp, NULL };
    I(&p, OP_MOV, sm4_reg(T_OUTPUT, 1, (uint32_t[]){ 0 }, NULL, "xyzw", 1),
      sm4_reg(T_INPUT, 2, (uint32_t[]){ 0, 0 }, rel, "xyzw", 0));
    I0(&p, OP_RET, 0);
    for (uint32_t f = 0; f < 4; f++) {                    /* one fork phase per factor */
        sm4_raw(&p, 115, 0, NULL);                        /* hs_fork_phase */
        sm4_dcl_io(&p, 103, 0, T_OUTPUT, f, "x", (int32_t)(17 + f));
        I(&p, OP_MOV, sm4_reg(T_OUTPUT, 1, (uint32_t[]){ f }, NULL, "x", 1), lf(1.0f));
        if (f < 3)
            I0(&p, OP_RET, 0);
    }
    sm4_end(&p);
    sm4_container_sig(&p, control_point, 1, control_point, 1, tri_factors, 4, out);
}

/* DS: position = u*P0 + v*P1 + w*P2 from vDomain; TEXCOORD0 = vDomain. */
static void build_ds(struct blob *out)
{
    static struct sm4_program p;
    sm4_begin(&p, 4, 5, 0, 1);
    sm4_raw(&p, 147u | (3u << 11), 0, NULL);              /* input control points 3 */
    sm4_raw(&p, 149u | (2u << 11), 0, NULL);              /* domain_tri */
    sm4_decl(&p, 95, sm4_reg(28, 0, NULL, NULL, "xyz", 1), 0, NULL);          /* vDomain */
    sm4_decl(&p, 95, sm4_reg(25, 2, (uint32_t[]){ 3, 0 }, NULL, "xyzw", 1), 0, NULL);
    sm4_dcl_io(&p, 103, 0, T_OUTPUT, 0, "xyzw", 1);
    sm4_dcl_io(&p, 101, 0, T_OUTPUT, 1, "xyz", -1);
    struct sm4_operand cp0 = sm4_reg(25, 2, (uint32_t[]){ 0, 0 }, NULL, "xyzw", 0);
    struct sm4_operand cp1 = sm4_reg(25, 2, (uint32_t[]){ 1, 0 }, NULL, "xyzw", 0);
    struct sm4_operand cp2 = sm4_reg(25, 2, (uint32_t[]){ 2, 0 }, NULL, "xyzw", 0);
    I(&p, OP_MUL, dr(0, "xyzw"), sm4_reg(28, 0, NULL, NULL, "yyyy", 0), cp1);
    I(&p, OP_MAD, dr(0, "xyzw"), sm4_reg(28, 0, NULL, NULL, "xxxx", 0), cp0, sr(0, "xyzw"));
    I(&p, OP_MAD, sm4_reg(T_OUTPUT, 1, (uint32_t[]){ 0 }, NULL, "xyzw", 1),
      sm4_reg(28, 0, NULL, NULL, "zzzz", 0), cp2, sr(0, "xyzw"));
    I(&p, OP_MOV, sm4_reg(T_OUTPUT, 1, (uint32_t[]){ 1 }, NULL, "xyz", 1),
      sm4_reg(28, 0, NULL, NULL, "xyzx", 0));
    sm4_end(&p);
    const struct sig_element_spec outs[] = {
        { 0, "SV_Position", 0, 1, 3, 0, 0xf, 0x0, 0 },
        { 0, "TEXCOORD", 0, 0, 3, 1, 0x7, 0x8, 0 },
    };
    sm4_container_sig(&p, control_point, 1, outs, 2, tri_factors, 4, out);
}

/* PS: float target 0 = (TEXCOORD0.xyz, 1). */
static void build_ps_domain(struct blob *out)
{
    static struct sm4_program p;
    sm4_begin(&p, 0, 5, 0, 0);
    sm4_dcl_io(&p, 98, 2, T_INPUT, 1, "xyz", -1);
    sm4_dcl_io(&p, 101, 0, T_OUTPUT, 0, "xyzw", -1);
    I(&p, OP_MOV, sm4_reg(T_OUTPUT, 1, (uint32_t[]){ 0 }, NULL, "xyz", 1),
      sm4_reg(T_INPUT, 1, (uint32_t[]){ 1 }, NULL, "xyzx", 0));
    I(&p, OP_MOV, sm4_reg(T_OUTPUT, 1, (uint32_t[]){ 0 }, NULL, "w", 1), lf(1.0f));
    sm4_end(&p);
    const struct sig_element_spec in[] = {
        { 0, "SV_Position", 0, 1, 3, 0, 0xf, 0x0, 0 },
        { 0, "TEXCOORD", 0, 0, 3, 1, 0x7, 0x7, 0 },
    };
    const struct sig_element_spec outs[] = { { 0, "SV_Target", 0, 0, 3, 0, 0xf, 0x0, 0 } };
    sm4_container_sig(&p, in, 2, outs, 1, NULL, 0, out);
}

static struct sb_translation *translate(const struct blob *b, const char *what)
{
    struct sb_translation *t = NULL;
    struct sb_error err = { 0 };
    enum sb_result r = sb_translate(b->bytes, b->size, NULL, &t, &err);
    if (r != SB_SUCCESS) {
        fprintf(stderr, "FAIL %s: translate: %s at %llu: %s\n", what, sb_result_name(r),
                (unsigned long long)err.offset, err.message);
        failures++;
        return NULL;
    }
    return t;
}

static uint32_t ulp_diff(uint32_t a, uint32_t b)
{
    return a > b ? a - b : b - a;
}

/* Compares one pixel's four words; floats within 2 ULPs when `ulps`. */
static void check_pixel(const char *what, uint32_t x, uint32_t y, const uint32_t *got,
                        const uint32_t *want, bool ulps)
{
    for (int k = 0; k < 4; k++) {
        bool ok = ulps ? ulp_diff(got[k], want[k]) <= 2 : got[k] == want[k];
        if (!ok) {
            if (failures < 16)
                fprintf(stderr, "FAIL %s pixel (%u,%u)[%d] = 0x%08x, want 0x%08x\n", what, x, y,
                        k, got[k], want[k]);
            failures++;
        }
    }
}

static const uint32_t clear_words[4] = { 0xDEADBEEFu, 0xDEADBEEFu, 0xDEADBEEFu, 0xDEADBEEFu };

static void check_vs_ps(const struct vkh_buffer *out)
{
    const uint32_t *u = out[0].mapped, *f = out[1].mapped;
    for (uint32_t y = 0; y < H; y++)
        for (uint32_t x = 0; x < W; x++) {
            uint32_t i = 4 * (y * W + x);
            bool kept = ((x + y) & 1) == 0;
            uint32_t want_u[4] = { x, y, 100, 9 };
            uint32_t want_f[4] = {
                fbits(2.0f * ((float)x + 0.5f) / W - 1.0f), fbits(2.0f * ((float)y + 0.5f) / H - 1.0f),
                fbits((float)x + 0.5f), fbits((float)y + 0.5f),
            };
            check_pixel("vs+ps uint target", x, y, &u[i], kept ? want_u : clear_words, false);
            check_pixel("vs+ps float target", x, y, &f[i], kept ? want_f : clear_words, kept);
        }
}

/* Column x is point x's quad; its upper half is strip triangle 0 (leading vertex 0),
 * its lower half triangle 1 (leading vertex 1). */
static void check_gs(const struct vkh_buffer *out)
{
    const uint32_t *u = out[0].mapped;
    for (uint32_t y = 0; y < H; y++)
        for (uint32_t x = 0; x < W; x++) {
            uint32_t want[4] = { 10 * x + (y < H / 2 ? 0 : 1), 7, 7, 7 };
            check_pixel("vs+gs+ps target", x, y, &u[4 * (y * W + x)], want, false);
        }
}

/* With factors of 1 the patch comes out as itself, so a pixel's domain location is its
 * barycentric position in the full-screen triangle (-1,-1), (3,-1), (-1,3). */
static void check_tess(const struct vkh_buffer *out)
{
    const uint32_t *f = out[0].mapped;
    for (uint32_t y = 0; y < H; y++)
        for (uint32_t x = 0; x < W; x++) {
            float nx = 2.0f * ((float)x + 0.5f) / W - 1.0f, ny = 2.0f * ((float)y + 0.5f) / H - 1.0f;
            float v = (nx + 1.0f) / 4.0f, w = (ny + 1.0f) / 4.0f, u = 1.0f - v - w;
            uint32_t want[4] = { fbits(u), fbits(v), fbits(w), fbits(1.0f) };
            check_pixel("vs+hs+ds+ps target", x, y, &f[4 * (y * W + x)], want, true);
        }
}

struct gfx_case {
    const char *name;
    void (*vs)(struct blob *), (*hs)(struct blob *), (*ds)(struct blob *), (*gs)(struct blob *),
        (*ps)(struct blob *);
    VkPrimitiveTopology topology;
    uint32_t vertex_count, color_count;
    VkFormat formats[2];
    void (*check)(const struct vkh_buffer *);
};

static const struct gfx_case cases[] = {
    { "vs_ps_vertex_id_position_discard", build_vs, NULL, NULL, NULL, build_ps,
      VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST, 3, 2,
      { VK_FORMAT_R32G32B32A32_UINT, VK_FORMAT_R32G32B32A32_SFLOAT }, check_vs_ps },
    { "gs_point_to_strip_leading_vertex", build_vs_points, NULL, NULL, build_gs, build_ps_flat,
      VK_PRIMITIVE_TOPOLOGY_POINT_LIST, 4, 1, { VK_FORMAT_R32G32B32A32_UINT }, check_gs },
    { "hs_ds_tri_factors_1_domain_location", build_vs_patch, build_hs, build_ds, NULL,
      build_ps_domain, VK_PRIMITIVE_TOPOLOGY_PATCH_LIST, 3, 1,
      { VK_FORMAT_R32G32B32A32_SFLOAT }, check_tess },
};

/* Translates the case's stages (NULL builders are absent stages); modules[] in
 * vkh_graphics_desc order: vs, tcs, tes, gs, fs. */
static bool modules(struct vkh *h, const struct gfx_case *c, struct sb_translation **t,
                    VkShaderModule *m)
{
    void (*builders[5])(struct blob *) = { c->vs, c->hs, c->ds, c->gs, c->ps };
    static struct blob b;
    for (int i = 0; i < 5; i++) {
        if (!builders[i])
            continue;
        builders[i](&b);
        t[i] = translate(&b, c->name);
        if (!t[i] || vkh_shader_module(h, t[i]->words, t[i]->word_count, &m[i]) != VK_SUCCESS)
            return false;
    }
    return true;
}

static void run(struct vkh *h, const struct gfx_case *c)
{
    struct sb_translation *t[5] = { NULL };
    VkShaderModule m[5] = { VK_NULL_HANDLE };
    struct vkh_layout layout;
    VkResult r = vkh_layout_create(h, NULL, 0, 0, &layout);
    bool ok = r == VK_SUCCESS && modules(h, c, t, m);
    struct vkh_graphics_desc d = {
        .vs = m[0], .tcs = m[1], .tes = m[2], .gs = m[3], .fs = m[4],
        .topology = c->topology,
        .patch_control_points = 3,
        .color_count = c->color_count,
        .color_formats = { c->formats[0], c->formats[1] },
        .layout = layout.pipeline,
    };
    for (int i = 0; i < 5; i++)
        d.entry[i] = t[i] ? t[i]->entry_point : NULL;
    VkPipeline pipeline = VK_NULL_HANDLE;
    VkRenderPass pass = VK_NULL_HANDLE;
    struct vkh_buffer out[2];
    memset(out, 0, sizeof(out));
    if (ok)
        r = vkh_graphics_pipeline(h, &d, &pipeline, &pass);
    if (ok && r == VK_SUCCESS)
        r = vkh_draw(h, &d, pipeline, pass, W, H, clear_words, c->vertex_count, out);
    if (ok && r != VK_SUCCESS) {
        fprintf(stderr, "FAIL %s: Vulkan: %s\n", c->name, vkh_result_name(r));
        failures++;
    } else if (ok) {
        c->check(out);
    } else if (!failures) {
        failures++;
    }
    for (uint32_t i = 0; i < c->color_count; i++)
        vkh_buffer_destroy(h, &out[i]);
    if (pipeline)
        vkDestroyPipeline(h->device, pipeline, NULL);
    if (pass)
        vkDestroyRenderPass(h->device, pass, NULL);
    for (int i = 0; i < 5; i++) {
        if (m[i])
            vkDestroyShaderModule(h->device, m[i], NULL);
        sb_translation_destroy(t[i]);
    }
    vkh_layout_destroy(h, &layout);
}

int main(void)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    struct vkh h;
    int status = vkh_init(&h);
    if (status != 0)
        return status;
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        int before = failures;
        run(&h, &cases[i]);
        printf("%s %s\n", failures == before ? "pass " : "FAIL ", cases[i].name);
    }
    if (h.messages.errors) {
        fprintf(stderr, "FAIL %u validation errors: %s\n", h.messages.errors,
                h.messages.first_error);
        failures++;
    }
    vkh_destroy(&h);
    printf("%s: %zu draws into %ux%u targets, %d failures\n", failures ? "FAIL" : "PASS",
           sizeof(cases) / sizeof(cases[0]), W, H, failures);
    return failures ? 1 : 0;
}
