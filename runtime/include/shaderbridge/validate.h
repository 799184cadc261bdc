/* SPDX-License-Identifier: MIT */
/*
 * Running a shader file and checking the GPU against the CPU interpreter.
 *
 * sb_rt_program_load() reads shader bytes once into everything both paths
 * need: the IR (for the interpreter) and the SPIR-V translation with its
 * bindings (for Vulkan). sb_rt_inputs_create() makes a resource for every
 * register the program declares, filled from a seed: values follow the
 * declared or reflected types (RDEF constant-buffer and structure layouts,
 * typed-resource return types), so integers stay small and floats stay
 * finite; memory of unknown type gets small unsigned integers (raw buffers)
 * or floats. sb_validate() runs the program on the GPU and on the interpreter
 * from identical inputs and compares every UAV and counter.
 *
 * Comparison: integer data (typed UINT/SINT resources, integer fields of a
 * reflected structure) must be bit-identical; float data agrees when both are
 * NaN, when both are zero or denormal (D3D allows flushing), or when they are
 * within `float_ulps` units in the last place or an absolute 2^-20 of each
 * other (transcendentals and fused multiply-adds differ between devices). A
 * float the interpreter computed as NaN or infinite is not compared but
 * counted (sb_validate_report::unconstrained).
 * Memory of unknown type is compared as float only when both words are
 * normal floats, else exactly. PICA200 (SHBIN) programs are compared bit for bit,
 * every word and in both modes: both sides run the same exactly rounded lowering
 * (translator/IR.md "PICA200 programs"), so float_ulps does not apply to them.
 */
#ifndef SHADERBRIDGE_VALIDATE_H
#define SHADERBRIDGE_VALIDATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "shaderbridge/interp.h"
#include "shaderbridge/types.h"
#include "shaderbridge/resources.h"
#include "shaderbridge/result.h"
#include "shaderbridge/runtime.h"
#include "shaderbridge/translate.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Descriptors given to an unbounded SM5.1 range (`t0[]`) when a program is run. */
#define SB_RT_UNBOUNDED_DESCRIPTORS 8u

/** A loaded shader: its IR and its translation (both owned). */
struct sb_rt_program {
    enum sb_ir_stage stage;
    const struct sb_ir_program *ir;
    const struct sb_translation *translation;
    const struct sb_dxbc *container;       /**< the parsed container (reflection), or NULL */
    void *internal;                        /**< owned state; do not touch */
};

/**
 * Loads DXBC bytes, or SHBIN bytes ("DVLB" magic; PICA200), copied; target env and flags
 * from `options` (NULL = defaults). A SHBIN file loads as sb_rt_program_load_shbin(data,
 * size, 0, SB_IR_PICA_FLOAT24, ...): its first DVLE in the float24-exact mode.
 * Mesh and amplification programs are refused with SB_ERROR_RUN_UNSUPPORTED and a message
 * that starts "not run: " and names the stage: neither the interpreter nor the runtime has
 * those stages (translate them with sb_translate).
 */
SB_API enum sb_result sb_rt_program_load(const void *data, size_t size,
                                  const struct sb_translate_options *options,
                                  struct sb_rt_program **out, struct sb_error *error);

/**
 * Loads one entry point of a SHBIN file (PICA200 vertex or geometry shader).
 * dvle_index: the DVLE (0 = the first); pica_flags: SB_IR_PICA_* of types.h for
 * sb_ir_from_pica — SB_IR_PICA_FLOAT24 for the float24-exact mode, 0 for the fast float32
 * mode, plus the [UNK] choices. `container` of the result is NULL; the parsed file stays
 * with the program (its DVLE constants go into the uniform buffer sb_rt_inputs_create
 * makes; runtime/README.md "PICA200"). Errors: the SHBIN parser's and sb_ir_from_pica's;
 * SB_ERROR_INVALID_ARGUMENT for a missing DVLE or SB_IR_PICA_LOWERED in the flags. A
 * geometry-shader DVLE loads as its compute expansion: `stage` GEOMETRY, `ir` a one-thread
 * compute program (runtime/README.md "PICA200", geometry shaders).
 */
SB_API enum sb_result sb_rt_program_load_shbin(const void *data, size_t size, uint32_t dvle_index,
                                        uint32_t pica_flags, const struct sb_translate_options *options,
                                        struct sb_rt_program **out, struct sb_error *error);
SB_API void sb_rt_program_destroy(struct sb_rt_program *program);

/** Kinds of 32-bit words, for generation and comparison. */
enum sb_rt_word_kind {
    SB_RT_WORD_UNKNOWN = 0, SB_RT_WORD_FLOAT = 1, SB_RT_WORD_INT = 2, SB_RT_WORD_UINT = 3,
    SB_RT_WORD_BOOL = 4, SB_RT_WORD_DOUBLE_LOW = 5, SB_RT_WORD_DOUBLE_HIGH = 6,
    SB_RT_WORD_KIND_MAX_ENUM = 0x7fffffff
};

/** A set of resources for one program, with the word kinds of each. */
struct sb_rt_inputs {
    uint32_t count;
    struct sb_rt_resource *resources;  /**< `count` resources, data owned by the set */
    /** Per resource: the kind of each 32-bit word of its data (resources[i].size / 4
     *  entries), or NULL when all words are of one kind (uniform_kind[i]). */
    uint8_t **word_kinds;
    uint8_t *uniform_kind;
};

