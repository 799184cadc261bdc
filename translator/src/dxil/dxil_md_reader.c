/* SPDX-License-Identifier: MIT */
/*
 * Typed access to module metadata (dxil_md_reader.h, ../shared/docs/dxil.md
 * §2.13 for the node kinds, §4 for what the dx.* records hold). The bitcode
 * reader leaves metadata untyped: a node is a list of metadata ids, a number
 * is value metadata pointing at a constant. Every dx.* field goes through one
 * of these functions, so a field of the wrong kind, a null where a node must
 * be, or a number too wide is one structured error, never a wild read.
 */
#include "dxil_md_reader.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "arena.h"
#include "error.h"

bool sb_dxil_md_fail(struct sb_dxil_md_reader *r, enum sb_result code, const char *format, ...)
{
    if (r->result == SB_SUCCESS) {
        va_list args;
        va_start(args, format);
        r->result = sb_error_setv(r->error, code, r->offset, SB_ERROR_NO_INSTR, format, args);
        va_end(args);
    }
    return false;
}

static const char *kind_name(enum sb_bc_metadata_kind kind)
{
    switch (kind) {
    case SB_BC_MD_STRING: return "a string";
    case SB_BC_MD_VALUE: return "a value";
    case SB_BC_MD_NODE:
    case SB_BC_MD_DISTINCT_NODE: return "a node";
    default: return "a debug record";
    }
}

/* Why `id` names no metadata. The failure paths of the lookups below are out of line, so the
 * lookups, on the path of every dx.* field, are small enough to inline into their callers. */
static SB_COLD SB_NOINLINE const struct sb_bc_metadata *
missing(struct sb_dxil_md_reader *r, uint32_t id, const char *what)
{
    if (id == SB_BC_NONE)
        sb_dxil_md_fail(r, SB_ERROR_BAD_VALUE, "%s is null", what);
    else
        sb_dxil_md_fail(r, SB_ERROR_BAD_VALUE, "%s: metadata id %u is out of range (%u ids)",
                        what, id, r->module->metadata_count);
    return NULL;
}

/* Metadata `id`, not null and in range; module-level only: dx.* nodes never sit in a function.
 * The module's table is indexed directly: every dx.* field comes through here. */
static inline const struct sb_bc_metadata *get(struct sb_dxil_md_reader *r, uint32_t id,
                                               const char *what)
{
    if (id < r->module->metadata_count)
        return &r->module->metadata[id];
    return missing(r, id, what);
}

/* The module constant behind value id `id`, or NULL (sb_bc_constant_get on module ids). */
static inline const struct sb_bc_constant *module_constant(const struct sb_bc_module *m,
                                                           uint32_t id)
{
    if (id >= m->value_count || m->values[id].kind != SB_BC_VALUE_CONSTANT)
        return NULL;
    uint32_t index = m->values[id].index;
    return index < m->constant_count ? &m->constants[index] : NULL;
}

const struct sb_bc_metadata *sb_dxil_md_node(struct sb_dxil_md_reader *r, uint32_t id,
                                             uint32_t min, uint32_t max, const char *what)
{
    const struct sb_bc_metadata *md = get(r, id, what);
    if (!md)
        return NULL;
    if (md->kind != SB_BC_MD_NODE && md->kind != SB_BC_MD_DISTINCT_NODE) {
        sb_dxil_md_fail(r, SB_ERROR_BAD_VALUE, "%s (!%u) is %s, not a node", what, id,
                        kind_name(md->kind));
        return NULL;
    }
    if (md->operand_count < min || md->operand_count > max) {
        if (min == max)
            sb_dxil_md_fail(r, SB_ERROR_BAD_COUNT, "%s (!%u) has %u operands, not %u", what, id,
                            md->operand_count, min);
        else
            sb_dxil_md_fail(r, SB_ERROR_BAD_COUNT, "%s (!%u) has %u operands, not %u to %u",
                            what, id, md->operand_count, min, max);
        return NULL;
    }
    return md;
}

const struct sb_bc_metadata *sb_dxil_md_node_or_null(struct sb_dxil_md_reader *r, uint32_t id,
                                                     uint32_t min, uint32_t max,
                                                     const char *what)
{
    return id == SB_BC_NONE ? NULL : sb_dxil_md_node(r, id, min, max, what);
}

