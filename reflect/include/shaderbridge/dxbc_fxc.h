/* SPDX-License-Identifier: MIT */
/*
 * FXC-era DirectX Container parts, decoded (../shared/docs/dxcontainer.md §4, §5,
 * §10–§13; ../shared/docs/sm4-tokens.md §1):
 *
 *   RDEF                 -> struct sb_dxbc_rdef          (part->decoded.rdef)
 *   ISGN OSGN OSG5 PCSG
 *   ISG1 OSG1 PSG1       -> struct sb_dxbc_signature     (part->decoded.signature)
 *   SHDR SHEX            -> struct sb_dxbc_shader_header (part->decoded.shader)
 *   STAT (FXC form)      -> struct sb_dxbc_stat          (part->decoded.stat)
 *   SFI0                 -> struct sb_dxbc_sfi0          (part->decoded.sfi0)
 *   IFCE                 -> struct sb_dxbc_ifce          (part->decoded.ifce)
 *
 * Ownership: every pointer in these structs (arrays, strings, byte ranges)
 * points into the allocation tree of the `struct sb_dxbc` they came from and
 * lives until sb_dxbc_destroy(); none has a free function of its own. Strings
 * are NUL-terminated and were checked to end inside their part.
 *
 * Arrays follow the Vulkan shape: a `*_count` beside each pointer; a pointer
 * may be NULL only when its count is 0.
 *
 * Numeric fields keep the raw value from the file even where an enum exists,
 * so an unknown value survives; the *_name() functions return NULL for values
 * they do not know. Every name string is static; never free it.
 */
#ifndef SHADERBRIDGE_DXBC_FXC_H
#define SHADERBRIDGE_DXBC_FXC_H

#include "shaderbridge/dxbc.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------ */
/* Program type (SHDR/SHEX version token, RDEF target)                      */
/* ------------------------------------------------------------------------ */

/** Shader stage as numbered in the SHDR/SHEX version token (sm4-tokens.md §1). */
enum sb_dxbc_program_type {
    SB_DXBC_PROGRAM_PIXEL = 0,    /**< "ps" */
    SB_DXBC_PROGRAM_VERTEX = 1,   /**< "vs" */
    SB_DXBC_PROGRAM_GEOMETRY = 2, /**< "gs" */
    SB_DXBC_PROGRAM_HULL = 3,     /**< "hs" */
    SB_DXBC_PROGRAM_DOMAIN = 4,   /**< "ds" */
    SB_DXBC_PROGRAM_COMPUTE = 5,  /**< "cs" */
    SB_DXBC_PROGRAM_UNKNOWN = 0xffff, /**< an RDEF target type this library does not know */
    SB_DXBC_PROGRAM_TYPE_MAX_ENUM = 0x7fffffff
};

/** Short stage name ("ps", "vs", "gs", "hs", "ds", "cs"), or NULL for other values. */
SB_API const char *sb_dxbc_program_type_name(uint32_t program_type);

/* ------------------------------------------------------------------------ */
/* RDEF (§12)                                                               */
/* ------------------------------------------------------------------------ */

/** RDEF descriptor sizes of the SM4.x header (no size fields) and the SM5 minimums. */
#define SB_DXBC_RDEF_SM4_HEADER_SIZE 28u
#define SB_DXBC_RDEF_SM5_HEADER_SIZE 60u
/** RDEF magic of SM 5.0 ('RD11'). */
#define SB_DXBC_RDEF_MAGIC_SM50 0x31314452u
/** RDEF magic of SM 5.1 (bytes 13 13 44 25). */
#define SB_DXBC_RDEF_MAGIC_SM51 0x25441313u
/** Deepest type nesting the decoder follows before failing with SB_ERROR_BAD_COUNT. */
#define SB_DXBC_RDEF_MAX_TYPE_DEPTH 64u

struct sb_dxbc_rdef_type;

/** One member of a struct type (12-byte member descriptor). */
struct sb_dxbc_rdef_member {
    const char *name;                     /**< member name */
    uint32_t byte_offset;                 /**< offset of the member within its parent */
    uint32_t type_offset;                 /**< RDEF-relative offset of its type descriptor */
    uint32_t type_index;                  /**< index of its type in sb_dxbc_rdef::types */
    const struct sb_dxbc_rdef_type *type; /**< the member's type (&rdef->types[type_index]) */
};

