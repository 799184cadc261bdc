/* SPDX-License-Identifier: MIT */
/*
 * The packed-byte and packed-half dx.ops of SM 6.4/6.6 (../shared/docs/dxil.md
 * §3.6) -> bitfield and integer IR ops, as an SM5 program would spell them:
 * Unpack4x8 (bytes zero- or sign-extended: UBFE / IBFE 8 bits at 8k; an i16
 * result keeps its 16 bits, ir_from_dxil_wide.c's form), Pack4x8 (truncate,
 * or clamp to [0, 255] / [-128, 127] with IMAX/IMIN first, then BFI byte by
 * byte), Dot4AddI8Packed/U8Packed (four byte products accumulated with IMAD,
 * exact mod 2^32) and Dot2AddHalf (the halves' f32 values: DP2, then the
 * f32 accumulator added).
 */
#include "ir_from_dxil_private.h"
#include "translator/dxil_opcodes.h"

bool dxil_front_is_packed(uint64_t opcode)
{
    return opcode == SB_DXIL_OP_UNPACK4X8 || opcode == SB_DXIL_OP_PACK4X8 ||
           opcode == SB_DXIL_OP_DOT2_ADD_HALF || opcode == SB_DXIL_OP_DOT4_ADD_I8_PACKED ||
           opcode == SB_DXIL_OP_DOT4_ADD_U8_PACKED;
}

/* Byte k of `word`, zero- or sign-extended, into lane x of a fresh temp. */
static bool byte_of(struct dxil_front *f, struct sb_ir_operand word, uint32_t k, bool is_signed,
                    struct sb_ir_operand *out)
{
    uint32_t t = dxil_front_new_temp(f);
    struct sb_ir_operand s[3] = { dxil_front_imm(8), dxil_front_imm(8 * k), word };
    *out = dxil_front_temp_src(t, 0);
    return dxil_front_emit1(f, is_signed ? SB_IR_OP_IBFE : SB_IR_OP_UBFE, dxil_front_temp_dst(t, 0x1), s, 3);
}

/* unpack4x8(mode, pk) -> four i32 or i16 lanes. */
static bool unpack(struct dxil_front *f, const struct sb_bc_instruction *in)
{
    uint64_t mode = 0;
    uint32_t temp = 0;
    struct sb_ir_operand pk;
    if (!dxil_front_const_arg(f, in, 1, &mode) || !dxil_front_call_args(f, in, 2, 1, &pk) ||
        !dxil_front_result_temp(f, in, 4, &temp))
        return false;
    const struct sb_bc_type *t = dxil_front_type(f, in->type);
    const struct sb_bc_type *member = t ? dxil_front_type(f, t->members[0]) : NULL;
    bool narrow = member && member->kind == SB_BC_TYPE_INTEGER && member->width == 16;
    if (mode > 1)
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_INVALID, "unpack mode %llu",
                               (unsigned long long)mode);
    for (uint32_t k = 0; k < 4; k++) {
        struct sb_ir_operand b;
        struct sb_ir_operand d = dxil_front_temp_dst(temp, (uint8_t)(1u << k));
        if (!byte_of(f, pk, k, mode == 1, &b))
            return false;
        struct sb_ir_operand keep[2] = { b, dxil_front_imm(narrow ? 0xFFFFu : 0xFFFFFFFFu) };
        if (!dxil_front_emit1(f, SB_IR_OP_AND, d, keep, 2))
            return false;
    }
    return true;
}

/* pack4x8(mode, x, y, z, w) -> i32: mode 0 truncates, 1 clamps to [0, 255], 2 to
 * [-128, 127] (the inputs signed: an i16 one is sign-extended first). */
