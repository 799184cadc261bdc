/* SPDX-License-Identifier: MIT */
/* Shared by the validation files: partner stages and the graphics paths. */
#ifndef SB_RUNTIME_VALIDATE_PRIVATE_H
#define SB_RUNTIME_VALIDATE_PRIVATE_H

#include "inputs_private.h"
#include "translator/ir.h"

/** Kind of a word that is not compared (a component no signature element declares). */
#define SB_RT_WORD_IGNORED 7u

/**
 * The feeder vertex program of pixel module `ps` (partner.c): a uint4 attribute per input
 * location the module reads (stream format R32G32B32A32_UINT), each of the module's input
 * variables written from it bit for bit with the variable's own type (a location may mix
 * float and integer components), the point of vertex i at the centre of pixel
 * (i % columns, i / columns) of a width x height framebuffer — or with `triangles` vertex 3p + k at corner k of pixel p's
 * triangle (X, Y), (X + 2, Y), (X, Y + 2) in window coordinates, (X, Y) its top-left
 * corner, so the triangle covers the whole pixel — and the clip/cull-distance input elements of `ps_ir`
 * (sb_rt_feeder_writes_distance) written with sb_rt_feeder_distance() (a fragment reading a
 * distance the previous stage does not write reads an undefined value); *position_register
 * receives the register of its SV_VertexID input and SV_Position output. Free with
 * sb_rt_partner_destroy().
 */
struct sb_ir_program *sb_rt_feeder_vertex_program(const struct sb_translation *ps, const struct sb_ir_program *ps_ir,
                                                  uint32_t columns, uint32_t width, uint32_t height,
                                                  bool triangles, uint32_t *position_register);

/* ---- pixel programs drawn as triangles (validate_pixel_planes.c) ------------------------- */

/** Why pixel program `ps` (one using eval_*) cannot be validated on the per-pixel triangles at
 *  `samples` samples (extra fragments in neighbouring samples it might show), else NULL. */
const char *sb_rt_pixel_triangles_refusal(const struct sb_ir_program *ps, uint32_t samples);

/** The framebuffer side a triangle draw of `n` pixels a side uses: n rounded up to a power of
 *  two, so that every triangle corner's NDC position (2 / side steps) is exact. */
uint32_t sb_rt_pixel_planes_side(uint32_t n);

/** sb_rt_draw_points of `draw` on a framebuffer of sb_rt_pixel_planes_side() of its width and
 *  height: its targets, depth and stencil arrays (draw->width x draw->height pixels) are copied
 *  into images of that size (the rest cleared: targets and stencil 0, depth 1), drawn, and their
 *  draw->width x draw->height rectangle copied back. */
enum sb_result sb_rt_pixel_planes_draw(struct sb_rt_context *context, const struct sb_rt_draw *draw,
                                       struct sb_rt_resource *resources, uint32_t resource_count,
                                       struct sb_rt_timing *timing, struct sb_error *error);

/**
 * Turns the seeded per-pixel vertex streams of the pixel feeder (`count` vertices each, one
 * per pixel, uint4 words at the pixel program's input locations) into the triangle list of
 * sb_rt_feeder_vertex_program(triangles): each stream's data is replaced by 3 x `count`
 * vertices (the old data freed). Every interpolated float lane of `ps` gets an exactly
 * representable plane, seeded from `seed`: the value at the pixel centre goes to `cpu_in`
 * (shaped by the caller, `count` records), its change per pixel right and down to `ddx` /
 * `ddy` (allocated here shaped like `cpu_in`, 0 for every other lane; the caller frees the
 * words, also on failure); every other lane keeps its seeded word on all three corners.
 * False when out of memory.
 */
bool sb_rt_pixel_planes_make(const struct sb_ir_program *ps, uint64_t seed, uint32_t count,
                             struct sb_rt_vertex_stream *streams, uint32_t stream_count,
                             struct sb_interp_registers *cpu_in, struct sb_interp_registers *ddx,
                             struct sb_interp_registers *ddy);

