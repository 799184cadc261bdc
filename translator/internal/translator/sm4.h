/* SPDX-License-Identifier: MIT */
/*
 * Shader Model 4.0 / 4.1 / 5.0 / 5.1 token programs (the SHDR / SHEX part of a
 * DXBC container): a decoder into plain structs and an fxc-syntax
 * disassembler (../shared/docs/sm4-tokens.md).
 *
 * sb_sm4_decode() turns the token stream into a `struct sb_sm4_program`: one
 * `struct sb_sm4_instruction` per opcode token (declarations, instructions,
 * custom-data blocks alike), each with its byte offset and index, its decoded
 * controls, extended-token facts, operands and declaration payload. The
 * structs keep facts, never text, so the IR front end (issue #4) lowers from
 * them directly; sb_sm4_disassemble() renders the same structs as fxc does.
 *
 * Ownership: a program is one allocation tree owned by the program itself
 * (every pointer inside points into it) and released by
 * sb_sm4_program_destroy(); it never borrows the caller's bytes nor a
 * container. Numeric fields keep the raw value from the token where an enum
 * exists, so an unknown value survives decoding.
 */
#ifndef SHADERBRIDGE_SM4_H
#define SHADERBRIDGE_SM4_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "shaderbridge/dxbc.h"
#include "shaderbridge/result.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------ */
/* Opcodes (sm4-tokens.md §3)                                               */
/* ------------------------------------------------------------------------ */

