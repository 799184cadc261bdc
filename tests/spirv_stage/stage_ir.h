/* SPDX-License-Identifier: MIT */
/*
 * Hand-built IR programs for the stage tests (geometry, hull, domain):
 * a tiny builder over static pools and the checks run on each translation.
 */
#ifndef SB_STAGE_IR_H
#define SB_STAGE_IR_H

#include <stdbool.h>
#include <stdint.h>

#include "translator/ir.h"
#include "shaderbridge/translate.h"

/** Starts a new program of `stage` (all pools emptied). */
struct sb_ir_program *st_begin(uint32_t stage);
/** Starts the next function; instance_count for hull phases (1 otherwise). */
void st_function(uint32_t instance_count, uint32_t temps);
/** Operands. */
struct sb_ir_operand st_reg(uint32_t file, uint32_t index, uint32_t mask);
struct sb_ir_operand st_reg2(uint32_t file, uint32_t i0, uint32_t i1, uint32_t mask);
struct sb_ir_operand st_special(uint32_t file);
struct sb_ir_operand st_immf(float x);
/** Gives index `slot` of `op` a relative part: lane x of special file `file`. */
void st_relative(struct sb_ir_operand *op, uint32_t slot, uint32_t file);
/** Makes index `slot` of `op` relative to lane `lane` of r`temp`. */
void st_relative_temp(struct sb_ir_operand *op, uint32_t slot, uint32_t temp, uint8_t lane);
/** mov dst, src (identity swizzle). */
void st_mov(struct sb_ir_operand dst, struct sb_ir_operand src);
/** An op without operands (RET) or with a stream (EMIT, CUT). */
void st_op(uint32_t op, uint32_t stream);
/** Appends any instruction with its destinations and sources. */
void st_inst(uint32_t op, uint32_t dst_count, const struct sb_ir_operand *dst, uint32_t src_count,
             const struct sb_ir_operand *src);
/** A signature element (mask also its signature mask; stream for GS outputs). */
void st_sig(uint32_t kind, uint32_t file, uint32_t reg, uint32_t mask, const char *semantic,
            uint32_t system_value, uint32_t stream);
/** Finishes the program (functions and signature attached). */
struct sb_ir_program *st_end(void);

extern int st_failures;
#define ST_CHECK(cond)                                                                           \
    do {                                                                                         \
        if (!(cond)) {                                                                           \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond);            \
            st_failures++;                                                                       \
        }                                                                                        \
    } while (0)

/**
 * Translates for vulkan1.0, 1.1 and 1.3, validating each; returns the
 * vulkan1.1 disassembly (malloc'd) or NULL after recording a failure.
 */
char *st_translate(const struct sb_ir_program *p, const char *what);
/** Occurrences of `needle` in `text`. */
unsigned st_count(const char *text, const char *needle);

#endif
