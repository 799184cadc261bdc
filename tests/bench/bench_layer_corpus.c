/* SPDX-License-Identifier: MIT */
/*
 * bench_layer --corpus DIR: the issue #7 cache target on real shaders rather
 * than one tiny one. Every row of DIR/MANIFEST.tsv with a shader program type
 * (vs/ps/gs/hs/ds/cs) that sb_translate accepts, or with --limit N an evenly
 * spaced (deterministic) sample of N of them, is measured on five devices
 * open at once:
 *   plain   its SPIR-V (sb_translate here, the options the layer uses for an
 *           application asking for Vulkan 1.1) without the layer: the driver's share
 *   pass    the same SPIR-V through the layer (pass-through)
 *   cold    the DXBC through the layer with both caches off (a translation per call)
 *   cached  the DXBC through the layer with the in-process cache warm, shared
 *           modules off (the driver creates a module per call)
 *   shared  the same with shared modules (the default): the driver module the
 *           layer keeps is handed out again
 * The cases are interleaved call by call, each leading in turn, for
 * --iters rounds (cold in --cold of them, evenly spaced), so load on the shared
 * machine hits all five alike; per shader the median and the minimum of its
 * calls are kept. Printed, for both statistics: sums over the set,
 * sum(cold)/sum(shared) and sum(cold)/sum(cached), the median (and 10th/90th
 * percentile) of per-shader ratios, the layer's own share of a cached call (a
 * call minus the pass-through call of the same module), and the driver's share
 * of cold and cached calls.
 * The corpus is read in place (never copied); exit 77 when it is absent.
 */
#define _POSIX_C_SOURCE 200809L

#include "bench_layer.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shaderbridge/translate.h"

enum { PLAIN, PASS, COLD, CACHED, SHARED, CASES };

struct shader {
    char *name;
    struct bench_blob dxbc, spirv;
    double median[CASES], min[CASES];
};

struct corpus {
    struct shader *shaders;
    size_t count, capacity;
    size_t rows, rejected; /* shader rows in the manifest; of those, not translated */
};

static bool is_shader_type(const char *type)
{
    static const char *const types[] = { "vs", "ps", "gs", "hs", "ds", "cs" };
    for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++)
        if (!strcmp(type, types[i]))
            return true;
    return false;
}

/* Reads one manifest row's shader and its translation into `c` (rejected ones are counted). */
static void load_row(struct corpus *c, const char *dir, const char *file)
{
    char path[4096];
    snprintf(path, sizeof(path), "%s/%s", dir, file);
    struct bench_blob dxbc = bench_read_blob(path);
    struct sb_translate_options opts = { .target_env = SB_TARGET_VULKAN_1_1 };
    struct sb_translation *tr = NULL;
    struct sb_error err = { 0 };
    c->rows++;
    if (c->count == c->capacity) {
        size_t cap = c->capacity ? 2 * c->capacity : 256;
        struct shader *grown = realloc(c->shaders, cap * sizeof(*grown));
        if (grown) {
            c->shaders = grown;
            c->capacity = cap;
        }
    }
    if (!dxbc.size || c->count == c->capacity ||
        sb_translate(dxbc.bytes, dxbc.size, &opts, &tr, &err) != SB_SUCCESS) {
        c->rejected++;
        sb_translation_destroy(tr);
        free(dxbc.bytes);
        return;
    }
    struct shader *s = &c->shaders[c->count];
    memset(s, 0, sizeof(*s));
    s->spirv.size = tr->word_count * 4;
    s->spirv.bytes = malloc(s->spirv.size);
    s->name = strdup(file);
    if (s->spirv.bytes && s->name) {
        memcpy(s->spirv.bytes, tr->words, s->spirv.size);
        s->dxbc = dxbc;
        c->count++;
    } else {
        free(s->spirv.bytes);
        free(s->name);
        free(dxbc.bytes);
        c->rejected++;
    }
    sb_translation_destroy(tr);
}

/* Loads the manifest's shader rows. False when the manifest is missing. */
static bool load_corpus(const char *dir, struct corpus *c)
{
    char path[4096];
    snprintf(path, sizeof(path), "%s/MANIFEST.tsv", dir);
    FILE *f = fopen(path, "r");
    if (!f)
        return false;
    char line[8192];
    bool header = true;
    while (fgets(line, sizeof(line), f)) {
        char *fields[4] = { 0 }, *save = NULL, *tok = strtok_r(line, "\t\n", &save);
        for (int i = 0; tok && i < 4; i++, tok = i < 4 ? strtok_r(NULL, "\t\n", &save) : NULL)
            fields[i] = tok;
        if (!header && fields[3] && is_shader_type(fields[3]))
            load_row(c, dir, fields[0]);
        header = false;
    }
    fclose(f);
    return true;
}

