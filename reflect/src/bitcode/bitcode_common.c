/* SPDX-License-Identifier: MIT */
/*
 * Helpers every block reader of the bitcode reader uses (bitcode_private.h):
 * failures at the current record, operand-count checks, arena arrays that
 * grow by doubling, strings made of record operands, type lookups and the
 * value table (../shared/docs/dxil.md §2.9: one list for the module,
 * extended by each function while it is read).
 *
 * Why look types up instead of creating them: LLVM's writer enumerates the
 * type of every value it writes, so the pointer a GEP or an alloca returns,
 * the i1 of a compare and the {T, i1} of a cmpxchg are already in the type
 * table. A result type that is not there marks a malformed module.
 */
#include "bitcode_private.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"

bool bc_fail(struct sb_bc_reader *r, enum sb_result code, const char *format, ...)
{
    char text[SB_ERROR_MESSAGE_SIZE];
    va_list args;
    va_start(args, format);
    vsnprintf(text, sizeof(text), format, args);
    va_end(args);
    return sb_bs_fail(&r->bs, code, r->bs.entry_bit, "%s", text);
}

bool bc_need_ops(struct sb_bc_reader *r, uint32_t count, const char *record)
{
    if (r->bs.op_count >= count)
        return true;
    return bc_fail(r, SB_ERROR_BC_BAD_RECORD, "%s: %u operands, at least %u needed", record,
                   r->bs.op_count, count);
}

bool bc_reserve_grow(struct sb_bc_reader *r, void **array, uint32_t *capacity, uint32_t needed,
                     size_t size)
{
    if (needed <= *capacity)
        return true;
    uint32_t grown = *capacity ? *capacity : 8;
    while (grown < needed) {
        if (grown > UINT32_MAX / 2)
            return bc_fail(r, SB_ERROR_BAD_COUNT, "more than 2^31 items in one table");
        grown *= 2;
    }
    /* Not zeroed (sb_arena_grow would clear the new half): every table's items are
     * written whole when appended, each reader assigning a complete struct. */
    void *bigger = sb_arena_alloc_uninit(r->arena, grown, size);
    if (!bigger)
        return bc_fail(r, SB_ERROR_OUT_OF_MEMORY, "out of memory growing a table to %u items",
                       grown);
    if (*capacity)
        memcpy(bigger, *array, (size_t)*capacity * size);
    *array = bigger;
    *capacity = grown;
    return true;
}

uint32_t *bc_copy_ops32(struct sb_bc_reader *r, uint32_t first, uint32_t count, const char *what)
{
    if (!count)
        return NULL;
    uint32_t *copy = sb_arena_alloc_uninit(r->arena, count, sizeof(*copy));
    if (!copy) {
        bc_fail(r, SB_ERROR_OUT_OF_MEMORY, "%s: out of memory", what);
        return NULL;
    }
    /* Copied first and checked once (the high halves ORed together): a loop without an
     * exit the compiler vectorises; the rare bad operand is looked for afterwards. */
    const uint64_t *ops = r->bs.ops + first;
    uint64_t high = 0;
    for (uint32_t i = 0; i < count; i++) {
        high |= ops[i];
        copy[i] = (uint32_t)ops[i];
    }
    if (high > UINT32_MAX)
        for (uint32_t i = 0; i < count; i++)
            if (ops[i] > UINT32_MAX) {
                bc_fail(r, SB_ERROR_BC_BAD_RECORD, "%s: operand %u = %llu exceeds 32 bits", what,
                        first + i, (unsigned long long)ops[i]);
                return NULL;
            }
    return copy;
}

