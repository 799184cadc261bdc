/* SPDX-License-Identifier: MIT */
/*
 * Every sample of a multisampled colour target of sb_rt_draw_points, read back
 * into its staging buffer. Vulkan copies no multisampled image to a buffer
 * (vkCmdCopyImageToBuffer needs one sample) and a resolve would merge the
 * samples, so after the draw a compute pass fetches each sample of the target
 * (sampled as a multisampled image, vk_ms_readback_shader.c) and stores its four
 * 32-bit channels in the resources.h layout of multisampled textures: each
 * pixel's samples in a row. Targets are R32G32B32A32 float / uint / sint, so the
 * words are the channels' bits.
 */
#include <stdlib.h>
#include <string.h>

#include "vk_private.h"

struct sb_vk_ms_readback {
    uint32_t width, height, samples;
    VkDescriptorSetLayout set_layout;
    VkPipelineLayout layout;
    VkShaderModule module;
    VkPipeline pipeline;
    VkDescriptorPool pool;
    VkDescriptorSet set;
};

static enum sb_result create_pipeline(struct sb_rt_context *c, struct sb_vk_ms_readback *f, uint32_t component_type,
                                      struct sb_error *error)
{
    const VkDescriptorSetLayoutBinding bindings[2] = {
        { 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL },
        { 1, VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL },
    };
    enum sb_result res = sb_vk_one_set_layout(c, bindings, 2, VK_SHADER_STAGE_COMPUTE_BIT, 3 * sizeof(uint32_t),
                                              &f->set_layout, &f->layout, error);
    if (res != SB_SUCCESS)
        return res;
    uint32_t words[SB_VK_MS_FILL_WORDS];
    size_t count = sb_vk_ms_readback_shader(component_type, words, SB_VK_MS_FILL_WORDS);
    if (!count)
        return sb_vk_fail(error, SB_ERROR_VULKAN, "the multisample read-back shader does not fit %u words",
                          SB_VK_MS_FILL_WORDS);
    res = sb_vk_shader_module(c, words, count, &f->module, error);
    return res == SB_SUCCESS ? sb_vk_compute_pipeline(c, f->module, "main", f->layout, &f->pipeline, error) : res;
}

static enum sb_result create_set(struct sb_rt_context *c, struct sb_vk_ms_readback *f, const struct sb_vk_image *img,
                                 struct sb_error *error)
{
    const VkDescriptorPoolSize sizes[2] = {
        { VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1 }, { VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE, 1 },
    };
    enum sb_result res = sb_vk_one_set(c, sizes, 2, f->set_layout, &f->pool, &f->set, error);
    if (res != SB_SUCCESS)
        return res;
    sb_vk_write_buffer_image_set(c, f->set, img->staging.buffer, img->view, VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE,
                                 VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL);
    return SB_SUCCESS;
}

enum sb_result sb_vk_ms_readback_create(struct sb_rt_context *c, struct sb_vk_image *img, uint32_t width,
                                        uint32_t height, uint32_t samples, uint32_t component_type,
                                        struct sb_error *error)
{
    struct sb_vk_ms_readback *f = calloc(1, sizeof(*f));
    if (!f)
        return sb_vk_fail(error, SB_ERROR_OUT_OF_MEMORY, "out of memory for a multisampled target");
    img->ms_readback = f;
    f->width = width;
    f->height = height;
    f->samples = samples;
    enum sb_result res = create_pipeline(c, f, component_type, error);
    return res == SB_SUCCESS ? create_set(c, f, img, error) : res;
}

void sb_vk_ms_readback_record(struct sb_rt_context *c, VkCommandBuffer cmd, const struct sb_vk_image *img)
{
    const struct sb_vk_ms_readback *f = img->ms_readback;
    VkImageMemoryBarrier to_read = {
        .sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER,
        .srcAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT,
        .dstAccessMask = VK_ACCESS_SHADER_READ_BIT,
        .oldLayout = img->layout,
        .newLayout = VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL,
        .srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
        .dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
        .image = img->image,
        .subresourceRange = { VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1 },
    };
    c->vk.vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                               0, 0, NULL, 0, NULL, 1, &to_read);
    c->vk.vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, f->pipeline);
    c->vk.vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, f->layout, 0, 1, &f->set, 0, NULL);
    const uint32_t k[3] = { f->width, f->height, f->samples };
    c->vk.vkCmdPushConstants(cmd, f->layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(k), k);
    c->vk.vkCmdDispatch(cmd, (f->width + 7) / 8, (f->height + 7) / 8, f->samples);
    VkMemoryBarrier to_host = {
        .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
        .srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT,
        .dstAccessMask = VK_ACCESS_HOST_READ_BIT,
    };
    c->vk.vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &to_host,
                               0, NULL, 0, NULL);
}

void sb_vk_ms_readback_destroy(struct sb_rt_context *c, struct sb_vk_ms_readback *f)
{
    if (!f)
        return;
    sb_vk_pass_objects_destroy(c, f->pool, f->pipeline, f->module, f->layout, f->set_layout);
    free(f);
}
