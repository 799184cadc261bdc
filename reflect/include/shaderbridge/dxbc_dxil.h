/* SPDX-License-Identifier: MIT */
/*
 * DXC-era DirectX Container parts, decoded (../shared/docs/dxcontainer.md §2, §3,
 * §6–§9, §14):
 *
 *   DXIL ILDB, DXC's STAT  -> struct sb_dxbc_program (part->decoded.program)
 *   HASH                   -> struct sb_dxbc_hash    (part->decoded.hash)
 *   PSV0                   -> struct sb_dxbc_psv0    (part->decoded.psv0)
 *   RTS0                   -> struct sb_dxbc_rts0    (part->decoded.rts0)
 *   VERS                   -> struct sb_dxbc_vers    (part->decoded.vers)
 *   ILDN                   -> struct sb_dxbc_ildn    (part->decoded.ildn)
 *   SRCI                   -> struct sb_dxbc_srci    (part->decoded.srci)
 *   SYM0 / STR0 (proposal) -> struct sb_dxbc_sym0 / sb_dxbc_str0
 *
 * A STAT part is a program (decoded.program) exactly when its bytes 8..11
 * are 'DXIL'; otherwise it is FXC's statistics (decoded.stat, dxbc_fxc.h).
 *
 * Ownership: every pointer in these structs (arrays, strings, byte ranges)
 * points into the allocation tree of the `struct sb_dxbc` they came from and
 * lives until sb_dxbc_destroy(); none has a free function of its own.
 * Strings are NUL-terminated and were checked to end inside their record.
 * Arrays have a `*_count` beside them; a pointer may be NULL only when its
 * count is 0.
 *
 * Numeric fields keep the raw value from the file even where an enum
 * exists, so unknown values survive; every *_name() function returns a
 * static string, or NULL for a value it does not know.
 */
#ifndef SHADERBRIDGE_DXBC_DXIL_H
#define SHADERBRIDGE_DXBC_DXIL_H

#include "shaderbridge/dxbc.h"
#include "shaderbridge/dxbc_fxc.h" /* sb_dxbc_component_type_name, shared with signatures */

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------ */
/* Program header: DXIL, ILDB, DXC STAT (§2)                                */
/* ------------------------------------------------------------------------ */

/** Size of the program header that precedes the bitcode. */
#define SB_DXBC_PROGRAM_HEADER_SIZE 24u

/** DXIL::ShaderKind (also PSV0's ShaderStage). */
enum sb_dxil_shader_kind {
    SB_DXIL_SHADER_KIND_PIXEL = 0,
    SB_DXIL_SHADER_KIND_VERTEX = 1,
    SB_DXIL_SHADER_KIND_GEOMETRY = 2,
    SB_DXIL_SHADER_KIND_HULL = 3,
    SB_DXIL_SHADER_KIND_DOMAIN = 4,
    SB_DXIL_SHADER_KIND_COMPUTE = 5,
    SB_DXIL_SHADER_KIND_LIBRARY = 6,
    SB_DXIL_SHADER_KIND_RAY_GENERATION = 7,
    SB_DXIL_SHADER_KIND_INTERSECTION = 8,
    SB_DXIL_SHADER_KIND_ANY_HIT = 9,
    SB_DXIL_SHADER_KIND_CLOSEST_HIT = 10,
    SB_DXIL_SHADER_KIND_MISS = 11,
    SB_DXIL_SHADER_KIND_CALLABLE = 12,
    SB_DXIL_SHADER_KIND_MESH = 13,
    SB_DXIL_SHADER_KIND_AMPLIFICATION = 14,
    SB_DXIL_SHADER_KIND_NODE = 15,    /**< work-graph node (DXC) */
    SB_DXIL_SHADER_KIND_INVALID = 16,
    SB_DXIL_SHADER_KIND_MAX_ENUM = 0x7fffffff
};

/** "Pixel", "Vertex", ... "Node", "Invalid" for 0..16; NULL otherwise. */
SB_API const char *sb_dxil_shader_kind_name(uint32_t kind);

