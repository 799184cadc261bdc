/* SPDX-License-Identifier: MIT */
/*
 * TYPE_BLOCK_ID_NEW (../shared/docs/dxil.md §2.8): one type per record, ids in
 * record order; STRUCT_NAME names the next identified struct.
 *
 * Records may name identified structs that come later (a struct that points
 * to itself, or a pointer to a struct defined after it), so references are
 * checked once the block has ended, with LLVM's rule that only named structs
 * may be named before their record. Then one more check: no type may contain itself by value (a
 * struct holding itself, an array of such a struct). LLVM allows such cycles
 * only through pointers; a by-value cycle would send any later walk of the
 * type (sizes, layouts) round forever. The check is a depth-first search with
 * an explicit stack, so a deep chain of types cannot exhaust the C stack.
 */
#include "bitcode_private.h"

#include <stdlib.h>
#include <string.h>

#include "arena.h"

enum {
    TYPE_NUMENTRY = 1,
    TYPE_VOID = 2,
    TYPE_FLOAT = 3,
    TYPE_DOUBLE = 4,
    TYPE_LABEL = 5,
    TYPE_OPAQUE = 6,
    TYPE_INTEGER = 7,
    TYPE_POINTER = 8,
    TYPE_FUNCTION_OLD = 9,
    TYPE_HALF = 10,
    TYPE_ARRAY = 11,
    TYPE_VECTOR = 12,
    TYPE_METADATA = 16,
    TYPE_STRUCT_ANON = 18,
    TYPE_STRUCT_NAME = 19,
    TYPE_STRUCT_NAMED = 20,
    TYPE_FUNCTION = 21,
};

static const uint32_t *member_list(struct sb_bc_reader *r, uint32_t first, uint32_t *count,
                                   const char *what)
{
    *count = r->bs.op_count - first;
    return bc_copy_ops32(r, first, *count, what);
}

/* Decodes the current record into `t`; false on a malformed record. */
static bool decode_type(struct sb_bc_reader *r, struct sb_bc_type *t, const char **pending_name)
{
    const uint64_t *ops = r->bs.ops;
    switch (r->bs.code) {
    case TYPE_VOID: t->kind = SB_BC_TYPE_VOID; return true;
    case TYPE_FLOAT: t->kind = SB_BC_TYPE_FLOAT; return true;
    case TYPE_DOUBLE: t->kind = SB_BC_TYPE_DOUBLE; return true;
    case TYPE_HALF: t->kind = SB_BC_TYPE_HALF; return true;
    case TYPE_LABEL: t->kind = SB_BC_TYPE_LABEL; return true;
    case TYPE_METADATA: t->kind = SB_BC_TYPE_METADATA; return true;
    case TYPE_OPAQUE:
        t->kind = SB_BC_TYPE_STRUCT;
        t->opaque = true;
        t->name = *pending_name;
        *pending_name = NULL;
        return true;
    case TYPE_INTEGER:
        if (!bc_need_ops(r, 1, "TYPE INTEGER"))
            return false;
        if (ops[0] < 1 || ops[0] > 64)
            return bc_fail(r, SB_ERROR_BC_BAD_RECORD, "TYPE INTEGER: width %llu outside 1..64",
                           (unsigned long long)ops[0]);
        t->kind = SB_BC_TYPE_INTEGER;
        t->width = (uint32_t)ops[0];
        return true;
    case TYPE_POINTER:
        if (!bc_need_ops(r, 1, "TYPE POINTER"))
            return false;
        if (ops[0] > UINT32_MAX || (r->bs.op_count > 1 && ops[1] > 0xffffff))
            return bc_fail(r, SB_ERROR_BC_BAD_RECORD, "TYPE POINTER: pointee or address space "
                                                      "out of range");
        t->kind = SB_BC_TYPE_POINTER;
        t->element = (uint32_t)ops[0];
        t->address_space = r->bs.op_count > 1 ? (uint32_t)ops[1] : 0;
        return true;
    case TYPE_ARRAY:
    case TYPE_VECTOR:
        if (!bc_need_ops(r, 2, r->bs.code == TYPE_ARRAY ? "TYPE ARRAY" : "TYPE VECTOR"))
            return false;
        if (ops[1] > UINT32_MAX || (r->bs.code == TYPE_VECTOR && ops[0] == 0))
            return bc_fail(r, SB_ERROR_BC_BAD_RECORD, "TYPE %s: element %llu or count %llu invalid",
                           r->bs.code == TYPE_ARRAY ? "ARRAY" : "VECTOR",
                           (unsigned long long)ops[1], (unsigned long long)ops[0]);
        t->kind = r->bs.code == TYPE_ARRAY ? SB_BC_TYPE_ARRAY : SB_BC_TYPE_VECTOR;
        t->count = ops[0];
        t->element = (uint32_t)ops[1];
        return true;
    case TYPE_STRUCT_ANON:
    case TYPE_STRUCT_NAMED:
        if (!bc_need_ops(r, 1, "TYPE STRUCT"))
            return false;
        t->kind = SB_BC_TYPE_STRUCT;
        t->packed = ops[0] != 0;
        t->members = member_list(r, 1, &t->member_count, "TYPE STRUCT member");
        if (r->bs.code == TYPE_STRUCT_NAMED) {
            t->name = *pending_name;
            *pending_name = NULL;
        }
        return !r->bs.failed;
    case TYPE_FUNCTION:
    case TYPE_FUNCTION_OLD: {
        /* FUNCTION: [vararg, ret, params...]; the older form has an attribute id after vararg. */
        uint32_t ret = r->bs.code == TYPE_FUNCTION ? 1 : 2;
        if (!bc_need_ops(r, ret + 1, "TYPE FUNCTION"))
            return false;
        if (ops[ret] > UINT32_MAX)
            return bc_fail(r, SB_ERROR_BC_BAD_TYPE, "TYPE FUNCTION: return type %llu",
                           (unsigned long long)ops[ret]);
        t->kind = SB_BC_TYPE_FUNCTION;
        t->vararg = ops[0] != 0;
        t->element = (uint32_t)ops[ret];
        t->members = member_list(r, ret + 1, &t->member_count, "TYPE FUNCTION parameter");
        return !r->bs.failed;
    }
    default:
        return bc_fail(r, SB_ERROR_BC_BAD_RECORD, "TYPE record code %u is not a type DXIL uses",
                       r->bs.code);
    }
}

