/* SPDX-License-Identifier: MIT */
/*
 * Atomics and barriers (../shared/docs/dxil.md §2.12 ATOMICRMW/CMPXCHG, §3.6
 * "Atomics on resources", "Barriers"): LLVM atomicrmw and cmpxchg on
 * groupshared pointers, dx.op atomicBinOp and atomicCompareExchange on UAVs,
 * and dx.op barrier. Each becomes the IR op the SM4 front end emits for the
 * same HLSL: atomic_* when the old value is never read, imm_atomic_* when it
 * is (InterlockedAdd with and without its third argument), and sync_* with
 * the barrier's fence and sync bits.
 *
 * The UAV is the handle's operand (an element of a range in the SM5.1 form).
 * Addresses follow the SM4 operand: g# and raw UAVs take a byte offset,
 * structured UAVs (index, byte offset) in x, y, typed UAVs their coordinates
 * (as many lanes as the resource's dimension has). 64-bit overloads on UAVs are
 * ir_from_dxil_atomic64.c's; on groupshared memory they refuse.
 */
#include "ir_from_dxil_private.h"
#include "translator/dxil_opcodes.h"
#include "translator/sm4.h"

/* The IR op of one atomic operation, without and with the old value returned. */
struct atomic_form {
    uint32_t plain, returning;
};

/* By DXIL AtomicBinOpCode (§3.4): 0 Add, 1 And, 2 Or, 3 Xor, 4 IMin, 5 IMax, 6 UMin,
 * 7 UMax, 8 Exchange. SM4 has no exchange without a result: it always returns. */
enum { ATOMIC_ADD = 0, ATOMIC_EXCHANGE = 8, ATOMIC_BINOP_COUNT = 9 };
static const struct atomic_form binop_forms[ATOMIC_BINOP_COUNT] = {
    { SB_IR_OP_ATOMIC_IADD, SB_IR_OP_IMM_ATOMIC_IADD },
    { SB_IR_OP_ATOMIC_AND, SB_IR_OP_IMM_ATOMIC_AND },
    { SB_IR_OP_ATOMIC_OR, SB_IR_OP_IMM_ATOMIC_OR },
    { SB_IR_OP_ATOMIC_XOR, SB_IR_OP_IMM_ATOMIC_XOR },
    { SB_IR_OP_ATOMIC_IMIN, SB_IR_OP_IMM_ATOMIC_IMIN },
    { SB_IR_OP_ATOMIC_IMAX, SB_IR_OP_IMM_ATOMIC_IMAX },
    { SB_IR_OP_ATOMIC_UMIN, SB_IR_OP_IMM_ATOMIC_UMIN },
    { SB_IR_OP_ATOMIC_UMAX, SB_IR_OP_IMM_ATOMIC_UMAX },
    { SB_IR_OP_IMM_ATOMIC_EXCH, SB_IR_OP_IMM_ATOMIC_EXCH },
};
static const struct atomic_form compare_form = { SB_IR_OP_ATOMIC_CMP_STORE,
                                                 SB_IR_OP_IMM_ATOMIC_CMP_EXCH };

/* LLVM atomicrmw operation (§2.12) -> AtomicBinOpCode; sub is an add of the negated
 * value; nand (which DXIL forbids) has none. */
enum { RMW_XCHG, RMW_ADD, RMW_SUB, RMW_AND, RMW_NAND, RMW_OR, RMW_XOR, RMW_MAX, RMW_MIN,
       RMW_UMAX, RMW_UMIN, RMW_COUNT };
static const int8_t rmw_binop[RMW_COUNT] = { 8, 0, 0, 1, -1, 2, 3, 5, 4, 7, 6 };

/* Emits one atomic: `old` (a temp) receives the previous value when the program reads it
 * (DXIL_FRONT_NONE: it does not). Sources: address, [compare], value. */
static bool emit_atomic(struct dxil_front *f, const struct atomic_form *form, uint32_t old,
                        struct sb_ir_operand memory, const struct sb_ir_operand *src,
                        uint32_t src_count)
{
    if (old == DXIL_FRONT_NONE && form->plain == form->returning)
        old = dxil_front_new_temp(f); /* exchange: SM4 writes the old value somewhere */
    if (old == DXIL_FRONT_NONE)
        return dxil_front_emit(f, form->plain, &memory, 1, src, src_count) != NULL;
    struct sb_ir_operand dst[2] = { dxil_front_temp_dst(old, 0x1), memory };
    return dxil_front_emit(f, form->returning, dst, 2, src, src_count) != NULL;
}

