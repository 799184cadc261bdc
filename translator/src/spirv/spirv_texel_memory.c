/* SPDX-License-Identifier: MIT */
/*
 * Raw and structured t#/u# bound as texel buffers of R32_UINT elements, for devices with
 * too few storage-buffer descriptors per stage (sb_ir_resource::texel_memory, chosen by
 * ../translate_fit_storage.c; translator/README.md "Device fallbacks"):
 *   t# -> OpTypeImage uint Buffer, Sampled=1, R32ui (UNIFORM_TEXEL_BUFFER, SampledBuffer);
 *         a DWORD is OpImageFetch at its index, lane x;
 *   u# -> OpTypeImage uint Buffer, Sampled=2, R32ui (STORAGE_TEXEL_BUFFER, ImageBuffer);
 *         OpImageRead / OpImageWrite at the DWORD index, atomics through
 *         OpImageTexelPointer (the format is declared, so no ...WithoutFormat feature and
 *         image atomics are allowed);
 *   bufinfo -> OpImageQuerySize: DWORDs, times 4 for bytes (raw), / stride (structured).
 * The element is the DWORD the storage-buffer form indexes (spirv_uav.c: byte offset >> 2),
 * so every address computation stays where it is and only the last step differs. D3D's
 * out-of-range rules hold as for storage buffers, through the device's robustBufferAccess:
 * a texel buffer read past its view gives 0 in x, a write or atomic there is dropped
 * (Vulkan "Texel Replacement"; ctest validate_texel_memory runs one on lavapipe).
 * SM5.1 ranges are arrays of these images, indexed and made NonUniform like typed buffers
 * (spirv_resource_util.c), so the waterfall loop needs nothing of its own.
 */
#include "spirv_private.h"

#include "translator/sm4.h"

/* The image type both declaration and accesses use: `storage` picks Sampled 2 over 1. */
static uint32_t dword_image(struct sb_spv_context *ctx, bool storage)
{
    sb_spv_capability(&ctx->builder, storage ? SpvCapabilityImageBuffer : SpvCapabilitySampledBuffer);
    return sb_spv_type_image(&ctx->builder, sb_spv_t_u32(ctx), SpvDimBuffer, 0, 0, 0, storage ? 2 : 1,
                             SpvImageFormatR32ui);
}

void sb_spv_texel_memory_declare(struct sb_spv_context *ctx, uint32_t index)
{
    struct sb_spv_builder *b = &ctx->builder;
    const struct sb_ir_resource *r = &ctx->program->resources[index];
    struct sb_spv_resource *out = &ctx->resources[index];
    struct sb_spv_resource_info *info = &sb_spv_resource_state(ctx)->info[index];
    bool uav = r->resource_class == SB_IR_RESOURCE_UAV;
    info->dimension = r->kind == SB_IR_RESOURCE_KIND_RAW ? 11 : 12;
    info->value_type = SB_IR_TYPE_UINT;
    info->atomic_format = true;
    out->sampled_type = sb_spv_t_u32(ctx);
    out->element_type = dword_image(ctx, uav);
    out->type = out->element_type;
    if (r->count == UINT32_MAX) {
        sb_spv_resource_need_indexing(ctx, SpvCapabilityRuntimeDescriptorArray);
        out->type = sb_spv_type_runtime_array_unique(b, out->element_type);
    } else if (r->count != 1) {
        out->type = sb_spv_type_array(b, out->element_type, r->count);
    }
    out->arrayed = r->count != 1;
    out->pointer_type = sb_spv_type_pointer(b, SpvStorageClassUniformConstant, out->type);
    info->element_pointer = sb_spv_type_pointer(b, SpvStorageClassUniformConstant, out->element_type);
    out->var = sb_spv_variable_global(b, out->pointer_type, SpvStorageClassUniformConstant, 0);
    sb_spv_decorate1(b, out->var, SpvDecorationDescriptorSet, r->set);
    sb_spv_decorate1(b, out->var, SpvDecorationBinding, r->binding);
    if (uav && (r->uav_flags & SB_SM4_UAV_GLOBALLY_COHERENT))
        sb_spv_decorate(b, out->var, SpvDecorationCoherent, NULL, 0);
    if (r->name)
        sb_spv_debug_name(ctx, out->var, r->name);
}

