/* SPDX-License-Identifier: MIT */
/*
 * The in-process translation cache (layer/README.md §Cache, §Cache hit path).
 * An application that creates the same module again (every frame, per
 * pipeline, per thread) should pay next to nothing in the layer, so a hit is
 * kept to: a hash of the input's size, first and last bytes and the device's
 * configuration hash (computed once per device), a bucket walk under a read
 * lock, a memcmp of the whole input against the copy the entry keeps, and a
 * reference count increment. The driver then gets the cached words themselves;
 * nothing is allocated or copied. Comparing the bytes rather than trusting a
 * content hash means a hit is exact whatever the hash (the 128-bit content hash
 * still names disk entries and dumps; the entry keeps it for those).
 * Entries are evicted first in, first out, past MEMORY_ENTRIES; a module still
 * in use when its entry goes stays alive through its reference. An eviction
 * flags the module and tells the module registry (the hook), which then stops
 * keeping the driver modules shared for it alive (layer/README.md §Shared modules).
 */
#define _POSIX_C_SOURCE 200809L
#include "layer_private.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#define MEMORY_ENTRIES 1024
#define BUCKETS 4096 /* a power of two */
#define EDGE 32      /* bytes from each end of the input in the bucket hash */

struct memory_entry {
    uint64_t quick;                 /* bucket hash */
    uint64_t config;
    size_t size;
    uint8_t *input;                 /* the input bytes, compared in full on lookup */
    struct sb_layer_hash content;   /* their content hash */
    struct sb_layer_spirv *spirv;   /* one reference */
    struct memory_entry *next;      /* bucket chain */
};

static struct memory_entry *buckets[BUCKETS];
static struct memory_entry *fifo[MEMORY_ENTRIES]; /* insertion order; NULL: free */
static size_t fifo_next;
static pthread_rwlock_t memory_lock = PTHREAD_RWLOCK_INITIALIZER;
static _Atomic(sb_layer_evict_fn) evict_hook;

void sb_layer_memory_on_evict(sb_layer_evict_fn hook)
{
    atomic_store(&evict_hook, hook);
}

/* Distinct shaders differ within their first bytes already (a DXBC container starts
 * with its MD5 digest, an SHBIN with its sizes); the tail and the size catch edits
 * after a common header. Two multiply-xorshift lanes (head, tail) of four words each:
 * spreading entries over buckets is all this needs, since equal bucket hashes are told
 * apart by the full comparison. */
static uint64_t quick_hash(uint64_t config, const void *code, size_t size)
{
    uint64_t w[2 * EDGE / 8] = { 0 };
    size_t edge = size < EDGE ? size : EDGE;
    memcpy(w, code, edge);
    memcpy((uint8_t *)w + EDGE, (const uint8_t *)code + size - edge, edge);
    uint64_t a = config ^ 0x243f6a8885a308d3ull, b = (uint64_t)size ^ 0x13198a2e03707344ull;
    for (size_t i = 0; i < EDGE / 8; i++) {
        a = (a ^ w[i]) * 0x9e3779b97f4a7c15ull;
        a ^= a >> 29;
        b = (b ^ w[EDGE / 8 + i]) * 0xc2b2ae3d27d4eb4full;
        b ^= b >> 31;
    }
    a = (a ^ (b << 23 | b >> 41)) * 0xff51afd7ed558ccdull;
    return a ^ (a >> 32);
}

static bool matches(const struct memory_entry *e, uint64_t quick, uint64_t config, const void *code, size_t size)
{
    return e->quick == quick && e->config == config && e->size == size && !memcmp(e->input, code, size);
}

static struct memory_entry *find_locked(uint64_t quick, uint64_t config, const void *code, size_t size)
{
    struct memory_entry *e = buckets[quick & (BUCKETS - 1)];
    while (e && !matches(e, quick, config, code, size))
        e = e->next;
    return e;
}

struct sb_layer_spirv *sb_layer_memory_find(uint64_t config, const void *code, size_t size,
                                            struct sb_layer_hash *content)
{
    uint64_t quick = quick_hash(config, code, size);
    struct sb_layer_spirv *spirv = NULL;
    pthread_rwlock_rdlock(&memory_lock);
    struct memory_entry *e = find_locked(quick, config, code, size);
    if (e) {
        spirv = sb_layer_spirv_ref(e->spirv);
        *content = e->content;
    }
    pthread_rwlock_unlock(&memory_lock);
    return spirv;
}

static void unlink_locked(struct memory_entry *gone)
{
    struct memory_entry **at = &buckets[gone->quick & (BUCKETS - 1)];
    while (*at != gone)
        at = &(*at)->next;
    *at = gone->next;
}

static void entry_free(struct memory_entry *e)
{
    if (!e)
        return;
    sb_layer_spirv_unref(e->spirv);
    free(e->input);
    free(e);
}

bool sb_layer_memory_store(uint64_t config, const void *code, size_t size, const struct sb_layer_hash *content,
                           struct sb_layer_spirv *spirv)
{
    struct memory_entry *e = malloc(sizeof(*e));
    uint8_t *input = e ? malloc(size ? size : 1) : NULL;
    if (!input) {
        free(e);
        return false; /* out of memory: the next request translates again */
    }
    memcpy(input, code, size);
    *e = (struct memory_entry){ quick_hash(config, code, size), config, size, input, *content,
                                sb_layer_spirv_ref(spirv), NULL };
    struct memory_entry *evicted = NULL, *duplicate = NULL, *found;
    bool kept = true;
    pthread_rwlock_wrlock(&memory_lock);
    if ((found = find_locked(e->quick, config, code, size)) != NULL) {
        duplicate = e; /* another thread stored the same translation first */
        kept = found->spirv == spirv;
    } else {
        evicted = fifo[fifo_next];
        if (evicted) {
            unlink_locked(evicted);
            atomic_store(&evicted->spirv->evicted, true);
        }
        fifo[fifo_next] = e;
        fifo_next = (fifo_next + 1) % MEMORY_ENTRIES;
        size_t b = e->quick & (BUCKETS - 1);
        e->next = buckets[b];
        buckets[b] = e;
    }
    pthread_rwlock_unlock(&memory_lock);
    sb_layer_evict_fn hook = atomic_load(&evict_hook);
    if (evicted && hook)
        hook(evicted->spirv);
    entry_free(evicted);
    entry_free(duplicate);
    return kept;
}

void sb_layer_memory_clear(void)
{
    pthread_rwlock_wrlock(&memory_lock);
    for (size_t i = 0; i < MEMORY_ENTRIES; i++) {
        if (fifo[i])
            atomic_store(&fifo[i]->spirv->evicted, true);
        entry_free(fifo[i]);
        fifo[i] = NULL;
    }
    memset(buckets, 0, sizeof(buckets));
    fifo_next = 0;
    pthread_rwlock_unlock(&memory_lock);
}

/* The table outlives every instance (the module is linked -z nodelete: never unloaded);
 * it is emptied at process exit. */
__attribute__((destructor)) static void memory_unload(void)
{
    sb_layer_memory_clear();
}
