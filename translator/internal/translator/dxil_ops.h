/* SPDX-License-Identifier: MIT */
/*
 * The dx.op table of DXIL (../shared/docs/dxil.md §3.3-§3.6) as C data, for
 * the DXIL front end, the DXIL disassembler and validation: one const row per
 * opcode (name, class, operands with their immediate rule, return type,
 * overloads, minimum shader model, stages), lookups by opcode and by the
 * `dx.op.<class>[.<overload>]` function name, and the names of the §3.4
 * operand enumerations.
 *
 * The rows, the class table and the §3.4 names are generated from the doc by
 * tools/gen_dxil_ops.py (src/dxil/dxil_ops_table.c, dxil_opcodes.h); the
 * lookups are in src/dxil/dxil_ops.c. Project-internal, never installed.
 */
#ifndef SB_TRANSLATOR_DXIL_OPS_H
#define SB_TRANSLATOR_DXIL_OPS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "shaderbridge/result.h"
#include "translator/dxil_opcodes.h"

/** Operand and return types of the §3.6 column legend. */
enum sb_dxil_type {
    SB_DXIL_TYPE_VOID = 0,
    SB_DXIL_TYPE_OVERLOAD,        /**< `T`: the overload type of the call */
    SB_DXIL_TYPE_HANDLE,          /**< `H`: %dx.types.Handle */
    SB_DXIL_TYPE_I1,
    SB_DXIL_TYPE_I8,
    SB_DXIL_TYPE_I16,
    SB_DXIL_TYPE_I32,
    SB_DXIL_TYPE_I64,
    SB_DXIL_TYPE_F16,
    SB_DXIL_TYPE_F32,
    SB_DXIL_TYPE_F64,
    SB_DXIL_TYPE_F32_PTR,         /**< `f32*` (min-precision x# register, converter only) */
    SB_DXIL_TYPE_UDT_PTR,         /**< `udt*`: pointer to a user struct */
    SB_DXIL_TYPE_OBJECT,          /**< `obj`: resource global or struct value (libraries) */
    SB_DXIL_TYPE_RES_BIND,        /**< %dx.types.ResBind constant */
    SB_DXIL_TYPE_RES_PROPS,       /**< %dx.types.ResourceProperties constant */
    SB_DXIL_TYPE_NODE_HANDLE,     /**< %dx.types.NodeHandle */
    SB_DXIL_TYPE_RECORD_HANDLE,   /**< %dx.types.NodeRecordHandle */
    SB_DXIL_TYPE_NODE_INFO,       /**< %dx.types.NodeInfo constant */
    SB_DXIL_TYPE_RECORD_INFO,     /**< %dx.types.NodeRecordInfo constant */
    SB_DXIL_TYPE_HIT_OBJECT,      /**< %dx.types.HitObject */
    SB_DXIL_TYPE_RES_RET,         /**< %dx.types.ResRet.<T> */
    SB_DXIL_TYPE_CBUF_RET,        /**< %dx.types.CBufRet.<T> */
    SB_DXIL_TYPE_I1_OR_VECTOR,    /**< `i1†`: i1, or <N x i1> for a vector overload */
    SB_DXIL_TYPE_I32_OR_VECTOR,   /**< `i32†`: i32, or <N x i32> for a vector overload */
    SB_DXIL_TYPE_TWO_I32,         /**< %dx.types.twoi32 */
    SB_DXIL_TYPE_I32_WITH_CARRY,  /**< %dx.types.i32c */
    SB_DXIL_TYPE_SPLIT_DOUBLE,    /**< %dx.types.splitdouble */
    SB_DXIL_TYPE_FOUR_I32,        /**< %dx.types.fouri32 */
    SB_DXIL_TYPE_FOUR_I32_OR_I16, /**< fouri32 (i32 overload) or fouri16 (i16) */
    SB_DXIL_TYPE_DIMENSIONS,      /**< %dx.types.Dimensions */
    SB_DXIL_TYPE_SAMPLE_POS,      /**< %dx.types.SamplePos */
    SB_DXIL_TYPE_VEC9_OVERLOAD,   /**< <9 x T> */
    SB_DXIL_TYPE_ELEMENT,         /**< element type of the vector overload */
    SB_DXIL_TYPE_COUNT
};

