/* SPDX-License-Identifier: MIT */
/*
 * Device choice and creation for the runtime context (runtime.h): a device
 * named by index or case-insensitive name substring (options->device or
 * SHADERBRIDGE_DEVICE), else lavapipe ("llvmpipe"), else the first device;
 * one queue of a compute-capable family (one that can also draw when there
 * is one); every core feature the device
 * reports (Vulkan 1.0 - 1.3 structures as its version allows) plus
 * VK_EXT_robustness2, VK_EXT_shader_viewport_index_layer, VK_EXT_shader_stencil_export,
 * VK_EXT_custom_border_color (samplers' border colours), VK_EXT_conservative_rasterization
 * (SV_InnerCoverage; only where it reports FullyCoveredEXT for points) and
 * VK_EXT_fragment_shader_interlock (rasterizer-ordered views; only with
 * fragmentShaderPixelInterlock) when present.
 *
 * Why everything: a translated D3D shader may declare any capability its
 * source needed (Float64, Int64, StorageImageReadWithoutFormat, ImageCubeArray,
 * ImageGatherExtended, stores and atomics from any stage ...), and a feature
 * left off turns a valid module into a pipeline the device may reject.
 * robustBufferAccess is what gives D3D's out-of-bounds rules (reads return
 * zero, writes are dropped); robustBufferAccess2 makes those zeros exact
 * where the device has it. The one feature left off is
 * shaderTessellationAndGeometryPointSize: it obliges point-writing stages to
 * write PointSize, which D3D shaders never do.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vk_private.h"

/* Case-insensitive substring test. */
static bool name_contains(const char *name, const char *part)
{
    size_t n = strlen(name), m = strlen(part);
    for (size_t i = 0; m <= n && i <= n - m; i++) {
        size_t k = 0;
        while (k < m && tolower((unsigned char)name[i + k]) == tolower((unsigned char)part[k]))
            k++;
        if (k == m)
            return true;
    }
    return false;
}

static bool all_digits(const char *s)
{
    if (!*s)
        return false;
    for (; *s; s++)
        if (!isdigit((unsigned char)*s))
            return false;
    return true;
}

/* The index of the device `wanted` names (NULL: llvmpipe, else 0); UINT32_MAX when none. */
static uint32_t choose(const VkPhysicalDeviceProperties *props, uint32_t count, const char *wanted)
{
    if (wanted && all_digits(wanted)) {
        unsigned long index = strtoul(wanted, NULL, 10);
        return index < count ? (uint32_t)index : UINT32_MAX;
    }
    for (uint32_t i = 0; i < count; i++)
        if (name_contains(props[i].deviceName, wanted ? wanted : "llvmpipe"))
            return i;
    return wanted ? UINT32_MAX : 0;
}

static enum sb_result no_match(struct sb_rt_context *c, const VkPhysicalDeviceProperties *props,
                               uint32_t count, const char *wanted, struct sb_error *error)
{
    char list[160] = "";
    size_t used = 0;
    for (uint32_t i = 0; i < count && used < sizeof(list); i++) {
        int n = snprintf(list + used, sizeof(list) - used, "%s%u: %s", i ? ", " : "", i,
                         props[i].deviceName);
        if (n < 0)
            break;
        used += (size_t)n;
    }
    c->name_unmatched = true;
    return sb_vk_fail(error, SB_ERROR_NO_DEVICE, "no Vulkan device matches \"%.40s\"; devices found: %s",
                      wanted, list);
}

