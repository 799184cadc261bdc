/* SPDX-License-Identifier: MIT */
/*
 * The interpreter state every stage shares: the binding check (a statically
 * named resource the program uses must be in the caller's table, and typed
 * ones must hold their texels), and the allocation, clearing and release of
 * the structure-of-arrays state (interp_private.h).
 * Compute dispatch is in interp_dispatch.c, the graphics stages in
 * interp_graphics.c.
 */
#include "interp_private.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "translator/ir.h"

static const char class_letter[4][3] = { "cb", "t", "s", "u" };

/* Is the table entry big enough for what the declaration makes the shader read? */
static bool fits(const struct sb_ir_resource *d, const struct sb_rt_resource *r, char *why, size_t size)
{
    if (d->resource_class == SB_IR_RESOURCE_SAMPLER)
        return true;
    if (d->resource_class == SB_IR_RESOURCE_CBV || d->kind != SB_IR_RESOURCE_KIND_TYPED) {
        if (!r->data && r->size)
            snprintf(why, size, "has a size of %zu bytes but no data", r->size);
        return r->data != NULL || r->size == 0;
    }
    if (!sb_interp_format_known(r->format)) {
        snprintf(why, size, "has format %u, which the interpreter does not know", r->format);
        return false;
    }
    /* BC blocks are decoded on read only: no UAV, and no typed buffer (D3D allows neither). */
    if (sb_interp_format_block(r->format) && (d->resource_class == SB_IR_RESOURCE_UAV || d->dimension == 1)) {
        snprintf(why, size, "has block-compressed format %s, which can only be a texture SRV",
                 sb_rt_format_name((enum sb_rt_format)r->format));
        return false;
    }
    size_t need = d->dimension == 1 ? (size_t)r->width * sb_rt_format_size((enum sb_rt_format)r->format)
                                    : sb_rt_texture_bytes(r);
    if (!r->data || r->size < need || (d->dimension != 1 && need == 0)) {
        snprintf(why, size, "holds %zu bytes where its %ux%ux%u x%u layers x%u levels need %zu",
                 r->size, r->width, r->height, r->depth, r->layers, r->mip_levels, need);
        return false;
    }
    return true;
}

/* Every statically named cb#/t#/s#/u# an instruction uses must be bound (and fit). */
static enum sb_result check_operand(struct interp_state *s, const struct sb_ir_operand *op)
{
    uint32_t cls = sb_interp_resource_class(op->file);
    if (cls == UINT32_MAX || op->index_count < 1 || op->index[0].relative)
        return SB_SUCCESS;
    const struct sb_ir_resource *d = sb_interp_decl(s, op->file, op->index[0].offset);
    if (!d)
        return sb_interp_fail(s, SB_ERROR_RUN_BINDING, "%s%u is used but not declared", class_letter[cls],
                              op->index[0].offset);
    uint32_t slot = op->file == SB_IR_FILE_CONSTANT_BUFFER ? 3 : 2;
    if (op->index_count >= slot && op->index[1].relative)
        return SB_SUCCESS; /* a dynamically indexed range: checked at each access */
    uint32_t reg = d->lower_bound + (op->index_count >= slot ? op->index[1].offset : 0);
    const struct sb_rt_resource *r = sb_interp_find(s, cls, d->space, reg);
    char why[120] = "is missing from the resource table";
    if (!r || !fits(d, r, why, sizeof(why)))
        return sb_interp_fail(s, SB_ERROR_RUN_BINDING, "%s%u (space %u%s%s) %s", class_letter[cls], reg,
                              d->space, d->name ? ", " : "", d->name ? d->name : "", why);
    return SB_SUCCESS;
}

static enum sb_result check_bindings(struct interp_state *s)
{
    const struct sb_ir_program *p = s->program;
    for (uint32_t f = 0; f < p->function_count; f++)
        for (uint32_t i = 0; i < p->functions[f].instruction_count; i++) {
            const struct sb_ir_instruction *in = &p->functions[f].instructions[i];
            s->inst = in;
            for (uint32_t k = 0; k < in->dst_count; k++)
                if (check_operand(s, &in->dst[k]) != SB_SUCCESS)
                    return s->result;
            for (uint32_t k = 0; k < in->src_count; k++)
                if (check_operand(s, &in->src[k]) != SB_SUCCESS)
                    return s->result;
        }
    s->inst = NULL;
    return SB_SUCCESS;
}

