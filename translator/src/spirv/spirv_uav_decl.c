/* SPDX-License-Identifier: MIT */
/*
 * Declarations of untyped memory for the SPIR-V back end:
 *   raw and structured t#/u# -> StorageBuffer `struct { uint data[]; }`
 *       (Block, ArrayStride 4; STORAGE_BUFFER descriptors). D3D addresses
 *       them in bytes (raw) or structure index + byte offset (structured);
 *       both become a DWORD index, so one uint array serves every stride.
 *       SRVs are NonWritable; `globallycoherent` UAVs Coherent.
 *   the append/consume counter of a UAV -> its own StorageBuffer
 *       `struct { uint count; }` at counter_binding in the UAV's set.
 *   g# -> a Workgroup `uint[n]` array, n = the DWORDs the declaration
 *       allocates (raw: its DWORD count; structured: count * stride / 4).
 * Before SPIR-V 1.3 the StorageBuffer class needs
 * SPV_KHR_storage_buffer_storage_class (Vulkan 1.0 targets). A raw/structured
 * register the binding step made a texel buffer (sb_ir_resource::texel_memory) is
 * declared by spirv_texel_memory.c instead; its counter is still declared here.
 */
#include "spirv_private.h"

#include <stdio.h>

#include "translator/sm4.h"

/* A Block struct of `member` at offset 0 (the uint[] of buffers, the uint of counters). */
static uint32_t block_struct(struct sb_spv_context *ctx, uint32_t member)
{
    struct sb_spv_builder *b = &ctx->builder;
    uint32_t s = sb_spv_type_struct_unique(b, &member, 1);
    uint32_t zero = 0;
    sb_spv_decorate(b, s, SpvDecorationBlock, NULL, 0);
    sb_spv_member_decorate(b, s, 0, SpvDecorationOffset, &zero, 1);
    return s;
}

/* The buffer block type, created once and shared by every raw/structured resource. */
static uint32_t buffer_block(struct sb_spv_context *ctx, uint32_t index)
{
    struct sb_spv_resource_state *st = sb_spv_resource_state(ctx);
    for (uint32_t i = 0; i < index; i++)
        if (st->info[i].block_type)
            return st->info[i].block_type;
    uint32_t rta = sb_spv_type_runtime_array_unique(&ctx->builder, sb_spv_t_u32(ctx));
    sb_spv_decorate1(&ctx->builder, rta, SpvDecorationArrayStride, 4);
    return block_struct(ctx, rta);
}

/* The counter block type, shared like buffer_block. */
static uint32_t counter_block(struct sb_spv_context *ctx, uint32_t index)
{
    struct sb_spv_resource_state *st = sb_spv_resource_state(ctx);
    for (uint32_t i = 0; i < index; i++)
        if (st->info[i].counter_type)
            return st->info[i].counter_type;
    return block_struct(ctx, sb_spv_t_u32(ctx));
}

/* Array of `count` blocks for SM5.1 ranges (a runtime array when unbounded). */
static uint32_t block_range(struct sb_spv_context *ctx, uint32_t block, uint32_t count)
{
    if (count == 1)
        return block;
    if (count != UINT32_MAX)
        return sb_spv_type_array(&ctx->builder, block, count);
    sb_spv_resource_need_indexing(ctx, SpvCapabilityRuntimeDescriptorArray);
    return sb_spv_type_runtime_array_unique(&ctx->builder, block);
}

static void declare_counter(struct sb_spv_context *ctx, uint32_t index)
{
    struct sb_spv_builder *b = &ctx->builder;
    const struct sb_ir_resource *r = &ctx->program->resources[index];
    struct sb_spv_resource_info *info = &sb_spv_resource_state(ctx)->info[index];
    info->counter_type = counter_block(ctx, index);
    uint32_t type = block_range(ctx, info->counter_type, r->count);
    uint32_t var = sb_spv_variable_global(b, sb_spv_type_pointer(b, SpvStorageClassStorageBuffer, type),
                                          SpvStorageClassStorageBuffer, 0);
    sb_spv_decorate1(b, var, SpvDecorationDescriptorSet, r->set);
    sb_spv_decorate1(b, var, SpvDecorationBinding, r->counter_binding);
    sb_spv_debug_name(ctx, var, "uav_counter");
    ctx->resources[index].counter_var = var;
}

