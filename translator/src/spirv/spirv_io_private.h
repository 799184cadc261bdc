/* SPDX-License-Identifier: MIT */
/*
 * The stage-IO state shared by spirv_io.c (declarations, the reported interface, the
 * prologue and epilogue of the general path) and spirv_io_direct.c (the same copies for
 * direct files, and the input values both paths compute). Model in spirv_private.h.
 */
#ifndef SHADERBRIDGE_SPIRV_IO_PRIVATE_H
#define SHADERBRIDGE_SPIRV_IO_PRIVATE_H

#include "spirv_private.h"

/* How one variable's value is carried between the variable and the lanes. */
enum io_copy_kind {
    IO_PLAIN,        /* vecN of the element's component type <-> lanes */
    IO_FRAG_COORD,   /* vec4, w = 1/w */
    IO_FRONT_FACING, /* bool -> 0xFFFFFFFF/0 */
    IO_INT_BUILTIN,  /* int/uint scalar, optionally minus a base built-in */
    IO_UVEC3,        /* uvec3 compute ids -> lanes xyz */
    IO_DISTANCE,     /* float[N] clip/cull array; lanes -> elements from `array_base` */
    IO_SAMPLE_MASK,  /* int[1] <-> lane */
    IO_FULLY_COVERED, /* bool -> 1/0 (D3D's vInnerCoverage is a uint holding 0 or 1) */
};

struct io_copy {
    uint32_t kind;           /* enum io_copy_kind */
    bool output;
    uint32_t var;
    uint32_t base_var;       /* IO_INT_BUILTIN: BaseVertex/BaseInstance to subtract, or 0 */
    uint32_t file, reg;      /* the register the lanes live in */
    uint32_t first_lane, lane_count;
    uint32_t lane_mask;      /* lanes written (IO_DISTANCE: may be sparse) */
    uint32_t ir_type;        /* component view of the variable */
    uint32_t array_base;     /* IO_DISTANCE */
    uint32_t array_size;     /* IO_DISTANCE */
    /* Direct outputs: lanes written by the open run of ALU instructions and not stored yet,
     * and their values (by lane - first_lane), stored by sb_spv_io_direct_flush. */
    uint32_t pending_lanes;
    uint32_t pending[4];
};

struct io_state {
    struct io_copy *copies;
    uint32_t count, capacity;
    /* The register values of the direct input files (sb_spv_io_direct_begin): value_storage,
     * or direct_values (allocated) when they need more. */
    uint32_t value_storage[64 + 8];
    uint32_t *direct_values;
    bool pending;                 /* some copy has pending_lanes */
    struct { uint32_t builtin, var; bool output; } builtins[64]; /* created built-ins */
    uint32_t builtin_count;
    bool draw_parameters;         /* DrawParameters declared */
    uint32_t clip_lanes[2], cull_lanes[2]; /* [output]: lanes assigned so far */
    uint32_t clip_var[2], cull_var[2];
};

/*
 * The value an input copy puts into its register: `*n` float lanes for lanes first_lane.. of
 * the register, D3D's conventions applied. Not for IO_DISTANCE (one array element per lane).
 */
uint32_t sb_spv_io_input_value(struct sb_spv_context *ctx, const struct io_copy *c, uint32_t *n);
/** Element `index` of the ClipDistance/CullDistance Input array of an IO_DISTANCE copy. */
uint32_t sb_spv_io_distance_input(struct sb_spv_context *ctx, const struct io_copy *c, uint32_t index);
/* spirv_sysvals.c: the system values of newer D3D features (IR.md §System values). */
/** How a system value's built-in is shaped: a one-lane uint (Flat in a fragment shader), a
 *  bool landing as 0xFFFFFFFF/0, or a vec3 of floats in lanes xyz. */
enum sb_spv_sysval_shape { SB_SPV_SYSVAL_UINT, SB_SPV_SYSVAL_INT, SB_SPV_SYSVAL_BOOL, SB_SPV_SYSVAL_FVEC3 };
struct sb_spv_sysval {
    SpvBuiltIn builtin;
    uint32_t shape;           /**< enum sb_spv_sysval_shape */
    bool decorate_volatile;   /**< HelperInvocation from SPIR-V 1.6 */
};
/** The built-in of vViewID, vHelperLane or an element of system value 23 (SV_Barycentrics) or
 *  24 (SV_ShadingRate), its capability and extension declared; false (recorded) when refused. */
bool sb_spv_sysval_builtin(struct sb_spv_context *ctx, const struct sb_ir_signature_element *e, bool output,
                           struct sb_spv_sysval *out);

/** Shuffle components putting a copy's `n` lanes over a register (0-3 = old, 4.. = new). */
void sb_spv_io_merge_components(const struct io_copy *c, uint32_t n, uint32_t comps[4]);

#endif
