/* SPDX-License-Identifier: MIT */
/*
 * sb_ir_from_pica(): the PICA200 front end's driver (translator/IR.md
 * "PICA200 programs", ../shared/docs/pica200.md §7, §12). It decodes the DVLP code of a
 * parsed SHBIN, records the DVLE's constants and output semantics, and lowers
 * the entry point starting at the DVLE's main address. The structured
 * lowering (ir_from_pica_flow.c) is tried first; when the program's flow
 * cannot be reproduced exactly with IF/LOOP/CALL (a jump into a scope, a
 * scope ending where another does, a backward jump ...) the whole entry
 * becomes a dispatch loop that replays the hardware's per-instruction stack
 * update (ir_from_pica_dispatch.c), which is exact for every program.
 * The emission helpers every lowering uses sit below, in ir_from_pica_emit.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir_from_pica_private.h"
#include "error.h"

/* ---- driver ---------------------------------------------------------------------------------- */

static enum sb_result arg_error(struct sb_error *error, enum sb_result code, const char *message)
{
    if (error)
        memset(error, 0, sizeof(*error));
    return sb_error_set(error, code, 0, SB_ERROR_NO_INSTR, "%s", message);
}

/*
 * Decodes every code word. An unused opcode becomes a NOP (the emulators log
 * and skip it, ../shared/docs/pica200.md §6.2); a descriptor index past the table is
 * invalid input, reported at the word.
 */
static bool decode_code(struct pfront_ctx *ctx)
{
    const struct sb_shbin_program *prog = &ctx->shbin->program;
    uint32_t desc[SB_SHBIN_MAX_OPERAND_DESCRIPTORS];
    uint32_t desc_count = prog->operand_descriptor_count;
    if (desc_count > SB_SHBIN_MAX_OPERAND_DESCRIPTORS)
        desc_count = SB_SHBIN_MAX_OPERAND_DESCRIPTORS;
    for (uint32_t i = 0; i < desc_count; i++)
        desc[i] = prog->operand_descriptors[i].word;
    ctx->count = prog->code_word_count;
    ctx->code_base = (uint64_t)prog->file_offset + prog->code_offset;
    ctx->code = sb_arena_alloc(ctx->arena, ctx->count ? ctx->count : 1, sizeof(*ctx->code));
    ctx->loop_temp = sb_arena_alloc(ctx->arena, ctx->count + 1, sizeof(uint32_t));
    if (!ctx->code || !ctx->loop_temp)
        return pfront_fail(ctx, SB_ERROR_OUT_OF_MEMORY, "out of memory");
    for (uint32_t a = 0; a < ctx->count; a++) {
        struct sb_error e;
        ctx->at = a;
        enum sb_result r = sb_pica_decode(prog->code[a], desc, desc_count, &ctx->code[a], &e);
        if (r == SB_ERROR_BAD_VALUE) {
            memset(&ctx->code[a], 0, sizeof(ctx->code[a]));
            ctx->code[a].word = prog->code[a];
            ctx->code[a].opcode = SB_PICA_OP_NOP;
            ctx->code[a].raw_opcode = SB_PICA_OP_NOP;
        } else if (r != SB_SUCCESS) {
            return pfront_fail(ctx, SB_ERROR_TRANSLATE_INVALID, "%.160s", e.message);
        }
    }
    return true;
}

static bool reads_uniforms(const struct sb_ir_operand *op, bool *relative)
{
    bool found = op->file == SB_IR_FILE_PICA_FLOAT_UNIFORM || op->file == SB_IR_FILE_PICA_INT_UNIFORM ||
                 op->file == SB_IR_FILE_PICA_BOOL_UNIFORM;
    if (found && op->index_count && op->index[0].relative)
        *relative = true;
    return found;
}

/*
 * Declares the PICA uniform buffer (ir.h SB_IR_PICA_UNIFORM_*) when any
 * instruction reads c#, i# or b#, as the consumers expect.
 */
static bool declare_uniform_buffer(struct pfront_ctx *ctx)
{
    bool used = false, relative = false;
    for (uint32_t f = 0; f < ctx->functions.count; f++) {
        const struct pfront_function *fn = pfront_function(ctx, f);
        const struct sb_ir_instruction *code = fn->code.data;
        for (uint32_t i = 0; i < fn->code.count; i++)
            for (uint32_t k = 0; k < code[i].src_count; k++)
                used |= reads_uniforms(&code[i].src[k], &relative);
    }
    if (!used)
        return true;
    struct sb_ir_resource *r = sb_arena_alloc(ctx->arena, 1, sizeof(*r));
    if (!r)
        return pfront_fail(ctx, SB_ERROR_OUT_OF_MEMORY, "out of memory");
    r->resource_class = SB_IR_RESOURCE_CBV;
    r->id = r->lower_bound = SB_IR_PICA_UNIFORM_REGISTER;
    r->count = 1;
    r->cb_size = SB_IR_PICA_UNIFORM_VECTORS;
    r->cb_dynamic_indexed = relative;
    r->name = sb_ir_strdup(ctx->arena, "pica_uniforms");
    ctx->program->resources = r;
    ctx->program->resource_count = 1;
    return true;
}

