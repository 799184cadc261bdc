/* SPDX-License-Identifier: MIT */
/*
 * Geometry shaders in the SPIR-V back end: execution modes from the GS
 * declarations (../shared/docs/sm4-tokens.md §8.8 input primitive, §8.9 output
 * topology, dcl_maxout, dcl_gsinstances), per-vertex inputs v[n][r], the
 * instance id, and emit/cut with their stream forms.
 *
 * Outputs: o# is one Private register array (spirv_private.h); before every
 * emit the core's epilogue copies the stream-0 outputs and this file copies
 * the outputs of the emitting stream when it is not 0 (those carry the
 * Stream decoration and GeometryStreams, at Location = register + stream *
 * (1 + the highest output register): spirv-val counts every stream in one
 * location space, and only stream 0 is linked to a fragment shader). Writing stream-0 outputs before a
 * stream-1 emit is harmless: SPIR-V leaves outputs undefined after any emit.
 * A program that uses a stream other than 0 emits with OpEmitStreamVertex /
 * OpEndStreamPrimitive everywhere; others use OpEmitVertex / OpEndPrimitive
 * and need no GeometryStreams capability.
 */
#include "spirv_stage_private.h"

/* §8.8 -> input vertices and SPIR-V mode. */
static const struct {
    uint32_t primitive;
    uint32_t vertices;
    SpvExecutionMode mode;
} input_primitives[] = {
    { 1, 1, SpvExecutionModeInputPoints },
    { 2, 2, SpvExecutionModeInputLines },
    { 3, 3, SpvExecutionModeTriangles },
    { 6, 4, SpvExecutionModeInputLinesAdjacency },
    { 7, 6, SpvExecutionModeInputTrianglesAdjacency },
};

/* §8.9 -> output mode (Vulkan has strips only: a list is a strip cut after each primitive,
 * which D3D code does itself with cut/emit_then_cut). */
static const struct {
    uint32_t topology;
    SpvExecutionMode mode;
} output_topologies[] = {
    { 0, SpvExecutionModeOutputPoints }, /* undeclared: a GS that never emits (fxc allows it) */
    { 1, SpvExecutionModeOutputPoints },
    { 2, SpvExecutionModeOutputLineStrip },
    { 3, SpvExecutionModeOutputLineStrip },
    { 4, SpvExecutionModeOutputTriangleStrip },
    { 5, SpvExecutionModeOutputTriangleStrip },
};

static bool uses_nonzero_stream(const struct sb_ir_program *p)
{
    if (p->gs_stream_mask & ~1u)
        return true;
    for (uint32_t f = 0; f < p->function_count; f++)
        for (uint32_t i = 0; i < p->functions[f].instruction_count; i++) {
            const struct sb_ir_instruction *inst = &p->functions[f].instructions[i];
            if ((inst->op == SB_IR_OP_EMIT || inst->op == SB_IR_OP_CUT ||
                 inst->op == SB_IR_OP_EMIT_THEN_CUT) && inst->stream != 0)
                return true;
        }
    return false;
}

static enum sb_result execution_modes(struct sb_spv_context *ctx, uint32_t *vertices)
{
    const struct sb_ir_program *p = ctx->program;
    struct sb_spv_builder *b = &ctx->builder;
    uint32_t f = ctx->entry_function;
    size_t i;
    if (p->gs_input_primitive >= 8 && p->gs_input_primitive <= 39)
        return sb_spv_fail(ctx, SB_ERROR_TRANSLATE_UNSUPPORTED, NULL,
                           "geometry shader input primitive patch%u (patch-list input) has no "
                           "Vulkan equivalent", p->gs_input_primitive - 7);
    for (i = 0; i < sizeof(input_primitives) / sizeof(input_primitives[0]); i++)
        if (input_primitives[i].primitive == p->gs_input_primitive)
            break;
    if (i == sizeof(input_primitives) / sizeof(input_primitives[0]))
        return sb_spv_fail(ctx, SB_ERROR_TRANSLATE_INVALID, NULL,
                           "geometry shader input primitive %u is not a valid dcl_inputprimitive",
                           p->gs_input_primitive);
    *vertices = input_primitives[i].vertices;
    sb_spv_execution_mode(b, f, input_primitives[i].mode, NULL, 0);

    for (i = 0; i < sizeof(output_topologies) / sizeof(output_topologies[0]); i++)
        if (output_topologies[i].topology == p->gs_output_topology)
            break;
    if (i == sizeof(output_topologies) / sizeof(output_topologies[0]))
        return sb_spv_fail(ctx, SB_ERROR_TRANSLATE_UNSUPPORTED, NULL,
                           "geometry shader output topology %u is not supported (Vulkan has "
                           "points, line strips and triangle strips)", p->gs_output_topology);
    sb_spv_execution_mode(b, f, output_topologies[i].mode, NULL, 0);

