/* SPDX-License-Identifier: MIT */
/*
 * One draw into fresh colour attachments and their read-back (vk_harness.h,
 * vkh_draw): what the graphics known-answer test needs to compare a
 * translated VS + PS pair's pixels with values computed from D3D's rules.
 * Attachments are 16-byte formats (RGBA32 float / uint / sint) so a texel
 * reads back as four 32-bit words without conversion.
 */
#include <string.h>

#include "vk_harness.h"

#define MAX_TARGETS 8

struct target {
    VkImage image;
    VkDeviceMemory memory;
    VkImageView view;
};

static VkResult target_create(struct vkh *h, VkFormat format, uint32_t width, uint32_t height,
                              struct target *t)
{
    VkImageCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO,
        .imageType = VK_IMAGE_TYPE_2D,
        .format = format,
        .extent = { width, height, 1 },
        .mipLevels = 1,
        .arrayLayers = 1,
        .samples = VK_SAMPLE_COUNT_1_BIT,
        .tiling = VK_IMAGE_TILING_OPTIMAL,
        .usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT,
        .initialLayout = VK_IMAGE_LAYOUT_UNDEFINED,
    };
    VkResult r = vkCreateImage(h->device, &info, NULL, &t->image);
    VkMemoryRequirements req;
    if (r == VK_SUCCESS) {
        vkGetImageMemoryRequirements(h->device, t->image, &req);
        r = vkh_allocate(h, req, 0, &t->memory);
    }
    if (r == VK_SUCCESS)
        r = vkBindImageMemory(h->device, t->image, t->memory, 0);
    if (r == VK_SUCCESS) {
        VkImageViewCreateInfo view = {
            .sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO,
            .image = t->image,
            .viewType = VK_IMAGE_VIEW_TYPE_2D,
            .format = format,
            .subresourceRange = { VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1 },
        };
        r = vkCreateImageView(h->device, &view, NULL, &t->view);
    }
    return r;
}

static void target_destroy(struct vkh *h, struct target *t)
{
    if (t->view)
        vkDestroyImageView(h->device, t->view, NULL);
    if (t->image)
        vkDestroyImage(h->device, t->image, NULL);
    if (t->memory)
        vkFreeMemory(h->device, t->memory, NULL);
}

static void record(VkCommandBuffer cmd, const struct vkh_graphics_desc *d, VkPipeline pipeline,
                   VkRenderPass pass, VkFramebuffer fb, uint32_t width, uint32_t height,
                   const uint32_t clear[4], uint32_t vertex_count, const struct target *targets,
                   const struct vkh_buffer *out)
{
    VkClearValue clears[MAX_TARGETS];
    for (uint32_t i = 0; i < d->color_count; i++)
        memcpy(clears[i].color.uint32, clear, 16);
    VkRenderPassBeginInfo begin = {
        .sType = VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO,
        .renderPass = pass,
        .framebuffer = fb,
        .renderArea = { { 0, 0 }, { width, height } },
        .clearValueCount = d->color_count,
        .pClearValues = clears,
    };
    vkCmdBeginRenderPass(cmd, &begin, VK_SUBPASS_CONTENTS_INLINE);
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
    VkViewport viewport = { 0, 0, (float)width, (float)height, 0, 1 };
    VkRect2D scissor = { { 0, 0 }, { width, height } };
    vkCmdSetViewport(cmd, 0, 1, &viewport);
    vkCmdSetScissor(cmd, 0, 1, &scissor);
    vkCmdDraw(cmd, vertex_count, 1, 0, 0);
    vkCmdEndRenderPass(cmd);
    for (uint32_t i = 0; i < d->color_count; i++) {
        VkImageMemoryBarrier b = {
            .sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER,
            .srcAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT,
            .dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT,
            .oldLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
            .newLayout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
            .srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
            .dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
            .image = targets[i].image,
            .subresourceRange = { VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1 },
        };
        vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT,
                             VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, NULL, 0, NULL, 1, &b);
        VkBufferImageCopy copy = {
            .imageSubresource = { VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1 },
            .imageExtent = { width, height, 1 },
        };
        vkCmdCopyImageToBuffer(cmd, targets[i].image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                               out[i].buffer, 1, &copy);
    }
    VkMemoryBarrier host = {
        .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
        .srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT,
        .dstAccessMask = VK_ACCESS_HOST_READ_BIT,
    };
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1,
                         &host, 0, NULL, 0, NULL);
}

VkResult vkh_draw(struct vkh *h, const struct vkh_graphics_desc *d, VkPipeline pipeline,
                  VkRenderPass pass, uint32_t width, uint32_t height, const uint32_t clear[4],
                  uint32_t vertex_count, struct vkh_buffer *out)
{
    struct target targets[MAX_TARGETS];
    VkImageView views[MAX_TARGETS];
    memset(targets, 0, sizeof(targets));
    VkResult r = d->color_count <= MAX_TARGETS ? VK_SUCCESS : VK_ERROR_FEATURE_NOT_PRESENT;
    for (uint32_t i = 0; r == VK_SUCCESS && i < d->color_count; i++) {
        r = target_create(h, d->color_formats[i], width, height, &targets[i]);
        views[i] = targets[i].view;
        if (r == VK_SUCCESS)
            r = vkh_buffer_create(h, (VkDeviceSize)width * height * 16,
                                  VK_BUFFER_USAGE_TRANSFER_DST_BIT, NULL, &out[i]);
    }
    VkFramebuffer fb = VK_NULL_HANDLE;
    if (r == VK_SUCCESS) {
        VkFramebufferCreateInfo info = {
            .sType = VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO,
            .renderPass = pass,
            .attachmentCount = d->color_count,
            .pAttachments = views,
            .width = width,
            .height = height,
            .layers = 1,
        };
        r = vkCreateFramebuffer(h->device, &info, NULL, &fb);
    }
    VkCommandBuffer cmd;
    if (r == VK_SUCCESS)
        r = vkh_one_shot_begin(h, &cmd);
    if (r == VK_SUCCESS) {
        record(cmd, d, pipeline, pass, fb, width, height, clear, vertex_count, targets, out);
        r = vkh_one_shot_submit(h, cmd);
    }
    if (fb)
        vkDestroyFramebuffer(h->device, fb, NULL);
    for (uint32_t i = 0; i < d->color_count && i < MAX_TARGETS; i++)
        target_destroy(h, &targets[i]);
    return r;
}
