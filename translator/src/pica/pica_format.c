/* SPDX-License-Identifier: MIT */
/*
 * One PICA200 instruction as picasso-syntax text (../shared/docs/pica200.md §4-§6).
 * The disassembler builds on the operand part (pica_format_operands) and
 * adds labels and block structure itself; sb_pica_format_instruction() is
 * the context-free form, with flow targets written as "@address, count"
 * (informative: picasso has no syntax for raw branch fields).
 */
#include <stdio.h>
#include <string.h>

#include "pica_format.h"

/* Source text: [-]name[[idx]][.swizzle]; name_of may rename float uniforms. */
void pica_format_source(const struct sb_pica_source *source, const struct pica_names *names,
                        char *buffer, size_t size)
{
    char reg[64];
    char swizzle[8];
    if (names && names->float_name && source->file == SB_PICA_REG_FLOAT &&
        names->float_name(names->context, source->index, reg, sizeof(reg))) {
        /* renamed by the caller */
    } else {
        pica_register_name(source->file, source->index, reg, sizeof(reg));
    }
    pica_swizzle_text(source->swizzle, swizzle, sizeof(swizzle));
    const char *rel = pica_relative_name(source->relative);
    if (*rel) {
        /* An alias may already end in "[n]": fold the index into it. */
        size_t len = strlen(reg);
        if (len > 0 && reg[len - 1] == ']') {
            reg[len - 1] = '\0';
            char *open = strrchr(reg, '[');
            if (open) {
                *open = '\0';
                bool zero = !strcmp(open + 1, "0");
                snprintf(buffer, size, "%s%s[%s%s%s]%s", source->negate ? "-" : "", reg, rel,
                         zero ? "" : "+", zero ? "" : open + 1, swizzle);
                return;
            }
        }
        snprintf(buffer, size, "%s%s[%s]%s", source->negate ? "-" : "", reg, rel, swizzle);
    } else {
        snprintf(buffer, size, "%s%s%s", source->negate ? "-" : "", reg, swizzle);
    }
}

static void format_destination(const struct sb_pica_instruction *in, char *buffer, size_t size)
{
    char reg[16];
    char mask[8];
    pica_register_name(in->dst.file, in->dst.index, reg, sizeof(reg));
    pica_mask_text(in->dst.mask, mask, sizeof(mask));
    snprintf(buffer, size, "%s%s", reg, mask);
}

/* "a0", "a1", "a01" for the masks picasso can spell; "a0.<mask>" otherwise. */
static void format_mova_target(uint8_t mask, char *buffer, size_t size)
{
    switch (mask & 0xFu) {
    case 0x8: snprintf(buffer, size, "a0"); return;
    case 0x4: snprintf(buffer, size, "a1"); return;
    case 0xC: snprintf(buffer, size, "a01"); return;
    default: {
        char text[8];
        pica_mask_text(mask, text, sizeof(text));
        snprintf(buffer, size, "a0%s", (mask & 0xFu) ? (*text ? text : ".xyzw") : ".none");
        return;
    }
    }
}

/* Mnemonic the assembler maps back to the same format (see pica_asm_instr.c). */
const char *pica_format_mnemonic(const struct sb_pica_instruction *in)
{
    const struct pica_opcode_info *info = pica_opcode_info(in->opcode);
    const char *name = info ? info->name : "?";
    switch (in->opcode) {
    case SB_PICA_OP_DPHI:
    case SB_PICA_OP_DSTI:
    case SB_PICA_OP_SGEI:
    case SB_PICA_OP_SLTI:
        /* auto-detection picks the inverted form only for a wide SRC2 */
        if (in->src[1].file == SB_PICA_REG_FLOAT && in->src[0].file != SB_PICA_REG_FLOAT)
            return in->opcode == SB_PICA_OP_DPHI   ? "dph"
                   : in->opcode == SB_PICA_OP_DSTI ? "dst"
                   : in->opcode == SB_PICA_OP_SGEI ? "sge"
                                                   : "slt";
        return name;
    case SB_PICA_OP_MADI:
        return in->src[2].file == SB_PICA_REG_FLOAT ? "mad" : "madi";
    default:
        return name;
    }
}

