/* SPDX-License-Identifier: MIT */
/*
 * sb_rt_draw_points (runtime.h): translated vertex, optional hull + domain,
 * optional geometry and optional pixel shaders drawing a point list (or
 * primitives for a geometry stage, patches for the tessellation stages), for GPU-vs-CPU validation of
 * the graphics stages (one vertex per point, so a pixel shows exactly one
 * vertex's values, uninterpolated). The phases follow sb_rt_timing as in
 * sb_rt_dispatch: the pipeline (merged bindings, layouts, render pass, the
 * vertex module with PointSize added, graphics pipeline), the upload (shader
 * resources through vk_bind.c, vertex buffers, attachments, and one staged
 * submission for every image), the run (one submission: render pass, draw,
 * UAV-image and attachment read-back copies, waited on with a fence) and the
 * read-back into the caller's resources, targets and depth. Every object is
 * destroyed on every path, except after a timed-out wait (vk_submit.c).
 */
#include <stdlib.h>
#include <string.h>

#include "vk_draw_private.h"

/* The pipeline phase: everything that depends on the shaders, none on the data. */
static enum sb_result build_pipeline(struct sb_vk_draw *dr, struct sb_rt_resource *resources, uint32_t count,
                                     struct sb_error *error)
{
    enum sb_result res = sb_vk_draw_merge_bindings(dr, error);
    if (res == SB_SUCCESS)
        res = sb_vk_bind_resolve(&dr->run, resources, count, error);
    /* A geometry or domain shader, when there is one, ends the pre-rasterisation stages: its
     * PointSize stays default. */
    if (res == SB_SUCCESS && !dr->stages[SB_VK_DRAW_GS] && !dr->stages[SB_VK_DRAW_DS])
        res = sb_vk_add_point_size(dr->stages[SB_VK_DRAW_VS]->words, dr->stages[SB_VK_DRAW_VS]->word_count,
                                   &dr->vertex_words, &dr->vertex_word_count, error);
    if (res == SB_SUCCESS)
        res = sb_vk_draw_layouts(dr, error);
    if (res == SB_SUCCESS)
        res = sb_vk_draw_render_pass(dr, error);
    if (res == SB_SUCCESS)
        res = sb_vk_draw_pipeline(dr, &dr->run.pipeline, error);
    return res;
}

/* Staging -> image copies of the shader's textures and of the attachments, in one submission. */
static enum sb_result upload_images(struct sb_vk_draw *dr, struct sb_error *error)
{
    if (!dr->run.has_images && !dr->d->target_count && !sb_vk_draw_has_ds(dr->d))
        return SB_SUCCESS;
    VkCommandBuffer cmd;
    enum sb_result res = sb_vk_command_begin(dr->c, &cmd, error);
    if (res != SB_SUCCESS)
        return res;
    for (uint32_t i = 0; i < dr->run.slot_count; i++)
        if (dr->run.slots[i].image.image)
            sb_vk_image_record_upload(dr->c, cmd, &dr->run.slots[i].image, dr->run.slots[i].resource);
    sb_vk_draw_targets_record_upload(dr, cmd);
    return sb_vk_command_submit(dr->c, cmd, error);
}

static enum sb_result upload(struct sb_vk_draw *dr, struct sb_error *error)
{
    const struct sb_rt_draw *d = dr->d;
    dr->vertex_buffers = calloc(d->stream_count ? d->stream_count : 1, sizeof(*dr->vertex_buffers));
    dr->targets = calloc(d->target_count ? d->target_count : 1, sizeof(*dr->targets));
    if (!dr->vertex_buffers || !dr->targets)
        return sb_vk_fail(error, SB_ERROR_OUT_OF_MEMORY, "sb_rt_draw_points: out of memory");
    enum sb_result res = sb_vk_bind_create(&dr->run, error);
    if (res == SB_SUCCESS)
        res = sb_vk_bind_write(&dr->run, error);
    if (res == SB_SUCCESS)
        res = sb_vk_draw_targets_create(dr, error);
    if (res == SB_SUCCESS)
        res = upload_images(dr, error);
    return res;
}