/** A program part: the 24-byte header and where its bitcode lies. */
struct sb_dxbc_program {
    uint8_t major_version;       /**< shader model major (high nibble of byte 0) */
    uint8_t minor_version;       /**< shader model minor (low nibble of byte 0) */
    uint16_t shader_kind;        /**< an enum sb_dxil_shader_kind value, kept in the 16 bits the file stores */
    uint32_t size_in_words;      /**< program size in 32-bit words, header included;
                                      never more than the part holds */
    uint32_t dxil_magic;         /**< 'DXIL' (checked) */
    uint8_t dxil_major_version;  /**< DXIL version major (byte 13) */
    uint8_t dxil_minor_version;  /**< DXIL version minor (byte 12) */
    uint32_t bitcode_offset;     /**< from the magic (part offset 8); at least 16 */
    uint32_t bitcode_size;       /**< bitcode bytes (inside the part, checked) */
    uint32_t bitcode_file_offset; /**< absolute file offset of the bitcode */
    const uint8_t *bitcode;      /**< bitcode_size bytes inside the container's copy */
    bool bitcode_is_wrapped;     /**< the bitcode starts with 'B' 'C' 0xC0 0xDE */
};

/* ------------------------------------------------------------------------ */
/* HASH (§3)                                                                */
/* ------------------------------------------------------------------------ */

/** HASH flag bit 0: the digest also covers the source (-Zss). */
#define SB_DXBC_HASH_FLAG_INCLUDES_SOURCE 0x1u

/** The shader hash part. */
struct sb_dxbc_hash {
    uint32_t flags;          /**< raw flags */
    bool includes_source;    /**< flags & SB_DXBC_HASH_FLAG_INCLUDES_SOURCE */
    uint8_t digest[16];      /**< the MD5-based shader hash */
};

/* ------------------------------------------------------------------------ */
/* PSV0 (§6)                                                                */
/* ------------------------------------------------------------------------ */

/** RuntimeInfo sizes of the known PSV0 layouts (v0..v4). */
#define SB_DXBC_PSV0_RUNTIME_INFO_V0_SIZE 24u
#define SB_DXBC_PSV0_RUNTIME_INFO_V1_SIZE 36u
#define SB_DXBC_PSV0_RUNTIME_INFO_V2_SIZE 48u
#define SB_DXBC_PSV0_RUNTIME_INFO_V3_SIZE 52u
#define SB_DXBC_PSV0_RUNTIME_INFO_V4_SIZE 56u
/** Resource bind-info sizes: v0/v1 and v2+. */
#define SB_DXBC_PSV0_RESOURCE_V0_SIZE 16u
#define SB_DXBC_PSV0_RESOURCE_V2_SIZE 24u
/** Signature element size. */
#define SB_DXBC_PSV0_ELEMENT_SIZE 16u

/** Which member of sb_dxbc_psv0_runtime_info::stage is valid. */
enum sb_dxbc_psv0_stage_layout {
    SB_DXBC_PSV0_STAGE_RAW = 0,      /**< stage unknown: only `stage_raw` holds data */
    SB_DXBC_PSV0_STAGE_NONE,         /**< compute, library, ray tracing, node: union unused */
    SB_DXBC_PSV0_STAGE_VERTEX,
    SB_DXBC_PSV0_STAGE_HULL,
    SB_DXBC_PSV0_STAGE_DOMAIN,
    SB_DXBC_PSV0_STAGE_GEOMETRY,
    SB_DXBC_PSV0_STAGE_PIXEL,
    SB_DXBC_PSV0_STAGE_MESH,
    SB_DXBC_PSV0_STAGE_AMPLIFICATION,
    SB_DXBC_PSV0_STAGE_LAYOUT_MAX_ENUM = 0x7fffffff
};

