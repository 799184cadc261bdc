/* SPDX-License-Identifier: MIT */
/*
 * What the two graphics paths share (runtime.h: sb_rt_draw_points draws
 * translated DXBC stages, sb_rt_vbc_draw a VBC file's own SPIR-V): the render
 * pass, the graphics pipeline's state, and the recorded draw with its
 * barriers. Both describe their draw as a struct sb_vk_draw (vk_draw_private.h;
 * the VBC path through a point-draw mirror), so attachments, vertex streams
 * and targets are built once (vk_draw_target.c).
 *
 * Colour attachments are numbered in location order, so the subpass's colour
 * slot k is location k (unused where no target has that location) and the
 * fragment shader's Location decorations need no remapping; the depth
 * attachment, when there is one, comes last. Every attachment is loaded (its
 * texels were uploaded by the caller) and stored, and stays in its attachment
 * layout; the transitions around the pass are barriers recorded here and in
 * vk_draw_target.c.
 */
#include <spirv/unified1/spirv.h>
#include <stdlib.h>

#include "vk_draw_private.h"

/* Colour slots of the subpass: the highest location + 1. */
static uint32_t slot_count(const struct sb_rt_draw *d)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < d->target_count; i++)
        if (d->targets[i].location + 1 > n)
            n = d->targets[i].location + 1;
    return n;
}

/* An attachment of `samples` loaded from and stored to its image, staying in `layout`. */
static VkAttachmentDescription loaded_attachment(VkFormat format, VkImageLayout layout, uint32_t samples)
{
    return (VkAttachmentDescription){
        .format = format,
        .samples = (VkSampleCountFlagBits)samples,
        .loadOp = VK_ATTACHMENT_LOAD_OP_LOAD,
        .storeOp = VK_ATTACHMENT_STORE_OP_STORE,
        .stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE,
        .stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE,
        .initialLayout = layout,
        .finalLayout = layout,
    };
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
        attachments[a] =
            loaded_attachment(sb_vk_format(d->targets[i].format), VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
                              d->samples > 1 ? d->samples : 1);
        slots[d->targets[i].location] = (VkAttachmentReference){ a, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL };
    }
    VkAttachmentReference depth = { d->target_count, VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL };
    if (sb_vk_draw_has_ds(d)) {
        attachments[d->target_count] = loaded_attachment(sb_vk_draw_ds_format(d),
                                                         VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL, 1);
        if (d->stencil) {
            attachments[d->target_count].stencilLoadOp = VK_ATTACHMENT_LOAD_OP_LOAD;
            attachments[d->target_count].stencilStoreOp = VK_ATTACHMENT_STORE_OP_STORE;
        }
    }
    VkSubpassDescription subpass = {
        .pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS,
        .colorAttachmentCount = slot_total,
        .pColorAttachments = slot_total ? slots : NULL,
        .pDepthStencilAttachment = sb_vk_draw_has_ds(d) ? &depth : NULL,
    };
    VkRenderPassCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO,
        .attachmentCount = d->target_count + (sb_vk_draw_has_ds(d) ? 1 : 0),
        .pAttachments = attachments,
        .subpassCount = 1,
        .pSubpasses = &subpass,
    };
    VkResult vr = dr->c->vk.vkCreateRenderPass(dr->c->device, &info, NULL, &dr->render_pass);
    return vr == VK_SUCCESS ? SB_SUCCESS : sb_vk_fail_call(error, "vkCreateRenderPass", vr);
}

/* The fixed-function state that does not depend on the caller's arrays. */
struct fixed_state {
    VkViewport viewport;
    VkRect2D scissor;
    VkPipelineInputAssemblyStateCreateInfo assembly;
    VkPipelineViewportStateCreateInfo viewports;
    VkPipelineRasterizationStateCreateInfo raster;
    VkPipelineRasterizationConservativeStateCreateInfoEXT conservative;
    VkPipelineMultisampleStateCreateInfo multisample;
    VkPipelineDepthStencilStateCreateInfo depth;
    VkPipelineTessellationStateCreateInfo tessellation;
};

/* Does the fragment module declare an input evaluated per sample (OpDecorate ... Sample)? Vulkan runs
 * such a shader per sample for user inputs; the translation also puts Sample on a FragCoord that
 * D3D declares with sample interpolation, which drivers do not take as a request, so the
 * pipeline asks for sample shading itself (the module's SampleRateShading capability has been
 * checked against the device). */
