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

SB_API enum sb_result sb_rt_context_create(const struct sb_rt_context_options *options,
                                    struct sb_rt_context **out, struct sb_error *error);
SB_API void sb_rt_context_destroy(struct sb_rt_context *context);

/** True when the context has a Vulkan device (false in CPU-only mode). */
SB_API bool sb_rt_context_has_device(const struct sb_rt_context *context);
/** The device name, or "cpu-only". Owned by the context. */
SB_API const char *sb_rt_context_device_name(const struct sb_rt_context *context);
/** Validation-layer errors reported since the context was created (0 without the layer). */
SB_API uint32_t sb_rt_context_validation_errors(const struct sb_rt_context *context);
/** The first validation-layer error message, or "". Owned by the context. */
SB_API const char *sb_rt_context_first_validation_error(const struct sb_rt_context *context);

/**
 * The translator's description of the context's device (translate.h, sb_device_profile):
 * described, with the features the device enabled, its maxBoundDescriptorSets (at most
 * the 8 sets the runtime binds) and its maxPerStageDescriptorStorageBuffers,
 * StorageImages and SampledImages (raw/structured registers past the storage buffers are
 * bound as R32_UINT texel buffers, whose views sb_rt_dispatch makes from the report's
 * view_format); fragment_shader_pixel_interlock and fragment_fully_covered true only
 * where the context enabled VK_EXT_fragment_shader_interlock (with
 * fragmentShaderPixelInterlock) and VK_EXT_conservative_rasterization (with FullyCoveredEXT
 * and point rasterization, which its draws use); zeroed ("assume everything") for a
 * CPU-only context or a NULL one. Pass it in sb_translate_options::device so that a
 * translation picks the fallbacks this device needs. `out` NULL: nothing is written.
 */
SB_API void sb_rt_context_device_profile(const struct sb_rt_context *context, struct sb_device_profile *out);
/**
 * The wave (subgroup) size the context's device runs a program of `stage` with, which
 * requires the wave sizes (min, max, preferred) (sb_translation::wave_size_*; all 0: none):
 * the device's subgroupSize when none is required; else, where Vulkan 1.3's subgroup size
 * control covers the stage, a power of two in the device's [minSubgroupSize,
 * maxSubgroupSize] within the requirement (the preferred size when it can, then the device's
 * default, then the smallest; sb_rt_dispatch pins its pipeline to it), and without that
 * control the device's subgroupSize if the requirement holds it. Errors:
 * SB_ERROR_RUN_UNSUPPORTED naming the required and the offered sizes when none fits;
 * SB_ERROR_NO_DEVICE for a CPU-only or NULL context.
 */
SB_API enum sb_result sb_rt_context_wave_size(struct sb_rt_context *context, enum sb_ir_stage stage, uint32_t min,
                                              uint32_t max, uint32_t preferred, uint32_t *size,
                                              struct sb_error *error);
/** The VkFormat value of a runtime format (sb_storage_format::vk_format); 0 for unknown ones. */
SB_API uint32_t sb_rt_format_vk(enum sb_rt_format format);

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
 * Details of the implementation (runtime/src/vulkan/):
 *  - An unbounded SM5.1 range binds the registers given in a row from its lower bound
 *    (at least one); a sized range needs all of its registers.
 *  - SB_ERROR_RUN_UNSUPPORTED also covers: a SPIR-V capability whose device feature is off
 *    (named in the message; the error's offset is the capability's origin from
 *    sb_translation::capability_origins, the declaration or instruction that needed it, or 0
 *    when the translation reports none), a SPIR-V version newer than the device's Vulkan version takes,
 *    multisampled textures (their texels cannot be uploaded by copy), register spaces past
 *    the device's descriptor sets (at most 8), format features the device lacks.
 *  - Buffers with fewer bytes than the descriptor needs read zeros past `size`; a cbuffer is
 *    padded to 16 bytes. Texture `data` may be NULL (zeros; nothing read back).
 *  - A run that does not finish within 60 s fails with SB_ERROR_VULKAN (vkWaitForFences:
 *    VK_TIMEOUT); its objects are then left alive and the context refuses further dispatches
 *    with SB_ERROR_NO_DEVICE.
 */
