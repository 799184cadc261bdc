/* SPDX-License-Identifier: MIT */
/*
 * Every vertex shader of the corpus (SB_CORPUS_DIR/dxbc/MANIFEST.tsv,
 * program_type vs) through sb_translate and sb_rt_draw_points on lavapipe
 * under the validation layer: 16 points with the rasterizer discarding (the
 * capture setup of vertex-shader validation), one R32G32B32A32 stream of
 * small integers (or their float values) per input location in the input's
 * component type, and resources built from the translation's binding
 * report and the IR's declarations: 64 KiB buffers of small integers,
 * 16x16 textures (4 layers, 6 per cube, 8 deep for 3D) in the 32-bit format
 * of the declared return type, one linear sampler per s#. What this checks
 * is that real translated modules — with the PointSize store the runtime
 * adds — make pipelines the validation layer accepts, and that a shader the
 * device cannot run is a structured error, not a crash.
 *
 * The run fails on a crash, on a validation error, and on any failure other
 * than SB_ERROR_RUN_UNSUPPORTED or a translation failure (both counted and
 * printed).
 *
 * Usage: test_runtime_draw_corpus CORPUS_DIR [--only SUBSTRING]. Exit 0 / 1, 77 without corpus or Vulkan.
 */
#define _POSIX_C_SOURCE 200809L

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "corpus_list.h"
#include "shaderbridge/dxbc.h"
#include "shaderbridge/runtime.h"
#include "translator/sm4.h"
#include "translator/ir.h"

#define BUFFER_BYTES 65536u
#define MAX_RESOURCES 512
#define UNBOUNDED_GIVEN 4u
#define POINTS 16u
#define MAX_STREAMS 32u

struct tally {
    unsigned shaders, ok, unsupported, translate_failed, failed, validation_dirty;
    uint32_t validation_seen;
};

/* Keeps lavapipe loaded after the context is gone (see tests/runtime/test_runtime_dispatch.c). */
static void pin_driver(void)
{
    (void)dlopen("libvulkan_lvp.so", RTLD_NOW | RTLD_NOLOAD);
}

static struct sb_ir_program *lower(const void *bytes, size_t size)
{
    struct sb_dxbc *dxbc = NULL;
    struct sb_sm4_program *sm4 = NULL;
    struct sb_ir_program *ir = NULL;
    struct sb_error err = { 0 };
    if (sb_dxbc_parse(bytes, size, &dxbc, &err) == SB_SUCCESS &&
        sb_sm4_decode_container(dxbc, &sm4, &err) == SB_SUCCESS)
        sb_ir_from_sm4(sm4, dxbc, &ir, &err);
    sb_sm4_program_destroy(sm4);
    sb_dxbc_destroy(dxbc);
    return ir;
}

static const struct sb_ir_resource *declared(const struct sb_ir_program *ir, const struct sb_translated_binding *b)
{
    for (uint32_t i = 0; ir && i < ir->resource_count; i++) {
        const struct sb_ir_resource *r = &ir->resources[i];
        if (r->resource_class == b->resource_class && r->space == b->space && r->lower_bound == b->lower_bound)
            return r;
    }
    return NULL;
}

/* Small integers 0..15, as floats when `as_float`. */
static void fill(void *data, size_t size, uint32_t seed, bool as_float)
{
    uint32_t *w = data, x = seed * 2654435761u + 12345u;
    for (size_t i = 0; i < size / 4; i++) {
        x = x * 1664525u + 1013904223u;
        w[i] = x >> 28;
        if (as_float) {
            float f = (float)w[i] / 15.0f;
            memcpy(&w[i], &f, 4);
        }
    }
}

