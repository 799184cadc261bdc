/* SPDX-License-Identifier: MIT */
/*
 * vkCreateShaderModule + vkDestroyShaderModule through VK_LAYER_SHADERBRIDGE_translate
 * (issue #7 §5), on the first device (lavapipe under ctest), without the
 * validation layer so the figures are the layer's own:
 *   spirv   a SPIR-V module (saxpy translated here by sb_translate): without
 *           the layer vs with it (pass-through overhead; goal < 1 us median)
 *   cold    saxpy_cs_5_0.dxbc with both caches off: a translation per call
 *   memory  the same with the in-process cache (the repeat creation)
 *   disk    the same with only the disk cache (a file read per call)
 * Goal: cached >= 20x faster than cold (medians). The SPIR-V module is saxpy's own
 * translation, so its no-layer time is the driver's share of every DXBC call and the
 * rest is the layer's; both ratios are printed. Each call is timed on its own
 * (clock_gettime, monotonic); medians and minimums are printed.
 *
 * Usage: bench_layer MANIFEST_DIR SAXPY_DXBC [--iters N] [--cold N]
 * The layer is enabled by name and found through VK_ADD_LAYER_PATH=MANIFEST_DIR.
 * Exit 0, 1 on a failing call, 77 without a Vulkan device.
 */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifndef VK_NO_PROTOTYPES
#define VK_NO_PROTOTYPES
#endif
#include <volk.h>

#include "shaderbridge/translate.h"

/* AddressSanitizer builds (gcc: __SANITIZE_ADDRESS__, clang: __has_feature). */
#if defined(__SANITIZE_ADDRESS__)
#define BENCH_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define BENCH_ASAN 1
#endif
#endif

struct blob {
    uint8_t *bytes;
    size_t size;
};

static struct blob read_blob(const char *path)
{
    struct blob b = { 0 };
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

struct gpu {
    VkInstance instance;
    VkDevice device;
};

/* An instance (with the layer or not) and a device on its first physical device. */
static int gpu_open(struct gpu *g, bool layer)
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
    volkLoadInstance(g->instance);
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
    volkLoadDevice(g->device);
    return 0;
}

static void gpu_close(struct gpu *g)
{
    vkDestroyDevice(g->device, NULL);
    vkDestroyInstance(g->instance, NULL);
}

static double now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

