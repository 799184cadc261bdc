/* SPDX-License-Identifier: MIT */
/*
 * Operand-descriptor allocation as picasso does it (../shared/docs/pica200.md §5;
 * picasso's opdesc deduplication): shared by the assembler, which builds
 * tables with it, and by the disassembler, which replays it to know whether
 * its text will reproduce a file's table or needs the `.opdesc` extension.
 */
#include "pica_private.h"

/* Descriptor bits of lane `lane` of the sources in the bit set `sources`. */
static uint32_t lane_bits(unsigned lane, unsigned sources)
{
    uint32_t bits = 0;
    for (unsigned n = 0; n < 3; ++n)
        if (sources & (1u << n))
            bits |= 3u << (pica_desc_source_shift(n) + 1 + 6 - 2 * lane);
    return bits;
}

/* Lanes an opcode never reads do not take part in matching (picasso). */
static uint32_t ignored_bits(enum sb_pica_opcode op, uint32_t desc)
{
    uint32_t bits = 0;
    switch (op) {
    case SB_PICA_OP_ADD: case SB_PICA_OP_MUL: case SB_PICA_OP_SGE: case SB_PICA_OP_SLT:
    case SB_PICA_OP_SGEI: case SB_PICA_OP_SLTI: case SB_PICA_OP_FLR: case SB_PICA_OP_MAX:
    case SB_PICA_OP_MIN: case SB_PICA_OP_MOV: case SB_PICA_OP_MAD: case SB_PICA_OP_MADI:
        for (unsigned lane = 0; lane < 4; ++lane)
            if (!(desc & (8u >> lane)))
                bits |= lane_bits(lane, 7);
        break;
    case SB_PICA_OP_DP3:
        bits = lane_bits(3, 3);
        break;
    case SB_PICA_OP_DPH: case SB_PICA_OP_DPHI:
        bits = lane_bits(3, 1);
        break;
    case SB_PICA_OP_EX2: case SB_PICA_OP_LG2: case SB_PICA_OP_RCP: case SB_PICA_OP_RSQ:
        bits = lane_bits(1, 1) | lane_bits(2, 1) | lane_bits(3, 1);
        break;
    case SB_PICA_OP_MOVA:
        if (!(desc & 8u))
            bits |= lane_bits(0, 1);
        if (!(desc & 4u))
            bits |= lane_bits(1, 1);
        bits |= lane_bits(2, 1) | lane_bits(3, 1);
        break;
    case SB_PICA_OP_CMP:
        bits = lane_bits(2, 1) | lane_bits(3, 1);
        break;
    default:
        break;
    }
    return bits;
}

uint32_t pica_opdesc_compare_mask(enum sb_pica_opcode op, uint32_t desc)
{
    enum sb_pica_format format = SB_PICA_FORMAT_0;
    sb_pica_opcode_format(op, &format);
    uint32_t mask;
    switch (format) {
    case SB_PICA_FORMAT_1C: mask = PICA_DESC_MASK_SRC1 | PICA_DESC_MASK_SRC2; break;
    case SB_PICA_FORMAT_1U: mask = PICA_DESC_MASK_DST | PICA_DESC_MASK_SRC1; break;
    case SB_PICA_FORMAT_5:
    case SB_PICA_FORMAT_5I:
        mask = PICA_DESC_MASK_DST | PICA_DESC_MASK_SRC1 | PICA_DESC_MASK_SRC2 | PICA_DESC_MASK_SRC3;
        break;
    default: mask = PICA_DESC_MASK_DST | PICA_DESC_MASK_SRC1 | PICA_DESC_MASK_SRC2; break;
    }
    return mask & ~ignored_bits(op, desc);
}

static bool is_mad(enum sb_pica_opcode op)
{
    return op == SB_PICA_OP_MAD || op == SB_PICA_OP_MADI;
}

static int search_fixed(const struct pica_opdesc_table *table, enum sb_pica_opcode op,
                        uint32_t desc, uint32_t mask)
{
    uint32_t limit = is_mad(op) && table->count > 32 ? 32 : table->count;
    for (uint32_t i = 0; i < limit; ++i)
        if ((desc & mask) == (table->word[i] & mask))
            return (int)i;
    return PICA_OPDESC_NO_MATCH;
}

int pica_opdesc_allocate(struct pica_opdesc_table *table, enum sb_pica_opcode op, uint32_t desc,
                         uint32_t *swap_a, uint32_t *swap_b)
{
    *swap_a = *swap_b = 0;
    uint32_t mask = pica_opdesc_compare_mask(op, desc);
    if (table->fixed)
        return search_fixed(table, op, desc, mask);
    uint32_t index = table->count;
    for (uint32_t i = 0; i < table->count; ++i) {
        uint32_t common = mask & table->mask[i];
        if ((desc & common) == (table->word[i] & common)) {
            table->word[i] = (table->word[i] & ~mask) | (desc & mask);
            table->mask[i] |= mask;
            index = i;
            break;
        }
    }
    if (index == table->count) {
        if (index == SB_SHBIN_MAX_OPERAND_DESCRIPTORS)
            return PICA_OPDESC_FULL;
        table->word[index] = desc;
        table->mask[index] = mask;
        table->count++;
    }
    if (!is_mad(op))
        return (int)index;
    if (index >= 32) {
        uint32_t slot = 0;
        while (slot < 32 && (table->is_mad & (1u << slot)))
            slot++;
        if (slot == 32)
            return PICA_OPDESC_NO_MAD_SLOT;
        uint32_t t = table->word[slot];
        table->word[slot] = table->word[index];
        table->word[index] = t;
        t = table->mask[slot];
        table->mask[slot] = table->mask[index];
        table->mask[index] = t;
        *swap_a = slot;
        *swap_b = index;
        index = slot;
    }
    table->is_mad |= 1u << index;
    return (int)index;
}

uint32_t pica_opdesc_of(const struct sb_pica_instruction *in)
{
    uint32_t desc = in->opcode == SB_PICA_OP_CMP ? 0 : (in->dst.mask & 0xFu);
    for (uint32_t n = 0; n < in->source_count && n < 3; ++n) {
        unsigned shift = pica_desc_source_shift(n);
        desc |= ((uint32_t)in->src[n].negate << shift) | ((uint32_t)in->src[n].swizzle << (shift + 1));
    }
    return desc;
}
