/* SPDX-License-Identifier: MIT */
/*
 * Internals of the CPU interpreter (shaderbridge/interp.h), shared by its
 * files (README.md lists them in call order; each calls only those below):
 *   interp_dispatch.c compute dispatch: batches of thread groups, workers;
 *   interp_graphics.c vertex and pixel batches: v#/o#/oDepth, system values;
 *   interp_geometry.c geometry batches: v[n][r] inputs, the results;
 *   interp_hull.c     hull programs: phases, per-patch records, tess factors;
 *   interp_domain.c   domain batches at given locations;
 *   interp.c          group setup, binding checks, allocation, the budget;
 *   interp_flow.c     the structured-flow walk with per-lane masks;
 *   interp_emit.c     geometry emit/cut records;
 *   interp_alu*.c     ALU ops (float, integer/bit, double);
 *   interp_quad.c     pixel quads: derivatives, discard, implicit LOD;
 *   interp_memory.c   raw/structured buffers, g#, atomics, counters;
 *   interp_eval.c     pull-model attribute evaluation (eval_*);
 *   interp_texture.c  typed loads/stores, queries;
 *   interp_sample.c   sample/gather/comparison operands, LOD, per-lane lookups;
 *   interp_filter.c   Vulkan's filtering and addressing, comparison, gather;
 *   interp_cube.c     cube face selection and seamless edges;
 *   interp_bc.c       BC1..BC7 block decoding (standalone: calls only libc);
 *   interp_tessellator.c D3D11's tessellator (libc/libm and the error setter only);
 *   interp_bind.c     the binding of a typed-resource operand;
 *   interp_operand.c  operand access: sources as per-component lane arrays,
 *                     destinations under mask, active lanes and saturate;
 *   interp_texel.c    texel formats and typed addressing;
 *   interp_nonuniform.c tracked runs: range indices that differ within a group
 *                     without NonUniformResourceIndex;
 *   interp_race.c     tracked runs: races, atomic order, uninitialised g#;
 *   interp_base.c     failures, declaration and resource-table lookup.
 *
 * Storage is structure-of-arrays: r# component c of register i is the lane
 * array temp[i * 4 + c]; an ALU op reads whole component arrays and writes a
 * whole result array before the masked store, so a source that is also the
 * destination is read before it is written, as D3D requires. When every
 * invocation writes, a result array is not copied: it trades places with the
 * register's old array, which becomes scratch (the two pools hold the same
 * number of arrays throughout).
 */
#ifndef SHADERBRIDGE_INTERP_PRIVATE_H
#define SHADERBRIDGE_INTERP_PRIVATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "shaderbridge/interp.h"
#include "translator/ir.h"

/* The lane kernels are also built for AVX2 and picked at load time where the toolchain can
 * (GCC on x86-64 Linux: ifunc); elsewhere they stay baseline. */
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__linux__)
#define SB_INTERP_KERNEL __attribute__((target_clones("avx2", "default")))
#else
#define SB_INTERP_KERNEL
#endif

/* Per-lane helpers of the lane kernels: inlined into each loop so the loop vectorizes (GCC
 * otherwise keeps a large helper out of line when two loops call it). */
#if defined(__GNUC__)
#define SB_INTERP_LANE static inline __attribute__((always_inline))
#else
#define SB_INTERP_LANE static inline
#endif

#define SB_INTERP_MAX_LANES 1024u
/* Lane arrays are whole blocks of this many lanes (the padding lanes are never active), so
 * vector loops need no scalar tail and arrays stay 16-byte aligned for doubles. */
#define SB_INTERP_LANE_BLOCK 8u
/* Filled immediate lane arrays kept between instructions (direct-mapped by value). */
#define SB_INTERP_IMM_SLOTS 256u
/* Lane arrays of scratch per instruction: sources with modifiers, gathers, results. */
#define SB_INTERP_SCRATCH_ARRAYS 96u
/* Double lane arrays per instruction (three sources of two doubles, two results). */
#define SB_INTERP_DOUBLE_ARRAYS 8u

enum interp_frame_kind { FRAME_CALL = 0, FRAME_IF = 1, FRAME_LOOP = 2, FRAME_SWITCH = 3 };

/* One open construct. `keep` are the lanes that resume after it (ENDIF,
 * ENDLOOP exit, ENDSWITCH, return from a call); `wait` are lanes parked for
 * later inside it (IF: the else lanes; LOOP: the lanes still iterating;
 * SWITCH: lanes whose case label has not come yet). */
struct interp_frame {
    uint32_t kind;
    uint32_t function;   /* function the construct is in (CALL: the caller) */
    uint32_t pc;         /* IF/LOOP/SWITCH: its marker; CALL: the caller's CALL instruction */
    uint32_t resume;     /* where to go when no lane is active */
    uint8_t *keep, *wait; /* one allocation of 2 * lanes bytes, kept for reuse */
    uint32_t *target;    /* SWITCH: the label position each lane enters at (lazily allocated) */
};

struct interp_function {
    uint32_t *match;     /* per instruction: the partner marker (see interp_flow.c) */
    uint32_t depth;      /* deepest nesting */
};

/* A resource found for one operand (NULL data where absent). */
struct interp_binding {
    struct sb_rt_resource *rt;
    const struct sb_ir_resource *decl;
};

struct interp_state {
    const struct sb_ir_program *program;
    struct sb_rt_resource *resources;
    uint32_t resource_count;
    uint32_t lanes;                  /* lanes per array: the invocations rounded up to SB_INTERP_LANE_BLOCK;
                                        the padding lanes are never active */
    uint32_t invocations;            /* invocations in the current batch (lanes 0..invocations-1) */
    uint32_t group_size;             /* compute: invocations per thread group (a batch holds whole groups) */
    uint32_t wave_lanes;             /* lanes per wave (sb_interp_options::wave_lanes; interp_wave.c) */

