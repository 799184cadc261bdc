/* SPDX-License-Identifier: MIT */
/*
 * The 64-bit atomic programs of dxil_programs_atomic64.h, laid out as dxc writes them
 * (handles first, dx.op calls with the opcode constant first); opcodes and operand lists
 * from ../shared/docs/dxil.md §3.6 (atomicBinOp 78, atomicCompareExchange 79,
 * rawBufferStore 140).
 */
#include "dxil_programs_atomic64.h"

#include "dxil_program_writer.h"
#include "shaderbridge/dxbc_dxil.h"

enum { OP_CREATE_HANDLE = 57, OP_ATOMIC_BIN_OP = 78, OP_ATOMIC_COMPARE_EXCHANGE = 79,
       OP_FLATTENED_THREAD_ID = 96, OP_RAW_BUFFER_STORE = 140 };
/* AtomicBinOpCode (docs §3.4). */
enum { BIN_ADD, BIN_AND, BIN_OR, BIN_XOR, BIN_IMIN, BIN_IMAX, BIN_UMIN, BIN_UMAX, BIN_EXCHANGE };
/* Shader flags: raw buffers (bit 4) and 64-bit integer ops (bit 20). */
#define ATOMIC64_FLAGS (DXIL_FLAG_RAW_BUFFERS | (1ull << 20))

/* Per slot: AtomicBinOpCode (-1: compare-exchange), value, compare value. Chosen so that a
 * 32-bit or wrongly signed implementation gives another answer: carries out of the low
 * word, min/max decided by the high word's sign, a compare that matches only the low word. */
static const struct {
    int op;
    unsigned long long value, compare;
} slots[ATOMIC64_SLOT_COUNT] = {
    [ATOMIC64_SLOT_ADD] = { BIN_ADD, 0x0000000000000001ull, 0 },
    [ATOMIC64_SLOT_AND] = { BIN_AND, 0x0F0F0F0FF0F0F0F0ull, 0 },
    [ATOMIC64_SLOT_OR] = { BIN_OR, 0x0000000180000000ull, 0 },
    [ATOMIC64_SLOT_XOR] = { BIN_XOR, 0xFFFFFFFFFFFFFFFFull, 0 },
    [ATOMIC64_SLOT_IMIN] = { BIN_IMIN, 0xFFFFFFFFFFFFFFFFull, 0 },
    [ATOMIC64_SLOT_IMAX] = { BIN_IMAX, 0x0000000000000001ull, 0 },
    [ATOMIC64_SLOT_UMIN] = { BIN_UMIN, 0x7FFFFFFFFFFFFFFFull, 0 },
    [ATOMIC64_SLOT_UMAX] = { BIN_UMAX, 0xFFFFFFFF00000000ull, 0 },
    [ATOMIC64_SLOT_EXCHANGE] = { BIN_EXCHANGE, 0x0FEDCBA987654321ull, 0 },
    [ATOMIC64_SLOT_CMP_HIT] = { -1, 0x1111111122222222ull, 0xDEADBEEF00000005ull },
    [ATOMIC64_SLOT_CMP_MISS] = { -1, 0x1111111122222222ull, 0x0000000000000005ull },
    [ATOMIC64_SLOT_ADD_NO_RETURN] = { BIN_ADD, 0x0000000000000002ull, 0 },
    [ATOMIC64_SLOT_CMP_NO_RETURN] = { -1, 0xCAFEF00D0000BEEFull, 0 },
};

void atomic64_raw_operands(unsigned slot, unsigned long long *value, unsigned long long *compare)
{
    *value = slot < ATOMIC64_SLOT_COUNT ? slots[slot].value : 0;
    *compare = slot < ATOMIC64_SLOT_COUNT ? slots[slot].compare : 0;
}

/* createHandle(57, UAV, range 0, register 0, uniform). */
static uint32_t uav_handle(struct dxil_module *m)
{
    uint32_t i8ptr = dm_type_ptr(m, dm_type_int(m, 8), 0);
    uint32_t handle = dm_type_struct(m, "dx.types.Handle", &i8ptr, 1);
    uint32_t args[4] = { dm_i8(m, DXIL_CLASS_UAV), dm_i32(m, 0), dm_i32(m, 0), dm_i1(m, false) };
    return dm_dxop(m, "dx.op.createHandle", handle, DM_ATTR_READONLY, OP_CREATE_HANDLE, args, 4);
}

/* atomicBinOp.i64(78, u0, op, c0, c1, undef, value): the old value. */
static uint32_t bin_op(struct dxil_module *m, uint32_t u0, int op, uint32_t c0, uint32_t c1,
                       uint32_t value)
{
    uint32_t i32 = dm_type_int(m, 32), i64 = dm_type_int(m, 64);
    uint32_t args[6] = { u0, dm_i32(m, op), c0, c1, dm_undef(m, i32), value };
    return dm_dxop(m, "dx.op.atomicBinOp.i64", i64, DM_ATTR_NOUNWIND, OP_ATOMIC_BIN_OP, args, 6);
}

/* atomicCompareExchange.i64(79, u0, c0, undef, undef, compare, value): the old value. */
static uint32_t compare_exchange(struct dxil_module *m, uint32_t u0, uint32_t c0, uint32_t compare,
                                 uint32_t value)
{
    uint32_t i32 = dm_type_int(m, 32), i64 = dm_type_int(m, 64), u = dm_undef(m, i32);
    uint32_t args[6] = { u0, c0, u, u, compare, value };
    return dm_dxop(m, "dx.op.atomicCompareExchange.i64", i64, DM_ATTR_NOUNWIND,
                   OP_ATOMIC_COMPARE_EXCHANGE, args, 6);
}

