/* SPDX-License-Identifier: MIT */
/*
 * Shared state of the DXIL -> IR front end (ir_from_dxil*.c, README.md).
 * Files, lowest first: ir_from_dxil_emit.c (sticky error, SSA value ->
 * temp map, operands, dx.op arguments, instruction buffer),
 * ir_from_dxil_resource_kinds.c (what each resource kind is declared as),
 * ir_from_dxil_resources.c (resource declarations, createHandle, handle operands),
 * ir_from_dxil_heap.c (SM 6.6 descriptor-heap handles and their views),
 * ir_from_dxil_handles66.c (SM 6.6 createHandleFromBinding, annotateHandle),
 * ir_from_dxil_resret.c (ResRet destinations and status),
 * ir_from_dxil_buffers.c (cbuffer and buffer loads/stores, counters),
 * ir_from_dxil_buffers16.c (16-bit elements of raw buffers),
 * ir_from_dxil_cbuf.c (16/64-bit CBufRet rows, non-legacy cbufferLoad),
 * ir_from_dxil_narrow_structured.c (structured strides not a multiple of 4, as raw),
 * ir_from_dxil_gather16.c (gathers with 16-bit overloads),
 * ir_from_dxil_buffers64.c (64-bit elements of raw and structured buffers),
 * ir_from_dxil_textures.c (texture reads, writes and queries),
 * ir_from_dxil_feedback.c (sampler feedback writes as atomics on an R32_UINT map),
 * ir_from_dxil_instructions.c (LLVM instructions), ir_from_dxil_io.c
 * (signatures, loadInput/storeOutput), ir_from_dxil_geometry.c (GS state,
 * streams), ir_from_dxil_pixel.c (discard, derivatives, pixel system values,
 * eval*), ir_from_dxil_wide.c (other widths: i8/i16/half/i64/double, sdiv/srem,
 * every fcmp), ir_from_dxil_math.c and ir_from_dxil_math_more.c,
 * ir_from_dxil_packed.c (math dx.ops), ir_from_dxil_wave.c,
 * ir_from_dxil_wave_lanes.c (wave/quad ops), ir_from_dxil_census.c (numeric census),
 * ir_from_dxil_tessellation.c (hull/domain state, signatures, I/O),
 * ir_from_dxil_sysvals.c (isHelperLane outside pixel shaders, SV_Barycentrics registers),
 * ir_from_dxil_ags.c (AMD AGS intrinsics on the magic UAV), ir_from_dxil_float8.c (8-bit
 * float conversions as integer IR), ir_from_dxil_wmma.c (its
 * per-lane wave-matrix intrinsics; ir_from_dxil_wmma_memory.c: their loads and stores;
 * ir_from_dxil_wmma_mulacc.c: the multiply),
 * ir_from_dxil_dxop.c (dx.op dispatch, system values),
 * ir_from_dxil_flow.c (structurizer events -> IR markers, phi copies),
 * ir_from_dxil.c (the driver: container -> program).
 *
 * A value is one register component: every scalar result gets lane x of a
 * temp of its own, a struct of up to four 32-bit members (CBufRet, ResRet)
 * gets lanes x.. of one temp. i1 values are D3D bools (0 / 0xFFFFFFFF), so
 * IR compares feed IF/MOVC directly.
 */
#ifndef SB_IR_FROM_DXIL_PRIVATE_H
#define SB_IR_FROM_DXIL_PRIVATE_H

#include "ir/ir_private.h"
#include "reflect/bitcode.h"
#include "translator/dxil_program_info.h"

struct dxil_memory;
struct dxil_wmma;

/** No temp / no resource for a value. */
#define DXIL_FRONT_NONE UINT32_MAX
/** The g# id of the task payload (ir_from_dxil_mesh.c): past any id groupshared globals get. */
#define DXIL_FRONT_PAYLOAD_ID 0xFFFFu

/** Record IDs of the descriptor-heap views (ir_from_dxil_heap.c) start here, above every
 *  dx.resources record's (dense from 0 per class; a record at or above it is refused). */
#define DXIL_FRONT_HEAP_VIEW_ID_BASE 0x40000000u

/** Which descriptor heap a createHandleFromHeap handle indexes, before annotateHandle. */
enum dxil_front_heap { DXIL_FRONT_NOT_HEAP, DXIL_FRONT_RESOURCE_HEAP, DXIL_FRONT_SAMPLER_HEAP };

/** What a handle value names: a program resource and the element of its range. */
struct dxil_front_handle {
    /** Index into program->resources (below the entry's resource count: that record);
     *  DXIL_FRONT_NONE for a heap handle not annotated yet. */
    uint32_t resource;
    uint32_t element;     /**< constant index within the range (0 with a dynamic index) */
    /** The value holding a dynamic register number (DXIL's index: lower bound + element),
     *  or DXIL_FRONT_NONE for a constant one. */
    uint32_t index_value;
    bool non_uniform;     /**< NonUniformResourceIndex: the IR operand's non_uniform */
    bool defined;         /**< the value is a handle (the others are zero) */
    uint32_t heap;        /**< enum dxil_front_heap: not annotated yet when not NOT_HEAP */
};

/** Functions whose callee kind dxil_front keeps (a module declares a dozen dx.op
 *  functions or so; calls of the others look at the name each time). */
