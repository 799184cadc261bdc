/* SPDX-License-Identifier: MIT */
/*
 * Multisampled textures (t# of dimension texture2dms / texture2dmsarray) filled
 * with the per-sample texels of resources.h, so the device reads what the
 * interpreter reads. Vulkan cannot copy a buffer into a multisampled image
 * (vkCmdCopyBufferToImage requires one sample), so a compute pass writes each
 * sample through a storage view instead:
 *
 *   - the image is created in the unsigned-integer format of the texel's size
 *     (r8 / r16 / r32 / r32g32 / r32g32b32a32 _uint) with MUTABLE_FORMAT, so
 *     the shader stores each texel's bits unchanged whatever the texture's
 *     format; the shader samples it through a view in its own format (the two
 *     are in one size-compatibility class), each view restricted to its own
 *     usage (VkImageViewUsageCreateInfo, Vulkan 1.1);
 *   - the fill shader (vk_ms_fill_shader.c) runs one invocation per texel and
 *     sample, reading the staging buffer as a storage buffer.
 * Depth formats, which have neither, go through vk_image_ms_depth.c.
 *
 * A render pass writing each sample from a sample-rate fragment shader would
 * do too, but lavapipe (and other drivers) have no multisampled integer colour
 * attachments (framebufferIntegerColorSampleCounts = 1), while storage images
 * with samples are common (shaderStorageImageMultisample). What is refused,
 * with SB_ERROR_RUN_UNSUPPORTED naming it: a device without that feature (or
 * without shaderStorageImageExtendedFormats for 1-, 2- and 8-byte texels) or
 * Vulkan 1.1, a sample count the device lacks for the format, block-compressed
 * formats, and one sample (a translated texture2dms
 * is a multisampled SPIR-V image, which Vulkan binds to images of 2 or more
 * samples only).
 */
#include <stdlib.h>
#include <string.h>

#include "vk_private.h"

struct sb_vk_ms_fill {
    uint32_t texel_bytes, samples, width, height;
    VkImageView storage_view;
    VkDescriptorSetLayout set_layout;
    VkPipelineLayout layout;
    VkShaderModule module;
    VkPipeline pipeline;
    VkDescriptorPool pool;
    VkDescriptorSet set;
};

/* What the shader reads from its push constants (vk_ms_fill_shader.c, in this order). */
struct fill_constants {
    uint32_t width, height, samples, texel_bytes, mask;
};

static VkFormat alias_format(uint32_t texel_bytes)
{
    switch (texel_bytes) {
    case 1: return VK_FORMAT_R8_UINT;
    case 2: return VK_FORMAT_R16_UINT;
    case 4: return VK_FORMAT_R32_UINT;
    case 8: return VK_FORMAT_R32G32_UINT;
    case 16: return VK_FORMAT_R32G32B32A32_UINT;
    default: return VK_FORMAT_UNDEFINED;
    }
}

