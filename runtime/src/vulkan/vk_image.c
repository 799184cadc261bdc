/* SPDX-License-Identifier: MIT */
/*
 * Textures of one dispatch: the image of a typed t# (sampled, read in
 * SHADER_READ_ONLY_OPTIMAL) or u# (storage, GENERAL), shaped by its SM4
 * dimension (vk_format.c) and filled from the texel layout of resources.h
 * through a staging buffer (one copy per mip level covering every layer;
 * multisampled textures by the compute pass of vk_image_ms.c, depth ones by
 * the render pass of vk_image_ms_depth.c);
 * UAV images are copied back into the same staging buffer after the
 * dispatch. Also the samplers (s#), which carry Vulkan's own state; a
 * border colour other than the three standard ones needs
 * VK_EXT_custom_border_color, anisotropy the samplerAnisotropy feature.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vk_private.h"

/* sb_rt_sampler's enums are passed to Vulkan unchanged. */
_Static_assert(SB_RT_FILTER_NEAREST == (int)VK_FILTER_NEAREST && SB_RT_FILTER_LINEAR == (int)VK_FILTER_LINEAR &&
                   SB_RT_FILTER_LINEAR == (int)VK_SAMPLER_MIPMAP_MODE_LINEAR,
               "sb_rt_filter mirrors VkFilter / VkSamplerMipmapMode");
_Static_assert(SB_RT_ADDRESS_REPEAT == (int)VK_SAMPLER_ADDRESS_MODE_REPEAT &&
                   SB_RT_ADDRESS_MIRRORED_REPEAT == (int)VK_SAMPLER_ADDRESS_MODE_MIRRORED_REPEAT &&
                   SB_RT_ADDRESS_CLAMP_TO_EDGE == (int)VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE &&
                   SB_RT_ADDRESS_CLAMP_TO_BORDER == (int)VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER &&
                   SB_RT_ADDRESS_MIRROR_ONCE == (int)VK_SAMPLER_ADDRESS_MODE_MIRROR_CLAMP_TO_EDGE,
               "sb_rt_address mirrors VkSamplerAddressMode");

static uint32_t level_size(uint32_t size, uint32_t level)
{
    uint32_t s = size >> level;
    return s ? s : 1;
}

/* Shape checks that need no device: what resources.h allows for the dimension. */
static enum sb_result check_shape(const struct sb_rt_resource *r, const struct sb_vk_dimension *d,
                                  struct sb_error *error)
{
    uint32_t layers = r->layers ? r->layers : 1, levels = r->mip_levels ? r->mip_levels : 1;
    bool ok = r->width && r->height && r->depth && levels <= 16;
    const char *why = "width, height and depth must be at least 1 and mip_levels at most 16";
    if (ok && d->image_type == VK_IMAGE_TYPE_1D && (r->height != 1 || r->depth != 1)) {
        ok = false;
        why = "a 1D texture has height and depth 1";
    } else if (ok && d->image_type == VK_IMAGE_TYPE_2D && r->depth != 1) {
        ok = false;
        why = "a 2D texture has depth 1";
    } else if (ok && d->image_type == VK_IMAGE_TYPE_3D && layers != 1) {
        ok = false;
        why = "a 3D texture has 1 layer";
    } else if (ok && d->cube && (layers % 6 || r->width != r->height)) {
        ok = false;
        why = "a cube texture has square faces and 6 layers per cube";
    } else if (ok && d->view_type != VK_IMAGE_VIEW_TYPE_1D_ARRAY && d->view_type != VK_IMAGE_VIEW_TYPE_2D_ARRAY &&
               d->view_type != VK_IMAGE_VIEW_TYPE_CUBE_ARRAY && layers != (d->cube ? 6u : 1u)) {
        ok = false;
        why = "a texture that is not an array has 1 layer (a cube 6)";
    }
    if (ok && sb_rt_texture_bytes(r) == 0) {
        ok = false;
        why = "its size overflows";
    } else if (ok && r->data && r->size < sb_rt_texture_bytes(r)) {
        ok = false;
        why = "its data is smaller than its texels (resources.h layout)";
    }
    if (!ok)
        return sb_vk_fail(error, SB_ERROR_INVALID_ARGUMENT, "%s resource %u (space %u) %ux%ux%u, %u layers, "
                          "%u mips: %s", d->name, r->register_index, r->space, r->width, r->height, r->depth,
                          layers, levels, why);
    return SB_SUCCESS;
}

