/* SPDX-License-Identifier: MIT */
/*
 * One lowering per float op with PICA semantics and per PICA op (IR.md §PICA200
 * programs, ../shared/docs/pica200.md §6): sources are copied into scratch temps (swizzle and
 * negation applied, arithmetic inputs flushed), the result is built lane-wise in a
 * scratch temp, fixed up by the mode's rounding (pica_lower_math.c), and moved to the
 * destination under its mask.
 */
#include "pica_lower_private.h"

#define R(t) sb_pl_src(t)
#define K(bits) sb_pl_imm(bits)
#define F_ONE 0x3F800000u
#define LITP_LIMIT 0x42FFFE00u /* 127.99609375 = 0x7FFF / 256 */

/* Source `k` of the instruction in all lanes of a new temp (flushed when `flush`). */
static uint32_t load(struct pica_lower *L, const struct sb_ir_instruction *inst, uint32_t k, bool flush)
{
    struct sb_ir_operand s;
    uint32_t t = sb_pl_scratch(L);
    if (k >= inst->src_count) {
        sb_pl_fail(L, SB_ERROR_TRANSLATE_INVALID, "missing source operand");
        return t;
    }
    if (!sb_pl_source(L, &inst->src[k], &s))
        return t;
    struct sb_ir_operand d = sb_pl_dst(t, 0xF);
    sb_pl_emit(L, SB_IR_OP_MOV, &d, 1, &s, NULL, NULL);
    if (flush)
        sb_pl_flush(L, t, 0xF);
    return t;
}

static void op2(struct pica_lower *L, uint32_t op, uint32_t d, uint32_t mask, struct sb_ir_operand a,
                struct sb_ir_operand b)
{
    struct sb_ir_operand dst = sb_pl_dst(d, mask);
    sb_pl_emit(L, op, &dst, 2, &a, &b, NULL);
}

static void movc(struct pica_lower *L, uint32_t d, uint32_t mask, struct sb_ir_operand c,
                 struct sb_ir_operand a, struct sb_ir_operand b)
{
    struct sb_ir_operand dst = sb_pl_dst(d, mask);
    sb_pl_emit(L, SB_IR_OP_MOVC, &dst, 3, &c, &a, &b);
}

/* The destination <- r`t` (lane x replicated when `scalar`). */
static void store(struct pica_lower *L, const struct sb_ir_instruction *inst, uint32_t t, bool scalar)
{
    struct sb_ir_operand d;
    if (!inst->dst_count) {
        sb_pl_fail(L, SB_ERROR_TRANSLATE_INVALID, "missing destination operand");
        return;
    }
    if (inst->dst[0].file == SB_IR_FILE_NULL || !inst->dst[0].mask || !sb_pl_destination(L, &inst->dst[0], &d))
        return;
    struct sb_ir_operand v = scalar ? sb_pl_lane(t, 0) : sb_pl_src(t);
    sb_pl_emit(L, SB_IR_OP_MOV, &d, 1, &v, NULL, NULL);
}

static bool binary(struct pica_lower *L, const struct sb_ir_instruction *inst)
{
    uint32_t a = load(L, inst, 0, true), b = load(L, inst, 1, true), r = sb_pl_scratch(L);
    op2(L, inst->op, r, 0xF, R(a), R(b));
    if (inst->op == SB_IR_OP_MUL && (inst->flags & SB_IR_FLAG_LEGACY_MUL))
        sb_pl_legacy_fix(L, r, a, b, 0xF);
    sb_pl_result_fix(L, r, 0xF);
    store(L, inst, r, false);
    return true;
}

/* MAD is not fused (GBATEK): in float24 mode the product is rounded before the add. */
static bool mad(struct pica_lower *L, const struct sb_ir_instruction *inst)
{
    uint32_t a = load(L, inst, 0, true), b = load(L, inst, 1, true), c = load(L, inst, 2, true);
    uint32_t p = sb_pl_scratch(L);
    op2(L, SB_IR_OP_MUL, p, 0xF, R(a), R(b));
    if (inst->flags & SB_IR_FLAG_LEGACY_MUL)
        sb_pl_legacy_fix(L, p, a, b, 0xF);
    if (L->flags & SB_IR_PICA_FLOAT24)
        sb_pl_result_fix(L, p, 0xF);
    op2(L, SB_IR_OP_ADD, p, 0xF, R(p), R(c));
    sb_pl_result_fix(L, p, 0xF);
    store(L, inst, p, false);
    return true;
}