    uint32_t temp_count;
    uint32_t *temp_pool;             /* the memory of temp_count * 4 arrays (freed from here) */
    uint32_t **temp;                 /* [temp * 4 + component]: the lane array now holding it */
    uint32_t **xtemps;               /* per x# id: [element][4][lanes] or NULL */
    uint32_t *xtemp_count;           /* per x# id: elements */
    uint32_t xtemp_ids;
    uint32_t **gsm;                  /* per group_shared entry: DWORDs */
    uint32_t *gsm_dwords;
    uint32_t *special;               /* [4 files][4][lanes]: thread ids */

    uint8_t *active;                 /* 1 = lane runs */
    uint32_t active_count;

    struct interp_function *functions;
    struct interp_frame *frames;
    uint32_t frame_count, frame_capacity; /* masks are allocated the first time a depth is used */

    uint32_t *scratch_pool;          /* the memory of SB_INTERP_SCRATCH_ARRAYS arrays */
    uint32_t *scratch[SB_INTERP_SCRATCH_ARRAYS]; /* the arrays now free for scratch use */
    uint32_t scratch_used;           /* arrays handed out for the current instruction */
    double *double_pool;             /* SB_INTERP_DOUBLE_ARRAYS arrays of `lanes` doubles */
    uint32_t double_used;
    uint32_t *imm_arrays;            /* SB_INTERP_IMM_SLOTS arrays of `lanes` words */
    uint32_t imm_value[SB_INTERP_IMM_SLOTS];
    uint64_t imm_stamp[SB_INTERP_IMM_SLOTS]; /* 0 = empty; else the instruction count that filled or used it */
    const struct sb_ir_operand *bind_op; /* the operand whose range indices bind_index holds */
    const uint32_t *bind_index;      /* per-lane SM5.1 range indices, for this instruction */

    /* Vertex and pixel programs (interp_graphics.c); unused (NULL / 0) by compute. */
    uint32_t stage;                  /* enum sb_ir_stage */
    bool quad;                       /* pixel batch: lanes 4q..4q+3 are one 2x2 quad */
    uint32_t in_regs, out_regs;      /* v# / o# registers held */
    const uint32_t *out_words;       /* the caller's outputs->words (tracked output bounds follow its layout) */
    uint32_t *io_in, *io_out;        /* [reg * 4 + c][lanes] */
    /* Pixel batches with attribute planes (sb_interp_options::input_ddx/_ddy): per v# word
     * its change per pixel right / down as floats, 0 for constant inputs; NULL without planes. */
    uint32_t *io_ddx, *io_ddy;
    uint32_t samples;                /* pixel batches: the render target's samples (>= 1) */
    /* Sample-frequency pixel batches: per lane, float bits of its sample's offset from the pixel
     * centre, which its sample-interpolated inputs were moved by; NULL at pixel frequency. */
    uint32_t *sample_dx, *sample_dy;
    uint32_t *depth;                 /* oDepth lanes */
    uint32_t *coverage;              /* oMask lanes (pixel batches; 0xFFFFFFFF until written) */
    uint32_t *stencil_ref;           /* oStencilRef lanes (pixel batches; 0 until written) */
    uint8_t *helper;                 /* 1 = helper lane (pixel batches) */
    uint8_t *discarded;              /* 1 = the lane executed DISCARD */
    /* Geometry batches (interp_geometry.c); 0 / NULL elsewhere. io_in then holds
     * [(vertex * in_regs + reg) * 4 + c][lanes] for in_vertices vertices per lane. */
    uint32_t in_vertices;
    struct interp_geometry *geometry; /* where EMIT/CUT record, per lane's invocation */
    /* Hull and domain batches (interp_hull.c, interp_domain.c); 0 / NULL elsewhere. io_in holds
     * the patch's input control points as a geometry batch holds vertices (in_vertices). */
    uint32_t *io_ocp;                /* vocp: [(point * ocp_regs + reg) * 4 + c][lanes] */
    uint32_t ocp_points, ocp_regs;
    uint32_t *io_patch;              /* vpc#: [reg * 4 + c][lanes]; a hull run's is its io_out */
    uint32_t patch_regs;
    uint32_t phase_id_file;          /* the SB_IR_FILE_* id x of special[2] holds (vOutputControlPointID,
                                        vForkInstanceID, vJoinInstanceID); 0: none */
    bool domain_point;               /* vDomain in special[3] */
    uint32_t entry_function;         /* the function sb_interp_flow_run starts in (a hull phase) */

    uint64_t budget, executed;
    int32_t approx_ulps;             /* sb_interp_options::approx_ulps */
    uint32_t view_index;             /* sb_interp_options::view_index (vViewID) */
    uint32_t shading_rate;           /* sb_interp_options::shading_rate (pixel SV_ShadingRate) */
    struct sb_interp_tracking *track; /* sb_interp_options::tracking when it asks for something, else NULL */
    struct interp_precision *prec;   /* the precision companions of a tracked run, else NULL */
    struct interp_race *race;        /* the undefined-behaviour detector (interp_race.c) when tracking asks
                                        for it, else NULL: every access site tests this once */
    struct interp_nonuniform *nonuniform; /* the non-uniform range index check (interp_nonuniform.c) of a
                                        tracked run whose program indexes a range without the flag,
                                        else NULL: the two range-binding sites test this once */
    struct sb_interp_stats stats;
    const struct sb_ir_instruction *inst; /* being executed (errors) */
    struct sb_error *error;
    enum sb_result result;
};

