/* SPDX-License-Identifier: MIT */
/*
 * Device profiles: typed-UAV formats (translator/src/spirv/spirv_storage_format.c,
 * translate.h sb_device_profile / sb_storage_format): a compute program that stores to and
 * loads from a typed u#, translated
 *   - with a zeroed profile, and with a described profile that has
 *     shaderStorageImageReadWithoutFormat: byte-identical to the translation without
 *     options (the default must not move a word); likewise a pixel program with a
 *     rasterizer-ordered UAV that reads vInnerCoverage, zeroed and described with
 *     fragment_shader_pixel_interlock and fragment_fully_covered;
 *   - for a device without it, once per VkFormat the table knows (VK_FORMAT_* from the
 *     Vulkan headers, the SPIR-V name spelled out here): the image type declares that
 *     format, StorageImageExtendedFormats exactly for the extended ones, and no
 *     ...WithoutFormat capability is left; every module passes spirv-val;
 *   - for such a device without a format for u3, or with a BGRA view (no SPIR-V format):
 *     SB_ERROR_TRANSLATE_UNSUPPORTED at the byte offset of the ld_uav_typed, naming u3;
 *   - for a device without the *ArrayNonUniformIndexing features (translator/src/spirv/
 *     spirv_waterfall.c): NonUniformResourceIndex reads of a raw range and a sample with
 *     non-uniform texture and sampler indices become 3 waterfall loops bounded by the range
 *     size, with no NonUniform decoration or capability left, valid for Vulkan 1.0 and 1.1;
 *     an unbounded range is refused at its instruction until it is given a count;
 *   - maxBoundDescriptorSets below the sets in use: sets moved in order, or all into set 0;
 *   - `_cl` samples (translator/src/spirv/spirv_min_lod.c): unchanged with a zeroed profile
 *     or one with shaderResourceMinLod (MinLod operands and capability); without it no
 *     MinLod is left, each implicit form queries its LOD (OpImageQueryLod), sample_d_cl
 *     measures its gradients against the texture size, each takes one more explicit-LOD
 *     sample and selects per lane; spirv-val passes for Vulkan 1.0 and 1.1; outside pixel
 *     shaders the fixed LOD takes the clamp by FMax; every sampled dimension (cubes' and
 *     cube arrays' gradients carried onto the face) gives a valid module.
 * One ctest per case (argv[1]).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <vulkan/vulkan_core.h>

#include <spirv/unified1/spirv.h>

#include "../spirv/spirv_test_util.h"
#include "translator/sm4.h"

/* Byte offset spirv_test_util gives the instruction emitted k-th (0-based). */
#define OFFSET_OF(k) (0x100u + 4u * (k))

/*
 * u3: a 2D typed UAV of SM4 return type `ret` (3 sint, 4 uint, 5 float);
 * store_uav_typed u3, (1, 2), (1, 2, 3, 4), then ld_uav_typed r0, (1, 2), u3 (instruction 1).
 */
static struct sb_ir_program *uav_program(uint32_t ret)
{
    ir_reset();
    struct sb_ir_resource *r = add_resource(SB_IR_RESOURCE_UAV, 3);
    r->kind = SB_IR_RESOURCE_KIND_TYPED;
    r->dimension = 3;
    for (int i = 0; i < 4; i++)
        r->return_type[i] = ret;
    struct sb_ir_operand coord = imm(1, 2, 0, 0);
    struct sb_ir_operand store_dst = dst_reg(SB_IR_FILE_UAV, 3, 0xF);
    struct sb_ir_operand store_src[2] = { coord, imm(1, 2, 3, 4) };
    emit(SB_IR_OP_STORE_UAV_TYPED, 0, 1, &store_dst, 2, store_src);
    struct sb_ir_operand load_dst = dst_reg(SB_IR_FILE_TEMP, 0, 0xF);
    struct sb_ir_operand load_src[2] = { coord, src_reg(SB_IR_FILE_UAV, 3, "xyzw") };
    emit(SB_IR_OP_LD_UAV_TYPED, 0, 1, &load_dst, 2, load_src);
    struct sb_ir_program *p = ir_program(SB_IR_STAGE_COMPUTE, 1);
    p->thread_group[0] = p->thread_group[1] = p->thread_group[2] = 1;
    return p;
}

/* The options of a device without shaderStorageImageReadWithoutFormat, u3 bound as `format`
 * (no format entry when format_count is 0). */
static struct sb_translate_options lacking(const struct sb_storage_format *format, uint32_t format_count)
{
    struct sb_translate_options o = { .target_env = SB_TARGET_VULKAN_1_1 };
    o.device.described = true;
    o.device.storage_image_read_without_format = false;
    o.storage_format_count = format_count;
    o.storage_formats = format;
    return o;
}