#define DXIL_FRONT_KEPT_CALLEES 64

struct dxil_front {
    const struct sb_bc_module *module;
    const struct sb_bc_function *function;
    const struct sb_dxil_entry_point *entry;
    struct sb_ir_program *program;
    struct sb_arena *arena;
    struct sb_error error;
    bool failed;
    uint64_t offset;             /**< byte offset of the instruction being lowered */
    uint32_t *value_temp;        /**< per function-local value: its temp, or NONE */
    uint32_t *value_resource;    /**< per function-local value (handles): program resource */
    /** Per function-local value: the handle it is, where value_resource names a resource;
     *  allocated on the first handle (ir_from_dxil_resources.c). */
    struct dxil_front_handle *handles;
    uint32_t temp_count;
    uint32_t selector_temp;      /**< the structurizer's selector */
    uint32_t system_values;      /**< bit per SB_IR_FILE_* special input the body reads */
    /** Per function-local value: bit i = an extractvalue reads member i (ResRet reads; filled
     *  on the first one, ir_from_dxil_resret.c); NULL before. */
    uint8_t *extracted_members;
    uint32_t *value_status;      /**< per function-local value: its ResRet status temp, or NONE */
    uint32_t tess_inputs;        /**< hull/domain special inputs read (ir_from_dxil_tessellation.c) */
    bool patch_phase;            /**< lowering a hull shader's patch-constant function */
    /* Signatures and stage I/O (ir_from_dxil_io.c, _geometry.c, _pixel.c). */
    uint32_t input_array_size;   /**< vertices of an arrayed input (GS); 0 = not arrayed */
    bool has_sample_index;       /**< SV_SampleIndex is in the input signature ... */
    uint32_t sample_index_register; /**< ... in this v# (fxc's dcl_input_ps_sgv) */
    uint32_t special_inputs;     /**< bit per io.c special input (vPrim & co) the body reads */
    struct sb_ir_index_range *io_ranges; /**< program->index_ranges, written while lowering */
    struct dxil_memory *memory;  /**< ir_from_dxil_memory.c's state; NULL until memory is used */
    /** The AGS wave-matrix call sequence in progress (ir_from_dxil_wmma.c); NULL before. */
    struct dxil_wmma *wmma;
    /** Amplification programs: the groupshared global dispatchMesh sends (its module value
     *  id), NONE otherwise (ir_from_dxil_mesh.c). */
    uint32_t payload_global;
    struct sb_ir_instruction *code; /**< the function being lowered, in the arena */
    uint32_t code_count, code_capacity;
    /** What the module's first functions are as callees (ir_from_dxil_dxop.c), by function
     *  index; 0 until the first call of each. */
    uint8_t callee_kind[DXIL_FRONT_KEPT_CALLEES];
    /** One past the first instruction of the block being lowered (ir_from_dxil_flow.c), 0
     *  outside blocks (the census): values are aliased (dxil_front_alias) only in blocks. */
    uint32_t block_first_plus1;
};

/* A value_temp entry of an aliased value (dxil_front_alias): this bit, then the register
 * lane it reads, register << 3 | (1 for v#, 0 for r#) << 2 | lane (registers below
 * 2^28 - 1, so that no alias is DXIL_FRONT_NONE). Temps themselves stay far below 2^31. */
#define DXIL_FRONT_ALIAS 0x80000000u

/* ir_from_dxil_emit.c */
bool dxil_front_fail(struct dxil_front *f, enum sb_result code, const char *format, ...)
    __attribute__((format(printf, 3, 4))) SB_COLD;
void *dxil_front_alloc(struct dxil_front *f, size_t count, size_t size);
uint32_t dxil_front_new_temp(struct dxil_front *f);
/**
 * Names lane `lane` of r# or v# `reg` (`file` SB_IR_FILE_TEMP or SB_IR_FILE_INPUT) as the
 * function-local `value` from now on, in place of a register of its own and the copy into
 * it (an extracted member, a loadInput): only dxil_front_src reads it, and
 * dxil_front_value_temp of it fails. The caller vouches that every use the value dominates
 * reads the same bits there. False (nothing done) outside a block, for a value already
 * given a register or a register number of 2^28 - 1 or more, or after a failure.
 */
bool dxil_front_alias(struct dxil_front *f, uint32_t value, uint32_t file, uint32_t reg,
                      uint32_t lane);
/** The temp of a function-local value id, allocating it on first use; NONE on failure. */
uint32_t dxil_front_value_temp(struct dxil_front *f, uint32_t value);
const struct sb_bc_type *dxil_front_type(const struct dxil_front *f, uint32_t type);
/** Lanes a value of `type` takes (1 scalar, 1-4 struct members), 0 when unsupported. */
uint32_t dxil_front_type_lanes(const struct dxil_front *f, uint32_t type);
/* The operand builders are inline and write their operand as five 16-byte chunks. A
 * compound literal was written as zeroing stores plus 1- to 8-byte field stores, and the
 * copy into the instruction's operands (16-byte loads, a few instructions later) then
 * waited for those stores to drain: a load spanning several stores is not forwarded
 * (perf: ~6% of a DXIL translation in dxil_front_fresh, _src and _emit; instruction
 * counts do not show it). One store per chunk forwards to a load of that chunk. */
