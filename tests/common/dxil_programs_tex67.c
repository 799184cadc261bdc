/* SPDX-License-Identifier: MIT */
/*
 * The SM 6.7 texture programs of dxil_programs_tex67.h, laid out as dxc
 * writes them (handles first, the opcode constant first in each dx.op call,
 * undef in the slots the resource kind does not use); opcodes and operand
 * lists from ../shared/docs/dxil.md §3.6.
 */
#include "dxil_programs_tex67.h"

#include "dxil_program_writer.h"
#include "shaderbridge/dxbc_dxil.h"

enum { OP_CREATE_HANDLE = 57, OP_BUFFER_STORE = 69, OP_BUFFER_UPDATE_COUNTER = 70,
       OP_CALCULATE_LOD = 81, OP_DERIV_COARSE_Y = 84, OP_DERIV_FINE_X = 85, OP_THREAD_ID = 93,
       OP_TEXTURE_LOAD = 66, OP_SAMPLE_CMP_LEVEL = 224, OP_TEXTURE_STORE_SAMPLE = 225,
       OP_SAMPLE_CMP_GRAD = 254, OP_SAMPLE_CMP_BIAS = 255 };

/* A cs over Texture2D<float> t0, RWByteAddressBuffer u0 and a sampler s0 (a comparison
 * sampler when `comparison`): the module, its types and the three handles. */
struct t0_u0_s0 {
    struct dxil_module *m;
    uint32_t i32, f32, entry, handles[3];
};

static struct t0_u0_s0 begin_t0_u0_s0(void)
{
    struct t0_u0_s0 p;
    p.m = dm_create();
    p.i32 = dm_type_int(p.m, 32);
    p.f32 = dm_type_float(p.m);
    uint32_t i8ptr = dm_type_ptr(p.m, dm_type_int(p.m, 8), 0);
    uint32_t handle_type = dm_type_struct(p.m, "dx.types.Handle", &i8ptr, 1);
    p.entry = dm_entry(p.m, "main");
    dm_at(p.m, dm_block(p.m));
    static const uint8_t classes[3] = { DXIL_CLASS_SRV, DXIL_CLASS_UAV, DXIL_CLASS_SAMPLER };
    for (unsigned k = 0; k < 3; k++) {
        const uint32_t args[4] = { dm_i8(p.m, (int8_t)classes[k]), dm_i32(p.m, 0), dm_i32(p.m, 0),
                                   dm_i1(p.m, false) };
        p.handles[k] = dm_dxop(p.m, "dx.op.createHandle", handle_type, DM_ATTR_READONLY,
                               OP_CREATE_HANDLE, args, 4);
    }
    return p;
}

/* Ends the body and writes the cs_6_<sm_minor> container with numthreads(x, y, 1). */
static bool finish_t0_u0_s0(struct t0_u0_s0 *p, bool comparison, uint8_t sm_minor, uint32_t x,
                            uint32_t y, struct tbuf *out)
{
    const struct dxil_resource resources[3] = {
        { .resource_class = DXIL_CLASS_SRV, .kind = DXIL_KIND_TEXTURE2D,
          .type_name = "class.Texture2D<float>", .element_type = DXIL_COMP_F32 },
        { .resource_class = DXIL_CLASS_UAV, .kind = DXIL_KIND_RAW_BUFFER,
          .type_name = "struct.RWByteAddressBuffer" },
        { .resource_class = DXIL_CLASS_SAMPLER, .kind = DXIL_KIND_SAMPLER,
          .type_name = comparison ? "struct.SamplerComparisonState" : "struct.SamplerState",
          .sampler_kind = comparison ? 1u : 0u },
    };
    dm_ret_void(p->m);
    const struct dxil_program_desc d = {
        .shader_kind = SB_DXIL_SHADER_KIND_COMPUTE, .sm_minor = sm_minor, .entry = p->entry,
        .entry_name = "main", .num_threads = { x, y, 1 }, .shader_flags = DXIL_FLAG_RAW_BUFFERS,
        .resources = resources, .resource_count = 3,
    };
    bool ok = dxil_program_write(p->m, &d, out);
    dm_destroy(p->m);
    return ok;
}

