/* SPDX-License-Identifier: MIT */
/*
 * The DXIL test programs of dxil_programs.h, written the way dxc lays them
 * out (handles first, dx.op calls with the opcode constant first, scalarised
 * I/O, extractvalue right after a struct-returning call); opcodes and operand
 * lists from ../shared/docs/dxil.md §3.6.
 */
#include "dxil_programs.h"

#include "dxil_program_writer.h"
#include "shaderbridge/dxbc_dxil.h"

enum { OP_LOAD_INPUT = 4, OP_STORE_OUTPUT = 5, OP_CREATE_HANDLE = 57, OP_CBUFFER_LOAD_LEGACY = 59,
       OP_BUFFER_STORE = 69, OP_BARRIER = 80, OP_BARRIER_BY_MEMORY_TYPE = 244, OP_THREAD_ID = 93, OP_FLATTENED_THREAD_ID = 96,
       OP_SATURATE = 7, OP_FMAX = 35, OP_FMAD = 46, OP_DOT3 = 55 };
/* Barrier mode: group sync + groupshared fence (docs §3.4). */
enum { BARRIER_SYNC_AND_TGSM = 9 };

static const struct dxil_resource RAW_U0 = {
    .resource_class = DXIL_CLASS_UAV, .kind = DXIL_KIND_RAW_BUFFER,
    .type_name = "struct.RWByteAddressBuffer",
};
/* u0 (raw) and cb0 (16 bytes): the compute programs that read a cbuffer. */
static const struct dxil_resource RAW_U0_CB0[2] = {
    { .resource_class = DXIL_CLASS_UAV, .kind = DXIL_KIND_RAW_BUFFER,
      .type_name = "struct.RWByteAddressBuffer" },
    { .resource_class = DXIL_CLASS_CBV, .kind = DXIL_KIND_CBUFFER, .cbuffer_size = 16,
      .type_name = "cb0" },
};
static const struct dxil_resource CB0_16 = {
    .resource_class = DXIL_CLASS_CBV, .kind = DXIL_KIND_CBUFFER, .cbuffer_size = 16,
    .type_name = "cb0",
};

static uint32_t handle_type(struct dxil_module *m)
{
    uint32_t i8ptr = dm_type_ptr(m, dm_type_int(m, 8), 0);
    return dm_type_struct(m, "dx.types.Handle", &i8ptr, 1);
}

/* createHandle(57, class, rangeId, register, non-uniform = false). */
static uint32_t create_handle(struct dxil_module *m, uint8_t cls, int32_t range, int32_t reg)
{
    uint32_t args[4] = { dm_i8(m, (int8_t)cls), dm_i32(m, range), dm_i32(m, reg), dm_i1(m, false) };
    return dm_dxop(m, "dx.op.createHandle", handle_type(m), DM_ATTR_READONLY, OP_CREATE_HANDLE,
                   args, 4);
}

/* bufferStore.i32(69, handle, byte offset, undef, value, undef, undef, undef, mask x). */
static void store_raw_u32(struct dxil_module *m, uint32_t handle, uint32_t offset, uint32_t value)
{
    uint32_t u = dm_undef(m, dm_type_int(m, 32));
    uint32_t args[8] = { handle, offset, u, value, u, u, u, dm_i8(m, 1) };
    dm_dxop(m, "dx.op.bufferStore.i32", dm_type_void(m), DM_ATTR_NOUNWIND, OP_BUFFER_STORE,
            args, 8);
}

static bool finish(struct dxil_module *m, const struct dxil_program_desc *d, struct tbuf *out)
{
    bool ok = dxil_program_write(m, d, out);
    dm_destroy(m);
    return ok;
}

/* The compute programs: `threads_x` x 1 x 1 threads, raw buffers in use (flag bit 4). */
static bool finish_compute(struct dxil_module *m, uint32_t entry, uint32_t threads_x,
                           const struct dxil_resource *resources, unsigned resource_count,
                           struct tbuf *out)
{
    const struct dxil_program_desc d = {
        .shader_kind = SB_DXIL_SHADER_KIND_COMPUTE, .entry = entry, .entry_name = "main",
        .num_threads = { threads_x, 1, 1 }, .shader_flags = DXIL_FLAG_RAW_BUFFERS,
        .resources = resources, .resource_count = resource_count,
    };
    return finish(m, &d, out);
}