/** Sizes and shapes of generated resources. */
struct sb_rt_input_options {
    uint64_t seed;
    uint32_t buffer_bytes;     /**< raw/structured/typed buffers; 0 = 65536 */
    uint32_t texture_size;     /**< width = height (cube faces too); 0 = 16 */
    uint32_t texture_layers;   /**< array layers (cube arrays: cubes x 6); 0 = 4 */
    uint32_t texture_depth;    /**< 3D depth; 0 = 8 */
    /** Descriptors given to every unbounded SM5.1 range (`t0[]`); 0 = SB_RT_UNBOUNDED_DESCRIPTORS.
     *  Past SB_RT_UNBOUNDED_DESCRIPTORS each of them is smaller (buffers and texture sides
     *  divided by count / SB_RT_UNBOUNDED_DESCRIPTORS, at least 256 bytes and 4 texels), so
     *  a range holds about what SB_RT_UNBOUNDED_DESCRIPTORS full-size descriptors would.
     *  sb_validate translates the program again when this differs from the count its
     *  translation was made for. */
    uint32_t unbounded_descriptors;
    uint32_t flags;            /**< SB_RT_INPUTS_* */
};

/**
 * sb_rt_input_options::flags: every seeded number small and positive (what a loop whose
 * trip count comes from data ends with): ints, uints and words of unknown type in [1, 4],
 * floats multiples of 1/256 in (0, 2] (texture data (0, 1]), doubles as floats; bools as
 * usual. Also the vertex streams and primitives the graphics harnesses seed. sb_validate
 * retries with it when the interpreter exhausts its instruction budget.
 */
#define SB_RT_INPUTS_SMALL 0x1u

/** Creates seeded inputs for every resource `program` declares. */
SB_API enum sb_result sb_rt_inputs_create(const struct sb_rt_program *program,
                                   const struct sb_rt_input_options *options,
                                   struct sb_rt_inputs **out, struct sb_error *error);
/** A deep copy (same data, separately owned). */
SB_API enum sb_result sb_rt_inputs_clone(const struct sb_rt_inputs *inputs, struct sb_rt_inputs **out,
                                  struct sb_error *error);
SB_API void sb_rt_inputs_destroy(struct sb_rt_inputs *inputs);

/**
 * Replaces the data (and, for shaped entries, the format and shape) of `inputs`' resources
 * with `provided`, by the rules of sb_validate_options::provided; `inputs` is unchanged
 * unless every entry fits. sb_validate() calls it with the options' entries; `run`'s
 * dispatches call it on the inputs they made. The entries are borrowed for the call.
 */
SB_API enum sb_result sb_rt_inputs_provide(struct sb_rt_inputs *inputs, const struct sb_rt_resource *provided,
                                           uint32_t count, struct sb_error *error);

/**
 * Resource classes of the stage outputs a report adds after the program's own
 * resources (graphics validation), compared like UAVs: OUTPUT register_index = o#
 * (vertex programs: one record of every output register per vertex; pixel programs:
 * one 2D image per render target), DEPTH = the depth buffer (one 16-byte record per
 * pixel, x compared), STENCIL = the stencil buffer of a pixel program writing
 * SV_StencilRef (one 16-byte record per pixel, x = the 8-bit stencil value, compared
 * exactly: the interpreter's reference reduced to its low 8 bits, 0 where the pixel
 * was discarded, as the attachment was cleared).
 */
#define SB_VALIDATE_CLASS_OUTPUT 4u
#define SB_VALIDATE_CLASS_DEPTH 5u
#define SB_VALIDATE_CLASS_STENCIL 7u
/**
 * Resource class of a geometry program's output records (added after its own resources):
 * one record of `width` 16-byte vectors per vertex slot, `height` (= gs_max_output_vertices
 * + 1) slots per invocation, invocation j = primitive * `depth` (the instance count) +
 * instance. Slot k: vector 0 = (stream + 1 of the k-th kept vertex, or 0 when there is
 * none; the streams cut since the previous kept vertex as bits, as
 * sb_interp_geometry_results::cut_before; 2 words not compared), vectors 1.. = o0, o1, ...
 * of the vertex. Mismatches in it have texel = primitive, instance, slot, word in the slot
 * (0..3 the header, 4 + 4 * r + c = o#r.c).
 */
#define SB_VALIDATE_CLASS_GEOMETRY 6u
/**
 * Resource class of a provided vertex stream (sb_validate_options::provided; never in a
 * report): register_index = the vN input register of a vertex program, data = size bytes.
 */
#define SB_VALIDATE_CLASS_VERTEX_INPUT 8u
/**
 * Resource class of a hull program's results (added after its own resources): one record
 * per patch of `height` (= output control points) x `width` (= o# registers a control point
 * has) 16-byte vectors, control point k's o#r at vector k * width + r, then `depth` (= patch
 * constant registers) vectors with the patch constants o0, o1, ... as the fork and join
 * phases left them (tess factors as written, before the tessellator's processing). Only
 * the lanes the output and patch-constant elements declare are compared; the others read 0
 * on both sides (D3D leaves them undefined). Mismatches have
 * texel = patch, control point (`height` for a patch constant), register, lane.
 */
