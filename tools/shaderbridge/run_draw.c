/* SPDX-License-Identifier: MIT */
/*
 * `shaderbridge run FILE --draw ...` for vertex, pixel and geometry shaders:
 * the draw is the validation harness's (runtime/src/validate/validate_graphics.c,
 * validate_geometry.c: seeded inputs, generated partner stages, point
 * draws that make every fragment input exact), run on one side only — the
 * device, or the interpreter with --cpu. Results under --output DIR:
 *
 *   vertex    vertices.bin (every o# register of every vertex, 16 bytes each)
 *             and vertices.txt (one line per vertex, values by type);
 *   pixel     o<N>.bin and o<N>.png per render target (R32G32B32A32 of the output's type,
 *             or the format --target oN=FORMAT names), oDepth.bin;
 *   geometry  gs-vertices.bin (the capture records: a header of stream + 1
 *             and cut bits, then the o# registers, per emitted-vertex slot)
 *             and gs-vertices.txt (one line per emitted vertex); a PICA200
 *             geometry shader (a compute expansion) writes its records to u0,
 *             so u0.txt lists them;
 *
 * and every UAV as `run` writes them for compute shaders. `--input REG=FILE` (cb#, t#,
 * u#, s#, v#; input_files.c reads them) gives a register the user's data: handed to
 * sb_validate as sb_validate_options::provided, so both sides draw from the same replaced
 * data and the size rules (validate.h) are the library's, not this file's.
 */
#define _POSIX_C_SOURCE 200809L
#include "run_common.h"
#include "input_files.h"
#include "png_image.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include "translator/ir.h"

static uint64_t now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

static uint32_t kind_of(const struct sb_rt_inputs *in, uint32_t resource, size_t word)
{
    return in->word_kinds[resource] ? in->word_kinds[resource][word] : in->uniform_kind[resource];
}

static void print_word(FILE *f, uint32_t kind, uint32_t word)
{
    float value;
    switch (kind) {
    case SB_RT_WORD_FLOAT:
        memcpy(&value, &word, 4);
        fprintf(f, "%.9g", value);
        break;
    case SB_RT_WORD_INT:
        fprintf(f, "%d", (int32_t)word);
        break;
    case SB_RT_WORD_UINT: case SB_RT_WORD_BOOL:
        fprintf(f, "%u", word);
        break;
    default:
        fprintf(f, "0x%08x", word);
        break;
    }
}

/* `registers` vec4 registers starting at word `first` of resource `index`: " o0=(a, b, c, d) ...". */
static void print_registers(FILE *f, const struct sb_rt_inputs *in, uint32_t index, size_t first,
                            uint32_t registers, uint32_t first_register)
{
    const uint32_t *words = in->resources[index].data;
    for (uint32_t r = 0; r < registers; r++) {
        fprintf(f, " o%u=(", first_register + r);
        for (uint32_t c = 0; c < 4; c++) {
            size_t w = first + (size_t)r * 4 + c;
            if (c)
                fprintf(f, ", ");
            print_word(f, kind_of(in, index, w), words[w]);
        }
        fprintf(f, ")");
    }
    fprintf(f, "\n");
}

static bool write_bytes(const char *path, const void *data, size_t size)
{
    FILE *f = fopen(path, "wb");
    bool ok = f && fwrite(data, 1, size, f) == size;
    if (f && fclose(f) != 0)
        ok = false;
    if (!ok)
        fprintf(stderr, "shaderbridge: error: cannot write %s: %s\n", path, strerror(errno));
    return ok;
}

/* Vertex records: one per vertex, `registers` = size / (vertices * 16). */
static bool write_vertex_text(const char *path, const struct sb_rt_inputs *in, uint32_t index, uint32_t vertices)
{
    const struct sb_rt_resource *r = &in->resources[index];
    uint32_t registers = vertices ? (uint32_t)(r->size / 16 / vertices) : 0;
    FILE *f = fopen(path, "w");
    if (!f)
        return false;
    for (uint32_t v = 0; v < vertices; v++) {
        fprintf(f, "vertex %u:", v);
        print_registers(f, in, index, (size_t)v * registers * 4, registers, 0);
    }
    return fclose(f) == 0;
}