static enum sb_result pick_physical(struct sb_rt_context *c, const char *wanted, struct sb_error *error)
{
    uint32_t count = 0;
    VkResult r = vkEnumeratePhysicalDevices(c->instance, &count, NULL);
    if (r != VK_SUCCESS)
        return sb_vk_fail_call(error, "vkEnumeratePhysicalDevices", r);
    if (count == 0)
        return sb_vk_fail(error, SB_ERROR_NO_DEVICE, "no Vulkan device: the loader lists none");
    VkPhysicalDevice *devices = calloc(count, sizeof(*devices));
    VkPhysicalDeviceProperties *props = calloc(count, sizeof(*props));
    enum sb_result res = SB_SUCCESS;
    if (!devices || !props) {
        res = sb_vk_fail(error, SB_ERROR_OUT_OF_MEMORY, "out of memory listing Vulkan devices");
    } else if ((r = vkEnumeratePhysicalDevices(c->instance, &count, devices)) < 0) {
        res = sb_vk_fail_call(error, "vkEnumeratePhysicalDevices", r);
    } else {
        for (uint32_t i = 0; i < count; i++)
            vkGetPhysicalDeviceProperties(devices[i], &props[i]);
        uint32_t pick = choose(props, count, wanted);
        if (pick == UINT32_MAX) {
            res = no_match(c, props, count, wanted, error);
        } else {
            c->physical = devices[pick];
            c->properties = props[pick];
            vkGetPhysicalDeviceMemoryProperties(c->physical, &c->memory);
            snprintf(c->device_name, sizeof(c->device_name), "%s", props[pick].deviceName);
        }
    }
    free(devices);
    free(props);
    return res;
}


/* The feature structures, queried and then passed to vkCreateDevice as they came back. */
struct feature_chain {
    VkPhysicalDeviceFeatures2 core;
    VkPhysicalDeviceVulkan11Features v11;
    VkPhysicalDeviceVulkan12Features v12;
    VkPhysicalDeviceVulkan13Features v13;
    VkPhysicalDeviceRobustness2FeaturesEXT robust2;
    VkPhysicalDeviceCustomBorderColorFeaturesEXT border;
    VkPhysicalDeviceFragmentShaderInterlockFeaturesEXT interlock;
};

/* Queries the supported features; returns whether the Features2 chain may be used. */
static bool query_features(struct sb_rt_context *c, uint32_t api, bool robust2, bool border, bool interlock,
                           struct feature_chain *f)
{
    memset(f, 0, sizeof(*f));
    f->core.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2;
    f->v11.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES;
    f->v12.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES;
    f->v13.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES;
    f->robust2.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ROBUSTNESS_2_FEATURES_EXT;
    f->border.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_CUSTOM_BORDER_COLOR_FEATURES_EXT;
    f->interlock.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FRAGMENT_SHADER_INTERLOCK_FEATURES_EXT;
    if (api < VK_API_VERSION_1_1 || !vkGetPhysicalDeviceFeatures2) {
        vkGetPhysicalDeviceFeatures(c->physical, &f->core.features);
        return false;
    }
    void **tail = &f->core.pNext;
    if (api >= VK_API_VERSION_1_2) {
        *tail = &f->v11;
        f->v11.pNext = &f->v12;
        tail = &f->v12.pNext;
    }
    if (api >= VK_API_VERSION_1_3) {
        *tail = &f->v13;
        tail = &f->v13.pNext;
    }
    if (robust2) {
        *tail = &f->robust2;
        tail = &f->robust2.pNext;
    }
    if (border) {
        *tail = &f->border;
        tail = &f->border.pNext;
    }
    if (interlock)
        *tail = &f->interlock;
    vkGetPhysicalDeviceFeatures2(c->physical, &f->core);
    return true;
}

static uint32_t compute_family(struct sb_rt_context *c)
{
    uint32_t count = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(c->physical, &count, NULL);
    VkQueueFamilyProperties families[32];
    if (count > 32)
        count = 32;
    vkGetPhysicalDeviceQueueFamilyProperties(c->physical, &count, families);
    /* A family that also draws, so sb_rt_draw_points can use the same queue. */
    const VkQueueFlags both = VK_QUEUE_COMPUTE_BIT | VK_QUEUE_GRAPHICS_BIT;
    for (uint32_t i = 0; i < count; i++)
        if ((families[i].queueFlags & both) == both) {
            c->graphics_queue = true;
            return i;
        }
    for (uint32_t i = 0; i < count; i++)
        if (families[i].queueFlags & VK_QUEUE_COMPUTE_BIT)
            return i;
    return UINT32_MAX;
}