typedef uint32_t dxil_operand_chunk __attribute__((vector_size(16)));
union dxil_operand_chunks {
    struct sb_ir_operand operand;
    dxil_operand_chunk chunk[5];
};
_Static_assert(sizeof(struct sb_ir_operand) == sizeof(union dxil_operand_chunks) &&
                   offsetof(struct sb_ir_operand, index[0].offset) == 8 &&
                   offsetof(struct sb_ir_operand, mask) == 56 &&
                   offsetof(struct sb_ir_operand, swizzle) == 57 &&
                   offsetof(struct sb_ir_operand, imm) == 64,
               "the operand chunks below follow struct sb_ir_operand's layout");
#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "dxil_front_operand packs the byte fields for a little-endian target"
#endif

/* An operand with one index (none when index_count is 0), no relative addressing or
 * modifiers: `mask`, `swizzle` packed x in the low byte, `imm` in every lane. */
static inline struct sb_ir_operand dxil_front_operand(uint32_t file, uint32_t index_count,
                                                      uint32_t offset, uint8_t mask,
                                                      uint32_t swizzle, uint32_t imm)
{
    union dxil_operand_chunks u;
    u.chunk[0] = (dxil_operand_chunk){ file, index_count, offset, 0 };
    u.chunk[1] = (dxil_operand_chunk){ 0, 0, 0, 0 };
    u.chunk[2] = (dxil_operand_chunk){ 0, 0, 0, 0 };
    u.chunk[3] = (dxil_operand_chunk){ 0, 0, mask | swizzle << 8, swizzle >> 24 };
    u.chunk[4] = (dxil_operand_chunk){ imm, imm, imm, imm };
    return u.operand;
}

static inline struct sb_ir_operand dxil_front_temp_dst(uint32_t temp, uint8_t mask)
{
    return dxil_front_operand(SB_IR_FILE_TEMP, 1, temp, mask, 0, 0);
}

/* Lane `lane` of r`temp`, replicated. */
static inline struct sb_ir_operand dxil_front_temp_src(uint32_t temp, uint32_t lane)
{
    return dxil_front_operand(SB_IR_FILE_TEMP, 1, temp, 0, (lane & 0xFFu) * 0x01010101u, 0);
}

/* An immediate with `bits` in every lane (swizzle xyzw). */
static inline struct sb_ir_operand dxil_front_imm(uint32_t bits)
{
    return dxil_front_operand(SB_IR_FILE_IMMEDIATE, 0, 0, 0, 0x03020100u, bits);
}
/** A source reading lane `lane` of value `value` (a temp, or an immediate for a constant). */
bool dxil_front_src(struct dxil_front *f, uint32_t value, uint32_t lane, struct sb_ir_operand *out);
/** The constant integer behind `value` (any width, zero-extended). */
bool dxil_front_const_int(const struct dxil_front *f, uint32_t value, uint64_t *out);
/** Appends one instruction (operands copied); the op's side fields start at 0. */
struct sb_ir_instruction *dxil_front_emit(struct dxil_front *f, uint32_t op,
                                          const struct sb_ir_operand *dst, uint32_t dst_count,
                                          const struct sb_ir_operand *src, uint32_t src_count);

/** Argument i of a dx.op call (0 is the opcode; operands[0] is the callee). */
bool dxil_front_arg(struct dxil_front *f, const struct sb_bc_instruction *in, uint32_t i,
                    uint32_t *value);
/** Argument i of a dx.op call, which must be a constant integer. */
bool dxil_front_const_arg(struct dxil_front *f, const struct sb_bc_instruction *in, uint32_t i,
                          uint64_t *out);
/** The temp of the call's result, which must take `lanes` 32-bit lanes. */
bool dxil_front_result_temp(struct dxil_front *f, const struct sb_bc_instruction *in,
                            uint32_t lanes, uint32_t *temp);

/** True for i64 and double: values that take a lane pair (x low, y high). */
bool dxil_front_is_wide_type(const struct dxil_front *f, uint32_t type);
/** The f32 bits of a half (exact). */
uint32_t dxil_front_float_bits_of_half(uint16_t h);

/* ir_from_dxil_resource_kinds.c */
/** The kind-specific fields of the IR declaration of resource `d`. */
bool dxil_front_resource_kind(struct dxil_front *f, const struct sb_dxil_resource *d,
                              struct sb_ir_resource *r);

/* ir_from_dxil_resources.c */
/** Fills program->resources from the entry's resource list: the bindings, then the kinds
 *  (dxil_front_resource_kind). */
bool dxil_front_declare_resources(struct dxil_front *f);
/** The binding part of each record's declaration in out[0..count): ranges and spaces as
 *  SM5.1 declares them (id = the record's rangeId, lower bound, count, space, name). */
bool dxil_front_declare_bindings(struct dxil_front *f, struct sb_ir_resource *out);
/** The IR class (enum sb_ir_resource_class) of a DXIL resource class 0-3. */
uint32_t dxil_front_ir_resource_class(uint32_t dxil_class);
/** createHandle(class, rangeId, index, nonUniform). */
bool dxil_front_create_handle(struct dxil_front *f, const struct sb_bc_instruction *in);
/** Makes the call's result a handle of program resource `resource` at the register number in
 *  value `index` (constant or dynamic), checking a constant one against `first`..`last`. */
