/* SPDX-License-Identifier: MIT */
/*
 * CONSTANTS_BLOCK (../shared/docs/dxil.md §2.11), at module level and inside
 * function blocks: a running "current type" (i32 until SETTYPE changes it)
 * and one constant value per other record, appended to the module's or the
 * function's value list in record order.
 *
 * Aggregates and constant expressions name other constants by absolute
 * value id, possibly ones later in the same block, so those ids are checked
 * when the block ends. Records DXIL does not use (constant binops, compares,
 * selects, wide integers, ...) are kept raw as SB_BC_CONST_OTHER: they still
 * take their value id, so the numbering of everything after them holds.
 */
#include "bitcode_private.h"

#include "arena.h"

enum {
    CST_SETTYPE = 1,
    CST_NULL = 2,
    CST_UNDEF = 3,
    CST_INTEGER = 4,
    CST_FLOAT = 6,
    CST_AGGREGATE = 7,
    CST_STRING = 8,
    CST_CSTRING = 9,
    CST_CE_CAST = 11,
    CST_CE_GEP = 12,
    CST_CE_INBOUNDS_GEP = 20,
    CST_DATA = 22,
};

/* Signed VBR (§2.1): the sign in bit 0; "negative zero" stands for INT64_MIN. */
static uint64_t decode_signed(uint64_t v)
{
    if (!(v & 1))
        return v >> 1;
    return v == 1 ? (uint64_t)1 << 63 : (uint64_t)0 - (v >> 1);
}

static uint64_t *copy_ops(struct sb_bc_reader *r, uint32_t first, uint32_t count)
{
    if (!count)
        return NULL;
    uint64_t *copy = sb_arena_alloc_uninit(r->arena, count, sizeof(*copy));
    if (!copy) {
        bc_fail(r, SB_ERROR_OUT_OF_MEMORY, "CONSTANTS: out of memory");
        return NULL;
    }
    for (uint32_t i = 0; i < count; i++)
        copy[i] = r->bs.ops[first + i];
    return copy;
}

static bool decode_integer(struct sb_bc_reader *r, struct sb_bc_constant *c)
{
    const struct sb_bc_type *t = &r->module->types[c->type];
    if (!bc_need_ops(r, 1, "CONSTANTS INTEGER"))
        return false;
    if (t->kind != SB_BC_TYPE_INTEGER)
        return bc_fail(r, SB_ERROR_BC_BAD_TYPE, "CONSTANTS INTEGER: current type %u is not an integer",
                       c->type);
    uint64_t value = decode_signed(r->bs.ops[0]);
    c->kind = SB_BC_CONST_INTEGER;
    c->bits = t->width == 64 ? value : value & ((1ull << t->width) - 1);
    return true;
}

/* CE_GEP: [(pointee type if the count is odd), (type, value id)...]. */
static bool decode_gep(struct sb_bc_reader *r, struct sb_bc_constant *c)
{
    uint32_t first = r->bs.op_count & 1;
    c->kind = SB_BC_CONST_GEP;
    c->flags = r->bs.code == CST_CE_INBOUNDS_GEP;
    c->aux_type = SB_BC_NONE;
    if (first) {
        if (!bc_check_type(r, r->bs.ops[0], "CONSTANTS CE_GEP source type"))
            return false;
        c->aux_type = (uint32_t)r->bs.ops[0];
    }
    c->element_count = (r->bs.op_count - first) / 2;
    if (!c->element_count)
        return bc_fail(r, SB_ERROR_BC_BAD_RECORD, "CONSTANTS CE_GEP: no base pointer");
    uint64_t *ids = sb_arena_alloc_uninit(r->arena, c->element_count, sizeof(*ids));
    if (!ids)
        return bc_fail(r, SB_ERROR_OUT_OF_MEMORY, "CONSTANTS CE_GEP: out of memory");
    for (uint32_t i = 0; i < c->element_count; i++) {
        if (!bc_check_type(r, r->bs.ops[first + 2 * i], "CONSTANTS CE_GEP operand type"))
            return false;
        ids[i] = r->bs.ops[first + 2 * i + 1];
    }
    c->elements = ids;
    return true;
}

