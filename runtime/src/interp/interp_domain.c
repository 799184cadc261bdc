/* SPDX-License-Identifier: MIT */
/*
 * sb_interp_run_domain (shaderbridge/interp.h): domain programs at given
 * domain locations. This commit declares the entry point and checks its
 * arguments; running the program is the next commit's work, until then the
 * run answers SB_ERROR_RUN_UNSUPPORTED as validation did before.
 */
#include "interp_private.h"

#include "error.h"

enum sb_result sb_interp_run_domain(const struct sb_ir_program *program, struct sb_rt_resource *resources,
                                    uint32_t resource_count, uint32_t point_count, const uint32_t *patch_of_point,
                                    const float *domain_locations, uint32_t patch_count,
                                    const struct sb_interp_registers *control_points,
                                    const struct sb_interp_registers *patch_constants,
                                    struct sb_interp_registers *outputs, const struct sb_interp_options *options,
                                    struct sb_interp_stats *stats, struct sb_error *error)
{
    (void)resources;
    (void)resource_count;
    (void)point_count;
    (void)patch_of_point;
    (void)domain_locations;
    (void)patch_count;
    (void)options;
    if (stats)
        memset(stats, 0, sizeof(*stats));
    if (!program || !control_points || !patch_constants || !outputs || program->stage != SB_IR_STAGE_DOMAIN)
        return sb_error_set(error, SB_ERROR_INVALID_ARGUMENT, 0, SB_ERROR_NO_INSTR,
                            "sb_interp_run_domain: NULL arguments or not a domain program");
    return sb_error_set(error, SB_ERROR_RUN_UNSUPPORTED, 0, SB_ERROR_NO_INSTR,
                        "sb_interp_run_domain: domain programs are not run by the interpreter yet");
}