/**
 * A type descriptor (16 bytes SM4.x, 36 SM5). Types are identified by their
 * offset: two variables that name the same offset share one entry of
 * sb_dxbc_rdef::types, so the tree is a DAG; the decoder rejects cycles.
 */
struct sb_dxbc_rdef_type {
    uint32_t offset;          /**< RDEF-relative offset of the descriptor (its identity) */
    uint16_t variable_class;  /**< D3D_SHADER_VARIABLE_CLASS (sb_dxbc_variable_class_name) */
    uint16_t variable_type;   /**< D3D_SHADER_VARIABLE_TYPE (sb_dxbc_variable_type_name) */
    uint16_t rows;            /**< matrix rows (1 for scalars and vectors) */
    uint16_t columns;         /**< components per row */
    uint16_t elements;        /**< array length; 0 when not an array */
    uint16_t member_count;    /**< number of entries in `members` */
    uint32_t member_offset;   /**< RDEF-relative offset of the member descriptors */
    /** The four u32 words between the member offset and the type name in an SM5
     *  descriptor (subtype / base class / interface data; meaning not established,
     *  §12); zero for SM4.x. */
    uint32_t sm5_words[4];
    uint32_t name_offset;     /**< SM5 type-name offset; 0 when none or SM4.x */
    const char *name;         /**< SM5 type name ("float4x4"); NULL when name_offset is 0 */
    const struct sb_dxbc_rdef_member *members; /**< member_count struct members */
};

/** A variable of a constant buffer (24-byte SM4.x, 40-byte SM5 descriptor). */
struct sb_dxbc_rdef_variable {
    const char *name;             /**< variable name */
    uint32_t start_offset;        /**< byte offset inside the constant buffer */
    uint32_t size;                /**< byte size */
    uint32_t flags;               /**< D3D_SHADER_VARIABLE_FLAGS (sb_dxbc_variable_flag_name) */
    uint32_t type_offset;         /**< RDEF-relative offset of its type descriptor */
    uint32_t type_index;          /**< index of its type in sb_dxbc_rdef::types */
    const struct sb_dxbc_rdef_type *type; /**< its type (&rdef->types[type_index]) */
    uint32_t default_value_offset; /**< RDEF-relative offset of the default value; 0 = none */
    /** `size` bytes of default value inside the RDEF part, or NULL when the offset is 0. */
    const uint8_t *default_value;
    /* SM5 descriptor only (sb_dxbc_rdef::is_sm5); 0 for SM4.x. */
    uint32_t start_texture;       /**< first texture slot; 0xFFFFFFFF = none */
    uint32_t texture_size;        /**< texture slots used */
    uint32_t start_sampler;       /**< first sampler slot; 0xFFFFFFFF = none */
    uint32_t sampler_size;        /**< sampler slots used */
};

/** A constant buffer descriptor (24 bytes). */
struct sb_dxbc_rdef_cbuffer {
    const char *name;             /**< buffer name */
    uint32_t variable_count;      /**< entries in `variables` */
    uint32_t variable_offset;     /**< RDEF-relative offset of the variable descriptors */
    const struct sb_dxbc_rdef_variable *variables; /**< variable_count variables */
    uint32_t size;                /**< byte size of the buffer */
    uint32_t flags;               /**< D3D_SHADER_CBUFFER_FLAGS: bit 0 user-packed */
    uint32_t type;                /**< D3D_CBUFFER_TYPE (sb_dxbc_cbuffer_type_name) */
};

/** A bound resource (32 bytes; 40 bytes with space and id from SM 5.1). */
struct sb_dxbc_rdef_binding {
    const char *name;             /**< resource name */
    uint32_t input_type;          /**< D3D_SHADER_INPUT_TYPE (sb_dxbc_shader_input_type_name) */
    uint32_t return_type;         /**< D3D_RESOURCE_RETURN_TYPE (sb_dxbc_return_type_name) */
    uint32_t dimension;           /**< D3D_SRV_DIMENSION (sb_dxbc_srv_dimension_name) */
    uint32_t sample_count;        /**< samples; 0xFFFFFFFF when not multisampled */
    uint32_t bind_point;          /**< first register */
    uint32_t bind_count;          /**< registers used */
    uint32_t flags;               /**< D3D_SHADER_INPUT_FLAGS (sb_dxbc_shader_input_flag_name) */
    /* Only when sb_dxbc_rdef::has_space_and_id; 0 otherwise. */
    uint32_t space;               /**< register space */
    uint32_t id;                  /**< resource id (the range's index in the shader) */
};

