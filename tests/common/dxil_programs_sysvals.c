/* SPDX-License-Identifier: MIT */
/*
 * The programs of dxil_programs_sysvals.h, laid out as dxc writes them (scalarised I/O,
 * dx.op calls with the opcode constant first); opcodes and operand lists from
 * ../shared/docs/dxil.md §3 and translator/internal/translator/dxil_ops.h.
 */
#include "dxil_programs_sysvals.h"

#include "dxil_program_io.h"
#include "shaderbridge/dxbc_dxil.h"

enum { OP_CREATE_HANDLE = 57, OP_DISCARD = 82, OP_QUAD_OP = 123, OP_ATTRIBUTE_AT_VERTEX = 137,
       OP_VIEW_ID = 138, OP_RAW_BUFFER_LOAD = 139, OP_IS_HELPER_LANE = 221,
       OP_START_VERTEX_LOCATION = 256, OP_START_INSTANCE_LOCATION = 257 };
/* QuadOpKind (docs §3): which neighbour a quadOp reads. */
enum { QUAD_ACROSS_X = 0, QUAD_ACROSS_Y = 1, QUAD_ACROSS_DIAGONAL = 2 };
enum { INTERP_CONSTANT = 1 };

static const struct dxil_sig_element TARGET0 = {
    "SV_Target", 0, DXIL_SEM_TARGET, DXIL_COMP_F32, DXIL_INTERP_UNDEFINED, 4, 0,
};
static const struct dxil_sig_element POSITION_IN = {
    "SV_Position", 0, DXIL_SEM_POSITION, DXIL_COMP_F32, DXIL_INTERP_NOPERSPECTIVE, 4, 0,
};

/* loadInput of a non-arrayed input (an undef vertex). */
static uint32_t load_input(struct dxil_module *m, uint32_t type, const char *name, int32_t element,
                           int8_t col)
{
    return dxil_program_load_input(m, type, name, element, col, dm_undef(m, dm_type_int(m, 32)));
}

/* SV_Position = (float(id), 0.5, 0, 1) from SV_VertexID (input 0); returns id. */
static uint32_t vertex_position(struct dxil_module *m)
{
    uint32_t f32 = dm_type_float(m), i32 = dm_type_int(m, 32);
    uint32_t id = load_input(m, i32, "dx.op.loadInput.i32", 0, 0);
    const uint32_t pos[4] = { dm_cast(m, DM_UITOFP, id, f32), dm_f32(m, 0.5f), dm_f32(m, 0.0f),
                              dm_f32(m, 1.0f) };
    dxil_program_store_float4(m, 0, pos);
    return id;
}

static const struct dxil_sig_element VERTEX_ID_IN = {
    "SV_VertexID", 0, DXIL_SEM_VERTEX_ID, DXIL_COMP_U32, DXIL_INTERP_UNDEFINED, 1, 0,
};

/*
 * struct O { float4 pos : SV_Position; nointerpolation uint view : VIEW; };
 * O main(uint id : SV_VertexID, uint v : SV_ViewID)
 * { O o; o.pos = float4(id, 0.5, 0, 1); o.view = v + 7; return o; }
 */
bool dxil_program_vs_view_id(struct tbuf *out)
{
    uint32_t entry = 0;
    struct dxil_module *m = dxil_program_begin(&entry);
    uint32_t i32 = dm_type_int(m, 32);
    (void)vertex_position(m);
    uint32_t view = dm_dxop(m, "dx.op.viewID.i32", i32, DM_ATTR_READNONE, OP_VIEW_ID, NULL, 0);
    dxil_program_store_output(m, "dx.op.storeOutput.i32", 1, 0,
                 dm_binop(m, DM_ADD, view, dm_i32(m, 7), DM_FLAGS_NONE));
    dm_ret_void(m);
    static const struct dxil_sig_element outputs[2] = {
        { "SV_Position", 0, DXIL_SEM_POSITION, DXIL_COMP_F32, DXIL_INTERP_NOPERSPECTIVE, 4, 0 },
        { "VIEW", 0, DXIL_SEM_ARBITRARY, DXIL_COMP_U32, INTERP_CONSTANT, 1, 1 },
    };
    static const struct dxil_io_dependency deps[4] = { { 0, 0 }, { 0, 1 }, { 0, 2 }, { 0, 3 } };
    const struct dxil_program_desc d = {
        .shader_kind = SB_DXIL_SHADER_KIND_VERTEX, .sm_minor = 1, .entry = entry,
        .entry_name = "main", .inputs = &VERTEX_ID_IN, .input_count = 1, .outputs = outputs,
        .output_count = 2, .dependencies = deps, .dependency_count = 4,
    };
    return dxil_program_finish(m, &d, out);
}

