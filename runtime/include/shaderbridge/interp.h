/* SPDX-License-Identifier: MIT */
/*
 * The CPU interpreter: runs a program in shaderbridge's IR (the opaque
 * struct sb_ir_program of types.h, as sb_rt_program_load makes it) with exactly
 * the semantics the SPIR-V back end implements (translator/IR.md
 * §Semantics), to validate GPU results or to run without a GPU.
 *
 * Execution is structure-of-arrays: each decoded instruction is applied to
 * every active invocation of a batch before the next one (a compute batch is
 * one whole thread group, so group-shared memory and barriers behave as on
 * a GPU). Structured control flow uses per-invocation active masks.
 *
 * Resources are found by (class, space, register) in the caller's table
 * (shaderbridge/resources.h); out-of-bounds reads return 0 and out-of-bounds
 * writes are dropped (Vulkan robustBufferAccess, IR.md). Every dispatch has
 * an instruction budget, so no program can hang the caller.
 */
#ifndef SHADERBRIDGE_INTERP_H
#define SHADERBRIDGE_INTERP_H

#include <stdint.h>

#include "shaderbridge/types.h"
#include "shaderbridge/resources.h"
#include "shaderbridge/result.h"

#ifdef __cplusplus
extern "C" {
#endif

struct sb_interp_options {
    /** Most instructions executed by one dispatch, counted once per instruction per batch
     *  (not per invocation); 0 = the default, 1 << 26. */
    uint64_t instruction_budget;
    /** Compute dispatches: worker threads that run independent batches of thread groups
     *  side by side. 0 or 1: the calling thread alone, batches in order (results of racing
     *  invocations are then reproducible); SB_INTERP_THREADS_AUTO: one per online CPU;
     *  N: at most N (64 at most). Programs with UAV atomics or counters always run on the
     *  calling thread alone. With several threads the budget is checked per batch against
     *  what the finished batches used, so a dispatch may run past it by a few batches. */
    uint32_t threads;
    /** Precision sensitivity (for explaining GPU differences, not for normal runs): when
     *  nonzero, every finite nonzero result of the operations Vulkan computes approximately
     *  (exp, log, rsq, rcp, sqrt, div) is moved by this many ULPs (away from zero when
     *  positive, toward zero when negative), and sin/cos results, whose error Vulkan bounds
     *  absolutely, by this many units of 2^-23: as a device within Vulkan's precision
     *  allowance may compute them. 0: exact libm results. */
    int32_t approx_ulps;
    /** Evidence for validation verdicts (NULL: none, the normal run): what the run records
     *  beside its results; see struct sb_interp_tracking. A tracked compute dispatch runs on
     *  the calling thread alone. */
    struct sb_interp_tracking *tracking;
    /** Pixel runs: the plane of each input word, for pull-model attribute evaluation
     *  (eval_snapped, eval_sample_index, eval_centroid) and for the quad's helper lanes.
     *  When both are non-NULL they have the layout of sb_interp_run_pixels's `inputs` (the
     *  same `registers`) and each word is, as a float, how much that input changes per pixel
     *  to the right (input_ddx) and down (input_ddy); words of inputs declared with constant
     *  interpolation, and system values, ignore them. An input then reads
     *  v + dx * ddx + dy * ddy at an offset (dx, dy) from its pixel's centre (exact for
     *  linear_noperspective inputs and for draws whose w is constant). NULL (the default):
     *  every input is constant over its pixel and quad, as for points of size 1. */
    const struct sb_interp_registers *input_ddx, *input_ddy;
    /** Pixel runs: samples per pixel of the render target (0 counts as 1; 1, 2, 4, 8 or 16):
     *  the standard pattern eval_sample_index and the rasterizer's sampleinfo / samplepos
     *  use; every pixel is fully covered (vCoverage has every sample's bit, a helper lane none; eval_centroid
     *  evaluates at the centre). A program that runs per sample (an SV_SampleIndex input or
     *  an input with sample interpolation) then runs once per sample: invocation
     *  i * sample_count + s is sample s of pixel i (SV_SampleIndex s, SV_Position and the
     *  sample-interpolated inputs at the sample's standard position, vCoverage 1 << s), and
     *  `outputs` and every array of sb_interp_pixel_results hold pixel_count * sample_count
     *  entries in that order (the caller sizes them). */
    uint32_t sample_count;
    /** Lanes in one wave (WaveGetLaneCount(), what the wave and quad ops see as one wave):
     *  0 = SB_INTERP_WAVE_SIZE (32); else 4, 8, 16, 32, 64 or 128 (D3D's wave sizes; a
     *  device's subgroup size, or a program's [WaveSize(N)]). Anything else fails with
     *  SB_ERROR_INVALID_ARGUMENT. Waves lie in the batch as SB_INTERP_WAVE_SIZE describes. */
    uint32_t wave_lanes;
    /** Graphics runs (vertex, pixel, geometry, hull, domain): the multiview view index that
     *  SV_ViewID reads (translator/IR.md §System values). 0 (the default) is what a draw
     *  without multiview gives, as validate's draws are. */
    uint32_t view_index;
    /** Pixel runs: the coarse shading rate a pixel-shader SV_ShadingRate input reads, as a
     *  D3D12_SHADING_RATE (log2 width << 2 | log2 height: 0x0, 0x1, 0x4, 0x5, 0x6, 0x9 or 0xA;
     *  any other value is SB_ERROR_INVALID_ARGUMENT). 0 (1x1, the default) is what a draw
     *  that sets no rate gives. The pixels still run one invocation each. */
    uint32_t shading_rate;
};

/** Behaviour D3D leaves undefined, seen by a tracked run (sb_interp_undefined_event). */
enum sb_interp_undefined_kind {
    /** Two invocations wrote one UAV or group-shared word with no barrier ordering them
     *  and at least one write not atomic. */
    SB_INTERP_UNDEFINED_WRITE_WRITE = 1,
    /** One invocation read a word another wrote, with no barrier between them (either
     *  order: the reader may see the old or the new value). */
    SB_INTERP_UNDEFINED_READ_WRITE = 2,
    /** Atomics of several invocations on one word, at least one using the value it
     *  returned, or operations whose final value depends on their order (exchanges,
     *  compare-stores, different operations); or an append/consume counter whose values
     *  several invocations use: what they get depends on the order the device runs them in. */
    SB_INTERP_UNDEFINED_ATOMIC_ORDER = 3,
    /** A read of a group-shared word no invocation of the group wrote. */
    SB_INTERP_UNDEFINED_UNINITIALIZED = 4,
    /** An indexable temp (x#) read or written past its declared elements: D3D leaves the
     *  value read, and what such a write does to the invocation's x# registers, undefined.
     *  The event's resource is UINT32_MAX, group_shared_id the x# id, byte_offset 16 x the
     *  element index; the invocation is tainted from there on. */
    SB_INTERP_UNDEFINED_OUT_OF_BOUNDS = 5,
    /** A t#/s#/u#/cb# range (SM5.1, relatively indexed) indexed with different registers by
     *  invocations of one invocation group (compute: a thread group; every other stage: the
     *  whole run, i.e. the draw) at one dynamic instance of the instruction (a loop may change
     *  the index between iterations), through an operand without NonUniformResourceIndex.
     *  Vulkan requires such an index to be dynamically uniform, so the device may use any of
     *  the group's registers for every invocation: the results of every invocation of the
     *  group that executed the operand are undefined (tainted from its first use of it on, the
     *  access itself included, so a store through the range is undefined too). The event's
     *  resource is UINT32_MAX, byte_offset 0, both instructions the access's; invocation[0] is
     *  the first invocation of the group at that dynamic instance, invocation[1] the first
     *  whose register differs from it, and range_* name the range and the two registers. One
     *  event per operand and group. Helper pixels and discarded lanes do not count. Graphics
     *  runs pair the k-th execution of the operand in each batch of invocations as one dynamic
     *  instance (runtime/src/interp/interp_nonuniform.c). */
    SB_INTERP_UNDEFINED_NON_UNIFORM_INDEX = 6,
    SB_INTERP_UNDEFINED_KIND_MAX_ENUM = 0x7fffffff
};

/** One undefined access: the pair of accesses that conflict. */
struct sb_interp_undefined_event {
    enum sb_interp_undefined_kind kind;
    uint32_t resource;        /**< index into the resource table; UINT32_MAX: group-shared g# */
    uint32_t group_shared_id; /**< the g# id when resource is UINT32_MAX */
    uint64_t byte_offset;     /**< of the word in the resource or g#; UINT64_MAX: the resource's
                                   append/consume counter */
    /** The two invocations (flattened: compute = group * threads per group + local index;
     *  vertex/pixel/geometry = the invocation number) and the byte offsets in the shader of
     *  the instructions that made the accesses; the first is the earlier in the
     *  interpreter's order (UINT32_MAX where there is none, as for an uninitialised read). */
    uint32_t invocation[2];
    uint32_t instruction[2];
    /** SB_INTERP_UNDEFINED_NON_UNIFORM_INDEX only (zero otherwise): the range's class, space
     *  and first register (its declared lower bound) ... */
    enum sb_ir_resource_class range_class;
    uint32_t range_space;
    uint32_t range_lower_bound;
    /** ... and the register (lower bound + index) invocation[0] and invocation[1] chose. */
    uint32_t range_register[2];
};

#define SB_INTERP_UNDEFINED_KEPT 8u

/**
 * What a tracked run records (sb_interp_options::tracking). The caller zeroes it and sets
 * the two switches; the run allocates the arrays (free them with sb_interp_tracking_release).
 *
 * Precision: every float value carries a bound on how far a conformant Vulkan device's
 * result may lie from the interpreter's for the same inputs (the precision Vulkan allows
 * each SPIR-V operation, propagated through every operation; runtime/README.md
 * "Precision"). INFINITY marks a word the device may compute differently for a reason no
 * error bound covers: a comparison, branch or conversion to integer whose outcome the
 * bound of its operands straddles ("precision-sensitive").
 */
struct sb_interp_tracking {
    bool precision;           /**< in: carry error bounds */
    bool undefined;           /**< in: detect races, atomic order, uninitialised g# reads, x#
                                   out of bounds, non-uniform range indices (sb_interp_undefined_kind) */
    /** in: with `precision`, also keep for every word the instruction that contributed most
     *  to its bound (`origin`); without it the commonest operations (add, mul, mad, min, max)
     *  leave their origins unset (faster). */
    bool origins;
    uint32_t resource_count;  /**< out: entries of the per-resource arrays (the table's count) */
    /** Per resource of the table (NULL for resources that are not UAVs): per 32-bit word of
     *  its data, the allowed |device - interpreter| (0: exact) ... */
    float **bound;
    /** ... the byte offset in the shader of the instruction whose allowed error contributed
     *  most to that bound (UINT32_MAX: none) ... */
    uint32_t **origin;
    /** ... and 1 where the word's value is undefined (a race on it, or written by an
     *  invocation that read an undefined value or an order-dependent atomic result). */
    uint8_t **undefined_word;
    /** Vertex and pixel runs: the same three for outputs->words (same layout), or NULL. */
    float *output_bound;
    uint32_t *output_origin;
    uint8_t *output_undefined;
    uint64_t undefined_events; /**< all events seen (the first SB_INTERP_UNDEFINED_KEPT kept) */
    uint32_t kept;
    struct sb_interp_undefined_event events[SB_INTERP_UNDEFINED_KEPT];
};

/** Frees what a tracked run allocated in `t` and zeroes its results (the switches stay). */
SB_API void sb_interp_tracking_release(struct sb_interp_tracking *t);

/**
 * Lanes in one wave of the interpreter by default (the IR's wave and quad ops, translator/IR.md
 * §Waves; sb_interp_options::wave_lanes picks another): WaveGetLaneCount() is this. A wave is
 * that many consecutive invocations of a batch; in a compute dispatch each thread group's waves start at its first invocation in SV_GroupIndex
 * order (a group of 48 has a full wave and a wave of 16 lanes), in other stages at the
 * batch's first invocation (pixels: 8 pixels of 2x2 quads, helpers included). Wave ops see
 * only the active lanes (not those that left by divergent flow; in pixel programs not the
 * helper or discarded lanes); quad ops also read helpers.
 */
#define SB_INTERP_WAVE_SIZE 32u

/** sb_interp_options::threads: one worker per online CPU. */
#define SB_INTERP_THREADS_AUTO 0xFFFFFFFFu

struct sb_interp_stats {
    uint64_t instructions;    /**< instructions executed (per batch) */
    uint64_t invocations;     /**< invocations run */
    uint64_t lane_instructions; /**< sum over instructions of the active invocations */
};

/**
 * Runs a compute program for group_count[0] x [1] x [2] thread groups.
 * UAV contents (and append/consume counters) are updated in `resources`.
 * options and stats may be NULL.
 * Errors: SB_ERROR_RUN_BINDING (a declared resource missing from the table or too
 * small for its declaration), SB_ERROR_RUN_UNSUPPORTED (named in the message, with the
 * instruction's offset), SB_ERROR_RUN_BUDGET, SB_ERROR_INVALID_ARGUMENT (not a compute
 * program, a zero or oversized group count).
 */
SB_API enum sb_result sb_interp_dispatch(const struct sb_ir_program *program,
                                  struct sb_rt_resource *resources, uint32_t resource_count,
                                  const uint32_t group_count[3],
                                  const struct sb_interp_options *options,
                                  struct sb_interp_stats *stats, struct sb_error *error);


/**
 * Register contents of one shader stage's inputs or outputs, for `count`
 * invocations: invocation i, register r, component c is
 * words[(i * registers + r) * 4 + c] (v# / o# register numbers of the IR's
 * signature elements; registers = highest declared register + 1).
 */
struct sb_interp_registers {
    uint32_t registers;
    uint32_t *words;
};

/**
 * Runs a vertex program once per vertex (vertex_count invocations in batches).
 * SV_VertexID is the vertex index (base vertex 0), SV_InstanceID 0. `inputs` holds
 * the v# registers of each vertex; `outputs` receives the o# registers (SV_Position's
 * register included; unwritten components stay as the caller filled them).
 * Errors as sb_interp_dispatch (SB_ERROR_INVALID_ARGUMENT for a non-vertex program).
 */
SB_API enum sb_result sb_interp_run_vertices(const struct sb_ir_program *program,
                                      struct sb_rt_resource *resources, uint32_t resource_count,
                                      uint32_t vertex_count, const struct sb_interp_registers *inputs,
                                      struct sb_interp_registers *outputs,
                                      const struct sb_interp_options *options,
                                      struct sb_interp_stats *stats, struct sb_error *error);

/** Pixel-shader results per pixel beside the o# registers. */
struct sb_interp_pixel_results {
    float *depth;             /**< pixel_count oDepth values (written when the program writes depth), or NULL */
    uint8_t *discarded;       /**< pixel_count flags: 1 when the pixel was discarded, or NULL */
    /** pixel_count oMask (SV_Coverage output) values as the program wrote them (0xFFFFFFFF where
     *  it declares oMask but leaves it unwritten; bit 0 clear means a one-sample target keeps
     *  nothing of the pixel), written only for pixels not discarded and only when the program
     *  declares oMask; or NULL. */
    uint32_t *coverage;
    /** pixel_count oStencilRef (SV_StencilRef) values as the program wrote them, all 32 bits
     *  (a stencil attachment keeps the low 8 of an 8-bit format); 0 where it declares
     *  oStencilRef but leaves it unwritten (D3D and Vulkan leave that value undefined);
     *  written only for pixels not discarded and only when the program declares oStencilRef;
     *  or NULL. */
    uint32_t *stencil_ref;
};

/**
 * Runs a pixel program for `pixel_count` pixels drawn as points of size 1: pixel i
 * sits at window position positions[i * 4 .. i * 4 + 3] (x, y at the pixel centre,
 * z, w = 1/w), its v# registers are inputs->words of invocation i, the same for every
 * fragment of its quad (point rasterisation: no interpolation). Each pixel runs in a
 * 2x2 quad whose other three lanes are helper invocations at the neighbouring pixel
 * centres, so derivatives (coarse and fine) are those a GPU computes for a one-pixel
 * point; helpers (and discarded pixels) write nothing: no o#, no UAV store or atomic.
 * SV_IsFrontFace is true, SV_SampleIndex 0, SV_Coverage (input) every sample of
 * options->sample_count (1 by default), SV_InnerCoverage 1: the runtime draws a program that
 * reads it with conservative rasterization (D3D's requirement for SV_InnerCoverage;
 * VK_EXT_conservative_rasterization), and a point of size 1 centred on its pixel covers the
 * pixel's square entirely (its edges lie on the pixel's: a device that underestimates by its
 * snapping error could report 0 there). options->input_ddx / input_ddy give the
 * inputs attribute planes (eval_* and helper lanes read them); without them inputs are
 * constant, as the text above says. A program that runs per sample on a target of several
 * samples runs once per sample, and `outputs` / `results` then hold one entry per sample
 * (sb_interp_options::sample_count says how).
 */
SB_API enum sb_result sb_interp_run_pixels(const struct sb_ir_program *program,
                                    struct sb_rt_resource *resources, uint32_t resource_count,
                                    uint32_t pixel_count, const float *positions,
                                    const struct sb_interp_registers *inputs,
                                    struct sb_interp_registers *outputs,
                                    struct sb_interp_pixel_results *results,
                                    const struct sb_interp_options *options,
                                    struct sb_interp_stats *stats, struct sb_error *error);

/**
 * One texel of `format` as a typed UAV store or a render-target write stores `lanes` (float
 * bits for the formats read as floats, integers for uint and sint formats), by D3D11's
 * conversion rules: floats to unorm/snorm clamped then rounded to nearest even, the sRGB
 * curve (exact) on rgb, half and 11/10-bit floats rounded to nearest even, integers clamped
 * to a narrower format's range; channels the format lacks are dropped. Writes
 * sb_rt_format_size(format) bytes at `texel`; false (nothing written) for BC, depth and
 * unknown formats.
 */
SB_API bool sb_interp_texel_pack(enum sb_rt_format format, const uint32_t lanes[4], void *texel);

/**
 * The four lanes a shader reads from one texel of `format` (float bits for the formats read
 * as floats, integers for uint and sint formats; missing channels 0, missing alpha 1), by
 * D3D11's rules; depth formats read as their red. Reads sb_rt_format_size(format) bytes at
 * `texel`; false (lanes untouched) for BC and unknown formats.
 */
SB_API bool sb_interp_texel_unpack(enum sb_rt_format format, const void *texel, uint32_t lanes[4]);

/**
 * Vertices of one input primitive of a geometry program, from its gs_input_primitive
 * (../shared/docs/sm4-tokens.md §8.8): point 1, line 2, triangle 3, line_adj 4, triangle_adj 6,
 * patchN (8..39) N; 0 for any other value.
 */
SB_API uint32_t sb_interp_geometry_input_vertices(uint32_t gs_input_primitive);

/**
 * What a geometry program emitted, per invocation: invocation j = primitive * instances +
 * instance (instances = gs_instance_count, 1 when 0). The caller allocates every array for
 * `invocations` = primitive_count * instances; sb_interp_run_geometry fills them all.
 */
struct sb_interp_geometry_results {
    /** o# registers kept per vertex (o0 .. o(registers-1); writes to higher registers are
     *  dropped). */
    uint32_t registers;
    /** Vertex slots per invocation: at least the program's gs_max_output_vertices. */
    uint32_t max_vertices;
    /** invocations * max_vertices * registers * 4 words: o# register r component c of
     *  emitted vertex k of invocation j at ((j * max_vertices + k) * registers + r) * 4 + c,
     *  as the registers held at the emit (outputs keep their values after an emit: see
     *  sb_interp_run_geometry); slots past vertex_count[j] are zero. */
    uint32_t *words;
    /** invocations entries: vertices kept (at most gs_max_output_vertices). */
    uint32_t *vertex_count;
    /** invocations * max_vertices entries: the stream (0..3) of each kept vertex, 0 past
     *  vertex_count. */
    uint8_t *stream;
    /** invocations * (max_vertices + 1) entries: for slot k <= vertex_count[j], bit s set
     *  when a CUT or EMIT_THEN_CUT on stream s ran after the previous kept vertex (or the
     *  start) and before vertex k; slot vertex_count[j] holds the cuts after the last kept
     *  vertex. The end of an invocation also ends every strip (not recorded: implicit). */
    uint8_t *cut_before;
    /** invocations entries: emits dropped because max vertices were already kept, or NULL. */
    uint32_t *dropped;
};

/**
 * Runs a geometry program for `primitive_count` input primitives, gs_instance_count
 * instances each (one invocation per primitive and instance, several per batch).
 * `inputs` holds primitive_count * V vertex records (V = sb_interp_geometry_input_vertices
 * of the program's gs_input_primitive), vertex v of primitive p in record p * V + v, laid
 * out as sb_interp_registers: v[v][r] of the program reads register r of that record
 * (out-of-range vertices or registers read 0). vPrim = the primitive index, vGSInstanceID =
 * the instance. o# start at 0 in each invocation and keep their values across emits (what
 * the SPIR-V back end does with its o# register array; D3D leaves outputs undefined after an
 * emit). EMIT keeps the o# registers and the stream while fewer than gs_max_output_vertices
 * vertices are kept, and drops the emit otherwise (D3D: emits past the declared maximum are
 * discarded; Vulkan leaves them undefined, and the back end adds no check). CUT records the
 * end of the current strip of its stream (results->cut_before).
 * Errors as sb_interp_dispatch (SB_ERROR_INVALID_ARGUMENT for a non-geometry program, an
 * input primitive with no vertex count, results too small for the declared maximum).
 */
SB_API enum sb_result sb_interp_run_geometry(const struct sb_ir_program *program,
                                      struct sb_rt_resource *resources, uint32_t resource_count,
                                      uint32_t primitive_count, const struct sb_interp_registers *inputs,
                                      struct sb_interp_geometry_results *results,
                                      const struct sb_interp_options *options,
                                      struct sb_interp_stats *stats, struct sb_error *error);

/* ---- Tessellation: the fixed-function tessellator, hull and domain programs ------------- */

/** Tessellator domain; the values are dcl_tessellator_domain's (../shared/docs/sm4-tokens.md §8.5). */
enum sb_interp_tess_domain {
    SB_INTERP_TESS_ISOLINE = 1,
    SB_INTERP_TESS_TRI = 2,
    SB_INTERP_TESS_QUAD = 3,
    SB_INTERP_TESS_DOMAIN_MAX_ENUM = 0x7fffffff
};

/** Partitioning; the values are dcl_tessellator_partitioning's (sm4-tokens.md §8.6). */
enum sb_interp_tess_partitioning {
    SB_INTERP_TESS_INTEGER = 1,
    SB_INTERP_TESS_POW2 = 2,
    SB_INTERP_TESS_FRACTIONAL_ODD = 3,
    SB_INTERP_TESS_FRACTIONAL_EVEN = 4,
    SB_INTERP_TESS_PARTITIONING_MAX_ENUM = 0x7fffffff
};

/** Output primitive; the values are dcl_tessellator_output_primitive's (sm4-tokens.md §8.7). */
enum sb_interp_tess_primitive {
    SB_INTERP_TESS_POINT = 1,        /**< every domain point once, in point order */
    SB_INTERP_TESS_LINE = 2,         /**< isoline only: index pairs */
    SB_INTERP_TESS_TRIANGLE_CW = 3,  /**< tri/quad only: clockwise with u right, v down */
    SB_INTERP_TESS_TRIANGLE_CCW = 4, /**< tri/quad only: counter-clockwise */
    SB_INTERP_TESS_PRIMITIVE_MAX_ENUM = 0x7fffffff
};

/** One patch for the tessellator: its state and its tess factors as a hull shader wrote them
 *  (unrounded, unclamped). */
struct sb_interp_tess_input {
    enum sb_interp_tess_domain domain;
    enum sb_interp_tess_partitioning partitioning;
    enum sb_interp_tess_primitive output_primitive;
    /** Edge factors. quad: [0] u == 0, [1] v == 0, [2] u == 1, [3] v == 1; tri: [0] u == 0,
     *  [1] v == 0, [2] w == 0; isoline: [0] line density (finalLineDensityTessFactor), [1] line
     *  detail (finalLineDetailTessFactor). Entries the domain does not use are ignored. */
    float edge[4];
    /** Inside factors. quad: [0] along u, [1] along v; tri: [0]; isoline: unused. Any
     *  reduction of the edges into an inside factor (HLSL's ProcessQuadTessFactors* helpers)
     *  is the hull shader's work and has happened before this. */
    float inside[2];
    /** dcl_hs_max_tessfactor, in [1, 64]; 0, NaN or any value outside [1, 64] means 64. */
    float max_factor;
};

/** One patch's tess factors after D3D11's processing (runtime/src/interp/README.md
 *  "Tessellator"): clamped to the partitioning's range and to the max tess factor, rounded. */
struct sb_interp_tess_factors {
    /** A used edge factor was NaN or <= 0: the patch is culled (nothing is tessellated);
     *  every other member is then 0. */
    bool culled;
    /** The clamped factor the points are placed by: for integer and pow2 partitioning the
     *  rounded count, for the fractional modes the clamped unrounded value. Same order as
     *  sb_interp_tess_input::edge / ::inside (isoline: [0] density, [1] detail); 0 where the
     *  domain has no such factor. A tri/quad inside factor of 1 beside a larger factor of the
     *  patch reads as 2 for integer and pow2 (D3D places it as even, like 2) and as 1 + 2^-16
     *  for fractional_odd (D3D's picture-frame rule). */
    float edge_factor[4], inside_factor[2];
    /** Segments along each edge / inside axis: the rounded factor (an integer, a power of
     *  two, odd, even, by partitioning; isoline density always integer); 0 where unused. */
    uint32_t edge_segments[4], inside_segments[2];
};

/** A tessellated patch (sb_interp_tessellate_patch). */
struct sb_interp_tess_output {
    bool culled;              /**< as sb_interp_tess_factors::culled; then no points */
    uint32_t components;      /**< floats per point: 3 (u, v, w) for tri, else 2 (u, v) */
    uint32_t point_count;
    /** point_count * components floats, every point inside the domain and a multiple of 2^-16
     *  (D3D's 16.16 placement); owned by the output (free with sb_interp_tess_release); NULL
     *  for a culled patch. With point output each distinct point appears once; with lines or
     *  triangles a degenerate frame's points may repeat others (D3D §11.7.14). */
    float *points;
    enum sb_interp_tess_primitive primitive; /**< = the input's output_primitive */
    uint32_t index_count;     /**< 1, 2 or 3 per primitive, by `primitive` */
    uint32_t *indices;        /**< index_count indices, each < point_count; owned as `points` */
    /** The processed factors, as in struct sb_interp_tess_factors. */
    float edge_factor[4], inside_factor[2];
    uint32_t edge_segments[4], inside_segments[2];
};

/**
 * Tessellates one patch by D3D11's fixed-function rules (the D3D11.3 functional
 * specification's tessellator chapter; runtime/src/interp/README.md "Tessellator" lists
 * where the choice is ours): the domain points a domain shader runs at and the primitives
 * joining them, without a device. `out` is overwritten; release it with
 * sb_interp_tess_release after any call, a failed or culled one included.
 * Errors: SB_ERROR_INVALID_ARGUMENT (NULL in/out, an unknown domain, partitioning or
 * primitive, lines from a tri/quad domain, triangles from isolines), SB_ERROR_OUT_OF_MEMORY.
 */
SB_API enum sb_result sb_interp_tessellate_patch(const struct sb_interp_tess_input *in,
                                                 struct sb_interp_tess_output *out, struct sb_error *error);

/** Frees what sb_interp_tessellate_patch allocated in `out` and zeroes it; NULL is a no-op. */
SB_API void sb_interp_tess_release(struct sb_interp_tess_output *out);

/**
 * What a hull program produced for `patch_count` patches. The caller allocates every array;
 * sb_interp_run_hull fills them all (words of registers the program never writes are 0).
 */
struct sb_interp_hull_results {
    /** Output control points: record p * OCP + k (OCP = the program's
     *  dcl_output_control_point_count) is control point k of patch p, laid out as
     *  sb_interp_registers (o# registers 0 .. registers - 1; the caller picks `registers`,
     *  higher registers are dropped here but still seen by the fork and join phases).
     *  words: patch_count * OCP * registers * 4, or NULL when registers is 0. */
    struct sb_interp_registers control_points;
    /** Patch constants: record p holds the o# registers the fork and join phases of patch p
     *  wrote (tess factors included, as written, before any processing), laid out as
     *  sb_interp_registers; words: patch_count * registers * 4. */
    struct sb_interp_registers patch_constants;
    /** patch_count entries: the patch's tess factors after D3D's processing for the program's
     *  domain, partitioning and dcl_hs_max_tessfactor; or NULL. A factor the program does
     *  not write reads 0 (so a missing edge factor culls). */
    struct sb_interp_tess_factors *factors;
    /** Tracked runs with tracking->precision: per word of control_points.words /
     *  patch_constants.words, the bound on |device - interpreter| (runtime/README.md
     *  "Precision"; INFINITY: precision-sensitive); or NULL (not recorded). */
    float *control_point_bound;
    float *patch_constant_bound;
};

/**
 * Runs a hull program for `patch_count` patches, as D3D11 defines the phases:
 *  1. the control-point phase once per output control point k of each patch (invocation
 *     p * OCP + k): v[i][r] / vicp[i][r] read input record p * ICP + i of `inputs` (ICP = the
 *     program's dcl_input_control_point_count; vertices or registers outside read 0),
 *     vOutputControlPointID = k, vPrim = p; o# start at 0 and become control point k. A
 *     program without a control-point phase passes control point min(k, ICP - 1) through
 *     (every register both records hold).
 *  2. each fork phase in program order, instance_count times (dcl_hs_fork_phase_instance_count,
 *     vForkInstanceID = 0 .. count - 1), then each join phase likewise (vJoinInstanceID), once
 *     per patch each: vicp as above, vocp[k][r] = control point k of the patch as phase 1
 *     wrote it, vPrim = p, o# = the patch constants (0 at the start of the patch; each
 *     instance sees what earlier phases and instances wrote), vpc[r] = o# r (a join phase
 *     reads the fork phases' results there; D3D's registers are the same). Instances run one
 *     after another in order: D3D may run them in parallel, and a program whose instances
 *     write the same patch constant gets an order D3D leaves undefined. r# and x# start at 0
 *     in each phase instance (D3D leaves them undefined).
 *  3. the tess factors: the patch-constant elements whose system value is a tess factor
 *     (sm4-tokens.md §8.1, values 11 .. 22; the lane is the first of the element's mask),
 *     processed as sb_interp_tessellate_patch does, into results->factors.
 * Tracking: with precision, the bounds of the results in results->control_point_bound /
 * ->patch_constant_bound (bounds travel from phase 1 to the vocp reads of phase 2) and of
 * UAV words as for every stage; with undefined, races on UAVs (event invocations: p * OCP + k
 * for control point k of patch p, patch_count * OCP + p for the fork/join phases of patch p,
 * which count as one invocation). Results an invocation wrote after reading an undefined
 * value are not marked: tracking->output_* stay unused, as for geometry runs.
 * Errors as sb_interp_dispatch (SB_ERROR_INVALID_ARGUMENT for a non-hull program, NULL or
 * missing arrays, more than 32 control points or 4096 registers, too many invocations, fork
 * or join phases outside the program's functions).
 */
SB_API enum sb_result sb_interp_run_hull(const struct sb_ir_program *program,
                                  struct sb_rt_resource *resources, uint32_t resource_count,
                                  uint32_t patch_count, const struct sb_interp_registers *inputs,
                                  struct sb_interp_hull_results *results,
                                  const struct sb_interp_options *options,
                                  struct sb_interp_stats *stats, struct sb_error *error);

/**
 * Runs a domain program at `point_count` given domain locations (the device's
 * gl_TessCoord values, or sb_interp_tessellate_patch's points), invocation i at
 * domain_locations[i * 3 .. i * 3 + 2] of patch patch_of_point[i] (< patch_count):
 * vDomain = (u, v, w, 0) for a tri domain and (u, v, 0, 0) for quad and isoline (the third
 * float is then ignored; Vulkan's TessCoord.z is 0 there too); vicp[k][r] / v[k][r] read
 * record patch * ICP + k of `control_points` (ICP = the program's
 * dcl_input_control_point_count: the hull shader's output control points), vpc[r] record
 * `patch` of `patch_constants` (sb_interp_hull_results gives both in this layout), vPrim =
 * the patch. `outputs` receives the o# registers of each invocation (unwritten components
 * stay as the caller filled them, as in sb_interp_run_vertices). Tracked runs fill
 * tracking->output_bound / _origin / _undefined as vertex runs do.
 * Errors as sb_interp_dispatch (SB_ERROR_INVALID_ARGUMENT for a non-domain program, NULL
 * arrays, a patch index >= patch_count).
 */
SB_API enum sb_result sb_interp_run_domain(const struct sb_ir_program *program,
                                    struct sb_rt_resource *resources, uint32_t resource_count,
                                    uint32_t point_count, const uint32_t *patch_of_point,
                                    const float *domain_locations, uint32_t patch_count,
                                    const struct sb_interp_registers *control_points,
                                    const struct sb_interp_registers *patch_constants,
                                    struct sb_interp_registers *outputs,
                                    const struct sb_interp_options *options,
                                    struct sb_interp_stats *stats, struct sb_error *error);

#ifdef __cplusplus
}
#endif

#endif
