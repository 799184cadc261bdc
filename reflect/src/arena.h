/* SPDX-License-Identifier: MIT */
/*
 * A bump allocator that owns everything one parse produces, so a parsed
 * object is released with one call and no decoded structure needs its own
 * free function. Allocations are zeroed and 16-byte aligned.
 */
#ifndef SB_REFLECT_ARENA_H
#define SB_REFLECT_ARENA_H

#include <stddef.h>

struct sb_arena;

/** Returns a new empty arena, or NULL when out of memory. */
struct sb_arena *sb_arena_create(void);

/**
 * Frees the arena and every allocation made from it (its blocks may be kept
 * for the calling thread's next arena); NULL is a no-op.
 */
void sb_arena_destroy(struct sb_arena *arena);

/** Zeroed memory for count * size bytes, or NULL on overflow / OOM. */
void *sb_arena_alloc(struct sb_arena *arena, size_t count, size_t size);

/** Like sb_arena_alloc() without the zeroing, for memory the caller fills at once. */
void *sb_arena_alloc_uninit(struct sb_arena *arena, size_t count, size_t size);

/**
 * Grows an array previously returned by this arena from old_count to
 * new_count items (the old block is abandoned, not freed). NULL on OOM.
 */
void *sb_arena_grow(struct sb_arena *arena, void *old, size_t old_count, size_t new_count,
                    size_t size);

#endif
