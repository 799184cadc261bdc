/* SPDX-License-Identifier: MIT */
/*
 * validate_device_refusals: a program that needs a device feature the validating device
 * lacks, and that no translator fallback replaces, is refused naming the feature *and* the
 * byte offset of the declaration that needs it, on both ways into the device (the
 * hand-assembled pixel shaders of ../common/feature_shaders.h):
 *
 *   - sb_validate, what `shaderbridge run` and `validate` call: the program is translated
 *     again for the device's profile (runtime/src/validate/validate_device.c) and the
 *     translator's refusal comes back as SB_ERROR_RUN_UNSUPPORTED (not-run) at the offset;
 *   - sb_rt_draw_points with the translation made for every feature: the device's
 *     capability check (runtime/src/vulkan/vk_capability.c) refuses the module at the
 *     offset the translation reports as the capability's origin, no longer at byte 0.
 *
 * inner_coverage: dcl_input vInnerCoverage, FullyCoveredEXT (VK_EXT_conservative_rasterization);
 * rov: dcl_uav_raw_rov, fragment shader interlock (VK_EXT_fragment_shader_interlock).
 * Lavapipe 22.3 has neither extension. On a device that has one, its case checks that nothing
 * is refused instead. Without a device: skipped (77). One ctest per case (argv[1]).
 */
#define _POSIX_C_SOURCE 200809L

#include <dlfcn.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "shaderbridge/validate.h"
#include "feature_shaders.h"
#include "check.h"

static struct blob pixel, vertex;

struct feature_case {
    const char *name;
    uint64_t (*build)(struct blob *out);
    /* does the device (its translator profile) have the feature? */
    bool (*present)(const struct sb_device_profile *d);
    const char *validate_words[2];   /* what sb_validate's message must name */
    const char *draw_words[2];       /* what the capability check's message must name */
};

static bool has_fully_covered(const struct sb_device_profile *d) { return d->fragment_fully_covered; }
static bool has_interlock(const struct sb_device_profile *d) { return d->fragment_shader_pixel_interlock; }

static const struct feature_case cases[] = {
    { "inner_coverage", fs_inner_coverage_ps, has_fully_covered,
      { "vInnerCoverage", "VK_EXT_conservative_rasterization" },
      { "FragmentFullyCoveredEXT", "VK_EXT_conservative_rasterization" } },
    { "rov", fs_rov, has_interlock,
      { "rasterizer-ordered", "VK_EXT_fragment_shader_interlock fragmentShaderPixelInterlock" },
      { "FragmentShaderPixelInterlockEXT", "VK_EXT_fragment_shader_interlock" } },
};

static void expect_refused(const char *way, enum sb_result r, const struct sb_error *e, uint64_t decl,
                           const char *const words[2])
{
    CHECK(r == SB_ERROR_RUN_UNSUPPORTED, "%s: %s (%s)", way, sb_result_name(r), e->message);
    CHECK(e->offset == decl, "%s: offset %llu, want the declaration's %llu", way, (unsigned long long)e->offset,
          (unsigned long long)decl);
    for (int i = 0; i < 2; i++)
        CHECK(strstr(e->message, words[i]) != NULL, "%s: \"%s\" does not name %s", way, e->message, words[i]);
    printf("%s: %s at byte %llu: %s\n", way, sb_result_name(r), (unsigned long long)e->offset, e->message);
}

/* One 1x1 point through the position VS and the case's pixel translation. */
static enum sb_result draw(struct sb_rt_context *context, const struct sb_translation *ps, struct sb_error *e)
{
    struct sb_translation *vs = NULL;
    fs_position_vs(&vertex);
    enum sb_result r = sb_translate(vertex.bytes, vertex.size, NULL, &vs, e);
    CHECK(r == SB_SUCCESS, "the vertex shader does not translate: %s", e->message);
    if (r != SB_SUCCESS)
        return r;
    float texel[4] = { 0 };
    struct sb_rt_color_target target = { .location = 0, .format = SB_RT_FORMAT_R32G32B32A32_FLOAT, .data = texel };
    uint32_t word = 0;
    struct sb_rt_resource u1 = { .resource_class = SB_IR_RESOURCE_UAV, .register_index = 1, .data = &word,
                                 .size = sizeof(word), .layers = 1, .mip_levels = 1, .sample_count = 1 };
    struct sb_rt_draw d = { .vertex = vs, .pixel = ps, .vertex_count = 1, .width = 1, .height = 1,
                            .target_count = 1, .targets = &target };
    bool uses_u1 = ps->binding_count > 0;
    r = sb_rt_draw_points(context, &d, uses_u1 ? &u1 : NULL, uses_u1 ? 1 : 0, NULL, e);
    sb_translation_destroy(vs);
    return r;
}

static void run_case(struct sb_rt_context *context, const struct feature_case *c)
{
    uint64_t decl = c->build(&pixel);
    struct sb_device_profile profile;
    sb_rt_context_device_profile(context, &profile);
    bool present = c->present(&profile);
    printf("%s on %s: the device %s the feature; declaration at byte %llu\n", c->name,
           sb_rt_context_device_name(context), present ? "has" : "lacks", (unsigned long long)decl);
    struct sb_rt_program *program = NULL;
    struct sb_error e = { 0 };
    if (sb_rt_program_load(pixel.bytes, pixel.size, NULL, &program, &e) != SB_SUCCESS) {
        CHECK(false, "%s: does not load: %s", c->name, e.message);
        return;
    }
    struct sb_validate_options o = { .inputs = { .seed = 1 } };
    struct sb_validate_report *report = NULL;
    enum sb_result r = sb_validate(context, program, &o, &report, &e);
    if (present)
        CHECK(r == SB_SUCCESS, "sb_validate refused a program the device can run: %s", e.message);
    else
        expect_refused("sb_validate", r, &e, decl, c->validate_words);
    sb_validate_report_destroy(report);
    e = (struct sb_error){ 0 };
    r = draw(context, program->translation, &e);
    if (present)
        CHECK(r == SB_SUCCESS, "sb_rt_draw_points refused a module the device can run: %s", e.message);
    else
        expect_refused("sb_rt_draw_points", r, &e, decl, c->draw_words);
    sb_rt_program_destroy(program);
}

int main(int argc, char **argv)
{
    const struct feature_case *c = NULL;
    for (size_t i = 0; argc == 2 && i < sizeof(cases) / sizeof(cases[0]); i++)
        if (!strcmp(argv[1], cases[i].name))
            c = &cases[i];
    if (!c) {
        fprintf(stderr, "usage: %s inner_coverage|rov\n", argv[0]);
        return 2;
    }
    struct sb_rt_context *context = NULL;
    struct sb_error error = { 0 };
    struct sb_rt_context_options options = { .validation = true };
    if (sb_rt_context_create(&options, &context, &error) != SB_SUCCESS) {
        printf("SKIP: no Vulkan device: %s\n", error.message);
        return 77;
    }
    /* Keep lavapipe loaded after the context goes (LeakSanitizer; tests/CMakeLists.txt). */
    (void)dlopen("libvulkan_lvp.so", RTLD_NOW | RTLD_NOLOAD);
    run_case(context, c);
    uint32_t layer_errors = sb_rt_context_validation_errors(context);
    CHECK(layer_errors == 0, "%u validation-layer errors; first: %s", layer_errors,
          sb_rt_context_first_validation_error(context));
    sb_rt_context_destroy(context);
    printf("%s: %u checks, %u failed\n", c->name, checks, failures);
    return failures ? 1 : 0;
}
