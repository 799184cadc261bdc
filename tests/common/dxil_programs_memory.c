/* SPDX-License-Identifier: MIT */
/*
 * The memory, atomics and barrier programs of dxil_programs_memory.h, laid out
 * as dxc writes them (handles first, dx.op calls with the opcode constant
 * first, GEPs right before their load or store); opcodes and operand lists
 * from ../shared/docs/dxil.md §3.6, LLVM records from §2.12.
 */
#include "dxil_programs_memory.h"

#include "dxil_program_writer.h"
#include "shaderbridge/dxbc_dxil.h"

enum { OP_CREATE_HANDLE = 57, OP_BUFFER_STORE = 69, OP_ATOMIC_BIN_OP = 78,
       OP_ATOMIC_COMPARE_EXCHANGE = 79, OP_BARRIER = 80, OP_FLATTENED_THREAD_ID = 96 };
/* AtomicBinOpCode Add (docs §3.4); barrier mode: group sync + groupshared fence. */
enum { ATOMIC_ADD = 0, ATOMIC_OR = 2, BARRIER_SYNC_AND_TGSM = 9 };

static const struct dxil_resource UAV_RAW_U0 = {
    .resource_class = DXIL_CLASS_UAV, .kind = DXIL_KIND_RAW_BUFFER,
    .type_name = "struct.RWByteAddressBuffer",
};

/* The body's common start: the u0 handle and SV_GroupIndex. */
struct compute_start {
    uint32_t i32, u0, t;
};

static struct compute_start begin_compute(struct dxil_module *m)
{
    struct compute_start c;
    c.i32 = dm_type_int(m, 32);
    uint32_t i8ptr = dm_type_ptr(m, dm_type_int(m, 8), 0);
    uint32_t handle = dm_type_struct(m, "dx.types.Handle", &i8ptr, 1);
    uint32_t args[4] = { dm_i8(m, DXIL_CLASS_UAV), dm_i32(m, 0), dm_i32(m, 0), dm_i1(m, false) };
    c.u0 = dm_dxop(m, "dx.op.createHandle", handle, DM_ATTR_READONLY, OP_CREATE_HANDLE, args, 4);
    c.t = dm_dxop(m, "dx.op.flattenedThreadIdInGroup.i32", c.i32, DM_ATTR_READNONE,
                  OP_FLATTENED_THREAD_ID, NULL, 0);
    return c;
}

/* u0.Store(word * 4, value) with `word` an i32 value. */
static void store_word(struct dxil_module *m, const struct compute_start *c, uint32_t word,
                       uint32_t value)
{
    uint32_t u = dm_undef(m, c->i32);
    uint32_t offset = dm_binop(m, DM_SHL, word, dm_i32(m, 2), DM_FLAGS_NONE);
    uint32_t args[8] = { c->u0, offset, u, value, u, u, u, dm_i8(m, 1) };
    dm_dxop(m, "dx.op.bufferStore.i32", dm_type_void(m), DM_ATTR_NOUNWIND, OP_BUFFER_STORE,
            args, 8);
}

static void group_barrier(struct dxil_module *m)
{
    uint32_t mode = dm_i32(m, BARRIER_SYNC_AND_TGSM);
    dm_dxop(m, "dx.op.barrier", dm_type_void(m), DM_ATTR_NODUPLICATE, OP_BARRIER, &mode, 1);
}

/* atomicBinOp.i32(78, handle, op, c0, c1, c2, value): the old value. */
static uint32_t uav_atomic(struct dxil_module *m, const struct compute_start *c, uint32_t handle,
                           int32_t op, uint32_t c0, uint32_t c1, uint32_t value)
{
    uint32_t args[6] = { handle, dm_i32(m, op), c0, c1, dm_undef(m, c->i32), value };
    return dm_dxop(m, "dx.op.atomicBinOp.i32", c->i32, DM_ATTR_NOUNWIND, OP_ATOMIC_BIN_OP,
                   args, 6);
}

