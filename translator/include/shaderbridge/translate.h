/* SPDX-License-Identifier: MIT */
/*
 * Translation to SPIR-V: one entry point from shader bytes (a DXBC container
 * with SM4.0-5.1 code, or a PICA200 SHBIN) through the IR to a SPIR-V module for a
 * chosen Vulkan target environment, with the resource bindings that were used.
 *
 * Bindings (the documented default, translator/IR.md §Bindings):
 *   set     = register space (0 before SM5.1)
 *   binding = cb#  0 +  n   (n < 16)
 *             s#  16 +  n   (n < 16)
 *             t#  32 +  n   (n < 128)
 *             u# 160 +  n   (n < 64); its append/consume counter at 224 + n
 *   Ranges or registers outside these windows (SM5.1) take bindings from 288
 *   upwards in declaration order. A caller may override any register with
 *   sb_translate_options::binding_overrides (e.g. to move register spaces the
 *   device cannot bind as sets onto lower sets: one override per reported
 *   binding, same binding, new set).
 */
#ifndef SHADERBRIDGE_TRANSLATE_H
#define SHADERBRIDGE_TRANSLATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "shaderbridge/types.h"
#include "shaderbridge/result.h"

#ifdef __cplusplus
extern "C" {
#endif

struct sb_dxbc;

enum sb_target_env {
    SB_TARGET_VULKAN_1_0 = 0, SB_TARGET_VULKAN_1_1 = 1, /**< the default */
    SB_TARGET_VULKAN_1_2 = 2, SB_TARGET_VULKAN_1_3 = 3,
    SB_TARGET_ENV_MAX_ENUM = 0x7fffffff
};

/** "vulkan1.1" -> SB_TARGET_VULKAN_1_1; false for other names. */
SB_API bool sb_target_env_parse(const char *name, enum sb_target_env *out);
/** "vulkan1.0" ... "vulkan1.3"; NULL for unknown values. Static. */
SB_API const char *sb_target_env_name(enum sb_target_env env);

/**
 * What a translation produces besides the SPIR-V module (sb_translate_options::target).
 * The text targets are written by SPIRV-Cross from the SPIR-V module, which is still
 * reported in sb_translation::words.
 */
enum sb_translate_target {
    SB_TRANSLATE_TARGET_SPIRV = 0, /**< the default: the SPIR-V module alone */
    /** GLSL with Vulkan semantics (GL_KHR_vulkan_glsl): descriptor sets, separate textures
     *  and samplers kept, so `glslangValidator -V` gives back a module with the same
     *  bindings. target_version: the #version, 450 by default (330, 400-460). */
    SB_TRANSLATE_TARGET_GLSL = 1,
    /** OpenGL ES GLSL: textures and samplers combined (one sampler2D per pair the code
     *  samples with, named TEXTURE_SAMPLER), descriptor sets dropped (ES has none).
     *  target_version: 310 by default (300, 310 or 320). */
    SB_TRANSLATE_TARGET_ESSL = 2,
    /** Metal Shading Language. target_version: major * 10000 + minor * 100 + patch,
     *  20100 (2.1) by default (1.0 to 3.1). The entry point is SPIRV-Cross's `main0`. */
    SB_TRANSLATE_TARGET_MSL = 3,
    /** HLSL, each resource at the D3D register it was translated from (SM5.1: and space).
     *  target_version: the shader model times 10, 50 by default (30, 40, 41, 50, 51,
     *  60-67). */
    SB_TRANSLATE_TARGET_HLSL = 4,
    SB_TRANSLATE_TARGET_MAX_ENUM = 0x7fffffff
};

/** "spirv", "glsl", "essl", "msl", "hlsl" -> the enum; false for other names. */
SB_API bool sb_translate_target_parse(const char *name, enum sb_translate_target *out);
/** The name sb_translate_target_parse takes; NULL for unknown values. Static. */
SB_API const char *sb_translate_target_name(enum sb_translate_target target);

/** A caller-chosen binding for one register (or SM5.1 range) of one class. */
struct sb_binding_override {
    enum sb_ir_resource_class resource_class;
    uint32_t space;
    uint32_t register_index;  /**< the register (SM5.1: the range's lower bound) */
    uint32_t set, binding;
    uint32_t counter_binding; /**< UAVs with a counter; ignored otherwise */
};

/**
 * The Vulkan features the translation relies on, as the device reports them
 * (VkPhysicalDeviceFeatures). `described` false (a zeroed profile) means "assume
 * every feature": the other members are then ignored. With `described` true, a
 * false member selects the fallback documented beside it (translator/README.md
 * "Device fallbacks"); a translation that would need a missing feature and has no
 * fallback for it fails with SB_ERROR_TRANSLATE_UNSUPPORTED naming the feature.
 * Filled by sb_rt_context_device_profile (runtime.h), the layer (from the device it
 * creates modules for) and `shaderbridge translate --device-profile`.
 */
struct sb_device_profile {
    bool described;                          /**< false: assume everything (the default) */
    /** shaderStorageImageReadWithoutFormat. Without it a typed u# that ld_uav_typed reads
     *  is declared with its view's format from sb_translate_options::storage_formats;
     *  a read u# without an entry fails translation, naming the register. */
    bool storage_image_read_without_format;
    /** The *ArrayNonUniformIndexing features (Vulkan 1.2 / descriptorIndexing), one per
     *  descriptor type. Without the one a non-uniformly indexed (NonUniformResourceIndex)
     *  t#/s#/u# range needs, the access runs in a loop over the range's descriptors that
     *  hands it a uniform index (a sized range is needed: an unbounded one must be given
     *  unbounded_descriptor_count). cb# ranges keep needing their feature. */
    bool sampled_image_array_non_uniform_indexing;       /**< t# textures and s# */
    bool storage_image_array_non_uniform_indexing;       /**< typed u# textures */
    bool uniform_texel_buffer_array_non_uniform_indexing; /**< typed t# buffers */
    bool storage_texel_buffer_array_non_uniform_indexing; /**< typed u# buffers */
    bool storage_buffer_array_non_uniform_indexing;      /**< raw / structured t# and u# */
    /** maxBoundDescriptorSets (0: no limit). When the register spaces (or the overrides) put
     *  resources on a set at or past it, the sets in use move in order onto 0, 1, ...; with
     *  more distinct sets than this, every resource goes to set 0, bindings numbered 0, 1, ...
     *  in declaration order (a UAV's counter right after it). The report says where. */
    uint32_t max_bound_descriptor_sets;
    /** maxPerStageDescriptorStorageBuffers (0: no limit). When the raw/structured t#/u# of the
     *  program and its UAV counters need more storage-buffer descriptors than this (a range
     *  counts its size; an unbounded range the fixed unbounded_descriptor_count, and nothing
     *  when it has none: a runtime array is bound under the device's update-after-bind
     *  limits, which the profile does not describe), whole registers or ranges become texel
     *  buffers of R32_UINT elements until the rest fits: first the t# (UNIFORM_TEXEL_BUFFER,
     *  OpImageFetch), then the u# (STORAGE_TEXEL_BUFFER, OpImageRead/Write, atomics through
     *  OpImageTexelPointer), each class from its highest register space and register down,
     *  skipping one that would pass the limit below that its new type counts against.
     *  Counters stay storage buffers. sb_translated_binding::descriptor_type and view_format
     *  say what each became; when nothing fits, SB_ERROR_TRANSLATE_UNSUPPORTED names the
     *  limits. The device must bind R32_UINT texel buffers (every Vulkan device does). */
    uint32_t max_per_stage_storage_buffers;
    /** maxPerStageDescriptorStorageImages (0: no limit): storage images and storage texel
     *  buffers; a u# made a texel buffer counts here. */
    uint32_t max_per_stage_storage_images;
    /** maxPerStageDescriptorSampledImages (0: no limit): sampled images and uniform texel
     *  buffers; a t# made a texel buffer counts here. */
    uint32_t max_per_stage_sampled_images;
    /** shaderResourceMinLod (VkPhysicalDeviceFeatures). Without it the `_cl` (LOD clamp)
     *  sample forms emit no MinLod operand: each computes the LOD it would sample at without
     *  the clamp (OpImageQueryLod, plus the instruction's bias, in pixel shaders; the
     *  gradients and the texture size for sample_d_cl) and, per lane, takes an explicit-LOD
     *  sample at the clamp where that LOD is below it, the unclamped sample elsewhere
     *  (translator/README.md "Device fallbacks" gives the approximation). Outside pixel
     *  shaders, where the translation fixes the LOD, the clamp raises it. */
    bool shader_resource_min_lod;
    /** VK_EXT_fragment_shader_interlock's fragmentShaderPixelInterlock. Without it a pixel
     *  shader with a rasterizer-ordered UAV (`dcl_uav_*_rov`) fails translation at the UAV's
     *  declaration, naming the feature, as with SB_TRANSLATE_NO_FRAGMENT_SHADER_INTERLOCK:
     *  there is no fallback that keeps D3D's ordering of overlapping pixels. */
    bool fragment_shader_pixel_interlock;
    /** VK_EXT_conservative_rasterization with fullyCoveredFragmentShaderInputVariable (the
     *  FullyCoveredEXT built-in of SPV_EXT_fragment_fully_covered). Without it a pixel shader
     *  that declares SV_InnerCoverage (`dcl_input vInnerCoverage`) fails translation at that
     *  declaration, naming the extension: no other Vulkan input says whether the pixel is
     *  fully covered. */
    bool fragment_fully_covered;
    /** multiview (Vulkan 1.1 / VK_KHR_multiview). Without it a program reading SV_ViewID
     *  (vViewID; translator/IR.md §System values) fails translation, naming the feature: the
     *  ViewIndex built-in needs the MultiView capability. */
    bool multiview;
    /** VK_KHR_fragment_shading_rate with primitiveFragmentShadingRate. Without it a program
     *  writing or reading SV_ShadingRate (PrimitiveShadingRateKHR / ShadingRateKHR) fails
     *  translation at the element, naming the feature. */
    bool fragment_shading_rate;
    /** VK_KHR_fragment_shader_barycentric with fragmentShaderBarycentric. Without it a pixel
     *  shader reading SV_Barycentrics fails translation at the element, naming the feature. */
    bool fragment_shader_barycentric;
};

/** The format of the view bound to one typed u# (see sb_translate_options::storage_formats). */
struct sb_storage_format {
    uint32_t space;           /**< register space (0 before SM5.1) */
    uint32_t register_index;  /**< u# (SM5.1: the range's lower bound; the format covers the range) */
    uint32_t vk_format;       /**< VkFormat value of the view */
};

/* Option flags. */
/**
 * -g: OpName for registers, functions, IO variables and constant buffers (RDEF
 * variable names on the members of cbuffers that are not dynamically indexed);
 * OpSource/OpLine to DXBC byte offsets: every IR instruction's code is preceded
 * by OpLine whose file is an OpString naming the input, whose line is the byte
 * offset of the source instruction in the input file, and whose column is 0.
 */
#define SB_TRANSLATE_DEBUG_INFO 0x1u
#define SB_TRANSLATE_OPTIMIZE 0x2u   /**< -O: SPIRV-Tools performance passes */
#define SB_TRANSLATE_VALIDATE 0x4u   /**< run the SPIR-V validator; failure = SB_ERROR_SPIRV_INVALID */
/**
 * The target lacks fragment shader interlock (SPV_EXT_fragment_shader_interlock; Vulkan:
 * VK_EXT_fragment_shader_interlock's fragmentShaderPixelInterlock). By default (flag clear,
 * like every device feature the options do not deny) a pixel shader with a
 * rasterizer-ordered UAV (`dcl_uav_*_rov`) runs its body inside
 * OpBeginInvocationInterlockEXT / OpEndInvocationInterlockEXT with PixelInterlockOrderedEXT
 * and declares FragmentShaderPixelInterlockEXT, which gives D3D's ordering of overlapping
 * pixels' accesses. With this flag such a shader is refused (SB_ERROR_TRANSLATE_UNSUPPORTED
 * at the UAV's declaration, naming the feature) rather than translated without the
 * ordering. Other stages have no rasterizer order: their UAVs' flag changes nothing.
 * Equivalent to a described sb_device_profile whose fragment_shader_pixel_interlock is
 * false (same refusal, same message); either one suffices.
 */
#define SB_TRANSLATE_NO_FRAGMENT_SHADER_INTERLOCK 0x8u

struct sb_translate_options {
    enum sb_target_env target_env;
    uint32_t flags;                   /**< SB_TRANSLATE_* */
    uint32_t binding_override_count;
    const struct sb_binding_override *binding_overrides;
    /**
     * 0 (the default): an unbounded SM5.1 range (`t0[]`, count 0xFFFFFFFF) becomes a
     * runtime descriptor array, which needs the RuntimeDescriptorArray capability
     * (Vulkan: descriptorIndexing's runtimeDescriptorArray feature).
     * N > 0: every unbounded range becomes a fixed array of N descriptors instead
     * (OpTypeArray, no RuntimeDescriptorArray), for devices without that feature;
     * sb_translation::bindings then reports count N for it, and N = 1 gives a single
     * descriptor like a non-array register. Pick N within the device's per-stage
     * descriptor limits. A literal index >= N into such a range fails translation
     * (SB_ERROR_TRANSLATE_INVALID); a dynamic index >= N is out of bounds, which Vulkan
     * leaves undefined, so N must cover every descriptor the application indexes.
     */
    uint32_t unbounded_descriptor_count;
    /**
     * The device the module is for (struct sb_device_profile). Zeroed (the default):
     * every feature assumed, today's modules unchanged byte for byte.
     */
    struct sb_device_profile device;
    /**
     * The view format bound to each typed u# (storage image or storage texel buffer),
     * for devices without shaderStorageImageReadWithoutFormat: a typed UAV that
     * ld_uav_typed reads is then declared with this format (which the view must
     * have). May be NULL when storage_format_count is 0; borrowed for the call.
     */
    uint32_t storage_format_count;
    const struct sb_storage_format *storage_formats;
    /** SB_TRANSLATE_TARGET_SPIRV (0, the default) or a text target: sb_translation::text
     *  then holds its source and sb_translation::target_bindings what became of each
     *  binding and stage variable. */
    enum sb_translate_target target;
    /** The text target's language version (see enum sb_translate_target); 0 = its default. */
    uint32_t target_version;
};

/** What one Vulkan binding holds, as reported after translation. */
struct sb_translated_binding {
    enum sb_ir_resource_class resource_class;
    uint32_t space;
    uint32_t lower_bound;     /**< first register */
    uint32_t count;           /**< registers (descriptor array size); 0xFFFFFFFF unbounded */
    uint32_t set, binding;
    bool has_counter;
    /** Append/consume counter of a UAV (has_counter): a STORAGE_BUFFER binding in `set` of
     *  `count` descriptors like the UAV's own, one buffer holding a uint counter per UAV. */
    uint32_t counter_binding;
    /** VkDescriptorType value the pipeline layout must use for it. */
    uint32_t descriptor_type;
    /** VkFormat the binding's VkBufferView must have when the translation chose a texel
     *  buffer for a raw/structured register (sb_device_profile::max_per_stage_storage_buffers):
     *  VK_FORMAT_R32_UINT (98), one element per DWORD of the buffer; 0 otherwise (a typed
     *  buffer's view has its resource's own format). */
    uint32_t view_format;
    const char *name;         /**< RDEF name or NULL; owned by the translation */
};

/**
 * One stage-interface variable of the translated module (Input or Output
 * storage class, non-built-in), so a caller can build a matching partner
 * stage or vertex-input state.
 */
struct sb_translated_interface {
    uint32_t location;
    uint32_t component;       /**< first component (Component decoration; 0 when absent) */
    uint32_t component_count; /**< 1-4 */
    enum sb_ir_type component_type; /**< FLOAT, INT or UINT */
    uint32_t array_size;      /**< outer per-vertex array (GS/HS/DS inputs, HS outputs); 0 = none */
    bool patch;               /**< Patch decoration (HS outputs / DS inputs) */
    enum sb_ir_interpolation interpolation; /**< PS inputs */
    const char *semantic;     /**< semantic name or NULL; owned by the translation */
    uint32_t semantic_index;
};

/**
 * SM5.0 class linkage (interfaces, fcall, this[]). Every interface slot s
 * (interface fp#n declared with array length len covers slots n .. n+len-1)
 * is a class instance given as SB_CLASS_LINKAGE_FIELDS specialisation
 * constants (OpSpecConstant uint, default 0) with
 *   SpecId = SB_SPEC_ID_CLASS_LINKAGE + SB_CLASS_LINKAGE_FIELDS * s + field:
 *   field 0: the function table, as an index into the interface's table list
 *            (dcl_interface order; out of range acts as 0);
 *   fields 1-4: the instance's this-data x, y, z, w (fxc code reads x = cb#
 *            register, y = vector offset in it, z = t# register, w = s# register).
 * Defaults: first table, zero data. Bind instances with VkSpecializationInfo.
 */
#define SB_SPEC_ID_CLASS_LINKAGE 4096u
/** Specialisation constants per interface slot (see SB_SPEC_ID_CLASS_LINKAGE). */
#define SB_CLASS_LINKAGE_FIELDS 5u

/**
 * SM 6.6 descriptor heaps (DXIL ResourceDescriptorHeap[i] / SamplerDescriptorHeap[i]).
 * Each distinct view of a heap the program uses (a kind: raw buffer, Texture2D<float4>,
 * comparison sampler, ...) is declared as an unbounded range from register 0 of the
 * heap's register space below, so heap element i is register i of that space: the
 * runtime and the interpreter bind the caller's resource of that class, space and
 * register (sb_rt_resource::space / register_index). The binding step puts both heap
 * spaces in one descriptor set, the one after the highest register space the
 * program's other resources use (0 when there are none), each view at the next free
 * binding from 288 like other ranges; sb_translation::bindings reports them with these
 * spaces, and binding overrides move them as any range.
 */
#define SB_DESCRIPTOR_HEAP_SPACE 0xFFFFFFF0u
/** Register space of SamplerDescriptorHeap views (see SB_DESCRIPTOR_HEAP_SPACE). */
#define SB_SAMPLER_HEAP_SPACE 0xFFFFFFF1u

/**
 * SpecId of the render target's sample count (OpSpecConstant uint, default 1)
 * that sampleinfo / samplepos read for the `rasterizer` operand: SPIR-V has no
 * query for it, so a pipeline with rasterizationSamples > 1 sets it through
 * VkSpecializationInfo.
 */
#define SB_SPEC_ID_SAMPLE_COUNT 4000u

/**
 * GLSL and ESSL text (SB_TRANSLATE_TARGET_GLSL / _ESSL): glslang accepts constant_id up
 * to 2047, so every SpecId above (SB_SPEC_ID_SAMPLE_COUNT, SB_SPEC_ID_CLASS_LINKAGE + ...)
 * appears there as SpecId - SB_TARGET_GLSL_SPEC_ID_SHIFT (928, 1024 + ...). The SPIR-V
 * module and the other targets keep the SpecIds above.
 */
#define SB_TARGET_GLSL_SPEC_ID_SHIFT 3072u

/** What a SPIR-V binding or stage variable is in a text target (sb_target_binding::kind). */
enum sb_target_binding_kind {
    SB_TARGET_BINDING_UNIFORM_BUFFER = 0,  /**< a constant buffer (cb#) */
    SB_TARGET_BINDING_STORAGE_BUFFER = 1,  /**< a raw or structured buffer (t#, u#, UAV counters) */
    SB_TARGET_BINDING_SAMPLED_IMAGE = 2,   /**< a texture or texel buffer sampled or loaded (t#) */
    SB_TARGET_BINDING_STORAGE_IMAGE = 3,   /**< a typed UAV (u#) */
    SB_TARGET_BINDING_SAMPLER = 4,         /**< a sampler (s#) */
    SB_TARGET_BINDING_COMBINED_IMAGE_SAMPLER = 5, /**< ESSL: a texture and a sampler combined */
    SB_TARGET_BINDING_STAGE_INPUT = 6,     /**< an Input variable (not a built-in) */
    SB_TARGET_BINDING_STAGE_OUTPUT = 7,    /**< an Output variable (not a built-in) */
    SB_TARGET_BINDING_KIND_MAX_ENUM = 0x7fffffff
};

/**
 * One binding or stage variable of the SPIR-V module as the text target declares it,
 * read back from SPIRV-Cross after it wrote the text (its reflection).
 */
struct sb_target_binding {
    enum sb_target_binding_kind kind;
    /** The SPIR-V descriptor it came from (as in sb_translated_binding; a combined
     *  image-sampler: the texture's); 0 for stage variables. */
    uint32_t set, binding;
    /** The SPIR-V Location of a stage variable; 0 for resources. */
    uint32_t location;
    const char *name;  /**< the identifier the text declares; owned by the translation */
    /**
     * How the text binds it, as written there: GLSL "set = 0, binding = 32" and
     * "location = 1"; ESSL "binding = 32" and "location = 1"; MSL "[[buffer(0)]]",
     * "[[texture(1)]]", "[[sampler(0)]]", "[[attribute(0)]]" (vertex inputs),
     * "[[user(locn1)]]", "[[color(0)]]" (pixel outputs); HLSL "register(t3)" (SM5.1:
     * "register(t3, space1)") and "TEXCOORD1" (the semantic SPIRV-Cross gives Location 1;
     * pixel outputs "SV_Target0"). Owned by the translation.
     */
    const char *slot;
    /** The number in `slot`: binding, location, MSL index, HLSL register or semantic index. */
    uint32_t slot_index;
};

/**
 * What made a translation declare one SPIR-V capability (sb_translation::capability_origins):
 * the first declaration or instruction of the input that needed it.
 */
struct sb_capability_origin {
    uint32_t capability;   /**< the SpvCapability value the module declares */
    /** Byte offset in the translated input of that declaration or instruction (a DXBC
     *  offset counts from the container's start, as in sb_error). */
    uint64_t offset;
};

/** The result of a translation. Every array and string it points to belongs to it and goes
 *  with sb_translation_destroy() (never free() a member). */
struct sb_translation {
    enum sb_ir_stage stage;
    const uint32_t *words;    /**< the SPIR-V module */
    size_t word_count;
    const char *entry_point;  /**< "main" */
    uint32_t binding_count;
    const struct sb_translated_binding *bindings;
    uint32_t input_count;     /**< Input variables that are not built-ins */
    const struct sb_translated_interface *inputs;
    uint32_t output_count;    /**< Output variables that are not built-ins */
    const struct sb_translated_interface *outputs;
    /** Built-ins the module reads / writes, as SpvBuiltIn bit numbers would not fit:
     *  lists of SpvBuiltIn values. */
    uint32_t builtin_input_count;
    const uint32_t *builtin_inputs;
    uint32_t builtin_output_count;
    const uint32_t *builtin_outputs;
    /** Hull/domain/geometry facts a pipeline needs (patch control points etc.). */
    uint32_t patch_control_points; /**< HS input / DS input control points; 0 otherwise */
    uint32_t tess_domain;          /**< IR tess_domain for HS/DS */
    /** SM5.0 class linkage: interface slots whose class instances are specialisation
     *  constants (SpecIds SB_SPEC_ID_CLASS_LINKAGE ... + SB_CLASS_LINKAGE_FIELDS *
     *  interface_slot_count - 1); 0 without interfaces. */
    uint32_t interface_slot_count;
    /** Text targets (sb_translate_options::target): the source, NUL-terminated, of
     *  text_size bytes without the NUL; NULL for SB_TRANSLATE_TARGET_SPIRV. */
    const char *text;
    size_t text_size;
    /** Text targets: every resource, then every stage input and output of the module, as
     *  the text declares it; 0 and NULL for SPIR-V. */
    uint32_t target_binding_count;
    const struct sb_target_binding *target_bindings;
    /** For each capability the module declares because of one declaration or instruction of
     *  the input (SV_InnerCoverage's FragmentFullyCoveredEXT at its `dcl_input`, a
     *  rasterizer-ordered UAV's interlock at its `dcl_uav_*_rov`, MinLod at the first `_cl`
     *  sample, ...), where that is, in the order the capabilities were first needed; so a
     *  runtime that refuses a capability can name the offset. Capabilities no single source
     *  element asks for (Shader, a stage's own, ...) have no entry. Owned by the
     *  translation; `-O` may drop a capability from the words and keep its entry. */
    uint32_t capability_origin_count;
    const struct sb_capability_origin *capability_origins;
    /** Compute: the wave (subgroup) sizes the program must run with, powers of two (DXIL
     *  [WaveSize(N)]: min = max = N; a range with preferred 0 for none); all 0: any. A runtime
     *  creates the pipeline with a required subgroup size within them (sb_rt_dispatch) or
     *  refuses to run it. */
    uint32_t wave_size_min, wave_size_max, wave_size_preferred;
};

/**
 * Translates shader bytes (a DXBC container with SHDR/SHEX; a DXIL container of dxc,
 * lowered by the DXIL front end, which so far takes vertex, pixel, geometry, hull,
 * domain, compute, mesh and amplification shaders and refuses what it does not cover with
 * SB_ERROR_TRANSLATE_UNSUPPORTED naming it; or a SHBIN/DVLB file of PICA200 code: its
 * first DVLE, lowered with sb_ir_from_pica) to SPIR-V. Mesh and amplification shaders
 * become SPV_EXT_mesh_shader modules of SPIR-V 1.4 or later (1.4 for vulkan1.1, as with
 * VK_KHR_spirv_1_4; refused for vulkan1.0).
 * options may be NULL (vulkan1.1, default bindings, no flags).
 * Errors: the reader's and decoder's codes for bad bytes;
 * SB_ERROR_TRANSLATE_UNSUPPORTED / _INVALID with the offset of the source
 * instruction; SB_ERROR_SPIRV_INVALID (or _OPTIMIZE) when validation (optimisation)
 * was asked for and failed: offset 0, the SPIR-V word index in the message;
 * SB_ERROR_TARGET_CROSS when SPIRV-Cross cannot write the chosen text target (offset
 * 0, SPIRV-Cross's message); SB_ERROR_INVALID_ARGUMENT for an unknown target or a
 * version outside the target's range.
 */
SB_API enum sb_result sb_translate(const void *data, size_t size, const struct sb_translate_options *options,
                            struct sb_translation **out, struct sb_error *error);

/**
 * sb_translate for SHBIN bytes with a chosen entry point and PICA mode.
 * dvle_index: an index into the file's DVLE table (0 = the first, what
 * sb_translate uses). pica_flags: SB_IR_PICA_* (types.h) for the PICA front end, e.g.
 * SB_IR_PICA_FLOAT24 for the float24-exact mode; sb_translate uses 0 (fast mode).
 * Fails with SB_ERROR_INVALID_ARGUMENT when the file has no such DVLE, the flags
 * hold SB_IR_PICA_LOWERED or the bytes are not a SHBIN (no "DVLB" magic), else as
 * sb_translate.
 */
SB_API enum sb_result sb_translate_shbin(const void *data, size_t size, uint32_t dvle_index,
                                  uint32_t pica_flags, const struct sb_translate_options *options,
                                  struct sb_translation **out, struct sb_error *error);

/** Same, from an IR program the caller built or lowered (bindings are assigned on a copy). */
SB_API enum sb_result sb_translate_ir(const struct sb_ir_program *program,
                               const struct sb_translate_options *options,
                               struct sb_translation **out, struct sb_error *error);

/**
 * sb_translate_ir for a program lowered from `container` (may be NULL): its SFI0 flags
 * decide the declared format of loaded typed UAVs and its RDEF gives -g names, so the
 * result equals sb_translate of the container's bytes without parsing them again.
 */
SB_API enum sb_result sb_translate_ir_container(const struct sb_ir_program *program,
                                         const struct sb_dxbc *container,
                                         const struct sb_translate_options *options,
                                         struct sb_translation **out, struct sb_error *error);

/** Frees a translation; NULL is a no-op. */
SB_API void sb_translation_destroy(struct sb_translation *translation);

/**
 * Validates SPIR-V words for a target env with SPIRV-Tools. On failure
 * returns SB_ERROR_SPIRV_INVALID with the validator's message and the word
 * index * 4 as offset. A SPIR-V 1.4 module for SB_TARGET_VULKAN_1_1 (what
 * sb_translate writes for a mesh or amplification shader there) is validated as
 * Vulkan 1.1 with VK_KHR_spirv_1_4 (spirv-val --target-env vulkan1.1spv1.4).
 */
SB_API enum sb_result sb_spirv_validate(const uint32_t *words, size_t word_count, enum sb_target_env env,
                                 struct sb_error *error);

/** Disassembles SPIR-V words to spirv-dis text (malloc'd; free with free()).
 *  NULL when the words do not parse as SPIR-V, env is unknown or memory ran out. */
SB_API char *sb_spirv_disassemble(const uint32_t *words, size_t word_count, enum sb_target_env env);

/**
 * Runs SPIRV-Tools' performance passes (what `spirv-opt -O` runs) over a
 * module for a target env, keeping every resource binding even if unused.
 * The input is validated first; an invalid or unoptimisable module gives
 * SB_ERROR_SPIRV_OPTIMIZE with the optimiser's first message.
 * words, word_count: the module (not modified).
 * out_words: on success a malloc'd copy of the optimised module, which the
 *            caller frees with free(); NULL on failure.
 * out_count: its length in words (0 on failure).
 * error:     may be NULL; set on failure only.
 */
SB_API enum sb_result sb_spirv_optimize(const uint32_t *words, size_t word_count, enum sb_target_env env,
                                 uint32_t **out_words, size_t *out_count, struct sb_error *error);

#ifdef __cplusplus
}
#endif

#endif
