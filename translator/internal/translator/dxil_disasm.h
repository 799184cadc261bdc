/* SPDX-License-Identifier: MIT */
/*
 * LLVM assembly text of a DXIL module (issue #18): the form `dxc -dumpbin`
 * shows, from the bitcode reader's module (reflect/bitcode.h). Calls of
 * `dx.op.*` functions get a trailing comment naming the opcode and its
 * operands (`; ThreadId(component)`). Project-internal, never installed.
 */
#ifndef SB_TRANSLATOR_DXIL_DISASM_H
#define SB_TRANSLATOR_DXIL_DISASM_H

#include <stddef.h>
#include <stdint.h>

#include "shaderbridge/result.h"

struct sb_bc_module;

/**
 * Reads a DXIL part (`part`: the part's data after FourCC and size;
 * `base_offset`: its file offset, for errors) and prints it. On success
 * *text is a NUL-terminated listing to free with sb_dxil_text_free(); on
 * failure *text is NULL and `error` says what and at which byte.
 */
enum sb_result sb_dxil_disassemble(const uint8_t *part, size_t size, uint64_t base_offset,
                                   char **text, struct sb_error *error);

/** Prints an already read module (no header comments when it has no program header). */
enum sb_result sb_dxil_disassemble_module(const struct sb_bc_module *module, char **text,
                                          struct sb_error *error);

/** Frees text returned by the functions above; NULL is a no-op. */
void sb_dxil_text_free(char *text);

#endif
