/* SPDX-License-Identifier: MIT */
/*
 * Internals of the PICA200 lowering (sb_ir_pica_lower, IR.md §PICA200 programs), shared
 * by its files, callers above helpers (calls point down the list):
 *   pica_lower.c          the driver: functions, the register prologue, copying;
 *   pica_lower_ops.c      one lowering per PICA arithmetic / special op;
 *   pica_lower_operand.c  operand rewriting (PICA files -> temps and the uniform cb);
 *   pica_lower_math.c     float24 rounding and flushing, legacy multiply, and RCP/RSQ/EX2/LG2
 *                         as sequences of exactly rounded ops;
 *   pica_lower_emit.c     the sticky failure, scratch temps, operand makers, instruction
 *                         append.
 * Every float op the lowering emits carries PRECISE (no contraction, no reassociation), so
 * a consumer that follows IR.md produces the same bits as any other.
 */
#ifndef SB_TRANSLATOR_PICA_LOWER_PRIVATE_H
#define SB_TRANSLATOR_PICA_LOWER_PRIVATE_H

#include <stdbool.h>
#include <stdint.h>

#include "ir_private.h"

/** The lowering of one program. */
struct pica_lower {
    const struct sb_ir_program *in;
    struct sb_ir_program *out;
    struct sb_arena *arena;
    struct sb_ir_vec code;          /**< instructions of the function being lowered */
    const struct sb_ir_instruction *at; /**< the source instruction (offsets, errors) */
    uint32_t flags;                 /**< in->pica_flags */
    uint32_t base;                  /**< T: the first temp after the program's own */
    uint32_t next_scratch;          /**< next free scratch temp (reset per source instruction) */
    uint32_t temp_total;            /**< temps the result needs */
    bool has_uniforms;              /**< the uniform cb is declared */
    enum sb_result result;
    struct sb_error *error;
};

/* State temps relative to `base` (ir.h: sb_ir_pica_lower). */
#define PICA_ADDRESS_TEMP(L) ((L)->base)
#define PICA_CONDITION_TEMP(L) ((L)->base + 1)
#define PICA_EMIT_TEMP(L) ((L)->base + 2)
#define PICA_STATE_TEMPS 3u

/* ---- pica_lower_emit.c --------------------------------------------------------------------- */
/** Records the first failure (SB_ERROR_TRANSLATE_INVALID / OUT_OF_MEMORY) at `at`. */
void sb_pl_fail(struct pica_lower *L, enum sb_result code, const char *message);
/** A fresh scratch temp index. */
uint32_t sb_pl_scratch(struct pica_lower *L);
/** r`t` as a destination with `mask`. */
struct sb_ir_operand sb_pl_dst(uint32_t t, uint32_t mask);
/** r`t` as a source with identity swizzle (x y z w). */
struct sb_ir_operand sb_pl_src(uint32_t t);
/** r`t`.llll: lane `lane` replicated. */
struct sb_ir_operand sb_pl_lane(uint32_t t, uint32_t lane);
/** An immediate replicating `bits`. */
struct sb_ir_operand sb_pl_imm(uint32_t bits);
/** `op` negated (SB_IR_MOD_NEG toggled). */
struct sb_ir_operand sb_pl_neg(struct sb_ir_operand op);
/**
 * Appends one instruction (operands copied into the program): `dst` may be NULL for none;
 * float results get PRECISE. Returns false once anything failed.
 */
bool sb_pl_emit(struct pica_lower *L, uint32_t op, const struct sb_ir_operand *dst, uint32_t src_count,
               const struct sb_ir_operand *a, const struct sb_ir_operand *b, const struct sb_ir_operand *c);
/* ---- pica_lower_operand.c ------------------------------------------------------------------ */
/**
 * A source of the source instruction rewritten into core IR: PICA_ADDRESS/CONDITION become
 * their temps, i#/b#/c# reads go through the uniform cb (b# and c# through a scratch temp,
 * c# with the §8 relative-address rules), and in either mode float uniforms and inputs
 * are read through sb_pl_read_fix. Swizzle and modifiers are kept. False on failure.
 */
bool sb_pl_source(struct pica_lower *L, const struct sb_ir_operand *in, struct sb_ir_operand *out);
/** A destination rewritten (PICA_ADDRESS/CONDITION -> temps); false for uniform files. */
bool sb_pl_destination(struct pica_lower *L, const struct sb_ir_operand *in, struct sb_ir_operand *out);

/* ---- pica_lower_math.c -------------------------------------------------------------------- */
/** Lanes `mask` of r`t`: float uniform / input read rule of the mode (IR.md). */
void sb_pl_read_fix(struct pica_lower *L, uint32_t t, uint32_t mask);
/** Lanes `mask` of r`t`: |x| < 2^-62 -> +0 (arithmetic inputs). */
void sb_pl_flush(struct pica_lower *L, uint32_t t, uint32_t mask);
/** Lanes `mask` of r`t`: arithmetic result rule of the mode (round, overflow, flush, NaN). */
void sb_pl_result_fix(struct pica_lower *L, uint32_t t, uint32_t mask);
/** Lanes `mask` of product r`p` = r`a` * r`b`: NaN from 0 * inf becomes +0 (§6.1). */
void sb_pl_legacy_fix(struct pica_lower *L, uint32_t p, uint32_t a, uint32_t b, uint32_t mask);
/** Lane x of r`t` <- rcp / rsq / ex2 / lg2 of lane x of r`x` (x already flushed). */
void sb_pl_rcp(struct pica_lower *L, uint32_t t, uint32_t x);
void sb_pl_rsq(struct pica_lower *L, uint32_t t, uint32_t x);
void sb_pl_ex2(struct pica_lower *L, uint32_t t, uint32_t x);
void sb_pl_lg2(struct pica_lower *L, uint32_t t, uint32_t x);

/* ---- pica_lower_ops.c --------------------------------------------------------------------- */
/**
 * Lowers the source instruction `inst` if it is a float op with PICA semantics or a PICA
 * op; returns false without emitting when it is none (the driver then copies it with
 * rewritten operands). Failures are recorded in L->result.
 */
bool sb_pl_lower_op(struct pica_lower *L, const struct sb_ir_instruction *inst);

#endif
