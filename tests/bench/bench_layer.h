/* SPDX-License-Identifier: MIT */
/*
 * Helpers shared by bench_layer's two modes (bench_layer.c: one sample shader;
 * bench_layer_corpus.c: the DXBC corpus): files, instances and devices with or
 * without VK_LAYER_SHADERBRIDGE_translate, and timing one create + destroy.
 */
#ifndef SB_BENCH_LAYER_H
#define SB_BENCH_LAYER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifndef VK_NO_PROTOTYPES
#define VK_NO_PROTOTYPES
#endif
#include <volk.h>

/* AddressSanitizer builds (gcc: __SANITIZE_ADDRESS__, clang: __has_feature). */
#if defined(__SANITIZE_ADDRESS__)
#define BENCH_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define BENCH_ASAN 1
#endif
#endif

/* A file's bytes (malloc'd; size 0 when unreadable or empty). */
struct bench_blob {
    uint8_t *bytes;
    size_t size;
};

struct bench_blob bench_read_blob(const char *path);

/* An instance and a device on its first physical device, with the device's own
 * entry points (several devices live at once, so volk's global device table is not used). */
struct bench_gpu {
    VkInstance instance;
    VkDevice device;
    PFN_vkCreateShaderModule create;
    PFN_vkDestroyShaderModule destroy;
};

/* Without the layer. Returns 0, 77 without a device, 1 on failure. */
int bench_gpu_open(struct bench_gpu *g);
/* With the layer, configured by SHADERBRIDGE_LAYER_MEMORY_CACHE = `memory_cache`
 * ("0"/"1"), SHADERBRIDGE_LAYER_SHARE_MODULES = `share` ("0"/"1") and
 * SHADERBRIDGE_LAYER_CACHE_DIR = `cache_dir` (NULL: no disk cache); the layer reads
 * its environment at vkCreateInstance. */
int bench_layer_open(struct bench_gpu *g, const char *memory_cache, const char *share, const char *cache_dir);
void bench_gpu_close(struct bench_gpu *g);

double bench_now_ns(void);
/* One vkCreateShaderModule + vkDestroyShaderModule of `code`, in ns; counts failures. */
double bench_call_ns(const struct bench_gpu *g, const struct bench_blob *code, int *failed);
/* Sorts `v` and returns its median (the upper one for an even count). */
double bench_median(double *v, size_t n);
double bench_min(const double *v, size_t n);

/* Corpus mode (bench_layer_corpus.c): returns the exit status. */
int bench_corpus(const char *dxbc_dir, int limit, int rounds, int cold_rounds, const char *csv_path);

#endif