#define SB_VALIDATE_CLASS_HULL 9u
/**
 * Resource class of a domain program's results (added after its own resources): one record
 * of `width` 16-byte vectors per invocation the device ran, in the order the device took
 * slots: vector 0 = (u, v, w of the domain location as floats, the patch as uint), vectors
 * 1.. = o0, o1, ... of the invocation. The interpreter ran the program at the same patch
 * and location, so vector 0 is equal by construction; o# lanes no output element declares
 * read 0 on both sides. Mismatches have texel = record, 0,
 * 0, word in the record (0..3 the header, 4 + 4 * r + c = o#r.c).
 */
#define SB_VALIDATE_CLASS_DOMAIN 10u

/** What a validation concluded (sb_validate_report::verdict). */
enum sb_validate_verdict {
    /** Every compared word identical under D3D's rules: integers exactly; floats equal,
     *  both NaN, or both zero/denormal (D3D lets a device flush float32 denormals). */
    SB_VALIDATE_AGREE = 0,
    /** Every differing word lies within the bound the interpreter carried for it (the
     *  precision Vulkan allows each operation, propagated), or is precision-sensitive. */
    SB_VALIDATE_AGREE_WITHIN_PRECISION = 1,
    /** Differing words the interpreter saw come from behaviour D3D leaves undefined
     *  (a race, order-dependent atomics, an uninitialised read); the rest within precision. */
    SB_VALIDATE_UNDEFINED = 2,
    /** Not run: the device lacks a feature the module needs, or the interpreter an
     *  operation (set by callers from SB_ERROR_RUN_UNSUPPORTED; sb_validate fails then). */
    SB_VALIDATE_NOT_RUN = 3,
    /** A difference nothing above explains. */
    SB_VALIDATE_DISAGREE = 4,
    SB_VALIDATE_VERDICT_MAX_ENUM = 0x7fffffff
};

/** "agree", "agree-within-precision", "undefined", "not-run", "disagree" ("?" otherwise). */
SB_API const char *sb_validate_verdict_name(enum sb_validate_verdict verdict);

/** One output word where the GPU and the interpreter disagree. */
struct sb_validate_mismatch {
    uint32_t resource;         /**< index into the inputs' resources */
    uint64_t byte_offset;      /**< in the resource's data; UINT64_MAX: the UAV counter */
    uint32_t texel[4];         /**< textures: x, y, z (or layer), mip; buffers: element, 0.. */
    enum sb_rt_word_kind kind; /**< used for the comparison */
    uint32_t gpu, cpu;         /**< the two words */
    /** How the word is explained: AGREE_WITHIN_PRECISION (|gpu - cpu| <= bound, or
     *  precision-sensitive: bound INFINITY), UNDEFINED, or DISAGREE (unexplained). */
    enum sb_validate_verdict explained;
    float bound;               /**< the interpreter's bound for the word (0: exact) */
    uint32_t origin;           /**< shader byte offset contributing most to it; UINT32_MAX none */
};

