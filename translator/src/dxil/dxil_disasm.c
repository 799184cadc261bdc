/* SPDX-License-Identifier: MIT */
/*
 * `shaderbridge disasm FILE.dxil`: a DXIL module as LLVM assembly, laid out
 * as LLVM's printer does (../shared/docs/dxil.md §2): header comments, target
 * strings, named struct types, globals, functions, attribute groups, named
 * metadata and numbered nodes. Numbers follow LLVM's slot order: attribute
 * sets by first use (functions, then the calls in their bodies), metadata
 * nodes depth-first from the named metadata, then from the attachments of
 * each body. Bodies are printed by dxil_disasm_function.c, the struct
 * order found by dxil_disasm_types.c, attributes and metadata spelled by
 * dxil_disasm_attributes.c and dxil_disasm_metadata.c, types and operands
 * by dxil_disasm_value.c.
 */
#include "dxil_disasm_private.h"

#include "translator/dxil_disasm.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"

static void print_globals(struct sb_dxil_printer *p)
{
    struct sb_sm4_text *t = p->text;
    const struct sb_bc_module *m = p->module;
    if (m->global_count)
        sb_sm4_text_append(t, "\n");
    for (uint32_t i = 0; i < m->global_count; i++) {
        const struct sb_bc_global *g = &m->globals[i];
        sb_dxil_print_value(p, g->value, 0);
        sb_sm4_text_append(t, " = ");
        if (g->initializer == SB_BC_NONE && (g->linkage == 0 || g->linkage == 5))
            sb_sm4_text_append(t, "external ");
        else
            sb_sm4_text_append(t, sb_dxil_linkage_name(g->linkage));
        if (g->address_space)
            sb_sm4_text_appendf(t, "addrspace(%u) ", g->address_space);
        sb_sm4_text_append(t, g->constant ? "constant " : "global ");
        sb_dxil_print_type(p, g->value_type);
        if (g->initializer != SB_BC_NONE) {
            sb_sm4_text_append(t, " ");
            sb_dxil_print_value(p, g->initializer, 0);
        }
        if (g->align)
            sb_sm4_text_appendf(t, ", align %u", 1u << ((g->align - 1) & 31));
        sb_sm4_text_append(t, "\n");
    }
}

static void print_struct_types(struct sb_dxil_printer *p)
{
    struct sb_sm4_text *t = p->text;
    uint32_t *order = malloc(((size_t)p->module->type_count + 1) * sizeof(uint32_t));
    if (!order) {
        t->failed = true;
        return;
    }
    uint32_t count = sb_dxil_find_struct_types(p->module, order);
    for (uint32_t i = 0; i < count; i++) {
        const struct sb_bc_type *type = &p->module->types[order[i]];
        sb_sm4_text_append(t, i ? "" : "\n");
        sb_dxil_print_name(t, '%', type->name);
        /* The definition spells the members out (a use prints the name). */
        if (type->opaque) {
            sb_sm4_text_append(t, " = type opaque\n");
            continue;
        }
        sb_sm4_text_append(t, type->packed ? " = type <{" : " = type {");
        for (uint32_t k = 0; k < type->member_count; k++) {
            sb_sm4_text_append(t, k ? ", " : " ");
            sb_dxil_print_type(p, type->members[k]);
        }
        sb_sm4_text_append(t, type->member_count ? " " : "");
        sb_sm4_text_append(t, type->packed ? "}>\n" : "}\n");
    }
    free(order);
}

/* dxc's header: the program kind and versions of the DXIL program header. */
static void print_header(struct sb_dxil_printer *p)
{
    static const char *const kinds[] = { "ps", "vs", "gs", "hs", "ds", "cs", "lib", "rg", "is",
                                         "ah", "ch", "miss", "ca", "ms", "as", "node" };
    const struct sb_bc_module *m = p->module;
    if (!m->program_version)
        return;
    uint32_t kind = m->program_version >> 16;
    sb_sm4_text_appendf(p->text, "; shader model %s_%u_%u, DXIL version %u.%u\n",
                        kind < sizeof(kinds) / sizeof(kinds[0]) ? kinds[kind] : "unknown",
                        (m->program_version >> 4) & 0xF, m->program_version & 0xF,
                        m->dxil_version >> 8, m->dxil_version & 0xFF);
    const struct sb_bc_named_metadata *entries = sb_bc_named_metadata_find(m, "dx.entryPoints");
    for (uint32_t i = 0; entries && i < entries->operand_count; i++) {
        const struct sb_bc_metadata *entry = sb_bc_metadata_get(m, NULL, entries->operands[i]);
        const struct sb_bc_metadata *name =
            entry && entry->kind == SB_BC_MD_NODE && entry->operand_count > 1
                ? sb_bc_metadata_get(m, NULL, entry->operands[1]) : NULL;
        if (name && name->kind == SB_BC_MD_STRING)
            sb_sm4_text_appendf(p->text, "; entry point: %.*s\n", (int)name->length, name->string);
    }
    sb_sm4_text_append(p->text, "\n");
}

