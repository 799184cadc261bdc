/* SPDX-License-Identifier: MIT */
/*
 * The IR -> SPIR-V back end's internal API, shared by its files:
 *   spirv_module.c    context set-up, capabilities, entry point, the main function
 *   spirv_registers.c r#, x#, icb, v#/o# register variables; operand load/store
 *   spirv_io.c        signature -> Input/Output variables, built-ins, prologue/epilogue
 *   spirv_io_direct.c direct inputs/outputs: SSA input values, writes into Output variables
 *   spirv_alu*.c      arithmetic, bit and conversion ops (D3D rules, IR.md §Semantics)
 *   spirv_flow.c      structured control flow, subroutines, discard
 *   spirv_cbuffer.c   cb# uniform blocks
 *   spirv_debug.c     -g names and OpLine
 *   spirv_resource*.c / spirv_uav*.c / spirv_texture*.c  t#/s#/u#/g#, sync (hooks below)
 *   spirv_texel_memory.c raw/structured t#/u# as R32_UINT texel buffers (few storage buffers)
 *   spirv_stage_*.c   GS/HS/DS plumbing (hooks below)
 *
 * THE MODEL
 *
 * Registers. Every IR register file that holds 4-lane registers is a
 * Private-storage variable whose lanes are 32-bit FLOATS:
 *   r#            one `vec4` variable per register (ctx->temps[i]); in a DXIL
 *                 program, whose values are one-lane registers, a `float` for one
 *                 only ever written in x, and none at all for one whose every read
 *                 follows an ALU write in the same stretch between flow
 *                 instructions (spirv_registers.c, struct temp_scan);
 *   x#            one `vec4[count]` array per indexable temp (ctx->indexable[id]);
 *   icb           a Private `uvec4[n]` initialised from a constant (ctx->icb_var;
 *                 uint so integer data never passes through float constants);
 *   v#, o# and the special one-register files (vThreadID, oDepth, vPrim...)
 *                 a `vec4[count]` array per file (ctx->files[file]), for
 *                 GS/HS/DS arrayed inputs `vec4[outer][count]`.
 * Private (not Function) storage because SM4 label subroutines share r# and
 * v#/o# with the entry body; the optimiser turns them into SSA anyway. Without
 * it, the back end still keeps each r# value it loaded or wrote for the rest of
 * its block (no reload), and a run of ALU instructions stores each r# it wrote
 * once, before the next non-ALU instruction (spirv_operand.c), or not at all
 * when that is the `ret` of a program's only function (spirv_flow.c).
 * Typed views (int/uint/bool/double) are OpBitcast of the float lanes on load
 * and back on store, so bits survive exactly as in D3D. 64-bit values are two
 * lanes (low word first) bitcast as uvec2 <-> double.
 *
 * Inputs and outputs. The real Input/Output variables (locations, built-ins
 * with their own types and conventions) are declared by sb_spv_io_declare().
 * Direct files (the common case; sb_spv_register_file::direct): in a vertex,
 * pixel or compute shader of one function (and for the o# of a domain shader of
 * one function), an input file that is never
 * indexed dynamically nor written has no array: the entry body computes each
 * register's vec4 once at its start from the Input variables (an SSA value;
 * inputs cannot change) and operands read that value; an output file that is
 * never indexed dynamically nor read back has no array either: each write
 * stores straight into the Output variables (sb_spv_io_direct_store), and
 * outputs that a path may leave unwritten are zeroed at the start, as the
 * zero-initialised arrays gave. When every file is direct, the entry body is
 * `main` itself. Otherwise (the general path) the variables are copied into
 * the v#/special register arrays by sb_spv_io_prologue() at the start of
 * `main`, and the o#/special output arrays are copied out by
 * sb_spv_io_epilogue() at its end; the IR entry body is its own SPIR-V
 * function (ctx->function_ids[0]) called by main between the two, so `ret`
 * anywhere is a plain OpReturn. The conversions (SV_Position.w in PS is
 * 1/FragCoord.w, integer built-ins bitcast, IsFrontFace -> 0xFFFFFFFF/0, ...)
 * live in spirv_io.c and are the same on both paths.
 * The geometry stage calls sb_spv_io_epilogue() before each OpEmitVertex; the
 * hull stage builds its own main (sb_spv_stage_finish()).
 *
 * Instructions. sb_spv_emit_function() walks an IR function. ALU, flow, IO
 * and cbuffer ops are handled here; other ops go to
 * sb_spv_resource_instruction(), then sb_spv_stage_instruction(). A hook
 * that does not know an op returns SB_ERROR_TRANSLATE_UNSUPPORTED WITHOUT
 * recording an error (ctx->result stays SB_SUCCESS); any real failure is
 * recorded with sb_spv_fail() and its code returned.
 *
 * Errors. ctx->result is sticky: the first sb_spv_fail() wins and fills
 * ctx->error (code, source byte offset, message). Builder allocation failure
 * is reported as SB_ERROR_OUT_OF_MEMORY at the end.
 */
#ifndef SHADERBRIDGE_SPIRV_PRIVATE_H
#define SHADERBRIDGE_SPIRV_PRIVATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <spirv/unified1/GLSL.std.450.h>
#include <spirv/unified1/spirv.h>

#include "translator/ir.h"
#include "arena.h"
#include "error.h"
#include "shaderbridge/translate.h"
#include "spirv_builder.h"
#include "translation_block.h"

#if defined(__GNUC__) || defined(__clang__)
#define SB_SPV_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define SB_SPV_PRINTF(a, b)
#endif

/**
 * A register file (v#, o#, special registers): backed by one Private array variable, or
 * direct (no array: read from the SSA values of the Input variables, written straight to
 * the Output variables; model above).
 */
struct sb_spv_register_file {
    uint32_t var;            /**< Private variable id; 0 = no array (not declared, or direct) */
    uint32_t count;          /**< registers (inner array length, >= 1) */
    uint32_t outer;          /**< outer array length (vertices / control points); 0 = none */
    bool direct;             /**< declared without an array (var stays 0) */
    /** Direct input files: per register the vec4 (float lanes) computed at the entry body's
     *  start; 0 = no Input variable feeds it (reads give 0). Owned by spirv_io.c. */
    uint32_t *values;
};

/**
 * A value the operand layer computed in block `block` from `key` and `shape`
 * (spirv_operand.c, whose KEPT_* kinds say what each holds): a lane view of a vector,
 * a cb# or icb vector, a register pointer, relative-index arithmetic.
 * Empty while `key` is 0 (no key is 0).
 */
struct sb_spv_kept_value {
    uint32_t key, shape, block, value;
};

/** Entries of the operand layer's table of kept values (direct-mapped, 2^bits): 4 KiB of
 *  the context. */
#define SB_SPV_KEPT_BITS 8u
#define SB_SPV_KEPT_VALUES (1u << SB_SPV_KEPT_BITS)

/** Is the register file one the shader writes for the next stage (o#, oDepth*, oMask, oStencilRef)? */
static inline bool sb_spv_is_output_file(uint32_t file)
{
    return file == SB_IR_FILE_OUTPUT || (file >= SB_IR_FILE_DEPTH && file <= SB_IR_FILE_STENCIL_REF);
}

/** Is the file declared (an array, or direct)? */
static inline bool sb_spv_file_declared(const struct sb_spv_register_file *f)
{
    return f->var || f->direct;
}

/** One indexable temp x# (indexed by its id in ctx->indexable). */
struct sb_spv_indexable {
    uint32_t var;            /**< Private vec4[count]; 0 = not declared */
    uint32_t count;
};

/**
 * What the back end created for one sb_ir_resource (ctx->resources[i] for
 * program->resources[i]). cb# entries are filled by spirv_cbuffer.c, the rest
 * by the resource engineer's declare hook; fields a kind does not need stay 0.
 */
