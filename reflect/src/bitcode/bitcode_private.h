/* SPDX-License-Identifier: MIT */
/*
 * What the block readers of the bitcode reader share (below them: bitstream.h
 * and bitcode_common.c): the reader state, record and operand checks that
 * name the record and field in their errors, arena-grown arrays, the value
 * table of the module and of the function being read, and type lookups.
 */
#ifndef SB_BITCODE_PRIVATE_H
#define SB_BITCODE_PRIVATE_H

#include "bitstream.h"
#include "reflect/bitcode.h"

/* Block ids (LLVM 3.7, dxil.md §2.4). */
enum {
    BC_BLOCK_MODULE = 8,
    BC_BLOCK_PARAMATTR = 9,
    BC_BLOCK_PARAMATTR_GROUP = 10,
    BC_BLOCK_CONSTANTS = 11,
    BC_BLOCK_FUNCTION = 12,
    BC_BLOCK_VALUE_SYMTAB = 14,
    BC_BLOCK_METADATA = 15,
    BC_BLOCK_METADATA_ATTACHMENT = 16,
    BC_BLOCK_TYPE = 17,
};

/** A forward reference to check once its function is read: value `id` must exist
 *  and (unless `type` is SB_BC_NONE) have that type. */
struct bc_fixup {
    uint32_t id;
    uint32_t type;
    uint64_t bit; /**< the record that made it, for the error */
};

struct sb_bc_reader {
    struct sb_bitstream bs;
    struct sb_bc_module *module;
    struct sb_arena *arena;
    uint32_t flags;                  /**< enum sb_bc_read_flags */
    uint32_t type_capacity, global_capacity, function_capacity, value_capacity;
    uint32_t constant_capacity, metadata_capacity, named_capacity, kind_capacity;
    uint32_t group_capacity, list_capacity;
    uint32_t bodies_read;            /**< function definitions given a body so far */
    uint32_t next_body_scan;         /**< functions[] index where the next definition search starts */
    uint32_t *type_index;            /**< open-addressing hash of derived types (bc_index_types) */
    uint32_t type_index_size;        /**< its slot count, a power of two (0: not built) */
    /* The function whose block is being read (NULL at module level): */
    struct sb_bc_function *function;
    uint32_t fn_value_capacity, fn_instruction_capacity, fn_constant_capacity;
    uint32_t fn_metadata_capacity, fn_attachment_capacity;
    struct bc_fixup *fixups;         /**< malloc'd, reused from function to function */
    uint32_t fixup_count, fixup_capacity;
    /** One past the largest metadata id the nodes and named nodes of the METADATA block
     *  being read name (0: none yet), so its end checks them with one comparison. */
    uint64_t md_top_reference;
};

/* ---- failures ---------------------------------------------------------- */

/** Fails at the current record's first bit with `code` and a message. Returns false. */
bool bc_fail(struct sb_bc_reader *r, enum sb_result code, const char *format, ...)
    __attribute__((format(printf, 3, 4))) SB_COLD;

/** True when the current record has at least `count` operands; else SB_ERROR_BC_BAD_RECORD. */
bool bc_need_ops(struct sb_bc_reader *r, uint32_t count, const char *record);

/* ---- memory ------------------------------------------------------------ */

/** bc_reserve's growth: a bigger arena array (doubling), or a failure. */
bool bc_reserve_grow(struct sb_bc_reader *r, void **array, uint32_t *capacity, uint32_t needed,
                     size_t size);

/** Makes room for `needed` items in an arena array of `*capacity`. Inline: every
 *  record that adds an item asks, and all but a few per table find room. */
static inline bool bc_reserve(struct sb_bc_reader *r, void **array, uint32_t *capacity,
                              uint32_t needed, size_t size)
{
    return needed <= *capacity || bc_reserve_grow(r, array, capacity, needed, size);
}

/** Room for the items the rest of the current block may add to a table of `count`,
 *  guessed at one per `bits_per_item` of the block and at most 65,536 (a length no
 *  records fill reserves little): one reservation per block instead of doubling from
 *  8, which copied each table three or four times. */
static inline bool bc_reserve_block(struct sb_bc_reader *r, void **array, uint32_t *capacity,
                                    uint32_t count, uint32_t bits_per_item, size_t size)
{
    uint64_t guess = sb_bs_bits_left(&r->bs) / bits_per_item + 8;
    return bc_reserve(r, array, capacity, count + (uint32_t)(guess < 65536 ? guess : 65536), size);
}

