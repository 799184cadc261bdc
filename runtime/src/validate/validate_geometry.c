/* SPDX-License-Identifier: MIT */
/*
 * Validation of geometry programs (validate.h). Real primitives of the
 * program's input type (points, lines, triangles, with adjacency) are drawn
 * from a generated feeder VS whose seeded vertex streams land in exactly the
 * registers and components the geometry module reads (SV_Position and
 * clip/cull distances included); the program itself runs as its capture copy
 * (validate_geometry_partner.c) under rasterizer discard, storing every
 * emitted vertex, its stream and the cuts into a UAV. The interpreter runs
 * the original program over the same vertex records
 * (sb_interp_run_geometry), and its results are laid out as the same
 * records, so the two compare word by word:
 *   header (stream + 1 or 0 for no vertex, cut mask before the slot): exact;
 *   o# words of each emitted vertex: by the kind of the output element of the
 *   vertex's stream (float within tolerance, integers exact); components no
 *   element of that stream declares, and slots past the interpreter's vertex
 *   count, are not compared (a vertex the GPU emitted there already differs
 *   in its header).
 * An output the program does not rewrite between two emits keeps its earlier
 * value on both sides (the back end's o# array and the interpreter's lanes
 * persist), which is compared like any other: D3D calls such a value
 * undefined, so a difference there would still be our own.
 */
#include "validate_private.h"

#include <stdlib.h>
#include <string.h>
#include "translator/ir.h"

enum { CAPTURE_UAV = 63, PRIMITIVES = 16, MAX_CAPTURE_BYTES = 32 << 20 };

/* §8.8 input primitive -> the list topology that feeds it. */
static const struct {
    uint32_t primitive;
    uint32_t topology;
} topologies[] = {
    { 1, SB_RT_TOPOLOGY_POINT_LIST },
    { 2, SB_RT_TOPOLOGY_LINE_LIST },
    { 3, SB_RT_TOPOLOGY_TRIANGLE_LIST },
    { 6, SB_RT_TOPOLOGY_LINE_LIST_WITH_ADJACENCY },
    { 7, SB_RT_TOPOLOGY_TRIANGLE_LIST_WITH_ADJACENCY },
};

static uint32_t rgba_format(uint32_t type)
{
    return type == SB_IR_TYPE_UINT ? SB_RT_FORMAT_R32G32B32A32_UINT
           : type == SB_IR_TYPE_INT ? SB_RT_FORMAT_R32G32B32A32_SINT : SB_RT_FORMAT_R32G32B32A32_FLOAT;
}

/* The feeds: one per location the module reads per vertex (its interface report, masks merged),
 * then one per SV_Position / clip / cull input element at the next free locations. */
uint32_t sb_rt_geometry_collect_feeds(const struct sb_translation *t, const struct sb_ir_program *gs,
                                      struct sb_rt_gs_feed *feeds)
{
    uint32_t n = 0, next = 0;
    for (uint32_t i = 0; i < t->input_count; i++) {
        const struct sb_translated_interface *f = &t->inputs[i];
        if (!f->array_size || f->patch || f->location >= 32 || !f->component_count)
            continue;
        uint8_t mask = (uint8_t)(((1u << f->component_count) - 1u) << f->component);
        uint32_t k = 0;
        while (k < n && feeds[k].location != f->location)
            k++;
        if (k == n) {
            if (n == SB_RT_GS_MAX_FEEDS)
                continue;
            feeds[n++] = (struct sb_rt_gs_feed){ .location = f->location, .reg = f->location, .type = f->component_type,
                                                 .semantic = f->semantic, .semantic_index = f->semantic_index };
        }
        feeds[k].mask |= mask;
        if (f->location + 1 > next)
            next = f->location + 1;
    }
    for (uint32_t i = 0; i < gs->signature_count && n < SB_RT_GS_MAX_FEEDS; i++) {
        const struct sb_ir_signature_element *e = &gs->signature[i];
        if (e->kind != SB_IR_SIGNATURE_INPUT || e->file != SB_IR_FILE_INPUT || e->system_value < 1 ||
            e->system_value > 3 || e->register_index >= 256 || !(e->mask & 0xF))
            continue;
        feeds[n++] = (struct sb_rt_gs_feed){ .location = next++, .reg = e->register_index, .mask = e->mask & 0xF,
                                             .type = SB_IR_TYPE_FLOAT, .system_value = e->system_value,
                                             .semantic = e->semantic, .semantic_index = e->semantic_index };
    }
    return n;
}

