/* SPDX-License-Identifier: MIT */
/*
 * Buffers of one dispatch: every buffer (cbuffers, raw / structured / typed
 * buffers, UAV counters, image staging) lives in host-visible memory and
 * stays mapped, so uploads and read-backs are plain copies. Coherent memory
 * is preferred; on a device without it the writes are flushed and the
 * results invalidated explicitly.
 */
#include <string.h>

#include "vk_private.h"

enum sb_result sb_vk_buffer_create(struct sb_rt_context *c, VkDeviceSize size, VkBufferUsageFlags usage,
                                   const void *data, size_t data_size, struct sb_vk_buffer *out,
                                   struct sb_error *error)
{
    memset(out, 0, sizeof(*out));
    VkBufferCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
        .size = size,
        .usage = usage,
        .sharingMode = VK_SHARING_MODE_EXCLUSIVE,
    };
    VkResult r = c->vk.vkCreateBuffer(c->device, &info, NULL, &out->buffer);
    if (r != VK_SUCCESS)
        return sb_vk_fail_call(error, "vkCreateBuffer", r);
    VkMemoryRequirements req;
    c->vk.vkGetBufferMemoryRequirements(c->device, out->buffer, &req);
    VkMemoryPropertyFlags host = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT;
    uint32_t type = sb_vk_memory_type(c, req.memoryTypeBits, host | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT,
                                      false);
    if (type == UINT32_MAX)
        type = sb_vk_memory_type(c, req.memoryTypeBits, host, false);
    if (type == UINT32_MAX)
        return sb_vk_fail(error, SB_ERROR_VULKAN, "no host-visible memory type for a buffer of %llu bytes",
                          (unsigned long long)size);
    out->coherent = (c->memory.memoryTypes[type].propertyFlags & VK_MEMORY_PROPERTY_HOST_COHERENT_BIT) != 0;
    enum sb_result res = sb_vk_memory_allocate(c, req.size, type, &out->memory, error);
    if (res != SB_SUCCESS)
        return res;
    r = c->vk.vkBindBufferMemory(c->device, out->buffer, out->memory, 0);
    if (r != VK_SUCCESS)
        return sb_vk_fail_call(error, "vkBindBufferMemory", r);
    r = c->vk.vkMapMemory(c->device, out->memory, 0, VK_WHOLE_SIZE, 0, &out->mapped);
    if (r != VK_SUCCESS)
        return sb_vk_fail_call(error, "vkMapMemory", r);
    out->size = size;
    /* Bytes the caller did not supply read as zero, like unwritten D3D memory. */
    memset(out->mapped, 0, (size_t)size);
    if (data && data_size)
        memcpy(out->mapped, data, data_size < size ? data_size : (size_t)size);
    return sb_vk_buffer_flush(c, out, error);
}

static enum sb_result sync_range(struct sb_rt_context *c, struct sb_vk_buffer *b, bool flush,
                                 struct sb_error *error)
{
    if (b->coherent || !b->memory)
        return SB_SUCCESS;
    VkMappedMemoryRange range = {
        .sType = VK_STRUCTURE_TYPE_MAPPED_MEMORY_RANGE,
        .memory = b->memory,
        .offset = 0,
        .size = VK_WHOLE_SIZE,
    };
    VkResult r = flush ? c->vk.vkFlushMappedMemoryRanges(c->device, 1, &range)
                       : c->vk.vkInvalidateMappedMemoryRanges(c->device, 1, &range);
    if (r != VK_SUCCESS)
        return sb_vk_fail_call(error, flush ? "vkFlushMappedMemoryRanges" : "vkInvalidateMappedMemoryRanges",
                               r);
    return SB_SUCCESS;
}

enum sb_result sb_vk_buffer_flush(struct sb_rt_context *c, struct sb_vk_buffer *b, struct sb_error *error)
{
    return sync_range(c, b, true, error);
}

enum sb_result sb_vk_buffer_invalidate(struct sb_rt_context *c, struct sb_vk_buffer *b,
                                       struct sb_error *error)
{
    return sync_range(c, b, false, error);
}

void sb_vk_buffer_destroy(struct sb_rt_context *c, struct sb_vk_buffer *b)
{
    if (b->view)
        c->vk.vkDestroyBufferView(c->device, b->view, NULL);
    if (b->buffer)
        c->vk.vkDestroyBuffer(c->device, b->buffer, NULL);
    if (b->memory)
        c->vk.vkFreeMemory(c->device, b->memory, NULL);
    memset(b, 0, sizeof(*b));
}