SB_API enum sb_result sb_rt_dispatch(struct sb_rt_context *context, const struct sb_translation *translation,
                              struct sb_rt_resource *resources, uint32_t resource_count,
                              const uint32_t group_count[3], struct sb_rt_timing *timing,
                              struct sb_error *error);

/* ---- point-list draws (runtime/src/vulkan/vk_draw*.c) ------------------------------------------------ */

/** Per-vertex data for one vertex-shader input location. */
struct sb_rt_vertex_stream {
    uint32_t location;        /**< the VS Input location (sb_translation::inputs[i].location) */
    /** One element: R32, R32G32 or R32G32B32A32 x FLOAT / UINT / SINT; its component
     *  type must match the input's (FLOAT, UINT, INT). */
    enum sb_rt_format format;
    const void *data;         /**< vertex_count elements, tightly packed */
};

/** A colour attachment the pixel shader writes. */
struct sb_rt_color_target {
    uint32_t location;        /**< the PS Output location (SV_Target index), < the device's maxColorAttachments */
    /** Any uncompressed colour format of resources.h the device can render to (no depth,
     *  no BC formats); a uint / sint format needs a UINT / INT output, the others FLOAT. */
    enum sb_rt_format format;
    /** width x height texels, rows top (y = 0) first: loaded before the draw (the clear value),
     *  results written back. NULL: zeros, nothing read back. */
    void *data;
};

/** sb_rt_draw::topology: list topologies, with the VkPrimitiveTopology value of each. Vertex i
 *  * V .. i * V + V - 1 make primitive i (SV_PrimitiveID i), in order, adjacency ones included;
 *  patches likewise. */
enum sb_rt_topology {
    SB_RT_TOPOLOGY_POINT_LIST = 0,                    /**< V = 1 */
    SB_RT_TOPOLOGY_LINE_LIST = 1,                     /**< V = 2 */
    SB_RT_TOPOLOGY_TRIANGLE_LIST = 3,                 /**< V = 3 */
    SB_RT_TOPOLOGY_LINE_LIST_WITH_ADJACENCY = 6,      /**< V = 4 */
    SB_RT_TOPOLOGY_TRIANGLE_LIST_WITH_ADJACENCY = 8,  /**< V = 6 */
    /** V = the hull translation's patch_control_points: patch i is vertices i * V .. i * V + V - 1
     *  (the hull and domain stages' SV_PrimitiveID i). Only with sb_rt_draw::hull and ::domain. */
    SB_RT_TOPOLOGY_PATCH_LIST = 10,
    SB_RT_TOPOLOGY_MAX_ENUM = 0x7fffffff
};

