/* SPDX-License-Identifier: MIT */
/*
 * Corpus smoke test of the CPU interpreter: every compute shader of
 * CORPUS/dxbc/MANIFEST.tsv (program_type cs) is parsed, decoded, lowered to
 * the IR and dispatched for one thread group on resources made for every
 * declaration — 64 KiB buffers and constant buffers filled with a seeded
 * pattern of small integers and floats in [0, 1) (so data-driven loops end),
 * 16x16 textures with 5 levels (16 deep for 3D, 6/12 layers for arrays and
 * cubes), R32 typed UAVs (atomics need them), linear repeating samplers.
 * Each dispatch must return SUCCESS, RUN_UNSUPPORTED (counted and listed) or
 * RUN_BUDGET (a data-dependent loop stopped by the budget); anything else —
 * and of course a crash or a hang — fails the test. Counts per outcome are
 * printed.
 *
 * With "graphics" after the corpus dir, every vertex and pixel shader (program_type
 * vs / ps) runs instead: 64 vertices, or 64 pixels at seeded positions, with the same
 * seeded pattern in every v# register. With "tess", every hull and domain shader (hs / ds):
 * 2 patches of seeded control points through every phase, or 32 seeded domain locations
 * over 2 patches of seeded control points and patch constants; there a RUN_UNSUPPORTED
 * fails the test too.
 *
 * Usage: test_interp_corpus CORPUS_DIR [graphics|tess]   (exit 77 when the corpus is absent)
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "corpus_list.h"
#include "shaderbridge/dxbc.h"
#include "shaderbridge/interp.h"
#include "translator/ir.h"
#include "translator/sm4.h"

#define RANGE_REGISTERS 64 /* registers made for an SM5.1 range (all of an unbounded one: 64) */
#define BUFFER_BYTES 65536u

static uint8_t *load(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    uint8_t *data = NULL;
    if (fseek(f, 0, SEEK_END) == 0) {
        long length = ftell(f);
        if (length >= 0 && fseek(f, 0, SEEK_SET) == 0) {
            data = malloc(length ? (size_t)length : 1);
            if (data && fread(data, 1, (size_t)length, f) != (size_t)length) {
                free(data);
                data = NULL;
            }
            *size = (size_t)length;
        }
    }
    fclose(f);
    return data;
}

static uint32_t hash(uint32_t x)
{
    x ^= x >> 16;
    x *= 0x7feb352dU;
    x ^= x >> 15;
    x *= 0x846ca68bU;
    x ^= x >> 16;
    return x;
}

/* Small integers and floats in [0, 1), from a seed. */
static void fill(uint8_t *data, size_t bytes, uint32_t seed)
{
    for (size_t i = 0; i + 4 <= bytes; i += 4) {
        uint32_t h = hash((uint32_t)i * 2654435761u ^ seed), v;
        if (h & 1) {
            v = (h >> 8) & 15u;
        } else {
            float f = (float)((h >> 8) & 0xFFFFu) / 65536.0f;
            memcpy(&v, &f, 4);
        }
        memcpy(data + i, &v, 4);
    }
}

static uint32_t format_for(const struct sb_ir_resource *d, bool uav)
{
    uint32_t t = d->return_type[0];
    if (uav)
        return t == 4 ? SB_RT_FORMAT_R32_UINT : t == 3 ? SB_RT_FORMAT_R32_SINT : SB_RT_FORMAT_R32_FLOAT;
    return t == 4 ? SB_RT_FORMAT_R32G32B32A32_UINT : t == 3 ? SB_RT_FORMAT_R32G32B32A32_SINT
                                                            : SB_RT_FORMAT_R32G32B32A32_FLOAT;
}

