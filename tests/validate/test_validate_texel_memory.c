/* SPDX-License-Identifier: MIT */
/*
 * texel_memory: raw/structured t#/u# past the device's per-stage storage-buffer limit bound
 * as R32_UINT texel buffers (sb_device_profile::max_per_stage_storage_buffers, translate.h;
 * translator/src/translate_fit_storage.c, spirv/spirv_texel_memory.c). One hand-assembled
 * cs_5_1 of 16 threads with 71 storage-buffer descriptors:
 *
 *   t0[0:31] raw (range 0)       t32 structured, stride 8 (range 1)
 *   u0[0:31] raw (range 0)       u32 raw (range 1)       u33 structured, stride 8 (range 2)
 *   u34[34:37] raw (range 3)
 *
 *   thread t:  r1.x = ld_raw       0 of T0[t & 3]      (NonUniformResourceIndex)
 *              r1.y = ld_structured struct t, byte 4 of t32
 *              r1.z = ld_structured struct 1000, byte 0 of t32 (out of bounds: 0)
 *              r1.w = bufinfo t32                  (structures: 1024 / 8 = 128)
 *              u32 bytes 32t .. 32t+15  = r1.xyzw
 *              u32 bytes 32t+16, 32t+20 = bufinfo u32 (bytes, 1024), bufinfo u33 (128)
 *              store_raw u32 byte 0x100000 = r1.x  (out of bounds: dropped)
 *              atomic_iadd u33 struct 0, byte 0 += t  (word 0 ends at its seed + 120)
 *              store_structured u33 struct t+1, byte 4 = r1.x (word 2t+3)
 *              atomic_iadd U34[t & 3] byte 0 += t + 1   (NonUniformResourceIndex: word 0 of
 *                  u(34 + k) ends at its seed + 4k + 28)
 *              store_raw U34[t & 3] byte 4 + 4t = r1.x  (NonUniformResourceIndex)
 *
 * Cases (argv[1]):
 *   translate: the report and spirv-val under five profiles: zeroed (all six bindings
 *     STORAGE_BUFFER, today's module); lavapipe's limits 32 / 128 sampled / 64 storage images
 *     with every non-uniform indexing feature (t32 and t0 -> UNIFORM_TEXEL_BUFFER, u34..37,
 *     u33 and u32 -> STORAGE_TEXEL_BUFFER, u0 kept: 71 - 1 - 32 - 4 - 1 - 1 = 32; NonUniform
 *     decorations and the texel-buffer indexing capabilities); the same without the features,
 *     as lavapipe has it (three waterfall loops, no NonUniform); 32 sampled images (t0 would
 *     make 33: skipped, so the UAVs move, u0 too); 1 sampled and 1 storage image (t32 and u33
 *     move, 69 remain: SB_ERROR_TRANSLATE_UNSUPPORTED naming the limits).
 *   validate: sb_validate on the context's device (lavapipe: 32 storage buffers, so the
 *     device translation has the texel buffers of the second profile, checked here) against
 *     the interpreter with 1 KiB buffers: verdict agree, and the known answers above on both
 *     sides (loads, a store and an atomic through waterfall loops over uniform and storage
 *     texel buffers, stores, an atomic, bufinfo, an out-of-bounds read and write). Without a
 *     device the interpreter's answers alone.
 * Usage: test_validate_texel_memory translate|validate. Exit 0 pass, 1 fail.
 */
#define _POSIX_C_SOURCE 200809L

#include <dlfcn.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "shaderbridge/translate.h"
#include "shaderbridge/validate.h"
#include "sm4_asm.h"
#include "check.h"

/* VkDescriptorType and VkFormat values the report uses. */
#define UNIFORM_TEXEL_BUFFER 4u
#define STORAGE_TEXEL_BUFFER 5u
#define STORAGE_BUFFER 7u
#define VK_R32_UINT 98u
#define BUFFER_BYTES 1024u