/*
 * RWByteAddressBuffer u0 : register(u0);
 * [numthreads(8, 1, 1)]
 * void main(uint3 id : SV_DispatchThreadID) { u0.Store(id.x * 4, id.x * 2 + 1); }
 */
bool dxil_program_cs_store(struct tbuf *out)
{
    struct dxil_module *m = dm_create();
    uint32_t i32 = dm_type_int(m, 32);
    uint32_t entry = dm_entry(m, "main");
    dm_at(m, dm_block(m));
    uint32_t u0 = create_handle(m, DXIL_CLASS_UAV, 0, 0);
    uint32_t x = dm_i32(m, 0);
    uint32_t i = dm_dxop(m, "dx.op.threadId.i32", i32, DM_ATTR_READNONE, OP_THREAD_ID, &x, 1);
    uint32_t offset = dm_binop(m, DM_SHL, i, dm_i32(m, 2), DM_FLAGS_NONE);
    uint32_t twice = dm_binop(m, DM_SHL, i, dm_i32(m, 1), DM_FLAGS_NONE);
    uint32_t value = dm_binop(m, DM_OR, twice, dm_i32(m, 1), DM_FLAGS_NONE);
    store_raw_u32(m, u0, offset, value);
    dm_ret_void(m);
    return finish_compute(m, entry, 8, &RAW_U0, 1, out);
}

/*
 * struct VSOut { float4 pos : SV_Position; float2 uv : TEXCOORD0; };
 * VSOut main(float4 pos : POSITION, float2 uv : TEXCOORD0)
 * { VSOut o; o.pos = pos; o.uv = uv; return o; }
 */
bool dxil_program_vs_passthrough(struct tbuf *out)
{
    struct dxil_module *m = dm_create();
    uint32_t f32 = dm_type_float(m);
    uint32_t entry = dm_entry(m, "main");
    dm_at(m, dm_block(m));
    uint32_t undef = dm_undef(m, dm_type_int(m, 32));
    uint32_t values[6];
    static const struct { int32_t element; int8_t col; } comps[6] = {
        { 0, 0 }, { 0, 1 }, { 0, 2 }, { 0, 3 }, { 1, 0 }, { 1, 1 },
    };
    for (unsigned c = 0; c < 6; c++) {
        uint32_t args[4] = { dm_i32(m, comps[c].element), dm_i32(m, 0), dm_i8(m, comps[c].col),
                             undef };
        values[c] = dm_dxop(m, "dx.op.loadInput.f32", f32, DM_ATTR_READNONE, OP_LOAD_INPUT,
                            args, 4);
    }
    for (unsigned c = 0; c < 6; c++) {
        uint32_t args[4] = { dm_i32(m, comps[c].element), dm_i32(m, 0), dm_i8(m, comps[c].col),
                             values[c] };
        dm_dxop(m, "dx.op.storeOutput.f32", dm_type_void(m), DM_ATTR_NOUNWIND, OP_STORE_OUTPUT,
                args, 4);
    }
    dm_ret_void(m);
    static const struct dxil_sig_element inputs[2] = {
        { "POSITION", 0, DXIL_SEM_ARBITRARY, DXIL_COMP_F32, DXIL_INTERP_UNDEFINED, 4, 0 },
        { "TEXCOORD", 0, DXIL_SEM_ARBITRARY, DXIL_COMP_F32, DXIL_INTERP_UNDEFINED, 2, 1 },
    };
    static const struct dxil_sig_element outputs[2] = {
        { "SV_Position", 0, DXIL_SEM_POSITION, DXIL_COMP_F32, DXIL_INTERP_NOPERSPECTIVE, 4, 0 },
        { "TEXCOORD", 0, DXIL_SEM_ARBITRARY, DXIL_COMP_F32, DXIL_INTERP_LINEAR, 2, 1 },
    };
    static const struct dxil_io_dependency deps[6] = {
        { 0, 0 }, { 1, 1 }, { 2, 2 }, { 3, 3 }, { 4, 4 }, { 5, 5 },
    };
    const struct dxil_program_desc d = {
        .shader_kind = SB_DXIL_SHADER_KIND_VERTEX, .entry = entry, .entry_name = "main",
        .inputs = inputs, .input_count = 2, .outputs = outputs, .output_count = 2,
        .dependencies = deps, .dependency_count = 6,
    };
    return finish(m, &d, out);
}

