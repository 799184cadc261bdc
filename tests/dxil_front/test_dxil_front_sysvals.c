/* SPDX-License-Identifier: MIT */
/*
 * The newer system values through the DXIL front end (ir_from_dxil_sysvals.c), the SPIR-V
 * back end (spirv_sysvals.c) and the interpreter (interp_sysvals.c), on the programs of
 * tests/common/dxil_programs_sysvals.h. Every case translates its program, runs spirv-val
 * (Vulkan 1.1 environment) and checks the Vulkan built-in the module declares. Cases (argv[1]):
 *   vs_view_id       ViewIndex; VIEW = SV_ViewID + 7 on the interpreter: 7 by default (view 0,
 *                    as validate draws), 10 in a run of view 3;
 *   ps_view_id       ViewIndex in a pixel shader (dxil_programs_gsps.h): (view, 0, 0, 1) for
 *                    views 0 and 2;
 *   ps_helper_lane   HelperInvocation; (own, across x, across y, diagonal) helper flags of a
 *                    one-pixel point's quad = (0, 1, 1, 1) on the interpreter;
 *   ps_barycentrics  BaryCoordKHR + BaryCoordNoPerspKHR; the IR gives each unallocated
 *                    element a v# (v1, v2) with its interpolation; a point's barycentrics
 *                    (1, 0, 0) give (1, 0, 4, 0) on the interpreter;
 *   vs_shading_rate  PrimitiveShadingRateKHR; o1.x = 0x4 | (id & 1) on the interpreter;
 *   ps_shading_rate  ShadingRateKHR; on the interpreter the 1x1 rate (0, the default) gives
 *                    (1, 0, 0, 1), a run at 2X4 (0x6) (7, 1, 2, 1); 0x2 is refused;
 *   ir_validate      sb_ir_validate accepts vHelperLane in the pixel program and rejects it
 *                    when the program says it is a vertex program;
 *   device_profile   for a described device profile, each program is refused naming the
 *                    feature its system value needs when the profile lacks it (multiview,
 *                    fragmentShaderBarycentric, primitiveFragmentShadingRate) and translates
 *                    spirv-val clean when it has it;
 *   refusals         attributeAtVertex refuses: SB_ERROR_TRANSLATE_UNSUPPORTED naming it, at
 *                    the call's byte offset;
 *   validate         sb_validate on lavapipe: vs_view_id (every vertex's VIEW = 7), ps_view_id
 *                    ((0, 0, 0, 1)) and ps_helper_lane ((0, 1, 1, 1)) on every drawn texel, on
 *                    the GPU and on the interpreter, verdict agree (interpreter only without
 *                    a device); ps_helper_branch and ps_helper_discard (helpers set h inside
 *                    a branch, or discard) (2, 1, 1, 1), agree; ps_helper_load: the helpers'
 *                    loaded values on the interpreter, 0 on lavapipe 22.3 (a known defect the
 *                    disagreement must name); the barycentric and shading-rate programs are
 *                    not run, the reason naming the capability (Mesa 22.3's lavapipe has
 *                    neither extension).
 */
#define _POSIX_C_SOURCE 200809L

#include <dlfcn.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <spirv/unified1/spirv.h>

#include "check.h"
#include "dxc_container_writer.h"
#include "dxil_front_harness.h"
#include "dxil_programs_gsps.h"
#include "dxil_programs_sysvals.h"
#include "shaderbridge/dxbc.h"
#include "shaderbridge/interp.h"
#include "shaderbridge/translate.h"
#include "shaderbridge/validate.h"
#include "translator/ir.h"