/** The clip/cull distance the feeder writes for pixel `vertex` (a point's vertex, every corner
 *  of a pixel's triangle) in component `component` of register `reg`:
 *  vertex / 4 + (4 * reg + component) / 64, distinct per lane and never negative (nothing is
 *  clipped or culled). */
float sb_rt_feeder_distance(uint32_t vertex, uint32_t reg, uint32_t component);

/** Whether input element `e` of a pixel program is a clip or cull distance the feeder writes. */
bool sb_rt_feeder_writes_distance(const struct sb_ir_signature_element *e);

/** The lengths of the ClipDistance and CullDistance arrays the feeder writes for `ps_ir`
 *  (its distance elements' lanes, as the back end counts them). */
void sb_rt_feeder_distance_lanes(const struct sb_ir_program *ps_ir, uint32_t *clip, uint32_t *cull);

/**
 * The capture geometry program of vertex program `vs`: stores o0..o(n-1) of each
 * point into structured UAV u`uav` at SV_PrimitiveID, records of n * 16 bytes
 * (*record_registers = n). Free with sb_rt_partner_destroy().
 */
struct sb_ir_program *sb_rt_capture_geometry_program(const struct sb_ir_program *vs, uint32_t uav,
                                                     uint32_t *record_registers);

void sb_rt_partner_destroy(struct sb_ir_program *program);

/** Whether a vertex output element reaches the capture stage (else it is not compared). */
bool sb_rt_capturable_output(const struct sb_ir_signature_element *e);

/** sb_validate for vertex and pixel programs (validate_graphics.c). */
enum sb_result sb_validate_vertex(struct sb_rt_context *context, const struct sb_rt_program *program,
                                  const struct sb_validate_options *options,
                                  struct sb_validate_report *report, struct sb_error *error);
enum sb_result sb_validate_pixel(struct sb_rt_context *context, const struct sb_rt_program *program,
                                 const struct sb_validate_options *options,
                                 struct sb_validate_report *report, struct sb_error *error);

/* ---- provided vertex streams (inputs_vertex.c) --------------------------------------------- */

/** Refuses vertex-stream entries of options->provided for a program that is not a vertex
 *  program, and two entries for one register (validate.h, sb_validate_options::provided). */
enum sb_result sb_validate_vertex_inputs_check(const struct sb_rt_program *program,
                                               const struct sb_validate_options *options, struct sb_error *error);
/** The provided stream of input register `reg` (components `mask` read by the module), if any,
 *  unpacked into `words` (count vertices x 4 words; components outside `mask`, and every word
 *  when none is provided, untouched). SB_ERROR_BAD_SIZE when it does not hold `count` vertices. */
enum sb_result sb_validate_vertex_input_fill(const struct sb_validate_options *options, uint32_t reg,
                                             uint32_t mask, uint32_t count, uint32_t *words,
                                             struct sb_error *error);
/** Refuses a provided stream for a register whose `mask` (per register, what the module reads)
 *  is empty. */
enum sb_result sb_validate_vertex_inputs_read(const struct sb_validate_options *options, const uint8_t mask[256],
                                              struct sb_error *error);

/**
 * Appends to the reason of a pixel program's DISAGREE verdict the known device defect that
 * explains it, when the evidence fits: lavapipe 22.3 drops every primitive whose vertex
 * stage writes ClipDistance[c] and CullDistance[k] with 0 < c < 4 < c + k beside other
 * outputs (tests/validate/test_lavapipe_clip_cull.c). Fits when the feeder writes such arrays
 * and the device left every render-target word at the clear value where the interpreter did
 * not. The words still count as unexplained: the run validated nothing.
 */
void sb_validate_pixel_explain(const struct sb_rt_program *program, struct sb_validate_report *report);

