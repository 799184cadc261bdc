/* SPDX-License-Identifier: MIT */
/*
 * CPU interpreter features that corpus pixel and vertex shaders need, each
 * on a hand-assembled program with exact expected values:
 *   cubes: face selection, nearest and linear sampling on a face, seamless
 *     linear filtering across an edge and at a corner, cube arrays, gather4;
 *   comparison sampling: sample_c_lz, sample_c (LOD 0 outside pixel
 *     shaders) and gather4_c, percentage-closer filtering, two compare ops;
 *   UAVs in pixel shaders: helper and discarded lanes do not store or count;
 *   oMask (SV_Coverage) reported per pixel;
 *   class linkage: fcall runs the first table's body (the default instances),
 *     this[] reads zero, cb[r][v] picks the declared buffer of register r.
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

enum { OP_SAMPLE_C_LZ = 71, OP_SAMPLE_C = 70, OP_GATHER4_C = 126, OP_FCALL = 120, OP_LABEL_ = 44,
       OP_DCL_FUNCTION_BODY = 144, OP_DCL_FUNCTION_TABLE = 145, OP_DCL_INTERFACE = 146,
       T_FUNCTION_BODY = 17, T_INTERFACE = 19, T_THIS = 29, T_COVERAGE_OUT = 15 };

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

static enum sb_result dispatch(const struct sm4_program *p, struct sb_rt_resource *table, uint32_t count,
                               struct sb_error *err)
{
    struct sb_ir_program *ir = lower(p);
    if (!ir)
        return SB_ERROR_TRANSLATE_INVALID;
    const uint32_t groups[3] = { 1, 1, 1 };
    memset(err, 0, sizeof(*err));
    enum sb_result r = sb_interp_dispatch(ir, table, count, groups, NULL, NULL, err);
    sb_ir_program_destroy(ir);
    return r;
}

static struct sb_rt_resource resource(uint32_t cls, uint32_t reg, void *data, size_t size)
{
    struct sb_rt_resource r;
    memset(&r, 0, sizeof(r));
    r.resource_class = cls;
    r.register_index = reg;
    r.data = data;
    r.size = size;
    r.depth = r.layers = r.mip_levels = r.sample_count = 1;
    return r;
}

static struct sb_rt_resource linear_sampler(uint32_t filter)
{
    struct sb_rt_resource s = resource(SB_IR_RESOURCE_SAMPLER, 0, NULL, 0);
    s.sampler.mag_filter = s.sampler.min_filter = filter;
    s.sampler.address[0] = s.sampler.address[1] = s.sampler.address[2] = SB_RT_ADDRESS_CLAMP_TO_EDGE;
    s.sampler.max_lod = 1000.0f;
    return s;
}

/* Every texel of a 2x2-face cube (array) holds 100 * cube + 10 * face + 2 * j + i. */
static void cube_texels(float *data, uint32_t cubes)
{
    for (uint32_t c = 0; c < cubes; c++)
        for (uint32_t f = 0; f < 6; f++)
            for (uint32_t k = 0; k < 4; k++)
                data[(c * 6 + f) * 4 + k] = (float)(100 * c + 10 * f + k);
}

/*
 * sample_l on a TextureCube (2x2 faces) and gather4; then a TextureCubeArray. The face
 * coordinates follow Vulkan's table: +X: s = -z/2|x| + 1/2, t = -y/2|x| + 1/2, etc.
 */