/*
 * cbuffer cb0 : register(b0) { float4 scale; };
 * float4 main(float2 uv : TEXCOORD0) : SV_Target0 { return float4(uv, 0, 1) * scale; }
 */
bool dxil_program_ps_scale(struct tbuf *out)
{
    struct dxil_module *m = dm_create();
    uint32_t f32 = dm_type_float(m);
    uint32_t f4[4] = { f32, f32, f32, f32 };
    uint32_t cbufret = dm_type_struct(m, "dx.types.CBufRet.f32", f4, 4);
    uint32_t entry = dm_entry(m, "main");
    dm_at(m, dm_block(m));
    uint32_t cb0 = create_handle(m, DXIL_CLASS_CBV, 0, 0);
    uint32_t uv[2];
    for (int8_t c = 0; c < 2; c++) {
        uint32_t args[4] = { dm_i32(m, 0), dm_i32(m, 0), dm_i8(m, c),
                             dm_undef(m, dm_type_int(m, 32)) };
        uv[c] = dm_dxop(m, "dx.op.loadInput.f32", f32, DM_ATTR_READNONE, OP_LOAD_INPUT, args, 4);
    }
    uint32_t row_args[2] = { cb0, dm_i32(m, 0) };
    uint32_t row = dm_dxop(m, "dx.op.cbufferLoadLegacy.f32", cbufret, DM_ATTR_READONLY,
                           OP_CBUFFER_LOAD_LEGACY, row_args, 2);
    uint32_t scale[4];
    for (unsigned c = 0; c < 4; c++)
        scale[c] = dm_extractvalue(m, row, c);
    uint32_t result[4] = {
        dm_binop(m, DM_MUL, uv[0], scale[0], DM_FAST_MATH),
        dm_binop(m, DM_MUL, uv[1], scale[1], DM_FAST_MATH),
        dm_binop(m, DM_MUL, scale[2], dm_f32(m, 0.0f), DM_FAST_MATH),
        scale[3], /* 1.0 * w: exact, no instruction */
    };
    for (int8_t c = 0; c < 4; c++) {
        uint32_t args[4] = { dm_i32(m, 0), dm_i32(m, 0), dm_i8(m, c), result[c] };
        dm_dxop(m, "dx.op.storeOutput.f32", dm_type_void(m), DM_ATTR_NOUNWIND, OP_STORE_OUTPUT,
                args, 4);
    }
    dm_ret_void(m);
    static const struct dxil_sig_element inputs[1] = {
        { "TEXCOORD", 0, DXIL_SEM_ARBITRARY, DXIL_COMP_F32, DXIL_INTERP_LINEAR, 2, 0 },
    };
    static const struct dxil_sig_element outputs[1] = {
        { "SV_Target", 0, DXIL_SEM_TARGET, DXIL_COMP_F32, DXIL_INTERP_UNDEFINED, 4, 0 },
    };
    static const struct dxil_io_dependency deps[2] = { { 0, 0 }, { 1, 1 } };
    const struct dxil_program_desc d = {
        .shader_kind = SB_DXIL_SHADER_KIND_PIXEL, .entry = entry, .entry_name = "main",
        .inputs = inputs, .input_count = 1, .outputs = outputs, .output_count = 1,
        .resources = &CB0_16, .resource_count = 1, .dependencies = deps, .dependency_count = 2,
    };
    return finish(m, &d, out);
}

/*
 * cbuffer cb0 : register(b0) { uint n; };
 * RWByteAddressBuffer u0 : register(u0);
 * [numthreads(1, 1, 1)]
 * void main() { uint sum = 0; for (uint i = 0; i < n; i++) sum += i; u0.Store(0, sum); }
 */
