/* SPDX-License-Identifier: MIT */
/*
 * PICA200 instructions that are not flow control, lowered to IR ops
 * (translator/IR.md "PICA200 programs", ../shared/docs/pica200.md §5, §6, §8): operand
 * descriptors become masks, swizzles and NEG modifiers; the 7-bit operand's
 * IDX becomes a relative index through PICA_ADDRESS; direct reads of DVLE
 * constant registers become immediates. MAX/MIN keep their ops: in a PICA
 * program they mean the hardware's NaN/inf order (IR.md). Also the
 * conditions of the flow instructions (§6.5) as one-lane sources.
 */
#include <string.h>

#include "ir_from_pica_private.h"

/* Descriptor mask (bit 3 = x) to IR mask (bit 0 = x). */
static uint8_t ir_mask(uint8_t pica_mask)
{
    return (uint8_t)(((pica_mask >> 3) & 1u) | ((pica_mask >> 1) & 2u) | ((pica_mask << 1) & 4u) |
                     ((pica_mask << 3) & 8u));
}

static void convert_dst(const struct sb_pica_destination *d, struct sb_ir_operand *op)
{
    op->file = d->file == SB_PICA_REG_OUTPUT ? SB_IR_FILE_OUTPUT : SB_IR_FILE_TEMP;
    op->index_count = 1;
    op->index[0].offset = d->index;
    op->mask = ir_mask(d->mask);
}

/* A source; `scalar` replicates the lane feeding x (RCP/RSQ/EX2/LG2 read only that). */
static bool convert_src(struct pfront_ctx *ctx, const struct sb_pica_source *s, bool scalar,
                        struct sb_ir_operand *op)
{
    uint8_t comp[4];
    for (int i = 0; i < 4; i++)
        comp[i] = (uint8_t)((scalar ? s->component[0] : s->component[i]) & 3u);
    op->modifiers = s->negate ? SB_IR_MOD_NEG : 0;
    switch (s->file) {
    case SB_PICA_REG_INPUT: op->file = SB_IR_FILE_INPUT; break;
    case SB_PICA_REG_TEMP: op->file = SB_IR_FILE_TEMP; break;
    case SB_PICA_REG_FLOAT:
        if (s->relative == SB_PICA_RELATIVE_NONE && s->index < 96 && ctx->float_known[s->index]) {
            op->file = SB_IR_FILE_IMMEDIATE;
            for (int i = 0; i < 4; i++) {
                op->imm[i] = ctx->float_bits[s->index][comp[i]];
                op->swizzle[i] = (uint8_t)i;
            }
            return true;
        }
        op->file = SB_IR_FILE_PICA_FLOAT_UNIFORM;
        if (s->relative != SB_PICA_RELATIVE_NONE) {
            struct sb_ir_operand *rel = sb_arena_alloc(ctx->arena, 1, sizeof(*rel));
            if (!rel)
                return pfront_fail(ctx, SB_ERROR_OUT_OF_MEMORY, "out of memory");
            pfront_address(rel, (uint32_t)s->relative - 1u, false);
            op->index[0].relative = rel;
        }
        break;
    default:
        return pfront_fail(ctx, SB_ERROR_TRANSLATE_INVALID, "source of register file %u", s->file);
    }
    op->index_count = 1;
    op->index[0].offset = s->index;
    memcpy(op->swizzle, comp, 4);
    return true;
}

/* A plain ALU op: dst <- op(sources...). */
static void lower_plain(struct pfront_ctx *ctx, const struct sb_pica_instruction *in, uint32_t op,
                        uint32_t flags, bool scalar)
{
    if (!ir_mask(in->dst.mask))
        return; /* writes nothing */
    struct sb_ir_instruction *ir = pfront_emit(ctx, op, 1, in->source_count);
    if (!ir)
        return;
    ir->flags = flags;
    struct sb_ir_operand *o = (struct sb_ir_operand *)ir->dst;
    convert_dst(&in->dst, &o[0]);
    for (uint32_t i = 0; i < in->source_count; i++)
        convert_src(ctx, &in->src[i], scalar, &o[1 + i]);
}