/** A decoded RDEF part. */
struct sb_dxbc_rdef {
    uint32_t target;              /**< raw target word: program type << 16 | major << 8 | minor */
    uint32_t major;               /**< target shader model major (bits 15..8) */
    uint32_t minor;               /**< target shader model minor (bits 7..0) */
    uint32_t program_type_raw;    /**< bits 31..16: 0xFFFF ps, 0xFFFE vs, 0x4753 gs, ... */
    /** The stage program_type_raw names, SB_DXBC_PROGRAM_UNKNOWN when not one of the six. */
    enum sb_dxbc_program_type program_type;
    uint32_t compile_flags;       /**< D3DCOMPILE_* bits (sb_dxbc_compile_flag_name) */
    uint32_t creator_offset;      /**< RDEF-relative offset of the creator string; 0 = none */
    const char *creator;          /**< "Microsoft (R) HLSL Shader Compiler ..."; NULL if none */

    /** True when the 60-byte SM5 header (major >= 5) was read. */
    bool is_sm5;
    /** True when binding descriptors are at least 40 bytes (space and id present). */
    bool has_space_and_id;
    /* SM5 header fields (0 for SM4.x except the descriptor sizes, which are the fixed
     * SM4.x sizes then). */
    uint32_t magic;               /**< SB_DXBC_RDEF_MAGIC_SM50 or _SM51; 0 for SM4.x */
    uint32_t header_size;         /**< declared header size (28 for SM4.x) */
    uint32_t cbuffer_desc_size;   /**< constant-buffer descriptor stride used */
    uint32_t binding_desc_size;   /**< bound-resource descriptor stride used */
    uint32_t variable_desc_size;  /**< variable descriptor stride used */
    uint32_t type_desc_size;      /**< type descriptor size used */
    uint32_t member_desc_size;    /**< member descriptor stride used */
    uint32_t interface_slot_count; /**< class-linkage interface slots (SM5) */

    uint32_t cbuffer_count;       /**< entries in `cbuffers` */
    uint32_t cbuffer_offset;      /**< RDEF-relative offset of the cbuffer descriptors */
    const struct sb_dxbc_rdef_cbuffer *cbuffers;
    uint32_t binding_count;       /**< entries in `bindings` */
    uint32_t binding_offset;      /**< RDEF-relative offset of the binding descriptors */
    const struct sb_dxbc_rdef_binding *bindings;
    /** Every distinct type descriptor reached from a variable, in discovery order
     *  (depth first: a struct's member types follow it). */
    uint32_t type_count;
    const struct sb_dxbc_rdef_type *types;
};

/** D3D_SHADER_INPUT_TYPE name ("CBUFFER", "TEXTURE", "UAV_RWTYPED", ...) or NULL. */
SB_API const char *sb_dxbc_shader_input_type_name(uint32_t input_type);
/** D3D_RESOURCE_RETURN_TYPE name ("UNORM" ... "CONTINUED") or NULL (0 has no name). */
SB_API const char *sb_dxbc_return_type_name(uint32_t return_type);
/** D3D_SRV_DIMENSION name ("UNKNOWN", "BUFFER", "TEXTURE2D", ...) or NULL. */
SB_API const char *sb_dxbc_srv_dimension_name(uint32_t dimension);
/** D3D_SHADER_VARIABLE_CLASS name ("scalar", "vector", "matrix_rows", ...) or NULL. */
SB_API const char *sb_dxbc_variable_class_name(uint32_t variable_class);
/** D3D_SHADER_VARIABLE_TYPE name ("float", "texture2d", "min16float", ...) or NULL. */
SB_API const char *sb_dxbc_variable_type_name(uint32_t variable_type);
/** D3D_CBUFFER_TYPE name ("cbuffer", "tbuffer", "interface_pointers",
 *  "resource_bind_info") or NULL. */
