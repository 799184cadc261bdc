/* SPDX-License-Identifier: MIT */
/* Facts about the texel formats of shaderbridge/resources.h. */
#include "shaderbridge/resources.h"

#include <stdint.h>

static const struct {
    const char *name;
    uint8_t size, channels;
    uint8_t block; /* texels across one unit of `size`: 4 for BC, 1 for the rest (0: unknown) */
} formats[SB_RT_FORMAT_COUNT] = {
    [SB_RT_FORMAT_UNDEFINED] = { "undefined", 0, 0, 0 },
    [SB_RT_FORMAT_R32_FLOAT] = { "r32_float", 4, 1, 1 },
    [SB_RT_FORMAT_R32_UINT] = { "r32_uint", 4, 1, 1 },
    [SB_RT_FORMAT_R32_SINT] = { "r32_sint", 4, 1, 1 },
    [SB_RT_FORMAT_R32G32_FLOAT] = { "r32g32_float", 8, 2, 1 },
    [SB_RT_FORMAT_R32G32_UINT] = { "r32g32_uint", 8, 2, 1 },
    [SB_RT_FORMAT_R32G32_SINT] = { "r32g32_sint", 8, 2, 1 },
    [SB_RT_FORMAT_R32G32B32A32_FLOAT] = { "r32g32b32a32_float", 16, 4, 1 },
    [SB_RT_FORMAT_R32G32B32A32_UINT] = { "r32g32b32a32_uint", 16, 4, 1 },
    [SB_RT_FORMAT_R32G32B32A32_SINT] = { "r32g32b32a32_sint", 16, 4, 1 },
    [SB_RT_FORMAT_R16G16B16A16_FLOAT] = { "r16g16b16a16_float", 8, 4, 1 },
    [SB_RT_FORMAT_R8G8B8A8_UNORM] = { "r8g8b8a8_unorm", 4, 4, 1 },
    [SB_RT_FORMAT_D32_FLOAT] = { "d32_float", 4, 1, 1 },
    [SB_RT_FORMAT_R8G8B8A8_UNORM_SRGB] = { "r8g8b8a8_unorm_srgb", 4, 4, 1 },
    [SB_RT_FORMAT_B8G8R8A8_UNORM] = { "b8g8r8a8_unorm", 4, 4, 1 },
    [SB_RT_FORMAT_B8G8R8A8_UNORM_SRGB] = { "b8g8r8a8_unorm_srgb", 4, 4, 1 },
    [SB_RT_FORMAT_R10G10B10A2_UNORM] = { "r10g10b10a2_unorm", 4, 4, 1 },
    [SB_RT_FORMAT_R10G10B10A2_UINT] = { "r10g10b10a2_uint", 4, 4, 1 },
    [SB_RT_FORMAT_R11G11B10_FLOAT] = { "r11g11b10_float", 4, 3, 1 },
    [SB_RT_FORMAT_R8_UNORM] = { "r8_unorm", 1, 1, 1 },
    [SB_RT_FORMAT_R8_SNORM] = { "r8_snorm", 1, 1, 1 },
    [SB_RT_FORMAT_R8_UINT] = { "r8_uint", 1, 1, 1 },
    [SB_RT_FORMAT_R8_SINT] = { "r8_sint", 1, 1, 1 },
    [SB_RT_FORMAT_R8G8_UNORM] = { "r8g8_unorm", 2, 2, 1 },
    [SB_RT_FORMAT_R8G8_SNORM] = { "r8g8_snorm", 2, 2, 1 },
    [SB_RT_FORMAT_R8G8_UINT] = { "r8g8_uint", 2, 2, 1 },
    [SB_RT_FORMAT_R8G8_SINT] = { "r8g8_sint", 2, 2, 1 },
    [SB_RT_FORMAT_R8G8B8A8_SNORM] = { "r8g8b8a8_snorm", 4, 4, 1 },
    [SB_RT_FORMAT_R8G8B8A8_UINT] = { "r8g8b8a8_uint", 4, 4, 1 },
    [SB_RT_FORMAT_R8G8B8A8_SINT] = { "r8g8b8a8_sint", 4, 4, 1 },
    [SB_RT_FORMAT_R16_UNORM] = { "r16_unorm", 2, 1, 1 },
    [SB_RT_FORMAT_R16_SNORM] = { "r16_snorm", 2, 1, 1 },
    [SB_RT_FORMAT_R16_UINT] = { "r16_uint", 2, 1, 1 },
    [SB_RT_FORMAT_R16_SINT] = { "r16_sint", 2, 1, 1 },
    [SB_RT_FORMAT_R16_FLOAT] = { "r16_float", 2, 1, 1 },
    [SB_RT_FORMAT_R16G16_UNORM] = { "r16g16_unorm", 4, 2, 1 },
    [SB_RT_FORMAT_R16G16_SNORM] = { "r16g16_snorm", 4, 2, 1 },
    [SB_RT_FORMAT_R16G16_UINT] = { "r16g16_uint", 4, 2, 1 },
    [SB_RT_FORMAT_R16G16_SINT] = { "r16g16_sint", 4, 2, 1 },
    [SB_RT_FORMAT_R16G16_FLOAT] = { "r16g16_float", 4, 2, 1 },
    [SB_RT_FORMAT_R16G16B16A16_UNORM] = { "r16g16b16a16_unorm", 8, 4, 1 },
    [SB_RT_FORMAT_R16G16B16A16_SNORM] = { "r16g16b16a16_snorm", 8, 4, 1 },
    [SB_RT_FORMAT_R16G16B16A16_UINT] = { "r16g16b16a16_uint", 8, 4, 1 },
    [SB_RT_FORMAT_R16G16B16A16_SINT] = { "r16g16b16a16_sint", 8, 4, 1 },
    [SB_RT_FORMAT_D16_UNORM] = { "d16_unorm", 2, 1, 1 },
    [SB_RT_FORMAT_D24_UNORM_S8_UINT] = { "d24_unorm_s8_uint", 4, 1, 1 },
    /* BC sizes are per 4x4 block; channels are what the shader sees after decoding. */
    [SB_RT_FORMAT_BC1_UNORM] = { "bc1_unorm", 8, 4, 4 },
    [SB_RT_FORMAT_BC1_UNORM_SRGB] = { "bc1_unorm_srgb", 8, 4, 4 },
    [SB_RT_FORMAT_BC2_UNORM] = { "bc2_unorm", 16, 4, 4 },
    [SB_RT_FORMAT_BC2_UNORM_SRGB] = { "bc2_unorm_srgb", 16, 4, 4 },
    [SB_RT_FORMAT_BC3_UNORM] = { "bc3_unorm", 16, 4, 4 },
    [SB_RT_FORMAT_BC3_UNORM_SRGB] = { "bc3_unorm_srgb", 16, 4, 4 },
    [SB_RT_FORMAT_BC4_UNORM] = { "bc4_unorm", 8, 1, 4 },
    [SB_RT_FORMAT_BC4_SNORM] = { "bc4_snorm", 8, 1, 4 },
    [SB_RT_FORMAT_BC5_UNORM] = { "bc5_unorm", 16, 2, 4 },
    [SB_RT_FORMAT_BC5_SNORM] = { "bc5_snorm", 16, 2, 4 },
    [SB_RT_FORMAT_BC6H_UF16] = { "bc6h_uf16", 16, 3, 4 },
    [SB_RT_FORMAT_BC6H_SF16] = { "bc6h_sf16", 16, 3, 4 },
    [SB_RT_FORMAT_BC7_UNORM] = { "bc7_unorm", 16, 4, 4 },
    [SB_RT_FORMAT_BC7_UNORM_SRGB] = { "bc7_unorm_srgb", 16, 4, 4 },
    [SB_RT_FORMAT_X24_TYPELESS_G8_UINT] = { "x24_typeless_g8_uint", 4, 2, 1 },
};