/* DP3 / DP4 / DPH: products summed in order x + y + z + w, rounded once. */
static bool dot(struct pica_lower *L, const struct sb_ir_instruction *inst, uint32_t size)
{
    uint32_t a = load(L, inst, 0, true), b = load(L, inst, 1, true), p = sb_pl_scratch(L), s = sb_pl_scratch(L);
    if (inst->op == SB_IR_OP_DPH) {
        struct sb_ir_operand w = sb_pl_dst(a, 8), one = K(F_ONE);
        sb_pl_emit(L, SB_IR_OP_MOV, &w, 1, &one, NULL, NULL);
    }
    op2(L, SB_IR_OP_MUL, p, 0xF, R(a), R(b));
    if (inst->flags & SB_IR_FLAG_LEGACY_MUL)
        sb_pl_legacy_fix(L, p, a, b, 0xF);
    op2(L, SB_IR_OP_ADD, s, 1, sb_pl_lane(p, 0), sb_pl_lane(p, 1));
    for (uint32_t k = 2; k < size; k++)
        op2(L, SB_IR_OP_ADD, s, 1, sb_pl_lane(s, 0), sb_pl_lane(p, k));
    sb_pl_result_fix(L, s, 1);
    store(L, inst, s, true);
    return true;
}

/* DST: (1, a.y * b.y, a.z, b.w). */
static bool dst_op(struct pica_lower *L, const struct sb_ir_instruction *inst)
{
    uint32_t a = load(L, inst, 0, true), b = load(L, inst, 1, true), p = sb_pl_scratch(L), r = sb_pl_scratch(L);
    op2(L, SB_IR_OP_MUL, p, 2, R(a), R(b));
    if (inst->flags & SB_IR_FLAG_LEGACY_MUL)
        sb_pl_legacy_fix(L, p, a, b, 2);
    struct sb_ir_operand d = sb_pl_dst(r, 1), one = K(F_ONE), sp = R(p), sa = R(a), sb = R(b);
    sb_pl_emit(L, SB_IR_OP_MOV, &d, 1, &one, NULL, NULL);
    d.mask = 2;
    sb_pl_emit(L, SB_IR_OP_MOV, &d, 1, &sp, NULL, NULL);
    d.mask = 4;
    sb_pl_emit(L, SB_IR_OP_MOV, &d, 1, &sa, NULL, NULL);
    d.mask = 8;
    sb_pl_emit(L, SB_IR_OP_MOV, &d, 1, &sb, NULL, NULL);
    sb_pl_result_fix(L, r, 0xF);
    store(L, inst, r, false);
    return true;
}

/* SGE / SLT (NaN -> 0.0), MIN / MAX (§6.3 table; inputs not flushed). */
static bool compare_select(struct pica_lower *L, const struct sb_ir_instruction *inst)
{
    uint32_t a = load(L, inst, 0, false), b = load(L, inst, 1, false), c = sb_pl_scratch(L), r = sb_pl_scratch(L);
    switch (inst->op) {
    case SB_IR_OP_SGE:
    case SB_IR_OP_SLT:
        op2(L, inst->op == SB_IR_OP_SGE ? SB_IR_OP_GE : SB_IR_OP_LT, c, 0xF, R(a), R(b));
        movc(L, r, 0xF, R(c), K(F_ONE), K(0));
        break;
    case SB_IR_OP_MIN:
        op2(L, SB_IR_OP_LT, c, 0xF, R(a), R(b));
        movc(L, r, 0xF, R(c), R(a), R(b));
        break;
    default: /* MAX */
        op2(L, SB_IR_OP_LT, c, 0xF, R(b), R(a));
        movc(L, r, 0xF, R(c), R(a), R(b));
        if (!(L->flags & SB_IR_PICA_MAX_EMULATOR)) { /* measured: an infinite b wins */
            op2(L, SB_IR_OP_AND, c, 0xF, R(b), K(0x7FFFFFFFu));
            op2(L, SB_IR_OP_IEQ, c, 0xF, R(c), K(0x7F800000u));
            movc(L, r, 0xF, R(c), R(b), R(r));
        }
        break;
    }
    store(L, inst, r, false);
    return true;
}

static bool unary(struct pica_lower *L, const struct sb_ir_instruction *inst)
{
    uint32_t a = load(L, inst, 0, true), r = sb_pl_scratch(L);
    switch (inst->op) {
    case SB_IR_OP_ROUND_NI: {
        struct sb_ir_operand d = sb_pl_dst(r, 0xF), s = R(a);
        sb_pl_emit(L, SB_IR_OP_ROUND_NI, &d, 1, &s, NULL, NULL);
        sb_pl_result_fix(L, r, 0xF);
        store(L, inst, r, false);
        return true;
    }
    case SB_IR_OP_RCP: sb_pl_rcp(L, r, a); break;
    case SB_IR_OP_RSQ: sb_pl_rsq(L, r, a); break;
    case SB_IR_OP_EXP: sb_pl_ex2(L, r, a); break;
    default: sb_pl_lg2(L, r, a); break;
    }
    sb_pl_result_fix(L, r, 1);
    store(L, inst, r, true);
    return true;
}