/** The 16-byte stage-specific union of RuntimeInfo v0, interpreted. */
union sb_dxbc_psv0_stage_info {
    struct {
        uint8_t output_position_present; /**< SV_Position written */
    } vs;                                /**< vertex */
    struct {
        uint32_t input_control_point_count;
        uint32_t output_control_point_count;
        uint32_t tessellator_domain;           /**< 0 undefined, 1 isoline, 2 tri, 3 quad */
        uint32_t tessellator_output_primitive; /**< 0 undefined, 1 point, 2 line, 3 tri cw, 4 ccw */
    } hs;                                      /**< hull */
    struct {
        uint32_t input_control_point_count;
        uint8_t output_position_present;
        uint32_t tessellator_domain;
    } ds;                                /**< domain */
    struct {
        uint32_t input_primitive;        /**< D3D primitive code */
        uint32_t output_topology;        /**< D3D topology code */
        uint32_t output_stream_mask;     /**< bit i: stream i used */
        uint8_t output_position_present;
    } gs;                                /**< geometry */
    struct {
        uint8_t depth_output;            /**< writes depth */
        uint8_t sample_frequency;        /**< runs per sample */
    } ps;                                /**< pixel */
    struct {
        uint32_t group_shared_bytes_used;
        uint32_t group_shared_bytes_dependent_on_view_id;
        uint32_t payload_size_in_bytes;
        uint16_t max_output_vertices;
        uint16_t max_output_primitives;
    } ms;                                /**< mesh */
    struct {
        uint32_t payload_size_in_bytes;
    } as;                                /**< amplification */
};

/** RuntimeInfo v0..v4; fields of versions above `version` are zero. */
struct sb_dxbc_psv0_runtime_info {
    uint32_t size;          /**< the declared RuntimeInfo size */
    uint32_t version;       /**< largest known layout that fits: 0..4 */
    /** Shader kind used to interpret the stage fields: the DXIL program's kind,
     *  else v1 ShaderStage; SB_DXIL_SHADER_KIND_INVALID when neither exists. */
    uint32_t stage_kind;
    enum sb_dxbc_psv0_stage_layout stage_layout; /**< which member of `stage` is valid */
    uint8_t stage_raw[16];  /**< the union's bytes as stored */
    union sb_dxbc_psv0_stage_info stage; /**< interpreted by stage_layout */
    uint32_t min_wave_lane_count; /**< 0 = unused */
    uint32_t max_wave_lane_count; /**< 0xFFFFFFFF = unused */
    /* v1 */
    uint8_t shader_stage;   /**< ShaderStage byte (enum sb_dxil_shader_kind) */
    uint8_t uses_view_id;
    uint16_t stage_union1_raw;  /**< bytes 26..27 as stored */
    uint16_t max_vertex_count;  /**< geometry: bytes 26..27 */
    uint8_t sig_patch_const_or_prim_vectors; /**< hull/domain/mesh: byte 26 (mesh: SigPrimVectors) */
    uint8_t mesh_output_topology; /**< mesh: byte 27 (0 undefined, 1 line, 2 triangle) */
    uint8_t sig_input_elements;
    uint8_t sig_output_elements;
    uint8_t sig_patch_const_or_prim_elements;
    uint8_t sig_input_vectors;
    uint8_t sig_output_vectors[4]; /**< per stream */
    /* v2 */
    uint32_t num_threads_x;
    uint32_t num_threads_y;
    uint32_t num_threads_z;
    /* v3 */
    uint32_t entry_function_name_offset; /**< string-table offset */
    const char *entry_function_name;     /**< NULL below v3 */
    /* v4 (DXC) */
    uint32_t num_bytes_group_shared_memory;
};

