/* SPDX-License-Identifier: MIT */
/*
 * sb_interp_run_vertices and sb_interp_run_pixels (shaderbridge/interp.h):
 * vertex and pixel programs on the compute machinery. A batch is a set of
 * lanes run in lockstep exactly like a thread group; what differs is where
 * the registers come from and go:
 *   v#  filled per lane from the caller's words, then the system values the
 *       signature names are written over them the way translator/src/
 *       spirv_io.c copies the built-ins in (SV_Position.w = 1/FragCoord.w,
 *       SV_VertexID = VertexIndex - BaseVertex = the vertex index here,
 *       SV_IsFrontFace 0xFFFFFFFF, SV_SampleIndex 0, SV_PrimitiveID the
 *       pixel's index: each pixel is its own point primitive);
 *   o#  start as the caller filled them (so unwritten components stay) and
 *       go back for each vertex / each pixel that was not discarded;
 *   oDepth starts as the fragment's z.
 * A pixel batch gives every pixel its own 2x2 quad (points of size 1 never
 * share quads): the pixel at (x, y) takes quad position (x & 1, y & 1), the
 * three helpers the other positions at their own pixel centres with the
 * same v# values (interp_quad.c has the quad operations). Helpers (and
 * discarded lanes) do not write UAVs (interp_flow.c runs UAV writes on the
 * other lanes only); their loads and queries run as on a device. oMask
 * (SV_Coverage) is kept per lane, all ones until written, and reported per
 * pixel in sb_interp_pixel_results::coverage; oStencilRef likewise, 0 until
 * written, in ::stencil_ref. With attribute planes (sb_interp_options::
 * input_ddx / _ddy) each lane also holds its inputs' planes (0 for constant
 * inputs and system values) and a helper takes its inputs at its own centre,
 * so eval_* (interp_eval.c) and derivatives see the plane; vCoverage has a
 * bit per sample of options->sample_count (every pixel fully covered; a helper's is 0). A
 * program that runs per sample on such a target gets one invocation (one quad)
 * per sample: SV_SampleIndex, vCoverage, SV_Position and sample-interpolated
 * inputs of that sample, outputs per sample.
 */
#include "interp_private.h"

#include "error.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "translator/ir.h"

#define PIXELS_PER_BATCH (SB_INTERP_MAX_LANES / 4u)

enum { SV_POSITION = 1, SV_VERTEX_ID = 6, SV_PRIMITIVE_ID = 7, SV_INSTANCE_ID = 8, SV_IS_FRONT_FACE = 9,
       SV_SAMPLE_INDEX = 10 };

static enum sb_result invalid(struct sb_error *error, const char *fn, const char *why)
{
    return sb_error_set(error, SB_ERROR_INVALID_ARGUMENT, 0, SB_ERROR_NO_INSTR, "%s: %s", fn, why);
}

static const char *check_registers(const struct sb_interp_registers *r, uint32_t count)
{
    if (!r)
        return "NULL input or output registers";
    if (r->registers > 4096)
        return "more than 4096 registers";
    if (count && r->registers && !r->words)
        return "registers without words";
    return NULL;
}

static const char *check_common(const struct sb_ir_program *p, uint32_t stage, const struct sb_rt_resource *res,
                                uint32_t res_count, uint32_t count, const struct sb_interp_registers *in,
                                const struct sb_interp_registers *out)
{
    if (!p || (res_count && !res))
        return "NULL program or resource table";
    if (p->stage != stage)
        return stage == SB_IR_STAGE_VERTEX ? "the program is not a vertex shader" : "the program is not a pixel shader";
    if (!p->function_count || !p->functions)
        return "the program has no entry function";
    const char *why = check_registers(in, count);
    return why ? why : check_registers(out, count);
}

static bool is_input(const struct sb_ir_signature_element *e)
{
    return e->kind == SB_IR_SIGNATURE_INPUT && e->file == SB_IR_FILE_INPUT;
}

