/* SPDX-License-Identifier: MIT */
/*
 * 16-bit elements of raw and structured buffers (SM 6.2 native 16-bit types, dxil.md
 * §7.5-§7.6): rawBufferLoad and rawBufferStore of .i16/.f16 on a ByteAddressBuffer or a
 * StructuredBuffer. The IR addresses both in whole words (byte offsets are multiples of
 * 4; a structured stride is a multiple of 4), so:
 *
 * - a load reads the words that hold the elements (from the offset rounded down
 *   to 4) and takes each 16-bit element out of its word with UBFE; whether the
 *   offset is 2 bytes into a word is known only at run time, so both candidate
 *   elements are extracted and MOVC picks one. Halves become their f32 value
 *   (F16TOF32), i16 values stay zero-extended (ir_from_dxil_wide.c's forms).
 * - a store writes each element with two atomics on its word: AND with the
 *   other half's mask, then OR of the element shifted into place. A plain
 *   read-modify-write of the word would race with a thread writing the word's
 *   other half (D3D requires 16-bit stores to leave neighbouring bytes alone);
 *   the atomics never disturb the other half. Limit: a thread reading the same
 *   element while it is stored may see it as 0 between the two atomics (a race
 *   on one element, which D3D leaves undefined anyway).
 *
 * Typed buffers with 16-bit elements, bufferLoad/bufferStore and 64-bit elements stay with
 * ir_from_dxil_buffers.c, which refuses them (a 64-bit element would make a ResRet of lane
 * pairs).
 */
#include "ir_from_dxil_private.h"
#include "translator/dxil_opcodes.h"

uint32_t dxil_front_buffer_element_bits(struct dxil_front *f, const struct sb_bc_instruction *in,
                                        bool load)
{
    uint32_t type = SB_BC_NONE;
    if (load) {
        const struct sb_bc_type *t = dxil_front_type(f, in->type);
        type = t && t->kind == SB_BC_TYPE_STRUCT && t->member_count ? t->members[0] : SB_BC_NONE;
    } else if (in->operand_count > 5) { /* value0, after callee, opcode, handle, offset, index */
        const struct sb_bc_value *v = sb_bc_value_get(f->module, f->function, in->operands[5]);
        type = v ? v->type : SB_BC_NONE;
    }
    const struct sb_bc_type *t = dxil_front_type(f, type);
    if (!t)
        return 0;
    switch (t->kind) {
    case SB_BC_TYPE_INTEGER: return t->width;
    case SB_BC_TYPE_HALF: return 16;
    case SB_BC_TYPE_FLOAT: return 32;
    case SB_BC_TYPE_DOUBLE: return 64;
    default: return 0;
    }
}

/* Where the elements are: the buffer (argument 1); for a raw buffer the byte offset
 * (argument 2), for a structured one the element index (argument 2) and the byte offset in
 * the element (argument 3). IR structured strides are multiples of 4, so an element's words
 * start where the word offsets say; a DXIL structured buffer of another stride is a raw
 * buffer in the IR, addressed at byte index * stride + offset
 * (ir_from_dxil_narrow_structured.c). */
struct target {
    const struct sb_ir_resource *r;
    bool structured;
    struct sb_ir_operand index, offset;
};

static bool target_of(struct dxil_front *f, const struct sb_bc_instruction *in,
                      struct target *t)
{
    uint32_t first = 0, second = 0;
    if (!dxil_front_handle_resource(f, in, 1, &t->r) || !dxil_front_arg(f, in, 2, &first) ||
        !dxil_front_arg(f, in, 3, &second))
        return false;
    t->structured = t->r->kind == SB_IR_RESOURCE_KIND_STRUCTURED;
    if (dxil_front_narrow_stride(f, t->r)) { /* raw: byte index * stride + offset */
        struct sb_ir_operand index, offset;
        return dxil_front_src(f, first, 0, &index) && dxil_front_src(f, second, 0, &offset) &&
               dxil_front_narrow_structured_offset(f, t->r, index, offset, &t->offset);
    }
    if (!t->structured)
        return dxil_front_src(f, first, 0, &t->offset);
    return dxil_front_src(f, first, 0, &t->index) && dxil_front_src(f, second, 0, &t->offset);
}

/* The address operand of word `word` (a byte offset, multiple of 4): raw, the offset;
 * structured, (index, offset) in x, y of a temp. */
static bool word_address(struct dxil_front *f, const struct target *t, struct sb_ir_operand word,
                         struct sb_ir_operand *out)
{
    if (!t->structured) {
        *out = word;
        return true;
    }
    uint32_t temp = dxil_front_new_temp(f);
    *out = dxil_front_temp_src(temp, 0);
    out->swizzle[1] = out->swizzle[3] = 1;
    return dxil_front_emit1(f, SB_IR_OP_MOV, dxil_front_temp_dst(temp, 0x1), &t->index, 1) &&
           dxil_front_emit1(f, SB_IR_OP_MOV, dxil_front_temp_dst(temp, 0x2), &word, 1);
}

