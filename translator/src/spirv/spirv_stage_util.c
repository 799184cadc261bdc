/* SPDX-License-Identifier: MIT */
/*
 * What the stage plumbing files share (spirv_stage_private.h): the stage state,
 * which signature elements the stage code owns, the register-file sizes it
 * declares (arrayed v#, the hull shader's o#, vicp/vocp/vpc), register pointers,
 * special-register stores and the invocation id. Below the dispatcher
 * (spirv_stage.c), the GS/HS/DS files and spirv_stage_io.c, which all call it.
 */
#include "spirv_stage_private.h"

#include <stdlib.h>
#include <string.h>

/* Registers beyond this are refused by the operand helpers with a clear message. */
#define STAGE_MAX_REGISTERS 4096u

struct sb_spv_stage_state *sb_spv_stage_state(struct sb_spv_context *ctx)
{
    if (!ctx->stage_state)
        ctx->stage_state = sb_spv_zalloc(ctx, 1, sizeof(struct sb_spv_stage_state));
    if (!ctx->stage_state)
        sb_spv_fail(ctx, SB_ERROR_OUT_OF_MEMORY, NULL, "out of memory");
    return ctx->stage_state;
}

bool sb_spv_stage_owns_element(const struct sb_spv_context *ctx,
                               const struct sb_ir_signature_element *e)
{
    return ctx->program->stage == SB_IR_STAGE_GEOMETRY && e->kind == SB_IR_SIGNATURE_OUTPUT &&
           e->file == SB_IR_FILE_OUTPUT && e->stream != 0;
}

static void note_operand(uint32_t *need, const struct sb_ir_operand *op, int depth)
{
    if (depth > 4)
        return;
    if (op->file < SB_IR_FILE_COUNT && op->index_count >= 1) {
        uint32_t r = op->index[op->index_count - 1].offset;
        if (r < STAGE_MAX_REGISTERS && need[op->file] < r + 1)
            need[op->file] = r + 1;
    }
    for (uint32_t i = 0; i < op->index_count && i < 3; i++)
        if (op->index[i].relative)
            note_operand(need, op->index[i].relative, depth + 1);
}

void sb_spv_stage_file_needs(const struct sb_ir_program *p, uint32_t need[SB_IR_FILE_COUNT])
{
    memset(need, 0, SB_IR_FILE_COUNT * sizeof(*need));
    for (uint32_t i = 0; i < p->signature_count; i++) {
        const struct sb_ir_signature_element *e = &p->signature[i];
        if (e->file < SB_IR_FILE_COUNT && e->register_index < STAGE_MAX_REGISTERS &&
            need[e->file] < e->register_index + 1)
            need[e->file] = e->register_index + 1;
    }
    for (uint32_t i = 0; i < p->index_range_count; i++) {
        const struct sb_ir_index_range *r = &p->index_ranges[i];
        uint64_t end = (uint64_t)r->first + r->count;
        if (r->file < SB_IR_FILE_COUNT && end <= STAGE_MAX_REGISTERS && need[r->file] < end)
            need[r->file] = (uint32_t)end;
    }
    for (uint32_t f = 0; f < p->function_count; f++)
        for (uint32_t i = 0; i < p->functions[f].instruction_count; i++) {
            const struct sb_ir_instruction *inst = &p->functions[f].instructions[i];
            for (uint32_t d = 0; d < inst->dst_count; d++)
                note_operand(need, &inst->dst[d], 0);
            for (uint32_t s = 0; s < inst->src_count; s++)
                note_operand(need, &inst->src[s], 0);
        }
}

uint32_t sb_spv_stage_register(struct sb_spv_context *ctx, uint32_t file, uint32_t vertex, uint32_t reg)
{
    const struct sb_spv_register_file *f = &ctx->files[file];
    uint32_t idx[2], n = 0;
    if (f->outer)
        idx[n++] = vertex ? vertex : sb_spv_uint(ctx, 0);
    idx[n++] = sb_spv_uint(ctx, reg);
    return sb_spv_access_chain(&ctx->builder, sb_spv_t_ptr_private_vec4(ctx), f->var, idx, n);
}

void sb_spv_stage_store_special(struct sb_spv_context *ctx, uint32_t file, uint32_t value, uint32_t type)
{
    if (!ctx->files[file].var || !value)
        return;
    struct sb_spv_builder *b = &ctx->builder;
    uint32_t zero = sb_spv_uint(ctx, 0);
    uint32_t idx[2] = { zero, zero };
    uint32_t lane = sb_spv_access_chain(b, sb_spv_t_ptr_private_f32(ctx), ctx->files[file].var, idx, 2);
    sb_spv_store(b, lane, sb_spv_bitcast(b, sb_spv_t_f32(ctx), type, value));
}

uint32_t sb_spv_stage_load_invocation_id(struct sb_spv_context *ctx)
{
    struct sb_spv_stage_state *s = sb_spv_stage_state(ctx);
    if (!s)
        return 0;
    if (!s->invocation_id)
        s->invocation_id = sb_spv_io_builtin(ctx, SpvStorageClassInput, SpvBuiltInInvocationId, sb_spv_t_i32(ctx));
    return sb_spv_load(&ctx->builder, sb_spv_t_i32(ctx), s->invocation_id);
}
