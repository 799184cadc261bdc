/* SPDX-License-Identifier: MIT */
/*
 * The shaderbridge IR (translator/IR.md): one register machine that both
 * source ISAs (SM4/5 tokens, PICA200) are lowered into and that the SPIR-V
 * back end and the CPU interpreter consume.
 *
 * Registers are vectors of four untyped 32-bit lanes; every operation says
 * how it views them (enum sb_ir_type of its sources and destination), so a
 * value written as float and read as uint keeps its bits, as in D3D. A
 * 64-bit value occupies a pair of lanes (xy or zw, low word first).
 *
 * Control flow is structured: IF/ELSE/ENDIF, LOOP/ENDLOOP, SWITCH/CASE/
 * DEFAULT/ENDSWITCH bracket their bodies in the flat instruction array of a
 * function; BREAK/CONTINUE/RET/DISCARD (with conditional forms) leave them.
 * Subroutines (SM4 label/call, PICA CALL) are separate functions.
 *
 * Odd semantics are decided here once (IR.md §Semantics) — D3D's ftoi/ftou
 * saturation, integer division by zero, min/max with NaN, denormal flushing,
 * PICA's 0 * inf = 0 — and both consumers follow them.
 *
 * Ownership: a program is one allocation tree released by
 * sb_ir_program_destroy(); every pointer inside points into it.
 */
#ifndef SHADERBRIDGE_IR_H
#define SHADERBRIDGE_IR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "shaderbridge/result.h"
#include "shaderbridge/types.h"

