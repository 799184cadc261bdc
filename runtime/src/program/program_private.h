/* SPDX-License-Identifier: MIT */
/*
 * What the program loader (program.c) keeps beyond the public sb_rt_program and
 * what the validation files read from it: the parsed SHBIN of a PICA200 program
 * and the geometry-shader compute expansion (pica_gs*.c; runtime/README.md
 * "PICA200"). The seeding and validation of PICA programs is in
 * validate/validate_pica.h.
 */
#ifndef SB_RUNTIME_PROGRAM_PRIVATE_H
#define SB_RUNTIME_PROGRAM_PRIVATE_H

#include <stdbool.h>
#include <stdint.h>

#include "shaderbridge/validate.h"

struct sb_shbin;

/** The parsed SHBIN of a program sb_rt_program_load_shbin made (and its DVLE index), else NULL. */
const struct sb_shbin *sb_rt_program_shbin(const struct sb_rt_program *program, uint32_t *dvle_index);

/**
 * A translation of `program`'s IR with the options it was loaded with, except that every
 * unbounded SM5.1 range becomes an array of `unbounded` descriptors (translate.h,
 * unbounded_descriptor_count): for inputs that give those ranges more descriptors than
 * SB_RT_UNBOUNDED_DESCRIPTORS. Free with sb_translation_destroy. Errors: sb_translate_ir's;
 * SB_ERROR_INVALID_ARGUMENT for a program not made by sb_rt_program_load* or a count of 0.
 */
enum sb_result sb_rt_program_translate_unbounded(const struct sb_rt_program *program, uint32_t unbounded,
                                                 struct sb_translation **out, struct sb_error *error);

/**
 * sb_rt_program_translate_unbounded with, when `device` is not NULL, its device profile and
 * storage formats (sb_translate_options::device, ::storage_formats; the rest of `device` is
 * ignored, its formats borrowed for the call) in place of the loaded ones: the program fitted
 * to a device that lacks a feature (validate/validate_device.c). Errors: the same.
 */
enum sb_result sb_rt_program_translate_fitted(const struct sb_rt_program *program, uint32_t unbounded,
                                              const struct sb_translate_options *device,
                                              struct sb_translation **out, struct sb_error *error);

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
 * program (sb_ir_from_pica) is `front` and its PICA lowering (sb_ir_pica_lower, run once by
 * the loader) `lowered`; both must outlive the result: a one-thread compute program that
 * walks the input primitives in order and runs the lowered GS body for each, registers kept
 * between them. Free with sb_rt_pica_gs_destroy. Errors: SB_ERROR_TRANSLATE_INVALID (an
 * input register past v15), SB_ERROR_OUT_OF_MEMORY, SB_ERROR_INVALID_ARGUMENT (`lowered`
 * not lowered).
 */
enum sb_result sb_rt_pica_gs_expand(const struct sb_shbin *shbin, uint32_t dvle_index,
                                    const struct sb_ir_program *front, const struct sb_ir_program *lowered,
                                    struct sb_ir_program **out, struct sb_error *error);
/** The facts of an expansion sb_rt_pica_gs_expand made. */
const struct sb_rt_pica_gs *sb_rt_pica_gs_info(const struct sb_ir_program *expansion);
void sb_rt_pica_gs_destroy(struct sb_ir_program *expansion);

/** The expansion facts of a program loaded from a geometry DVLE, else NULL (program.c). */
const struct sb_rt_pica_gs *sb_rt_program_pica_gs(const struct sb_rt_program *program);

#endif
