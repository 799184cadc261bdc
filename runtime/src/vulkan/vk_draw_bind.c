/* SPDX-License-Identifier: MIT */
/*
 * Resources of a draw: the bindings of the vertex, geometry and pixel
 * translations merged into one list, so the compute path's binding code
 * (vk_bind.c) creates one buffer / image / sampler per register and one
 * descriptor per binding for the whole pipeline, and UAVs written by any
 * stage are read back once. Under the translator's default scheme a register
 * has the same set/binding in every stage, so identical bindings merge; two
 * stages that put different registers, descriptor types or array sizes at
 * one set/binding (or one register at two places) cannot share a pipeline
 * layout and are reported as SB_ERROR_RUN_BINDING.
 */
#include <stdlib.h>
#include <string.h>

#include "vk_draw_private.h"


static const char *class_prefix(uint32_t resource_class)
{
    static const char *const prefixes[4] = { "cb", "t", "s", "u" };
    return resource_class < 4 ? prefixes[resource_class] : "?";
}

static bool same_register(const struct sb_translated_binding *a, const struct sb_translated_binding *b)
{
    return a->resource_class == b->resource_class && a->space == b->space && a->lower_bound == b->lower_bound;
}

/* UAV ranges sharing a register: two descriptors would get two copies of one resource, and the
 * second read-back would overwrite the first. (Overlapping read-only ranges are harmless.) */
static bool uav_overlap(const struct sb_translated_binding *a, const struct sb_translated_binding *b)
{
    if (a->resource_class != SB_IR_RESOURCE_UAV || b->resource_class != SB_IR_RESOURCE_UAV || a->space != b->space)
        return false;
    uint64_t a_end = a->count == UINT32_MAX ? UINT64_MAX : (uint64_t)a->lower_bound + (a->count ? a->count : 1);
    uint64_t b_end = b->count == UINT32_MAX ? UINT64_MAX : (uint64_t)b->lower_bound + (b->count ? b->count : 1);
    return a->lower_bound < b_end && b->lower_bound < a_end;
}

static enum sb_result conflict(const struct sb_translated_binding *a, int stage_a,
                               const struct sb_translated_binding *b, int stage_b, const char *why,
                               struct sb_error *error)
{
    return sb_vk_fail(error, SB_ERROR_RUN_BINDING, "the %s shader's %s%u (space %u, set %u binding %u) and the %s "
                      "shader's %s%u (space %u, set %u binding %u) %s", sb_vk_draw_stage_name(stage_a),
                      class_prefix(a->resource_class), a->lower_bound, a->space, a->set, a->binding,
                      sb_vk_draw_stage_name(stage_b), class_prefix(b->resource_class), b->lower_bound, b->space, b->set,
                      b->binding, why);
}

/* Merges `b` (of stage `stage`) into the list; `stages` records the first stage of each entry. */
static enum sb_result merge_one(struct sb_vk_draw *dr, int *stages, const struct sb_translated_binding *b,
                                int stage, struct sb_error *error)
{
    uint32_t n = dr->merged.binding_count;
    for (uint32_t i = 0; i < n; i++) {
        struct sb_translated_binding *m = &dr->bindings[i];
        bool same_slot = m->set == b->set && m->binding == b->binding;
        if (!same_slot && !same_register(m, b) && !uav_overlap(m, b))
            continue;
        if (!same_slot)
            return conflict(m, stages[i], b, stage, "are one register at two bindings", error);
        if (!same_register(m, b) || m->descriptor_type != b->descriptor_type || m->count != b->count)
            return conflict(m, stages[i], b, stage, "share a binding but differ in register, descriptor type "
                            "or array size", error);
        if (b->has_counter && m->has_counter && m->counter_binding != b->counter_binding)
            return conflict(m, stages[i], b, stage, "have their counters at different bindings", error);
        if (b->has_counter) {
            m->has_counter = true;
            m->counter_binding = b->counter_binding;
        }
        return SB_SUCCESS;
    }
    dr->bindings[n] = *b;
    stages[n] = stage;
    dr->merged.binding_count = n + 1;
    return SB_SUCCESS;
}

/* A counter binding must not land on another entry's binding. */
static enum sb_result check_counters(const struct sb_vk_draw *dr, const int *stages, struct sb_error *error)
{
    for (uint32_t i = 0; i < dr->merged.binding_count; i++) {
        const struct sb_translated_binding *a = &dr->bindings[i];
        if (!a->has_counter)
            continue;
        for (uint32_t j = 0; j < dr->merged.binding_count; j++) {
            const struct sb_translated_binding *b = &dr->bindings[j];
            if (b->set == a->set && (b->binding == a->counter_binding ||
                                     (j != i && b->has_counter && b->counter_binding == a->counter_binding)))
                return conflict(a, stages[i], b, stages[j], "collide: a counter binding is used twice", error);
        }
    }
    return SB_SUCCESS;
}

enum sb_result sb_vk_draw_merge_bindings(struct sb_vk_draw *dr, struct sb_error *error)
{
    uint32_t total = 0;
    for (int s = 0; s < SB_VK_DRAW_STAGES; s++)
        if (dr->stages[s])
            total += dr->stages[s]->binding_count;
    dr->bindings = calloc(total ? total : 1, sizeof(*dr->bindings));
    int *stages = calloc(total ? total : 1, sizeof(*stages));
    if (!dr->bindings || !stages) {
        free(stages);
        return sb_vk_fail(error, SB_ERROR_OUT_OF_MEMORY, "sb_rt_draw_points: out of memory");
    }
    dr->merged = (struct sb_translation){ .stage = SB_IR_STAGE_VERTEX, .bindings = dr->bindings };
    enum sb_result res = SB_SUCCESS;
    for (int s = 0; s < SB_VK_DRAW_STAGES && res == SB_SUCCESS; s++)
        for (uint32_t i = 0; dr->stages[s] && i < dr->stages[s]->binding_count && res == SB_SUCCESS; i++)
            res = merge_one(dr, stages, &dr->stages[s]->bindings[i], s, error);
    if (res == SB_SUCCESS)
        res = check_counters(dr, stages, error);
    free(stages);
    return res;
}

enum sb_result sb_vk_draw_layouts(struct sb_vk_draw *dr, struct sb_error *error)
{
    dr->run.stage_flags = dr->stage_flags;
    return sb_vk_layouts_create(&dr->run, error);
}
