/* SPDX-License-Identifier: MIT */
/*
 * Validation of domain programs (validate.h; runtime/README.md "Hull and
 * domain programs"). For each partitioning mode (the DS does not know the
 * hull stage's; every mode gives other domain points) a generated hull
 * program (validate_tessellation_partner.c) passes seeded control points
 * through and copies seeded patch constants and small tess factors (1-4,
 * chosen so the tessellator's clamping and rounding leave them as they are,
 * so the DS reads the same value on both sides) from extra vertex inputs of
 * control point 0. The DS capture copy takes a slot per invocation from an
 * atomic counter and stores the domain location, the patch and every o#;
 * the interpreter runs sb_interp_run_domain at exactly those patches and
 * locations (SB_VALIDATE_CLASS_DOMAIN records). The device's set of points
 * is also matched against the CPU tessellator's for the same factors
 * (reported, not judged: Vulkan places fractional segments its own way).
 * Without the device (run --cpu) the CPU tessellator's points are evaluated;
 * the evidence run evaluates the compared run's device points.
 */
#include "validate_private.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "translator/ir.h"

enum {
    CAPTURE_UAV = 63,
    COUNTER_UAV = 62,
    DOMAIN_PATCHES = 8,
    MAX_CAPTURE_BYTES = 32 << 20,
    /* Records per patch a domain capture has room for: the most points factors of at most 4
     * give is 36 (a quad of fractional_odd 5 x 5 segments); the rest is margin for a device
     * that evaluates a point more than once. */
    DOMAIN_SLOTS_PER_PATCH = 128,
};

/* The tess factors each domain needs (§8.1 system values), edges then inside. */
static const struct {
    uint32_t domain;
    uint32_t edges, insides;
    uint32_t system_value[6];
} domain_factors[] = {
    { 1, 2, 0, { 22, 21 } },                 /* isoline: density, detail */
    { 2, 3, 1, { 17, 18, 19, 20 } },         /* tri */
    { 3, 4, 2, { 11, 12, 13, 14, 15, 16 } }, /* quad */
};

/* Factor values each partitioning (§8.6) keeps as they are after D3D's and Vulkan's clamping
 * and rounding, so a DS reading them sees the same value on both sides. */
static const struct {
    uint32_t partitioning;
    uint32_t count;
    float values[5];
} factor_values[] = {
    { 1, 4, { 1.0f, 2.0f, 3.0f, 4.0f } },          /* integer */
    { 2, 3, { 1.0f, 2.0f, 4.0f } },                /* pow2 */
    { 3, 5, { 1.0f, 1.5f, 2.25f, 3.0f, 3.75f } },  /* fractional_odd */
    { 4, 4, { 2.0f, 2.5f, 3.25f, 4.0f } },         /* fractional_even */
};

/* One patch-constant register the generated HS fills: its lanes, and which of them are tess
 * factors (index into the domain's system_value list + 1, 0 = a seeded word). */
struct patch_register {
    uint32_t reg;
    uint8_t mask;
    uint8_t kind[4];   /* word kind per lane */
    uint8_t factor[4];
};

struct domain_plan {
    uint32_t patches;                  /* per partitioning */
    uint32_t icp, cp_registers, pc_registers, out_registers;
    uint32_t edges, insides;
    const uint32_t *factor_sv;         /* the domain's factor system values */
    struct patch_register regs[32];
    uint32_t reg_count;
    struct sb_ir_signature_element added[6]; /* factor elements the DS lacks */
    uint32_t added_count;
    uint32_t source_base;              /* first HS input register carrying patch data */
};

static int find_register(struct domain_plan *l, uint32_t reg)
{
    for (uint32_t i = 0; i < l->reg_count; i++)
        if (l->regs[i].reg == reg)
            return (int)i;
    if (l->reg_count == 32)
        return -1;
    l->regs[l->reg_count] = (struct patch_register){ .reg = reg };
    return (int)l->reg_count++;
}