/* The temp receiving the old value of atomic `in`, or NONE when no instruction reads it. */
static bool old_value_temp(struct dxil_front *f, const struct sb_bc_instruction *in,
                           uint32_t *temp)
{
    *temp = DXIL_FRONT_NONE;
    if (in->value == SB_BC_NONE || !dxil_front_value_used(f, in->value))
        return !f->failed;
    *temp = dxil_front_value_temp(f, in->value);
    return *temp != DXIL_FRONT_NONE;
}

/* Groupshared atomics are on 32-bit integers only: 64-bit (SM 6.6) overloads refuse. */
static bool require_i32(struct dxil_front *f, uint32_t type, const char *what)
{
    const struct sb_bc_type *t = dxil_front_type(f, type);
    if (t && t->kind == SB_BC_TYPE_INTEGER && t->width == 32)
        return true;
    return dxil_front_fail(f, SB_ERROR_TRANSLATE_UNSUPPORTED,
                           "%s on a type other than i32: 64-bit groupshared atomics are not "
                           "translated",
                           what);
}

/* atomicrmw OP ptr, value: an atomic on the groupshared DWORD `ptr` names. */
static bool atomic_rmw(struct dxil_front *f, const struct sb_bc_instruction *in)
{
    struct sb_ir_operand memory, src[2];
    uint32_t old;
    if (in->operand_count < 2)
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_INVALID, "atomicrmw without a value");
    if (in->op >= RMW_COUNT || rmw_binop[in->op] < 0)
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_UNSUPPORTED, "atomicrmw operation %u",
                               in->op);
    if (!require_i32(f, in->type, "atomicrmw") ||
        !dxil_front_group_shared_address(f, in->operands[0], &memory, &src[0]) ||
        !dxil_front_src(f, in->operands[1], 0, &src[1]) || !old_value_temp(f, in, &old))
        return false;
    if (in->op == RMW_SUB) {
        uint32_t negated = dxil_front_new_temp(f);
        struct sb_ir_operand dst = dxil_front_temp_dst(negated, 0x1);
        if (!dxil_front_emit(f, SB_IR_OP_INEG, &dst, 1, &src[1], 1))
            return false;
        src[1] = dxil_front_temp_src(negated, 0);
    }
    return emit_atomic(f, &binop_forms[rmw_binop[in->op]], old, memory, src, 2);
}

/* cmpxchg ptr, compare, new -> {old, success}: lane x the old value, lane y whether it
 * equalled `compare` (a D3D bool), which is what the exchange's success means. */
static bool atomic_cmpxchg(struct dxil_front *f, const struct sb_bc_instruction *in)
{
    struct sb_ir_operand memory, src[3];
    uint32_t old;
    if (in->operand_count < 3)
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_INVALID, "cmpxchg without its values");
    const struct sb_bc_type *pair = dxil_front_type(f, in->type);
    if (!pair || pair->kind != SB_BC_TYPE_STRUCT || pair->member_count != 2 ||
        !require_i32(f, pair->members[0], "cmpxchg") ||
        !dxil_front_group_shared_address(f, in->operands[0], &memory, &src[0]) ||
        !dxil_front_src(f, in->operands[1], 0, &src[1]) ||
        !dxil_front_src(f, in->operands[2], 0, &src[2]) || !old_value_temp(f, in, &old))
        return f->failed ? false : dxil_front_fail(f, SB_ERROR_TRANSLATE_INVALID, "cmpxchg result");
    if (!emit_atomic(f, &compare_form, old, memory, src, 3))
        return false;
    if (old == DXIL_FRONT_NONE)
        return true;
    struct sb_ir_operand dst = dxil_front_temp_dst(old, 0x2);
    struct sb_ir_operand test[2] = { dxil_front_temp_src(old, 0), src[1] };
    return dxil_front_emit(f, SB_IR_OP_IEQ, &dst, 1, test, 2) != NULL;
}

bool dxil_front_atomic_instruction(struct dxil_front *f, const struct sb_bc_instruction *in)
{
    return in->opcode == SB_BC_OP_CMPXCHG ? atomic_cmpxchg(f, in) : atomic_rmw(f, in);
}

/* Coordinates an atomic on UAV `r` takes (IR.md "Resources: operand order"): raw 1 (byte
 * offset), structured 2 (index, byte offset), typed as many as its dimension has
 * (sm4-tokens.md §8.3: buffer, 1D 1; 2D, 1D array 2; 3D, 2D array 3). */
