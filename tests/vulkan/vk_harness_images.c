/* SPDX-License-Identifier: MIT */
/*
 * Sampled images of the Vulkan test harness (vk_harness.h): any view type
 * (1D/2D/3D/cube, arrays), layers and mip levels, uploaded through one
 * staging buffer with one copy per mip level, left in
 * SHADER_READ_ONLY_OPTIMAL with a nearest / clamp-to-edge sampler, so a
 * known-answer test can predict every texel a ld, sample or gather returns.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vk_harness.h"

static uint32_t texel_bytes(VkFormat format)
{
    switch (format) {
    case VK_FORMAT_R32G32B32A32_SFLOAT: case VK_FORMAT_R32G32B32A32_UINT:
    case VK_FORMAT_R32G32B32A32_SINT:
        return 16;
    case VK_FORMAT_R32G32_SFLOAT: case VK_FORMAT_R32G32_UINT: case VK_FORMAT_R32G32_SINT:
        return 8;
    default:
        return 4;
    }
}

static uint32_t level_size(uint32_t size, uint32_t mip)
{
    uint32_t s = size >> mip;
    return s ? s : 1;
}

size_t vkh_image_bytes(const struct vkh_image_desc *d)
{
    size_t total = 0;
    for (uint32_t m = 0; m < d->mips; m++)
        total += (size_t)level_size(d->width, m) * level_size(d->height, m) *
                 level_size(d->depth, m) * d->layers * texel_bytes(d->format);
    return total;
}

static VkImageType image_type(VkImageViewType view)
{
    switch (view) {
    case VK_IMAGE_VIEW_TYPE_1D: case VK_IMAGE_VIEW_TYPE_1D_ARRAY:
        return VK_IMAGE_TYPE_1D;
    case VK_IMAGE_VIEW_TYPE_3D:
        return VK_IMAGE_TYPE_3D;
    default:
        return VK_IMAGE_TYPE_2D;
    }
}

static void barrier(VkCommandBuffer cmd, const struct vkh_image *img,
                    const struct vkh_image_desc *d, VkImageLayout from, VkImageLayout to,
                    VkAccessFlags src, VkAccessFlags dst)
{
    VkImageMemoryBarrier b = {
        .sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER,
        .srcAccessMask = src,
        .dstAccessMask = dst,
        .oldLayout = from,
        .newLayout = to,
        .srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
        .dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
        .image = img->image,
        .subresourceRange = { VK_IMAGE_ASPECT_COLOR_BIT, 0, d->mips, 0, d->layers },
    };
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT,
                         VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, 0, 0, NULL, 0, NULL, 1, &b);
}

static VkResult upload(struct vkh *h, struct vkh_image *img, const struct vkh_image_desc *d,
                       const void *texels)
{
    struct vkh_buffer staging;
    VkResult r = vkh_buffer_create(h, vkh_image_bytes(d), VK_BUFFER_USAGE_TRANSFER_SRC_BIT,
                                   texels, &staging);
    if (r != VK_SUCCESS)
        return r;
    VkBufferImageCopy copies[16];
    VkDeviceSize offset = 0;
    uint32_t mips = d->mips < 16 ? d->mips : 16;
    for (uint32_t m = 0; m < mips; m++) {
        uint32_t w = level_size(d->width, m), hh = level_size(d->height, m);
        uint32_t z = level_size(d->depth, m);
        copies[m] = (VkBufferImageCopy){
            .bufferOffset = offset,
            .imageSubresource = { VK_IMAGE_ASPECT_COLOR_BIT, m, 0, d->layers },
            .imageExtent = { w, hh, z },
        };
        offset += (VkDeviceSize)w * hh * z * d->layers * texel_bytes(d->format);
    }
    VkCommandBuffer cmd;
    r = vkh_one_shot_begin(h, &cmd);
    if (r == VK_SUCCESS) {
        barrier(cmd, img, d, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 0,
                VK_ACCESS_TRANSFER_WRITE_BIT);
        vkCmdCopyBufferToImage(cmd, staging.buffer, img->image,
                               VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, mips, copies);
        barrier(cmd, img, d, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, VK_ACCESS_TRANSFER_WRITE_BIT,
                VK_ACCESS_SHADER_READ_BIT);
        r = vkh_one_shot_submit(h, cmd);
    }
    vkh_buffer_destroy(h, &staging);
    return r;
}

static VkResult view_and_sampler(struct vkh *h, const struct vkh_image_desc *d,
                                 struct vkh_image *out)
{
    VkImageViewCreateInfo view = {
        .sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO,
        .image = out->image,
        .viewType = d->view_type,
        .format = d->format,
        .subresourceRange = { VK_IMAGE_ASPECT_COLOR_BIT, 0, d->mips, 0, d->layers },
    };
    VkResult r = vkCreateImageView(h->device, &view, NULL, &out->view);
    if (r != VK_SUCCESS)
        return r;
    VkSamplerCreateInfo sampler = {
        .sType = VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO,
        .magFilter = VK_FILTER_NEAREST,
        .minFilter = VK_FILTER_NEAREST,
        .mipmapMode = VK_SAMPLER_MIPMAP_MODE_NEAREST,
        .addressModeU = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE,
        .addressModeV = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE,
        .addressModeW = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE,
        .maxLod = (float)d->mips,
    };
    return vkCreateSampler(h->device, &sampler, NULL, &out->sampler);
}

VkResult vkh_image_create(struct vkh *h, const struct vkh_image_desc *d, const void *texels,
                          struct vkh_image *out)
{
    memset(out, 0, sizeof(*out));
    bool cube = d->view_type == VK_IMAGE_VIEW_TYPE_CUBE ||
                d->view_type == VK_IMAGE_VIEW_TYPE_CUBE_ARRAY;
    VkImageCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO,
        .flags = cube ? VK_IMAGE_CREATE_CUBE_COMPATIBLE_BIT : 0,
        .imageType = image_type(d->view_type),
        .format = d->format,
        .extent = { d->width, d->height, d->depth },
        .mipLevels = d->mips,
        .arrayLayers = d->layers,
        .samples = VK_SAMPLE_COUNT_1_BIT,
        .tiling = VK_IMAGE_TILING_OPTIMAL,
        .usage = VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT,
        .initialLayout = VK_IMAGE_LAYOUT_UNDEFINED,
    };
    VkResult r = vkCreateImage(h->device, &info, NULL, &out->image);
    VkMemoryRequirements req;
    if (r == VK_SUCCESS) {
        vkGetImageMemoryRequirements(h->device, out->image, &req);
        r = vkh_allocate(h, req, 0, &out->memory);
    }
    if (r == VK_SUCCESS)
        r = vkBindImageMemory(h->device, out->image, out->memory, 0);
    if (r == VK_SUCCESS)
        r = upload(h, out, d, texels);
    if (r == VK_SUCCESS)
        r = view_and_sampler(h, d, out);
    if (r != VK_SUCCESS)
        vkh_image_destroy(h, out);
    return r;
}

void vkh_image_destroy(struct vkh *h, struct vkh_image *img)
{
    if (img->sampler)
        vkDestroySampler(h->device, img->sampler, NULL);
    if (img->view)
        vkDestroyImageView(h->device, img->view, NULL);
    if (img->image)
        vkDestroyImage(h->device, img->image, NULL);
    if (img->memory)
        vkFreeMemory(h->device, img->memory, NULL);
    memset(img, 0, sizeof(*img));
}
