/* SPDX-License-Identifier: MIT */
/*
 * UAV and memory reads/writes of the SPIR-V back end:
 *   ld_uav_typed / store_uav_typed -> OpImageRead / OpImageWrite on the
 *       storage image or texel buffer (Unknown format: the ...WithoutFormat
 *       capabilities, declared on first use);
 *   ld_raw / store_raw / ld_structured / store_structured on raw or
 *       structured t#/u# and on g# -> uint loads/stores of single DWORDs.
 *       The DWORD index is byte offset >> 2 (raw) or
 *       (index * stride + byte offset) >> 2 (structured), IR.md §Resources.
 *       A read gathers DWORD `base + c` for each written lane, c being the
 *       memory operand's swizzle of that lane; a store writes lane i of the
 *       mask to DWORD `base + i`.
 *       A register bound as a texel buffer (device fallback) reads and writes
 *       the same DWORDs through spirv_texel_memory.c.
 * Out-of-range buffer accesses are left to robustBufferAccess (D3D: reads 0,
 * writes dropped); g# indices are clamped (sb_spv_memory_dword_pointer).
 */
#include "spirv_private.h"

/* The typed u# of `op`: index, dimension row and loaded image; 0 (recorded) otherwise. */
static uint32_t storage_image(struct sb_spv_context *ctx, const struct sb_ir_operand *op,
                              uint32_t *index, const struct sb_spv_dimension_info **dim)
{
    *index = sb_spv_resource_index(ctx, op, SB_IR_RESOURCE_UAV);
    if (*index == UINT32_MAX)
        return 0;
    const struct sb_ir_resource *r = &ctx->program->resources[*index];
    *dim = sb_spv_dimension_info(r->dimension);
    if (!*dim || r->kind != SB_IR_RESOURCE_KIND_TYPED || (*dim)->ms) {
        sb_spv_fail(ctx, SB_ERROR_TRANSLATE_INVALID, NULL, "u%u is not a typed UAV", r->id);
        return 0;
    }
    return sb_spv_resource_load_handle(ctx, *index, op);
}

static enum sb_result emit_typed(struct sb_spv_context *ctx, const struct sb_ir_instruction *inst)
{
    struct sb_spv_builder *b = &ctx->builder;
    bool store = inst->op == SB_IR_OP_STORE_UAV_TYPED;
    if (inst->dst_count < 1 || inst->src_count < 2)
        return sb_spv_fail(ctx, SB_ERROR_TRANSLATE_INVALID, inst, "%s has too few operands",
                           sb_ir_op_name(inst->op));
    const struct sb_ir_operand *uav = store ? &inst->dst[0] : &inst->src[1];
    uint32_t index;
    const struct sb_spv_dimension_info *dim;
    uint32_t image = storage_image(ctx, uav, &index, &dim);
    if (!image)
        return ctx->result;
    const struct sb_spv_resource_info *info = &sb_spv_resource_state(ctx)->info[index];
    uint32_t coord = sb_spv_load_src_n(ctx, &inst->src[0], dim->coords, SB_IR_TYPE_INT);
    if (!coord)
        return ctx->result;
    if (store) {
        uint32_t value = sb_spv_load_src_n(ctx, &inst->src[1], 4, info->value_type);
        if (!value)
            return ctx->result;
        if (!info->atomic_format)
            sb_spv_capability(b, SpvCapabilityStorageImageWriteWithoutFormat);
        uint32_t words[3] = { image, coord, value };
        sb_spv_op(b, SpvOpImageWrite, words, 3);
        return ctx->result;
    }
    if (!info->atomic_format)
        sb_spv_capability(b, SpvCapabilityStorageImageReadWithoutFormat);
    uint32_t texel = sb_spv_op2(b, SpvOpImageRead, sb_spv_type_of(ctx, info->value_type, 4), image,
                                coord);
    if (sb_spv_store_texel(ctx, inst, &inst->dst[0], texel, info->value_type, uav))
        sb_spv_store_status(ctx, inst);
    return ctx->result;
}

/* First DWORD of a raw (byte offset) or structured (index, byte offset) address. */
static uint32_t base_dword(struct sb_spv_context *ctx, const struct sb_ir_operand *memory,
                           const struct sb_ir_operand *first, const struct sb_ir_operand *second)
{
    struct sb_spv_builder *b = &ctx->builder;
    bool structured = false;
    uint32_t stride = sb_spv_memory_stride(ctx, memory, &structured);
    if (!stride)
        return 0;
    uint32_t bytes = sb_spv_load_scalar(ctx, second ? second : first, SB_IR_TYPE_UINT);
    if (second) {
        uint32_t element = sb_spv_load_scalar(ctx, first, SB_IR_TYPE_UINT);
        if (!element || !bytes)
            return 0;
        bytes = sb_spv_op2(b, SpvOpIAdd, sb_spv_t_u32(ctx),
                           sb_spv_op2(b, SpvOpIMul, sb_spv_t_u32(ctx), element, sb_spv_uint(ctx, stride)),
                           bytes);
    }
    if (!bytes)
        return 0;
    return sb_spv_op2(b, SpvOpShiftRightLogical, sb_spv_t_u32(ctx), bytes, sb_spv_uint(ctx, 2));
}

