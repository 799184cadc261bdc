/* SPDX-License-Identifier: MIT */
/*
 * Float ALU of the SPIR-V back end and the dispatch of every ALU op: a const
 * table maps each lane-wise op to one SPIR-V instruction or GLSL.std.450
 * function with its lane views; the ops with D3D-specific rules (dot
 * products, sincos, movc/swapc, saturating conversions, integer and double
 * specials in spirv_alu_int.c and spirv_alu_double.c) are written out.
 * The rules are those of IR.md §Semantics: min/max -> NMin/NMax (the non-NaN
 * operand wins), comparisons give 0xFFFFFFFF/0, `ne` is unordered, exp/log
 * are base 2, frc = x - floor(x), saturate = NClamp(x, 0, 1) (NaN -> 0).
 */
#include "spirv_alu_private.h"

/* One lane-wise op: SPIR-V opcode or GLSL.std.450 instruction, views, source count. */
struct alu_row {
    uint32_t op;        /* enum sb_ir_op */
    uint16_t spv;       /* SpvOp, or 0 when `glsl` is used */
    uint16_t glsl;      /* GLSLstd450 instruction */
    uint8_t dst_type;   /* enum sb_ir_type */
    uint8_t src_type;
    uint8_t src_count;
    uint8_t capability; /* 1 = DerivativeControl */
};

#define SPV(o, s, d, t, n) [SB_IR_OP_##o] = { SB_IR_OP_##o, (uint16_t)Spv##s, 0, SB_IR_TYPE_##d, SB_IR_TYPE_##t, n, 0 }
#define GLSL(o, g, d, t, n) [SB_IR_OP_##o] = { SB_IR_OP_##o, 0, (uint16_t)GLSLstd450##g, SB_IR_TYPE_##d, SB_IR_TYPE_##t, n, 0 }
#define DERIV(o, s) [SB_IR_OP_##o] = { SB_IR_OP_##o, (uint16_t)Spv##s, 0, SB_IR_TYPE_FLOAT, SB_IR_TYPE_FLOAT, 1, 1 }

/* Indexed by op; rows with src_count 0 are ops written out below. */
static const struct alu_row alu_rows[SB_IR_OP_COUNT] = {
    SPV(ADD, OpFAdd, FLOAT, FLOAT, 2),
    SPV(MUL, OpFMul, FLOAT, FLOAT, 2),
    SPV(DIV, OpFDiv, FLOAT, FLOAT, 2),
    GLSL(MIN, NMin, FLOAT, FLOAT, 2),
    GLSL(MAX, NMax, FLOAT, FLOAT, 2),
    GLSL(FRC, Fract, FLOAT, FLOAT, 1),
    GLSL(SQRT, Sqrt, FLOAT, FLOAT, 1),
    GLSL(RSQ, InverseSqrt, FLOAT, FLOAT, 1),
    GLSL(EXP, Exp2, FLOAT, FLOAT, 1),
    GLSL(LOG, Log2, FLOAT, FLOAT, 1),
    GLSL(ROUND_NE, RoundEven, FLOAT, FLOAT, 1),
    GLSL(ROUND_NI, Floor, FLOAT, FLOAT, 1),
    GLSL(ROUND_PI, Ceil, FLOAT, FLOAT, 1),
    GLSL(ROUND_Z, Trunc, FLOAT, FLOAT, 1),
    SPV(EQ, OpFOrdEqual, BOOL, FLOAT, 2),
    SPV(NE, OpFUnordNotEqual, BOOL, FLOAT, 2),
    SPV(LT, OpFOrdLessThan, BOOL, FLOAT, 2),
    SPV(GE, OpFOrdGreaterThanEqual, BOOL, FLOAT, 2),
    SPV(DERIV_RTX, OpDPdx, FLOAT, FLOAT, 1),
    SPV(DERIV_RTY, OpDPdy, FLOAT, FLOAT, 1),
    DERIV(DERIV_RTX_COARSE, OpDPdxCoarse),
    DERIV(DERIV_RTX_FINE, OpDPdxFine),
    DERIV(DERIV_RTY_COARSE, OpDPdyCoarse),
    DERIV(DERIV_RTY_FINE, OpDPdyFine),
    SPV(IADD, OpIAdd, UINT, UINT, 2),
    SPV(INEG, OpSNegate, INT, INT, 1),
    GLSL(IMIN, SMin, INT, INT, 2),
    GLSL(IMAX, SMax, INT, INT, 2),
    GLSL(UMIN, UMin, UINT, UINT, 2),
    GLSL(UMAX, UMax, UINT, UINT, 2),
    SPV(IEQ, OpIEqual, BOOL, UINT, 2),
    SPV(INE, OpINotEqual, BOOL, UINT, 2),
    SPV(ILT, OpSLessThan, BOOL, INT, 2),
    SPV(IGE, OpSGreaterThanEqual, BOOL, INT, 2),
    SPV(ULT, OpULessThan, BOOL, UINT, 2),
    SPV(UGE, OpUGreaterThanEqual, BOOL, UINT, 2),
    SPV(AND, OpBitwiseAnd, UINT, UINT, 2),
    SPV(OR, OpBitwiseOr, UINT, UINT, 2),
    SPV(XOR, OpBitwiseXor, UINT, UINT, 2),
    SPV(NOT, OpNot, UINT, UINT, 1),
    SPV(COUNTBITS, OpBitCount, UINT, UINT, 1),
    SPV(BFREV, OpBitReverse, UINT, UINT, 1),
    GLSL(FIRSTBIT_LO, FindILsb, UINT, UINT, 1),
    SPV(ITOF, OpConvertSToF, FLOAT, INT, 1),
    SPV(UTOF, OpConvertUToF, FLOAT, UINT, 1),
};

