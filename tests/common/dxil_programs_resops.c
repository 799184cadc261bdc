/* SPDX-License-Identifier: MIT */
/*
 * The DXIL resource-operation programs of dxil_programs_resops.h, written the
 * way dxc lays them out (handles first, dx.op calls with the opcode constant
 * first, undef in the coordinate and offset slots the resource kind has no
 * use for, extractvalue after a struct-returning call); opcodes and operand
 * lists from ../shared/docs/dxil.md §3.5 and §3.6.
 */
#include "dxil_programs_resops.h"

#include <string.h>

#include "dxil_program_writer.h"
#include "shaderbridge/dxbc_dxil.h"

enum { OP_CREATE_HANDLE = 57, OP_SAMPLE_LEVEL = 62, OP_SAMPLE_GRAD = 63,
       OP_SAMPLE_CMP_LEVEL_ZERO = 65, OP_TEXTURE_LOAD = 66, OP_TEXTURE_STORE = 67,
       OP_BUFFER_LOAD = 68, OP_BUFFER_STORE = 69, OP_BUFFER_UPDATE_COUNTER = 70,
       OP_CHECK_ACCESS_FULLY_MAPPED = 71, OP_GET_DIMENSIONS = 72, OP_TEXTURE_GATHER = 73,
       OP_TEXTURE_GATHER_CMP = 74, OP_TEXTURE2DMS_GET_SAMPLE_POSITION = 75, OP_THREAD_ID = 93,
       OP_RAW_BUFFER_LOAD = 139, OP_RAW_BUFFER_STORE = 140, OP_TEXTURE_GATHER_RAW = 223 };

/* The dx.types structs these programs use. */
struct resops_types {
    uint32_t i32, f32, handle, resret_i32, resret_f32, dimensions;
};

static struct resops_types types_of(struct dxil_module *m)
{
    struct resops_types t;
    t.i32 = dm_type_int(m, 32);
    t.f32 = dm_type_float(m);
    uint32_t i8ptr = dm_type_ptr(m, dm_type_int(m, 8), 0);
    t.handle = dm_type_struct(m, "dx.types.Handle", &i8ptr, 1);
    const uint32_t ri[5] = { t.i32, t.i32, t.i32, t.i32, t.i32 };
    const uint32_t rf[5] = { t.f32, t.f32, t.f32, t.f32, t.i32 };
    t.resret_i32 = dm_type_struct(m, "dx.types.ResRet.i32", ri, 5);
    t.resret_f32 = dm_type_struct(m, "dx.types.ResRet.f32", rf, 5);
    t.dimensions = dm_type_struct(m, "dx.types.Dimensions", ri, 4);
    return t;
}

/* createHandle(class, rangeId, register, non-uniform = false). */
static uint32_t handle(struct dxil_module *m, const struct resops_types *t, uint8_t cls,
                       int32_t range, int32_t reg)
{
    uint32_t args[4] = { dm_i8(m, (int8_t)cls), dm_i32(m, range), dm_i32(m, reg), dm_i1(m, false) };
    return dm_dxop(m, "dx.op.createHandle", t->handle, DM_ATTR_READONLY, OP_CREATE_HANDLE, args, 4);
}

static uint32_t thread_x(struct dxil_module *m, const struct resops_types *t)
{
    uint32_t x = dm_i32(m, 0);
    return dm_dxop(m, "dx.op.threadId.i32", t->i32, DM_ATTR_READNONE, OP_THREAD_ID, &x, 1);
}

/* bufferStore.<overload>(handle, c0, c1, v[0..3], mask): slots past `count` undef. */
static void buffer_store(struct dxil_module *m, const char *name, uint32_t h, uint32_t c0,
                         uint32_t c1, const uint32_t *v, unsigned count, uint32_t value_type)
{
    uint32_t u = dm_undef(m, value_type);
    uint32_t args[8] = { h, c0, c1, u, u, u, u, dm_i8(m, (int8_t)((1u << count) - 1)) };
    for (unsigned i = 0; i < count; i++)
        args[3 + i] = v[i];
    dm_dxop(m, name, dm_type_void(m), DM_ATTR_NOUNWIND, OP_BUFFER_STORE, args, 8);
}

static bool finish_compute(struct dxil_module *m, uint32_t entry, uint8_t sm_minor,
                           uint32_t threads_x, const struct dxil_resource *resources,
                           unsigned resource_count, struct tbuf *out)
{
    const struct dxil_program_desc d = {
        .shader_kind = SB_DXIL_SHADER_KIND_COMPUTE, .sm_minor = sm_minor, .entry = entry,
        .entry_name = "main", .num_threads = { threads_x, 1, 1 },
        .shader_flags = DXIL_FLAG_RAW_BUFFERS, .resources = resources,
        .resource_count = resource_count,
    };
    bool ok = dxil_program_write(m, &d, out);
    dm_destroy(m);
    return ok;
}

/*
 * struct S { uint a, b, c; };
 * StructuredBuffer<S> t0 : register(t0);
 * RWStructuredBuffer<S> u0 : register(u0);
 * [numthreads(4, 1, 1)]
 * void main(uint3 id : SV_DispatchThreadID) {
 *     S s = t0[id.x];
 *     uint2 bc = uint2(t0[3 - id.x].b, t0[3 - id.x].c);  // one 2-DWORD load at byte 4
 *     S r = { s.a + bc.x, bc.y * 2, s.c };
 *     u0[id.x] = r;
 * }
 */
