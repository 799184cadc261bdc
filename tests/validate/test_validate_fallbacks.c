/* SPDX-License-Identifier: MIT */
/*
 * validate_fallbacks: the translator's device fallbacks (translator/README.md "Device
 * fallbacks") run by sb_validate on the device it validates with, which translates the
 * program again for that device (runtime/src/validate/validate_device.c). On a
 * hand-assembled cs_5_1, no corpus:
 *
 *   waterfall: 16 threads; thread t reads word 0 of T0[t & 3] through a
 *   NonUniformResourceIndex (T0[0:3], four raw buffers: a divergent pattern where
 *   every index occurs four times, interleaved) and stores it at byte 4t of U0.
 *   Lavapipe 22.3 lacks shaderStorageBufferArrayNonUniformIndexing, so the device runs
 *   the waterfall loop. Known answer, on both sides: u0 word t == t0[t & 3] word 0 of
 *   the seeded inputs, and the verdict is agree.
 *
 *   waterfall_sample_4, _32, _33: the same pattern through T0[t & 3] of a range of 4, 32 or
 *   33 16x16 float textures, sampled at (0.5, 0.5), LOD 0, with the seeded linear sampler:
 *   the interpreter gives the average of texels (7..8, 7..8) of that lane's texture; the
 *   device agrees, except where a lavapipe 22.3 defect (case comment) makes the lanes of
 *   index > 0 differ in the range of 33, whose disagreement must then name the defect.
 *
 * Both programs must reach the device as waterfall loops (device_loops): when the operand
 * carried its flag in an empty (type 0) extended token, which the decoder rightly skips, the
 * index was not marked non-uniform, no loop was made, and lavapipe sampled lanes of indices
 * above 0 with the nearest texel (a non-uniform index without NonUniform is undefined).
 *
 * Without a device, the interpreter runs alone and the known answers are checked on it.
 * Usage: test_validate_fallbacks. Exit 0 pass, 1 fail.
 */
#define _POSIX_C_SOURCE 200809L

#include <dlfcn.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "shaderbridge/translate.h"
#include "shaderbridge/validate.h"
#include "sm4_asm.h"
#include "check.h"

static void build_waterfall(struct blob *out)
{
    static struct sm4_program p;
    sm4_begin_cs51(&p, 16, 2);
    uint32_t space0 = 0;
    sm4_decl(&p, OP_DCL_RESOURCE_RAW, sm4_range51(T_RESOURCE, 0, 0, 3), 1, &space0);
    sm4_decl(&p, OP_DCL_UAV_RAW, sm4_range51(T_UAV, 0, 0, 0), 1, &space0);
    sm4_dcl_thread_id(&p, T_THREAD_ID, "x");
    I(&p, OP_AND, dr(0, "x"), special(T_THREAD_ID, "x"), l1(3));
    struct sm4_operand index = sr(0, "x");
    I(&p, OP_LD_RAW, dr(1, "x"), l1(0), sm4_reg51(T_RESOURCE, 0, 0, &index, "xxxx", 0, true));
    I(&p, OP_ISHL, dr(0, "y"), special(T_THREAD_ID, "x"), l1(2));
    I(&p, OP_STORE_RAW, sm4_reg51(T_UAV, 0, 0, NULL, "x", 1, false), sr(0, "y"), sr(1, "x"));
    sm4_end(&p);
    sm4_container(&p, out);
}

/* The same pattern through textures: thread t samples T0[t & 3] (2D float textures, a range
 * of `descriptors`, NonUniformResourceIndex) at (0.5, 0.5), LOD 0, with S0, and stores the
 * texel's x. */