/*
 * struct O { float4 pos : SV_Position; nointerpolation uint base : BASE; };
 * O main(uint id : SV_VertexID, uint v : SV_StartVertexLocation, uint i : SV_StartInstanceLocation)
 * { O o; o.pos = float4(id, 0.5, 0, 1); o.base = v + 1000 * i + 7; return o; }   (vs_6_8)
 */
bool dxil_program_vs_start_location(struct tbuf *out)
{
    uint32_t entry = 0;
    struct dxil_module *m = dxil_program_begin(&entry);
    uint32_t i32 = dm_type_int(m, 32);
    (void)vertex_position(m);
    uint32_t first_vertex = dm_dxop(m, "dx.op.startVertexLocation.i32", i32, DM_ATTR_READNONE,
                                    OP_START_VERTEX_LOCATION, NULL, 0);
    uint32_t first_instance = dm_dxop(m, "dx.op.startInstanceLocation.i32", i32, DM_ATTR_READNONE,
                                      OP_START_INSTANCE_LOCATION, NULL, 0);
    uint32_t sum = dm_binop(m, DM_ADD, first_vertex,
                            dm_binop(m, DM_MUL, first_instance, dm_i32(m, 1000), DM_FLAGS_NONE),
                            DM_FLAGS_NONE);
    dxil_program_store_output(m, "dx.op.storeOutput.i32", 1, 0,
                              dm_binop(m, DM_ADD, sum, dm_i32(m, 7), DM_FLAGS_NONE));
    dm_ret_void(m);
    static const struct dxil_sig_element outputs[2] = {
        { "SV_Position", 0, DXIL_SEM_POSITION, DXIL_COMP_F32, DXIL_INTERP_NOPERSPECTIVE, 4, 0 },
        { "BASE", 0, DXIL_SEM_ARBITRARY, DXIL_COMP_U32, INTERP_CONSTANT, 1, 1 },
    };
    static const struct dxil_io_dependency deps[4] = { { 0, 0 }, { 0, 1 }, { 0, 2 }, { 0, 3 } };
    const struct dxil_program_desc d = {
        .shader_kind = SB_DXIL_SHADER_KIND_VERTEX, .sm_minor = 8, .entry = entry,
        .entry_name = "main", .inputs = &VERTEX_ID_IN, .input_count = 1, .outputs = outputs,
        .output_count = 2, .dependencies = deps, .dependency_count = 4,
    };
    return dxil_program_finish(m, &d, out);
}

/* dx.op.isHelperLane: an i1. */
static uint32_t is_helper_lane(struct dxil_module *m)
{
    return dm_dxop(m, "dx.op.isHelperLane.i1", dm_type_int(m, 1), DM_ATTR_READONLY,
                   OP_IS_HELPER_LANE, NULL, 0);
}

/* The tail of the helper-lane programs: o0 = (h, QuadReadAcrossX(h), QuadReadAcrossY(h),
 * QuadReadAcrossDiagonal(h)), then the ps_6_6 container (SV_Position in, SV_Target0 out; the
 * one resource `t0` when given). */
