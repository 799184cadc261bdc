/* SPDX-License-Identifier: MIT */
/*
 * Texels for the CPU interpreter: the formats of shaderbridge/resources.h
 * decoded to and encoded from four 32-bit lanes as Vulkan's format
 * conversion rules give them (missing channels read as 0 and alpha as 1;
 * unorm8 = c / 255, written back rounded to nearest after clamping to
 * [0, 1]; half floats round to nearest even), the half-float conversions the
 * ALU shares, and the texel addressing of the resources.h memory layout
 * (levels, then layers, then depth slices and rows).
 */
#include "interp_private.h"

#include <math.h>
#include <string.h>
#include "translator/ir.h"

enum texel_kind { KIND_F32, KIND_U32, KIND_S32, KIND_F16, KIND_UNORM8 };

static const struct {
    uint8_t channels, kind;
} texel_formats[SB_RT_FORMAT_COUNT] = {
    [SB_RT_FORMAT_R32_FLOAT] = { 1, KIND_F32 },
    [SB_RT_FORMAT_R32_UINT] = { 1, KIND_U32 },
    [SB_RT_FORMAT_R32_SINT] = { 1, KIND_S32 },
    [SB_RT_FORMAT_R32G32_FLOAT] = { 2, KIND_F32 },
    [SB_RT_FORMAT_R32G32_UINT] = { 2, KIND_U32 },
    [SB_RT_FORMAT_R32G32_SINT] = { 2, KIND_S32 },
    [SB_RT_FORMAT_R32G32B32A32_FLOAT] = { 4, KIND_F32 },
    [SB_RT_FORMAT_R32G32B32A32_UINT] = { 4, KIND_U32 },
    [SB_RT_FORMAT_R32G32B32A32_SINT] = { 4, KIND_S32 },
    [SB_RT_FORMAT_R16G16B16A16_FLOAT] = { 4, KIND_F16 },
    [SB_RT_FORMAT_R8G8B8A8_UNORM] = { 4, KIND_UNORM8 },
    [SB_RT_FORMAT_D32_FLOAT] = { 1, KIND_F32 }, /* depth: read as R32_FLOAT */
};

bool sb_interp_format_known(uint32_t format)
{
    return format < SB_RT_FORMAT_COUNT && texel_formats[format].channels != 0;
}

uint32_t sb_interp_value_type(const struct sb_ir_resource *decl)
{
    switch (decl->return_type[0]) {
    case 3: return SB_IR_TYPE_INT;  /* SINT (../shared/docs/sm4-tokens.md §8.4) */
    case 4: return SB_IR_TYPE_UINT; /* UINT */
    default: return SB_IR_TYPE_FLOAT;
    }
}

uint32_t sb_interp_half_from_float(uint32_t f)
{
    uint32_t sign = (f >> 16) & 0x8000u, e = (f >> 23) & 0xFFu, m = f & 0x7FFFFFu;
    if (e == 0xFF)
        return sign | 0x7C00u | (m ? 0x200u | (m >> 13) : 0);
    int32_t he = (int32_t)e - 127 + 15;
    if (he >= 31)
        return sign | 0x7C00u;
    if (he <= 0) {
        if (he < -10)
            return sign;
        m |= 0x800000u;
        uint32_t shift = (uint32_t)(14 - he), half = m >> shift, rest = m & ((1u << shift) - 1),
                 mid = 1u << (shift - 1);
        if (rest > mid || (rest == mid && (half & 1)))
            half++;
        return sign | half;
    }
    uint32_t half = ((uint32_t)he << 10) | (m >> 13), rest = m & 0x1FFFu;
    if (rest > 0x1000u || (rest == 0x1000u && (half & 1)))
        half++; /* a carry into the exponent (up to infinity) is the right answer */
    return sign | half;
}

uint32_t sb_interp_float_from_half(uint32_t h)
{
    uint32_t sign = (h & 0x8000u) << 16, e = (h >> 10) & 0x1Fu, m = h & 0x3FFu;
    if (e == 0x1F)
        return sign | 0x7F800000u | (m << 13);
    if (e)
        return sign | ((e + 112) << 23) | (m << 13);
    float f = (float)m * (1.0f / 16777216.0f); /* m * 2^-24, exact */
    uint32_t u;
    memcpy(&u, &f, 4);
    return sign | u;
}