/* One table entry for register `reg` of declaration d (4 KiB buffers when `small`: big ranges). */
static bool make_one(const struct sb_ir_resource *d, uint32_t reg, struct sb_rt_resource *r, uint32_t seed, bool small)
{
    memset(r, 0, sizeof(*r));
    r->resource_class = d->resource_class;
    r->space = d->space;
    r->register_index = reg;
    r->layers = r->mip_levels = r->sample_count = 1;
    if (d->resource_class == SB_IR_RESOURCE_SAMPLER) {
        r->sampler.mag_filter = r->sampler.min_filter = r->sampler.mip_filter = SB_RT_FILTER_LINEAR;
        r->sampler.max_lod = 16.0f;
        return true;
    }
    bool typed = d->resource_class != SB_IR_RESOURCE_CBV && d->kind == SB_IR_RESOURCE_KIND_TYPED;
    if (typed) {
        bool uav = d->resource_class == SB_IR_RESOURCE_UAV;
        r->format = format_for(d, uav);
        r->dimension = d->dimension;
        uint32_t texel = sb_rt_format_size((enum sb_rt_format)r->format);
        if (d->dimension == 1) {
            r->width = (small ? BUFFER_BYTES / 16 : BUFFER_BYTES) / texel;
        } else {
            r->width = 16;
            r->height = (d->dimension == 2 || d->dimension == 7) ? 1 : 16;
            r->depth = d->dimension == 5 ? 16 : 1;
            r->layers = d->dimension == 10 ? 12 : (d->dimension >= 6 && d->dimension != 9) ? 6 : 1;
            r->mip_levels = uav || d->dimension == 4 || d->dimension == 9 ? 1 : 5;
            r->sample_count = d->dimension == 4 || d->dimension == 9 ? (d->sample_count ? d->sample_count : 1) : 1;
        }
        r->size = d->dimension == 1 ? (size_t)r->width * texel : sb_rt_texture_bytes(r);
    } else {
        r->size = small ? BUFFER_BYTES / 16 : BUFFER_BYTES;
    }
    r->data = malloc(r->size ? r->size : 1);
    if (!r->data)
        return false;
    fill(r->data, r->size, seed ^ reg);
    return true;
}

struct tally {
    unsigned shaders, lowered, success, unsupported, budget, other;
};

/* Registers of a file the signature declares (highest + 1). */
static uint32_t registers_of(const struct sb_ir_program *ir, uint32_t file)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < ir->signature_count; i++)
        if (ir->signature[i].file == file && ir->signature[i].register_index + 1 > n)
            n = ir->signature[i].register_index + 1;
    return n;
}

/* 64 vertices or 64 pixels (4 pixels apart, so quads never touch) with seeded v#. */
static enum sb_result run_graphics(const struct sb_ir_program *ir, struct sb_rt_resource *table, uint32_t count,
                                   const struct sb_interp_options *options, struct sb_interp_stats *stats,
                                   struct sb_error *err)
{
    enum { N = 64 };
    struct sb_interp_registers in = { registers_of(ir, SB_IR_FILE_INPUT), NULL };
    struct sb_interp_registers out = { registers_of(ir, SB_IR_FILE_OUTPUT), NULL };
    in.words = calloc((size_t)N * (in.registers ? in.registers : 1) * 4, 4);
    out.words = calloc((size_t)N * (out.registers ? out.registers : 1) * 4, 4);
    float pos[N * 4], depth[N];
    uint8_t discarded[N];
    enum sb_result r = SB_ERROR_OUT_OF_MEMORY;
    if (in.words && out.words) {
        fill((uint8_t *)in.words, (size_t)N * in.registers * 16, 77);
        for (uint32_t i = 0; i < N; i++) {
            pos[i * 4] = (float)(i % 8) * 4.0f + 0.5f + (float)(i & 1);
            pos[i * 4 + 1] = (float)(i / 8) * 4.0f + 0.5f + (float)((i >> 1) & 1);
            pos[i * 4 + 2] = 0.5f;
            pos[i * 4 + 3] = 1.0f;
        }
        struct sb_interp_pixel_results res = { depth, discarded, NULL, NULL };
        r = ir->stage == SB_IR_STAGE_VERTEX
                ? sb_interp_run_vertices(ir, table, count, N, &in, &out, options, stats, err)
                : sb_interp_run_pixels(ir, table, count, N, pos, &in, &out, &res, options, stats, err);
    }
    free(in.words);
    free(out.words);
    return r;
}

/* Does `mode` ("compute", "graphics", "tess") run programs of this stage? */
static bool stage_wanted(uint32_t stage, const char *mode)
{
    if (strcmp(mode, "graphics") == 0)
        return stage == SB_IR_STAGE_VERTEX || stage == SB_IR_STAGE_PIXEL;
    if (strcmp(mode, "tess") == 0)
        return stage == SB_IR_STAGE_HULL || stage == SB_IR_STAGE_DOMAIN;
    return stage == SB_IR_STAGE_COMPUTE;
}

/* Hull shaders: 2 patches of seeded input control points. Domain shaders: 2 patches of seeded
 * control points and patch constants, 32 points at seeded locations (u + v + w = 1 for tri).
 * Then the same run tracked (precision bounds, races, origins): it must succeed too and give
 * the same outputs word for word (tracking observes, it never changes a value). */
