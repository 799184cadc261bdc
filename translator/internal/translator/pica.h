/* SPDX-License-Identifier: MIT */
/*
 * PICA200 shader instructions (Nintendo 3DS): a decoder of code words plus
 * operand descriptors into plain structs, the matching encoder, a
 * picasso-syntax assembler that writes SHBIN files and a disassembler that
 * turns a SHBIN back into picasso syntax (../shared/docs/pica200.md §4-§6, §9, §12).
 *
 * sb_pica_decode() turns one 32-bit code word into a `struct
 * sb_pica_instruction`: the opcode (aliased ranges folded, the raw 6-bit
 * field kept), its format, the destination, up to three sources with the
 * swizzle and negation taken from the operand descriptor the word names, and
 * the flow-control / compare / SETEMIT fields. The struct holds facts, not
 * text, so the IR lowering (issue #6, Deliver 3) works from it directly;
 * sb_pica_encode() is its exact inverse for the code word and
 * sb_pica_encode_descriptor() rebuilds the descriptor word.
 *
 * Decoding never allocates. The assembler and disassembler return heap
 * buffers released by sb_pica_free().
 *
 * Error codes used here (reflect's result.h): SB_ERROR_INVALID_ARGUMENT (NULL
 * pointers, a struct the encoder cannot express), SB_ERROR_BAD_VALUE (an
 * unused opcode, assembler syntax/semantic errors), SB_ERROR_BAD_OFFSET (a
 * descriptor index outside the table), SB_ERROR_OUT_OF_MEMORY.
 */
#ifndef SHADERBRIDGE_PICA_H
#define SHADERBRIDGE_PICA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "shaderbridge/result.h"
#include "shaderbridge/shbin.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * Opcodes (§6.2). Each value is the 6-bit opcode field of the first word of
 * its range: CMP covers 0x2E-0x2F (bit 26 belongs to CMPX), MADI 0x30-0x37
 * and MAD 0x38-0x3F (bits 28:26 belong to DST). Decoding folds a range into
 * its first value; sb_pica_instruction::raw_opcode keeps the field.
 */
