/* SPDX-License-Identifier: MIT */
/*
 * What the files lowering AMD AGS wave-matrix intrinsics share
 * (ir_from_dxil_wmma_sequence.c: the call-sequence helpers all of them use;
 * ir_from_dxil_wmma.c: the per-lane element ops and the dispatch;
 * ir_from_dxil_wmma_memory.c: loads and stores; ir_from_dxil_wmma_mulacc.c:
 * the multiply). A matrix travels between calls as eight dwords per lane;
 * which matrix element each of them holds is the wave32 layout described in
 * ir_from_dxil_wmma_memory.c.
 */
#ifndef SB_IR_FROM_DXIL_WMMA_H
#define SB_IR_FROM_DXIL_WMMA_H

#include "ir_from_dxil_private.h"

enum {
    WMMA_MUL_ACC = 0x28, WMMA_UAV_LOAD = 0x29, WMMA_UAV_STORE = 0x2A, WMMA_LDS_LOAD = 0x2D,
    WMMA_LDS_STORE = 0x2E, WMMA_ELEMENT_FILL = 0x2F, WMMA_ELEMENT_EXTRACT = 0x30,
    WMMA_COPY = 0x32, WMMA_FILL = 0x33
};
enum { FORMAT_F16 = 4, FORMAT_F32 = 6, FORMAT_FP8 = 0xA };
enum { KIND_A = 0, KIND_B = 1, KIND_ACCUMULATOR = 2 };
#define TYPE_FORMAT(type) ((type) & 0xFu)
#define TYPE_KIND(type) (((type) >> 4) & 0x7u)
#define TYPE_TRANSPOSED(type) (((type) >> 7) & 0x1u)
#define TYPE_KIND_AND_LAYOUT(type) ((type) & 0xF0u) /* matrix kind bits 4-6, transposed bit 7 */
#define TYPE_REST(type) ((type) & ~0xFFu)            /* shape, tile, index memory: 0 */
#define IO_CHANNEL(imm) ((imm) & 0xFu)
#define IO_REGISTER(imm) (((imm) >> 4) & 0xFu)
#define IO_REG_TYPE(imm) (((imm) >> 8) & 0xFFu)  /* MulAcc inputs: 1 A, 2 B, 3 accumulator */
#define IO_REST(imm) ((imm) & ~0xFFu)

/* atomicCompareExchange arguments (ir_from_dxil_ags.c). */
enum { ARG_COMPARE = 5, ARG_NEW = 6 };

struct dxil_wmma {
    const struct sb_bc_function *function; /**< the function the sequence is in */
    uint32_t opcode;          /**< the sequence's intrinsic; 0 = none */
    uint32_t phase;           /**< the last call's phase */
    uint32_t inputs_seen;     /**< bit per input call (dword pair) received */
    uint32_t input[8];        /**< the value ids of the input dwords */
    /** MulAcc: the value ids of the A, B and accumulator dwords, and which pairs came. */
    uint32_t operand[3][8];
    uint32_t operands_seen[3];
    uint32_t offset, stride;  /**< loads and stores: the value ids of phase 0's operands */
    bool outputs_ready;
    struct sb_ir_operand output[8]; /**< the result dwords (lane-x sources) */
};

const char *dxil_wmma_opcode_name(uint32_t opcode);
bool dxil_wmma_out_of_sequence(struct dxil_front *f, uint32_t opcode, uint32_t phase);
/** A 16x16 F16, F32 or FP8 A, B or accumulator type. */
bool dxil_wmma_known_type(uint32_t type);
bool dxil_wmma_refuse_type(struct dxil_front *f, uint32_t opcode, uint32_t type);
/** Whether the entry declares [WaveSize(32)]; fails naming `opcode` otherwise. */
bool dxil_wmma_require_wave32(struct dxil_front *f, uint32_t opcode);
/** The call's result = `value` (a lane-x source). */
bool dxil_wmma_set_result(struct dxil_front *f, const struct sb_bc_instruction *in,
                          struct sb_ir_operand value);
/** Records the dword pair a MatrixIO(channel 0-1, register 0-1) input call carries into
 *  `dwords`, marking it in `seen`. */
bool dxil_wmma_take_input(struct dxil_front *f, const struct sb_bc_instruction *in,
                          uint32_t opcode, uint32_t channel, uint32_t reg, uint32_t dwords[8],
                          uint32_t *seen);
/** A result call: dword channel + 4 * register of the computed matrix. */
bool dxil_wmma_output_call(struct dxil_front *f, struct dxil_wmma *w,
                           const struct sb_bc_instruction *in, uint32_t opcode, uint32_t phase,
                           uint32_t immediate);

/* ir_from_dxil_wmma_memory.c */
/** One call of WaveMatrixUavLoad/UavStore/LdsLoad/LdsStore's sequence. */
bool dxil_wmma_memory_call(struct dxil_front *f, struct dxil_wmma *w,
                           const struct sb_bc_instruction *in, uint32_t opcode, uint32_t phase,
                           uint32_t immediate);

/* ir_from_dxil_wmma_mulacc.c */
/** One call of WaveMatrixMulAcc's sequence. */
bool dxil_wmma_mul_acc_call(struct dxil_front *f, struct dxil_wmma *w,
                            const struct sb_bc_instruction *in, uint32_t phase, uint32_t immediate);

#endif
