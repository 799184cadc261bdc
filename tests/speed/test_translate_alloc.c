/* SPDX-License-Identifier: MIT */
/*
 * A translation on a thread that has translated before makes no allocator call for its
 * working memory (issue #17): the arena blocks (reflect/src/common/arena.c) and the SPIR-V
 * builder's streams and tables (translator/src/spirv/spirv_builder_storage.c) stay with
 * the thread, and the result is one block (translator/src/translation_block.c). And what
 * a thread kept is given back when it exits.
 *
 * How it counts: the executable is linked with -Wl,--wrap for malloc, calloc, realloc
 * and free, so every call the library's objects (linked in from the static archive) make
 * goes through the counters below, and nothing else changes; glibc's own internal calls
 * are not counted. Each shader is translated on a fresh thread twice with default
 * options (sb_translate: SPIR-V only, so SPIRV-Tools is not involved). The second time,
 * on the warm thread, a translation makes no allocator call at all, nor does
 * sb_translation_destroy(): the first result's block, kept by the thread when it was
 * destroyed, holds the second (the same size). Only a result too large for the thread to
 * keep (over 1 MiB; checked as words over 512 KiB, the rest of the block being far
 * smaller) may take one malloc and its free. After the thread is joined, the blocks the
 * library holds are as many as before it started.
 *
 * Shaders: the bundled samples (SAMPLES_DIR, the SHBIN one through its own path too) and,
 * when present, every corpus shader of program_type vs..cs (CORPUS_DIR). Exit 0 pass,
 * 1 failure, 77 samples absent.
 */
#define _POSIX_C_SOURCE 200809L

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <threads.h>

#include "check.h"
#include "corpus_list.h"
#include "shaderbridge/translate.h"

/* ---- the counters (--wrap) ------------------------------------------------------------------------ */

void *__real_malloc(size_t size);
void *__real_calloc(size_t count, size_t size);
void *__real_realloc(void *pointer, size_t size);
void __real_free(void *pointer);
void *__wrap_malloc(size_t size);
void *__wrap_calloc(size_t count, size_t size);
void *__wrap_realloc(void *pointer, size_t size);
void __wrap_free(void *pointer);

/* Calls while a counting thread counts (only the thread under test counts). */
static _Thread_local bool counting;
static _Thread_local unsigned long allocations, frees;
/* Blocks the process holds through these calls, from every thread. */
static atomic_long live_blocks;

void *__wrap_malloc(size_t size)
{
    void *p = __real_malloc(size);
    if (p)
        atomic_fetch_add(&live_blocks, 1);
    allocations += counting;
    return p;
}

void *__wrap_calloc(size_t count, size_t size)
{
    void *p = __real_calloc(count, size);
    if (p)
        atomic_fetch_add(&live_blocks, 1);
    allocations += counting;
    return p;
}

void *__wrap_realloc(void *pointer, size_t size)
{
    void *p = __real_realloc(pointer, size);
    if (p && !pointer)
        atomic_fetch_add(&live_blocks, 1);
    allocations += counting;
    return p;
}

void __wrap_free(void *pointer)
{
    if (pointer) {
        atomic_fetch_sub(&live_blocks, 1);
        frees += counting;
    }
    __real_free(pointer);
}

/* ---- one shader on a fresh thread ------------------------------------------------------------------- */

struct job {
    const uint8_t *bytes;
    size_t size;
    bool shbin_path; /* sb_translate_shbin rather than sb_translate */
    enum sb_result first, second;
    unsigned long allocations, frees; /* of the second translation; frees of its destroy */
    size_t word_count;                /* of the second translation's module */
};

static enum sb_result translate(const struct job *job, struct sb_translation **out)
{
    struct sb_error error;
    memset(&error, 0, sizeof(error));
    if (job->shbin_path)
        return sb_translate_shbin(job->bytes, job->size, 0, 0, NULL, out, &error);
    return sb_translate(job->bytes, job->size, NULL, out, &error);
}

