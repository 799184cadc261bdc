/* SPDX-License-Identifier: MIT */
/*
 * Resource data bound to a shader, shared by the CPU interpreter (interp.h)
 * and the Vulkan runtime (runtime.h): both read the same description, so a
 * GPU run and a CPU run of one shader see the same inputs, and both write
 * UAV results back into the same kind of memory for comparison.
 *
 * A resource is named the way the shader names it: its class (cb#, t#, s#,
 * u#), its register space (SM5.1; 0 before) and its register number (for an
 * SM5.1 range, the absolute register: lower bound + array index).
 *
 * Memory layouts:
 *   constant buffers, raw and structured buffers: `data` holds `size` bytes.
 *   typed buffers: `width` elements of `format`, tightly packed.
 *   textures: for each mip level (0 first), for each array layer (cube maps:
 *     6 faces per cube, +X -X +Y -Y +Z -Z), rows of texels of `format`,
 *     tightly packed; level l is max(1, width >> l) x max(1, height >> l) x
 *     max(1, depth >> l).
 *   multisampled textures (2DMS, 2DMS array; one level): for each layer, rows
 *     of texels, each texel its `sample_count` samples in a row (sample 0
 *     first), each sample one texel of `format`.
 */
#ifndef SHADERBRIDGE_RESOURCES_H
#define SHADERBRIDGE_RESOURCES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "shaderbridge/result.h"
#include "shaderbridge/types.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Texel formats the runtime and the interpreter both support. */
enum sb_rt_format {
    SB_RT_FORMAT_UNDEFINED = 0,
    SB_RT_FORMAT_R32_FLOAT, SB_RT_FORMAT_R32_UINT, SB_RT_FORMAT_R32_SINT,
    SB_RT_FORMAT_R32G32_FLOAT, SB_RT_FORMAT_R32G32_UINT, SB_RT_FORMAT_R32G32_SINT,
    SB_RT_FORMAT_R32G32B32A32_FLOAT, SB_RT_FORMAT_R32G32B32A32_UINT, SB_RT_FORMAT_R32G32B32A32_SINT,
    SB_RT_FORMAT_R16G16B16A16_FLOAT,
    SB_RT_FORMAT_R8G8B8A8_UNORM,
    /** Depth, one float per texel: textures read with comparison samplers (Vulkan allows
     *  depth compares on depth formats only); sampled, it reads as R32_FLOAT. */
    SB_RT_FORMAT_D32_FLOAT,
    /* Appended after D32_FLOAT so the values above keep their numbers. Each has DXGI's meaning
     * and memory layout (channel order as named, packed formats little-endian with the first
     * channel in the low bits); unorm/snorm/float formats read as floats, uint/sint as integers. */
    SB_RT_FORMAT_R8G8B8A8_UNORM_SRGB,  /**< sRGB curve on rgb, alpha linear */
    SB_RT_FORMAT_B8G8R8A8_UNORM, SB_RT_FORMAT_B8G8R8A8_UNORM_SRGB,
    SB_RT_FORMAT_R10G10B10A2_UNORM, SB_RT_FORMAT_R10G10B10A2_UINT,
    SB_RT_FORMAT_R11G11B10_FLOAT,      /**< unsigned 11/11/10-bit floats, 5-bit exponents */
    SB_RT_FORMAT_R8_UNORM, SB_RT_FORMAT_R8_SNORM, SB_RT_FORMAT_R8_UINT, SB_RT_FORMAT_R8_SINT,
    SB_RT_FORMAT_R8G8_UNORM, SB_RT_FORMAT_R8G8_SNORM, SB_RT_FORMAT_R8G8_UINT, SB_RT_FORMAT_R8G8_SINT,
    SB_RT_FORMAT_R8G8B8A8_SNORM, SB_RT_FORMAT_R8G8B8A8_UINT, SB_RT_FORMAT_R8G8B8A8_SINT,
    SB_RT_FORMAT_R16_UNORM, SB_RT_FORMAT_R16_SNORM, SB_RT_FORMAT_R16_UINT, SB_RT_FORMAT_R16_SINT,
    SB_RT_FORMAT_R16_FLOAT,
    SB_RT_FORMAT_R16G16_UNORM, SB_RT_FORMAT_R16G16_SNORM, SB_RT_FORMAT_R16G16_UINT,
    SB_RT_FORMAT_R16G16_SINT, SB_RT_FORMAT_R16G16_FLOAT,
    SB_RT_FORMAT_R16G16B16A16_UNORM, SB_RT_FORMAT_R16G16B16A16_SNORM, SB_RT_FORMAT_R16G16B16A16_UINT,
    SB_RT_FORMAT_R16G16B16A16_SINT,
    /** Depth, 16-bit unorm; sampled, it reads as R16_UNORM. */
    SB_RT_FORMAT_D16_UNORM,
    /** Depth 24-bit unorm in the low bits, stencil in the high byte; sampled, the depth reads
     *  as red (D3D's R24_UNORM_X8_TYPELESS view); the stencil through
     *  SB_RT_FORMAT_X24_TYPELESS_G8_UINT (the same memory). */
    SB_RT_FORMAT_D24_UNORM_S8_UINT,
    /* Block-compressed (DXGI's BCn): texels are stored in 4x4 blocks of 8 (BC1, BC4) or 16
     * bytes, a level of w x h texels holding ceil(w/4) x ceil(h/4) blocks in rows, every other
     * layout rule as above with "block" for "texel". Shader-readable only (t#, never u# or
     * typed buffers); _SRGB applies the sRGB curve to rgb after decoding. */
    SB_RT_FORMAT_BC1_UNORM, SB_RT_FORMAT_BC1_UNORM_SRGB,
    SB_RT_FORMAT_BC2_UNORM, SB_RT_FORMAT_BC2_UNORM_SRGB,
    SB_RT_FORMAT_BC3_UNORM, SB_RT_FORMAT_BC3_UNORM_SRGB,
    SB_RT_FORMAT_BC4_UNORM, SB_RT_FORMAT_BC4_SNORM,
    SB_RT_FORMAT_BC5_UNORM, SB_RT_FORMAT_BC5_SNORM,
    SB_RT_FORMAT_BC6H_UF16, SB_RT_FORMAT_BC6H_SF16,
    SB_RT_FORMAT_BC7_UNORM, SB_RT_FORMAT_BC7_UNORM_SRGB,
    /** D24_UNORM_S8_UINT memory read through its stencil (D3D's X24_TYPELESS_G8_UINT view):
     *  the stencil byte as uint in green; red and blue 0, alpha 1. Shader-readable only (t#);
     *  the device uploads the depth and the stencil plane and views the stencil aspect. */
    SB_RT_FORMAT_X24_TYPELESS_G8_UINT,
    SB_RT_FORMAT_COUNT,
    SB_RT_FORMAT_MAX_ENUM = 0x7fffffff
};

