/* SPDX-License-Identifier: MIT */
/*
 * Waves on the device: which subgroup size a program runs with (sb_rt_context_wave_size,
 * also what validation gives the interpreter); the compute pipeline of a program that
 * requires a wave size (DXIL [WaveSize]) created with that size pinned through
 * VkPipelineShaderStageRequiredSubgroupSizeCreateInfo (Vulkan 1.3's subgroup size control);
 * and a module's GroupNonUniform* capabilities against the stages and operation classes the
 * device's subgroups support (VkPhysicalDeviceSubgroupProperties): a vertex shader with wave
 * ops on a device whose subgroups cover only fragment and compute (lavapipe) is invalid usage,
 * and llvmpipe aborts compiling one, so it is refused before vkCreateShaderModule.
 */
#include <spirv/unified1/spirv.h>

#include "error.h"
#include "vk_private.h"

#include "translator/ir.h"

/* The device's subgroup properties (zeroed below Vulkan 1.1) and, from Vulkan 1.3, its size
 * control properties (zeroed below). */
static void subgroup_properties(const struct sb_rt_context *c, VkPhysicalDeviceSubgroupProperties *subgroup,
                                VkPhysicalDeviceSubgroupSizeControlProperties *control)
{
    *control = (VkPhysicalDeviceSubgroupSizeControlProperties){
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_SIZE_CONTROL_PROPERTIES,
    };
    *subgroup = (VkPhysicalDeviceSubgroupProperties){
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES,
        .pNext = c->api_version >= VK_API_VERSION_1_3 ? control : NULL,
    };
    VkPhysicalDeviceProperties2 props = { .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, .pNext = subgroup };
    if (c->api_version >= VK_API_VERSION_1_1 && vkGetPhysicalDeviceProperties2)
        vkGetPhysicalDeviceProperties2(c->physical, &props);
}

/* The subgroup sizes the device offers for `stage`: [*low, *high] and its default. */
static void offered_sizes(struct sb_rt_context *c, VkShaderStageFlags stage, uint32_t *low, uint32_t *high,
                          uint32_t *usual, bool *pinnable)
{
    VkPhysicalDeviceSubgroupSizeControlProperties control;
    VkPhysicalDeviceSubgroupProperties subgroup;
    subgroup_properties(c, &subgroup, &control);
    /* Vulkan 1.0 has no subgroups: a wave is then one invocation as far as anyone can tell */
    *usual = subgroup.subgroupSize ? subgroup.subgroupSize : 1;
    *pinnable = c->features13.subgroupSizeControl && (control.requiredSubgroupSizeStages & stage) &&
                control.minSubgroupSize && control.maxSubgroupSize >= control.minSubgroupSize;
    *low = *pinnable ? control.minSubgroupSize : *usual;
    *high = *pinnable ? control.maxSubgroupSize : *usual;
}

static VkShaderStageFlags stage_flag(enum sb_ir_stage stage)
{
    switch (stage) {
    case SB_IR_STAGE_VERTEX: return VK_SHADER_STAGE_VERTEX_BIT;
    case SB_IR_STAGE_PIXEL: return VK_SHADER_STAGE_FRAGMENT_BIT;
    case SB_IR_STAGE_GEOMETRY: return VK_SHADER_STAGE_GEOMETRY_BIT;
    case SB_IR_STAGE_HULL: return VK_SHADER_STAGE_TESSELLATION_CONTROL_BIT;
    case SB_IR_STAGE_DOMAIN: return VK_SHADER_STAGE_TESSELLATION_EVALUATION_BIT;
    default: return VK_SHADER_STAGE_COMPUTE_BIT;
    }
}

enum sb_result sb_rt_context_wave_size(struct sb_rt_context *context, enum sb_ir_stage stage, uint32_t min,
                                       uint32_t max, uint32_t preferred, uint32_t *size, struct sb_error *error)
{
    if (!context || !context->has_device)
        return sb_vk_fail(error, SB_ERROR_NO_DEVICE, "sb_rt_context_wave_size: the context has no Vulkan device");
    if (!size || !sb_ir_wave_size_valid(min, max, preferred))
        return sb_vk_fail(error, SB_ERROR_INVALID_ARGUMENT, "sb_rt_context_wave_size: no size out, or wave sizes "
                          "%u..%u (preferred %u) that are not powers of two from 4 to 128 in order",
                          min, max, preferred);
    uint32_t low, high, usual;
    bool pinnable;
    offered_sizes(context, stage_flag(stage), &low, &high, &usual, &pinnable);
    *size = sb_ir_wave_size_choose(min, max, preferred, low, high, usual);
    if (*size)
        return SB_SUCCESS;
    if (min == max)
        return sb_vk_fail(error, SB_ERROR_RUN_UNSUPPORTED, "the device cannot run wave size %u (its subgroup sizes "
                          "are %u to %u%s)", min, low, high,
                          pinnable ? "" : "; no subgroup size control for the stage");
    return sb_vk_fail(error, SB_ERROR_RUN_UNSUPPORTED, "the device cannot run a wave size from %u to %u (its "
                      "subgroup sizes are %u to %u%s)", min, max, low, high,
                      pinnable ? "" : "; no subgroup size control for the stage");
}

