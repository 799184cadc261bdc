/* SPDX-License-Identifier: MIT */
/*
 * vkCreateShaderModule / vkDestroyShaderModule and the registry of modules
 * the layer made from foreign bytes (layer/README.md §Formats, §Stages).
 * SPIR-V and anything unrecognised goes down with the application's own
 * create info (the same pointer). DXBC and SHBIN become one module of the
 * translated SPIR-V. A VBC file becomes one module per stage it carries; the
 * application gets the first stage's handle, and pipeline creation swaps in
 * the module of the stage that uses it (layer_pipeline.c). The registry maps
 * the application's handle to those modules and their entry-point names; it
 * is touched only for foreign modules, and skipped entirely (an atomic count)
 * while it is empty, so SPIR-V applications pay nothing for it.
 */
#define _POSIX_C_SOURCE 200809L
#include "layer_private.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#define BUCKETS 256

struct entry {
    VkShaderModule module;
    VkDevice device;
    struct sb_layer_module_info info;
    struct entry *next;
};

static struct entry *buckets[BUCKETS];
static atomic_size_t entry_count;
static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;

static size_t bucket_of(VkShaderModule module)
{
    uint64_t h = (uint64_t)(uintptr_t)module * 0x9e3779b97f4a7c15ull;
    return (size_t)(h >> 56);
}

static void registry_add(struct entry *e)
{
    pthread_mutex_lock(&registry_lock);
    size_t b = bucket_of(e->module);
    e->next = buckets[b];
    buckets[b] = e;
    atomic_fetch_add(&entry_count, 1);
    pthread_mutex_unlock(&registry_lock);
}

static struct entry *registry_take(VkShaderModule module)
{
    if (!atomic_load(&entry_count))
        return NULL;
    pthread_mutex_lock(&registry_lock);
    struct entry **at = &buckets[bucket_of(module)];
    while (*at && (*at)->module != module)
        at = &(*at)->next;
    struct entry *e = *at;
    if (e) {
        *at = e->next;
        atomic_fetch_sub(&entry_count, 1);
    }
    pthread_mutex_unlock(&registry_lock);
    return e;
}

bool sb_layer_module_lookup(VkShaderModule module, struct sb_layer_module_info *out)
{
    if (!module || !atomic_load(&entry_count))
        return false;
    pthread_mutex_lock(&registry_lock);
    struct entry *e = buckets[bucket_of(module)];
    while (e && e->module != module)
        e = e->next;
    if (e)
        *out = e->info;
    pthread_mutex_unlock(&registry_lock);
    return e != NULL;
}

void sb_layer_module_forget_device(VkDevice device)
{
    pthread_mutex_lock(&registry_lock);
    for (size_t b = 0; b < BUCKETS; b++) {
        struct entry **at = &buckets[b];
        while (*at) {
            struct entry *e = *at;
            if (e->device == device) {
                *at = e->next;
                atomic_fetch_sub(&entry_count, 1);
                free(e);
            } else {
                at = &e->next;
            }
        }
    }
    pthread_mutex_unlock(&registry_lock);
}

/* Creates one module per stage of `out`; fills `info`. On failure destroys what it made. */
static VkResult create_stage_modules(const struct sb_layer_device *dev, const VkShaderModuleCreateInfo *app_info,
                                     const VkAllocationCallbacks *alloc, const struct sb_layer_output *out,
                                     struct sb_layer_module_info *info, VkShaderModule *first)
{
    memset(info, 0, sizeof(*info));
    VkResult r = VK_SUCCESS;
    for (uint32_t i = 0; i < out->count && r == VK_SUCCESS; i++) {
        const struct sb_layer_spirv *s = out->stages[i];
        int idx = sb_layer_stage_index(s->vk_stage);
        VkShaderModuleCreateInfo ci = *app_info;
        ci.codeSize = s->word_count * 4;
        ci.pCode = s->words;
        VkShaderModule m = VK_NULL_HANDLE;
        r = idx < 0 ? SB_LAYER_FAILURE : dev->create_shader_module(dev->device, &ci, alloc, &m);
        if (r != VK_SUCCESS)
            break;
        info->stage_mask |= s->vk_stage;
        info->stage_modules[idx] = m;
        if (s->entry && strlen(s->entry) < sizeof(info->entry[idx]))
            strcpy(info->entry[idx], s->entry);
        if (i == 0)
            *first = m;
    }
    if (r != VK_SUCCESS)
        for (int k = 0; k < SB_LAYER_STAGES; k++)
            if (info->stage_modules[k])
                dev->destroy_shader_module(dev->device, info->stage_modules[k], alloc);
    return r;
}

VKAPI_ATTR VkResult VKAPI_CALL sb_layer_CreateShaderModule(VkDevice device, const VkShaderModuleCreateInfo *info,
                                                           const VkAllocationCallbacks *alloc,
                                                           VkShaderModule *out)
{
    struct sb_layer_device *dev = sb_layer_device_find(device);
    if (!dev)
        return VK_ERROR_INITIALIZATION_FAILED;
    enum sb_layer_kind kind = info && info->pCode ? sb_layer_detect(info->pCode, info->codeSize) : SB_LAYER_KIND_PASS;
    if (kind == SB_LAYER_KIND_PASS)
        return dev->create_shader_module(device, info, alloc, out);

    struct sb_layer_output spirv;
    if (!sb_layer_translate(dev, info->pCode, info->codeSize, kind, &spirv)) {
        sb_layer_log(SB_LAYER_LOG_ERROR, "vkCreateShaderModule: %zu bytes of %s not translated: "
                     "VK_ERROR_INVALID_SHADER_NV", info->codeSize, sb_layer_kind_name(kind));
        return SB_LAYER_FAILURE;
    }
    struct entry *e = malloc(sizeof(*e)); /* every field is set below (info by create_stage_modules) */
    VkResult r = e ? create_stage_modules(dev, info, alloc, &spirv, &e->info, &e->module)
                   : VK_ERROR_OUT_OF_HOST_MEMORY;
    sb_layer_output_free(&spirv);
    if (r != VK_SUCCESS) {
        free(e);
        return r;
    }
    e->device = device;
    registry_add(e);
    *out = e->module;
    return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL sb_layer_DestroyShaderModule(VkDevice device, VkShaderModule module,
                                                        const VkAllocationCallbacks *alloc)
{
    struct sb_layer_device *dev = sb_layer_device_find(device);
    if (!dev)
        return;
    struct entry *e = module ? registry_take(module) : NULL;
    if (!e) {
        dev->destroy_shader_module(device, module, alloc);
        return;
    }
    for (int k = 0; k < SB_LAYER_STAGES; k++)
        if (e->info.stage_modules[k])
            dev->destroy_shader_module(device, e->info.stage_modules[k], alloc);
    free(e);
}
