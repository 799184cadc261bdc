/* SPDX-License-Identifier: MIT */
/*
 * The wave ops no IR wave op expresses (../shared/docs/dxil.md §3.6): WaveMatch
 * (the ballot of the lanes whose value equals this lane's) and WaveMultiPrefixOp /
 * WaveMultiPrefixBitCount (an exclusive prefix over the lanes a 128-bit mask names).
 * Each becomes one loop over the wave's lanes k = 0 .. WaveGetLaneCount - 1 that every
 * active lane runs the same number of times, so WAVE_READ_LANE_AT(value, k) reads the
 * same lane k everywhere; lane k counts only when WAVE_BALLOT(true) says it is active
 * (an inactive lane's value is undefined). That is D3D's definition taken literally:
 * no assumption that the masks partition the wave, exact for every op (sum, product,
 * and, or, xor; float sums in lane order, which D3D allows), at O(lanes) instructions
 * run per use.
 */
#include "ir_from_dxil_private.h"
#include "translator/dxil_opcodes.h"

/* The loop's temps: k, the active-lane ballot (4 words), the lane count and index. */
struct lane_loop {
    uint32_t k, active, count, me;
};

static struct sb_ir_operand imm4(uint32_t x, uint32_t y, uint32_t z, uint32_t w)
{
    struct sb_ir_operand op = dxil_front_imm(x);
    op.imm[1] = y;
    op.imm[2] = z;
    op.imm[3] = w;
    return op;
}

static struct sb_ir_operand xyzw(uint32_t temp)
{
    struct sb_ir_operand op = dxil_front_temp_src(temp, 0);
    for (unsigned i = 0; i < 4; i++)
        op.swizzle[i] = (uint8_t)i;
    return op;
}

/* k = 0, the ballot of active lanes, count and index; then LOOP and the exit test. */
static bool loop_open(struct dxil_front *f, struct lane_loop *l)
{
    l->k = dxil_front_new_temp(f);
    l->active = dxil_front_new_temp(f);
    l->count = dxil_front_new_temp(f);
    l->me = dxil_front_new_temp(f);
    struct sb_ir_operand zero = dxil_front_imm(0), all = dxil_front_imm(0xFFFFFFFFu), done;
    if (!dxil_front_emit1(f, SB_IR_OP_MOV, dxil_front_temp_dst(l->k, 0x1), &zero, 1) ||
        !dxil_front_emit1(f, SB_IR_OP_WAVE_BALLOT, dxil_front_temp_dst(l->active, 0xF), &all, 1) ||
        !dxil_front_emit1(f, SB_IR_OP_WAVE_LANE_COUNT, dxil_front_temp_dst(l->count, 0x1), NULL, 0) ||
        !dxil_front_emit1(f, SB_IR_OP_WAVE_LANE_INDEX, dxil_front_temp_dst(l->me, 0x1), NULL, 0) ||
        !dxil_front_emit(f, SB_IR_OP_LOOP, NULL, 0, NULL, 0))
        return false;
    struct sb_ir_operand test[2] = { dxil_front_temp_src(l->k, 0), dxil_front_temp_src(l->count, 0) };
    if (!dxil_front_emit1(f, SB_IR_OP_UGE, dxil_front_fresh(f, &done), test, 2))
        return false;
    struct sb_ir_instruction *leave = dxil_front_emit(f, SB_IR_OP_BREAKC, NULL, 0, &done, 1);
    if (leave)
        leave->flags |= SB_IR_FLAG_TEST_NZ;
    return leave != NULL;
}

/* k = k + 1; ENDLOOP. */
static bool loop_close(struct dxil_front *f, const struct lane_loop *l)
{
    struct sb_ir_operand next[2] = { dxil_front_temp_src(l->k, 0), dxil_front_imm(1) };
    return dxil_front_emit1(f, SB_IR_OP_IADD, dxil_front_temp_dst(l->k, 0x1), next, 2) &&
           dxil_front_emit(f, SB_IR_OP_ENDLOOP, NULL, 0, NULL, 0) != NULL;
}

