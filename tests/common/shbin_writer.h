/* SPDX-License-Identifier: MIT */
/*
 * A test-only SHBIN/DVLB writer (../shared/docs/pica200.md §12): builds files in the
 * three known layouts from a plain description, and reports where it put
 * every section so tests can patch single fields and predict the exact
 * offsets of the errors that follow. Reusable by any test that needs PICA200
 * binaries (decoder, translator, interpreter tests).
 *
 * It writes what it is told, without validation, so malformed files are one
 * field away from valid ones.
 */
#ifndef SB_TESTS_SHBIN_WRITER_H
#define SB_TESTS_SHBIN_WRITER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/** The most DVLEs one described file may have. */
#define SHBIN_WRITER_MAX_DVLES 8

/** Section arrangement (§12.9). */
enum shbin_writer_layout {
    /** DVLB, DVLP header (0x28), code, descriptors, then each DVLE padded to 4 bytes. */
    SHBIN_WRITER_PICASSO,
    /** DVLB, DVLP header, every DVLE header, code, descriptors, the DVLE tables; no padding. */
    SHBIN_WRITER_PICASSO_OLD,
    /** Like PICASSO plus a filename table after the descriptors (one string per name). */
    SHBIN_WRITER_NINTENDO,
};

/** One constant-table entry (§12.4): value words are written as given. */
struct shbin_writer_constant {
    uint16_t type;
    uint16_t register_index;
    uint32_t value[4];
};

/** One label (§12.5); the name goes into the DVLE symbol table after the uniform names. */
struct shbin_writer_label {
    uint32_t id_word;
    uint32_t address;
    uint32_t unknown;
    const char *name;
};

/** One output-table entry (§12.6). */
struct shbin_writer_output {
    uint16_t type;
    uint16_t register_index;
    uint32_t mask;
};

/** One uniform (§12.7); names go into the symbol table in table order. */
struct shbin_writer_uniform {
    const char *name;
    uint16_t first_register;
    uint16_t last_register;
};

/** One DVLE (§12.3). */
struct shbin_writer_dvle {
    uint16_t version;
    uint8_t type;  /**< 0 vertex, 1 geometry */
    uint8_t flags; /**< bit 0: merge output maps */
    uint32_t main_address;
    uint32_t end_address;
    uint16_t input_mask;
    uint16_t output_mask;
    uint8_t gs_mode;
    uint8_t gs_fixed_start;
    uint8_t gs_variable_count;
    uint8_t gs_fixed_count;
    const struct shbin_writer_constant *constants;
    uint32_t constant_count;
    const struct shbin_writer_label *labels;
    uint32_t label_count;
    const struct shbin_writer_output *outputs;
    uint32_t output_count;
    const struct shbin_writer_uniform *uniforms;
    uint32_t uniform_count;
};

/** A whole file. */
struct shbin_writer_program {
    enum shbin_writer_layout layout;
    uint32_t dvlp_version;
    const uint32_t *code;
    uint32_t code_word_count;
    const uint32_t *descriptors;       /**< descriptor words */
    const uint32_t *descriptor_extras; /**< the word after each; NULL writes zeros */
    uint32_t descriptor_count;
    const char *const *filenames;      /**< NINTENDO only */
    uint32_t filename_count;
    uint32_t unknown_words[3];         /**< DVLP +0x1C, +0x20, +0x24 (those inside the header) */
    uint32_t dvlp_header_size;         /**< 0x1C, 0x20, 0x24 or 0x28; 0 means picasso's 0x28 */
    const struct shbin_writer_dvle *dvles;
    uint32_t dvle_count;               /**< at most SHBIN_WRITER_MAX_DVLES */
};

/** Where one DVLE went (absolute file offsets). */
struct shbin_writer_dvle_place {
    uint32_t header;
    uint32_t constants;
    uint32_t labels;
    uint32_t outputs;
    uint32_t uniforms;
    uint32_t symbols;
    uint32_t symbol_size;
    uint32_t end; /**< one past the last byte of this DVLE's data (before padding) */
};

/** A built file and the places of its sections (absolute file offsets). */
struct shbin_writer_file {
    uint8_t *bytes; /**< malloc'd; free with shbin_writer_free() */
    size_t size;
    uint32_t dvlp;
    uint32_t code;
    uint32_t descriptors;
    uint32_t filenames;
    struct shbin_writer_dvle_place dvle[SHBIN_WRITER_MAX_DVLES];
};

/** Builds the file; false on OOM or more than SHBIN_WRITER_MAX_DVLES DVLEs. */
bool shbin_writer_build(const struct shbin_writer_program *program,
                        struct shbin_writer_file *file);

/** Frees the bytes; NULL-safe. */
void shbin_writer_free(struct shbin_writer_file *file);

/** Patches a little-endian field of a built file (inside its size). */
void shbin_writer_put_u32(struct shbin_writer_file *file, uint32_t at, uint32_t value);
void shbin_writer_put_u16(struct shbin_writer_file *file, uint32_t at, uint16_t value);
void shbin_writer_put_u8(struct shbin_writer_file *file, uint32_t at, uint8_t value);

#endif