/** Opcode numbers as stored in bits [10:0] of opcode token 0 (§3). */
enum sb_sm4_opcode {
    SB_SM4_OP_ADD = 0, SB_SM4_OP_AND = 1, SB_SM4_OP_BREAK = 2, SB_SM4_OP_BREAKC = 3,
    SB_SM4_OP_CALL = 4, SB_SM4_OP_CALLC = 5, SB_SM4_OP_CASE = 6, SB_SM4_OP_CONTINUE = 7,
    SB_SM4_OP_CONTINUEC = 8, SB_SM4_OP_CUT = 9, SB_SM4_OP_DEFAULT = 10,
    SB_SM4_OP_DERIV_RTX = 11, SB_SM4_OP_DERIV_RTY = 12, SB_SM4_OP_DISCARD = 13,
    SB_SM4_OP_DIV = 14, SB_SM4_OP_DP2 = 15, SB_SM4_OP_DP3 = 16, SB_SM4_OP_DP4 = 17,
    SB_SM4_OP_ELSE = 18, SB_SM4_OP_EMIT = 19, SB_SM4_OP_EMIT_THEN_CUT = 20,
    SB_SM4_OP_ENDIF = 21, SB_SM4_OP_ENDLOOP = 22, SB_SM4_OP_ENDSWITCH = 23, SB_SM4_OP_EQ = 24,
    SB_SM4_OP_EXP = 25, SB_SM4_OP_FRC = 26, SB_SM4_OP_FTOI = 27, SB_SM4_OP_FTOU = 28,
    SB_SM4_OP_GE = 29, SB_SM4_OP_IADD = 30, SB_SM4_OP_IF = 31, SB_SM4_OP_IEQ = 32,
    SB_SM4_OP_IGE = 33, SB_SM4_OP_ILT = 34, SB_SM4_OP_IMAD = 35, SB_SM4_OP_IMAX = 36,
    SB_SM4_OP_IMIN = 37, SB_SM4_OP_IMUL = 38, SB_SM4_OP_INE = 39, SB_SM4_OP_INEG = 40,
    SB_SM4_OP_ISHL = 41, SB_SM4_OP_ISHR = 42, SB_SM4_OP_ITOF = 43, SB_SM4_OP_LABEL = 44,
    SB_SM4_OP_LD = 45, SB_SM4_OP_LDMS = 46, SB_SM4_OP_LOG = 47, SB_SM4_OP_LOOP = 48,
    SB_SM4_OP_LT = 49, SB_SM4_OP_MAD = 50, SB_SM4_OP_MIN = 51, SB_SM4_OP_MAX = 52,
    SB_SM4_OP_CUSTOMDATA = 53, SB_SM4_OP_MOV = 54, SB_SM4_OP_MOVC = 55, SB_SM4_OP_MUL = 56,
    SB_SM4_OP_NE = 57, SB_SM4_OP_NOP = 58, SB_SM4_OP_NOT = 59, SB_SM4_OP_OR = 60,
    SB_SM4_OP_RESINFO = 61, SB_SM4_OP_RET = 62, SB_SM4_OP_RETC = 63,
    SB_SM4_OP_ROUND_NE = 64, SB_SM4_OP_ROUND_NI = 65, SB_SM4_OP_ROUND_PI = 66,
    SB_SM4_OP_ROUND_Z = 67, SB_SM4_OP_RSQ = 68, SB_SM4_OP_SAMPLE = 69,
    SB_SM4_OP_SAMPLE_C = 70, SB_SM4_OP_SAMPLE_C_LZ = 71, SB_SM4_OP_SAMPLE_L = 72,
    SB_SM4_OP_SAMPLE_D = 73, SB_SM4_OP_SAMPLE_B = 74, SB_SM4_OP_SQRT = 75,
    SB_SM4_OP_SWITCH = 76, SB_SM4_OP_SINCOS = 77, SB_SM4_OP_UDIV = 78, SB_SM4_OP_ULT = 79,
    SB_SM4_OP_UGE = 80, SB_SM4_OP_UMUL = 81, SB_SM4_OP_UMAD = 82, SB_SM4_OP_UMAX = 83,
    SB_SM4_OP_UMIN = 84, SB_SM4_OP_USHR = 85, SB_SM4_OP_UTOF = 86, SB_SM4_OP_XOR = 87,
    SB_SM4_OP_DCL_RESOURCE = 88, SB_SM4_OP_DCL_CONSTANT_BUFFER = 89,
    SB_SM4_OP_DCL_SAMPLER = 90, SB_SM4_OP_DCL_INDEX_RANGE = 91,
    SB_SM4_OP_DCL_OUTPUT_TOPOLOGY = 92, SB_SM4_OP_DCL_INPUT_PRIMITIVE = 93,
    SB_SM4_OP_DCL_MAX_OUTPUT_VERTEX_COUNT = 94, SB_SM4_OP_DCL_INPUT = 95,
    SB_SM4_OP_DCL_INPUT_SGV = 96, SB_SM4_OP_DCL_INPUT_SIV = 97, SB_SM4_OP_DCL_INPUT_PS = 98,
    SB_SM4_OP_DCL_INPUT_PS_SGV = 99, SB_SM4_OP_DCL_INPUT_PS_SIV = 100,
    SB_SM4_OP_DCL_OUTPUT = 101, SB_SM4_OP_DCL_OUTPUT_SGV = 102, SB_SM4_OP_DCL_OUTPUT_SIV = 103,
    SB_SM4_OP_DCL_TEMPS = 104, SB_SM4_OP_DCL_INDEXABLE_TEMP = 105,
    SB_SM4_OP_DCL_GLOBAL_FLAGS = 106, SB_SM4_OP_RESERVED_10_0 = 107, SB_SM4_OP_LOD = 108,
    SB_SM4_OP_GATHER4 = 109, SB_SM4_OP_SAMPLE_POS = 110, SB_SM4_OP_SAMPLE_INFO = 111,
    SB_SM4_OP_RESERVED_10_1 = 112, SB_SM4_OP_HS_DECLS = 113,
    SB_SM4_OP_HS_CONTROL_POINT_PHASE = 114, SB_SM4_OP_HS_FORK_PHASE = 115,
    SB_SM4_OP_HS_JOIN_PHASE = 116, SB_SM4_OP_EMIT_STREAM = 117, SB_SM4_OP_CUT_STREAM = 118,
    SB_SM4_OP_EMIT_THEN_CUT_STREAM = 119, SB_SM4_OP_INTERFACE_CALL = 120,
    SB_SM4_OP_BUFINFO = 121, SB_SM4_OP_DERIV_RTX_COARSE = 122,
    SB_SM4_OP_DERIV_RTX_FINE = 123, SB_SM4_OP_DERIV_RTY_COARSE = 124,
    SB_SM4_OP_DERIV_RTY_FINE = 125, SB_SM4_OP_GATHER4_C = 126, SB_SM4_OP_GATHER4_PO = 127,
    SB_SM4_OP_GATHER4_PO_C = 128, SB_SM4_OP_RCP = 129, SB_SM4_OP_F32TOF16 = 130,
    SB_SM4_OP_F16TOF32 = 131, SB_SM4_OP_UADDC = 132, SB_SM4_OP_USUBB = 133,
    SB_SM4_OP_COUNTBITS = 134, SB_SM4_OP_FIRSTBIT_HI = 135, SB_SM4_OP_FIRSTBIT_LO = 136,
    SB_SM4_OP_FIRSTBIT_SHI = 137, SB_SM4_OP_UBFE = 138, SB_SM4_OP_IBFE = 139,
    SB_SM4_OP_BFI = 140, SB_SM4_OP_BFREV = 141, SB_SM4_OP_SWAPC = 142,
    SB_SM4_OP_DCL_STREAM = 143, SB_SM4_OP_DCL_FUNCTION_BODY = 144,
    SB_SM4_OP_DCL_FUNCTION_TABLE = 145, SB_SM4_OP_DCL_INTERFACE = 146,
    SB_SM4_OP_DCL_INPUT_CONTROL_POINT_COUNT = 147,
    SB_SM4_OP_DCL_OUTPUT_CONTROL_POINT_COUNT = 148, SB_SM4_OP_DCL_TESS_DOMAIN = 149,
    SB_SM4_OP_DCL_TESS_PARTITIONING = 150, SB_SM4_OP_DCL_TESS_OUTPUT_PRIMITIVE = 151,
    SB_SM4_OP_DCL_HS_MAX_TESSFACTOR = 152, SB_SM4_OP_DCL_HS_FORK_PHASE_INSTANCE_COUNT = 153,
    SB_SM4_OP_DCL_HS_JOIN_PHASE_INSTANCE_COUNT = 154, SB_SM4_OP_DCL_THREAD_GROUP = 155,
    SB_SM4_OP_DCL_UAV_TYPED = 156, SB_SM4_OP_DCL_UAV_RAW = 157,
    SB_SM4_OP_DCL_UAV_STRUCTURED = 158, SB_SM4_OP_DCL_TGSM_RAW = 159,
    SB_SM4_OP_DCL_TGSM_STRUCTURED = 160, SB_SM4_OP_DCL_RESOURCE_RAW = 161,
    SB_SM4_OP_DCL_RESOURCE_STRUCTURED = 162, SB_SM4_OP_LD_UAV_TYPED = 163,
    SB_SM4_OP_STORE_UAV_TYPED = 164, SB_SM4_OP_LD_RAW = 165, SB_SM4_OP_STORE_RAW = 166,
    SB_SM4_OP_LD_STRUCTURED = 167, SB_SM4_OP_STORE_STRUCTURED = 168,
    SB_SM4_OP_ATOMIC_AND = 169, SB_SM4_OP_ATOMIC_OR = 170, SB_SM4_OP_ATOMIC_XOR = 171,
    SB_SM4_OP_ATOMIC_CMP_STORE = 172, SB_SM4_OP_ATOMIC_IADD = 173,
    SB_SM4_OP_ATOMIC_IMAX = 174, SB_SM4_OP_ATOMIC_IMIN = 175, SB_SM4_OP_ATOMIC_UMAX = 176,
    SB_SM4_OP_ATOMIC_UMIN = 177, SB_SM4_OP_IMM_ATOMIC_ALLOC = 178,
    SB_SM4_OP_IMM_ATOMIC_CONSUME = 179, SB_SM4_OP_IMM_ATOMIC_IADD = 180,
    SB_SM4_OP_IMM_ATOMIC_AND = 181, SB_SM4_OP_IMM_ATOMIC_OR = 182,
    SB_SM4_OP_IMM_ATOMIC_XOR = 183, SB_SM4_OP_IMM_ATOMIC_EXCH = 184,
    SB_SM4_OP_IMM_ATOMIC_CMP_EXCH = 185, SB_SM4_OP_IMM_ATOMIC_IMAX = 186,
    SB_SM4_OP_IMM_ATOMIC_IMIN = 187, SB_SM4_OP_IMM_ATOMIC_UMAX = 188,
    SB_SM4_OP_IMM_ATOMIC_UMIN = 189, SB_SM4_OP_SYNC = 190, SB_SM4_OP_DADD = 191,
    SB_SM4_OP_DMAX = 192, SB_SM4_OP_DMIN = 193, SB_SM4_OP_DMUL = 194, SB_SM4_OP_DEQ = 195,
    SB_SM4_OP_DGE = 196, SB_SM4_OP_DLT = 197, SB_SM4_OP_DNE = 198, SB_SM4_OP_DMOV = 199,
    SB_SM4_OP_DMOVC = 200, SB_SM4_OP_DTOF = 201, SB_SM4_OP_FTOD = 202,
    SB_SM4_OP_EVAL_SNAPPED = 203, SB_SM4_OP_EVAL_SAMPLE_INDEX = 204,
    SB_SM4_OP_EVAL_CENTROID = 205, SB_SM4_OP_DCL_GS_INSTANCE_COUNT = 206,
    SB_SM4_OP_ABORT = 207, SB_SM4_OP_DEBUG_BREAK = 208, SB_SM4_OP_RESERVED_11_0 = 209,
    SB_SM4_OP_DDIV = 210, SB_SM4_OP_DFMA = 211, SB_SM4_OP_DRCP = 212, SB_SM4_OP_MSAD = 213,
    SB_SM4_OP_DTOI = 214, SB_SM4_OP_DTOU = 215, SB_SM4_OP_ITOD = 216, SB_SM4_OP_UTOD = 217,
    SB_SM4_OP_RESERVED_11_1 = 218, SB_SM4_OP_GATHER4_S = 219, SB_SM4_OP_GATHER4_C_S = 220,
    SB_SM4_OP_GATHER4_PO_S = 221, SB_SM4_OP_GATHER4_PO_C_S = 222, SB_SM4_OP_LD_S = 223,
    SB_SM4_OP_LDMS_S = 224, SB_SM4_OP_LD_UAV_TYPED_S = 225, SB_SM4_OP_LD_RAW_S = 226,
    SB_SM4_OP_LD_STRUCTURED_S = 227, SB_SM4_OP_SAMPLE_L_S = 228,
    SB_SM4_OP_SAMPLE_C_LZ_S = 229, SB_SM4_OP_SAMPLE_CL_S = 230,
    SB_SM4_OP_SAMPLE_B_CL_S = 231, SB_SM4_OP_SAMPLE_D_CL_S = 232,
    SB_SM4_OP_SAMPLE_C_CL_S = 233, SB_SM4_OP_CHECK_ACCESS_FULLY_MAPPED = 234,
    SB_SM4_OP_COUNT = 235, /**< one past the last opcode number */
    SB_SM4_OPCODE_MAX_ENUM = 0x7fffffff
};

