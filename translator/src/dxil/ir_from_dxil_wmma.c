/* SPDX-License-Identifier: MIT */
/*
 * The per-lane AMD AGS wave-matrix (WMMA) intrinsics (ir_from_dxil_ags.c
 * decodes the calls; ../shared/docs/dxil.md §5.4). AGS passes a 16x16
 * matrix between its calls as eight dwords per lane (WMMA_Matrix), sent two
 * per call (compare and new value) in phase-0 "input" calls whose immediate
 * is MatrixIO(channel c in bits 0-3, register r in bits 4-7): dwords
 * 2c + 4r and 2c + 4r + 1; results come back one dword per call whose
 * MatrixIO(c, r) names dword c + 4r. A matrix's dwords are opaque to the
 * program except through these intrinsics, so the front end picks their
 * contents, per lane: element k of an F32 matrix in dword k, of an F16
 * matrix in the low half of dword k, of an FP8 matrix in byte k % 4 of dword
 * k / 4 (dwords 2-7 zero): the wave32 layout's eight elements per lane, and
 * FP8 packed as AGS's MatrixElementExtract returns it (four per dword).
 *
 * Lowered, all per lane (no lane sees another's elements, so the results do
 * not depend on which matrix position a lane's element k is, nor on the
 * device's wave size):
 *   WaveMatrixFill (0x33): phase 0 (immediate the type, compare the value:
 *     f32 bits, f16 bits in the low half, an FP8 byte), phase 1 x 8 results.
 *   WaveMatrixElementExtract (0x30): phase 0 x 4 inputs, phase 1 (immediate
 *     the type, compare the element index): dword `index` (0 past the
 *     matrix's dwords).
 *   WaveMatrixElementFill (0x2F): phase 0 x 4 inputs, phase 1 (immediate the
 *     type, compare the index as extract counts it, new value the data),
 *     phase 2 x 8 results: the input with that dword replaced.
 *   WaveMatrixCopy (0x32): phase 0 x 4 inputs, phase 1 (immediate the input
 *     type, compare the output type, new value 1 to saturate), phase 2 x 8
 *     results. Same format: a copy; F32, F16 and FP8 convert element by
 *     element (through f32, exactly; F16 rounds to nearest even), of the same
 *     matrix kind (A, B, accumulator), either layout (the transposed bit
 *     only tells loads and stores the memory order). The
 *     F32 -> FP8 conversion is E4M3 rounded to nearest even as for the scalar
 *     intrinsic, with what vkd3d-proton's RDNA4 tests record of the matrix
 *     unit: NaN gives 0xFF and a saturated infinity NaN (S.1111.111).
 * The loads and stores (ir_from_dxil_wmma_memory.c) fix which matrix element
 * each of a lane's dwords is (the wave32 layout described there); the
 * per-lane ops above need not know it.
 * The multiply is ir_from_dxil_wmma_mulacc.c's.
 * Refused by name: kind-changing copies (they move elements between lanes),
 * saturating conversions to F16, and any call out of its sequence.
 */
#include "ir_from_dxil_wmma.h"

bool dxil_front_wmma_claims(uint32_t opcode)
{
    return opcode == WMMA_ELEMENT_FILL || opcode == WMMA_ELEMENT_EXTRACT || opcode == WMMA_COPY ||
           opcode == WMMA_FILL || opcode == WMMA_UAV_LOAD || opcode == WMMA_UAV_STORE ||
           opcode == WMMA_LDS_LOAD || opcode == WMMA_LDS_STORE || opcode == WMMA_MUL_ACC;
}

/* A phase-0 input call: two dwords of the matrix operand. Its own result is never read
 * (AGS discards it); 0 is written should something read it. */
static bool input_call(struct dxil_front *f, struct dxil_wmma *w,
                       const struct sb_bc_instruction *in, uint32_t opcode, uint32_t immediate)
{
    if (IO_REST(immediate) != 0)
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_UNSUPPORTED,
                               "AMD AGS %s input with MatrixIO 0x%x", dxil_wmma_opcode_name(opcode),
                               immediate);
    if (w->opcode != opcode || w->phase != 0)
        *w = (struct dxil_wmma){ .function = f->function, .opcode = opcode };
    return dxil_wmma_take_input(f, in, opcode, IO_CHANNEL(immediate), IO_REGISTER(immediate),
                                w->input, &w->inputs_seen) &&
           dxil_wmma_set_result(f, in, dxil_front_imm(0));
}

