/* SPDX-License-Identifier: MIT */
/*
 * The LLVM 3.7 bitcode reader for DXIL (../shared/docs/dxil.md §1-§2, §4):
 * project-internal (never installed, not part of libshaderbridge's exported
 * interface); the DXIL front end, reflection and the CLI include it as
 * "reflect/bitcode.h".
 *
 * sb_bc_read_dxil_part() checks a DXIL/ILDB program header and reads the
 * bitcode behind it into one `struct sb_bc_module`; sb_bc_read() reads bare
 * bitcode. The module owns every array and string it points to (one arena),
 * is released with sb_bc_module_destroy(), and borrows nothing from the input.
 *
 * Shape of the result: arrays beside their counts, everything else referred
 * to by index, never by pointer, so that no structure an input builds is
 * walked recursively:
 *   - types by type id (0-based, TYPE_BLOCK record order, §2.8);
 *   - values by absolute value id (§2.9): module values (globals, functions,
 *     module constants) in `values`, a function's own values (arguments,
 *     its constants, instruction results) in that function's `values`,
 *     numbered on after the module's; sb_bc_value_get() looks up either;
 *   - basic blocks by index inside their function; metadata by metadata id
 *     (module metadata first, then a function's own, §2.13).
 * Types may refer to themselves through pointers (never by value: the reader
 * refuses that) and metadata nodes may form cycles, so a user that follows
 * references must walk iteratively or keep a visited set.
 * Instruction operands are absolute value ids: the relative encoding and
 * forward references of the file are resolved by the reader (§2.10).
 */
#ifndef SB_REFLECT_BITCODE_H
#define SB_REFLECT_BITCODE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "shaderbridge/result.h"

/** "No id": a void instruction's value id and type, an absent initializer, a null metadata operand. */
#define SB_BC_NONE UINT32_MAX

/* ------------------------------------------------------------------------ */
/* Types (TYPE_BLOCK_ID_NEW, dxil.md §2.8)                                  */
/* ------------------------------------------------------------------------ */

enum sb_bc_type_kind {
    SB_BC_TYPE_VOID,
    SB_BC_TYPE_HALF,
    SB_BC_TYPE_FLOAT,
    SB_BC_TYPE_DOUBLE,
    SB_BC_TYPE_LABEL,
    SB_BC_TYPE_METADATA,
    SB_BC_TYPE_INTEGER,  /**< `width` bits */
    SB_BC_TYPE_POINTER,  /**< to `element`, in `address_space` */
    SB_BC_TYPE_ARRAY,    /**< `count` x `element` */
    SB_BC_TYPE_VECTOR,   /**< `count` x `element` */
    SB_BC_TYPE_STRUCT,   /**< `members` (named when `name` is set; opaque when `opaque`) */
    SB_BC_TYPE_FUNCTION, /**< returns `element`, takes `members` */
    SB_BC_TYPE_KIND_MAX_ENUM = 0x7fffffff
};

struct sb_bc_type {
    enum sb_bc_type_kind kind;
    uint32_t width;         /**< INTEGER: bit width */
    uint32_t element;       /**< POINTER pointee, ARRAY/VECTOR element, FUNCTION return type */
    uint64_t count;         /**< ARRAY/VECTOR: number of elements */
    uint32_t address_space; /**< POINTER */
    bool packed;            /**< STRUCT */
    bool opaque;            /**< STRUCT declared by an OPAQUE record (no members) */
    bool vararg;            /**< FUNCTION */
    uint32_t member_count;  /**< STRUCT members, FUNCTION parameters */
    const uint32_t *members; /**< their type ids */
    const char *name;       /**< identified struct's name (STRUCT_NAME), else NULL */
};

/* ------------------------------------------------------------------------ */
/* Values (dxil.md §2.9)                                                    */
/* ------------------------------------------------------------------------ */

enum sb_bc_value_kind {
    SB_BC_VALUE_GLOBAL,      /**< index into sb_bc_module::globals */
    SB_BC_VALUE_FUNCTION,    /**< index into sb_bc_module::functions */
    SB_BC_VALUE_CONSTANT,    /**< index into the module's or the function's `constants` */
    SB_BC_VALUE_ARGUMENT,    /**< index = argument number */
    SB_BC_VALUE_INSTRUCTION, /**< index into the function's `instructions` */
    SB_BC_VALUE_KIND_MAX_ENUM = 0x7fffffff
};

