/* SPDX-License-Identifier: MIT */
/*
 * PICA200 code-word decoder (../shared/docs/pica200.md §4-§6): splits a word by its
 * format, resolves operand fields to register files (§3.2), attaches IDX to
 * the one 7-bit operand (§8) and reads mask, swizzles and negation from the
 * operand descriptor the word names (§5). Bits in fields a format does not
 * use are kept in unused_bits so the encoder can reproduce any word exactly.
 */
#include <string.h>

#include "pica_private.h"

/* Decodes a 5-bit (wide = false) or 7-bit operand field (§3.2). */
static void decode_source_field(uint32_t raw, struct sb_pica_source *source)
{
    source->raw = raw;
    if (raw < 0x10) {
        source->file = SB_PICA_REG_INPUT;
        source->index = raw;
    } else if (raw < 0x20) {
        source->file = SB_PICA_REG_TEMP;
        source->index = raw - 0x10;
    } else {
        source->file = SB_PICA_REG_FLOAT;
        source->index = raw - 0x20;
    }
}

static void decode_destination_field(uint32_t raw, struct sb_pica_destination *dst)
{
    dst->raw = raw;
    dst->file = raw < 0x10 ? SB_PICA_REG_OUTPUT : SB_PICA_REG_TEMP;
    dst->index = raw & 0xFu;
}

/* Swizzle, negate and mask from the descriptor word (§5). */
static void apply_descriptor(struct sb_pica_instruction *out)
{
    uint32_t desc = out->descriptor;
    out->dst.mask = (uint8_t)(desc & 0xFu);
    for (uint32_t n = 0; n < out->source_count; ++n) {
        struct sb_pica_source *source = &out->src[n];
        unsigned shift = pica_desc_source_shift(n);
        source->negate = ((desc >> shift) & 1u) != 0;
        source->swizzle = (uint8_t)((desc >> (shift + 1)) & 0xFFu);
        for (unsigned lane = 0; lane < 4; ++lane)
            source->component[lane] = (uint8_t)((source->swizzle >> (6 - 2 * lane)) & 3u);
    }
}

/* Formats 1, 1i, 1u, 1c. */
static void decode_arithmetic(uint32_t word, struct sb_pica_instruction *out)
{
    enum sb_pica_relative idx = (enum sb_pica_relative)((word >> 19) & 3u);
    out->relative = idx;
    out->descriptor_index = word & 0x7Fu;
    switch (out->format) {
    case SB_PICA_FORMAT_1I:
        decode_source_field((word >> 14) & 0x1Fu, &out->src[0]);
        decode_source_field((word >> 7) & 0x7Fu, &out->src[1]);
        out->src[1].relative = idx;
        break;
    case SB_PICA_FORMAT_1U:
        decode_source_field((word >> 12) & 0x7Fu, &out->src[0]);
        out->src[0].relative = idx;
        out->unused_bits = word & (0x1Fu << 7);
        break;
    default: /* 1 and 1c */
        decode_source_field((word >> 12) & 0x7Fu, &out->src[0]);
        decode_source_field((word >> 7) & 0x1Fu, &out->src[1]);
        out->src[0].relative = idx;
        break;
    }
    if (out->format == SB_PICA_FORMAT_1C) {
        out->compare_x = (enum sb_pica_compare_op)((word >> 24) & 7u);
        out->compare_y = (enum sb_pica_compare_op)((word >> 21) & 7u);
    } else if (out->opcode == SB_PICA_OP_MOVA) {
        out->dst.file = SB_PICA_REG_ADDRESS;
        out->unused_bits |= word & (0x1Fu << 21);
    } else {
        decode_destination_field((word >> 21) & 0x1Fu, &out->dst);
    }
}

/* Formats 5 and 5i. */
static void decode_mad(uint32_t word, struct sb_pica_instruction *out)
{
    enum sb_pica_relative idx = (enum sb_pica_relative)((word >> 22) & 3u);
    out->relative = idx;
    out->descriptor_index = word & 0x1Fu;
    decode_destination_field((word >> 24) & 0x1Fu, &out->dst);
    decode_source_field((word >> 17) & 0x1Fu, &out->src[0]);
    if (out->format == SB_PICA_FORMAT_5) {
        decode_source_field((word >> 10) & 0x7Fu, &out->src[1]);
        decode_source_field((word >> 5) & 0x1Fu, &out->src[2]);
        out->src[1].relative = idx;
    } else {
        decode_source_field((word >> 12) & 0x1Fu, &out->src[1]);
        decode_source_field((word >> 5) & 0x7Fu, &out->src[2]);
        out->src[2].relative = idx;
    }
}

