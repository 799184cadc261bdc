/* SPDX-License-Identifier: MIT */
/*
 * Private interface of the SM4/5 decoder and disassembler
 * (../shared/docs/sm4-tokens.md): the opcode table, the bounded token reader with a
 * sticky error, and the text buffer and print helpers the disassembler
 * files share.
 */
#ifndef SB_TRANSLATOR_SM4_PRIVATE_H
#define SB_TRANSLATOR_SM4_PRIVATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "translator/sm4.h"
#include "arena.h"
#include "error.h"

#if defined(__GNUC__)
#define SB_SM4_PRINTF(f, a) __attribute__((format(printf, f, a)))
#define SB_SM4_ALWAYS_INLINE __attribute__((always_inline))
#define SB_SM4_NOINLINE __attribute__((noinline))
#else
#define SB_SM4_PRINTF(f, a)
#define SB_SM4_ALWAYS_INLINE
#define SB_SM4_NOINLINE
#endif

/* ------------------------------------------------------------------------ */
/* Opcode table (sm4_opcodes.c)                                             */
/* ------------------------------------------------------------------------ */

/** Row flags. */
enum {
    SB_SM4_OPF_DECL = 1u << 0,     /**< a declaration: payload decoded per opcode (§2.4) */
    SB_SM4_OPF_TEST = 1u << 1,     /**< bit 18 selects _z / _nz */
    SB_SM4_OPF_INDENT = 1u << 2,   /**< opens a nesting level after its line */
    SB_SM4_OPF_DEDENT = 1u << 3,   /**< closes a nesting level before its line */
    SB_SM4_OPF_ELSE = 1u << 4,     /**< closes before and reopens after */
    SB_SM4_OPF_RESINFO = 1u << 5,  /**< return type in bits [12:11] */
    SB_SM4_OPF_SAMPLEINFO = 1u << 6, /**< return type in bit 11 */
    SB_SM4_OPF_SYNC = 1u << 7,     /**< sync flags in bits [14:11] */
    SB_SM4_OPF_FCALL = 1u << 8,    /**< a call-site DWORD precedes the operand */
    SB_SM4_OPF_LONG = 1u << 9,     /**< bit 31 may announce a length DWORD (§2.1) */
    SB_SM4_OPF_LEVEL0 = 1u << 10,  /**< printed at nesting level 0 (HS phase markers) */
};

/** One row per opcode number: what the decoder reads and how fxc prints it. */
struct sb_sm4_opcode_info {
    const char *name;      /**< fxc base mnemonic; NULL for reserved numbers */
    uint8_t dst_count;     /**< destination operands (instructions) */
    uint8_t src_count;     /**< source operands (instructions) */
    /** Print class of each operand in token order (§3 letters): 'f' float, 'i' integer,
     *  'a' untyped, 'd' double; length dst_count + src_count. */
    const char *classes;
    uint32_t flags;        /**< SB_SM4_OPF_* */
};

/** The table itself, one row per opcode number (sm4_opcodes.c); read it through
 *  sb_sm4_opcode_info(). */
extern const struct sb_sm4_opcode_info sb_sm4_opcode_table[SB_SM4_OP_COUNT];

/** The row of `opcode`, or NULL when it is reserved, custom data or out of range.
 *  Inline: the decoder asks twice per instruction. */
static inline const struct sb_sm4_opcode_info *sb_sm4_opcode_info(uint32_t opcode)
{
    if (opcode >= SB_SM4_OP_COUNT || !sb_sm4_opcode_table[opcode].name)
        return NULL;
    return &sb_sm4_opcode_table[opcode];
}

/* ------------------------------------------------------------------------ */
/* Token reader (sm4_decode.c, sm4_operands.c)                              */
/* ------------------------------------------------------------------------ */

/** Per-decode state: the program's DWORDs, the owner arena and the sticky error. */
struct sb_sm4_reader {
    const uint8_t *data;      /**< the part data (any alignment) */
    uint32_t dword_count;     /**< DWORDs of the program (its length token) */
    uint64_t base_offset;     /**< added to every reported offset */
    struct sb_arena *arena;   /**< owns every decoded structure */
    uint32_t instr;           /**< index of the instruction being decoded */
    uint32_t instr_start;     /**< DWORD index of its opcode token */
    bool is_sm51;             /**< version 5.1 or later: SM5.1 operand forms */
    bool failed;              /**< sticky: set by the first failure */
    struct sb_error error;    /**< the first failure */
    /** NULL, or SB_SM4_MAX_OPERANDS operands a declaration's are decoded into and left in
     *  (instead of copies in the arena), for a caller that is done with each instruction
     *  before it decodes the next (the fused path, ir_from_sm4_fused.c). */
    struct sb_sm4_operand *scratch_operands;
};

