/* SPDX-License-Identifier: MIT */
/*
 * vkCreateShaderModule + vkDestroyShaderModule through VK_LAYER_SHADERBRIDGE_translate
 * (issue #7 §5), on the first device (lavapipe under ctest), without the
 * validation layer so the figures are the layer's own. Two modes:
 *
 * One shader (samples/saxpy_cs_5_0.dxbc under ctest), six cases, each on its
 * own device (all open at once) and interleaved call by call:
 *   spirv   the shader's translation (sb_translate here) without the layer
 *   layer   the same through the layer (pass-through overhead; goal < 1 us median)
 *   cold    the DXBC with both caches off: a translation per call
 *   memory  the same with the in-process cache, shared modules off (a driver
 *           module per creation)
 *   shared  the in-process cache with shared modules (the default): the repeat
 *           creation gets the driver module the layer keeps
 *   disk    the same with only the disk cache (a file read per call)
 *
 * Corpus (--corpus DIR, bench_layer_corpus.c): every DXBC of DIR/MANIFEST.tsv the
 * translator accepts, or a deterministic sample, with the cases interleaved per
 * shader; see there.
 *
 * Goal (issue #7): cached >= 20x faster than cold. The SPIR-V module is the shader's
 * own translation, so its no-layer time is the driver's share of every DXBC call;
 * whole-call ratios and the layer's own share (a call minus the same module's
 * SPIR-V call, through the layer and without it) are all printed. Each call is
 * timed on its own (clock_gettime, monotonic).
 *
 * Usage: bench_layer MANIFEST_DIR SAXPY_DXBC [--iters N] [--cold N] [--only CASE]
 *        bench_layer MANIFEST_DIR --corpus DXBC_DIR [--limit N] [--iters N] [--cold N] [--csv FILE]
 * --only spirv|layer|cold|memory|shared|disk runs one case (for perf record). The layer is
 * enabled by name and found through VK_ADD_LAYER_PATH=MANIFEST_DIR.
 * Exit 0, 1 on a failing call, 77 without a Vulkan device (or without the corpus).
 */
#define _POSIX_C_SOURCE 200809L

#include "bench_layer.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "shaderbridge/translate.h"

struct bench_blob bench_read_blob(const char *path)
{
    struct bench_blob b = { 0 };
    FILE *f = fopen(path, "rb");
    if (!f)
        return b;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    b.bytes = n > 0 ? malloc((size_t)n) : NULL;
    if (b.bytes && fread(b.bytes, 1, (size_t)n, f) == (size_t)n)
        b.size = (size_t)n;
    fclose(f);
    return b;
}

static int gpu_open(struct bench_gpu *g, bool layer)
{
    const char *name = "VK_LAYER_SHADERBRIDGE_translate";
    VkApplicationInfo app = { .sType = VK_STRUCTURE_TYPE_APPLICATION_INFO, .apiVersion = VK_API_VERSION_1_1 };
    VkInstanceCreateInfo ii = { .sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO, .pApplicationInfo = &app,
                                .enabledLayerCount = layer ? 1 : 0, .ppEnabledLayerNames = &name };
    VkResult r = vkCreateInstance(&ii, NULL, &g->instance);
    if (r != VK_SUCCESS) {
        printf("%s: vkCreateInstance: %d\n", layer ? "layer" : "no layer", r);
        return r == VK_ERROR_INCOMPATIBLE_DRIVER ? 77 : 1;
    }
    /* Instance-level pointers are the loader's trampolines, valid for every instance. */
    volkLoadInstanceOnly(g->instance);
    uint32_t count = 1;
    VkPhysicalDevice physical = VK_NULL_HANDLE;
    r = vkEnumeratePhysicalDevices(g->instance, &count, &physical);
    if ((r != VK_SUCCESS && r != VK_INCOMPLETE) || !count)
        return 77;
    float priority = 1.0f;
    VkDeviceQueueCreateInfo qi = { .sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO, .queueCount = 1,
                                   .pQueuePriorities = &priority };
    VkDeviceCreateInfo di = { .sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, .queueCreateInfoCount = 1,
                              .pQueueCreateInfos = &qi };
    r = vkCreateDevice(physical, &di, NULL, &g->device);
    if (r != VK_SUCCESS) {
        printf("vkCreateDevice: %d\n", r);
        return 1;
    }
    PFN_vkGetDeviceProcAddr gdpa = (PFN_vkGetDeviceProcAddr)vkGetInstanceProcAddr(g->instance, "vkGetDeviceProcAddr");
    g->create = (PFN_vkCreateShaderModule)gdpa(g->device, "vkCreateShaderModule");
    g->destroy = (PFN_vkDestroyShaderModule)gdpa(g->device, "vkDestroyShaderModule");
    return g->create && g->destroy ? 0 : 1;
}

