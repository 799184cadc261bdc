/* SPDX-License-Identifier: MIT */
/*
 * VBC enumerations: names of every enum of shaderbridge/vbc.h and the
 * tables the parser validates against (../shared/docs/vbc.md §5, §6).
 *
 * Each table has one row per enumerant, indexed by the enumerant's value,
 * so a test can walk every row and a new value cannot be named in one
 * place and forgotten in another.
 */
#include "vbc_private.h"

#define COUNT_OF(a) (sizeof(a) / sizeof((a)[0]))
#define RANK_BIT(r) (1u << (r))
#define IMAGE_LIKE_RANKS                                                                     \
    (RANK_BIT(SB_VBC_TEXEL_RANK_1D) | RANK_BIT(SB_VBC_TEXEL_RANK_2D) |                        \
     RANK_BIT(SB_VBC_TEXEL_RANK_3D) | RANK_BIT(SB_VBC_TEXEL_RANK_1D_ARRAY) |                  \
     RANK_BIT(SB_VBC_TEXEL_RANK_2D_ARRAY) | RANK_BIT(SB_VBC_TEXEL_RANK_CUBE))

/*
 * Resource base types, in enum order from Sampler (5). Image accepts Cube
 * because the compiler can write it (§5.3) but the engine has no binding
 * type for it; Buffer rank belongs to the texel buffers alone.
 */
static const struct sb_vbc_resource_row resource_rows[] = {
    { SB_VBC_BASE_TYPE_SAMPLER, SB_VBC_TABLE_SAMPLERS, SB_VBC_DESCRIPTOR_COMBINED_IMAGE_SAMPLER,
      false, IMAGE_LIKE_RANKS, true, SB_VBC_BINDING_SAMPLER_1D, true, IMAGE_LIKE_RANKS },
    { SB_VBC_BASE_TYPE_IMAGE, SB_VBC_TABLE_IMAGES, SB_VBC_DESCRIPTOR_STORAGE_IMAGE,
      false, IMAGE_LIKE_RANKS, false, SB_VBC_BINDING_IMAGE_1D, true,
      IMAGE_LIKE_RANKS & ~RANK_BIT(SB_VBC_TEXEL_RANK_CUBE) },
    { SB_VBC_BASE_TYPE_RO_BUFFER, SB_VBC_TABLE_BUFFERS, SB_VBC_DESCRIPTOR_STORAGE_BUFFER,
      true, 0, false, SB_VBC_BINDING_RO_BUFFER, false, 0 },
    { SB_VBC_BASE_TYPE_RW_BUFFER, SB_VBC_TABLE_BUFFERS, SB_VBC_DESCRIPTOR_STORAGE_BUFFER,
      true, 0, false, SB_VBC_BINDING_RW_BUFFER, false, 0 },
    { SB_VBC_BASE_TYPE_RO_TEXELS, SB_VBC_TABLE_ROTEXELS, SB_VBC_DESCRIPTOR_UNIFORM_TEXEL_BUFFER,
      false, RANK_BIT(SB_VBC_TEXEL_RANK_BUFFER), true, SB_VBC_BINDING_RO_TEXELS, false,
      RANK_BIT(SB_VBC_TEXEL_RANK_BUFFER) },
    { SB_VBC_BASE_TYPE_RW_TEXELS, SB_VBC_TABLE_RWTEXELS, SB_VBC_DESCRIPTOR_STORAGE_TEXEL_BUFFER,
      false, RANK_BIT(SB_VBC_TEXEL_RANK_BUFFER), false, SB_VBC_BINDING_RW_TEXELS, false,
      RANK_BIT(SB_VBC_TEXEL_RANK_BUFFER) },
};

const struct sb_vbc_resource_row *sb_vbc_resource_row(uint32_t base_type)
{
    if (base_type < SB_VBC_BASE_TYPE_SAMPLER || base_type > SB_VBC_BASE_TYPE_RW_TEXELS)
        return NULL;
    return &resource_rows[base_type - SB_VBC_BASE_TYPE_SAMPLER];
}

struct texel_format_row {
    enum sb_vbc_texel_type type;
    uint8_t size;
    uint8_t count;
    const char *name;
};

