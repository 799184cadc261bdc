/* SPDX-License-Identifier: MIT */
/*
 * SPIR-V builder: types, constants and OpUndef, deduplicated through an
 * open-addressing hash table keyed by (opcode, operand words without the
 * result id). SPIR-V forbids two non-aggregate types with the same operands
 * (spec §2.8), and sharing constants keeps modules small; a hash probe keeps
 * each lookup O(1) however many types a shader needs. Structs, runtime arrays
 * and decorated arrays are created "unique" because their decorations differ.
 * void and the 32-bit numeric scalars and vectors skip the hash: a table of
 * ids indexed by component and lane count (sb_spv_builder::numeric).
 */
#include "spirv_builder.h"

#include <stdlib.h>
#include <string.h>

/* One step of the key hash: FNV-1a with a shift that spreads the small values. */
static inline uint32_t hash_step(uint32_t h, uint32_t word)
{
    h ^= word;
    h *= 16777619u;
    return h ^ (h >> 15);
}

/* Keys are a few words (an opcode's operands): a loop over them, inlined into the lookup,
 * costs less than a call for so little data. */
static inline void copy_words(uint32_t *to, const uint32_t *from, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++)
        to[i] = from[i];
}

static inline bool same_words(const uint32_t *a, const uint32_t *c, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++)
        if (a[i] != c[i])
            return false;
    return true;
}

/* Room for `words` more words in the global section; NULL (sticky) on failure. */
static inline uint32_t *global_words(struct sb_spv_builder *b, uint32_t words)
{
    struct sb_spv_stream *s = &b->sections[SB_SPV_SECTION_GLOBAL];
    if ((s->count + words > s->capacity || b->failed) && !sb_spv_stream_grow(b, s, words))
        return NULL;
    uint32_t *w = s->words + s->count;
    s->count += words;
    return w;
}

/*
 * Returns the id of the cached instruction `op [type] key...`, emitting it
 * first when new. `type` (NULL for none): constants and OpUndef carry their
 * result type before the result id. The table stores each key as the opcode,
 * the type if any, then the key words; the caller's words are hashed, compared
 * and written where they lie, without staging copies.
 */
static uint32_t cached(struct sb_spv_builder *b, SpvOp op, const uint32_t *type, const uint32_t *key,
                       uint32_t count)
{
    uint32_t lead = type ? 1 : 0, n = 1 + lead + count;
    if (b->failed || n > 22)
        return 0;
    uint32_t h = hash_step(2166136261u, (uint32_t)op);
    if (type)
        h = hash_step(h, *type);
    for (uint32_t i = 0; i < count; i++)
        h = hash_step(h, key[i]);
    h = h ? h : 1;
    if ((b->cache_used + 1) * 4 > b->cache_capacity * 3 && !sb_spv_cache_grow(b))
        return 0;
    uint32_t mask = b->cache_capacity - 1, slot = h & mask;
    for (;; slot = (slot + 1) & mask) {
        const struct sb_spv_cache_entry *e = &b->cache[slot];
        if (e->generation != b->generation)
            break;
        if (e->hash == h && e->key_count == n) {
            const uint32_t *k = b->keys.words + e->key_offset;
            if (k[0] == (uint32_t)op && (!type || k[1] == *type) && same_words(k + 1 + lead, key, count))
                return e->id;
        }
    }
    /* New: remember the key, emit the instruction. */
    if (b->keys.count + n > b->keys.capacity && !sb_spv_stream_grow(b, &b->keys, n))
        return 0;
    uint32_t *w = global_words(b, n + 1);
    if (!w)
        return 0;
    uint32_t *k = b->keys.words + b->keys.count;
    k[0] = (uint32_t)op;
    if (type)
        k[1] = *type;
    copy_words(k + 1 + lead, key, count);
    uint32_t id = b->next_id++;
    b->cache[slot] = (struct sb_spv_cache_entry){ .hash = h, .key_offset = (uint32_t)b->keys.count,
                                                  .key_count = n, .id = id, .generation = b->generation };
    b->keys.count += n;
    b->cache_used++;
    w[0] = ((n + 1) << SpvWordCountShift) | (uint32_t)op;
    if (type) {
        w[1] = *type;
        w[2] = id;
        copy_words(w + 3, key, count);
    } else {
        w[1] = id;
        copy_words(w + 2, key, count);
    }
    return id;
}