bool dxil_program_resops_structured(struct tbuf *out)
{
    static const struct dxil_resource resources[2] = {
        { .resource_class = DXIL_CLASS_SRV, .kind = DXIL_KIND_STRUCTURED_BUFFER,
          .type_name = "class.StructuredBuffer<S>", .struct_stride = 12 },
        { .resource_class = DXIL_CLASS_UAV, .kind = DXIL_KIND_STRUCTURED_BUFFER,
          .type_name = "class.RWStructuredBuffer<S>", .struct_stride = 12 },
    };
    struct dxil_module *m = dm_create();
    struct resops_types t = types_of(m);
    uint32_t entry = dm_entry(m, "main");
    dm_at(m, dm_block(m));
    uint32_t t0 = handle(m, &t, DXIL_CLASS_SRV, 0, 0), u0 = handle(m, &t, DXIL_CLASS_UAV, 0, 0);
    uint32_t i = thread_x(m, &t);
    uint32_t load_args[5] = { t0, i, dm_i32(m, 0), dm_i8(m, 7), dm_i32(m, 4) };
    uint32_t s = dm_dxop(m, "dx.op.rawBufferLoad.i32", t.resret_i32, DM_ATTR_READONLY,
                         OP_RAW_BUFFER_LOAD, load_args, 5);
    uint32_t a = dm_extractvalue(m, s, 0), c = dm_extractvalue(m, s, 2);
    uint32_t j = dm_binop(m, DM_SUB, dm_i32(m, 3), i, DM_FLAGS_NONE);
    uint32_t old_args[3] = { t0, j, dm_i32(m, 4) };
    uint32_t bc = dm_dxop(m, "dx.op.bufferLoad.i32", t.resret_i32, DM_ATTR_READONLY,
                          OP_BUFFER_LOAD, old_args, 3);
    uint32_t bx = dm_extractvalue(m, bc, 0), by = dm_extractvalue(m, bc, 1);
    uint32_t x = dm_binop(m, DM_ADD, a, bx, DM_FLAGS_NONE);
    uint32_t y = dm_binop(m, DM_MUL, by, dm_i32(m, 2), DM_FLAGS_NONE);
    uint32_t u = dm_undef(m, t.i32);
    uint32_t store_args[9] = { u0, i, dm_i32(m, 0), x, y, c, u, dm_i8(m, 7), dm_i32(m, 4) };
    dm_dxop(m, "dx.op.rawBufferStore.i32", dm_type_void(m), DM_ATTR_NOUNWIND, OP_RAW_BUFFER_STORE,
            store_args, 9);
    dm_ret_void(m);
    return finish_compute(m, entry, 2, 4, resources, 2, out);
}

/*
 * Buffer<float4> t0 : register(t0);
 * RWBuffer<uint4> u0 : register(u0);
 * RWBuffer<uint> u1 : register(u1);
 * [numthreads(2, 1, 1)]
 * void main(uint3 id : SV_DispatchThreadID) {
 *     float4 v = t0[id.x];
 *     uint n; t0.GetDimensions(n);
 *     u0[id.x] = uint4(asuint(v.x), asuint(v.y), asuint(v.z), n);
 *     u1[id.x] = u1[id.x] * 3;
 * }
 */
bool dxil_program_resops_typed(struct tbuf *out)
{
    static const struct dxil_resource resources[3] = {
        { .resource_class = DXIL_CLASS_SRV, .kind = DXIL_KIND_TYPED_BUFFER,
          .type_name = "class.Buffer<vector<float, 4> >", .element_type = DXIL_COMP_F32 },
        { .resource_class = DXIL_CLASS_UAV, .kind = DXIL_KIND_TYPED_BUFFER,
          .type_name = "class.RWBuffer<vector<unsigned int, 4> >", .element_type = DXIL_COMP_U32 },
        { .resource_class = DXIL_CLASS_UAV, .kind = DXIL_KIND_TYPED_BUFFER, .lower_bound = 1,
          .type_name = "class.RWBuffer<unsigned int>", .element_type = DXIL_COMP_U32 },
    };
    struct dxil_module *m = dm_create();
    struct resops_types t = types_of(m);
    uint32_t entry = dm_entry(m, "main");
    dm_at(m, dm_block(m));
    uint32_t t0 = handle(m, &t, DXIL_CLASS_SRV, 0, 0), u0 = handle(m, &t, DXIL_CLASS_UAV, 0, 0);
    uint32_t u1 = handle(m, &t, DXIL_CLASS_UAV, 1, 1);
    uint32_t i = thread_x(m, &t), u = dm_undef(m, t.i32);
    uint32_t load_args[3] = { t0, i, u };
    uint32_t v = dm_dxop(m, "dx.op.bufferLoad.f32", t.resret_f32, DM_ATTR_READONLY, OP_BUFFER_LOAD,
                         load_args, 3);
    uint32_t dim_args[2] = { t0, u };
    uint32_t dims = dm_dxop(m, "dx.op.getDimensions", t.dimensions, DM_ATTR_READNONE,
                            OP_GET_DIMENSIONS, dim_args, 2);
    uint32_t words[4];
    for (unsigned c = 0; c < 3; c++)
        words[c] = dm_cast(m, DM_BITCAST, dm_extractvalue(m, v, c), t.i32);
    words[3] = dm_extractvalue(m, dims, 0);
    buffer_store(m, "dx.op.bufferStore.i32", u0, i, u, words, 4, t.i32);
    uint32_t u1_args[3] = { u1, i, u };
    uint32_t w = dm_dxop(m, "dx.op.bufferLoad.i32", t.resret_i32, DM_ATTR_READONLY, OP_BUFFER_LOAD,
                         u1_args, 3);
    uint32_t tripled = dm_binop(m, DM_MUL, dm_extractvalue(m, w, 0), dm_i32(m, 3), DM_FLAGS_NONE);
    buffer_store(m, "dx.op.bufferStore.i32", u1, i, u, &tripled, 1, t.i32);
    dm_ret_void(m);
    return finish_compute(m, entry, 0, 2, resources, 3, out);
}