/* What the resource and the device must allow before anything is created. */
static enum sb_result check(struct sb_rt_context *c, const struct sb_rt_resource *r, const struct sb_vk_dimension *d,
                            VkFormat format, VkFormat alias, struct sb_error *error)
{
    const char *name = sb_rt_format_name((enum sb_rt_format)r->format);
    uint32_t samples = r->sample_count, layers = r->layers ? r->layers : 1;
    if (alias == VK_FORMAT_UNDEFINED || sb_rt_format_block_extent((enum sb_rt_format)r->format) != 1)
        return sb_vk_fail(error, SB_ERROR_RUN_UNSUPPORTED, "%s register %u has format %s: multisampled colour "
                          "textures are filled through an unsigned-integer view of the same texel size, which "
                          "block-compressed formats do not have (nor does Vulkan multisample them)", d->name,
                          r->register_index, name);
    if (samples < 2 || samples > 64 || (samples & (samples - 1)))
        return sb_vk_fail(error, SB_ERROR_RUN_UNSUPPORTED, "%s register %u has %u samples: Vulkan binds a "
                          "multisampled image to it, which has 2, 4, 8, 16, 32 or 64 samples", d->name,
                          r->register_index, samples);
    if ((r->mip_levels ? r->mip_levels : 1) != 1)
        return sb_vk_fail(error, SB_ERROR_INVALID_ARGUMENT, "%s register %u has %u mip levels; a multisampled "
                          "texture has 1", d->name, r->register_index, r->mip_levels);
    if (c->api_version < VK_API_VERSION_1_1)
        return sb_vk_fail(error, SB_ERROR_RUN_UNSUPPORTED, "multisampled textures need Vulkan 1.1 (image view "
                          "usage) to be filled; %.60s offers %u.%u", c->device_name,
                          VK_API_VERSION_MAJOR(c->api_version), VK_API_VERSION_MINOR(c->api_version));
    if (!c->features.shaderStorageImageMultisample)
        return sb_vk_fail(error, SB_ERROR_RUN_UNSUPPORTED, "%.60s lacks shaderStorageImageMultisample, which "
                          "filling a multisampled texture sample by sample needs", c->device_name);
    if (alias != VK_FORMAT_R32_UINT && alias != VK_FORMAT_R32G32B32A32_UINT &&
        !c->features.shaderStorageImageExtendedFormats)
        return sb_vk_fail(error, SB_ERROR_RUN_UNSUPPORTED, "%.60s lacks shaderStorageImageExtendedFormats, which "
                          "filling a multisampled %s texture needs", c->device_name, name);
    VkFormatProperties props, alias_props;
    vkGetPhysicalDeviceFormatProperties(c->physical, format, &props);
    vkGetPhysicalDeviceFormatProperties(c->physical, alias, &alias_props);
    if (!(props.optimalTilingFeatures & VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT) ||
        !(alias_props.optimalTilingFeatures & VK_FORMAT_FEATURE_STORAGE_IMAGE_BIT))
        return sb_vk_fail(error, SB_ERROR_RUN_UNSUPPORTED, "format %s cannot be a multisampled texture on %.60s "
                          "(sampled, with a storage view of its texel size)", name, c->device_name);
    /* Both formats' limits for this shape: the image's own (alias, both usages) and the view's. */
    const struct { VkFormat format; VkImageUsageFlags usage; } uses[2] = {
        { alias, VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_STORAGE_BIT },
        { format, VK_IMAGE_USAGE_SAMPLED_BIT },
    };
    for (uint32_t i = 0; i < 2; i++) {
        VkImageFormatProperties limits;
        VkResult vr = vkGetPhysicalDeviceImageFormatProperties(c->physical, uses[i].format, VK_IMAGE_TYPE_2D,
                                                               VK_IMAGE_TILING_OPTIMAL, uses[i].usage,
                                                               VK_IMAGE_CREATE_MUTABLE_FORMAT_BIT, &limits);
        if (vr != VK_SUCCESS && vr != VK_ERROR_FORMAT_NOT_SUPPORTED)
            return sb_vk_fail_call(error, "vkGetPhysicalDeviceImageFormatProperties", vr);
        if (vr == VK_ERROR_FORMAT_NOT_SUPPORTED || !(limits.sampleCounts & samples))
            return sb_vk_fail(error, SB_ERROR_RUN_UNSUPPORTED, "%.60s has no %u-sample %s images (format %s; "
                              "its sample counts 0x%x)", c->device_name, samples, i ? "sampled" : "storage",
                              i ? name : "of the texel size", vr == VK_SUCCESS ? limits.sampleCounts : 0);
        if (r->width > limits.maxExtent.width || r->height > limits.maxExtent.height ||
            layers > limits.maxArrayLayers)
            return sb_vk_fail(error, SB_ERROR_RUN_UNSUPPORTED, "%s %ux%u with %u layers exceeds the limits of "
                              "%.60s", d->name, r->width, r->height, layers, c->device_name);
    }
    if ((uint64_t)layers * samples > c->properties.limits.maxComputeWorkGroupCount[2])
        return sb_vk_fail(error, SB_ERROR_RUN_UNSUPPORTED, "%s with %u layers of %u samples needs more fill "
                          "groups than %.60s dispatches", d->name, layers, samples, c->device_name);
    return SB_SUCCESS;
}