static void build(struct blob *out)
{
    static struct sm4_program p;
    memset(&p, 0, sizeof(p));
    sm4_put(&p, (5u << 16) | (5u << 4) | 1u); /* cs_5_1 */
    sm4_put(&p, 0);
    sm4_raw(&p, OP_DCL_GLOBAL_FLAGS | (1u << 11), 0, NULL);
    uint32_t temps = 3, group[3] = { 16, 1, 1 }, space0 = 0, structured[2] = { 8, 0 };
    sm4_raw(&p, OP_DCL_TEMPS, 1, &temps);
    sm4_raw(&p, OP_DCL_THREAD_GROUP, 3, group);
    sm4_decl(&p, OP_DCL_RESOURCE_RAW, sm4_range51(T_RESOURCE, 0, 0, 31), 1, &space0);
    sm4_decl(&p, OP_DCL_RESOURCE_STRUCTURED, sm4_range51(T_RESOURCE, 1, 32, 32), 2, structured);
    sm4_decl(&p, OP_DCL_UAV_RAW, sm4_range51(T_UAV, 0, 0, 31), 1, &space0);
    sm4_decl(&p, OP_DCL_UAV_RAW, sm4_range51(T_UAV, 1, 32, 32), 1, &space0);
    sm4_decl(&p, OP_DCL_UAV_STRUCTURED, sm4_range51(T_UAV, 2, 33, 33), 2, structured);
    sm4_decl(&p, OP_DCL_UAV_RAW, sm4_range51(T_UAV, 3, 34, 37), 1, &space0);
    sm4_dcl_thread_id(&p, T_THREAD_ID, "x");
    struct sm4_operand tid = special(T_THREAD_ID, "xxxx"), index = sr(0, "x");
    I(&p, OP_AND, dr(0, "x"), tid, l1(3));
    I(&p, OP_LD_RAW, dr(1, "x"), l1(0), sm4_reg51(T_RESOURCE, 0, 0, &index, "xxxx", 0, true));
    I(&p, OP_LD_STRUCTURED, dr(1, "y"), tid, l1(4), sm4_reg51(T_RESOURCE, 1, 32, NULL, "xxxx", 0, false));
    I(&p, OP_LD_STRUCTURED, dr(1, "z"), l1(1000), l1(0), sm4_reg51(T_RESOURCE, 1, 32, NULL, "xxxx", 0, false));
    I(&p, OP_BUFINFO, dr(1, "w"), sm4_reg51(T_RESOURCE, 1, 32, NULL, "xxxx", 0, false));
    I(&p, OP_ISHL, dr(0, "y"), tid, l1(5));
    I(&p, OP_STORE_RAW, sm4_reg51(T_UAV, 1, 32, NULL, "xyzw", 1, false), sr(0, "y"), sr(1, "xyzw"));
    I(&p, OP_BUFINFO, dr(2, "x"), sm4_reg51(T_UAV, 1, 32, NULL, "xxxx", 0, false));
    I(&p, OP_BUFINFO, dr(2, "y"), sm4_reg51(T_UAV, 2, 33, NULL, "xxxx", 0, false));
    I(&p, OP_IADD, dr(0, "z"), sr(0, "y"), l1(16));
    I(&p, OP_STORE_RAW, sm4_reg51(T_UAV, 1, 32, NULL, "xy", 1, false), sr(0, "z"), sr(2, "xyxx"));
    I(&p, OP_STORE_RAW, sm4_reg51(T_UAV, 1, 32, NULL, "x", 1, false), l1(0x100000), sr(1, "x"));
    I(&p, OP_ATOMIC_IADD, sm4_reg51(T_UAV, 2, 33, NULL, "x", 1, false), l4(0, 0, 0, 0), tid);
    I(&p, OP_IADD, dr(0, "w"), tid, l1(1));
    I(&p, OP_STORE_STRUCTURED, sm4_reg51(T_UAV, 2, 33, NULL, "x", 1, false), sr(0, "w"), l1(4), sr(1, "x"));
    I(&p, OP_ATOMIC_IADD, sm4_reg51(T_UAV, 3, 34, &index, "x", 1, true), l1(0), sr(0, "w"));
    I(&p, OP_ISHL, dr(2, "z"), sr(0, "w"), l1(2));
    I(&p, OP_STORE_RAW, sm4_reg51(T_UAV, 3, 34, &index, "x", 1, true), sr(2, "z"), sr(1, "x"));
    sm4_end(&p);
    sm4_container(&p, out);
}

/* ---- translate ---------------------------------------------------------------------------------- */

/* Binding of (class, lower bound) in a translation; NULL when absent. */
static const struct sb_translated_binding *binding(const struct sb_translation *t, uint32_t cls, uint32_t lower)
{
    for (uint32_t i = 0; t && i < t->binding_count; i++)
        if (t->bindings[i].resource_class == cls && t->bindings[i].lower_bound == lower)
            return &t->bindings[i];
    return NULL;
}

