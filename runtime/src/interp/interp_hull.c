/* SPDX-License-Identifier: MIT */
/*
 * sb_interp_run_hull (shaderbridge/interp.h): hull programs on the compute
 * machinery, phase by phase as D3D11 defines them (IR.md §Functions:
 * functions[0] is the control-point phase, then fork and join phases with
 * their instance counts from first_fork_phase).
 *
 * Phases hand each other only per-patch records, kept here at the width the
 * program declares: the control points (what phase 1 wrote) and the patch
 * constants (what the fork and join phases wrote so far). So each step is an
 * ordinary batch run with its own lane meaning:
 *   control-point phase  lane = (patch, output control point): io_in holds the
 *                        patch's input control points (as a geometry batch's
 *                        vertices), o# the control point, x of special[2]
 *                        vOutputControlPointID;
 *   fork / join phase    lane = patch, once per instance: io_in as above, io_ocp
 *                        the patch's output control points (vocp), o# the patch
 *                        constants loaded from the record and stored back
 *                        (vpc# reads them too: io_patch is io_out, the back
 *                        end's aliasing), x of special[2] the instance id.
 * vPrim is the patch (x of special[0]) throughout. Running the instances of
 * a fork phase one after another, each over all patches, gives the serial
 * order the SPIR-V back end runs them in (spirv_stage_hs.c); D3D may run them
 * in parallel, which only matters to a program whose instances write the same
 * register. In a tracked run the records carry their precision bounds too, so
 * a bound computed in phase 1 reaches the vocp reads of phase 2.
 *
 * Race detection numbers control-point invocations p * OCP + k and patch-phase
 * invocations patches * OCP + p; the phases of one patch count as one
 * invocation (D3D orders them).
 */
#include "interp_private.h"

#include "error.h"

#include <stdlib.h>
#include <string.h>
#include "translator/ir.h"

/* Invocations per batch: up to SB_INTERP_MAX_LANES, fewer when the lanes' copies of their
 * patch's control points would pass BATCH_INPUT_BYTES. */
#define BATCH_INPUT_BYTES (32u << 20)

/* The records the phases hand on, with their bounds in a tracked run. */
struct hull_run {
    const struct sb_ir_program *p;
    const struct sb_interp_registers *in;
    uint32_t patches, icp, ocp;
    uint32_t cp_regs, pc_regs;       /* the records' widths: the caller's, or more where declared */
    uint32_t *cp, *pc;               /* patches * ocp * cp_regs * 4 and patches * pc_regs * 4 words */
    float *cp_bound, *pc_bound;      /* tracked precision: per word of cp / pc, else NULL */
    uint32_t *cp_origin, *pc_origin;
};

static const char *check(const struct sb_ir_program *p, const struct sb_rt_resource *res, uint32_t res_count,
                         uint32_t patches, const struct sb_interp_registers *in,
                         const struct sb_interp_hull_results *out)
{
    if (!p || (res_count && !res) || !in || !out)
        return "NULL program, resource table, inputs or results";
    if (p->stage != SB_IR_STAGE_HULL)
        return "the program is not a hull shader";
    if (!p->function_count || !p->functions)
        return "the program has no control-point phase function";
    if ((uint64_t)p->first_fork_phase + p->fork_phase_count + p->join_phase_count > p->function_count ||
        (p->fork_phase_count + p->join_phase_count && !p->first_fork_phase))
        return "the program's fork/join phases lie outside its functions";
    if (p->input_control_points > 32 || p->output_control_points > 32)
        return "more than 32 input or output control points";
    if (in->registers > 4096 || out->control_points.registers > 4096 || out->patch_constants.registers > 4096)
        return "more than 4096 registers";
    if ((uint64_t)patches * (p->output_control_points + 1u) > UINT32_MAX / 2)
        return "too many invocations (patches x output control points)";
    if (patches && ((in->registers && p->input_control_points && !in->words) ||
                    (out->control_points.registers && p->output_control_points && !out->control_points.words) ||
                    (out->patch_constants.registers && !out->patch_constants.words)))
        return "registers without words";
    return NULL;
}

static enum sb_result invalid(struct sb_error *error, const char *why)
{
    return sb_error_set(error, SB_ERROR_INVALID_ARGUMENT, 0, SB_ERROR_NO_INSTR, "sb_interp_run_hull: %s", why);
}

