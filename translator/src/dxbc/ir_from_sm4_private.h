/* SPDX-License-Identifier: MIT */
/*
 * Private interface of the SM4/5 -> IR front end (ir_from_sm4*.c; translator/IR.md):
 * the state its files share — the sticky error, the function being filled, the
 * declaration records the signature merge reads — and the entry points of each file.
 */
#ifndef SB_TRANSLATOR_IR_FROM_SM4_PRIVATE_H
#define SB_TRANSLATOR_IR_FROM_SM4_PRIVATE_H

#include "ir/ir_private.h"
#include "translator/sm4.h"

/* ------------------------------------------------------------------------ */
/* SM4/5 front end (ir_from_sm4*.c)                                         */
/* ------------------------------------------------------------------------ */

/** One dcl_input / dcl_output as declared, before the signature merge. */
struct sb_ir_decl_io {
    uint32_t kind;            /**< enum sb_ir_signature_kind */
    uint32_t file;            /**< file of the signature element (INPUT for vicp, ...) */
    uint32_t register_index;  /**< 0 for special files */
    uint8_t mask;
    uint32_t system_value;
    uint32_t interpolation;
    uint32_t array_size;
    uint32_t min_precision;
    uint32_t stream;          /**< GS: the dcl_stream in force */
    uint64_t offset;          /**< byte offset of the (first) declaration, for errors */
};

/** A dcl_function_body, kept to check that its body exists. */
struct sb_ir_declared_body {
    uint32_t id;
    uint64_t offset;
    uint32_t instr;
};

/** What a function section is while lowering. */
enum sb_ir_section {
    SB_IR_SECTION_MAIN = 0,   /**< vs/ps/gs/ds/cs body, or hs before any phase (hs_decls) */
    SB_IR_SECTION_CONTROL_POINT = 1,
    SB_IR_SECTION_FORK = 2,
    SB_IR_SECTION_JOIN = 3,
    SB_IR_SECTION_SUBROUTINE = 4,
};

/** A function under construction. */
struct sb_ir_function_builder {
    uint32_t section;         /**< enum sb_ir_section */
    uint32_t id;              /**< label number; 0xFFFFFFFF for entry / phases */
    bool is_body;             /**< a `label fb#` class-linkage body */
    uint64_t offset;          /**< offset of the instruction that opened it */
    uint32_t instance_count;
    uint32_t temp_count;
    bool has_temps;           /**< dcl_temps seen in this function */
    uint32_t first;           /**< its instructions: pool[first .. first + count) */
    uint32_t count;
};

/** Slots per table of struct sb_ir_operand_forms: 1 << SB_IR_OPERAND_FORM_BITS. */
#define SB_IR_OPERAND_FORM_BITS 7u
#define SB_IR_OPERAND_FORM_SLOTS (1u << SB_IR_OPERAND_FORM_BITS)

/**
 * What the fused path made of each plain operand token it met (no extended token, 32-bit
 * immediate indices only), so that a token seen again, as most are (r0.xyzw, cb0[#].x,
 * ...), skips the decoding and shape checks: its IR operand with zero indices and
 * immediates, to be completed from the DWORDs after the token. Direct-mapped by a hash of
 * the token, one table for destinations and one for sources (a double's pair swizzle is
 * never kept). Valid for programs of one model (SM5.1 or not): the shape checks depend on
 * it. ir_from_sm4_fused.c keeps one per thread.
 */
struct sb_ir_operand_forms {
    /** The token each slot holds; UINT32_MAX (an extended token, never kept) for none. */
    uint32_t token[2][SB_IR_OPERAND_FORM_SLOTS];
    struct sb_ir_operand_form {
        struct sb_ir_operand operand; /**< index offsets and immediate lanes zero */
        uint8_t type;                 /**< SM4 operand type */
        uint8_t payload;              /**< DWORDs after the token: indices or lanes */
        bool immediate;               /**< the payload is immediate lanes */
    } form[2][SB_IR_OPERAND_FORM_SLOTS];
};

