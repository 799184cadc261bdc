/* SPDX-License-Identifier: MIT */
/*
 * Hull shaders in the SPIR-V back end: one TessellationControl entry point
 * (IR.md §Functions: functions[0] is the control-point phase, then fork and
 * join phases with instance counts).
 *
 * main, per invocation (= output control point, InvocationId):
 *   1. inputs: every input control point into v[icp][r] (vicp aliases it);
 *      vOutputControlPointID = InvocationId;
 *   2. the control-point phase (or D3D's pass-through when the program has
 *      none: o# = v[InvocationId]); its o# go to the per-vertex outputs at
 *      [InvocationId];
 *   3. OpControlBarrier (Workgroup), so every control point is written;
 *   4. invocation 0 alone runs the fork phases then the join phases, each
 *      `instance_count` times with vForkInstanceID / vJoinInstanceID, after
 *      loading vocp[ocp][r] from the per-vertex outputs; then it writes the
 *      patch constants (Patch outputs at Location = register) and the tess
 *      factors (TessLevelOuter / TessLevelInner, spirv_stage_io.c).
 * Running the patch-constant phases in one invocation keeps D3D's serial
 * semantics (a join phase sees all fork results) without cross-invocation
 * traffic; the phases are short, so the lost parallelism is small.
 *
 * o# is one Private array shared by both meanings (control-point outputs in
 * phase 1, patch constants in phases 4); the HS's own vpc# (fork results
 * read by join phases) alias it, as D3D defines them as the same registers.
 *
 * Execution modes, also on the TCS as SPIR-V allows (the DS repeats the
 * domain): OutputVertices = output control points; Triangles/Quads/Isolines
 * (§8.5); spacing (§8.6): integer -> SpacingEqual, pow2 -> SpacingEqual
 * (Vulkan has no pow2 mode: the tess levels the HS writes are rounded up to a
 * power of two, spirv_stage_io.c, with D3D's clamping to the partitioning's
 * range and dcl_hs_max_tessfactor for every mode),
 * fractional_odd/even -> FractionalOdd/Even; output primitive (§8.7):
 * point -> PointMode, triangle_cw/ccw -> VertexOrderCw/Ccw. Vulkan's default
 * upper-left tessellation domain origin equals D3D's, so the winding keeps
 * its name (a lower-left origin, VK_KHR_maintenance2, would flip it).
 */
#include "spirv_stage_private.h"

static const struct {
    uint32_t domain;
    SpvExecutionMode mode;
} domains[] = {
    { 1, SpvExecutionModeIsolines },
    { 2, SpvExecutionModeTriangles },
    { 3, SpvExecutionModeQuads },
};

static const struct {
    uint32_t partitioning;
    SpvExecutionMode mode;
} spacings[] = {
    { 1, SpvExecutionModeSpacingEqual },
    { 2, SpvExecutionModeSpacingEqual },
    { 3, SpvExecutionModeSpacingFractionalOdd },
    { 4, SpvExecutionModeSpacingFractionalEven },
};

static const struct {
    uint32_t primitive;
    SpvExecutionMode mode; /* SpvExecutionModeMax: none needed (lines) */
} output_primitives[] = {
    { 1, SpvExecutionModePointMode },
    { 2, SpvExecutionModeMax },
    { 3, SpvExecutionModeVertexOrderCw },
    { 4, SpvExecutionModeVertexOrderCcw },
};

enum sb_result sb_spv_tess_domain_mode(struct sb_spv_context *ctx)
{
    for (size_t i = 0; i < sizeof(domains) / sizeof(domains[0]); i++)
        if (domains[i].domain == ctx->program->tess_domain) {
            sb_spv_execution_mode(&ctx->builder, ctx->entry_function, domains[i].mode, NULL, 0);
            return SB_SUCCESS;
        }
    return sb_spv_fail(ctx, SB_ERROR_TRANSLATE_INVALID, NULL,
                       "tessellator domain %u is not isoline, tri or quad", ctx->program->tess_domain);
}

