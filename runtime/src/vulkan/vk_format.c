/* SPDX-License-Identifier: MIT */
/*
 * Tables of the Vulkan runtime: sb_rt_format -> VkFormat, and the SM4
 * resource dimensions (../shared/docs/sm4-tokens.md §8.3) -> image and view types, in
 * the same shape translator/src/spirv_resource*.c gives the OpTypeImage of
 * each dimension (Dim, Arrayed, MS), so a view always matches its variable.
 */
#include "vk_private.h"

static const VkFormat formats[SB_RT_FORMAT_COUNT] = {
    [SB_RT_FORMAT_UNDEFINED] = VK_FORMAT_UNDEFINED,
    [SB_RT_FORMAT_R32_FLOAT] = VK_FORMAT_R32_SFLOAT,
    [SB_RT_FORMAT_R32_UINT] = VK_FORMAT_R32_UINT,
    [SB_RT_FORMAT_R32_SINT] = VK_FORMAT_R32_SINT,
    [SB_RT_FORMAT_R32G32_FLOAT] = VK_FORMAT_R32G32_SFLOAT,
    [SB_RT_FORMAT_R32G32_UINT] = VK_FORMAT_R32G32_UINT,
    [SB_RT_FORMAT_R32G32_SINT] = VK_FORMAT_R32G32_SINT,
    [SB_RT_FORMAT_R32G32B32A32_FLOAT] = VK_FORMAT_R32G32B32A32_SFLOAT,
    [SB_RT_FORMAT_R32G32B32A32_UINT] = VK_FORMAT_R32G32B32A32_UINT,
    [SB_RT_FORMAT_R32G32B32A32_SINT] = VK_FORMAT_R32G32B32A32_SINT,
    [SB_RT_FORMAT_R16G16B16A16_FLOAT] = VK_FORMAT_R16G16B16A16_SFLOAT,
    [SB_RT_FORMAT_R8G8B8A8_UNORM] = VK_FORMAT_R8G8B8A8_UNORM,
    [SB_RT_FORMAT_D32_FLOAT] = VK_FORMAT_D32_SFLOAT,
};

VkFormat sb_vk_format(uint32_t format)
{
    return format < SB_RT_FORMAT_COUNT ? formats[format] : VK_FORMAT_UNDEFINED;
}

/* Indexed by SM4 dimension; rows without a name are buffers or invalid. */
static const struct sb_vk_dimension dimensions[] = {
    [2] = { VK_IMAGE_TYPE_1D, VK_IMAGE_VIEW_TYPE_1D, false, false, "texture1d" },
    [3] = { VK_IMAGE_TYPE_2D, VK_IMAGE_VIEW_TYPE_2D, false, false, "texture2d" },
    [4] = { VK_IMAGE_TYPE_2D, VK_IMAGE_VIEW_TYPE_2D, false, true, "texture2dms" },
    [5] = { VK_IMAGE_TYPE_3D, VK_IMAGE_VIEW_TYPE_3D, false, false, "texture3d" },
    [6] = { VK_IMAGE_TYPE_2D, VK_IMAGE_VIEW_TYPE_CUBE, true, false, "texturecube" },
    [7] = { VK_IMAGE_TYPE_1D, VK_IMAGE_VIEW_TYPE_1D_ARRAY, false, false, "texture1darray" },
    [8] = { VK_IMAGE_TYPE_2D, VK_IMAGE_VIEW_TYPE_2D_ARRAY, false, false, "texture2darray" },
    [9] = { VK_IMAGE_TYPE_2D, VK_IMAGE_VIEW_TYPE_2D_ARRAY, false, true, "texture2dmsarray" },
    [10] = { VK_IMAGE_TYPE_2D, VK_IMAGE_VIEW_TYPE_CUBE_ARRAY, true, false, "texturecubearray" },
};

const struct sb_vk_dimension *sb_vk_dimension(uint32_t dimension)
{
    if (dimension >= sizeof(dimensions) / sizeof(dimensions[0]) || !dimensions[dimension].name)
        return NULL;
    return &dimensions[dimension];
}
