/* SPDX-License-Identifier: MIT */
/*
 * VBC ("Vega ByteCode", compiled VSL shaders of the Vega engine): the
 * 25-byte header, the reflection sections and the per-stage SPIR-V blobs,
 * decoded into plain C structs (../shared/docs/vbc.md).
 *
 * One call, sb_vbc_parse(), reads a whole file. The result is one
 * allocation tree owned by the returned `struct sb_vbc` and released by
 * sb_vbc_destroy(); nothing in it borrows the caller's bytes (the input is
 * copied) and no decoded structure has a free function of its own.
 *
 * What is an error and what is not: every rule of ../shared/docs/vbc.md §9 and every
 * compiler limit of §8 that a record can break is a format error (the
 * parse fails with the offending field's byte offset). The Vega engine's
 * own load-time rules of §7 -- vertex and fragment stages only, the default
 * table sizes, every binding mapping to an engine binding type -- are NOT
 * format errors: `vslc -T...` legitimately writes other table sizes and the
 * format reserves the tessellation and geometry slots. They are reported as
 * the `engine_*` properties of `struct sb_vbc` instead.
 */
#ifndef SHADERBRIDGE_VBC_H
#define SHADERBRIDGE_VBC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "shaderbridge/result.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Size of the fixed header (../shared/docs/vbc.md §2); the first reflection field follows it. */
#define SB_VBC_HEADER_SIZE 25u
/** The only format version (header byte 3). */
#define SB_VBC_VERSION 1u
/** Number of per-stage slots (header sizes, blobs) and of binding tables. */
#define SB_VBC_STAGE_COUNT 5u
#define SB_VBC_TABLE_COUNT 5u
/** First word of every SPIR-V blob, in file (little-endian) byte order. */
#define SB_VBC_SPIRV_MAGIC 0x07230203u

/* Compiler limits (../shared/docs/vbc.md §8); a file breaking one fails to parse. */
#define SB_VBC_MAX_VERTEX_INPUTS 16u      /**< records and attribute locations 0..15 */
#define SB_VBC_MAX_VERTEX_ARRAY_SIZE 16u  /**< array size of one vertex input */
#define SB_VBC_MAX_FRAGMENT_OUTPUTS 8u    /**< records and color locations 0..7 */
#define SB_VBC_MAX_BINDINGS 32u           /**< records and slots 0..31 */
#define SB_VBC_MAX_SUBPASS_INPUTS 4u      /**< records (input attachment indices 0..3) */
#define SB_VBC_MAX_NAME_LENGTH 32u        /**< bytes of a uniform member name */
#define SB_VBC_MAX_STRUCT_SIZE 1024u      /**< bytes of the uniform or a buffer element */
#define SB_VBC_MAX_ARRAY_SIZE 64u         /**< array size of a uniform member */

/** Header byte 4 (../shared/docs/vbc.md §2); the compiler only writes graphics. */
enum sb_vbc_shader_type {
    SB_VBC_SHADER_TYPE_GRAPHICS = 1, /**< a graphics pipeline's stages */
    SB_VBC_SHADER_TYPE_MAX_ENUM = 0x7fffffff
};

/** Base type of a record (../shared/docs/vbc.md §5.1). */
enum sb_vbc_base_type {
    SB_VBC_BASE_TYPE_VOID = 0,        /**< compiler-internal, never valid in a file */
    SB_VBC_BASE_TYPE_BOOLEAN = 1,     /**< 32-bit boolean (uniform members only) */
    SB_VBC_BASE_TYPE_SIGNED = 2,      /**< 32-bit signed integer */
    SB_VBC_BASE_TYPE_UNSIGNED = 3,    /**< 32-bit unsigned integer */
    SB_VBC_BASE_TYPE_FLOAT = 4,       /**< 32-bit float (the only type with matrices) */
    SB_VBC_BASE_TYPE_SAMPLER = 5,     /**< combined image + sampler */
    SB_VBC_BASE_TYPE_IMAGE = 6,       /**< storage image */
    SB_VBC_BASE_TYPE_RO_BUFFER = 7,   /**< read-only storage buffer */
    SB_VBC_BASE_TYPE_RW_BUFFER = 8,   /**< read/write storage buffer */
    SB_VBC_BASE_TYPE_RO_TEXELS = 9,   /**< uniform texel buffer */
    SB_VBC_BASE_TYPE_RW_TEXELS = 10,  /**< storage texel buffer */
    SB_VBC_BASE_TYPE_SP_INPUT = 11,   /**< compiler-internal, never valid in a file */
    SB_VBC_BASE_TYPE_UNIFORM = 12,    /**< compiler-internal, never valid in a file */
    SB_VBC_BASE_TYPE_STRUCT = 13,     /**< compiler-internal, never valid in a file */
    SB_VBC_BASE_TYPE_MAX_ENUM = 0x7fffffff
};