/**
 * fxc's base mnemonic of an opcode ("add", "dcl_resource", "ldms"), without
 * the suffixes controls add; NULL for reserved numbers, 53 (custom data) and
 * values >= SB_SM4_OP_COUNT. Static string.
 */
const char *sb_sm4_opcode_name(uint32_t opcode);

/* ------------------------------------------------------------------------ */
/* Operands (§5, §6)                                                        */
/* ------------------------------------------------------------------------ */

/** Operand types, bits [19:12] of operand token 0 (§5.3). */
enum sb_sm4_operand_type {
    SB_SM4_OPERAND_TEMP = 0, SB_SM4_OPERAND_INPUT = 1, SB_SM4_OPERAND_OUTPUT = 2,
    SB_SM4_OPERAND_INDEXABLE_TEMP = 3, SB_SM4_OPERAND_IMMEDIATE32 = 4,
    SB_SM4_OPERAND_IMMEDIATE64 = 5, SB_SM4_OPERAND_SAMPLER = 6, SB_SM4_OPERAND_RESOURCE = 7,
    SB_SM4_OPERAND_CONSTANT_BUFFER = 8, SB_SM4_OPERAND_IMMEDIATE_CONSTANT_BUFFER = 9,
    SB_SM4_OPERAND_LABEL = 10, SB_SM4_OPERAND_INPUT_PRIMITIVEID = 11,
    SB_SM4_OPERAND_OUTPUT_DEPTH = 12, SB_SM4_OPERAND_NULL = 13,
    SB_SM4_OPERAND_RASTERIZER = 14, SB_SM4_OPERAND_OUTPUT_COVERAGE_MASK = 15,
    SB_SM4_OPERAND_STREAM = 16, SB_SM4_OPERAND_FUNCTION_BODY = 17,
    SB_SM4_OPERAND_FUNCTION_TABLE = 18, SB_SM4_OPERAND_INTERFACE = 19,
    SB_SM4_OPERAND_FUNCTION_INPUT = 20, SB_SM4_OPERAND_FUNCTION_OUTPUT = 21,
    SB_SM4_OPERAND_OUTPUT_CONTROL_POINT_ID = 22, SB_SM4_OPERAND_INPUT_FORK_INSTANCE_ID = 23,
    SB_SM4_OPERAND_INPUT_JOIN_INSTANCE_ID = 24, SB_SM4_OPERAND_INPUT_CONTROL_POINT = 25,
    SB_SM4_OPERAND_OUTPUT_CONTROL_POINT = 26, SB_SM4_OPERAND_INPUT_PATCH_CONSTANT = 27,
    SB_SM4_OPERAND_INPUT_DOMAIN_POINT = 28, SB_SM4_OPERAND_THIS_POINTER = 29,
    SB_SM4_OPERAND_UAV = 30, SB_SM4_OPERAND_THREAD_GROUP_SHARED_MEMORY = 31,
    SB_SM4_OPERAND_INPUT_THREAD_ID = 32, SB_SM4_OPERAND_INPUT_THREAD_GROUP_ID = 33,
    SB_SM4_OPERAND_INPUT_THREAD_ID_IN_GROUP = 34, SB_SM4_OPERAND_INPUT_COVERAGE_MASK = 35,
    SB_SM4_OPERAND_INPUT_THREAD_ID_IN_GROUP_FLATTENED = 36,
    SB_SM4_OPERAND_INPUT_GS_INSTANCE_ID = 37, SB_SM4_OPERAND_OUTPUT_DEPTH_GREATER_EQUAL = 38,
    SB_SM4_OPERAND_OUTPUT_DEPTH_LESS_EQUAL = 39, SB_SM4_OPERAND_CYCLE_COUNTER = 40,
    SB_SM4_OPERAND_OUTPUT_STENCIL_REF = 41, SB_SM4_OPERAND_INNER_COVERAGE = 42,
    SB_SM4_OPERAND_TYPE_COUNT = 43, /**< one past the last known type */
    SB_SM4_OPERAND_TYPE_MAX_ENUM = 0x7fffffff
};