static enum sb_result execution_modes(struct sb_spv_context *ctx)
{
    const struct sb_ir_program *p = ctx->program;
    struct sb_spv_builder *b = &ctx->builder;
    uint32_t f = ctx->entry_function;
    uint32_t ocp = p->output_control_points ? p->output_control_points : 1;
    size_t i;
    sb_spv_execution_mode(b, f, SpvExecutionModeOutputVertices, &ocp, 1);
    if (sb_spv_tess_domain_mode(ctx) != SB_SUCCESS)
        return ctx->result;
    for (i = 0; i < sizeof(spacings) / sizeof(spacings[0]); i++)
        if (spacings[i].partitioning == p->tess_partitioning)
            break;
    if (i == sizeof(spacings) / sizeof(spacings[0]))
        return sb_spv_fail(ctx, SB_ERROR_TRANSLATE_INVALID, NULL,
                           "tessellator partitioning %u is not valid", p->tess_partitioning);
    sb_spv_execution_mode(b, f, spacings[i].mode, NULL, 0);
    for (i = 0; i < sizeof(output_primitives) / sizeof(output_primitives[0]); i++)
        if (output_primitives[i].primitive == p->tess_output_primitive)
            break;
    if (i == sizeof(output_primitives) / sizeof(output_primitives[0]))
        return sb_spv_fail(ctx, SB_ERROR_TRANSLATE_INVALID, NULL,
                           "tessellator output primitive %u is not valid", p->tess_output_primitive);
    if (output_primitives[i].mode != SpvExecutionModeMax &&
        !(p->tess_domain == 1 && output_primitives[i].mode != SpvExecutionModePointMode))
        sb_spv_execution_mode(b, f, output_primitives[i].mode, NULL, 0);
    return SB_SUCCESS;
}

static uint32_t max_u32(uint32_t a, uint32_t b)
{
    return a > b ? a : b;
}

enum sb_result sb_spv_hs_declare(struct sb_spv_context *ctx)
{
    const struct sb_ir_program *p = ctx->program;
    struct sb_spv_stage_state *s = sb_spv_stage_state(ctx);
    if (!s)
        return ctx->result;
    sb_spv_capability(&ctx->builder, SpvCapabilityTessellation);
    if (execution_modes(ctx) != SB_SUCCESS)
        return ctx->result;
    s->vertices = p->input_control_points;
    uint32_t ocp = p->output_control_points;

    uint32_t need[SB_IR_FILE_COUNT];
    sb_spv_stage_file_needs(p, need);
    uint32_t in_need = max_u32(need[SB_IR_FILE_INPUT], need[SB_IR_FILE_INPUT_CONTROL_POINT]);
    if (in_need && s->vertices) {
        sb_spv_register_file_declare(ctx, SB_IR_FILE_INPUT, in_need, s->vertices);
        ctx->files[SB_IR_FILE_INPUT_CONTROL_POINT] = ctx->files[SB_IR_FILE_INPUT];
    }
    uint32_t out_need = max_u32(need[SB_IR_FILE_OUTPUT], need[SB_IR_FILE_INPUT_PATCH_CONSTANT]);
    if (out_need) {
        sb_spv_register_file_declare(ctx, SB_IR_FILE_OUTPUT, out_need, 0);
        ctx->files[SB_IR_FILE_INPUT_PATCH_CONSTANT] = ctx->files[SB_IR_FILE_OUTPUT];
    }
    uint32_t ocp_need = need[SB_IR_FILE_OUTPUT_CONTROL_POINT];
    if (ocp_need && ocp)
        sb_spv_register_file_declare(ctx, SB_IR_FILE_OUTPUT_CONTROL_POINT, max_u32(ocp_need, out_need), ocp);

    if (s->vertices && sb_spv_stage_declare_role(ctx, SB_SPV_ROLE_VERTEX_IN, s->vertices) != SB_SUCCESS)
        return ctx->result;
    if (ocp && sb_spv_stage_declare_role(ctx, SB_SPV_ROLE_CP_OUT, ocp) != SB_SUCCESS)
        return ctx->result;
    s->patch_location_base = sb_spv_stage_patch_location_base(p);
    return sb_spv_stage_declare_role(ctx, SB_SPV_ROLE_PATCH_OUT, 0);
}

