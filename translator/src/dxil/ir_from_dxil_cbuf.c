/* SPDX-License-Identifier: MIT */
/*
 * Constant-buffer reads that are not four 32-bit lanes (../shared/docs/dxil.md §3.2, §3
 * opcodes 58-59, §7.5):
 *
 * - cbufferLoadLegacy with the native 16-bit overloads returns CBufRet.i16.8 / .f16.8
 *   (the 16-byte row as eight 16-bit members, member k in bits 16*(k&1) of word k/2),
 *   with the 64-bit overloads CBufRet.i64 / .f64 (two members, member k in words 2k
 *   (low) and 2k+1 (high)). Neither fits the front end's "one lane per member" rule, so
 *   the call's temp holds the row's four words as they are and each extractvalue takes
 *   its member out: UBFE for a 16-bit one (a half then becomes its f32 value, as every
 *   native half does in this front end), a lane-pair MOV for a 64-bit one.
 * - cbufferLoad (SM 6.0 non-legacy layout, dxc -not_use_legacy_cbuf_load) reads one
 *   scalar at a byte offset. The IR addresses a cbuffer by row and lane, so the row is
 *   offset >> 4 (a relative row index when the offset is only known at run time), the
 *   word (offset >> 2) & 3 (a constant lane, or two levels of MOVC over the row's
 *   lanes), and a 16-bit value the half (offset & 2) of that word. A 64-bit value is
 *   two such words, offset and offset + 4, so one at a 4-byte alignment that straddles
 *   rows reads right too.
 */
#include "ir_from_dxil_private.h"

/* Width of the members of a CBufRet this file lowers: 16 (8 members) or 64 (2 members);
 * 0 for every other type (those take one lane per member, ir_from_dxil_buffers.c). */
static uint32_t packed_member_bits(const struct dxil_front *f, uint32_t type)
{
    const struct sb_bc_type *t = dxil_front_type(f, type);
    if (!t || t->kind != SB_BC_TYPE_STRUCT || (t->member_count != 8 && t->member_count != 2))
        return 0;
    uint32_t want = t->member_count == 8 ? 16 : 64;
    for (uint32_t i = 0; i < t->member_count; i++) {
        const struct sb_bc_type *m = dxil_front_type(f, t->members[i]);
        uint32_t bits = !m ? 0
                        : m->kind == SB_BC_TYPE_INTEGER ? m->width
                        : m->kind == SB_BC_TYPE_HALF ? 16
                        : m->kind == SB_BC_TYPE_DOUBLE ? 64 : 0;
        if (bits != want)
            return 0;
    }
    return want;
}

bool dxil_front_cbufret_packed(const struct dxil_front *f, uint32_t type)
{
    return packed_member_bits(f, type) != 0;
}

/* The temp of a packed CBufRet: its four lanes receive the row's words. */
bool dxil_front_cbufret_packed_temp(struct dxil_front *f, const struct sb_bc_instruction *in,
                                    uint32_t *temp)
{
    if (packed_member_bits(f, in->type) == 16 && !dxil_front_native_16bit(f))
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_INVALID,
                               "CBufRet with eight 16-bit members without native 16-bit types");
    *temp = dxil_front_value_temp(f, in->value);
    return *temp != DXIL_FRONT_NONE;
}

/* dst = the 16 bits at bit `position` (0 or 16; an operand) of `word`, as the front end
 * holds a value of that type: a half as its f32 value, an i16 zero-extended. */
static bool take_half_word(struct dxil_front *f, bool is_half, struct sb_ir_operand dst,
                           struct sb_ir_operand position, struct sb_ir_operand word)
{
    struct sb_ir_operand s[3] = { dxil_front_imm(16), position, word }, bits;
    if (!is_half)
        return dxil_front_emit1(f, SB_IR_OP_UBFE, dst, s, 3);
    return dxil_front_emit1(f, SB_IR_OP_UBFE, dxil_front_fresh(f, &bits), s, 3) &&
           dxil_front_emit1(f, SB_IR_OP_F16TOF32, dst, &bits, 1);
}

