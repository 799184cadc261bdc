/* SPDX-License-Identifier: MIT */
/*
 * GPU-vs-CPU validation (validate.h): one set of seeded inputs, cloned for
 * the interpreter and for Vulkan, then every UAV word and counter compared by
 * the rule of its kind (and the stage outputs the graphics paths append:
 * validate_graphics.c, validate_geometry.c). The interpreter runs first so a program that does not
 * terminate within the budget is reported without handing it to a device.
 */
#include "validate_private.h"
#include "validate_pica.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool doubles_agree(uint64_t a, uint64_t b, uint32_t ulps)
{
    if (a == b)
        return true;
    double da, db;
    memcpy(&da, &a, 8);
    memcpy(&db, &b, 8);
    if (isnan(da) || isnan(db))
        return isnan(da) && isnan(db);
    /* Doubles are computed exactly by both sides except for drcp/ddiv/dfma: a 32-bit
     * float's tolerance scaled to the double's 29 extra mantissa bits. */
    int64_t oa = (a >> 63) ? -(int64_t)(a & ~(1ull << 63)) : (int64_t)a;
    int64_t ob = (b >> 63) ? -(int64_t)(b & ~(1ull << 63)) : (int64_t)b;
    int64_t d = oa - ob;
    if (d < 0)
        d = -d;
    return (uint64_t)d <= ((uint64_t)ulps << 29) || fabs(da - db) <= 0x1p-40;
}

/* Texel coordinates of a byte offset in a resource, for the report. */
static void locate(const struct sb_rt_resource *r, uint64_t offset, uint32_t texel[4])
{
    memset(texel, 0, 4 * sizeof(uint32_t));
    uint32_t size = sb_rt_format_size((enum sb_rt_format)r->format);
    if (!r->dimension || !size) {
        texel[0] = (uint32_t)(offset / 4); /* dword index */
        return;
    }
    /* Elements are storage units: texels, or 4x4 blocks for BC formats (their first texel reported). */
    uint64_t element = offset / size, block = sb_rt_format_block_extent((enum sb_rt_format)r->format);
    uint32_t layers = r->layers ? r->layers : 1;
    uint32_t samples = r->sample_count ? r->sample_count : 1;
    for (uint32_t level = 0; level < (r->mip_levels ? r->mip_levels : 1); level++) {
        uint64_t w = r->width >> level ? r->width >> level : 1;
        uint64_t h = r->height >> level ? r->height >> level : 1;
        uint64_t d = r->depth >> level ? r->depth >> level : 1;
        w = (w + block - 1) / block;
        h = (h + block - 1) / block;
        uint64_t level_texels = w * h * d * layers * samples;
        if (element < level_texels) {
            element /= samples;
            texel[0] = (uint32_t)(element % w * block);
            texel[1] = (uint32_t)(element / w % h * block);
            texel[2] = (uint32_t)(element / w / h); /* depth slice or layer */
            texel[3] = level;
            return;
        }
        element -= level_texels;
    }
}

/* Patch, control point, register and lane of a hull record offset (validate.h). */
static void locate_hull(const struct sb_rt_resource *r, uint64_t offset, uint32_t texel[4])
{
    uint64_t word = offset / 4, per_point = (uint64_t)r->width * 4;
    uint64_t record_words = per_point * r->height + (uint64_t)r->depth * 4;
    uint64_t w = record_words ? word % record_words : 0;
    texel[0] = (uint32_t)(record_words ? word / record_words : 0);
    bool point = per_point && w < per_point * r->height;
    texel[1] = point ? (uint32_t)(w / per_point) : r->height;
    texel[2] = (uint32_t)((point ? w % per_point : w - per_point * r->height) / 4);
    texel[3] = (uint32_t)(w % 4);
}

/* Primitive, instance, slot and word of a geometry record offset (validate.h). */
static void locate_geometry(const struct sb_rt_resource *r, uint64_t offset, uint32_t texel[4])
{
    uint64_t word = offset / 4, record_words = (uint64_t)(r->width ? r->width : 1) * 4;
    uint64_t record = word / record_words, slots = r->height ? r->height : 1, instances = r->depth ? r->depth : 1;
    uint64_t invocation = record / slots;
    texel[0] = (uint32_t)(invocation / instances);
    texel[1] = (uint32_t)(invocation % instances);
    texel[2] = (uint32_t)(record % slots);
    texel[3] = (uint32_t)(word % record_words);
}