/* What each of the six declarations must become: descriptor types t0, t32, u0, u32, u33, u34. */
static void check_types(const char *name, const struct sb_translation *t, const uint32_t want[6])
{
    static const struct { uint32_t cls, lower, count; } decls[6] = {
        { SB_IR_RESOURCE_SRV, 0, 32 }, { SB_IR_RESOURCE_SRV, 32, 1 }, { SB_IR_RESOURCE_UAV, 0, 32 },
        { SB_IR_RESOURCE_UAV, 32, 1 }, { SB_IR_RESOURCE_UAV, 33, 1 }, { SB_IR_RESOURCE_UAV, 34, 4 },
    };
    CHECK(t && t->binding_count == 6, "%s: %u bindings, want 6", name, t ? t->binding_count : 0);
    for (int i = 0; i < 6; i++) {
        const struct sb_translated_binding *b = binding(t, decls[i].cls, decls[i].lower);
        CHECK(b && b->count == decls[i].count && b->descriptor_type == want[i] &&
                  b->view_format == (want[i] == STORAGE_BUFFER ? 0u : VK_R32_UINT),
              "%s: %s%u: count %u, descriptor type %u, view format %u; want %u, %u", name,
              decls[i].cls == SB_IR_RESOURCE_SRV ? "t" : "u", decls[i].lower, b ? b->count : 0,
              b ? b->descriptor_type : 0, b ? b->view_format : 0, decls[i].count, want[i]);
    }
}

/* Does the module declare capability `cap` (they open the module, after the header)? */
static bool declares(const struct sb_translation *t, uint32_t cap)
{
    for (size_t i = 5; t && i + 1 < t->word_count && (t->words[i] & 0xffffu) == 17u; i += t->words[i] >> 16)
        if (t->words[i + 1] == cap)
            return true;
    return false;
}

/* Instructions of opcode `op` whose word `at` (0: none asked) is `value`. */
static uint32_t count_ops(const struct sb_translation *t, uint32_t op, uint32_t at, uint32_t value)
{
    uint32_t n = 0;
    for (size_t i = 5; t && i < t->word_count && t->words[i] >> 16; i += t->words[i] >> 16)
        n += (t->words[i] & 0xffffu) == op && (!at || (at < (t->words[i] >> 16) && i + at < t->word_count &&
                                                       t->words[i + at] == value));
    return n;
}
#define OP_DECORATE 71u
#define OP_LOOP_MERGE 246u
#define DECORATION_NON_UNIFORM 5300u

static struct sb_translation *translate(const struct blob *b, const struct sb_device_profile *device,
                                        enum sb_result *res, struct sb_error *e)
{
    struct sb_translate_options o = { .target_env = SB_TARGET_VULKAN_1_1, .flags = SB_TRANSLATE_VALIDATE };
    o.device = *device;
    struct sb_translation *t = NULL;
    *res = sb_translate(b->bytes, b->size, &o, &t, e);
    return t;
}

