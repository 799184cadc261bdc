/* SPDX-License-Identifier: MIT */
/*
 * The hull and domain programs of dxil_programs_tess.h, laid out as dxc
 * writes them (dx.op calls with the opcode constant first, scalarised I/O,
 * the patch-constant function a second body named by HSState); opcodes and
 * operand lists from ../shared/docs/dxil.md §3.6, states from §4.2.
 */
#include "dxil_programs_tess.h"

#include "dxil_program_writer.h"
#include "shaderbridge/dxbc_dxil.h"

enum { OP_LOAD_INPUT = 4, OP_STORE_OUTPUT = 5, OP_CREATE_HANDLE = 57,
       OP_CBUFFER_LOAD_LEGACY = 59, OP_LOAD_OUTPUT_CONTROL_POINT = 103,
       OP_LOAD_PATCH_CONSTANT = 104, OP_DOMAIN_LOCATION = 105, OP_STORE_PATCH_CONSTANT = 106,
       OP_OUTPUT_CONTROL_POINT_ID = 107, OP_PRIMITIVE_ID = 108 };
/* Patch-constant element IDs (dxil_programs_tess.h has the layout). */
enum { PC_TESS_FACTOR = 0, PC_INSIDE_TESS_FACTOR = 1, PC_CORNER = 2 };
enum { DOMAIN_TRI = 2, PARTITION_INTEGER = 1, OUTPUT_TRIANGLE_CW = 3, POINTS = 3 };

static const struct dxil_sig_element CONTROL_POINT[1] = {
    { "POSITION", 0, DXIL_SEM_ARBITRARY, DXIL_COMP_F32, DXIL_INTERP_LINEAR, 4, 0 },
};
static const struct dxil_sig_element PATCH_CONSTANTS[3] = {
    { "SV_TessFactor", 0, DXIL_SEM_TESS_FACTOR, DXIL_COMP_F32, DXIL_INTERP_UNDEFINED, 1, 0 },
    { "SV_InsideTessFactor", 0, DXIL_SEM_INSIDE_TESS_FACTOR, DXIL_COMP_F32,
      DXIL_INTERP_UNDEFINED, 1, 3 },
    { "CORNER", 0, DXIL_SEM_ARBITRARY, DXIL_COMP_F32, DXIL_INTERP_UNDEFINED, 2, 0 },
};
/* SV_TessFactor: three rows in column 3. */
static const struct dxil_sig_shape TESS_FACTOR_SHAPE = {
    .list = DXIL_LIST_PATCH_CONSTANT, .element = PC_TESS_FACTOR, .rows = 3, .start_col = 3,
};

/* A signature dx.op call: the opcode, (element id, row, column) as constants, then
 * `tail` (the control-point index or the value to store) unless it is DM_NONE. */
static uint32_t io_call(struct dxil_module *m, const char *name, uint32_t ret, enum dm_attr attr,
                        int32_t opcode, int32_t id, int32_t row, int8_t col, uint32_t tail)
{
    uint32_t args[4] = { dm_i32(m, id), dm_i32(m, row), dm_i8(m, col), tail };
    return dm_dxop(m, name, ret, attr, opcode, args, tail == DM_NONE ? 3 : 4);
}

/*
 * cbuffer cb0 : register(b0) { float4 factors; };
 * struct CP { float4 pos : POSITION; };
 * struct PC { float edges[3] : SV_TessFactor; float inside : SV_InsideTessFactor;
 *             float2 corner : CORNER; };
 * PC patch_constants(InputPatch<CP, 3> ip, OutputPatch<CP, 3> op)
 * { PC o; o.edges[0] = factors.x; o.edges[1] = factors.y; o.edges[2] = factors.z;
 *   o.inside = factors.w; o.corner = float2(op[2].pos.y, ip[1].pos.x); return o; }
 * [domain("tri")] [partitioning("integer")] [outputtopology("triangle_cw")]
 * [outputcontrolpoints(3)] [patchconstantfunc("patch_constants")] [maxtessfactor(16.0)]
 * CP main(InputPatch<CP, 3> ip, uint id : SV_OutputControlPointID) { return ip[id]; }
 */
/* hs_tri and the variants of dxil_programs_tess.h. */
enum hull_variant { HULL_TRI, HULL_MISPLACED_STORE, HULL_PASS_THROUGH };
static bool write_hull(struct tbuf *out, enum hull_variant variant);

bool dxil_program_hs_tri(struct tbuf *out)
{
    return write_hull(out, HULL_TRI);
}

bool dxil_program_hs_misplaced_store(struct tbuf *out)
{
    return write_hull(out, HULL_MISPLACED_STORE);
}

bool dxil_program_hs_pass_through(struct tbuf *out)
{
    return write_hull(out, HULL_PASS_THROUGH);
}

/* HULL_MISPLACED_STORE: main also writes CORNER.x with storePatchConstant;
 * HULL_PASS_THROUGH: no main at all (a null entry function). */
