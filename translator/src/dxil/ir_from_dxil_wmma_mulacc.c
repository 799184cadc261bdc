/* SPDX-License-Identifier: MIT */
/*
 * AMD AGS WaveMatrixMulAcc (0x28): D = A x B + C on 16x16 matrices in the
 * wave32 layout of ir_from_dxil_wmma_memory.c (lane l: line l % 16,
 * positions 8 (l / 16) + k).
 *
 * The call sequence: phase 0 x 12 (MatrixIO with the register type in
 * bits 8-15: 1 A, 2 B, 3 accumulator; two dwords each), phase 1 (immediate
 * the WaveMatrixOpcode), phase 2 x 8 the result's dwords.
 *
 * Lane l computes its own elements of D: column n = l % 16, rows m =
 * 8 (l / 16) + k. D[m][n] needs row m of A, held by lanes m (K 0-7) and
 * m + 16 (K 8-15), and column n of B, held by lanes n and n + 16: each lane
 * reads them with the IR's lane read (WaveReadLaneAt = a subgroup shuffle)
 * over the 32 lanes, so the program must run at wave size 32 (it declares
 * [WaveSize(32)]; the runtime pins it) and in uniform control flow, as AGS
 * requires of the matrix unit anyway.
 *
 * Translated: WMMA_F32_16X16X16_F16 (5) and WMMA_F32_16X16X16_FP8_FP8 (7),
 * F32 accumulator. Arithmetic: the elements widened to f32 (exact), the 16
 * products in f32 (exact: an f16 x f16 product has at most 22 significant
 * bits, an E4M3 x E4M3 one 8), summed into C in K order with one f32
 * rounding per addition. RDNA4's matrix unit adds the products at a wider
 * internal precision and rounds once or a few times, so D may differ from
 * this in the last bits where partial sums round; sums of exactly
 * representable partial values (the tests' data) agree bit for bit.
 * Refused by name: the other opcodes (integer, BF16, BF8, f16 accumulators,
 * the sparse SWMMA forms).
 */
#include "ir_from_dxil_wmma.h"

enum { OP_F32_F16 = 5, OP_F32_FP8_FP8 = 7 };
enum { REG_A = 1, REG_B = 2, REG_ACCUMULATOR = 3 };
#define OPCODE_OPS(imm) ((imm) & 0x7Fu)

/* The f32 value of element e (0-7) of a lane's dwords (`dwords` the F16 or FP8 layout). */
static struct sb_ir_operand element_f32(struct dxil_front *f, const struct sb_ir_operand *dwords,
                                        bool fp8, uint32_t e)
{
    if (!fp8)
        return dxil_front_fresh_op(f, SB_IR_OP_F16TOF32, &dwords[e], 1);
    struct sb_ir_operand byte = dxil_front_fresh_op2(
        f, SB_IR_OP_AND, dxil_front_fresh_op2(f, SB_IR_OP_USHR, dwords[e / 4], dxil_front_imm(8 * (e % 4))),
        dxil_front_imm(0xFF));
    return dxil_front_float8_widen(f, byte, DXIL_FLOAT8_E4M3);
}

/* `value` as lane `lane` holds it. */
static struct sb_ir_operand read_lane(struct dxil_front *f, struct sb_ir_operand value,
                                      struct sb_ir_operand lane)
{
    return dxil_front_fresh_op2(f, SB_IR_OP_WAVE_READ_LANE_AT, value, lane);
}

/* The `count` dwords `src` of lane `line + 16 * half` (the line's K 8 half .. 8 half + 7). */
static void read_half_line(struct dxil_front *f, const struct sb_ir_operand *src, uint32_t count,
                           struct sb_ir_operand line, uint32_t half, struct sb_ir_operand got[8])
{
    struct sb_ir_operand holder = dxil_front_fresh_op2(f, SB_IR_OP_IADD, line, dxil_front_imm(16 * half));
    for (uint32_t d = 0; d < count; d++)
        got[d] = read_lane(f, src[d], holder);
}

