/* SPDX-License-Identifier: MIT */
/*
 * The runtime's PICA200 (SHBIN) pieces, shared by program.c, inputs.c and the
 * validation files: the parsed SHBIN a program keeps, the uniform buffer a
 * PICA program reads (translator/IR.md "Registers and the uniform buffer"),
 * and geometry-shader runs (pica_geometry*.c).
 */
#ifndef SB_RUNTIME_PICA_PRIVATE_H
#define SB_RUNTIME_PICA_PRIVATE_H

#include <stdbool.h>
#include <stdint.h>

#include "shaderbridge/validate.h"

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

#endif
