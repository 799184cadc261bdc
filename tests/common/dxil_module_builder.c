/* SPDX-License-Identifier: MIT */
/*
 * The builder half of dxil_module_writer.h: types, module values, constants,
 * the entry's instructions and metadata recorded in the in-memory module of
 * dxil_module_internal.h (../shared/docs/dxil.md §2.8-§2.13, §3). It only
 * records and checks; numbering and bitcode are dxil_module_writer.c's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dxil_module_internal.h"

static void *grow(void *array, unsigned *cap, unsigned count, size_t item)
{
    if (count < *cap)
        return array;
    *cap = *cap ? *cap * 2 : 16;
    void *grown = realloc(array, *cap * item);
    if (!grown) {
        fprintf(stderr, "out of memory\n");
        exit(1);
    }
    return grown;
}

void dm_fail(struct dxil_module *m, const char *what)
{
    if (!m->failed)
        fprintf(stderr, "dxil module writer: %s\n", what);
    m->failed = true;
}

struct dxil_module *dm_create(void)
{
    struct dxil_module *m = calloc(1, sizeof(*m));
    if (!m) {
        fprintf(stderr, "out of memory\n");
        exit(1);
    }
    m->entry = DM_NONE;
    m->body_function = DM_NONE;
    return m;
}

void dm_destroy(struct dxil_module *m)
{
    if (!m)
        return;
    for (unsigned i = 0; i < m->md_count; i++) {
        free(m->mds[i].string);
        free(m->mds[i].ops);
    }
    for (unsigned i = 0; i < m->named_count; i++)
        free(m->named[i].nodes);
    free(m->types);
    free(m->values);
    free(m->insts);
    free(m->block_owner);
    free(m->mds);
    free(m->named);
    free(m);
}

/* ---- types ---------------------------------------------------------------- */

static bool type_equal(const struct type *a, const struct type *b)
{
    if (a->kind != b->kind || a->size != b->size || a->element != b->element ||
        a->member_count != b->member_count || strcmp(a->name, b->name) != 0)
        return false;
    for (unsigned i = 0; i < a->member_count; i++)
        if (a->members[i] != b->members[i])
            return false;
    return true;
}

static uint32_t intern_type(struct dxil_module *m, const struct type *t)
{
    for (uint32_t i = 0; i < m->type_count; i++)
        if (type_equal(&m->types[i], t))
            return i;
    m->types = grow(m->types, &m->type_cap, m->type_count, sizeof(*m->types));
    m->types[m->type_count] = *t;
    return m->type_count++;
}

static bool type_ok(struct dxil_module *m, uint32_t type)
{
    if (type < m->type_count)
        return true;
    dm_fail(m, "type handle out of range");
    return false;
}

uint32_t dm_type_void(struct dxil_module *m)
{
    struct type t = { .kind = T_VOID };
    return intern_type(m, &t);
}

uint32_t dm_type_int(struct dxil_module *m, unsigned bits)
{
    struct type t = { .kind = T_INT, .size = bits };
    return intern_type(m, &t);
}

uint32_t dm_type_float(struct dxil_module *m)
{
    struct type t = { .kind = T_FLOAT };
    return intern_type(m, &t);
}

/* half and double: T_FLOAT with their width (float's is 0). */
uint32_t dm_type_half(struct dxil_module *m)
{
    struct type t = { .kind = T_FLOAT, .size = 16 };
    return intern_type(m, &t);
}

uint32_t dm_type_double(struct dxil_module *m)
{
    struct type t = { .kind = T_FLOAT, .size = 64 };
    return intern_type(m, &t);
}

uint32_t dm_type_ptr(struct dxil_module *m, uint32_t pointee, unsigned addrspace)
{
    struct type t = { .kind = T_POINTER, .size = addrspace, .element = pointee };
    type_ok(m, pointee);
    return intern_type(m, &t);
}

