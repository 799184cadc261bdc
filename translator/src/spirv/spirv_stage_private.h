/* SPDX-License-Identifier: MIT */
/*
 * Shared state of the stage plumbing of the SPIR-V back end (spirv_stage*.c):
 * the Input/Output variables the stage code makes itself — per-vertex
 * (arrayed) inputs of GS/HS/DS, the hull shader's per-control-point outputs
 * and patch constants, the domain shader's patch-constant inputs and the
 * geometry shader's outputs of streams other than 0 — and the copies between
 * them and the Private register arrays (model: spirv_private.h).
 *
 * Location scheme (shared by HS and DS, matching spirv_io.c for the rest):
 * a user-semantic element gets Location = its register index and Component
 * = its first lane. Patch constants (Patch decoration) come after the
 * control points, because spirv-val counts per-vertex and per-patch
 * variables in one location space: Location = B + register, where B = 1 +
 * the highest control-point register of the signature (HS: its outputs; DS:
 * its inputs; D3D requires the two signatures to agree), so HS patch output
 * o#N and DS input vpc#N meet at Location B + N.
 */
#ifndef SHADERBRIDGE_SPIRV_STAGE_PRIVATE_H
#define SHADERBRIDGE_SPIRV_STAGE_PRIVATE_H

#include "spirv_private.h"

/** v#/o#/vpc# registers of a GS/HS/DS signature file (D3D11: 32 each); larger is invalid input. */
#define SB_SPV_STAGE_IO_REGISTERS 32u

/** What a stage variable is for (when its copy runs). */
enum sb_spv_stage_role {
    SB_SPV_ROLE_VERTEX_IN = 0, /**< GS/HS/DS per-vertex input, copied in by the prologue */
    SB_SPV_ROLE_CP_OUT,        /**< HS per-control-point output, written at [InvocationId] */
    SB_SPV_ROLE_PATCH_OUT,     /**< HS patch constant (or tess factor), written by invocation 0 */
    SB_SPV_ROLE_PATCH_IN,      /**< DS patch constant (or tess factor), copied in by the prologue */
    SB_SPV_ROLE_STREAM_OUT,    /**< GS output of a non-zero stream, copied before its emit */
};

/** How the variable's value maps to register lanes. */
enum sb_spv_stage_shape {
    SB_SPV_SHAPE_VECTOR = 0,   /**< scalar/vector of `ir_type` <-> lanes first_lane.. */
    SB_SPV_SHAPE_FLOAT_ARRAY,  /**< float[] built-in: lane k of lane_mask -> element array_base + k */
};

/** One Input/Output variable of the stage code and the register lanes it mirrors. */
struct sb_spv_stage_var {
    const struct sb_ir_signature_element *element;
    uint32_t role;           /**< enum sb_spv_stage_role */
    uint32_t shape;          /**< enum sb_spv_stage_shape */
    uint32_t var;            /**< the Input/Output variable */
    uint32_t reg;            /**< register index in the role's register file */
    uint32_t lane_mask;      /**< lanes carried */
    uint32_t first_lane, lane_count;
    uint32_t ir_type;        /**< FLOAT/INT/UINT view of the variable's components */
    uint32_t outer;          /**< per-vertex array length; 0 = not arrayed */
    uint32_t array_base;     /**< SHAPE_FLOAT_ARRAY: element of the first carried lane */
    uint32_t stream;         /**< ROLE_STREAM_OUT */
    bool output;
    bool in_block;           /**< `var` is the text targets' gl_PerVertex block array, this
                                  variable its member `member` (spirv_stage_io.c) */
    uint32_t member;
};

