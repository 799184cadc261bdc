/* SPDX-License-Identifier: MIT */
/*
 * Types, names and operands in LLVM assembly syntax: identifier quoting,
 * type spelling, constants (LLVM's rules for integers, floats, aggregates,
 * strings and constant expressions) and references to globals and locals.
 */
#include "dxil_disasm_private.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const cast_names[] = {
    "trunc", "zext", "sext", "fptoui", "fptosi", "uitofp", "sitofp",
    "fptrunc", "fpext", "ptrtoint", "inttoptr", "bitcast", "addrspacecast",
};

const struct sb_bc_type *sb_dxil_type(const struct sb_dxil_printer *p, uint32_t type)
{
    return type < p->module->type_count ? &p->module->types[type] : NULL;
}

uint32_t sb_dxil_value_type(const struct sb_dxil_printer *p, uint32_t id)
{
    const struct sb_bc_value *v = sb_bc_value_get(p->module, p->function, id);
    return v ? v->type : SB_BC_NONE;
}

/* Bytes LLVM leaves unescaped inside quotes: printable, not '\\' or '"'. */
void sb_dxil_print_escaped(struct sb_sm4_text *t, const char *s, size_t length)
{
    for (size_t i = 0; i < length; i++) {
        unsigned char c = (unsigned char)s[i];
        if (isprint(c) && c != '\\' && c != '"')
            sb_sm4_text_appendf(t, "%c", c);
        else
            sb_sm4_text_appendf(t, "\\%02X", c);
    }
}

/* `sigil` ('@', '%', '!', or 0 for a label definition) then the name; LLVM quotes a name unless it is non-empty, starts with no digit and uses only [-a-zA-Z._0-9]. */
void sb_dxil_print_name(struct sb_sm4_text *t, char sigil, const char *name)
{
    bool plain = name[0] != 0 && !isdigit((unsigned char)name[0]);
    for (const char *c = name; plain && *c; c++)
        plain = isalnum((unsigned char)*c) || strchr("-._", *c);
    if (sigil)
        sb_sm4_text_appendf(t, "%c", sigil);
    if (plain) {
        sb_sm4_text_append(t, name);
        return;
    }
    sb_sm4_text_append(t, "\"");
    sb_dxil_print_escaped(t, name, strlen(name));
    sb_sm4_text_append(t, "\"");
}

static void print_type_at(struct sb_dxil_printer *p, uint32_t id, unsigned depth)
{
    struct sb_sm4_text *t = p->text;
    const struct sb_bc_type *type = sb_dxil_type(p, id);
    if (!type || depth > SB_DXIL_DISASM_MAX_DEPTH) {
        sb_sm4_text_append(t, "?");
        return;
    }
    switch (type->kind) {
    case SB_BC_TYPE_VOID: sb_sm4_text_append(t, "void"); return;
    case SB_BC_TYPE_HALF: sb_sm4_text_append(t, "half"); return;
    case SB_BC_TYPE_FLOAT: sb_sm4_text_append(t, "float"); return;
    case SB_BC_TYPE_DOUBLE: sb_sm4_text_append(t, "double"); return;
    case SB_BC_TYPE_LABEL: sb_sm4_text_append(t, "label"); return;
    case SB_BC_TYPE_METADATA: sb_sm4_text_append(t, "metadata"); return;
    case SB_BC_TYPE_INTEGER: sb_sm4_text_appendf(t, "i%u", type->width); return;
    case SB_BC_TYPE_POINTER:
        print_type_at(p, type->element, depth + 1);
        if (type->address_space)
            sb_sm4_text_appendf(t, " addrspace(%u)", type->address_space);
        sb_sm4_text_append(t, "*");
        return;
    case SB_BC_TYPE_ARRAY:
    case SB_BC_TYPE_VECTOR:
        sb_sm4_text_appendf(t, type->kind == SB_BC_TYPE_ARRAY ? "[%" PRIu64 " x " : "<%" PRIu64 " x ",
                            type->count);
        print_type_at(p, type->element, depth + 1);
        sb_sm4_text_append(t, type->kind == SB_BC_TYPE_ARRAY ? "]" : ">");
        return;
    case SB_BC_TYPE_STRUCT:
        if (type->name && depth > 0) {
            sb_dxil_print_name(t, '%', type->name);
            return;
        }
        if (type->opaque) {
            sb_sm4_text_append(t, "opaque");
            return;
        }
        if (type->member_count == 0) {
            sb_sm4_text_append(t, type->packed ? "<{}>" : "{}");
            return;
        }
        sb_sm4_text_append(t, type->packed ? "<{ " : "{ ");
        for (uint32_t i = 0; i < type->member_count; i++) {
            if (i)
                sb_sm4_text_append(t, ", ");
            print_type_at(p, type->members[i], depth + 1);
        }
        sb_sm4_text_append(t, type->packed ? " }>" : " }");
        return;
    case SB_BC_TYPE_FUNCTION:
        print_type_at(p, type->element, depth + 1);
        sb_sm4_text_append(t, " (");
        for (uint32_t i = 0; i < type->member_count; i++) {
            if (i)
                sb_sm4_text_append(t, ", ");
            print_type_at(p, type->members[i], depth + 1);
        }
        if (type->vararg)
            sb_sm4_text_append(t, type->member_count ? ", ..." : "...");
        sb_sm4_text_append(t, ")");
        return;
    default:
        sb_sm4_text_append(t, "?");
    }
}