/* The bit views every lane array is read through: F = a word as float, U = a float's word,
 * B = a comparison result (all ones for true, as D3D and the IR give it). */
static inline float F(uint32_t u)
{
    float f;
    memcpy(&f, &u, 4);
    return f;
}

static inline uint32_t U(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

static inline uint32_t B(bool b)
{
    return b ? 0xFFFFFFFFu : 0;
}

/* The results being filled, and which invocation lane 0 of the batch is. */
struct interp_geometry {
    struct sb_interp_geometry_results *results;
    uint32_t max;          /* the program's gs_max_output_vertices */
    uint32_t first;        /* invocation of lane 0 */
};

/* ---- interp.c ---------------------------------------------------------------------------- */
/**
 * What an entry point runs: *program itself, or, for a PICA program not yet lowered (a
 * caller of the public API may hand sb_ir_from_pica's result), its sb_ir_pica_lower rewrite,
 * stored in *owned (the caller frees it with sb_ir_program_destroy after the run) and put in
 * *program. Once per entry call, never per batch or thread. Errors: the lowering's (`stats`,
 * when given, is zeroed then).
 */
enum sb_result sb_interp_lower(const struct sb_ir_program **program, struct sb_ir_program **owned,
                               struct sb_interp_stats *stats, struct sb_error *error);

/** Zeroes `s` and fills what every stage's run starts from: the program, the resource table,
 *  `lanes` rounded up to SB_INTERP_LANE_BLOCK, and the budget and approx_ulps of `options`
 *  (NULL: the defaults). */
void sb_interp_state_init(struct interp_state *s, const struct sb_ir_program *program,
                          struct sb_rt_resource *resources, uint32_t resource_count, uint32_t lanes,
                          const struct sb_interp_options *options, struct sb_error *error);
/** Checks bindings and allocates the state for s->lanes lanes (compute and graphics). */
enum sb_result sb_interp_setup(struct interp_state *s);
/** Frees what sb_interp_setup allocated. */
void sb_interp_release(struct interp_state *s);
/** Zeroes registers, x#, g# and scratch, and activates the first s->invocations lanes. */
void sb_interp_clear(struct interp_state *s);
/** Copies record i of `r` into lane `l` of the [reg * 4 + c][lanes] arrays `lanes` (to_lanes),
 *  or back; copying back into the run's outputs (s->out_words) also records their bounds in
 *  tracking->output_bound / _origin when those exist (vertex, pixel and domain runs). */
void sb_interp_copy_registers(const struct interp_state *s, uint32_t *lanes, uint32_t l,
                              const struct sb_interp_registers *r, uint32_t i, bool to_lanes);
/** Registers a lane holds for signature elements of `kind` in `file`: `given` (the caller's
 *  records), or more where the program declares a higher register (below 4096). */
uint32_t sb_interp_signature_registers(const struct sb_ir_program *p, uint32_t kind, uint32_t file, uint32_t given);
/** Lane `l` of io_in (s->in_vertices points of s->in_regs registers) from records first ..
 *  first + points - 1 of `r`; points past `points` and registers past r->registers read 0. */
void sb_interp_load_points(struct interp_state *s, uint32_t l, const struct sb_interp_registers *r, size_t first,
                           uint32_t points);

/* ---- interp_wave.c ----------------------------------------------------------------------- */
/** Most lanes in one wave (sb_interp_options::wave_lanes): D3D's largest wave, the four
 *  words of a ballot. Every wave size is a power of two from 4 (one quad) to this. */
#define SB_INTERP_WAVE_MAX_LANES 128u
/** Is `lanes` a wave size the interpreter runs (0 excluded)? */
bool sb_interp_wave_lanes_valid(uint32_t lanes);
/** Runs a wave or quad op (IR.md §Waves) over the batch's waves; UNSUPPORTED unrecorded for
 *  other ops. */
enum sb_result sb_interp_wave(struct interp_state *s, const struct sb_ir_instruction *inst);

/* ---- interp_sysvals.c -------------------------------------------------------------------- */
/** Lanes of vViewID (graphics batches) or vHelperLane (pixel batches) into `out` (s->lanes
 *  words); false when the batch has no such value. */
bool sb_interp_sysval_lanes(const struct interp_state *s, uint32_t file, uint32_t *out);
/** The value a pixel run gives a v# element of system value SV_Barycentrics (23) or
 *  SV_ShadingRate (24) in v[0..3]; false (v untouched) for other system values. */
bool sb_interp_sysval_pixel_input(const struct interp_state *s, uint32_t system_value, uint32_t v[4]);
/** Whether `rate` is a D3D12_SHADING_RATE (sb_interp_options::shading_rate). */
bool sb_interp_sysval_rate_valid(uint32_t rate);

/* ---- interp_quad.c ----------------------------------------------------------------------- */
/** Whether the batch's lanes form quads: pixel batches, and compute batches of a program with
 *  sb_ir_program::compute_derivatives (the group's quads as D3D forms them). */
bool sb_interp_has_quads(const struct interp_state *s);
/** deriv_rt{x,y}[_coarse|_fine] across each quad of a pixel or compute batch. */
enum sb_result sb_interp_derivative(struct interp_state *s, const struct sb_ir_instruction *inst);
/** DISCARD: marks the active lanes whose condition holds; they run on as helpers. */
enum sb_result sb_interp_discard(struct interp_state *s, const struct sb_ir_instruction *inst);
/**
 * Implicit LOD of each lane of a pixel batch (Vulkan: log2 of the larger scaled derivative
 * length; the quad's coarse differences, as lavapipe computes per quad) as float bits, from
 * coordinate arrays coord[0..axes-1] and level-0 extents; with ddx/ddy (sample_d), from those.
 * `anisotropic` (NULL: not wanted) gets 1 for a lane whose x and y footprints differ in length,
 * where an anisotropic sampler would take more than one sample.
 */
void sb_interp_implicit_lod(const struct interp_state *s, const uint32_t *const coord[3], uint32_t axes,
                            const uint32_t size[3], const uint32_t *const ddx[3],
                            const uint32_t *const ddy[3], uint32_t *lod, uint32_t *anisotropic);

/* ---- interp_emit.c ----------------------------------------------------------------------- */
/** EMIT / CUT / EMIT_THEN_CUT of the active lanes of a geometry batch (UNSUPPORTED elsewhere). */
enum sb_result sb_interp_geometry_emit(struct interp_state *s, const struct sb_ir_instruction *inst);

/* ---- interp_flow.c ----------------------------------------------------------------------- */
/** Precomputes the marker partners of every function. */
enum sb_result sb_interp_flow_prepare(struct interp_state *s);
/** Runs s->entry_function (0: the entry body) for the current batch (all lanes active at start). */
enum sb_result sb_interp_flow_run(struct interp_state *s);

/* ---- interp_operand.c -------------------------------------------------------------------- */
/** A fresh scratch lane array (lanes words); NULL (recorded) when the pool is used up. */
uint32_t *sb_interp_scratch(struct interp_state *s);
/**
 * Lane arrays of the source lanes `mask` selects: out[c] for each c in mask
 * is lane `swizzle[c]` of the operand, in `type` (enum sb_ir_type; modifiers
 * applied in that view). Returns false (recorded) on failure.
 */
bool sb_interp_load(struct interp_state *s, const struct sb_ir_operand *op, uint32_t mask, uint32_t type,
                    const uint32_t *out[4]);
/** A fresh array of `lanes` doubles; NULL (recorded) when used up. */
double *sb_interp_scratch_double(struct interp_state *s);
/** As sb_interp_load for lanes 0..n-1 taking swizzle[0..n-1] (out[0..n-1]). */
bool sb_interp_load_n(struct interp_state *s, const struct sb_ir_operand *op, uint32_t n, uint32_t type,
                      const uint32_t *out[4]);
/** One lane array: swizzle[0] (scalar operands, relative indices). */
const uint32_t *sb_interp_load_scalar(struct interp_state *s, const struct sb_ir_operand *op,
                                      uint32_t type);
/** Per-lane values of an index (`offset + relative`); NULL (recorded) on failure. */
const uint32_t *sb_interp_index(struct interp_state *s, const struct sb_ir_index *index);
/** Doubles: out[k][l] for k < n from the lane pair at swizzle[k], modifiers applied. */
bool sb_interp_load_double(struct interp_state *s, const struct sb_ir_operand *op, uint32_t n,
                           double *out[2]);
/**
 * Stores value[c] (lane arrays; c in `mask`) to `dst` for the active lanes,
 * saturating when `type` is FLOAT and the instruction saturates.
 */
bool sb_interp_store(struct interp_state *s, const struct sb_ir_operand *dst, uint32_t mask,
                     const uint32_t *const value[4], uint32_t type);
/** Stores one lane array replicated into every lane of dst's mask. */
bool sb_interp_store_replicated(struct interp_state *s, const struct sb_ir_operand *dst,
                                const uint32_t *value, uint32_t type);
/** Stores `n` doubles to the pairs of dst's mask in order. */
bool sb_interp_store_double(struct interp_state *s, const struct sb_ir_operand *dst, double *const value[2],
                            uint32_t n);

/* ---- interp_alu*.c ----------------------------------------------------------------------- */
/** Runs an ALU op; UNSUPPORTED unrecorded when `op` is none. */
enum sb_result sb_interp_alu(struct interp_state *s, const struct sb_ir_instruction *inst);
enum sb_result sb_interp_alu_int(struct interp_state *s, const struct sb_ir_instruction *inst);
enum sb_result sb_interp_alu_double(struct interp_state *s, const struct sb_ir_instruction *inst);
/**
 * The start of an op on 64-bit values (interp_alu_double.c, interp_alu_int64.c): checks for
 * one destination and `srcs` sources and counts the values written: lane pairs of the mask
 * (`pairs`, 64-bit results) or its lanes (32-bit results, at most two, else a failure is
 * recorded). 0 when there is nothing to write or on failure (s->result says which).
 */
uint32_t sb_interp_wide_count(struct interp_state *s, const struct sb_ir_instruction *in, uint32_t srcs, bool pairs);
enum sb_result sb_interp_alu_int64(struct interp_state *s, const struct sb_ir_instruction *inst);

/* ---- interp_memory.c --------------------------------------------------------------------- */
/** Raw/structured loads and stores, atomics, counters; UNSUPPORTED unrecorded otherwise. */
enum sb_result sb_interp_memory(struct interp_state *s, const struct sb_ir_instruction *inst);

/* ---- interp_atomic64.c ------------------------------------------------------------------- */
/** imm_atomic64_* on raw/structured u#; UNSUPPORTED unrecorded for other ops. */
enum sb_result sb_interp_atomic64(struct interp_state *s, const struct sb_ir_instruction *inst);

/* ---- interp_texel.c ---------------------------------------------------------------------- */
/** Lane view of a typed resource's texels from its declaration (FLOAT, INT or UINT). */
uint32_t sb_interp_value_type(const struct sb_ir_resource *decl);
/** Decodes one texel of `format` into four 32-bit lanes (missing: 0, alpha 1). */
void sb_interp_texel_decode(uint32_t format, const uint8_t *texel, uint32_t out[4]);
/** Encodes four lanes into one texel of `format`. */
void sb_interp_texel_encode(uint32_t format, const uint32_t in[4], uint8_t *texel);
/** Float bits -> half bits, rounding to nearest even (PackHalf2x16 of one lane). */
uint32_t sb_interp_half_from_float(uint32_t f);
/** Half bits (low 16) -> float bits, exact. */
uint32_t sb_interp_float_from_half(uint32_t h);
/** Does the interpreter know this texel format? */
bool sb_interp_format_known(uint32_t format);
/** One step of a normalized fixed-point colour format (1 / (2^n - 1) unorm and sRGB (of the
 *  encoded value), 1 / (2^(n-1) - 1) snorm, n the first channel's bits); 0 for float, integer,
 *  BC and depth formats. */
float sb_interp_format_step(uint32_t format);
/** Is this an sRGB format (r8g8b8a8 / b8g8r8a8 _unorm_srgb; not the BC ones)? */
bool sb_interp_format_srgb(uint32_t format);
/** Is this a block-compressed (BCn) format, stored in 4x4 blocks and never written? */
bool sb_interp_format_block(uint32_t format);
/**
 * Texel (x, y) of the storage unit at `unit` (from sb_interp_texel_address) as four lanes:
 * sb_interp_texel_decode for texel formats; for BC formats the block is decoded and texel
 * (x mod 4, y mod 4) picked, with the sRGB curve after decoding for the _SRGB ones.
 */
void sb_interp_texel_read(uint32_t format, const uint8_t *unit, int32_t x, int32_t y, uint32_t out[4]);
/** Is each channel of this format one 32-bit word (R32*, D32)? */
bool sb_interp_format_words(uint32_t format);
/**
 * Address of texel (x, y, z, layer) of level `mip` (for BC formats, of the 4x4 block holding
 * it: read it with sb_interp_texel_read); NULL when outside the resource. Coordinates are
 * signed: anything negative is outside.
 */
uint8_t *sb_interp_texel_address(const struct sb_rt_resource *r, int32_t x, int32_t y, int32_t z,
                                 int32_t layer, int32_t mip);
/**
 * Address of sample `sample` of texel (x, y, layer) of a multisampled texture (resources.h: each
 * texel's samples in a row, sample 0 first); NULL outside the texture or its sample count.
 */
uint8_t *sb_interp_sample_address(const struct sb_rt_resource *r, int32_t x, int32_t y, int32_t layer,
                                  int32_t sample);
/** Extent of level `mip` along axis 0/1/2 (>= 1). */
uint32_t sb_interp_level_extent(const struct sb_rt_resource *r, uint32_t axis, uint32_t mip);

/* ---- interp_eval.c ----------------------------------------------------------------------- */
/** eval_snapped / eval_sample_index / eval_centroid; UNSUPPORTED unrecorded for other ops. */
enum sb_result sb_interp_eval(struct interp_state *s, const struct sb_ir_instruction *inst);

/* ---- interp_texture.c -------------------------------------------------------------------- */
/** Typed loads/stores, sampling and queries; UNSUPPORTED unrecorded otherwise. */
enum sb_result sb_interp_texture(struct interp_state *s, const struct sb_ir_instruction *inst);

/* ---- interp_sample.c --------------------------------------------------------------------- */
/** sample/gather; UNSUPPORTED unrecorded otherwise. */
enum sb_result sb_interp_sample(struct interp_state *s, const struct sb_ir_instruction *inst);

/* ---- interp_bind.c ----------------------------------------------------------------------- */
/** Typed-resource binding of a t#/u# operand (uniform index); false (recorded) when missing. */
bool sb_interp_bind(struct interp_state *s, const struct sb_ir_operand *op, uint32_t lane,
                    struct interp_binding *out);
/** sb_interp_bind with the operand's per-lane range indices computed by the caller
 *  (sb_interp_index of op->index[1]; NULL: as sb_interp_bind), for an instruction that binds
 *  several relatively indexed operands lane by lane without recomputing them. */
bool sb_interp_bind_indexed(struct interp_state *s, const struct sb_ir_operand *op, const uint32_t *index,
                            uint32_t lane, struct interp_binding *out);

/* ---- interp_filter.c --------------------------------------------------------------------- */
/** One lane's view of a sampled texture. */
struct interp_lookup {
    const struct sb_rt_resource *r;
    const struct sb_rt_sampler *smp;
    uint32_t axes;   /* 1, 2 or 3 (cubes: 2, the face's) */
    int32_t layer;   /* array layer (cubes: the cube's first face layer, 6 x cube) */
    int32_t face;    /* cubes: the face 0..5 (+X -X +Y -Y +Z -Z); -1 for other textures */
    bool compare;    /* comparison forms: each texel becomes 1.0 / 0.0 by `ref compare_op red` */
    float ref;
    bool *corner;    /* set (when not NULL) if a cube corner texel was made up (Vulkan leaves it open) */
    float min_lod;   /* the instruction's `_cl` clamp, a floor beside the sampler's min_lod; -inf: none */
};
/** Filtered texel (four floats) at normalized `coord` with integer texel `offset` and `lod`. */
void sb_interp_filter_sample(const struct interp_lookup *k, const float *coord, const int32_t *offset, float lod,
                             float out[4]);
/** gather: channel `ch` of level 0's 2x2 footprint as raw lanes, in D3D's order. */
void sb_interp_filter_gather(const struct interp_lookup *k, const float *coord, const int32_t *offset, uint32_t ch,
                             uint32_t out[4]);

/* ---- interp_cube.c ----------------------------------------------------------------------- */
/** The face (0..5 = +X -X +Y -Y +Z -Z) a direction selects. */
uint32_t sb_interp_cube_face(const float dir[3]);
/** Face coordinates s, t in [0, 1] of `dir` on `face`. */
void sb_interp_cube_coords(uint32_t face, const float dir[3], float st[2]);
/** Derivative of (s, t) on `face` along a derivative `d` of the direction. */
void sb_interp_cube_derivatives(uint32_t face, const float dir[3], const float d[3], float dst[2]);
/**
 * Seamless edges: texel (i, j) of *face (size x size; each coordinate at most one step
 * off the face) becomes a texel of the face it lies on; false for a corner (off both edges).
 */
bool sb_interp_cube_texel(uint32_t *face, int32_t size, int32_t *i, int32_t *j);

/* ---- interp_bc.c (standalone: calls nothing but libc) ---------------------------------------- */
/** Block-compressed formats sb_interp_bc_decode knows (DXGI's BCn _UNORM/_SNORM/_UF16/_SF16). */
enum sb_interp_bc_format {
    SB_INTERP_BC1 = 1,    /* BC1 with 1-bit alpha: three-colour blocks give transparent black */
    SB_INTERP_BC2 = 2,
    SB_INTERP_BC3 = 3,
    SB_INTERP_BC4_UNORM = 4,
    SB_INTERP_BC4_SNORM = 5,
    SB_INTERP_BC5_UNORM = 6,
    SB_INTERP_BC5_SNORM = 7,
    SB_INTERP_BC6H_UF16 = 8,
    SB_INTERP_BC6H_SF16 = 9,
    SB_INTERP_BC7 = 10,
};
/**
 * Decodes one 4x4 block (8 bytes for BC1/BC4, else 16; block_bytes may be larger, never
 * read past) into texels[row * 4 + column] = RGBA float bits: unorm in [0, 1], snorm in
 * [-1, 1], BC6H the decoded half as a float (SF16 can give -inf, nothing else infinite),
 * missing channels 0 (G, B) and 1 (A). False for a short block or an unknown format
 * (texels then unspecified); reserved modes decode to what D3D gives.
 */
bool sb_interp_bc_decode(uint32_t bc_format, const uint8_t block[], size_t block_bytes, uint32_t texels[16][4]);

/* ---- interp_tessellator.c (calls nothing but libc/libm and the error setter) -------------- */
/* D3D11's fixed-function tessellator (README.md "Tessellator"); the domain, partitioning and
 * primitive enums, the input and output structs and sb_interp_tess_release are public
 * (interp.h). The enum values are the SM5 declaration tokens', so a decoded declaration
 * passes straight through. */
/**
 * D3D11's factor processing for one patch (clamping to the partitioning's range and the
 * max, rounding, culling, the inside-factor-1 rule) into `out`, as sb_interp_tessellate
 * places points by. False, with `out` zeroed, for an unknown domain or partitioning.
 */
bool sb_interp_tess_process(const struct sb_interp_tess_input *in, struct sb_interp_tess_factors *out);
/**
 * Tessellates one patch by D3D11's rules into `out` (overwritten; release it even after a
 * culled patch). False, with `out` empty, for an unknown domain/partitioning/primitive, a
 * primitive the domain cannot give (lines from tri/quad, triangles from isolines), or
 * out of memory.
 */
bool sb_interp_tessellate(const struct sb_interp_tess_input *in, struct sb_interp_tess_output *out);

/* ---- interp_precision.c ------------------------------------------------------------------ */
/* A region of lane arrays with companions: per word, a bound and an origin (interp_precision.c). */
struct interp_bound_pool {
    const uint32_t *base;
    size_t words;
    float *bound;
    uint32_t *origin;
    uint8_t *valid;          /* per lane array: 0 = exact (its bound words are stale) */
    size_t arrays;
};

/** Companion of a lane array (or of one word inside a pool). */
struct interp_companion {
    float *bound;
    uint32_t *origin;
};

#define SB_INTERP_PRECISION_SOURCES 16u

struct interp_precision {
    struct interp_bound_pool *pools;
    uint32_t pool_count, pool_capacity;
    /* The running instruction's sources with companions; which lanes are inexact is worked
     * out from them only when an operation without a rule needs it. */
    struct interp_companion sources[SB_INTERP_PRECISION_SOURCES];
    uint32_t source_count;
    bool sources_overflow;
    bool inexact_known;
    uint8_t *in_inexact;     /* per lane: a source of this instruction carries a nonzero bound */
    bool any_inexact;
    bool bounds_set;         /* the running instruction wrote its results' companions */
    uint32_t origin_hint;    /* an origin among this instruction's inexact sources */
    bool origins;            /* sb_interp_tracking::origins: keep the hot kernels' origins too */
    float *zeros;            /* `lanes` zero bounds and no-origins, for exact sources */
    uint32_t *no_origin;
    uint8_t *tainted;        /* per lane: branched on a precision-sensitive condition */
    bool any_tainted;
    uint32_t taint_origin;
    float **gsm_bound;       /* per g# entry: per DWORD */
    uint32_t **gsm_origin;
};

/** Allocates the companions of a tracked run (after the state's arrays exist). */
enum sb_result sb_interp_precision_setup(struct interp_state *s);
/** Adds companions for lane arrays allocated later (o#, oDepth); nothing when untracked. */
enum sb_result sb_interp_precision_add_pool(struct interp_state *s, const uint32_t *base, size_t words);
void sb_interp_precision_release(struct interp_state *s);
/** Zeroes every bound (a new batch). */
void sb_interp_precision_clear(struct interp_state *s);
/** The companion of `array` (false: not computed into, or exact). */
bool sb_interp_companion(const struct interp_state *s, const uint32_t *array, struct interp_companion *out);
/** The companion of `array` to write: `whole` when the caller writes every lane, else the
 *  lanes it leaves keep their bounds (0 if the array was exact). False: not in a pool. */
bool sb_interp_companion_write(struct interp_state *s, const uint32_t *array, struct interp_companion *out,
                               bool whole);
/** Whether lane `l` of the running instruction read an inexact source; and one origin. */
bool sb_interp_precision_inexact(struct interp_state *s, uint32_t l);
uint32_t sb_interp_precision_hint(struct interp_state *s);
/** Per instruction: forget the previous one's sources. */
void sb_interp_precision_begin(struct interp_state *s);
/** An array handed out or overwritten without a rule: exact until something says otherwise. */
void sb_interp_precision_fresh(struct interp_state *s, const uint32_t *array);
/** A source array the running instruction reads. */
void sb_interp_precision_note_source(struct interp_state *s, const uint32_t *array);
/** `to` gets `from`'s companion unchanged (modifiers). */
void sb_interp_precision_copy(struct interp_state *s, const uint32_t *from, const uint32_t *to);
/** A destination write of `from` into `to` (all lanes, or the active ones): the result's
 *  companion, or the generic rule when the operation has none; tainted lanes INFINITY. */
void sb_interp_precision_write(struct interp_state *s, const uint32_t *to, const uint32_t *from, bool all);
/** The same for one word of a pool (relative x#/o# writes), from lane `l` of `from`. */
void sb_interp_precision_write_word(struct interp_state *s, const uint32_t *word, const uint32_t *from, uint32_t l);
/** Lane `l` of `out` read from `word` of a pool (relative reads); INFINITY when `index` (the
 *  per-lane index array, or NULL) is inexact. */
void sb_interp_precision_read_word(struct interp_state *s, const uint32_t *out, uint32_t l, const uint32_t *word,
                                   const uint32_t *index);
/** The bound arrays of UAV or g# memory starting at `bytes`, if tracked. */
bool sb_interp_precision_memory(const struct interp_state *s, const uint8_t *bytes, struct interp_companion *out);
/** An address computed from a and b (either NULL): INFINITY where they are inexact. */
void sb_interp_precision_address(struct interp_state *s, const uint32_t *address, const uint32_t *a,
                                 const uint32_t *b);
/** What a raw/structured load or store keeps between its lanes (looked up once). */
struct interp_access_track {
    const float *address;            /* bounds of the DWORD addresses, or NULL when exact */
    const uint32_t *address_origin;
    struct interp_companion memory;  /* the memory's bounds, when `have_memory` */
    bool have_memory;
    const uint32_t *lanes[4];        /* per component: the result (load) or value (store) array */
    struct interp_companion value[4];
    bool open[4];                    /* load: result companion opened; store: value companion found */
};
/** Starts a load into result[c] (or a store of value[c]: `store`) at `address`. */
void sb_interp_precision_access_begin(struct interp_state *s, struct interp_access_track *t,
                                      const uint32_t *const lanes[4], const uint32_t *address, bool store);
/** Lane `l` of component `c` loaded from memory word `word` (`in_bounds` false: read 0). */
void sb_interp_precision_load_lane(struct interp_state *s, struct interp_access_track *t, uint32_t c, uint32_t l,
                                   bool in_bounds, uint32_t word);
/** Memory word `word` stored from lane `l` of component `c`. */
void sb_interp_precision_store_lane(struct interp_state *s, struct interp_access_track *t, uint32_t c, uint32_t l,
                                    uint32_t word);
/** Sets a memory word's bound directly (atomics). */
void sb_interp_precision_set(struct interp_state *s, const struct interp_companion *memory, uint32_t word, float b,
                             uint32_t origin);
/** A branch on `condition`: active lanes whose condition is inexact are tainted. */
void sb_interp_precision_branch(struct interp_state *s, const uint32_t *condition);
/** Result companions of the float ALU (interp_alu.c), conversions and doubles. */
void sb_interp_precision_lanewise(struct interp_state *s, uint32_t op, const uint32_t *a, const uint32_t *b,
                                  const uint32_t *c, const uint32_t *r);
void sb_interp_precision_movc(struct interp_state *s, const uint32_t *cond, const uint32_t *b, const uint32_t *c,
                              const uint32_t *r);
void sb_interp_precision_dot(struct interp_state *s, const uint32_t *const a[4], const uint32_t *const b[4],
                             uint32_t size, bool homogeneous, const uint32_t *r);
void sb_interp_precision_sincos(struct interp_state *s, const uint32_t *a, const uint32_t *r);
void sb_interp_precision_to_integer(struct interp_state *s, uint32_t op, const uint32_t *a, const uint32_t *r);
/** A typed store of `words` 32-bit words at memory word `word` (`exact_format`: one float or
 *  integer channel per word, so bounds carry; otherwise a conversion: INFINITY if inexact). */
void sb_interp_precision_texel_stored(struct interp_state *s, const struct interp_companion *memory, uint32_t word,
                                      uint32_t words, bool exact_format, const uint32_t *const value[4], uint32_t l,
                                      const uint32_t *const coords[4]);
/** A typed load into lane `l` of result[0..3] from the texel at `word` (`have`: tracked). */
void sb_interp_precision_texel_loaded(struct interp_state *s, uint32_t *const result[4], uint32_t l,
                                      const struct interp_companion *memory, bool have, uint32_t word,
                                      uint32_t words, bool exact_format, const uint32_t *const coords[4]);
/** The bound and origin of one o# lane word, into an output record's arrays. */
void sb_interp_precision_output(const struct interp_state *s, const uint32_t *word, float *bound, uint32_t *origin);
void sb_interp_precision_double(struct interp_state *s, uint32_t op, const uint32_t *lo, const uint32_t *hi);

/* ---- interp_track.c ---------------------------------------------------------------------- */
/** Makes `t` (may be NULL) the run's tracking and allocates its per-resource arrays the first
 *  time (a run's later batches keep them). */
enum sb_result sb_interp_track_begin(struct interp_state *s, struct sb_interp_tracking *t);
/** Allocates the tracking's output arrays for `words` output words (vertex and pixel runs). */
enum sb_result sb_interp_track_outputs(struct interp_state *s, size_t words);

/* ---- interp_nonuniform.c ---------------------------------------------------------------- */
/* Runs only when s->nonuniform is set (tracking->undefined and a range indexed without the flag). */
/** Finds the program's sites (after sb_interp_race_begin); leaves s->nonuniform NULL when none. */
enum sb_result sb_interp_nonuniform_begin(struct interp_state *s);
/** The range operand `op` of s->inst is bound with per-lane range indices `index` (relative to
 *  the range's lower bound): records SB_INTERP_UNDEFINED_NON_UNIFORM_INDEX and taints the group
 *  when active lanes of one invocation group differ. Any operand may be passed (not a site: no-op);
 *  repeated calls for one execution of the instruction check once. */
void sb_interp_nonuniform_check(struct interp_state *s, const struct sb_ir_operand *op, const uint32_t *index);
/** Frees and clears s->nonuniform (NULL: nothing). */
void sb_interp_nonuniform_finish(struct interp_state *s);

/* ---- interp_race.c ---------------------------------------------------------------------- */
/* Everything here runs only when s->race is set (tracking->undefined); the access sites test it. */
enum interp_access { INTERP_ACCESS_READ = 0, INTERP_ACCESS_WRITE = 1 };
/** Starts detection for the run: sets s->race (after the g# arrays are allocated). */
enum sb_result sb_interp_race_begin(struct interp_state *s);
/** A batch starts; `first` is the invocation of lane 0 (pixel batches: of quad 0), as interp.h
 *  numbers invocations. After sb_interp_clear, with s->invocations set. */
void sb_interp_race_batch(struct interp_state *s, uint32_t first);
/** `bytes` at `address` (inside a UAV's data or a g# array; anything else is ignored) read or
 *  written by `lane` for s->inst, after the access. */
void sb_interp_race_access(struct interp_state *s, const void *address, uint32_t bytes, uint32_t lane,
                           enum interp_access kind);
/** The 32-bit word at `address` about to be changed by `lane`'s atomic s->inst with these operands
 *  (compare: 0 for the forms without one). */
void sb_interp_race_atomic(struct interp_state *s, const void *address, uint32_t lane, uint32_t value,
                           uint32_t compare);
/** `lane` takes a value from the append/consume counter of `resource` (an entry of the table). */
void sb_interp_race_counter(struct interp_state *s, const struct sb_rt_resource *resource, uint32_t lane);
/** A `sync` with these SB_SM4_SYNC_* flags ran. */
void sb_interp_race_sync(struct interp_state *s, uint32_t sync_flags);
/** Vertex and pixel runs, after the last batch: tracking->output_undefined (allocated when NULL,
 *  `count` invocations of `registers` o# registers) marks every output of a tainted invocation. */
void sb_interp_race_outputs(struct interp_state *s, uint32_t registers, uint32_t count);
/** `lane` indexed x#`id` at `element`, past its end (reads and writes): an event, and the
 *  invocation is tainted from here on. */
void sb_interp_race_out_of_bounds(struct interp_state *s, uint32_t lane, uint32_t id, uint32_t element);
/** Ends detection: marks the UAV words tainted invocations wrote last, frees, clears s->race. */
void sb_interp_race_finish(struct interp_state *s);
/** For the other detectors of a tracked run (interp_nonuniform.c): the time of an access made
 *  now (>= 1; later accesses have larger times) ... */
uint32_t sb_interp_race_now(const struct interp_state *s);
/** ... the invocation of lane 0 (pixel batches: of quad 0) of the current batch ... */
uint32_t sb_interp_race_first(const struct interp_state *s);
/** ... a new event, counted, zeroed for the caller to fill; NULL when the kept ones are full ... */
struct sb_interp_undefined_event *sb_interp_race_event(struct interp_state *s);
/** ... and `invocation` sees an undefined value from `time` (a sb_interp_race_now) on: what it
 *  writes at that time or later and its outputs are undefined. */
void sb_interp_race_taint_from(struct interp_state *s, uint32_t invocation, uint32_t time);

/* ---- interp_base.c (the bottom: every other file calls down into it) -------------------- */
/** Records a failure (first one wins) at the current instruction; returns the code. */
enum sb_result sb_interp_fail(struct interp_state *s, enum sb_result code, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
/** UNSUPPORTED naming the current op. */
enum sb_result sb_interp_unsupported(struct interp_state *s, const char *what);
/** The table entry for class/space/register, or NULL. */
struct sb_rt_resource *sb_interp_find(struct interp_state *s, uint32_t resource_class, uint32_t space,
                                      uint32_t reg);
/** The resource class (SB_IR_RESOURCE_*) of an operand file (cb#, t#, s#, u#); UINT32_MAX otherwise. */
uint32_t sb_interp_resource_class(uint32_t file);
/** The declaration an operand of `file` names (index[0] = id), or NULL. */
const struct sb_ir_resource *sb_interp_decl(const struct interp_state *s, uint32_t file, uint32_t id);
/** Sample `index` of D3D's standard pattern of `count` samples (1, 2, 4, 8, 16) as an offset from
 *  the pixel centre in pixels (multiples of 1/16); false (xy = 0) for another count or an index
 *  past it. */
bool sb_interp_sample_position(uint32_t count, uint32_t index, float xy[2]);

#endif
