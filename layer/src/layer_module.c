/* SPDX-License-Identifier: MIT */
/*
 * vkCreateShaderModule / vkDestroyShaderModule and the registry of modules
 * the layer made from foreign bytes (layer/README.md §Formats, §Stages,
 * §Shared modules). SPIR-V and anything unrecognised goes down with the
 * application's own create info (the same pointer). DXBC and SHBIN become
 * one module of the translated SPIR-V. A VBC file becomes one module per
 * stage it carries; the application gets the first stage's handle, and
 * pipeline creation swaps in the module of the stage that uses it
 * (layer_pipeline.c). The registry maps the application's handle to those
 * modules and their entry-point names; it is touched only for foreign
 * modules, and skipped entirely (an atomic count) while it is empty, so
 * SPIR-V applications pay nothing for it.
 *
 * Shared modules: the driver's own vkCreateShaderModule is most of a cached
 * creation (lavapipe copies and hashes the words), so a creation whose
 * translation is the in-process cache's module gets the driver module an
 * earlier creation of the same bytes made on the same device (Vulkan lets
 * non-dispatchable handles repeat), counted per creation. The layer keeps a
 * reference of its own while the cache entry lives, so a create / destroy /
 * create cycle reaches the driver once; the driver module goes when neither is
 * left: at the last vkDestroyShaderModule after its entry's eviction, at the
 * eviction after the last destroy, or at vkDestroyDevice. Counts change only
 * under the registry's mutex.
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
    /* The device's next vkDestroyShaderModule: an eviction during another device's call
     * destroys this device's module without a dispatch lookup. */
    PFN_vkDestroyShaderModule destroy;
    struct sb_layer_module_info info;
    /* NULL: the module of one creation. Otherwise the cache's module it was made from,
     * with a reference, so no other module takes that address while it is a key. */
    struct sb_layer_spirv *shared;
    uint32_t refs;              /* creations not yet destroyed */
    bool held;                  /* the layer's own reference, while the cache entry of `shared` lives */
    struct entry *next;         /* chain of the handle's bucket */
    struct entry *next_shared;  /* chain of the shared module's bucket (shared entries only) */
};

static struct entry *buckets[BUCKETS];        /* by handle */
static struct entry *shared_buckets[BUCKETS]; /* by shared module (all devices in one chain) */
static atomic_size_t entry_count;
static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;

static size_t bucket_of_key(uint64_t key)
{
    return (size_t)((key * 0x9e3779b97f4a7c15ull) >> 56);
}

static size_t bucket_of(VkShaderModule module)
{
    return bucket_of_key((uint64_t)(uintptr_t)module);
}

static size_t shared_bucket_of(const struct sb_layer_spirv *spirv)
{
    return bucket_of_key((uint64_t)(uintptr_t)spirv);
}

static void entry_free(struct entry *e)
{
    sb_layer_spirv_unref(e->shared);
    free(e);
}

/* Destroys the driver modules of `e` (its device still lives). */
static void destroy_modules(const struct entry *e, const VkAllocationCallbacks *alloc)
{
    for (int k = 0; k < SB_LAYER_STAGES; k++)
        if (e->info.stage_modules[k])
            e->destroy(e->device, e->info.stage_modules[k], alloc);
}

static struct entry *find_shared_locked(VkDevice device, const struct sb_layer_spirv *spirv)
{
    struct entry *e = shared_buckets[shared_bucket_of(spirv)];
    while (e && (e->shared != spirv || e->device != device))
        e = e->next_shared;
    return e;
}

static void unlink_handle_locked(struct entry *gone)
{
    struct entry **at = &buckets[bucket_of(gone->module)];
    while (*at != gone)
        at = &(*at)->next;
    *at = gone->next;
}

static void unlink_shared_locked(struct entry *gone)
{
    if (!gone->shared)
        return;
    struct entry **at = &shared_buckets[shared_bucket_of(gone->shared)];
    while (*at != gone)
        at = &(*at)->next_shared;
    *at = gone->next_shared;
}

/* Records a new module. A shared one whose (device, module) pair another thread recorded
 * meanwhile stays a module of one creation; one whose cache entry already went gets no
 * hold (the eviction hook, which drops holds, has run for it). */
static void registry_add(struct entry *e)
{
    pthread_mutex_lock(&registry_lock);
    if (e->shared && find_shared_locked(e->device, e->shared)) {
        sb_layer_spirv_unref(e->shared); /* the other entry holds it too: not the last reference */
        e->shared = NULL;
    }
    if (e->shared) {
        e->held = !atomic_load(&e->shared->evicted);
        size_t s = shared_bucket_of(e->shared);
        e->next_shared = shared_buckets[s];
        shared_buckets[s] = e;
    }
    size_t b = bucket_of(e->module);
    e->next = buckets[b];
    buckets[b] = e;
    atomic_fetch_add(&entry_count, 1);
    pthread_mutex_unlock(&registry_lock);
}

/* A creation joining the driver module made earlier from `spirv` on `device`. */
static bool shared_join(VkDevice device, const struct sb_layer_spirv *spirv, VkShaderModule *out)
{
    if (!atomic_load(&entry_count))
        return false;
    pthread_mutex_lock(&registry_lock);
    struct entry *e = find_shared_locked(device, spirv);
    bool joined = e && e->refs < UINT32_MAX;
    if (joined) {
        e->refs++;
        *out = e->module;
    }
    pthread_mutex_unlock(&registry_lock);
    return joined;
}

/* The registry's part of vkDestroyShaderModule. *ours: the layer made `module`. Returns
 * the entry, unlinked, when nothing uses its driver modules any more; NULL otherwise
 * (not ours, or other creations or the layer still hold it). */