/*
 * Texture2D<float4> t0 : register(t0);
 * SamplerState s0 : register(s0);
 * RWByteAddressBuffer u0 : register(u0);
 * [numthreads(1, 1, 1)]
 * void main() {
 *     u0.Store4(0, asuint(t0.Load(int3(2, 1, 0))));
 *     u0.Store4(16, asuint(t0.SampleLevel(s0, float2(0.375, 0.25), 0)));
 *     u0.Store(32, asuint(t0.Load(int3(0, 0, 1), int2(1, 0)).x));
 *     uint w, h, mips; t0.GetDimensions(0, w, h, mips);
 *     u0.Store3(36, uint3(w, h, mips));
 * }
 */
bool dxil_program_resops_texture(struct tbuf *out)
{
    static const struct dxil_resource resources[3] = {
        { .resource_class = DXIL_CLASS_SRV, .kind = DXIL_KIND_TEXTURE2D,
          .type_name = "class.Texture2D<vector<float, 4> >", .element_type = DXIL_COMP_F32 },
        { .resource_class = DXIL_CLASS_UAV, .kind = DXIL_KIND_RAW_BUFFER,
          .type_name = "struct.RWByteAddressBuffer" },
        { .resource_class = DXIL_CLASS_SAMPLER, .kind = DXIL_KIND_SAMPLER,
          .type_name = "struct.SamplerState" },
    };
    struct dxil_module *m = dm_create();
    struct resops_types t = types_of(m);
    uint32_t entry = dm_entry(m, "main");
    dm_at(m, dm_block(m));
    uint32_t t0 = handle(m, &t, DXIL_CLASS_SRV, 0, 0), u0 = handle(m, &t, DXIL_CLASS_UAV, 0, 0);
    uint32_t s0 = handle(m, &t, DXIL_CLASS_SAMPLER, 0, 0);
    uint32_t u = dm_undef(m, t.i32), uf = dm_undef(m, t.f32);
    uint32_t load_args[8] = { t0, dm_i32(m, 0), dm_i32(m, 2), dm_i32(m, 1), u, u, u, u };
    uint32_t a = dm_dxop(m, "dx.op.textureLoad.f32", t.resret_f32, DM_ATTR_READONLY,
                         OP_TEXTURE_LOAD, load_args, 8);
    uint32_t sample_args[10] = { t0, s0, dm_f32(m, 0.375f), dm_f32(m, 0.25f), uf, uf,
                                 dm_i32(m, 0), dm_i32(m, 0), u, dm_f32(m, 0.0f) };
    uint32_t b = dm_dxop(m, "dx.op.sampleLevel.f32", t.resret_f32, DM_ATTR_READONLY,
                         OP_SAMPLE_LEVEL, sample_args, 10);
    uint32_t mip_args[8] = { t0, dm_i32(m, 1), dm_i32(m, 0), dm_i32(m, 0), u,
                             dm_i32(m, 1), dm_i32(m, 0), u };
    uint32_t c = dm_dxop(m, "dx.op.textureLoad.f32", t.resret_f32, DM_ATTR_READONLY,
                         OP_TEXTURE_LOAD, mip_args, 8);
    uint32_t dim_args[2] = { t0, dm_i32(m, 0) };
    uint32_t dims = dm_dxop(m, "dx.op.getDimensions", t.dimensions, DM_ATTR_READNONE,
                            OP_GET_DIMENSIONS, dim_args, 2);
    uint32_t av[4], bv[4];
    for (unsigned k = 0; k < 4; k++) {
        av[k] = dm_extractvalue(m, a, k);
        bv[k] = dm_extractvalue(m, b, k);
    }
    uint32_t cx = dm_extractvalue(m, c, 0);
    uint32_t size[3] = { dm_extractvalue(m, dims, 0), dm_extractvalue(m, dims, 1),
                         dm_extractvalue(m, dims, 3) };
    buffer_store(m, "dx.op.bufferStore.f32", u0, dm_i32(m, 0), u, av, 4, t.f32);
    buffer_store(m, "dx.op.bufferStore.f32", u0, dm_i32(m, 16), u, bv, 4, t.f32);
    buffer_store(m, "dx.op.bufferStore.f32", u0, dm_i32(m, 32), u, &cx, 1, t.f32);
    buffer_store(m, "dx.op.bufferStore.i32", u0, dm_i32(m, 36), u, size, 3, t.i32);
    dm_ret_void(m);
    return finish_compute(m, entry, 0, 1, resources, 3, out);
}

/*
 * RWStructuredBuffer<uint> u0 : register(u0);  // with a counter
 * [numthreads(1, 1, 1)]
 * void main() { u0[0] = u0.IncrementCounter(); u0[1] = u0.DecrementCounter(); }
 */
bool dxil_program_resops_counter(struct tbuf *out)
{
    static const struct dxil_resource resources[1] = {
        { .resource_class = DXIL_CLASS_UAV, .kind = DXIL_KIND_STRUCTURED_BUFFER,
          .type_name = "class.RWStructuredBuffer<unsigned int>", .struct_stride = 4,
          .has_counter = true },
    };
    struct dxil_module *m = dm_create();
    struct resops_types t = types_of(m);
    uint32_t entry = dm_entry(m, "main");
    dm_at(m, dm_block(m));
    uint32_t u0 = handle(m, &t, DXIL_CLASS_UAV, 0, 0);
    uint32_t inc_args[2] = { u0, dm_i8(m, 1) }, dec_args[2] = { u0, dm_i8(m, -1) };
    uint32_t before = dm_dxop(m, "dx.op.bufferUpdateCounter", t.i32, DM_ATTR_NOUNWIND,
                              OP_BUFFER_UPDATE_COUNTER, inc_args, 2);
    uint32_t after = dm_dxop(m, "dx.op.bufferUpdateCounter", t.i32, DM_ATTR_NOUNWIND,
                             OP_BUFFER_UPDATE_COUNTER, dec_args, 2);
    buffer_store(m, "dx.op.bufferStore.i32", u0, dm_i32(m, 0), dm_i32(m, 0), &before, 1, t.i32);
    buffer_store(m, "dx.op.bufferStore.i32", u0, dm_i32(m, 1), dm_i32(m, 0), &after, 1, t.i32);
    dm_ret_void(m);
    return finish_compute(m, entry, 0, 1, resources, 1, out);
}