static void build_waterfall_sample(struct blob *out, uint32_t descriptors)
{
    static struct sm4_program p;
    sm4_begin_cs51(&p, 16, 2);
    uint32_t space0 = 0;
    uint32_t texture_extra[2] = { 0x5555u, 0 }; /* float return type in x, y, z, w; space 0 */
    sm4_decl(&p, OP_DCL_RESOURCE | (3u << 11), sm4_range51(T_RESOURCE, 0, 0, descriptors - 1), 2, texture_extra);
    sm4_decl(&p, OP_DCL_SAMPLER, sm4_range51(T_SAMPLER, 0, 0, 0), 1, &space0);
    sm4_decl(&p, OP_DCL_UAV_RAW, sm4_range51(T_UAV, 0, 0, 0), 1, &space0);
    sm4_dcl_thread_id(&p, T_THREAD_ID, "x");
    I(&p, OP_AND, dr(0, "x"), special(T_THREAD_ID, "x"), l1(3));
    struct sm4_operand index = sr(0, "x");
    uint32_t half = 0x3f000000u;
    I(&p, OP_SAMPLE_L, dr(1, "x"), l4(half, half, 0, 0), sm4_reg51(T_RESOURCE, 0, 0, &index, "xyzw", 0, true),
      sm4_reg51(T_SAMPLER, 0, 0, NULL, "x", 0, false), l1(0));
    I(&p, OP_ISHL, dr(0, "y"), special(T_THREAD_ID, "x"), l1(2));
    I(&p, OP_STORE_RAW, sm4_reg51(T_UAV, 0, 0, NULL, "x", 1, false), sr(0, "y"), sr(1, "x"));
    sm4_end(&p);
    sm4_container(&p, out);
}

/* Waterfall loops in the program translated for the context's device, as validate does. */
static uint32_t device_loops(struct sb_rt_context *context, const struct blob *b)
{
    struct sb_translate_options o = { .target_env = SB_TARGET_VULKAN_1_1 };
    sb_rt_context_device_profile(context, &o.device);
    struct sb_translation *t = NULL;
    struct sb_error e = { 0 };
    uint32_t loops = 0;
    if (sb_translate(b->bytes, b->size, &o, &t, &e) == SB_SUCCESS)
        for (size_t i = 5; i < t->word_count && t->words[i] >> 16; i += t->words[i] >> 16)
            loops += (t->words[i] & 0xffffu) == 246u; /* OpLoopMerge */
    sb_translation_destroy(t);
    return loops;
}

static const struct sb_rt_resource *find(const struct sb_rt_inputs *in, uint32_t resource_class, uint32_t reg)
{
    for (uint32_t i = 0; in && i < in->count; i++)
        if (in->resources[i].resource_class == resource_class && in->resources[i].space == 0 &&
            in->resources[i].register_index == reg)
            return &in->resources[i];
    return NULL;
}

static bool word(const struct sb_rt_resource *r, uint64_t w, uint32_t *v)
{
    if (!r || !r->data || (w + 1) * 4 > r->size)
        return false;
    memcpy(v, (const uint8_t *)r->data + w * 4, 4);
    return true;
}

/* u0 word t == t(t & 3) word 0 on one side's inputs and results. */
static void check_side(const struct sb_rt_inputs *side, const char *name)
{
    const struct sb_rt_resource *u0 = find(side, SB_IR_RESOURCE_UAV, 0);
    for (uint32_t t = 0; t < 16; t++) {
        uint32_t got = 0, want = 0;
        bool have = word(u0, t, &got) && word(find(side, SB_IR_RESOURCE_SRV, t & 3u), 0, &want);
        CHECK(have && got == want, "waterfall (%s): u0 word %u = %#x, want t%u word 0 = %#x", name, t, got, t & 3u,
              want);
    }
}

