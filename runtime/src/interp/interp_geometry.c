/* SPDX-License-Identifier: MIT */
/*
 * sb_interp_run_geometry (shaderbridge/interp.h): geometry programs on the
 * compute machinery. A lane is one invocation (input primitive, instance);
 * a batch holds up to SB_INTERP_MAX_LANES of them in lockstep, as the
 * other stages do (fewer when the primitives' inputs are large). What differs
 * from a vertex batch:
 *   v[n][r]  every lane holds all vertices of its primitive: io_in is
 *            [(vertex * in_regs + reg) * 4 + c][lanes] (in_vertices set),
 *            read by interp_operand.c for both indices, either of them relative;
 *   vPrim / vGSInstanceID  x of special[0] / special[2];
 *   EMIT/CUT record into the invocation's results (interp_emit.c).
 * o# registers are zero at the start of an invocation (the back end's o#
 * array has a null initializer) and are not reset by an emit.
 */
#include "interp_private.h"

#include "error.h"

#include <stdlib.h>
#include <string.h>
#include "translator/ir.h"


uint32_t sb_interp_geometry_input_vertices(uint32_t gs_input_primitive)
{
    static const uint8_t vertices[8] = { 0, 1, 2, 3, 0, 0, 4, 6 }; /* §8.8: 4, 5 are undefined */
    if (gs_input_primitive < 8)
        return vertices[gs_input_primitive];
    return gs_input_primitive <= 39 ? gs_input_primitive - 7 : 0;
}

static enum sb_result invalid(struct sb_error *error, const char *why)
{
    return sb_error_set(error, SB_ERROR_INVALID_ARGUMENT, 0, SB_ERROR_NO_INSTR, "sb_interp_run_geometry: %s", why);
}

static const char *check(const struct sb_ir_program *p, const struct sb_rt_resource *res, uint32_t res_count,
                         uint32_t primitives, const struct sb_interp_registers *in,
                         const struct sb_interp_geometry_results *out)
{
    if (!p || (res_count && !res) || !in || !out)
        return "NULL program, resource table, inputs or results";
    if (p->stage != SB_IR_STAGE_GEOMETRY)
        return "the program is not a geometry shader";
    if (!p->function_count || !p->functions)
        return "the program has no entry function";
    if (!sb_interp_geometry_input_vertices(p->gs_input_primitive))
        return "the program's input primitive has no vertex count";
    if (in->registers > 4096 || out->registers > 4096)
        return "more than 4096 registers";
    if (out->max_vertices < p->gs_max_output_vertices)
        return "results hold fewer vertex slots than the program's maximum output vertex count";
    if (primitives && ((in->registers && !in->words) || (out->registers && out->max_vertices && !out->words) ||
                       !out->vertex_count || !out->stream || !out->cut_before))
        return "missing input or result arrays";
    uint64_t instances = p->gs_instance_count ? p->gs_instance_count : 1;
    if (instances > 32 || (uint64_t)primitives * instances > UINT32_MAX / 2)
        return "too many invocations (primitives x instances)";
    return NULL;
}

/* State of a geometry run: setup plus the v#/o# arrays (in_vertices vertices per lane). */
static enum sb_result begin(struct interp_state *s, const struct sb_ir_program *p, struct sb_rt_resource *res,
                            uint32_t res_count, uint32_t lanes, const struct sb_interp_registers *in,
                            const struct sb_interp_registers *out, const struct sb_interp_options *o,
                            struct sb_error *error)
{
    sb_interp_state_init(s, p, res, res_count, lanes, o, error);
    s->stage = p->stage;
    s->in_vertices = sb_interp_geometry_input_vertices(p->gs_input_primitive);
    s->in_regs = in->registers;
    s->out_regs = out->registers;
    for (uint32_t e = 0; e < p->signature_count; e++) {
        const struct sb_ir_signature_element *el = &p->signature[e];
        if (el->register_index >= 4096)
            continue;
        if (el->kind == SB_IR_SIGNATURE_INPUT && el->file == SB_IR_FILE_INPUT && el->register_index >= s->in_regs)
            s->in_regs = el->register_index + 1;
        if (el->kind == SB_IR_SIGNATURE_OUTPUT && el->file == SB_IR_FILE_OUTPUT && el->register_index >= s->out_regs)
            s->out_regs = el->register_index + 1;
    }
    if (sb_interp_setup(s) != SB_SUCCESS)
        return s->result;
    size_t n = s->lanes;
    s->io_in = calloc((size_t)(s->in_regs ? s->in_regs : 1) * s->in_vertices * 4 * n, sizeof(uint32_t));
    s->io_out = calloc((size_t)(s->out_regs ? s->out_regs : 1) * 4 * n, sizeof(uint32_t));
    if (!s->io_in || !s->io_out)
        return sb_interp_fail(s, SB_ERROR_OUT_OF_MEMORY, "out of memory");
    return SB_SUCCESS;
}

