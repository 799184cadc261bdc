/* SPDX-License-Identifier: MIT */
/*
 * Vertex and pixel programs on the CPU interpreter (sb_interp_run_vertices /
 * sb_interp_run_pixels), hand-assembled vs_4_0 / ps_4_0 / ps_5_0 programs
 * with exact expected values:
 *   VS: v# passthrough with arithmetic, SV_VertexID, untouched o# lanes,
 *       more vertices than one batch holds;
 *   PS: SV_Position (pixel centre, w = 1/FragCoord.w), coarse and fine
 *       derivatives of x*y (their values follow from the quad rule alone),
 *       discard, oDepth;
 *   PS: oStencilRef = v0.x + 0x100 (all 32 bits kept; a discarded pixel and
 *       one whose branch skips the write keep their defined values);
 *   PS: o0.x = vInnerCoverage + 5: 6 (fully covered: the point is the pixel's square, drawn
 *       with conservative rasterization);
 *   PS: sample / sample_b with the implicit LOD of the quad on a 4-level
 *       texture whose levels hold 1, 2, 3, 4;
 *   argument errors (wrong stage).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shaderbridge/interp.h"
#include "translator/ir.h"
#include "translator/sm4.h"
#include "sm4_asm.h"

static unsigned failures;

#define CHECK(cond, ...)                                                                  \
    do {                                                                                  \
        if (!(cond)) {                                                                    \
            fprintf(stderr, "%s:%d: check failed: %s: ", __FILE__, __LINE__, #cond);       \
            fprintf(stderr, __VA_ARGS__);                                                 \
            fprintf(stderr, "\n");                                                        \
            failures++;                                                                   \
        }                                                                                 \
    } while (0)

enum { OP_DERIV_RTX = 11, OP_SAMPLE_B = 74, OP_DERIV_RTX_COARSE = 122, OP_DERIV_RTX_FINE = 123,
       OP_DERIV_RTY_COARSE = 124, OP_DERIV_RTY_FINE = 125, T_DEPTH = 12, T_STENCIL_REF = 41, T_INNER_COVERAGE = 42 };

static uint32_t f2u(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

static float u2f(uint32_t u)
{
    float f;
    memcpy(&f, &u, 4);
    return f;
}

static struct sb_ir_program *lower(const struct sm4_program *p)
{
    struct sb_sm4_program *sm4 = NULL;
    struct sb_ir_program *ir = NULL;
    struct sb_error err;
    memset(&err, 0, sizeof(err));
    if (sb_sm4_decode(p->tok, p->n * 4, 0, &sm4, &err) != SB_SUCCESS ||
        sb_ir_from_sm4(sm4, NULL, &ir, &err) != SB_SUCCESS)
        fprintf(stderr, "lowering failed: %s\n", err.message);
    sb_sm4_program_destroy(sm4);
    return ir;
}

static struct sm4_operand vreg(uint32_t r, const char *sel)
{
    return sm4_reg(T_INPUT, 1, &r, NULL, sel, 0);
}

static struct sm4_operand oreg(uint32_t r, const char *mask)
{
    return sm4_reg(T_OUTPUT, 1, &r, NULL, mask, 1);
}

/* o0 = v0 * 2 + 1; o1.x = float(SV_VertexID); o1.y = SV_VertexID + 100; o1.zw untouched. */
static void test_vertices(void)
{
    static struct sm4_program p;
    sm4_begin(&p, 1, 4, 0, 1);
    sm4_dcl_io(&p, 95, 0, T_INPUT, 0, "xyzw", -1);
    sm4_dcl_io(&p, 96, 0, T_INPUT, 1, "x", 6);
    sm4_dcl_io(&p, 103, 0, T_OUTPUT, 0, "xyzw", 1);
    sm4_dcl_io(&p, 101, 0, T_OUTPUT, 1, "xy", -1);
    I(&p, OP_MAD, oreg(0, "xyzw"), vreg(0, "xyzw"), lf(2.0f), lf(1.0f));
    I(&p, OP_UTOF, dr(0, "x"), vreg(1, "x"));
    I(&p, OP_MOV, oreg(1, "x"), sr(0, "x"));
    I(&p, OP_IADD, oreg(1, "y"), vreg(1, "x"), l1(100));
    sm4_end(&p);
    struct sb_ir_program *ir = lower(&p);
    CHECK(ir != NULL, "vs lowering");
    if (!ir)
        return;
    enum { N = 1030 }; /* more than one batch of 1024 */
    uint32_t *in = calloc(N * 2 * 4, 4), *out = calloc(N * 2 * 4, 4);
    for (uint32_t i = 0; i < N; i++) {
        for (uint32_t c = 0; c < 4; c++)
            in[i * 8 + c] = f2u((float)i * 0.25f + (float)c);
        in[i * 8 + 4] = 0xBAD; /* v1.x: overwritten by SV_VertexID */
        for (uint32_t c = 0; c < 8; c++)
            out[i * 8 + c] = 0xDEAD0000u + c;
    }
    struct sb_interp_registers vin = { 2, in }, vout = { 2, out };
    struct sb_interp_stats stats;
    struct sb_error err;
    memset(&err, 0, sizeof(err));
    enum sb_result r = sb_interp_run_vertices(ir, NULL, 0, N, &vin, &vout, NULL, &stats, &err);
    CHECK(r == SB_SUCCESS, "run_vertices: %s", err.message);
    unsigned bad = 0;
    for (uint32_t i = 0; i < N && r == SB_SUCCESS; i++) {
        for (uint32_t c = 0; c < 4; c++)
            bad += out[i * 8 + c] != f2u(((float)i * 0.25f + (float)c) * 2.0f + 1.0f);
        bad += out[i * 8 + 4] != f2u((float)i);
        bad += out[i * 8 + 5] != i + 100;
        bad += out[i * 8 + 6] != 0xDEAD0006u || out[i * 8 + 7] != 0xDEAD0007u;
        if (bad && bad < 3)
            fprintf(stderr, "vertex %u: %08x %08x %08x %08x | %08x %08x %08x %08x\n", i, out[i * 8],
                    out[i * 8 + 1], out[i * 8 + 2], out[i * 8 + 3], out[i * 8 + 4], out[i * 8 + 5],
                    out[i * 8 + 6], out[i * 8 + 7]);
    }
    CHECK(bad == 0, "%u wrong vertex output words", bad);
    CHECK(stats.invocations == N, "invocations %llu", (unsigned long long)stats.invocations);

    /* A vertex program is no pixel program. */
    float pos[4] = { 0.5f, 0.5f, 0, 1 };
    r = sb_interp_run_pixels(ir, NULL, 0, 1, pos, &vin, &vout, NULL, NULL, NULL, &err);
    CHECK(r == SB_ERROR_INVALID_ARGUMENT, "run_pixels on a VS gave %d", (int)r);
    free(in);
    free(out);
    sb_ir_program_destroy(ir);
}