/** How a 4-component operand selects components, bits [3:2] (§5.2). */
enum sb_sm4_selection {
    SB_SM4_SELECT_MASK = 0,    /**< write mask (destinations, declarations) */
    SB_SM4_SELECT_SWIZZLE = 1, /**< four source components */
    SB_SM4_SELECT_ONE = 2,     /**< one component, replicated */
    SB_SM4_SELECTION_MAX_ENUM = 0x7fffffff
};

/** Representation of one index, bits [24:22] / [27:25] / [30:28] (§5.1). */
enum sb_sm4_index_representation {
    SB_SM4_INDEX_IMMEDIATE32 = 0,          /**< one DWORD */
    SB_SM4_INDEX_IMMEDIATE64 = 1,          /**< two DWORDs, high word first */
    SB_SM4_INDEX_RELATIVE = 2,             /**< a nested operand (value = 0) */
    SB_SM4_INDEX_IMMEDIATE32_RELATIVE = 3, /**< one DWORD plus a nested operand */
    SB_SM4_INDEX_IMMEDIATE64_RELATIVE = 4, /**< two DWORDs plus a nested operand */
    SB_SM4_INDEX_REPRESENTATION_MAX_ENUM = 0x7fffffff
};

/** Source modifier of an extended operand token, bits [13:6] (§6). */
enum sb_sm4_modifier {
    SB_SM4_MODIFIER_NONE = 0, SB_SM4_MODIFIER_NEG = 1, SB_SM4_MODIFIER_ABS = 2,
    SB_SM4_MODIFIER_ABS_NEG = 3,
    SB_SM4_MODIFIER_MAX_ENUM = 0x7fffffff
};