/*
 * Texture2D<float> t0 : register(t0);                 // 4x2 depth, 2 levels
 * SamplerComparisonState s0 : register(s0);
 * RWByteAddressBuffer u0 : register(u0);
 * [numthreads(2, 1, 1)]
 * void main(uint3 id : SV_DispatchThreadID) {
 *     float lod = id.x;
 *     u0.Store2(id.x * 8, asuint(float2(t0.SampleCmpLevel(s0, float2(0.625, 0.25), 0.3, lod),
 *                                       t0.SampleCmpLevel(s0, float2(0.625, 0.25), 0.6, lod))));
 * }
 * and its SM 6.8 sampleCmpGrad twin (`grad`), the LOD from the gradients:
 *     float2 ddx = float2(0.25 * (1 + id.x), 0);    // LOD id.x on the 4x2 level 0
 *     ... t0.SampleCmpGrad(s0, float2(0.625, 0.25), 0.3, ddx, float2(0, 0)) ... 0.6 ...
 */
static bool write_sample_cmp_pair(struct tbuf *out, bool grad)
{
    struct t0_u0_s0 p = begin_t0_u0_s0();
    struct dxil_module *m = p.m;
    uint32_t resret_members[5] = { p.f32, p.f32, p.f32, p.f32, p.i32 };
    uint32_t resret = dm_type_struct(m, "dx.types.ResRet.f32", resret_members, 5);
    uint32_t zero = dm_i32(m, 0);
    uint32_t x = dm_dxop(m, "dx.op.threadId.i32", p.i32, DM_ATTR_READNONE, OP_THREAD_ID, &zero, 1);
    uint32_t lod = grad ? dm_binop(m, DM_MUL, dm_cast(m, DM_UITOFP, dm_binop(m, DM_ADD, x, dm_i32(m, 1), 0),
                                                      p.f32), dm_f32(m, 0.25f), DM_FLAGS_NONE)
                        : dm_cast(m, DM_UITOFP, x, p.f32);
    uint32_t uf = dm_undef(m, p.f32), ui = dm_undef(m, p.i32), f0 = dm_f32(m, 0.0f);
    static const float refs[2] = { 0.3f, 0.6f };
    uint32_t store[8] = { p.handles[1], dm_binop(m, DM_SHL, x, dm_i32(m, 3), 0), ui, uf, uf, uf,
                          uf, dm_i8(m, 3) };
    for (unsigned k = 0; k < 2; k++) {
        /* srv, sampler, coordinates, offsets, reference, then the LOD or ddx, ddy, clamp */
        const uint32_t args[17] = { p.handles[0], p.handles[2], dm_f32(m, 0.625f), dm_f32(m, 0.25f),
                                    uf, uf, zero, zero, ui, dm_f32(m, refs[k]), lod, f0, uf, f0, f0,
                                    uf, f0 };
        uint32_t r = grad ? dm_dxop(m, "dx.op.sampleCmpGrad.f32", resret, DM_ATTR_READONLY,
                                    OP_SAMPLE_CMP_GRAD, args, 17)
                          : dm_dxop(m, "dx.op.sampleCmpLevel.f32", resret, DM_ATTR_READONLY,
                                    OP_SAMPLE_CMP_LEVEL, args, 11);
        store[3 + k] = dm_extractvalue(m, r, 0);
    }
    dm_dxop(m, "dx.op.bufferStore.f32", dm_type_void(m), DM_ATTR_NOUNWIND, OP_BUFFER_STORE,
            store, 8);
    return finish_t0_u0_s0(&p, true, grad ? 8 : 7, 2, 1, out);
}

bool dxil_program_tex67_sample_cmp_level(struct tbuf *out)
{
    return write_sample_cmp_pair(out, false);
}

bool dxil_program_tex68_sample_cmp_grad(struct tbuf *out)
{
    return write_sample_cmp_pair(out, true);
}

/*
 * Texture2D<float> t0; SamplerComparisonState s0; RWByteAddressBuffer u0;   (cs_6_8)
 * [numthreads(2, 2, 1)]     // one 2x2 quad: implicit LODs from the quad (SM 6.6)
 * void main(uint3 id : SV_DispatchThreadID) {
 *     float2 uv = float2(0.125 + 0.25 * id.x, 0.25);   // LOD 0 on the 4x2 level 0
 *     u0.Store((id.y * 2 + id.x) * 4, asuint(t0.SampleCmpBias(s0, uv, 0.1, id.y)));
 * }
 */
