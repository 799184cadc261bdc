/* SPDX-License-Identifier: MIT */
/*
 * JSON and the one-line `info` summary of a DDS texture (shaderbridge/dds.h):
 * the raw header fields as read, the derived shape and DXGI format (number
 * and name), and every subresource as {element, face, mip, sizes, pitch,
 * offset, size}. The texel bytes themselves are not printed.
 */
#include "cli.h"

#include <stdio.h>

static const char *dimension_name(enum sb_dds_dimension dimension)
{
    switch (dimension) {
    case SB_DDS_DIMENSION_1D: return "1d";
    case SB_DDS_DIMENSION_2D: return "2d";
    case SB_DDS_DIMENSION_3D: return "3d";
    default: return "?";
    }
}

static json_object *header_json(const struct sb_dds *dds)
{
    json_object *h = json_object_new_object();
    cli_json_add_u64(h, "flags", dds->flags);
    cli_json_add_u64(h, "height", dds->header_height);
    cli_json_add_u64(h, "width", dds->header_width);
    cli_json_add_u64(h, "pitch_or_linear_size", dds->pitch_or_linear_size);
    cli_json_add_u64(h, "depth", dds->header_depth);
    cli_json_add_u64(h, "mip_map_count", dds->header_mip_count);
    cli_json_add_u64(h, "caps", dds->caps);
    cli_json_add_u64(h, "caps2", dds->caps2);
    json_object *pf = json_object_new_object();
    cli_json_add_u64(pf, "flags", dds->pf_flags);
    cli_json_add_u64(pf, "fourcc", dds->fourcc);
    cli_json_add_u64(pf, "rgb_bit_count", dds->rgb_bit_count);
    cli_json_add_u64(pf, "r_mask", dds->r_mask);
    cli_json_add_u64(pf, "g_mask", dds->g_mask);
    cli_json_add_u64(pf, "b_mask", dds->b_mask);
    cli_json_add_u64(pf, "a_mask", dds->a_mask);
    cli_json_add(h, "pixel_format", pf);
    if (dds->has_dx10) {
        json_object *x = json_object_new_object();
        cli_json_add_u64(x, "dxgi_format", dds->dx10_format);
        cli_json_add_u64(x, "resource_dimension", dds->dx10_dimension);
        cli_json_add_u64(x, "misc_flag", dds->dx10_misc_flag);
        cli_json_add_u64(x, "array_size", dds->dx10_array_size);
        cli_json_add_u64(x, "misc_flags2", dds->dx10_misc_flags2);
        cli_json_add(h, "dx10", x);
    }
    return h;
}

json_object *cli_json_dds(const struct sb_dds *dds)
{
    json_object *o = json_object_new_object();
    cli_json_add(o, "header", header_json(dds));
    cli_json_add_u64(o, "dxgi_format", dds->dxgi_format);
    cli_json_add_str(o, "format", sb_dds_format_name(dds->dxgi_format));
    cli_json_add_str(o, "dimension", dimension_name(dds->dimension));
    cli_json_add_bool(o, "cube", dds->cube);
    cli_json_add_bool(o, "block_compressed", dds->block_compressed);
    cli_json_add_u64(o, "bits_per_texel", dds->bits_per_texel);
    cli_json_add_u64(o, "block_size", dds->block_size);
    cli_json_add_u64(o, "width", dds->width);
    cli_json_add_u64(o, "height", dds->height);
    cli_json_add_u64(o, "depth", dds->depth);
    cli_json_add_u64(o, "mip_count", dds->mip_count);
    cli_json_add_u64(o, "array_size", dds->array_size);
    cli_json_add_u64(o, "face_count", dds->face_count);
    cli_json_add_u64(o, "data_offset", dds->data_offset);
    cli_json_add_u64(o, "data_size", dds->data_size);
    cli_json_add_u64(o, "trailing_size", dds->trailing_size);
    json_object *subs = json_object_new_array();
    for (uint32_t i = 0; i < dds->subresource_count; i++) {
        const struct sb_dds_subresource *s = &dds->subresources[i];
        json_object *j = json_object_new_object();
        cli_json_add_u64(j, "array_index", s->array_index);
        cli_json_add_u64(j, "face", s->face);
        cli_json_add_u64(j, "mip", s->mip);
        cli_json_add_u64(j, "width", s->width);
        cli_json_add_u64(j, "height", s->height);
        cli_json_add_u64(j, "depth", s->depth);
        cli_json_add_u64(j, "row_pitch", s->row_pitch);
        cli_json_add_u64(j, "row_count", s->row_count);
        cli_json_add_u64(j, "slice_size", s->slice_size);
        cli_json_add_u64(j, "offset", s->offset);
        cli_json_add_u64(j, "size", s->size);
        json_object_array_add(subs, j);
    }
    cli_json_add(o, "subresources", subs);
    return o;
}

void cli_describe_dds(const struct sb_dds *dds, char *buf, size_t size)
{
    snprintf(buf, size, "DDS %s texture %ux%ux%u, %s, %u mip%s, %u element%s%s, %u subresource%s, "
             "%llu data bytes%s",
             dimension_name(dds->dimension), dds->width, dds->height, dds->depth,
             sb_dds_format_name(dds->dxgi_format), dds->mip_count, dds->mip_count == 1 ? "" : "s",
             dds->array_size, dds->array_size == 1 ? "" : "s", dds->cube ? " of 6 faces" : "",
             dds->subresource_count, dds->subresource_count == 1 ? "" : "s",
             (unsigned long long)dds->data_size,
             dds->has_dx10 ? " (DX10 header)" : "");
}