char *bc_ops_string(struct sb_bc_reader *r, uint32_t first, uint32_t count, const char *what)
{
    char *text = sb_arena_alloc_uninit(r->arena, (size_t)count + 1, 1);
    if (!text) {
        bc_fail(r, SB_ERROR_OUT_OF_MEMORY, "%s: out of memory", what);
        return NULL;
    }
    const uint64_t *ops = count ? r->bs.ops + first : NULL; /* no operand buffer may exist yet */
    uint64_t high = 0; /* as bc_copy_ops32: copy, then one check */
    for (uint32_t i = 0; i < count; i++) {
        high |= ops[i];
        text[i] = (char)ops[i];
    }
    if (high > 255)
        for (uint32_t i = 0; i < count; i++)
            if (ops[i] > 255) {
                bc_fail(r, SB_ERROR_BC_BAD_RECORD, "%s: character %u = %llu is not a byte", what, i,
                        (unsigned long long)ops[i]);
                return NULL;
            }
    text[count] = 0;
    return text;
}

bool bc_check_type(struct sb_bc_reader *r, uint64_t id, const char *what)
{
    if (id < r->module->type_count)
        return true;
    return bc_fail(r, SB_ERROR_BC_BAD_TYPE, "%s: type id %llu, the table has %u", what,
                   (unsigned long long)id, r->module->type_count);
}

/* The derived types the instruction readers look up, keyed by kind and two fields:
 * POINTER (pointee, address space), VECTOR (element, count), INTEGER (width, 0),
 * literal STRUCT of two members (member 0, member 1). Other types are not indexed. */
static bool index_key(const struct sb_bc_type *t, uint64_t key[3])
{
    key[0] = t->kind;
    switch (t->kind) {
    case SB_BC_TYPE_POINTER: key[1] = t->element; key[2] = t->address_space; return true;
    case SB_BC_TYPE_VECTOR: key[1] = t->element; key[2] = t->count; return true;
    case SB_BC_TYPE_INTEGER: key[1] = t->width; key[2] = 0; return true;
    case SB_BC_TYPE_STRUCT:
        if (t->name || t->opaque || t->member_count != 2)
            return false;
        key[1] = t->members[0];
        key[2] = t->members[1];
        return true;
    default: return false;
    }
}

static uint32_t key_hash(const uint64_t key[3])
{
    uint64_t h = key[0] * 0x9e3779b97f4a7c15ull;
    h = (h ^ key[1]) * 0xbf58476d1ce4e5b9ull;
    h = (h ^ key[2]) * 0x94d049bb133111ebull;
    return (uint32_t)(h ^ (h >> 32));
}

bool bc_index_types(struct sb_bc_reader *r)
{
    const struct sb_bc_module *m = r->module;
    if (m->type_count > (1u << 29))
        return bc_fail(r, SB_ERROR_BAD_COUNT, "TYPE block: %u types, at most 2^29 are indexed",
                       m->type_count);
    uint32_t size = 16;
    while (size < m->type_count * 2u + 1 && size < (1u << 31))
        size *= 2;
    r->type_index = sb_arena_alloc_uninit(r->arena, size, sizeof(*r->type_index));
    if (!r->type_index)
        return bc_fail(r, SB_ERROR_OUT_OF_MEMORY, "TYPE block: out of memory for the index");
    memset(r->type_index, 0xff, (size_t)size * sizeof(*r->type_index));
    r->type_index_size = size;
    for (uint32_t i = 0; i < m->type_count; i++) {
        uint64_t key[3], other[3];
        if (!index_key(&m->types[i], key))
            continue;
        /* The first type with a key wins, as a linear search would find it. */
        for (uint32_t slot = key_hash(key) & (size - 1);; slot = (slot + 1) & (size - 1)) {
            uint32_t held = r->type_index[slot];
            if (held == SB_BC_NONE) {
                r->type_index[slot] = i;
                break;
            }
            if (index_key(&m->types[held], other) && !memcmp(key, other, sizeof(key)))
                break;
        }
    }
    return true;
}