bool dxil_front_cbufret_extract(struct dxil_front *f, const struct sb_bc_instruction *in,
                                uint32_t aggregate_type)
{
    uint32_t bits = packed_member_bits(f, aggregate_type), member = in->indices[0];
    const struct sb_bc_type *t = dxil_front_type(f, aggregate_type);
    if (member >= t->member_count)
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_INVALID,
                               "extractvalue of member %u of a %u-member CBufRet", member,
                               t->member_count);
    uint32_t temp = dxil_front_value_temp(f, in->value);
    struct sb_ir_operand row;
    if (temp == DXIL_FRONT_NONE || !dxil_front_src(f, in->operands[0], 0, &row))
        return false;
    if (bits == 64) { /* words 2k, 2k+1 -> lanes x, y */
        for (unsigned i = 0; i < 4; i++)
            row.swizzle[i] = (uint8_t)(2 * member + (i & 1));
        return dxil_front_emit1(f, SB_IR_OP_MOV, dxil_front_temp_dst(temp, 0x3), &row, 1);
    }
    for (unsigned i = 0; i < 4; i++)
        row.swizzle[i] = (uint8_t)(member >> 1);
    bool is_half = dxil_front_type(f, t->members[member])->kind == SB_BC_TYPE_HALF;
    return take_half_word(f, is_half, dxil_front_temp_dst(temp, 0x1),
                          dxil_front_imm(16 * (member & 1)), row);
}

/* The cb operand of the handle in argument 1 at row `row` (a constant, or relative to
 * lane x of `relative_row` when that is not NULL), all four lanes in order. */
static bool cbuffer_row(struct dxil_front *f, const struct sb_bc_instruction *in, uint32_t row,
                        const struct sb_ir_operand *relative_row, struct sb_ir_operand *out)
{
    const struct sb_ir_resource *r = NULL;
    if (!dxil_front_handle_operand(f, in, 1, &r, out))
        return false;
    if (r->resource_class != SB_IR_RESOURCE_CBV)
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_INVALID, "cbufferLoad on a non-CBV");
    struct sb_ir_index *index = &out->index[out->index_count++];
    index->offset = row;
    if (relative_row) {
        struct sb_ir_operand *relative = dxil_front_alloc(f, 1, sizeof(*relative));
        if (!relative)
            return false;
        *relative = *relative_row;
        index->relative = relative;
    }
    return true;
}

/* A lane-x source of the 32-bit word at byte offset `constant` (when `dynamic` is NULL)
 * or at the run-time byte offset in lane x of `dynamic` (a multiple of 4 either way). */
static bool cbuffer_word(struct dxil_front *f, const struct sb_bc_instruction *in,
                         uint64_t constant, const struct sb_ir_operand *dynamic,
                         struct sb_ir_operand *out)
{
    if (!dynamic) {
        if (constant / 16 > UINT32_MAX)
            return dxil_front_fail(f, SB_ERROR_TRANSLATE_INVALID, "cbufferLoad offset %llu",
                                   (unsigned long long)constant);
        if (!cbuffer_row(f, in, (uint32_t)(constant / 16), NULL, out))
            return false;
        for (unsigned i = 0; i < 4; i++)
            out->swizzle[i] = (uint8_t)((constant >> 2) & 3);
        return true;
    }
    struct sb_ir_operand row_index, row_src, lane, even, odd, high_pair;
    struct sb_ir_operand shift[2] = { *dynamic, dxil_front_imm(4) };
    uint32_t row = dxil_front_new_temp(f);
    if (!dxil_front_emit1(f, SB_IR_OP_USHR, dxil_front_fresh(f, &row_index), shift, 2) ||
        !cbuffer_row(f, in, 0, &row_index, &row_src) ||
        !dxil_front_emit1(f, SB_IR_OP_MOV, dxil_front_temp_dst(row, 0xF), &row_src, 1))
        return false;
    /* lane = offset & 12: bit 2 picks within a pair (x/y, z/w), bit 3 the pair */
    struct sb_ir_operand bit2[2] = { *dynamic, dxil_front_imm(4) };
    struct sb_ir_operand bit3[2] = { *dynamic, dxil_front_imm(8) };
    if (!dxil_front_emit1(f, SB_IR_OP_AND, dxil_front_fresh(f, &lane), bit2, 2) ||
        !dxil_front_emit1(f, SB_IR_OP_AND, dxil_front_fresh(f, &high_pair), bit3, 2))
        return false;
    struct sb_ir_operand pick_even[3] = { lane, dxil_front_temp_src(row, 1),
                                          dxil_front_temp_src(row, 0) };
    struct sb_ir_operand pick_odd[3] = { lane, dxil_front_temp_src(row, 3),
                                         dxil_front_temp_src(row, 2) };
    if (!dxil_front_emit1(f, SB_IR_OP_MOVC, dxil_front_fresh(f, &even), pick_even, 3) ||
        !dxil_front_emit1(f, SB_IR_OP_MOVC, dxil_front_fresh(f, &odd), pick_odd, 3))
        return false;
    struct sb_ir_operand pick[3] = { high_pair, odd, even };
    return dxil_front_emit1(f, SB_IR_OP_MOVC, dxil_front_fresh(f, out), pick, 3);
}