/* Device checks: the format's features and the image limits for this shape. */
static enum sb_result check_device(struct sb_rt_context *c, const struct sb_rt_resource *r,
                                   const struct sb_vk_dimension *d, VkImageCreateInfo *info, bool storage,
                                   struct sb_error *error)
{
    VkFormatProperties props;
    vkGetPhysicalDeviceFormatProperties(c->physical, info->format, &props);
    VkFormatFeatureFlags need = storage ? VK_FORMAT_FEATURE_STORAGE_IMAGE_BIT : VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT;
    if ((props.optimalTilingFeatures & need) != need)
        return sb_vk_fail(error, SB_ERROR_RUN_UNSUPPORTED, "format %s cannot be a %s image on %.60s",
                          sb_rt_format_name((enum sb_rt_format)r->format), storage ? "storage" : "sampled",
                          c->device_name);
    VkImageFormatProperties limits;
    VkResult vr = vkGetPhysicalDeviceImageFormatProperties(c->physical, info->format, info->imageType,
                                                           info->tiling, info->usage, info->flags, &limits);
    if (vr == VK_ERROR_FORMAT_NOT_SUPPORTED)
        return sb_vk_fail(error, SB_ERROR_RUN_UNSUPPORTED, "format %s is not supported for a %s %s on %.60s",
                          sb_rt_format_name((enum sb_rt_format)r->format), d->name,
                          storage ? "UAV" : "SRV", c->device_name);
    if (vr != VK_SUCCESS)
        return sb_vk_fail_call(error, "vkGetPhysicalDeviceImageFormatProperties", vr);
    if (info->extent.width > limits.maxExtent.width || info->extent.height > limits.maxExtent.height ||
        info->extent.depth > limits.maxExtent.depth || info->mipLevels > limits.maxMipLevels ||
        info->arrayLayers > limits.maxArrayLayers)
        return sb_vk_fail(error, SB_ERROR_RUN_UNSUPPORTED, "%s %ux%ux%u with %u layers and %u mips exceeds "
                          "the limits of %.60s", d->name, info->extent.width, info->extent.height,
                          info->extent.depth, info->arrayLayers, info->mipLevels, c->device_name);
    return SB_SUCCESS;
}

static enum sb_result create_view(struct sb_rt_context *c, const struct sb_vk_dimension *d, VkFormat format,
                                  struct sb_vk_image *out, struct sb_error *error)
{
    VkImageViewCreateInfo view = {
        .sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO,
        .image = out->image,
        .viewType = d->view_type,
        .format = format,
        .subresourceRange = { out->aspect, 0, out->mip_levels, 0, out->layers },
    };
    /* A stencil view (X24_TYPELESS_G8_UINT) reads the stencil in red; D3D's view has it in green. */
    if (out->aspect == VK_IMAGE_ASPECT_STENCIL_BIT)
        view.components = (VkComponentMapping){ VK_COMPONENT_SWIZZLE_ZERO, VK_COMPONENT_SWIZZLE_R,
                                                VK_COMPONENT_SWIZZLE_ZERO, VK_COMPONENT_SWIZZLE_ONE };
    VkResult vr = c->vk.vkCreateImageView(c->device, &view, NULL, &out->view);
    return vr == VK_SUCCESS ? SB_SUCCESS : sb_vk_fail_call(error, "vkCreateImageView", vr);
}

/* Level `l`'s stencil bytes in the stencil plane: after the depth words, each level starting
 * at a multiple of 4 (Vulkan's rule for depth/stencil buffer offsets). Returns the level's
 * offset from the plane's start; *plane_size (may be NULL) the whole plane's size. */
static VkDeviceSize stencil_level_offset(const struct sb_vk_image *img, const struct sb_rt_resource *r, uint32_t l,
                                         VkDeviceSize *plane_size)
{
    VkDeviceSize offset = 0;
    for (uint32_t k = 0; k < img->mip_levels; k++) {
        if (k == l && !plane_size)
            return offset;
        VkDeviceSize texels = (VkDeviceSize)level_size(r->width, k) * level_size(r->height, k) * img->layers;
        offset += (texels + 3) & ~(VkDeviceSize)3;
    }
    if (plane_size)
        *plane_size = offset;
    return offset;
}

/* The staging buffer of D24S8 memory: the texels as given (the depth aspect copies 32-bit words
 * and ignores their high byte), then the stencil plane the stencil aspect copies, one byte a
 * texel, level by level. */
