/* SPDX-License-Identifier: MIT */
/*
 * Self-test of the Vulkan harness, independent of the translator: SPIR-V
 * compiled from GLSL at build time (glsl/selftest.*) must give a compute
 * pipeline whose dispatch computes known values and a VS/PS graphics
 * pipeline, both with zero validation messages; and the same objects built
 * wrongly on purpose (a uniform buffer where the shader has a storage
 * buffer; a SINT vertex attribute feeding a float input; a partner stage
 * that does not match) must make the validation layer report errors. The
 * last part proves that a zero count elsewhere means something.
 *
 * It also checks the generated partner stages (vk_partner.h) the corpus
 * test relies on: a partner VS built for the self-test PS, and a partner PS
 * built for the self-test VS, each joined with the GLSL stage, give
 * message-free pipelines; a partner with a deliberately wrong type does not.
 *
 * Finally vk_pipeline_build.c, which the corpus test uses for translated
 * shaders, runs on GLSL-built modules described by hand-written
 * `struct sb_translation` interface reports, one per stage (VS, PS, GS,
 * HS-like TCS, DS-like TES, CS): every pipeline must come out clean, and a
 * report that lies about a type must not; the report reader
 * (vk_spirv_reflect.c) must read each module back as its hand-written report.
 *
 * Usage: test_vk_harness_selftest COMP VERT FRAG GEOM TESC TESE (.spv files)
 * Exit: 0 pass, 1 fail, 77 no Vulkan device.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vk_harness.h"
#include "vk_partner.h"
#include "vk_pipeline_build.h"
#include "vk_spirv_reflect.h"

static int failures;

#define CHECK(cond, ...)                                                                   \
    do {                                                                                   \
        if (!(cond)) {                                                                     \
            fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__);                           \
            fprintf(stderr, __VA_ARGS__);                                                  \
            fputc('\n', stderr);                                                           \
            failures++;                                                                    \
        }                                                                                  \
    } while (0)

static uint32_t *load_words(const char *path, size_t *count)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint32_t *words = size > 0 ? malloc((size_t)size) : NULL;
    if (words && fread(words, 1, (size_t)size, f) != (size_t)size) {
        free(words);
        words = NULL;
    }
    fclose(f);
    *count = (size_t)size / 4;
    return words;
}

/* Dispatch of out[i] = in[i] * 3 + 1; `wrong_type` builds the layout with a UBO at binding 0. */
static void compute_case(struct vkh *h, const uint32_t *words, size_t count, bool wrong_type)
{
    vkh_reset_messages(h);
    h->messages.quiet = wrong_type;
    struct vkh_binding bindings[2] = {
        { 0, 0, wrong_type ? VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER : VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1 },
        { 0, 1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1 },
    };
    struct vkh_layout layout;
    VkShaderModule module = VK_NULL_HANDLE;
    VkPipeline pipeline = VK_NULL_HANDLE;
    CHECK(vkh_layout_create(h, bindings, 2, VK_SHADER_STAGE_COMPUTE_BIT, &layout) == VK_SUCCESS,
          "layout");
    CHECK(vkh_shader_module(h, words, count, &module) == VK_SUCCESS, "module");
    VkResult r = vkh_compute_pipeline(h, module, "main", layout.pipeline, &pipeline);
    if (wrong_type) {
        CHECK(h->messages.errors > 0, "a UBO for a storage buffer gave no validation error");
        printf("injected descriptor-type error: %u validation errors, first: %.160s\n",
               h->messages.errors, h->messages.first_error);
    } else {
        CHECK(r == VK_SUCCESS, "compute pipeline: %s", vkh_result_name(r));
        uint32_t in[16], expect[16];
        for (uint32_t i = 0; i < 16; i++) {
            in[i] = i * 1000u + 7u;
            expect[i] = in[i] * 3u + 1u;
        }
        struct vkh_buffer src, dst;
        CHECK(vkh_buffer_create(h, sizeof(in), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, in, &src) ==
                  VK_SUCCESS, "buffer");
        CHECK(vkh_buffer_create(h, sizeof(in), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, NULL, &dst) ==
                  VK_SUCCESS, "buffer");
        struct vkh_resource res[2] = {
            { 0, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, &src, NULL },
            { 0, 1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, &dst, NULL },
        };
        r = vkh_dispatch(h, pipeline, &layout, res, 2, 4, 1, 1);
        CHECK(r == VK_SUCCESS, "dispatch: %s", vkh_result_name(r));
        CHECK(memcmp(dst.mapped, expect, sizeof(expect)) == 0,
              "dispatch results differ: [5] = %u, want %u", ((uint32_t *)dst.mapped)[5], expect[5]);
        vkh_buffer_destroy(h, &src);
        vkh_buffer_destroy(h, &dst);
        CHECK(h->messages.errors == 0 && h->messages.warnings == 0,
              "compute: %u errors, %u warnings", h->messages.errors, h->messages.warnings);
    }
    if (pipeline)
        vkDestroyPipeline(h->device, pipeline, NULL);
    vkDestroyShaderModule(h->device, module, NULL);
    vkh_layout_destroy(h, &layout);
    h->messages.quiet = false;
}

