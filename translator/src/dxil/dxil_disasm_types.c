/* SPDX-License-Identifier: MIT */
/*
 * Which named struct types a listing defines, in which order: LLVM's
 * TypeFinder (as llvm-dis 14 runs it), which only finds types something in
 * the module reaches: globals (type, initializer), then per function its
 * type and each instruction's result type, constant operands (and a GEP's
 * or alloca's own type) and attached metadata, then the named metadata.
 * A type is taken when first reached; its members are searched depth first.
 */
#include "dxil_disasm_private.h"

#include <stdlib.h>

/* Deepest constant or metadata nesting followed (hostile input only); deeper, the remaining
 * named types are listed in type-table order so none is lost. */
#define MAX_NESTING 256u

struct finder {
    const struct sb_bc_module *module;
    bool *type_seen;
    bool *constant_seen;  /* module constants by value id */
    bool *local_seen;     /* the current function's values by local index */
    bool *metadata_seen;
    const struct sb_bc_function *function;
    struct sb_dxil_attachments attachments; /* the function's, sorted */
    uint32_t *found;
    uint32_t found_count;
    uint32_t *stack;      /* type worklist, type_count entries at most */
    bool cut_short;
};

static void find_type(struct finder *f, uint32_t id)
{
    const struct sb_bc_module *m = f->module;
    if (id >= m->type_count || f->type_seen[id])
        return;
    f->type_seen[id] = true;
    uint32_t depth = 0;
    f->stack[depth++] = id;
    while (depth > 0) {
        const struct sb_bc_type *type = &m->types[f->stack[--depth]];
        if (type->kind == SB_BC_TYPE_STRUCT && type->name)
            f->found[f->found_count++] = (uint32_t)(type - m->types);
        uint32_t sub[1];
        const uint32_t *subtypes = NULL;
        uint32_t count = 0;
        if (type->kind == SB_BC_TYPE_STRUCT) {
            subtypes = type->members;
            count = type->member_count;
        } else if (type->kind == SB_BC_TYPE_POINTER || type->kind == SB_BC_TYPE_ARRAY ||
                   type->kind == SB_BC_TYPE_VECTOR) {
            sub[0] = type->element;
            subtypes = sub;
            count = 1;
        }
        if (type->kind == SB_BC_TYPE_FUNCTION) {
            /* Contained types: the return type, then the parameters; pushed in reverse. */
            for (uint32_t i = type->member_count; i-- > 0;)
                if (type->members[i] < m->type_count && !f->type_seen[type->members[i]]) {
                    f->type_seen[type->members[i]] = true;
                    f->stack[depth++] = type->members[i];
                }
            sub[0] = type->element;
            subtypes = sub;
            count = 1;
        }
        for (uint32_t i = count; i-- > 0;)
            if (subtypes[i] < m->type_count && !f->type_seen[subtypes[i]]) {
                f->type_seen[subtypes[i]] = true;
                f->stack[depth++] = subtypes[i];
            }
    }
}

static void find_value(struct finder *f, uint32_t id, unsigned depth);

static void find_metadata(struct finder *f, uint32_t id, unsigned depth)
{
    const struct sb_bc_module *m = f->module;
    if (id >= m->metadata_count || f->metadata_seen[id])
        return;
    if (depth > MAX_NESTING) {
        f->cut_short = true;
        return;
    }
    const struct sb_bc_metadata *md = &m->metadata[id];
    if (md->kind != SB_BC_MD_NODE && md->kind != SB_BC_MD_DISTINCT_NODE)
        return;
    f->metadata_seen[id] = true;
    for (uint32_t i = 0; i < md->operand_count; i++) {
        const struct sb_bc_metadata *op =
            md->operands[i] < m->metadata_count ? &m->metadata[md->operands[i]] : NULL;
        if (op && op->kind == SB_BC_MD_VALUE)
            find_value(f, op->value, depth + 1);
        else if (op)
            find_metadata(f, md->operands[i], depth + 1);
    }
}

