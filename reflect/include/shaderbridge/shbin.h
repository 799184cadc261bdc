/* SPDX-License-Identifier: MIT */
/*
 * PICA200 shader binaries (SHBIN / DVLB, Nintendo 3DS), decoded into plain C
 * structs (../shared/docs/pica200.md §12; float24 §2, uniform registers §3.3, operand
 * descriptors §5, geometry-shader modes §9.2, output semantics §11).
 *
 * A SHBIN is one DVLB header, one DVLP (the program: code words and operand
 * descriptors shared by every entry point) and one or more DVLEs (entry
 * points: vertex or geometry shader, with their constants, labels, outputs,
 * uniforms and symbol table). Sections are located through the offsets the
 * file stores, never by their order: old picasso puts the DVLE header before
 * the code, current picasso after it.
 *
 * One call, sb_shbin_parse(), reads a whole file. The result is one
 * allocation tree owned by the returned `struct sb_shbin` and released by
 * sb_shbin_destroy(); nothing in it borrows the caller's bytes (the input is
 * copied first). Every pointer inside (arrays, strings, byte ranges) lives
 * until sb_shbin_destroy() and has no free function of its own. Arrays have a
 * `*_count` beside them; a pointer may be NULL only when its count is 0.
 * Strings are NUL-terminated and were checked to end inside their table.
 *
 * Offsets named `*_offset` are as stored in the file (relative to the DVLP or
 * DVLE start, as the field's comment says); members named `file_offset` are
 * absolute byte offsets in the input.
 */
#ifndef SHADERBRIDGE_SHBIN_H
#define SHADERBRIDGE_SHBIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "shaderbridge/result.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Size of the fixed DVLP header part every writer emits (nihstro's whole header). */
#define SB_SHBIN_DVLP_MIN_HEADER_SIZE 0x1Cu
/** Size of picasso's DVLP header (three unknown words after the fixed part). */
#define SB_SHBIN_DVLP_MAX_HEADER_SIZE 0x28u
/** Size of a DVLE header. */
#define SB_SHBIN_DVLE_HEADER_SIZE 0x40u
/** Code words addressable by the 12-bit branch/entry fields (§1). */
#define SB_SHBIN_MAX_CODE_WORDS 4096u
/** Operand descriptors addressable by the 7-bit DESC field (§1). */
#define SB_SHBIN_MAX_OPERAND_DESCRIPTORS 128u
/** Vertex-shader code memory actually uploaded by libctru (§1); beyond it: a warning. */
#define SB_SHBIN_VERTEX_CODE_WORDS 512u
/** Semantic code of a lane that carries nothing (§11.1). */
#define SB_SHBIN_SEMANTIC_UNUSED 0x1Fu

/**
 * Which writer's layout the file follows (§12.9). Informative only: the
 * parse never depends on it, except that filename strings are read only in
 * the Nintendo layout (picasso points the filename offset at unrelated data).
 */
enum sb_shbin_layout {
    SB_SHBIN_LAYOUT_PICASSO = 0,     /**< current picasso: DVLEs after the program data */
    SB_SHBIN_LAYOUT_PICASSO_OLD = 1, /**< old picasso: a DVLE header lies before the code */
    SB_SHBIN_LAYOUT_NINTENDO = 2,    /**< Nintendo linker: nonzero DVLP version or labels */
    SB_SHBIN_LAYOUT_MAX_ENUM = 0x7fffffff
};

/** DVLE byte 0x06: the pipeline stage of an entry point (§12.3). */
enum sb_shbin_shader_type {
    SB_SHBIN_SHADER_VERTEX = 0,   /**< vertex shader */
    SB_SHBIN_SHADER_GEOMETRY = 1, /**< geometry shader */
    SB_SHBIN_SHADER_TYPE_MAX_ENUM = 0x7fffffff
};