static void case_translate(void)
{
    static struct blob b;
    build(&b);
    struct sb_error e = { 0 };
    enum sb_result res;
    const struct sb_device_profile zeroed = { .described = false };
    struct sb_translation *t = translate(&b, &zeroed, &res, &e);
    CHECK(res == SB_SUCCESS, "zeroed profile: %s", e.message);
    check_types("zeroed", t, (const uint32_t[6]){ STORAGE_BUFFER, STORAGE_BUFFER, STORAGE_BUFFER, STORAGE_BUFFER,
                                                  STORAGE_BUFFER, STORAGE_BUFFER });
    CHECK(!declares(t, 46 /* SampledBuffer */) && !declares(t, 47 /* ImageBuffer */),
          "zeroed: texel-buffer capabilities declared");
    sb_translation_destroy(t);

    /* Lavapipe's limits; the non-uniform features present, so no waterfall here. */
    struct sb_device_profile lavapipe = {
        .described = true, .storage_image_read_without_format = true,
        .sampled_image_array_non_uniform_indexing = true, .storage_image_array_non_uniform_indexing = true,
        .uniform_texel_buffer_array_non_uniform_indexing = true,
        .storage_texel_buffer_array_non_uniform_indexing = true, .storage_buffer_array_non_uniform_indexing = true,
        .max_per_stage_storage_buffers = 32, .max_per_stage_storage_images = 64,
        .max_per_stage_sampled_images = 128,
    };
    t = translate(&b, &lavapipe, &res, &e);
    CHECK(res == SB_SUCCESS, "lavapipe limits: %s", e.message);
    const uint32_t lavapipe_types[6] = { UNIFORM_TEXEL_BUFFER, UNIFORM_TEXEL_BUFFER, STORAGE_BUFFER,
                                         STORAGE_TEXEL_BUFFER, STORAGE_TEXEL_BUFFER, STORAGE_TEXEL_BUFFER };
    check_types("lavapipe limits", t, lavapipe_types);
    CHECK(declares(t, 46) && declares(t, 47) && declares(t, 5311 /* UniformTexelBufferArrayNonUniformIndexing */) &&
              declares(t, 5312 /* StorageTexelBufferArrayNonUniformIndexing */),
          "lavapipe limits: ImageBuffer, SampledBuffer or a texel-buffer NonUniform capability missing");
    CHECK(count_ops(t, OP_DECORATE, 2, DECORATION_NON_UNIFORM) > 0 && count_ops(t, OP_LOOP_MERGE, 0, 0) == 0,
          "lavapipe limits: %u NonUniform decorations, %u loops; want some, 0",
          count_ops(t, OP_DECORATE, 2, DECORATION_NON_UNIFORM), count_ops(t, OP_LOOP_MERGE, 0, 0));
    sb_translation_destroy(t);

    /* Lavapipe itself: no non-uniform indexing feature, so the three accesses through
     * T0[t & 3] and U34[t & 3] each run in a waterfall loop over their texel buffers. */
    struct sb_device_profile lavapipe_features = { .described = true, .max_per_stage_storage_buffers = 32,
                                                   .max_per_stage_storage_images = 64,
                                                   .max_per_stage_sampled_images = 128 };
    t = translate(&b, &lavapipe_features, &res, &e);
    CHECK(res == SB_SUCCESS, "lavapipe: %s", e.message);
    check_types("lavapipe", t, lavapipe_types);
    CHECK(count_ops(t, OP_DECORATE, 2, DECORATION_NON_UNIFORM) == 0 && count_ops(t, OP_LOOP_MERGE, 0, 0) == 3 &&
              !declares(t, 5311) && !declares(t, 5312),
          "lavapipe: %u NonUniform decorations, %u loops; want 0, 3",
          count_ops(t, OP_DECORATE, 2, DECORATION_NON_UNIFORM), count_ops(t, OP_LOOP_MERGE, 0, 0));
    sb_translation_destroy(t);

    /* 32 sampled images: t0's 32 would make 33 with t32, so the UAVs move instead. */
    struct sb_device_profile few_sampled = lavapipe;
    few_sampled.max_per_stage_sampled_images = 32;
    t = translate(&b, &few_sampled, &res, &e);
    CHECK(res == SB_SUCCESS, "32 sampled images: %s", e.message);
    check_types("32 sampled images", t, (const uint32_t[6]){ STORAGE_BUFFER, UNIFORM_TEXEL_BUFFER,
                                                             STORAGE_TEXEL_BUFFER, STORAGE_TEXEL_BUFFER,
                                                             STORAGE_TEXEL_BUFFER, STORAGE_TEXEL_BUFFER });
    sb_translation_destroy(t);

    /* Nothing fits: t32 and u33 move (u34..37 would take 4 storage images), 71 - 2 = 69 remain. */
    struct sb_device_profile tiny = lavapipe;
    tiny.max_per_stage_sampled_images = 1;
    tiny.max_per_stage_storage_images = 1;
    memset(&e, 0, sizeof(e));
    t = translate(&b, &tiny, &res, &e);
    CHECK(res == SB_ERROR_TRANSLATE_UNSUPPORTED && !t &&
              strstr(e.message, "71 storage buffers") && strstr(e.message, "maxPerStageDescriptorStorageBuffers (32)") &&
              strstr(e.message, "69 remain") && strstr(e.message, "sampled (1) and storage (1)"),
          "1 sampled, 1 storage image: %s, '%s'", sb_result_name(res), e.message);
    sb_translation_destroy(t);
    printf("translate: %u checks\n", checks);
}