bool dxil_program_tex68_sample_cmp_bias(struct tbuf *out)
{
    struct t0_u0_s0 p = begin_t0_u0_s0();
    struct dxil_module *m = p.m;
    uint32_t resret_members[5] = { p.f32, p.f32, p.f32, p.f32, p.i32 };
    uint32_t resret = dm_type_struct(m, "dx.types.ResRet.f32", resret_members, 5);
    uint32_t id[2];
    for (int c = 0; c < 2; c++) {
        uint32_t component = dm_i32(m, c);
        id[c] = dm_dxop(m, "dx.op.threadId.i32", p.i32, DM_ATTR_READNONE, OP_THREAD_ID, &component, 1);
    }
    uint32_t u = dm_binop(m, DM_ADD, dm_f32(m, 0.125f),
                          dm_binop(m, DM_MUL, dm_cast(m, DM_UITOFP, id[0], p.f32), dm_f32(m, 0.25f),
                                   DM_FLAGS_NONE), DM_FLAGS_NONE);
    uint32_t uf = dm_undef(m, p.f32), ui = dm_undef(m, p.i32), zero = dm_i32(m, 0);
    const uint32_t args[12] = { p.handles[0], p.handles[2], u, dm_f32(m, 0.25f), uf, uf, zero, zero, ui,
                                dm_f32(m, 0.1f), dm_cast(m, DM_UITOFP, id[1], p.f32), dm_f32(m, 0.0f) };
    uint32_t r = dm_dxop(m, "dx.op.sampleCmpBias.f32", resret, DM_ATTR_READONLY, OP_SAMPLE_CMP_BIAS,
                         args, 12);
    uint32_t flat = dm_binop(m, DM_ADD, dm_binop(m, DM_MUL, id[1], dm_i32(m, 2), 0), id[0], 0);
    const uint32_t store[8] = { p.handles[1], dm_binop(m, DM_SHL, flat, dm_i32(m, 2), 0), ui,
                                dm_extractvalue(m, r, 0), uf, uf, uf, dm_i8(m, 1) };
    dm_dxop(m, "dx.op.bufferStore.f32", dm_type_void(m), DM_ATTR_NOUNWIND, OP_BUFFER_STORE,
            store, 8);
    return finish_t0_u0_s0(&p, true, 8, 2, 2, out);
}

/*
 * RWStructuredBuffer<uint> u[2] : register(u0);   // each with a counter
 * [numthreads(1, 1, 1)]
 * void main(uint3 id : SV_DispatchThreadID) {
 *     uint a = u[0].IncrementCounter(), b = u[1].IncrementCounter();
 *     uint c = u[1].IncrementCounter(), d = u[id.x].DecrementCounter();
 *     u[0][0] = a; u[0][1] = b; u[0][2] = c; u[0][3] = d;
 * }
 */
bool dxil_program_tex67_counter_array(struct tbuf *out)
{
    static const struct dxil_resource resources[1] = {
        { .resource_class = DXIL_CLASS_UAV, .kind = DXIL_KIND_STRUCTURED_BUFFER, .range_size = 2,
          .type_name = "class.RWStructuredBuffer<unsigned int>", .struct_stride = 4,
          .has_counter = true },
    };
    struct dxil_module *m = dm_create();
    uint32_t i32 = dm_type_int(m, 32);
    uint32_t i8ptr = dm_type_ptr(m, dm_type_int(m, 8), 0);
    uint32_t handle_type = dm_type_struct(m, "dx.types.Handle", &i8ptr, 1);
    uint32_t entry = dm_entry(m, "main");
    dm_at(m, dm_block(m));
    uint32_t zero = dm_i32(m, 0);
    uint32_t x = dm_dxop(m, "dx.op.threadId.i32", i32, DM_ATTR_READNONE, OP_THREAD_ID, &zero, 1);
    /* Element indices: 0, 1, 1 (constants), then the thread's x (0 at run time). */
    const uint32_t elements[4] = { zero, dm_i32(m, 1), dm_i32(m, 1), x };
    uint32_t values[4], first = 0;
    for (unsigned k = 0; k < 4; k++) {
        const uint32_t h_args[4] = { dm_i8(m, DXIL_CLASS_UAV), zero, elements[k], dm_i1(m, false) };
        uint32_t h = dm_dxop(m, "dx.op.createHandle", handle_type, DM_ATTR_READONLY,
                             OP_CREATE_HANDLE, h_args, 4);
        if (k == 0)
            first = h;
        const uint32_t c_args[2] = { h, dm_i8(m, k == 3 ? -1 : 1) };
        values[k] = dm_dxop(m, "dx.op.bufferUpdateCounter", i32, DM_ATTR_NOUNWIND,
                            OP_BUFFER_UPDATE_COUNTER, c_args, 2);
    }
    uint32_t u = dm_undef(m, i32);
    for (unsigned k = 0; k < 4; k++) {
        const uint32_t s_args[8] = { first, dm_i32(m, (int32_t)k), zero, values[k], u, u, u,
                                     dm_i8(m, 1) };
        dm_dxop(m, "dx.op.bufferStore.i32", dm_type_void(m), DM_ATTR_NOUNWIND, OP_BUFFER_STORE,
                s_args, 8);
    }
    dm_ret_void(m);
    const struct dxil_program_desc d = {
        .shader_kind = SB_DXIL_SHADER_KIND_COMPUTE, .entry = entry, .entry_name = "main",
        .num_threads = { 1, 1, 1 }, .resources = resources, .resource_count = 1,
    };
    bool ok = dxil_program_write(m, &d, out);
    dm_destroy(m);
    return ok;
}

