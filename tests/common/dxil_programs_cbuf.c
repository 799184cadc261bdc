/* SPDX-License-Identifier: MIT */
/*
 * The constant-buffer programs of dxil_programs_cbuf.h: cbufferLoadLegacy with its 16- and
 * 64-bit overloads (CBufRet.i16.8 / .f16.8 / .i64 / .f64, ../shared/docs/dxil.md §3.2) and
 * the non-legacy cbufferLoad (opcode 58) at byte offsets, written as dxc writes them
 * (handles first, extractvalue after the struct-returning call).
 */
#include "dxil_programs_cbuf.h"

#include "dxil_program_writer.h"
#include "dxil_programs.h"
#include "shaderbridge/dxbc_dxil.h"

enum { OP_CBUFFER_LOAD = 58, OP_CBUFFER_LOAD_LEGACY = 59, OP_THREAD_ID = 93,
       OP_RAW_BUFFER_LOAD = 139, OP_RAW_BUFFER_STORE = 140, OP_TEXTURE_GATHER = 73 };
/* ComponentType of a 16-bit signed integer element (docs §3.4; DXIL_COMP_* lacks it). */
enum { COMP_I16 = 2 };
/* Shader flags (docs §4.3): doubles (2), raw buffers (4), low precision present (5),
 * Int64Ops (20), native 16-bit types (23). */
#define FLAGS_CBUF (0x4ull | DXIL_FLAG_RAW_BUFFERS | 0x20ull | 0x100000ull | 0x800000ull)

static const struct dxil_resource U0_CB0[2] = {
    { .resource_class = DXIL_CLASS_UAV, .kind = DXIL_KIND_RAW_BUFFER,
      .type_name = "struct.RWByteAddressBuffer" },
    { .resource_class = DXIL_CLASS_CBV, .kind = DXIL_KIND_CBUFFER,
      .cbuffer_size = DXIL_CBUF_BYTES, .type_name = "cb0" },
};

/* The program being written: its module, entry, handles and the types it uses. */
struct cbuf_program {
    struct dxil_module *m;
    uint32_t entry, u0, cb0, t0, i16, i32, i64, f16, f32, f64;
};

/* The module with `main` open and the handles of u0 and cb0 (with_cb0) or t0 (else). */
static void begin(struct cbuf_program *p, bool with_cb0)
{
    struct dxil_module *m = dm_create();
    p->m = m;
    p->entry = dm_entry(m, "main");
    dm_at(m, dm_block(m));
    p->u0 = dxil_programs_create_handle(m, DXIL_CLASS_UAV, 0, 0);
    p->cb0 = with_cb0 ? dxil_programs_create_handle(m, DXIL_CLASS_CBV, 0, 0) : DM_NONE;
    p->t0 = with_cb0 ? DM_NONE : dxil_programs_create_handle(m, DXIL_CLASS_SRV, 0, 0);
    p->i16 = dm_type_int(m, 16);
    p->i32 = dm_type_int(m, 32);
    p->i64 = dm_type_int(m, 64);
    p->f16 = dm_type_half(m);
    p->f32 = dm_type_float(m);
    p->f64 = dm_type_double(m);
}

static uint32_t thread_id(struct cbuf_program *p)
{
    uint32_t x = dm_i32(p->m, 0);
    return dm_dxop(p->m, "dx.op.threadId.i32", p->i32, DM_ATTR_READNONE, OP_THREAD_ID, &x, 1);
}

/* cbufferLoadLegacy.<overload>(59, cb0, row) returning `count` members of `element`. */
static uint32_t legacy_row(struct cbuf_program *p, uint32_t element, unsigned count,
                           const char *type_name, const char *op_name, uint32_t row)
{
    uint32_t members[8] = { element, element, element, element,
                            element, element, element, element };
    uint32_t type = dm_type_struct(p->m, type_name, members, count);
    uint32_t args[2] = { p->cb0, row };
    return dm_dxop(p->m, op_name, type, DM_ATTR_READONLY, OP_CBUFFER_LOAD_LEGACY, args, 2);
}

/* cbufferLoad.<overload>(58, cb0, byte offset, alignment). */
static uint32_t load_at(struct cbuf_program *p, uint32_t type, const char *op_name,
                        uint32_t offset, int32_t alignment)
{
    uint32_t args[3] = { p->cb0, offset, dm_i32(p->m, alignment) };
    return dm_dxop(p->m, op_name, type, DM_ATTR_READONLY, OP_CBUFFER_LOAD, args, 3);
}