static enum sb_result stage_depth_stencil(struct sb_rt_context *c, struct sb_vk_image *img,
                                          const struct sb_rt_resource *r, size_t bytes, struct sb_error *error)
{
    VkDeviceSize plane = 0;
    stencil_level_offset(img, r, 0, &plane);
    uint8_t *host = calloc(bytes + plane, 1);
    if (!host)
        return sb_vk_fail(error, SB_ERROR_OUT_OF_MEMORY, "out of memory staging texture %u", r->register_index);
    const uint8_t *words = r->data;
    if (words) {
        memcpy(host, words, bytes);
        size_t at = 0; /* the texel's index in the level-major memory */
        for (uint32_t l = 0; l < img->mip_levels; l++) {
            uint8_t *stencil = host + bytes + stencil_level_offset(img, r, l, NULL);
            size_t texels = (size_t)level_size(r->width, l) * level_size(r->height, l) * img->layers;
            for (size_t i = 0; i < texels && (at + i) * 4 + 3 < bytes; i++)
                stencil[i] = words[(at + i) * 4 + 3];
            at += texels;
        }
    }
    enum sb_result res = sb_vk_buffer_create(c, bytes + plane, VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
                                             VK_BUFFER_USAGE_TRANSFER_DST_BIT, host, words ? bytes + plane : 0,
                                             &img->staging, error);
    free(host);
    return res;
}

