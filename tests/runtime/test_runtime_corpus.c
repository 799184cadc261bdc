/* SPDX-License-Identifier: MIT */
/*
 * Every compute shader of the corpus (SB_CORPUS_DIR/dxbc/MANIFEST.tsv,
 * program_type cs) through sb_translate and one thread group of
 * sb_rt_dispatch on lavapipe under the validation layer, with resources
 * built from the translation's binding report and the IR's declarations:
 * 64 KiB buffers of a seeded pattern of small integers (small, so loops
 * bounded by buffer contents stay short), typed buffers and 16x16 textures
 * (4 layers, 6 per cube, 8 deep for 3D, one mip) in the 32-bit format of the
 * declared return type (RGBA for t#, one channel for u#, which covers a u#
 * the translator declares R32 for atomics or R32-only loads), one linear /
 * repeat sampler per s# (a comparison sampler for comparison samplers).
 *
 * A module that needs runtime descriptor arrays on a device without them is translated again
 * with unbounded_descriptor_count (translate.h) and UNBOUNDED_GIVEN descriptors.
 *
 * Outcomes are counted (success, SB_ERROR_RUN_UNSUPPORTED, translation
 * failures, other failures) and each non-success is printed. The run fails
 * on a crash, on any validation error of a successful dispatch, and on a
 * failure other than RUN_UNSUPPORTED or a translation failure.
 *
 * Usage: test_runtime_corpus CORPUS_DIR [--verbose] [--only SUBSTRING]: --verbose names each
 * shader before running it, --only runs the files whose path contains SUBSTRING. Exit 0 / 1, 77 without corpus or Vulkan.
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

/*
 * Keeps lavapipe loaded after the context is destroyed: unloading it leaves the LLVM caches
 * it built reachable from nowhere, which LeakSanitizer (SB_SANITIZE builds) reports as leaks
 * of an "<unknown module>". A no-op when that driver is not the one loaded.
 */
static void pin_driver(void)
{
    (void)dlopen("libvulkan_lvp.so", RTLD_NOW | RTLD_NOLOAD);
}

#define BUFFER_BYTES 65536u
#define MAX_RESOURCES 512
#define UNBOUNDED_GIVEN 4u

struct tally {
    unsigned shaders, ok, retried, unsupported, translate_failed, failed, validation_dirty;
    uint32_t validation_seen;
};

/* The IR's declarations (dimension, return type, sampler mode) of the shader. */
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

/* 32-bit formats by SM4 return type (§8.4: 3 sint, 4 uint, else float) and width (1 or 4). */
static uint32_t format_for(const struct sb_ir_resource *d, bool single)
{
    uint32_t ret = d ? d->return_type[0] : 5;
    if (ret == 3)
        return single ? SB_RT_FORMAT_R32_SINT : SB_RT_FORMAT_R32G32B32A32_SINT;
    if (ret == 4)
        return single ? SB_RT_FORMAT_R32_UINT : SB_RT_FORMAT_R32G32B32A32_UINT;
    return single ? SB_RT_FORMAT_R32_FLOAT : SB_RT_FORMAT_R32G32B32A32_FLOAT;
}

/* Small values: integers 0..15 for integer data, 0..1 for float textures. */
static void fill(void *data, size_t size, uint32_t seed, bool float_texels)
{
    uint32_t *w = data, x = seed * 2654435761u + 12345u;
    for (size_t i = 0; i < size / 4; i++) {
        x = x * 1664525u + 1013904223u;
        if (float_texels) {
            float f = (float)(x >> 24) / 255.0f;
            memcpy(&w[i], &f, 4);
        } else {
            w[i] = x >> 28;
        }
    }
}