/* Formats 0, 2, 3, 4. */
static void decode_control(uint32_t word, struct sb_pica_instruction *out)
{
    switch (out->format) {
    case SB_PICA_FORMAT_0:
        out->unused_bits = word & 0x03FFFFFFu;
        break;
    case SB_PICA_FORMAT_2:
        out->refx = ((word >> 25) & 1u) != 0;
        out->refy = ((word >> 24) & 1u) != 0;
        out->condition = (enum sb_pica_condition_op)((word >> 22) & 3u);
        out->flow_dest = (word >> 10) & 0xFFFu;
        out->flow_num = word & 0xFFu;
        out->unused_bits = word & 0x300u;
        break;
    case SB_PICA_FORMAT_3:
        out->flow_dest = (word >> 10) & 0xFFFu;
        out->flow_num = word & 0xFFu;
        out->unused_bits = word & 0x300u;
        if (out->opcode == SB_PICA_OP_LOOP) {
            out->int_id = (word >> 22) & 3u;
            out->unused_bits |= word & (3u << 24);
        } else {
            out->bool_id = (word >> 22) & 0xFu;
        }
        out->jmpu_inverted = out->opcode == SB_PICA_OP_JMPU && (word & 1u) != 0;
        break;
    default: /* 4: SETEMIT */
        out->vertex_id = (word >> 24) & 3u;
        out->primitive = ((word >> 23) & 1u) != 0;
        out->winding = ((word >> 22) & 1u) != 0;
        out->unused_bits = word & 0x003FFFFFu;
        break;
    }
}

enum sb_result sb_pica_decode(uint32_t word, const uint32_t *descriptors,
                              uint32_t descriptor_count, struct sb_pica_instruction *out,
                              struct sb_error *error)
{
    if (!out || (descriptor_count && !descriptors)) {
        sb_error_set(error, SB_ERROR_INVALID_ARGUMENT, 0, SB_ERROR_NO_INSTR,
                     "sb_pica_decode: NULL instruction or descriptor table");
        return SB_ERROR_INVALID_ARGUMENT;
    }
    memset(out, 0, sizeof(*out));
    out->word = word;
    out->raw_opcode = word >> 26;
    enum sb_pica_opcode opcode;
    if (!sb_pica_fold_opcode(out->raw_opcode, &opcode)) {
        sb_error_set(error, SB_ERROR_BAD_VALUE, 0, SB_ERROR_NO_INSTR,
                     "code word 0x%08X has unused opcode 0x%02X (§6.2)", (unsigned)word,
                     (unsigned)out->raw_opcode);
        return SB_ERROR_BAD_VALUE;
    }
    const struct pica_opcode_info *info = pica_opcode_info(opcode);
    out->opcode = opcode;
    out->format = info->format;
    out->source_count = info->source_count;
    switch (info->format) {
    case SB_PICA_FORMAT_1:
    case SB_PICA_FORMAT_1I:
    case SB_PICA_FORMAT_1U:
    case SB_PICA_FORMAT_1C:
        decode_arithmetic(word, out);
        out->has_descriptor = true;
        break;
    case SB_PICA_FORMAT_5:
    case SB_PICA_FORMAT_5I:
        decode_mad(word, out);
        out->has_descriptor = true;
        break;
    default:
        decode_control(word, out);
        break;
    }
    if (out->has_descriptor) {
        if (out->descriptor_index >= descriptor_count) {
            sb_error_set(error, SB_ERROR_BAD_OFFSET, 0, SB_ERROR_NO_INSTR,
                         "code word 0x%08X names operand descriptor %u, table has %u",
                         (unsigned)word, (unsigned)out->descriptor_index,
                         (unsigned)descriptor_count);
            return SB_ERROR_BAD_OFFSET;
        }
        out->descriptor = descriptors[out->descriptor_index];
        apply_descriptor(out);
    }
    return SB_SUCCESS;
}

enum sb_result sb_pica_decode_program(const uint32_t *code, uint32_t code_count,
                                      const uint32_t *descriptors, uint32_t descriptor_count,
                                      struct sb_pica_instruction *out, struct sb_error *error)
{
    if ((code_count && (!code || !out)) || (descriptor_count && !descriptors)) {
        sb_error_set(error, SB_ERROR_INVALID_ARGUMENT, 0, SB_ERROR_NO_INSTR,
                     "sb_pica_decode_program: NULL code, descriptors or output");
        return SB_ERROR_INVALID_ARGUMENT;
    }
    for (uint32_t address = 0; address < code_count; ++address) {
        enum sb_result result =
            sb_pica_decode(code[address], descriptors, descriptor_count, &out[address], error);
        if (result != SB_SUCCESS) {
            if (error) {
                error->offset = 4u * (uint64_t)address;
                error->instr = address;
            }
            return result;
        }
    }
    return SB_SUCCESS;
}

enum sb_result sb_pica_decode_shbin(const struct sb_shbin *shbin, struct sb_pica_instruction *out,
                                    struct sb_error *error)
{
    if (!shbin || (shbin->program.code_word_count && !out)) {
        sb_error_set(error, SB_ERROR_INVALID_ARGUMENT, 0, SB_ERROR_NO_INSTR,
                     "sb_pica_decode_shbin: NULL file or output");
        return SB_ERROR_INVALID_ARGUMENT;
    }
    const struct sb_shbin_program *program = &shbin->program;
    uint32_t descriptors[SB_SHBIN_MAX_OPERAND_DESCRIPTORS];
    uint32_t count = program->operand_descriptor_count;
    if (count > SB_SHBIN_MAX_OPERAND_DESCRIPTORS)
        count = SB_SHBIN_MAX_OPERAND_DESCRIPTORS;
    for (uint32_t i = 0; i < count; ++i)
        descriptors[i] = program->operand_descriptors[i].word;
    enum sb_result result = sb_pica_decode_program(program->code, program->code_word_count,
                                                   descriptors, count, out, error);
    if (result != SB_SUCCESS && error && error->instr != UINT32_MAX)
        error->offset = (uint64_t)program->file_offset + program->code_offset + 4u * error->instr;
    return result;
}