/*
 * r0.x = x * y of SV_Position; o0 = (ddx_coarse, ddx_fine, ddy_coarse, ddy_fine) of it;
 * o1 = (SV_Position.z, SV_Position.w, deriv_rtx, -); discard when v1.x != 0; oDepth = y / 8.
 */
static void test_pixels(void)
{
    static struct sm4_program p;
    sm4_begin(&p, 0, 5, 0, 1);
    sm4_dcl_io(&p, 100, 4, T_INPUT, 0, "xyzw", 1);
    sm4_dcl_io(&p, 98, 1, T_INPUT, 1, "x", -1);
    sm4_dcl_io(&p, 101, 0, T_OUTPUT, 0, "xyzw", -1);
    sm4_dcl_io(&p, 101, 0, T_OUTPUT, 1, "xyz", -1);
    struct sm4_operand odepth = { { 1u | (T_DEPTH << 12) }, 1 };
    sm4_decl(&p, 101, odepth, 0, NULL);
    I(&p, OP_MUL, dr(0, "x"), vreg(0, "x"), vreg(0, "y"));
    I(&p, OP_DERIV_RTX_COARSE, oreg(0, "x"), sr(0, "x"));
    I(&p, OP_DERIV_RTX_FINE, oreg(0, "y"), sr(0, "x"));
    I(&p, OP_DERIV_RTY_COARSE, oreg(0, "z"), sr(0, "x"));
    I(&p, OP_DERIV_RTY_FINE, oreg(0, "w"), sr(0, "x"));
    I(&p, OP_MOV, oreg(1, "xy"), vreg(0, "zwzz"));
    I(&p, OP_DERIV_RTX, oreg(1, "z"), sr(0, "x"));
    IC(&p, OP_DISCARD, SM4_NZ, vreg(1, "x"));
    struct sm4_operand depth_dst = { { 1u | (T_DEPTH << 12) }, 1 };
    I(&p, OP_MUL, depth_dst, vreg(0, "y"), lf(0.125f));
    sm4_end(&p);
    struct sb_ir_program *ir = lower(&p);
    CHECK(ir != NULL, "ps lowering");
    if (!ir)
        return;
    enum { N = 4 };
    const float pos[N * 4] = { 3.5f, 5.5f, 0.25f, 0.5f, 0.5f, 0.5f, 0.75f, 1.0f,
                               6.5f, 1.5f, 0.5f, 0.25f, 2.5f, 2.5f, 0.0f, 1.0f };
    uint32_t in[N * 2 * 4] = { 0 }, out[N * 2 * 4];
    in[3 * 8 + 4] = 1; /* pixel 3 discards */
    for (uint32_t i = 0; i < N * 8; i++)
        out[i] = 0xDEAD0000u + i;
    float depth[N] = { -1, -1, -1, -1 };
    uint8_t discarded[N] = { 9, 9, 9, 9 };
    struct sb_interp_registers vin = { 2, in }, vout = { 2, out };
    struct sb_interp_pixel_results res = { depth, discarded, NULL, NULL };
    struct sb_interp_stats stats;
    struct sb_error err;
    memset(&err, 0, sizeof(err));
    enum sb_result r = sb_interp_run_pixels(ir, NULL, 0, N, pos, &vin, &vout, &res, NULL, &stats, &err);
    CHECK(r == SB_SUCCESS, "run_pixels: %s", err.message);
    for (uint32_t i = 0; i < 3 && r == SB_SUCCESS; i++) {
        float x = pos[i * 4], y = pos[i * 4 + 1];
        float x0 = floorf(x / 2) * 2 + 0.5f, y0 = floorf(y / 2) * 2 + 0.5f; /* the quad's top-left centre */
        const float want[7] = { y0, y, x0, x, pos[i * 4 + 2], 1.0f / pos[i * 4 + 3], y0 };
        for (uint32_t c = 0; c < 7; c++)
            CHECK(out[i * 8 + c] == f2u(want[c]), "pixel %u o%u.%c = %g, want %g", i, c / 4, "xyzw"[c % 4],
                  u2f(out[i * 8 + c]), want[c]);
        CHECK(out[i * 8 + 7] == 0xDEAD0000u + i * 8 + 7, "pixel %u o1.w was written", i);
        CHECK(depth[i] == y / 8, "pixel %u depth %g", i, depth[i]);
        CHECK(discarded[i] == 0, "pixel %u discarded %u", i, discarded[i]);
    }
    CHECK(discarded[3] == 1, "pixel 3 not discarded (%u)", discarded[3]);
    CHECK(out[3 * 8] == 0xDEAD0000u + 24 && depth[3] == -1.0f, "pixel 3 (discarded) wrote its outputs");
    CHECK(stats.invocations == 4 * N, "invocations %llu (4 lanes per pixel)", (unsigned long long)stats.invocations);
    sb_ir_program_destroy(ir);
}