static bool finish_quad_reads(struct dxil_module *m, uint32_t entry, uint32_t h,
                              const struct dxil_resource *t0, struct tbuf *out)
{
    uint32_t f32 = dm_type_float(m);
    uint32_t target[4] = { h, 0, 0, 0 };
    static const uint8_t kinds[3] = { QUAD_ACROSS_X, QUAD_ACROSS_Y, QUAD_ACROSS_DIAGONAL };
    for (unsigned k = 0; k < 3; k++) {
        uint32_t args[2] = { h, dm_i8(m, (int8_t)kinds[k]) };
        target[k + 1] = dm_dxop(m, "dx.op.quadOp.f32", f32, DM_ATTR_NONE, OP_QUAD_OP, args, 2);
    }
    dxil_program_store_float4(m, 0, target);
    dm_ret_void(m);
    const struct dxil_program_desc d = {
        .shader_kind = SB_DXIL_SHADER_KIND_PIXEL, .sm_minor = 6, .entry = entry,
        .entry_name = "main", .shader_flags = t0 ? DXIL_FLAG_RAW_BUFFERS : 0,
        .inputs = &POSITION_IN, .input_count = 1, .outputs = &TARGET0, .output_count = 1,
        .resources = t0, .resource_count = t0 ? 1 : 0,
    };
    return dxil_program_finish(m, &d, out);
}

/*
 * float4 main(float4 pos : SV_Position) : SV_Target0
 * {
 *     float h = IsHelperLane() ? 1.0 : 0.0;
 *     return float4(h, QuadReadAcrossX(h), QuadReadAcrossY(h), QuadReadAcrossDiagonal(h));
 * }
 */
bool dxil_program_ps_helper_lane(struct tbuf *out)
{
    uint32_t entry = 0;
    struct dxil_module *m = dxil_program_begin(&entry);
    uint32_t f32 = dm_type_float(m), i32 = dm_type_int(m, 32);
    uint32_t helper = is_helper_lane(m);
    uint32_t h = dm_cast(m, DM_UITOFP, dm_cast(m, DM_ZEXT, helper, i32), f32);
    return finish_quad_reads(m, entry, h, NULL, out);
}

/*
 * float4 main(float4 pos : SV_Position) : SV_Target0
 * {
 *     float h = 2.0;
 *     [branch] if (IsHelperLane()) h = 1.0;
 *     return float4(h, QuadReadAcrossX(h), QuadReadAcrossY(h), QuadReadAcrossDiagonal(h));
 * }
 * The helper lanes write h inside a branch the real pixel does not take (a phi of 1.0 from
 * the branch, 2.0 from the entry block), then the quad reads it.
 */
bool dxil_program_ps_helper_branch(struct tbuf *out)
{
    struct dxil_module *m = dm_create();
    uint32_t entry = dm_entry(m, "main");
    uint32_t f32 = dm_type_float(m);
    uint32_t head = dm_block(m), helper_only = dm_block(m), join = dm_block(m);
    dm_at(m, head);
    uint32_t helper = is_helper_lane(m);
    dm_br_cond(m, helper, helper_only, join);
    dm_at(m, helper_only);
    /* 1.0 computed from the lane's position, so the branch has work and stays a branch. */
    uint32_t x = load_input(m, f32, "dx.op.loadInput.f32", 0, 0);
    uint32_t one = dm_binop(m, DM_ADD, dm_binop(m, DM_MUL, x, dm_f32(m, 0.0f), DM_FLAGS_NONE),
                            dm_f32(m, 1.0f), DM_FLAGS_NONE);
    dm_br(m, join);
    dm_at(m, join);
    uint32_t h = dm_phi(m, f32);
    dm_phi_incoming(m, h, one, helper_only);
    dm_phi_incoming(m, h, dm_f32(m, 2.0f), head);
    return finish_quad_reads(m, entry, h, NULL, out);
}

/*
 * float4 main(float4 pos : SV_Position) : SV_Target0
 * {
 *     float h = IsHelperLane() ? 1.0 : 2.0;
 *     if (IsHelperLane()) discard;
 *     return float4(h, QuadReadAcrossX(h), QuadReadAcrossY(h), QuadReadAcrossDiagonal(h));
 * }
 * D3D's discard demotes a lane to a helper, so the helpers that discard still answer the
 * quad reads.
 */