static enum sb_result allocate(struct interp_state *s)
{
    const struct sb_ir_program *p = s->program;
    size_t n = s->lanes;
    s->temp_count = p->temp_count;
    for (uint32_t f = 0; f < p->function_count; f++)
        if (p->functions[f].temp_count > s->temp_count)
            s->temp_count = p->functions[f].temp_count;
    if (s->temp_count > 4096)
        return sb_interp_fail(s, SB_ERROR_RUN_UNSUPPORTED, "%u temporary registers (at most 4096)",
                              s->temp_count);
    size_t temp_arrays = (size_t)(s->temp_count ? s->temp_count : 1) * 4;
    s->temp_pool = calloc(temp_arrays * n, sizeof(uint32_t));
    s->temp = malloc(temp_arrays * sizeof(*s->temp));
    s->special = calloc(4 * 4 * n, sizeof(uint32_t));
    s->active = calloc(n, 1);
    s->scratch_pool = calloc(SB_INTERP_SCRATCH_ARRAYS * n, sizeof(uint32_t));
    s->double_pool = malloc(SB_INTERP_DOUBLE_ARRAYS * n * sizeof(double));
    s->imm_arrays = malloc(SB_INTERP_IMM_SLOTS * n * sizeof(uint32_t));
    for (uint32_t i = 0; i < p->indexable_temp_count; i++)
        if (p->indexable_temps[i].id + 1 > s->xtemp_ids && p->indexable_temps[i].id < 65536)
            s->xtemp_ids = p->indexable_temps[i].id + 1;
    s->xtemps = calloc(s->xtemp_ids ? s->xtemp_ids : 1, sizeof(*s->xtemps));
    s->xtemp_count = calloc(s->xtemp_ids ? s->xtemp_ids : 1, sizeof(uint32_t));
    s->gsm = calloc(p->group_shared_count ? p->group_shared_count : 1, sizeof(*s->gsm));
    s->gsm_dwords = calloc(p->group_shared_count ? p->group_shared_count : 1, sizeof(uint32_t));
    if (!s->temp_pool || !s->temp || !s->special || !s->active || !s->scratch_pool || !s->double_pool ||
        !s->imm_arrays || !s->xtemps || !s->xtemp_count || !s->gsm ||
        !s->gsm_dwords)
        return sb_interp_fail(s, SB_ERROR_OUT_OF_MEMORY, "out of memory");
    for (size_t i = 0; i < temp_arrays; i++)
        s->temp[i] = s->temp_pool + i * n;
    for (uint32_t i = 0; i < SB_INTERP_SCRATCH_ARRAYS; i++)
        s->scratch[i] = s->scratch_pool + (size_t)i * n;
    uint64_t xtotal = 0;
    for (uint32_t i = 0; i < p->indexable_temp_count; i++) {
        const struct sb_ir_indexable_temp *x = &p->indexable_temps[i];
        if (x->id >= 65536 || s->xtemps[x->id])
            continue; /* a repeated id was merged by the front end */
        uint32_t count = x->count ? x->count : 1;
        xtotal += count;
        if (xtotal > 65536)
            return sb_interp_fail(s, SB_ERROR_RUN_UNSUPPORTED, "indexable temps of %llu registers",
                                  (unsigned long long)xtotal);
        s->xtemps[x->id] = calloc((size_t)count * 4 * n, sizeof(uint32_t));
        s->xtemp_count[x->id] = count;
        if (!s->xtemps[x->id])
            return sb_interp_fail(s, SB_ERROR_OUT_OF_MEMORY, "out of memory");
    }
    for (uint32_t i = 0; i < p->group_shared_count; i++) {
        const struct sb_ir_group_shared *g = &p->group_shared[i];
        uint64_t dwords = g->structured ? (uint64_t)g->count * g->stride / 4u : g->count;
        if (dwords == 0 || dwords > 8192u)
            return sb_interp_fail(s, SB_ERROR_RUN_UNSUPPORTED, "g%u of %llu DWORDs", g->id,
                                  (unsigned long long)dwords);
        s->gsm_dwords[i] = (uint32_t)dwords;
        s->gsm[i] = calloc(dwords, sizeof(uint32_t));
        if (!s->gsm[i])
            return sb_interp_fail(s, SB_ERROR_OUT_OF_MEMORY, "out of memory");
    }
    if (sb_interp_precision_setup(s) != SB_SUCCESS)
        return s->result;
    return sb_interp_flow_prepare(s);
}