/* VS + PS with vertex inputs vec4 / uvec2 and targets RGBA32F / RGBA32UI. */
static void graphics_case(struct vkh *h, VkShaderModule vs, VkShaderModule fs, VkFormat attr1,
                          uint32_t colors, bool expect_error, const char *what)
{
    vkh_reset_messages(h);
    h->messages.quiet = expect_error;
    struct vkh_layout layout;
    CHECK(vkh_layout_create(h, NULL, 0, 0, &layout) == VK_SUCCESS, "empty layout");
    struct vkh_vertex_attribute attrs[2] = {
        { 0, VK_FORMAT_R32G32B32A32_SFLOAT },
        { 1, attr1 },
    };
    struct vkh_graphics_desc d = {
        .vs = vs, .fs = fs,
        .topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST,
        .attribute_count = 2, .attributes = attrs,
        .color_count = colors,
        .color_formats = { VK_FORMAT_R32G32B32A32_SFLOAT, VK_FORMAT_R32G32B32A32_UINT },
        .layout = layout.pipeline,
    };
    VkPipeline pipeline;
    VkRenderPass pass;
    VkResult r = vkh_graphics_pipeline(h, &d, &pipeline, &pass);
    if (expect_error) {
        CHECK(h->messages.errors > 0, "%s gave no validation error", what);
        printf("injected %s: %u validation errors, first: %.160s\n", what, h->messages.errors,
               h->messages.first_error);
    } else {
        CHECK(r == VK_SUCCESS, "%s: %s", what, vkh_result_name(r));
        CHECK(h->messages.errors == 0 && h->messages.warnings == 0, "%s: %u errors, %u warnings",
              what, h->messages.errors, h->messages.warnings);
        printf("%s: pipeline created, 0 validation messages\n", what);
    }
    if (r == VK_SUCCESS) {
        vkDestroyPipeline(h->device, pipeline, NULL);
        vkDestroyRenderPass(h->device, pass, NULL);
    }
    vkh_layout_destroy(h, &layout);
    h->messages.quiet = false;
}

/* The self-test shaders' interfaces, as a translation would report them. */
static const struct vkp_var vs_outputs[2] = {
    { .location = 0, .count = 4, .type = VKP_FLOAT },
    { .location = 1, .count = 1, .type = VKP_UINT },
};

static VkShaderModule partner_module(struct vkh *h, const struct vkp_stage_desc *desc)
{
    struct vkp_module m;
    VkShaderModule module = VK_NULL_HANDLE;
    CHECK(vkp_build(desc, &m), "partner build: %s", m.error);
    CHECK(vkh_shader_module(h, m.words, m.word_count, &module) == VK_SUCCESS, "partner module");
    vkp_free(&m);
    return module;
}

static void partner_cases(struct vkh *h, VkShaderModule vs, VkShaderModule fs)
{
    /* A generated VS that feeds the GLSL fragment shader. */
    struct vkp_stage_desc vs_desc = { .stage = VKP_VERTEX, .output_count = 2, .outputs = vs_outputs };
    VkShaderModule gen_vs = partner_module(h, &vs_desc);
    graphics_case(h, gen_vs, fs, VK_FORMAT_R32G32B32A32_SFLOAT, 2, false,
                  "generated VS + GLSL PS");
    vkDestroyShaderModule(h->device, gen_vs, NULL);

    /* A generated PS that consumes the GLSL vertex shader's outputs. */
    struct vkp_stage_desc fs_desc = { .stage = VKP_FRAGMENT, .input_count = 2, .inputs = vs_outputs };
    VkShaderModule gen_fs = partner_module(h, &fs_desc);
    graphics_case(h, vs, gen_fs, VK_FORMAT_R32G32_UINT, 0, false, "GLSL VS + generated PS");
    vkDestroyShaderModule(h->device, gen_fs, NULL);

    /* A partner whose location 1 is a float where the GLSL stage has a uint. */
    struct vkp_var wrong[2] = { vs_outputs[0], vs_outputs[1] };
    wrong[1].type = VKP_FLOAT;
    wrong[1].count = 4;
    struct vkp_stage_desc bad_desc = { .stage = VKP_VERTEX, .output_count = 2, .outputs = wrong };
    VkShaderModule bad_vs = partner_module(h, &bad_desc);
    graphics_case(h, bad_vs, fs, VK_FORMAT_R32G32B32A32_SFLOAT, 2, true,
                  "interface type mismatch (float vs uint at location 1)");
    vkDestroyShaderModule(h->device, bad_vs, NULL);
}

