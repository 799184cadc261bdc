/* SPDX-License-Identifier: MIT */
/*
 * Vulkan test harness for lavapipe under the Khronos validation layer: one
 * instance + device per test process, a debug-utils messenger that counts
 * validation errors and warnings, and helpers that turn SPIR-V (translated
 * or written by a test) into descriptor set layouts, pipelines, buffers and
 * images. Tests only: nothing here is part of the library.
 */
#ifndef SB_TEST_VK_HARNESS_H
#define SB_TEST_VK_HARNESS_H

#ifndef VK_NO_PROTOTYPES
#define VK_NO_PROTOTYPES
#endif
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <volk.h>

/* Exit code ctest reads as "skipped" (SKIP_RETURN_CODE 77). */
#define VKH_SKIP 77

/* Descriptor array size used for an unbounded (SM5.1 `[]`) range: the
 * pipeline layout must give some size and the corpus never indexes past a
 * few elements; pipeline creation does not depend on the value. */
#define VKH_UNBOUNDED_ARRAY_SIZE 8

/* How many validation messages are printed in full per harness. */
#define VKH_PRINT_LIMIT 20

/** One binding of a descriptor set layout the tests ask for. */
struct vkh_binding {
    uint32_t set, binding;
    VkDescriptorType type;
    uint32_t count;            /**< descriptors; 0xFFFFFFFF = unbounded */
};

/** Counters of the messenger; reset with vkh_reset_messages(). */
struct vkh_messages {
    uint32_t errors;           /**< severity ERROR */
    uint32_t warnings;         /**< severity WARNING, validation/general type */
    uint32_t performance;      /**< severity WARNING, performance type */
    uint32_t printed;          /**< messages printed so far (VKH_PRINT_LIMIT) */
    char first_error[512];     /**< first ERROR since the last reset ("" if none) */
    char first_warning[512];   /**< first WARNING since the last reset */
    bool quiet;                /**< do not print (a test that provokes errors on purpose) */
};

/** The process-wide Vulkan state. */
struct vkh {
    VkInstance instance;
    VkDebugUtilsMessengerEXT messenger;
    VkPhysicalDevice physical;
    VkDevice device;
    VkQueue queue;
    uint32_t queue_family;
    VkCommandPool command_pool;
    VkPipelineCache cache;     /**< VK_NULL_HANDLE: every pipeline compiles afresh */
    VkPipelineCreateFlags pipeline_flags; /**< added to every pipeline (DISABLE_OPTIMIZATION) */
    VkPhysicalDeviceProperties properties;
    VkPhysicalDeviceMemoryProperties memory;
    bool validation;           /**< VK_LAYER_KHRONOS_validation is enabled */
    bool geometry_streams;     /**< VK_EXT_transform_feedback geometryStreams enabled */
    bool stencil_export;       /**< VK_EXT_shader_stencil_export enabled */
    struct vkh_messages messages;
};

/**
 * Creates instance (validation layer + messenger), picks lavapipe (any CPU
 * device; else the first device), creates a device with every core feature
 * it reports. Returns 0, VKH_SKIP when there is no Vulkan at all (the reason
 * is printed), or 1 on a failure (printed).
 */
int vkh_init(struct vkh *h);
void vkh_destroy(struct vkh *h);
void vkh_reset_messages(struct vkh *h);

/* ---- pipelines ------------------------------------------------------- */

/** Layouts built from a binding list; destroy with vkh_layout_destroy(). */
struct vkh_layout {
    uint32_t set_count;
    VkDescriptorSetLayout sets[8];
    VkPipelineLayout pipeline;
};

/**
 * Builds one descriptor set layout per set 0..max (empty ones fill gaps) and
 * the pipeline layout, visible to `stages`. Returns VK_SUCCESS or the error.
 */
VkResult vkh_layout_create(struct vkh *h, const struct vkh_binding *bindings, uint32_t count,
                           VkShaderStageFlags stages, struct vkh_layout *out);
void vkh_layout_destroy(struct vkh *h, struct vkh_layout *layout);

VkResult vkh_shader_module(struct vkh *h, const uint32_t *words, size_t word_count,
                           VkShaderModule *out);

VkResult vkh_compute_pipeline(struct vkh *h, VkShaderModule module, const char *entry,
                              VkPipelineLayout layout, VkPipeline *out);

/** One attribute of the vertex input state: its format is given, not derived. */
struct vkh_vertex_attribute {
    uint32_t location;
    VkFormat format;
};

