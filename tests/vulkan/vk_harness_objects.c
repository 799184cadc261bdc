/* SPDX-License-Identifier: MIT */
/*
 * Layouts, pipelines, buffers and compute dispatch of the Vulkan test
 * harness (vk_harness.h); images are in vk_harness_images.c. Pipelines are created without a pipeline
 * cache so that every corpus shader really goes through lavapipe's compiler;
 * viewport and scissor are dynamic so no pipeline needs a framebuffer size.
 */
#include "vk_harness.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_BINDINGS_PER_SET 512

VkResult vkh_layout_create(struct vkh *h, const struct vkh_binding *bindings, uint32_t count,
                           VkShaderStageFlags stages, struct vkh_layout *out)
{
    memset(out, 0, sizeof(*out));
    uint32_t set_count = 0;
    for (uint32_t i = 0; i < count; i++)
        if (bindings[i].set + 1 > set_count)
            set_count = bindings[i].set + 1;
    if (set_count > 8)
        return VK_ERROR_FEATURE_NOT_PRESENT;
    static VkDescriptorSetLayoutBinding vk[MAX_BINDINGS_PER_SET];
    VkResult r = VK_SUCCESS;
    for (uint32_t s = 0; s < set_count && r == VK_SUCCESS; s++) {
        uint32_t n = 0;
        for (uint32_t i = 0; i < count && n < MAX_BINDINGS_PER_SET; i++) {
            if (bindings[i].set != s)
                continue;
            uint32_t size = bindings[i].count;
            if (size == 0xFFFFFFFFu)
                size = VKH_UNBOUNDED_ARRAY_SIZE;
            vk[n++] = (VkDescriptorSetLayoutBinding){
                .binding = bindings[i].binding,
                .descriptorType = bindings[i].type,
                .descriptorCount = size,
                .stageFlags = stages,
            };
        }
        VkDescriptorSetLayoutCreateInfo info = {
            .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
            .bindingCount = n,
            .pBindings = vk,
        };
        r = vkCreateDescriptorSetLayout(h->device, &info, NULL, &out->sets[s]);
        if (r == VK_SUCCESS)
            out->set_count = s + 1;
    }
    if (r == VK_SUCCESS) {
        VkPipelineLayoutCreateInfo info = {
            .sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
            .setLayoutCount = set_count,
            .pSetLayouts = out->sets,
        };
        r = vkCreatePipelineLayout(h->device, &info, NULL, &out->pipeline);
    }
    if (r != VK_SUCCESS)
        vkh_layout_destroy(h, out);
    return r;
}

void vkh_layout_destroy(struct vkh *h, struct vkh_layout *layout)
{
    if (layout->pipeline)
        vkDestroyPipelineLayout(h->device, layout->pipeline, NULL);
    for (uint32_t i = 0; i < layout->set_count; i++)
        if (layout->sets[i])
            vkDestroyDescriptorSetLayout(h->device, layout->sets[i], NULL);
    memset(layout, 0, sizeof(*layout));
}

VkResult vkh_shader_module(struct vkh *h, const uint32_t *words, size_t word_count,
                           VkShaderModule *out)
{
    VkShaderModuleCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO,
        .codeSize = word_count * 4,
        .pCode = words,
    };
    return vkCreateShaderModule(h->device, &info, NULL, out);
}

VkResult vkh_compute_pipeline(struct vkh *h, VkShaderModule module, const char *entry,
                              VkPipelineLayout layout, VkPipeline *out)
{
    VkComputePipelineCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
        .flags = h->pipeline_flags,
        .stage = {
            .sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
            .stage = VK_SHADER_STAGE_COMPUTE_BIT,
            .module = module,
            .pName = entry ? entry : "main",
        },
        .layout = layout,
    };
    return vkCreateComputePipelines(h->device, h->cache, 1, &info, NULL, out);
}