enum sb_pica_opcode {
    SB_PICA_OP_ADD = 0x00,     /**< fmt 1: d = s1 + s2 */
    SB_PICA_OP_DP3 = 0x01,     /**< fmt 1: 3-lane dot product, replicated */
    SB_PICA_OP_DP4 = 0x02,     /**< fmt 1: 4-lane dot product, replicated */
    SB_PICA_OP_DPH = 0x03,     /**< fmt 1: homogeneous dot product (s1.w = 1) */
    SB_PICA_OP_DST = 0x04,     /**< fmt 1: distance vector */
    SB_PICA_OP_EX2 = 0x05,     /**< fmt 1u: 2^s1.x */
    SB_PICA_OP_LG2 = 0x06,     /**< fmt 1u: log2(s1.x) */
    SB_PICA_OP_LITP = 0x07,    /**< fmt 1u: lighting helper, sets cmp */
    SB_PICA_OP_MUL = 0x08,     /**< fmt 1: product */
    SB_PICA_OP_SGE = 0x09,     /**< fmt 1: s1 >= s2 ? 1 : 0 */
    SB_PICA_OP_SLT = 0x0A,     /**< fmt 1: s1 < s2 ? 1 : 0 */
    SB_PICA_OP_FLR = 0x0B,     /**< fmt 1u: floor */
    SB_PICA_OP_MAX = 0x0C,     /**< fmt 1: maximum */
    SB_PICA_OP_MIN = 0x0D,     /**< fmt 1: minimum */
    SB_PICA_OP_RCP = 0x0E,     /**< fmt 1u: 1 / s1.x */
    SB_PICA_OP_RSQ = 0x0F,     /**< fmt 1u: 1 / sqrt(s1.x) */
    SB_PICA_OP_MOVA = 0x12,    /**< fmt 1u: a0.xy = int(s1.xy) (mask picks lanes) */
    SB_PICA_OP_MOV = 0x13,     /**< fmt 1u: copy */
    SB_PICA_OP_DPHI = 0x18,    /**< fmt 1i: DPH, SRC2 is the 7-bit operand */
    SB_PICA_OP_DSTI = 0x19,    /**< fmt 1i: DST, SRC2 is the 7-bit operand */
    SB_PICA_OP_SGEI = 0x1A,    /**< fmt 1i: SGE, SRC2 is the 7-bit operand */
    SB_PICA_OP_SLTI = 0x1B,    /**< fmt 1i: SLT, SRC2 is the 7-bit operand */
    SB_PICA_OP_BREAK = 0x20,   /**< fmt 0: leave the innermost loop */
    SB_PICA_OP_NOP = 0x21,     /**< fmt 0: nothing */
    SB_PICA_OP_END = 0x22,     /**< fmt 0: end of the invocation */
    SB_PICA_OP_BREAKC = 0x23,  /**< fmt 2: BREAK if the condition holds */
    SB_PICA_OP_CALL = 0x24,    /**< fmt 2: call [dest, dest+num) */
    SB_PICA_OP_CALLC = 0x25,   /**< fmt 2: CALL if the condition holds */
    SB_PICA_OP_CALLU = 0x26,   /**< fmt 3: CALL if b[bool_id] */
    SB_PICA_OP_IFU = 0x27,     /**< fmt 3: if b[bool_id]: then [P+1,dest), else [dest,dest+num) */
    SB_PICA_OP_IFC = 0x28,     /**< fmt 2: like IFU on the condition */
    SB_PICA_OP_LOOP = 0x29,    /**< fmt 3: loop body [P+1, dest] on i[int_id] */
    SB_PICA_OP_EMIT = 0x2A,    /**< fmt 0: emit a vertex (GS only) */
    SB_PICA_OP_SETEMIT = 0x2B, /**< fmt 4: set vertex slot / primitive / winding (GS only) */
    SB_PICA_OP_JMPC = 0x2C,    /**< fmt 2: jump to dest if the condition holds */
    SB_PICA_OP_JMPU = 0x2D,    /**< fmt 3: jump to dest if b[bool_id] (inverted by num bit 0) */
    SB_PICA_OP_CMP = 0x2E,     /**< fmt 1c: words 0x2E-0x2F; sets cmp.x / cmp.y */
    SB_PICA_OP_MADI = 0x30,    /**< fmt 5i: words 0x30-0x37; MAD with SRC3 the 7-bit operand */
    SB_PICA_OP_MAD = 0x38,     /**< fmt 5: words 0x38-0x3F; d = s1 * s2 + s3 */
    SB_PICA_OP_MAX_ENUM = 0x7fffffff
};

/** Last raw opcode of the CMP range (§6.2). */
#define SB_PICA_OP_CMP_LAST 0x2Fu
/** Last raw opcode of the MADI range (§6.2). */
#define SB_PICA_OP_MADI_LAST 0x37u
/** Last raw opcode of the MAD range (§6.2). */
#define SB_PICA_OP_MAD_LAST 0x3Fu

/** Instruction word formats (§4). */
enum sb_pica_format {
    SB_PICA_FORMAT_0 = 0,  /**< no operands: BREAK NOP END EMIT */
    SB_PICA_FORMAT_1 = 1,  /**< two sources, SRC1 7-bit */
    SB_PICA_FORMAT_1I = 2, /**< two sources, SRC2 7-bit (inverted) */
    SB_PICA_FORMAT_1U = 3, /**< one source (SRC2 field unused; MOVA: DST unused too) */
    SB_PICA_FORMAT_1C = 4, /**< CMP: two compare ops instead of DST */
    SB_PICA_FORMAT_2 = 5,  /**< flow control on the cmp condition */
    SB_PICA_FORMAT_3 = 6,  /**< flow control on a bool or int uniform */
    SB_PICA_FORMAT_4 = 7,  /**< SETEMIT */
    SB_PICA_FORMAT_5 = 8,  /**< MAD: SRC2 7-bit, 5-bit DESC */
    SB_PICA_FORMAT_5I = 9, /**< MADI: SRC3 7-bit, 5-bit DESC */
    SB_PICA_FORMAT_MAX_ENUM = 0x7fffffff
};

