/* SPDX-License-Identifier: MIT */
/*
 * Constant buffers of the SPIR-V back end: each cb# (SM5.1: each range) is a
 * Uniform block `struct { vec4 c[n]; }` (Block, Offset 0, ArrayStride 16)
 * at the set/binding the binding step chose (translate.h), an array of such
 * blocks for an SM5.1 range of several registers. Reads index the vec4 array
 * directly, so dynamically indexed buffers (cb0[r0.x + 3]) need nothing
 * special. n is the declared size, raised to cover every constant index the
 * program uses so that no static access is out of bounds.
 *
 * With -g, a buffer that is never indexed dynamically is declared instead as
 * `struct { vec4 m0; vec4 m1; ... }` (Offset 16 * i: the same memory layout)
 * whose members are named after the RDEF variables that live in each vector
 * (sb_ir_resource::cb_variables, recorded by the front end from the container)
 * ("World", "World_1" for its second vector...), so debuggers show names.
 */
#include "spirv_private.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>


uint32_t sb_spv_find_resource(const struct sb_spv_context *ctx, uint32_t resource_class, uint32_t id)
{
    const struct sb_ir_program *p = ctx->program;
    for (uint32_t i = 0; i < p->resource_count; i++)
        if (p->resources[i].resource_class == resource_class && p->resources[i].id == id)
            return i;
    return UINT32_MAX;
}

/* Vectors each cb needs: max(declared, largest constant index + 1). */
static void used_sizes(const struct sb_spv_context *ctx, uint32_t *sizes)
{
    const struct sb_ir_program *p = ctx->program;
    for (uint32_t f = 0; f < p->function_count; f++)
        for (uint32_t i = 0; i < p->functions[f].instruction_count; i++) {
            const struct sb_ir_instruction *inst = &p->functions[f].instructions[i];
            for (uint32_t s = 0; s < inst->src_count; s++) {
                const struct sb_ir_operand *op = &inst->src[s];
                if (op->file != SB_IR_FILE_CONSTANT_BUFFER || op->index_count < 2)
                    continue;
                const struct sb_ir_index *vec = &op->index[sb_spv_cb_sm51_form(op) ? 2 : 1];
                uint32_t r = sb_spv_find_resource(ctx, SB_IR_RESOURCE_CBV, op->index[0].offset);
                if (r != UINT32_MAX && vec->offset < 4096 && sizes[r] < vec->offset + 1)
                    sizes[r] = vec->offset + 1;
            }
        }
}

/* Member name of vector `v`: the variable starting in it, or the one covering it + "_k". */
static void member_name(const struct sb_ir_resource *cb, uint32_t v, char *out, size_t size)
{
    snprintf(out, size, "c%u", v);
    for (uint32_t i = 0; i < cb->cb_variable_count; i++) {
        const struct sb_ir_cb_variable *var = &cb->cb_variables[i];
        uint32_t first = var->start_offset / 16, last = (var->start_offset + (var->size ? var->size : 1) - 1) / 16;
        if (v < first || v > last)
            continue;
        if (v == first)
            snprintf(out, size, "%s", var->name);
        else
            snprintf(out, size, "%s_%u", var->name, v - first);
        return;
    }
}

/* -g form: a struct of n named vec4 members. Returns the block type. */
static uint32_t member_block(struct sb_spv_context *ctx, const struct sb_ir_resource *cb, uint32_t n)
{
    struct sb_spv_builder *b = &ctx->builder;
    uint32_t *members = sb_arena_alloc_uninit(ctx->scratch, n, sizeof(*members));
    if (!members) {
        sb_spv_fail(ctx, SB_ERROR_OUT_OF_MEMORY, NULL, "out of memory");
        return 0;
    }
    for (uint32_t v = 0; v < n; v++)
        members[v] = sb_spv_t_fvec(ctx, 4);
    uint32_t block = sb_spv_type_struct_unique(b, members, n);
    for (uint32_t v = 0; v < n; v++) {
        char name[96];
        const uint32_t offset = 16 * v;
        sb_spv_member_decorate(b, block, v, SpvDecorationOffset, &offset, 1);
        member_name(cb, v, name, sizeof(name));
        sb_spv_member_name(b, block, v, name);
    }
    return block;
}