static enum sb_result domain_plan(const struct sb_ir_program *ds, const struct sb_validate_options *o,
                                  const struct sb_rt_gs_feed *feeds, uint32_t feed_count, struct domain_plan *l,
                                  struct sb_error *error)
{
    memset(l, 0, sizeof(*l));
    for (size_t i = 0; i < sizeof(domain_factors) / sizeof(domain_factors[0]); i++)
        if (domain_factors[i].domain == ds->tess_domain) {
            l->edges = domain_factors[i].edges;
            l->insides = domain_factors[i].insides;
            l->factor_sv = domain_factors[i].system_value;
        }
    l->icp = ds->input_control_points;
    if (!l->factor_sv || !l->icp || l->icp > 32)
        return sb_validate_fail(error, SB_ERROR_RUN_UNSUPPORTED, "domain validation needs an isoline, tri or quad "
                                "domain and 1 to 32 control points");
    bool found[6] = { false };
    uint32_t next_reg = 0;
    for (uint32_t i = 0; i < ds->signature_count; i++) {
        const struct sb_ir_signature_element *e = &ds->signature[i];
        if (e->kind != SB_IR_SIGNATURE_PATCH || e->register_index >= 32)
            continue;
        if (e->register_index + 1 > next_reg)
            next_reg = e->register_index + 1;
        int k = find_register(l, e->register_index);
        uint8_t lanes = (uint8_t)((e->signature_mask ? e->signature_mask : e->mask) & 0xF);
        if (k < 0 || !lanes)
            continue;
        struct patch_register *pr = &l->regs[k];
        pr->mask |= lanes;
        for (uint32_t c = 0; c < 4; c++)
            if (lanes >> c & 1)
                pr->kind[c] = (uint8_t)sb_rt_word_kind_of_type(e->component_type);
        for (uint32_t f = 0; f < l->edges + l->insides; f++)
            if (e->system_value == l->factor_sv[f]) {
                for (uint32_t c = 0; c < 4; c++)
                    if (lanes >> c & 1) {
                        pr->factor[c] = (uint8_t)(f + 1);
                        break; /* a factor is the element's first lane */
                    }
                found[f] = true;
            }
    }
    l->pc_registers = next_reg;
    for (uint32_t f = 0; f < l->edges + l->insides; f++) {
        if (found[f])
            continue;
        if (next_reg >= 32)
            return sb_validate_fail(error, SB_ERROR_RUN_UNSUPPORTED, "no register left for a missing tess factor");
        l->added[l->added_count++] = (struct sb_ir_signature_element){
            .kind = SB_IR_SIGNATURE_PATCH, .semantic = f < l->edges ? "SV_TessFactor" : "SV_InsideTessFactor",
            .semantic_index = f < l->edges ? f : f - l->edges, .system_value = l->factor_sv[f],
            .register_index = next_reg, .file = SB_IR_FILE_OUTPUT, .mask = 1, .used_mask = 1, .signature_mask = 1,
            .component_type = SB_IR_TYPE_FLOAT,
        };
        int k = find_register(l, next_reg++);
        if (k < 0)
            return sb_validate_fail(error, SB_ERROR_RUN_UNSUPPORTED, "too many patch-constant registers");
        l->regs[k].mask = 1;
        l->regs[k].kind[0] = SB_RT_WORD_FLOAT;
        l->regs[k].factor[0] = (uint8_t)(f + 1);
    }
    /* Patch data rides on HS input registers above every control-point register and feed. */
    l->cp_registers = sb_rt_tess_element_registers(ds, SB_IR_SIGNATURE_INPUT, SB_IR_FILE_INPUT);
    l->source_base = l->cp_registers;
    uint32_t locations = 0;
    for (uint32_t i = 0; i < feed_count; i++) {
        if (feeds[i].reg + 1 > l->source_base)
            l->source_base = feeds[i].reg + 1;
        if (feeds[i].location + 1 > locations)
            locations = feeds[i].location + 1;
    }
    if (l->source_base + l->reg_count > 32 || locations + l->reg_count > 32 ||
        feed_count + l->reg_count > SB_RT_GS_MAX_FEEDS)
        return sb_validate_fail(error, SB_ERROR_RUN_UNSUPPORTED, "the control points and patch constants of this "
                                "domain shader need more than 32 vertex inputs to feed");
    l->out_registers = sb_rt_geometry_output_registers(ds);
    l->patches = o->draw_count ? o->draw_count : DOMAIN_PATCHES * o->group_count[0];
    size_t per_patch = (size_t)DOMAIN_SLOTS_PER_PATCH * (1 + l->out_registers) * 16;
    while (l->patches > 1 && (size_t)l->patches * per_patch > MAX_CAPTURE_BYTES)
        l->patches /= 2;
    return SB_SUCCESS;
}