struct sb_bc_value {
    enum sb_bc_value_kind kind;
    uint32_t type;    /**< type id of the value (a pointer type for globals and functions) */
    uint32_t index;   /**< see enum sb_bc_value_kind */
    const char *name; /**< from VALUE_SYMTAB, or NULL */
};

/* ------------------------------------------------------------------------ */
/* Constants (CONSTANTS_BLOCK, dxil.md §2.11)                               */
/* ------------------------------------------------------------------------ */

enum sb_bc_constant_kind {
    SB_BC_CONST_NULL,      /**< zero / zeroinitializer */
    SB_BC_CONST_UNDEF,
    SB_BC_CONST_INTEGER,   /**< `bits`: the value truncated to the type's width */
    SB_BC_CONST_FLOAT,     /**< `bits`: raw IEEE bits (16, 32 or 64 of them) */
    SB_BC_CONST_AGGREGATE, /**< `elements`: value ids of the members */
    SB_BC_CONST_DATA,      /**< `elements`: raw element bits (DATA, STRING, CSTRING) */
    SB_BC_CONST_CAST,      /**< `op` cast opcode of `elements[0]` (source type `aux_type`) */
    SB_BC_CONST_GEP,       /**< `elements`: base then indices (value ids); `flags` 1 = inbounds;
                                `aux_type` the source element type or SB_BC_NONE */
    SB_BC_CONST_OTHER,     /**< a record kept raw (wide integer, binop, cmp, select, ...):
                                `op` = record code, `elements` = the raw operands */
    SB_BC_CONST_KIND_MAX_ENUM = 0x7fffffff
};

struct sb_bc_constant {
    enum sb_bc_constant_kind kind;
    uint32_t type;     /**< type id */
    uint64_t bits;     /**< INTEGER / FLOAT payload */
    uint32_t op;       /**< CAST opcode; OTHER: the record code */
    uint32_t flags;    /**< GEP: 1 = inbounds */
    uint32_t aux_type; /**< CAST source type, GEP source element type, else SB_BC_NONE */
    uint32_t element_count;
    const uint64_t *elements; /**< see the kinds */
};

/* ------------------------------------------------------------------------ */
/* Instructions (FUNCTION_BLOCK, dxil.md §2.12)                             */
/* ------------------------------------------------------------------------ */

/** The FUNCTION_BLOCK record code of the instruction (LLVM 3.7 numbering). */
enum sb_bc_opcode {
    SB_BC_OP_BINOP = 2,
    SB_BC_OP_CAST = 3,
    SB_BC_OP_EXTRACTELT = 6,
    SB_BC_OP_INSERTELT = 7,
    SB_BC_OP_SHUFFLEVEC = 8,
    SB_BC_OP_RET = 10,
    SB_BC_OP_BR = 11,
    SB_BC_OP_SWITCH = 12,
    SB_BC_OP_UNREACHABLE = 15,
    SB_BC_OP_PHI = 16,
    SB_BC_OP_ALLOCA = 19,
    SB_BC_OP_LOAD = 20,
    SB_BC_OP_EXTRACTVAL = 26,
    SB_BC_OP_INSERTVAL = 27,
    SB_BC_OP_CMP2 = 28,
    SB_BC_OP_VSELECT = 29,
    SB_BC_OP_CALL = 34,
    SB_BC_OP_ATOMICRMW = 38,
    SB_BC_OP_GEP = 43,
    SB_BC_OP_STORE = 44,
    SB_BC_OP_CMPXCHG = 46,
    SB_BC_OPCODE_MAX_ENUM = 0x7fffffff
};