/* InterlockedAdd(u0 at byte `offset`, value): atomicBinOp on the raw u0; the old value. */
static uint32_t uav_add(struct dxil_module *m, const struct compute_start *c, int32_t offset,
                        uint32_t value)
{
    return uav_atomic(m, c, c->u0, ATOMIC_ADD, dm_i32(m, offset), dm_undef(m, c->i32), value);
}

static uint32_t element(struct dxil_module *m, uint32_t array, uint32_t index)
{
    uint32_t at[2] = { dm_i32(m, 0), index };
    return dm_gep(m, false, array, at, 2);
}

/* The same address as a constant expression, as dxc writes constant indices. */
static uint32_t constant_element(struct dxil_module *m, uint32_t array, int32_t index)
{
    uint32_t at[2] = { dm_i32(m, 0), dm_i32(m, index) };
    return dm_const_gep(m, true, array, at, 2);
}

static bool finish(struct dxil_module *m, uint32_t entry, struct tbuf *out)
{
    const struct dxil_program_desc d = {
        .shader_kind = SB_DXIL_SHADER_KIND_COMPUTE, .entry = entry, .entry_name = "main",
        .num_threads = { 8, 1, 1 }, .shader_flags = DXIL_FLAG_RAW_BUFFERS,
        .resources = &UAV_RAW_U0, .resource_count = 1,
    };
    bool ok = dxil_program_write(m, &d, out);
    dm_destroy(m);
    return ok;
}

/*
 * RWByteAddressBuffer u0 : register(u0);
 * [numthreads(8, 1, 1)]
 * void main(uint t : SV_GroupIndex)
 * {
 *     uint a[4] = { t, t + 10, t * 3, 100 };   (inside llvm.lifetime.start/end markers)
 *     u0.Store(t * 4, a[t & 3] + a[(t + 1) & 3]);
 * }
 */
bool dxil_program_cs_local_array(struct tbuf *out)
{
    struct dxil_module *m = dm_create();
    uint32_t entry = dm_entry(m, "main");
    dm_at(m, dm_block(m));
    struct compute_start c = begin_compute(m);
    uint32_t a = dm_alloca(m, dm_type_array(m, 4, c.i32), 4);
    /* dxc (SM 6.6 on) brackets the array's life with lifetime markers on an i8* of it. */
    uint32_t i8ptr = dm_type_ptr(m, dm_type_int(m, 8), 0);
    uint32_t marker_params[2] = { dm_type_int(m, 64), i8ptr };
    uint32_t marker_type = dm_type_function(m, dm_type_void(m), marker_params, 2);
    uint32_t start = dm_declare(m, "llvm.lifetime.start", marker_type, DM_ATTR_NOUNWIND);
    uint32_t end = dm_declare(m, "llvm.lifetime.end", marker_type, DM_ATTR_NOUNWIND);
    uint32_t marker_args[2] = { dm_const_int(m, dm_type_int(m, 64), 16),
                                dm_cast(m, DM_BITCAST, a, i8ptr) };
    dm_call(m, start, marker_args, 2);
    uint32_t init[4] = { c.t, dm_binop(m, DM_ADD, c.t, dm_i32(m, 10), DM_FLAGS_NONE),
                         dm_binop(m, DM_MUL, c.t, dm_i32(m, 3), DM_FLAGS_NONE), dm_i32(m, 100) };
    for (int32_t i = 0; i < 4; i++)
        dm_store(m, element(m, a, dm_i32(m, i)), init[i], 4);
    uint32_t first = dm_binop(m, DM_AND, c.t, dm_i32(m, 3), DM_FLAGS_NONE);
    uint32_t next = dm_binop(m, DM_ADD, c.t, dm_i32(m, 1), DM_FLAGS_NONE);
    uint32_t second = dm_binop(m, DM_AND, next, dm_i32(m, 3), DM_FLAGS_NONE);
    uint32_t x = dm_load(m, element(m, a, first), 4);
    uint32_t y = dm_load(m, element(m, a, second), 4);
    dm_call(m, end, marker_args, 2);
    store_word(m, &c, c.t, dm_binop(m, DM_ADD, x, y, DM_FLAGS_NONE));
    dm_ret_void(m);
    return finish(m, entry, out);
}