static bool keep(struct sb_validate_report *report, uint32_t limit, uint32_t resource,
                 const struct sb_rt_resource *r, uint64_t offset, uint32_t kind, uint32_t gpu,
                 uint32_t cpu)
{
    report->mismatch_count++;
    if (report->kept >= limit)
        return true;
    struct sb_validate_mismatch *m = &report->mismatches[report->kept++];
    m->resource = resource;
    m->byte_offset = offset;
    m->kind = kind;
    m->gpu = gpu;
    m->cpu = cpu;
    if (offset == UINT64_MAX)
        memset(m->texel, 0, sizeof(m->texel));
    else if (r->resource_class == SB_VALIDATE_CLASS_GEOMETRY)
        locate_geometry(r, offset, m->texel);
    else if (r->resource_class == SB_VALIDATE_CLASS_HULL)
        locate_hull(r, offset, m->texel);
    else if (r->resource_class == SB_VALIDATE_CLASS_DOMAIN) {
        uint64_t record_words = (uint64_t)(r->width ? r->width : 1) * 4;
        m->texel[0] = (uint32_t)(offset / 4 / record_words);
        m->texel[1] = m->texel[2] = 0;
        m->texel[3] = (uint32_t)(offset / 4 % record_words);
    }
    else
        locate(r, offset, m->texel);
    return true;
}

const char *sb_validate_verdict_name(enum sb_validate_verdict verdict)
{
    switch (verdict) {
    case SB_VALIDATE_AGREE: return "agree";
    case SB_VALIDATE_AGREE_WITHIN_PRECISION: return "agree-within-precision";
    case SB_VALIDATE_UNDEFINED: return "undefined";
    case SB_VALIDATE_NOT_RUN: return "not-run";
    case SB_VALIDATE_DISAGREE: return "disagree";
    default: return "?";
    }
}

/* The interpreter's evidence for word `w` of resource `i` (0 / none past what it tracked). */
struct word_evidence {
    float bound;
    uint32_t origin;
    bool undefined;
};

static struct word_evidence evidence(const struct sb_validate_report *report, uint32_t i, uint64_t w)
{
    struct word_evidence e = { 0.0f, UINT32_MAX, false };
    const struct sb_interp_tracking *t = &report->tracking;
    if (i >= t->resource_count)
        return e;
    if (t->bound && t->bound[i]) {
        e.bound = t->bound[i][w];
        e.origin = t->origin && t->origin[i] ? t->origin[i][w] : UINT32_MAX;
    }
    e.undefined = t->undefined_word && t->undefined_word[i] && t->undefined_word[i][w];
    return e;
}

static double word_value(uint32_t kind, uint32_t u)
{
    if (kind == SB_RT_WORD_INT)
        return (double)(int32_t)u;
    if (kind == SB_RT_WORD_UINT || kind == SB_RT_WORD_BOOL)
        return (double)u;
    float f;
    memcpy(&f, &u, 4);
    return (double)f;
}

/* The operation of the instruction at shader byte offset `offset` (UINT32_MAX: none). */
static uint32_t op_at(const struct sb_ir_program *ir, uint32_t offset)
{
    for (uint32_t f = 0; ir && offset != UINT32_MAX && f < ir->function_count; f++)
        for (uint32_t k = 0; k < ir->functions[f].instruction_count; k++)
            if (ir->functions[f].instructions[k].offset == offset)
                return ir->functions[f].instructions[k].op;
    return UINT32_MAX;
}

/* Is word `w` half of a double (the even word of its pair the low half, both halves with the
 * same bound) whose device and interpreter values lie within `bound`? *deviation: theirs. */
static bool double_within(const struct sb_validate_report *report, const struct sb_ir_program *ir, uint32_t i,
                          uint64_t w, float bound, double *deviation)
{
    /* Only a double operation's own allowance makes such a bound (interp_precision.c): the
     * word's origin must be one, or two float words with one bound would pass as a double. */
    uint32_t op = op_at(ir, evidence(report, i, w).origin);
    if (op != SB_IR_OP_DDIV && op != SB_IR_OP_DRCP && op != SB_IR_OP_DFMA)
        return false;
    const struct sb_rt_resource *g = &report->gpu->resources[i], *c = &report->cpu->resources[i];
    uint64_t low = w & ~1ull;
    if ((low + 2) * 4 > g->size || evidence(report, i, low).bound != bound ||
        evidence(report, i, low + 1).bound != bound)
        return false;
    const uint32_t *gw = g->data, *cw = c->data;
    uint64_t gb = gw[low] | (uint64_t)gw[low + 1] << 32, cb = cw[low] | (uint64_t)cw[low + 1] << 32;
    double gd, cd;
    memcpy(&gd, &gb, 8);
    memcpy(&cd, &cb, 8);
    *deviation = fabs(gd - cd);
    return *deviation <= (double)bound;
}

