/* SPDX-License-Identifier: MIT */
/*
 * Declared formats of typed u# for devices without shaderStorageImageReadWithoutFormat
 * (sb_device_profile, translate.h; translator/README.md "Device fallbacks").
 *
 * Why: OpImageRead on an image of format Unknown needs that feature; D3D lets any
 * typed UAV load run (SM5 with TypedUAVLoadAdditionalFormats, SM5.1 always), so on a
 * device without it the only way to read is to declare the view's real format. The
 * caller knows it (the runtime and the layer bound the view), and passes it as a
 * VkFormat per register (sb_translate_options::storage_formats); this file turns it
 * into the SPIR-V image format (Vulkan spec, "Compatibility Between SPIR-V Image
 * Formats and Vulkan Formats": one row per pair below) and says which need the
 * StorageImageExtendedFormats capability. Formats Vulkan gives no SPIR-V format
 * (BGRA, sRGB, depth, compressed) cannot be declared: translation fails naming them.
 */
#include "spirv_private.h"

/* One VkFormat (its number: the translator knows no Vulkan headers) and its SPIR-V twin. */
struct storage_format_row {
    uint32_t vk_format;
    SpvImageFormat format;
    bool extended;            /* needs StorageImageExtendedFormats */
};

static const struct storage_format_row rows[] = {
    { 9, SpvImageFormatR8, true },              /* R8_UNORM */
    { 10, SpvImageFormatR8Snorm, true },        /* R8_SNORM */
    { 13, SpvImageFormatR8ui, true },           /* R8_UINT */
    { 14, SpvImageFormatR8i, true },            /* R8_SINT */
    { 16, SpvImageFormatRg8, true },            /* R8G8_UNORM */
    { 17, SpvImageFormatRg8Snorm, true },       /* R8G8_SNORM */
    { 20, SpvImageFormatRg8ui, true },          /* R8G8_UINT */
    { 21, SpvImageFormatRg8i, true },           /* R8G8_SINT */
    { 37, SpvImageFormatRgba8, false },         /* R8G8B8A8_UNORM */
    { 38, SpvImageFormatRgba8Snorm, false },    /* R8G8B8A8_SNORM */
    { 41, SpvImageFormatRgba8ui, false },       /* R8G8B8A8_UINT */
    { 42, SpvImageFormatRgba8i, false },        /* R8G8B8A8_SINT */
    { 64, SpvImageFormatRgb10A2, true },        /* A2B10G10R10_UNORM_PACK32 */
    { 68, SpvImageFormatRgb10a2ui, true },      /* A2B10G10R10_UINT_PACK32 */
    { 70, SpvImageFormatR16, true },            /* R16_UNORM */
    { 71, SpvImageFormatR16Snorm, true },       /* R16_SNORM */
    { 74, SpvImageFormatR16ui, true },          /* R16_UINT */
    { 75, SpvImageFormatR16i, true },           /* R16_SINT */
    { 76, SpvImageFormatR16f, true },           /* R16_SFLOAT */
    { 77, SpvImageFormatRg16, true },           /* R16G16_UNORM */
    { 78, SpvImageFormatRg16Snorm, true },      /* R16G16_SNORM */
    { 81, SpvImageFormatRg16ui, true },         /* R16G16_UINT */
    { 82, SpvImageFormatRg16i, true },          /* R16G16_SINT */
    { 83, SpvImageFormatRg16f, true },          /* R16G16_SFLOAT */
    { 91, SpvImageFormatRgba16, true },         /* R16G16B16A16_UNORM */
    { 92, SpvImageFormatRgba16Snorm, true },    /* R16G16B16A16_SNORM */
    { 95, SpvImageFormatRgba16ui, false },      /* R16G16B16A16_UINT */
    { 96, SpvImageFormatRgba16i, false },       /* R16G16B16A16_SINT */
    { 97, SpvImageFormatRgba16f, false },       /* R16G16B16A16_SFLOAT */
    { 98, SpvImageFormatR32ui, false },         /* R32_UINT */
    { 99, SpvImageFormatR32i, false },          /* R32_SINT */
    { 100, SpvImageFormatR32f, false },         /* R32_SFLOAT */
    { 101, SpvImageFormatRg32ui, true },        /* R32G32_UINT */
    { 102, SpvImageFormatRg32i, true },         /* R32G32_SINT */
    { 103, SpvImageFormatRg32f, true },         /* R32G32_SFLOAT */
    { 107, SpvImageFormatRgba32ui, false },     /* R32G32B32A32_UINT */
    { 108, SpvImageFormatRgba32i, false },      /* R32G32B32A32_SINT */
    { 109, SpvImageFormatRgba32f, false },      /* R32G32B32A32_SFLOAT */
    { 122, SpvImageFormatR11fG11fB10f, true },  /* B10G11R11_UFLOAT_PACK32 */
};

bool sb_spv_storage_format_of_vk(uint32_t vk_format, SpvImageFormat *format, bool *extended)
{
    for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
        if (rows[i].vk_format == vk_format) {
            *format = rows[i].format;
            *extended = rows[i].extended;
            return true;
        }
    return false;
}

uint32_t sb_spv_storage_format_row(uint32_t row, SpvImageFormat *format)
{
    if (row >= sizeof(rows) / sizeof(rows[0]))
        return 0;
    *format = rows[row].format;
    return rows[row].vk_format;
}

bool sb_spv_device_reads_without_format(const struct sb_spv_context *ctx)
{
    const struct sb_device_profile *d = &ctx->options->device;
    return !d->described || d->storage_image_read_without_format;
}

SpvImageFormat sb_spv_storage_format_given(struct sb_spv_context *ctx, const struct sb_ir_resource *r,
                                           const struct sb_ir_instruction *first_read)
{
    const struct sb_translate_options *o = ctx->options;
    const struct sb_storage_format *given = NULL;
    for (uint32_t i = 0; i < o->storage_format_count && o->storage_formats; i++)
        if (o->storage_formats[i].space == r->space && o->storage_formats[i].register_index == r->lower_bound)
            given = &o->storage_formats[i];
    if (!given) {
        sb_spv_fail(ctx, SB_ERROR_TRANSLATE_UNSUPPORTED, first_read,
                    "u%u (space %u, set %u binding %u) is read by ld_uav_typed, the device lacks "
                    "shaderStorageImageReadWithoutFormat and no view format was given for it "
                    "(sb_translate_options::storage_formats)", r->lower_bound, r->space, r->set, r->binding);
        return SpvImageFormatUnknown;
    }
    SpvImageFormat format;
    bool extended;
    if (!sb_spv_storage_format_of_vk(given->vk_format, &format, &extended)) {
        sb_spv_fail(ctx, SB_ERROR_TRANSLATE_UNSUPPORTED, first_read,
                    "u%u (space %u): VkFormat %u has no SPIR-V image format, so a device without "
                    "shaderStorageImageReadWithoutFormat cannot read it", r->lower_bound, r->space,
                    given->vk_format);
        return SpvImageFormatUnknown;
    }
    if (extended)
        sb_spv_capability(&ctx->builder, SpvCapabilityStorageImageExtendedFormats);
    return format;
}
