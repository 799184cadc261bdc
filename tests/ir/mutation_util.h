/* SPDX-License-Identifier: MIT */
/*
 * What the IR mutation tests share: a seeded xorshift generator (each test
 * file its own state, so runs repeat).
 */
#ifndef SB_TESTS_IR_MUTATION_UTIL_H
#define SB_TESTS_IR_MUTATION_UTIL_H

#include <stdint.h>

static uint64_t rng_state;
static uint32_t next_random(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (uint32_t)(rng_state >> 16);
}

#endif
