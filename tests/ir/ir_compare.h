/* SPDX-License-Identifier: MIT */
/*
 * Field-by-field equality of two IR programs, for the tests that hold
 * sb_ir_from_dxbc() to sb_sm4_decode_container() + sb_ir_from_sm4(): every
 * function, instruction and operand (nested relative operands included), the
 * immediate constant buffer, and the declarations through sb_ir_print().
 */
#ifndef SB_TEST_IR_COMPARE_H
#define SB_TEST_IR_COMPARE_H

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "translator/ir.h"

static inline bool same_operand(const struct sb_ir_operand *a, const struct sb_ir_operand *b);

static inline bool same_index(const struct sb_ir_index *a, const struct sb_ir_index *b)
{
    if (a->offset != b->offset || !a->relative != !b->relative)
        return false;
    return !a->relative || same_operand(a->relative, b->relative);
}

static inline bool same_operand(const struct sb_ir_operand *a, const struct sb_ir_operand *b)
{
    if (a->file != b->file || a->index_count != b->index_count || a->mask != b->mask ||
        memcmp(a->swizzle, b->swizzle, 4) || a->modifiers != b->modifiers ||
        a->non_uniform != b->non_uniform || a->min_precision != b->min_precision ||
        memcmp(a->imm, b->imm, sizeof(a->imm)))
        return false;
    for (uint32_t i = 0; i < 3; i++)
        if (!same_index(&a->index[i], &b->index[i]))
            return false;
    return true;
}

static inline bool same_instruction(const struct sb_ir_instruction *a, const struct sb_ir_instruction *b)
{
    if (a->op != b->op || a->flags != b->flags || a->offset != b->offset ||
        a->dst_count != b->dst_count || a->src_count != b->src_count ||
        a->precise_mask != b->precise_mask ||
        memcmp(a->texel_offset, b->texel_offset, sizeof(a->texel_offset)) ||
        a->case_value != b->case_value || a->target != b->target || a->stream != b->stream ||
        a->sync_flags != b->sync_flags || a->return_type != b->return_type ||
        memcmp(a->compare, b->compare, sizeof(a->compare)) ||
        a->resource_dimension != b->resource_dimension ||
        a->resource_stride != b->resource_stride ||
        memcmp(a->resource_return_type, b->resource_return_type,
               sizeof(a->resource_return_type)))
        return false;
    for (uint32_t i = 0; i < a->dst_count; i++)
        if (!same_operand(&a->dst[i], &b->dst[i]))
            return false;
    for (uint32_t i = 0; i < a->src_count; i++)
        if (!same_operand(&a->src[i], &b->src[i]))
            return false;
    return true;
}

/* Functions and instructions field by field; the declarations through the print. */
static inline bool same_program(const struct sb_ir_program *a, const struct sb_ir_program *b)
{
    if (a->function_count != b->function_count || a->icb_vector_count != b->icb_vector_count ||
        (a->icb_vector_count &&
         memcmp(a->icb, b->icb, (size_t)a->icb_vector_count * 16u)))
        return false;
    for (uint32_t f = 0; f < a->function_count; f++) {
        const struct sb_ir_function *fa = &a->functions[f], *fb = &b->functions[f];
        if (fa->id != fb->id || fa->instruction_count != fb->instruction_count ||
            fa->instance_count != fb->instance_count || fa->temp_count != fb->temp_count)
            return false;
        for (uint32_t i = 0; i < fa->instruction_count; i++)
            if (!same_instruction(&fa->instructions[i], &fb->instructions[i]))
                return false;
    }
    char *ta = sb_ir_print(a), *tb = sb_ir_print(b);
    bool same = ta && tb && !strcmp(ta, tb);
    free(ta);
    free(tb);
    return same;
}

#endif