/* Type `i` may name type `ref`: it exists, and if it comes later (or is `i`
 * itself) it is an identified struct, the only kind LLVM lets a record name
 * before its own record. */
static bool reference_ok(const struct sb_bc_module *m, uint32_t i, uint32_t ref)
{
    if (ref >= m->type_count)
        return false;
    return ref < i || (m->types[ref].kind == SB_BC_TYPE_STRUCT && m->types[ref].name != NULL);
}

/* The by-value children of a type: array/vector element, struct members. */
static uint32_t child_count(const struct sb_bc_type *t)
{
    if (t->kind == SB_BC_TYPE_ARRAY || t->kind == SB_BC_TYPE_VECTOR)
        return 1;
    return t->kind == SB_BC_TYPE_STRUCT ? t->member_count : 0;
}

static uint32_t child(const struct sb_bc_type *t, uint32_t k)
{
    return t->kind == SB_BC_TYPE_STRUCT ? t->members[k] : t->element;
}

/* Every element, member, pointee, return and parameter id names a type. *forward is set
 * when some type holds a later type (or itself) by value: without such a child every
 * by-value path runs to smaller ids, and no type can contain itself (check_cycles). */
static bool check_references(struct sb_bc_reader *r, bool *forward)
{
    const struct sb_bc_module *m = r->module;
    *forward = false;
    for (uint32_t i = 0; i < m->type_count; i++) {
        const struct sb_bc_type *t = &m->types[i];
        bool has_element = t->kind == SB_BC_TYPE_POINTER || t->kind == SB_BC_TYPE_ARRAY ||
                           t->kind == SB_BC_TYPE_VECTOR || t->kind == SB_BC_TYPE_FUNCTION;
        bool bad = has_element && !reference_ok(m, i, t->element);
        for (uint32_t k = 0; k < t->member_count && !bad; k++)
            bad = !reference_ok(m, i, t->members[k]);
        if (bad)
            return bc_fail(r, SB_ERROR_BC_BAD_TYPE,
                           "TYPE block: type %u refers to a type past the table's %u, or to a "
                           "later type that is not a named struct", i, m->type_count);
        for (uint32_t k = 0, n = child_count(t); k < n && !*forward; k++)
            *forward = child(t, k) >= i;
    }
    return true;
}