static void test_cube(void)
{
    static struct sm4_program p;
    sm4_begin_cs(&p, 1, 1, 1, 4);
    sm4_dcl_uav_raw(&p, 0);
    sm4_dcl_resource(&p, 0, 6, 0x5555);  /* TextureCube */
    sm4_dcl_resource(&p, 1, 10, 0x5555); /* TextureCubeArray */
    sm4_dcl_sampler(&p, 0);
    /* +X centre: the mean of face 0 (0, 1, 2, 3). -Z centre: face 5 (50..53). */
    I(&p, OP_SAMPLE_L, dr(0, "x"), l4(f2u(1.0f), 0, 0, 0), st(0, "xxxx"), ss(0), lf(0.0f));
    I(&p, OP_SAMPLE_L, dr(0, "y"), l4(0, 0, f2u(-2.0f), 0), st(0, "xxxx"), ss(0), lf(0.0f));
    /* (1, -1, 0): -Y wins the tie with x (lavapipe: y over x): face 3, s = 1, t = 0.5. Linear: i = 1 of
     * -Y (31, 33) and i = 2, off the face: +X's bottom row (2, 3) -> 69 / 4. Nearest clamps: (1, 1) = 33
     * (x winning would read +X's texel 3). */
    I(&p, OP_SAMPLE_L, dr(0, "z"), l4(f2u(1.0f), f2u(-1.0f), 0, 0), st(0, "xxxx"), ss(0), lf(0.0f));
    /* Seamless edge: +X at z = 0.75: s = 0.125, u - 0.5 = -0.25: i0 = -1 (weight 0.25) is +Z's
     * texel (1, j); t = 0.5 blends rows 0 and 1: 0.5 (0.25 * 41 + 0.75 * 0) + 0.5 (0.25 * 43 + 0.75 * 2). */
    I(&p, OP_SAMPLE_L, dr(0, "w"), l4(f2u(1.0f), 0, f2u(0.75f), 0), st(0, "xxxx"), ss(0), lf(0.0f));
    I(&p, OP_STORE_RAW, du(0, "xyzw"), l1(0), sr(0, "xyzw"));
    /* Corner: +X at y = z = 0.75: texels (0, 0) = 0, (-1, 0) = +Z (1, 0) = 41, (0, -1) = +Y (1, 1) = 23,
     * the corner the mean 64 / 3; weights 0.5625, 0.1875, 0.1875, 0.0625. */
    I(&p, OP_SAMPLE_L, dr(1, "x"), l4(f2u(1.0f), f2u(0.75f), f2u(0.75f), 0), st(0, "xxxx"), ss(0), lf(0.0f));
    /* Cube array: cube 1 (w = 0.6 rounds to 1), -Z centre: 151.5; w = 7 clamps to cube 1 too. */
    I(&p, OP_SAMPLE_L, dr(1, "y"), l4(0, 0, f2u(-2.0f), f2u(0.6f)), st(1, "xxxx"), ss(0), lf(0.0f));
    I(&p, OP_SAMPLE_L, dr(1, "z"), l4(f2u(1.0f), 0, 0, f2u(7.0f)), st(1, "xxxx"), ss(0), lf(0.0f));
    I(&p, OP_STORE_RAW, du(0, "xyz"), l1(16), sr(1, "xyzz"));
    /* gather4 at the seamless edge: (i0, j1), (i1, j1), (i1, j0), (i0, j0) = 43, 2, 0, 41. */
    I(&p, OP_GATHER4, dr(2, "xyzw"), l4(f2u(1.0f), 0, f2u(0.75f), 0), st(0, "xyzw"), ss_channel(0, "x"));
    I(&p, OP_STORE_RAW, du(0, "xyzw"), l1(32), sr(2, "xyzw"));
    sm4_end(&p);
    float cube[6 * 4], array[12 * 4];
    cube_texels(cube, 1);
    cube_texels(array, 2);
    uint32_t out[12] = { 0 };
    for (uint32_t nearest = 0; nearest < 2; nearest++) {
        struct sb_rt_resource t[4] = { resource(SB_IR_RESOURCE_UAV, 0, out, sizeof(out)),
                                       resource(SB_IR_RESOURCE_SRV, 0, cube, sizeof(cube)),
                                       resource(SB_IR_RESOURCE_SRV, 1, array, sizeof(array)),
                                       linear_sampler(nearest ? SB_RT_FILTER_NEAREST : SB_RT_FILTER_LINEAR) };
        for (uint32_t k = 1; k <= 2; k++) {
            t[k].format = SB_RT_FORMAT_R32_FLOAT;
            t[k].width = t[k].height = 2;
            t[k].layers = k == 1 ? 6 : 12;
            t[k].dimension = k == 1 ? 6 : 10;
        }
        struct sb_error err;
        enum sb_result r = dispatch(&p, t, 4, &err);
        CHECK(r == SB_SUCCESS, "%s: %s", sb_result_name(r), err.message);
        /* Nearest: +X centre (s = t = 0.5) is texel (1, 1) = 3; -Z: 53; -Y at (1, 0.5): (1, 1) = 33;
         * the edge sample (0.125, 0.5): (0, 1) = 2; corner (0.125, 0.125): (0, 0) = 0 (clamped to the
         * face, never the neighbour); cube 1 -Z 153, cube 1 +X 103. */
        const float want[2][7] = { { 1.5f, 51.5f, 17.25f, 11.25f, 40.0f / 3.0f, 151.5f, 101.5f },
                                   { 3.0f, 53.0f, 33.0f, 2.0f, 0.0f, 153.0f, 103.0f } };
        for (uint32_t i = 0; i < 7 && r == SB_SUCCESS; i++) {
            float got = u2f(out[i]), w = want[nearest][i];
            bool ok = i == 4 && !nearest ? fabsf(got - w) < 1e-5f : out[i] == f2u(w);
            CHECK(ok, "%s sample %u = %.7g, want %.7g", nearest ? "nearest" : "linear", i, (double)got, (double)w);
        }
        const float gathered[4] = { 43.0f, 2.0f, 0.0f, 41.0f };
        for (uint32_t i = 0; i < 4 && r == SB_SUCCESS; i++)
            CHECK(out[8 + i] == f2u(gathered[i]), "gather4 lane %u = %g, want %g", i, (double)u2f(out[8 + i]),
                  (double)gathered[i]);
    }
}

