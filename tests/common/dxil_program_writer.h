/* SPDX-License-Identifier: MIT */
/*
 * Turns a DXIL module (dxil_module_writer.h) and one description of the
 * program's interface into a dxc-shaped container: the description is the
 * single source of the dx.* metadata (../shared/docs/dxil.md §4: dx.version,
 * dx.valver, dx.shaderModel, dx.resources, dx.entryPoints with signature
 * element records, shader flags and thread-group size) AND of the container
 * parts (../shared/docs/dxcontainer.md: SFI0 §4, ISG1/OSG1 §5, PSV0 §6 at
 * RuntimeInfo v3, DXIL §2), so the two agree by construction.
 *
 * Scope: SM 6.x vertex, pixel, geometry, compute, hull and domain programs, and mesh and
 * amplification programs (MSState/ASState; a mesh program's per-primitive outputs are
 * its third signature list, `patch_constants`; their container holds SFI0 and DXIL
 * only: no PSV0 or signature parts); up to 16
 * signature elements per signature in rows 0-31 (one row from column 0 unless a
 * dxil_sig_shape says otherwise); up to 16 SRV, UAV, CBV and sampler resources,
 * each a range of registers in any space (SRV/UAV with their element type and
 * structure stride tags, sample count, UAV counter), a compute program's WaveSize. A hull program's patch-constant function is a second body of
 * the module (dm_function). A description outside it is refused, never half written.
 */
#ifndef SB_TEST_DXIL_PROGRAM_WRITER_H
#define SB_TEST_DXIL_PROGRAM_WRITER_H

#include <stdbool.h>
#include <stdint.h>

#include "dxc_container_writer.h"
#include "dxil_module_writer.h"

/* DXIL enums the descriptions use (docs/dxil.md §3.4, §4.4). */
enum { DXIL_COMP_U32 = 5, DXIL_COMP_F16 = 8, DXIL_COMP_F32 = 9 };
enum { DXIL_SEM_ARBITRARY = 0, DXIL_SEM_VERTEX_ID = 1, DXIL_SEM_POSITION = 3,
       DXIL_SEM_IS_FRONT_FACE = 13, DXIL_SEM_TARGET = 16, DXIL_SEM_DEPTH = 17,
       DXIL_SEM_TESS_FACTOR = 25, DXIL_SEM_INSIDE_TESS_FACTOR = 26,
       DXIL_SEM_BARYCENTRICS = 28, DXIL_SEM_SHADING_RATE = 29 };
enum { DXIL_INTERP_UNDEFINED = 0, DXIL_INTERP_LINEAR = 2, DXIL_INTERP_NOPERSPECTIVE = 4 };
enum { DXIL_CLASS_SRV = 0, DXIL_CLASS_UAV = 1, DXIL_CLASS_CBV = 2, DXIL_CLASS_SAMPLER = 3 };
enum { DXIL_KIND_RAW_BUFFER = 11, DXIL_KIND_CBUFFER = 13 };
enum { DXIL_KIND_TEXTURE2D = 2, DXIL_KIND_TEXTURE2DMS = 3, DXIL_KIND_TYPED_BUFFER = 10, DXIL_KIND_STRUCTURED_BUFFER = 12,
       DXIL_KIND_SAMPLER = 14 };
/** Sampler-feedback textures (docs/dxil.md §4.5): their tag list always holds tag 2. */
enum { DXIL_KIND_FEEDBACK_TEXTURE2D = 17, DXIL_KIND_FEEDBACK_TEXTURE2D_ARRAY = 18 };
enum { DXIL_COMP_I32 = 4 };
/** Shader flag bit 4 (docs/dxil.md §4.3): raw and structured buffers. */
#define DXIL_FLAG_RAW_BUFFERS 0x10ull

/** One signature element of one row; its element ID is its index in the list. */
struct dxil_sig_element {
    const char *semantic;     /**< "POSITION", "SV_Position", ... */
    uint32_t semantic_index;
    uint8_t semantic_kind;    /**< DXIL_SEM_* */
    uint8_t component_type;   /**< DXIL_COMP_* */
    uint8_t interpolation;    /**< DXIL_INTERP_* */
    uint8_t cols;             /**< 1..4, starting at column 0 */
    uint8_t start_row;        /**< packed register */
};

/** One resource; its record ID (createHandle's rangeId) is its index among its class. */
struct dxil_resource {
    uint8_t resource_class;   /**< DXIL_CLASS_* */
    uint32_t kind;            /**< DXIL_KIND_* */
    uint32_t space;
    uint32_t lower_bound;     /**< register number */
    /** Registers in the range (an HLSL array); 0 is read as 1, UINT32_MAX is unbounded. */
    uint32_t range_size;
    uint32_t cbuffer_size;    /**< CBV: bytes */
    /** The HLSL type's struct name ("struct.RWByteAddressBuffer"): field 1 of the
     *  dx.resources record is an undef pointer to it. */
    const char *type_name;
    /* Optional (0 = absent): the tags of SRVs and UAVs (docs/dxil.md §4.5) and the
     * class-specific fields. */
    uint32_t element_type;    /**< tag 0: DXIL_COMP_* of a typed SRV/UAV */
    uint32_t struct_stride;   /**< tag 1: bytes per structure (structured buffers) */
    uint32_t sample_count;    /**< SRV field 7 */
    uint32_t sampler_kind;    /**< sampler field 6: 0 default, 1 comparison */
    bool has_counter;         /**< UAV field 8 */
    /** Tag 2 of a DXIL_KIND_FEEDBACK_TEXTURE2D(_ARRAY): 0 MinMip, 1 MipRegionUsed. */
    uint32_t sampler_feedback_type;
};