bool dxil_front_bind_handle(struct dxil_front *f, const struct sb_bc_instruction *in,
                            uint32_t resource, uint32_t index, uint32_t first, uint32_t last,
                            bool non_uniform);
/** The handle record of the handle value in argument i of a call. */
bool dxil_front_handle(struct dxil_front *f, const struct sb_bc_instruction *in, uint32_t i,
                       const struct dxil_front_handle **out);
/** The program resource the handle in argument i names and its operand: the t#/u#/cb#/s#
 *  register (SM5.0 form, index_count 1) for a one-register resource, else the SM5.1 form
 *  (index_count 2: range id, index within the range, relative for a dynamic index, with
 *  non_uniform). A cbuffer row goes in index[index_count++]. */
bool dxil_front_handle_operand(struct dxil_front *f, const struct sb_bc_instruction *in,
                               uint32_t i, const struct sb_ir_resource **resource,
                               struct sb_ir_operand *operand);
/** The program resource the handle in argument i names, for callers that build the operand
 *  with dxil_front_resource_operand: refuses a handle of an element of a resource array
 *  (those need dxil_front_handle_operand). */
bool dxil_front_handle_resource(struct dxil_front *f, const struct sb_bc_instruction *in,
                                uint32_t i, const struct sb_ir_resource **out);
/** The t#/u#/cb#/s# operand of a one-register program resource (all four lanes, in order). */
struct sb_ir_operand dxil_front_resource_operand(const struct sb_ir_resource *r);

/* ir_from_dxil_heap.c */
/** createHandleFromHeap(index, samplerHeap, nonUniform): a heap handle awaiting its view. */
bool dxil_front_create_handle_from_heap(struct dxil_front *f, const struct sb_bc_instruction *in);
/** annotateHandle of heap handle `pending`: a handle of the heap view `props` describe
 *  (declared on first use; the binding convention is in ir_from_dxil_heap.c). */
bool dxil_front_annotate_heap_handle(struct dxil_front *f, const struct sb_bc_instruction *in,
                                     const struct dxil_front_handle *pending,
                                     const uint32_t props[2]);

/* ir_from_dxil_handles66.c */
/** createHandleFromBinding(ResBind{lower, upper, space, class}, index, nonUniform). */
bool dxil_front_create_handle_from_binding(struct dxil_front *f,
                                           const struct sb_bc_instruction *in);
/** annotateHandle(handle, ResourceProperties): the same handle, properties checked. */
bool dxil_front_annotate_handle(struct dxil_front *f, const struct sb_bc_instruction *in);

/* ir_from_dxil_resret.c */
/** Refuses (naming `what`) unless `type` (or its first struct member) is i32 or f32: the
 *  16/64-bit resource overloads are the numeric-types work's. */
bool dxil_front_overload_32(struct dxil_front *f, uint32_t type, const char *what);
/** The destinations of a resource read returning a ResRet: dst[0] its temp under the mask of
 *  the members the body extracts, dst[1] (count 2) the status temp when member 4 is read. */
bool dxil_front_resret_dst(struct dxil_front *f, const struct sb_bc_instruction *in,
                           const char *what, struct sb_ir_operand dst[2], uint32_t *dst_count);
/** The same for a ResRet of any overload whose members take one lane each (the caller has
 *  checked the overload: 16-bit gathers, ir_from_dxil_gather16.c). */
bool dxil_front_resret_dst_any(struct dxil_front *f, const struct sb_bc_instruction *in,
                               struct sb_ir_operand dst[2], uint32_t *dst_count);
/** A source reading the status of the ResRet `aggregate` (extractvalue member 4). */
bool dxil_front_resret_status(struct dxil_front *f, uint32_t aggregate, struct sb_ir_operand *src);
bool dxil_front_check_access_fully_mapped(struct dxil_front *f,
                                          const struct sb_bc_instruction *in);

/* ir_from_dxil_buffers.c */
/** cbufferLoadLegacy(handle, row). */
bool dxil_front_cbuffer_load_legacy(struct dxil_front *f, const struct sb_bc_instruction *in);
/** bufferStore / rawBufferStore of a raw, structured or typed buffer. */
bool dxil_front_buffer_store(struct dxil_front *f, const struct sb_bc_instruction *in);
/** bufferLoad / rawBufferLoad of a raw, structured or typed buffer. */
bool dxil_front_buffer_load(struct dxil_front *f, const struct sb_bc_instruction *in);
/** bufferUpdateCounter(uav, +1 / -1): the UAV's hidden counter. */
bool dxil_front_buffer_update_counter(struct dxil_front *f, const struct sb_bc_instruction *in);
/** A temp whose lanes 0..count-1 hold arguments first..first+count-1 and whose other lanes
 *  hold 0 (never reading the undef arguments DXIL leaves in unused coordinate slots). */
bool dxil_front_gather_args(struct dxil_front *f, const struct sb_bc_instruction *in,
                            uint32_t first, uint32_t count, uint32_t *temp);

/* ir_from_dxil_textures.c */
/** sample*, textureGather*, calculateLOD, textureLoad, textureStore, getDimensions, sample
 *  positions and counts; false for an opcode that is none of these (nothing emitted). */