bool dxil_program_ps_helper_discard(struct tbuf *out)
{
    uint32_t entry = 0;
    struct dxil_module *m = dxil_program_begin(&entry);
    uint32_t f32 = dm_type_float(m), i32 = dm_type_int(m, 32);
    uint32_t helper = is_helper_lane(m);
    uint32_t h = dm_binop(m, DM_SUB, dm_f32(m, 2.0f),
                          dm_cast(m, DM_UITOFP, dm_cast(m, DM_ZEXT, helper, i32), f32),
                          DM_FLAGS_NONE);
    uint32_t discard_args[1] = { helper };
    (void)dm_dxop(m, "dx.op.discard", dm_type_void(m), DM_ATTR_NONE, OP_DISCARD, discard_args, 1);
    return finish_quad_reads(m, entry, h, NULL, out);
}

/*
 * StructuredBuffer<float> t0 : register(t0);
 * float4 main(float4 pos : SV_Position) : SV_Target0
 * {
 *     uint lane = (uint(pos.x) & 1) | ((uint(pos.y) & 1) << 1);
 *     float h = t0[lane];
 *     return float4(h, QuadReadAcrossX(h), QuadReadAcrossY(h), QuadReadAcrossDiagonal(h));
 * }
 * Every lane of a quad, helpers included, loads its own element, then the quad reads them.
 */
bool dxil_program_ps_helper_load(struct tbuf *out)
{
    static const struct dxil_resource t0 = {
        .resource_class = DXIL_CLASS_SRV, .kind = DXIL_KIND_STRUCTURED_BUFFER,
        .type_name = "class.StructuredBuffer<float>", .struct_stride = 4,
    };
    uint32_t entry = 0;
    struct dxil_module *m = dxil_program_begin(&entry);
    uint32_t f32 = dm_type_float(m), i32 = dm_type_int(m, 32);
    uint32_t i8ptr = dm_type_ptr(m, dm_type_int(m, 8), 0);
    uint32_t handle_type = dm_type_struct(m, "dx.types.Handle", &i8ptr, 1);
    const uint32_t ret_members[5] = { f32, f32, f32, f32, i32 };
    uint32_t resret = dm_type_struct(m, "dx.types.ResRet.f32", ret_members, 5);
    uint32_t handle_args[4] = { dm_i8(m, DXIL_CLASS_SRV), dm_i32(m, 0), dm_i32(m, 0), dm_i1(m, false) };
    uint32_t h0 = dm_dxop(m, "dx.op.createHandle", handle_type, DM_ATTR_READONLY, OP_CREATE_HANDLE,
                          handle_args, 4);
    uint32_t x = dm_cast(m, DM_FPTOUI, load_input(m, f32, "dx.op.loadInput.f32", 0, 0), i32);
    uint32_t y = dm_cast(m, DM_FPTOUI, load_input(m, f32, "dx.op.loadInput.f32", 0, 1), i32);
    uint32_t lane = dm_binop(m, DM_OR, dm_binop(m, DM_AND, x, dm_i32(m, 1), DM_FLAGS_NONE),
                             dm_binop(m, DM_SHL, dm_binop(m, DM_AND, y, dm_i32(m, 1), DM_FLAGS_NONE),
                                      dm_i32(m, 1), DM_FLAGS_NONE),
                             DM_FLAGS_NONE);
    uint32_t load_args[5] = { h0, lane, dm_i32(m, 0), dm_i8(m, 1), dm_i32(m, 4) };
    uint32_t h = dm_extractvalue(m, dm_dxop(m, "dx.op.rawBufferLoad.f32", resret, DM_ATTR_READONLY,
                                            OP_RAW_BUFFER_LOAD, load_args, 5), 0);
    return finish_quad_reads(m, entry, h, &t0, out);
}

/*
 * float4 main(float4 pos : SV_Position, float3 b : SV_Barycentrics,
 *             noperspective float3 n : SV_Barycentrics1) : SV_Target0
 * { return float4(b.x, b.y + 2 * b.z, 4 * n.x, n.y + n.z); }
 */