/* ---- validate ------------------------------------------------------------------------------------ */

static const struct sb_rt_resource *find(const struct sb_rt_inputs *in, uint32_t cls, uint32_t reg)
{
    for (uint32_t i = 0; in && i < in->count; i++)
        if (in->resources[i].resource_class == cls && in->resources[i].space == 0 &&
            in->resources[i].register_index == reg)
            return &in->resources[i];
    return NULL;
}

static uint32_t word(const struct sb_rt_resource *r, uint64_t w)
{
    uint32_t v = 0xdeadbeefu; /* no seeded or computed word here is this */
    if (r && r->data && (w + 1) * 4 <= r->size)
        memcpy(&v, (const uint8_t *)r->data + w * 4, 4);
    return v;
}

/* The known answers on one side's results; `seeded` the inputs before the run. */
static void check_side(const struct sb_rt_inputs *side, const struct sb_rt_inputs *seeded, const char *name)
{
    const struct sb_rt_resource *u32 = find(side, SB_IR_RESOURCE_UAV, 32), *u33 = find(side, SB_IR_RESOURCE_UAV, 33);
    const struct sb_rt_resource *t32 = find(side, SB_IR_RESOURCE_SRV, 32);
    for (uint32_t t = 0; t < 16; t++) {
        uint32_t t0 = word(find(side, SB_IR_RESOURCE_SRV, t & 3u), 0);
        uint32_t got[6], want[6] = { t0, word(t32, 2 * t + 1), 0, BUFFER_BYTES / 8, BUFFER_BYTES, BUFFER_BYTES / 8 };
        for (uint32_t k = 0; k < 6; k++) {
            got[k] = word(u32, 8 * t + k);
            CHECK(got[k] == want[k], "%s: u32 word %u (thread %u, lane %u) = %#x, want %#x", name, 8 * t + k, t, k,
                  got[k], want[k]);
        }
        CHECK(word(u33, 2 * t + 3) == t0, "%s: u33 word %u = %#x, want t%u word 0 = %#x", name, 2 * t + 3,
              word(u33, 2 * t + 3), t & 3u, t0);
    }
    uint32_t seed = word(find(seeded, SB_IR_RESOURCE_UAV, 33), 0);
    CHECK(word(u33, 0) == seed + 120u, "%s: u33 word 0 = %#x, want its seed %#x + 120", name, word(u33, 0), seed);
    for (uint32_t k = 0; k < 4; k++) {
        const struct sb_rt_resource *u = find(side, SB_IR_RESOURCE_UAV, 34 + k);
        const struct sb_rt_resource *before = find(seeded, SB_IR_RESOURCE_UAV, 34 + k);
        uint32_t t0 = word(find(side, SB_IR_RESOURCE_SRV, k), 0);
        CHECK(word(u, 0) == word(before, 0) + 4 * k + 28, "%s: u%u word 0 = %#x, want its seed %#x + %u", name,
              34 + k, word(u, 0), word(before, 0), 4 * k + 28);
        /* Thread t writes word 1 + t of u(34 + (t & 3)); the other words keep their seed. */
        for (uint32_t w = 1; w <= 16; w++) {
            uint32_t want = ((w - 1) & 3u) == k ? t0 : word(before, w);
            CHECK(word(u, w) == want, "%s: u%u word %u = %#x, want %#x", name, 34 + k, w, word(u, w), want);
        }
    }
    CHECK(u32 && u32->size == BUFFER_BYTES, "%s: u32 has %zu bytes", name, u32 ? u32->size : 0);
}

/* The translation the device runs: lavapipe's limits give the second profile's types. */
static void check_device_translation(struct sb_rt_context *context, const struct blob *b)
{
    struct sb_translate_options o = { .target_env = SB_TARGET_VULKAN_1_1, .flags = SB_TRANSLATE_VALIDATE,
                                      .unbounded_descriptor_count = SB_RT_UNBOUNDED_DESCRIPTORS };
    sb_rt_context_device_profile(context, &o.device);
    struct sb_translation *t = NULL;
    struct sb_error e = { 0 };
    enum sb_result res = sb_translate(b->bytes, b->size, &o, &t, &e);
    CHECK(res == SB_SUCCESS, "device translation: %s", e.message);
    if (o.device.max_per_stage_storage_buffers == 32 && o.device.max_per_stage_sampled_images >= 33 &&
        o.device.max_per_stage_storage_images >= 6)
        check_types("device", t, (const uint32_t[6]){ UNIFORM_TEXEL_BUFFER, UNIFORM_TEXEL_BUFFER, STORAGE_BUFFER,
                                                      STORAGE_TEXEL_BUFFER, STORAGE_TEXEL_BUFFER,
                                                      STORAGE_TEXEL_BUFFER });
    else
        printf("validate: the device's limits (%u storage buffers) are not lavapipe's: types not checked\n",
               o.device.max_per_stage_storage_buffers);
    sb_translation_destroy(t);
}

