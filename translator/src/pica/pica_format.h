/* SPDX-License-Identifier: MIT */
/*
 * Operand formatting shared by sb_pica_format_instruction() and the SHBIN
 * disassembler (pica_format.c).
 */
#ifndef SB_PICA_FORMAT_H
#define SB_PICA_FORMAT_H

#include "pica_private.h"

/** Optional renaming of float uniforms (the disassembler's uniform names). */
struct pica_names {
    /** Writes a name for c<index> and returns true, or returns false to keep "c<index>". */
    bool (*float_name)(void *context, uint32_t index, char *buffer, size_t size);
    void *context; /**< passed to float_name */
};

/** Mnemonic that the assembler turns back into the same opcode and format. */
const char *pica_format_mnemonic(const struct sb_pica_instruction *in);
/** One source operand. */
void pica_format_source(const struct sb_pica_source *source, const struct pica_names *names,
                        char *buffer, size_t size);
/**
 * Every instruction except formats 2 and 3 (flow control): mnemonic and
 * operands. Returns the length the text needs (like snprintf).
 */
size_t pica_format_operands(const struct sb_pica_instruction *in, const struct pica_names *names,
                            char *buffer, size_t size);

#endif
