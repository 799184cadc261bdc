/* SPDX-License-Identifier: MIT */
/*
 * The enums that translation, the runtime, the interpreter and validation
 * report in their public structs, and the program handle they pass around.
 *
 * A shader program (struct sb_ir_program) is opaque to users: the runtime
 * makes one (sb_rt_program_load, runtime.h) and the interpreter and
 * sb_translate_ir take it back. Its layout is the translator's internal
 * intermediate representation and may change between any two versions.
 */
#ifndef SHADERBRIDGE_TYPES_H
#define SHADERBRIDGE_TYPES_H

#ifdef __cplusplus
extern "C" {
#endif

/** A shader program in shaderbridge's IR; opaque. */
struct sb_ir_program;

/** Shader stages (D3D's; PICA200 vertex and geometry shaders map onto them). Mesh and
 *  amplification programs are translated to SPIR-V (SPV_EXT_mesh_shader) but never run:
 *  the interpreter, `run`, `validate` and the layer refuse them, naming the stage. */
enum sb_ir_stage {
    SB_IR_STAGE_VERTEX = 0, SB_IR_STAGE_PIXEL = 1, SB_IR_STAGE_GEOMETRY = 2,
    SB_IR_STAGE_HULL = 3, SB_IR_STAGE_DOMAIN = 4, SB_IR_STAGE_COMPUTE = 5,
    SB_IR_STAGE_MESH = 6,          /**< D3D mesh shader (SPIR-V MeshEXT) */
    SB_IR_STAGE_AMPLIFICATION = 7, /**< D3D amplification shader (SPIR-V TaskEXT) */
    SB_IR_STAGE_MAX_ENUM = 0x7fffffff
};

/** How a 32-bit lane (or a lane pair for the 64-bit types) is viewed. */
enum sb_ir_type {
    SB_IR_TYPE_NONE = 0, /**< no value (control flow, declarations) */
    SB_IR_TYPE_FLOAT = 1, SB_IR_TYPE_INT = 2, SB_IR_TYPE_UINT = 3,
    SB_IR_TYPE_BOOL = 4,    /**< 0 / 0xFFFFFFFF as D3D comparisons produce */
    SB_IR_TYPE_DOUBLE = 5,  /**< a lane pair */
    SB_IR_TYPE_MAX_ENUM = 0x7fffffff
};

/** Interpolation modes of pixel-shader inputs (the SM4 token values,
 *  ../shared/docs/sm4-tokens.md §8.2). */
enum sb_ir_interpolation {
    SB_IR_INTERP_UNDEFINED = 0, SB_IR_INTERP_CONSTANT = 1, SB_IR_INTERP_LINEAR = 2,
    SB_IR_INTERP_LINEAR_CENTROID = 3, SB_IR_INTERP_LINEAR_NOPERSPECTIVE = 4,
    SB_IR_INTERP_LINEAR_NOPERSPECTIVE_CENTROID = 5, SB_IR_INTERP_LINEAR_SAMPLE = 6,
    SB_IR_INTERP_LINEAR_NOPERSPECTIVE_SAMPLE = 7,
    SB_IR_INTERP_MAX_ENUM = 0x7fffffff
};

/** Resource register classes (for bindings). */
enum sb_ir_resource_class {
    SB_IR_RESOURCE_CBV = 0,       /**< cb# */
    SB_IR_RESOURCE_SRV = 1,       /**< t# */
    SB_IR_RESOURCE_SAMPLER = 2,   /**< s# */
    SB_IR_RESOURCE_UAV = 3,       /**< u# */
    SB_IR_RESOURCE_CLASS_MAX_ENUM = 0x7fffffff
};

/*
 * PICA200 numerics and [UNK] choices (translator/IR.md §PICA200 programs), for
 * sb_translate_shbin (translate.h) and sb_rt_program_load_shbin (runtime.h).
 */
/** float24-exact mode: float uniform and input reads are rounded to float24 (subnormals
 *  kept), every arithmetic result is rounded to float24, overflows to inf and flushes below
 *  2^-62 to +0. Without it (fast mode) results keep float32 mantissas and range. */
#define SB_IR_PICA_FLOAT24 0x1u
/** [UNK] float24 rounding: truncate the mantissa instead of rounding to nearest even. */
#define SB_IR_PICA_ROUND_TRUNCATE 0x2u
/** [UNK] MAX: plain `a > b ? a : b` (Azahar) instead of the measured rule where an infinite
 *  second operand wins (max(0, -inf) = -inf, the default). */
#define SB_IR_PICA_MAX_EMULATOR 0x4u
/** [UNK] PICA_CMP compare ops 6 and 7 leave the flag unchanged (Azahar) instead of setting
 *  it true (3dbrew/GBATEK, the default). */
#define SB_IR_PICA_CMP67_KEEP 0x8u
/** Marks a program whose PICA operations were lowered to core IR (set by the translator's
 *  PICA lowering pass on its result); never valid as an input flag. */
#define SB_IR_PICA_LOWERED 0x80000000u

#ifdef __cplusplus
}
#endif

#endif