/** PSV resource type (ResType). */
enum sb_dxbc_psv0_resource_type {
    SB_DXBC_PSV0_RESOURCE_INVALID = 0,
    SB_DXBC_PSV0_RESOURCE_SAMPLER = 1,
    SB_DXBC_PSV0_RESOURCE_CBV = 2,
    SB_DXBC_PSV0_RESOURCE_SRV_TYPED = 3,
    SB_DXBC_PSV0_RESOURCE_SRV_RAW = 4,
    SB_DXBC_PSV0_RESOURCE_SRV_STRUCTURED = 5,
    SB_DXBC_PSV0_RESOURCE_UAV_TYPED = 6,
    SB_DXBC_PSV0_RESOURCE_UAV_RAW = 7,
    SB_DXBC_PSV0_RESOURCE_UAV_STRUCTURED = 8,
    SB_DXBC_PSV0_RESOURCE_UAV_STRUCTURED_WITH_COUNTER = 9,
    SB_DXBC_PSV0_RESOURCE_TYPE_MAX_ENUM = 0x7fffffff
};

/** PSV resource flag bit 0. */
#define SB_DXBC_PSV0_RESOURCE_FLAG_USED_BY_ATOMIC64 0x1u

/** One resource binding (16-byte v0 or 24-byte v2 record). */
struct sb_dxbc_psv0_resource {
    uint32_t type;        /**< an enum sb_dxbc_psv0_resource_type value as the file stores it (any 32 bits: kept raw) */
    uint32_t space;       /**< register space */
    uint32_t lower_bound; /**< first register */
    uint32_t upper_bound; /**< last register, inclusive (0xFFFFFFFF unbounded) */
    uint32_t kind;        /**< resource kind (sb_dxbc_psv0_resource_kind_name); 0 in 16-byte form */
    uint32_t flags;       /**< SB_DXBC_PSV0_RESOURCE_FLAG_*; 0 in 16-byte form */
};

/** One PSV signature element (16 bytes). */
struct sb_dxbc_psv0_element {
    uint32_t name_offset;        /**< string-table offset */
    const char *name;            /**< semantic name ("" for most system values) */
    uint32_t semantic_indexes_offset; /**< first entry in the semantic-index table */
    const uint32_t *semantic_indexes; /**< `rows` entries of that table */
    uint8_t rows;
    uint8_t start_row;           /**< meaningful when allocated */
    uint8_t cols;                /**< byte 10 bits 0..3 */
    uint8_t start_col;           /**< byte 10 bits 4..5 */
    bool allocated;              /**< byte 10 bit 6 */
    uint8_t semantic_kind;       /**< sb_dxbc_psv0_semantic_kind_name */
    uint8_t component_type;      /**< sb_dxbc_component_type_name (dxbc_fxc.h): one table for signatures and PSV0 */
    uint8_t interpolation_mode;  /**< sb_dxbc_psv0_interpolation_mode_name */
    uint8_t dynamic_index_mask;  /**< byte 14 bits 0..3 */
    uint8_t output_stream;       /**< byte 14 bits 4..5 */
};

/** A bit table (ViewID masks, dependency maps) as stored: dword_count u32 words. */
struct sb_dxbc_psv0_bitset {
    bool present;                /**< the table is in the part */
    uint32_t dword_count;
    const uint32_t *dwords;
};

/** Decoded PSV0 part. */
struct sb_dxbc_psv0 {
    struct sb_dxbc_psv0_runtime_info info;
    uint32_t resource_count;
    /** Bind-info record size as stored; when there are no resources (no size field)
     *  the size implied by the version: 16 below v2, 24 from v2. */
    uint32_t resource_stride;
    bool resource_stride_stored; /**< the size came from the part */
    const struct sb_dxbc_psv0_resource *resources;
    /* Tables below exist only for RuntimeInfo v1+. */
    uint32_t string_table_size;  /**< bytes (multiple of 4, last byte NUL) */
    const char *string_table;    /**< string_table_size bytes inside the part */
    uint32_t semantic_index_count;
    const uint32_t *semantic_index_table;
    uint32_t element_size;       /**< as stored; 0 when no elements */
    uint32_t input_element_count;
    const struct sb_dxbc_psv0_element *input_elements;
    uint32_t output_element_count;
    const struct sb_dxbc_psv0_element *output_elements;
    uint32_t patch_const_or_prim_element_count;
    const struct sb_dxbc_psv0_element *patch_const_or_prim_elements;
    struct sb_dxbc_psv0_bitset view_id_output_masks[4];   /**< per stream */
    struct sb_dxbc_psv0_bitset view_id_patch_const_or_prim_mask; /**< hull / mesh */
    struct sb_dxbc_psv0_bitset input_to_output[4];        /**< per stream */
    struct sb_dxbc_psv0_bitset input_to_patch_const;      /**< hull */
    struct sb_dxbc_psv0_bitset patch_const_to_output;     /**< domain */
    uint32_t trailing_bytes;     /**< bytes after the last table (yaml2obj padding) */
};