/** Dimensionality of a texel-like binding (../shared/docs/vbc.md §5.3). */
enum sb_vbc_texel_rank {
    SB_VBC_TEXEL_RANK_1D = 0,
    SB_VBC_TEXEL_RANK_2D = 1,
    SB_VBC_TEXEL_RANK_3D = 2,
    SB_VBC_TEXEL_RANK_1D_ARRAY = 3,
    SB_VBC_TEXEL_RANK_2D_ARRAY = 4,
    SB_VBC_TEXEL_RANK_CUBE = 5,   /**< Sampler or Image (the engine rejects Image Cube) */
    SB_VBC_TEXEL_RANK_BUFFER = 6, /**< ROTexels and RWTexels, and only those */
    SB_VBC_TEXEL_RANK_MAX_ENUM = 0x7fffffff
};

/** Component interpretation of a texel format (../shared/docs/vbc.md §5.4). */
enum sb_vbc_texel_type {
    SB_VBC_TEXEL_TYPE_SIGNED = 0,   /**< signed integer, 4-byte components */
    SB_VBC_TEXEL_TYPE_UNSIGNED = 1, /**< unsigned integer, 4-byte components */
    SB_VBC_TEXEL_TYPE_FLOAT = 2,    /**< 32-bit float */
    SB_VBC_TEXEL_TYPE_UNORM = 3,    /**< unsigned normalised, 1- or 2-byte components */
    SB_VBC_TEXEL_TYPE_SNORM = 4,    /**< signed normalised, 1- or 2-byte components */
    SB_VBC_TEXEL_TYPE_MAX_ENUM = 0x7fffffff
};

/** Index of a stage in the header sizes and the blob order (../shared/docs/vbc.md §1). */
enum sb_vbc_stage {
    SB_VBC_STAGE_VERTEX = 0,
    SB_VBC_STAGE_TESS_CONTROL = 1,
    SB_VBC_STAGE_TESS_EVALUATION = 2,
    SB_VBC_STAGE_GEOMETRY = 3,
    SB_VBC_STAGE_FRAGMENT = 4,
    SB_VBC_STAGE_MAX_ENUM = 0x7fffffff
};

/**
 * Stage mask bits (../shared/docs/vbc.md §5.5). The values equal VkShaderStageFlagBits,
 * so a mask can be passed to Vulkan unchanged; bit (1 << stage) is the stage
 * of that enum sb_vbc_stage index.
 */
enum sb_vbc_stage_bits {
    SB_VBC_STAGE_VERTEX_BIT = 0x01,
    SB_VBC_STAGE_TESS_CONTROL_BIT = 0x02,
    SB_VBC_STAGE_TESS_EVALUATION_BIT = 0x04,
    SB_VBC_STAGE_GEOMETRY_BIT = 0x08,
    SB_VBC_STAGE_FRAGMENT_BIT = 0x10,
    SB_VBC_STAGE_ALL_BITS = 0x1F, /**< every bit a file may use */
    SB_VBC_STAGE_BITS_MAX_ENUM = 0x7fffffff
};

/**
 * The five descriptor tables of set 0 (../shared/docs/vbc.md §5.6, §6): the order of
 * the header's table sizes and the Vulkan binding number inside set 0.
 */
enum sb_vbc_binding_table {
    SB_VBC_TABLE_SAMPLERS = 0, /**< Sampler; default size 8192 */
    SB_VBC_TABLE_IMAGES = 1,   /**< Image; default size 128 */
    SB_VBC_TABLE_BUFFERS = 2,  /**< ROBuffer and RWBuffer; default size 512 */
    SB_VBC_TABLE_ROTEXELS = 3, /**< ROTexels; default size 128 */
    SB_VBC_TABLE_RWTEXELS = 4, /**< RWTexels; default size 128 */
    SB_VBC_BINDING_TABLE_MAX_ENUM = 0x7fffffff
};

/**
 * Vulkan descriptor types a VBC pipeline layout uses (../shared/docs/vbc.md §5.6, §7);
 * the values equal VkDescriptorType's.
 */
