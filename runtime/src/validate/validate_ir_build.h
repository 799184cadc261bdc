/* SPDX-License-Identifier: MIT */
/*
 * Building small IR programs in place (the partner stages and instrumented
 * copies of validate_geometry_partner.c and validate_tessellation_partner.c):
 * operands, and instructions appended to arrays sized beforehand, with a
 * sticky overflow flag instead of a failure at every call.
 */
#ifndef SB_RUNTIME_VALIDATE_IR_BUILD_H
#define SB_RUNTIME_VALIDATE_IR_BUILD_H

#include <stdbool.h>
#include <string.h>
#include "translator/ir.h"

static inline struct sb_ir_operand ir_reg(uint32_t file, uint32_t index, uint8_t mask)
{
    struct sb_ir_operand o = { .file = file, .index_count = 1, .mask = mask };
    o.index[0].offset = index;
    for (int i = 0; i < 4; i++)
        o.swizzle[i] = (uint8_t)i;
    return o;
}

static inline struct sb_ir_operand ir_lane(struct sb_ir_operand o, uint8_t c)
{
    for (int i = 0; i < 4; i++)
        o.swizzle[i] = c;
    return o;
}

static inline struct sb_ir_operand ir_imm(uint32_t v)
{
    struct sb_ir_operand o = { .file = SB_IR_FILE_IMMEDIATE, .imm = { v, v, v, v } };
    for (int i = 0; i < 4; i++)
        o.swizzle[i] = (uint8_t)i;
    return o;
}

/* Instructions and operands being written into arrays sized beforehand. */
struct ir_builder {
    struct sb_ir_instruction *inst;
    struct sb_ir_operand *ops;
    uint32_t inst_count, inst_cap, op_count, op_cap;
    bool overflow;
};

static inline struct sb_ir_instruction *ir_add(struct ir_builder *b, uint32_t op, uint64_t offset,
                                               uint32_t dst_count, const struct sb_ir_operand *dst,
                                               uint32_t src_count, const struct sb_ir_operand *src)
{
    if (b->inst_count == b->inst_cap || b->op_count + dst_count + src_count > b->op_cap) {
        b->overflow = true;
        return NULL;
    }
    struct sb_ir_operand *ops = &b->ops[b->op_count];
    if (dst_count)
        memcpy(ops, dst, dst_count * sizeof(*ops));
    if (src_count)
        memcpy(ops + dst_count, src, src_count * sizeof(*ops));
    b->op_count += dst_count + src_count;
    struct sb_ir_instruction *in = &b->inst[b->inst_count++];
    memset(in, 0, sizeof(*in));
    in->op = op;
    in->offset = offset;
    in->dst_count = dst_count;
    in->src_count = src_count;
    in->dst = dst_count ? ops : NULL;
    in->src = ops + dst_count;
    return in;
}

static inline void ir_add1(struct ir_builder *b, uint32_t op, uint64_t offset, struct sb_ir_operand dst,
                           uint32_t src_count, const struct sb_ir_operand *src)
{
    ir_add(b, op, offset, 1, &dst, src_count, src);
}

#endif