/* A 2x1 R32_FLOAT texture (0.25, 0.75) compared LESS_OR_EQUAL and GREATER against ref. */
static void test_compare(void)
{
    static struct sm4_program p;
    sm4_begin_cs(&p, 1, 1, 1, 3);
    sm4_dcl_uav_raw(&p, 0);
    sm4_dcl_resource(&p, 0, 3, 0x5555);
    sm4_decl(&p, OP_DCL_SAMPLER | (1u << 11), ss(0), 0, NULL); /* mode_comparison */
    /* u = 0.5: halfway, 0.5 <= (0.25, 0.75) = (0, 1) -> 0.5, replicated into xy. */
    I(&p, OP_SAMPLE_C_LZ, dr(0, "xy"), l4(f2u(0.5f), f2u(0.5f), 0, 0), st(0, "xxxx"), ss(0), lf(0.5f));
    /* u = 0.375: weights 0.75 / 0.25 -> 0.25; ref 0.25 equals texel 0: (1, 1) -> 1. */
    I(&p, OP_SAMPLE_C_LZ, dr(0, "z"), l4(f2u(0.375f), f2u(0.5f), 0, 0), st(0, "xxxx"), ss(0), lf(0.5f));
    I(&p, OP_SAMPLE_C, dr(0, "w"), l4(f2u(0.375f), f2u(0.5f), 0, 0), st(0, "xxxx"), ss(0), lf(0.25f));
    I(&p, OP_STORE_RAW, du(0, "xyzw"), l1(0), sr(0, "xyzw"));
    /* gather4_c: footprint (0, 1), (1, 1), (1, 0), (0, 0), rows clamped: compare 0.5 <= (.25 .75 .75 .25). */
    I(&p, OP_GATHER4_C, dr(1, "xyzw"), l4(f2u(0.5f), f2u(0.5f), 0, 0), st(0, "xyzw"), ss(0), lf(0.5f));
    I(&p, OP_STORE_RAW, du(0, "xyzw"), l1(16), sr(1, "xyzw"));
    sm4_end(&p);
    static const uint32_t ops[2] = { 3 /* LESS_OR_EQUAL */, 4 /* GREATER */ };
    static const float want[2][8] = { { 0.5f, 0.5f, 0.25f, 1.0f, 0.0f, 1.0f, 1.0f, 0.0f },
                                      { 0.5f, 0.5f, 0.75f, 0.0f, 1.0f, 0.0f, 0.0f, 1.0f } };
    for (uint32_t o = 0; o < 2; o++) {
        float texels[2] = { 0.25f, 0.75f };
        uint32_t out[8] = { 0 };
        struct sb_rt_resource t[3] = { resource(SB_IR_RESOURCE_UAV, 0, out, sizeof(out)),
                                       resource(SB_IR_RESOURCE_SRV, 0, texels, sizeof(texels)),
                                       linear_sampler(SB_RT_FILTER_LINEAR) };
        t[1].format = SB_RT_FORMAT_R32_FLOAT;
        t[1].width = 2;
        t[1].height = 1;
        t[1].dimension = 3;
        t[2].sampler.compare = true;
        t[2].sampler.compare_op = ops[o];
        struct sb_error err;
        enum sb_result r = dispatch(&p, t, 3, &err);
        CHECK(r == SB_SUCCESS, "%s: %s", sb_result_name(r), err.message);
        for (uint32_t i = 0; i < 8 && r == SB_SUCCESS; i++)
            CHECK(out[i] == f2u(want[o][i]), "op %u word %u = %g, want %g", ops[o], i, (double)u2f(out[i]),
                  (double)want[o][i]);
    }
}