/** The §3.6 legend's spelling of `type` ("i32", "T", "ResRet(T)"); NULL past SB_DXIL_TYPE_COUNT. */
const char *sb_dxil_type_name(enum sb_dxil_type type);

/** Overload types (§3.3), one bit each; a row's set is a mask of these. */
enum sb_dxil_overload {
    SB_DXIL_OVERLOAD_F16 = 1u << 0,    /**< `h`, suffix f16 */
    SB_DXIL_OVERLOAD_F32 = 1u << 1,    /**< `f`, suffix f32 */
    SB_DXIL_OVERLOAD_F64 = 1u << 2,    /**< `d`, suffix f64 */
    SB_DXIL_OVERLOAD_I1 = 1u << 3,     /**< `1`, suffix i1 */
    SB_DXIL_OVERLOAD_I8 = 1u << 4,     /**< `8`, suffix i8 */
    SB_DXIL_OVERLOAD_I16 = 1u << 5,    /**< `w`, suffix i16 */
    SB_DXIL_OVERLOAD_I32 = 1u << 6,    /**< `i`, suffix i32 */
    SB_DXIL_OVERLOAD_I64 = 1u << 7,    /**< `l`, suffix i64 */
    SB_DXIL_OVERLOAD_UDT = 1u << 8,    /**< `u`: a user struct, suffix = its type name */
    SB_DXIL_OVERLOAD_OBJECT = 1u << 9, /**< `o`: an object, suffix = its type name */
};

/** Stages an op is allowed in (§3.6 "stages"); libraries are always allowed. */
enum sb_dxil_stage {
    SB_DXIL_STAGE_PS = 1u << 0,
    SB_DXIL_STAGE_VS = 1u << 1,
    SB_DXIL_STAGE_GS = 1u << 2,
    SB_DXIL_STAGE_HS = 1u << 3,
    SB_DXIL_STAGE_DS = 1u << 4,
    SB_DXIL_STAGE_CS = 1u << 5,
    SB_DXIL_STAGE_MS = 1u << 6,
    SB_DXIL_STAGE_AS = 1u << 7,
    SB_DXIL_STAGE_NODE = 1u << 8,
    SB_DXIL_STAGE_RG = 1u << 9,  /**< ray generation */
    SB_DXIL_STAGE_IS = 1u << 10, /**< intersection */
    SB_DXIL_STAGE_AH = 1u << 11, /**< any hit */
    SB_DXIL_STAGE_CH = 1u << 12, /**< closest hit */
    SB_DXIL_STAGE_MI = 1u << 13, /**< miss */
    SB_DXIL_STAGE_CA = 1u << 14, /**< callable */
    SB_DXIL_STAGE_ALL = (1u << 15) - 1,
};

/** The §3.6 "6.0-6.2" column: what a first SM 6.0-6.2 translator owes the op. */
enum sb_dxil_early {
    SB_DXIL_EARLY_NONE = 0,  /**< needs SM >= 6.3 */
    SB_DXIL_EARLY_REQUIRED,  /**< ★: dxc's HLSL front end emits it */
    SB_DXIL_EARLY_CONVERTER, /**< `conv`: only DXC's DXBC -> DXIL converter emits it */
    SB_DXIL_EARLY_FLAG,      /**< `flag`: only with a non-default dxc option */
};

/** One operand after the opcode. */
struct sb_dxil_op_operand {
    const char *name;       /**< the doc's operand name */
    enum sb_dxil_type type; /**< its type */
    bool immediate;         /**< `!`: must be an immediate constant */
};