struct sb_spv_resource {
    uint32_t var;            /**< the UniformConstant/Uniform/StorageBuffer variable */
    uint32_t pointer_type;   /**< its pointer type */
    uint32_t type;           /**< the pointee (image, sampler, block struct, array of them) */
    uint32_t element_type;   /**< image type (typed), uint (raw/structured), vec4 (cb) */
    uint32_t sampled_type;   /**< scalar component type id for images; 0 otherwise */
    uint32_t counter_var;    /**< UAV counter variable */
    bool arrayed;            /**< SM5.1 range: `var` is an array, index before use */
    bool members;            /**< cb# with -g: one named vec4 member per vector, not an array */
};

/** A list of uint32 (built-ins reported in the translation). */
struct sb_spv_u32_list {
    uint32_t *items;
    uint32_t count, capacity;
};

/** A list of interface variables reported in the translation. */
struct sb_spv_interface_list {
    struct sb_translated_interface *items;
    uint32_t count, capacity;
};

/** r# stores of a block that a return may take back: the last 16 (a return's block
 *  ends with the writes of its last instructions). */
#define SB_SPV_TEMP_STORES 16u

/** An r# store in the open block: its first word in the function body, the register. */
struct sb_spv_temp_store {
    uint32_t offset, reg;
};

/** Frequently used type ids the builder does not keep itself, each 0 until a module first
 *  asks for it (sb_spv_t_*; void and the numeric types: sb_spv_builder::numeric). */
struct sb_spv_common_types {
    uint32_t f64;            /**< 0 until sb_spv_type_of(DOUBLE) asks (needs Float64) */
    uint32_t u64;            /**< 0 until sb_spv_t_u64vec asks (needs Int64) */
    uint32_t void_function;  /**< void(void) */
    uint32_t ptr_private_f32, ptr_private_vec4;
};

/** Non-uniformly indexed ranges one instruction may loop over (texture + sampler, ...). */
#define SB_SPV_WATERFALL_LEVELS 4u

/** The translation of one program. */
struct sb_spv_context {
    const struct sb_ir_program *program;
    const struct sb_translate_options *options; /**< never NULL (defaults filled in) */
    struct sb_spv_builder builder;
    uint32_t spirv_version;  /**< 0x00010000 .. 0x00010600 */
    bool debug_info;         /**< SB_TRANSLATE_DEBUG_INFO */
    bool pixel_interlock;    /**< a rasterizer-ordered UAV in a pixel shader: main runs the body
                                  inside the fragment shader interlock (spirv_module.c) */

    /** The translation's working memory (sb_spv_zalloc, sb_spv_grow): owned by the caller of
     *  sb_spv_generate, released in one call after it, its blocks kept by the thread. */
    struct sb_arena *scratch;

    enum sb_result result;   /**< sticky first failure */
    struct sb_error *error;  /**< may be NULL */
    const struct sb_ir_instruction *inst; /**< the instruction being translated (error offsets) */

    struct sb_spv_common_types t;
    uint32_t execution_model;  /**< SpvExecutionModel */
    uint32_t entry_function;   /**< id of `main` (allocated at set-up) */
    uint32_t *function_ids;    /**< per IR function: its SPIR-V function id */
    uint32_t current_function; /**< IR function index being emitted */

    /* Registers. */
    uint32_t *temps;         /**< r#: Private vec4 (float or 0, no variable: temp_written) per register (max temp_count of all functions) */
    uint32_t temp_count;
    /**
     * Per r#: the vec4 value it holds in the open block (spirv_registers.c), so a
     * register read again in the same block is not reloaded. Valid while
     * temp_block[i] == the builder's current block and temp_epoch[i] ==
     * temp_generation; sb_spv_registers_forget() drops them all.
     */
    uint32_t *temp_value, *temp_block, *temp_epoch;
    uint32_t temp_generation;
    /**
     * While an ALU instruction is emitted (defer_temp_stores), an r# write only updates
     * temp_value and lists the register in temp_dirty (temp_dirty_count entries,
     * temp_is_dirty[i] set): a register written by several instructions of a straight run
     * is stored once. sb_spv_registers_flush() stores them before anything that may read
     * r# memory or leave the block (every non-ALU instruction, the function's end).
     */
    uint32_t *temp_dirty, *temp_is_dirty;
    uint32_t temp_dirty_count;
    /**
     * The last SB_SPV_TEMP_STORES r# stores of one block (temp_stores_block), store n at
     * temp_stores[n % SB_SPV_TEMP_STORES] (temp_store_count so far), so that a return
     * after which nothing reads r# can take back those nothing read
     * (sb_spv_registers_discard). Per r#: its stores numbered below temp_read_upto[i]
     * were read (a load of r# memory), valid while temp_read_block[i] == temp_stores_block.
     */
    struct sb_spv_temp_store temp_stores[SB_SPV_TEMP_STORES];
    uint32_t temp_store_count, temp_stores_block;
    uint32_t *temp_read_upto, *temp_read_block;
    /**
     * Per r#: the lanes any instruction writes, and SB_SPV_TEMP_NEEDS_MEMORY
     * (spirv_registers.c, struct temp_scan). Lanes 0x1 make it a scalar; a scalar
     * without the flag is memoryless: no variable, its value only ever cached.
     */
    uint32_t *temp_written;
    bool temp_shapes; /**< temp_written was filled: DXIL programs only (spirv_registers.c) */
    /**
     * Counts the stretches of instructions between flow instructions (and functions):
     * a memoryless r#'s cached value holds for its stretch, temp_block[i] naming it.
     */
    uint32_t temp_region;
    bool defer_temp_stores;
    /**
     * Pure values the operand layer built in the open block, so a repeat within the block
     * reuses them instead of emitting the same instruction again (spirv_operand.c): lane
     * views (extract, shuffle, bitcast, abs/neg) of a vector id, cb# and icb vector loads
     * (read-only memory), access chains to a register, relative-index additions and clamps.
     * An entry of another block is never used: only an earlier instruction of the same block
     * surely dominates the repeat.
     */
    struct sb_spv_kept_value kept[SB_SPV_KEPT_VALUES];
    struct sb_spv_indexable *indexable; /**< by x# id */
    uint32_t indexable_count;           /**< max x# id + 1 */
    uint32_t icb_var;        /**< Private uvec4[n]; 0 when there is no icb */
    struct sb_spv_register_file files[SB_IR_FILE_COUNT];
    /** Lanes of v0-v63 that source operands may read (the union of their swizzles), and
     *  whether a v# past v63 is read: a direct input register nothing reads is not loaded. */
    uint8_t input_lanes_read[64];
    bool input_read_high;
    /** Lanes of o0-o63 and of each special output file that every path through the entry
     *  body writes (outside any if/loop/switch, before the first ret or retc): a direct
     *  output needs no zeroing there (spirv_io_direct.c). */
    uint8_t output_lanes_sure[64];
    uint8_t special_lanes_sure[SB_IR_FILE_COUNT];
    /** Vectors of cb# (id < 64) that constant indices reach (largest + 1), from the
     *  one operand scan of sb_spv_registers_declare; cbuffers size their blocks by it. */
    uint32_t cb_used[64];
    bool cb_scanned;         /**< cb_used is valid (ids >= 64 need their own scan) */
    bool cb_relative[64];    /**< cb# (id < 64) read with a relative vector index */
    /** An operand names this[] (same scan): without one, the linkage declarations need not
     *  look through the instructions for this[] slots. */
    bool this_pointer_used;
    /** Of the files that scan records (v#, o#, cb#, the special ones, this[]), those some
     *  destination operand names, bit per enum sb_ir_file: a pixel shader that writes no
     *  depth file needs no search for two kinds of depth (spirv_io.c). */
    uint64_t files_written;

    /* Resources (by program->resources index) and g# (by group_shared index). */
    struct sb_spv_resource *resources;
    uint32_t *group_shared_vars; /**< Workgroup variables, filled by the resource engineer */

    /* Interface report (sb_translation inputs/outputs/built-ins). */
    struct sb_spv_interface_list inputs, outputs;
    struct sb_spv_u32_list builtin_inputs, builtin_outputs;

