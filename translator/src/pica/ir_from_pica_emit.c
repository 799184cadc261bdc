/* SPDX-License-Identifier: MIT */
/*
 * The PICA200 front end's sticky error and instruction/operand makers
 * (ir_from_pica_private.h), below every other ir_from_pica*.c file: the driver
 * (ir_from_pica.c), the structured and dispatch flow lowerings and the op
 * lowerings all emit through these, so they live apart from the driver that
 * calls those files.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "ir_from_pica_private.h"
#include "error.h"

bool pfront_fail(struct pfront_ctx *ctx, enum sb_result code, const char *format, ...)
{
    if (ctx->failed)
        return false;
    ctx->failed = true;
    char detail[SB_ERROR_MESSAGE_SIZE];
    va_list args;
    va_start(args, format);
    vsnprintf(detail, sizeof(detail), format, args);
    va_end(args);
    const char *name =
        ctx->code && ctx->at < ctx->count ? sb_pica_opcode_name(ctx->code[ctx->at].opcode) : NULL;
    sb_error_set(&ctx->error, code, ctx->code_base + 4u * (uint64_t)ctx->at, ctx->at,
                 "PICA address %u (%.12s): %.150s", ctx->at, name ? name : "?", detail);
    return false;
}

bool pfront_unstructured(struct pfront_ctx *ctx)
{
    ctx->structural_fail = true;
    return false;
}

struct pfront_function *pfront_function(struct pfront_ctx *ctx, uint32_t index)
{
    return (struct pfront_function *)ctx->functions.data + index;
}

struct sb_ir_instruction *pfront_emit(struct pfront_ctx *ctx, uint32_t op, uint32_t dst_count,
                                      uint32_t src_count)
{
    if (ctx->failed)
        return NULL;
    struct pfront_function *fn = pfront_function(ctx, ctx->current);
    struct sb_ir_operand *ops = NULL;
    if (dst_count + src_count) {
        ops = sb_arena_alloc(ctx->arena, dst_count + src_count, sizeof(*ops));
        if (!ops) {
            pfront_fail(ctx, SB_ERROR_OUT_OF_MEMORY, "out of memory");
            return NULL;
        }
    }
    struct sb_ir_instruction *in = sb_ir_vec_push(ctx->arena, &fn->code, sizeof(*in));
    if (!in) {
        pfront_fail(ctx, SB_ERROR_OUT_OF_MEMORY, "out of memory");
        return NULL;
    }
    in->op = op;
    in->offset = ctx->code_base + 4u * (uint64_t)ctx->at;
    in->dst_count = dst_count;
    in->src_count = src_count;
    in->dst = dst_count ? ops : NULL;
    in->src = src_count ? ops + dst_count : NULL;
    return in;
}

uint32_t pfront_new_temp(struct pfront_ctx *ctx)
{
    return ctx->temp_count++;
}

void pfront_temp(struct sb_ir_operand *op, uint32_t reg, uint8_t mask_or_lane, bool is_dst)
{
    op->file = SB_IR_FILE_TEMP;
    op->index_count = 1;
    op->index[0].offset = reg;
    if (is_dst)
        op->mask = mask_or_lane;
    else
        for (int i = 0; i < 4; i++)
            op->swizzle[i] = mask_or_lane;
}

void pfront_imm(struct sb_ir_operand *op, uint32_t x, uint32_t y, uint32_t z, uint32_t w)
{
    op->file = SB_IR_FILE_IMMEDIATE;
    op->imm[0] = x;
    op->imm[1] = y;
    op->imm[2] = z;
    op->imm[3] = w;
    for (uint8_t i = 0; i < 4; i++)
        op->swizzle[i] = i;
}

void pfront_address(struct sb_ir_operand *op, uint32_t lane, bool is_dst)
{
    op->file = SB_IR_FILE_PICA_ADDRESS;
    if (is_dst)
        op->mask = (uint8_t)(1u << lane);
    else
        for (int i = 0; i < 4; i++)
            op->swizzle[i] = (uint8_t)lane;
}

void pfront_emit_flow(struct pfront_ctx *ctx, uint32_t op)
{
    pfront_emit(ctx, op, 0, 0);
}

void pfront_emit_temp_iadd(struct pfront_ctx *ctx, uint32_t reg, uint32_t lane, int32_t value)
{
    struct sb_ir_instruction *in = pfront_emit(ctx, SB_IR_OP_IADD, 1, 2);
    if (!in)
        return;
    struct sb_ir_operand *o = (struct sb_ir_operand *)in->dst;
    pfront_temp(&o[0], reg, (uint8_t)(1u << lane), true);
    pfront_temp(&o[1], reg, (uint8_t)lane, false);
    pfront_imm(&o[2], (uint32_t)value, (uint32_t)value, (uint32_t)value, (uint32_t)value);
}

void pfront_emit_mov_temp_imm(struct pfront_ctx *ctx, uint32_t reg, uint32_t lane, uint32_t value)
{
    struct sb_ir_instruction *in = pfront_emit(ctx, SB_IR_OP_MOV, 1, 1);
    if (!in)
        return;
    struct sb_ir_operand *o = (struct sb_ir_operand *)in->dst;
    pfront_temp(&o[0], reg, (uint8_t)(1u << lane), true);
    pfront_imm(&o[1], value, value, value, value);
}

struct sb_ir_instruction *pfront_emit_cond(struct pfront_ctx *ctx, uint32_t op,
                                           const struct sb_ir_operand *cond, bool nz)
{
    struct sb_ir_instruction *in = pfront_emit(ctx, op, 0, 1);
    if (!in)
        return NULL;
    *(struct sb_ir_operand *)in->src = *cond;
    in->flags = nz ? SB_IR_FLAG_TEST_NZ : 0;
    return in;
}