/* What one partitioning's draw and the CPU share. */
struct domain_run {
    struct sb_rt_gs_feed feeds[SB_RT_GS_MAX_FEEDS];
    struct sb_rt_vertex_stream streams[SB_RT_GS_MAX_FEEDS];
    uint32_t feed_count, cp_feed_count;
    struct sb_interp_registers cp, pc;     /* the interpreter's control points and patch constants */
    struct sb_interp_tess_input *tess;     /* per patch: the factors */
    /* Records of every partitioning, device and interpreter, and their kinds. */
    uint32_t *gpu_words, *cpu_words;
    uint8_t *kinds;
    /* Tracked runs: the interpreter's evidence per record word (zero / UINT32_MAX: none). */
    float *bound;
    uint32_t *origin;
    uint8_t *undefined;
    size_t record_count, record_capacity;
};

/* The seeded patch-constant words of patch `p` (stream data of the patch feeds at its control
 * point 0), tess factors from `values`. */
static void seed_patch_constants(const struct domain_plan *l, struct domain_run *d,
                                 const struct sb_rt_input_options *in, uint32_t p, uint32_t first_patch,
                                 const float *values, uint32_t value_count)
{
    uint32_t vertex = p * l->icp;
    struct sb_interp_tess_input *t = &d->tess[first_patch + p];
    for (uint32_t i = 0; i < l->reg_count; i++) {
        const struct patch_register *pr = &l->regs[i];
        uint32_t *data = (uint32_t *)d->streams[d->cp_feed_count + i].data + (size_t)vertex * 4;
        for (uint32_t c = 0; c < 4; c++) {
            uint64_t random = sb_rt_mix64(in->seed ^ sb_rt_mix64(((uint64_t)(first_patch + p) << 20) |
                                                                ((uint64_t)pr->reg << 4) | c | (1ull << 60)));
            uint32_t word = sb_rt_seeded_word_as(in->flags, pr->kind[c] ? pr->kind[c] : SB_RT_WORD_UINT, random, false);
            if (pr->factor[c]) {
                uint32_t f = pr->factor[c] - 1;
                float value = values[(random >> 32) % value_count];
                if (f < l->edges && l->factor_sv[f] == 22)
                    value = (float)(1 + (random >> 40) % 4); /* isoline density: integers on both sides */
                memcpy(&word, &value, 4);
                if (f < l->edges)
                    t->edge[f] = value;
                else
                    t->inside[f - l->edges] = value;
            }
            data[c] = word;
            if (pr->mask >> c & 1 && pr->reg < l->pc_registers)
                d->pc.words[((size_t)(first_patch + p) * d->pc.registers + pr->reg) * 4 + c] = word;
        }
    }
}

