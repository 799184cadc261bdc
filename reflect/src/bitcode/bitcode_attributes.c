/* SPDX-License-Identifier: MIT */
/*
 * PARAMATTR_GROUP_BLOCK and PARAMATTR_BLOCK (../shared/docs/dxil.md §2.7):
 * attribute groups (nounwind, readnone, the fp32-denorm-mode string, ...) and
 * the lists of groups that FUNCTION and CALL records name by 1-based index.
 */
#include "bitcode_private.h"

#include "arena.h"

enum {
    PARAMATTR_ENTRY = 2,     /* [group id...] */
    PARAMATTR_GRP_ENTRY = 3, /* [group id, index, attributes...] */
};

/* A NUL-terminated string of operands starting at *at; *at moves past the NUL. */
static const char *zstring(struct sb_bc_reader *r, uint32_t *at)
{
    uint32_t start = *at;
    while (*at < r->bs.op_count && r->bs.ops[*at] != 0)
        ++*at;
    if (*at == r->bs.op_count) {
        bc_fail(r, SB_ERROR_BC_BAD_RECORD, "PARAMATTR_GRP_ENTRY: a string attribute is not "
                                           "terminated inside its record");
        return NULL;
    }
    const char *text = bc_ops_string(r, start, *at - start, "PARAMATTR_GRP_ENTRY string");
    ++*at;
    return text;
}

static bool read_attribute(struct sb_bc_reader *r, uint32_t *at, struct sb_bc_attribute *a)
{
    const uint64_t *ops = r->bs.ops;
    uint64_t kind = ops[(*at)++];
    a->kind = (enum sb_bc_attribute_kind)(kind & 0xff);
    switch (kind) {
    case SB_BC_ATTR_ENUM:
    case SB_BC_ATTR_INT:
        if (*at + (kind == SB_BC_ATTR_INT) >= r->bs.op_count)
            return bc_fail(r, SB_ERROR_BC_BAD_RECORD, "PARAMATTR_GRP_ENTRY: attribute cut short");
        a->key = (uint32_t)(ops[(*at)++] & 0xffffffffu);
        if (kind == SB_BC_ATTR_INT)
            a->int_value = ops[(*at)++];
        return true;
    case SB_BC_ATTR_STRING:
        a->string_key = zstring(r, at);
        return a->string_key != NULL;
    case SB_BC_ATTR_STRING_VALUE:
        a->string_key = zstring(r, at);
        a->string_value = a->string_key ? zstring(r, at) : NULL;
        return a->string_value != NULL;
    default:
        return bc_fail(r, SB_ERROR_BC_BAD_RECORD, "PARAMATTR_GRP_ENTRY: attribute kind %llu "
                                                  "is not 0, 1, 3 or 4",
                       (unsigned long long)kind);
    }
}

static bool read_group(struct sb_bc_reader *r)
{
    struct sb_bc_module *m = r->module;
    if (!bc_need_ops(r, 2, "PARAMATTR_GRP_ENTRY"))
        return false;
    if (!bc_reserve(r, (void **)&m->attribute_groups, &r->group_capacity,
                    m->attribute_group_count + 1, sizeof(*m->attribute_groups)))
        return false;
    struct sb_bc_attribute_group *g = &m->attribute_groups[m->attribute_group_count];
    *g = (struct sb_bc_attribute_group){ .id = (uint32_t)(r->bs.ops[0] & 0xffffffffu),
                                         .index = (uint32_t)(r->bs.ops[1] & 0xffffffffu) };
    /* Each attribute takes at least two operands: at most half the rest. */
    uint32_t most = (r->bs.op_count - 2) / 2;
    g->attributes = most ? sb_arena_alloc(r->arena, most, sizeof(*g->attributes)) : NULL;
    if (most && !g->attributes)
        return bc_fail(r, SB_ERROR_OUT_OF_MEMORY, "PARAMATTR_GRP_ENTRY: out of memory");
    for (uint32_t at = 2; at < r->bs.op_count;) {
        if (g->attribute_count == most)
            return bc_fail(r, SB_ERROR_BC_BAD_RECORD, "PARAMATTR_GRP_ENTRY: attribute cut short");
        if (!read_attribute(r, &at, &g->attributes[g->attribute_count++]))
            return false;
    }
    m->attribute_group_count++;
    return true;
}

static bool read_list(struct sb_bc_reader *r)
{
    struct sb_bc_module *m = r->module;
    if (!bc_reserve(r, (void **)&m->attribute_lists, &r->list_capacity,
                    m->attribute_list_count + 1, sizeof(*m->attribute_lists)))
        return false;
    struct sb_bc_attribute_list *list = &m->attribute_lists[m->attribute_list_count];
    list->group_count = r->bs.op_count;
    list->groups = bc_copy_ops32(r, 0, r->bs.op_count, "PARAMATTR_ENTRY");
    if (r->bs.failed)
        return false;
    m->attribute_list_count++;
    return true;
}

/* Reads either block (just entered): group entries in one, lists in the other. */
bool bc_read_attribute_block(struct sb_bc_reader *r)
{
    uint32_t block = r->bs.block_id;
    for (;;) {
        enum sb_bs_entry entry = bc_next_record(r);
        if (entry == SB_BS_END)
            return true;
        if (entry != SB_BS_RECORD)
            return false;
        bool ok = true;
        if (block == BC_BLOCK_PARAMATTR_GROUP && r->bs.code == PARAMATTR_GRP_ENTRY)
            ok = read_group(r);
        else if (block == BC_BLOCK_PARAMATTR && r->bs.code == PARAMATTR_ENTRY)
            ok = read_list(r);
        else
            ok = bc_fail(r, SB_ERROR_BC_BAD_RECORD, "attribute block %u: record code %u is not "
                                                    "one LLVM 3.7 writes", block, r->bs.code);
        if (!ok)
            return false;
    }
}
