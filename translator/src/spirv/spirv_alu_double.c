/* SPDX-License-Identifier: MIT */
/*
 * 64-bit ops of the SPIR-V back end. A double occupies a lane pair (xy or
 * zw, low word first); a destination mask names the pairs it writes. Ops with
 * a 64-bit result map by position after the swizzle (IR.md §Operands,
 * sb_ir_double_source): a .zw destination reads the sources' second slot,
 * which is what D3D does and what the interpreter does too. Results that are
 * 32-bit (comparisons, dtof/dtoi/dtou) take double k for the k-th written
 * lane. Saturate clamps double results to [0, 1] with NaN -> 0 (NClamp), as
 * for floats. dtoi/dtou saturate like ftoi/ftou; dmin/dmax return the
 * non-NaN operand (NMin/NMax).
 */
#include "spirv_alu_private.h"

/* `_sat` on a double result: NClamp(x, 0, 1), whose NaN operand gives 0. */
static uint32_t saturate(struct sb_spv_context *ctx, const struct sb_ir_instruction *inst, uint32_t value,
                         uint32_t n)
{
    struct sb_spv_builder *b = &ctx->builder;
    if (!(inst->flags & SB_IR_FLAG_SATURATE))
        return value;
    uint32_t type = sb_spv_type_of(ctx, SB_IR_TYPE_DOUBLE, n);
    uint32_t zero = sb_spv_const64(b, ctx->t.f64, 0), one = sb_spv_const64(b, ctx->t.f64, 0x3FF0000000000000ull);
    return sb_spv_glsl3(b, type, GLSLstd450NClamp, value, sb_spv_const_splat(b, type, zero, n),
                        sb_spv_const_splat(b, type, one, n));
}

/* dadd, dmul, ddiv, dmin, dmax, dfma, drcp, dmov, dmovc. */
static enum sb_result arithmetic(struct sb_spv_context *ctx, const struct sb_ir_instruction *inst)
{
    struct sb_spv_builder *b = &ctx->builder;
    uint32_t srcs;
    switch (inst->op) {
    case SB_IR_OP_DMOV: case SB_IR_OP_DRCP: srcs = 1; break;
    case SB_IR_OP_DFMA: case SB_IR_OP_DMOVC: srcs = 3; break;
    default: srcs = 2; break;
    }
    uint32_t n = sb_spv_alu_wide_count(ctx, inst, srcs, true);
    if (!n)
        return ctx->result;
    const struct sb_ir_operand *d = &inst->dst[0];
    uint32_t type = sb_spv_type_of(ctx, SB_IR_TYPE_DOUBLE, n);
    uint32_t first = inst->op == SB_IR_OP_DMOVC ? 1 : 0;
    uint32_t a[3] = { 0 };
    for (uint32_t i = first; i < srcs; i++) {
        struct sb_ir_operand src = sb_ir_double_source(&inst->src[i], d->mask);
        a[i] = sb_spv_load_src_double(ctx, &src, n);
    }
    uint32_t r;
    switch (inst->op) {
    case SB_IR_OP_DMOV: r = a[0]; break;
    case SB_IR_OP_DMOVC: {
        struct sb_ir_operand src = sb_ir_double_source(&inst->src[0], d->mask);
        uint32_t cond = sb_spv_load_src_n(ctx, &src, n, SB_IR_TYPE_BOOL);
        r = sb_spv_op3(b, SpvOpSelect, type, cond, a[1], a[2]);
        break;
    }
    case SB_IR_OP_DADD: r = sb_spv_op2(b, SpvOpFAdd, type, a[0], a[1]); break;
    case SB_IR_OP_DMUL: r = sb_spv_op2(b, SpvOpFMul, type, a[0], a[1]); break;
    case SB_IR_OP_DDIV: r = sb_spv_op2(b, SpvOpFDiv, type, a[0], a[1]); break;
    case SB_IR_OP_DMIN: r = sb_spv_glsl2(b, type, GLSLstd450NMin, a[0], a[1]); break;
    case SB_IR_OP_DMAX: r = sb_spv_glsl2(b, type, GLSLstd450NMax, a[0], a[1]); break;
    case SB_IR_OP_DFMA: r = sb_spv_glsl3(b, type, GLSLstd450Fma, a[0], a[1], a[2]); break;
    default: { /* DRCP */
        uint32_t one = sb_spv_const64(b, ctx->t.f64, 0x3FF0000000000000ull);
        r = sb_spv_op2(b, SpvOpFDiv, type, sb_spv_const_splat(b, type, one, n), a[0]);
        break;
    }
    }
    sb_spv_alu_precise(ctx, inst, r);
    sb_spv_store_dst_double(ctx, inst, d, saturate(ctx, inst, r, n), n);
    return sb_spv_alu_done(ctx);
}

