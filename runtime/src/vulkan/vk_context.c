/* SPDX-License-Identifier: MIT */
/*
 * The runtime context (runtime.h): loads the Vulkan loader through volk (or
 * the library SHADERBRIDGE_VULKAN_LOADER names, so tests can simulate a
 * machine without Vulkan), creates the instance with the Khronos validation
 * layer and a debug-utils messenger when asked, and hands device choice to
 * vk_device.c. Without a loader or a device the context may fall back to
 * CPU-only mode (options->allow_cpu_only), in which GPU calls fail with
 * SB_ERROR_NO_DEVICE.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vk_private.h"

static const char *const validation_layer = "VK_LAYER_KHRONOS_validation";

static VKAPI_ATTR VkBool32 VKAPI_CALL on_message(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                                 VkDebugUtilsMessageTypeFlagsEXT type,
                                                 const VkDebugUtilsMessengerCallbackDataEXT *data,
                                                 void *user)
{
    struct sb_rt_context *c = user;
    if (!(severity & VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT))
        return VK_FALSE;
    if (c->validation_errors++ == 0)
        snprintf(c->first_validation_error, sizeof(c->first_validation_error), "%s",
                 data && data->pMessage ? data->pMessage : "(no message)");
    return VK_FALSE;
}

/*
 * Loads the loader's vkGetInstanceProcAddr. The library stays loaded for the
 * life of the process: volk keeps its function pointers in globals that any
 * later context (or caller) may still use.
 */
static enum sb_result load_loader(struct sb_error *error)
{
    const char *path = getenv(SB_VK_LOADER_ENV);
    if (!path || !*path) {
        VkResult r = volkInitialize();
        if (r != VK_SUCCESS)
            return sb_vk_fail(error, SB_ERROR_NO_DEVICE,
                              "no Vulkan loader: libvulkan.so.1 could not be loaded (volkInitialize: %s)",
                              sb_vk_result_name(r));
        return SB_SUCCESS;
    }
    void *library = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!library)
        return sb_vk_fail(error, SB_ERROR_NO_DEVICE, "no Vulkan loader: %s=%.120s cannot be loaded",
                          SB_VK_LOADER_ENV, path);
    void *symbol = dlsym(library, "vkGetInstanceProcAddr");
    if (!symbol) {
        dlclose(library);
        return sb_vk_fail(error, SB_ERROR_NO_DEVICE,
                          "no Vulkan loader: %.120s has no vkGetInstanceProcAddr", path);
    }
    PFN_vkGetInstanceProcAddr get_proc;
    memcpy(&get_proc, &symbol, sizeof(get_proc));
    volkInitializeCustom(get_proc);
    return SB_SUCCESS;
}


static VkDebugUtilsMessengerCreateInfoEXT messenger_info(struct sb_rt_context *c)
{
    return (VkDebugUtilsMessengerCreateInfoEXT){
        .sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT,
        .messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT,
        .messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT |
                       VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT,
        .pfnUserCallback = on_message,
        .pUserData = c,
    };
}

static enum sb_result create_instance(struct sb_rt_context *c, bool validation, struct sb_error *error)
{
    /* Vulkan 1.1 where the loader has it (features2, SPIR-V 1.3), capped at 1.3. */
    uint32_t api = VK_API_VERSION_1_0;
    if (vkEnumerateInstanceVersion && vkEnumerateInstanceVersion(&api) != VK_SUCCESS)
        api = VK_API_VERSION_1_0;
    if (api > VK_API_VERSION_1_3)
        api = VK_API_VERSION_1_3;
    bool layer = validation && sb_vk_has_instance_layer(validation_layer);
    const char *extension = VK_EXT_DEBUG_UTILS_EXTENSION_NAME;
    VkDebugUtilsMessengerCreateInfoEXT early = messenger_info(c);
    VkApplicationInfo app = {
        .sType = VK_STRUCTURE_TYPE_APPLICATION_INFO,
        .pApplicationName = "shaderbridge",
        .pEngineName = "shaderbridge",
        .apiVersion = api,
    };
    VkInstanceCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO,
        .pNext = layer ? &early : NULL,
        .pApplicationInfo = &app,
        .enabledLayerCount = layer ? 1 : 0,
        .ppEnabledLayerNames = &validation_layer,
        .enabledExtensionCount = layer ? 1 : 0,
        .ppEnabledExtensionNames = &extension,
    };
    VkResult r = vkCreateInstance(&info, NULL, &c->instance);
    if (r == VK_ERROR_INCOMPATIBLE_DRIVER)
        return sb_vk_fail(error, SB_ERROR_NO_DEVICE,
                          "no Vulkan driver (vkCreateInstance: VK_ERROR_INCOMPATIBLE_DRIVER)");
    if (r != VK_SUCCESS)
        return sb_vk_fail_call(error, "vkCreateInstance", r);
    volkLoadInstanceOnly(c->instance);
    if (layer) {
        VkDebugUtilsMessengerCreateInfoEXT late = messenger_info(c);
        r = vkCreateDebugUtilsMessengerEXT(c->instance, &late, NULL, &c->messenger);
        if (r != VK_SUCCESS)
            return sb_vk_fail_call(error, "vkCreateDebugUtilsMessengerEXT", r);
    }
    return SB_SUCCESS;
}