static VkResult render_pass(struct vkh *h, const struct vkh_graphics_desc *d, VkRenderPass *out)
{
    VkAttachmentDescription attachments[9];
    VkAttachmentReference colors[8], depth_ref;
    uint32_t n = 0;
    for (uint32_t i = 0; i < d->color_count && i < 8; i++) {
        colors[i] = (VkAttachmentReference){ VK_ATTACHMENT_UNUSED,
                                             VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL };
        if (d->color_formats[i] == VK_FORMAT_UNDEFINED)
            continue;
        colors[i].attachment = n;
        attachments[n++] = (VkAttachmentDescription){
            .format = d->color_formats[i],
            .samples = VK_SAMPLE_COUNT_1_BIT,
            .loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR,
            .storeOp = VK_ATTACHMENT_STORE_OP_STORE,
            .stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE,
            .stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE,
            .initialLayout = VK_IMAGE_LAYOUT_UNDEFINED,
            .finalLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
        };
    }
    bool ds = d->depth || d->stencil;
    if (ds) {
        depth_ref = (VkAttachmentReference){ n, VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL };
        attachments[n++] = (VkAttachmentDescription){
            .format = d->stencil ? VK_FORMAT_D32_SFLOAT_S8_UINT : VK_FORMAT_D32_SFLOAT,
            .samples = VK_SAMPLE_COUNT_1_BIT,
            .loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR,
            .storeOp = VK_ATTACHMENT_STORE_OP_STORE,
            .stencilLoadOp = VK_ATTACHMENT_LOAD_OP_CLEAR,
            .stencilStoreOp = VK_ATTACHMENT_STORE_OP_STORE,
            .initialLayout = VK_IMAGE_LAYOUT_UNDEFINED,
            .finalLayout = VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL,
        };
    }
    VkSubpassDescription subpass = {
        .pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS,
        .colorAttachmentCount = d->color_count,
        .pColorAttachments = colors,
        .pDepthStencilAttachment = ds ? &depth_ref : NULL,
    };
    VkRenderPassCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO,
        .attachmentCount = n,
        .pAttachments = attachments,
        .subpassCount = 1,
        .pSubpasses = &subpass,
    };
    return vkCreateRenderPass(h->device, &info, NULL, out);
}

/* Stage order of vkh_graphics_desc's modules and entry names. */
static const VkShaderStageFlagBits graphics_stages[5] = {
    VK_SHADER_STAGE_VERTEX_BIT, VK_SHADER_STAGE_TESSELLATION_CONTROL_BIT,
    VK_SHADER_STAGE_TESSELLATION_EVALUATION_BIT, VK_SHADER_STAGE_GEOMETRY_BIT,
    VK_SHADER_STAGE_FRAGMENT_BIT,
};