/* ---- geometry validation (validate_geometry*.c) ------------------------------------------- */

/** Most vertex streams the geometry feeder carries. */
#define SB_RT_GS_MAX_FEEDS 64u

/** One vertex stream of the geometry feeder VS: stream `location` copied to o`reg`.mask. */
struct sb_rt_gs_feed {
    uint32_t location;        /* the stream's (and the feeder's v#) location */
    uint32_t reg;             /* the geometry program's v# register: the feeder's o# */
    uint8_t mask;             /* components carried */
    uint32_t type;            /* enum sb_ir_type of the components */
    uint32_t system_value;    /* 0, or SV_Position (1) / clip (2) / cull (3) distance */
    const char *semantic;     /* output semantic (NULL: "ATTRIBUTE") */
    uint32_t semantic_index;
};

/** The feeder vertex program of `feeds` (at most SB_RT_GS_MAX_FEEDS); NULL when out of memory.
 *  Free with sb_rt_partner_destroy(). */
struct sb_ir_program *sb_rt_geometry_feeder_program(const struct sb_rt_gs_feed *feeds, uint32_t feed_count);

/** o# registers a geometry program's o# array holds (its signature, index ranges and direct
 *  destinations; at most 256). */
uint32_t sb_rt_geometry_output_registers(const struct sb_ir_program *gs);

/**
 * The capture copy of geometry program `gs`: the same program, emitting nothing and
 * declaring no outputs, in which every EMIT/CUT/EMIT_THEN_CUT of invocation j (= vPrim *
 * instances + vGSInstanceID) writes structured UAV u`uav`, whose records of (1 + registers)
 * x 16 bytes are grouped max + 1 per invocation (max = gs_max_output_vertices), record
 * j * (max + 1) + k for slot k:
 *   EMIT while fewer than max vertices are kept: slot k = the count so far gets the header
 *   (stream + 1, cuts since the previous kept vertex, 0, 0) and o0..o(registers-1) after it;
 *   CUT on stream s: bit s of the pending cut mask, stored at once in word 1 of the next slot.
 * So an untouched slot reads 0 (no vertex), exactly as sb_interp_geometry_results describes.
 * Temporaries r(T), r(T+1), r(T+2) (T = the program's temp count) hold the count, pending
 * cuts and base slot. NULL when out of memory or when `gs` declares u`uav` itself. Free with
 * sb_rt_geometry_capture_destroy().
 */
struct sb_ir_program *sb_rt_geometry_capture_program(const struct sb_ir_program *gs, uint32_t uav,
                                                     uint32_t registers);
void sb_rt_geometry_capture_destroy(struct sb_ir_program *program);

/** The feeds of the program `gs` (a geometry, hull or domain program reading arrayed v[n][r]):
 *  one per location its translation `t` reads per vertex (masks merged), then one per
 *  SV_Position / clip / cull input element at the next free locations; at most
 *  SB_RT_GS_MAX_FEEDS into `feeds`; returns the count (validate_geometry.c). */
uint32_t sb_rt_geometry_collect_feeds(const struct sb_translation *t, const struct sb_ir_program *gs,
                                      struct sb_rt_gs_feed *feeds);
/** Seeded R32G32B32A32 streams of `feeds` for `vertices` vertices (malloc'd data, freed by
 *  the caller), and the same words in `cpu`'s vertex records at each feed's register and
 *  lanes (cpu->words sized by the caller). False when out of memory. */
bool sb_rt_geometry_make_streams(const struct sb_rt_gs_feed *feeds, uint32_t n, uint32_t vertices,
                                 const struct sb_rt_input_options *seeding,
                                 struct sb_rt_vertex_stream *streams, struct sb_interp_registers *cpu);
/** v# registers the interpreter's vertex records of `gs` hold (its feeds and input elements). */
uint32_t sb_rt_geometry_input_registers(const struct sb_ir_program *gs, const struct sb_rt_gs_feed *feeds, uint32_t n);