/**
 * One instruction. `operands` are absolute value ids in the order of the
 * record (dxil.md §2.12), except:
 *   - CALL: operands[0] the callee, then the arguments; `aux_type` the function type;
 *   - BR: no value operands unless conditional (operands[0] = condition);
 *     `blocks` = {true, false} or {target};
 *   - SWITCH: operands[0] the condition, then one case value per case;
 *     `blocks` = {default, case 0, case 1, ...};
 *   - PHI: one incoming value per incoming block in `blocks`;
 *   - ALLOCA: operands[0] the size; `aux_type` the allocated type;
 *   - GEP: base then indices; `aux_type` the source element type;
 *   - EXTRACTVAL / INSERTVAL: the literal indices are in `indices`;
 *   - SELECT: {condition, true value, false value} (the record's order is true, false, cond).
 */
struct sb_bc_instruction {
    enum sb_bc_opcode opcode;
    uint32_t type;     /**< result type id; SB_BC_NONE when the instruction has no value */
    uint32_t value;    /**< its value id; SB_BC_NONE when void */
    uint32_t op;       /**< BINOP/CAST opcode, CMP2 predicate, ATOMICRMW operation */
    uint32_t flags;    /**< BINOP nuw/nsw/exact or fast-math flags, CMP2 fast-math, GEP inbounds,
                            LOAD/STORE/ATOMICRMW/CMPXCHG volatile (bit 0), CALL ccinfo, ALLOCA alignrec */
    uint32_t align;    /**< LOAD/STORE: log2(alignment) + 1, 0 unspecified; ALLOCA: the same from alignrec */
    uint32_t ordering; /**< ATOMICRMW/CMPXCHG success ordering | synch scope << 8 |
                            CMPXCHG failure ordering << 16 | weak << 24 */
    uint32_t aux_type; /**< see above; else SB_BC_NONE */
    uint32_t paramattr; /**< CALL: 1-based attribute list, 0 none */
    uint32_t operand_count;
    const uint32_t *operands;
    uint32_t block_count;
    const uint32_t *blocks;
    uint32_t index_count;
    const uint32_t *indices;
    uint64_t offset;   /**< byte offset of the record's first bit (base offset included), for
                            diagnostics; the bit within that byte is not kept */
};

struct sb_bc_basic_block {
    uint32_t first_instruction; /**< index into the function's `instructions` */
    uint32_t instruction_count; /**< terminator included */
    const char *name;           /**< from the function's VALUE_SYMTAB, or NULL */
};

/** One METADATA_ATTACHMENT entry (kind ids as in sb_bc_module::metadata_kinds). */
struct sb_bc_attachment {
    uint32_t instruction; /**< instruction index in the function; SB_BC_NONE = the function itself */
    uint32_t kind;
    uint32_t node;        /**< metadata id */
};

/* ------------------------------------------------------------------------ */
/* Module records                                                           */
/* ------------------------------------------------------------------------ */

struct sb_bc_global {
    uint32_t value_type;    /**< type of the variable (not the pointer) */
    uint32_t address_space;
    bool constant;
    uint32_t initializer;   /**< value id, SB_BC_NONE for a declaration */
    uint32_t linkage;       /**< LLVM 3.7 linkage code (0 external, 3 internal, ...) */
    uint32_t align;         /**< log2(alignment) + 1, 0 unspecified */
    uint32_t value;         /**< its value id */
    const char *name;
};

struct sb_bc_function {
    uint32_t type;          /**< function type id */
    uint32_t value;         /**< its value id */
    bool is_declaration;    /**< isproto: no body */
    uint32_t linkage;
    uint32_t paramattr;     /**< 1-based attribute list, 0 none */
    uint32_t calling_convention;
    const char *name;
    /* A definition's body (all zero for declarations): */
    uint32_t block_count;
    struct sb_bc_basic_block *blocks;
    uint32_t instruction_count;
    struct sb_bc_instruction *instructions;
    uint32_t first_value;   /**< value id of the first argument (= module value count) */
    uint32_t value_count;   /**< its own values: arguments, constants, instruction results */
    struct sb_bc_value *values; /**< values[i] is value id first_value + i */
    uint32_t constant_count;
    struct sb_bc_constant *constants;
    uint32_t metadata_count;  /**< its own metadata, ids from sb_bc_module::metadata_count on */
    struct sb_bc_metadata *metadata;
    uint32_t attachment_count;
    struct sb_bc_attachment *attachments;
};