/* Elements a mask (x, xy, xyz, xyzw) names. */
static bool element_count(struct dxil_front *f, uint64_t mask, uint32_t *n)
{
    if (mask != 1 && mask != 3 && mask != 7 && mask != 15)
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_UNSUPPORTED, "16-bit element mask 0x%llx",
                               (unsigned long long)mask);
    *n = mask == 1 ? 1 : mask == 3 ? 2 : mask == 7 ? 3 : 4;
    return true;
}

static bool load16(struct dxil_front *f, const struct sb_bc_instruction *in, bool is_half)
{
    struct target t;
    struct sb_ir_operand base, odd;
    uint64_t mask = 0;
    uint32_t n = 0, temp = 0;
    if (!target_of(f, in, &t) || !dxil_front_const_arg(f, in, 4, &mask) ||
        !element_count(f, mask, &n) || !dxil_front_result_temp(f, in, 4, &temp))
        return false;
    struct sb_ir_operand offset = t.offset;
    /* words holding bytes offset .. offset + 2n - 1, from the word the offset is in */
    uint32_t words = (2 * n + 5) / 4;
    struct sb_ir_operand at[2] = { offset, dxil_front_imm(~3u) };
    struct sb_ir_operand two[2] = { offset, dxil_front_imm(2) };
    uint32_t loaded = dxil_front_new_temp(f);
    if (!dxil_front_emit1(f, SB_IR_OP_AND, dxil_front_fresh(f, &base), at, 2) ||
        !dxil_front_emit1(f, SB_IR_OP_AND, dxil_front_fresh(f, &odd), two, 2))
        return false;
    struct sb_ir_operand ld_src[3] = { base, dxil_front_resource_operand(t.r) };
    if (t.structured) { /* index, byte offset, buffer */
        ld_src[0] = t.index;
        ld_src[1] = base;
        ld_src[2] = dxil_front_resource_operand(t.r);
    }
    if (!dxil_front_emit1(f, t.structured ? SB_IR_OP_LD_STRUCTURED : SB_IR_OP_LD_RAW,
                          dxil_front_temp_dst(loaded, (uint8_t)((1u << words) - 1)), ld_src,
                          t.structured ? 3 : 2))
        return false;
    /* candidate j: the 16 bits at byte 2j from the word start; element k is candidate k
     * when the offset is word aligned, k + 1 when it is 2 bytes in */
    struct sb_ir_operand candidate[5];
    for (uint32_t j = 0; j <= n; j++) {
        struct sb_ir_operand s[3] = { dxil_front_imm(16), dxil_front_imm(16 * (j & 1)),
                                      dxil_front_temp_src(loaded, j >> 1) };
        if (!dxil_front_emit1(f, SB_IR_OP_UBFE, dxil_front_fresh(f, &candidate[j]), s, 3))
            return false;
    }
    for (uint32_t k = 0; k < n; k++) {
        struct sb_ir_operand d = dxil_front_temp_dst(temp, (uint8_t)(1u << k)), bits;
        struct sb_ir_operand pick[3] = { odd, candidate[k + 1], candidate[k] };
        if (!is_half) {
            if (!dxil_front_emit1(f, SB_IR_OP_MOVC, d, pick, 3))
                return false;
        } else if (!dxil_front_emit1(f, SB_IR_OP_MOVC, dxil_front_fresh(f, &bits), pick, 3) ||
                   !dxil_front_emit1(f, SB_IR_OP_F16TOF32, d, &bits, 1)) {
            return false;
        }
    }
    return true;
}

