/* SPDX-License-Identifier: MIT */
/*
 * The seeded values every input comes from (runtime/README.md "Validation"):
 * splitmix64's finaliser and one word of a kind, in the usual ranges or small
 * (SB_RT_INPUTS_SMALL). Used by the input generator
 * (inputs.c), the PICA uniform buffer (inputs_pica.c) and the harnesses that
 * seed vertex streams and primitives; it calls nothing.
 */
#include "inputs_private.h"

#include <string.h>

uint64_t sb_rt_mix64(uint64_t x)
{
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

static uint32_t float_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

/* Multiples of 1/256: exact in every float format the runtime uses, so an upload
 * through RGBA16F or a unorm conversion loses nothing. */
uint32_t sb_rt_seeded_word(uint8_t kind, uint64_t random, bool typed_float)
{
    switch (kind) {
    case SB_RT_WORD_FLOAT:
        if (typed_float)
            return float_bits((float)(random % 257) / 256.0f);
        return float_bits((float)((int)(random % 1025) - 512) / 256.0f);
    case SB_RT_WORD_INT: return (uint32_t)((int32_t)(random % 16) - 8);
    case SB_RT_WORD_UINT: case SB_RT_WORD_UNKNOWN: return (uint32_t)(random % 16);
    case SB_RT_WORD_BOOL: return (uint32_t)(random & 1);
    default: return 0;
    }
}

/* Small and positive: a loop counting to such a value, dividing by it or doubling it past a
 * bound ends within a few iterations (validate.h, SB_RT_INPUTS_SMALL). */
uint32_t sb_rt_seeded_word_small(uint8_t kind, uint64_t random, bool typed_float)
{
    switch (kind) {
    case SB_RT_WORD_FLOAT:
        return float_bits((float)(random % (typed_float ? 256 : 512) + 1) / 256.0f);
    case SB_RT_WORD_INT: case SB_RT_WORD_UINT: case SB_RT_WORD_UNKNOWN: return (uint32_t)(random % 4 + 1);
    default: return sb_rt_seeded_word(kind, random, typed_float);
    }
}
