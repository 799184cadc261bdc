/* SPDX-License-Identifier: MIT */
/*
 * An LLVM bitstream writer sized for DXIL test programs
 * (../shared/docs/dxil.md §2.1-§2.3): fixed, VBR, char6 and blob fields,
 * blocks with back-patched lengths, unabbreviated records, abbreviation
 * definitions (in a block or in BLOCKINFO) and abbreviated records.
 * dxil_module_writer.h builds modules on top of it.
 *
 * Bits are packed from the least significant bit of each byte upwards.
 * Out of memory ends the test program (exit 1); misuse by the caller (a
 * record that does not fit its abbreviation, END_BLOCK with no block open)
 * sets `failed`, which the owner checks once at the end.
 */
#ifndef SB_TEST_DXIL_BITCODE_WRITER_H
#define SB_TEST_DXIL_BITCODE_WRITER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/** Deepest block nesting the writer supports (DXIL needs 3). */
#define BW_MAX_DEPTH 8

/** Encoding of one abbreviation operand (docs §2.2 DEFINE_ABBREV). */
enum bw_op_kind {
    BW_OP_LITERAL = 0, /**< a constant: `value` */
    BW_OP_FIXED = 1,   /**< `value` = width in bits */
    BW_OP_VBR = 2,     /**< `value` = chunk width */
    BW_OP_ARRAY = 3,   /**< vbr6 count, then elements encoded by the next operand */
    BW_OP_CHAR6 = 4,
    BW_OP_BLOB = 5,    /**< vbr6 length, align32, bytes, align32 */
};

struct bw_abbrev_op {
    enum bw_op_kind kind;
    uint64_t value;
};

/** An abbreviation: up to 8 operands, the first normally the literal record code. */
struct bw_abbrev {
    unsigned op_count;
    struct bw_abbrev_op ops[8];
};

struct bw_block {
    unsigned outer_width;   /**< abbreviation width to restore at END_BLOCK */
    size_t length_word_bit; /**< bit position of the length word to back-patch */
};

/** A bitstream being written. Zero-initialise, then bw_begin(). */
struct bw {
    uint8_t *data;
    size_t capacity;
    size_t bit;        /**< bits written so far */
    unsigned width;    /**< current abbreviation-ID width */
    unsigned depth;
    struct bw_block blocks[BW_MAX_DEPTH];
    bool failed;
};

/** Starts with the 2-bit top-level abbreviation width (no magic written). */
void bw_begin(struct bw *w);
/** Frees the buffer. */
void bw_free(struct bw *w);
/** Bytes written so far (whole 32-bit words once every block is closed). */
size_t bw_size(const struct bw *w);

void bw_fixed(struct bw *w, uint64_t value, unsigned width);
void bw_vbr(struct bw *w, uint64_t value, unsigned width);
/** One char6 character ([a-zA-Z0-9._]); anything else sets `failed`. */
void bw_char6(struct bw *w, char c);
/** Pads with zero bits to a multiple of 32. */
void bw_align32(struct bw *w);
/** True when every character of `s` has a char6 code. */
bool bw_is_char6(const char *s);

/** ENTER_SUBBLOCK `block_id` with abbreviation width `width`; the length is patched at end. */
void bw_enter_block(struct bw *w, unsigned block_id, unsigned width);
/** END_BLOCK: aligns, patches the length word, restores the outer width. */
void bw_end_block(struct bw *w);

/** UNABBREV_RECORD: code and every operand as vbr6. */
void bw_record(struct bw *w, unsigned code, const uint64_t *ops, unsigned count);
/** DEFINE_ABBREV of `a` in the current block (or for the SETBID target inside BLOCKINFO). */
void bw_define_abbrev(struct bw *w, const struct bw_abbrev *a);
/**
 * Writes a record through abbreviation `id` (as numbered by the reader) whose
 * definition is `a`. `fields` are the record's code then its operands, one per
 * scalar operand of `a` (literals included, which must match), and all the rest
 * for a trailing array or blob (a blob's fields are bytes).
 */
void bw_abbrev_record(struct bw *w, unsigned id, const struct bw_abbrev *a,
                      const uint64_t *fields, unsigned count);

#endif