const struct sb_bc_metadata *sb_dxil_md_pairs(struct sb_dxil_md_reader *r, uint32_t id,
                                              const char *what)
{
    const struct sb_bc_metadata *node = sb_dxil_md_node_or_null(r, id, 0, UINT32_MAX, what);
    if (node && node->operand_count % 2) {
        sb_dxil_md_fail(r, SB_ERROR_BAD_COUNT, "%s (!%u) has %u operands, not tag/value pairs",
                        what, id, node->operand_count);
        return NULL;
    }
    return node;
}

/* Why metadata `md` (id `id`) holds no constant of the kind wanted. */
static SB_COLD SB_NOINLINE const struct sb_bc_constant *
not_constant(struct sb_dxil_md_reader *r, uint32_t id, const struct sb_bc_metadata *md,
             const char *what, const char *kind_text)
{
    if (md->kind != SB_BC_MD_VALUE)
        sb_dxil_md_fail(r, SB_ERROR_BAD_VALUE, "%s (!%u) is %s, not %s", what, id,
                        kind_name(md->kind), kind_text);
    else
        sb_dxil_md_fail(r, SB_ERROR_BAD_VALUE, "%s (!%u) is not %s", what, id, kind_text);
    return NULL;
}

/* The constant behind value metadata `id`, of the kind wanted. */
static inline const struct sb_bc_constant *constant(struct sb_dxil_md_reader *r, uint32_t id,
                                                    const char *what,
                                                    enum sb_bc_constant_kind kind,
                                                    const char *kind_text)
{
    const struct sb_bc_metadata *md = get(r, id, what);
    if (!md)
        return NULL;
    const struct sb_bc_constant *c =
        md->kind == SB_BC_MD_VALUE ? module_constant(r->module, md->value) : NULL;
    /* Zero of any type is written as a NULL constant (`i32 0` included). */
    if (!c || (c->kind != kind && c->kind != SB_BC_CONST_NULL) || c->type >= r->module->type_count)
        return not_constant(r, id, md, what, kind_text);
    return c;
}

static SB_COLD SB_NOINLINE bool not_integer(struct sb_dxil_md_reader *r, uint32_t id,
                                                    const char *what)
{
    return sb_dxil_md_fail(r, SB_ERROR_BAD_VALUE, "%s (!%u) is not an integer", what, id);
}

/* sb_dxil_md_int, inlined into the 32-bit reads that nearly every field is. */
static inline bool read_int(struct sb_dxil_md_reader *r, uint32_t id, const char *what,
                            int64_t *out)
{
    /* Only integers read without a failure are kept, so an id that failed fails again
     * with its own message. */
    struct sb_dxil_md_kept_int *kept = &r->kept_ints[id % SB_DXIL_MD_KEPT_INTS];
    if (kept->key == id + 1u && id != UINT32_MAX) {
        *out = kept->value;
        return true;
    }
    const struct sb_bc_constant *c = constant(r, id, what, SB_BC_CONST_INTEGER, "an integer");
    if (!c)
        return false;
    const struct sb_bc_type *type = &r->module->types[c->type];
    if (type->kind != SB_BC_TYPE_INTEGER)
        return not_integer(r, id, what);
    uint32_t width = type->width;
    uint64_t bits = c->kind == SB_BC_CONST_NULL ? 0 : c->bits;
    if (width > 0 && width < 64) {
        uint64_t sign = 1ull << (width - 1);
        bits &= (sign << 1) - 1;
        bits = (bits ^ sign) - sign;
    }
    *out = (int64_t)bits;
    kept->key = id + 1u;
    kept->fits_32_bits = *out >= INT32_MIN && *out <= (int64_t)UINT32_MAX;
    kept->value = *out;
    return true;
}

bool sb_dxil_md_int(struct sb_dxil_md_reader *r, uint32_t id, const char *what, int64_t *out)
{
    return read_int(r, id, what, out);
}

static SB_COLD SB_NOINLINE bool outside_32_bits(struct sb_dxil_md_reader *r, uint32_t id,
                                                        const char *what, int64_t value)
{
    return sb_dxil_md_fail(r, SB_ERROR_BAD_VALUE, "%s (!%u) is %lld, outside 32 bits", what, id,
                           (long long)value);
}

static inline bool read_u32(struct sb_dxil_md_reader *r, uint32_t id, const char *what,
                            uint32_t *out)
{
    int64_t value = 0; /* defined on every path, not only after a success */
    if (!read_int(r, id, what, &value))
        return false;
    if (value < INT32_MIN || value > (int64_t)UINT32_MAX)
        return outside_32_bits(r, id, what, value);
    *out = (uint32_t)value;
    return true;
}