static bool finish(struct dxil_module *m, uint32_t entry, uint32_t threads,
                   const struct dxil_resource *uav, struct tbuf *out)
{
    const struct dxil_program_desc d = {
        .shader_kind = SB_DXIL_SHADER_KIND_COMPUTE, .sm_minor = 6, .entry = entry,
        .entry_name = "main", .num_threads = { threads, 1, 1 }, .shader_flags = ATOMIC64_FLAGS,
        .resources = uav, .resource_count = uav ? 1 : 0,
    };
    bool ok = dxil_program_write(m, &d, out);
    dm_destroy(m);
    return ok;
}

/*
 * RWByteAddressBuffer u0 : register(u0);
 * [numthreads(1, 1, 1)] void main() {
 *     uint64_t old;
 *     u0.InterlockedAdd64(0, V0, old);  u0.Store<uint64_t>(128, old);
 *     ... one operation per slot k at byte 8k (InterlockedAnd64, Or64, Xor64, Min64 on an
 *     int64_t, Max64 on an int64_t, Min64, Max64, InterlockedExchange64,
 *     InterlockedCompareExchange64 twice), each old value stored at 128 + 8k;
 *     u0.InterlockedAdd64(88, V11);  u0.InterlockedCompareStore64(96, C12, V12);
 * }
 */
bool dxil_program_atomic64_raw(struct tbuf *out)
{
    struct dxil_module *m = dm_create();
    uint32_t entry = dm_entry(m, "main");
    dm_at(m, dm_block(m));
    uint32_t u0 = uav_handle(m);
    uint32_t i32 = dm_type_int(m, 32), i64 = dm_type_int(m, 64);
    for (unsigned k = 0; k < ATOMIC64_SLOT_COUNT; k++) {
        uint32_t at = dm_i32(m, (int32_t)(8 * k));
        uint32_t value = dm_const_int(m, i64, (int64_t)slots[k].value);
        uint32_t old = slots[k].op < 0
                           ? compare_exchange(m, u0, at, dm_const_int(m, i64, (int64_t)slots[k].compare),
                                              value)
                           : bin_op(m, u0, slots[k].op, at, dm_undef(m, i32), value);
        if (k >= ATOMIC64_SLOT_ADD_NO_RETURN)
            continue;
        uint32_t u = dm_undef(m, i64);
        uint32_t args[9] = { u0, dm_i32(m, (int32_t)(ATOMIC64_RESULTS_BYTE + 8 * k)),
                             dm_undef(m, i32), old, u, u, u, dm_i8(m, 1), dm_i32(m, 8) };
        dm_dxop(m, "dx.op.rawBufferStore.i64", dm_type_void(m), DM_ATTR_NOUNWIND,
                OP_RAW_BUFFER_STORE, args, 9);
    }
    dm_ret_void(m);
    static const struct dxil_resource raw = {
        .resource_class = DXIL_CLASS_UAV, .kind = DXIL_KIND_RAW_BUFFER,
        .type_name = "struct.RWByteAddressBuffer",
    };
    return finish(m, entry, 1, &raw, out);
}

/* See dxil_programs_atomic64.h. */
bool dxil_program_atomic64_structured(struct tbuf *out)
{
    struct dxil_module *m = dm_create();
    uint32_t entry = dm_entry(m, "main");
    dm_at(m, dm_block(m));
    uint32_t u0 = uav_handle(m);
    uint32_t i32 = dm_type_int(m, 32), i64 = dm_type_int(m, 64);
    uint32_t t = dm_dxop(m, "dx.op.flattenedThreadIdInGroup.i32", i32, DM_ATTR_READNONE,
                         OP_FLATTENED_THREAD_ID, NULL, 0);
    uint32_t element = dm_binop(m, DM_AND, t, dm_i32(m, 1), DM_FLAGS_NONE);
    uint32_t step = dm_cast(m, DM_ZEXT, dm_binop(m, DM_ADD, t, dm_i32(m, 1), DM_FLAGS_NONE), i64);
    bin_op(m, u0, BIN_ADD, element, dm_i32(m, 8),
           dm_binop(m, DM_MUL, step, dm_const_int(m, i64, 0x80000000ll), DM_FLAGS_NONE));
    bin_op(m, u0, BIN_IMIN, element, dm_i32(m, 0),
           dm_cast(m, DM_SEXT, dm_binop(m, DM_SUB, t, dm_i32(m, 2), DM_FLAGS_NONE), i64));
    dm_ret_void(m);
    static const struct dxil_resource structured = {
        .resource_class = DXIL_CLASS_UAV, .kind = DXIL_KIND_STRUCTURED_BUFFER,
        .type_name = "class.RWStructuredBuffer<Pair>", .struct_stride = 16,
    };
    return finish(m, entry, 4, &structured, out);
}

/* See dxil_programs_atomic64.h. */
bool dxil_program_atomic64_groupshared(struct tbuf *out)
{
    struct dxil_module *m = dm_create();
    uint32_t entry = dm_entry(m, "main");
    dm_at(m, dm_block(m));
    uint32_t i64 = dm_type_int(m, 64);
    uint32_t g = dm_global(m, "\001?g@@3_KA", i64, 3);
    dm_atomicrmw(m, DM_RMW_ADD, g, dm_const_int(m, i64, 1));
    dm_ret_void(m);
    return finish(m, entry, 1, NULL, out);
}
