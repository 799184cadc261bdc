/* SPDX-License-Identifier: MIT */
/*
 * The picasso-syntax assembler's shared state operations, below every other
 * pica_asm*.c file: the failure exit (one longjmp with line, column and message),
 * the DVLE being filled and the code-word append. They live apart from the driver
 * (pica_asm.c) so that the files it calls never call back into it.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "pica_asm_private.h"

_Noreturn void asm_fail(struct asm_state *state, uint32_t column, const char *format, ...)
{
    struct sb_pica_asm_error *error = state->error;
    if (error) {
        memset(error, 0, sizeof(*error));
        error->line = state->line;
        error->column = column;
        uint64_t offset = state->line_start && column > 0
                              ? (uint64_t)(state->line_start - state->text) + column - 1
                              : 0;
        va_list args;
        va_start(args, format);
        sb_error_setv(&error->error, ASM_SOURCE_ERROR, offset, SB_ERROR_NO_INSTR, format, args);
        va_end(args);
    }
    longjmp(state->fail, 1);
}

struct asm_dvle *asm_current_dvle(struct asm_state *state)
{
    return &state->dvles[state->dvle_count - 1];
}

void asm_emit(struct asm_state *state, uint32_t word, uint32_t column)
{
    if (state->code_count >= SB_SHBIN_MAX_CODE_WORDS)
        asm_fail(state, column, "program exceeds %u words", SB_SHBIN_MAX_CODE_WORDS);
    state->code[state->code_count++] = word;
}
