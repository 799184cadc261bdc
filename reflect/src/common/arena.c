/* SPDX-License-Identifier: MIT */
/*
 * Bump allocator for parse results (see arena.h). Blocks double in size up
 * to 1 MiB; a request larger than a block gets a block of its own, so the
 * waste stays below half of what a parse allocates.
 *
 * Freed blocks go to a small per-thread cache instead of back to malloc: a
 * translation creates and destroys several arenas (container, SM4 program,
 * IR, the translation's scratch), and handing the same warm blocks from one to
 * the next removes their malloc/free calls and the page faults glibc causes
 * when it trims the heap top after each one or unmaps a large block. Each
 * request takes the smallest cached block that fits (cache_take); the cache
 * holds blocks of up to CACHE_BLOCK_LIMIT, CACHE_TOTAL_LIMIT in all (what
 * passes the limits goes back to malloc), enough for the largest corpus shader
 * (its program asks for a 1.4 MiB block) to translate again without an
 * allocation. The arena header lives at the start of
 * its first block, so an arena costs no allocation of its own. A thread's
 * cache is freed when the thread exits (thread_exit.h); the main thread's
 * stays reachable until the process ends. Cached blocks are poisoned under
 * AddressSanitizer, so a use after sb_arena_destroy() is still reported.
 */
#include "arena.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "asan_poison.h"
#include "thread_exit.h"

enum {
    FIRST_BLOCK_SIZE = 4096,
    LARGEST_DOUBLING = 1u << 20,
    /* The cache: one small stack per doubling size (4 KiB << class, the sizes nearly every
     * block has), and a few blocks of other sizes (a request larger than the doubling
     * size gets a block of its own size). */
    SIZE_CLASSES = 9,               /* 4 KiB .. 1 MiB */
    CLASS_SLOTS = 8,
    ODD_SLOTS = 8,
    CACHE_BLOCK_LIMIT = 4u << 20,   /* larger blocks go straight back to malloc */
    CACHE_TOTAL_LIMIT = 8u << 20,   /* per thread */
};

/* The arena header, rounded so the first allocation stays 16-byte aligned. */
#define ARENA_HEADER_BYTES ((sizeof(struct sb_arena) + 15) & ~(size_t)15)

struct cached_block {
    struct sb_arena_block *block;
    size_t size; /* kept here: the poisoned header is not read */
};

struct block_cache {
    struct cached_block classes[SIZE_CLASSES][CLASS_SLOTS], odd[ODD_SLOTS];
    uint32_t class_count[SIZE_CLASSES], odd_count;
    size_t bytes;
};

static _Thread_local struct block_cache thread_cache;
static _Thread_local bool thread_cache_registered;

static void free_cached(struct cached_block *c)
{
    sb_unpoison(c->block, sizeof(*c->block) + c->size);
    free(c->block);
}

static void release_cache(void *cache_ptr)
{
    struct block_cache *cache = cache_ptr;
    for (uint32_t k = 0; k < SIZE_CLASSES; k++)
        for (uint32_t i = 0; i < cache->class_count[k]; i++)
            free_cached(&cache->classes[k][i]);
    for (uint32_t i = 0; i < cache->odd_count; i++)
        free_cached(&cache->odd[i]);
    memset(cache, 0, sizeof(*cache));
}

/* The class of a block of exactly FIRST_BLOCK_SIZE << k bytes; SIZE_CLASSES for another size. */
static uint32_t size_class(size_t size)
{
    for (uint32_t k = 0; k < SIZE_CLASSES; k++)
        if (size == (size_t)FIRST_BLOCK_SIZE << k)
            return k;
    return SIZE_CLASSES;
}

/* Keeps `block` for reuse by this thread; false when the cache is full. */
static bool cache_put(struct sb_arena_block *block)
{
    struct block_cache *cache = &thread_cache;
    if (!thread_cache_registered) {
        if (!sb_at_thread_exit(release_cache, cache))
            return false;
        thread_cache_registered = true;
    }
    if (block->size > CACHE_BLOCK_LIMIT || cache->bytes + block->size > CACHE_TOTAL_LIMIT)
        return false;
    uint32_t k = size_class(block->size);
    struct cached_block *slot;
    if (k < SIZE_CLASSES && cache->class_count[k] < CLASS_SLOTS) {
        slot = &cache->classes[k][cache->class_count[k]++];
    } else if (cache->odd_count < ODD_SLOTS) {
        slot = &cache->odd[cache->odd_count++];
    } else {
        /* Full: a larger block replaces the smallest, which malloc gives back cheaply (a
         * large one would be mapped and faulted in again). */
        slot = &cache->odd[0];
        for (uint32_t i = 1; i < ODD_SLOTS; i++)
            if (cache->odd[i].size < slot->size)
                slot = &cache->odd[i];
        if (slot->size >= block->size)
            return false;
        cache->bytes -= slot->size;
        free_cached(slot);
    }
    *slot = (struct cached_block){ block, block->size };
    cache->bytes += block->size;
    sb_poison(block, sizeof(*block) + block->size);
    return true;
}

