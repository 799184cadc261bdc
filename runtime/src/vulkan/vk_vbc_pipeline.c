/* SPDX-License-Identifier: MIT */
/*
 * The graphics pipeline of a VBC draw: shader modules made straight from the
 * file's SPIR-V blobs (copied to aligned memory: blobs start at any byte,
 * docs/vbc.md §4) after the same version and capability checks the compute
 * path makes, vertex input from the streams the checks matched to the VBC's
 * vertex inputs, and colour blend state for the fragment outputs' targets.
 * The render pass is sb_rt_draw_points' (vk_draw_pipeline.c).
 */
#include <stdlib.h>
#include <string.h>

#include "vk_vbc_private.h"

#define NAME "sb_rt_vbc_draw"

/* A 4-byte-aligned copy of a stage's SPIR-V (malloc'd), checked against the device. */
static enum sb_result load_words(struct sb_vk_vbc *v, enum sb_vbc_stage stage, uint32_t **out, size_t *count,
                                 struct sb_error *error)
{
    const struct sb_vbc_spirv *blob = sb_vbc_find_spirv(v->vbc, stage);
    *out = NULL;
    if (!blob || blob->word_count < 5)
        return sb_vk_fail(error, SB_ERROR_RUN_UNSUPPORTED, NAME ": the VBC has no %s module",
                          sb_vbc_stage_name(stage));
    *out = malloc(blob->size);
    if (!*out)
        return sb_vk_fail(error, SB_ERROR_OUT_OF_MEMORY, NAME ": out of memory");
    memcpy(*out, blob->bytes, blob->size);
    *count = blob->word_count;
    return sb_vk_check_module(v->c, *out, *count, error);
}

static enum sb_result create_module(struct sb_vk_vbc *v, const uint32_t *words, size_t count,
                                    VkShaderModule *out, struct sb_error *error)
{
    VkShaderModuleCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO,
        .codeSize = count * 4,
        .pCode = words,
    };
    VkResult vr = v->c->vk.vkCreateShaderModule(v->c->device, &info, NULL, out);
    return vr == VK_SUCCESS ? SB_SUCCESS : sb_vk_fail_call(error, "vkCreateShaderModule", vr);
}

/* The vertex and fragment modules; a point list draws the vertex module with PointSize added. */
static enum sb_result create_modules(struct sb_vk_vbc *v, struct sb_error *error)
{
    static const enum sb_vbc_stage stages[2] = { SB_VBC_STAGE_VERTEX, SB_VBC_STAGE_FRAGMENT };
    enum sb_result res = SB_SUCCESS;
    for (int s = 0; s < 2 && res == SB_SUCCESS; s++) {
        uint32_t *words = NULL;
        size_t count = 0;
        res = load_words(v, stages[s], &words, &count, error);
        if (res == SB_SUCCESS && s == 0 && v->d->topology == VK_PRIMITIVE_TOPOLOGY_POINT_LIST)
            res = sb_vk_add_point_size(words, count, &v->vertex_words, &v->vertex_word_count, error);
        bool patched = s == 0 && v->vertex_words;
        if (res == SB_SUCCESS)
            res = create_module(v, patched ? v->vertex_words : words, patched ? v->vertex_word_count : count,
                                &v->modules[s], error);
        free(words);
    }
    return res;
}

/* Colour slots of the subpass (the highest target location + 1, as the render pass has them). */
static uint32_t color_slots(const struct sb_rt_vbc_draw *d)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < d->target_count; i++)
        if (d->targets[i].location + 1 > n)
            n = d->targets[i].location + 1;
    return n;
}

/* The pipeline's state that points at arrays. */
struct arrays {
    VkVertexInputBindingDescription bindings[32];
    VkVertexInputAttributeDescription attributes[32];
    VkPipelineColorBlendAttachmentState blend[SB_VK_MAX_TARGETS];
    VkPipelineShaderStageCreateInfo stages[2];
};

static void fill_arrays(const struct sb_vk_vbc *v, struct arrays *a)
{
    const struct sb_rt_vbc_draw *d = v->d;
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
        a->blend[d->targets[i].location].colorWriteMask = VK_COLOR_COMPONENT_R_BIT | VK_COLOR_COMPONENT_G_BIT |
                                                          VK_COLOR_COMPONENT_B_BIT | VK_COLOR_COMPONENT_A_BIT;
    static const VkShaderStageFlagBits bits[2] = { VK_SHADER_STAGE_VERTEX_BIT, VK_SHADER_STAGE_FRAGMENT_BIT };
    for (int s = 0; s < 2; s++)
        a->stages[s] = (VkPipelineShaderStageCreateInfo){
            .sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
            .stage = bits[s],
            .module = v->modules[s],
            .pName = "main",
        };
}

enum sb_result sb_vk_vbc_pipeline(struct sb_vk_vbc *v, struct sb_error *error)
{
    const struct sb_rt_vbc_draw *d = v->d;
    enum sb_result res = create_modules(v, error);
    if (res != SB_SUCCESS)
        return res;
    struct arrays a;
    fill_arrays(v, &a);
    VkPipelineVertexInputStateCreateInfo input = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO,
        .vertexBindingDescriptionCount = d->stream_count,
        .pVertexBindingDescriptions = a.bindings,
        .vertexAttributeDescriptionCount = d->stream_count,
        .pVertexAttributeDescriptions = a.attributes,
    };
    VkPipelineInputAssemblyStateCreateInfo assembly = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO,
        .topology = (VkPrimitiveTopology)d->topology,
    };
    VkViewport viewport = { 0.0f, 0.0f, (float)d->width, (float)d->height, 0.0f, 1.0f };
    VkRect2D scissor = { { 0, 0 }, { d->width, d->height } };
    VkPipelineViewportStateCreateInfo viewports = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO,
        .viewportCount = 1,
        .pViewports = &viewport,
        .scissorCount = 1,
        .pScissors = &scissor,
    };
    VkPipelineRasterizationStateCreateInfo raster = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO,
        .polygonMode = VK_POLYGON_MODE_FILL,
        .cullMode = VK_CULL_MODE_NONE,
        .frontFace = VK_FRONT_FACE_COUNTER_CLOCKWISE,
        .lineWidth = 1.0f,
    };
    VkPipelineMultisampleStateCreateInfo multisample = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO,
        .rasterizationSamples = VK_SAMPLE_COUNT_1_BIT,
    };
    VkPipelineColorBlendStateCreateInfo blend = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO,
        .attachmentCount = color_slots(d),
        .pAttachments = a.blend,
    };
    VkGraphicsPipelineCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO,
        .stageCount = 2,
        .pStages = a.stages,
        .pVertexInputState = &input,
        .pInputAssemblyState = &assembly,
        .pViewportState = &viewports,
        .pRasterizationState = &raster,
        .pMultisampleState = &multisample,
        .pColorBlendState = &blend,
        .layout = v->layout,
        .renderPass = v->draw.render_pass,
        .subpass = 0,
    };
    VkResult vr = v->c->vk.vkCreateGraphicsPipelines(v->c->device, VK_NULL_HANDLE, 1, &info, NULL, &v->pipeline);
    return vr == VK_SUCCESS ? SB_SUCCESS : sb_vk_fail_call(error, "vkCreateGraphicsPipelines", vr);
}