enum sb_vbc_descriptor_type {
    SB_VBC_DESCRIPTOR_COMBINED_IMAGE_SAMPLER = 1, /**< set 0 binding 0 */
    SB_VBC_DESCRIPTOR_STORAGE_IMAGE = 3,          /**< set 0 binding 1 */
    SB_VBC_DESCRIPTOR_UNIFORM_TEXEL_BUFFER = 4,   /**< set 0 binding 3 */
    SB_VBC_DESCRIPTOR_STORAGE_TEXEL_BUFFER = 5,   /**< set 0 binding 4 */
    SB_VBC_DESCRIPTOR_STORAGE_BUFFER = 7,         /**< set 0 binding 2 */
    SB_VBC_DESCRIPTOR_UNIFORM_BUFFER_DYNAMIC = 8, /**< set 1 binding 0 (the uniform) */
    SB_VBC_DESCRIPTOR_INPUT_ATTACHMENT = 10,      /**< set 2 bindings 0..n-1 */
    SB_VBC_DESCRIPTOR_TYPE_MAX_ENUM = 0x7fffffff
};

/**
 * The engine's flattened binding type (../shared/docs/vbc.md §5.6), derived from
 * (base type, rank); values 0..14 are the engine's own numbering.
 */
enum sb_vbc_binding_type {
    SB_VBC_BINDING_SAMPLER_1D = 0,
    SB_VBC_BINDING_SAMPLER_2D = 1,
    SB_VBC_BINDING_SAMPLER_3D = 2,
    SB_VBC_BINDING_SAMPLER_1D_ARRAY = 3,
    SB_VBC_BINDING_SAMPLER_2D_ARRAY = 4,
    SB_VBC_BINDING_SAMPLER_CUBE = 5,
    SB_VBC_BINDING_IMAGE_1D = 6,
    SB_VBC_BINDING_IMAGE_2D = 7,
    SB_VBC_BINDING_IMAGE_3D = 8,
    SB_VBC_BINDING_IMAGE_1D_ARRAY = 9,
    SB_VBC_BINDING_IMAGE_2D_ARRAY = 10,
    SB_VBC_BINDING_RO_BUFFER = 11,
    SB_VBC_BINDING_RW_BUFFER = 12,
    SB_VBC_BINDING_RO_TEXELS = 13,
    SB_VBC_BINDING_RW_TEXELS = 14,
    /** Not an engine value: an Image of rank Cube, valid in the format, has none. */
    SB_VBC_BINDING_UNMAPPED = 15,
    SB_VBC_BINDING_TYPE_MAX_ENUM = 0x7fffffff
};

/** The 25-byte header, field by field (../shared/docs/vbc.md §2). */
struct sb_vbc_header {
    uint8_t magic[3];        /**< 'V', 'B', 'C' */
    uint8_t version;         /**< SB_VBC_VERSION */
    uint8_t shader_type;     /**< an enum sb_vbc_shader_type value in the file's byte (always graphics) */
    /** SPIR-V length in 32-bit words per stage, indexed by enum sb_vbc_stage; 0 = absent. */
    uint16_t bytecode_words[SB_VBC_STAGE_COUNT];
    /** Descriptor array length per table, indexed by enum sb_vbc_binding_table. */
    uint16_t table_sizes[SB_VBC_TABLE_COUNT];
};

/**
 * A vertex input or fragment output (../shared/docs/vbc.md §3.1, §3.2). Numeric
 * types are (base type, dims): dims[0] is the vector length or matrix row
 * count, dims[1] the matrix column count (1 for scalars and vectors).
 */
struct sb_vbc_interface_var {
    uint32_t record_offset;          /**< file offset of the 8-byte record */
    uint8_t location;                /**< first attribute location / color attachment index */
    enum sb_vbc_base_type base_type; /**< Signed, Unsigned or Float */
    uint8_t dims[2];                 /**< rows (vector length), columns */
    uint8_t array_size;              /**< 1 when not an array */
    /**
     * Derived (../shared/docs/vbc.md §7): attribute locations the variable consumes,
     * (4 * dims[0] > 16 ? 2 : 1) * dims[1] * array_size; 1 for outputs.
     */
    uint32_t location_count;
};

/** A texel format (../shared/docs/vbc.md §5.4): one of the compiler's 21 formats. */
struct sb_vbc_texel_format {
    enum sb_vbc_texel_type type; /**< component interpretation */
    uint8_t component_size;      /**< bytes per component: 1, 2 or 4 */
    uint8_t component_count;     /**< 1, 2 or 4 */
};

