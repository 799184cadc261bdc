/* SPDX-License-Identifier: MIT */
/*
 * One-shot command buffers of the runtime: begin, then end + submit + wait on
 * a fence. The wait has a limit (SB_VK_FENCE_TIMEOUT_NS) so a shader that
 * never ends cannot hang the caller; after a timeout the work may still be
 * running, so the context is marked lost and nothing it used is destroyed.
 */
#include "vk_private.h"

enum sb_result sb_vk_command_begin(struct sb_rt_context *c, VkCommandBuffer *out, struct sb_error *error)
{
    *out = VK_NULL_HANDLE;
    VkCommandBufferAllocateInfo alloc = {
        .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
        .commandPool = c->command_pool,
        .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
        .commandBufferCount = 1,
    };
    VkResult r = c->vk.vkAllocateCommandBuffers(c->device, &alloc, out);
    if (r != VK_SUCCESS) {
        *out = VK_NULL_HANDLE;
        return sb_vk_fail_call(error, "vkAllocateCommandBuffers", r);
    }
    VkCommandBufferBeginInfo begin = {
        .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
        .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT,
    };
    r = c->vk.vkBeginCommandBuffer(*out, &begin);
    if (r != VK_SUCCESS) {
        c->vk.vkFreeCommandBuffers(c->device, c->command_pool, 1, out);
        *out = VK_NULL_HANDLE;
        return sb_vk_fail_call(error, "vkBeginCommandBuffer", r);
    }
    return SB_SUCCESS;
}

enum sb_result sb_vk_command_submit(struct sb_rt_context *c, VkCommandBuffer cmd, struct sb_error *error)
{
    VkFence fence = VK_NULL_HANDLE;
    VkResult r = c->vk.vkEndCommandBuffer(cmd);
    const char *call = "vkEndCommandBuffer";
    if (r == VK_SUCCESS) {
        VkFenceCreateInfo info = { .sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO };
        call = "vkCreateFence";
        r = c->vk.vkCreateFence(c->device, &info, NULL, &fence);
    }
    if (r == VK_SUCCESS) {
        VkSubmitInfo submit = {
            .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
            .commandBufferCount = 1,
            .pCommandBuffers = &cmd,
        };
        call = "vkQueueSubmit";
        r = c->vk.vkQueueSubmit(c->queue, 1, &submit, fence);
        if (r == VK_SUCCESS) {
            call = "vkWaitForFences";
            r = c->vk.vkWaitForFences(c->device, 1, &fence, VK_TRUE, SB_VK_FENCE_TIMEOUT_NS);
        }
    }
    if (r == VK_TIMEOUT || r == VK_ERROR_DEVICE_LOST) {
        c->lost = true;
        return sb_vk_fail(error, SB_ERROR_VULKAN, "%s failed: %s (the dispatch did not finish; the "
                          "context can run nothing more)", call, sb_vk_result_name(r));
    }
    if (fence)
        c->vk.vkDestroyFence(c->device, fence, NULL);
    c->vk.vkFreeCommandBuffers(c->device, c->command_pool, 1, &cmd);
    return r == VK_SUCCESS ? SB_SUCCESS : sb_vk_fail_call(error, call, r);
}