/* Capture records (validate.h SB_VALIDATE_CLASS_GEOMETRY): width = vec4s per record (header +
 * registers), height = slots per invocation, depth = instances. */
static bool write_geometry_text(const char *path, const struct sb_rt_inputs *in, uint32_t index)
{
    const struct sb_rt_resource *r = &in->resources[index];
    const uint32_t *words = r->data;
    size_t record_words = (size_t)r->width * 4;
    size_t records = record_words ? r->size / 4 / record_words : 0;
    uint32_t slots = r->height ? r->height : 1, instances = r->depth ? r->depth : 1;
    FILE *f = fopen(path, "w");
    if (!f)
        return false;
    for (size_t k = 0; k < records; k++) {
        const uint32_t *header = words + k * record_words;
        size_t invocation = k / slots;
        if (header[1])
            fprintf(f, "primitive %zu instance %zu slot %zu: cut before (streams mask 0x%x)\n",
                    invocation / instances, invocation % instances, k % slots, header[1]);
        if (!header[0])
            continue;
        fprintf(f, "primitive %zu instance %zu vertex %zu stream %u:", invocation / instances,
                invocation % instances, k % slots, header[0] - 1);
        print_registers(f, in, index, k * record_words + 4, r->width - 1, 0);
    }
    return fclose(f) == 0;
}

/* Hull records (validate.h SB_VALIDATE_CLASS_HULL): per patch, height control points of width
 * registers, then depth patch-constant registers (tess factors as the program wrote them). */
static bool write_hull_text(const char *path, const struct sb_rt_inputs *in, uint32_t index)
{
    const struct sb_rt_resource *r = &in->resources[index];
    size_t point_words = (size_t)r->width * 4, record_words = point_words * r->height + (size_t)r->depth * 4;
    size_t patches = record_words ? r->size / 4 / record_words : 0;
    FILE *f = fopen(path, "w");
    if (!f)
        return false;
    for (size_t p = 0; p < patches; p++) {
        for (uint32_t k = 0; k < r->height; k++) {
            fprintf(f, "patch %zu control point %u:", p, k);
            print_registers(f, in, index, p * record_words + k * point_words, r->width, 0);
        }
        fprintf(f, "patch %zu constants:", p);
        print_registers(f, in, index, p * record_words + r->height * point_words, r->depth, 0);
    }
    return fclose(f) == 0;
}

/* Domain records (validate.h SB_VALIDATE_CLASS_DOMAIN): (u, v, w, patch), then the o#. */
static bool write_domain_text(const char *path, const struct sb_rt_inputs *in, uint32_t index)
{
    const struct sb_rt_resource *r = &in->resources[index];
    const uint32_t *words = r->data;
    size_t record_words = (size_t)r->width * 4;
    size_t records = record_words ? r->size / 4 / record_words : 0;
    FILE *f = fopen(path, "w");
    if (!f)
        return false;
    for (size_t k = 0; k < records; k++) {
        const uint32_t *w = words + k * record_words;
        float uvw[3];
        memcpy(uvw, w, sizeof(uvw));
        fprintf(f, "point %zu patch %u domain (%.9g, %.9g, %.9g):", k, w[3], uvw[0], uvw[1], uvw[2]);
        print_registers(f, in, index, k * record_words + 4, r->width - 1, 0);
    }
    return fclose(f) == 0;
}

/* A PICA200 geometry shader's u0 (runtime/README.md "PICA200"): words 0-3 = (vertices emitted,
 * primitives run, vectors per record R, 0), then per emitted vertex R vectors: (SETEMIT vertex
 * id, winding, primitive flag, input primitive) and the output-table registers as floats. */
static bool write_pica_gs_text(const char *path, const struct sb_rt_resource *u0)
{
    const uint32_t *w = u0->data;
    size_t words = u0->size / 4;
    if (words < 4 || !w[2])
        return true; /* nothing recorded */
    size_t per = (size_t)w[2] * 4, records = (words - 4) / per;
    if (w[0] < records)
        records = w[0];
    FILE *f = fopen(path, "w");
    if (!f)
        return false;
    fprintf(f, "# %u vertices emitted by %u primitives\n", w[0], w[1]);
    for (size_t k = 0; k < records; k++) {
        const uint32_t *r = w + 4 + k * per;
        fprintf(f, "vertex %zu: primitive %u id %u winding %u emit-primitive %u:", k, r[3], r[0], r[1], r[2]);
        for (uint32_t v = 1; v < w[2]; v++) {
            float x[4];
            memcpy(x, r + (size_t)v * 4, 16);
            fprintf(f, " out%u=(%.9g, %.9g, %.9g, %.9g)", v - 1, x[0], x[1], x[2], x[3]);
        }
        fprintf(f, "\n");
    }
    return fclose(f) == 0;
}