struct sb_validate_options {
    struct sb_rt_input_options inputs;
    uint32_t group_count[3];   /**< 0s = 1, 1, 1 */
    /** 0 (the default): floats compare under D3D's rules and the interpreter's propagated
     *  precision bounds decide (validate.h). N: an explicit override, floats within N ULPs or
     *  an absolute 2^-20 also agree (reported as sb_validate_report::ulps_override). */
    uint32_t float_ulps;
    uint32_t max_mismatches;   /**< kept in the report; 0 = 64 */
    struct sb_interp_options interp;
    /** Which sides run: 0 = both, compared; SB_VALIDATE_SIDE_GPU or SB_VALIDATE_SIDE_CPU alone
     *  runs that side only and compares nothing (words_compared 0; the other side's results
     *  stay the generated inputs, its stage outputs zero). With SB_VALIDATE_SIDE_CPU the
     *  context may be a CPU-only one (sb_rt_context_options::cpu_only). */
    uint32_t sides;
    /** Vertex programs: vertices drawn; geometry programs: input primitives (still halved
     *  while the capture records would pass 32 MiB); hull programs: patches; domain
     *  programs: patches per partitioning mode; 0 = the defaults below. */
    uint32_t draw_count;
    /** Pixel programs: the target's width and height in pixels (one point each);
     *  0 = 8 and 8 x group_count[0]. */
    uint32_t draw_width, draw_height;
    /** With sides = SB_VALIDATE_SIDE_CPU: run the interpreter with all its evidence
     *  (sb_interp_tracking with precision, origins and the undefined-behaviour detector) into
     *  report->tracking. sb_validate does that run itself, after the comparison, only when
     *  words differ: a tracked run is several times slower than a plain one. */
    bool origins;
    /**
     * A SPIR-V module the GPU side runs instead of the program's own translation
     * (sb_rt_program::translation), e.g. another compiler's output or a hand-edited module;
     * the interpreter still runs the program, so the report judges that module. NULL (the
     * default): the translation. Borrowed for the call; gpu_spirv_words 32-bit words in host
     * byte order. Compute, vertex and pixel programs (the generated partner stages stay
     * ours; SB_ERROR_RUN_UNSUPPORTED for geometry programs). The module must:
     *  - be valid SPIR-V for the Vulkan version its header's SPIR-V version implies (checked
     *    with SPIRV-Tools: SB_ERROR_SPIRV_INVALID with the validator's message);
     *  - have an entry point of the program's stage (GLCompute, Vertex, Fragment), named
     *    gpu_entry_point or the only one of that stage;
     *  - have the translation's stage interface (Input/Output locations, components, types:
     *    sb_translation::inputs / outputs) for vertex and pixel programs;
     *  - bind each register the program declares at the binding the translation reports
     *    (translate.h's default scheme: `shaderbridge reflect --json` prints it under
     *    "vulkan_bindings") with the same descriptor type, except where gpu_bindings moves
     *    it. Every resource variable (UniformConstant, Uniform, StorageBuffer) the module
     *    decorates with a DescriptorSet and Binding must sit at one of those bindings
     *    (SB_ERROR_RUN_BINDING naming the variable otherwise).
     * Header and instruction stream are read bounds-checked first: SB_ERROR_TRUNCATED (fewer
     * than 5 words, an instruction past the end), SB_ERROR_BAD_MAGIC, SB_ERROR_BAD_VERSION,
     * SB_ERROR_BAD_SIZE (a 0-word instruction), SB_ERROR_BAD_STRING (an unterminated entry
     * point name), SB_ERROR_INVALID_ARGUMENT (no or several entry points of the stage); the
     * offset is the byte offset in the module. The module is checked whatever `sides` says.
     */
    const uint32_t *gpu_spirv;
    size_t gpu_spirv_words;
    /** The entry point of gpu_spirv to run; NULL: the module's only one of the stage. */
    const char *gpu_entry_point;
    /**
     * Where gpu_spirv binds registers that it does not bind by the default scheme: one entry
     * per moved register (or SM5.1 range, by its lower bound), as for
     * sb_translate_options::binding_overrides, set/binding (and counter_binding for a UAV
     * with a counter) replacing the translation's; the descriptor type stays the
     * translation's. An entry for a register the program does not declare, two entries for
     * one register, or a result with two registers at one set/binding is
     * SB_ERROR_RUN_BINDING. Borrowed for the call; ignored without gpu_spirv.
     */
    uint32_t gpu_binding_count;
    const struct sb_binding_override *gpu_bindings;
    /**
     * The caller's own data for registers the program declares (`shaderbridge run --draw
     * --input cb0=FILE`): after the seeded inputs are made, each entry's bytes replace those
     * of the resource with its resource_class, space and register_index, on both sides, so
     * the run computes from them. An entry whose format is UNDEFINED gives bytes only (data
     * and size are read; the shape stays the declaration's). An entry with a format is a
     * shaped texture (`--input t0=FILE.dds`): its format, dimension (SM4 numbering), width,
     * height, depth, layers (cube faces counted: 6 per cube) and mip_levels replace the
     * seeded ones, and data holds exactly sb_rt_texture_bytes of that shape in its layout
     * (level-major: every layer of level 0, then of level 1, ...). It must fit the
     * declaration: the same dimension, or one element of it where the declaration is an array
     * (a Texture2D for a Texture2DArray, one cube for a TextureCubeArray); no multisampled
     * texture; a format read as the declared return type (float for unorm, snorm, float, BC
     * and depth formats; uint and sint formats as uint and int), and d32_float where the
     * texture is read with a comparison. Otherwise SB_ERROR_RUN_BINDING, or
     * SB_ERROR_BAD_SIZE for a wrong byte count or zero extent (offset = the entry's index).
     * Sizes of unshaped entries, checked against the declaration: a constant buffer takes at most
     * its declared size (the rest zeroed); a texture exactly sb_rt_texture_bytes of its
     * seeded shape; a buffer any size (rounded up to 4 bytes, zero-filled; a typed buffer's
     * width follows). Errors: SB_ERROR_RUN_BINDING for a register the program does not
     * declare or two entries for one register; SB_ERROR_BAD_SIZE for a size the
     * declaration does not take (offset = the entry's index).
     * A sampler entry (resource_class SAMPLER, no data, size 0) gives its `sampler` state to
     * both sides, except `compare`, which stays the declaration's (D3D applies the comparison
     * function to comparison samplers only); SB_ERROR_INVALID_ARGUMENT for an enum, LOD range
     * or max_anisotropy out of range, SB_ERROR_RUN_BINDING for linear or anisotropic filtering
     * or a non-zero border colour where the program reads an integer or depth texture (Vulkan
     * filters those only with nearest samplers), SB_ERROR_BAD_SIZE for bytes given.
     * A vertex stream (resource_class SB_VALIDATE_CLASS_VERTEX_INPUT, vertex programs only)
     * replaces the seeded attribute of input register vN on both sides: per vertex, in vertex
     * order, the components the module reads from vN (x, y, z, w as present), 4 bytes each in
     * the component's declared type (float, int or uint, little-endian), tightly packed; it
     * must hold exactly draw_count vertices (64 x group_count[0] by default): SB_ERROR_BAD_SIZE
     * otherwise, SB_ERROR_RUN_BINDING for a register the module does not read, two entries for
     * one register, or a program of another stage.
     * Borrowed for the call; PICA200 geometry programs (their compute expansion) take none
     * (SB_ERROR_RUN_UNSUPPORTED).
     */
    uint32_t provided_count;
    const struct sb_rt_resource *provided;
    /**
     * Pixel programs: the format of the render target o#N (N < 8); UNDEFINED (0, the
     * default): R32G32B32A32 of the output's type, which keeps every value the program
     * writes. Any other uncompressed colour format (no depth, no BC) is drawn into on the
     * device and written by the interpreter as D3D converts a render-target write
     * (sb_interp_texel_pack: clamping, rounding to nearest even, the sRGB curve, half and
     * 11/10-bit floats), the output resource then holding width x height texels of that
     * format (rounded up to 4 bytes), compared word by word exactly (32-bit float channels
     * as floats) and without the interpreter's precision evidence. A float output needs a
     * format read as float, a uint / int output a uint / sint format: SB_ERROR_RUN_BINDING
     * otherwise, or for a format that is not a colour format; SB_ERROR_RUN_UNSUPPORTED where
     * the device cannot render to it.
     */
    enum sb_rt_format target_formats[8];
    /**
     * Vertex and pixel programs: the seeded lane each lane of the input registers takes, so
     * that two programs placing one input element in different registers or lanes read the
     * same values (sb_validate_reference sets it). Entry 4 * N + c names the lane 4 * M + d
     * whose seeded values vN.c receives, in vN.c's own type; UINT32_MAX, or 4 * N + c at or
     * past input_seed_lane_count: its own. Clip and cull distances and the planes of a pixel
     * program drawn as triangles (sb_validate_pixel_draws_triangles) keep their own. Borrowed
     * for the call; NULL and 0 (the default): every lane its own.
     */
    const uint32_t *input_seed_lanes;
    uint32_t input_seed_lane_count;
};