/** One dx.op (§3.6 row). */
struct sb_dxil_op_info {
    uint32_t opcode;             /**< bits 31-16 table, 15-0 index */
    const char *name;            /**< the doc's opcode name ("LoadInput") */
    enum sb_dxil_op_class op_class; /**< the function-name class */
    uint16_t operand_first;      /**< index of the first operand in sb_dxil_op_operands */
    uint8_t operand_count;       /**< operands after the opcode */
    enum sb_dxil_type returns;   /**< return type */
    uint8_t sm_major, sm_minor;  /**< minimum shader model (hctdb) */
    bool sm_vector_only;         /**< `‡`: only vector overloads exist, which need SM 6.9 */
    enum sb_dxil_early early;    /**< the 6.0-6.2 column */
    uint32_t stages;             /**< enum sb_dxil_stage mask; SB_DXIL_STAGE_ALL when unrestricted */
    uint32_t overloads;          /**< scalar overloads (enum sb_dxil_overload mask); 0 = void */
    uint32_t vector_overloads;   /**< element types of the SM 6.9 vector overloads */
};

/** One class (the <class> of a dx.op function name). */
struct sb_dxil_op_class_info {
    const char *name;          /**< "unary", "threadId", ... */
    uint32_t overloads;        /**< union of its opcodes' scalar overloads */
    uint32_t vector_overloads; /**< union of its opcodes' vector element overloads */
    bool has_void;             /**< an opcode of the class has no overload (no suffix) */
};

/** One named value of a §3.4 enumeration. */
struct sb_dxil_enum_value {
    uint32_t value; /**< the value (for flag enums: the bit's mask) */
    const char *name;
};

/** One §3.4 enumeration. */
struct sb_dxil_enum_info {
    const char *name;                        /**< "ResourceKind" */
    bool flags;                              /**< values are bits that combine */
    const struct sb_dxil_enum_value *values; /**< ascending */
    uint32_t count;
};

/* The generated data (src/dxil/dxil_ops_table.c). Reserved numbers are rows whose
 * name is NULL; use the lookups below rather than indexing. */
extern const struct sb_dxil_op_operand sb_dxil_op_operands[];
extern const struct sb_dxil_op_info sb_dxil_core_ops[SB_DXIL_CORE_OP_COUNT];
extern const struct sb_dxil_op_info sb_dxil_experimental_ops[SB_DXIL_EXPERIMENTAL_OP_COUNT];
extern const struct sb_dxil_op_class_info sb_dxil_op_classes[SB_DXIL_CLASS_COUNT];
extern const struct sb_dxil_enum_info sb_dxil_enums[SB_DXIL_ENUM_COUNT];

/** The row of `opcode` (core or experimental table); NULL for a reserved or unknown number. */
const struct sb_dxil_op_info *sb_dxil_op_lookup(uint32_t opcode);

/** Operand `index` (0 = first after the opcode) of `op`; NULL past operand_count. */
const struct sb_dxil_op_operand *sb_dxil_op_operand(const struct sb_dxil_op_info *op,
                                                    uint32_t index);

/** The class called `name` (`length` bytes, no NUL needed); false when there is none. */
bool sb_dxil_op_class_find(const char *name, size_t length, enum sb_dxil_op_class *out);

/** What the overload suffix of a dx.op name says. */
enum sb_dxil_overload_kind {
    SB_DXIL_OVERLOAD_KIND_NONE = 0, /**< no suffix: a void-overload op */
    SB_DXIL_OVERLOAD_KIND_SCALAR,   /**< f16 ... i64 */
    SB_DXIL_OVERLOAD_KIND_VECTOR,   /**< v<N><scalar> (SM 6.9) */
    SB_DXIL_OVERLOAD_KIND_STRUCT,   /**< a user-struct or object type name */
};

