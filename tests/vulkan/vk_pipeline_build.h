/* SPDX-License-Identifier: MIT */
/*
 * Turns one `struct sb_translation` (translate.h) into a Vulkan pipeline on
 * the harness device: compute directly; vertex, pixel, geometry, hull and
 * domain shaders inside a graphics pipeline completed with generated
 * partner stages (vk_partner.h) whose interface is the one the translation
 * reports. Needs only the translator's headers, so the harness self-test
 * can drive it with GLSL-built modules and hand-written interfaces.
 */
#ifndef SB_TEST_VK_PIPELINE_BUILD_H
#define SB_TEST_VK_PIPELINE_BUILD_H

#include <stddef.h>

#include "shaderbridge/translate.h"
#include "vk_harness.h"

/** Outcome of one build; validation messages are in h->messages. */
struct vkpb_outcome {
    VkResult result;      /**< of the failing call, or VK_SUCCESS */
    char failure[256];    /**< what failed before/without a validation message; "" if nothing */
};

/**
 * Builds (and destroys again) the pipeline for `t`. Returns true when every
 * object was created; validation errors are counted by the harness, so the
 * caller checks h->messages too. Messages are not reset here.
 */
bool vkpb_build(struct vkh *h, const struct sb_translation *t, struct vkpb_outcome *out);

/**
 * The layout bindings of a translation: one per translated binding (an
 * unbounded range keeps count 0xFFFFFFFF, which vkh_layout_create sizes as
 * VKH_UNBOUNDED_ARRAY_SIZE) plus the STORAGE_BUFFER counters of UAVs that have
 * them (as many descriptors as the UAV range, translate.h).
 * Writes at most `max`; returns how many.
 */
uint32_t vkpb_layout_bindings(const struct sb_translation *t, struct vkh_binding *out,
                              uint32_t max);

#endif
