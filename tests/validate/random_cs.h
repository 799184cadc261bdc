/* SPDX-License-Identifier: MIT */
/*
 * Seeded random cs_5_0 programs whose every output word D3D's rules fix
 * exactly (test_validate_generated.c): integer, bit, exact float and
 * conversion arithmetic, structured flow, loads, group-shared exchanges and
 * order-independent atomics, built with the SM4 assembler (sm4_asm.h).
 * random_cs.c explains how values are kept exact.
 */
#ifndef SB_TEST_RANDOM_CS_H
#define SB_TEST_RANDOM_CS_H

#include <stdbool.h>
#include <stdint.h>

#include "sm4_asm.h"

/* The signature each thread writes after its temps (see rcs_program). */
#define RCS_SIGNATURE 0x5B000000u

/** One generated program and what a runner needs to dispatch and check it. */
struct rcs_program {
    struct sm4_program program;  /**< the tokens (sm4_container wraps them) */
    uint32_t threads_x, threads_y; /**< dcl_thread_group (z = 1) */
    uint32_t groups;             /**< dispatch (groups, 1, 1) */
    uint32_t data_temps;         /**< r0..r(data_temps - 1) are written out */
    /** u0 (raw UAV) holds one record per thread at flat id * record_bytes: the data
     *  temps' xyzw in order, then (flat id, group id, ~flat id, RCS_SIGNATURE |
     *  data_temps), flat id = group * threads_x * threads_y + vThreadIDInGroupFlattened. */
    uint32_t record_bytes;
    uint32_t instructions;       /**< instructions emitted (declarations excluded) */
    uint32_t pruned;             /**< generated instructions the range check removed */
    uint32_t opcode_count[256];  /**< emitted instructions per SM4 opcode */
};

/**
 * Builds program `index` of the stream `seed` into *out (large: keep it static).
 * The same (seed, index) always gives the same tokens. False when no program fitting
 * the assembler's buffer was found (not expected).
 */
bool rcs_generate(uint64_t seed, uint32_t index, struct rcs_program *out);

#endif
