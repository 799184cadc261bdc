/* SPDX-License-Identifier: MIT */
/*
 * SPIR-V capabilities against device features: a module that declares a
 * capability whose Vulkan feature the device lacks must not reach
 * vkCreateShaderModule (it is invalid usage, and some drivers crash running
 * it), so sb_rt_dispatch answers SB_ERROR_RUN_UNSUPPORTED naming it instead.
 * The table follows the Vulkan specification's "SPIR-V capabilities"
 * appendix for the capabilities the translator can declare; capabilities
 * every Vulkan 1.0 device has (Shader, ImageQuery, ...) are not listed.
 * sb_vk_check_module adds the module's SPIR-V version against the one the
 * device's Vulkan version consumes (dispatches and draws both use it).
 * A refusal carries the byte offset of the declaration or instruction that needed the
 * capability when the module's translation reports it (sb_translation::capability_origins):
 * the words alone only say that the module as a whole needs it.
 */
#include <spirv/unified1/spirv.h>
#include <stddef.h>
#include <string.h>

#include "error.h"
#include "vk_private.h"

/* EXT_LAYER / EXT_STENCIL / EXT_CONSERVATIVE: not features but the
 * VK_EXT_shader_viewport_index_layer, VK_EXT_shader_stencil_export and
 * VK_EXT_conservative_rasterization extensions (offset unused); the last also needs its
 * fullyCoveredFragmentShaderInputVariable and conservativePointAndLineRasterization
 * properties (the draws are points); EXT_INTERLOCK: VK_EXT_fragment_shader_interlock with
 * fragmentShaderPixelInterlock. */
enum feature_struct { CORE, V12, V13, EXT_LAYER, EXT_STENCIL, EXT_CONSERVATIVE, EXT_INTERLOCK, V11,
                      NOT_ENABLED };
/* V11: VkPhysicalDeviceVulkan11Features. NOT_ENABLED: extensions the runtime never enables
 * (VK_NV_compute_shader_derivatives, VK_KHR_fragment_shading_rate,
 * VK_KHR_fragment_shader_barycentric): a module that needs one is refused on every device. */

