/* SPDX-License-Identifier: MIT */
/*
 * One sample of a multisampled UAV (SM 6.7's RWTexture2DMS /
 * RWTexture2DMSArray, IR.md §Resources): ld_uav_typed_ms / store_uav_typed_ms
 * -> OpImageRead / OpImageWrite on the multisampled storage image with the
 * Sample image operand. The declaration (spirv_texture_decl.c) makes the image
 * MS = 1 and declares StorageImageMultisample (the device feature
 * shaderStorageImageMultisample); the format is Unknown, with the
 * ...WithoutFormat capabilities, unless a read gave it the view's format (the
 * device fallback of spirv_storage_format.c: reads count as for ld_uav_typed).
 */
#include "spirv_private.h"

enum sb_result sb_spv_uav_ms(struct sb_spv_context *ctx, const struct sb_ir_instruction *inst)
{
    struct sb_spv_builder *b = &ctx->builder;
    bool store = inst->op == SB_IR_OP_STORE_UAV_TYPED_MS;
    if (!store && inst->op != SB_IR_OP_LD_UAV_TYPED_MS)
        return SB_ERROR_TRANSLATE_UNSUPPORTED;
    if (inst->dst_count < 1 || inst->src_count < 3)
        return sb_spv_fail(ctx, SB_ERROR_TRANSLATE_INVALID, inst, "%s has too few operands",
                           sb_ir_op_name(inst->op));
    const struct sb_ir_operand *uav = store ? &inst->dst[0] : &inst->src[1];
    uint32_t index = sb_spv_resource_index(ctx, uav, SB_IR_RESOURCE_UAV);
    if (index == UINT32_MAX)
        return ctx->result;
    const struct sb_ir_resource *r = &ctx->program->resources[index];
    const struct sb_spv_dimension_info *dim = sb_spv_dimension_info(r->dimension);
    if (!dim || r->kind != SB_IR_RESOURCE_KIND_TYPED || !dim->ms)
        return sb_spv_fail(ctx, SB_ERROR_TRANSLATE_INVALID, inst, "%s on u%u, no multisampled UAV",
                           sb_ir_op_name(inst->op), r->id);
    const struct sb_spv_resource_info *info = &sb_spv_resource_state(ctx)->info[index];
    uint32_t image = sb_spv_resource_load_handle(ctx, index, uav);
    uint32_t coord = sb_spv_load_src_n(ctx, &inst->src[0], dim->coords, SB_IR_TYPE_INT);
    uint32_t sample = sb_spv_load_scalar(ctx, &inst->src[2], SB_IR_TYPE_INT);
    if (!image || !coord || !sample)
        return ctx->result;
    /* Without a declared format (no read gave one) the image is Unknown: WithoutFormat. */
    if (!info->atomic_format)
        sb_spv_capability(b, store ? SpvCapabilityStorageImageWriteWithoutFormat
                                   : SpvCapabilityStorageImageReadWithoutFormat);
    uint32_t words[5] = { image, coord, 0, SpvImageOperandsSampleMask, sample };
    if (store) {
        if (!(words[2] = sb_spv_load_src_n(ctx, &inst->src[1], 4, info->value_type)))
            return ctx->result;
        sb_spv_op(b, SpvOpImageWrite, words, 5);
        return ctx->result;
    }
    words[2] = SpvImageOperandsSampleMask; /* OpImageRead: image, coord, operands, sample */
    words[3] = sample;
    uint32_t texel = sb_spv_op_result(b, SpvOpImageRead, sb_spv_type_of(ctx, info->value_type, 4),
                                      words, 4);
    if (sb_spv_store_texel(ctx, inst, &inst->dst[0], texel, info->value_type, uav))
        sb_spv_store_status(ctx, inst);
    return ctx->result;
}