/** Minimum precision of an extended operand token, bits [16:14] (§6). */
enum sb_sm4_min_precision {
    SB_SM4_MIN_PRECISION_DEFAULT = 0, SB_SM4_MIN_PRECISION_FLOAT16 = 1,
    SB_SM4_MIN_PRECISION_FLOAT_2_8 = 2, SB_SM4_MIN_PRECISION_SINT16 = 4,
    SB_SM4_MIN_PRECISION_UINT16 = 5,
    SB_SM4_MIN_PRECISION_MAX_ENUM = 0x7fffffff
};

struct sb_sm4_operand;

/** One index of an operand. */
struct sb_sm4_index {
    /** enum sb_sm4_index_representation as stored. */
    uint32_t representation;
    /** The immediate part (0 for SB_SM4_INDEX_RELATIVE); 64-bit forms keep all bits. */
    uint64_t value;
    /** The register added to `value` for the relative forms, else NULL. Owned by the
     *  program. */
    const struct sb_sm4_operand *relative;
};

/** A decoded operand (§5): a register, an immediate, or a special register. */
struct sb_sm4_operand {
    uint64_t offset;          /**< byte offset of operand token 0 (base_offset-relative) */
    uint32_t token;           /**< operand token 0 as stored */
    uint32_t type;            /**< enum sb_sm4_operand_type */
    /** Number of components, decoded from bits [1:0]: 0, 1 or 4 (3 = "N" never valid). */
    uint32_t component_count;
    /** enum sb_sm4_selection; meaningful only when component_count is 4. */
    uint32_t selection;
    /** Write mask (bit 0 = x) in mask mode; 0 in the other modes. */
    uint32_t mask;
    /** Source component feeding x, y, z, w in swizzle mode; in select-1 mode all four
     *  hold the selected component; identity (0,1,2,3) otherwise. */
    uint8_t swizzle[4];
    uint32_t index_dimension; /**< 0 … 3 indices, bits [21:20] */
    struct sb_sm4_index index[3]; /**< index_dimension entries are valid */
    bool extended;            /**< an extended operand token was present */
    uint32_t modifier;        /**< enum sb_sm4_modifier (sources only in practice) */
    uint32_t min_precision;   /**< enum sb_sm4_min_precision */
    bool non_uniform;         /**< SM5.1 NonUniformResourceIndex (extended bit 17) */
    /** DWORDs of immediate data (types 4 and 5): 1 or 4 for IMMEDIATE32, 2 or 4 for
     *  IMMEDIATE64 (each double low DWORD first); 0 for registers. */
    uint32_t immediate_count;
    uint32_t immediate[4];    /**< the immediate DWORDs as stored */
};