bool dxil_front_is_texture_op(uint64_t opcode);
bool dxil_front_texture_op(struct dxil_front *f, const struct sb_bc_instruction *in,
                           uint64_t opcode);

/* ir_from_dxil_feedback.c */
bool dxil_front_is_feedback_op(uint64_t opcode);
/** WriteSamplerFeedback, -Bias, -Level, -Grad as atomics on the map (the file's comment). */
bool dxil_front_feedback_op(struct dxil_front *f, const struct sb_bc_instruction *in,
                            uint64_t opcode);

/* ir_from_dxil_wide.c */
/** The program uses native 16-bit types (shader flag bit 23), not min precision. */
bool dxil_front_native_16bit(const struct dxil_front *f);
/** A DOUBLE-slot source of a 64-bit value (pair xy of its temp, or a 64-bit immediate). */
bool dxil_front_src64(struct dxil_front *f, uint32_t value, struct sb_ir_operand *out);
/** IMax/IMin/UMax/UMin (`op`, the IR op of the 32-bit overload) on i16 or i64 values. */
bool dxil_front_minmax_wide(struct dxil_front *f, const struct sb_bc_instruction *in, uint32_t op);
/** IMad/UMad on i16 or i64 values: the low bits of a * b + c. */
bool dxil_front_mad_wide(struct dxil_front *f, const struct sb_bc_instruction *in);
/** One instruction of one destination. */
bool dxil_front_emit1(struct dxil_front *f, uint32_t op, struct sb_ir_operand dst,
                      const struct sb_ir_operand *src, uint32_t count);
/** A fresh one-lane temp: returns its lane-x destination, its source in *src. */
struct sb_ir_operand dxil_front_fresh(struct dxil_front *f, struct sb_ir_operand *src);
/** The type of dx.op argument i; NULL when it is missing. */
const struct sb_bc_type *dxil_front_arg_type(struct dxil_front *f,
                                             const struct sb_bc_instruction *in, uint32_t i);
/** dx.op arguments first .. first+count-1 as lane-x sources (32-bit values). */
bool dxil_front_call_args(struct dxil_front *f, const struct sb_bc_instruction *in,
                          uint32_t first, uint32_t count, struct sb_ir_operand *src);
/** The same value's two lanes (x low, y high; swizzle xyxy) for bit copies (MOV, MOVC). */
bool dxil_front_src64_lanes(struct dxil_front *f, uint32_t value, struct sb_ir_operand *out);
/** dst = a 32-bit register read as a value of LLVM `type`: a MOV; a native half (a 16-bit
 *  input the runtime supplies as f32) rounded to the nearest half. */
bool dxil_front_move_typed(struct dxil_front *f, uint32_t type, struct sb_ir_operand dst,
                           struct sb_ir_operand src);
/** Whether dxil_front_move_typed copies a value of `type` with a plain MOV (not a half
 *  rounded to 16 bits). */
bool dxil_front_move_is_plain(const struct dxil_front *f, uint32_t type);
/** dst = src rounded to the nearest half (F32TOF16, F16TOF32). */
bool dxil_front_round_half(struct dxil_front *f, struct sb_ir_operand dst, struct sb_ir_operand src);
/** Whether the binop/cmp/cast/select is one of ir_from_dxil_wide.c's (other widths, sdiv/srem,
 *  the fcmp predicates beyond oeq/ogt/oge/olt/ole/une, i1 -> float). */
bool dxil_front_wide_claims(const struct dxil_front *f, const struct sb_bc_instruction *in);
bool dxil_front_wide_instruction(struct dxil_front *f, const struct sb_bc_instruction *in);

/* ir_from_dxil_buffers16.c */
/** Bits of a buffer load's (ResRet member) or store's (value) element; 0 when unknown. */
uint32_t dxil_front_buffer_element_bits(struct dxil_front *f, const struct sb_bc_instruction *in,
                                        bool load);
/** A rawBufferLoad/Store of 16-bit elements on a raw buffer (dxil_front_buffer_narrow's). */
bool dxil_front_buffer16_claims(struct dxil_front *f, const struct sb_bc_instruction *in,
                                bool load);
/** Loads/stores of 16-bit elements of raw buffers. */
bool dxil_front_buffer_narrow(struct dxil_front *f, const struct sb_bc_instruction *in, bool load);

/* ir_from_dxil_buffers64.c */
/** A rawBufferLoad/Store of 64-bit elements (dxil_front_buffer_wide's). */
bool dxil_front_buffer64_claims(struct dxil_front *f, const struct sb_bc_instruction *in,
                                bool load);
/** Loads/stores of one or two 64-bit elements of raw and structured buffers. */
bool dxil_front_buffer_wide(struct dxil_front *f, const struct sb_bc_instruction *in, bool load);
/** Whether `aggregate_type` is a ResRet of 64-bit members (its temp holds words). */
bool dxil_front_resret64_claims(const struct dxil_front *f, uint32_t aggregate_type);
/** extractvalue of such a ResRet: member k's lane pair. */
bool dxil_front_resret64_extract(struct dxil_front *f, const struct sb_bc_instruction *in);

