/* SPDX-License-Identifier: MIT */
/*
 * sb_interp_run_hull (shaderbridge/interp.h): hull programs on the compute
 * machinery. This commit declares the entry point and checks its arguments;
 * running the phases is the next commit's work, until then the run answers
 * SB_ERROR_RUN_UNSUPPORTED as validation did before.
 */
#include "interp_private.h"

#include "error.h"

enum sb_result sb_interp_run_hull(const struct sb_ir_program *program, struct sb_rt_resource *resources,
                                  uint32_t resource_count, uint32_t patch_count,
                                  const struct sb_interp_registers *inputs, struct sb_interp_hull_results *results,
                                  const struct sb_interp_options *options, struct sb_interp_stats *stats,
                                  struct sb_error *error)
{
    (void)resources;
    (void)resource_count;
    (void)patch_count;
    (void)options;
    if (stats)
        memset(stats, 0, sizeof(*stats));
    if (!program || !inputs || !results || program->stage != SB_IR_STAGE_HULL)
        return sb_error_set(error, SB_ERROR_INVALID_ARGUMENT, 0, SB_ERROR_NO_INSTR,
                            "sb_interp_run_hull: NULL arguments or not a hull program");
    return sb_error_set(error, SB_ERROR_RUN_UNSUPPORTED, 0, SB_ERROR_NO_INSTR,
                        "sb_interp_run_hull: hull programs are not run by the interpreter yet");
}