/* ------------------------------------------------------------------------ */
/* Instructions (§2, §4, §7)                                                */
/* ------------------------------------------------------------------------ */

/** Custom-data classes, bits [31:11] of a block's token 0 (§7). */
enum sb_sm4_custom_data_class {
    SB_SM4_CUSTOM_COMMENT = 0, SB_SM4_CUSTOM_DEBUG_INFO = 1, SB_SM4_CUSTOM_OPAQUE = 2,
    SB_SM4_CUSTOM_IMMEDIATE_CONSTANT_BUFFER = 3, SB_SM4_CUSTOM_SHADER_MESSAGE = 4,
    SB_SM4_CUSTOM_CLIP_PLANE_CONSTANT_MAPPINGS = 5,
    SB_SM4_CUSTOM_DATA_CLASS_MAX_ENUM = 0x7fffffff
};

/** Shader-message ids (§7). */
#define SB_SM4_MESSAGE_ID_PRINTF 0x00200102u
#define SB_SM4_MESSAGE_ID_ERRORF 0x00200103u

/** UAV declaration flags (sb_sm4_declaration::uav_flags, §8.11); token bit positions. */
#define SB_SM4_UAV_GLOBALLY_COHERENT 0x00010000u
#define SB_SM4_UAV_RASTERIZER_ORDERED 0x00020000u
#define SB_SM4_UAV_ORDER_PRESERVING_COUNTER 0x00800000u

/** sync flags (sb_sm4_instruction::sync_flags, §2.3), token bits [14:11] shifted down. */
#define SB_SM4_SYNC_THREADS_IN_GROUP 0x1u
#define SB_SM4_SYNC_GROUP_SHARED_MEMORY 0x2u
#define SB_SM4_SYNC_UAV_GROUP 0x4u
#define SB_SM4_SYNC_UAV_GLOBAL 0x8u

/**
 * Payload of a declaration (§2.4). One struct for all declarations; each
 * field names the opcodes that set it and is 0 for the others. The
 * declared register itself (t#, cb#, v#, ...) is operand 0 of the
 * instruction.
 */