size_t pica_format_operands(const struct sb_pica_instruction *in, const struct pica_names *names,
                            char *buffer, size_t size)
{
    char d[32], s[3][96], target[16];
    for (uint32_t n = 0; n < in->source_count && n < 3; ++n)
        pica_format_source(&in->src[n], names, s[n], sizeof(s[n]));
    const char *mnemonic = pica_format_mnemonic(in);
    switch (in->format) {
    case SB_PICA_FORMAT_1:
    case SB_PICA_FORMAT_1I:
        format_destination(in, d, sizeof(d));
        return (size_t)snprintf(buffer, size, "%s %s, %s, %s", mnemonic, d, s[0], s[1]);
    case SB_PICA_FORMAT_1U:
        if (in->opcode == SB_PICA_OP_MOVA) {
            format_mova_target(in->dst.mask, target, sizeof(target));
            return (size_t)snprintf(buffer, size, "mova %s, %s", target, s[0]);
        }
        format_destination(in, d, sizeof(d));
        return (size_t)snprintf(buffer, size, "%s %s, %s", mnemonic, d, s[0]);
    case SB_PICA_FORMAT_1C:
        return (size_t)snprintf(buffer, size, "cmp %s, %s, %s, %s", s[0],
                                pica_compare_name(in->compare_x), pica_compare_name(in->compare_y),
                                s[1]);
    case SB_PICA_FORMAT_5:
    case SB_PICA_FORMAT_5I:
        format_destination(in, d, sizeof(d));
        return (size_t)snprintf(buffer, size, "%s %s, %s, %s, %s", mnemonic, d, s[0], s[1], s[2]);
    case SB_PICA_FORMAT_4:
        return (size_t)snprintf(buffer, size, "setemit %u%s%s%s", (unsigned)in->vertex_id,
                                (in->primitive || in->winding) ? ", " : "",
                                in->primitive ? (in->winding ? "prim " : "prim") : "",
                                in->winding ? "inv" : "");
    default:
        return (size_t)snprintf(buffer, size, "%s", mnemonic);
    }
}

size_t sb_pica_format_instruction(const struct sb_pica_instruction *instruction, char *buffer,
                                  size_t size)
{
    char scratch[1];
    if (!buffer || size == 0) {
        buffer = scratch;
        size = sizeof(scratch);
    }
    if (!instruction) {
        buffer[0] = '\0';
        return 0;
    }
    const struct sb_pica_instruction *in = instruction;
    char cond[48];
    const char *name = sb_pica_opcode_name(in->opcode);
    if (!name)
        return (size_t)snprintf(buffer, size, ".word 0x%08X", (unsigned)in->word);
    switch (in->format) {
    case SB_PICA_FORMAT_2:
        pica_condition_text(in, cond, sizeof(cond));
        if (in->opcode == SB_PICA_OP_BREAKC)
            return (size_t)snprintf(buffer, size, "breakc %s", cond);
        if (in->opcode == SB_PICA_OP_CALL)
            return (size_t)snprintf(buffer, size, "call @%u, %u", (unsigned)in->flow_dest,
                                    (unsigned)in->flow_num);
        return (size_t)snprintf(buffer, size, "%s %s, @%u, %u", name, cond,
                                (unsigned)in->flow_dest, (unsigned)in->flow_num);
    case SB_PICA_FORMAT_3:
        if (in->opcode == SB_PICA_OP_LOOP)
            return (size_t)snprintf(buffer, size, "for i%u, @%u", (unsigned)in->int_id,
                                    (unsigned)in->flow_dest);
        if (in->opcode == SB_PICA_OP_JMPU)
            return (size_t)snprintf(buffer, size, "jmpu %sb%u, @%u", in->jmpu_inverted ? "!" : "",
                                    (unsigned)in->bool_id, (unsigned)in->flow_dest);
        return (size_t)snprintf(buffer, size, "%s b%u, @%u, %u", name, (unsigned)in->bool_id,
                                (unsigned)in->flow_dest, (unsigned)in->flow_num);
    default:
        return pica_format_operands(in, NULL, buffer, size);
    }
}