#undef SPV
#undef GLSL
#undef DERIV

static const struct alu_row *find_row(uint32_t op)
{
    return op < SB_IR_OP_COUNT && alu_rows[op].src_count ? &alu_rows[op] : NULL;
}

static enum sb_result table_op(struct sb_spv_context *ctx, const struct sb_ir_instruction *inst,
                               const struct alu_row *row)
{
    struct sb_spv_builder *b = &ctx->builder;
    if (!sb_spv_alu_check(ctx, inst, 1, row->src_count))
        return ctx->result;
    const struct sb_ir_operand *dst = &inst->dst[0];
    uint32_t n = sb_spv_mask_count(dst->mask);
    if (dst->file == SB_IR_FILE_NULL || !n)
        return SB_SUCCESS;
    if (row->op >= SB_IR_OP_DERIV_RTX && row->op <= SB_IR_OP_DERIV_RTY_FINE &&
        !sb_spv_has_derivatives(ctx))
        return sb_spv_fail(ctx, SB_ERROR_TRANSLATE_INVALID, inst, "'%s' outside a pixel shader",
                           sb_ir_op_name(inst->op));
    if (row->capability == 1)
        sb_spv_capability(b, SpvCapabilityDerivativeControl);
    /* One test per source position rather than a loop: each has its own branch, nearly
     * always taken for the second source and seldom for the third, where one loop's exit
     * came after one, two or three sources from one instruction to the next. */
    uint32_t args[3] = { 0, 0, 0 };
    args[0] = sb_spv_load_src(ctx, &inst->src[0], dst->mask, row->src_type);
    if (row->src_count > 1)
        args[1] = sb_spv_load_src(ctx, &inst->src[1], dst->mask, row->src_type);
    if (row->src_count > 2)
        args[2] = sb_spv_load_src(ctx, &inst->src[2], dst->mask, row->src_type);
    uint32_t type = sb_spv_type_of(ctx, row->dst_type, n);
    uint32_t r = row->spv ? sb_spv_op_result_upto3(b, (SpvOp)row->spv, type, row->src_count, args[0], args[1], args[2])
                          : sb_spv_glsl_op(b, type, row->glsl, args, row->src_count);
    if (row->dst_type == SB_IR_TYPE_FLOAT)
        sb_spv_alu_precise(ctx, inst, r);
    sb_spv_store_dst(ctx, inst, dst, r, row->dst_type);
    return sb_spv_alu_done(ctx);
}

