/* SPDX-License-Identifier: MIT */
/*
 * Sections and DVLEs of the picasso-syntax assembler: a DVLE starts with its
 * defaults, and labels and aliases belong to one source section (one picasso
 * input file), so a section's label references are resolved when it ends. Called
 * by the driver (pica_asm.c) and the .dvle directive (pica_asm_directive.c).
 */
#include <string.h>

#include "pica_asm_private.h"

void asm_start_dvle(struct asm_state *state)
{
    struct asm_dvle *dvle = &state->dvles[state->dvle_count++];
    memset(dvle, 0, sizeof(*dvle));
    strcpy(dvle->entry, "main");
    dvle->float_local_end = 96;
    dvle->int_local_end = 4;
}

/* Labels and aliases belong to one source section (one picasso input file). */
void asm_finish_section(struct asm_state *state)
{
    asm_resolve_relocations(state, state->label_reloc_begin, false);
    state->label_reloc_begin = state->reloc_count;
    state->label_count = 0;
    state->alias_count = 0;
}

void asm_next_dvle(struct asm_state *state, uint32_t column)
{
    if (state->stack_depth)
        asm_fail(state, column, ".dvle inside an open block");
    if (state->dvle_count == ASM_MAX_DVLES)
        asm_fail(state, column, "too many DVLEs (limit %d)", ASM_MAX_DVLES);
    uint32_t line = state->line;
    asm_finish_section(state);
    state->line = line;
    asm_start_dvle(state);
}
