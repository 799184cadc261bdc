/* SPDX-License-Identifier: MIT */
/*
 * SM4/5 instructions -> IR instructions (translator/IR.md §Instructions,
 * ../shared/docs/sm4-tokens.md §3). One table row per SM4 opcode names the IR op and
 * how its operands are taken; operands keep SM4's order (IR.md §Resources).
 * Each operand slot is checked against sb_ir_op_info() so that a token
 * stream the decoder accepted but that means nothing (a sampler where a
 * value belongs, a write to an input) is an SB_ERROR_TRANSLATE_INVALID
 * here rather than a surprise in a back end. sb_ir_lower_tokens() lowers the
 * ordinary instructions of the fused path (ir_from_sm4_fused.c) from the tokens
 * with the same table and checks.
 */
#include <string.h>

#include "ir_from_sm4_private.h"
#include "sm4_private.h"

/* How an SM4 opcode's operands become IR fields. */
enum how {
    H_NONE = 0,   /* not an instruction the IR takes (reserved numbers) */
    H_PLAIN,      /* operands in order */
    H_CASE,       /* the literal becomes case_value */
    H_CALL,       /* the label becomes target (resolved in ir_from_sm4_flow.c) */
    H_CALLC,      /* condition source + label target */
    H_FCALL,      /* interface operand + call-site target */
    H_STREAM,     /* m# becomes stream */
};

struct op_row {
    uint16_t op;  /* enum sb_ir_op */
    uint8_t how;  /* enum how */
};