uint32_t sb_spv_texel_memory_index(const struct sb_spv_context *ctx, const struct sb_ir_operand *op)
{
    if ((op->file != SB_IR_FILE_RESOURCE && op->file != SB_IR_FILE_UAV) || op->index_count < 1 ||
        op->index[0].relative)
        return UINT32_MAX;
    uint32_t cls = op->file == SB_IR_FILE_UAV ? SB_IR_RESOURCE_UAV : SB_IR_RESOURCE_SRV;
    uint32_t i = sb_spv_find_resource(ctx, cls, op->index[0].offset);
    return i != UINT32_MAX && ctx->program->resources[i].texel_memory && ctx->resources[i].var ? i : UINT32_MAX;
}

/* The DWORD index as the signed scalar coordinate image instructions take. */
static uint32_t coordinate(struct sb_spv_context *ctx, uint32_t dword)
{
    return sb_spv_bitcast(&ctx->builder, sb_spv_t_i32(ctx), sb_spv_t_u32(ctx), dword);
}

uint32_t sb_spv_texel_memory_load(struct sb_spv_context *ctx, uint32_t index, const struct sb_ir_operand *op,
                                  uint32_t dword)
{
    struct sb_spv_builder *b = &ctx->builder;
    uint32_t image = sb_spv_resource_load_handle(ctx, index, op);
    if (!image || !dword)
        return 0;
    bool uav = ctx->program->resources[index].resource_class == SB_IR_RESOURCE_UAV;
    uint32_t texel = sb_spv_op2(b, uav ? SpvOpImageRead : SpvOpImageFetch, sb_spv_t_uvec(ctx, 4), image,
                                coordinate(ctx, dword));
    return sb_spv_extract(b, sb_spv_t_u32(ctx), texel, 0);
}

bool sb_spv_texel_memory_store(struct sb_spv_context *ctx, uint32_t index, const struct sb_ir_operand *op,
                               uint32_t dword, uint32_t value)
{
    struct sb_spv_builder *b = &ctx->builder;
    uint32_t image = sb_spv_resource_load_handle(ctx, index, op);
    if (!image || !dword || !value)
        return false;
    /* Vulkan wants the texel to have at least the format's components; R32 reads x only. */
    uint32_t zero = sb_spv_uint(ctx, 0);
    uint32_t parts[4] = { value, zero, zero, zero };
    uint32_t words[3] = { image, coordinate(ctx, dword), sb_spv_construct(b, sb_spv_t_uvec(ctx, 4), parts, 4) };
    sb_spv_op(b, SpvOpImageWrite, words, 3);
    return true;
}

uint32_t sb_spv_texel_memory_pointer(struct sb_spv_context *ctx, uint32_t index, const struct sb_ir_operand *op,
                                     uint32_t dword)
{
    struct sb_spv_builder *b = &ctx->builder;
    uint32_t image = sb_spv_resource_descriptor_pointer(ctx, index, op);
    if (!image || !dword)
        return 0;
    uint32_t words[3] = { image, coordinate(ctx, dword), sb_spv_uint(ctx, 0) };
    uint32_t ptr = sb_spv_op_result(b, SpvOpImageTexelPointer,
                                    sb_spv_type_pointer(b, SpvStorageClassImage, sb_spv_t_u32(ctx)), words, 3);
    sb_spv_resource_non_uniform(ctx, op, ptr);
    return ptr;
}

uint32_t sb_spv_texel_memory_dwords(struct sb_spv_context *ctx, uint32_t index, const struct sb_ir_operand *op)
{
    struct sb_spv_builder *b = &ctx->builder;
    uint32_t image = sb_spv_resource_load_handle(ctx, index, op);
    if (!image)
        return 0;
    sb_spv_capability(b, SpvCapabilityImageQuery);
    return sb_spv_bitcast(b, sb_spv_t_u32(ctx), sb_spv_t_i32(ctx), sb_spv_op1(b, SpvOpImageQuerySize, sb_spv_t_i32(ctx), image));
}
