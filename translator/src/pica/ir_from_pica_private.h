/* SPDX-License-Identifier: MIT */
/*
 * State the PICA200 front end (ir_from_pica*.c, translator/IR.md "PICA200
 * programs") shares between its files: the decoded code, the sticky error,
 * the function being filled, the temp registers it reserves beyond r0-r15,
 * and the emission helpers. Two flow lowerings share the instruction
 * lowering: the structured one (ir_from_pica_flow.c) and the dispatch loop
 * that replays ../shared/docs/pica200.md §7.2 step by step (ir_from_pica_dispatch.c).
 */
#ifndef SB_TRANSLATOR_IR_FROM_PICA_PRIVATE_H
#define SB_TRANSLATOR_IR_FROM_PICA_PRIVATE_H

#include <stdbool.h>
#include <stdint.h>

#include "translator/pica.h"
#include "shaderbridge/shbin.h"
#include "ir/ir_private.h"

/* Hardware stack depths (../shared/docs/pica200.md §7.1). */
#define PICA_CALL_DEPTH 4u
#define PICA_IF_DEPTH 8u
#define PICA_LOOP_DEPTH 4u

/*
 * Temps beyond the sixteen r# registers (IR.md "PICA200 programs"): every
 * function sees them (subroutines share the caller's r#).
 */
enum pfront_reserved_temp {
    PICA_TEMP_COND = 16,    /* condition lanes of IFC/CALLC/BREAKC/JMPC */
    PICA_TEMP_STATE = 17,   /* x: invocation ended in a subroutine; y: dynamic loop depth */
    PICA_TEMP_FIRST_FREE = 18,
};

/* A function under construction: its own instruction list. */
struct pfront_function {
    uint32_t start, count;    /* the PICA range [start, start + count); entry: count 0 */
    bool ends;                /* may END the invocation (subroutines: callers check the flag) */
    struct sb_ir_vec code;    /* struct sb_ir_instruction */
    uint32_t max_if, max_loop, max_call; /* deepest hardware stacks it needs itself */
};

/* State of one sb_ir_from_pica() call. */
struct pfront_ctx {
    struct sb_arena *arena;
    struct sb_ir_program *program;
    const struct sb_shbin *shbin;
    const struct sb_shbin_dvle *dvle;
    struct sb_pica_instruction *code;
    uint32_t count;           /* code words */
    uint64_t code_base;       /* file offset of word 0 */
    bool failed;
    bool structural_fail;     /* the structured lowering gave up: use the dispatch loop */
    struct sb_error error;
    uint32_t at;              /* address being lowered (errors, offsets) */

    struct sb_ir_vec functions; /* struct pfront_function */
    uint32_t current;         /* function being filled */
    uint32_t temp_count;      /* temps used so far */

    /* DVLE constants (../shared/docs/pica200.md §12.4): direct reads become immediates. */
    bool float_known[96];
    uint32_t float_bits[96][4];
    bool int_known[4];
    uint8_t int_value[4][4];
    bool bool_known[16];
    bool bool_value[16];

    /* Structured lowering: the temp of the LOOP at each address (0: none yet). */
    uint32_t *loop_temp;
};

/* ---- ir_from_pica.c: errors and emission ---- */

/*
 * sb_ir_from_pica with a switch for tests (tests/pica_lower compare both
 * lowerings of one program): `force_dispatch` skips the structured attempt.
 * Not in a public header; the tests declare it themselves.
 */
enum sb_result sb_pfront_lower(const struct sb_shbin *shbin, uint32_t dvle_index,
                               uint32_t pica_flags, bool force_dispatch,
                               struct sb_ir_program **out, struct sb_error *error);


bool pfront_fail(struct pfront_ctx *ctx, enum sb_result code, const char *format, ...)
    SB_IR_PRINTF(3, 4);
/* Marks the structured lowering as impossible (the dispatch loop takes over). */
bool pfront_unstructured(struct pfront_ctx *ctx);
struct pfront_function *pfront_function(struct pfront_ctx *ctx, uint32_t index);
/* Appends an instruction with zeroed operands to the current function. */
struct sb_ir_instruction *pfront_emit(struct pfront_ctx *ctx, uint32_t op, uint32_t dst_count,
                                      uint32_t src_count);
uint32_t pfront_new_temp(struct pfront_ctx *ctx);

/* Operand builders (write into zeroed operands). */
void pfront_temp(struct sb_ir_operand *op, uint32_t reg, uint8_t mask_or_lane, bool is_dst);
void pfront_imm(struct sb_ir_operand *op, uint32_t x, uint32_t y, uint32_t z, uint32_t w);
void pfront_address(struct sb_ir_operand *op, uint32_t lane, bool is_dst);

/* Small IR sequences. */
void pfront_emit_flow(struct pfront_ctx *ctx, uint32_t op);
/* op on one lane: d.lane = a.lane OP imm */
void pfront_emit_temp_iadd(struct pfront_ctx *ctx, uint32_t reg, uint32_t lane, int32_t value);
void pfront_emit_mov_temp_imm(struct pfront_ctx *ctx, uint32_t reg, uint32_t lane, uint32_t value);
/* Conditional flow op on a one-lane source (TEST_NZ when `nz`). */
struct sb_ir_instruction *pfront_emit_cond(struct pfront_ctx *ctx, uint32_t op,
                                           const struct sb_ir_operand *cond, bool nz);

/* ---- ir_from_pica_ops.c: instructions ---- */

/* Lowers an arithmetic/CMP/MOVA/LITP/SETEMIT/EMIT/NOP instruction; false for flow. */
bool pfront_lower_alu(struct pfront_ctx *ctx, const struct sb_pica_instruction *in);
/*
 * The condition of a flow instruction as a one-lane source `out` (true when
 * non-zero): format 2 -> the cmp combination in PICA_TEMP_COND.x; format 3 ->
 * the bool uniform (or its constant). `invert` asks for the opposite test.
 */
void pfront_condition(struct pfront_ctx *ctx, const struct sb_pica_instruction *in,
                      struct sb_ir_operand *out);
/* Lane `lane` (0 x count-1, 1 y start, 2 z step) of int uniform `id`, as a source. */
void pfront_int_uniform(struct pfront_ctx *ctx, uint32_t id, uint32_t lane, struct sb_ir_operand *out);
bool pfront_is_flow(const struct sb_pica_instruction *in);
/* aL += i[int_id].z (a LOOP pass ends or a BREAK leaves it; ir_from_pica_flow.c). */
void pfront_emit_al_step(struct pfront_ctx *ctx, uint32_t int_id);

/* ---- ir_from_pica_signature.c ---- */

bool pfront_build_signature(struct pfront_ctx *ctx);
void pfront_load_constants(struct pfront_ctx *ctx);

/* ---- ir_from_pica_flow.c / ir_from_pica_dispatch.c ---- */

/* Structured lowering of the entry and its subroutines; false with
 * ctx->structural_fail when the dispatch loop must be used instead. */
bool pfront_lower_structured(struct pfront_ctx *ctx);
/* The dispatch loop: function 0 replays §7.2, function 1 is its step routine. */
bool pfront_lower_dispatch(struct pfront_ctx *ctx);

#endif
