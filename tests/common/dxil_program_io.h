/* SPDX-License-Identifier: MIT */
/*
 * What the signature-driven test programs (dxil_programs_gsps.c, dxil_programs_sysvals.c)
 * share: a module with its entry begun and finished into a container, and the loadInput /
 * storeOutput calls as dxc writes them (scalarised, opcode constant first; docs/dxil.md §3).
 */
#ifndef SB_TEST_DXIL_PROGRAM_IO_H
#define SB_TEST_DXIL_PROGRAM_IO_H

#include <stdbool.h>
#include <stdint.h>

#include "dxil_program_writer.h"

/** A module with its entry function "main" (*entry) and the first block of its body begun. */
struct dxil_module *dxil_program_begin(uint32_t *entry);
/** dxil_program_write(m, d, out), then destroys `m` whatever the outcome. */
bool dxil_program_finish(struct dxil_module *m, const struct dxil_program_desc *d, struct tbuf *out);
/** loadInput(4, element, row 0, col, vertex) returning `type` through the dx.op `name`;
 *  `vertex` is an undef i32 outside the GS. */
uint32_t dxil_program_load_input(struct dxil_module *m, uint32_t type, const char *name,
                                 int32_t element, int8_t col, uint32_t vertex);
/** storeOutput(5, element, row 0, col, value) through the dx.op `name`. */
void dxil_program_store_output(struct dxil_module *m, const char *name, int32_t element, int8_t col,
                               uint32_t value);
/** storeOutput.f32 of the four float columns of a one-row element. */
void dxil_program_store_float4(struct dxil_module *m, int32_t element, const uint32_t value[4]);

#endif
