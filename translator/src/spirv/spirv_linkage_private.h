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

/**
 * The array (of `array_type`) of the values `parts` that a relatively indexed read picks
 * from, as a variable: for SPIR-V, a Private one initialised with an OpSpecConstantComposite,
 * made once and kept in *cached; for a text target, a Function one stored from an
 * OpCompositeConstruct at this use, because glslang refuses the spec-constant array
 * initialiser SPIRV-Cross writes for the former (sb_spv_spec_array_storage says which).
 * 0 on failure (recorded).
 */
uint32_t sb_spv_spec_array(struct sb_spv_context *ctx, uint32_t array_type, const uint32_t *parts,
                           uint32_t count, uint32_t *cached);

/** The storage class of sb_spv_spec_array's variables. */
static inline SpvStorageClass sb_spv_spec_array_storage(const struct sb_spv_context *ctx)
{
    return sb_spv_for_text_target(ctx) ? SpvStorageClassFunction : SpvStorageClassPrivate;
}

/** A uint index clamped to [0, count - 1] (Private arrays must not be read out of bounds). */
uint32_t sb_spv_clamped_index(struct sb_spv_context *ctx, const struct sb_ir_index *index,
                              uint32_t count);

#endif
