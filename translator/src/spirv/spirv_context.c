/* SPDX-License-Identifier: MIT */
/*
 * The back end context's failure and allocation helpers (spirv_private.h):
 * the sticky first error, zeroed and growable arrays in the translation's
 * scratch arena (working memory: nothing here is freed one by one), the "not supported"
 * verdict, and the common types, declared the first time a module asks for
 * one. Below every other emitter file of the back end, which all call
 * them, so the driver (spirv_module.c) that calls those files is never
 * called back.
 */
#include "spirv_private.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "error.h"

enum sb_result sb_spv_fail(struct sb_spv_context *ctx, enum sb_result code,
                           const struct sb_ir_instruction *inst, const char *fmt, ...)
{
    if (ctx->result != SB_SUCCESS)
        return code;
    ctx->result = code;
    if (!inst)
        inst = ctx->inst;
    va_list ap;
    va_start(ap, fmt);
    sb_error_setv(ctx->error, code, inst ? inst->offset : 0, SB_ERROR_NO_INSTR, fmt, ap);
    va_end(ap);
    return code;
}

void *sb_spv_zalloc(struct sb_spv_context *ctx, size_t count, size_t size)
{
    return sb_arena_alloc(ctx->scratch, count, size);
}

void *sb_spv_grow(struct sb_spv_context *ctx, void *items, uint32_t count, uint32_t *capacity,
                  size_t size, uint32_t first)
{
    if (count < *capacity)
        return items;
    uint32_t grown = *capacity ? *capacity * 2 : first;
    void *moved = grown > *capacity ? sb_arena_grow(ctx->scratch, items, *capacity, grown, size) : NULL;
    if (!moved) {
        sb_spv_fail(ctx, SB_ERROR_OUT_OF_MEMORY, NULL, "out of memory");
        return NULL;
    }
    *capacity = grown;
    return moved;
}

enum sb_result sb_spv_unsupported(struct sb_spv_context *ctx, const struct sb_ir_instruction *inst)
{
    return sb_spv_fail(ctx, SB_ERROR_TRANSLATE_UNSUPPORTED, inst,
                       "instruction '%s' is not supported by the SPIR-V back end",
                       sb_ir_op_name(inst->op));
}

uint32_t sb_spv_common_declare(struct sb_spv_context *ctx, enum sb_spv_common_kind kind)
{
    struct sb_spv_builder *b = &ctx->builder;
    struct sb_spv_common_types *t = &ctx->t;
    switch (kind) {
    case SB_SPV_COMMON_VOID_FUNCTION:
        return t->void_function = sb_spv_type_function(b, sb_spv_t_void(ctx), NULL, 0);
    case SB_SPV_COMMON_PTR_PRIVATE_F32:
        return t->ptr_private_f32 = sb_spv_type_pointer(b, SpvStorageClassPrivate, sb_spv_t_f32(ctx));
    case SB_SPV_COMMON_PTR_PRIVATE_VEC4:
        return t->ptr_private_vec4 = sb_spv_type_pointer(b, SpvStorageClassPrivate, sb_spv_t_fvec(ctx, 4));
    }
    return 0;
}