/** The lists of a program's signatures (docs/dxil.md §4.2), for dxil_sig_shape. */
enum { DXIL_LIST_INPUT = 0, DXIL_LIST_OUTPUT = 1, DXIL_LIST_PATCH_CONSTANT = 2 };

/**
 * The shape of an element that takes more than one row or starts past column 0
 * (a tess factor array: SV_TessFactor is 3 rows of 1 column in a tri domain);
 * elements no shape names take 1 row from column 0. Row r has semantic index
 * semantic_index + r and register start_row + r.
 */
struct dxil_sig_shape {
    uint8_t list;       /**< DXIL_LIST_* */
    uint8_t element;    /**< index in that list */
    uint8_t rows;       /**< 1..32 */
    uint8_t start_col;  /**< start_col + cols <= 4 */
    bool unallocated;   /**< start row and column -1 (SV_Depth & co); start_row ignored */
};

/** Hull state (docs/dxil.md §4.2 HSState; a domain shader uses domain and
 *  input_control_points as its DSState). */
struct dxil_tess_desc {
    uint32_t patch_function;  /**< the module's dm_function() value (hull only) */
    uint32_t input_control_points;
    uint32_t output_control_points;
    uint32_t domain;          /**< 1 isoline, 2 tri, 3 quad */
    uint32_t partitioning;    /**< 1 integer, 2 pow2, 3 fractional odd, 4 fractional even */
    uint32_t output_primitive; /**< 1 point, 2 line, 3 triangle cw, 4 triangle ccw */
    float max_tess_factor;
};

/** An input component that an output component depends on (PSV0 input->output table). */
struct dxil_io_dependency {
    uint8_t input;   /**< input component: row * 4 + column */
    uint8_t output;  /**< output component */
};

/** A geometry shader's GSState (docs/dxil.md §4.2 tag 1; D3D_PRIMITIVE and
 *  D3D_PRIMITIVE_TOPOLOGY numbers). */
struct dxil_gs_state {
    uint32_t input_primitive;
    uint32_t max_vertex_count;
    uint32_t stream_mask;
    uint32_t output_topology;
    uint32_t instance_count;
};

struct dxil_program_desc {
    uint16_t shader_kind;     /**< SB_DXIL_SHADER_KIND_PIXEL, _VERTEX, _GEOMETRY, _COMPUTE, _HULL, _DOMAIN */
    uint8_t sm_minor;         /**< SM 6.minor; DXIL 1.minor */
    uint32_t entry;           /**< the module's dm_entry() value; DM_NONE: a pass-through
                                   hull shader's null entry function */
    const char *entry_name;
    uint32_t num_threads[3];  /**< compute only */
    uint64_t shader_flags;    /**< docs/dxil.md §4.3 bits; 0 = no tag */
    const struct dxil_sig_element *inputs;
    unsigned input_count;
    const struct dxil_sig_element *outputs;
    unsigned output_count;
    const struct dxil_resource *resources;
    unsigned resource_count;
    const struct dxil_io_dependency *dependencies;
    unsigned dependency_count;
    /* Hull and domain programs (SB_DXIL_SHADER_KIND_HULL / _DOMAIN). */
    const struct dxil_sig_element *patch_constants; /**< PSG1: HS outputs, DS inputs; mesh:
                                                         the per-primitive outputs */
    unsigned patch_constant_count;
    const struct dxil_sig_shape *shapes;
    unsigned shape_count;
    struct dxil_tess_desc tess;
    const struct dxil_gs_state *gs; /**< geometry shaders only (required there) */
    /* Mesh (SB_DXIL_SHADER_KIND_MESH) and amplification programs: num_threads above is
     * their group size, written in MSState / ASState (docs/dxil.md §4.2). */
    uint32_t max_vertices, max_primitives; /**< mesh */
    uint8_t mesh_topology;    /**< mesh: 1 line, 2 triangle */
    uint32_t payload_size;    /**< bytes of the task payload; 0 = none */
    uint32_t wave_size;       /**< compute: [WaveSize(N)] (property tag 11); 0 = none */
};

/**
 * Adds the metadata `d` describes to `m`, writes its bitcode and appends the
 * container to `out`. False (with a message on stderr) if the module or the
 * description was wrong.
 */
bool dxil_program_write(struct dxil_module *m, const struct dxil_program_desc *d,
                        struct tbuf *out);

/** Part FourCC as the container stores it. */
#define DXIL_FOURCC(s) ((uint32_t)(s)[0] | (uint32_t)(s)[1] << 8 | (uint32_t)(s)[2] << 16 | \
                        (uint32_t)(s)[3] << 24)

#endif
