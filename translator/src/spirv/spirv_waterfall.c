/* SPDX-License-Identifier: MIT */
/*
 * Non-uniform resource indexing on devices without the descriptor-indexing
 * features (sb_device_profile, translate.h; translator/README.md "Device
 * fallbacks"): a "waterfall" loop that makes every index it hands the access
 * dynamically uniform.
 *
 * Why a loop: SM5.1 `NonUniformResourceIndex` lets invocations of one draw or
 * dispatch pick different descriptors of a range; SPIR-V expresses that with
 * the NonUniform decoration, which a device may only consume with
 * shader{SampledImage,StorageImage,StorageBuffer,...}ArrayNonUniformIndexing.
 * Without it the index must be dynamically uniform. The loop below walks the
 * range's descriptor numbers with a counter every invocation shares, and an
 * invocation runs the instruction in the iteration whose counter equals its
 * own index, with the counter as the index:
 *
 *     idx = <the operand's index>                 (per invocation)
 *     for (i = 0; i < count; i++)                 (uniform: the same for all)
 *         if (idx == i) { <instruction, with t[i] / u[i] / s[i]> }
 *
 * so each invocation runs it exactly once, whatever the pattern of indices
 * (an index outside the range never matches: D3D leaves such an access
 * undefined). No subgroup operation is needed, so it runs on every Vulkan 1.0
 * device and in every stage; the price is `count` iterations per access, so
 * it needs a sized range (an unbounded one translated as a fixed array,
 * sb_translate_options::unbounded_descriptor_count). An instruction with two
 * such operands (texture and sampler) gets one loop inside the other.
 * Implicit-LOD samples inside the loop take derivatives in non-uniform control
 * flow, which Vulkan leaves undefined; devices compute them across the quad.
 */
#include "spirv_private.h"

/* Is the feature for non-uniform indexing of `r`'s descriptor type missing? */
static bool lacks_non_uniform(const struct sb_spv_context *ctx, const struct sb_ir_resource *r)
{
    const struct sb_device_profile *d = &ctx->options->device;
    if (!d->described)
        return false;
    switch (sb_spv_descriptor_type(r)) {
    case 0: case 2: return !d->sampled_image_array_non_uniform_indexing;  /* SAMPLER, SAMPLED_IMAGE */
    case 3: return !d->storage_image_array_non_uniform_indexing;          /* STORAGE_IMAGE */
    case 4: return !d->uniform_texel_buffer_array_non_uniform_indexing;   /* UNIFORM_TEXEL_BUFFER */
    case 5: return !d->storage_texel_buffer_array_non_uniform_indexing;   /* STORAGE_TEXEL_BUFFER */
    case 7: return !d->storage_buffer_array_non_uniform_indexing;         /* STORAGE_BUFFER */
    default: return false; /* cb# ranges are not covered: the decoration stays */
    }
}

/* The declaration (resources index) of a non-uniformly indexed range operand the device
 * cannot index so; UINT32_MAX otherwise. */
static uint32_t waterfall_resource(const struct sb_spv_context *ctx, const struct sb_ir_operand *op)
{
    uint32_t cls = sb_spv_resource_class_of_file(op->file);
    if (!op->non_uniform || cls == UINT32_MAX || op->index_count < 2)
        return UINT32_MAX;
    const struct sb_ir_program *p = ctx->program;
    for (uint32_t i = 0; i < p->resource_count; i++)
        if (p->resources[i].resource_class == cls && p->resources[i].id == op->index[0].offset)
            return p->resources[i].count != 1 && lacks_non_uniform(ctx, &p->resources[i]) ? i : UINT32_MAX;
    return UINT32_MAX;
}

/* Collects the operands of `inst` that need a loop (at most one per range). */
static uint32_t collect(struct sb_spv_context *ctx, const struct sb_ir_instruction *inst,
                        const struct sb_ir_operand **ops, uint32_t *decls)
{
    uint32_t n = 0;
    for (uint32_t k = 0; k < inst->dst_count + inst->src_count; k++) {
        const struct sb_ir_operand *op = k < inst->dst_count ? &inst->dst[k] : &inst->src[k - inst->dst_count];
        uint32_t decl = waterfall_resource(ctx, op);
        bool seen = false;
        for (uint32_t j = 0; j < n; j++)
            seen |= ops[j]->file == op->file && ops[j]->index[0].offset == op->index[0].offset;
        if (decl == UINT32_MAX || seen || n == SB_SPV_WATERFALL_LEVELS)
            continue;
        ops[n] = op;
        decls[n++] = decl;
    }
    return n;
}

