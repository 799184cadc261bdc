/* SPDX-License-Identifier: MIT */
/*
 * sb_rt_vbc_draw (runtime.h): a VBC file's vertex and fragment stages drawn
 * natively, with the layout the Vega engine builds for it (../shared/docs/vbc.md §6,
 * §7; vk_vbc_layout.c says how it is adapted to the device). The phases
 * follow sb_rt_timing as sb_rt_draw_points does: the pipeline (checks,
 * layouts, render pass, modules, graphics pipeline), the upload (table
 * objects, uniform, vertex buffers, attachments, descriptor writes, one staged
 * submission for every image), the run (one submission: render pass, push
 * constants, draw, read-back copies, waited on with a fence) and the
 * read-back into the caller's targets and writable resources. Every object
 * is destroyed on every path, except after a timed-out wait (vk_submit.c).
 */
#include <stdlib.h>
#include <string.h>

#include "vk_vbc_private.h"

#define NAME "sb_rt_vbc_draw"

static enum sb_result build_pipeline(struct sb_vk_vbc *v, struct sb_error *error)
{
    enum sb_result res = sb_vk_vbc_check(v, error);
    if (res == SB_SUCCESS)
        res = sb_vk_vbc_layouts(v, error);
    if (res == SB_SUCCESS)
        res = sb_vk_draw_render_pass(&v->draw, error);
    if (res == SB_SUCCESS)
        res = sb_vk_vbc_pipeline(v, error);
    return res;
}

static enum sb_result upload(struct sb_vk_vbc *v, struct sb_error *error)
{
    enum sb_result res = sb_vk_vbc_resources_create(v, error);
    if (res == SB_SUCCESS)
        res = sb_vk_vbc_sets(v, error);
    if (res == SB_SUCCESS)
        res = sb_vk_vbc_resources_write(v, error);
    if (res == SB_SUCCESS)
        res = sb_vk_draw_targets_create(&v->draw, error);
    if (res != SB_SUCCESS)
        return res;
    VkCommandBuffer cmd;
    res = sb_vk_command_begin(v->c, &cmd, error);
    if (res != SB_SUCCESS)
        return res;
    sb_vk_vbc_resources_record_upload(v, cmd);
    sb_vk_draw_targets_record_upload(&v->draw, cmd);
    return sb_vk_command_submit(v->c, cmd, error);
}

static void record_readback(void *context, VkCommandBuffer cmd)
{
    sb_vk_vbc_resources_record_readback(context, cmd);
}

static enum sb_result run_draw(struct sb_vk_vbc *v, struct sb_error *error)
{
    static const uint32_t dynamic_offset = 0; /* the engine's per-draw uniform offset; one draw, one offset */
    struct sb_vk_graphics_bind bind = {
        .pipeline = v->pipeline,
        .layout = v->layout,
        .set_count = v->set_count,
        .sets = v->sets,
        .dynamic_offset_count = v->vbc->has_uniform ? 1 : 0,
        .dynamic_offsets = &dynamic_offset,
        .push_size = v->vbc->push_constant_size,
        .push = v->push,
        .push_stages = VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT,
    };
    return sb_vk_graphics_run(&v->draw, &bind, record_readback, v, error);
}

static void release(struct sb_vk_vbc *v)
{
    struct sb_rt_context *c = v->c;
    if (!c->lost) { /* after a timeout the device may still use them: leaked on purpose (vk_submit.c) */
        sb_vk_vbc_resources_release(v);
        sb_vk_draw_targets_release(&v->draw);
        if (v->pipeline)
            c->vk.vkDestroyPipeline(c->device, v->pipeline, NULL);
        for (int s = 0; s < 2; s++)
            if (v->modules[s])
                c->vk.vkDestroyShaderModule(c->device, v->modules[s], NULL);
        if (v->draw.render_pass)
            c->vk.vkDestroyRenderPass(c->device, v->draw.render_pass, NULL);
        if (v->pool)
            c->vk.vkDestroyDescriptorPool(c->device, v->pool, NULL);
        if (v->layout)
            c->vk.vkDestroyPipelineLayout(c->device, v->layout, NULL);
        for (int s = 0; s < 2; s++)
            if (v->set_layouts[s])
                c->vk.vkDestroyDescriptorSetLayout(c->device, v->set_layouts[s], NULL);
    }
    free(v->vertex_words);
}

enum sb_result sb_rt_vbc_draw(struct sb_rt_context *context, const struct sb_rt_vbc_draw *draw,
                              struct sb_rt_timing *timing, struct sb_error *error)
{
    struct sb_rt_timing local = { 0 };
    struct sb_rt_timing *tm = timing ? timing : &local;
    memset(tm, 0, sizeof(*tm));
    if (!context || !context->has_device || context->lost)
        return sb_vk_fail(error, SB_ERROR_NO_DEVICE, NAME ": the context has no Vulkan device%s",
                          context && context->lost ? " left (an earlier run did not finish)" : " (CPU-only mode)");
    if (!draw || !draw->vbc)
        return sb_vk_fail(error, SB_ERROR_INVALID_ARGUMENT, NAME ": draw or draw->vbc is NULL");
    struct sb_vk_vbc *v = calloc(1, sizeof(*v));
    if (!v)
        return sb_vk_fail(error, SB_ERROR_OUT_OF_MEMORY, NAME ": out of memory");
    v->c = context;
    v->d = draw;
    v->vbc = draw->vbc;
    /* The shared attachment / render-pass code reads the draw through a point-draw mirror. */
    v->mirror = (struct sb_rt_draw){
        .topology = draw->topology,
        .vertex_count = draw->vertex_count,
        .stream_count = draw->stream_count,
        .streams = draw->streams,
        .width = draw->width,
        .height = draw->height,
        .target_count = draw->target_count,
        .targets = draw->targets,
    };
    v->draw = (struct sb_vk_draw){ .c = context, .d = &v->mirror, .name = NAME,
                                   .front_face = VK_FRONT_FACE_COUNTER_CLOCKWISE, .rasterizer_discard = false,
                                   .vertex_buffers = v->vertex_buffers, .targets = v->targets,
                                   .write_masks = v->write_masks };
    for (uint32_t i = 0; i < SB_VK_MAX_TARGETS; i++) /* the fragment stage writes every channel it has */
        v->write_masks[i] = VK_COLOR_COMPONENT_R_BIT | VK_COLOR_COMPONENT_G_BIT | VK_COLOR_COMPONENT_B_BIT |
                            VK_COLOR_COMPONENT_A_BIT;
    uint64_t start = sb_vk_now_ns();
    enum sb_result res = build_pipeline(v, error);
    uint64_t mark = sb_vk_now_ns();
    tm->pipeline_ns = mark - start;
    if (res == SB_SUCCESS)
        res = upload(v, error);
    start = sb_vk_now_ns();
    tm->upload_ns = start - mark;
    if (res == SB_SUCCESS)
        res = run_draw(v, error);
    mark = sb_vk_now_ns();
    tm->run_ns = mark - start;
    if (res == SB_SUCCESS)
        res = sb_vk_vbc_resources_readback(v, error);
    if (res == SB_SUCCESS)
        res = sb_vk_draw_targets_readback(&v->draw, error);
    tm->readback_ns = sb_vk_now_ns() - mark;
    release(v);
    free(v);
    return res;
}