/** sb_validate_options::sides */
#define SB_VALIDATE_SIDE_GPU 1u
#define SB_VALIDATE_SIDE_CPU 2u

/** The largest deviation among the words agreeing within a finite bound; when every differing
 *  word is precision-sensitive, the first of them (bound INFINITY, origin the instruction
 *  whose outcome the bounds straddle). */
struct sb_validate_worst {
    uint32_t resource;         /**< index into the inputs' resources */
    uint64_t byte_offset;
    uint32_t gpu, cpu;
    double deviation;          /**< |gpu - cpu| as floats */
    double bound;              /**< the interpreter's bound for the word */
    /** The instruction (byte offset in the shader) whose allowed error contributed most to
     *  the bound, and its operation's name ("" when none). */
    uint32_t origin;
    char origin_op[24];
};

/** The undefined behaviour a report names (the interpreter's events, as they were seen). */
#define SB_VALIDATE_UNDEFINED_KEPT SB_INTERP_UNDEFINED_KEPT

struct sb_validate_report {
    enum sb_validate_verdict verdict;
    /** One line for people: why the verdict (the first unexplained word, the race, the
     *  worst deviation and its instruction). */
    char reason[320];
    bool ulps_override;        /**< sb_validate_options::float_ulps was given */
    uint64_t words_compared;
    uint64_t mismatch_count;   /**< words that differ under D3D's rules (the first max_mismatches kept) */
    uint64_t within_precision; /**< of those, inside their bound */
    uint64_t precision_sensitive; /**< of those, with an infinite bound (precision-sensitive) */
    uint64_t undefined_words;  /**< of those, explained by undefined behaviour */
    uint64_t unexplained;      /**< of those, explained by nothing: the verdict is DISAGREE */
    bool has_worst;
    struct sb_validate_worst worst;
    uint64_t undefined_events; /**< undefined accesses the interpreter saw (kept below) */
    uint32_t undefined_kept;
    struct sb_interp_undefined_event undefined[SB_VALIDATE_UNDEFINED_KEPT];
    /** Float words the interpreter computed as NaN or an infinity where the device gave
     *  something else: not mismatches. Such values come from operations whose results
     *  Vulkan leaves undefined outside their domain (GLSL.std.450 Log2 of x <= 0, Pow,
     *  InverseSqrt of 0, ...) and NaNs, which Vulkan does not require a device to produce
     *  without float controls; D3D defines them, so they are a D3D-vs-Vulkan difference,
     *  counted here. */
    uint64_t unconstrained;
    uint32_t kept;
    struct sb_validate_mismatch *mismatches;
    struct sb_rt_inputs *gpu;  /**< the GPU's results (owned by the report) */
    struct sb_rt_inputs *cpu;  /**< the interpreter's results (owned by the report) */
    /** The interpreter's evidence: bounds, origins and undefined words per resource of the
     *  program, and for vertex and pixel programs the undefined words of the output resources
     *  after them (owned by the report; zero where the run was not tracked). */
    struct sb_interp_tracking tracking;
    struct sb_rt_timing gpu_timing;
    uint64_t cpu_ns;
    /** The interpreter time of the evidence run made when words differ (0 when none ran),
     *  measured as cpu_ns is: the price of the verdict's explanation (a tracked run costs
     *  several plain ones). */
    uint64_t evidence_ns;
    struct sb_interp_stats cpu_stats;
    /** Runs retried with changed inputs before this one ran (0: the seeded inputs ran as
     *  they were; see sb_validate). */
    uint32_t input_retries;
    /** SB_VALIDATE_INPUTS_* bits: what the retries changed. */
    uint32_t input_changes;
    /** Descriptors each unbounded SM5.1 range was given (0 when the program declares none). */
    uint32_t unbounded_descriptors;
    /** One line for people: which inputs were changed and why ("" when none were). */
    char input_note[256];
    /** Domain programs: distinct (patch, domain location) pairs the device's tessellator
     *  produced, the pairs the CPU tessellator (sb_interp_tessellate_patch) gives for the same
     *  factors, and how many of the device's are among them (within 2^-12 in each
     *  coordinate; lavapipe places them in 16.16 fixed point). The device's pairs are what
     *  is compared; a difference here is reported,
     *  never a disagreement (Vulkan places fractional segments its own way). 0 otherwise. */
    uint32_t domain_points_gpu, domain_points_cpu, domain_points_matched;
};

