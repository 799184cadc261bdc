/* SPDX-License-Identifier: MIT */
/*
 * PICA200 encoder (../shared/docs/pica200.md §4-§5): the exact inverse of
 * pica_decode.c. Operands are re-encoded from file + index (not from the raw
 * field, so hand-built instructions need no raw values) and checked against
 * the field they must fit; unused_bits are ORed back so decode -> encode
 * reproduces every word.
 */
#include "pica_private.h"

/* Field value of a source; fails for a file/index that the field cannot hold. */
static bool source_field(const struct sb_pica_source *source, bool wide, uint32_t *field)
{
    switch (source->file) {
    case SB_PICA_REG_INPUT:
        if (source->index > 15)
            return false;
        *field = source->index;
        return true;
    case SB_PICA_REG_TEMP:
        if (source->index > 15)
            return false;
        *field = 0x10 + source->index;
        return true;
    case SB_PICA_REG_FLOAT:
        if (!wide || source->index > 95)
            return false;
        *field = 0x20 + source->index;
        return true;
    default:
        return false;
    }
}

static bool destination_field(const struct sb_pica_destination *dst, uint32_t *field)
{
    if (dst->index > 15)
        return false;
    if (dst->file == SB_PICA_REG_OUTPUT)
        *field = dst->index;
    else if (dst->file == SB_PICA_REG_TEMP)
        *field = 0x10 + dst->index;
    else
        return false;
    return true;
}

static enum sb_result fail(struct sb_error *error, const struct sb_pica_instruction *in,
                           const char *what)
{
    sb_error_set(error, SB_ERROR_INVALID_ARGUMENT, 0, SB_ERROR_NO_INSTR, "cannot encode %s: %s",
                 sb_pica_opcode_name(in->opcode) ? sb_pica_opcode_name(in->opcode) : "opcode",
                 what);
    return SB_ERROR_INVALID_ARGUMENT;
}

/* Only the 7-bit operand may carry a relative index (§8). */
static bool relative_ok(const struct sb_pica_instruction *in, unsigned wide_source)
{
    for (unsigned n = 0; n < in->source_count; ++n)
        if (n != wide_source && in->src[n].relative != SB_PICA_RELATIVE_NONE)
            return false;
    return (unsigned)in->src[wide_source].relative <= 3;
}

static enum sb_result encode_arithmetic(const struct sb_pica_instruction *in, uint32_t *word,
                                        struct sb_error *error)
{
    uint32_t s1 = 0, s2 = 0, d = 0;
    bool inverted = in->format == SB_PICA_FORMAT_1I;
    unsigned wide = inverted ? 1 : 0;
    if (in->descriptor_index > 127)
        return fail(error, in, "descriptor index above 127");
    if (!relative_ok(in, wide))
        return fail(error, in, "relative index on a 5-bit operand");
    if (!source_field(&in->src[0], !inverted, &s1))
        return fail(error, in, "SRC1 does not fit its field");
    if (in->source_count > 1 && !source_field(&in->src[1], inverted, &s2))
        return fail(error, in, "SRC2 does not fit its field");
    uint32_t w = (in->opcode << 26) | in->descriptor_index |
                 ((uint32_t)in->src[wide].relative << 19);
    if (inverted)
        w |= (s1 << 14) | (s2 << 7);
    else
        w |= (s1 << 12) | (s2 << 7);
    if (in->format == SB_PICA_FORMAT_1C) {
        if ((unsigned)in->compare_x > 7 || (unsigned)in->compare_y > 7)
            return fail(error, in, "compare op above 7");
        w |= ((uint32_t)in->compare_x << 24) | ((uint32_t)in->compare_y << 21);
    } else if (in->opcode != SB_PICA_OP_MOVA) {
        if (!destination_field(&in->dst, &d))
            return fail(error, in, "destination is not o0-o15 or r0-r15");
        w |= d << 21;
    }
    *word = w;
    return SB_SUCCESS;
}