/*
 * groupshared uint g[2];
 * groupshared uint total, flag;                    (scalars: their globals are the pointers)
 * RWByteAddressBuffer u0 : register(u0);
 * [numthreads(8, 1, 1)]
 * void main(uint t : SV_GroupIndex)
 * {
 *     if (t == 0) { g[0] = 0; g[1] = 0; total = 0; flag = 0; }  (g[0]: constant GEPs)
 *     GroupMemoryBarrierWithGroupSync();
 *     uint old, r, orig;
 *     InterlockedAdd(g[0], 1, old);
 *     InterlockedOr(g[1], 1u << t);
 *     InterlockedAdd(total, t);
 *     total -= 1, atomically                          (LLVM's atomicrmw sub)
 *     uint seen; bool won = cmpxchg(flag, 0, 77, seen);   (LLVM's cmpxchg: {old, success})
 *     u0.InterlockedAdd(144, won ? 1 : 0);
 *     u0.InterlockedAdd(148, seen);
 *     u0.InterlockedAdd(0, t + 1);
 *     u0.InterlockedAdd(4, 1, r);
 *     u0.InterlockedCompareExchange(8, 0, 77, orig);
 *     u0.InterlockedAdd(12, orig == 0 ? 1 : 0);
 *     u0.Store(16 + r * 4, 1);
 *     u0.Store(48 + old * 4, 1);
 *     GroupMemoryBarrierWithGroupSync();
 *     u0.Store(80 + t * 4, g[0] + g[1]);
 *     u0.Store(112 + t * 4, total);
 * }
 */
bool dxil_program_cs_atomics(struct tbuf *out)
{
    struct dxil_module *m = dm_create();
    uint32_t entry = dm_entry(m, "main");
    uint32_t head = dm_block(m), zero_block = dm_block(m), body = dm_block(m);
    dm_at(m, head);
    struct compute_start c = begin_compute(m);
    uint32_t g = dm_global(m, "\001?g@@3PAIA", dm_type_array(m, 2, c.i32), 3);
    uint32_t total = dm_global(m, "\001?total@@3IA", c.i32, 3);
    uint32_t flag = dm_global(m, "\001?flag@@3IA", c.i32, 3);
    uint32_t zero = dm_i32(m, 0), one = dm_i32(m, 1);
    dm_br_cond(m, dm_cmp(m, DM_ICMP_EQ, c.t, zero), zero_block, body);

    dm_at(m, zero_block);
    dm_store(m, constant_element(m, g, 0), zero, 4);
    dm_store(m, element(m, g, one), zero, 4);
    dm_store(m, total, zero, 4);
    dm_store(m, flag, zero, 4);
    dm_br(m, body);

    dm_at(m, body);
    group_barrier(m);
    uint32_t old = dm_atomicrmw(m, DM_RMW_ADD, constant_element(m, g, 0), one);
    dm_atomicrmw(m, DM_RMW_OR, element(m, g, one), dm_binop(m, DM_SHL, one, c.t, DM_FLAGS_NONE));
    dm_atomicrmw(m, DM_RMW_ADD, total, c.t);
    dm_atomicrmw(m, DM_RMW_SUB, total, one);
    uint32_t exchange = dm_cmpxchg(m, flag, zero, dm_i32(m, 77));
    uav_add(m, &c, 144, dm_cast(m, DM_ZEXT, dm_extractvalue(m, exchange, 1), c.i32));
    uav_add(m, &c, 148, dm_extractvalue(m, exchange, 0));
    uav_add(m, &c, 0, dm_binop(m, DM_ADD, c.t, one, DM_FLAGS_NONE));
    uint32_t r = uav_add(m, &c, 4, one);
    uint32_t u = dm_undef(m, c.i32);
    uint32_t cmpxchg_args[6] = { c.u0, dm_i32(m, 8), u, u, zero, dm_i32(m, 77) };
    uint32_t orig = dm_dxop(m, "dx.op.atomicCompareExchange.i32", c.i32, DM_ATTR_NOUNWIND,
                            OP_ATOMIC_COMPARE_EXCHANGE, cmpxchg_args, 6);
    uint32_t won = dm_cast(m, DM_ZEXT, dm_cmp(m, DM_ICMP_EQ, orig, zero), c.i32);
    uav_add(m, &c, 12, won);
    store_word(m, &c, dm_binop(m, DM_ADD, r, dm_i32(m, 4), DM_FLAGS_NONE), one);
    store_word(m, &c, dm_binop(m, DM_ADD, old, dm_i32(m, 12), DM_FLAGS_NONE), one);
    group_barrier(m);
    uint32_t count = dm_load(m, element(m, g, zero), 4);
    uint32_t mask = dm_load(m, element(m, g, one), 4);
    store_word(m, &c, dm_binop(m, DM_ADD, c.t, dm_i32(m, 20), DM_FLAGS_NONE),
               dm_binop(m, DM_ADD, count, mask, DM_FLAGS_NONE));
    store_word(m, &c, dm_binop(m, DM_ADD, c.t, dm_i32(m, 28), DM_FLAGS_NONE),
               dm_load(m, total, 4));
    dm_ret_void(m);
    return finish(m, entry, out);
}