/** The word kind of an IR component type (UINT, INT, else FLOAT). */
static inline uint32_t sb_rt_word_kind_of_type(uint32_t type)
{
    return type == SB_IR_TYPE_UINT ? SB_RT_WORD_UINT : type == SB_IR_TYPE_INT ? SB_RT_WORD_INT : SB_RT_WORD_FLOAT;
}

/** sb_validate for geometry programs (validate_geometry.c). */
enum sb_result sb_validate_geometry(struct sb_rt_context *context, const struct sb_rt_program *program,
                                    const struct sb_validate_options *options,
                                    struct sb_validate_report *report, struct sb_error *error);

/* ---- hull and domain validation (validate_hull.c, validate_domain.c, validate_tessellation*.c) ---- */

/** One patch-constant register the feeder hull program copies from control point 0's extra
 *  input register `source` into o`reg`.mask (validate_tessellation_partner.c). */
struct sb_rt_tess_patch_feed {
    uint32_t reg;
    uint32_t source;
    uint8_t mask;
};

/**
 * The capture copy of hull program `hs`: its last fork/join phase wrapped so that, after the
 * phase's own body, every instance stores vocp[k][r] (k < output control points, r <
 * cp_registers) and then vpc[r] (r < pc_registers) as 16-byte vectors into record vPrim of
 * structured UAV u`uav` (stride (OCP * cp_registers + pc_registers) * 16). NULL when `hs`
 * has no patch-constant phase, declares u`uav`, or memory runs out. Free with
 * sb_rt_tess_program_destroy().
 */
struct sb_ir_program *sb_rt_hull_capture_program(const struct sb_ir_program *hs, uint32_t uav,
                                                 uint32_t cp_registers, uint32_t pc_registers);
/** An empty domain program of `hs`'s domain and output control points (NULL: out of memory). */
struct sb_ir_program *sb_rt_domain_sink_program(const struct sb_ir_program *hs);
/**
 * The hull program that feeds domain program `ds`: pass-through control points (every
 * control-point input element of `ds`, read arrayed and written as outputs), one fork
 * phase copying control point 0's input register feeds[i].source to the patch constant
 * o`feeds[i].reg` for each feed, the patch-constant elements of `ds` plus `factors` (tess
 * factor elements `ds` lacks) as its outputs; `partitioning` (§8.6), point output, max
 * tess factor 64. NULL when `ds` has no control points or memory runs out.
 */
struct sb_ir_program *sb_rt_domain_feeder_hull(const struct sb_ir_program *ds,
                                              const struct sb_rt_tess_patch_feed *feeds, uint32_t feed_count,
                                              const struct sb_ir_signature_element *factors, uint32_t factor_count,
                                              uint32_t partitioning);
/**
 * The capture copy of domain program `ds`: after the program's body, an atomic add on word
 * 0 of raw UAV u`counter_uav` gives the invocation a slot; slots below `capacity` store
 * (vDomain.x, .y, .z, vPrim) and o0..o(registers-1) as the record of structured UAV u`uav`
 * (stride (1 + registers) * 16). NULL when `ds` declares either UAV or memory runs out.
 */
struct sb_ir_program *sb_rt_domain_capture_program(const struct sb_ir_program *ds, uint32_t uav, uint32_t counter_uav,
                                                  uint32_t registers, uint32_t capacity);
void sb_rt_tess_program_destroy(struct sb_ir_program *program);

/* What validate_hull.c and validate_domain.c share (validate_tessellation.c). */

/** Highest register + 1 (below 32) of the signature elements of `kind` in `file`. */
uint32_t sb_rt_tess_element_registers(const struct sb_ir_program *p, uint32_t kind, uint32_t file);
/** Word kinds of one record of `registers` vec4 registers: the lanes the elements of `kind` /
 *  `file` declare (else their container allocation) by type, the rest SB_RT_WORD_IGNORED. */