/** A parsed overload suffix. */
struct sb_dxil_overload_suffix {
    enum sb_dxil_overload_kind kind;
    uint32_t scalar;        /**< SCALAR and VECTOR: one enum sb_dxil_overload bit (the element) */
    uint32_t vector_length; /**< VECTOR: N, 1-1024 (kSM69MaxVectorLength) */
    const char *type_name;  /**< STRUCT: the suffix as written (points into the parsed name) */
    size_t type_name_length;
};

/** Longest vector overload (SM 6.9's kSM69MaxVectorLength, §3.1). */
#define SB_DXIL_MAX_VECTOR_LENGTH 1024u

/**
 * Parses a scalar or vector overload suffix ("f32", "i1", "v4f16"); false for
 * anything else (struct names are only recognised by sb_dxil_op_name_parse,
 * which knows whether the class takes one).
 */
bool sb_dxil_overload_suffix_parse(const char *suffix, size_t length,
                                   struct sb_dxil_overload_suffix *out);

/** The suffix spelling of one scalar overload bit ("f32"); NULL for UDT/OBJECT or not one bit. */
const char *sb_dxil_overload_name(uint32_t overload);

/** A parsed dx.op function name. */
struct sb_dxil_op_name {
    enum sb_dxil_op_class op_class;
    struct sb_dxil_overload_suffix overload;
};

/**
 * Parses `dx.op.<class>[.<overload>]` (`length` bytes, from the bitcode's
 * string table: no NUL needed) and checks the overload against the class:
 * a suffix the class's opcodes do not have, a missing suffix on a class
 * that always has one, or one on a class that never has one is refused.
 * Errors: SB_ERROR_BAD_VALUE with the byte offset inside `name` where the
 * bad part starts and a message naming it (not a dx.op name, unknown class,
 * bad or disallowed suffix, a suffix byte outside printable ASCII).
 */
enum sb_result sb_dxil_op_name_parse(const char *name, size_t length, struct sb_dxil_op_name *out,
                                     struct sb_error *error);

/**
 * True when a call of `parsed` may carry `op`: the same class and an overload
 * of the op's own set (a class's set is the union of its opcodes').
 */
bool sb_dxil_op_accepts(const struct sb_dxil_op_info *op, const struct sb_dxil_op_name *parsed);

/**
 * The enum sb_dxil_stage bit of a DXIL shader kind (enum sb_dxil_shader_kind,
 * shaderbridge/dxbc_dxil.h: the program header's kind); SB_DXIL_STAGE_ALL for a
 * library (every op is allowed in one), 0 for an unknown kind.
 */
uint32_t sb_dxil_stage_of_shader_kind(uint32_t shader_kind);

/**
 * True when `op` may appear in a program of stage `stage` (one enum
 * sb_dxil_stage bit, or SB_DXIL_STAGE_ALL for a library) and shader model
 * `sm_major`.`sm_minor`: the row's minimum SM and stages. A `‡` row
 * (sm_vector_only) is 6.9 whatever hctdb's 6.0 says; the finer overload rules
 * of §3.6 (16-bit IsNaN & co need 6.9, 64-bit raw-buffer overloads 6.3) are the
 * validator's, which knows the overload.
 */
bool sb_dxil_op_available(const struct sb_dxil_op_info *op, uint32_t stage, uint32_t sm_major,
                          uint32_t sm_minor);

/** The doc's name of `value` in §3.4 enumeration `which`; NULL when it has none. */
const char *sb_dxil_enum_value_name(enum sb_dxil_enum which, uint32_t value);

/**
 * Writes a flag enumeration's `mask` as "Name|Name" (bits without a name as
 * one trailing 0x hex term; "0" for an empty mask) into `buffer` of `size`
 * bytes, NUL-terminated and truncated to fit; returns the length the full
 * text needs, as snprintf does. For a non-flag enum it writes the value's
 * name, or the number when it has none.
 */
size_t sb_dxil_enum_format(enum sb_dxil_enum which, uint32_t mask, char *buffer, size_t size);

#endif
