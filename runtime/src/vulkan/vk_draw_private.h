/* SPDX-License-Identifier: MIT */
/*
 * Internals of sb_rt_draw_points (runtime.h): the objects of one point-list
 * draw and the helpers its files share. Resources go through the compute
 * path's binding code (vk_bind.c) by handing it a merged translation whose
 * bindings are the union of the stages' bindings (vk_draw_bind.c); the rest
 * — vertex buffers, colour / depth attachments, render pass, graphics
 * pipeline, the PointSize store Vulkan needs — is the draw's own.
 */
#ifndef SB_RUNTIME_VK_DRAW_PRIVATE_H
#define SB_RUNTIME_VK_DRAW_PRIVATE_H

#include "vk_private.h"

/* Stages a draw may have, in pipeline order. */
enum sb_vk_draw_stage { SB_VK_DRAW_VS, SB_VK_DRAW_HS, SB_VK_DRAW_DS, SB_VK_DRAW_GS, SB_VK_DRAW_PS, SB_VK_DRAW_STAGES };

/** The name of a stage of enum sb_vk_draw_stage, for messages. */
static inline const char *sb_vk_draw_stage_name(int stage)
{
    static const char *const names[SB_VK_DRAW_STAGES] = { "vertex", "hull", "domain", "geometry", "pixel" };
    return stage >= 0 && stage < SB_VK_DRAW_STAGES ? names[stage] : "?";
}

/* Colour locations a draw may use (D3D has 8 render targets). */
#define SB_VK_MAX_TARGETS 8

/** Everything one sb_rt_draw_points creates; its release frees it all. sb_rt_vbc_draw describes
 *  its draw with one too (no stages, no run; vk_vbc_private.h), for the shared graphics path. */
struct sb_vk_draw {
    struct sb_rt_context *c;
    const struct sb_rt_draw *d;
    const char *name;                                         /* the entry point, for messages */
    VkFrontFace front_face;                                   /* D3D: clockwise; VBC: counter-clockwise */
    bool rasterizer_discard;                                  /* no fragment stage */
    const struct sb_translation *stages[SB_VK_DRAW_STAGES];  /* NULL where absent */
    VkShaderStageFlags stage_flags;                           /* every given stage */
    /* The union of the stages' bindings, as a translation the binding code can use. */
    struct sb_translation merged;
    struct sb_translated_binding *bindings;
    struct sb_vk_run run;                                     /* run.t = &merged */
    /* The vertex module with PointSize added (NULL: the translation's words are used). */
    uint32_t *vertex_words;
    size_t vertex_word_count;
    VkShaderModule modules[SB_VK_DRAW_STAGES];
    VkRenderPass render_pass;
    VkFramebuffer framebuffer;
    struct sb_vk_buffer *vertex_buffers;                      /* one per stream */
    struct sb_vk_image *targets;                              /* one per colour target */
    struct sb_vk_image depth;
    /* Colour write masks by target index: RGBA when the pixel shader writes the location. */
    VkColorComponentFlags *write_masks;
};

/* ---- vk_draw_check.c ------------------------------------------------------------------------- */

/** Every argument check that needs no Vulkan object: stages, sizes, streams, targets, features. */
enum sb_result sb_vk_draw_check(struct sb_vk_draw *dr, struct sb_error *error);

/* ---- vk_draw_bind.c -------------------------------------------------------------------------- */

/** Builds dr->merged from the stages' bindings (SB_ERROR_RUN_BINDING on conflicts). */
enum sb_result sb_vk_draw_merge_bindings(struct sb_vk_draw *dr, struct sb_error *error);
/** Descriptor-set layouts (stageFlags = every given stage) and the pipeline layout into dr->run. */
enum sb_result sb_vk_draw_layouts(struct sb_vk_draw *dr, struct sb_error *error);

/* ---- vk_draw_pipeline.c ---------------------------------------------------------------------- */

/** Shader modules of the given stages and the graphics pipeline (after the layouts and the render pass). */
enum sb_result sb_vk_draw_pipeline(struct sb_vk_draw *dr, VkPipeline *out, struct sb_error *error);

