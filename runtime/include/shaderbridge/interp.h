/* SPDX-License-Identifier: MIT */
/*
 * The CPU interpreter: runs an IR program (shaderbridge/ir.h) with exactly
 * the semantics the SPIR-V back end implements (translator/IR.md
 * §Semantics), to validate GPU results or to run without a GPU.
 *
 * Execution is structure-of-arrays: each decoded instruction is applied to
 * every active invocation of a batch before the next one (a compute batch is
 * one whole thread group, so group-shared memory and barriers behave as on
 * a GPU). Structured control flow uses per-invocation active masks.
 *
 * Resources are found by (class, space, register) in the caller's table
 * (shaderbridge/resources.h); out-of-bounds reads return 0 and out-of-bounds
 * writes are dropped (Vulkan robustBufferAccess, IR.md). Every dispatch has
 * an instruction budget, so no program can hang the caller.
 */
#ifndef SHADERBRIDGE_INTERP_H
#define SHADERBRIDGE_INTERP_H

#include <stdint.h>

#include "shaderbridge/ir.h"
#include "shaderbridge/resources.h"
#include "shaderbridge/result.h"

#ifdef __cplusplus
extern "C" {
#endif

struct sb_interp_options {
    /** Most instructions executed by one dispatch, counted once per instruction per batch
     *  (not per invocation); 0 = the default, 1 << 26. */
    uint64_t instruction_budget;
};

struct sb_interp_stats {
    uint64_t instructions;    /**< instructions executed (per batch) */
    uint64_t invocations;     /**< invocations run */
    uint64_t lane_instructions; /**< sum over instructions of the active invocations */
};

/**
 * Runs a compute program for group_count[0] x [1] x [2] thread groups.
 * UAV contents (and append/consume counters) are updated in `resources`.
 * options and stats may be NULL.
 * Errors: SB_ERROR_RUN_BINDING (a declared resource missing from the table or too
 * small for its declaration), SB_ERROR_RUN_UNSUPPORTED (named in the message, with the
 * instruction's offset), SB_ERROR_RUN_BUDGET, SB_ERROR_INVALID_ARGUMENT (not a compute
 * program, a zero or oversized group count).
 */
enum sb_result sb_interp_dispatch(const struct sb_ir_program *program,
                                  struct sb_rt_resource *resources, uint32_t resource_count,
                                  const uint32_t group_count[3],
                                  const struct sb_interp_options *options,
                                  struct sb_interp_stats *stats, struct sb_error *error);

#ifdef __cplusplus
}
#endif

#endif
