/* SPDX-License-Identifier: MIT */
/*
 * 64-bit integer ops of the SPIR-V back end (IR.md: I64ADD ... DTOU64). A
 * value is a lane pair of a DOUBLE slot, low word first, read and written
 * with the double ops' lane rules: 64-bit results map by position after the
 * swizzle (sb_ir_double_source), 32-bit results (compares, i64toi, i64tof,
 * u64tof) take value k for the k-th written lane. Values are uint64 vectors
 * (the signed ops read them as signed; SPIR-V takes signedness from the
 * opcode), built by bitcasting the uvec2 lanes, so Int64 is declared only by
 * modules that use these ops. SPIR-V leaves division by zero, INT64_MIN / -1,
 * shifts by >= 64 and out-of-range float conversions undefined; the IR
 * defines them (division by 0 -> all ones, counts & 63, saturating
 * conversions), so each is guarded with a select before it can happen.
 */
#include "spirv_alu_private.h"

/* `n` copies of the 64-bit constant `bits` as uint64. */
static uint32_t u64_const(struct sb_spv_context *ctx, uint64_t bits, uint32_t n)
{
    struct sb_spv_builder *b = &ctx->builder;
    uint32_t type = sb_spv_t_u64vec(ctx, n);
    return sb_spv_const_splat(b, type, sb_spv_const64(b, ctx->t.u64, bits), n);
}

/* `n` copies of a float (FLOAT: low 32 bits of `bits`) or double constant. */
static uint32_t float_const(struct sb_spv_context *ctx, uint32_t float_type, uint64_t bits, uint32_t n)
{
    struct sb_spv_builder *b = &ctx->builder;
    uint32_t scalar = sb_spv_type_of(ctx, float_type, 1);
    uint32_t c = float_type == SB_IR_TYPE_DOUBLE ? sb_spv_const64(b, scalar, bits)
                                                 : sb_spv_const32(b, scalar, (uint32_t)bits);
    return sb_spv_const_splat(b, sb_spv_type_of(ctx, float_type, n), c, n);
}

/* The unsigned or signed quotient or remainder; a zero divisor gives all ones and
 * INT64_MIN / -1 divides by 1 instead (quotient INT64_MIN, remainder 0, the wrapped results). */
static uint32_t divide(struct sb_spv_context *ctx, uint32_t op, uint32_t a, uint32_t d, uint32_t n)
{
    struct sb_spv_builder *b = &ctx->builder;
    uint32_t type = sb_spv_t_u64vec(ctx, n), btype = sb_spv_t_bvec(ctx, n);
    uint32_t ones = u64_const(ctx, ~0ull, n), one = u64_const(ctx, 1, n);
    uint32_t zero = sb_spv_op2(b, SpvOpIEqual, btype, d, u64_const(ctx, 0, n));
    uint32_t unsafe = zero;
    bool is_signed = op == SB_IR_OP_I64IDIV || op == SB_IR_OP_I64IREM;
    if (is_signed) {
        uint32_t min = sb_spv_op2(b, SpvOpIEqual, btype, a, u64_const(ctx, 1ull << 63, n));
        uint32_t minus_one = sb_spv_op2(b, SpvOpIEqual, btype, d, ones);
        unsafe = sb_spv_op2(b, SpvOpLogicalOr, btype, zero,
                            sb_spv_op2(b, SpvOpLogicalAnd, btype, min, minus_one));
    }
    uint32_t safe = sb_spv_op3(b, SpvOpSelect, type, unsafe, one, d);
    SpvOp sop = op == SB_IR_OP_I64UDIV   ? SpvOpUDiv
                : op == SB_IR_OP_I64UREM ? SpvOpUMod
                : op == SB_IR_OP_I64IDIV ? SpvOpSDiv
                                         : SpvOpSRem;
    uint32_t r = sb_spv_op2(b, sop, type, a, safe);
    return sb_spv_op3(b, SpvOpSelect, type, zero, ones, r);
}

/* Saturating float/double -> 64-bit integer: NaN -> 0, below range -> INT64_MIN / 0, above ->
 * INT64_MAX / UINT64_MAX; in-range values truncate. Out-of-range inputs are replaced by 0 before
 * the conversion (SPIR-V leaves them undefined) and the bound chosen afterwards. */