    /* Debug info (-g). */
    uint32_t debug_file;     /**< OpString naming the input; 0 without -g */
    const char *source_name; /**< name for debug_file (file name or "shader.dxbc") */

    /** The waterfall loops open around the instruction being emitted (spirv_waterfall.c):
     *  per level the range (operand file, range id) and the uniform index standing in for
     *  the operand's own. */
    struct {
        uint32_t count;
        struct { uint32_t file, range, index; } levels[SB_SPV_WATERFALL_LEVELS];
    } waterfall;

    /* Private state of spirv_io.c (the Input/Output copies; in ctx->scratch). */
    void *io_state;
    /* Private state of the resource and stage files (in ctx->scratch). */
    void *resource_state;
    void *stage_state;
    /* Private state of spirv_stage_mesh.c (mesh outputs; in ctx->scratch). */
    void *mesh_state;
    /* Private state of spirv_linkage.c (class-linkage spec constants; in ctx->scratch). */
    void *linkage_state;
    /** Interface slots counted by sb_spv_linkage_declare (kept: counting scans every
     *  instruction, and sb_spv_generate reports the count). */
    uint32_t interface_slot_count;
    /** spirv_wave.c: the SubgroupLocalInvocationId and SubgroupSize inputs once declared (Flat
     *  in a fragment shader, decorated once), else 0. */
    uint32_t subgroup_builtin[2];
};

/* ---- errors and allocation (spirv_context.c) ------------------------------------------------------------ */

/**
 * Records the first failure: code, offset of `inst` (ctx->inst when NULL),
 * and a printf message. Returns `code`.
 */
enum sb_result sb_spv_fail(struct sb_spv_context *ctx, enum sb_result code,
                           const struct sb_ir_instruction *inst, const char *fmt, ...)
    SB_SPV_PRINTF(4, 5) SB_COLD;
/** Records "op <name> is not supported" for `inst` (SB_ERROR_TRANSLATE_UNSUPPORTED). */
enum sb_result sb_spv_unsupported(struct sb_spv_context *ctx, const struct sb_ir_instruction *inst) SB_COLD;

/* ---- the common types (declared on first use: spirv_context.c, spirv_builder_types.c) ---- */

/** What sb_spv_common_declare() declares. */
enum sb_spv_common_kind {
    SB_SPV_COMMON_VOID_FUNCTION,  /**< sb_spv_t_void_function(ctx) */
    SB_SPV_COMMON_PTR_PRIVATE_F32,
    SB_SPV_COMMON_PTR_PRIVATE_VEC4,
};

/**
 * Declares common type `kind` and records its id in ctx->t: the slow path of the
 * accessors below that the builder does not keep itself. 0 after a builder failure.
 */
uint32_t sb_spv_common_declare(struct sb_spv_context *ctx, enum sb_spv_common_kind kind);

/*
 * The common types, through these accessors only: each is declared the first time a
 * module asks for it, so a module holds the types it uses and no others, and the
 * types section stays in definition order (a type never precedes its operands).
 * Inline: nearly every emitted instruction asks for one, and once declared it is a
 * table read (the builder's own table for void and the numeric types, ctx->t for the
 * rest, read through `t` so that the script that converted the call sites from
 * ctx->t.<field> leaves these definitions alone).
 */
static inline uint32_t sb_spv_t_lanes(struct sb_spv_context *ctx, enum sb_spv_numeric kind, uint32_t n)
{
    uint32_t id = ctx->builder.numeric[kind][n];
    return id ? id : sb_spv_type_numeric(&ctx->builder, kind, n);
}
/** The n-lane float vector (n = 1: float). */
static inline uint32_t sb_spv_t_fvec(struct sb_spv_context *ctx, uint32_t n)
{
    return sb_spv_t_lanes(ctx, SB_SPV_NUMERIC_FLOAT, n);
}
/** The n-lane signed int vector (n = 1: int). */
static inline uint32_t sb_spv_t_ivec(struct sb_spv_context *ctx, uint32_t n)
{
    return sb_spv_t_lanes(ctx, SB_SPV_NUMERIC_INT, n);
}
/** The n-lane unsigned int vector (n = 1: uint). */
static inline uint32_t sb_spv_t_uvec(struct sb_spv_context *ctx, uint32_t n)
{
    return sb_spv_t_lanes(ctx, SB_SPV_NUMERIC_UINT, n);
}
/** The n-lane bool vector (n = 1: bool). */
static inline uint32_t sb_spv_t_bvec(struct sb_spv_context *ctx, uint32_t n)
{
    return sb_spv_t_lanes(ctx, SB_SPV_NUMERIC_BOOL, n);
}
static inline uint32_t sb_spv_t_f32(struct sb_spv_context *ctx)
{
    return sb_spv_t_fvec(ctx, 1);
}
static inline uint32_t sb_spv_t_i32(struct sb_spv_context *ctx)
{
    return sb_spv_t_ivec(ctx, 1);
}
static inline uint32_t sb_spv_t_u32(struct sb_spv_context *ctx)
{
    return sb_spv_t_uvec(ctx, 1);
}
static inline uint32_t sb_spv_t_bool(struct sb_spv_context *ctx)
{
    return sb_spv_t_bvec(ctx, 1);
}
static inline uint32_t sb_spv_t_void(struct sb_spv_context *ctx)
{
    uint32_t id = ctx->builder.void_type;
    return id ? id : sb_spv_type_void(&ctx->builder);
}
/** void(void), the type of every function the back end writes. */
static inline uint32_t sb_spv_t_void_function(struct sb_spv_context *ctx)
{
    const struct sb_spv_common_types *t = &ctx->t;
    return t->void_function ? t->void_function : sb_spv_common_declare(ctx, SB_SPV_COMMON_VOID_FUNCTION);
}
/* Set in temp_written[i] when r`i` must live in a variable (spirv_registers.c, scan_program). */
#define SB_SPV_TEMP_NEEDS_MEMORY 0x10u

/* r`i` (i < temp_count) is held as a Private float: only its x lane is ever written. */
static inline bool sb_spv_temp_is_scalar(const struct sb_spv_context *ctx, uint32_t i)
{
    return ctx->temp_shapes && (ctx->temp_written[i] & 0xFu) == 0x1u;
}

/* r`i` is a scalar with no variable at all: every read follows an ALU write of it in the
 * same stretch between flow instructions, where the written value's id dominates. */
static inline bool sb_spv_temp_is_memoryless(const struct sb_spv_context *ctx, uint32_t i)
{
    return ctx->temp_shapes && ctx->temp_written[i] == 0x1u;
}

/* Flow instructions: structured control flow, calls, returns, discard (spirv_flow.c). */
static inline bool sb_spv_op_is_flow(uint32_t op)
{
    return (op >= SB_IR_OP_IF && op <= SB_IR_OP_INTERFACE_CALL) || op == SB_IR_OP_ABORT ||
           op == SB_IR_OP_DEBUG_BREAK;
}

/* ALU instructions: they stay in their block and write r# only through the operand helpers. */
static inline bool sb_spv_op_is_alu(uint32_t op)
{
    return op <= SB_IR_OP_DGE || sb_ir_op_is_int64(op);
}

/** Pointer to a Private float: one lane of a register. */
static inline uint32_t sb_spv_t_ptr_private_f32(struct sb_spv_context *ctx)
{
    const struct sb_spv_common_types *t = &ctx->t;
    return t->ptr_private_f32 ? t->ptr_private_f32
                              : sb_spv_common_declare(ctx, SB_SPV_COMMON_PTR_PRIVATE_F32);
}
/** Pointer to a Private vec4: one whole register. */
static inline uint32_t sb_spv_t_ptr_private_vec4(struct sb_spv_context *ctx)
{
    const struct sb_spv_common_types *t = &ctx->t;
    return t->ptr_private_vec4 ? t->ptr_private_vec4
                               : sb_spv_common_declare(ctx, SB_SPV_COMMON_PTR_PRIVATE_VEC4);
}

/* ---- types and constants (spirv_registers.c) ------------------------------------------------- */