/* One register's resource: SM4 return type (§8.4) 3 sint, 4 uint, else float; RGBA for t#, R for u#. */
static bool build(struct sb_rt_resource *r, const struct sb_translated_binding *b, const struct sb_ir_resource *d,
                  uint32_t reg, uint32_t seed)
{
    memset(r, 0, sizeof(*r));
    r->resource_class = b->resource_class;
    r->space = b->space;
    r->register_index = reg;
    r->width = r->height = r->depth = r->layers = r->mip_levels = r->sample_count = 1;
    if (b->resource_class == SB_IR_RESOURCE_SAMPLER) {
        r->sampler = (struct sb_rt_sampler){ .mag_filter = SB_RT_FILTER_LINEAR, .min_filter = SB_RT_FILTER_LINEAR,
                                             .max_lod = 1000.0f, .compare = d && d->sampler_mode == 1,
                                             .compare_op = 3 };
        return true;
    }
    uint32_t dim = d && d->kind == SB_IR_RESOURCE_KIND_TYPED ? d->dimension : 0;
    if (b->resource_class != SB_IR_RESOURCE_CBV && dim) {
        bool single = b->resource_class == SB_IR_RESOURCE_UAV;
        uint32_t ret = d->return_type[0];
        r->dimension = dim;
        r->format = ret == 3 ? (single ? SB_RT_FORMAT_R32_SINT : SB_RT_FORMAT_R32G32B32A32_SINT)
                    : ret == 4 ? (single ? SB_RT_FORMAT_R32_UINT : SB_RT_FORMAT_R32G32B32A32_UINT)
                               : (single ? SB_RT_FORMAT_R32_FLOAT : SB_RT_FORMAT_R32G32B32A32_FLOAT);
        r->sample_count = d->sample_count ? d->sample_count : 1;
        if (dim == 1) {
            r->width = BUFFER_BYTES / sb_rt_format_size((enum sb_rt_format)r->format);
        } else {
            r->width = 16;
            r->height = dim == 2 || dim == 7 ? 1 : 16;
            r->depth = dim == 5 ? 8 : 1;
            r->layers = dim == 6 ? 6 : dim == 10 ? 24 : dim == 7 || dim == 8 || dim == 9 ? 4 : 1;
        }
    }
    r->size = dim > 1 ? sb_rt_texture_bytes(r) : BUFFER_BYTES;
    r->data = malloc(r->size ? r->size : 1);
    if (!r->data)
        return false;
    fill(r->data, r->size, seed, dim > 1 && r->format == SB_RT_FORMAT_R32G32B32A32_FLOAT);
    return true;
}

/* One stream per input location, RGBA in the input's component type. */
static uint32_t build_streams(const struct sb_translation *t, struct sb_rt_vertex_stream *streams,
                              uint32_t (*data)[POINTS * 4])
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < t->input_count && n < MAX_STREAMS; i++) {
        const struct sb_translated_interface *in = &t->inputs[i];
        bool seen = false;
        for (uint32_t j = 0; j < n; j++)
            seen = seen || streams[j].location == in->location;
        if (seen)
            continue;
        uint32_t format = in->component_type == SB_IR_TYPE_UINT  ? SB_RT_FORMAT_R32G32B32A32_UINT
                          : in->component_type == SB_IR_TYPE_INT ? SB_RT_FORMAT_R32G32B32A32_SINT
                                                                 : SB_RT_FORMAT_R32G32B32A32_FLOAT;
        fill(data[n], sizeof(data[n]), in->location + 1, format == SB_RT_FORMAT_R32G32B32A32_FLOAT);
        streams[n] = (struct sb_rt_vertex_stream){ in->location, format, data[n] };
        n++;
    }
    return n;
}