/** One point-list draw (sb_rt_draw_points). */
struct sb_rt_draw {
    const struct sb_translation *vertex;    /**< required: a vertex-shader translation */
    const struct sb_translation *geometry;  /**< optional (NULL): a geometry-shader translation */
    /** optional: a pixel-shader translation; NULL = rasterizer discard (vertex / geometry
     *  results captured through UAVs; targets and depth are then read back unchanged). */
    const struct sb_translation *pixel;
    uint32_t vertex_count;                  /**< vertices drawn (points unless `topology` says otherwise), one instance */
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
    /** The primitive topology vertex_count vertices are assembled into;
     *  0 = SB_RT_TOPOLOGY_POINT_LIST, what every draw used before
     *  this member existed. Adjacency lists need a geometry shader, a patch list hull and
     *  domain shaders, and vertex_count a multiple of the vertices per primitive; line and
     *  triangle lists may go from the vertex stage straight to the rasterizer. */
    enum sb_rt_topology topology;
    /** optional stencil attachment (width x height bytes, loaded and written back) or NULL
     *  (none). The stencil test always passes and replaces the texel with the fragment's
     *  reference, write mask 0xFF: the pipeline's reference is 0, so a pixel shader exporting
     *  SV_StencilRef (FragStencilRefEXT, VK_EXT_shader_stencil_export) writes its own low 8
     *  bits. The attachment is S8_UINT, or D32_SFLOAT_S8_UINT together with `depth`. */
    uint8_t *stencil;
    /** optional (NULL): a hull-shader translation, run as the tessellation control stage;
     *  given together with `domain`, and then `topology` must be SB_RT_TOPOLOGY_PATCH_LIST.
     *  Needs the device's tessellationShader feature. */
    const struct sb_translation *hull;
    /** optional (NULL): the domain-shader translation (tessellation evaluation stage) that
     *  goes with `hull`; its control points are the hull shader's output control points. */
    const struct sb_translation *domain;
    /** Samples per pixel of the colour targets: 0 or 1 one sample; N > 1 (a count the device has
     *  for the targets' formats as sampled colour attachments) makes them N-sample images and
     *  rasterises at N samples (a pixel shader reading SV_SampleIndex or sample-interpolated
     *  inputs then runs per sample; a point of size 1 covers every sample of its pixel). Each
     *  target's `data` then holds width x height x N texels, each pixel's samples in a row
     *  (resources.h's multisampled layout), receives every sample, and is not loaded: the
     *  targets start cleared to 0. Targets must be R32G32B32A32 FLOAT / UINT / SINT; no depth or
     *  stencil attachment. */
    uint32_t samples;
};


/**
 * Draws draw->vertex_count points (one vertex each, so a point covers the one pixel its
 * position falls in and every pixel-shader input takes the vertex's values) through the
 * translated vertex, optional hull + domain, optional geometry and optional pixel shaders.
 * With hull and domain shaders the vertices are patches of the hull shader's input control
 * points (SB_RT_TOPOLOGY_PATCH_LIST), tessellated by the device's fixed-function
 * tessellator with the translation's execution modes (the tess factors are what the
 * translated hull shader writes: see translator/README.md for the D3D rules it applies).
 *
 * Resources: the union of the bindings of the given stages (one register has the same
 * set/binding in every stage under the translator's default scheme: identical bindings
 * are merged and visible to all given stages; one set/binding with different descriptor
 * types, registers or counts is SB_ERROR_RUN_BINDING), found in `resources` as for
 * sb_rt_dispatch; UAVs and counters written by any stage are written back the same way.
 * UAVs in the vertex or geometry stage need vertexPipelineStoresAndAtomics, in the pixel
 * stage fragmentStoresAndAtomics (SB_ERROR_RUN_UNSUPPORTED without).
 *
 * Pipeline: one vertex-buffer binding per stream (per-vertex rate), topology draw->topology
 * (see sb_rt_draw::topology; a line or triangle list needs no geometry shader),
 * viewport and scissor = the framebuffer, no culling, fill mode, one sample, no blending
 * (write mask RGBA for every target the pixel shader writes, none for the others, which
 * keep their loaded texels), colour attachments in location order, depth test
 * LESS_OR_EQUAL with writes when draw->depth is given, stencil ALWAYS / REPLACE when
 * draw->stencil is given.
 *
 * PointSize: Vulkan needs the last pre-rasterisation stage of a point-list pipeline to
 * write PointSize, and D3D shaders (and so the translator) never do; when there is no
 * geometry or tessellation stage the runtime adds `PointSize = 1.0` to its copy of the vertex
 * module (the translation is not changed). With a geometry or domain shader nothing is added:
 * the device is created without shaderTessellationAndGeometryPointSize, so its points are 1
 * pixel.
 *
 * Errors: SB_ERROR_NO_DEVICE, SB_ERROR_INVALID_ARGUMENT (missing or wrong-stage
 * translations, sizes, duplicate locations, NULL data), SB_ERROR_RUN_BINDING (a resource,
 * vertex stream or target format that does not match the shaders, conflicting bindings),
 * SB_ERROR_RUN_UNSUPPORTED (a format the list above does not allow or the device cannot
 * use that way, a feature the device lacks, as for sb_rt_dispatch), SB_ERROR_VULKAN.
 * timing may be NULL; its phases are filled as for sb_rt_dispatch (pipeline_ns includes
 * the render pass, upload_ns the vertex buffers and attachments, readback_ns the targets).
 */