enum sb_result sb_vk_image_create(struct sb_rt_context *c, const struct sb_rt_resource *r, bool storage,
                                  struct sb_vk_image *out, struct sb_error *error)
{
    memset(out, 0, sizeof(*out));
    const struct sb_vk_dimension *d = sb_vk_dimension(r->dimension);
    VkFormat format = sb_vk_format(r->format);
    if (!d)
        return sb_vk_fail(error, SB_ERROR_RUN_BINDING, "resource %u (space %u) has dimension %u where the "
                          "shader declares a texture", r->register_index, r->space, r->dimension);
    if (format == VK_FORMAT_UNDEFINED)
        return sb_vk_fail(error, SB_ERROR_RUN_UNSUPPORTED, "texture %u (space %u) has format %u, which the "
                          "runtime does not know", r->register_index, r->space, r->format);
    enum sb_result res = check_shape(r, d, error);
    if (res != SB_SUCCESS)
        return res;
    /* Multisampled texels cannot be copied into an image: a compute pass writes them (vk_image_ms.c). */
    /* SM 6.7 RWTexture2DMS: filling is done (vk_image_ms.c) but no pass reads a multisampled
     * storage image back yet, so the run is refused rather than compared half-way. */
    if (d->multisampled && storage)
        return sb_vk_fail(error, SB_ERROR_RUN_UNSUPPORTED, "%s register %u is a multisampled UAV (SM 6.7 "
                          "RWTexture2DMS), whose samples the runtime cannot read back yet", d->name,
                          r->register_index);
    bool depth_format = r->format == SB_RT_FORMAT_D32_FLOAT || r->format == SB_RT_FORMAT_D16_UNORM ||
                        r->format == SB_RT_FORMAT_D24_UNORM_S8_UINT;
    if (d->multisampled)
        return depth_format ? sb_vk_image_ms_depth_create(c, r, d, out, error)
                            : sb_vk_image_ms_create(c, r, d, out, error);
    out->mip_levels = r->mip_levels ? r->mip_levels : 1;
    out->layers = r->layers ? r->layers : 1;
    /* Depth formats are for comparison sampling (Vulkan allows depth compares on them only). */
    bool stencil_view = r->format == SB_RT_FORMAT_X24_TYPELESS_G8_UINT;
    bool depth = r->format == SB_RT_FORMAT_D32_FLOAT || r->format == SB_RT_FORMAT_D16_UNORM ||
                 r->format == SB_RT_FORMAT_D24_UNORM_S8_UINT || stencil_view;
    out->aspect = stencil_view ? VK_IMAGE_ASPECT_STENCIL_BIT
                  : depth      ? VK_IMAGE_ASPECT_DEPTH_BIT
                               : VK_IMAGE_ASPECT_COLOR_BIT;
    /* D24S8 memory (resources.h: depth in the low 24 bits, stencil in the high byte) goes up as
     * both planes (stencil_plane_size); the view reads the depth, or the stencil for
     * X24_TYPELESS_G8_UINT. */
    out->layout_aspect = format == VK_FORMAT_D24_UNORM_S8_UINT ? VK_IMAGE_ASPECT_DEPTH_BIT | VK_IMAGE_ASPECT_STENCIL_BIT
                                                               : out->aspect;
    bool block = sb_rt_format_block_extent((enum sb_rt_format)r->format) > 1;
    if (storage && block)
        return sb_vk_fail(error, SB_ERROR_RUN_UNSUPPORTED, "texture %u: block-compressed format %s cannot be a "
                          "storage image (UAV)", r->register_index, sb_rt_format_name((enum sb_rt_format)r->format));
    /* All supported features are enabled at device creation (vk_device.c), so this is the device's. */
    if (block && !c->features.textureCompressionBC)
        return sb_vk_fail(error, SB_ERROR_RUN_UNSUPPORTED, "texture %u has format %s, but %.60s lacks the "
                          "textureCompressionBC feature", r->register_index,
                          sb_rt_format_name((enum sb_rt_format)r->format), c->device_name);
    if (storage && depth)
        return sb_vk_fail(error, SB_ERROR_RUN_UNSUPPORTED, "texture %u: a depth format cannot be a storage image",
                          r->register_index);
    out->layout = storage ? VK_IMAGE_LAYOUT_GENERAL : VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL;
    VkImageCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO,
        .flags = d->cube ? VK_IMAGE_CREATE_CUBE_COMPATIBLE_BIT : 0,
        .imageType = d->image_type,
        .format = format,
        .extent = { r->width, r->height, r->depth },
        .mipLevels = out->mip_levels,
        .arrayLayers = out->layers,
        .samples = VK_SAMPLE_COUNT_1_BIT,
        .tiling = VK_IMAGE_TILING_OPTIMAL,
        .usage = VK_IMAGE_USAGE_TRANSFER_DST_BIT |
                 (storage ? VK_IMAGE_USAGE_STORAGE_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT
                          : VK_IMAGE_USAGE_SAMPLED_BIT),
        .sharingMode = VK_SHARING_MODE_EXCLUSIVE,
        .initialLayout = VK_IMAGE_LAYOUT_UNDEFINED,
    };
    res = check_device(c, r, d, &info, storage, error);
    if (res != SB_SUCCESS)
        return res;
    char what[48];
    snprintf(what, sizeof(what), "a %s image", d->name);
    res = sb_vk_image_memory(c, &info, what, out, error);
    if (res != SB_SUCCESS)
        return res;
    res = create_view(c, d, format, out, error);
    if (res != SB_SUCCESS)
        return res;
    size_t bytes = sb_rt_texture_bytes(r);
    if (out->layout_aspect == (VK_IMAGE_ASPECT_DEPTH_BIT | VK_IMAGE_ASPECT_STENCIL_BIT))
        return stage_depth_stencil(c, out, r, bytes, error);
    return sb_vk_buffer_create(c, bytes, VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                               r->data, r->data ? bytes : 0, &out->staging, error);
}

/* One region per mip level, each covering all layers (resources.h: level, then layer); D24S8
 * memory copies its depth words so, then its stencil plane (stage_depth_stencil) level by level. */
static uint32_t copy_regions(const struct sb_vk_image *img, const struct sb_rt_resource *r,
                             VkBufferImageCopy regions[32])
{
    bool planes = img->layout_aspect == (VK_IMAGE_ASPECT_DEPTH_BIT | VK_IMAGE_ASPECT_STENCIL_BIT);
    VkDeviceSize offset = 0;
    /* BC data goes up as-is: the extent is in texels (a partial edge block's full texel count
     * is the level's own size, which Vulkan allows), the packed buffer rows in blocks. */
    uint64_t texel = sb_rt_format_size((enum sb_rt_format)r->format);
    uint32_t block = sb_rt_format_block_extent((enum sb_rt_format)r->format);
    block = block ? block : 1;
    for (uint32_t l = 0; l < img->mip_levels; l++) {
        uint32_t w = level_size(r->width, l), h = level_size(r->height, l), z = level_size(r->depth, l);
        uint64_t bw = (w + block - 1) / block, bh = (h + block - 1) / block;
        regions[l] = (VkBufferImageCopy){
            .bufferOffset = offset,
            .imageSubresource = { planes ? VK_IMAGE_ASPECT_DEPTH_BIT : img->aspect, l, 0, img->layers },
            .imageExtent = { w, h, z },
        };
        offset += (VkDeviceSize)bw * bh * z * img->layers * texel;
    }
    if (!planes)
        return img->mip_levels;
    for (uint32_t l = 0; l < img->mip_levels; l++) {
        regions[img->mip_levels + l] = regions[l];
        regions[img->mip_levels + l].bufferOffset = offset + stencil_level_offset(img, r, l, NULL);
        regions[img->mip_levels + l].imageSubresource.aspectMask = VK_IMAGE_ASPECT_STENCIL_BIT;
    }
    return 2 * img->mip_levels;
}

