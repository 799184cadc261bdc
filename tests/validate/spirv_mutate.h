/* SPDX-License-Identifier: MIT */
/*
 * One-instruction mutants of a SPIR-V module (spirv_mutate.c), for the mutation
 * test of `validate` (test_validate_mutants.c): where a module can be changed by
 * one instruction without risking the device (no mutant may change how often a loop
 * runs, whether every invocation reaches a barrier, which private or shared array
 * element is touched, or what an integer division divides by), and the change itself.
 */
#ifndef SB_TEST_SPIRV_MUTATE_H
#define SB_TEST_SPIRV_MUTATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/** What a mutation does (spirv_mutation_kind_name gives the operator's name). */
enum spirv_mutation_kind {
    SPIRV_MUTATE_OPCODE,      /**< the opcode becomes `to` (same operands): FAdd<->FSub, ... */
    SPIRV_MUTATE_EXT_INST,    /**< a GLSL.std.450 instruction becomes `to`: FMin<->FMax, ... */
    SPIRV_MUTATE_SELECT,      /**< OpSelect's two values swap places */
    SPIRV_MUTATE_CONSTANT,    /**< a 32-bit OpConstant: integers + 1, floats + 1.0 */
    SPIRV_MUTATE_BOOL,        /**< OpConstantTrue <-> OpConstantFalse */
    SPIRV_MUTATE_DROP_STORE,  /**< an OpStore removed */
    SPIRV_MUTATE_KIND_COUNT
};

struct spirv_mutation {
    enum spirv_mutation_kind kind;
    size_t word;              /**< the instruction's first word */
    uint32_t from, to;        /**< opcodes (EXT_INST: GLSL.std.450 numbers); 0 when unused */
};

struct spirv_mutation_sites {
    struct spirv_mutation *sites; /**< malloc'd; free with spirv_mutation_sites_free */
    uint32_t count;
    /** Candidates left out because the loop/barrier/index/divisor slice holds them. */
    uint32_t guarded;
};

/**
 * Every mutation of `words` (a module that parses: whole instructions, ids below the
 * bound) outside the guarded slice. False when the module does not parse or memory
 * runs out.
 */
bool spirv_mutation_sites_find(const uint32_t *words, size_t word_count, struct spirv_mutation_sites *out);
void spirv_mutation_sites_free(struct spirv_mutation_sites *sites);

/** A malloc'd copy of `words` with `m` applied (*out_count words), or NULL when out of memory. */
uint32_t *spirv_mutation_apply(const uint32_t *words, size_t word_count, const struct spirv_mutation *m,
                               size_t *out_count);

/** "FAdd->FSub", "FMin->FMax", "select-swap", "constant", "bool-constant", "drop-store". */
void spirv_mutation_describe(const struct spirv_mutation *m, char *buf, size_t size);
/** The operator family of a kind ("opcode", "ext-inst", "select", ...). */
const char *spirv_mutation_kind_name(enum spirv_mutation_kind kind);

#endif