static uint32_t f2u(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

/* Whether the module decorates a variable with BuiltIn `builtin`. */
static bool declares_builtin(const uint32_t *words, size_t count, uint32_t builtin)
{
    for (size_t i = 5; i < count;) {
        uint32_t length = words[i] >> 16, op = words[i] & 0xffffu;
        if (length == 0 || i + length > count)
            return false;
        if (op == SpvOpDecorate && length == 4 && words[i + 2] == SpvDecorationBuiltIn &&
            words[i + 3] == builtin)
            return true;
        i += length;
    }
    return false;
}

/* The program's SPIR-V declares BuiltIn `builtin` and, when nonzero, `builtin2`. */
static void check_builtins(bool (*write)(struct tbuf *), const char *name, uint32_t builtin,
                           uint32_t builtin2)
{
    struct tbuf b = { 0 };
    struct sb_translation *t = NULL;
    struct sb_error err;
    memset(&err, 0, sizeof(err));
    enum sb_result r = write(&b) ? sb_translate(b.data, b.size, NULL, &t, &err) : SB_ERROR_INVALID_ARGUMENT;
    CHECK(r == SB_SUCCESS, "%s: translate: %s", name, err.message);
    if (r == SB_SUCCESS) {
        CHECK(declares_builtin(t->words, t->word_count, builtin), "%s: no BuiltIn %u", name, builtin);
        CHECK(!builtin2 || declares_builtin(t->words, t->word_count, builtin2), "%s: no BuiltIn %u",
              name, builtin2);
    }
    sb_translation_destroy(t);
    tb_free(&b);
}

/* The program lowered (its SPIR-V spirv-val clean: dxil_front_lower) with its built-ins
 * checked; NULL on failure. */
static struct sb_ir_program *lower(bool (*write)(struct tbuf *), const char *name, uint32_t builtin,
                                   uint32_t builtin2)
{
    struct sb_error err;
    struct sb_ir_program *ir = dxil_front_lower(write, &err);
    CHECK(ir != NULL, "%s: %s", name, err.message);
    if (ir)
        check_builtins(write, name, builtin, builtin2);
    return ir;
}

/* Vertices 0..3 run with `options`: SV_Position = (id, 0.5, 0, 1) and o1.x = base | (id & odd). */
static void check_vertices(struct sb_ir_program *ir, const char *name, const struct sb_interp_options *options,
                           uint32_t base, uint32_t odd)
{
    enum { VERTICES = 4, REGS = 2 };
    uint32_t in_words[VERTICES * 4] = { 0 }, out_words[VERTICES * REGS * 4] = { 0 };
    struct sb_interp_registers inputs = { 1, in_words }, outputs = { REGS, out_words };
    struct sb_error err;
    enum sb_result r = sb_interp_run_vertices(ir, NULL, 0, VERTICES, &inputs, &outputs, options, NULL,
                                              &err);
    CHECK(r == SB_SUCCESS, "%s: run: %s", name, err.message);
    for (uint32_t v = 0; r == SB_SUCCESS && v < VERTICES; v++) {
        const uint32_t *o = &out_words[v * REGS * 4];
        const uint32_t expected[5] = { f2u((float)v), f2u(0.5f), f2u(0.0f), f2u(1.0f),
                                       base | (v & odd) };
        for (unsigned c = 0; c < 5; c++)
            CHECK(o[c] == expected[c], "%s: vertex %u word %u: 0x%08x, expected 0x%08x", name, v,
                  c, o[c], expected[c]);
    }
}

/* Pixels at (0.5, 0.5), (3.5, 2.5) and (6.5, 7.5) (each the top-left, bottom-right or
 * bottom-left pixel of its quad) run with `options`, v0 = SV_Position, the other v# 0 unless
 * the run gives them; each pixel's SV_Target0 must be `expected`. */
static void check_pixels(struct sb_ir_program *ir, const char *name, const struct sb_interp_options *options,
                         uint32_t registers, const float expected[4])
{
    enum { PIXELS = 3, MAX_REGS = 3 };
    const float positions[PIXELS * 4] = { 0.5f, 0.5f, 0, 1, 3.5f, 2.5f, 0, 1, 6.5f, 7.5f, 0, 1 };
    uint32_t in_words[PIXELS * MAX_REGS * 4] = { 0 }, out_words[PIXELS * 4] = { 0 };
    for (unsigned i = 0; i < PIXELS; i++)
        memcpy(&in_words[i * registers * 4], &positions[i * 4], 16);
    struct sb_interp_registers inputs = { registers, in_words }, outputs = { 1, out_words };
    struct sb_error err;
    enum sb_result r = sb_interp_run_pixels(ir, NULL, 0, PIXELS, positions, &inputs, &outputs, NULL,
                                            options, NULL, &err);
    CHECK(r == SB_SUCCESS, "%s: run: %s", name, err.message);
    for (unsigned i = 0; r == SB_SUCCESS && i < PIXELS; i++)
        for (unsigned c = 0; c < 4; c++)
            CHECK(out_words[i * 4 + c] == f2u(expected[c]), "%s: pixel %u lane %u: 0x%08x, "
                  "expected %g", name, i, c, out_words[i * 4 + c], (double)expected[c]);
}

/* Without views (validate's draws) ViewIndex is 0, so VIEW = 0 + 7; a run of view 3 gives 10. */
static void test_vs_view_id(void)
{
    struct sb_ir_program *ir = lower(dxil_program_vs_view_id, "vs_view_id", SpvBuiltInViewIndex, 0);
    if (!ir)
        return;
    check_vertices(ir, "vs_view_id", NULL, 7, 0);
    const struct sb_interp_options view3 = { .view_index = 3 };
    check_vertices(ir, "vs_view_id view 3", &view3, 10, 0);
    sb_ir_program_destroy(ir);
}

/* SM 6.8's StartVertexLocation / StartInstanceLocation: the BaseVertex and BaseInstance
 * built-ins; validate's draws start at vertex 0 and instance 0, so BASE = 7. */
static void test_vs_start_location(void)
{
    struct sb_ir_program *ir = lower(dxil_program_vs_start_location, "vs_start_location",
                                     SpvBuiltInBaseVertex, SpvBuiltInBaseInstance);
    if (!ir)
        return;
    check_vertices(ir, "vs_start_location", NULL, 7, 0);
    sb_ir_program_destroy(ir);
}

/* SV_Target0 = (view, 0, 0, 1): (0, 0, 0, 1) by default, (2, 0, 0, 1) in view 2. */
static void test_ps_view_id(void)
{
    struct sb_ir_program *ir = lower(dxil_program_ps_view_id, "ps_view_id", SpvBuiltInViewIndex, 0);
    if (!ir)
        return;
    static const float view0[4] = { 0, 0, 0, 1 }, view2[4] = { 2, 0, 0, 1 };
    check_pixels(ir, "ps_view_id", NULL, 1, view0);
    const struct sb_interp_options options = { .view_index = 2 };
    check_pixels(ir, "ps_view_id view 2", &options, 1, view2);
    sb_ir_program_destroy(ir);
}

/* A one-pixel point: the pixel's lane is no helper (0); the other three lanes of its quad
 * are, so every quad read gives 1. */
static void test_ps_helper_lane(void)
{
    struct sb_ir_program *ir = lower(dxil_program_ps_helper_lane, "ps_helper_lane",
                                     SpvBuiltInHelperInvocation, 0);
    if (!ir)
        return;
    static const float expected[4] = { 0, 1, 1, 1 };
    check_pixels(ir, "ps_helper_lane", NULL, 1, expected);
    sb_ir_program_destroy(ir);
}

/* SV_Barycentrics (linear) in v1.xyz, SV_Barycentrics1 (noperspective) in v2.xyz; a point
 * has barycentrics (1, 0, 0): (1, 0 + 2 * 0, 4 * 1, 0 + 0). */
static void test_ps_barycentrics(void)
{
    struct sb_ir_program *ir = lower(dxil_program_ps_barycentrics, "ps_barycentrics",
                                     SpvBuiltInBaryCoordKHR, SpvBuiltInBaryCoordNoPerspKHR);
    if (!ir)
        return;
    unsigned found = 0;
    for (uint32_t i = 0; i < ir->signature_count; i++) {
        const struct sb_ir_signature_element *e = &ir->signature[i];
        if (e->system_value != 23)
            continue;
        uint32_t want_interp = e->semantic_index == 0 ? SB_IR_INTERP_LINEAR
                                                      : SB_IR_INTERP_LINEAR_NOPERSPECTIVE;
        CHECK(e->file == SB_IR_FILE_INPUT && e->register_index == 1 + e->semantic_index &&
                  e->mask == 0x7 && e->interpolation == want_interp,
              "SV_Barycentrics%u: file %u v%u mask 0x%x interpolation %u", e->semantic_index,
              e->file, e->register_index, e->mask, e->interpolation);
        found++;
    }
    CHECK(found == 2, "%u SV_Barycentrics elements", found);
    static const float expected[4] = { 1, 0, 4, 0 };
    check_pixels(ir, "ps_barycentrics", NULL, 3, expected);
    sb_ir_program_destroy(ir);
}

/* D3D12_SHADING_RATE_2X1 (0x4) for even vertices, 2X2 (0x5) for odd ones, stored as they
 * are: Vulkan's PrimitiveShadingRateKHR uses the same bits. */
static void test_vs_shading_rate(void)
{
    struct sb_ir_program *ir = lower(dxil_program_vs_shading_rate, "vs_shading_rate",
                                     SpvBuiltInPrimitiveShadingRateKHR, 0);
    if (!ir)
        return;
    check_vertices(ir, "vs_shading_rate", NULL, 4, 1);
    sb_ir_program_destroy(ir);
}

/* r = SV_ShadingRate gives (r + 1, r >> 2, r & 3, 1): the draws set no coarse rate, so 0 (1x1)
 * gives (1, 0, 0, 1); a run at D3D12_SHADING_RATE_2X4 (0x6) gives (7, 1, 2, 1); 0x2 (1X4) is no
 * D3D rate and the run refuses it. */
static void test_ps_shading_rate(void)
{
    struct sb_ir_program *ir = lower(dxil_program_ps_shading_rate, "ps_shading_rate",
                                     SpvBuiltInShadingRateKHR, 0);
    if (!ir)
        return;
    static const float rate_1x1[4] = { 1, 0, 0, 1 }, rate_2x4[4] = { 7, 1, 2, 1 };
    check_pixels(ir, "ps_shading_rate", NULL, 2, rate_1x1);
    const struct sb_interp_options options = { .shading_rate = 0x6 };
    check_pixels(ir, "ps_shading_rate 2x4", &options, 2, rate_2x4);
    const struct sb_interp_options bad = { .shading_rate = 0x2 };
    const float position[4] = { 0.5f, 0.5f, 0, 1 };
    uint32_t in_words[8] = { 0 }, out_words[4] = { 0 };
    struct sb_interp_registers inputs = { 2, in_words }, outputs = { 1, out_words };
    struct sb_error err;
    enum sb_result r = sb_interp_run_pixels(ir, NULL, 0, 1, position, &inputs, &outputs, NULL, &bad,
                                            NULL, &err);
    CHECK(r == SB_ERROR_INVALID_ARGUMENT && strstr(err.message, "shading_rate"),
          "rate 0x2: result %d '%s'", (int)r, err.message);
    sb_ir_program_destroy(ir);
}

/* Translated for a described device profile: refused naming `feature` without it, translated
 * (spirv-val clean) with it. */
static void check_profile(bool (*write)(struct tbuf *), const char *name, const char *feature,
                          size_t field)
{
    struct tbuf b = { 0 };
    CHECK(write(&b), "%s: the writer failed", name);
    struct sb_translate_options o = { .target_env = SB_TARGET_VULKAN_1_1 };
    o.device.described = true;
    struct sb_translation *t = NULL;
    struct sb_error err;
    memset(&err, 0, sizeof(err));
    enum sb_result r = sb_translate(b.data, b.size, &o, &t, &err);
    CHECK(r == SB_ERROR_TRANSLATE_UNSUPPORTED && strstr(err.message, feature), "%s without %s: %d '%s'",
          name, feature, (int)r, err.message);
    sb_translation_destroy(t);
    t = NULL;
    const bool on = true;
    memcpy((char *)&o.device + field, &on, sizeof(on));
    r = sb_translate(b.data, b.size, &o, &t, &err);
    CHECK(r == SB_SUCCESS, "%s with %s: %s", name, feature, err.message);
    if (r == SB_SUCCESS)
        CHECK(sb_spirv_validate(t->words, t->word_count, SB_TARGET_VULKAN_1_1, &err) == SB_SUCCESS,
              "%s with %s: spirv-val: %s", name, feature, err.message);
    sb_translation_destroy(t);
    tb_free(&b);
}

/* Each system value against the device-profile field of its feature (translate.h). */
static void test_device_profile(void)
{
    check_profile(dxil_program_vs_view_id, "vs_view_id", "multiview",
                  offsetof(struct sb_device_profile, multiview));
    check_profile(dxil_program_ps_barycentrics, "ps_barycentrics", "fragmentShaderBarycentric",
                  offsetof(struct sb_device_profile, fragment_shader_barycentric));
    check_profile(dxil_program_vs_shading_rate, "vs_shading_rate", "primitiveFragmentShadingRate",
                  offsetof(struct sb_device_profile, fragment_shading_rate));
    check_profile(dxil_program_ps_shading_rate, "ps_shading_rate", "primitiveFragmentShadingRate",
                  offsetof(struct sb_device_profile, fragment_shading_rate));
}

/* sb_ir_validate accepts the lowered vHelperLane read and rejects it once the program claims
 * another stage (helper lanes exist only in pixel programs). */
static void test_ir_validate(void)
{
    struct sb_ir_program *ir = lower(dxil_program_ps_helper_lane, "ps_helper_lane",
                                     SpvBuiltInHelperInvocation, 0);
    if (!ir)
        return;
    struct sb_error err;
    memset(&err, 0, sizeof(err));
    CHECK(sb_ir_validate(ir, &err) == SB_SUCCESS, "pixel: %s", err.message);
    ir->stage = SB_IR_STAGE_VERTEX;
    enum sb_result r = sb_ir_validate(ir, &err);
    CHECK(r == SB_ERROR_TRANSLATE_INVALID && strstr(err.message, "vHelperLane"),
          "vertex: result %d '%s'", (int)r, err.message);
    sb_ir_program_destroy(ir);
}

static void test_refusals(void)
{
    struct tbuf b = { 0 };
    dxil_front_expect_refusal("ps_attribute_at_vertex", dxil_program_ps_attribute_at_vertex(&b), &b,
                              "attributeAtVertex");
}

/* The stage-output resource o0 of a validate side (SB_VALIDATE_CLASS_OUTPUT), NULL if none. */
static const struct sb_rt_resource *output_o0(const struct sb_rt_inputs *side)
{
    for (uint32_t i = 0; side && i < side->count; i++)
        if (side->resources[i].resource_class == SB_VALIDATE_CLASS_OUTPUT &&
            side->resources[i].register_index == 0)
            return &side->resources[i];
    return NULL;
}

/* Pixel programs: every texel of render target o0 (float4) the draw wrote holds the four
 * floats `expected` points at; texels left at the clear value (all zero) are skipped, and at
 * least one was written. */
static void check_target(const char *name, const char *side_name, const struct sb_rt_inputs *side,
                         const void *expected)
{
    const float *want = expected;
    const struct sb_rt_resource *o0 = output_o0(side);
    CHECK(o0 && o0->size >= 16, "%s (%s): no o0 target", name, side_name);
    uint32_t written = 0;
    for (size_t t = 0; o0 && t + 16 <= o0->size; t += 16) {
        const uint32_t *w = (const uint32_t *)((const uint8_t *)o0->data + t);
        if (!(w[0] | w[1] | w[2] | w[3]))
            continue;
        written++;
        for (unsigned c = 0; c < 4; c++)
            CHECK(w[c] == f2u(want[c]), "%s (%s): texel %zu lane %u 0x%08x, expected %g", name,
                  side_name, t / 16, c, w[c], (double)want[c]);
    }
    CHECK(written > 0, "%s (%s): no texel written", name, side_name);
}

/* vs_view_id: each vertex record holds o0 then o1; o1.x (word 4) = 0 + 7 in view 0. */
static void check_view_records(const char *name, const char *side_name, const struct sb_rt_inputs *side,
                               const void *expected)
{
    const uint32_t want = *(const uint32_t *)expected;
    const struct sb_rt_resource *o = output_o0(side);
    CHECK(o && o->size >= 32, "%s (%s): no vertex records", name, side_name);
    for (size_t v = 0; o && (v + 1) * 32 <= o->size; v++) {
        const uint32_t *w = (const uint32_t *)((const uint8_t *)o->data + v * 32);
        CHECK(w[4] == want, "%s (%s): vertex %zu VIEW %u, expected %u", name, side_name, v, w[4], want);
    }
}

/* Not run on lavapipe, the reason naming `needs` (the device lacks the feature). */
static void expect_not_run(struct sb_rt_context *ctx, const char *name, bool (*write)(struct tbuf *),
                           const char *needs)
{
    struct tbuf b = { 0 };
    struct sb_rt_program *program = NULL;
    struct sb_error e;
    memset(&e, 0, sizeof(e));
    if (!write(&b) || sb_rt_program_load(b.data, b.size, NULL, &program, &e) != SB_SUCCESS) {
        CHECK(false, "%s: load: %s", name, e.message);
        tb_free(&b);
        return;
    }
    struct sb_validate_options o = { .inputs = { .seed = 7 } };
    struct sb_validate_report *report = NULL;
    enum sb_result r = sb_validate(ctx, program, &o, &report, &e);
    bool not_run = (r == SB_ERROR_RUN_UNSUPPORTED && strstr(e.message, needs)) ||
                   (r == SB_SUCCESS && report->verdict == SB_VALIDATE_NOT_RUN && strstr(report->reason, needs));
    printf("%s: %s\n", name, r == SB_SUCCESS ? report->reason : e.message);
    CHECK(not_run, "%s: expected not run naming %s: result %d, %s", name, needs, (int)r,
          r == SB_SUCCESS ? sb_validate_verdict_name(report->verdict) : e.message);
    sb_validate_report_destroy(report);
    sb_rt_program_destroy(program);
    tb_free(&b);
}

/* The four words of texel `t` of o0 against `want`, lane by lane. */
static void check_texel(const char *side_name, const uint32_t *w, size_t t, const float want[4])
{
    for (unsigned c = 0; c < 4; c++)
        CHECK(w[c] == f2u(want[c]), "ps_helper_load (%s): texel %zu lane %u 0x%08x, expected %g",
              side_name, t, c, w[c], (double)want[c]);
}

/*
 * ps_helper_load with t0 = { 10, 11, 12, 13 }: the point at texel (x, y) is lane
 * L = (x & 1) | (y & 1) << 1 of its quad, so o0 = (t0[L], t0[L ^ 1], t0[L ^ 2], t0[L ^ 3])
 * on the interpreter, as Vulkan and D3D define it. lavapipe 22.3 returns 0 from the helpers'
 * storage-buffer loads: there the pixel's own lane is right and the three quad reads are 0,
 * a disagreement whose reason must name the defect (tests/validate/README.md "Known device
 * defects"); any other device must agree.
 */
static void validate_helper_load(struct sb_rt_context *ctx)
{
    float t0_data[4] = { 10, 11, 12, 13 };
    const struct sb_rt_resource t0 = {
        .resource_class = SB_IR_RESOURCE_SRV, .register_index = 0, .data = t0_data,
        .size = sizeof(t0_data), .layers = 1, .mip_levels = 1, .sample_count = 1,
    };
    struct tbuf b = { 0 };
    struct sb_rt_program *program = NULL;
    struct sb_error e;
    memset(&e, 0, sizeof(e));
    if (!dxil_program_ps_helper_load(&b) ||
        sb_rt_program_load(b.data, b.size, NULL, &program, &e) != SB_SUCCESS) {
        CHECK(false, "ps_helper_load: load: %s", e.message);
        tb_free(&b);
        return;
    }
    struct sb_validate_options o = { .inputs = { .seed = 1 }, .provided_count = 1, .provided = &t0 };
    struct sb_validate_report *report = NULL;
    enum sb_result r = sb_validate(ctx, program, &o, &report, &e);
    CHECK(r == SB_SUCCESS, "ps_helper_load: sb_validate: %s", e.message);
    const char *device = sb_rt_context_device_name(ctx);
    bool lavapipe = device && strstr(device, "llvmpipe");
    const struct sb_rt_resource *cpu = r == SB_SUCCESS ? output_o0(report->cpu) : NULL;
    const struct sb_rt_resource *gpu = r == SB_SUCCESS ? output_o0(report->gpu) : NULL;
    CHECK(cpu && gpu && cpu->size == gpu->size && cpu->width && cpu->size >= 16,
          "ps_helper_load: no o0 on both sides");
    for (size_t t = 0; cpu && gpu && cpu->width && t < cpu->size / 16 && gpu->size == cpu->size; t++) {
        uint32_t lane = (uint32_t)((t % cpu->width) & 1) | (uint32_t)(((t / cpu->width) & 1) << 1);
        const float want[4] = { t0_data[lane], t0_data[lane ^ 1], t0_data[lane ^ 2], t0_data[lane ^ 3] };
        const float defect[4] = { t0_data[lane], 0, 0, 0 };
        check_texel("interpreter", (const uint32_t *)cpu->data + 4 * t, t, want);
        check_texel("device", (const uint32_t *)gpu->data + 4 * t, t, lavapipe ? defect : want);
    }
    if (r == SB_SUCCESS) {
        printf("ps_helper_load: %s: %s\n", sb_validate_verdict_name(report->verdict), report->reason);
        if (lavapipe)
            CHECK(report->verdict == SB_VALIDATE_DISAGREE &&
                      strstr(report->reason, "storage-buffer loads in helper invocations return 0"),
                  "ps_helper_load: lavapipe's verdict must name the defect: %s (%s)",
                  sb_validate_verdict_name(report->verdict), report->reason);
        else
            CHECK(report->verdict == SB_VALIDATE_AGREE, "ps_helper_load: verdict %s (%s)",
                  sb_validate_verdict_name(report->verdict), report->reason);
    }
    sb_validate_report_destroy(report);
    sb_rt_program_destroy(program);
    tb_free(&b);
}

/* The GPU's words against the known answers and the interpreter (dxil_front_validate), then
 * the programs lavapipe cannot run. */
static int test_validate(void)
{
    static const uint32_t view0 = 7;
    static const float view_target[4] = { 0, 0, 0, 1 }, helper_target[4] = { 0, 1, 1, 1 };
    static const float branch_target[4] = { 2, 1, 1, 1 };
    dxil_front_validate("vs_view_id", dxil_program_vs_view_id, NULL, 0, 0, false, check_view_records,
                        &view0);
    dxil_front_validate("vs_start_location", dxil_program_vs_start_location, NULL, 0, 0, false,
                        check_view_records, &view0);
    dxil_front_validate("ps_view_id", dxil_program_ps_view_id, NULL, 0, 0, false, check_target,
                        view_target);
    dxil_front_validate("ps_helper_lane", dxil_program_ps_helper_lane, NULL, 0, 0, false, check_target,
                        helper_target);
    dxil_front_validate("ps_helper_branch", dxil_program_ps_helper_branch, NULL, 0, 0, false,
                        check_target, branch_target);
    dxil_front_validate("ps_helper_discard", dxil_program_ps_helper_discard, NULL, 0, 0, false,
                        check_target, branch_target);
    struct sb_rt_context *ctx = NULL;
    struct sb_error e = { 0 };
    struct sb_rt_context_options co = { .validation = true };
    if (sb_rt_context_create(&co, &ctx, &e) != SB_SUCCESS) {
        printf("no Vulkan device (%s): the not-run cases are skipped\n", e.message);
        return failures ? 1 : 0;
    }
    validate_helper_load(ctx);
    expect_not_run(ctx, "ps_barycentrics", dxil_program_ps_barycentrics, "FragmentBarycentricKHR");
    expect_not_run(ctx, "vs_shading_rate", dxil_program_vs_shading_rate, "FragmentShadingRateKHR");
    expect_not_run(ctx, "ps_shading_rate", dxil_program_ps_shading_rate, "FragmentShadingRateKHR");
    CHECK(sb_rt_context_validation_errors(ctx) == 0, "validation-layer errors: %s",
          sb_rt_context_first_validation_error(ctx));
    sb_rt_context_destroy(ctx);
    return failures ? 1 : 0;
}

static const struct {
    const char *name;
    void (*run)(void);
} cases[] = {
    { "vs_view_id", test_vs_view_id },           { "ps_view_id", test_ps_view_id },
    { "vs_start_location", test_vs_start_location },
    { "ps_helper_lane", test_ps_helper_lane },   { "ps_barycentrics", test_ps_barycentrics },
    { "vs_shading_rate", test_vs_shading_rate }, { "ps_shading_rate", test_ps_shading_rate },
    { "refusals", test_refusals },               { "ir_validate", test_ir_validate },
    { "device_profile", test_device_profile },
};

int main(int argc, char **argv)
{
    const char *which = argc > 1 ? argv[1] : "";
    if (!strcmp(which, "validate"))
        return test_validate();
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
        if (!strcmp(which, cases[i].name)) {
            cases[i].run();
            if (failures)
                fprintf(stderr, "%u check(s) failed\n", failures);
            return failures ? 1 : 0;
        }
    fprintf(stderr, "usage: %s validate", argv[0]);
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
        fprintf(stderr, "|%s", cases[i].name);
    fprintf(stderr, "\n");
    return 2;
}