/* u0 word `base + i` = words[i] for i < n (base an i32 value), ret, and the container. */
static bool store_and_finish_with(struct cbuf_program *p, uint32_t base, const uint32_t *words,
                                  unsigned n, uint32_t threads,
                                  const struct dxil_resource *resources, unsigned resource_count,
                                  struct tbuf *out)
{
    struct dxil_module *m = p->m;
    for (unsigned i = 0; i < n; i++) {
        uint32_t word = dm_binop(m, DM_ADD, base, dm_i32(m, (int32_t)i), DM_FLAGS_NONE);
        dxil_programs_store_u32(m, p->u0, dm_binop(m, DM_SHL, word, dm_i32(m, 2), DM_FLAGS_NONE),
                                words[i]);
    }
    dm_ret_void(m);
    const struct dxil_program_desc d = {
        .shader_kind = SB_DXIL_SHADER_KIND_COMPUTE, .sm_minor = 2, .entry = p->entry,
        .entry_name = "main", .num_threads = { threads, 1, 1 }, .shader_flags = FLAGS_CBUF,
        .resources = resources, .resource_count = resource_count,
    };
    bool ok = dxil_program_write(m, &d, out);
    dm_destroy(m);
    return ok;
}

static bool store_and_finish(struct cbuf_program *p, uint32_t base, const uint32_t *words,
                             unsigned n, uint32_t threads, struct tbuf *out)
{
    return store_and_finish_with(p, base, words, n, threads, U0_CB0, 2, out);
}

/* The f32 bits of a half or double value (fpext / fptrunc, then bitcast). */
static uint32_t float_bits(struct cbuf_program *p, uint32_t value, enum dm_castop to_float)
{
    return dm_cast(p->m, DM_BITCAST, dm_cast(p->m, to_float, value, p->f32), p->i32);
}

/*
 * cbuffer cb0 { uint16_t8 r[3]; };  RWByteAddressBuffer u0;
 * [numthreads(1,1,1)] void main(uint t : SV_DispatchThreadID) {
 *     uint16_t8 v = r[t + 1]; float16_t8 h = (float16_t8)r[2];
 *     u0.Store(0, v[1]); u0.Store(4, v[3]); u0.Store(8, v[6]); u0.Store(12, asuint((float)h[1])); }
 */
bool dxil_program_cbuf_legacy16(struct tbuf *out)
{
    struct cbuf_program p;
    begin(&p, true);
    struct dxil_module *m = p.m;
    uint32_t row = dm_binop(m, DM_ADD, thread_id(&p), dm_i32(m, 1), DM_FLAGS_NONE);
    uint32_t v = legacy_row(&p, p.i16, 8, "dx.types.CBufRet.i16.8",
                            "dx.op.cbufferLoadLegacy.i16", row);
    uint32_t h = legacy_row(&p, p.f16, 8, "dx.types.CBufRet.f16.8",
                            "dx.op.cbufferLoadLegacy.f16", dm_i32(m, 2));
    uint32_t words[4] = {
        dm_cast(m, DM_ZEXT, dm_extractvalue(m, v, 1), p.i32),
        dm_cast(m, DM_ZEXT, dm_extractvalue(m, v, 3), p.i32),
        dm_cast(m, DM_ZEXT, dm_extractvalue(m, v, 6), p.i32),
        float_bits(&p, dm_extractvalue(m, h, 1), DM_FPEXT),
    };
    return store_and_finish(&p, dm_i32(m, 0), words, 4, 1, out);
}

/*
 * cbuffer cb0 { uint64_t2 a; uint4 pad; double2 d; };  RWByteAddressBuffer u0;
 * [numthreads(1,1,1)] void main() {
 *     uint64_t s = a[0] + a[1];
 *     u0.Store(0, (uint)s); u0.Store(4, (uint)(s >> 32)); u0.Store(8, asuint((float)(d[1] * 3.0))); }
 */
