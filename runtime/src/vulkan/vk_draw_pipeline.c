/* SPDX-License-Identifier: MIT */
/*
 * The render pass and graphics pipeline of a point-list draw (runtime.h,
 * sb_rt_draw_points). Colour attachments are numbered in location order, so
 * the subpass's colour slot k is location k (unused where no target has that
 * location) and the pixel shader's Location decorations need no remapping;
 * the depth attachment, when there is one, comes last. Every attachment is
 * loaded (its texels were uploaded by the caller) and stored, and stays in
 * its attachment layout; the transitions around the pass are barriers the
 * draw records itself (vk_draw.c, vk_draw_target.c).
 */
#include <stdlib.h>

#include "vk_draw_private.h"

uint32_t sb_vk_draw_attachment(const struct sb_rt_draw *d, uint32_t i)
{
    uint32_t index = 0;
    for (uint32_t j = 0; j < d->target_count; j++)
        index += d->targets[j].location < d->targets[i].location;
    return index;
}

/* Colour slots of the subpass: the highest location + 1. */
static uint32_t slot_count(const struct sb_rt_draw *d)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < d->target_count; i++)
        if (d->targets[i].location + 1 > n)
            n = d->targets[i].location + 1;
    return n;
}

enum sb_result sb_vk_draw_render_pass(struct sb_vk_draw *dr, struct sb_error *error)
{
    const struct sb_rt_draw *d = dr->d;
    VkAttachmentDescription attachments[SB_VK_MAX_TARGETS + 1];
    VkAttachmentReference slots[SB_VK_MAX_TARGETS];
    uint32_t slot_total = slot_count(d);
    for (uint32_t k = 0; k < slot_total; k++)
        slots[k] = (VkAttachmentReference){ VK_ATTACHMENT_UNUSED, VK_IMAGE_LAYOUT_UNDEFINED };
    for (uint32_t i = 0; i < d->target_count; i++) {
        uint32_t a = sb_vk_draw_attachment(d, i);
        attachments[a] = (VkAttachmentDescription){
            .format = sb_vk_format(d->targets[i].format),
            .samples = VK_SAMPLE_COUNT_1_BIT,
            .loadOp = VK_ATTACHMENT_LOAD_OP_LOAD,
            .storeOp = VK_ATTACHMENT_STORE_OP_STORE,
            .stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE,
            .stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE,
            .initialLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
            .finalLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
        };
        slots[d->targets[i].location] = (VkAttachmentReference){ a, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL };
    }
    VkAttachmentReference depth = { d->target_count, VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL };
    if (d->depth)
        attachments[d->target_count] = (VkAttachmentDescription){
            .format = VK_FORMAT_D32_SFLOAT,
            .samples = VK_SAMPLE_COUNT_1_BIT,
            .loadOp = VK_ATTACHMENT_LOAD_OP_LOAD,
            .storeOp = VK_ATTACHMENT_STORE_OP_STORE,
            .stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE,
            .stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE,
            .initialLayout = VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL,
            .finalLayout = VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL,
        };
    VkSubpassDescription subpass = {
        .pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS,
        .colorAttachmentCount = slot_total,
        .pColorAttachments = slot_total ? slots : NULL,
        .pDepthStencilAttachment = d->depth ? &depth : NULL,
    };
    VkRenderPassCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO,
        .attachmentCount = d->target_count + (d->depth ? 1 : 0),
        .pAttachments = attachments,
        .subpassCount = 1,
        .pSubpasses = &subpass,
    };
    VkResult vr = dr->c->vk.vkCreateRenderPass(dr->c->device, &info, NULL, &dr->render_pass);
    return vr == VK_SUCCESS ? SB_SUCCESS : sb_vk_fail_call(error, "vkCreateRenderPass", vr);
}

/* Shader modules of the given stages; the vertex stage takes the PointSize copy when there is one. */
static enum sb_result create_modules(struct sb_vk_draw *dr, VkPipelineShaderStageCreateInfo *infos,
                                     uint32_t *count, struct sb_error *error)
{
    static const VkShaderStageFlagBits bits[SB_VK_DRAW_STAGES] = {
        VK_SHADER_STAGE_VERTEX_BIT, VK_SHADER_STAGE_GEOMETRY_BIT, VK_SHADER_STAGE_FRAGMENT_BIT
    };
    *count = 0;
    for (int s = 0; s < SB_VK_DRAW_STAGES; s++) {
        const struct sb_translation *t = dr->stages[s];
        if (!t)
            continue;
        bool patched = s == SB_VK_DRAW_VS && dr->vertex_words;
        VkShaderModuleCreateInfo module = {
            .sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO,
            .codeSize = (patched ? dr->vertex_word_count : t->word_count) * 4,
            .pCode = patched ? dr->vertex_words : t->words,
        };
        VkResult vr = dr->c->vk.vkCreateShaderModule(dr->c->device, &module, NULL, &dr->modules[s]);
        if (vr != VK_SUCCESS)
            return sb_vk_fail_call(error, "vkCreateShaderModule", vr);
        infos[(*count)++] = (VkPipelineShaderStageCreateInfo){
            .sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
            .stage = bits[s],
            .module = dr->modules[s],
            .pName = t->entry_point ? t->entry_point : "main",
        };
    }
    return SB_SUCCESS;
}

/* The fixed-function state that does not depend on the caller's arrays. */
struct fixed_state {
    VkViewport viewport;
    VkRect2D scissor;
    VkPipelineInputAssemblyStateCreateInfo assembly;
    VkPipelineViewportStateCreateInfo viewports;
    VkPipelineRasterizationStateCreateInfo raster;
    VkPipelineMultisampleStateCreateInfo multisample;
    VkPipelineDepthStencilStateCreateInfo depth;
};

