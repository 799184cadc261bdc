/* SPDX-License-Identifier: MIT */
/*
 * The Vulkan runtime: a context that reaches Vulkan through volk (no
 * link-time libvulkan dependency), picks a device, and runs translated
 * shaders on it with resources described by shaderbridge/resources.h.
 *
 * Device choice: options->device, else the environment variable
 * SHADERBRIDGE_DEVICE, else lavapipe (the embedded default: the CPU device
 * whose name contains "llvmpipe"), else the first device. A device is named
 * by its index ("0", "1") or a case-insensitive substring of its name.
 *
 * CPU-only mode: with options->cpu_only, or when no Vulkan loader or no
 * device can be found and options->allow_cpu_only is set, the context is
 * created without Vulkan; sb_rt_context_has_device() says which happened and
 * GPU entry points then fail with SB_ERROR_NO_DEVICE. The CPU interpreter
 * (interp.h) needs no context at all.
 *
 * Environment:
 *   SHADERBRIDGE_DEVICE          the device when options->device is NULL (index or name part).
 *   SHADERBRIDGE_VULKAN_LOADER   the path of the Vulkan loader library to dlopen instead of
 *                                libvulkan.so.1 (its vkGetInstanceProcAddr is handed to volk);
 *                                a path that does not load acts as a machine without Vulkan
 *                                (the runtime's tests use this to check CPU-only mode).
 * A device name or index that matches no device is SB_ERROR_NO_DEVICE (listing the devices)
 * even with allow_cpu_only: it is a wrong argument, not a missing GPU.
 *
 * The device is created with every core feature it supports (Vulkan 1.0-1.3 feature structs
 * as its version allows; robustBufferAccess gives D3D's out-of-bounds rules) except
 * shaderTessellationAndGeometryPointSize, plus VK_EXT_robustness2 and
 * VK_EXT_shader_viewport_index_layer (SV_RenderTargetArrayIndex / SV_ViewportArrayIndex
 * outside geometry shaders) when present.
 */
#ifndef SHADERBRIDGE_RUNTIME_H
#define SHADERBRIDGE_RUNTIME_H

#include <stdbool.h>
#include <stdint.h>

#include "shaderbridge/resources.h"
#include "shaderbridge/result.h"
#include "shaderbridge/translate.h"

