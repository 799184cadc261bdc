/* SPDX-License-Identifier: MIT */
/*
 * Instance and device chaining (the loader's layer interface, version 2).
 * Each vkCreateInstance / vkCreateDevice finds the loader's link info in the
 * create info's pNext chain, advances the chain to the next layer *before*
 * calling down (so the next layer sees its own link), and records the next
 * layer's entry points under the dispatch key of the new handle in the
 * dispatch maps (layer_map.c, below this file and every intercept that looks
 * a handle up). A missing link fails the create call
 * (VK_ERROR_INITIALIZATION_FAILED) instead of guessing at a loader we do not
 * understand.
 */
#include "layer_private.h"

#include <stdlib.h>
#include <string.h>

/* ---- instances ------------------------------------------------------------------------------------ */

static VkLayerInstanceCreateInfo *instance_link(const VkInstanceCreateInfo *info)
{
    for (const VkBaseInStructure *s = info->pNext; s; s = s->pNext) {
        VkLayerInstanceCreateInfo *l = (VkLayerInstanceCreateInfo *)s;
        if (s->sType == VK_STRUCTURE_TYPE_LOADER_INSTANCE_CREATE_INFO && l->function == VK_LAYER_LINK_INFO)
            return l;
    }
    return NULL;
}

VKAPI_ATTR VkResult VKAPI_CALL sb_layer_CreateInstance(const VkInstanceCreateInfo *info,
                                                       const VkAllocationCallbacks *alloc, VkInstance *out)
{
    VkLayerInstanceCreateInfo *link = instance_link(info);
    if (!link || !link->u.pLayerInfo) {
        sb_layer_log(SB_LAYER_LOG_ERROR, "vkCreateInstance: no loader link info in the chain");
        return VK_ERROR_INITIALIZATION_FAILED;
    }
    PFN_vkGetInstanceProcAddr gipa = link->u.pLayerInfo->pfnNextGetInstanceProcAddr;
    PFN_vkCreateInstance create = (PFN_vkCreateInstance)gipa(VK_NULL_HANDLE, "vkCreateInstance");
    if (!create)
        return VK_ERROR_INITIALIZATION_FAILED;
    struct sb_layer_instance *inst = calloc(1, sizeof(*inst));
    if (!inst)
        return VK_ERROR_OUT_OF_HOST_MEMORY;
    link->u.pLayerInfo = link->u.pLayerInfo->pNext; /* the next layer reads its own link */
    VkResult r = create(info, alloc, out);
    if (r != VK_SUCCESS) {
        free(inst);
        return r;
    }
    sb_layer_config_read(&inst->config);
    inst->instance = *out;
    inst->api_version = info->pApplicationInfo && info->pApplicationInfo->apiVersion
                            ? info->pApplicationInfo->apiVersion
                            : VK_API_VERSION_1_0;
    inst->gipa = gipa;
    inst->destroy_instance = (PFN_vkDestroyInstance)gipa(*out, "vkDestroyInstance");
    inst->create_device = (PFN_vkCreateDevice)gipa(*out, "vkCreateDevice");
    inst->enumerate_device_extensions =
        (PFN_vkEnumerateDeviceExtensionProperties)gipa(*out, "vkEnumerateDeviceExtensionProperties");
    inst->get_physical_device_properties =
        (PFN_vkGetPhysicalDeviceProperties)gipa(*out, "vkGetPhysicalDeviceProperties");
    if (!sb_layer_instance_add(*out, inst)) {
        if (inst->destroy_instance)
            inst->destroy_instance(*out, alloc);
        sb_layer_config_free(&inst->config);
        free(inst);
        return VK_ERROR_OUT_OF_HOST_MEMORY;
    }
    sb_layer_log(SB_LAYER_LOG_INFO, "instance created (API %u.%u)", VK_API_VERSION_MAJOR(inst->api_version),
                 VK_API_VERSION_MINOR(inst->api_version));
    return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL sb_layer_DestroyInstance(VkInstance instance, const VkAllocationCallbacks *alloc)
{
    if (!instance)
        return;
    struct sb_layer_instance *inst = sb_layer_instance_remove(instance);
    if (!inst)
        return;
    sb_layer_stats_log();
    if (inst->destroy_instance)
        inst->destroy_instance(instance, alloc);
    sb_layer_config_free(&inst->config);
    free(inst);
}

VKAPI_ATTR VkResult VKAPI_CALL sb_layer_EnumerateDeviceExtensionProperties(VkPhysicalDevice physical,
                                                                           const char *layer, uint32_t *count,
                                                                           VkExtensionProperties *props)
{
    if (layer && !strcmp(layer, SB_LAYER_NAME)) {
        *count = 0; /* the layer adds no device extensions */
        return VK_SUCCESS;
    }
    struct sb_layer_instance *inst = sb_layer_instance_find(physical);
    if (!inst || !inst->enumerate_device_extensions)
        return VK_ERROR_INITIALIZATION_FAILED;
    return inst->enumerate_device_extensions(physical, layer, count, props);
}

/* ---- devices ---------------------------------------------------------------------------------------- */

static VkLayerDeviceCreateInfo *device_link(const VkDeviceCreateInfo *info)
{
    for (const VkBaseInStructure *s = info->pNext; s; s = s->pNext) {
        VkLayerDeviceCreateInfo *l = (VkLayerDeviceCreateInfo *)s;
        if (s->sType == VK_STRUCTURE_TYPE_LOADER_DEVICE_CREATE_INFO && l->function == VK_LAYER_LINK_INFO)
            return l;
    }
    return NULL;
}

/* SPIR-V for the lower of the application's and the device's API versions. */
static enum sb_target_env device_env(const struct sb_layer_instance *inst, VkPhysicalDevice physical)
{
    uint32_t api = inst->api_version;
    if (inst->get_physical_device_properties) {
        VkPhysicalDeviceProperties props;
        inst->get_physical_device_properties(physical, &props);
        if (props.apiVersion < api)
            api = props.apiVersion;
    }
    uint32_t minor = VK_API_VERSION_MINOR(api);
    return minor >= 3 ? SB_TARGET_VULKAN_1_3 : (enum sb_target_env)minor;
}

static bool has_extension(const VkDeviceCreateInfo *info, const char *name)
{
    for (uint32_t i = 0; i < info->enabledExtensionCount; i++)
        if (info->ppEnabledExtensionNames[i] && !strcmp(info->ppEnabledExtensionNames[i], name))
            return true;
    return false;
}

/* With privateData on, every non-dispatchable handle of the device must be unique while it
 * lives (the spec's Object Model), which shared modules would break: they are off there. */
static bool private_data_enabled(const VkDeviceCreateInfo *info)
{
    for (const VkBaseInStructure *s = info->pNext; s; s = s->pNext) {
        if (s->sType == VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PRIVATE_DATA_FEATURES &&
            ((const VkPhysicalDevicePrivateDataFeatures *)s)->privateData)
            return true;
        if (s->sType == VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES &&
            ((const VkPhysicalDeviceVulkan13Features *)s)->privateData)
            return true;
    }
    return false;
}

static void fill_device(struct sb_layer_device *dev, const VkDeviceCreateInfo *info)
{
    VkDevice d = dev->device;
    PFN_vkGetDeviceProcAddr gdpa = dev->gdpa;
    dev->destroy_device = (PFN_vkDestroyDevice)gdpa(d, "vkDestroyDevice");
    dev->create_shader_module = (PFN_vkCreateShaderModule)gdpa(d, "vkCreateShaderModule");
    dev->destroy_shader_module = (PFN_vkDestroyShaderModule)gdpa(d, "vkDestroyShaderModule");
    dev->create_graphics_pipelines = (PFN_vkCreateGraphicsPipelines)gdpa(d, "vkCreateGraphicsPipelines");
    dev->create_compute_pipelines = (PFN_vkCreateComputePipelines)gdpa(d, "vkCreateComputePipelines");
    /* Only where the application enabled the extension: drivers may resolve the name anyway. */
    if (has_extension(info, "VK_EXT_shader_object"))
        dev->create_shaders_ext = gdpa(d, "vkCreateShadersEXT");
}

VKAPI_ATTR VkResult VKAPI_CALL sb_layer_CreateDevice(VkPhysicalDevice physical, const VkDeviceCreateInfo *info,
                                                     const VkAllocationCallbacks *alloc, VkDevice *out)
{
    VkLayerDeviceCreateInfo *link = device_link(info);
    struct sb_layer_instance *inst = sb_layer_instance_find(physical);
    if (!link || !link->u.pLayerInfo || !inst) {
        sb_layer_log(SB_LAYER_LOG_ERROR, "vkCreateDevice: %s", inst ? "no loader link info in the chain"
                                                                    : "unknown physical device");
        return VK_ERROR_INITIALIZATION_FAILED;
    }
    PFN_vkGetInstanceProcAddr gipa = link->u.pLayerInfo->pfnNextGetInstanceProcAddr;
    PFN_vkGetDeviceProcAddr gdpa = link->u.pLayerInfo->pfnNextGetDeviceProcAddr;
    PFN_vkCreateDevice create = (PFN_vkCreateDevice)gipa(inst->instance, "vkCreateDevice");
    if (!create)
        return VK_ERROR_INITIALIZATION_FAILED;
    struct sb_layer_device *dev = calloc(1, sizeof(*dev));
    if (!dev)
        return VK_ERROR_OUT_OF_HOST_MEMORY;
    link->u.pLayerInfo = link->u.pLayerInfo->pNext;
    VkResult r = create(physical, info, alloc, out);
    if (r != VK_SUCCESS) {
        free(dev);
        return r;
    }
    dev->device = *out;
    dev->gdpa = gdpa;
    dev->target_env = device_env(inst, physical);
    sb_layer_device_profile(info, &dev->profile);
    if (inst->get_physical_device_properties) {
        VkPhysicalDeviceProperties props;
        inst->get_physical_device_properties(physical, &props);
        sb_layer_device_limits(&props.limits, &dev->profile);
    }
    sb_layer_config_copy(&dev->config, &inst->config);
    bool private_data = private_data_enabled(info);
    if (private_data)
        dev->config.share_modules = false;
    sb_layer_device_keys(dev);
    fill_device(dev, info);
    if (!sb_layer_device_add(*out, dev)) {
        if (dev->destroy_device)
            dev->destroy_device(*out, alloc);
        sb_layer_config_free(&dev->config);
        free(dev);
        return VK_ERROR_OUT_OF_HOST_MEMORY;
    }
    sb_layer_log(SB_LAYER_LOG_INFO, "device created: translations target %s%s; shared modules %s",
                 sb_target_env_name(dev->config.target_env_set ? dev->config.target_env : dev->target_env),
                 dev->create_shaders_ext ? ", vkCreateShadersEXT intercepted" : "",
                 private_data ? "off (privateData enabled: handles must be unique)"
                              : dev->config.share_modules && dev->config.memory_cache ? "on" : "off");
    return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL sb_layer_DestroyDevice(VkDevice device, const VkAllocationCallbacks *alloc)
{
    if (!device)
        return;
    struct sb_layer_device *dev = sb_layer_device_remove(device);
    if (!dev)
        return;
    sb_layer_module_forget_device(dev);
    if (dev->destroy_device)
        dev->destroy_device(device, alloc);
    sb_layer_config_free(&dev->config);
    free(dev);
}