/* The compiler's complete list (§5.4); no 3-component formats exist. */
static const struct texel_format_row texel_formats[] = {
    { SB_VBC_TEXEL_TYPE_SIGNED, 4, 1, "int" },
    { SB_VBC_TEXEL_TYPE_SIGNED, 4, 2, "int2" },
    { SB_VBC_TEXEL_TYPE_SIGNED, 4, 4, "int4" },
    { SB_VBC_TEXEL_TYPE_UNSIGNED, 4, 1, "uint" },
    { SB_VBC_TEXEL_TYPE_UNSIGNED, 4, 2, "uint2" },
    { SB_VBC_TEXEL_TYPE_UNSIGNED, 4, 4, "uint4" },
    { SB_VBC_TEXEL_TYPE_FLOAT, 4, 1, "float" },
    { SB_VBC_TEXEL_TYPE_FLOAT, 4, 2, "float2" },
    { SB_VBC_TEXEL_TYPE_FLOAT, 4, 4, "float4" },
    { SB_VBC_TEXEL_TYPE_UNORM, 1, 1, "u8norm" },
    { SB_VBC_TEXEL_TYPE_UNORM, 1, 2, "u8norm2" },
    { SB_VBC_TEXEL_TYPE_UNORM, 1, 4, "u8norm4" },
    { SB_VBC_TEXEL_TYPE_UNORM, 2, 1, "u16norm" },
    { SB_VBC_TEXEL_TYPE_UNORM, 2, 2, "u16norm2" },
    { SB_VBC_TEXEL_TYPE_UNORM, 2, 4, "u16norm4" },
    { SB_VBC_TEXEL_TYPE_SNORM, 1, 1, "s8norm" },
    { SB_VBC_TEXEL_TYPE_SNORM, 1, 2, "s8norm2" },
    { SB_VBC_TEXEL_TYPE_SNORM, 1, 4, "s8norm4" },
    { SB_VBC_TEXEL_TYPE_SNORM, 2, 1, "s16norm" },
    { SB_VBC_TEXEL_TYPE_SNORM, 2, 2, "s16norm2" },
    { SB_VBC_TEXEL_TYPE_SNORM, 2, 4, "s16norm4" },
};

static const struct texel_format_row *find_texel_format(uint32_t type, uint32_t size,
                                                        uint32_t count)
{
    for (size_t i = 0; i < COUNT_OF(texel_formats); i++)
        if (texel_formats[i].type == type && texel_formats[i].size == size &&
            texel_formats[i].count == count)
            return &texel_formats[i];
    return NULL;
}

bool sb_vbc_texel_format_known(uint32_t type, uint32_t size, uint32_t count)
{
    return find_texel_format(type, size, count) != NULL;
}

const char *sb_vbc_texel_format_name(const struct sb_vbc_texel_format *format)
{
    if (!format)
        return NULL;
    const struct texel_format_row *row =
        find_texel_format(format->type, format->component_size, format->component_count);
    return row ? row->name : NULL;
}

static const uint16_t default_table_sizes[] = { 8192, 128, 512, 128, 128 };

uint32_t sb_vbc_table_default_size(enum sb_vbc_binding_table table)
{
    return (uint32_t)table < COUNT_OF(default_table_sizes) ? default_table_sizes[table] : 0;
}

const struct sb_vbc_spirv *sb_vbc_find_spirv(const struct sb_vbc *vbc, enum sb_vbc_stage stage)
{
    if (!vbc)
        return NULL;
    for (uint32_t i = 0; i < vbc->spirv_count; i++)
        if (vbc->spirv[i].stage == stage)
            return &vbc->spirv[i];
    return NULL;
}

/* Looks `value` up in a name table indexed by enumerant value. */
static const char *name_at(const char *const *names, size_t count, uint32_t value)
{
    return value < count && names[value] ? names[value] : "unknown";
}

const char *sb_vbc_shader_type_name(enum sb_vbc_shader_type type)
{
    static const char *const names[] = { [SB_VBC_SHADER_TYPE_GRAPHICS] = "graphics" };
    return name_at(names, COUNT_OF(names), (uint32_t)type);
}

const char *sb_vbc_base_type_name(enum sb_vbc_base_type type)
{
    static const char *const names[] = {
        [SB_VBC_BASE_TYPE_VOID] = "void",           [SB_VBC_BASE_TYPE_BOOLEAN] = "boolean",
        [SB_VBC_BASE_TYPE_SIGNED] = "signed",       [SB_VBC_BASE_TYPE_UNSIGNED] = "unsigned",
        [SB_VBC_BASE_TYPE_FLOAT] = "float",         [SB_VBC_BASE_TYPE_SAMPLER] = "sampler",
        [SB_VBC_BASE_TYPE_IMAGE] = "image",         [SB_VBC_BASE_TYPE_RO_BUFFER] = "ro_buffer",
        [SB_VBC_BASE_TYPE_RW_BUFFER] = "rw_buffer", [SB_VBC_BASE_TYPE_RO_TEXELS] = "ro_texels",
        [SB_VBC_BASE_TYPE_RW_TEXELS] = "rw_texels", [SB_VBC_BASE_TYPE_SP_INPUT] = "sp_input",
        [SB_VBC_BASE_TYPE_UNIFORM] = "uniform",     [SB_VBC_BASE_TYPE_STRUCT] = "struct",
    };
    return name_at(names, COUNT_OF(names), (uint32_t)type);
}

const char *sb_vbc_texel_rank_name(enum sb_vbc_texel_rank rank)
{
    static const char *const names[] = {
        [SB_VBC_TEXEL_RANK_1D] = "1d",
        [SB_VBC_TEXEL_RANK_2D] = "2d",
        [SB_VBC_TEXEL_RANK_3D] = "3d",
        [SB_VBC_TEXEL_RANK_1D_ARRAY] = "1d_array",
        [SB_VBC_TEXEL_RANK_2D_ARRAY] = "2d_array",
        [SB_VBC_TEXEL_RANK_CUBE] = "cube",
        [SB_VBC_TEXEL_RANK_BUFFER] = "buffer",
    };
    return name_at(names, COUNT_OF(names), (uint32_t)rank);
}

