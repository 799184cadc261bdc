/* SPDX-License-Identifier: MIT */
/*
 * Internals of the Vulkan runtime (runtime.h): the context, the objects of
 * one dispatch and the helpers the vk_*.c files share. Device-level calls go
 * through a per-context VolkDeviceTable so two contexts (or a test harness
 * using volk's globals in the same process) never overwrite each other's
 * function pointers.
 */
#ifndef SB_RUNTIME_VK_PRIVATE_H
#define SB_RUNTIME_VK_PRIVATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <volk.h>

#include "shaderbridge/runtime.h"

/* Longest device name kept, and the first validation message kept. */
#define SB_VK_NAME_SIZE 256
#define SB_VK_MESSAGE_SIZE 1024

/* How long a dispatch may run before the runtime gives up on it (ns). */
#define SB_VK_FENCE_TIMEOUT_NS 60000000000ull

/* The environment variable naming the loader library to dlopen (runtime.h). */
#define SB_VK_LOADER_ENV "SHADERBRIDGE_VULKAN_LOADER"
#define SB_VK_DEVICE_ENV "SHADERBRIDGE_DEVICE"

struct sb_rt_context {
    bool has_device;
    /* A dispatch timed out: its objects are still in use, so nothing more is submitted. */
    bool lost;
    /* The device asked for by name or index matched none (never hidden by CPU-only mode). */
    bool name_unmatched;
    char device_name[SB_VK_NAME_SIZE];
    uint32_t validation_errors;
    char first_validation_error[SB_VK_MESSAGE_SIZE];

    VkInstance instance;
    VkDebugUtilsMessengerEXT messenger;
    VkPhysicalDevice physical;
    VkPhysicalDeviceProperties properties;
    VkPhysicalDeviceMemoryProperties memory;
    VkDevice device;
    struct VolkDeviceTable vk;
    VkQueue queue;
    uint32_t queue_family;
    bool graphics_queue;       /* the queue family also has VK_QUEUE_GRAPHICS_BIT (sb_rt_draw_points) */
    VkCommandPool command_pool;
    uint32_t api_version;      /* min(instance, device), capped at 1.3 */
    VkPhysicalDeviceFeatures features;          /* as enabled */
    VkPhysicalDeviceVulkan11Features features11; /* as enabled; all false below Vulkan 1.2 (not chained) */
    VkPhysicalDeviceVulkan12Features features12; /* as enabled; all false below Vulkan 1.2 */
    VkPhysicalDeviceVulkan13Features features13; /* as enabled; all false below Vulkan 1.3 */
    bool robustness2;          /* VK_EXT_robustness2 robustBufferAccess2 enabled */
    bool viewport_index_layer; /* VK_EXT_shader_viewport_index_layer enabled (ShaderViewportIndexLayerEXT) */
    bool stencil_export;       /* VK_EXT_shader_stencil_export enabled (StencilExportEXT) */
    bool custom_border_color;  /* VK_EXT_custom_border_color enabled, without formats (sampler borders) */
    /* VK_EXT_conservative_rasterization enabled, reporting FullyCoveredEXT, for points too */
    bool fully_covered;
    /* VK_EXT_fragment_shader_interlock enabled with fragmentShaderPixelInterlock
     * (FragmentShaderPixelInterlockEXT: rasterizer-ordered views) */
    bool pixel_interlock;
};

/* ---- vk_util.c ------------------------------------------------------------------------------- */

