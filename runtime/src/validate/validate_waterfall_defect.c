/* SPDX-License-Identifier: MIT */
/*
 * A known device defect behind a `disagree` of a program the device ran translated for it
 * (validate_device.c; tests/validate/README.md "Known device defects"): lavapipe 22.3
 * samples the wrong texels through the translator's waterfall loop (translator/src/spirv/
 * spirv_waterfall.c) when the non-uniformly indexed t# range has more than 32 descriptors.
 * Every index but 0 then reads wrong, while the same loop over 32 descriptors, or a
 * dynamically uniform index into the same wide range without the loop, is right
 * (tests/validate/test_validate_fallbacks.c, waterfall_sample at 4, 32 and 33 descriptors).
 *
 * Why only a note: the words still count as unexplained (the device was not shown to be
 * right), so the verdict stays disagree; the note only says that the conditions of the
 * defect hold on this run — the device is lavapipe, it lacks
 * shaderSampledImageArrayNonUniformIndexing (so the loop ran), and a sample instruction
 * indexes such a range — and where to find its reproducer.
 */
#include "validate_private.h"

#include <stdio.h>
#include <string.h>

#include "translator/ir.h"

/* Past this many descriptors in the range, lavapipe 22.3's loop samples wrong. */
enum { LAVAPIPE_WATERFALL_DESCRIPTORS = 32 };

/* Descriptors the translation gave the t# range `r` (an unbounded range: the fixed count it
 * was translated with); 0 when the translation has no binding for it. */
static uint32_t range_descriptors(const struct sb_translation *t, const struct sb_ir_resource *r)
{
    for (uint32_t i = 0; t && i < t->binding_count; i++)
        if (t->bindings[i].resource_class == SB_IR_RESOURCE_SRV && t->bindings[i].space == r->space &&
            t->bindings[i].lower_bound == r->lower_bound)
            return t->bindings[i].count;
    return 0;
}

/* Does `op` index, with NonUniformResourceIndex, a t# range of more descriptors than the loop
 * takes on lavapipe? */
static bool wide_non_uniform_texture(const struct sb_rt_program *program, const struct sb_ir_operand *op)
{
    const struct sb_ir_program *ir = program->ir;
    if (op->file != SB_IR_FILE_RESOURCE || !op->non_uniform || op->index_count < 2)
        return false;
    for (uint32_t i = 0; i < ir->resource_count; i++)
        if (ir->resources[i].resource_class == SB_IR_RESOURCE_SRV && ir->resources[i].id == op->index[0].offset) {
            uint32_t count = range_descriptors(program->translation, &ir->resources[i]);
            return count > LAVAPIPE_WATERFALL_DESCRIPTORS && count != 0xFFFFFFFFu;
        }
    return false;
}

/* The first sampling instruction (sb_ir_op_is_sample) that samples such a range. */
static const struct sb_ir_instruction *wide_waterfall_sample(const struct sb_rt_program *program)
{
    const struct sb_ir_program *ir = program->ir;
    for (uint32_t f = 0; f < ir->function_count; f++)
        for (uint32_t i = 0; i < ir->functions[f].instruction_count; i++) {
            const struct sb_ir_instruction *inst = &ir->functions[f].instructions[i];
            if (!sb_ir_op_is_sample(inst->op))
                continue;
            for (uint32_t k = 0; k < inst->src_count; k++)
                if (wide_non_uniform_texture(program, &inst->src[k]))
                    return inst;
        }
    return NULL;
}

void sb_validate_waterfall_explain(struct sb_rt_context *context, const struct sb_rt_program *program,
                                   struct sb_validate_report *report)
{
    if (report->verdict != SB_VALIDATE_DISAGREE || !context)
        return;
    struct sb_device_profile d;
    sb_rt_context_device_profile(context, &d);
    const char *device = sb_rt_context_device_name(context);
    if (!d.described || d.sampled_image_array_non_uniform_indexing || !device || !strstr(device, "llvmpipe"))
        return;
    const struct sb_ir_instruction *at = wide_waterfall_sample(program);
    if (!at)
        return;
    size_t used = strlen(report->reason);
    snprintf(report->reason + used, sizeof(report->reason) - used,
             "; matches a known lavapipe 22.3 defect (tests/validate/test_validate_fallbacks.c): the sample at "
             "byte %llu loops over more than %u texture descriptors, where only index 0 reads right",
             (unsigned long long)at->offset, (unsigned)LAVAPIPE_WATERFALL_DESCRIPTORS);
}