/** Names of the PSV0 enums (LLVM/DXC spellings); NULL for unknown values. */
SB_API const char *sb_dxbc_psv0_resource_type_name(uint32_t type);
SB_API const char *sb_dxbc_psv0_resource_kind_name(uint32_t kind);
SB_API const char *sb_dxbc_psv0_semantic_kind_name(uint32_t kind);
SB_API const char *sb_dxbc_psv0_interpolation_mode_name(uint32_t mode);
SB_API const char *sb_dxbc_psv0_stage_layout_name(enum sb_dxbc_psv0_stage_layout layout);

/* ------------------------------------------------------------------------ */
/* RTS0 (§7)                                                                */
/* ------------------------------------------------------------------------ */

/** Root parameter types. */
enum sb_dxbc_rts0_parameter_type {
    SB_DXBC_RTS0_PARAMETER_DESCRIPTOR_TABLE = 0,
    SB_DXBC_RTS0_PARAMETER_CONSTANTS_32BIT = 1,
    SB_DXBC_RTS0_PARAMETER_CBV = 2,
    SB_DXBC_RTS0_PARAMETER_SRV = 3,
    SB_DXBC_RTS0_PARAMETER_UAV = 4,
    SB_DXBC_RTS0_PARAMETER_TYPE_MAX_ENUM = 0x7fffffff
};

/** One descriptor range (20 bytes in 1.0, 24 from 1.1). */
struct sb_dxbc_rts0_range {
    uint32_t range_type;          /**< 0 SRV, 1 UAV, 2 CBV, 3 Sampler */
    uint32_t num_descriptors;     /**< 0xFFFFFFFF = unbounded */
    uint32_t base_shader_register;
    uint32_t register_space;
    uint32_t flags;               /**< descriptor range flags (1.1+; 0 in 1.0) */
    uint32_t offset_in_descriptors_from_table_start; /**< 0xFFFFFFFF = append */
};

/** One root parameter with its payload. */
struct sb_dxbc_rts0_parameter {
    uint32_t parameter_type;      /**< an enum sb_dxbc_rts0_parameter_type value as the file stores it (kept raw) */
    uint32_t shader_visibility;   /**< sb_dxbc_rts0_shader_visibility_name */
    uint32_t payload_offset;      /**< RTS0-relative offset of the payload */
    /** Constants32Bit payload. */
    struct {
        uint32_t shader_register;
        uint32_t register_space;
        uint32_t num_32bit_values;
    } constants;
    /** CBV/SRV/UAV root descriptor payload. */
    struct {
        uint32_t shader_register;
        uint32_t register_space;
        uint32_t flags;           /**< root descriptor flags (1.1+; 0 in 1.0) */
    } descriptor;
    /** Descriptor table payload. */
    struct {
        uint32_t range_count;
        uint32_t ranges_offset;   /**< RTS0-relative */
        const struct sb_dxbc_rts0_range *ranges;
    } table;
};

/** One static sampler (52 bytes; 56 with flags from 1.2). */
struct sb_dxbc_rts0_static_sampler {
    uint32_t filter;              /**< D3D12_FILTER */
    uint32_t address_u;           /**< texture address mode */
    uint32_t address_v;
    uint32_t address_w;
    float mip_lod_bias;
    uint32_t max_anisotropy;
    uint32_t comparison_func;
    uint32_t border_color;
    float min_lod;
    float max_lod;
    uint32_t shader_register;
    uint32_t register_space;
    uint32_t shader_visibility;
    uint32_t flags;               /**< static sampler flags (1.2; 0 before) */
};

