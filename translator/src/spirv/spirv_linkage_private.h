/* SPDX-License-Identifier: MIT */
/*
 * Class-linkage state of the SPIR-V back end (IR.md §Class linkage): the
 * specialisation constants of every interface slot, shared by the declarations and
 * fcall/resource lowering (spirv_linkage.c) and the operand reads of this[] and
 * cb[r][v] (spirv_operand.c).
 */
#ifndef SHADERBRIDGE_SPIRV_LINKAGE_PRIVATE_H
#define SHADERBRIDGE_SPIRV_LINKAGE_PRIVATE_H

#include "spirv_private.h"

struct linkage_state {
    uint32_t slot_count;
    uint32_t *spec;            /* slot_count * SB_CLASS_LINKAGE_FIELDS spec constant ids */
    uint32_t this_array;       /* Private uvec4[slot_count]; 0 until a relative this[] */
    uint32_t *selector_arrays; /* per program->interfaces entry: Private uint[len]; 0 until needed */
};

/** The program's linkage state (NULL without interface slots). */
static inline struct linkage_state *sb_spv_linkage_state(struct sb_spv_context *ctx)
{
    return ctx->linkage_state;
}

/** OpSpecConstantComposite of `count` constituents (a global constant instruction). */
uint32_t sb_spv_spec_composite(struct sb_spv_context *ctx, uint32_t type, const uint32_t *parts,
                               uint32_t count);

/** A uint index clamped to [0, count - 1] (Private arrays must not be read out of bounds). */
uint32_t sb_spv_clamped_index(struct sb_spv_context *ctx, const struct sb_ir_index *index,
                              uint32_t count);

#endif