void sb_rt_tess_register_kinds(const struct sb_ir_program *p, uint32_t kind, uint32_t file, uint32_t registers,
                               uint8_t *kinds);
/** Zeroes the ignored words of both sides' records (D3D leaves them undefined). */
void sb_rt_tess_clear_ignored(uint32_t *gpu, uint32_t *cpu, const uint8_t *kinds, size_t words);
/** Appends a record resource of class `klass` (copies of `data` and `kinds`) to `in`; false on OOM. */
bool sb_rt_tess_add_records(struct sb_rt_inputs *in, uint32_t klass, size_t bytes, const void *data,
                            const uint8_t *kinds, uint32_t width, uint32_t height, uint32_t depth);
/** The interpreter's evidence (bound, origin, undefined per word; NULL: none) for the record
 *  resource last appended; a no-op without tracking; false on OOM. */
bool sb_rt_tess_track_records(struct sb_validate_report *report, size_t words, const float *bound,
                              const uint32_t *origin, const uint8_t *undefined);
/** Draws `vertices` patch-list vertices through feeder / hull / domain with the report's GPU
 *  resources and `extra` UAVs (written back into `extra`); timings add up in the report. */
enum sb_result sb_rt_tess_draw(struct sb_rt_context *context, struct sb_validate_report *report,
                               const struct sb_translation *feeder, const struct sb_translation *hull,
                               const struct sb_translation *domain, uint32_t vertices,
                               const struct sb_rt_vertex_stream *streams, uint32_t stream_count,
                               struct sb_rt_resource *extra, uint32_t extra_count, struct sb_error *error);
/** Translates generated program `p` (NULL: SB_ERROR_RUN_UNSUPPORTED with `what`) and frees it
 *  with `destroy`. */
enum sb_result sb_rt_tess_translate(struct sb_ir_program *p, void (*destroy)(struct sb_ir_program *),
                                    struct sb_translation **out, const char *what, struct sb_error *error);
/** Widens `feeds` (sb_rt_geometry_collect_feeds) to every lane of every control-point input
 *  element of `p`, adding feeds for elements it lacks (at most SB_RT_GS_MAX_FEEDS). */
void sb_rt_tess_complete_feeds(const struct sb_ir_program *p, struct sb_rt_gs_feed *feeds, uint32_t *count);


/** sb_validate for hull and domain programs (validate_hull.c, validate_domain.c). */
enum sb_result sb_validate_hull(struct sb_rt_context *context, const struct sb_rt_program *program,
                                const struct sb_validate_options *options, struct sb_validate_report *report,
                                struct sb_error *error);
/** `device_points`: the SB_VALIDATE_CLASS_DOMAIN records of an earlier device run on the
 *  same inputs, whose patches and locations a run without the device evaluates (the
 *  evidence run); NULL: the CPU tessellator's points. */
enum sb_result sb_validate_domain(struct sb_rt_context *context, const struct sb_rt_program *program,
                                  const struct sb_validate_options *options,
                                  const struct sb_rt_resource *device_points, struct sb_validate_report *report,
                                  struct sb_error *error);

/* ---- the translation fitted to the device (validate_device.c) ---------------------------- */

/**
 * When `program`'s translation declares a capability whose feature the context's device
 * lacks and the translator has a fallback for it (StorageImageReadWithoutFormat: typed u#
 * declared with the format `inputs` give their views; *ArrayNonUniformIndexing: waterfall
 * loops) or a refusal at the declaration that needs it (FragmentShaderPixelInterlockEXT,
 * FragmentFullyCoveredEXT), `*out` is the program translated
 * again for that device (`unbounded` descriptors per unbounded range; free it with
 * sb_translation_destroy); else NULL. Errors: the translator's, its
 * SB_ERROR_TRANSLATE_UNSUPPORTED (a format with no SPIR-V twin, a feature with no fallback)
 * given as SB_ERROR_RUN_UNSUPPORTED at the same offset (the device's lack: not-run),
 * SB_ERROR_OUT_OF_MEMORY.
 */