/* cbufferLoad(handle, byteOffset, alignment) of a 16-, 32- or 64-bit scalar. */
bool dxil_front_cbuffer_load(struct dxil_front *f, const struct sb_bc_instruction *in)
{
    uint32_t offset_value = 0;
    uint64_t alignment = 0, constant = 0;
    if (!dxil_front_arg(f, in, 2, &offset_value) || !dxil_front_const_arg(f, in, 3, &alignment))
        return false;
    const struct sb_bc_type *t = dxil_front_type(f, in->type);
    uint32_t bits = !t ? 0
                    : t->kind == SB_BC_TYPE_INTEGER ? t->width
                    : t->kind == SB_BC_TYPE_HALF ? 16
                    : t->kind == SB_BC_TYPE_FLOAT ? 32
                    : t->kind == SB_BC_TYPE_DOUBLE ? 64 : 0;
    if (bits != 16 && bits != 32 && bits != 64)
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_UNSUPPORTED,
                               "cbufferLoad of a %u-bit value", bits);
    if (bits == 16 && !dxil_front_native_16bit(f))
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_UNSUPPORTED,
                               "cbufferLoad of a min-precision 16-bit value");
    /* a word read never straddles words: the offset is a multiple of min(size, 4) */
    uint64_t granule = bits == 16 ? 2 : 4;
    bool is_constant = dxil_front_const_int(f, offset_value, &constant);
    if (is_constant ? constant % granule != 0 : alignment < granule)
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_UNSUPPORTED,
                               "cbufferLoad of a %u-bit value at alignment %llu", bits,
                               (unsigned long long)(is_constant ? constant : alignment));
    uint32_t temp = dxil_front_value_temp(f, in->value);
    if (temp == DXIL_FRONT_NONE)
        return false;
    struct sb_ir_operand offset, word, word_offset;
    const struct sb_ir_operand *dynamic = NULL;
    if (!is_constant) {
        if (!dxil_front_src(f, offset_value, 0, &offset))
            return false;
        dynamic = &word_offset;
        struct sb_ir_operand down[2] = { offset, dxil_front_imm(~3u) };
        if (!dxil_front_emit1(f, SB_IR_OP_AND, dxil_front_fresh(f, &word_offset), down, 2))
            return false;
    }
    if (!cbuffer_word(f, in, constant & ~3ull, dynamic, &word))
        return false;
    if (bits == 32)
        return dxil_front_emit1(f, SB_IR_OP_MOV, dxil_front_temp_dst(temp, 0x1), &word, 1);
    if (bits == 16) {
        struct sb_ir_operand position = dxil_front_imm((uint32_t)(constant & 2) * 8);
        if (dynamic) { /* (offset & 2) << 3: 0 or 16 */
            struct sb_ir_operand half_bit[2] = { offset, dxil_front_imm(2) }, to_bits[2];
            if (!dxil_front_emit1(f, SB_IR_OP_AND, dxil_front_fresh(f, &to_bits[0]), half_bit, 2))
                return false;
            to_bits[1] = dxil_front_imm(3);
            if (!dxil_front_emit1(f, SB_IR_OP_ISHL, dxil_front_fresh(f, &position), to_bits, 2))
                return false;
        }
        return take_half_word(f, t->kind == SB_BC_TYPE_HALF, dxil_front_temp_dst(temp, 0x1),
                              position, word);
    }
    /* 64 bits: the low word, then the one 4 bytes on (possibly the next row) */
    struct sb_ir_operand high, high_offset;
    if (dynamic) {
        struct sb_ir_operand next[2] = { word_offset, dxil_front_imm(4) };
        if (!dxil_front_emit1(f, SB_IR_OP_IADD, dxil_front_fresh(f, &high_offset), next, 2))
            return false;
    }
    if (!dxil_front_emit1(f, SB_IR_OP_MOV, dxil_front_temp_dst(temp, 0x1), &word, 1) ||
        !cbuffer_word(f, in, constant + 4, dynamic ? &high_offset : NULL, &high))
        return false;
    return dxil_front_emit1(f, SB_IR_OP_MOV, dxil_front_temp_dst(temp, 0x2), &high, 1);
}