/** sb_validate_report::input_changes: unbounded ranges got more descriptors than the
 *  options asked for (sb_validate_report::unbounded_descriptors). */
#define SB_VALIDATE_INPUTS_DESCRIPTORS 0x1u
/** Words that feed a descriptor-range index were seeded inside the range ([0, count)). */
#define SB_VALIDATE_INPUTS_INDEX_DATA 0x2u
/** ... and then set to 0 (the range was still missed with them in [0, count)). */
#define SB_VALIDATE_INPUTS_INDEX_ZERO 0x4u
/** Every seeded number made small and positive (SB_RT_INPUTS_SMALL). */
#define SB_VALIDATE_INPUTS_SMALL 0x8u

/**
 * Runs `program` on the context's GPU and on the interpreter with the same seeded
 * inputs and compares every UAV word and counter, and for graphics stages every
 * output. Compute: group_count thread groups; the interpreter runs first, so a program
 * that exhausts its budget fails with SB_ERROR_RUN_BUDGET before the GPU is asked.
 * Vertex: 64 x group_count[0] vertices drawn as points, outputs captured by a
 * generated geometry stage. Pixel: 8 x (8 x group_count[0]) pixels, one point each,
 * attributes from a generated vertex stage; a program using eval_* gets one triangle
 * per pixel instead, holding the whole pixel, whose interpolated float inputs are exact
 * planes the interpreter is given too (sb_interp_options::input_ddx / _ddy). Geometry: 16 x group_count[0] primitives of the
 * program's input type (fewer when the records would pass 32 MiB), vertex attributes from a
 * generated vertex stage, every emitted vertex, stream and cut captured by an instrumented
 * copy of the program (SB_VALIDATE_CLASS_GEOMETRY); the interpreter runs first. SB_SUCCESS
 * means both ran; report->verdict says what the comparison concluded. When words differ
 * under D3D's rules, the interpreter runs once more with its evidence (precision bounds and
 * their origins, the undefined-behaviour detector: report->tracking) and each differing word
 * is explained by it or counted as unexplained (verdict DISAGREE). Hull: 16 x group_count[0]
 * patches of seeded control points from a generated vertex stage, run as the tessellation
 * control stage with a capture of every output control point and patch constant
 * (SB_VALIDATE_CLASS_HULL), against sb_interp_run_hull. Domain: for each partitioning mode,
 * 8 x group_count[0] patches from a generated hull stage passing seeded control points,
 * patch constants and small tess factors (1-4, as each mode allows) through; a capture copy
 * of the program records each invocation's domain location and outputs
 * (SB_VALIDATE_CLASS_DOMAIN) and the interpreter (sb_interp_run_domain) runs at the same
 * locations. With options->sides naming one side, only that side runs (what
 * `shaderbridge run` uses); its results are in report->gpu or report->cpu.
 *
 * Inputs real shaders can run with: when the interpreter stops on a descriptor index outside
 * its range (SB_ERROR_RUN_BINDING at an instruction that indexes an SM5.1 range) or on its
 * instruction budget, the run is retried with changed inputs, at most 8 times, and the
 * report says what changed (input_retries, input_changes, input_note): first the words the
 * index is computed from (constant-buffer words, buffers and textures it is loaded from,
 * found by following the program's registers back from the index) are seeded inside the
 * range, then unbounded ranges get more descriptors (x8 a retry, up to 4096 resources in
 * all; the program is translated again for that count), then those words are set to 0; a
 * budget run is retried with SB_RT_INPUTS_SMALL. The error of the last run is returned
 * when nothing more can be changed.
 *
 * With options->gpu_spirv the GPU side runs that module instead of the translation (checked
 * first: sb_validate_options::gpu_spirv lists the errors); its unbounded ranges keep their
 * size through the retries (a new translation would replace the module).
 */
SB_API enum sb_result sb_validate(struct sb_rt_context *context, const struct sb_rt_program *program,
                           const struct sb_validate_options *options,
                           struct sb_validate_report **out, struct sb_error *error);
SB_API void sb_validate_report_destroy(struct sb_validate_report *report);

/**
 * How sb_validate draws a pixel program: true when it evaluates attributes (eval_centroid,
 * eval_sample_index, eval_snapped), which need inputs that vary over the pixel, so each pixel
 * is a triangle whose attributes make exact planes; false (every other program, and other
 * stages): one point per pixel.
 */