static bool grow_records(struct domain_run *d, size_t more, size_t record_words)
{
    if (d->record_count + more <= d->record_capacity)
        return true;
    size_t cap = d->record_capacity ? d->record_capacity : 256;
    while (cap < d->record_count + more)
        cap *= 2;
    uint32_t *g = realloc(d->gpu_words, cap * record_words * 4);
    if (g)
        d->gpu_words = g;
    uint32_t *c = realloc(d->cpu_words, cap * record_words * 4);
    if (c)
        d->cpu_words = c;
    uint8_t *k = realloc(d->kinds, cap * record_words);
    if (k)
        d->kinds = k;
    float *b = realloc(d->bound, cap * record_words * sizeof(float));
    if (b)
        d->bound = b;
    uint32_t *o = realloc(d->origin, cap * record_words * sizeof(uint32_t));
    if (o)
        d->origin = o;
    uint8_t *u = realloc(d->undefined, cap * record_words);
    if (u)
        d->undefined = u;
    if (!g || !c || !k || !b || !o || !u)
        return false;
    size_t from = d->record_capacity * record_words, added = (cap - d->record_capacity) * record_words;
    memset(d->bound + from, 0, added * sizeof(float));
    memset(d->origin + from, 0xFF, added * sizeof(uint32_t));
    memset(d->undefined + from, 0, added);
    d->record_capacity = cap;
    return true;
}

/* Whether (u, v, w) is among `points` (`components` floats each) within 2^-12 in each coordinate.
 * The CPU tessellator places points in 16.16 as D3D's reference does (lavapipe's equal it bit for
 * bit); the tolerance is for devices whose tessellators are not D3D's (Vulkan leaves placement to
 * the implementation). */
static bool has_point(const float *points, uint32_t count, uint32_t components, const float *where)
{
    for (uint32_t i = 0; i < count; i++) {
        bool same = true;
        for (uint32_t c = 0; c < components && same; c++)
            same = fabsf(points[i * components + c] - where[c]) <= 0x1p-12f;
        if (same)
            return true;
    }
    return false;
}

/* Counts the device's distinct points of the records [first, first + count) against the CPU
 * tessellator's points of the same patches. */
static void match_points(const struct domain_plan *l, struct domain_run *d, size_t first, size_t count,
                         uint32_t first_patch, size_t record_words, struct sb_validate_report *report)
{
    for (uint32_t p = 0; p < l->patches; p++) {
        struct sb_interp_tess_output out = { 0 };
        struct sb_error ignored = { 0 };
        if (sb_interp_tessellate_patch(&d->tess[first_patch + p], &out, &ignored) != SB_SUCCESS) {
            sb_interp_tess_release(&out);
            continue;
        }
        report->domain_points_cpu += out.point_count;
        float *seen = malloc((count ? count : 1) * 3 * sizeof(float));
        uint32_t seen_count = 0;
        for (size_t k = 0; seen && k < count; k++) {
            const uint32_t *w = d->gpu_words + (first + k) * record_words;
            if (w[3] != first_patch + p)
                continue;
            float where[3];
            memcpy(where, w, sizeof(where));
            if (has_point(seen, seen_count, 3, where))
                continue;
            memcpy(seen + (size_t)seen_count * 3, where, sizeof(where));
            seen_count++;
            report->domain_points_gpu++;
            if (out.points && has_point(out.points, out.point_count, out.components, where))
                report->domain_points_matched++;
        }
        free(seen);
        sb_interp_tess_release(&out);
    }
}