/*
 * ps_5_0: discard_nz v1.x; atomic_iadd u0[0] += 1; store_raw u0[v1.y] = SV_Position.x; oMask = 5.
 * Pixels sit at quad position 0, so helpers (at x + 1) would run after them and overwrite.
 */
static void test_pixel_uav(void)
{
    static struct sm4_program p;
    sm4_begin(&p, 0, 5, 0, 0);
    sm4_dcl_uav_raw(&p, 0);
    sm4_dcl_io(&p, 100, 4, T_INPUT, 0, "xy", 1);
    sm4_dcl_io(&p, 98, 1, T_INPUT, 1, "xy", -1);
    struct sm4_operand omask = { { 1u | (T_COVERAGE_OUT << 12) }, 1 };
    sm4_decl(&p, 101, omask, 0, NULL);
    IC(&p, OP_DISCARD, SM4_NZ, sm4_reg(T_INPUT, 1, (uint32_t[]){ 1 }, NULL, "x", 0));
    I(&p, OP_ATOMIC_IADD, du(0, "x"), l1(0), l1(1));
    I(&p, OP_STORE_RAW, du(0, "x"), sm4_reg(T_INPUT, 1, (uint32_t[]){ 1 }, NULL, "y", 0),
      sm4_reg(T_INPUT, 1, (uint32_t[]){ 0 }, NULL, "x", 0));
    I(&p, OP_MOV, omask, l1(5));
    sm4_end(&p);
    struct sb_ir_program *ir = lower(&p);
    CHECK(ir != NULL, "ps lowering");
    if (!ir)
        return;
    enum { N = 3 };
    const float pos[N * 4] = { 0.5f, 0.5f, 0, 1, 2.5f, 0.5f, 0, 1, 4.5f, 2.5f, 0, 1 };
    uint32_t in[N * 2 * 4] = { 0 }, out[4] = { 0 }, coverage[N] = { 0xAAAA, 0xAAAA, 0xAAAA };
    for (uint32_t i = 0; i < N; i++)
        in[i * 8 + 5] = 4 * (i + 1);
    in[1 * 8 + 4] = 1; /* pixel 1 discards */
    uint8_t discarded[N];
    uint32_t mem[4] = { 0 };
    struct sb_rt_resource u = resource(SB_IR_RESOURCE_UAV, 0, mem, sizeof(mem));
    struct sb_interp_registers vin = { 2, in }, vout = { 1, out };
    struct sb_interp_pixel_results res = { NULL, discarded, coverage, NULL };
    struct sb_error err;
    memset(&err, 0, sizeof(err));
    vout.registers = 0;
    enum sb_result r = sb_interp_run_pixels(ir, &u, 1, N, pos, &vin, &vout, &res, NULL, NULL, &err);
    CHECK(r == SB_SUCCESS, "run_pixels: %s", err.message);
    CHECK(mem[0] == 2, "atomic count %u, want 2 (helpers and the discarded pixel must not add)", mem[0]);
    CHECK(mem[1] == f2u(0.5f) && mem[3] == f2u(4.5f), "stores %g %g, want 0.5 4.5", (double)u2f(mem[1]),
          (double)u2f(mem[3]));
    CHECK(mem[2] == 0, "the discarded pixel stored %08x", mem[2]);
    CHECK(coverage[0] == 5 && coverage[2] == 5, "oMask %u %u, want 5", coverage[0], coverage[2]);
    CHECK(coverage[1] == 0xAAAA, "discarded pixel's oMask written: %x", coverage[1]);
    sb_ir_program_destroy(ir);
}

