/* SPDX-License-Identifier: MIT */
/*
 * METADATA_BLOCK, METADATA_KIND and METADATA_ATTACHMENT (../shared/docs/dxil.md
 * §2.13, the dx.* records of §4 are built from these).
 *
 * Every record that creates an item (string, value, node, debug record) takes
 * the next metadata id: module metadata first, then a function's own from
 * sb_bc_module::metadata_count on. Nodes may name items defined later in the
 * block, so node and named-node operands are checked when the block ends;
 * nothing walks the node graph here, and a node that (directly or not)
 * contains itself is stored like any other, by index.
 */
#include "bitcode_private.h"

#include "arena.h"

enum {
    MD_STRING = 1,
    MD_VALUE = 2,
    MD_NODE = 3,
    MD_NAME = 4,
    MD_DISTINCT_NODE = 5,
    MD_KIND = 6,
    MD_LOCATION = 7,
    MD_OLD_NODE = 8,
    MD_OLD_FN_NODE = 9,
    MD_NAMED_NODE = 10,
    MD_ATTACHMENT = 11,
    MD_FIRST_DEBUG = 12, /* GENERIC_DEBUG .. MODULE: debug-info records, one item each */
    MD_LAST_DEBUG = 32,
};

struct md_list {
    struct sb_bc_metadata **items;
    uint32_t *count;
    uint32_t *capacity;
    uint32_t base; /* metadata id of items[0] */
};

static struct md_list current_list(struct sb_bc_reader *r)
{
    struct sb_bc_module *m = r->module;
    struct sb_bc_function *f = r->function;
    if (f)
        return (struct md_list){ &f->metadata, &f->metadata_count, &r->fn_metadata_capacity,
                                 m->metadata_count };
    return (struct md_list){ &m->metadata, &m->metadata_count, &r->metadata_capacity, 0 };
}

/* The first operand of the node record past 32 bits (decode_node saw one). */
static SB_COLD bool operand_too_wide(struct sb_bc_reader *r)
{
    uint32_t i = 0;
    while (i + 1 < r->bs.op_count && r->bs.ops[i] <= UINT32_MAX)
        i++;
    return bc_fail(r, SB_ERROR_BC_BAD_RECORD, "METADATA NODE: operand %u = %llu exceeds 32 bits",
                   i, (unsigned long long)r->bs.ops[i]);
}

/* NODE operands are metadata id + 1 (0 = null); stored as ids, SB_BC_NONE for null. */
static bool decode_node(struct sb_bc_reader *r, struct sb_bc_metadata *md)
{
    md->kind = r->bs.code == MD_NODE ? SB_BC_MD_NODE : SB_BC_MD_DISTINCT_NODE;
    uint32_t count = r->bs.op_count;
    md->operand_count = count;
    md->operands = NULL;
    if (!count)
        return true;
    uint32_t *ids = sb_arena_alloc_uninit(r->arena, count, sizeof(*ids));
    if (!ids)
        return bc_fail(r, SB_ERROR_OUT_OF_MEMORY, "METADATA NODE: out of memory");
    /* One pass: the ids, the highest reference for check_references and, ORed
     * together, the bits that say whether an operand exceeds 32 bits. */
    const uint64_t *raw = r->bs.ops;
    uint64_t top = r->md_top_reference, high = 0;
    for (uint32_t i = 0; i < count; i++) {
        high |= raw[i];
        top = raw[i] > top ? raw[i] : top;
        ids[i] = raw[i] ? (uint32_t)(raw[i] - 1) : SB_BC_NONE;
    }
    if (high > UINT32_MAX)
        return operand_too_wide(r);
    r->md_top_reference = top;
    md->operands = ids;
    return true;
}

static bool decode_item(struct sb_bc_reader *r, struct sb_bc_metadata *md)
{
    md->code = r->bs.code;
    md->type = SB_BC_NONE;
    md->value = SB_BC_NONE;
    switch (r->bs.code) {
    case MD_STRING:
        md->kind = SB_BC_MD_STRING;
        md->length = r->bs.op_count;
        md->string = bc_ops_string(r, 0, r->bs.op_count, "METADATA STRING");
        return md->string != NULL;
    case MD_VALUE:
        if (!bc_need_ops(r, 2, "METADATA VALUE") ||
            !bc_check_type(r, r->bs.ops[0], "METADATA VALUE type"))
            return false;
        if (r->bs.ops[1] >= bc_value_count(r))
            return bc_fail(r, SB_ERROR_BC_BAD_REFERENCE,
                           "METADATA VALUE: value id %llu, only %u values exist",
                           (unsigned long long)r->bs.ops[1], bc_value_count(r));
        md->kind = SB_BC_MD_VALUE;
        md->type = (uint32_t)r->bs.ops[0];
        md->value = (uint32_t)r->bs.ops[1];
        return true;
    case MD_NODE:
    case MD_DISTINCT_NODE:
        return decode_node(r, md);
    default:
        md->kind = SB_BC_MD_OTHER;
        md->operand_count = r->bs.op_count;
        md->operands = bc_copy_ops32(r, 0, r->bs.op_count, "METADATA debug record");
        return !r->bs.failed;
    }
}

