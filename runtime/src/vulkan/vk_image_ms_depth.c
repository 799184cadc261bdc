/* SPDX-License-Identifier: MIT */
/*
 * Multisampled depth textures (texture2dms / texture2dmsarray of d32_float,
 * d16_unorm or d24_unorm_s8_uint, as resolve shaders read them): filled with
 * the per-sample texels of resources.h by a render pass. The colour path of
 * vk_image_ms.c cannot serve them: depth formats have no storage use and no
 * colour format to alias. Here each layer is drawn once into the depth
 * attachment with one triangle over the viewport, the fragment shader running
 * per sample (it reads SampleId) and writing the sample's depth from the
 * staging buffer (vk_ms_depth_shader.c), depth test ALWAYS, writes on.
 *
 * d32_float texels are written as their bits, so they must lie in [0, 1]
 * (a depth attachment clamps to the viewport's range): others, and NaN, are
 * refused with SB_ERROR_RUN_UNSUPPORTED naming the texel. d16 / d24 codes are
 * written as code / (2^n - 1), which the attachment converts back to the code.
 * The stencil byte of d24_unorm_s8_uint is not written (cleared to 0): shaders
 * see the depth only (resources.h). Also refused: a device without
 * sampleRateShading, or without the sample count for the format.
 */
#include <stdlib.h>
#include <string.h>

#include "vk_private.h"

struct sb_vk_ms_depth {
    uint32_t width, height, samples, layers;
    uint32_t texel_bytes, mask, unorm;
    float denominator;
    VkImageView *attachments;  /* one per layer */
    VkFramebuffer *framebuffers;
    VkRenderPass pass;
    VkDescriptorSetLayout set_layout;
    VkPipelineLayout layout;
    VkShaderModule vertex, fragment;
    VkPipeline pipeline;
    VkDescriptorPool pool;
    VkDescriptorSet set;
};

/* What the fragment shader reads from its push constants (in this order). */
struct depth_constants {
    uint32_t width, height, samples, layer, texel_bytes, mask, unorm;
    float denominator;
};

static VkImageAspectFlags aspects(const struct sb_rt_resource *r)
{
    return VK_IMAGE_ASPECT_DEPTH_BIT |
           (r->format == SB_RT_FORMAT_D24_UNORM_S8_UINT ? VK_IMAGE_ASPECT_STENCIL_BIT : 0);
}

