/* SPDX-License-Identifier: MIT */
/*
 * validate_min_lod: the `_cl` LOD clamp of the sample forms, by known answers, on the
 * interpreter and on the validating device (lavapipe 22.3 lacks shaderResourceMinLod, so
 * sb_validate's translation for it takes translator/src/spirv/spirv_min_lod.c's fallback).
 *
 * A ps_5_0 draws 8x8 pixels; each samples at uv = SV_Position.xy / 16, so every quad's uv
 * moves 1/16 per pixel. t0 is a 32x32 float texture whose six levels (32 .. 1) are each one
 * colour, level k = (k, 10 + k, 20 + k, 1); t1 a 32x32 D32 texture whose level k holds k / 8.
 * Samplers: s0 nearest in every filter (mip level = LOD rounded), s1 the same as a comparison
 * sampler with LESS (1 where ref < texel). Implicit LOD: rho = 32 x 1/16 = 2, LOD 1. The
 * gradients (1/8, 0) and (0, 1/8): rho = 32 x 1/8 = 4, LOD 2. D3D samples at max(LOD, clamp):
 *
 *   o0 sample_cl   clamp 0                     LOD 1        -> level 1
 *   o1 sample_cl   clamp 3                     3            -> level 3
 *   o2 sample_b_cl bias 2, clamp 2.25          1 + 2 = 3    -> level 3 (without the bias in
 *                                                              the comparison: 2.25 -> 2)
 *   o3 sample_b_cl bias 1, clamp 4             max(2, 4)    -> level 4
 *   o4 sample_d_cl clamp 1                     2            -> level 2
 *   o5 sample_d_cl clamp 5                     5            -> level 5
 *   o6 sample_c_cl ref 0.3, clamp 0  on t1     1: 0.3 < 0.125 -> 0
 *   o7 sample_c_cl ref 0.3, clamp 3  on t1     3: 0.3 < 0.375 -> 1
 *
 * A second ps_5_0 samples a cube t0 (32x32 faces, the same six levels on every face) with
 * sample_d_cl at the direction r = (0.25, 0, 1) (face +Z, r_z = 1) with the gradients
 * (0.25, 0, 0) and (0, 0.25, 0.5). On the face (Vulkan's cube derivative transformation) a
 * gradient d moves (s, t) by |r_z d - d_z r| / (2 r_z^2): 0.125 and |(-0.125, 0.25, 0)| / 2
 * = 0.1398, so rho = 32 x 0.1398 = 4.47, LOD 2.16 (measured without the d_z r term it would
 * be 3.16):
 *
 *   o0 clamp 1     LOD 2.16   -> level 2
 *   o1 clamp 2.75  2.75       -> level 3 (a fallback measuring 3.16 would keep level 2)
 *   o2 clamp 4     4          -> level 4
 *
 * Every pixel of o#k must hold that value (x of the colour; the comparison replicated) on
 * both sides, and the verdict is agree. Without a device the interpreter's answers alone are
 * checked. Usage: test_validate_min_lod. Exit 0 pass, 1 fail.
 */
#define _POSIX_C_SOURCE 200809L

#include <dlfcn.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "shaderbridge/validate.h"
#include "sm4_asm.h"
#include "check.h"

enum {
    SIG_FLOAT = 3, SV_POSITION = 1, OP_DCL_OUTPUT = 101, OP_DCL_INPUT_PS_SIV = 100,
    LINEAR_NOPERSPECTIVE = 4, PIXELS = 64, SIZE = 32, LEVELS = 6, TARGETS = 8,
    /* Tiled-resource `_cl_s` opcodes (../shared/docs/sm4-tokens.md §3). */
    OP_SAMPLE_CL_S = 230, OP_SAMPLE_B_CL_S = 231, OP_SAMPLE_D_CL_S = 232, OP_SAMPLE_C_CL_S = 233,
};

/* What o0..o7 hold at every pixel (the tables above); the cube program writes o0..o2. */
static const float expected_2d[TARGETS] = { 1, 3, 3, 4, 2, 5, 0, 1 };
static const float expected_cube[3] = { 2, 3, 4 };

static struct sm4_operand out(uint32_t r)
{
    return sm4_reg(T_OUTPUT, 1, &r, NULL, "xyzw", 1);
}