static enum sb_result create_view(struct sb_rt_context *c, VkImage image, VkImageViewType type, VkFormat format,
                                  VkImageUsageFlags usage, uint32_t layers, VkImageView *out, struct sb_error *error)
{
    VkImageViewUsageCreateInfo restrict_usage = {
        .sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_USAGE_CREATE_INFO,
        .usage = usage,
    };
    VkImageViewCreateInfo view = {
        .sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO,
        .pNext = &restrict_usage,
        .image = image,
        .viewType = type,
        .format = format,
        .subresourceRange = { VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, layers },
    };
    VkResult vr = c->vk.vkCreateImageView(c->device, &view, NULL, out);
    return vr == VK_SUCCESS ? SB_SUCCESS : sb_vk_fail_call(error, "vkCreateImageView", vr);
}

/* The compute pipeline and its descriptor set (storage buffer 0, storage image 1). */
static enum sb_result create_pass(struct sb_rt_context *c, struct sb_vk_ms_fill *f, struct sb_error *error)
{
    const VkDescriptorSetLayoutBinding bindings[2] = {
        { 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL },
        { 1, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL },
    };
    enum sb_result res = sb_vk_one_set_layout(c, bindings, 2, VK_SHADER_STAGE_COMPUTE_BIT,
                                              sizeof(struct fill_constants), &f->set_layout, &f->layout, error);
    if (res != SB_SUCCESS)
        return res;
    uint32_t words[SB_VK_MS_FILL_WORDS];
    size_t count = sb_vk_ms_fill_shader(f->texel_bytes, words, SB_VK_MS_FILL_WORDS);
    if (!count)
        return sb_vk_fail(error, SB_ERROR_VULKAN, "the multisample fill shader for %u-byte texels does not fit "
                          "%u words", f->texel_bytes, SB_VK_MS_FILL_WORDS);
    res = sb_vk_shader_module(c, words, count, &f->module, error);
    if (res == SB_SUCCESS)
        res = sb_vk_compute_pipeline(c, f->module, "main", f->layout, &f->pipeline, error);
    if (res != SB_SUCCESS)
        return res;
    const VkDescriptorPoolSize sizes[2] = {
        { VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1 }, { VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, 1 },
    };
    return sb_vk_one_set(c, sizes, 2, f->set_layout, &f->pool, &f->set, error);
}