/* Sorts one differing word into the report's counts; returns how it is explained. */
static enum sb_validate_verdict classify(struct sb_validate_report *report, const struct sb_ir_program *ir, uint32_t i,
                                         uint64_t w, uint32_t kind, uint32_t gpu, uint32_t cpu)
{
    struct word_evidence e = evidence(report, i, w);
    if (e.undefined) {
        report->undefined_words++;
        return SB_VALIDATE_UNDEFINED;
    }
    if (isinf(e.bound)) {
        report->precision_sensitive++;
        if (!report->has_worst) { /* named until a word within a finite bound takes its place */
            report->has_worst = true;
            report->worst.resource = i;
            report->worst.byte_offset = w * 4;
            report->worst.gpu = gpu;
            report->worst.cpu = cpu;
            report->worst.deviation = fabs(word_value(SB_RT_WORD_FLOAT, gpu) - word_value(SB_RT_WORD_FLOAT, cpu));
            report->worst.bound = INFINITY;
            report->worst.origin = e.origin;
        }
        return SB_VALIDATE_AGREE_WITHIN_PRECISION;
    }
    /* A finite nonzero bound comes only from float arithmetic, so a word the inputs call an
     * integer (raw buffers are seeded as uint) that carries one holds a float, or half of a
     * double: both halves of a double carry its bound, and the pair is compared as one. */
    bool computed = e.bound > 0.0f && kind != SB_RT_WORD_INT && kind != SB_RT_WORD_BOOL;
    bool as_float = kind == SB_RT_WORD_FLOAT ||
                    ((kind == SB_RT_WORD_UNKNOWN || computed) && sb_validate_is_normal(gpu) && sb_validate_is_normal(cpu));
    double deviation = fabs(word_value(SB_RT_WORD_FLOAT, gpu) - word_value(SB_RT_WORD_FLOAT, cpu));
    if (computed && !(as_float && deviation <= (double)e.bound) && double_within(report, ir, i, w, e.bound, &deviation))
        as_float = true;
    if (!as_float || e.bound <= 0.0f || !(deviation <= (double)e.bound)) {
        report->unexplained++;
        return SB_VALIDATE_DISAGREE;
    }
    report->within_precision++;
    /* The worst deviation: the largest in units of the interpreter's value (ULP-like), so
     * a large value's small relative error does not hide a small value's large one. */
    double scale = fmax(fabs(word_value(SB_RT_WORD_FLOAT, cpu)), 0x1p-126);
    if (!report->has_worst || isinf(report->worst.bound) ||
        deviation / scale > report->worst.deviation /
                                fmax(fabs(word_value(SB_RT_WORD_FLOAT, report->worst.cpu)), 0x1p-126)) {
        report->has_worst = true;
        report->worst.resource = i;
        report->worst.byte_offset = w * 4;
        report->worst.gpu = gpu;
        report->worst.cpu = cpu;
        report->worst.deviation = deviation;
        report->worst.bound = e.bound;
        report->worst.origin = e.origin;
    }
    return SB_VALIDATE_AGREE_WITHIN_PRECISION;
}

/* `exact`: PICA200 programs, whose SPIR-V and interpreter share one lowering with exactly
 * rounded ops (translator/IR.md "PICA200 programs"), so every word must be bit-identical.
 * Otherwise a word agrees under D3D's rules (sb_validate_words_agree with no tolerance, or
 * the explicit override), and a differing one is explained by the interpreter's evidence
 * (classify). */