/* ir_from_dxil_gather16.c */
/** Whether a gather returns a 16-bit ResRet (i16/f16). */
bool dxil_front_gather16_claims(const struct dxil_front *f, const struct sb_bc_instruction *in);
/** Refuses a 16-bit gather the IR's value gather cannot give (see the file). */
bool dxil_front_gather16_check(struct dxil_front *f, const struct sb_bc_instruction *in,
                               const struct sb_ir_resource *r);
/** After the gather into `dst`: its lanes brought to the 16-bit type's range. */
bool dxil_front_gather16_finish(struct dxil_front *f, const struct sb_bc_instruction *in,
                                struct sb_ir_operand dst);

/* ir_from_dxil_narrow_structured.c */
/** Declares DXIL structured buffer `d` as raw when its stride is not a multiple of 4 (true;
 *  false, nothing written, for any other resource). */
bool dxil_front_declare_narrow_structured(const struct sb_dxil_resource *d,
                                          struct sb_ir_resource *r);
/** The stride of program resource `r` when it is such a buffer, else 0. */
uint32_t dxil_front_narrow_stride(const struct dxil_front *f, const struct sb_ir_resource *r);
/** True when `r` is not such a buffer; else fails naming `what` (not translated on it). */
bool dxil_front_refuse_narrow_structured(struct dxil_front *f, const struct sb_ir_resource *r,
                                         const char *what);
/** *out = the byte offset index * stride + offset in such a buffer (lane x of a fresh temp). */
bool dxil_front_narrow_structured_offset(struct dxil_front *f, const struct sb_ir_resource *r,
                                         struct sb_ir_operand index, struct sb_ir_operand offset,
                                         struct sb_ir_operand *out);

/* ir_from_dxil_cbuf.c */
/** Whether `type` is a CBufRet of eight 16-bit or two 64-bit members (a raw row). */
bool dxil_front_cbufret_packed(const struct dxil_front *f, uint32_t type);
/** The temp of a cbufferLoadLegacy returning such a CBufRet (its lanes get the row). */
bool dxil_front_cbufret_packed_temp(struct dxil_front *f, const struct sb_bc_instruction *in,
                                    uint32_t *temp);
/** extractvalue of a member of such a CBufRet (of type `aggregate_type`). */
bool dxil_front_cbufret_extract(struct dxil_front *f, const struct sb_bc_instruction *in,
                                uint32_t aggregate_type);
/** cbufferLoad(handle, byteOffset, alignment): one 16/32/64-bit scalar (non-legacy layout). */
bool dxil_front_cbuffer_load(struct dxil_front *f, const struct sb_bc_instruction *in);

/* ir_from_dxil_instructions.c */
/** Lowers one non-terminator, non-phi instruction (calls go to dxil_front_call). */
bool dxil_front_instruction(struct dxil_front *f, const struct sb_bc_instruction *in);

/* ir_from_dxil_io.c */
/** The IR component type (FLOAT, INT, UINT) of a DXIL ComponentType as the signatures
 *  translate it (min precision as 32-bit); NONE for those they do not translate. */
uint32_t dxil_front_component_type(const struct dxil_front *f, uint32_t dxil_type);
/** Fills program->signature from the entry's input and output signatures (vs/ps/gs; inputs
 *  arrayed by input_array_size). */
bool dxil_front_declare_signatures(struct dxil_front *f);
bool dxil_front_load_input(struct dxil_front *f, const struct sb_bc_instruction *in);
bool dxil_front_store_output(struct dxil_front *f, const struct sb_bc_instruction *in);
/** The v# source (lane selected, no mask) of operands (inputSigId, row, col) of an eval op. */
bool dxil_front_input_operand(struct dxil_front *f, const struct sb_bc_instruction *in,
                              struct sb_ir_operand *out);
/** The call's result = lane x of special input register `file` (vPrim, vCoverage,
 *  vInnerCoverage, vGSInstanceID), declared after the body. */
bool dxil_front_special_input(struct dxil_front *f, const struct sb_bc_instruction *in,
                              uint32_t file);
/** Declares the special inputs the body read (after the body). */
bool dxil_front_declare_special_inputs(struct dxil_front *f);

/* ir_from_dxil_geometry.c */
/** The GS state (input primitive, output topology, max vertices, instances, streams) and
 *  the input vertex count, from the entry's GSState. */
bool dxil_front_declare_geometry(struct dxil_front *f);
bool dxil_front_is_geometry_op(uint64_t opcode);
/** emitStream, cutStream, emitThenCutStream, gsInstanceID, primitiveID. */
bool dxil_front_geometry_op(struct dxil_front *f, const struct sb_bc_instruction *in,
                            uint64_t opcode);

/* ir_from_dxil_pixel.c */
bool dxil_front_is_pixel_op(uint64_t opcode);
/** discard, derivatives, coverage, innerCoverage, sampleIndex, eval*; refusals of the
 *  pixel ops the IR has no operation for (isHelperLane, attributeAtVertex, viewID). */
bool dxil_front_pixel_op(struct dxil_front *f, const struct sb_bc_instruction *in,
                         uint64_t opcode);

/* ir_from_dxil_derivatives.c */
/** Called by each derivative op and implicit-LOD sample (`what` names it): true in pixel
 *  shaders and the stages without quads; in compute shaders it records the group's quads
 *  (sb_ir_program::compute_derivatives) or refuses a shape without quads; mesh and
 *  amplification shaders refuse. */
