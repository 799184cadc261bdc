/* SPDX-License-Identifier: MIT */
/*
 * Typed access to the metadata of a bitcode module for the dx.* decoders
 * (dxil_program_info.c, dxil_program_resources.c): fetch a node of an
 * expected size, an integer, a string, a function, each failing with one
 * structured error that names the metadata id and the field, and a sticky
 * result so a decoder can read on and check once. Private to src/dxil.
 */
#ifndef SB_DXIL_MD_READER_H
#define SB_DXIL_MD_READER_H

#include <stdbool.h>
#include <stdint.h>

#include "error.h"
#include "reflect/bitcode.h"
#include "shaderbridge/result.h"

struct sb_arena;

/** Integers the reader has read, by metadata id (id + 1; 0: empty), direct-mapped: LLVM
 *  keeps one metadata value per constant, so `i32 0` and the few small numbers the
 *  signature, resource and entry-point fields hold are read again and again. */
#define SB_DXIL_MD_KEPT_INTS 64u
struct sb_dxil_md_kept_int {
    uint32_t key;
    uint32_t fits_32_bits; /**< nonzero: `value` is a valid sb_dxil_md_u32 (0 when empty) */
    int64_t value;
};

struct sb_dxil_md_reader {
    const struct sb_bc_module *module;
    struct sb_arena *arena;    /**< where strings and arrays are copied */
    uint64_t offset;           /**< the byte offset every error carries */
    struct sb_error *error;    /**< may be NULL */
    enum sb_result result;     /**< sticky: the first failure */
    struct sb_dxil_md_kept_int kept_ints[SB_DXIL_MD_KEPT_INTS]; /**< zeroed with the reader */
};

/** Records a failure (only the first one is kept) and returns false. */
bool sb_dxil_md_fail(struct sb_dxil_md_reader *r, enum sb_result code, const char *format, ...)
    __attribute__((format(printf, 3, 4))) SB_COLD;

/**
 * Node `id` with between `min` and `max` operands (inclusive). A null
 * operand, an id out of range or metadata of another kind fail with
 * SB_ERROR_BAD_VALUE, a wrong count with SB_ERROR_BAD_COUNT; `what` names
 * the field in the message. NULL on failure.
 */
const struct sb_bc_metadata *sb_dxil_md_node(struct sb_dxil_md_reader *r, uint32_t id,
                                             uint32_t min, uint32_t max, const char *what);

/** Like sb_dxil_md_node, but a null operand is no error: NULL and r->result unchanged. */
const struct sb_bc_metadata *sb_dxil_md_node_or_null(struct sb_dxil_md_reader *r, uint32_t id,
                                                     uint32_t min, uint32_t max,
                                                     const char *what);

/**
 * A list of `i32 tag, value` pairs (properties, tag lists, field annotations): a node
 * with an even operand count (SB_ERROR_BAD_COUNT otherwise). A null operand is NULL
 * with r->result unchanged, as sb_dxil_md_node_or_null.
 */
const struct sb_bc_metadata *sb_dxil_md_pairs(struct sb_dxil_md_reader *r, uint32_t id,
                                              const char *what);

/** Pair `i` (operands 2i, 2i + 1) of a sb_dxil_md_pairs list, both as 32-bit integers. */
bool sb_dxil_md_pair_u32(struct sb_dxil_md_reader *r, const struct sb_bc_metadata *pairs,
                         uint32_t i, const char *what, uint32_t *tag, uint32_t *value);

/** The integer constant behind value metadata `id`, sign-extended from its width. */
bool sb_dxil_md_int(struct sb_dxil_md_reader *r, uint32_t id, const char *what, int64_t *out);

/* The reads below when the integer is not kept yet (or fails). */
bool sb_dxil_md_u32_read(struct sb_dxil_md_reader *r, uint32_t id, const char *what,
                         uint32_t *out);
bool sb_dxil_md_field_u32_read(struct sb_dxil_md_reader *r, const struct sb_bc_metadata *node,
                               uint32_t index, const char *what, uint32_t *out);

/* A kept integer of 32 bits, read in place: most fields are, and a call cost more
 * than the lookup (20K reads of 382 modules' signatures, resources and entries). */
static inline bool sb_dxil_md_kept_u32(const struct sb_dxil_md_reader *r, uint32_t id,
                                       uint32_t *out)
{
    const struct sb_dxil_md_kept_int *kept = &r->kept_ints[id % SB_DXIL_MD_KEPT_INTS];
    if (kept->key != id + 1u || !kept->fits_32_bits)
        return false;
    *out = (uint32_t)kept->value;
    return true;
}

/** An integer that must fit 32 bits, signed or unsigned (-1 reads as 0xFFFFFFFF). */
static inline bool sb_dxil_md_u32(struct sb_dxil_md_reader *r, uint32_t id, const char *what,
                                  uint32_t *out)
{
    return sb_dxil_md_kept_u32(r, id, out) || sb_dxil_md_u32_read(r, id, what, out);
}

/** Operand `index` of `node` read with sb_dxil_md_u32. */
static inline bool sb_dxil_md_field_u32(struct sb_dxil_md_reader *r,
                                        const struct sb_bc_metadata *node, uint32_t index,
                                        const char *what, uint32_t *out)
{
    return (index < node->operand_count && sb_dxil_md_kept_u32(r, node->operands[index], out)) ||
           sb_dxil_md_field_u32_read(r, node, index, what, out);
}

/** A float (or half/double) constant, as a float. */
bool sb_dxil_md_float(struct sb_dxil_md_reader *r, uint32_t id, const char *what, float *out);

/**
 * A metadata string copied into the arena: NUL-terminated, stopping at an inner NUL,
 * bytes outside printable ASCII replaced by '?'.
 */
bool sb_dxil_md_string(struct sb_dxil_md_reader *r, uint32_t id, const char *what,
                       const char **out);

/** Value metadata naming a function: its index in module->functions; null gives SB_BC_NONE. */
bool sb_dxil_md_function(struct sb_dxil_md_reader *r, uint32_t id, const char *what,
                         uint32_t *out);

/** Arena array of `count` zeroed elements; fails with SB_ERROR_OUT_OF_MEMORY. NULL for count 0. */
void *sb_dxil_md_alloc(struct sb_dxil_md_reader *r, uint32_t count, size_t size);

#endif