SB_API const char *sb_dxbc_cbuffer_type_name(uint32_t cbuffer_type);
/** Name of D3DCOMPILE_* flag bit `bit` (0..31), e.g. "NO_PRESHADER"; NULL if unnamed. */
SB_API const char *sb_dxbc_compile_flag_name(unsigned bit);
/** Name of D3D_SHADER_INPUT_FLAGS bit `bit` ("USERPACKED", "COMPARISON_SAMPLER",
 *  "TEXTURE_COMPONENT_0", "TEXTURE_COMPONENT_1", "UNUSED") or NULL. */
SB_API const char *sb_dxbc_shader_input_flag_name(unsigned bit);
/** Name of D3D_SHADER_VARIABLE_FLAGS bit `bit` ("USERPACKED", "USED",
 *  "INTERFACE_POINTER", "INTERFACE_PARAMETER") or NULL. */
SB_API const char *sb_dxbc_variable_flag_name(unsigned bit);

/* ------------------------------------------------------------------------ */
/* Signatures (§5, §10)                                                     */
/* ------------------------------------------------------------------------ */

/** One signature element, whichever of the three record sizes it came from. */
struct sb_dxbc_signature_element {
    uint32_t stream;          /**< output stream (OSG5, *SG1); 0 for 24-byte records */
    uint32_t name_offset;     /**< part-relative offset of the semantic name; 0 = no name */
    const char *semantic_name; /**< the semantic ("TEXCOORD"); "" when name_offset is 0 */
    uint32_t semantic_index;  /**< semantic index */
    uint32_t system_value;    /**< D3D_NAME (sb_dxbc_system_value_name) */
    uint32_t component_type;  /**< register component type (sb_dxbc_component_type_name) */
    uint32_t register_index;  /**< register (row); 0xFFFFFFFF for depth/coverage outputs */
    uint8_t mask;             /**< components allocated, bit 0 = x */
    /** Byte 21 (24/28-byte records) or 25 (32-byte records) as stored. ISGN/OSGN/OSG5/PCSG:
     *  inputs: components read; outputs: components never written. ISG1/OSG1/PSG1: the
     *  exclusive mask (§5). */
    uint8_t rw_mask;
    /** Components written, mask & ~rw_mask: only for outputs of ISGN-family parts
     *  (sb_dxbc_signature::derives_used_mask); 0 otherwise. */
    uint8_t used_mask;
    uint32_t min_precision;   /**< minimum precision (32-byte records); 0 otherwise */
};

/** A decoded ISGN / OSGN / OSG5 / PCSG / ISG1 / OSG1 / PSG1 part. */
struct sb_dxbc_signature {
    uint32_t element_size;    /**< 24 (ISGN/OSGN/PCSG), 28 (OSG5) or 32 (*SG1) */
    uint32_t element_offset;  /**< part-relative offset of the first element (normally 8) */
    /** True for output signatures of the 24/28-byte family (OSGN, OSG5, and PCSG of a
     *  hull shader or of a container whose stage is unknown): byte 21 then holds the
     *  never-written components and used_mask is derived. */
    bool derives_used_mask;
    uint32_t element_count;   /**< entries in `elements` */
    const struct sb_dxbc_signature_element *elements;
};

/** LLVM's spelling of a D3D_NAME system value ("Undefined", "Position",
 *  "FinalQuadEdgeTessfactor", "Target", ...), or NULL for values it does not define. */
SB_API const char *sb_dxbc_system_value_name(uint32_t system_value);
/** Component type name ("Unknown", "UInt32", "SInt32", "Float32", ... "Float64") or NULL. */
SB_API const char *sb_dxbc_component_type_name(uint32_t component_type);
/** Minimum precision name ("Default", "Float16", "Float2_8", "Reserved", "SInt16",
 *  "UInt16", "Any16", "Any10") or NULL. */
SB_API const char *sb_dxbc_min_precision_name(uint32_t min_precision);

/* ------------------------------------------------------------------------ */
/* SHDR / SHEX program header (sm4-tokens.md §1)                            */
/* ------------------------------------------------------------------------ */

