/* SPDX-License-Identifier: MIT */
/*
 * Internal helpers shared by the PICA200 decoder, encoder, assembler and
 * disassembler (pica_*.c): the opcode table row type, descriptor bit layout
 * (../shared/docs/pica200.md §5) and the operand text formatter both directions use.
 */
#ifndef SB_PICA_PRIVATE_H
#define SB_PICA_PRIVATE_H

#include <stdarg.h>
#include <stddef.h>

#include "translator/pica.h"
#include "shaderbridge/shbin.h"
#include "error.h"

/** One opcode row: folded opcode, picasso mnemonic, format, source count, has DST. */
struct pica_opcode_info {
    enum sb_pica_opcode opcode;
    const char *name;
    enum sb_pica_format format;
    uint8_t source_count;
    bool has_destination;
};

/** The row of a folded opcode; NULL for unused values. */
const struct pica_opcode_info *pica_opcode_info(enum sb_pica_opcode opcode);
/** The row whose mnemonic is name (case-insensitive, length-bounded); NULL if none. */
const struct pica_opcode_info *pica_opcode_by_name(const char *name, size_t length);

/* Descriptor fields (§5). */
#define PICA_DESC_MASK_DST 0x0000000Fu
#define PICA_DESC_MASK_SRC1 0x00001FF0u
#define PICA_DESC_MASK_SRC2 0x003FE000u
#define PICA_DESC_MASK_SRC3 0x7FC00000u
/** Bit position of source n's negate bit; its selector follows at +1. */
static inline unsigned pica_desc_source_shift(unsigned n) { return 4u + 9u * n; }

/**
 * An operand-descriptor table being built the way picasso builds it: an
 * instruction reuses the first entry that agrees on the bits both uses read
 * (lanes an opcode ignores do not count) and adds its own bits to it;
 * otherwise a new entry is appended. MAD/MADI can only name entries 0-31: a
 * MAD entry at 32 or above is swapped with the first entry no MAD uses.
 * With `fixed` set (the `.opdesc` extension) the table is given and only
 * searched.
 */
struct pica_opdesc_table {
    uint32_t word[SB_SHBIN_MAX_OPERAND_DESCRIPTORS];
    uint32_t mask[SB_SHBIN_MAX_OPERAND_DESCRIPTORS]; /**< bits some user reads */
    uint32_t count;
    uint32_t is_mad; /**< bit n: entry n is used by a MAD/MADI */
    bool fixed;
};

enum {
    PICA_OPDESC_FULL = -1,        /**< 128 entries already */
    PICA_OPDESC_NO_MAD_SLOT = -2, /**< all of entries 0-31 are MAD entries */
    PICA_OPDESC_NO_MATCH = -3,    /**< fixed table without a matching entry */
};

/** Descriptor bits an instruction of `op` (its folded, possibly inverted opcode) reads. */
uint32_t pica_opdesc_compare_mask(enum sb_pica_opcode op, uint32_t desc);
/**
 * Finds or adds the entry for `desc`; returns its index or a PICA_OPDESC_*
 * failure. When entries were swapped for a MAD, *swap_a and *swap_b name
 * them (the caller renumbers earlier non-MAD words); otherwise both are 0.
 */
int pica_opdesc_allocate(struct pica_opdesc_table *table, enum sb_pica_opcode op, uint32_t desc,
                         uint32_t *swap_a, uint32_t *swap_b);
/** The descriptor word the assembler computes from an instruction's printed text. */
uint32_t pica_opdesc_of(const struct sb_pica_instruction *in);

/** Text buffer that grows; on allocation failure `failed` is set and text stays valid. */
struct pica_text {
    char *data;
    size_t length;
    size_t capacity;
    bool failed;
};
void pica_text_append(struct pica_text *text, const char *format, ...)
    __attribute__((format(printf, 2, 3)));
void pica_text_vappend(struct pica_text *text, const char *format, va_list args);

/** Writes "v3", "r12", "c95", "o2" for a file/index pair into buffer (size >= 8). */
void pica_register_name(enum sb_pica_register_file file, uint32_t index, char *buffer,
                        size_t size);
/** Writes a swizzle suffix (".xyzw" fully spelled, "" for identity) into buffer (size >= 6). */
void pica_swizzle_text(uint8_t swizzle, char *buffer, size_t size);
/** Writes a destination-mask suffix (".xz", "" for xyzw) into buffer (size >= 6). */
void pica_mask_text(uint8_t mask, char *buffer, size_t size);
/** Relative-index text: "a0", "a1", "lcnt"; "" for NONE. */
const char *pica_relative_name(enum sb_pica_relative relative);
/** Compare-op text ("eq" ... "ge", "6", "7"). */
const char *pica_compare_name(enum sb_pica_compare_op op);
/**
 * Condition text of a format-2 instruction in picasso syntax ("cmp.x",
 * "!cmp.x && cmp.y"); false when the fields have no picasso spelling (a
 * single-flag test with the unused REF bit cleared).
 */
bool pica_condition_text(const struct sb_pica_instruction *instruction, char *buffer,
                         size_t size);


#endif