/* dp2/dp3/dp4/dph: the dot product replicated into every destination lane. */
static enum sb_result dot(struct sb_spv_context *ctx, const struct sb_ir_instruction *inst, uint32_t size,
                          bool homogeneous)
{
    struct sb_spv_builder *b = &ctx->builder;
    if (!sb_spv_alu_check(ctx, inst, 1, 2))
        return ctx->result;
    const struct sb_ir_operand *dst = &inst->dst[0];
    uint32_t n = sb_spv_mask_count(dst->mask);
    if (!n)
        return SB_SUCCESS;
    uint32_t a = sb_spv_load_src_n(ctx, &inst->src[0], size, SB_IR_TYPE_FLOAT);
    uint32_t c = sb_spv_load_src_n(ctx, &inst->src[1], size, SB_IR_TYPE_FLOAT);
    if (homogeneous)
        a = sb_spv_op3(b, SpvOpCompositeInsert, sb_spv_t_fvec(ctx, 4), sb_spv_const_f32(b, 1.0f), a, 3);
    uint32_t r = sb_spv_op2(b, SpvOpDot, sb_spv_t_f32(ctx), a, c);
    sb_spv_alu_precise(ctx, inst, r);
    sb_spv_store_dst(ctx, inst, dst, sb_spv_alu_splat(ctx, r, SB_IR_TYPE_FLOAT, n), SB_IR_TYPE_FLOAT);
    return sb_spv_alu_done(ctx);
}

/* One-lane float op applied per destination lane (dst: 1, a.y*b.y, a.z, b.w). */
static enum sb_result dst_op(struct sb_spv_context *ctx, const struct sb_ir_instruction *inst)
{
    struct sb_spv_builder *b = &ctx->builder;
    if (!sb_spv_alu_check(ctx, inst, 1, 2))
        return ctx->result;
    const struct sb_ir_operand *d = &inst->dst[0];
    uint32_t a = sb_spv_load_src_n(ctx, &inst->src[0], 4, SB_IR_TYPE_FLOAT);
    uint32_t c = sb_spv_load_src_n(ctx, &inst->src[1], 4, SB_IR_TYPE_FLOAT);
    uint32_t lanes[4];
    lanes[0] = sb_spv_const_f32(b, 1.0f);
    lanes[1] = sb_spv_op2(b, SpvOpFMul, sb_spv_t_f32(ctx), sb_spv_extract(b, sb_spv_t_f32(ctx), a, 1),
                          sb_spv_extract(b, sb_spv_t_f32(ctx), c, 1));
    lanes[2] = sb_spv_extract(b, sb_spv_t_f32(ctx), a, 2);
    lanes[3] = sb_spv_extract(b, sb_spv_t_f32(ctx), c, 3);
    uint32_t v = sb_spv_construct(b, sb_spv_t_fvec(ctx, 4), lanes, 4);
    sb_spv_store_dst(ctx, inst, d, sb_spv_alu_pick(ctx, v, 0xF, d->mask, SB_IR_TYPE_FLOAT), SB_IR_TYPE_FLOAT);
    return sb_spv_alu_done(ctx);
}

static enum sb_result mov(struct sb_spv_context *ctx, const struct sb_ir_instruction *inst)
{
    if (!sb_spv_alu_check(ctx, inst, 1, 1))
        return ctx->result;
    const struct sb_ir_operand *d = &inst->dst[0];
    if (!d->mask || d->file == SB_IR_FILE_NULL)
        return SB_SUCCESS;
    uint32_t v = sb_spv_load_src(ctx, &inst->src[0], d->mask, SB_IR_TYPE_FLOAT);
    sb_spv_store_dst(ctx, inst, d, v, SB_IR_TYPE_FLOAT);
    return sb_spv_alu_done(ctx);
}

/* movc: per lane a != 0 ? b : c; swapc: d0 <- a ? c : b, d1 <- a ? b : c. */
/* (a & m) | (b & not_m): a where the mask is set, b elsewhere. */
static uint32_t bit_select(struct sb_spv_builder *b, uint32_t type, uint32_t m, uint32_t not_m, uint32_t a,
                           uint32_t c)
{
    uint32_t kept = sb_spv_op2(b, SpvOpBitwiseAnd, type, a, m); /* in this order: stable module bytes */
    uint32_t other = sb_spv_op2(b, SpvOpBitwiseAnd, type, c, not_m);
    return sb_spv_op2(b, SpvOpBitwiseOr, type, kept, other);
}

