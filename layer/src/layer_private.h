/* SPDX-License-Identifier: MIT */
/*
 * Private declarations of the shaderbridge Vulkan layer (layer/README.md):
 * configuration and logging, the content hash, the per-instance and
 * per-device dispatch maps, the translation of foreign shader bytes with its
 * cache and dump directory, and the registry of modules the layer created.
 * Nothing here is exported: the shared object exports only
 * vkNegotiateLoaderLayerInterfaceVersion (layer/exports.map).
 */
#ifndef SB_LAYER_PRIVATE_H
#define SB_LAYER_PRIVATE_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define VK_NO_PROTOTYPES
#include <vulkan/vk_layer.h>
#include <vulkan/vulkan.h>

#include "shaderbridge/result.h"
#include "shaderbridge/translate.h"
#include "translator/ir.h"

#define SB_LAYER_NAME "VK_LAYER_SHADERBRIDGE_translate"

/* ---- configuration and logging (layer_config.c) ------------------------------------------------- */

enum sb_layer_log_level { SB_LAYER_LOG_ERROR = 0, SB_LAYER_LOG_WARN, SB_LAYER_LOG_INFO, SB_LAYER_LOG_DEBUG };

/* Read from the environment at each vkCreateInstance (layer/README.md); each device
 * keeps the copy of its instance, so tests may change the environment between instances. */
struct sb_layer_config {
    enum sb_layer_log_level log_level;
    const char *dump_dir;        /* NULL: no dumps */
    const char *cache_dir;       /* NULL: no disk cache */
    bool memory_cache;           /* in-process cache of translations */
    bool share_modules;          /* a repeat creation gets the first one's driver module (layer_module.c) */
    bool target_env_set;         /* SHADERBRIDGE_LAYER_TARGET_ENV given */
    enum sb_target_env target_env;
    uint32_t translate_flags;    /* SB_TRANSLATE_* */
    uint32_t set_base;           /* added to every DXBC/SHBIN descriptor set */
    uint32_t unbounded_count;    /* sb_translate_options::unbounded_descriptor_count */
    uint32_t pica_flags;         /* SHBIN: SB_IR_PICA_* mode (SHADERBRIDGE_LAYER_PICA) */
    uint64_t version_hash;       /* translator version + build identity (cache key part) */
};

/* Fills `out` from the environment (strings are owned copies); also sets the log level. */
void sb_layer_config_read(struct sb_layer_config *out);
void sb_layer_config_copy(struct sb_layer_config *dst, const struct sb_layer_config *src);
void sb_layer_config_free(struct sb_layer_config *config);
/* The translate options a config asks for (no binding overrides). */
void sb_layer_config_options(const struct sb_layer_config *config, enum sb_target_env env,
                             struct sb_translate_options *out);
void sb_layer_log(enum sb_layer_log_level level, const char *format, ...)
    __attribute__((format(printf, 2, 3)));
/* Whether `level` is logged: lets a caller skip preparing a line (a hash's hex) nobody sees. */
bool sb_layer_log_on(enum sb_layer_log_level level);

/* ---- hashing (layer_hash.c) --------------------------------------------------------------------- */

struct sb_layer_hash {
    uint64_t lo, hi;
};

struct sb_layer_hash sb_layer_hash_bytes(const void *data, size_t size, uint64_t seed);
/* 32 lower-case hex digits and a NUL. */
void sb_layer_hash_hex(struct sb_layer_hash hash, char out[33]);

/* ---- dispatch maps (layer_map.c) and chaining (layer_dispatch.c) -------------------------------- */

struct sb_layer_instance {
    VkInstance instance;
    struct sb_layer_config config;
    uint32_t api_version;        /* VkApplicationInfo::apiVersion (1.0 when absent) */
    PFN_vkGetInstanceProcAddr gipa;
    PFN_vkDestroyInstance destroy_instance;
    PFN_vkCreateDevice create_device;
    PFN_vkEnumerateDeviceExtensionProperties enumerate_device_extensions;
    PFN_vkGetPhysicalDeviceProperties get_physical_device_properties;
};

/* Kinds of input the layer recognises by content. */
enum sb_layer_kind { SB_LAYER_KIND_PASS = 0, SB_LAYER_KIND_DXBC, SB_LAYER_KIND_SHBIN, SB_LAYER_KIND_VBC,
                     SB_LAYER_KIND_COUNT };