static enum sb_result check(struct sb_rt_context *c, const struct sb_rt_resource *r, const struct sb_vk_dimension *d,
                            VkFormat format, struct sb_error *error)
{
    const char *name = sb_rt_format_name((enum sb_rt_format)r->format);
    uint32_t samples = r->sample_count, layers = r->layers ? r->layers : 1;
    if (samples < 2 || samples > 64 || (samples & (samples - 1)))
        return sb_vk_fail(error, SB_ERROR_RUN_UNSUPPORTED, "%s register %u has %u samples: Vulkan binds a "
                          "multisampled image to it, which has 2, 4, 8, 16, 32 or 64 samples", d->name,
                          r->register_index, samples);
    if ((r->mip_levels ? r->mip_levels : 1) != 1)
        return sb_vk_fail(error, SB_ERROR_INVALID_ARGUMENT, "%s register %u has %u mip levels; a multisampled "
                          "texture has 1", d->name, r->register_index, r->mip_levels);
    if (!c->features.sampleRateShading)
        return sb_vk_fail(error, SB_ERROR_RUN_UNSUPPORTED, "%.60s lacks sampleRateShading, which filling a "
                          "multisampled depth texture sample by sample needs", c->device_name);
    VkFormatProperties props;
    vkGetPhysicalDeviceFormatProperties(c->physical, format, &props);
    VkFormatFeatureFlags need = VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT | VK_FORMAT_FEATURE_DEPTH_STENCIL_ATTACHMENT_BIT;
    VkImageFormatProperties limits;
    VkResult vr = (props.optimalTilingFeatures & need) != need ? VK_ERROR_FORMAT_NOT_SUPPORTED
                  : vkGetPhysicalDeviceImageFormatProperties(c->physical, format, VK_IMAGE_TYPE_2D,
                                                             VK_IMAGE_TILING_OPTIMAL, VK_IMAGE_USAGE_SAMPLED_BIT |
                                                             VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT, 0, &limits);
    if (vr != VK_SUCCESS && vr != VK_ERROR_FORMAT_NOT_SUPPORTED)
        return sb_vk_fail_call(error, "vkGetPhysicalDeviceImageFormatProperties", vr);
    if (vr == VK_ERROR_FORMAT_NOT_SUPPORTED || !(limits.sampleCounts & samples))
        return sb_vk_fail(error, SB_ERROR_RUN_UNSUPPORTED, "%.60s has no %u-sample sampled depth attachments of "
                          "format %s (its sample counts 0x%x)", c->device_name, samples, name,
                          vr == VK_SUCCESS ? limits.sampleCounts : 0);
    if (r->width > limits.maxExtent.width || r->height > limits.maxExtent.height || layers > limits.maxArrayLayers ||
        r->width > c->properties.limits.maxFramebufferWidth || r->height > c->properties.limits.maxFramebufferHeight)
        return sb_vk_fail(error, SB_ERROR_RUN_UNSUPPORTED, "%s %ux%u with %u layers exceeds the limits of %.60s",
                          d->name, r->width, r->height, layers, c->device_name);
    /* A d32_float texel the attachment cannot hold: the first one outside [0, 1]. */
    if (r->format == SB_RT_FORMAT_D32_FLOAT && r->data)
        for (size_t i = 0; i < sb_rt_texture_bytes(r) / 4; i++) {
            float v;
            memcpy(&v, (const uint8_t *)r->data + 4 * i, 4);
            if (!(v >= 0.0f && v <= 1.0f))
                return sb_vk_fail(error, SB_ERROR_RUN_UNSUPPORTED, "%s register %u: d32_float sample %zu is %g; "
                                  "a depth attachment holds [0, 1] only, so the device cannot be given it",
                                  d->name, r->register_index, i, (double)v);
        }
    return SB_SUCCESS;
}

static enum sb_result create_view(struct sb_rt_context *c, VkImage image, VkImageViewType type, VkFormat format,
                                  VkImageAspectFlags aspect, uint32_t first, uint32_t layers, VkImageView *out,
                                  struct sb_error *error)
{
    VkImageViewCreateInfo view = {
        .sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO,
        .image = image,
        .viewType = type,
        .format = format,
        .subresourceRange = { aspect, 0, 1, first, layers },
    };
    VkResult vr = c->vk.vkCreateImageView(c->device, &view, NULL, out);
    return vr == VK_SUCCESS ? SB_SUCCESS : sb_vk_fail_call(error, "vkCreateImageView", vr);
}

static enum sb_result create_render_pass(struct sb_rt_context *c, const struct sb_rt_resource *r, VkFormat format,
                                         struct sb_vk_ms_depth *f, struct sb_error *error)
{
    bool stencil = r->format == SB_RT_FORMAT_D24_UNORM_S8_UINT;
    VkAttachmentDescription attachment = {
        .format = format,
        .samples = (VkSampleCountFlagBits)f->samples,
        .loadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE,
        .storeOp = VK_ATTACHMENT_STORE_OP_STORE,
        .stencilLoadOp = stencil ? VK_ATTACHMENT_LOAD_OP_CLEAR : VK_ATTACHMENT_LOAD_OP_DONT_CARE,
        .stencilStoreOp = stencil ? VK_ATTACHMENT_STORE_OP_STORE : VK_ATTACHMENT_STORE_OP_DONT_CARE,
        .initialLayout = VK_IMAGE_LAYOUT_UNDEFINED,
        .finalLayout = VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL,
    };
    VkAttachmentReference depth = { 0, VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL };
    VkSubpassDescription subpass = {
        .pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS,
        .pDepthStencilAttachment = &depth,
    };
    /* The shaders of the run read the texture after the pass. */
    VkSubpassDependency after = {
        .srcSubpass = 0,
        .dstSubpass = VK_SUBPASS_EXTERNAL,
        .srcStageMask = VK_PIPELINE_STAGE_EARLY_FRAGMENT_TESTS_BIT | VK_PIPELINE_STAGE_LATE_FRAGMENT_TESTS_BIT,
        .dstStageMask = VK_PIPELINE_STAGE_VERTEX_SHADER_BIT | VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT |
                        VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
        .srcAccessMask = VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT,
        .dstAccessMask = VK_ACCESS_SHADER_READ_BIT,
    };
    VkRenderPassCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO,
        .attachmentCount = 1, .pAttachments = &attachment,
        .subpassCount = 1, .pSubpasses = &subpass,
        .dependencyCount = 1, .pDependencies = &after,
    };
    VkResult vr = c->vk.vkCreateRenderPass(c->device, &info, NULL, &f->pass);
    return vr == VK_SUCCESS ? SB_SUCCESS : sb_vk_fail_call(error, "vkCreateRenderPass", vr);
}