enum sb_result sb_vk_image_ms_create(struct sb_rt_context *c, const struct sb_rt_resource *r,
                                     const struct sb_vk_dimension *d, struct sb_vk_image *out,
                                     struct sb_error *error)
{
    VkFormat format = sb_vk_format(r->format);
    uint32_t texel_bytes = sb_rt_format_size((enum sb_rt_format)r->format);
    VkFormat alias = alias_format(texel_bytes);
    enum sb_result res = check(c, r, d, format, alias, error);
    if (res != SB_SUCCESS)
        return res;
    struct sb_vk_ms_fill *f = calloc(1, sizeof(*f));
    if (!f)
        return sb_vk_fail(error, SB_ERROR_OUT_OF_MEMORY, "out of memory for a multisampled texture");
    out->ms = f;
    f->texel_bytes = texel_bytes;
    f->samples = r->sample_count;
    f->width = r->width;
    f->height = r->height;
    out->mip_levels = 1;
    out->layers = r->layers ? r->layers : 1;
    out->aspect = out->layout_aspect = VK_IMAGE_ASPECT_COLOR_BIT;
    out->layout = VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL;
    VkImageCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO,
        .flags = VK_IMAGE_CREATE_MUTABLE_FORMAT_BIT,
        .imageType = VK_IMAGE_TYPE_2D,
        .format = alias,
        .extent = { r->width, r->height, 1 },
        .mipLevels = 1,
        .arrayLayers = out->layers,
        .samples = (VkSampleCountFlagBits)r->sample_count,
        .tiling = VK_IMAGE_TILING_OPTIMAL,
        .usage = VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_STORAGE_BIT,
        .sharingMode = VK_SHARING_MODE_EXCLUSIVE,
        .initialLayout = VK_IMAGE_LAYOUT_UNDEFINED,
    };
    res = sb_vk_image_memory(c, &info, "a multisampled image", out, error);
    if (res == SB_SUCCESS)
        res = create_view(c, out->image, d->view_type, format, VK_IMAGE_USAGE_SAMPLED_BIT, out->layers, &out->view,
                          error);
    if (res == SB_SUCCESS)
        res = create_view(c, out->image, VK_IMAGE_VIEW_TYPE_2D_ARRAY, alias, VK_IMAGE_USAGE_STORAGE_BIT, out->layers,
                          &f->storage_view, error);
    if (res == SB_SUCCESS)
        res = create_pass(c, f, error);
    /* The shader reads whole words: the buffer is rounded up to one (the texels' bytes fill the start). */
    size_t bytes = sb_rt_texture_bytes(r);
    if (res == SB_SUCCESS)
        res = sb_vk_buffer_create(c, (bytes + 3) & ~(VkDeviceSize)3,
                                  VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT, r->data,
                                  r->data ? bytes : 0, &out->staging, error);
    if (res == SB_SUCCESS)
        sb_vk_write_buffer_image_set(c, f->set, out->staging.buffer, f->storage_view, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE,
                                     VK_IMAGE_LAYOUT_GENERAL);
    return res;
}

void sb_vk_image_ms_record_upload(struct sb_rt_context *c, VkCommandBuffer cmd, const struct sb_vk_image *img,
                                  const struct sb_rt_resource *r)
{
    (void)r;
    const struct sb_vk_ms_fill *f = img->ms;
    /* Every layer of its one colour level (sb_vk_image_ms_create sets the image so). */
    sb_vk_image_barrier(c, cmd, img, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_GENERAL, 0,
                        VK_ACCESS_SHADER_WRITE_BIT, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT,
                        VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT);
    c->vk.vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, f->pipeline);
    c->vk.vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, f->layout, 0, 1, &f->set, 0, NULL);
    struct fill_constants k = {
        .width = f->width,
        .height = f->height,
        .samples = f->samples,
        .texel_bytes = f->texel_bytes,
        .mask = f->texel_bytes >= 4 ? 0xFFFFFFFFu : (1u << (8 * f->texel_bytes)) - 1,
    };
    c->vk.vkCmdPushConstants(cmd, f->layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(k), &k);
    c->vk.vkCmdDispatch(cmd, (f->width + 7) / 8, (f->height + 7) / 8, img->layers * f->samples);
    sb_vk_image_barrier(c, cmd, img, VK_IMAGE_LAYOUT_GENERAL, img->layout, VK_ACCESS_SHADER_WRITE_BIT,
                        VK_ACCESS_SHADER_READ_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                        VK_PIPELINE_STAGE_ALL_COMMANDS_BIT);
}

void sb_vk_image_ms_destroy(struct sb_rt_context *c, struct sb_vk_ms_fill *f)
{
    if (!f)
        return;
    sb_vk_pass_objects_destroy(c, f->pool, f->pipeline, f->module, f->layout, f->set_layout);
    if (f->storage_view)
        c->vk.vkDestroyImageView(c->device, f->storage_view, NULL);
    free(f);
}