/* Depth-first search for a by-value cycle; colour 1 = on the path, 2 = done. */
static bool check_cycles(struct sb_bc_reader *r)
{
    const struct sb_bc_module *m = r->module;
    uint32_t n = m->type_count;
    if (!n)
        return true;
    /* A DXIL module has a few dozen types: on the stack up to SMALL of them, saving the
     * two allocations per module. */
    enum { SMALL = 256 };
    struct frame { uint32_t type, next; };
    uint8_t small_colour[SMALL];
    struct frame small_stack[SMALL];
    bool heap = n > SMALL;
    uint8_t *colour = heap ? calloc(n, 1) : small_colour;
    struct frame *stack = heap ? malloc((size_t)n * sizeof(*stack)) : small_stack;
    if (!colour || !stack) {
        free(heap ? colour : NULL);
        free(heap ? stack : NULL);
        return bc_fail(r, SB_ERROR_OUT_OF_MEMORY, "TYPE block: out of memory");
    }
    if (!heap)
        memset(colour, 0, n);
    bool ok = true;
    for (uint32_t root = 0; root < n && ok; root++) {
        if (colour[root])
            continue;
        uint32_t depth = 0;
        stack[depth++] = (struct frame){ root, 0 };
        colour[root] = 1;
        while (depth && ok) {
            struct frame *top = &stack[depth - 1];
            const struct sb_bc_type *t = &m->types[top->type];
            if (top->next == child_count(t)) {
                colour[top->type] = 2;
                depth--;
                continue;
            }
            uint32_t c = child(t, top->next++);
            if (colour[c] == 1)
                ok = bc_fail(r, SB_ERROR_BC_BAD_TYPE,
                             "TYPE block: type %u contains itself by value (through type %u)", c,
                             top->type);
            else if (!colour[c]) {
                colour[c] = 1;
                stack[depth++] = (struct frame){ c, 0 };
            }
        }
    }
    if (heap) {
        free(colour);
        free(stack);
    }
    return ok;
}

bool bc_read_type_block(struct sb_bc_reader *r)
{
    struct sb_bc_module *m = r->module;
    if (m->type_count)
        return bc_fail(r, SB_ERROR_DUPLICATE, "a second TYPE block");
    const char *pending_name = NULL;
    for (;;) {
        enum sb_bs_entry entry = bc_next_record(r);
        bool forward;
        if (entry == SB_BS_END)
            return check_references(r, &forward) && (!forward || check_cycles(r)) &&
                   bc_index_types(r);
        if (entry != SB_BS_RECORD)
            return false;
        if (r->bs.code == TYPE_NUMENTRY) {
            /* The table's size, stated: reserved at once, within what the rest of the
             * block can hold (a type record takes 4 bits or more) and 65,536. */
            uint64_t stated = r->bs.op_count ? r->bs.ops[0] : 0,
                     room = sb_bs_bits_left(&r->bs) / 4 + 8;
            stated = stated < room ? stated : room;
            if (!bc_reserve(r, (void **)&m->types, &r->type_capacity,
                            (uint32_t)(stated < 65536 ? stated : 65536), sizeof(*m->types)))
                return false;
            continue;
        }
        if (r->bs.code == TYPE_STRUCT_NAME) {
            pending_name = bc_ops_string(r, 0, r->bs.op_count, "TYPE STRUCT_NAME");
            if (!pending_name)
                return false;
            continue;
        }
        if (!bc_reserve(r, (void **)&m->types, &r->type_capacity, m->type_count + 1,
                        sizeof(*m->types)))
            return false;
        struct sb_bc_type *t = &m->types[m->type_count];
        *t = (struct sb_bc_type){ .element = SB_BC_NONE };
        if (!decode_type(r, t, &pending_name))
            return false;
        m->type_count++;
    }
}