/**
 * The SPIR-V type of `n` lanes (1 = scalar) of an IR type: float/int/uint as
 * 32-bit, BOOL as OpTypeBool (not the 0/~0 lane form), DOUBLE as 64-bit
 * float (n doubles). Declares Float64 on first double use.
 */
uint32_t sb_spv_type_of_slow(struct sb_spv_context *ctx, uint32_t ir_type, uint32_t n);
/* Inline: asked for by nearly every emitted instruction; the common types are a table read. */
static inline uint32_t sb_spv_type_of(struct sb_spv_context *ctx, uint32_t ir_type, uint32_t n)
{
    if (n < 1 || n > 4)
        n = 1;
    /* FLOAT, INT, UINT and BOOL are 1-4, in the order of enum sb_spv_numeric: one test
     * rather than a switch on a type that changes from one operand to the next. */
    _Static_assert(SB_IR_TYPE_INT - SB_IR_TYPE_FLOAT == SB_SPV_NUMERIC_INT &&
                       SB_IR_TYPE_UINT - SB_IR_TYPE_FLOAT == SB_SPV_NUMERIC_UINT &&
                       SB_IR_TYPE_BOOL - SB_IR_TYPE_FLOAT == SB_SPV_NUMERIC_BOOL,
                   "enum sb_spv_numeric follows enum sb_ir_type");
    uint32_t kind = ir_type - SB_IR_TYPE_FLOAT;
    if (__builtin_expect(kind <= SB_SPV_NUMERIC_BOOL, 1))
        return sb_spv_t_lanes(ctx, (enum sb_spv_numeric)kind, n);
    return sb_spv_type_of_slow(ctx, ir_type, n);
}
/** `n` (1-2) lanes of 64-bit unsigned int; declares Int64 on first use, so modules without
 *  the I64* ops stay as they were. */
uint32_t sb_spv_t_u64vec(struct sb_spv_context *ctx, uint32_t n);
/** A constant of `n` copies of `bits` in the IR type (FLOAT/INT/UINT; BOOL = OpConstantTrue/False). */
uint32_t sb_spv_const_of(struct sb_spv_context *ctx, uint32_t ir_type, uint32_t n, uint32_t bits);
/** uint constant. */
/** The storage class of a g#: Workgroup, or TaskPayloadWorkgroupEXT for the task payload. */
static inline SpvStorageClass sb_spv_group_shared_class(const struct sb_ir_group_shared *g)
{
    return g->task_payload ? SpvStorageClassTaskPayloadWorkgroupEXT : SpvStorageClassWorkgroup;
}

static inline uint32_t sb_spv_uint(struct sb_spv_context *ctx, uint32_t value)
{
    return sb_spv_const32(&ctx->builder, sb_spv_t_u32(ctx), value);
}

/** Converts an n-lane value between IR views: bits kept (bitcast); BOOL <-> 0/0xFFFFFFFF lanes. */
uint32_t sb_spv_convert_view_slow(struct sb_spv_context *ctx, uint32_t value, uint32_t from_type,
                                  uint32_t to_type, uint32_t n);
static inline uint32_t sb_spv_convert_view(struct sb_spv_context *ctx, uint32_t value,
                                           uint32_t from_type, uint32_t to_type, uint32_t n)
{
    if (from_type == to_type || !value) /* the usual case: nothing to emit */
        return value;
    return sb_spv_convert_view_slow(ctx, value, from_type, to_type, n);
}
/** Lane test of a condition value (`n` lanes of `type`): != 0 when test_nz, == 0 otherwise -> bool(s). */
uint32_t sb_spv_test_value(struct sb_spv_context *ctx, uint32_t value, uint32_t type, uint32_t n,
                           bool test_nz);

/* ---- operands (spirv_operand.c) ------------------------------------------------------------------ */

/** Lanes set in a mask. */
/**
 * Whether the module is for a text target (GLSL, ESSL, MSL, HLSL through SPIRV-Cross):
 * where SPIRV-Cross mis-writes or cannot write a SPIR-V form, the back end emits another
 * with the same meaning (spirv_texture.c, spirv_uav_atomic.c, spirv_linkage.c,
 * spirv_operand.c, spirv_stage_io.c). A SPIR-V translation never takes these paths, so its
 * words do not change.
 */
static inline bool sb_spv_for_text_target(const struct sb_spv_context *ctx)
{
    return ctx->options->target != SB_TRANSLATE_TARGET_SPIRV;
}

static inline uint32_t sb_spv_mask_count(uint32_t mask)
{
    /* A nibble table: one shift and mask, whatever the target offers for popcount. */
    return (0x4332322132212110ull >> ((mask & 0xFu) * 4)) & 0xFu;
}

/**
 * Loads a source operand for the destination lanes in `mask` (bit i = lane i):
 * the result has popcount(mask) components (a scalar for one), component k
 * being source lane swizzle[i] for the k-th set bit i. Viewed as `ir_type`
 * (FLOAT/INT/UINT; BOOL yields bools tested != 0). Abs/neg modifiers apply in
 * that view (integer neg = OpSNegate). Handles every readable file, immediate
 * and relative indexing. 0 on failure (recorded).
 */
uint32_t sb_spv_load_src(struct sb_spv_context *ctx, const struct sb_ir_operand *src, uint32_t mask,
                         uint32_t ir_type);
/** sb_spv_load_src for the first `n` lanes of the swizzle (dp3: n = 3; scalars: n = 1). */
uint32_t sb_spv_load_src_n(struct sb_spv_context *ctx, const struct sb_ir_operand *src, uint32_t n,
                           uint32_t ir_type);
/** A one-lane source (swizzle[0]) as a scalar of `ir_type`: conditions, indices, selectors. */
uint32_t sb_spv_load_scalar(struct sb_spv_context *ctx, const struct sb_ir_operand *src,
                            uint32_t ir_type);
/**
 * 64-bit sources: `n` doubles (1-2); double k is the lane pair starting at
 * lane swizzle[k] (0 = xy, 2 = zw; ir.h), low word first. Modifiers apply.
 */
uint32_t sb_spv_load_src_double(struct sb_spv_context *ctx, const struct sb_ir_operand *src, uint32_t n);
/**
 * 64-bit integer sources (IR.md: the I64* ops): `n` 64-bit unsigned integers
 * (1-2), lane pairs chosen as for sb_spv_load_src_double; the bits as they
 * are (modifiers are not part of these ops and are ignored).
 */
uint32_t sb_spv_load_src_int64(struct sb_spv_context *ctx, const struct sb_ir_operand *src, uint32_t n);

/**
 * Stores `value` (popcount(dst->mask) components of `ir_type`, scalar for one)
 * into the destination lanes in dst->mask, in ascending lane order. Applies
 * saturate when `inst` has SB_IR_FLAG_SATURATE and the type is FLOAT. BOOL
 * values are stored as 0xFFFFFFFF/0. NULL destinations are ignored.
 */
bool sb_spv_store_dst(struct sb_spv_context *ctx, const struct sb_ir_instruction *inst,
                      const struct sb_ir_operand *dst, uint32_t value, uint32_t ir_type);
/** Stores `value` (n lanes of ir_type) to the lanes of `mask` only (mask ⊆ dst->mask is not required). */
bool sb_spv_store_dst_mask(struct sb_spv_context *ctx, const struct sb_ir_instruction *inst,
                           const struct sb_ir_operand *dst, uint32_t mask, uint32_t value,
                           uint32_t ir_type);
/** Stores `n` doubles to the lane pairs of dst->mask (xy = first, zw = second). */
bool sb_spv_store_dst_double(struct sb_spv_context *ctx, const struct sb_ir_instruction *inst,
                             const struct sb_ir_operand *dst, uint32_t value, uint32_t n);

/**
 * Pointer (Private float) to lane `lane` of a register operand (temp, x#,
 * v#, o#, special files, icb), with relative indices resolved. 0 on failure.
 */
