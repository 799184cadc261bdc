/* SPDX-License-Identifier: MIT */
/*
 * The layer's in-process cache (layer/src/layer_memory.c) and its shared
 * modules (sb_layer_spirv_*, layer_spirv.c) without a loader: a hit is exact
 * (the same bytes under the same configuration hash, nothing else: one changed
 * last byte, one byte more or another configuration misses), a hit hands out the
 * stored module itself with its content hash, a module outlives the eviction of
 * its entry while a caller holds it, storing twice keeps one entry, a store says
 * whether the cache kept the very module it was given, an eviction flags the
 * module and calls the eviction hook with it still alive, and threads
 * finding, storing and dropping modules at once always get the module of the
 * bytes they asked for (run under ASan/UBSan in the sanitizer build; with
 * -fsanitize=thread by hand).
 */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "layer_private.h"

static int failures;

#define INPUT 200 /* longer than the bytes the bucket hash reads from both ends (2 x 32) */

#define CHECK(cond, ...)                                                                   \
    do {                                                                                   \
        if (!(cond)) {                                                                     \
            failures++;                                                                    \
            printf("FAIL %s:%d: ", __FILE__, __LINE__);                                    \
            printf(__VA_ARGS__);                                                           \
            printf("\n");                                                                  \
        }                                                                                  \
    } while (0)

/* An INPUT-byte input whose bytes depend on `id` (a DXBC-like head: magic, then a "digest"). */
static void make_input(uint32_t id, uint8_t out[INPUT])
{
    memcpy(out, "DXBC", 4);
    for (int i = 4; i < INPUT; i++)
        out[i] = (uint8_t)(id * 131u + (uint32_t)i * 7u);
    memcpy(out + 8, &id, sizeof(id));
}

/* A module with OpEntryPoint "main" whose last word is `id`. */
static struct sb_layer_spirv *make_module(uint32_t id)
{
    uint32_t words[] = { 0x07230203u, 0x00010300u, 0, 10, 0, (5u << 16) | 15, 5, 1, 0x6e69616du, 0, id };
    return sb_layer_spirv_new(VK_SHADER_STAGE_COMPUTE_BIT, words, sizeof(words) / 4);
}

static void test_module(void)
{
    struct sb_layer_spirv *m = make_module(7);
    CHECK(m && m->word_count == 11 && m->words[10] == 7, "module words");
    CHECK(m && m->entry && !strcmp(m->entry, "main"), "entry name %s", m && m->entry ? m->entry : "(null)");
    CHECK(m && sb_layer_spirv_ref(m) == m && atomic_load(&m->refs) == 2, "a reference");
    sb_layer_spirv_unref(m);
    sb_layer_spirv_unref(m);
    sb_layer_spirv_unref(NULL);
}

static void test_exact(void)
{
    uint8_t in[INPUT + 1];
    make_input(1, in);
    in[INPUT] = 0;
    struct sb_layer_hash h = { 0x1111, 0x2222 }, got = { 0, 0 };
    struct sb_layer_spirv *m = make_module(1);
    CHECK(sb_layer_memory_store(42, in, INPUT, &h, m), "the first store was not kept");
    struct sb_layer_spirv *hit = sb_layer_memory_find(42, in, INPUT, &got);
    CHECK(hit == m, "the stored module itself is handed out");
    CHECK(got.lo == 0x1111 && got.hi == 0x2222, "content hash %llx", (unsigned long long)got.lo);
    CHECK(!sb_layer_memory_find(43, in, INPUT, &got), "another configuration hit");
    CHECK(!sb_layer_memory_find(42, in, INPUT - 1, &got), "a shorter input hit");
    CHECK(!sb_layer_memory_find(42, in, INPUT + 1, &got), "a longer input hit");
    /* A middle byte, past what the bucket hash reads: the same bucket, told apart only
     * by the full comparison; each input then finds its own module. */
    in[100] ^= 1;
    CHECK(!sb_layer_memory_find(42, in, INPUT, &got), "a changed middle byte hit");
    struct sb_layer_spirv *m2 = make_module(2);
    sb_layer_memory_store(42, in, INPUT, &h, m2);
    struct sb_layer_spirv *hit2 = sb_layer_memory_find(42, in, INPUT, &got);
    CHECK(hit2 == m2, "the changed input finds its own module");
    sb_layer_spirv_unref(hit2);
    sb_layer_spirv_unref(m2);
    in[100] ^= 1;
    struct sb_layer_spirv *again = sb_layer_memory_find(42, in, INPUT, &got);
    CHECK(again == m, "the first input still finds its module");
    sb_layer_spirv_unref(again);
    in[INPUT - 1] ^= 0x80;
    CHECK(!sb_layer_memory_find(42, in, INPUT, &got), "a changed last byte hit");
    in[INPUT - 1] ^= 0x80;
    /* a second store of the same: still one entry, and it is this module */
    CHECK(sb_layer_memory_store(42, in, INPUT, &h, m), "a repeated store of the entry's module not kept");
    sb_layer_spirv_unref(hit);
    CHECK(atomic_load(&m->refs) == 2, "refs %u after a repeated store (caller + one entry)", atomic_load(&m->refs));
    /* another module for the same key (a thread that translated too): not kept */
    struct sb_layer_spirv *late = make_module(3);
    CHECK(!sb_layer_memory_store(42, in, INPUT, &h, late), "another module for a stored key was kept");
    CHECK(atomic_load(&late->refs) == 1 && !atomic_load(&late->evicted), "the late module: refs %u",
          atomic_load(&late->refs));
    sb_layer_spirv_unref(late);
    CHECK(!atomic_load(&m->evicted), "a stored module flagged evicted");
    sb_layer_spirv_unref(m);
}

