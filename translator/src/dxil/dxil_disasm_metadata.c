/* SPDX-License-Identifier: MIT */
/*
 * Metadata in LLVM assembly: a function's attachments in LLVM's order,
 * node numbers (depth first, as LLVM's slot tracker), references to nodes,
 * strings and values, and the closing section of named metadata and
 * numbered nodes.
 */
#include "dxil_disasm_private.h"

#include <stdlib.h>
#include <string.h>

static int compare_attachments(const void *a, const void *b)
{
    const struct sb_bc_attachment *x = a, *y = b;
    if (x->instruction != y->instruction)
        return x->instruction < y->instruction ? -1 : 1;
    return x->kind < y->kind ? -1 : x->kind > y->kind;
}

bool sb_dxil_sort_attachments(const struct sb_bc_function *f, struct sb_dxil_attachments *out)
{
    *out = (struct sb_dxil_attachments){ 0 };
    if (f->attachment_count == 0)
        return true;
    out->items = malloc((size_t)f->attachment_count * sizeof(out->items[0]));
    if (!out->items)
        return false;
    memcpy(out->items, f->attachments, (size_t)f->attachment_count * sizeof(out->items[0]));
    qsort(out->items, f->attachment_count, sizeof(out->items[0]), compare_attachments);
    /* One attachment per kind on an instruction, as LLVM keeps them. */
    for (uint32_t i = 0; i < f->attachment_count; i++)
        if (out->count == 0 || out->items[out->count - 1].instruction != out->items[i].instruction ||
            out->items[out->count - 1].kind != out->items[i].kind)
            out->items[out->count++] = out->items[i];
    return true;
}

uint32_t sb_dxil_first_attachment(const struct sb_dxil_attachments *a, uint32_t instruction)
{
    uint32_t low = 0, high = a->count;
    while (low < high) {
        uint32_t mid = low + (high - low) / 2;
        if (a->items[mid].instruction < instruction)
            low = mid + 1;
        else
            high = mid;
    }
    return low;
}

/* Numbers node `id` and the nodes below it depth first (LLVM's CreateMetadataSlot), with an
 * explicit stack because metadata may be deep or cyclic. */
void sb_dxil_number_metadata(struct sb_dxil_printer *p, uint32_t id)
{
    const struct sb_bc_module *m = p->module;
    size_t capacity = 64, depth = 0;
    uint32_t *stack = malloc(capacity * sizeof(uint32_t));
    if (!stack) {
        p->text->failed = true;
        return;
    }
    stack[depth++] = id;
    while (depth > 0) {
        uint32_t node = stack[--depth];
        if (node >= m->metadata_count || p->metadata_slots[node] != SB_BC_NONE)
            continue;
        const struct sb_bc_metadata *md = &m->metadata[node];
        if (md->kind == SB_BC_MD_STRING || md->kind == SB_BC_MD_VALUE)
            continue;
        p->metadata_order[p->next_metadata_slot] = node;
        p->metadata_slots[node] = p->next_metadata_slot++;
        if (md->kind == SB_BC_MD_OTHER)
            continue;
        if (depth + md->operand_count > capacity) {
            capacity = (depth + md->operand_count) * 2;
            uint32_t *grown = realloc(stack, capacity * sizeof(uint32_t));
            if (!grown) {
                p->text->failed = true;
                break;
            }
            stack = grown;
        }
        for (uint32_t i = md->operand_count; i-- > 0;)
            stack[depth++] = md->operands[i];
    }
    free(stack);
}

static void print_metadata_operand(struct sb_dxil_printer *p, uint32_t id)
{
    struct sb_sm4_text *t = p->text;
    const struct sb_bc_metadata *md = id < p->module->metadata_count ? &p->module->metadata[id] : NULL;
    if (id == SB_BC_NONE) {
        sb_sm4_text_append(t, "null");
    } else if (md && md->kind == SB_BC_MD_STRING) {
        sb_sm4_text_append(t, "!\"");
        sb_dxil_print_escaped(t, md->string, md->length);
        sb_sm4_text_append(t, "\"");
    } else if (md && md->kind == SB_BC_MD_VALUE) {
        sb_dxil_print_typed_value(p, md->value);
    } else {
        sb_dxil_print_metadata_ref(p, id);
    }
}

void sb_dxil_print_metadata_ref(struct sb_dxil_printer *p, uint32_t id)
{
    const struct sb_bc_metadata *md = id < p->module->metadata_count ? &p->module->metadata[id] : NULL;
    if (md && p->metadata_slots[id] != SB_BC_NONE)
        sb_sm4_text_appendf(p->text, "!%u", p->metadata_slots[id]);
    else if (md && (md->kind == SB_BC_MD_STRING || md->kind == SB_BC_MD_VALUE))
        print_metadata_operand(p, id);
    else if (md) /* a node numbering never reached (it stops when out of memory) */
        sb_sm4_text_append(p->text, "!<unnumbered metadata>");
    else
        sb_sm4_text_append(p->text, "!<function-local metadata>");
}

void sb_dxil_print_metadata(struct sb_dxil_printer *p)
{
    struct sb_sm4_text *t = p->text;
    const struct sb_bc_module *m = p->module;
    if (m->named_metadata_count)
        sb_sm4_text_append(t, "\n");
    for (uint32_t i = 0; i < m->named_metadata_count; i++) {
        const struct sb_bc_named_metadata *named = &m->named_metadata[i];
        sb_dxil_print_name(t, '!', named->name);
        sb_sm4_text_append(t, " = !{");
        for (uint32_t k = 0; k < named->operand_count; k++) {
            sb_sm4_text_append(t, k ? ", " : "");
            sb_dxil_print_metadata_ref(p, named->operands[k]);
        }
        sb_sm4_text_append(t, "}\n");
    }
    if (p->next_metadata_slot)
        sb_sm4_text_append(t, "\n");
    for (uint32_t slot = 0; slot < p->next_metadata_slot; slot++) {
        const struct sb_bc_metadata *md = &m->metadata[p->metadata_order[slot]];
        sb_sm4_text_appendf(t, "!%u = ", slot);
        if (md->kind == SB_BC_MD_OTHER) {
            /* Debug-info records (DILocation, ...) are not spelled out. */
            sb_sm4_text_appendf(t, "!{} ; unprinted debug-info record code %u\n", md->code);
            continue;
        }
        sb_sm4_text_append(t, md->kind == SB_BC_MD_DISTINCT_NODE ? "distinct !{" : "!{");
        for (uint32_t k = 0; k < md->operand_count; k++) {
            sb_sm4_text_append(t, k ? ", " : "");
            print_metadata_operand(p, md->operands[k]);
        }
        sb_sm4_text_append(t, "}\n");
    }
}
