/* SPDX-License-Identifier: MIT */
/*
 * 64-bit atomics of the SPIR-V back end: imm_atomic64_* on raw and structured u#
 * (IR.md §Resources; DXIL SM 6.6 Int64 atomics).
 *
 * A raw/structured register is a StorageBuffer `uint[]` (spirv_uav_decl.c), and an atomic
 * needs a pointer to the whole 64-bit word, so the atomic goes through a second variable on
 * the same descriptor: a Block of `uint64_t[]` (ArrayStride 8), both variables decorated
 * Aliased, as the vector views do (spirv_uav_vector.c). The element is the byte address
 * shifted right by 3 (D3D requires 8-byte alignment; the front end refuses strides that
 * break it). The module declares Int64 and Int64Atomics, which the runtime checks against
 * shaderBufferInt64Atomics before creating the module (runtime/src/vulkan/vk_capability.c).
 *
 * Scope Device, semantics relaxed (D3D atomics order nothing; `sync` supplies barriers).
 * cmp_exch compares with src[1] and stores src[2]. The old value goes to dst[0] (a pair) or
 * nowhere (the null register).
 *
 * Refused: UAV ranges (the view would be an array of blocks), registers bound as texel
 * buffers (no StorageBuffer to alias) and text targets (SPIRV-Cross would write two buffers
 * on one register).
 */
#include "spirv_private.h"

/* The SPIR-V opcode of each 64-bit atomic, by op - SB_IR_OP_IMM_ATOMIC64_IADD. */
static const SpvOp atomic64_ops[] = {
    SpvOpAtomicIAdd, SpvOpAtomicAnd,  SpvOpAtomicOr,   SpvOpAtomicXor,      SpvOpAtomicSMax,
    SpvOpAtomicSMin, SpvOpAtomicUMax, SpvOpAtomicUMin, SpvOpAtomicExchange, SpvOpAtomicCompareExchange,
};

/* The Block struct { uint64_t[] } shared by every register's 64-bit view. */
static uint32_t view_block(struct sb_spv_context *ctx)
{
    struct sb_spv_builder *b = &ctx->builder;
    struct sb_spv_resource_state *st = sb_spv_resource_state(ctx);
    if (st->int64_block)
        return st->int64_block;
    uint32_t rta = sb_spv_type_runtime_array_unique(b, sb_spv_t_u64vec(ctx, 1));
    sb_spv_decorate1(b, rta, SpvDecorationArrayStride, 8);
    uint32_t block = sb_spv_type_struct_unique(b, &rta, 1);
    uint32_t zero = 0;
    sb_spv_decorate(b, block, SpvDecorationBlock, NULL, 0);
    sb_spv_member_decorate(b, block, 0, SpvDecorationOffset, &zero, 1);
    st->int64_block = block;
    return block;
}

/* The 64-bit view variable of resource `index`, declared on first use. */
static uint32_t view_variable(struct sb_spv_context *ctx, uint32_t index)
{
    struct sb_spv_resource_info *info = &sb_spv_resource_state(ctx)->info[index];
    if (!info->int64_var)
        info->int64_var = sb_spv_memory_alias_variable(ctx, index, view_block(ctx));
    return info->int64_var;
}

/* Pointer to the 64-bit word the atomic works on. */
static uint32_t atomic64_pointer(struct sb_spv_context *ctx, const struct sb_ir_instruction *inst)
{
    struct sb_spv_builder *b = &ctx->builder;
    const struct sb_ir_operand *memory = &inst->dst[1];
    uint32_t index = sb_spv_resource_index(ctx, memory, SB_IR_RESOURCE_UAV);
    if (index == UINT32_MAX)
        return 0;
    const struct sb_ir_resource *r = &ctx->program->resources[index];
    const char *why = r->kind != SB_IR_RESOURCE_KIND_RAW && r->kind != SB_IR_RESOURCE_KIND_STRUCTURED
                          ? "a typed UAV"
                      : r->count != 1 || ctx->resources[index].arrayed ? "a UAV range"
                      : sb_spv_texel_memory_index(ctx, memory) != UINT32_MAX
                          ? "a buffer bound as a texel buffer"
                      : sb_spv_for_text_target(ctx) ? "a text target"
                                                    : NULL;
    if (why) {
        sb_spv_fail(ctx, SB_ERROR_TRANSLATE_UNSUPPORTED, inst, "a 64-bit atomic on %s (u%u)", why,
                    r->id);
        return 0;
    }
    uint32_t u32 = sb_spv_t_u32(ctx), bytes;
    if (r->kind == SB_IR_RESOURCE_KIND_STRUCTURED) {
        uint32_t xy = sb_spv_load_src_n(ctx, &inst->src[0], 2, SB_IR_TYPE_UINT);
        if (!xy)
            return 0;
        bytes = sb_spv_op2(b, SpvOpIAdd, u32,
                           sb_spv_op2(b, SpvOpIMul, u32, sb_spv_extract(b, u32, xy, 0),
                                      sb_spv_uint(ctx, r->stride)),
                           sb_spv_extract(b, u32, xy, 1));
    } else {
        bytes = sb_spv_load_scalar(ctx, &inst->src[0], SB_IR_TYPE_UINT);
        if (!bytes)
            return 0;
    }
    uint32_t var = view_variable(ctx, index);
    if (!var)
        return 0;
    uint32_t idx[2] = { sb_spv_uint(ctx, 0),
                        sb_spv_op2(b, SpvOpShiftRightLogical, u32, bytes, sb_spv_uint(ctx, 3)) };
    return sb_spv_access_chain(
        b, sb_spv_type_pointer(b, SpvStorageClassStorageBuffer, sb_spv_t_u64vec(ctx, 1)), var, idx, 2);
}

enum sb_result sb_spv_atomic64(struct sb_spv_context *ctx, const struct sb_ir_instruction *inst)
{
    if (!sb_ir_op_is_atomic64(inst->op))
        return SB_ERROR_TRANSLATE_UNSUPPORTED;
    struct sb_spv_builder *b = &ctx->builder;
    bool compare = inst->op == SB_IR_OP_IMM_ATOMIC64_CMP_EXCH;
    if (inst->dst_count < 2 || inst->src_count < (compare ? 3u : 2u))
        return sb_spv_fail(ctx, SB_ERROR_TRANSLATE_INVALID, inst, "%s has too few operands",
                           sb_ir_op_name(inst->op));
    uint32_t ptr = atomic64_pointer(ctx, inst);
    uint32_t value = ptr ? sb_spv_load_src_int64(ctx, &inst->src[compare ? 2 : 1], 1) : 0;
    uint32_t comparator = compare && value ? sb_spv_load_src_int64(ctx, &inst->src[1], 1) : 0;
    if (!value || (compare && !comparator))
        return ctx->result;
    sb_spv_capability(b, SpvCapabilityInt64Atomics);
    uint32_t relaxed = sb_spv_uint(ctx, 0);
    uint32_t words[6], n = 0;
    words[n++] = ptr;
    words[n++] = sb_spv_uint(ctx, SpvScopeDevice);
    words[n++] = relaxed;
    if (compare)
        words[n++] = relaxed;
    words[n++] = value;
    if (compare)
        words[n++] = comparator;
    uint32_t old = sb_spv_op_result(b, atomic64_ops[inst->op - SB_IR_OP_IMM_ATOMIC64_IADD],
                                    sb_spv_t_u64vec(ctx, 1), words, n);
    sb_spv_store_dst_double(ctx, inst, &inst->dst[0], old, 1);
    return ctx->result;
}