/* Translates and draws one shader; the draw's result, or 1 when translation failed. */
static int draw_one(struct sb_rt_context *c, const void *bytes, size_t size, struct sb_error *err)
{
    struct sb_translation *tr = NULL;
    if (sb_translate(bytes, size, NULL, &tr, err) != SB_SUCCESS)
        return 1;
    struct sb_ir_program *ir = lower(bytes, size);
    static struct sb_rt_resource res[MAX_RESOURCES];
    static struct sb_rt_vertex_stream streams[MAX_STREAMS];
    static uint32_t stream_data[MAX_STREAMS][POINTS * 4];
    uint32_t n = 0;
    bool oom = false;
    for (uint32_t i = 0; i < tr->binding_count && !oom; i++) {
        const struct sb_translated_binding *b = &tr->bindings[i];
        uint32_t count = b->count == UINT32_MAX ? UNBOUNDED_GIVEN : b->count;
        for (uint32_t e = 0; e < count && n < MAX_RESOURCES && !oom; e++, n++)
            oom = !build(&res[n], b, declared(ir, b), b->lower_bound + e, n);
    }
    struct sb_rt_draw d = {
        .vertex = tr, .vertex_count = POINTS, .width = 4, .height = 4,
        .stream_count = build_streams(tr, streams, stream_data), .streams = streams,
    };
    enum sb_result r = oom ? SB_ERROR_OUT_OF_MEMORY : sb_rt_draw_points(c, &d, res, n, NULL, err);
    for (uint32_t i = 0; i < n; i++)
        free(res[i].data);
    sb_ir_program_destroy(ir);
    sb_translation_destroy(tr);
    return (int)r;
}

static void run_shader(struct sb_rt_context *c, const char *name, const void *bytes, size_t size, struct tally *t)
{
    struct sb_error err = { 0 };
    t->shaders++;
    int r = draw_one(c, bytes, size, &err);
    uint32_t errors = sb_rt_context_validation_errors(c);
    if (errors != t->validation_seen) {
        t->validation_dirty++;
        printf("VALIDATION %s: %u errors; first: %.400s\n", name, errors - t->validation_seen,
               sb_rt_context_first_validation_error(c));
    }
    t->validation_seen = errors;
    if (r == SB_SUCCESS) {
        t->ok++;
    } else if (r == 1) {
        t->translate_failed++;
        printf("translate-failed %s: %s\n", name, err.message);
    } else if (r == SB_ERROR_RUN_UNSUPPORTED) {
        t->unsupported++;
        printf("unsupported %s: %s\n", name, err.message);
    } else {
        t->failed++;
        printf("FAILED %s: %s: %s\n", name, sb_result_name((enum sb_result)r), err.message);
    }
}

int main(int argc, char **argv)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    if (argc < 2) {
        fprintf(stderr, "usage: %s CORPUS_DIR [--only SUBSTRING]\n", argv[0]);
        return 2;
    }
    const char *only = argc > 3 && strcmp(argv[2], "--only") == 0 ? argv[3] : NULL;
    char path[4096];
    static char *paths[MAX_SHADERS];
    static char types[MAX_SHADERS][3];
    uint32_t count = corpus_shaders(argv[1], "vs", 1, paths, types);
    if (!count) {
        printf("SKIPPED: corpus not found at %s\n", argv[1]);
        return 77;
    }
    struct sb_rt_context *c = NULL;
    struct sb_error err = { 0 };
    struct sb_rt_context_options o = { .validation = true };
    enum sb_result r = sb_rt_context_create(&o, &c, &err);
    if (r != SB_SUCCESS) {
        printf("SKIPPED: no Vulkan device (%s)\n", err.message);
        return r == SB_ERROR_NO_DEVICE ? 77 : 1;
    }
    pin_driver();
    struct tally t = { 0 };
    for (uint32_t i = 0; i < count; i++) {
        const char *name = paths[i];
        if (only && !strstr(name, only))
            continue;
        snprintf(path, sizeof(path), "%.2000s/dxbc/%.2000s", argv[1], name);
        size_t size;
        void *bytes = read_file(path, &size);
        if (!bytes) {
            printf("FAILED %s: cannot read\n", name);
            t.failed++;
            continue;
        }
        run_shader(c, name, bytes, size, &t);
        free(bytes);
    }
    for (uint32_t i = 0; i < count; i++)
        free(paths[i]);
    printf("runtime draw corpus: %u vertex shaders: %u drawn, %u with validation errors, %u RUN_UNSUPPORTED, "
           "%u translation failures, %u other failures; %u validation errors in all\n",
           t.shaders, t.ok, t.validation_dirty, t.unsupported, t.translate_failed, t.failed,
           sb_rt_context_validation_errors(c));
    sb_rt_context_destroy(c);
    return t.shaders == 0 || t.validation_dirty || t.failed ? 1 : 0;
}