/** DVLE byte 0x14: how a geometry shader receives its vertices (§9.2). */
enum sb_shbin_gs_mode {
    SB_SHBIN_GS_MODE_POINT = 0,    /**< VS outputs arrive as GS inputs v0... */
    SB_SHBIN_GS_MODE_VARIABLE = 1, /**< "subdivision": per-primitive vertex count, data in c0... */
    SB_SHBIN_GS_MODE_FIXED = 2,    /**< "particle": a fixed vertex count, data from a start uniform */
    SB_SHBIN_GS_MODE_MAX_ENUM = 0x7fffffff
};

/** Constant-table entry type (§12.4). */
enum sb_shbin_constant_type {
    SB_SHBIN_CONSTANT_BOOL = 0,  /**< one bool uniform b0-b15 */
    SB_SHBIN_CONSTANT_INT = 1,   /**< one integer uniform i0-i3 (four bytes) */
    SB_SHBIN_CONSTANT_FLOAT = 2, /**< one float uniform c0-c95 (four float24) */
    SB_SHBIN_CONSTANT_TYPE_MAX_ENUM = 0x7fffffff
};

/** Output-table entry type (§11.2). Value 7 is unassigned and rejected. */
enum sb_shbin_output_type {
    SB_SHBIN_OUTPUT_POSITION = 0,          /**< 4 lanes from semantic 0x00 */
    SB_SHBIN_OUTPUT_NORMAL_QUATERNION = 1, /**< 4 lanes from semantic 0x04 */
    SB_SHBIN_OUTPUT_COLOR = 2,             /**< 4 lanes from semantic 0x08 */
    SB_SHBIN_OUTPUT_TEXCOORD0 = 3,         /**< 2 lanes from semantic 0x0C */
    SB_SHBIN_OUTPUT_TEXCOORD0_W = 4,       /**< 1 lane, semantic 0x10 */
    SB_SHBIN_OUTPUT_TEXCOORD1 = 5,         /**< 2 lanes from semantic 0x0E */
    SB_SHBIN_OUTPUT_TEXCOORD2 = 6,         /**< 2 lanes from semantic 0x16 */
    SB_SHBIN_OUTPUT_VIEW = 8,              /**< 3 lanes from semantic 0x12 */
    SB_SHBIN_OUTPUT_DUMMY = 9,             /**< no semantic (VS data for a GS; picasso/libctru) */
    SB_SHBIN_OUTPUT_TYPE_MAX_ENUM = 0x7fffffff
};

/** Register class of a uniform-table register number (§3.3). */
enum sb_shbin_register_class {
    SB_SHBIN_REGISTER_INPUT = 0, /**< 0x00-0x0F: v0-v15 */
    SB_SHBIN_REGISTER_FLOAT = 1, /**< 0x10-0x6F: c0-c95 */
    SB_SHBIN_REGISTER_INT = 2,   /**< 0x70-0x73: i0-i3 */
    SB_SHBIN_REGISTER_BOOL = 3,  /**< 0x78-0x87: b0-b15 */
    SB_SHBIN_REGISTER_CLASS_MAX_ENUM = 0x7fffffff
};

/** One operand descriptor (§5): an 8-byte table entry. */
struct sb_shbin_operand_descriptor {
    uint32_t word;       /**< the descriptor word */
    uint32_t extra_word; /**< the following word (zero in every known file; kept as found) */
    uint8_t dest_mask;   /**< bits [3:0]: write mask, bit 3 = x ... bit 0 = w */
    bool negate[3];      /**< SRC1, SRC2, SRC3 negate bits (4, 13, 22) */
    uint8_t selector[3]; /**< SRC1..SRC3 selectors: bits [7:6] feed lane x ... [1:0] lane w */
};

/** A NUL-terminated string of a symbol or filename table. */
struct sb_shbin_string {
    uint32_t offset;  /**< byte offset of the string from the start of its table */
    const char *text; /**< the string (terminator checked to lie inside the table) */
};

