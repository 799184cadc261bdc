/* SPDX-License-Identifier: MIT */
/*
 * The runtime's PICA200 (SHBIN) pieces, shared by program.c, inputs.c and the
 * validation files: the parsed SHBIN a program keeps, the uniform buffer a
 * PICA program reads (translator/IR.md "Registers and the uniform buffer"),
 * and geometry-shader runs (the compute expansion of pica_gs*.c).
 */
#ifndef SB_RUNTIME_PICA_PRIVATE_H
#define SB_RUNTIME_PICA_PRIVATE_H

#include <stdbool.h>
#include <stdint.h>

#include "shaderbridge/validate.h"
#include "translator/ir.h"

struct sb_shbin;

/** The parsed SHBIN of a program sb_rt_program_load_shbin made (and its DVLE index), else NULL. */
const struct sb_shbin *sb_rt_program_shbin(const struct sb_rt_program *program, uint32_t *dvle_index);

/** Whether declaration `d` of `program` is the PICA uniform buffer (cb0 of a PICA program). */
bool sb_rt_pica_is_uniform_buffer(const struct sb_rt_program *program, const struct sb_ir_resource *d);

/**
 * Seeds resource `i` of `in` (the PICA uniform buffer, 1616 bytes with word kinds) the way
 * runtime/README.md "PICA200" states: c0-c95 floats in [-2, 2] (multiples of 1/256, exact
 * in float24), i0-i3 = (count - 1 in 0..7, start 0..15, step 0..3, 0), b0-b15 random bits,
 * then the DVLE's constant table on top (what libctru uploads when it binds the program).
 */
void sb_rt_pica_fill_uniforms(const struct sb_rt_program *program, struct sb_rt_inputs *in, uint32_t i,
                              uint64_t seed);

/** Writes the DVLE constants of `program` (if it has a SHBIN) into uniform buffer words `words`. */
void sb_rt_pica_apply_constants(const struct sb_rt_program *program, uint32_t *words);

/* ---- geometry shaders: the compute expansion (pica_gs*.c; runtime/README.md "PICA200") ---- */

/** t0 of the expansion: a raw buffer, the header (primitive count, record capacity of u0,
 *  vectors per input record, 0) then one input record per primitive. */
#define SB_RT_PICA_GS_INPUT_REGISTER 0u
/** u0 of the expansion: a raw buffer, the header (vertices emitted, primitives run, vectors
 *  per emitted record, 0) written at the end, then one record per EMIT. */
#define SB_RT_PICA_GS_OUTPUT_REGISTER 0u
/** u1 of the expansion: a raw buffer of 1616 bytes, the uniform image the body reads (the
 *  uniform buffer as copied at the start, patched per primitive); scratch for the caller. */
#define SB_RT_PICA_GS_UNIFORM_REGISTER 1u

/** What a geometry-shader expansion expects and writes (runtime/README.md). */
struct sb_rt_pica_gs {
    uint32_t mode;                /**< enum sb_shbin_gs_mode (DVLE byte 0x14) */
    uint32_t first_uniform;       /**< uniform modes: the c# that input vector 0 goes to */
    uint32_t max_record_vectors;  /**< point: 16 (v0-v15); uniform modes: 96 - first_uniform */
    uint32_t vertex_count;        /**< fixed: DVLE 0x17; variable: DVLE 0x16; point: 0 */
    uint32_t output_count;        /**< o# registers stored per EMIT */
    uint8_t output_registers[16]; /**< those registers, ascending (the DVLE output table's) */
    uint32_t record_vectors;      /**< vectors per emitted record: 1 + output_count */
};

/**
 * Builds the compute expansion of the geometry DVLE `dvle_index` of `shbin`, whose front-end
 * program (sb_ir_from_pica) is `front` (it must outlive the result): a one-thread compute
 * program that walks the input primitives in order and runs the lowered GS body for each,
 * registers kept between them. Free with sb_rt_pica_gs_destroy. Errors: the lowering's,
 * SB_ERROR_TRANSLATE_INVALID (an input register past v15), SB_ERROR_OUT_OF_MEMORY.
 */
enum sb_result sb_rt_pica_gs_expand(const struct sb_shbin *shbin, uint32_t dvle_index,
                                    const struct sb_ir_program *front, struct sb_ir_program **out,
                                    struct sb_error *error);
/** The facts of an expansion sb_rt_pica_gs_expand made. */
const struct sb_rt_pica_gs *sb_rt_pica_gs_info(const struct sb_ir_program *expansion);
void sb_rt_pica_gs_destroy(struct sb_ir_program *expansion);

/** The expansion facts of a program loaded from a geometry DVLE, else NULL (program.c). */
const struct sb_rt_pica_gs *sb_rt_program_pica_gs(const struct sb_rt_program *program);

/**
 * Seeded inputs of a geometry-shader program: the uniform buffer as for vertex shaders
 * (b15 as seeded: the first invocation sees it; the expansion sets it for the later ones),
 * t0 with `primitive_count` records of `record_vectors` vectors (0 = the mode's default;
 * clamped to max_record_vectors) holding seeded floats (variable mode: vector 0 = the
 * vertex count 1-8 in all lanes), u0 zeroed with room for `capacity` records (0 = 32 per
 * primitive, within 32 MiB). Tests overwrite the records they choose.
 */
enum sb_result sb_rt_pica_gs_inputs(const struct sb_rt_program *program, uint32_t primitive_count,
                                    uint32_t record_vectors, uint32_t capacity, uint64_t seed,
                                    struct sb_rt_inputs **out, struct sb_error *error);

/** sb_validate of a geometry-shader program: draw_count primitives (0 = 16), one thread. */
enum sb_result sb_rt_pica_gs_validate(struct sb_rt_context *context, const struct sb_rt_program *program,
                                      const struct sb_validate_options *options,
                                      struct sb_validate_report *report, struct sb_error *error);

#endif