/* The eight input dwords as lane-x sources; false (failed) unless all four calls came. */
static bool gather_inputs(struct dxil_front *f, struct dxil_wmma *w, uint32_t opcode,
                          struct sb_ir_operand src[8])
{
    if (w->opcode != opcode || w->phase != 0 || w->inputs_seen != 0xFu)
        return dxil_wmma_out_of_sequence(f, opcode, 1);
    for (uint32_t k = 0; k < 8; k++)
        if (!dxil_front_src(f, w->input[k], 0, &src[k]))
            return false;
    return true;
}

/* The eight dwords of a matrix of `format` whose elements are all `value`. */
static void fill_dwords(struct dxil_front *f, struct dxil_wmma *w, uint32_t format,
                        struct sb_ir_operand value)
{
    if (format == FORMAT_F32) {
        for (uint32_t k = 0; k < 8; k++)
            w->output[k] = value;
    } else if (format == FORMAT_F16) {
        struct sb_ir_operand half =
            dxil_front_fresh_op2(f, SB_IR_OP_AND, value, dxil_front_imm(0xFFFF));
        for (uint32_t k = 0; k < 8; k++)
            w->output[k] = half;
    } else {
        /* FP8: the byte in all four bytes of dwords 0 and 1. */
        struct sb_ir_operand b = dxil_front_fresh_op2(f, SB_IR_OP_AND, value, dxil_front_imm(0xFF));
        for (uint32_t shift = 8; shift <= 16; shift *= 2)
            b = dxil_front_fresh_op2(f, SB_IR_OP_OR, b,
                                     dxil_front_fresh_op2(f, SB_IR_OP_ISHL, b, dxil_front_imm(shift)));
        for (uint32_t k = 0; k < 8; k++)
            w->output[k] = k < 2 ? b : dxil_front_imm(0);
    }
}

/* WaveMatrixFill phase 0: immediate the type, compare the value, new value 0. */
static bool fill(struct dxil_front *f, struct dxil_wmma *w, const struct sb_bc_instruction *in,
                 uint32_t type)
{
    uint32_t value = 0;
    struct sb_ir_operand src;
    if (!dxil_wmma_known_type(type))
        return dxil_wmma_refuse_type(f, WMMA_FILL, type);
    *w = (struct dxil_wmma){ .function = f->function, .opcode = WMMA_FILL };
    if (!dxil_front_arg(f, in, ARG_COMPARE, &value) || !dxil_front_src(f, value, 0, &src))
        return false;
    fill_dwords(f, w, TYPE_FORMAT(type), src);
    w->outputs_ready = true;
    return dxil_wmma_set_result(f, in, dxil_front_imm(0));
}

/* WaveMatrixElementExtract phase 1: immediate the type, compare the element index. */
static bool element_extract(struct dxil_front *f, struct dxil_wmma *w,
                            const struct sb_bc_instruction *in, uint32_t type)
{
    struct sb_ir_operand dwords[8], index;
    uint32_t index_value = 0;
    uint64_t constant = 0;
    if (!dxil_wmma_known_type(type))
        return dxil_wmma_refuse_type(f, WMMA_ELEMENT_EXTRACT, type);
    if (!gather_inputs(f, w, WMMA_ELEMENT_EXTRACT, dwords) ||
        !dxil_front_arg(f, in, ARG_COMPARE, &index_value) ||
        !dxil_front_src(f, index_value, 0, &index))
        return false;
    w->phase = 1;
    uint32_t length = TYPE_FORMAT(type) == FORMAT_FP8 ? 2 : 8;
    if (dxil_front_const_int(f, index_value, &constant))
        return dxil_wmma_set_result(f, in, constant < length ? dwords[constant] : dxil_front_imm(0));
    /* A dynamic index: dword k where index == k, else 0. */
    struct sb_ir_operand result = dxil_front_imm(0);
    for (uint32_t k = 0; k < length; k++) {
        struct sb_ir_operand select[3] = {
            dxil_front_fresh_op2(f, SB_IR_OP_IEQ, index, dxil_front_imm(k)), dwords[k], result };
        result = dxil_front_fresh_op(f, SB_IR_OP_MOVC, select, 3);
    }
    return dxil_wmma_set_result(f, in, result);
}

