/* SPDX-License-Identifier: MIT */
/*
 * The translator's device profile (sb_device_profile, translate.h) from the context's
 * device, and the VkFormat of a runtime format for sb_storage_format: what a caller
 * translating for this device passes in sb_translate_options so that the translator
 * picks its fallbacks (translator/README.md "Device fallbacks") instead of emitting
 * a module sb_vk_check_capabilities would refuse.
 */
#include "vk_private.h"

void sb_rt_context_device_profile(const struct sb_rt_context *context, struct sb_device_profile *out)
{
    if (!out)
        return;
    *out = (struct sb_device_profile){ .described = false };
    if (!context || !context->has_device)
        return; /* no device: nothing to fit, the translator assumes everything */
    out->described = true;
    out->storage_image_read_without_format = context->features.shaderStorageImageReadWithoutFormat == VK_TRUE;
    out->shader_resource_min_lod = context->features.shaderResourceMinLod == VK_TRUE;
    const VkPhysicalDeviceVulkan12Features *f12 = &context->features12;
    out->sampled_image_array_non_uniform_indexing = f12->shaderSampledImageArrayNonUniformIndexing == VK_TRUE;
    out->storage_image_array_non_uniform_indexing = f12->shaderStorageImageArrayNonUniformIndexing == VK_TRUE;
    out->uniform_texel_buffer_array_non_uniform_indexing =
        f12->shaderUniformTexelBufferArrayNonUniformIndexing == VK_TRUE;
    out->storage_texel_buffer_array_non_uniform_indexing =
        f12->shaderStorageTexelBufferArrayNonUniformIndexing == VK_TRUE;
    out->storage_buffer_array_non_uniform_indexing = f12->shaderStorageBufferArrayNonUniformIndexing == VK_TRUE;
    /* The runtime builds at most SB_VK_MAX_SETS set layouts (vk_dispatch.c). */
    uint32_t sets = context->properties.limits.maxBoundDescriptorSets;
    out->max_bound_descriptor_sets = sets < SB_VK_MAX_SETS ? sets : SB_VK_MAX_SETS;
    /* The per-stage limits the layouts are checked against (vk_dispatch.c). */
    const VkPhysicalDeviceLimits *l = &context->properties.limits;
    out->max_per_stage_storage_buffers = l->maxPerStageDescriptorStorageBuffers;
    out->max_per_stage_storage_images = l->maxPerStageDescriptorStorageImages;
    out->max_per_stage_sampled_images = l->maxPerStageDescriptorSampledImages;
    /* The extensions the context enabled (vk_device.c): fragmentShaderPixelInterlock of
     * VkPhysicalDeviceFragmentShaderInterlockFeaturesEXT where the device has the extension,
     * and FullyCoveredEXT where conservative rasterization reports it for the runtime's point
     * draws; false where the extension is absent. */
    out->fragment_shader_pixel_interlock = context->pixel_interlock;
    out->fragment_fully_covered = context->fully_covered;
    /* multiview as enabled (Vulkan 1.1 features, vk_device.c); the runtime enables neither
     * VK_KHR_fragment_shading_rate nor VK_KHR_fragment_shader_barycentric. */
    out->multiview = context->features11.multiview == VK_TRUE;
    out->fragment_shading_rate = false;
    out->fragment_shader_barycentric = false;
}

uint32_t sb_rt_format_vk(enum sb_rt_format format)
{
    return (uint32_t)sb_vk_format((uint32_t)format);
}
