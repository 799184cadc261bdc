/* SPDX-License-Identifier: MIT */
/*
 * Instance, device and validation messenger of the Vulkan tests
 * (vk_harness.h). The device enables every core feature the implementation
 * reports (except shaderTessellationAndGeometryPointSize, see below), plus
 * the few extensions translated D3D shaders may need (geometry streams,
 * stencil export, robustness2, viewport index / layer from any stage),
 * because the question the
 * tests ask is "is this SPIR-V and pipeline valid", not "does it run on the
 * most limited device": a feature left off would turn into a validation
 * error that says nothing about the translator.
 *
 * Validation messages are counted by severity; the first error and warning
 * since the last reset are kept so a corpus run can group failures by
 * message. Resources, pipelines and dispatch live in vk_harness_objects.c.
 */
#include "vk_harness.h"
#include "vulkan/vk_private.h" /* the runtime's Vulkan helpers this harness shares */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>


static const char *const validation_layer = "VK_LAYER_KHRONOS_validation";

/* AddressSanitizer builds (gcc defines __SANITIZE_ADDRESS__, clang has __has_feature). */
#if defined(__SANITIZE_ADDRESS__)
#define VKH_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define VKH_ASAN 1
#endif
#endif

static void keep_text(char *dst, size_t size, const char *text)
{
    if (dst[0] == 0)
        snprintf(dst, size, "%s", text ? text : "(no message)");
}

static VKAPI_ATTR VkBool32 VKAPI_CALL on_message(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                                 VkDebugUtilsMessageTypeFlagsEXT type,
                                                 const VkDebugUtilsMessengerCallbackDataEXT *data,
                                                 void *user)
{
    struct vkh_messages *m = user;
    const char *text = data && data->pMessage ? data->pMessage : "(no message)";
    const char *kind;
    if (severity & VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT) {
        m->errors++;
        keep_text(m->first_error, sizeof(m->first_error), text);
        kind = "ERROR";
    } else if (severity & VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT) {
        if (type & VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT) {
            m->performance++;
            kind = "PERF-WARNING";
        } else {
            m->warnings++;
            keep_text(m->first_warning, sizeof(m->first_warning), text);
            kind = "WARNING";
        }
    } else {
        return VK_FALSE;
    }
    if (!m->quiet && m->printed < VKH_PRINT_LIMIT) {
        m->printed++;
        fprintf(stderr, "vulkan %s: %s\n", kind, text);
        if (m->printed == VKH_PRINT_LIMIT)
            fprintf(stderr, "vulkan: further messages are counted, not printed\n");
    }
    return VK_FALSE;
}

void vkh_reset_messages(struct vkh *h)
{
    bool quiet = h->messages.quiet;
    uint32_t printed = h->messages.printed;
    memset(&h->messages, 0, sizeof(h->messages));
    h->messages.quiet = quiet;
    h->messages.printed = printed;
}

static VkDebugUtilsMessengerCreateInfoEXT messenger_info(struct vkh *h)
{
    return (VkDebugUtilsMessengerCreateInfoEXT){
        .sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT,
        .messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT |
                           VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT,
        .messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT |
                       VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                       VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT,
        .pfnUserCallback = on_message,
        .pUserData = &h->messages,
    };
}

static int create_instance(struct vkh *h)
{
    if (!sb_vk_has_instance_layer(validation_layer)) {
        fprintf(stderr, "vk harness: %s is not installed (Debian: vulkan-validationlayers); "
                        "the Vulkan tests need it\n", validation_layer);
        return 1;
    }
    h->validation = true;
    uint32_t api = VK_API_VERSION_1_1;
    if (vkEnumerateInstanceVersion)
        vkEnumerateInstanceVersion(&api);
    if (api > VK_API_VERSION_1_3)
        api = VK_API_VERSION_1_3;
    const char *extensions[] = { VK_EXT_DEBUG_UTILS_EXTENSION_NAME };
    VkDebugUtilsMessengerCreateInfoEXT early = messenger_info(h);
    VkApplicationInfo app = {
        .sType = VK_STRUCTURE_TYPE_APPLICATION_INFO,
        .pApplicationName = "shaderbridge-tests",
        .apiVersion = api,
    };
    VkInstanceCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO,
        .pNext = &early,
        .pApplicationInfo = &app,
        .enabledLayerCount = 1,
        .ppEnabledLayerNames = &validation_layer,
        .enabledExtensionCount = 1,
        .ppEnabledExtensionNames = extensions,
    };
    VkResult r = vkCreateInstance(&info, NULL, &h->instance);
    if (r == VK_ERROR_INCOMPATIBLE_DRIVER) {
        printf("SKIPPED: no Vulkan driver (vkCreateInstance: VK_ERROR_INCOMPATIBLE_DRIVER)\n");
        return VKH_SKIP;
    }
    if (r != VK_SUCCESS) {
        fprintf(stderr, "vkCreateInstance: %s\n", vkh_result_name(r));
        return 1;
    }
    volkLoadInstance(h->instance);
    VkDebugUtilsMessengerCreateInfoEXT late = messenger_info(h);
    r = vkCreateDebugUtilsMessengerEXT(h->instance, &late, NULL, &h->messenger);
    if (r != VK_SUCCESS) {
        fprintf(stderr, "vkCreateDebugUtilsMessengerEXT: %s\n", vkh_result_name(r));
        return 1;
    }
    return 0;
}