uint32_t dm_type_array(struct dxil_module *m, uint32_t count, uint32_t element)
{
    struct type t = { .kind = T_ARRAY, .size = count, .element = element };
    type_ok(m, element);
    return intern_type(m, &t);
}

uint32_t dm_type_struct(struct dxil_module *m, const char *name, const uint32_t *members,
                        unsigned count)
{
    struct type t = { .kind = T_STRUCT, .member_count = count };
    if (count > MAX_MEMBERS || strlen(name) >= NAME_MAX_LEN) {
        dm_fail(m, "struct too large or name too long");
        return 0;
    }
    for (unsigned i = 0; i < count; i++)
        t.members[i] = members[i];
    strcpy(t.name, name);
    return intern_type(m, &t);
}

uint32_t dm_type_function(struct dxil_module *m, uint32_t ret, const uint32_t *params,
                          unsigned count)
{
    struct type t = { .kind = T_FUNCTION, .element = ret, .member_count = count };
    if (count > MAX_MEMBERS) {
        dm_fail(m, "too many parameters");
        return 0;
    }
    for (unsigned i = 0; i < count; i++)
        t.members[i] = params[i];
    return intern_type(m, &t);
}

/* ---- values --------------------------------------------------------------- */

static uint32_t add_value(struct dxil_module *m, const struct value *v)
{
    m->values = grow(m->values, &m->value_cap, m->value_count, sizeof(*m->values));
    m->values[m->value_count] = *v;
    return m->value_count++;
}

static bool value_ok(struct dxil_module *m, uint32_t value)
{
    if (value < m->value_count)
        return true;
    dm_fail(m, "value handle out of range");
    return false;
}

uint32_t dm_value_type(const struct dxil_module *m, uint32_t value)
{
    return value < m->value_count ? m->values[value].type : DM_NONE;
}

static bool set_name(struct dxil_module *m, struct value *v, const char *name)
{
    if (strlen(name) >= NAME_MAX_LEN) {
        dm_fail(m, "name too long");
        return false;
    }
    strcpy(v->name, name);
    return true;
}

uint32_t dm_global(struct dxil_module *m, const char *name, uint32_t element, unsigned addrspace)
{
    struct value v = { .kind = V_GLOBAL, .content_type = element, .addrspace = addrspace };
    v.type = dm_type_ptr(m, element, addrspace);
    set_name(m, &v, name);
    return add_value(m, &v);
}

static uint32_t add_function(struct dxil_module *m, const char *name, uint32_t fn_type,
                             enum dm_attr attr, bool definition)
{
    struct value v = { .kind = V_FUNCTION, .content_type = fn_type, .attr = attr,
                       .is_definition = definition };
    v.type = dm_type_ptr(m, fn_type, 0);
    set_name(m, &v, name);
    return add_value(m, &v);
}

/* An internal global of address space 0 initialised by a dm_const_data constant. */
static uint32_t initialised_global(struct dxil_module *m, const char *name, uint32_t initializer,
                                   bool constant)
{
    if (!value_ok(m, initializer) || m->values[initializer].kind != V_CONST ||
        m->values[initializer].const_kind != C_DATA) {
        dm_fail(m, "an initialised global needs a dm_const_data initializer");
        return 0;
    }
    uint32_t type = m->values[initializer].type;
    struct value v = { .kind = V_GLOBAL, .content_type = type, .addrspace = 0,
                       .is_constant = constant, .has_initializer = true,
                       .initializer = initializer };
    v.type = dm_type_ptr(m, type, 0);
    set_name(m, &v, name);
    return add_value(m, &v);
}

uint32_t dm_global_constant(struct dxil_module *m, const char *name, uint32_t initializer)
{
    return initialised_global(m, name, initializer, true);
}

uint32_t dm_global_static(struct dxil_module *m, const char *name, uint32_t initializer)
{
    return initialised_global(m, name, initializer, false);
}