/* WaveMatrixElementFill phase 1: immediate the type, compare the element index (an F16
 * element, an F32 element or four packed FP8 elements, as extract counts them), new value
 * the data; the other dwords keep the input's. */
static bool element_fill(struct dxil_front *f, struct dxil_wmma *w,
                         const struct sb_bc_instruction *in, uint32_t type)
{
    struct sb_ir_operand dwords[8], index, data;
    uint32_t index_value = 0, data_value = 0;
    if (!dxil_wmma_known_type(type))
        return dxil_wmma_refuse_type(f, WMMA_ELEMENT_FILL, type);
    if (!gather_inputs(f, w, WMMA_ELEMENT_FILL, dwords) ||
        !dxil_front_arg(f, in, ARG_COMPARE, &index_value) ||
        !dxil_front_src(f, index_value, 0, &index) ||
        !dxil_front_arg(f, in, ARG_NEW, &data_value) || !dxil_front_src(f, data_value, 0, &data))
        return false;
    w->phase = 1;
    uint32_t format = TYPE_FORMAT(type), length = format == FORMAT_FP8 ? 2 : 8;
    if (format == FORMAT_F16)
        data = dxil_front_fresh_op2(f, SB_IR_OP_AND, data, dxil_front_imm(0xFFFF));
    for (uint32_t k = 0; k < 8; k++) {
        w->output[k] = dwords[k];
        if (k >= length)
            continue;
        struct sb_ir_operand select[3] = {
            dxil_front_fresh_op2(f, SB_IR_OP_IEQ, index, dxil_front_imm(k)), data, dwords[k] };
        w->output[k] = dxil_front_fresh_op(f, SB_IR_OP_MOVC, select, 3);
    }
    w->outputs_ready = true;
    return dxil_wmma_set_result(f, in, dxil_front_imm(0));
}

/* Byte `k % 4` of dword `k / 4` of an FP8 matrix: element k. */
static struct sb_ir_operand fp8_element(struct dxil_front *f, const struct sb_ir_operand *dwords,
                                        uint32_t k)
{
    struct sb_ir_operand shifted =
        dxil_front_fresh_op2(f, SB_IR_OP_USHR, dwords[k / 4], dxil_front_imm(8 * (k % 4)));
    return dxil_front_fresh_op2(f, SB_IR_OP_AND, shifted, dxil_front_imm(0xFF));
}

/* WaveMatrixCopy phase 1: immediate the input type, compare the output type, new value the
 * saturate flag (both constants). */
