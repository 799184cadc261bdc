/* SPDX-License-Identifier: MIT */
/*
 * The programs of dxil_programs_gsps.h, laid out as dxc writes them (scalarised
 * I/O, dx.op calls with the opcode constant first); opcodes and operand lists
 * from ../shared/docs/dxil.md §3.6.
 */
#include "dxil_programs_gsps.h"

#include "dxil_program_io.h"
#include "shaderbridge/dxbc_dxil.h"

enum { OP_LOAD_INPUT = 4, OP_STORE_OUTPUT = 5, OP_UMIN = 40, OP_DISCARD = 82,
       OP_DERIV_COARSE_Y = 84, OP_DERIV_FINE_X = 85, OP_EVAL_SNAPPED = 87,
       OP_EVAL_CENTROID = 89, OP_EMIT_STREAM = 97, OP_CUT_STREAM = 98,
       OP_GS_INSTANCE_ID = 100, OP_PRIMITIVE_ID = 108, OP_VIEW_ID = 138 };
/* D3D_PRIMITIVE point, D3D_PRIMITIVE_TOPOLOGY triangle strip (docs §4.2). */
enum { PRIMITIVE_POINT = 1, TOPOLOGY_TRIANGLE_STRIP = 5 };
enum { INTERP_CONSTANT = 1 };

/* float4 SV_Target0: the one output of the pixel programs but ps_rows. */
static const struct dxil_sig_element TARGET0 = {
    "SV_Target", 0, DXIL_SEM_TARGET, DXIL_COMP_F32, DXIL_INTERP_UNDEFINED, 4, 0,
};

/*
 * struct V { float4 pos : SV_Position; float4 color : COLOR; };
 * [instance(2)] [maxvertexcount(3)]
 * void main(point V p[1], uint prim : SV_PrimitiveID, uint instance : SV_GSInstanceID,
 *           inout TriangleStream<V> s)
 * {
 *     static const float2 d[3] = { { 0, 0 }, { 1, 0 }, { 0, 1 } };
 *     for (int k = 0; k < 3; k++) {
 *         V o; o.pos = p[0].pos + float4(d[k], 0, 0);
 *         o.color = float4(p[0].color.xy, instance, prim); s.Append(o);
 *     }
 *     s.RestartStrip();
 * }
 */
bool dxil_program_gs_triangle(struct tbuf *out)
{
    static const struct dxil_gs_state gs = {
        .input_primitive = PRIMITIVE_POINT, .max_vertex_count = 3, .stream_mask = 1,
        .output_topology = TOPOLOGY_TRIANGLE_STRIP, .instance_count = 2,
    };
    return dxil_program_gs_triangle_state(&gs, out);
}

bool dxil_program_gs_triangle_state(const struct dxil_gs_state *gs, struct tbuf *out)
{
    uint32_t entry = 0;
    struct dxil_module *m = dxil_program_begin(&entry);
    uint32_t f32 = dm_type_float(m), i32 = dm_type_int(m, 32);
    uint32_t vertex0 = dm_i32(m, 0);
    uint32_t pos[4], color[4];
    for (int8_t c = 0; c < 4; c++) {
        pos[c] = dxil_program_load_input(m, f32, "dx.op.loadInput.f32", 0, c, vertex0);
        color[c] = dxil_program_load_input(m, f32, "dx.op.loadInput.f32", 1, c, vertex0);
    }
    uint32_t instance = dm_dxop(m, "dx.op.gsInstanceID.i32", i32, DM_ATTR_READNONE,
                                OP_GS_INSTANCE_ID, NULL, 0);
    uint32_t prim = dm_dxop(m, "dx.op.primitiveID.i32", i32, DM_ATTR_READNONE, OP_PRIMITIVE_ID,
                            NULL, 0);
    color[2] = dm_cast(m, DM_UITOFP, instance, f32);
    color[3] = dm_cast(m, DM_UITOFP, prim, f32);
    uint32_t stream0 = dm_i8(m, 0);
    static const float d[3][2] = { { 0, 0 }, { 1, 0 }, { 0, 1 } };
    for (unsigned k = 0; k < 3; k++) {
        uint32_t p[4] = { pos[0], pos[1], pos[2], pos[3] };
        for (unsigned c = 0; c < 2; c++)
            if (d[k][c] != 0.0f)
                p[c] = dm_binop(m, DM_ADD, pos[c], dm_f32(m, d[k][c]), DM_FAST_MATH);
        dxil_program_store_float4(m, 0, p);
        dxil_program_store_float4(m, 1, color);
        dm_dxop(m, "dx.op.emitStream", dm_type_void(m), DM_ATTR_NOUNWIND, OP_EMIT_STREAM,
                &stream0, 1);
    }
    dm_dxop(m, "dx.op.cutStream", dm_type_void(m), DM_ATTR_NOUNWIND, OP_CUT_STREAM, &stream0, 1);
    dm_ret_void(m);
    static const struct dxil_sig_element io[2] = {
        { "SV_Position", 0, DXIL_SEM_POSITION, DXIL_COMP_F32, DXIL_INTERP_NOPERSPECTIVE, 4, 0 },
        { "COLOR", 0, DXIL_SEM_ARBITRARY, DXIL_COMP_F32, DXIL_INTERP_LINEAR, 4, 1 },
    };
    static const struct dxil_io_dependency deps[6] = {
        { 0, 0 }, { 1, 1 }, { 2, 2 }, { 3, 3 }, { 4, 4 }, { 5, 5 },
    };
    const struct dxil_program_desc desc = {
        .shader_kind = SB_DXIL_SHADER_KIND_GEOMETRY, .entry = entry, .entry_name = "main",
        .inputs = io, .input_count = 2, .outputs = io, .output_count = 2,
        .dependencies = deps, .dependency_count = 6, .gs = gs,
    };
    return dxil_program_finish(m, &desc, out);
}

