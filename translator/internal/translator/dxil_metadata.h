/* SPDX-License-Identifier: MIT */
/*
 * The schema of DXIL's dx.* metadata (../shared/docs/dxil.md §4): field
 * positions and tags of dx.entryPoints records and their properties, the
 * shader-flag bits, signature element records, dx.resources records and
 * dx.typeAnnotations, with the names a disassembler or a message prints, and
 * the coordinate counts of each resource kind (§3.5). Data and small pure
 * functions only: the decoder of the metadata nodes sits on the bitcode reader
 * and uses these. Project-internal, never installed.
 */
#ifndef SB_TRANSLATOR_DXIL_METADATA_H
#define SB_TRANSLATOR_DXIL_METADATA_H

#include <stdbool.h>
#include <stdint.h>

#include "translator/dxil_opcodes.h"

/* §4.1 named metadata a reader looks for. */
#define SB_DXIL_MD_VERSION "dx.version"
#define SB_DXIL_MD_VALIDATOR_VERSION "dx.valver"
#define SB_DXIL_MD_SHADER_MODEL "dx.shaderModel"
#define SB_DXIL_MD_ENTRY_POINTS "dx.entryPoints"
#define SB_DXIL_MD_RESOURCES "dx.resources"
#define SB_DXIL_MD_TYPE_ANNOTATIONS "dx.typeAnnotations"
#define SB_DXIL_MD_VIEW_ID_STATE "dx.viewIdState"

/** Fields of a dx.entryPoints record (§4.2). */
enum sb_dxil_entry_field {
    SB_DXIL_ENTRY_FUNCTION = 0,   /**< the entry function (null: pass-through HS) */
    SB_DXIL_ENTRY_NAME = 1,       /**< unmangled name */
    SB_DXIL_ENTRY_SIGNATURES = 2, /**< !{input, output, patch constant or primitive} or null */
    SB_DXIL_ENTRY_RESOURCES = 3,  /**< the dx.resources 4-list or null */
    SB_DXIL_ENTRY_PROPERTIES = 4, /**< flat tag, value pairs or null */
    SB_DXIL_ENTRY_FIELD_COUNT = 5,
};

/** Index of each list in the signatures node of an entry (§4.2). */
enum sb_dxil_signature_list {
    SB_DXIL_SIGNATURE_INPUT = 0,
    SB_DXIL_SIGNATURE_OUTPUT = 1,
    SB_DXIL_SIGNATURE_PATCH_CONSTANT = 2, /**< HS/DS patch constants, MS primitives */
    SB_DXIL_SIGNATURE_LIST_COUNT = 3,
};

/** Entry-point property tags (§4.2, kDxil*Tag). */
enum sb_dxil_entry_property {
    SB_DXIL_PROPERTY_SHADER_FLAGS = 0,
    SB_DXIL_PROPERTY_GS_STATE = 1,
    SB_DXIL_PROPERTY_DS_STATE = 2,
    SB_DXIL_PROPERTY_HS_STATE = 3,
    SB_DXIL_PROPERTY_NUM_THREADS = 4,
    SB_DXIL_PROPERTY_AUTO_BINDING_SPACE = 5,
    SB_DXIL_PROPERTY_RAY_PAYLOAD_SIZE = 6,
    SB_DXIL_PROPERTY_RAY_ATTRIB_SIZE = 7,
    SB_DXIL_PROPERTY_SHADER_KIND = 8,
    SB_DXIL_PROPERTY_MS_STATE = 9,
    SB_DXIL_PROPERTY_AS_STATE = 10,
    SB_DXIL_PROPERTY_WAVE_SIZE = 11,
    SB_DXIL_PROPERTY_ENTRY_ROOT_SIG = 12,
    SB_DXIL_PROPERTY_NODE_LAUNCH_TYPE = 13, /**< 13-22: node shader properties */
    SB_DXIL_PROPERTY_NODE_MAX_DISPATCH_GRID = 22,
    SB_DXIL_PROPERTY_RANGED_WAVE_SIZE = 23,
    SB_DXIL_PROPERTY_GROUP_SHARED_LIMIT = 24,
    SB_DXIL_PROPERTY_COUNT = 25,
};

/** The tag's name ("NumThreads"); NULL past the known tags. */
const char *sb_dxil_entry_property_name(uint32_t tag);

/**
 * Fields of the tag's state record (GSState 5, DSState 2, HSState 7,
 * NumThreads 3, MSState 5, ASState 2, WaveSize 1, RangedWaveSize 3; the
 * MS/AS thread counts are one nested !{x,y,z} field); 0 when the value is a
 * scalar or a list whose length varies (and for unknown tags).
 */
