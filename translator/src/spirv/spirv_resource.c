/* SPDX-License-Identifier: MIT */
/*
 * The resource part of the SPIR-V back end (t#, s#, u#, g#, atomics, sync):
 * the three hooks of spirv_private.h. Declaration walks program->resources
 * and hands each class to its file (spirv_texture_decl.c for images and
 * samplers, spirv_uav_decl.c for raw/structured buffers, counters and g#);
 * instructions go to the group that owns them (the descriptor types they
 * declare are those of sb_spv_descriptor_type, spirv_resource_util.c). Also here:
 * `sync`, and check_access_fully_mapped, whose lowering fits the residency
 * status the resource ops write (always "resident": no sparse residency is
 * used, so the module runs on devices without sparseResidency*, lavapipe
 * included).
 */
#include "spirv_private.h"

#include <stdlib.h>

#include "translator/sm4.h"

bool sb_spv_resource_needs_counter(const struct sb_ir_program *p, uint32_t uav_id)
{
    for (uint32_t f = 0; f < p->function_count; f++)
        for (uint32_t i = 0; i < p->functions[f].instruction_count; i++) {
            const struct sb_ir_instruction *in = &p->functions[f].instructions[i];
            if ((in->op == SB_IR_OP_IMM_ATOMIC_ALLOC || in->op == SB_IR_OP_IMM_ATOMIC_CONSUME) &&
                in->dst_count >= 2 && in->dst[1].file == SB_IR_FILE_UAV &&
                in->dst[1].index_count && in->dst[1].index[0].offset == uav_id)
                return true;
        }
    return false;
}

/* The u# operand an instruction uses as memory, with the SB_SPV_USE_* bit it implies. */
static const struct sb_ir_operand *uav_use(const struct sb_ir_instruction *in, uint32_t *use)
{
    if (in->op == SB_IR_OP_LD_UAV_TYPED || in->op == SB_IR_OP_LD_UAV_TYPED_MS) {
        *use = SB_SPV_USE_READ;
        return in->src_count >= 2 ? &in->src[1] : NULL;
    }
    if (in->op == SB_IR_OP_IMM_ATOMIC_ALLOC || in->op == SB_IR_OP_IMM_ATOMIC_CONSUME) {
        *use = SB_SPV_USE_COUNTER;
        return in->dst_count >= 2 ? &in->dst[1] : NULL;
    }
    if (in->op >= SB_IR_OP_ATOMIC_AND && in->op <= SB_IR_OP_IMM_ATOMIC_UMIN) {
        uint32_t slot = in->op >= SB_IR_OP_IMM_ATOMIC_ALLOC ? 1 : 0;
        *use = SB_SPV_USE_ATOMIC;
        return in->dst_count > slot ? &in->dst[slot] : NULL;
    }
    return NULL;
}

/* One pass over the program: how each u# is used (formats and counters depend on it). */
static void scan_uses(struct sb_spv_context *ctx)
{
    const struct sb_ir_program *p = ctx->program;
    struct sb_spv_resource_info *info = sb_spv_resource_state(ctx)->info;
    for (uint32_t f = 0; f < p->function_count; f++)
        for (uint32_t i = 0; i < p->functions[f].instruction_count; i++) {
            uint32_t use = 0;
            const struct sb_ir_operand *op = uav_use(&p->functions[f].instructions[i], &use);
            if (!op || op->file != SB_IR_FILE_UAV || !op->index_count)
                continue;
            for (uint32_t r = 0; r < p->resource_count; r++)
                if (p->resources[r].resource_class == SB_IR_RESOURCE_UAV &&
                    p->resources[r].id == op->index[0].offset) {
                    info[r].uses |= use;
                    if (use == SB_SPV_USE_READ && !info[r].first_read)
                        info[r].first_read = &p->functions[f].instructions[i];
                }
        }
}

enum sb_result sb_spv_resource_declare(struct sb_spv_context *ctx)
{
    const struct sb_ir_program *p = ctx->program;
    struct sb_spv_resource_state *st = sb_spv_zalloc(ctx, 1, sizeof(*st));
    if (st) {
        ctx->resource_state = st;
        st->info = sb_spv_zalloc(ctx, p->resource_count ? p->resource_count : 1, sizeof(*st->info));
        st->group_shared_dwords =
            sb_spv_zalloc(ctx, p->group_shared_count ? p->group_shared_count : 1, sizeof(uint32_t));
    }
    if (!st || !st->info || !st->group_shared_dwords)
        return sb_spv_fail(ctx, SB_ERROR_OUT_OF_MEMORY, NULL, "out of memory");
    scan_uses(ctx);
    for (uint32_t i = 0; i < p->resource_count; i++) {
        const struct sb_ir_resource *r = &p->resources[i];
        enum sb_result res = SB_SUCCESS;
        if (r->resource_class == SB_IR_RESOURCE_CBV)
            continue; /* spirv_cbuffer.c */
        if (r->count == 0)
            return sb_spv_fail(ctx, SB_ERROR_TRANSLATE_INVALID, NULL,
                               "resource range of class %u id %u is empty", r->resource_class, r->id);
        ctx->builder.origin = r->offset; /* what its capabilities are reported against */
        if (r->resource_class == SB_IR_RESOURCE_SAMPLER || r->kind == SB_IR_RESOURCE_KIND_TYPED)
            res = sb_spv_texture_declare(ctx, i);
        else
            res = sb_spv_uav_declare_memory(ctx, i);
        if (res != SB_SUCCESS)
            return res;
    }
    ctx->builder.origin = SB_SPV_NO_ORIGIN;
    return sb_spv_uav_declare_group_shared(ctx);
}