static void lower_cmp(struct pfront_ctx *ctx, const struct sb_pica_instruction *in)
{
    struct sb_ir_instruction *ir = pfront_emit(ctx, SB_IR_OP_PICA_CMP, 0, 2);
    if (!ir)
        return;
    ir->compare[0] = (uint32_t)in->compare_x;
    ir->compare[1] = (uint32_t)in->compare_y;
    struct sb_ir_operand *o = (struct sb_ir_operand *)ir->src;
    convert_src(ctx, &in->src[0], false, &o[0]);
    convert_src(ctx, &in->src[1], false, &o[1]);
}

static void lower_mova(struct pfront_ctx *ctx, const struct sb_pica_instruction *in)
{
    uint8_t mask = ir_mask(in->dst.mask) & 3u; /* only a0.x and a0.y exist */
    if (!mask)
        return;
    struct sb_ir_instruction *ir = pfront_emit(ctx, SB_IR_OP_PICA_MOVA, 1, 1);
    if (!ir)
        return;
    struct sb_ir_operand *o = (struct sb_ir_operand *)ir->dst;
    o[0].file = SB_IR_FILE_PICA_ADDRESS;
    o[0].mask = mask;
    convert_src(ctx, &in->src[0], false, &o[1]);
}

bool pfront_is_flow(const struct sb_pica_instruction *in)
{
    switch (in->opcode) {
    case SB_PICA_OP_BREAK: case SB_PICA_OP_END: case SB_PICA_OP_BREAKC: case SB_PICA_OP_CALL:
    case SB_PICA_OP_CALLC: case SB_PICA_OP_CALLU: case SB_PICA_OP_IFU: case SB_PICA_OP_IFC:
    case SB_PICA_OP_LOOP: case SB_PICA_OP_JMPC: case SB_PICA_OP_JMPU:
        return true;
    default:
        return false;
    }
}

bool pfront_lower_alu(struct pfront_ctx *ctx, const struct sb_pica_instruction *in)
{
    const uint32_t mul = SB_IR_FLAG_LEGACY_MUL;
    switch (in->opcode) {
    case SB_PICA_OP_ADD: lower_plain(ctx, in, SB_IR_OP_ADD, 0, false); break;
    case SB_PICA_OP_DP3: lower_plain(ctx, in, SB_IR_OP_DP3, mul, false); break;
    case SB_PICA_OP_DP4: lower_plain(ctx, in, SB_IR_OP_DP4, mul, false); break;
    case SB_PICA_OP_DPH: case SB_PICA_OP_DPHI: lower_plain(ctx, in, SB_IR_OP_DPH, mul, false); break;
    case SB_PICA_OP_DST: case SB_PICA_OP_DSTI: lower_plain(ctx, in, SB_IR_OP_DST, mul, false); break;
    case SB_PICA_OP_MUL: lower_plain(ctx, in, SB_IR_OP_MUL, mul, false); break;
    case SB_PICA_OP_MAD: case SB_PICA_OP_MADI: lower_plain(ctx, in, SB_IR_OP_MAD, mul, false); break;
    case SB_PICA_OP_SGE: case SB_PICA_OP_SGEI: lower_plain(ctx, in, SB_IR_OP_SGE, 0, false); break;
    case SB_PICA_OP_SLT: case SB_PICA_OP_SLTI: lower_plain(ctx, in, SB_IR_OP_SLT, 0, false); break;
    case SB_PICA_OP_FLR: lower_plain(ctx, in, SB_IR_OP_ROUND_NI, 0, false); break;
    case SB_PICA_OP_MOV: lower_plain(ctx, in, SB_IR_OP_MOV, 0, false); break;
    case SB_PICA_OP_EX2: lower_plain(ctx, in, SB_IR_OP_EXP, 0, true); break;
    case SB_PICA_OP_LG2: lower_plain(ctx, in, SB_IR_OP_LOG, 0, true); break;
    case SB_PICA_OP_RCP: lower_plain(ctx, in, SB_IR_OP_RCP, 0, true); break;
    case SB_PICA_OP_RSQ: lower_plain(ctx, in, SB_IR_OP_RSQ, 0, true); break;
    case SB_PICA_OP_LITP: lower_plain(ctx, in, SB_IR_OP_PICA_LITP, 0, false); break;
    /* PICA programs give MAX/MIN the §6.3 meaning (IR.md: not NMin/NMax). */
    case SB_PICA_OP_MAX: lower_plain(ctx, in, SB_IR_OP_MAX, 0, false); break;
    case SB_PICA_OP_MIN: lower_plain(ctx, in, SB_IR_OP_MIN, 0, false); break;
    case SB_PICA_OP_CMP: lower_cmp(ctx, in); break;
    case SB_PICA_OP_MOVA: lower_mova(ctx, in); break;
    case SB_PICA_OP_NOP: break;
    case SB_PICA_OP_EMIT:
        if (ctx->program->stage != SB_IR_STAGE_GEOMETRY)
            return pfront_fail(ctx, SB_ERROR_TRANSLATE_INVALID, "EMIT in a vertex shader");
        pfront_emit(ctx, SB_IR_OP_EMIT, 0, 0);
        break;
    case SB_PICA_OP_SETEMIT: {
        if (ctx->program->stage != SB_IR_STAGE_GEOMETRY)
            return pfront_fail(ctx, SB_ERROR_TRANSLATE_INVALID, "SETEMIT in a vertex shader");
        struct sb_ir_instruction *ir = pfront_emit(ctx, SB_IR_OP_PICA_SETEMIT, 0, 0);
        if (ir) {
            ir->stream = in->vertex_id;
            ir->flags = (in->winding ? SB_IR_FLAG_PICA_WINDING : 0) |
                        (in->primitive ? SB_IR_FLAG_PICA_PRIMITIVE : 0);
        }
        break;
    }
    default:
        return false;
    }
    return !ctx->failed;
}