/* deq/dne/dlt/dge (bool lanes) and dtof/dtoi/dtou (32-bit lanes): one lane per double. */
static enum sb_result narrowing(struct sb_spv_context *ctx, const struct sb_ir_instruction *inst)
{
    struct sb_spv_builder *b = &ctx->builder;
    bool compare = inst->op == SB_IR_OP_DEQ || inst->op == SB_IR_OP_DNE || inst->op == SB_IR_OP_DLT ||
                   inst->op == SB_IR_OP_DGE;
    uint32_t n = sb_spv_alu_wide_count(ctx, inst, compare ? 2 : 1, false);
    if (!n)
        return ctx->result;
    const struct sb_ir_operand *d = &inst->dst[0];
    uint32_t a = sb_spv_load_src_double(ctx, &inst->src[0], n);
    uint32_t r, view;
    if (compare) {
        uint32_t c = sb_spv_load_src_double(ctx, &inst->src[1], n);
        SpvOp op = inst->op == SB_IR_OP_DEQ   ? SpvOpFOrdEqual
                   : inst->op == SB_IR_OP_DNE ? SpvOpFUnordNotEqual
                   : inst->op == SB_IR_OP_DLT ? SpvOpFOrdLessThan
                                              : SpvOpFOrdGreaterThanEqual;
        r = sb_spv_op2(b, op, sb_spv_t_bvec(ctx, n), a, c);
        view = SB_IR_TYPE_BOOL;
    } else if (inst->op == SB_IR_OP_DTOF) {
        r = sb_spv_op1(b, SpvOpFConvert, sb_spv_t_fvec(ctx, n), a);
        view = SB_IR_TYPE_FLOAT;
    } else {
        bool is_signed = inst->op == SB_IR_OP_DTOI;
        r = sb_spv_alu_float_to_int(ctx, a, SB_IR_TYPE_DOUBLE, n, is_signed);
        view = is_signed ? SB_IR_TYPE_INT : SB_IR_TYPE_UINT;
    }
    sb_spv_store_dst(ctx, inst, d, r, view);
    return sb_spv_alu_done(ctx);
}

/* ftod/itod/utod: one 32-bit source lane per double, by position like the arithmetic. */
static enum sb_result widening(struct sb_spv_context *ctx, const struct sb_ir_instruction *inst)
{
    struct sb_spv_builder *b = &ctx->builder;
    uint32_t n = sb_spv_alu_wide_count(ctx, inst, 1, true);
    if (!n)
        return ctx->result;
    const struct sb_ir_operand *d = &inst->dst[0];
    uint32_t view = inst->op == SB_IR_OP_FTOD   ? SB_IR_TYPE_FLOAT
                    : inst->op == SB_IR_OP_ITOD ? SB_IR_TYPE_INT
                                                : SB_IR_TYPE_UINT;
    struct sb_ir_operand src = sb_ir_double_source(&inst->src[0], d->mask);
    uint32_t a = sb_spv_load_src_n(ctx, &src, n, view);
    SpvOp op = view == SB_IR_TYPE_FLOAT ? SpvOpFConvert
               : view == SB_IR_TYPE_INT ? SpvOpConvertSToF
                                        : SpvOpConvertUToF;
    uint32_t r = sb_spv_op1(b, op, sb_spv_type_of(ctx, SB_IR_TYPE_DOUBLE, n), a);
    sb_spv_store_dst_double(ctx, inst, d, saturate(ctx, inst, r, n), n);
    return sb_spv_alu_done(ctx);
}

enum sb_result sb_spv_alu_double_instruction(struct sb_spv_context *ctx,
                                             const struct sb_ir_instruction *inst)
{
    switch (inst->op) {
    case SB_IR_OP_DMOV: case SB_IR_OP_DMOVC: case SB_IR_OP_DADD: case SB_IR_OP_DMUL:
    case SB_IR_OP_DDIV: case SB_IR_OP_DMIN: case SB_IR_OP_DMAX: case SB_IR_OP_DFMA:
    case SB_IR_OP_DRCP:
        return arithmetic(ctx, inst);
    case SB_IR_OP_DEQ: case SB_IR_OP_DNE: case SB_IR_OP_DLT: case SB_IR_OP_DGE:
    case SB_IR_OP_DTOF: case SB_IR_OP_DTOI: case SB_IR_OP_DTOU:
        return narrowing(ctx, inst);
    case SB_IR_OP_FTOD: case SB_IR_OP_ITOD: case SB_IR_OP_UTOD:
        return widening(ctx, inst);
    default:
        return SB_ERROR_TRANSLATE_UNSUPPORTED;
    }
}