/* ---- types ------------------------------------------------------------------------------------ */

/* cached() for two-word keys through the memo. */
static uint32_t cached2(struct sb_spv_builder *b, SpvOp op, uint32_t k0, uint32_t k1)
{
    uint32_t slot = ((uint32_t)op * 31u + k0 * 0x9E3779B1u + k1 * 0x85EBCA77u) >> 26;
    if (b->memo[slot].id && b->memo[slot].op == (uint32_t)op && b->memo[slot].a == k0 && b->memo[slot].b == k1)
        return b->memo[slot].id;
    const uint32_t key[2] = { k0, k1 };
    uint32_t id = cached(b, op, NULL, key, 2);
    if (id) {
        b->memo[slot].op = (uint32_t)op;
        b->memo[slot].a = k0;
        b->memo[slot].b = k1;
        b->memo[slot].id = id;
    }
    return id;
}

/*
 * void and the 32-bit numeric types (sb_spv_builder::numeric) bypass the hash table:
 * nearly every module asks for them first, declared lazily by the back end, and only the
 * functions below declare them, so a table of ids keeps each unique. A first request
 * emits the type straight away (no key kept, no probe).
 */
static uint32_t direct_type(struct sb_spv_builder *b, uint32_t *slot, SpvOp op, uint32_t count,
                            uint32_t a, uint32_t c)
{
    if (*slot || b->failed)
        return *slot;
    /* Written in place: at most four words, a dozen of them per module. */
    struct sb_spv_stream *s = &b->sections[SB_SPV_SECTION_GLOBAL];
    if (s->count + 4 > s->capacity && !sb_spv_stream_grow(b, s, 4))
        return 0;
    uint32_t id = b->next_id++, *w = s->words + s->count;
    w[0] = ((count + 2) << SpvWordCountShift) | (uint32_t)op;
    w[1] = id;
    w[2] = a;
    w[3] = c;
    s->count += count + 2;
    return *slot = id;
}

uint32_t sb_spv_type_void(struct sb_spv_builder *b)
{
    return direct_type(b, &b->void_type, SpvOpTypeVoid, 0, 0, 0);
}

uint32_t sb_spv_type_bool(struct sb_spv_builder *b)
{
    return direct_type(b, &b->numeric[SB_SPV_NUMERIC_BOOL][1], SpvOpTypeBool, 0, 0, 0);
}

uint32_t sb_spv_type_int(struct sb_spv_builder *b, uint32_t width, bool is_signed)
{
    if (width == 32 && is_signed)
        return direct_type(b, &b->numeric[SB_SPV_NUMERIC_INT][1], SpvOpTypeInt, 2, 32, 1);
    if (width == 32)
        return direct_type(b, &b->numeric[SB_SPV_NUMERIC_UINT][1], SpvOpTypeInt, 2, 32, 0);
    const uint32_t key[2] = { width, is_signed ? 1u : 0u };
    return cached(b, SpvOpTypeInt, NULL, key, 2);
}

uint32_t sb_spv_type_float(struct sb_spv_builder *b, uint32_t width)
{
    if (width == 32)
        return direct_type(b, &b->numeric[SB_SPV_NUMERIC_FLOAT][1], SpvOpTypeFloat, 1, 32, 0);
    return cached(b, SpvOpTypeFloat, NULL, &width, 1);
}

