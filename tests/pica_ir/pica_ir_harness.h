/* SPDX-License-Identifier: MIT */
/*
 * A small builder for PICA IR programs written directly in C (no front end yet) and the
 * harness that runs them: a compute program (64 threads per group) reads three input
 * vectors per thread from a raw SRV into r0, r1, r2 and stores r3 into a raw UAV; the body
 * in between is the PICA code under test. run_interp() runs it on the interpreter,
 * run_gpu() translates it (spirv-val clean) and dispatches it on the Vulkan device; the
 * PICA uniform buffer (ir.h layout) is cb0 in both.
 */
#ifndef PICA_IR_HARNESS_H
#define PICA_IR_HARNESS_H

#include <stdbool.h>
#include <stdint.h>

#include "translator/ir.h"
#include "shaderbridge/result.h"

#define PB_MAX_INSTRUCTIONS 512
#define PB_MAX_OPERANDS 2048
#define PB_TEMPS 8u

struct pb {
    struct sb_ir_program program;
    struct sb_ir_function functions[2];
    struct sb_ir_resource resources[3];
    struct sb_ir_signature_element signature[4];
    struct sb_ir_instruction instructions[2][PB_MAX_INSTRUCTIONS];
    struct sb_ir_operand operands[PB_MAX_OPERANDS];
    uint32_t count[2], operand_count, current;
    bool overflow;
};

/* Operands. `sw` is a swizzle string ("xyzw", "x" replicates its last lane). */
struct sb_ir_operand pb_reg(uint32_t file, uint32_t index, const char *sw);
struct sb_ir_operand pb_dst(uint32_t file, uint32_t index, uint32_t mask);
struct sb_ir_operand pb_r(uint32_t index, const char *sw);     /* r# source */
struct sb_ir_operand pb_rd(uint32_t index, uint32_t mask);     /* r# destination */
struct sb_ir_operand pb_imm4(uint32_t x, uint32_t y, uint32_t z, uint32_t w);
struct sb_ir_operand pb_immf(float value);
struct sb_ir_operand pb_neg(struct sb_ir_operand op);
/** c[n] read relative to PICA_ADDRESS lane `lane` (0 a0.x, 1 a0.y, 2 aL). */
struct sb_ir_operand pb_crel(struct pb *b, uint32_t n, uint32_t lane, const char *sw);

/** Starts a compute program with the prologue (r0-r2 <- inputs of this thread). */
void pb_begin_compute(struct pb *b, uint32_t pica_flags);
/** Appends an instruction to the current function; returns it for side fields. */
struct sb_ir_instruction *pb_emit(struct pb *b, uint32_t op, uint32_t flags, const struct sb_ir_operand *dst,
                                  uint32_t src_count, const struct sb_ir_operand *s0,
                                  const struct sb_ir_operand *s1, const struct sb_ir_operand *s2);
/** Ends the body: stores r3 and finishes the program. */
void pb_end_compute(struct pb *b);

/** Uniform buffer contents (ir.h layout), 101 vectors. */
struct pb_uniforms {
    uint32_t words[SB_IR_PICA_UNIFORM_VECTORS * 4];
};

/**
 * Runs `threads` (a multiple of 64) threads with inputs in[thread * 12 + k] (three vectors)
 * and writes out[thread * 4 + k]. False (message printed) on failure.
 */
bool pb_run_interp(const struct pb *b, const struct pb_uniforms *u, const uint32_t *in, uint32_t threads,
                   uint32_t *out);
struct sb_interp_options;
/** pb_run_interp with interpreter options (tracking: the UAV is resource 2 of the table). */
bool pb_run_interp_with(const struct pb *b, const struct pb_uniforms *u, const uint32_t *in, uint32_t threads,
                        uint32_t *out, const struct sb_interp_options *options);
/** The same on the Vulkan device; *skipped set when there is none. */
bool pb_run_gpu(const struct pb *b, const struct pb_uniforms *u, const uint32_t *in, uint32_t threads,
                uint32_t *out, bool *skipped);
/** Frees the Vulkan context pb_run_gpu keeps. */
void pb_gpu_shutdown(void);

#endif
