/* SPDX-License-Identifier: MIT */
/*
 * Reflection of a DXIL program from its dx.* metadata (../shared/docs/dxil.md
 * §4): versions, shader model, entry points with their signatures, resources
 * and properties (shader flags, thread-group size, GS/DS/HS/MS/AS state, wave
 * size), and the cbuffer layouts of dx.typeAnnotations, decoded from a module
 * the bitcode reader (reflect/bitcode.h) produced into plain structs; plus
 * the cross-check of that reflection with the container's PSV0 and
 * ISG1/OSG1/PSG1 parts.
 *
 * Project-internal (never installed): the DXIL front end, the CLI's `reflect`
 * and the tests include it as "translator/dxil_program_info.h". The info owns
 * every array and string it points to (one arena) and borrows nothing from
 * the module, so the module may be destroyed first. Strings are printable
 * ASCII: other bytes of a metadata string (DXIL names are ASCII) read as '?'.
 */
#ifndef SB_TRANSLATOR_DXIL_PROGRAM_INFO_H
#define SB_TRANSLATOR_DXIL_PROGRAM_INFO_H

#include <stdbool.h>
#include <stdint.h>

#include "reflect/bitcode.h"
#include "shaderbridge/result.h"
#include "translator/dxil_metadata.h"

struct sb_dxbc;

/** One signature element record (§4.4). Fields keep the metadata's numbers. */
struct sb_dxil_signature_element {
    uint32_t id;                    /**< element ID (loadInput/storeOutput sigId) */
    const char *semantic_name;      /**< "SV_Position", "TEXCOORD" */
    uint32_t component_type;        /**< enum sb_dxil_component_type */
    uint32_t semantic_kind;         /**< enum sb_dxil_semantic_kind */
    uint32_t semantic_index_count;  /**< = rows for a well-formed element */
    const uint32_t *semantic_indices;
    uint32_t interpolation;         /**< enum sb_dxil_interpolation */
    uint32_t rows;
    uint32_t cols;
    int32_t start_row;              /**< -1: not allocated */
    int32_t start_col;              /**< -1: not allocated */
    uint32_t output_stream;         /**< tag 0; 0 when absent */
    uint32_t dynamic_index_mask;    /**< tag 2; 0 when absent */
    uint32_t usage_mask;            /**< tag 3 (components used); 0 when absent */
    bool has_usage_mask;
};

/** One signature (input, output, or patch constant / primitive). */
struct sb_dxil_signature {
    uint32_t element_count;
    const struct sb_dxil_signature_element *elements;
};

/** One dx.resources record (§4.5), any class. */
struct sb_dxil_resource {
    uint32_t resource_class;   /**< enum sb_dxil_resource_class */
    uint32_t id;               /**< field 0: createHandle rangeId */
    const char *name;          /**< "" when reflection was stripped */
    uint32_t space;
    uint32_t lower_bound;
    uint32_t range_size;       /**< 0xFFFFFFFF: unbounded */
    /** enum sb_dxil_resource_kind: the SRV/UAV shape; CBuffer for a CBV, Sampler for a sampler. */
    uint32_t kind;
    uint32_t sample_count;     /**< SRV field 7 */
    bool globally_coherent;    /**< UAV */
    bool has_counter;          /**< UAV */
    bool rasterizer_ordered;   /**< UAV (ROV) */
    uint32_t element_type;     /**< tag 0 (enum sb_dxil_component_type); 0 when absent */
    uint32_t struct_stride;    /**< tag 1; 0 when absent */
    uint32_t sampler_feedback_type; /**< tag 2 */
    bool atomic64_use;         /**< tag 3 */
    uint32_t cbuffer_size;     /**< CBV field 6: bytes */
    uint32_t sampler_kind;     /**< sampler field 6: enum sb_dxil_sampler_kind */
    /** Type id of the struct behind the variable (arrays and pointers stripped), SB_BC_NONE when none. */
    uint32_t struct_type;
    /** CBV: index into sb_dxil_program_info::structs of its layout; SB_BC_NONE when none is annotated. */
    uint32_t layout;
};

/** The resources of an entry (or of dx.resources), grouped by class in record order. */
struct sb_dxil_resource_list {
    uint32_t count;
    const struct sb_dxil_resource *resources; /**< SRVs, then UAVs, CBVs, samplers */
};

/** GSState (§4.2 tag 1). */
struct sb_dxil_gs_state {
    uint32_t input_primitive;   /**< D3D_PRIMITIVE */
    uint32_t max_vertex_count;
    uint32_t active_stream_mask;
    uint32_t output_topology;   /**< D3D_PRIMITIVE_TOPOLOGY */
    uint32_t instance_count;
};

/** DSState (tag 2). */
struct sb_dxil_ds_state {
    uint32_t domain;            /**< 1 isoline, 2 tri, 3 quad */
    uint32_t input_control_points;
};

/** HSState (tag 3). */
struct sb_dxil_hs_state {
    uint32_t patch_constant_function; /**< index into the module's functions; SB_BC_NONE when null */
    uint32_t input_control_points;
    uint32_t output_control_points;
    uint32_t domain;
    uint32_t partitioning;
    uint32_t output_primitive;
    float max_tess_factor;
};

/** MSState (tag 9) and ASState (tag 10). */
struct sb_dxil_mesh_state {
    uint32_t num_threads[3];
    uint32_t max_vertex_count;      /**< MS only */
    uint32_t max_primitive_count;   /**< MS only */
    uint32_t output_topology;       /**< MS only: 1 line, 2 triangle */
    uint32_t payload_size;
};

