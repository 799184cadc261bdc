/* SPDX-License-Identifier: MIT */
/*
 * A SPIR-V module read into instructions, and the values a device's progress and memory
 * safety hang on (spirv_slice.c): the backward slice of loop conditions, branches before
 * a barrier, indices into unguarded arrays and divisors. spirv_mutate.c leaves the slice
 * alone so no mutant can stall or crash the device it runs on.
 */
#ifndef SB_TEST_SPIRV_SLICE_H
#define SB_TEST_SPIRV_SLICE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/** One instruction. */
struct spirv_inst {
    size_t word;              /**< its first word in the module */
    uint16_t op, length;
    uint32_t result;          /**< result id, 0 when none */
    uint32_t first_operand;   /**< word index (inside the instruction) after type and result */
    uint32_t function;        /**< index of its function's OpFunction; UINT32_MAX outside functions */
};

struct spirv_module {
    const uint32_t *words;    /**< borrowed */
    struct spirv_inst *insts;
    uint32_t count;
    uint32_t bound;
    uint32_t *def;            /**< id -> instruction index, SPIRV_NO_INSTRUCTION when undefined */
    uint32_t glsl_set;        /**< the GLSL.std.450 import's id, 0 when none */
    bool has_barrier;
};

#define SPIRV_NO_INSTRUCTION UINT32_MAX

/** Reads `words` (borrowed); false when the module does not parse (a bad header or length,
 *  an id at or past the bound, a bound over 2^22) or memory runs out. */
bool spirv_module_parse(const uint32_t *words, size_t word_count, struct spirv_module *out);
void spirv_module_free(struct spirv_module *module);
/** The instruction defining `id`, or NULL. */
const struct spirv_inst *spirv_module_def(const struct spirv_module *module, uint32_t id);

/** What the slice holds. */
struct spirv_guard {
    uint8_t *id;              /**< per id: non-zero when a guarded value depends on it */
    bool *inst;               /**< per instruction: a write into memory a guarded value reads */
};

/** The guarded slice of `module`; false when out of memory. Free with spirv_guard_free. */
bool spirv_guard_find(const struct spirv_module *module, struct spirv_guard *out);
void spirv_guard_free(struct spirv_guard *guard);

#endif