/** DVLP: the program shared by every DVLE (§12.2). */
struct sb_shbin_program {
    uint32_t file_offset; /**< absolute offset of the "DVLP" magic (0x08 + 4 * DVLE count) */
    uint32_t version;     /**< +0x04: 0 from picasso; Nintendo files repeat the DVLE version */
    /**
     * Bytes of header present: 0x1C plus each of the unknown words at 0x1C,
     * 0x20, 0x24 that lies before the first section the file points at
     * (picasso 0x28, nihstro 0x1C).
     */
    uint32_t header_size;
    uint32_t code_offset;                  /**< +0x08: code blob, relative to the DVLP start */
    uint32_t code_word_count;              /**< +0x0C: code size in words (<= 4096) */
    const uint32_t *code;                  /**< the code words, in address order */
    uint32_t operand_descriptor_offset;    /**< +0x10: descriptor table, relative to the DVLP */
    uint32_t operand_descriptor_count;     /**< +0x14: entries (<= 128) */
    const struct sb_shbin_operand_descriptor *operand_descriptors; /**< the table, in index order */
    uint32_t filename_table_offset;        /**< +0x18: filename symbol table, relative to the DVLP */
    /**
     * Source file names: read only in the Nintendo layout, one string per
     * DVLE starting at the table (as nihstro reads them); 0 otherwise.
     */
    uint32_t filename_count;
    const struct sb_shbin_string *filenames; /**< offsets relative to the filename table */
    uint32_t unknown_word_count;             /**< how many of unknown_words exist (0-3) */
    uint32_t unknown_words[3];               /**< +0x1C, +0x20, +0x24 as found (0 when absent) */
};

/** One constant-table entry (§12.4), applied by the loader before running. */
struct sb_shbin_constant {
    uint32_t file_offset;              /**< absolute offset of the 20-byte entry */
    enum sb_shbin_constant_type type;  /**< +0x00 */
    uint16_t register_index;           /**< +0x02: index within the class (b 0-15, i 0-3, c 0-95) */
    uint32_t raw[4];                   /**< +0x04..+0x13: the four value words as stored */
    bool bool_value;                   /**< BOOL: bit 0 of raw[0] */
    uint8_t int_value[4];              /**< INT: bytes x, y, z, w of raw[0] */
    uint32_t float24[4];               /**< FLOAT: low 24 bits of raw[0..3] (x, y, z, w) */
    float float_value[4];              /**< FLOAT: float24 decoded by sb_shbin_float24_to_float() */
};

/** One label-table entry (§12.5); only Nintendo-linked files have labels. */
struct sb_shbin_label {
    uint32_t file_offset; /**< absolute offset of the 16-byte entry */
    uint32_t id_word;     /**< +0x00 as stored */
    uint8_t id;           /**< its low byte: the label id */
    uint32_t address;     /**< +0x04: code word address (<= code size) */
    uint32_t unknown;     /**< +0x08 as found */
    uint32_t name_offset; /**< +0x0C: offset of the name in the DVLE symbol table */
    const char *name;     /**< the name */
};

/** One output-table entry (§12.6) with the semantics libctru derives from it (§11.2). */
struct sb_shbin_output {
    uint32_t file_offset;           /**< absolute offset of the 8-byte entry */
    enum sb_shbin_output_type type; /**< +0x00 */
    uint16_t register_index;        /**< +0x02: o0-o15 */
    uint32_t mask_word;             /**< +0x04 as stored */
    uint8_t mask;                   /**< its bits [3:0]: bit 0 = x ... bit 3 = w (opposite of §5) */
    /**
     * Hardware semantic code (§11.1) of lanes x, y, z, w: the enabled lanes,
     * in x..w order, take consecutive codes from the type's first code until
     * its lane count is used; every other lane is SB_SHBIN_SEMANTIC_UNUSED.
     */
    uint8_t semantics[4];
};

/** One uniform-table entry (§12.7). */
struct sb_shbin_uniform {
    uint32_t file_offset;     /**< absolute offset of the 8-byte entry */
    uint32_t name_offset;     /**< +0x00: offset of the name in the DVLE symbol table */
    const char *name;         /**< the name (picasso writes '$' as '.') */
    uint16_t first_register;  /**< +0x04: §3.3 numbering */
    uint16_t last_register;   /**< +0x06: inclusive, same class as first_register */
    enum sb_shbin_register_class register_class; /**< class of both registers */
    uint32_t first_index;     /**< index within the class (c index for floats: first - 0x10) */
    uint32_t last_index;      /**< index within the class of last_register */
};

