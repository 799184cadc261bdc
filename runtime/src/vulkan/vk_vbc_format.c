/* SPDX-License-Identifier: MIT */
/*
 * Tables of sb_rt_vbc_draw: how VBC reflection (base types, texel types,
 * texel formats, ranks; ../shared/docs/vbc.md §5) meets the runtime's own vocabulary
 * (sb_rt_format, SM4 resource dimensions), so the checks can compare what a
 * draw supplies with what the file's shaders declare.
 */
#include "vk_vbc_private.h"

static const enum sb_vk_vbc_kind format_kinds[SB_RT_FORMAT_COUNT] = {
    [SB_RT_FORMAT_UNDEFINED] = SB_VK_VBC_NONE,
    [SB_RT_FORMAT_R32_FLOAT] = SB_VK_VBC_FLOAT,
    [SB_RT_FORMAT_R32_UINT] = SB_VK_VBC_UINT,
    [SB_RT_FORMAT_R32_SINT] = SB_VK_VBC_SINT,
    [SB_RT_FORMAT_R32G32_FLOAT] = SB_VK_VBC_FLOAT,
    [SB_RT_FORMAT_R32G32_UINT] = SB_VK_VBC_UINT,
    [SB_RT_FORMAT_R32G32_SINT] = SB_VK_VBC_SINT,
    [SB_RT_FORMAT_R32G32B32A32_FLOAT] = SB_VK_VBC_FLOAT,
    [SB_RT_FORMAT_R32G32B32A32_UINT] = SB_VK_VBC_UINT,
    [SB_RT_FORMAT_R32G32B32A32_SINT] = SB_VK_VBC_SINT,
    [SB_RT_FORMAT_R16G16B16A16_FLOAT] = SB_VK_VBC_FLOAT,
    [SB_RT_FORMAT_R8G8B8A8_UNORM] = SB_VK_VBC_FLOAT,
    /* the formats appended for issue #15: uint / sint read as integers, the rest as floats */
    [SB_RT_FORMAT_R8G8B8A8_UNORM_SRGB] = SB_VK_VBC_FLOAT,
    [SB_RT_FORMAT_B8G8R8A8_UNORM] = SB_VK_VBC_FLOAT,
    [SB_RT_FORMAT_B8G8R8A8_UNORM_SRGB] = SB_VK_VBC_FLOAT,
    [SB_RT_FORMAT_R10G10B10A2_UNORM] = SB_VK_VBC_FLOAT,
    [SB_RT_FORMAT_R10G10B10A2_UINT] = SB_VK_VBC_UINT,
    [SB_RT_FORMAT_R11G11B10_FLOAT] = SB_VK_VBC_FLOAT,
    [SB_RT_FORMAT_R8_UNORM] = SB_VK_VBC_FLOAT,
    [SB_RT_FORMAT_R8_SNORM] = SB_VK_VBC_FLOAT,
    [SB_RT_FORMAT_R8_UINT] = SB_VK_VBC_UINT,
    [SB_RT_FORMAT_R8_SINT] = SB_VK_VBC_SINT,
    [SB_RT_FORMAT_R8G8_UNORM] = SB_VK_VBC_FLOAT,
    [SB_RT_FORMAT_R8G8_SNORM] = SB_VK_VBC_FLOAT,
    [SB_RT_FORMAT_R8G8_UINT] = SB_VK_VBC_UINT,
    [SB_RT_FORMAT_R8G8_SINT] = SB_VK_VBC_SINT,
    [SB_RT_FORMAT_R8G8B8A8_SNORM] = SB_VK_VBC_FLOAT,
    [SB_RT_FORMAT_R8G8B8A8_UINT] = SB_VK_VBC_UINT,
    [SB_RT_FORMAT_R8G8B8A8_SINT] = SB_VK_VBC_SINT,
    [SB_RT_FORMAT_R16_UNORM] = SB_VK_VBC_FLOAT,
    [SB_RT_FORMAT_R16_SNORM] = SB_VK_VBC_FLOAT,
    [SB_RT_FORMAT_R16_UINT] = SB_VK_VBC_UINT,
    [SB_RT_FORMAT_R16_SINT] = SB_VK_VBC_SINT,
    [SB_RT_FORMAT_R16_FLOAT] = SB_VK_VBC_FLOAT,
    [SB_RT_FORMAT_R16G16_UNORM] = SB_VK_VBC_FLOAT,
    [SB_RT_FORMAT_R16G16_SNORM] = SB_VK_VBC_FLOAT,
    [SB_RT_FORMAT_R16G16_UINT] = SB_VK_VBC_UINT,
    [SB_RT_FORMAT_R16G16_SINT] = SB_VK_VBC_SINT,
    [SB_RT_FORMAT_R16G16_FLOAT] = SB_VK_VBC_FLOAT,
    [SB_RT_FORMAT_R16G16B16A16_UNORM] = SB_VK_VBC_FLOAT,
    [SB_RT_FORMAT_R16G16B16A16_SNORM] = SB_VK_VBC_FLOAT,
    [SB_RT_FORMAT_R16G16B16A16_UINT] = SB_VK_VBC_UINT,
    [SB_RT_FORMAT_R16G16B16A16_SINT] = SB_VK_VBC_SINT,
    [SB_RT_FORMAT_D16_UNORM] = SB_VK_VBC_FLOAT,
    [SB_RT_FORMAT_D24_UNORM_S8_UINT] = SB_VK_VBC_FLOAT,    /* block-compressed textures all read as floats */
    [SB_RT_FORMAT_BC1_UNORM] = SB_VK_VBC_FLOAT,
    [SB_RT_FORMAT_BC1_UNORM_SRGB] = SB_VK_VBC_FLOAT,
    [SB_RT_FORMAT_BC2_UNORM] = SB_VK_VBC_FLOAT,
    [SB_RT_FORMAT_BC2_UNORM_SRGB] = SB_VK_VBC_FLOAT,
    [SB_RT_FORMAT_BC3_UNORM] = SB_VK_VBC_FLOAT,
    [SB_RT_FORMAT_BC3_UNORM_SRGB] = SB_VK_VBC_FLOAT,
    [SB_RT_FORMAT_BC4_UNORM] = SB_VK_VBC_FLOAT,
    [SB_RT_FORMAT_BC4_SNORM] = SB_VK_VBC_FLOAT,
    [SB_RT_FORMAT_BC5_UNORM] = SB_VK_VBC_FLOAT,
    [SB_RT_FORMAT_BC5_SNORM] = SB_VK_VBC_FLOAT,
    [SB_RT_FORMAT_BC6H_UF16] = SB_VK_VBC_FLOAT,
    [SB_RT_FORMAT_BC6H_SF16] = SB_VK_VBC_FLOAT,
    [SB_RT_FORMAT_BC7_UNORM] = SB_VK_VBC_FLOAT,
    [SB_RT_FORMAT_BC7_UNORM_SRGB] = SB_VK_VBC_FLOAT,
    [SB_RT_FORMAT_X24_TYPELESS_G8_UINT] = SB_VK_VBC_UINT,
};