static void compare(struct sb_validate_report *report, const struct sb_validate_options *o,
                    uint32_t limit, bool exact, const struct sb_ir_program *ir)
{
    const struct sb_rt_inputs *gpu = report->gpu, *cpu = report->cpu;
    for (uint32_t i = 0; i < gpu->count; i++) {
        const struct sb_rt_resource *g = &gpu->resources[i], *c = &cpu->resources[i];
        if (g->resource_class != SB_IR_RESOURCE_UAV && g->resource_class != SB_VALIDATE_CLASS_OUTPUT &&
            g->resource_class != SB_VALIDATE_CLASS_DEPTH && g->resource_class != SB_VALIDATE_CLASS_GEOMETRY &&
            g->resource_class != SB_VALIDATE_CLASS_STENCIL && g->resource_class != SB_VALIDATE_CLASS_HULL &&
            g->resource_class != SB_VALIDATE_CLASS_DOMAIN)
            continue;
        const uint32_t *gw = g->data, *cw = c->data;
        uint64_t words = g->size / 4;
        for (uint64_t w = 0; w < words; w++) {
            uint8_t kind = sb_rt_word_kind_of(gpu, i, w);
            if (kind == SB_RT_WORD_IGNORED)
                continue;
            report->words_compared++;
            if (kind == SB_RT_WORD_DOUBLE_LOW && w + 1 < words) {
                uint64_t a = gw[w] | (uint64_t)gw[w + 1] << 32, b = cw[w] | (uint64_t)cw[w + 1] << 32;
                report->words_compared++;
                if (!doubles_agree(a, b, o->float_ulps)) {
                    struct word_evidence e = evidence(report, i, w);
                    double da, db;
                    memcpy(&da, &a, 8);
                    memcpy(&db, &b, 8);
                    enum sb_validate_verdict v = SB_VALIDATE_DISAGREE;
                    if (e.undefined) {
                        report->undefined_words += 2;
                        v = SB_VALIDATE_UNDEFINED;
                    } else if (isinf(e.bound)) {
                        report->precision_sensitive += 2;
                        v = SB_VALIDATE_AGREE_WITHIN_PRECISION;
                    } else if (e.bound > 0.0f && fabs(da - db) <= (double)e.bound) {
                        report->within_precision += 2;
                        v = SB_VALIDATE_AGREE_WITHIN_PRECISION;
                    } else {
                        report->unexplained += 2;
                    }
                    keep(report, limit, i, g, w * 4, kind, gw[w], cw[w]);
                    keep(report, limit, i, g, w * 4 + 4, SB_RT_WORD_DOUBLE_HIGH, gw[w + 1], cw[w + 1]);
                    for (uint32_t k = report->kept >= 2 ? report->kept - 2 : 0; k < report->kept; k++)
                        if (report->mismatches[k].resource == i && report->mismatches[k].byte_offset / 4 - w < 2) {
                            report->mismatches[k].explained = v;
                            report->mismatches[k].bound = e.bound;
                            report->mismatches[k].origin = e.origin;
                        }
                }
                w++;
                continue;
            }
            if (exact ? gw[w] == cw[w] : sb_validate_words_agree(kind, gw[w], cw[w], o->float_ulps))
                continue;
            bool cpu_special = !exact && (cw[w] & 0x7f800000u) == 0x7f800000u;
            bool as_float = kind == SB_RT_WORD_FLOAT || (kind == SB_RT_WORD_UNKNOWN && sb_validate_is_normal(gw[w]));
            if (cpu_special && as_float) {
                report->unconstrained++;
                continue;
            }
            uint32_t before = report->kept;
            enum sb_validate_verdict v = exact ? SB_VALIDATE_DISAGREE : classify(report, ir, i, w, kind, gw[w], cw[w]);
            if (exact)
                report->unexplained++;
            keep(report, limit, i, g, w * 4, kind, gw[w], cw[w]);
            if (report->kept > before) {
                struct word_evidence e = evidence(report, i, w);
                report->mismatches[before].explained = v;
                report->mismatches[before].bound = e.bound;
                report->mismatches[before].origin = e.origin;
            }
        }
        if (g->resource_class != SB_IR_RESOURCE_UAV)
            continue; /* stage outputs have no counter */
        report->words_compared++;
        if (g->counter != c->counter) {
            uint32_t before = report->kept;
            keep(report, limit, i, g, UINT64_MAX, SB_RT_WORD_UINT, g->counter, c->counter);
            bool undefined = report->tracking.undefined_events != 0;
            if (undefined)
                report->undefined_words++;
            else
                report->unexplained++;
            if (report->kept > before) {
                report->mismatches[before].explained = undefined ? SB_VALIDATE_UNDEFINED : SB_VALIDATE_DISAGREE;
                report->mismatches[before].origin = UINT32_MAX;
            }
        }
    }
}

static enum sb_result attempt(struct sb_rt_context *context, const struct sb_rt_program *program,
                              const struct sb_validate_options *options, const struct sb_validate_fit *fit,
                              const struct sb_rt_inputs *device, struct sb_validate_report **out,
                              struct sb_error *error);

/* Words differ: the interpreter runs again, alone, on the same inputs with its evidence on
 * (precision bounds with their origins, the undefined-behaviour detector), which is several
 * times slower than a plain run and so is paid only here. The evidence is moved into the
 * report and its comparison counts are reset for a second comparison. False (the report
 * unchanged) when the rerun fails. */
