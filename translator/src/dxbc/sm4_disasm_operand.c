/* SPDX-License-Identifier: MIT */
/*
 * Operands in fxc syntax (../shared/docs/sm4-tokens.md §5, §9.4 - §9.6): register names
 * and prefixes, indices, component selections, immediates, and the names of
 * precisions, return types and dimensions. Below both the instruction printer
 * (sm4_disasm.c) and the declaration printer (sm4_disasm_decl.c), which call it.
 */
#include "sm4_private.h"

#include <stdio.h>
#include <string.h>

static const char component_letters[4] = { 'x', 'y', 'z', 'w' };

/* Special registers printed by name alone (§5.3); NULL for indexed types. */
static const char *const special_names[SB_SM4_OPERAND_TYPE_COUNT] = {
    [SB_SM4_OPERAND_INPUT_PRIMITIVEID] = "vPrim",
    [SB_SM4_OPERAND_OUTPUT_DEPTH] = "oDepth",
    [SB_SM4_OPERAND_NULL] = "null",
    [SB_SM4_OPERAND_RASTERIZER] = "rasterizer",
    [SB_SM4_OPERAND_OUTPUT_COVERAGE_MASK] = "oMask",
    [SB_SM4_OPERAND_OUTPUT_CONTROL_POINT_ID] = "vOutputControlPointID",
    [SB_SM4_OPERAND_INPUT_FORK_INSTANCE_ID] = "vForkInstanceID",
    [SB_SM4_OPERAND_INPUT_JOIN_INSTANCE_ID] = "vJoinInstanceID",
    [SB_SM4_OPERAND_INPUT_DOMAIN_POINT] = "vDomain",
    [SB_SM4_OPERAND_INPUT_THREAD_ID] = "vThreadID",
    [SB_SM4_OPERAND_INPUT_THREAD_GROUP_ID] = "vThreadGroupID",
    [SB_SM4_OPERAND_INPUT_THREAD_ID_IN_GROUP] = "vThreadIDInGroup",
    [SB_SM4_OPERAND_INPUT_COVERAGE_MASK] = "vCoverage",
    [SB_SM4_OPERAND_INPUT_THREAD_ID_IN_GROUP_FLATTENED] = "vThreadIDInGroupFlattened",
    [SB_SM4_OPERAND_INPUT_GS_INSTANCE_ID] = "vGSInstanceID",
    [SB_SM4_OPERAND_OUTPUT_DEPTH_GREATER_EQUAL] = "oDepthGE",
    [SB_SM4_OPERAND_OUTPUT_DEPTH_LESS_EQUAL] = "oDepthLE",
    [SB_SM4_OPERAND_CYCLE_COUNTER] = "vCycleCounter",
    [SB_SM4_OPERAND_OUTPUT_STENCIL_REF] = "oStencilRef",
    [SB_SM4_OPERAND_INNER_COVERAGE] = "vInnerCoverage",
};

/* Prefixes of indexed registers; SM5.1 spells descriptors in upper case. */
static const char *register_prefix(uint32_t type, bool is_sm51)
{
    switch (type) {
    case SB_SM4_OPERAND_TEMP: return "r";
    case SB_SM4_OPERAND_INPUT: return "v";
    case SB_SM4_OPERAND_OUTPUT: return "o";
    case SB_SM4_OPERAND_INDEXABLE_TEMP: return "x";
    case SB_SM4_OPERAND_SAMPLER: return is_sm51 ? "S" : "s";
    case SB_SM4_OPERAND_RESOURCE: return is_sm51 ? "T" : "t";
    case SB_SM4_OPERAND_CONSTANT_BUFFER: return is_sm51 ? "CB" : "cb";
    case SB_SM4_OPERAND_IMMEDIATE_CONSTANT_BUFFER: return "icb";
    case SB_SM4_OPERAND_LABEL: return "l";
    case SB_SM4_OPERAND_STREAM: return "m";
    case SB_SM4_OPERAND_FUNCTION_BODY: return "fb";
    case SB_SM4_OPERAND_FUNCTION_TABLE: return "ft";
    case SB_SM4_OPERAND_INTERFACE: return "fp";
    case SB_SM4_OPERAND_FUNCTION_INPUT: return "fi";
    case SB_SM4_OPERAND_FUNCTION_OUTPUT: return "fo";
    case SB_SM4_OPERAND_INPUT_CONTROL_POINT: return "vicp";
    case SB_SM4_OPERAND_OUTPUT_CONTROL_POINT: return "vocp";
    case SB_SM4_OPERAND_INPUT_PATCH_CONSTANT: return "vpc";
    case SB_SM4_OPERAND_THIS_POINTER: return "this";
    case SB_SM4_OPERAND_UAV: return is_sm51 ? "U" : "u";
    case SB_SM4_OPERAND_THREAD_GROUP_SHARED_MEMORY: return "g";
    default: return special_names[type] ? special_names[type] : "?";
    }
}

/* Registers whose every index is bracketed, the first included (§9.4). */
static bool brackets_all_indices(const struct sb_sm4_operand *op)
{
    switch (op->type) {
    case SB_SM4_OPERAND_INPUT:
        return op->index_dimension == 2;
    case SB_SM4_OPERAND_INPUT_CONTROL_POINT:
    case SB_SM4_OPERAND_OUTPUT_CONTROL_POINT:
    case SB_SM4_OPERAND_IMMEDIATE_CONSTANT_BUFFER:
    case SB_SM4_OPERAND_THIS_POINTER:
        return true;
    default:
        return op->type < SB_SM4_OPERAND_TYPE_COUNT && special_names[op->type] != NULL;
    }
}

