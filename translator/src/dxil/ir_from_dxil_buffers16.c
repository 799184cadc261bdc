/* SPDX-License-Identifier: MIT */
/*
 * 16-bit elements of raw buffers (SM 6.2 native 16-bit types, dxil.md §7.5-§7.6):
 * rawBufferLoad / bufferLoad and rawBufferStore / bufferStore of .i16/.f16 on a
 * ByteAddressBuffer. The IR addresses raw buffers in whole words (offsets are
 * multiples of 4), so:
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
 * Structured and typed buffers with 16-bit elements and 64-bit elements stay with
 * ir_from_dxil_buffers.c, which refuses them (a structured element may start 2 bytes into
 * a word at any index; a 64-bit element would make a ResRet of lane pairs).
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

/* The raw buffer of argument 1 and the byte offset of argument 2. */
static bool raw_target(struct dxil_front *f, const struct sb_bc_instruction *in,
                       const struct sb_ir_resource **r, struct sb_ir_operand *offset)
{
    uint32_t value = 0;
    if (!dxil_front_handle_resource(f, in, 1, r) || !dxil_front_arg(f, in, 2, &value) ||
        !dxil_front_src(f, value, 0, offset))
        return false;
    if ((*r)->kind != SB_IR_RESOURCE_KIND_RAW)
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_UNSUPPORTED,
                               "16-bit elements of a typed or structured buffer");
    return true;
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
    const struct sb_ir_resource *r = NULL;
    struct sb_ir_operand offset, base, odd;
    uint64_t mask = 0;
    uint32_t n = 0, temp = 0;
    if (!raw_target(f, in, &r, &offset) || !dxil_front_const_arg(f, in, 4, &mask) ||
        !element_count(f, mask, &n) || !dxil_front_result_temp(f, in, 4, &temp))
        return false;
    /* words holding bytes offset .. offset + 2n - 1, from the word the offset is in */
    uint32_t words = (2 * n + 5) / 4;
    struct sb_ir_operand at[2] = { offset, dxil_front_imm(~3u) };
    struct sb_ir_operand two[2] = { offset, dxil_front_imm(2) };
    uint32_t loaded = dxil_front_new_temp(f);
    if (!dxil_front_emit1(f, SB_IR_OP_AND, dxil_front_fresh(f, &base), at, 2) ||
        !dxil_front_emit1(f, SB_IR_OP_AND, dxil_front_fresh(f, &odd), two, 2))
        return false;
    struct sb_ir_operand ld_src[2] = { base, dxil_front_resource_operand(r) };
    if (!dxil_front_emit1(f, SB_IR_OP_LD_RAW, dxil_front_temp_dst(loaded, (uint8_t)((1u << words) - 1)), ld_src, 2))
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
    const struct sb_ir_resource *r = NULL;
    struct sb_ir_operand offset;
    uint64_t mask = 0;
    uint32_t n = 0;
    if (!raw_target(f, in, &r, &offset) || !dxil_front_const_arg(f, in, 8, &mask) ||
        !element_count(f, mask, &n))
        return false;
    if (r->resource_class != SB_IR_RESOURCE_UAV)
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_INVALID, "a store to a read-only buffer");
    struct sb_ir_operand target = dxil_front_resource_operand(r);
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
        struct sb_ir_operand clear[2] = { word, keep }, set[2] = { word, placed };
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
    if (dxil_front_buffer_element_bits(f, in, load) != 16 || in->operand_count < 3 ||
        !dxil_front_const_int(f, in->operands[1], &opcode) ||
        opcode != (load ? SB_DXIL_OP_RAW_BUFFER_LOAD : SB_DXIL_OP_RAW_BUFFER_STORE))
        return false;
    handle = in->operands[2];
    const struct sb_bc_function *fn = f->function;
    if (handle < fn->first_value || handle - fn->first_value >= fn->value_count)
        return false;
    uint32_t resource = f->value_resource[handle - fn->first_value];
    return resource != DXIL_FRONT_NONE && resource < f->program->resource_count &&
           f->program->resources[resource].kind == SB_IR_RESOURCE_KIND_RAW;
}

bool dxil_front_buffer_narrow(struct dxil_front *f, const struct sb_bc_instruction *in, bool load)
{
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