const char *sb_vbc_texel_type_name(enum sb_vbc_texel_type type)
{
    static const char *const names[] = {
        [SB_VBC_TEXEL_TYPE_SIGNED] = "signed", [SB_VBC_TEXEL_TYPE_UNSIGNED] = "unsigned",
        [SB_VBC_TEXEL_TYPE_FLOAT] = "float",   [SB_VBC_TEXEL_TYPE_UNORM] = "unorm",
        [SB_VBC_TEXEL_TYPE_SNORM] = "snorm",
    };
    return name_at(names, COUNT_OF(names), (uint32_t)type);
}

static const char *const stage_names[] = {
    [SB_VBC_STAGE_VERTEX] = "vert",          [SB_VBC_STAGE_TESS_CONTROL] = "tesc",
    [SB_VBC_STAGE_TESS_EVALUATION] = "tese", [SB_VBC_STAGE_GEOMETRY] = "geom",
    [SB_VBC_STAGE_FRAGMENT] = "frag",
};

const char *sb_vbc_stage_name(enum sb_vbc_stage stage)
{
    return name_at(stage_names, COUNT_OF(stage_names), (uint32_t)stage);
}

const char *sb_vbc_stage_bit_name(uint32_t bit)
{
    for (uint32_t stage = 0; stage < COUNT_OF(stage_names); stage++)
        if (bit == (1u << stage))
            return stage_names[stage];
    return "unknown";
}

const char *sb_vbc_binding_table_name(enum sb_vbc_binding_table table)
{
    static const char *const names[] = {
        [SB_VBC_TABLE_SAMPLERS] = "samplers", [SB_VBC_TABLE_IMAGES] = "images",
        [SB_VBC_TABLE_BUFFERS] = "buffers",   [SB_VBC_TABLE_ROTEXELS] = "rotexels",
        [SB_VBC_TABLE_RWTEXELS] = "rwtexels",
    };
    return name_at(names, COUNT_OF(names), (uint32_t)table);
}

const char *sb_vbc_descriptor_type_name(enum sb_vbc_descriptor_type type)
{
    static const char *const names[] = {
        [SB_VBC_DESCRIPTOR_COMBINED_IMAGE_SAMPLER] = "COMBINED_IMAGE_SAMPLER",
        [SB_VBC_DESCRIPTOR_STORAGE_IMAGE] = "STORAGE_IMAGE",
        [SB_VBC_DESCRIPTOR_UNIFORM_TEXEL_BUFFER] = "UNIFORM_TEXEL_BUFFER",
        [SB_VBC_DESCRIPTOR_STORAGE_TEXEL_BUFFER] = "STORAGE_TEXEL_BUFFER",
        [SB_VBC_DESCRIPTOR_STORAGE_BUFFER] = "STORAGE_BUFFER",
        [SB_VBC_DESCRIPTOR_UNIFORM_BUFFER_DYNAMIC] = "UNIFORM_BUFFER_DYNAMIC",
        [SB_VBC_DESCRIPTOR_INPUT_ATTACHMENT] = "INPUT_ATTACHMENT",
    };
    return name_at(names, COUNT_OF(names), (uint32_t)type);
}

const char *sb_vbc_binding_type_name(enum sb_vbc_binding_type type)
{
    static const char *const names[] = {
        [SB_VBC_BINDING_SAMPLER_1D] = "Sampler1D",
        [SB_VBC_BINDING_SAMPLER_2D] = "Sampler2D",
        [SB_VBC_BINDING_SAMPLER_3D] = "Sampler3D",
        [SB_VBC_BINDING_SAMPLER_1D_ARRAY] = "Sampler1DArray",
        [SB_VBC_BINDING_SAMPLER_2D_ARRAY] = "Sampler2DArray",
        [SB_VBC_BINDING_SAMPLER_CUBE] = "SamplerCube",
        [SB_VBC_BINDING_IMAGE_1D] = "Image1D",
        [SB_VBC_BINDING_IMAGE_2D] = "Image2D",
        [SB_VBC_BINDING_IMAGE_3D] = "Image3D",
        [SB_VBC_BINDING_IMAGE_1D_ARRAY] = "Image1DArray",
        [SB_VBC_BINDING_IMAGE_2D_ARRAY] = "Image2DArray",
        [SB_VBC_BINDING_RO_BUFFER] = "ROBuffer",
        [SB_VBC_BINDING_RW_BUFFER] = "RWBuffer",
        [SB_VBC_BINDING_RO_TEXELS] = "ROTexels",
        [SB_VBC_BINDING_RW_TEXELS] = "RWTexels",
        [SB_VBC_BINDING_UNMAPPED] = "unmapped",
    };
    return name_at(names, COUNT_OF(names), (uint32_t)type);
}