/** A resource binding record (../shared/docs/vbc.md §3.3). */
struct sb_vbc_binding {
    uint32_t record_offset;          /**< file offset of the 8-byte record */
    uint8_t slot;                    /**< binding slot 0..31, unique in the file */
    enum sb_vbc_base_type base_type; /**< Sampler .. RWTexels (5..10) */
    uint16_t stage_mask;             /**< stages using it (sb_vbc_stage_bits); 0 = unused */
    bool is_buffer;                  /**< ROBuffer/RWBuffer: buffer_stride is valid, the texel
                                          fields are not */
    enum sb_vbc_texel_rank rank;     /**< texel-like bindings only */
    struct sb_vbc_texel_format format; /**< texel-like bindings only */
    uint16_t buffer_stride;          /**< buffers only: bytes of one element struct */
    enum sb_vbc_binding_table table; /**< derived: the set-0 table (= binding number) */
    enum sb_vbc_descriptor_type descriptor_type; /**< derived: the table's Vulkan descriptor type */
    enum sb_vbc_binding_type binding_type;       /**< derived: the engine's binding type */
};

/** One member of the uniform struct (../shared/docs/vbc.md §3.4). */
struct sb_vbc_uniform_member {
    uint32_t record_offset;          /**< file offset of the member's name-length byte */
    const char *name;                /**< NUL-terminated copy, owned by the object */
    uint8_t name_length;             /**< 1..SB_VBC_MAX_NAME_LENGTH bytes */
    uint16_t offset;                 /**< byte offset inside the struct */
    enum sb_vbc_base_type base_type; /**< Boolean, Signed, Unsigned or Float */
    uint8_t dims[2];                 /**< rows (vector length), columns */
    uint8_t array_size;              /**< 1 when not an array */
    uint32_t size;                   /**< derived: 4 * dims[0] * dims[1] * array_size bytes */
};

/** The per-shader uniform block (../shared/docs/vbc.md §3.4); meaningful when has_uniform. */
struct sb_vbc_uniform {
    uint32_t record_offset;          /**< file offset of the u16 size field */
    uint16_t size;                   /**< struct size in bytes (0 = no uniform) */
    uint16_t stage_mask;             /**< stages reading the uniform */
    uint32_t member_count;           /**< entries of `members` */
    const struct sb_vbc_uniform_member *members; /**< in file order; owned by the object */
};

/** A subpass input (input attachment) record (../shared/docs/vbc.md §3.5). */
struct sb_vbc_subpass_input {
    uint32_t record_offset;       /**< file offset of the 4-byte record */
    uint32_t index;               /**< input attachment index = record position */
    enum sb_vbc_texel_type texel_type; /**< Signed, Unsigned or Float */
    uint8_t component_count;      /**< always 4 */
};

/** One stage's SPIR-V module inside the file (../shared/docs/vbc.md §4). */
struct sb_vbc_spirv {
    enum sb_vbc_stage stage; /**< which stage */
    uint32_t offset;         /**< file offset of the first byte */
    uint32_t word_count;     /**< the header's size for the stage */
    uint32_t size;           /**< word_count * 4 bytes */
    /**
     * The module's bytes inside the object's copy of the input. Only
     * byte-aligned: copy to 4-byte-aligned memory before reading words or
     * calling vkCreateShaderModule.
     */
    const uint8_t *bytes;
};

/** A parsed VBC file. */
struct sb_vbc {
    struct sb_vbc_header header;     /**< the header as stored */
    uint32_t stage_mask;             /**< derived: bit per stage with a non-zero size */

    uint32_t vertex_input_count;     /**< entries of vertex_inputs (<= 16) */
    const struct sb_vbc_interface_var *vertex_inputs;   /**< file (declaration) order */
    uint32_t fragment_output_count;  /**< entries of fragment_outputs (<= 8) */
    const struct sb_vbc_interface_var *fragment_outputs; /**< file order */
    uint32_t binding_count;          /**< entries of bindings (<= 32) */
    const struct sb_vbc_binding *bindings;              /**< file order */
    bool has_uniform;                /**< the uniform size is non-zero */
    struct sb_vbc_uniform uniform;   /**< zero members when !has_uniform */
    uint32_t subpass_input_count;    /**< entries of subpass_inputs (<= 4) */
    const struct sb_vbc_subpass_input *subpass_inputs;  /**< index order */
    uint32_t spirv_count;            /**< entries of spirv: present stages */
    const struct sb_vbc_spirv *spirv; /**< in stage order; owned by the object */

    /* Derived values a runtime needs (../shared/docs/vbc.md §6, §7). */
    uint32_t binding_slot_mask;      /**< bit per declared slot */
    uint32_t vertex_location_mask;   /**< bit per attribute location consumed by an input */
    /** Push-constant bytes, ((max slot + 2) / 2) * 4; 0 without bindings. */
    uint32_t push_constant_size;

