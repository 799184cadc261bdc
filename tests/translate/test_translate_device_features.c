/* SPDX-License-Identifier: MIT */
/*
 * translate_device_features: the device-profile features the translator has no fallback
 * for (translate.h, sb_device_profile::fragment_shader_pixel_interlock and
 * ::fragment_fully_covered), on the hand-assembled shaders of ../common/feature_shaders.h:
 *
 *   rov: a described profile without fragmentShaderPixelInterlock refuses the pixel shader
 *   with SB_ERROR_TRANSLATE_UNSUPPORTED at the byte offset of its dcl_uav_raw_rov and the
 *   message naming the feature; SB_TRANSLATE_NO_FRAGMENT_SHADER_INTERLOCK alone gives the
 *   same error (the two are equivalent); with the feature the module passes spirv-val,
 *   declares FragmentShaderPixelInterlockEXT and reports that capability's origin at the
 *   declaration (sb_translation::capability_origins).
 *
 *   inner_coverage: likewise for dcl_input vInnerCoverage and FragmentFullyCoveredEXT
 *   (VK_EXT_conservative_rasterization); the origin is the dcl_input's offset.
 *
 * One ctest per case (argv[1]). Exit 0 pass, 1 fail, 2 usage.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include <spirv/unified1/spirv.h>

#include "shaderbridge/translate.h"
#include "feature_shaders.h"
#include "check.h"

static struct blob shader;

/* A described device with every feature the profile names: only `drop` is then cleared. */
static struct sb_translate_options capable(void)
{
    struct sb_translate_options o = { .target_env = SB_TARGET_VULKAN_1_1, .flags = SB_TRANSLATE_VALIDATE };
    o.device = (struct sb_device_profile){
        .described = true,
        .storage_image_read_without_format = true,
        .sampled_image_array_non_uniform_indexing = true,
        .storage_image_array_non_uniform_indexing = true,
        .uniform_texel_buffer_array_non_uniform_indexing = true,
        .storage_texel_buffer_array_non_uniform_indexing = true,
        .storage_buffer_array_non_uniform_indexing = true,
        .max_bound_descriptor_sets = 8,
        .fragment_shader_pixel_interlock = true,
        .fragment_fully_covered = true,
    };
    return o;
}

static bool declares(const struct sb_translation *t, uint32_t capability)
{
    for (size_t i = 5; t && i < t->word_count;) {
        uint32_t length = t->words[i] >> 16;
        if (!length || i + length > t->word_count || (t->words[i] & 0xffffu) != SpvOpCapability)
            break;
        if (length >= 2 && t->words[i + 1] == capability)
            return true;
        i += length;
    }
    return false;
}

/* The offset the translation reports for `capability`, UINT64_MAX when it reports none. */
static uint64_t origin(const struct sb_translation *t, uint32_t capability)
{
    for (uint32_t i = 0; t && i < t->capability_origin_count; i++)
        if (t->capability_origins[i].capability == capability)
            return t->capability_origins[i].offset;
    return UINT64_MAX;
}

static void expect_refusal(const char *what, const struct sb_translate_options *o, uint64_t offset,
                           const char *message)
{
    struct sb_translation *t = NULL;
    struct sb_error e = { 0 };
    enum sb_result r = sb_translate(shader.bytes, shader.size, o, &t, &e);
    CHECK(r == SB_ERROR_TRANSLATE_UNSUPPORTED && e.code == r, "%s: %s (%s)", what, sb_result_name(r), e.message);
    CHECK(e.offset == offset, "%s: offset %llu, want %llu", what, (unsigned long long)e.offset,
          (unsigned long long)offset);
    CHECK(!strcmp(e.message, message), "%s: message \"%s\"", what, e.message);
    CHECK(!t, "%s: a translation beside the error", what);
    sb_translation_destroy(t);
}