/* CMP: cmp.x / cmp.y <- compare[0] / compare[1] of lanes x / y (§6.4). */
static bool cmp(struct pica_lower *L, const struct sb_ir_instruction *inst)
{
    uint32_t a = load(L, inst, 0, false), b = load(L, inst, 1, false), flags = PICA_CONDITION_TEMP(L);
    for (uint32_t k = 0; k < 2; k++) {
        uint32_t mask = 1u << k;
        switch (inst->compare[k] & 7u) {
        case 0: op2(L, SB_IR_OP_EQ, flags, mask, R(a), R(b)); break;
        case 1: op2(L, SB_IR_OP_NE, flags, mask, R(a), R(b)); break;
        case 2: op2(L, SB_IR_OP_LT, flags, mask, R(a), R(b)); break;
        case 3: op2(L, SB_IR_OP_GE, flags, mask, R(b), R(a)); break;
        case 4: op2(L, SB_IR_OP_LT, flags, mask, R(b), R(a)); break;
        case 5: op2(L, SB_IR_OP_GE, flags, mask, R(a), R(b)); break;
        default:
            if (!(L->flags & SB_IR_PICA_CMP67_KEEP)) {
                struct sb_ir_operand d = sb_pl_dst(flags, mask), t = K(0xFFFFFFFFu);
                sb_pl_emit(L, SB_IR_OP_MOV, &d, 1, &t, NULL, NULL);
            }
            break;
        }
    }
    return true;
}

/* MOVA: a0.x / a0.y <- truncated int of lanes x / y under the mask (FTOI: NaN -> 0). */
static bool mova(struct pica_lower *L, const struct sb_ir_instruction *inst)
{
    uint32_t a = load(L, inst, 0, false);
    uint32_t mask = inst->dst_count ? inst->dst[0].mask & 3u : 3u;
    struct sb_ir_operand d = sb_pl_dst(PICA_ADDRESS_TEMP(L), mask), s = R(a);
    if (mask)
        sb_pl_emit(L, SB_IR_OP_FTOI, &d, 1, &s, NULL, NULL);
    return true;
}

/* LITP (§6.3): (max(x, 0), clamp(y, -127.9961, 127.9961), 0, max(w, 0)); cmp = (x >= 0, w >= 0). */
static bool litp(struct pica_lower *L, const struct sb_ir_instruction *inst)
{
    uint32_t a = load(L, inst, 0, false), c = sb_pl_scratch(L), r = sb_pl_scratch(L), flags = PICA_CONDITION_TEMP(L);
    op2(L, SB_IR_OP_GE, flags, 1, sb_pl_lane(a, 0), K(0));
    op2(L, SB_IR_OP_GE, flags, 2, sb_pl_lane(a, 3), K(0));
    op2(L, SB_IR_OP_LT, c, 9, K(0), R(a));
    movc(L, r, 9, R(c), R(a), K(0));
    op2(L, SB_IR_OP_LT, c, 2, K(LITP_LIMIT | 0x80000000u), R(a));
    movc(L, r, 2, R(c), R(a), K(LITP_LIMIT | 0x80000000u));
    op2(L, SB_IR_OP_LT, c, 2, R(r), K(LITP_LIMIT));
    movc(L, r, 2, R(c), R(r), K(LITP_LIMIT));
    struct sb_ir_operand d = sb_pl_dst(r, 4), zero = K(0);
    sb_pl_emit(L, SB_IR_OP_MOV, &d, 1, &zero, NULL, NULL);
    store(L, inst, r, false);
    return true;
}

static bool setemit(struct pica_lower *L, const struct sb_ir_instruction *inst)
{
    struct sb_ir_operand d = sb_pl_dst(PICA_EMIT_TEMP(L), 7), v = K(0);
    v.imm[0] = inst->stream;
    v.imm[1] = (inst->flags & SB_IR_FLAG_PICA_WINDING) ? 1u : 0u;
    v.imm[2] = (inst->flags & SB_IR_FLAG_PICA_PRIMITIVE) ? 1u : 0u;
    sb_pl_emit(L, SB_IR_OP_MOV, &d, 1, &v, NULL, NULL);
    return true;
}

bool sb_pl_lower_op(struct pica_lower *L, const struct sb_ir_instruction *inst)
{
    switch (inst->op) {
    case SB_IR_OP_ADD: case SB_IR_OP_MUL: return binary(L, inst);
    case SB_IR_OP_MAD: return mad(L, inst);
    case SB_IR_OP_DP3: return dot(L, inst, 3);
    case SB_IR_OP_DP4: case SB_IR_OP_DPH: return dot(L, inst, 4);
    case SB_IR_OP_DST: return dst_op(L, inst);
    case SB_IR_OP_SGE: case SB_IR_OP_SLT: case SB_IR_OP_MIN: case SB_IR_OP_MAX:
        return compare_select(L, inst);
    case SB_IR_OP_ROUND_NI: case SB_IR_OP_RCP: case SB_IR_OP_RSQ: case SB_IR_OP_EXP: case SB_IR_OP_LOG:
        return unary(L, inst);
    case SB_IR_OP_PICA_CMP: return cmp(L, inst);
    case SB_IR_OP_PICA_MOVA: return mova(L, inst);
    case SB_IR_OP_PICA_LITP: return litp(L, inst);
    case SB_IR_OP_PICA_SETEMIT: return setemit(L, inst);
    default: return false;
    }
}