struct sb_sm4_declaration {
    /** dcl_resource, dcl_uav_typed: resource dimension (§8.3). */
    uint32_t resource_dimension;
    /** dcl_resource: sample count of 2DMS / 2DMSARRAY (bits [22:16]). */
    uint32_t sample_count;
    /** dcl_resource, dcl_uav_typed: return type of x, y, z, w (§8.4). */
    uint32_t return_type[4];
    /** dcl_uav_*: SB_SM4_UAV_* bits as they sit in token 0. */
    uint32_t uav_flags;
    /** SM5.1 dcl_resource*, dcl_sampler, dcl_uav_*, dcl_constantbuffer: register space. */
    uint32_t space;
    /** dcl_constantbuffer: 1 when dynamicIndexed, 0 immediateIndexed (bit 11). */
    uint32_t cb_dynamic_indexed;
    /** dcl_constantbuffer SM5.1: the size DWORD (16-byte vectors); SM4/5.0 keep the size
     *  in operand index 1. */
    uint32_t cb_size;
    /** dcl_sampler: mode (0 default, 1 comparison, 2 mono). */
    uint32_t sampler_mode;
    /** dcl_input_ps*: interpolation mode (§8.2). */
    uint32_t interpolation;
    /** dcl_*_sgv / dcl_*_siv: system value name (§8.1). */
    uint32_t system_value;
    /**
     * The single count or number of: dcl_temps (registers), dcl_indexrange (registers),
     * dcl_maxout, dcl_gsinstances, dcl_input/output_control_point_count,
     * dcl_hs_*_phase_instance_count, dcl_tgsm_raw (bytes), dcl_tgsm_structured (structure
     * count), dcl_function_body (body id), dcl_stream-less others 0.
     */
    uint32_t count;
    /** dcl_uav_structured, dcl_resource_structured, dcl_tgsm_structured: stride in bytes. */
    uint32_t stride;
    /** dcl_indexableTemp: x# register, element count, component count. */
    uint32_t indexable_register, indexable_count, indexable_components;
    /** dcl_globalFlags: the flag bits [23:11] shifted down by 11 (§8.12). */
    uint32_t global_flags;
    /** dcl_inputprimitive (§8.8) / dcl_outputtopology (§8.9): the primitive value. */
    uint32_t primitive;
    /** dcl_tessellator_domain / _partitioning / _output_primitive: the value (§8.5-8.7). */
    uint32_t tessellator;
    /** dcl_hs_max_tessfactor: the float. */
    float max_tessfactor;
    /** dcl_thread_group: x, y, z. */
    uint32_t thread_group[3];
    /** dcl_function_table: table id; dcl_interface: interface id. */
    uint32_t table_id;
    /** dcl_interface: dynamically indexed (bit 11). */
    bool interface_dynamic;
    /** dcl_interface: expected function-table length (call sites). */
    uint32_t interface_table_length;
    /** dcl_interface: array length (packed DWORD bits [31:16]). */
    uint32_t interface_array_length;
    /** dcl_function_table: function-body ids; dcl_interface: function-table ids. */
    uint32_t id_count;
    const uint32_t *ids;      /**< id_count ids; owned by the program */
};

/** A custom-data block (opcode 53, §7). */
struct sb_sm4_custom_data {
    uint32_t data_class;      /**< enum sb_sm4_custom_data_class */
    /** Payload DWORDs after the two header DWORDs (for the ICB: 4 × rows). */
    uint32_t dword_count;
    const uint32_t *dwords;   /**< dword_count DWORDs (host order); owned by the program */
    /* Shader message (class 4) fields; the message operands are the instruction's
     * operands. */
    uint32_t message_id;      /**< SB_SM4_MESSAGE_ID_PRINTF or _ERRORF */
    uint32_t message_format;  /**< 0 ANSI text, 1 printf-style */
    /** The message string (NUL-terminated, NULL when the block is not a message). */
    const char *message;
};

/** One decoded opcode token: declaration, instruction or custom-data block. */
struct sb_sm4_instruction {
    uint32_t opcode;          /**< enum sb_sm4_opcode */
    uint32_t index;           /**< position in sb_sm4_program::instructions */
    uint64_t offset;          /**< byte offset of opcode token 0 (base_offset-relative) */
    uint32_t length;          /**< length in DWORDs as encoded (custom data: its length) */
    uint32_t token;           /**< opcode token 0 as stored */

    /* Controls of token 0 (§2.2, §2.3); only those the opcode defines are set. */
    bool saturate;            /**< bit 13 on ALU ops: `_sat` */
    bool test_nonzero;        /**< bit 18 of the conditional ops: true `_nz`, false `_z` */
    uint32_t precise_mask;    /**< bits [22:19]: bit 0 = x … bit 3 = w */
    /** resinfo: 0 float, 1 rcpfloat, 2 uint; sampleinfo: 0 float, 1 uint. */
    uint32_t return_type;
    uint32_t sync_flags;      /**< sync: SB_SM4_SYNC_* */

    /* Extended opcode tokens (§4). */
    uint32_t extended_count;  /**< extended opcode tokens read */
    bool has_sample_offsets;  /**< type 1 present (`_aoffimmi`) */
    int8_t sample_offsets[3]; /**< u, v, w texel offsets (-8 … 7) */
    bool has_resource_dimension; /**< type 2 present */
    uint32_t resource_dimension; /**< §8.3 */
    uint32_t resource_stride; /**< structure stride of type 2 (structured buffers) */
    bool has_resource_return_type; /**< type 3 present */
    uint32_t resource_return_type[4]; /**< §8.4, x y z w */