static bool copy(struct dxil_front *f, struct dxil_wmma *w, const struct sb_bc_instruction *in,
                 uint32_t in_type)
{
    struct sb_ir_operand dwords[8];
    uint64_t out_type = 0, saturate = 0;
    uint32_t value = 0;
    if (!dxil_front_arg(f, in, ARG_COMPARE, &value) || !dxil_front_const_int(f, value, &out_type) ||
        !dxil_front_arg(f, in, ARG_NEW, &value) || !dxil_front_const_int(f, value, &saturate))
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_UNSUPPORTED,
                               "AMD AGS WaveMatrixCopy whose output type or saturate flag is "
                               "not a constant");
    if (!dxil_wmma_known_type(in_type) || out_type > UINT32_MAX || !dxil_wmma_known_type((uint32_t)out_type))
        return dxil_wmma_refuse_type(f, WMMA_COPY, dxil_wmma_known_type(in_type) ? (uint32_t)out_type : in_type);
    uint32_t from = TYPE_FORMAT(in_type), to = TYPE_FORMAT((uint32_t)out_type);
    /* The transposed bit is the memory layout of loads and stores only (vkd3d-proton's
     * quantised-output tests read a transposed F16 copy of an F32 result back at swapped
     * indices): a copy between layouts of one kind moves no element. */
    if (TYPE_KIND(in_type) != TYPE_KIND((uint32_t)out_type) ||
        (saturate != 0 && to == FORMAT_F16 && from != FORMAT_F16))
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_UNSUPPORTED,
                               "AMD AGS WaveMatrixCopy from type 0x%x to 0x%llx%s (element-wise "
                               "copies and F32/F16/FP8 conversions of one matrix kind are "
                               "translated)", in_type, (unsigned long long)out_type,
                               saturate ? " saturating" : "");
    if (!gather_inputs(f, w, WMMA_COPY, dwords))
        return false;
    w->phase = 1;
    for (uint32_t k = 0; k < 8; k++)
        w->output[k] = from == to ? dwords[k] : dxil_front_imm(0);
    if (from != to) {
        /* Each element widened to f32 (exact), then narrowed to the output format: F16
         * rounds to nearest even, FP8 as the matrix unit's E4M3 (see the file comment). */
        struct sb_ir_operand wide[8];
        for (uint32_t k = 0; k < 8; k++)
            wide[k] = from == FORMAT_F32   ? dwords[k]
                      : from == FORMAT_F16 ? dxil_front_fresh_op(f, SB_IR_OP_F16TOF32, &dwords[k], 1)
                                           : dxil_front_float8_widen(f, fp8_element(f, dwords, k),
                                                                     DXIL_FLOAT8_E4M3);
        for (uint32_t k = 0; k < 8; k++) {
            if (to == FORMAT_F32) {
                w->output[k] = wide[k];
            } else if (to == FORMAT_F16) {
                w->output[k] = dxil_front_fresh_op(f, SB_IR_OP_F32TOF16, &wide[k], 1);
            } else {
                struct sb_ir_operand byte = dxil_front_float8_narrow(f, wide[k], DXIL_FLOAT8_E4M3,
                                                                     saturate != 0, true);
                w->output[k / 4] = dxil_front_fresh_op2(
                    f, SB_IR_OP_OR, w->output[k / 4],
                    dxil_front_fresh_op2(f, SB_IR_OP_ISHL, byte, dxil_front_imm(8 * (k % 4))));
            }
        }
    }
    w->outputs_ready = true;
    return dxil_wmma_set_result(f, in, dxil_front_imm(0));
}

bool dxil_front_wmma_call(struct dxil_front *f, const struct sb_bc_instruction *in,
                          uint32_t opcode, uint32_t phase, uint32_t immediate)
{
    if (!f->wmma && !(f->wmma = dxil_front_alloc(f, 1, sizeof(*f->wmma))))
        return false;
    struct dxil_wmma *w = f->wmma;
    /* Value ids and temps are per function: a sequence never continues into another. */
    if (w->function != f->function) {
        memset(w, 0, sizeof(*w));
        w->function = f->function;
    }
    switch (opcode) {
    case WMMA_FILL:
        return phase == 0 ? fill(f, w, in, immediate)
                          : phase == 1 ? dxil_wmma_output_call(f, w, in, opcode, phase, immediate)
                                       : dxil_wmma_out_of_sequence(f, opcode, phase);
    case WMMA_ELEMENT_FILL:
        return phase == 0 ? input_call(f, w, in, opcode, immediate)
               : phase == 1 ? element_fill(f, w, in, immediate)
               : dxil_wmma_output_call(f, w, in, opcode, phase, immediate);
    case WMMA_ELEMENT_EXTRACT:
        return phase == 0 ? input_call(f, w, in, opcode, immediate)
                          : phase == 1 ? element_extract(f, w, in, immediate)
                                       : dxil_wmma_out_of_sequence(f, opcode, phase);
    case WMMA_UAV_LOAD:
    case WMMA_UAV_STORE:
    case WMMA_LDS_LOAD:
    case WMMA_LDS_STORE:
        return dxil_wmma_memory_call(f, w, in, opcode, phase, immediate);
    case WMMA_MUL_ACC:
        return dxil_wmma_mul_acc_call(f, w, in, phase, immediate);
    default: /* WMMA_COPY */
        return phase == 0 ? input_call(f, w, in, opcode, immediate)
               : phase == 1 ? (w->opcode == opcode ? copy(f, w, in, immediate)
                                                   : dxil_wmma_out_of_sequence(f, opcode, phase))
               : dxil_wmma_output_call(f, w, in, opcode, phase, immediate);
    }
}