static uint32_t batch_lanes(const struct hull_run *h, uint32_t in_regs)
{
    uint64_t words = (uint64_t)(h->icp ? h->icp : 1) * (in_regs ? in_regs : 1) + (uint64_t)h->ocp * h->cp_regs +
                     (h->cp_regs > h->pc_regs ? h->cp_regs : h->pc_regs) + 1;
    uint64_t lanes = BATCH_INPUT_BYTES / (words * 16u) / SB_INTERP_LANE_BLOCK * SB_INTERP_LANE_BLOCK;
    uint64_t most = (uint64_t)h->patches * (h->ocp > 1 ? h->ocp : 1);
    if (lanes > most)
        lanes = most;
    return lanes < SB_INTERP_LANE_BLOCK ? SB_INTERP_LANE_BLOCK
           : lanes > SB_INTERP_MAX_LANES ? SB_INTERP_MAX_LANES
                                         : (uint32_t)lanes;
}

/* The records (and their bounds when tracked). */
static enum sb_result allocate_records(struct interp_state *s, struct hull_run *h)
{
    size_t cp_words = (size_t)h->patches * h->ocp * h->cp_regs * 4, pc_words = (size_t)h->patches * h->pc_regs * 4;
    h->cp = calloc(cp_words ? cp_words : 1, sizeof(uint32_t));
    h->pc = calloc(pc_words ? pc_words : 1, sizeof(uint32_t));
    if (!h->cp || !h->pc)
        return sb_interp_fail(s, SB_ERROR_OUT_OF_MEMORY, "out of memory");
    if (!s->prec)
        return SB_SUCCESS;
    h->cp_bound = calloc(cp_words ? cp_words : 1, sizeof(float));
    h->pc_bound = calloc(pc_words ? pc_words : 1, sizeof(float));
    h->cp_origin = malloc((cp_words ? cp_words : 1) * sizeof(uint32_t));
    h->pc_origin = malloc((pc_words ? pc_words : 1) * sizeof(uint32_t));
    if (!h->cp_bound || !h->pc_bound || !h->cp_origin || !h->pc_origin)
        return sb_interp_fail(s, SB_ERROR_OUT_OF_MEMORY, "out of memory");
    memset(h->cp_origin, 0xFF, (cp_words ? cp_words : 1) * sizeof(uint32_t));
    memset(h->pc_origin, 0xFF, (pc_words ? pc_words : 1) * sizeof(uint32_t));
    return SB_SUCCESS;
}

static void free_records(struct hull_run *h)
{
    free(h->cp);
    free(h->pc);
    free(h->cp_bound);
    free(h->pc_bound);
    free(h->cp_origin);
    free(h->pc_origin);
}

static enum sb_result begin(struct interp_state *s, struct hull_run *h, struct sb_rt_resource *res,
                            uint32_t res_count, const struct sb_interp_options *o, struct sb_error *error)
{
    const struct sb_ir_program *p = h->p;
    uint32_t in_regs = sb_interp_signature_registers(p, SB_IR_SIGNATURE_INPUT, SB_IR_FILE_INPUT, h->in->registers);
    sb_interp_state_init(s, p, res, res_count, batch_lanes(h, in_regs), o, error);
    s->stage = p->stage;
    s->in_vertices = h->icp ? h->icp : 1;
    s->in_regs = in_regs;
    if (sb_interp_setup(s) != SB_SUCCESS || allocate_records(s, h) != SB_SUCCESS)
        return s->result;
    size_t n = s->lanes, out_words = (size_t)(h->cp_regs > h->pc_regs ? h->cp_regs : h->pc_regs) * 4 * n;
    size_t ocp_words = (size_t)(h->ocp ? h->ocp : 1) * (h->cp_regs ? h->cp_regs : 1) * 4 * n;
    s->io_in = calloc((size_t)(s->in_regs ? s->in_regs : 1) * s->in_vertices * 4 * n, sizeof(uint32_t));
    s->io_out = calloc(out_words ? out_words : 4 * n, sizeof(uint32_t));
    s->io_ocp = calloc(ocp_words, sizeof(uint32_t));
    if (!s->io_in || !s->io_out || !s->io_ocp)
        return sb_interp_fail(s, SB_ERROR_OUT_OF_MEMORY, "out of memory");
    s->ocp_regs = h->cp_regs;
    if (sb_interp_precision_add_pool(s, s->io_out, out_words ? out_words : 4 * n) != SB_SUCCESS ||
        sb_interp_precision_add_pool(s, s->io_ocp, ocp_words) != SB_SUCCESS)
        return s->result;
    return SB_SUCCESS;
}

/* A lane word into a record word, with its bound when tracked. */
static void lane_to_record(const struct interp_state *s, const uint32_t *lane, uint32_t *words, float *bound,
                           uint32_t *origin, size_t at)
{
    words[at] = *lane;
    if (bound)
        sb_interp_precision_output(s, lane, &bound[at], &origin[at]);
}

