/* SPDX-License-Identifier: MIT */
/*
 * vkCreateGraphicsPipelines, vkCreateComputePipelines and vkCreateShadersEXT
 * (layer/README.md §Stages). Create infos that touch none of the layer's
 * modules and chain no foreign bytes go down as the application's own
 * pointer. Otherwise the create-info array (and the stage arrays that
 * change) are copied, each stage is rewritten by layer_stage.c, the call
 * goes down, and the scratch storage (and temporary modules) is released.
 * A stage that cannot be rewritten fails the whole call before anything is
 * created, every output handle VK_NULL_HANDLE, as Vulkan requires of failed
 * creations.
 */
#include "layer_stage.h"

#include <string.h>

static VkResult fail_all(VkResult r, uint32_t count, void *out, size_t handle_size)
{
    memset(out, 0, (size_t)count * handle_size);
    return r;
}

static bool graphics_needs_fix(const VkGraphicsPipelineCreateInfo *info)
{
    for (uint32_t k = 0; info->pStages && k < info->stageCount; k++)
        if (sb_layer_stage_needs_fix(&info->pStages[k]))
            return true;
    return false;
}

VKAPI_ATTR VkResult VKAPI_CALL sb_layer_CreateGraphicsPipelines(VkDevice device, VkPipelineCache cache,
                                                                uint32_t count,
                                                                const VkGraphicsPipelineCreateInfo *infos,
                                                                const VkAllocationCallbacks *alloc,
                                                                VkPipeline *out)
{
    struct sb_layer_device *dev = sb_layer_device_find(device);
    if (!dev)
        return VK_ERROR_INITIALIZATION_FAILED;
    bool any = false;
    for (uint32_t i = 0; i < count && !any; i++)
        any = graphics_needs_fix(&infos[i]);
    if (!any)
        return dev->create_graphics_pipelines(device, cache, count, infos, alloc, out);

    struct sb_layer_scratch s = { 0 };
    VkGraphicsPipelineCreateInfo *copy = sb_layer_scratch_alloc(&s, count * sizeof(*copy));
    VkResult r = copy ? VK_SUCCESS : VK_ERROR_OUT_OF_HOST_MEMORY;
    for (uint32_t i = 0; i < count && r == VK_SUCCESS; i++) {
        copy[i] = infos[i];
        if (!graphics_needs_fix(&infos[i]))
            continue;
        VkPipelineShaderStageCreateInfo *stages =
            sb_layer_scratch_alloc(&s, infos[i].stageCount * sizeof(*stages));
        if (!stages) {
            r = VK_ERROR_OUT_OF_HOST_MEMORY;
            break;
        }
        memcpy(stages, infos[i].pStages, infos[i].stageCount * sizeof(*stages));
        for (uint32_t k = 0; k < infos[i].stageCount && r == VK_SUCCESS; k++)
            r = sb_layer_stage_fix(dev, &stages[k], alloc, &s);
        copy[i].pStages = stages;
    }
    if (r == VK_SUCCESS)
        r = dev->create_graphics_pipelines(device, cache, count, copy, alloc, out);
    else
        fail_all(r, count, out, sizeof(*out));
    sb_layer_scratch_release(&s, dev, alloc);
    return r;
}

VKAPI_ATTR VkResult VKAPI_CALL sb_layer_CreateComputePipelines(VkDevice device, VkPipelineCache cache,
                                                               uint32_t count,
                                                               const VkComputePipelineCreateInfo *infos,
                                                               const VkAllocationCallbacks *alloc,
                                                               VkPipeline *out)
{
    struct sb_layer_device *dev = sb_layer_device_find(device);
    if (!dev)
        return VK_ERROR_INITIALIZATION_FAILED;
    bool any = false;
    for (uint32_t i = 0; i < count && !any; i++)
        any = sb_layer_stage_needs_fix(&infos[i].stage);
    if (!any)
        return dev->create_compute_pipelines(device, cache, count, infos, alloc, out);

    struct sb_layer_scratch s = { 0 };
    VkComputePipelineCreateInfo *copy = sb_layer_scratch_alloc(&s, count * sizeof(*copy));
    VkResult r = copy ? VK_SUCCESS : VK_ERROR_OUT_OF_HOST_MEMORY;
    for (uint32_t i = 0; i < count && r == VK_SUCCESS; i++) {
        copy[i] = infos[i];
        r = sb_layer_stage_fix(dev, &copy[i].stage, alloc, &s);
    }
    if (r == VK_SUCCESS)
        r = dev->create_compute_pipelines(device, cache, count, copy, alloc, out);
    else
        fail_all(r, count, out, sizeof(*out));
    sb_layer_scratch_release(&s, dev, alloc);
    return r;
}