bool sb_dxil_md_u32_read(struct sb_dxil_md_reader *r, uint32_t id, const char *what,
                         uint32_t *out)
{
    return read_u32(r, id, what, out);
}

bool sb_dxil_md_pair_u32(struct sb_dxil_md_reader *r, const struct sb_bc_metadata *pairs,
                         uint32_t i, const char *what, uint32_t *tag, uint32_t *value)
{
    return read_u32(r, pairs->operands[2 * i], what, tag) &&
           read_u32(r, pairs->operands[2 * i + 1], what, value);
}

bool sb_dxil_md_field_u32_read(struct sb_dxil_md_reader *r, const struct sb_bc_metadata *node,
                               uint32_t index, const char *what, uint32_t *out)
{
    if (index >= node->operand_count)
        return sb_dxil_md_fail(r, SB_ERROR_BAD_COUNT, "%s: field %u is missing", what, index);
    return read_u32(r, node->operands[index], what, out);
}

bool sb_dxil_md_float(struct sb_dxil_md_reader *r, uint32_t id, const char *what, float *out)
{
    const struct sb_bc_constant *c = constant(r, id, what, SB_BC_CONST_FLOAT, "a float");
    if (!c)
        return false;
    const struct sb_bc_type *type = &r->module->types[c->type];
    if (type->kind != SB_BC_TYPE_DOUBLE && type->kind != SB_BC_TYPE_FLOAT) {
        return sb_dxil_md_fail(r, SB_ERROR_BAD_VALUE, "%s (!%u) is not a 32- or 64-bit float",
                               what, id);
    } else if (c->kind == SB_BC_CONST_NULL) {
        *out = 0.0f;
    } else if (type->kind == SB_BC_TYPE_DOUBLE) {
        double d;
        memcpy(&d, &c->bits, sizeof(d));
        *out = (float)d;
    } else {
        uint32_t bits = (uint32_t)c->bits;
        memcpy(out, &bits, sizeof(*out));
    }
    return true;
}

bool sb_dxil_md_string(struct sb_dxil_md_reader *r, uint32_t id, const char *what,
                       const char **out)
{
    const struct sb_bc_metadata *md = get(r, id, what);
    if (!md)
        return false;
    if (md->kind != SB_BC_MD_STRING)
        return sb_dxil_md_fail(r, SB_ERROR_BAD_VALUE, "%s (!%u) is %s, not a string", what, id,
                               kind_name(md->kind));
    const char *nul = md->length ? memchr(md->string, 0, md->length) : NULL;
    size_t length = nul ? (size_t)(nul - md->string) : md->length;
    char *copy = sb_arena_alloc_uninit(r->arena, length + 1, 1);
    if (!copy)
        return sb_dxil_md_fail(r, SB_ERROR_OUT_OF_MEMORY, "out of memory copying %s", what);
    /* Names are ASCII in DXIL; anything else (a damaged file) becomes '?', so every
     * string prints and goes into JSON as it is. */
    for (size_t i = 0; i < length; i++)
        copy[i] = md->string[i] >= 0x20 && md->string[i] < 0x7f ? md->string[i] : '?';
    copy[length] = 0;
    *out = copy;
    return true;
}

bool sb_dxil_md_function(struct sb_dxil_md_reader *r, uint32_t id, const char *what,
                         uint32_t *out)
{
    *out = SB_BC_NONE;
    if (id == SB_BC_NONE)
        return true;
    const struct sb_bc_metadata *md = get(r, id, what);
    if (!md)
        return false;
    const struct sb_bc_value *value =
        md->kind == SB_BC_MD_VALUE ? sb_bc_value_get(r->module, NULL, md->value) : NULL;
    if (!value || value->kind != SB_BC_VALUE_FUNCTION || value->index >= r->module->function_count)
        return sb_dxil_md_fail(r, SB_ERROR_BAD_VALUE, "%s (!%u) is not a function", what, id);
    *out = value->index;
    return true;
}

void *sb_dxil_md_alloc(struct sb_dxil_md_reader *r, uint32_t count, size_t size)
{
    if (count == 0)
        return NULL;
    void *p = sb_arena_alloc(r->arena, count, size);
    if (!p)
        sb_dxil_md_fail(r, SB_ERROR_OUT_OF_MEMORY, "out of memory for %u records", count);
    return p;
}