#define P(sm4, ir) [SB_SM4_OP_##sm4] = { SB_IR_OP_##ir, H_PLAIN }
#define X(sm4, ir, h) [SB_SM4_OP_##sm4] = { SB_IR_OP_##ir, h }
static const struct op_row op_rows[SB_SM4_OP_COUNT] = {
    P(ADD, ADD), P(AND, AND), P(BREAK, BREAK), P(BREAKC, BREAKC), X(CALL, CALL, H_CALL),
    X(CALLC, CALLC, H_CALLC), X(CASE, CASE, H_CASE), P(CONTINUE, CONTINUE),
    P(CONTINUEC, CONTINUEC), P(CUT, CUT), P(DEFAULT, DEFAULT), P(DERIV_RTX, DERIV_RTX),
    P(DERIV_RTY, DERIV_RTY), P(DISCARD, DISCARD), P(DIV, DIV), P(DP2, DP2), P(DP3, DP3),
    P(DP4, DP4), P(ELSE, ELSE), P(EMIT, EMIT), P(EMIT_THEN_CUT, EMIT_THEN_CUT), P(ENDIF, ENDIF),
    P(ENDLOOP, ENDLOOP), P(ENDSWITCH, ENDSWITCH), P(EQ, EQ), P(EXP, EXP), P(FRC, FRC),
    P(FTOI, FTOI), P(FTOU, FTOU), P(GE, GE), P(IADD, IADD), P(IF, IF), P(IEQ, IEQ),
    P(IGE, IGE), P(ILT, ILT), P(IMAD, IMAD), P(IMAX, IMAX), P(IMIN, IMIN), P(IMUL, IMUL),
    P(INE, INE), P(INEG, INEG), P(ISHL, ISHL), P(ISHR, ISHR), P(ITOF, ITOF), P(LD, LD),
    P(LDMS, LD_MS), P(LOG, LOG), P(LOOP, LOOP), P(LT, LT), P(MAD, MAD), P(MIN, MIN),
    P(MAX, MAX), P(MOV, MOV), P(MOVC, MOVC), P(MUL, MUL), P(NE, NE), P(NOP, NOP), P(NOT, NOT),
    P(OR, OR), P(RESINFO, RESINFO), P(RET, RET), P(RETC, RETC), P(ROUND_NE, ROUND_NE),
    P(ROUND_NI, ROUND_NI), P(ROUND_PI, ROUND_PI), P(ROUND_Z, ROUND_Z), P(RSQ, RSQ),
    P(SAMPLE, SAMPLE), P(SAMPLE_C, SAMPLE_C), P(SAMPLE_C_LZ, SAMPLE_C_LZ),
    P(SAMPLE_L, SAMPLE_L), P(SAMPLE_D, SAMPLE_D), P(SAMPLE_B, SAMPLE_B), P(SQRT, SQRT),
    P(SWITCH, SWITCH), P(SINCOS, SINCOS), P(UDIV, UDIV), P(ULT, ULT), P(UGE, UGE),
    P(UMUL, UMUL), P(UMAD, UMAD), P(UMAX, UMAX), P(UMIN, UMIN), P(USHR, USHR), P(UTOF, UTOF),
    P(XOR, XOR), P(LOD, LOD), P(GATHER4, GATHER4), P(SAMPLE_POS, SAMPLE_POS),
    P(SAMPLE_INFO, SAMPLE_INFO), X(EMIT_STREAM, EMIT, H_STREAM), X(CUT_STREAM, CUT, H_STREAM),
    X(EMIT_THEN_CUT_STREAM, EMIT_THEN_CUT, H_STREAM),
    X(INTERFACE_CALL, INTERFACE_CALL, H_FCALL), P(BUFINFO, BUFINFO),
    P(DERIV_RTX_COARSE, DERIV_RTX_COARSE), P(DERIV_RTX_FINE, DERIV_RTX_FINE),
    P(DERIV_RTY_COARSE, DERIV_RTY_COARSE), P(DERIV_RTY_FINE, DERIV_RTY_FINE),
    P(GATHER4_C, GATHER4_C), P(GATHER4_PO, GATHER4_PO), P(GATHER4_PO_C, GATHER4_PO_C),
    P(RCP, RCP), P(F32TOF16, F32TOF16), P(F16TOF32, F16TOF32), P(UADDC, UADDC),
    P(USUBB, USUBB), P(COUNTBITS, COUNTBITS), P(FIRSTBIT_HI, FIRSTBIT_HI),
    P(FIRSTBIT_LO, FIRSTBIT_LO), P(FIRSTBIT_SHI, FIRSTBIT_SHI), P(UBFE, UBFE), P(IBFE, IBFE),
    P(BFI, BFI), P(BFREV, BFREV), P(SWAPC, SWAPC), P(LD_UAV_TYPED, LD_UAV_TYPED),
    P(STORE_UAV_TYPED, STORE_UAV_TYPED), P(LD_RAW, LD_RAW), P(STORE_RAW, STORE_RAW),
    P(LD_STRUCTURED, LD_STRUCTURED), P(STORE_STRUCTURED, STORE_STRUCTURED),
    P(ATOMIC_AND, ATOMIC_AND), P(ATOMIC_OR, ATOMIC_OR), P(ATOMIC_XOR, ATOMIC_XOR),
    P(ATOMIC_CMP_STORE, ATOMIC_CMP_STORE), P(ATOMIC_IADD, ATOMIC_IADD),
    P(ATOMIC_IMAX, ATOMIC_IMAX), P(ATOMIC_IMIN, ATOMIC_IMIN), P(ATOMIC_UMAX, ATOMIC_UMAX),
    P(ATOMIC_UMIN, ATOMIC_UMIN), P(IMM_ATOMIC_ALLOC, IMM_ATOMIC_ALLOC),
    P(IMM_ATOMIC_CONSUME, IMM_ATOMIC_CONSUME), P(IMM_ATOMIC_IADD, IMM_ATOMIC_IADD),
    P(IMM_ATOMIC_AND, IMM_ATOMIC_AND), P(IMM_ATOMIC_OR, IMM_ATOMIC_OR),
    P(IMM_ATOMIC_XOR, IMM_ATOMIC_XOR), P(IMM_ATOMIC_EXCH, IMM_ATOMIC_EXCH),
    P(IMM_ATOMIC_CMP_EXCH, IMM_ATOMIC_CMP_EXCH), P(IMM_ATOMIC_IMAX, IMM_ATOMIC_IMAX),
    P(IMM_ATOMIC_IMIN, IMM_ATOMIC_IMIN), P(IMM_ATOMIC_UMAX, IMM_ATOMIC_UMAX),
    P(IMM_ATOMIC_UMIN, IMM_ATOMIC_UMIN), P(SYNC, SYNC), P(DADD, DADD), P(DMAX, DMAX),
    P(DMIN, DMIN), P(DMUL, DMUL), P(DEQ, DEQ), P(DGE, DGE), P(DLT, DLT), P(DNE, DNE),
    P(DMOV, DMOV), P(DMOVC, DMOVC), P(DTOF, DTOF), P(FTOD, FTOD),
    P(EVAL_SNAPPED, EVAL_SNAPPED), P(EVAL_SAMPLE_INDEX, EVAL_SAMPLE_INDEX),
    P(EVAL_CENTROID, EVAL_CENTROID), P(ABORT, ABORT), P(DEBUG_BREAK, DEBUG_BREAK),
    P(DDIV, DDIV), P(DFMA, DFMA), P(DRCP, DRCP), P(MSAD, MSAD), P(DTOI, DTOI), P(DTOU, DTOU),
    P(ITOD, ITOD), P(UTOD, UTOD),
    /* Tiled-resource feedback forms: the base op with a status dst[1] (IR.md). */
    P(GATHER4_S, GATHER4), P(GATHER4_C_S, GATHER4_C), P(GATHER4_PO_S, GATHER4_PO),
    P(GATHER4_PO_C_S, GATHER4_PO_C), P(LD_S, LD), P(LDMS_S, LD_MS),
    P(LD_UAV_TYPED_S, LD_UAV_TYPED), P(LD_RAW_S, LD_RAW), P(LD_STRUCTURED_S, LD_STRUCTURED),
    P(SAMPLE_L_S, SAMPLE_L), P(SAMPLE_C_LZ_S, SAMPLE_C_LZ), P(SAMPLE_CL_S, SAMPLE),
    P(SAMPLE_B_CL_S, SAMPLE_B), P(SAMPLE_D_CL_S, SAMPLE_D), P(SAMPLE_C_CL_S, SAMPLE_C),
    P(CHECK_ACCESS_FULLY_MAPPED, CHECK_ACCESS_FULLY_MAPPED),
};
#undef P
#undef X

