/* SPDX-License-Identifier: MIT */
/*
 * A bump allocator that owns everything one parse produces, so a parsed
 * object is released with one call and no decoded structure needs its own
 * free function. Allocations are zeroed and 16-byte aligned.
 */
#ifndef SB_REFLECT_ARENA_H
#define SB_REFLECT_ARENA_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* The block and arena layouts are here only for the inline bump path of
 * sb_arena_alloc_uninit(); arena.c alone manages them. */
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

/** Returns a new empty arena, or NULL when out of memory. */
struct sb_arena *sb_arena_create(void);

/**
 * Frees the arena and every allocation made from it (its blocks may be kept
 * for the calling thread's next arena); NULL is a no-op.
 */
void sb_arena_destroy(struct sb_arena *arena);

/** sb_arena_alloc_uninit() when the head block has no room (or the size overflows). */
void *sb_arena_alloc_uninit_slow(struct sb_arena *arena, size_t count, size_t size);

/**
 * Like sb_arena_alloc() without the zeroing, for memory the caller fills at
 * once. Inline, because the decoders allocate per instruction: the common
 * case, room in the head block, is a bump of its `used`.
 */
static inline void *sb_arena_alloc_uninit(struct sb_arena *arena, size_t count, size_t size)
{
    if (arena && size && count <= (SIZE_MAX - 15) / size && count) {
        size_t bytes = (count * size + 15) & ~(size_t)15;
        struct sb_arena_block *block = arena->head;
        if (block->size - block->used >= bytes) {
            void *p = block->data + block->used;
            block->used += bytes;
            return p;
        }
    }
    return sb_arena_alloc_uninit_slow(arena, count, size);
}

/**
 * Grows an array previously returned by this arena from old_count to
 * new_count items (the old block is abandoned, not freed). NULL on OOM.
 */
void *sb_arena_grow(struct sb_arena *arena, void *old, size_t old_count, size_t new_count,
                    size_t size);

/** Zeroed memory for count * size bytes, or NULL on overflow / OOM (inline, like
 *  sb_arena_alloc_uninit(): a bump and a memset of a size the caller often knows). */
static inline void *sb_arena_alloc(struct sb_arena *arena, size_t count, size_t size)
{
    void *p = sb_arena_alloc_uninit(arena, count, size);
    if (p)
        memset(p, 0, count * size);
    return p;
}

#endif
