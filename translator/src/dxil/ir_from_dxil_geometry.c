/* SPDX-License-Identifier: MIT */
/*
 * Geometry shaders (../shared/docs/dxil.md §3.6 "Geometry shader", §4.2
 * GSState): the stage state the SM4 front end takes from dcl_inputprimitive,
 * dcl_outputtopology, dcl_maxout, dcl_gsinstances and dcl_stream, and the
 * dx.ops fxc writes as emit_stream / cut_stream / emit_then_cut_stream, vPrim
 * and vGSInstanceID. DXIL numbers the input primitive and the output topology
 * as the SM4 tokens do (D3D_PRIMITIVE, D3D_PRIMITIVE_TOPOLOGY), so they are
 * copied.
 */
#include "ir_from_dxil_private.h"
#include "translator/dxil_opcodes.h"

/* Vertices per input primitive (point, line, triangle, line/triangle with adjacency);
 * 0 for the patch inputs and undefined values, which Vulkan GSs do not take. */
static uint32_t input_vertices(uint32_t primitive)
{
    switch (primitive) {
    case 1: return 1;
    case 2: return 2;
    case 3: return 3;
    case 6: return 4;
    case 7: return 6;
    default: return 0;
    }
}

bool dxil_front_declare_geometry(struct dxil_front *f)
{
    if (!f->entry->has_gs_state)
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_INVALID,
                               "a geometry shader without its GSState property");
    const struct sb_dxil_gs_state *gs = &f->entry->gs;
    uint32_t vertices = input_vertices(gs->input_primitive);
    if (!vertices)
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_UNSUPPORTED,
                               "geometry shader input primitive %u is not translated (point, "
                               "line, triangle and their adjacency forms are)",
                               gs->input_primitive);
    if (gs->active_stream_mask == 0 || gs->active_stream_mask > 0xF)
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_INVALID,
                               "geometry shader active stream mask 0x%x", gs->active_stream_mask);
    /* D3D's limits: maxvertexcount 1..1024 (its scalar budget is the runtime's to check),
     * [instance(1..32)]. */
    if (gs->max_vertex_count == 0 || gs->max_vertex_count > 1024 || gs->instance_count == 0 ||
        gs->instance_count > 32)
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_INVALID,
                               "geometry shader with %u output vertices and %u instances "
                               "(1-1024, 1-32)", gs->max_vertex_count, gs->instance_count);
    struct sb_ir_program *p = f->program;
    p->gs_input_primitive = gs->input_primitive;
    p->gs_output_topology = gs->output_topology;
    p->gs_max_output_vertices = gs->max_vertex_count;
    p->gs_instance_count = gs->instance_count;
    p->gs_stream_mask = gs->active_stream_mask;
    f->input_array_size = vertices;
    return true;
}

bool dxil_front_is_geometry_op(uint64_t opcode)
{
    switch (opcode) {
    case SB_DXIL_OP_EMIT_STREAM:
    case SB_DXIL_OP_CUT_STREAM:
    case SB_DXIL_OP_EMIT_THEN_CUT_STREAM:
    case SB_DXIL_OP_GS_INSTANCE_ID:
    case SB_DXIL_OP_PRIMITIVE_ID:
        return true;
    default:
        return false;
    }
}

/* emit/cut/emit_then_cut on the stream of the constant argument, which the GSState must
 * list as active (a write to an inactive stream is a program error). */
static bool stream_op(struct dxil_front *f, const struct sb_bc_instruction *in, uint32_t op)
{
    uint64_t stream = 0;
    if (!dxil_front_const_arg(f, in, 1, &stream))
        return false;
    if (stream > 3 || !(f->program->gs_stream_mask & (1u << stream)))
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_INVALID,
                               "stream %llu is not active in this geometry shader (mask 0x%x)",
                               (unsigned long long)stream, f->program->gs_stream_mask);
    struct sb_ir_instruction *out = dxil_front_emit(f, op, NULL, 0, NULL, 0);
    if (out)
        out->stream = (uint32_t)stream;
    return out != NULL;
}

bool dxil_front_geometry_op(struct dxil_front *f, const struct sb_bc_instruction *in,
                            uint64_t opcode)
{
    bool geometry = f->program->stage == SB_IR_STAGE_GEOMETRY;
    if (!geometry)
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_UNSUPPORTED,
                               "dx.op %llu outside a geometry shader is not translated",
                               (unsigned long long)opcode);
    switch (opcode) {
    case SB_DXIL_OP_EMIT_STREAM: return stream_op(f, in, SB_IR_OP_EMIT);
    case SB_DXIL_OP_CUT_STREAM: return stream_op(f, in, SB_IR_OP_CUT);
    case SB_DXIL_OP_EMIT_THEN_CUT_STREAM: return stream_op(f, in, SB_IR_OP_EMIT_THEN_CUT);
    case SB_DXIL_OP_GS_INSTANCE_ID:
        return dxil_front_special_input(f, in, SB_IR_FILE_GS_INSTANCE_ID);
    default: /* SB_DXIL_OP_PRIMITIVE_ID */
        return dxil_front_special_input(f, in, SB_IR_FILE_PRIMITIVE_ID);
    }
}