void sb_interp_texel_decode(uint32_t format, const uint8_t *texel, uint32_t out[4])
{
    uint32_t kind = format < SB_RT_FORMAT_COUNT ? texel_formats[format].kind : KIND_F32;
    uint32_t channels = format < SB_RT_FORMAT_COUNT ? texel_formats[format].channels : 0;
    uint32_t one = (kind == KIND_U32 || kind == KIND_S32) ? 1u : 0x3F800000u;
    out[0] = out[1] = out[2] = 0;
    out[3] = one;
    for (uint32_t c = 0; c < channels; c++) {
        switch (kind) {
        case KIND_F16: {
            uint16_t h;
            memcpy(&h, texel + 2 * c, 2);
            out[c] = sb_interp_float_from_half(h);
            break;
        }
        case KIND_UNORM8: {
            float f = (float)texel[c] / 255.0f;
            memcpy(&out[c], &f, 4);
            break;
        }
        default: memcpy(&out[c], texel + 4 * c, 4); break;
        }
    }
}

void sb_interp_texel_encode(uint32_t format, const uint32_t in[4], uint8_t *texel)
{
    uint32_t kind = format < SB_RT_FORMAT_COUNT ? texel_formats[format].kind : KIND_F32;
    uint32_t channels = format < SB_RT_FORMAT_COUNT ? texel_formats[format].channels : 0;
    for (uint32_t c = 0; c < channels; c++) {
        switch (kind) {
        case KIND_F16: {
            uint16_t h = (uint16_t)sb_interp_half_from_float(in[c]);
            memcpy(texel + 2 * c, &h, 2);
            break;
        }
        case KIND_UNORM8: {
            float f;
            memcpy(&f, &in[c], 4);
            f = f > 0.0f ? (f < 1.0f ? f : 1.0f) : 0.0f; /* NaN -> 0 */
            texel[c] = (uint8_t)lrintf(f * 255.0f);
            break;
        }
        default: memcpy(texel + 4 * c, &in[c], 4); break;
        }
    }
}

uint32_t sb_interp_level_extent(const struct sb_rt_resource *r, uint32_t axis, uint32_t mip)
{
    uint32_t size = axis == 0 ? r->width : axis == 1 ? r->height : r->depth;
    size = mip < 32 ? size >> mip : 0;
    return size ? size : 1;
}

uint8_t *sb_interp_texel_address(const struct sb_rt_resource *r, int32_t x, int32_t y, int32_t z, int32_t layer,
                                 int32_t mip)
{
    uint32_t levels = r->mip_levels ? r->mip_levels : 1, layers = r->layers ? r->layers : 1;
    uint64_t texel = sb_rt_format_size((enum sb_rt_format)r->format);
    if (x < 0 || y < 0 || z < 0 || layer < 0 || mip < 0 || (uint32_t)mip >= levels || (uint32_t)layer >= layers ||
        !texel || !r->data)
        return NULL;
    uint64_t offset = 0;
    for (uint32_t l = 0; l < (uint32_t)mip; l++)
        offset += (uint64_t)sb_interp_level_extent(r, 0, l) * sb_interp_level_extent(r, 1, l) *
                  sb_interp_level_extent(r, 2, l) * layers * texel;
    uint64_t w = sb_interp_level_extent(r, 0, (uint32_t)mip), h = sb_interp_level_extent(r, 1, (uint32_t)mip),
             d = sb_interp_level_extent(r, 2, (uint32_t)mip);
    if ((uint64_t)x >= w || (uint64_t)y >= h || (uint64_t)z >= d)
        return NULL;
    offset += ((((uint64_t)layer * d + (uint64_t)z) * h + (uint64_t)y) * w + (uint64_t)x) * texel;
    if (offset + texel > r->size)
        return NULL;
    return (uint8_t *)r->data + offset;
}