static bool same_words(const struct sb_translation *a, const struct sb_translation *b)
{
    return a && b && a->word_count == b->word_count &&
           !memcmp(a->words, b->words, a->word_count * sizeof(uint32_t));
}

/* A pixel program storing vInnerCoverage to rasterizer-ordered raw u1:
 * store_raw u1.x, 0, vInnerCoverage.x. */
static struct sb_ir_program *ordered_pixel_program(void)
{
    ir_reset();
    struct sb_ir_resource *r = add_resource(SB_IR_RESOURCE_UAV, 1);
    r->kind = SB_IR_RESOURCE_KIND_RAW;
    r->uav_flags = SB_SM4_UAV_RASTERIZER_ORDERED;
    add_signature(SB_IR_SIGNATURE_INPUT, SB_IR_FILE_INNER_COVERAGE, 0, 0x1, "", 0, 0, SB_IR_TYPE_UINT, 0);
    struct sb_ir_operand d = dst_reg(SB_IR_FILE_UAV, 1, 0x1);
    struct sb_ir_operand src[2] = { imm(0, 0, 0, 0), special(SB_IR_FILE_INNER_COVERAGE, 0, "xxxx") };
    emit(SB_IR_OP_STORE_RAW, 0, 1, &d, 2, src);
    return ir_program(SB_IR_STAGE_PIXEL, 0);
}

/* Zeroed, and described with interlock and FullyCoveredEXT: the ordered pixel program's
 * words are those of a translation without options. */
static void case_default_identical_pixel(void)
{
    struct sb_ir_program *p = ordered_pixel_program();
    struct sb_translation *plain = NULL, *zeroed = NULL, *capable = NULL;
    struct sb_error e = { 0 };
    struct sb_translate_options zero = { .target_env = SB_TARGET_VULKAN_1_1 };
    struct sb_translate_options with = zero;
    with.device.described = true;
    with.device.fragment_shader_pixel_interlock = true;
    with.device.fragment_fully_covered = true;
    CHECK(sb_translate_ir(p, NULL, &plain, &e) == SB_SUCCESS);
    CHECK(sb_translate_ir(p, &zero, &zeroed, &e) == SB_SUCCESS);
    CHECK(sb_translate_ir(p, &with, &capable, &e) == SB_SUCCESS);
    CHECK(same_words(plain, zeroed));
    CHECK(same_words(plain, capable));
    char *text = plain ? sb_spirv_disassemble(plain->words, plain->word_count, SB_TARGET_VULKAN_1_1) : NULL;
    CHECK(text && strstr(text, "OpCapability FragmentShaderPixelInterlockEXT"));
    CHECK(text && strstr(text, "OpCapability FragmentFullyCoveredEXT"));
    free(text);
    sb_translation_destroy(plain);
    sb_translation_destroy(zeroed);
    sb_translation_destroy(capable);
}

/* Zeroed profile and a described profile with the feature change nothing. */
static void case_default_identical(void)
{
    struct sb_ir_program *p = uav_program(5);
    struct sb_translation *plain = NULL, *zeroed = NULL, *capable = NULL;
    struct sb_error e = { 0 };
    struct sb_translate_options zero = { .target_env = SB_TARGET_VULKAN_1_1 };
    struct sb_storage_format f = { .space = 0, .register_index = 3, .vk_format = VK_FORMAT_R32G32B32A32_SFLOAT };
    struct sb_translate_options with = zero;
    with.device.described = true;
    with.device.storage_image_read_without_format = true;
    with.storage_format_count = 1; /* formats are only read when the device needs them */
    with.storage_formats = &f;
    CHECK(sb_translate_ir(p, NULL, &plain, &e) == SB_SUCCESS);
    CHECK(sb_translate_ir(p, &zero, &zeroed, &e) == SB_SUCCESS);
    CHECK(sb_translate_ir(p, &with, &capable, &e) == SB_SUCCESS);
    CHECK(same_words(plain, zeroed));
    CHECK(same_words(plain, capable));
    char *text = plain ? sb_spirv_disassemble(plain->words, plain->word_count, SB_TARGET_VULKAN_1_1) : NULL;
    CHECK(text && strstr(text, "OpCapability StorageImageReadWithoutFormat"));
    CHECK(text && strstr(text, "OpTypeImage %float 2D 0 0 0 2 Unknown"));
    free(text);
    sb_translation_destroy(plain);
    sb_translation_destroy(zeroed);
    sb_translation_destroy(capable);
    case_default_identical_pixel();
}