uint32_t dm_entry(struct dxil_module *m, const char *name)
{
    if (m->entry != DM_NONE) {
        dm_fail(m, "one function body per module");
        return m->entry;
    }
    m->entry = add_function(m, name, dm_type_function(m, dm_type_void(m), NULL, 0),
                            DM_ATTR_NONE, true);
    m->body_function = m->entry;
    return m->entry;
}

uint32_t dm_function(struct dxil_module *m, const char *name)
{
    m->body_function = add_function(m, name, dm_type_function(m, dm_type_void(m), NULL, 0),
                                    DM_ATTR_NONE, true);
    return m->body_function;
}

uint32_t dm_declare(struct dxil_module *m, const char *name, uint32_t fn_type, enum dm_attr attr)
{
    for (uint32_t i = 0; i < m->value_count; i++)
        if (m->values[i].kind == V_FUNCTION && strcmp(m->values[i].name, name) == 0) {
            if (m->values[i].content_type != fn_type)
                dm_fail(m, "a function declared twice with different types");
            return i;
        }
    return add_function(m, name, fn_type, attr, false);
}

static uint32_t intern_const(struct dxil_module *m, uint32_t type, enum const_kind kind,
                             uint64_t bits)
{
    for (uint32_t i = 0; i < m->value_count; i++) {
        const struct value *v = &m->values[i];
        if (v->kind == V_CONST && v->type == type && v->const_kind == kind && v->bits == bits)
            return i;
    }
    struct value v = { .kind = V_CONST, .type = type, .const_kind = kind, .bits = bits };
    return add_value(m, &v);
}

uint32_t dm_const_data(struct dxil_module *m, uint32_t array_type, const uint32_t *words,
                       unsigned count)
{
    const struct type *t = type_ok(m, array_type) ? &m->types[array_type] : NULL;
    const struct type *e = t && t->kind == T_ARRAY ? &m->types[t->element] : NULL;
    if (!e || t->size != count || count > MAX_DATA_WORDS ||
        !((e->kind == T_INT && e->size == 32) || e->kind == T_FLOAT)) {
        dm_fail(m, "constant data: an array of up to 16 32-bit scalars, one word each");
        return 0;
    }
    struct value v = { .kind = V_CONST, .type = array_type, .const_kind = C_DATA,
                       .data_count = count };
    memcpy(v.data, words, count * sizeof(*words));
    return add_value(m, &v);
}

uint32_t dm_const_int(struct dxil_module *m, uint32_t type, int64_t value)
{
    if (!type_ok(m, type) || m->types[type].kind != T_INT) {
        dm_fail(m, "integer constant of a non-integer type");
        return 0;
    }
    /* Stored sign-extended from the type's width, as the writer of docs §2.11 does. */
    unsigned width = m->types[type].size;
    if (width < 64) {
        uint64_t mask = (1ull << width) - 1;
        uint64_t u = (uint64_t)value & mask;
        if (u >> (width - 1))
            u |= ~mask;
        value = (int64_t)u;
    }
    return intern_const(m, type, C_INT, (uint64_t)value);
}

uint32_t dm_i1(struct dxil_module *m, bool value)
{
    return dm_const_int(m, dm_type_int(m, 1), value);
}

uint32_t dm_i8(struct dxil_module *m, int8_t value)
{
    return dm_const_int(m, dm_type_int(m, 8), value);
}

uint32_t dm_i32(struct dxil_module *m, int32_t value)
{
    return dm_const_int(m, dm_type_int(m, 32), value);
}

uint32_t dm_f16_bits(struct dxil_module *m, uint16_t bits)
{
    return intern_const(m, dm_type_half(m), C_FLOAT, bits);
}

uint32_t dm_f64(struct dxil_module *m, double value)
{
    uint64_t bits;
    memcpy(&bits, &value, 8);
    return intern_const(m, dm_type_double(m), C_FLOAT, bits);
}

