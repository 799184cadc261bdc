/* SPDX-License-Identifier: MIT */
/*
 * Validation of hull programs (validate.h; runtime/README.md "Hull and domain
 * programs"): patches of seeded control points come from the geometry feeder
 * VS (one stream per location the module reads, every lane of every
 * control-point input element); the capture copy of the program
 * (validate_tessellation_partner.c) runs as the TCS and stores every output
 * control point and every patch constant (tess factors as written) inside
 * the TCS, before the tessellator, so culled patches are compared too. An
 * empty DS completes the pipeline. The interpreter runs sb_interp_run_hull
 * over the same control points; both sides become records of the same
 * layout (SB_VALIDATE_CLASS_HULL), compared word by word.
 */
#include "validate_private.h"

#include <stdlib.h>
#include <string.h>
#include "translator/ir.h"

enum { CAPTURE_UAV = 63, HULL_PATCHES = 16, MAX_CAPTURE_BYTES = 32 << 20 };

struct hull_plan {
    uint32_t patches, icp, ocp, cp_registers, pc_registers;
    size_t record_words, bytes;
};

struct hull_run {
    struct sb_rt_gs_feed feeds[SB_RT_GS_MAX_FEEDS];
    struct sb_rt_vertex_stream streams[SB_RT_GS_MAX_FEEDS];
    uint32_t feed_count;
    struct sb_translation *feeder, *capture, *sink;
    struct sb_interp_registers in;
    uint32_t *gpu_words, *cpu_words;
    uint8_t *kinds;
    float *bound; /* tracked runs: the interpreter's bound per record word, else NULL */
};

static enum sb_result hull_plan(const struct sb_ir_program *hs, const struct sb_validate_options *o,
                                struct hull_plan *l, struct sb_error *error)
{
    memset(l, 0, sizeof(*l));
    l->icp = hs->input_control_points;
    l->ocp = hs->output_control_points;
    l->cp_registers = sb_rt_tess_element_registers(hs, SB_IR_SIGNATURE_OUTPUT, SB_IR_FILE_OUTPUT);
    l->pc_registers = sb_rt_tess_element_registers(hs, SB_IR_SIGNATURE_PATCH, SB_IR_FILE_OUTPUT);
    if (!l->icp || !l->ocp || l->icp > 32 || l->ocp > 32)
        return sb_validate_fail(error, SB_ERROR_RUN_UNSUPPORTED, "hull validation needs 1 to 32 input and output "
                                "control points");
    l->record_words = ((size_t)l->ocp * l->cp_registers + l->pc_registers) * 4;
    l->patches = o->draw_count ? o->draw_count : HULL_PATCHES * o->group_count[0];
    while (l->patches > 1 && (size_t)l->patches * l->record_words * 4 > MAX_CAPTURE_BYTES)
        l->patches /= 2;
    l->bytes = (size_t)l->patches * l->record_words * 4;
    return SB_SUCCESS;
}

/* The interpreter's control points and patch constants, as capture records. */
static enum sb_result hull_cpu(const struct sb_rt_program *program, const struct sb_validate_options *o,
                               const struct hull_plan *l, struct hull_run *h, struct sb_validate_report *report,
                               struct sb_error *error)
{
    size_t points = (size_t)l->patches * l->ocp;
    struct sb_interp_hull_results res = {
        .control_points = { .registers = l->cp_registers,
                            .words = calloc(points * (l->cp_registers ? l->cp_registers : 1) * 4, 4) },
        .patch_constants = { .registers = l->pc_registers,
                             .words = calloc((size_t)l->patches * (l->pc_registers ? l->pc_registers : 1) * 4, 4) },
    };
    enum sb_result r = SB_ERROR_OUT_OF_MEMORY;
    const struct sb_interp_tracking *t = o->interp.tracking;
    if (t && t->precision) { /* the evidence run: the bounds of every result word */
        res.control_point_bound = calloc(points * (l->cp_registers ? l->cp_registers : 1) * 4, sizeof(float));
        res.patch_constant_bound = calloc((size_t)l->patches * (l->pc_registers ? l->pc_registers : 1) * 4,
                                          sizeof(float));
        h->bound = calloc(l->record_words * l->patches + 1, sizeof(float));
    }
    bool tracked_ok = !(t && t->precision) || (res.control_point_bound && res.patch_constant_bound && h->bound);
    if (!res.control_points.words || !res.patch_constants.words || !tracked_ok) {
        sb_validate_fail(error, r, "out of memory");
    } else {
        if (!l->cp_registers) {
            free(res.control_points.words);
            res.control_points.words = NULL;
        }
        uint64_t start = sb_validate_now_ns();
        r = sb_interp_run_hull(program->ir, report->cpu->resources, report->cpu->count, l->patches, &h->in, &res,
                               &o->interp, &report->cpu_stats, error);
        report->cpu_ns = sb_validate_now_ns() - start;
    }
    for (uint32_t p = 0; r == SB_SUCCESS && p < l->patches; p++) {
        uint32_t *w = h->cpu_words + (size_t)p * l->record_words;
        size_t cp_words = (size_t)l->ocp * l->cp_registers * 4;
        if (cp_words)
            memcpy(w, res.control_points.words + (size_t)p * cp_words, cp_words * 4);
        memcpy(w + cp_words, res.patch_constants.words + (size_t)p * l->pc_registers * 4,
               (size_t)l->pc_registers * 16);
        if (h->bound) {
            float *b = h->bound + (size_t)p * l->record_words;
            if (cp_words)
                memcpy(b, res.control_point_bound + (size_t)p * cp_words, cp_words * sizeof(float));
            memcpy(b + cp_words, res.patch_constant_bound + (size_t)p * l->pc_registers * 4,
                   (size_t)l->pc_registers * 4 * sizeof(float));
        }
    }
    free(res.control_points.words);
    free(res.patch_constants.words);
    free(res.control_point_bound);
    free(res.patch_constant_bound);
    return r;
}