/* Seeded streams of the feeds for `vertices` vertices, and the same words in the CPU records. */
bool sb_rt_geometry_make_streams(const struct sb_rt_gs_feed *feeds, uint32_t n, uint32_t vertices,
                                 const struct sb_rt_input_options *seeding,
                                 struct sb_rt_vertex_stream *streams, struct sb_interp_registers *cpu)
{
    for (uint32_t i = 0; i < n; i++) {
        uint32_t *data = malloc((size_t)vertices * 16);
        if (!data)
            return false;
        streams[i] = (struct sb_rt_vertex_stream){ .location = feeds[i].location,
                                                   .format = rgba_format(feeds[i].type), .data = data };
        for (uint32_t v = 0; v < vertices; v++)
            for (uint32_t c = 0; c < 4; c++) {
                uint64_t random = sb_rt_mix64(seeding->seed ^ sb_rt_mix64(((uint64_t)feeds[i].location << 40) |
                                                                          ((uint64_t)v << 2) | c));
                uint32_t word = sb_rt_seeded_word_as(seeding->flags, (uint8_t)sb_rt_word_kind_of_type(feeds[i].type),
                                                     random, false);
                data[v * 4 + c] = word;
                if (feeds[i].mask & (1u << c))
                    cpu->words[((size_t)v * cpu->registers + feeds[i].reg) * 4 + c] = word;
            }
    }
    return true;
}

/* Shape of the record resource: (1 + registers) vectors a record, max + 1 records an invocation. */
struct layout {
    uint32_t vertices;      /* per input primitive */
    uint32_t topology;
    uint32_t instances, max, registers, primitives, invocations;
    size_t record_words, bytes;
};

static enum sb_result plan(const struct sb_ir_program *gs, uint32_t groups, uint32_t primitives, struct layout *l,
                           struct sb_error *error)
{
    memset(l, 0, sizeof(*l));
    for (size_t i = 0; i < sizeof(topologies) / sizeof(topologies[0]); i++)
        if (topologies[i].primitive == gs->gs_input_primitive) {
            l->topology = topologies[i].topology;
            l->vertices = sb_interp_geometry_input_vertices(gs->gs_input_primitive);
        }
    if (!l->vertices)
        return sb_validate_fail(error, SB_ERROR_RUN_UNSUPPORTED, "geometry validation draws point, line and "
                                "triangle lists (with adjacency); this input primitive is none of them");
    l->instances = gs->gs_instance_count ? gs->gs_instance_count : 1;
    l->max = gs->gs_max_output_vertices;
    l->registers = sb_rt_geometry_output_registers(gs);
    l->record_words = (size_t)(1 + l->registers) * 4;
    size_t per_primitive = (size_t)l->instances * (l->max + 1) * l->record_words * 4;
    l->primitives = primitives ? primitives : PRIMITIVES * (groups ? groups : 1);
    while (l->primitives > 1 && (size_t)l->primitives * per_primitive > MAX_CAPTURE_BYTES)
        l->primitives /= 2;
    if ((size_t)l->primitives * per_primitive > MAX_CAPTURE_BYTES || l->instances > 32)
        return sb_validate_fail(error, SB_ERROR_RUN_UNSUPPORTED, "geometry output records too large to capture");
    l->invocations = l->primitives * l->instances;
    l->bytes = (size_t)l->primitives * per_primitive;
    return SB_SUCCESS;
}

/* Per (stream, register): the union of the output masks and the component type. */
struct stream_map {
    uint8_t mask[4][256];
    uint8_t type[4][256];
};