static const struct {
    SpvCapability capability;
    const char *name;
    enum feature_struct where;
    size_t offset;            /* of the VkBool32 in the feature struct */
} rows[] = {
#define CORE_ROW(cap, field) { SpvCapability##cap, #cap, CORE, offsetof(VkPhysicalDeviceFeatures, field) }
#define V12_ROW(cap, field) { SpvCapability##cap, #cap, V12, offsetof(VkPhysicalDeviceVulkan12Features, field) }
#define V13_ROW(cap, field) { SpvCapability##cap, #cap, V13, offsetof(VkPhysicalDeviceVulkan13Features, field) }
#define V11_ROW(cap, field) { SpvCapability##cap, #cap, V11, offsetof(VkPhysicalDeviceVulkan11Features, field) }
    CORE_ROW(Float64, shaderFloat64),
    CORE_ROW(Int64, shaderInt64),
    CORE_ROW(Int16, shaderInt16),
    CORE_ROW(ImageGatherExtended, shaderImageGatherExtended),
    CORE_ROW(StorageImageMultisample, shaderStorageImageMultisample),
    CORE_ROW(UniformBufferArrayDynamicIndexing, shaderUniformBufferArrayDynamicIndexing),
    CORE_ROW(SampledImageArrayDynamicIndexing, shaderSampledImageArrayDynamicIndexing),
    CORE_ROW(StorageBufferArrayDynamicIndexing, shaderStorageBufferArrayDynamicIndexing),
    CORE_ROW(StorageImageArrayDynamicIndexing, shaderStorageImageArrayDynamicIndexing),
    CORE_ROW(ImageCubeArray, imageCubeArray),
    CORE_ROW(SampledCubeArray, imageCubeArray),
    CORE_ROW(SparseResidency, shaderResourceResidency),
    CORE_ROW(MinLod, shaderResourceMinLod),
    CORE_ROW(StorageImageExtendedFormats, shaderStorageImageExtendedFormats),
    CORE_ROW(StorageImageReadWithoutFormat, shaderStorageImageReadWithoutFormat),
    CORE_ROW(StorageImageWriteWithoutFormat, shaderStorageImageWriteWithoutFormat),
    CORE_ROW(Geometry, geometryShader),
    CORE_ROW(Tessellation, tessellationShader),
    CORE_ROW(SampleRateShading, sampleRateShading),
    V12_ROW(RuntimeDescriptorArray, runtimeDescriptorArray),
    V12_ROW(UniformTexelBufferArrayDynamicIndexing, shaderUniformTexelBufferArrayDynamicIndexing),
    V12_ROW(StorageTexelBufferArrayDynamicIndexing, shaderStorageTexelBufferArrayDynamicIndexing),
    V12_ROW(UniformBufferArrayNonUniformIndexing, shaderUniformBufferArrayNonUniformIndexing),
    V12_ROW(SampledImageArrayNonUniformIndexing, shaderSampledImageArrayNonUniformIndexing),
    V12_ROW(StorageBufferArrayNonUniformIndexing, shaderStorageBufferArrayNonUniformIndexing),
    V12_ROW(StorageImageArrayNonUniformIndexing, shaderStorageImageArrayNonUniformIndexing),
    V12_ROW(UniformTexelBufferArrayNonUniformIndexing, shaderUniformTexelBufferArrayNonUniformIndexing),
    V12_ROW(StorageTexelBufferArrayNonUniformIndexing, shaderStorageTexelBufferArrayNonUniformIndexing),
    V12_ROW(Int64Atomics, shaderBufferInt64Atomics),
    V12_ROW(VulkanMemoryModel, vulkanMemoryModel),
    V13_ROW(DemoteToHelperInvocation, shaderDemoteToHelperInvocation),
    V11_ROW(MultiView, multiview),
    { SpvCapabilityFragmentShadingRateKHR,
      "FragmentShadingRateKHR (VK_KHR_fragment_shading_rate)",
      NOT_ENABLED, 0 },
    { SpvCapabilityFragmentBarycentricKHR,
      "FragmentBarycentricKHR (VK_KHR_fragment_shader_barycentric)",
      NOT_ENABLED, 0 },
    { SpvCapabilityShaderViewportIndexLayerEXT, "ShaderViewportIndexLayerEXT", EXT_LAYER, 0 },
    { SpvCapabilityStencilExportEXT, "StencilExportEXT", EXT_STENCIL, 0 },
    { SpvCapabilityFragmentFullyCoveredEXT,
      "FragmentFullyCoveredEXT (VK_EXT_conservative_rasterization, points too)",
      EXT_CONSERVATIVE, 0 },
    { SpvCapabilityFragmentShaderPixelInterlockEXT,
      "FragmentShaderPixelInterlockEXT (VK_EXT_fragment_shader_interlock)",
      EXT_INTERLOCK, 0 },
    { SpvCapabilityComputeDerivativeGroupQuadsNV,
      "ComputeDerivativeGroupQuadsNV (VK_NV_compute_shader_derivatives)",
      NOT_ENABLED, 0 },
    { SpvCapabilityComputeDerivativeGroupLinearNV,
      "ComputeDerivativeGroupLinearNV (VK_NV_compute_shader_derivatives)",
      NOT_ENABLED, 0 },
#undef CORE_ROW
#undef V12_ROW
#undef V13_ROW
#undef V11_ROW
};