VkResult vkh_graphics_pipeline(struct vkh *h, const struct vkh_graphics_desc *d, VkPipeline *out,
                               VkRenderPass *pass_out)
{
    *out = VK_NULL_HANDLE;
    *pass_out = VK_NULL_HANDLE;
    VkShaderModule modules[5] = { d->vs, d->tcs, d->tes, d->gs, d->fs };
    VkPipelineShaderStageCreateInfo stages[5];
    uint32_t stage_count = 0;
    for (int i = 0; i < 5; i++) {
        if (!modules[i])
            continue;
        stages[stage_count++] = (VkPipelineShaderStageCreateInfo){
            .sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
            .stage = graphics_stages[i],
            .module = modules[i],
            .pName = d->entry[i] ? d->entry[i] : "main",
        };
    }
    VkVertexInputBindingDescription vb[32];
    VkVertexInputAttributeDescription va[32];
    uint32_t attr_count = d->attribute_count < 32 ? d->attribute_count : 32;
    for (uint32_t i = 0; i < attr_count; i++) {
        /* One binding per attribute: formats up to 16 bytes, no overlap to reason about. */
        vb[i] = (VkVertexInputBindingDescription){ i, 16, VK_VERTEX_INPUT_RATE_VERTEX };
        va[i] = (VkVertexInputAttributeDescription){ d->attributes[i].location, i,
                                                     d->attributes[i].format, 0 };
    }
    VkPipelineVertexInputStateCreateInfo vertex = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO,
        .vertexBindingDescriptionCount = attr_count,
        .pVertexBindingDescriptions = vb,
        .vertexAttributeDescriptionCount = attr_count,
        .pVertexAttributeDescriptions = va,
    };
    VkPipelineInputAssemblyStateCreateInfo assembly = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO,
        .topology = d->topology,
    };
    VkPipelineTessellationStateCreateInfo tess = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_TESSELLATION_STATE_CREATE_INFO,
        .patchControlPoints = d->patch_control_points,
    };
    VkPipelineViewportStateCreateInfo viewport = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO,
        .viewportCount = 1,
        .scissorCount = 1,
    };
    VkPipelineRasterizationStateCreateInfo raster = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO,
        .polygonMode = VK_POLYGON_MODE_FILL,
        .cullMode = VK_CULL_MODE_NONE,
        .frontFace = VK_FRONT_FACE_CLOCKWISE,
        .lineWidth = 1.0f,
    };
    VkPipelineMultisampleStateCreateInfo multisample = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO,
        .rasterizationSamples = VK_SAMPLE_COUNT_1_BIT,
        .sampleShadingEnable = d->sample_shading,
        .minSampleShading = 1.0f,
    };
    VkPipelineDepthStencilStateCreateInfo depth = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO,
        .depthTestEnable = d->depth || d->stencil,
        .depthWriteEnable = d->depth || d->stencil,
        .depthCompareOp = VK_COMPARE_OP_LESS_OR_EQUAL,
        .stencilTestEnable = d->stencil,
        .front = { .failOp = VK_STENCIL_OP_KEEP, .passOp = VK_STENCIL_OP_REPLACE,
                   .compareOp = VK_COMPARE_OP_ALWAYS, .compareMask = 0xff, .writeMask = 0xff },
        .back = { .failOp = VK_STENCIL_OP_KEEP, .passOp = VK_STENCIL_OP_REPLACE,
                  .compareOp = VK_COMPARE_OP_ALWAYS, .compareMask = 0xff, .writeMask = 0xff },
        .maxDepthBounds = 1.0f,
    };
    VkPipelineColorBlendAttachmentState blend[8];
    for (int i = 0; i < 8; i++)
        blend[i] = (VkPipelineColorBlendAttachmentState){ .colorWriteMask = 0xf };
    VkPipelineColorBlendStateCreateInfo color = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO,
        .attachmentCount = d->color_count,
        .pAttachments = blend,
    };
    static const VkDynamicState dynamic_states[] = { VK_DYNAMIC_STATE_VIEWPORT,
                                                     VK_DYNAMIC_STATE_SCISSOR };
    VkPipelineDynamicStateCreateInfo dynamic = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_DYNAMIC_STATE_CREATE_INFO,
        .dynamicStateCount = 2,
        .pDynamicStates = dynamic_states,
    };
    VkResult r = render_pass(h, d, pass_out);
    if (r != VK_SUCCESS)
        return r;
    VkGraphicsPipelineCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO,
        .flags = h->pipeline_flags,
        .stageCount = stage_count,
        .pStages = stages,
        .pVertexInputState = &vertex,
        .pInputAssemblyState = &assembly,
        .pTessellationState = d->tcs ? &tess : NULL,
        .pViewportState = &viewport,
        .pRasterizationState = &raster,
        .pMultisampleState = &multisample,
        .pDepthStencilState = &depth,
        .pColorBlendState = &color,
        .pDynamicState = &dynamic,
        .layout = d->layout,
        .renderPass = *pass_out,
    };
    r = vkCreateGraphicsPipelines(h->device, h->cache, 1, &info, NULL, out);
    if (r != VK_SUCCESS) {
        vkDestroyRenderPass(h->device, *pass_out, NULL);
        *pass_out = VK_NULL_HANDLE;
    }
    return r;
}

/* ---- memory ---------------------------------------------------------- */

