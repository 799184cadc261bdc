/* SPDX-License-Identifier: MIT */
/*
 * Integer, bit-field and conversion ops of the SPIR-V back end that need
 * more than one SPIR-V instruction to follow D3D (IR.md §Semantics):
 * imul/umul give (high, low); udiv by 0 gives 0xFFFFFFFF for quotient and
 * remainder (the divisor is replaced by 1 first, since SPIR-V leaves x/0
 * undefined); shift counts and bit-field widths/offsets use only 5 bits and
 * a field that runs past bit 31 is cut at it (SPIR-V's BitField* are
 * undefined there); firstbit_hi/shi count from the MSB with 0xFFFFFFFF for
 * "no bit"; ftoi/ftou saturate with NaN -> 0.
 */
#include "spirv_alu_private.h"

/* The sources of a two-destination op are loaded for the union of both masks
 * before anything is stored, so a destination that is also a source is read
 * first (D3D semantics). */
struct two_dst {
    uint32_t mask, n;
};

static bool two_dst_begin(struct sb_spv_context *ctx, const struct sb_ir_instruction *inst,
                          uint32_t srcs, struct two_dst *t)
{
    if (!sb_spv_alu_check(ctx, inst, 2, srcs))
        return false;
    t->mask = (inst->dst[0].mask | inst->dst[1].mask) & 0xFu;
    t->n = sb_spv_mask_count(t->mask);
    return t->n != 0;
}

static void two_dst_store(struct sb_spv_context *ctx, const struct sb_ir_instruction *inst,
                          const struct two_dst *t, uint32_t first, uint32_t second, uint32_t ir_type)
{
    if (inst->dst[0].mask)
        sb_spv_store_dst(ctx, inst, &inst->dst[0],
                         sb_spv_alu_pick(ctx, first, t->mask, inst->dst[0].mask, ir_type), ir_type);
    if (inst->dst[1].mask)
        sb_spv_store_dst(ctx, inst, &inst->dst[1],
                         sb_spv_alu_pick(ctx, second, t->mask, inst->dst[1].mask, ir_type), ir_type);
}

/* imul/umul (hi, lo), uaddc/usubb (result, carry): SPIR-V's two-member results. */
static enum sb_result extended(struct sb_spv_context *ctx, const struct sb_ir_instruction *inst)
{
    struct sb_spv_builder *b = &ctx->builder;
    struct two_dst t;
    if (!two_dst_begin(ctx, inst, 2, &t))
        return ctx->result;
    uint32_t view = inst->op == SB_IR_OP_IMUL ? SB_IR_TYPE_INT : SB_IR_TYPE_UINT;
    uint32_t type = sb_spv_type_of(ctx, view, t.n);
    uint32_t a = sb_spv_load_src(ctx, &inst->src[0], t.mask, view);
    uint32_t c = sb_spv_load_src(ctx, &inst->src[1], t.mask, view);
    const uint32_t members[2] = { type, type };
    uint32_t st = sb_spv_type_struct(b, members, 2);
    SpvOp op = inst->op == SB_IR_OP_IMUL   ? SpvOpSMulExtended
               : inst->op == SB_IR_OP_UMUL ? SpvOpUMulExtended
               : inst->op == SB_IR_OP_UADDC ? SpvOpIAddCarry
                                            : SpvOpISubBorrow;
    uint32_t r = sb_spv_op2(b, op, st, a, c);
    uint32_t m0 = sb_spv_extract(b, type, r, 0), m1 = sb_spv_extract(b, type, r, 1);
    bool mul = inst->op == SB_IR_OP_IMUL || inst->op == SB_IR_OP_UMUL;
    /* Multiplies: dst0 = high (member 1), dst1 = low; add/sub: dst0 = result, dst1 = carry. */
    two_dst_store(ctx, inst, &t, mul ? m1 : m0, mul ? m0 : m1, view);
    return sb_spv_alu_done(ctx);
}

