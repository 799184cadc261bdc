/* SPDX-License-Identifier: MIT */
/* Shared between the input generator, its RDEF word-kind maps and the comparer. */
#ifndef SB_RUNTIME_INPUTS_PRIVATE_H
#define SB_RUNTIME_INPUTS_PRIVATE_H

#include <stdbool.h>
#include <stdint.h>

#include "shaderbridge/validate.h"
#include "translator/ir.h"

/**
 * Fills `kinds` (word_count entries, pre-filled with the default kind) from the
 * RDEF layout of constant buffer or structured buffer `r`. False when the container
 * has no RDEF description of it (kinds unchanged).
 */
bool sb_rt_kinds_from_rdef(const struct sb_dxbc *container, const struct sb_ir_resource *r,
                           uint8_t *kinds, uint32_t word_count);

/**
 * Fills `kinds` of constant buffer `r` from how the program reads it: lanes read by a
 * float slot become FLOAT, by an integer slot INT/UINT (an integer use wins), lanes used
 * as relative indices UINT. For containers without RDEF (stripped shaders).
 */
void sb_rt_kinds_from_usage(const struct sb_ir_program *ir, const struct sb_ir_resource *r,
                            uint8_t *kinds, uint32_t word_count);

/** The 64-bit mixing step (splitmix64's finaliser) all seeded values come from. */
uint64_t sb_rt_mix64(uint64_t x);

/** How a shader reads `format`'s texels: SB_RT_WORD_FLOAT (unorm, snorm, float, BC and depth
 *  formats), SB_RT_WORD_UINT or SB_RT_WORD_INT (inputs.c). */
uint8_t sb_rt_format_read_kind(uint32_t format);

/**
 * A seeded word of `kind` from `random`: floats are multiples of 1/256 in [-2, 2]
 * ([0, 1] with `typed_float`, texture data), ints in [-8, 8), uints (and unknown
 * words) in [0, 16), bools 0/1.
 */
uint32_t sb_rt_seeded_word(uint8_t kind, uint64_t random, bool typed_float);

/** sb_rt_seeded_word under SB_RT_INPUTS_SMALL: ints, uints and unknown words in [1, 4],
 *  floats multiples of 1/256 in (0, 2] ((0, 1] with `typed_float`); other kinds as usual. */
uint32_t sb_rt_seeded_word_small(uint8_t kind, uint64_t random, bool typed_float);

/** A seeded word as the SB_RT_INPUTS_* `flags` ask for. */
static inline uint32_t sb_rt_seeded_word_as(uint32_t flags, uint8_t kind, uint64_t random, bool typed_float)
{
    return (flags & SB_RT_INPUTS_SMALL) ? sb_rt_seeded_word_small(kind, random, typed_float)
                                        : sb_rt_seeded_word(kind, random, typed_float);
}

/* ---- descriptor-range indices from data (inputs_index.c) ---- */

#define SB_RT_INDEX_WORDS_MAX 64u
#define SB_RT_INDEX_RANGES_MAX 8u

/** Words of one declaration's resources: `word` of each (UINT32_MAX: all of their words). */
struct sb_rt_index_word {
    uint32_t decl;            /**< index into the program's IR resources */
    uint32_t word;
};

/** What the range indices of one instruction are computed from (sb_rt_index_sources). */
struct sb_rt_index_sources {
    uint32_t word_count;
    struct sb_rt_index_word words[SB_RT_INDEX_WORDS_MAX];
    bool other;               /**< also values no input holds: thread ids, stage inputs, sizes */
    bool truncated;           /**< more than the walk or `words` holds: the list is partial */
    uint32_t range_count;     /**< the ranges indexed (declarations), the first SB_RT_INDEX_RANGES_MAX */
    uint32_t ranges[SB_RT_INDEX_RANGES_MAX];
    bool unbounded;           /**< one of them is unbounded */
    uint32_t literal_end;     /**< unbounded ranges: 1 + the largest literal index into one, or 0 */
    uint32_t smallest_range;  /**< registers of the smallest bounded range indexed; 0: none is bounded */
};

/**
 * The seeded words the SM5.1 range indices (t#, s#, u#, cb# with a register index) of the
 * instructions at shader byte offset `offset` are computed from, following the program's
 * registers back through every instruction that writes them (inputs_index.c says how far).
 * False when no instruction there indexes a range, or out of memory.
 */
bool sb_rt_index_sources(const struct sb_ir_program *ir, uint32_t offset, struct sb_rt_index_sources *out);

/** Words to reseed in [0, limit) (limit 1: zero). */
struct sb_rt_index_mark {
    struct sb_rt_index_word at;
    uint32_t limit;
    /** Integers whatever the word's kind (an index the program uses as the word's bits; a
     *  float conversion of such a tiny denormal gives 0, still inside). */
    bool integer;
};

/**
 * Marks for the seeded words that feed a relative index into an arrayed stage input of `ir`
 * (v[n][r] and vicp / vocp of geometry, hull and domain programs), followed back as for
 * range indices (sb_rt_index_sources); the limit of a word is the fewest control points or
 * registers an index it feeds may address (the declared count, the dcl_indexrange that
 * holds the base register, else 1), as integers. Fills at most `max`; returns the count.
 */
uint32_t sb_rt_input_index_marks(const struct sb_ir_program *ir, struct sb_rt_index_mark *marks, uint32_t max);

/**
 * Reseeds the marked words of `in` (made by sb_rt_inputs_create for `ir`, with `unbounded`
 * descriptors per unbounded range) with values in [0, limit) of each word's kind: integers
 * for int/uint/unknown words, whole floats for float words; other kinds and depth textures
 * keep theirs. Values from `seed`, as every seeded word.
 */
void sb_rt_inputs_fit_indices(const struct sb_ir_program *ir, struct sb_rt_inputs *in,
                              const struct sb_rt_index_mark *marks, uint32_t mark_count,
                              uint32_t unbounded, uint64_t seed);

/** The kind of word `w` of resource `i`. */
static inline uint8_t sb_rt_word_kind_of(const struct sb_rt_inputs *inputs, uint32_t i, uint64_t w)
{
    return inputs->word_kinds[i] ? inputs->word_kinds[i][w] : inputs->uniform_kind[i];
}

#endif