/* LLVM's numbering before anything is printed: unnamed globals, attribute sets, metadata. */
static void number_module(struct sb_dxil_printer *p)
{
    const struct sb_bc_module *m = p->module;
    uint32_t next = 0;
    for (uint32_t i = 0; i < m->value_count; i++)
        p->global_slots[i] = SB_BC_NONE;
    for (uint32_t i = 0; i < m->value_count; i++)
        if (m->values[i].kind == SB_BC_VALUE_GLOBAL && !m->values[i].name)
            p->global_slots[i] = next++;
    for (uint32_t i = 0; i < m->value_count; i++)
        if (m->values[i].kind == SB_BC_VALUE_FUNCTION && !m->values[i].name)
            p->global_slots[i] = next++;
    for (uint32_t i = 0; i < m->function_count; i++) {
        const struct sb_bc_function *f = &m->functions[i];
        sb_dxil_attribute_slot(p, f->paramattr);
        for (uint32_t k = 0; k < f->instruction_count; k++)
            if (f->instructions[k].opcode == SB_BC_OP_CALL)
                sb_dxil_attribute_slot(p, f->instructions[k].paramattr);
    }
    for (uint32_t i = 0; i < m->named_metadata_count; i++)
        for (uint32_t k = 0; k < m->named_metadata[i].operand_count; k++)
            sb_dxil_number_metadata(p, m->named_metadata[i].operands[k]);
    for (uint32_t i = 0; i < m->function_count; i++) {
        const struct sb_bc_function *f = &m->functions[i];
        /* The function's own attachments (sorted last), then the instructions' in order. */
        struct sb_dxil_attachments sorted;
        if (!sb_dxil_sort_attachments(f, &sorted)) {
            p->text->failed = true;
            return;
        }
        for (uint32_t k = sb_dxil_first_attachment(&sorted, SB_BC_NONE); k < sorted.count; k++)
            sb_dxil_number_metadata(p, sorted.items[k].node);
        for (uint32_t k = 0; k < sorted.count && sorted.items[k].instruction != SB_BC_NONE; k++)
            sb_dxil_number_metadata(p, sorted.items[k].node);
        free(sorted.items);
    }
}

static void print_module(struct sb_dxil_printer *p)
{
    struct sb_sm4_text *t = p->text;
    const struct sb_bc_module *m = p->module;
    print_header(p);
    sb_sm4_text_appendf(t, "target datalayout = \"%s\"\n", m->datalayout ? m->datalayout : "");
    sb_sm4_text_appendf(t, "target triple = \"%s\"\n", m->triple ? m->triple : "");
    print_struct_types(p);
    print_globals(p);
    for (uint32_t i = 0; i < m->function_count; i++) {
        const struct sb_bc_function *f = &m->functions[i];
        sb_sm4_text_append(t, "\n");
        /* LLVM's comment names the keyword attributes only. */
        char *keywords = sb_dxil_render_attributes(m, f->paramattr, 0xFFFFFFFFu, false);
        if (keywords && keywords[0])
            sb_sm4_text_appendf(t, "; Function Attrs: %s\n", keywords);
        free(keywords);
        sb_dxil_print_function(p, f);
    }
    if (p->next_attribute_slot)
        sb_sm4_text_append(t, "\n");
    for (uint32_t i = 0; i < p->next_attribute_slot; i++)
        sb_sm4_text_appendf(t, "attributes #%u = { %s }\n", i, p->attribute_texts[i]);
    sb_dxil_print_metadata(p);
}

enum sb_result sb_dxil_disassemble_module(const struct sb_bc_module *module, char **text,
                                          struct sb_error *error)
{
    if (text)
        *text = NULL;
    if (!module || !text)
        return sb_error_set(error, SB_ERROR_INVALID_ARGUMENT, 0, SB_ERROR_NO_INSTR,
                            "sb_dxil_disassemble_module: NULL module or text pointer");
    struct sb_sm4_text out = { 0 };
    struct sb_dxil_printer p = {
        .text = &out,
        .module = module,
        .global_slots = malloc(((size_t)module->value_count + 1) * sizeof(uint32_t)),
        .metadata_slots = malloc(((size_t)module->metadata_count + 1) * sizeof(uint32_t)),
        .metadata_order = malloc(((size_t)module->metadata_count + 1) * sizeof(uint32_t)),
        .attribute_slots = malloc(((size_t)module->attribute_list_count + 1) * sizeof(uint32_t)),
        .attribute_texts = calloc((size_t)module->attribute_list_count + 1, sizeof(char *)),
    };
    if (p.global_slots && p.metadata_slots && p.metadata_order && p.attribute_slots &&
        p.attribute_texts) {
        memset(p.metadata_slots, 0xFF, ((size_t)module->metadata_count + 1) * sizeof(uint32_t));
        memset(p.attribute_slots, 0xFF,
               ((size_t)module->attribute_list_count + 1) * sizeof(uint32_t));
        number_module(&p);
        print_module(&p);
    } else {
        out.failed = true;
    }
    for (uint32_t i = 0; p.attribute_texts && i < p.next_attribute_slot; i++)
        free(p.attribute_texts[i]);
    free(p.attribute_texts);
    free(p.attribute_slots);
    free(p.metadata_order);
    free(p.metadata_slots);
    free(p.global_slots);
    if (out.failed || !out.data) {
        free(out.data);
        return sb_error_set(error, SB_ERROR_OUT_OF_MEMORY, 0, SB_ERROR_NO_INSTR,
                            "out of memory building the DXIL listing");
    }
    *text = out.data;
    return SB_SUCCESS;
}

enum sb_result sb_dxil_disassemble(const uint8_t *part, size_t size, uint64_t base_offset,
                                   char **text, struct sb_error *error)
{
    if (text)
        *text = NULL;
    struct sb_bc_module *module = NULL;
    enum sb_result result = sb_bc_read_dxil_part(part, size, base_offset, &module, error);
    if (result != SB_SUCCESS)
        return result;
    result = sb_dxil_disassemble_module(module, text, error);
    sb_bc_module_destroy(module);
    return result;
}

void sb_dxil_text_free(char *text)
{
    free(text);
}