static void case_waterfall(struct sb_rt_context *context, bool gpu)
{
    static struct blob b;
    build_waterfall(&b);
    struct sb_device_profile d;
    sb_rt_context_device_profile(context, &d);
    if (gpu && d.described && !d.storage_buffer_array_non_uniform_indexing)
        CHECK(device_loops(context, &b) == 1, "waterfall: %u loops for the device, want 1", device_loops(context, &b));
    struct sb_rt_program *program = NULL;
    struct sb_error e = { 0 };
    if (sb_rt_program_load(b.bytes, b.size, NULL, &program, &e) != SB_SUCCESS) {
        CHECK(false, "waterfall: does not load: %s", e.message);
        return;
    }
    struct sb_validate_options o = { .inputs = { .seed = 1 }, .sides = gpu ? 0 : SB_VALIDATE_SIDE_CPU };
    struct sb_validate_report *r = NULL;
    enum sb_result res = sb_validate(context, program, &o, &r, &e);
    CHECK(res == SB_SUCCESS, "waterfall: %s", e.message);
    if (res == SB_SUCCESS) {
        /* The four buffers hold different words, or the check could not tell them apart. */
        uint32_t w[4] = { 0 };
        for (uint32_t i = 0; i < 4; i++)
            word(find(r->cpu, SB_IR_RESOURCE_SRV, i), 0, &w[i]);
        CHECK(w[0] != w[1] && w[0] != w[2] && w[0] != w[3] && w[1] != w[2] && w[1] != w[3] && w[2] != w[3],
              "waterfall: seeded t0..t3 word 0 not distinct: %#x %#x %#x %#x", w[0], w[1], w[2], w[3]);
        check_side(r->cpu, "interpreter");
        if (gpu) {
            check_side(r->gpu, "device");
            CHECK(r->verdict == SB_VALIDATE_AGREE && r->mismatch_count == 0, "waterfall: verdict %s (%s)",
                  sb_validate_verdict_name(r->verdict), r->reason);
        }
        printf("waterfall: %s\n", gpu ? sb_validate_verdict_name(r->verdict) : "interpreter only");
    }
    sb_validate_report_destroy(r);
    sb_rt_program_destroy(program);
}

/* word (x, y) .x of a 16x16 R32G32B32A32_FLOAT texture, as a float; NAN when missing. */
static float texel_x(const struct sb_rt_resource *t, uint32_t x, uint32_t y)
{
    uint32_t v = 0;
    float f = NAN;
    if (t && t->format == SB_RT_FORMAT_R32G32B32A32_FLOAT && t->width == 16 && t->height == 16 &&
        word(t, (y * 16 + x) * 4, &v))
        memcpy(&f, &v, 4);
    return f;
}

static float as_float(uint32_t v)
{
    float f;
    memcpy(&f, &v, 4);
    return f;
}

/*
 * Sampling at (0.5, 0.5) of a 16x16 texture with the seeded linear sampler reads texels
 * (7..8, 7..8) with weight 1/4 each: the interpreter must give that average for every lane.
 * The device must agree, except for one lavapipe 22.3 defect this test pins down: through
 * the waterfall loop over a range of more than 32 textures, every lane of an index above 0
 * reads something else; 32 textures, or a dynamically uniform index into a range of 33
 * without the loop, read right. Lanes of index 0 must agree either way; such a disagreement
 * must name the defect (runtime/src/validate/validate_waterfall_defect.c); if lavapipe is
 * fixed the verdict becomes agree and the defect branch is no longer taken.
 */