/* Arguments of the sample/gather ops with a 2D coordinate (u, v) and immediate offsets 0:
 * srv, sampler, c0..c3 (c2, c3 undef), o0, o1, o2 (o2 undef) into args[0..8]. */
static void sample_2d_args(struct dxil_module *m, const struct resops_types *t, uint32_t *args,
                           uint32_t srv, uint32_t sampler, float u, float v)
{
    uint32_t uf = dm_undef(m, t->f32), ui = dm_undef(m, t->i32);
    const uint32_t a[9] = { srv, sampler, dm_f32(m, u), dm_f32(m, v), uf, uf,
                            dm_i32(m, 0), dm_i32(m, 0), ui };
    memcpy(args, a, sizeof(a));
}

/*
 * Texture2D<float4> t0 : register(t0);            // 4x2, 2 levels
 * Texture2D<float> t1 : register(t1);             // 4x2 depth
 * Texture2DMS<float4, 4> t2 : register(t2);       // 2x2, 4 samples
 * Texture2D<uint> t3 : register(t3);              // 2x2
 * RWTexture2D<float> u2 : register(u2);           // 2x2
 * RWByteAddressBuffer u0 : register(u0);
 * RWTexture2D<float4> u1 : register(u1);          // 2x2
 * SamplerState s0 : register(s0);
 * SamplerComparisonState s1 : register(s1);
 * [numthreads(1, 1, 1)]
 * void main(uint3 id : SV_DispatchThreadID) {
 *     u0.Store(0, asuint(t0.SampleGrad(s0, float2(0.375, 0.25), float2(0.5, 0), float2(0, 1)).x));
 *     u0.Store4(4, asuint(t0.GatherGreen(s0, float2(0.5, 0.5))));
 *     u0.Store4(20, asuint(t0.GatherGreen(s0, float2(0.5, 0.5), int2(id.x + 1, id.y))));
 *     u0.Store(36, asuint(t1.SampleCmpLevelZero(s1, float2(0.625, 0.25), 0.3)));
 *     u0.Store4(40, asuint(t1.GatherCmpRed(s1, float2(0.5, 0.5), 0.3)));
 *     u0.Store4(56, asuint(t2.Load(int2(1, 0), 2)));
 *     u0.Store2(72, asuint(t2.GetSamplePosition(1)));
 *     uint w, h, n; t2.GetDimensions(w, h, n); u0.Store3(80, uint3(w, h, n));
 *     uint status; float x = t0.Load(int3(3, 1, 0), int2(0, 0), status).x;
 *     u0.Store2(92, uint2(asuint(x), CheckAccessFullyMapped(status)));
 *     u1[uint2(1, 1)] = float4(7, 8, 9, 10);
 *     u0.Store4(100, t3.GatherRaw(s0, float2(0.5, 0.5)));       // SM 6.7
 *     uint w2, h2; u2.GetDimensions(w2, h2);
 *     u0.Store3(116, uint3(asuint(u2[uint2(1, 0)]), w2, h2));
 * }
 */