    uint32_t max_vertices = p->gs_max_output_vertices ? p->gs_max_output_vertices : 1;
    sb_spv_execution_mode(b, f, SpvExecutionModeOutputVertices, &max_vertices, 1);
    uint32_t invocations = p->gs_instance_count ? p->gs_instance_count : 1;
    sb_spv_execution_mode(b, f, SpvExecutionModeInvocations, &invocations, 1);
    return SB_SUCCESS;
}

enum sb_result sb_spv_gs_declare(struct sb_spv_context *ctx)
{
    const struct sb_ir_program *p = ctx->program;
    struct sb_spv_stage_state *s = sb_spv_stage_state(ctx);
    if (!s)
        return ctx->result;
    sb_spv_capability(&ctx->builder, SpvCapabilityGeometry);
    if (execution_modes(ctx, &s->vertices) != SB_SUCCESS)
        return ctx->result;
    s->streams = uses_nonzero_stream(p);
    if (s->streams)
        sb_spv_capability(&ctx->builder, SpvCapabilityGeometryStreams);
    uint32_t needs[SB_IR_FILE_COUNT];
    sb_spv_stage_file_needs(p, needs);
    uint32_t need = needs[SB_IR_FILE_INPUT];
    if (need)
        sb_spv_register_file_declare(ctx, SB_IR_FILE_INPUT, need, s->vertices);
    if (sb_spv_stage_declare_role(ctx, SB_SPV_ROLE_VERTEX_IN, s->vertices) != SB_SUCCESS)
        return ctx->result;
    for (uint32_t i = 0; i < p->signature_count; i++) {
        const struct sb_ir_signature_element *e = &p->signature[i];
        if (e->kind == SB_IR_SIGNATURE_OUTPUT && e->file == SB_IR_FILE_OUTPUT && e->register_index < 4096 &&
            s->stream_location_stride < e->register_index + 1)
            s->stream_location_stride = e->register_index + 1;
    }
    return sb_spv_stage_declare_role(ctx, SB_SPV_ROLE_STREAM_OUT, 0);
}

/* Copies the outputs of a non-zero stream before its emit. */
static void stream_outputs(struct sb_spv_context *ctx, uint32_t stream)
{
    struct sb_spv_stage_state *s = ctx->stage_state;
    for (uint32_t i = 0; s && i < s->var_count; i++) {
        const struct sb_spv_stage_var *sv = &s->vars[i];
        if (sv->role != SB_SPV_ROLE_STREAM_OUT || sv->stream != stream ||
            sv->reg >= ctx->files[SB_IR_FILE_OUTPUT].count)
            continue;
        sb_spv_stage_copy_out(ctx, sv, 0, sb_spv_stage_register(ctx, SB_IR_FILE_OUTPUT, 0, sv->reg));
    }
}

enum sb_result sb_spv_gs_instruction(struct sb_spv_context *ctx, const struct sb_ir_instruction *inst)
{
    struct sb_spv_builder *b = &ctx->builder;
    struct sb_spv_stage_state *s = ctx->stage_state;
    if (!s)
        return sb_spv_fail(ctx, SB_ERROR_TRANSLATE_INVALID, inst, "geometry state missing");
    if (inst->stream > 3)
        return sb_spv_fail(ctx, SB_ERROR_TRANSLATE_INVALID, inst, "'%s' on stream %u (0-3 exist)",
                           sb_ir_op_name(inst->op), inst->stream);
    uint32_t stream = sb_spv_uint(ctx, inst->stream);
    if (inst->op == SB_IR_OP_EMIT || inst->op == SB_IR_OP_EMIT_THEN_CUT) {
        sb_spv_io_epilogue(ctx);
        if (inst->stream != 0)
            stream_outputs(ctx, inst->stream);
        if (s->streams)
            sb_spv_op(b, SpvOpEmitStreamVertex, &stream, 1);
        else
            sb_spv_op(b, SpvOpEmitVertex, NULL, 0);
    }
    if (inst->op == SB_IR_OP_CUT || inst->op == SB_IR_OP_EMIT_THEN_CUT) {
        if (s->streams)
            sb_spv_op(b, SpvOpEndStreamPrimitive, &stream, 1);
        else
            sb_spv_op(b, SpvOpEndPrimitive, NULL, 0);
    }
    return ctx->result;
}

/* main: inputs in, vGSInstanceID = InvocationId, the body. Outputs leave at each emit. */
void sb_spv_gs_main(struct sb_spv_context *ctx)
{
    struct sb_spv_builder *b = &ctx->builder;
    sb_spv_function_begin(b, ctx->entry_function, sb_spv_t_void(ctx), sb_spv_t_void_function(ctx));
    sb_spv_io_prologue(ctx);
    sb_spv_stage_copy_vertices_in(ctx);
    if (ctx->files[SB_IR_FILE_GS_INSTANCE_ID].var)
        sb_spv_stage_store_special(ctx, SB_IR_FILE_GS_INSTANCE_ID,
                                   sb_spv_stage_load_invocation_id(ctx), sb_spv_t_i32(ctx));
    if (ctx->program->function_count)
        sb_spv_op1(b, SpvOpFunctionCall, sb_spv_t_void(ctx), ctx->function_ids[0]);
    sb_spv_function_end(b);
}
