/* SPDX-License-Identifier: MIT */
/*
 * The per-draw memory of sb_rt_draw_points that is not a shader resource:
 * one host-visible vertex buffer per stream, and the colour and depth
 * attachments. An attachment is an optimal-tiling image fed from a staging
 * buffer holding the caller's texels (rows top first, the layout runtime.h
 * gives), transitioned to its attachment layout for the render pass (which
 * loads it), then transitioned to TRANSFER_SRC and copied back into the same
 * staging buffer, from which the caller's array is refilled. Depth and stencil
 * share one attachment (a render pass has one); its staging buffer holds the
 * depth floats, then the stencil bytes, one buffer-image copy per aspect.
 * Multisampled colour targets (sb_rt_draw::samples) cannot be copied either
 * way: they start cleared to 0 and a compute pass reads every sample back
 * into the staging buffer (vk_ms_readback.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vk_draw_private.h"

static enum sb_result create_image(struct sb_rt_context *c, VkFormat format, VkImageAspectFlags aspect,
                                   VkImageUsageFlags usage, const struct sb_rt_draw *d, uint32_t samples,
                                   const void *data, size_t bytes, struct sb_vk_image *out, struct sb_error *error)
{
    memset(out, 0, sizeof(*out));
    out->mip_levels = 1;
    out->layers = 1;
    out->aspect = aspect;
    VkImageCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO,
        .imageType = VK_IMAGE_TYPE_2D,
        .format = format,
        .extent = { d->width, d->height, 1 },
        .mipLevels = 1,
        .arrayLayers = 1,
        .samples = (VkSampleCountFlagBits)samples,
        .tiling = VK_IMAGE_TILING_OPTIMAL,
        .usage = usage | VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT,
        .sharingMode = VK_SHARING_MODE_EXCLUSIVE,
        .initialLayout = VK_IMAGE_LAYOUT_UNDEFINED,
    };
    char what[48];
    snprintf(what, sizeof(what), "a %ux%u attachment", d->width, d->height);
    enum sb_result res = sb_vk_image_memory(c, &info, what, out, error);
    if (res != SB_SUCCESS)
        return res;
    VkImageViewCreateInfo view = {
        .sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO,
        .image = out->image,
        .viewType = VK_IMAGE_VIEW_TYPE_2D,
        .format = format,
        .subresourceRange = { aspect, 0, 1, 0, 1 },
    };
    VkResult vr = c->vk.vkCreateImageView(c->device, &view, NULL, &out->view);
    if (vr != VK_SUCCESS)
        return sb_vk_fail_call(error, "vkCreateImageView", vr);
    /* A multisampled target's staging buffer is written by its read-back pass, never loaded from. */
    return sb_vk_buffer_create(c, bytes, VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT |
                               (samples > 1 ? VK_BUFFER_USAGE_STORAGE_BUFFER_BIT : 0),
                               samples > 1 ? NULL : data, data && samples == 1 ? bytes : 0, &out->staging, error);
}

/* The draw's samples per pixel (1 when 0). */
static uint32_t draw_samples(const struct sb_rt_draw *d)
{
    return d->samples > 1 ? d->samples : 1;
}

static enum sb_result create_vertex_buffers(struct sb_vk_draw *dr, struct sb_error *error)
{
    const struct sb_rt_draw *d = dr->d;
    for (uint32_t i = 0; i < d->stream_count; i++) {
        size_t element = sb_rt_format_size((enum sb_rt_format)d->streams[i].format);
        size_t bytes = (size_t)d->vertex_count * element;
        enum sb_result res = sb_vk_buffer_create(dr->c, bytes ? bytes : element, VK_BUFFER_USAGE_VERTEX_BUFFER_BIT,
                                                 d->streams[i].data, bytes, &dr->vertex_buffers[i], error);
        if (res != SB_SUCCESS)
            return res;
    }
    return SB_SUCCESS;
}

static enum sb_result create_framebuffer(struct sb_vk_draw *dr, struct sb_error *error)
{
    const struct sb_rt_draw *d = dr->d;
    VkImageView views[SB_VK_MAX_TARGETS + 1];
    for (uint32_t i = 0; i < d->target_count; i++)
        views[sb_vk_draw_attachment(d, i)] = dr->targets[i].view;
    if (sb_vk_draw_has_ds(d))
        views[d->target_count] = dr->depth.view;
    VkFramebufferCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO,
        .renderPass = dr->render_pass,
        .attachmentCount = d->target_count + (sb_vk_draw_has_ds(d) ? 1 : 0),
        .pAttachments = views,
        .width = d->width,
        .height = d->height,
        .layers = 1,
    };
    VkResult vr = dr->c->vk.vkCreateFramebuffer(dr->c->device, &info, NULL, &dr->framebuffer);
    return vr == VK_SUCCESS ? SB_SUCCESS : sb_vk_fail_call(error, "vkCreateFramebuffer", vr);
}