static enum sb_result udiv(struct sb_spv_context *ctx, const struct sb_ir_instruction *inst)
{
    struct sb_spv_builder *b = &ctx->builder;
    struct two_dst t;
    if (!two_dst_begin(ctx, inst, 2, &t))
        return ctx->result;
    uint32_t type = sb_spv_t_uvec(ctx, t.n);
    uint32_t a = sb_spv_load_src(ctx, &inst->src[0], t.mask, SB_IR_TYPE_UINT);
    uint32_t c = sb_spv_load_src(ctx, &inst->src[1], t.mask, SB_IR_TYPE_UINT);
    uint32_t zero = sb_spv_const_of(ctx, SB_IR_TYPE_UINT, t.n, 0);
    uint32_t ones = sb_spv_const_of(ctx, SB_IR_TYPE_UINT, t.n, 0xFFFFFFFFu);
    uint32_t is_zero = sb_spv_op2(b, SpvOpIEqual, sb_spv_t_bvec(ctx, t.n), c, zero);
    uint32_t safe = sb_spv_op3(b, SpvOpSelect, type, is_zero, sb_spv_const_of(ctx, SB_IR_TYPE_UINT, t.n, 1), c);
    uint32_t q = inst->dst[0].mask ? sb_spv_op2(b, SpvOpUDiv, type, a, safe) : 0;
    uint32_t r = inst->dst[1].mask ? sb_spv_op2(b, SpvOpUMod, type, a, safe) : 0;
    if (q)
        q = sb_spv_op3(b, SpvOpSelect, type, is_zero, ones, q);
    if (r)
        r = sb_spv_op3(b, SpvOpSelect, type, is_zero, ones, r);
    two_dst_store(ctx, inst, &t, q, r, SB_IR_TYPE_UINT);
    return sb_spv_alu_done(ctx);
}

/* imad/umad: a * b + c (wrapping: the low 32 bits are the same for both signs). */
static enum sb_result mad(struct sb_spv_context *ctx, const struct sb_ir_instruction *inst)
{
    struct sb_spv_builder *b = &ctx->builder;
    if (!sb_spv_alu_check(ctx, inst, 1, 3))
        return ctx->result;
    const struct sb_ir_operand *d = &inst->dst[0];
    uint32_t n = sb_spv_mask_count(d->mask);
    if (!n)
        return SB_SUCCESS;
    uint32_t type = sb_spv_t_uvec(ctx, n);
    uint32_t a = sb_spv_load_src(ctx, &inst->src[0], d->mask, SB_IR_TYPE_UINT);
    uint32_t c = sb_spv_load_src(ctx, &inst->src[1], d->mask, SB_IR_TYPE_UINT);
    uint32_t e = sb_spv_load_src(ctx, &inst->src[2], d->mask, SB_IR_TYPE_UINT);
    uint32_t r = sb_spv_op2(b, SpvOpIAdd, type, sb_spv_op2(b, SpvOpIMul, type, a, c), e);
    sb_spv_store_dst(ctx, inst, d, r, SB_IR_TYPE_UINT);
    return sb_spv_alu_done(ctx);
}

/* Lanes `mask` of a shift count, bit-field width or offset as uint, cut to their low 5 bits.
 * Most of them are immediates: those are cut here, so the module holds the constant rather
 * than the same OpBitwiseAnd of a constant again at every shift. */
static uint32_t load_low5(struct sb_spv_context *ctx, const struct sb_ir_operand *src, uint32_t mask,
                          uint32_t n)
{
    if (src->file == SB_IR_FILE_IMMEDIATE && !src->modifiers) {
        struct sb_ir_operand cut = *src;
        for (uint32_t k = 0; k < 4; k++)
            cut.imm[k] &= 31u;
        return sb_spv_load_src(ctx, &cut, mask, SB_IR_TYPE_UINT);
    }
    return sb_spv_op2(&ctx->builder, SpvOpBitwiseAnd, sb_spv_t_uvec(ctx, n),
                      sb_spv_load_src(ctx, src, mask, SB_IR_TYPE_UINT),
                      sb_spv_const_of(ctx, SB_IR_TYPE_UINT, n, 31));
}