VkResult vkh_allocate(struct vkh *h, VkMemoryRequirements req, VkMemoryPropertyFlags want,
                      VkDeviceMemory *out)
{
    for (uint32_t i = 0; i < h->memory.memoryTypeCount; i++) {
        if (!(req.memoryTypeBits & (1u << i)) ||
            (h->memory.memoryTypes[i].propertyFlags & want) != want)
            continue;
        VkMemoryAllocateInfo info = {
            .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
            .allocationSize = req.size,
            .memoryTypeIndex = i,
        };
        return vkAllocateMemory(h->device, &info, NULL, out);
    }
    return VK_ERROR_OUT_OF_DEVICE_MEMORY;
}

VkResult vkh_buffer_create(struct vkh *h, VkDeviceSize size, VkBufferUsageFlags usage,
                           const void *initial, struct vkh_buffer *out)
{
    memset(out, 0, sizeof(*out));
    out->size = size;
    VkBufferCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
        .size = size,
        .usage = usage,
        .sharingMode = VK_SHARING_MODE_EXCLUSIVE,
    };
    VkResult r = vkCreateBuffer(h->device, &info, NULL, &out->buffer);
    if (r != VK_SUCCESS)
        return r;
    VkMemoryRequirements req;
    vkGetBufferMemoryRequirements(h->device, out->buffer, &req);
    r = vkh_allocate(h, req,
                     VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT,
                     &out->memory);
    if (r == VK_SUCCESS)
        r = vkBindBufferMemory(h->device, out->buffer, out->memory, 0);
    if (r == VK_SUCCESS)
        r = vkMapMemory(h->device, out->memory, 0, VK_WHOLE_SIZE, 0, &out->mapped);
    if (r != VK_SUCCESS) {
        vkh_buffer_destroy(h, out);
        return r;
    }
    if (initial)
        memcpy(out->mapped, initial, (size_t)size);
    else
        memset(out->mapped, 0, (size_t)size);
    return VK_SUCCESS;
}

VkResult vkh_buffer_view(struct vkh *h, struct vkh_buffer *b, VkFormat format)
{
    VkBufferViewCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_BUFFER_VIEW_CREATE_INFO,
        .buffer = b->buffer,
        .format = format,
        .range = VK_WHOLE_SIZE,
    };
    return vkCreateBufferView(h->device, &info, NULL, &b->view);
}

void vkh_buffer_destroy(struct vkh *h, struct vkh_buffer *b)
{
    if (b->view)
        vkDestroyBufferView(h->device, b->view, NULL);
    if (b->buffer)
        vkDestroyBuffer(h->device, b->buffer, NULL);
    if (b->memory)
        vkFreeMemory(h->device, b->memory, NULL);
    memset(b, 0, sizeof(*b));
}

VkResult vkh_one_shot_begin(struct vkh *h, VkCommandBuffer *cmd)
{
    VkCommandBufferAllocateInfo info = {
        .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
        .commandPool = h->command_pool,
        .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
        .commandBufferCount = 1,
    };
    VkResult r = vkAllocateCommandBuffers(h->device, &info, cmd);
    if (r != VK_SUCCESS)
        return r;
    VkCommandBufferBeginInfo begin = {
        .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
        .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT,
    };
    return vkBeginCommandBuffer(*cmd, &begin);
}

VkResult vkh_one_shot_submit(struct vkh *h, VkCommandBuffer cmd)
{
    VkResult r = vkEndCommandBuffer(cmd);
    if (r == VK_SUCCESS) {
        VkSubmitInfo submit = {
            .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
            .commandBufferCount = 1,
            .pCommandBuffers = &cmd,
        };
        r = vkQueueSubmit(h->queue, 1, &submit, VK_NULL_HANDLE);
    }
    if (r == VK_SUCCESS)
        r = vkQueueWaitIdle(h->queue);
    vkFreeCommandBuffers(h->device, h->command_pool, 1, &cmd);
    return r;
}

