/* SPDX-License-Identifier: MIT */
/*
 * STAT decoder for FXC statistics (../shared/docs/dxcontainer.md §11): an array of
 * u32 counters whose count tells the layout (28, 29 or 37 dwords). Any
 * other size is not an error -- the raw dwords are kept and the fields that
 * fit are named -- because the layout was reverse-engineered and a producer
 * we have not seen may write more or fewer counters. (A DXC STAT holding a
 * program never reaches this file; dxbc_container.c routes it elsewhere.)
 */
#include "dxbc_fxc_private.h"

#include <stddef.h>

struct stat_field {
    const char *name;
    size_t member; /* offsetof the uint32_t member in struct sb_dxbc_stat */
};

#define FIELD(m) { #m, offsetof(struct sb_dxbc_stat, m) }

/* One row per dword, in part order. */
static const struct stat_field stat_fields[SB_DXBC_STAT_FIELD_COUNT] = {
    FIELD(instruction_count),
    FIELD(temp_register_count),
    FIELD(def_count),
    FIELD(dcl_count),
    FIELD(float_instruction_count),
    FIELD(int_instruction_count),
    FIELD(uint_instruction_count),
    FIELD(static_flow_control_count),
    FIELD(dynamic_flow_control_count),
    FIELD(macro_instruction_count),
    FIELD(temp_array_count),
    FIELD(array_instruction_count),
    FIELD(cut_instruction_count),
    FIELD(emit_instruction_count),
    FIELD(texture_normal_instructions),
    FIELD(texture_load_instructions),
    FIELD(texture_comp_instructions),
    FIELD(texture_bias_instructions),
    FIELD(texture_gradient_instructions),
    FIELD(mov_instruction_count),
    FIELD(movc_instruction_count),
    FIELD(conversion_instruction_count),
    FIELD(unknown22),
    FIELD(input_primitive),
    FIELD(gs_output_topology),
    FIELD(gs_max_output_vertex_count),
    FIELD(unknown26),
    FIELD(unknown27),
    FIELD(is_sample_frequency_shader),
    FIELD(unknown29),
    FIELD(control_points),
    FIELD(hs_output_primitive),
    FIELD(hs_partitioning),
    FIELD(tessellator_domain),
    FIELD(barrier_instructions),
    FIELD(interlocked_instructions),
    FIELD(texture_store_instructions),
};

/* The named members must be consecutive u32s in dword order for the table above. */
_Static_assert(offsetof(struct sb_dxbc_stat, texture_store_instructions) -
                       offsetof(struct sb_dxbc_stat, instruction_count) ==
                   (SB_DXBC_STAT_FIELD_COUNT - 1) * sizeof(uint32_t),
               "struct sb_dxbc_stat fields are not one u32 per dword");

static enum sb_dxbc_stat_version version_of(uint32_t dwords)
{
    switch (dwords) {
    case 28: return SB_DXBC_STAT_D3D10;
    case 29: return SB_DXBC_STAT_SM4;
    case 37: return SB_DXBC_STAT_SM5;
    default: return SB_DXBC_STAT_UNKNOWN;
    }
}

bool sb_dxbc_decode_stat(struct sb_dxbc_decode_context *ctx, struct sb_cursor *data,
                         struct sb_dxbc_part *part)
{
    struct sb_dxbc_stat *stat = sb_reader_alloc(ctx->reader, 1, sizeof(*stat));
    if (!stat)
        return false;
    size_t size = sb_cursor_size(data);
    stat->dword_count = (uint32_t)(size / 4);
    stat->version = version_of(stat->dword_count);
    if (stat->version == SB_DXBC_STAT_UNKNOWN)
        sb_reader_warn(ctx->reader, sb_fxc_at(data, 0),
                       "STAT: %zu bytes is none of the known sizes (112, 116, 148); only "
                       "the fields that fit are named", size);
    if (size % 4)
        sb_reader_warn(ctx->reader, sb_fxc_at(data, size - size % 4),
                       "STAT: %zu trailing bytes after the last whole dword are ignored",
                       size % 4);
    uint32_t *dwords = sb_reader_alloc(ctx->reader, stat->dword_count ? stat->dword_count : 1,
                                       sizeof(*dwords));
    if (!dwords)
        return false;
    struct sb_cursor cur = *data;
    for (uint32_t i = 0; i < stat->dword_count; i++) {
        dwords[i] = sb_cursor_u32(&cur, "STAT dword");
        if (i < SB_DXBC_STAT_FIELD_COUNT)
            *(uint32_t *)((char *)stat + stat_fields[i].member) = dwords[i];
    }
    if (!sb_cursor_ok(&cur))
        return false;
    stat->dwords = dwords;
    part->decoded.stat = stat;
    return true;
}

const char *sb_dxbc_stat_field_name(unsigned index)
{
    return index < SB_DXBC_STAT_FIELD_COUNT ? stat_fields[index].name : NULL;
}

const char *sb_dxbc_stat_version_name(enum sb_dxbc_stat_version version)
{
    switch (version) {
    case SB_DXBC_STAT_D3D10: return "d3d10";
    case SB_DXBC_STAT_SM4: return "sm4";
    case SB_DXBC_STAT_SM5: return "sm5";
    default: return "unknown";
    }
}
