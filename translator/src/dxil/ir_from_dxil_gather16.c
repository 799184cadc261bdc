/* SPDX-License-Identifier: MIT */
/*
 * textureGather / textureGatherRaw / textureGatherCmp with a 16-bit overload
 * (ResRet.i16 / ResRet.f16, SM 6.2 native 16-bit types; a Texture2D<uint16_t> gathers to
 * ResRet.i16). The IR's gather4 returns 32-bit lanes: the texels' values as the view's
 * return type reads them. That is already how this front end holds 16-bit values, once
 * each lane is brought into range:
 *
 * - i16 (on an integer texture, sint or uint view): the low 16 bits, zero-extended
 *   (AND 0xFFFF; a sint view sign-extends a negative texel, and i16 values are held
 *   zero-extended, ir_from_dxil_wide.c);
 * - f16 (on a float, unorm or snorm texture): the value rounded to the nearest half (a
 *   half texel is exact already; the round keeps a wider texel of the same view a half).
 *
 * An i16 gather of a float texture (the raw bits of half texels) and an f16 gather of an
 * integer texture refuse: the IR gathers values, not the texels' bits.
 */
#include "ir_from_dxil_private.h"

/* 16 for an i16/f16 ResRet, with *is_half; 0 for any other type. */
static uint32_t resret16(const struct dxil_front *f, uint32_t type, bool *is_half)
{
    const struct sb_bc_type *t = dxil_front_type(f, type);
    if (!t || t->kind != SB_BC_TYPE_STRUCT || t->member_count == 0)
        return 0;
    const struct sb_bc_type *m = dxil_front_type(f, t->members[0]);
    *is_half = m && m->kind == SB_BC_TYPE_HALF;
    return m && (*is_half || (m->kind == SB_BC_TYPE_INTEGER && m->width == 16)) ? 16 : 0;
}

bool dxil_front_gather16_claims(const struct dxil_front *f, const struct sb_bc_instruction *in)
{
    bool is_half = false;
    return resret16(f, in->type, &is_half) != 0;
}

bool dxil_front_gather16_check(struct dxil_front *f, const struct sb_bc_instruction *in,
                               const struct sb_ir_resource *r)
{
    bool is_half = false;
    resret16(f, in->type, &is_half);
    uint32_t type = r->return_type[0]; /* 1 unorm, 2 snorm, 3 sint, 4 uint, 5 float */
    bool integer = type == 3 || type == 4;
    if (!dxil_front_native_16bit(f))
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_UNSUPPORTED,
                               "a 16-bit gather without native 16-bit types");
    if (is_half == integer)
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_UNSUPPORTED,
                               "a %s gather of a texture of return type %u (the texels' bits)",
                               is_half ? "f16" : "i16", type);
    return true;
}

bool dxil_front_gather16_finish(struct dxil_front *f, const struct sb_bc_instruction *in,
                                struct sb_ir_operand dst)
{
    bool is_half = false;
    resret16(f, in->type, &is_half);
    uint32_t temp = dst.index[0].offset;
    for (uint32_t lane = 0; lane < 4; lane++) {
        if (!(dst.mask & (1u << lane)))
            continue;
        struct sb_ir_operand to = dxil_front_temp_dst(temp, (uint8_t)(1u << lane));
        struct sb_ir_operand from = dxil_front_temp_src(temp, lane);
        struct sb_ir_operand low[2] = { from, dxil_front_imm(0xFFFF) };
        if (is_half ? !dxil_front_round_half(f, to, from)
                    : !dxil_front_emit1(f, SB_IR_OP_AND, to, low, 2))
            return false;
    }
    return true;
}
