/* SPDX-License-Identifier: MIT */
/*
 * Attributes in LLVM assembly: the LLVM 3.7 kind codes' keywords, one
 * attribute list's sets as LLVM sorts and prints them, and the `#N`
 * numbers of function attribute sets (equal sets share one, numbered by
 * first use, as LLVM's slot tracker does).
 */
#include "dxil_disasm_private.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* LLVM 3.7 attribute kind codes (bitcode; 31-34 are unused) -> their keywords. */
static const char *const attribute_names[] = {
    [1] = "align", [2] = "alwaysinline", [3] = "byval", [4] = "inlinehint", [5] = "inreg",
    [6] = "minsize", [7] = "naked", [8] = "nest", [9] = "noalias", [10] = "nobuiltin",
    [11] = "nocapture", [12] = "noduplicate", [13] = "noimplicitfloat", [14] = "noinline",
    [15] = "nonlazybind", [16] = "noredzone", [17] = "noreturn", [18] = "nounwind",
    [19] = "optsize", [20] = "readnone", [21] = "readonly", [22] = "returned",
    [23] = "returns_twice", [24] = "signext", [25] = "alignstack", [26] = "ssp", [27] = "sspreq",
    [28] = "sspstrong", [29] = "uwtable", [30] = "zeroext", [35] = "builtin", [36] = "cold",
    [37] = "optnone", [38] = "inalloca", [39] = "nonnull", [40] = "jumptable",
    [41] = "dereferenceable", [42] = "dereferenceable_or_null", [43] = "convergent",
    [44] = "safestack", [45] = "argmemonly",
};

static int compare_strings(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* One attribute as LLVM writes it, into `out`. */
static void format_attribute(const struct sb_bc_attribute *a, char *out, size_t size)
{
    const char *name = a->key < sizeof(attribute_names) / sizeof(attribute_names[0])
                           ? attribute_names[a->key] : NULL;
    switch (a->kind) {
    case SB_BC_ATTR_ENUM:
        snprintf(out, size, "%s", name ? name : "<unknown attribute>");
        return;
    case SB_BC_ATTR_INT:
        if (a->key == 1 || a->key == 25)
            snprintf(out, size, "%s%s%llu%s", name, a->key == 1 ? " " : "(",
                     (unsigned long long)a->int_value, a->key == 1 ? "" : ")");
        else
            snprintf(out, size, "%s(%llu)", name ? name : "<unknown attribute>",
                     (unsigned long long)a->int_value);
        return;
    case SB_BC_ATTR_STRING:
        snprintf(out, size, "\x7f\"%s\"", a->string_key ? a->string_key : "");
        return;
    default:
        snprintf(out, size, "\x7f\"%s\"=\"%s\"", a->string_key ? a->string_key : "",
                 a->string_value ? a->string_value : "");
    }
}

/* The attributes of `list` (1-based, 0 none) at `index` (0xFFFFFFFF: the function), sorted as
 * LLVM keeps them: keywords alphabetically, then string attributes by key (left out unless
 * `with_strings`); NULL when none. */
char *sb_dxil_render_attributes(const struct sb_bc_module *m, uint32_t list, uint32_t index,
                               bool with_strings)
{
    char *items[64];
    unsigned count = 0;
    if (list == 0 || list > m->attribute_list_count)
        return NULL;
    const struct sb_bc_attribute_list *l = &m->attribute_lists[list - 1];
    for (uint32_t g = 0; g < l->group_count; g++)
        for (uint32_t k = 0; k < m->attribute_group_count; k++) {
            const struct sb_bc_attribute_group *group = &m->attribute_groups[k];
            if (group->id != l->groups[g] || group->index != index)
                continue;
            for (uint32_t a = 0; a < group->attribute_count && count < 64; a++) {
                bool is_string = group->attributes[a].kind == SB_BC_ATTR_STRING ||
                                 group->attributes[a].kind == SB_BC_ATTR_STRING_VALUE;
                if (is_string && !with_strings)
                    continue;
                char buffer[512];
                format_attribute(&group->attributes[a], buffer, sizeof(buffer));
                size_t length = strlen(buffer) + 1;
                items[count] = malloc(length);
                if (items[count])
                    memcpy(items[count], buffer, length);
                count++;
            }
        }
    if (count == 0)
        return NULL;
    qsort(items, count, sizeof(items[0]), compare_strings);
    size_t total = 1;
    for (unsigned i = 0; i < count; i++)
        total += items[i] ? strlen(items[i]) + 1 : 0;
    char *text = calloc(total, 1);
    for (unsigned i = 0; i < count; i++) {
        if (text && items[i]) {
            if (text[0])
                strcat(text, " ");
            /* \x7f sorted string attributes last; it is not printed. */
            strcat(text, items[i][0] == '\x7f' ? items[i] + 1 : items[i]);
        }
        free(items[i]);
    }
    return text;
}

uint32_t sb_dxil_attribute_slot(struct sb_dxil_printer *p, uint32_t list)
{
    if (list == 0 || list > p->module->attribute_list_count)
        return SB_BC_NONE;
    if (p->attribute_slots[list - 1] != SB_BC_NONE)
        return p->attribute_slots[list - 1];
    char *text = sb_dxil_render_attributes(p->module, list, 0xFFFFFFFFu, true);
    if (!text)
        return SB_BC_NONE;
    uint32_t slot = 0;
    while (slot < p->next_attribute_slot && strcmp(p->attribute_texts[slot], text))
        slot++;
    if (slot == p->next_attribute_slot)
        p->attribute_texts[p->next_attribute_slot++] = text;
    else
        free(text);
    p->attribute_slots[list - 1] = slot;
    return slot;
}

void sb_dxil_print_param_attributes(struct sb_dxil_printer *p, uint32_t list, uint32_t index)
{
    char *text = sb_dxil_render_attributes(p->module, list, index, true);
    if (text && text[0]) {
        /* Return attributes precede the type; parameter attributes follow it. */
        sb_sm4_text_appendf(p->text, index == 0 ? "%s " : " %s", text);
    }
    free(text);
}