/* lavapipe (a CPU device) first; a test box may list other drivers too. */
static int pick_physical(struct vkh *h)
{
    uint32_t count = 0;
    VkResult r = vkEnumeratePhysicalDevices(h->instance, &count, NULL);
    if (r != VK_SUCCESS || count == 0) {
        printf("SKIPPED: no Vulkan physical device (vkEnumeratePhysicalDevices: %s, %u devices)\n",
               vkh_result_name(r), count);
        return VKH_SKIP;
    }
    VkPhysicalDevice *devices = calloc(count, sizeof(*devices));
    if (!devices || vkEnumeratePhysicalDevices(h->instance, &count, devices) < 0) {
        free(devices);
        return 1;
    }
    h->physical = devices[0];
    for (uint32_t i = 0; i < count; i++) {
        VkPhysicalDeviceProperties p;
        vkGetPhysicalDeviceProperties(devices[i], &p);
        if (p.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU) {
            h->physical = devices[i];
            break;
        }
    }
    free(devices);
    vkGetPhysicalDeviceProperties(h->physical, &h->properties);
    vkGetPhysicalDeviceMemoryProperties(h->physical, &h->memory);
    return 0;
}

/* Feature structs chained for query and for creation (the same chain: "all supported"). */
struct feature_chain {
    VkPhysicalDeviceFeatures2 core;
    VkPhysicalDeviceVulkan11Features v11;
    VkPhysicalDeviceVulkan12Features v12;
    VkPhysicalDeviceVulkan13Features v13;
    VkPhysicalDeviceTransformFeedbackFeaturesEXT xfb;
    VkPhysicalDeviceRobustness2FeaturesEXT robust2;
};