static void expect_module(const char *what, const struct sb_translate_options *o, uint32_t capability,
                          uint64_t offset)
{
    struct sb_translation *t = NULL;
    struct sb_error e = { 0 };
    enum sb_result r = sb_translate(shader.bytes, shader.size, o, &t, &e);
    CHECK(r == SB_SUCCESS, "%s: %s at %llu: %s", what, sb_result_name(r), (unsigned long long)e.offset, e.message);
    CHECK(declares(t, capability), "%s: capability %u not declared", what, capability);
    CHECK(origin(t, capability) == offset, "%s: origin %llu, want %llu", what,
          (unsigned long long)origin(t, capability), (unsigned long long)offset);
    sb_translation_destroy(t);
}

static void case_rov(void)
{
    uint64_t decl = fs_rov(&shader);
    /* ps_5_0 container: ISGN, OSGN, SHEX; the code's tokens 0-1 version and length, 2-3
     * dcl_temps 1, 4-6 dcl_output o0.xyzw, then the declaration at token 7. */
    CHECK(decl == fs_token_offset(&shader, 7) && decl > 0, "declaration at %llu", (unsigned long long)decl);
    static const char message[] = "u1 is a rasterizer-ordered view; ordering it needs fragment shader interlock "
                                  "(VK_EXT_fragment_shader_interlock fragmentShaderPixelInterlock), which the "
                                  "target lacks";
    struct sb_translate_options lacking = capable();
    lacking.device.fragment_shader_pixel_interlock = false;
    expect_refusal("profile without interlock", &lacking, decl, message);
    struct sb_translate_options flag = { .target_env = SB_TARGET_VULKAN_1_1,
                                         .flags = SB_TRANSLATE_NO_FRAGMENT_SHADER_INTERLOCK };
    expect_refusal("flag, zeroed profile", &flag, decl, message);
    struct sb_translate_options both = capable();
    both.flags |= SB_TRANSLATE_NO_FRAGMENT_SHADER_INTERLOCK;
    expect_refusal("flag beside a profile with interlock", &both, decl, message);
    struct sb_translate_options with = capable();
    expect_module("profile with interlock", &with, SpvCapabilityFragmentShaderPixelInterlockEXT, decl);
    struct sb_translate_options zero = { .target_env = SB_TARGET_VULKAN_1_1, .flags = SB_TRANSLATE_VALIDATE };
    expect_module("zeroed profile", &zero, SpvCapabilityFragmentShaderPixelInterlockEXT, decl);
}

static void case_inner_coverage(void)
{
    uint64_t decl = fs_inner_coverage_ps(&shader);
    /* Tokens 0-1 version and length, 2-3 dcl_temps 1, then dcl_input vInnerCoverage at 4. */
    CHECK(decl == fs_token_offset(&shader, 4) && decl > 0, "declaration at %llu", (unsigned long long)decl);
    struct sb_translate_options lacking = capable();
    lacking.device.fragment_fully_covered = false;
    expect_refusal("profile without FullyCoveredEXT", &lacking, decl,
                   "vInnerCoverage (SV_InnerCoverage) needs FullyCoveredEXT (VK_EXT_conservative_rasterization "
                   "fullyCoveredFragmentShaderInputVariable), which the device lacks");
    struct sb_translate_options with = capable();
    expect_module("profile with FullyCoveredEXT", &with, SpvCapabilityFragmentFullyCoveredEXT, decl);
    /* The interlock flag is about ordered views only. */
    with.flags |= SB_TRANSLATE_NO_FRAGMENT_SHADER_INTERLOCK;
    expect_module("interlock flag", &with, SpvCapabilityFragmentFullyCoveredEXT, decl);
}

int main(int argc, char **argv)
{
    static const struct { const char *name; void (*run)(void); } cases[] = {
        { "rov", case_rov },
        { "inner_coverage", case_inner_coverage },
    };
    for (size_t i = 0; argc == 2 && i < sizeof(cases) / sizeof(cases[0]); i++)
        if (!strcmp(argv[1], cases[i].name)) {
            cases[i].run();
            printf("%s: %u checks, %u failed\n", argv[1], checks, failures);
            return failures ? 1 : 0;
        }
    fprintf(stderr, "usage: %s rov|inner_coverage\n", argv[0]);
    return 2;
}