/* value r1, status r2.x, coordinate r0.xy, then the form's own sources. */
static void sample_into(struct sm4_program *p, uint32_t opcode, uint32_t target, const struct sm4_operand *extra,
                        uint32_t extra_count, bool compare)
{
    struct sm4_operand ops[8] = { dr(1, compare ? "x" : "xyzw"), dr(2, "x"), sr(0, "xyxx"),
                                  compare ? st(1, "xxxx") : st(0, "xyzw"), ss(compare ? 1 : 0) };
    for (uint32_t i = 0; i < extra_count; i++)
        ops[5 + i] = extra[i];
    sm4_inst(p, opcode, 0, 5 + extra_count, ops);
    I(p, OP_MOV, out(target), sr(1, compare ? "xxxx" : "xyzw"));
}

/* ps_5_0 writing o0..o(count-1), float, every component. */
static void pixel_container(const struct sm4_program *p, uint32_t count, struct blob *dxbc)
{
    static const struct sig_element_spec in[] = { { 0, "SV_Position", 0, SV_POSITION, SIG_FLOAT, 0, 0xF, 0x3, 0 } };
    struct sig_element_spec outs[TARGETS];
    for (uint32_t k = 0; k < count; k++)
        outs[k] = (struct sig_element_spec){ 0, "SV_Target", k, 0, SIG_FLOAT, k, 0xF, 0x0, 0 };
    sm4_container_sig(p, in, 1, outs, count, NULL, 0, dxbc);
}

static void build_2d(struct blob *dxbc)
{
    static struct sm4_program p;
    sm4_begin(&p, 0, 5, 0, 3);
    uint32_t s1 = 1;
    sm4_dcl_sampler(&p, 0);
    sm4_decl(&p, OP_DCL_SAMPLER | (1u << 11), sm4_reg(T_SAMPLER, 1, &s1, NULL, "", 0), 0, NULL); /* comparison */
    sm4_dcl_resource(&p, 0, 3, 0x5555u); /* texture2d, float x4 */
    sm4_dcl_resource(&p, 1, 3, 0x5555u);
    sm4_dcl_io(&p, OP_DCL_INPUT_PS_SIV, LINEAR_NOPERSPECTIVE, T_INPUT, 0, "xy", SV_POSITION);
    for (uint32_t k = 0; k < TARGETS; k++)
        sm4_decl(&p, OP_DCL_OUTPUT, out(k), 0, NULL);
    I(&p, OP_MUL, dr(0, "xy"), sm4_reg(T_INPUT, 1, (uint32_t[]){ 0 }, NULL, "xyxx", 0),
      l4(0x3d800000u, 0x3d800000u, 0, 0)); /* 1/16 */
    sample_into(&p, OP_SAMPLE_CL_S, 0, (struct sm4_operand[]){ lf(0.0f) }, 1, false);
    sample_into(&p, OP_SAMPLE_CL_S, 1, (struct sm4_operand[]){ lf(3.0f) }, 1, false);
    sample_into(&p, OP_SAMPLE_B_CL_S, 2, (struct sm4_operand[]){ lf(2.0f), lf(2.25f) }, 2, false);
    sample_into(&p, OP_SAMPLE_B_CL_S, 3, (struct sm4_operand[]){ lf(1.0f), lf(4.0f) }, 2, false);
    struct sm4_operand ddx = l4(0x3e000000u, 0, 0, 0), ddy = l4(0, 0x3e000000u, 0, 0); /* 1/8 */
    sample_into(&p, OP_SAMPLE_D_CL_S, 4, (struct sm4_operand[]){ ddx, ddy, lf(1.0f) }, 3, false);
    sample_into(&p, OP_SAMPLE_D_CL_S, 5, (struct sm4_operand[]){ ddx, ddy, lf(5.0f) }, 3, false);
    sample_into(&p, OP_SAMPLE_C_CL_S, 6, (struct sm4_operand[]){ lf(0.3f), lf(0.0f) }, 2, true);
    sample_into(&p, OP_SAMPLE_C_CL_S, 7, (struct sm4_operand[]){ lf(0.3f), lf(3.0f) }, 2, true);
    sm4_end(&p);
    pixel_container(&p, TARGETS, dxbc);
}

