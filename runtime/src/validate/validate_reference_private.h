/* SPDX-License-Identifier: MIT */
/* Shared by the reference comparison's files (validate_reference*.c, validate.h). */
#ifndef SB_RUNTIME_VALIDATE_REFERENCE_PRIVATE_H
#define SB_RUNTIME_VALIDATE_REFERENCE_PRIVATE_H

#include "validate_private.h"

/**
 * Checks that `program` and `reference` have one interface (validate_reference_interface.c):
 * stage, numthreads, registers by (class, register, space) with their kinds and dimensions
 * (`*_inputs`: each program's seeded inputs), signature elements by semantic and index. True
 * when they match; else false with report->difference and report->reason set.
 */
bool sb_validate_reference_interfaces(struct sb_validate_reference_report *report, const struct sb_rt_program *program,
                                      const struct sb_rt_inputs *program_inputs, const struct sb_rt_program *reference,
                                      const struct sb_rt_inputs *reference_inputs);

/** The index of the resource of `in` at (class, space, register), or -1. */
int64_t sb_validate_reference_find(const struct sb_rt_inputs *in, uint32_t resource_class, uint32_t space,
                                   uint32_t reg);

/** The first element of `ir`'s signature of `kind` (enum sb_ir_signature_kind) with this
 *  semantic (case-insensitive, as D3D matches them) and index, or NULL. */
const struct sb_ir_signature_element *sb_validate_reference_element(const struct sb_ir_program *ir, uint32_t kind,
                                                                    const char *semantic, uint32_t index);

/** Whether input element `e` is seeded by the harness (no system value, a semantic) and so
 *  given the program's values of the same element through input_seed_lanes. */
bool sb_validate_reference_seeded(const struct sb_ir_signature_element *e);

/** The lanes element `e` occupies: its signature's allocation, else the declared mask. */
uint8_t sb_validate_reference_lanes(const struct sb_ir_signature_element *e);

/** "u1 (space 0)": a register as messages name it. */
void sb_validate_reference_register_name(uint32_t resource_class, uint32_t space, uint32_t reg, char *out,
                                         size_t size);

#endif