bool dxil_program_cs_loop(struct tbuf *out)
{
    struct dxil_module *m = dm_create();
    uint32_t i32 = dm_type_int(m, 32);
    uint32_t i4[4] = { i32, i32, i32, i32 };
    uint32_t cbufret = dm_type_struct(m, "dx.types.CBufRet.i32", i4, 4);
    uint32_t entry = dm_entry(m, "main");
    uint32_t head = dm_block(m), loop = dm_block(m), exit = dm_block(m);
    uint32_t zero = dm_i32(m, 0);

    dm_at(m, head);
    uint32_t u0 = create_handle(m, DXIL_CLASS_UAV, 0, 0);
    uint32_t cb0 = create_handle(m, DXIL_CLASS_CBV, 0, 0);
    uint32_t row_args[2] = { cb0, zero };
    uint32_t row = dm_dxop(m, "dx.op.cbufferLoadLegacy.i32", cbufret, DM_ATTR_READONLY,
                           OP_CBUFFER_LOAD_LEGACY, row_args, 2);
    uint32_t n = dm_extractvalue(m, row, 0);
    uint32_t empty = dm_cmp(m, DM_ICMP_EQ, n, zero);
    dm_br_cond(m, empty, exit, loop);

    dm_at(m, loop);
    uint32_t i = dm_phi(m, i32), sum = dm_phi(m, i32);
    uint32_t next_sum = dm_binop(m, DM_ADD, sum, i, DM_FLAGS_NONE);
    uint32_t next_i = dm_binop(m, DM_ADD, i, dm_i32(m, 1), DM_FLAGS_NONE);
    uint32_t again = dm_cmp(m, DM_ICMP_ULT, next_i, n);
    dm_br_cond(m, again, loop, exit);
    dm_phi_incoming(m, i, zero, head);
    dm_phi_incoming(m, i, next_i, loop);
    dm_phi_incoming(m, sum, zero, head);
    dm_phi_incoming(m, sum, next_sum, loop);

    dm_at(m, exit);
    uint32_t total = dm_phi(m, i32);
    dm_phi_incoming(m, total, zero, head);
    dm_phi_incoming(m, total, next_sum, loop);
    store_raw_u32(m, u0, zero, total);
    dm_ret_void(m);

    return finish_compute(m, entry, 1, RAW_U0_CB0, 2, out);
}

/*
 * groupshared uint g_values[8];
 * RWByteAddressBuffer u0 : register(u0);
 * [numthreads(8, 1, 1)]
 * void main(uint t : SV_GroupIndex)
 * {
 *     g_values[t] = t * t;
 *     GroupMemoryBarrierWithGroupSync();
 *     u0.Store(t * 4, g_values[7 - t]);
 * }
 */
static bool write_groupshared(struct tbuf *out, bool sm68, uint32_t memory, uint32_t semantics);

bool dxil_program_cs_groupshared(struct tbuf *out)
{
    return write_groupshared(out, false, 0, 0);
}

/* The same with SM 6.8's Barrier(memory, semantics): barrierByMemoryType. */
bool dxil_program_cs_groupshared_barrier68(struct tbuf *out, uint32_t memory, uint32_t semantics)
{
    return write_groupshared(out, true, memory, semantics);
}

static bool write_groupshared(struct tbuf *out, bool sm68, uint32_t memory, uint32_t semantics)
{
    struct dxil_module *m = dm_create();
    uint32_t i32 = dm_type_int(m, 32);
    /* dxc's mangled name (the \1 keeps LLVM from adding a prefix): an 8-bit symbol-table entry */
    uint32_t g = dm_global(m, "\001?g_values@@3PAIA", dm_type_array(m, 8, i32), 3);
    uint32_t entry = dm_entry(m, "main");
    dm_at(m, dm_block(m));
    uint32_t u0 = create_handle(m, DXIL_CLASS_UAV, 0, 0);
    uint32_t t = dm_dxop(m, "dx.op.flattenedThreadIdInGroup.i32", i32, DM_ATTR_READNONE,
                         OP_FLATTENED_THREAD_ID, NULL, 0);
    uint32_t square = dm_binop(m, DM_MUL, t, t, DM_FLAGS_NONE);
    /* Not inbounds, as dxc writes dynamic groupshared indices: out-of-range accesses
     * keep D3D's rules (docs §7.5) instead of becoming undefined. */
    uint32_t at_t[2] = { dm_i32(m, 0), t };
    uint32_t slot = dm_gep(m, false, g, at_t, 2);
    dm_store(m, slot, square, 4);
    if (sm68) {
        uint32_t flags[2] = { dm_i32(m, (int32_t)memory), dm_i32(m, (int32_t)semantics) };
        dm_dxop(m, "dx.op.barrierByMemoryType", dm_type_void(m), DM_ATTR_NODUPLICATE,
                OP_BARRIER_BY_MEMORY_TYPE, flags, 2);
    } else {
        uint32_t mode = dm_i32(m, BARRIER_SYNC_AND_TGSM);
        dm_dxop(m, "dx.op.barrier", dm_type_void(m), DM_ATTR_NODUPLICATE, OP_BARRIER, &mode, 1);
    }
    uint32_t mirror = dm_binop(m, DM_SUB, dm_i32(m, 7), t, DM_FLAGS_NONE);
    uint32_t at_mirror[2] = { dm_i32(m, 0), mirror };
    uint32_t other = dm_load(m, dm_gep(m, false, g, at_mirror, 2), 4);
    store_raw_u32(m, u0, dm_binop(m, DM_SHL, t, dm_i32(m, 2), DM_FLAGS_NONE), other);
    dm_ret_void(m);
    const struct dxil_program_desc d = {
        .shader_kind = SB_DXIL_SHADER_KIND_COMPUTE, .sm_minor = sm68 ? 8 : 0, .entry = entry,
        .entry_name = "main", .num_threads = { 8, 1, 1 }, .shader_flags = DXIL_FLAG_RAW_BUFFERS,
        .resources = &RAW_U0, .resource_count = 1,
    };
    return finish(m, &d, out);
}