/* sample_d_cl of the cube t0 at a fixed direction and gradients, three clamps (table above). */
static void build_cube(struct blob *dxbc)
{
    static struct sm4_program p;
    sm4_begin(&p, 0, 5, 0, 3);
    sm4_dcl_sampler(&p, 0);
    sm4_dcl_resource(&p, 0, 6, 0x5555u); /* texturecube, float x4 */
    sm4_dcl_io(&p, OP_DCL_INPUT_PS_SIV, LINEAR_NOPERSPECTIVE, T_INPUT, 0, "xy", SV_POSITION);
    for (uint32_t k = 0; k < 3; k++)
        sm4_decl(&p, OP_DCL_OUTPUT, out(k), 0, NULL);
    I(&p, OP_MOV, dr(0, "xyz"), l4(0x3e800000u, 0, 0x3f800000u, 0)); /* (0.25, 0, 1) */
    struct sm4_operand ddx = l4(0x3e800000u, 0, 0, 0), ddy = l4(0, 0x3e800000u, 0x3f000000u, 0);
    static const float clamps[3] = { 1.0f, 2.75f, 4.0f };
    for (uint32_t k = 0; k < 3; k++) {
        struct sm4_operand ops[8] = { dr(1, "xyzw"), dr(2, "x"), sr(0, "xyzx"), st(0, "xyzw"), ss(0), ddx, ddy,
                                      lf(clamps[k]) };
        sm4_inst(&p, OP_SAMPLE_D_CL_S, 0, 8, ops);
        I(&p, OP_MOV, out(k), sr(1, "xyzw"));
    }
    sm4_end(&p);
    pixel_container(&p, 3, dxbc);
}

/* Texels of a 32x32 texture with LEVELS levels, level-major: (32^2 + 16^2 + ... + 1) of them. */
#define TEXELS (1024u + 256u + 64u + 16u + 4u + 1u)

static float colours[TEXELS * 4], depths[TEXELS], cube_colours[6 * TEXELS * 4];

/* Level k of t0 is (k, 10 + k, 20 + k, 1) everywhere (each of the cube's six faces too); of
 * t1, k / 8. */
static void fill_levels(void)
{
    uint32_t at = 0, cube_at = 0;
    for (uint32_t k = 0, side = SIZE; k < LEVELS; k++, side /= 2) {
        const float colour[4] = { (float)k, 10.0f + (float)k, 20.0f + (float)k, 1.0f };
        for (uint32_t i = 0; i < side * side; i++, at++) {
            memcpy(&colours[at * 4], colour, sizeof(colour));
            depths[at] = (float)k / 8.0f;
        }
        for (uint32_t i = 0; i < 6 * side * side; i++, cube_at++)
            memcpy(&cube_colours[cube_at * 4], colour, sizeof(colour));
    }
}

/* A 32x32 texture of LEVELS levels: SM4 dimension 3 (2D, one layer) or 6 (cube, six faces). */
static struct sb_rt_resource texture(uint32_t reg, uint32_t dimension, enum sb_rt_format format, void *data,
                                     size_t size)
{
    return (struct sb_rt_resource){ .resource_class = SB_IR_RESOURCE_SRV, .register_index = reg, .data = data,
                                    .size = size, .format = format, .dimension = dimension, .width = SIZE,
                                    .height = SIZE, .depth = 1, .layers = dimension == 6 ? 6 : 1,
                                    .mip_levels = LEVELS, .sample_count = 1 };
}

static struct sb_rt_resource sampler(uint32_t reg, bool compare)
{
    struct sb_rt_resource s = { .resource_class = SB_IR_RESOURCE_SAMPLER, .register_index = reg };
    s.sampler = (struct sb_rt_sampler){ .mag_filter = SB_RT_FILTER_NEAREST, .min_filter = SB_RT_FILTER_NEAREST,
                                        .mip_filter = SB_RT_FILTER_NEAREST,
                                        .address = { SB_RT_ADDRESS_CLAMP_TO_EDGE, SB_RT_ADDRESS_CLAMP_TO_EDGE,
                                                     SB_RT_ADDRESS_CLAMP_TO_EDGE },
                                        .mip_lod_bias = 0.0f, .min_lod = 0.0f, .max_lod = 16.0f,
                                        .compare = compare, .compare_op = compare ? 1u : 0u, /* VK_COMPARE_OP_LESS */
                                        .border_color = { 0.0f, 0.0f, 0.0f, 0.0f }, .max_anisotropy = 0.0f };
    return s;
}

/* Render target o`reg` on one side: pixel i's four floats at [i * 4]. */
static const float *target(const struct sb_rt_inputs *side, uint32_t reg)
{
    for (uint32_t i = 0; side && i < side->count; i++)
        if (side->resources[i].resource_class == SB_VALIDATE_CLASS_OUTPUT && side->resources[i].register_index == reg &&
            side->resources[i].size >= PIXELS * 16)
            return side->resources[i].data;
    return NULL;
}

/* One program of this test: its outputs' expected values; those from `compared` on are
 * comparisons (the value replicated into every component). */
struct min_lod_case {
    const char *name;
    void (*build)(struct blob *dxbc);
    const float *expected;
    uint32_t targets, compared;
    const struct sb_rt_resource *provided;
    uint32_t provided_count;
};

