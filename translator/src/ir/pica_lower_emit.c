/* SPDX-License-Identifier: MIT */
/*
 * The PICA lowering's sticky failure, scratch temps, operand makers and
 * instruction append (pica_lower_private.h), below every other pica_lower*.c
 * file: the driver, the op lowerings, the operand mapping and the numerics all
 * emit through these.
 */
#include "pica_lower_private.h"

#include <stdio.h>
#include <string.h>
#include "error.h"

void sb_pl_fail(struct pica_lower *L, enum sb_result code, const char *message)
{
    if (L->result != SB_SUCCESS)
        return;
    L->result = code;
    sb_error_set(L->error, code, L->at ? L->at->offset : 0, SB_ERROR_NO_INSTR, "PICA lowering: %s",
                 message);
}

uint32_t sb_pl_scratch(struct pica_lower *L)
{
    uint32_t t = L->next_scratch++;
    if (L->next_scratch > L->temp_total)
        L->temp_total = L->next_scratch;
    return t;
}

struct sb_ir_operand sb_pl_dst(uint32_t t, uint32_t mask)
{
    struct sb_ir_operand op = { .file = SB_IR_FILE_TEMP, .index_count = 1, .mask = (uint8_t)mask };
    op.index[0].offset = t;
    return op;
}

struct sb_ir_operand sb_pl_src(uint32_t t)
{
    struct sb_ir_operand op = { .file = SB_IR_FILE_TEMP, .index_count = 1, .swizzle = { 0, 1, 2, 3 } };
    op.index[0].offset = t;
    return op;
}

struct sb_ir_operand sb_pl_lane(uint32_t t, uint32_t lane)
{
    struct sb_ir_operand op = sb_pl_src(t);
    for (int i = 0; i < 4; i++)
        op.swizzle[i] = (uint8_t)(lane & 3u);
    return op;
}

struct sb_ir_operand sb_pl_imm(uint32_t bits)
{
    struct sb_ir_operand op = { .file = SB_IR_FILE_IMMEDIATE, .swizzle = { 0, 1, 2, 3 },
                                .imm = { bits, bits, bits, bits } };
    return op;
}

struct sb_ir_operand sb_pl_neg(struct sb_ir_operand op)
{
    op.modifiers ^= SB_IR_MOD_NEG;
    return op;
}

bool sb_pl_emit(struct pica_lower *L, uint32_t op, const struct sb_ir_operand *dst, uint32_t src_count,
               const struct sb_ir_operand *a, const struct sb_ir_operand *b, const struct sb_ir_operand *c)
{
    if (L->result != SB_SUCCESS)
        return false;
    const struct sb_ir_operand *srcs[3] = { a, b, c };
    uint32_t nd = dst ? 1u : 0u;
    struct sb_ir_operand *ops = sb_arena_alloc(L->arena, nd + src_count + 1, sizeof(*ops));
    struct sb_ir_instruction *inst = ops ? sb_ir_vec_push(L->arena, &L->code, sizeof(*inst)) : NULL;
    if (!inst) {
        sb_pl_fail(L, SB_ERROR_OUT_OF_MEMORY, "out of memory");
        return false;
    }
    if (dst)
        ops[0] = *dst;
    for (uint32_t i = 0; i < src_count && i < 3; i++)
        ops[nd + i] = *srcs[i];
    inst->op = op;
    inst->offset = L->at ? L->at->offset : 0;
    inst->dst_count = nd;
    inst->src_count = src_count;
    inst->dst = nd ? ops : NULL;
    inst->src = ops + nd;
    const struct sb_ir_op_info *info = sb_ir_op_info(op);
    if (info && info->dst_type[0] == SB_IR_TYPE_FLOAT && op != SB_IR_OP_MOV && op != SB_IR_OP_MOVC) {
        inst->flags |= SB_IR_FLAG_PRECISE;
        inst->precise_mask = 0xF;
    }
    return true;
}