/** DVLE: one entry point (§12.3-§12.8). */
struct sb_shbin_dvle {
    uint32_t file_offset;              /**< absolute offset of the "DVLE" magic */
    uint16_t version;                  /**< +0x04: 0x1002 current picasso, 0 old picasso */
    enum sb_shbin_shader_type type;    /**< +0x06 */
    uint8_t flags;                     /**< +0x07 as stored */
    bool merge_outmaps;                /**< flags bit 0: merge VS and GS output maps */
    uint32_t main_address;             /**< +0x08: entry word address (< code size) */
    uint32_t end_address;              /**< +0x0C: end of main, exclusive (main..code size) */
    uint16_t input_mask;               /**< +0x10: used input registers (bit n = v n) */
    uint16_t output_mask;              /**< +0x12: used output registers (bit n = o n) */
    uint8_t gs_mode_value;             /**< +0x14 as stored */
    /**
     * +0x14 decoded. Checked (0-2) only for geometry shaders; a vertex
     * shader's byte is kept in gs_mode_value and this is POINT.
     */
    enum sb_shbin_gs_mode gs_mode;
    uint8_t gs_fixed_start_register;   /**< +0x15: fixed mode, first float uniform of the vertices */
    uint8_t gs_variable_vertex_count;  /**< +0x16: variable mode, fully described vertices */
    uint8_t gs_fixed_vertex_count;     /**< +0x17: fixed mode, vertex count */
    uint32_t constant_table_offset;    /**< +0x18, relative to the DVLE start */
    uint32_t constant_count;           /**< +0x1C: entries of 20 bytes */
    const struct sb_shbin_constant *constants; /**< the constant table */
    uint32_t label_table_offset;       /**< +0x20, relative to the DVLE start */
    uint32_t label_count;              /**< +0x24: entries of 16 bytes */
    const struct sb_shbin_label *labels; /**< the label table */
    uint32_t output_table_offset;      /**< +0x28, relative to the DVLE start */
    uint32_t output_count;             /**< +0x2C: entries of 8 bytes */
    const struct sb_shbin_output *outputs; /**< the output table */
    uint32_t uniform_table_offset;     /**< +0x30, relative to the DVLE start */
    uint32_t uniform_count;            /**< +0x34: entries of 8 bytes */
    const struct sb_shbin_uniform *uniforms; /**< the uniform table */
    uint32_t symbol_table_offset;      /**< +0x38, relative to the DVLE start */
    uint32_t symbol_table_size;        /**< +0x3C: bytes */
    const uint8_t *symbol_table;       /**< the table's bytes (symbol_table_size of them) */
    /**
     * The table split at its terminators, empty strings (padding) skipped;
     * trailing bytes without a terminator are not listed (a warning says so).
     */
    uint32_t symbol_count;
    const struct sb_shbin_string *symbols; /**< the non-empty strings, in table order */
};

/** A parsed SHBIN file. */
struct sb_shbin {
    size_t size;                       /**< input size in bytes */
    const uint8_t *bytes;              /**< the arena's copy of the input */
    enum sb_shbin_layout layout;       /**< which writer's layout it follows (informative) */
    uint32_t dvle_count;               /**< DVLB +0x04 */
    const uint32_t *dvle_offsets;      /**< DVLB +0x08: absolute DVLE offsets, dvle_count of them */
    struct sb_shbin_program program;   /**< the DVLP */
    const struct sb_shbin_dvle *dvles; /**< the DVLEs, in DVLB table order */
    uint32_t warning_count;            /**< non-fatal findings */
    const struct sb_warning *warnings; /**< e.g. nonzero reserved bits, end == main */
};