/* The state of a graphics run: setup plus the v#/o#/depth/quad arrays. */
static enum sb_result begin(struct interp_state *s, const struct sb_ir_program *p, struct sb_rt_resource *res,
                            uint32_t res_count, uint32_t lanes, uint32_t count, const struct sb_interp_registers *in,
                            const struct sb_interp_registers *out, const struct sb_interp_options *o,
                            struct sb_error *error)
{
    sb_interp_state_init(s, p, res, res_count, lanes, o, error);
    s->out_words = out->words;
    s->stage = p->stage;
    s->quad = p->stage == SB_IR_STAGE_PIXEL;
    /* System values the signature places past the caller's registers (a vertex stream
     * feeds only locations, SV_VertexID may sit above them) still need a register. */
    s->in_regs = in->registers;
    for (uint32_t e = 0; e < p->signature_count; e++)
        if (is_input(&p->signature[e]) && p->signature[e].register_index < 4096 &&
            p->signature[e].register_index >= s->in_regs)
            s->in_regs = p->signature[e].register_index + 1;
    s->out_regs = out->registers;
    if (sb_interp_setup(s) != SB_SUCCESS)
        return s->result;
    size_t n = s->lanes;
    s->io_in = calloc((size_t)(s->in_regs ? s->in_regs : 1) * 4 * n, sizeof(uint32_t));
    s->io_out = calloc((size_t)(s->out_regs ? s->out_regs : 1) * 4 * n, sizeof(uint32_t));
    s->depth = s->quad ? calloc(n, sizeof(uint32_t)) : NULL;
    s->coverage = s->quad ? calloc(n, sizeof(uint32_t)) : NULL;
    s->stencil_ref = s->quad ? calloc(n, sizeof(uint32_t)) : NULL;
    s->helper = calloc(n, 1);
    s->discarded = calloc(n, 1);
    if (!s->io_in || !s->io_out || (s->quad && (!s->depth || !s->coverage || !s->stencil_ref)) || !s->helper || !s->discarded)
        return sb_interp_fail(s, SB_ERROR_OUT_OF_MEMORY, "out of memory");
    if (s->quad && o && o->input_ddx && o->input_ddy) {
        s->io_ddx = calloc((size_t)(s->in_regs ? s->in_regs : 1) * 4 * n, sizeof(uint32_t));
        s->io_ddy = calloc((size_t)(s->in_regs ? s->in_regs : 1) * 4 * n, sizeof(uint32_t));
        if (!s->io_ddx || !s->io_ddy)
            return sb_interp_fail(s, SB_ERROR_OUT_OF_MEMORY, "out of memory");
    }
    if (sb_interp_precision_add_pool(s, s->io_out, (size_t)(s->out_regs ? s->out_regs : 1) * 4 * n) != SB_SUCCESS ||
        (s->depth && sb_interp_precision_add_pool(s, s->depth, n) != SB_SUCCESS))
        return s->result;
    if (s->prec && out->words)
        return sb_interp_track_outputs(s, (size_t)count * out->registers * 4);
    return SB_SUCCESS;
}

/* Writes `value` into the lanes of a v# system-value element. */
static void set_input(struct interp_state *s, const struct sb_ir_signature_element *e, uint32_t l, const uint32_t v[4])
{
    if (e->register_index >= s->in_regs)
        return;
    for (uint32_t c = 0; c < 4; c++)
        if (e->mask & (1u << c))
            s->io_in[((size_t)e->register_index * 4 + c) * s->lanes + l] = v[c];
}