/* A record word into a lane word, with its bound when tracked (after sb_interp_clear, which
 * left every lane exact). */
static void record_to_lane(struct interp_state *s, uint32_t *lane, const uint32_t *words, const float *bound,
                           const uint32_t *origin, size_t at)
{
    *lane = words[at];
    struct interp_companion c;
    if (bound && bound[at] != 0.0f && sb_interp_companion_write(s, lane, &c, false)) {
        c.bound[0] = bound[at];
        c.origin[0] = origin[at];
    }
}

/* D3D's pass-through phase, for a program without one: control point k of a patch is its
 * input control point min(k, ICP - 1), register for register. */
static void pass_through(struct hull_run *h)
{
    uint32_t regs = h->in->registers < h->cp_regs ? h->in->registers : h->cp_regs;
    if (!h->icp)
        return;
    for (uint32_t patch = 0; patch < h->patches; patch++)
        for (uint32_t k = 0; k < h->ocp; k++) {
            uint32_t from = k < h->icp ? k : h->icp - 1;
            for (uint32_t r = 0; r < regs; r++)
                memcpy(&h->cp[(((size_t)patch * h->ocp + k) * h->cp_regs + r) * 4],
                       &h->in->words[(((size_t)patch * h->icp + from) * h->in->registers + r) * 4],
                       4 * sizeof(uint32_t));
        }
}

static void control_point_phase(struct interp_state *s, struct hull_run *h)
{
    uint32_t total = h->patches * h->ocp, n = s->lanes;
    s->entry_function = 0;
    s->phase_id_file = SB_IR_FILE_OUTPUT_CONTROL_POINT_ID;
    s->out_regs = h->cp_regs;
    s->io_patch = NULL;
    s->ocp_points = 0; /* vocp belongs to the patch-constant phases */
    for (uint32_t first = 0; first < total && s->result == SB_SUCCESS; first += n) {
        s->invocations = total - first < n ? total - first : n;
        sb_interp_clear(s);
        if (s->race)
            sb_interp_race_batch(s, first);
        memset(s->io_out, 0, (size_t)(h->cp_regs ? h->cp_regs : 1) * 4 * n * sizeof(uint32_t));
        for (uint32_t l = 0; l < s->invocations; l++) {
            uint32_t j = first + l, patch = j / h->ocp;
            s->special[l] = patch;
            s->special[8 * n + l] = j % h->ocp;
            sb_interp_load_points(s, l, h->in, (size_t)patch * h->icp, h->icp);
        }
        s->stats.invocations += s->invocations;
        if (sb_interp_flow_run(s) != SB_SUCCESS)
            return;
        for (uint32_t l = 0; l < s->invocations; l++)
            for (uint32_t r = 0; r < h->cp_regs; r++)
                for (uint32_t c = 0; c < 4; c++)
                    lane_to_record(s, &s->io_out[((size_t)r * 4 + c) * n + l], h->cp, h->cp_bound, h->cp_origin,
                                   ((size_t)(first + l) * h->cp_regs + r) * 4 + c);
    }
}

/* One instance of a fork or join phase (function `function`) over every patch. */
static void patch_phase(struct interp_state *s, struct hull_run *h, uint32_t function, uint32_t instance,
                        uint32_t id_file)
{
    uint32_t n = s->lanes;
    s->entry_function = function;
    s->phase_id_file = id_file;
    s->out_regs = h->pc_regs;
    s->io_patch = s->io_out;
    s->patch_regs = h->pc_regs;
    s->ocp_points = h->ocp;
    for (uint32_t first = 0; first < h->patches && s->result == SB_SUCCESS; first += n) {
        s->invocations = h->patches - first < n ? h->patches - first : n;
        sb_interp_clear(s);
        if (s->race)
            sb_interp_race_batch(s, h->patches * h->ocp + first);
        for (uint32_t l = 0; l < s->invocations; l++) {
            uint32_t patch = first + l;
            s->special[l] = patch;
            s->special[8 * n + l] = instance;
            sb_interp_load_points(s, l, h->in, (size_t)patch * h->icp, h->icp);
            for (uint32_t k = 0; k < h->ocp; k++)
                for (uint32_t r = 0; r < h->cp_regs; r++)
                    for (uint32_t c = 0; c < 4; c++) {
                        size_t at = (((size_t)patch * h->ocp + k) * h->cp_regs + r) * 4 + c;
                        record_to_lane(s, &s->io_ocp[(((size_t)k * h->cp_regs + r) * 4 + c) * n + l], h->cp,
                                       h->cp_bound, h->cp_origin, at);
                    }
            for (uint32_t r = 0; r < h->pc_regs; r++)
                for (uint32_t c = 0; c < 4; c++)
                    record_to_lane(s, &s->io_out[((size_t)r * 4 + c) * n + l], h->pc, h->pc_bound, h->pc_origin,
                                   ((size_t)patch * h->pc_regs + r) * 4 + c);
        }
        s->stats.invocations += s->invocations;
        if (sb_interp_flow_run(s) != SB_SUCCESS)
            return;
        for (uint32_t l = 0; l < s->invocations; l++)
            for (uint32_t r = 0; r < h->pc_regs; r++)
                for (uint32_t c = 0; c < 4; c++)
                    lane_to_record(s, &s->io_out[((size_t)r * 4 + c) * n + l], h->pc, h->pc_bound, h->pc_origin,
                                   ((size_t)(first + l) * h->pc_regs + r) * 4 + c);
    }
}