bool dxil_program_resops_sampling(struct tbuf *out)
{
    static const struct dxil_resource resources[9] = {
        { .resource_class = DXIL_CLASS_SRV, .kind = DXIL_KIND_TEXTURE2D,
          .type_name = "class.Texture2D<vector<float, 4> >", .element_type = DXIL_COMP_F32 },
        { .resource_class = DXIL_CLASS_SRV, .kind = DXIL_KIND_TEXTURE2D, .lower_bound = 1,
          .type_name = "class.Texture2D<float>", .element_type = DXIL_COMP_F32 },
        { .resource_class = DXIL_CLASS_SRV, .kind = DXIL_KIND_TEXTURE2DMS, .lower_bound = 2,
          .type_name = "class.Texture2DMS<vector<float, 4>, 4>", .element_type = DXIL_COMP_F32,
          .sample_count = 4 },
        { .resource_class = DXIL_CLASS_SRV, .kind = DXIL_KIND_TEXTURE2D, .lower_bound = 3,
          .type_name = "class.Texture2D<unsigned int>", .element_type = DXIL_COMP_U32 },
        { .resource_class = DXIL_CLASS_UAV, .kind = DXIL_KIND_RAW_BUFFER,
          .type_name = "struct.RWByteAddressBuffer" },
        { .resource_class = DXIL_CLASS_UAV, .kind = DXIL_KIND_TEXTURE2D, .lower_bound = 1,
          .type_name = "class.RWTexture2D<vector<float, 4> >", .element_type = DXIL_COMP_F32 },
        { .resource_class = DXIL_CLASS_UAV, .kind = DXIL_KIND_TEXTURE2D, .lower_bound = 2,
          .type_name = "class.RWTexture2D<float>", .element_type = DXIL_COMP_F32 },
        { .resource_class = DXIL_CLASS_SAMPLER, .kind = DXIL_KIND_SAMPLER,
          .type_name = "struct.SamplerState" },
        { .resource_class = DXIL_CLASS_SAMPLER, .kind = DXIL_KIND_SAMPLER, .lower_bound = 1,
          .type_name = "struct.SamplerComparisonState", .sampler_kind = 1 },
    };
    struct dxil_module *m = dm_create();
    struct resops_types t = types_of(m);
    const uint32_t two_f32[2] = { t.f32, t.f32 };
    uint32_t sample_pos = dm_type_struct(m, "dx.types.SamplePos", two_f32, 2);
    uint32_t entry = dm_entry(m, "main");
    dm_at(m, dm_block(m));
    uint32_t t0 = handle(m, &t, DXIL_CLASS_SRV, 0, 0), t1 = handle(m, &t, DXIL_CLASS_SRV, 1, 1);
    uint32_t t2 = handle(m, &t, DXIL_CLASS_SRV, 2, 2), u0 = handle(m, &t, DXIL_CLASS_UAV, 0, 0);
    uint32_t u1 = handle(m, &t, DXIL_CLASS_UAV, 1, 1);
    uint32_t s0 = handle(m, &t, DXIL_CLASS_SAMPLER, 0, 0);
    uint32_t s1 = handle(m, &t, DXIL_CLASS_SAMPLER, 1, 1);
    uint32_t u = dm_undef(m, t.i32), uf = dm_undef(m, t.f32);
    uint32_t args[16];

    sample_2d_args(m, &t, args, t0, s0, 0.375f, 0.25f);
    const uint32_t grads[7] = { dm_f32(m, 0.5f), dm_f32(m, 0.0f), uf, dm_f32(m, 0.0f),
                                dm_f32(m, 1.0f), uf, dm_f32(m, 0.0f) };
    memcpy(&args[9], grads, sizeof(grads));
    uint32_t grad = dm_dxop(m, "dx.op.sampleGrad.f32", t.resret_f32, DM_ATTR_READONLY,
                            OP_SAMPLE_GRAD, args, 16);
    uint32_t gx = dm_extractvalue(m, grad, 0);
    buffer_store(m, "dx.op.bufferStore.f32", u0, dm_i32(m, 0), u, &gx, 1, t.f32);

    sample_2d_args(m, &t, args, t0, s0, 0.5f, 0.5f);
    args[8] = dm_i32(m, 1); /* channel green (the o2 slot is the channel here) */
    uint32_t g = dm_dxop(m, "dx.op.textureGather.f32", t.resret_f32, DM_ATTR_READONLY,
                         OP_TEXTURE_GATHER, args, 9);
    uint32_t gv[4];
    for (unsigned k = 0; k < 4; k++)
        gv[k] = dm_extractvalue(m, g, k);
    buffer_store(m, "dx.op.bufferStore.f32", u0, dm_i32(m, 4), u, gv, 4, t.f32);

    uint32_t x = dm_dxop(m, "dx.op.threadId.i32", t.i32, DM_ATTR_READNONE, OP_THREAD_ID,
                         (uint32_t[]){ dm_i32(m, 0) }, 1);
    uint32_t y = dm_dxop(m, "dx.op.threadId.i32", t.i32, DM_ATTR_READNONE, OP_THREAD_ID,
                         (uint32_t[]){ dm_i32(m, 1) }, 1);
    args[6] = dm_binop(m, DM_ADD, x, dm_i32(m, 1), DM_FLAGS_NONE);
    args[7] = y;
    uint32_t gp = dm_dxop(m, "dx.op.textureGather.f32", t.resret_f32, DM_ATTR_READONLY,
                          OP_TEXTURE_GATHER, args, 9);
    for (unsigned k = 0; k < 4; k++)
        gv[k] = dm_extractvalue(m, gp, k);
    buffer_store(m, "dx.op.bufferStore.f32", u0, dm_i32(m, 20), u, gv, 4, t.f32);

    sample_2d_args(m, &t, args, t1, s1, 0.625f, 0.25f);
    args[9] = dm_f32(m, 0.3f);
    uint32_t cmp = dm_dxop(m, "dx.op.sampleCmpLevelZero.f32", t.resret_f32, DM_ATTR_READONLY,
                           OP_SAMPLE_CMP_LEVEL_ZERO, args, 10);
    uint32_t cx = dm_extractvalue(m, cmp, 0);
    buffer_store(m, "dx.op.bufferStore.f32", u0, dm_i32(m, 36), u, &cx, 1, t.f32);

    sample_2d_args(m, &t, args, t1, s1, 0.5f, 0.5f);
    args[8] = dm_i32(m, 0); /* channel red */
    args[9] = dm_f32(m, 0.3f);
    uint32_t gc = dm_dxop(m, "dx.op.textureGatherCmp.f32", t.resret_f32, DM_ATTR_READONLY,
                          OP_TEXTURE_GATHER_CMP, args, 10);
    for (unsigned k = 0; k < 4; k++)
        gv[k] = dm_extractvalue(m, gc, k);
    buffer_store(m, "dx.op.bufferStore.f32", u0, dm_i32(m, 40), u, gv, 4, t.f32);

    const uint32_t ms_args[8] = { t2, dm_i32(m, 2), dm_i32(m, 1), dm_i32(m, 0), u, u, u, u };
    uint32_t ms = dm_dxop(m, "dx.op.textureLoad.f32", t.resret_f32, DM_ATTR_READONLY,
                          OP_TEXTURE_LOAD, ms_args, 8);
    for (unsigned k = 0; k < 4; k++)
        gv[k] = dm_extractvalue(m, ms, k);
    buffer_store(m, "dx.op.bufferStore.f32", u0, dm_i32(m, 56), u, gv, 4, t.f32);

    const uint32_t pos_args[2] = { t2, dm_i32(m, 1) };
    uint32_t pos = dm_dxop(m, "dx.op.texture2DMSGetSamplePosition", sample_pos, DM_ATTR_READONLY,
                           OP_TEXTURE2DMS_GET_SAMPLE_POSITION, pos_args, 2);
    const uint32_t pv[2] = { dm_extractvalue(m, pos, 0), dm_extractvalue(m, pos, 1) };
    buffer_store(m, "dx.op.bufferStore.f32", u0, dm_i32(m, 72), u, pv, 2, t.f32);

    const uint32_t dim_args[2] = { t2, u };
    uint32_t dims = dm_dxop(m, "dx.op.getDimensions", t.dimensions, DM_ATTR_READNONE,
                            OP_GET_DIMENSIONS, dim_args, 2);
    const uint32_t dv[3] = { dm_extractvalue(m, dims, 0), dm_extractvalue(m, dims, 1),
                             dm_extractvalue(m, dims, 3) };
    buffer_store(m, "dx.op.bufferStore.i32", u0, dm_i32(m, 80), u, dv, 3, t.i32);

    const uint32_t load_args[8] = { t0, dm_i32(m, 0), dm_i32(m, 3), dm_i32(m, 1), u,
                                    dm_i32(m, 0), dm_i32(m, 0), u };
    uint32_t ld = dm_dxop(m, "dx.op.textureLoad.f32", t.resret_f32, DM_ATTR_READONLY,
                          OP_TEXTURE_LOAD, load_args, 8);
    uint32_t lx = dm_cast(m, DM_BITCAST, dm_extractvalue(m, ld, 0), t.i32);
    uint32_t status = dm_extractvalue(m, ld, 4);
    uint32_t mapped = dm_dxop(m, "dx.op.checkAccessFullyMapped.i32", dm_type_int(m, 1),
                              DM_ATTR_READONLY, OP_CHECK_ACCESS_FULLY_MAPPED, &status, 1);
    const uint32_t sv[2] = { lx, dm_cast(m, DM_ZEXT, mapped, t.i32) };
    buffer_store(m, "dx.op.bufferStore.i32", u0, dm_i32(m, 92), u, sv, 2, t.i32);

    const uint32_t store_args[9] = { u1, dm_i32(m, 1), dm_i32(m, 1), u, dm_f32(m, 7.0f),
                                     dm_f32(m, 8.0f), dm_f32(m, 9.0f), dm_f32(m, 10.0f),
                                     dm_i8(m, 15) };
    dm_dxop(m, "dx.op.textureStore.f32", dm_type_void(m), DM_ATTR_NOUNWIND, OP_TEXTURE_STORE,
            store_args, 9);

    uint32_t t3 = handle(m, &t, DXIL_CLASS_SRV, 3, 3);
    sample_2d_args(m, &t, args, t3, s0, 0.5f, 0.5f);
    uint32_t raw = dm_dxop(m, "dx.op.textureGatherRaw.i32", t.resret_i32, DM_ATTR_READONLY,
                           OP_TEXTURE_GATHER_RAW, args, 8);
    for (unsigned k = 0; k < 4; k++)
        gv[k] = dm_extractvalue(m, raw, k);
    buffer_store(m, "dx.op.bufferStore.i32", u0, dm_i32(m, 100), u, gv, 4, t.i32);

    uint32_t u2 = handle(m, &t, DXIL_CLASS_UAV, 2, 2);
    const uint32_t u2_load[8] = { u2, u, dm_i32(m, 1), dm_i32(m, 0), u, u, u, u };
    uint32_t texel = dm_dxop(m, "dx.op.textureLoad.f32", t.resret_f32, DM_ATTR_READONLY,
                             OP_TEXTURE_LOAD, u2_load, 8);
    const uint32_t u2_dims[2] = { u2, u };
    uint32_t size = dm_dxop(m, "dx.op.getDimensions", t.dimensions, DM_ATTR_READNONE,
                            OP_GET_DIMENSIONS, u2_dims, 2);
    const uint32_t uv2[3] = { dm_cast(m, DM_BITCAST, dm_extractvalue(m, texel, 0), t.i32),
                              dm_extractvalue(m, size, 0), dm_extractvalue(m, size, 1) };
    buffer_store(m, "dx.op.bufferStore.i32", u0, dm_i32(m, 116), u, uv2, 3, t.i32);
    dm_ret_void(m);
    return finish_compute(m, entry, 7, 1, resources, 9, out);
}