/* A use of a type: named structs by name (depth 1 skips the body). */
void sb_dxil_print_type(struct sb_dxil_printer *p, uint32_t type)
{
    print_type_at(p, type, 1);
}

/* LLVM prints a float or double in %e form when that reads back to the same value, else as
 * the hex of the (widened) double; half always as 0xH and its bits. */
static void print_float(struct sb_sm4_text *t, enum sb_bc_type_kind kind, uint64_t bits)
{
    if (kind == SB_BC_TYPE_HALF) {
        sb_sm4_text_appendf(t, "0xH%04" PRIX64, bits & 0xFFFF);
        return;
    }
    double value;
    if (kind == SB_BC_TYPE_FLOAT) {
        uint32_t b32 = (uint32_t)bits;
        float f;
        memcpy(&f, &b32, sizeof(f));
        value = f;
    } else {
        memcpy(&value, &bits, sizeof(value));
    }
    char decimal[64];
    snprintf(decimal, sizeof(decimal), "%e", value);
    bool numeric = isdigit((unsigned char)decimal[0]) ||
                   ((decimal[0] == '-' || decimal[0] == '+') && isdigit((unsigned char)decimal[1]));
    if (numeric && strtod(decimal, NULL) == value) {
        sb_sm4_text_append(t, decimal);
        return;
    }
    uint64_t wide;
    memcpy(&wide, &value, sizeof(wide));
    sb_sm4_text_appendf(t, "0x%016" PRIX64, wide);
}

static void print_integer(struct sb_sm4_text *t, uint32_t width, uint64_t bits)
{
    if (width == 1) {
        sb_sm4_text_append(t, bits & 1 ? "true" : "false");
        return;
    }
    if (width > 0 && width < 64) {
        uint64_t sign = 1ull << (width - 1);
        bits &= (sign << 1) - 1;
        bits = (bits ^ sign) - sign;
    }
    sb_sm4_text_appendf(t, "%" PRId64, (int64_t)bits);
}

static void print_scalar_bits(struct sb_dxil_printer *p, const struct sb_bc_type *type, uint64_t bits)
{
    if (type && type->kind == SB_BC_TYPE_INTEGER)
        print_integer(p->text, type->width, bits);
    else if (type && (type->kind == SB_BC_TYPE_HALF || type->kind == SB_BC_TYPE_FLOAT ||
                      type->kind == SB_BC_TYPE_DOUBLE))
        print_float(p->text, type->kind, bits);
    else
        sb_sm4_text_append(p->text, "?");
}