static int create_device(struct vkh *h)
{
    uint32_t family_count = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(h->physical, &family_count, NULL);
    VkQueueFamilyProperties families[16];
    if (family_count > 16)
        family_count = 16;
    vkGetPhysicalDeviceQueueFamilyProperties(h->physical, &family_count, families);
    h->queue_family = UINT32_MAX;
    for (uint32_t i = 0; i < family_count && h->queue_family == UINT32_MAX; i++)
        if ((families[i].queueFlags & (VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT)) ==
            (VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT))
            h->queue_family = i;
    if (h->queue_family == UINT32_MAX) {
        fprintf(stderr, "vk harness: no graphics+compute queue on %s\n", h->properties.deviceName);
        return 1;
    }

    const char *extensions[6];
    uint32_t ext_count = 0;
    struct feature_chain f = { 0 };
    f.core.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2;
    f.v11.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES;
    f.v12.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES;
    f.v13.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES;
    f.xfb.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TRANSFORM_FEEDBACK_FEATURES_EXT;
    f.robust2.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ROBUSTNESS_2_FEATURES_EXT;
    void **tail = &f.core.pNext;
    uint32_t api = h->properties.apiVersion;
    if (api >= VK_API_VERSION_1_2) {
        *tail = &f.v11;
        f.v11.pNext = &f.v12;
        tail = &f.v12.pNext;
    }
    if (api >= VK_API_VERSION_1_3) {
        *tail = &f.v13;
        tail = &f.v13.pNext;
    }
    if (sb_vk_has_device_extension(h->physical, VK_EXT_TRANSFORM_FEEDBACK_EXTENSION_NAME)) {
        extensions[ext_count++] = VK_EXT_TRANSFORM_FEEDBACK_EXTENSION_NAME;
        *tail = &f.xfb;
        tail = &f.xfb.pNext;
    }
    if (sb_vk_has_device_extension(h->physical, VK_EXT_ROBUSTNESS_2_EXTENSION_NAME)) {
        extensions[ext_count++] = VK_EXT_ROBUSTNESS_2_EXTENSION_NAME;
        *tail = &f.robust2;
        tail = &f.robust2.pNext;
    }
    if (sb_vk_has_device_extension(h->physical, VK_EXT_SHADER_STENCIL_EXPORT_EXTENSION_NAME)) {
        extensions[ext_count++] = VK_EXT_SHADER_STENCIL_EXPORT_EXTENSION_NAME;
        h->stencil_export = true;
    }
    if (sb_vk_has_device_extension(h->physical, VK_EXT_SHADER_VIEWPORT_INDEX_LAYER_EXTENSION_NAME))
        extensions[ext_count++] = VK_EXT_SHADER_VIEWPORT_INDEX_LAYER_EXTENSION_NAME;
    vkGetPhysicalDeviceFeatures2(h->physical, &f.core);
    /* The one feature that adds a duty instead of a permission: with it on, every
     * GS/tessellation stage writing points must write PointSize, which D3D
     * shaders never do (D3D points are one pixel). Applications running D3D
     * content leave it off, so the tests do too. */
    f.core.features.shaderTessellationAndGeometryPointSize = VK_FALSE;
    h->geometry_streams = f.xfb.geometryStreams;
    /* transformFeedback itself is not what a D3D stream needs; keep it as reported. */

    float priority = 1.0f;
    VkDeviceQueueCreateInfo queue = {
        .sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
        .queueFamilyIndex = h->queue_family,
        .queueCount = 1,
        .pQueuePriorities = &priority,
    };
    VkDeviceCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
        .pNext = &f.core,
        .queueCreateInfoCount = 1,
        .pQueueCreateInfos = &queue,
        .enabledExtensionCount = ext_count,
        .ppEnabledExtensionNames = extensions,
    };
    VkResult r = vkCreateDevice(h->physical, &info, NULL, &h->device);
    if (r != VK_SUCCESS) {
        fprintf(stderr, "vkCreateDevice on %s: %s\n", h->properties.deviceName,
                vkh_result_name(r));
        return 1;
    }
    volkLoadDevice(h->device);
    vkGetDeviceQueue(h->device, h->queue_family, 0, &h->queue);
    VkCommandPoolCreateInfo pool = {
        .sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
        .flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT,
        .queueFamilyIndex = h->queue_family,
    };
    r = vkCreateCommandPool(h->device, &pool, NULL, &h->command_pool);
    if (r != VK_SUCCESS) {
        fprintf(stderr, "vkCreateCommandPool: %s\n", vkh_result_name(r));
        return 1;
    }
    return 0;
}

int vkh_init(struct vkh *h)
{
    memset(h, 0, sizeof(*h));
    VkResult r = volkInitialize();
    if (r != VK_SUCCESS) {
        printf("SKIPPED: no Vulkan loader (volkInitialize: %s)\n", vkh_result_name(r));
        return VKH_SKIP;
    }
    int status = create_instance(h);
    if (status == 0)
        status = pick_physical(h);
    if (status == 0)
        status = create_device(h);
    if (status != 0) {
        vkh_destroy(h);
        return status;
    }
    printf("vulkan: %s (Vulkan %u.%u.%u, driver 0x%x), validation layer on\n",
           h->properties.deviceName, VK_API_VERSION_MAJOR(h->properties.apiVersion),
           VK_API_VERSION_MINOR(h->properties.apiVersion),
           VK_API_VERSION_PATCH(h->properties.apiVersion), h->properties.driverVersion);
    return 0;
}

void vkh_destroy(struct vkh *h)
{
    if (h->device) {
        vkDeviceWaitIdle(h->device);
        if (h->command_pool)
            vkDestroyCommandPool(h->device, h->command_pool, NULL);
        if (h->cache)
            vkDestroyPipelineCache(h->device, h->cache, NULL);
        vkDestroyDevice(h->device, NULL);
    }
    if (h->messenger)
        vkDestroyDebugUtilsMessengerEXT(h->instance, h->messenger, NULL);
#ifdef VKH_ASAN
    /* Under LeakSanitizer the instance is left alive: destroying it makes the loader
     * unload lavapipe, whose static caches (LLVM, gallivm) then point to nothing and
     * read as leaks in an "<unknown module>". Kept mapped, they are reachable. */
#else
    if (h->instance)
        vkDestroyInstance(h->instance, NULL);
#endif
    struct vkh_messages keep = h->messages;
    memset(h, 0, sizeof(*h));
    h->messages = keep;
}

/* The runtime's names (runtime/src/vulkan/vk_util.c): one table for the project. */
const char *vkh_result_name(VkResult r)
{
    return sb_vk_result_name(r);
}
