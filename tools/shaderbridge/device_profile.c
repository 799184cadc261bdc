/* SPDX-License-Identifier: MIT */
/*
 * Device profiles for `translate --device-profile` (device_profile.h). A profile
 * file is the answer to "what does my device lack", written once per device
 * (e.g. from vulkaninfo); it is read strictly: a misspelt feature silently
 * taken as present would give a module the device then refuses, so every
 * unknown member, feature name or mistyped value is an error naming it. The
 * feature names are the Vulkan structure members (VkPhysicalDeviceFeatures:
 * shaderStorageImageReadWithoutFormat, shaderResourceMinLod; VkPhysicalDeviceVulkan12Features:
 * the *ArrayNonUniformIndexing ones; the extensions' structures: fragmentShaderPixelInterlock,
 * fullyCoveredFragmentShaderInputVariable), one table row each.
 */
#include "device_profile.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "error.h"

static const struct {
    const char *name;
    size_t offset;           /* of the bool in struct sb_device_profile */
} features[] = {
    { "shaderStorageImageReadWithoutFormat", offsetof(struct sb_device_profile, storage_image_read_without_format) },
    { "shaderResourceMinLod", offsetof(struct sb_device_profile, shader_resource_min_lod) },
    { "shaderSampledImageArrayNonUniformIndexing",
      offsetof(struct sb_device_profile, sampled_image_array_non_uniform_indexing) },
    { "shaderStorageImageArrayNonUniformIndexing",
      offsetof(struct sb_device_profile, storage_image_array_non_uniform_indexing) },
    { "shaderUniformTexelBufferArrayNonUniformIndexing",
      offsetof(struct sb_device_profile, uniform_texel_buffer_array_non_uniform_indexing) },
    { "shaderStorageTexelBufferArrayNonUniformIndexing",
      offsetof(struct sb_device_profile, storage_texel_buffer_array_non_uniform_indexing) },
    { "shaderStorageBufferArrayNonUniformIndexing",
      offsetof(struct sb_device_profile, storage_buffer_array_non_uniform_indexing) },
    /* VkPhysicalDeviceFragmentShaderInterlockFeaturesEXT (VK_EXT_fragment_shader_interlock) */
    { "fragmentShaderPixelInterlock", offsetof(struct sb_device_profile, fragment_shader_pixel_interlock) },
    /* VkPhysicalDeviceConservativeRasterizationPropertiesEXT (VK_EXT_conservative_rasterization):
     * a property, not a feature, but like one it says what a module may use */
    { "fullyCoveredFragmentShaderInputVariable", offsetof(struct sb_device_profile, fragment_fully_covered) },
    /* VkPhysicalDeviceVulkan11Features / VkPhysicalDeviceMultiviewFeatures */
    { "multiview", offsetof(struct sb_device_profile, multiview) },
    /* VkPhysicalDeviceFragmentShadingRateFeaturesKHR (VK_KHR_fragment_shading_rate) */
    { "primitiveFragmentShadingRate", offsetof(struct sb_device_profile, fragment_shading_rate) },
    /* VkPhysicalDeviceFragmentShaderBarycentricFeaturesKHR (VK_KHR_fragment_shader_barycentric) */
    { "fragmentShaderBarycentric", offsetof(struct sb_device_profile, fragment_shader_barycentric) },
};
#define FEATURE_COUNT (sizeof(features) / sizeof(features[0]))

static void set_feature(struct sb_device_profile *d, size_t row, bool value)
{
    memcpy((char *)d + features[row].offset, &value, sizeof(value));
}

/* Every feature present: what a described profile starts from. */
static void all_present(struct sb_device_profile *d)
{
    *d = (struct sb_device_profile){ .described = true };
    for (size_t i = 0; i < FEATURE_COUNT; i++)
        set_feature(d, i, true);
}

static bool fail(struct sb_error *error, enum sb_result code, uint64_t offset, const char *message, const char *what)
{
    sb_error_set(error, code, offset, SB_ERROR_NO_INSTR, "%s%s", message, what ? what : "");
    return false;
}