static void print_null(struct sb_dxil_printer *p, const struct sb_bc_type *type)
{
    if (!type)
        sb_sm4_text_append(p->text, "?");
    else if (type->kind == SB_BC_TYPE_POINTER)
        sb_sm4_text_append(p->text, "null");
    else if (type->kind == SB_BC_TYPE_STRUCT || type->kind == SB_BC_TYPE_ARRAY ||
             type->kind == SB_BC_TYPE_VECTOR)
        sb_sm4_text_append(p->text, "zeroinitializer");
    else
        print_scalar_bits(p, type, 0);
}

/* Element i's type of an aggregate type. */
static uint32_t member_type(const struct sb_bc_type *type, uint32_t i)
{
    if (type->kind == SB_BC_TYPE_STRUCT)
        return i < type->member_count ? type->members[i] : SB_BC_NONE;
    return type->element;
}

static void print_aggregate(struct sb_dxil_printer *p, const struct sb_bc_constant *c,
                            const struct sb_bc_type *type, unsigned depth)
{
    struct sb_sm4_text *t = p->text;
    const struct sb_bc_type *element = sb_dxil_type(p, type->element);
    if (c->kind == SB_BC_CONST_DATA && type->kind == SB_BC_TYPE_ARRAY && element &&
        element->kind == SB_BC_TYPE_INTEGER && element->width == 8) {
        sb_sm4_text_append(t, "c\"");
        for (uint32_t i = 0; i < c->element_count; i++) {
            char byte = (char)c->elements[i];
            sb_dxil_print_escaped(t, &byte, 1);
        }
        sb_sm4_text_append(t, "\"");
        return;
    }
    const char *open = type->kind == SB_BC_TYPE_ARRAY ? "[" : type->kind == SB_BC_TYPE_VECTOR ? "<"
                       : type->packed ? "<{ " : "{ ";
    const char *close = type->kind == SB_BC_TYPE_ARRAY ? "]" : type->kind == SB_BC_TYPE_VECTOR ? ">"
                        : type->packed ? " }>" : " }";
    if (type->kind == SB_BC_TYPE_STRUCT && c->element_count == 0) {
        sb_sm4_text_append(t, type->packed ? "<{}>" : "{}");
        return;
    }
    sb_sm4_text_append(t, open);
    for (uint32_t i = 0; i < c->element_count; i++) {
        if (i)
            sb_sm4_text_append(t, ", ");
        uint32_t member = member_type(type, i);
        sb_dxil_print_type(p, member);
        sb_sm4_text_append(t, " ");
        if (c->kind == SB_BC_CONST_DATA)
            print_scalar_bits(p, sb_dxil_type(p, member), c->elements[i]);
        else
            sb_dxil_print_value(p, c->elements[i] > UINT32_MAX ? SB_BC_NONE : (uint32_t)c->elements[i],
                                depth + 1);
    }
    sb_sm4_text_append(t, close);
}

static void print_typed_at(struct sb_dxil_printer *p, uint32_t id, unsigned depth)
{
    sb_dxil_print_type(p, sb_dxil_value_type(p, id));
    sb_sm4_text_append(p->text, " ");
    sb_dxil_print_value(p, id, depth);
}