void pfront_int_uniform(struct pfront_ctx *ctx, uint32_t id, uint32_t lane, struct sb_ir_operand *out)
{
    memset(out, 0, sizeof(*out));
    id &= 3u;
    if (ctx->int_known[id]) {
        uint32_t v = ctx->int_value[id][lane];
        pfront_imm(out, v, v, v, v);
        return;
    }
    out->file = SB_IR_FILE_PICA_INT_UNIFORM;
    out->index_count = 1;
    out->index[0].offset = id;
    for (int i = 0; i < 4; i++)
        out->swizzle[i] = (uint8_t)lane;
}

void pfront_condition(struct pfront_ctx *ctx, const struct sb_pica_instruction *in,
                      struct sb_ir_operand *out)
{
    memset(out, 0, sizeof(*out));
    if (in->format == SB_PICA_FORMAT_3) {
        uint32_t id = in->bool_id & 15u;
        if (ctx->bool_known[id]) {
            uint32_t v = ctx->bool_value[id] ? 1u : 0u;
            pfront_imm(out, v, v, v, v);
            return;
        }
        out->file = SB_IR_FILE_PICA_BOOL_UNIFORM;
        out->index_count = 1;
        out->index[0].offset = id;
        return; /* swizzle xxxx */
    }
    /* x_ok = cmp.x == refx is cmp.x XOR (refx ? 0 : ~0); likewise y. */
    struct sb_ir_instruction *ir = pfront_emit(ctx, SB_IR_OP_XOR, 1, 2);
    if (!ir)
        return;
    struct sb_ir_operand *o = (struct sb_ir_operand *)ir->dst;
    pfront_temp(&o[0], PICA_TEMP_COND, 0x3, true);
    o[1].file = SB_IR_FILE_PICA_CONDITION;
    o[1].swizzle[1] = 1;
    o[1].swizzle[3] = 1;
    pfront_imm(&o[2], in->refx ? 0u : ~0u, in->refy ? 0u : ~0u, 0, 0);
    uint8_t lane = 0;
    if (in->condition == SB_PICA_CONDITION_OR || in->condition == SB_PICA_CONDITION_AND) {
        ir = pfront_emit(ctx, in->condition == SB_PICA_CONDITION_OR ? SB_IR_OP_OR : SB_IR_OP_AND, 1, 2);
        if (!ir)
            return;
        o = (struct sb_ir_operand *)ir->dst;
        pfront_temp(&o[0], PICA_TEMP_COND, 0x1, true);
        pfront_temp(&o[1], PICA_TEMP_COND, 0, false);
        pfront_temp(&o[2], PICA_TEMP_COND, 1, false);
    } else if (in->condition == SB_PICA_CONDITION_Y) {
        lane = 1;
    }
    pfront_temp(out, PICA_TEMP_COND, lane, false);
}