bool dxil_program_cbuf_legacy64(struct tbuf *out)
{
    struct cbuf_program p;
    begin(&p, true);
    struct dxil_module *m = p.m;
    uint32_t a = legacy_row(&p, p.i64, 2, "dx.types.CBufRet.i64", "dx.op.cbufferLoadLegacy.i64",
                            dm_i32(m, 0));
    uint32_t d = legacy_row(&p, p.f64, 2, "dx.types.CBufRet.f64", "dx.op.cbufferLoadLegacy.f64",
                            dm_i32(m, 2));
    uint32_t s = dm_binop(m, DM_ADD, dm_extractvalue(m, a, 0), dm_extractvalue(m, a, 1),
                          DM_FLAGS_NONE);
    uint32_t high = dm_binop(m, DM_LSHR, s, dm_const_int(m, p.i64, 32), DM_FLAGS_NONE);
    uint32_t tripled = dm_binop(m, DM_MUL, dm_extractvalue(m, d, 1), dm_f64(m, 3.0),
                                DM_FLAGS_NONE);
    uint32_t words[3] = {
        dm_cast(m, DM_TRUNC, s, p.i32),
        dm_cast(m, DM_TRUNC, high, p.i32),
        float_bits(&p, tripled, DM_FPTRUNC),
    };
    return store_and_finish(&p, dm_i32(m, 0), words, 3, 1, out);
}

/* See dxil_programs_cbuf.h: eight scalar loads per thread at fixed and thread-dependent
 * byte offsets (HLSL with -not_use_legacy_cbuf_load). */
bool dxil_program_cbuf_modern(struct tbuf *out)
{
    struct cbuf_program p;
    begin(&p, true);
    struct dxil_module *m = p.m;
    uint32_t t = thread_id(&p);
    /* offset = start + t * step */
    uint32_t at[3];
    const int32_t start[3] = { 6, 12, 28 }, step[3] = { 6, 8, 4 };
    for (unsigned i = 0; i < 3; i++)
        at[i] = dm_binop(m, DM_ADD, dm_i32(m, start[i]),
                         dm_binop(m, DM_MUL, t, dm_i32(m, step[i]), DM_FLAGS_NONE),
                         DM_FLAGS_NONE);
    uint32_t wide = load_at(&p, p.i64, "dx.op.cbufferLoad.i64", at[1], 4);
    uint32_t words[8] = {
        load_at(&p, p.i32, "dx.op.cbufferLoad.i32", dm_i32(m, 20), 4),
        dm_cast(m, DM_ZEXT, load_at(&p, p.i16, "dx.op.cbufferLoad.i16", dm_i32(m, 26), 2), p.i32),
        dm_cast(m, DM_ZEXT, load_at(&p, p.i16, "dx.op.cbufferLoad.i16", at[0], 2), p.i32),
        dm_cast(m, DM_TRUNC, wide, p.i32),
        dm_cast(m, DM_TRUNC, dm_binop(m, DM_LSHR, wide, dm_const_int(m, p.i64, 32),
                                      DM_FLAGS_NONE), p.i32),
        load_at(&p, p.i32, "dx.op.cbufferLoad.i32", at[2], 4),
        float_bits(&p, load_at(&p, p.f16, "dx.op.cbufferLoad.f16", dm_i32(m, 34), 2), DM_FPEXT),
        float_bits(&p, load_at(&p, p.f64, "dx.op.cbufferLoad.f64", dm_i32(m, 40), 8),
                   DM_FPTRUNC),
    };
    uint32_t base = dm_binop(m, DM_MUL, t, dm_i32(m, 8), DM_FLAGS_NONE);
    return store_and_finish(&p, base, words, 8, 2, out);
}

/* u0 raw, t0 StructuredBuffer<uint16_t> (stride 2), u1 RWStructuredBuffer<uint16_t3>
 * (stride 6): the narrow strides the IR declares as raw buffers. */
static const struct dxil_resource U0_T0_U1_NARROW[3] = {
    { .resource_class = DXIL_CLASS_UAV, .kind = DXIL_KIND_RAW_BUFFER,
      .type_name = "struct.RWByteAddressBuffer" },
    { .resource_class = DXIL_CLASS_SRV, .kind = DXIL_KIND_STRUCTURED_BUFFER,
      .type_name = "class.StructuredBuffer<uint16_t>", .struct_stride = 2 },
    { .resource_class = DXIL_CLASS_UAV, .kind = DXIL_KIND_STRUCTURED_BUFFER, .lower_bound = 1,
      .type_name = "class.RWStructuredBuffer<vector<uint16_t, 3> >", .struct_stride = 6 },
};

