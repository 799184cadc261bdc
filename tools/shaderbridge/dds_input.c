/* SPDX-License-Identifier: MIT */
/*
 * DDS files for `run --input tN=FILE.dds`. The DDS reader gives subresources in file order
 * (array element, face, mip); the runtime wants every layer of level 0, then of level 1, ...
 * (sb_rt_texture_bytes, sb_interp_texel_address), so the texels are copied into that order.
 * Whether the shape fits the shader's declaration is the library's check
 * (sb_rt_inputs_provide), so draws and dispatches refuse the same files the same way.
 */
#include "dds_input.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shaderbridge/dds.h"

/* DXGI_FORMAT numbers (dxgiformat.h) for every sb_rt_format; a DDS in any other format is
 * refused by name rather than read as something it is not. */
static const struct { uint32_t dxgi; enum sb_rt_format format; } format_table[] = {
    { 2, SB_RT_FORMAT_R32G32B32A32_FLOAT }, { 3, SB_RT_FORMAT_R32G32B32A32_UINT },
    { 4, SB_RT_FORMAT_R32G32B32A32_SINT },  { 10, SB_RT_FORMAT_R16G16B16A16_FLOAT },
    { 11, SB_RT_FORMAT_R16G16B16A16_UNORM }, { 12, SB_RT_FORMAT_R16G16B16A16_UINT },
    { 13, SB_RT_FORMAT_R16G16B16A16_SNORM }, { 14, SB_RT_FORMAT_R16G16B16A16_SINT },
    { 16, SB_RT_FORMAT_R32G32_FLOAT },      { 17, SB_RT_FORMAT_R32G32_UINT },
    { 18, SB_RT_FORMAT_R32G32_SINT },       { 24, SB_RT_FORMAT_R10G10B10A2_UNORM },
    { 25, SB_RT_FORMAT_R10G10B10A2_UINT },  { 26, SB_RT_FORMAT_R11G11B10_FLOAT },
    { 28, SB_RT_FORMAT_R8G8B8A8_UNORM },    { 29, SB_RT_FORMAT_R8G8B8A8_UNORM_SRGB },
    { 30, SB_RT_FORMAT_R8G8B8A8_UINT },     { 31, SB_RT_FORMAT_R8G8B8A8_SNORM },
    { 32, SB_RT_FORMAT_R8G8B8A8_SINT },     { 34, SB_RT_FORMAT_R16G16_FLOAT },
    { 35, SB_RT_FORMAT_R16G16_UNORM },      { 36, SB_RT_FORMAT_R16G16_UINT },
    { 37, SB_RT_FORMAT_R16G16_SNORM },      { 38, SB_RT_FORMAT_R16G16_SINT },
    { 40, SB_RT_FORMAT_D32_FLOAT },         { 41, SB_RT_FORMAT_R32_FLOAT },
    { 42, SB_RT_FORMAT_R32_UINT },          { 43, SB_RT_FORMAT_R32_SINT },
    { 45, SB_RT_FORMAT_D24_UNORM_S8_UINT }, { 49, SB_RT_FORMAT_R8G8_UNORM },
    { 50, SB_RT_FORMAT_R8G8_UINT },         { 51, SB_RT_FORMAT_R8G8_SNORM },
    { 52, SB_RT_FORMAT_R8G8_SINT },         { 54, SB_RT_FORMAT_R16_FLOAT },
    { 55, SB_RT_FORMAT_D16_UNORM },         { 56, SB_RT_FORMAT_R16_UNORM },
    { 57, SB_RT_FORMAT_R16_UINT },          { 58, SB_RT_FORMAT_R16_SNORM },
    { 59, SB_RT_FORMAT_R16_SINT },          { 61, SB_RT_FORMAT_R8_UNORM },
    { 62, SB_RT_FORMAT_R8_UINT },           { 63, SB_RT_FORMAT_R8_SNORM },
    { 64, SB_RT_FORMAT_R8_SINT },           { 71, SB_RT_FORMAT_BC1_UNORM },
    { 72, SB_RT_FORMAT_BC1_UNORM_SRGB },    { 74, SB_RT_FORMAT_BC2_UNORM },
    { 75, SB_RT_FORMAT_BC2_UNORM_SRGB },    { 77, SB_RT_FORMAT_BC3_UNORM },
    { 78, SB_RT_FORMAT_BC3_UNORM_SRGB },    { 80, SB_RT_FORMAT_BC4_UNORM },
    { 81, SB_RT_FORMAT_BC4_SNORM },         { 83, SB_RT_FORMAT_BC5_UNORM },
    { 84, SB_RT_FORMAT_BC5_SNORM },         { 87, SB_RT_FORMAT_B8G8R8A8_UNORM },
    { 91, SB_RT_FORMAT_B8G8R8A8_UNORM_SRGB }, { 95, SB_RT_FORMAT_BC6H_UF16 },
    { 96, SB_RT_FORMAT_BC6H_SF16 },         { 98, SB_RT_FORMAT_BC7_UNORM },
    { 99, SB_RT_FORMAT_BC7_UNORM_SRGB },    { 47, SB_RT_FORMAT_X24_TYPELESS_G8_UINT },
};

