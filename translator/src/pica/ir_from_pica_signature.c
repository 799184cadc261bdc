/* SPDX-License-Identifier: MIT */
/*
 * The interface of a lowered PICA200 program (translator/IR.md "PICA200
 * programs", ../shared/docs/pica200.md §11, §12.4, §12.6, §12.7): input registers
 * v0-v15 become INPUT signature elements at location = register number,
 * the DVLE output table becomes OUTPUT elements (position -> SV_Position,
 * every other type a user semantic at location = o register), and the
 * DVLE constant table is remembered so direct reads of those registers
 * fold to immediates.
 */
#include <string.h>

#include "ir_from_pica_private.h"

/* D3D_NAME_POSITION, the system value the back end maps to BuiltIn Position. */
#define SV_POSITION 1u

void pfront_load_constants(struct pfront_ctx *ctx)
{
    const struct sb_shbin_dvle *d = ctx->dvle;
    for (uint32_t i = 0; i < d->constant_count; i++) {
        const struct sb_shbin_constant *c = &d->constants[i];
        uint32_t r = c->register_index;
        switch (c->type) {
        case SB_SHBIN_CONSTANT_FLOAT:
            if (r >= 96)
                break;
            ctx->float_known[r] = true;
            for (int k = 0; k < 4; k++) {
                float f = sb_shbin_float24_to_float(c->float24[k]);
                memcpy(&ctx->float_bits[r][k], &f, 4);
            }
            break;
        case SB_SHBIN_CONSTANT_INT:
            if (r >= 4)
                break;
            ctx->int_known[r] = true;
            memcpy(ctx->int_value[r], c->int_value, 4);
            break;
        case SB_SHBIN_CONSTANT_BOOL:
            if (r >= 16)
                break;
            ctx->bool_known[r] = true;
            ctx->bool_value[r] = c->bool_value;
            break;
        default:
            break;
        }
    }
}

/* The .in name picasso gave input register `reg`, or "". */
static const char *input_name(const struct sb_shbin_dvle *d, uint32_t reg)
{
    for (uint32_t i = 0; i < d->uniform_count; i++) {
        const struct sb_shbin_uniform *u = &d->uniforms[i];
        if (u->register_class == SB_SHBIN_REGISTER_INPUT && reg >= u->first_index &&
            reg <= u->last_index && u->name)
            return u->name;
    }
    return "";
}

/* Input registers the code reads, plus those the DVLE declares used. */
static uint32_t inputs_used(const struct pfront_ctx *ctx)
{
    uint32_t mask = ctx->dvle->input_mask;
    for (uint32_t a = 0; a < ctx->count; a++) {
        const struct sb_pica_instruction *in = &ctx->code[a];
        for (uint32_t s = 0; s < in->source_count && s < 3; s++)
            if (in->src[s].file == SB_PICA_REG_INPUT && in->src[s].index < 16)
                mask |= 1u << in->src[s].index;
    }
    return mask & 0xFFFFu;
}

bool pfront_build_signature(struct pfront_ctx *ctx)
{
    const struct sb_shbin_dvle *d = ctx->dvle;
    uint32_t inputs = inputs_used(ctx);
    uint32_t n = d->output_count;
    for (uint32_t r = 0; r < 16; r++)
        n += (inputs >> r) & 1u;
    struct sb_ir_signature_element *sig = sb_arena_alloc(ctx->arena, n ? n : 1, sizeof(*sig));
    if (!sig)
        return pfront_fail(ctx, SB_ERROR_OUT_OF_MEMORY, "out of memory");
    uint32_t k = 0;
    for (uint32_t r = 0; r < 16; r++) {
        if (!((inputs >> r) & 1u))
            continue;
        struct sb_ir_signature_element *e = &sig[k++];
        e->kind = SB_IR_SIGNATURE_INPUT;
        e->file = SB_IR_FILE_INPUT;
        e->register_index = r;
        e->semantic = sb_ir_strdup(ctx->arena, input_name(d, r));
        e->mask = e->used_mask = 0xF;
        e->component_type = SB_IR_TYPE_FLOAT;
    }
    for (uint32_t i = 0; i < d->output_count; i++) {
        const struct sb_shbin_output *o = &d->outputs[i];
        struct sb_ir_signature_element *e = &sig[k++];
        const char *name = sb_shbin_output_type_name(o->type);
        e->kind = SB_IR_SIGNATURE_OUTPUT;
        e->file = SB_IR_FILE_OUTPUT;
        e->register_index = o->register_index;
        e->mask = e->used_mask = e->signature_mask = o->mask & 0xFu;
        e->component_type = SB_IR_TYPE_FLOAT;
        e->offset = o->file_offset;
        if (o->type == SB_SHBIN_OUTPUT_POSITION) {
            e->system_value = SV_POSITION;
            /* The Position built-in is a whole vec4. */
            e->mask = e->used_mask = 0xF;
        }
        e->semantic = sb_ir_strdup(ctx->arena, name ? name : "");
        /* Several dummy outputs share a name: number them by register. */
        e->semantic_index = o->type == SB_SHBIN_OUTPUT_DUMMY ? o->register_index : 0;
    }
    for (uint32_t i = 0; i < k; i++)
        if (!sig[i].semantic)
            return pfront_fail(ctx, SB_ERROR_OUT_OF_MEMORY, "out of memory");
    ctx->program->signature = sig;
    ctx->program->signature_count = k;
    return true;
}