/* D3D's pass-through control-point phase: o# = v[min(InvocationId, icp - 1)]# per output register. */
static void pass_through(struct sb_spv_context *ctx, uint32_t invocation)
{
    struct sb_spv_builder *b = &ctx->builder;
    struct sb_spv_stage_state *s = ctx->stage_state;
    if (!ctx->files[SB_IR_FILE_INPUT].var || !ctx->files[SB_IR_FILE_OUTPUT].var || !s->vertices)
        return;
    uint32_t inv = sb_spv_op1(b, SpvOpBitcast, sb_spv_t_u32(ctx), invocation);
    uint32_t vertex = sb_spv_glsl2(b, sb_spv_t_u32(ctx), GLSLstd450UMin, inv, sb_spv_uint(ctx, s->vertices - 1));
    for (uint32_t i = 0; i < s->var_count; i++) {
        const struct sb_spv_stage_var *sv = &s->vars[i];
        if (sv->role != SB_SPV_ROLE_CP_OUT || sv->reg >= ctx->files[SB_IR_FILE_INPUT].count ||
            sv->reg >= ctx->files[SB_IR_FILE_OUTPUT].count)
            continue;
        uint32_t value = sb_spv_load(b, sb_spv_t_fvec(ctx, 4),
                                     sb_spv_stage_register(ctx, SB_IR_FILE_INPUT, vertex, sv->reg));
        sb_spv_store(b, sb_spv_stage_register(ctx, SB_IR_FILE_OUTPUT, 0, sv->reg), value);
    }
}

/* Copies the role's variables from/to o# (per-vertex ones at `vertex`). */
static void copy_role_out(struct sb_spv_context *ctx, uint32_t role, uint32_t vertex)
{
    struct sb_spv_stage_state *s = ctx->stage_state;
    for (uint32_t i = 0; i < s->var_count; i++) {
        const struct sb_spv_stage_var *sv = &s->vars[i];
        if (sv->role == role && sv->reg < ctx->files[SB_IR_FILE_OUTPUT].count)
            sb_spv_stage_copy_out(ctx, sv, vertex,
                                  sb_spv_stage_register(ctx, SB_IR_FILE_OUTPUT, 0, sv->reg));
    }
}

/* vocp: every control point's outputs, read back from the per-vertex Output variables. */
static void load_output_control_points(struct sb_spv_context *ctx)
{
    struct sb_spv_stage_state *s = ctx->stage_state;
    const struct sb_spv_register_file *f = &ctx->files[SB_IR_FILE_OUTPUT_CONTROL_POINT];
    if (!f->var)
        return;
    for (uint32_t v = 0; v < f->outer; v++) {
        uint32_t vid = sb_spv_uint(ctx, v);
        for (uint32_t i = 0; i < s->var_count; i++) {
            const struct sb_spv_stage_var *sv = &s->vars[i];
            if (sv->role == SB_SPV_ROLE_CP_OUT && sv->reg < f->count)
                sb_spv_stage_copy_in(ctx, sv, vid,
                                     sb_spv_stage_register(ctx, SB_IR_FILE_OUTPUT_CONTROL_POINT, vid, sv->reg));
        }
    }
}