/* fcall fp0[0][1] with fp0 = {ft1, ft0}: the default instance takes ft1, site 1 = fb3 (r0.x = 13);
 * r0.y = this[0].x + 7 = 7; r1.x = this[0].x; r0.z = cb[r1.x + 0][1].x = cb0[1].x = 77;
 * r0.w = cb[r1.x + 2][0].x: no cb2 is declared, so 0. */
static void test_interface(void)
{
    static struct sm4_program p;
    sm4_begin_cs(&p, 1, 1, 1, 2);
    sm4_dcl_cb(&p, 0, 2, 1);
    for (uint32_t fb = 0; fb < 4; fb++)
        sm4_raw(&p, OP_DCL_FUNCTION_BODY, 1, &fb);
    sm4_raw(&p, OP_DCL_FUNCTION_TABLE, 4, (uint32_t[]){ 0, 2, 0, 1 });
    sm4_raw(&p, OP_DCL_FUNCTION_TABLE, 4, (uint32_t[]){ 1, 2, 2, 3 });
    sm4_raw(&p, OP_DCL_INTERFACE, 5, (uint32_t[]){ 0, 2, 2u | (1u << 16), 1, 0 });
    sm4_dcl_uav_raw(&p, 0);
    I(&p, OP_MOV, dr(0, "xy"), l4(1, 2, 0, 0));
    struct sm4_operand fp = sm4_reg(T_INTERFACE, 2, (uint32_t[]){ 0, 0 }, NULL, "", 0);
    sm4_put(&p, OP_FCALL | ((2 + fp.n) << 24));
    sm4_put(&p, 1);
    for (uint32_t i = 0; i < fp.n; i++)
        sm4_put(&p, fp.tok[i]);
    I(&p, OP_IADD, dr(0, "y"), sm4_reg(T_THIS, 1, (uint32_t[]){ 0 }, NULL, "x", 0), l1(7));
    I(&p, OP_MOV, dr(1, "x"), sm4_reg(T_THIS, 1, (uint32_t[]){ 0 }, NULL, "x", 0));
    const struct sm4_operand rel = sr(1, "x");
    I(&p, OP_MOV, dr(0, "z"), sm4_reg(T_CB, 2, (uint32_t[]){ 0, 1 }, (const struct sm4_operand *const[]){ &rel, NULL },
                                     "x", 0));
    I(&p, OP_MOV, dr(0, "w"), sm4_reg(T_CB, 2, (uint32_t[]){ 2, 0 }, (const struct sm4_operand *const[]){ &rel, NULL },
                                     "x", 0));
    I(&p, OP_STORE_RAW, du(0, "xyzw"), l1(0), sr(0, "xyzw"));
    I0(&p, OP_RET, 0);
    for (uint32_t fb = 0; fb < 4; fb++) {
        I(&p, OP_LABEL_, sm4_reg(T_FUNCTION_BODY, 1, &fb, NULL, "", 0));
        I(&p, OP_MOV, dr(0, "x"), l1(10 + fb));
        I0(&p, OP_RET, 0);
    }
    sm4_end(&p);
    uint32_t out[4] = { 0 }, cb[8] = { 1, 2, 3, 4, 77, 6, 7, 8 };
    struct sb_rt_resource t[2] = { resource(SB_IR_RESOURCE_UAV, 0, out, sizeof(out)),
                                   resource(SB_IR_RESOURCE_CBV, 0, cb, sizeof(cb)) };
    struct sb_error err;
    enum sb_result r = dispatch(&p, t, 2, &err);
    CHECK(r == SB_SUCCESS, "%s: %s", sb_result_name(r), err.message);
    CHECK(out[0] == 13, "fcall ran the body writing %u, want 13 (ft1's site 1)", out[0]);
    CHECK(out[1] == 7, "this[0].x + 7 = %u, want 7", out[1]);
    CHECK(out[2] == 77 && out[3] == 0, "cb[this + 0][1].x = %u (want 77), cb[this + 2][0].x = %u (want 0)", out[2],
          out[3]);
}

int main(void)
{
    test_cube();
    test_compare();
    test_pixel_uav();
    test_interface();
    if (failures) {
        fprintf(stderr, "%u check(s) failed\n", failures);
        return 1;
    }
    printf("interp feature tests passed\n");
    return 0;
}