enum sb_result sb_vk_draw_targets_create(struct sb_vk_draw *dr, struct sb_error *error)
{
    const struct sb_rt_draw *d = dr->d;
    enum sb_result res = create_vertex_buffers(dr, error);
    size_t texels = (size_t)d->width * d->height;
    uint32_t samples = draw_samples(d);
    for (uint32_t i = 0; i < d->target_count && res == SB_SUCCESS; i++) {
        const struct sb_rt_color_target *t = &d->targets[i];
        res = create_image(dr->c, sb_vk_format(t->format), VK_IMAGE_ASPECT_COLOR_BIT,
                           VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | (samples > 1 ? VK_IMAGE_USAGE_SAMPLED_BIT : 0), d,
                           samples, t->data, texels * samples * sb_rt_format_size((enum sb_rt_format)t->format),
                           &dr->targets[i], error);
        dr->targets[i].layout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
        uint32_t type = t->format == SB_RT_FORMAT_R32G32B32A32_UINT ? SB_IR_TYPE_UINT
                        : t->format == SB_RT_FORMAT_R32G32B32A32_SINT ? SB_IR_TYPE_INT : SB_IR_TYPE_FLOAT;
        if (res == SB_SUCCESS && samples > 1)
            res = sb_vk_ms_readback_create(dr->c, &dr->targets[i], d->width, d->height, samples, type, error);
    }
    if (res == SB_SUCCESS && sb_vk_draw_has_ds(d)) {
        size_t depth_bytes = d->depth ? texels * sizeof(float) : 0, bytes = depth_bytes + (d->stencil ? texels : 0);
        uint8_t *staged = malloc(bytes);
        if (!staged)
            return sb_vk_fail(error, SB_ERROR_OUT_OF_MEMORY, "sb_rt_draw_points: out of memory");
        if (d->depth)
            memcpy(staged, d->depth, depth_bytes);
        if (d->stencil)
            memcpy(staged + depth_bytes, d->stencil, texels);
        VkImageAspectFlags aspect = (d->depth ? VK_IMAGE_ASPECT_DEPTH_BIT : 0) |
                                    (d->stencil ? VK_IMAGE_ASPECT_STENCIL_BIT : 0);
        res = create_image(dr->c, sb_vk_draw_ds_format(d), aspect, VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT, d, 1,
                           staged, bytes, &dr->depth, error);
        free(staged);
        dr->depth.layout = VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL;
    }
    if (res == SB_SUCCESS)
        res = create_framebuffer(dr, error);
    return res;
}

/* How an attachment is used: aspect, the stages and accesses of the render pass on it. */
struct usage {
    VkImageAspectFlags aspect;
    VkPipelineStageFlags stages;
    VkAccessFlags access;
};

static const struct usage color_usage = {
    VK_IMAGE_ASPECT_COLOR_BIT, VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT,
    VK_ACCESS_COLOR_ATTACHMENT_READ_BIT | VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT
};
static const struct usage depth_usage = {
    0, /* the image's own aspects */ VK_PIPELINE_STAGE_EARLY_FRAGMENT_TESTS_BIT | VK_PIPELINE_STAGE_LATE_FRAGMENT_TESTS_BIT,
    VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_READ_BIT | VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT
};

/* The copies of an attachment with `aspect`: one per aspect, each aspect's texels packed in turn
 * (a copy names exactly one aspect of a depth/stencil image). Returns the count. */
static uint32_t regions(const struct sb_rt_draw *d, VkImageAspectFlags aspect, VkBufferImageCopy r[2])
{
    uint32_t n = 0;
    VkDeviceSize offset = 0;
    const VkImageAspectFlags order[3] = { VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_ASPECT_DEPTH_BIT,
                                          VK_IMAGE_ASPECT_STENCIL_BIT };
    for (uint32_t k = 0; k < 3; k++)
        if (aspect & order[k]) {
            r[n++] = (VkBufferImageCopy){
                .bufferOffset = offset,
                .imageSubresource = { order[k], 0, 0, 1 },
                .imageExtent = { d->width, d->height, 1 },
            };
            /* Only depth is ever followed by another aspect. */
            offset += (VkDeviceSize)d->width * d->height * sizeof(float);
        }
    return n;
}

