/* SPDX-License-Identifier: MIT */
/*
 * Domain shaders in the SPIR-V back end: a TessellationEvaluation entry
 * point with the domain of dcl_tessellator_domain (../shared/docs/sm4-tokens.md §8.5;
 * spacing, winding and point mode live on the hull shader, which knows
 * them), input control points v[n][r] / vicp as arrays of the declared
 * count (the hull shader's output control points), patch constants vpc# as
 * Patch inputs at Location = register (spirv_stage_private.h) or as
 * TessLevelOuter / TessLevelInner for tess factors, and vDomain = TessCoord
 * (tri: uvw in xyz; quad and isoline: uv in xy, z = 0 as Vulkan gives it).
 * The outputs are the core's (spirv_io.c), copied once after the body.
 */
#include "spirv_stage_private.h"

enum sb_result sb_spv_ds_declare(struct sb_spv_context *ctx)
{
    const struct sb_ir_program *p = ctx->program;
    struct sb_spv_stage_state *s = sb_spv_stage_state(ctx);
    if (!s)
        return ctx->result;
    sb_spv_capability(&ctx->builder, SpvCapabilityTessellation);
    if (sb_spv_tess_domain_mode(ctx) != SB_SUCCESS)
        return ctx->result;
    s->vertices = p->input_control_points;
    uint32_t need[SB_IR_FILE_COUNT];
    sb_spv_stage_file_needs(p, need);
    uint32_t in_need = need[SB_IR_FILE_INPUT];
    uint32_t icp_need = need[SB_IR_FILE_INPUT_CONTROL_POINT];
    if (icp_need > in_need)
        in_need = icp_need;
    if (in_need && s->vertices) {
        sb_spv_register_file_declare(ctx, SB_IR_FILE_INPUT, in_need, s->vertices);
        ctx->files[SB_IR_FILE_INPUT_CONTROL_POINT] = ctx->files[SB_IR_FILE_INPUT];
    }
    uint32_t pc_need = need[SB_IR_FILE_INPUT_PATCH_CONSTANT];
    if (pc_need)
        sb_spv_register_file_declare(ctx, SB_IR_FILE_INPUT_PATCH_CONSTANT, pc_need, 0);
    if (s->vertices && sb_spv_stage_declare_role(ctx, SB_SPV_ROLE_VERTEX_IN, s->vertices) != SB_SUCCESS)
        return ctx->result;
    s->patch_location_base = sb_spv_stage_patch_location_base(p);
    return sb_spv_stage_declare_role(ctx, SB_SPV_ROLE_PATCH_IN, 0);
}

static void copy_patch_constants(struct sb_spv_context *ctx)
{
    struct sb_spv_stage_state *s = ctx->stage_state;
    const struct sb_spv_register_file *f = &ctx->files[SB_IR_FILE_INPUT_PATCH_CONSTANT];
    if (!s || !f->var)
        return;
    for (uint32_t i = 0; i < s->var_count; i++) {
        const struct sb_spv_stage_var *sv = &s->vars[i];
        if (sv->role == SB_SPV_ROLE_PATCH_IN && sv->reg < f->count)
            sb_spv_stage_copy_in(ctx, sv, 0,
                                 sb_spv_stage_register(ctx, SB_IR_FILE_INPUT_PATCH_CONSTANT, 0, sv->reg));
    }
}

/* vDomain lanes xyz = TessCoord. */
static void domain_point(struct sb_spv_context *ctx)
{
    struct sb_spv_builder *b = &ctx->builder;
    uint32_t file = ctx->files[SB_IR_FILE_DOMAIN_POINT].var;
    if (!file)
        return;
    uint32_t var = sb_spv_io_builtin(ctx, SpvStorageClassInput, SpvBuiltInTessCoord, sb_spv_t_fvec(ctx, 3));
    uint32_t coord = sb_spv_load(b, sb_spv_t_fvec(ctx, 3), var);
    uint32_t reg = sb_spv_stage_register(ctx, SB_IR_FILE_DOMAIN_POINT, 0, 0);
    uint32_t old = sb_spv_load(b, sb_spv_t_fvec(ctx, 4), reg);
    const uint32_t comps[4] = { 4, 5, 6, 3 };
    sb_spv_store(b, reg, sb_spv_shuffle(b, sb_spv_t_fvec(ctx, 4), old, coord, comps, 4));
}

void sb_spv_ds_main(struct sb_spv_context *ctx)
{
    struct sb_spv_builder *b = &ctx->builder;
    sb_spv_function_begin(b, ctx->entry_function, sb_spv_t_void(ctx), sb_spv_t_void_function(ctx));
    sb_spv_io_prologue(ctx);
    sb_spv_stage_copy_vertices_in(ctx);
    copy_patch_constants(ctx);
    domain_point(ctx);
    if (ctx->program->function_count)
        sb_spv_op1(b, SpvOpFunctionCall, sb_spv_t_void(ctx), ctx->function_ids[0]);
    sb_spv_io_epilogue(ctx);
    sb_spv_function_end(b);
}