uint32_t dm_f32(struct dxil_module *m, float value)
{
    uint32_t bits;
    memcpy(&bits, &value, 4);
    return intern_const(m, dm_type_float(m), C_FLOAT, bits);
}

uint32_t dm_const_struct(struct dxil_module *m, uint32_t type, const uint32_t *members,
                         unsigned count)
{
    if (!type_ok(m, type) || m->types[type].kind != T_STRUCT ||
        m->types[type].member_count != count) {
        dm_fail(m, "struct constant of another type or member count");
        return 0;
    }
    for (unsigned k = 0; k < count; k++)
        if (members[k] >= m->value_count || m->values[members[k]].kind != V_CONST ||
            m->values[members[k]].type != m->types[type].members[k]) {
            dm_fail(m, "struct constant member that is not a constant of the member's type");
            return 0;
        }
    for (uint32_t i = 0; i < m->value_count; i++) {
        const struct value *v = &m->values[i];
        if (v->kind == V_CONST && v->type == type && v->const_kind == C_AGGREGATE &&
            !memcmp(v->members, members, count * sizeof(*members)))
            return i;
    }
    struct value v = { .kind = V_CONST, .type = type, .const_kind = C_AGGREGATE,
                       .member_count = count };
    memcpy(v.members, members, count * sizeof(*members));
    return add_value(m, &v);
}

uint32_t dm_undef(struct dxil_module *m, uint32_t type)
{
    type_ok(m, type);
    return intern_const(m, type, C_UNDEF, 0);
}

/* ---- instructions --------------------------------------------------------- */

uint32_t dm_block(struct dxil_module *m)
{
    /* Blocks are numbered inside their function, so its handles must be consecutive. */
    uint32_t owner = m->body_function;
    bool owns_some = false;
    for (uint32_t b = 0; b < m->block_count; b++)
        owns_some |= m->block_owner[b] == owner;
    if (owns_some && m->block_owner[m->block_count - 1] != owner)
        dm_fail(m, "a function's blocks must be made one after another");
    m->block_owner = grow(m->block_owner, &m->block_owner_cap, m->block_count,
                          sizeof(*m->block_owner));
    m->block_owner[m->block_count] = owner;
    return m->block_count++;
}

void dm_at(struct dxil_module *m, uint32_t block)
{
    if (block >= m->block_count)
        dm_fail(m, "block handle out of range");
    m->current_block = block;
}

/* Starts an instruction in the current block; `result_type` DM_NONE = no value. */
static struct inst *begin_inst(struct dxil_module *m, unsigned code, uint32_t result_type)
{
    if (m->body_function == DM_NONE || m->block_count == 0)
        dm_fail(m, "instruction before dm_entry() or dm_function() and dm_block()");
    m->insts = grow(m->insts, &m->inst_cap, m->inst_count, sizeof(*m->insts));
    struct inst *in = &m->insts[m->inst_count++];
    memset(in, 0, sizeof(*in));
    in->code = code;
    in->block = m->current_block;
    in->value = DM_NONE;
    if (result_type != DM_NONE && m->types[result_type].kind != T_VOID) {
        struct value v = { .kind = V_INST, .type = result_type };
        in->value = add_value(m, &v);
    }
    return in;
}

static void push(struct dxil_module *m, struct inst *in, enum operand_kind kind, uint32_t v)
{
    if (in->count == MAX_OPERANDS) {
        dm_fail(m, "too many operands");
        return;
    }
    if ((kind == O_REL || kind == O_REL_TYPED || kind == O_PHI || kind == O_ABS) && !value_ok(m, v))
        v = 0;
    in->ops[in->count].kind = kind;
    in->ops[in->count].v = v;
    in->count++;
}

static uint32_t result(const struct inst *in) { return in->value; }

