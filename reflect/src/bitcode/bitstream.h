/* SPDX-License-Identifier: MIT */
/*
 * The LLVM bitstream cursor (../shared/docs/dxil.md §2.1-§2.3): turns the
 * bits of a bitcode file into a flat sequence of entries - "a block opens",
 * "a record", "the block ends" - with every record's operands expanded into
 * 64-bit integers, whatever abbreviation encoded them.
 *
 * The cursor keeps an explicit stack of open blocks (depth at most
 * SB_BS_MAX_DEPTH, so no input can drive it deep), each with its abbreviation
 * width, its end bit (no read passes the innermost end) and the
 * abbreviations defined inside it; BLOCKINFO blocks are consumed here and
 * never reach the caller, their abbreviations being offered to every later
 * block of the target id. Failures are sticky: the first one fills the
 * sb_error (byte offset plus the bit offset in the message) and every later
 * call returns SB_BS_ERROR.
 */
#ifndef SB_BITCODE_BITSTREAM_H
#define SB_BITCODE_BITSTREAM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "error.h"
#include "shaderbridge/result.h"

/** Deepest nesting of blocks accepted (DXIL needs 3: module, function, constants). */
#define SB_BS_MAX_DEPTH 16

/** Abbreviation operand encodings (the fixed3 field of DEFINE_ABBREV) and a literal. */
enum sb_bs_encoding {
    SB_BS_LITERAL = 0,
    SB_BS_FIXED = 1,
    SB_BS_VBR = 2,
    SB_BS_ARRAY = 3,
    SB_BS_CHAR6 = 4,
    SB_BS_BLOB = 5,
};

struct sb_bs_abbrev_op {
    uint8_t encoding; /**< enum sb_bs_encoding */
    uint64_t value;   /**< the literal, or the width of FIXED / VBR */
};

struct sb_bs_abbrev {
    uint32_t first_op; /**< index into the owning list's `ops` */
    uint32_t op_count;
};

/** A growable list of abbreviations (malloc'd; the cursor frees it). */
struct sb_bs_abbrev_list {
    struct sb_bs_abbrev_op *ops;
    uint32_t op_count, op_capacity;
    struct sb_bs_abbrev *abbrevs;
    uint32_t count, capacity;
};

struct sb_bs_scope {
    uint32_t block_id;
    uint32_t width;          /**< abbreviation id width */
    uint64_t end_bit;        /**< one past the block's last bit (its length word says so) */
    uint32_t local_base;     /**< the block's own abbreviations start here in `local` */
    uint32_t local_op_base;
    uint32_t info;           /**< index of its BLOCKINFO list, UINT32_MAX for none */
    uint32_t info_count;     /**< BLOCKINFO abbreviations it sees (those defined before it opened) */
    uint64_t skip_codes;     /**< bit c: unabbreviated records of code c are passed over (sb_bs_skip_records) */
    uint64_t body_bit;       /**< where its body starts (after the length word) */
    bool passed_all;         /**< nothing in it returned yet: no record, sub-block or definition */
};

struct sb_bs_blockinfo {
    uint32_t block_id;
    struct sb_bs_abbrev_list list;
};

enum sb_bs_entry {
    SB_BS_ERROR,  /**< the cursor failed (the error is filled) */
    SB_BS_EOF,    /**< the top level ended */
    SB_BS_ENTER,  /**< a block opened: `block_id`; read it or sb_bs_skip_block() */
    SB_BS_END,    /**< the innermost block ended */
    SB_BS_RECORD, /**< a record: `code`, `ops[0 .. op_count)`, `abbrev_id` */
};

struct sb_arena;