static bool write_hull(struct tbuf *out, enum hull_variant variant)
{
    struct dxil_module *m = dm_create();
    uint32_t f32 = dm_type_float(m), i32 = dm_type_int(m, 32);
    uint32_t f4[4] = { f32, f32, f32, f32 };
    uint32_t cbufret = dm_type_struct(m, "dx.types.CBufRet.f32", f4, 4);
    uint32_t i8ptr = dm_type_ptr(m, dm_type_int(m, 8), 0);
    uint32_t handle = dm_type_struct(m, "dx.types.Handle", &i8ptr, 1);
    uint32_t entry = DM_NONE;
    if (variant != HULL_PASS_THROUGH) {
        entry = dm_entry(m, "main");
        dm_at(m, dm_block(m));
        uint32_t id = dm_dxop(m, "dx.op.outputControlPointID.i32", i32, DM_ATTR_READNONE,
                              OP_OUTPUT_CONTROL_POINT_ID, NULL, 0);
        for (int8_t c = 0; c < 4; c++) {
            uint32_t v = io_call(m, "dx.op.loadInput.f32", f32, DM_ATTR_READNONE, OP_LOAD_INPUT,
                                 0, 0, c, id);
            io_call(m, "dx.op.storeOutput.f32", dm_type_void(m), DM_ATTR_NOUNWIND,
                    OP_STORE_OUTPUT, 0, 0, c, v);
        }
        if (variant == HULL_MISPLACED_STORE)
            io_call(m, "dx.op.storePatchConstant.f32", dm_type_void(m), DM_ATTR_NOUNWIND,
                    OP_STORE_PATCH_CONSTANT, PC_CORNER, 0, 0, dm_f32(m, 1.0f));
        dm_ret_void(m);
    }

    uint32_t patch = dm_function(m, "patch_constants");
    dm_at(m, dm_block(m));
    uint32_t handle_args[4] = { dm_i8(m, DXIL_CLASS_CBV), dm_i32(m, 0), dm_i32(m, 0),
                                dm_i1(m, false) };
    uint32_t cb0 = dm_dxop(m, "dx.op.createHandle", handle, DM_ATTR_READONLY, OP_CREATE_HANDLE,
                           handle_args, 4);
    uint32_t row_args[2] = { cb0, dm_i32(m, 0) };
    uint32_t row = dm_dxop(m, "dx.op.cbufferLoadLegacy.f32", cbufret, DM_ATTR_READONLY,
                           OP_CBUFFER_LOAD_LEGACY, row_args, 2);
    const char *store = "dx.op.storePatchConstant.f32";
    for (int32_t r = 0; r < 3; r++)
        io_call(m, store, dm_type_void(m), DM_ATTR_NOUNWIND, OP_STORE_PATCH_CONSTANT,
                PC_TESS_FACTOR, r, 0, dm_extractvalue(m, row, (unsigned)r));
    io_call(m, store, dm_type_void(m), DM_ATTR_NOUNWIND, OP_STORE_PATCH_CONSTANT,
            PC_INSIDE_TESS_FACTOR, 0, 0, dm_extractvalue(m, row, 3));
    uint32_t corner_x = io_call(m, "dx.op.loadOutputControlPoint.f32", f32, DM_ATTR_READNONE,
                                OP_LOAD_OUTPUT_CONTROL_POINT, 0, 0, 1, dm_i32(m, 2));
    uint32_t corner_y = io_call(m, "dx.op.loadInput.f32", f32, DM_ATTR_READNONE, OP_LOAD_INPUT,
                                0, 0, 0, dm_i32(m, 1));
    io_call(m, store, dm_type_void(m), DM_ATTR_NOUNWIND, OP_STORE_PATCH_CONSTANT, PC_CORNER, 0,
            0, corner_x);
    io_call(m, store, dm_type_void(m), DM_ATTR_NOUNWIND, OP_STORE_PATCH_CONSTANT, PC_CORNER, 0,
            1, corner_y);
    dm_ret_void(m);

    static const struct dxil_resource cbuffer = {
        .resource_class = DXIL_CLASS_CBV, .kind = DXIL_KIND_CBUFFER, .cbuffer_size = 16,
        .type_name = "cb0",
    };
    const struct dxil_program_desc d = {
        .shader_kind = SB_DXIL_SHADER_KIND_HULL, .entry = entry, .entry_name = "main",
        .inputs = CONTROL_POINT, .input_count = 1, .outputs = CONTROL_POINT, .output_count = 1,
        .resources = &cbuffer, .resource_count = 1,
        .patch_constants = PATCH_CONSTANTS, .patch_constant_count = 3,
        .shapes = &TESS_FACTOR_SHAPE, .shape_count = 1,
        .tess = { .patch_function = patch, .input_control_points = POINTS,
                  .output_control_points = POINTS, .domain = DOMAIN_TRI,
                  .partitioning = PARTITION_INTEGER, .output_primitive = OUTPUT_TRIANGLE_CW,
                  .max_tess_factor = 16.0f },
    };
    bool ok = dxil_program_write(m, &d, out);
    dm_destroy(m);
    return ok;
}