/* Releases the Vulkan objects, leaving the context in CPU-only state. */
static void release_vulkan(struct sb_rt_context *c)
{
    if (c->device) {
        if (!c->lost)
            c->vk.vkDeviceWaitIdle(c->device);
        if (c->command_pool)
            c->vk.vkDestroyCommandPool(c->device, c->command_pool, NULL);
        c->vk.vkDestroyDevice(c->device, NULL);
    }
    if (c->messenger)
        vkDestroyDebugUtilsMessengerEXT(c->instance, c->messenger, NULL);
    if (c->instance)
        vkDestroyInstance(c->instance, NULL);
    c->device = VK_NULL_HANDLE;
    c->command_pool = VK_NULL_HANDLE;
    c->messenger = VK_NULL_HANDLE;
    c->instance = VK_NULL_HANDLE;
    c->has_device = false;
    snprintf(c->device_name, sizeof(c->device_name), "cpu-only");
}

static enum sb_result open_vulkan(struct sb_rt_context *c, const struct sb_rt_context_options *o,
                                  struct sb_error *error)
{
    enum sb_result res = load_loader(error);
    if (res == SB_SUCCESS)
        res = create_instance(c, o->validation, error);
    if (res == SB_SUCCESS) {
        const char *wanted = o->device;
        if (!wanted || !*wanted)
            wanted = getenv(SB_VK_DEVICE_ENV);
        res = sb_vk_device_create(c, wanted && *wanted ? wanted : NULL, error);
    }
    if (res == SB_SUCCESS)
        c->has_device = true;
    return res;
}

enum sb_result sb_rt_context_create(const struct sb_rt_context_options *options,
                                    struct sb_rt_context **out, struct sb_error *error)
{
    if (!out)
        return sb_vk_fail(error, SB_ERROR_INVALID_ARGUMENT, "sb_rt_context_create: out is NULL");
    *out = NULL;
    static const struct sb_rt_context_options defaults = { 0 };
    const struct sb_rt_context_options *o = options ? options : &defaults;
    struct sb_rt_context *c = calloc(1, sizeof(*c));
    if (!c)
        return sb_vk_fail(error, SB_ERROR_OUT_OF_MEMORY, "sb_rt_context_create: out of memory");
    snprintf(c->device_name, sizeof(c->device_name), "cpu-only");
    if (!o->cpu_only) {
        struct sb_error why = { 0 };
        enum sb_result res = open_vulkan(c, o, &why);
        /* A wrong device name is the caller's mistake, not a missing GPU: never hidden. */
        bool fallback = o->allow_cpu_only && res == SB_ERROR_NO_DEVICE && !c->name_unmatched;
        if (res != SB_SUCCESS && !fallback) {
            release_vulkan(c);
            free(c);
            if (error)
                *error = why;
            return res;
        }
        if (res != SB_SUCCESS)
            release_vulkan(c);
    }
    *out = c;
    return SB_SUCCESS;
}

void sb_rt_context_destroy(struct sb_rt_context *context)
{
    if (!context)
        return;
    release_vulkan(context);
    free(context);
}

bool sb_rt_context_has_device(const struct sb_rt_context *context)
{
    return context && context->has_device;
}

const char *sb_rt_context_device_name(const struct sb_rt_context *context)
{
    return context ? context->device_name : "cpu-only";
}

uint32_t sb_rt_context_validation_errors(const struct sb_rt_context *context)
{
    return context ? context->validation_errors : 0;
}

const char *sb_rt_context_first_validation_error(const struct sb_rt_context *context)
{
    return context ? context->first_validation_error : "";
}