/* The interpreter at the records [first, first + count): their patches and locations. */
static enum sb_result domain_cpu(const struct sb_rt_program *program, const struct sb_validate_options *o,
                                 const struct domain_plan *l, struct domain_run *d, size_t first, size_t count,
                                 uint32_t first_patch, size_t record_words, struct sb_validate_report *report,
                                 struct sb_error *error)
{
    uint32_t *patch_of = malloc((count ? count : 1) * 4);
    float *where = malloc((count ? count : 1) * 12);
    size_t out_words = (count ? count : 1) * (l->out_registers ? l->out_registers : 1) * 4;
    struct sb_interp_registers out = { .registers = l->out_registers, .words = calloc(out_words, 4) };
    enum sb_result r = SB_SUCCESS;
    if (!patch_of || !where || !out.words)
        r = sb_validate_fail(error, SB_ERROR_OUT_OF_MEMORY, "out of memory");
    for (size_t k = 0; r == SB_SUCCESS && k < count; k++) {
        const uint32_t *g = d->gpu_words + (first + k) * record_words;
        uint32_t *c = d->cpu_words + (first + k) * record_words;
        memcpy(c, g, 16); /* the same patch and location, by construction */
        /* The interpreter runs this mode's patches alone, so its vPrim is the draw's too. */
        bool known = g[3] - first_patch < l->patches;
        patch_of[k] = known ? g[3] - first_patch : 0;
        memcpy(where + k * 3, g, 12);
        if (!known)
            c[3] = UINT32_MAX; /* a patch the draw never had: shows as a difference */
    }
    if (r == SB_SUCCESS && count) {
        uint64_t start = sb_validate_now_ns();
        struct sb_interp_registers cp = { .registers = d->cp.registers,
                                          .words = d->cp.words + (size_t)first_patch * l->icp * d->cp.registers * 4 };
        struct sb_interp_registers pc = { .registers = d->pc.registers,
                                          .words = d->pc.words + (size_t)first_patch * d->pc.registers * 4 };
        r = sb_interp_run_domain(program->ir, report->cpu->resources, report->cpu->count, (uint32_t)count, patch_of,
                                 where, l->patches, &cp, &pc, &out, &o->interp, &report->cpu_stats, error);
        report->cpu_ns += sb_validate_now_ns() - start;
    }
    struct sb_interp_tracking *t = o->interp.tracking;
    for (size_t k = 0; r == SB_SUCCESS && k < count; k++) {
        size_t to = (first + k) * record_words + 4, from = k * l->out_registers * 4, n = (size_t)l->out_registers * 4;
        memcpy(d->cpu_words + to, out.words + from, n * 4);
        if (t && t->output_bound) {
            memcpy(d->bound + to, t->output_bound + from, n * sizeof(float));
            memcpy(d->origin + to, t->output_origin + from, n * sizeof(uint32_t));
        }
        if (t && t->output_undefined)
            memcpy(d->undefined + to, t->output_undefined + from, n);
    }
    if (t) { /* each mode's run sizes the output evidence anew (the interpreter keeps a first one) */
        free(t->output_bound);
        free(t->output_origin);
        free(t->output_undefined);
        t->output_bound = NULL;
        t->output_origin = NULL;
        t->output_undefined = NULL;
    }
    free(patch_of);
    free(where);
    free(out.words);
    return r;
}

/* Fills `count` records from `first` with the CPU tessellator's points of patches
 * [first_patch, first_patch + patches): what a CPU-only run evaluates. */
static bool cpu_points(const struct domain_plan *l, struct domain_run *d, uint32_t first_patch, size_t record_words,
                       size_t *added)
{
    *added = 0;
    for (uint32_t p = 0; p < l->patches; p++) {
        struct sb_interp_tess_output out = { 0 };
        struct sb_error ignored = { 0 };
        if (sb_interp_tessellate_patch(&d->tess[first_patch + p], &out, &ignored) != SB_SUCCESS) {
            sb_interp_tess_release(&out);
            return false;
        }
        if (!grow_records(d, out.point_count, record_words)) {
            sb_interp_tess_release(&out);
            return false;
        }
        for (uint32_t i = 0; i < out.point_count; i++) {
            uint32_t *w = d->gpu_words + d->record_count * record_words;
            memset(w, 0, record_words * 4);
            float uvw[3] = { out.points[i * out.components], out.points[i * out.components + 1],
                             out.components == 3 ? out.points[i * out.components + 2] : 0.0f };
            memcpy(w, uvw, 12);
            w[3] = first_patch + p;
            d->record_count++;
            (*added)++;
        }
        sb_interp_tess_release(&out);
    }
    return true;
}

