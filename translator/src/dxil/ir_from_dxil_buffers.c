/* SPDX-License-Identifier: MIT */
/*
 * Operations on buffers (../shared/docs/dxil.md §3, §3.5, §5):
 * cbufferLoadLegacy, the buffer loads and stores, the UAV counter. Each
 * becomes the SM4 instruction fxc writes for the same HLSL: on a raw buffer
 * ld_raw / store_raw (byte offset), on a structured buffer ld_structured /
 * store_structured (index, byte offset in the element), on a typed buffer
 * ld (t#) or ld_uav_typed (u#) / store_uav_typed (element index);
 * IncrementCounter/DecrementCounter are imm_atomic_alloc/_consume.
 */
#include "ir_from_dxil_private.h"
#include "translator/dxil_opcodes.h"
#include "translator/dxil_ops.h"

/* cbufferLoadLegacy(handle, row): the 16-byte row as four lanes. */
bool dxil_front_cbuffer_load_legacy(struct dxil_front *f, const struct sb_bc_instruction *in)
{
    const struct sb_ir_resource *r = NULL;
    struct sb_ir_operand src;
    uint32_t row = 0, temp = 0;
    /* 16- and 64-bit rows keep their words as they are (ir_from_dxil_cbuf.c) */
    bool packed = dxil_front_cbufret_packed(f, in->type);
    if (!dxil_front_handle_operand(f, in, 1, &r, &src) || !dxil_front_arg(f, in, 2, &row) ||
        !(packed ? dxil_front_cbufret_packed_temp(f, in, &temp)
                 : dxil_front_result_temp(f, in, 4, &temp)))
        return false;
    if (r->resource_class != SB_IR_RESOURCE_CBV)
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_INVALID, "cbufferLoadLegacy on a non-CBV");
    /* The row follows the register (SM5.0 cb#[row]) or range and element (SM5.1). */
    struct sb_ir_index *vector = &src.index[src.index_count++];
    uint64_t constant_row;
    if (dxil_front_const_int(f, row, &constant_row)) {
        vector->offset = (uint32_t)constant_row;
    } else {
        struct sb_ir_operand *relative = dxil_front_alloc(f, 1, sizeof(*relative));
        if (!relative || !dxil_front_src(f, row, 0, relative))
            return false;
        vector->relative = relative;
    }
    struct sb_ir_operand dst = dxil_front_temp_dst(temp, 0xF);
    return dxil_front_emit(f, SB_IR_OP_MOV, &dst, 1, &src, 1) != NULL;
}

/* A temp whose lanes 0..count-1 hold arguments first.. and whose other lanes hold 0. */
bool dxil_front_gather_args(struct dxil_front *f, const struct sb_bc_instruction *in,
                            uint32_t first, uint32_t count, uint32_t *temp)
{
    *temp = dxil_front_new_temp(f);
    for (uint32_t lane = 0; lane < count; lane++) {
        uint32_t value = 0;
        struct sb_ir_operand src;
        if (!dxil_front_arg(f, in, first + lane, &value) || !dxil_front_src(f, value, 0, &src))
            return false;
        struct sb_ir_operand dst = dxil_front_temp_dst(*temp, (uint8_t)(1u << lane));
        if (!dxil_front_emit(f, SB_IR_OP_MOV, &dst, 1, &src, 1))
            return false;
    }
    if (count >= 4)
        return true;
    struct sb_ir_operand dst = dxil_front_temp_dst(*temp, (uint8_t)(0xF & ~((1u << count) - 1)));
    struct sb_ir_operand zero = dxil_front_imm(0);
    return dxil_front_emit(f, SB_IR_OP_MOV, &dst, 1, &zero, 1) != NULL;
}

/* The SRV or UAV buffer a load or store names (raw, structured or a typed buffer) and its
 * operand (an element of a range included). */
static bool buffer_view(struct dxil_front *f, const struct sb_bc_instruction *in, const char *what,
                        const struct sb_ir_resource **r, struct sb_ir_operand *operand)
{
    if (!dxil_front_handle_operand(f, in, 1, r, operand))
        return false;
    if ((*r)->resource_class != SB_IR_RESOURCE_UAV && (*r)->resource_class != SB_IR_RESOURCE_SRV)
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_INVALID, "%s on a cbuffer or sampler", what);
    if ((*r)->kind == SB_IR_RESOURCE_KIND_TYPED && (*r)->dimension != 1)
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_INVALID, "%s on a texture", what);
    return true;
}

/* Stores: bufferStore(handle, c0, c1, v0..v3, mask) and rawBufferStore(handle, c0, c1,
 * v0..v3, mask, alignment); c0 is the byte offset (raw), the element index (structured,
 * typed), c1 the byte offset in the element (structured; undef otherwise). Raw and
 * structured masks must be x, xy, xyz or xyzw: the IR writes the mask's lanes from the
 * value's in order. A typed store writes the whole texel, as store_uav_typed does; the
 * lanes the mask leaves out (undef in DXIL, past the format's components) are given 0. */
