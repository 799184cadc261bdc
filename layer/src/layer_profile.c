/* SPDX-License-Identifier: MIT */
/*
 * The translator's device profile (sb_device_profile, translate.h) of a device the
 * layer translates for: the features the application *enabled* in vkCreateDevice, since
 * a module may only use those (the physical device may offer more). Read from
 * pEnabledFeatures or a chained VkPhysicalDeviceFeatures2, and from a chained
 * VkPhysicalDeviceVulkan12Features or VkPhysicalDeviceDescriptorIndexingFeatures; a
 * feature in none of them is off. The layer has no view bound when a module is created,
 * so it gives no typed-UAV formats: without shaderStorageImageReadWithoutFormat a shader
 * that loads from a typed UAV fails vkCreateShaderModule with the translator's message
 * naming the register (translator/README.md "Device fallbacks"). The per-stage descriptor
 * limits (storage buffers, storage and sampled images) are the physical device's own
 * (sb_layer_device_limits): nothing enables a limit.
 * Extensions count when enabled: fragment shader interlock where VK_EXT_fragment_shader_interlock
 * is enabled and a chained VkPhysicalDeviceFragmentShaderInterlockFeaturesEXT enables
 * fragmentShaderPixelInterlock; FullyCoveredEXT where VK_EXT_conservative_rasterization is
 * enabled (the layer reads no device properties: an application enabling the extension is
 * trusted to have seen fullyCoveredFragmentShaderInputVariable, as for any module it makes).
 */
#include <string.h>

#include "layer_private.h"

/* pNext chains are the application's; a cycle must not hang the layer. */
#define MAX_CHAIN 64

static bool extension_enabled(const VkDeviceCreateInfo *info, const char *name)
{
    for (uint32_t i = 0; info->ppEnabledExtensionNames && i < info->enabledExtensionCount; i++)
        if (info->ppEnabledExtensionNames[i] && !strcmp(info->ppEnabledExtensionNames[i], name))
            return true;
    return false;
}

void sb_layer_device_profile(const VkDeviceCreateInfo *info, struct sb_device_profile *out)
{
    *out = (struct sb_device_profile){ .described = true };
    bool interlock = false;
    VkBool32 shading_rate = VK_FALSE, barycentric = VK_FALSE;
    const VkPhysicalDeviceFeatures *core = info->pEnabledFeatures;
    const VkBaseInStructure *s = info->pNext;
    for (int i = 0; s && i < MAX_CHAIN; s = s->pNext, i++) {
        if (s->sType == VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2) {
            core = &((const VkPhysicalDeviceFeatures2 *)s)->features;
        } else if (s->sType == VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES) {
            const VkPhysicalDeviceVulkan12Features *f = (const void *)s;
            out->sampled_image_array_non_uniform_indexing |= f->shaderSampledImageArrayNonUniformIndexing;
            out->storage_image_array_non_uniform_indexing |= f->shaderStorageImageArrayNonUniformIndexing;
            out->uniform_texel_buffer_array_non_uniform_indexing |= f->shaderUniformTexelBufferArrayNonUniformIndexing;
            out->storage_texel_buffer_array_non_uniform_indexing |= f->shaderStorageTexelBufferArrayNonUniformIndexing;
            out->storage_buffer_array_non_uniform_indexing |= f->shaderStorageBufferArrayNonUniformIndexing;
        } else if (s->sType == VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DESCRIPTOR_INDEXING_FEATURES) {
            const VkPhysicalDeviceDescriptorIndexingFeatures *f = (const void *)s;
            out->sampled_image_array_non_uniform_indexing |= f->shaderSampledImageArrayNonUniformIndexing;
            out->storage_image_array_non_uniform_indexing |= f->shaderStorageImageArrayNonUniformIndexing;
            out->uniform_texel_buffer_array_non_uniform_indexing |= f->shaderUniformTexelBufferArrayNonUniformIndexing;
            out->storage_texel_buffer_array_non_uniform_indexing |= f->shaderStorageTexelBufferArrayNonUniformIndexing;
            out->storage_buffer_array_non_uniform_indexing |= f->shaderStorageBufferArrayNonUniformIndexing;
        } else if (s->sType == VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FRAGMENT_SHADER_INTERLOCK_FEATURES_EXT) {
            interlock = ((const VkPhysicalDeviceFragmentShaderInterlockFeaturesEXT *)s)->fragmentShaderPixelInterlock;
        } else if (s->sType == VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES) {
            out->multiview |= ((const VkPhysicalDeviceVulkan11Features *)s)->multiview == VK_TRUE;
        } else if (s->sType == VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MULTIVIEW_FEATURES) {
            out->multiview |= ((const VkPhysicalDeviceMultiviewFeatures *)s)->multiview == VK_TRUE;
        } else if (s->sType == VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FRAGMENT_SHADING_RATE_FEATURES_KHR) {
            shading_rate = ((const VkPhysicalDeviceFragmentShadingRateFeaturesKHR *)s)->primitiveFragmentShadingRate;
        } else if (s->sType == VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FRAGMENT_SHADER_BARYCENTRIC_FEATURES_KHR) {
            barycentric = ((const VkPhysicalDeviceFragmentShaderBarycentricFeaturesKHR *)s)->fragmentShaderBarycentric;
        }
    }
    out->fragment_shader_pixel_interlock =
        interlock && extension_enabled(info, VK_EXT_FRAGMENT_SHADER_INTERLOCK_EXTENSION_NAME);
    out->fragment_fully_covered = extension_enabled(info, VK_EXT_CONSERVATIVE_RASTERIZATION_EXTENSION_NAME);
    out->fragment_shading_rate =
        shading_rate && extension_enabled(info, VK_KHR_FRAGMENT_SHADING_RATE_EXTENSION_NAME);
    out->fragment_shader_barycentric =
        barycentric && extension_enabled(info, VK_KHR_FRAGMENT_SHADER_BARYCENTRIC_EXTENSION_NAME);
    if (core) {
        out->storage_image_read_without_format = core->shaderStorageImageReadWithoutFormat == VK_TRUE;
        out->shader_resource_min_lod = core->shaderResourceMinLod == VK_TRUE;
    }
}

void sb_layer_device_limits(const VkPhysicalDeviceLimits *limits, struct sb_device_profile *out)
{
    out->max_per_stage_storage_buffers = limits->maxPerStageDescriptorStorageBuffers;
    out->max_per_stage_storage_images = limits->maxPerStageDescriptorStorageImages;
    out->max_per_stage_sampled_images = limits->maxPerStageDescriptorSampledImages;
}

uint64_t sb_layer_device_profile_bits(const struct sb_device_profile *p)
{
    return (uint64_t)p->described | (uint64_t)p->storage_image_read_without_format << 1 |
           (uint64_t)p->sampled_image_array_non_uniform_indexing << 2 |
           (uint64_t)p->storage_image_array_non_uniform_indexing << 3 |
           (uint64_t)p->uniform_texel_buffer_array_non_uniform_indexing << 4 |
           (uint64_t)p->storage_texel_buffer_array_non_uniform_indexing << 5 |
           (uint64_t)p->storage_buffer_array_non_uniform_indexing << 6 |
           (uint64_t)p->shader_resource_min_lod << 7 |
           (uint64_t)p->fragment_shader_pixel_interlock << 8 |
           (uint64_t)p->fragment_fully_covered << 9 | (uint64_t)p->multiview << 10 |
           (uint64_t)p->fragment_shading_rate << 11 | (uint64_t)p->fragment_shader_barycentric << 12;
}
