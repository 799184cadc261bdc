/* SPDX-License-Identifier: MIT */
/*
 * SM 6.6 64-bit atomics on UAVs: atomicBinOp.i64 and atomicCompareExchange.i64
 * (../shared/docs/dxil.md §3.6 "Atomics on resources"; InterlockedAdd and friends on a
 * RWByteAddressBuffer / RWStructuredBuffer<uint64_t>). SM4 has no 64-bit atomic, so each
 * becomes one of the IR's imm_atomic64_* ops (IR.md §Resources): dst[0] the old value as a
 * lane pair (x low, y high: ir_from_dxil_wide.c) or the null register when the program never
 * reads it, dst[1] the u#, src[0] the address (raw: byte offset; structured: index, byte
 * offset in x, y), then the 64-bit compare value (exchange only) and the 64-bit value.
 *
 * Refused: typed UAVs (RWBuffer<uint64_t>, RWTexture*<uint64_t>: 64-bit texels, an R64 image
 * and VK_EXT_shader_image_atomic_int64), structured buffers whose stride leaves elements off
 * 8-byte boundaries (a 64-bit atomic needs 8-byte alignment), and narrow structured buffers
 * (ir_from_dxil_narrow_structured.c).
 */
#include <string.h>

#include "ir_from_dxil_private.h"

/* By DXIL AtomicBinOpCode (§3.4): 0 Add, 1 And, 2 Or, 3 Xor, 4 IMin, 5 IMax, 6 UMin,
 * 7 UMax, 8 Exchange. */
static const uint32_t binop_ops[] = {
    SB_IR_OP_IMM_ATOMIC64_IADD, SB_IR_OP_IMM_ATOMIC64_AND,  SB_IR_OP_IMM_ATOMIC64_OR,
    SB_IR_OP_IMM_ATOMIC64_XOR,  SB_IR_OP_IMM_ATOMIC64_IMIN, SB_IR_OP_IMM_ATOMIC64_IMAX,
    SB_IR_OP_IMM_ATOMIC64_UMIN, SB_IR_OP_IMM_ATOMIC64_UMAX, SB_IR_OP_IMM_ATOMIC64_EXCH,
};

/* The u# and element address of the atomic whose handle is argument 1 and whose offsets
 * start at argument `first`. */
static bool uav_and_address(struct dxil_front *f, const struct sb_bc_instruction *in,
                            uint32_t first, struct sb_ir_operand *memory,
                            struct sb_ir_operand *address)
{
    const struct sb_ir_resource *r = NULL;
    if (!dxil_front_handle_operand(f, in, 1, &r, memory))
        return false;
    if (r->resource_class != SB_IR_RESOURCE_UAV)
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_INVALID, "an atomic on a read-only resource");
    if (r->kind != SB_IR_RESOURCE_KIND_RAW && r->kind != SB_IR_RESOURCE_KIND_STRUCTURED)
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_UNSUPPORTED,
                               "a 64-bit atomic on a typed UAV (64-bit texels are not translated)");
    if (!dxil_front_refuse_narrow_structured(f, r, "a 64-bit atomic"))
        return false;
    bool structured = r->kind == SB_IR_RESOURCE_KIND_STRUCTURED;
    if (structured && r->stride % 8 != 0)
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_UNSUPPORTED,
                               "a 64-bit atomic on a structured buffer of stride %u (not a "
                               "multiple of 8)", r->stride);
    memory->mask = 0x3;
    uint32_t value = 0;
    if (!structured)
        return dxil_front_arg(f, in, first, &value) && dxil_front_src(f, value, 0, address);
    uint32_t temp = dxil_front_new_temp(f);
    for (uint32_t lane = 0; lane < 2; lane++) {
        struct sb_ir_operand src;
        if (!dxil_front_arg(f, in, first + lane, &value) || !dxil_front_src(f, value, 0, &src) ||
            !dxil_front_emit1(f, SB_IR_OP_MOV, dxil_front_temp_dst(temp, (uint8_t)(1u << lane)),
                              &src, 1))
            return false;
    }
    *address = dxil_front_temp_src(temp, 0);
    address->swizzle[1] = 1;
    return true;
}

/* Emits `op` with the old value in the call's temp (lanes x, y) when anything reads it,
 * else in the null register. */
static bool emit(struct dxil_front *f, const struct sb_bc_instruction *in, uint32_t op,
                 struct sb_ir_operand memory, const struct sb_ir_operand *src, uint32_t count)
{
    struct sb_ir_operand dst[2];
    memset(&dst[0], 0, sizeof(dst[0]));
    dst[0].file = SB_IR_FILE_NULL;
    if (in->value != SB_BC_NONE && dxil_front_value_used(f, in->value)) {
        uint32_t old = dxil_front_value_temp(f, in->value);
        if (old == DXIL_FRONT_NONE)
            return false;
        dst[0] = dxil_front_temp_dst(old, 0x3);
    } else if (f->failed) {
        return false;
    }
    dst[1] = memory;
    return dxil_front_emit(f, op, dst, 2, src, count) != NULL;
}

/* atomicBinOp.i64(handle, atomicOp, offset0, offset1, offset2, newValue). */
static bool bin_op(struct dxil_front *f, const struct sb_bc_instruction *in)
{
    uint64_t code = 0;
    uint32_t value = 0;
    struct sb_ir_operand memory, src[2];
    if (!dxil_front_const_arg(f, in, 2, &code))
        return false;
    if (code >= sizeof(binop_ops) / sizeof(binop_ops[0]))
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_INVALID, "atomicBinOp operation %llu",
                               (unsigned long long)code);
    if (!uav_and_address(f, in, 3, &memory, &src[0]) || !dxil_front_arg(f, in, 6, &value) ||
        !dxil_front_src64(f, value, &src[1]))
        return false;
    return emit(f, in, binop_ops[code], memory, src, 2);
}

/* atomicCompareExchange.i64(handle, offset0, offset1, offset2, compareValue, newValue). */
static bool compare_exchange(struct dxil_front *f, const struct sb_bc_instruction *in)
{
    uint32_t compare = 0, value = 0;
    struct sb_ir_operand memory, src[3];
    if (!uav_and_address(f, in, 2, &memory, &src[0]) || !dxil_front_arg(f, in, 5, &compare) ||
        !dxil_front_src64(f, compare, &src[1]) || !dxil_front_arg(f, in, 6, &value) ||
        !dxil_front_src64(f, value, &src[2]))
        return false;
    return emit(f, in, SB_IR_OP_IMM_ATOMIC64_CMP_EXCH, memory, src, 3);
}

bool dxil_front_atomic64(struct dxil_front *f, const struct sb_bc_instruction *in, bool compare)
{
    const struct sb_bc_type *t = dxil_front_type(f, in->type);
    if (!t || t->kind != SB_BC_TYPE_INTEGER || t->width != 64)
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_INVALID, "a 64-bit atomic of a non-i64 type");
    return compare ? compare_exchange(f, in) : bin_op(f, in);
}