static void domain_kinds(const struct sb_ir_program *ds, const struct domain_plan *l, uint8_t *kinds, size_t count)
{
    size_t record_words = (size_t)(1 + l->out_registers) * 4;
    for (size_t k = 0; k < count; k++) {
        uint8_t *w = kinds + k * record_words;
        w[0] = w[1] = w[2] = SB_RT_WORD_FLOAT;
        w[3] = SB_RT_WORD_UINT;
        sb_rt_tess_register_kinds(ds, SB_IR_SIGNATURE_OUTPUT, SB_IR_FILE_OUTPUT, l->out_registers, w + 4);
    }
}

/* One partitioning mode: its generated HS, the draw, and the CPU at the device's points. */
static enum sb_result domain_mode(struct sb_rt_context *context, const struct sb_rt_program *program,
                                  const struct sb_validate_options *o, const struct domain_plan *l,
                                  struct domain_run *d, uint32_t mode, struct sb_translation *feeder,
                                  struct sb_translation *capture, const struct sb_rt_resource *device_points,
                                  struct sb_validate_report *report, struct sb_error *error)
{
    uint32_t first_patch = mode * l->patches;
    size_t record_words = (size_t)(1 + l->out_registers) * 4;
    for (uint32_t p = 0; p < l->patches; p++)
        seed_patch_constants(l, d, &o->inputs, p, first_patch, factor_values[mode].values, factor_values[mode].count);
    size_t first = d->record_count, count = 0;
    enum sb_result r = SB_SUCCESS;
    if (o->sides & SB_VALIDATE_SIDE_GPU) {
        struct sb_rt_tess_patch_feed pf[32];
        for (uint32_t i = 0; i < l->reg_count; i++)
            pf[i] = (struct sb_rt_tess_patch_feed){ .reg = l->regs[i].reg, .source = l->source_base + i,
                                                    .mask = l->regs[i].mask };
        struct sb_translation *hull = NULL;
        struct sb_ir_program *feeder_hull = sb_rt_domain_feeder_hull(program->ir, pf, l->reg_count, l->added,
                                                                     l->added_count, factor_values[mode].partitioning);
        r = sb_rt_tess_translate(feeder_hull, sb_rt_tess_program_destroy, &hull, "out of memory building the hull "
                                 "stage", error);
        size_t capacity = (size_t)l->patches * DOMAIN_SLOTS_PER_PATCH;
        uint32_t counter[4] = { 0 };
        if (r == SB_SUCCESS && !grow_records(d, capacity, record_words))
            r = sb_validate_fail(error, SB_ERROR_OUT_OF_MEMORY, "out of memory");
        struct sb_rt_resource extra[2] = {
            { .resource_class = SB_IR_RESOURCE_UAV, .register_index = CAPTURE_UAV, .size = capacity * record_words * 4,
              .data = r == SB_SUCCESS ? d->gpu_words + first * record_words : NULL },
            { .resource_class = SB_IR_RESOURCE_UAV, .register_index = COUNTER_UAV, .size = sizeof(counter),
              .data = counter },
        };
        if (r == SB_SUCCESS) {
            memset(extra[0].data, 0, extra[0].size);
            r = sb_rt_tess_draw(context, report, feeder, hull, capture, l->patches * l->icp, d->streams,
                                d->feed_count, extra, 2, error);
        }
        sb_translation_destroy(hull);
        if (r == SB_SUCCESS && counter[0] > capacity)
            r = sb_validate_fail(error, SB_ERROR_RUN_UNSUPPORTED, "the device evaluated more domain points than the "
                                 "capture has room for");
        count = counter[0];
        /* vPrim counts the patches of this draw; the records name them across the modes. */
        for (size_t k = 0; r == SB_SUCCESS && k < count; k++)
            d->gpu_words[(first + k) * record_words + 3] += first_patch;
        if (r == SB_SUCCESS)
            match_points(l, d, first, count, first_patch, record_words, report);
    } else if (device_points) {
        /* The evidence run: the device's records of this mode, as the compared run had them. */
        size_t total = device_points->size / 4 / record_words;
        const uint32_t *from = device_points->data;
        if (!grow_records(d, total, record_words))
            r = sb_validate_fail(error, SB_ERROR_OUT_OF_MEMORY, "out of memory");
        for (size_t k = 0; r == SB_SUCCESS && k < total; k++) {
            const uint32_t *w = from + k * record_words;
            if (w[3] - first_patch >= l->patches)
                continue;
            memset(d->gpu_words + (first + count) * record_words, 0, record_words * 4);
            memcpy(d->gpu_words + (first + count) * record_words, w, 16);
            count++;
        }
    } else if (!cpu_points(l, d, first_patch, record_words, &count)) {
        r = sb_validate_fail(error, SB_ERROR_OUT_OF_MEMORY, "out of memory tessellating");
    }
    if (r == SB_SUCCESS) {
        d->record_count = first + count;
        memset(d->cpu_words + first * record_words, 0, count * record_words * 4);
        if (o->sides & SB_VALIDATE_SIDE_CPU)
            r = domain_cpu(program, o, l, d, first, count, first_patch, record_words, report, error);
    }
    return r;
}

