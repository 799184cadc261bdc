/* SPDX-License-Identifier: MIT */
/*
 * Small helpers of the Vulkan runtime: structured errors that name the failing
 * call and its VkResult (runtime.h promises both in the message), the
 * monotonic clock behind sb_rt_timing, memory-type selection, and the image memory and
 * layout barrier every image kind (sampled, multisampled, render target) shares.
 */
#define _POSIX_C_SOURCE 200809L

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "vk_private.h"
#include "error.h"

/* One row per VkResult a runtime call can return. */
static const struct {
    VkResult value;
    const char *name;
} result_names[] = {
    { VK_SUCCESS, "VK_SUCCESS" },
    { VK_NOT_READY, "VK_NOT_READY" },
    { VK_TIMEOUT, "VK_TIMEOUT" },
    { VK_INCOMPLETE, "VK_INCOMPLETE" },
    { VK_ERROR_OUT_OF_HOST_MEMORY, "VK_ERROR_OUT_OF_HOST_MEMORY" },
    { VK_ERROR_OUT_OF_DEVICE_MEMORY, "VK_ERROR_OUT_OF_DEVICE_MEMORY" },
    { VK_ERROR_INITIALIZATION_FAILED, "VK_ERROR_INITIALIZATION_FAILED" },
    { VK_ERROR_DEVICE_LOST, "VK_ERROR_DEVICE_LOST" },
    { VK_ERROR_MEMORY_MAP_FAILED, "VK_ERROR_MEMORY_MAP_FAILED" },
    { VK_ERROR_LAYER_NOT_PRESENT, "VK_ERROR_LAYER_NOT_PRESENT" },
    { VK_ERROR_EXTENSION_NOT_PRESENT, "VK_ERROR_EXTENSION_NOT_PRESENT" },
    { VK_ERROR_FEATURE_NOT_PRESENT, "VK_ERROR_FEATURE_NOT_PRESENT" },
    { VK_ERROR_INCOMPATIBLE_DRIVER, "VK_ERROR_INCOMPATIBLE_DRIVER" },
    { VK_ERROR_TOO_MANY_OBJECTS, "VK_ERROR_TOO_MANY_OBJECTS" },
    { VK_ERROR_FORMAT_NOT_SUPPORTED, "VK_ERROR_FORMAT_NOT_SUPPORTED" },
    { VK_ERROR_FRAGMENTED_POOL, "VK_ERROR_FRAGMENTED_POOL" },
    { VK_ERROR_OUT_OF_POOL_MEMORY, "VK_ERROR_OUT_OF_POOL_MEMORY" },
    { VK_ERROR_INVALID_EXTERNAL_HANDLE, "VK_ERROR_INVALID_EXTERNAL_HANDLE" },
    { VK_ERROR_FRAGMENTATION, "VK_ERROR_FRAGMENTATION" },
    { VK_ERROR_INVALID_SHADER_NV, "VK_ERROR_INVALID_SHADER_NV" },
    { VK_ERROR_UNKNOWN, "VK_ERROR_UNKNOWN" },
};

const char *sb_vk_result_name(VkResult result)
{
    for (size_t i = 0; i < sizeof(result_names) / sizeof(result_names[0]); i++)
        if (result_names[i].value == result)
            return result_names[i].name;
    return "VK_ERROR_UNKNOWN";
}

enum sb_result sb_vk_fail(struct sb_error *error, enum sb_result code, const char *format, ...)
{
    va_list args;
    va_start(args, format);
    sb_error_setv(error, code, 0, SB_ERROR_NO_INSTR, format, args);
    va_end(args);
    return code;
}

enum sb_result sb_vk_fail_call(struct sb_error *error, const char *call, VkResult result)
{
    return sb_vk_fail(error, SB_ERROR_VULKAN, "%s failed: %s (%d)", call, sb_vk_result_name(result),
                      (int)result);
}

uint64_t sb_vk_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