static bool pack(struct dxil_front *f, const struct sb_bc_instruction *in)
{
    uint64_t mode = 0;
    uint32_t temp = 0;
    struct sb_ir_operand v[4];
    if (!dxil_front_const_arg(f, in, 1, &mode) || !dxil_front_call_args(f, in, 2, 4, v) ||
        !dxil_front_result_temp(f, in, 1, &temp))
        return false;
    if (mode > 2)
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_INVALID, "pack mode %llu",
                               (unsigned long long)mode);
    const struct sb_bc_type *t = dxil_front_arg_type(f, in, 2);
    uint32_t bits = t && t->kind == SB_BC_TYPE_INTEGER ? t->width : 0;
    uint32_t work = dxil_front_new_temp(f);
    for (uint32_t k = 0; k < 4 && mode != 0; k++) {
        struct sb_ir_operand d = dxil_front_temp_dst(work, (uint8_t)(1u << k));
        struct sb_ir_operand here = dxil_front_temp_src(work, k);
        if (bits == 16) {
            struct sb_ir_operand s[3] = { dxil_front_imm(16), dxil_front_imm(0), v[k] };
            if (!dxil_front_emit1(f, SB_IR_OP_IBFE, d, s, 3))
                return false;
            v[k] = here;
        }
        struct sb_ir_operand low[2] = { v[k], dxil_front_imm(mode == 1 ? 0 : 0xFFFFFF80u) };
        struct sb_ir_operand high[2] = { here, dxil_front_imm(mode == 1 ? 255 : 127) };
        if (!dxil_front_emit1(f, SB_IR_OP_IMAX, d, low, 2) || !dxil_front_emit1(f, SB_IR_OP_IMIN, d, high, 2))
            return false;
        v[k] = here;
    }
    struct sb_ir_operand dst = dxil_front_temp_dst(temp, 0x1);
    struct sb_ir_operand first[2] = { v[0], dxil_front_imm(0xFF) };
    if (!dxil_front_emit1(f, SB_IR_OP_AND, dst, first, 2))
        return false;
    for (uint32_t k = 1; k < 4; k++) {
        struct sb_ir_operand s[4] = { dxil_front_imm(8), dxil_front_imm(8 * k), v[k],
                                      dxil_front_temp_src(temp, 0) };
        if (!dxil_front_emit1(f, SB_IR_OP_BFI, dst, s, 4))
            return false;
    }
    return true;
}

/* dot4AddPacked(acc, a, b): acc + sum of byte products (signed or unsigned bytes). */
static bool dot4_add(struct dxil_front *f, const struct sb_bc_instruction *in, bool is_signed)
{
    uint32_t temp = 0;
    struct sb_ir_operand s[3];
    if (!dxil_front_call_args(f, in, 1, 3, s) || !dxil_front_result_temp(f, in, 1, &temp))
        return false;
    struct sb_ir_operand dst = dxil_front_temp_dst(temp, 0x1), acc = s[0];
    for (uint32_t k = 0; k < 4; k++) {
        struct sb_ir_operand mad[3];
        if (!byte_of(f, s[1], k, is_signed, &mad[0]) || !byte_of(f, s[2], k, is_signed, &mad[1]))
            return false;
        mad[2] = acc;
        if (!dxil_front_emit1(f, SB_IR_OP_IMAD, dst, mad, 3))
            return false;
        acc = dxil_front_temp_src(temp, 0);
    }
    return true;
}

/* dot2AddHalf(acc, ax, ay, bx, by) = acc + ax*bx + ay*by in f32. */
static bool dot2_add_half(struct dxil_front *f, const struct sb_bc_instruction *in)
{
    uint32_t temp = 0;
    struct sb_ir_operand s[5];
    if (!dxil_front_call_args(f, in, 1, 5, s) || !dxil_front_result_temp(f, in, 1, &temp))
        return false;
    uint32_t vec = dxil_front_new_temp(f);
    for (uint32_t i = 0; i < 4; i++) /* a -> vec.xy, b -> vec.zw */
        if (!dxil_front_emit1(f, SB_IR_OP_MOV, dxil_front_temp_dst(vec, (uint8_t)(1u << i)), &s[1 + i], 1))
            return false;
    struct sb_ir_operand a = dxil_front_temp_src(vec, 0), b = dxil_front_temp_src(vec, 2);
    a.swizzle[1] = 1;
    b.swizzle[1] = 3;
    uint32_t sum = dxil_front_new_temp(f);
    struct sb_ir_operand dp[2] = { a, b }, add[2] = { dxil_front_temp_src(sum, 0), s[0] };
    return dxil_front_emit1(f, SB_IR_OP_DP2, dxil_front_temp_dst(sum, 0x1), dp, 2) &&
           dxil_front_emit1(f, SB_IR_OP_ADD, dxil_front_temp_dst(temp, 0x1), add, 2);
}

bool dxil_front_packed(struct dxil_front *f, const struct sb_bc_instruction *in, uint64_t opcode)
{
    switch (opcode) {
    case SB_DXIL_OP_UNPACK4X8: return unpack(f, in);
    case SB_DXIL_OP_PACK4X8: return pack(f, in);
    case SB_DXIL_OP_DOT4_ADD_I8_PACKED: return dot4_add(f, in, true);
    case SB_DXIL_OP_DOT4_ADD_U8_PACKED: return dot4_add(f, in, false);
    default: return dot2_add_half(f, in);
    }
}