static bool samples_inputs(const struct sb_translation *t)
{
    enum { OP_DECORATE = 71, DECORATION_SAMPLE = 17 };
    for (size_t i = 5; t && i < t->word_count;) {
        uint32_t length = t->words[i] >> 16, op = t->words[i] & 0xFFFFu;
        if (length == 0 || i + length > t->word_count)
            return false;
        if (op == OP_DECORATE && length >= 3 && t->words[i + 2] == DECORATION_SAMPLE)
            return true;
        i += length;
    }
    return false;
}

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
        .rasterizerDiscardEnable = dr->rasterizer_discard ? VK_TRUE : VK_FALSE,
        .polygonMode = VK_POLYGON_MODE_FILL,
        .cullMode = VK_CULL_MODE_NONE,
        .frontFace = dr->front_face,
        .lineWidth = 1.0f,
    };
    /* A pixel module reading FullyCoveredEXT (SV_InnerCoverage) gets conservative rasterization,
     * as D3D requires for it; overestimation, as D3D's. Its module is refused on a device
     * without the extension (vk_capability.c), so the state is only chained where enabled. */
    const struct sb_translation *ps = d->pixel;
    if (ps && dr->c->fully_covered &&
        sb_vk_module_declares(ps->words, ps->word_count, SpvCapabilityFragmentFullyCoveredEXT)) {
        f->conservative = (VkPipelineRasterizationConservativeStateCreateInfoEXT){
            .sType = VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_CONSERVATIVE_STATE_CREATE_INFO_EXT,
            .conservativeRasterizationMode = VK_CONSERVATIVE_RASTERIZATION_MODE_OVERESTIMATE_EXT,
            .extraPrimitiveOverestimationSize = 0.0f,
        };
        f->raster.pNext = &f->conservative;
    }
    f->multisample = (VkPipelineMultisampleStateCreateInfo){
        .sType = VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO,
        /* sb_rt_draw::samples; a shader that needs it runs per sample by itself (SampleId, Sample) */
        .rasterizationSamples = (VkSampleCountFlagBits)(d->samples > 1 ? d->samples : 1),
        .sampleShadingEnable = samples_inputs(dr->stages[SB_VK_DRAW_PS]) ? VK_TRUE : VK_FALSE,
        .minSampleShading = 1.0f,
    };
    f->depth = (VkPipelineDepthStencilStateCreateInfo){
        .sType = VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO,
        .depthTestEnable = d->depth ? VK_TRUE : VK_FALSE,
        .depthWriteEnable = d->depth ? VK_TRUE : VK_FALSE,
        .depthCompareOp = VK_COMPARE_OP_LESS_OR_EQUAL,
        /* Reference 0: what lands is the shader's FragStencilRefEXT when it exports one. */
        .stencilTestEnable = d->stencil ? VK_TRUE : VK_FALSE,
        .front = { VK_STENCIL_OP_KEEP, VK_STENCIL_OP_REPLACE, VK_STENCIL_OP_KEEP, VK_COMPARE_OP_ALWAYS, 0xFF, 0xFF, 0 },
        .back = { VK_STENCIL_OP_KEEP, VK_STENCIL_OP_REPLACE, VK_STENCIL_OP_KEEP, VK_COMPARE_OP_ALWAYS, 0xFF, 0xFF, 0 },
        .minDepthBounds = 0.0f,
        .maxDepthBounds = 1.0f,
    };
    /* Patches of the hull shader's input control points (checked in vk_draw_check.c); the VBC
     * path has no stages and never tessellates. */
    const struct sb_translation *hs = d->topology == SB_RT_TOPOLOGY_PATCH_LIST ? dr->stages[SB_VK_DRAW_HS] : NULL;
    f->tessellation = (VkPipelineTessellationStateCreateInfo){
        .sType = VK_STRUCTURE_TYPE_PIPELINE_TESSELLATION_STATE_CREATE_INFO,
        .patchControlPoints = hs ? hs->patch_control_points : 0,
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
        return sb_vk_fail(error, SB_ERROR_OUT_OF_MEMORY, "%s: out of memory", dr->name);
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

enum sb_result sb_vk_graphics_pipeline(struct sb_vk_draw *dr, const VkPipelineShaderStageCreateInfo *stages,
                                       uint32_t stage_count, VkPipelineLayout layout, VkPipeline *out,
                                       struct sb_error *error)
{
    const struct sb_rt_draw *d = dr->d;
    struct fixed_state f;
    fill_fixed(dr, &f);
    struct array_state a = { 0 };
    enum sb_result res = fill_arrays(dr, &a, error);
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
        .stageCount = stage_count,
        .pStages = stages,
        .pVertexInputState = &input,
        .pInputAssemblyState = &f.assembly,
        .pTessellationState = f.tessellation.patchControlPoints ? &f.tessellation : NULL,
        .pViewportState = &f.viewports,
        .pRasterizationState = &f.raster,
        .pMultisampleState = &f.multisample,
        .pDepthStencilState = sb_vk_draw_has_ds(d) ? &f.depth : NULL,
        .pColorBlendState = &blend,
        .layout = layout,
        .renderPass = dr->render_pass,
        .subpass = 0,
    };
    VkResult vr = dr->c->vk.vkCreateGraphicsPipelines(dr->c->device, VK_NULL_HANDLE, 1, &info, NULL, out);
    free(a.bindings);
    free(a.attributes);
    return vr == VK_SUCCESS ? SB_SUCCESS : sb_vk_fail_call(error, "vkCreateGraphicsPipelines", vr);
}