/* Lanes of invocations first .. first + s->invocations - 1: inputs, ids, zeroed outputs. */
static void fill_batch(struct interp_state *s, uint32_t first, uint32_t instances,
                       const struct sb_interp_registers *in)
{
    uint32_t n = s->lanes, verts = s->in_vertices;
    memset(s->io_out, 0, (size_t)(s->out_regs ? s->out_regs : 1) * 4 * n * sizeof(uint32_t));
    for (uint32_t l = 0; l < s->invocations; l++) {
        uint32_t j = first + l, prim = j / instances;
        s->special[l] = prim;
        s->special[8 * n + l] = j % instances;
        for (uint32_t v = 0; v < verts; v++)
            for (uint32_t r = 0; r < s->in_regs; r++)
                for (uint32_t c = 0; c < 4; c++)
                    s->io_in[(((size_t)v * s->in_regs + r) * 4 + c) * n + l] =
                        r < in->registers ? in->words[(((size_t)prim * verts + v) * in->registers + r) * 4 + c] : 0;
    }
}

/* Invocations per batch: up to SB_INTERP_MAX_LANES, fewer when every lane's copy of its
 * primitive's v# registers would make the batch's inputs pass BATCH_INPUT_BYTES. */
#define BATCH_INPUT_BYTES (32u << 20)

static uint32_t batch_lanes(const struct sb_ir_program *p, const struct sb_interp_registers *in)
{
    uint64_t regs = in->registers;
    for (uint32_t e = 0; e < p->signature_count; e++) {
        const struct sb_ir_signature_element *el = &p->signature[e];
        if (el->kind == SB_IR_SIGNATURE_INPUT && el->file == SB_IR_FILE_INPUT && el->register_index < 4096 &&
            el->register_index >= regs)
            regs = el->register_index + 1;
    }
    uint64_t per_lane = (regs ? regs : 1) * sb_interp_geometry_input_vertices(p->gs_input_primitive) * 16u;
    uint64_t lanes = BATCH_INPUT_BYTES / per_lane;
    lanes = lanes / SB_INTERP_LANE_BLOCK * SB_INTERP_LANE_BLOCK;
    return lanes < SB_INTERP_LANE_BLOCK ? SB_INTERP_LANE_BLOCK : lanes > SB_INTERP_MAX_LANES ? SB_INTERP_MAX_LANES
                                                                                            : (uint32_t)lanes;
}

static void clear_results(struct sb_interp_geometry_results *r, uint32_t invocations)
{
    size_t slots = (size_t)invocations * r->max_vertices;
    if (r->words)
        memset(r->words, 0, slots * r->registers * 4 * sizeof(uint32_t));
    memset(r->vertex_count, 0, (size_t)invocations * sizeof(uint32_t));
    memset(r->stream, 0, slots);
    memset(r->cut_before, 0, slots + invocations);
    if (r->dropped)
        memset(r->dropped, 0, (size_t)invocations * sizeof(uint32_t));
}

enum sb_result sb_interp_run_geometry(const struct sb_ir_program *program, struct sb_rt_resource *resources,
                                      uint32_t resource_count, uint32_t primitive_count,
                                      const struct sb_interp_registers *inputs,
                                      struct sb_interp_geometry_results *results,
                                      const struct sb_interp_options *options, struct sb_interp_stats *stats,
                                      struct sb_error *error)
{
    const char *why = check(program, resources, resource_count, primitive_count, inputs, results);
    if (why)
        return invalid(error, why);
    if (stats)
        memset(stats, 0, sizeof(*stats));
    uint32_t instances = program->gs_instance_count ? program->gs_instance_count : 1;
    uint32_t invocations = primitive_count * instances;
    if (!invocations)
        return SB_SUCCESS;
    clear_results(results, invocations);
    struct interp_geometry g = { .results = results, .max = program->gs_max_output_vertices };
    struct sb_interp_registers out = { .registers = results->registers };
    uint32_t per_batch = batch_lanes(program, inputs);
    uint32_t lanes = invocations < per_batch ? invocations : per_batch;
    struct interp_state s;
    struct sb_ir_program *lowered = NULL;
    enum sb_result lowering = sb_interp_lower(&program, &lowered, stats, error);
    if (lowering != SB_SUCCESS)
        return lowering;
    if (begin(&s, program, resources, resource_count, lanes, inputs, &out, options, error) == SB_SUCCESS) {
        s.geometry = &g;
        for (uint32_t first = 0; first < invocations && s.result == SB_SUCCESS; first += per_batch) {
            s.invocations = invocations - first < per_batch ? invocations - first : per_batch;
            sb_interp_clear(&s);
            if (s.race)
                sb_interp_race_batch(&s, first);
            g.first = first;
            fill_batch(&s, first, instances, inputs);
            s.stats.invocations += s.invocations;
            sb_interp_flow_run(&s);
        }
    }
    s.geometry = NULL;
    sb_interp_release(&s);
    s.stats.instructions = s.executed;
    if (stats)
        *stats = s.stats;
    sb_ir_program_destroy(lowered);
    return s.result;
}
