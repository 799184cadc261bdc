/* SPDX-License-Identifier: MIT */
/*
 * Helpers of the ALU files of the SPIR-V back end (spirv_alu_private.h): operand-count
 * check, the result of an op, NoContraction, splats and lane picks. Below the float
 * dispatcher (spirv_alu.c) and the integer and double files it dispatches to, which
 * all call them.
 */
#include "spirv_alu_private.h"

void sb_spv_alu_precise(struct sb_spv_context *ctx, const struct sb_ir_instruction *inst, uint32_t id)
{
    if ((inst->flags & SB_IR_FLAG_PRECISE) && id)
        sb_spv_decorate(&ctx->builder, id, SpvDecorationNoContraction, NULL, 0);
}

bool sb_spv_alu_check(struct sb_spv_context *ctx, const struct sb_ir_instruction *inst,
                      uint32_t dsts, uint32_t srcs)
{
    if (inst->dst_count >= dsts && inst->src_count >= srcs)
        return true;
    sb_spv_fail(ctx, SB_ERROR_TRANSLATE_INVALID, inst, "'%s' needs %u destination(s) and %u source(s)",
                sb_ir_op_name(inst->op), dsts, srcs);
    return false;
}

uint32_t sb_spv_alu_wide_count(struct sb_spv_context *ctx, const struct sb_ir_instruction *inst, uint32_t srcs,
                               bool pairs)
{
    if (!sb_spv_alu_check(ctx, inst, 1, srcs))
        return 0;
    const struct sb_ir_operand *d = &inst->dst[0];
    uint32_t lanes = sb_spv_mask_count(d->mask);
    if (d->file == SB_IR_FILE_NULL || !lanes)
        return 0;
    if (pairs)
        return lanes / 2;
    if (lanes > 2)
        sb_spv_fail(ctx, SB_ERROR_TRANSLATE_INVALID, inst, "'%s' writes %u lanes but reads at most two 64-bit values",
                    sb_ir_op_name(inst->op), lanes);
    return lanes > 2 ? 0 : lanes;
}

enum sb_result sb_spv_alu_done(struct sb_spv_context *ctx)
{
    if (ctx->result == SB_SUCCESS && ctx->builder.failed)
        return sb_spv_fail(ctx, SB_ERROR_OUT_OF_MEMORY, NULL, "out of memory");
    return ctx->result;
}

/* Replicates a scalar over the destination lanes. */
uint32_t sb_spv_alu_splat(struct sb_spv_context *ctx, uint32_t scalar, uint32_t ir_type, uint32_t n)
{
    uint32_t parts[4] = { scalar, scalar, scalar, scalar };
    if (n <= 1)
        return scalar;
    return sb_spv_construct(&ctx->builder, sb_spv_type_of(ctx, ir_type, n), parts, n);
}

uint32_t sb_spv_alu_pick(struct sb_spv_context *ctx, uint32_t value, uint32_t have_mask, uint32_t want_mask,
                         uint32_t ir_type)
{
    struct sb_spv_builder *b = &ctx->builder;
    uint32_t comps[4], n = 0, pos = 0, have_n = sb_spv_mask_count(have_mask);
    for (uint32_t i = 0; i < 4; i++) {
        if (have_mask & (1u << i)) {
            if (want_mask & (1u << i))
                comps[n++] = pos;
            pos++;
        }
    }
    if (n == have_n)
        return value;
    if (!n)
        return 0;
    if (have_n == 1)
        return value;
    if (n == 1)
        return sb_spv_extract(b, sb_spv_type_of(ctx, ir_type, 1), value, comps[0]);
    return sb_spv_shuffle(b, sb_spv_type_of(ctx, ir_type, n), value, value, comps, n);
}