/** Slots of struct sb_ir_opcode_forms: 1 << SB_IR_OPCODE_FORM_BITS. */
#define SB_IR_OPCODE_FORM_BITS 7u
#define SB_IR_OPCODE_FORM_SLOTS (1u << SB_IR_OPCODE_FORM_BITS)
/** The bits of an opcode token its form depends on: all but the length field [30:24],
 *  which differs between instructions of one form. */
#define SB_IR_OPCODE_FORM_KEY 0x80ffffffu

/** What the fused path makes of an opcode token (sb_ir_opcode_form_prepare()). */
struct sb_ir_opcode_form {
    /** The IR instruction token 0 describes: op and controls; every other field blank. */
    struct sb_ir_instruction head;
    const struct sb_ir_op_info *info; /**< the IR op's row */
    uint8_t dst_count, src_count;     /**< SM4 operands (table row) */
    /** Lowered from the tokens (sb_ir_lower_tokens()), given a short-form length inside
     *  the program; else decoded and lowered the general way. */
    bool direct;
};

/**
 * The fused path's opcode forms, direct-mapped by a hash of the token's
 * SB_IR_OPCODE_FORM_KEY bits: programs repeat a few hundred opcode tokens, and looking
 * up the opcode table, the IR op and its operand counts, and decoding the controls,
 * cost more than the lookup. A form depends on the token alone (ir_from_sm4_fused.c
 * keeps one table per thread).
 */
struct sb_ir_opcode_forms {
    /** The key each slot holds; UINT32_MAX (never a key: bits [30:24] are cleared) for none. */
    uint32_t key[SB_IR_OPCODE_FORM_SLOTS];
    struct sb_ir_opcode_form form[SB_IR_OPCODE_FORM_SLOTS];
};

/** State of one sb_ir_from_sm4() call. */
struct sb_ir_sm4_context {
    struct sb_arena *arena;
    struct sb_ir_program *program;
    const struct sb_sm4_program *sm4;
    const struct sb_dxbc *container;
    bool is_sm51;
    bool failed;              /**< sticky */
    struct sb_error error;    /**< the first failure */

    const struct sb_sm4_instruction *inst; /**< the instruction being lowered */

    /* Functions are contiguous runs of the token stream, so all instructions
     * and operands come from two pools sized by one pass over the program. */
    struct sb_ir_instruction *pool;
    uint32_t pool_used, pool_size;
    struct sb_ir_operand *operands;
    uint32_t operands_used, operands_size;

    struct sb_ir_vec functions;  /**< struct sb_ir_function_builder */
    uint32_t current;            /**< index of the function being filled */
    /** &functions.data[current]: set with `current` (functions grow only then). */
    struct sb_ir_function_builder *current_fn;
    bool seen_phase;             /**< an hs_* phase marker was seen */
    bool seen_label;             /**< a label was seen: only subroutines follow */

    struct sb_ir_vec decl_io;    /**< struct sb_ir_decl_io */
    struct sb_ir_vec resources;  /**< struct sb_ir_resource */
    struct sb_ir_vec group_shared;
    struct sb_ir_vec indexable_temps;
    struct sb_ir_vec index_ranges;
    struct sb_ir_vec interfaces;
    struct sb_ir_vec function_tables;
    struct sb_ir_vec function_bodies; /**< struct sb_ir_declared_body */
    uint32_t max_temps;          /**< largest dcl_temps of any function */
    uint32_t current_stream;     /**< GS: last dcl_stream */
    uint32_t max_function_body;  /**< 1 + largest dcl_function_body id (0: none) */
    bool icb_seen;
    uint64_t icb_use_offset;     /**< first icb[] operand, checked at the end */
    uint32_t icb_use_instr;
    bool icb_used;
    bool uses_counters;          /**< an imm_atomic_alloc/consume was lowered */
    bool has_flow;               /**< a flow op sb_ir_check_flow() looks at was lowered */
    /** The fused path's operand forms, made for this program's model (the thread's,
     *  ir_from_sm4_fused.c); sb_ir_lower_tokens() needs them, the general path does not
     *  use them. */
    struct sb_ir_operand_forms *operand_forms;
};

/** Records the first failure at the current instruction; returns false. */
bool sb_ir_fail(struct sb_ir_sm4_context *ctx, enum sb_result code, const char *format, ...)
    SB_IR_PRINTF(3, 4) SB_COLD;