SB_API enum sb_result sb_rt_draw_points(struct sb_rt_context *context, const struct sb_rt_draw *draw,
                                 struct sb_rt_resource *resources, uint32_t resource_count,
                                 struct sb_rt_timing *timing, struct sb_error *error);

/* ---- VBC graphics pipelines (runtime/src/vulkan/vk_vbc*.c) ---------------------------------------------- */

struct sb_vbc; /* shaderbridge/vbc.h */

/** What the application binds to one binding slot of a VBC (../shared/docs/vbc.md §3.3, §6). */
struct sb_rt_vbc_binding {
    uint32_t slot;                   /**< a slot the VBC declares (0..31), at most once per draw */
    /**
     * The resource (resource_class, space and register_index are ignored):
     *  - Sampler*: a texture whose `dimension` is the SM4 dimension of the slot's rank (1D 2,
     *    2D 3, 3D 5, cube 6, 1D array 7, 2D array 8) and whose format's component type is the
     *    slot's texel type (float: a FLOAT or UNORM format; signed: SINT; unsigned: UINT);
     *    `sampler` is its sampler state.
     *  - Image*: a texture of that dimension whose format is exactly the slot's texel format
     *    (float/float2/float4, int.., uint.., u8norm4 have an sb_rt_format; other texel formats
     *    are SB_ERROR_RUN_UNSUPPORTED); its texels are written back after the draw.
     *  - ROBuffer / RWBuffer: `size` bytes of `data` (RWBuffer: written back).
     *  - ROTexels / RWTexels: `width` elements of `format` (ROTexels: the slot's component type;
     *    RWTexels: exactly its texel format); RWTexels are written back.
     */
    struct sb_rt_resource *resource;
};

/** One draw of a VBC's vertex and fragment stages (sb_rt_vbc_draw). */
struct sb_rt_vbc_draw {
    const struct sb_vbc *vbc;        /**< the parsed file (sb_vbc_parse); not retained */
    /** VkPrimitiveTopology value: POINT_LIST (0) .. TRIANGLE_FAN (5); no adjacency, no patches. */
    uint32_t topology;
    uint32_t vertex_count;           /**< vertices drawn (one instance, first vertex 0); > 0 */
    uint32_t stream_count;
    /**
     * One stream per attribute location the VBC's vertex inputs consume
     * (sb_vbc::vertex_location_mask): an input at location L consuming n locations (a
     * matrix's columns, an array's elements) takes the streams at L .. L + n - 1. A stream's
     * format must have the input's component type (float / uint / int: the R32, R32G32 or
     * R32G32B32A32 formats of that type) and at least its vector length (dims[0]) of
     * components: a float3 input takes an R32G32B32A32_FLOAT stream whose w is ignored.
     */
    const struct sb_rt_vertex_stream *streams;
    uint32_t width, height;          /**< framebuffer (viewport 0,0,width,height, depth 0..1) */
    uint32_t target_count;           /**< must equal the VBC's fragment output count */
    /**
     * targets[i] receives fragment_outputs[i]: its location must be that output's location,
     * its format any sb_rt_format of the output's component type (Signed: SINT, Unsigned:
     * UINT, Float: FLOAT / UNORM) that the device can render to. Loaded before the
     * draw, written back after it (as for sb_rt_draw_points).
     */
    struct sb_rt_color_target *targets;
    /** The uniform struct's bytes (set 1, scalar layout): exactly sb_vbc::uniform.size bytes
     *  when the VBC has a uniform, else NULL / 0. */
    const void *uniform;
    size_t uniform_size;
    uint32_t binding_count;
    /** One per slot the VBC's stages use (a binding record with a non-zero stage mask); slots
     *  declared with stage mask 0 may be left out (their push-constant index is 0). */
    const struct sb_rt_vbc_binding *bindings;
};