static void case_waterfall_sample(struct sb_rt_context *context, bool gpu, uint32_t descriptors)
{
    static struct blob b;
    build_waterfall_sample(&b, descriptors);
    struct sb_device_profile d;
    sb_rt_context_device_profile(context, &d);
    if (gpu && d.described && !d.sampled_image_array_non_uniform_indexing)
        CHECK(device_loops(context, &b) == 1, "waterfall_sample_%u: %u loops for the device, want 1", descriptors,
              device_loops(context, &b));
    struct sb_rt_program *program = NULL;
    struct sb_error e = { 0 };
    if (sb_rt_program_load(b.bytes, b.size, NULL, &program, &e) != SB_SUCCESS) {
        CHECK(false, "waterfall_sample_%u: does not load: %s", descriptors, e.message);
        return;
    }
    struct sb_validate_options o = { .inputs = { .seed = 1 }, .sides = gpu ? 0 : SB_VALIDATE_SIDE_CPU };
    struct sb_validate_report *r = NULL;
    enum sb_result res = sb_validate(context, program, &o, &r, &e);
    CHECK(res == SB_SUCCESS, "waterfall_sample_%u: %s", descriptors, e.message);
    uint32_t defect_lanes = 0;
    for (uint32_t t = 0; res == SB_SUCCESS && t < 16; t++) {
        const struct sb_rt_resource *tex = find(r->cpu, SB_IR_RESOURCE_SRV, t & 3u);
        float want = 0.25f * (texel_x(tex, 7, 7) + texel_x(tex, 8, 7) + texel_x(tex, 7, 8) + texel_x(tex, 8, 8));
        uint32_t cpu = 0, dev = 0;
        CHECK(word(find(r->cpu, SB_IR_RESOURCE_UAV, 0), t, &cpu) && fabsf(as_float(cpu) - want) <= 1e-6f,
              "waterfall_sample_%u: interpreter lane %u = %g, want %g", descriptors, t, as_float(cpu), want);
        if (!gpu)
            continue;
        CHECK(word(find(r->gpu, SB_IR_RESOURCE_UAV, 0), t, &dev), "waterfall_sample_%u: no device word %u",
              descriptors, t);
        bool defect = dev != cpu && descriptors > 32 && (t & 3u);
        defect_lanes += defect;
        CHECK(dev == cpu || defect, "waterfall_sample_%u: device lane %u = %g, interpreter %g", descriptors, t,
              as_float(dev), as_float(cpu));
    }
    if (res == SB_SUCCESS && gpu)
        CHECK(defect_lanes ? r->verdict == SB_VALIDATE_DISAGREE && r->mismatch_count == defect_lanes
                           : r->verdict == SB_VALIDATE_AGREE,
              "waterfall_sample_%u: verdict %s with %u lanes of the lavapipe defect (%s)", descriptors,
              sb_validate_verdict_name(r->verdict), defect_lanes, r->reason);
    if (res == SB_SUCCESS && gpu && defect_lanes)
        CHECK(strstr(r->reason, "; matches a known lavapipe 22.3 defect (tests/validate/test_validate_fallbacks.c)"),
              "waterfall_sample_%u: the reason does not name the defect: %s", descriptors, r->reason);
    if (res == SB_SUCCESS)
        printf("waterfall_sample_%u: %s", descriptors, gpu ? sb_validate_verdict_name(r->verdict) : "interpreter only");
    if (res == SB_SUCCESS && defect_lanes)
        printf(" (lavapipe: %u lanes of an index above 0 differ)", defect_lanes);
    printf("\n");
    sb_validate_report_destroy(r);
    sb_rt_program_destroy(program);
}

int main(void)
{
    struct sb_rt_context *context = NULL;
    struct sb_error error = { 0 };
    struct sb_rt_context_options options = { .validation = true, .allow_cpu_only = true };
    if (sb_rt_context_create(&options, &context, &error) != SB_SUCCESS) {
        printf("FAIL: no context: %s\n", error.message);
        return 1;
    }
    /* Keep lavapipe loaded after the context goes (LeakSanitizer; tests/CMakeLists.txt). */
    (void)dlopen("libvulkan_lvp.so", RTLD_NOW | RTLD_NOLOAD);
    bool gpu = sb_rt_context_has_device(context);
    printf("validate_fallbacks on %s\n", sb_rt_context_device_name(context));
    case_waterfall(context, gpu);
    case_waterfall_sample(context, gpu, 4);
    case_waterfall_sample(context, gpu, 32);
    case_waterfall_sample(context, gpu, 33);
    uint32_t layer_errors = sb_rt_context_validation_errors(context);
    CHECK(layer_errors == 0, "%u validation-layer errors; first: %s", layer_errors,
          sb_rt_context_first_validation_error(context));
    sb_rt_context_destroy(context);
    printf("%s: %u failures\n", failures ? "FAIL" : "PASS", failures);
    return failures ? 1 : 0;
}