enum sb_vk_vbc_kind sb_vk_vbc_format_kind(uint32_t format)
{
    return format < SB_RT_FORMAT_COUNT ? format_kinds[format] : SB_VK_VBC_NONE;
}

enum sb_vk_vbc_kind sb_vk_vbc_base_kind(enum sb_vbc_base_type type)
{
    switch (type) {
    case SB_VBC_BASE_TYPE_FLOAT: return SB_VK_VBC_FLOAT;
    case SB_VBC_BASE_TYPE_UNSIGNED: return SB_VK_VBC_UINT;
    case SB_VBC_BASE_TYPE_SIGNED: return SB_VK_VBC_SINT;
    default: return SB_VK_VBC_NONE;
    }
}

enum sb_vk_vbc_kind sb_vk_vbc_texel_kind(enum sb_vbc_texel_type type)
{
    switch (type) {
    case SB_VBC_TEXEL_TYPE_SIGNED: return SB_VK_VBC_SINT;
    case SB_VBC_TEXEL_TYPE_UNSIGNED: return SB_VK_VBC_UINT;
    case SB_VBC_TEXEL_TYPE_FLOAT:
    case SB_VBC_TEXEL_TYPE_UNORM:
    case SB_VBC_TEXEL_TYPE_SNORM: return SB_VK_VBC_FLOAT;
    default: return SB_VK_VBC_NONE;
    }
}