/* Bit k of the 128-bit value in `words` (4 lanes) as a D3D bool. */
static bool bit_k(struct dxil_front *f, const struct lane_loop *l, struct sb_ir_operand words,
                  struct sb_ir_operand *out)
{
    uint32_t pick = dxil_front_new_temp(f);
    struct sb_ir_operand word_index, word, t, bit;
    struct sb_ir_operand shift[2] = { dxil_front_temp_src(l->k, 0), dxil_front_imm(5) };
    if (!dxil_front_emit1(f, SB_IR_OP_USHR, dxil_front_fresh(f, &word_index), shift, 2))
        return false;
    struct sb_ir_operand which[2] = { word_index, imm4(0, 1, 2, 3) };
    struct sb_ir_operand keep[2] = { words, xyzw(pick) };
    if (!dxil_front_emit1(f, SB_IR_OP_IEQ, dxil_front_temp_dst(pick, 0xF), which, 2) ||
        !dxil_front_emit1(f, SB_IR_OP_AND, dxil_front_temp_dst(pick, 0xF), keep, 2))
        return false;
    struct sb_ir_operand a[2] = { dxil_front_temp_src(pick, 0), dxil_front_temp_src(pick, 1) };
    if (!dxil_front_emit1(f, SB_IR_OP_OR, dxil_front_fresh(f, &t), a, 2))
        return false;
    struct sb_ir_operand b[2] = { t, dxil_front_temp_src(pick, 2) };
    if (!dxil_front_emit1(f, SB_IR_OP_OR, dxil_front_fresh(f, &t), b, 2))
        return false;
    struct sb_ir_operand c[2] = { t, dxil_front_temp_src(pick, 3) };
    if (!dxil_front_emit1(f, SB_IR_OP_OR, dxil_front_fresh(f, &word), c, 2))
        return false;
    struct sb_ir_operand s[3] = { dxil_front_imm(1), dxil_front_temp_src(l->k, 0), word };
    struct sb_ir_operand nz[2];
    if (!dxil_front_emit1(f, SB_IR_OP_UBFE, dxil_front_fresh(f, &bit), s, 3))
        return false;
    nz[0] = bit;
    nz[1] = dxil_front_imm(0);
    return dxil_front_emit1(f, SB_IR_OP_INE, dxil_front_fresh(f, out), nz, 2);
}

static bool and2(struct dxil_front *f, struct sb_ir_operand a, struct sb_ir_operand b,
                 struct sb_ir_operand *out)
{
    struct sb_ir_operand s[2] = { a, b };
    return dxil_front_emit1(f, SB_IR_OP_AND, dxil_front_fresh(f, out), s, 2);
}

/* The masks of a multi-prefix op (arguments 2..5) in a 4-lane temp. */
static bool masks(struct dxil_front *f, const struct sb_bc_instruction *in, uint32_t *temp)
{
    struct sb_ir_operand m[4];
    if (!dxil_front_call_args(f, in, 2, 4, m))
        return false;
    *temp = dxil_front_new_temp(f);
    for (uint32_t i = 0; i < 4; i++)
        if (!dxil_front_emit1(f, SB_IR_OP_MOV, dxil_front_temp_dst(*temp, (uint8_t)(1u << i)),
                              &m[i], 1))
            return false;
    return true;
}

/* WaveMatch(value): bit k of the result is set when lane k is active and its value has the
 * same bits as this lane's (i32 values). */