#ifdef __cplusplus
extern "C" {
#endif

struct sb_dxbc;
struct sb_dxbc_rdef_cbuffer;
struct sb_sm4_program;

/* ------------------------------------------------------------------------ */
/* Program-level enums                                                      */
/* ------------------------------------------------------------------------ */

/* enum sb_ir_stage and enum sb_ir_type: shaderbridge/types.h. */

enum sb_ir_source {
    SB_IR_SOURCE_SM4 = 0,   /**< DXBC SHDR/SHEX */
    SB_IR_SOURCE_PICA = 1,  /**< SHBIN/DVLB */
    SB_IR_SOURCE_DXIL = 2,  /**< DXIL bitcode (dxc output), in the SM5.0 dialect of the IR */
    SB_IR_SOURCE_MAX_ENUM = 0x7fffffff
};

/* ------------------------------------------------------------------------ */
/* Operands                                                                 */
/* ------------------------------------------------------------------------ */

/** Register files. Index meaning is given per file. */
enum sb_ir_file {
    SB_IR_FILE_NULL = 0,            /**< discarded destination */
    SB_IR_FILE_IMMEDIATE = 1,       /**< literal lanes in sb_ir_operand::imm */
    SB_IR_FILE_TEMP = 2,            /**< r#: index[0] register */
    SB_IR_FILE_INDEXABLE_TEMP = 3,  /**< x#[i]: index[0] array id, index[1] element */
    SB_IR_FILE_INPUT = 4,           /**< v#: [0] register; GS/HS/DS arrays: [0] vertex/point, [1] register */
    SB_IR_FILE_OUTPUT = 5,          /**< o#: [0] register */
    SB_IR_FILE_CONSTANT_BUFFER = 6, /**< cb#[i]: [0] buffer id, [1] vector (SM5.1: [0] id, [1] range index, [2] vector) */
    SB_IR_FILE_IMMEDIATE_CONSTANT_BUFFER = 7, /**< icb[i]: [0] vector */
    SB_IR_FILE_SAMPLER = 8,         /**< s#: [0] id (SM5.1: [1] index within the range) */
    SB_IR_FILE_RESOURCE = 9,        /**< t#: as SAMPLER */
    SB_IR_FILE_UAV = 10,            /**< u#: as SAMPLER */
    SB_IR_FILE_GROUP_SHARED = 11,   /**< g#: [0] id */
    SB_IR_FILE_LABEL = 12,          /**< l#: [0] function id (call/label) */
    SB_IR_FILE_STREAM = 13,         /**< m#: [0] GS stream */
    /* Special inputs, all of one register. */
    SB_IR_FILE_PRIMITIVE_ID = 14, SB_IR_FILE_THREAD_ID = 15, SB_IR_FILE_THREAD_GROUP_ID = 16,
    SB_IR_FILE_THREAD_ID_IN_GROUP = 17, SB_IR_FILE_THREAD_ID_IN_GROUP_FLATTENED = 18,
    SB_IR_FILE_COVERAGE_IN = 19, SB_IR_FILE_INNER_COVERAGE = 20,
    SB_IR_FILE_GS_INSTANCE_ID = 21, SB_IR_FILE_DOMAIN_POINT = 22,
    SB_IR_FILE_OUTPUT_CONTROL_POINT_ID = 23, SB_IR_FILE_FORK_INSTANCE_ID = 24,
    SB_IR_FILE_JOIN_INSTANCE_ID = 25, SB_IR_FILE_CYCLE_COUNTER = 26,
    /* Hull/domain arrays: [0] control point, [1] register. */
    SB_IR_FILE_INPUT_CONTROL_POINT = 27, SB_IR_FILE_OUTPUT_CONTROL_POINT = 28,
    SB_IR_FILE_INPUT_PATCH_CONSTANT = 29, /**< vpc#: [0] register */
    /* Special outputs. */
    SB_IR_FILE_DEPTH = 30, SB_IR_FILE_DEPTH_GREATER_EQUAL = 31,
    SB_IR_FILE_DEPTH_LESS_EQUAL = 32, SB_IR_FILE_COVERAGE_OUT = 33,
    SB_IR_FILE_STENCIL_REF = 34,
    /* Class linkage (SM5.0 interfaces). */
    SB_IR_FILE_FUNCTION_BODY = 35, SB_IR_FILE_FUNCTION_TABLE = 36,
    SB_IR_FILE_INTERFACE = 37, SB_IR_FILE_THIS_POINTER = 38,
    /* PICA200 (../shared/docs/pica200.md §3). */
    SB_IR_FILE_PICA_FLOAT_UNIFORM = 39, /**< c0-c95 */
    SB_IR_FILE_PICA_INT_UNIFORM = 40,   /**< i0-i3 (x count-1, y start, z step) */
    SB_IR_FILE_PICA_BOOL_UNIFORM = 41,  /**< b0-b15: lane x, 0 or 1 */
    SB_IR_FILE_PICA_ADDRESS = 42,       /**< x = a0.x, y = a0.y, z = aL (int lanes) */
    SB_IR_FILE_PICA_CONDITION = 43,     /**< x = cmp.x, y = cmp.y (bool lanes) */
    /** SM4.1 `rasterizer`: the render target's sample pattern, as the resource operand
     *  of SAMPLE_INFO / SAMPLE_POS; no index. */
    SB_IR_FILE_RASTERIZER = 44,
    /** Mesh-shader outputs (IR.md §Mesh and amplification), written only by MESH_STORE_VERTEX /
     *  MESH_STORE_PRIMITIVE: [0] vertex / primitive (relative allowed), [1] register. */
    SB_IR_FILE_MESH_VERTEX = 45, SB_IR_FILE_MESH_PRIMITIVE = 46,
    /** SV_ViewID (IR.md §System values): x = the multiview view index (uint); every graphics
     *  stage, read only, no index. */
    SB_IR_FILE_VIEW_ID = 47,
    /** IsHelperLane() (IR.md §System values): x = 0xFFFFFFFF in a helper invocation of a pixel
     *  quad, 0 otherwise (a D3D bool); pixel stage, read only, no index. */
    SB_IR_FILE_HELPER_LANE = 48,
    /** SV_StartVertexLocation / SV_StartInstanceLocation (SM 6.8; IR.md §System values): x = the
     *  draw's first vertex (the base vertex of an indexed draw) / first instance (int); vertex
     *  stage, read only, no index. */
    SB_IR_FILE_BASE_VERTEX = 49, SB_IR_FILE_BASE_INSTANCE = 50,
    SB_IR_FILE_COUNT = 51,
    SB_IR_FILE_MAX_ENUM = 0x7fffffff
};

/** Source modifiers (sb_ir_operand::modifiers); abs applies before neg. */
#define SB_IR_MOD_NEG 0x1u
#define SB_IR_MOD_ABS 0x2u

struct sb_ir_operand;

/** One index: `offset + relative` (relative is a one-lane source, or NULL). */
struct sb_ir_index {
    uint32_t offset;
    const struct sb_ir_operand *relative; /**< owned by the program */
};

/**
 * A source or destination. Destinations use `mask`; sources use `swizzle`
 * (lane i of the result comes from lane swizzle[i]). A source of a 64-bit
 * operation names lane pairs: swizzle[0..1] select the pairs (0 = xy, 2 = zw)
 * and the mask of a 64-bit destination has both lanes of a pair set.
 */
struct sb_ir_operand {
    uint32_t file;          /**< enum sb_ir_file */
    uint32_t index_count;   /**< 0-3 */
    struct sb_ir_index index[3];
    uint8_t mask;           /**< destination lanes, bit 0 = x */
    uint8_t swizzle[4];     /**< source lanes */
    uint8_t modifiers;      /**< SB_IR_MOD_* */
    bool non_uniform;       /**< SM5.1 NonUniformResourceIndex on a resource index */
    uint8_t min_precision;  /**< SM4 min-precision hint (enum sb_sm4_min_precision) */
    uint32_t imm[4];        /**< SB_IR_FILE_IMMEDIATE lanes as bits; scalar immediates replicate */
};

/* ------------------------------------------------------------------------ */
/* Instructions                                                             */
/* ------------------------------------------------------------------------ */

/**
 * Operations. The comment gives dst <- srcs and the lane view; IR.md states
 * every rule. "c" = a condition source (one lane, tested per SB_IR_FLAG_TEST_NZ).
 */
enum sb_ir_op {
    SB_IR_OP_NOP = 0,
    /* Moves and selects (bits). */
    SB_IR_OP_MOV,          /**< d <- a (float view when modifiers/saturate apply) */
    SB_IR_OP_MOVC,         /**< d <- a != 0 ? b : c (per lane) */
    SB_IR_OP_SWAPC,        /**< d0 <- a ? c : b; d1 <- a ? b : c */
    SB_IR_OP_DMOV, SB_IR_OP_DMOVC,
    /* Float arithmetic. */
    SB_IR_OP_ADD, SB_IR_OP_MUL, SB_IR_OP_MAD, SB_IR_OP_DIV, SB_IR_OP_MIN, SB_IR_OP_MAX,
    SB_IR_OP_DP2, SB_IR_OP_DP3, SB_IR_OP_DP4,
    SB_IR_OP_DPH,          /**< PICA: dp4 with a.w = 1 */
    SB_IR_OP_DST,          /**< (1, a.y*b.y, a.z, b.w) */
    SB_IR_OP_FRC, SB_IR_OP_SQRT, SB_IR_OP_RSQ, SB_IR_OP_RCP, SB_IR_OP_EXP, SB_IR_OP_LOG,
    SB_IR_OP_SINCOS,       /**< d0 <- sin a, d1 <- cos a */
    SB_IR_OP_ROUND_NE, SB_IR_OP_ROUND_NI, SB_IR_OP_ROUND_PI, SB_IR_OP_ROUND_Z,
    SB_IR_OP_EQ, SB_IR_OP_NE, SB_IR_OP_LT, SB_IR_OP_GE, /**< float compare -> bool */
    SB_IR_OP_SGE, SB_IR_OP_SLT, /**< PICA: float compare -> 1.0 / 0.0 */
    SB_IR_OP_DERIV_RTX, SB_IR_OP_DERIV_RTY, SB_IR_OP_DERIV_RTX_COARSE,
    SB_IR_OP_DERIV_RTX_FINE, SB_IR_OP_DERIV_RTY_COARSE, SB_IR_OP_DERIV_RTY_FINE,
    /* Integer arithmetic. */
    SB_IR_OP_IADD, SB_IR_OP_INEG, SB_IR_OP_IMUL, /**< imul: d0 hi, d1 lo */
    SB_IR_OP_IMAD, SB_IR_OP_IMIN, SB_IR_OP_IMAX,
    SB_IR_OP_UMUL, SB_IR_OP_UMAD, SB_IR_OP_UMIN, SB_IR_OP_UMAX,
    SB_IR_OP_UDIV,         /**< d0 quotient, d1 remainder; by 0 -> 0xFFFFFFFF both */
    SB_IR_OP_UADDC, SB_IR_OP_USUBB, /**< d0 result, d1 carry / borrow */
    SB_IR_OP_IEQ, SB_IR_OP_INE, SB_IR_OP_ILT, SB_IR_OP_IGE, SB_IR_OP_ULT, SB_IR_OP_UGE,
    SB_IR_OP_MSAD,
    /* Bits. */
    SB_IR_OP_AND, SB_IR_OP_OR, SB_IR_OP_XOR, SB_IR_OP_NOT,
    SB_IR_OP_ISHL, SB_IR_OP_ISHR, SB_IR_OP_USHR, /**< shift count & 31 */
    SB_IR_OP_COUNTBITS, SB_IR_OP_FIRSTBIT_HI, SB_IR_OP_FIRSTBIT_LO, SB_IR_OP_FIRSTBIT_SHI,
    SB_IR_OP_UBFE, SB_IR_OP_IBFE, SB_IR_OP_BFI, SB_IR_OP_BFREV,
    /* Conversions. */
    SB_IR_OP_FTOI, SB_IR_OP_FTOU, SB_IR_OP_ITOF, SB_IR_OP_UTOF,
    SB_IR_OP_F32TOF16, SB_IR_OP_F16TOF32,
    SB_IR_OP_FTOD, SB_IR_OP_DTOF, SB_IR_OP_DTOI, SB_IR_OP_DTOU, SB_IR_OP_ITOD, SB_IR_OP_UTOD,
    /* Doubles. */
    SB_IR_OP_DADD, SB_IR_OP_DMUL, SB_IR_OP_DDIV, SB_IR_OP_DFMA, SB_IR_OP_DMIN, SB_IR_OP_DMAX,
    SB_IR_OP_DRCP, SB_IR_OP_DEQ, SB_IR_OP_DNE, SB_IR_OP_DLT, SB_IR_OP_DGE,
    /* Structured control flow. */
    SB_IR_OP_IF,           /**< c */
    SB_IR_OP_ELSE, SB_IR_OP_ENDIF, SB_IR_OP_LOOP, SB_IR_OP_ENDLOOP,
    SB_IR_OP_SWITCH,       /**< a (int selector) */
    SB_IR_OP_CASE,         /**< `case_value` */
    SB_IR_OP_DEFAULT, SB_IR_OP_ENDSWITCH,
    SB_IR_OP_BREAK, SB_IR_OP_BREAKC, SB_IR_OP_CONTINUE, SB_IR_OP_CONTINUEC,
    SB_IR_OP_RET, SB_IR_OP_RETC,
    SB_IR_OP_DISCARD,      /**< c (SM4 discard is always conditional) */
    SB_IR_OP_CALL,         /**< `target` function */
    SB_IR_OP_CALLC,        /**< c, `target` */
    SB_IR_OP_INTERFACE_CALL, /**< fcall: src0 interface operand, `target` call site */
    /* Geometry streams. */
    SB_IR_OP_EMIT, SB_IR_OP_CUT, SB_IR_OP_EMIT_THEN_CUT, /**< `stream` */
    /* Resources: t#/u# are src operands; see IR.md §Resources for operand order. */
    SB_IR_OP_SAMPLE, SB_IR_OP_SAMPLE_B, SB_IR_OP_SAMPLE_L, SB_IR_OP_SAMPLE_D,
    SB_IR_OP_SAMPLE_C, SB_IR_OP_SAMPLE_C_LZ,
    SB_IR_OP_GATHER4, SB_IR_OP_GATHER4_C, SB_IR_OP_GATHER4_PO, SB_IR_OP_GATHER4_PO_C,
    SB_IR_OP_LD, SB_IR_OP_LD_MS, SB_IR_OP_RESINFO, SB_IR_OP_SAMPLE_INFO,
    SB_IR_OP_SAMPLE_POS, SB_IR_OP_BUFINFO, SB_IR_OP_LOD,
    SB_IR_OP_LD_UAV_TYPED, SB_IR_OP_STORE_UAV_TYPED, SB_IR_OP_LD_RAW, SB_IR_OP_STORE_RAW,
    SB_IR_OP_LD_STRUCTURED, SB_IR_OP_STORE_STRUCTURED,
    SB_IR_OP_ATOMIC_AND, SB_IR_OP_ATOMIC_OR, SB_IR_OP_ATOMIC_XOR, SB_IR_OP_ATOMIC_CMP_STORE,
    SB_IR_OP_ATOMIC_IADD, SB_IR_OP_ATOMIC_IMAX, SB_IR_OP_ATOMIC_IMIN,
    SB_IR_OP_ATOMIC_UMAX, SB_IR_OP_ATOMIC_UMIN,
    SB_IR_OP_IMM_ATOMIC_ALLOC, SB_IR_OP_IMM_ATOMIC_CONSUME,
    SB_IR_OP_IMM_ATOMIC_IADD, SB_IR_OP_IMM_ATOMIC_AND, SB_IR_OP_IMM_ATOMIC_OR,
    SB_IR_OP_IMM_ATOMIC_XOR, SB_IR_OP_IMM_ATOMIC_EXCH, SB_IR_OP_IMM_ATOMIC_CMP_EXCH,
    SB_IR_OP_IMM_ATOMIC_IMAX, SB_IR_OP_IMM_ATOMIC_IMIN, SB_IR_OP_IMM_ATOMIC_UMAX,
    SB_IR_OP_IMM_ATOMIC_UMIN,
    SB_IR_OP_CHECK_ACCESS_FULLY_MAPPED,
    SB_IR_OP_SYNC,         /**< `sync_flags` (SB_SM4_SYNC_* bits) */
    /* Pixel-shader attribute evaluation. */
    SB_IR_OP_EVAL_CENTROID, SB_IR_OP_EVAL_SAMPLE_INDEX, SB_IR_OP_EVAL_SNAPPED,
    /* PICA200 specials (../shared/docs/pica200.md §6). */
    SB_IR_OP_PICA_CMP,     /**< condition.x/y <- compare(a, b) with `compare[2]` */
    SB_IR_OP_PICA_MOVA,    /**< address.xy <- int(a.xy) under mask */
    SB_IR_OP_PICA_LITP,    /**< d <- lit(a); condition <- (a.x >= 0, a.w >= 0) (IR.md §PICA200) */
    SB_IR_OP_PICA_SETEMIT, /**< `stream` = vertex id, flags: SB_IR_FLAG_PICA_* */
    /* Debugging. */
    SB_IR_OP_ABORT, SB_IR_OP_DEBUG_BREAK,
    /* Wave and quad ops (IR.md §Waves): over the active lanes of the invocation's wave. */
    SB_IR_OP_WAVE_IS_FIRST_LANE,  /**< d (bool) <- this is the lowest active lane */
    SB_IR_OP_WAVE_LANE_INDEX,     /**< d (uint) <- the lane's index in its wave */
    SB_IR_OP_WAVE_LANE_COUNT,     /**< d (uint) <- lanes in a wave */
    SB_IR_OP_WAVE_ANY_TRUE,       /**< d (bool) <- c true in some active lane (per lane of d) */
    SB_IR_OP_WAVE_ALL_TRUE,       /**< d (bool) <- c true in every active lane */
    SB_IR_OP_WAVE_ALL_EQUAL,      /**< d (bool) <- a has the same bits in every active lane */
    SB_IR_OP_WAVE_BALLOT,         /**< d.xyzw (uint) <- bit per active lane where c (a.x) is true */
    SB_IR_OP_WAVE_READ_LANE_AT,   /**< d <- a of lane b.x (bits) */
    SB_IR_OP_WAVE_READ_LANE_FIRST, /**< d <- a of the lowest active lane (bits) */
    SB_IR_OP_WAVE_ACTIVE_FLOAT,   /**< d <- `wave_op` (SUM PRODUCT MIN MAX) of a over active lanes */
    SB_IR_OP_WAVE_ACTIVE_INT,     /**< the same, signed (SUM PRODUCT MIN MAX) */
    SB_IR_OP_WAVE_ACTIVE_UINT,    /**< the same, unsigned (SUM PRODUCT MIN MAX AND OR XOR) */
    SB_IR_OP_WAVE_PREFIX_FLOAT,   /**< d <- `wave_op` (SUM PRODUCT) of a over lower active lanes */
    SB_IR_OP_WAVE_PREFIX_INT,     /**< the same on integers (two's complement: int = uint) */
    SB_IR_OP_WAVE_ACTIVE_COUNT_BITS, /**< d (uint) <- active lanes where c (a.x) is true */
    SB_IR_OP_WAVE_PREFIX_COUNT_BITS, /**< d (uint) <- lower active lanes where c (a.x) is true */
    SB_IR_OP_QUAD_READ_LANE_AT,   /**< d <- a of quad lane b.x & 3 (bits) */
    SB_IR_OP_QUAD_READ_ACROSS_X, SB_IR_OP_QUAD_READ_ACROSS_Y,
    SB_IR_OP_QUAD_READ_ACROSS_DIAGONAL, /**< d <- a of the quad lane across x / y / both */
    /* 64-bit integers in DOUBLE slots (lane pairs, low word first; IR.md §Operands). Kept
     * together, I64ADD first and DTOU64 last: sb_ir_op_is_int64 tests the range. */
    SB_IR_OP_I64ADD, SB_IR_OP_I64SUB, SB_IR_OP_I64MUL, /**< mod 2^64 */
    SB_IR_OP_I64UDIV, SB_IR_OP_I64UREM, SB_IR_OP_I64IDIV, SB_IR_OP_I64IREM, /**< by 0 -> all ones */
    SB_IR_OP_I64SHL, SB_IR_OP_I64ISHR, SB_IR_OP_I64USHR, /**< shift count & 63 */
    SB_IR_OP_I64AND, SB_IR_OP_I64OR, SB_IR_OP_I64XOR, SB_IR_OP_I64NOT,
    SB_IR_OP_I64EQ, SB_IR_OP_I64NE, SB_IR_OP_I64ILT, SB_IR_OP_I64IGE, SB_IR_OP_I64ULT,
    SB_IR_OP_I64UGE,        /**< 64-bit compares -> 32-bit bool lanes */
    SB_IR_OP_I64TOI,        /**< truncate to the low 32 bits */
    SB_IR_OP_I64TOF, SB_IR_OP_U64TOF, /**< -> float, round to nearest even */
    SB_IR_OP_ITOI64, SB_IR_OP_UTOU64, /**< sign / zero extend */
    SB_IR_OP_FTOI64, SB_IR_OP_FTOU64, /**< float -> 64-bit, truncating, saturating */
    SB_IR_OP_I64TOD, SB_IR_OP_U64TOD, /**< -> double, round to nearest even */
    SB_IR_OP_DTOI64, SB_IR_OP_DTOU64, /**< double -> 64-bit, truncating, saturating */
    /* Mesh and amplification programs (IR.md §Mesh and amplification). */
    SB_IR_OP_MESH_SET_COUNTS,   /**< a.x (uint) vertices and b.x primitives this group outputs */
    SB_IR_OP_MESH_INDICES,      /**< primitive a.x gets the vertex indices b (1-3 lanes by topology) */
    SB_IR_OP_MESH_STORE_VERTEX, /**< d (oMeshVertex[v][r]) <- a (bits) */
    SB_IR_OP_MESH_STORE_PRIMITIVE, /**< d (oMeshPrimitive[p][r]) <- a (bits) */
    SB_IR_OP_DISPATCH_MESH,     /**< launch a.xyz (uint) mesh groups with the payload g# b; ends the invocation */
    /* SM 6.7 texture ops past SM5 (IR.md §Resources). */
    SB_IR_OP_SAMPLE_C_L,        /**< sample_c at an explicit LOD: coord, t#, s#, ref, lod */
    /* SM 6.8 comparison samples past SM5 (IR.md §Resources). */
    SB_IR_OP_SAMPLE_C_D,        /**< sample_c with gradients: coord, t#, s#, ref, ddx, ddy[, clamp] */
    SB_IR_OP_SAMPLE_C_B,        /**< sample_c with a LOD bias: coord, t#, s#, ref, bias[, clamp] */
    SB_IR_OP_LD_UAV_TYPED_MS,   /**< ld_uav_typed of one sample: address, u#, sample index */
    SB_IR_OP_STORE_UAV_TYPED_MS, /**< store_uav_typed of one sample: u# <- address, value, sample */
    /* SM 6.6 64-bit atomics on raw/structured UAVs (IR.md §Resources): d (old value pair, or
     * null) and u# <- address, [compare pair], value pair. IMM_ATOMIC64_IADD first, _CMP_EXCH
     * last: sb_ir_op_is_atomic64 tests the range. */
    SB_IR_OP_IMM_ATOMIC64_IADD, SB_IR_OP_IMM_ATOMIC64_AND, SB_IR_OP_IMM_ATOMIC64_OR,
    SB_IR_OP_IMM_ATOMIC64_XOR, SB_IR_OP_IMM_ATOMIC64_IMAX, SB_IR_OP_IMM_ATOMIC64_IMIN,
    SB_IR_OP_IMM_ATOMIC64_UMAX, SB_IR_OP_IMM_ATOMIC64_UMIN, SB_IR_OP_IMM_ATOMIC64_EXCH,
    SB_IR_OP_IMM_ATOMIC64_CMP_EXCH,
    SB_IR_OP_COUNT,
    SB_IR_OP_MAX_ENUM = 0x7fffffff
};

/** The reduction a WAVE_ACTIVE_* / WAVE_PREFIX_* op computes (sb_ir_instruction::wave_op);
 *  the op's lane view says float, signed or unsigned (IR.md §Waves). */
enum sb_ir_wave_op {
    SB_IR_WAVE_SUM = 0, SB_IR_WAVE_PRODUCT = 1, SB_IR_WAVE_MIN = 2, SB_IR_WAVE_MAX = 3,
    SB_IR_WAVE_AND = 4, SB_IR_WAVE_OR = 5, SB_IR_WAVE_XOR = 6,
    SB_IR_WAVE_OP_COUNT = 7,
    SB_IR_WAVE_OP_MAX_ENUM = 0x7fffffff
};

/** True for the filtered sampling ops (sample, sample_b/_l/_d, sample_c/_c_lz and the DXIL-only
 *  sample_c_l/_c_d/_c_b); gathers and lod are not. */
static inline bool sb_ir_op_is_sample(uint32_t op)
{
    return (op >= SB_IR_OP_SAMPLE && op <= SB_IR_OP_SAMPLE_C_LZ) || op == SB_IR_OP_SAMPLE_C_L ||
           op == SB_IR_OP_SAMPLE_C_D || op == SB_IR_OP_SAMPLE_C_B;
}

/** True for the wave and quad ops (SB_IR_OP_WAVE_IS_FIRST_LANE ... QUAD_READ_ACROSS_DIAGONAL). */
static inline bool sb_ir_op_is_wave(uint32_t op)
{
    return op >= SB_IR_OP_WAVE_IS_FIRST_LANE && op <= SB_IR_OP_QUAD_READ_ACROSS_DIAGONAL;
}

/** Whether `wave_op` (enum sb_ir_wave_op) is allowed on the WAVE_ACTIVE_* / WAVE_PREFIX_* `op`. */
bool sb_ir_wave_op_allowed(uint32_t op, uint32_t wave_op);
/** "sum", "product", "min", "max", "and", "or", "xor"; "?" for other values. Static. */
const char *sb_ir_wave_op_name(uint32_t wave_op);
/** Is (min, max, preferred) a program's wave-size requirement (sb_ir_program::wave_size_*):
 *  all 0, or powers of two from 4 to 128 with min <= max and preferred 0 or within them?
 *  (ir_wave_size.c) */
bool sb_ir_wave_size_valid(uint32_t min, uint32_t max, uint32_t preferred);
/** The wave size a consumer offering the power-of-two sizes offered_min .. offered_max (its
 *  usual size offered_default) runs a program requiring (min, max, preferred) with: that
 *  default when the program requires none (min 0); else preferred when offered, else the
 *  default when within the requirement, else the smallest offered size within it; 0 when no
 *  offered size fits. */
uint32_t sb_ir_wave_size_choose(uint32_t min, uint32_t max, uint32_t preferred, uint32_t offered_min,
                                uint32_t offered_max, uint32_t offered_default);

/* Instruction flags. */
#define SB_IR_FLAG_SATURATE 0x1u      /**< clamp float results to [0, 1] */
#define SB_IR_FLAG_TEST_NZ 0x2u       /**< conditional ops: true when the lane != 0 (else == 0) */
#define SB_IR_FLAG_PRECISE 0x4u       /**< no reassociation / contraction (per `precise_mask`) */
#define SB_IR_FLAG_LEGACY_MUL 0x8u    /**< PICA: 0 * +-inf = +0 (NaN * 0 stays NaN) in MUL/MAD/DP3/DP4/DPH/DST */
#define SB_IR_FLAG_PICA_WINDING 0x10u /**< SETEMIT: invert winding */
#define SB_IR_FLAG_PICA_PRIMITIVE 0x20u /**< SETEMIT: emit a primitive */

/** One IR instruction. */
struct sb_ir_instruction {
    uint32_t op;            /**< enum sb_ir_op */
    uint32_t flags;         /**< SB_IR_FLAG_* */
    uint64_t offset;        /**< byte offset of the source instruction in the input file */
    uint32_t dst_count;
    uint32_t src_count;
    const struct sb_ir_operand *dst; /**< dst_count, then `src` */
    const struct sb_ir_operand *src;
    uint8_t precise_mask;   /**< lanes marked precise */
    int8_t texel_offset[3]; /**< immediate sample offsets (u, v, w) */
    uint32_t case_value;    /**< CASE: the literal */
    uint32_t target;        /**< CALL/CALLC: function index; INTERFACE_CALL: call site */
    uint32_t stream;        /**< EMIT/CUT: stream; SETEMIT: vertex id */
    uint32_t sync_flags;    /**< SYNC */
    uint32_t return_type;   /**< RESINFO: 0 float, 1 rcpfloat, 2 uint; SAMPLE_INFO: 0 float, 1 uint */
    uint32_t compare[2];    /**< PICA_CMP: ops for x, y (../shared/docs/pica200.md §6.4) */
    uint32_t wave_op;       /**< WAVE_ACTIVE_* / WAVE_PREFIX_*: enum sb_ir_wave_op */
    /** Resource facts when the source carried them (SM5 extended opcode tokens). */
    uint32_t resource_dimension;
    uint32_t resource_stride;
    uint32_t resource_return_type[4];
};

/** A function: the entry body, a subroutine, or a hull-shader phase. */
struct sb_ir_function {
    uint32_t id;            /**< SM4 label number; 0xFFFFFFFF for the entry / phases */
    uint32_t instruction_count;
    const struct sb_ir_instruction *instructions;
    /** Hull fork/join phases: how many instances run (vForkInstanceID/vJoinInstanceID). */
    uint32_t instance_count;
    uint32_t temp_count;    /**< r# registers this function declares (hull phases own theirs) */
};

/* ------------------------------------------------------------------------ */
/* Declarations                                                             */
/* ------------------------------------------------------------------------ */


/** Where a signature element lives. */
enum sb_ir_signature_kind {
    SB_IR_SIGNATURE_INPUT = 0, SB_IR_SIGNATURE_OUTPUT = 1, SB_IR_SIGNATURE_PATCH = 2,
    SB_IR_SIGNATURE_KIND_MAX_ENUM = 0x7fffffff
};

/**
 * One declared input/output register range with its meaning: a merge of the
 * dcl_input and dcl_output declarations and the ISGN/OSGN/PCSG elements.
 */
struct sb_ir_signature_element {
    uint32_t kind;            /**< enum sb_ir_signature_kind */
    const char *semantic;     /**< semantic name ("TEXCOORD"), "" when unknown */
    uint32_t semantic_index;
    uint32_t system_value;    /**< D3D_NAME (../shared/docs/sm4-tokens.md §8.1); 0 = none */
    uint32_t register_index;  /**< v# / o# (or SB_IR_FILE_* special registers: `file`) */
    uint32_t file;            /**< SB_IR_FILE_INPUT/OUTPUT/INPUT_PATCH_CONSTANT or a special file */
    uint8_t mask;             /**< lanes declared */
    uint8_t used_mask;        /**< lanes the signature says are read/written */
    /** Lanes the container's signature element allocates (its mask); 0 when the element
     *  came from a declaration alone (no container, or no matching signature element). */
    uint8_t signature_mask;
    uint32_t component_type;  /**< enum sb_ir_type: FLOAT, INT or UINT */
    uint32_t interpolation;   /**< enum sb_ir_interpolation (pixel inputs) */
    uint32_t stream;          /**< GS output stream */
    uint32_t min_precision;
    uint32_t array_size;      /**< GS/HS/DS input vertex or control-point count; 0 = not arrayed */
    /** Byte offset in the input file of the dcl_input/dcl_output that declares the element,
     *  where back-end errors about it point; 0 when the front end did not record one (an
     *  element known from the container signature alone). */
    uint64_t offset;
};


/** Resource kinds (what a t#/u# holds). */
enum sb_ir_resource_kind {
    SB_IR_RESOURCE_KIND_TYPED = 0,      /**< textures and typed buffers: `dimension` */
    SB_IR_RESOURCE_KIND_RAW = 1,        /**< ByteAddressBuffer */
    SB_IR_RESOURCE_KIND_STRUCTURED = 2, /**< StructuredBuffer: `stride` */
    SB_IR_RESOURCE_KIND_MAX_ENUM = 0x7fffffff
};

/**
 * A declared cb#, t#, s# or u# (a range in SM5.1). Binding fields are
 * filled by the binding step (translate.h), not by the front end.
 */
struct sb_ir_resource {
    uint32_t resource_class;  /**< enum sb_ir_resource_class */
    uint32_t id;              /**< the register number (SM5.1: the range id) */
    uint32_t space;           /**< SM5.1 register space; 0 before */
    uint32_t lower_bound;     /**< first register of the range (== id before SM5.1) */
    uint32_t count;           /**< registers in the range; 0xFFFFFFFF unbounded */
    uint32_t kind;            /**< enum sb_ir_resource_kind (SRV/UAV) */
    uint32_t dimension;       /**< SM4 resource dimension (§8.3) for typed SRV/UAV */
    uint32_t sample_count;    /**< 2DMS */
    uint32_t return_type[4];  /**< SM4 return types (§8.4) x y z w */
    uint32_t stride;          /**< structured: bytes */
    uint32_t cb_size;         /**< CBV: 16-byte vectors */
    bool cb_dynamic_indexed;  /**< CBV */
    uint32_t sampler_mode;    /**< sampler: 0 default, 1 comparison, 2 mono */
    uint32_t uav_flags;       /**< SB_SM4_UAV_* bits */
    bool has_counter;         /**< UAV used by imm_atomic_alloc/consume */
    const char *name;         /**< RDEF name, or NULL */
    uint32_t set, binding;    /**< Vulkan binding (after sb_translate binding) */
    uint32_t counter_binding; /**< UAV counter binding in `set` (has_counter) */
    /** Raw/structured t#/u# bound as a texel buffer of R32_UINT elements (UNIFORM_TEXEL_BUFFER
     *  for t#, STORAGE_TEXEL_BUFFER for u#) instead of a storage buffer: chosen by the binding
     *  step when the device has too few storage-buffer descriptors per stage
     *  (sb_device_profile::max_per_stage_storage_buffers); false otherwise. The interpreter
     *  ignores it: the memory and its meaning are the same. */
    bool texel_memory;
    /** CBV: the container's RDEF describes a cbuffer of this `name` (the first RDEF part
     *  that does), with these variables (possibly none); false, NULL, 0 when not known. */
    bool cb_described;
    uint32_t cb_variable_count;
    const struct sb_ir_cb_variable *cb_variables;
    /** Byte offset in the input file of the declaration, where back-end errors about the
     *  resource point; 0 when the front end did not record one. */
    uint64_t offset;
};

/** A variable of a constant buffer as the container's RDEF describes it (-g member names). */
struct sb_ir_cb_variable {
    const char *name;         /**< the variable's name (never NULL) */
    uint32_t start_offset;    /**< byte offset in the buffer */
    uint32_t size;            /**< bytes (0 is read as 1) */
};

/** Group-shared memory g#. */
struct sb_ir_group_shared {
    uint32_t id;
    bool structured;
    uint32_t stride;          /**< bytes (structured), 4 for raw */
    uint32_t count;           /**< structures (structured) or bytes / 4 (raw: DWORDs) */
    /** The amplification -> mesh payload (IR.md §Mesh and amplification): written by an
     *  amplification program and sent by DISPATCH_MESH, read by a mesh program; one per
     *  program, raw. */
    bool task_payload;
};

/** Indexable temp array x#. */
struct sb_ir_indexable_temp {
    uint32_t id;
    uint32_t count;           /**< elements */
    uint32_t components;      /**< 1-4 */
};

/** A dcl_indexrange: registers addressed as one array. */
struct sb_ir_index_range {
    uint32_t file;            /**< INPUT or OUTPUT (or INPUT_PATCH_CONSTANT...) */
    uint32_t first;           /**< first register */
    uint32_t count;           /**< registers */
    uint8_t mask;
};

/** SM5 class-linkage tables (dcl_function_body/table/interface). */
struct sb_ir_interface {
    uint32_t id;              /**< fp# */
    uint32_t array_length;
    uint32_t table_count;     /**< function tables it may use */
    const uint32_t *tables;   /**< table ids */
    uint32_t call_sites;      /**< expected table length */
};
struct sb_ir_function_table {
    uint32_t id;              /**< ft# */
    uint32_t body_count;
    const uint32_t *bodies;   /**< function-body ids (fb#) */
};

/** The whole program. */
struct sb_ir_program {
    uint32_t source;          /**< enum sb_ir_source */
    uint32_t stage;           /**< enum sb_ir_stage */
    uint32_t major, minor;    /**< SM4/5 model; 0 for PICA */

    uint32_t temp_count;      /**< r# of the entry function */
    uint32_t global_flags;    /**< dcl_globalFlags bits (§8.12) */

    uint32_t signature_count;
    const struct sb_ir_signature_element *signature;
    uint32_t resource_count;
    const struct sb_ir_resource *resources;
    uint32_t group_shared_count;
    const struct sb_ir_group_shared *group_shared;
    uint32_t indexable_temp_count;
    const struct sb_ir_indexable_temp *indexable_temps;
    uint32_t index_range_count;
    const struct sb_ir_index_range *index_ranges;
    /** Immediate constant buffer: 4 × icb_vector_count DWORDs. */
    uint32_t icb_vector_count;
    const uint32_t *icb;
    uint32_t interface_count;
    const struct sb_ir_interface *interfaces;
    uint32_t function_table_count;
    const struct sb_ir_function_table *function_tables;
    uint32_t function_body_count; /**< fb# ids are 0..count-1; body i is function `function_body_label[i]` */
    const uint32_t *function_body_label;

    /* Geometry. */
    uint32_t gs_input_primitive;  /**< §8.8 */
    uint32_t gs_output_topology;  /**< §8.9 */
    uint32_t gs_max_output_vertices;
    uint32_t gs_instance_count;   /**< 0/1 = not instanced */
    uint32_t gs_stream_mask;      /**< bit per dcl_stream */
    /* Hull / domain. */
    uint32_t input_control_points, output_control_points;
    uint32_t tess_domain;         /**< §8.5 */
    uint32_t tess_partitioning;   /**< §8.6 */
    uint32_t tess_output_primitive; /**< §8.7 */
    float max_tess_factor;
    /* Compute (and mesh / amplification). */
    uint32_t thread_group[3];
    /* Mesh (IR.md §Mesh and amplification). */
    uint32_t mesh_topology;       /**< enum sb_ir_mesh_topology */
    uint32_t mesh_max_vertices;   /**< oMeshVertex array length (1-256) */
    uint32_t mesh_max_primitives; /**< oMeshPrimitive array length (1-256) */
    /** Mesh and amplification: bytes of the task payload (the g# marked task_payload); 0
     *  for none. */
    uint32_t mesh_payload_size;

    /**
     * Functions: [0] is the entry body (vs/ps/gs/ds/cs; for hs the control-point
     * phase, possibly empty). Hull fork and join phases follow as
     * `fork_phase_count` then `join_phase_count` functions from index
     * `first_fork_phase`; subroutines (label bodies) after them.
     */
    uint32_t function_count;
    const struct sb_ir_function *functions;
    uint32_t first_fork_phase;
    uint32_t fork_phase_count;
    uint32_t join_phase_count;

    /** PICA200 programs (source SB_IR_SOURCE_PICA): SB_IR_PICA_* numerics and [UNK] choices
     *  (IR.md §PICA200); 0 = fast float32 mode with the documented defaults. Ignored for SM4. */
    uint32_t pica_flags;

    /** SB_IR_CONTAINER_* facts of the DXBC container the program was lowered from (its
     *  feature flags); 0 when none was given. */
    uint32_t container_flags;

    /** Compute: the wave sizes the program must run with (DXIL [WaveSize(N)]: min = max =
     *  preferred = N; [WaveSize(min, max[, preferred])]: a range, preferred 0 for none), powers
     *  of two from 4 to 128; all 0: any wave size (the device's). IR.md §Waves. */
    uint32_t wave_size_min, wave_size_max, wave_size_preferred;

    /** Compute programs with derivatives (SM 6.6): enum sb_ir_compute_derivatives, how the
     *  group's threads form the quads derivatives and implicit LODs difference (IR.md
     *  §Compute derivatives); 0 = none (derivatives only in pixel programs). */
    uint32_t compute_derivatives;
};

/** sb_ir_program::compute_derivatives: D3D's quads of a compute group. */
enum sb_ir_compute_derivatives {
    SB_IR_COMPUTE_DERIVATIVES_NONE = 0,
    /** 2x2 blocks of (x, y) (X and Y even): quad position (x & 1) + 2 (y & 1). */
    SB_IR_COMPUTE_DERIVATIVES_QUADS = 1,
    /** 4 consecutive flattened threads (group size a multiple of 4): position index & 3. */
    SB_IR_COMPUTE_DERIVATIVES_LINEAR = 2,
    SB_IR_COMPUTE_DERIVATIVES_MAX_ENUM = 0x7fffffff
};

/** What a mesh program outputs (sb_ir_program::mesh_topology): the vertices per primitive
 *  are the value (MESH_INDICES reads that many lanes). */
enum sb_ir_mesh_topology {
    SB_IR_MESH_TOPOLOGY_NONE = 0, /**< not a mesh program */
    SB_IR_MESH_POINTS = 1, SB_IR_MESH_LINES = 2, SB_IR_MESH_TRIANGLES = 3,
    SB_IR_MESH_TOPOLOGY_MAX_ENUM = 0x7fffffff
};

/** container_flags: the program was lowered with its DXBC container at hand. */
#define SB_IR_CONTAINER_PRESENT 0x1u
/** container_flags: the first decoded SFI0 part sets TypedUAVLoadAdditionalFormats (bit 11,
 *  ../shared/docs/dxcontainer.md): typed UAV loads may read formats other than R32. Without it (and
 *  with SB_IR_CONTAINER_PRESENT) D3D allows such loads only from R32 views. */
#define SB_IR_CONTAINER_TYPED_UAV_LOAD_ADDITIONAL_FORMATS 0x2u

/* ------------------------------------------------------------------------ */
/* PICA200 (IR.md §PICA200 programs)                                        */
/* ------------------------------------------------------------------------ */

/* sb_ir_program::pica_flags: SB_IR_PICA_* of shaderbridge/types.h. */

/**
 * The PICA uniform buffer: one constant buffer (CBV) register that a PICA program declares
 * in `resources` (class CBV, id SB_IR_PICA_UNIFORM_REGISTER, space 0, cb_size
 * SB_IR_PICA_UNIFORM_VECTORS) whenever it reads c#, i# or b#. It is bound like any cb#
 * (translate.h default: set 0, binding 0) and reported in sb_translation::bindings.
 * Layout (std140 = std430 here: 16-byte vectors, no padding):
 *   vectors  0-95  c0-c95 as four float32 each (float24 values converted exactly);
 *   vectors 96-99  i0-i3 as four uint32 each (x count - 1, y start, z step, w unused; 0-255);
 *   vector  100    .x: bit n = b#n (bits 16-31 and lanes y-w zero).
 */
#define SB_IR_PICA_UNIFORM_REGISTER 0u
#define SB_IR_PICA_UNIFORM_INT_VECTOR 96u   /**< first vector of i0-i3 */
#define SB_IR_PICA_UNIFORM_BOOL_VECTOR 100u /**< the bool mask vector */
#define SB_IR_PICA_UNIFORM_VECTORS 101u     /**< vectors in the buffer (1616 bytes) */

/**
 * Rewrites a PICA program (source SB_IR_SOURCE_PICA) into core IR with the PICA semantics
 * of IR.md spelled out as integer and exactly rounded float ops, so that every consumer
 * (SPIR-V back end, interpreter) produces the same bits. It is one of the passes
 * sb_ir_run_passes() runs; called alone by tests and tools. The result owns its
 * instructions and shares the signature, resources and other declarations of `program`,
 * which must outlive it; free it with sb_ir_program_destroy(). A program already lowered
 * (SB_IR_PICA_LOWERED) is copied unchanged.
 * State kept in temps of the result, after the program's own r# (T = the largest temp_count
 * of its functions): r(T) = PICA_ADDRESS (x a0.x, y a0.y, z aL as int), r(T+1) =
 * PICA_CONDITION (x, y as 0 / 0xFFFFFFFF), r(T+2) = the SETEMIT state (x vertex id,
 * y winding, z primitive, as uint 0/1); scratch temps follow.
 * Errors (offset = the instruction's): SB_ERROR_INVALID_ARGUMENT (NULL, not a PICA program),
 * SB_ERROR_TRANSLATE_INVALID (a uniform file read without the uniform buffer declared, a
 * uniform file as a destination, i#/b# beyond i3/b15, a missing operand, more than 4096
 * temps after lowering), SB_ERROR_OUT_OF_MEMORY. (c# >= 96 is no error: it reads 1.0.)
 */
enum sb_result sb_ir_pica_lower(const struct sb_ir_program *program, struct sb_ir_program **out,
                                struct sb_error *error);

/** sb_ir_run_passes() flag: run sb_ir_validate() on the program after every pass (tests,
 *  and consumers that build IR of their own). */
#define SB_IR_PASSES_VALIDATE 0x1u

/**
 * The IR passes, run once, in order, between a front end and a consumer (the SPIR-V back
 * end, the interpreter), which then read only core IR:
 *   1. PICA lowering (sb_ir_pica_lower), when `in` is a PICA program not yet lowered;
 *   2. with SB_IR_PASSES_VALIDATE, sb_ir_validate() after each pass that ran (on `in`
 *      when none ran).
 * @param in     the front end's program (not changed; must outlive *out, which shares
 *               its declarations)
 * @param flags  SB_IR_PASSES_* bits
 * @param out    receives the program after the passes, a new one to free with
 *               sb_ir_program_destroy(), or NULL when no pass rewrote `in` (then `in` is
 *               the result); NULL on failure
 * @param error  optional; a failing pass's error (SB_ERROR_INVALID_ARGUMENT for NULL
 *               arguments)
 */
enum sb_result sb_ir_run_passes(const struct sb_ir_program *in, uint32_t flags,
                                struct sb_ir_program **out, struct sb_error *error);

/* ------------------------------------------------------------------------ */
/* Entry points                                                             */
/* ------------------------------------------------------------------------ */

/**
 * Lowers a decoded SM4/5 program (and, when `container` is given, its
 * ISGN/OSGN/PCSG signatures and RDEF names) into the IR.
 * Fails with SB_ERROR_TRANSLATE_UNSUPPORTED or SB_ERROR_TRANSLATE_INVALID and
 * the offset of the instruction that cannot be lowered.
 */
enum sb_result sb_ir_from_sm4(const struct sb_sm4_program *program,
                              const struct sb_dxbc *container,
                              struct sb_ir_program **out, struct sb_error *error);

/**
 * sb_sm4_decode_container() followed by sb_ir_from_sm4(), in one call and with
 * the same result: the same IR program on success, the same code, offset,
 * instruction and message on failure. Faster: ordinary instructions are
 * lowered straight from the token stream, without the decoded program in
 * between; any program that path does not finish is decoded and lowered the
 * general way, which also reports every error.
 *
 * @param container the parsed container holding the SHEX or SHDR part; only read,
 *                  and it must outlive the result (as for sb_ir_from_sm4())
 * @param out       receives the program (free with sb_ir_program_destroy()); NULL
 *                  on failure
 * @param error     optional; receives the failure
 */
enum sb_result sb_ir_from_dxbc(const struct sb_dxbc *container, struct sb_ir_program **out,
                               struct sb_error *error);

/**
 * Lowers the DXIL program of a container (dxc output; translator/src/dxil/README.md)
 * to IR: the single entry point of a vertex, pixel, geometry, hull, domain, compute, mesh
 * or amplification shader, in the SM5.0 dialect (resources by register number, space 0); a
 * hull shader's entry function becomes the control-point phase and its patch-constant
 * function one fork phase. What the front end does not
 * translate yet refuses with SB_ERROR_TRANSLATE_UNSUPPORTED (byte offset of the
 * instruction, the dx.op or LLVM instruction's name); malformed programs give
 * SB_ERROR_TRANSLATE_INVALID or the bitcode reader's and reflection's errors;
 * SB_ERROR_INVALID_ARGUMENT without a decoded DXIL part. The result passes
 * sb_ir_validate.
 */
enum sb_result sb_ir_from_dxil(const struct sb_dxbc *container, struct sb_ir_program **out,
                               struct sb_error *error);

/** SB_IR_CONTAINER_* facts of `container` (0 for NULL): what sb_ir_program::container_flags
 *  records. */
uint32_t sb_ir_container_flags(const struct sb_dxbc *container);

/** The RDEF description of the constant buffer called `name` in the first RDEF part that
 *  has one, or NULL (NULL container or name included). */
const struct sb_dxbc_rdef_cbuffer *sb_ir_rdef_cbuffer(const struct sb_dxbc *container,
                                                      const char *name);

/** The named variables of an RDEF constant buffer as sb_ir_cb_variable entries written
 *  to `out` (NULL: only counted), names borrowed from `cb`; returns their count. */
uint32_t sb_ir_cb_variables(const struct sb_dxbc_rdef_cbuffer *cb, struct sb_ir_cb_variable *out);

struct sb_shbin;

/**
 * Lowers one entry point of a parsed SHBIN (PICA200 vertex or geometry shader)
 * into the IR (IR.md "PICA200 programs", "The front end as built"): the DVLP
 * code from the DVLE's main address, its constants (direct reads of constant
 * registers become immediates), its output table (signature elements). Flow
 * control is structured where that reproduces ../shared/docs/pica200.md §7.2 exactly,
 * else the entry becomes a dispatch loop that replays §7.2.
 *
 * @param shbin      the parsed file (sb_shbin_parse); only read
 * @param dvle_index which DVLE (entry point) to lower, < shbin->dvle_count
 * @param pica_flags stored in the program's pica_flags: SB_IR_PICA_* mode and [UNK]
 *                   choices (0 = fast float32 mode with the documented defaults);
 *                   SB_IR_PICA_LOWERED is refused (SB_ERROR_INVALID_ARGUMENT)
 * @param out        receives the program (free with sb_ir_program_destroy); NULL on failure
 * @param error      optional; SB_ERROR_TRANSLATE_UNSUPPORTED (static nesting beyond the
 *                   hardware stacks of §7.1) or SB_ERROR_TRANSLATE_INVALID (a descriptor
 *                   index past the table, EMIT/SETEMIT in a vertex shader) with the byte
 *                   offset of the code word; SB_ERROR_INVALID_ARGUMENT (NULL, no such DVLE);
 *                   SB_ERROR_OUT_OF_MEMORY
 */
enum sb_result sb_ir_from_pica(const struct sb_shbin *shbin, uint32_t dvle_index,
                               uint32_t pica_flags, struct sb_ir_program **out,
                               struct sb_error *error);

/** Frees a program; NULL is a no-op. */
void sb_ir_program_destroy(struct sb_ir_program *program);

/** fxc spelling of a register file ("r", "vThreadID", "oDepth"); "?" for unknown values. Static. */
const char *sb_ir_file_name(uint32_t file);

/** Name of an op ("add", "ld_structured"); "?" for unknown values. Static. */
const char *sb_ir_op_name(uint32_t op);

/** What an operand slot of an op may hold (sb_ir_op_info::dst_kind / src_kind). */
enum sb_ir_operand_kind {
    SB_IR_KIND_NONE = 0,     /**< no operand in this slot */
    SB_IR_KIND_VALUE = 1,    /**< a register or immediate read as lanes (dst: a writable
                                  register or NULL) */
    SB_IR_KIND_RESOURCE = 2, /**< t# (or RASTERIZER for SAMPLE_INFO / SAMPLE_POS) */
    SB_IR_KIND_SAMPLER = 3,  /**< s# */
    SB_IR_KIND_UAV = 4,      /**< u# */
    SB_IR_KIND_TEXTURE_OR_UAV = 5, /**< t# or u# (RESINFO, BUFINFO) */
    SB_IR_KIND_MEMORY = 6,   /**< t#, u# or g# (raw/structured loads); u# or g# as a store or
                                  atomic destination */
    SB_IR_KIND_INTERFACE = 7, /**< fp# (INTERFACE_CALL) */
    SB_IR_KIND_MESH_OUTPUT = 8, /**< oMeshVertex (MESH_STORE_VERTEX) or oMeshPrimitive
                                     (MESH_STORE_PRIMITIVE) */
    SB_IR_KIND_MAX_ENUM = 0x7fffffff
};

/** The most sources an op takes (sample_c_d: coord, t#, s#, ref, ddx, ddy, clamp). */
#define SB_IR_OP_MAX_SOURCES 8

/**
 * Static facts about an op, one row per op (IR.md lists the same per op): how
 * many operands it takes, the lane view of each, and what each slot may hold.
 * Counts are ranges because a few ops have optional operands: a residency
 * status destination (dst[1]) on the SM5 `_s` forms of sample/gather/ld, and a
 * trailing LOD-clamp source on sample ops lowered from `sample_*_cl_s`.
 */
struct sb_ir_op_info {
    const char *name;        /**< as sb_ir_op_name() */
    uint8_t dst_min, dst_max; /**< destination count range */
    uint8_t src_min, src_max; /**< source count range */
    uint8_t dst_type[2];     /**< enum sb_ir_type of dst[0], dst[1] */
    uint8_t src_type[SB_IR_OP_MAX_SOURCES]; /**< enum sb_ir_type of each source (NONE for resources) */
    uint8_t dst_kind[2];     /**< enum sb_ir_operand_kind of dst[0], dst[1] */
    uint8_t src_kind[SB_IR_OP_MAX_SOURCES]; /**< enum sb_ir_operand_kind of each source */
    bool control_flow;       /**< structured-flow marker or branch (IF ... CALLC) */
    bool float_modifiers;    /**< SATURATE and NEG/ABS act on float (or double) values */
};

/** The info row of an op; NULL for values >= SB_IR_OP_COUNT. Static. */
const struct sb_ir_op_info *sb_ir_op_info(uint32_t op);

/** True for the 64-bit integer ops (I64ADD ... DTOU64): their DOUBLE slots hold raw
 *  64-bit integers, and they take no modifiers and no SATURATE. */
static inline bool sb_ir_op_is_int64(uint32_t op)
{
    return op >= SB_IR_OP_I64ADD && op <= SB_IR_OP_DTOU64;
}

/** True for the 64-bit atomics (IMM_ATOMIC64_IADD ... IMM_ATOMIC64_CMP_EXCH): their DOUBLE
 *  slots hold raw 64-bit integers, and they take no modifiers. */
static inline bool sb_ir_op_is_atomic64(uint32_t op)
{
    return op >= SB_IR_OP_IMM_ATOMIC64_IADD && op <= SB_IR_OP_IMM_ATOMIC64_CMP_EXCH;
}

/**
 * The source an op with a 64-bit result (DMOV, DMOVC, DADD ... DRCP, FTOD,
 * ITOD, UTOD) reads for the doubles it writes, as a packed operand: double k
 * of the returned operand (pair `swizzle[k]` of a DOUBLE slot, lane
 * `swizzle[k]` of a 32-bit slot) feeds the k-th written pair. D3D maps
 * doubles post-swizzle, by position: a `.zw` destination takes the source's
 * second double (IR.md §Operands), so for a mask without xy this returns a
 * copy whose slot 0 is `src`'s slot 1; otherwise `*src`.
 */
struct sb_ir_operand sb_ir_double_source(const struct sb_ir_operand *src, uint32_t dst_mask);

/**
 * D3D's standard position of sample `index` of a `count`-sample pixel (count 1, 2, 4, 8 or
 * 16), in pixels from the pixel's centre, into xy (both sides read it: samplepos and
 * eval_sample_index). False, with xy 0, for another count or an index past it, as D3D's
 * samplepos gives for an invalid query.
 */
bool sb_ir_standard_sample_position(uint32_t count, uint32_t index, float xy[2]);

/**
 * Prints a program as text (one instruction a line, with offsets), for tests
 * and `shaderbridge translate --ir`. malloc'd; free with free().
 */
char *sb_ir_print(const struct sb_ir_program *program);

/**
 * Checks the structural promises of IR.md on any program, however it was
 * built (front ends, passes, tests): operand counts, files and slot kinds per
 * sb_ir_op_info(), masks and swizzles in range, relative indices one lane and
 * bounded, temps below the function's temp_count, declared x#/g#/icb,
 * balanced structured flow, call targets inside the function array, hull
 * phase counts consistent. Returns SB_SUCCESS or SB_ERROR_TRANSLATE_INVALID
 * with the offending instruction's offset and a message (error may be NULL).
 */
enum sb_result sb_ir_validate(const struct sb_ir_program *program, struct sb_error *error);

#ifdef __cplusplus
}
#endif

#endif
