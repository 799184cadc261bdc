/* SPDX-License-Identifier: MIT */
/*
 * One wave size on both sides of a validation: the interpreter's waves get as many lanes as
 * the device's subgroups (sb_rt_context_wave_size: its subgroupSize, or for a program that
 * requires a wave size, the size its pipeline is pinned to). Results of wave ops
 * (WaveGetLaneCount, reductions, ballots, prefixes) depend on that size, so comparing a
 * 32-lane interpreter with an 8-lane device would call correct translations wrong. A device
 * that cannot run the required size refuses the program (not-run, the reason named), never a
 * disagreement.
 */
#include "validate_private.h"

#include <stdio.h>

#include "shaderbridge/interp.h"

static bool uses_waves(const struct sb_ir_program *p)
{
    for (uint32_t f = 0; f < p->function_count; f++)
        for (uint32_t i = 0; i < p->functions[f].instruction_count; i++)
            if (sb_ir_op_is_wave(p->functions[f].instructions[i].op))
                return true;
    return false;
}

static bool interpreter_runs(uint32_t lanes)
{
    return lanes >= 4 && lanes <= 128 && (lanes & (lanes - 1)) == 0;
}

enum sb_result sb_validate_wave_lanes(struct sb_rt_context *context, const struct sb_rt_program *program,
                                      struct sb_validate_options *o, struct sb_error *error)
{
    const struct sb_ir_program *p = program->ir;
    if (o->interp.wave_lanes || !p || p->source == SB_IR_SOURCE_PICA) /* the caller's choice stands */
        return SB_SUCCESS;
    uint32_t lanes = 0;
    if (context && sb_rt_context_has_device(context) && (o->sides & SB_VALIDATE_SIDE_GPU)) {
        enum sb_result r = sb_rt_context_wave_size(context, program->stage, p->wave_size_min, p->wave_size_max,
                                                   p->wave_size_preferred, &lanes, error);
        if (r != SB_SUCCESS)
            return r;
    } else { /* the interpreter alone: the program's own size, else its usual one */
        lanes = sb_ir_wave_size_choose(p->wave_size_min, p->wave_size_max, p->wave_size_preferred, 4, 128,
                                       SB_INTERP_WAVE_SIZE);
    }
    if (interpreter_runs(lanes)) {
        o->interp.wave_lanes = lanes;
        return SB_SUCCESS;
    }
    if (!uses_waves(p)) /* no result depends on it */
        return SB_SUCCESS;
    char message[160];
    snprintf(message, sizeof(message), "not run: the device's subgroups have %u lanes; the interpreter runs waves "
             "of 4, 8, 16, 32, 64 or 128", lanes);
    return sb_validate_fail(error, SB_ERROR_RUN_UNSUPPORTED, message);
}
