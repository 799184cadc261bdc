/* SPDX-License-Identifier: MIT */
/*
 * The DXIL module builder and bitcode writer of dxil_module_writer.h
 * (../shared/docs/dxil.md §2.5-§2.13).
 *
 * The builder only records; numbering waits for dm_write() because where a
 * constant lives (module or function block) depends on whether metadata
 * names it, and an instruction's relative operands depend on the final IDs.
 * dm_write() numbers module values (globals, functions, module constants),
 * then the body's constants and every non-void instruction in block order,
 * then emits the blocks in dxc's order.
 */
#include "dxil_module_writer.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dxil_bitcode_writer.h"

enum { MAX_MEMBERS = 16, MAX_OPERANDS = 24, NAME_MAX_LEN = 64 };

/* Block IDs, record codes (docs §2.4-§2.13). */
enum { BLOCK_BLOCKINFO = 0, BLOCK_MODULE = 8, BLOCK_PARAMATTR = 9, BLOCK_PARAMATTR_GROUP = 10,
       BLOCK_CONSTANTS = 11, BLOCK_FUNCTION = 12, BLOCK_VALUE_SYMTAB = 14,
       BLOCK_METADATA = 15, BLOCK_TYPE = 17 };
enum { MODULE_VERSION = 1, MODULE_TRIPLE = 2, MODULE_DATALAYOUT = 3, MODULE_GLOBALVAR = 7,
       MODULE_FUNCTION = 8 };
enum { TYPE_NUMENTRY = 1, TYPE_VOID = 2, TYPE_FLOAT = 3, TYPE_INTEGER = 7, TYPE_POINTER = 8,
       TYPE_ARRAY = 11, TYPE_STRUCT_NAME = 19, TYPE_STRUCT_NAMED = 20, TYPE_FUNCTION = 21 };
enum { CST_SETTYPE = 1, CST_NULL = 2, CST_UNDEF = 3, CST_INTEGER = 4, CST_FLOAT = 6 };
enum { MD_STRING = 1, MD_VALUE = 2, MD_NODE = 3, MD_NAME = 4, MD_KIND = 6, MD_NAMED_NODE = 10 };
enum { INST_BINOP = 2, INST_CAST = 3, INST_RET = 10, INST_BR = 11, INST_PHI = 16,
       INST_LOAD = 20, INST_EXTRACTVAL = 26, INST_CMP2 = 28, INST_CALL = 34, INST_GEP = 43,
       INST_STORE = 44, FUNC_DECLAREBLOCKS = 1 };
enum { VST_ENTRY = 1, BLOCKINFO_SETBID = 1, PARAMATTR_ENTRY = 2, PARAMATTR_GRP_ENTRY = 3 };
/* Abbreviation IDs this writer defines: two for names (BLOCKINFO, as dxc
 * registers them for VALUE_SYMTAB) and two for strings (local to METADATA). */
enum { VST_ABBREV_8BIT = 4, VST_ABBREV_CHAR6 = 6, MD_ABBREV_STRING = 4, MD_ABBREV_NAME = 5 };

static const char TRIPLE[] = "dxil-ms-dx";
static const char DATALAYOUT[] =
    "e-m:e-p:32:32-i1:32-i8:32-i16:32-i32:32-i64:64-f16:32-f32:32-f64:64-n8:16:32:64";

enum type_kind { T_VOID, T_FLOAT, T_INT, T_POINTER, T_ARRAY, T_STRUCT, T_FUNCTION };
struct type {
    enum type_kind kind;
    uint32_t size;     /* int width, array count, pointer addrspace */
    uint32_t element;  /* pointee, array element, function return */
    unsigned member_count;
    uint32_t members[MAX_MEMBERS];
    char name[NAME_MAX_LEN];
};