/** Register files an operand can name (§3). */
enum sb_pica_register_file {
    SB_PICA_REG_NONE = 0,   /**< no operand (field unused) */
    SB_PICA_REG_INPUT = 1,  /**< v0-v15 (source only) */
    SB_PICA_REG_TEMP = 2,   /**< r0-r15 */
    SB_PICA_REG_FLOAT = 3,  /**< c0-c95 float uniforms (7-bit sources only) */
    SB_PICA_REG_OUTPUT = 4, /**< o0-o15 (destination only) */
    SB_PICA_REG_ADDRESS = 5, /**< a0 (MOVA destination; index 0, mask picks x/y) */
    SB_PICA_REG_FILE_MAX_ENUM = 0x7fffffff
};

/** Relative-addressing selector IDX (§8). */
enum sb_pica_relative {
    SB_PICA_RELATIVE_NONE = 0, /**< no offset */
    SB_PICA_RELATIVE_A0X = 1,  /**< + a0.x */
    SB_PICA_RELATIVE_A0Y = 2,  /**< + a0.y */
    SB_PICA_RELATIVE_AL = 3,   /**< + aL */
    SB_PICA_RELATIVE_MAX_ENUM = 0x7fffffff
};

/** CONDOP of format-2 instructions (§6.5). */
enum sb_pica_condition_op {
    SB_PICA_CONDITION_OR = 0,  /**< cmp.x == refx || cmp.y == refy */
    SB_PICA_CONDITION_AND = 1, /**< cmp.x == refx && cmp.y == refy */
    SB_PICA_CONDITION_X = 2,   /**< cmp.x == refx */
    SB_PICA_CONDITION_Y = 3,   /**< cmp.y == refy */
    SB_PICA_CONDITION_MAX_ENUM = 0x7fffffff
};

/** CMPX / CMPY comparison (§6.4). */
enum sb_pica_compare_op {
    SB_PICA_COMPARE_EQ = 0,     /**< == */
    SB_PICA_COMPARE_NE = 1,     /**< != */
    SB_PICA_COMPARE_LT = 2,     /**< < */
    SB_PICA_COMPARE_LE = 3,     /**< <= */
    SB_PICA_COMPARE_GT = 4,     /**< > */
    SB_PICA_COMPARE_GE = 5,     /**< >= */
    SB_PICA_COMPARE_TRUE6 = 6,  /**< reported "always true" [UNK] */
    SB_PICA_COMPARE_TRUE7 = 7,  /**< reported "always true" [UNK] */
    SB_PICA_COMPARE_MAX_ENUM = 0x7fffffff
};

/** A source operand: register, relative index, swizzle and negation. */
struct sb_pica_source {
    enum sb_pica_register_file file; /**< INPUT, TEMP or FLOAT; NONE when unused */
    uint32_t index;                  /**< register number within the file (v/r 0-15, c 0-95) */
    uint32_t raw;                    /**< the operand field as stored (§3.2 numbering) */
    /**
     * IDX applied to this operand: only the 7-bit operand of an instruction
     * carries the word's IDX field (§8); NONE for every other source.
     */
    enum sb_pica_relative relative;
    /** Descriptor selector (§5): bits [7:6] feed lane x ... [1:0] lane w; 0x1B = .xyzw. */
    uint8_t swizzle;
    /** component[i]: source lane (0 = x ... 3 = w) feeding lane i, decoded from swizzle. */
    uint8_t component[4];
    bool negate; /**< descriptor negate bit of this source */
};

/** The destination operand. */
struct sb_pica_destination {
    enum sb_pica_register_file file; /**< OUTPUT or TEMP; ADDRESS for MOVA; NONE when none */
    uint32_t index;                  /**< o/r 0-15 (0 for ADDRESS/NONE) */
    uint32_t raw;                    /**< the DST field as stored (0 when the format has none) */
    /** Descriptor write mask (§5): bit 3 = x, bit 2 = y, bit 1 = z, bit 0 = w. */
    uint8_t mask;
};

/** One decoded code word. Members a format does not use are zero. */
struct sb_pica_instruction {
    uint32_t word;               /**< the code word as given */
    enum sb_pica_opcode opcode;  /**< folded opcode (CMP/MADI/MAD ranges to their first value) */
    uint32_t raw_opcode;         /**< bits [31:26] of the word */
    enum sb_pica_format format;  /**< the word's layout */
    /**
     * Bits of the word that lie in fields this format does not use (e.g. the
     * SRC2 field of format 1u, bits [25:0] of format 0, bits [9:8] of
     * formats 2/3, MOVA's DST) exactly as found; 0 from every known
     * assembler. sb_pica_encode() ORs them back so decode -> encode is exact.
     */
    uint32_t unused_bits;