SB_API bool sb_validate_pixel_draws_triangles(const struct sb_rt_program *program);

/**
 * Checks options->gpu_spirv, gpu_entry_point and gpu_bindings against `program` as
 * sb_validate does before it runs anything (the errors listed at
 * sb_validate_options::gpu_spirv), with no device and no run: SB_SUCCESS when sb_validate
 * would take the module, or when `options` (may be NULL) name none. Lets a caller tell a
 * bad module from a failed run (`shaderbridge validate --spirv` names the module's file).
 */
SB_API enum sb_result sb_validate_gpu_module_check(const struct sb_rt_program *program,
                                                   const struct sb_validate_options *options,
                                                   struct sb_error *error);

/** What sb_validate_explain_precision found. */
struct sb_validate_precision {
    uint64_t explained;        /**< mismatching float words within the moved runs' spread */
    uint64_t unexplained;      /**< the other mismatching words (integers, or beyond the spread) */
};

/**
 * For a report with mismatches: reruns the interpreter (only) on the same inputs with the
 * results of Vulkan's approximated operations moved by +ulps and by -ulps
 * (sb_interp_options::approx_ulps) and counts the report's mismatching float words whose
 * device value lies no further from the interpreter's than the moved runs do: differences
 * an allowed imprecision of that size explains (evidence, not proof: see
 * runtime/src/validate/validate_precision.c). `options` must be those of the report's run.
 */
SB_API enum sb_result sb_validate_explain_precision(const struct sb_rt_program *program,
                                             const struct sb_validate_options *options,
                                             const struct sb_validate_report *report, int32_t ulps,
                                             struct sb_validate_precision *out, struct sb_error *error);

/* ---- One program against another (`shaderbridge validate --reference OTHER FILE`) ---------- */

/** Why two programs cannot be compared (sb_validate_reference_report::difference). */
enum sb_validate_interface {
    SB_VALIDATE_INTERFACE_SAME = 0,         /**< the interfaces match: the outputs were compared */
    SB_VALIDATE_INTERFACE_STAGE = 1,        /**< different stages (a vs against a ps) */
    SB_VALIDATE_INTERFACE_THREAD_GROUP = 2, /**< compute programs of different numthreads */
    SB_VALIDATE_INTERFACE_RESOURCE = 3,     /**< a (class, register, space) one declares and the other lacks */
    /** A register both declare, of a different kind (raw / structured / typed), dimension,
     *  or contents the other cannot be given (sb_rt_inputs_provide refused them). */
    SB_VALIDATE_INTERFACE_RESOURCE_SHAPE = 4,
    /** A signature element (semantic + index) one has and the other lacks, an output with a
     *  different number of lanes (those its signature allocates), an element the harnesses
     *  seed or record by register at another register (clip/cull distances, the inputs of
     *  geometry, hull and domain programs, a domain program's patch constants, geometry and
     *  domain outputs: also at other lanes), or hull programs of different output control
     *  point counts. */
    SB_VALIDATE_INTERFACE_SIGNATURE = 5,
    SB_VALIDATE_INTERFACE_MAX_ENUM = 0x7fffffff
};

/** One output word where the two programs differ. */
struct sb_validate_reference_mismatch {
    /** SB_IR_RESOURCE_UAV, or SB_VALIDATE_CLASS_OUTPUT / DEPTH / STENCIL / GEOMETRY / HULL /
     *  DOMAIN for stage outputs (their layouts: the class's comment above). */
    uint32_t resource_class;
    uint32_t space;            /**< UAVs: the register space */
    uint32_t register_index;   /**< UAVs: u#; vertex and pixel outputs: o# in `program` */
    /** Vertex, pixel and hull outputs: the signature element ("TEXCOORD", index 1); "" otherwise. */
    char semantic[32];
    uint32_t semantic_index;
    /** UAV buffers: the 32-bit word's index (UINT64_MAX: the append/consume counter);
     *  textures: the byte offset; vertex outputs: the vertex; pixel targets: the pixel
     *  (row-major over the draw, samples consecutive); other records: the word index. */
    uint64_t element;
    uint32_t component;        /**< vertex, pixel and hull outputs: the lane of the element (0 = its first) */
    /** Hull records (matched by semantic like vertex outputs; `element` the patch): the output
     *  control point, or the output control point count for a patch constant. 0 otherwise. */
    uint32_t point;
    enum sb_rt_word_kind kind; /**< the rule the words were compared by */
    uint32_t value;            /**< `program`'s word */
    uint32_t reference;        /**< the reference program's word */
    /** AGREE_WITHIN_PRECISION (|value - reference| <= bound, or bound INFINITY:
     *  precision-sensitive), UNDEFINED, or DISAGREE (unexplained). */
    enum sb_validate_verdict explained;
    float bound;               /**< the sum of the two interpreters' bounds for the word */
};