const struct dxil_program_entry dxil_programs[5] = {
    { "cs_store", dxil_program_cs_store },
    { "vs_passthrough", dxil_program_vs_passthrough },
    { "ps_scale", dxil_program_ps_scale },
    { "cs_loop", dxil_program_cs_loop },
    { "cs_groupshared", dxil_program_cs_groupshared },
};

/*
 * cbuffer cb0 : register(b0) { float4 v; };   RWByteAddressBuffer u0 : register(u0);
 * [numthreads(1, 1, 1)] void main() {
 *     u0.Store4(0, asuint(float4(mad(v.x, v.y, v.z), dot(v.xyz, v.yzw), max(v.x, NaN),
 *                                saturate(v.w)))); }
 * Not one of dxil_programs[]: the DXIL front end's math test reads it (no listing of its own).
 */
bool dxil_program_cs_math(struct tbuf *out)
{
    struct dxil_module *m = dm_create();
    uint32_t f32 = dm_type_float(m), i32 = dm_type_int(m, 32);
    uint32_t f4[4] = { f32, f32, f32, f32 };
    uint32_t cbufret = dm_type_struct(m, "dx.types.CBufRet.f32", f4, 4);
    uint32_t entry = dm_entry(m, "main");
    dm_at(m, dm_block(m));
    uint32_t u0 = create_handle(m, DXIL_CLASS_UAV, 0, 0);
    uint32_t cb0 = create_handle(m, DXIL_CLASS_CBV, 0, 0);
    uint32_t row_args[2] = { cb0, dm_i32(m, 0) };
    uint32_t row = dm_dxop(m, "dx.op.cbufferLoadLegacy.f32", cbufret, DM_ATTR_READONLY,
                           OP_CBUFFER_LOAD_LEGACY, row_args, 2);
    uint32_t v[4];
    for (unsigned c = 0; c < 4; c++)
        v[c] = dm_extractvalue(m, row, c);
    uint32_t mad_args[3] = { v[0], v[1], v[2] };
    uint32_t dot_args[6] = { v[0], v[1], v[2], v[1], v[2], v[3] };
    uint32_t max_args[2] = { v[0], dm_f32(m, __builtin_nanf("")) };
    uint32_t results[4] = {
        dm_dxop(m, "dx.op.tertiary.f32", f32, DM_ATTR_READNONE, OP_FMAD, mad_args, 3),
        dm_dxop(m, "dx.op.dot3.f32", f32, DM_ATTR_READNONE, OP_DOT3, dot_args, 6),
        dm_dxop(m, "dx.op.binary.f32", f32, DM_ATTR_READNONE, OP_FMAX, max_args, 2),
        dm_dxop(m, "dx.op.unary.f32", f32, DM_ATTR_READNONE, OP_SATURATE, &v[3], 1),
    };
    for (unsigned c = 0; c < 4; c++)
        store_raw_u32(m, u0, dm_i32(m, (int32_t)c * 4), dm_cast(m, DM_BITCAST, results[c], i32));
    dm_ret_void(m);
    return finish_compute(m, entry, 1, RAW_U0_CB0, 2, out);
}

/* The helpers above for the other program files (dxil_programs_numeric.c). */
uint32_t dxil_programs_create_handle(struct dxil_module *m, uint8_t cls, int32_t range, int32_t reg)
{
    return create_handle(m, cls, range, reg);
}

void dxil_programs_store_u32(struct dxil_module *m, uint32_t handle, uint32_t offset, uint32_t value)
{
    store_raw_u32(m, handle, offset, value);
}