uint32_t sb_rt_format_size(enum sb_rt_format format)
{
    return (uint32_t)format < SB_RT_FORMAT_COUNT ? formats[format].size : 0;
}

uint32_t sb_rt_format_block_extent(enum sb_rt_format format)
{
    if ((uint32_t)format >= SB_RT_FORMAT_COUNT || !formats[format].size)
        return 0;
    return formats[format].block ? formats[format].block : 1;
}

uint32_t sb_rt_format_channels(enum sb_rt_format format)
{
    return (uint32_t)format < SB_RT_FORMAT_COUNT ? formats[format].channels : 0;
}

const char *sb_rt_format_name(enum sb_rt_format format)
{
    return (uint32_t)format < SB_RT_FORMAT_COUNT ? formats[format].name : "undefined";
}

size_t sb_rt_texture_bytes(const struct sb_rt_resource *r)
{
    /* `texel` is the size of one storage unit (a texel, or a BC block of `block` x `block`). */
    uint64_t texel = sb_rt_format_size((enum sb_rt_format)r->format);
    uint64_t block = sb_rt_format_block_extent((enum sb_rt_format)r->format);
    if (!texel)
        return 0;
    uint64_t layers = r->layers ? r->layers : 1, samples = r->sample_count ? r->sample_count : 1;
    uint64_t total = 0;
    uint32_t levels = r->mip_levels ? r->mip_levels : 1;
    for (uint32_t l = 0; l < levels && l < 32; l++) {
        uint64_t w = r->width >> l, h = r->height >> l, d = r->depth >> l;
        w = w ? w : 1;
        h = h ? h : 1;
        d = d ? d : 1;
        w = (w + block - 1) / block; /* w, h < 2^32: no overflow */
        h = (h + block - 1) / block;
        uint64_t level = w * h * d * layers * samples * texel; /* each factor < 2^32, texel <= 16 */
        if (level / texel / samples / layers / d / h != w || total + level < total)
            return 0;
        total += level;
    }
    return total > SIZE_MAX ? 0 : (size_t)total;
}