static bool gather_evidence(const struct sb_rt_program *program, const struct sb_validate_options *options,
                            const struct sb_validate_fit *fit, struct sb_validate_report *report)
{
    struct sb_validate_options o = *options;
    o.sides = SB_VALIDATE_SIDE_CPU;
    o.origins = true;
    struct sb_validate_report *again = NULL;
    struct sb_error ignored = { 0 };
    /* The same inputs as `report`'s; a domain program at the device's points (report->gpu). */
    if (attempt(NULL, program, &o, fit, report->gpu, &again, &ignored) != SB_SUCCESS)
        return false;
    report->evidence_ns = again->cpu_ns; /* the tracked interpreter's time, as cpu_ns is the plain one's */
    sb_interp_tracking_release(&report->tracking);
    report->tracking = again->tracking;
    memset(&again->tracking, 0, sizeof(again->tracking));
    sb_validate_report_destroy(again);
    report->words_compared = report->mismatch_count = report->unconstrained = 0;
    report->within_precision = report->precision_sensitive = report->undefined_words = report->unexplained = 0;
    report->kept = 0;
    report->has_worst = false;
    memset(&report->worst, 0, sizeof(report->worst));
    return true;
}

/* The name of the instruction at shader byte offset `offset`, for the report. */
static void origin_name(const struct sb_ir_program *ir, uint32_t offset, char *out, size_t size)
{
    uint32_t op = op_at(ir, offset);
    snprintf(out, size, "%s", op == UINT32_MAX ? "" : sb_ir_op_name(op));
}

static const char *undefined_kind_text(enum sb_interp_undefined_kind kind)
{
    switch (kind) {
    case SB_INTERP_UNDEFINED_WRITE_WRITE: return "write-write race";
    case SB_INTERP_UNDEFINED_READ_WRITE: return "read-write race";
    case SB_INTERP_UNDEFINED_ATOMIC_ORDER: return "order-dependent atomic";
    case SB_INTERP_UNDEFINED_UNINITIALIZED: return "uninitialised read";
    case SB_INTERP_UNDEFINED_OUT_OF_BOUNDS: return "indexable temp out of bounds";
    case SB_INTERP_UNDEFINED_NON_UNIFORM_INDEX: return "non-uniform range index";
    default: return "undefined access";
    }
}

/* A resource as people name it: u1, o0 (a stage output), oDepth, gs records. */
static void label(const struct sb_validate_report *report, uint32_t i, char *out, size_t size)
{
    const struct sb_rt_resource *r = i < report->gpu->count ? &report->gpu->resources[i] : NULL;
    if (!r)
        snprintf(out, size, "resource %u", i);
    else if (r->resource_class == SB_VALIDATE_CLASS_OUTPUT)
        snprintf(out, size, "o%u", r->register_index);
    else if (r->resource_class == SB_VALIDATE_CLASS_DEPTH)
        snprintf(out, size, "oDepth");
    else if (r->resource_class == SB_VALIDATE_CLASS_STENCIL)
        snprintf(out, size, "oStencilRef");
    else if (r->resource_class == SB_VALIDATE_CLASS_GEOMETRY)
        snprintf(out, size, "gs records");
    else if (r->resource_class == SB_VALIDATE_CLASS_HULL)
        snprintf(out, size, "hs records");
    else if (r->resource_class == SB_VALIDATE_CLASS_DOMAIN)
        snprintf(out, size, "ds records");
    else
        snprintf(out, size, "u%u%s", r->register_index, r->space ? " (space != 0)" : "");
}

/* A non-uniform range index, said so that the shader's author knows what to change: the range,
 * the instruction, two invocations of one group and the registers they chose, and the fix. */
static void non_uniform_reason(const struct sb_validate_report *report, const struct sb_interp_undefined_event *u,
                               char *out, size_t size)
{
    static const char letter[4][3] = { "cb", "t", "s", "u" };
    const char *l = (uint32_t)u->range_class < 4 ? letter[u->range_class] : "?";
    snprintf(out, size, "%llu differing words come from undefined behaviour: %s: the %s range from %s%u (space %u) "
             "is indexed at instruction %u with %s%u by invocation %u and %s%u by invocation %u of one invocation "
             "group, which Vulkan requires to be uniform; mark the index NonUniformResourceIndex",
             (unsigned long long)report->undefined_words, undefined_kind_text(u->kind), l, l, u->range_lower_bound,
             u->range_space, u->instruction[1], l, u->range_register[0], u->invocation[0], l,
             u->range_register[1], u->invocation[1]);
}