static void print_index(struct sb_sm4_printer *p, const struct sb_sm4_index *index, bool inline_ok)
{
    if (!index->relative) {
        sb_sm4_text_appendf(p->text, inline_ok ? "%llu" : "[%llu]",
                            (unsigned long long)index->value);
        return;
    }
    sb_sm4_text_append(p->text, "[");
    sb_sm4_print_operand(p, index->relative, 'i');
    sb_sm4_text_appendf(p->text, " + %llu]", (unsigned long long)index->value);
}

void sb_sm4_print_register(struct sb_sm4_printer *p, const struct sb_sm4_operand *op)
{
    sb_sm4_text_append(p->text, register_prefix(op->type, p->is_sm51));
    bool all = brackets_all_indices(op);
    for (uint32_t i = 0; i < op->index_dimension; i++)
        print_index(p, &op->index[i], i == 0 && !all);
}

void sb_sm4_print_components(struct sb_sm4_printer *p, const struct sb_sm4_operand *op)
{
    if (op->component_count != 4)
        return;
    char suffix[6];
    unsigned n = 0;
    suffix[n++] = '.';
    if (op->selection == SB_SM4_SELECT_MASK) {
        for (unsigned i = 0; i < 4; i++)
            if (op->mask & (1u << i))
                suffix[n++] = component_letters[i];
        if (n == 1)
            return;
    } else if (op->selection == SB_SM4_SELECT_SWIZZLE) {
        for (unsigned i = 0; i < 4; i++)
            suffix[n++] = component_letters[op->swizzle[i] & 3u];
    } else {
        suffix[n++] = component_letters[op->swizzle[0] & 3u];
    }
    suffix[n] = 0;
    sb_sm4_text_append(p->text, suffix);
}

static void print_immediate(struct sb_sm4_printer *p, const struct sb_sm4_operand *op,
                            char print_class)
{
    bool old = p->style.old_rounding;
    if (op->type == SB_SM4_OPERAND_IMMEDIATE64) {
        sb_sm4_text_append(p->text, "d(");
        for (uint32_t i = 0; i + 1 < op->immediate_count; i += 2) {
            uint64_t bits = (uint64_t)op->immediate[i + 1] << 32 | op->immediate[i];
            if (i)
                sb_sm4_text_append(p->text, ", ");
            sb_sm4_format_double(p->text, bits, old);
            sb_sm4_text_append(p->text, "l");
        }
        sb_sm4_text_append(p->text, ")");
        return;
    }
    char cls = print_class == 'd' ? 'a' : print_class;
    sb_sm4_text_append(p->text, "l(");
    for (uint32_t i = 0; i < op->immediate_count; i++) {
        if (i)
            sb_sm4_text_append(p->text, cls == 'a' ? "," : ", ");
        sb_sm4_format_value(p->text, op->immediate[i], cls, old);
    }
    sb_sm4_text_append(p->text, ")");
}

void sb_sm4_print_operand(struct sb_sm4_printer *p, const struct sb_sm4_operand *op,
                          char print_class)
{
    bool neg = op->modifier == SB_SM4_MODIFIER_NEG || op->modifier == SB_SM4_MODIFIER_ABS_NEG;
    bool abs = op->modifier == SB_SM4_MODIFIER_ABS || op->modifier == SB_SM4_MODIFIER_ABS_NEG;
    if (neg)
        sb_sm4_text_append(p->text, "-");
    if (abs)
        sb_sm4_text_append(p->text, "|");
    if (op->type == SB_SM4_OPERAND_IMMEDIATE32 || op->type == SB_SM4_OPERAND_IMMEDIATE64) {
        print_immediate(p, op, print_class);
    } else {
        sb_sm4_print_register(p, op);
        sb_sm4_print_components(p, op);
    }
    if (abs)
        sb_sm4_text_append(p->text, "|");
}

const char *sb_sm4_precision_name(uint32_t min_precision)
{
    switch (min_precision) {
    case SB_SM4_MIN_PRECISION_DEFAULT: return "def32";
    case SB_SM4_MIN_PRECISION_FLOAT16: return "min16f";
    case SB_SM4_MIN_PRECISION_FLOAT_2_8: return "min2_8f";
    case SB_SM4_MIN_PRECISION_SINT16: return "min16i";
    case SB_SM4_MIN_PRECISION_UINT16: return "min16u";
    default: return "min_unknown";
    }
}

static const char *const return_type_names[] = {
    "<unknown>", "unorm", "snorm", "sint", "uint", "float", "mixed", "double", "<continued>",
    "<unused>",
};

const char *sb_sm4_return_type_name(uint32_t type)
{
    return type < sizeof(return_type_names) / sizeof(return_type_names[0])
               ? return_type_names[type] : "<unknown>";
}

static const char *const dimension_names[] = {
    "unknown", "buffer", "texture1d", "texture2d", "texture2dms", "texture3d", "texturecube",
    "texture1darray", "texture2darray", "texture2dmsarray", "texturecubearray", "raw_buffer",
    "structured_buffer",
};

const char *sb_sm4_dimension_name(uint32_t dimension)
{
    return dimension < sizeof(dimension_names) / sizeof(dimension_names[0])
               ? dimension_names[dimension] : "unknown";
}