/**
 * Parses a SHBIN/DVLB file.
 *
 * @param data  the file's bytes (copied; the caller may free them afterwards)
 * @param size  their count
 * @param out   receives the parsed file (set to NULL on failure); free it with
 *              sb_shbin_destroy()
 * @param error optional; on failure receives the code, the absolute byte
 *              offset of the offending field and a message naming the field,
 *              the value found and the limit
 * @return SB_SUCCESS, SB_ERROR_INVALID_ARGUMENT for NULL data/out,
 *         SB_ERROR_OUT_OF_MEMORY, or a container error: TRUNCATED (a header
 *         field past the end), BAD_MAGIC, BAD_OFFSET (a table or address
 *         outside its data), BAD_SIZE (code or symbol-table size too large),
 *         BAD_COUNT (a table count that does not fit or breaks a format
 *         limit), BAD_VALUE (an unknown type, register or mode),
 *         BAD_STRING (a name without terminator inside its table).
 */
SB_API enum sb_result sb_shbin_parse(const void *data, size_t size, struct sb_shbin **out,
                              struct sb_error *error);

/** Frees a parsed file and everything it owns; NULL is a no-op. */
SB_API void sb_shbin_destroy(struct sb_shbin *object);

/**
 * Converts a float24 (§2: sign bit 23, exponent [22:16] biased by 63,
 * mantissa [15:0]; bits above 23 are ignored) to float, exactly:
 * - normal numbers (exponent 1-126) become the float32 with the same sign,
 *   the exponent re-biased by +64 and the mantissa shifted left by 7, so no
 *   rounding ever happens;
 * - exponent 0 with mantissa 0 gives +0 or -0 (sign kept);
 * - exponent 0 with a nonzero mantissa (a subnormal, m/65536 * 2^-62) is NOT
 *   flushed here: it becomes the equal normal float32 (flushing is an
 *   arithmetic rule of the shader unit, §6.1, not of constant loading);
 * - exponent 127 with mantissa 0 gives +inf or -inf; with a nonzero mantissa
 *   a NaN with the same sign and the mantissa as payload (shifted left by 7).
 */
SB_API float sb_shbin_float24_to_float(uint32_t value);

/**
 * Decodes a uniform-table register number (§3.3).
 *
 * @param reg       the register number (0x00-0x87)
 * @param class_out receives the class (may be NULL)
 * @param index     receives the index within the class (may be NULL)
 * @return false for numbers outside every class (0x74-0x77, >= 0x88)
 */
SB_API bool sb_shbin_decode_register(uint32_t reg, enum sb_shbin_register_class *class_out,
                              uint32_t *index);

/** "picasso", "picasso-old", "nintendo"; NULL for other values. Static string. */
SB_API const char *sb_shbin_layout_name(enum sb_shbin_layout layout);
/** "vertex", "geometry"; NULL for other values. Static string. */
SB_API const char *sb_shbin_shader_type_name(enum sb_shbin_shader_type type);
/** "point", "variable", "fixed" (§9.2); NULL for other values. Static string. */
SB_API const char *sb_shbin_gs_mode_name(enum sb_shbin_gs_mode mode);
/** "bool", "int", "float"; NULL for other values. Static string. */
SB_API const char *sb_shbin_constant_type_name(enum sb_shbin_constant_type type);
/**
 * §11.2 name ("position", "normal_quaternion", "color", "texcoord0",
 * "texcoord0_w", "texcoord1", "texcoord2", "view", "dummy"); NULL for other
 * values. Static string.
 */
SB_API const char *sb_shbin_output_type_name(enum sb_shbin_output_type type);
/** Register-class prefix "v", "c", "i", "b"; NULL for other values. Static string. */
SB_API const char *sb_shbin_register_class_name(enum sb_shbin_register_class register_class);
/**
 * §11.1 name of a hardware semantic code ("position.x", "color.a",
 * "texcoord0.u", "view.z", "unused" for 0x1F ...); NULL for unassigned codes.
 * Static string.
 */
SB_API const char *sb_shbin_semantic_name(uint32_t code);

#ifdef __cplusplus
}
#endif

#endif