/*
 * float4 main(float4 pos : SV_Position, float2 uv : TEXCOORD0) : SV_Target0
 * {
 *     if (uv.x < 0) discard;
 *     return float4(ddx_fine(pos.x * pos.x), ddy_coarse(pos.y * pos.y), uv.x, 1);
 * }
 */
bool dxil_program_ps_discard_ddx(struct tbuf *out)
{
    uint32_t entry = 0;
    struct dxil_module *m = dxil_program_begin(&entry);
    uint32_t f32 = dm_type_float(m);
    uint32_t undef = dm_undef(m, dm_type_int(m, 32));
    uint32_t x = dxil_program_load_input(m, f32, "dx.op.loadInput.f32", 0, 0, undef);
    uint32_t y = dxil_program_load_input(m, f32, "dx.op.loadInput.f32", 0, 1, undef);
    uint32_t u = dxil_program_load_input(m, f32, "dx.op.loadInput.f32", 1, 0, undef);
    uint32_t negative = dm_cmp(m, DM_FCMP_OLT, u, dm_f32(m, 0.0f));
    dm_dxop(m, "dx.op.discard", dm_type_void(m), DM_ATTR_NOUNWIND, OP_DISCARD, &negative, 1);
    uint32_t xx = dm_binop(m, DM_MUL, x, x, DM_FAST_MATH);
    uint32_t yy = dm_binop(m, DM_MUL, y, y, DM_FAST_MATH);
    uint32_t dx = dm_dxop(m, "dx.op.unary.f32", f32, DM_ATTR_READNONE, OP_DERIV_FINE_X, &xx, 1);
    uint32_t dy = dm_dxop(m, "dx.op.unary.f32", f32, DM_ATTR_READNONE, OP_DERIV_COARSE_Y, &yy, 1);
    const uint32_t result[4] = { dx, dy, u, dm_f32(m, 1.0f) };
    dxil_program_store_float4(m, 0, result);
    dm_ret_void(m);
    static const struct dxil_sig_element inputs[2] = {
        { "SV_Position", 0, DXIL_SEM_POSITION, DXIL_COMP_F32, DXIL_INTERP_NOPERSPECTIVE, 4, 0 },
        { "TEXCOORD", 0, DXIL_SEM_ARBITRARY, DXIL_COMP_F32, DXIL_INTERP_LINEAR, 2, 1 },
    };
    static const struct dxil_io_dependency deps[3] = { { 0, 0 }, { 1, 1 }, { 4, 2 } };
    const struct dxil_program_desc d = {
        .shader_kind = SB_DXIL_SHADER_KIND_PIXEL, .entry = entry, .entry_name = "main",
        .inputs = inputs, .input_count = 2, .outputs = &TARGET0, .output_count = 1,
        .dependencies = deps, .dependency_count = 3,
    };
    return dxil_program_finish(m, &d, out);
}