/**
 * Draws a VBC natively: its SPIR-V modules straight from the file, with the descriptor
 * sets, pipeline layout and push constants the Vega engine builds for it (../shared/docs/vbc.md §6,
 * §7), so a VBC file runs exactly as its shaders expect.
 *
 * Layout (engine model):
 *  - set 0: the five global tables as bindings 0..4 (COMBINED_IMAGE_SAMPLER, STORAGE_IMAGE,
 *    STORAGE_BUFFER, UNIFORM_TEXEL_BUFFER, STORAGE_TEXEL_BUFFER), each an array of the
 *    header's table size, visible to the vertex and fragment stages. The layout and its
 *    pool take UPDATE_AFTER_BIND_POOL (as in the engine; the tables then count against the
 *    update-after-bind limits) when the device has the update-after-bind feature of all
 *    five descriptor types; otherwise the tables must fit the core per-stage limits, and
 *    on lavapipe 22.3 (32 samplers per stage, no descriptor indexing) the engine's default
 *    tables (8192 samplers) are SB_ERROR_RUN_UNSUPPORTED: only files written with smaller
 *    tables (vslc -T) run there. The per-binding flags PARTIALLY_BOUND and
 *    UPDATE_UNUSED_WHILE_PENDING are set only where the device has
 *    descriptorBindingPartiallyBound / descriptorBindingUpdateUnusedWhilePending.
 *    Every element of every table is written (a default 1-texel / 16-byte resource of
 *    zeros, shaped like the table's first binding record, or 2D float4 when the VBC
 *    declares none), so the set is valid without PARTIALLY_BOUND and an element nobody
 *    bound reads zeros; the k-th bound resource of a table (in binding-record order) is
 *    written at element size - 1 - k (from the top, so element 0 stays the default).
 *  - set 1 (when the VBC has a uniform): binding 0 UNIFORM_BUFFER_DYNAMIC, all graphics
 *    stages, a 1024-byte range (the engine's) over a buffer holding draw->uniform, bound
 *    with dynamic offset 0.
 *  - push constants (when the VBC declares bindings): sb_vbc::push_constant_size bytes for
 *    the VBC's stages, the u16 table index of slot s in word s / 2 (even slots low half).
 *  - subpass inputs (set 2): not supported (SB_ERROR_RUN_UNSUPPORTED).
 * Pipeline: the VBC's vertex and fragment modules (entry "main"), one vertex binding per
 * stream (per-vertex rate), the given topology (point lists get the PointSize = 1.0 copy
 * of the vertex module sb_rt_draw_points uses when the module declares no PointSize; one
 * that declares it, as glslang's gl_PerVertex block always does, must write it itself or
 * its point size is undefined; point lists are untested), no culling, fill, one sample, no blending,
 * colour write mask RGBA, no depth; colour attachments in location order.
 *
 * Errors: SB_ERROR_NO_DEVICE; SB_ERROR_INVALID_ARGUMENT (NULL pointers, zero sizes, a
 * topology out of range, duplicate stream locations or slots, NULL resource or stream
 * data); SB_ERROR_RUN_BINDING (the draw does not match the VBC: a used slot without a
 * binding or a binding for an undeclared slot, a resource of the wrong shape / format, a
 * missing or extra stream, a stream or target of the wrong component type, a target count
 * or location that differs from the fragment outputs, a uniform of the wrong size);
 * SB_ERROR_RUN_UNSUPPORTED (stages other than vertex + fragment, subpass inputs, texel
 * formats without an sb_rt_format, a SPIR-V capability whose feature the device lacks,
 * tables larger than the device's descriptor limits, formats the device cannot use that
 * way); SB_ERROR_VULKAN. timing may be NULL; its phases are as for sb_rt_draw_points.
 */
SB_API enum sb_result sb_rt_vbc_draw(struct sb_rt_context *context, const struct sb_rt_vbc_draw *draw,
                              struct sb_rt_timing *timing, struct sb_error *error);

#ifdef __cplusplus
}
#endif

#endif