uint32_t sb_dxil_entry_property_field_count(uint32_t tag);

/** The value enumerations of §4.2's state records and §4.7's control-flow hints. */
enum sb_dxil_state_enum {
    SB_DXIL_STATE_INPUT_PRIMITIVE = 0,   /**< GSState field 0 (D3D_PRIMITIVE: 8-39 = 1-32 point patches) */
    SB_DXIL_STATE_PRIMITIVE_TOPOLOGY,    /**< GSState output topology */
    SB_DXIL_STATE_TESSELLATOR_DOMAIN,    /**< DSState / HSState domain */
    SB_DXIL_STATE_PARTITIONING,          /**< HSState partitioning */
    SB_DXIL_STATE_OUTPUT_PRIMITIVE,      /**< HSState output primitive */
    SB_DXIL_STATE_CONTROL_FLOW_HINT,     /**< dx.controlflow.hints values (§4.7) */
    SB_DXIL_STATE_ENUM_COUNT,
};

/** The doc's name of `value` ("triangle strip", "fractional-odd", "patch3"); NULL when none. */
const char *sb_dxil_state_value_name(enum sb_dxil_state_enum which, uint32_t value);

/* Shader-flag bits (§4.3, tag 0's i64 mask): bit numbers, not SFI0's. */
#define SB_DXIL_SHADER_FLAG_ENABLE_DOUBLE_PRECISION 2u
#define SB_DXIL_SHADER_FLAG_FORCE_EARLY_DEPTH_STENCIL 3u
#define SB_DXIL_SHADER_FLAG_LOW_PRECISION_PRESENT 5u
#define SB_DXIL_SHADER_FLAG_WAVE_OPS 19u
#define SB_DXIL_SHADER_FLAG_INT64_OPS 20u
#define SB_DXIL_SHADER_FLAG_USE_NATIVE_LOW_PRECISION 23u
#define SB_DXIL_SHADER_FLAG_BIT_COUNT 41u /**< bits 0-40 are defined (36 reserved) */

/** The name of shader-flag bit `bit` ("WaveOps"); NULL for reserved bit 36 and past 40. */
const char *sb_dxil_shader_flag_name(uint32_t bit);

/** Fields of a signature element record (§4.4, 11 fields). */
enum sb_dxil_signature_field {
    SB_DXIL_SIG_ELEMENT_ID = 0,
    SB_DXIL_SIG_SEMANTIC_NAME = 1,
    SB_DXIL_SIG_COMPONENT_TYPE = 2, /**< enum sb_dxil_component_type */
    SB_DXIL_SIG_SEMANTIC_KIND = 3,  /**< enum sb_dxil_semantic_kind */
    SB_DXIL_SIG_SEMANTIC_INDICES = 4,
    SB_DXIL_SIG_INTERPOLATION = 5,  /**< enum sb_dxil_interpolation */
    SB_DXIL_SIG_ROWS = 6,
    SB_DXIL_SIG_COLUMNS = 7,
    SB_DXIL_SIG_START_ROW = 8,      /**< -1: not allocated */
    SB_DXIL_SIG_START_COLUMN = 9,   /**< -1: not allocated */
    SB_DXIL_SIG_EXTRA_TAGS = 10,
    SB_DXIL_SIG_FIELD_COUNT = 11,
};

/** Tags of a signature element's extra tag list (field 10). */
enum sb_dxil_signature_tag {
    SB_DXIL_SIG_TAG_OUTPUT_STREAM = 0,
    SB_DXIL_SIG_TAG_DYN_IDX_COMP_MASK = 2,
    SB_DXIL_SIG_TAG_USAGE_COMP_MASK = 3,
};

/** Name of a signature extra tag ("UsageCompMask"); NULL for an unknown one. */
const char *sb_dxil_signature_tag_name(uint32_t tag);