static void domain_release(struct domain_run *d)
{
    for (uint32_t i = 0; i < d->feed_count; i++)
        free((void *)d->streams[i].data);
    free(d->cp.words);
    free(d->pc.words);
    free(d->tess);
    free(d->gpu_words);
    free(d->cpu_words);
    free(d->kinds);
    free(d->bound);
    free(d->origin);
    free(d->undefined);
    free(d);
}

/* The control-point feeds (seeded, into d->cp) and one zeroed UINT stream per patch register. */
static bool domain_streams(const struct sb_rt_program *program, const struct domain_plan *l, struct domain_run *d,
                           const struct sb_validate_options *o)
{
    uint32_t vertices = l->patches * l->icp, patch_total = l->patches * 4;
    d->cp.registers = sb_rt_geometry_input_registers(program->ir, d->feeds, d->cp_feed_count);
    d->cp.words = calloc((size_t)patch_total * l->icp * d->cp.registers * 4, 4);
    d->pc.registers = l->pc_registers ? l->pc_registers : 1;
    d->pc.words = calloc((size_t)patch_total * d->pc.registers * 4, 4);
    d->tess = calloc(patch_total, sizeof(*d->tess));
    if (!d->cp.words || !d->pc.words || !d->tess)
        return false;
    /* Control points: the same streams for every mode; the CPU's copies of them per mode. */
    struct sb_interp_registers first = { .registers = d->cp.registers, .words = d->cp.words };
    if (!sb_rt_geometry_make_streams(d->feeds, d->cp_feed_count, vertices, &o->inputs, d->streams, &first))
        return false;
    size_t mode_words = (size_t)vertices * d->cp.registers * 4;
    for (uint32_t m = 1; m < 4; m++)
        memcpy(d->cp.words + m * mode_words, d->cp.words, mode_words * 4);
    uint32_t location = 0;
    for (uint32_t i = 0; i < d->cp_feed_count; i++)
        if (d->feeds[i].location + 1 > location)
            location = d->feeds[i].location + 1;
    for (uint32_t i = 0; i < l->reg_count; i++) {
        uint32_t k = d->cp_feed_count + i;
        d->feeds[k] = (struct sb_rt_gs_feed){ .location = location + i, .reg = l->source_base + i, .mask = 0xF,
                                              .type = SB_IR_TYPE_UINT, .semantic = "PATCHDATA", .semantic_index = i };
        void *data = calloc((size_t)vertices * 4, 4);
        if (!data)
            return false;
        d->streams[k] = (struct sb_rt_vertex_stream){ .location = location + i,
                                                      .format = SB_RT_FORMAT_R32G32B32A32_UINT, .data = data };
        d->feed_count = k + 1;
    }
    for (uint32_t p = 0; p < patch_total; p++) {
        uint32_t partitioning = factor_values[p / l->patches].partitioning;
        d->tess[p] = (struct sb_interp_tess_input){
            .domain = (enum sb_interp_tess_domain)program->ir->tess_domain,
            .partitioning = (enum sb_interp_tess_partitioning)partitioning,
            .output_primitive = SB_INTERP_TESS_POINT,
            .max_factor = 64.0f,
        };
    }
    return true;
}