/* The verdict from the counts, and the one-line reason. */
static void conclude(struct sb_validate_report *report, const struct sb_rt_program *program)
{
    report->undefined_events = report->tracking.undefined_events;
    report->undefined_kept = report->tracking.kept;
    memcpy(report->undefined, report->tracking.events, sizeof(report->undefined));
    if (report->has_worst)
        origin_name(program->ir, report->worst.origin, report->worst.origin_op, sizeof(report->worst.origin_op));
    char *out = report->reason;
    size_t size = sizeof(report->reason);
    if (report->unexplained) {
        report->verdict = SB_VALIDATE_DISAGREE;
        const struct sb_validate_mismatch *m = NULL;
        for (uint32_t k = 0; k < report->kept && !m; k++)
            if (report->mismatches[k].explained == SB_VALIDATE_DISAGREE)
                m = &report->mismatches[k];
        char name[40];
        if (m)
            label(report, m->resource, name, sizeof(name));
        if (m)
            snprintf(out, size, "%llu of %llu words differ beyond any allowance; first: %s byte %llu gpu "
                     "0x%08x cpu 0x%08x (bound %g)", (unsigned long long)report->unexplained,
                     (unsigned long long)report->words_compared, name, (unsigned long long)m->byte_offset,
                     m->gpu, m->cpu, (double)m->bound);
        else
            snprintf(out, size, "%llu of %llu words differ beyond any allowance", (unsigned long long)report->unexplained,
                     (unsigned long long)report->words_compared);
    } else if (report->undefined_words) {
        report->verdict = SB_VALIDATE_UNDEFINED;
        const struct sb_interp_undefined_event *u = report->undefined_kept ? &report->undefined[0] : NULL;
        char name[40];
        if (u && u->resource == UINT32_MAX)
            snprintf(name, sizeof(name), "%s%u", u->kind == SB_INTERP_UNDEFINED_OUT_OF_BOUNDS ? "x" : "g",
                     u->group_shared_id);
        else if (u)
            label(report, u->resource, name, sizeof(name));
        if (u && u->kind == SB_INTERP_UNDEFINED_NON_UNIFORM_INDEX)
            non_uniform_reason(report, u, out, size);
        else if (u && u->kind == SB_INTERP_UNDEFINED_OUT_OF_BOUNDS)
            snprintf(out, size, "%llu differing words come from undefined behaviour: %s: %s element %llu by "
                     "invocation %u (instruction at %u)", (unsigned long long)report->undefined_words,
                     undefined_kind_text(u->kind), name, (unsigned long long)u->byte_offset / 16, u->invocation[1],
                     u->instruction[1]);
        else if (u && u->invocation[0] == UINT32_MAX)
            snprintf(out, size, "%llu differing words come from undefined behaviour: %s on %s byte %llu by "
                     "invocation %u (instruction at %u)", (unsigned long long)report->undefined_words,
                     undefined_kind_text(u->kind), name, (unsigned long long)u->byte_offset, u->invocation[1],
                     u->instruction[1]);
        else if (u)
            snprintf(out, size, "%llu differing words come from undefined behaviour: %s on %s byte %llu "
                     "between invocations %u and %u (instructions at %u and %u)",
                     (unsigned long long)report->undefined_words, undefined_kind_text(u->kind), name,
                     (unsigned long long)u->byte_offset, u->invocation[0], u->invocation[1], u->instruction[0],
                     u->instruction[1]);
        else
            snprintf(out, size, "%llu differing words come from undefined behaviour",
                     (unsigned long long)report->undefined_words);
    } else if (report->mismatch_count) {
        report->verdict = SB_VALIDATE_AGREE_WITHIN_PRECISION;
        char name[40];
        if (report->has_worst)
            label(report, report->worst.resource, name, sizeof(name));
        if (report->has_worst && isinf(report->worst.bound))
            snprintf(out, size, "%llu words differ, all precision-sensitive: they depend on '%s' at byte %u, whose "
                     "outcome the bounds of its operands straddle, or on a value Vulkan leaves to the device "
                     "(first: %s byte %llu)", (unsigned long long)report->mismatch_count,
                     report->worst.origin_op[0] ? report->worst.origin_op : "?", report->worst.origin, name,
                     (unsigned long long)report->worst.byte_offset);
        else if (report->has_worst)
            snprintf(out, size, "%llu words differ within Vulkan's precision (%llu precision-sensitive); largest: "
                     "%s byte %llu by %g of an allowed %g, mostly from '%s' at byte %u",
                     (unsigned long long)report->mismatch_count, (unsigned long long)report->precision_sensitive,
                     name, (unsigned long long)report->worst.byte_offset, report->worst.deviation,
                     report->worst.bound, report->worst.origin_op[0] ? report->worst.origin_op : "?",
                     report->worst.origin);
        else
            snprintf(out, size, "%llu words differ, all precision-sensitive (they depend on a comparison, branch, "
                     "conversion or texel choice their bounds straddle, or on a result Vulkan leaves to the device)",
                     (unsigned long long)report->mismatch_count);
    } else {
        report->verdict = SB_VALIDATE_AGREE;
        snprintf(out, size, "%llu words identical", (unsigned long long)report->words_compared);
    }
}

void sb_validate_report_destroy(struct sb_validate_report *report)
{
    if (!report)
        return;
    sb_rt_inputs_destroy(report->gpu);
    sb_rt_inputs_destroy(report->cpu);
    sb_interp_tracking_release(&report->tracking);
    free(report->mismatches);
    free(report);
}