/*
 * StructuredBuffer<uint16_t> t0;  RWStructuredBuffer<uint16_t3> u1 : register(u1);
 * RWByteAddressBuffer u0;
 * [numthreads(2,1,1)] void main(uint t : SV_DispatchThreadID) {
 *     uint16_t a = t0[2 * t + 1]; u1[t + 1].y = a + 1; u0.Store(4 * t, a); }
 */
bool dxil_program_cbuf_narrow_structured(struct tbuf *out)
{
    struct cbuf_program p;
    begin(&p, false);
    struct dxil_module *m = p.m;
    uint32_t u1 = dxil_programs_create_handle(m, DXIL_CLASS_UAV, 1, 1);
    uint32_t t = thread_id(&p), zero = dm_i32(m, 0);
    uint32_t members[5] = { p.i16, p.i16, p.i16, p.i16, p.i32 };
    uint32_t resret = dm_type_struct(m, "dx.types.ResRet.i16", members, 5);
    uint32_t index = dm_binop(m, DM_ADD, dm_binop(m, DM_MUL, t, dm_i32(m, 2), DM_FLAGS_NONE),
                              dm_i32(m, 1), DM_FLAGS_NONE);
    uint32_t load_args[5] = { p.t0, index, zero, dm_i8(m, 1), dm_i32(m, 2) };
    uint32_t a = dm_extractvalue(m, dm_dxop(m, "dx.op.rawBufferLoad.i16", resret,
                                            DM_ATTR_READONLY, OP_RAW_BUFFER_LOAD, load_args, 5),
                                 0);
    uint32_t next = dm_binop(m, DM_ADD, a, dm_const_int(m, p.i16, 1), DM_FLAGS_NONE);
    uint32_t u = dm_undef(m, p.i16);
    uint32_t store_args[9] = { u1, dm_binop(m, DM_ADD, t, dm_i32(m, 1), DM_FLAGS_NONE),
                               dm_i32(m, 2), next, u, u, u, dm_i8(m, 1), dm_i32(m, 2) };
    dm_dxop(m, "dx.op.rawBufferStore.i16", dm_type_void(m), DM_ATTR_NOUNWIND,
            OP_RAW_BUFFER_STORE, store_args, 9);
    uint32_t word = dm_cast(m, DM_ZEXT, a, p.i32);
    return store_and_finish_with(&p, t, &word, 1, 2, U0_T0_U1_NARROW, 3, out);
}

/* u0 raw, t0 Texture2D<int16_t>, t1 Texture2D<half>, s0. */
static const struct dxil_resource U0_T0_T1_S0[4] = {
    { .resource_class = DXIL_CLASS_UAV, .kind = DXIL_KIND_RAW_BUFFER,
      .type_name = "struct.RWByteAddressBuffer" },
    { .resource_class = DXIL_CLASS_SRV, .kind = DXIL_KIND_TEXTURE2D,
      .type_name = "class.Texture2D<int16_t>", .element_type = COMP_I16 },
    { .resource_class = DXIL_CLASS_SRV, .kind = DXIL_KIND_TEXTURE2D, .lower_bound = 1,
      .type_name = "class.Texture2D<half>", .element_type = DXIL_COMP_F16 },
    { .resource_class = DXIL_CLASS_SAMPLER, .kind = DXIL_KIND_SAMPLER,
      .type_name = "struct.SamplerState" },
};

/* textureGather.<overload>(73, srv, s0, 0.5, 0.5, undef, undef, 0, 0, red) -> 4 members. */
static void gather_red(struct cbuf_program *p, uint32_t srv, uint32_t s0, uint32_t element,
                       const char *resret_name, const char *op_name, uint32_t out[4])
{
    struct dxil_module *m = p->m;
    uint32_t members[5] = { element, element, element, element, p->i32 };
    uint32_t resret = dm_type_struct(m, resret_name, members, 5);
    uint32_t half_way = dm_f32(m, 0.5f), fu = dm_undef(m, p->f32), zero = dm_i32(m, 0);
    uint32_t args[9] = { srv, s0, half_way, half_way, fu, fu, zero, zero, zero };
    uint32_t g = dm_dxop(m, op_name, resret, DM_ATTR_READONLY, OP_TEXTURE_GATHER, args, 9);
    for (unsigned k = 0; k < 4; k++)
        out[k] = dm_extractvalue(m, g, k);
}