/** Everything a graphics pipeline of the tests needs. */
struct vkh_graphics_desc {
    VkShaderModule vs, tcs, tes, gs, fs; /**< VK_NULL_HANDLE for absent stages */
    const char *entry[5];                /**< per stage in the order above; NULL = "main" */
    VkPrimitiveTopology topology;
    uint32_t patch_control_points;       /**< tessellation */
    uint32_t attribute_count;
    const struct vkh_vertex_attribute *attributes;
    uint32_t color_count;                /**< attachments 0..color_count-1 */
    VkFormat color_formats[8];           /**< VK_FORMAT_UNDEFINED: attachment unused */
    bool depth;                          /**< D32_SFLOAT depth attachment, test+write on */
    bool stencil;                        /**< D32_SFLOAT_S8_UINT instead, stencil on */
    bool sample_shading;                 /**< sampleShadingEnable */
    VkPipelineLayout layout;
};

/** Creates the render pass and the pipeline; the render pass is destroyed with it. */
VkResult vkh_graphics_pipeline(struct vkh *h, const struct vkh_graphics_desc *desc,
                               VkPipeline *out, VkRenderPass *pass_out);

/* ---- resources and dispatch ----------------------------------------- */

struct vkh_buffer {
    VkBuffer buffer;
    VkDeviceMemory memory;
    VkDeviceSize size;
    void *mapped;              /**< host-visible, coherent, persistently mapped */
    VkBufferView view;         /**< typed buffers only */
};

VkResult vkh_buffer_create(struct vkh *h, VkDeviceSize size, VkBufferUsageFlags usage,
                           const void *initial, struct vkh_buffer *out);
VkResult vkh_buffer_view(struct vkh *h, struct vkh_buffer *b, VkFormat format);
void vkh_buffer_destroy(struct vkh *h, struct vkh_buffer *b);

struct vkh_image {
    VkImage image;
    VkDeviceMemory memory;
    VkImageView view;
    VkSampler sampler;
};

/** An image to sample: texels are packed mip by mip, layer by layer, then z, y, x. */
struct vkh_image_desc {
    VkImageViewType view_type;   /**< 1D, 2D, 3D, CUBE and the array forms */
    VkFormat format;             /**< R32G32B32A32_SFLOAT, R32_UINT, ... (4 or 16 bytes a texel) */
    uint32_t width, height, depth;
    uint32_t layers;             /**< array layers (cube: 6 per cube) */
    uint32_t mips;               /**< mip levels (each half the size, at least 1) */
};

/** Creates a SAMPLED image (SHADER_READ_ONLY_OPTIMAL, all texels uploaded), its view
 *  and a nearest / clamp-to-edge sampler. */
VkResult vkh_image_create(struct vkh *h, const struct vkh_image_desc *desc, const void *texels,
                          struct vkh_image *out);
/** Bytes of the packed texels vkh_image_create reads for `desc`. */
size_t vkh_image_bytes(const struct vkh_image_desc *desc);
void vkh_image_destroy(struct vkh *h, struct vkh_image *img);

/** What a descriptor points at, for vkh_dispatch(). */
struct vkh_resource {
    uint32_t set, binding;
    VkDescriptorType type;
    const struct vkh_buffer *buffer; /**< buffers and texel buffers */
    const struct vkh_image *image;   /**< images and samplers */
};

/**
 * Writes a descriptor set per set of the layout from `resources`, binds the
 * compute pipeline, dispatches (x, y, z) groups, waits. Returns VK_SUCCESS
 * or the failing call's result.
 */
VkResult vkh_dispatch(struct vkh *h, VkPipeline pipeline, const struct vkh_layout *layout,
                      const struct vkh_resource *resources, uint32_t resource_count,
                      uint32_t x, uint32_t y, uint32_t z);

/* Shared by the harness files. */
VkResult vkh_allocate(struct vkh *h, VkMemoryRequirements req, VkMemoryPropertyFlags want,
                      VkDeviceMemory *out);
VkResult vkh_one_shot_begin(struct vkh *h, VkCommandBuffer *cmd);
/** Ends, submits and waits for a command buffer from vkh_one_shot_begin, then frees it. */
VkResult vkh_one_shot_submit(struct vkh *h, VkCommandBuffer cmd);

/**
 * Draws `vertex_count` vertices (no vertex buffers) with a pipeline made by
 * vkh_graphics_pipeline for `desc` into `desc->color_count` attachments of
 * width x height, each cleared to `clear` (as raw 32-bit words), and copies
 * attachment i to `out[i]` (host-visible, at least width*height*16 bytes,
 * created here; destroy with vkh_buffer_destroy). Formats must be 16 bytes a texel.
 */
VkResult vkh_draw(struct vkh *h, const struct vkh_graphics_desc *desc, VkPipeline pipeline,
                  VkRenderPass pass, uint32_t width, uint32_t height, const uint32_t clear[4],
                  uint32_t vertex_count, struct vkh_buffer *out);

/** "VK_ERROR_OUT_OF_HOST_MEMORY" etc. */
const char *vkh_result_name(VkResult r);

#endif