int bench_gpu_open(struct bench_gpu *g)
{
    return gpu_open(g, false);
}

int bench_layer_open(struct bench_gpu *g, const char *memory_cache, const char *share, const char *cache_dir)
{
    setenv("SHADERBRIDGE_LAYER_MEMORY_CACHE", memory_cache, 1);
    setenv("SHADERBRIDGE_LAYER_SHARE_MODULES", share, 1);
    if (cache_dir)
        setenv("SHADERBRIDGE_LAYER_CACHE_DIR", cache_dir, 1);
    else
        unsetenv("SHADERBRIDGE_LAYER_CACHE_DIR");
    return gpu_open(g, true);
}

void bench_gpu_close(struct bench_gpu *g)
{
    PFN_vkDestroyDevice destroy_device =
        (PFN_vkDestroyDevice)vkGetInstanceProcAddr(g->instance, "vkDestroyDevice");
    destroy_device(g->device, NULL);
    vkDestroyInstance(g->instance, NULL);
}

double bench_now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

double bench_call_ns(const struct bench_gpu *g, const struct bench_blob *code, int *failed)
{
    VkShaderModuleCreateInfo info = { .sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO,
                                      .codeSize = code->size, .pCode = (const uint32_t *)code->bytes };
    VkShaderModule m;
    double start = bench_now_ns();
    VkResult r = g->create(g->device, &info, NULL, &m);
    if (r == VK_SUCCESS)
        g->destroy(g->device, m, NULL);
    double t = bench_now_ns() - start;
    *failed += r != VK_SUCCESS;
    return t;
}

