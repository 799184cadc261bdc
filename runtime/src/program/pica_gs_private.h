/* SPDX-License-Identifier: MIT */
/*
 * Internals of the PICA200 geometry-shader compute expansion (runtime/README.md
 * "PICA200 geometry shaders"), shared by its files:
 *   pica_gs.c        the driver: the lowered GS body rewritten into subroutines of a
 *                    one-thread compute program, with EMIT turned into record stores;
 *   pica_gs_entry.c  the new entry function: uniform copy, the primitive loop, the
 *                    per-primitive input load, b15, the final header store;
 *   pica_gs_build.c  a tiny instruction builder over malloc'd memory the expansion owns.
 * Its seeded inputs and validation are validate/validate_pica_gs.c.
 */
#ifndef SB_RUNTIME_PICA_GS_PRIVATE_H
#define SB_RUNTIME_PICA_GS_PRIVATE_H

#include <stdbool.h>
#include <stdint.h>

#include "program_private.h"
#include "translator/ir.h"

/** Most input primitives one expansion run walks (the header's count is clamped to it). */
#define PGS_MAX_PRIMITIVES 65536u
/** Scratch temps after the expansion's state temps. */
#define PGS_SCRATCH_TEMPS 5u

/** The expansion being built; `program` is what callers see (first member). */
struct pgs {
    struct sb_ir_program program;
    const struct sb_ir_program *lowered; /**< the front end's program lowered (the loader's) */
    void **blocks;                   /**< every allocation the expansion owns */
    uint32_t block_count, block_capacity;
    struct sb_ir_instruction *code;  /**< the function being built */
    uint32_t code_count, code_capacity;
    bool failed;                     /**< out of memory somewhere */
    struct sb_rt_pica_gs info;
    bool has_uniforms;               /**< the lowered program declares the uniform cb */
    uint32_t base;                   /**< T: the front end's temps (r0-r15 + its bookkeeping) */
    uint32_t lowered_temps;          /**< temps of the lowered program */
    uint32_t in_temp;                /**< v0-v15 (point mode): temps in_temp .. +15 */
    uint32_t out_temp;               /**< o0-o15 of the bank being written: 16 temps */
    uint32_t other_temp;             /**< o0-o15 of the other bank: 16 temps */
    uint32_t state_temp;             /**< x bank offset 0/16, y emitted count, z primitive, w count */
    uint32_t loop_temp;              /**< y record capacity, z record vectors */
    uint32_t scratch_temp;           /**< PGS_SCRATCH_TEMPS scratch temps from here */
};

/* ---- pica_gs_build.c --------------------------------------------------------------------- */
/** malloc owned by the expansion (zeroed); NULL and `failed` set when out of memory. */
void *pgs_alloc(struct pgs *g, size_t count, size_t size);
/** Appends one instruction with operands copied (dst may be NULL); returns it or NULL. */
struct sb_ir_instruction *pgs_emit(struct pgs *g, uint32_t op, const struct sb_ir_operand *dst, uint32_t src_count,
                                   const struct sb_ir_operand *a, const struct sb_ir_operand *b,
                                   const struct sb_ir_operand *c);
/** Conditional op (IF, BREAKC) on lane `lane` of r`t`, true when nonzero. */
void pgs_test(struct pgs *g, uint32_t op, uint32_t t, uint32_t lane);
/** Moves the finished code into a function (temp_count set later); false when out of memory. */
bool pgs_finish(struct pgs *g, struct sb_ir_function *out, uint32_t id);
struct sb_ir_operand pgs_dst(uint32_t t, uint32_t mask);
struct sb_ir_operand pgs_src(uint32_t t);
struct sb_ir_operand pgs_lane(uint32_t t, uint32_t lane);
struct sb_ir_operand pgs_imm(uint32_t bits);
/** cb0[vector] (the PICA uniform buffer). */
struct sb_ir_operand pgs_uniform(uint32_t vector);
/** t0 (the input records) as a source; u`reg` (u0 the emitted records, u1 the uniform
 *  image) as a load source or a store destination of lanes `mask`. */
struct sb_ir_operand pgs_inputs(void);
struct sb_ir_operand pgs_uav(uint32_t reg, uint8_t mask);
/** An arena copy of `op` (relative parts must outlive the instruction list). */
const struct sb_ir_operand *pgs_keep(struct pgs *g, struct sb_ir_operand op);

/* ---- pica_gs_entry.c --------------------------------------------------------------------- */
/** Builds function 0 (the body is function 1). */
bool pgs_entry(struct pgs *g, struct sb_ir_function *out);

#endif