static bool read_features(json_object *object, struct sb_device_profile *d, struct sb_error *error)
{
    if (!json_object_is_type(object, json_type_object))
        return fail(error, SB_ERROR_BAD_VALUE, 0, "device profile: \"features\" must be an object", NULL);
    json_object_object_foreach(object, key, value) {
        size_t row = 0;
        while (row < FEATURE_COUNT && strcmp(features[row].name, key))
            row++;
        if (row == FEATURE_COUNT)
            return fail(error, SB_ERROR_BAD_VALUE, 0, "device profile: unknown feature ", key);
        if (!json_object_is_type(value, json_type_boolean))
            return fail(error, SB_ERROR_BAD_VALUE, 0, "device profile: want true or false for feature ", key);
        set_feature(d, row, json_object_get_boolean(value));
    }
    return true;
}

static bool u32_member(json_object *entry, const char *key, uint32_t *out, struct sb_error *error);

/* "limits": VkPhysicalDeviceLimits' names, one row each; a limit left out is 0 (no limit). */
static const struct {
    const char *name;
    size_t offset;           /* of the uint32_t in struct sb_device_profile */
} limits[] = {
    { "maxBoundDescriptorSets", offsetof(struct sb_device_profile, max_bound_descriptor_sets) },
    { "maxPerStageDescriptorStorageBuffers", offsetof(struct sb_device_profile, max_per_stage_storage_buffers) },
    { "maxPerStageDescriptorStorageImages", offsetof(struct sb_device_profile, max_per_stage_storage_images) },
    { "maxPerStageDescriptorSampledImages", offsetof(struct sb_device_profile, max_per_stage_sampled_images) },
};
#define LIMIT_COUNT (sizeof(limits) / sizeof(limits[0]))

static bool read_limits(json_object *object, struct sb_device_profile *d, struct sb_error *error)
{
    if (!json_object_is_type(object, json_type_object))
        return fail(error, SB_ERROR_BAD_VALUE, 0, "device profile: \"limits\" must be an object", NULL);
    json_object_object_foreach(object, key, value) {
        (void)value;
        size_t row = 0;
        while (row < LIMIT_COUNT && strcmp(limits[row].name, key))
            row++;
        if (row == LIMIT_COUNT)
            return fail(error, SB_ERROR_BAD_VALUE, 0, "device profile: unknown limit ", key);
        uint32_t n;
        if (!u32_member(object, key, &n, error))
            return false;
        memcpy((char *)d + limits[row].offset, &n, sizeof(n));
    }
    return true;
}

static bool u32_member(json_object *entry, const char *key, uint32_t *out, struct sb_error *error)
{
    json_object *v = NULL;
    if (!json_object_object_get_ex(entry, key, &v) || !json_object_is_type(v, json_type_int))
        return fail(error, SB_ERROR_BAD_VALUE, 0, "device profile: want an integer ", key);
    int64_t n = json_object_get_int64(v);
    if (n < 0 || n > (int64_t)UINT32_MAX)
        return fail(error, SB_ERROR_BAD_VALUE, 0, "device profile: out of the uint32 range: ", key);
    *out = (uint32_t)n;
    return true;
}

static bool read_formats(json_object *list, struct cli_device_profile *out, struct sb_error *error)
{
    if (!json_object_is_type(list, json_type_array))
        return fail(error, SB_ERROR_BAD_VALUE, 0, "device profile: \"storage_formats\" must be an array", NULL);
    size_t count = json_object_array_length(list);
    if (count > CLI_DEVICE_PROFILE_MAX_FORMATS)
        return fail(error, SB_ERROR_BAD_COUNT, 0, "device profile: more than 4096 storage formats", NULL);
    out->formats = calloc(count ? count : 1, sizeof(*out->formats));
    if (!out->formats)
        return fail(error, SB_ERROR_OUT_OF_MEMORY, 0, "out of memory reading the device profile", NULL);
    for (size_t i = 0; i < count; i++) {
        json_object *entry = json_object_array_get_idx(list, i);
        if (!json_object_is_type(entry, json_type_object))
            return fail(error, SB_ERROR_BAD_VALUE, 0, "device profile: a storage format must be an object", NULL);
        json_object_object_foreach(entry, key, value) {
            (void)value;
            if (strcmp(key, "space") && strcmp(key, "register") && strcmp(key, "vk_format"))
                return fail(error, SB_ERROR_BAD_VALUE, 0, "device profile: unknown storage format member ", key);
        }
        struct sb_storage_format *f = &out->formats[i];
        if (!u32_member(entry, "space", &f->space, error) || !u32_member(entry, "register", &f->register_index, error) ||
            !u32_member(entry, "vk_format", &f->vk_format, error))
            return false;
        out->format_count = (uint32_t)(i + 1);
    }
    return true;
}

