/* SPDX-License-Identifier: MIT */
/*
 * One program against another (validate.h, sb_validate_reference): the porting check, a DXIL
 * program against its fxc twin or two versions of one shader.
 *
 * Why not compare the two programs' sb_validate results as they come: each run seeds its
 * inputs from its own reflection, and a dxc container has no RDEF, so a constant buffer fxc
 * describes as floats may be seeded as integers for the DXIL twin: the same seed would give
 * different data. So the program's seeded inputs are made once and given to both runs as
 * provided entries (sb_validate_options::provided) by (class, register, space); the
 * harnesses then run each program exactly as `validate` does, and only the interpreters'
 * results are compared here: each one is D3D's answer for its program, so any difference
 * is the programs' (or a front end's), never a device's.
 *
 * Hull programs' records are compared by semantic too (compare_hull): dxc and fxc place the
 * tess factors in different lanes.
 *
 * Comparison: D3D's rules first (sb_validate_words_agree). When words differ, both
 * interpreters run again with their evidence (validate.c does the same for GPU-vs-CPU), and
 * a differing float is accepted when it lies within the sum of the two precision bounds:
 * each result may be that far from what a conformant device returns for its program, and
 * fxc and dxc legitimately fuse, reorder and approximate differently. The user's side of it:
 * README.md, "validate --reference OTHER FILE"; the word rules: "validate: verdicts".
 */