/*
 * Texture2D<int16_t> t0;  Texture2D<half> t1 : register(t1);  SamplerState s0;
 * RWByteAddressBuffer u0;
 * [numthreads(1,1,1)] void main() {
 *     int16_t4 a = t0.GatherRed(s0, 0.5); half4 b = t1.GatherRed(s0, 0.5);
 *     u0.Store4(0, (uint4)(uint16_t4)a); u0.Store4(16, asuint((float4)b)); }
 */
bool dxil_program_cbuf_gather16(struct tbuf *out)
{
    struct cbuf_program p;
    begin(&p, false);
    struct dxil_module *m = p.m;
    uint32_t t1 = dxil_programs_create_handle(m, DXIL_CLASS_SRV, 1, 1);
    uint32_t s0 = dxil_programs_create_handle(m, DXIL_CLASS_SAMPLER, 0, 0);
    uint32_t a[4], b[4], words[8];
    gather_red(&p, p.t0, s0, p.i16, "dx.types.ResRet.i16", "dx.op.textureGather.i16", a);
    gather_red(&p, t1, s0, p.f16, "dx.types.ResRet.f16", "dx.op.textureGather.f16", b);
    for (unsigned k = 0; k < 4; k++) {
        words[k] = dm_cast(m, DM_ZEXT, a[k], p.i32);
        words[4 + k] = float_bits(&p, b[k], DM_FPEXT);
    }
    return store_and_finish_with(&p, dm_i32(m, 0), words, 8, 1, U0_T0_T1_S0, 4, out);
}

/* u0 raw, t0 StructuredBuffer<uint64_t2> (stride 16). */
static const struct dxil_resource U0_T0_WIDE[2] = {
    { .resource_class = DXIL_CLASS_UAV, .kind = DXIL_KIND_RAW_BUFFER,
      .type_name = "struct.RWByteAddressBuffer" },
    { .resource_class = DXIL_CLASS_SRV, .kind = DXIL_KIND_STRUCTURED_BUFFER,
      .type_name = "class.StructuredBuffer<vector<unsigned long long, 2> >",
      .struct_stride = 16 },
};

/* rawBufferStore.i64(140, u0, byte, undef, v0, v1, undef, undef, mask, 8). */
static void store64(struct cbuf_program *p, int32_t byte, uint32_t v0, uint32_t v1, int8_t mask)
{
    struct dxil_module *m = p->m;
    uint32_t u = dm_undef(m, p->i64);
    uint32_t args[9] = { p->u0, dm_i32(m, byte), dm_undef(m, p->i32), v0, v1, u, u,
                         dm_i8(m, mask), dm_i32(m, 8) };
    dm_dxop(m, "dx.op.rawBufferStore.i64", dm_type_void(m), DM_ATTR_NOUNWIND,
            OP_RAW_BUFFER_STORE, args, 9);
}

/*
 * StructuredBuffer<uint64_t2> t0;  RWByteAddressBuffer u0;
 * [numthreads(1,1,1)] void main() {
 *     uint64_t2 v = t0[1];
 *     u0.Store<uint64_t>(0, v.y); u0.Store<uint64_t2>(8, uint64_t2(v.x + v.y, v.x)); }
 */
bool dxil_program_cbuf_buffer64(struct tbuf *out)
{
    struct cbuf_program p;
    begin(&p, false);
    struct dxil_module *m = p.m;
    uint32_t members[5] = { p.i64, p.i64, p.i64, p.i64, p.i32 };
    uint32_t resret = dm_type_struct(m, "dx.types.ResRet.i64", members, 5);
    uint32_t args[5] = { p.t0, dm_i32(m, 1), dm_i32(m, 0), dm_i8(m, 3), dm_i32(m, 8) };
    uint32_t v = dm_dxop(m, "dx.op.rawBufferLoad.i64", resret, DM_ATTR_READONLY,
                         OP_RAW_BUFFER_LOAD, args, 5);
    uint32_t x = dm_extractvalue(m, v, 0), y = dm_extractvalue(m, v, 1);
    store64(&p, 0, y, dm_undef(m, p.i64), 1);
    store64(&p, 8, dm_binop(m, DM_ADD, x, y, DM_FLAGS_NONE), x, 3);
    return store_and_finish_with(&p, dm_i32(m, 0), NULL, 0, 1, U0_T0_WIDE, 2, out);
}