static bool enabled(const struct sb_rt_context *c, size_t row)
{
    if (rows[row].where == EXT_LAYER)
        return c->viewport_index_layer;
    if (rows[row].where == EXT_STENCIL)
        return c->stencil_export;
    if (rows[row].where == EXT_CONSERVATIVE)
        return c->fully_covered;
    if (rows[row].where == EXT_INTERLOCK)
        return c->pixel_interlock;
    if (rows[row].where == NOT_ENABLED)
        return false;
    const void *base = rows[row].where == CORE ? (const void *)&c->features
                       : rows[row].where == V11 ? (const void *)&c->features11
                       : rows[row].where == V12 ? (const void *)&c->features12
                                                : (const void *)&c->features13;
    VkBool32 value;
    memcpy(&value, (const char *)base + rows[row].offset, sizeof(value));
    return value == VK_TRUE;
}

/* Where in the input `capability` came from: its origin's offset, or 0 (the whole input). */
static uint64_t origin_of(const struct sb_translation *source, uint32_t capability)
{
    for (uint32_t i = 0; source && i < source->capability_origin_count; i++)
        if (source->capability_origins[i].capability == capability)
            return source->capability_origins[i].offset;
    return 0;
}

enum sb_result sb_vk_check_capabilities(const struct sb_rt_context *c, const uint32_t *words, size_t word_count,
                                        const struct sb_translation *source, struct sb_error *error)
{
    /* Capabilities come first after the header; stop at the first other instruction. */
    for (size_t i = 5; i < word_count;) {
        uint32_t length = words[i] >> 16, op = words[i] & 0xffffu;
        if (length == 0 || i + length > word_count || op != SpvOpCapability)
            break;
        for (size_t row = 0; length >= 2 && row < sizeof(rows) / sizeof(rows[0]); row++) {
            if ((uint32_t)rows[row].capability != words[i + 1] || enabled(c, row))
                continue;
            if (rows[row].where == NOT_ENABLED)
                return sb_error_set(error, SB_ERROR_RUN_UNSUPPORTED, origin_of(source, words[i + 1]),
                                    SB_ERROR_NO_INSTR, "the module declares the SPIR-V capability %s, "
                                    "which the runtime does not enable on any device", rows[row].name);
            return sb_error_set(error, SB_ERROR_RUN_UNSUPPORTED, origin_of(source, words[i + 1]),
                                SB_ERROR_NO_INSTR, "the module declares the SPIR-V capability %s, "
                                "whose Vulkan feature %.60s does not support", rows[row].name,
                                c->device_name);
        }
        i += length;
    }
    return SB_SUCCESS;
}

bool sb_vk_module_declares(const uint32_t *words, size_t word_count, uint32_t capability)
{
    for (size_t i = 5; i < word_count;) {
        uint32_t length = words[i] >> 16, op = words[i] & 0xffffu;
        if (length == 0 || i + length > word_count || op != SpvOpCapability)
            return false;
        if (length >= 2 && words[i + 1] == capability)
            return true;
        i += length;
    }
    return false;
}

/* The newest SPIR-V version (as the module header writes it) a Vulkan version consumes. */
static uint32_t max_spirv(uint32_t api)
{
    if (api >= VK_API_VERSION_1_3)
        return 0x00010600;
    if (api >= VK_API_VERSION_1_2)
        return 0x00010500;
    return api >= VK_API_VERSION_1_1 ? 0x00010300 : 0x00010000;
}

enum sb_result sb_vk_check_module(const struct sb_rt_context *c, const uint32_t *words, size_t word_count,
                                  const struct sb_translation *source, struct sb_error *error)
{
    if (words[1] > max_spirv(c->api_version))
        return sb_vk_fail(error, SB_ERROR_RUN_UNSUPPORTED, "the module is SPIR-V %u.%u, newer than Vulkan %u.%u "
                          "on %.60s accepts", words[1] >> 16 & 0xff, words[1] >> 8 & 0xff,
                          VK_API_VERSION_MAJOR(c->api_version), VK_API_VERSION_MINOR(c->api_version),
                          c->device_name);
    return sb_vk_check_capabilities(c, words, word_count, source, error);
}