static void fill_fixed(const struct sb_vk_draw *dr, struct fixed_state *f)
{
    const struct sb_rt_draw *d = dr->d;
    f->viewport = (VkViewport){ 0.0f, 0.0f, (float)d->width, (float)d->height, 0.0f, 1.0f };
    f->scissor = (VkRect2D){ { 0, 0 }, { d->width, d->height } };
    f->assembly = (VkPipelineInputAssemblyStateCreateInfo){
        .sType = VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO,
        .topology = (VkPrimitiveTopology)d->topology, /* checked: a list topology (vk_draw_check.c) */
    };
    f->viewports = (VkPipelineViewportStateCreateInfo){
        .sType = VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO,
        .viewportCount = 1,
        .pViewports = &f->viewport,
        .scissorCount = 1,
        .pScissors = &f->scissor,
    };
    f->raster = (VkPipelineRasterizationStateCreateInfo){
        .sType = VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO,
        .rasterizerDiscardEnable = dr->stages[SB_VK_DRAW_PS] ? VK_FALSE : VK_TRUE,
        .polygonMode = VK_POLYGON_MODE_FILL,
        .cullMode = VK_CULL_MODE_NONE,
        .frontFace = VK_FRONT_FACE_CLOCKWISE,
        .lineWidth = 1.0f,
    };
    f->multisample = (VkPipelineMultisampleStateCreateInfo){
        .sType = VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO,
        .rasterizationSamples = VK_SAMPLE_COUNT_1_BIT,
    };
    f->depth = (VkPipelineDepthStencilStateCreateInfo){
        .sType = VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO,
        .depthTestEnable = VK_TRUE,
        .depthWriteEnable = VK_TRUE,
        .depthCompareOp = VK_COMPARE_OP_LESS_OR_EQUAL,
        .minDepthBounds = 0.0f,
        .maxDepthBounds = 1.0f,
    };
}

/* Vertex bindings and attributes (one each per stream) and the blend state of each colour slot. */
struct array_state {
    VkVertexInputBindingDescription *bindings;
    VkVertexInputAttributeDescription *attributes;
    VkPipelineColorBlendAttachmentState blend[SB_VK_MAX_TARGETS];
};

static enum sb_result fill_arrays(const struct sb_vk_draw *dr, struct array_state *a, struct sb_error *error)
{
    const struct sb_rt_draw *d = dr->d;
    uint32_t n = d->stream_count ? d->stream_count : 1;
    a->bindings = calloc(n, sizeof(*a->bindings));
    a->attributes = calloc(n, sizeof(*a->attributes));
    if (!a->bindings || !a->attributes)
        return sb_vk_fail(error, SB_ERROR_OUT_OF_MEMORY, "sb_rt_draw_points: out of memory");
    for (uint32_t i = 0; i < d->stream_count; i++) {
        const struct sb_rt_vertex_stream *s = &d->streams[i];
        a->bindings[i] = (VkVertexInputBindingDescription){
            i, sb_rt_format_size((enum sb_rt_format)s->format), VK_VERTEX_INPUT_RATE_VERTEX
        };
        a->attributes[i] = (VkVertexInputAttributeDescription){ s->location, i, sb_vk_format(s->format), 0 };
    }
    for (uint32_t k = 0; k < SB_VK_MAX_TARGETS; k++)
        a->blend[k] = (VkPipelineColorBlendAttachmentState){ .blendEnable = VK_FALSE };
    for (uint32_t i = 0; i < d->target_count; i++)
        a->blend[d->targets[i].location].colorWriteMask = dr->write_masks[i];
    return SB_SUCCESS;
}

enum sb_result sb_vk_draw_pipeline(struct sb_vk_draw *dr, VkPipeline *out, struct sb_error *error)
{
    const struct sb_rt_draw *d = dr->d;
    VkPipelineShaderStageCreateInfo stages[SB_VK_DRAW_STAGES];
    uint32_t stage_total;
    enum sb_result res = create_modules(dr, stages, &stage_total, error);
    if (res != SB_SUCCESS)
        return res;
    struct fixed_state f;
    fill_fixed(dr, &f);
    struct array_state a = { 0 };
    res = fill_arrays(dr, &a, error);
    if (res != SB_SUCCESS) {
        free(a.bindings);
        free(a.attributes);
        return res;
    }
    VkPipelineVertexInputStateCreateInfo input = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO,
        .vertexBindingDescriptionCount = d->stream_count,
        .pVertexBindingDescriptions = a.bindings,
        .vertexAttributeDescriptionCount = d->stream_count,
        .pVertexAttributeDescriptions = a.attributes,
    };
    VkPipelineColorBlendStateCreateInfo blend = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO,
        .attachmentCount = slot_count(d),
        .pAttachments = a.blend,
    };
    VkGraphicsPipelineCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO,
        .stageCount = stage_total,
        .pStages = stages,
        .pVertexInputState = &input,
        .pInputAssemblyState = &f.assembly,
        .pViewportState = &f.viewports,
        .pRasterizationState = &f.raster,
        .pMultisampleState = &f.multisample,
        .pDepthStencilState = d->depth ? &f.depth : NULL,
        .pColorBlendState = &blend,
        .layout = dr->run.layout,
        .renderPass = dr->render_pass,
        .subpass = 0,
    };
    VkResult vr = dr->c->vk.vkCreateGraphicsPipelines(dr->c->device, VK_NULL_HANDLE, 1, &info, NULL, out);
    free(a.bindings);
    free(a.attributes);
    return vr == VK_SUCCESS ? SB_SUCCESS : sb_vk_fail_call(error, "vkCreateGraphicsPipelines", vr);
}
