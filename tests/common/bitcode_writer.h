/* SPDX-License-Identifier: MIT */
/*
 * A small LLVM bitstream writer for tests (../shared/docs/dxil.md §2.1-§2.3):
 * raw fixed / VBR / char6 fields, 32-bit alignment, blocks whose length word is
 * filled in when they end, unabbreviated records and DEFINE_ABBREV. Tests
 * write abbreviated records field by field with these primitives, so each
 * test shows the exact bits it feeds the reader. Out of memory is sticky
 * (`failed`); the bytes are malloc'd (bcw_release frees them).
 */
#ifndef SB_TEST_BITCODE_WRITER_H
#define SB_TEST_BITCODE_WRITER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define BCW_MAX_DEPTH 64

struct bcw {
    uint8_t *bytes;
    size_t capacity;
    uint64_t bit;            /**< bits written */
    uint32_t width;          /**< abbreviation id width of the innermost block (2 at the top) */
    uint32_t depth;
    struct {
        uint64_t length_bit; /**< where the block's length word sits */
        uint32_t outer_width;
    } blocks[BCW_MAX_DEPTH];
    bool failed;
};

/** One DEFINE_ABBREV operand: encoding 0 = literal `value`, 1 fixed, 2 VBR (width
 *  `value`), 3 array, 4 char6, 5 blob. */
struct bcw_abbrev_op {
    uint8_t encoding;
    uint64_t value;
};

void bcw_init(struct bcw *w);
void bcw_release(struct bcw *w);
/** Size in bytes of what is written so far (bits rounded up). */
size_t bcw_size(const struct bcw *w);

void bcw_fixed(struct bcw *w, uint64_t value, uint32_t width);
void bcw_vbr(struct bcw *w, uint64_t value, uint32_t width);
void bcw_char6(struct bcw *w, char c);
void bcw_align32(struct bcw *w);
/** 'B' 'C' 0xC0DE, as the first 32 bits. */
void bcw_magic(struct bcw *w);
/** An abbreviation id in the current width. */
void bcw_abbrev_id(struct bcw *w, uint32_t id);

/** ENTER_SUBBLOCK with a length word filled in by bcw_end_block. */
void bcw_enter_block(struct bcw *w, uint32_t block_id, uint32_t width);
void bcw_end_block(struct bcw *w);

/** UNABBREV_RECORD: code, count and operands as vbr6. */
void bcw_record(struct bcw *w, uint32_t code, const uint64_t *ops, uint32_t count);
/** A record whose operands are the bytes of `text` (no terminator). */
void bcw_record_string(struct bcw *w, uint32_t code, const char *text);
/** DEFINE_ABBREV. */
void bcw_define_abbrev(struct bcw *w, const struct bcw_abbrev_op *ops, uint32_t count);

#endif