/* ---- dispatch -------------------------------------------------------- */

static void fill_write(VkWriteDescriptorSet *w, VkDescriptorSet set, const struct vkh_resource *res,
                       VkDescriptorBufferInfo *bi, VkDescriptorImageInfo *ii, VkBufferView *bv)
{
    *w = (VkWriteDescriptorSet){
        .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
        .dstSet = set,
        .dstBinding = res->binding,
        .descriptorCount = 1,
        .descriptorType = res->type,
    };
    switch (res->type) {
    case VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER:
    case VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER:
        *bv = res->buffer->view;
        w->pTexelBufferView = bv;
        break;
    case VK_DESCRIPTOR_TYPE_SAMPLER:
    case VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE:
    case VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER:
    case VK_DESCRIPTOR_TYPE_STORAGE_IMAGE:
        *ii = (VkDescriptorImageInfo){
            .sampler = res->image->sampler,
            .imageView = res->image->view,
            .imageLayout = res->type == VK_DESCRIPTOR_TYPE_STORAGE_IMAGE
                               ? VK_IMAGE_LAYOUT_GENERAL
                               : VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL,
        };
        w->pImageInfo = ii;
        break;
    default:
        *bi = (VkDescriptorBufferInfo){ res->buffer->buffer, 0, VK_WHOLE_SIZE };
        w->pBufferInfo = bi;
        break;
    }
}

VkResult vkh_dispatch(struct vkh *h, VkPipeline pipeline, const struct vkh_layout *layout,
                      const struct vkh_resource *resources, uint32_t resource_count,
                      uint32_t x, uint32_t y, uint32_t z)
{
    static const VkDescriptorType types[] = {
        VK_DESCRIPTOR_TYPE_SAMPLER, VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE,
        VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER,
        VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER,
        VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER,
    };
    VkDescriptorPoolSize sizes[8];
    for (int i = 0; i < 8; i++)
        sizes[i] = (VkDescriptorPoolSize){ types[i], 64 * 8 };
    VkDescriptorPoolCreateInfo pool_info = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
        .maxSets = 8,
        .poolSizeCount = 8,
        .pPoolSizes = sizes,
    };
    VkDescriptorPool pool = VK_NULL_HANDLE;
    VkDescriptorSet sets[8] = { 0 };
    VkResult r = vkCreateDescriptorPool(h->device, &pool_info, NULL, &pool);
    if (r == VK_SUCCESS && layout->set_count) {
        VkDescriptorSetAllocateInfo alloc = {
            .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
            .descriptorPool = pool,
            .descriptorSetCount = layout->set_count,
            .pSetLayouts = layout->sets,
        };
        r = vkAllocateDescriptorSets(h->device, &alloc, sets);
    }
    for (uint32_t i = 0; r == VK_SUCCESS && i < resource_count; i++) {
        if (resources[i].set >= layout->set_count)
            continue;
        VkWriteDescriptorSet w;
        VkDescriptorBufferInfo bi;
        VkDescriptorImageInfo ii;
        VkBufferView bv;
        fill_write(&w, sets[resources[i].set], &resources[i], &bi, &ii, &bv);
        vkUpdateDescriptorSets(h->device, 1, &w, 0, NULL);
    }
    VkCommandBuffer cmd;
    if (r == VK_SUCCESS)
        r = vkh_one_shot_begin(h, &cmd);
    if (r == VK_SUCCESS) {
        vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
        if (layout->set_count)
            vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, layout->pipeline, 0,
                                    layout->set_count, sets, 0, NULL);
        vkCmdDispatch(cmd, x, y, z);
        VkMemoryBarrier barrier = {
            .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
            .srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT,
            .dstAccessMask = VK_ACCESS_HOST_READ_BIT,
        };
        vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                             VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &barrier, 0, NULL, 0, NULL);
        r = vkh_one_shot_submit(h, cmd);
    }
    if (pool)
        vkDestroyDescriptorPool(h->device, pool, NULL);
    return r;
}