/** One dx.entryPoints record (§4.2). */
struct sb_dxil_entry_point {
    uint32_t function;              /**< index into the module's functions; SB_BC_NONE when null */
    const char *name;
    struct sb_dxil_signature signatures[SB_DXIL_SIGNATURE_LIST_COUNT]; /**< by enum sb_dxil_signature_list */
    bool has_resources;             /**< field 3 was a node */
    struct sb_dxil_resource_list resources;
    /** Stage: the ShaderKind property when present, else the module's shader model. */
    uint32_t shader_kind;
    uint64_t shader_flags;          /**< tag 0; 0 when absent */
    bool has_num_threads;
    uint32_t num_threads[3];        /**< tag 4 */
    bool has_gs_state;
    struct sb_dxil_gs_state gs;
    bool has_ds_state;
    struct sb_dxil_ds_state ds;
    bool has_hs_state;
    struct sb_dxil_hs_state hs;
    bool has_ms_state;
    struct sb_dxil_mesh_state ms;
    bool has_as_state;
    struct sb_dxil_mesh_state as;
    /** WaveSize (tag 11: min = max = preferred) or RangedWaveSize (tag 23); 0 = unspecified. */
    uint32_t wave_size_min, wave_size_max, wave_size_preferred;
    bool has_auto_binding_space;
    uint32_t auto_binding_space;    /**< tag 5 */
    uint32_t other_property_count;  /**< tags kept as counted only (ray tracing, node, root signature) */
};

/** One field of a struct annotation (§4.6). */
struct sb_dxil_field_annotation {
    const char *name;               /**< tag 6; "" when absent */
    uint32_t type;                  /**< the struct member's type id; SB_BC_NONE past the members */
    bool has_cbuffer_offset;
    uint32_t cbuffer_offset;        /**< tag 3: bytes */
    uint32_t component_type;        /**< tag 7; 0 when absent */
    uint32_t matrix_rows, matrix_cols, matrix_orientation; /**< tag 2; 0 when absent */
    uint32_t vector_size;           /**< tag 13; 0 when absent */
    const char *semantic;           /**< tag 4; NULL when absent */
    bool snorm, unorm, precise;
    bool cbuffer_variable_used;     /**< tag 9 */
};

/** A struct annotation: a type's layout in a cbuffer. */
struct sb_dxil_struct_annotation {
    uint32_t type;                  /**< struct type id */
    const char *type_name;          /**< "$Globals", "struct.Foo"; "" when unnamed */
    uint32_t size;                  /**< bytes */
    uint32_t field_count;
    const struct sb_dxil_field_annotation *fields;
};

/** Everything §4 describes, for one module. */
struct sb_dxil_program_info {
    struct sb_arena *arena;         /**< owns everything below */
    uint32_t dxil_major, dxil_minor;          /**< dx.version */
    uint32_t validator_major, validator_minor; /**< dx.valver; 1.0 when absent */
    const char *stage_name;         /**< dx.shaderModel: "cs", "lib", ... */
    uint32_t shader_kind;           /**< enum sb_dxil_shader_kind of stage_name */
    uint32_t shader_model_major, shader_model_minor;
    uint32_t entry_point_count;
    const struct sb_dxil_entry_point *entry_points;
    bool has_resources;             /**< dx.resources present and not null */
    struct sb_dxil_resource_list resources; /**< dx.resources */
    uint32_t struct_count;
    const struct sb_dxil_struct_annotation *structs; /**< dx.typeAnnotations tag 0 */
    uint32_t function_annotation_count; /**< tag-1 entries, counted only */
};

/**
 * Decodes the dx.* named metadata of `module`. `offset` is the byte offset
 * errors carry (the reader keeps none per metadata record: callers pass the
 * DXIL part's bitcode offset); messages name the metadata id and field. On
 * failure *out is NULL and `error` (may be NULL) says what:
 * SB_ERROR_BAD_VALUE (missing node, wrong kind of operand, value out of
 * range), SB_ERROR_BAD_COUNT (a record with the wrong number of fields),
 * SB_ERROR_OUT_OF_MEMORY. Release with sb_dxil_program_info_destroy().
 */
enum sb_result sb_dxil_program_info_read(const struct sb_bc_module *module, uint64_t offset,
                                         struct sb_dxil_program_info **out,
                                         struct sb_error *error);

/**
 * The same for a parsed container: reads its DXIL part with the bitcode
 * reader (errors keep the reader's code and offset) and decodes the module,
 * with the bitcode's file offset as the metadata errors' offset.
 * SB_ERROR_INVALID_ARGUMENT when the container has no DXIL part.
 */
enum sb_result sb_dxil_program_info_from_container(const struct sb_dxbc *dxbc,
                                                   struct sb_dxil_program_info **out,
                                                   struct sb_error *error);

/** Releases the info; NULL is a no-op. */
void sb_dxil_program_info_destroy(struct sb_dxil_program_info *info);

/** Receives one disagreement: `field` names it ("psv0.num_threads"), `detail` the two values. */
typedef void (*sb_dxil_mismatch_fn)(void *user, const char *field, const char *detail);

/**
 * Compares the first entry point of `info` with the PSV0 and ISG1/OSG1/PSG1
 * parts of `dxbc` (those present): stage, entry name, thread-group size,
 * GS/DS/HS/MS/AS state, resource bindings, and every signature element
 * (PSV0: name, indices, rows, columns, start, kind, component type,
 * interpolation, stream, dynamic mask; ISG1 family: one row per element row
 * with semantic, system value, component type, register, mask, stream, and
 * for ISG1 the read mask against UsageCompMask).
 * Calls `report` (may be NULL) once per disagreement and returns their count.
 */
uint32_t sb_dxil_program_info_check(const struct sb_dxil_program_info *info,
                                    const struct sb_dxbc *dxbc, sb_dxil_mismatch_fn report,
                                    void *user);

#endif