enum sb_bc_attribute_kind {
    SB_BC_ATTR_ENUM = 0,    /**< `key` */
    SB_BC_ATTR_INT = 1,     /**< `key` = `int_value` */
    SB_BC_ATTR_STRING = 3,  /**< `string_key` */
    SB_BC_ATTR_STRING_VALUE = 4, /**< `string_key` = `string_value` */
    SB_BC_ATTR_KIND_MAX_ENUM = 0x7fffffff
};

struct sb_bc_attribute {
    enum sb_bc_attribute_kind kind;
    uint32_t key;            /**< LLVM attribute kind (18 nounwind, 20 readnone, ...) */
    uint64_t int_value;
    const char *string_key;
    const char *string_value;
};

/** PARAMATTR_GRP_CODE_ENTRY (dxil.md §2.7). */
struct sb_bc_attribute_group {
    uint32_t id;
    uint32_t index; /**< 0xFFFFFFFF function, 0 return value, n parameter n */
    uint32_t attribute_count;
    struct sb_bc_attribute *attributes;
};

/** PARAMATTR_CODE_ENTRY: one attribute list (1-based in FUNCTION and CALL records). */
struct sb_bc_attribute_list {
    uint32_t group_count;
    const uint32_t *groups; /**< group ids */
};

/* ------------------------------------------------------------------------ */
/* Metadata (dxil.md §2.13)                                                 */
/* ------------------------------------------------------------------------ */

enum sb_bc_metadata_kind {
    SB_BC_MD_STRING,
    SB_BC_MD_VALUE,         /**< `type`, `value` */
    SB_BC_MD_NODE,          /**< `operands`: metadata ids, SB_BC_NONE = null */
    SB_BC_MD_DISTINCT_NODE,
    SB_BC_MD_OTHER,         /**< a debug-info record (DILocation, ...): `code`, raw `operands` */
    SB_BC_MD_KIND_MAX_ENUM = 0x7fffffff
};

struct sb_bc_metadata {
    enum sb_bc_metadata_kind kind;
    uint32_t code;          /**< the record code */
    const char *string;     /**< STRING: bytes, NUL-terminated (may hold NULs: see length) */
    uint32_t length;        /**< STRING: byte count */
    uint32_t type;          /**< VALUE */
    uint32_t value;         /**< VALUE: absolute value id */
    uint32_t operand_count;
    const uint32_t *operands;
};

struct sb_bc_named_metadata {
    const char *name;
    uint32_t operand_count;
    uint32_t name_length; /**< of `name`, which may hold a NUL before its end */
    const uint32_t *operands; /**< metadata ids */
};

struct sb_bc_metadata_kind_name {
    uint32_t id;
    const char *name;
};

/* ------------------------------------------------------------------------ */
/* The module                                                               */
/* ------------------------------------------------------------------------ */

struct sb_arena;

struct sb_bc_module {
    struct sb_arena *arena;   /**< owns everything below */
    uint32_t version;         /**< MODULE_CODE_VERSION (1: relative operands) */
    const char *triple;       /**< "" when absent */
    const char *datalayout;
    uint32_t type_count;
    struct sb_bc_type *types;
    uint32_t global_count;
    struct sb_bc_global *globals;
    uint32_t function_count;  /**< declarations and definitions, in record order */
    struct sb_bc_function *functions;
    uint32_t value_count;     /**< module values: globals, functions, module constants */
    struct sb_bc_value *values;
    uint32_t constant_count;
    struct sb_bc_constant *constants;
    uint32_t metadata_count;
    struct sb_bc_metadata *metadata;
    uint32_t named_metadata_count;
    struct sb_bc_named_metadata *named_metadata;
    uint32_t metadata_kind_count;
    struct sb_bc_metadata_kind_name *metadata_kinds;
    uint32_t attribute_group_count;
    struct sb_bc_attribute_group *attribute_groups;
    uint32_t attribute_list_count;
    struct sb_bc_attribute_list *attribute_lists;
    /* DXIL program header (sb_bc_read_dxil_part only; zero for sb_bc_read): */
    uint32_t program_version; /**< (kind << 16) | (major << 4) | minor */
    uint32_t dxil_version;    /**< (major << 8) | minor */
};