/** Copies `count` 32-bit-checked operands from `first` into an arena array (NULL for 0). */
uint32_t *bc_copy_ops32(struct sb_bc_reader *r, uint32_t first, uint32_t count, const char *what);

/** Operands [first, first + count) as a NUL-terminated arena string (each must be a byte). */
char *bc_ops_string(struct sb_bc_reader *r, uint32_t first, uint32_t count, const char *what);

/* ---- types ------------------------------------------------------------- */

/** True when `id` is a type id; else SB_ERROR_BC_BAD_TYPE naming `what`. */
bool bc_check_type(struct sb_bc_reader *r, uint64_t id, const char *what);

/**
 * Indexes the type table once it is complete (bitcode_types.c calls it), so the
 * lookups below cost a hash probe: a module's globals, GEPs and allocas each look
 * one up, and a linear search per lookup would let a crafted file take quadratic time.
 */
bool bc_index_types(struct sb_bc_reader *r);

/** The pointer type to `pointee` in `address_space` (it must be in the table), or SB_BC_NONE. */
uint32_t bc_find_pointer(const struct sb_bc_reader *r, uint32_t pointee, uint32_t address_space);

/** The vector type of `count` x `element`, or SB_BC_NONE. */
uint32_t bc_find_vector(const struct sb_bc_reader *r, uint32_t element, uint64_t count);

/** The integer type of `width` bits, or SB_BC_NONE. */
uint32_t bc_find_integer(const struct sb_bc_reader *r, uint32_t width);

/** The literal (unnamed) struct {a, b}, or SB_BC_NONE. */
uint32_t bc_find_pair_struct(const struct sb_bc_reader *r, uint32_t a, uint32_t b);

/* ---- values ------------------------------------------------------------ */

/** Values defined so far: the module's plus the current function's. */
static inline uint32_t bc_value_count(const struct sb_bc_reader *r)
{
    return r->module->value_count + (r->function ? r->function->value_count : 0);
}

/** The type of an existing value id (SB_BC_NONE when it does not exist yet). */
uint32_t bc_value_type(const struct sb_bc_reader *r, uint32_t id);

/** Appends a value to the current function's list, or the module's at module level. */
bool bc_push_value(struct sb_bc_reader *r, enum sb_bc_value_kind kind, uint32_t type,
                   uint32_t index);

/** Remembers a forward reference to check when the function ends. */
bool bc_add_fixup(struct sb_bc_reader *r, uint32_t id, uint32_t type);

/* ---- the block readers (each called on SB_BS_ENTER of its block) -------- */

/** PARAMATTR_GROUP_BLOCK or PARAMATTR_BLOCK (bitcode_attributes.c). */
bool bc_read_attribute_block(struct sb_bc_reader *r);

/** TYPE_BLOCK_ID_NEW (bitcode_types.c). */
bool bc_read_type_block(struct sb_bc_reader *r);

/** CONSTANTS_BLOCK, module level or in the current function (bitcode_constants.c). */
bool bc_read_constants_block(struct sb_bc_reader *r);

/** METADATA_BLOCK, module level or in the current function (bitcode_metadata.c). */
bool bc_read_metadata_block(struct sb_bc_reader *r);

/** METADATA_ATTACHMENT of the current function (bitcode_metadata.c). */
bool bc_read_attachment_block(struct sb_bc_reader *r);

/** VALUE_SYMTAB, module level or in the current function (bitcode_symtab.c). */
bool bc_read_symtab_block(struct sb_bc_reader *r);

/**
 * Decodes the current FUNCTION_BLOCK record as an instruction of the current
 * function, which has `block_count` basic blocks (bitcode_instructions.c).
 */
bool bc_decode_instruction(struct sb_bc_reader *r, struct sb_bc_instruction *inst,
                           uint32_t block_count);

/** FUNCTION_BLOCK: the body of the next function definition (bitcode_function.c). */
bool bc_read_function_block(struct sb_bc_reader *r);

/** Skips a block the reader does not need, after its SB_BS_ENTER. */
bool bc_skip_block(struct sb_bc_reader *r);

/**
 * The next record of a block whose sub-blocks the caller does not read (they
 * are skipped): SB_BS_RECORD, SB_BS_END when the block ends, else SB_BS_ERROR.
 */
enum sb_bs_entry bc_next_record(struct sb_bc_reader *r);

#endif
