/* SPDX-License-Identifier: MIT */
/*
 * `translate --device-profile lavapipe|FILE.json` (device_profile.c): the device a
 * translation is for (sb_translate_options::device) and the view formats of its typed u#
 * (::storage_formats), from a built-in profile or a small JSON file read strictly.
 */
#ifndef SB_CLI_DEVICE_PROFILE_H
#define SB_CLI_DEVICE_PROFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "shaderbridge/translate.h"

/** Most "storage_formats" entries a file may hold. */
#define CLI_DEVICE_PROFILE_MAX_FORMATS 4096u

struct cli_device_profile {
    struct sb_device_profile device;
    struct sb_storage_format *formats; /**< malloc'd; NULL without "storage_formats" */
    uint32_t format_count;
};

/**
 * `spec` "lavapipe": Mesa lavapipe 22.3's features (no shaderStorageImageReadWithoutFormat,
 * no shaderResourceMinLod, no *ArrayNonUniformIndexing) and limits (8 descriptor sets; per stage 32 storage buffers,
 * 64 storage images, 128 sampled images). Else a JSON file:
 *   { "features": { "<VkPhysicalDevice*Features member>": true|false, ... },
 *     "limits": { "maxBoundDescriptorSets": N, "maxPerStageDescriptorStorageBuffers": N,
 *                 "maxPerStageDescriptorStorageImages": N,
 *                 "maxPerStageDescriptorSampledImages": N },
 *     "storage_formats": [ { "space": N, "register": N, "vk_format": N }, ... ] }
 * Every member is optional; a feature not named is present, a limit not named is none. Unknown members, feature
 * names the translator does not use, and values of the wrong type are errors. Prints
 * `FILE:OFFSET: error: ...` and returns false on failure.
 */
bool cli_device_profile_load(const char *spec, struct cli_device_profile *out);

/** Reads a profile from JSON text (what cli_device_profile_load does with a file's bytes);
 *  on failure fills `error` (byte offset into the text for bad JSON) and returns false. */
bool cli_device_profile_parse(const char *text, size_t size, struct cli_device_profile *out,
                              struct sb_error *error);

/** Puts the profile in `options` (borrowed: keep `profile` until translation is done). */
void cli_device_profile_apply(const struct cli_device_profile *profile, struct sb_translate_options *options);

void cli_device_profile_free(struct cli_device_profile *profile);

/**
 * `--unbounded-descriptors N` of `command` (translate, reflect): descriptors per unbounded
 * SM5.1 range (sb_translate_options::unbounded_descriptor_count), for devices without
 * runtimeDescriptorArray. At least 1; the cap keeps the count within what any Vulkan device
 * could bind in one stage. False after printing a usage error.
 */
bool cli_parse_unbounded_descriptors(const char *command, const char *text, uint32_t *count);

#endif