uint32_t dm_binop(struct dxil_module *m, enum dm_binop op, uint32_t a, uint32_t b, int flags)
{
    if (!value_ok(m, a) || !value_ok(m, b))
        return 0;
    if (m->values[a].type != m->values[b].type)
        dm_fail(m, "binop operands of different types");
    struct inst *in = begin_inst(m, INST_BINOP, m->values[a].type);
    push(m, in, O_REL_TYPED, a);
    push(m, in, O_REL, b);
    push(m, in, O_LIT, (uint32_t)op);
    if (flags != DM_FLAGS_NONE)
        push(m, in, O_LIT, (uint32_t)flags);
    return result(in);
}

uint32_t dm_cast(struct dxil_module *m, enum dm_castop op, uint32_t value, uint32_t type)
{
    struct inst *in = begin_inst(m, INST_CAST, type);
    push(m, in, O_REL_TYPED, value);
    push(m, in, O_TYPE, type);
    push(m, in, O_LIT, (uint32_t)op);
    return result(in);
}

uint32_t dm_cmp(struct dxil_module *m, enum dm_pred pred, uint32_t a, uint32_t b)
{
    struct inst *in = begin_inst(m, INST_CMP2, dm_type_int(m, 1));
    push(m, in, O_REL_TYPED, a);
    push(m, in, O_REL, b);
    push(m, in, O_LIT, (uint32_t)pred);
    return result(in);
}

uint32_t dm_extractvalue(struct dxil_module *m, uint32_t aggregate, unsigned index)
{
    if (!value_ok(m, aggregate))
        return 0;
    const struct type *t = &m->types[m->values[aggregate].type];
    if (t->kind != T_STRUCT || index >= t->member_count) {
        dm_fail(m, "extractvalue of a non-struct or past its last member");
        return 0;
    }
    struct inst *in = begin_inst(m, INST_EXTRACTVAL, t->members[index]);
    push(m, in, O_REL_TYPED, aggregate);
    push(m, in, O_LIT, index);
    return result(in);
}

/* The element type a GEP of `count` indices from pointer `base` reaches (the first index
 * steps over the pointer; each further one into an array, or into a struct by a constant
 * member index); DM_NONE after dm_fail when the path does not fit. */
static uint32_t gep_element(struct dxil_module *m, uint32_t base, const uint32_t *indices,
                            unsigned count)
{
    if (!value_ok(m, base) || m->types[m->values[base].type].kind != T_POINTER || count == 0) {
        dm_fail(m, "getelementptr needs a pointer base and an index");
        return DM_NONE;
    }
    uint32_t element = m->types[m->values[base].type].element;
    for (unsigned i = 1; i < count; i++) {
        const struct type *t = &m->types[element];
        if (t->kind == T_STRUCT && value_ok(m, indices[i]) &&
            m->values[indices[i]].kind == V_CONST && m->values[indices[i]].bits < t->member_count) {
            element = t->members[m->values[indices[i]].bits];
            continue;
        }
        if (t->kind != T_ARRAY) {
            dm_fail(m, "getelementptr into a non-array (or a struct by a non-constant index)");
            return DM_NONE;
        }
        element = t->element;
    }
    return element;
}

uint32_t dm_gep(struct dxil_module *m, bool inbounds, uint32_t base, const uint32_t *indices,
                unsigned count)
{
    uint32_t element = gep_element(m, base, indices, count);
    if (element == DM_NONE)
        return 0;
    const struct type *ptr = &m->types[m->values[base].type];
    struct inst *in = begin_inst(m, INST_GEP, dm_type_ptr(m, element, ptr->size));
    push(m, in, O_LIT, inbounds);
    push(m, in, O_TYPE, ptr->element);
    push(m, in, O_REL_TYPED, base);
    for (unsigned i = 0; i < count; i++)
        push(m, in, O_REL_TYPED, indices[i]);
    return result(in);
}

