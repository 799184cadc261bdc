/* SPDX-License-Identifier: MIT */
/*
 * The i16 and i64 overloads of Countbits, FirstbitLo, FirstbitHi, FirstbitSHi
 * and Bfrev (dx.op 31, 32, 33, 34, 30; HLSL countbits, firstbitlow,
 * firstbithigh, reversebits on uint16_t / uint64_t and their signed forms),
 * built from the IR's 32-bit ops of the same name. The DXIL meanings
 * (dxil.md §3.6), at the operand's own width:
 *
 * - Countbits: the set bits (an i32).
 * - FirstbitLo: the index of the lowest set bit; -1 (all ones) for 0.
 * - FirstbitHi: how far the highest set bit lies below the top bit (the SM4
 *   firstbit_hi count, from the most significant bit); -1 for 0.
 * - FirstbitSHi: the same for the highest bit that differs from the sign bit;
 *   -1 for 0 and for -1.
 * - Bfrev: the bits reversed within the width (a value of the operand's type).
 *
 * An i16 is read from the low 16 bits of its lane (zero-extended first, as a
 * constant's lane may hold it sign-extended): Countbits and FirstbitLo are then
 * the 32-bit ones, the from-the-top counts of the 32-bit ops are 16 more than
 * the 16-bit ones (FirstbitSHi after a sign extension), and a reversed i16 is
 * the top half of the reversed i32. An i64
 * takes lanes x (low) and y (high): counts add, scans look at the other word
 * when the first has no answer, and a reversal swaps the reversed words.
 */
#include "ir_from_dxil_private.h"
#include "translator/dxil_opcodes.h"

#define ALL_ONES 0xFFFFFFFFu

bool dxil_front_bits_wide_claims(uint64_t opcode, const struct sb_bc_type *argument)
{
    bool bit_op = opcode == SB_DXIL_OP_COUNTBITS || opcode == SB_DXIL_OP_FIRSTBIT_LO ||
                  opcode == SB_DXIL_OP_FIRSTBIT_HI || opcode == SB_DXIL_OP_FIRSTBIT_SHI ||
                  opcode == SB_DXIL_OP_BFREV;
    return bit_op && argument && argument->kind == SB_BC_TYPE_INTEGER &&
           (argument->width == 16 || argument->width == 64);
}

/* `op` of `count` sources into lane x of a fresh temp; *out reads it. */
static bool calc(struct dxil_front *f, uint32_t op, const struct sb_ir_operand *src, uint32_t count,
                 struct sb_ir_operand *out)
{
    return dxil_front_emit1(f, op, dxil_front_fresh(f, out), src, count);
}

static bool calc2(struct dxil_front *f, uint32_t op, struct sb_ir_operand a, struct sb_ir_operand b,
                  struct sb_ir_operand *out)
{
    struct sb_ir_operand src[2] = { a, b };
    return calc(f, op, src, 2, out);
}

static bool calc3(struct dxil_front *f, uint32_t op, struct sb_ir_operand a, struct sb_ir_operand b,
                  struct sb_ir_operand c, struct sb_ir_operand *out)
{
    struct sb_ir_operand src[3] = { a, b, c };
    return calc(f, op, src, 3, out);
}

/* Word `word` (0 low, 1 high) of a 64-bit source (a DOUBLE-slot pair or a 64-bit immediate). */
static struct sb_ir_operand word_of(struct sb_ir_operand pair, uint8_t word)
{
    uint8_t base = pair.swizzle[0];
    for (unsigned i = 0; i < 4; i++)
        pair.swizzle[i] = (uint8_t)(base + word);
    return pair;
}

/* `scan` + `offset`, or -1 where `scan` is -1 (no bit found). */
static bool offset_found(struct dxil_front *f, struct sb_ir_operand scan, uint32_t offset,
                         struct sb_ir_operand *out)
{
    struct sb_ir_operand none, moved;
    return calc2(f, SB_IR_OP_IEQ, scan, dxil_front_imm(ALL_ONES), &none) &&
           calc2(f, SB_IR_OP_IADD, scan, dxil_front_imm(offset), &moved) &&
           calc3(f, SB_IR_OP_MOVC, none, scan, moved, out);
}