static void map_outputs(const struct sb_ir_program *gs, struct stream_map *m)
{
    memset(m, 0, sizeof(*m));
    for (uint32_t i = 0; i < gs->signature_count; i++) {
        const struct sb_ir_signature_element *e = &gs->signature[i];
        if (e->kind != SB_IR_SIGNATURE_OUTPUT || e->file != SB_IR_FILE_OUTPUT || e->register_index >= 256 ||
            e->stream > 3)
            continue;
        m->mask[e->stream][e->register_index] |= e->mask;
        m->type[e->stream][e->register_index] = (uint8_t)e->component_type;
    }
}

/* The interpreter's results as capture records, and the kind of every word of them. */
/* Word kinds of capture records from their headers (stream + 1 of each kept vertex): the
 * declared output lanes of that stream by type, the rest ignored. */
static void record_kinds(const struct layout *l, const uint32_t *words, const struct stream_map *map,
                         uint8_t *kinds)
{
    size_t records = (size_t)l->invocations * (l->max + 1);
    for (size_t at = 0; at < records * l->record_words; at += l->record_words) {
        uint8_t *kind = kinds + at;
        uint32_t header = words[at];
        bool vertex = header >= 1 && header <= 4;
        uint32_t stream = vertex ? header - 1 : 0;
        kind[0] = kind[1] = SB_RT_WORD_UINT;
        kind[2] = kind[3] = SB_RT_WORD_IGNORED;
        for (uint32_t r = 0; r < l->registers; r++)
            for (uint32_t c = 0; c < 4; c++) {
                bool declared = vertex && (map->mask[stream][r] >> c & 1);
                kind[4 + (size_t)r * 4 + c] =
                    declared ? (uint8_t)sb_rt_word_kind_of_type(map->type[stream][r]) : SB_RT_WORD_IGNORED;
            }
    }
}

static void cpu_records(const struct layout *l, const struct sb_interp_geometry_results *res,
                        const struct stream_map *map, uint32_t *words, uint8_t *kinds)
{
    uint32_t slots = l->max + 1;
    for (uint32_t j = 0; j < l->invocations; j++)
        for (uint32_t k = 0; k < slots; k++) {
            uint32_t *w = words + ((size_t)j * slots + k) * l->record_words;
            bool vertex = k < res->vertex_count[j];
            uint32_t stream = vertex ? res->stream[(size_t)j * l->max + k] : 0;
            w[0] = vertex ? stream + 1 : 0;
            w[1] = res->cut_before[(size_t)j * slots + k];
            for (uint32_t r = 0; r < l->registers; r++)
                for (uint32_t c = 0; c < 4; c++)
                    w[4 + (size_t)r * 4 + c] =
                        vertex ? res->words[(((size_t)j * l->max + k) * l->registers + r) * 4 + c] : 0;
        }
    record_kinds(l, words, map, kinds);
}

/* Appends the record resource (class SB_VALIDATE_CLASS_GEOMETRY) holding `data` to `in`. */
static bool add_records(struct sb_rt_inputs *in, const struct layout *l, const void *data, const uint8_t *kinds)
{
    if (!sb_rt_inputs_append(in, 1))
        return false;
    uint32_t i = in->count - 1;
    struct sb_rt_resource *r = &in->resources[i];
    r->resource_class = SB_VALIDATE_CLASS_GEOMETRY;
    r->size = l->bytes;
    r->width = (uint32_t)(l->record_words / 4);
    r->height = l->max + 1;
    r->depth = l->instances;
    r->data = malloc(l->bytes ? l->bytes : 4);
    in->word_kinds[i] = malloc(l->bytes / 4 ? l->bytes / 4 : 1);
    if (!r->data || !in->word_kinds[i])
        return false;
    memcpy(r->data, data, l->bytes);
    memcpy(in->word_kinds[i], kinds, l->bytes / 4);
    return true;
}

struct gpu_run {
    struct sb_rt_gs_feed feeds[SB_RT_GS_MAX_FEEDS];
    struct sb_rt_vertex_stream streams[SB_RT_GS_MAX_FEEDS];
    uint32_t feed_count;
    struct sb_translation *feeder, *capture;
    uint32_t *records;
};

