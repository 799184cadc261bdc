/* SPDX-License-Identifier: MIT */
/*
 * fxc-syntax disassembly of decoded SM4/5 programs: the listing skeleton,
 * indentation, mnemonic suffixes and operands (docs/sm4-tokens.md §9.1 -
 * §9.9, §9.13). Declarations and custom data are printed by
 * sm4_disasm_decl.c, the header comments and footer by
 * sm4_disasm_header.c, immediates by sm4_format_imm.c.
 *
 * Everything printed comes from the decoded structs, never from a second
 * look at the tokens, so the disassembler doubles as a check that the
 * decoder kept every fact fxc shows.
 */
#include "sm4_private.h"

#include "shaderbridge/dxbc_fxc.h"

#include <stdio.h>
#include <stdlib.h>
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

/* `sync` builds its whole name from the flags and takes no operands (§2.3). */
static void print_sync(struct sb_sm4_printer *p, const struct sb_sm4_instruction *inst)
{
    uint32_t f = inst->sync_flags;
    sb_sm4_text_append(p->text, "sync");
    if (f & SB_SM4_SYNC_UAV_GROUP)
        sb_sm4_text_append(p->text, "_sat");
    if (f & SB_SM4_SYNC_UAV_GLOBAL)
        sb_sm4_text_append(p->text, "_uglobal");
    else if (f & SB_SM4_SYNC_UAV_GROUP)
        sb_sm4_text_append(p->text, "_ugroup");
    if (f & SB_SM4_SYNC_GROUP_SHARED_MEMORY)
        sb_sm4_text_append(p->text, "_g");
    if (f & SB_SM4_SYNC_THREADS_IN_GROUP)
        sb_sm4_text_append(p->text, "_t");
}

/* Mnemonic and suffixes in fxc's order (§9.8). */
static void print_mnemonic(struct sb_sm4_printer *p, const struct sb_sm4_instruction *inst,
                           const struct sb_sm4_opcode_info *info)
{
    struct sb_sm4_text *t = p->text;
    sb_sm4_text_append(t, info->name);
    if ((info->flags & SB_SM4_OPF_TEST) &&
        (inst->opcode != SB_SM4_OP_DISCARD || p->style.discard_test))
        sb_sm4_text_append(t, inst->test_nonzero ? "_nz" : "_z");
    if (inst->has_sample_offsets && p->style.aoffimmi_word)
        sb_sm4_text_append(t, "_aoffimmi");
    if (inst->has_resource_dimension || inst->has_resource_return_type)
        sb_sm4_text_append(t, "_indexable");
    if (inst->has_sample_offsets)
        sb_sm4_text_appendf(t, "(%d,%d,%d)", inst->sample_offsets[0], inst->sample_offsets[1],
                            inst->sample_offsets[2]);
    if (inst->has_resource_dimension) {
        sb_sm4_text_appendf(t, "(%s", sb_sm4_dimension_name(inst->resource_dimension));
        if (inst->resource_dimension == 12)
            sb_sm4_text_appendf(t, ", stride=%u", inst->resource_stride);
        sb_sm4_text_append(t, ")");
    }
    if (inst->has_resource_return_type)
        sb_sm4_text_appendf(t, "(%s,%s,%s,%s)",
                            sb_sm4_return_type_name(inst->resource_return_type[0]),
                            sb_sm4_return_type_name(inst->resource_return_type[1]),
                            sb_sm4_return_type_name(inst->resource_return_type[2]),
                            sb_sm4_return_type_name(inst->resource_return_type[3]));
    if ((info->flags & SB_SM4_OPF_RESINFO) && inst->return_type == 1)
        sb_sm4_text_append(t, "_rcpfloat");
    else if ((info->flags & (SB_SM4_OPF_RESINFO | SB_SM4_OPF_SAMPLEINFO)) &&
             inst->return_type != 0)
        sb_sm4_text_append(t, "_uint");
    if (inst->saturate)
        sb_sm4_text_append(t, "_sat");
    if (inst->precise_mask == 0xfu) {
        sb_sm4_text_append(t, " [precise]");
    } else if (inst->precise_mask) {
        sb_sm4_text_append(t, " [precise(");
        for (unsigned i = 0; i < 4; i++)
            if (inst->precise_mask & (1u << i))
                sb_sm4_text_appendf(t, "%c", component_letters[i]);
        sb_sm4_text_append(t, ")]");
    }
}