static enum sb_result shift(struct sb_spv_context *ctx, const struct sb_ir_instruction *inst)
{
    struct sb_spv_builder *b = &ctx->builder;
    if (!sb_spv_alu_check(ctx, inst, 1, 2))
        return ctx->result;
    const struct sb_ir_operand *d = &inst->dst[0];
    uint32_t n = sb_spv_mask_count(d->mask);
    if (!n)
        return SB_SUCCESS;
    uint32_t view = inst->op == SB_IR_OP_ISHR ? SB_IR_TYPE_INT : SB_IR_TYPE_UINT;
    uint32_t a = sb_spv_load_src(ctx, &inst->src[0], d->mask, view);
    uint32_t c = load_low5(ctx, &inst->src[1], d->mask, n);
    SpvOp op = inst->op == SB_IR_OP_ISHL   ? SpvOpShiftLeftLogical
               : inst->op == SB_IR_OP_ISHR ? SpvOpShiftRightArithmetic
                                           : SpvOpShiftRightLogical;
    sb_spv_store_dst(ctx, inst, d, sb_spv_op2(b, op, sb_spv_type_of(ctx, view, n), a, c), view);
    return sb_spv_alu_done(ctx);
}

/* firstbit_hi/shi: 31 - Find[US]Msb, 0xFFFFFFFF when no bit is found. */
static enum sb_result firstbit_high(struct sb_spv_context *ctx, const struct sb_ir_instruction *inst)
{
    struct sb_spv_builder *b = &ctx->builder;
    if (!sb_spv_alu_check(ctx, inst, 1, 1))
        return ctx->result;
    const struct sb_ir_operand *d = &inst->dst[0];
    uint32_t n = sb_spv_mask_count(d->mask);
    if (!n)
        return SB_SUCCESS;
    bool is_signed = inst->op == SB_IR_OP_FIRSTBIT_SHI;
    uint32_t view = is_signed ? SB_IR_TYPE_INT : SB_IR_TYPE_UINT;
    uint32_t type = sb_spv_t_uvec(ctx, n);
    uint32_t a = sb_spv_load_src(ctx, &inst->src[0], d->mask, view);
    uint32_t msb = sb_spv_glsl1(b, sb_spv_type_of(ctx, view, n),
                                is_signed ? GLSLstd450FindSMsb : GLSLstd450FindUMsb, a);
    msb = sb_spv_bitcast(b, type, sb_spv_type_of(ctx, view, n), msb);
    uint32_t ones = sb_spv_const_of(ctx, SB_IR_TYPE_UINT, n, 0xFFFFFFFFu);
    uint32_t none = sb_spv_op2(b, SpvOpIEqual, sb_spv_t_bvec(ctx, n), msb, ones);
    uint32_t r = sb_spv_op2(b, SpvOpISub, type, sb_spv_const_of(ctx, SB_IR_TYPE_UINT, n, 31), msb);
    sb_spv_store_dst(ctx, inst, d, sb_spv_op3(b, SpvOpSelect, type, none, ones, r), SB_IR_TYPE_UINT);
    return sb_spv_alu_done(ctx);
}

/*
 * ubfe/ibfe(width, offset, value), bfi(width, offset, insert, base). SPIR-V's
 * BitField* take scalar offset and count, so vectors are done lane by lane.
 */
