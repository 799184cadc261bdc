/* SPDX-License-Identifier: MIT */
/*
 * The emitting half of dxil_module_writer.h: dm_write() turns the module the
 * builder recorded (dxil_module_internal.h) into LLVM 3.7 bitcode
 * (../shared/docs/dxil.md §2.5-§2.13).
 *
 * Numbering waits until here because where a constant lives (module or
 * function block) depends on whether metadata names it, and an instruction's
 * relative operands depend on the final IDs. dm_write() numbers module values
 * (globals, functions, module constants), then the body's constants and every
 * non-void instruction in block order, then emits the blocks in dxc's order.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dxil_bitcode_writer.h"
#include "dxil_module_internal.h"

/* Block IDs, record codes (docs §2.4-§2.13). */
enum { BLOCK_BLOCKINFO = 0, BLOCK_MODULE = 8, BLOCK_PARAMATTR = 9, BLOCK_PARAMATTR_GROUP = 10,
       BLOCK_CONSTANTS = 11, BLOCK_FUNCTION = 12, BLOCK_VALUE_SYMTAB = 14,
       BLOCK_METADATA = 15, BLOCK_TYPE = 17 };
enum { MODULE_VERSION = 1, MODULE_TRIPLE = 2, MODULE_DATALAYOUT = 3, MODULE_GLOBALVAR = 7,
       MODULE_FUNCTION = 8 };
enum { TYPE_NUMENTRY = 1, TYPE_VOID = 2, TYPE_FLOAT = 3, TYPE_DOUBLE = 4, TYPE_HALF = 10,
       TYPE_INTEGER = 7, TYPE_POINTER = 8, TYPE_ARRAY = 11, TYPE_STRUCT_ANON = 18,
       TYPE_STRUCT_NAME = 19, TYPE_STRUCT_NAMED = 20, TYPE_FUNCTION = 21 };
enum { CST_SETTYPE = 1, CST_NULL = 2, CST_UNDEF = 3, CST_INTEGER = 4, CST_FLOAT = 6,
       CST_AGGREGATE = 7, CST_CE_GEP = 12, CST_CE_INBOUNDS_GEP = 20, CST_DATA = 22 };
enum { MD_STRING = 1, MD_VALUE = 2, MD_NODE = 3, MD_NAME = 4, MD_KIND = 6, MD_NAMED_NODE = 10 };
enum { FUNC_DECLAREBLOCKS = 1, VST_ENTRY = 1, BLOCKINFO_SETBID = 1, PARAMATTR_ENTRY = 2,
       PARAMATTR_GRP_ENTRY = 3 };
/* Abbreviation IDs this writer defines: two for names (BLOCKINFO, as dxc
 * registers them for VALUE_SYMTAB) and two for strings (local to METADATA). */
enum { VST_ABBREV_8BIT = 4, VST_ABBREV_CHAR6 = 6, MD_ABBREV_STRING = 4, MD_ABBREV_NAME = 5 };

static const char TRIPLE[] = "dxil-ms-dx";
static const char DATALAYOUT[] =
    "e-m:e-p:32:32-i1:32-i8:32-i16:32-i32:32-i64:64-f16:32-f32:32-f64:64-n8:16:32:64";

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
        case T_FLOAT:
            record(w, t->size == 16 ? TYPE_HALF : t->size == 64 ? TYPE_DOUBLE : TYPE_FLOAT, &f);
            break;
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
            /* A literal struct (cmpxchg's {T, i1}) has no name record. */
            if (t->name[0]) {
                add_chars(&f, t->name);
                record(w, TYPE_STRUCT_NAME, &f);
                f.count = 0;
            }
            add(&f, 0); /* not packed */
            for (unsigned k = 0; k < t->member_count; k++)
                add(&f, t->members[k]);
            record(w, t->name[0] ? TYPE_STRUCT_NAMED : TYPE_STRUCT_ANON, &f);
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
        /* type, flags (constant | explicit type | addrspace << 2), initializer ID + 1
         * (0: none, external), linkage (internal when initialised), align 4 (log2 + 1),
         * no section */
        struct fields f = { 0 };
        add(&f, v->content_type);
        add(&f, (v->is_constant ? 1u : 0u) | 2u | (v->addrspace << 2));
        add(&f, v->has_initializer ? m->values[v->initializer].id + 1 : 0);
        add(&f, v->has_initializer ? 3 : 0);
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

/* Where a constant goes: the module's block when metadata names it or it initialises a
 * global (C_DATA), else the body's. */
static bool const_in_module(const struct value *v)
{
    return v->kind == V_CONST && (v->in_metadata || v->const_kind == C_DATA);
}