/* The GLSL stages' interfaces as a translation would report them. */
static const struct sb_translated_interface vert_in[2] = {
    { .location = 0, .component_count = 4, .component_type = SB_IR_TYPE_FLOAT },
    { .location = 1, .component_count = 2, .component_type = SB_IR_TYPE_UINT },
};
static const struct sb_translated_interface vert_out[2] = {
    { .location = 0, .component_count = 4, .component_type = SB_IR_TYPE_FLOAT },
    { .location = 1, .component_count = 1, .component_type = SB_IR_TYPE_UINT },
};
static const struct sb_translated_interface frag_out[2] = {
    { .location = 0, .component_count = 4, .component_type = SB_IR_TYPE_FLOAT },
    { .location = 1, .component_count = 4, .component_type = SB_IR_TYPE_UINT },
};
static const struct sb_translated_interface geom_in[2] = {
    { .location = 0, .component_count = 4, .component_type = SB_IR_TYPE_FLOAT, .array_size = 3 },
    { .location = 1, .component_count = 1, .component_type = SB_IR_TYPE_UINT, .array_size = 3 },
};
static const struct sb_translated_interface geom_out[2] = {
    { .location = 0, .component_count = 4, .component_type = SB_IR_TYPE_FLOAT },
    { .location = 2, .component = 1, .component_count = 1, .component_type = SB_IR_TYPE_FLOAT },
};
/* glslang sizes unsized per-vertex arrays of tessellation stages as 32. */
static const struct sb_translated_interface tesc_in[2] = {
    { .location = 0, .component_count = 4, .component_type = SB_IR_TYPE_FLOAT, .array_size = 32 },
    { .location = 3, .component_count = 2, .component_type = SB_IR_TYPE_INT, .array_size = 32 },
};
static const struct sb_translated_interface tese_in[2] = {
    { .location = 0, .component_count = 4, .component_type = SB_IR_TYPE_FLOAT, .array_size = 32 },
    { .location = 1, .component_count = 4, .component_type = SB_IR_TYPE_FLOAT, .patch = true },
};
static const struct sb_translated_interface tesc_out[2] = {
    { .location = 0, .component_count = 4, .component_type = SB_IR_TYPE_FLOAT, .array_size = 4 },
    { .location = 1, .component_count = 4, .component_type = SB_IR_TYPE_FLOAT, .patch = true },
};
static const struct sb_translated_interface tese_out[1] = {
    { .location = 0, .component_count = 4, .component_type = SB_IR_TYPE_FLOAT },
};

struct stage_case {
    const char *name;
    uint32_t stage;
    int file;                 /* argv index of the module */
    uint32_t in_count, out_count;
    const struct sb_translated_interface *in, *out;
    uint32_t control_points, domain;
    uint32_t builtin_in_count, builtin_out_count;
    uint32_t builtin_in[4], builtin_out[4]; /* SpvBuiltIn values glslang declares */
};

static void translation_case(struct vkh *h, const struct stage_case *c, const uint32_t *words,
                             size_t count, bool lie)
{
    struct sb_translated_interface lied[2] = { { 0 } };
    struct sb_translation t = {
        .stage = c->stage, .words = words, .word_count = count, .entry_point = "main",
        .input_count = c->in_count, .inputs = c->in,
        .output_count = c->out_count, .outputs = c->out,
        .patch_control_points = c->control_points, .tess_domain = c->domain,
        .builtin_input_count = c->builtin_in_count, .builtin_inputs = c->builtin_in,
        .builtin_output_count = c->builtin_out_count, .builtin_outputs = c->builtin_out,
    };
    struct sb_translated_binding storage[2] = {
        { .count = 1, .set = 0, .binding = 0, .descriptor_type = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER },
        { .count = 1, .set = 0, .binding = 1, .descriptor_type = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER },
    };
    if (c->stage == SB_IR_STAGE_COMPUTE) {
        t.binding_count = 2;
        t.bindings = storage;
    }
    if (lie) {
        /* The first reported variable flips float <-> uint (or loses its binding type). */
        const struct sb_translated_interface *src = c->in_count ? c->in : c->out;
        if (src)
            memcpy(lied, src, sizeof(lied[0]) * (c->in_count ? c->in_count : c->out_count));
        lied[0].component_type = lied[0].component_type == SB_IR_TYPE_FLOAT ? SB_IR_TYPE_UINT
                                                                            : SB_IR_TYPE_FLOAT;
        if (c->in_count)
            t.inputs = lied;
        else
            t.outputs = lied;
        storage[0].descriptor_type = VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER;
    }
    vkh_reset_messages(h);
    h->messages.quiet = lie;
    struct vkpb_outcome outcome;
    bool ok = vkpb_build(h, &t, &outcome);
    if (lie) {
        CHECK(h->messages.errors > 0, "%s with a wrong report gave no validation error", c->name);
        printf("%s, wrong interface report: %u errors, first: %.140s\n", c->name,
               h->messages.errors, h->messages.first_error);
    } else {
        CHECK(ok, "%s: %s", c->name, outcome.failure);
        CHECK(h->messages.errors == 0 && h->messages.warnings == 0,
              "%s: %u validation errors, %u warnings", c->name, h->messages.errors,
              h->messages.warnings);
        printf("%s via vk_pipeline_build: %s, %u errors, %u warnings, %u perf warnings\n",
               c->name, ok ? "pipeline created" : outcome.failure, h->messages.errors,
               h->messages.warnings, h->messages.performance);
        /* The report reader (vk_spirv_reflect.c) must agree with the hand-written report. */
        char why[300];
        CHECK(vkr_check_report(&t, why, sizeof(why)), "%s: %s", c->name, why);
    }
    h->messages.quiet = false;
}