static enum sb_result run_tessellation(const struct sb_ir_program *ir, struct sb_rt_resource *table, uint32_t count,
                                       const struct sb_interp_options *options, struct sb_interp_stats *stats,
                                       struct sb_error *err)
{
    enum { PATCHES = 2, POINTS = 32 };
    bool hull = ir->stage == SB_IR_STAGE_HULL;
    uint32_t icp = ir->input_control_points, ocp = ir->output_control_points;
    struct sb_interp_registers in = { registers_of(ir, SB_IR_FILE_INPUT), NULL };
    struct sb_interp_registers out = { registers_of(ir, SB_IR_FILE_OUTPUT), NULL }, out2 = out;
    struct sb_interp_registers patch = { hull ? out.registers : registers_of(ir, SB_IR_FILE_INPUT_PATCH_CONSTANT),
                                         NULL }, patch2 = patch;
    size_t in_records = (size_t)PATCHES * (icp ? icp : 1);
    size_t out_words = (hull ? (size_t)PATCHES * (ocp ? ocp : 1) : POINTS) * (out.registers ? out.registers : 1) * 4;
    size_t patch_words = (size_t)PATCHES * (patch.registers ? patch.registers : 1) * 4;
    in.words = calloc(in_records * (in.registers ? in.registers : 1) * 4, 4);
    out.words = calloc(out_words, 4);
    out2.words = calloc(out_words, 4);
    patch.words = calloc(patch_words, 4);
    patch2.words = calloc(patch_words, 4);
    float *bounds = calloc(out_words + patch_words, sizeof(float));
    struct sb_interp_tess_factors factors[PATCHES];
    uint32_t patch_of_point[POINTS];
    float locations[POINTS * 3];
    enum sb_result r = SB_ERROR_OUT_OF_MEMORY;
    if (in.words && out.words && out2.words && patch.words && patch2.words && bounds) {
        fill((uint8_t *)in.words, in_records * in.registers * 16, 77);
        fill((uint8_t *)patch.words, (size_t)PATCHES * patch.registers * 16, 78);
        memcpy(patch2.words, patch.words, patch_words * 4);
        for (uint32_t i = 0; i < POINTS; i++) {
            float u = (float)(hash(i) & 0xFFu) / 512.0f, v = (float)(hash(i + 100) & 0xFFu) / 512.0f;
            patch_of_point[i] = i % PATCHES;
            locations[i * 3] = u;
            locations[i * 3 + 1] = v;
            locations[i * 3 + 2] = 1.0f - u - v;
        }
        struct sb_interp_hull_results res = { out, patch, factors, NULL, NULL };
        r = hull ? sb_interp_run_hull(ir, table, count, PATCHES, &in, &res, options, stats, err)
                 : sb_interp_run_domain(ir, table, count, POINTS, patch_of_point, locations, PATCHES, &in, &patch,
                                        &out, options, stats, err);
        struct sb_interp_tracking track = { .precision = true, .undefined = true, .origins = true };
        struct sb_interp_options tracked = *options;
        tracked.tracking = &track;
        struct sb_interp_hull_results res2 = { out2, patch2, factors, bounds, bounds + out_words };
        enum sb_result r2 = r != SB_SUCCESS ? r
                            : hull ? sb_interp_run_hull(ir, table, count, PATCHES, &in, &res2, &tracked, NULL, err)
                                   : sb_interp_run_domain(ir, table, count, POINTS, patch_of_point, locations, PATCHES,
                                                          &in, &patch2, &out2, &tracked, NULL, err);
        if (r == SB_SUCCESS && (r2 != SB_SUCCESS || memcmp(out.words, out2.words, out_words * 4) ||
                                (hull && memcmp(patch.words, patch2.words, patch_words * 4)))) {
            if (r2 == SB_SUCCESS)
                snprintf(err->message, sizeof(err->message), "the tracked run's outputs differ from the plain run's");
            r = r2 != SB_SUCCESS ? r2 : SB_ERROR_INVALID_ARGUMENT;
        }
        sb_interp_tracking_release(&track);
    }
    free(in.words);
    free(out.words);
    free(out2.words);
    free(patch.words);
    free(patch2.words);
    free(bounds);
    return r;
}