/** The first two tokens of an SM4/5 program; instructions are not decoded here. */
struct sb_dxbc_shader_header {
    uint32_t version_token;   /**< token 0 as stored */
    uint32_t program_type;    /**< bits 31..16 (enum sb_dxbc_program_type, 0..5) */
    uint32_t major;           /**< bits 7..4 (4 or 5) */
    uint32_t minor;           /**< bits 3..0 (0 or 1) */
    uint32_t length_dwords;   /**< token 1: program length in dwords, both header tokens
                                   included; never more than the part holds */
    uint32_t part_dwords;     /**< whole dwords in the part (length_dwords <= part_dwords) */
    const uint32_t *tokens;   /**< length_dwords tokens (host order) starting with token 0 */
};

/**
 * Writes the profile name of a program header ("vs_5_0") into `buf`.
 *
 * @param header the decoded header
 * @param buf    receives a NUL-terminated string
 * @param size   capacity of buf in bytes (7 is always enough for valid headers)
 * @return SB_SUCCESS; SB_ERROR_INVALID_ARGUMENT when a pointer is NULL, the stage is
 *         not one of the six or the name does not fit (buf then holds "" if size > 0)
 */
SB_API enum sb_result sb_dxbc_shader_header_profile(const struct sb_dxbc_shader_header *header,
                                             char *buf, size_t size);

/* ------------------------------------------------------------------------ */
/* STAT (§11)                                                               */
/* ------------------------------------------------------------------------ */

/** Which layout the STAT size denotes. */
enum sb_dxbc_stat_version {
    SB_DXBC_STAT_UNKNOWN = 0, /**< another size: only the fields that fit are decoded */
    SB_DXBC_STAT_D3D10 = 1,   /**< 28 dwords (early Direct3D 10) */
    SB_DXBC_STAT_SM4 = 2,     /**< 29 dwords (SM 4.x) */
    SB_DXBC_STAT_SM5 = 3,     /**< 37 dwords (SM 5.x) */
    SB_DXBC_STAT_VERSION_MAX_ENUM = 0x7fffffff
};

/** Number of STAT dwords that have a field in struct sb_dxbc_stat. */
#define SB_DXBC_STAT_FIELD_COUNT 37u

/**
 * FXC statistics. The named fields are dword i of the part in declaration
 * order (sb_dxbc_stat_field_name(i) names dword i); a field at or past
 * dword_count is 0.
 */
struct sb_dxbc_stat {
    enum sb_dxbc_stat_version version; /**< from the dword count */
    uint32_t dword_count;     /**< whole dwords in the part */
    const uint32_t *dwords;   /**< dword_count raw dwords (host order) */
    uint32_t instruction_count;           /**< 0 */
    uint32_t temp_register_count;         /**< 1 */
    uint32_t def_count;                   /**< 2 */
    uint32_t dcl_count;                   /**< 3 */
    uint32_t float_instruction_count;     /**< 4 */
    uint32_t int_instruction_count;       /**< 5 */
    uint32_t uint_instruction_count;      /**< 6 */
    uint32_t static_flow_control_count;   /**< 7 */
    uint32_t dynamic_flow_control_count;  /**< 8 */
    uint32_t macro_instruction_count;     /**< 9 */
    uint32_t temp_array_count;            /**< 10 */
    uint32_t array_instruction_count;     /**< 11 */
    uint32_t cut_instruction_count;       /**< 12 */
    uint32_t emit_instruction_count;      /**< 13 */
    uint32_t texture_normal_instructions; /**< 14 */
    uint32_t texture_load_instructions;   /**< 15 */
    uint32_t texture_comp_instructions;   /**< 16 */
    uint32_t texture_bias_instructions;   /**< 17 */
    uint32_t texture_gradient_instructions; /**< 18 */
    uint32_t mov_instruction_count;       /**< 19 */
    uint32_t movc_instruction_count;      /**< 20 */
    uint32_t conversion_instruction_count; /**< 21 */
    uint32_t unknown22;                   /**< 22: meaning unknown (possibly bitwise count) */
    uint32_t input_primitive;             /**< 23: GS input primitive */
    uint32_t gs_output_topology;          /**< 24 */
    uint32_t gs_max_output_vertex_count;  /**< 25 */
    uint32_t unknown26;                   /**< 26: meaning unknown (0/1) */
    uint32_t unknown27;                   /**< 27: meaning unknown (0/2) */
    uint32_t is_sample_frequency_shader;  /**< 28: 1 = yes (29-dword form on) */
    uint32_t unknown29;                   /**< 29: meaning unknown (37-dword form on) */
    uint32_t control_points;              /**< 30 */
    uint32_t hs_output_primitive;         /**< 31 */
    uint32_t hs_partitioning;             /**< 32 */
    uint32_t tessellator_domain;          /**< 33 */
    uint32_t barrier_instructions;        /**< 34 */
    uint32_t interlocked_instructions;    /**< 35 */
    uint32_t texture_store_instructions;  /**< 36 */
};