enum value_kind { V_GLOBAL, V_FUNCTION, V_CONST, V_INST };
enum const_kind { C_INT, C_FLOAT, C_UNDEF };
struct value {
    enum value_kind kind;
    uint32_t type;         /* the value's own type (pointers for globals/functions) */
    uint32_t content_type; /* global element / function type */
    unsigned addrspace;
    bool is_definition;
    enum dm_attr attr;
    enum const_kind const_kind;
    uint64_t bits;          /* integer (sign-extended) or float bits */
    bool in_metadata;       /* a constant metadata names: module level */
    char name[NAME_MAX_LEN];
    uint32_t id;            /* absolute value ID, set by dm_write */
};

/* How an operand is written (docs §2.10): a relative value ID; the same followed by
 * the value's type when it is a forward reference; a signed relative ID (phi); a
 * literal (opcodes, flags, alignments, block numbers); a type ID. */
enum operand_kind { O_REL, O_REL_TYPED, O_PHI, O_LIT, O_TYPE };
struct operand {
    enum operand_kind kind;
    uint32_t v;
};
struct inst {
    unsigned code;
    uint32_t block;
    uint32_t value;    /* result value handle or DM_NONE */
    unsigned count;
    struct operand ops[MAX_OPERANDS];
};

enum md_kind { M_STRING, M_VALUE, M_NODE };
struct md {
    enum md_kind kind;
    char *string;
    uint32_t value;
    unsigned count;
    uint32_t *ops;
};
struct named_md {
    char name[NAME_MAX_LEN];
    unsigned count;
    uint32_t *nodes;
};

struct dxil_module {
    struct type *types;
    unsigned type_count, type_cap;
    struct value *values;
    unsigned value_count, value_cap;
    struct inst *insts;
    unsigned inst_count, inst_cap;
    struct md *mds;
    unsigned md_count, md_cap;
    struct named_md *named;
    unsigned named_count, named_cap;
    uint32_t block_count;
    uint32_t current_block;
    uint32_t entry;
    bool failed;
};

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

static void fail(struct dxil_module *m, const char *what)
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
    fail(m, "type handle out of range");
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
        fail(m, "struct too large or name too long");
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
        fail(m, "too many parameters");
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
    fail(m, "value handle out of range");
    return false;
}

uint32_t dm_value_type(const struct dxil_module *m, uint32_t value)
{
    return value < m->value_count ? m->values[value].type : DM_NONE;
}