uint32_t sb_spv_type_numeric(struct sb_spv_builder *b, enum sb_spv_numeric kind, uint32_t n)
{
    if (n < 1 || n > 4 || kind > SB_SPV_NUMERIC_BOOL)
        return 0;
    if (b->numeric[kind][n])
        return b->numeric[kind][n];
    if (n > 1) {
        uint32_t component = sb_spv_type_numeric(b, kind, 1);
        return component ? direct_type(b, &b->numeric[kind][n], SpvOpTypeVector, 2, component, n) : 0;
    }
    switch (kind) {
    case SB_SPV_NUMERIC_FLOAT: return sb_spv_type_float(b, 32);
    case SB_SPV_NUMERIC_INT: return sb_spv_type_int(b, 32, true);
    case SB_SPV_NUMERIC_UINT: return sb_spv_type_int(b, 32, false);
    case SB_SPV_NUMERIC_BOOL: return sb_spv_type_bool(b);
    }
    return 0;
}

uint32_t sb_spv_type_vector(struct sb_spv_builder *b, uint32_t component, uint32_t count)
{
    if (count <= 1)
        return component;
    if (count <= 4 && component)
        for (uint32_t k = SB_SPV_NUMERIC_FLOAT; k <= SB_SPV_NUMERIC_BOOL; k++)
            if (b->numeric[k][1] == component)
                return direct_type(b, &b->numeric[k][count], SpvOpTypeVector, 2, component, count);
    return cached2(b, SpvOpTypeVector, component, count);
}

uint32_t sb_spv_type_array(struct sb_spv_builder *b, uint32_t element, uint32_t length)
{
    return cached2(b, SpvOpTypeArray, element, sb_spv_const_u32(b, length));
}

uint32_t sb_spv_type_array_unique(struct sb_spv_builder *b, uint32_t element, uint32_t length)
{
    uint32_t len = sb_spv_const_u32(b, length);
    uint32_t id = sb_spv_id(b);
    const uint32_t ops[3] = { id, element, len };
    sb_spv_emit(b, SB_SPV_SECTION_GLOBAL, SpvOpTypeArray, ops, 3);
    return id;
}

uint32_t sb_spv_type_runtime_array_unique(struct sb_spv_builder *b, uint32_t element)
{
    uint32_t id = sb_spv_id(b);
    const uint32_t ops[2] = { id, element };
    sb_spv_emit(b, SB_SPV_SECTION_GLOBAL, SpvOpTypeRuntimeArray, ops, 2);
    return id;
}

uint32_t sb_spv_type_struct(struct sb_spv_builder *b, const uint32_t *members, uint32_t count)
{
    if (count > 16)
        return sb_spv_type_struct_unique(b, members, count);
    return cached(b, SpvOpTypeStruct, NULL, members, count);
}

uint32_t sb_spv_type_struct_unique(struct sb_spv_builder *b, const uint32_t *members, uint32_t count)
{
    uint32_t id = sb_spv_id(b);
    if (count <= 63) {
        uint32_t ops[64];
        ops[0] = id;
        for (uint32_t i = 0; i < count; i++)
            ops[1 + i] = members[i];
        sb_spv_emit(b, SB_SPV_SECTION_GLOBAL, SpvOpTypeStruct, ops, count + 1);
        return id;
    }
    sb_spv_emit_joined(b, SB_SPV_SECTION_GLOBAL, SpvOpTypeStruct, &id, 1, members, count);
    return id;
}

uint32_t sb_spv_type_pointer(struct sb_spv_builder *b, SpvStorageClass storage, uint32_t type)
{
    return cached2(b, SpvOpTypePointer, (uint32_t)storage, type);
}

uint32_t sb_spv_type_function(struct sb_spv_builder *b, uint32_t return_type, const uint32_t *params,
                              uint32_t count)
{
    uint32_t key[16];
    if (count > 15)
        return 0;
    key[0] = return_type;
    copy_words(key + 1, params, count);
    return cached(b, SpvOpTypeFunction, NULL, key, count + 1);
}

uint32_t sb_spv_type_image(struct sb_spv_builder *b, uint32_t sampled_type, SpvDim dim, uint32_t depth,
                           bool arrayed, bool ms, uint32_t sampled, SpvImageFormat format)
{
    const uint32_t key[7] = { sampled_type, (uint32_t)dim, depth, arrayed ? 1u : 0u,
                              ms ? 1u : 0u, sampled, (uint32_t)format };
    return cached(b, SpvOpTypeImage, NULL, key, 7);
}