/** snake_case name of STAT dword `index` ("instruction_count"), NULL past the last. */
SB_API const char *sb_dxbc_stat_field_name(unsigned index);
/** Name of a STAT version ("d3d10", "sm4", "sm5", "unknown"). */
SB_API const char *sb_dxbc_stat_version_name(enum sb_dxbc_stat_version version);

/* ------------------------------------------------------------------------ */
/* SFI0 (§4)                                                                */
/* ------------------------------------------------------------------------ */

/** Shader feature flags. */
struct sb_dxbc_sfi0 {
    uint64_t flags;           /**< the first 8 bytes of the part (bit meanings: §4) */
};

/** LLVM's name of SFI0 bit `bit` ("Doubles", ..., "ExtendedCommandInfo" for 32,
 *  "UsesDerivatives" 40, "RequiresGroup" 41), or NULL for other bits. */
SB_API const char *sb_dxbc_sfi0_flag_name(unsigned bit);

/* ------------------------------------------------------------------------ */
/* IFCE (§13, reverse-engineered)                                           */
/* ------------------------------------------------------------------------ */

/** A class type (12-byte record). Slot type IDs index sb_dxbc_ifce::class_types. */
struct sb_dxbc_ifce_class_type {
    const char *name;         /**< class name */
    uint16_t id;              /**< the record's "type ID" field (0 in every corpus file) */
    uint16_t cbuffer_stride;  /**< constant-buffer stride */
    uint16_t texture;         /**< texture field */
    uint16_t sampler;         /**< sampler field */
};

/** A class instance (16-byte record). */
struct sb_dxbc_ifce_class_instance {
    const char *name;         /**< instance name */
    uint16_t type;            /**< index into sb_dxbc_ifce::class_types */
    uint16_t unknown;         /**< meaning unknown (1 in the corpus) */
    uint16_t cbuffer;         /**< constant buffer */
    uint16_t cbuffer_offset;  /**< offset in the constant buffer */
    uint16_t texture;         /**< texture slot; 0xFFFF = none */
    uint16_t sampler;         /**< sampler slot; 0xFFFF = none */
};

/** An interface slot record (16 bytes) with its two arrays. */
struct sb_dxbc_ifce_slot {
    uint32_t first_slot;      /**< derived: sum of the spans of the records before it */
    uint32_t slot_span;       /**< interface slots this record covers */
    uint32_t count;           /**< entries in type_ids and table_ids */
    uint32_t type_ids_offset; /**< part-relative offset of the u16 type IDs */
    uint32_t table_ids_offset; /**< part-relative offset of the u32 table IDs */
    const uint16_t *type_ids; /**< count class-type indices */
    const uint32_t *table_ids; /**< count function-table IDs */
};

/** A decoded IFCE part. */
struct sb_dxbc_ifce {
    uint32_t class_instance_count;   /**< entries in class_instances */
    uint32_t class_type_count;       /**< entries in class_types */
    uint32_t slot_record_count;      /**< entries in slots */
    uint32_t interface_slot_count;   /**< interface slots (>= records with arrays) */
    uint32_t class_instance_offset;  /**< header word 4: where the instances start (observed:
                                          right after the class types) */
    uint32_t class_type_offset;      /**< part-relative offset of the class types */
    uint32_t slot_offset;            /**< part-relative offset of the slot records */
    const struct sb_dxbc_ifce_class_type *class_types;
    const struct sb_dxbc_ifce_class_instance *class_instances;
    const struct sb_dxbc_ifce_slot *slots;
};

#ifdef __cplusplus
}
#endif

#endif