#ifdef __cplusplus
extern "C" {
#endif

struct sb_rt_context;

struct sb_rt_context_options {
    const char *device;     /**< index or name substring; NULL = SHADERBRIDGE_DEVICE / lavapipe */
    bool cpu_only;          /**< do not load Vulkan at all */
    bool allow_cpu_only;    /**< no loader / no device is not an error: CPU-only context */
    /** Enable VK_LAYER_KHRONOS_validation when installed; its errors are counted
     *  (sb_rt_context_validation_errors) and the first is kept. */
    bool validation;
};

enum sb_result sb_rt_context_create(const struct sb_rt_context_options *options,
                                    struct sb_rt_context **out, struct sb_error *error);
void sb_rt_context_destroy(struct sb_rt_context *context);

/** True when the context has a Vulkan device (false in CPU-only mode). */
bool sb_rt_context_has_device(const struct sb_rt_context *context);
/** The device name, or "cpu-only". Owned by the context. */
const char *sb_rt_context_device_name(const struct sb_rt_context *context);
/** Validation-layer errors reported since the context was created (0 without the layer). */
uint32_t sb_rt_context_validation_errors(const struct sb_rt_context *context);
/** The first validation-layer error message, or "". Owned by the context. */
const char *sb_rt_context_first_validation_error(const struct sb_rt_context *context);

/** Wall times of one GPU run, in nanoseconds. */
struct sb_rt_timing {
    uint64_t pipeline_ns;   /**< shader module + layouts + pipeline creation */
    uint64_t upload_ns;     /**< resource creation and upload */
    uint64_t run_ns;        /**< command submission to fence signalled */
    uint64_t readback_ns;   /**< copying UAV results back */
};

/**
 * Runs a translated compute shader for group_count[0] x [1] x [2] thread groups.
 * Every binding of `translation` must find its resource(s) in `resources` by
 * (class, space, register); UAV contents and counters are written back into
 * `resources`. timing may be NULL.
 * Errors: SB_ERROR_NO_DEVICE, SB_ERROR_RUN_BINDING, SB_ERROR_RUN_UNSUPPORTED (a format
 * or dimension the runtime cannot create), SB_ERROR_VULKAN (the failing call and VkResult
 * in the message), SB_ERROR_INVALID_ARGUMENT (not a compute translation).
 *
 * Details of the implementation (runtime/src/vk_*.c):
 *  - An unbounded SM5.1 range binds the registers given in a row from its lower bound
 *    (at least one); a sized range needs all of its registers.
 *  - SB_ERROR_RUN_UNSUPPORTED also covers: a SPIR-V capability whose device feature is off
 *    (named in the message), a SPIR-V version newer than the device's Vulkan version takes,
 *    multisampled textures (their texels cannot be uploaded by copy), register spaces past
 *    the device's descriptor sets (at most 8), format features the device lacks.
 *  - Buffers with fewer bytes than the descriptor needs read zeros past `size`; a cbuffer is
 *    padded to 16 bytes. Texture `data` may be NULL (zeros; nothing read back).
 *  - A run that does not finish within 60 s fails with SB_ERROR_VULKAN (vkWaitForFences:
 *    VK_TIMEOUT); its objects are then left alive and the context refuses further dispatches
 *    with SB_ERROR_NO_DEVICE.
 */
enum sb_result sb_rt_dispatch(struct sb_rt_context *context, const struct sb_translation *translation,
                              struct sb_rt_resource *resources, uint32_t resource_count,
                              const uint32_t group_count[3], struct sb_rt_timing *timing,
                              struct sb_error *error);

/* ---- point-list draws (runtime/src/vk_draw*.c) ------------------------------------------------ */

/** Per-vertex data for one vertex-shader input location. */
struct sb_rt_vertex_stream {
    uint32_t location;        /**< the VS Input location (sb_translation::inputs[i].location) */
    /** enum sb_rt_format of one element: R32, R32G32 or R32G32B32A32 x FLOAT / UINT / SINT;
     *  its component type must match the input's (FLOAT, UINT, INT). */
    uint32_t format;
    const void *data;         /**< vertex_count elements, tightly packed */
};

/** A colour attachment the pixel shader writes. */
struct sb_rt_color_target {
    uint32_t location;        /**< the PS Output location (SV_Target index), < the device's maxColorAttachments */
    /** enum sb_rt_format: R32G32B32A32 FLOAT / UINT / SINT, R8G8B8A8_UNORM or
     *  R16G16B16A16_FLOAT; a UINT / SINT format needs a UINT / INT output, the others FLOAT. */
    uint32_t format;
    /** width x height texels, rows top (y = 0) first: loaded before the draw (the clear value),
     *  results written back. NULL: zeros, nothing read back. */
    void *data;
};

/** One point-list draw (sb_rt_draw_points). */
struct sb_rt_draw {
    const struct sb_translation *vertex;    /**< required: a vertex-shader translation */
    const struct sb_translation *geometry;  /**< optional (NULL): a geometry-shader translation */
    /** optional: a pixel-shader translation; NULL = rasterizer discard (vertex / geometry
     *  results captured through UAVs; targets and depth are then read back unchanged). */
    const struct sb_translation *pixel;
    uint32_t vertex_count;                  /**< points drawn: VK_PRIMITIVE_TOPOLOGY_POINT_LIST, one instance */
    uint32_t stream_count;
    /** One per VS input location the shader reads (each location at most once); a stream
     *  whose location the VS does not read is bound but unused. */
    const struct sb_rt_vertex_stream *streams;
    uint32_t width, height;                 /**< framebuffer (viewport 0,0,width,height, depth 0..1) */
    uint32_t target_count;
    struct sb_rt_color_target *targets;     /**< distinct locations; may be NULL when target_count is 0 */
    /** optional D32_SFLOAT attachment (width x height floats in [0, 1], loaded and written
     *  back; depth test LESS_OR_EQUAL, writes on) or NULL (no depth test). */
    float *depth;
};

/**
 * Draws draw->vertex_count points (one vertex each, so a point covers the one pixel its
 * position falls in and every pixel-shader input takes the vertex's values) through the
 * translated vertex, optional geometry and optional pixel shaders.
 *
 * Resources: the union of the bindings of the given stages (one register has the same
 * set/binding in every stage under the translator's default scheme: identical bindings
 * are merged and visible to all given stages; one set/binding with different descriptor
 * types, registers or counts is SB_ERROR_RUN_BINDING), found in `resources` as for
 * sb_rt_dispatch; UAVs and counters written by any stage are written back the same way.
 * UAVs in the vertex or geometry stage need vertexPipelineStoresAndAtomics, in the pixel
 * stage fragmentStoresAndAtomics (SB_ERROR_RUN_UNSUPPORTED without).
 *
 * Pipeline: one vertex-buffer binding per stream (per-vertex rate), topology POINT_LIST,
 * viewport and scissor = the framebuffer, no culling, fill mode, one sample, no blending
 * (write mask RGBA for every target the pixel shader writes, none for the others, which
 * keep their loaded texels), colour attachments in location order, depth test
 * LESS_OR_EQUAL with writes when draw->depth is given.
 *
 * PointSize: Vulkan needs the last pre-rasterisation stage of a point-list pipeline to
 * write PointSize, and D3D shaders (and so the translator) never do; when there is no
 * geometry shader the runtime adds `PointSize = 1.0` to its copy of the vertex module
 * (the translation is not changed). With a geometry shader nothing is added: the device is
 * created without shaderTessellationAndGeometryPointSize, so its points are 1 pixel.
 *
 * Errors: SB_ERROR_NO_DEVICE, SB_ERROR_INVALID_ARGUMENT (missing or wrong-stage
 * translations, sizes, duplicate locations, NULL data), SB_ERROR_RUN_BINDING (a resource,
 * vertex stream or target format that does not match the shaders, conflicting bindings),
 * SB_ERROR_RUN_UNSUPPORTED (a format the list above does not allow or the device cannot
 * use that way, a feature the device lacks, as for sb_rt_dispatch), SB_ERROR_VULKAN.
 * timing may be NULL; its phases are filled as for sb_rt_dispatch (pipeline_ns includes
 * the render pass, upload_ns the vertex buffers and attachments, readback_ns the targets).
 */
enum sb_result sb_rt_draw_points(struct sb_rt_context *context, const struct sb_rt_draw *draw,
                                 struct sb_rt_resource *resources, uint32_t resource_count,
                                 struct sb_rt_timing *timing, struct sb_error *error);

#ifdef __cplusplus
}
#endif

#endif
