/* SPDX-License-Identifier: MIT */
/*
 * The picasso-syntax assembler's driver (sb_pica_assemble): splits the text
 * into lines, strips comments, records labels, dispatches directives and
 * instructions, and at the end checks block balance, resolves labels and
 * procedures and resolves each DVLE's entry point before writing the SHBIN.
 * Errors leave through one longjmp with line, column and message; the state
 * lives on the heap, so nothing leaks on any path.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pica_asm_private.h"

static void add_label(struct asm_state *state, struct asm_span name)
{
    char text[ASM_MAX_NAME];
    asm_copy_name(state, name, text);
    for (uint32_t i = 0; i < state->label_count; ++i)
        if (strcmp(state->labels[i].name, text) == 0)
            asm_fail(state, name.column, "duplicate label '%s'", text);
    if (state->label_count == ASM_MAX_LABELS)
        asm_fail(state, name.column, "too many labels (limit %d)", ASM_MAX_LABELS);
    strcpy(state->labels[state->label_count].name, text);
    state->labels[state->label_count++].address = state->code_count;
}

static void process_line(struct asm_state *state, struct asm_span line)
{
    for (size_t i = 0; i < line.length; ++i) {
        if (line.text[i] == ';') {
            line.length = i;
            break;
        }
        if (line.text[i] == '\0')
            asm_fail(state, (uint32_t)i + 1, "NUL byte in the source");
    }
    line = asm_trim(line);
    for (;;) {
        const char *colon = memchr(line.text, ':', line.length);
        if (!colon)
            break;
        size_t at = (size_t)(colon - line.text);
        add_label(state, asm_trim((struct asm_span){line.text, at, line.column}));
        line = asm_trim((struct asm_span){colon + 1, line.length - at - 1, line.column + (uint32_t)at + 1});
    }
    if (line.length == 0)
        return;
    size_t word = 0;
    while (word < line.length && line.text[word] != ' ' && line.text[word] != '\t')
        word++;
    struct asm_span head = {line.text, word, line.column};
    struct asm_span rest = {line.text + word, line.length - word, line.column + (uint32_t)word};
    if (head.text[0] == '.')
        asm_directive(state, head, rest);
    else if (!asm_instruction(state, head, rest))
        asm_fail(state, head.column, "unknown instruction '%.*s'",
                 (int)(head.length > 24 ? 24 : head.length), head.text);
}

static const struct asm_proc *proc_named(const struct asm_state *state, const char *name)
{
    for (uint32_t i = 0; i < state->proc_count; ++i)
        if (strcmp(state->procs[i].name, name) == 0)
            return &state->procs[i];
    return NULL;
}

static void finish(struct asm_state *state)
{
    uint32_t last_line = state->line;
    if (state->stack_depth) {
        const struct asm_block *block = &state->stack[state->stack_depth - 1];
        static const char *const names[] = {".proc", "if block", "for block", ".constfa array"};
        state->line = block->line;
        state->line_start = NULL;
        asm_fail(state, block->column, "unclosed %s", names[block->type]);
    }
    state->line_start = NULL;
    asm_finish_section(state);
    asm_resolve_relocations(state, 0, true);
    uint32_t produced = 0;
    for (uint32_t i = 0; i < state->dvle_count; ++i) {
        struct asm_dvle *dvle = &state->dvles[i];
        if (dvle->nodvle)
            continue;
        const struct asm_proc *entry = proc_named(state, dvle->entry);
        /* without an .entry line the error points at the end of the text */
        if (dvle->entry_line) {
            state->line = dvle->entry_line;
        } else {
            state->line = last_line;
            dvle->entry_column = 1;
        }
        if (!entry)
            asm_fail(state, dvle->entry_column, "entry point '%s' is undefined", dvle->entry);
        if (entry->start >= state->code_count)
            asm_fail(state, dvle->entry_column,
                     "entry point '%s' has no instructions (address %u, program has %u words)",
                     dvle->entry, entry->start, state->code_count);
        dvle->main_address = entry->start;
        dvle->end_address = entry->start + entry->size;
        produced++;
    }
    if (produced == 0) {
        state->line = last_line;
        asm_fail(state, 1, "no DVLE can be generated (every section is .nodvle)");
    }
}

static void run(struct asm_state *state)
{
    const char *at = state->text;
    const char *end = state->text + state->length;
    state->line = 0;
    while (at <= end) {
        const char *newline = memchr(at, '\n', (size_t)(end - at));
        size_t length = newline ? (size_t)(newline - at) : (size_t)(end - at);
        state->line++;
        state->line_start = at;
        struct asm_span line = {at, length, 1};
        if (length && at[length - 1] == '\r')
            line.length--;
        process_line(state, line);
        if (!newline)
            break;
        at = newline + 1;
    }
    finish(state);
}

/* A failure not tied to a place in the text (line and column 0). */
static enum sb_result whole_failure(struct sb_pica_asm_error *error, enum sb_result code,
                                    const char *message)
{
    if (error)
        memset(error, 0, sizeof(*error));
    return sb_error_set(error ? &error->error : NULL, code, 0, SB_ERROR_NO_INSTR, "%s", message);
}

enum sb_result sb_pica_assemble(const char *text, size_t length, uint8_t **out, size_t *size,
                                struct sb_pica_asm_error *error)
{
    if (out)
        *out = NULL;
    if (size)
        *size = 0;
    if ((!text && length) || !out || !size)
        return whole_failure(error, SB_ERROR_INVALID_ARGUMENT, "sb_pica_assemble: NULL text or output");
    struct asm_state *state = calloc(1, sizeof(*state));
    if (!state)
        return whole_failure(error, SB_ERROR_OUT_OF_MEMORY, "out of memory");
    state->error = error;
    state->text = text ? text : "";
    state->length = length;
    state->float_alloc = (struct asm_alloc){0, 96, 96};
    state->int_alloc = (struct asm_alloc){0, 4, 4};
    state->bool_alloc = (struct asm_alloc){0, 16, 16};
    asm_start_dvle(state);
    volatile enum sb_result result = ASM_SOURCE_ERROR;
    if (setjmp(state->fail) == 0) {
        run(state);
        result = asm_write_shbin(state, out, size);
        if (result != SB_SUCCESS)
            whole_failure(error, result, "out of memory");
    }
    free(state);
    return result;
}