static bool store16(struct dxil_front *f, const struct sb_bc_instruction *in, bool is_half)
{
    struct target t;
    uint64_t mask = 0;
    uint32_t n = 0;
    if (!target_of(f, in, &t) || !dxil_front_const_arg(f, in, 8, &mask) ||
        !element_count(f, mask, &n))
        return false;
    if (t.r->resource_class != SB_IR_RESOURCE_UAV)
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_INVALID, "a store to a read-only buffer");
    struct sb_ir_operand offset = t.offset, target = dxil_front_resource_operand(t.r);
    target.mask = 0x1;
    for (uint32_t k = 0; k < n; k++) {
        uint32_t value = 0;
        struct sb_ir_operand v, bits, byte, word, shift, keep, placed, low;
        if (!dxil_front_arg(f, in, 4 + k, &value) || !dxil_front_src(f, value, 0, &v))
            return false;
        /* the element's 16 bits (a half from its f32 value; an i16 may carry more bits) */
        struct sb_ir_operand mask16[2] = { v, dxil_front_imm(0xFFFF) };
        if (is_half ? !dxil_front_emit1(f, SB_IR_OP_F32TOF16, dxil_front_fresh(f, &bits), &v, 1)
                    : !dxil_front_emit1(f, SB_IR_OP_AND, dxil_front_fresh(f, &bits), mask16, 2))
            return false;
        struct sb_ir_operand at[2] = { offset, dxil_front_imm(2 * k) };
        if (!dxil_front_emit1(f, SB_IR_OP_IADD, dxil_front_fresh(f, &byte), at, 2))
            return false;
        struct sb_ir_operand down[2] = { byte, dxil_front_imm(~3u) };
        struct sb_ir_operand in_word[2] = { byte, dxil_front_imm(2) };
        if (!dxil_front_emit1(f, SB_IR_OP_AND, dxil_front_fresh(f, &word), down, 2) ||
            !dxil_front_emit1(f, SB_IR_OP_AND, dxil_front_fresh(f, &low), in_word, 2))
            return false;
        struct sb_ir_operand to_bits[2] = { low, dxil_front_imm(3) }; /* 0 or 16 */
        if (!dxil_front_emit1(f, SB_IR_OP_ISHL, dxil_front_fresh(f, &shift), to_bits, 2))
            return false;
        struct sb_ir_operand other[2] = { dxil_front_imm(0xFFFF0000u), shift };
        struct sb_ir_operand put[2] = { bits, shift };
        if (!dxil_front_emit1(f, SB_IR_OP_USHR, dxil_front_fresh(f, &keep), other, 2) ||
            !dxil_front_emit1(f, SB_IR_OP_ISHL, dxil_front_fresh(f, &placed), put, 2))
            return false;
        /* keep = 0xFFFF0000 >> shift: the other half of the word (upper for shift 0,
         * lower for shift 16) */
        struct sb_ir_operand address;
        if (!word_address(f, &t, word, &address))
            return false;
        struct sb_ir_operand clear[2] = { address, keep }, set[2] = { address, placed };
        if (!dxil_front_emit1(f, SB_IR_OP_ATOMIC_AND, target, clear, 2) ||
            !dxil_front_emit1(f, SB_IR_OP_ATOMIC_OR, target, set, 2))
            return false;
    }
    return true;
}

bool dxil_front_buffer16_claims(struct dxil_front *f, const struct sb_bc_instruction *in,
                                bool load)
{
    uint64_t opcode = 0;
    uint32_t handle;
    if (in->operand_count < 3 || !dxil_front_const_int(f, in->operands[1], &opcode))
        return false;
    handle = in->operands[2];
    const struct sb_bc_function *fn = f->function;
    if (handle < fn->first_value || handle - fn->first_value >= fn->value_count)
        return false;
    uint32_t resource = f->value_resource[handle - fn->first_value];
    const struct sb_ir_resource *r = resource != DXIL_FRONT_NONE &&
                                             resource < f->program->resource_count
                                         ? &f->program->resources[resource] : NULL;
    /* every access to a structured buffer of a narrow stride comes here, to be refused
     * unless it is a 16-bit rawBufferLoad/Store (ir_from_dxil_narrow_structured.c) */
    if (dxil_front_narrow_stride(f, r))
        return true;
    if (dxil_front_buffer_element_bits(f, in, load) != 16 ||
        opcode != (load ? SB_DXIL_OP_RAW_BUFFER_LOAD : SB_DXIL_OP_RAW_BUFFER_STORE))
        return false;
    uint32_t kind = r ? r->kind : SB_IR_RESOURCE_KIND_TYPED;
    return kind == SB_IR_RESOURCE_KIND_RAW || kind == SB_IR_RESOURCE_KIND_STRUCTURED;
}

bool dxil_front_buffer_narrow(struct dxil_front *f, const struct sb_bc_instruction *in, bool load)
{
    const struct sb_ir_resource *r = NULL;
    uint64_t opcode = 0;
    if (!dxil_front_handle_resource(f, in, 1, &r) || !dxil_front_const_arg(f, in, 0, &opcode))
        return false;
    if (dxil_front_narrow_stride(f, r) &&
        (dxil_front_buffer_element_bits(f, in, load) != 16 ||
         opcode != (load ? SB_DXIL_OP_RAW_BUFFER_LOAD : SB_DXIL_OP_RAW_BUFFER_STORE)))
        return dxil_front_refuse_narrow_structured(f, r, load ? "a buffer load" : "a buffer store");
    const struct sb_bc_type *t = NULL;
    if (load) {
        const struct sb_bc_type *ret = dxil_front_type(f, in->type);
        t = dxil_front_type(f, ret->members[0]);
    } else {
        const struct sb_bc_value *v = sb_bc_value_get(f->module, f->function, in->operands[5]);
        t = dxil_front_type(f, v->type);
    }
    bool is_half = t->kind == SB_BC_TYPE_HALF;
    return load ? load16(f, in, is_half) : store16(f, in, is_half);
}