/*
 * Texture2D<float> t0 : register(t0);
 * SamplerState s0 : register(s0);
 * RWByteAddressBuffer u0 : register(u0);
 * [numthreads(X, Y, 1)]
 * void main(uint3 id : SV_DispatchThreadID) {
 *     float v = id.x * id.x + 10 * id.y * id.y + 100 * id.x * id.y;
 *     float2 uv = float2(id.x * 0.25, id.y * 0.125);
 *     u0.Store3((id.x + X * id.y) * 12, asuint(float3(ddx_fine(v), ddy_coarse(v),
 *                                          t0.CalculateLevelOfDetailUnclamped(s0, uv))));
 * }
 */
bool dxil_program_tex67_derivatives(struct tbuf *out, uint32_t threads_x, uint32_t threads_y)
{
    struct t0_u0_s0 p = begin_t0_u0_s0();
    struct dxil_module *m = p.m;
    uint32_t i32 = p.i32, f32 = p.f32;
    const uint32_t *handles = p.handles;
    uint32_t id[2];
    for (int c = 0; c < 2; c++) {
        uint32_t component = dm_i32(m, c);
        id[c] = dm_dxop(m, "dx.op.threadId.i32", i32, DM_ATTR_READNONE, OP_THREAD_ID, &component,
                        1);
    }
    uint32_t xx = dm_binop(m, DM_MUL, id[0], id[0], 0);
    uint32_t yy10 = dm_binop(m, DM_MUL, dm_binop(m, DM_MUL, id[1], id[1], 0), dm_i32(m, 10), 0);
    uint32_t xy100 = dm_binop(m, DM_MUL, dm_binop(m, DM_MUL, id[0], id[1], 0), dm_i32(m, 100), 0);
    uint32_t v = dm_cast(m, DM_UITOFP, dm_binop(m, DM_ADD, dm_binop(m, DM_ADD, xx, yy10, 0), xy100, 0),
                         f32);
    uint32_t values[3];
    values[0] = dm_dxop(m, "dx.op.unary.f32", f32, DM_ATTR_READNONE, OP_DERIV_FINE_X, &v, 1);
    values[1] = dm_dxop(m, "dx.op.unary.f32", f32, DM_ATTR_READNONE, OP_DERIV_COARSE_Y, &v, 1);
    uint32_t uf = dm_undef(m, f32);
    const uint32_t lod_args[6] = {
        handles[0], handles[2],
        dm_binop(m, DM_MUL, dm_cast(m, DM_UITOFP, id[0], f32), dm_f32(m, 0.25f), DM_FLAGS_NONE),
        dm_binop(m, DM_MUL, dm_cast(m, DM_UITOFP, id[1], f32), dm_f32(m, 0.125f), DM_FLAGS_NONE),
        uf, dm_i1(m, false),
    };
    values[2] = dm_dxop(m, "dx.op.calculateLOD.f32", f32, DM_ATTR_READONLY, OP_CALCULATE_LOD,
                        lod_args, 6);
    uint32_t flat = dm_binop(m, DM_ADD, id[0],
                             dm_binop(m, DM_MUL, id[1], dm_i32(m, (int32_t)threads_x), 0), 0);
    const uint32_t store[8] = { handles[1], dm_binop(m, DM_MUL, flat, dm_i32(m, 12), 0),
                                dm_undef(m, i32), values[0], values[1], values[2], uf,
                                dm_i8(m, 7) };
    dm_dxop(m, "dx.op.bufferStore.f32", dm_type_void(m), DM_ATTR_NOUNWIND, OP_BUFFER_STORE,
            store, 8);
    return finish_t0_u0_s0(&p, false, 6, threads_x, threads_y, out);
}