bool dxil_program_ps_barycentrics(struct tbuf *out)
{
    uint32_t entry = 0;
    struct dxil_module *m = dxil_program_begin(&entry);
    uint32_t f32 = dm_type_float(m);
    uint32_t b[3], n[3];
    for (int8_t c = 0; c < 3; c++) {
        b[c] = load_input(m, f32, "dx.op.loadInput.f32", 1, c);
        n[c] = load_input(m, f32, "dx.op.loadInput.f32", 2, c);
    }
    const uint32_t target[4] = {
        b[0],
        dm_binop(m, DM_ADD, b[1], dm_binop(m, DM_MUL, b[2], dm_f32(m, 2.0f), DM_FLAGS_NONE),
                 DM_FLAGS_NONE),
        dm_binop(m, DM_MUL, n[0], dm_f32(m, 4.0f), DM_FLAGS_NONE),
        dm_binop(m, DM_ADD, n[1], n[2], DM_FLAGS_NONE),
    };
    dxil_program_store_float4(m, 0, target);
    dm_ret_void(m);
    static const struct dxil_sig_element inputs[3] = {
        { "SV_Position", 0, DXIL_SEM_POSITION, DXIL_COMP_F32, DXIL_INTERP_NOPERSPECTIVE, 4, 0 },
        { "SV_Barycentrics", 0, DXIL_SEM_BARYCENTRICS, DXIL_COMP_F32, DXIL_INTERP_LINEAR, 3, 0 },
        { "SV_Barycentrics", 1, DXIL_SEM_BARYCENTRICS, DXIL_COMP_F32, DXIL_INTERP_NOPERSPECTIVE,
          3, 0 },
    };
    /* dxc leaves SV_Barycentrics unallocated (start row and column -1). */
    static const struct dxil_sig_shape shapes[2] = {
        { .list = DXIL_LIST_INPUT, .element = 1, .rows = 1, .start_col = 0, .unallocated = true },
        { .list = DXIL_LIST_INPUT, .element = 2, .rows = 1, .start_col = 0, .unallocated = true },
    };
    const struct dxil_program_desc d = {
        .shader_kind = SB_DXIL_SHADER_KIND_PIXEL, .sm_minor = 1, .entry = entry,
        .entry_name = "main", .inputs = inputs, .input_count = 3, .outputs = &TARGET0,
        .output_count = 1, .shapes = shapes, .shape_count = 2,
    };
    return dxil_program_finish(m, &d, out);
}

/*
 * struct O { float4 pos : SV_Position; uint rate : SV_ShadingRate; };
 * O main(uint id : SV_VertexID)
 * { O o; o.pos = float4(id, 0.5, 0, 1); o.rate = 0x4 | (id & 1); return o; }
 */
bool dxil_program_vs_shading_rate(struct tbuf *out)
{
    uint32_t entry = 0;
    struct dxil_module *m = dxil_program_begin(&entry);
    uint32_t id = vertex_position(m);
    uint32_t odd = dm_binop(m, DM_AND, id, dm_i32(m, 1), DM_FLAGS_NONE);
    dxil_program_store_output(m, "dx.op.storeOutput.i32", 1, 0,
                 dm_binop(m, DM_OR, odd, dm_i32(m, 4), DM_FLAGS_NONE));
    dm_ret_void(m);
    static const struct dxil_sig_element outputs[2] = {
        { "SV_Position", 0, DXIL_SEM_POSITION, DXIL_COMP_F32, DXIL_INTERP_NOPERSPECTIVE, 4, 0 },
        { "SV_ShadingRate", 0, DXIL_SEM_SHADING_RATE, DXIL_COMP_U32, INTERP_CONSTANT, 1, 1 },
    };
    static const struct dxil_io_dependency deps[5] = {
        { 0, 0 }, { 0, 1 }, { 0, 2 }, { 0, 3 }, { 0, 4 },
    };
    const struct dxil_program_desc d = {
        .shader_kind = SB_DXIL_SHADER_KIND_VERTEX, .sm_minor = 4, .entry = entry,
        .entry_name = "main", .inputs = &VERTEX_ID_IN, .input_count = 1, .outputs = outputs,
        .output_count = 2, .dependencies = deps, .dependency_count = 5,
    };
    return dxil_program_finish(m, &d, out);
}