struct sb_layer_device {
    VkDevice device;
    struct sb_layer_config config;
    enum sb_target_env target_env; /* SPIR-V environment of translations for this device */
    struct sb_device_profile profile; /* the features the application enabled (layer_profile.c) */
    /* The configuration part of the cache key per input kind, fixed for the device's life
     * (sb_layer_device_keys), so a cache hit does not rehash the options. */
    uint64_t config_hash[SB_LAYER_KIND_COUNT];
    PFN_vkGetDeviceProcAddr gdpa;
    PFN_vkDestroyDevice destroy_device;
    PFN_vkCreateShaderModule create_shader_module;
    PFN_vkDestroyShaderModule destroy_shader_module;
    PFN_vkCreateGraphicsPipelines create_graphics_pipelines;
    PFN_vkCreateComputePipelines create_compute_pipelines;
    /* vkCreateShadersEXT of the next layer; NULL without VK_EXT_shader_object (and always
     * with Vulkan headers older than 1.3.246, which lack the extension) */
    PFN_vkVoidFunction create_shaders_ext;
};

/* The translator's profile of a device from its VkDeviceCreateInfo (layer_profile.c), and the
 * profile as bits for the cache key. */
void sb_layer_device_profile(const VkDeviceCreateInfo *info, struct sb_device_profile *out);
uint64_t sb_layer_device_profile_bits(const struct sb_device_profile *profile);
/* The per-stage descriptor limits of the profile from the physical device's limits
 * (layer_profile.c): they pick the storage-buffer fallback, whatever the application enabled. */
void sb_layer_device_limits(const VkPhysicalDeviceLimits *limits, struct sb_device_profile *out);

/* The dispatch key of a dispatchable handle: the loader's table pointer it starts with. */
static inline void *sb_layer_key(const void *handle)
{
    return *(void *const *)handle;
}

/* The dispatch maps (layer_map.c), keyed by sb_layer_key of any handle of the object.
 * find: the record, or NULL. add: false when out of memory. remove: the record taken
 * out of the map (the caller frees it), or NULL when the handle is unknown. */
struct sb_layer_instance *sb_layer_instance_find(const void *dispatchable);
bool sb_layer_instance_add(const void *dispatchable, struct sb_layer_instance *inst);
struct sb_layer_instance *sb_layer_instance_remove(const void *dispatchable);
struct sb_layer_device *sb_layer_device_find(const void *dispatchable);
bool sb_layer_device_add(const void *dispatchable, struct sb_layer_device *dev);
struct sb_layer_device *sb_layer_device_remove(const void *dispatchable);

/* Chaining (layer_dispatch.c): the intercepted instance and device calls. */

VKAPI_ATTR VkResult VKAPI_CALL sb_layer_CreateInstance(const VkInstanceCreateInfo *info,
                                                       const VkAllocationCallbacks *alloc, VkInstance *out);
VKAPI_ATTR void VKAPI_CALL sb_layer_DestroyInstance(VkInstance instance, const VkAllocationCallbacks *alloc);
VKAPI_ATTR VkResult VKAPI_CALL sb_layer_CreateDevice(VkPhysicalDevice physical, const VkDeviceCreateInfo *info,
                                                     const VkAllocationCallbacks *alloc, VkDevice *out);
VKAPI_ATTR void VKAPI_CALL sb_layer_DestroyDevice(VkDevice device, const VkAllocationCallbacks *alloc);
VKAPI_ATTR VkResult VKAPI_CALL sb_layer_EnumerateDeviceExtensionProperties(VkPhysicalDevice physical,
                                                                           const char *layer, uint32_t *count,
                                                                           VkExtensionProperties *props);

/* ---- translation (layer_translate.c, layer_cache.c) --------------------------------------------- */

/* Stages by bit position of VkShaderStageFlagBits: vertex .. fragment (the VBC order), compute. */
#define SB_LAYER_STAGES 6

enum sb_layer_kind sb_layer_detect(const void *code, size_t size);
const char *sb_layer_kind_name(enum sb_layer_kind kind);

/* One stage's SPIR-V the layer produced (or took from a VBC): immutable once made and
 * reference counted, so the in-process cache and every call using it share one copy and
 * a cache hit hands the driver these very words. */
