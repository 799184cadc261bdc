/* SPDX-License-Identifier: MIT */
/*
 * Placeholder for the GS/HS/DS plumbing of the SPIR-V back end: the hooks of
 * spirv_private.h accept VS/PS/CS and refuse the other stages, so the core
 * can be built and tested before the stage engineer's spirv_stage_*.c land.
 */
#include "spirv_private.h"

enum sb_result sb_spv_stage_declare(struct sb_spv_context *ctx)
{
    switch (ctx->program->stage) {
    case SB_IR_STAGE_VERTEX:
    case SB_IR_STAGE_PIXEL:
    case SB_IR_STAGE_COMPUTE:
        return SB_SUCCESS;
    default:
        return sb_spv_fail(ctx, SB_ERROR_TRANSLATE_UNSUPPORTED, NULL,
                           "shader stage %u is not supported yet", ctx->program->stage);
    }
}

enum sb_result sb_spv_stage_instruction(struct sb_spv_context *ctx, const struct sb_ir_instruction *inst)
{
    (void)ctx;
    (void)inst;
    return SB_ERROR_TRANSLATE_UNSUPPORTED;
}

enum sb_result sb_spv_stage_finish(struct sb_spv_context *ctx)
{
    (void)ctx;
    return SB_ERROR_TRANSLATE_UNSUPPORTED;
}

void sb_spv_stage_release(struct sb_spv_context *ctx)
{
    (void)ctx;
}
