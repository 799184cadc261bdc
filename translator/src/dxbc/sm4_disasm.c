/* SPDX-License-Identifier: MIT */
/*
 * fxc-syntax disassembly of decoded SM4/5 programs: the listing skeleton,
 * indentation, mnemonic suffixes and operands (../shared/docs/sm4-tokens.md §9.1 -
 * §9.9, §9.13). Declarations and custom data are printed by
 * sm4_disasm_decl.c, the header comments and footer by
 * sm4_disasm_header.c, operands by sm4_disasm_operand.c, immediates by
 * sm4_format_imm.c.
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
                sb_sm4_text_appendf(t, "%c", "xyzw"[i]);
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