    /** Number of destination operands; they come first in `operands`. */
    uint32_t dst_count;
    uint32_t operand_count;   /**< destinations + sources (+ declaration operand) */
    const struct sb_sm4_operand *operands; /**< owned by the program */
    /** fcall: the call-site DWORD (printed as the last bracket). */
    uint32_t call_site;

    bool is_declaration;      /**< a dcl_* opcode */
    struct sb_sm4_declaration decl; /**< payload when is_declaration */
    bool is_custom_data;      /**< opcode 53 */
    struct sb_sm4_custom_data custom; /**< payload when is_custom_data */
};

/** A decoded SHDR/SHEX program. */
struct sb_sm4_program {
    uint32_t program_type;    /**< 0 ps, 1 vs, 2 gs, 3 hs, 4 ds, 5 cs (version token) */
    uint32_t major, minor;    /**< shader model, e.g. 5 and 0 */
    uint32_t version_token;   /**< token 0 as stored */
    uint32_t length_dwords;   /**< token 1: program length in DWORDs */
    uint64_t base_offset;     /**< the base_offset given to sb_sm4_decode() */
    uint32_t instruction_count;
    /** instruction_count entries in stream order; owned by the program. */
    const struct sb_sm4_instruction *instructions;
};

/* ------------------------------------------------------------------------ */
/* Entry points                                                             */
/* ------------------------------------------------------------------------ */

/**
 * Decodes an SM4/5 token program.
 *
 * @param data        the SHDR or SHEX part data (any alignment; not retained)
 * @param size        its size in bytes; the program ends at its length token, which
 *                    must not exceed size (trailing bytes are ignored)
 * @param base_offset file offset of data, added to every offset reported (operands,
 *                    instructions, errors)
 * @param out         receives the new program (free with sb_sm4_program_destroy()),
 *                    NULL on failure
 * @param error       optional; on failure receives an SB_ERROR_SM4_* (or
 *                    SB_ERROR_OUT_OF_MEMORY / SB_ERROR_INVALID_ARGUMENT) code, the byte
 *                    offset of the bad token and the instruction index
 *                    (UINT32_MAX for header problems)
 */
enum sb_result sb_sm4_decode(const void *data, size_t size, uint64_t base_offset,
                             struct sb_sm4_program **out, struct sb_error *error);

/**
 * Finds the SHEX (or else SHDR) part of a parsed container and decodes it
 * with its file offset as base_offset. SB_ERROR_INVALID_ARGUMENT when
 * `container` or `out` is NULL or the container has neither part.
 */
enum sb_result sb_sm4_decode_container(const struct sb_dxbc *container,
                                       struct sb_sm4_program **out, struct sb_error *error);

/** Frees a program and everything it owns; NULL is a no-op. */
void sb_sm4_program_destroy(struct sb_sm4_program *program);

/** Disassembly flags. */
#define SB_SM4_DISASM_OFFSETS 0x1u   /**< prefix each instruction with its byte offset */
#define SB_SM4_DISASM_NO_HEADER 0x2u /**< omit fxc's header comments and the footer */

/**
 * Renders a program in fxc's syntax (§9): header comments (buffer
 * definitions, resource bindings, signatures — when `container` holds RDEF
 * and signature parts), the version line, one line per declaration and
 * instruction, and the "// Approximately N instruction slots used" footer.
 * Where fxc versions print differently (§9.15) the RDEF creator string of
 * `container` picks the version; without one, fxc 10.1's spelling is used.
 *
 * @param program  the decoded program
 * @param container optional (NULL: no header comments, footer count 0, fxc 10.1
 *                 spellings); not retained
 * @param flags    SB_SM4_DISASM_* bits
 * @param text     receives a malloc'd NUL-terminated string; free it with
 *                 sb_sm4_text_free(); NULL on failure
 * @param error    optional; SB_ERROR_INVALID_ARGUMENT or SB_ERROR_OUT_OF_MEMORY
 */
enum sb_result sb_sm4_disassemble(const struct sb_sm4_program *program,
                                  const struct sb_dxbc *container, uint32_t flags,
                                  char **text, struct sb_error *error);

/** Frees text returned by sb_sm4_disassemble(); NULL is a no-op. */
void sb_sm4_text_free(char *text);

#ifdef __cplusplus
}
#endif

#endif