/* Every row of the table: VkFormat, SM4 return type of a matching view, SPIR-V name, extended. */
static const struct {
    uint32_t vk_format;
    uint32_t ret;
    const char *spirv;
    bool extended;
} formats[] = {
    { VK_FORMAT_R8_UNORM, 5, "R8", true },
    { VK_FORMAT_R8_SNORM, 5, "R8Snorm", true },
    { VK_FORMAT_R8_UINT, 4, "R8ui", true },
    { VK_FORMAT_R8_SINT, 3, "R8i", true },
    { VK_FORMAT_R8G8_UNORM, 5, "Rg8", true },
    { VK_FORMAT_R8G8_SNORM, 5, "Rg8Snorm", true },
    { VK_FORMAT_R8G8_UINT, 4, "Rg8ui", true },
    { VK_FORMAT_R8G8_SINT, 3, "Rg8i", true },
    { VK_FORMAT_R8G8B8A8_UNORM, 5, "Rgba8", false },
    { VK_FORMAT_R8G8B8A8_SNORM, 5, "Rgba8Snorm", false },
    { VK_FORMAT_R8G8B8A8_UINT, 4, "Rgba8ui", false },
    { VK_FORMAT_R8G8B8A8_SINT, 3, "Rgba8i", false },
    { VK_FORMAT_A2B10G10R10_UNORM_PACK32, 5, "Rgb10A2", true },
    { VK_FORMAT_A2B10G10R10_UINT_PACK32, 4, "Rgb10a2ui", true },
    { VK_FORMAT_R16_UNORM, 5, "R16", true },
    { VK_FORMAT_R16_SNORM, 5, "R16Snorm", true },
    { VK_FORMAT_R16_UINT, 4, "R16ui", true },
    { VK_FORMAT_R16_SINT, 3, "R16i", true },
    { VK_FORMAT_R16_SFLOAT, 5, "R16f", true },
    { VK_FORMAT_R16G16_UNORM, 5, "Rg16", true },
    { VK_FORMAT_R16G16_SNORM, 5, "Rg16Snorm", true },
    { VK_FORMAT_R16G16_UINT, 4, "Rg16ui", true },
    { VK_FORMAT_R16G16_SINT, 3, "Rg16i", true },
    { VK_FORMAT_R16G16_SFLOAT, 5, "Rg16f", true },
    { VK_FORMAT_R16G16B16A16_UNORM, 5, "Rgba16", true },
    { VK_FORMAT_R16G16B16A16_SNORM, 5, "Rgba16Snorm", true },
    { VK_FORMAT_R16G16B16A16_UINT, 4, "Rgba16ui", false },
    { VK_FORMAT_R16G16B16A16_SINT, 3, "Rgba16i", false },
    { VK_FORMAT_R16G16B16A16_SFLOAT, 5, "Rgba16f", false },
    { VK_FORMAT_R32_UINT, 4, "R32ui", false },
    { VK_FORMAT_R32_SINT, 3, "R32i", false },
    { VK_FORMAT_R32_SFLOAT, 5, "R32f", false },
    { VK_FORMAT_R32G32_UINT, 4, "Rg32ui", true },
    { VK_FORMAT_R32G32_SINT, 3, "Rg32i", true },
    { VK_FORMAT_R32G32_SFLOAT, 5, "Rg32f", true },
    { VK_FORMAT_R32G32B32A32_UINT, 4, "Rgba32ui", false },
    { VK_FORMAT_R32G32B32A32_SINT, 3, "Rgba32i", false },
    { VK_FORMAT_R32G32B32A32_SFLOAT, 5, "Rgba32f", false },
    { VK_FORMAT_B10G11R11_UFLOAT_PACK32, 5, "R11fG11fB10f", true },
};

static void case_formats(void)
{
    static const char *const lane[6] = { "", "", "", "%int", "%uint", "%float" };
    for (size_t i = 0; i < sizeof(formats) / sizeof(formats[0]); i++) {
        struct sb_ir_program *p = uav_program(formats[i].ret);
        struct sb_storage_format f = { .space = 0, .register_index = 3, .vk_format = formats[i].vk_format };
        struct sb_translate_options o = lacking(&f, 1);
        struct sb_translation *t = NULL;
        struct sb_error e = { 0 };
        enum sb_result r = sb_translate_ir(p, &o, &t, &e);
        if (r != SB_SUCCESS) {
            fprintf(stderr, "VkFormat %u: %s\n", formats[i].vk_format, e.message);
            g_failures++;
            continue;
        }
        r = sb_spirv_validate(t->words, t->word_count, SB_TARGET_VULKAN_1_1, &e);
        CHECK(r == SB_SUCCESS);
        char *text = sb_spirv_disassemble(t->words, t->word_count, SB_TARGET_VULKAN_1_1);
        char want[96];
        snprintf(want, sizeof(want), "OpTypeImage %s 2D 0 0 0 2 %s\n", lane[formats[i].ret], formats[i].spirv);
        bool typed = text && strstr(text, want);
        bool extended = text && strstr(text, "OpCapability StorageImageExtendedFormats");
        if (!typed || extended != formats[i].extended) {
            fprintf(stderr, "VkFormat %u: want \"%.*s\"%s\n", formats[i].vk_format, (int)strlen(want) - 1, want,
                    formats[i].extended ? " and StorageImageExtendedFormats" : "");
            g_failures++;
        }
        CHECK(text && !strstr(text, "WithoutFormat"));
        free(text);
        sb_translation_destroy(t);
    }
}

