/* SPDX-License-Identifier: MIT */
/*
 * A known device defect behind a `disagree` of a pixel program (tests/validate/README.md
 * "Known device defects"): lavapipe 22.3 returns 0 from storage-buffer loads made by helper
 * invocations. Vulkan asks only that a helper's stores and atomics have no effect on memory;
 * its loads read memory like any other invocation's, and D3D's quad operations and
 * derivatives then see those values in the helper lanes. On lavapipe a quad read or a
 * derivative of such a value gets 0 from every helper lane of the quad
 * (tests/dxil_front/test_dxil_front_sysvals.c, ps_helper_load: each lane loads t0[lane] of a
 * StructuredBuffer, the pixel's own lane is right and its three quad reads are 0, while the
 * same quad reads of values the helpers compute without a load agree).
 *
 * Why only a note: the words still count as unexplained (the device was not shown to be
 * right), so the verdict stays disagree; the note says that the conditions of the defect hold
 * on this run — the device is lavapipe and the pixel program both loads from a raw or
 * structured buffer and reads other lanes of its quad — and where to find its reproducer.
 */
#include "validate_private.h"

#include <stdio.h>
#include <string.h>

#include "translator/ir.h"

/* Instructions that read other lanes of the pixel's quad: quad reads and derivatives. */
static bool reads_quad_lanes(uint32_t op)
{
    return (op >= SB_IR_OP_QUAD_READ_LANE_AT && op <= SB_IR_OP_QUAD_READ_ACROSS_DIAGONAL) ||
           (op >= SB_IR_OP_DERIV_RTX && op <= SB_IR_OP_DERIV_RTY_FINE);
}

/* The first instruction of `ir` that `match` accepts, or NULL. */
static const struct sb_ir_instruction *first_of(const struct sb_ir_program *ir, bool (*match)(uint32_t))
{
    for (uint32_t f = 0; f < ir->function_count; f++)
        for (uint32_t i = 0; i < ir->functions[f].instruction_count; i++)
            if (match(ir->functions[f].instructions[i].op))
                return &ir->functions[f].instructions[i];
    return NULL;
}

/* Raw and structured loads: the storage-buffer reads of the translation. */
static bool loads_storage_buffer(uint32_t op)
{
    return op == SB_IR_OP_LD_RAW || op == SB_IR_OP_LD_STRUCTURED;
}

void sb_validate_helper_load_explain(struct sb_rt_context *context, const struct sb_rt_program *program,
                                     struct sb_validate_report *report)
{
    if (report->verdict != SB_VALIDATE_DISAGREE || !context || program->stage != SB_IR_STAGE_PIXEL)
        return;
    const char *device = sb_rt_context_device_name(context);
    if (!device || !strstr(device, "llvmpipe"))
        return;
    const struct sb_ir_instruction *load = first_of(program->ir, loads_storage_buffer);
    const struct sb_ir_instruction *quad = first_of(program->ir, reads_quad_lanes);
    if (!load || !quad)
        return;
    size_t used = strlen(report->reason);
    snprintf(report->reason + used, sizeof(report->reason) - used,
             "; matches a known lavapipe 22.3 defect (test_dxil_front_sysvals, ps_helper_load): "
             "storage-buffer loads in helper invocations return 0; a load at byte %llu, %s at byte %llu",
             (unsigned long long)load->offset, sb_ir_op_name(quad->op), (unsigned long long)quad->offset);
}