static enum sb_result bitfield(struct sb_spv_context *ctx, const struct sb_ir_instruction *inst)
{
    struct sb_spv_builder *b = &ctx->builder;
    bool insert = inst->op == SB_IR_OP_BFI;
    if (!sb_spv_alu_check(ctx, inst, 1, insert ? 4 : 3))
        return ctx->result;
    const struct sb_ir_operand *d = &inst->dst[0];
    uint32_t view = inst->op == SB_IR_OP_IBFE ? SB_IR_TYPE_INT : SB_IR_TYPE_UINT;
    uint32_t u = sb_spv_t_u32(ctx), type = sb_spv_type_of(ctx, view, 1);
    uint32_t lanes[4], n = 0;
    for (uint32_t lane = 0; lane < 4; lane++) {
        uint32_t m = 1u << lane;
        if (!(d->mask & m))
            continue;
        uint32_t width = load_low5(ctx, &inst->src[0], m, 1);
        uint32_t offset = load_low5(ctx, &inst->src[1], m, 1);
        uint32_t room = sb_spv_op2(b, SpvOpISub, u, sb_spv_uint(ctx, 32), offset);
        uint32_t count = sb_spv_glsl2(b, u, GLSLstd450UMin, width, room);
        if (insert) {
            uint32_t ins = sb_spv_load_src(ctx, &inst->src[2], m, SB_IR_TYPE_UINT);
            uint32_t base = sb_spv_load_src(ctx, &inst->src[3], m, SB_IR_TYPE_UINT);
            const uint32_t ops[4] = { base, ins, offset, count };
            lanes[n++] = sb_spv_op_result(b, SpvOpBitFieldInsert, u, ops, 4);
        } else {
            uint32_t value = sb_spv_load_src(ctx, &inst->src[2], m, view);
            lanes[n++] = sb_spv_op3(b, view == SB_IR_TYPE_INT ? SpvOpBitFieldSExtract
                                                              : SpvOpBitFieldUExtract,
                                    type, value, offset, count);
        }
    }
    if (!n)
        return SB_SUCCESS;
    uint32_t out = insert ? SB_IR_TYPE_UINT : view;
    uint32_t v = n == 1 ? lanes[0] : sb_spv_construct(b, sb_spv_type_of(ctx, out, n), lanes, n);
    sb_spv_store_dst(ctx, inst, d, v, out);
    return sb_spv_alu_done(ctx);
}

/*
 * ftoi/ftou (and dtoi/dtou with a 64-bit source): clamp into range first so
 * the conversion is defined, then patch the top end and NaN as D3D wants.
 */
uint32_t sb_spv_alu_float_to_int(struct sb_spv_context *ctx, uint32_t value, uint32_t float_type,
                                 uint32_t n, bool is_signed)
{
    struct sb_spv_builder *b = &ctx->builder;
    bool dbl = float_type == SB_IR_TYPE_DOUBLE;
    uint32_t ftype = sb_spv_type_of(ctx, float_type, n);
    uint32_t fscalar = sb_spv_type_of(ctx, float_type, 1);
    uint32_t lo, hi, top;
    if (dbl) {
        /* -2^31, 2^31 - 1, 2^31 (or 0, 2^32 - 1, 2^32) as doubles. */
        lo = sb_spv_const64(b, fscalar, is_signed ? 0xC1E0000000000000ull : 0);
        hi = sb_spv_const64(b, fscalar, is_signed ? 0x41DFFFFFFFC00000ull : 0x41EFFFFFFFE00000ull);
        top = sb_spv_const64(b, fscalar, is_signed ? 0x41E0000000000000ull : 0x41F0000000000000ull);
    } else {
        /* -2^31, the largest float below 2^31, 2^31 (or 0, below 2^32, 2^32). */
        lo = sb_spv_const32(b, fscalar, is_signed ? 0xCF000000u : 0);
        hi = sb_spv_const32(b, fscalar, is_signed ? 0x4EFFFFFFu : 0x4F7FFFFFu);
        top = sb_spv_const32(b, fscalar, is_signed ? 0x4F000000u : 0x4F800000u);
    }
    lo = sb_spv_const_splat(b, ftype, lo, n);
    hi = sb_spv_const_splat(b, ftype, hi, n);
    top = sb_spv_const_splat(b, ftype, top, n);
    uint32_t view = is_signed ? SB_IR_TYPE_INT : SB_IR_TYPE_UINT;
    uint32_t itype = sb_spv_type_of(ctx, view, n);
    uint32_t clamped = sb_spv_glsl3(b, ftype, GLSLstd450NClamp, value, lo, hi);
    uint32_t r = sb_spv_op1(b, is_signed ? SpvOpConvertFToS : SpvOpConvertFToU, itype, clamped);
    uint32_t above = sb_spv_op2(b, SpvOpFOrdGreaterThanEqual, sb_spv_t_bvec(ctx, n), value, top);
    r = sb_spv_op3(b, SpvOpSelect, itype, above,
                   sb_spv_const_of(ctx, view, n, is_signed ? 0x7FFFFFFFu : 0xFFFFFFFFu), r);
    if (is_signed) {
        /* NClamp sent NaN to INT_MIN; D3D wants 0. (Unsigned NaN is already 0.) */
        uint32_t nan = sb_spv_op1(b, SpvOpIsNan, sb_spv_t_bvec(ctx, n), value);
        r = sb_spv_op3(b, SpvOpSelect, itype, nan, sb_spv_const_of(ctx, view, n, 0), r);
    }
    return r;
}