uint32_t sb_vk_memory_type(const struct sb_rt_context *c, uint32_t bits, VkMemoryPropertyFlags want,
                           bool fallback)
{
    for (uint32_t i = 0; i < c->memory.memoryTypeCount; i++)
        if ((bits >> i & 1u) && (c->memory.memoryTypes[i].propertyFlags & want) == want)
            return i;
    if (fallback)
        for (uint32_t i = 0; i < c->memory.memoryTypeCount; i++)
            if (bits >> i & 1u)
                return i;
    return UINT32_MAX;
}

enum sb_result sb_vk_memory_allocate(struct sb_rt_context *c, VkDeviceSize size, uint32_t type,
                                     VkDeviceMemory *out, struct sb_error *error)
{
    VkMemoryAllocateInfo alloc = {
        .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
        .allocationSize = size,
        .memoryTypeIndex = type,
    };
    VkResult vr = c->vk.vkAllocateMemory(c->device, &alloc, NULL, out);
    return vr == VK_SUCCESS ? SB_SUCCESS : sb_vk_fail_call(error, "vkAllocateMemory", vr);
}

bool sb_vk_has_instance_layer(const char *name)
{
    uint32_t count = 0;
    if (vkEnumerateInstanceLayerProperties(&count, NULL) != VK_SUCCESS || count == 0)
        return false;
    VkLayerProperties *layers = calloc(count, sizeof(*layers));
    bool found = false;
    if (layers && vkEnumerateInstanceLayerProperties(&count, layers) >= 0)
        for (uint32_t i = 0; i < count && !found; i++)
            found = strcmp(layers[i].layerName, name) == 0;
    free(layers);
    return found;
}

bool sb_vk_has_device_extension(VkPhysicalDevice physical, const char *name)
{
    uint32_t count = 0;
    if (vkEnumerateDeviceExtensionProperties(physical, NULL, &count, NULL) != VK_SUCCESS || !count)
        return false;
    VkExtensionProperties *ext = calloc(count, sizeof(*ext));
    bool found = false;
    if (ext && vkEnumerateDeviceExtensionProperties(physical, NULL, &count, ext) >= 0)
        for (uint32_t i = 0; i < count && !found; i++)
            found = strcmp(ext[i].extensionName, name) == 0;
    free(ext);
    return found;
}

enum sb_result sb_vk_image_memory(struct sb_rt_context *c, const VkImageCreateInfo *info, const char *what,
                                  struct sb_vk_image *out, struct sb_error *error)
{
    VkResult vr = c->vk.vkCreateImage(c->device, info, NULL, &out->image);
    if (vr != VK_SUCCESS)
        return sb_vk_fail_call(error, "vkCreateImage", vr);
    VkMemoryRequirements req;
    c->vk.vkGetImageMemoryRequirements(c->device, out->image, &req);
    uint32_t type = sb_vk_memory_type(c, req.memoryTypeBits, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, true);
    if (type == UINT32_MAX)
        return sb_vk_fail(error, SB_ERROR_VULKAN, "no memory type for %s", what);
    enum sb_result res = sb_vk_memory_allocate(c, req.size, type, &out->memory, error);
    if (res != SB_SUCCESS)
        return res;
    vr = c->vk.vkBindImageMemory(c->device, out->image, out->memory, 0);
    return vr == VK_SUCCESS ? SB_SUCCESS : sb_vk_fail_call(error, "vkBindImageMemory", vr);
}

void sb_vk_image_barrier(struct sb_rt_context *c, VkCommandBuffer cmd, const struct sb_vk_image *img,
                         VkImageLayout from, VkImageLayout to, VkAccessFlags src, VkAccessFlags dst,
                         VkPipelineStageFlags src_stage, VkPipelineStageFlags dst_stage)
{
    VkImageMemoryBarrier b = {
        .sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER,
        .srcAccessMask = src,
        .dstAccessMask = dst,
        .oldLayout = from,
        .newLayout = to,
        .srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
        .dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
        .image = img->image,
        .subresourceRange = { img->layout_aspect ? img->layout_aspect : img->aspect, 0, img->mip_levels, 0,
                              img->layers },
    };
    c->vk.vkCmdPipelineBarrier(cmd, src_stage, dst_stage, 0, 0, NULL, 0, NULL, 1, &b);
}