struct sb_bitstream {
    const uint8_t *data;
    uint64_t bit_size;     /**< bits in `data` */
    uint64_t bit;          /**< read position */
    uint64_t limit;        /**< end of the innermost open block (bit_size at the top level) */
    /* Copies of the innermost scope's fields, read once per entry (the top level's
     * width is 2 and it skips nothing): */
    uint32_t width;        /**< abbreviation id width */
    uint64_t skip_codes;   /**< see sb_bs_scope::skip_codes */
    uint64_t base_offset;  /**< added to byte offsets in errors */
    struct sb_error *error; /**< may be NULL */
    bool failed;
    uint32_t depth;
    struct sb_bs_scope scopes[SB_BS_MAX_DEPTH];
    struct sb_bs_abbrev_list local; /**< abbreviations of all open blocks, innermost last */
    struct sb_bs_blockinfo *infos;
    uint32_t info_count, info_capacity;
    /* The current entry: */
    uint64_t entry_bit;    /**< where it starts */
    uint32_t block_id;     /**< SB_BS_ENTER */
    uint32_t code;         /**< SB_BS_RECORD */
    uint32_t abbrev_id;
    uint64_t *ops;
    uint32_t op_count, op_capacity;
    /** Where arrays of up to SB_BS_ARENA_BYTES come from (sb_bs_use_arena); NULL: malloc. */
    struct sb_arena *arena;
};

/** The largest array (operands, abbreviations, BLOCKINFO lists) taken from the arena. */
#define SB_BS_ARENA_BYTES 16384u

/** Starts a cursor over `size` bytes (top level, abbreviation width 2) at byte `start`. */
void sb_bs_init(struct sb_bitstream *bs, const uint8_t *data, size_t size, size_t start,
                uint64_t base_offset, struct sb_error *error);

/**
 * Right after sb_bs_init: the cursor's arrays of up to SB_BS_ARENA_BYTES are allocated
 * from `arena`, which must outlive the cursor and keeps them until it is destroyed; a
 * larger one is malloc'd (copied there once it outgrows the arena's share). Saves a
 * module read its dozen mallocs and frees.
 */
void sb_bs_use_arena(struct sb_bitstream *bs, struct sb_arena *arena);

/** Frees the cursor's own memory (abbreviation lists, the operand buffer). */
void sb_bs_release(struct sb_bitstream *bs);

/** Reads the next entry; BLOCKINFO and DEFINE_ABBREV are handled inside. */
enum sb_bs_entry sb_bs_next(struct sb_bitstream *bs);

/**
 * From now on until the innermost block ends, its unabbreviated records whose
 * code c is below 64 and has bit c set in `codes` are passed over: sb_bs_next
 * never returns them, and their operands are counted, not decoded (so they are
 * not checked either: a VBR operand longer than 64 bits goes unnoticed). For
 * readers that do not need a kind of record a writer stores unabbreviated, such
 * as LLVM's metadata kind names, one VBR6 operand per character.
 */
void sb_bs_skip_records(struct sb_bitstream *bs, uint64_t codes);

/**
 * Right after sb_bs_skip_records at the start of a block: true when the block's bits are
 * those of a block this thread read to its end with every record passed over (the same
 * abbreviation width, length and codes passed over); the cursor is then past its end, as
 * after SB_BS_END. False (nothing read) otherwise. A block of only passed-over records
 * yields nothing, so reading it again is only time: LLVM 3.7 writes its metadata kind
 * names in a block of their own, the same in every module of a compiler version.
 */
bool sb_bs_pass_known_block(struct sb_bitstream *bs);

/** After SB_BS_ENTER: jumps over the block's body to its end (by the length word). */
bool sb_bs_skip_block(struct sb_bitstream *bs);

/** The block id of the innermost open block (UINT32_MAX at the top level). */
uint32_t sb_bs_current_block(const struct sb_bitstream *bs);

/**
 * Records the first failure: `code`, the byte offset of bit `bit` (plus the
 * base offset) and a message that starts with "bit N: ". Returns false.
 */
bool sb_bs_fail(struct sb_bitstream *bs, enum sb_result code, uint64_t bit, const char *format,
                ...) __attribute__((format(printf, 4, 5))) SB_COLD;

/* The primitive reads, exposed for tests and for readers of raw fields. Each
 * fails (TRUNCATED, or BC_VBR_TOO_LONG) past the innermost block's end. */
uint64_t sb_bs_read_fixed(struct sb_bitstream *bs, uint32_t width, const char *field);
uint64_t sb_bs_read_vbr(struct sb_bitstream *bs, uint32_t width, const char *field);
bool sb_bs_align32(struct sb_bitstream *bs, const char *field);

/** Bits left before the innermost block's end (or the data's end at the top level). */
uint64_t sb_bs_bits_left(const struct sb_bitstream *bs);

#endif