uint32_t dm_const_gep(struct dxil_module *m, bool inbounds, uint32_t base,
                      const uint32_t *indices, unsigned count)
{
    uint32_t element = gep_element(m, base, indices, count);
    if (element == DM_NONE)
        return 0;
    if (count + 1 > MAX_DATA_WORDS || m->values[base].kind != V_GLOBAL) {
        dm_fail(m, "a constant GEP: a global base and up to 15 indices");
        return 0;
    }
    const struct type *ptr = &m->types[m->values[base].type];
    struct value v = { .kind = V_CONST, .type = dm_type_ptr(m, element, ptr->size),
                       .content_type = ptr->element, .const_kind = C_GEP,
                       .inbounds = inbounds, .data_count = count + 1 };
    v.data[0] = base;
    for (unsigned i = 0; i < count; i++) {
        if (!value_ok(m, indices[i]) || m->values[indices[i]].kind != V_CONST) {
            dm_fail(m, "a constant GEP of a non-constant index");
            return 0;
        }
        v.data[1 + i] = indices[i];
    }
    return add_value(m, &v);
}

/* LOAD/STORE alignment field: log2(align) + 1 (docs §2.12). */
static uint32_t align_field(unsigned align)
{
    uint32_t log = 0;
    while ((1u << log) < align)
        log++;
    return log + 1;
}

uint32_t dm_load(struct dxil_module *m, uint32_t ptr, unsigned align)
{
    if (!value_ok(m, ptr) || m->types[m->values[ptr].type].kind != T_POINTER) {
        dm_fail(m, "load from a non-pointer");
        return 0;
    }
    uint32_t type = m->types[m->values[ptr].type].element;
    struct inst *in = begin_inst(m, INST_LOAD, type);
    push(m, in, O_REL_TYPED, ptr);
    push(m, in, O_TYPE, type);
    push(m, in, O_LIT, align_field(align));
    push(m, in, O_LIT, 0);
    return result(in);
}

void dm_store(struct dxil_module *m, uint32_t ptr, uint32_t value, unsigned align)
{
    struct inst *in = begin_inst(m, INST_STORE, DM_NONE);
    push(m, in, O_REL_TYPED, ptr);
    push(m, in, O_REL_TYPED, value);
    push(m, in, O_LIT, align_field(align));
    push(m, in, O_LIT, 0);
}

uint32_t dm_alloca(struct dxil_module *m, uint32_t type, unsigned align)
{
    uint32_t i32 = dm_type_int(m, 32), one = dm_i32(m, 1);
    struct inst *in = begin_inst(m, INST_ALLOCA, dm_type_ptr(m, type, 0));
    push(m, in, O_TYPE, type);
    push(m, in, O_TYPE, i32);
    push(m, in, O_ABS, one);
    push(m, in, O_LIT, align_field(align) | 1u << 6); /* bit 6: the type is the allocated one */
    return result(in);
}

uint32_t dm_atomicrmw(struct dxil_module *m, enum dm_rmw op, uint32_t ptr, uint32_t value)
{
    if (!value_ok(m, ptr) || m->types[m->values[ptr].type].kind != T_POINTER) {
        dm_fail(m, "atomicrmw on a non-pointer");
        return 0;
    }
    struct inst *in = begin_inst(m, INST_ATOMICRMW, m->types[m->values[ptr].type].element);
    push(m, in, O_REL_TYPED, ptr);
    push(m, in, O_REL, value);
    push(m, in, O_LIT, (uint32_t)op);
    push(m, in, O_LIT, 0); /* not volatile */
    push(m, in, O_LIT, 6); /* seq_cst, as dxc writes */
    push(m, in, O_LIT, 1); /* cross-thread */
    return result(in);
}