static bool match(struct dxil_front *f, const struct sb_bc_instruction *in, uint32_t result)
{
    struct sb_ir_operand v, vk, same, live, take, one, placed;
    struct lane_loop l;
    uint32_t sel = dxil_front_new_temp(f);
    struct sb_ir_operand zero = dxil_front_imm(0);
    if (!dxil_front_call_args(f, in, 1, 1, &v) ||
        !dxil_front_emit1(f, SB_IR_OP_MOV, dxil_front_temp_dst(result, 0xF), &zero, 1) ||
        !loop_open(f, &l))
        return false;
    struct sb_ir_operand read[2] = { v, dxil_front_temp_src(l.k, 0) };
    if (!dxil_front_emit1(f, SB_IR_OP_WAVE_READ_LANE_AT, dxil_front_fresh(f, &vk), read, 2))
        return false;
    struct sb_ir_operand eq[2] = { vk, v };
    if (!dxil_front_emit1(f, SB_IR_OP_IEQ, dxil_front_fresh(f, &same), eq, 2) ||
        !bit_k(f, &l, xyzw(l.active), &live) || !and2(f, same, live, &take) ||
        !and2(f, take, dxil_front_imm(1), &one))
        return false;
    struct sb_ir_operand up[2] = { one, dxil_front_temp_src(l.k, 0) };
    struct sb_ir_operand word_index, shift[2] = { dxil_front_temp_src(l.k, 0), dxil_front_imm(5) };
    if (!dxil_front_emit1(f, SB_IR_OP_ISHL, dxil_front_fresh(f, &placed), up, 2) ||
        !dxil_front_emit1(f, SB_IR_OP_USHR, dxil_front_fresh(f, &word_index), shift, 2))
        return false;
    struct sb_ir_operand which[2] = { word_index, imm4(0, 1, 2, 3) };
    struct sb_ir_operand only[2] = { xyzw(sel), placed }, add[2] = { xyzw(result), xyzw(sel) };
    return dxil_front_emit1(f, SB_IR_OP_IEQ, dxil_front_temp_dst(sel, 0xF), which, 2) &&
           dxil_front_emit1(f, SB_IR_OP_AND, dxil_front_temp_dst(sel, 0xF), only, 2) &&
           dxil_front_emit1(f, SB_IR_OP_OR, dxil_front_temp_dst(result, 0xF), add, 2) &&
           loop_close(f, &l);
}

/* The accumulating op of WaveMultiPrefixOp's op (0 sum, 1 and, 2 or, 3 xor, 4 product) and
 * its identity, for float or integer values. */
static bool prefix_op(uint64_t op, bool is_float, uint32_t *ir_op, uint32_t *identity)
{
    static const uint32_t int_ops[5] = { SB_IR_OP_IADD, SB_IR_OP_AND, SB_IR_OP_OR, SB_IR_OP_XOR,
                                         SB_IR_OP_IMUL };
    static const uint32_t identities[5] = { 0, 0xFFFFFFFFu, 0, 0, 1 };
    if (op > 4 || (is_float && op != 0 && op != 4))
        return false;
    *ir_op = is_float ? (op == 0 ? SB_IR_OP_ADD : SB_IR_OP_MUL) : int_ops[op];
    *identity = is_float ? (op == 0 ? 0 : 0x3F800000u) : identities[op];
    return true;
}

/* WaveMultiPrefixOp(value, masks, op, sop) / WaveMultiPrefixBitCount(value, masks): the op
 * over the active lanes k below this one whose bit is set in this lane's mask. */