/* Constants only (LLVM skips globals, functions, arguments and instructions). */
static void find_value(struct finder *f, uint32_t id, unsigned depth)
{
    const struct sb_bc_value *v = sb_bc_value_get(f->module, f->function, id);
    if (!v || v->kind != SB_BC_VALUE_CONSTANT)
        return;
    bool *seen = id < f->module->value_count ? &f->constant_seen[id]
                                             : &f->local_seen[id - f->function->first_value];
    if (*seen)
        return;
    if (depth > MAX_NESTING) {
        f->cut_short = true;
        return;
    }
    *seen = true;
    find_type(f, v->type);
    const struct sb_bc_constant *c = sb_bc_constant_get(f->module, f->function, id);
    if (!c || c->kind == SB_BC_CONST_DATA || c->kind == SB_BC_CONST_OTHER)
        return;
    if (c->kind == SB_BC_CONST_GEP)
        find_type(f, c->aux_type);
    for (uint32_t i = 0; i < c->element_count; i++)
        if (c->elements[i] <= UINT32_MAX)
            find_value(f, (uint32_t)c->elements[i], depth + 1);
}

static void find_instruction(struct finder *f, const struct sb_bc_function *fn, uint32_t index)
{
    const struct sb_bc_instruction *inst = &fn->instructions[index];
    find_type(f, inst->type);
    if (inst->opcode == SB_BC_OP_STORE) {
        /* LLVM's operand order is (value, pointer); the reader keeps (pointer, value). */
        for (uint32_t i = inst->operand_count; i-- > 0;)
            find_value(f, inst->operands[i], 0);
    } else {
        for (uint32_t i = 0; i < inst->operand_count; i++)
            find_value(f, inst->operands[i], 0);
    }
    if (inst->opcode == SB_BC_OP_GEP || inst->opcode == SB_BC_OP_ALLOCA)
        find_type(f, inst->aux_type);
    /* Attachments other than !dbg (kind 0), by kind. */
    for (uint32_t a = sb_dxil_first_attachment(&f->attachments, index);
         a < f->attachments.count && f->attachments.items[a].instruction == index; a++)
        if (f->attachments.items[a].kind != 0)
            find_metadata(f, f->attachments.items[a].node, 0);
}

uint32_t sb_dxil_find_struct_types(const struct sb_bc_module *m, uint32_t *out)
{
    struct finder f = {
        .module = m,
        .type_seen = calloc((size_t)m->type_count + 1, sizeof(bool)),
        .constant_seen = calloc((size_t)m->value_count + 1, sizeof(bool)),
        .metadata_seen = calloc((size_t)m->metadata_count + 1, sizeof(bool)),
        .found = out,
        .stack = malloc(((size_t)m->type_count + 1) * sizeof(uint32_t)),
    };
    if (!f.type_seen || !f.constant_seen || !f.metadata_seen || !f.stack) {
        f.cut_short = true;
        goto done;
    }
    for (uint32_t i = 0; i < m->global_count; i++) {
        find_type(&f, m->globals[i].value_type);
        if (m->globals[i].initializer != SB_BC_NONE)
            find_value(&f, m->globals[i].initializer, 0);
    }
    for (uint32_t i = 0; i < m->function_count; i++) {
        const struct sb_bc_function *fn = &m->functions[i];
        find_type(&f, fn->type);
        if (fn->is_declaration)
            continue;
        f.function = fn;
        f.local_seen = calloc((size_t)fn->value_count + 1, sizeof(bool));
        if (!f.local_seen || !sb_dxil_sort_attachments(fn, &f.attachments)) {
            free(f.local_seen);
            f.cut_short = true;
            break;
        }
        for (uint32_t k = 0; k < fn->instruction_count; k++)
            find_instruction(&f, fn, k);
        free(f.attachments.items);
        free(f.local_seen);
        f.local_seen = NULL;
        f.function = NULL;
    }
    for (uint32_t i = 0; i < m->named_metadata_count; i++)
        for (uint32_t k = 0; k < m->named_metadata[i].operand_count; k++)
            find_metadata(&f, m->named_metadata[i].operands[k], 0);
done:
    if (f.cut_short) {
        for (uint32_t i = 0; i < m->type_count; i++) {
            bool listed = false;
            for (uint32_t k = 0; k < f.found_count && !listed; k++)
                listed = f.found[k] == i;
            if (!listed && m->types[i].kind == SB_BC_TYPE_STRUCT && m->types[i].name)
                f.found[f.found_count++] = i;
        }
    }
    free(f.stack);
    free(f.metadata_seen);
    free(f.constant_seen);
    free(f.type_seen);
    return f.found_count;
}