/* The smallest cached block of at least `min_size` bytes, or NULL: a small arena (a
 * container's) must not take the large block a large program's arena will ask for next,
 * and a request the size of an odd block must get that block, not a doubling one another
 * request of the same translation needs. */
static struct sb_arena_block *cache_take(size_t min_size)
{
    struct block_cache *cache = &thread_cache;
    struct cached_block *best = NULL;
    for (uint32_t k = 0; k < SIZE_CLASSES && !best; k++)
        if (((size_t)FIRST_BLOCK_SIZE << k) >= min_size && cache->class_count[k])
            best = &cache->classes[k][cache->class_count[k] - 1];
    uint32_t odd = ODD_SLOTS;
    for (uint32_t i = 0; i < cache->odd_count && (!best || best->size > min_size); i++)
        if (cache->odd[i].size >= min_size && (!best || cache->odd[i].size < best->size)) {
            best = &cache->odd[i];
            odd = i;
        }
    if (!best)
        return NULL;
    struct cached_block c = *best;
    if (odd != ODD_SLOTS)
        cache->odd[odd] = cache->odd[--cache->odd_count];
    else
        cache->class_count[size_class(c.size)]--;
    cache->bytes -= c.size;
    sb_unpoison(c.block, sizeof(*c.block) + c.size);
    return c.block;
}

static struct sb_arena_block *new_block(size_t size)
{
    struct sb_arena_block *block = cache_take(size);
    if (!block) {
        if (size > SIZE_MAX - sizeof(*block))
            return NULL;
        block = malloc(sizeof(*block) + size);
        if (!block)
            return NULL;
        block->size = size;
    }
    block->used = 0;
    block->next = NULL;
    return block;
}

struct sb_arena *sb_arena_create(void)
{
    struct sb_arena_block *block = new_block(FIRST_BLOCK_SIZE);
    if (!block)
        return NULL;
    struct sb_arena *arena = (struct sb_arena *)(void *)block->data;
    block->used = ARENA_HEADER_BYTES;
    arena->head = block;
    arena->next_block_size = block->size * 2 < LARGEST_DOUBLING ? block->size * 2 : LARGEST_DOUBLING;
    return arena;
}

void sb_arena_destroy(struct sb_arena *arena)
{
    if (!arena)
        return;
    /* The header lives in one of the blocks: read the list before giving any back. */
    struct sb_arena_block *block = arena->head;
    while (block) {
        struct sb_arena_block *next = block->next;
        if (!cache_put(block))
            free(block);
        block = next;
    }
}

static void *arena_bytes(struct sb_arena *arena, size_t count, size_t size)
{
    if (!arena || (size && count > SIZE_MAX / size))
        return NULL;
    size_t bytes = count * size;
    if (bytes > SIZE_MAX - 15)
        return NULL;
    bytes = (bytes + 15) & ~(size_t)15;
    if (bytes == 0)
        bytes = 16;

    struct sb_arena_block *block = arena->head;
    if (block->size - block->used < bytes) {
        size_t block_size = arena->next_block_size;
        if (block_size < bytes)
            block_size = bytes;
        struct sb_arena_block *fresh = new_block(block_size);
        if (!fresh)
            return NULL;
        /* Keep the block with the most room at the head. */
        if (block->size - block->used > fresh->size - bytes) {
            fresh->next = block->next;
            block->next = fresh;
        } else {
            fresh->next = block;
            arena->head = fresh;
        }
        if (arena->next_block_size < LARGEST_DOUBLING)
            arena->next_block_size *= 2;
        block = fresh;
    }
    void *p = block->data + block->used;
    block->used += bytes;
    return p;
}

void *sb_arena_alloc_uninit_slow(struct sb_arena *arena, size_t count, size_t size)
{
    return arena_bytes(arena, count, size);
}

void *sb_arena_grow(struct sb_arena *arena, void *old, size_t old_count, size_t new_count,
                    size_t size)
{
    size_t kept = old && old_count ? (old_count < new_count ? old_count : new_count) : 0;
    unsigned char *fresh = arena_bytes(arena, new_count, size);
    if (!fresh)
        return NULL;
    if (kept)
        memcpy(fresh, old, kept * size);
    memset(fresh + kept * size, 0, (new_count - kept) * size);
    return fresh;
}