/** SemanticKind (§4.4, DxilConstants.h at SM 6.8). */
enum sb_dxil_semantic_kind {
    SB_DXIL_SEMANTIC_ARBITRARY = 0,
    SB_DXIL_SEMANTIC_VERTEX_ID = 1,
    SB_DXIL_SEMANTIC_INSTANCE_ID = 2,
    SB_DXIL_SEMANTIC_POSITION = 3,
    SB_DXIL_SEMANTIC_RENDER_TARGET_ARRAY_INDEX = 4,
    SB_DXIL_SEMANTIC_VIEWPORT_ARRAY_INDEX = 5,
    SB_DXIL_SEMANTIC_CLIP_DISTANCE = 6,
    SB_DXIL_SEMANTIC_CULL_DISTANCE = 7,
    SB_DXIL_SEMANTIC_OUTPUT_CONTROL_POINT_ID = 8,
    SB_DXIL_SEMANTIC_DOMAIN_LOCATION = 9,
    SB_DXIL_SEMANTIC_PRIMITIVE_ID = 10,
    SB_DXIL_SEMANTIC_GS_INSTANCE_ID = 11,
    SB_DXIL_SEMANTIC_SAMPLE_INDEX = 12,
    SB_DXIL_SEMANTIC_IS_FRONT_FACE = 13,
    SB_DXIL_SEMANTIC_COVERAGE = 14,
    SB_DXIL_SEMANTIC_INNER_COVERAGE = 15,
    SB_DXIL_SEMANTIC_TARGET = 16,
    SB_DXIL_SEMANTIC_DEPTH = 17,
    SB_DXIL_SEMANTIC_DEPTH_LESS_EQUAL = 18,
    SB_DXIL_SEMANTIC_DEPTH_GREATER_EQUAL = 19,
    SB_DXIL_SEMANTIC_STENCIL_REF = 20,
    SB_DXIL_SEMANTIC_DISPATCH_THREAD_ID = 21,
    SB_DXIL_SEMANTIC_GROUP_ID = 22,
    SB_DXIL_SEMANTIC_GROUP_INDEX = 23,
    SB_DXIL_SEMANTIC_GROUP_THREAD_ID = 24,
    SB_DXIL_SEMANTIC_TESS_FACTOR = 25,
    SB_DXIL_SEMANTIC_INSIDE_TESS_FACTOR = 26,
    SB_DXIL_SEMANTIC_VIEW_ID = 27,
    SB_DXIL_SEMANTIC_BARYCENTRICS = 28,
    SB_DXIL_SEMANTIC_SHADING_RATE = 29,
    SB_DXIL_SEMANTIC_CULL_PRIMITIVE = 30,
    SB_DXIL_SEMANTIC_START_VERTEX_LOCATION = 31,
    SB_DXIL_SEMANTIC_START_INSTANCE_LOCATION = 32,
    SB_DXIL_SEMANTIC_INVALID = 33,
};

/** The kind's name ("DispatchThreadID"); NULL past Invalid (33). */
const char *sb_dxil_semantic_kind_name(uint32_t kind);

/** InterpolationMode of a signature element (§4.4 field 5). */
enum sb_dxil_interpolation {
    SB_DXIL_INTERP_UNDEFINED = 0,
    SB_DXIL_INTERP_CONSTANT = 1,
    SB_DXIL_INTERP_LINEAR = 2,
    SB_DXIL_INTERP_LINEAR_CENTROID = 3,
    SB_DXIL_INTERP_LINEAR_NOPERSPECTIVE = 4,
    SB_DXIL_INTERP_LINEAR_NOPERSPECTIVE_CENTROID = 5,
    SB_DXIL_INTERP_LINEAR_SAMPLE = 6,
    SB_DXIL_INTERP_LINEAR_NOPERSPECTIVE_SAMPLE = 7,
    SB_DXIL_INTERP_COUNT = 8,
};

/** The mode's name ("LinearNoperspectiveCentroid", as PSV0's); NULL past 7. */
const char *sb_dxil_interpolation_name(uint32_t mode);

/** Fields every dx.resources record opens with (§4.5). */
enum sb_dxil_resource_field {
    SB_DXIL_RES_ID = 0,          /**< = createHandle rangeId */
    SB_DXIL_RES_VARIABLE = 1,
    SB_DXIL_RES_NAME = 2,
    SB_DXIL_RES_SPACE = 3,
    SB_DXIL_RES_LOWER_BOUND = 4,
    SB_DXIL_RES_RANGE_SIZE = 5,  /**< 0xFFFFFFFF: unbounded */
    /* class-specific fields */
    SB_DXIL_RES_SRV_SHAPE = 6,   /**< enum sb_dxil_resource_kind */
    SB_DXIL_RES_SRV_SAMPLE_COUNT = 7,
    SB_DXIL_RES_SRV_TAGS = 8,
    SB_DXIL_RES_UAV_SHAPE = 6,
    SB_DXIL_RES_UAV_GLOBALLY_COHERENT = 7,
    SB_DXIL_RES_UAV_HAS_COUNTER = 8,
    SB_DXIL_RES_UAV_RASTERIZER_ORDERED = 9,
    SB_DXIL_RES_UAV_TAGS = 10,
    SB_DXIL_RES_CBV_SIZE = 6,    /**< bytes */
    SB_DXIL_RES_CBV_TAGS = 7,
    SB_DXIL_RES_SAMPLER_KIND = 6, /**< enum sb_dxil_sampler_kind */
    SB_DXIL_RES_SAMPLER_TAGS = 7,
};