/* Tess-factor system values (sm4-tokens.md §8.1) -> the tessellator's factor slots. */
static const struct {
    uint32_t system_value;
    uint32_t domain;
    bool inside;
    uint32_t index;
} factor_slots[] = {
    { 11, SB_INTERP_TESS_QUAD, false, 0 },    /* finalQuadUeq0EdgeTessFactor */
    { 12, SB_INTERP_TESS_QUAD, false, 1 },    /* finalQuadVeq0EdgeTessFactor */
    { 13, SB_INTERP_TESS_QUAD, false, 2 },    /* finalQuadUeq1EdgeTessFactor */
    { 14, SB_INTERP_TESS_QUAD, false, 3 },    /* finalQuadVeq1EdgeTessFactor */
    { 15, SB_INTERP_TESS_QUAD, true, 0 },     /* finalQuadUInsideTessFactor */
    { 16, SB_INTERP_TESS_QUAD, true, 1 },     /* finalQuadVInsideTessFactor */
    { 17, SB_INTERP_TESS_TRI, false, 0 },     /* finalTriUeq0EdgeTessFactor */
    { 18, SB_INTERP_TESS_TRI, false, 1 },     /* finalTriVeq0EdgeTessFactor */
    { 19, SB_INTERP_TESS_TRI, false, 2 },     /* finalTriWeq0EdgeTessFactor */
    { 20, SB_INTERP_TESS_TRI, true, 0 },      /* finalTriInsideTessFactor */
    { 21, SB_INTERP_TESS_ISOLINE, false, 1 }, /* finalLineDetailTessFactor */
    { 22, SB_INTERP_TESS_ISOLINE, false, 0 }, /* finalLineDensityTessFactor */
};

static uint32_t first_lane(uint32_t mask)
{
    for (uint32_t c = 0; c < 4; c++)
        if (mask & (1u << c))
            return c;
    return 0;
}

/* Each patch's factors as its patch constants hold them, processed by the tessellator's rules. */
static void process_factors(struct interp_state *s, const struct hull_run *h, struct sb_interp_tess_factors *out)
{
    const struct sb_ir_program *p = h->p;
    for (uint32_t patch = 0; patch < h->patches; patch++) {
        struct sb_interp_tess_input in = {
            .domain = (enum sb_interp_tess_domain)p->tess_domain,
            .partitioning = (enum sb_interp_tess_partitioning)p->tess_partitioning,
            .output_primitive = (enum sb_interp_tess_primitive)p->tess_output_primitive,
            .edge = { 0, 0, 0, 0 },
            .inside = { 0, 0 },
            .max_factor = p->max_tess_factor,
        };
        for (uint32_t e = 0; e < p->signature_count; e++) {
            const struct sb_ir_signature_element *el = &p->signature[e];
            if (el->kind != SB_IR_SIGNATURE_PATCH || el->file != SB_IR_FILE_OUTPUT || el->register_index >= h->pc_regs)
                continue;
            for (size_t k = 0; k < sizeof(factor_slots) / sizeof(factor_slots[0]); k++) {
                if (factor_slots[k].system_value != el->system_value || factor_slots[k].domain != p->tess_domain)
                    continue;
                uint32_t lane = first_lane(el->mask ? el->mask : el->signature_mask);
                float value = F(h->pc[((size_t)patch * h->pc_regs + el->register_index) * 4 + lane]);
                if (factor_slots[k].inside)
                    in.inside[factor_slots[k].index] = value;
                else
                    in.edge[factor_slots[k].index] = value;
            }
        }
        if (!sb_interp_tess_process(&in, &out[patch])) {
            sb_interp_fail(s, SB_ERROR_RUN_UNSUPPORTED, "tessellator domain %u or partitioning %u is not one of "
                           "sm4-tokens.md §8.5-8.6", p->tess_domain, p->tess_partitioning);
            return;
        }
    }
}

