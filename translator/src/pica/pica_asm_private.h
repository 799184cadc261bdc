/* SPDX-License-Identifier: MIT */
/*
 * State of the picasso-syntax assembler (pica_asm*.c): the code being
 * emitted, the operand-descriptor table with picasso's first-use
 * deduplication, procedures, blocks, labels, aliases, uniforms and one record
 * per DVLE. Fixed-size tables keep every limit explicit (the hardware's own:
 * 4096 words, 128 descriptors, 96/4/16 uniforms).
 */
#ifndef SB_PICA_ASM_PRIVATE_H
#define SB_PICA_ASM_PRIVATE_H

#include <setjmp.h>

#include "pica_private.h"

/* The code of every error in the source text (result.h's source-text block). */
#define ASM_SOURCE_ERROR SB_ERROR_ASM_SYNTAX

#define ASM_MAX_NAME 64
#define ASM_MAX_PROCS 512
#define ASM_MAX_LABELS 1024
#define ASM_MAX_RELOCS 4096
#define ASM_MAX_ALIASES 512
#define ASM_MAX_UNIFORMS 256
#define ASM_MAX_DVLES 16
#define ASM_MAX_CONSTANTS 128
#define ASM_MAX_OUTPUTS 16
#define ASM_MAX_STACK 32
#define ASM_MAX_ARGS 8

/** Register files of operands in source text (picasso's). */
enum asm_file { ASM_V, ASM_O, ASM_R, ASM_C, ASM_I, ASM_B };

/** A parsed register operand. */
struct asm_operand {
    enum asm_file file;
    int index;
    uint8_t swizzle;  /**< §5 selector (lane x in the top bits); mask = lanes present */
    bool negate;
    enum sb_pica_relative relative;
    uint32_t column;  /**< 1-based column of the operand text */
};

/** A text span of the current line. */
struct asm_span {
    const char *text;
    size_t length;
    uint32_t column;
};

struct asm_alias {
    char name[ASM_MAX_NAME];
    enum asm_file file;
    int index;
    uint8_t swizzle;
    bool negate;
};

enum asm_uniform_type { ASM_UNIFORM_FLOAT, ASM_UNIFORM_INT, ASM_UNIFORM_BOOL, ASM_UNIFORM_INPUT };

struct asm_uniform {
    char name[ASM_MAX_NAME];
    enum asm_uniform_type type;
    int position; /**< index within the class */
    int size;
};

struct asm_constant {
    uint16_t type; /**< 0 bool, 1 int, 2 float (§12.4) */
    uint16_t index;
    uint32_t value[4];
};

struct asm_output {
    uint16_t type;
    uint16_t index;
    uint32_t mask; /**< bit 0 = x */
};

/** Upward allocation from start, downward (locals) from end. */
struct asm_alloc {
    int start, end, limit;
};

struct asm_dvle {
    char entry[ASM_MAX_NAME];
    uint32_t entry_line, entry_column;
    bool nodvle;
    bool geometry;
    bool merge_outmaps;
    uint8_t gs_mode, gs_fixed_start, gs_variable_count, gs_fixed_count;
    bool own_float_space; /**< .gsh with parameters: a separate float allocator */
    struct asm_alloc float_alloc;
    int float_local_end, int_local_end;
    uint16_t input_mask, output_mask;
    uint32_t constant_count;
    struct asm_constant constants[ASM_MAX_CONSTANTS];
    uint32_t output_count;
    struct asm_output outputs[ASM_MAX_OUTPUTS];
    uint32_t uniform_count;
    struct asm_uniform uniforms[ASM_MAX_UNIFORMS];
    uint32_t main_address, end_address; /**< resolved at the end */
};

enum asm_block_type { ASM_BLOCK_PROC, ASM_BLOCK_IF, ASM_BLOCK_FOR, ASM_BLOCK_ARRAY };

struct asm_block {
    enum asm_block_type type;
    uint32_t position;     /**< code address of the opening instruction / proc start */
    uint32_t else_position; /**< IF: address of .else, 0 = none yet */
    bool has_else;
    uint32_t line, column;
    char name[ASM_MAX_NAME];
};

struct asm_label {
    char name[ASM_MAX_NAME];
    uint32_t address;
};

struct asm_proc {
    char name[ASM_MAX_NAME];
    uint32_t start, size;
};