static enum sb_result ftoi(struct sb_spv_context *ctx, const struct sb_ir_instruction *inst)
{
    if (!sb_spv_alu_check(ctx, inst, 1, 1))
        return ctx->result;
    const struct sb_ir_operand *d = &inst->dst[0];
    uint32_t n = sb_spv_mask_count(d->mask);
    if (!n)
        return SB_SUCCESS;
    bool is_signed = inst->op == SB_IR_OP_FTOI;
    uint32_t a = sb_spv_load_src(ctx, &inst->src[0], d->mask, SB_IR_TYPE_FLOAT);
    uint32_t r = sb_spv_alu_float_to_int(ctx, a, SB_IR_TYPE_FLOAT, n, is_signed);
    sb_spv_store_dst(ctx, inst, d, r, is_signed ? SB_IR_TYPE_INT : SB_IR_TYPE_UINT);
    return sb_spv_alu_done(ctx);
}

/* f32tof16 / f16tof32 per lane through PackHalf2x16 / UnpackHalf2x16. */
static enum sb_result half(struct sb_spv_context *ctx, const struct sb_ir_instruction *inst)
{
    struct sb_spv_builder *b = &ctx->builder;
    if (!sb_spv_alu_check(ctx, inst, 1, 1))
        return ctx->result;
    const struct sb_ir_operand *d = &inst->dst[0];
    bool pack = inst->op == SB_IR_OP_F32TOF16;
    uint32_t lanes[4], n = 0;
    for (uint32_t lane = 0; lane < 4; lane++) {
        if (!(d->mask & (1u << lane)))
            continue;
        if (pack) {
            uint32_t f = sb_spv_load_src(ctx, &inst->src[0], 1u << lane, SB_IR_TYPE_FLOAT);
            uint32_t parts[2] = { f, sb_spv_const_f32(b, 0.0f) };
            uint32_t v2 = sb_spv_construct(b, sb_spv_t_fvec(ctx, 2), parts, 2);
            lanes[n++] = sb_spv_glsl1(b, sb_spv_t_u32(ctx), GLSLstd450PackHalf2x16, v2);
        } else {
            uint32_t u = sb_spv_load_src(ctx, &inst->src[0], 1u << lane, SB_IR_TYPE_UINT);
            uint32_t v2 = sb_spv_glsl1(b, sb_spv_t_fvec(ctx, 2), GLSLstd450UnpackHalf2x16, u);
            lanes[n++] = sb_spv_extract(b, sb_spv_t_f32(ctx), v2, 0);
        }
    }
    if (!n)
        return SB_SUCCESS;
    uint32_t view = pack ? SB_IR_TYPE_UINT : SB_IR_TYPE_FLOAT;
    uint32_t v = n == 1 ? lanes[0] : sb_spv_construct(b, sb_spv_type_of(ctx, view, n), lanes, n);
    sb_spv_store_dst(ctx, inst, d, v, view);
    return sb_spv_alu_done(ctx);
}