/* Copies the built functions into the program. */
static bool finish(struct pfront_ctx *ctx)
{
    struct sb_ir_program *p = ctx->program;
    uint32_t n = ctx->functions.count;
    struct sb_ir_function *fns = sb_arena_alloc(ctx->arena, n ? n : 1, sizeof(*fns));
    if (!fns)
        return pfront_fail(ctx, SB_ERROR_OUT_OF_MEMORY, "out of memory");
    for (uint32_t i = 0; i < n; i++) {
        struct pfront_function *f = pfront_function(ctx, i);
        /* Unique per range: one function per distinct [D, D + N). */
        fns[i].id = i == 0 ? UINT32_MAX : f->count ? f->count << 16 | f->start : f->start;
        fns[i].instruction_count = f->code.count;
        fns[i].instructions = f->code.data;
        fns[i].instance_count = 1;
        fns[i].temp_count = ctx->temp_count;
    }
    p->functions = fns;
    p->function_count = n;
    p->temp_count = ctx->temp_count;
    p->first_fork_phase = 1;
    return declare_uniform_buffer(ctx);
}

/* Forgets a failed structured attempt so the dispatch loop starts afresh. */
static void reset_functions(struct pfront_ctx *ctx)
{
    memset(&ctx->functions, 0, sizeof(ctx->functions));
    ctx->current = 0;
    ctx->temp_count = PICA_TEMP_FIRST_FREE;
    ctx->structural_fail = false;
}

enum sb_result sb_ir_from_pica(const struct sb_shbin *shbin, uint32_t dvle_index,
                               uint32_t pica_flags, struct sb_ir_program **out,
                               struct sb_error *error)
{
    return sb_pfront_lower(shbin, dvle_index, pica_flags, false, out, error);
}

enum sb_result sb_pfront_lower(const struct sb_shbin *shbin, uint32_t dvle_index,
                               uint32_t pica_flags, bool force_dispatch,
                               struct sb_ir_program **out, struct sb_error *error)
{
    if (out)
        *out = NULL;
    if (!shbin || !out)
        return arg_error(error, SB_ERROR_INVALID_ARGUMENT, "sb_ir_from_pica: shbin and out are required");
    if (dvle_index >= shbin->dvle_count)
        return arg_error(error, SB_ERROR_INVALID_ARGUMENT, "sb_ir_from_pica: no such DVLE");
    if (pica_flags & SB_IR_PICA_LOWERED)
        return arg_error(error, SB_ERROR_INVALID_ARGUMENT,
                         "sb_ir_from_pica: SB_IR_PICA_LOWERED is set by sb_ir_pica_lower only");
    struct pfront_ctx ctx;
    memset(&ctx, 0, sizeof(ctx));
    ctx.shbin = shbin;
    ctx.dvle = &shbin->dvles[dvle_index];
    ctx.program = sb_ir_program_create(&ctx.arena);
    if (!ctx.program)
        return arg_error(error, SB_ERROR_OUT_OF_MEMORY, "out of memory");
    ctx.program->source = SB_IR_SOURCE_PICA;
    ctx.program->pica_flags = pica_flags;
    ctx.program->stage = ctx.dvle->type == SB_SHBIN_SHADER_GEOMETRY ? SB_IR_STAGE_GEOMETRY
                                                                      : SB_IR_STAGE_VERTEX;
    ctx.temp_count = PICA_TEMP_FIRST_FREE;
    if (decode_code(&ctx)) {
        ctx.at = ctx.dvle->main_address;
        pfront_load_constants(&ctx);
        pfront_build_signature(&ctx);
    }
    /* A structured attempt that gives up without an error leaves it to the dispatch loop. */
    bool structured = !ctx.failed && !force_dispatch && pfront_lower_structured(&ctx);
    if (!ctx.failed && !structured) {
        reset_functions(&ctx);
        ctx.at = ctx.dvle->main_address;
        pfront_lower_dispatch(&ctx);
    }
    if (!ctx.failed)
        finish(&ctx);
    if (ctx.failed) {
        if (error)
            *error = ctx.error;
        enum sb_result r = ctx.error.code;
        sb_ir_program_destroy(ctx.program);
        return r;
    }
    *out = ctx.program;
    return SB_SUCCESS;
}