/* Runs phase `index` instance_count times with its instance id in `id_file`. */
static void run_phase(struct sb_spv_context *ctx, uint32_t index, uint32_t id_file)
{
    struct sb_spv_builder *b = &ctx->builder;
    uint32_t count = ctx->program->functions[index].instance_count;
    uint32_t function = ctx->function_ids[index];
    if (count <= 1) {
        sb_spv_stage_store_special(ctx, id_file, sb_spv_uint(ctx, 0), sb_spv_t_u32(ctx));
        sb_spv_op1(b, SpvOpFunctionCall, sb_spv_t_void(ctx), function);
        return;
    }
    uint32_t counter = sb_spv_variable_local(b, sb_spv_type_pointer(b, SpvStorageClassFunction, sb_spv_t_u32(ctx)),
                                             sb_spv_uint(ctx, 0));
    uint32_t header = sb_spv_id(b), check = sb_spv_id(b), body = sb_spv_id(b);
    uint32_t next = sb_spv_id(b), merge = sb_spv_id(b);
    sb_spv_branch(b, header);
    sb_spv_label(b, header);
    sb_spv_loop_merge(b, merge, next);
    sb_spv_branch(b, check);
    sb_spv_label(b, check);
    uint32_t i = sb_spv_load(b, sb_spv_t_u32(ctx), counter);
    uint32_t more = sb_spv_op2(b, SpvOpULessThan, sb_spv_t_bool(ctx), i, sb_spv_uint(ctx, count));
    sb_spv_branch_conditional(b, more, body, merge);
    sb_spv_label(b, body);
    sb_spv_stage_store_special(ctx, id_file, i, sb_spv_t_u32(ctx));
    sb_spv_op1(b, SpvOpFunctionCall, sb_spv_t_void(ctx), function);
    sb_spv_branch(b, next);
    sb_spv_label(b, next);
    sb_spv_store(b, counter, sb_spv_op2(b, SpvOpIAdd, sb_spv_t_u32(ctx), i, sb_spv_uint(ctx, 1)));
    sb_spv_branch(b, header);
    sb_spv_label(b, merge);
}

void sb_spv_hs_main(struct sb_spv_context *ctx)
{
    const struct sb_ir_program *p = ctx->program;
    struct sb_spv_builder *b = &ctx->builder;
    sb_spv_function_begin(b, ctx->entry_function, sb_spv_t_void(ctx), sb_spv_t_void_function(ctx));
    sb_spv_io_prologue(ctx);
    sb_spv_stage_copy_vertices_in(ctx);
    uint32_t invocation = sb_spv_stage_load_invocation_id(ctx);
    sb_spv_stage_store_special(ctx, SB_IR_FILE_OUTPUT_CONTROL_POINT_ID, invocation, sb_spv_t_i32(ctx));
    if (p->function_count && p->functions[0].instruction_count)
        sb_spv_op1(b, SpvOpFunctionCall, sb_spv_t_void(ctx), ctx->function_ids[0]);
    else
        pass_through(ctx, invocation);
    if (ctx->files[SB_IR_FILE_OUTPUT].var)
        copy_role_out(ctx, SB_SPV_ROLE_CP_OUT, invocation);

    uint32_t barrier[3] = { sb_spv_uint(ctx, SpvScopeWorkgroup), sb_spv_uint(ctx, SpvScopeInvocation),
                            sb_spv_uint(ctx, SpvMemorySemanticsMaskNone) };
    sb_spv_op(b, SpvOpControlBarrier, barrier, 3);

    uint32_t first = sb_spv_op2(b, SpvOpIEqual, sb_spv_t_bool(ctx), invocation,
                                sb_spv_const_i32(b, 0));
    uint32_t then_label = sb_spv_id(b), merge = sb_spv_id(b);
    sb_spv_selection_merge(b, merge);
    sb_spv_branch_conditional(b, first, then_label, merge);
    sb_spv_label(b, then_label);
    load_output_control_points(ctx);
    uint32_t phases = p->fork_phase_count + p->join_phase_count;
    for (uint32_t k = 0; k < phases; k++) {
        uint32_t index = p->first_fork_phase + k;
        if (index >= p->function_count)
            break;
        run_phase(ctx, index, k < p->fork_phase_count ? SB_IR_FILE_FORK_INSTANCE_ID
                                                      : SB_IR_FILE_JOIN_INSTANCE_ID);
    }
    if (ctx->files[SB_IR_FILE_OUTPUT].var)
        copy_role_out(ctx, SB_SPV_ROLE_PATCH_OUT, 0);
    sb_spv_branch(b, merge);
    sb_spv_label(b, merge);
    sb_spv_function_end(b);
}