bool sb_ir_sm4_op_mapping(uint32_t sm4_opcode, uint32_t sm4_src_count, uint32_t *ir_op,
                          uint32_t *ir_src_count)
{
    if (sm4_opcode >= SB_SM4_OP_COUNT || op_rows[sm4_opcode].how == H_NONE)
        return false;
    const struct op_row *row = &op_rows[sm4_opcode];
    *ir_op = row->op;
    switch (row->how) {
    case H_CASE:
    case H_STREAM: *ir_src_count = 0; break;
    case H_CALL:
    case H_CALLC: *ir_src_count = sm4_src_count ? sm4_src_count - 1 : 0; break;
    default: *ir_src_count = sm4_src_count; break;
    }
    return true;
}

/* Flags and side fields every instruction copies from its SM4 form. */
static void copy_controls(const struct sb_sm4_instruction *inst, const struct sb_ir_op_info *info,
                          struct sb_ir_instruction *out)
{
    if (inst->saturate &&
        (info->dst_type[0] == SB_IR_TYPE_FLOAT || info->dst_type[0] == SB_IR_TYPE_DOUBLE))
        out->flags |= SB_IR_FLAG_SATURATE;
    if (inst->test_nonzero)
        out->flags |= SB_IR_FLAG_TEST_NZ;
    if (inst->precise_mask) {
        out->flags |= SB_IR_FLAG_PRECISE;
        out->precise_mask = (uint8_t)(inst->precise_mask & 0xfu);
    }
    if (inst->has_sample_offsets)
        memcpy(out->texel_offset, inst->sample_offsets, sizeof(out->texel_offset));
    if (inst->has_resource_dimension) {
        out->resource_dimension = inst->resource_dimension;
        out->resource_stride = inst->resource_stride;
    }
    if (inst->has_resource_return_type)
        memcpy(out->resource_return_type, inst->resource_return_type,
               sizeof(out->resource_return_type));
    out->return_type = inst->return_type;
    out->sync_flags = inst->sync_flags;
}

