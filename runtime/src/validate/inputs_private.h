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

/**
 * A seeded word of `kind` from `random`: floats are multiples of 1/256 in [-2, 2]
 * ([0, 1] with `typed_float`, texture data), ints in [-8, 8), uints (and unknown
 * words) in [0, 16), bools 0/1.
 */
uint32_t sb_rt_seeded_word(uint8_t kind, uint64_t random, bool typed_float);

/** The kind of word `w` of resource `i`. */
static inline uint8_t sb_rt_word_kind_of(const struct sb_rt_inputs *inputs, uint32_t i, uint64_t w)
{
    return inputs->word_kinds[i] ? inputs->word_kinds[i][w] : inputs->uniform_kind[i];
}

#endif