/*
 * Texture1DArray<float4> t0 : register(t0);   Texture3D<float4> t1 : register(t1);
 * TextureCube<float4> t2 : register(t2);      TextureCubeArray<float4> t3 : register(t3);
 * Texture2DArray<float> t4 : register(t4);
 * SamplerState s0 : register(s0);             SamplerComparisonState s1 : register(s1);
 * float4 main(float4 c : TEXCOORD0) : SV_Target0 {
 *     float4 a = t0.SampleBias(s0, c.xy, 0.5, int(1));
 *     float4 b = t1.Sample(s0, c.xyz, int3(0, 1, -1), 2.0);     // LOD clamp 2
 *     float4 d = t2.SampleGrad(s0, c.xyz, float3(c.x, 0, 0), float3(0, c.y, 0));
 *     float4 e = t3.SampleLevel(s0, c, 0);
 *     float f = t4.SampleCmp(s1, c.xyz, c.w);
 *     float l = t1.CalculateLevelOfDetail(s0, c.xyz) + t1.CalculateLevelOfDetailUnclamped(s0, c.xyz);
 *     uint w, h, n, m; t3.GetDimensions(0, w, h, n, m);
 *     uint samples = GetRenderTargetSampleCount();
 *     float loads = t0.Load(int3(1, 1, 0)).x + t1.Load(int4(1, 1, 1, 1), int3(-1, 0, 1)).y;
 *     uint sizes = (t0's width, slices, mips) + (t1's width, height, depth, mips), summed;
 *     return float4(a.x + b.y, d.z + e.w, f + l + loads,
 *                   float(n + m + samples + sizes) + GetRenderTargetSamplePosition(0).y);
 * }
 */
