/* SPDX-License-Identifier: MIT */
/*
 * Operations on buffers (../shared/docs/dxil.md §3, §5): cbufferLoadLegacy
 * and the buffer loads and stores. So far raw buffers.
 */
#include "ir_from_dxil_private.h"
#include "translator/dxil_opcodes.h"
#include "translator/dxil_ops.h"

/* cbufferLoadLegacy(handle, row): the 16-byte row as four lanes. */
bool dxil_front_cbuffer_load_legacy(struct dxil_front *f, const struct sb_bc_instruction *in)
{
    const struct sb_ir_resource *r = NULL;
    uint32_t row = 0, temp = 0;
    if (!dxil_front_handle_resource(f, in, 1, &r) || !dxil_front_arg(f, in, 2, &row) ||
        !dxil_front_result_temp(f, in, 4, &temp))
        return false;
    if (r->resource_class != SB_IR_RESOURCE_CBV)
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_INVALID, "cbufferLoadLegacy on a non-CBV");
    struct sb_ir_operand src = dxil_front_resource_operand(r);
    src.index_count = 2;
    uint64_t constant_row;
    if (dxil_front_const_int(f, row, &constant_row)) {
        src.index[1].offset = (uint32_t)constant_row;
    } else {
        struct sb_ir_operand *relative = dxil_front_alloc(f, 1, sizeof(*relative));
        if (!relative || !dxil_front_src(f, row, 0, relative))
            return false;
        src.index[1].relative = relative;
    }
    struct sb_ir_operand dst = dxil_front_temp_dst(temp, 0xF);
    return dxil_front_emit(f, SB_IR_OP_MOV, &dst, 1, &src, 1) != NULL;
}

static bool require_raw(struct dxil_front *f, const struct sb_ir_resource *r, const char *what)
{
    if (r->kind != SB_IR_RESOURCE_KIND_RAW ||
        (r->resource_class != SB_IR_RESOURCE_UAV && r->resource_class != SB_IR_RESOURCE_SRV))
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_UNSUPPORTED,
                               "%s on a typed or structured buffer is not translated yet", what);
    return true;
}

/* Stores of a raw buffer: bufferStore(handle, offset, undef, v0..v3, mask) and
 * rawBufferStore(handle, offset, undef, v0..v3, mask, alignment). The written lanes
 * must be x, xy, xyz or xyzw: the IR writes the mask's lanes from the value's in order. */
bool dxil_front_buffer_store(struct dxil_front *f, const struct sb_bc_instruction *in)
{
    const struct sb_ir_resource *r = NULL;
    uint32_t offset = 0;
    uint64_t mask = 0;
    if (dxil_front_buffer_element_bits(f, in, false) != 32) /* 16-bit: buffers16.c */
        return dxil_front_buffer_narrow(f, in, false);
    if (!dxil_front_handle_resource(f, in, 1, &r) || !require_raw(f, r, "a store") ||
        !dxil_front_arg(f, in, 2, &offset) || !dxil_front_const_arg(f, in, 8, &mask))
        return false;
    if (r->resource_class != SB_IR_RESOURCE_UAV)
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_INVALID, "a store to a read-only buffer");
    if (mask != 1 && mask != 3 && mask != 7 && mask != 15)
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_UNSUPPORTED, "store write mask 0x%llx",
                               (unsigned long long)mask);
    uint32_t value_temp = dxil_front_new_temp(f);
    for (uint32_t lane = 0; lane < 4; lane++) {
        uint32_t value = 0;
        struct sb_ir_operand src;
        if (!(mask & (1u << lane)))
            continue;
        if (!dxil_front_arg(f, in, 4 + lane, &value) || !dxil_front_src(f, value, 0, &src))
            return false;
        struct sb_ir_operand dst = dxil_front_temp_dst(value_temp, (uint8_t)(1u << lane));
        if (!dxil_front_emit(f, SB_IR_OP_MOV, &dst, 1, &src, 1))
            return false;
    }
    struct sb_ir_operand dst = dxil_front_resource_operand(r), src[2];
    dst.mask = (uint8_t)mask;
    if (!dxil_front_src(f, offset, 0, &src[0]))
        return false;
    src[1] = dxil_front_temp_src(value_temp, 0);
    for (unsigned i = 0; i < 4; i++)
        src[1].swizzle[i] = (uint8_t)i;
    return dxil_front_emit(f, SB_IR_OP_STORE_RAW, &dst, 1, src, 2) != NULL;
}

/* Loads of a raw buffer: bufferLoad(handle, offset, undef) / rawBufferLoad(handle,
 * offset, undef, mask, alignment) -> a ResRet whose four value lanes are read. */
bool dxil_front_buffer_load(struct dxil_front *f, const struct sb_bc_instruction *in)
{
    const struct sb_ir_resource *r = NULL;
    uint32_t offset = 0, temp = 0;
    if (dxil_front_buffer_element_bits(f, in, true) != 32)
        return dxil_front_buffer_narrow(f, in, true);
    if (!dxil_front_handle_resource(f, in, 1, &r) || !require_raw(f, r, "a load") ||
        !dxil_front_arg(f, in, 2, &offset) || !dxil_front_result_temp(f, in, 4, &temp))
        return false;
    struct sb_ir_operand dst = dxil_front_temp_dst(temp, 0xF), src[2];
    if (!dxil_front_src(f, offset, 0, &src[0]))
        return false;
    src[1] = dxil_front_resource_operand(r);
    return dxil_front_emit(f, SB_IR_OP_LD_RAW, &dst, 1, src, 2) != NULL;
}
