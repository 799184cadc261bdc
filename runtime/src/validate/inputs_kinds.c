/* SPDX-License-Identifier: MIT */
/*
 * Word kinds of constant buffers and structured buffers from the RDEF part:
 * which 32-bit words hold floats, ints, uints, bools or halves of doubles.
 * Input generation fills each word with a value of its kind (loop counts and
 * indices stay small, floats stay finite) and comparison picks its rule by
 * it. A word no variable covers keeps the caller's default kind.
 */
#include "inputs_private.h"

#include <string.h>

#include "shaderbridge/dxbc.h"
#include "shaderbridge/dxbc_fxc.h"
#include "translator/ir.h"

/* D3D_SHADER_VARIABLE_TYPE values (../shared/docs/dxcontainer.md, RDEF types). */
enum {
    SVT_BOOL = 1, SVT_INT = 2, SVT_FLOAT = 3, SVT_UINT = 19, SVT_DOUBLE = 39,
    SVT_MIN8FLOAT = 50, SVT_MIN10FLOAT = 51, SVT_MIN16FLOAT = 52, SVT_MIN12INT = 53,
    SVT_MIN16INT = 54, SVT_MIN16UINT = 55,
};
enum { CT_CBUFFER = 0, CT_RESOURCE_BIND_INFO = 3 };
enum { SIT_CBUFFER = 0, SIT_STRUCTURED = 5, SIT_UAV_RWSTRUCTURED = 6,
       SIT_UAV_APPEND_STRUCTURED = 9, SIT_UAV_CONSUME_STRUCTURED = 10,
       SIT_UAV_RWSTRUCTURED_WITH_COUNTER = 11 };

static uint8_t scalar_kind(uint32_t variable_type)
{
    switch (variable_type) {
    case SVT_BOOL: return SB_RT_WORD_BOOL;
    case SVT_INT: case SVT_MIN12INT: case SVT_MIN16INT: return SB_RT_WORD_INT;
    case SVT_UINT: case SVT_MIN16UINT: return SB_RT_WORD_UINT;
    case SVT_FLOAT: case SVT_MIN8FLOAT: case SVT_MIN10FLOAT: case SVT_MIN16FLOAT:
        return SB_RT_WORD_FLOAT;
    case SVT_DOUBLE: return SB_RT_WORD_DOUBLE_LOW;
    default: return SB_RT_WORD_UNKNOWN;
    }
}

static void fill_range(uint8_t *kinds, uint32_t word_count, uint64_t start, uint64_t bytes,
                       uint8_t kind)
{
    for (uint64_t b = start & ~(uint64_t)3; b < start + bytes; b += 4) {
        uint64_t w = b / 4;
        if (w >= word_count)
            return;
        if (kind == SB_RT_WORD_DOUBLE_LOW)
            kinds[w] = (w - start / 4) % 2 ? SB_RT_WORD_DOUBLE_HIGH : SB_RT_WORD_DOUBLE_LOW;
        else
            kinds[w] = kind;
    }
}

/* Types nest at most a few levels in practice; the bound keeps a hostile RDEF
 * (the reader already rejects cycles) from costing more than this. */
#define MAX_DEPTH 8

static void fill_type(uint8_t *kinds, uint32_t word_count, const struct sb_dxbc_rdef_type *type,
                      uint64_t start, uint64_t bytes, unsigned depth)
{
    if (!type || depth > MAX_DEPTH || bytes == 0)
        return;
    if (!type->member_count || !type->members) {
        fill_range(kinds, word_count, start, bytes, scalar_kind(type->variable_type));
        return;
    }
    uint32_t elements = type->elements ? type->elements : 1;
    uint64_t element_bytes = bytes / elements;
    for (uint32_t e = 0; e < elements && e < 4096; e++) {
        uint64_t base = start + e * element_bytes;
        for (uint32_t m = 0; m < type->member_count; m++) {
            const struct sb_dxbc_rdef_member *member = &type->members[m];
            uint64_t end = m + 1 < type->member_count ? type->members[m + 1].byte_offset
                                                     : element_bytes;
            if (end <= member->byte_offset)
                continue;
            fill_type(kinds, word_count, member->type, base + member->byte_offset,
                      end - member->byte_offset, depth + 1);
        }
    }
}

static const struct sb_dxbc_rdef *find_rdef(const struct sb_dxbc *container)
{
    if (!container)
        return NULL;
    const struct sb_dxbc_part *part = sb_dxbc_find_part(container, SB_FOURCC('R', 'D', 'E', 'F'));
    return part ? part->decoded.rdef : NULL;
}

static const struct sb_dxbc_rdef_binding *find_binding(const struct sb_dxbc_rdef *rdef,
                                                       bool cbuffer, uint32_t space,
                                                       uint32_t lower_bound)
{
    for (uint32_t i = 0; i < rdef->binding_count; i++) {
        const struct sb_dxbc_rdef_binding *b = &rdef->bindings[i];
        bool is_cbuffer = b->input_type == SIT_CBUFFER;
        bool is_structured = b->input_type == SIT_STRUCTURED || b->input_type == SIT_UAV_RWSTRUCTURED ||
                             b->input_type == SIT_UAV_APPEND_STRUCTURED ||
                             b->input_type == SIT_UAV_CONSUME_STRUCTURED ||
                             b->input_type == SIT_UAV_RWSTRUCTURED_WITH_COUNTER;
        if ((cbuffer ? is_cbuffer : is_structured) && b->bind_point == lower_bound &&
            b->space == space && b->name)
            return b;
    }
    return NULL;
}