/** The most operands a declaration or table row defines (sample_d_cl_s: 2 + 6) plus
 *  slack. */
#define SB_SM4_MAX_OPERANDS 10u

/** A window [pos, end) of DWORD indices inside the program. */
struct sb_sm4_cursor {
    struct sb_sm4_reader *reader;
    uint32_t pos;             /**< next DWORD to read */
    uint32_t end;             /**< one past the last readable DWORD */
};

/** Records the first failure (with the current instruction index); returns false. */
bool sb_sm4_fail(struct sb_sm4_reader *reader, enum sb_result code, uint32_t dword_index,
                 const char *format, ...) SB_SM4_PRINTF(4, 5) SB_COLD;

/** Byte offset of DWORD `dword_index` as reported (base-relative). */
static inline uint64_t sb_sm4_offset(const struct sb_sm4_reader *reader, uint32_t dword_index)
{
    return reader->base_offset + (uint64_t)dword_index * 4u;
}

/** A little-endian DWORD at `p` (any alignment). */
static inline uint32_t sb_load_u32_le(const uint8_t *p)
{
    return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) |
           ((uint32_t)p[3] << 24);
}

/** Loads DWORD `index` (caller checked it lies inside the program). */
static inline uint32_t sb_sm4_load(const struct sb_sm4_reader *reader, uint32_t index)
{
    return sb_load_u32_le(reader->data + (size_t)index * 4u);
}

/**
 * Reads the next DWORD of the window; past its end fails with
 * SB_ERROR_SM4_LENGTH_TOO_SHORT naming `field`, and returns 0 (sticky).
 */
uint32_t sb_sm4_read(struct sb_sm4_cursor *cur, const char *field);

/** Zeroed arena memory for count items; OOM is recorded in the sticky error. */
void *sb_sm4_alloc(struct sb_sm4_reader *reader, size_t count, size_t size);

/** Records the out-of-memory failure of an allocation for the current instruction. */
void sb_sm4_fail_oom(struct sb_sm4_reader *reader);

/** sb_sm4_alloc() without the zeroing, for items the caller sets in full at once
 *  (operands: sb_sm4_read_operand() writes every field). Inline: one per instruction. */
static inline void *sb_sm4_alloc_uninit(struct sb_sm4_reader *reader, size_t count, size_t size)
{
    if (reader->failed)
        return NULL;
    void *p = sb_arena_alloc_uninit(reader->arena, count ? count : 1, size);
    if (!p)
        sb_sm4_fail_oom(reader);
    return p;
}

/** Checks the program header (§1) of `size` bytes into `prog`'s version fields and
 *  sets the reader's DWORD count and model; false with the failure recorded. */
bool sb_sm4_read_header(struct sb_sm4_reader *reader, size_t size, struct sb_sm4_program *prog);

/** Decodes the instruction at DWORD `start` into `inst` (every field set; operands and
 *  payloads in the reader's arena, a declaration's operands in scratch_operands when the
 *  reader has them); returns its length, 0 on failure (recorded). */
uint32_t sb_sm4_read_instruction(struct sb_sm4_reader *reader, struct sb_sm4_instruction *inst,
                                 uint32_t start);

/** Decodes one operand (§5, §6) at the cursor into `out`. */
bool sb_sm4_read_operand(struct sb_sm4_cursor *cur, struct sb_sm4_operand *out);

/** Decodes `count` operands in a row (an instruction's), stopping at the first failure. */
bool sb_sm4_read_operands(struct sb_sm4_cursor *cur, struct sb_sm4_operand *ops, uint32_t count);

/** Decodes the payload of declaration `inst` (§2.4); operands go to `ops`. */
bool sb_sm4_read_declaration(struct sb_sm4_cursor *cur, struct sb_sm4_instruction *inst,
                             struct sb_sm4_operand *ops, uint32_t *op_count);

/* ------------------------------------------------------------------------ */
/* Text output (sm4_disasm*.c, sm4_format_imm.c)                            */
/* ------------------------------------------------------------------------ */

/** A growable NUL-terminated string; allocation failure is sticky. */
struct sb_sm4_text {
    char *data;
    size_t length;
    size_t capacity;
    bool failed;
};

void sb_sm4_text_append(struct sb_sm4_text *text, const char *s);
void sb_sm4_text_appendf(struct sb_sm4_text *text, const char *format, ...) SB_SM4_PRINTF(2, 3);
void sb_sm4_text_spaces(struct sb_sm4_text *text, unsigned count);