bool dxil_program_resops_kinds(struct tbuf *out)
{
    static const struct dxil_resource resources[9] = {
        { .resource_class = DXIL_CLASS_SRV, .kind = 6, .type_name = "class.Texture1DArray",
          .element_type = DXIL_COMP_F32 },
        { .resource_class = DXIL_CLASS_SRV, .kind = 4, .lower_bound = 1,
          .type_name = "class.Texture3D", .element_type = DXIL_COMP_F32 },
        { .resource_class = DXIL_CLASS_SRV, .kind = 5, .lower_bound = 2,
          .type_name = "class.TextureCube", .element_type = DXIL_COMP_F32 },
        { .resource_class = DXIL_CLASS_SRV, .kind = 9, .lower_bound = 3,
          .type_name = "class.TextureCubeArray", .element_type = DXIL_COMP_F32 },
        { .resource_class = DXIL_CLASS_SRV, .kind = 7, .lower_bound = 4,
          .type_name = "class.Texture2DArray<float>", .element_type = DXIL_COMP_F32 },
        { .resource_class = DXIL_CLASS_SAMPLER, .kind = DXIL_KIND_SAMPLER,
          .type_name = "struct.SamplerState" },
        { .resource_class = DXIL_CLASS_SAMPLER, .kind = DXIL_KIND_SAMPLER, .lower_bound = 1,
          .type_name = "struct.SamplerComparisonState", .sampler_kind = 1 },
    };
    struct dxil_module *m = dm_create();
    struct resops_types t = types_of(m);
    uint32_t entry = dm_entry(m, "main");
    dm_at(m, dm_block(m));
    uint32_t tex[5], s0 = 0, s1 = 0;
    for (int32_t r = 0; r < 5; r++)
        tex[r] = handle(m, &t, DXIL_CLASS_SRV, r, r);
    s0 = handle(m, &t, DXIL_CLASS_SAMPLER, 0, 0);
    s1 = handle(m, &t, DXIL_CLASS_SAMPLER, 1, 1);
    uint32_t u = dm_undef(m, t.i32), uf = dm_undef(m, t.f32), c[4];
    for (int8_t k = 0; k < 4; k++) {
        uint32_t args[4] = { dm_i32(m, 0), dm_i32(m, 0), dm_i8(m, k), u };
        c[k] = dm_dxop(m, "dx.op.loadInput.f32", t.f32, DM_ATTR_READNONE, 4, args, 4);
    }
    uint32_t zero = dm_f32(m, 0.0f), i0 = dm_i32(m, 0);
    const uint32_t a_args[11] = { tex[0], s0, c[0], c[1], uf, uf, dm_i32(m, 1), u, u,
                                  dm_f32(m, 0.5f), zero };
    uint32_t a = dm_dxop(m, "dx.op.sampleBias.f32", t.resret_f32, DM_ATTR_READONLY, 61, a_args,
                         11);
    const uint32_t b_args[10] = { tex[1], s0, c[0], c[1], c[2], uf, i0, dm_i32(m, 1),
                                  dm_i32(m, -1), dm_f32(m, 2.0f) };
    uint32_t b = dm_dxop(m, "dx.op.sample.f32", t.resret_f32, DM_ATTR_READONLY, 60, b_args, 10);
    const uint32_t d_args[16] = { tex[2], s0, c[0], c[1], c[2], uf, u, u, u,
                                  c[0], zero, zero, zero, c[1], zero, zero };
    uint32_t d = dm_dxop(m, "dx.op.sampleGrad.f32", t.resret_f32, DM_ATTR_READONLY,
                         OP_SAMPLE_GRAD, d_args, 16);
    const uint32_t e_args[10] = { tex[3], s0, c[0], c[1], c[2], c[3], u, u, u, zero };
    uint32_t e = dm_dxop(m, "dx.op.sampleLevel.f32", t.resret_f32, DM_ATTR_READONLY,
                         OP_SAMPLE_LEVEL, e_args, 10);
    const uint32_t f_args[11] = { tex[4], s1, c[0], c[1], c[2], uf, i0, i0, u, c[3], zero };
    uint32_t f = dm_dxop(m, "dx.op.sampleCmp.f32", t.resret_f32, DM_ATTR_READONLY, 64, f_args,
                         11);
    uint32_t lod[2];
    for (unsigned k = 0; k < 2; k++) {
        const uint32_t l_args[6] = { tex[1], s0, c[0], c[1], c[2], dm_i1(m, k == 0) };
        lod[k] = dm_dxop(m, "dx.op.calculateLOD.f32", t.f32, DM_ATTR_READONLY, 81, l_args, 6);
    }
    const uint32_t dim_args[2] = { tex[3], i0 };
    uint32_t dims = dm_dxop(m, "dx.op.getDimensions", t.dimensions, DM_ATTR_READNONE,
                            OP_GET_DIMENSIONS, dim_args, 2);
    uint32_t count = dm_binop(m, DM_ADD, dm_extractvalue(m, dims, 2),
                              dm_extractvalue(m, dims, 3), DM_FLAGS_NONE);
    uint32_t lsum = dm_binop(m, DM_ADD, lod[0], lod[1], DM_FAST_MATH);
    const uint32_t two_f32[2] = { t.f32, t.f32 };
    uint32_t sample_pos = dm_type_struct(m, "dx.types.SamplePos", two_f32, 2);
    uint32_t pos = dm_dxop(m, "dx.op.renderTargetGetSamplePosition", sample_pos,
                           DM_ATTR_READONLY, 76, &i0, 1);
    uint32_t samples = dm_dxop(m, "dx.op.renderTargetGetSampleCount", t.i32, DM_ATTR_READONLY,
                               77, NULL, 0);
    count = dm_binop(m, DM_ADD, count, samples, DM_FLAGS_NONE);
    /* Loads and sizes of the 1D array (texel 1 of slice 1, mip 0) and 3D (texel (1, 1, 1) of
     * mip 1, offset (-1, 0, 1)) textures. */
    const uint32_t ld0_args[8] = { tex[0], i0, dm_i32(m, 1), dm_i32(m, 1), u, i0, u, u };
    const uint32_t ld1_args[8] = { tex[1], dm_i32(m, 1), dm_i32(m, 1), dm_i32(m, 1),
                                   dm_i32(m, 1), dm_i32(m, -1), i0, dm_i32(m, 1) };
    uint32_t ld0 = dm_dxop(m, "dx.op.textureLoad.f32", t.resret_f32, DM_ATTR_READONLY,
                           OP_TEXTURE_LOAD, ld0_args, 8);
    uint32_t ld1 = dm_dxop(m, "dx.op.textureLoad.f32", t.resret_f32, DM_ATTR_READONLY,
                           OP_TEXTURE_LOAD, ld1_args, 8);
    uint32_t loads = dm_binop(m, DM_ADD, dm_extractvalue(m, ld0, 0), dm_extractvalue(m, ld1, 1),
                              DM_FAST_MATH);
    for (unsigned k = 0; k < 2; k++) {
        const uint32_t size_args[2] = { tex[k], i0 };
        uint32_t size = dm_dxop(m, "dx.op.getDimensions", t.dimensions, DM_ATTR_READNONE,
                                OP_GET_DIMENSIONS, size_args, 2);
        for (unsigned lane = 0; lane < 4; lane++)
            if (k == 1 || lane != 2) /* the 1D array's z is undefined */
                count = dm_binop(m, DM_ADD, count, dm_extractvalue(m, size, lane), DM_FLAGS_NONE);
    }
    uint32_t result[4] = {
        dm_binop(m, DM_ADD, dm_extractvalue(m, a, 0), dm_extractvalue(m, b, 1), DM_FAST_MATH),
        dm_binop(m, DM_ADD, dm_extractvalue(m, d, 2), dm_extractvalue(m, e, 3), DM_FAST_MATH),
        dm_binop(m, DM_ADD, dm_binop(m, DM_ADD, dm_extractvalue(m, f, 0), lsum, DM_FAST_MATH),
                 loads, DM_FAST_MATH),
        dm_binop(m, DM_ADD, dm_cast(m, DM_UITOFP, count, t.f32), dm_extractvalue(m, pos, 1),
                 DM_FAST_MATH),
    };
    for (int8_t k = 0; k < 4; k++) {
        uint32_t args[4] = { dm_i32(m, 0), dm_i32(m, 0), dm_i8(m, k), result[k] };
        dm_dxop(m, "dx.op.storeOutput.f32", dm_type_void(m), DM_ATTR_NOUNWIND, 5, args, 4);
    }
    dm_ret_void(m);
    static const struct dxil_sig_element inputs[1] = {
        { "TEXCOORD", 0, DXIL_SEM_ARBITRARY, DXIL_COMP_F32, DXIL_INTERP_LINEAR, 4, 0 },
    };
    static const struct dxil_sig_element outputs[1] = {
        { "SV_Target", 0, DXIL_SEM_TARGET, DXIL_COMP_F32, DXIL_INTERP_UNDEFINED, 4, 0 },
    };
    const struct dxil_program_desc desc = {
        .shader_kind = SB_DXIL_SHADER_KIND_PIXEL, .entry = entry, .entry_name = "main",
        .inputs = inputs, .input_count = 1, .outputs = outputs, .output_count = 1,
        .resources = resources, .resource_count = 7,
    };
    bool ok = dxil_program_write(m, &desc, out);
    dm_destroy(m);
    return ok;
}