static const struct sb_dxbc_rdef_cbuffer *find_cbuffer(const struct sb_dxbc_rdef *rdef,
                                                       const char *name, uint32_t type)
{
    for (uint32_t i = 0; i < rdef->cbuffer_count; i++)
        if (rdef->cbuffers[i].type == type && rdef->cbuffers[i].name &&
            strcmp(rdef->cbuffers[i].name, name) == 0)
            return &rdef->cbuffers[i];
    return NULL;
}

bool sb_rt_kinds_from_rdef(const struct sb_dxbc *container, const struct sb_ir_resource *r,
                           uint8_t *kinds, uint32_t word_count)
{
    const struct sb_dxbc_rdef *rdef = find_rdef(container);
    if (!rdef)
        return false;
    bool cbuffer = r->resource_class == SB_IR_RESOURCE_CBV;
    const struct sb_dxbc_rdef_binding *binding = find_binding(rdef, cbuffer, r->space, r->lower_bound);
    if (!binding)
        return false;
    const struct sb_dxbc_rdef_cbuffer *cb =
        find_cbuffer(rdef, binding->name, cbuffer ? CT_CBUFFER : CT_RESOURCE_BIND_INFO);
    if (!cb || !cb->variable_count)
        return false;
    if (cbuffer) {
        for (uint32_t v = 0; v < cb->variable_count; v++) {
            const struct sb_dxbc_rdef_variable *var = &cb->variables[v];
            fill_type(kinds, word_count, var->type, var->start_offset, var->size, 0);
        }
        return true;
    }
    /* A structured buffer: one "$Element" variable of `stride` bytes, repeated. */
    uint32_t stride = r->stride;
    if (!stride || stride % 4)
        return false;
    const struct sb_dxbc_rdef_variable *element = &cb->variables[0];
    uint32_t stride_words = stride / 4;
    if (stride_words > word_count)
        return false;
    fill_type(kinds, stride_words, element->type, 0, stride, 0);
    for (uint32_t w = stride_words; w < word_count; w++)
        kinds[w] = kinds[w % stride_words];
    return true;
}

/* Marks the lanes `op` reads from cb#`id` with the kind of the slot that reads them. */
static void mark_cbuffer_use(const struct sb_ir_operand *op, uint32_t slot_type, uint32_t id,
                             uint32_t dst_mask, uint8_t *kinds, uint32_t word_count)
{
    if (op->file != SB_IR_FILE_CONSTANT_BUFFER || op->index_count < 2 || op->index[0].offset != id)
        return;
    const struct sb_ir_index *vector = &op->index[op->index_count - 1];
    if (vector->relative)
        return; /* a dynamically indexed array: its elements keep the default */
    uint8_t kind = slot_type == SB_IR_TYPE_FLOAT ? SB_RT_WORD_FLOAT
                   : slot_type == SB_IR_TYPE_INT ? SB_RT_WORD_INT
                   : slot_type == SB_IR_TYPE_UINT || slot_type == SB_IR_TYPE_BOOL ? SB_RT_WORD_UINT
                   : SB_RT_WORD_UNKNOWN;
    if (kind == SB_RT_WORD_UNKNOWN)
        return;
    for (uint32_t lane = 0; lane < 4; lane++) {
        if (!(dst_mask & (1u << lane)))
            continue;
        uint64_t w = (uint64_t)vector->offset * 4 + op->swizzle[lane];
        /* An integer use wins: counts and indices must stay small. */
        if (w < word_count && (kinds[w] == SB_RT_WORD_FLOAT || kind != SB_RT_WORD_FLOAT))
            kinds[w] = kinds[w] == SB_RT_WORD_INT || kinds[w] == SB_RT_WORD_UINT ? kinds[w] : kind;
    }
}

/* Relative indices read their lane as an unsigned index. */
static void mark_relative_indices(const struct sb_ir_operand *op, uint32_t id, uint8_t *kinds,
                                  uint32_t word_count, unsigned depth)
{
    for (uint32_t i = 0; i < op->index_count && depth < 4; i++) {
        const struct sb_ir_operand *rel = op->index[i].relative;
        if (!rel)
            continue;
        mark_cbuffer_use(rel, SB_IR_TYPE_UINT, id, 1, kinds, word_count);
        mark_relative_indices(rel, id, kinds, word_count, depth + 1);
    }
}

void sb_rt_kinds_from_usage(const struct sb_ir_program *ir, const struct sb_ir_resource *r,
                            uint8_t *kinds, uint32_t word_count)
{
    for (uint32_t f = 0; f < ir->function_count; f++) {
        const struct sb_ir_function *fn = &ir->functions[f];
        for (uint32_t n = 0; n < fn->instruction_count; n++) {
            const struct sb_ir_instruction *inst = &fn->instructions[n];
            const struct sb_ir_op_info *info = sb_ir_op_info(inst->op);
            if (!info)
                continue;
            uint32_t mask = inst->dst_count ? inst->dst[0].mask : 1;
            if (!mask || info->control_flow)
                mask = 1; /* conditions and selectors read one lane */
            for (uint32_t k = 0; k < inst->src_count && k < SB_IR_OP_MAX_SOURCES; k++) {
                mark_cbuffer_use(&inst->src[k], info->src_type[k], r->id, mask, kinds, word_count);
                mark_relative_indices(&inst->src[k], r->id, kinds, word_count, 0);
            }
            for (uint32_t k = 0; k < inst->dst_count; k++)
                mark_relative_indices(&inst->dst[k], r->id, kinds, word_count, 0);
        }
    }
}