/* Translates the feeder and the capture copy. */
static enum sb_result build_stages(const struct sb_rt_program *program, const struct layout *l, struct gpu_run *g,
                                   struct sb_error *error)
{
    struct sb_translate_options topts = { .target_env = SB_TARGET_VULKAN_1_1 };
    g->feed_count = sb_rt_geometry_collect_feeds(program->translation, program->ir, g->feeds);
    struct sb_ir_program *feeder = sb_rt_geometry_feeder_program(g->feeds, g->feed_count);
    enum sb_result r = feeder ? sb_translate_ir(feeder, &topts, &g->feeder, error)
                              : sb_validate_fail(error, SB_ERROR_OUT_OF_MEMORY, "out of memory building the feeder");
    sb_rt_partner_destroy(feeder);
    if (r != SB_SUCCESS)
        return r;
    struct sb_ir_program *capture = sb_rt_geometry_capture_program(program->ir, CAPTURE_UAV, l->registers);
    r = capture ? sb_translate_ir(capture, &topts, &g->capture, error)
                : sb_validate_fail(error, SB_ERROR_RUN_UNSUPPORTED, "cannot build the capture copy of the geometry "
                                   "shader (out of memory, or it declares u63 itself)");
    sb_rt_geometry_capture_destroy(capture);
    return r;
}

static enum sb_result draw(struct sb_rt_context *context, const struct layout *l, struct gpu_run *g,
                           struct sb_validate_report *report, struct sb_error *error)
{
    uint32_t own = report->gpu->count;
    struct sb_rt_resource *all = calloc(own + 1, sizeof(*all));
    g->records = calloc(l->bytes ? l->bytes : 4, 1);
    if (!all || !g->records) {
        free(all);
        return sb_validate_fail(error, SB_ERROR_OUT_OF_MEMORY, "out of memory");
    }
    memcpy(all, report->gpu->resources, own * sizeof(*all));
    all[own] = (struct sb_rt_resource){ .resource_class = SB_IR_RESOURCE_UAV, .register_index = CAPTURE_UAV,
                                        .size = l->bytes, .data = g->records };
    struct sb_rt_draw d = { .vertex = g->feeder, .geometry = g->capture, .vertex_count = l->primitives * l->vertices,
                            .stream_count = g->feed_count, .streams = g->streams, .width = 1, .height = 1,
                            .topology = l->topology };
    enum sb_result r = sb_rt_draw_points(context, &d, all, own + 1, &report->gpu_timing, error);
    for (uint32_t i = 0; i < own; i++)
        report->gpu->resources[i].counter = all[i].counter;
    free(all);
    return r;
}

/* The interpreter over the same vertex records; its results as capture records in `words`. */
static enum sb_result run_cpu(const struct sb_rt_program *program, const struct sb_validate_options *o,
                              const struct layout *l, const struct sb_interp_registers *in,
                              struct sb_validate_report *report, uint32_t *words, uint8_t *kinds,
                              struct sb_error *error)
{
    size_t slots = (size_t)l->invocations * (l->max ? l->max : 1);
    struct sb_interp_geometry_results res = {
        .registers = l->registers, .max_vertices = l->max,
        .words = calloc(slots * (l->registers ? l->registers : 1) * 4, 4),
        .vertex_count = calloc(l->invocations, 4), .stream = calloc(slots, 1),
        .cut_before = calloc(slots + l->invocations, 1),
    };
    enum sb_result r = SB_ERROR_OUT_OF_MEMORY;
    if (!res.words || !res.vertex_count || !res.stream || !res.cut_before) {
        sb_validate_fail(error, r, "out of memory");
    } else {
        uint64_t start = sb_validate_now_ns();
        r = sb_interp_run_geometry(program->ir, report->cpu->resources, report->cpu->count, l->primitives, in,
                                   &res, &o->interp, &report->cpu_stats, error);
        report->cpu_ns = sb_validate_now_ns() - start;
        struct stream_map map;
        map_outputs(program->ir, &map);
        if (r == SB_SUCCESS)
            cpu_records(l, &res, &map, words, kinds);
    }
    free(res.words);
    free(res.vertex_count);
    free(res.stream);
    free(res.cut_before);
    return r;
}