static enum sb_result create_logical(struct sb_rt_context *c, uint32_t api, struct sb_error *error)
{
    bool robust2 = api >= VK_API_VERSION_1_1 &&
                   sb_vk_has_device_extension(c->physical, VK_EXT_ROBUSTNESS_2_EXTENSION_NAME);
    /* Samplers with a border colour other than Vulkan's three standard ones (vk_image.c). */
    bool border = api >= VK_API_VERSION_1_1 &&
                  sb_vk_has_device_extension(c->physical, VK_EXT_CUSTOM_BORDER_COLOR_EXTENSION_NAME);
    /* Pixel shaders with rasterizer-ordered views declare FragmentShaderPixelInterlockEXT. */
    bool interlock = api >= VK_API_VERSION_1_1 &&
                     sb_vk_has_device_extension(c->physical, VK_EXT_FRAGMENT_SHADER_INTERLOCK_EXTENSION_NAME);
    struct feature_chain f;
    bool chained = query_features(c, api, robust2, border, interlock, &f);
    f.core.features.shaderTessellationAndGeometryPointSize = VK_FALSE;
    robust2 = chained && robust2 && f.robust2.robustBufferAccess2;
    if (!robust2) /* its link stays: the loop below unlinks it, keeping what follows */
        f.robust2 = (VkPhysicalDeviceRobustness2FeaturesEXT){ .pNext = f.robust2.pNext };
    border = chained && border && f.border.customBorderColors && f.border.customBorderColorWithoutFormat;
    interlock = chained && interlock && f.interlock.fragmentShaderPixelInterlock;
    /* Translated vertex / geometry shaders writing SV_RenderTargetArrayIndex or
     * SV_ViewportArrayIndex declare ShaderViewportIndexLayerEXT, which only this extension allows. */
    bool layer_ext = sb_vk_has_device_extension(c->physical, VK_EXT_SHADER_VIEWPORT_INDEX_LAYER_EXTENSION_NAME);
    /* Pixel shaders writing SV_StencilRef declare StencilExportEXT. */
    bool stencil_ext = sb_vk_has_device_extension(c->physical, VK_EXT_SHADER_STENCIL_EXPORT_EXTENSION_NAME);
    /* Pixel shaders reading SV_InnerCoverage read FullyCoveredEXT, which conservative
     * rasterization reports; the draws are points, so point rasterization must be covered. */
    bool conservative = api >= VK_API_VERSION_1_1 &&
                        sb_vk_has_device_extension(c->physical, VK_EXT_CONSERVATIVE_RASTERIZATION_EXTENSION_NAME);
    VkPhysicalDeviceConservativeRasterizationPropertiesEXT conservative_props = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_CONSERVATIVE_RASTERIZATION_PROPERTIES_EXT,
    };
    if (conservative && vkGetPhysicalDeviceProperties2) {
        VkPhysicalDeviceProperties2 props = { .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2,
                                              .pNext = &conservative_props };
        vkGetPhysicalDeviceProperties2(c->physical, &props);
    }
    conservative = conservative && vkGetPhysicalDeviceProperties2 &&
                   conservative_props.fullyCoveredFragmentShaderInputVariable &&
                   conservative_props.conservativePointAndLineRasterization;
    const char *extensions[6];
    uint32_t extension_count = 0;
    if (robust2)
        extensions[extension_count++] = VK_EXT_ROBUSTNESS_2_EXTENSION_NAME;
    if (layer_ext)
        extensions[extension_count++] = VK_EXT_SHADER_VIEWPORT_INDEX_LAYER_EXTENSION_NAME;
    if (stencil_ext)
        extensions[extension_count++] = VK_EXT_SHADER_STENCIL_EXPORT_EXTENSION_NAME;
    if (border)
        extensions[extension_count++] = VK_EXT_CUSTOM_BORDER_COLOR_EXTENSION_NAME;
    if (conservative)
        extensions[extension_count++] = VK_EXT_CONSERVATIVE_RASTERIZATION_EXTENSION_NAME;
    if (interlock)
        extensions[extension_count++] = VK_EXT_FRAGMENT_SHADER_INTERLOCK_EXTENSION_NAME;
    float priority = 1.0f;
    VkDeviceQueueCreateInfo queue = {
        .sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
        .queueFamilyIndex = c->queue_family,
        .queueCount = 1,
        .pQueuePriorities = &priority,
    };
    /* Unlink the structs of extensions not enabled (each points at the next, or NULL). */
    for (VkBaseOutStructure *s = chained ? (VkBaseOutStructure *)&f.core : NULL; s && s->pNext;) {
        bool drop = (s->pNext == (VkBaseOutStructure *)&f.robust2 && !robust2) ||
                    (s->pNext == (VkBaseOutStructure *)&f.border && !border) ||
                    (s->pNext == (VkBaseOutStructure *)&f.interlock && !interlock);
        if (drop)
            s->pNext = s->pNext->pNext;
        else
            s = s->pNext;
    }
    VkDeviceCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
        .pNext = chained ? &f.core : NULL,
        .queueCreateInfoCount = 1,
        .pQueueCreateInfos = &queue,
        .enabledExtensionCount = extension_count,
        .ppEnabledExtensionNames = extensions,
        .pEnabledFeatures = chained ? NULL : &f.core.features,
    };
    VkResult r = vkCreateDevice(c->physical, &info, NULL, &c->device);
    if (r != VK_SUCCESS)
        return sb_vk_fail(error, SB_ERROR_VULKAN, "vkCreateDevice on %.100s failed: %s",
                          c->device_name, sb_vk_result_name(r));
    c->robustness2 = robust2;
    c->viewport_index_layer = layer_ext;
    c->stencil_export = stencil_ext;
    c->custom_border_color = border;
    c->fully_covered = conservative;
    c->pixel_interlock = interlock;
    c->features = f.core.features;
    if (chained && api >= VK_API_VERSION_1_2)
        c->features11 = f.v11;
    if (chained && api >= VK_API_VERSION_1_2)
        c->features12 = f.v12;
    if (chained && api >= VK_API_VERSION_1_3)
        c->features13 = f.v13;
    c->features11.pNext = NULL;
    c->features12.pNext = NULL;
    c->features13.pNext = NULL;
    volkLoadDeviceTable(&c->vk, c->device);
    return SB_SUCCESS;
}