/* ---- VK_EXT_shader_object (compiled with Vulkan headers that have it: 1.3.246 and later) ---------- */
#ifdef VK_EXT_shader_object

static enum sb_layer_kind shader_kind(const VkShaderCreateInfoEXT *info)
{
    if (info->codeType != VK_SHADER_CODE_TYPE_SPIRV_EXT || !info->pCode)
        return SB_LAYER_KIND_PASS;
    return sb_layer_detect(info->pCode, info->codeSize);
}

static VkResult fix_shader(const struct sb_layer_device *dev, VkShaderCreateInfoEXT *info, enum sb_layer_kind kind,
                           struct sb_layer_scratch *s)
{
    struct sb_layer_output out;
    if (!sb_layer_translate(dev, info->pCode, info->codeSize, kind, &out))
        return SB_LAYER_FAILURE;
    const struct sb_layer_spirv *spirv = sb_layer_output_stage(&out, info->stage);
    VkResult r = spirv ? VK_SUCCESS : SB_LAYER_FAILURE;
    if (!spirv)
        sb_layer_log(SB_LAYER_LOG_ERROR, "vkCreateShadersEXT: the %s bytes have no stage 0x%x: "
                     "VK_ERROR_INVALID_SHADER_NV", sb_layer_kind_name(kind), (unsigned)info->stage);
    uint32_t *words = spirv ? sb_layer_scratch_alloc(s, spirv->word_count * 4) : NULL;
    if (spirv && !words)
        r = VK_ERROR_OUT_OF_HOST_MEMORY;
    if (words) {
        memcpy(words, spirv->words, spirv->word_count * 4);
        info->pCode = words;
        info->codeSize = spirv->word_count * 4;
        const char *entry = sb_layer_spirv_entry_name(words, spirv->word_count);
        if (entry)
            info->pName = entry; /* points into `words`, which lives as long as the scratch */
    }
    sb_layer_output_free(&out);
    return r;
}

VKAPI_ATTR VkResult VKAPI_CALL sb_layer_CreateShadersEXT(VkDevice device, uint32_t count,
                                                         const VkShaderCreateInfoEXT *infos,
                                                         const VkAllocationCallbacks *alloc, VkShaderEXT *out)
{
    struct sb_layer_device *dev = sb_layer_device_find(device);
    if (!dev || !dev->create_shaders_ext)
        return VK_ERROR_INITIALIZATION_FAILED;
    bool any = false;
    for (uint32_t i = 0; i < count && !any; i++)
        any = shader_kind(&infos[i]) != SB_LAYER_KIND_PASS;
    if (!any)
        return ((PFN_vkCreateShadersEXT)dev->create_shaders_ext)(device, count, infos, alloc, out);

    struct sb_layer_scratch s = { 0 };
    VkShaderCreateInfoEXT *copy = sb_layer_scratch_alloc(&s, count * sizeof(*copy));
    VkResult r = copy ? VK_SUCCESS : VK_ERROR_OUT_OF_HOST_MEMORY;
    for (uint32_t i = 0; i < count && r == VK_SUCCESS; i++) {
        copy[i] = infos[i];
        enum sb_layer_kind kind = shader_kind(&infos[i]);
        if (kind != SB_LAYER_KIND_PASS)
            r = fix_shader(dev, &copy[i], kind, &s);
    }
    if (r == VK_SUCCESS)
        r = ((PFN_vkCreateShadersEXT)dev->create_shaders_ext)(device, count, copy, alloc, out);
    else
        fail_all(r, count, out, sizeof(*out));
    sb_layer_scratch_release(&s, dev, alloc);
    return r;
}
#endif