static void free_shader(struct shader *s)
{
    free(s->name);
    free(s->dxbc.bytes);
    free(s->spirv.bytes);
}

/* Keeps `limit` shaders spread evenly over the set (the same ones every run). */
static void sample(struct corpus *c, size_t limit)
{
    if (!limit || limit >= c->count)
        return;
    size_t n = c->count;
    bool *keep = calloc(n, sizeof(*keep));
    if (!keep)
        return;
    for (size_t i = 0; i < limit; i++)
        keep[i * n / limit] = true;
    size_t out = 0;
    for (size_t i = 0; i < n; i++) {
        if (keep[i])
            c->shaders[out++] = c->shaders[i];
        else
            free_shader(&c->shaders[i]);
    }
    c->count = out;
    free(keep);
}

/* The cases of one shader, interleaved call by call. */
static void measure(const struct bench_gpu gpus[CASES], struct shader *s, int rounds, int cold_rounds,
                    double *scratch, int *failed)
{
    const struct bench_blob *code[CASES] = { &s->spirv, &s->spirv, &s->dxbc, &s->dxbc, &s->dxbc };
    int ignored = 0;
    for (int k = 0; k < CASES; k++) /* warm-up: fills the in-process caches of CACHED and SHARED */
        bench_call_ns(&gpus[k], code[k], &ignored);
    double *t[CASES];
    for (int k = 0; k < CASES; k++)
        t[k] = scratch + (size_t)k * (size_t)rounds;
    /* cold calls in every (rounds / cold_rounds)-th round: over the same time as the others */
    int done[CASES] = { 0 }, stride = rounds / cold_rounds;
    for (int r = 0; r < rounds; r++)
        for (int j = 0; j < CASES; j++) {
            int k = (j + r) % CASES; /* each case leads in turn: no order bias */
            if (k != COLD || (r % stride == 0 && done[k] < cold_rounds))
                t[k][done[k]++] = bench_call_ns(&gpus[k], code[k], failed);
        }
    for (int k = 0; k < CASES; k++) {
        size_t n = (size_t)done[k];
        s->min[k] = bench_min(t[k], n);
        s->median[k] = bench_median(t[k], n);
    }
}

/* Percentile `p` (0..1) of the per-shader ratios num/den where den > 0 (sorted in place). */
static double ratio_percentile(const double *num, const double *den, size_t n, double p, double *tmp, size_t *used)
{
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (den[i] > 0)
            tmp[m++] = num[i] / den[i];
    *used = m;
    if (!m)
        return 0;
    bench_median(tmp, m); /* sorts */
    size_t at = (size_t)(p * (double)(m - 1) + 0.5);
    return tmp[at];
}

static void print_ratio(const char *what, const double *num, const double *den, size_t n, double *tmp)
{
    double sn = 0, sd = 0;
    for (size_t i = 0; i < n; i++) {
        sn += num[i];
        sd += den[i];
    }
    size_t used = 0;
    double p10 = ratio_percentile(num, den, n, 0.1, tmp, &used);
    double p50 = ratio_percentile(num, den, n, 0.5, tmp, &used);
    double p90 = ratio_percentile(num, den, n, 0.9, tmp, &used);
    printf("    %-36s sum/sum %7.1fx   per-shader median %7.1fx  (p10 %.1fx, p90 %.1fx)", what,
           sd > 0 ? sn / sd : 0.0, p50, p10, p90);
    if (used < n)
        printf("  [%zu shaders with a cached share <= 0 left out of the per-shader figures]", n - used);
    printf("\n");
}

