/* SPDX-License-Identifier: MIT */
/*
 * Helpers of the PICA200 lowering tests (tests/pica_lower): instruction words
 * built with the project's encoder (sb_pica_encode), SHBIN files built around
 * them with the test SHBIN writer, lowering + sb_ir_validate, and runs on the
 * CPU interpreter with the PICA uniform buffer of ir.h.
 */
#ifndef SB_TESTS_PICA_LOWER_UTIL_H
#define SB_TESTS_PICA_LOWER_UTIL_H

#include <stdbool.h>
#include <stdint.h>

#include "translator/ir.h"
#include "translator/pica.h"

/* Descriptor indices of the table every test file carries. */
enum { D_XYZW = 0, D_NEG1 = 1, D_X = 2, D_NEG2 = 3, D_COUNT = 4 };

extern int g_failures;
/* File offset of code word 0 in the last file lower_prog() built. */
extern uint32_t g_code_offset;

#define CHECK(cond, ...)                                                                        \
    do {                                                                                        \
        if (!(cond)) {                                                                          \
            g_failures++;                                                                       \
            fprintf(stderr, "%s:%d: FAILED %s: ", __FILE__, __LINE__, #cond);                   \
            fprintf(stderr, __VA_ARGS__);                                                       \
            fputc('\n', stderr);                                                                \
        }                                                                                       \
    } while (0)

/* Register operands for the encoder helpers: file and index. */
struct reg {
    enum sb_pica_register_file file;
    uint32_t index;
};
#define V(n) ((struct reg){ SB_PICA_REG_INPUT, (n) })
#define R(n) ((struct reg){ SB_PICA_REG_TEMP, (n) })
#define C(n) ((struct reg){ SB_PICA_REG_FLOAT, (n) })
#define O(n) ((struct reg){ SB_PICA_REG_OUTPUT, (n) })
#define NONE ((struct reg){ SB_PICA_REG_NONE, 0 })

/* Encoded words (sb_pica_encode); a failure to encode fails the test run. */
uint32_t w_alu(enum sb_pica_opcode op, struct reg dst, struct reg s1, struct reg s2, uint32_t desc);
uint32_t w_rel(enum sb_pica_opcode op, struct reg dst, struct reg s1, enum sb_pica_relative rel,
               uint32_t desc);
uint32_t w_cmp(struct reg s1, enum sb_pica_compare_op x, enum sb_pica_compare_op y, struct reg s2);
uint32_t w_op0(enum sb_pica_opcode op);
/* Format 2: BREAKC CALL CALLC IFC JMPC. */
uint32_t w_f2(enum sb_pica_opcode op, uint32_t dest, uint32_t num, enum sb_pica_condition_op cond,
              bool refx, bool refy);
/* Format 3: CALLU IFU JMPU (id = bool) and LOOP (id = int). */
uint32_t w_f3(enum sb_pica_opcode op, uint32_t dest, uint32_t num, uint32_t id);
uint32_t w_setemit(uint32_t vertex, bool primitive, bool winding);

/* A program: code, constants, output types (o0 position, o1.. color), stage. */
struct prog {
    const uint32_t *code;
    uint32_t count;
    uint32_t main_address;
    bool geometry;
    uint32_t output_count;      /* o0 .. o(n-1) in the output table */
    uint32_t float_constant;    /* c register with a DVLE constant, or UINT32_MAX */
    uint32_t float_value[4];    /* float24 words of that constant */
    uint32_t pica_flags;        /* SB_IR_PICA_* for sb_ir_from_pica */
};

/* Builds, parses and lowers (sb_ir_from_pica); NULL with *result set on failure. */
struct sb_ir_program *lower_prog(const struct prog *p, enum sb_result *result, struct sb_error *error);
/* The same, optionally forcing the dispatch loop (the front end's test switch). */
struct sb_ir_program *lower_prog_mode(const struct prog *p, bool force_dispatch,
                                      enum sb_result *result, struct sb_error *error);

/* Whether the program was lowered to the dispatch loop (a SWITCH in the entry). */
bool is_dispatch(const struct sb_ir_program *ir);
/* Counts of an op across all functions. */
uint32_t count_op(const struct sb_ir_program *ir, uint32_t op);

/* Uniforms of a run. */
struct uniforms {
    float c[96][4];
    uint32_t i[4][4];
    uint32_t b; /* bit n = b n */
};

/* Runs `vertices` invocations; in[v][reg][4] floats (4 input registers), out[v][reg][4].
 * `budget` (0: 1 << 22) bounds the interpreter; *result (may be NULL) gets its result. */
bool run_budget(const struct sb_ir_program *ir, const struct uniforms *u, uint32_t vertices,
                const float (*in)[4][4], float (*out)[4][4], uint64_t budget, enum sb_result *result);
bool run(const struct sb_ir_program *ir, const struct uniforms *u, uint32_t vertices,
         const float (*in)[4][4], float (*out)[4][4]);

#endif