static bool write_results(const struct cli_run_options *o, const struct sb_rt_program *program,
                          const struct sb_rt_inputs *in, uint32_t vertices)
{
    if (mkdir(o->output_dir, 0777) != 0 && errno != EEXIST) {
        fprintf(stderr, "shaderbridge: error: cannot create %s: %s\n", o->output_dir, strerror(errno));
        return false;
    }
    char name[48], path[4096];
    for (uint32_t i = 0; i < in->count; i++) {
        const struct sb_rt_resource *r = &in->resources[i];
        uint32_t cls = r->resource_class;
        if (cls != SB_IR_RESOURCE_UAV && cls != SB_VALIDATE_CLASS_OUTPUT && cls != SB_VALIDATE_CLASS_DEPTH &&
            cls != SB_VALIDATE_CLASS_GEOMETRY && cls != SB_VALIDATE_CLASS_STENCIL && cls != SB_VALIDATE_CLASS_HULL &&
            cls != SB_VALIDATE_CLASS_DOMAIN)
            continue;
        bool vertex_records = cls == SB_VALIDATE_CLASS_OUTPUT && program->stage == SB_IR_STAGE_VERTEX;
        if (vertex_records)
            snprintf(name, sizeof(name), "vertices");
        else
            cli_run_resource_name(r, name, sizeof(name));
        snprintf(path, sizeof(path), "%s/%s.bin", o->output_dir, name);
        if (!write_bytes(path, r->data, r->size))
            return false;
        printf("  %s -> %s (%zu bytes)\n", name, path, r->size);
        /* A PICA200 geometry shader: stage geometry, run as its compute expansion. */
        bool pica_gs = program->ir && program->ir->stage == SB_IR_STAGE_COMPUTE &&
                       program->stage == SB_IR_STAGE_GEOMETRY && cls == SB_IR_RESOURCE_UAV &&
                       r->register_index == 0 && r->space == 0;
        if (pica_gs) {
            snprintf(path, sizeof(path), "%s/%s.txt", o->output_dir, name);
            if (!write_pica_gs_text(path, r)) {
                fprintf(stderr, "shaderbridge: error: cannot write %s: %s\n", path, strerror(errno));
                return false;
            }
            printf("  %s -> %s (emitted vertices)\n", name, path);
        }
        bool text = vertex_records || cls == SB_VALIDATE_CLASS_GEOMETRY || cls == SB_VALIDATE_CLASS_HULL ||
                    cls == SB_VALIDATE_CLASS_DOMAIN;
        if (text) {
            snprintf(path, sizeof(path), "%s/%s.txt", o->output_dir, name);
            bool ok = vertex_records                    ? write_vertex_text(path, in, i, vertices)
                      : cls == SB_VALIDATE_CLASS_HULL   ? write_hull_text(path, in, i)
                      : cls == SB_VALIDATE_CLASS_DOMAIN ? write_domain_text(path, in, i)
                                                        : write_geometry_text(path, in, i);
            if (!ok) {
                fprintf(stderr, "shaderbridge: error: cannot write %s: %s\n", path, strerror(errno));
                return false;
            }
            printf("  %s -> %s\n", name, path);
        }
        bool image = (cls == SB_VALIDATE_CLASS_OUTPUT && program->stage == SB_IR_STAGE_PIXEL) ||
                     (cls == SB_IR_RESOURCE_UAV && (r->dimension == 3 || r->dimension == 8));
        if (image) {
            snprintf(path, sizeof(path), "%s/%s.png", o->output_dir, name);
            if (!cli_png_write_texture(path, r, 0)) {
                fprintf(stderr, "shaderbridge: error: cannot write %s: %s\n", path, strerror(errno));
                return false;
            }
            printf("  %s -> %s (%ux%u RGBA8)\n", name, path, r->width, r->height);
        }
    }
    return true;
}