uint32_t sb_spv_lane_pointer(struct sb_spv_context *ctx, const struct sb_ir_operand *operand,
                             uint32_t lane);
/** Pointer (Private vec4) to a whole register operand; 0 on failure. */
uint32_t sb_spv_register_pointer(struct sb_spv_context *ctx, const struct sb_ir_operand *operand);
/**
 * Forgets the r# values cached for the open block (storing the deferred writes
 * first): call after emitting anything that may write r# behind the operand
 * helpers' back (calls). sb_spv_emit_function does it after every flow
 * instruction; other instructions write r# only through the operand helpers.
 */
void sb_spv_registers_forget(struct sb_spv_context *ctx);
/**
 * Stores the r# writes deferred during ALU instructions (ctx->temp_dirty) into
 * their variables, in the open block that computed them.
 */
void sb_spv_registers_flush(struct sb_spv_context *ctx);
/**
 * For the return of a function after which nothing reads r# memory
 * (sb_spv_emit_function): drops the r# writes deferred during ALU instructions without
 * storing them, and takes back the r# stores of the open block that nothing read.
 */
void sb_spv_registers_discard(struct sb_spv_context *ctx);
/** An index of an operand (offset + relative) as a uint id. */
uint32_t sb_spv_index_value(struct sb_spv_context *ctx, const struct sb_ir_index *index);

/* ---- register declarations (spirv_registers.c) ------------------------------------------------- */

/**
 * Declares r#, x#, icb and the register arrays of v#, o# and the special
 * one-register files that the signature or the IR uses, sized to cover both
 * (and dcl_indexrange). Runs before sb_spv_io_declare. Left to the stage
 * hooks: INPUT in GS/HS/DS, OUTPUT in HS, and the control-point and
 * patch-constant files.
 */
enum sb_result sb_spv_registers_declare(struct sb_spv_context *ctx);
/**
 * Declares (or returns) the Private vec4[count] array behind a register file,
 * with an optional outer dimension; files declared twice keep the first.
 */
uint32_t sb_spv_register_file_declare(struct sb_spv_context *ctx, uint32_t file, uint32_t count,
                                      uint32_t outer);

/* ---- IO (spirv_io.c; direct files: spirv_io_direct.c) ----------------------------------------------------------------------------- */

/** Creates Input/Output variables for the signature (non-arrayed elements of every stage). */
enum sb_result sb_spv_io_declare(struct sb_spv_context *ctx);
/** Emits the copies Input -> register arrays (files that are not direct) into the open function. */
void sb_spv_io_prologue(struct sb_spv_context *ctx);
/** Emits the copies register arrays -> Output (files that are not direct) into the open function. */
void sb_spv_io_epilogue(struct sb_spv_context *ctx);
/**
 * Start of the entry body when some file is direct: the vec4 of every register of the
 * direct input files (sb_spv_register_file::values) and zero stores to the Output
 * variables of direct files that a path through the body may leave unwritten.
 */
void sb_spv_io_direct_begin(struct sb_spv_context *ctx);
/**
 * Writes lanes `mask` of register `reg` of direct output file `file`: `value` holds
 * popcount(mask) components of `ir_type` (ascending lanes), stored into the Output
 * variables that hold those lanes with their conversions; lanes no variable holds are
 * dropped (they would never have been copied out).
 */
void sb_spv_io_direct_store(struct sb_spv_context *ctx, uint32_t file, uint32_t reg, uint32_t mask,
                            uint32_t value, uint32_t ir_type);
/** Stores the direct output lanes a run of ALU instructions wrote lane by lane without
 *  completing their variable (sb_spv_registers_flush calls it wherever r# writes land). */
void sb_spv_io_direct_flush(struct sb_spv_context *ctx);
/** Can the entry body be `main` itself (every copy is direct, nothing to run around it)? */
bool sb_spv_io_body_is_main(const struct sb_spv_context *ctx);
/** A built-in Input/Output variable of `type` (created once per built-in and storage); reported. */
uint32_t sb_spv_io_builtin(struct sb_spv_context *ctx, SpvStorageClass storage, SpvBuiltIn builtin,
                           uint32_t type);
/** Adds an entry to the translation's input or output interface list. */
void sb_spv_io_report(struct sb_spv_context *ctx, bool output, const struct sb_translated_interface *entry);
/** Adds a built-in to the translation's built-in input or output list. */
void sb_spv_io_report_builtin(struct sb_spv_context *ctx, bool output, uint32_t builtin);
/** EVAL_* and other IO-backed instructions; UNSUPPORTED-unrecorded for others. */
enum sb_result sb_spv_io_instruction(struct sb_spv_context *ctx, const struct sb_ir_instruction *inst);

/* ---- instruction classes ------------------------------------------------------------------------- */

/** A wave or quad op (spirv_wave.c: group non-uniform instructions; refused below SPIR-V 1.3);
 *  UNSUPPORTED-unrecorded for other ops. */
enum sb_result sb_spv_wave_instruction(struct sb_spv_context *ctx, const struct sb_ir_instruction *inst);
/** ALU/bit/conversion/double ops; UNSUPPORTED-unrecorded for ops that are not ALU. */
enum sb_result sb_spv_alu_instruction(struct sb_spv_context *ctx, const struct sb_ir_instruction *inst);
/**
 * Reserved: control flow needs the construct stack of sb_spv_emit_function,
 * so flow ops are only translated there; this always answers
 * UNSUPPORTED-unrecorded (kept so the hook table stays uniform).
 */
enum sb_result sb_spv_flow_instruction(struct sb_spv_context *ctx, const struct sb_ir_instruction *inst);
/** Emits IR function `index` as SPIR-V function ctx->function_ids[index] (void, no parameters). */
enum sb_result sb_spv_emit_function(struct sb_spv_context *ctx, uint32_t index);

/* ---- constant buffers (spirv_cbuffer.c) ------------------------------------------------------------ */

enum sb_result sb_spv_cbuffer_declare(struct sb_spv_context *ctx);
/** Pointer (Uniform float) to lane `lane` of cb operand (indices resolved; spirv_operand.c). */
uint32_t sb_spv_cbuffer_lane_pointer(struct sb_spv_context *ctx, const struct sb_ir_operand *operand,
                                     uint32_t lane);
/** Loads the vec4 of a cb operand (spirv_operand.c). */
uint32_t sb_spv_cbuffer_load_vector(struct sb_spv_context *ctx, const struct sb_ir_operand *operand);
/** Index into program->resources of resource `class` with register/range `id`; UINT32_MAX if absent. */
uint32_t sb_spv_find_resource(const struct sb_spv_context *ctx, uint32_t resource_class, uint32_t id);
/** SM5.1 cb operands carry [0] range id, [1] register, [2] vector; earlier ones [0] id, [1] vector. */
static inline bool sb_spv_cb_sm51_form(const struct sb_ir_operand *op)
{
    return op->index_count >= 3;
}

/* ---- debug (spirv_debug.c) ------------------------------------------------------------------------- */

/** -g: OpString/OpSource for the input; no-op without debug info. */
void sb_spv_debug_begin(struct sb_spv_context *ctx);
/** -g: OpName `name` for `id`; no-op without debug info. */
void sb_spv_debug_name(struct sb_spv_context *ctx, uint32_t id, const char *name);
/** -g: OpLine file = the input's OpString, line = the instruction's byte offset, column 0. */
void sb_spv_debug_line(struct sb_spv_context *ctx, const struct sb_ir_instruction *inst);

/* ---- hooks implemented by the resource engineer (spirv_resource*.c) ------------------------------ */

/**
 * Declares variables for every SRV, sampler and UAV in program->resources
 * (filling ctx->resources[i]) and the group-shared memory
 * (ctx->group_shared_vars). Called once before any function is emitted.
 */
enum sb_result sb_spv_resource_declare(struct sb_spv_context *ctx);
/**
 * Translates one resource / UAV / atomic / group-shared / sync instruction.
 * Returns SB_ERROR_TRANSLATE_UNSUPPORTED without recording (ctx->result
 * untouched) for ops it does not handle.
 */