/*
 * struct S { uint a; uint b[3]; };
 * groupshared float v[8][4];          (dxc's float4 v[8], an array of arrays here)
 * groupshared S s[8];
 * RWByteAddressBuffer u0 : register(u0);
 * [numthreads(8, 1, 1)]
 * void main(uint t : SV_GroupIndex)
 * {
 *     v[t][1] = (float)t;
 *     s[t].b[2] = t * 10;
 *     GroupMemoryBarrierWithGroupSync();
 *     u0.Store(t * 4, asuint(v[7 - t][1]));
 *     u0.Store(32 + t * 4, s[(t + 1) & 7].b[2]);
 * }
 */
bool dxil_program_cs_groupshared_paths(struct tbuf *out)
{
    struct dxil_module *m = dm_create();
    uint32_t entry = dm_entry(m, "main");
    dm_at(m, dm_block(m));
    struct compute_start c = begin_compute(m);
    uint32_t f32 = dm_type_float(m);
    uint32_t members[2] = { c.i32, dm_type_array(m, 3, c.i32) };
    uint32_t s_type = dm_type_struct(m, "struct.S", members, 2);
    uint32_t v = dm_global(m, "\001?v@@3PAY03MA", dm_type_array(m, 8, dm_type_array(m, 4, f32)), 3);
    uint32_t s = dm_global(m, "\001?s@@3PAUS@@A", dm_type_array(m, 8, s_type), 3);
    uint32_t zero = dm_i32(m, 0), one = dm_i32(m, 1), two = dm_i32(m, 2);

    uint32_t v_at_t[3] = { zero, c.t, one };
    dm_store(m, dm_gep(m, false, v, v_at_t, 3), dm_cast(m, DM_UITOFP, c.t, f32), 4);
    uint32_t s_at_t[4] = { zero, c.t, one, two };
    dm_store(m, dm_gep(m, false, s, s_at_t, 4),
             dm_binop(m, DM_MUL, c.t, dm_i32(m, 10), DM_FLAGS_NONE), 4);
    group_barrier(m);
    uint32_t mirror = dm_binop(m, DM_SUB, dm_i32(m, 7), c.t, DM_FLAGS_NONE);
    uint32_t v_at_mirror[3] = { zero, mirror, one };
    uint32_t y = dm_load(m, dm_gep(m, false, v, v_at_mirror, 3), 4);
    store_word(m, &c, c.t, dm_cast(m, DM_BITCAST, y, c.i32));
    uint32_t next = dm_binop(m, DM_AND, dm_binop(m, DM_ADD, c.t, one, DM_FLAGS_NONE),
                             dm_i32(m, 7), DM_FLAGS_NONE);
    uint32_t s_at_next[4] = { zero, next, one, two };
    uint32_t b2 = dm_load(m, dm_gep(m, false, s, s_at_next, 4), 4);
    store_word(m, &c, dm_binop(m, DM_ADD, c.t, dm_i32(m, 8), DM_FLAGS_NONE), b2);
    dm_ret_void(m);
    return finish(m, entry, out);
}