/*
 * msad(ref, src, accum): per lane, accum + the sum over bytes k of
 * |ref.byte[k] - src.byte[k]| where ref.byte[k] != 0. Shifts and masks keep
 * it vector-wide (BitField* would need scalar offsets).
 */
static enum sb_result msad(struct sb_spv_context *ctx, const struct sb_ir_instruction *inst)
{
    struct sb_spv_builder *b = &ctx->builder;
    if (!sb_spv_alu_check(ctx, inst, 1, 3))
        return ctx->result;
    const struct sb_ir_operand *d = &inst->dst[0];
    uint32_t n = sb_spv_mask_count(d->mask);
    if (!n)
        return SB_SUCCESS;
    uint32_t type = sb_spv_t_uvec(ctx, n), btype = sb_spv_t_bvec(ctx, n);
    uint32_t ref = sb_spv_load_src(ctx, &inst->src[0], d->mask, SB_IR_TYPE_UINT);
    uint32_t src = sb_spv_load_src(ctx, &inst->src[1], d->mask, SB_IR_TYPE_UINT);
    uint32_t sum = sb_spv_load_src(ctx, &inst->src[2], d->mask, SB_IR_TYPE_UINT);
    uint32_t ff = sb_spv_const_of(ctx, SB_IR_TYPE_UINT, n, 0xFF);
    uint32_t zero = sb_spv_const_of(ctx, SB_IR_TYPE_UINT, n, 0);
    for (uint32_t k = 0; k < 4; k++) {
        uint32_t shift = sb_spv_const_of(ctx, SB_IR_TYPE_UINT, n, 8 * k);
        uint32_t r = sb_spv_op2(b, SpvOpBitwiseAnd, type, sb_spv_op2(b, SpvOpShiftRightLogical, type, ref, shift), ff);
        uint32_t s = sb_spv_op2(b, SpvOpBitwiseAnd, type, sb_spv_op2(b, SpvOpShiftRightLogical, type, src, shift), ff);
        uint32_t diff = sb_spv_op3(b, SpvOpSelect, type, sb_spv_op2(b, SpvOpUGreaterThan, btype, r, s),
                                   sb_spv_op2(b, SpvOpISub, type, r, s), sb_spv_op2(b, SpvOpISub, type, s, r));
        diff = sb_spv_op3(b, SpvOpSelect, type, sb_spv_op2(b, SpvOpIEqual, btype, r, zero), zero, diff);
        sum = sb_spv_op2(b, SpvOpIAdd, type, sum, diff);
    }
    sb_spv_store_dst(ctx, inst, d, sum, SB_IR_TYPE_UINT);
    return sb_spv_alu_done(ctx);
}

enum sb_result sb_spv_alu_int_instruction(struct sb_spv_context *ctx, const struct sb_ir_instruction *inst)
{
    switch (inst->op) {
    case SB_IR_OP_IMUL: case SB_IR_OP_UMUL: case SB_IR_OP_UADDC: case SB_IR_OP_USUBB:
        return extended(ctx, inst);
    case SB_IR_OP_UDIV: return udiv(ctx, inst);
    case SB_IR_OP_IMAD: case SB_IR_OP_UMAD: return mad(ctx, inst);
    case SB_IR_OP_ISHL: case SB_IR_OP_ISHR: case SB_IR_OP_USHR: return shift(ctx, inst);
    case SB_IR_OP_FIRSTBIT_HI: case SB_IR_OP_FIRSTBIT_SHI: return firstbit_high(ctx, inst);
    case SB_IR_OP_UBFE: case SB_IR_OP_IBFE: case SB_IR_OP_BFI: return bitfield(ctx, inst);
    case SB_IR_OP_FTOI: case SB_IR_OP_FTOU: return ftoi(ctx, inst);
    case SB_IR_OP_F32TOF16: case SB_IR_OP_F16TOF32: return half(ctx, inst);
    case SB_IR_OP_MSAD: return msad(ctx, inst);
    default: return SB_ERROR_TRANSLATE_UNSUPPORTED;
    }
}