    bool has_descriptor;       /**< formats 1, 1i, 1u, 1c, 5, 5i */
    uint32_t descriptor_index; /**< DESC field (0-127; 0-31 for MAD/MADI) */
    uint32_t descriptor;       /**< the descriptor word it names (0 when none) */

    struct sb_pica_destination dst; /**< destination (file NONE for CMP, flow control) */
    uint32_t source_count;          /**< used entries of src (0-3) */
    struct sb_pica_source src[3];   /**< SRC1, SRC2, SRC3 in operation order */
    enum sb_pica_relative relative; /**< the word's IDX field (also copied into the 7-bit source) */

    /* Flow control (formats 2 and 3). */
    uint32_t flow_dest; /**< DST: target word address (0-4095) */
    uint32_t flow_num;  /**< NUM: instruction count (0-255); JMPU: bit 0 inverts the test */
    enum sb_pica_condition_op condition; /**< format 2: CONDOP */
    bool refx;          /**< format 2: REFX (value cmp.x must have) */
    bool refy;          /**< format 2: REFY */
    uint32_t bool_id;   /**< format 3 CALLU/IFU/JMPU: b0-b15 */
    uint32_t int_id;    /**< format 3 LOOP: i0-i3 */
    bool jmpu_inverted; /**< JMPU: jump when b[bool_id] is false (flow_num bit 0) */

    /* CMP (format 1c). */
    enum sb_pica_compare_op compare_x; /**< CMPX */
    enum sb_pica_compare_op compare_y; /**< CMPY */

    /* SETEMIT (format 4). */
    uint32_t vertex_id; /**< VTXID: vertex slot 0-3 (2 bits; 3 is reserved) */
    bool primitive;     /**< PRIMEMIT: emit a primitive after this vertex */
    bool winding;       /**< WINDING: invert the triangle's winding */
};

/**
 * Decodes one code word.
 *
 * @param word             the code word
 * @param descriptors      operand-descriptor words (§5), indexed by DESC; may be
 *                         NULL when descriptor_count is 0
 * @param descriptor_count their count (at most 128 are addressable)
 * @param out              receives the instruction (zeroed first)
 * @param error            optional; offset 0, instr UINT32_MAX (the caller
 *                         knows the address; see sb_pica_decode_program())
 * @return SB_SUCCESS; SB_ERROR_BAD_VALUE for an unused opcode (0x10-0x11,
 *         0x14-0x17, 0x1C-0x1F); SB_ERROR_BAD_OFFSET for a DESC at or past
 *         descriptor_count; SB_ERROR_INVALID_ARGUMENT for NULL out
 */
enum sb_result sb_pica_decode(uint32_t word, const uint32_t *descriptors,
                              uint32_t descriptor_count, struct sb_pica_instruction *out,
                              struct sb_error *error);

/**
 * Decodes a whole program; stops at the first invalid word.
 *
 * @param code             code words
 * @param code_count       their count
 * @param descriptors      descriptor words; NULL allowed when descriptor_count is 0
 * @param descriptor_count their count
 * @param out              code_count instructions
 * @param error            optional; offset = 4 * address, instr = address
 * @return as sb_pica_decode()
 */
enum sb_result sb_pica_decode_program(const uint32_t *code, uint32_t code_count,
                                      const uint32_t *descriptors, uint32_t descriptor_count,
                                      struct sb_pica_instruction *out, struct sb_error *error);

/**
 * Decodes the program of a parsed SHBIN (its DVLP code and descriptors).
 *
 * @param shbin the parsed file
 * @param out   shbin->program.code_word_count instructions
 * @param error optional; offset = absolute file offset of the word, instr = address
 * @return as sb_pica_decode()
 */
enum sb_result sb_pica_decode_shbin(const struct sb_shbin *shbin, struct sb_pica_instruction *out,
                                    struct sb_error *error);