/* A read u# with no format, and one whose view format has no SPIR-V name. */
static void case_errors(void)
{
    struct sb_ir_program *p = uav_program(5);
    struct sb_translation *t = NULL;
    struct sb_error e = { 0 };
    struct sb_translate_options o = lacking(NULL, 0);
    CHECK(sb_translate_ir(p, &o, &t, &e) == SB_ERROR_TRANSLATE_UNSUPPORTED);
    CHECK(!t);
    CHECK(e.offset == OFFSET_OF(1));
    CHECK(strstr(e.message, "u3 (space 0, set 0 binding 163)") != NULL);
    CHECK(strstr(e.message, "shaderStorageImageReadWithoutFormat") != NULL);

    /* A format for another register does not stand in for u3's. */
    struct sb_storage_format other = { .space = 1, .register_index = 3, .vk_format = VK_FORMAT_R32_SFLOAT };
    o = lacking(&other, 1);
    memset(&e, 0, sizeof(e));
    CHECK(sb_translate_ir(p, &o, &t, &e) == SB_ERROR_TRANSLATE_UNSUPPORTED);
    CHECK(e.offset == OFFSET_OF(1));

    struct sb_storage_format bgra = { .space = 0, .register_index = 3, .vk_format = VK_FORMAT_B8G8R8A8_UNORM };
    o = lacking(&bgra, 1);
    memset(&e, 0, sizeof(e));
    CHECK(sb_translate_ir(p, &o, &t, &e) == SB_ERROR_TRANSLATE_UNSUPPORTED);
    CHECK(e.offset == OFFSET_OF(1));
    CHECK(strstr(e.message, "VkFormat 44 has no SPIR-V image format") != NULL);

    /* A count without an array is the caller's mistake. */
    o = lacking(NULL, 1);
    memset(&e, 0, sizeof(e));
    CHECK(sb_translate_ir(p, &o, &t, &e) == SB_ERROR_INVALID_ARGUMENT);
}

/*
 * t0[0:count-1] (raw SRVs) read by ld_raw r1.x, 0, t0[r0.x] with NonUniformResourceIndex,
 * and s0[0:3]/t1[0:3] sampled together with both indices non-uniform (sample_l, two loops).
 */
static struct sb_ir_program *non_uniform_program(uint32_t count)
{
    ir_reset();
    struct sb_ir_resource *raw = add_resource(SB_IR_RESOURCE_SRV, 0);
    raw->kind = SB_IR_RESOURCE_KIND_RAW;
    raw->dimension = 11;
    raw->count = count;
    struct sb_ir_resource *tex = add_resource(SB_IR_RESOURCE_SRV, 1);
    tex->kind = SB_IR_RESOURCE_KIND_TYPED;
    tex->dimension = 3;
    for (int i = 0; i < 4; i++)
        tex->return_type[i] = 5;
    tex->count = 4;
    struct sb_ir_resource *smp = add_resource(SB_IR_RESOURCE_SAMPLER, 0);
    smp->count = 4;
    struct sb_ir_operand index = src_reg(SB_IR_FILE_TEMP, 0, "x");
    struct sb_ir_operand t0 = reg2(SB_IR_FILE_RESOURCE, 0, 0, 0, "xxxx");
    set_relative(&t0, 1, index);
    t0.non_uniform = true;
    struct sb_ir_operand load_dst = dst_reg(SB_IR_FILE_TEMP, 1, 0x1);
    struct sb_ir_operand load_src[2] = { imm(0, 0, 0, 0), t0 };
    emit(SB_IR_OP_LD_RAW, 0, 1, &load_dst, 2, load_src); /* instruction 0 */
    struct sb_ir_operand t1 = reg2(SB_IR_FILE_RESOURCE, 1, 0, 0, "xyzw");
    struct sb_ir_operand s0 = reg2(SB_IR_FILE_SAMPLER, 0, 0, 0, "xxxx");
    set_relative(&t1, 1, index);
    set_relative(&s0, 1, src_reg(SB_IR_FILE_TEMP, 0, "y"));
    t1.non_uniform = s0.non_uniform = true;
    struct sb_ir_operand sample_dst = dst_reg(SB_IR_FILE_TEMP, 2, 0xF);
    struct sb_ir_operand sample_src[4] = { immf(0.5f, 0.5f, 0, 0), t1, s0, immf(0, 0, 0, 0) };
    emit(SB_IR_OP_SAMPLE_L, 0, 1, &sample_dst, 4, sample_src);
    struct sb_ir_program *p = ir_program(SB_IR_STAGE_COMPUTE, 3);
    p->thread_group[0] = p->thread_group[1] = p->thread_group[2] = 1;
    return p;
}