enum sb_result sb_validate(struct sb_rt_context *context, const struct sb_rt_program *program,
                           const struct sb_validate_options *options,
                           struct sb_validate_report **out, struct sb_error *error)
{
    if (out)
        *out = NULL;
    if (!program || !out || (!context && !(options && options->sides == SB_VALIDATE_SIDE_CPU)))
        return sb_validate_fail(error, SB_ERROR_INVALID_ARGUMENT, "sb_validate: context, program and out are required");
    if (options && options->sides > (SB_VALIDATE_SIDE_GPU | SB_VALIDATE_SIDE_CPU))
        return sb_validate_fail(error, SB_ERROR_INVALID_ARGUMENT, "sb_validate: unknown sides");
    if (program->stage == SB_IR_STAGE_MESH || program->stage == SB_IR_STAGE_AMPLIFICATION)
        return sb_validate_fail(error, SB_ERROR_RUN_UNSUPPORTED,
                                program->stage == SB_IR_STAGE_MESH
                                    ? "not run: a mesh shader (the interpreter and lavapipe have no mesh stage)"
                                    : "not run: an amplification shader (the interpreter and lavapipe have no "
                                      "amplification stage)");
    if (program->stage > SB_IR_STAGE_COMPUTE)
        return sb_validate_fail(error, SB_ERROR_RUN_UNSUPPORTED, "validation runs compute, vertex, pixel, "
                                "geometry, hull and domain shaders; this program is none of them");
    struct sb_validate_options o = { 0 };
    if (options)
        o = *options;
    for (int a = 0; a < 3; a++)
        if (!o.group_count[a])
            o.group_count[a] = 1;
    if (!o.max_mismatches)
        o.max_mismatches = 64;
    if (!o.sides)
        o.sides = SB_VALIDATE_SIDE_GPU | SB_VALIDATE_SIDE_CPU;
    /* A caller's module stands in for the translation everywhere below (validate_module.c). */
    struct sb_validate_module *module = NULL;
    enum sb_result checked = sb_validate_module_create(program, &o, &module, error);
    if (checked != SB_SUCCESS)
        return checked;
    if (module)
        program = sb_validate_module_program(module);
    checked = sb_validate_wave_lanes(context, program, &o, error); /* one wave size on both sides */
    if (checked != SB_SUCCESS) {
        sb_validate_module_destroy(module);
        return checked;
    }
    /* Inputs a real shader can run with: again with changed ones while the interpreter stops
     * on a range index or its budget (validate_retry.c). */
    struct sb_validate_retry retry;
    struct sb_error own = { 0 }, *e = error ? error : &own; /* a retry reads where a run stopped */
    sb_validate_retry_init(&retry, program, &o);
    enum sb_result r;
    do {
        r = sb_validate_retry_prepare(&retry, e);
        if (r == SB_SUCCESS)
            r = attempt(context, &retry.run, &retry.options, &retry.fit, NULL, out, e);
    } while (r != SB_SUCCESS && sb_validate_retry_refit(&retry, r, e));
    sb_validate_retry_finish(&retry, r == SB_SUCCESS ? *out : NULL);
    sb_validate_module_destroy(module);
    return r;
}

/* The domain records of an earlier run's device results, or NULL. */
static const struct sb_rt_resource *domain_records(const struct sb_rt_inputs *device)
{
    for (uint32_t i = 0; device && i < device->count; i++)
        if (device->resources[i].resource_class == SB_VALIDATE_CLASS_DOMAIN)
            return &device->resources[i];
    return NULL;
}

/* One run of sb_validate with the inputs `options->inputs` and `fit` describe; `device`: the
 * device's results of an earlier run on the same inputs (the evidence run's), or NULL. */