uint32_t dm_cmpxchg(struct dxil_module *m, uint32_t ptr, uint32_t compare, uint32_t value)
{
    if (!value_ok(m, ptr) || m->types[m->values[ptr].type].kind != T_POINTER) {
        dm_fail(m, "cmpxchg on a non-pointer");
        return 0;
    }
    uint32_t pair_members[2] = { m->types[m->values[ptr].type].element, dm_type_int(m, 1) };
    struct inst *in = begin_inst(m, INST_CMPXCHG, dm_type_struct(m, "", pair_members, 2));
    push(m, in, O_REL_TYPED, ptr);
    push(m, in, O_REL_TYPED, compare);
    push(m, in, O_REL, value);
    push(m, in, O_LIT, 0); /* not volatile */
    push(m, in, O_LIT, 6); /* success: seq_cst */
    push(m, in, O_LIT, 1); /* cross-thread */
    push(m, in, O_LIT, 6); /* failure: seq_cst */
    push(m, in, O_LIT, 0); /* strong */
    return result(in);
}

uint32_t dm_call(struct dxil_module *m, uint32_t callee, const uint32_t *args, unsigned count)
{
    if (!value_ok(m, callee) || m->values[callee].kind != V_FUNCTION) {
        dm_fail(m, "call of a non-function");
        return DM_NONE;
    }
    const struct type *fn = &m->types[m->values[callee].content_type];
    if (fn->member_count != count) {
        dm_fail(m, "call with the wrong argument count");
        return DM_NONE;
    }
    for (unsigned i = 0; i < count; i++)
        if (value_ok(m, args[i]) && m->values[args[i]].type != fn->members[i])
            dm_fail(m, "call argument of the wrong type");
    struct inst *in = begin_inst(m, INST_CALL, fn->element);
    push(m, in, O_LIT, 0);          /* no call-site attributes */
    push(m, in, O_LIT, 1u << 15);   /* C calling convention, explicit function type */
    push(m, in, O_TYPE, m->values[callee].content_type);
    push(m, in, O_REL_TYPED, callee);
    for (unsigned i = 0; i < count; i++)
        push(m, in, O_REL, args[i]);
    return result(in);
}

uint32_t dm_dxop(struct dxil_module *m, const char *name, uint32_t ret, enum dm_attr attr,
                 int32_t opcode, const uint32_t *args, unsigned count)
{
    uint32_t params[MAX_MEMBERS], values[MAX_MEMBERS];
    if (count + 1 > MAX_MEMBERS) {
        dm_fail(m, "too many dx.op arguments");
        return DM_NONE;
    }
    values[0] = dm_i32(m, opcode);
    params[0] = dm_type_int(m, 32);
    for (unsigned i = 0; i < count; i++) {
        values[i + 1] = args[i];
        params[i + 1] = dm_value_type(m, args[i]);
    }
    uint32_t fn = dm_declare(m, name, dm_type_function(m, ret, params, count + 1), attr);
    return dm_call(m, fn, values, count + 1);
}

uint32_t dm_phi(struct dxil_module *m, uint32_t type)
{
    struct inst *in = begin_inst(m, INST_PHI, type);
    push(m, in, O_TYPE, type);
    return result(in);
}

void dm_phi_incoming(struct dxil_module *m, uint32_t phi, uint32_t value, uint32_t block)
{
    for (unsigned i = 0; i < m->inst_count; i++) {
        struct inst *in = &m->insts[i];
        if (in->code == INST_PHI && in->value == phi) {
            push(m, in, O_PHI, value);
            push(m, in, O_BLOCK, block);
            return;
        }
    }
    dm_fail(m, "phi handle is not a phi");
}

void dm_br(struct dxil_module *m, uint32_t block)
{
    struct inst *in = begin_inst(m, INST_BR, DM_NONE);
    push(m, in, O_BLOCK, block);
}

void dm_br_cond(struct dxil_module *m, uint32_t cond, uint32_t if_true, uint32_t if_false)
{
    struct inst *in = begin_inst(m, INST_BR, DM_NONE);
    push(m, in, O_BLOCK, if_true);
    push(m, in, O_BLOCK, if_false);
    push(m, in, O_REL, cond);
}