enum sb_result sb_validate_domain(struct sb_rt_context *context, const struct sb_rt_program *program,
                                  const struct sb_validate_options *o, const struct sb_rt_resource *device_points,
                                  struct sb_validate_report *report, struct sb_error *error)
{
    struct domain_run *d = calloc(1, sizeof(*d));
    struct domain_plan *l = calloc(1, sizeof(*l));
    enum sb_result r = d && l ? SB_SUCCESS : sb_validate_fail(error, SB_ERROR_OUT_OF_MEMORY, "out of memory");
    if (r == SB_SUCCESS) {
        sb_validate_fit_input_arrays(program->ir, o, report); /* relative vicp[][] indices inside */
        d->cp_feed_count = sb_rt_geometry_collect_feeds(program->translation, program->ir, d->feeds);
        sb_rt_tess_complete_feeds(program->ir, d->feeds, &d->cp_feed_count);
        d->feed_count = d->cp_feed_count;
        r = domain_plan(program->ir, o, d->feeds, d->cp_feed_count, l, error);
    }
    if (r == SB_SUCCESS && !domain_streams(program, l, d, o))
        r = sb_validate_fail(error, SB_ERROR_OUT_OF_MEMORY, "out of memory making domain inputs");
    struct sb_translation *feeder = NULL, *capture = NULL;
    size_t record_words = l ? (size_t)(1 + l->out_registers) * 4 : 4;
    if (r == SB_SUCCESS && (o->sides & SB_VALIDATE_SIDE_GPU)) {
        r = sb_rt_tess_translate(sb_rt_geometry_feeder_program(d->feeds, d->feed_count), sb_rt_partner_destroy,
                                 &feeder, "out of memory building the feeder", error);
        struct sb_ir_program *copy = NULL;
        if (r == SB_SUCCESS)
            copy = sb_rt_domain_capture_program(program->ir, CAPTURE_UAV, COUNTER_UAV, l->out_registers,
                                                l->patches * DOMAIN_SLOTS_PER_PATCH);
        if (r == SB_SUCCESS)
            r = sb_rt_tess_translate(copy, sb_rt_tess_program_destroy, &capture, "cannot build the capture copy of "
                                     "the domain shader (it declares u62 or u63 itself, or memory ran out)", error);
    }
    for (uint32_t mode = 0; r == SB_SUCCESS && mode < 4; mode++)
        r = domain_mode(context, program, o, l, d, mode, feeder, capture, device_points, report, error);
    sb_translation_destroy(feeder);
    sb_translation_destroy(capture);
    if (r == SB_SUCCESS && !grow_records(d, 1, record_words))
        r = sb_validate_fail(error, SB_ERROR_OUT_OF_MEMORY, "out of memory");
    if (r == SB_SUCCESS) {
        domain_kinds(program->ir, l, d->kinds, d->record_count);
        size_t bytes = d->record_count * record_words * 4;
        sb_rt_tess_clear_ignored(d->gpu_words, d->cpu_words, d->kinds, bytes / 4);
        uint32_t width = (uint32_t)(record_words / 4);
        uint32_t klass = SB_VALIDATE_CLASS_DOMAIN;
        if (!sb_rt_tess_add_records(report->gpu, klass, bytes, d->gpu_words, d->kinds, width, 0, 0) ||
            !sb_rt_tess_add_records(report->cpu, klass, bytes, d->cpu_words, d->kinds, width, 0, 0) ||
            !sb_rt_tess_track_records(report, bytes / 4, d->bound, d->origin, d->undefined))
            r = sb_validate_fail(error, SB_ERROR_OUT_OF_MEMORY, "out of memory");
    }
    if (d)
        domain_release(d);
    free(l);
    return r;
}