/*
 * struct In {
 *     float4 pos : SV_Position;                 // v0
 *     nointerpolation uint sel : SEL;           // v1.x
 *     float2 pair : PAIR;                       // v1.zw
 *     float c[3] : COLORS;                      // v2.x - v4.x
 *     bool front : SV_IsFrontFace;              // v5.x
 * };
 * float4 main(In i, out float depth : SV_Depth) : SV_Target0
 * {
 *     float v = i.c[min(i.sel, 2)]; depth = v * 0.5; // in range whatever SEL holds
 *     return float4(v, i.pair, i.front ? 1 : 0);
 * }
 */
bool dxil_program_ps_rows(struct tbuf *out)
{
    uint32_t entry = 0;
    struct dxil_module *m = dxil_program_begin(&entry);
    uint32_t f32 = dm_type_float(m), i32 = dm_type_int(m, 32);
    uint32_t undef = dm_undef(m, i32);
    uint32_t sel = dxil_program_load_input(m, i32, "dx.op.loadInput.i32", 1, 0, undef);
    uint32_t min_args[2] = { sel, dm_i32(m, 2) };
    uint32_t row = dm_dxop(m, "dx.op.binary.i32", i32, DM_ATTR_READNONE, OP_UMIN, min_args, 2);
    uint32_t row_args[4] = { dm_i32(m, 3), row, dm_i8(m, 0), undef };
    uint32_t v = dm_dxop(m, "dx.op.loadInput.f32", f32, DM_ATTR_READNONE, OP_LOAD_INPUT,
                         row_args, 4);
    uint32_t px = dxil_program_load_input(m, f32, "dx.op.loadInput.f32", 2, 0, undef);
    uint32_t py = dxil_program_load_input(m, f32, "dx.op.loadInput.f32", 2, 1, undef);
    uint32_t front = dxil_program_load_input(m, i32, "dx.op.loadInput.i32", 4, 0, undef);
    uint32_t is_front = dm_cmp(m, DM_ICMP_NE, front, dm_i32(m, 0));
    uint32_t one_if_front = dm_cast(m, DM_UITOFP, dm_cast(m, DM_ZEXT, is_front, i32), f32);
    uint32_t depth = dm_binop(m, DM_MUL, v, dm_f32(m, 0.5f), DM_FAST_MATH);
    const uint32_t target[4] = { v, px, py, one_if_front };
    dxil_program_store_float4(m, 0, target);
    dxil_program_store_output(m, "dx.op.storeOutput.f32", 1, 0, depth);
    dm_ret_void(m);
    static const struct dxil_sig_element inputs[5] = {
        { "SV_Position", 0, DXIL_SEM_POSITION, DXIL_COMP_F32, DXIL_INTERP_NOPERSPECTIVE, 4, 0 },
        { "SEL", 0, DXIL_SEM_ARBITRARY, DXIL_COMP_U32, INTERP_CONSTANT, 1, 1 },
        { "PAIR", 0, DXIL_SEM_ARBITRARY, DXIL_COMP_F32, DXIL_INTERP_LINEAR, 2, 1 },
        { "COLORS", 0, DXIL_SEM_ARBITRARY, DXIL_COMP_F32, DXIL_INTERP_LINEAR, 1, 2 },
        { "SV_IsFrontFace", 0, DXIL_SEM_IS_FRONT_FACE, DXIL_COMP_U32, INTERP_CONSTANT, 1, 5 },
    };
    static const struct dxil_sig_element outputs[2] = {
        { "SV_Target", 0, DXIL_SEM_TARGET, DXIL_COMP_F32, DXIL_INTERP_UNDEFINED, 4, 0 },
        { "SV_Depth", 0, DXIL_SEM_DEPTH, DXIL_COMP_F32, DXIL_INTERP_UNDEFINED, 1, 0 },
    };
    /* PAIR at v1.zw, COLORS three rows v2-v4, SV_Depth unallocated (oDepth). */
    static const struct dxil_sig_shape shapes[3] = {
        { .list = DXIL_LIST_INPUT, .element = 2, .rows = 1, .start_col = 2, .unallocated = false },
        { .list = DXIL_LIST_INPUT, .element = 3, .rows = 3, .start_col = 0, .unallocated = false },
        { .list = DXIL_LIST_OUTPUT, .element = 1, .rows = 1, .start_col = 0, .unallocated = true },
    };
    /* v1.x (4) selects among v2-v4.x (8, 12, 16) -> o0.x; v1.zw (6, 7) -> o0.yz;
     * v5.x (20) -> o0.w. */
    static const struct dxil_io_dependency deps[7] = {
        { 4, 0 }, { 8, 0 }, { 12, 0 }, { 16, 0 }, { 6, 1 }, { 7, 2 }, { 20, 3 },
    };
    const struct dxil_program_desc d = {
        .shader_kind = SB_DXIL_SHADER_KIND_PIXEL, .entry = entry, .entry_name = "main",
        .inputs = inputs, .input_count = 5, .outputs = outputs, .output_count = 2,
        .dependencies = deps, .dependency_count = 7, .shapes = shapes, .shape_count = 3,
    };
    return dxil_program_finish(m, &d, out);
}