void dm_ret_void(struct dxil_module *m) { begin_inst(m, INST_RET, DM_NONE); }

/* ---- metadata ------------------------------------------------------------- */

static uint32_t add_md(struct dxil_module *m, const struct md *md)
{
    m->mds = grow(m->mds, &m->md_cap, m->md_count, sizeof(*m->mds));
    m->mds[m->md_count] = *md;
    return m->md_count++;
}

static uint32_t *copy_ids(const uint32_t *ids, unsigned count)
{
    uint32_t *copy = malloc((count ? count : 1) * sizeof(*copy));
    if (!copy) {
        fprintf(stderr, "out of memory\n");
        exit(1);
    }
    if (count)
        memcpy(copy, ids, count * sizeof(*copy));
    return copy;
}

/* Metadata is uniqued as LLVM uniques it in memory (MDString, ValueAsMetadata and
 * non-distinct MDNode by content), so dxc's bitcode never holds two equal items and
 * neither does ours: each builder returns an equal item made before. */
static uint32_t find_md(const struct dxil_module *m, const struct md *want)
{
    for (uint32_t i = 0; i < m->md_count; i++) {
        const struct md *md = &m->mds[i];
        if (md->kind != want->kind)
            continue;
        if (md->kind == M_STRING && strcmp(md->string, want->string) == 0)
            return i;
        if (md->kind == M_VALUE && md->value == want->value)
            return i;
        if (md->kind == M_NODE && md->count == want->count &&
            (md->count == 0 || memcmp(md->ops, want->ops, md->count * sizeof(*md->ops)) == 0))
            return i;
    }
    return DM_NONE;
}

uint32_t dm_md_string(struct dxil_module *m, const char *s)
{
    const struct md probe = { .kind = M_STRING, .string = (char *)s };
    uint32_t found = find_md(m, &probe);
    if (found != DM_NONE)
        return found;
    size_t size = strlen(s) + 1;
    struct md md = { .kind = M_STRING, .string = malloc(size) };
    if (!md.string) {
        fprintf(stderr, "out of memory\n");
        exit(1);
    }
    memcpy(md.string, s, size);
    return add_md(m, &md);
}

uint32_t dm_md_value(struct dxil_module *m, uint32_t value)
{
    if (!value_ok(m, value) || m->values[value].kind == V_INST) {
        dm_fail(m, "metadata may name module values only (globals, functions, constants)");
        value = 0;
    } else if (m->values[value].kind == V_CONST) {
        m->values[value].in_metadata = true;
    }
    struct md md = { .kind = M_VALUE, .value = value };
    uint32_t found = find_md(m, &md);
    return found != DM_NONE ? found : add_md(m, &md);
}

uint32_t dm_md_i32(struct dxil_module *m, int32_t v) { return dm_md_value(m, dm_i32(m, v)); }

uint32_t dm_md_node(struct dxil_module *m, const uint32_t *ops, unsigned count)
{
    for (unsigned i = 0; i < count; i++)
        if (ops[i] != DM_NONE && ops[i] >= m->md_count)
            dm_fail(m, "metadata operand out of range");
    const struct md probe = { .kind = M_NODE, .count = count, .ops = (uint32_t *)ops };
    uint32_t found = find_md(m, &probe);
    if (found != DM_NONE)
        return found;
    struct md md = { .kind = M_NODE, .count = count, .ops = copy_ids(ops, count) };
    return add_md(m, &md);
}

void dm_md_named(struct dxil_module *m, const char *name, const uint32_t *nodes, unsigned count)
{
    m->named = grow(m->named, &m->named_cap, m->named_count, sizeof(*m->named));
    struct named_md *n = &m->named[m->named_count++];
    memset(n, 0, sizeof(*n));
    if (strlen(name) >= NAME_MAX_LEN)
        dm_fail(m, "metadata name too long");
    else
        strcpy(n->name, name);
    n->count = count;
    n->nodes = copy_ids(nodes, count);
}