/* The 32-bit result of a scan or count of the i16 in lane x of `v`. */
static bool bits16(struct dxil_front *f, uint64_t opcode, struct sb_ir_operand v,
                   struct sb_ir_operand *out)
{
    struct sb_ir_operand scan, shifted, extended;
    /* Only the low 16 bits are the value (a constant may come sign-extended). */
    if (opcode != SB_DXIL_OP_FIRSTBIT_SHI && !calc2(f, SB_IR_OP_AND, v, dxil_front_imm(0xFFFFu), &v))
        return false;
    switch (opcode) {
    case SB_DXIL_OP_COUNTBITS: return calc(f, SB_IR_OP_COUNTBITS, &v, 1, out);
    case SB_DXIL_OP_FIRSTBIT_LO: return calc(f, SB_IR_OP_FIRSTBIT_LO, &v, 1, out);
    case SB_DXIL_OP_FIRSTBIT_HI:
        return calc(f, SB_IR_OP_FIRSTBIT_HI, &v, 1, &scan) &&
               offset_found(f, scan, (uint32_t)-16, out);
    case SB_DXIL_OP_FIRSTBIT_SHI:
        return calc2(f, SB_IR_OP_ISHL, v, dxil_front_imm(16), &shifted) &&
               calc2(f, SB_IR_OP_ISHR, shifted, dxil_front_imm(16), &extended) &&
               calc(f, SB_IR_OP_FIRSTBIT_SHI, &extended, 1, &scan) &&
               offset_found(f, scan, (uint32_t)-16, out);
    default: /* Bfrev */
        return calc(f, SB_IR_OP_BFREV, &v, 1, &scan) &&
               calc2(f, SB_IR_OP_USHR, scan, dxil_front_imm(16), out);
    }
}

/* The 32-bit result of a scan or count of the i64 `v`. */
static bool bits64(struct dxil_front *f, uint64_t opcode, struct sb_ir_operand v,
                   struct sb_ir_operand *out)
{
    struct sb_ir_operand lo = word_of(v, 0), hi = word_of(v, 1);
    struct sb_ir_operand a, b, c, d;
    switch (opcode) {
    case SB_DXIL_OP_COUNTBITS:
        return calc(f, SB_IR_OP_COUNTBITS, &lo, 1, &a) && calc(f, SB_IR_OP_COUNTBITS, &hi, 1, &b) &&
               calc2(f, SB_IR_OP_IADD, a, b, out);
    case SB_DXIL_OP_FIRSTBIT_LO: /* the low word's, else 32 + the high word's (or -1) */
        return calc(f, SB_IR_OP_FIRSTBIT_LO, &lo, 1, &a) && calc(f, SB_IR_OP_FIRSTBIT_LO, &hi, 1, &b) &&
               offset_found(f, b, 32, &c) && calc2(f, SB_IR_OP_IEQ, a, dxil_front_imm(ALL_ONES), &d) &&
               calc3(f, SB_IR_OP_MOVC, d, c, a, out);
    case SB_DXIL_OP_FIRSTBIT_HI: /* the high word's, else 32 + the low word's (or -1) */
        return calc(f, SB_IR_OP_FIRSTBIT_HI, &hi, 1, &a) && calc(f, SB_IR_OP_FIRSTBIT_HI, &lo, 1, &b) &&
               offset_found(f, b, 32, &c) && calc2(f, SB_IR_OP_IEQ, a, dxil_front_imm(ALL_ONES), &d) &&
               calc3(f, SB_IR_OP_MOVC, d, c, a, out);
    default: /* FirstbitSHi: the high word's; when it is all sign bits (0 or -1, where the
              * 32-bit scan says -1), 32 + the first bit of low XOR high from the top (or -1) */
        return calc(f, SB_IR_OP_FIRSTBIT_SHI, &hi, 1, &a) && calc2(f, SB_IR_OP_XOR, lo, hi, &d) &&
               calc(f, SB_IR_OP_FIRSTBIT_HI, &d, 1, &b) && offset_found(f, b, 32, &c) &&
               calc2(f, SB_IR_OP_IEQ, a, dxil_front_imm(ALL_ONES), &d) &&
               calc3(f, SB_IR_OP_MOVC, d, c, a, out);
    }
}

bool dxil_front_bits_wide(struct dxil_front *f, const struct sb_bc_instruction *in, uint64_t opcode,
                          uint32_t width)
{
    uint32_t value = 0;
    struct sb_ir_operand v, result;
    if (!dxil_front_arg(f, in, 1, &value))
        return false;
    uint32_t temp = dxil_front_value_temp(f, in->value);
    if (temp == DXIL_FRONT_NONE)
        return false;
    if (width == 16) {
        return dxil_front_src(f, value, 0, &v) && bits16(f, opcode, v, &result) &&
               dxil_front_emit1(f, SB_IR_OP_MOV, dxil_front_temp_dst(temp, 0x1), &result, 1);
    }
    if (!dxil_front_src64(f, value, &v))
        return false;
    if (opcode != SB_DXIL_OP_BFREV)
        return bits64(f, opcode, v, &result) &&
               dxil_front_emit1(f, SB_IR_OP_MOV, dxil_front_temp_dst(temp, 0x1), &result, 1);
    /* reversed(x) = reversed(high) : reversed(low), an i64 result in lanes x and y */
    struct sb_ir_operand lo = word_of(v, 0), hi = word_of(v, 1);
    return dxil_front_emit1(f, SB_IR_OP_BFREV, dxil_front_temp_dst(temp, 0x1), &hi, 1) &&
           dxil_front_emit1(f, SB_IR_OP_BFREV, dxil_front_temp_dst(temp, 0x2), &lo, 1);
}
