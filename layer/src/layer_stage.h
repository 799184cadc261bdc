/* SPDX-License-Identifier: MIT */
/*
 * Rewriting pipeline shader stages that use the layer's modules or chain
 * foreign bytes (layer_stage.c), and the scratch storage those rewrites live
 * in until the pipeline call returns.
 */
#ifndef SB_LAYER_STAGE_H
#define SB_LAYER_STAGE_H

#include "layer_private.h"

struct sb_layer_scratch {
    void **allocs;
    size_t alloc_count, alloc_capacity;
    VkShaderModule *modules; /* temporary modules, destroyed on release */
    size_t module_count, module_capacity;
};

/* Zeroed memory freed by sb_layer_scratch_release; NULL when out of memory. */
void *sb_layer_scratch_alloc(struct sb_layer_scratch *s, size_t size);
void sb_layer_scratch_release(struct sb_layer_scratch *s, const struct sb_layer_device *dev,
                              const VkAllocationCallbacks *alloc);

/* Whether the stage uses a registered module or chains foreign bytes. */
bool sb_layer_stage_needs_fix(const VkPipelineShaderStageCreateInfo *stage);
/* Rewrites `stage` (a copy the caller owns); a failure has been logged. */
VkResult sb_layer_stage_fix(const struct sb_layer_device *dev, VkPipelineShaderStageCreateInfo *stage,
                            const VkAllocationCallbacks *alloc, struct sb_layer_scratch *s);

#endif