enum sb_result sb_spv_resource_instruction(struct sb_spv_context *ctx,
                                           const struct sb_ir_instruction *inst);

/* ---- resource files' shared helpers (spirv_resource*.c, spirv_texture*.c, spirv_uav*.c) ------- */

/**
 * Does any instruction of `program` use UAV register `uav_id` with
 * imm_atomic_alloc / imm_atomic_consume? The binding step may set
 * sb_ir_resource::has_counter from it for hand-built IR programs.
 */
bool sb_spv_resource_needs_counter(const struct sb_ir_program *program, uint32_t uav_id);

/** Per-resource facts kept by the resource files (ctx->resource_state, by resources index). */
struct sb_spv_resource_info {
    uint32_t dimension;      /**< SM4 dimension (1-12) of a t#/u#; 0 for s#/cb# */
    uint32_t value_type;     /**< enum sb_ir_type of texel lanes (FLOAT/INT/UINT); UINT for memory */
    uint32_t element_pointer; /**< pointer type to one descriptor (UniformConstant image/sampler,
                                   StorageBuffer block) when `arrayed` */
    uint32_t block_type;     /**< raw/structured: the Block struct { uint[] } */
    uint32_t counter_type;   /**< UAV counter: the Block struct { uint } */
    bool atomic_format;      /**< typed UAV declared with a format (R32 for image atomics or
                                  loads restricted to R32 views; the view's own for devices
                                  that cannot read without one); no ...WithoutFormat needed */
    uint32_t uses;           /**< SB_SPV_USE_* found by one scan of the program (u# only) */
    uint32_t vector_var[3];  /**< raw/structured: the uvec2/uvec3/uvec4 views on the same
                                  binding (spirv_uav_vector.c); 0 until first used */
    bool aliased;            /**< the register's own variable is decorated Aliased (it has a view) */
    uint32_t int64_var;      /**< raw/structured: the uint64_t[] view of 64-bit atomics
                                  (spirv_atomic64.c); 0 until first used */
    const struct sb_ir_instruction *first_read; /**< the first ld_uav_typed of a u#, for errors */
};

/* sb_spv_resource_info::uses bits. */
#define SB_SPV_USE_ATOMIC 0x1u  /**< memory operand of an atomic */
#define SB_SPV_USE_READ 0x2u    /**< read by ld_uav_typed */
#define SB_SPV_USE_COUNTER 0x4u /**< imm_atomic_alloc / imm_atomic_consume */

/* ---- non-uniform range indices without the device feature (spirv_waterfall.c) ---- */

/** Does `inst` index a range non-uniformly where the device cannot (and no loop is open)? */
bool sb_spv_waterfall_needed(struct sb_spv_context *ctx, const struct sb_ir_instruction *inst);
/** Emits `inst` through `emit` inside one waterfall loop per such range; emit's result. */
enum sb_result sb_spv_waterfall_emit(struct sb_spv_context *ctx, const struct sb_ir_instruction *inst,
                                     enum sb_result (*emit)(struct sb_spv_context *ctx,
                                                            const struct sb_ir_instruction *inst));
/** Inside a loop: the uniform index that replaces `op`'s range index; 0 when `op` has none
 *  (spirv_resource_util.c, below the loop's emitter). */
uint32_t sb_spv_waterfall_index(const struct sb_spv_context *ctx, const struct sb_ir_operand *op);

/* ---- vector views of raw/structured t#/u# (spirv_uav_vector.c) ---- */

/** Can `op` (a raw/structured t#/u# operand) be read and written through a vector view?
 *  False for ranges, non-uniform indices, texel-buffer registers and text targets. */
bool sb_spv_memory_vector_allowed(struct sb_spv_context *ctx, const struct sb_ir_operand *op);
/** ArrayStride in bytes of the `lanes`-lane view (2: 8; 3, 4: 16). */
uint32_t sb_spv_memory_vector_stride(uint32_t lanes);
/** A StorageBuffer variable of Block `block` on raw/structured resource `index`'s own set and
 *  binding (NonWritable for a t#, Coherent for a globallycoherent u#), it and the register's
 *  variable decorated Aliased: a second view of the same bytes (spirv_uav_vector.c). */
uint32_t sb_spv_memory_alias_variable(struct sb_spv_context *ctx, uint32_t index, uint32_t block);
/** Pointer to element `element` (a uint id: byte address / the view's stride) of the
 *  `lanes`-lane (2-4) view of `op`, declaring the view on first use; 0 on failure. */
uint32_t sb_spv_memory_vector_pointer(struct sb_spv_context *ctx, const struct sb_ir_operand *op,
                                      uint32_t lanes, uint32_t element);

/* ---- raw/structured t#/u# as R32_UINT texel buffers (spirv_texel_memory.c) ---- */

/** Declares the texel-buffer variable of raw/structured resource `index` (texel_memory set). */
void sb_spv_texel_memory_declare(struct sb_spv_context *ctx, uint32_t index);
/** The resources index of a t#/u# operand whose register is bound as a texel buffer;
 *  UINT32_MAX (nothing recorded) for any other operand. */
uint32_t sb_spv_texel_memory_index(const struct sb_spv_context *ctx, const struct sb_ir_operand *op);
/** DWORD `dword` (a uint id) of such a resource as a uint; 0 on failure (recorded). */
uint32_t sb_spv_texel_memory_load(struct sb_spv_context *ctx, uint32_t index, const struct sb_ir_operand *op,
                                  uint32_t dword);
/** Writes uint `value` to DWORD `dword` of such a u#; false on failure (recorded). */
bool sb_spv_texel_memory_store(struct sb_spv_context *ctx, uint32_t index, const struct sb_ir_operand *op,
                               uint32_t dword, uint32_t value);
/** Image-class pointer to DWORD `dword` of such a u#, for atomics; 0 on failure (recorded). */
uint32_t sb_spv_texel_memory_pointer(struct sb_spv_context *ctx, uint32_t index, const struct sb_ir_operand *op,
                                     uint32_t dword);
/** The DWORDs (texels) bound to such a resource, a uint; 0 on failure (recorded). */
uint32_t sb_spv_texel_memory_dwords(struct sb_spv_context *ctx, uint32_t index, const struct sb_ir_operand *op);
/* ---- the `_cl` LOD clamp without shaderResourceMinLod (spirv_min_lod.c) ---- */

/** Does the device lack shaderResourceMinLod (a described profile without it)? */
bool sb_spv_min_lod_emulated(const struct sb_spv_context *ctx);

/** One `_cl` sample whose clamp spirv_min_lod.c applies (ids of values already emitted). */
struct sb_spv_min_lod_sample {
    uint32_t sampled_image, coord;  /**< as the unclamped sample used them */
    uint32_t dref;                  /**< comparison forms: the reference; 0 otherwise */
    uint32_t const_offset;          /**< ConstOffset operand, 0 when none */
    uint32_t bias;                  /**< sample_b (implicit LOD): the bias; 0 otherwise */
    uint32_t grad_x, grad_y;        /**< sample_d: the gradients; 0 for the implicit forms */
    uint32_t clamp;                 /**< the clamp (float) */
    uint32_t result_type;           /**< of the sample: vec4 of the texel type, or float (dref) */
    uint32_t texture_index;         /**< program->resources index of the t# */
    const struct sb_ir_operand *texture; /**< the t# operand (its non_uniform flag) */
    const struct sb_spv_dimension_info *dim;
};

/**
 * The result of `s` with D3D's clamp applied, from the unclamped sample `unclamped`: per
 * lane, a sample at LOD = clamp where the LOD the sample computes is below the clamp.
 * Implicit forms need a fragment shader. 0 (recorded) on failure.
 */
uint32_t sb_spv_min_lod_apply(struct sb_spv_context *ctx, const struct sb_ir_instruction *inst,
                              const struct sb_spv_min_lod_sample *s, uint32_t unclamped);

/* ---- declared formats of read typed u# (spirv_storage_format.c) ---- */

