/* SPDX-License-Identifier: MIT */
/*
 * The hash tables behind the builder's type and constant caches (spirv_builder.h):
 * growth (rehashing the live generation). Below the cache user,
 * spirv_builder_types.c (lookups), which calls it.
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
        uint32_t slot = sb_spv_const_slot(e->type, e->bits, cap);
        while (table[slot].generation == generation)
            slot = (slot + 1) & (cap - 1);
        table[slot] = *e;
    }
    free(b->consts);
    b->consts = table;
    b->const_capacity = cap;
    return true;
}
