/* SPDX-License-Identifier: MIT */
/*
 * What the AGS wave-matrix lowerings share (ir_from_dxil_wmma.h): opcode
 * names, the call-sequence checks, the refusals of unknown types and of
 * programs without [WaveSize(32)], the input calls gathered and the result
 * calls answered. Below ir_from_dxil_wmma.c (element ops and the dispatch),
 * ir_from_dxil_wmma_memory.c (loads, stores) and ir_from_dxil_wmma_mulacc.c
 * (the multiply), which all call it.
 */
#include "ir_from_dxil_wmma.h"

const char *dxil_wmma_opcode_name(uint32_t opcode)
{
    switch (opcode) {
    case WMMA_FILL: return "WaveMatrixFill";
    case WMMA_COPY: return "WaveMatrixCopy";
    case WMMA_ELEMENT_FILL: return "WaveMatrixElementFill";
    case WMMA_ELEMENT_EXTRACT: return "WaveMatrixElementExtract";
    case WMMA_UAV_LOAD: return "WaveMatrixUavLoad";
    case WMMA_UAV_STORE: return "WaveMatrixUavStore";
    case WMMA_LDS_LOAD: return "WaveMatrixLdsLoad";
    case WMMA_LDS_STORE: return "WaveMatrixLdsStore";
    default: return "WaveMatrixMulAcc";
    }
}

bool dxil_wmma_out_of_sequence(struct dxil_front *f, uint32_t opcode, uint32_t phase)
{
    return dxil_front_fail(f, SB_ERROR_TRANSLATE_UNSUPPORTED,
                           "AMD AGS %s call of phase %u out of its sequence", dxil_wmma_opcode_name(opcode),
                           phase);
}

bool dxil_wmma_known_type(uint32_t type)
{
    uint32_t format = TYPE_FORMAT(type);
    return TYPE_REST(type) == 0 && ((type >> 4) & 0x7u) <= 2 &&
           (format == FORMAT_F16 || format == FORMAT_F32 || format == FORMAT_FP8);
}

bool dxil_wmma_refuse_type(struct dxil_front *f, uint32_t opcode, uint32_t type)
{
    return dxil_front_fail(f, SB_ERROR_TRANSLATE_UNSUPPORTED,
                           "AMD AGS %s of matrix type 0x%x (16x16 F16, F32 and FP8 A, B and "
                           "accumulator matrices are known)", dxil_wmma_opcode_name(opcode), type);
}

/* The call's result = `value` (a lane-x source). */
bool dxil_wmma_set_result(struct dxil_front *f, const struct sb_bc_instruction *in,
                       struct sb_ir_operand value)
{
    uint32_t temp = 0;
    return dxil_front_result_temp(f, in, 1, &temp) &&
           dxil_front_emit1(f, SB_IR_OP_MOV, dxil_front_temp_dst(temp, 0x1), &value, 1);
}

bool dxil_wmma_require_wave32(struct dxil_front *f, uint32_t opcode)
{
    const struct sb_dxil_entry_point *e = f->entry;
    if (e->wave_size_min == 32 && e->wave_size_max == 32)
        return true;
    return dxil_front_fail(f, SB_ERROR_TRANSLATE_UNSUPPORTED,
                           "AMD AGS %s in a program without [WaveSize(32)] (wave sizes %u..%u): "
                           "the matrix layout is wave32's", dxil_wmma_opcode_name(opcode),
                           e->wave_size_min, e->wave_size_max);
}

bool dxil_wmma_take_input(struct dxil_front *f, const struct sb_bc_instruction *in,
                          uint32_t opcode, uint32_t channel, uint32_t reg, uint32_t dwords[8],
                          uint32_t *seen)
{
    if (channel > 1 || reg > 1)
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_UNSUPPORTED,
                               "AMD AGS %s input of channel %u, register %u (channels 0-1, "
                               "registers 0-1 of the value register are known)",
                               dxil_wmma_opcode_name(opcode), channel, reg);
    uint32_t first = 2 * channel + 4 * reg;
    if (!dxil_front_arg(f, in, ARG_COMPARE, &dwords[first]) ||
        !dxil_front_arg(f, in, ARG_NEW, &dwords[first + 1]))
        return false;
    *seen |= 1u << (first / 2);
    return true;
}


/* A result call: dword channel + 4 * register of the computed matrix. */
bool dxil_wmma_output_call(struct dxil_front *f, struct dxil_wmma *w,
                        const struct sb_bc_instruction *in, uint32_t opcode, uint32_t phase,
                        uint32_t immediate)
{
    uint32_t channel = IO_CHANNEL(immediate), reg = IO_REGISTER(immediate);
    if (w->opcode != opcode || !w->outputs_ready)
        return dxil_wmma_out_of_sequence(f, opcode, phase);
    if (IO_REST(immediate) != 0 || channel > 3 || reg > 1)
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_UNSUPPORTED,
                               "AMD AGS %s result with MatrixIO 0x%x", dxil_wmma_opcode_name(opcode),
                               immediate);
    w->phase = phase;
    return dxil_wmma_set_result(f, in, w->output[channel + 4 * reg]);
}
