/* SPDX-License-Identifier: MIT */
/*
 * Vector views of raw and structured t#/u# for the SPIR-V back end.
 *
 * A raw/structured register is one StorageBuffer `uint[]` (spirv_uav_decl.c), so a
 * ld_structured of four lanes is four uint loads. Mesa's llvmpipe (lavapipe) turns each
 * load or store of a StorageBuffer into a loop over the SIMD lanes with a bounds check per
 * lane, so four scalar loads cost four such loops where one uvec4 load costs one. When the
 * back end knows that a run of DWORDs starts on a vector boundary (spirv_uav.c works that
 * out from the stride and the immediate offsets), it reads or writes the run through a
 * second variable on the same descriptor: a StorageBuffer block of `uvec2[]` (ArrayStride
 * 8) or of `uvec3[]` / `uvec4[]` (ArrayStride 16). Vulkan lets several variables share a
 * binding; both are decorated Aliased, since they address the same bytes.
 *
 * Only single registers on a SPIR-V target get views: a range's variable is an array of
 * blocks indexed per access, a register bound as a texel buffer has no StorageBuffer, and
 * SPIRV-Cross would write two buffers on one register for a text target.
 */
#include "spirv_private.h"

#include "translator/sm4.h"

/* View slots: uvec2 (ArrayStride 8), uvec3 and uvec4 (ArrayStride 16). */
static uint32_t view_slot(uint32_t lanes)
{
    return lanes - 2;
}

uint32_t sb_spv_memory_vector_stride(uint32_t lanes)
{
    return lanes == 2 ? 8u : 16u;
}

bool sb_spv_memory_vector_allowed(struct sb_spv_context *ctx, const struct sb_ir_operand *op)
{
    if (sb_spv_for_text_target(ctx) || op->non_uniform ||
        (op->file != SB_IR_FILE_UAV && op->file != SB_IR_FILE_RESOURCE))
        return false;
    if (sb_spv_texel_memory_index(ctx, op) != UINT32_MAX)
        return false;
    uint32_t i = sb_spv_resource_index(ctx, op, sb_spv_resource_class_of_file(op->file));
    if (i == UINT32_MAX)
        return false;
    const struct sb_ir_resource *r = &ctx->program->resources[i];
    return r->count == 1 && r->kind != SB_IR_RESOURCE_KIND_TYPED;
}

/* The Block struct { uvecN[] } of one view shape, made once per module. */
static uint32_t view_block(struct sb_spv_context *ctx, uint32_t lanes)
{
    struct sb_spv_builder *b = &ctx->builder;
    struct sb_spv_resource_state *st = sb_spv_resource_state(ctx);
    uint32_t slot = view_slot(lanes);
    if (st->vector_block[slot])
        return st->vector_block[slot];
    uint32_t rta = sb_spv_type_runtime_array_unique(b, sb_spv_t_uvec(ctx, lanes));
    sb_spv_decorate1(b, rta, SpvDecorationArrayStride, sb_spv_memory_vector_stride(lanes));
    uint32_t block = sb_spv_type_struct_unique(b, &rta, 1);
    uint32_t zero = 0;
    sb_spv_decorate(b, block, SpvDecorationBlock, NULL, 0);
    sb_spv_member_decorate(b, block, 0, SpvDecorationOffset, &zero, 1);
    st->vector_block[slot] = block;
    return block;
}

uint32_t sb_spv_memory_alias_variable(struct sb_spv_context *ctx, uint32_t index, uint32_t block)
{
    struct sb_spv_builder *b = &ctx->builder;
    struct sb_spv_resource_info *info = &sb_spv_resource_state(ctx)->info[index];
    const struct sb_ir_resource *r = &ctx->program->resources[index];
    uint32_t var = sb_spv_variable_global(b, sb_spv_type_pointer(b, SpvStorageClassStorageBuffer, block),
                                          SpvStorageClassStorageBuffer, 0);
    if (!var)
        return 0;
    sb_spv_decorate1(b, var, SpvDecorationDescriptorSet, r->set);
    sb_spv_decorate1(b, var, SpvDecorationBinding, r->binding);
    sb_spv_decorate(b, var, SpvDecorationAliased, NULL, 0);
    if (r->resource_class != SB_IR_RESOURCE_UAV)
        sb_spv_decorate(b, var, SpvDecorationNonWritable, NULL, 0);
    else if (r->uav_flags & SB_SM4_UAV_GLOBALLY_COHERENT)
        sb_spv_decorate(b, var, SpvDecorationCoherent, NULL, 0);
    if (!info->aliased) {
        sb_spv_decorate(b, ctx->resources[index].var, SpvDecorationAliased, NULL, 0);
        info->aliased = true;
    }
    return var;
}

/* The view variable of resource `index`, declared on first use. */
static uint32_t view_variable(struct sb_spv_context *ctx, uint32_t index, uint32_t lanes)
{
    struct sb_spv_resource_info *info = &sb_spv_resource_state(ctx)->info[index];
    uint32_t slot = view_slot(lanes);
    if (!info->vector_var[slot])
        info->vector_var[slot] = sb_spv_memory_alias_variable(ctx, index, view_block(ctx, lanes));
    return info->vector_var[slot];
}

uint32_t sb_spv_memory_vector_pointer(struct sb_spv_context *ctx, const struct sb_ir_operand *op,
                                      uint32_t lanes, uint32_t element)
{
    struct sb_spv_builder *b = &ctx->builder;
    if (!element || lanes < 2 || lanes > 4)
        return 0;
    uint32_t i = sb_spv_resource_index(ctx, op, sb_spv_resource_class_of_file(op->file));
    if (i == UINT32_MAX)
        return 0;
    uint32_t var = view_variable(ctx, i, lanes);
    if (!var)
        return 0;
    uint32_t idx[2] = { sb_spv_uint(ctx, 0), element };
    return sb_spv_access_chain(
        b, sb_spv_type_pointer(b, SpvStorageClassStorageBuffer, sb_spv_t_uvec(ctx, lanes)), var, idx, 2);
}