void sb_vk_image_record_upload(struct sb_rt_context *c, VkCommandBuffer cmd, const struct sb_vk_image *img,
                               const struct sb_rt_resource *r)
{
    if (img->ms) {
        sb_vk_image_ms_record_upload(c, cmd, img, r);
        return;
    }
    if (img->ms_depth) {
        sb_vk_image_ms_depth_record_upload(c, cmd, img);
        return;
    }
    VkBufferImageCopy regions[32];
    uint32_t n = copy_regions(img, r, regions);
    sb_vk_image_barrier(c, cmd, img, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 0,
                        VK_ACCESS_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT,
                        VK_PIPELINE_STAGE_TRANSFER_BIT);
    c->vk.vkCmdCopyBufferToImage(cmd, img->staging.buffer, img->image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, n,
                                 regions);
    sb_vk_image_barrier(c, cmd, img, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, img->layout, VK_ACCESS_TRANSFER_WRITE_BIT,
                        VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT,
                        VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT);
}

void sb_vk_image_record_readback(struct sb_rt_context *c, VkCommandBuffer cmd,
                                 const struct sb_vk_image *img, const struct sb_rt_resource *r)
{
    VkBufferImageCopy regions[32];
    uint32_t n = copy_regions(img, r, regions);
    sb_vk_image_barrier(c, cmd, img, img->layout, img->layout, VK_ACCESS_SHADER_WRITE_BIT,
                        VK_ACCESS_TRANSFER_READ_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                        VK_PIPELINE_STAGE_TRANSFER_BIT);
    c->vk.vkCmdCopyImageToBuffer(cmd, img->image, img->layout, img->staging.buffer, n, regions);
}

void sb_vk_image_destroy(struct sb_rt_context *c, struct sb_vk_image *img)
{
    sb_vk_image_ms_destroy(c, img->ms);
    sb_vk_image_ms_depth_destroy(c, img->ms_depth);
    sb_vk_ms_readback_destroy(c, img->ms_readback);
    if (img->view)
        c->vk.vkDestroyImageView(c->device, img->view, NULL);
    if (img->image)
        c->vk.vkDestroyImage(c->device, img->image, NULL);
    if (img->memory)
        c->vk.vkFreeMemory(c->device, img->memory, NULL);
    sb_vk_buffer_destroy(c, &img->staging);
    memset(img, 0, sizeof(*img));
}