/* oStencilRef = v0.x + 0x100 unless v0.y is 0 (no write: 0 reported); v0.z nonzero discards. */
static void test_stencil_ref(void)
{
    static struct sm4_program p;
    sm4_begin(&p, 0, 5, 0, 0);
    sm4_dcl_io(&p, 98, 1, T_INPUT, 0, "xyz", -1);
    struct sm4_operand ostencil = { { 1u | (T_STENCIL_REF << 12) }, 1 };
    sm4_decl(&p, 101, ostencil, 0, NULL);
    IC(&p, OP_DISCARD, SM4_NZ, vreg(0, "z"));
    IC(&p, OP_IF, SM4_NZ, vreg(0, "y"));
    I(&p, OP_IADD, ostencil, vreg(0, "x"), l1(0x100));
    I0(&p, OP_ENDIF, 0);
    sm4_end(&p);
    struct sb_ir_program *ir = lower(&p);
    CHECK(ir != NULL, "ps lowering");
    if (!ir)
        return;
    enum { N = 4 };
    const float pos[N * 4] = { 0.5f, 0.5f, 0.5f, 1.0f, 1.5f, 0.5f, 0.5f, 1.0f,
                               2.5f, 3.5f, 0.5f, 1.0f, 7.5f, 6.5f, 0.5f, 1.0f };
    uint32_t in[N * 4] = { 7, 1, 0, 0, 0xFF, 1, 0, 0, 9, 0, 0, 0, 5, 1, 1, 0 };
    uint32_t stencil[N] = { 0xEEEEu, 0xEEEEu, 0xEEEEu, 0xEEEEu };
    uint8_t discarded[N] = { 9, 9, 9, 9 };
    struct sb_interp_registers vin = { 1, in }, vout = { 0, NULL };
    struct sb_interp_pixel_results res = { NULL, discarded, NULL, stencil };
    struct sb_error err;
    memset(&err, 0, sizeof(err));
    enum sb_result r = sb_interp_run_pixels(ir, NULL, 0, N, pos, &vin, &vout, &res, NULL, NULL, &err);
    CHECK(r == SB_SUCCESS, "run_pixels: %s", err.message);
    const uint32_t want[N] = { 0x107u, 0x1FFu, 0u, 0xEEEEu };
    for (uint32_t i = 0; i < N && r == SB_SUCCESS; i++)
        CHECK(stencil[i] == want[i], "pixel %u stencil ref 0x%x, want 0x%x", i, stencil[i], want[i]);
    CHECK(discarded[3] == 1 && discarded[0] == 0, "discard flags %u %u", discarded[0], discarded[3]);
    sb_ir_program_destroy(ir);
}