/* The SM4 operands that become IR sources, per `how`; also sets side fields. */
static bool special_operands(struct sb_ir_sm4_context *ctx, const struct sb_sm4_instruction *inst,
                             uint32_t how, struct sb_ir_instruction *out, uint32_t *first_src,
                             uint32_t *src_count)
{
    const struct sb_sm4_operand *ops = inst->operands;
    uint32_t n = inst->operand_count - inst->dst_count;
    const struct sb_sm4_operand *last = n ? &ops[inst->operand_count - 1] : NULL;
    switch (how) {
    case H_CASE:
        if (!last || last->type != SB_SM4_OPERAND_IMMEDIATE32 || !last->immediate_count)
            return sb_ir_fail(ctx, SB_ERROR_TRANSLATE_INVALID, "case value is not an immediate");
        out->case_value = last->immediate[0];
        *src_count = 0;
        return true;
    case H_CALL:
    case H_CALLC:
        if (!last || last->type != SB_SM4_OPERAND_LABEL || last->index_dimension != 1 || last->index[0].relative ||
            last->index[0].value > UINT32_MAX)
            return sb_ir_fail(ctx, SB_ERROR_TRANSLATE_INVALID, "call target is not a label");
        /* The label number; ir_from_sm4_flow.c turns it into a function index. */
        out->target = (uint32_t)last->index[0].value;
        *src_count = n - 1;
        return true;
    case H_FCALL:
        out->target = inst->call_site;
        return true;
    case H_STREAM:
        if (!last || last->type != SB_SM4_OPERAND_STREAM || last->index_dimension != 1 ||
            last->index[0].relative || last->index[0].value > 3)
            return sb_ir_fail(ctx, SB_ERROR_TRANSLATE_INVALID, "stream operand is not m0-m3");
        out->stream = (uint32_t)last->index[0].value;
        *src_count = 0;
        return true;
    default:
        (void)first_src;
        return true;
    }
}

bool sb_ir_lower_instruction(struct sb_ir_sm4_context *ctx, const struct sb_sm4_instruction *inst)
{
    const struct op_row *row = inst->opcode < SB_SM4_OP_COUNT ? &op_rows[inst->opcode] : NULL;
    if (!row || row->how == H_NONE)
        return sb_ir_fail(ctx, SB_ERROR_TRANSLATE_INVALID, "opcode %u is not an instruction",
                          inst->opcode);
    uint32_t op = row->op;
    const struct sb_ir_op_info *info = sb_ir_op_info(op);
    if (ctx->pool_used >= ctx->pool_size)
        return sb_ir_fail(ctx, SB_ERROR_TRANSLATE_INVALID, "instruction pool exhausted");
    /* Filled in place (each slot is used once); the pool is not zeroed in advance,
     * so every field starts here, copied from a constant blank instruction: for a
     * struct this size that measured cheaper than clearing it field by field or with
     * a compound literal. */
    static const struct sb_ir_instruction blank;
    struct sb_ir_instruction *out = &ctx->pool[ctx->pool_used];
    *out = blank;
    out->op = op;
    out->offset = inst->offset;
    if (inst->dst_count > inst->operand_count)
        return sb_ir_fail(ctx, SB_ERROR_TRANSLATE_INVALID, "more destinations than operands");
    uint32_t first_src = inst->dst_count;
    uint32_t src_count = inst->operand_count - inst->dst_count;
    if (!special_operands(ctx, inst, row->how, out, &first_src, &src_count))
        return false;
    if (inst->dst_count < info->dst_min || inst->dst_count > info->dst_max ||
        src_count < info->src_min || src_count > info->src_max)
        return sb_ir_fail(ctx, SB_ERROR_TRANSLATE_INVALID,
                          "%s with %u destinations and %u sources", info->name, inst->dst_count,
                          src_count);
    uint32_t operand_count = inst->dst_count + src_count;
    if (operand_count > ctx->operands_size - ctx->operands_used)
        return sb_ir_fail(ctx, SB_ERROR_TRANSLATE_INVALID, "operand pool exhausted");
    struct sb_ir_operand *operands = ctx->operands + ctx->operands_used;
    ctx->operands_used += operand_count;
    if (!sb_ir_take_operands(ctx, inst, info, op, first_src, operand_count, operands))
        return false;
    if ((op == SB_IR_OP_EVAL_CENTROID || op == SB_IR_OP_EVAL_SAMPLE_INDEX ||
         op == SB_IR_OP_EVAL_SNAPPED) &&
        operands[inst->dst_count].file != SB_IR_FILE_INPUT)
        return sb_ir_fail(ctx, SB_ERROR_TRANSLATE_INVALID, "%s reads an input register",
                          info->name);
    if (op == SB_IR_OP_IMM_ATOMIC_ALLOC || op == SB_IR_OP_IMM_ATOMIC_CONSUME)
        ctx->uses_counters = true;
    if (sb_ir_is_checked_flow(op))
        ctx->has_flow = true;
    out->dst_count = inst->dst_count;
    out->src_count = src_count;
    out->dst = operands;
    out->src = operands + inst->dst_count;
    copy_controls(inst, info, out);
    ctx->pool_used++;
    sb_ir_current_function(ctx)->count++;
    return true;
}