/** Records the first failure at a place that is not the current instruction: `offset`,
 *  `instr` (SB_ERROR_NO_INSTR for none) and the message as given (no instruction prefix);
 *  returns false. */
bool sb_ir_fail_at(struct sb_ir_sm4_context *ctx, uint64_t offset, uint32_t instr,
                   enum sb_result code, const char *format, ...) SB_IR_PRINTF(5, 6) SB_COLD;

/** Zeroed arena memory; OOM is recorded in the sticky error. */
void *sb_ir_alloc(struct sb_ir_sm4_context *ctx, size_t count, size_t size);

/** sb_ir_alloc() without the zeroing, for memory the caller sets in full at once. */
void *sb_ir_alloc_uninit(struct sb_ir_sm4_context *ctx, size_t count, size_t size);

/** Records the out-of-memory failure of an allocation; returns NULL. */
void *sb_ir_fail_oom(struct sb_ir_sm4_context *ctx);

/** sb_ir_vec_push with OOM recorded (inline for the same reason). */
static inline void *sb_ir_push(struct sb_ir_sm4_context *ctx, struct sb_ir_vec *vec, size_t size)
{
    if (ctx->failed)
        return NULL;
    void *p = sb_ir_vec_push(ctx->arena, vec, size);
    return p ? p : sb_ir_fail_oom(ctx);
}

/** The function being filled (inline: asked for every instruction and temp operand). */
static inline struct sb_ir_function_builder *sb_ir_current_function(struct sb_ir_sm4_context *ctx)
{
    return ctx->current_fn;
}

/** Lowers a declaration (ir_from_sm4_decl.c). */
/** Clears `ctx`, checks `program`'s model and creates the IR program (false with the
 *  failure in ctx->error); `have_out` is whether the caller passed an out pointer. */
bool sb_ir_sm4_start(struct sb_ir_sm4_context *ctx, const struct sb_sm4_program *program,
                     const struct sb_dxbc *container, bool have_out);

/** Allocates the instruction and operand pools at these sizes and opens the entry
 *  function; false on failure. */
bool sb_ir_sm4_open(struct sb_ir_sm4_context *ctx, uint32_t instructions, uint32_t operands);

/** Lowers one decoded instruction or declaration (ctx->inst must be `inst`). */
bool sb_ir_sm4_lower_one(struct sb_ir_sm4_context *ctx, const struct sb_sm4_instruction *inst);

/** The checks and tables after the last instruction: functions, signature, flow. */
bool sb_ir_sm4_finish(struct sb_ir_sm4_context *ctx);

/** What the fused decode->IR path (ir_from_sm4_fused.c) made of an instruction or operand
 *  read straight from the tokens. */
enum sb_ir_fast {
    SB_IR_FAST_DONE = 0,      /**< lowered */
    SB_IR_FAST_DECLINED = 1,  /**< not a form it takes: decode and lower it the general way */
    SB_IR_FAST_FAILED = 2,    /**< ctx->failed: the general path must redo the whole program */
};

/**
 * Fills `form` for opcode token `token` (ir_from_sm4_ops.c): direct when the opcode is one
 * the decoder's table defines, neither a declaration nor fcall nor a long form, and an
 * ordinary instruction (H_PLAIN row) whose operand counts fit its IR op.
 */
void sb_ir_opcode_form_prepare(uint32_t token, struct sb_ir_opcode_form *form);

/**
 * Lowers the instruction at DWORD `start` (of length `length` from its short-form length
 * field, inside the program; its opcode token's form `form` is direct) straight from the
 * little-endian DWORDs at `data`, when its operands index with 32-bit immediates,
 * optionally plus one register (sb_ir_take_token_operands()); ctx->inst carries its
 * offset, index and opcode. Nothing is kept when it declines.
 */
enum sb_ir_fast sb_ir_lower_tokens(struct sb_ir_sm4_context *ctx,
                                   const struct sb_ir_opcode_form *form, const uint8_t *data,
                                   uint32_t start, uint32_t length);

/** The `count` operands of sb_ir_lower_tokens() (`dst_count` destinations first) from
 *  DWORD `pos` on (window ends at `end`) into `out`, each checked for its slot of `info`
 *  (IR op `op`): the forms the decoder reads without nesting deeper than one relative
 *  register, with or without extended operand tokens. */