static enum sb_result create_module(struct sb_rt_context *c, size_t (*shader)(uint32_t *, size_t),
                                    VkShaderModule *out, struct sb_error *error)
{
    uint32_t words[SB_VK_MS_FILL_WORDS];
    size_t count = shader(words, SB_VK_MS_FILL_WORDS);
    if (!count)
        return sb_vk_fail(error, SB_ERROR_VULKAN, "a multisample depth fill shader does not fit %u words",
                          SB_VK_MS_FILL_WORDS);
    return sb_vk_shader_module(c, words, count, out, error);
}

static enum sb_result create_pipeline(struct sb_rt_context *c, struct sb_vk_ms_depth *f, struct sb_error *error)
{
    const VkDescriptorSetLayoutBinding binding = { 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1,
                                                   VK_SHADER_STAGE_FRAGMENT_BIT, NULL };
    enum sb_result res = sb_vk_one_set_layout(c, &binding, 1, VK_SHADER_STAGE_FRAGMENT_BIT,
                                              sizeof(struct depth_constants), &f->set_layout, &f->layout, error);
    if (res == SB_SUCCESS)
        res = create_module(c, sb_vk_ms_depth_vertex_shader, &f->vertex, error);
    if (res == SB_SUCCESS)
        res = create_module(c, sb_vk_ms_depth_fragment_shader, &f->fragment, error);
    if (res != SB_SUCCESS)
        return res;
    const VkPipelineShaderStageCreateInfo stages[2] = {
        { .sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, .stage = VK_SHADER_STAGE_VERTEX_BIT,
          .module = f->vertex, .pName = "main" },
        { .sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, .stage = VK_SHADER_STAGE_FRAGMENT_BIT,
          .module = f->fragment, .pName = "main" },
    };
    VkPipelineVertexInputStateCreateInfo input = { .sType = VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO };
    VkPipelineInputAssemblyStateCreateInfo assembly = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO,
        .topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST,
    };
    VkViewport viewport = { 0.0f, 0.0f, (float)f->width, (float)f->height, 0.0f, 1.0f };
    VkRect2D scissor = { { 0, 0 }, { f->width, f->height } };
    VkPipelineViewportStateCreateInfo viewports = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO,
        .viewportCount = 1, .pViewports = &viewport, .scissorCount = 1, .pScissors = &scissor,
    };
    VkPipelineRasterizationStateCreateInfo raster = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO,
        .polygonMode = VK_POLYGON_MODE_FILL, .cullMode = VK_CULL_MODE_NONE,
        .frontFace = VK_FRONT_FACE_COUNTER_CLOCKWISE, .lineWidth = 1.0f,
    };
    VkPipelineMultisampleStateCreateInfo multisample = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO,
        .rasterizationSamples = (VkSampleCountFlagBits)f->samples,
        .sampleShadingEnable = VK_TRUE, /* one invocation per sample (SampleId asks for it too) */
        .minSampleShading = 1.0f,
    };
    VkPipelineDepthStencilStateCreateInfo depth = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO,
        .depthTestEnable = VK_TRUE, .depthWriteEnable = VK_TRUE, .depthCompareOp = VK_COMPARE_OP_ALWAYS,
        .minDepthBounds = 0.0f, .maxDepthBounds = 1.0f,
    };
    VkGraphicsPipelineCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO,
        .stageCount = 2, .pStages = stages,
        .pVertexInputState = &input, .pInputAssemblyState = &assembly, .pViewportState = &viewports,
        .pRasterizationState = &raster, .pMultisampleState = &multisample, .pDepthStencilState = &depth,
        .layout = f->layout, .renderPass = f->pass,
    };
    VkResult vr = c->vk.vkCreateGraphicsPipelines(c->device, VK_NULL_HANDLE, 1, &info, NULL, &f->pipeline);
    return vr == VK_SUCCESS ? SB_SUCCESS : sb_vk_fail_call(error, "vkCreateGraphicsPipelines", vr);
}

