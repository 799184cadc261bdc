/* SPDX-License-Identifier: MIT */
/*
 * Debug information of the SPIR-V back end (-g, SB_TRANSLATE_DEBUG_INFO):
 * OpName for registers, functions, IO variables and constant buffers, and a
 * line table back to the input. SPIR-V's OpLine has no notion of byte
 * offsets, so the convention (stated at SB_TRANSLATE_DEBUG_INFO in translate.h) is:
 * OpLine's file is an OpString naming the input (also the OpSource file),
 * its line is the BYTE OFFSET of the source instruction in that file, and
 * its column is 0. One OpLine precedes the code of every IR instruction.
 * Without -g every function here is a no-op, so the module carries none.
 */
#include "spirv_private.h"

void sb_spv_debug_begin(struct sb_spv_context *ctx)
{
    if (!ctx->debug_info)
        return;
    ctx->debug_file = sb_spv_string(&ctx->builder, ctx->source_name);
    sb_spv_source(&ctx->builder, SpvSourceLanguageUnknown, 0, ctx->debug_file);
}

void sb_spv_debug_name(struct sb_spv_context *ctx, uint32_t id, const char *name)
{
    if (ctx->debug_info && id && name)
        sb_spv_name(&ctx->builder, id, name);
}

void sb_spv_debug_line(struct sb_spv_context *ctx, const struct sb_ir_instruction *inst)
{
    if (!ctx->debug_info || !ctx->debug_file || !inst)
        return;
    uint64_t offset = inst->offset;
    const uint32_t ops[3] = { ctx->debug_file, offset > UINT32_MAX ? UINT32_MAX : (uint32_t)offset, 0 };
    sb_spv_op(&ctx->builder, SpvOpLine, ops, 3);
}