/*
 * struct CP { float4 pos : POSITION; };
 * struct PC { float edges[3] : SV_TessFactor; float inside : SV_InsideTessFactor;
 *             float2 corner : CORNER; };
 * struct DSOut { float4 pos : SV_Position; float2 uv : TEXCOORD0; uint prim : PRIM; };
 * [domain("tri")]
 * DSOut main(PC pc, float3 uvw : SV_DomainLocation, const OutputPatch<CP, 3> p,
 *            uint prim : SV_PrimitiveID)
 * { DSOut o; o.pos = uvw.x * p[0].pos + uvw.y * p[1].pos + uvw.z * p[2].pos;
 *   o.uv = float2(pc.inside, pc.corner.y); o.prim = prim; return o; }
 */
bool dxil_program_ds_tri(struct tbuf *out)
{
    struct dxil_module *m = dm_create();
    uint32_t f32 = dm_type_float(m);
    uint32_t entry = dm_entry(m, "main");
    dm_at(m, dm_block(m));
    uint32_t uvw[3];
    for (int8_t k = 0; k < 3; k++) {
        uint32_t component = dm_i8(m, k);
        uvw[k] = dm_dxop(m, "dx.op.domainLocation.f32", f32, DM_ATTR_READNONE,
                         OP_DOMAIN_LOCATION, &component, 1);
    }
    for (int8_t c = 0; c < 4; c++) {
        uint32_t sum = DM_NONE;
        for (int32_t k = 0; k < 3; k++) {
            uint32_t p = io_call(m, "dx.op.loadInput.f32", f32, DM_ATTR_READNONE, OP_LOAD_INPUT,
                                 0, 0, c, dm_i32(m, k));
            uint32_t term = dm_binop(m, DM_MUL, uvw[k], p, DM_FAST_MATH);
            sum = sum == DM_NONE ? term : dm_binop(m, DM_ADD, sum, term, DM_FAST_MATH);
        }
        io_call(m, "dx.op.storeOutput.f32", dm_type_void(m), DM_ATTR_NOUNWIND, OP_STORE_OUTPUT,
                0, 0, c, sum);
    }
    uint32_t inside = io_call(m, "dx.op.loadPatchConstant.f32", f32, DM_ATTR_READNONE,
                              OP_LOAD_PATCH_CONSTANT, PC_INSIDE_TESS_FACTOR, 0, 0, DM_NONE);
    uint32_t corner_y = io_call(m, "dx.op.loadPatchConstant.f32", f32, DM_ATTR_READNONE,
                                OP_LOAD_PATCH_CONSTANT, PC_CORNER, 0, 1, DM_NONE);
    io_call(m, "dx.op.storeOutput.f32", dm_type_void(m), DM_ATTR_NOUNWIND, OP_STORE_OUTPUT, 1, 0,
            0, inside);
    io_call(m, "dx.op.storeOutput.f32", dm_type_void(m), DM_ATTR_NOUNWIND, OP_STORE_OUTPUT, 1, 0,
            1, corner_y);
    uint32_t prim = dm_dxop(m, "dx.op.primitiveID.i32", dm_type_int(m, 32), DM_ATTR_READNONE,
                            OP_PRIMITIVE_ID, NULL, 0);
    io_call(m, "dx.op.storeOutput.i32", dm_type_void(m), DM_ATTR_NOUNWIND, OP_STORE_OUTPUT, 2, 0,
            0, prim);
    dm_ret_void(m);

    static const struct dxil_sig_element outputs[3] = {
        { "SV_Position", 0, DXIL_SEM_POSITION, DXIL_COMP_F32, DXIL_INTERP_NOPERSPECTIVE, 4, 0 },
        { "TEXCOORD", 0, DXIL_SEM_ARBITRARY, DXIL_COMP_F32, DXIL_INTERP_LINEAR, 2, 1 },
        { "PRIM", 0, DXIL_SEM_ARBITRARY, DXIL_COMP_U32, DXIL_INTERP_UNDEFINED, 1, 2 },
    };
    const struct dxil_program_desc d = {
        .shader_kind = SB_DXIL_SHADER_KIND_DOMAIN, .entry = entry, .entry_name = "main",
        .inputs = CONTROL_POINT, .input_count = 1, .outputs = outputs, .output_count = 3,
        .patch_constants = PATCH_CONSTANTS, .patch_constant_count = 3,
        .shapes = &TESS_FACTOR_SHAPE, .shape_count = 1,
        .tess = { .input_control_points = POINTS, .domain = DOMAIN_TRI },
    };
    bool ok = dxil_program_write(m, &d, out);
    dm_destroy(m);
    return ok;
}
