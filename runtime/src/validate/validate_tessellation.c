/* SPDX-License-Identifier: MIT */
/*
 * What hull and domain validation share (validate_hull.c, validate_domain.c;
 * runtime/README.md "Hull and domain programs"): word kinds of record words
 * from signature elements (the declared lanes compared, the rest ignored and
 * written as 0), record resources appended to a report with the
 * interpreter's evidence for them, the patch-list draw, the translation of a
 * generated partner, and feeds for every lane of every control-point input
 * element. The
 * model is geometry validation (validate_geometry.c), whose feeder VS and
 * streams these files reuse.
 */
#include "validate_private.h"

#include <stdlib.h>
#include <string.h>
#include "translator/ir.h"

/* The element lanes compared: the declared ones, else the container's allocation. */
static uint8_t compared_lanes(const struct sb_ir_signature_element *e)
{
    return (uint8_t)((e->mask ? e->mask : e->signature_mask) & 0xF);
}

/* Highest register + 1 of the elements of `kind` in `file`. */
uint32_t sb_rt_tess_element_registers(const struct sb_ir_program *p, uint32_t kind, uint32_t file)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < p->signature_count; i++) {
        const struct sb_ir_signature_element *e = &p->signature[i];
        if (e->kind == kind && e->file == file && e->register_index < 32 && e->register_index + 1 > n)
            n = e->register_index + 1;
    }
    return n;
}

/* Word kinds of the 4 * `registers` words of one register record: the lanes the elements of
 * `kind`/`file` declare by their type, the rest ignored. */
void sb_rt_tess_register_kinds(const struct sb_ir_program *p, uint32_t kind, uint32_t file, uint32_t registers,
                               uint8_t *kinds)
{
    memset(kinds, SB_RT_WORD_IGNORED, (size_t)registers * 4);
    for (uint32_t i = 0; i < p->signature_count; i++) {
        const struct sb_ir_signature_element *e = &p->signature[i];
        if (e->kind != kind || e->file != file || e->register_index >= registers)
            continue;
        for (uint32_t c = 0; c < 4; c++)
            if (compared_lanes(e) >> c & 1)
                kinds[e->register_index * 4 + c] = (uint8_t)sb_rt_word_kind_of_type(e->component_type);
    }
}

/* Zeroes the words no element declares (kind IGNORED) on both sides: D3D leaves them
 * undefined (the device's o# array keeps what an earlier phase or invocation left there), and
 * zeros make the records `run` writes the same on both sides. */
void sb_rt_tess_clear_ignored(uint32_t *gpu, uint32_t *cpu, const uint8_t *kinds, size_t words)
{
    for (size_t w = 0; w < words; w++)
        if (kinds[w] == SB_RT_WORD_IGNORED)
            gpu[w] = cpu[w] = 0;
}

/* Appends a record resource of `klass` holding `data` (`bytes`) with `kinds` to `in`. */
bool sb_rt_tess_add_records(struct sb_rt_inputs *in, uint32_t klass, size_t bytes, const void *data,
                            const uint8_t *kinds, uint32_t width, uint32_t height, uint32_t depth)
{
    if (!sb_rt_inputs_append(in, 1))
        return false;
    uint32_t i = in->count - 1;
    struct sb_rt_resource *r = &in->resources[i];
    r->resource_class = klass;
    r->size = bytes;
    r->width = width;
    r->height = height;
    r->depth = depth;
    r->data = malloc(bytes ? bytes : 4);
    in->word_kinds[i] = malloc(bytes / 4 ? bytes / 4 : 1);
    if (!r->data || !in->word_kinds[i])
        return false;
    if (bytes) {
        memcpy(r->data, data, bytes);
        memcpy(in->word_kinds[i], kinds, bytes / 4);
    }
    return true;
}

/* The interpreter's evidence for the record resource just appended (the last of the report):
 * per word its bound, origin and undefined flag where given (NULL: none). False on OOM. */
bool sb_rt_tess_track_records(struct sb_validate_report *report, size_t words, const float *bound,
                              const uint32_t *origin, const uint8_t *undefined)
{
    float *b;
    uint32_t *o;
    uint8_t *u;
    if (!report->tracking.precision && !report->tracking.undefined)
        return true;
    if (!sb_validate_track_resource(report, report->cpu->count - 1, words, &b, &o, &u))
        return false;
    if (b && bound)
        memcpy(b, bound, words * sizeof(float));
    if (o && origin)
        memcpy(o, origin, words * sizeof(uint32_t));
    if (u && undefined)
        memcpy(u, undefined, words);
    return true;
}