struct asm_reloc {
    uint32_t address; /**< word to patch */
    char name[ASM_MAX_NAME];
    uint32_t line, column;
    bool procedure; /**< dest+num from a procedure; else dest from a label */
};

struct asm_state {
    jmp_buf fail;
    struct sb_pica_asm_error *error;
    const char *text;
    size_t length;
    uint32_t line;         /**< current 1-based line */
    const char *line_start;

    uint32_t code[SB_SHBIN_MAX_CODE_WORDS];
    uint32_t code_count;
    struct pica_opdesc_table opdescs;

    struct asm_block stack[ASM_MAX_STACK];
    uint32_t stack_depth;

    struct asm_proc procs[ASM_MAX_PROCS];
    uint32_t proc_count;
    struct asm_label labels[ASM_MAX_LABELS]; /**< of the current DVLE section */
    uint32_t label_count;
    struct asm_reloc relocs[ASM_MAX_RELOCS];
    uint32_t reloc_count;
    uint32_t label_reloc_begin; /**< first label reloc of the current section */
    struct asm_alias aliases[ASM_MAX_ALIASES]; /**< of the current section */
    uint32_t alias_count;

    /* Vertex-shader uniform space shared by every DVLE (picasso's linking model). */
    struct asm_uniform globals[ASM_MAX_UNIFORMS];
    uint32_t global_count;
    struct asm_alloc float_alloc, int_alloc, bool_alloc;

    struct asm_dvle dvles[ASM_MAX_DVLES];
    uint32_t dvle_count;

    /* .constfa in progress */
    char array_name[ASM_MAX_NAME];
    int array_size; /**< declared size, -1 when "[]" */
    uint32_t array_count;
    uint32_t array_values[96][4];
};

/* pica_asm_parse.c */
bool asm_span_equals(struct asm_span span, const char *word);
struct asm_span asm_trim(struct asm_span span);
bool asm_is_identifier(struct asm_span span);
void asm_copy_name(struct asm_state *state, struct asm_span span, char *out);
uint32_t asm_split_args(struct asm_span rest, struct asm_span *args, uint32_t max);
long asm_parse_int(struct asm_state *state, struct asm_span span, long min, long max);
float asm_parse_float(struct asm_state *state, struct asm_span span);
bool asm_parse_swizzle(struct asm_span span, uint8_t *swizzle);
void asm_parse_operand(struct asm_state *state, struct asm_span span, struct asm_operand *out);
uint8_t asm_swizzle_mask(uint8_t swizzle);
const struct asm_alias *asm_find_alias(const struct asm_state *state, struct asm_span name);
void asm_add_alias(struct asm_state *state, struct asm_span name, enum asm_file file, int index,
                   uint8_t swizzle);

/* pica_asm_instr.c */
bool asm_instruction(struct asm_state *state, struct asm_span mnemonic, struct asm_span rest);

/* pica_asm_flow.c */
bool asm_flow_instruction(struct asm_state *state, struct asm_span mnemonic, struct asm_span rest);
void asm_block_end(struct asm_state *state, struct asm_span keyword, int expected);
void asm_block_else(struct asm_state *state, struct asm_span keyword);
void asm_resolve_relocations(struct asm_state *state, uint32_t first, bool procedures);

/* pica_asm_directive.c */
void asm_directive(struct asm_state *state, struct asm_span name, struct asm_span rest);

/* pica_asm_section.c */
/** Opens the next DVLE with its defaults (entry "main", local ranges). */
void asm_start_dvle(struct asm_state *state);
/** Ends a source section: resolves its label references, forgets labels and aliases. */
void asm_finish_section(struct asm_state *state);
/** The .dvle directive: ends the current section and DVLE and opens the next. */
void asm_next_dvle(struct asm_state *state, uint32_t column);

/* pica_asm_state.c */
/** Reports an error at a column of the current line and leaves the assembly. */
_Noreturn void asm_fail(struct asm_state *state, uint32_t column, const char *format, ...)
    __attribute__((format(printf, 3, 4)));
/** The DVLE being filled. */
struct asm_dvle *asm_current_dvle(struct asm_state *state);
/** Appends one code word (fails past the SHBIN limit). */
void asm_emit(struct asm_state *state, uint32_t word, uint32_t column);

/* pica_asm_write.c */
enum sb_result asm_write_shbin(struct asm_state *state, uint8_t **out, size_t *size);

#endif
