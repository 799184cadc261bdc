/* SPDX-License-Identifier: MIT */
/*
 * The lists every part of the structurizer appends to, and the grouping of a
 * switch's cases by successor. Appends never fail loudly: a failed growth sets
 * the list's sticky flag, which the entry point checks once at the end, so
 * the builders stay free of error plumbing.
 */
#include <stdlib.h>

#include "dxil_structurize_private.h"

bool sb_dxil_grow(void **items, size_t *capacity, size_t count, size_t size)
{
    if (count < *capacity)
        return true;
    size_t wanted = *capacity ? *capacity * 2 : 64;
    void *bigger = realloc(*items, wanted * size);
    if (!bigger)
        return false;
    *items = bigger;
    *capacity = wanted;
    return true;
}

void sb_dxil_sx_push(struct sb_dxil_sx_list *list, uint32_t kind, uint32_t a, uint32_t b)
{
    if (list->failed || !sb_dxil_grow((void **)&list->items, &list->capacity, list->count, sizeof(*list->items))) {
        list->failed = true;
        return;
    }
    list->items[list->count++] = (struct sb_dxil_sx){ .kind = kind, .a = a, .b = b };
}

void sb_dxil_sx_list_free(struct sb_dxil_sx_list *list)
{
    free(list->items);
    *list = (struct sb_dxil_sx_list){ .items = NULL, .count = 0, .capacity = 0, .failed = false };
}

void sb_dxil_out_event(struct sb_dxil_out *out, enum sb_dxil_cf_event_kind kind, uint32_t value)
{
    struct sb_dxil_structured *r = out->result;
    size_t count = r->event_count;
    if (out->event_limit && count >= out->event_limit && !out->failed)
        out->over_limit = true;
    if (out->failed || out->over_limit || count >= UINT32_MAX ||
        !sb_dxil_grow((void **)&r->events, &out->event_capacity, count, sizeof(*r->events))) {
        out->failed = true;
        return;
    }
    r->events[r->event_count++] = (struct sb_dxil_cf_event){ .kind = kind, .value = value };
    if (kind == SB_DXIL_CF_SET_SELECTOR || kind == SB_DXIL_CF_IF_SELECTOR ||
        kind == SB_DXIL_CF_SWITCH_SELECTOR)
        r->uses_selector = true;
}

void sb_dxil_out_edge(struct sb_dxil_out *out, uint32_t pred, uint32_t succ)
{
    struct sb_dxil_structured *r = out->result;
    size_t count = r->edge_count;
    if (out->failed || !sb_dxil_grow((void **)&r->edges, &out->edge_capacity, count, sizeof(*r->edges))) {
        out->failed = true;
        return;
    }
    r->edges[r->edge_count] = (struct sb_dxil_cf_edge){ .pred = pred, .succ = succ };
    sb_dxil_out_event(out, SB_DXIL_CF_EDGE, r->edge_count);
    r->edge_count++;
}

enum sb_result sb_dxil_switch_groups_make(const struct sb_dxil_cfg_block *block, uint32_t *scratch,
                                          struct sb_dxil_switch_groups *groups)
{
    uint32_t n = block->successor_count;
    *groups = (struct sb_dxil_switch_groups){ .group_count = 0, .target = NULL, .label_start = NULL,
                                              .labels = NULL };
    uint32_t *group_of = malloc((size_t)n * sizeof(*group_of));
    groups->target = malloc((size_t)n * sizeof(*groups->target));
    groups->label_start = calloc((size_t)n + 1, sizeof(*groups->label_start));
    groups->labels = malloc((size_t)n * sizeof(*groups->labels));
    if (!group_of || !groups->target || !groups->label_start || !groups->labels) {
        free(group_of);
        sb_dxil_switch_groups_free(groups);
        return SB_ERROR_OUT_OF_MEMORY;
    }
    /* Cases first, the default last: a default that shares a case's successor joins
     * that case's labels, and groups come in the order the source listed them. */
    for (uint32_t k = 0; k < n; k++) {
        uint32_t label = (k + 1) % n;
        uint32_t s = block->successors[label];
        if (scratch[s] == SB_DXIL_NONE) {
            scratch[s] = groups->group_count;
            groups->target[groups->group_count++] = s;
        }
        group_of[label] = scratch[s];
        groups->label_start[scratch[s] + 1]++;
    }
    for (uint32_t g = 0; g < groups->group_count; g++)
        groups->label_start[g + 1] += groups->label_start[g];
    /* A counting sort keeps each group's labels in case order (default last). */
    uint32_t *fill = scratch; /* reuse: the successors' slots are reset below anyway */
    for (uint32_t g = 0; g < groups->group_count; g++)
        fill[groups->target[g]] = groups->label_start[g];
    for (uint32_t k = 0; k < n; k++) {
        uint32_t label = (k + 1) % n;
        groups->labels[fill[groups->target[group_of[label]]]++] = label;
    }
    for (uint32_t g = 0; g < groups->group_count; g++)
        scratch[groups->target[g]] = SB_DXIL_NONE;
    free(group_of);
    return SB_SUCCESS;
}

void sb_dxil_switch_groups_free(struct sb_dxil_switch_groups *groups)
{
    free(groups->target);
    free(groups->label_start);
    free(groups->labels);
    groups->target = groups->label_start = groups->labels = NULL;
    groups->group_count = 0;
}
