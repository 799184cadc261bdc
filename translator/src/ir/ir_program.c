/* SPDX-License-Identifier: MIT */
/*
 * IR program ownership (translator/IR.md): a program and everything it points
 * to live in one arena, so sb_ir_program_destroy() is one call and no part
 * of a program has a free function of its own. The arena pointer sits right
 * after the public struct, inside the same arena.
 */
#include <string.h>

#include "ir_private.h"

/* The public struct first, so a program pointer is also a holder pointer. */
struct ir_holder {
    struct sb_ir_program program;
    struct sb_arena *arena;
};

struct sb_ir_program *sb_ir_program_create(struct sb_arena **arena)
{
    struct sb_arena *a = sb_arena_create();
    if (!a)
        return NULL;
    struct ir_holder *holder = sb_arena_alloc(a, 1, sizeof(*holder));
    if (!holder) {
        sb_arena_destroy(a);
        return NULL;
    }
    holder->arena = a;
    *arena = a;
    return &holder->program;
}

void sb_ir_program_destroy(struct sb_ir_program *program)
{
    if (!program)
        return;
    struct ir_holder *holder = (struct ir_holder *)program;
    sb_arena_destroy(holder->arena);
}

const char *sb_ir_strdup(struct sb_arena *arena, const char *s)
{
    if (!s)
        s = "";
    size_t n = strlen(s) + 1;
    char *copy = sb_arena_alloc_uninit(arena, n, 1); /* the copy includes the NUL */
    if (copy)
        memcpy(copy, s, n);
    return copy;
}

bool sb_ir_vec_grow(struct sb_arena *arena, struct sb_ir_vec *vec, size_t size)
{
    if (vec->capacity >= UINT32_MAX / 2)
        return false;
    uint32_t grown = vec->capacity ? vec->capacity * 2 : 8;
    /* Not zeroed: sb_ir_vec_push() zeroes each item as it hands it out. */
    void *data = sb_arena_alloc_uninit(arena, grown, size);
    if (!data)
        return false;
    if (vec->count)
        memcpy(data, vec->data, (size_t)vec->count * size);
    vec->data = data;
    vec->capacity = grown;
    return true;
}