uint32_t sb_rt_geometry_input_registers(const struct sb_ir_program *gs, const struct sb_rt_gs_feed *feeds, uint32_t n)
{
    uint32_t regs = 1;
    for (uint32_t i = 0; i < n; i++)
        if (feeds[i].reg + 1 > regs)
            regs = feeds[i].reg + 1;
    for (uint32_t i = 0; i < gs->signature_count; i++)
        if (gs->signature[i].kind == SB_IR_SIGNATURE_INPUT && gs->signature[i].file == SB_IR_FILE_INPUT &&
            gs->signature[i].register_index < 256 && gs->signature[i].register_index + 1 > regs)
            regs = gs->signature[i].register_index + 1;
    return regs;
}

enum sb_result sb_validate_geometry(struct sb_rt_context *context, const struct sb_rt_program *program,
                                    const struct sb_validate_options *o, struct sb_validate_report *report,
                                    struct sb_error *error)
{
    struct layout l;
    enum sb_result r = plan(program->ir, o->group_count[0], o->draw_count, &l, error);
    struct gpu_run *g = calloc(1, sizeof(*g));
    if (r == SB_SUCCESS && !g)
        r = sb_validate_fail(error, SB_ERROR_OUT_OF_MEMORY, "out of memory");
    if (r == SB_SUCCESS)
        r = build_stages(program, &l, g, error);
    if (r == SB_SUCCESS)
        sb_validate_fit_input_arrays(program->ir, o, report); /* relative v[][] indices inside the arrays */
    uint32_t vertices = l.primitives * l.vertices;
    struct sb_interp_registers in = {
        .registers = g ? sb_rt_geometry_input_registers(program->ir, g->feeds, g->feed_count) : 1,
    };
    in.words = calloc((size_t)(vertices ? vertices : 1) * in.registers * 4, 4);
    uint32_t *cpu_words = calloc(l.bytes ? l.bytes : 4, 1);
    uint8_t *kinds = calloc(l.bytes / 4 ? l.bytes / 4 : 1, 1);
    if (r == SB_SUCCESS &&
        (!in.words || !cpu_words || !kinds ||
         !sb_rt_geometry_make_streams(g->feeds, g->feed_count, vertices, &o->inputs, g->streams, &in)))
        r = sb_validate_fail(error, SB_ERROR_OUT_OF_MEMORY, "out of memory making geometry inputs");
    if (r == SB_SUCCESS && (o->sides & SB_VALIDATE_SIDE_CPU)) /* first: a program over its budget never reaches the device */
        r = run_cpu(program, o, &l, &in, report, cpu_words, kinds, error);
    if (r == SB_SUCCESS && (o->sides & SB_VALIDATE_SIDE_GPU))
        r = draw(context, &l, g, report, error);
    else if (r == SB_SUCCESS && !(g->records = calloc(l.bytes ? l.bytes : 4, 1))) /* no GPU run: zero records */
        r = sb_validate_fail(error, SB_ERROR_OUT_OF_MEMORY, "out of memory");
    if (r == SB_SUCCESS && !(o->sides & SB_VALIDATE_SIDE_CPU)) { /* the kinds come from the device's headers */
        struct stream_map map;
        map_outputs(program->ir, &map);
        record_kinds(&l, g->records, &map, kinds);
    }
    if (r == SB_SUCCESS && (!add_records(report->gpu, &l, g->records, kinds) ||
                            !add_records(report->cpu, &l, cpu_words, kinds)))
        r = sb_validate_fail(error, SB_ERROR_OUT_OF_MEMORY, "out of memory");
    for (uint32_t i = 0; g && i < g->feed_count; i++)
        free((void *)g->streams[i].data);
    if (g) {
        sb_translation_destroy(g->feeder);
        sb_translation_destroy(g->capture);
        free(g->records);
    }
    free(g);
    free(in.words);
    free(cpu_words);
    free(kinds);
    return r;
}