/** Does the device read storage images of Unknown format (or is it not described)? */
bool sb_spv_device_reads_without_format(const struct sb_spv_context *ctx);
/**
 * The SPIR-V format of the view the caller gave for typed u# `r` (options->storage_formats),
 * declaring StorageImageExtendedFormats when it needs it. Unknown, recorded as
 * SB_ERROR_TRANSLATE_UNSUPPORTED at `first_read`, when none was given or it has none.
 */
SpvImageFormat sb_spv_storage_format_given(struct sb_spv_context *ctx, const struct sb_ir_resource *r,
                                           const struct sb_ir_instruction *first_read);
/** VkFormat number -> SPIR-V image format (+ whether it is an extended one); false if none. */
bool sb_spv_storage_format_of_vk(uint32_t vk_format, SpvImageFormat *format, bool *extended);
/** Row `row` of that table: its VkFormat number (0 past the end) and format (tests walk it). */
uint32_t sb_spv_storage_format_row(uint32_t row, SpvImageFormat *format);

/** ctx->resource_state. */
struct sb_spv_resource_state {
    struct sb_spv_resource_info *info; /**< program->resource_count entries */
    uint32_t *group_shared_dwords;     /**< DWORDs of each g# (by group_shared index) */
    uint32_t sample_position_var;      /**< Private vec2[32] table; 0 until samplepos needs it */
    uint32_t sample_count_spec;        /**< OpSpecConstant of the rasterizer's sample count */
    uint32_t vector_block[3];          /**< Block structs of the uvec2/3/4 memory views; 0 until used */
    uint32_t int64_block;              /**< Block struct of the uint64_t[] views; 0 until used */
};

/** The shared state (never NULL after sb_spv_resource_declare succeeded). */
struct sb_spv_resource_state *sb_spv_resource_state(struct sb_spv_context *ctx);
/** The resource class (SB_IR_RESOURCE_SRV, _SAMPLER, _UAV) a t#/s#/u# operand file refers
 *  to; UINT32_MAX for any other file. */
uint32_t sb_spv_resource_class_of_file(uint32_t file);

/**
 * Resolves a t#/s#/u# operand to its program->resources index, checking the
 * class; records an error and returns UINT32_MAX when it is not declared.
 */
uint32_t sb_spv_resource_index(struct sb_spv_context *ctx, const struct sb_ir_operand *op,
                               uint32_t resource_class);
/**
 * Pointer to the one descriptor `op` names (the variable itself, or for an
 * SM5.1 range an access chain with the index relative to lower_bound, marked
 * NonUniform when the operand says so). 0 on failure (recorded).
 */
uint32_t sb_spv_resource_descriptor_pointer(struct sb_spv_context *ctx, uint32_t index,
                                            const struct sb_ir_operand *op);
/**
 * The descriptor-array index (a uint id) an operand names in SM5.1 range
 * `index`: index[1] (offset + relative), already relative to the range's
 * lower bound (IR.md). 0 (recorded) when a constant index lies outside a
 * bounded range.
 */
uint32_t sb_spv_resource_array_index(struct sb_spv_context *ctx, uint32_t index,
                                     const struct sb_ir_operand *op);
/** OpLoad of an image or sampler descriptor (NonUniform decorated when needed). */
uint32_t sb_spv_resource_load_handle(struct sb_spv_context *ctx, uint32_t index,
                                     const struct sb_ir_operand *op);
/** Decorates `id` NonUniform (declaring the capability/extension) when `op` is non-uniform. */
void sb_spv_resource_non_uniform(struct sb_spv_context *ctx, const struct sb_ir_operand *op,
                                 uint32_t id);
/** Declares the extension that StorageBuffer needs before SPIR-V 1.3. */
void sb_spv_resource_need_storage_buffer(struct sb_spv_context *ctx);
/** Declares SPV_EXT_descriptor_indexing before SPIR-V 1.5 (capability `cap` is declared too). */
void sb_spv_resource_need_indexing(struct sb_spv_context *ctx, SpvCapability cap);
/**
 * Pointer to DWORD `dword` (a uint id) of a raw/structured t#/u# or a g#
 * operand: StorageBuffer or Workgroup uint. g# indices are clamped to the
 * allocation (D3D leaves out-of-range group-shared access undefined; Vulkan
 * must not see it). 0 on failure (recorded).
 */
uint32_t sb_spv_memory_dword_pointer(struct sb_spv_context *ctx, const struct sb_ir_operand *op,
                                     uint32_t dword);
/** Bytes per structure of a structured t#/u#/g# operand (4 for raw); 0 + recorded error otherwise. */
uint32_t sb_spv_memory_stride(struct sb_spv_context *ctx, const struct sb_ir_operand *op,
                              bool *structured);
/** Stores `scalar` (one lane of ir_type) into every lane of dst->mask. */
bool sb_spv_store_replicated(struct sb_spv_context *ctx, const struct sb_ir_instruction *inst,
                             const struct sb_ir_operand *dst, uint32_t scalar, uint32_t ir_type);
/**
 * Writes `texel` (a 4-lane vector of ir_type) through the resource operand's
 * swizzle into dst->mask, as D3D typed reads do.
 */
bool sb_spv_store_texel(struct sb_spv_context *ctx, const struct sb_ir_instruction *inst,
                        const struct sb_ir_operand *dst, uint32_t texel, uint32_t ir_type,
                        const struct sb_ir_operand *resource);
/**
 * The residency status of a `_s` op (dst[1], when present): the back end
 * uses no sparse residency, so it always writes 0, "every texel resident";
 * CHECK_ACCESS_FULLY_MAPPED tests status == 0.
 */
bool sb_spv_store_status(struct sb_spv_context *ctx, const struct sb_ir_instruction *inst);

/** OpSampledImage of t# `tex` (resources index `index`) and s# `smp`, NonUniform as either. */
uint32_t sb_spv_texture_sampled_image(struct sb_spv_context *ctx, uint32_t index,
                                      const struct sb_ir_operand *tex, const struct sb_ir_operand *smp);
/** Declarations: typed t#/u# and s# (spirv_texture_decl.c), memory/counters/g# (spirv_uav_decl.c). */
enum sb_result sb_spv_texture_declare(struct sb_spv_context *ctx, uint32_t index);
enum sb_result sb_spv_uav_declare_memory(struct sb_spv_context *ctx, uint32_t index);
enum sb_result sb_spv_uav_declare_group_shared(struct sb_spv_context *ctx);

/** Instruction groups; each returns UNSUPPORTED unrecorded for ops it does not handle. */
enum sb_result sb_spv_texture_sample(struct sb_spv_context *ctx, const struct sb_ir_instruction *inst);
enum sb_result sb_spv_texture_fetch(struct sb_spv_context *ctx, const struct sb_ir_instruction *inst);
enum sb_result sb_spv_texture_query(struct sb_spv_context *ctx, const struct sb_ir_instruction *inst);
enum sb_result sb_spv_uav_access(struct sb_spv_context *ctx, const struct sb_ir_instruction *inst);
/** ld_uav_typed_ms / store_uav_typed_ms on a multisampled u# (spirv_uav_ms.c); UNSUPPORTED
 *  (unrecorded) for other ops. */
enum sb_result sb_spv_uav_ms(struct sb_spv_context *ctx, const struct sb_ir_instruction *inst);
enum sb_result sb_spv_uav_atomic(struct sb_spv_context *ctx, const struct sb_ir_instruction *inst);
/** imm_atomic64_* on a raw/structured u# (spirv_atomic64.c); UNSUPPORTED for other ops. */
enum sb_result sb_spv_atomic64(struct sb_spv_context *ctx, const struct sb_ir_instruction *inst);

