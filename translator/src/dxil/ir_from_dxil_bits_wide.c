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

bool dxil_front_bits_wide_claims(uint64_t opcode)
{
    return opcode == SB_DXIL_OP_COUNTBITS || opcode == SB_DXIL_OP_FIRSTBIT_LO ||
           opcode == SB_DXIL_OP_FIRSTBIT_HI || opcode == SB_DXIL_OP_FIRSTBIT_SHI ||
           opcode == SB_DXIL_OP_BFREV;
}

/* Failures are sticky (f->failed): the helpers below chain results without testing each. */
static struct sb_ir_operand op1(struct dxil_front *f, uint32_t op, struct sb_ir_operand a)
{
    return dxil_front_fresh_op(f, op, &a, 1);
}

static struct sb_ir_operand with_imm(struct dxil_front *f, uint32_t op, struct sb_ir_operand a, uint32_t imm)
{
    return dxil_front_fresh_op2(f, op, a, dxil_front_imm(imm));
}

static struct sb_ir_operand pick(struct dxil_front *f, struct sb_ir_operand cond, struct sb_ir_operand yes,
                                 struct sb_ir_operand no)
{
    struct sb_ir_operand src[3] = { cond, yes, no };
    return dxil_front_fresh_op(f, SB_IR_OP_MOVC, src, 3);
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
static struct sb_ir_operand offset_found(struct dxil_front *f, struct sb_ir_operand scan, uint32_t offset)
{
    struct sb_ir_operand none = with_imm(f, SB_IR_OP_IEQ, scan, ALL_ONES);
    struct sb_ir_operand moved = with_imm(f, SB_IR_OP_IADD, scan, offset);
    return pick(f, none, scan, moved);
}

/* The first word's scan where it found a bit, else 32 + the second word's (or -1). */
static struct sb_ir_operand first_or_second(struct dxil_front *f, struct sb_ir_operand first,
                                            struct sb_ir_operand second)
{
    struct sb_ir_operand later = offset_found(f, second, 32);
    struct sb_ir_operand none = with_imm(f, SB_IR_OP_IEQ, first, ALL_ONES);
    return pick(f, none, later, first);
}

/* The 32-bit result of a scan or count of the i16 in lane x of `v`, or its reversal. */
static struct sb_ir_operand bits16(struct dxil_front *f, uint64_t opcode, struct sb_ir_operand v)
{
    if (opcode == SB_DXIL_OP_FIRSTBIT_SHI) /* sign-extended: the top 16 bits copy the sign */
        return offset_found(f, op1(f, SB_IR_OP_FIRSTBIT_SHI,
                                   with_imm(f, SB_IR_OP_ISHR, with_imm(f, SB_IR_OP_ISHL, v, 16), 16)),
                            (uint32_t)-16);
    /* Only the low 16 bits are the value (a constant may come sign-extended). */
    struct sb_ir_operand value = with_imm(f, SB_IR_OP_AND, v, 0xFFFFu);
    switch (opcode) {
    case SB_DXIL_OP_COUNTBITS: return op1(f, SB_IR_OP_COUNTBITS, value);
    case SB_DXIL_OP_FIRSTBIT_LO: return op1(f, SB_IR_OP_FIRSTBIT_LO, value);
    case SB_DXIL_OP_FIRSTBIT_HI: return offset_found(f, op1(f, SB_IR_OP_FIRSTBIT_HI, value), (uint32_t)-16);
    default: return with_imm(f, SB_IR_OP_USHR, op1(f, SB_IR_OP_BFREV, value), 16); /* Bfrev */
    }
}

/* The 32-bit result of a scan or count of the i64 `v`. Each operand is made in its own
 * statement, so the order of the instructions does not depend on the compiler. */
static struct sb_ir_operand bits64(struct dxil_front *f, uint64_t opcode, struct sb_ir_operand v)
{
    struct sb_ir_operand lo = word_of(v, 0), hi = word_of(v, 1), a, b;
    switch (opcode) {
    case SB_DXIL_OP_COUNTBITS:
        a = op1(f, SB_IR_OP_COUNTBITS, lo);
        b = op1(f, SB_IR_OP_COUNTBITS, hi);
        return dxil_front_fresh_op2(f, SB_IR_OP_IADD, a, b);
    case SB_DXIL_OP_FIRSTBIT_LO: /* from the low word up */
        a = op1(f, SB_IR_OP_FIRSTBIT_LO, lo);
        b = op1(f, SB_IR_OP_FIRSTBIT_LO, hi);
        return first_or_second(f, a, b);
    case SB_DXIL_OP_FIRSTBIT_HI: /* from the high word down */
        a = op1(f, SB_IR_OP_FIRSTBIT_HI, hi);
        b = op1(f, SB_IR_OP_FIRSTBIT_HI, lo);
        return first_or_second(f, a, b);
    default: /* FirstbitSHi: the high word's; where it is all sign bits (0 or -1: the 32-bit
              * scan says -1), the first bit of low XOR high from the top */
        a = op1(f, SB_IR_OP_FIRSTBIT_SHI, hi);
        b = op1(f, SB_IR_OP_FIRSTBIT_HI, dxil_front_fresh_op2(f, SB_IR_OP_XOR, lo, hi));
        return first_or_second(f, a, b);
    }
}

bool dxil_front_bits_wide(struct dxil_front *f, const struct sb_bc_instruction *in, uint64_t opcode,
                          uint32_t width)
{
    uint32_t value = 0;
    struct sb_ir_operand v;
    if (!dxil_front_arg(f, in, 1, &value))
        return false;
    uint32_t temp = dxil_front_value_temp(f, in->value);
    if (temp == DXIL_FRONT_NONE)
        return false;
    if (width == 16) {
        if (!dxil_front_src(f, value, 0, &v))
            return false;
        struct sb_ir_operand result = bits16(f, opcode, v);
        return dxil_front_emit1(f, SB_IR_OP_MOV, dxil_front_temp_dst(temp, 0x1), &result, 1);
    }
    if (!dxil_front_src64(f, value, &v))
        return false;
    if (opcode != SB_DXIL_OP_BFREV) {
        struct sb_ir_operand result = bits64(f, opcode, v);
        return dxil_front_emit1(f, SB_IR_OP_MOV, dxil_front_temp_dst(temp, 0x1), &result, 1);
    }
    /* reversed(x) = reversed(high) : reversed(low), an i64 result in lanes x and y */
    struct sb_ir_operand lo = word_of(v, 0), hi = word_of(v, 1);
    return dxil_front_emit1(f, SB_IR_OP_BFREV, dxil_front_temp_dst(temp, 0x1), &hi, 1) &&
           dxil_front_emit1(f, SB_IR_OP_BFREV, dxil_front_temp_dst(temp, 0x2), &lo, 1);
}