enum sb_result sb_spv_cbuffer_declare(struct sb_spv_context *ctx)
{
    const struct sb_ir_program *p = ctx->program;
    struct sb_spv_builder *b = &ctx->builder;
    uint32_t *sizes = sb_spv_zalloc(ctx, p->resource_count ? p->resource_count : 1, sizeof(uint32_t));
    if (!sizes)
        return sb_spv_fail(ctx, SB_ERROR_OUT_OF_MEMORY, NULL, "out of memory");
    bool scan = !ctx->cb_scanned;
    for (uint32_t i = 0; i < p->resource_count; i++) {
        const struct sb_ir_resource *res = &p->resources[i];
        sizes[i] = res->cb_size;
        if (res->resource_class != SB_IR_RESOURCE_CBV)
            continue;
        if (res->id >= 64)
            scan = true;
        else if (ctx->cb_scanned && ctx->cb_used[res->id] > sizes[i])
            sizes[i] = ctx->cb_used[res->id];
    }
    if (scan)
        used_sizes(ctx, sizes);
    for (uint32_t i = 0; i < p->resource_count; i++) {
        const struct sb_ir_resource *res = &p->resources[i];
        if (res->resource_class != SB_IR_RESOURCE_CBV)
            continue;
        uint32_t n = sizes[i] ? sizes[i] : 1;
        if (n > 4096)
            n = 4096;
        b->origin = res->offset; /* what RuntimeDescriptorArray is reported against */
        struct sb_spv_resource *out = &ctx->resources[i];
        /* Class linkage (interfaces) may read any cb# with a relative vector: array form. */
        bool named = ctx->debug_info && res->count == 1 && !res->cb_dynamic_indexed &&
                     ctx->cb_scanned && res->id < 64 && !ctx->cb_relative[res->id] &&
                     !p->interface_count && res->cb_described;
        uint32_t block;
        if (named) {
            block = member_block(ctx, res, n);
            out->members = true;
        } else {
            uint32_t array = sb_spv_type_array_unique(b, sb_spv_t_fvec(ctx, 4), n);
            sb_spv_decorate1(b, array, SpvDecorationArrayStride, 16);
            block = sb_spv_type_struct_unique(b, &array, 1);
            sb_spv_member_decorate(b, block, 0, SpvDecorationOffset, (const uint32_t[]){ 0 }, 1);
        }
        sb_spv_decorate(b, block, SpvDecorationBlock, NULL, 0);
        out->type = block;
        out->element_type = sb_spv_t_fvec(ctx, 4);
        if (res->count > 1 && res->count != 0xFFFFFFFFu) {
            out->type = sb_spv_type_array(b, block, res->count);
            out->arrayed = true;
        } else if (res->count == 0xFFFFFFFFu) {
            out->type = sb_spv_type_runtime_array_unique(b, block);
            out->arrayed = true;
            sb_spv_capability(b, SpvCapabilityRuntimeDescriptorArray);
            if (ctx->spirv_version < 0x00010500)
                sb_spv_extension(b, "SPV_EXT_descriptor_indexing");
        }
        out->pointer_type = sb_spv_type_pointer(b, SpvStorageClassUniform, out->type);
        out->var = sb_spv_variable_global(b, out->pointer_type, SpvStorageClassUniform, 0);
        sb_spv_decorate1(b, out->var, SpvDecorationDescriptorSet, res->set);
        sb_spv_decorate1(b, out->var, SpvDecorationBinding, res->binding);
        if (ctx->debug_info) {
            char name[32];
            snprintf(name, sizeof(name), "cb%u", res->id);
            sb_spv_debug_name(ctx, out->var, name);
            sb_spv_debug_name(ctx, block, res->name ? res->name : name);
            if (!out->members)
                sb_spv_member_name(b, block, 0, "c");
        }
    }
    b->origin = SB_SPV_NO_ORIGIN;
    return ctx->result;
}