/* o0.x = vInnerCoverage + 5, for two pixels. */
static void test_inner_coverage(void)
{
    static struct sm4_program p;
    sm4_begin(&p, 0, 5, 0, 0);
    struct sm4_operand inner = { { 1u | (T_INNER_COVERAGE << 12) }, 1 };
    sm4_decl(&p, 95, inner, 0, NULL);
    sm4_dcl_io(&p, 101, 0, T_OUTPUT, 0, "x", -1);
    I(&p, OP_IADD, oreg(0, "x"), inner, l1(5));
    sm4_end(&p);
    struct sb_ir_program *ir = lower(&p);
    CHECK(ir != NULL, "ps lowering");
    if (!ir)
        return;
    const float pos[8] = { 0.5f, 0.5f, 0.5f, 1.0f, 3.5f, 2.5f, 0.5f, 1.0f };
    uint32_t out[8] = { 0 };
    struct sb_interp_registers vin = { 0, NULL }, vout = { 1, out };
    struct sb_error err;
    memset(&err, 0, sizeof(err));
    enum sb_result r = sb_interp_run_pixels(ir, NULL, 0, 2, pos, &vin, &vout, NULL, NULL, NULL, &err);
    CHECK(r == SB_SUCCESS, "run_pixels: %s", err.message);
    /* Fully covered: a one-pixel point drawn with conservative rasterization (interp.h). */
    CHECK(r != SB_SUCCESS || (out[0] == 6 && out[4] == 6), "inner coverage + 5: %u %u, want 6 6", out[0], out[4]);
    sb_ir_program_destroy(ir);
}

/* A 8x8 R32_FLOAT texture of 4 levels holding 1, 2, 3, 4. */
static void mip_texture(struct sb_rt_resource *t, float *data)
{
    memset(t, 0, sizeof(*t));
    t->resource_class = SB_IR_RESOURCE_SRV;
    t->format = SB_RT_FORMAT_R32_FLOAT;
    t->dimension = 3; /* texture2d */
    t->width = t->height = 8;
    t->depth = t->layers = t->sample_count = 1;
    t->mip_levels = 4;
    size_t at = 0;
    for (uint32_t level = 0; level < 4; level++)
        for (uint32_t k = 0; k < (8u >> level) * (8u >> level); k++)
            data[at++] = (float)(level + 1);
    t->data = data;
    t->size = at * 4;
}