static void run_shader(const char *corpus, const char *file, struct tally *t, const char *mode)
{
    char path[4096];
    if (snprintf(path, sizeof(path), "%s/dxbc/%s", corpus, file) >= (int)sizeof(path)) {
        printf("path too long: %s/dxbc/%s\n", corpus, file);
        return;
    }
    size_t size = 0;
    uint8_t *bytes = load(path, &size);
    struct sb_dxbc *dxbc = NULL;
    struct sb_sm4_program *sm4 = NULL;
    struct sb_ir_program *ir = NULL;
    struct sb_error err;
    memset(&err, 0, sizeof(err));
    t->shaders++;
    if (!bytes || sb_dxbc_parse(bytes, size, &dxbc, &err) != SB_SUCCESS ||
        sb_sm4_decode_container(dxbc, &sm4, &err) != SB_SUCCESS || sb_ir_from_sm4(sm4, dxbc, &ir, &err) != SB_SUCCESS ||
        !stage_wanted(ir->stage, mode)) {
        printf("not lowered  %s: %s\n", file, err.message); /* the front end's tests own these */
        goto done;
    }
    t->lowered++;
    uint32_t count = 0, need = 0;
    for (uint32_t i = 0; i < ir->resource_count; i++)
        need += ir->resources[i].count > RANGE_REGISTERS ? RANGE_REGISTERS : ir->resources[i].count;
    struct sb_rt_resource *table = calloc(need ? need : 1, sizeof(*table));
    if (!table) {
        t->other++;
        goto done;
    }
    for (uint32_t i = 0; i < ir->resource_count; i++) {
        const struct sb_ir_resource *d = &ir->resources[i];
        uint32_t regs = d->count > RANGE_REGISTERS ? RANGE_REGISTERS : d->count;
        for (uint32_t k = 0; k < regs && count < need; k++)
            if (make_one(d, d->lower_bound + k, &table[count], hash(i + 1), regs > 8))
                count++;
    }
    const uint32_t groups[3] = { 1, 1, 1 };
    struct sb_interp_options options = { .instruction_budget = 1u << 18 };
    struct sb_interp_stats stats;
    memset(&stats, 0, sizeof(stats));
    enum sb_result r;
    if (strcmp(mode, "graphics") == 0)
        r = run_graphics(ir, table, count, &options, &stats, &err);
    else if (strcmp(mode, "tess") == 0)
        r = run_tessellation(ir, table, count, &options, &stats, &err);
    else
        r = sb_interp_dispatch(ir, table, count, groups, &options, &stats, &err);
    switch (r) {
    case SB_SUCCESS:
        t->success++;
        printf("ok           %s: %llu instructions, %llu lane instructions\n", file,
               (unsigned long long)stats.instructions, (unsigned long long)stats.lane_instructions);
        break;
    case SB_ERROR_RUN_UNSUPPORTED:
        t->unsupported++;
        printf("unsupported  %s:%llu: %s\n", file, (unsigned long long)err.offset, err.message);
        break;
    case SB_ERROR_RUN_BUDGET:
        t->budget++;
        printf("budget       %s:%llu: %s\n", file, (unsigned long long)err.offset, err.message);
        break;
    default:
        t->other++;
        fprintf(stderr, "FAIL         %s:%llu: %s: %s\n", file, (unsigned long long)err.offset, sb_result_name(r),
                err.message);
        break;
    }
    for (uint32_t i = 0; i < count; i++)
        free(table[i].data);
    free(table);
done:
    sb_ir_program_destroy(ir);
    sb_sm4_program_destroy(sm4);
    sb_dxbc_destroy(dxbc);
    free(bytes);
}

int main(int argc, char **argv)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    if (argc < 2) {
        fprintf(stderr, "usage: %s CORPUS_DIR [graphics|tess]\n", argv[0]);
        return 2;
    }
    const char *mode = argc > 2 ? argv[2] : "compute";
    bool tess = strcmp(mode, "tess") == 0;
    static char *paths[MAX_SHADERS];
    static char types[MAX_SHADERS][3];
    uint32_t count = corpus_shaders(argv[1], strcmp(mode, "graphics") == 0 ? "vs,ps" : tess ? "hs,ds" : "cs", 1,
                                    paths, types);
    if (!count) {
        printf("SKIPPED: corpus not found at %s\n", argv[1]);
        return 77;
    }
    struct tally t = { 0 };
    for (uint32_t i = 0; i < count; i++) {
        run_shader(argv[1], paths[i], &t, mode);
        free(paths[i]);
    }
    printf("interp corpus: %u %s shaders, %u lowered: %u ran, %u unsupported, %u stopped by the budget, "
           "%u other errors\n", t.shaders, tess ? "hull/domain" : argc > 2 ? "vertex/pixel" : "compute", t.lowered,
           t.success, t.unsupported, t.budget, t.other);
    /* Hull and domain programs use nothing the other stages do not run: none may be refused. */
    return t.other || !t.lowered || (tess && t.unsupported) ? 1 : 0;
}