#include "validate_reference_private.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* `source`'s resources as provided entries for the program whose seeded inputs are `target`
 * (the data borrowed from `source`, the program's seeded set). */
static struct sb_rt_resource *share(const struct sb_rt_inputs *source, const struct sb_rt_inputs *target,
                                    uint32_t *count)
{
    struct sb_rt_resource *entries = calloc(source->count ? source->count : 1, sizeof(*entries));
    *count = 0;
    for (uint32_t i = 0; entries && i < source->count; i++) {
        const struct sb_rt_resource *r = &source->resources[i];
        int64_t j = sb_validate_reference_find(target, r->resource_class, r->space, r->register_index);
        /* Samplers are seeded from their declaration alike on both sides; giving one's state
         * to the other could only refuse (filtering of integer textures). */
        if (j < 0 || r->resource_class == SB_IR_RESOURCE_SAMPLER || r->resource_class > SB_IR_RESOURCE_UAV)
            continue;
        const struct sb_rt_resource *t = &target->resources[j];
        struct sb_rt_resource *e = &entries[(*count)++];
        *e = (struct sb_rt_resource){ .resource_class = r->resource_class, .space = r->space,
                                      .register_index = r->register_index, .data = r->data, .size = r->size };
        if (r->resource_class == SB_IR_RESOURCE_CBV && t->size < r->size)
            e->size = t->size; /* a constant buffer takes at most its declared size */
        bool texture = r->dimension > 1;
        if (texture && (t->size != r->size || t->format != r->format)) {
            *e = *r; /* another seeded shape: the texels with their own shape */
            e->counter = 0;
            memset(&e->sampler, 0, sizeof(e->sampler));
        }
    }
    return entries;
}

/* The lanes of `mask` in order (x first); returns how many. */
static uint32_t lanes_of(uint8_t mask, uint32_t lanes[4])
{
    uint32_t n = 0;
    for (uint32_t k = 0; k < 4; k++)
        if (mask >> k & 1u)
            lanes[n++] = k;
    return n;
}

/* sb_validate_options::input_seed_lanes for `reference`: each lane of a seeded input element
 * takes the seeded values of the program's lane of the same element (its k-th lane the
 * program's k-th), so both read the same data wherever each put the element. 256 registers x
 * 4 lanes, UINT32_MAX where a lane keeps its own. */
static void seed_lanes(const struct sb_ir_program *program, const struct sb_ir_program *reference, uint32_t *map)
{
    for (uint32_t k = 0; k < 1024; k++)
        map[k] = UINT32_MAX;
    for (uint32_t i = 0; i < reference->signature_count; i++) {
        const struct sb_ir_signature_element *eb = &reference->signature[i];
        const struct sb_ir_signature_element *ea =
            sb_validate_reference_seeded(eb) ? sb_validate_reference_element(program, SB_IR_SIGNATURE_INPUT,
                                                                              eb->semantic, eb->semantic_index)
                                             : NULL;
        if (!ea || !sb_validate_reference_seeded(ea) || ea->register_index >= 256 || eb->register_index >= 256)
            continue;
        uint32_t la[4], lb[4];
        uint32_t na = lanes_of(sb_validate_reference_lanes(ea), la), nb = lanes_of(sb_validate_reference_lanes(eb), lb);
        for (uint32_t k = 0; k < na && k < nb; k++)
            map[eb->register_index * 4 + lb[k]] = ea->register_index * 4 + la[k];
    }
}

/* One program's run on the shared inputs; `evidence`: the interpreter alone with its evidence;
 * `lanes`: the input lanes' seeds (NULL: their own). */
static enum sb_result run(struct sb_rt_context *context, const struct sb_rt_program *program,
                          const struct sb_validate_options *options, const struct sb_rt_resource *entries,
                          uint32_t count, const uint32_t *lanes, bool evidence, struct sb_validate_report **out,
                          struct sb_error *error)
{
    struct sb_validate_options o = *options;
    o.input_seed_lanes = lanes;
    o.input_seed_lane_count = lanes ? 1024 : 0;
    o.provided = entries;
    o.provided_count = count;
    bool device = context && sb_rt_context_has_device(context) && !evidence;
    o.sides = device ? 0 : SB_VALIDATE_SIDE_CPU;
    o.origins = evidence;
    return sb_validate(device ? context : NULL, program, &o, out, error);
}

/* Both sides' runs, plain and with evidence. */
struct sides {
    const struct sb_validate_report *run[2];
    const struct sb_validate_report *evidence[2]; /* NULL before words differ */
};

struct word_evidence {
    float bound;
    bool undefined;
};

static struct word_evidence evidence_of(const struct sb_validate_report *r, uint32_t i, uint64_t w)
{
    struct word_evidence e = { 0.0f, false };
    const struct sb_interp_tracking *t = r ? &r->tracking : NULL;
    if (!t || i >= t->resource_count)
        return e;
    if (t->bound && t->bound[i])
        e.bound = t->bound[i][w];
    e.undefined = t->undefined_word && t->undefined_word[i] && t->undefined_word[i][w];
    return e;
}

static double float_of(uint32_t u)
{
    float f;
    memcpy(&f, &u, 4);
    return (double)f;
}

/* Sorts one differing word (with evidence) into the counts; returns how it is explained. */
static enum sb_validate_verdict explain(struct sb_validate_reference_report *report, const struct sides *s,
                                        const uint32_t at[2][2], uint32_t kind, uint32_t a, uint32_t b, float *bound)
{
    struct word_evidence ea = evidence_of(s->evidence[0], at[0][0], at[0][1]);
    struct word_evidence eb = evidence_of(s->evidence[1], at[1][0], at[1][1]);
    *bound = ea.bound + eb.bound;
    if (!s->evidence[0]) {
        report->unexplained++;
        return SB_VALIDATE_DISAGREE;
    }
    if (ea.undefined || eb.undefined) {
        report->undefined_words++;
        return SB_VALIDATE_UNDEFINED;
    }
    if (isinf(*bound)) {
        report->precision_sensitive++;
        return SB_VALIDATE_AGREE_WITHIN_PRECISION;
    }
    /* A finite nonzero bound comes only from float arithmetic (validate.c's rule). */
    bool as_float = kind == SB_RT_WORD_FLOAT || ((kind == SB_RT_WORD_UNKNOWN || *bound > 0.0f) &&
                                                 kind != SB_RT_WORD_INT && kind != SB_RT_WORD_BOOL &&
                                                 sb_validate_is_normal(a) && sb_validate_is_normal(b));
    if (as_float && *bound > 0.0f && fabs(float_of(a) - float_of(b)) <= (double)*bound) {
        report->within_precision++;
        return SB_VALIDATE_AGREE_WITHIN_PRECISION;
    }
    report->unexplained++;
    return SB_VALIDATE_DISAGREE;
}

struct comparison {
    struct sb_validate_reference_report *report;
    const struct sides *sides;
    uint32_t float_ulps, limit;
};

/* Compares word at[0] of the program's results with word at[1] of the reference's ({resource,
 * word} each); `where` names the place for the report (class, register, element, lane). */
static void compare_word(struct comparison *c, const uint32_t at[2][2], const struct sb_validate_reference_mismatch *where)
{
    const struct sb_rt_inputs *in[2] = { c->sides->run[0]->cpu, c->sides->run[1]->cpu };
    uint32_t kind = sb_rt_word_kind_of(in[0], at[0][0], at[0][1]);
    uint32_t other = sb_rt_word_kind_of(in[1], at[1][0], at[1][1]);
    if (kind == SB_RT_WORD_IGNORED || other == SB_RT_WORD_IGNORED)
        return; /* a lane one side leaves undeclared */
    if (kind == SB_RT_WORD_UNKNOWN)
        kind = other; /* the side whose reflection knows the type decides */
    if (kind == SB_RT_WORD_DOUBLE_LOW || kind == SB_RT_WORD_DOUBLE_HIGH)
        kind = SB_RT_WORD_UINT; /* halves of a double: both interpreters compute doubles exactly */
    uint32_t a = ((const uint32_t *)in[0]->resources[at[0][0]].data)[at[0][1]];
    uint32_t b = ((const uint32_t *)in[1]->resources[at[1][0]].data)[at[1][1]];
    struct sb_validate_reference_report *report = c->report;
    report->words_compared++;
    if (sb_validate_words_agree(kind, a, b, c->float_ulps))
        return;
    report->mismatch_count++;
    float bound = 0.0f;
    enum sb_validate_verdict explained = explain(report, c->sides, at, kind, a, b, &bound);
    if (report->kept >= c->limit)
        return;
    struct sb_validate_reference_mismatch *m = &report->mismatches[report->kept++];
    *m = *where;
    /* A word explained by a finite bound was compared as a float, whatever its memory's type. */
    bool as_float = explained == SB_VALIDATE_AGREE_WITHIN_PRECISION && bound > 0.0f && !isinf(bound);
    m->kind = as_float ? SB_RT_WORD_FLOAT : (enum sb_rt_word_kind)kind;
    m->value = a;
    m->reference = b;
    m->explained = explained;
    m->bound = bound;
}

/* Every UAV word and counter, by register. */
static void compare_uavs(struct comparison *c)
{
    const struct sb_rt_inputs *a = c->sides->run[0]->cpu, *b = c->sides->run[1]->cpu;
    for (uint32_t i = 0; i < a->count; i++) {
        const struct sb_rt_resource *r = &a->resources[i];
        int64_t j = r->resource_class == SB_IR_RESOURCE_UAV
                        ? sb_validate_reference_find(b, SB_IR_RESOURCE_UAV, r->space, r->register_index) : -1;
        if (j < 0)
            continue;
        uint64_t words = (r->size < b->resources[j].size ? r->size : b->resources[j].size) / 4;
        bool texture = r->dimension > 1;
        for (uint64_t w = 0; w < words; w++) {
            const uint32_t at[2][2] = { { i, (uint32_t)w }, { (uint32_t)j, (uint32_t)w } };
            struct sb_validate_reference_mismatch where = { .resource_class = SB_IR_RESOURCE_UAV, .space = r->space,
                                                            .register_index = r->register_index,
                                                            .element = texture ? w * 4 : w };
            compare_word(c, at, &where);
        }
        c->report->words_compared++;
        if (r->counter != b->resources[j].counter) {
            /* A counter has no per-word evidence: undefined when either run saw undefined
             * behaviour (order-dependent atomics), else unexplained, as validate.c decides. */
            const struct sb_validate_report *const *ev = c->sides->evidence;
            bool undefined = ev[0] && ev[1] && (ev[0]->tracking.undefined_events || ev[1]->tracking.undefined_events);
            c->report->mismatch_count++;
            if (undefined)
                c->report->undefined_words++;
            else
                c->report->unexplained++;
            if (c->report->kept < c->limit)
                c->report->mismatches[c->report->kept++] = (struct sb_validate_reference_mismatch){
                    .resource_class = SB_IR_RESOURCE_UAV, .space = r->space, .register_index = r->register_index,
                    .element = UINT64_MAX, .kind = SB_RT_WORD_UINT, .value = r->counter,
                    .reference = b->resources[j].counter,
                    .explained = undefined ? SB_VALIDATE_UNDEFINED : SB_VALIDATE_DISAGREE };
        }
    }
}

/* The stage-output resource of `resource_class` (and o# `reg` for pixel targets), or -1. */
static int64_t output_resource(const struct sb_rt_inputs *in, uint32_t resource_class, uint32_t reg, bool any_register)
{
    for (uint32_t i = 0; i < in->count; i++)
        if (in->resources[i].resource_class == resource_class && (any_register || in->resources[i].register_index == reg))
            return i;
    return -1;
}

/* Vertex outputs and pixel render targets, element by element: the program's element and the
 * reference's of the same semantic and index, lane by lane in order (their o# and masks may
 * differ). Vertex outputs are one record of every o# per vertex; a pixel target one record
 * (its o#) per pixel and sample. */
static void compare_elements(struct comparison *c, enum sb_ir_stage stage, const struct sb_ir_program *ir[2],
                             uint32_t vertices)
{
    const struct sb_rt_inputs *in[2] = { c->sides->run[0]->cpu, c->sides->run[1]->cpu };
    for (uint32_t e = 0; e < ir[0]->signature_count; e++) {
        const struct sb_ir_signature_element *ea = &ir[0]->signature[e];
        if (ea->kind != SB_IR_SIGNATURE_OUTPUT || ea->file != SB_IR_FILE_OUTPUT || !ea->semantic || !ea->semantic[0])
            continue;
        const struct sb_ir_signature_element *eb =
            sb_validate_reference_element(ir[1], SB_IR_SIGNATURE_OUTPUT, ea->semantic, ea->semantic_index);
        if (!eb || eb->file != SB_IR_FILE_OUTPUT)
            continue; /* the interface check named it */
        bool vertex = stage == SB_IR_STAGE_VERTEX;
        int64_t ia = output_resource(in[0], SB_VALIDATE_CLASS_OUTPUT, ea->register_index, vertex);
        int64_t ib = output_resource(in[1], SB_VALIDATE_CLASS_OUTPUT, eb->register_index, vertex);
        if (ia < 0 || ib < 0)
            continue;
        uint64_t records = vertex ? vertices : in[0]->resources[ia].size / 16;
        uint64_t width[2] = { 1, 1 };
        if (vertex && vertices) { /* every o# of a vertex in one record */
            width[0] = in[0]->resources[ia].size / 16 / vertices;
            width[1] = in[1]->resources[ib].size / 16 / vertices;
        }
        uint32_t la[4], lb[4];
        uint32_t n = lanes_of(sb_validate_reference_lanes(ea), la);
        if (n != lanes_of(sb_validate_reference_lanes(eb), lb))
            continue;
        uint32_t ra = vertex ? ea->register_index : 0, rb = vertex ? eb->register_index : 0;
        if (ra >= width[0] || rb >= width[1] || records * width[1] * 16 > in[1]->resources[ib].size)
            continue;
        for (uint64_t v = 0; v < records; v++)
            for (uint32_t k = 0; k < n; k++) {
                const uint32_t at[2][2] = { { (uint32_t)ia, (uint32_t)((v * width[0] + ra) * 4 + la[k]) },
                                            { (uint32_t)ib, (uint32_t)((v * width[1] + rb) * 4 + lb[k]) } };
                struct sb_validate_reference_mismatch where = { .resource_class = SB_VALIDATE_CLASS_OUTPUT,
                                                                .register_index = ea->register_index,
                                                                .semantic_index = ea->semantic_index,
                                                                .element = v, .component = k };
                snprintf(where.semantic, sizeof(where.semantic), "%s", ea->semantic);
                compare_word(c, at, &where);
            }
    }
}

/* Records laid out alike on both sides (depth, stencil, geometry, hull, domain), word by word. */
static void compare_records(struct comparison *c, uint32_t resource_class)
{
    const struct sb_rt_inputs *in[2] = { c->sides->run[0]->cpu, c->sides->run[1]->cpu };
    int64_t ia = output_resource(in[0], resource_class, 0, true), ib = output_resource(in[1], resource_class, 0, true);
    if (ia < 0 || ib < 0)
        return;
    size_t size = in[0]->resources[ia].size < in[1]->resources[ib].size ? in[0]->resources[ia].size
                                                                          : in[1]->resources[ib].size;
    for (uint64_t w = 0; w < size / 4; w++) {
        const uint32_t at[2][2] = { { (uint32_t)ia, (uint32_t)w }, { (uint32_t)ib, (uint32_t)w } };
        struct sb_validate_reference_mismatch where = { .resource_class = resource_class, .element = w };
        compare_word(c, at, &where);
    }
}

/* Hull records (SB_VALIDATE_CLASS_HULL): per patch, `height` output control points of `width`
 * o# vectors each, then `depth` patch-constant vectors. Each side's layout is its own (dxc
 * packs the tess factors into o#.w, fxc puts each in o#.x), so elements are matched by
 * semantic and index: control-point outputs at every point, patch constants once a patch. */
static void compare_hull(struct comparison *c, const struct sb_ir_program *ir[2])
{
    const struct sb_rt_inputs *in[2] = { c->sides->run[0]->cpu, c->sides->run[1]->cpu };
    int64_t at[2] = { output_resource(in[0], SB_VALIDATE_CLASS_HULL, 0, true),
                      output_resource(in[1], SB_VALIDATE_CLASS_HULL, 0, true) };
    if (at[0] < 0 || at[1] < 0)
        return;
    const struct sb_rt_resource *r[2] = { &in[0]->resources[at[0]], &in[1]->resources[at[1]] };
    uint64_t record[2], patches[2];
    for (int side = 0; side < 2; side++) {
        record[side] = ((uint64_t)r[side]->width * r[side]->height + r[side]->depth) * 4;
        patches[side] = record[side] ? r[side]->size / 4 / record[side] : 0;
    }
    if (r[0]->height != r[1]->height || patches[0] != patches[1]) {
        c->report->difference = SB_VALIDATE_INTERFACE_SIGNATURE;
        snprintf(c->report->reason, sizeof(c->report->reason), "interfaces differ (signature): %u output control "
                 "points in the program, %u in the reference", r[0]->height, r[1]->height);
        return;
    }
    for (uint32_t e = 0; e < ir[0]->signature_count; e++) {
        const struct sb_ir_signature_element *ea = &ir[0]->signature[e];
        bool patch = ea->kind == SB_IR_SIGNATURE_PATCH;
        if ((!patch && (ea->kind != SB_IR_SIGNATURE_OUTPUT || ea->file != SB_IR_FILE_OUTPUT)) || !ea->semantic ||
            !ea->semantic[0])
            continue;
        const struct sb_ir_signature_element *eb =
            sb_validate_reference_element(ir[1], ea->kind, ea->semantic, ea->semantic_index);
        uint32_t la[4], lb[4];
        uint32_t n = lanes_of(sb_validate_reference_lanes(ea), la);
        if (!eb || n != lanes_of(sb_validate_reference_lanes(eb), lb) ||
            ea->register_index >= (patch ? r[0]->depth : r[0]->width) ||
            eb->register_index >= (patch ? r[1]->depth : r[1]->width))
            continue; /* the interface check named it, or the records do not hold it */
        uint32_t points = patch ? 1 : r[0]->height;
        for (uint64_t p = 0; p < patches[0]; p++)
            for (uint32_t k = 0; k < points; k++)
                for (uint32_t l = 0; l < n; l++) {
                    uint64_t wa = p * record[0] + ((uint64_t)(patch ? r[0]->height : k) * r[0]->width +
                                                   ea->register_index) * 4 + la[l];
                    uint64_t wb = p * record[1] + ((uint64_t)(patch ? r[1]->height : k) * r[1]->width +
                                                   eb->register_index) * 4 + lb[l];
                    const uint32_t words[2][2] = { { (uint32_t)at[0], (uint32_t)wa }, { (uint32_t)at[1], (uint32_t)wb } };
                    struct sb_validate_reference_mismatch where = {
                        .resource_class = SB_VALIDATE_CLASS_HULL, .register_index = ea->register_index,
                        .semantic_index = ea->semantic_index, .element = p, .point = patch ? r[0]->height : k,
                        .component = l };
                    snprintf(where.semantic, sizeof(where.semantic), "%s", ea->semantic);
                    compare_word(c, words, &where);
                }
    }
}

static void compare_all(struct comparison *c, const struct sb_rt_program *program, const struct sb_rt_program *reference,
                        const struct sb_validate_options *o)
{
    struct sb_validate_reference_report *report = c->report;
    report->words_compared = report->mismatch_count = report->within_precision = 0;
    report->precision_sensitive = report->undefined_words = report->unexplained = 0;
    report->kept = 0;
    compare_uavs(c);
    const struct sb_ir_program *ir[2] = { program->ir, reference->ir };
    uint32_t groups = o->group_count[0] ? o->group_count[0] : 1;
    if (program->stage == SB_IR_STAGE_VERTEX || program->stage == SB_IR_STAGE_PIXEL)
        compare_elements(c, program->stage, ir, o->draw_count ? o->draw_count : 64 * groups);
    if (program->stage == SB_IR_STAGE_HULL)
        compare_hull(c, ir);
    static const uint32_t records[] = { SB_VALIDATE_CLASS_DEPTH, SB_VALIDATE_CLASS_STENCIL, SB_VALIDATE_CLASS_GEOMETRY,
                                        SB_VALIDATE_CLASS_DOMAIN };
    for (uint32_t k = 0; k < sizeof(records) / sizeof(records[0]); k++)
        compare_records(c, records[k]);
}

/* "u0 dword 1", "TEXCOORD0 vertex 3 lane 1", "o0 (SV_Target0) pixel 5 lane 2". */
static void place_text(const struct sb_validate_reference_mismatch *m, enum sb_ir_stage stage, char *out, size_t size)
{
    char reg[48];
    if (m->resource_class == SB_IR_RESOURCE_UAV) {
        sb_validate_reference_register_name(SB_IR_RESOURCE_UAV, m->space, m->register_index, reg, sizeof(reg));
        if (m->element == UINT64_MAX)
            snprintf(out, size, "%s counter", reg);
        else
            snprintf(out, size, "%s dword %llu", reg, (unsigned long long)m->element);
    } else if (m->resource_class == SB_VALIDATE_CLASS_HULL && m->semantic[0]) {
        snprintf(out, size, "%s%u (o%u) patch %llu %s %u lane %u", m->semantic, m->semantic_index, m->register_index,
                 (unsigned long long)m->element, "point", m->point, m->component);
    } else if (m->resource_class == SB_VALIDATE_CLASS_OUTPUT) {
        snprintf(out, size, "%s%u (o%u) %s %llu lane %u", m->semantic, m->semantic_index, m->register_index,
                 stage == SB_IR_STAGE_VERTEX ? "vertex" : "pixel", (unsigned long long)m->element, m->component);
    } else {
        static const char *const names[] = { [SB_VALIDATE_CLASS_DEPTH] = "oDepth",
                                             [SB_VALIDATE_CLASS_GEOMETRY] = "gs records",
                                             [SB_VALIDATE_CLASS_STENCIL] = "oStencilRef",
                                             [SB_VALIDATE_CLASS_HULL] = "hs records",
                                             [SB_VALIDATE_CLASS_DOMAIN] = "ds records" };
        const char *name = m->resource_class < sizeof(names) / sizeof(names[0]) && names[m->resource_class]
                               ? names[m->resource_class] : "output";
        snprintf(out, size, "%s word %llu", name, (unsigned long long)m->element);
    }
}

static void value_text(uint32_t kind, uint32_t bits, char *out, size_t size)
{
    if (kind == SB_RT_WORD_INT)
        snprintf(out, size, "0x%08x (%d)", bits, (int32_t)bits);
    else if (kind == SB_RT_WORD_FLOAT || kind == SB_RT_WORD_UNKNOWN)
        snprintf(out, size, "0x%08x (%.9g)", bits, float_of(bits));
    else
        snprintf(out, size, "0x%08x (%u)", bits, bits);
}

/* The verdict from the counts, and the one-line reason naming the first differing word. */
static void conclude(struct sb_validate_reference_report *report, enum sb_ir_stage stage)
{
    enum sb_validate_verdict wanted = report->unexplained ? SB_VALIDATE_DISAGREE
                                      : report->undefined_words ? SB_VALIDATE_UNDEFINED
                                                                : SB_VALIDATE_AGREE_WITHIN_PRECISION;
    report->verdict = report->mismatch_count ? wanted : SB_VALIDATE_AGREE;
    const struct sb_validate_reference_mismatch *m = NULL;
    for (uint32_t k = 0; k < report->kept && !m; k++)
        if (report->mismatches[k].explained == wanted)
            m = &report->mismatches[k];
    char place[96] = "?", a[40] = "?", b[40] = "?";
    if (m) {
        place_text(m, stage, place, sizeof(place));
        value_text(m->kind, m->value, a, sizeof(a));
        value_text(m->kind, m->reference, b, sizeof(b));
    }
    unsigned long long compared = (unsigned long long)report->words_compared;
    if (report->verdict == SB_VALIDATE_AGREE && !compared)
        snprintf(report->reason, sizeof(report->reason), "nothing to compare: neither program writes a UAV or "
                 "an output");
    else if (report->verdict == SB_VALIDATE_AGREE)
        snprintf(report->reason, sizeof(report->reason), "%llu words identical", compared);
    else if (report->verdict == SB_VALIDATE_DISAGREE)
        snprintf(report->reason, sizeof(report->reason), "%llu of %llu words differ beyond any allowance; first: "
                 "%s: program %s, reference %s", (unsigned long long)report->unexplained, compared, place, a, b);
    else if (report->verdict == SB_VALIDATE_UNDEFINED)
        snprintf(report->reason, sizeof(report->reason), "%llu of %llu words differ where either program's result "
                 "is undefined (a race or an uninitialised read); first: %s: program %s, reference %s",
                 (unsigned long long)report->undefined_words, compared, place, a, b);
    else
        snprintf(report->reason, sizeof(report->reason), "%llu of %llu words differ within the two programs' "
                 "precision (%llu precision-sensitive); first: %s: program %s, reference %s (bound %g)",
                 (unsigned long long)report->mismatch_count, compared,
                 (unsigned long long)report->precision_sensitive, place, a, b, m ? (double)m->bound : 0.0);
}

void sb_validate_reference_report_destroy(struct sb_validate_reference_report *report)
{
    if (!report)
        return;
    sb_validate_report_destroy(report->program_run);
    sb_validate_report_destroy(report->reference_run);
    free(report->mismatches);
    free(report);
}

/* Names the reference in a failure of its run, so the caller knows which program stopped. */
static enum sb_result reference_failed(enum sb_result r, struct sb_error *error)
{
    if (r != SB_SUCCESS) {
        static const char prefix[] = "reference: ";
        size_t keep = sizeof(error->message) - sizeof(prefix); /* the tail of a long message goes */
        memmove(error->message + sizeof(prefix) - 1, error->message, keep);
        memcpy(error->message, prefix, sizeof(prefix) - 1);
        error->message[sizeof(error->message) - 1] = 0;
    }
    return r;
}

/* Both programs' runs (plain, then with `evidence`) on the inputs `seeding` makes. A provided
 * entry the reference cannot take is an interface difference, not a failure. */
static enum sb_result run_both(struct sb_rt_context *context, const struct sb_rt_program *program,
                               const struct sb_rt_program *reference, const struct sb_validate_options *o,
                               struct sb_validate_reference_report *report, struct sb_validate_report *evidence[2],
                               struct sb_error *error)
{
    struct sb_rt_inputs *inputs[2] = { NULL, NULL };
    enum sb_result r = sb_rt_inputs_create(program, &o->inputs, &inputs[0], error);
    if (r == SB_SUCCESS)
        r = reference_failed(sb_rt_inputs_create(reference, &o->inputs, &inputs[1], error), error);
    if (r != SB_SUCCESS || !sb_validate_reference_interfaces(report, program, inputs[0], reference, inputs[1])) {
        sb_rt_inputs_destroy(inputs[0]);
        sb_rt_inputs_destroy(inputs[1]);
        return r;
    }
    /* The program gets its own seeded bytes too: they stay fixed through sb_validate's input
     * retries, which would otherwise change one side's data only. */
    uint32_t count = 0, own_count = 0;
    struct sb_rt_resource *entries = share(inputs[0], inputs[1], &count);
    struct sb_rt_resource *own = share(inputs[0], inputs[0], &own_count);
    uint32_t *lanes = malloc(1024 * sizeof(*lanes));
    if (!entries || !own || !lanes)
        r = sb_validate_fail(error, SB_ERROR_OUT_OF_MEMORY, "out of memory sharing inputs");
    else
        seed_lanes(program->ir, reference->ir, lanes);
    if (r == SB_SUCCESS)
        r = run(context, program, o, own, own_count, NULL, false, &report->program_run, error);
    if (r == SB_SUCCESS) {
        r = run(context, reference, o, entries, count, lanes, false, &report->reference_run, error);
        /* The program's data does not fit the reference (sb_rt_inputs_provide's refusals name
         * the entry): an interface difference; any other failure is the run's. */
        if ((r == SB_ERROR_RUN_BINDING || r == SB_ERROR_BAD_SIZE) && !strncmp(error->message, "provided input", 14)) {
            report->difference = SB_VALIDATE_INTERFACE_RESOURCE_SHAPE;
            snprintf(report->reason, sizeof(report->reason), "interfaces differ (resource-shape): the reference "
                     "cannot take the program's inputs: %s", error->message);
            r = SB_SUCCESS;
        } else {
            r = reference_failed(r, error);
        }
    }
    struct comparison c = { .report = report, .float_ulps = o->float_ulps, .limit = o->max_mismatches };
    struct sides s = { { report->program_run, report->reference_run }, { NULL, NULL } };
    c.sides = &s;
    if (r == SB_SUCCESS && report->difference == SB_VALIDATE_INTERFACE_SAME) {
        compare_all(&c, program, reference, o);
        /* Words differ: each interpreter again with its evidence, then the same comparison. */
        if (report->mismatch_count) {
            r = run(NULL, program, o, own, own_count, NULL, true, &evidence[0], error);
            if (r == SB_SUCCESS)
                r = reference_failed(run(NULL, reference, o, entries, count, lanes, true, &evidence[1], error),
                                     error);
            s.evidence[0] = evidence[0];
            s.evidence[1] = evidence[1];
            if (r == SB_SUCCESS)
                compare_all(&c, program, reference, o);
        }
    }
    free(entries);
    free(own);
    free(lanes);
    sb_rt_inputs_destroy(inputs[0]);
    sb_rt_inputs_destroy(inputs[1]);
    return r;
}

enum sb_result sb_validate_reference(struct sb_rt_context *context, const struct sb_rt_program *program,
                                     const struct sb_rt_program *reference, const struct sb_validate_options *options,
                                     struct sb_validate_reference_report **out, struct sb_error *error)
{
    struct sb_error ignored = { 0 };
    if (!error) /* the runs' messages are read below (reference_failed, run_both) */
        error = &ignored;
    if (out)
        *out = NULL;
    if (!program || !reference || !out)
        return sb_validate_fail(error, SB_ERROR_INVALID_ARGUMENT, "sb_validate_reference: program, reference and "
                                "out are required");
    struct sb_validate_options o = { 0 };
    if (options)
        o = *options;
    if (o.provided_count || o.gpu_spirv)
        return sb_validate_fail(error, SB_ERROR_INVALID_ARGUMENT, "sb_validate_reference makes both programs' "
                                "inputs itself and runs their own translations (no provided, no gpu_spirv)");
    if (!o.max_mismatches)
        o.max_mismatches = 64;
    struct sb_validate_reference_report *report = calloc(1, sizeof(*report));
    if (report)
        report->mismatches = calloc(o.max_mismatches, sizeof(*report->mismatches));
    if (!report || !report->mismatches) {
        sb_validate_reference_report_destroy(report);
        return sb_validate_fail(error, SB_ERROR_OUT_OF_MEMORY, "out of memory comparing programs");
    }
    report->device_leg = context && sb_rt_context_has_device(context);
    struct sb_validate_report *evidence[2] = { NULL, NULL };
    enum sb_result r = run_both(context, program, reference, &o, report, evidence, error);
    for (int again = 0; again < 2; again++) {
        /* The device cannot run one of them (a feature it lacks): the comparison is the
         * interpreters' anyway, so it runs without the device leg, whose failure is kept. */
        bool device_failed = report->device_leg && (r == SB_ERROR_RUN_UNSUPPORTED || r == SB_ERROR_VULKAN);
        /* Data-driven loops: both again with small positive numbers, as sb_validate retries. */
        bool budget = r == SB_ERROR_RUN_BUDGET && !(o.inputs.flags & SB_RT_INPUTS_SMALL);
        if (!device_failed && !budget)
            break;
        sb_validate_report_destroy(report->program_run);
        sb_validate_report_destroy(report->reference_run);
        sb_validate_report_destroy(evidence[0]);
        sb_validate_report_destroy(evidence[1]);
        report->program_run = report->reference_run = evidence[0] = evidence[1] = NULL;
        if (device_failed) {
            report->device_failure = *error;
            report->device_leg = false;
            context = NULL;
        } else {
            o.inputs.flags |= SB_RT_INPUTS_SMALL;
        }
        r = run_both(context, program, reference, &o, report, evidence, error);
    }
    sb_validate_report_destroy(evidence[0]);
    sb_validate_report_destroy(evidence[1]);
    if (r != SB_SUCCESS) {
        sb_validate_reference_report_destroy(report);
        return r;
    }
    if (report->difference != SB_VALIDATE_INTERFACE_SAME) {
        report->verdict = SB_VALIDATE_DISAGREE;
        sb_validate_report_destroy(report->program_run);
        sb_validate_report_destroy(report->reference_run);
        report->program_run = report->reference_run = NULL;
        report->device_leg = false; /* nothing ran */
    } else {
        conclude(report, program->stage);
    }
    *out = report;
    return SB_SUCCESS;
}