/** Flags of sb_bc_read_ex() and sb_bc_read_dxil_part_ex(). */
enum sb_bc_read_flags {
    /**
     * Leave out what no translation reads: the metadata kind names
     * (`metadata_kinds` stays empty; attachments keep their kind ids) and the
     * TRIPLE and DATALAYOUT strings (both stay ""). Their records are passed
     * over without being decoded or checked, which saves a DXIL module's ~30
     * kind names and ~80-character data layout, each stored one VBR6 operand
     * per character. The disassembler and reflection read everything.
     */
    SB_BC_READ_SKIP_KINDS_AND_LAYOUT = 1u << 0,
    /**
     * Leave out what no translation reads and only the disassembler prints: the
     * PARAMATTR_GROUP and PARAMATTR blocks (`attribute_groups` and `attribute_lists`
     * stay empty; FUNCTION and CALL records keep their 1-based `paramattr` numbers)
     * and each body's METADATA_ATTACHMENT block (`attachments` stay empty). The blocks
     * are jumped over by their length words, so their contents are neither decoded nor
     * checked.
     */
    SB_BC_READ_SKIP_ATTRIBUTES_AND_ATTACHMENTS = 1u << 1,
};

/**
 * Reads bare LLVM bitcode (starting with 'BC' 0xC0DE, or the bitcode wrapper).
 * `base_offset` is added to every error offset, so a caller reading a part of
 * a file gets file offsets. On success *out owns a new module (release with
 * sb_bc_module_destroy); on failure *out is NULL and `error` (may be NULL)
 * says what, where (byte offset; the bit offset is in the message) and why.
 */
enum sb_result sb_bc_read(const uint8_t *bitcode, size_t size, uint64_t base_offset,
                          struct sb_bc_module **out, struct sb_error *error);

/** sb_bc_read() with `flags` (enum sb_bc_read_flags; 0 = sb_bc_read). */
enum sb_result sb_bc_read_ex(const uint8_t *bitcode, size_t size, uint64_t base_offset,
                             uint32_t flags, struct sb_bc_module **out, struct sb_error *error);

/**
 * Checks a DXIL or ILDB program header (dxil.md §1.1: 24 bytes, sizes,
 * 'DXIL' magic, bitcode offset and size inside the part) and reads the
 * bitcode behind it with sb_bc_read(). `part` is the part's data (after the
 * container's FourCC and size); `base_offset` as for sb_bc_read.
 */
enum sb_result sb_bc_read_dxil_part(const uint8_t *part, size_t size, uint64_t base_offset,
                                    struct sb_bc_module **out, struct sb_error *error);

/** sb_bc_read_dxil_part() with `flags` (enum sb_bc_read_flags; 0 = sb_bc_read_dxil_part). */
enum sb_result sb_bc_read_dxil_part_ex(const uint8_t *part, size_t size, uint64_t base_offset,
                                       uint32_t flags, struct sb_bc_module **out,
                                       struct sb_error *error);

/** Releases a module and everything it owns; NULL is a no-op. */
void sb_bc_module_destroy(struct sb_bc_module *module);

/**
 * The value with absolute id `id`: a module value, or (with `function` a
 * definition of `module`) one of the function's own. NULL when out of range.
 */
const struct sb_bc_value *sb_bc_value_get(const struct sb_bc_module *module,
                                          const struct sb_bc_function *function, uint32_t id);

/** The constant behind value id `id` (module or `function`'s), or NULL when it is not one. */
const struct sb_bc_constant *sb_bc_constant_get(const struct sb_bc_module *module,
                                                const struct sb_bc_function *function, uint32_t id);

/** Metadata id `id` (module or `function`'s own), or NULL when out of range. */
const struct sb_bc_metadata *sb_bc_metadata_get(const struct sb_bc_module *module,
                                                const struct sb_bc_function *function, uint32_t id);

/** The named metadata called `name`, or NULL. */
const struct sb_bc_named_metadata *sb_bc_named_metadata_find(const struct sb_bc_module *module,
                                                             const char *name);

/** The function an instruction calls (CALL whose callee is a function), or NULL. */
const struct sb_bc_function *sb_bc_callee(const struct sb_bc_module *module,
                                          const struct sb_bc_function *function,
                                          const struct sb_bc_instruction *call);

#endif