/*
 * static const uint table[4] = { 3, 1, 4, 1 };   (table[2]: a constant-expression GEP)
 * RWByteAddressBuffer u0 : register(u0);
 * [numthreads(8, 1, 1)]
 * void main(uint t : SV_GroupIndex) { u0.Store(t * 4, table[t & 3] * 10 + table[2]); }
 */
bool dxil_program_cs_constant_array(struct tbuf *out)
{
    struct dxil_module *m = dm_create();
    uint32_t entry = dm_entry(m, "main");
    dm_at(m, dm_block(m));
    struct compute_start c = begin_compute(m);
    static const uint32_t words[4] = { 3, 1, 4, 1 };
    uint32_t data = dm_const_data(m, dm_type_array(m, 4, c.i32), words, 4);
    uint32_t table = dm_global_constant(m, "table", data);
    uint32_t dynamic = dm_load(m, element(m, table, dm_binop(m, DM_AND, c.t, dm_i32(m, 3),
                                                                 DM_FLAGS_NONE)), 4);
    uint32_t fixed = dm_load(m, constant_element(m, table, 2), 4);
    uint32_t scaled = dm_binop(m, DM_MUL, dynamic, dm_i32(m, 10), DM_FLAGS_NONE);
    store_word(m, &c, c.t, dm_binop(m, DM_ADD, scaled, fixed, DM_FLAGS_NONE));
    dm_ret_void(m);
    return finish(m, entry, out);
}

/*
 * RWByteAddressBuffer u0 : register(u0);
 * RWStructuredBuffer<uint2> u1 : register(u1);
 * RWBuffer<uint> u2 : register(u2);
 * RWTexture2D<uint> u3 : register(u3);
 * [numthreads(8, 1, 1)]
 * void main(uint t : SV_GroupIndex)
 * {
 *     uint orig, r;
 *     InterlockedAdd(u1[t & 3].y, t + 1);             (index, byte offset 4)
 *     InterlockedCompareExchange(u1[0].x, 0, 99, orig);
 *     u0.InterlockedAdd(4, orig == 0 ? 1 : 0);
 *     InterlockedAdd(u2[t & 1], 1, r);                (element index)
 *     u0.InterlockedAdd(0, r);
 *     InterlockedOr(u3[uint2(t & 1, t >> 2)], 1u << t);   (x, y)
 * }
 */