enum sb_ir_fast sb_ir_take_token_operands(struct sb_ir_sm4_context *ctx,
                                          const struct sb_ir_op_info *info, uint32_t op,
                                          uint32_t dst_count, uint32_t count,
                                          const uint8_t *data, uint32_t pos, uint32_t end,
                                          struct sb_ir_operand *out);

bool sb_ir_lower_declaration(struct sb_ir_sm4_context *ctx, const struct sb_sm4_instruction *inst);

/**
 * The IR op an SM4 instruction opcode lowers to and how many of its SM4
 * sources become IR sources (others become side fields: the case literal,
 * the call label, the stream); false for opcodes that are not instructions
 * the IR takes (declarations, labels, phase markers, reserved numbers).
 * For the table walk in tests/ir.
 */
bool sb_ir_sm4_op_mapping(uint32_t sm4_opcode, uint32_t sm4_src_count, uint32_t *ir_op,
                          uint32_t *ir_src_count);

/** Lowers an ordinary instruction into the current function (ir_from_sm4_ops.c). */
bool sb_ir_lower_instruction(struct sb_ir_sm4_context *ctx, const struct sb_sm4_instruction *inst);

/**
 * Converts an SM4 operand (ir_from_sm4_operand.c). `is_dst` selects mask vs
 * swizzle; `pairs` converts a source swizzle to double-pair selection. Every
 * field of `out` is set (it need not be zeroed) unless the call fails.
 */
bool sb_ir_convert_operand(struct sb_ir_sm4_context *ctx, const struct sb_sm4_operand *in,
                           bool is_dst, bool pairs, struct sb_ir_operand *out);

/**
 * Converts the operands of an ordinary instruction for op `op` (row `info`):
 * its dst_count destinations, then `count - dst_count` sources starting at SM4
 * operand `first_src`, into out[0 .. count), checking each against the slot's
 * kind (ir_from_sm4_operand.c). False at the first failure (recorded).
 */
bool sb_ir_take_operands(struct sb_ir_sm4_context *ctx, const struct sb_sm4_instruction *inst,
                         const struct sb_ir_op_info *info, uint32_t op, uint32_t first_src,
                         uint32_t count, struct sb_ir_operand *out);

/** The IR file of an SM4 operand type; SB_IR_FILE_COUNT when it has none. */
uint32_t sb_ir_file_from_sm4(uint32_t sm4_type);

/** Whether an SM4 operand type can be read as a value / written as a value. */
bool sb_ir_sm4_type_readable(uint32_t sm4_type);
bool sb_ir_sm4_type_writable(uint32_t sm4_type);

/** The declared resource of a class and id (SM5.1: range id), or NULL. */
const struct sb_ir_resource *sb_ir_find_resource(const struct sb_ir_sm4_context *ctx,
                                                 uint32_t resource_class, uint32_t id);

/** Builds program->signature from the declarations and the container (ir_from_sm4_signature.c). */
bool sb_ir_build_signature(struct sb_ir_sm4_context *ctx);

/** Fills resource names from the container's RDEF (ir_from_sm4_signature.c). */
void sb_ir_name_resources(struct sb_ir_sm4_context *ctx);

/** Records the container's facts in the program: container_flags (SFI0) and, per named
 *  CBV, its RDEF variables (ir_from_sm4_signature.c, through ir_from_sm4_container.c);
 *  false on OOM (recorded). */
bool sb_ir_record_container(struct sb_ir_sm4_context *ctx);

/** Checks structured control flow and resolves call targets (ir_from_sm4_flow.c). */
/** Is `op` one sb_ir_check_flow() checks or resolves (structured flow, calls)? RET,
 *  RETC and DISCARD, between them in the enum, are not. */
static inline bool sb_ir_is_checked_flow(uint32_t op)
{
    return (op >= SB_IR_OP_IF && op <= SB_IR_OP_CONTINUEC) ||
           (op >= SB_IR_OP_CALL && op <= SB_IR_OP_INTERFACE_CALL);
}

bool sb_ir_check_flow(struct sb_ir_sm4_context *ctx);

#endif