static void hull_kinds(const struct sb_ir_program *hs, const struct hull_plan *l, uint8_t *kinds)
{
    uint8_t *record = kinds;
    for (uint32_t k = 0; k < l->ocp; k++)
        sb_rt_tess_register_kinds(hs, SB_IR_SIGNATURE_OUTPUT, SB_IR_FILE_OUTPUT, l->cp_registers,
                                  record + (size_t)k * l->cp_registers * 4);
    sb_rt_tess_register_kinds(hs, SB_IR_SIGNATURE_PATCH, SB_IR_FILE_OUTPUT, l->pc_registers,
                              record + (size_t)l->ocp * l->cp_registers * 4);
    for (uint32_t p = 1; p < l->patches; p++)
        memcpy(kinds + (size_t)p * l->record_words, kinds, l->record_words);
}

static void hull_release(struct hull_run *h)
{
    for (uint32_t i = 0; i < h->feed_count; i++)
        free((void *)h->streams[i].data);
    sb_translation_destroy(h->feeder);
    sb_translation_destroy(h->capture);
    sb_translation_destroy(h->sink);
    free(h->in.words);
    free(h->gpu_words);
    free(h->cpu_words);
    free(h->kinds);
    free(h->bound);
    free(h);
}

enum sb_result sb_validate_hull(struct sb_rt_context *context, const struct sb_rt_program *program,
                                const struct sb_validate_options *o, struct sb_validate_report *report,
                                struct sb_error *error)
{
    const struct sb_ir_program *hs = program->ir;
    struct hull_plan l;
    enum sb_result r = hull_plan(hs, o, &l, error);
    struct hull_run *h = r == SB_SUCCESS ? calloc(1, sizeof(*h)) : NULL;
    if (r == SB_SUCCESS && !h)
        r = sb_validate_fail(error, SB_ERROR_OUT_OF_MEMORY, "out of memory");
    if (r != SB_SUCCESS)
        return r;
    sb_validate_fit_input_arrays(hs, o, report); /* relative v[][] indices inside the arrays */
    h->feed_count = sb_rt_geometry_collect_feeds(program->translation, hs, h->feeds);
    sb_rt_tess_complete_feeds(hs, h->feeds, &h->feed_count);
    uint32_t vertices = l.patches * l.icp;
    h->in.registers = sb_rt_geometry_input_registers(hs, h->feeds, h->feed_count);
    h->in.words = calloc((size_t)vertices * h->in.registers * 4, 4);
    h->gpu_words = calloc(l.bytes ? l.bytes : 4, 1);
    h->cpu_words = calloc(l.bytes ? l.bytes : 4, 1);
    h->kinds = calloc(l.bytes / 4 ? l.bytes / 4 : 1, 1);
    if (!h->in.words || !h->gpu_words || !h->cpu_words || !h->kinds ||
        !sb_rt_geometry_make_streams(h->feeds, h->feed_count, vertices, &o->inputs, h->streams, &h->in))
        r = sb_validate_fail(error, SB_ERROR_OUT_OF_MEMORY, "out of memory making hull inputs");
    if (r == SB_SUCCESS && (o->sides & SB_VALIDATE_SIDE_CPU)) /* first: the budget stops it before a device */
        r = hull_cpu(program, o, &l, h, report, error);
    if (r == SB_SUCCESS && (o->sides & SB_VALIDATE_SIDE_GPU)) {
        r = sb_rt_tess_translate(sb_rt_geometry_feeder_program(h->feeds, h->feed_count), sb_rt_partner_destroy,
                                 &h->feeder, "out of memory building the feeder", error);
        if (r == SB_SUCCESS)
            r = sb_rt_tess_translate(sb_rt_hull_capture_program(hs, CAPTURE_UAV, l.cp_registers, l.pc_registers),
                                     sb_rt_tess_program_destroy, &h->capture, "cannot build the capture copy of the "
                                     "hull shader (its phase range is past its functions, it declares u63 itself, "
                                     "its records pass 4096 registers, or memory ran out)", error);
        if (r == SB_SUCCESS)
            r = sb_rt_tess_translate(sb_rt_domain_sink_program(hs), sb_rt_tess_program_destroy, &h->sink,
                                     "out of memory building the domain stage", error);
        struct sb_rt_resource records = { .resource_class = SB_IR_RESOURCE_UAV, .register_index = CAPTURE_UAV,
                                          .size = l.bytes, .data = h->gpu_words };
        if (r == SB_SUCCESS)
            r = sb_rt_tess_draw(context, report, h->feeder, h->capture, h->sink, vertices, h->streams,
                                h->feed_count, &records, 1, error);
    }
    if (r == SB_SUCCESS) {
        hull_kinds(hs, &l, h->kinds);
        sb_rt_tess_clear_ignored(h->gpu_words, h->cpu_words, h->kinds, l.bytes / 4);
        if (!sb_rt_tess_add_records(report->gpu, SB_VALIDATE_CLASS_HULL, l.bytes, h->gpu_words, h->kinds,
                                    l.cp_registers, l.ocp, l.pc_registers) ||
            !sb_rt_tess_add_records(report->cpu, SB_VALIDATE_CLASS_HULL, l.bytes, h->cpu_words, h->kinds,
                                    l.cp_registers, l.ocp, l.pc_registers) ||
            !sb_rt_tess_track_records(report, l.bytes / 4, h->bound, NULL, NULL))
            r = sb_validate_fail(error, SB_ERROR_OUT_OF_MEMORY, "out of memory");
    }
    hull_release(h);
    return r;
}
