/* SPDX-License-Identifier: MIT */
/*
 * Placeholder for the resource part of the SPIR-V back end (t#, s#, u#, g#,
 * atomics, sync): the hooks of spirv_private.h answer "not handled" so the
 * core can be built and tested before the resource engineer's files land.
 * Replaced by spirv_resource*.c / spirv_uav*.c / spirv_texture*.c.
 */
#include "spirv_private.h"

enum sb_result sb_spv_resource_declare(struct sb_spv_context *ctx)
{
    const struct sb_ir_program *program = ctx->program;
    for (uint32_t i = 0; i < program->resource_count; i++) {
        if (program->resources[i].resource_class != SB_IR_RESOURCE_CBV)
            return sb_spv_fail(ctx, SB_ERROR_TRANSLATE_UNSUPPORTED, NULL,
                               "resource class %u register %u is not supported yet",
                               program->resources[i].resource_class, program->resources[i].id);
    }
    if (program->group_shared_count)
        return sb_spv_fail(ctx, SB_ERROR_TRANSLATE_UNSUPPORTED, NULL,
                           "group-shared memory is not supported yet");
    return SB_SUCCESS;
}

enum sb_result sb_spv_resource_instruction(struct sb_spv_context *ctx,
                                           const struct sb_ir_instruction *inst)
{
    (void)ctx;
    (void)inst;
    return SB_ERROR_TRANSLATE_UNSUPPORTED;
}

void sb_spv_resource_release(struct sb_spv_context *ctx)
{
    (void)ctx;
}