bool cli_device_profile_parse(const char *text, size_t size, struct cli_device_profile *out, struct sb_error *error)
{
    memset(out, 0, sizeof(*out));
    all_present(&out->device);
    if (size > INT32_MAX)
        return fail(error, SB_ERROR_BAD_SIZE, 0, "device profile: the file is too large", NULL);
    json_tokener *tok = json_tokener_new();
    if (!tok)
        return fail(error, SB_ERROR_OUT_OF_MEMORY, 0, "out of memory reading the device profile", NULL);
    json_object *root = json_tokener_parse_ex(tok, text, (int)size);
    enum json_tokener_error e = json_tokener_get_error(tok);
    size_t end = json_tokener_get_parse_end(tok);
    while (root && end < size && text[end] && strchr(" \t\r\n", text[end]))
        end++;
    bool ok = true;
    if (!root || e != json_tokener_success || end < size)
        ok = fail(error, SB_ERROR_BAD_VALUE, end, "device profile: not JSON: ",
                  root ? "text after the value"
                       : e == json_tokener_continue ? "the text ends inside a value" : json_tokener_error_desc(e));
    else if (!json_object_is_type(root, json_type_object))
        ok = fail(error, SB_ERROR_BAD_VALUE, 0, "device profile: want a JSON object", NULL);
    if (ok) {
        json_object_object_foreach(root, key, value) {
            if (!strcmp(key, "features"))
                ok = read_features(value, &out->device, error);
            else if (!strcmp(key, "limits"))
                ok = read_limits(value, &out->device, error);
            else if (!strcmp(key, "storage_formats"))
                ok = read_formats(value, out, error);
            else
                ok = fail(error, SB_ERROR_BAD_VALUE, 0, "device profile: unknown member ", key);
            if (!ok)
                break;
        }
    }
    json_object_put(root);
    json_tokener_free(tok);
    if (!ok)
        cli_device_profile_free(out);
    return ok;
}

bool cli_device_profile_load(const char *spec, struct cli_device_profile *out)
{
    memset(out, 0, sizeof(*out));
    if (!strcmp(spec, "lavapipe")) {
        /* Mesa lavapipe 22.3 (llvmpipe): none of these features but multiview (shaderResourceMinLod
         * included; nor VK_EXT_fragment_shader_interlock, VK_EXT_conservative_rasterization,
         * VK_KHR_fragment_shading_rate or VK_KHR_fragment_shader_barycentric), 8 descriptor
         * sets; per stage 32 storage buffers, 64 storage images, 128 sampled images (vulkaninfo). */
        out->device = (struct sb_device_profile){
            .described = true,
            .max_bound_descriptor_sets = 8,
            .max_per_stage_storage_buffers = 32,
            .max_per_stage_storage_images = 64,
            .max_per_stage_sampled_images = 128,
            .fragment_shader_pixel_interlock = false,
            .fragment_fully_covered = false,
            .multiview = true,
            .fragment_shading_rate = false,
            .fragment_shader_barycentric = false,
        };
        return true;
    }
    struct cli_file file;
    if (!cli_file_load(spec, &file))
        return false;
    struct sb_error error = { 0 };
    bool ok = cli_device_profile_parse((const char *)file.bytes, file.size, out, &error);
    if (!ok)
        cli_report_error(spec, &error);
    cli_file_free(&file);
    return ok;
}

void cli_device_profile_apply(const struct cli_device_profile *profile, struct sb_translate_options *options)
{
    options->device = profile->device;
    options->storage_format_count = profile->format_count;
    options->storage_formats = profile->formats;
}

void cli_device_profile_free(struct cli_device_profile *profile)
{
    free(profile->formats);
    memset(profile, 0, sizeof(*profile));
}

bool cli_parse_unbounded_descriptors(const char *command, const char *text, uint32_t *count)
{
    char *end = NULL;
    long value = strtol(text, &end, 10);
    if (!*text || *end || value < 1 || value > 1000000) {
        cli_usage_error("%s: --unbounded-descriptors wants a number from 1 to 1000000, not '%s'", command,
                        text);
        return false;
    }
    *count = (uint32_t)value;
    return true;
}