#define DEFAULT_BUDGET (1ull << 26)

enum sb_result sb_interp_lower(const struct sb_ir_program **program, struct sb_ir_program **owned,
                               struct sb_interp_stats *stats, struct sb_error *error)
{
    *owned = NULL;
    const struct sb_ir_program *p = *program;
    /* PICA semantics come from the shared rewrite into core IR (IR.md §PICA200), the one the
     * SPIR-V back end runs too; its declarations are the original program's. The loader
     * (sb_rt_program_load_shbin) hands over a lowered program already. */
    if (!p || p->source != SB_IR_SOURCE_PICA || (p->pica_flags & SB_IR_PICA_LOWERED))
        return SB_SUCCESS;
    struct sb_error e = { 0 };
    enum sb_result r = sb_ir_run_passes(p, 0, owned, &e);
    if (r != SB_SUCCESS) {
        if (error)
            *error = e;
        if (stats)
            memset(stats, 0, sizeof(*stats));
        return r;
    }
    *program = *owned;
    return SB_SUCCESS;
}

void sb_interp_state_init(struct interp_state *s, const struct sb_ir_program *program,
                          struct sb_rt_resource *resources, uint32_t resource_count, uint32_t lanes,
                          const struct sb_interp_options *options, struct sb_error *error)
{
    memset(s, 0, sizeof(*s));
    s->program = program;
    s->resources = resources;
    s->resource_count = resource_count;
    s->error = error;
    s->lanes = (lanes + SB_INTERP_LANE_BLOCK - 1) / SB_INTERP_LANE_BLOCK * SB_INTERP_LANE_BLOCK;
    s->budget = options && options->instruction_budget ? options->instruction_budget : DEFAULT_BUDGET;
    s->approx_ulps = options ? options->approx_ulps : 0;
    s->wave_lanes = options && options->wave_lanes ? options->wave_lanes : SB_INTERP_WAVE_SIZE;
    s->view_index = options ? options->view_index : 0;
    s->shading_rate = options ? options->shading_rate : 0;
    s->samples = program && program->stage == SB_IR_STAGE_PIXEL && options && options->sample_count
                     ? options->sample_count : 1;
    struct sb_interp_tracking *t = options ? options->tracking : NULL;
    s->track = t && (t->precision || t->undefined) ? t : NULL;
}

enum sb_result sb_interp_setup(struct interp_state *s)
{
    if (!sb_interp_wave_lanes_valid(s->wave_lanes))
        return sb_interp_fail(s, SB_ERROR_INVALID_ARGUMENT, "a wave of %u lanes: the interpreter runs waves of "
                              "4, 8, 16, 32, 64 or 128 lanes", s->wave_lanes);
    if (check_bindings(s) != SB_SUCCESS || sb_interp_track_begin(s, s->track) != SB_SUCCESS ||
        allocate(s) != SB_SUCCESS)
        return s->result;
    if (!s->track || !s->track->undefined || sb_interp_race_begin(s) != SB_SUCCESS)
        return s->result;
    return sb_interp_nonuniform_begin(s);
}