bool sb_spv_waterfall_needed(struct sb_spv_context *ctx, const struct sb_ir_instruction *inst)
{
    const struct sb_ir_operand *ops[SB_SPV_WATERFALL_LEVELS];
    uint32_t decls[SB_SPV_WATERFALL_LEVELS];
    return ctx->waterfall.count == 0 && collect(ctx, inst, ops, decls) != 0;
}

/* The labels of one open loop level. */
struct level {
    uint32_t counter;        /* Function uint variable */
    uint32_t header, body, merge, continue_block, hit_merge;
};

enum sb_result sb_spv_waterfall_emit(struct sb_spv_context *ctx, const struct sb_ir_instruction *inst,
                                     enum sb_result (*emit)(struct sb_spv_context *ctx,
                                                            const struct sb_ir_instruction *inst))
{
    struct sb_spv_builder *b = &ctx->builder;
    const struct sb_ir_operand *ops[SB_SPV_WATERFALL_LEVELS];
    uint32_t decls[SB_SPV_WATERFALL_LEVELS];
    uint32_t n = collect(ctx, inst, ops, decls);
    struct level levels[SB_SPV_WATERFALL_LEVELS];
    uint32_t ptr_u32 = sb_spv_type_pointer(b, SpvStorageClassFunction, sb_spv_t_u32(ctx));
    uint32_t bool_type = sb_spv_type_bool(b);
    /* Every index is computed once, before any loop, where it dominates them all. */
    uint32_t index[SB_SPV_WATERFALL_LEVELS];
    for (uint32_t k = 0; k < n; k++) {
        uint32_t count = ctx->program->resources[decls[k]].count;
        if (count == UINT32_MAX)
            return sb_spv_fail(ctx, SB_ERROR_TRANSLATE_UNSUPPORTED, inst,
                               "a non-uniform index into the unbounded range %u needs the device's "
                               "non-uniform indexing feature or a fixed descriptor count "
                               "(unbounded_descriptor_count)", ops[k]->index[0].offset);
        if (!(index[k] = sb_spv_resource_array_index(ctx, decls[k], ops[k])))
            return ctx->result;
    }
    for (uint32_t k = 0; k < n; k++) {
        struct level *l = &levels[k];
        l->counter = sb_spv_variable_local(b, ptr_u32, 0);
        sb_spv_store(b, l->counter, sb_spv_uint(ctx, 0));
        l->header = sb_spv_id(b);
        l->body = sb_spv_id(b);
        l->merge = sb_spv_id(b);
        l->continue_block = sb_spv_id(b);
        l->hit_merge = sb_spv_id(b);
        sb_spv_branch(b, l->header);
        sb_spv_label(b, l->header);
        uint32_t i = sb_spv_load(b, sb_spv_t_u32(ctx), l->counter);
        uint32_t more = sb_spv_op2(b, SpvOpULessThan, bool_type, i,
                                   sb_spv_uint(ctx, ctx->program->resources[decls[k]].count));
        sb_spv_loop_merge(b, l->merge, l->continue_block);
        sb_spv_branch_conditional(b, more, l->body, l->merge);
        sb_spv_label(b, l->body);
        uint32_t hit_block = sb_spv_id(b);
        uint32_t hit = sb_spv_op2(b, SpvOpIEqual, bool_type, index[k], i);
        sb_spv_selection_merge(b, l->hit_merge);
        sb_spv_branch_conditional(b, hit, hit_block, l->hit_merge);
        sb_spv_label(b, hit_block);
        ctx->waterfall.levels[k].file = ops[k]->file;
        ctx->waterfall.levels[k].range = ops[k]->index[0].offset;
        ctx->waterfall.levels[k].index = i;
        ctx->waterfall.count = k + 1;
    }
    sb_spv_registers_forget(ctx); /* values loaded before the loops stay valid; new ones must not leak out */
    enum sb_result r = emit(ctx, inst);
    sb_spv_registers_forget(ctx);
    ctx->waterfall.count = 0;
    for (uint32_t k = n; k-- > 0;) {
        struct level *l = &levels[k];
        if (b->block_open)
            sb_spv_branch(b, l->hit_merge);
        sb_spv_label(b, l->hit_merge);
        sb_spv_branch(b, l->continue_block);
        sb_spv_label(b, l->continue_block);
        uint32_t i = sb_spv_load(b, sb_spv_t_u32(ctx), l->counter);
        sb_spv_store(b, l->counter, sb_spv_op2(b, SpvOpIAdd, sb_spv_t_u32(ctx), i, sb_spv_uint(ctx, 1)));
        sb_spv_branch(b, l->header);
        sb_spv_label(b, l->merge);
    }
    return r;
}