/* A device without the non-uniform indexing features: no NonUniform, three loops. */
static void case_waterfall(void)
{
    struct sb_ir_program *p = non_uniform_program(4);
    struct sb_translation *plain = NULL, *fitted = NULL;
    struct sb_error e = { 0 };
    struct sb_translate_options o = lacking(NULL, 0);
    CHECK(sb_translate_ir(p, NULL, &plain, &e) == SB_SUCCESS);
    CHECK(sb_translate_ir(p, &o, &fitted, &e) == SB_SUCCESS);
    char *before = plain ? sb_spirv_disassemble(plain->words, plain->word_count, SB_TARGET_VULKAN_1_1) : NULL;
    char *after = fitted ? sb_spirv_disassemble(fitted->words, fitted->word_count, SB_TARGET_VULKAN_1_1) : NULL;
    /* Without the profile: the decoration and the features it needs. */
    CHECK(before && strstr(before, "OpCapability StorageBufferArrayNonUniformIndexing"));
    CHECK(before && strstr(before, "OpCapability SampledImageArrayNonUniformIndexing"));
    CHECK(before && strstr(before, "OpDecorate") && strstr(before, "NonUniform\n"));
    CHECK(plain && count_op(plain, SpvOpLoopMerge, NULL, 0) == 0);
    /* With it: none of them, one loop for t0 and two nested ones for t1 and s0. */
    CHECK(after && !strstr(after, "NonUniform"));
    CHECK(fitted && count_op(fitted, SpvOpLoopMerge, NULL, 0) == 3);
    CHECK(after && strstr(after, "OpULessThan %bool") && strstr(after, "%uint_4"));
    CHECK(fitted && sb_spirv_validate(fitted->words, fitted->word_count, SB_TARGET_VULKAN_1_1, &e) == SB_SUCCESS);
    struct sb_translation *v10 = NULL;
    o.target_env = SB_TARGET_VULKAN_1_0; /* no subgroup operation: Vulkan 1.0 takes it too */
    CHECK(sb_translate_ir(p, &o, &v10, &e) == SB_SUCCESS);
    CHECK(v10 && sb_spirv_validate(v10->words, v10->word_count, SB_TARGET_VULKAN_1_0, &e) == SB_SUCCESS);
    sb_translation_destroy(v10);
    free(before);
    free(after);
    sb_translation_destroy(plain);
    sb_translation_destroy(fitted);
}

/* An unbounded range needs a descriptor count for the loop: refused at the ld_raw. */
static void case_waterfall_unbounded(void)
{
    struct sb_ir_program *p = non_uniform_program(UINT32_MAX);
    struct sb_translation *t = NULL;
    struct sb_error e = { 0 };
    struct sb_translate_options o = lacking(NULL, 0);
    CHECK(sb_translate_ir(p, &o, &t, &e) == SB_ERROR_TRANSLATE_UNSUPPORTED);
    CHECK(e.offset == OFFSET_OF(0));
    CHECK(strstr(e.message, "unbounded range 0") != NULL);
    o.unbounded_descriptor_count = 6;
    memset(&e, 0, sizeof(e));
    CHECK(sb_translate_ir(p, &o, &t, &e) == SB_SUCCESS);
    char *text = t ? sb_spirv_disassemble(t->words, t->word_count, SB_TARGET_VULKAN_1_1) : NULL;
    CHECK(text && strstr(text, "%uint_6") && !strstr(text, "NonUniform"));
    free(text);
    sb_translation_destroy(t);
}

/* Raw u# in spaces 0, 5 and 9 (registers 1, 2, 3), u2 with a counter. */
static struct sb_ir_program *spaces_program(void)
{
    ir_reset();
    static const uint32_t spaces[3] = { 0, 5, 9 };
    for (uint32_t i = 0; i < 3; i++) {
        struct sb_ir_resource *r = add_resource(SB_IR_RESOURCE_UAV, i + 1);
        r->kind = SB_IR_RESOURCE_KIND_RAW;
        r->dimension = 11;
        r->space = spaces[i];
        r->has_counter = i == 1;
        struct sb_ir_operand d = dst_reg(SB_IR_FILE_UAV, i + 1, 0x1);
        struct sb_ir_operand s[2] = { imm(0, 0, 0, 0), imm(7, 0, 0, 0) };
        emit(SB_IR_OP_STORE_RAW, 0, 1, &d, 2, s);
    }
    struct sb_ir_program *p = ir_program(SB_IR_STAGE_COMPUTE, 1);
    p->thread_group[0] = p->thread_group[1] = p->thread_group[2] = 1;
    return p;
}