/** "VK_ERROR_OUT_OF_HOST_MEMORY" ...; values missing from the table read "VK_ERROR_UNKNOWN" (the number follows in messages). */
const char *sb_vk_result_name(VkResult result);
/** Does the loader offer this instance layer? */
bool sb_vk_has_instance_layer(const char *name);
/** Does the physical device offer this extension? */
bool sb_vk_has_device_extension(VkPhysicalDevice physical, const char *name);
/** Fills `error` (may be NULL) with code/printf message; returns code. */
enum sb_result sb_vk_fail(struct sb_error *error, enum sb_result code, const char *format, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
/** SB_ERROR_VULKAN naming the call and the VkResult. */
enum sb_result sb_vk_fail_call(struct sb_error *error, const char *call, VkResult result);
/** Monotonic clock in ns. */
uint64_t sb_vk_now_ns(void);
/** A memory type of `bits` with all of `want` (then, if `fallback`, any of `bits`); UINT32_MAX if none. */
uint32_t sb_vk_memory_type(const struct sb_rt_context *c, uint32_t bits, VkMemoryPropertyFlags want,
                           bool fallback);
/** vkAllocateMemory of `size` bytes of memory type `type` (the error names the call). */
enum sb_result sb_vk_memory_allocate(struct sb_rt_context *c, VkDeviceSize size, uint32_t type,
                                     VkDeviceMemory *out, struct sb_error *error);

/* ---- vk_device.c ----------------------------------------------------------------------------- */

/** Picks the physical device (options / env / llvmpipe / first) and creates device, queue, pool. */
enum sb_result sb_vk_device_create(struct sb_rt_context *c, const char *wanted, struct sb_error *error);

/* ---- vk_capability.c ------------------------------------------------------------------------- */

/** SB_ERROR_RUN_UNSUPPORTED naming the first OpCapability of the module whose device feature is off,
 *  at the byte offset of what needed it when `source` (the module's translation; NULL for a module
 *  that has none, e.g. a VBC's) reports its origin, else 0. */
enum sb_result sb_vk_check_capabilities(const struct sb_rt_context *c, const uint32_t *words, size_t word_count,
                                        const struct sb_translation *source, struct sb_error *error);
/** Whether the module (header included) declares OpCapability `capability`. */
bool sb_vk_module_declares(const uint32_t *words, size_t word_count, uint32_t capability);
/** The SPIR-V version against the device's Vulkan version, then the capabilities (word_count >= 5;
 *  `source` as for sb_vk_check_capabilities). */
enum sb_result sb_vk_check_module(const struct sb_rt_context *c, const uint32_t *words, size_t word_count,
                                  const struct sb_translation *source, struct sb_error *error);

/* ---- vk_format.c ----------------------------------------------------------------------------- */

/** The VkFormat of an sb_rt_format; VK_FORMAT_UNDEFINED for unknown values. */
VkFormat sb_vk_format(uint32_t format);

/** How an SM4 resource dimension is created as an image. */
struct sb_vk_dimension {
    VkImageType image_type;
    VkImageViewType view_type;
    bool cube, multisampled;
    const char *name;
};
/** The row of an image dimension (2..10); NULL for buffers and unknown values. */
const struct sb_vk_dimension *sb_vk_dimension(uint32_t dimension);

/* ---- objects of one dispatch (vk_buffer.c, vk_image.c) --------------------------------------- */

/** A buffer in host-visible memory, persistently mapped. */
struct sb_vk_buffer {
    VkBuffer buffer;
    VkDeviceMemory memory;
    VkDeviceSize size;
    void *mapped;
    bool coherent;
    VkBufferView view;         /* texel buffers */
};

/** An image with its view and the staging buffer that feeds and reads it. */
struct sb_vk_image {
    VkImage image;
    VkDeviceMemory memory;
    VkImageView view;
    struct sb_vk_buffer staging;
    VkImageLayout layout;      /* the layout the shader sees */
    uint32_t mip_levels, layers;
    VkImageAspectFlags aspect; /* COLOR, or DEPTH for depth formats (comparison sampling) */
    /* aspect plus STENCIL for D24S8: a layout change must name both aspects of a
     * depth/stencil image (no separateDepthStencilLayouts); copies and the view name depth only */
    VkImageAspectFlags layout_aspect;
    /* Multisampled textures: the objects of the pass that fills them (vk_image_ms.c; depth formats
     * vk_image_ms_depth.c); NULL otherwise */
    struct sb_vk_ms_fill *ms;
    struct sb_vk_ms_depth *ms_depth;
    /* Multisampled colour targets of a draw: the pass reading every sample back (vk_ms_readback.c) */
    struct sb_vk_ms_readback *ms_readback;
};

/** Creates the image `info` describes in device-local memory, bound (`what` names it in the
 *  "no memory type for ..." error); the caller makes its view. (vk_util.c) */
enum sb_result sb_vk_image_memory(struct sb_rt_context *c, const VkImageCreateInfo *info, const char *what,
                                  struct sb_vk_image *out, struct sb_error *error);

/* ---- vk_objects.c: the small objects internal passes make ------------------------------------ */

/** A shader module of `count` SPIR-V words. */
enum sb_result sb_vk_shader_module(struct sb_rt_context *c, const uint32_t *words, size_t count,
                                   VkShaderModule *out, struct sb_error *error);
/** A compute pipeline running `entry_point` of `module` over `layout`. */
enum sb_result sb_vk_compute_pipeline(struct sb_rt_context *c, VkShaderModule module, const char *entry_point,
                                      VkPipelineLayout layout, VkPipeline *out, struct sb_error *error);
/** The same with `stage_next` (NULL: none) chained to the stage's create info (a required
 *  subgroup size, vk_subgroup.c). */
enum sb_result sb_vk_compute_pipeline_chained(struct sb_rt_context *c, VkShaderModule module, const char *entry_point,
                                              const void *stage_next, VkPipelineLayout layout, VkPipeline *out,
                                              struct sb_error *error);
/** A set layout of `bindings` and a pipeline layout of that one set plus, when push_bytes is
 *  not 0, one push-constant range of push_bytes for `stage`. */
enum sb_result sb_vk_one_set_layout(struct sb_rt_context *c, const VkDescriptorSetLayoutBinding *bindings,
                                    uint32_t binding_count, VkShaderStageFlags stage, uint32_t push_bytes,
                                    VkDescriptorSetLayout *set_layout, VkPipelineLayout *layout,
                                    struct sb_error *error);
/** A pool of exactly `sizes` for one set, and that set of `set_layout` allocated from it. */
enum sb_result sb_vk_one_set(struct sb_rt_context *c, const VkDescriptorPoolSize *sizes, uint32_t size_count,
                             VkDescriptorSetLayout set_layout, VkDescriptorPool *pool, VkDescriptorSet *set,
                             struct sb_error *error);

/** Points binding 0 of `set` at the whole of `buffer` (a storage buffer) and binding 1 at
 *  `view` as an image of `image_type` in `layout`: the two bindings every such pass has. */
void sb_vk_write_buffer_image_set(struct sb_rt_context *c, VkDescriptorSet set, VkBuffer buffer, VkImageView view,
                                  VkDescriptorType image_type, VkImageLayout layout);

/** Destroys what the functions above made for one pass (each handle may be VK_NULL_HANDLE),
 *  in the order Vulkan needs: the set's pool, the pipeline, the module, then the layouts. */
void sb_vk_pass_objects_destroy(struct sb_rt_context *c, VkDescriptorPool pool, VkPipeline pipeline,
                                VkShaderModule module, VkPipelineLayout layout, VkDescriptorSetLayout set_layout);

/* ---- vk_image_ms*.c, vk_ms_*_shader.c: multisampled textures ------------------------------------ */

/**
 * Creates the image, sampled view and fill pass of a multisampled t# (2DMS or 2DMS array, color
 * formats) and the staging buffer holding its texels (resources.h layout): every field of `out`
 * is set; record sb_vk_image_ms_record_upload to fill it. SB_ERROR_RUN_UNSUPPORTED names what
 * the device lacks (a storage-multisample feature, the sample count, the format).
 */
enum sb_result sb_vk_image_ms_create(struct sb_rt_context *c, const struct sb_rt_resource *r,
                                     const struct sb_vk_dimension *d, struct sb_vk_image *out,
                                     struct sb_error *error);
/** Records the fill of every sample from the staging buffer and the transition to the shader's layout. */
void sb_vk_image_ms_record_upload(struct sb_rt_context *c, VkCommandBuffer cmd, const struct sb_vk_image *img,
                                  const struct sb_rt_resource *r);
/** Destroys the fill pass's objects (the image itself is sb_vk_image_destroy's); NULL is a no-op. */
void sb_vk_image_ms_destroy(struct sb_rt_context *c, struct sb_vk_ms_fill *fill);
/** The same for a multisampled depth texture (d32_float, d16_unorm, d24_unorm_s8_uint), filled by a
 *  render pass per layer; `out->staging` is created here too. d32_float samples outside [0, 1]
 *  (what a depth attachment holds) are SB_ERROR_RUN_UNSUPPORTED naming the first. */
enum sb_result sb_vk_image_ms_depth_create(struct sb_rt_context *c, const struct sb_rt_resource *r,
                                           const struct sb_vk_dimension *d, struct sb_vk_image *out,
                                           struct sb_error *error);
/** Records the depth fill of every layer (render passes ending in the shader's layout). */
void sb_vk_image_ms_depth_record_upload(struct sb_rt_context *c, VkCommandBuffer cmd, const struct sb_vk_image *img);
/** Destroys the depth fill's objects; NULL is a no-op. */
void sb_vk_image_ms_depth_destroy(struct sb_rt_context *c, struct sb_vk_ms_depth *fill);
/** The read-back pass of a multisampled colour target `img` (its view and staging buffer made;
 *  `component_type` SB_IR_TYPE_FLOAT / UINT / INT of its R32G32B32A32 format): sets img->ms_readback. */
enum sb_result sb_vk_ms_readback_create(struct sb_rt_context *c, struct sb_vk_image *img, uint32_t width,
                                        uint32_t height, uint32_t samples, uint32_t component_type,
                                        struct sb_error *error);
/** Records: the target to SHADER_READ_ONLY, every sample into the staging buffer (4 words each, each
 *  pixel's samples in a row), then the host barrier. */
void sb_vk_ms_readback_record(struct sb_rt_context *c, VkCommandBuffer cmd, const struct sb_vk_image *img);
/** NULL is a no-op. */
void sb_vk_ms_readback_destroy(struct sb_rt_context *c, struct sb_vk_ms_readback *readback);
/** The read-back shader's SPIR-V for a target of `component_type` (vk_ms_readback_shader.c). */
size_t sb_vk_ms_readback_shader(uint32_t component_type, uint32_t *words, size_t capacity);
/** The fill shader's SPIR-V for texels of `texel_bytes` (1, 2, 4, 8, 16) into `words`; its word count,
 *  0 for another size or when `capacity` is too small (SB_VK_MS_FILL_WORDS is enough). */
size_t sb_vk_ms_fill_shader(uint32_t texel_bytes, uint32_t *words, size_t capacity);
#define SB_VK_MS_FILL_WORDS 640
/** The depth fill's vertex shader (one triangle over the viewport) and fragment shader (each
 *  sample's depth from the staging buffer; vk_ms_depth_shader.c), as sb_vk_ms_fill_shader. */
size_t sb_vk_ms_depth_vertex_shader(uint32_t *words, size_t capacity);
size_t sb_vk_ms_depth_fragment_shader(uint32_t *words, size_t capacity);

enum sb_result sb_vk_buffer_create(struct sb_rt_context *c, VkDeviceSize size, VkBufferUsageFlags usage,
                                   const void *data, size_t data_size, struct sb_vk_buffer *out,
                                   struct sb_error *error);
/** Makes host writes visible to the device (non-coherent memory). */
enum sb_result sb_vk_buffer_flush(struct sb_rt_context *c, struct sb_vk_buffer *b, struct sb_error *error);
/** Makes device writes visible to the host (non-coherent memory). */
enum sb_result sb_vk_buffer_invalidate(struct sb_rt_context *c, struct sb_vk_buffer *b,
                                       struct sb_error *error);
void sb_vk_buffer_destroy(struct sb_rt_context *c, struct sb_vk_buffer *b);

/**
 * Creates the image of a typed t#/u# texture (`storage`: a UAV) with its view and a staging buffer
 * holding the resource's texels. Checks the format and dimension against the device.
 */
enum sb_result sb_vk_image_create(struct sb_rt_context *c, const struct sb_rt_resource *r, bool storage,
                                  struct sb_vk_image *out, struct sb_error *error);
/** Records staging -> image copies and the transition to the shader's layout. */
void sb_vk_image_record_upload(struct sb_rt_context *c, VkCommandBuffer cmd, const struct sb_vk_image *img,
                               const struct sb_rt_resource *r);
/** Records image -> staging copies after the dispatch. */
void sb_vk_image_record_readback(struct sb_rt_context *c, VkCommandBuffer cmd,
                                 const struct sb_vk_image *img, const struct sb_rt_resource *r);
/** Records a layout transition of every level and layer of `img` (its aspect); vk_util.c. */
void sb_vk_image_barrier(struct sb_rt_context *c, VkCommandBuffer cmd, const struct sb_vk_image *img,
                         VkImageLayout from, VkImageLayout to, VkAccessFlags src, VkAccessFlags dst,
                         VkPipelineStageFlags src_stage, VkPipelineStageFlags dst_stage);
void sb_vk_image_destroy(struct sb_rt_context *c, struct sb_vk_image *img);

/** Creates a VkSampler from sampler state; SB_ERROR_INVALID_ARGUMENT for values out of range. */
enum sb_result sb_vk_sampler_create(struct sb_rt_context *c, const struct sb_rt_resource *r, VkSampler *out,
                                    struct sb_error *error);

/* ---- one dispatch (vk_dispatch.c, vk_bind.c) -------------------------------------------------- */

/* Descriptor sets a run may use (register spaces 0..7; the device limit may be lower). */
#define SB_VK_MAX_SETS 8
/* Descriptors an unbounded SM5.1 range may take (the consecutive registers given). */
#define SB_VK_MAX_UNBOUNDED 4096

/** One descriptor of the pipeline layout and what backs it. */
struct sb_vk_slot {
    const struct sb_translated_binding *binding;
    uint32_t element;              /* array index within the binding */
    struct sb_rt_resource *resource;
    struct sb_vk_buffer buffer;    /* buffers and texel buffers */
    VkDeviceSize range;            /* bytes the descriptor covers */
    struct sb_vk_image image;      /* textures */
    VkSampler sampler;             /* samplers */
    struct sb_vk_buffer counter;   /* the UAV's counter (binding->has_counter) */
};

/** Everything one sb_rt_dispatch creates; sb_vk_run_release frees it all. */
struct sb_vk_run {
    struct sb_rt_context *c;
    const struct sb_translation *t;
    struct sb_vk_slot *slots;
    uint32_t slot_count;
    uint32_t *binding_counts;      /* descriptors per translated binding */
    uint32_t set_count;
    VkDescriptorSetLayout set_layouts[SB_VK_MAX_SETS];
    VkDescriptorSet sets[SB_VK_MAX_SETS];
    VkDescriptorPool pool;
    VkPipelineLayout layout;
    VkShaderModule module;
    VkPipeline pipeline;
    bool has_images;
    VkShaderStageFlags stage_flags; /* the stages every descriptor is visible to; 0 = compute */
};

/** Descriptor-set layouts (register space = set, checked against the device) and the pipeline layout. */
enum sb_result sb_vk_layouts_create(struct sb_vk_run *run, struct sb_error *error);
/** Destroys everything in `run` (nothing after a timed-out wait: the device may still use it). */
void sb_vk_run_release(struct sb_vk_run *run);

/** Finds the resource of every descriptor (SB_ERROR_RUN_BINDING when one is missing). */
enum sb_result sb_vk_bind_resolve(struct sb_vk_run *run, struct sb_rt_resource *resources, uint32_t count,
                                  struct sb_error *error);
/** Creates the buffer / image / sampler of every slot and uploads its contents (images staged only). */
enum sb_result sb_vk_bind_create(struct sb_vk_run *run, struct sb_error *error);
/** Creates the descriptor pool and sets and writes every slot into them. */
enum sb_result sb_vk_bind_write(struct sb_vk_run *run, struct sb_error *error);
/** Copies UAV buffers, images (from staging) and counters back into their resources. */
enum sb_result sb_vk_bind_readback(struct sb_vk_run *run, struct sb_error *error);
/** Destroys the slots' objects. */
void sb_vk_bind_release(struct sb_vk_run *run);

/* ---- vk_submit.c ----------------------------------------------------------------------------- */

enum sb_result sb_vk_command_begin(struct sb_rt_context *c, VkCommandBuffer *out, struct sb_error *error);
/** Ends, submits, waits (fence with timeout) and frees the command buffer. */
enum sb_result sb_vk_command_submit(struct sb_rt_context *c, VkCommandBuffer cmd, struct sb_error *error);

/* ---- vk_subgroup.c --------------------------------------------------------------------------- */

/** The compute pipeline of translation `t`: as sb_vk_compute_pipeline, with the subgroup size
 *  pinned (sb_rt_context_wave_size's choice) when `t` requires a wave size; RUN_UNSUPPORTED when
 *  the device has none that fits. */
enum sb_result sb_vk_compute_pipeline_waves(struct sb_rt_context *c, const struct sb_translation *t,
                                            VkShaderModule module, VkPipelineLayout layout, VkPipeline *out,
                                            struct sb_error *error);
/** SB_ERROR_RUN_UNSUPPORTED when the module declares a GroupNonUniform* capability whose
 *  operations the device's subgroups lack, or lack in the translation's stage (its subgroup
 *  supportedStages / supportedOperations / quadOperationsInAllStages). */
enum sb_result sb_vk_check_subgroups(const struct sb_rt_context *c, const uint32_t *words, size_t word_count,
                                     const struct sb_translation *source, struct sb_error *error);

#endif