static bool multi_prefix(struct dxil_front *f, const struct sb_bc_instruction *in, bool count,
                         uint32_t result)
{
    struct sb_ir_operand v, vk, below, in_mask, live, take, sum;
    struct lane_loop l;
    uint32_t mask_temp = 0, ir_op = SB_IR_OP_IADD, identity = 0;
    uint64_t op = 0;
    const struct sb_bc_type *t = dxil_front_arg_type(f, in, 1);
    if (!count && (!dxil_front_const_arg(f, in, 6, &op) ||
                   !prefix_op(op, t && t->kind == SB_BC_TYPE_FLOAT, &ir_op, &identity)))
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_INVALID, "multi-prefix op %llu",
                               (unsigned long long)op);
    struct sb_ir_operand start = dxil_front_imm(identity);
    struct sb_ir_operand dst = dxil_front_temp_dst(result, 0x1), acc = dxil_front_temp_src(result, 0);
    if (!dxil_front_call_args(f, in, 1, 1, &v) || !masks(f, in, &mask_temp) ||
        !dxil_front_emit1(f, SB_IR_OP_MOV, dst, &start, 1) || !loop_open(f, &l))
        return false;
    struct sb_ir_operand read[2] = { v, dxil_front_temp_src(l.k, 0) };
    struct sb_ir_operand lower[2] = { dxil_front_temp_src(l.k, 0), dxil_front_temp_src(l.me, 0) };
    if (!dxil_front_emit1(f, SB_IR_OP_WAVE_READ_LANE_AT, dxil_front_fresh(f, &vk), read, 2) ||
        !dxil_front_emit1(f, SB_IR_OP_ULT, dxil_front_fresh(f, &below), lower, 2) ||
        !bit_k(f, &l, xyzw(mask_temp), &in_mask) || !bit_k(f, &l, xyzw(l.active), &live) ||
        !and2(f, below, in_mask, &take) || !and2(f, take, live, &take))
        return false;
    if (count) { /* the bool of lane k as 1 or 0 */
        struct sb_ir_operand bit;
        if (!and2(f, vk, dxil_front_imm(1), &bit))
            return false;
        vk = bit;
    }
    struct sb_ir_operand none, combine[2] = { acc, vk };
    memset(&none, 0, sizeof(none));
    if (ir_op == SB_IR_OP_IMUL) { /* low 32 bits of the product */
        struct sb_ir_operand d[2] = { none, dxil_front_fresh(f, &sum) };
        if (!dxil_front_emit(f, SB_IR_OP_IMUL, d, 2, combine, 2))
            return false;
    } else if (!dxil_front_emit1(f, ir_op, dxil_front_fresh(f, &sum), combine, 2)) {
        return false;
    }
    struct sb_ir_operand pick[3] = { take, sum, acc };
    return dxil_front_emit1(f, SB_IR_OP_MOVC, dst, pick, 3) && loop_close(f, &l);
}

bool dxil_front_wave_lanes(struct dxil_front *f, const struct sb_bc_instruction *in,
                           uint64_t opcode)
{
    const struct sb_bc_type *t = dxil_front_arg_type(f, in, 1);
    bool is_i32 = t && t->kind == SB_BC_TYPE_INTEGER && t->width == 32;
    bool is_f32 = t && t->kind == SB_BC_TYPE_FLOAT;
    bool is_bool = t && t->kind == SB_BC_TYPE_INTEGER && t->width == 1;
    uint32_t temp = 0;
    switch (opcode) {
    case SB_DXIL_OP_WAVE_MATCH: /* floats compare as values (+0 = -0, NaN) in D3D: refused */
        if (!is_i32)
            break;
        return dxil_front_result_temp(f, in, 4, &temp) && match(f, in, temp);
    case SB_DXIL_OP_WAVE_MULTI_PREFIX_OP:
        if (!is_i32 && !is_f32)
            break;
        return dxil_front_result_temp(f, in, 1, &temp) && multi_prefix(f, in, false, temp);
    case SB_DXIL_OP_WAVE_MULTI_PREFIX_BIT_COUNT:
        if (!is_bool)
            break;
        return dxil_front_result_temp(f, in, 1, &temp) && multi_prefix(f, in, true, temp);
    default:
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_INVALID, "dx.op %llu", (unsigned long long)opcode);
    }
    return dxil_front_fail(f, SB_ERROR_TRANSLATE_UNSUPPORTED,
                           "a 16-, 64-bit or float overload of WaveMatch/WaveMultiPrefix");
}