/* The compiler's texel formats that sb_rt_format can hold (the rest have no row). */
static const struct {
    enum sb_vbc_texel_type type;
    uint8_t size, count;
    uint32_t format;
} texel_formats[] = {
    { SB_VBC_TEXEL_TYPE_FLOAT, 4, 1, SB_RT_FORMAT_R32_FLOAT },
    { SB_VBC_TEXEL_TYPE_FLOAT, 4, 2, SB_RT_FORMAT_R32G32_FLOAT },
    { SB_VBC_TEXEL_TYPE_FLOAT, 4, 4, SB_RT_FORMAT_R32G32B32A32_FLOAT },
    { SB_VBC_TEXEL_TYPE_UNSIGNED, 4, 1, SB_RT_FORMAT_R32_UINT },
    { SB_VBC_TEXEL_TYPE_UNSIGNED, 4, 2, SB_RT_FORMAT_R32G32_UINT },
    { SB_VBC_TEXEL_TYPE_UNSIGNED, 4, 4, SB_RT_FORMAT_R32G32B32A32_UINT },
    { SB_VBC_TEXEL_TYPE_SIGNED, 4, 1, SB_RT_FORMAT_R32_SINT },
    { SB_VBC_TEXEL_TYPE_SIGNED, 4, 2, SB_RT_FORMAT_R32G32_SINT },
    { SB_VBC_TEXEL_TYPE_SIGNED, 4, 4, SB_RT_FORMAT_R32G32B32A32_SINT },
    { SB_VBC_TEXEL_TYPE_UNORM, 1, 4, SB_RT_FORMAT_R8G8B8A8_UNORM },
};

uint32_t sb_vk_vbc_texel_format(const struct sb_vbc_texel_format *format)
{
    for (size_t i = 0; i < sizeof(texel_formats) / sizeof(texel_formats[0]); i++)
        if (texel_formats[i].type == format->type && texel_formats[i].size == format->component_size &&
            texel_formats[i].count == format->component_count)
            return texel_formats[i].format;
    return SB_RT_FORMAT_UNDEFINED;
}

uint32_t sb_vk_vbc_kind_format(enum sb_vk_vbc_kind kind)
{
    switch (kind) {
    case SB_VK_VBC_UINT: return SB_RT_FORMAT_R32G32B32A32_UINT;
    case SB_VK_VBC_SINT: return SB_RT_FORMAT_R32G32B32A32_SINT;
    default: return SB_RT_FORMAT_R32G32B32A32_FLOAT;
    }
}

/* Indexed by rank; ../shared/docs/sm4-tokens.md §8.3 numbers the dimensions. */
static const uint32_t rank_dimensions[] = {
    [SB_VBC_TEXEL_RANK_1D] = 2,
    [SB_VBC_TEXEL_RANK_2D] = 3,
    [SB_VBC_TEXEL_RANK_3D] = 5,
    [SB_VBC_TEXEL_RANK_1D_ARRAY] = 7,
    [SB_VBC_TEXEL_RANK_2D_ARRAY] = 8,
    [SB_VBC_TEXEL_RANK_CUBE] = 6,
    [SB_VBC_TEXEL_RANK_BUFFER] = 0,
};

uint32_t sb_vk_vbc_rank_dimension(enum sb_vbc_texel_rank rank)
{
    return (uint32_t)rank < sizeof(rank_dimensions) / sizeof(rank_dimensions[0]) ? rank_dimensions[rank] : 0;
}

const char *sb_vk_vbc_kind_name(enum sb_vk_vbc_kind kind)
{
    static const char *const names[] = { "float", "uint", "int", "none" };
    return (uint32_t)kind <= SB_VK_VBC_NONE ? names[kind] : "none";
}