/*
 * float4 main(float4 pos : SV_Position, uint r : SV_ShadingRate) : SV_Target0
 * { return float4(r + 1, r >> 2, r & 3, 1); }
 */
bool dxil_program_ps_shading_rate(struct tbuf *out)
{
    uint32_t entry = 0;
    struct dxil_module *m = dxil_program_begin(&entry);
    uint32_t f32 = dm_type_float(m), i32 = dm_type_int(m, 32);
    uint32_t r = load_input(m, i32, "dx.op.loadInput.i32", 1, 0);
    const uint32_t target[4] = {
        dm_cast(m, DM_UITOFP, dm_binop(m, DM_ADD, r, dm_i32(m, 1), DM_FLAGS_NONE), f32),
        dm_cast(m, DM_UITOFP, dm_binop(m, DM_LSHR, r, dm_i32(m, 2), DM_FLAGS_NONE), f32),
        dm_cast(m, DM_UITOFP, dm_binop(m, DM_AND, r, dm_i32(m, 3), DM_FLAGS_NONE), f32),
        dm_f32(m, 1.0f),
    };
    dxil_program_store_float4(m, 0, target);
    dm_ret_void(m);
    static const struct dxil_sig_element inputs[2] = {
        { "SV_Position", 0, DXIL_SEM_POSITION, DXIL_COMP_F32, DXIL_INTERP_NOPERSPECTIVE, 4, 0 },
        { "SV_ShadingRate", 0, DXIL_SEM_SHADING_RATE, DXIL_COMP_U32, INTERP_CONSTANT, 1, 1 },
    };
    static const struct dxil_io_dependency deps[3] = { { 4, 0 }, { 4, 1 }, { 4, 2 } };
    const struct dxil_program_desc d = {
        .shader_kind = SB_DXIL_SHADER_KIND_PIXEL, .sm_minor = 4, .entry = entry,
        .entry_name = "main", .inputs = inputs, .input_count = 2, .outputs = &TARGET0,
        .output_count = 1, .dependencies = deps, .dependency_count = 3,
    };
    return dxil_program_finish(m, &d, out);
}

/*
 * float4 main(nointerpolation float4 c : COLOR) : SV_Target0
 * { return float4(GetAttributeAtVertex(c, 1).x, 0, 0, 1); }
 */
bool dxil_program_ps_attribute_at_vertex(struct tbuf *out)
{
    uint32_t entry = 0;
    struct dxil_module *m = dxil_program_begin(&entry);
    uint32_t f32 = dm_type_float(m);
    uint32_t args[4] = { dm_i32(m, 0), dm_i32(m, 0), dm_i8(m, 0), dm_i8(m, 1) };
    const uint32_t target[4] = {
        dm_dxop(m, "dx.op.attributeAtVertex.f32", f32, DM_ATTR_READNONE, OP_ATTRIBUTE_AT_VERTEX,
                args, 4),
        dm_f32(m, 0.0f), dm_f32(m, 0.0f), dm_f32(m, 1.0f),
    };
    dxil_program_store_float4(m, 0, target);
    dm_ret_void(m);
    static const struct dxil_sig_element inputs[1] = {
        { "COLOR", 0, DXIL_SEM_ARBITRARY, DXIL_COMP_F32, INTERP_CONSTANT, 4, 0 },
    };
    const struct dxil_program_desc d = {
        .shader_kind = SB_DXIL_SHADER_KIND_PIXEL, .sm_minor = 1, .entry = entry,
        .entry_name = "main", .inputs = inputs, .input_count = 1, .outputs = &TARGET0,
        .output_count = 1,
    };
    return dxil_program_finish(m, &d, out);
}