/* Token-0 controls (§2.2, §2.3) as the decoder's read_controls() and copy_controls() above
 * carry them (extended opcode tokens: token_extended_opcode()). */
static void token_controls(uint32_t token, uint32_t control_flags,
                           const struct sb_ir_op_info *info, struct sb_ir_instruction *out)
{
    if (control_flags & SB_SM4_OPF_SYNC) {
        out->sync_flags = (token >> 11) & 0xfu;
        return;
    }
    if (((token >> 13) & 1u) &&
        (info->dst_type[0] == SB_IR_TYPE_FLOAT || info->dst_type[0] == SB_IR_TYPE_DOUBLE))
        out->flags |= SB_IR_FLAG_SATURATE;
    if ((control_flags & SB_SM4_OPF_TEST) && ((token >> 18) & 1u))
        out->flags |= SB_IR_FLAG_TEST_NZ;
    uint32_t precise = (token >> 19) & 0xfu;
    if (precise) {
        out->flags |= SB_IR_FLAG_PRECISE;
        out->precise_mask = (uint8_t)precise;
    }
    if (control_flags & SB_SM4_OPF_RESINFO)
        out->return_type = (token >> 11) & 3u;
    if (control_flags & SB_SM4_OPF_SAMPLEINFO)
        out->return_type = (token >> 11) & 1u;
}

/*
 * Extended opcode tokens (§4) from DWORD *pos while bit 31 chains them, as the decoder's
 * read_extended_opcode() reads them and copy_controls() carries them into `out`; false,
 * declining, on a token the decoder rejects or past the window. *pos ends after them.
 */
static bool token_extended_opcode(const uint8_t *data, uint32_t *pos, uint32_t end,
                                  struct sb_ir_instruction *out)
{
    uint32_t ext;
    do {
        if (*pos >= end)
            return false;
        ext = sb_load_u32_le(data + (size_t)(*pos)++ * 4u);
        switch (ext & 0x3fu) {
        case 0:
            break;
        case 1:
            for (unsigned i = 0; i < 3; i++) {
                int v = (int)((ext >> (9 + 4 * i)) & 0xfu); /* 4-bit two's complement */
                out->texel_offset[i] = (int8_t)(v >= 8 ? v - 16 : v);
            }
            break;
        case 2:
            out->resource_dimension = (ext >> 6) & 0x1fu;
            out->resource_stride = (ext >> 11) & 0xfffu;
            break;
        case 3:
            for (unsigned i = 0; i < 4; i++)
                out->resource_return_type[i] = (ext >> (6 + 4 * i)) & 0xfu;
            break;
        default:
            return false;
        }
    } while (ext & 0x80000000u);
    return true;
}