static enum sb_result movc(struct sb_spv_context *ctx, const struct sb_ir_instruction *inst, bool swap)
{
    struct sb_spv_builder *b = &ctx->builder;
    if (!sb_spv_alu_check(ctx, inst, swap ? 2 : 1, 3))
        return ctx->result;
    uint32_t mask = inst->dst[0].mask | (swap ? inst->dst[1].mask : 0);
    uint32_t n = sb_spv_mask_count(mask);
    if (!n)
        return SB_SUCCESS;
    /* movc copies bits (IR.md): selecting integers keeps -0, NaN payloads and denormals, and
     * stops a driver from rewriting a float select with a zero arm as a multiply (seen on
     * lavapipe: select(c, -1.0, 0.0) gave -0). movc_sat and float source modifiers (neg,
     * abs) are float operations, so those select floats. */
    bool as_float = (inst->flags & SB_IR_FLAG_SATURATE) || inst->src[1].modifiers || inst->src[2].modifiers;
    uint32_t ir_type = as_float ? SB_IR_TYPE_FLOAT : SB_IR_TYPE_UINT;
    uint32_t cond = sb_spv_load_src(ctx, &inst->src[0], mask, SB_IR_TYPE_BOOL);
    uint32_t x = sb_spv_load_src(ctx, &inst->src[1], mask, ir_type);
    uint32_t y = sb_spv_load_src(ctx, &inst->src[2], mask, ir_type);
    uint32_t type = ir_type == SB_IR_TYPE_UINT ? sb_spv_t_uvec(ctx, n) : sb_spv_t_fvec(ctx, n);
    uint32_t first, second = 0;
    if (ir_type == SB_IR_TYPE_UINT) {
        /* (x & m) | (y & ~m): drivers whose IR is untyped (Mesa's NIR) see through a bitcast
         * select and may rewrite select(c, x, 0) as b2f(c) * x, which gives -0 for x < 0. */
        uint32_t ones = sb_spv_const_splat(b, type, sb_spv_const_u32(b, 0xFFFFFFFFu), n);
        uint32_t zero = sb_spv_const_splat(b, type, sb_spv_const_u32(b, 0), n);
        uint32_t m = sb_spv_op3(b, SpvOpSelect, type, cond, ones, zero);
        uint32_t not_m = sb_spv_op1(b, SpvOpNot, type, m);
        first = bit_select(b, type, m, not_m, swap ? y : x, swap ? x : y);
        second = swap ? bit_select(b, type, m, not_m, x, y) : 0;
    } else {
        first = sb_spv_op3(b, SpvOpSelect, type, cond, swap ? y : x, swap ? x : y);
        second = swap ? sb_spv_op3(b, SpvOpSelect, type, cond, x, y) : 0;
    }
    sb_spv_store_dst(ctx, inst, &inst->dst[0],
                     sb_spv_alu_pick(ctx, first, mask, inst->dst[0].mask, ir_type), ir_type);
    if (swap)
        sb_spv_store_dst(ctx, inst, &inst->dst[1],
                         sb_spv_alu_pick(ctx, second, mask, inst->dst[1].mask, ir_type), ir_type);
    return sb_spv_alu_done(ctx);
}

static enum sb_result sincos(struct sb_spv_context *ctx, const struct sb_ir_instruction *inst)
{
    struct sb_spv_builder *b = &ctx->builder;
    if (!sb_spv_alu_check(ctx, inst, 2, 1))
        return ctx->result;
    uint32_t mask = inst->dst[0].mask | inst->dst[1].mask;
    uint32_t n = sb_spv_mask_count(mask);
    if (!n)
        return SB_SUCCESS;
    uint32_t a = sb_spv_load_src(ctx, &inst->src[0], mask, SB_IR_TYPE_FLOAT);
    uint32_t s = inst->dst[0].mask ? sb_spv_glsl1(b, sb_spv_t_fvec(ctx, n), GLSLstd450Sin, a) : 0;
    uint32_t c = inst->dst[1].mask ? sb_spv_glsl1(b, sb_spv_t_fvec(ctx, n), GLSLstd450Cos, a) : 0;
    if (s)
        sb_spv_store_dst(ctx, inst, &inst->dst[0], sb_spv_alu_pick(ctx, s, mask, inst->dst[0].mask,
                                                                   SB_IR_TYPE_FLOAT), SB_IR_TYPE_FLOAT);
    if (c)
        sb_spv_store_dst(ctx, inst, &inst->dst[1], sb_spv_alu_pick(ctx, c, mask, inst->dst[1].mask,
                                                                   SB_IR_TYPE_FLOAT), SB_IR_TYPE_FLOAT);
    return sb_spv_alu_done(ctx);
}