/*
 * float4 main(float4 pos : SV_Position, float2 uv : UV, nointerpolation int off : OFF)
 *     : SV_Target0
 * {
 *     return float4(EvaluateAttributeSnapped(uv, int2(7, 0)).x,
 *                   EvaluateAttributeSnapped(uv, int2(0, off)).y,
 *                   EvaluateAttributeCentroid(uv).x, uv.y);
 * }
 */
bool dxil_program_ps_eval(struct tbuf *out)
{
    uint32_t entry = 0;
    struct dxil_module *m = dxil_program_begin(&entry);
    uint32_t f32 = dm_type_float(m), i32 = dm_type_int(m, 32);
    uint32_t undef = dm_undef(m, i32);
    uint32_t off = dxil_program_load_input(m, i32, "dx.op.loadInput.i32", 2, 0, undef);
    uint32_t x_args[5] = { dm_i32(m, 1), dm_i32(m, 0), dm_i8(m, 0), dm_i32(m, 7), dm_i32(m, 0) };
    uint32_t y_args[5] = { dm_i32(m, 1), dm_i32(m, 0), dm_i8(m, 1), dm_i32(m, 0), off };
    uint32_t centroid_args[3] = { dm_i32(m, 1), dm_i32(m, 0), dm_i8(m, 0) };
    const uint32_t target[4] = {
        dm_dxop(m, "dx.op.evalSnapped.f32", f32, DM_ATTR_READNONE, OP_EVAL_SNAPPED, x_args, 5),
        dm_dxop(m, "dx.op.evalSnapped.f32", f32, DM_ATTR_READNONE, OP_EVAL_SNAPPED, y_args, 5),
        dm_dxop(m, "dx.op.evalCentroid.f32", f32, DM_ATTR_READNONE, OP_EVAL_CENTROID,
                centroid_args, 3),
        dxil_program_load_input(m, f32, "dx.op.loadInput.f32", 1, 1, undef),
    };
    dxil_program_store_float4(m, 0, target);
    dm_ret_void(m);
    static const struct dxil_sig_element inputs[3] = {
        { "SV_Position", 0, DXIL_SEM_POSITION, DXIL_COMP_F32, DXIL_INTERP_NOPERSPECTIVE, 4, 0 },
        { "UV", 0, DXIL_SEM_ARBITRARY, DXIL_COMP_F32, DXIL_INTERP_LINEAR, 2, 1 },
        { "OFF", 0, DXIL_SEM_ARBITRARY, DXIL_COMP_I32, INTERP_CONSTANT, 1, 2 },
    };
    static const struct dxil_io_dependency deps[5] = {
        { 4, 0 }, { 5, 1 }, { 8, 1 }, { 4, 2 }, { 5, 3 },
    };
    const struct dxil_program_desc d = {
        .shader_kind = SB_DXIL_SHADER_KIND_PIXEL, .entry = entry, .entry_name = "main",
        .inputs = inputs, .input_count = 3, .outputs = &TARGET0, .output_count = 1,
        .dependencies = deps, .dependency_count = 5,
    };
    return dxil_program_finish(m, &d, out);
}