static void print_instruction(struct sb_sm4_printer *p, const struct sb_sm4_instruction *inst,
                              const struct sb_sm4_opcode_info *info)
{
    if (info->flags & SB_SM4_OPF_SYNC) {
        print_sync(p, inst);
        return;
    }
    print_mnemonic(p, inst, info);
    sb_sm4_text_append(p->text, " ");
    uint32_t dst_precision = inst->dst_count ? inst->operands[0].min_precision : 0;
    for (uint32_t i = 0; i < inst->operand_count; i++) {
        const struct sb_sm4_operand *op = &inst->operands[i];
        if (i)
            sb_sm4_text_append(p->text, ", ");
        char cls = info->classes[i] ? info->classes[i] : 'i';
        sb_sm4_print_operand(p, op, cls);
        if (info->flags & SB_SM4_OPF_FCALL)
            sb_sm4_text_appendf(p->text, "[%u]", inst->call_site);
        if (i < inst->dst_count) {
            if (op->min_precision)
                sb_sm4_text_appendf(p->text, " {%s}", sb_sm4_precision_name(op->min_precision));
        } else if (op->min_precision != dst_precision) {
            sb_sm4_text_appendf(p->text, " {%s as %s}", sb_sm4_precision_name(op->min_precision),
                                sb_sm4_precision_name(dst_precision));
        }
    }
}

static const char *const stage_names[] = { "ps", "vs", "gs", "hs", "ds", "cs" };

/* One listing line (several for the ICB) at nesting level `*level`. */
static void print_line(struct sb_sm4_printer *p, const struct sb_sm4_instruction *inst,
                       unsigned *level, uint32_t flags)
{
    const struct sb_sm4_opcode_info *info = sb_sm4_opcode_info(inst->opcode);
    uint32_t op_flags = info ? info->flags : 0;
    if ((op_flags & (SB_SM4_OPF_DEDENT | SB_SM4_OPF_ELSE)) && *level > 0)
        (*level)--;
    unsigned indent = (op_flags & (SB_SM4_OPF_DECL | SB_SM4_OPF_LEVEL0)) ? 0 : *level * 2;
    if (flags & SB_SM4_DISASM_OFFSETS)
        sb_sm4_text_appendf(p->text, "0x%08llx: ", (unsigned long long)inst->offset);
    sb_sm4_text_spaces(p->text, indent);
    if (inst->is_custom_data)
        sb_sm4_print_custom_data(p, inst, indent);
    else if (inst->is_declaration)
        sb_sm4_print_declaration(p, inst);
    else if (info)
        print_instruction(p, inst, info);
    sb_sm4_text_append(p->text, "\n");
    if (op_flags & (SB_SM4_OPF_INDENT | SB_SM4_OPF_ELSE))
        (*level)++;
}

enum sb_result sb_sm4_disassemble(const struct sb_sm4_program *program,
                                  const struct sb_dxbc *container, uint32_t flags,
                                  char **text, struct sb_error *error)
{
    if (text)
        *text = NULL;
    if (!program || !text || program->program_type > 5) {
        if (error) {
            *error = (struct sb_error){ SB_ERROR_INVALID_ARGUMENT, 0, UINT32_MAX, "" };
            snprintf(error->message, sizeof(error->message),
                     "sb_sm4_disassemble: NULL program or text pointer, or a program type "
                     "above 5");
        }
        return SB_ERROR_INVALID_ARGUMENT;
    }
    struct sb_sm4_text out = { 0 };
    const char *creator = NULL;
    if (container) {
        const struct sb_dxbc_part *rdef = sb_dxbc_find_part(container, SB_FOURCC('R', 'D', 'E', 'F'));
        if (rdef && rdef->decoded.rdef)
            creator = rdef->decoded.rdef->creator;
    }
    struct sb_sm4_printer p = { .text = &out, .program = program,
                                .style = sb_sm4_style_from_creator(creator),
                                .is_sm51 = program->major == 5 && program->minor >= 1 };
    if (!(flags & SB_SM4_DISASM_NO_HEADER) && container)
        sb_sm4_print_header(&p, container);
    sb_sm4_text_appendf(&out, "%s_%u_%u\n", stage_names[program->program_type], program->major,
                        program->minor);
    unsigned level = 0;
    for (uint32_t i = 0; i < program->instruction_count; i++)
        print_line(&p, &program->instructions[i], &level, flags);
    if (!(flags & SB_SM4_DISASM_NO_HEADER))
        sb_sm4_print_footer(&p, container);
    if (out.failed || !out.data) {
        free(out.data);
        if (error) {
            *error = (struct sb_error){ SB_ERROR_OUT_OF_MEMORY, 0, UINT32_MAX, "" };
            snprintf(error->message, sizeof(error->message),
                     "out of memory building the listing");
        }
        return SB_ERROR_OUT_OF_MEMORY;
    }
    *text = out.data;
    return SB_SUCCESS;
}

void sb_sm4_text_free(char *text)
{
    free(text);
}