/** The fxc version behaviours of §9.15, chosen from the RDEF creator string. */
struct sb_sm4_style {
    bool aoffimmi_word;       /**< `_aoffimmi` before the offsets (all but fxc 9.29) */
    bool discard_test;        /**< `discard_z`/`_nz` (all but fxc 9.29) */
    bool upper_cb_decl;       /**< `dcl_constantbuffer CB0[n]` (fxc 10.x) */
    bool sgv_interpolation;   /**< mode printed on dcl_input_ps_sgv (fxc 6.3, 10.x) */
    bool structured_space;    /**< trailing space after a structured SRV stride (pre-10) */
    bool old_rounding;        /**< the older C runtime's %f (§9.7) */
};

/** Picks the style of the compiler named by `creator` (NULL: fxc 10.1). */
struct sb_sm4_style sb_sm4_style_from_creator(const char *creator);

/** Appends `bits` as a float with six decimals under the style's rounding (§9.7). */
void sb_sm4_format_float(struct sb_sm4_text *text, uint32_t bits, bool old_rounding);
/** Appends a 64-bit double with six decimals (no suffix). */
void sb_sm4_format_double(struct sb_sm4_text *text, uint64_t bits, bool old_rounding);
/** Appends one immediate DWORD by print class 'f', 'i' or 'a' (§9.7). */
void sb_sm4_format_value(struct sb_sm4_text *text, uint32_t value, char print_class,
                         bool old_rounding);

/** Shared state of one disassembly. */
struct sb_sm4_printer {
    struct sb_sm4_text *text;
    const struct sb_sm4_program *program;
    struct sb_sm4_style style;
    bool is_sm51;
};

/** Appends an operand with modifiers, indices, components and no precision note. */
void sb_sm4_print_operand(struct sb_sm4_printer *p, const struct sb_sm4_operand *op,
                          char print_class);
/** Appends the register name and its indices only (no components or modifiers). */
void sb_sm4_print_register(struct sb_sm4_printer *p, const struct sb_sm4_operand *op);
/** Appends the component suffix of an operand (`.xyzw`, `.x`, or nothing). */
void sb_sm4_print_components(struct sb_sm4_printer *p, const struct sb_sm4_operand *op);
/** The ` {min16f}` spelling of a precision ("min16f"), "def32" for the default. */
const char *sb_sm4_precision_name(uint32_t min_precision);
/** fxc spelling of a resource return type (§8.4), "<unknown>" for others. */
const char *sb_sm4_return_type_name(uint32_t type);
/** fxc spelling of a resource dimension (§8.3), "unknown" for others. */
const char *sb_sm4_dimension_name(uint32_t dimension);

/** Appends a declaration line's text (no indentation, no newline). */
void sb_sm4_print_declaration(struct sb_sm4_printer *p, const struct sb_sm4_instruction *inst);
/** Appends a custom-data block (ICB, shader message); `indent` for continuation rows. */
void sb_sm4_print_custom_data(struct sb_sm4_printer *p, const struct sb_sm4_instruction *inst,
                              unsigned indent);

/** Appends fxc's header comments for `container` (RDEF, signatures). */
void sb_sm4_print_header(struct sb_sm4_printer *p, const struct sb_dxbc *container);
/** Appends the "// Approximately N instruction slots used" footer. */
void sb_sm4_print_footer(struct sb_sm4_printer *p, const struct sb_dxbc *container);

/** The fields of an operand token (../shared/docs/sm4-tokens.md §5) that every operand reader
 *  decodes first, and the DWORDs that follow it in the simple forms. */
struct sb_sm4_operand_head {
    uint32_t type, dimension, encoded, selection, representations;
    bool immediate;
    /** DWORDs after the token: the indices, or the immediate values (UINT32_MAX for an
     *  immediate of a form the readers reject). */
    uint32_t payload;
};

static inline struct sb_sm4_operand_head sb_sm4_operand_head(uint32_t token)
{
    struct sb_sm4_operand_head h;
    h.type = (token >> 12) & 0xffu;
    h.dimension = (token >> 20) & 3u;
    h.encoded = token & 3u;
    h.selection = h.encoded == 2 ? (token >> 2) & 3u : 0u;
    h.representations = (token >> 22) & ((1u << (3 * h.dimension)) - 1u);
    h.immediate = h.type == SB_SM4_OPERAND_IMMEDIATE32 || h.type == SB_SM4_OPERAND_IMMEDIATE64;
    h.payload = h.dimension;
    if (h.immediate)
        h.payload = h.dimension != 0 || h.encoded == 0 ? UINT32_MAX
                    : h.encoded == 1 ? (h.type == SB_SM4_OPERAND_IMMEDIATE64 ? 2u : 1u) : 4u;
    return h;
}

#endif