/* The records, cut to the caller's widths. */
static void copy_out(const struct hull_run *h, struct sb_interp_hull_results *r)
{
    const struct sb_interp_registers *cp = &r->control_points, *pc = &r->patch_constants;
    for (size_t rec = 0; rec < (size_t)h->patches * h->ocp && cp->registers; rec++)
        for (uint32_t reg = 0; reg < cp->registers; reg++)
            for (uint32_t c = 0; c < 4; c++) {
                size_t to = (rec * cp->registers + reg) * 4 + c, from = (rec * h->cp_regs + reg) * 4 + c;
                cp->words[to] = h->cp[from];
                if (r->control_point_bound)
                    r->control_point_bound[to] = h->cp_bound ? h->cp_bound[from] : 0.0f;
            }
    for (size_t rec = 0; rec < h->patches && pc->registers; rec++)
        for (uint32_t reg = 0; reg < pc->registers; reg++)
            for (uint32_t c = 0; c < 4; c++) {
                size_t to = (rec * pc->registers + reg) * 4 + c, from = (rec * h->pc_regs + reg) * 4 + c;
                pc->words[to] = h->pc[from];
                if (r->patch_constant_bound)
                    r->patch_constant_bound[to] = h->pc_bound ? h->pc_bound[from] : 0.0f;
            }
}

enum sb_result sb_interp_run_hull(const struct sb_ir_program *program, struct sb_rt_resource *resources,
                                  uint32_t resource_count, uint32_t patch_count,
                                  const struct sb_interp_registers *inputs, struct sb_interp_hull_results *results,
                                  const struct sb_interp_options *options, struct sb_interp_stats *stats,
                                  struct sb_error *error)
{
    const char *why = check(program, resources, resource_count, patch_count, inputs, results);
    if (why)
        return invalid(error, why);
    if (stats)
        memset(stats, 0, sizeof(*stats));
    if (!patch_count)
        return SB_SUCCESS;
    struct sb_ir_program *lowered = NULL;
    enum sb_result lowering = sb_interp_lower(&program, &lowered, stats, error);
    if (lowering != SB_SUCCESS)
        return lowering;
    const struct sb_ir_program *p = program;
    struct hull_run h = {
        .p = p,
        .in = inputs,
        .patches = patch_count,
        .icp = p->input_control_points,
        .ocp = p->output_control_points,
        .cp_regs = sb_interp_signature_registers(p, SB_IR_SIGNATURE_OUTPUT, SB_IR_FILE_OUTPUT,
                                                 results->control_points.registers),
        .pc_regs = sb_interp_signature_registers(p, SB_IR_SIGNATURE_PATCH, SB_IR_FILE_OUTPUT,
                                                 sb_interp_signature_registers(p, SB_IR_SIGNATURE_PATCH,
                                                                               SB_IR_FILE_INPUT_PATCH_CONSTANT,
                                                                               results->patch_constants.registers)),
    };
    struct interp_state s;
    if (begin(&s, &h, resources, resource_count, options, error) == SB_SUCCESS) {
        if (p->functions[0].instruction_count)
            control_point_phase(&s, &h);
        else
            pass_through(&h);
        for (uint32_t k = 0; k < p->fork_phase_count + p->join_phase_count && s.result == SB_SUCCESS; k++) {
            uint32_t function = p->first_fork_phase + k;
            bool fork = k < p->fork_phase_count;
            uint32_t instances = p->functions[function].instance_count ? p->functions[function].instance_count : 1;
            if (!p->functions[function].instruction_count)
                continue; /* nothing to run, and no instruction for the budget to count */
            for (uint32_t i = 0; i < instances && s.result == SB_SUCCESS; i++)
                patch_phase(&s, &h, function, i, fork ? SB_IR_FILE_FORK_INSTANCE_ID : SB_IR_FILE_JOIN_INSTANCE_ID);
        }
        if (s.result == SB_SUCCESS && results->factors)
            process_factors(&s, &h, results->factors);
        if (s.result == SB_SUCCESS)
            copy_out(&h, results);
    }
    s.io_patch = NULL; /* the hull run's vpc# is its io_out, freed once */
    sb_interp_release(&s);
    free_records(&h);
    s.stats.instructions = s.executed;
    if (stats)
        *stats = s.stats;
    sb_ir_program_destroy(lowered);
    return s.result;
}