/** Image facts of an SM4 dimension (spirv_texture_decl.c); NULL for non-image dimensions. */
struct sb_spv_dimension_info {
    SpvDim dim;
    bool arrayed, ms;
    uint8_t coords;          /**< coordinate lanes, array index included */
    uint8_t offsets;         /**< texel-offset lanes (0: offsets not allowed, cube) */
    uint8_t size_lanes;      /**< lanes of OpImageQuerySize(Lod), array size included */
    SpvCapability sampled_cap; /**< capability for the sampled form (Shader: nothing extra) */
    SpvCapability storage_cap; /**< capability for the storage form (Shader: nothing extra) */
};
const struct sb_spv_dimension_info *sb_spv_dimension_info(uint32_t dimension);

/* ---- hooks implemented by the stage engineer (spirv_stage_*.c) ----------------------------------- */

/**
 * GS/HS/DS: execution modes, arrayed inputs/outputs, patch constants, tess
 * factors, stream plumbing (after sb_spv_io_declare and the register arrays
 * of the common parts). Returns SB_SUCCESS doing nothing for VS/PS/CS.
 */
enum sb_result sb_spv_stage_declare(struct sb_spv_context *ctx);
/** Emit/cut and other stage ops; UNSUPPORTED-unrecorded for others. */
enum sb_result sb_spv_stage_instruction(struct sb_spv_context *ctx, const struct sb_ir_instruction *inst);
/**
 * Builds the entry function ctx->entry_function when the stage needs its own
 * (HS: control-point phase, fork/join phases with barriers). Returns
 * SB_ERROR_TRANSLATE_UNSUPPORTED without recording to get the default
 * main: { sb_spv_io_prologue; call function 0; sb_spv_io_epilogue }.
 * Called after every IR function has been emitted.
 */
enum sb_result sb_spv_stage_finish(struct sb_spv_context *ctx);
/**
 * Does the stage code declare and copy signature element `e` itself? Then
 * sb_spv_io_declare must skip it. True for geometry-shader outputs of a
 * stream other than 0 (they carry the Stream decoration and are written only
 * before an emit on their stream; spirv_stage_gs.c). The other stage-owned
 * elements (arrayed GS/HS/DS inputs, HS outputs, patch constants) are
 * skipped by spirv_io.c already because their register files are declared
 * only by sb_spv_stage_declare, after it.
 */
bool sb_spv_stage_owns_element(const struct sb_spv_context *ctx,
                               const struct sb_ir_signature_element *e);

/* ---- SM5.0 class linkage (spirv_linkage.c; the lowering is described there) ------------------------ */

/**
 * Interface slots of a program: the largest fp# id + array length, raised to
 * cover constant this[] indices. SB_ERROR_TRANSLATE_INVALID (error filled when
 * not NULL) when they pass D3D11's 253 slots.
 */
enum sb_result sb_spv_linkage_slot_count(const struct sb_ir_program *program, uint32_t *count,
                                         struct sb_error *error);
/** Same, for a program known to have no this[] operand (the interfaces alone count). */
enum sb_result sb_spv_linkage_interface_slot_count(const struct sb_ir_program *program, uint32_t *count,
                                                   struct sb_error *error);
/** Declares the class-instance specialisation constants of every slot (nothing without slots). */
enum sb_result sb_spv_linkage_declare(struct sb_spv_context *ctx);
/** INTERFACE_CALL: OpSwitch over the slot's table selector, one call per table. */
enum sb_result sb_spv_linkage_call(struct sb_spv_context *ctx, const struct sb_ir_instruction *inst);
/** this[i] as a vec4 of float lanes (the slot's this-data constants); 0 on failure (recorded;
 *  spirv_operand.c). */
uint32_t sb_spv_linkage_this_vector(struct sb_spv_context *ctx, const struct sb_ir_operand *op);
/** cb[r][v] with a relatively chosen buffer r: vec4 float; 0 on failure (recorded;
 *  spirv_operand.c). */
uint32_t sb_spv_linkage_cbuffer_load(struct sb_spv_context *ctx, const struct sb_ir_operand *op);
/**
 * An instruction with an SM5.0 t#/s#/u# operand whose register is relative
 * (t[r0.w + 0]): emitted once per fitting declared register under an
 * OpSwitch. UNSUPPORTED-unrecorded when it has no such operand.
 */
enum sb_result sb_spv_linkage_resource_instruction(struct sb_spv_context *ctx,
                                                   const struct sb_ir_instruction *inst);

/* ---- the whole back end (spirv_module.c) ----------------------------------------------------------- */

/**
 * Translates `program` (bindings already assigned in its resources) into SPIR-V and
 * returns the translation as one block (translation_block.h) in *out: the words, the
 * interface lists with their semantics, the capabilities' origins, and room for what the
 * caller fills: `caller_part` (its binding_count bindings and string_bytes of their
 * names; other fields 0). Reads the IR only (-g names from
 * sb_ir_resource::cb_variables). Working memory comes from `scratch` (the caller's
 * arena). A PICA program must be lowered (sb_ir_run_passes) first:
 * SB_ERROR_INVALID_ARGUMENT otherwise. `source_name` (NULL: "shader.dxbc") names the
 * OpSource file under -g.
 */
enum sb_result sb_spv_generate(const struct sb_ir_program *program,
                               const struct sb_translate_options *options, const char *source_name,
                               struct sb_arena *scratch, const struct sb_translation_layout *caller_part,
                               struct sb_translation **out, struct sb_error *error);

/**
 * VkDescriptorType of a resource's binding (spirv_resource_util.c), the one source of
 * truth the declarations must match: cb# UNIFORM_BUFFER (6); s# SAMPLER (0);
 * t# typed buffer UNIFORM_TEXEL_BUFFER (4), other typed SAMPLED_IMAGE (2),
 * raw/structured STORAGE_BUFFER (7); u# typed buffer STORAGE_TEXEL_BUFFER (5),
 * other typed STORAGE_IMAGE (3), raw/structured STORAGE_BUFFER (7). A raw/structured
 * register with sb_ir_resource::texel_memory: UNIFORM_TEXEL_BUFFER (t#) or
 * STORAGE_TEXEL_BUFFER (u#).
 */
uint32_t sb_spv_descriptor_type(const struct sb_ir_resource *resource);

/** SPIR-V version word for a target env (vulkan1.0 -> 1.0, 1.1 -> 1.3, 1.2 -> 1.5, 1.3 -> 1.6). */
uint32_t sb_spv_version_for_env(enum sb_target_env env);

/* spirv_compute_derivatives.c */
/** Whether derivatives and implicit LODs are defined: fragment shaders, and compute shaders
 *  with sb_ir_program::compute_derivatives. */
bool sb_spv_has_derivatives(const struct sb_spv_context *ctx);
/** A compute program with derivatives: SPV_NV_compute_shader_derivatives, its capability and
 *  the DerivativeGroup*NV execution mode on `entry`; nothing otherwise. */
void sb_spv_declare_compute_derivatives(struct sb_spv_context *ctx, uint32_t entry);

/* SPIRV-Tools entry points (sb_spirv_validate, sb_spirv_optimize) are public in translate.h. */

/**
 * Zeroed working memory for `count` elements in ctx->scratch (NULL on overflow or failure,
 * unrecorded): never freed one by one, it goes with the arena after the module is built.
 * Lists that end up in the translation are copied into its one block (sb_spv_generate).
 */
void *sb_spv_zalloc(struct sb_spv_context *ctx, size_t count, size_t size);

/**
 * Room for one more element at index `count` of a growable array in ctx->scratch
 * (capacity doubles, starting at `first`; the old array is abandoned to the arena). Returns
 * the array, moved if it grew, or NULL after recording SB_ERROR_OUT_OF_MEMORY (the old
 * array is then untouched).
 */
void *sb_spv_grow(struct sb_spv_context *ctx, void *items, uint32_t count, uint32_t *capacity,
                  size_t size, uint32_t first);

/** After -O: drops reported inputs/outputs/built-ins whose variables the optimiser removed
 *  (translate_report.c). SB_ERROR_OUT_OF_MEMORY, or SB_ERROR_SPIRV_OPTIMIZE when the words
 *  do not scan as a module. */
enum sb_result sb_translation_prune_interface(struct sb_translation *translation);

#endif