static void translation_cases(struct vkh *h, uint32_t *const *words, const size_t *counts)
{
    static const struct stage_case cases[] = {
        /* gl_PerVertex members: Position 0, PointSize 1, ClipDistance 3, CullDistance 4 */
        { "VS", SB_IR_STAGE_VERTEX, 2, 2, 2, vert_in, vert_out, 0, 0, 0, 4, { 0 }, { 0, 1, 3, 4 } },
        { "PS", SB_IR_STAGE_PIXEL, 3, 2, 2, vert_out, frag_out, 0, 0, 0, 0, { 0 }, { 0 } },
        { "GS", SB_IR_STAGE_GEOMETRY, 4, 2, 2, geom_in, geom_out, 0, 0, 4, 4, { 0, 1, 3, 4 },
          { 0, 1, 3, 4 } },
        /* InvocationId 8; TessLevelOuter 11, TessLevelInner 12 */
        { "HS (tesc)", SB_IR_STAGE_HULL, 5, 2, 2, tesc_in, tesc_out, 3, 3, 1, 2, { 8 }, { 11, 12 } },
        /* TessCoord 13 */
        { "DS (tese)", SB_IR_STAGE_DOMAIN, 6, 2, 1, tese_in, tese_out, 4, 3, 1, 4, { 13 },
          { 0, 1, 3, 4 } },
        /* GlobalInvocationId 28 */
        { "CS", SB_IR_STAGE_COMPUTE, 1, 0, 0, NULL, NULL, 0, 0, 1, 0, { 28 }, { 0 } },
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        translation_case(h, &cases[i], words[cases[i].file], counts[cases[i].file], false);
        translation_case(h, &cases[i], words[cases[i].file], counts[cases[i].file], true);
    }
}

int main(int argc, char **argv)
{
    if (argc != 7) {
        fprintf(stderr, "usage: %s COMP VERT FRAG GEOM TESC TESE (.spv)\n", argv[0]);
        return 2;
    }
    setvbuf(stdout, NULL, _IOLBF, 0);
    struct vkh h;
    int status = vkh_init(&h);
    if (status != 0)
        return status;
    uint32_t *words[7] = { NULL };
    size_t counts[7] = { 0 };
    for (int i = 1; i < 7; i++) {
        words[i] = load_words(argv[i], &counts[i]);
        if (!words[i]) {
            fprintf(stderr, "cannot read %s\n", argv[i]);
            return 1;
        }
    }
    uint32_t *comp = words[1], *vert = words[2], *frag = words[3];
    size_t comp_n = counts[1], vert_n = counts[2], frag_n = counts[3];
    compute_case(&h, comp, comp_n, false);
    compute_case(&h, comp, comp_n, true);

    VkShaderModule vs, fs;
    CHECK(vkh_shader_module(&h, vert, vert_n, &vs) == VK_SUCCESS, "vs module");
    CHECK(vkh_shader_module(&h, frag, frag_n, &fs) == VK_SUCCESS, "fs module");
    graphics_case(&h, vs, fs, VK_FORMAT_R32G32_UINT, 2, false, "GLSL VS + PS");
    graphics_case(&h, vs, fs, VK_FORMAT_R32G32_SINT, 2, true,
                  "vertex attribute SINT for a uvec2 input");
    partner_cases(&h, vs, fs);
    vkDestroyShaderModule(h.device, vs, NULL);
    vkDestroyShaderModule(h.device, fs, NULL);
    translation_cases(&h, words, counts);
    for (int i = 1; i < 7; i++)
        free(words[i]);
    vkh_destroy(&h);
    printf("%s: %d failures\n", failures ? "FAIL" : "PASS", failures);
    return failures ? 1 : 0;
}