bool dxil_front_buffer_store(struct dxil_front *f, const struct sb_bc_instruction *in)
{
    const struct sb_ir_resource *r = NULL;
    struct sb_ir_operand dst, src[3];
    uint32_t index = 0, element_offset = 0, value0 = 0, value_temp = 0;
    uint64_t mask = 0;
    if (dxil_front_buffer16_claims(f, in, false)) /* ir_from_dxil_buffers16.c */
        return dxil_front_buffer_narrow(f, in, false);
    if (dxil_front_buffer64_claims(f, in, false)) /* ir_from_dxil_buffers64.c */
        return dxil_front_buffer_wide(f, in, false);
    if (!buffer_view(f, in, "a buffer store", &r, &dst) || !dxil_front_arg(f, in, 2, &index) ||
        !dxil_front_arg(f, in, 3, &element_offset) || !dxil_front_arg(f, in, 4, &value0) ||
        !dxil_front_const_arg(f, in, 8, &mask))
        return false;
    const struct sb_bc_value *v = sb_bc_value_get(f->module, f->function, value0);
    if (!v || !dxil_front_overload_32(f, v->type, "a buffer store"))
        return false;
    if (r->resource_class != SB_IR_RESOURCE_UAV)
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_INVALID, "a store to a read-only buffer");
    bool typed = r->kind == SB_IR_RESOURCE_KIND_TYPED;
    if (mask != 1 && mask != 3 && mask != 7 && mask != 15)
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_UNSUPPORTED, "store write mask 0x%llx",
                               (unsigned long long)mask);
    uint32_t lanes = mask == 1 ? 1 : mask == 3 ? 2 : mask == 7 ? 3 : 4;
    /* One lane into a raw or structured buffer (most stores) takes the value's own
     * operand, its lane in every slot: no register gathered and zero-filled for it. */
    struct sb_ir_operand value;
    if (lanes == 1 && !typed) {
        if (!dxil_front_src(f, value0, 0, &value))
            return false;
    } else {
        if (!dxil_front_gather_args(f, in, 4, lanes, &value_temp))
            return false;
        value = dxil_front_temp_src(value_temp, 0);
        for (unsigned i = 0; i < 4; i++)
            value.swizzle[i] = (uint8_t)i;
    }
    dst.mask = typed ? 0xF : (uint8_t)mask;
    if (!dxil_front_src(f, index, 0, &src[0]))
        return false;
    uint32_t n = 1, op = typed ? SB_IR_OP_STORE_UAV_TYPED : SB_IR_OP_STORE_RAW;
    if (r->kind == SB_IR_RESOURCE_KIND_STRUCTURED) {
        op = SB_IR_OP_STORE_STRUCTURED;
        if (!dxil_front_src(f, element_offset, 0, &src[n++]))
            return false;
    }
    src[n] = value;
    return dxil_front_emit(f, op, &dst, 1, src, n + 1) != NULL;
}

/* Loads: bufferLoad(handle, c0, c1) / rawBufferLoad(handle, c0, c1, mask, alignment), the
 * coordinates as for the stores; the ResRet gets the members the body extracts. */
bool dxil_front_buffer_load(struct dxil_front *f, const struct sb_bc_instruction *in)
{
    const struct sb_ir_resource *r = NULL;
    uint32_t index = 0, element_offset = 0, dst_count = 0;
    struct sb_ir_operand dst[2], src[3], view;
    if (dxil_front_buffer16_claims(f, in, true))
        return dxil_front_buffer_narrow(f, in, true);
    if (dxil_front_buffer64_claims(f, in, true))
        return dxil_front_buffer_wide(f, in, true);
    if (!buffer_view(f, in, "a buffer load", &r, &view) || !dxil_front_arg(f, in, 2, &index) ||
        !dxil_front_arg(f, in, 3, &element_offset) ||
        !dxil_front_resret_dst(f, in, "a buffer load", dst, &dst_count) ||
        !dxil_front_src(f, index, 0, &src[0]))
        return false;
    uint32_t n = 1, op = SB_IR_OP_LD_RAW;
    if (r->kind == SB_IR_RESOURCE_KIND_STRUCTURED) {
        op = SB_IR_OP_LD_STRUCTURED;
        if (!dxil_front_src(f, element_offset, 0, &src[n++]))
            return false;
    } else if (r->kind == SB_IR_RESOURCE_KIND_TYPED) {
        /* The element index in every address lane: a buffer has no mip level. */
        op = r->resource_class == SB_IR_RESOURCE_UAV ? SB_IR_OP_LD_UAV_TYPED : SB_IR_OP_LD;
    }
    src[n++] = view;
    return dxil_front_emit(f, op, dst, dst_count, src, n) != NULL;
}

/* bufferUpdateCounter(uav, inc): inc 1 -> imm_atomic_alloc (the value before the
 * increment), -1 -> imm_atomic_consume (the value after the decrement), as D3D's
 * IncrementCounter / DecrementCounter. On an element of a UAV range (or a heap view) the
 * operand indexes the range: the back end keeps one counter per descriptor, indexed alike. */
bool dxil_front_buffer_update_counter(struct dxil_front *f, const struct sb_bc_instruction *in)
{
    const struct sb_ir_resource *r = NULL;
    struct sb_ir_operand uav;
    uint64_t inc = 0;
    uint32_t temp = 0;
    if (!dxil_front_handle_operand(f, in, 1, &r, &uav) || !dxil_front_const_arg(f, in, 2, &inc) ||
        !dxil_front_result_temp(f, in, 1, &temp))
        return false;
    if (r->resource_class != SB_IR_RESOURCE_UAV || !r->has_counter)
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_INVALID,
                               "bufferUpdateCounter on a resource without a counter");
    uint8_t step = (uint8_t)inc;
    if (step != 1 && step != 0xFF)
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_INVALID, "bufferUpdateCounter by %d",
                               (int)(int8_t)step);
    struct sb_ir_operand dst[2] = { dxil_front_temp_dst(temp, 0x1), uav };
    dst[1].mask = 0x1;
    uint32_t op = step == 1 ? SB_IR_OP_IMM_ATOMIC_ALLOC : SB_IR_OP_IMM_ATOMIC_CONSUME;
    return dxil_front_emit(f, op, dst, 2, NULL, 0) != NULL;
}