/* float4 main(uint view : SV_ViewID) : SV_Target0 { return float4(view, 0, 0, 1); } */
bool dxil_program_ps_view_id(struct tbuf *out)
{
    uint32_t entry = 0;
    struct dxil_module *m = dxil_program_begin(&entry);
    uint32_t f32 = dm_type_float(m), i32 = dm_type_int(m, 32);
    uint32_t view = dm_dxop(m, "dx.op.viewID.i32", i32, DM_ATTR_READNONE, OP_VIEW_ID, NULL, 0);
    const uint32_t target[4] = { dm_cast(m, DM_UITOFP, view, f32), dm_f32(m, 0.0f),
                                 dm_f32(m, 0.0f), dm_f32(m, 1.0f) };
    dxil_program_store_float4(m, 0, target);
    dm_ret_void(m);
    const struct dxil_program_desc d = {
        .shader_kind = SB_DXIL_SHADER_KIND_PIXEL, .sm_minor = 1, .entry = entry,
        .entry_name = "main", .outputs = &TARGET0, .output_count = 1,
    };
    return dxil_program_finish(m, &d, out);
}

/*
 * struct VSOut {
 *     float4 pos : SV_Position; nointerpolation uint id : TEXCOORD0;
 *     nointerpolation uint arr[2] : ARR;
 * };
 * VSOut main(uint id : SV_VertexID)
 * {
 *     VSOut o = (VSOut)0; o.pos = float4(id, 0.5, 0, 1); o.id = id * 3 + 1;
 *     o.arr[id & 1] = id + 100; return o;
 * }
 */
bool dxil_program_vs_vertex_id(struct tbuf *out)
{
    uint32_t entry = 0;
    struct dxil_module *m = dxil_program_begin(&entry);
    uint32_t f32 = dm_type_float(m), i32 = dm_type_int(m, 32);
    uint32_t id = dxil_program_load_input(m, i32, "dx.op.loadInput.i32", 0, 0, dm_undef(m, i32));
    const uint32_t pos[4] = { dm_cast(m, DM_UITOFP, id, f32), dm_f32(m, 0.5f), dm_f32(m, 0.0f),
                              dm_f32(m, 1.0f) };
    uint32_t thrice = dm_binop(m, DM_MUL, id, dm_i32(m, 3), DM_FLAGS_NONE);
    uint32_t value = dm_binop(m, DM_ADD, thrice, dm_i32(m, 1), DM_FLAGS_NONE);
    dxil_program_store_float4(m, 0, pos);
    dxil_program_store_output(m, "dx.op.storeOutput.i32", 1, 0, value);
    /* arr[id & 1] = id + 100: storeOutput at a row that is not a constant. */
    uint32_t row = dm_binop(m, DM_AND, id, dm_i32(m, 1), DM_FLAGS_NONE);
    uint32_t row_args[4] = { dm_i32(m, 2), row, dm_i8(m, 0),
                             dm_binop(m, DM_ADD, id, dm_i32(m, 100), DM_FLAGS_NONE) };
    dm_dxop(m, "dx.op.storeOutput.i32", dm_type_void(m), DM_ATTR_NOUNWIND, OP_STORE_OUTPUT,
            row_args, 4);
    dm_ret_void(m);
    static const struct dxil_sig_element inputs[1] = {
        { "SV_VertexID", 0, DXIL_SEM_VERTEX_ID, DXIL_COMP_U32, DXIL_INTERP_UNDEFINED, 1, 0 },
    };
    static const struct dxil_sig_element outputs[3] = {
        { "SV_Position", 0, DXIL_SEM_POSITION, DXIL_COMP_F32, DXIL_INTERP_NOPERSPECTIVE, 4, 0 },
        { "TEXCOORD", 0, DXIL_SEM_ARBITRARY, DXIL_COMP_U32, INTERP_CONSTANT, 1, 1 },
        { "ARR", 0, DXIL_SEM_ARBITRARY, DXIL_COMP_U32, INTERP_CONSTANT, 1, 2 },
    };
    static const struct dxil_sig_shape shapes[1] = {
        { .list = DXIL_LIST_OUTPUT, .element = 2, .rows = 2, .start_col = 0, .unallocated = false },
    };
    static const struct dxil_io_dependency deps[4] = { { 0, 0 }, { 0, 4 }, { 0, 8 }, { 0, 12 } };
    const struct dxil_program_desc d = {
        .shader_kind = SB_DXIL_SHADER_KIND_VERTEX, .entry = entry, .entry_name = "main",
        .inputs = inputs, .input_count = 1, .outputs = outputs, .output_count = 3,
        .dependencies = deps, .dependency_count = 4, .shapes = shapes, .shape_count = 1,
    };
    return dxil_program_finish(m, &d, out);
}