enum sb_result sb_vk_device_create(struct sb_rt_context *c, const char *wanted, struct sb_error *error)
{
    enum sb_result res = pick_physical(c, wanted, error);
    if (res != SB_SUCCESS)
        return res;
    uint32_t api = VK_API_VERSION_1_0;
    if (vkEnumerateInstanceVersion && vkEnumerateInstanceVersion(&api) != VK_SUCCESS)
        api = VK_API_VERSION_1_0;
    if (api > VK_API_VERSION_1_3)
        api = VK_API_VERSION_1_3;
    if (c->properties.apiVersion < api)
        api = c->properties.apiVersion;
    c->api_version = api;
    c->queue_family = compute_family(c);
    if (c->queue_family == UINT32_MAX)
        return sb_vk_fail(error, SB_ERROR_NO_DEVICE, "Vulkan device %.100s has no compute queue",
                          c->device_name);
    res = create_logical(c, api, error);
    if (res != SB_SUCCESS)
        return res;
    c->vk.vkGetDeviceQueue(c->device, c->queue_family, 0, &c->queue);
    VkCommandPoolCreateInfo pool = {
        .sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
        .flags = VK_COMMAND_POOL_CREATE_TRANSIENT_BIT,
        .queueFamilyIndex = c->queue_family,
    };
    VkResult r = c->vk.vkCreateCommandPool(c->device, &pool, NULL, &c->command_pool);
    if (r != VK_SUCCESS)
        return sb_vk_fail_call(error, "vkCreateCommandPool", r);
    return SB_SUCCESS;
}
