/* SPDX-License-Identifier: MIT */
/*
 * The PICA200 opcode table (../shared/docs/pica200.md §6.2), one row per folded opcode,
 * and the small text helpers (register, swizzle, mask, condition names) that
 * the disassembler, the single-instruction formatter and the assembler's
 * error messages share, so both directions spell operands the same way.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "pica_private.h"
#include "error.h"

static const struct pica_opcode_info opcode_table[] = {
    {SB_PICA_OP_ADD, "add", SB_PICA_FORMAT_1, 2, true},
    {SB_PICA_OP_DP3, "dp3", SB_PICA_FORMAT_1, 2, true},
    {SB_PICA_OP_DP4, "dp4", SB_PICA_FORMAT_1, 2, true},
    {SB_PICA_OP_DPH, "dph", SB_PICA_FORMAT_1, 2, true},
    {SB_PICA_OP_DST, "dst", SB_PICA_FORMAT_1, 2, true},
    {SB_PICA_OP_EX2, "ex2", SB_PICA_FORMAT_1U, 1, true},
    {SB_PICA_OP_LG2, "lg2", SB_PICA_FORMAT_1U, 1, true},
    {SB_PICA_OP_LITP, "litp", SB_PICA_FORMAT_1U, 1, true},
    {SB_PICA_OP_MUL, "mul", SB_PICA_FORMAT_1, 2, true},
    {SB_PICA_OP_SGE, "sge", SB_PICA_FORMAT_1, 2, true},
    {SB_PICA_OP_SLT, "slt", SB_PICA_FORMAT_1, 2, true},
    {SB_PICA_OP_FLR, "flr", SB_PICA_FORMAT_1U, 1, true},
    {SB_PICA_OP_MAX, "max", SB_PICA_FORMAT_1, 2, true},
    {SB_PICA_OP_MIN, "min", SB_PICA_FORMAT_1, 2, true},
    {SB_PICA_OP_RCP, "rcp", SB_PICA_FORMAT_1U, 1, true},
    {SB_PICA_OP_RSQ, "rsq", SB_PICA_FORMAT_1U, 1, true},
    {SB_PICA_OP_MOVA, "mova", SB_PICA_FORMAT_1U, 1, true},
    {SB_PICA_OP_MOV, "mov", SB_PICA_FORMAT_1U, 1, true},
    {SB_PICA_OP_DPHI, "dphi", SB_PICA_FORMAT_1I, 2, true},
    {SB_PICA_OP_DSTI, "dsti", SB_PICA_FORMAT_1I, 2, true},
    {SB_PICA_OP_SGEI, "sgei", SB_PICA_FORMAT_1I, 2, true},
    {SB_PICA_OP_SLTI, "slti", SB_PICA_FORMAT_1I, 2, true},
    {SB_PICA_OP_BREAK, "break", SB_PICA_FORMAT_0, 0, false},
    {SB_PICA_OP_NOP, "nop", SB_PICA_FORMAT_0, 0, false},
    {SB_PICA_OP_END, "end", SB_PICA_FORMAT_0, 0, false},
    {SB_PICA_OP_BREAKC, "breakc", SB_PICA_FORMAT_2, 0, false},
    {SB_PICA_OP_CALL, "call", SB_PICA_FORMAT_2, 0, false},
    {SB_PICA_OP_CALLC, "callc", SB_PICA_FORMAT_2, 0, false},
    {SB_PICA_OP_CALLU, "callu", SB_PICA_FORMAT_3, 0, false},
    {SB_PICA_OP_IFU, "ifu", SB_PICA_FORMAT_3, 0, false},
    {SB_PICA_OP_IFC, "ifc", SB_PICA_FORMAT_2, 0, false},
    {SB_PICA_OP_LOOP, "for", SB_PICA_FORMAT_3, 0, false},
    {SB_PICA_OP_EMIT, "emit", SB_PICA_FORMAT_0, 0, false},
    {SB_PICA_OP_SETEMIT, "setemit", SB_PICA_FORMAT_4, 0, false},
    {SB_PICA_OP_JMPC, "jmpc", SB_PICA_FORMAT_2, 0, false},
    {SB_PICA_OP_JMPU, "jmpu", SB_PICA_FORMAT_3, 0, false},
    {SB_PICA_OP_CMP, "cmp", SB_PICA_FORMAT_1C, 2, false},
    {SB_PICA_OP_MADI, "madi", SB_PICA_FORMAT_5I, 3, true},
    {SB_PICA_OP_MAD, "mad", SB_PICA_FORMAT_5, 3, true},
};

const struct pica_opcode_info *pica_opcode_info(enum sb_pica_opcode opcode)
{
    for (size_t i = 0; i < sizeof(opcode_table) / sizeof(opcode_table[0]); ++i)
        if (opcode_table[i].opcode == opcode)
            return &opcode_table[i];
    return NULL;
}

const struct pica_opcode_info *pica_opcode_by_name(const char *name, size_t length)
{
    for (size_t i = 0; i < sizeof(opcode_table) / sizeof(opcode_table[0]); ++i) {
        const char *candidate = opcode_table[i].name;
        if (strlen(candidate) == length && strncasecmp(candidate, name, length) == 0)
            return &opcode_table[i];
    }
    return NULL;
}

bool sb_pica_fold_opcode(uint32_t raw_opcode, enum sb_pica_opcode *opcode)
{
    uint32_t folded = raw_opcode & 0x3Fu;
    if (folded >= SB_PICA_OP_MAD)
        folded = SB_PICA_OP_MAD;
    else if (folded >= SB_PICA_OP_MADI)
        folded = SB_PICA_OP_MADI;
    else if (folded >= SB_PICA_OP_CMP)
        folded = SB_PICA_OP_CMP;
    if (!pica_opcode_info((enum sb_pica_opcode)folded))
        return false;
    if (opcode)
        *opcode = (enum sb_pica_opcode)folded;
    return true;
}

const char *sb_pica_opcode_name(enum sb_pica_opcode opcode)
{
    const struct pica_opcode_info *info = pica_opcode_info(opcode);
    return info ? info->name : NULL;
}

bool sb_pica_opcode_format(enum sb_pica_opcode opcode, enum sb_pica_format *format)
{
    const struct pica_opcode_info *info = pica_opcode_info(opcode);
    if (!info)
        return false;
    if (format)
        *format = info->format;
    return true;
}

void pica_text_vappend(struct pica_text *text, const char *format, va_list args)
{
    if (text->failed)
        return;
    va_list copy;
    va_copy(copy, args);
    int needed = vsnprintf(NULL, 0, format, copy);
    va_end(copy);
    if (needed < 0) {
        text->failed = true;
        return;
    }
    size_t want = text->length + (size_t)needed + 1;
    if (want > text->capacity) {
        size_t capacity = text->capacity ? text->capacity : 256;
        while (capacity < want)
            capacity *= 2;
        char *grown = realloc(text->data, capacity);
        if (!grown) {
            text->failed = true;
            return;
        }
        text->data = grown;
        text->capacity = capacity;
    }
    vsnprintf(text->data + text->length, text->capacity - text->length, format, args);
    text->length += (size_t)needed;
}

void pica_text_append(struct pica_text *text, const char *format, ...)
{
    va_list args;
    va_start(args, format);
    pica_text_vappend(text, format, args);
    va_end(args);
}

void pica_register_name(enum sb_pica_register_file file, uint32_t index, char *buffer,
                        size_t size)
{
    static const char prefixes[] = "?vrcoa";
    char prefix = (unsigned)file < sizeof(prefixes) - 1 ? prefixes[file] : '?';
    snprintf(buffer, size, "%c%u", prefix, (unsigned)index);
}

void pica_swizzle_text(uint8_t swizzle, char *buffer, size_t size)
{
    static const char lanes[] = "xyzw";
    if (size == 0)
        return;
    if (swizzle == 0x1B || size < 6) {
        buffer[0] = '\0';
        return;
    }
    buffer[0] = '.';
    for (unsigned i = 0; i < 4; ++i)
        buffer[1 + i] = lanes[(swizzle >> (6 - 2 * i)) & 3u];
    buffer[5] = '\0';
}

void pica_mask_text(uint8_t mask, char *buffer, size_t size)
{
    static const char lanes[] = "xyzw";
    if (size == 0)
        return;
    size_t at = 0;
    if ((mask & 0xFu) != 0xFu && size >= 6) {
        buffer[at++] = '.';
        for (unsigned i = 0; i < 4; ++i)
            if (mask & (8u >> i))
                buffer[at++] = lanes[i];
    }
    buffer[at] = '\0';
}

const char *pica_relative_name(enum sb_pica_relative relative)
{
    switch (relative) {
    case SB_PICA_RELATIVE_A0X: return "a0";
    case SB_PICA_RELATIVE_A0Y: return "a1";
    case SB_PICA_RELATIVE_AL: return "lcnt";
    default: return "";
    }
}

const char *pica_compare_name(enum sb_pica_compare_op op)
{
    static const char *const names[] = {"eq", "ne", "lt", "le", "gt", "ge", "6", "7"};
    return (unsigned)op < 8 ? names[op] : "?";
}

bool pica_condition_text(const struct sb_pica_instruction *instruction, char *buffer,
                         size_t size)
{
    const char *nx = instruction->refx ? "" : "!";
    const char *ny = instruction->refy ? "" : "!";
    switch (instruction->condition) {
    case SB_PICA_CONDITION_OR:
        snprintf(buffer, size, "%scmp.x || %scmp.y", nx, ny);
        return true;
    case SB_PICA_CONDITION_AND:
        snprintf(buffer, size, "%scmp.x && %scmp.y", nx, ny);
        return true;
    case SB_PICA_CONDITION_X:
        snprintf(buffer, size, "%scmp.x", nx);
        return instruction->refy;
    case SB_PICA_CONDITION_Y:
        snprintf(buffer, size, "%scmp.y", ny);
        return instruction->refx;
    default:
        snprintf(buffer, size, "?");
        return false;
    }
}

void sb_pica_free(void *pointer)
{
    free(pointer);
}