static struct entry *registry_release(VkShaderModule module, bool *ours)
{
    *ours = false;
    if (!atomic_load(&entry_count))
        return NULL;
    pthread_mutex_lock(&registry_lock);
    struct entry **at = &buckets[bucket_of(module)];
    while (*at && (*at)->module != module)
        at = &(*at)->next;
    struct entry *e = *at;
    bool extra = e && !e->refs; /* only the layer's hold is left: destroyed once too often */
    *ours = e != NULL;
    if (e && e->refs)
        e->refs--;
    if (e && (e->refs || e->held || extra)) {
        e = NULL;
    } else if (e) {
        *at = e->next;
        unlink_shared_locked(e);
        atomic_fetch_sub(&entry_count, 1);
    }
    pthread_mutex_unlock(&registry_lock);
    if (extra)
        sb_layer_log(SB_LAYER_LOG_WARN, "vkDestroyShaderModule: module 0x%llx destroyed more often than it was "
                     "created: ignored", (unsigned long long)(uintptr_t)module);
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

void sb_layer_module_evicted(struct sb_layer_spirv *spirv)
{
    if (!atomic_load(&entry_count))
        return;
    pthread_mutex_lock(&registry_lock);
    struct entry **at = &shared_buckets[shared_bucket_of(spirv)];
    while (*at) {
        struct entry *e = *at;
        if (e->shared == spirv)
            e->held = false;
        if (e->shared != spirv || e->refs) {
            at = &e->next_shared;
            continue;
        }
        *at = e->next_shared;
        unlink_handle_locked(e);
        atomic_fetch_sub(&entry_count, 1);
        /* Still under the lock: a vkDestroyDevice of e's device on another thread waits in
         * sb_layer_module_forget_device, so the device outlives this call. The module was
         * created without allocation callbacks (can_share). */
        destroy_modules(e, NULL);
        entry_free(e);
    }
    pthread_mutex_unlock(&registry_lock);
}

__attribute__((constructor)) static void module_hook(void)
{
    sb_layer_memory_on_evict(sb_layer_module_evicted);
}

void sb_layer_module_forget_device(const struct sb_layer_device *dev)
{
    struct entry *doomed = NULL;
    size_t held = 0, leaked = 0;
    pthread_mutex_lock(&registry_lock);
    for (size_t b = 0; b < BUCKETS; b++) {
        struct entry **at = &buckets[b];
        while (*at) {
            struct entry *e = *at;
            if (e->device != dev->device) {
                at = &e->next;
                continue;
            }
            *at = e->next;
            unlink_shared_locked(e);
            atomic_fetch_sub(&entry_count, 1);
            if (!e->refs) { /* only the layer's hold: the application destroyed every creation */
                e->next = doomed;
                doomed = e;
                held++;
            } else { /* leaked by the application: left to the driver, as without the layer */
                leaked++;
                entry_free(e);
            }
        }
    }
    pthread_mutex_unlock(&registry_lock);
    while (doomed) {
        struct entry *e = doomed;
        doomed = e->next;
        destroy_modules(e, NULL);
        entry_free(e);
    }
    if (held || leaked)
        sb_layer_log(SB_LAYER_LOG_INFO, "vkDestroyDevice: %zu shared modules held by the layer destroyed; %zu "
                     "modules the application did not destroy left as they are", held, leaked);
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

/* Whether a creation may get (or start) a shared driver module: one stage that the
 * in-process cache holds, created the plain way. No allocation callbacks: a shared
 * module is destroyed at eviction or vkDestroyDevice, with no creation's callbacks at
 * hand. Nothing chained: a chained structure would apply to the first creation only. */
static bool can_share(const struct sb_layer_device *dev, const VkShaderModuleCreateInfo *info,
                      const VkAllocationCallbacks *alloc, const struct sb_layer_output *out)
{
    return dev->config.share_modules && out->cached && out->count == 1 && !alloc && !info->pNext && !info->flags;
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
    bool share = can_share(dev, info, alloc, &spirv);
    if (share && shared_join(device, spirv.stages[0], out)) {
        sb_layer_output_free(&spirv);
        sb_layer_stat_add(SB_LAYER_STAT_SHARED);
        return VK_SUCCESS;
    }
    struct entry *e = malloc(sizeof(*e)); /* every field is set below (info by create_stage_modules) */
    VkResult r = e ? create_stage_modules(dev, info, alloc, &spirv, &e->info, &e->module)
                   : VK_ERROR_OUT_OF_HOST_MEMORY;
    if (r == VK_SUCCESS) {
        e->device = device;
        e->destroy = dev->destroy_shader_module;
        e->shared = share ? sb_layer_spirv_ref(spirv.stages[0]) : NULL;
        e->refs = 1;
        e->held = false;
        e->next = e->next_shared = NULL;
    }
    sb_layer_output_free(&spirv);
    if (r != VK_SUCCESS) {
        free(e);
        return r;
    }
    VkShaderModule module = e->module; /* e may be shared from here on */
    registry_add(e);
    *out = module;
    return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL sb_layer_DestroyShaderModule(VkDevice device, VkShaderModule module,
                                                        const VkAllocationCallbacks *alloc)
{
    struct sb_layer_device *dev = sb_layer_device_find(device);
    if (!dev)
        return;
    bool ours = false;
    struct entry *e = module ? registry_release(module, &ours) : NULL;
    if (!ours) {
        dev->destroy_shader_module(device, module, alloc);
        return;
    }
    if (e) {
        destroy_modules(e, alloc);
        entry_free(e);
    }
}
