/* SPDX-License-Identifier: MIT */
/*
 * The instruction builder of the PICA200 geometry-shader expansion (pica_gs_private.h):
 * the expansion is a handful of functions built once per program load, so a plain list of
 * malloc'd blocks freed together is all the memory management it needs.
 */
#include "pica_gs_private.h"

#include <stdlib.h>
#include <string.h>

void *pgs_alloc(struct pgs *g, size_t count, size_t size)
{
    if (g->failed)
        return NULL;
    if (g->block_count == g->block_capacity) {
        uint32_t capacity = g->block_capacity ? g->block_capacity * 2 : 64;
        void **blocks = realloc(g->blocks, capacity * sizeof(*blocks));
        if (!blocks) {
            g->failed = true;
            return NULL;
        }
        g->blocks = blocks;
        g->block_capacity = capacity;
    }
    void *p = calloc(count ? count : 1, size ? size : 1);
    if (!p) {
        g->failed = true;
        return NULL;
    }
    g->blocks[g->block_count++] = p;
    return p;
}

struct sb_ir_instruction *pgs_emit(struct pgs *g, uint32_t op, const struct sb_ir_operand *dst, uint32_t src_count,
                                   const struct sb_ir_operand *a, const struct sb_ir_operand *b,
                                   const struct sb_ir_operand *c)
{
    if (g->failed)
        return NULL;
    if (g->code_count == g->code_capacity) {
        uint32_t capacity = g->code_capacity ? g->code_capacity * 2 : 256;
        struct sb_ir_instruction *code = realloc(g->code, capacity * sizeof(*code));
        if (!code) {
            g->failed = true;
            return NULL;
        }
        g->code = code;
        g->code_capacity = capacity;
    }
    const struct sb_ir_operand *srcs[3] = { a, b, c };
    uint32_t nd = dst ? 1u : 0u;
    struct sb_ir_operand *ops = pgs_alloc(g, nd + src_count, sizeof(*ops));
    if (!ops)
        return NULL;
    if (dst)
        ops[0] = *dst;
    for (uint32_t i = 0; i < src_count && i < 3; i++)
        ops[nd + i] = *srcs[i];
    struct sb_ir_instruction *inst = &g->code[g->code_count++];
    memset(inst, 0, sizeof(*inst));
    inst->op = op;
    inst->dst_count = nd;
    inst->src_count = src_count;
    inst->dst = nd ? ops : NULL;
    inst->src = ops + nd;
    return inst;
}

void pgs_test(struct pgs *g, uint32_t op, uint32_t t, uint32_t lane)
{
    struct sb_ir_operand c = pgs_lane(t, lane);
    struct sb_ir_instruction *inst = pgs_emit(g, op, NULL, 1, &c, NULL, NULL);
    if (inst)
        inst->flags = SB_IR_FLAG_TEST_NZ;
}

bool pgs_finish(struct pgs *g, struct sb_ir_function *out, uint32_t id)
{
    memset(out, 0, sizeof(*out));
    struct sb_ir_instruction *code = pgs_alloc(g, g->code_count, sizeof(*code));
    if (!code)
        return false;
    memcpy(code, g->code, g->code_count * sizeof(*code));
    out->id = id;
    out->instructions = code;
    out->instruction_count = g->code_count;
    g->code_count = 0;
    return true;
}

struct sb_ir_operand pgs_dst(uint32_t t, uint32_t mask)
{
    struct sb_ir_operand op = { .file = SB_IR_FILE_TEMP, .index_count = 1, .mask = (uint8_t)mask };
    op.index[0].offset = t;
    return op;
}

struct sb_ir_operand pgs_src(uint32_t t)
{
    struct sb_ir_operand op = { .file = SB_IR_FILE_TEMP, .index_count = 1, .swizzle = { 0, 1, 2, 3 } };
    op.index[0].offset = t;
    return op;
}

struct sb_ir_operand pgs_lane(uint32_t t, uint32_t lane)
{
    struct sb_ir_operand op = pgs_src(t);
    memset(op.swizzle, (int)(lane & 3u), 4);
    return op;
}

struct sb_ir_operand pgs_imm(uint32_t bits)
{
    struct sb_ir_operand op = { .file = SB_IR_FILE_IMMEDIATE, .swizzle = { 0, 1, 2, 3 },
                                .imm = { bits, bits, bits, bits } };
    return op;
}

struct sb_ir_operand pgs_uniform(uint32_t vector)
{
    struct sb_ir_operand op = { .file = SB_IR_FILE_CONSTANT_BUFFER, .index_count = 2, .swizzle = { 0, 1, 2, 3 } };
    op.index[0].offset = SB_IR_PICA_UNIFORM_REGISTER;
    op.index[1].offset = vector;
    return op;
}

struct sb_ir_operand pgs_inputs(void)
{
    struct sb_ir_operand op = { .file = SB_IR_FILE_RESOURCE, .index_count = 1, .swizzle = { 0, 1, 2, 3 } };
    op.index[0].offset = SB_RT_PICA_GS_INPUT_REGISTER;
    return op;
}

struct sb_ir_operand pgs_uav(uint32_t reg, uint8_t mask)
{
    struct sb_ir_operand op = { .file = SB_IR_FILE_UAV, .index_count = 1, .mask = mask, .swizzle = { 0, 1, 2, 3 } };
    op.index[0].offset = reg;
    return op;
}

const struct sb_ir_operand *pgs_keep(struct pgs *g, struct sb_ir_operand op)
{
    struct sb_ir_operand *copy = pgs_alloc(g, 1, sizeof(*copy));
    if (copy)
        *copy = op;
    return copy;
}