static uint32_t address_lanes(const struct sb_ir_resource *r)
{
    static const uint8_t typed_lanes[11] = { 0, 1, 1, 2, 0, 3, 0, 2, 3, 0, 0 };
    if (r->kind == SB_IR_RESOURCE_KIND_RAW)
        return 1;
    if (r->kind == SB_IR_RESOURCE_KIND_STRUCTURED)
        return 2;
    return r->dimension < 11 ? typed_lanes[r->dimension] : 0;
}

/* The address of a UAV atomic from dx.op arguments first.. (offset0, offset1, offset2). */
static bool uav_address(struct dxil_front *f, const struct sb_bc_instruction *in, uint32_t first,
                        const struct sb_ir_resource *r, struct sb_ir_operand *address)
{
    if (r->resource_class != SB_IR_RESOURCE_UAV)
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_INVALID, "an atomic on a read-only resource");
    if (!dxil_front_refuse_narrow_structured(f, r, "an atomic"))
        return false;
    uint32_t lanes = address_lanes(r), value = 0;
    if (lanes == 0)
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_UNSUPPORTED,
                               "an atomic on a UAV of dimension %u", r->dimension);
    if (lanes == 1)
        return dxil_front_arg(f, in, first, &value) && dxil_front_src(f, value, 0, address);
    uint32_t temp = dxil_front_new_temp(f);
    for (uint32_t lane = 0; lane < lanes; lane++) {
        struct sb_ir_operand src, dst = dxil_front_temp_dst(temp, (uint8_t)(1u << lane));
        if (!dxil_front_arg(f, in, first + lane, &value) || !dxil_front_src(f, value, 0, &src) ||
            !dxil_front_emit(f, SB_IR_OP_MOV, &dst, 1, &src, 1))
            return false;
    }
    *address = dxil_front_temp_src(temp, 0);
    for (unsigned i = 0; i < 4; i++)
        address->swizzle[i] = (uint8_t)i;
    return true;
}

/* atomicBinOp(handle, atomicOp, offset0, offset1, offset2, newValue). */
static bool atomic_bin_op(struct dxil_front *f, const struct sb_bc_instruction *in)
{
    const struct sb_ir_resource *r = NULL;
    struct sb_ir_operand src[2];
    uint64_t op = 0;
    uint32_t value = 0, old;
    struct sb_ir_operand memory;
    if (dxil_front_is_wide_type(f, in->type))
        return dxil_front_atomic64(f, in, false);
    if (!require_i32(f, in->type, "atomicBinOp") ||
        !dxil_front_handle_operand(f, in, 1, &r, &memory) || !dxil_front_const_arg(f, in, 2, &op))
        return false;
    if (op >= ATOMIC_BINOP_COUNT)
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_INVALID, "atomicBinOp operation %llu",
                               (unsigned long long)op);
    if (!uav_address(f, in, 3, r, &src[0]) || !dxil_front_arg(f, in, 6, &value) ||
        !dxil_front_src(f, value, 0, &src[1]) || !old_value_temp(f, in, &old))
        return false;
    memory.mask = 0x1;
    return emit_atomic(f, &binop_forms[op], old, memory, src, 2);
}

/* atomicCompareExchange(handle, offset0, offset1, offset2, compareValue, newValue). */
static bool atomic_compare_exchange(struct dxil_front *f, const struct sb_bc_instruction *in)
{
    const struct sb_ir_resource *r = NULL;
    struct sb_ir_operand src[3], memory;
    uint32_t compare = 0, value = 0, old;
    if (dxil_front_is_wide_type(f, in->type))
        return dxil_front_atomic64(f, in, true);
    if (!require_i32(f, in->type, "atomicCompareExchange") ||
        !dxil_front_handle_operand(f, in, 1, &r, &memory) || !uav_address(f, in, 2, r, &src[0]) ||
        !dxil_front_arg(f, in, 5, &compare) || !dxil_front_src(f, compare, 0, &src[1]) ||
        !dxil_front_arg(f, in, 6, &value) || !dxil_front_src(f, value, 0, &src[2]) ||
        !old_value_temp(f, in, &old))
        return false;
    memory.mask = 0x1;
    return emit_atomic(f, &compare_form, old, memory, src, 3);
}

/* A SYNC with SM4's flags (SB_SM4_SYNC_*). */
static bool emit_sync(struct dxil_front *f, uint32_t flags)
{
    struct sb_ir_instruction *sync = dxil_front_emit(f, SB_IR_OP_SYNC, NULL, 0, NULL, 0);
    if (sync)
        sync->sync_flags = flags;
    return sync != NULL;
}

/* barrier(mode): BarrierMode bits (§3.4) 1 SyncThreadGroup, 2 UAVFenceGlobal,
 * 4 UAVFenceThreadGroup, 8 TGSMFence -> SM4's sync flags. */
