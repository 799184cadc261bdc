/* SPDX-License-Identifier: MIT */
/*
 * Private interface of the IR module (translator/IR.md): the program
 * allocation wrapper and growable arena arrays that the front ends
 * (../dxbc/ir_from_sm4*.c, ../pica/ir_from_pica*.c) and the passes build
 * programs with, and the operand-slot check the validator and the SM4/5
 * front end share.
 */
#ifndef SB_TRANSLATOR_IR_PRIVATE_H
#define SB_TRANSLATOR_IR_PRIVATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "translator/ir.h"
#include "arena.h"
#include "error.h"

#if defined(__GNUC__)
#define SB_IR_PRINTF(f, a) __attribute__((format(printf, f, a)))
#define SB_IR_NOINLINE __attribute__((noinline))
#define SB_IR_ALWAYS_INLINE inline __attribute__((always_inline))
#else
#define SB_IR_PRINTF(f, a)
#define SB_IR_NOINLINE
#define SB_IR_ALWAYS_INLINE inline
#endif

/* ------------------------------------------------------------------------ */
/* Program allocation (ir_program.c)                                        */
/* ------------------------------------------------------------------------ */

/** A new zeroed program owning `arena`'s allocations, or NULL on OOM. */
struct sb_ir_program *sb_ir_program_create(struct sb_arena **arena);

/** A NUL-terminated copy of `s` in the arena (NULL on OOM; "" for NULL). */
const char *sb_ir_strdup(struct sb_arena *arena, const char *s);

/**
 * A growable array in an arena: `data` holds `count` items of `size` bytes
 * and room for `capacity`. Abandoned blocks stay in the arena until the
 * program is destroyed, which costs at most twice the final size.
 */
struct sb_ir_vec {
    void *data;
    uint32_t count;
    uint32_t capacity;
};

/** Doubles the capacity of a full vector (8 items at first); false on OOM or overflow. */
bool sb_ir_vec_grow(struct sb_arena *arena, struct sb_ir_vec *vec, size_t size);

/** Does an operand of `file` fit an operand slot of `kind` (SB_IR_KIND_*) of `op`
 *  (ir_validate.c; value slots: any file readable, or writable for a destination)? */
bool sb_ir_kind_fits(uint32_t kind, uint32_t file, bool is_dst, uint32_t op);

/** Appends one zeroed item and returns it; NULL on OOM or count overflow. Inline, so
 *  the zeroing of the caller's constant-size item is a few stores, not a memset call. */
static inline void *sb_ir_vec_push(struct sb_arena *arena, struct sb_ir_vec *vec, size_t size)
{
    if (vec->count == vec->capacity && !sb_ir_vec_grow(arena, vec, size))
        return NULL;
    unsigned char *item = (unsigned char *)vec->data + (size_t)vec->count * size;
    memset(item, 0, size);
    vec->count++;
    return item;
}

#endif