enum sb_result sb_interp_run_vertices(const struct sb_ir_program *program, struct sb_rt_resource *resources,
                                      uint32_t resource_count, uint32_t vertex_count,
                                      const struct sb_interp_registers *inputs, struct sb_interp_registers *outputs,
                                      const struct sb_interp_options *options, struct sb_interp_stats *stats,
                                      struct sb_error *error)
{
    const char *why = check_common(program, SB_IR_STAGE_VERTEX, resources, resource_count, vertex_count, inputs,
                                   outputs);
    if (why)
        return invalid(error, "sb_interp_run_vertices", why);
    struct interp_state s;
    memset(&s, 0, sizeof(s));
    if (!vertex_count) {
        if (stats)
            memset(stats, 0, sizeof(*stats));
        return SB_SUCCESS;
    }
    uint32_t lanes = vertex_count < SB_INTERP_MAX_LANES ? vertex_count : SB_INTERP_MAX_LANES;
    struct sb_ir_program *lowered = NULL;
    enum sb_result lowering = sb_interp_lower(&program, &lowered, stats, error);
    if (lowering != SB_SUCCESS)
        return lowering;
    if (begin(&s, program, resources, resource_count, lanes, vertex_count, inputs, outputs, options, error) ==
        SB_SUCCESS) {
        for (uint32_t base = 0; base < vertex_count && s.result == SB_SUCCESS; base += SB_INTERP_MAX_LANES) {
            s.invocations = vertex_count - base < SB_INTERP_MAX_LANES ? vertex_count - base : SB_INTERP_MAX_LANES;
            sb_interp_clear(&s);
            if (s.race)
                sb_interp_race_batch(&s, base);
            for (uint32_t l = 0; l < s.invocations; l++) {
                sb_interp_copy_registers(&s, s.io_in, l, inputs, base + l, true);
                sb_interp_copy_registers(&s, s.io_out, l, outputs, base + l, true);
                for (uint32_t e = 0; e < program->signature_count; e++) {
                    const struct sb_ir_signature_element *el = &program->signature[e];
                    uint32_t id = el->system_value == SV_VERTEX_ID ? base + l : 0;
                    const uint32_t v[4] = { id, id, id, id };
                    if (is_input(el) && (el->system_value == SV_VERTEX_ID || el->system_value == SV_INSTANCE_ID))
                        set_input(&s, el, l, v);
                }
            }
            s.stats.invocations += s.invocations;
            if (sb_interp_flow_run(&s) != SB_SUCCESS)
                break;
            for (uint32_t l = 0; l < s.invocations; l++)
                sb_interp_copy_registers(&s, s.io_out, l, outputs, base + l, false);
        }
        if (s.race && s.result == SB_SUCCESS)
            sb_interp_race_outputs(&s, outputs->registers, vertex_count);
    }
    sb_interp_release(&s);
    s.stats.instructions = s.executed;
    if (stats)
        *stats = s.stats;
    sb_ir_program_destroy(lowered);
    return s.result;
}