/* One statistic (per-shader medians or minimums) over the set. */
static void report(const struct corpus *c, bool use_min, double *buf)
{
    size_t n = c->count;
    double *v[CASES], *share_cold = buf + CASES * n, *share_cached = buf + (CASES + 1) * n;
    double *tmp = buf + (CASES + 2) * n, sum[CASES] = { 0 }, med[CASES];
    for (int k = 0; k < CASES; k++) {
        v[k] = buf + (size_t)k * n;
        for (size_t i = 0; i < n; i++) {
            v[k][i] = use_min ? c->shaders[i].min[k] : c->shaders[i].median[k];
            sum[k] += v[k][i];
        }
        memcpy(tmp, v[k], n * sizeof(*tmp));
        med[k] = bench_median(tmp, n);
    }
    for (size_t i = 0; i < n; i++) {
        share_cold[i] = v[COLD][i] - v[PASS][i];
        share_cached[i] = v[CACHED][i] - v[PASS][i];
    }
    static const char *const names[CASES] = { "SPIR-V, no layer (driver)", "SPIR-V through the layer",
                                              "DXBC cold (translated)", "DXBC cached, sharing off",
                                              "DXBC cached, shared module" };
    printf("  per shader: the %s of its calls\n", use_min ? "minimum" : "median");
    for (int k = 0; k < CASES; k++)
        printf("    %-36s sum %10.3f ms   median over shaders %9.3f us\n", names[k], sum[k] / 1e6, med[k] / 1e3);
    print_ratio("whole call, cold / shared:", v[COLD], v[SHARED], n, tmp);
    print_ratio("whole call, cold / cached (sharing off):", v[COLD], v[CACHED], n, tmp);
    print_ratio("layer's own share, cold / cached:", share_cold, share_cached, n, tmp);
    double sc = 0, sk = 0;
    for (size_t i = 0; i < n; i++) {
        sc += share_cold[i];
        sk += share_cached[i];
    }
    printf("    layer's own share: cold %.3f ms, cached (sharing off) %.3f ms (sums; per call = call - pass-through)\n",
           sc / 1e6, sk / 1e6);
    printf("    driver's share (no-layer SPIR-V / call, sums): %.0f%% of cold calls, %.0f%% of cached calls "
           "(sharing off), none of a shared call\n", 100 * sum[PLAIN] / sum[COLD], 100 * sum[PLAIN] / sum[CACHED]);
    printf("    pass-through overhead (pass - plain, sums / shaders): %.3f us per call\n",
           (sum[PASS] - sum[PLAIN]) / (double)n / 1e3);
}

static void write_csv(const struct corpus *c, const char *path)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "bench_layer: cannot write %s\n", path);
        return;
    }
    fprintf(f, "file,dxbc_bytes,spirv_bytes,plain_med_ns,pass_med_ns,cold_med_ns,cached_med_ns,shared_med_ns,"
               "plain_min_ns,pass_min_ns,cold_min_ns,cached_min_ns,shared_min_ns\n");
    for (size_t i = 0; i < c->count; i++) {
        const struct shader *s = &c->shaders[i];
        fprintf(f, "%s,%zu,%zu", s->name, s->dxbc.size, s->spirv.size);
        for (int k = 0; k < CASES; k++)
            fprintf(f, ",%.0f", s->median[k]);
        for (int k = 0; k < CASES; k++)
            fprintf(f, ",%.0f", s->min[k]);
        fprintf(f, "\n");
    }
    fclose(f);
}

static int open_gpus(struct bench_gpu gpus[CASES])
{
    int rc = bench_gpu_open(&gpus[PLAIN]);
    if (!rc)
        rc = bench_layer_open(&gpus[PASS], "1", "1", NULL);
    if (!rc)
        rc = bench_layer_open(&gpus[COLD], "0", "0", NULL);
    if (!rc)
        rc = bench_layer_open(&gpus[CACHED], "1", "0", NULL);
    if (!rc)
        rc = bench_layer_open(&gpus[SHARED], "1", "1", NULL);
    return rc;
}

int bench_corpus(const char *dxbc_dir, int limit, int rounds, int cold_rounds, const char *csv_path)
{
    struct corpus c = { 0 };
    if (!load_corpus(dxbc_dir, &c)) {
        printf("SKIPPED: corpus not found at %s\n", dxbc_dir);
        return 77;
    }
    size_t accepted = c.count;
    sample(&c, (size_t)limit);
    if (cold_rounds > rounds)
        cold_rounds = rounds;
    struct bench_gpu gpus[CASES];
    int rc = open_gpus(gpus);
    double *buf = calloc((CASES + 3) * (c.count ? c.count : 1) + (size_t)CASES * (size_t)rounds, sizeof(*buf));
    int failed = 0;
    for (size_t i = 0; !rc && buf && i < c.count; i++)
        measure(gpus, &c.shaders[i], rounds, cold_rounds, buf, &failed);
    if (!rc && buf && c.count) {
        printf("corpus %s: %zu shader rows, %zu translated (%zu not), %zu measured%s\n", dxbc_dir, c.rows, accepted,
               c.rejected, c.count, c.count < accepted ? " (an evenly spaced sample)" : "");
        printf("vkCreateShaderModule + vkDestroyShaderModule, per shader %d interleaved rounds (%d cold)\n", rounds,
               cold_rounds);
        report(&c, false, buf);
        report(&c, true, buf);
        if (csv_path)
            write_csv(&c, csv_path);
    }
#ifndef BENCH_ASAN
    /* Under LeakSanitizer the driver stays loaded (as in the one-shader mode). */
    for (int k = CASES - 1; !rc && k >= 0; k--)
        bench_gpu_close(&gpus[k]);
#endif
    for (size_t i = 0; i < c.count; i++)
        free_shader(&c.shaders[i]);
    free(c.shaders);
    free(buf);
    if (failed)
        printf("FAIL: %d calls failed\n", failed);
    return rc ? rc : failed || !c.count ? 1 : 0;
}