bool dxil_front_derivative_quads(struct dxil_front *f, const char *what);

/* ir_from_dxil_math.c */
bool dxil_front_is_math(uint64_t opcode);
/** Unary/binary/tertiary float and int math and Dot2/3/4 on 32-bit scalars. */
bool dxil_front_math(struct dxil_front *f, const struct sb_bc_instruction *in, uint64_t opcode);

/* ir_from_dxil_tessellation.c */
/** Hull/domain: stage, HSState/DSState, input/output signatures with control-point
 *  arrays, and the patch-constant signature as PATCH elements. */
bool dxil_front_declare_tessellation(struct dxil_front *f);
/** Declares vOutputControlPointID, vPrim and vDomain where the body read them. */
bool dxil_front_declare_tessellation_inputs(struct dxil_front *f);
/** Whether dx.op `opcode` is a hull/domain signature or system-value op of this program. */
bool dxil_front_is_tessellation_op(const struct dxil_front *f, uint64_t opcode);
bool dxil_front_tessellation_op(struct dxil_front *f, const struct sb_bc_instruction *in,
                                uint64_t opcode);
/* ir_from_dxil_memory.c */
/** alloca, getelementptr, load, store and pointer bitcasts. */
bool dxil_front_memory_instruction(struct dxil_front *f, const struct sb_bc_instruction *in);
/** A cast whose result is a pointer (handled by the memory file). */
bool dxil_front_is_pointer_cast(const struct dxil_front *f, const struct sb_bc_instruction *in);
/** The g# operand (mask x) and byte address a groupshared pointer value names. */
bool dxil_front_group_shared_address(struct dxil_front *f, uint32_t pointer,
                                     struct sb_ir_operand *memory, struct sb_ir_operand *address);
/** Whether any instruction reads function-local value `value`. */
bool dxil_front_value_used(struct dxil_front *f, uint32_t value);
/** After each function's body: the static variables it used filled with their initial
 *  values before it, and the function's pointer records dropped. */
bool dxil_front_memory_end_function(struct dxil_front *f);
/** Declares the g#, x# and ICB the bodies used (after the last one). */
bool dxil_front_declare_memory(struct dxil_front *f);
void dxil_front_memory_free(struct dxil_front *f);

/* ir_from_dxil_atomics.c */
/** atomicrmw / cmpxchg on groupshared memory. */
bool dxil_front_atomic_instruction(struct dxil_front *f, const struct sb_bc_instruction *in);
bool dxil_front_is_atomic_or_barrier(uint64_t opcode);
/** atomicBinOp, atomicCompareExchange (UAVs) and barrier. */
bool dxil_front_atomic_or_barrier(struct dxil_front *f, const struct sb_bc_instruction *in,
                                  uint64_t opcode);

/* ir_from_dxil_atomic64.c */
/** atomicBinOp.i64 (`compare` false) / atomicCompareExchange.i64 on a raw or structured UAV. */
bool dxil_front_atomic64(struct dxil_front *f, const struct sb_bc_instruction *in, bool compare);

/* ir_from_dxil_math_more.c */
/** The math dx.ops dxil_front_math_more lowers (bit ops, two-result ops, classification,
 *  Tan/Hcos/Hsin/Htan, legacy f16, Fma, MakeDouble/SplitDouble). */
bool dxil_front_is_math_more(uint64_t opcode);
bool dxil_front_math_more(struct dxil_front *f, const struct sb_bc_instruction *in, uint64_t opcode);
/** The double overloads of Fma, FMad, FMin/FMax, FAbs, Saturate. */
bool dxil_front_math_double(struct dxil_front *f, const struct sb_bc_instruction *in, uint64_t opcode);

/* ir_from_dxil_bits_wide.c */
/** Countbits, FirstbitLo/Hi/SHi or Bfrev: the ops ir_from_dxil_bits_wide.c takes at i16/i64. */
bool dxil_front_bits_wide_claims(uint64_t opcode);
/** One of those: the 32-bit result (an i16/i64 for Bfrev) into the call's temp. */
bool dxil_front_bits_wide(struct dxil_front *f, const struct sb_bc_instruction *in, uint64_t opcode,
                          uint32_t width);

/* ir_from_dxil_inverse_trig.c */
/** Acos, Asin or Atan of lane `x` (a float or the f32 of a half) into `dst`, lane x. */
bool dxil_front_inverse_trig(struct dxil_front *f, uint64_t opcode, struct sb_ir_operand dst,
                             struct sb_ir_operand x);

/* ir_from_dxil_packed.c */
/** Unpack4x8, Pack4x8, Dot4AddI8Packed/U8Packed, Dot2AddHalf. */
bool dxil_front_is_packed(uint64_t opcode);
bool dxil_front_packed(struct dxil_front *f, const struct sb_bc_instruction *in, uint64_t opcode);

/* ir_from_dxil_wave.c */
bool dxil_front_is_wave(uint64_t opcode);
/** Wave and quad ops on 32-bit scalars and i1 conditions. */
bool dxil_front_wave(struct dxil_front *f, const struct sb_bc_instruction *in, uint64_t opcode);