/* The reported (set, binding, counter binding) of u`reg`, or 99s. */
static void where(const struct sb_translation *t, uint32_t reg, uint32_t out[3])
{
    out[0] = out[1] = out[2] = 99;
    for (uint32_t i = 0; t && i < t->binding_count; i++)
        if (t->bindings[i].resource_class == SB_IR_RESOURCE_UAV && t->bindings[i].lower_bound == reg) {
            out[0] = t->bindings[i].set;
            out[1] = t->bindings[i].binding;
            out[2] = t->bindings[i].counter_binding;
        }
}

/* maxBoundDescriptorSets: 10 leaves sets 0/5/9; 8 moves them to 0/1/2 with their bindings;
 * 2 (fewer than the 3 sets) puts all in set 0, numbered 0, 1 (+ counter 2), 3. */
static void case_sets(void)
{
    struct sb_ir_program *p = spaces_program();
    static const struct { uint32_t max; uint32_t want[3][3]; } rows[] = {
        { 10, { { 0, 161, 0 }, { 5, 162, 226 }, { 9, 163, 0 } } },
        { 8, { { 0, 161, 0 }, { 1, 162, 226 }, { 2, 163, 0 } } },
        { 2, { { 0, 0, 0 }, { 0, 1, 2 }, { 0, 3, 0 } } },
    };
    for (size_t row = 0; row < sizeof(rows) / sizeof(rows[0]); row++) {
        struct sb_translate_options o = { .target_env = SB_TARGET_VULKAN_1_1 };
        o.device.described = true;
        o.device.storage_image_read_without_format = true;
        o.device.max_bound_descriptor_sets = rows[row].max;
        struct sb_translation *t = NULL;
        struct sb_error e = { 0 };
        CHECK(sb_translate_ir(p, &o, &t, &e) == SB_SUCCESS);
        for (uint32_t u = 0; u < 3; u++) {
            uint32_t got[3];
            where(t, u + 1, got);
            if (memcmp(got, rows[row].want[u], sizeof(got))) {
                fprintf(stderr, "max %u: u%u at set %u binding %u counter %u, want %u %u %u\n", rows[row].max,
                        u + 1, got[0], got[1], got[2], rows[row].want[u][0], rows[row].want[u][1],
                        rows[row].want[u][2]);
                g_failures++;
            }
        }
        CHECK(t && sb_spirv_validate(t->words, t->word_count, SB_TARGET_VULKAN_1_1, &e) == SB_SUCCESS);
        sb_translation_destroy(t);
    }
}

/* A float texture t`id` of SM4 dimension `dimension` (3: 2D). */
static void float_texture(uint32_t id, uint32_t dimension)
{
    struct sb_ir_resource *t = add_resource(SB_IR_RESOURCE_SRV, id);
    t->kind = SB_IR_RESOURCE_KIND_TYPED;
    t->dimension = dimension;
    for (int i = 0; i < 4; i++)
        t->return_type[i] = 5;
}

/*
 * In `stage`: sample_cl_s r0 (status r1.x), sample_b_cl_s, sample_d_cl_s and sample_c_cl_s
 * (comparison sampler s1) of t0, each with a clamp of 2.5 (instructions 0-3).
 */
static struct sb_ir_program *clamp_program(uint32_t stage)
{
    ir_reset();
    float_texture(0, 3);
    add_resource(SB_IR_RESOURCE_SAMPLER, 0);
    add_resource(SB_IR_RESOURCE_SAMPLER, 1)->sampler_mode = 1;
    struct sb_ir_operand uv = immf(0.25f, 0.75f, 0, 0), clamp = immf(2.5f, 0, 0, 0);
    struct sb_ir_operand t0 = src_reg(SB_IR_FILE_RESOURCE, 0, "xyzw");
    struct sb_ir_operand s0 = src_reg(SB_IR_FILE_SAMPLER, 0, "xxxx"), s1 = src_reg(SB_IR_FILE_SAMPLER, 1, "xxxx");
    struct sb_ir_operand value_status[2] = { dst_reg(SB_IR_FILE_TEMP, 0, 0xF), dst_reg(SB_IR_FILE_TEMP, 1, 0x1) };
    struct sb_ir_operand sample[4] = { uv, t0, s0, clamp };
    emit(SB_IR_OP_SAMPLE, 0, 2, value_status, 4, sample);
    struct sb_ir_operand bias[5] = { uv, t0, s0, immf(1, 0, 0, 0), clamp };
    emit(SB_IR_OP_SAMPLE_B, 0, 2, value_status, 5, bias);
    struct sb_ir_operand grad[6] = { uv, t0, s0, immf(0.01f, 0, 0, 0), immf(0, 0.01f, 0, 0), clamp };
    emit(SB_IR_OP_SAMPLE_D, 0, 2, value_status, 6, grad);
    struct sb_ir_operand compare[5] = { uv, t0, s1, immf(0.5f, 0, 0, 0), clamp };
    emit(SB_IR_OP_SAMPLE_C, 0, 2, value_status, 5, compare);
    struct sb_ir_program *p = ir_program(stage, 2);
    p->thread_group[0] = p->thread_group[1] = p->thread_group[2] = 1;
    return p;
}