static int run_job(void *arg)
{
    struct job *job = arg;
    struct sb_translation *t = NULL;
    job->first = translate(job, &t);
    sb_translation_destroy(t);
    allocations = frees = 0;
    counting = true;
    job->second = translate(job, &t);
    job->allocations = allocations;
    job->word_count = t ? t->word_count : 0;
    sb_translation_destroy(t);
    counting = false;
    job->frees = frees;
    return 0;
}

/* Checks one shader; returns whether it translated. */
static bool check_shader(const char *name, const uint8_t *bytes, size_t size, bool shbin_path)
{
    struct job job = { .bytes = bytes, .size = size, .shbin_path = shbin_path };
    long before = atomic_load(&live_blocks);
    thrd_t thread;
    if (thrd_create(&thread, run_job, &job) != thrd_success || thrd_join(thread, NULL) != thrd_success) {
        fprintf(stderr, "cannot run a thread\n");
        exit(1);
    }
    long after = atomic_load(&live_blocks);
    CHECK(job.first == job.second, "%s: the second translation gave %d, the first %d", name,
          (int)job.second, (int)job.first);
    /* A large result may be allocated and freed once; the rest reuse the thread's block. */
    unsigned long most = job.second == SB_SUCCESS && job.word_count * 4 > (512u << 10) ? 1 : 0;
    CHECK(job.allocations <= most,
          "%s: %lu allocator calls in a translation on a warm thread, expected at most %lu", name,
          job.allocations, most);
    CHECK(job.frees == job.allocations, "%s: %lu frees in sb_translation_destroy, %lu allocations",
          name, job.frees, job.allocations);
    CHECK(after == before, "%s: %ld blocks still held after the thread exited", name, after - before);
    return job.second == SB_SUCCESS;
}

static bool check_file(const char *path, bool shbin_path, unsigned *translated)
{
    size_t size = 0;
    char *bytes = read_file(path, &size);
    if (!bytes)
        return false;
    *translated += check_shader(path, (const uint8_t *)bytes, size, shbin_path);
    free(bytes);
    return true;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: test_translate_alloc SAMPLES_DIR [CORPUS_DIR]\n");
        return 1;
    }
    static const char *const samples[] = { "gradient_cs_5_0.dxbc", "group_sum_cs_5_0.dxbc",
                                           "passthrough_vs_4_0.dxbc", "saxpy_cs_5_0.dxbc",
                                           "simple_tri.shbin" };
    unsigned translated = 0;
    char path[4096];
    for (size_t i = 0; i < sizeof(samples) / sizeof(samples[0]); i++) {
        snprintf(path, sizeof(path), "%s/%s", argv[1], samples[i]);
        if (!check_file(path, false, &translated)) {
            fprintf(stderr, "%s: cannot read (samples absent)\n", path);
            return 77;
        }
    }
    snprintf(path, sizeof(path), "%s/simple_tri.shbin", argv[1]);
    check_file(path, true, &translated);
    CHECK(translated == 6, "%u of the 6 sample translations succeeded", translated);
    printf("samples: %u translated, %u checks, %u failed\n", translated, checks, failures);

    if (argc > 2 && argv[2][0]) {
        static char *paths[MAX_SHADERS];
        static char types[MAX_SHADERS][3];
        uint32_t count = corpus_shaders(argv[2], "vs,ps,gs,hs,ds,cs", 1, paths, types);
        unsigned corpus_translated = 0, failures_before = failures;
        for (uint32_t i = 0; i < count; i++) {
            snprintf(path, sizeof(path), "%s/dxbc/%s", argv[2], paths[i]);
            CHECK(check_file(path, false, &corpus_translated), "%s: cannot read", path);
            free(paths[i]);
        }
        printf("corpus: %u shaders, %u translated, %u failed checks\n", count, corpus_translated,
               failures - failures_before);
        if (!count)
            printf("corpus: SKIPPED (no manifest under %s)\n", argv[2]);
    }
    return failures ? 1 : 0;
}