enum sb_result sb_vk_compute_pipeline_waves(struct sb_rt_context *c, const struct sb_translation *t,
                                            VkShaderModule module, VkPipelineLayout layout, VkPipeline *out,
                                            struct sb_error *error)
{
    const char *entry = t->entry_point ? t->entry_point : "main";
    if (!t->wave_size_min)
        return sb_vk_compute_pipeline(c, module, entry, layout, out, error);
    uint32_t size, low, high, usual;
    bool pinnable;
    enum sb_result r = sb_rt_context_wave_size(c, SB_IR_STAGE_COMPUTE, t->wave_size_min, t->wave_size_max,
                                               t->wave_size_preferred, &size, error);
    if (r != SB_SUCCESS)
        return r;
    offered_sizes(c, VK_SHADER_STAGE_COMPUTE_BIT, &low, &high, &usual, &pinnable);
    if (!pinnable) /* the one size the device has is the required one */
        return sb_vk_compute_pipeline(c, module, entry, layout, out, error);
    VkPipelineShaderStageRequiredSubgroupSizeCreateInfo required = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_REQUIRED_SUBGROUP_SIZE_CREATE_INFO,
        .requiredSubgroupSize = size,
    };
    return sb_vk_compute_pipeline_chained(c, module, entry, &required, layout, out, error);
}

/* The GroupNonUniform* capabilities and the subgroup operation class each needs. */
static const struct {
    SpvCapability capability;
    const char *name;
    VkSubgroupFeatureFlags operations;
} subgroup_rows[] = {
    { SpvCapabilityGroupNonUniform, "GroupNonUniform", VK_SUBGROUP_FEATURE_BASIC_BIT },
    { SpvCapabilityGroupNonUniformVote, "GroupNonUniformVote", VK_SUBGROUP_FEATURE_VOTE_BIT },
    { SpvCapabilityGroupNonUniformArithmetic, "GroupNonUniformArithmetic", VK_SUBGROUP_FEATURE_ARITHMETIC_BIT },
    { SpvCapabilityGroupNonUniformBallot, "GroupNonUniformBallot", VK_SUBGROUP_FEATURE_BALLOT_BIT },
    { SpvCapabilityGroupNonUniformShuffle, "GroupNonUniformShuffle", VK_SUBGROUP_FEATURE_SHUFFLE_BIT },
    { SpvCapabilityGroupNonUniformShuffleRelative, "GroupNonUniformShuffleRelative",
      VK_SUBGROUP_FEATURE_SHUFFLE_RELATIVE_BIT },
    { SpvCapabilityGroupNonUniformClustered, "GroupNonUniformClustered", VK_SUBGROUP_FEATURE_CLUSTERED_BIT },
    { SpvCapabilityGroupNonUniformQuad, "GroupNonUniformQuad", VK_SUBGROUP_FEATURE_QUAD_BIT },
};

enum sb_result sb_vk_check_subgroups(const struct sb_rt_context *c, const uint32_t *words, size_t word_count,
                                     const struct sb_translation *source, struct sb_error *error)
{
    VkPhysicalDeviceSubgroupSizeControlProperties control;
    VkPhysicalDeviceSubgroupProperties subgroup;
    bool queried = false;
    VkShaderStageFlags stage = stage_flag(source->stage);
    for (size_t row = 0; row < sizeof(subgroup_rows) / sizeof(subgroup_rows[0]); row++) {
        if (!sb_vk_module_declares(words, word_count, (uint32_t)subgroup_rows[row].capability))
            continue;
        if (!queried)
            subgroup_properties(c, &subgroup, &control);
        queried = true;
        if (!(subgroup.supportedStages & stage))
            return sb_error_set(error, SB_ERROR_RUN_UNSUPPORTED, 0, SB_ERROR_NO_INSTR, "the module uses wave "
                                "operations (SPIR-V %s) in a stage whose subgroup operations %.60s does not "
                                "support (subgroupSupportedStages 0x%x)", subgroup_rows[row].name, c->device_name,
                                (unsigned)subgroup.supportedStages);
        if (!(subgroup.supportedOperations & subgroup_rows[row].operations))
            return sb_error_set(error, SB_ERROR_RUN_UNSUPPORTED, 0, SB_ERROR_NO_INSTR, "the module declares the "
                                "SPIR-V capability %s, whose subgroup operations %.60s does not support",
                                subgroup_rows[row].name, c->device_name);
        if (subgroup_rows[row].capability == SpvCapabilityGroupNonUniformQuad && !subgroup.quadOperationsInAllStages &&
            !(stage & (VK_SHADER_STAGE_FRAGMENT_BIT | VK_SHADER_STAGE_COMPUTE_BIT)))
            return sb_error_set(error, SB_ERROR_RUN_UNSUPPORTED, 0, SB_ERROR_NO_INSTR, "the module uses quad "
                                "operations outside fragment and compute shaders, which %.60s does not support "
                                "(quadOperationsInAllStages)", c->device_name);
    }
    return SB_SUCCESS;
}