/*
 * RWTexture2DMS<float4, 4> u0 : register(u0);
 * RWByteAddressBuffer u1 : register(u1);
 * [numthreads(2, 2, 1)]
 * void main(uint3 id : SV_DispatchThreadID) {
 *     uint s = id.x + 2 * id.y;
 *     u0.sample[s][id.xy] = float4(id.x, id.y, 100 + s, 1);
 *     u1.Store(s * 4, asuint(u0.sample[s][id.xy].z));
 * }
 */
bool dxil_program_tex67_store_sample(struct tbuf *out)
{
    static const struct dxil_resource resources[2] = {
        { .resource_class = DXIL_CLASS_UAV, .kind = DXIL_KIND_TEXTURE2DMS,
          .type_name = "class.RWTexture2DMS<vector<float, 4>, 4>", .element_type = DXIL_COMP_F32 },
        { .resource_class = DXIL_CLASS_UAV, .kind = DXIL_KIND_RAW_BUFFER, .lower_bound = 1,
          .type_name = "struct.RWByteAddressBuffer" },
    };
    struct dxil_module *m = dm_create();
    uint32_t i32 = dm_type_int(m, 32), f32 = dm_type_float(m);
    uint32_t i8ptr = dm_type_ptr(m, dm_type_int(m, 8), 0);
    uint32_t handle_type = dm_type_struct(m, "dx.types.Handle", &i8ptr, 1);
    const uint32_t members[5] = { f32, f32, f32, f32, i32 };
    uint32_t resret = dm_type_struct(m, "dx.types.ResRet.f32", members, 5);
    uint32_t entry = dm_entry(m, "main");
    dm_at(m, dm_block(m));
    uint32_t u[2];
    for (int k = 0; k < 2; k++) {
        const uint32_t args[4] = { dm_i8(m, DXIL_CLASS_UAV), dm_i32(m, k), dm_i32(m, k),
                                   dm_i1(m, false) };
        u[k] = dm_dxop(m, "dx.op.createHandle", handle_type, DM_ATTR_READONLY, OP_CREATE_HANDLE,
                       args, 4);
    }
    uint32_t id[2];
    for (int c = 0; c < 2; c++) {
        uint32_t component = dm_i32(m, c);
        id[c] = dm_dxop(m, "dx.op.threadId.i32", i32, DM_ATTR_READNONE, OP_THREAD_ID, &component,
                        1);
    }
    uint32_t s = dm_binop(m, DM_ADD, id[0], dm_binop(m, DM_SHL, id[1], dm_i32(m, 1), 0), 0);
    uint32_t ui = dm_undef(m, i32);
    const uint32_t store[10] = {
        u[0], id[0], id[1], ui, dm_cast(m, DM_UITOFP, id[0], f32), dm_cast(m, DM_UITOFP, id[1], f32),
        dm_cast(m, DM_UITOFP, dm_binop(m, DM_ADD, s, dm_i32(m, 100), 0), f32), dm_f32(m, 1.0f),
        dm_i8(m, 15), s,
    };
    dm_dxop(m, "dx.op.textureStoreSample.f32", dm_type_void(m), DM_ATTR_NOUNWIND,
            OP_TEXTURE_STORE_SAMPLE, store, 10);
    const uint32_t load[8] = { u[0], s, id[0], id[1], ui, ui, ui, ui };
    uint32_t texel = dm_dxop(m, "dx.op.textureLoad.f32", resret, DM_ATTR_READONLY,
                             OP_TEXTURE_LOAD, load, 8);
    uint32_t uf = dm_undef(m, f32);
    const uint32_t out_args[8] = { u[1], dm_binop(m, DM_SHL, s, dm_i32(m, 2), 0), ui,
                                   dm_extractvalue(m, texel, 2), uf, uf, uf, dm_i8(m, 1) };
    dm_dxop(m, "dx.op.bufferStore.f32", dm_type_void(m), DM_ATTR_NOUNWIND, OP_BUFFER_STORE,
            out_args, 8);
    dm_ret_void(m);
    const struct dxil_program_desc d = {
        .shader_kind = SB_DXIL_SHADER_KIND_COMPUTE, .sm_minor = 7, .entry = entry,
        .entry_name = "main", .num_threads = { 2, 2, 1 }, .shader_flags = DXIL_FLAG_RAW_BUFFERS,
        .resources = resources, .resource_count = 2,
    };
    bool ok = dxil_program_write(m, &d, out);
    dm_destroy(m);
    return ok;
}