int cli_run_draw(const struct cli_run_options *o, const struct sb_rt_program *program)
{
    uint32_t stage = program->stage;
    if (stage == SB_IR_STAGE_COMPUTE) {
        fprintf(stderr, "%s: error: run --draw draws vertex, pixel, geometry, hull and domain shaders "
                "[SB_ERROR_RUN_UNSUPPORTED]\n", o->file);
        return CLI_EXIT_NOT_RUN;
    }
    if (stage == SB_IR_STAGE_PIXEL ? o->draw_count != 0 : o->draw_width != 0) {
        cli_usage_error(stage == SB_IR_STAGE_PIXEL ? "run: a pixel shader draws --draw WxH pixels"
                                                   : "run: --draw N: vertices (vertex shaders), primitives "
                                                     "(geometry shaders) or patches (hull shaders; domain "
                                                     "shaders: per partitioning mode)");
        return CLI_EXIT_USAGE;
    }
    bool targets = false;
    for (uint32_t t = 0; t < 8; t++)
        targets |= o->target_formats[t] != 0;
    if (targets && stage != SB_IR_STAGE_PIXEL) {
        cli_usage_error("run: --target sets a pixel shader's render-target formats");
        return CLI_EXIT_USAGE;
    }
    struct sb_rt_resource provided[64];
    struct cli_file files[64];
    uint32_t loaded = 0;
    int status = CLI_EXIT_OK;
    for (; loaded < o->input_count && status == CLI_EXIT_OK; loaded++)
        status = cli_input_load("run", o->inputs[loaded], &provided[loaded], &files[loaded]);
    if (status != CLI_EXIT_OK)
        loaded--; /* the failed one loaded nothing */
    struct sb_rt_context *context = NULL;
    if (status == CLI_EXIT_OK && !o->cpu && !cli_run_context(o, &context))
        status = CLI_EXIT_NOT_RUN;
    if (status != CLI_EXIT_OK) {
        cli_input_free(files, loaded);
        return status;
    }
    struct sb_validate_options options = {
        .inputs = { .seed = o->seed },
        .provided_count = loaded, .provided = provided,
        .sides = o->cpu ? SB_VALIDATE_SIDE_CPU : SB_VALIDATE_SIDE_GPU,
        .draw_count = o->draw_count, .draw_width = o->draw_width, .draw_height = o->draw_height,
    };
    for (uint32_t t = 0; t < 8; t++)
        options.target_formats[t] = (enum sb_rt_format)o->target_formats[t];
    struct sb_validate_report *report = NULL;
    struct sb_error error = { 0 };
    uint64_t start = now_ns();
    enum sb_result r = sb_validate(context, program, &options, &report, &error);
    uint64_t elapsed = now_ns() - start;
    cli_input_free(files, loaded);
    if (cli_input_report_refusal("run", r, &error, o->inputs, loaded)) {
        status = CLI_EXIT_USAGE; /* as a dispatch's --input refusals are */
    } else if (r != SB_SUCCESS) {
        cli_report_error(o->file, &error);
        status = cli_run_exit_for(r);
    } else {
        const struct sb_rt_inputs *results = o->cpu ? report->cpu : report->gpu;
        uint32_t vertices = stage == SB_IR_STAGE_VERTEX ? (o->draw_count ? o->draw_count : 64) : 0;
        char what[64];
        if (stage == SB_IR_STAGE_PIXEL)
            snprintf(what, sizeof(what), "%ux%u pixels", o->draw_width ? o->draw_width : 8,
                     o->draw_height ? o->draw_height : 8);
        else if (stage == SB_IR_STAGE_VERTEX)
            snprintf(what, sizeof(what), "%u vertices", vertices);
        else
            snprintf(what, sizeof(what), "%u primitives", o->draw_count ? o->draw_count : 16);
        printf("%s: drew %s on %s in %.3f ms\n", o->file, what,
               o->cpu ? "the CPU interpreter" : sb_rt_context_device_name(context), elapsed / 1e6);
        if (o->output_dir && !write_results(o, program, results, vertices))
            status = CLI_EXIT_INVALID_INPUT;
    }
    sb_validate_report_destroy(report);
    sb_rt_context_destroy(context);
    return status;
}