static bool barrier(struct dxil_front *f, const struct sb_bc_instruction *in)
{
    static const uint32_t sync_of_bit[4] = { SB_SM4_SYNC_THREADS_IN_GROUP,
                                             SB_SM4_SYNC_UAV_GLOBAL, SB_SM4_SYNC_UAV_GROUP,
                                             SB_SM4_SYNC_GROUP_SHARED_MEMORY };
    uint64_t mode = 0;
    if (!dxil_front_const_arg(f, in, 1, &mode))
        return false;
    if (mode == 0 || mode > 0xF)
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_INVALID, "barrier mode 0x%llx",
                               (unsigned long long)mode);
    uint32_t flags = 0;
    for (unsigned bit = 0; bit < 4; bit++)
        if (mode & (1u << bit))
            flags |= sync_of_bit[bit];
    return emit_sync(f, flags);
}

/*
 * SM 6.8's barrierByMemoryType(memory, semantics) and barrierByMemoryHandle(UAV, semantics)
 * as the same SYNC: a group sync (semantic bit 1) waits for the group; UAV memory (memory
 * bit 1, or any UAV handle: a fence on all UAVs covers the one named) is fenced at device
 * scope, or at group scope when only the group scope (bit 2) is asked; groupshared memory
 * (bit 2) is the group's. Node records (memory bits 4, 8) and the reorder scope (semantic
 * bit 8) belong to work graphs and shader execution reordering, which are not translated.
 */
static bool barrier_by(struct dxil_front *f, const struct sb_bc_instruction *in, bool by_handle)
{
    enum { MEMORY_UAV = 1, MEMORY_GROUP_SHARED = 2, MEMORY_NODES = 0xC };
    enum { GROUP_SYNC = 1, GROUP_SCOPE = 2, DEVICE_SCOPE = 4, REORDER_SCOPE = 8 };
    uint64_t memory = MEMORY_UAV, semantics = 0;
    if ((!by_handle && !dxil_front_const_arg(f, in, 1, &memory)) ||
        !dxil_front_const_arg(f, in, 2, &semantics))
        return false;
    if (memory > 0xF || semantics > 0xF)
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_INVALID, "barrier flags 0x%llx / 0x%llx",
                               (unsigned long long)memory, (unsigned long long)semantics);
    if ((memory & MEMORY_NODES) || (semantics & REORDER_SCOPE))
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_UNSUPPORTED,
                               "a barrier on node records or at reorder scope (work graphs and "
                               "shader execution reordering are not translated)");
    uint32_t flags = 0;
    if (semantics & GROUP_SYNC)
        flags |= SB_SM4_SYNC_THREADS_IN_GROUP;
    if (memory & MEMORY_UAV)
        flags |= (semantics & (GROUP_SCOPE | DEVICE_SCOPE)) == GROUP_SCOPE ? SB_SM4_SYNC_UAV_GROUP
                                                                           : SB_SM4_SYNC_UAV_GLOBAL;
    if (memory & MEMORY_GROUP_SHARED)
        flags |= SB_SM4_SYNC_GROUP_SHARED_MEMORY;
    return !flags || emit_sync(f, flags); /* no flags: nothing to wait for nor to fence */
}

bool dxil_front_is_atomic_or_barrier(uint64_t opcode)
{
    return opcode == SB_DXIL_OP_ATOMIC_BIN_OP || opcode == SB_DXIL_OP_ATOMIC_COMPARE_EXCHANGE ||
           opcode == SB_DXIL_OP_BARRIER || opcode == SB_DXIL_OP_BARRIER_BY_MEMORY_TYPE ||
           opcode == SB_DXIL_OP_BARRIER_BY_MEMORY_HANDLE;
}

bool dxil_front_atomic_or_barrier(struct dxil_front *f, const struct sb_bc_instruction *in,
                                  uint64_t opcode)
{
    switch (opcode) {
    case SB_DXIL_OP_ATOMIC_BIN_OP: return atomic_bin_op(f, in);
    case SB_DXIL_OP_ATOMIC_COMPARE_EXCHANGE: return atomic_compare_exchange(f, in);
    case SB_DXIL_OP_BARRIER: return barrier(f, in);
    case SB_DXIL_OP_BARRIER_BY_MEMORY_TYPE: return barrier_by(f, in, false);
    case SB_DXIL_OP_BARRIER_BY_MEMORY_HANDLE: return barrier_by(f, in, true);
    default:
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_INVALID, "dx.op %llu is no atomic or barrier",
                               (unsigned long long)opcode);
    }
}