static enum sb_result attempt(struct sb_rt_context *context, const struct sb_rt_program *program,
                              const struct sb_validate_options *options, const struct sb_validate_fit *fit,
                              const struct sb_rt_inputs *device, struct sb_validate_report **out,
                              struct sb_error *error)
{
    struct sb_validate_options o = *options;
    struct sb_validate_report *report = calloc(1, sizeof(*report));
    struct sb_rt_inputs *base = NULL;
    if (!report)
        return sb_validate_fail(error, SB_ERROR_OUT_OF_MEMORY, "out of memory validating");
    report->mismatches = calloc(o.max_mismatches, sizeof(*report->mismatches));
    enum sb_result r = report->mismatches ? SB_SUCCESS
                                          : sb_validate_fail(error, SB_ERROR_OUT_OF_MEMORY, "out of memory validating");
    bool pica_gs = r == SB_SUCCESS && sb_rt_program_pica_gs(program);
    if (pica_gs && o.provided_count) /* it makes its own inputs; none of them is a register's */
        r = sb_validate_fail(error, SB_ERROR_RUN_UNSUPPORTED, "PICA200 geometry programs take no provided inputs");
    else if (pica_gs) /* its own inputs and one compute thread (validate_pica_gs.c) */
        r = sb_rt_pica_gs_validate(context, program, &o, report, error);
    else if (r == SB_SUCCESS)
        r = sb_validate_fit_inputs(program, &o.inputs, fit, &base, error);
    if (r == SB_SUCCESS && !pica_gs)
        r = sb_validate_vertex_inputs_check(program, &o, error);
    if (r == SB_SUCCESS && !pica_gs && o.provided_count) /* after the fit: the caller's bytes win */
        r = sb_rt_inputs_provide(base, o.provided, o.provided_count, error);
    if (r == SB_SUCCESS && !pica_gs)
        r = sb_rt_inputs_clone(base, &report->cpu, error);
    if (r == SB_SUCCESS && !pica_gs)
        r = sb_rt_inputs_clone(base, &report->gpu, error);
    sb_rt_inputs_destroy(base);
    /* The device runs the program translated for it once the views' formats are known
     * (validate_device.c); a caller's module is run as it is. */
    struct sb_translation *fitted = NULL;
    struct sb_rt_program fitted_program;
    if (r == SB_SUCCESS && !pica_gs && context && (o.sides & SB_VALIDATE_SIDE_GPU) && !o.gpu_spirv)
        r = sb_validate_fit_device(context, program, fit->unbounded, report->gpu, &fitted, error);
    if (fitted) {
        fitted_program = *program;
        fitted_program.translation = fitted;
        program = &fitted_program;
    }
    /* Evidence for the verdict: the interpreter-only rerun gather_evidence asks for (PICA
     * programs are compared bit for bit and need none). */
    if (r == SB_SUCCESS && !pica_gs && o.sides == SB_VALIDATE_SIDE_CPU && o.origins && !o.interp.tracking &&
        program->ir->source != SB_IR_SOURCE_PICA) {
        report->tracking.precision = report->tracking.undefined = true;
        report->tracking.origins = o.origins;
        o.interp.tracking = &report->tracking;
    }
    if (r != SB_SUCCESS || pica_gs) {
        /* failed, or done above */
    } else if (program->stage == SB_IR_STAGE_COMPUTE) {
        uint64_t start = sb_validate_now_ns();
        if (o.sides & SB_VALIDATE_SIDE_CPU)
            r = sb_interp_dispatch(program->ir, report->cpu->resources, report->cpu->count,
                                   o.group_count, &o.interp, &report->cpu_stats, error);
        report->cpu_ns = sb_validate_now_ns() - start;
        if (r == SB_SUCCESS && (o.sides & SB_VALIDATE_SIDE_GPU))
            r = sb_rt_dispatch(context, program->translation, report->gpu->resources,
                               report->gpu->count, o.group_count, &report->gpu_timing, error);
    } else {
        r = program->stage == SB_IR_STAGE_VERTEX     ? sb_validate_vertex(context, program, &o, report, error)
            : program->stage == SB_IR_STAGE_GEOMETRY ? sb_validate_geometry(context, program, &o, report, error)
            : program->stage == SB_IR_STAGE_HULL     ? sb_validate_hull(context, program, &o, report, error)
            : program->stage == SB_IR_STAGE_DOMAIN
                ? sb_validate_domain(context, program, &o, domain_records(device), report, error)
                                                     : sb_validate_pixel(context, program, &o, report, error);
    }
    if (r != SB_SUCCESS) {
        sb_translation_destroy(fitted);
        sb_validate_report_destroy(report);
        return r;
    }
    if (o.sides == (SB_VALIDATE_SIDE_GPU | SB_VALIDATE_SIDE_CPU)) {
        report->ulps_override = o.float_ulps != 0;
        bool exact = program->ir->source == SB_IR_SOURCE_PICA;
        compare(report, &o, o.max_mismatches, exact, program->ir);
        if (report->mismatch_count && !exact && !o.interp.tracking && gather_evidence(program, &o, fit, report))
            compare(report, &o, o.max_mismatches, exact, program->ir);
        conclude(report, program);
        if (program->stage == SB_IR_STAGE_PIXEL)
            sb_validate_pixel_explain(program, report);
        sb_validate_helper_load_explain(context, program, report);
        if (fitted)
            sb_validate_waterfall_explain(context, program, report);
    }
    sb_translation_destroy(fitted);
    *out = report;
    return SB_SUCCESS;
}