struct sb_spv_stage_state {
    struct sb_spv_stage_var *vars;
    uint32_t var_count, var_capacity;
    uint32_t vertices;       /**< GS input vertices / HS, DS input control points */
    bool streams;            /**< GS: OpEmitStreamVertex forms (a non-zero stream is used) */
    uint32_t invocation_id;  /**< HS/GS InvocationId input variable (int), 0 until made */
    uint32_t patch_location_base; /**< HS/DS: Location of patch constant register 0 */
    /** GS: outputs of stream s sit at Location = register + s * stride (spirv-val counts all
     *  streams in one location space; only stream 0 reaches a fragment shader). */
    uint32_t stream_location_stride;
    /** Float-array built-ins (clip, cull) of arrayed inputs/outputs: lanes given so far. */
    uint32_t distance_lanes[2][2]; /**< [output][cull] */
    /** Text targets: the gl_PerVertex block array of arrayed inputs / outputs with clip or
     *  cull distances ([output]; 0 until made), and the built-in of each of its members. */
    uint32_t per_vertex_block[2];
    SpvBuiltIn per_vertex_members[2][3];
    uint32_t per_vertex_member_count[2];
};

/** The stage state (allocated on first use; NULL after an allocation failure, recorded). */
struct sb_spv_stage_state *sb_spv_stage_state(struct sb_spv_context *ctx);

/** HS/DS: 1 + the highest control-point register in the signature (header comment). */
uint32_t sb_spv_stage_patch_location_base(const struct sb_ir_program *p);

/** Largest register index + 1 that the program uses in each file (signature, ranges,
 *  operands), all files in one scan of the instructions. */
void sb_spv_stage_file_needs(const struct sb_ir_program *p, uint32_t need[SB_IR_FILE_COUNT]);

/**
 * Declares the variables of every signature element that matches `role`
 * (see enum sb_spv_stage_role), arrayed by `outer` (0 = not). Reports them
 * in the translation's interface lists.
 */
enum sb_result sb_spv_stage_declare_role(struct sb_spv_context *ctx, uint32_t role, uint32_t outer);

/**
 * Copies variable -> register lanes (`vertex` an id of the per-vertex index,
 * or 0 when the variable is not arrayed; `reg_ptr` a Private vec4 pointer).
 */
void sb_spv_stage_copy_in(struct sb_spv_context *ctx, const struct sb_spv_stage_var *sv,
                          uint32_t vertex, uint32_t reg_ptr);
/** Copies register lanes -> variable (arguments as sb_spv_stage_copy_in). */
void sb_spv_stage_copy_out(struct sb_spv_context *ctx, const struct sb_spv_stage_var *sv,
                           uint32_t vertex, uint32_t reg_ptr);

/** Pointer (Private vec4) to register `reg` of file `file`, at `vertex` (an id; 0 = not arrayed). */
uint32_t sb_spv_stage_register(struct sb_spv_context *ctx, uint32_t file, uint32_t vertex, uint32_t reg);

/** Copies every ROLE_VERTEX_IN variable into files[INPUT] for each of the `vertices`. */
void sb_spv_stage_copy_vertices_in(struct sb_spv_context *ctx);

/** Stores a scalar int/uint `value` (bits) into lane x of a special one-register file, if declared. */
void sb_spv_stage_store_special(struct sb_spv_context *ctx, uint32_t file, uint32_t value, uint32_t type);

/** The InvocationId input (int scalar), loaded in the open function. */
uint32_t sb_spv_stage_load_invocation_id(struct sb_spv_context *ctx);

/* Per-stage parts. */
/* spirv_stage_mesh.c: mesh and amplification programs (SPV_EXT_mesh_shader). */
enum sb_result sb_spv_mesh_declare(struct sb_spv_context *ctx);
enum sb_result sb_spv_mesh_instruction(struct sb_spv_context *ctx, const struct sb_ir_instruction *inst);

enum sb_result sb_spv_gs_declare(struct sb_spv_context *ctx);
enum sb_result sb_spv_gs_instruction(struct sb_spv_context *ctx, const struct sb_ir_instruction *inst);
void sb_spv_gs_main(struct sb_spv_context *ctx);
enum sb_result sb_spv_hs_declare(struct sb_spv_context *ctx);
void sb_spv_hs_main(struct sb_spv_context *ctx);
enum sb_result sb_spv_ds_declare(struct sb_spv_context *ctx);
void sb_spv_ds_main(struct sb_spv_context *ctx);
/** HS and DS: Triangles/Quads/Isolines from tess_domain on the entry point. */
enum sb_result sb_spv_tess_domain_mode(struct sb_spv_context *ctx);

#endif
