/* SPDX-License-Identifier: MIT */
/*
 * sb_ir_run_passes (ir.h): the IR passes as one stage between a front end and a
 * consumer, each run once, in order. Today one rewriting pass exists, the PICA
 * lowering (pica_lower*.c, IR.md §PICA200 programs); the validator can follow
 * every pass. The SPIR-V back end requires its result (it refuses a PICA program
 * not yet lowered), so no consumer lowers on its own.
 */
#include "ir_private.h"

#include "error.h"

enum sb_result sb_ir_run_passes(const struct sb_ir_program *in, uint32_t flags,
                                struct sb_ir_program **out, struct sb_error *error)
{
    if (out)
        *out = NULL;
    if (!in || !out)
        return sb_error_set(error, SB_ERROR_INVALID_ARGUMENT, 0, SB_ERROR_NO_INSTR,
                            "sb_ir_run_passes: program and out are required");
    enum sb_result r;
    if (in->source == SB_IR_SOURCE_PICA && !(in->pica_flags & SB_IR_PICA_LOWERED)) {
        struct sb_ir_program *lowered = NULL;
        if ((r = sb_ir_pica_lower(in, &lowered, error)) != SB_SUCCESS)
            return r;
        if ((flags & SB_IR_PASSES_VALIDATE) && (r = sb_ir_validate(lowered, error)) != SB_SUCCESS) {
            sb_ir_program_destroy(lowered);
            return r;
        }
        *out = lowered;
        return SB_SUCCESS;
    }
    if (flags & SB_IR_PASSES_VALIDATE)
        return sb_ir_validate(in, error);
    return SB_SUCCESS;
}