static void memory_barrier(struct sb_rt_context *c, VkCommandBuffer cmd, VkPipelineStageFlags src_stage,
                           VkAccessFlags src, VkPipelineStageFlags dst_stage, VkAccessFlags dst)
{
    VkMemoryBarrier b = { .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER, .srcAccessMask = src, .dstAccessMask = dst };
    c->vk.vkCmdPipelineBarrier(cmd, src_stage, dst_stage, 0, 1, &b, 0, NULL, 0, NULL);
}

static void record_draw(struct sb_vk_draw *dr, const struct sb_vk_graphics_bind *b, VkCommandBuffer cmd)
{
    struct sb_rt_context *c = dr->c;
    const struct sb_rt_draw *d = dr->d;
    VkRenderPassBeginInfo begin = {
        .sType = VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO,
        .renderPass = dr->render_pass,
        .framebuffer = dr->framebuffer,
        .renderArea = { { 0, 0 }, { d->width, d->height } },
    };
    c->vk.vkCmdBeginRenderPass(cmd, &begin, VK_SUBPASS_CONTENTS_INLINE);
    c->vk.vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, b->pipeline);
    if (b->set_count)
        c->vk.vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, b->layout, 0, b->set_count, b->sets,
                                      b->dynamic_offset_count, b->dynamic_offsets);
    if (b->push_size)
        c->vk.vkCmdPushConstants(cmd, b->layout, b->push_stages, 0, b->push_size, b->push);
    for (uint32_t i = 0; i < d->stream_count; i++) {
        VkDeviceSize offset = 0;
        c->vk.vkCmdBindVertexBuffers(cmd, i, 1, &dr->vertex_buffers[i].buffer, &offset);
    }
    c->vk.vkCmdDraw(cmd, d->vertex_count, 1, 0, 0);
    c->vk.vkCmdEndRenderPass(cmd);
}

enum sb_result sb_vk_graphics_run(struct sb_vk_draw *dr, const struct sb_vk_graphics_bind *b,
                                  void (*record_readback)(void *context, VkCommandBuffer cmd), void *context,
                                  struct sb_error *error)
{
    struct sb_rt_context *c = dr->c;
    VkCommandBuffer cmd;
    enum sb_result res = sb_vk_command_begin(c, &cmd, error);
    if (res != SB_SUCCESS)
        return res;
    /* The staged texture uploads (made visible to compute by vk_image.c) reach every graphics stage. */
    memory_barrier(c, cmd, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, VK_ACCESS_TRANSFER_WRITE_BIT,
                   VK_PIPELINE_STAGE_ALL_GRAPHICS_BIT, VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
    record_draw(dr, b, cmd);
    /* Chains the shaders' writes into vk_image.c's read-back barrier, which starts at compute. */
    memory_barrier(c, cmd, VK_PIPELINE_STAGE_ALL_GRAPHICS_BIT, VK_ACCESS_SHADER_WRITE_BIT,
                   VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT,
                   VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_READ_BIT);
    record_readback(context, cmd);
    sb_vk_draw_targets_record_readback(dr, cmd);
    memory_barrier(c, cmd, VK_PIPELINE_STAGE_ALL_GRAPHICS_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT,
                   VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_HOST_BIT,
                   VK_ACCESS_HOST_READ_BIT);
    return sb_vk_command_submit(c, cmd, error);
}