/** Decoded root signature. */
struct sb_dxbc_rts0 {
    uint32_t version;             /**< 1 = 1.0, 2 = 1.1, 3 = 1.2 */
    uint32_t parameter_count;
    uint32_t parameters_offset;
    uint32_t static_sampler_count;
    uint32_t static_samplers_offset;
    uint32_t flags;               /**< root signature flags */
    const struct sb_dxbc_rts0_parameter *parameters;
    const struct sb_dxbc_rts0_static_sampler *static_samplers;
};

/** RTS0 enum names (LLVM/D3D12 spellings); NULL for unknown values. */
SB_API const char *sb_dxbc_rts0_parameter_type_name(uint32_t type);
SB_API const char *sb_dxbc_rts0_shader_visibility_name(uint32_t visibility);
SB_API const char *sb_dxbc_rts0_range_type_name(uint32_t type);
SB_API const char *sb_dxbc_rts0_filter_name(uint32_t filter);
SB_API const char *sb_dxbc_rts0_address_mode_name(uint32_t mode);
SB_API const char *sb_dxbc_rts0_comparison_func_name(uint32_t func);
SB_API const char *sb_dxbc_rts0_border_color_name(uint32_t color);
/** Flag names by bit index (0..31); NULL for bits without a name. */
SB_API const char *sb_dxbc_rts0_root_flag_name(unsigned bit);
SB_API const char *sb_dxbc_rts0_descriptor_flag_name(unsigned bit);
SB_API const char *sb_dxbc_rts0_range_flag_name(unsigned bit);
SB_API const char *sb_dxbc_rts0_sampler_flag_name(unsigned bit);

/* ------------------------------------------------------------------------ */
/* VERS (§8), ILDN (§9)                                                     */
/* ------------------------------------------------------------------------ */

#define SB_DXBC_VERS_FLAG_DEBUG 0x1u    /**< compiler is a debug build */
#define SB_DXBC_VERS_FLAG_INTERNAL 0x2u /**< internal (non-signing) validator */

/** Compiler version. */
struct sb_dxbc_vers {
    uint16_t major;
    uint16_t minor;
    uint32_t flags;               /**< SB_DXBC_VERS_FLAG_* */
    uint32_t commit_count;
    uint32_t content_size;        /**< bytes of the strings that follow */
    const char *commit_sha;       /**< first string; NULL when content is empty */
    const char *custom_version;   /**< second string; NULL when absent */
};

/** Debug (PDB) name. */
struct sb_dxbc_ildn {
    uint16_t flags;
    uint16_t name_length;         /**< without terminator */
    const char *name;             /**< name_length bytes + NUL (checked) */
};

/* ------------------------------------------------------------------------ */
/* SRCI (§9)                                                                */
/* ------------------------------------------------------------------------ */

/** SRCI section types. */
enum sb_dxbc_srci_section_type {
    SB_DXBC_SRCI_SOURCE_CONTENTS = 0,
    SB_DXBC_SRCI_SOURCE_NAMES = 1,
    SB_DXBC_SRCI_ARGS = 2,
    SB_DXBC_SRCI_SECTION_TYPE_MAX_ENUM = 0x7fffffff
};

/** SourceContents compression. */
enum sb_dxbc_srci_compression {
    SB_DXBC_SRCI_COMPRESSION_NONE = 0,
    SB_DXBC_SRCI_COMPRESSION_ZLIB = 1,
    SB_DXBC_SRCI_COMPRESSION_MAX_ENUM = 0x7fffffff
};

/** One SourceNames entry. */
struct sb_dxbc_srci_name {
    uint32_t aligned_size;
    uint32_t flags;
    uint32_t name_size;           /**< including the NUL */
    uint32_t content_size;        /**< size of the matching content, including NUL */
    const char *name;
};