enum sb_result sb_validate_fit_device(struct sb_rt_context *context, const struct sb_rt_program *program,
                                      uint32_t unbounded, const struct sb_rt_inputs *inputs,
                                      struct sb_translation **out, struct sb_error *error);

/* ---- known device defects of fitted translations (validate_waterfall_defect.c) ------------- */

/**
 * A `disagree` of `program` (its translation: the one fitted to the device) that lavapipe's
 * waterfall-loop defect may explain gets the defect and its reproducer appended to its
 * reason (tests/validate/README.md "Known device defects"): on lavapipe without
 * shaderSampledImageArrayNonUniformIndexing, a sample of a non-uniformly indexed t# range of
 * more than 32 descriptors. The verdict and the words' counts stay.
 */
void sb_validate_waterfall_explain(struct sb_rt_context *context, const struct sb_rt_program *program,
                                   struct sb_validate_report *report);

/**
 * A `disagree` of a pixel program that lavapipe's helper-load defect may explain gets the
 * defect and its reproducer appended to its reason (tests/validate/README.md "Known device
 * defects"): on lavapipe, storage-buffer loads in helper invocations return 0, which a quad
 * read or derivative of the loaded value then sees. The verdict and the words' counts stay.
 */
void sb_validate_helper_load_explain(struct sb_rt_context *context, const struct sb_rt_program *program,
                                     struct sb_validate_report *report);

/* ---- inputs real shaders can run with (validate_retry.c) ---------------------------------- */

/** Index words a validation reseeds, at most. */
#define SB_VALIDATE_FIT_MARKS 64u

/** How the inputs of the next validation run differ from the seeded ones. */
struct sb_validate_fit {
    uint32_t unbounded;       /**< descriptors per unbounded SM5.1 range */
    uint32_t flags;           /**< SB_RT_INPUTS_* */
    uint32_t changes;         /**< SB_VALIDATE_INPUTS_* made so far */
    uint32_t mark_count;
    struct sb_rt_index_mark marks[SB_VALIDATE_FIT_MARKS]; /**< words that feed range indices */
    char first_stop[192];     /**< the message the first run stopped with (sb_error::message) */
};

/** One validation's retries: sb_validate (validate.c) runs `run` with `options` and `fit`,
 *  and again while sb_validate_retry_refit finds something to change. */
struct sb_validate_retry {
    struct sb_rt_program run;           /**< the program, with `translation` once grown */
    struct sb_validate_options options; /**< the caller's, with the inputs' changes */
    struct sb_validate_fit fit;
    const struct sb_rt_program *program;
    struct sb_translation *translation; /**< owned: the program translated for fit.unbounded */
    uint32_t translated;                /**< the count run.translation gives unbounded ranges (0: none) */
    uint32_t most_unbounded;            /**< the most descriptors an unbounded range may get */
    uint32_t retries;
};

/** Starts the retries of validating `program` with completed `options` (borrowed). */
void sb_validate_retry_init(struct sb_validate_retry *retry, const struct sb_rt_program *program,
                            const struct sb_validate_options *options);

/** Before each run: translates the program again when fit.unbounded changed; its errors. */
enum sb_result sb_validate_retry_prepare(struct sb_validate_retry *retry, struct sb_error *error);

/** After a run that failed with `r` / `error`: changes the inputs for another (validate.h says
 *  in which order) and returns true, or false when nothing more can be changed. */
bool sb_validate_retry_refit(struct sb_validate_retry *retry, enum sb_result r, const struct sb_error *error);

/** Fills the input_* fields of `report` (the last run's, NULL when it failed) and releases the
 *  retry's translation. */
void sb_validate_retry_finish(struct sb_validate_retry *retry, struct sb_validate_report *report);