static enum sb_result create_set(struct sb_rt_context *c, struct sb_vk_ms_depth *f, const struct sb_vk_buffer *staging,
                                 struct sb_error *error)
{
    const VkDescriptorPoolSize size = { VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1 };
    enum sb_result res = sb_vk_one_set(c, &size, 1, f->set_layout, &f->pool, &f->set, error);
    if (res != SB_SUCCESS)
        return res;
    VkDescriptorBufferInfo buffer = { staging->buffer, 0, VK_WHOLE_SIZE };
    VkWriteDescriptorSet write = {
        .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .dstSet = f->set, .dstBinding = 0,
        .descriptorCount = 1, .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, .pBufferInfo = &buffer,
    };
    c->vk.vkUpdateDescriptorSets(c->device, 1, &write, 0, NULL);
    return SB_SUCCESS;
}

/* One attachment view and framebuffer per layer (a render pass instance draws one layer). */
static enum sb_result create_framebuffers(struct sb_rt_context *c, const struct sb_rt_resource *r, VkFormat format,
                                          struct sb_vk_image *img, struct sb_vk_ms_depth *f, struct sb_error *error)
{
    f->attachments = calloc(f->layers, sizeof(*f->attachments));
    f->framebuffers = calloc(f->layers, sizeof(*f->framebuffers));
    if (!f->attachments || !f->framebuffers)
        return sb_vk_fail(error, SB_ERROR_OUT_OF_MEMORY, "out of memory for a multisampled depth texture");
    for (uint32_t k = 0; k < f->layers; k++) {
        enum sb_result res = create_view(c, img->image, VK_IMAGE_VIEW_TYPE_2D, format, aspects(r), k, 1,
                                         &f->attachments[k], error);
        if (res != SB_SUCCESS)
            return res;
        VkFramebufferCreateInfo info = {
            .sType = VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO, .renderPass = f->pass, .attachmentCount = 1,
            .pAttachments = &f->attachments[k], .width = f->width, .height = f->height, .layers = 1,
        };
        VkResult vr = c->vk.vkCreateFramebuffer(c->device, &info, NULL, &f->framebuffers[k]);
        if (vr != VK_SUCCESS)
            return sb_vk_fail_call(error, "vkCreateFramebuffer", vr);
    }
    return SB_SUCCESS;
}

