/* SPDX-License-Identifier: MIT */
/*
 * The PICA200 (SHBIN) side of validation, shared by the seeded inputs
 * (inputs.c, inputs_pica.c) and the harnesses (validate.c, validate_pica_gs.c):
 * the uniform buffer a PICA program reads (translator/IR.md "Registers and the
 * uniform buffer") and geometry-shader runs of the compute expansion
 * (program/program_private.h).
 */
#ifndef SB_RUNTIME_VALIDATE_PICA_H
#define SB_RUNTIME_VALIDATE_PICA_H

#include <stdbool.h>
#include <stdint.h>

#include "shaderbridge/validate.h"
#include "translator/ir.h"
#include "program/program_private.h"

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