static enum sb_result encode_mad(const struct sb_pica_instruction *in, uint32_t *word,
                                 struct sb_error *error)
{
    bool inverted = in->format == SB_PICA_FORMAT_5I;
    unsigned wide = inverted ? 2 : 1;
    uint32_t s1, s2, s3, d;
    if (in->descriptor_index > 31)
        return fail(error, in, "descriptor index above 31");
    if (!relative_ok(in, wide))
        return fail(error, in, "relative index on a 5-bit operand");
    if (!destination_field(&in->dst, &d))
        return fail(error, in, "destination is not o0-o15 or r0-r15");
    if (!source_field(&in->src[0], false, &s1) || !source_field(&in->src[1], !inverted, &s2) ||
        !source_field(&in->src[2], inverted, &s3))
        return fail(error, in, "a source does not fit its field");
    uint32_t w = (inverted ? 0xC0000000u : 0xE0000000u) | (d << 24) |
                 ((uint32_t)in->src[wide].relative << 22) | (s1 << 17) | in->descriptor_index;
    if (inverted)
        w |= (s2 << 12) | (s3 << 5);
    else
        w |= (s2 << 10) | (s3 << 5);
    *word = w;
    return SB_SUCCESS;
}

static enum sb_result encode_control(const struct sb_pica_instruction *in, uint32_t *word,
                                     struct sb_error *error)
{
    uint32_t w = (uint32_t)in->opcode << 26;
    switch (in->format) {
    case SB_PICA_FORMAT_0:
        break;
    case SB_PICA_FORMAT_2:
        if (in->flow_dest > 0xFFF || in->flow_num > 0xFF || (unsigned)in->condition > 3)
            return fail(error, in, "flow field out of range");
        w |= ((uint32_t)in->refx << 25) | ((uint32_t)in->refy << 24) |
             ((uint32_t)in->condition << 22) | (in->flow_dest << 10) | in->flow_num;
        break;
    case SB_PICA_FORMAT_3: {
        uint32_t id = in->opcode == SB_PICA_OP_LOOP ? in->int_id : in->bool_id;
        if (in->flow_dest > 0xFFF || in->flow_num > 0xFF ||
            id > (in->opcode == SB_PICA_OP_LOOP ? 3u : 15u))
            return fail(error, in, "flow field or uniform id out of range");
        uint32_t num = in->flow_num;
        if (in->opcode == SB_PICA_OP_JMPU)
            num = (num & ~1u) | (in->jmpu_inverted ? 1u : 0u);
        w |= (id << 22) | (in->flow_dest << 10) | num;
        break;
    }
    default: /* SETEMIT */
        if (in->vertex_id > 3)
            return fail(error, in, "vertex id above 3");
        w |= (in->vertex_id << 24) | ((uint32_t)in->primitive << 23) |
             ((uint32_t)in->winding << 22);
        break;
    }
    *word = w;
    return SB_SUCCESS;
}

enum sb_result sb_pica_encode(const struct sb_pica_instruction *instruction, uint32_t *word,
                              struct sb_error *error)
{
    if (!instruction || !word) {
        sb_error_set(error, SB_ERROR_INVALID_ARGUMENT, 0, SB_ERROR_NO_INSTR,
                     "sb_pica_encode: NULL instruction or word");
        return SB_ERROR_INVALID_ARGUMENT;
    }
    const struct pica_opcode_info *info = pica_opcode_info(instruction->opcode);
    if (!info || instruction->source_count != info->source_count)
        return fail(error, instruction, "unknown opcode or wrong source count");
    struct sb_pica_instruction in = *instruction;
    in.format = info->format;
    enum sb_result result;
    switch (info->format) {
    case SB_PICA_FORMAT_1:
    case SB_PICA_FORMAT_1I:
    case SB_PICA_FORMAT_1U:
    case SB_PICA_FORMAT_1C:
        result = encode_arithmetic(&in, word, error);
        break;
    case SB_PICA_FORMAT_5:
    case SB_PICA_FORMAT_5I:
        result = encode_mad(&in, word, error);
        break;
    default:
        result = encode_control(&in, word, error);
        break;
    }
    if (result == SB_SUCCESS)
        *word |= instruction->unused_bits;
    return result;
}

uint32_t sb_pica_encode_descriptor(const struct sb_pica_instruction *instruction)
{
    if (!instruction)
        return 0;
    uint32_t desc = instruction->dst.mask & 0xFu;
    uint32_t count = instruction->source_count > 3 ? 3 : instruction->source_count;
    for (uint32_t n = 0; n < count; ++n) {
        unsigned shift = pica_desc_source_shift(n);
        desc |= ((uint32_t)instruction->src[n].negate << shift) |
                ((uint32_t)instruction->src[n].swizzle << (shift + 1));
    }
    return desc;
}