static bool creates_item(uint32_t code)
{
    return code == MD_STRING || code == MD_VALUE || code == MD_NODE || code == MD_DISTINCT_NODE ||
           code == MD_LOCATION || code == MD_OLD_NODE || code == MD_OLD_FN_NODE ||
           (code >= MD_FIRST_DEBUG && code <= MD_LAST_DEBUG);
}

/* NAME [chars] must be followed by NAMED_NODE [ids]. */
static bool read_named(struct sb_bc_reader *r)
{
    struct sb_bc_module *m = r->module;
    if (r->function)
        return bc_fail(r, SB_ERROR_BC_BAD_RECORD, "METADATA NAME inside a function");
    uint32_t name_length = r->bs.op_count;
    const char *name = bc_ops_string(r, 0, name_length, "METADATA NAME");
    if (!name)
        return false;
    if (sb_bs_next(&r->bs) != SB_BS_RECORD)
        return r->bs.failed ? false
                            : bc_fail(r, SB_ERROR_BC_BAD_RECORD,
                                      "METADATA NAME '%s' is not followed by a record", name);
    if (r->bs.code != MD_NAMED_NODE)
        return bc_fail(r, SB_ERROR_BC_BAD_RECORD,
                       "METADATA NAME '%s' is followed by code %u, not NAMED_NODE", name,
                       r->bs.code);
    if (!bc_reserve(r, (void **)&m->named_metadata, &r->named_capacity,
                    m->named_metadata_count + 1, sizeof(*m->named_metadata)))
        return false;
    struct sb_bc_named_metadata *named = &m->named_metadata[m->named_metadata_count];
    named->name = name;
    named->name_length = name_length;
    named->operand_count = r->bs.op_count;
    named->operands = bc_copy_ops32(r, 0, r->bs.op_count, "METADATA NAMED_NODE");
    if (r->bs.failed)
        return false;
    for (uint32_t k = 0; k < named->operand_count; k++)
        if ((uint64_t)named->operands[k] + 1 > r->md_top_reference)
            r->md_top_reference = (uint64_t)named->operands[k] + 1;
    m->named_metadata_count++;
    return true;
}

static bool read_kind(struct sb_bc_reader *r)
{
    struct sb_bc_module *m = r->module;
    if (!bc_need_ops(r, 1, "METADATA KIND"))
        return false;
    if (r->bs.ops[0] > UINT32_MAX)
        return bc_fail(r, SB_ERROR_BC_BAD_RECORD, "METADATA KIND: id %llu exceeds 32 bits",
                       (unsigned long long)r->bs.ops[0]);
    if (!bc_reserve(r, (void **)&m->metadata_kinds, &r->kind_capacity, m->metadata_kind_count + 1,
                    sizeof(*m->metadata_kinds)))
        return false;
    const char *name = bc_ops_string(r, 1, r->bs.op_count - 1, "METADATA KIND name");
    if (!name)
        return false;
    m->metadata_kinds[m->metadata_kind_count++] =
        (struct sb_bc_metadata_kind_name){ .id = (uint32_t)r->bs.ops[0], .name = name };
    return true;
}

/* Node and named-node operands name existing items once the block is read. */
static bool check_references(struct sb_bc_reader *r, const struct md_list *list, uint32_t first,
                             uint32_t first_named)
{
    uint32_t total = list->base + *list->count;
    /* Every id named is below the table's end: nothing to look for. */
    if (r->md_top_reference <= total)
        return true;
    for (uint32_t i = first; i < *list->count; i++) {
        const struct sb_bc_metadata *md = &(*list->items)[i];
        if (md->kind != SB_BC_MD_NODE && md->kind != SB_BC_MD_DISTINCT_NODE)
            continue;
        for (uint32_t k = 0; k < md->operand_count; k++)
            if (md->operands[k] != SB_BC_NONE && md->operands[k] >= total)
                return bc_fail(r, SB_ERROR_BC_BAD_REFERENCE,
                               "METADATA node %u operand %u names metadata %u, only %u exist",
                               list->base + i, k, md->operands[k], total);
    }
    const struct sb_bc_module *m = r->module;
    for (uint32_t i = first_named; i < m->named_metadata_count; i++)
        for (uint32_t k = 0; k < m->named_metadata[i].operand_count; k++)
            if (m->named_metadata[i].operands[k] >= total)
                return bc_fail(r, SB_ERROR_BC_BAD_REFERENCE,
                               "named metadata '%s' operand %u names metadata %u, only %u exist",
                               m->named_metadata[i].name, k, m->named_metadata[i].operands[k],
                               total);
    return true;
}