/* The current record as a constant of type `c->type`. */
static bool decode_constant(struct sb_bc_reader *r, struct sb_bc_constant *c)
{
    const uint64_t *ops = r->bs.ops;
    uint32_t count = r->bs.op_count;
    c->aux_type = SB_BC_NONE;
    switch (r->bs.code) {
    case CST_NULL: c->kind = SB_BC_CONST_NULL; return true;
    case CST_UNDEF: c->kind = SB_BC_CONST_UNDEF; return true;
    case CST_INTEGER: return decode_integer(r, c);
    case CST_FLOAT:
        if (!bc_need_ops(r, 1, "CONSTANTS FLOAT"))
            return false;
        c->kind = SB_BC_CONST_FLOAT;
        c->bits = ops[0];
        return true;
    case CST_AGGREGATE:
        c->kind = SB_BC_CONST_AGGREGATE;
        break;
    case CST_STRING:
    case CST_CSTRING:
    case CST_DATA:
        c->kind = SB_BC_CONST_DATA;
        break;
    case CST_CE_CAST:
        if (!bc_need_ops(r, 3, "CONSTANTS CE_CAST") ||
            !bc_check_type(r, ops[1], "CONSTANTS CE_CAST source type"))
            return false;
        c->kind = SB_BC_CONST_CAST;
        c->op = (uint32_t)(ops[0] & 0xffffffffu);
        c->aux_type = (uint32_t)ops[1];
        c->element_count = 1;
        c->elements = copy_ops(r, 2, 1);
        return c->elements != NULL;
    case CST_CE_GEP:
    case CST_CE_INBOUNDS_GEP:
        return decode_gep(r, c);
    default:
        c->kind = SB_BC_CONST_OTHER;
        c->op = r->bs.code;
        break;
    }
    c->element_count = count;
    c->elements = copy_ops(r, 0, count);
    if (r->bs.code == CST_CSTRING && c->kind == SB_BC_CONST_DATA) {
        /* CSTRING leaves out the terminating NUL the array holds. */
        uint64_t *with_nul = sb_arena_alloc(r->arena, (size_t)count + 1, sizeof(*with_nul));
        if (!with_nul)
            return bc_fail(r, SB_ERROR_OUT_OF_MEMORY, "CONSTANTS CSTRING: out of memory");
        for (uint32_t i = 0; i < count; i++)
            with_nul[i] = ops[i];
        c->elements = with_nul;
        c->element_count = count + 1;
    }
    return count == 0 || c->elements != NULL;
}

/* Value ids named by aggregates and expressions exist once the block is read. */
static bool check_operands(struct sb_bc_reader *r, const struct sb_bc_constant *items,
                           uint32_t first, uint32_t end)
{
    uint32_t values = bc_value_count(r);
    for (uint32_t i = first; i < end; i++) {
        const struct sb_bc_constant *c = &items[i];
        if (c->kind != SB_BC_CONST_AGGREGATE && c->kind != SB_BC_CONST_CAST &&
            c->kind != SB_BC_CONST_GEP)
            continue;
        for (uint32_t k = 0; k < c->element_count; k++)
            if (c->elements[k] >= values)
                return bc_fail(r, SB_ERROR_BC_BAD_REFERENCE,
                               "CONSTANTS: constant %u operand %u names value %llu, only %u exist",
                               i, k, (unsigned long long)c->elements[k], values);
    }
    return true;
}

bool bc_read_constants_block(struct sb_bc_reader *r)
{
    struct sb_bc_module *m = r->module;
    struct sb_bc_function *f = r->function;
    struct sb_bc_constant **items = f ? &f->constants : &m->constants;
    uint32_t *count = f ? &f->constant_count : &m->constant_count;
    uint32_t *capacity = f ? &r->fn_constant_capacity : &r->constant_capacity;
    uint32_t first = *count;
    uint32_t type = bc_find_integer(r, 32);
    /* A constant takes 16 bits or more (an abbreviated small integer); each is a value too. */
    struct sb_bc_value **values = f ? &f->values : &m->values;
    uint32_t value_count = f ? f->value_count : m->value_count;
    uint32_t *value_capacity = f ? &r->fn_value_capacity : &r->value_capacity;
    if (!bc_reserve_block(r, (void **)items, capacity, *count, 16, sizeof(**items)) ||
        !bc_reserve_block(r, (void **)values, value_capacity, value_count, 16, sizeof(**values)))
        return false;
    for (;;) {
        enum sb_bs_entry entry = bc_next_record(r);
        if (entry == SB_BS_END)
            return check_operands(r, *items, first, *count);
        if (entry != SB_BS_RECORD)
            return false;
        if (r->bs.code == CST_SETTYPE) {
            if (!bc_need_ops(r, 1, "CONSTANTS SETTYPE") ||
                !bc_check_type(r, r->bs.ops[0], "CONSTANTS SETTYPE"))
                return false;
            type = (uint32_t)r->bs.ops[0];
            continue;
        }
        if (type == SB_BC_NONE)
            return bc_fail(r, SB_ERROR_BC_BAD_TYPE,
                           "CONSTANTS: a constant before SETTYPE and the module has no i32 type");
        if (!bc_reserve(r, (void **)items, capacity, *count + 1, sizeof(**items)))
            return false;
        struct sb_bc_constant *c = &(*items)[*count];
        *c = (struct sb_bc_constant){ .type = type };
        if (!decode_constant(r, c) || !bc_push_value(r, SB_BC_VALUE_CONSTANT, type, *count))
            return false;
        (*count)++;
    }
}