static uint32_t float_to_int64(struct sb_spv_context *ctx, uint32_t value, uint32_t float_type, uint32_t n,
                               bool is_signed)
{
    struct sb_spv_builder *b = &ctx->builder;
    bool dbl = float_type == SB_IR_TYPE_DOUBLE;
    uint32_t type = sb_spv_t_u64vec(ctx, n), btype = sb_spv_t_bvec(ctx, n);
    /* Signed: [-2^63, 2^63); unsigned: (-1, 2^64) truncates into range. */
    uint64_t lo_bits = is_signed ? (dbl ? 0xC3E0000000000000ull : 0xDF000000u)
                                 : (dbl ? 0xBFF0000000000000ull : 0xBF800000u);
    uint64_t top_bits = is_signed ? (dbl ? 0x43E0000000000000ull : 0x5F000000u)
                                  : (dbl ? 0x43F0000000000000ull : 0x5F800000u);
    uint32_t lo = float_const(ctx, float_type, lo_bits, n), top = float_const(ctx, float_type, top_bits, n);
    uint32_t above = sb_spv_op2(b, SpvOpFOrdGreaterThanEqual, btype, value, top);
    uint32_t inside = sb_spv_op2(b, SpvOpLogicalAnd, btype,
                                 sb_spv_op2(b, is_signed ? SpvOpFOrdGreaterThanEqual : SpvOpFOrdGreaterThan,
                                            btype, value, lo),
                                 sb_spv_op2(b, SpvOpFOrdLessThan, btype, value, top));
    uint32_t safe = sb_spv_op3(b, SpvOpSelect, sb_spv_type_of(ctx, float_type, n), inside, value,
                               float_const(ctx, float_type, 0, n));
    uint32_t r = sb_spv_op1(b, is_signed ? SpvOpConvertFToS : SpvOpConvertFToU, type, safe);
    r = sb_spv_op3(b, SpvOpSelect, type, above, u64_const(ctx, is_signed ? INT64_MAX : UINT64_MAX, n), r);
    if (is_signed) {
        uint32_t below = sb_spv_op2(b, SpvOpFOrdLessThan, btype, value, lo);
        r = sb_spv_op3(b, SpvOpSelect, type, below, u64_const(ctx, 1ull << 63, n), r);
    }
    return r;
}

/* Ops with a 64-bit result from 64-bit sources: arithmetic, shifts, bits, and i64tod/u64tod/
 * dtoi64/dtou64 (one source). */
static enum sb_result arithmetic(struct sb_spv_context *ctx, const struct sb_ir_instruction *inst)
{
    struct sb_spv_builder *b = &ctx->builder;
    bool unary = sb_ir_op_info(inst->op)->src_max == 1;
    uint32_t n = sb_spv_alu_wide_count(ctx, inst, unary ? 1 : 2, true);
    if (!n)
        return ctx->result;
    const struct sb_ir_operand *d = &inst->dst[0];
    uint32_t type = sb_spv_t_u64vec(ctx, n);
    uint32_t a[2] = { 0, 0 };
    for (uint32_t i = 0; i < (unary ? 1u : 2u); i++) {
        struct sb_ir_operand src = sb_ir_double_source(&inst->src[i], d->mask);
        src.modifiers = 0;
        a[i] = inst->op == SB_IR_OP_DTOI64 || inst->op == SB_IR_OP_DTOU64 ? sb_spv_load_src_double(ctx, &src, n)
                                                                          : sb_spv_load_src_int64(ctx, &src, n);
    }
    uint32_t r;
    switch (inst->op) {
    case SB_IR_OP_I64ADD: r = sb_spv_op2(b, SpvOpIAdd, type, a[0], a[1]); break;
    case SB_IR_OP_I64SUB: r = sb_spv_op2(b, SpvOpISub, type, a[0], a[1]); break;
    case SB_IR_OP_I64MUL: r = sb_spv_op2(b, SpvOpIMul, type, a[0], a[1]); break;
    case SB_IR_OP_I64UDIV: case SB_IR_OP_I64UREM: case SB_IR_OP_I64IDIV: case SB_IR_OP_I64IREM:
        r = divide(ctx, inst->op, a[0], a[1], n);
        break;
    case SB_IR_OP_I64SHL: case SB_IR_OP_I64ISHR: case SB_IR_OP_I64USHR: {
        uint32_t count = sb_spv_op2(b, SpvOpBitwiseAnd, type, a[1], u64_const(ctx, 63, n));
        SpvOp op = inst->op == SB_IR_OP_I64SHL    ? SpvOpShiftLeftLogical
                   : inst->op == SB_IR_OP_I64ISHR ? SpvOpShiftRightArithmetic
                                                  : SpvOpShiftRightLogical;
        r = sb_spv_op2(b, op, type, a[0], count);
        break;
    }
    case SB_IR_OP_I64AND: r = sb_spv_op2(b, SpvOpBitwiseAnd, type, a[0], a[1]); break;
    case SB_IR_OP_I64OR: r = sb_spv_op2(b, SpvOpBitwiseOr, type, a[0], a[1]); break;
    case SB_IR_OP_I64XOR: r = sb_spv_op2(b, SpvOpBitwiseXor, type, a[0], a[1]); break;
    case SB_IR_OP_I64NOT: r = sb_spv_op1(b, SpvOpNot, type, a[0]); break;
    case SB_IR_OP_I64TOD: case SB_IR_OP_U64TOD:
        r = sb_spv_op1(b, inst->op == SB_IR_OP_I64TOD ? SpvOpConvertSToF : SpvOpConvertUToF,
                       sb_spv_type_of(ctx, SB_IR_TYPE_DOUBLE, n), a[0]);
        break;
    default: /* DTOI64, DTOU64 */
        r = float_to_int64(ctx, a[0], SB_IR_TYPE_DOUBLE, n, inst->op == SB_IR_OP_DTOI64);
        break;
    }
    sb_spv_store_dst_double(ctx, inst, d, r, n);
    return sb_spv_alu_done(ctx);
}