bool bc_read_metadata_block(struct sb_bc_reader *r)
{
    struct md_list list = current_list(r);
    uint32_t first = *list.count, first_named = r->module->named_metadata_count;
    r->md_top_reference = 0;
    if (r->flags & SB_BC_READ_SKIP_KINDS_AND_LAYOUT) {
        sb_bs_skip_records(&r->bs, 1ull << MD_KIND);
        /* The block of kind names alone, as another module had it: nothing to read. */
        if (sb_bs_pass_known_block(&r->bs))
            return check_references(r, &list, first, first_named);
    }
    /* An item takes 24 bits or more (a VALUE record; strings and nodes more). */
    if (!bc_reserve_block(r, (void **)list.items, list.capacity, *list.count, 24,
                          sizeof(**list.items)))
        return false;
    for (;;) {
        enum sb_bs_entry entry = bc_next_record(r);
        if (entry == SB_BS_END)
            return check_references(r, &list, first, first_named);
        if (entry != SB_BS_RECORD)
            return false;
        uint32_t code = r->bs.code;
        if (code == MD_NAME) {
            if (!read_named(r))
                return false;
            continue;
        }
        if (code == MD_KIND) {
            if (!read_kind(r))
                return false;
            continue;
        }
        if (!creates_item(code))
            return bc_fail(r, SB_ERROR_BC_BAD_RECORD, "METADATA record code %u is unknown", code);
        if (list.base + *list.count == UINT32_MAX)
            return bc_fail(r, SB_ERROR_BAD_COUNT, "more than 2^32 - 1 metadata items");
        if (!bc_reserve(r, (void **)list.items, list.capacity, *list.count + 1,
                        sizeof(**list.items)))
            return false;
        struct sb_bc_metadata *md = &(*list.items)[*list.count];
        *md = (struct sb_bc_metadata){ 0 };
        if (!decode_item(r, md))
            return false;
        (*list.count)++;
    }
}

/* ATTACHMENT: [instruction, (kind, node)...] or, for the function, [(kind, node)...]. */
static bool read_attachment(struct sb_bc_reader *r)
{
    struct sb_bc_function *f = r->function;
    uint32_t count = r->bs.op_count;
    uint32_t first = count & 1;
    uint32_t instruction = SB_BC_NONE;
    if (first) {
        if (r->bs.ops[0] >= f->instruction_count)
            return bc_fail(r, SB_ERROR_BC_BAD_REFERENCE,
                           "METADATA_ATTACHMENT: instruction %llu, the function has %u",
                           (unsigned long long)r->bs.ops[0], f->instruction_count);
        instruction = (uint32_t)r->bs.ops[0];
    }
    uint32_t total = r->module->metadata_count + f->metadata_count;
    for (uint32_t i = first; i + 1 < count; i += 2) {
        if (r->bs.ops[i + 1] >= total || r->bs.ops[i] > UINT32_MAX)
            return bc_fail(r, SB_ERROR_BC_BAD_REFERENCE,
                           "METADATA_ATTACHMENT: kind %llu / node %llu, %u metadata items exist",
                           (unsigned long long)r->bs.ops[i], (unsigned long long)r->bs.ops[i + 1],
                           total);
        if (!bc_reserve(r, (void **)&f->attachments, &r->fn_attachment_capacity,
                        f->attachment_count + 1, sizeof(*f->attachments)))
            return false;
        f->attachments[f->attachment_count++] = (struct sb_bc_attachment){
            .instruction = instruction, .kind = (uint32_t)r->bs.ops[i],
            .node = (uint32_t)r->bs.ops[i + 1] };
    }
    return true;
}

bool bc_read_attachment_block(struct sb_bc_reader *r)
{
    for (;;) {
        enum sb_bs_entry entry = bc_next_record(r);
        if (entry == SB_BS_END)
            return true;
        if (entry != SB_BS_RECORD)
            return false;
        if (r->bs.code == MD_ATTACHMENT && !read_attachment(r))
            return false;
    }
}