static bool const_in_function(const struct value *v)
{
    return v->kind == V_CONST && !const_in_module(v);
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
    if (v->const_kind == C_GEP) {
        /* [source element type, (type, absolute value ID) of the base and each index] */
        uint64_t f[1 + 2 * MAX_DATA_WORDS];
        unsigned n = 0;
        f[n++] = v->content_type;
        for (unsigned i = 0; i < v->data_count; i++) {
            const struct value *operand = &c->m->values[v->data[i]];
            f[n++] = operand->type;
            f[n++] = operand->id;
        }
        bw_record(c->w, v->inbounds ? CST_CE_INBOUNDS_GEP : CST_CE_GEP, f, n);
    } else if (v->const_kind == C_DATA) {
        uint64_t words[MAX_DATA_WORDS];
        for (unsigned i = 0; i < v->data_count; i++)
            words[i] = v->data[i];
        bw_record(c->w, CST_DATA, words, v->data_count);
    } else if (v->const_kind == C_UNDEF) {
        bw_record(c->w, CST_UNDEF, NULL, 0);
    } else if (v->const_kind == C_AGGREGATE) {
        uint64_t ids[MAX_MEMBERS]; /* absolute value IDs (docs §2.11) */
        for (unsigned k = 0; k < v->member_count; k++)
            ids[k] = c->m->values[v->members[k]].id;
        bw_record(c->w, CST_AGGREGATE, ids, v->member_count);
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

/* The first block of `fn` (a function with a body): block operands count from it. */
static uint32_t first_block(const struct dxil_module *m, uint32_t fn)
{
    for (uint32_t b = 0; b < m->block_count; b++)
        if (m->block_owner[b] == fn)
            return b;
    return m->block_count;
}

static uint32_t block_total(const struct dxil_module *m, uint32_t fn)
{
    uint32_t n = 0;
    for (uint32_t b = 0; b < m->block_count; b++)
        n += m->block_owner[b] == fn;
    return n;
}

/* Gives every value its absolute ID (docs §2.9); each body numbers its instructions
 * from the end of the module's values. */
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
    uint32_t body_first = n.next, owner = DM_NONE;
    next = n.next;
    for (uint32_t b = 0; b < m->block_count; b++) {
        if (m->block_owner[b] != owner) {
            owner = m->block_owner[b];
            next = body_first;
        }
        for (uint32_t i = 0; i < m->inst_count; i++)
            if (m->insts[i].block == b && m->insts[i].value != DM_NONE)
                m->values[m->insts[i].value].id = next++;
    }
}

static void write_instruction(struct bw *w, const struct dxil_module *m, const struct inst *in,
                              uint32_t inst_id, uint32_t block_base)
{
    struct fields f = { 0 };
    for (unsigned k = 0; k < in->count; k++) {
        const struct operand *op = &in->ops[k];
        /* Only value operands index the value table; literals and types go out as they are. */
        const struct value *v = op->kind == O_LIT || op->kind == O_TYPE || op->kind == O_BLOCK
                                    ? NULL
                                    : &m->values[op->v];
        switch (op->kind) {
        case O_LIT:
        case O_TYPE:
            add(&f, op->v);
            break;
        case O_BLOCK:
            add(&f, op->v - block_base);
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
        case O_ABS:
            add(&f, v->id);
            break;
        }
    }
    record(w, in->code, &f);
}

/* The body of function `fn`; `first_inst_id`: the ID of its first instruction value
 * (after its constants). */
static void write_function(struct bw *w, const struct dxil_module *m, uint32_t fn,
                           uint32_t first_inst_id)
{
    bw_enter_block(w, BLOCK_FUNCTION, 4);
    uint64_t blocks = block_total(m, fn);
    bw_record(w, FUNC_DECLAREBLOCKS, &blocks, 1);
    write_constants(w, m, const_in_function);
    /* InstID (docs §2.10) is the ID the instruction gets, or would get if it had a value. */
    uint32_t inst_id = first_inst_id, base = first_block(m, fn);
    for (uint32_t b = base; b < base + blocks; b++)
        for (uint32_t i = 0; i < m->inst_count; i++) {
            const struct inst *in = &m->insts[i];
            if (in->block != b)
                continue;
            write_instruction(w, m, in, inst_id, base);
            if (in->value != DM_NONE)
                inst_id++;
        }
    bw_end_block(w);
}

bool dm_write(struct dxil_module *m, struct tbuf *out)
{
    if (m->body_function == DM_NONE || m->block_count == 0)
        dm_fail(m, "no function body");
    for (uint32_t b = 0; b < m->block_count; b++) {
        const struct inst *last = NULL;
        for (uint32_t i = 0; i < m->inst_count; i++)
            if (m->insts[i].block == b)
                last = &m->insts[i];
        if (!last || (last->code != INST_RET && last->code != INST_BR))
            dm_fail(m, "a basic block does not end in br or ret");
    }
    unsigned bodies = 0;
    for (uint32_t i = 0; i < m->value_count; i++) {
        const struct value *v = &m->values[i];
        if (v->kind != V_FUNCTION || !v->is_definition)
            continue;
        bodies++;
        if (block_total(m, i) == 0)
            dm_fail(m, "a function without blocks");
    }
    for (uint32_t i = 0; i < m->inst_count; i++)
        for (unsigned k = 0; k < m->insts[i].count; k++) {
            const struct operand *op = &m->insts[i].ops[k];
            if (op->kind == O_BLOCK && (op->v >= m->block_count ||
                                        m->block_owner[op->v] !=
                                            m->block_owner[m->insts[i].block]))
                dm_fail(m, "a branch or phi names a block of another function");
        }
    /* Each body would need a constants block of the constants it uses; with several
     * bodies every constant goes to the module's block instead, which all of them see. */
    for (uint32_t i = 0; bodies > 1 && i < m->value_count; i++)
        if (m->values[i].kind == V_CONST)
            m->values[i].in_metadata = true;
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
    for (uint32_t i = 0; i < m->value_count; i++)
        if (m->values[i].kind == V_FUNCTION && m->values[i].is_definition)
            write_function(&w, m, i, first_inst_id);
    bw_end_block(&w);
    bool ok = !w.failed && w.depth == 0;
    if (ok)
        tb_bytes(out, w.data, bw_size(&w));
    else
        fprintf(stderr, "dxil module writer: the bitstream writer failed\n");
    bw_free(&w);
    return ok;
}