bool cli_dds_input_named(const char *path)
{
    size_t n = strlen(path);
    if (n < 4)
        return false;
    const char *ext = path + n - 4;
    return ext[0] == '.' && tolower((unsigned char)ext[1]) == 'd' && tolower((unsigned char)ext[2]) == 'd' &&
           tolower((unsigned char)ext[3]) == 's';
}

/* SM4 resource dimension (../shared/docs/sm4-tokens.md §8.3) the DDS describes. */
static uint32_t dds_sm4_dimension(const struct sb_dds *dds)
{
    switch (dds->dimension) {
    case SB_DDS_DIMENSION_1D: return dds->array_size > 1 ? 7 : 2;
    case SB_DDS_DIMENSION_3D: return 5;
    default:
        if (dds->cube)
            return dds->array_size > 1 ? 10 : 6;
        return dds->array_size > 1 ? 8 : 3;
    }
}

bool cli_dds_input_load(const char *path, struct cli_file *file, struct sb_rt_resource *r)
{
    struct sb_dds *dds = NULL;
    struct sb_error error = { 0 };
    if (sb_dds_parse(file->bytes, file->size, &dds, &error) != SB_SUCCESS) {
        cli_report_error(path, &error); /* PATH:OFFSET: the reader's field and why */
        return false;
    }
    enum sb_rt_format format = SB_RT_FORMAT_UNDEFINED;
    for (size_t i = 0; i < sizeof(format_table) / sizeof(format_table[0]); i++)
        if (format_table[i].dxgi == dds->dxgi_format)
            format = format_table[i].format;
    if (format == SB_RT_FORMAT_UNDEFINED) {
        fprintf(stderr, "%s: error: DXGI format %u (%s) has no texture format here\n", path, dds->dxgi_format,
                sb_dds_format_name(dds->dxgi_format));
        sb_dds_destroy(dds);
        return false;
    }
    r->format = format;
    r->dimension = dds_sm4_dimension(dds);
    r->width = dds->width;
    r->height = dds->height;
    r->depth = dds->depth;
    r->layers = dds->array_size * dds->face_count; /* <= SB_DDS_MAX_SLICES: no overflow */
    r->mip_levels = dds->mip_count;
    r->sample_count = 1;
    size_t total = sb_rt_texture_bytes(r);
    uint8_t *texels = total ? malloc(total) : NULL;
    if (!texels) {
        fprintf(stderr, "%s: error: %s\n", path, total ? "out of memory" : "texture too large");
        sb_dds_destroy(dds);
        return false;
    }
    /* File order is layer-major (subresource = layer * mips + mip); write level-major. */
    size_t at = 0;
    for (uint32_t mip = 0; mip < r->mip_levels; mip++) {
        for (uint32_t layer = 0; layer < r->layers; layer++) {
            const struct sb_dds_subresource *sub = &dds->subresources[(size_t)layer * r->mip_levels + mip];
            if (sub->size > total - at) { /* the reader's sizes and the runtime's disagree */
                fprintf(stderr, "%s: error: subresource %u of mip %u holds %llu bytes, past the %zu the %s "
                        "texture takes\n", path, layer, mip, (unsigned long long)sub->size, total,
                        sb_rt_format_name(format));
                free(texels);
                sb_dds_destroy(dds);
                return false;
            }
            memcpy(texels + at, sub->data, (size_t)sub->size);
            at += (size_t)sub->size;
        }
    }
    sb_dds_destroy(dds);
    if (at != total) {
        fprintf(stderr, "%s: error: subresources hold %zu bytes, the %s texture takes %zu\n", path, at,
                sb_rt_format_name(format), total);
        free(texels);
        return false;
    }
    free(file->bytes); /* after sb_dds_destroy: the parse borrowed these bytes */
    file->bytes = texels;
    file->size = total;
    r->data = texels;
    r->size = total;
    return true;
}