/** One SourceContents entry (only when not compressed). */
struct sb_dxbc_srci_content {
    uint32_t aligned_size;
    uint32_t flags;
    uint32_t content_size;        /**< including the NUL */
    const char *content;
};

/** One argument pair. */
struct sb_dxbc_srci_arg {
    const char *name;             /**< "T", "E", ... */
    const char *value;            /**< may be "" */
};

/** One section header (any type, known or not). */
struct sb_dxbc_srci_section {
    uint32_t aligned_size;        /**< section bytes, header included */
    uint16_t flags;
    uint16_t type;                /**< an enum sb_dxbc_srci_section_type value, in the file's 16 bits */
    uint32_t offset;              /**< SRCI-relative offset of the section header */
};

/** Decoded source info. */
struct sb_dxbc_srci {
    uint32_t aligned_size;        /**< header: size of the whole part */
    uint16_t flags;
    uint16_t section_count;
    const struct sb_dxbc_srci_section *sections; /**< section_count headers */

    bool has_names;               /**< a SourceNames section was found */
    uint32_t names_flags;
    uint32_t name_count;
    uint16_t names_entries_size;
    const struct sb_dxbc_srci_name *names;

    bool has_contents;            /**< a SourceContents section was found */
    uint32_t contents_aligned_size;
    uint16_t contents_flags;
    uint16_t compression;         /**< an enum sb_dxbc_srci_compression value, in the file's 16 bits */
    uint32_t contents_entries_size;
    uint32_t contents_uncompressed_size;
    uint32_t content_count;       /**< the header's count */
    /** Entries, decoded only when compression is NONE (else content_entry_count is 0). */
    uint32_t content_entry_count;
    const struct sb_dxbc_srci_content *contents;
    const uint8_t *contents_raw;  /**< contents_entries_size raw (maybe compressed) bytes */

    bool has_args;                /**< an Args section was found */
    uint32_t args_flags;
    uint32_t args_size;
    uint32_t arg_count;
    const struct sb_dxbc_srci_arg *args;
};

SB_API const char *sb_dxbc_srci_section_type_name(uint32_t type);
SB_API const char *sb_dxbc_srci_compression_name(uint32_t compression);

/* ------------------------------------------------------------------------ */
/* SYM0 / STR0 (§14, proposal; decoded as proposed)                         */
/* ------------------------------------------------------------------------ */

#define SB_DXBC_SYM0_RECORD_SIZE 20u

/** One symbol. */
struct sb_dxbc_sym0_symbol {
    bool long_name;               /**< name is a STR0 reference */
    char short_name[9];           /**< inline name (up to 8 chars), NUL-terminated */
    uint32_t string_offset;       /**< STR0 offset when long_name */
    /** The name: short_name, or the STR0 string; NULL for a long name when the
     *  container has no STR0 part. */
    const char *name;
    uint32_t value;
    uint32_t section_index;       /**< part index (checked < part count) */
    uint8_t base_type;            /**< 0 = IMAGE_SYM_TYPE_NULL */
    uint8_t complex_type;         /**< 2 = IMAGE_SYM_DTYPE_FUNCTION */
    uint8_t storage_class;        /**< 2 = IMAGE_SYM_CLASS_EXTERNAL */
    uint8_t unused;
};

/** Decoded SYM0. */
struct sb_dxbc_sym0 {
    uint32_t symbol_count;
    const struct sb_dxbc_sym0_symbol *symbols;
};

/** One string of STR0. */
struct sb_dxbc_str0_string {
    uint32_t offset;              /**< from the start of the size field */
    const char *text;
};

/** Decoded STR0. */
struct sb_dxbc_str0 {
    uint32_t size;                /**< declared size, counting the size field */
    uint32_t string_count;
    const struct sb_dxbc_str0_string *strings; /**< in storage order */
    uint32_t trailing_bytes;      /**< padding after `size` */
};

#ifdef __cplusplus
}
#endif

#endif
