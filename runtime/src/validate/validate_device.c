/* SPDX-License-Identifier: MIT */
/*
 * The program's translation fitted to the validating device (translator/README.md
 * "Device fallbacks"): a program is loaded (and translated) before any device or
 * input exists, assuming every Vulkan feature; a device that lacks one would then
 * refuse the module (sb_rt_dispatch: "the module declares the SPIR-V capability
 * ..."). Once a run's inputs are made, the view format of each typed u# is known
 * too, so the program is translated again with the device's profile and those
 * formats, and that translation runs on the device (with the waterfall loops of
 * non-uniform range indices the device cannot take, register spaces moved onto the
 * descriptor sets it binds, the `_cl` clamps chosen per lane without MinLod, and
 * raw/structured registers past its per-stage storage-buffer limit bound as R32_UINT texel
 * buffers). A module needing a feature the translator has no fallback for (fragment shader
 * interlock, FullyCoveredEXT) is translated again too: the translator's refusal names the
 * declaration that needs it. Only a module that needs a
 * missing feature is translated again: on a device with everything the loaded
 * translation runs unchanged.
 */
#include "validate_private.h"

#include <spirv/unified1/spirv.h>
#include <stdlib.h>

#include "../program/program_private.h"

/* Does `t` declare `capability`? (Capabilities open a module, after its 5-word header.) */
static bool declares(const struct sb_translation *t, uint32_t capability)
{
    for (size_t i = 5; i < t->word_count;) {
        uint32_t length = t->words[i] >> 16, op = t->words[i] & 0xffffu;
        if (length == 0 || i + length > t->word_count || op != SpvOpCapability)
            return false;
        if (length >= 2 && t->words[i + 1] == capability)
            return true;
        i += length;
    }
    return false;
}

/* Storage-buffer descriptors a translation binds (counters included), an unbounded range
 * counting the `unbounded` descriptors the run gives it. */
static uint64_t storage_buffers(const struct sb_translation *t, uint32_t unbounded)
{
    uint64_t n = 0;
    for (uint32_t i = 0; i < t->binding_count; i++) {
        const struct sb_translated_binding *b = &t->bindings[i];
        uint64_t count = b->count == UINT32_MAX ? unbounded : b->count;
        n += (b->descriptor_type == 7u ? count : 0) + (b->has_counter ? count : 0); /* STORAGE_BUFFER */
    }
    return n;
}

enum sb_result sb_validate_fit_device(struct sb_rt_context *context, const struct sb_rt_program *program,
                                      uint32_t unbounded, const struct sb_rt_inputs *inputs,
                                      struct sb_translation **out, struct sb_error *error)
{
    *out = NULL;
    struct sb_translate_options device = { .target_env = SB_TARGET_VULKAN_1_1 };
    sb_rt_context_device_profile(context, &device.device);
    if (!device.device.described || !program->translation)
        return SB_SUCCESS;
    /* The capabilities whose missing feature the translator handles: with a fallback, or
     * (interlock, fully covered, multiview, shading rate, barycentrics) with a refusal at the
     * declaration that needs it, where the device would only name the module. */
    const struct sb_device_profile *d = &device.device;
    const struct { SpvCapability capability; bool present; } fallbacks[] = {
        { SpvCapabilityStorageImageReadWithoutFormat, d->storage_image_read_without_format },
        { SpvCapabilitySampledImageArrayNonUniformIndexing, d->sampled_image_array_non_uniform_indexing },
        { SpvCapabilityStorageImageArrayNonUniformIndexing, d->storage_image_array_non_uniform_indexing },
        { SpvCapabilityUniformTexelBufferArrayNonUniformIndexing, d->uniform_texel_buffer_array_non_uniform_indexing },
        { SpvCapabilityStorageTexelBufferArrayNonUniformIndexing, d->storage_texel_buffer_array_non_uniform_indexing },
        { SpvCapabilityStorageBufferArrayNonUniformIndexing, d->storage_buffer_array_non_uniform_indexing },
        { SpvCapabilityMinLod, d->shader_resource_min_lod },
        { SpvCapabilityFragmentShaderPixelInterlockEXT, d->fragment_shader_pixel_interlock },
        { SpvCapabilityFragmentFullyCoveredEXT, d->fragment_fully_covered },
        { SpvCapabilityMultiView, d->multiview },
        { SpvCapabilityFragmentShadingRateKHR, d->fragment_shading_rate },
        { SpvCapabilityFragmentBarycentricKHR, d->fragment_shader_barycentric },
    };
    bool needed = false;
    for (size_t i = 0; i < sizeof(fallbacks) / sizeof(fallbacks[0]); i++)
        needed |= !fallbacks[i].present && declares(program->translation, fallbacks[i].capability);
    /* Register spaces on sets the device (or the runtime) cannot bind. */
    for (uint32_t i = 0; i < program->translation->binding_count; i++)
        needed |= program->translation->bindings[i].set >= d->max_bound_descriptor_sets;
    /* More storage buffers than one stage may bind: some become texel buffers. */
    needed |= d->max_per_stage_storage_buffers &&
              storage_buffers(program->translation, unbounded ? unbounded : SB_RT_UNBOUNDED_DESCRIPTORS) >
                  d->max_per_stage_storage_buffers;
    if (!needed)
        return SB_SUCCESS;
    /* Every typed u# the inputs bind, with its view's format (a range: each register, the
     * translator reads its lower bound's). */
    struct sb_storage_format *formats = calloc(inputs->count ? inputs->count : 1, sizeof(*formats));
    if (!formats)
        return sb_validate_fail(error, SB_ERROR_OUT_OF_MEMORY, "out of memory fitting the program to the device");
    for (uint32_t i = 0; i < inputs->count; i++) {
        const struct sb_rt_resource *r = &inputs->resources[i];
        if (r->resource_class != SB_IR_RESOURCE_UAV || !r->dimension || r->format == SB_RT_FORMAT_UNDEFINED)
            continue;
        formats[device.storage_format_count++] = (struct sb_storage_format){
            .space = r->space, .register_index = r->register_index, .vk_format = sb_rt_format_vk(r->format) };
    }
    device.storage_formats = formats;
    enum sb_result result = sb_rt_program_translate_fitted(program, unbounded ? unbounded : SB_RT_UNBOUNDED_DESCRIPTORS,
                                                           &device, out, error);
    free(formats);
    /* The program translated without the profile: what the translator refuses now is this
     * device's lack (not-run, like the device's own refusal), still at the source's offset. */
    if (result == SB_ERROR_TRANSLATE_UNSUPPORTED) {
        result = SB_ERROR_RUN_UNSUPPORTED;
        if (error)
            error->code = result;
    }
    return result;
}