/* o0 = sample(t0, s0, SV_Position.xy * v1.x); o1 = sample_b(..., bias 1). */
static void test_sample_lod(void)
{
    static struct sm4_program p;
    sm4_begin(&p, 0, 4, 0, 1);
    sm4_dcl_sampler(&p, 0);
    sm4_dcl_resource(&p, 0, 3, 5);
    sm4_dcl_io(&p, 100, 4, T_INPUT, 0, "xy", 1);
    sm4_dcl_io(&p, 98, 1, T_INPUT, 1, "x", -1);
    sm4_dcl_io(&p, 101, 0, T_OUTPUT, 0, "xyzw", -1);
    sm4_dcl_io(&p, 101, 0, T_OUTPUT, 1, "xyzw", -1);
    I(&p, OP_MUL, dr(0, "xy"), vreg(0, "xyxx"), vreg(1, "xxxx"));
    I(&p, OP_SAMPLE, oreg(0, "xyzw"), sr(0, "xyxx"), st(0, "xyzw"), ss(0));
    I(&p, OP_SAMPLE_B, oreg(1, "xyzw"), sr(0, "xyxx"), st(0, "xyzw"), ss(0), lf(1.0f));
    sm4_end(&p);
    struct sb_ir_program *ir = lower(&p);
    CHECK(ir != NULL, "sample ps lowering");
    if (!ir)
        return;
    static float texels[64 + 16 + 4 + 1];
    struct sb_rt_resource table[2];
    mip_texture(&table[0], texels);
    memset(&table[1], 0, sizeof(table[1]));
    table[1].resource_class = SB_IR_RESOURCE_SAMPLER;
    table[1].sampler.max_lod = 1000.0f; /* nearest everywhere, repeat */
    /* scale s: du/dx * 8 = 8s, so LOD = log2(8s): 1/8 -> 0, 2/8 -> 1, 4/8 -> 2, 1 -> 3, 2 -> 4 (level 3). */
    enum { N = 5 };
    const float scale[N] = { 0.125f, 0.25f, 0.5f, 1.0f, 2.0f }, want[N] = { 1, 2, 3, 4, 4 };
    const float want_b[N] = { 2, 3, 4, 4, 4 };
    float pos[N * 4];
    uint32_t in[N * 2 * 4] = { 0 }, out[N * 2 * 4] = { 0 };
    for (uint32_t i = 0; i < N; i++) {
        pos[i * 4] = (float)i + 0.5f;
        pos[i * 4 + 1] = 3.5f;
        pos[i * 4 + 2] = 0.0f;
        pos[i * 4 + 3] = 1.0f;
        in[i * 8 + 4] = f2u(scale[i]);
    }
    struct sb_interp_registers vin = { 2, in }, vout = { 2, out };
    struct sb_error err;
    memset(&err, 0, sizeof(err));
    enum sb_result r = sb_interp_run_pixels(ir, table, 2, N, pos, &vin, &vout, NULL, NULL, NULL, &err);
    CHECK(r == SB_SUCCESS, "run_pixels (sample): %s", err.message);
    for (uint32_t i = 0; i < N && r == SB_SUCCESS; i++) {
        CHECK(out[i * 8] == f2u(want[i]), "pixel %u: sample gave %g, want level value %g", i, u2f(out[i * 8]),
              want[i]);
        CHECK(out[i * 8 + 4] == f2u(want_b[i]), "pixel %u: sample_b gave %g, want %g", i, u2f(out[i * 8 + 4]),
              want_b[i]);
    }
    sb_ir_program_destroy(ir);
}

int main(void)
{
    test_vertices();
    test_pixels();
    test_stencil_ref();
    test_inner_coverage();
    test_sample_lod();
    if (failures) {
        fprintf(stderr, "%u check(s) failed\n", failures);
        return 1;
    }
    printf("interp graphics: all checks passed\n");
    return 0;
}