static void print_constant(struct sb_dxil_printer *p, const struct sb_bc_constant *c, unsigned depth)
{
    struct sb_sm4_text *t = p->text;
    const struct sb_bc_type *type = sb_dxil_type(p, c->type);
    switch (c->kind) {
    case SB_BC_CONST_NULL: print_null(p, type); return;
    case SB_BC_CONST_UNDEF: sb_sm4_text_append(t, "undef"); return;
    case SB_BC_CONST_INTEGER:
    case SB_BC_CONST_FLOAT: print_scalar_bits(p, type, c->bits); return;
    case SB_BC_CONST_AGGREGATE:
    case SB_BC_CONST_DATA:
        if (type && (type->kind == SB_BC_TYPE_STRUCT || type->kind == SB_BC_TYPE_ARRAY ||
                     type->kind == SB_BC_TYPE_VECTOR))
            print_aggregate(p, c, type, depth);
        else
            sb_sm4_text_append(t, "?");
        return;
    case SB_BC_CONST_CAST:
        sb_sm4_text_appendf(t, "%s (", c->op < sizeof(cast_names) / sizeof(cast_names[0])
                                           ? cast_names[c->op] : "?cast");
        if (c->element_count > 0 && c->elements[0] <= UINT32_MAX)
            print_typed_at(p, (uint32_t)c->elements[0], depth + 1);
        sb_sm4_text_append(t, " to ");
        sb_dxil_print_type(p, c->type);
        sb_sm4_text_append(t, ")");
        return;
    case SB_BC_CONST_GEP: {
        sb_sm4_text_append(t, c->flags & 1 ? "getelementptr inbounds (" : "getelementptr (");
        uint32_t source = c->aux_type;
        if (source == SB_BC_NONE && c->element_count > 0 && c->elements[0] <= UINT32_MAX) {
            const struct sb_bc_type *base =
                sb_dxil_type(p, sb_dxil_value_type(p, (uint32_t)c->elements[0]));
            source = base && base->kind == SB_BC_TYPE_POINTER ? base->element : SB_BC_NONE;
        }
        sb_dxil_print_type(p, source);
        for (uint32_t i = 0; i < c->element_count; i++) {
            sb_sm4_text_append(t, ", ");
            print_typed_at(p, c->elements[i] > UINT32_MAX ? SB_BC_NONE : (uint32_t)c->elements[i],
                           depth + 1);
        }
        sb_sm4_text_append(t, ")");
        return;
    }
    default:
        /* Kept raw by the reader (wide integers, binop/cmp/select expressions): not printed. */
        sb_sm4_text_appendf(t, "<unprinted constant record %u>", c->op);
    }
}

/* A reference to value `id` without its type. */
void sb_dxil_print_value(struct sb_dxil_printer *p, uint32_t id, unsigned depth)
{
    struct sb_sm4_text *t = p->text;
    const struct sb_bc_value *v = sb_bc_value_get(p->module, p->function, id);
    if (!v || depth > SB_DXIL_DISASM_MAX_DEPTH) {
        sb_sm4_text_append(t, "?");
        return;
    }
    if (v->kind == SB_BC_VALUE_CONSTANT) {
        const struct sb_bc_constant *c = sb_bc_constant_get(p->module, p->function, id);
        if (c)
            print_constant(p, c, depth);
        else
            sb_sm4_text_append(t, "?");
        return;
    }
    bool global = v->kind == SB_BC_VALUE_GLOBAL || v->kind == SB_BC_VALUE_FUNCTION;
    if (v->name) {
        sb_dxil_print_name(t, global ? '@' : '%', v->name);
        return;
    }
    uint32_t slot = SB_BC_NONE;
    if (global && id < p->module->value_count)
        slot = p->global_slots[id];
    else if (!global && p->function && id >= p->function->first_value)
        slot = p->local_slots[id - p->function->first_value];
    if (slot == SB_BC_NONE)
        sb_sm4_text_appendf(t, "%c<badref>", global ? '@' : '%');
    else
        sb_sm4_text_appendf(t, "%c%u", global ? '@' : '%', slot);
}

void sb_dxil_print_typed_value(struct sb_dxil_printer *p, uint32_t id)
{
    print_typed_at(p, id, 0);
}

const char *sb_dxil_linkage_name(uint32_t linkage)
{
    switch (linkage) {
    case 2: return "appending ";
    case 3: return "internal ";
    case 7: return "extern_weak ";
    case 8: return "common ";
    case 9: case 13: case 14: return "private ";
    case 12: return "available_externally ";
    case 1: case 16: return "weak ";
    case 10: case 17: return "weak_odr ";
    case 4: case 18: return "linkonce ";
    case 11: case 19: return "linkonce_odr ";
    default: return "";
    }
}
