/* SPDX-License-Identifier: MIT */
/*
 * The mesh and amplification programs of dxil_programs_mesh.h, laid out as dxc
 * writes them (dx.op calls with the opcode first, scalar output stores, the
 * payload through getelementptr); opcodes and operands from
 * ../shared/docs/dxil.md §3 "Mesh and amplification shaders", MSState/ASState
 * from §4.2.
 */
#include "dxil_programs_mesh.h"

#include "dxil_program_writer.h"
#include "shaderbridge/dxbc_dxil.h"

enum { OP_FLATTENED_THREAD_ID = 96, OP_SET_MESH_OUTPUT_COUNTS = 168, OP_EMIT_INDICES = 169,
       OP_GET_MESH_PAYLOAD = 170, OP_STORE_VERTEX_OUTPUT = 171, OP_STORE_PRIMITIVE_OUTPUT = 172,
       OP_DISPATCH_MESH = 173 };
enum { MESH_TOPOLOGY_TRIANGLE = 2, PAYLOAD_BYTES = 8 };

static uint32_t flattened_thread_id(struct dxil_module *m)
{
    return dm_dxop(m, "dx.op.flattenedThreadIdInGroup.i32", dm_type_int(m, 32),
                   DM_ATTR_READNONE, OP_FLATTENED_THREAD_ID, NULL, 0);
}

/* The payload's type: [2 x i32] (the writer's getelementptr walks arrays). */
static uint32_t payload_type(struct dxil_module *m)
{
    return dm_type_array(m, 2, dm_type_int(m, 32));
}

/* Element `index` (a value: constant or not) of a [2 x i32] payload pointer. */
static uint32_t payload_element(struct dxil_module *m, uint32_t payload, uint32_t index)
{
    uint32_t indices[2] = { dm_i32(m, 0), index };
    return dm_gep(m, true, payload, indices, 2);
}

/* store{Vertex,Primitive}Output.{f32,i32}(op, sigId, row, col, value, index). */
static void store_output(struct dxil_module *m, bool primitive, int32_t element, int32_t row,
                         int8_t col, uint32_t value, uint32_t index)
{
    bool is_float = dm_value_type(m, value) == dm_type_float(m);
    const char *name = primitive ? (is_float ? "dx.op.storePrimitiveOutput.f32"
                                             : "dx.op.storePrimitiveOutput.i32")
                                 : (is_float ? "dx.op.storeVertexOutput.f32"
                                             : "dx.op.storeVertexOutput.i32");
    uint32_t args[5] = { dm_i32(m, element), dm_i32(m, row), dm_i8(m, col), value, index };
    dm_dxop(m, name, dm_type_void(m), DM_ATTR_NOUNWIND,
            primitive ? OP_STORE_PRIMITIVE_OUTPUT : OP_STORE_VERTEX_OUTPUT, args, 5);
}

static bool finish(struct dxil_module *m, const struct dxil_program_desc *d, struct tbuf *out)
{
    bool ok = dxil_program_write(m, d, out);
    dm_destroy(m);
    return ok;
}

bool dxil_program_ms_triangle(struct tbuf *out)
{
    struct dxil_module *m = dm_create();
    if (!m)
        return false;
    uint32_t entry = dm_entry(m, "main");
    dm_at(m, dm_block(m));
    uint32_t tid = flattened_thread_id(m);
    uint32_t payload = dm_dxop(m, "dx.op.getMeshPayload.arr", dm_type_ptr(m, payload_type(m), 0),
                               DM_ATTR_READONLY, OP_GET_MESH_PAYLOAD, NULL, 0);
    uint32_t counts[2] = { dm_i32(m, 3), dm_i32(m, 1) };
    dm_dxop(m, "dx.op.setMeshOutputCounts", dm_type_void(m), DM_ATTR_NOUNWIND,
            OP_SET_MESH_OUTPUT_COUNTS, counts, 2);
    uint32_t position[4] = { dm_cast(m, DM_UITOFP, tid, dm_type_float(m)), dm_f32(m, 0.5f),
                             dm_f32(m, 0.0f), dm_f32(m, 1.0f) };
    for (int8_t c = 0; c < 4; c++)
        store_output(m, false, 0, 0, c, position[c], tid);
    uint32_t indices[4] = { dm_i32(m, 0), dm_i32(m, 0), dm_i32(m, 1), dm_i32(m, 2) };
    dm_dxop(m, "dx.op.emitIndices", dm_type_void(m), DM_ATTR_NOUNWIND, OP_EMIT_INDICES, indices, 4);
    static const float color[4] = { 0.25f, 0.5f, 0.75f, 1.0f };
    for (int8_t c = 0; c < 4; c++)
        store_output(m, true, 0, 0, c, dm_f32(m, color[c]), dm_i32(m, 0));
    uint32_t tag = dm_load(m, payload_element(m, payload, dm_i32(m, 1)), 4);
    store_output(m, true, 1, 0, 0, tag, dm_i32(m, 0));
    dm_ret_void(m);

    static const struct dxil_sig_element vertex_outputs[1] = {
        { .semantic = "SV_Position", .semantic_kind = DXIL_SEM_POSITION,
          .component_type = DXIL_COMP_F32, .interpolation = DXIL_INTERP_NOPERSPECTIVE, .cols = 4 },
    };
    static const struct dxil_sig_element primitive_outputs[2] = {
        { .semantic = "COLOR", .semantic_kind = DXIL_SEM_ARBITRARY, .component_type = DXIL_COMP_F32,
          .interpolation = DXIL_INTERP_LINEAR, .cols = 4, .start_row = 0 },
        { .semantic = "PRIM_TAG", .semantic_kind = DXIL_SEM_ARBITRARY,
          .component_type = DXIL_COMP_U32, .cols = 1, .start_row = 1 },
    };
    const struct dxil_program_desc d = {
        .shader_kind = SB_DXIL_SHADER_KIND_MESH, .sm_minor = 5, .entry = entry, .entry_name = "main",
        .num_threads = { 3, 1, 1 }, .outputs = vertex_outputs, .output_count = 1,
        .patch_constants = primitive_outputs, .patch_constant_count = 2, .max_vertices = 3,
        .max_primitives = 1, .mesh_topology = MESH_TOPOLOGY_TRIANGLE, .payload_size = PAYLOAD_BYTES,
    };
    return finish(m, &d, out);
}

bool dxil_program_as_payload(struct tbuf *out)
{
    struct dxil_module *m = dm_create();
    if (!m)
        return false;
    uint32_t payload = dm_global(m, "payload", payload_type(m), 3);
    uint32_t entry = dm_entry(m, "main");
    dm_at(m, dm_block(m));
    uint32_t tid = flattened_thread_id(m);
    dm_store(m, payload_element(m, payload, dm_i32(m, 0)), tid, 4);
    dm_store(m, payload_element(m, payload, dm_i32(m, 1)), dm_i32(m, 7), 4);
    dm_store(m, payload_element(m, payload, tid), tid, 4);
    uint32_t args[4] = { dm_i32(m, 2), dm_i32(m, 1), dm_i32(m, 1), payload };
    dm_dxop(m, "dx.op.dispatchMesh.arr", dm_type_void(m), DM_ATTR_NOUNWIND, OP_DISPATCH_MESH, args, 4);
    dm_ret_void(m);
    const struct dxil_program_desc d = {
        .shader_kind = SB_DXIL_SHADER_KIND_AMPLIFICATION, .sm_minor = 5, .entry = entry,
        .entry_name = "main", .num_threads = { 4, 1, 1 }, .payload_size = PAYLOAD_BYTES,
    };
    return finish(m, &d, out);
}
