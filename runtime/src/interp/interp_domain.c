/* SPDX-License-Identifier: MIT */
/*
 * sb_interp_run_domain (shaderbridge/interp.h): domain programs at domain
 * locations the caller gives (a device's recorded TessCoord values, or the
 * CPU tessellator's points), on the compute machinery. A lane is one domain
 * point; what differs from a vertex batch is where the registers come from:
 *   vicp / v[n][r]  the patch's control points, laid out per lane as a
 *                   geometry batch lays out its vertices (io_in, in_vertices);
 *   vpc#            the patch's constants, per lane (io_patch);
 *   vDomain         special[3]: (u, v, w, 0) for tri, (u, v, 0, 0) otherwise,
 *                   as the back end copies TessCoord in (spirv_stage_ds.c);
 *   vPrim           x of special[0]: the patch.
 * o# start as the caller filled them and go back per point, with their
 * bounds in a tracked run, exactly as for vertices (interp_graphics.c).
 */
#include "interp_private.h"

#include "error.h"

#include <stdlib.h>
#include <string.h>
#include "translator/ir.h"

/* Points per batch: up to SB_INTERP_MAX_LANES, fewer when every lane's copy of its patch's
 * control points would make the batch's inputs pass BATCH_INPUT_BYTES. */
#define BATCH_INPUT_BYTES (32u << 20)

static enum sb_result invalid(struct sb_error *error, const char *why)
{
    return sb_error_set(error, SB_ERROR_INVALID_ARGUMENT, 0, SB_ERROR_NO_INSTR, "sb_interp_run_domain: %s", why);
}

static const char *check(const struct sb_ir_program *p, const struct sb_rt_resource *res, uint32_t res_count,
                         uint32_t points, const uint32_t *patch_of_point, const float *locations,
                         const struct sb_interp_registers *cp, const struct sb_interp_registers *pc,
                         const struct sb_interp_registers *out)
{
    if (!p || (res_count && !res) || !cp || !pc || !out)
        return "NULL program, resource table, control points, patch constants or outputs";
    if (p->stage != SB_IR_STAGE_DOMAIN)
        return "the program is not a domain shader";
    if (!p->function_count || !p->functions)
        return "the program has no entry function";
    if (p->input_control_points > 32)
        return "more than 32 input control points";
    if (cp->registers > 4096 || pc->registers > 4096 || out->registers > 4096)
        return "more than 4096 registers";
    if (!points)
        return NULL;
    if (!patch_of_point || !locations)
        return "NULL patch_of_point or domain_locations";
    if ((cp->registers && p->input_control_points && !cp->words) || (pc->registers && !pc->words) ||
        (out->registers && !out->words))
        return "registers without words";
    return NULL;
}

static enum sb_result begin(struct interp_state *s, const struct sb_ir_program *p, struct sb_rt_resource *res,
                            uint32_t res_count, uint32_t lanes, uint32_t points,
                            const struct sb_interp_registers *cp, const struct sb_interp_registers *pc,
                            const struct sb_interp_registers *out, const struct sb_interp_options *o,
                            struct sb_error *error)
{
    sb_interp_state_init(s, p, res, res_count, lanes, o, error);
    s->stage = p->stage;
    s->out_words = out->words;
    s->in_vertices = p->input_control_points ? p->input_control_points : 1;
    s->in_regs = sb_interp_signature_registers(p, SB_IR_SIGNATURE_INPUT, SB_IR_FILE_INPUT, cp->registers);
    s->patch_regs =
        sb_interp_signature_registers(p, SB_IR_SIGNATURE_PATCH, SB_IR_FILE_INPUT_PATCH_CONSTANT, pc->registers);
    s->out_regs = out->registers;
    s->domain_point = true;
    if (sb_interp_setup(s) != SB_SUCCESS)
        return s->result;
    size_t n = s->lanes;
    s->io_in = calloc((size_t)(s->in_regs ? s->in_regs : 1) * s->in_vertices * 4 * n, sizeof(uint32_t));
    s->io_patch = calloc((size_t)(s->patch_regs ? s->patch_regs : 1) * 4 * n, sizeof(uint32_t));
    s->io_out = calloc((size_t)(s->out_regs ? s->out_regs : 1) * 4 * n, sizeof(uint32_t));
    if (!s->io_in || !s->io_patch || !s->io_out)
        return sb_interp_fail(s, SB_ERROR_OUT_OF_MEMORY, "out of memory");
    if (sb_interp_precision_add_pool(s, s->io_out, (size_t)(s->out_regs ? s->out_regs : 1) * 4 * n) != SB_SUCCESS)
        return s->result;
    if (s->prec && out->words)
        return sb_interp_track_outputs(s, (size_t)points * out->registers * 4);
    return SB_SUCCESS;
}