static int compare(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

struct figure {
    double median_ns, min_ns;
};

/* Times `iters` create+destroy pairs of `code` on g's device (one warm-up call first). */
static struct figure time_calls(struct gpu *g, const struct blob *code, int iters, int *failed)
{
    VkShaderModuleCreateInfo info = { .sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO,
                                      .codeSize = code->size, .pCode = (const uint32_t *)code->bytes };
    double *t = calloc((size_t)iters, sizeof(*t));
    VkShaderModule m;
    if (vkCreateShaderModule(g->device, &info, NULL, &m) == VK_SUCCESS)
        vkDestroyShaderModule(g->device, m, NULL);
    for (int i = 0; t && i < iters; i++) {
        double start = now_ns();
        VkResult r = vkCreateShaderModule(g->device, &info, NULL, &m);
        if (r == VK_SUCCESS)
            vkDestroyShaderModule(g->device, m, NULL);
        t[i] = now_ns() - start;
        *failed += r != VK_SUCCESS;
    }
    struct figure f = { 0, 0 };
    if (t) {
        qsort(t, (size_t)iters, sizeof(*t), compare);
        f = (struct figure){ t[iters / 2], t[0] };
    }
    free(t);
    return f;
}

/* One instance with the layer configured by `memory_cache` / `cache_dir` (NULL: off). */
static int layer_run(const struct blob *code, int iters, const char *memory_cache, const char *cache_dir,
                     struct figure *out, int *failed)
{
    setenv("SHADERBRIDGE_LAYER_MEMORY_CACHE", memory_cache, 1);
    if (cache_dir)
        setenv("SHADERBRIDGE_LAYER_CACHE_DIR", cache_dir, 1);
    else
        unsetenv("SHADERBRIDGE_LAYER_CACHE_DIR");
    struct gpu g;
    int rc = gpu_open(&g, true);
    if (rc)
        return rc;
    *out = time_calls(&g, code, iters, failed);
    gpu_close(&g);
    return 0;
}

static void print(const char *what, struct figure f)
{
    printf("  %-44s median %9.3f us   min %9.3f us\n", what, f.median_ns / 1e3, f.min_ns / 1e3);
}

int main(int argc, char **argv)
{
    int iters = 20000, cold_iters = 200;
    if (argc < 3) {
        fprintf(stderr, "usage: bench_layer MANIFEST_DIR SAXPY_DXBC [--iters N] [--cold N]\n");
        return 2;
    }
    for (int i = 3; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--iters"))
            iters = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--cold"))
            cold_iters = atoi(argv[i + 1]);
    }
    if (iters < 1 || cold_iters < 1)
        return 2;
    setenv("VK_ADD_LAYER_PATH", argv[1], 1);
    unsetenv("VK_INSTANCE_LAYERS");
    setenv("SHADERBRIDGE_LAYER_LOG", "error", 1);
    struct blob dxbc = read_blob(argv[2]), spirv = { 0 };
    struct sb_translation *tr = NULL;
    struct sb_error err = { 0 };
    if (dxbc.size && sb_translate(dxbc.bytes, dxbc.size, NULL, &tr, &err) == SB_SUCCESS) {
        spirv.size = tr->word_count * 4;
        spirv.bytes = malloc(spirv.size);
        if (spirv.bytes)
            memcpy(spirv.bytes, tr->words, spirv.size);
    }
    sb_translation_destroy(tr);
    if (!dxbc.size || !spirv.bytes) {
        fprintf(stderr, "bench_layer: cannot read or translate %s: %s\n", argv[2], err.message);
        return 1;
    }
    if (volkInitialize() != VK_SUCCESS) {
        printf("SKIPPED: no Vulkan loader\n");
        return 77;
    }
    char cache_dir[] = "/tmp/sb_bench_layer.XXXXXX";
    if (!mkdtemp(cache_dir))
        return 1;

    int failed = 0, rc;
    struct gpu g;
    if ((rc = gpu_open(&g, false)) != 0)
        return rc;
    struct figure plain = time_calls(&g, &spirv, iters, &failed);
    /* The first instance stays open until the end: the driver stays loaded between the
     * layer's instances (no reload in the timings, and under LeakSanitizer no unloaded
     * driver whose static caches would read as leaks). */
    struct figure layered, cold, memory, disk;
    if ((rc = layer_run(&spirv, iters, "1", NULL, &layered, &failed)) != 0 ||
        (rc = layer_run(&dxbc, cold_iters, "0", NULL, &cold, &failed)) != 0 ||
        (rc = layer_run(&dxbc, iters, "1", NULL, &memory, &failed)) != 0 ||
        (rc = layer_run(&dxbc, iters, "0", cache_dir, &disk, &failed)) != 0)
        return rc;
    volkLoadInstance(g.instance);
    volkLoadDevice(g.device);
#ifndef BENCH_ASAN
    gpu_close(&g);
#endif

    printf("vkCreateShaderModule + vkDestroyShaderModule, %d calls (%d cold), per call:\n", iters, cold_iters);
    print("SPIR-V, no layer", plain);
    print("SPIR-V, through the layer", layered);
    printf("  pass-through overhead (median difference): %.3f us (goal < 1 us)\n",
           (layered.median_ns - plain.median_ns) / 1e3);
    print("DXBC saxpy, cold (translated every call)", cold);
    print("DXBC saxpy, in-process cache", memory);
    print("DXBC saxpy, disk cache only", disk);
    printf("  whole call, cold / in-process cache: %.1fx, cold / disk cache: %.1fx (goal >= 20x)\n",
           cold.median_ns / memory.median_ns, cold.median_ns / disk.median_ns);
    /* The SPIR-V above is saxpy's translation itself, so `plain` is the driver's share of
     * every DXBC call; what is left is the layer's. */
    double c = cold.median_ns - plain.median_ns, mem = memory.median_ns - plain.median_ns;
    double dsk = disk.median_ns - plain.median_ns;
    printf("  layer's share (median minus the driver's): cold %.3f us, in-process %.3f us, disk %.3f us\n",
           c / 1e3, mem / 1e3, dsk / 1e3);
    if (mem > 0 && dsk > 0)
        printf("  layer's share, cold / in-process cache: %.1fx, cold / disk cache: %.1fx\n", c / mem, c / dsk);
    /* The disk entries this run wrote. */
    char cmd[128];
    snprintf(cmd, sizeof(cmd), "rm -rf %s", cache_dir);
    if (system(cmd) != 0)
        fprintf(stderr, "bench_layer: could not remove %s\n", cache_dir);
    free(dxbc.bytes);
    free(spirv.bytes);
    if (failed)
        printf("FAIL: %d calls failed\n", failed);
    return failed ? 1 : 0;
}
