/* SPDX-License-Identifier: MIT */
/*
 * Tables shared by the VBC parser (vbc.c) and the name functions
 * (vbc_tables.c): which resource base type lives in which set-0 table, the
 * ranks and formats it accepts, and the compiler's texel formats
 * (../shared/docs/vbc.md §5.3, §5.4, §5.6). Keeping them in one place means the
 * validation and the names cannot drift apart.
 */
#ifndef SB_REFLECT_VBC_PRIVATE_H
#define SB_REFLECT_VBC_PRIVATE_H

#include "shaderbridge/vbc.h"

/** One resource base type (Sampler .. RWTexels) and what its records may hold. */
struct sb_vbc_resource_row {
    enum sb_vbc_base_type base_type;
    enum sb_vbc_binding_table table;
    enum sb_vbc_descriptor_type descriptor_type;
    bool is_buffer;           /* payload is a stride, not a texel format */
    uint8_t rank_mask;        /* bit per allowed enum sb_vbc_texel_rank */
    bool sampled_format;      /* only float4 / int4 / uint4 (built-in sampled types) */
    /* Engine binding type of rank 0 (ranks add to it), or the fixed type. */
    enum sb_vbc_binding_type binding_type;
    bool binding_type_by_rank;
    uint8_t engine_rank_mask; /* ranks the engine maps; others are SB_VBC_BINDING_UNMAPPED */
};

/** The row of a resource base type, or NULL when `base_type` is not one (5..10). */
const struct sb_vbc_resource_row *sb_vbc_resource_row(uint32_t base_type);

/** Whether (type, size, count) is one of the compiler's 21 texel formats. */
bool sb_vbc_texel_format_known(uint32_t type, uint32_t size, uint32_t count);

#endif
