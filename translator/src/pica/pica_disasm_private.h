/* SPDX-License-Identifier: MIT */
/*
 * Shared state of the SHBIN disassembler (pica_disasm*.c): the decoded
 * program, which words must be written raw (.word), the procedures and
 * labels found, and the float-uniform names of the first DVLE.
 */
#ifndef SB_PICA_DISASM_PRIVATE_H
#define SB_PICA_DISASM_PRIVATE_H

#include "pica_format.h"

#define DIS_MAX_PROCS 512
#define DIS_MAX_DVLES 64

struct dis_proc {
    uint32_t start, end; /**< [start, end) */
    char name[32];
};

struct dis_state {
    const struct sb_shbin *shbin;
    uint32_t count;                      /**< code words */
    struct sb_pica_instruction *code;    /**< decoded words */
    bool *valid;                         /**< decoded without error */
    bool *raw;                           /**< written as .word */
    bool *label;                         /**< a jump target: label_<address> */
    bool fixed_descriptors;              /**< the table is written with .opdesc */
    struct dis_proc procs[DIS_MAX_PROCS];
    uint32_t proc_count;
    /** Entry procedure of each DVLE (NULL: the file has no code to name). */
    const struct dis_proc *entry[DIS_MAX_DVLES];
    /** Float uniform names for c0-c95 ("" = keep cN); arrays as "name[k]". */
    char float_names[96][72];
    struct pica_text text;
};

/** Writes the directives of DVLE `index` (uniforms, constants, outputs, .gsh, .entry). */
void dis_declarations(struct dis_state *state, uint32_t index);
/** The procedure whose range is exactly [start, end); NULL if none. */
const struct dis_proc *dis_find_proc(const struct dis_state *state, uint32_t start, uint32_t end);

#endif