static enum sb_result mad_rcp_cmp(struct sb_spv_context *ctx, const struct sb_ir_instruction *inst)
{
    struct sb_spv_builder *b = &ctx->builder;
    uint32_t srcs = inst->op == SB_IR_OP_MAD ? 3 : inst->op == SB_IR_OP_RCP ? 1 : 2;
    if (!sb_spv_alu_check(ctx, inst, 1, srcs))
        return ctx->result;
    const struct sb_ir_operand *d = &inst->dst[0];
    uint32_t n = sb_spv_mask_count(d->mask);
    if (!n)
        return SB_SUCCESS;
    uint32_t type = sb_spv_t_fvec(ctx, n), r;
    uint32_t a = sb_spv_load_src(ctx, &inst->src[0], d->mask, SB_IR_TYPE_FLOAT);
    if (inst->op == SB_IR_OP_RCP) {
        r = sb_spv_op2(b, SpvOpFDiv, type, sb_spv_const_of(ctx, SB_IR_TYPE_FLOAT, n, 0x3F800000u), a);
    } else if (inst->op == SB_IR_OP_MAD) {
        uint32_t c = sb_spv_load_src(ctx, &inst->src[1], d->mask, SB_IR_TYPE_FLOAT);
        uint32_t e = sb_spv_load_src(ctx, &inst->src[2], d->mask, SB_IR_TYPE_FLOAT);
        uint32_t m = sb_spv_op2(b, SpvOpFMul, type, a, c);
        sb_spv_alu_precise(ctx, inst, m);
        r = sb_spv_op2(b, SpvOpFAdd, type, m, e);
    } else { /* SGE / SLT: 1.0 or 0.0 */
        uint32_t c = sb_spv_load_src(ctx, &inst->src[1], d->mask, SB_IR_TYPE_FLOAT);
        uint32_t cmp = sb_spv_op2(b, inst->op == SB_IR_OP_SGE ? SpvOpFOrdGreaterThanEqual
                                                                : SpvOpFOrdLessThan,
                                  sb_spv_t_bvec(ctx, n), a, c);
        r = sb_spv_op3(b, SpvOpSelect, type, cmp, sb_spv_const_of(ctx, SB_IR_TYPE_FLOAT, n, 0x3F800000u),
                       sb_spv_const_of(ctx, SB_IR_TYPE_FLOAT, n, 0));
    }
    sb_spv_alu_precise(ctx, inst, r);
    sb_spv_store_dst(ctx, inst, d, r, SB_IR_TYPE_FLOAT);
    return sb_spv_alu_done(ctx);
}

enum sb_result sb_spv_alu_instruction(struct sb_spv_context *ctx, const struct sb_ir_instruction *inst)
{
    const struct alu_row *row = find_row(inst->op);
    if (row)
        return table_op(ctx, inst, row);
    switch (inst->op) {
    case SB_IR_OP_NOP: return SB_SUCCESS;
    case SB_IR_OP_MOV: return mov(ctx, inst);
    case SB_IR_OP_MOVC: return movc(ctx, inst, false);
    case SB_IR_OP_SWAPC: return movc(ctx, inst, true);
    case SB_IR_OP_MAD: case SB_IR_OP_RCP: case SB_IR_OP_SGE: case SB_IR_OP_SLT:
        return mad_rcp_cmp(ctx, inst);
    case SB_IR_OP_DP2: return dot(ctx, inst, 2, false);
    case SB_IR_OP_DP3: return dot(ctx, inst, 3, false);
    case SB_IR_OP_DP4: return dot(ctx, inst, 4, false);
    case SB_IR_OP_DPH: return dot(ctx, inst, 4, true);
    case SB_IR_OP_DST: return dst_op(ctx, inst);
    case SB_IR_OP_SINCOS: return sincos(ctx, inst);
    default: break;
    }
    enum sb_result r = sb_spv_alu_int_instruction(ctx, inst);
    if (r != SB_ERROR_TRANSLATE_UNSUPPORTED || ctx->result != SB_SUCCESS)
        return r;
    if (sb_ir_op_is_int64(inst->op))
        return sb_spv_alu_int64_instruction(ctx, inst);
    return sb_spv_alu_double_instruction(ctx, inst);
}