void sb_interp_release(struct interp_state *s)
{
    const struct sb_ir_program *p = s->program;
    sb_interp_precision_release(s);
    sb_interp_nonuniform_finish(s);
    if (s->race)
        sb_interp_race_finish(s);
    free(s->io_in);
    free(s->io_out);
    if (s->io_patch != s->io_out)
        free(s->io_patch);
    free(s->io_ocp);
    free(s->io_ddx);
    free(s->io_ddy);
    free(s->sample_dx);
    free(s->sample_dy);
    free(s->depth);
    free(s->coverage);
    free(s->stencil_ref);
    free(s->helper);
    free(s->discarded);
    free(s->temp_pool);
    free(s->temp);
    free(s->special);
    free(s->active);
    free(s->scratch_pool);
    free(s->double_pool);
    free(s->imm_arrays);
    for (uint32_t i = 0; s->xtemps && i < s->xtemp_ids; i++)
        free(s->xtemps[i]);
    free(s->xtemps);
    free(s->xtemp_count);
    for (uint32_t i = 0; s->gsm && i < p->group_shared_count; i++)
        free(s->gsm[i]);
    free(s->gsm);
    free(s->gsm_dwords);
    for (uint32_t f = 0; s->functions && f < p->function_count; f++)
        free(s->functions[f].match);
    free(s->functions);
    for (uint32_t i = 0; s->frames && i < s->frame_capacity; i++) {
        free(s->frames[i].keep);
        free(s->frames[i].target);
    }
    free(s->frames);
}

void sb_interp_clear(struct interp_state *s)
{
    uint32_t n = s->lanes;
    /* r# arrays may sit in either pool by now (zero-copy writes): clear both. */
    memset(s->temp_pool, 0, (size_t)(s->temp_count ? s->temp_count : 1) * 4 * n * sizeof(uint32_t));
    memset(s->scratch_pool, 0, (size_t)SB_INTERP_SCRATCH_ARRAYS * n * sizeof(uint32_t));
    for (uint32_t i = 0; i < s->xtemp_ids; i++)
        if (s->xtemps[i])
            memset(s->xtemps[i], 0, (size_t)s->xtemp_count[i] * 4 * n * sizeof(uint32_t));
    for (uint32_t i = 0; i < s->program->group_shared_count; i++)
        memset(s->gsm[i], 0, (size_t)s->gsm_dwords[i] * sizeof(uint32_t));
    memset(s->active, 1, s->invocations);
    memset(s->active + s->invocations, 0, n - s->invocations);
    s->active_count = s->invocations;
    s->frame_count = 0;
    sb_interp_precision_clear(s);
}

void sb_interp_copy_registers(const struct interp_state *s, uint32_t *lanes, uint32_t l,
                              const struct sb_interp_registers *r, uint32_t i, bool to_lanes)
{
    for (uint32_t reg = 0; reg < r->registers; reg++)
        for (uint32_t c = 0; c < 4; c++) {
            uint32_t *lane = &lanes[((size_t)reg * 4 + c) * s->lanes + l];
            uint32_t *word = &r->words[((size_t)i * r->registers + reg) * 4 + c];
            if (to_lanes) {
                *lane = *word;
            } else {
                *word = *lane;
                if (s->prec && s->track->output_bound && r->words == s->out_words)
                    sb_interp_precision_output(s, lane, &s->track->output_bound[word - r->words],
                                               &s->track->output_origin[word - r->words]);
            }
        }
}

uint32_t sb_interp_signature_registers(const struct sb_ir_program *p, uint32_t kind, uint32_t file, uint32_t given)
{
    uint32_t regs = given;
    for (uint32_t e = 0; e < p->signature_count; e++) {
        const struct sb_ir_signature_element *el = &p->signature[e];
        if (el->kind == kind && el->file == file && el->register_index < 4096 && el->register_index >= regs)
            regs = el->register_index + 1;
    }
    return regs;
}

void sb_interp_load_points(struct interp_state *s, uint32_t l, const struct sb_interp_registers *r, size_t first,
                           uint32_t points)
{
    size_t n = s->lanes;
    for (uint32_t k = 0; k < s->in_vertices; k++)
        for (uint32_t reg = 0; reg < s->in_regs; reg++)
            for (uint32_t c = 0; c < 4; c++)
                s->io_in[(((size_t)k * s->in_regs + reg) * 4 + c) * n + l] =
                    k < points && reg < r->registers ? r->words[((first + k) * r->registers + reg) * 4 + c] : 0;
}