    /* The engine's load-time rules (§7): properties, not format errors. */
    bool engine_stages;              /**< vertex and fragment present, no tesc/tese/geom */
    bool engine_default_tables;      /**< every table size equals its default */
    bool engine_binding_types;       /**< every binding maps to an engine binding type */
    bool engine_loadable;            /**< all three above: the Vega engine would load it */

    size_t size;                     /**< bytes of the input */
    const uint8_t *bytes;            /**< the object's own copy of the input */
};

/**
 * Parses a VBC file.
 *
 * @param data  the file bytes (not retained; copied)
 * @param size  their length
 * @param out   receives the new object on success, NULL on failure; free it
 *              with sb_vbc_destroy()
 * @param error optional; receives code, byte offset of the offending field
 *              and a message on failure
 * @return SB_SUCCESS, or a negative code: SB_ERROR_TRUNCATED (a field or
 *         record array runs past the end), SB_ERROR_BAD_MAGIC (header or a
 *         SPIR-V blob), SB_ERROR_BAD_VERSION, SB_ERROR_BAD_COUNT (a count
 *         over its compiler limit), SB_ERROR_BAD_VALUE (an enumerant,
 *         location, slot, dimension or stage mask out of range or
 *         inconsistent), SB_ERROR_BAD_SIZE (uniform/stride/blob sizes, the
 *         48-byte subpass records of the buggy vslc writer),
 *         SB_ERROR_BAD_OFFSET (a uniform member outside its struct),
 *         SB_ERROR_BAD_STRING (a member name), SB_ERROR_DUPLICATE (a slot or
 *         location used twice), SB_ERROR_TRAILING_DATA (bytes after the last
 *         blob), SB_ERROR_INVALID_ARGUMENT, SB_ERROR_OUT_OF_MEMORY
 */
SB_API enum sb_result sb_vbc_parse(const void *data, size_t size, struct sb_vbc **out,
                            struct sb_error *error);

/** Frees a parsed file and everything decoded from it; NULL is a no-op. */
SB_API void sb_vbc_destroy(struct sb_vbc *object);

/** The SPIR-V slice of `stage`, or NULL when the stage is absent (NULL-safe). */
SB_API const struct sb_vbc_spirv *sb_vbc_find_spirv(const struct sb_vbc *vbc, enum sb_vbc_stage stage);

/** The default size of a table in the Vega engine (8192, 128, 512, 128, 128); 0 if unknown. */
SB_API uint32_t sb_vbc_table_default_size(enum sb_vbc_binding_table table);

/*
 * Names. Each returns a static string (never free it) and "unknown" for a
 * value outside its enum.
 */

/** "graphics". */
SB_API const char *sb_vbc_shader_type_name(enum sb_vbc_shader_type type);
/** The doc's names: "void", "boolean", "signed", ..., "ro_buffer", "rw_texels", "struct". */
SB_API const char *sb_vbc_base_type_name(enum sb_vbc_base_type type);
/** "1d", "2d", "3d", "1d_array", "2d_array", "cube", "buffer". */
SB_API const char *sb_vbc_texel_rank_name(enum sb_vbc_texel_rank rank);
/** "signed", "unsigned", "float", "unorm", "snorm". */
SB_API const char *sb_vbc_texel_type_name(enum sb_vbc_texel_type type);
/** vslc's short stage names: "vert", "tesc", "tese", "geom", "frag". */
SB_API const char *sb_vbc_stage_name(enum sb_vbc_stage stage);
/** The name of a single stage bit ("vert" for 0x01 ...); "unknown" for anything else. */
SB_API const char *sb_vbc_stage_bit_name(uint32_t bit);
/** vslc's -T names: "samplers", "images", "buffers", "rotexels", "rwtexels". */
SB_API const char *sb_vbc_binding_table_name(enum sb_vbc_binding_table table);
/** Vulkan's names without prefix: "COMBINED_IMAGE_SAMPLER", "STORAGE_BUFFER", ... */
SB_API const char *sb_vbc_descriptor_type_name(enum sb_vbc_descriptor_type type);
/** The engine's names: "Sampler1D", ..., "RWTexels"; "unmapped" for SB_VBC_BINDING_UNMAPPED. */
SB_API const char *sb_vbc_binding_type_name(enum sb_vbc_binding_type type);
/**
 * VSL's name of a texel format ("float4", "u8norm2", "s16norm"), or NULL
 * when (type, size, count) is none of the compiler's 21 formats.
 */
SB_API const char *sb_vbc_texel_format_name(const struct sb_vbc_texel_format *format);

#ifdef __cplusplus
}
#endif

#endif