/* The UAV images the shaders wrote, copied to their staging buffers after the draw. */
static void record_readback(void *context, VkCommandBuffer cmd)
{
    struct sb_vk_draw *dr = context;
    for (uint32_t i = 0; i < dr->run.slot_count; i++)
        if (dr->run.slots[i].image.image && dr->run.slots[i].resource->resource_class == SB_IR_RESOURCE_UAV)
            sb_vk_image_record_readback(dr->c, cmd, &dr->run.slots[i].image, dr->run.slots[i].resource);
}

static enum sb_result run_draw(struct sb_vk_draw *dr, struct sb_error *error)
{
    struct sb_vk_graphics_bind bind = {
        .pipeline = dr->run.pipeline,
        .layout = dr->run.layout,
        .set_count = dr->run.set_count,
        .sets = dr->run.sets,
    };
    return sb_vk_graphics_run(dr, &bind, record_readback, dr, error);
}

static void release(struct sb_vk_draw *dr)
{
    struct sb_rt_context *c = dr->c;
    if (!c->lost) { /* after a timeout the device may still use them: leaked on purpose (vk_submit.c) */
        sb_vk_run_release(&dr->run);
        sb_vk_draw_targets_release(dr);
        for (int s = 0; s < SB_VK_DRAW_STAGES; s++)
            if (dr->modules[s])
                c->vk.vkDestroyShaderModule(c->device, dr->modules[s], NULL);
        if (dr->render_pass)
            c->vk.vkDestroyRenderPass(c->device, dr->render_pass, NULL);
    }
    free(dr->vertex_buffers);
    free(dr->targets);
    free(dr->write_masks);
    free(dr->bindings);
    free(dr->vertex_words);
}

enum sb_result sb_rt_draw_points(struct sb_rt_context *context, const struct sb_rt_draw *draw,
                                 struct sb_rt_resource *resources, uint32_t resource_count,
                                 struct sb_rt_timing *timing, struct sb_error *error)
{
    struct sb_rt_timing local = { 0 };
    struct sb_rt_timing *tm = timing ? timing : &local;
    memset(tm, 0, sizeof(*tm));
    if (!context || !context->has_device || context->lost)
        return sb_vk_fail(error, SB_ERROR_NO_DEVICE, "sb_rt_draw_points: the context has no Vulkan device%s",
                          context && context->lost ? " left (an earlier run did not finish)" : " (CPU-only mode)");
    if (!draw || (resource_count && !resources))
        return sb_vk_fail(error, SB_ERROR_INVALID_ARGUMENT, "sb_rt_draw_points: draw or resources is NULL");
    struct sb_vk_draw dr = {
        .c = context,
        .d = draw,
        .stages = { draw->vertex, draw->hull, draw->domain, draw->geometry, draw->pixel },
        .stage_flags = VK_SHADER_STAGE_VERTEX_BIT | (draw->geometry ? VK_SHADER_STAGE_GEOMETRY_BIT : 0) |
                       (draw->hull ? VK_SHADER_STAGE_TESSELLATION_CONTROL_BIT : 0) |
                       (draw->domain ? VK_SHADER_STAGE_TESSELLATION_EVALUATION_BIT : 0) |
                       (draw->pixel ? VK_SHADER_STAGE_FRAGMENT_BIT : 0),
        .name = "sb_rt_draw_points",
        .front_face = VK_FRONT_FACE_CLOCKWISE,
        .rasterizer_discard = !draw->pixel,
    };
    dr.run = (struct sb_vk_run){ .c = context, .t = &dr.merged };
    uint64_t start = sb_vk_now_ns();
    enum sb_result res = sb_vk_draw_check(&dr, error);
    if (res == SB_SUCCESS)
        res = build_pipeline(&dr, resources, resource_count, error);
    uint64_t mark = sb_vk_now_ns();
    tm->pipeline_ns = mark - start;
    if (res == SB_SUCCESS)
        res = upload(&dr, error);
    start = sb_vk_now_ns();
    tm->upload_ns = start - mark;
    if (res == SB_SUCCESS)
        res = run_draw(&dr, error);
    mark = sb_vk_now_ns();
    tm->run_ns = mark - start;
    if (res == SB_SUCCESS)
        res = sb_vk_bind_readback(&dr.run, error);
    if (res == SB_SUCCESS)
        res = sb_vk_draw_targets_readback(&dr, error);
    tm->readback_ns = sb_vk_now_ns() - mark;
    release(&dr);
    return res;
}