/** Bytes per texel, or per 4x4 block for the BC formats (0 for UNDEFINED / unknown values). */
SB_API uint32_t sb_rt_format_size(enum sb_rt_format format);
/** Texels across and down one unit of sb_rt_format_size: 4 for the BC formats, 1 for the
 *  others (0 for UNDEFINED / unknown values). */
SB_API uint32_t sb_rt_format_block_extent(enum sb_rt_format format);
/** Channels per texel (1, 2, 3 or 4; 0 for UNDEFINED / unknown values). */
SB_API uint32_t sb_rt_format_channels(enum sb_rt_format format);
/** "r32g32b32a32_float" ...; "undefined" for unknown values. Static. */
SB_API const char *sb_rt_format_name(enum sb_rt_format format);

enum sb_rt_filter {
    SB_RT_FILTER_NEAREST = 0, SB_RT_FILTER_LINEAR = 1, SB_RT_FILTER_MAX_ENUM = 0x7fffffff
};
enum sb_rt_address {
    SB_RT_ADDRESS_REPEAT = 0, SB_RT_ADDRESS_MIRRORED_REPEAT = 1,
    SB_RT_ADDRESS_CLAMP_TO_EDGE = 2, SB_RT_ADDRESS_CLAMP_TO_BORDER = 3, /**< sb_rt_sampler::border_color */
    /** D3D's MIRROR_ONCE: mirrored once about the texture's start, then clamped to the edge
     *  (Vulkan's MIRROR_CLAMP_TO_EDGE; the device needs samplerMirrorClampToEdge). */
    SB_RT_ADDRESS_MIRROR_ONCE = 4,
    SB_RT_ADDRESS_MAX_ENUM = 0x7fffffff
};

/** Sampler state (s#), Vulkan's meaning. */
struct sb_rt_sampler {
    enum sb_rt_filter mag_filter, min_filter, mip_filter;
    enum sb_rt_address address[3];               /**< u, v, w */
    float mip_lod_bias, min_lod, max_lod;
    bool compare;                                /**< comparison sampler (sample_c, gather4_c) */
    uint32_t compare_op;                         /**< VkCompareOp value when `compare` */
    /** What CLAMP_TO_BORDER reads outside the texture, r g b a as floats (all zero, transparent
     *  black, by default). The device takes (0,0,0,0), (0,0,0,1) and (1,1,1,1) as Vulkan's
     *  standard border colours and any other value through VK_EXT_custom_border_color
     *  (SB_ERROR_RUN_UNSUPPORTED without it). Float formats only: a program that samples an
     *  integer texture keeps transparent black (sb_rt_inputs_provide refuses others). */
    float border_color[4];
    /** Anisotropic filtering with at most this many samples; 0 or 1 = off, else 2 to 16. The
     *  interpreter filters isotropically and refuses (SB_ERROR_RUN_UNSUPPORTED) a lookup whose
     *  footprint is anisotropic, where the device's sample pattern is its own. */
    float max_anisotropy;
};

/** One bound resource (see the file comment for the data layouts). */
struct sb_rt_resource {
    enum sb_ir_resource_class resource_class;
    uint32_t space;
    uint32_t register_index;
    /** Bytes: buffer contents or texel data. UAV results are written back here. */
    void *data;
    size_t size;
    /** Typed buffers and textures. */
    enum sb_rt_format format;
    uint32_t dimension;       /**< SM4 resource dimension (../shared/docs/sm4-tokens.md §8.3), 0 = not typed */
    uint32_t width, height, depth; /**< depth: 3D depth; array layers are `layers` */
    uint32_t layers;          /**< array layers (cube arrays: 6 x cubes); 1 when not arrayed */
    uint32_t mip_levels;      /**< >= 1 */
    uint32_t sample_count;    /**< 2DMS and 2DMS array: samples per texel (1, 2, 4, 8, ...); 1 otherwise */
    /** UAV append/consume counter: the initial value, updated after a run. */
    uint32_t counter;
    /** s#: the sampler state. */
    struct sb_rt_sampler sampler;
};

/** Bytes a texture's texel data takes (every level and layer); 0 on overflow. */
SB_API size_t sb_rt_texture_bytes(const struct sb_rt_resource *resource);

#ifdef __cplusplus
}
#endif

#endif
