/* SPDX-License-Identifier: MIT */
/*
 * Private interface between the SHBIN reader's files: shbin.c (DVLB, DVLP,
 * life cycle), shbin_dvle.c (DVLE header and tables) and shbin_names.c
 * (format tables, float24). ../shared/docs/pica200.md §12.
 */
#ifndef SB_REFLECT_SHBIN_PRIVATE_H
#define SB_REFLECT_SHBIN_PRIVATE_H

#include "shaderbridge/shbin.h"
#include "reflect_private.h"

/** One row of the output-type table (§11.2). */
struct sb_shbin_output_type_row {
    enum sb_shbin_output_type type;
    const char *name;
    uint8_t lanes;      /**< how many semantic codes the type hands out; 0 for dummy */
    uint8_t first_code; /**< first §11.1 code */
};

/** The row of an output type, or NULL for values the format does not assign. */
const struct sb_shbin_output_type_row *sb_shbin_output_type_row(uint32_t type);

/** Fills the per-lane semantics of an output entry (libctru's outmap walk, §11.2). */
void sb_shbin_output_semantics(const struct sb_shbin_output_type_row *row, uint8_t mask,
                               uint8_t semantics[4]);

/** What DVLE decoding needs from the rest of the parse. */
struct sb_shbin_dvle_context {
    struct sb_reader *reader;
    struct sb_cursor file;       /**< the whole input */
    uint32_t code_word_count;    /**< from the DVLP, for address checks */
    /**
     * Bytes of DVLE tables decoded so far across all DVLEs; the reader's own
     * limit keeps it at most the file size, so overlapping tables cannot
     * multiply the memory one small file costs.
     */
    uint64_t table_bytes;
};

/**
 * Decodes the DVLE whose header starts at absolute offset `offset` (already
 * checked to lie inside the file). Returns false with the failure recorded
 * in the reader.
 */
bool sb_shbin_decode_dvle(struct sb_shbin_dvle_context *ctx, uint32_t offset,
                          struct sb_shbin_dvle *dvle);

#endif