bool dxil_program_cs_uav_atomics(struct tbuf *out)
{
    struct dxil_module *m = dm_create();
    uint32_t entry = dm_entry(m, "main");
    dm_at(m, dm_block(m));
    struct compute_start c = begin_compute(m);
    uint32_t u[4] = { c.u0 };
    for (int32_t k = 1; k < 4; k++) {
        uint32_t args[4] = { dm_i8(m, DXIL_CLASS_UAV), dm_i32(m, k), dm_i32(m, k),
                             dm_i1(m, false) };
        u[k] = dm_dxop(m, "dx.op.createHandle", dm_value_type(m, c.u0), DM_ATTR_READONLY,
                       OP_CREATE_HANDLE, args, 4);
    }
    uint32_t zero = dm_i32(m, 0), one = dm_i32(m, 1), undef = dm_undef(m, c.i32);
    uint32_t quarter = dm_binop(m, DM_AND, c.t, dm_i32(m, 3), DM_FLAGS_NONE);
    uav_atomic(m, &c, u[1], ATOMIC_ADD, quarter, dm_i32(m, 4),
               dm_binop(m, DM_ADD, c.t, one, DM_FLAGS_NONE));
    uint32_t exchange_args[6] = { u[1], zero, zero, undef, zero, dm_i32(m, 99) };
    uint32_t orig = dm_dxop(m, "dx.op.atomicCompareExchange.i32", c.i32, DM_ATTR_NOUNWIND,
                            OP_ATOMIC_COMPARE_EXCHANGE, exchange_args, 6);
    uav_add(m, &c, 4, dm_cast(m, DM_ZEXT, dm_cmp(m, DM_ICMP_EQ, orig, zero), c.i32));
    uint32_t half = dm_binop(m, DM_AND, c.t, one, DM_FLAGS_NONE);
    uint32_t r = uav_atomic(m, &c, u[2], ATOMIC_ADD, half, undef, one);
    uav_add(m, &c, 0, r);
    uint32_t row = dm_binop(m, DM_LSHR, c.t, dm_i32(m, 2), DM_FLAGS_NONE);
    uav_atomic(m, &c, u[3], ATOMIC_OR, half, row, dm_binop(m, DM_SHL, one, c.t, DM_FLAGS_NONE));
    dm_ret_void(m);
    static const struct dxil_resource uavs[4] = {
        { .resource_class = DXIL_CLASS_UAV, .kind = DXIL_KIND_RAW_BUFFER, .lower_bound = 0,
          .type_name = "struct.RWByteAddressBuffer" },
        { .resource_class = DXIL_CLASS_UAV, .kind = DXIL_KIND_STRUCTURED_BUFFER, .lower_bound = 1,
          .type_name = "class.RWStructuredBuffer<vector<unsigned int, 2> >", .struct_stride = 8 },
        { .resource_class = DXIL_CLASS_UAV, .kind = DXIL_KIND_TYPED_BUFFER, .lower_bound = 2,
          .type_name = "class.RWBuffer<unsigned int>", .element_type = DXIL_COMP_U32 },
        { .resource_class = DXIL_CLASS_UAV, .kind = DXIL_KIND_TEXTURE2D, .lower_bound = 3,
          .type_name = "class.RWTexture2D<unsigned int>", .element_type = DXIL_COMP_U32 },
    };
    const struct dxil_program_desc d = {
        .shader_kind = SB_DXIL_SHADER_KIND_COMPUTE, .entry = entry, .entry_name = "main",
        .num_threads = { 8, 1, 1 }, .shader_flags = DXIL_FLAG_RAW_BUFFERS,
        .resources = uavs, .resource_count = 4,
    };
    bool ok = dxil_program_write(m, &d, out);
    dm_destroy(m);
    return ok;
}

/*
 * static uint s[4] = { 5, 6, 7, 8 };     (dxc keeps a dynamically indexed one in memory)
 * RWByteAddressBuffer u0 : register(u0);
 * [numthreads(8, 1, 1)]
 * void main(uint t : SV_GroupIndex) { s[t & 3] = t; u0.Store(t * 4, s[0] + s[1] + s[2] + s[3]); }
 */
bool dxil_program_cs_static_array(struct tbuf *out)
{
    struct dxil_module *m = dm_create();
    uint32_t entry = dm_entry(m, "main");
    dm_at(m, dm_block(m));
    struct compute_start c = begin_compute(m);
    static const uint32_t words[4] = { 5, 6, 7, 8 };
    uint32_t data = dm_const_data(m, dm_type_array(m, 4, c.i32), words, 4);
    uint32_t s = dm_global_static(m, "\001?s@@3PAIA", data);
    dm_store(m, element(m, s, dm_binop(m, DM_AND, c.t, dm_i32(m, 3), DM_FLAGS_NONE)), c.t, 4);
    uint32_t sum = dm_load(m, constant_element(m, s, 0), 4);
    for (int32_t i = 1; i < 4; i++)
        sum = dm_binop(m, DM_ADD, sum, dm_load(m, constant_element(m, s, i), 4), DM_FLAGS_NONE);
    store_word(m, &c, c.t, sum);
    dm_ret_void(m);
    return finish(m, entry, out);
}

/*
 * extern uint s;      (a global of address space 0 without an initializer: not HLSL dxc
 *                      writes for a shader, refused)
 * RWByteAddressBuffer u0 : register(u0);
 * [numthreads(8, 1, 1)] void main(uint t : SV_GroupIndex) { u0.Store(t * 4, s); }
 */
bool dxil_program_cs_static_global(struct tbuf *out)
{
    struct dxil_module *m = dm_create();
    uint32_t entry = dm_entry(m, "main");
    dm_at(m, dm_block(m));
    struct compute_start c = begin_compute(m);
    uint32_t s = dm_global(m, "\001?s@@3IA", c.i32, 0);
    store_word(m, &c, c.t, dm_load(m, s, 4));
    dm_ret_void(m);
    return finish(m, entry, out);
}