static void record_upload(struct sb_vk_draw *dr, VkCommandBuffer cmd, const struct sb_vk_image *img,
                          const struct usage *u)
{
    struct sb_rt_context *c = dr->c;
    VkBufferImageCopy r[2];
    uint32_t n = regions(dr->d, u->aspect ? u->aspect : img->aspect, r);
    sb_vk_image_barrier(c, cmd, img, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 0,
                        VK_ACCESS_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT,
                        VK_PIPELINE_STAGE_TRANSFER_BIT);
    if (img->ms_readback) { /* no copy into a multisampled image: it starts cleared to 0 */
        const VkClearColorValue zero = { .uint32 = { 0, 0, 0, 0 } };
        const VkImageSubresourceRange all = { VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1 };
        c->vk.vkCmdClearColorImage(cmd, img->image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &zero, 1, &all);
    } else {
        c->vk.vkCmdCopyBufferToImage(cmd, img->staging.buffer, img->image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, n,
                                     r);
    }
    sb_vk_image_barrier(c, cmd, img, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, img->layout, VK_ACCESS_TRANSFER_WRITE_BIT,
                        u->access, VK_PIPELINE_STAGE_TRANSFER_BIT, u->stages);
}

static void record_readback(struct sb_vk_draw *dr, VkCommandBuffer cmd, const struct sb_vk_image *img,
                            const struct usage *u)
{
    struct sb_rt_context *c = dr->c;
    if (img->ms_readback) {
        sb_vk_ms_readback_record(c, cmd, img);
        return;
    }
    VkBufferImageCopy r[2];
    uint32_t n = regions(dr->d, u->aspect ? u->aspect : img->aspect, r);
    sb_vk_image_barrier(c, cmd, img, img->layout, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, u->access,
                        VK_ACCESS_TRANSFER_READ_BIT, u->stages, VK_PIPELINE_STAGE_TRANSFER_BIT);
    c->vk.vkCmdCopyImageToBuffer(cmd, img->image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, img->staging.buffer, n, r);
}

void sb_vk_draw_targets_record_upload(struct sb_vk_draw *dr, VkCommandBuffer cmd)
{
    for (uint32_t i = 0; i < dr->d->target_count; i++)
        record_upload(dr, cmd, &dr->targets[i], &color_usage);
    if (sb_vk_draw_has_ds(dr->d))
        record_upload(dr, cmd, &dr->depth, &depth_usage);
}

void sb_vk_draw_targets_record_readback(struct sb_vk_draw *dr, VkCommandBuffer cmd)
{
    for (uint32_t i = 0; i < dr->d->target_count; i++)
        record_readback(dr, cmd, &dr->targets[i], &color_usage);
    if (sb_vk_draw_has_ds(dr->d))
        record_readback(dr, cmd, &dr->depth, &depth_usage);
}

/* Copies `bytes` (all of the staging buffer when 0) from `offset` into `data`. */
static enum sb_result copy_back(struct sb_rt_context *c, struct sb_vk_image *img, void *data, size_t offset,
                                size_t bytes, struct sb_error *error)
{
    enum sb_result res = sb_vk_buffer_invalidate(c, &img->staging, error);
    if (res == SB_SUCCESS && data)
        memcpy(data, (const uint8_t *)img->staging.mapped + offset, bytes ? bytes : (size_t)img->staging.size);
    return res;
}

enum sb_result sb_vk_draw_targets_readback(struct sb_vk_draw *dr, struct sb_error *error)
{
    enum sb_result res = SB_SUCCESS;
    for (uint32_t i = 0; i < dr->d->target_count && res == SB_SUCCESS; i++)
        res = copy_back(dr->c, &dr->targets[i], dr->d->targets[i].data, 0, 0, error);
    size_t texels = (size_t)dr->d->width * dr->d->height, depth_bytes = dr->d->depth ? texels * sizeof(float) : 0;
    if (res == SB_SUCCESS && dr->d->depth)
        res = copy_back(dr->c, &dr->depth, dr->d->depth, 0, depth_bytes, error);
    if (res == SB_SUCCESS && dr->d->stencil)
        res = copy_back(dr->c, &dr->depth, dr->d->stencil, depth_bytes, texels, error);
    return res;
}

void sb_vk_draw_targets_release(struct sb_vk_draw *dr)
{
    struct sb_rt_context *c = dr->c;
    if (dr->framebuffer)
        c->vk.vkDestroyFramebuffer(c->device, dr->framebuffer, NULL);
    dr->framebuffer = VK_NULL_HANDLE;
    for (uint32_t i = 0; dr->targets && i < dr->d->target_count; i++)
        sb_vk_image_destroy(c, &dr->targets[i]);
    sb_vk_image_destroy(c, &dr->depth);
    for (uint32_t i = 0; dr->vertex_buffers && i < dr->d->stream_count; i++)
        sb_vk_buffer_destroy(c, &dr->vertex_buffers[i]);
}