static uint32_t find_type(const struct sb_bc_reader *r, enum sb_bc_type_kind kind, uint64_t a,
                          uint64_t b)
{
    uint64_t key[3] = { kind, a, b }, other[3];
    uint32_t size = r->type_index_size;
    if (!size)
        return SB_BC_NONE;
    for (uint32_t slot = key_hash(key) & (size - 1);; slot = (slot + 1) & (size - 1)) {
        uint32_t held = r->type_index[slot];
        if (held == SB_BC_NONE)
            return SB_BC_NONE;
        if (index_key(&r->module->types[held], other) && !memcmp(key, other, sizeof(key)))
            return held;
    }
}

uint32_t bc_find_pointer(const struct sb_bc_reader *r, uint32_t pointee, uint32_t address_space)
{
    return find_type(r, SB_BC_TYPE_POINTER, pointee, address_space);
}

uint32_t bc_find_vector(const struct sb_bc_reader *r, uint32_t element, uint64_t count)
{
    return find_type(r, SB_BC_TYPE_VECTOR, element, count);
}

uint32_t bc_find_integer(const struct sb_bc_reader *r, uint32_t width)
{
    return find_type(r, SB_BC_TYPE_INTEGER, width, 0);
}

uint32_t bc_find_pair_struct(const struct sb_bc_reader *r, uint32_t a, uint32_t b)
{
    return find_type(r, SB_BC_TYPE_STRUCT, a, b);
}

uint32_t bc_value_type(const struct sb_bc_reader *r, uint32_t id)
{
    const struct sb_bc_module *m = r->module;
    if (id < m->value_count)
        return m->values[id].type;
    if (r->function && id - m->value_count < r->function->value_count)
        return r->function->values[id - m->value_count].type;
    return SB_BC_NONE;
}

bool bc_push_value(struct sb_bc_reader *r, enum sb_bc_value_kind kind, uint32_t type,
                   uint32_t index)
{
    struct sb_bc_value value = { .kind = kind, .type = type, .index = index, .name = NULL };
    if (bc_value_count(r) == UINT32_MAX)
        return bc_fail(r, SB_ERROR_BAD_COUNT, "more than 2^32 - 1 values");
    if (r->function) {
        struct sb_bc_function *f = r->function;
        if (!bc_reserve(r, (void **)&f->values, &r->fn_value_capacity, f->value_count + 1,
                        sizeof(*f->values)))
            return false;
        f->values[f->value_count++] = value;
        return true;
    }
    struct sb_bc_module *m = r->module;
    if (!bc_reserve(r, (void **)&m->values, &r->value_capacity, m->value_count + 1,
                    sizeof(*m->values)))
        return false;
    m->values[m->value_count++] = value;
    return true;
}

bool bc_add_fixup(struct sb_bc_reader *r, uint32_t id, uint32_t type)
{
    if (r->fixup_count == r->fixup_capacity) {
        uint32_t grown = r->fixup_capacity ? r->fixup_capacity * 2 : 32;
        if (grown < r->fixup_capacity)
            return bc_fail(r, SB_ERROR_BAD_COUNT, "too many forward references");
        struct bc_fixup *bigger = realloc(r->fixups, (size_t)grown * sizeof(*bigger));
        if (!bigger)
            return bc_fail(r, SB_ERROR_OUT_OF_MEMORY, "out of memory for forward references");
        r->fixups = bigger;
        r->fixup_capacity = grown;
    }
    r->fixups[r->fixup_count++] = (struct bc_fixup){ .id = id, .type = type,
                                                     .bit = r->bs.entry_bit };
    return true;
}

bool bc_skip_block(struct sb_bc_reader *r)
{
    return sb_bs_skip_block(&r->bs);
}

enum sb_bs_entry bc_next_record(struct sb_bc_reader *r)
{
    for (;;) {
        enum sb_bs_entry entry = sb_bs_next(&r->bs);
        if (entry != SB_BS_ENTER)
            return entry == SB_BS_EOF ? SB_BS_ERROR : entry;
        if (!bc_skip_block(r))
            return SB_BS_ERROR;
    }
}
