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
 * (i % width, i / width), and the clip/cull-distance input elements of `ps_ir`
 * (sb_rt_feeder_writes_distance) written with sb_rt_feeder_distance() (a fragment reading a
 * distance the previous stage does not write reads an undefined value); *position_register
 * receives the register of its SV_VertexID input and SV_Position output. Free with
 * sb_rt_partner_destroy().
 */
struct sb_ir_program *sb_rt_feeder_vertex_program(const struct sb_translation *ps, const struct sb_ir_program *ps_ir,
                                                  uint32_t width, uint32_t height, uint32_t *position_register);

/** The clip/cull distance the feeder writes for vertex `vertex` in component `component` of
 *  register `reg`: vertex / 4 + (4 * reg + component) / 64, distinct per lane and never
 *  negative (nothing is clipped or culled). */
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

/** sb_validate for geometry programs (validate_geometry.c). */
enum sb_result sb_validate_geometry(struct sb_rt_context *context, const struct sb_rt_program *program,
                                    const struct sb_validate_options *options,
                                    struct sb_validate_report *report, struct sb_error *error);

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

/** Fills `error` and returns `code`. */
enum sb_result sb_validate_fail(struct sb_error *error, enum sb_result code, const char *message);

/** Appends `extra` empty resources to `inputs` (for outputs compared like UAVs); false on OOM. */
bool sb_rt_inputs_append(struct sb_rt_inputs *inputs, uint32_t extra);

#endif