uint32_t sb_spv_type_sampler(struct sb_spv_builder *b)
{
    return cached(b, SpvOpTypeSampler, NULL, NULL, 0);
}

uint32_t sb_spv_type_sampled_image(struct sb_spv_builder *b, uint32_t image_type)
{
    return cached(b, SpvOpTypeSampledImage, NULL, &image_type, 1);
}

/* ---- constants -------------------------------------------------------------------------------- */

uint32_t sb_spv_const32_slow(struct sb_spv_builder *b, uint32_t type, uint32_t bits)
{
    if ((b->const_used + 1) * 2 > b->const_capacity && !sb_spv_consts_grow(b))
        return 0;
    uint32_t mask = b->const_capacity - 1;
    uint32_t slot = sb_spv_const_slot(type, bits, b->const_capacity);
    for (; b->consts[slot].generation == b->generation; slot = (slot + 1) & mask)
        if (b->consts[slot].type == type && b->consts[slot].bits == bits)
            return b->consts[slot].id;
    uint32_t *w = global_words(b, 4);
    if (!w)
        return 0;
    uint32_t id = b->next_id++;
    w[0] = (4u << SpvWordCountShift) | (uint32_t)SpvOpConstant;
    w[1] = type;
    w[2] = id;
    w[3] = bits;
    b->consts[slot] = (struct sb_spv_const_entry){ type, bits, id, b->generation };
    b->const_used++;
    if (type == b->numeric[SB_SPV_NUMERIC_UINT][1] && bits < 32)
        b->small_u32[bits] = id;
    return id;
}

uint32_t sb_spv_const64(struct sb_spv_builder *b, uint32_t type, uint64_t bits)
{
    const uint32_t key[2] = { (uint32_t)bits, (uint32_t)(bits >> 32) };
    return cached(b, SpvOpConstant, &type, key, 2);
}

uint32_t sb_spv_const_bool(struct sb_spv_builder *b, bool value)
{
    uint32_t type = sb_spv_type_bool(b);
    return cached(b, value ? SpvOpConstantTrue : SpvOpConstantFalse, &type, NULL, 0);
}

uint32_t sb_spv_const_composite(struct sb_spv_builder *b, uint32_t type, const uint32_t *constituents,
                                uint32_t count)
{
    if (count > 20) {
        /* Large composites (icb arrays) are not worth caching. */
        const uint32_t head[2] = { type, sb_spv_id(b) };
        sb_spv_emit_joined(b, SB_SPV_SECTION_GLOBAL, SpvOpConstantComposite, head, 2, constituents, count);
        return head[1];
    }
    return cached(b, SpvOpConstantComposite, &type, constituents, count);
}

uint32_t sb_spv_const_splat(struct sb_spv_builder *b, uint32_t vector_type, uint32_t scalar,
                            uint32_t count)
{
    uint32_t parts[4];
    if (count <= 1)
        return scalar;
    if (count > 4)
        count = 4;
    for (uint32_t i = 0; i < count; i++)
        parts[i] = scalar;
    return cached(b, SpvOpConstantComposite, &vector_type, parts, count);
}

uint32_t sb_spv_const_null(struct sb_spv_builder *b, uint32_t type)
{
    return cached(b, SpvOpConstantNull, &type, NULL, 0);
}

uint32_t sb_spv_const_u32(struct sb_spv_builder *b, uint32_t value)
{
    return sb_spv_const32(b, sb_spv_type_int(b, 32, false), value);
}

uint32_t sb_spv_const_i32(struct sb_spv_builder *b, int32_t value)
{
    return sb_spv_const32(b, sb_spv_type_int(b, 32, true), (uint32_t)value);
}

uint32_t sb_spv_const_f32(struct sb_spv_builder *b, float value)
{
    uint32_t bits;
    memcpy(&bits, &value, 4);
    return sb_spv_const32(b, sb_spv_type_float(b, 32), bits);
}

uint32_t sb_spv_undef(struct sb_spv_builder *b, uint32_t type)
{
    return cached(b, SpvOpUndef, &type, NULL, 0);
}