void sb_ir_opcode_form_prepare(uint32_t token, struct sb_ir_opcode_form *form)
{
    static const struct sb_ir_instruction blank; /* see sb_ir_lower_instruction() */
    uint32_t opcode = token & 0x7ffu;
    const struct sb_sm4_opcode_info *row4 =
        opcode == SB_SM4_OP_CUSTOMDATA ? NULL : sb_sm4_opcode_info(opcode);
    form->direct = false;
    if (!row4 || ((token & 0x80000000u) && (row4->flags & SB_SM4_OPF_LONG)) ||
        (row4->flags & (SB_SM4_OPF_DECL | SB_SM4_OPF_FCALL)) || op_rows[opcode].how != H_PLAIN)
        return;
    const struct sb_ir_op_info *info = sb_ir_op_info(op_rows[opcode].op);
    uint32_t dst_count = row4->dst_count, src_count = row4->src_count;
    if (dst_count < info->dst_min || dst_count > info->dst_max || src_count < info->src_min ||
        src_count > info->src_max)
        return;
    form->head = blank;
    form->head.op = op_rows[opcode].op;
    token_controls(token, row4->flags, info, &form->head);
    form->info = info;
    form->dst_count = (uint8_t)dst_count;
    form->src_count = (uint8_t)src_count;
    form->direct = true;
}

enum sb_ir_fast sb_ir_lower_tokens(struct sb_ir_sm4_context *ctx,
                                   const struct sb_ir_opcode_form *form, const uint8_t *data,
                                   uint32_t start, uint32_t length)
{
    if (ctx->program->stage == SB_IR_STAGE_HULL &&
        sb_ir_current_function(ctx)->section == SB_IR_SECTION_MAIN)
        return SB_IR_FAST_DECLINED;
    uint32_t dst_count = form->dst_count, count = dst_count + form->src_count;
    if (ctx->pool_used >= ctx->pool_size || count > ctx->operands_size - ctx->operands_used)
        return SB_IR_FAST_DECLINED;
    struct sb_ir_instruction *out = &ctx->pool[ctx->pool_used];
    *out = form->head;
    uint32_t pos = start + 1;
    uint32_t token = sb_load_u32_le(data + (size_t)start * 4u);
    if ((token & 0x80000000u) && !token_extended_opcode(data, &pos, start + length, out))
        return SB_IR_FAST_DECLINED;
    uint32_t op = out->op;
    struct sb_ir_operand *operands = ctx->operands + ctx->operands_used;
    enum sb_ir_fast r = sb_ir_take_token_operands(ctx, form->info, op, dst_count, count, data,
                                                  pos, start + length, operands);
    if (r != SB_IR_FAST_DONE)
        return r;
    if ((op == SB_IR_OP_EVAL_CENTROID || op == SB_IR_OP_EVAL_SAMPLE_INDEX ||
         op == SB_IR_OP_EVAL_SNAPPED) &&
        operands[dst_count].file != SB_IR_FILE_INPUT)
        return SB_IR_FAST_DECLINED;
    if (op == SB_IR_OP_IMM_ATOMIC_ALLOC || op == SB_IR_OP_IMM_ATOMIC_CONSUME)
        ctx->uses_counters = true;
    if (sb_ir_is_checked_flow(op))
        ctx->has_flow = true;
    out->offset = ctx->inst->offset;
    out->dst_count = dst_count;
    out->src_count = form->src_count;
    out->dst = operands;
    out->src = operands + dst_count;
    ctx->operands_used += count;
    ctx->pool_used++;
    sb_ir_current_function(ctx)->count++;
    return SB_IR_FAST_DONE;
}