/* DWORD `base + lane` (lane 0 is `base` itself). */
static uint32_t dword_at(struct sb_spv_context *ctx, uint32_t base, uint32_t lane)
{
    if (!lane)
        return base;
    return sb_spv_op2(&ctx->builder, SpvOpIAdd, sb_spv_t_u32(ctx), base, sb_spv_uint(ctx, lane));
}

static enum sb_result emit_memory_load(struct sb_spv_context *ctx, const struct sb_ir_instruction *inst)
{
    struct sb_spv_builder *b = &ctx->builder;
    bool structured = inst->op == SB_IR_OP_LD_STRUCTURED;
    if (inst->dst_count < 1 || inst->src_count < (structured ? 3u : 2u))
        return sb_spv_fail(ctx, SB_ERROR_TRANSLATE_INVALID, inst, "%s has too few operands",
                           sb_ir_op_name(inst->op));
    const struct sb_ir_operand *memory = &inst->src[structured ? 2 : 1];
    const struct sb_ir_operand *dst = &inst->dst[0];
    uint32_t base = base_dword(ctx, memory, &inst->src[0], structured ? &inst->src[1] : NULL);
    if (!base)
        return ctx->result;
    uint32_t parts[4], n = 0;
    uint32_t texels = sb_spv_texel_memory_index(ctx, memory);
    for (uint32_t i = 0; i < 4; i++) {
        if (!(dst->mask & (1u << i)))
            continue;
        uint32_t dword = dword_at(ctx, base, memory->swizzle[i] & 3u);
        if (texels != UINT32_MAX) {
            if (!(parts[n++] = sb_spv_texel_memory_load(ctx, texels, memory, dword)))
                return ctx->result;
            continue;
        }
        uint32_t ptr = sb_spv_memory_dword_pointer(ctx, memory, dword);
        if (!ptr)
            return ctx->result;
        parts[n++] = sb_spv_load(b, sb_spv_t_u32(ctx), ptr);
    }
    if (n && dst->file != SB_IR_FILE_NULL) {
        uint32_t value = n == 1 ? parts[0] : sb_spv_construct(b, sb_spv_t_uvec(ctx, n), parts, n);
        sb_spv_store_dst(ctx, inst, dst, value, SB_IR_TYPE_UINT);
    }
    sb_spv_store_status(ctx, inst);
    return ctx->result;
}

static enum sb_result emit_memory_store(struct sb_spv_context *ctx, const struct sb_ir_instruction *inst)
{
    struct sb_spv_builder *b = &ctx->builder;
    bool structured = inst->op == SB_IR_OP_STORE_STRUCTURED;
    if (inst->dst_count < 1 || inst->src_count < (structured ? 3u : 2u))
        return sb_spv_fail(ctx, SB_ERROR_TRANSLATE_INVALID, inst, "%s has too few operands",
                           sb_ir_op_name(inst->op));
    const struct sb_ir_operand *memory = &inst->dst[0];
    if (memory->file == SB_IR_FILE_RESOURCE)
        return sb_spv_fail(ctx, SB_ERROR_TRANSLATE_INVALID, inst, "%s to a read-only t#",
                           sb_ir_op_name(inst->op));
    uint32_t mask = memory->mask & 0xFu;
    if (!mask)
        return SB_SUCCESS;
    uint32_t base = base_dword(ctx, memory, &inst->src[0], structured ? &inst->src[1] : NULL);
    uint32_t value = sb_spv_load_src(ctx, &inst->src[structured ? 2 : 1], mask, SB_IR_TYPE_UINT);
    if (!base || !value)
        return ctx->result;
    uint32_t n = sb_spv_mask_count(mask), k = 0;
    uint32_t texels = sb_spv_texel_memory_index(ctx, memory);
    for (uint32_t i = 0; i < 4; i++) {
        if (!(mask & (1u << i)))
            continue;
        uint32_t lane = n == 1 ? value : sb_spv_extract(b, sb_spv_t_u32(ctx), value, k);
        k++;
        if (texels != UINT32_MAX) {
            if (!sb_spv_texel_memory_store(ctx, texels, memory, dword_at(ctx, base, i), lane))
                return ctx->result;
            continue;
        }
        uint32_t ptr = sb_spv_memory_dword_pointer(ctx, memory, dword_at(ctx, base, i));
        if (!ptr)
            return ctx->result;
        sb_spv_store(b, ptr, lane);
    }
    return ctx->result;
}

enum sb_result sb_spv_uav_access(struct sb_spv_context *ctx, const struct sb_ir_instruction *inst)
{
    switch (inst->op) {
    case SB_IR_OP_LD_UAV_TYPED:
    case SB_IR_OP_STORE_UAV_TYPED: return emit_typed(ctx, inst);
    case SB_IR_OP_LD_RAW:
    case SB_IR_OP_LD_STRUCTURED: return emit_memory_load(ctx, inst);
    case SB_IR_OP_STORE_RAW:
    case SB_IR_OP_STORE_STRUCTURED: return emit_memory_store(ctx, inst);
    default: return SB_ERROR_TRANSLATE_UNSUPPORTED;
    }
}