/* The StorageBuffer variable of a raw/structured t#/u#: a uint[] block (or an array of them). */
static void declare_block(struct sb_spv_context *ctx, uint32_t index)
{
    struct sb_spv_builder *b = &ctx->builder;
    const struct sb_ir_resource *r = &ctx->program->resources[index];
    struct sb_spv_resource *out = &ctx->resources[index];
    struct sb_spv_resource_info *info = &sb_spv_resource_state(ctx)->info[index];
    bool uav = r->resource_class == SB_IR_RESOURCE_UAV;
    sb_spv_resource_need_storage_buffer(ctx);
    info->dimension = r->kind == SB_IR_RESOURCE_KIND_RAW ? 11 : 12;
    info->value_type = SB_IR_TYPE_UINT;
    info->block_type = buffer_block(ctx, index);
    info->element_pointer = sb_spv_type_pointer(b, SpvStorageClassStorageBuffer, info->block_type);
    out->element_type = sb_spv_t_u32(ctx);
    out->type = block_range(ctx, info->block_type, r->count);
    out->arrayed = r->count != 1;
    out->pointer_type = sb_spv_type_pointer(b, SpvStorageClassStorageBuffer, out->type);
    out->var = sb_spv_variable_global(b, out->pointer_type, SpvStorageClassStorageBuffer, 0);
    sb_spv_decorate1(b, out->var, SpvDecorationDescriptorSet, r->set);
    sb_spv_decorate1(b, out->var, SpvDecorationBinding, r->binding);
    if (!uav)
        sb_spv_decorate(b, out->var, SpvDecorationNonWritable, NULL, 0);
    else if (r->uav_flags & SB_SM4_UAV_GLOBALLY_COHERENT)
        sb_spv_decorate(b, out->var, SpvDecorationCoherent, NULL, 0);
    if (r->name)
        sb_spv_debug_name(ctx, out->var, r->name);
}

enum sb_result sb_spv_uav_declare_memory(struct sb_spv_context *ctx, uint32_t index)
{
    const struct sb_ir_resource *r = &ctx->program->resources[index];
    struct sb_spv_resource_info *info = &sb_spv_resource_state(ctx)->info[index];
    bool uav = r->resource_class == SB_IR_RESOURCE_UAV;
    if (r->kind == SB_IR_RESOURCE_KIND_STRUCTURED && (r->stride == 0 || r->stride % 4u))
        return sb_spv_fail(ctx, SB_ERROR_TRANSLATE_INVALID, NULL,
                           "structured resource %u has stride %u (not a positive multiple of 4)",
                           r->id, r->stride);
    if (r->texel_memory)
        sb_spv_texel_memory_declare(ctx, index); /* a device with few storage buffers */
    else
        declare_block(ctx, index);
    if (uav && (r->has_counter || (info->uses & SB_SPV_USE_COUNTER))) {
        if (!r->has_counter)
            return sb_spv_fail(ctx, SB_ERROR_TRANSLATE_INVALID, NULL,
                               "u%u is used by imm_atomic_alloc/consume but has no counter "
                               "binding (sb_ir_resource::has_counter is false)", r->id);
        declare_counter(ctx, index);
    }
    return SB_SUCCESS;
}

enum sb_result sb_spv_uav_declare_group_shared(struct sb_spv_context *ctx)
{
    struct sb_spv_builder *b = &ctx->builder;
    const struct sb_ir_program *p = ctx->program;
    struct sb_spv_resource_state *st = sb_spv_resource_state(ctx);
    if (p->group_shared_count && p->stage != SB_IR_STAGE_COMPUTE && p->stage != SB_IR_STAGE_MESH &&
        p->stage != SB_IR_STAGE_AMPLIFICATION)
        return sb_spv_fail(ctx, SB_ERROR_TRANSLATE_INVALID, NULL,
                           "group-shared memory declared outside a compute, mesh or amplification shader");
    for (uint32_t i = 0; i < p->group_shared_count; i++) {
        const struct sb_ir_group_shared *g = &p->group_shared[i];
        uint64_t dwords = g->structured ? (uint64_t)g->count * g->stride / 4u : g->count;
        /* D3D allows 32 KiB of group-shared memory in all. */
        if (dwords == 0 || dwords > 8192u || (g->structured && g->stride % 4u))
            return sb_spv_fail(ctx, SB_ERROR_TRANSLATE_INVALID, NULL,
                               "g%u: %llu DWORDs (stride %u) is not a valid allocation", g->id,
                               (unsigned long long)dwords, g->stride);
        st->group_shared_dwords[i] = (uint32_t)dwords;
        uint32_t type = sb_spv_type_array(b, sb_spv_t_u32(ctx), (uint32_t)dwords);
        SpvStorageClass sc = sb_spv_group_shared_class(g);
        if (g->task_payload && p->stage != SB_IR_STAGE_MESH && p->stage != SB_IR_STAGE_AMPLIFICATION)
            return sb_spv_fail(ctx, SB_ERROR_TRANSLATE_INVALID, NULL,
                               "g%u is a task payload outside a mesh or amplification shader", g->id);
        ctx->group_shared_vars[i] = sb_spv_variable_global(b, sb_spv_type_pointer(b, sc, type), sc, 0);
        if (ctx->debug_info) {
            char name[24];
            snprintf(name, sizeof(name), "g%u", g->id);
            sb_spv_debug_name(ctx, ctx->group_shared_vars[i], name);
        }
    }
    return SB_SUCCESS;
}