static struct sb_translate_options without_min_lod(enum sb_target_env env)
{
    struct sb_translate_options o = { .target_env = env };
    o.device.described = true;
    o.device.storage_image_read_without_format = true;
    o.device.shader_resource_min_lod = false;
    return o;
}

static void case_min_lod(void)
{
    struct sb_ir_program *p = clamp_program(SB_IR_STAGE_PIXEL);
    struct sb_translation *plain = NULL, *zeroed = NULL, *capable = NULL, *fitted = NULL, *v10 = NULL;
    struct sb_error e = { 0 };
    struct sb_translate_options zero = { .target_env = SB_TARGET_VULKAN_1_1 };
    struct sb_translate_options with = without_min_lod(SB_TARGET_VULKAN_1_1);
    with.device.shader_resource_min_lod = true;
    struct sb_translate_options lacking_min_lod = without_min_lod(SB_TARGET_VULKAN_1_1);
    CHECK(sb_translate_ir(p, NULL, &plain, &e) == SB_SUCCESS);
    CHECK(sb_translate_ir(p, &zero, &zeroed, &e) == SB_SUCCESS);
    CHECK(sb_translate_ir(p, &with, &capable, &e) == SB_SUCCESS);
    CHECK(sb_translate_ir(p, &lacking_min_lod, &fitted, &e) == SB_SUCCESS);
    CHECK(same_words(plain, zeroed));
    CHECK(same_words(plain, capable));
    char *before = plain ? sb_spirv_disassemble(plain->words, plain->word_count, SB_TARGET_VULKAN_1_1) : NULL;
    char *after = fitted ? sb_spirv_disassemble(fitted->words, fitted->word_count, SB_TARGET_VULKAN_1_1) : NULL;
    CHECK(before && strstr(before, "OpCapability MinLod") && strstr(before, " MinLod %"));
    /* Without the feature: not a MinLod anywhere; three LOD queries (sample, _b, _c), one size
     * query (sample_d), and one explicit-LOD sample more per instruction, selected per lane. */
    CHECK(after && !strstr(after, "MinLod"));
    CHECK(after && strstr(after, "OpCapability ImageQuery"));
    CHECK(fitted && count_op(fitted, SpvOpImageQueryLod, NULL, 0) == 3);
    CHECK(fitted && count_op(fitted, SpvOpImageQuerySizeLod, NULL, 0) == 1);
    CHECK(fitted && count_op(fitted, SpvOpImageSampleImplicitLod, NULL, 0) == 2);
    CHECK(fitted && count_op(fitted, SpvOpImageSampleExplicitLod, NULL, 0) == 4);
    CHECK(fitted && count_op(fitted, SpvOpImageSampleDrefImplicitLod, NULL, 0) == 1);
    CHECK(fitted && count_op(fitted, SpvOpImageSampleDrefExplicitLod, NULL, 0) == 1);
    CHECK(fitted && count_op(fitted, SpvOpFOrdLessThan, NULL, 0) == 4);
    CHECK(fitted && count_op(fitted, SpvOpSelect, NULL, 0) == 4);
    CHECK(after && strstr(after, " Log2 ") && strstr(after, " Length "));
    CHECK(fitted && sb_spirv_validate(fitted->words, fitted->word_count, SB_TARGET_VULKAN_1_1, &e) == SB_SUCCESS);
    struct sb_translate_options o10 = without_min_lod(SB_TARGET_VULKAN_1_0);
    CHECK(sb_translate_ir(p, &o10, &v10, &e) == SB_SUCCESS);
    CHECK(v10 && sb_spirv_validate(v10->words, v10->word_count, SB_TARGET_VULKAN_1_0, &e) == SB_SUCCESS);
    free(before);
    free(after);
    sb_translation_destroy(plain);
    sb_translation_destroy(zeroed);
    sb_translation_destroy(capable);
    sb_translation_destroy(fitted);
    sb_translation_destroy(v10);

    /* A compute shader: the implicit forms read a fixed LOD (0, sample_b's bias), which takes
     * the clamp by FMax; sample_d_cl keeps the gradient path. */
    p = clamp_program(SB_IR_STAGE_COMPUTE);
    struct sb_translation *cs = NULL;
    CHECK(sb_translate_ir(p, &lacking_min_lod, &cs, &e) == SB_SUCCESS);
    char *text = cs ? sb_spirv_disassemble(cs->words, cs->word_count, SB_TARGET_VULKAN_1_1) : NULL;
    CHECK(text && !strstr(text, "MinLod") && strstr(text, " FMax "));
    CHECK(cs && count_op(cs, SpvOpImageQueryLod, NULL, 0) == 0);
    CHECK(cs && count_op(cs, SpvOpSelect, NULL, 0) == 1);
    CHECK(cs && sb_spirv_validate(cs->words, cs->word_count, SB_TARGET_VULKAN_1_1, &e) == SB_SUCCESS);
    free(text);
    sb_translation_destroy(cs);

    /* Every sampled dimension (SM4 numbering): sample_cl and sample_b_cl query the LOD without
     * the array layer, sample_d_cl measures as many gradient lanes as the texture has axes
     * (cubes: three, carried onto the face); each module passes spirv-val. */
    static const uint32_t dims[] = { 2, 3, 5, 6, 7, 8, 10 }; /* 1D, 2D, 3D, cube, 1D/2D/cube arrays */
    for (size_t i = 0; i < sizeof(dims) / sizeof(dims[0]); i++) {
        ir_reset();
        float_texture(0, dims[i]);
        add_resource(SB_IR_RESOURCE_SAMPLER, 0);
        struct sb_ir_operand v = dst_reg(SB_IR_FILE_TEMP, 0, 0xF), tex = src_reg(SB_IR_FILE_RESOURCE, 0, "xyzw");
        struct sb_ir_operand smp = src_reg(SB_IR_FILE_SAMPLER, 0, "xxxx"), c = immf(0.5f, 0.25f, 0.75f, 1);
        struct sb_ir_operand one[4] = { c, tex, smp, immf(1.5f, 0, 0, 0) };
        emit(SB_IR_OP_SAMPLE, 0, 1, &v, 4, one);
        struct sb_ir_operand biased[5] = { c, tex, smp, immf(-1, 0, 0, 0), immf(1.5f, 0, 0, 0) };
        emit(SB_IR_OP_SAMPLE_B, 0, 1, &v, 5, biased);
        struct sb_ir_operand g[6] = { c, tex, smp, immf(0.01f, 0.02f, 0.03f, 0), immf(0.03f, 0.02f, 0.01f, 0),
                                      immf(1.5f, 0, 0, 0) };
        emit(SB_IR_OP_SAMPLE_D, 0, 1, &v, 6, g);
        bool cube = dims[i] == 6 || dims[i] == 10;
        p = ir_program(SB_IR_STAGE_PIXEL, 1);
        struct sb_translation *t = NULL;
        memset(&e, 0, sizeof(e));
        enum sb_result r = sb_translate_ir(p, &lacking_min_lod, &t, &e);
        bool ok = r == SB_SUCCESS && count_op(t, SpvOpImageQueryLod, NULL, 0) == 2 &&
                  count_op(t, SpvOpImageQuerySizeLod, NULL, 0) == 1 &&
                  count_op(t, SpvOpFOrdGreaterThanEqual, NULL, 0) == (cube ? 2u : 0u) &&
                  sb_spirv_validate(t->words, t->word_count, SB_TARGET_VULKAN_1_1, &e) == SB_SUCCESS;
        if (!ok) {
            fprintf(stderr, "dimension %u: %s\n", dims[i], e.message);
            g_failures++;
        }
        sb_translation_destroy(t);
    }
}

int main(int argc, char **argv)
{
    static const struct { const char *name; void (*run)(void); } cases[] = {
        { "default_identical", case_default_identical },
        { "formats", case_formats },
        { "errors", case_errors },
        { "waterfall", case_waterfall },
        { "waterfall_unbounded", case_waterfall_unbounded },
        { "sets", case_sets },
        { "min_lod", case_min_lod },
    };
    if (argc < 2) {
        fprintf(stderr, "usage: %s CASE\n", argv[0]);
        return 2;
    }
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
        if (!strcmp(argv[1], cases[i].name)) {
            cases[i].run();
            if (g_failures)
                fprintf(stderr, "%s: %d check(s) failed\n", argv[1], g_failures);
            return g_failures ? 1 : 0;
        }
    fprintf(stderr, "unknown case %s\n", argv[1]);
    return 2;
}