/* Builds the resource of one register; false when out of memory. */
static bool build(struct sb_rt_resource *r, const struct sb_translated_binding *b, const struct sb_ir_resource *d,
                  uint32_t reg, uint32_t seed)
{
    memset(r, 0, sizeof(*r));
    r->resource_class = b->resource_class;
    r->space = b->space;
    r->register_index = reg;
    r->width = r->height = r->depth = r->layers = r->mip_levels = r->sample_count = 1;
    bool uav = b->resource_class == SB_IR_RESOURCE_UAV;
    if (b->resource_class == SB_IR_RESOURCE_SAMPLER) {
        r->sampler = (struct sb_rt_sampler){
            .mag_filter = SB_RT_FILTER_LINEAR, .min_filter = SB_RT_FILTER_LINEAR,
            .mip_filter = SB_RT_FILTER_LINEAR, .max_lod = 1000.0f,
            .compare = d && d->sampler_mode == 1, .compare_op = 3 /* VK_COMPARE_OP_LESS_OR_EQUAL */,
        };
        return true;
    }
    uint32_t dim = d && d->kind == SB_IR_RESOURCE_KIND_TYPED ? d->dimension : 0;
    if (b->resource_class != SB_IR_RESOURCE_CBV && dim) {
        r->dimension = dim;
        r->format = format_for(d, uav);
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

static void release(struct sb_rt_resource *res, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++)
        free(res[i].data);
}

/* Translates and dispatches one shader; returns the dispatch result (err filled) or 1 when
 * translation failed. */
static int dispatch_one(struct sb_rt_context *c, const void *bytes, size_t size,
                        const struct sb_translate_options *options, struct sb_error *err)
{
    struct sb_translation *tr = NULL;
    if (sb_translate(bytes, size, options, &tr, err) != SB_SUCCESS)
        return 1;
    struct sb_ir_program *ir = lower(bytes, size);
    static struct sb_rt_resource res[MAX_RESOURCES];
    uint32_t n = 0;
    bool oom = false;
    for (uint32_t i = 0; i < tr->binding_count && !oom; i++) {
        const struct sb_translated_binding *b = &tr->bindings[i];
        uint32_t count = b->count == UINT32_MAX ? UNBOUNDED_GIVEN : b->count;
        for (uint32_t e = 0; e < count && n < MAX_RESOURCES && !oom; e++, n++)
            oom = !build(&res[n], b, declared(ir, b), b->lower_bound + e, n);
    }
    enum sb_result r = oom ? SB_ERROR_OUT_OF_MEMORY
                           : sb_rt_dispatch(c, tr, res, n, (const uint32_t[3]){ 1, 1, 1 }, NULL, err);
    release(res, n);
    sb_ir_program_destroy(ir);
    sb_translation_destroy(tr);
    return (int)r;
}

/* Runs one shader; a device without runtime descriptor arrays gets the fixed-size translation
 * (translate.h: unbounded_descriptor_count) on a second try. Prints anything but a success. */
static void run_shader(struct sb_rt_context *c, const char *name, const void *bytes, size_t size, struct tally *t)
{
    struct sb_error err = { 0 };
    t->shaders++;
    int r = dispatch_one(c, bytes, size, NULL, &err);
    if (r == SB_ERROR_RUN_UNSUPPORTED && strstr(err.message, "RuntimeDescriptorArray")) {
        struct sb_translate_options fixed = { .target_env = SB_TARGET_VULKAN_1_1,
                                              .unbounded_descriptor_count = UNBOUNDED_GIVEN };
        t->retried++;
        r = dispatch_one(c, bytes, size, &fixed, &err);
    }
    uint32_t errors = sb_rt_context_validation_errors(c);
    if (r == SB_SUCCESS) {
        t->ok++;
        if (errors != t->validation_seen) {
            t->validation_dirty++;
            printf("VALIDATION %s: %u errors; first: %.400s\n", name, errors - t->validation_seen,
                   sb_rt_context_first_validation_error(c));
        }
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
    t->validation_seen = errors;
}

int main(int argc, char **argv)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    if (argc < 2) {
        fprintf(stderr, "usage: %s CORPUS_DIR\n", argv[0]);
        return 2;
    }
    char path[4096];
    static char *paths[MAX_SHADERS];
    static char types[MAX_SHADERS][3];
    uint32_t count = corpus_shaders(argv[1], "cs", 1, paths, types);
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
    bool verbose = false;
    const char *only = NULL;
    for (int i = 2; i < argc; i++) {
        if (strcmp(argv[i], "--verbose") == 0)
            verbose = true;
        else if (strcmp(argv[i], "--only") == 0 && i + 1 < argc)
            only = argv[++i];
    }
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
        if (verbose)
            printf("run %s\n", name);
        run_shader(c, name, bytes, size, &t);
        free(bytes);
    }
    for (uint32_t i = 0; i < count; i++)
        free(paths[i]);
    printf("runtime corpus: %u compute shaders: %u dispatched (%u with validation errors), %u "
           "RUN_UNSUPPORTED, %u translation failures, %u other failures; %u retried with fixed-size "
           "descriptor arrays; %u validation errors in all\n",
           t.shaders, t.ok, t.validation_dirty, t.unsupported, t.translate_failed, t.failed, t.retried,
           sb_rt_context_validation_errors(c));
    sb_rt_context_destroy(c);
    return t.shaders == 0 || t.validation_dirty || t.failed ? 1 : 0;
}