/* The eviction hook: each evicted module once, flagged, alive, in eviction order. */
static uint32_t hooked[8];
static int hook_calls, hook_bad;

static void on_evict(struct sb_layer_spirv *spirv)
{
    hook_bad += !atomic_load(&spirv->evicted) || atomic_load(&spirv->refs) < 1;
    if (hook_calls < 8)
        hooked[hook_calls] = spirv->words[10];
    hook_calls++;
}

/* Far more stores than entries: the first is evicted but lives on while held. */
static void test_eviction(void)
{
    sb_layer_memory_clear();
    sb_layer_memory_on_evict(on_evict);
    uint8_t in[INPUT];
    struct sb_layer_hash h = { 0, 0 };
    make_input(1000, in);
    struct sb_layer_spirv *first = make_module(1000);
    sb_layer_memory_store(1, in, INPUT, &h, first);
    struct sb_layer_spirv *held = sb_layer_memory_find(1, in, INPUT, &h);
    sb_layer_spirv_unref(first);
    for (uint32_t id = 1001; id < 1001 + 4000; id++) {
        uint8_t other[INPUT];
        make_input(id, other);
        struct sb_layer_spirv *m = make_module(id);
        sb_layer_memory_store(1, other, INPUT, &h, m);
        sb_layer_spirv_unref(m);
    }
    sb_layer_memory_on_evict(NULL);
    CHECK(!sb_layer_memory_find(1, in, INPUT, &h), "the oldest entry was not evicted");
    CHECK(held && held->words[10] == 1000 && atomic_load(&held->refs) == 1 && atomic_load(&held->evicted),
          "a held module after eviction");
    /* 4001 stores into 1024 entries: 2977 evictions, the oldest first */
    CHECK(hook_calls == 4001 - 1024 && !hook_bad && hooked[0] == 1000 && hooked[1] == 1001 && hooked[7] == 1007,
          "eviction hook: %d calls (want %d), %d bad, first %u %u", hook_calls, 4001 - 1024, hook_bad, hooked[0],
          hooked[1]);
    sb_layer_spirv_unref(held); /* the last reference: freed here (ASan checks) */
    make_input(1001 + 3999, in);
    struct sb_layer_spirv *last = sb_layer_memory_find(1, in, INPUT, &h);
    CHECK(last && last->words[10] == 1001 + 3999, "the newest entry");
    sb_layer_spirv_unref(last);
}

#define THREADS 4
#define KEYS 1500 /* more than the cache holds: eviction runs while others find */
#define ROUNDS 40000

static int thread_errors[THREADS];

static void *worker(void *arg)
{
    int t = (int)(intptr_t)arg;
    uint32_t x = 12345u + (uint32_t)t * 777u;
    for (int i = 0; i < ROUNDS; i++) {
        x = x * 1664525u + 1013904223u;
        uint32_t id = (x >> 8) % KEYS;
        uint8_t in[INPUT];
        make_input(id, in);
        struct sb_layer_hash h = { id, ~(uint64_t)id }, got;
        struct sb_layer_spirv *m = sb_layer_memory_find(7, in, INPUT, &got);
        if (m) {
            thread_errors[t] += m->words[10] != id || got.lo != id;
        } else {
            m = make_module(id);
            if (m)
                sb_layer_memory_store(7, in, INPUT, &h, m);
        }
        sb_layer_spirv_unref(m);
    }
    return NULL;
}

static void test_threads(void)
{
    sb_layer_memory_clear();
    pthread_t th[THREADS];
    int started = 0;
    for (int t = 0; t < THREADS; t++)
        started += pthread_create(&th[t], NULL, worker, (void *)(intptr_t)t) == 0;
    CHECK(started == THREADS, "%d of %d threads started", started, THREADS);
    for (int t = 0; t < started; t++)
        pthread_join(th[t], NULL);
    int errors = 0;
    for (int t = 0; t < THREADS; t++)
        errors += thread_errors[t];
    CHECK(errors == 0, "%d hits returned another input's module", errors);
}

int main(void)
{
    test_module();
    test_exact();
    test_eviction();
    test_threads();
    sb_layer_memory_clear();
    printf("%s\n", failures ? "FAILED" : "ok");
    return failures ? 1 : 0;
}