/**
 * Encodes the code word of an instruction (inverse of sb_pica_decode()).
 * Uses opcode (raw_opcode is ignored; CMP/MAD/MADI take their bits from the
 * operands), format-relevant fields, descriptor_index, the relative field of
 * the 7-bit source and unused_bits. Source swizzles/negation and the write
 * mask live in the descriptor: see sb_pica_encode_descriptor().
 *
 * @param instruction the instruction
 * @param word        receives the code word
 * @param error       optional
 * @return SB_SUCCESS; SB_ERROR_INVALID_ARGUMENT when a field does not fit its
 *         format (a c register in a 5-bit field, an index out of range, DESC
 *         >= 32 for MAD/MADI, a relative index on a non-7-bit source ...)
 */
enum sb_result sb_pica_encode(const struct sb_pica_instruction *instruction, uint32_t *word,
                              struct sb_error *error);

/**
 * Builds the operand-descriptor word of an instruction from dst.mask and the
 * swizzle/negate of its source_count sources; selectors of unused sources
 * are 0 (as picasso writes them).
 *
 * @param instruction the instruction
 * @return the descriptor word
 */
uint32_t sb_pica_encode_descriptor(const struct sb_pica_instruction *instruction);

/** Lower-case picasso mnemonic of an opcode ("mad", "cmp", "setemit"); NULL if unknown. */
const char *sb_pica_opcode_name(enum sb_pica_opcode opcode);

/** Format of a folded opcode; false for unused opcodes. */
bool sb_pica_opcode_format(enum sb_pica_opcode opcode, enum sb_pica_format *format);

/**
 * Folds a raw 6-bit opcode field into its enum value.
 * @return false for an unused opcode
 */
bool sb_pica_fold_opcode(uint32_t raw_opcode, enum sb_pica_opcode *opcode);

/* ------------------------------------------------------------------------ */
/* Assembler and disassembler                                               */
/* ------------------------------------------------------------------------ */

/** A diagnostic of the assembler: an sb_error plus the text position. */
struct sb_pica_asm_error {
    struct sb_error error; /**< code (SB_ERROR_ASM_SYNTAX for source errors), byte offset, message */
    uint32_t line;         /**< 1-based line of the problem (0 when not tied to the text) */
    uint32_t column;       /**< 1-based column (bytes) of the problem */
};

/**
 * Assembles picasso-syntax source text into a SHBIN file (DVLB, DVLP, one
 * DVLE per `.proc` named by `.entry`, or per non-`.nodvle` main procedure).
 *
 * @param text   the source (need not be NUL-terminated; NUL bytes are errors)
 * @param length its size in bytes
 * @param out    receives the SHBIN bytes (free with sb_pica_free()); NULL on failure
 * @param size   receives their count
 * @param error  optional; the first error with its line and column
 * @return SB_SUCCESS, SB_ERROR_ASM_SYNTAX for errors in the text,
 *         SB_ERROR_INVALID_ARGUMENT, SB_ERROR_OUT_OF_MEMORY
 */
enum sb_result sb_pica_assemble(const char *text, size_t length, uint8_t **out, size_t *size,
                                struct sb_pica_asm_error *error);

/**
 * Disassembles a parsed SHBIN into picasso-syntax text that sb_pica_assemble()
 * turns back into identical code words and operand descriptors.
 *
 * @param shbin the parsed file
 * @param text  receives a NUL-terminated string (free with sb_pica_free())
 * @param error optional; decode errors with the word's file offset
 * @return SB_SUCCESS, a decode error, SB_ERROR_OUT_OF_MEMORY
 */
enum sb_result sb_pica_disassemble(const struct sb_shbin *shbin, char **text,
                                   struct sb_error *error);

/**
 * Writes one instruction in picasso syntax without labels (branch targets as
 * numbers, e.g. "mad r1, r2, c13, r1"). Always NUL-terminates when size > 0.
 *
 * @param instruction the instruction
 * @param buffer      output buffer
 * @param size        its size
 * @return the length the full text needs (like snprintf)
 */
size_t sb_pica_format_instruction(const struct sb_pica_instruction *instruction, char *buffer,
                                  size_t size);

/** Frees a buffer returned by sb_pica_assemble() or sb_pica_disassemble(); NULL is a no-op. */
void sb_pica_free(void *pointer);

#ifdef __cplusplus
}
#endif

#endif