enum sb_result sb_vk_image_ms_depth_create(struct sb_rt_context *c, const struct sb_rt_resource *r,
                                           const struct sb_vk_dimension *d, struct sb_vk_image *out,
                                           struct sb_error *error)
{
    VkFormat format = sb_vk_format(r->format);
    enum sb_result res = check(c, r, d, format, error);
    if (res != SB_SUCCESS)
        return res;
    struct sb_vk_ms_depth *f = calloc(1, sizeof(*f));
    if (!f)
        return sb_vk_fail(error, SB_ERROR_OUT_OF_MEMORY, "out of memory for a multisampled depth texture");
    out->ms_depth = f;
    f->width = r->width;
    f->height = r->height;
    f->samples = r->sample_count;
    f->layers = r->layers ? r->layers : 1;
    f->texel_bytes = sb_rt_format_size((enum sb_rt_format)r->format);
    f->unorm = r->format != SB_RT_FORMAT_D32_FLOAT;
    f->mask = r->format == SB_RT_FORMAT_D16_UNORM ? 0xFFFFu : r->format == SB_RT_FORMAT_D24_UNORM_S8_UINT ? 0xFFFFFFu
                                                                                                       : 0xFFFFFFFFu;
    f->denominator = r->format == SB_RT_FORMAT_D16_UNORM ? 65535.0f : r->format == SB_RT_FORMAT_D24_UNORM_S8_UINT
                                                                       ? 16777215.0f : 1.0f;
    out->mip_levels = 1;
    out->layers = f->layers;
    out->aspect = VK_IMAGE_ASPECT_DEPTH_BIT; /* the sampled view: shaders see the depth */
    out->layout_aspect = aspects(r);
    out->layout = VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL;
    VkImageCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO,
        .imageType = VK_IMAGE_TYPE_2D,
        .format = format,
        .extent = { r->width, r->height, 1 },
        .mipLevels = 1,
        .arrayLayers = f->layers,
        .samples = (VkSampleCountFlagBits)r->sample_count,
        .tiling = VK_IMAGE_TILING_OPTIMAL,
        .usage = VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT,
        .sharingMode = VK_SHARING_MODE_EXCLUSIVE,
        .initialLayout = VK_IMAGE_LAYOUT_UNDEFINED,
    };
    res = sb_vk_image_memory(c, &info, "a multisampled depth image", out, error);
    if (res == SB_SUCCESS)
        res = create_view(c, out->image, d->view_type, format, VK_IMAGE_ASPECT_DEPTH_BIT, 0, f->layers, &out->view,
                          error);
    size_t bytes = sb_rt_texture_bytes(r);
    if (res == SB_SUCCESS)
        res = sb_vk_buffer_create(c, (bytes + 3) & ~(VkDeviceSize)3,
                                  VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT, r->data,
                                  r->data ? bytes : 0, &out->staging, error);
    if (res == SB_SUCCESS)
        res = create_render_pass(c, r, format, f, error);
    if (res == SB_SUCCESS)
        res = create_pipeline(c, f, error);
    if (res == SB_SUCCESS)
        res = create_set(c, f, &out->staging, error);
    if (res == SB_SUCCESS)
        res = create_framebuffers(c, r, format, out, f, error);
    return res;
}

void sb_vk_image_ms_depth_record_upload(struct sb_rt_context *c, VkCommandBuffer cmd, const struct sb_vk_image *img)
{
    const struct sb_vk_ms_depth *f = img->ms_depth;
    struct depth_constants k = {
        .width = f->width, .height = f->height, .samples = f->samples, .layer = 0,
        .texel_bytes = f->texel_bytes, .mask = f->mask, .unorm = f->unorm, .denominator = f->denominator,
    };
    VkClearValue clear = { .depthStencil = { 0.0f, 0 } };
    for (uint32_t layer = 0; layer < f->layers; layer++) {
        VkRenderPassBeginInfo begin = {
            .sType = VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO, .renderPass = f->pass,
            .framebuffer = f->framebuffers[layer], .renderArea = { { 0, 0 }, { f->width, f->height } },
            .clearValueCount = 1, .pClearValues = &clear,
        };
        c->vk.vkCmdBeginRenderPass(cmd, &begin, VK_SUBPASS_CONTENTS_INLINE);
        c->vk.vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, f->pipeline);
        c->vk.vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, f->layout, 0, 1, &f->set, 0, NULL);
        k.layer = layer;
        c->vk.vkCmdPushConstants(cmd, f->layout, VK_SHADER_STAGE_FRAGMENT_BIT, 0, sizeof(k), &k);
        c->vk.vkCmdDraw(cmd, 3, 1, 0, 0);
        c->vk.vkCmdEndRenderPass(cmd);
    }
}

void sb_vk_image_ms_depth_destroy(struct sb_rt_context *c, struct sb_vk_ms_depth *f)
{
    if (!f)
        return;
    for (uint32_t k = 0; f->framebuffers && k < f->layers; k++)
        if (f->framebuffers[k])
            c->vk.vkDestroyFramebuffer(c->device, f->framebuffers[k], NULL);
    for (uint32_t k = 0; f->attachments && k < f->layers; k++)
        if (f->attachments[k])
            c->vk.vkDestroyImageView(c->device, f->attachments[k], NULL);
    sb_vk_pass_objects_destroy(c, f->pool, f->pipeline, f->vertex, f->layout, f->set_layout);
    if (f->fragment)
        c->vk.vkDestroyShaderModule(c->device, f->fragment, NULL);
    if (f->pass)
        c->vk.vkDestroyRenderPass(c->device, f->pass, NULL);
    free(f->attachments);
    free(f->framebuffers);
    free(f);
}