/* Lane l = point i: its patch's control points and constants, vDomain, vPrim, its o#. */
static void fill_lane(struct interp_state *s, uint32_t l, uint32_t i, uint32_t patch, const float *location,
                      const struct sb_interp_registers *cp, const struct sb_interp_registers *pc,
                      const struct sb_interp_registers *out)
{
    const struct sb_ir_program *p = s->program;
    uint32_t n = s->lanes;
    sb_interp_load_points(s, l, cp, (size_t)patch * p->input_control_points, p->input_control_points);
    for (uint32_t r = 0; r < s->patch_regs; r++)
        for (uint32_t c = 0; c < 4; c++)
            s->io_patch[((size_t)r * 4 + c) * n + l] =
                r < pc->registers ? pc->words[((size_t)patch * pc->registers + r) * 4 + c] : 0;
    sb_interp_copy_registers(s, s->io_out, l, out, i, true);
    bool tri = p->tess_domain == SB_INTERP_TESS_TRI;
    s->special[l] = patch;
    s->special[12 * n + l] = U(location[0]);
    s->special[13 * n + l] = U(location[1]);
    s->special[14 * n + l] = tri ? U(location[2]) : 0;
    s->special[15 * n + l] = 0;
}

static uint32_t batch_lanes(const struct sb_ir_program *p, const struct sb_interp_registers *cp)
{
    uint64_t regs = sb_interp_signature_registers(p, SB_IR_SIGNATURE_INPUT, SB_IR_FILE_INPUT, cp->registers);
    uint64_t per_lane = (regs ? regs : 1) * (p->input_control_points ? p->input_control_points : 1) * 16u;
    uint64_t lanes = BATCH_INPUT_BYTES / per_lane / SB_INTERP_LANE_BLOCK * SB_INTERP_LANE_BLOCK;
    return lanes < SB_INTERP_LANE_BLOCK ? SB_INTERP_LANE_BLOCK
           : lanes > SB_INTERP_MAX_LANES ? SB_INTERP_MAX_LANES
                                         : (uint32_t)lanes;
}

enum sb_result sb_interp_run_domain(const struct sb_ir_program *program, struct sb_rt_resource *resources,
                                    uint32_t resource_count, uint32_t point_count, const uint32_t *patch_of_point,
                                    const float *domain_locations, uint32_t patch_count,
                                    const struct sb_interp_registers *control_points,
                                    const struct sb_interp_registers *patch_constants,
                                    struct sb_interp_registers *outputs, const struct sb_interp_options *options,
                                    struct sb_interp_stats *stats, struct sb_error *error)
{
    const char *why = check(program, resources, resource_count, point_count, patch_of_point, domain_locations,
                            control_points, patch_constants, outputs);
    if (why)
        return invalid(error, why);
    if (stats)
        memset(stats, 0, sizeof(*stats));
    for (uint32_t i = 0; i < point_count; i++)
        if (patch_of_point[i] >= patch_count)
            return sb_error_set(error, SB_ERROR_INVALID_ARGUMENT, 0, SB_ERROR_NO_INSTR,
                                "sb_interp_run_domain: point %u names patch %u of %u", i, patch_of_point[i],
                                patch_count);
    if (!point_count)
        return SB_SUCCESS;
    uint32_t per_batch = batch_lanes(program, control_points);
    uint32_t lanes = point_count < per_batch ? point_count : per_batch;
    struct interp_state s;
    struct sb_ir_program *lowered = NULL;
    enum sb_result lowering = sb_interp_lower(&program, &lowered, stats, error);
    if (lowering != SB_SUCCESS)
        return lowering;
    if (begin(&s, program, resources, resource_count, lanes, point_count, control_points, patch_constants, outputs,
              options, error) == SB_SUCCESS) {
        for (uint32_t base = 0; base < point_count && s.result == SB_SUCCESS; base += per_batch) {
            s.invocations = point_count - base < per_batch ? point_count - base : per_batch;
            sb_interp_clear(&s);
            if (s.race)
                sb_interp_race_batch(&s, base);
            for (uint32_t l = 0; l < s.invocations; l++)
                fill_lane(&s, l, base + l, patch_of_point[base + l], &domain_locations[(size_t)(base + l) * 3],
                          control_points, patch_constants, outputs);
            s.stats.invocations += s.invocations;
            if (sb_interp_flow_run(&s) != SB_SUCCESS)
                break;
            for (uint32_t l = 0; l < s.invocations; l++)
                sb_interp_copy_registers(&s, s.io_out, l, outputs, base + l, false);
        }
        if (s.race && s.result == SB_SUCCESS)
            sb_interp_race_outputs(&s, outputs->registers, point_count);
    }
    sb_interp_release(&s);
    s.stats.instructions = s.executed;
    if (stats)
        *stats = s.stats;
    sb_ir_program_destroy(lowered);
    return s.result;
}