struct sb_layer_spirv {
    atomic_uint refs;
    /* Set (once, under the in-process cache's lock) when its cache entry goes: the
     * module registry then keeps no driver module of it alive for the layer's sake. */
    atomic_bool evicted;
    uint32_t vk_stage;           /* VkShaderStageFlagBits */
    size_t word_count;
    const char *entry;           /* the first OpEntryPoint's name (points into words), or NULL */
    uint32_t words[];
};

/* A new module of `word_count` words (one reference), copied from `words` (any
 * alignment) or, when NULL, left for the caller to fill before sb_layer_spirv_seal;
 * NULL when out of memory. */
struct sb_layer_spirv *sb_layer_spirv_new(uint32_t vk_stage, const void *words, size_t word_count);
/* Records the entry name once the words are in place (sb_layer_spirv_new does it when it copies). */
void sb_layer_spirv_seal(struct sb_layer_spirv *spirv);
struct sb_layer_spirv *sb_layer_spirv_ref(struct sb_layer_spirv *spirv);
/* Drops a reference; the last one frees. NULL is ignored. */
void sb_layer_spirv_unref(struct sb_layer_spirv *spirv);
/* Bit position of a single VkShaderStageFlagBits below SB_LAYER_STAGES; -1 for anything
 * else (layer_spirv.c, below the cache, the translation, the modules and the stages). */
int sb_layer_stage_index(uint32_t vk_stage);

/* Every stage a foreign input yields: one for DXBC/SHBIN, one per present stage for VBC. */
struct sb_layer_output {
    enum sb_layer_kind kind;
    uint32_t count;
    /* stages[0] is the in-process cache's own module (a hit, or a miss the cache kept):
     * the same bytes under the same configuration give this very object while the
     * entry lives, which is what lets a driver module be shared (layer_module.c). */
    bool cached;
    struct sb_layer_spirv *stages[SB_LAYER_STAGES]; /* one reference each */
};

/* Fills dev->config_hash from its configuration and target environment (at vkCreateDevice). */
void sb_layer_device_keys(struct sb_layer_device *dev);

/* Translates (or, for VBC, extracts) foreign bytes. On failure logs the code, byte
 * offset and message and returns false; `out` is then empty. */
bool sb_layer_translate(const struct sb_layer_device *device, const void *code, size_t size,
                        enum sb_layer_kind kind, struct sb_layer_output *out);
void sb_layer_output_free(struct sb_layer_output *out);
/* The stage of `out` for a VkShaderStageFlagBits; NULL when absent. */
const struct sb_layer_spirv *sb_layer_output_stage(const struct sb_layer_output *out, uint32_t vk_stage);

/* The cache and dump directory (layer_cache.c). The key covers the input bytes, the
 * options and the translator build (sb_layer_config::version_hash). */
struct sb_layer_cache_key {
    struct sb_layer_hash content;
    uint64_t config;
};

/* The in-process cache (layer_memory.c), keyed by the input bytes themselves (compared
 * in full) and the configuration hash. find: a reference to the SPIR-V of exactly
 * `code` under `config` and its content hash, or NULL. store: keeps a reference and
 * returns whether `spirv` is now the entry's module (false: out of memory, or another
 * thread stored another module for the same key first). */
struct sb_layer_spirv *sb_layer_memory_find(uint64_t config, const void *code, size_t size,
                                            struct sb_layer_hash *content);
bool sb_layer_memory_store(uint64_t config, const void *code, size_t size, const struct sb_layer_hash *content,
                           struct sb_layer_spirv *spirv);
/* Empties the cache (marks each module evicted, but calls no eviction hook: it runs at
 * process exit, when calling into a driver is no longer safe). */
void sb_layer_memory_clear(void);
/* Called with each module whose entry was evicted, after its `evicted` flag is set and
 * outside the cache's lock, before the entry's reference is dropped. NULL: none. */
typedef void (*sb_layer_evict_fn)(struct sb_layer_spirv *spirv);
void sb_layer_memory_on_evict(sb_layer_evict_fn hook);
/* A new reference to the disk entry of `key`, or NULL (absent or corrupt: logged). */
struct sb_layer_spirv *sb_layer_cache_load(const char *dir, const struct sb_layer_cache_key *key);
void sb_layer_cache_store(const char *dir, const struct sb_layer_cache_key *key, const struct sb_layer_spirv *spirv);
void sb_layer_dump(const char *dir, const struct sb_layer_hash *content, const char *input_ext, const void *input,
                   size_t size, const struct sb_layer_output *out);