static uint32_t bits_of(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

/* An integer pixel coordinate from a window coordinate (NaN and huge values pinned). */
static int32_t pixel_of(float f)
{
    f = floorf(f);
    if (!(f > -1073741824.0f))
        return 0;
    return f < 1073741824.0f ? (int32_t)f : 1073741824;
}

static bool writes_file(const struct sb_ir_program *p, uint32_t file)
{
    for (uint32_t e = 0; e < p->signature_count; e++)
        if (p->signature[e].file == file)
            return true;
    return false;
}

static bool writes_depth(const struct sb_ir_program *p)
{
    for (uint32_t e = 0; e < p->signature_count; e++)
        if (p->signature[e].file == SB_IR_FILE_DEPTH || p->signature[e].file == SB_IR_FILE_DEPTH_GREATER_EQUAL ||
            p->signature[e].file == SB_IR_FILE_DEPTH_LESS_EQUAL)
            return true;
    return false;
}

/* Does the element take a plane (an interpolated input that is no system value)? */
static bool interpolated(const struct sb_ir_signature_element *e)
{
    return is_input(e) && e->system_value == 0 && e->interpolation != SB_IR_INTERP_CONSTANT &&
           e->interpolation != SB_IR_INTERP_UNDEFINED;
}

/* Is the element interpolated at the sample (sample or noperspective sample)? */
static bool at_sample(const struct sb_ir_signature_element *e)
{
    return e->interpolation == SB_IR_INTERP_LINEAR_SAMPLE ||
           e->interpolation == SB_IR_INTERP_LINEAR_NOPERSPECTIVE_SAMPLE;
}

/* One invocation of a pixel batch: which pixel (inputs, position), which output record, and
 * at sample frequency which sample. */
struct invocation {
    uint32_t pixel, record, sample;
    bool per_sample;
    float sample_x, sample_y;        /* the sample's offset from the pixel centre (0 per pixel) */
};

/* Lane l's attribute planes (pixel i's, 0 where the element is constant) and its inputs where
 * the lane evaluates them: a helper (dx, dy) pixels from the pixel at its own centre, and at
 * sample frequency the sample-interpolated ones at the sample: v + ox * ddx + oy * ddy. */
static void fill_planes(struct interp_state *s, const struct invocation *inv, uint32_t l,
                        const struct sb_interp_options *o, int32_t dx, int32_t dy)
{
    sb_interp_copy_registers(s, s->io_ddx, l, o->input_ddx, inv->pixel, true);
    sb_interp_copy_registers(s, s->io_ddy, l, o->input_ddy, inv->pixel, true);
    for (uint32_t reg = 0; reg < s->in_regs; reg++)
        for (uint32_t c = 0; c < 4; c++) {
            bool keep = false, sample = false;
            for (uint32_t e = 0; e < s->program->signature_count && !keep; e++) {
                const struct sb_ir_signature_element *el = &s->program->signature[e];
                keep = interpolated(el) && el->register_index == reg && (el->mask & (1u << c));
                sample = keep && at_sample(el);
            }
            size_t w = ((size_t)reg * 4 + c) * s->lanes + l;
            float ox = (float)dx + (sample ? inv->sample_x : 0.0f), oy = (float)dy + (sample ? inv->sample_y : 0.0f);
            if (!keep)
                s->io_ddx[w] = s->io_ddy[w] = 0;
            else if (ox != 0.0f || oy != 0.0f)
                s->io_in[w] = bits_of(F(s->io_in[w]) + ox * F(s->io_ddx[w]) + oy * F(s->io_ddy[w]));
        }
}

/* The four lanes of one invocation (batch slot j): registers, system values, helper flags. */
static void fill_quad(struct interp_state *s, const struct invocation *inv, uint32_t j, const float *pos,
                      const struct sb_interp_registers *inputs, const struct sb_interp_registers *outputs,
                      const struct sb_interp_options *o)
{
    uint32_t i = inv->pixel;
    const float *p = pos + (size_t)i * 4;
    int32_t x = pixel_of(p[0]), y = pixel_of(p[1]);
    uint32_t own = (uint32_t)(x & 1) + 2u * (uint32_t)(y & 1), n = s->lanes;
    for (uint32_t k = 0; k < 4; k++) {
        uint32_t l = 4 * j + k;
        sb_interp_copy_registers(s, s->io_in, l, inputs, i, true);
        sb_interp_copy_registers(s, s->io_out, l, outputs, inv->record, true);
        if (s->io_ddx)
            fill_planes(s, inv, l, o, (int32_t)(k & 1) - (int32_t)(own & 1), (int32_t)(k >> 1) - (int32_t)(own >> 1));
        if (s->sample_dx) {
            s->sample_dx[l] = bits_of(inv->sample_x);
            s->sample_dy[l] = bits_of(inv->sample_y);
        }
        s->helper[l] = k != own;
        s->discarded[l] = 0;
        s->depth[l] = bits_of(p[2]);
        s->coverage[l] = 0xFFFFFFFFu;
        s->stencil_ref[l] = 0;
        s->special[l] = i;           /* vPrim */
        /* vCoverage: every sample of the target (the pixel is fully covered), at sample
         * frequency the invocation's own sample; a helper covers no sample (Vulkan's
         * SampleMask of a helper invocation is 0, and dxc lowers IsHelperLane() before SM 6.6
         * to coverage == 0) */
        s->special[4 * n + l] = k != own ? 0u
                                : inv->per_sample ? 1u << inv->sample
                                : s->samples >= 32 ? 0xFFFFFFFFu : (1u << s->samples) - 1;
        /* SV_Position: the pixel centre, at sample frequency the sample's position */
        float fx = (float)((x & ~1) + (int32_t)(k & 1)) + 0.5f + inv->sample_x;
        float fy = (float)((y & ~1) + (int32_t)(k >> 1)) + 0.5f + inv->sample_y;
        for (uint32_t e = 0; e < s->program->signature_count; e++) {
            const struct sb_ir_signature_element *el = &s->program->signature[e];
            if (!is_input(el))
                continue;
            if (el->system_value == SV_POSITION) {
                const uint32_t v[4] = { bits_of(fx), bits_of(fy), bits_of(p[2]), bits_of(1.0f / p[3]) };
                set_input(s, el, l, v);
            } else if (el->system_value == SV_IS_FRONT_FACE || el->system_value == SV_SAMPLE_INDEX ||
                       el->system_value == SV_PRIMITIVE_ID) {
                uint32_t id = el->system_value == SV_IS_FRONT_FACE ? 0xFFFFFFFFu
                              : el->system_value == SV_PRIMITIVE_ID ? i : inv->sample;
                const uint32_t v[4] = { id, id, id, id };
                set_input(s, el, l, v);
            } else {
                uint32_t v[4];
                if (sb_interp_sysval_pixel_input(s, el->system_value, v))
                    set_input(s, el, l, v);
            }
        }
    }
}

/* The pixel-run options: planes shaped like the inputs and a standard sample count. NULL when
 * usable, else why not. */
static const char *check_pixel_options(const struct sb_interp_registers *inputs, const struct sb_interp_options *o)
{
    if (!o)
        return NULL;
    if ((o->input_ddx != NULL) != (o->input_ddy != NULL))
        return "only one of input_ddx and input_ddy";
    if (o->input_ddx && (o->input_ddx->registers != inputs->registers || o->input_ddy->registers !=
                         inputs->registers || (inputs->registers && (!o->input_ddx->words || !o->input_ddy->words))))
        return "input_ddx / input_ddy not shaped like the inputs";
    uint32_t n = o->sample_count;
    if (n > 16 || (n & (n - 1)))
        return "sample_count is not 1, 2, 4, 8 or 16";
    if (!sb_interp_sysval_rate_valid(o->shading_rate))
        return "shading_rate is not a D3D12_SHADING_RATE";
    return NULL;
}

/* Does the program run once per sample (an SV_SampleIndex input or sample interpolation) on a
 * target of several samples? */
static bool needs_sample_rate(const struct sb_ir_program *p, uint32_t samples)
{
    for (uint32_t e = 0; samples > 1 && e < p->signature_count; e++) {
        const struct sb_ir_signature_element *el = &p->signature[e];
        if (is_input(el) && (el->system_value == SV_SAMPLE_INDEX || el->interpolation == SB_IR_INTERP_LINEAR_SAMPLE ||
                             el->interpolation == SB_IR_INTERP_LINEAR_NOPERSPECTIVE_SAMPLE))
            return true;
    }
    return false;
}

/* Results of the real lane of each pixel of the batch starting at pixel `first`. */
static void collect(struct interp_state *s, uint32_t first, uint32_t count, struct sb_interp_registers *outputs,
                    struct sb_interp_pixel_results *results, bool depth, bool coverage, bool stencil)
{
    for (uint32_t j = 0; j < count; j++) {
        uint32_t l = 4 * j;
        while (l < 4 * j + 3 && s->helper[l])
            l++;
        uint32_t i = first + j;
        if (results && results->discarded)
            results->discarded[i] = s->discarded[l];
        if (s->discarded[l])
            continue;
        sb_interp_copy_registers(s, s->io_out, l, outputs, i, false);
        if (depth && results && results->depth)
            memcpy(&results->depth[i], &s->depth[l], 4);
        if (coverage && results && results->coverage)
            results->coverage[i] = s->coverage[l];
        if (stencil && results && results->stencil_ref)
            results->stencil_ref[i] = s->stencil_ref[l];
    }
}

enum sb_result sb_interp_run_pixels(const struct sb_ir_program *program, struct sb_rt_resource *resources,
                                    uint32_t resource_count, uint32_t pixel_count, const float *positions,
                                    const struct sb_interp_registers *inputs, struct sb_interp_registers *outputs,
                                    struct sb_interp_pixel_results *results, const struct sb_interp_options *options,
                                    struct sb_interp_stats *stats, struct sb_error *error)
{
    const char *why = check_common(program, SB_IR_STAGE_PIXEL, resources, resource_count, pixel_count, inputs,
                                   outputs);
    if (!why && pixel_count && !positions)
        why = "NULL positions";
    if (!why)
        why = check_pixel_options(inputs, options);
    if (why)
        return invalid(error, "sb_interp_run_pixels", why);
    struct interp_state s;
    memset(&s, 0, sizeof(s));
    if (!pixel_count) {
        if (stats)
            memset(stats, 0, sizeof(*stats));
        return SB_SUCCESS;
    }
    uint32_t samples = options && options->sample_count ? options->sample_count : 1;
    bool per_sample = needs_sample_rate(program, samples);
    /* Invocations: one per pixel, or at sample frequency one per sample (pixel-major). */
    uint32_t rate = per_sample ? samples : 1;
    if ((uint64_t)pixel_count * rate > UINT32_MAX / 4)
        return invalid(error, "sb_interp_run_pixels", "too many samples");
    uint32_t total = pixel_count * rate;
    uint32_t per_batch = total < PIXELS_PER_BATCH ? total : PIXELS_PER_BATCH;
    bool depth = writes_depth(program), coverage = writes_file(program, SB_IR_FILE_COVERAGE_OUT);
    bool stencil = writes_file(program, SB_IR_FILE_STENCIL_REF);
    struct sb_ir_program *lowered = NULL;
    enum sb_result lowering = sb_interp_lower(&program, &lowered, stats, error);
    if (lowering != SB_SUCCESS)
        return lowering;
    if (begin(&s, program, resources, resource_count, 4 * per_batch, total, inputs, outputs, options, error) ==
        SB_SUCCESS && per_sample && (!(s.sample_dx = calloc(s.lanes, sizeof(uint32_t))) ||
                                     !(s.sample_dy = calloc(s.lanes, sizeof(uint32_t)))))
        sb_interp_fail(&s, SB_ERROR_OUT_OF_MEMORY, "out of memory");
    if (s.result == SB_SUCCESS) {
        for (uint32_t first = 0; first < total && s.result == SB_SUCCESS; first += PIXELS_PER_BATCH) {
            uint32_t count = total - first < PIXELS_PER_BATCH ? total - first : PIXELS_PER_BATCH;
            s.invocations = 4 * count;
            sb_interp_clear(&s);
            if (s.race)
                sb_interp_race_batch(&s, first);
            for (uint32_t j = 0; j < count; j++) {
                struct invocation inv = { .pixel = (first + j) / rate, .record = first + j,
                                          .sample = (first + j) % rate, .per_sample = per_sample };
                float xy[2] = { 0.0f, 0.0f };
                if (per_sample)
                    sb_interp_sample_position(samples, inv.sample, xy);
                inv.sample_x = xy[0];
                inv.sample_y = xy[1];
                fill_quad(&s, &inv, j, positions, inputs, outputs, options);
            }
            s.stats.invocations += s.invocations;
            if (sb_interp_flow_run(&s) != SB_SUCCESS)
                break;
            collect(&s, first, count, outputs, results, depth, coverage, stencil);
        }
        if (s.race && s.result == SB_SUCCESS)
            sb_interp_race_outputs(&s, outputs->registers, total);
    }
    sb_interp_release(&s);
    s.stats.instructions = s.executed;
    if (stats)
        *stats = s.stats;
    sb_ir_program_destroy(lowered);
    return s.result;
}