/* The draw of `vertices` patch-list vertices; `extra` UAVs after the caller's resources. */
enum sb_result sb_rt_tess_draw(struct sb_rt_context *context, struct sb_validate_report *report,
                               const struct sb_translation *feeder, const struct sb_translation *hull,
                               const struct sb_translation *domain, uint32_t vertices,
                               const struct sb_rt_vertex_stream *streams, uint32_t stream_count,
                               struct sb_rt_resource *extra, uint32_t extra_count, struct sb_error *error)
{
    uint32_t own = report->gpu->count;
    struct sb_rt_resource *all = calloc(own + extra_count, sizeof(*all));
    if (!all)
        return sb_validate_fail(error, SB_ERROR_OUT_OF_MEMORY, "out of memory");
    memcpy(all, report->gpu->resources, own * sizeof(*all));
    memcpy(all + own, extra, extra_count * sizeof(*extra));
    struct sb_rt_draw d = { .vertex = feeder, .hull = hull, .domain = domain, .vertex_count = vertices,
                            .stream_count = stream_count, .streams = streams, .width = 1, .height = 1,
                            .topology = SB_RT_TOPOLOGY_PATCH_LIST };
    struct sb_rt_timing timing = { 0 };
    enum sb_result r = sb_rt_draw_points(context, &d, all, own + extra_count, &timing, error);
    report->gpu_timing.pipeline_ns += timing.pipeline_ns;
    report->gpu_timing.upload_ns += timing.upload_ns;
    report->gpu_timing.run_ns += timing.run_ns;
    report->gpu_timing.readback_ns += timing.readback_ns;
    for (uint32_t i = 0; i < own; i++)
        report->gpu->resources[i].counter = all[i].counter;
    memcpy(extra, all + own, extra_count * sizeof(*extra));
    free(all);
    return r;
}

/* Translates a generated program `p` (NULL: the failure `what`) and frees it with `destroy`. */
enum sb_result sb_rt_tess_translate(struct sb_ir_program *p, void (*destroy)(struct sb_ir_program *),
                                    struct sb_translation **out, const char *what, struct sb_error *error)
{
    struct sb_translate_options topts = { .target_env = SB_TARGET_VULKAN_1_1 };
    if (!p)
        return sb_validate_fail(error, SB_ERROR_RUN_UNSUPPORTED, what);
    enum sb_result r = sb_translate_ir(p, &topts, out, error);
    destroy(p);
    return r;
}

/*
 * Feeds for every lane of every control-point input element, beyond what the program reads
 * (sb_rt_geometry_collect_feeds): a hull shader without a control-point phase passes its
 * inputs through whole (D3D's rule), and the element's lanes are what the translation loads
 * into v#, declared or not (a pass-through hull shader declares none). Unfed lanes would be
 * undefined on the device and 0 in the interpreter.
 */
void sb_rt_tess_complete_feeds(const struct sb_ir_program *p, struct sb_rt_gs_feed *feeds, uint32_t *count)
{
    uint32_t next = 0;
    for (uint32_t i = 0; i < *count; i++)
        if (feeds[i].location + 1 > next)
            next = feeds[i].location + 1;
    for (uint32_t i = 0; i < p->signature_count; i++) {
        const struct sb_ir_signature_element *e = &p->signature[i];
        uint8_t lanes = (uint8_t)((e->mask | e->signature_mask) & 0xF);
        if (e->kind != SB_IR_SIGNATURE_INPUT || e->file != SB_IR_FILE_INPUT || e->register_index >= 32 || !lanes)
            continue;
        bool builtin = e->system_value >= 1 && e->system_value <= 3;
        uint32_t k = 0;
        while (k < *count && !(feeds[k].reg == e->register_index && (feeds[k].system_value != 0) == builtin))
            k++;
        if (k < *count) {
            feeds[k].mask |= lanes;
            continue;
        }
        if (*count == SB_RT_GS_MAX_FEEDS || (builtin ? next : e->register_index) >= 32)
            continue;
        feeds[(*count)++] = (struct sb_rt_gs_feed){
            .location = builtin ? next++ : e->register_index, .reg = e->register_index, .mask = lanes,
            .type = builtin ? SB_IR_TYPE_FLOAT : e->component_type, .system_value = builtin ? e->system_value : 0,
            .semantic = e->semantic, .semantic_index = e->semantic_index,
        };
        if (!builtin && e->register_index + 1 > next)
            next = e->register_index + 1;
    }
}