/* Compares (bool lanes), i64toi (uint), i64tof/u64tof (float): one 32-bit lane per value. */
static enum sb_result narrowing(struct sb_spv_context *ctx, const struct sb_ir_instruction *inst)
{
    struct sb_spv_builder *b = &ctx->builder;
    bool compare = sb_ir_op_info(inst->op)->src_max == 2;
    uint32_t n = sb_spv_alu_wide_count(ctx, inst, compare ? 2 : 1, false);
    if (!n)
        return ctx->result;
    const struct sb_ir_operand *d = &inst->dst[0];
    uint32_t a = sb_spv_load_src_int64(ctx, &inst->src[0], n);
    uint32_t r, view;
    if (compare) {
        uint32_t c = sb_spv_load_src_int64(ctx, &inst->src[1], n);
        SpvOp op;
        switch (inst->op) {
        case SB_IR_OP_I64EQ: op = SpvOpIEqual; break;
        case SB_IR_OP_I64NE: op = SpvOpINotEqual; break;
        case SB_IR_OP_I64ILT: op = SpvOpSLessThan; break;
        case SB_IR_OP_I64IGE: op = SpvOpSGreaterThanEqual; break;
        case SB_IR_OP_I64ULT: op = SpvOpULessThan; break;
        default: op = SpvOpUGreaterThanEqual; break; /* I64UGE */
        }
        r = sb_spv_op2(b, op, sb_spv_t_bvec(ctx, n), a, c);
        view = SB_IR_TYPE_BOOL;
    } else if (inst->op == SB_IR_OP_I64TOI) {
        r = sb_spv_op1(b, SpvOpUConvert, sb_spv_t_uvec(ctx, n), a);
        view = SB_IR_TYPE_UINT;
    } else {
        r = sb_spv_op1(b, inst->op == SB_IR_OP_I64TOF ? SpvOpConvertSToF : SpvOpConvertUToF,
                       sb_spv_t_fvec(ctx, n), a);
        view = SB_IR_TYPE_FLOAT;
    }
    sb_spv_store_dst(ctx, inst, d, r, view);
    return sb_spv_alu_done(ctx);
}

/* itoi64/utou64/ftoi64/ftou64: one 32-bit source lane per value, by position. */
static enum sb_result widening(struct sb_spv_context *ctx, const struct sb_ir_instruction *inst)
{
    struct sb_spv_builder *b = &ctx->builder;
    uint32_t n = sb_spv_alu_wide_count(ctx, inst, 1, true);
    if (!n)
        return ctx->result;
    const struct sb_ir_operand *d = &inst->dst[0];
    uint32_t view = sb_ir_op_info(inst->op)->src_type[0];
    struct sb_ir_operand src = sb_ir_double_source(&inst->src[0], d->mask);
    src.modifiers = 0;
    uint32_t a = sb_spv_load_src_n(ctx, &src, n, view);
    uint32_t type = sb_spv_t_u64vec(ctx, n), r;
    switch (inst->op) {
    case SB_IR_OP_ITOI64: r = sb_spv_op1(b, SpvOpSConvert, type, a); break;
    case SB_IR_OP_UTOU64: r = sb_spv_op1(b, SpvOpUConvert, type, a); break;
    default: r = float_to_int64(ctx, a, SB_IR_TYPE_FLOAT, n, inst->op == SB_IR_OP_FTOI64); break;
    }
    sb_spv_store_dst_double(ctx, inst, d, r, n);
    return sb_spv_alu_done(ctx);
}

enum sb_result sb_spv_alu_int64_instruction(struct sb_spv_context *ctx, const struct sb_ir_instruction *inst)
{
    if (!sb_ir_op_is_int64(inst->op))
        return SB_ERROR_TRANSLATE_UNSUPPORTED;
    const struct sb_ir_op_info *info = sb_ir_op_info(inst->op);
    if (info->dst_type[0] == SB_IR_TYPE_DOUBLE && info->src_type[0] == SB_IR_TYPE_DOUBLE)
        return arithmetic(ctx, inst);
    if (info->dst_type[0] == SB_IR_TYPE_DOUBLE)
        return widening(ctx, inst);
    return narrowing(ctx, inst);
}