/*
 * What the front end refuses, one dx.op each, in a cs_6_7 with Texture2D<float4> t0,
 * SamplerState s0 and RWByteAddressBuffer u0 (numthreads(1,1,1)):
 *   RESOPS_REFUSE_OFFSET:     t0.SampleLevel(s0, uv, 0, int2(id.x, 0))   offset not a constant
 *   RESOPS_REFUSE_NARROW:     u0.Load<uint16_t>(0) as bufferLoad.i16     16-bit overload
 */
bool dxil_program_resops_refusal(struct tbuf *out, enum resops_refusal which)
{
    static const struct dxil_resource resources[3] = {
        { .resource_class = DXIL_CLASS_SRV, .kind = DXIL_KIND_TEXTURE2D,
          .type_name = "class.Texture2D<vector<float, 4> >", .element_type = DXIL_COMP_F32 },
        { .resource_class = DXIL_CLASS_UAV, .kind = DXIL_KIND_RAW_BUFFER,
          .type_name = "struct.RWByteAddressBuffer" },
        { .resource_class = DXIL_CLASS_SAMPLER, .kind = DXIL_KIND_SAMPLER,
          .type_name = "struct.SamplerState" },
    };
    struct dxil_module *m = dm_create();
    struct resops_types t = types_of(m);
    uint32_t i16 = dm_type_int(m, 16);
    const uint32_t rw[5] = { i16, i16, i16, i16, t.i32 };
    uint32_t resret_i16 = dm_type_struct(m, "dx.types.ResRet.i16", rw, 5);
    uint32_t entry = dm_entry(m, "main");
    dm_at(m, dm_block(m));
    uint32_t t0 = handle(m, &t, DXIL_CLASS_SRV, 0, 0), u0 = handle(m, &t, DXIL_CLASS_UAV, 0, 0);
    uint32_t s0 = handle(m, &t, DXIL_CLASS_SAMPLER, 0, 0);
    uint32_t args[11];
    sample_2d_args(m, &t, args, t0, s0, 0.5f, 0.5f);
    args[9] = dm_f32(m, 0.0f);
    uint32_t value;
    if (which == RESOPS_REFUSE_OFFSET) {
        args[6] = thread_x(m, &t);
        value = dm_dxop(m, "dx.op.sampleLevel.f32", t.resret_f32, DM_ATTR_READONLY,
                        OP_SAMPLE_LEVEL, args, 10);
    } else {
        const uint32_t load_args[3] = { u0, dm_i32(m, 0), dm_undef(m, t.i32) };
        value = dm_dxop(m, "dx.op.bufferLoad.i16", resret_i16, DM_ATTR_READONLY, OP_BUFFER_LOAD,
                        load_args, 3);
    }
    uint32_t status = dm_extractvalue(m, value, 4);
    buffer_store(m, "dx.op.bufferStore.i32", u0, dm_i32(m, 0), dm_undef(m, t.i32), &status, 1,
                 t.i32);
    dm_ret_void(m);
    return finish_compute(m, entry, 7, 1, resources, 3, out);
}