struct sb_validate_reference_report {
    /** AGREE, AGREE_WITHIN_PRECISION, UNDEFINED or DISAGREE for the two programs' interpreter
     *  results; DISAGREE too when `difference` is not SAME (nothing ran then). */
    enum sb_validate_verdict verdict;
    enum sb_validate_interface difference; /**< SAME, or the first difference of interfaces found */
    /** One line for people: the difference of interfaces, or the first word that decided the
     *  verdict (which output, which element, both values; within precision: with its bound),
     *  or how many words were identical. */
    char reason[320];
    uint64_t words_compared;   /**< output words (and UAV counters) compared, both sides' alike */
    uint64_t mismatch_count;   /**< words that differ under D3D's rules (the first max_mismatches kept) */
    uint64_t within_precision; /**< of those, within the sum of both bounds */
    uint64_t precision_sensitive; /**< of those, with an infinite bound on either side */
    uint64_t undefined_words;  /**< of those, undefined on either side (a race, an uninitialised read) */
    uint64_t unexplained;      /**< of those, explained by nothing: the verdict is DISAGREE */
    uint32_t kept;             /**< differing words kept, in comparison order (max_mismatches at most) */
    struct sb_validate_reference_mismatch *mismatches; /**< `kept` entries (owned by the report) */
    /** Each program's own sb_validate run on the shared inputs (owned by the report; NULL when
     *  `difference` is not SAME): its `cpu` holds the interpreter's results that were compared;
     *  with a device, its verdict is that program's own GPU-vs-interpreter verdict (the second
     *  leg), else the runs were interpreter-only (verdict AGREE, nothing compared). */
    struct sb_validate_report *program_run;
    struct sb_validate_report *reference_run;
    /** Whether the device leg ran (a context with a device was given and the interfaces
     *  match); program_run and reference_run are then non-NULL. */
    bool device_leg;
    /** Why the device leg did not run although a device was given (SB_ERROR_RUN_UNSUPPORTED
     *  or SB_ERROR_VULKAN of either program's device run: a feature the device lacks); the
     *  comparison then ran on the interpreters alone. Code SB_SUCCESS otherwise. */
    struct sb_error device_failure;
};

/**
 * Runs `program` and `reference` on the same inputs and compares their results (the
 * porting check: a DXIL program against its fxc twin, two DXBC versions of one shader; any
 * mix of DXBC, DXIL and SHBIN of one stage). The interfaces are checked first: the same
 * stage, the same numthreads, the same resources by (class, register, space), the same
 * signature elements by semantic and index; a difference is no failure but a report with
 * verdict DISAGREE naming it (`difference`, `reason`). Then `program`'s seeded inputs
 * (sb_rt_inputs_create with options->inputs) are given to both programs by (class, register,
 * space) as sb_validate_options::provided entries (bytes; textures of another seeded shape
 * with their shape; a constant buffer cut to the smaller declared size), so both read the
 * same data whatever each one's reflection says about word types; vertex and pixel inputs are
 * matched by semantic and index: each lane of the reference's element takes the seeded values
 * of the program's lane of the same element (sb_validate_options::input_seed_lanes), wherever
 * each program put it. Each program
 * then runs through sb_validate: on the interpreter only when `context` is NULL or has no
 * device, else on both sides, each with its own GPU-vs-interpreter verdict (the device leg:
 * program_run / reference_run). The interpreters' results are compared: every UAV word and
 * counter by register; vertex outputs by semantic and index, lane by lane (o# may differ);
 * pixel render targets by SV_Target index, depth and stencil; hull control points and patch
 * constants by semantic and index; geometry and domain records word by word. Words compare under D3D's rules (sb_validate_words_agree with
 * options->float_ulps, 0: exact but for NaNs and zeros/denormals); when some differ, both
 * interpreters run again with their evidence, and a differing word is undefined when either
 * side's evidence marks it, within precision when its float values lie within the sum of the
 * two bounds (each program's result may lie that far from what a conformant Vulkan device
 * returns, so both can be right: fxc and dxc fuse, reorder and approximate differently) or
 * either bound is infinite (precision-sensitive), else unexplained (DISAGREE). Options as for
 * sb_validate (provided and gpu_spirv excepted: SB_ERROR_INVALID_ARGUMENT); a run that stops
 * on the interpreter's budget is retried once with SB_RT_INPUTS_SMALL; when the device cannot
 * run either program (SB_ERROR_RUN_UNSUPPORTED, SB_ERROR_VULKAN), the comparison runs on the
 * interpreters alone and the report keeps that failure (device_failure). Errors: those of
 * sb_rt_inputs_create and sb_validate for either program (the reference's message starts
 * "reference: "), SB_ERROR_INVALID_ARGUMENT for NULL programs or `out`. Free the report with
 * sb_validate_reference_report_destroy().
 */
SB_API enum sb_result sb_validate_reference(struct sb_rt_context *context, const struct sb_rt_program *program,
                                            const struct sb_rt_program *reference,
                                            const struct sb_validate_options *options,
                                            struct sb_validate_reference_report **out, struct sb_error *error);
SB_API void sb_validate_reference_report_destroy(struct sb_validate_reference_report *report);
/** "same", "stage", "thread-group", "resource", "resource-shape", "signature" ("?" otherwise). */
SB_API const char *sb_validate_interface_name(enum sb_validate_interface difference);

/** Compares two words of `kind` under the rules above (exported for tests and tools). */
SB_API bool sb_validate_words_agree(uint32_t kind, uint32_t a, uint32_t b, uint32_t float_ulps);

#ifdef __cplusplus
}
#endif

#endif