/** Exact field count of a record of `resource_class` (SRV 9, UAV 11, CBV 8, sampler 8); 0 past 3. */
uint32_t sb_dxil_resource_field_count(uint32_t resource_class);

/** Tags of an SRV/UAV record's tag list (§4.5). */
enum sb_dxil_resource_tag {
    SB_DXIL_RES_TAG_ELEMENT_TYPE = 0,        /**< enum sb_dxil_component_type (CBV: is a tbuffer) */
    SB_DXIL_RES_TAG_STRUCT_STRIDE = 1,
    SB_DXIL_RES_TAG_SAMPLER_FEEDBACK_TYPE = 2,
    SB_DXIL_RES_TAG_ATOMIC64_USE = 3,
    SB_DXIL_RES_TAG_REORDER_COHERENT = 4,
};

/** Name of a resource tag ("StructStride"); NULL for an unknown one. */
const char *sb_dxil_resource_tag_name(uint32_t tag);

/** Shape of a resource kind: what a front end and an interpreter need (§3.5). */
struct sb_dxil_resource_shape {
    uint8_t dimensions;     /**< spatial dimensions of one layer: 1-3, cubes 3 (a direction), buffers 1, others 0 */
    bool array;             /**< has array slices */
    bool cube;
    bool multisample;
    bool buffer;            /**< typed, raw or structured buffer (tbuffer included) */
    uint8_t sample_coords;  /**< sample / gather coordinates (slice included); 0: cannot be sampled */
    uint8_t sample_offsets; /**< texel offsets of sample*; 0 for cubes */
    uint8_t gradients;      /**< ddx / ddy components of sampleGrad */
    uint8_t load_coords;    /**< textureLoad / bufferLoad coordinates (slice, structured byte offset included) */
    uint8_t store_coords;   /**< textureStore / bufferStore / atomic coordinates; 0: no typed store */
    uint8_t dimension_mask; /**< getDimensions components that hold values: bit i = c<i> */
};

/** The shape of `kind` (enum sb_dxil_resource_kind); false (zeroed) for Invalid and unknown kinds. */
bool sb_dxil_resource_shape(uint32_t kind, struct sb_dxil_resource_shape *out);

/** dx.typeAnnotations node tags (§4.6). */
enum sb_dxil_type_annotation_tag {
    SB_DXIL_TYPE_ANNOTATION_STRUCT = 0,
    SB_DXIL_TYPE_ANNOTATION_FUNCTION = 1,
};

/** Field annotation tags (§4.6). */
enum sb_dxil_field_tag {
    SB_DXIL_FIELD_SNORM = 0,
    SB_DXIL_FIELD_UNORM = 1,
    SB_DXIL_FIELD_MATRIX = 2,           /**< !{rows, cols, orientation} */
    SB_DXIL_FIELD_CBUFFER_OFFSET = 3,   /**< bytes */
    SB_DXIL_FIELD_SEMANTIC = 4,
    SB_DXIL_FIELD_INTERPOLATION = 5,
    SB_DXIL_FIELD_NAME = 6,
    SB_DXIL_FIELD_COMPONENT_TYPE = 7,
    SB_DXIL_FIELD_PRECISE = 8,
    SB_DXIL_FIELD_CBUFFER_VARIABLE_USED = 9,
    SB_DXIL_FIELD_RESOURCE_PROPERTIES = 10,
    SB_DXIL_FIELD_BIT_FIELDS = 11,
    SB_DXIL_FIELD_BIT_FIELD_WIDTH = 12,
    SB_DXIL_FIELD_VECTOR_SIZE = 13,
    SB_DXIL_FIELD_TAG_COUNT = 14,
};

/** Name of a field annotation tag ("CBufferOffset"); NULL past 13. */
const char *sb_dxil_field_tag_name(uint32_t tag);

/** Matrix orientation of a field's Matrix annotation (§4.6). */
enum sb_dxil_matrix_orientation {
    SB_DXIL_MATRIX_ROW_MAJOR = 1,
    SB_DXIL_MATRIX_COLUMN_MAJOR = 2,
};

/** Input qualifier of a function annotation's parameter (§4.6), 0-14. */
#define SB_DXIL_INPUT_QUALIFIER_COUNT 15u

/** Name of an input qualifier ("inout", "OutStream2"); NULL past 14. */
const char *sb_dxil_input_qualifier_name(uint32_t qualifier);

#endif