static bool set_name(struct dxil_module *m, struct value *v, const char *name)
{
    if (strlen(name) >= NAME_MAX_LEN) {
        fail(m, "name too long");
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

uint32_t dm_entry(struct dxil_module *m, const char *name)
{
    if (m->entry != DM_NONE) {
        fail(m, "one function body per module");
        return m->entry;
    }
    m->entry = add_function(m, name, dm_type_function(m, dm_type_void(m), NULL, 0),
                            DM_ATTR_NONE, true);
    return m->entry;
}

uint32_t dm_declare(struct dxil_module *m, const char *name, uint32_t fn_type, enum dm_attr attr)
{
    for (uint32_t i = 0; i < m->value_count; i++)
        if (m->values[i].kind == V_FUNCTION && strcmp(m->values[i].name, name) == 0) {
            if (m->values[i].content_type != fn_type)
                fail(m, "a function declared twice with different types");
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

uint32_t dm_const_int(struct dxil_module *m, uint32_t type, int64_t value)
{
    if (!type_ok(m, type) || m->types[type].kind != T_INT) {
        fail(m, "integer constant of a non-integer type");
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

uint32_t dm_f32(struct dxil_module *m, float value)
{
    uint32_t bits;
    memcpy(&bits, &value, 4);
    return intern_const(m, dm_type_float(m), C_FLOAT, bits);
}

uint32_t dm_undef(struct dxil_module *m, uint32_t type)
{
    type_ok(m, type);
    return intern_const(m, type, C_UNDEF, 0);
}

/* ---- instructions --------------------------------------------------------- */

uint32_t dm_block(struct dxil_module *m) { return m->block_count++; }

void dm_at(struct dxil_module *m, uint32_t block)
{
    if (block >= m->block_count)
        fail(m, "block handle out of range");
    m->current_block = block;
}

/* Starts an instruction in the current block; `result_type` DM_NONE = no value. */
static struct inst *begin_inst(struct dxil_module *m, unsigned code, uint32_t result_type)
{
    if (m->entry == DM_NONE || m->block_count == 0)
        fail(m, "instruction before dm_entry() and dm_block()");
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
        fail(m, "too many operands");
        return;
    }
    if ((kind == O_REL || kind == O_REL_TYPED || kind == O_PHI) && !value_ok(m, v))
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
        fail(m, "binop operands of different types");
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
        fail(m, "extractvalue of a non-struct or past its last member");
        return 0;
    }
    struct inst *in = begin_inst(m, INST_EXTRACTVAL, t->members[index]);
    push(m, in, O_REL_TYPED, aggregate);
    push(m, in, O_LIT, index);
    return result(in);
}

uint32_t dm_gep(struct dxil_module *m, bool inbounds, uint32_t base, const uint32_t *indices,
                unsigned count)
{
    if (!value_ok(m, base) || m->types[m->values[base].type].kind != T_POINTER || count == 0) {
        fail(m, "getelementptr needs a pointer base and an index");
        return 0;
    }
    const struct type *ptr = &m->types[m->values[base].type];
    uint32_t source = ptr->element, element = source;
    /* The first index steps over the pointer; each further one into an array. */
    for (unsigned i = 1; i < count; i++) {
        if (m->types[element].kind != T_ARRAY) {
            fail(m, "getelementptr into a non-array");
            return 0;
        }
        element = m->types[element].element;
    }
    struct inst *in = begin_inst(m, INST_GEP, dm_type_ptr(m, element, ptr->size));
    push(m, in, O_LIT, inbounds);
    push(m, in, O_TYPE, source);
    push(m, in, O_REL_TYPED, base);
    for (unsigned i = 0; i < count; i++)
        push(m, in, O_REL_TYPED, indices[i]);
    return result(in);
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
        fail(m, "load from a non-pointer");
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

uint32_t dm_call(struct dxil_module *m, uint32_t callee, const uint32_t *args, unsigned count)
{
    if (!value_ok(m, callee) || m->values[callee].kind != V_FUNCTION) {
        fail(m, "call of a non-function");
        return DM_NONE;
    }
    const struct type *fn = &m->types[m->values[callee].content_type];
    if (fn->member_count != count) {
        fail(m, "call with the wrong argument count");
        return DM_NONE;
    }
    for (unsigned i = 0; i < count; i++)
        if (value_ok(m, args[i]) && m->values[args[i]].type != fn->members[i])
            fail(m, "call argument of the wrong type");
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
        fail(m, "too many dx.op arguments");
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
            push(m, in, O_LIT, block);
            return;
        }
    }
    fail(m, "phi handle is not a phi");
}

void dm_br(struct dxil_module *m, uint32_t block)
{
    struct inst *in = begin_inst(m, INST_BR, DM_NONE);
    push(m, in, O_LIT, block);
}

void dm_br_cond(struct dxil_module *m, uint32_t cond, uint32_t if_true, uint32_t if_false)
{
    struct inst *in = begin_inst(m, INST_BR, DM_NONE);
    push(m, in, O_LIT, if_true);
    push(m, in, O_LIT, if_false);
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
        fail(m, "metadata may name module values only (globals, functions, constants)");
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
            fail(m, "metadata operand out of range");
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
        fail(m, "metadata name too long");
    else
        strcpy(n->name, name);
    n->count = count;
    n->nodes = copy_ids(nodes, count);
}

/* ---- writing -------------------------------------------------------------- */

/* Operands gathered for one record. */
struct fields {
    unsigned count;
    uint64_t v[MAX_OPERANDS * 2 + NAME_MAX_LEN * 2];
};

static void add(struct fields *f, uint64_t v)
{
    if (f->count < sizeof(f->v) / sizeof(f->v[0]))
        f->v[f->count++] = v;
}

static void add_chars(struct fields *f, const char *s)
{
    for (; *s; s++)
        add(f, (uint8_t)*s);
}

static void record(struct bw *w, unsigned code, const struct fields *f)
{
    bw_record(w, code, f->v, f->count);
}

/* Writes BLOCKINFO and hands back the four VALUE_SYMTAB abbreviations it registered. */
static void write_blockinfo(struct bw *w, struct bw_abbrev out[4])
{
    /* The VALUE_SYMTAB abbreviations dxc registers (docs §2.3), in its order,
     * so the IDs match its dumps: 4 = 8-bit names, 6 = char6 names. */
    static const struct bw_abbrev vst[4] = {
        { 3, { { BW_OP_FIXED, 3 }, { BW_OP_VBR, 8 }, { BW_OP_ARRAY, 0 } } },
        { 4, { { BW_OP_LITERAL, VST_ENTRY }, { BW_OP_VBR, 8 }, { BW_OP_ARRAY, 0 },
               { BW_OP_FIXED, 7 } } },
        { 4, { { BW_OP_LITERAL, VST_ENTRY }, { BW_OP_VBR, 8 }, { BW_OP_ARRAY, 0 },
               { BW_OP_CHAR6, 0 } } },
        { 4, { { BW_OP_LITERAL, 2 }, { BW_OP_VBR, 8 }, { BW_OP_ARRAY, 0 }, { BW_OP_CHAR6, 0 } } },
    };
    /* The first abbreviation's array elements are 8-bit. */
    struct bw_abbrev first = vst[0];
    first.op_count = 4;
    first.ops[3].kind = BW_OP_FIXED;
    first.ops[3].value = 8;
    bw_enter_block(w, BLOCK_BLOCKINFO, 2);
    uint64_t bid = BLOCK_VALUE_SYMTAB;
    bw_record(w, BLOCKINFO_SETBID, &bid, 1);
    bw_define_abbrev(w, &first);
    for (unsigned i = 1; i < 4; i++)
        bw_define_abbrev(w, &vst[i]);
    bw_end_block(w);
    out[0] = first;
    for (unsigned i = 1; i < 4; i++)
        out[i] = vst[i];
}

/* Attribute kinds (docs §2.7). */
enum { ATTR_NODUPLICATE = 12, ATTR_NOUNWIND = 18, ATTR_READNONE = 20, ATTR_READONLY = 21 };

/* Numbers the attribute sets in use: list[attr] = 1-based list index, 0 = none. */
static void number_attrs(const struct dxil_module *m, unsigned list[DM_ATTR_COUNT])
{
    memset(list, 0, sizeof(unsigned) * DM_ATTR_COUNT);
    unsigned next = 1;
    for (unsigned a = DM_ATTR_NOUNWIND; a < DM_ATTR_COUNT; a++)
        for (uint32_t i = 0; i < m->value_count; i++)
            if (m->values[i].kind == V_FUNCTION && m->values[i].attr == a) {
                list[a] = next++;
                break;
            }
}

static void write_attributes(struct bw *w, const unsigned list[DM_ATTR_COUNT])
{
    static const unsigned extra[DM_ATTR_COUNT] = {
        [DM_ATTR_READNONE] = ATTR_READNONE, [DM_ATTR_READONLY] = ATTR_READONLY,
        [DM_ATTR_NODUPLICATE] = ATTR_NODUPLICATE,
    };
    bool any = false;
    for (unsigned a = 0; a < DM_ATTR_COUNT; a++)
        any = any || list[a];
    if (!any)
        return;
    bw_enter_block(w, BLOCK_PARAMATTR_GROUP, 3);
    for (unsigned a = 0; a < DM_ATTR_COUNT; a++) {
        if (!list[a])
            continue;
        /* group ID, index 0xFFFFFFFF = the function, then (0, kind) enum attributes */
        struct fields f = { 0 };
        add(&f, list[a]);
        add(&f, 0xFFFFFFFFu);
        add(&f, 0);
        add(&f, ATTR_NOUNWIND);
        if (extra[a]) {
            add(&f, 0);
            add(&f, extra[a]);
        }
        record(w, PARAMATTR_GRP_ENTRY, &f);
    }
    bw_end_block(w);
    bw_enter_block(w, BLOCK_PARAMATTR, 3);
    for (unsigned a = 0; a < DM_ATTR_COUNT; a++)
        if (list[a]) {
            uint64_t group = list[a];
            bw_record(w, PARAMATTR_ENTRY, &group, 1);
        }
    bw_end_block(w);
}

static void write_types(struct bw *w, const struct dxil_module *m)
{
    bw_enter_block(w, BLOCK_TYPE, 4);
    uint64_t n = m->type_count;
    bw_record(w, TYPE_NUMENTRY, &n, 1);
    for (uint32_t i = 0; i < m->type_count; i++) {
        const struct type *t = &m->types[i];
        struct fields f = { 0 };
        switch (t->kind) {
        case T_VOID: record(w, TYPE_VOID, &f); break;
        case T_FLOAT: record(w, TYPE_FLOAT, &f); break;
        case T_INT: add(&f, t->size); record(w, TYPE_INTEGER, &f); break;
        case T_POINTER:
            add(&f, t->element);
            add(&f, t->size);
            record(w, TYPE_POINTER, &f);
            break;
        case T_ARRAY:
            add(&f, t->size);
            add(&f, t->element);
            record(w, TYPE_ARRAY, &f);
            break;
        case T_STRUCT:
            add_chars(&f, t->name);
            record(w, TYPE_STRUCT_NAME, &f);
            f.count = 0;
            add(&f, 0); /* not packed */
            for (unsigned k = 0; k < t->member_count; k++)
                add(&f, t->members[k]);
            record(w, TYPE_STRUCT_NAMED, &f);
            break;
        case T_FUNCTION:
            add(&f, 0); /* not vararg */
            add(&f, t->element);
            for (unsigned k = 0; k < t->member_count; k++)
                add(&f, t->members[k]);
            record(w, TYPE_FUNCTION, &f);
            break;
        }
    }
    bw_end_block(w);
}

static void write_globals_and_functions(struct bw *w, const struct dxil_module *m,
                                        const unsigned list[DM_ATTR_COUNT])
{
    for (uint32_t i = 0; i < m->value_count; i++) {
        const struct value *v = &m->values[i];
        if (v->kind != V_GLOBAL)
            continue;
        /* type, flags (explicit type | addrspace << 2), no initializer, external,
         * align 4 (log2 + 1), no section */
        struct fields f = { 0 };
        add(&f, v->content_type);
        add(&f, 2u | (v->addrspace << 2));
        add(&f, 0);
        add(&f, 0);
        add(&f, 3);
        add(&f, 0);
        record(w, MODULE_GLOBALVAR, &f);
    }
    for (uint32_t i = 0; i < m->value_count; i++) {
        const struct value *v = &m->values[i];
        if (v->kind != V_FUNCTION)
            continue;
        /* type, cc, isproto, linkage, paramattr, then ten zero fields as dxc writes */
        struct fields f = { 0 };
        add(&f, v->content_type);
        add(&f, 0);
        add(&f, !v->is_definition);
        add(&f, 0);
        add(&f, list[v->attr]);
        for (unsigned k = 0; k < 10; k++)
            add(&f, 0);
        record(w, MODULE_FUNCTION, &f);
    }
}

/* Signed VBR value of docs §2.1 (phi operands). */
static uint64_t signed_field(int64_t v)
{
    return v >= 0 ? (uint64_t)v << 1 : ((uint64_t)-v << 1) | 1;
}

/* Where a constant goes: the module's block when metadata names it, else the body's. */
static bool const_in_module(const struct value *v)
{
    return v->kind == V_CONST && v->in_metadata;
}

static bool const_in_function(const struct value *v)
{
    return v->kind == V_CONST && !v->in_metadata;
}

/*
 * Calls `visit` for the constants `pick` selects in block order: grouped by type
 * (in type-ID order), creation order inside a type, so each type needs one
 * SETTYPE, as in dxc's blocks. Numbering and writing both walk this order.
 */
static void each_constant(const struct dxil_module *m, bool (*pick)(const struct value *),
                          void (*visit)(void *ctx, uint32_t value), void *ctx)
{
    for (uint32_t t = 0; t < m->type_count; t++)
        for (uint32_t i = 0; i < m->value_count; i++)
            if (pick(&m->values[i]) && m->values[i].type == t)
                visit(ctx, i);
}

struct constants_writer {
    struct bw *w;
    const struct dxil_module *m;
    struct bw_abbrev settype, integer;
    uint32_t current_type;
    bool any;
};

static void note_constant(void *ctx, uint32_t value)
{
    (void)value;
    ((struct constants_writer *)ctx)->any = true;
}

static void write_constant(void *ctx, uint32_t value)
{
    struct constants_writer *c = ctx;
    const struct value *v = &c->m->values[value];
    if (v->type != c->current_type) {
        uint64_t f[2] = { CST_SETTYPE, v->type };
        bw_abbrev_record(c->w, 4, &c->settype, f, 2);
        c->current_type = v->type;
    }
    if (v->const_kind == C_UNDEF) {
        bw_record(c->w, CST_UNDEF, NULL, 0);
    } else if (v->const_kind == C_FLOAT) {
        bw_record(c->w, CST_FLOAT, &v->bits, 1);
    } else if (v->bits == 0) {
        bw_record(c->w, CST_NULL, NULL, 0);
    } else {
        uint64_t f[2] = { CST_INTEGER, signed_field((int64_t)v->bits) };
        bw_abbrev_record(c->w, 5, &c->integer, f, 2);
    }
}

/* A CONSTANTS block of the constants `pick` selects, none when there are none.
 * SETTYPE and INTEGER go through block-local abbreviations (readers must apply them). */
static void write_constants(struct bw *w, const struct dxil_module *m,
                            bool (*pick)(const struct value *))
{
    unsigned type_bits = 1;
    while ((1u << type_bits) < m->type_count)
        type_bits++;
    struct constants_writer c = {
        .w = w,
        .m = m,
        .settype = { 2, { { BW_OP_LITERAL, CST_SETTYPE }, { BW_OP_FIXED, type_bits } } },
        .integer = { 2, { { BW_OP_LITERAL, CST_INTEGER }, { BW_OP_VBR, 8 } } },
        .current_type = DM_NONE, /* always start with SETTYPE, as dxc does */
    };
    each_constant(m, pick, note_constant, &c);
    if (!c.any)
        return;
    bw_enter_block(w, BLOCK_CONSTANTS, 4);
    bw_define_abbrev(w, &c.settype);
    bw_define_abbrev(w, &c.integer);
    each_constant(m, pick, write_constant, &c);
    bw_end_block(w);
}

/* Metadata kinds 0-13 are LLVM's fixed ones (docs §2.13); dxc writes them all
 * in a second METADATA block. */
static const char *const MD_KIND_NAMES[] = {
    "dbg", "tbaa", "prof", "fpmath", "range", "tbaa.struct", "invariant.load", "alias.scope",
    "noalias", "nontemporal", "llvm.mem.parallel_loop_access", "nonnull", "dereferenceable",
    "dereferenceable_or_null",
};

static void write_metadata(struct bw *w, const struct dxil_module *m)
{
    const struct bw_abbrev string = { 3, { { BW_OP_LITERAL, MD_STRING }, { BW_OP_ARRAY, 0 },
                                           { BW_OP_FIXED, 8 } } };
    const struct bw_abbrev name = { 3, { { BW_OP_LITERAL, MD_NAME }, { BW_OP_ARRAY, 0 },
                                         { BW_OP_FIXED, 8 } } };
    bw_enter_block(w, BLOCK_METADATA, 3);
    bw_define_abbrev(w, &string);
    bw_define_abbrev(w, &name);
    for (uint32_t i = 0; i < m->md_count; i++) {
        const struct md *md = &m->mds[i];
        struct fields f = { 0 };
        if (md->kind == M_STRING) {
            add(&f, MD_STRING);
            add_chars(&f, md->string);
            bw_abbrev_record(w, MD_ABBREV_STRING, &string, f.v, f.count);
        } else if (md->kind == M_VALUE) {
            add(&f, m->values[md->value].type);
            add(&f, m->values[md->value].id);
            record(w, MD_VALUE, &f);
        } else {
            for (unsigned k = 0; k < md->count; k++)
                add(&f, md->ops[k] == DM_NONE ? 0 : md->ops[k] + 1ull);
            record(w, MD_NODE, &f);
        }
    }
    for (uint32_t i = 0; i < m->named_count; i++) {
        const struct named_md *n = &m->named[i];
        struct fields f = { 0 };
        add(&f, MD_NAME);
        add_chars(&f, n->name);
        bw_abbrev_record(w, MD_ABBREV_NAME, &name, f.v, f.count);
        f.count = 0;
        for (unsigned k = 0; k < n->count; k++)
            add(&f, n->nodes[k]);
        record(w, MD_NAMED_NODE, &f);
    }
    bw_end_block(w);

    bw_enter_block(w, BLOCK_METADATA, 3);
    for (unsigned k = 0; k < sizeof(MD_KIND_NAMES) / sizeof(MD_KIND_NAMES[0]); k++) {
        struct fields f = { 0 };
        add(&f, k);
        add_chars(&f, MD_KIND_NAMES[k]);
        record(w, MD_KIND, &f);
    }
    bw_end_block(w);
}

/* Names of the globals and functions; char6 where every character allows it. */
static void write_symtab(struct bw *w, const struct dxil_module *m,
                         const struct bw_abbrev abbrevs[4])
{
    bw_enter_block(w, BLOCK_VALUE_SYMTAB, 4);
    for (uint32_t i = 0; i < m->value_count; i++) {
        const struct value *v = &m->values[i];
        if (v->kind != V_GLOBAL && v->kind != V_FUNCTION)
            continue;
        struct fields f = { 0 };
        add(&f, VST_ENTRY);
        add(&f, v->id);
        add_chars(&f, v->name);
        if (bw_is_char6(v->name))
            bw_abbrev_record(w, VST_ABBREV_CHAR6, &abbrevs[2], f.v, f.count);
        else
            bw_abbrev_record(w, VST_ABBREV_8BIT, &abbrevs[0], f.v, f.count);
    }
    bw_end_block(w);
}

struct numbering {
    struct dxil_module *m;
    uint32_t next;
};

static void give_id(void *ctx, uint32_t value)
{
    struct numbering *n = ctx;
    n->m->values[value].id = n->next++;
}

/* Gives every value its absolute ID (docs §2.9). */
static void number_values(struct dxil_module *m)
{
    uint32_t next = 0;
    for (uint32_t i = 0; i < m->value_count; i++)
        if (m->values[i].kind == V_GLOBAL)
            m->values[i].id = next++;
    for (uint32_t i = 0; i < m->value_count; i++)
        if (m->values[i].kind == V_FUNCTION)
            m->values[i].id = next++;
    struct numbering n = { m, next };
    each_constant(m, const_in_module, give_id, &n);
    each_constant(m, const_in_function, give_id, &n);
    next = n.next;
    for (uint32_t b = 0; b < m->block_count; b++)
        for (uint32_t i = 0; i < m->inst_count; i++)
            if (m->insts[i].block == b && m->insts[i].value != DM_NONE)
                m->values[m->insts[i].value].id = next++;
}

static void write_instruction(struct bw *w, const struct dxil_module *m, const struct inst *in,
                              uint32_t inst_id)
{
    struct fields f = { 0 };
    for (unsigned k = 0; k < in->count; k++) {
        const struct operand *op = &in->ops[k];
        /* Only value operands index the value table; literals and types go out as they are. */
        const struct value *v = op->kind == O_LIT || op->kind == O_TYPE ? NULL
                                                                        : &m->values[op->v];
        switch (op->kind) {
        case O_LIT:
        case O_TYPE:
            add(&f, op->v);
            break;
        case O_REL:
            add(&f, (uint32_t)(inst_id - v->id));
            break;
        case O_REL_TYPED:
            add(&f, (uint32_t)(inst_id - v->id));
            if (v->id >= inst_id) /* a forward reference carries its type */
                add(&f, v->type);
            break;
        case O_PHI:
            add(&f, signed_field((int64_t)inst_id - (int64_t)v->id));
            break;
        }
    }
    record(w, in->code, &f);
}

/* `first_inst_id`: the ID of the body's first instruction value (after its constants). */
static void write_function(struct bw *w, const struct dxil_module *m, uint32_t first_inst_id)
{
    bw_enter_block(w, BLOCK_FUNCTION, 4);
    uint64_t blocks = m->block_count;
    bw_record(w, FUNC_DECLAREBLOCKS, &blocks, 1);
    write_constants(w, m, const_in_function);
    /* InstID (docs §2.10) is the ID the instruction gets, or would get if it had a value. */
    uint32_t inst_id = first_inst_id;
    for (uint32_t b = 0; b < m->block_count; b++)
        for (uint32_t i = 0; i < m->inst_count; i++) {
            const struct inst *in = &m->insts[i];
            if (in->block != b)
                continue;
            write_instruction(w, m, in, inst_id);
            if (in->value != DM_NONE)
                inst_id++;
        }
    bw_end_block(w);
}

bool dm_write(struct dxil_module *m, struct tbuf *out)
{
    if (m->entry == DM_NONE || m->block_count == 0)
        fail(m, "no entry function body");
    for (uint32_t b = 0; b < m->block_count; b++) {
        const struct inst *last = NULL;
        for (uint32_t i = 0; i < m->inst_count; i++)
            if (m->insts[i].block == b)
                last = &m->insts[i];
        if (!last || (last->code != INST_RET && last->code != INST_BR))
            fail(m, "a basic block does not end in br or ret");
    }
    if (m->failed)
        return false;
    number_values(m);
    uint32_t first_inst_id = 0;
    for (uint32_t i = 0; i < m->value_count; i++)
        if (m->values[i].kind != V_INST)
            first_inst_id++;

    unsigned attr_lists[DM_ATTR_COUNT];
    number_attrs(m, attr_lists);
    struct bw w;
    bw_begin(&w);
    static const uint8_t magic[4] = { 'B', 'C', 0xC0, 0xDE };
    for (unsigned i = 0; i < 4; i++)
        bw_fixed(&w, magic[i], 8);
    bw_enter_block(&w, BLOCK_MODULE, 3);
    uint64_t version = 1; /* relative operand IDs in function blocks */
    bw_record(&w, MODULE_VERSION, &version, 1);
    struct bw_abbrev vst[4];
    write_blockinfo(&w, vst);
    write_attributes(&w, attr_lists);
    write_types(&w, m);
    struct fields f = { 0 };
    add_chars(&f, TRIPLE);
    record(&w, MODULE_TRIPLE, &f);
    f.count = 0;
    add_chars(&f, DATALAYOUT);
    record(&w, MODULE_DATALAYOUT, &f);
    write_globals_and_functions(&w, m, attr_lists);
    write_constants(&w, m, const_in_module);
    write_metadata(&w, m);
    write_symtab(&w, m, vst);
    write_function(&w, m, first_inst_id);
    bw_end_block(&w);
    bool ok = !w.failed && w.depth == 0;
    if (ok)
        tb_bytes(out, w.data, bw_size(&w));
    else
        fprintf(stderr, "dxil module writer: the bitstream writer failed\n");
    bw_free(&w);
    return ok;
}
