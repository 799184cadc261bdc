/* SPDX-License-Identifier: MIT */
/*
 * The layer's only exported symbol, vkNegotiateLoaderLayerInterfaceVersion
 * (loader-layer interface version 2), and the two proc-address functions it
 * hands to the loader. The intercepts are one const table; every other name
 * is forwarded to the next layer, so the layer is invisible to everything
 * but shader creation. vkCreateShadersEXT is returned only for a device that
 * enabled VK_EXT_shader_object (sb_layer_device::create_shaders_ext), so an
 * application probing for it sees the driver's answer.
 */
#include "layer_private.h"

#include <string.h>

static VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL get_instance_proc_addr(VkInstance instance, const char *name);
static VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL get_device_proc_addr(VkDevice device, const char *name);

/* Which dispatch level an intercept lives at. */
enum level { LEVEL_INSTANCE, LEVEL_DEVICE };

static const struct intercept {
    const char *name;
    PFN_vkVoidFunction function;
    enum level level;
} intercepts[] = {
    { "vkGetInstanceProcAddr", (PFN_vkVoidFunction)get_instance_proc_addr, LEVEL_INSTANCE },
    { "vkCreateInstance", (PFN_vkVoidFunction)sb_layer_CreateInstance, LEVEL_INSTANCE },
    { "vkDestroyInstance", (PFN_vkVoidFunction)sb_layer_DestroyInstance, LEVEL_INSTANCE },
    { "vkCreateDevice", (PFN_vkVoidFunction)sb_layer_CreateDevice, LEVEL_INSTANCE },
    { "vkEnumerateDeviceExtensionProperties", (PFN_vkVoidFunction)sb_layer_EnumerateDeviceExtensionProperties,
      LEVEL_INSTANCE },
    { "vkGetDeviceProcAddr", (PFN_vkVoidFunction)get_device_proc_addr, LEVEL_DEVICE },
    { "vkDestroyDevice", (PFN_vkVoidFunction)sb_layer_DestroyDevice, LEVEL_DEVICE },
    { "vkCreateShaderModule", (PFN_vkVoidFunction)sb_layer_CreateShaderModule, LEVEL_DEVICE },
    { "vkDestroyShaderModule", (PFN_vkVoidFunction)sb_layer_DestroyShaderModule, LEVEL_DEVICE },
    { "vkCreateGraphicsPipelines", (PFN_vkVoidFunction)sb_layer_CreateGraphicsPipelines, LEVEL_DEVICE },
    { "vkCreateComputePipelines", (PFN_vkVoidFunction)sb_layer_CreateComputePipelines, LEVEL_DEVICE },
#ifdef VK_EXT_shader_object
    { "vkCreateShadersEXT", (PFN_vkVoidFunction)sb_layer_CreateShadersEXT, LEVEL_DEVICE },
#endif
};

/* Intercepts that exist only where the device enabled their extension. */
static bool is_shader_object(const char *name)
{
    return !strcmp(name, "vkCreateShadersEXT");
}

static const struct intercept *find_intercept(const char *name)
{
    for (size_t i = 0; i < sizeof(intercepts) / sizeof(intercepts[0]); i++)
        if (!strcmp(name, intercepts[i].name))
            return &intercepts[i];
    return NULL;
}

static VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL get_device_proc_addr(VkDevice device, const char *name)
{
    if (!name)
        return NULL;
    struct sb_layer_device *dev = device ? sb_layer_device_find(device) : NULL;
    const struct intercept *hit = find_intercept(name);
    if (hit && hit->level == LEVEL_DEVICE) {
        if (is_shader_object(name) && (!dev || !dev->create_shaders_ext))
            return dev ? dev->gdpa(device, name) : NULL;
        return hit->function;
    }
    return dev ? dev->gdpa(device, name) : NULL;
}

static VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL get_instance_proc_addr(VkInstance instance, const char *name)
{
    if (!name)
        return NULL;
    const struct intercept *hit = find_intercept(name);
    /* Device-level intercepts too: the loader builds its device tables from either call. */
    if (hit && !is_shader_object(name))
        return hit->function;
    struct sb_layer_instance *inst = instance ? sb_layer_instance_find(instance) : NULL;
    return inst ? inst->gipa(instance, name) : NULL;
}

/* The loader's negotiation (interface version 2): hand over both proc-address
 * functions; no physical-device function of our own. */
__attribute__((visibility("default"))) VKAPI_ATTR VkResult VKAPI_CALL
vkNegotiateLoaderLayerInterfaceVersion(VkNegotiateLayerInterface *version)
{
    if (!version || version->sType != LAYER_NEGOTIATE_INTERFACE_STRUCT || version->loaderLayerInterfaceVersion < 2)
        return VK_ERROR_INITIALIZATION_FAILED;
    version->loaderLayerInterfaceVersion = 2;
    version->pfnGetInstanceProcAddr = get_instance_proc_addr;
    version->pfnGetDeviceProcAddr = get_device_proc_addr;
    version->pfnGetPhysicalDeviceProcAddr = NULL;
    return VK_SUCCESS;
}