static int compare(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double bench_median(double *v, size_t n)
{
    qsort(v, n, sizeof(*v), compare);
    return n ? v[n / 2] : 0;
}

double bench_min(const double *v, size_t n)
{
    double m = n ? v[0] : 0;
    for (size_t i = 1; i < n; i++)
        m = v[i] < m ? v[i] : m;
    return m;
}

/* ---- one shader ------------------------------------------------------------------------------------ */

/* The cases, each on its own device, all open at once; --only runs one. */
enum { CASE_SPIRV, CASE_LAYER, CASE_COLD, CASE_MEMORY, CASE_SHARED, CASE_DISK, CASE_COUNT };

static const char *const case_names[CASE_COUNT] = { "spirv", "layer", "cold", "memory", "shared", "disk" };
static const char *const case_titles[CASE_COUNT] = {
    "SPIR-V, no layer", "SPIR-V, through the layer", "DXBC, cold (translated every call)",
    "DXBC, in-process cache, sharing off", "DXBC, in-process cache, shared module", "DXBC, disk cache only",
};

struct figure {
    double median_ns, min_ns;
};

static int open_case(int k, struct bench_gpu *g, const char *cache_dir)
{
    switch (k) {
    case CASE_SPIRV: return bench_gpu_open(g);
    case CASE_LAYER: return bench_layer_open(g, "1", "1", NULL);
    case CASE_COLD: return bench_layer_open(g, "0", "0", NULL);
    case CASE_MEMORY: return bench_layer_open(g, "1", "0", NULL);
    case CASE_SHARED: return bench_layer_open(g, "1", "1", NULL);
    default: return bench_layer_open(g, "0", "0", cache_dir);
    }
}

/* `iters` rounds, each one call of every selected case in turn (cold only in every
 * (iters / cold_iters)-th round, so its calls spread over the same time as the others'),
 * so a burst of load on the shared machine hits all cases alike; one untimed warm-up
 * call per case first (it fills the caches). */
static void time_rounds(const struct bench_gpu *g, const struct bench_blob *code[CASE_COUNT], unsigned cases,
                        int iters, int cold_iters, struct figure out[CASE_COUNT], int *failed)
{
    double *t[CASE_COUNT] = { 0 };
    int n[CASE_COUNT], done[CASE_COUNT] = { 0 }, ignored = 0, stride = iters / cold_iters;
    for (int k = 0; k < CASE_COUNT; k++) {
        n[k] = k == CASE_COLD ? cold_iters : iters;
        if (cases & (1u << k)) {
            t[k] = calloc((size_t)n[k], sizeof(double));
            bench_call_ns(&g[k], code[k], &ignored);
        }
    }
    for (int r = 0; r < iters; r++)
        for (int j = 0; j < CASE_COUNT; j++) {
            int k = (j + r) % CASE_COUNT; /* each case leads in turn: no order bias */
            if (t[k] && done[k] < n[k] && (k != CASE_COLD || r % stride == 0))
                t[k][done[k]++] = bench_call_ns(&g[k], code[k], failed);
        }
    for (int k = 0; k < CASE_COUNT; k++) {
        if (t[k])
            out[k] = (struct figure){ bench_median(t[k], (size_t)done[k]), t[k][0] };
        free(t[k]);
    }
}

/* The layer's own share of the in-process (sharing off) and disk cases: a call minus the
 * SPIR-V call of the same module through the layer, or without it. */
static void print_shares(const struct figure f[CASE_COUNT])
{
    struct figure plain = f[CASE_SPIRV], pass = f[CASE_LAYER], cold = f[CASE_COLD], memory = f[CASE_MEMORY];
    struct figure disk = f[CASE_DISK];
    /* The SPIR-V is the shader's own translation: through the layer it is a DXBC call
     * without the layer's translation work (the brief's "layer's own share" baseline);
     * without the layer it is the driver's share. */
    const struct figure *base[2] = { &pass, &plain };
    static const char *const base_names[2] = { "call - SPIR-V through the layer", "call - SPIR-V without the layer" };
    for (int b = 0; b < 2; b++) {
        double c = cold.median_ns - base[b]->median_ns, m = memory.median_ns - base[b]->median_ns;
        double d = disk.median_ns - base[b]->median_ns;
        double cm = cold.min_ns - base[b]->min_ns, mm = memory.min_ns - base[b]->min_ns;
        printf("  layer's own share (%s), sharing off: cold %.3f us, in-process %.3f us, disk %.3f us (medians); "
               "cold %.3f us, in-process %.3f us (mins)\n", base_names[b], c / 1e3, m / 1e3, d / 1e3, cm / 1e3,
               mm / 1e3);
        printf("    cold / in-process cache: ");
        if (m > 0)
            printf("%.1fx median", c / m);
        else
            printf("(in-process share <= 0 at the median: below the noise)");
        /* a difference of two minimums under 50 ns is the timer's and the machine's noise */
        if (mm >= 50)
            printf(", %.1fx min", cm / mm);
        else
            printf(", min: in-process share < 0.05 us (noise)");
        if (d > 0)
            printf("; cold / disk cache: %.1fx median", c / d);
        printf("\n");
    }
}

static void print_ratios(const struct figure f[CASE_COUNT])
{
    struct figure plain = f[CASE_SPIRV], pass = f[CASE_LAYER], cold = f[CASE_COLD], memory = f[CASE_MEMORY];
    struct figure shared = f[CASE_SHARED], disk = f[CASE_DISK];
    printf("  pass-through overhead (median difference): %.3f us (goal < 1 us)\n",
           (pass.median_ns - plain.median_ns) / 1e3);
    printf("  whole call, cold / in-process cache with a shared module: %.1fx median, %.1fx min (goal >= 20x)\n",
           cold.median_ns / shared.median_ns, cold.min_ns / shared.min_ns);
    printf("  whole call, cold / in-process cache, sharing off: %.1fx median, %.1fx min; cold / disk cache: "
           "%.1fx median, %.1fx min\n", cold.median_ns / memory.median_ns, cold.min_ns / memory.min_ns,
           cold.median_ns / disk.median_ns, cold.min_ns / disk.min_ns);
    /* A shared call does not reach the driver: the whole call is the layer's. */
    printf("  shared call / SPIR-V call without the layer (the driver's create + destroy): %.2f median, %.2f min\n",
           shared.median_ns / plain.median_ns, shared.min_ns / plain.min_ns);
    print_shares(f);
    printf("  driver's share of a call (SPIR-V without the layer / call, medians): %.0f%% cold, %.0f%% in-process "
           "cache (sharing off), %.0f%% disk cache; 0%% of a shared call\n", 100 * plain.median_ns / cold.median_ns,
           100 * plain.median_ns / memory.median_ns, 100 * plain.median_ns / disk.median_ns);
}

static int run_cases(const struct bench_blob *dxbc, const struct bench_blob *spirv, int iters, int cold_iters,
                     unsigned cases)
{
    char cache_dir[] = "/tmp/sb_bench_layer.XXXXXX";
    if (!mkdtemp(cache_dir))
        return 1;
    const struct bench_blob *code[CASE_COUNT] = { spirv, spirv, dxbc, dxbc, dxbc, dxbc };
    struct bench_gpu g[CASE_COUNT];
    struct figure f[CASE_COUNT] = { { 0, 0 } };
    int failed = 0, rc = 0, opened = 0;
    for (; !rc && opened < CASE_COUNT; opened++)
        if (cases & (1u << opened))
            rc = open_case(opened, &g[opened], cache_dir);
    if (!rc)
        time_rounds(g, code, cases, iters, cold_iters, f, &failed);
#ifndef BENCH_ASAN
    /* Under LeakSanitizer the driver stays loaded: an unloaded driver's static caches
     * would read as leaks. */
    for (int k = opened - 1; !rc && k >= 0; k--)
        if (cases & (1u << k))
            bench_gpu_close(&g[k]);
#endif
    if (!rc) {
        printf("vkCreateShaderModule + vkDestroyShaderModule, %d interleaved rounds (%d cold), per call:\n", iters,
               cold_iters);
        for (int k = 0; k < CASE_COUNT; k++)
            if (cases & (1u << k))
                printf("  %-44s median %9.3f us   min %9.3f us\n", case_titles[k], f[k].median_ns / 1e3,
                       f[k].min_ns / 1e3);
        if (cases == (1u << CASE_COUNT) - 1)
            print_ratios(f);
    }
    /* The disk entries this run wrote. */
    char cmd[128];
    snprintf(cmd, sizeof(cmd), "rm -rf %s", cache_dir);
    if (system(cmd) != 0)
        fprintf(stderr, "bench_layer: could not remove %s\n", cache_dir);
    if (failed)
        printf("FAIL: %d calls failed\n", failed);
    return rc ? rc : failed ? 1 : 0;
}

static int one_shader(const char *path, int iters, int cold_iters, unsigned cases)
{
    struct bench_blob dxbc = bench_read_blob(path), spirv = { 0 };
    struct sb_translation *tr = NULL;
    struct sb_error err = { 0 };
    if (dxbc.size && sb_translate(dxbc.bytes, dxbc.size, NULL, &tr, &err) == SB_SUCCESS) {
        spirv.size = tr->word_count * 4;
        spirv.bytes = malloc(spirv.size);
        if (spirv.bytes)
            memcpy(spirv.bytes, tr->words, spirv.size);
    }
    sb_translation_destroy(tr);
    int rc = 1;
    if (!dxbc.size || !spirv.bytes)
        fprintf(stderr, "bench_layer: cannot read or translate %s: %s\n", path, err.message);
    else
        rc = run_cases(&dxbc, &spirv, iters, cold_iters, cases);
    free(dxbc.bytes);
    free(spirv.bytes);
    return rc;
}

static unsigned case_named(const char *name)
{
    for (int i = 0; i < CASE_COUNT; i++)
        if (!strcmp(name, case_names[i]))
            return 1u << i;
    return 0;
}

int main(int argc, char **argv)
{
    const char *corpus = NULL, *csv = NULL;
    int iters = -1, cold_iters = -1, limit = 0;
    unsigned cases = (1u << CASE_COUNT) - 1;
    bool bad = argc < 3 || (argc == 3 && !strcmp(argv[2], "--corpus"));
    int i = 2;
    if (argc >= 4 && !strcmp(argv[2], "--corpus")) {
        corpus = argv[3];
        i = 4;
    } else {
        i = 3;
    }
    for (; !bad && i < argc; i += 2) {
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!v)
            bad = true;
        else if (!strcmp(argv[i], "--iters"))
            iters = atoi(v);
        else if (!strcmp(argv[i], "--cold"))
            cold_iters = atoi(v);
        else if (!strcmp(argv[i], "--limit") && corpus)
            limit = atoi(v);
        else if (!strcmp(argv[i], "--csv") && corpus)
            csv = v;
        else if (!strcmp(argv[i], "--only") && !corpus)
            bad = !(cases = case_named(v));
        else
            bad = true;
    }
    if (bad || !iters || !cold_iters || iters < -1 || cold_iters < -1 || limit < 0) {
        fprintf(stderr, "usage: bench_layer MANIFEST_DIR SAXPY_DXBC [--iters N] [--cold N] "
                        "[--only spirv|layer|cold|memory|shared|disk]\n"
                        "       bench_layer MANIFEST_DIR --corpus DXBC_DIR [--limit N] [--iters N] [--cold N] "
                        "[--csv FILE]\n");
        return 2;
    }
    setenv("VK_ADD_LAYER_PATH", argv[1], 1);
    unsetenv("VK_INSTANCE_LAYERS");
    unsetenv("SHADERBRIDGE_LAYER_DUMP_DIR");
    setenv("SHADERBRIDGE_LAYER_LOG", "error", 1);
    if (volkInitialize() != VK_SUCCESS) {
        printf("SKIPPED: no Vulkan loader\n");
        return 77;
    }
    if (corpus)
        return bench_corpus(corpus, limit, iters > 0 ? iters : 21, cold_iters > 0 ? cold_iters : 7, csv);
    iters = iters > 0 ? iters : 20000;
    cold_iters = cold_iters > 0 ? cold_iters : 200;
    return one_shader(argv[2], iters, cold_iters < iters ? cold_iters : iters, cases);
}