/* ---- vk_graphics.c: what sb_rt_draw_points and sb_rt_vbc_draw share ---------------------------- */

/** The render pass (attachments in location order, then depth; load and store). */
enum sb_result sb_vk_draw_render_pass(struct sb_vk_draw *dr, struct sb_error *error);
/** The graphics pipeline of `stages` with `layout` (after the render pass): vertex streams, one
 *  viewport, the colour slots with dr->write_masks, depth when the draw has it. */
enum sb_result sb_vk_graphics_pipeline(struct sb_vk_draw *dr, const VkPipelineShaderStageCreateInfo *stages,
                                       uint32_t stage_count, VkPipelineLayout layout, VkPipeline *out,
                                       struct sb_error *error);

/** What the recorded draw binds: the pipeline, its descriptor sets and push constants. */
struct sb_vk_graphics_bind {
    VkPipeline pipeline;
    VkPipelineLayout layout;
    uint32_t set_count;                /* 0: none bound */
    const VkDescriptorSet *sets;
    uint32_t dynamic_offset_count;
    const uint32_t *dynamic_offsets;
    uint32_t push_size;                /* bytes; 0: none pushed */
    const void *push;
    VkShaderStageFlags push_stages;
};

/**
 * Records and submits the draw: the barrier from the staged uploads, the render pass with the
 * draw, the barrier into the read-backs, record_readback(context, cmd) (the caller's resources),
 * the targets' read-back copies and the barrier to the host.
 */
enum sb_result sb_vk_graphics_run(struct sb_vk_draw *dr, const struct sb_vk_graphics_bind *b,
                                  void (*record_readback)(void *context, VkCommandBuffer cmd), void *context,
                                  struct sb_error *error);

/** The attachment index of colour target `i` (targets sorted by location; depth comes after them). */
static inline uint32_t sb_vk_draw_attachment(const struct sb_rt_draw *d, uint32_t i)
{
    uint32_t index = 0;
    for (uint32_t j = 0; j < d->target_count; j++)
        index += d->targets[j].location < d->targets[i].location;
    return index;
}

/** Whether the draw has a depth/stencil attachment, and its format (see sb_rt_draw::stencil). */
static inline bool sb_vk_draw_has_ds(const struct sb_rt_draw *d)
{
    return d->depth || d->stencil;
}
static inline VkFormat sb_vk_draw_ds_format(const struct sb_rt_draw *d)
{
    return !d->stencil ? VK_FORMAT_D32_SFLOAT : d->depth ? VK_FORMAT_D32_SFLOAT_S8_UINT : VK_FORMAT_S8_UINT;
}

/* ---- vk_draw_target.c ------------------------------------------------------------------------ */

/** Vertex buffers, the colour / depth images with their staged texels, and the framebuffer. */
enum sb_result sb_vk_draw_targets_create(struct sb_vk_draw *dr, struct sb_error *error);
/** Records staging -> attachment copies and the transitions to the attachment layouts. */
void sb_vk_draw_targets_record_upload(struct sb_vk_draw *dr, VkCommandBuffer cmd);
/** Records attachment -> staging copies after the render pass. */
void sb_vk_draw_targets_record_readback(struct sb_vk_draw *dr, VkCommandBuffer cmd);
/** Copies the staged texels into the caller's targets and depth. */
enum sb_result sb_vk_draw_targets_readback(struct sb_vk_draw *dr, struct sb_error *error);
void sb_vk_draw_targets_release(struct sb_vk_draw *dr);

/* ---- vk_draw_pointsize.c --------------------------------------------------------------------- */

/**
 * A copy of a vertex module that also writes PointSize = 1.0 at the start of its entry
 * point (malloc'd into *out / *out_count), or *out = NULL when the module already has a
 * PointSize output. SB_ERROR_INVALID_ARGUMENT when the words do not have the shape a
 * SPIR-V module with a Vertex entry point has.
 */
enum sb_result sb_vk_add_point_size(const uint32_t *words, size_t word_count, uint32_t **out,
                                    size_t *out_count, struct sb_error *error);

#endif
