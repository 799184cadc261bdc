/* SPDX-License-Identifier: MIT */
/*
 * The hash tables behind the builder's type and constant caches (spirv_builder.h):
 * growth (rehashing the live generation) and re-insertion of saved entries. Below
 * the cache users, spirv_builder_types.c (lookups) and spirv_builder_storage.c
 * (restoring a saved prelude), which both call them.
 */
#include "spirv_builder.h"

#include <stdlib.h>

bool sb_spv_cache_grow(struct sb_spv_builder *b)
{
    uint32_t cap = b->cache_capacity ? b->cache_capacity * 2 : 64; /* grows on demand: small first table, less to zero per module */
    struct sb_spv_cache_entry *table = calloc(cap, sizeof(*table));
    if (!table) {
        b->failed = true;
        return false;
    }
    uint32_t generation = b->generation;
    for (uint32_t i = 0; i < b->cache_capacity; i++) {
        const struct sb_spv_cache_entry *e = &b->cache[i];
        if (e->generation != generation)
            continue;
        uint32_t slot = e->hash & (cap - 1);
        while (table[slot].generation == generation)
            slot = (slot + 1) & (cap - 1);
        table[slot] = *e;
    }
    free(b->cache);
    b->cache = table;
    b->cache_capacity = cap;
    return true;
}

void sb_spv_cache_restore(struct sb_spv_builder *b, const struct sb_spv_cache_entry *entries, uint32_t count)
{
    /* One load-factor check for the whole set, then plain insertions. */
    while (!b->failed && (b->cache_used + count) * 4 > b->cache_capacity * 3)
        if (!sb_spv_cache_grow(b))
            return;
    if (b->failed)
        return;
    struct sb_spv_cache_entry *table = b->cache;
    uint32_t mask = b->cache_capacity - 1, generation = b->generation;
    for (uint32_t i = 0; i < count; i++) {
        uint32_t slot = entries[i].hash & mask;
        while (table[slot].generation == generation)
            slot = (slot + 1) & mask;
        table[slot] = entries[i];
        table[slot].generation = generation;
    }
    b->cache_used += count;
}

bool sb_spv_consts_grow(struct sb_spv_builder *b)
{
    uint32_t cap = b->const_capacity ? b->const_capacity * 2 : 64;
    struct sb_spv_const_entry *table = calloc(cap, sizeof(*table));
    if (!table) {
        b->failed = true;
        return false;
    }
    uint32_t generation = b->generation;
    for (uint32_t i = 0; i < b->const_capacity; i++) {
        const struct sb_spv_const_entry *e = &b->consts[i];
        if (e->generation != generation)
            continue;
        uint32_t slot = ((e->type * 0x9E3779B1u) ^ (e->bits * 0x85EBCA77u)) & (cap - 1);
        while (table[slot].generation == generation)
            slot = (slot + 1) & (cap - 1);
        table[slot] = *e;
    }
    free(b->consts);
    b->consts = table;
    b->const_capacity = cap;
    return true;
}

void sb_spv_const_restore(struct sb_spv_builder *b, const struct sb_spv_const_entry *e)
{
    if (b->failed || ((b->const_used + 1) * 2 > b->const_capacity && !sb_spv_consts_grow(b)))
        return;
    uint32_t mask = b->const_capacity - 1;
    uint32_t slot = ((e->type * 0x9E3779B1u) ^ (e->bits * 0x85EBCA77u)) & mask;
    while (b->consts[slot].generation == b->generation)
        slot = (slot + 1) & mask;
    b->consts[slot] = *e;
    b->consts[slot].generation = b->generation;
    b->const_used++;
}