/**
 * Reseeds, on both sides of `report`, the seeded words that feed relative indices into the
 * program's arrayed inputs (v[n][r], vicp, vocp) inside the arrays they index
 * (sb_rt_input_index_marks): D3D leaves a read past them undefined (the device returns some
 * element, the interpreter 0), so out-of-range seeds would validate nothing. For the
 * geometry, hull and domain harnesses (validate_retry.c). Words of
 * resources the caller provided stay theirs; with SB_RT_INPUTS_SMALL (the retry after a
 * budget stop) nothing is changed. Returns the marks applied.
 */
uint32_t sb_validate_fit_input_arrays(const struct sb_ir_program *ir, const struct sb_validate_options *o,
                                      struct sb_validate_report *report);

/** sb_rt_inputs_create with `fit`'s index words reseeded in their ranges. */
enum sb_result sb_validate_fit_inputs(const struct sb_rt_program *program, const struct sb_rt_input_options *options,
                                      const struct sb_validate_fit *fit, struct sb_rt_inputs **out,
                                      struct sb_error *error);

/* sb_rt_inputs_provide is public (validate.h): dispatches of `run` call it directly. */

/** Whether float bits `u` are a normal number (neither zero, denormal, infinite nor NaN). */
static inline bool sb_validate_is_normal(uint32_t u)
{
    uint32_t e = u & 0x7f800000u;
    return e && e != 0x7f800000u;
}

/* ---- validate_module.c: a caller's SPIR-V module on the GPU side ---- */

/** `program` with sb_validate_options::gpu_spirv as its translation (owned copies). */
struct sb_validate_module;

/**
 * Checks options->gpu_spirv (header, instruction lengths, entry point, SPIRV-Tools, the
 * bindings its descriptors use: validate.h) and builds the substitute program; *out stays
 * NULL when the options name no module. Free with sb_validate_module_destroy().
 */
enum sb_result sb_validate_module_create(const struct sb_rt_program *program, const struct sb_validate_options *options,
                                         struct sb_validate_module **out, struct sb_error *error);
/** The program the GPU side runs (IR and internals shared with the caller's program). */
const struct sb_rt_program *sb_validate_module_program(const struct sb_validate_module *module);
void sb_validate_module_destroy(struct sb_validate_module *module);

/* ---- validate_base.c ---- */
/** CLOCK_MONOTONIC in nanoseconds. */
uint64_t sb_validate_now_ns(void);

/**
 * The evidence arrays (validate.h, sb_validate_report::tracking) of resource `index` of the
 * report, `words` long and zeroed, for a stage output the graphics paths append after the
 * program's own resources; false when out of memory (or tracking is off: *bound NULL).
 */
bool sb_validate_track_resource(struct sb_validate_report *report, uint32_t index, size_t words, float **bound,
                                uint32_t **origin, uint8_t **undefined);

/* ---- wave sizes (validate_waves.c) --------------------------------------------------------- */

/** Sets o->interp.wave_lanes (unless the caller set it) to the lanes of the device's waves for
 *  `program` (sb_rt_context_wave_size; with no device side, the program's required size or
 *  SB_INTERP_WAVE_SIZE). RUN_UNSUPPORTED (not-run) when the device cannot run the program's
 *  wave size, or its subgroups have a size the interpreter has no waves of and the program
 *  uses wave ops. */
enum sb_result sb_validate_wave_lanes(struct sb_rt_context *context, const struct sb_rt_program *program,
                                      struct sb_validate_options *o, struct sb_error *error);

/** Fills `error` and returns `code`. */
enum sb_result sb_validate_fail(struct sb_error *error, enum sb_result code, const char *message);

/** Appends `extra` empty resources to `inputs` (for outputs compared like UAVs); false on OOM. */
bool sb_rt_inputs_append(struct sb_rt_inputs *inputs, uint32_t extra);

#endif