/* Every pixel of every target holds its expected value in x (all four for comparisons). */
static void check_side(const struct min_lod_case *c, const struct sb_rt_inputs *side, const char *side_name)
{
    for (uint32_t k = 0; k < c->targets; k++) {
        const float *o = target(side, k);
        float want = c->expected[k];
        uint32_t wrong = 0, first = 0;
        for (uint32_t i = 0; o && i < PIXELS; i++) {
            bool ok = o[i * 4] == want && (k < c->compared || (o[i * 4 + 1] == want && o[i * 4 + 3] == want));
            if (!ok && !wrong++)
                first = i;
        }
        CHECK(o && !wrong, "%s (%s): o%u: %u of %u pixels wrong; pixel %u = (%g, %g, %g, %g), want x = %g", c->name,
              side_name, k, wrong, PIXELS, first, o ? o[first * 4] : -1.0f, o ? o[first * 4 + 1] : -1.0f,
              o ? o[first * 4 + 2] : -1.0f, o ? o[first * 4 + 3] : -1.0f, want);
    }
}

static void run_case(struct sb_rt_context *context, bool gpu, const struct min_lod_case *c)
{
    static struct blob dxbc;
    memset(&dxbc, 0, sizeof(dxbc));
    c->build(&dxbc);
    struct sb_error e = { 0 };
    struct sb_rt_program *program = NULL;
    struct sb_validate_report *r = NULL;
    if (sb_rt_program_load(dxbc.bytes, dxbc.size, NULL, &program, &e) != SB_SUCCESS) {
        CHECK(false, "%s: does not load: %s", c->name, e.message);
        return;
    }
    struct sb_validate_options o = { .inputs = { .seed = 1 }, .sides = gpu ? 0 : SB_VALIDATE_SIDE_CPU,
                                     .provided_count = c->provided_count, .provided = c->provided };
    enum sb_result res = sb_validate(context, program, &o, &r, &e);
    CHECK(res == SB_SUCCESS, "%s: sb_validate: %s", c->name, e.message);
    if (res == SB_SUCCESS) {
        check_side(c, r->cpu, "interpreter");
        if (gpu) {
            check_side(c, r->gpu, "device");
            CHECK(r->verdict == SB_VALIDATE_AGREE && r->mismatch_count == 0, "%s: verdict %s (%s)", c->name,
                  sb_validate_verdict_name(r->verdict), r->reason);
        }
        printf("%s: %s\n", c->name, gpu ? sb_validate_verdict_name(r->verdict) : "interpreter only");
    }
    sb_validate_report_destroy(r);
    sb_rt_program_destroy(program);
}

int main(void)
{
    struct sb_rt_context *context = NULL;
    struct sb_error e = { 0 };
    struct sb_rt_context_options options = { .validation = true, .allow_cpu_only = true };
    if (sb_rt_context_create(&options, &context, &e) != SB_SUCCESS) {
        printf("FAIL: no context: %s\n", e.message);
        return 1;
    }
    /* Keep lavapipe loaded after the context goes (LeakSanitizer; tests/CMakeLists.txt). */
    (void)dlopen("libvulkan_lvp.so", RTLD_NOW | RTLD_NOLOAD);
    bool gpu = sb_rt_context_has_device(context);
    struct sb_device_profile profile;
    sb_rt_context_device_profile(context, &profile);
    printf("validate_min_lod on %s (shaderResourceMinLod %s)\n", sb_rt_context_device_name(context),
           !gpu ? "-" : profile.shader_resource_min_lod ? "yes: MinLod" : "no: the fallback");
    fill_levels();
    const struct sb_rt_resource flat[4] = {
        texture(0, 3, SB_RT_FORMAT_R32G32B32A32_FLOAT, colours, sizeof(colours)),
        texture(1, 3, SB_RT_FORMAT_D32_FLOAT, depths, sizeof(depths)),
        sampler(0, false),
        sampler(1, true),
    };
    const struct sb_rt_resource cube[2] = {
        texture(0, 6, SB_RT_FORMAT_R32G32B32A32_FLOAT, cube_colours, sizeof(cube_colours)),
        sampler(0, false),
    };
    const struct min_lod_case cases[] = {
        { "min_lod_2d", build_2d, expected_2d, TARGETS, 6, flat, 4 },
        { "min_lod_cube", build_cube, expected_cube, 3, 3, cube, 2 },
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
        run_case(context, gpu, &cases[i]);
    uint32_t layer_errors = sb_rt_context_validation_errors(context);
    CHECK(layer_errors == 0, "%u validation-layer errors; first: %s", layer_errors,
          sb_rt_context_first_validation_error(context));
    sb_rt_context_destroy(context);
    printf("%s: %u failures\n", failures ? "FAIL" : "PASS", failures);
    return failures ? 1 : 0;
}