/* ir_from_dxil_wave_lanes.c */
/** WaveMatch, WaveMultiPrefixOp, WaveMultiPrefixBitCount as loops over the wave's lanes. */
bool dxil_front_wave_lanes(struct dxil_front *f, const struct sb_bc_instruction *in,
                           uint64_t opcode);

/* ir_from_dxil_wave_size.c */
/** The entry's WaveSize / RangedWaveSize onto p->wave_size_* (compute only; checked). */
bool dxil_front_wave_size(struct dxil_front *f, struct sb_ir_program *p);

/* ir_from_dxil_mesh.c */
/** Stage, MSState/ASState, per-vertex and per-primitive output signatures, the payload g#. */
bool dxil_front_declare_mesh(struct dxil_front *f);
/** The payload g# (after the bodies and the memory file's g# declarations). */
bool dxil_front_declare_mesh_payload(struct dxil_front *f);
/** setMeshOutputCounts, emitIndices, storeVertexOutput, storePrimitiveOutput, getMeshPayload,
 *  dispatchMesh. */
bool dxil_front_mesh_op(struct dxil_front *f, const struct sb_bc_instruction *in, uint64_t opcode);
/** Whether a GEP, load or store goes through a pointer into the task payload. */
bool dxil_front_is_payload_access(struct dxil_front *f, const struct sb_bc_instruction *in);
/** Lowers such an access: GEPs emit nothing, loads and stores become ld_raw / store_raw. */
bool dxil_front_payload_access(struct dxil_front *f, const struct sb_bc_instruction *in);

/* ir_from_dxil_sysvals.c */
/** isHelperLane outside a pixel shader: the constant false. */
bool dxil_front_sysval_false(struct dxil_front *f, const struct sb_bc_instruction *in);
/** Whether `d` of signature `list` is an unallocated SV_Barycentrics input. */
bool dxil_front_is_barycentrics(const struct sb_dxil_signature_element *d, uint32_t list);
/** The v# such an element takes (after has_sample_index / sample_index_register are set). */
bool dxil_front_barycentrics_register(struct dxil_front *f, const struct sb_dxil_signature_element *d,
                                      uint32_t *out);

/* ir_from_dxil_dxop.c */
bool dxil_front_call(struct dxil_front *f, const struct sb_bc_instruction *in);
/** Declares the special input registers the body read (after the body), as the SM4 front
 *  end's dcl_input vThreadID & co do. */
bool dxil_front_declare_system_values(struct dxil_front *f);

/* ir_from_dxil_flow.c */
/** Structures the entry function and emits its body. */
bool dxil_front_body(struct dxil_front *f);

/* ir_from_dxil_ags.c */
/** Whether `space` is AMD AGS's magic register space 0x7FFF0ADE (docs §5.4). */
bool dxil_front_ags_space(uint32_t space);
/** Whether the dx.op call is an AGS intrinsic call (atomicCompareExchange on the magic UAV). */
bool dxil_front_ags_claims(struct dxil_front *f, const struct sb_bc_instruction *in,
                           uint64_t opcode);
/** Lowers one AGS intrinsic call; refuses the ones not translated by name. */
bool dxil_front_ags_call(struct dxil_front *f, const struct sb_bc_instruction *in);
/** After the bodies: refuses another use of the magic UAV, then removes its declaration. */
bool dxil_front_ags_finish(struct dxil_front *f);

/* ir_from_dxil_float8.c */
enum dxil_float8 { DXIL_FLOAT8_E4M3, DXIL_FLOAT8_E5M2 }; /**< OCP FP8 and BF8 */
/** One instruction into a fresh one-lane temp; returns its lane-x source. */
struct sb_ir_operand dxil_front_fresh_op(struct dxil_front *f, uint32_t op,
                                         const struct sb_ir_operand *src, uint32_t count);
/** The same with the two sources a and b. */
struct sb_ir_operand dxil_front_fresh_op2(struct dxil_front *f, uint32_t op, struct sb_ir_operand a,
                                          struct sb_ir_operand b);
/** f32 bits -> float8 bits (low byte), round to nearest even; `saturate`: overflow and
 *  infinity give the largest finite value, else NaN (E4M3) or infinity (E5M2). `matrix`:
 *  RDNA4's wave-matrix conversion, where NaN gives 0xFF and a saturated infinity NaN.
 *  Returns a lane-x source. */
struct sb_ir_operand dxil_front_float8_narrow(struct dxil_front *f, struct sb_ir_operand x,
                                              enum dxil_float8 format, bool saturate, bool matrix);
/** float8 bits (low byte of x) -> f32 bits, exact. Returns a lane-x source. */
struct sb_ir_operand dxil_front_float8_widen(struct dxil_front *f, struct sb_ir_operand x,
                                             enum dxil_float8 format);

/* ir_from_dxil_wmma.c */
/** Whether `opcode` is an AGS wave-matrix intrinsic ir_from_dxil_wmma.c lowers. */
bool dxil_front_wmma_claims(uint32_t opcode);
/** One call of a wave-matrix intrinsic's sequence (code word decoded). */
bool dxil_front_wmma_call(struct dxil_front *f, const struct sb_bc_instruction *in,
                          uint32_t opcode, uint32_t phase, uint32_t immediate);

#endif
