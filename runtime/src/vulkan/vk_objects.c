/* SPDX-License-Identifier: MIT */
/*
 * The small Vulkan objects every internal pass makes the same way (the multisample fill,
 * depth fill and read-back passes, compute dispatches): a shader module from SPIR-V words,
 * a compute pipeline, a pipeline layout of one descriptor set and one push-constant range,
 * a pool holding exactly one set, and that set pointed at a buffer and an image. Each that
 * can fail returns a structured error naming the call.
 */
#include "vk_private.h"

enum sb_result sb_vk_shader_module(struct sb_rt_context *c, const uint32_t *words, size_t count,
                                   VkShaderModule *out, struct sb_error *error)
{
    VkShaderModuleCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO, .codeSize = count * 4, .pCode = words,
    };
    VkResult vr = c->vk.vkCreateShaderModule(c->device, &info, NULL, out);
    return vr == VK_SUCCESS ? SB_SUCCESS : sb_vk_fail_call(error, "vkCreateShaderModule", vr);
}

enum sb_result sb_vk_compute_pipeline(struct sb_rt_context *c, VkShaderModule module, const char *entry_point,
                                      VkPipelineLayout layout, VkPipeline *out, struct sb_error *error)
{
    return sb_vk_compute_pipeline_chained(c, module, entry_point, NULL, layout, out, error);
}

enum sb_result sb_vk_compute_pipeline_chained(struct sb_rt_context *c, VkShaderModule module, const char *entry_point,
                                              const void *stage_next, VkPipelineLayout layout, VkPipeline *out,
                                              struct sb_error *error)
{
    VkComputePipelineCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
        .stage = {
            .sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
            .pNext = stage_next,
            .stage = VK_SHADER_STAGE_COMPUTE_BIT,
            .module = module,
            .pName = entry_point,
        },
        .layout = layout,
    };
    VkResult vr = c->vk.vkCreateComputePipelines(c->device, VK_NULL_HANDLE, 1, &info, NULL, out);
    return vr == VK_SUCCESS ? SB_SUCCESS : sb_vk_fail_call(error, "vkCreateComputePipelines", vr);
}

enum sb_result sb_vk_one_set_layout(struct sb_rt_context *c, const VkDescriptorSetLayoutBinding *bindings,
                                    uint32_t binding_count, VkShaderStageFlags stage, uint32_t push_bytes,
                                    VkDescriptorSetLayout *set_layout, VkPipelineLayout *layout,
                                    struct sb_error *error)
{
    VkDescriptorSetLayoutCreateInfo set_info = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
        .bindingCount = binding_count, .pBindings = bindings,
    };
    VkResult vr = c->vk.vkCreateDescriptorSetLayout(c->device, &set_info, NULL, set_layout);
    if (vr != VK_SUCCESS)
        return sb_vk_fail_call(error, "vkCreateDescriptorSetLayout", vr);
    VkPushConstantRange range = { stage, 0, push_bytes };
    VkPipelineLayoutCreateInfo layout_info = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
        .setLayoutCount = 1, .pSetLayouts = set_layout,
        .pushConstantRangeCount = push_bytes ? 1 : 0, .pPushConstantRanges = push_bytes ? &range : NULL,
    };
    vr = c->vk.vkCreatePipelineLayout(c->device, &layout_info, NULL, layout);
    return vr == VK_SUCCESS ? SB_SUCCESS : sb_vk_fail_call(error, "vkCreatePipelineLayout", vr);
}

enum sb_result sb_vk_one_set(struct sb_rt_context *c, const VkDescriptorPoolSize *sizes, uint32_t size_count,
                             VkDescriptorSetLayout set_layout, VkDescriptorPool *pool, VkDescriptorSet *set,
                             struct sb_error *error)
{
    VkDescriptorPoolCreateInfo pool_info = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
        .maxSets = 1, .poolSizeCount = size_count, .pPoolSizes = sizes,
    };
    VkResult vr = c->vk.vkCreateDescriptorPool(c->device, &pool_info, NULL, pool);
    if (vr != VK_SUCCESS)
        return sb_vk_fail_call(error, "vkCreateDescriptorPool", vr);
    VkDescriptorSetAllocateInfo alloc = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
        .descriptorPool = *pool, .descriptorSetCount = 1, .pSetLayouts = &set_layout,
    };
    vr = c->vk.vkAllocateDescriptorSets(c->device, &alloc, set);
    return vr == VK_SUCCESS ? SB_SUCCESS : sb_vk_fail_call(error, "vkAllocateDescriptorSets", vr);
}

void sb_vk_pass_objects_destroy(struct sb_rt_context *c, VkDescriptorPool pool, VkPipeline pipeline,
                                VkShaderModule module, VkPipelineLayout layout, VkDescriptorSetLayout set_layout)
{
    if (pool)
        c->vk.vkDestroyDescriptorPool(c->device, pool, NULL);
    if (pipeline)
        c->vk.vkDestroyPipeline(c->device, pipeline, NULL);
    if (module)
        c->vk.vkDestroyShaderModule(c->device, module, NULL);
    if (layout)
        c->vk.vkDestroyPipelineLayout(c->device, layout, NULL);
    if (set_layout)
        c->vk.vkDestroyDescriptorSetLayout(c->device, set_layout, NULL);
}

void sb_vk_write_buffer_image_set(struct sb_rt_context *c, VkDescriptorSet set, VkBuffer buffer, VkImageView view,
                                  VkDescriptorType image_type, VkImageLayout layout)
{
    VkDescriptorBufferInfo whole = { buffer, 0, VK_WHOLE_SIZE };
    VkDescriptorImageInfo image = { VK_NULL_HANDLE, view, layout };
    VkWriteDescriptorSet writes[2] = {
        { .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .dstSet = set, .dstBinding = 0,
          .descriptorCount = 1, .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, .pBufferInfo = &whole },
        { .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .dstSet = set, .dstBinding = 1,
          .descriptorCount = 1, .descriptorType = image_type, .pImageInfo = &image },
    };
    c->vk.vkUpdateDescriptorSets(c->device, 2, writes, 0, NULL);
}
