/* SPDX-License-Identifier: MIT */
/*
 * Bump allocator for parse results (see arena.h). Blocks double in size up
 * to 1 MiB; a request larger than a block gets a block of its own, so the
 * waste stays below half of what a parse allocates.
 */
#include "arena.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct sb_arena_block {
    struct sb_arena_block *next;
    size_t size;
    size_t used;
    _Alignas(16) unsigned char data[];
};

struct sb_arena {
    struct sb_arena_block *head;
    size_t next_block_size;
};

struct sb_arena *sb_arena_create(void)
{
    struct sb_arena *arena = calloc(1, sizeof(*arena));
    if (arena)
        arena->next_block_size = 4096;
    return arena;
}

void sb_arena_destroy(struct sb_arena *arena)
{
    if (!arena)
        return;
    struct sb_arena_block *block = arena->head;
    while (block) {
        struct sb_arena_block *next = block->next;
        free(block);
        block = next;
    }
    free(arena);
}

void *sb_arena_alloc(struct sb_arena *arena, size_t count, size_t size)
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
    if (!block || block->size - block->used < bytes) {
        size_t block_size = arena->next_block_size;
        if (block_size < bytes)
            block_size = bytes;
        if (block_size > SIZE_MAX - sizeof(*block))
            return NULL;
        struct sb_arena_block *fresh = malloc(sizeof(*fresh) + block_size);
        if (!fresh)
            return NULL;
        fresh->size = block_size;
        fresh->used = 0;
        /* Keep the block with the most room at the head. */
        if (block && block->size - block->used > block_size - bytes) {
            fresh->next = block->next;
            block->next = fresh;
        } else {
            fresh->next = block;
            arena->head = fresh;
        }
        if (arena->next_block_size < (1u << 20))
            arena->next_block_size *= 2;
        block = fresh;
    }
    void *p = block->data + block->used;
    block->used += bytes;
    memset(p, 0, bytes);
    return p;
}

void *sb_arena_grow(struct sb_arena *arena, void *old, size_t old_count, size_t new_count,
                    size_t size)
{
    void *fresh = sb_arena_alloc(arena, new_count, size);
    if (fresh && old && old_count)
        memcpy(fresh, old, (old_count < new_count ? old_count : new_count) * size);
    return fresh;
}
