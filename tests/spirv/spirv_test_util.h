/* SPDX-License-Identifier: MIT */
/*
 * Helpers for the SPIR-V back-end tests: building IR programs by hand
 * (operands, instructions, signature elements) and asking questions of the
 * emitted words (does the module hold this instruction, this decoration).
 */
#ifndef SB_SPIRV_TEST_UTIL_H
#define SB_SPIRV_TEST_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "translator/ir.h"
#include "shaderbridge/translate.h"

/* ---- IR construction (all storage is static pools reset by ir_reset) ---- */

void ir_reset(void);
/** A destination r#/o#/... with a write mask. */
struct sb_ir_operand dst_reg(uint32_t file, uint32_t index, uint32_t mask);
/** A source with swizzle "xyzw"-style string ("xxyy", "x", ...). */
struct sb_ir_operand src_reg(uint32_t file, uint32_t index, const char *swizzle);
/** A 2-index source or destination (x#[i], cb#[i], v[vertex][reg]). */
struct sb_ir_operand reg2(uint32_t file, uint32_t i0, uint32_t i1, uint32_t mask, const char *swizzle);
/** An immediate of four lanes (bits). */
struct sb_ir_operand imm(uint32_t x, uint32_t y, uint32_t z, uint32_t w);
struct sb_ir_operand immf(float x, float y, float z, float w);
/** A special one-register file operand (vThreadID, oDepth). */
struct sb_ir_operand special(uint32_t file, uint32_t mask, const char *swizzle);
/** Gives operand `op`'s index `slot` a relative part (copied into a pool). */
void set_relative(struct sb_ir_operand *op, uint32_t slot, struct sb_ir_operand relative);

/** Appends an instruction to the function being built. */
struct sb_ir_instruction *emit(uint32_t op, uint32_t flags, uint32_t dst_count,
                               const struct sb_ir_operand *dst, uint32_t src_count,
                               const struct sb_ir_operand *src);
/** Shorthands. */
struct sb_ir_instruction *emit0(uint32_t op);
struct sb_ir_instruction *emit1(uint32_t op, struct sb_ir_operand d, struct sb_ir_operand a);
struct sb_ir_instruction *emit2(uint32_t op, struct sb_ir_operand d, struct sb_ir_operand a,
                                struct sb_ir_operand b);
struct sb_ir_instruction *emit3(uint32_t op, struct sb_ir_operand d, struct sb_ir_operand a,
                                struct sb_ir_operand b, struct sb_ir_operand c);
struct sb_ir_instruction *emit_cond(uint32_t op, bool nz, struct sb_ir_operand c);
/** Starts the next function (0 = entry); `label` is its SM4 label id. */
void begin_function(uint32_t label);
/** Adds a signature element. */
void add_signature(uint32_t kind, uint32_t file, uint32_t reg, uint32_t mask, const char *semantic,
                   uint32_t semantic_index, uint32_t system_value, uint32_t component_type,
                   uint32_t interpolation);
/** Adds a resource declaration (returns it so tests can tweak fields). */
struct sb_ir_resource *add_resource(uint32_t resource_class, uint32_t id);
/** The program built so far (stage, temps and thread group to be set by the caller). */
struct sb_ir_program *ir_program(uint32_t stage, uint32_t temps);

/* ---- module inspection ---- */

/** Number of instructions with opcode `op` whose first operands equal `ops` (count may be 0). */
uint32_t count_op(const struct sb_translation *t, uint32_t op, const uint32_t *ops, uint32_t count);
/** Whether some id is decorated with `decoration` [literal]. */
bool has_decoration(const struct sb_translation *t, uint32_t decoration, const uint32_t *literal);
/** The id decorated BuiltIn `builtin`, or 0. */
uint32_t builtin_var(const struct sb_translation *t, uint32_t builtin);
/** Whether `id` carries decoration [literal]. */
bool id_has_decoration(const struct sb_translation *t, uint32_t id, uint32_t decoration,
                       const uint32_t *literal);
/** Number of OpVariable of `storage_class` (SpvStorageClass). */
uint32_t count_variables(const struct sb_translation *t, uint32_t storage_class);
/** The OpVariable of `storage_class` decorated Location `location`, or 0. */
uint32_t location_var(const struct sb_translation *t, uint32_t storage_class, uint32_t location);
/** Number of OpStore through `pointer` whose value is (null_value) or is not an OpConstantNull. */
uint32_t count_stores(const struct sb_translation *t, uint32_t pointer, bool null_value);
/** The execution model of the (single) OpEntryPoint, or 0xFFFFFFFF. */
uint32_t entry_model(const struct sb_translation *t);
/** Number of interface ids listed by the entry point. */
uint32_t entry_interface_count(const struct sb_translation *t);

/* ---- checks ---- */

extern int g_failures;
#define CHECK(cond)                                                                              \
    do {                                                                                         \
        if (!(cond)) {                                                                           \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond);            \
            g_failures++;                                                                        \
        }                                                                                        \
    } while (0)

/**
 * Translates the built program for `env` with `flags`, validates with
 * sb_spirv_validate; prints the error and disassembly on failure.
 * Returns the translation (NULL on failure, counted as a failure).
 */
struct sb_translation *translate_checked(const struct sb_ir_program *p, enum sb_target_env env,
                                         uint32_t flags, const char *what);

/** One named case of a test program. */
struct test_case {
    const char *name;
    void (*run)(void);
};

/**
 * Runs the case named by argv[1] (every case without an argument) and reports the
 * failed checks: the exit status of a test program (2 for an unknown case name).
 */
int run_test_cases(int argc, char **argv, const struct test_case *cases, size_t count);

#endif