/* Is this a stage where workgroup-scope barriers are allowed (Vulkan: CS, TCS, mesh, task)? */
static bool has_workgroup(const struct sb_spv_context *ctx)
{
    uint32_t stage = ctx->program->stage;
    return stage == SB_IR_STAGE_COMPUTE || stage == SB_IR_STAGE_HULL || stage == SB_IR_STAGE_MESH ||
           stage == SB_IR_STAGE_AMPLIFICATION;
}

/*
 * sync: the thread flag makes it an execution barrier (OpControlBarrier,
 * Workgroup); the memory flags pick the storage classes made visible
 * (g# -> WorkgroupMemory, u# -> UniformMemory for buffers + ImageMemory) and
 * the scope (Device for the global UAV flag, else Workgroup). Outside CS/HS
 * Vulkan has no workgroup, so only a Device-scope UAV barrier remains.
 */
static enum sb_result emit_sync(struct sb_spv_context *ctx, const struct sb_ir_instruction *inst)
{
    struct sb_spv_builder *b = &ctx->builder;
    uint32_t flags = inst->sync_flags;
    bool group = has_workgroup(ctx);
    bool uav = (flags & (SB_SM4_SYNC_UAV_GROUP | SB_SM4_SYNC_UAV_GLOBAL)) != 0;
    uint32_t semantics = 0, scope = SpvScopeWorkgroup;
    if (uav)
        semantics |= SpvMemorySemanticsUniformMemoryMask | SpvMemorySemanticsImageMemoryMask;
    if ((flags & SB_SM4_SYNC_GROUP_SHARED_MEMORY) && group)
        semantics |= SpvMemorySemanticsWorkgroupMemoryMask;
    if ((flags & SB_SM4_SYNC_UAV_GLOBAL) || (uav && !group))
        scope = SpvScopeDevice;
    if (semantics)
        semantics |= SpvMemorySemanticsAcquireReleaseMask;
    if ((flags & SB_SM4_SYNC_THREADS_IN_GROUP) && group) {
        uint32_t ops[3] = { sb_spv_uint(ctx, SpvScopeWorkgroup), sb_spv_uint(ctx, scope),
                            sb_spv_uint(ctx, semantics) };
        sb_spv_op(b, SpvOpControlBarrier, ops, 3);
    } else if (semantics) {
        uint32_t ops[2] = { sb_spv_uint(ctx, scope), sb_spv_uint(ctx, semantics) };
        sb_spv_op(b, SpvOpMemoryBarrier, ops, 2);
    }
    return SB_SUCCESS;
}

/* status == 0 per lane (sb_spv_store_status writes 0 = fully mapped). */
static enum sb_result emit_check_mapped(struct sb_spv_context *ctx,
                                        const struct sb_ir_instruction *inst)
{
    if (inst->dst_count < 1 || inst->src_count < 1)
        return sb_spv_fail(ctx, SB_ERROR_TRANSLATE_INVALID, inst,
                           "check_access_fully_mapped needs a destination and a status source");
    uint32_t n = sb_spv_mask_count(inst->dst[0].mask);
    if (!n)
        return SB_SUCCESS;
    uint32_t status = sb_spv_load_src(ctx, &inst->src[0], inst->dst[0].mask, SB_IR_TYPE_UINT);
    if (!status)
        return ctx->result;
    uint32_t mapped = sb_spv_op2(&ctx->builder, SpvOpIEqual, sb_spv_t_bvec(ctx, n), status,
                                 sb_spv_const_of(ctx, SB_IR_TYPE_UINT, n, 0));
    return sb_spv_store_dst(ctx, inst, &inst->dst[0], mapped, SB_IR_TYPE_BOOL) ? SB_SUCCESS
                                                                               : ctx->result;
}

enum sb_result sb_spv_resource_instruction(struct sb_spv_context *ctx,
                                           const struct sb_ir_instruction *inst)
{
    typedef enum sb_result (*group_fn)(struct sb_spv_context *, const struct sb_ir_instruction *);
    static const group_fn groups[] = {
        sb_spv_texture_sample, sb_spv_texture_fetch, sb_spv_texture_query,
        sb_spv_uav_access, sb_spv_uav_atomic, sb_spv_uav_ms, sb_spv_atomic64,
    };
    if (inst->op == SB_IR_OP_SYNC)
        return emit_sync(ctx, inst);
    if (inst->op == SB_IR_OP_CHECK_ACCESS_FULLY_MAPPED)
        return emit_check_mapped(ctx, inst);
    if (!ctx->resource_state)
        return SB_ERROR_TRANSLATE_UNSUPPORTED;
    for (size_t g = 0; g < sizeof(groups) / sizeof(groups[0]); g++) {
        enum sb_result r = groups[g](ctx, inst);
        if (r != SB_ERROR_TRANSLATE_UNSUPPORTED || ctx->result != SB_SUCCESS)
            return r;
    }
    return SB_ERROR_TRANSLATE_UNSUPPORTED;
}