static bool multiply(struct dxil_front *f, struct dxil_wmma *w, const struct sb_bc_instruction *in,
                     uint32_t immediate)
{
    uint32_t ops = OPCODE_OPS(immediate);
    if (immediate != ops || (ops != OP_F32_F16 && ops != OP_F32_FP8_FP8))
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_UNSUPPORTED,
                               "AMD AGS WaveMatrixMulAcc with WaveMatrixOpcode 0x%x "
                               "(WMMA_F32_16X16X16_F16 and _FP8_FP8 are translated)", immediate);
    if (w->opcode != WMMA_MUL_ACC || w->phase != 0 || w->operands_seen[0] != 0xFu ||
        w->operands_seen[1] != 0xFu || w->operands_seen[2] != 0xFu)
        return dxil_wmma_out_of_sequence(f, WMMA_MUL_ACC, 1);
    if (!dxil_wmma_require_wave32(f, WMMA_MUL_ACC))
        return false;
    struct sb_ir_operand a[8], b[8], c[8];
    for (uint32_t k = 0; k < 8; k++)
        if (!dxil_front_src(f, w->operand[0][k], 0, &a[k]) ||
            !dxil_front_src(f, w->operand[1][k], 0, &b[k]) ||
            !dxil_front_src(f, w->operand[2][k], 0, &c[k]))
            return false;
    bool fp8 = ops == OP_F32_FP8_FP8;
    uint32_t dwords = fp8 ? 2 : 8;
    struct sb_ir_operand lane = dxil_front_fresh_op(f, SB_IR_OP_WAVE_LANE_INDEX, NULL, 0);
    struct sb_ir_operand column = dxil_front_fresh_op2(f, SB_IR_OP_AND, lane, dxil_front_imm(15));
    struct sb_ir_operand first_row = dxil_front_fresh_op2(f, SB_IR_OP_AND, lane, dxil_front_imm(16));
    first_row = dxil_front_fresh_op2(f, SB_IR_OP_USHR, first_row, dxil_front_imm(1)); /* 8 (l / 16) */
    /* Column n of B: K 0-7 from lane n, K 8-15 from lane n + 16, widened once. */
    struct sb_ir_operand b_column[16];
    for (uint32_t half = 0; half < 2; half++) {
        struct sb_ir_operand got[8];
        read_half_line(f, b, dwords, column, half, got);
        for (uint32_t e = 0; e < 8; e++)
            b_column[8 * half + e] = element_f32(f, got, fp8, e);
    }
    for (uint32_t k = 0; k < 8 && !f->failed; k++) {
        /* Row m = 8 (l / 16) + k of A: K 0-7 from lane m, K 8-15 from lane m + 16. */
        struct sb_ir_operand row = dxil_front_fresh_op2(f, SB_IR_OP_IADD, first_row, dxil_front_imm(k));
        struct sb_ir_operand sum = c[k];
        for (uint32_t half = 0; half < 2; half++) {
            struct sb_ir_operand got[8];
            read_half_line(f, a, dwords, row, half, got);
            for (uint32_t e = 0; e < 8; e++) {
                struct sb_ir_operand product = dxil_front_fresh_op2(
                    f, SB_IR_OP_MUL, element_f32(f, got, fp8, e), b_column[8 * half + e]);
                sum = dxil_front_fresh_op2(f, SB_IR_OP_ADD, sum, product);
            }
        }
        w->output[k] = sum;
    }
    w->phase = 1;
    w->outputs_ready = true;
    return !f->failed && dxil_wmma_set_result(f, in, dxil_front_imm(0));
}

bool dxil_wmma_mul_acc_call(struct dxil_front *f, struct dxil_wmma *w,
                            const struct sb_bc_instruction *in, uint32_t phase, uint32_t immediate)
{
    if (phase == 0) {
        uint32_t reg_type = IO_REG_TYPE(immediate);
        if ((immediate & ~0xFFFFu) != 0 || reg_type < REG_A || reg_type > REG_ACCUMULATOR)
            return dxil_front_fail(f, SB_ERROR_TRANSLATE_UNSUPPORTED,
                                   "AMD AGS WaveMatrixMulAcc input with MatrixIO 0x%x (register "
                                   "types 1-3: A, B, accumulator)", immediate);
        if (w->opcode != WMMA_MUL_ACC || w->phase != 0 || w->outputs_ready)
            *w = (struct dxil_wmma){ .function = f->function, .opcode = WMMA_MUL_ACC };
        return dxil_wmma_take_input(f, in, WMMA_MUL_ACC, IO_CHANNEL(immediate),
                                    IO_REGISTER(immediate), w->operand[reg_type - 1],
                                    &w->operands_seen[reg_type - 1]) &&
               dxil_wmma_set_result(f, in, dxil_front_imm(0));
    }
    if (phase == 1)
        return multiply(f, w, in, immediate);
    return dxil_wmma_output_call(f, w, in, WMMA_MUL_ACC, phase, immediate);
}