enum sb_result sb_vk_sampler_create(struct sb_rt_context *c, const struct sb_rt_resource *r, VkSampler *out,
                                    struct sb_error *error)
{
    const struct sb_rt_sampler *s = &r->sampler;
    *out = VK_NULL_HANDLE;
    bool ok = s->mag_filter <= SB_RT_FILTER_LINEAR && s->min_filter <= SB_RT_FILTER_LINEAR &&
              s->mip_filter <= SB_RT_FILTER_LINEAR && (!s->compare || s->compare_op <= VK_COMPARE_OP_ALWAYS);
    for (uint32_t i = 0; i < 3; i++)
        ok = ok && s->address[i] <= SB_RT_ADDRESS_MIRROR_ONCE;
    ok = ok && s->max_anisotropy == s->max_anisotropy && s->max_anisotropy <= 16.0f; /* NaN refused */
    if (!ok)
        return sb_vk_fail(error, SB_ERROR_INVALID_ARGUMENT, "sampler s%u (space %u) has a filter, address "
                          "mode, compare op or anisotropy out of range", r->register_index, r->space);
    bool mirror_once = s->address[0] == SB_RT_ADDRESS_MIRROR_ONCE || s->address[1] == SB_RT_ADDRESS_MIRROR_ONCE ||
                       s->address[2] == SB_RT_ADDRESS_MIRROR_ONCE;
    if (mirror_once && !c->features12.samplerMirrorClampToEdge)
        return sb_vk_fail(error, SB_ERROR_RUN_UNSUPPORTED, "sampler s%u (space %u) addresses with mirror once: "
                          "%.60s lacks samplerMirrorClampToEdge", r->register_index, r->space, c->device_name);
    bool anisotropic = s->max_anisotropy > 1.0f;
    if (anisotropic && (!c->features.samplerAnisotropy || s->max_anisotropy > c->properties.limits.maxSamplerAnisotropy))
        return sb_vk_fail(error, SB_ERROR_RUN_UNSUPPORTED, "sampler s%u (space %u) filters with max anisotropy "
                          "%g: %.60s has %s", r->register_index, r->space, (double)s->max_anisotropy,
                          c->device_name, c->features.samplerAnisotropy ? "a lower maxSamplerAnisotropy"
                                                                         : "no samplerAnisotropy feature");
    /* Vulkan's three standard border colours where the sampler's is one of them, any other
     * through VK_EXT_custom_border_color. */
    static const struct { float rgba[4]; VkBorderColor color; } standard[] = {
        { { 0.0f, 0.0f, 0.0f, 0.0f }, VK_BORDER_COLOR_FLOAT_TRANSPARENT_BLACK },
        { { 0.0f, 0.0f, 0.0f, 1.0f }, VK_BORDER_COLOR_FLOAT_OPAQUE_BLACK },
        { { 1.0f, 1.0f, 1.0f, 1.0f }, VK_BORDER_COLOR_FLOAT_OPAQUE_WHITE },
    };
    VkBorderColor border = VK_BORDER_COLOR_FLOAT_CUSTOM_EXT;
    for (size_t k = 0; k < sizeof(standard) / sizeof(standard[0]); k++)
        if (!memcmp(standard[k].rgba, s->border_color, sizeof(standard[k].rgba)))
            border = standard[k].color;
    if (border == VK_BORDER_COLOR_FLOAT_CUSTOM_EXT && !c->custom_border_color)
        return sb_vk_fail(error, SB_ERROR_RUN_UNSUPPORTED, "sampler s%u (space %u) has border colour (%g, %g, %g, "
                          "%g): %.60s lacks VK_EXT_custom_border_color (customBorderColors) for colours other "
                          "than (0,0,0,0), (0,0,0,1) and (1,1,1,1)", r->register_index, r->space,
                          (double)s->border_color[0], (double)s->border_color[1], (double)s->border_color[2],
                          (double)s->border_color[3], c->device_name);
    VkSamplerCustomBorderColorCreateInfoEXT custom = {
        .sType = VK_STRUCTURE_TYPE_SAMPLER_CUSTOM_BORDER_COLOR_CREATE_INFO_EXT,
        .format = VK_FORMAT_UNDEFINED, /* customBorderColorWithoutFormat, checked at device creation */
    };
    memcpy(custom.customBorderColor.float32, s->border_color, sizeof(s->border_color));
    /* sb_rt_address and sb_rt_filter use Vulkan's numbering (resources.h). */
    VkSamplerCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO,
        .pNext = border == VK_BORDER_COLOR_FLOAT_CUSTOM_EXT ? &custom : NULL,
        .magFilter = (VkFilter)s->mag_filter,
        .minFilter = (VkFilter)s->min_filter,
        .mipmapMode = (VkSamplerMipmapMode)s->mip_filter,
        .addressModeU = (VkSamplerAddressMode)s->address[0],
        .addressModeV = (VkSamplerAddressMode)s->address[1],
        .addressModeW = (VkSamplerAddressMode)s->address[2],
        .mipLodBias = s->mip_lod_bias,
        .anisotropyEnable = anisotropic ? VK_TRUE : VK_FALSE,
        .maxAnisotropy = anisotropic ? s->max_anisotropy : 1.0f,
        .compareEnable = s->compare ? VK_TRUE : VK_FALSE,
        .compareOp = s->compare ? (VkCompareOp)s->compare_op : VK_COMPARE_OP_NEVER,
        .minLod = s->min_lod,
        .maxLod = s->max_lod < s->min_lod ? s->min_lod : s->max_lod,
        .borderColor = border,
    };
    VkResult vr = c->vk.vkCreateSampler(c->device, &info, NULL, out);
    return vr == VK_SUCCESS ? SB_SUCCESS : sb_vk_fail_call(error, "vkCreateSampler", vr);
}