static void case_validate(void)
{
    struct sb_rt_context *context = NULL;
    struct sb_error e = { 0 };
    struct sb_rt_context_options options = { .validation = true, .allow_cpu_only = true };
    if (sb_rt_context_create(&options, &context, &e) != SB_SUCCESS) {
        CHECK(false, "no context: %s", e.message);
        return;
    }
    /* Keep lavapipe loaded after the context goes (LeakSanitizer; tests/CMakeLists.txt). */
    (void)dlopen("libvulkan_lvp.so", RTLD_NOW | RTLD_NOLOAD);
    bool gpu = sb_rt_context_has_device(context);
    static struct blob b;
    build(&b);
    if (gpu)
        check_device_translation(context, &b);
    struct sb_rt_program *program = NULL;
    struct sb_rt_inputs *seeded = NULL;
    struct sb_validate_report *r = NULL;
    struct sb_validate_options o = { .inputs = { .seed = 1, .buffer_bytes = BUFFER_BYTES },
                                     .sides = gpu ? 0 : SB_VALIDATE_SIDE_CPU };
    enum sb_result res = sb_rt_program_load(b.bytes, b.size, NULL, &program, &e);
    CHECK(res == SB_SUCCESS, "does not load: %s", e.message);
    if (res == SB_SUCCESS && (res = sb_rt_inputs_create(program, &o.inputs, &seeded, &e)) != SB_SUCCESS)
        CHECK(false, "no inputs: %s", e.message);
    if (res == SB_SUCCESS && (res = sb_validate(context, program, &o, &r, &e)) != SB_SUCCESS)
        CHECK(false, "sb_validate: %s", e.message);
    if (res == SB_SUCCESS) {
        /* Distinct words, or the non-uniform loads could not be told apart. */
        uint32_t w[4];
        for (uint32_t i = 0; i < 4; i++)
            w[i] = word(find(seeded, SB_IR_RESOURCE_SRV, i), 0);
        CHECK(w[0] != w[1] && w[0] != w[2] && w[0] != w[3] && w[1] != w[2] && w[1] != w[3] && w[2] != w[3],
              "seeded t0..t3 word 0 not distinct: %#x %#x %#x %#x", w[0], w[1], w[2], w[3]);
        CHECK(r->input_retries == 0, "%u retries: the seeded inputs must run", r->input_retries);
        check_side(r->cpu, seeded, "interpreter");
        if (gpu) {
            check_side(r->gpu, seeded, "device");
            CHECK(r->verdict == SB_VALIDATE_AGREE && r->mismatch_count == 0, "verdict %s (%s)",
                  sb_validate_verdict_name(r->verdict), r->reason);
        }
        printf("validate on %s: %s\n", sb_rt_context_device_name(context),
               gpu ? sb_validate_verdict_name(r->verdict) : "interpreter only");
    }
    uint32_t layer_errors = sb_rt_context_validation_errors(context);
    CHECK(layer_errors == 0, "%u validation-layer errors; first: %s", layer_errors,
          sb_rt_context_first_validation_error(context));
    sb_validate_report_destroy(r);
    sb_rt_inputs_destroy(seeded);
    sb_rt_program_destroy(program);
    sb_rt_context_destroy(context);
}

int main(int argc, char **argv)
{
    if (argc != 2 || (strcmp(argv[1], "translate") && strcmp(argv[1], "validate"))) {
        fprintf(stderr, "usage: test_validate_texel_memory translate|validate\n");
        return 2;
    }
    if (!strcmp(argv[1], "translate"))
        case_translate();
    else
        case_validate();
    printf("%s: %u failures\n", failures ? "FAIL" : "PASS", failures);
    return failures ? 1 : 0;
}