/* Counters of what translation requests did; logged at info level with each request. */
enum sb_layer_stat { SB_LAYER_STAT_TRANSLATIONS, SB_LAYER_STAT_MEMORY_HITS, SB_LAYER_STAT_DISK_HITS,
                     SB_LAYER_STAT_DISK_CORRUPT, SB_LAYER_STAT_FAILURES, SB_LAYER_STAT_SHARED,
                     SB_LAYER_STAT_COUNT };
void sb_layer_stat_add(enum sb_layer_stat stat);
/* Logs the counters at info level (at vkDestroyInstance). */
void sb_layer_stats_log(void);

/* ---- the entry name of a SPIR-V module (layer_spirv.c) ------------------------------------------ */

/* The name of the first OpEntryPoint, or NULL (points into `words`). */
const char *sb_layer_spirv_entry_name(const uint32_t *words, size_t word_count);
/* A SPIR-V module the layer hands down without translating it (a VBC stage): a
 * structural walk (header, version, a sane ID bound, word counts) and then SPIRV-Tools'
 * validator for `env`; corrupt bytes never reach the driver. */
enum sb_result sb_layer_spirv_check(const uint32_t *words, size_t word_count, enum sb_target_env env,
                                    struct sb_error *err);

/* ---- modules the layer created (layer_module.c) ------------------------------------------------- */

/* A VkShaderModule handed to the application for foreign bytes. For VBC it is the
 * module of the first stage; `stage_modules` holds one module per present stage. */
struct sb_layer_module_info {
    uint32_t stage_mask;                 /* VkShaderStageFlagBits present */
    VkShaderModule stage_modules[SB_LAYER_STAGES]; /* indexed by sb_layer_stage_index */
    char entry[SB_LAYER_STAGES][64];     /* each stage module's entry point ("" when absent) */
};

/* At vkDestroyDevice, before calling down: destroys the shared driver modules only the
 * layer still holds and forgets the records of modules the application leaked (those
 * are left undestroyed, so the validation layer reports the leak as without the layer). */
void sb_layer_module_forget_device(const struct sb_layer_device *dev);
/* The eviction hook (sb_layer_memory_on_evict): drops the layer's hold on the shared
 * driver modules made from `spirv`, destroying those no application handle uses. */
void sb_layer_module_evicted(struct sb_layer_spirv *spirv);
/* Looks up `module`; copies its info when the layer created it. */
bool sb_layer_module_lookup(VkShaderModule module, struct sb_layer_module_info *out);

VKAPI_ATTR VkResult VKAPI_CALL sb_layer_CreateShaderModule(VkDevice device, const VkShaderModuleCreateInfo *info,
                                                           const VkAllocationCallbacks *alloc,
                                                           VkShaderModule *out);
VKAPI_ATTR void VKAPI_CALL sb_layer_DestroyShaderModule(VkDevice device, VkShaderModule module,
                                                        const VkAllocationCallbacks *alloc);

/* ---- pipelines and shader objects (layer_pipeline.c) -------------------------------------------- */

VKAPI_ATTR VkResult VKAPI_CALL sb_layer_CreateGraphicsPipelines(VkDevice device, VkPipelineCache cache,
                                                                uint32_t count,
                                                                const VkGraphicsPipelineCreateInfo *infos,
                                                                const VkAllocationCallbacks *alloc,
                                                                VkPipeline *out);
VKAPI_ATTR VkResult VKAPI_CALL sb_layer_CreateComputePipelines(VkDevice device, VkPipelineCache cache,
                                                               uint32_t count,
                                                               const VkComputePipelineCreateInfo *infos,
                                                               const VkAllocationCallbacks *alloc,
                                                               VkPipeline *out);
#ifdef VK_EXT_shader_object
VKAPI_ATTR VkResult VKAPI_CALL sb_layer_CreateShadersEXT(VkDevice device, uint32_t count,
                                                         const VkShaderCreateInfoEXT *infos,
                                                         const VkAllocationCallbacks *alloc, VkShaderEXT *out);
#endif

/* The VkResult of a translation failure (layer/README.md §Errors). */
#define SB_LAYER_FAILURE VK_ERROR_INVALID_SHADER_NV

#endif
