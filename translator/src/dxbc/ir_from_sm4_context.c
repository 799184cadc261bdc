/* SPDX-License-Identifier: MIT */
/*
 * The SM4/5 front end's sticky error and arena allocation (ir_from_sm4_private.h),
 * below every other ir_from_sm4*.c file: each of them records its failures and
 * allocates through these, so they live apart from the driver (ir_from_sm4.c) that
 * calls those files.
 */
#include <stdarg.h>
#include <stdio.h>

#include "ir_from_sm4_private.h"
#include "error.h"

bool sb_ir_fail(struct sb_ir_sm4_context *ctx, enum sb_result code, const char *format, ...)
{
    if (ctx->failed)
        return false;
    ctx->failed = true;
    char detail[SB_ERROR_MESSAGE_SIZE];
    va_list args;
    va_start(args, format);
    vsnprintf(detail, sizeof(detail), format, args);
    va_end(args);
    if (!ctx->inst) {
        sb_error_set(&ctx->error, code, ctx->sm4 ? ctx->sm4->base_offset : 0, SB_ERROR_NO_INSTR, "%s",
                     detail);
        return false;
    }
    const char *name = sb_sm4_opcode_name(ctx->inst->opcode);
    sb_error_set(&ctx->error, code, ctx->inst->offset, ctx->inst->index,
                 "instruction %u (%.24s): %.140s", ctx->inst->index, name ? name : "?", detail);
    return false;
}

bool sb_ir_fail_at(struct sb_ir_sm4_context *ctx, uint64_t offset, uint32_t instr,
                   enum sb_result code, const char *format, ...)
{
    if (ctx->failed)
        return false;
    ctx->failed = true;
    va_list args;
    va_start(args, format);
    sb_error_setv(&ctx->error, code, offset, instr, format, args);
    va_end(args);
    return false;
}

static void *alloc(struct sb_ir_sm4_context *ctx, size_t count, size_t size, bool zeroed)
{
    if (ctx->failed)
        return NULL;
    void *p = zeroed ? sb_arena_alloc(ctx->arena, count, size)
                     : sb_arena_alloc_uninit(ctx->arena, count, size);
    if (!p)
        sb_ir_fail(ctx, SB_ERROR_OUT_OF_MEMORY, "out of memory");
    return p;
}

void *sb_ir_alloc(struct sb_ir_sm4_context *ctx, size_t count, size_t size)
{
    return alloc(ctx, count, size, true);
}

void *sb_ir_alloc_uninit(struct sb_ir_sm4_context *ctx, size_t count, size_t size)
{
    return alloc(ctx, count, size, false);
}

void *sb_ir_fail_oom(struct sb_ir_sm4_context *ctx)
{
    sb_ir_fail(ctx, SB_ERROR_OUT_OF_MEMORY, "out of memory");
    return NULL;
}
