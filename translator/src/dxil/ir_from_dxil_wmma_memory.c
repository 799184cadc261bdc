/* SPDX-License-Identifier: MIT */
/*
 * AMD AGS WaveMatrixUavLoad / UavStore (a raw buffer) and LdsLoad / LdsStore
 * (groupshared memory), lowered per lane (ir_from_dxil_wmma.h).
 *
 * The call sequences (AGS's HLSL helpers):
 *   load:  phase 0 (immediate 0, compare the offset, new value the stride) ->
 *          a "doorbell" the program uses as the address of one dword load
 *          from the buffer (rawBufferLoad) or one atomic add of 0 on the
 *          groupshared array (atomicrmw); that access's result, the "hook",
 *          is phase 1's compare value (immediate the matrix type); phase 2 x 8
 *          return the lane's dwords.
 *   store: phase 0 as for a load, phase 1 x 4 the matrix's dwords (MatrixIO),
 *          phase 2 (immediate the type, compare the hook).
 * The hook names the memory: its defining access's buffer or groupshared
 * variable. The doorbell is 0 here, so that access reads dword 0 (an atomic
 * add of 0 changes nothing). A buffer's offset and stride count bytes, the
 * groupshared ones dwords (vkd3d-proton's lds tests).
 *
 * The layout (RDNA4, wave32; a 16x16 matrix of 256 elements, 8 per lane):
 * lane l holds line l % 16 (a row of A, a column of B and of the
 * accumulator), and on it the positions p = 8 * (l / 16) + k, k = 0..7 (the
 * K index of A and B, the row of the accumulator), element k in the lane's
 * dword k (F32), the low half of dword k (F16) or byte k % 4 of dword k / 4
 * (FP8), as ir_from_dxil_wmma.c keeps them. In memory (element size e):
 * row-major (not transposed) A and transposed B and accumulator lay a lane's
 * line out contiguously: offset + line * stride + p * e; the others put
 * positions a stride apart: offset + p * stride + line * e. vkd3d-proton's
 * "layout_assumptions" test pins the accumulator's (element k of every lane
 * at a multiple of 8 plus k in a transposed load); A and B follow the
 * RDNA4 ISA's v_wmma operand layout.
 *
 * A 32-bit element is one ld_raw / store_raw; a narrower one is read from its
 * dword and shifted out, and stored with an atomic and (clearing its bits)
 * and an atomic or (setting them): lanes own disjoint bytes of a dword, so
 * no lane's store loses another's.
 */
#include "ir_from_dxil_wmma.h"
#include "translator/dxil_opcodes.h"

/* Where a matrix lives: a raw buffer (u#/t#) or a groupshared g#. */
struct wmma_memory {
    struct sb_ir_operand memory; /**< the resource or g# operand */
    bool group_shared;
    bool writable;
};

static bool is_load(uint32_t opcode)
{
    return opcode == WMMA_UAV_LOAD || opcode == WMMA_LDS_LOAD;
}

/* The instruction of the current function defining value `value`; NULL if none. */
static const struct sb_bc_instruction *definition(const struct dxil_front *f, uint32_t value)
{
    const struct sb_bc_function *fn = f->function;
    for (uint32_t i = 0; i < fn->instruction_count; i++)
        if (fn->instructions[i].value == value)
            return &fn->instructions[i];
    return NULL;
}

/* The memory the hook value's access reads: extractvalue of a rawBufferLoad / bufferLoad
 * on a raw buffer, or an atomicrmw on groupshared memory. */
static bool hook_memory(struct dxil_front *f, uint32_t opcode, uint32_t hook,
                        struct wmma_memory *out)
{
    const struct sb_bc_instruction *def = definition(f, hook);
    bool lds = opcode == WMMA_LDS_LOAD || opcode == WMMA_LDS_STORE;
    *out = (struct wmma_memory){ .group_shared = lds, .writable = true };
    if (lds && def && def->opcode == SB_BC_OP_ATOMICRMW && def->operand_count >= 1) {
        struct sb_ir_operand address;
        return dxil_front_group_shared_address(f, def->operands[0], &out->memory, &address);
    }
    if (!lds && def && def->opcode == SB_BC_OP_EXTRACTVAL && def->operand_count >= 1) {
        const struct sb_bc_instruction *call = definition(f, def->operands[0]);
        uint64_t dxop = 0;
        uint32_t dxop_value = 0;
        const struct sb_ir_resource *r = NULL;
        if (call && call->opcode == SB_BC_OP_CALL && call->operand_count >= 3 &&
            dxil_front_arg(f, call, 0, &dxop_value) && dxil_front_const_int(f, dxop_value, &dxop) &&
            (dxop == SB_DXIL_OP_RAW_BUFFER_LOAD || dxop == SB_DXIL_OP_BUFFER_LOAD)) {
            if (!dxil_front_handle_operand(f, call, 1, &r, &out->memory))
                return false;
            if (r->kind != SB_IR_RESOURCE_KIND_RAW)
                return dxil_front_fail(f, SB_ERROR_TRANSLATE_UNSUPPORTED,
                                       "AMD AGS %s on a buffer that is not a byte-address buffer",
                                       dxil_wmma_opcode_name(opcode));
            out->writable = r->resource_class == SB_IR_RESOURCE_UAV;
            return true;
        }
    }
    return dxil_front_fail(f, SB_ERROR_TRANSLATE_UNSUPPORTED,
                           "AMD AGS %s whose memory operand is not the %s its doorbell addresses",
                           dxil_wmma_opcode_name(opcode),
                           lds ? "groupshared atomic" : "buffer load");
}

/* The byte address of element k of this lane (the header's layout). */
struct lane_addressing {
    struct sb_ir_operand line_start; /**< offset + line * (stride or e), bytes */
    struct sb_ir_operand step;       /**< bytes from position p to p + 1 */
    struct sb_ir_operand first;      /**< the first position, 8 * (lane / 16) */
};

/* a * b + c (the low 32 bits). */
static struct sb_ir_operand mad(struct dxil_front *f, struct sb_ir_operand a,
                                struct sb_ir_operand b, struct sb_ir_operand c)
{
    struct sb_ir_operand src[3] = { a, b, c };
    return dxil_front_fresh_op(f, SB_IR_OP_IMAD, src, 3);
}

static bool lane_addressing(struct dxil_front *f, const struct dxil_wmma *w, uint32_t type,
                            bool group_shared, struct lane_addressing *a)
{
    struct sb_ir_operand offset, stride;
    if (!dxil_front_src(f, w->offset, 0, &offset) || !dxil_front_src(f, w->stride, 0, &stride))
        return false;
    if (group_shared) { /* dwords */
        offset = dxil_front_fresh_op2(f, SB_IR_OP_ISHL, offset, dxil_front_imm(2));
        stride = dxil_front_fresh_op2(f, SB_IR_OP_ISHL, stride, dxil_front_imm(2));
    }
    uint32_t format = TYPE_FORMAT(type);
    uint32_t size = format == FORMAT_F32 ? 4 : format == FORMAT_F16 ? 2 : 1;
    bool contiguous = (TYPE_KIND(type) == KIND_A) != (TYPE_TRANSPOSED(type) != 0);
    struct sb_ir_operand lane = dxil_front_fresh_op(f, SB_IR_OP_WAVE_LANE_INDEX, NULL, 0);
    struct sb_ir_operand line = dxil_front_fresh_op2(f, SB_IR_OP_AND, lane, dxil_front_imm(15));
    struct sb_ir_operand line_step = contiguous ? stride : dxil_front_imm(size);
    a->step = contiguous ? dxil_front_imm(size) : stride;
    a->line_start = mad(f, line, line_step, offset);
    a->first = dxil_front_fresh_op2(f, SB_IR_OP_ISHL, dxil_front_fresh_op2(f, SB_IR_OP_USHR, lane,
                                                             dxil_front_imm(4)),
                             dxil_front_imm(3));
    return !f->failed;
}

static struct sb_ir_operand element_address(struct dxil_front *f, const struct lane_addressing *a,
                                            uint32_t k)
{
    struct sb_ir_operand p = dxil_front_fresh_op2(f, SB_IR_OP_IADD, a->first, dxil_front_imm(k));
    return mad(f, p, a->step, a->line_start);
}

/* A narrow element's dword address and the bit shift of its bytes within that dword. */
static void split_address(struct dxil_front *f, struct sb_ir_operand address,
                          struct sb_ir_operand *aligned, struct sb_ir_operand *shift)
{
    *aligned = dxil_front_fresh_op2(f, SB_IR_OP_AND, address, dxil_front_imm(~3u));
    *shift = dxil_front_fresh_op2(f, SB_IR_OP_ISHL,
                           dxil_front_fresh_op2(f, SB_IR_OP_AND, address, dxil_front_imm(3)),
                           dxil_front_imm(3));
}

static struct sb_ir_operand load_dword(struct dxil_front *f, const struct wmma_memory *m,
                                       struct sb_ir_operand address)
{
    struct sb_ir_operand src[2] = { address, m->memory };
    return dxil_front_fresh_op(f, SB_IR_OP_LD_RAW, src, 2);
}

static bool emit_memory_op(struct dxil_front *f, const struct wmma_memory *m, uint32_t op,
                           struct sb_ir_operand address, struct sb_ir_operand value)
{
    struct sb_ir_operand dst = m->memory, src[2] = { address, value };
    dst.mask = 0x1;
    return dxil_front_emit(f, op, &dst, 1, src, 2) != NULL;
}

/* Phase 1 of a load: the lane's eight elements into its dwords. */
static bool load(struct dxil_front *f, struct dxil_wmma *w, const struct sb_bc_instruction *in,
                 uint32_t opcode, uint32_t type)
{
    struct wmma_memory m;
    struct lane_addressing a;
    uint32_t hook = 0;
    if (!dxil_wmma_known_type(type))
        return dxil_wmma_refuse_type(f, opcode, type);
    if (w->opcode != opcode || w->phase != 0 || w->outputs_ready)
        return dxil_wmma_out_of_sequence(f, opcode, 1);
    if (!dxil_front_arg(f, in, ARG_COMPARE, &hook) || !hook_memory(f, opcode, hook, &m) ||
        !lane_addressing(f, w, type, m.group_shared, &a))
        return false;
    uint32_t format = TYPE_FORMAT(type);
    for (uint32_t k = 0; k < 8; k++)
        w->output[k] = dxil_front_imm(0);
    for (uint32_t k = 0; k < 8; k++) {
        struct sb_ir_operand address = element_address(f, &a, k);
        if (format == FORMAT_F32) {
            w->output[k] = load_dword(f, &m, address);
            continue;
        }
        struct sb_ir_operand aligned, shift;
        split_address(f, address, &aligned, &shift);
        struct sb_ir_operand shifted =
            dxil_front_fresh_op2(f, SB_IR_OP_USHR, load_dword(f, &m, aligned), shift);
        struct sb_ir_operand element = dxil_front_fresh_op2(
            f, SB_IR_OP_AND, shifted, dxil_front_imm(format == FORMAT_F16 ? 0xFFFFu : 0xFFu));
        if (format == FORMAT_F16)
            w->output[k] = element;
        else
            w->output[k / 4] = dxil_front_fresh_op2(f, SB_IR_OP_OR, w->output[k / 4],
                                             dxil_front_fresh_op2(f, SB_IR_OP_ISHL, element,
                                                           dxil_front_imm(8 * (k % 4))));
    }
    w->phase = 1;
    w->outputs_ready = true;
    return !f->failed && dxil_wmma_set_result(f, in, dxil_front_imm(0));
}

/* Phase 2 of a store: the lane's eight elements from the phase-1 dwords. */
static bool store(struct dxil_front *f, struct dxil_wmma *w, const struct sb_bc_instruction *in,
                  uint32_t opcode, uint32_t type)
{
    struct wmma_memory m;
    struct lane_addressing a;
    struct sb_ir_operand dwords[8];
    uint32_t hook = 0;
    if (!dxil_wmma_known_type(type))
        return dxil_wmma_refuse_type(f, opcode, type);
    if (w->opcode != opcode || w->phase != 1 || w->inputs_seen != 0xFu)
        return dxil_wmma_out_of_sequence(f, opcode, 2);
    if (!dxil_front_arg(f, in, ARG_COMPARE, &hook) || !hook_memory(f, opcode, hook, &m))
        return false;
    if (!m.writable)
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_INVALID,
                               "AMD AGS WaveMatrixUavStore to a read-only buffer");
    for (uint32_t k = 0; k < 8; k++)
        if (!dxil_front_src(f, w->input[k], 0, &dwords[k]))
            return false;
    if (!lane_addressing(f, w, type, m.group_shared, &a))
        return false;
    uint32_t format = TYPE_FORMAT(type);
    for (uint32_t k = 0; k < 8 && !f->failed; k++) {
        struct sb_ir_operand address = element_address(f, &a, k);
        if (format == FORMAT_F32) {
            if (!emit_memory_op(f, &m, SB_IR_OP_STORE_RAW, address, dwords[k]))
                return false;
            continue;
        }
        uint32_t mask = format == FORMAT_F16 ? 0xFFFFu : 0xFFu;
        struct sb_ir_operand element =
            format == FORMAT_F16
                ? dwords[k]
                : dxil_front_fresh_op2(f, SB_IR_OP_USHR, dwords[k / 4], dxil_front_imm(8 * (k % 4)));
        element = dxil_front_fresh_op2(f, SB_IR_OP_AND, element, dxil_front_imm(mask));
        struct sb_ir_operand aligned, shift;
        split_address(f, address, &aligned, &shift);
        struct sb_ir_operand keep = dxil_front_fresh_op2(
            f, SB_IR_OP_XOR, dxil_front_fresh_op2(f, SB_IR_OP_ISHL, dxil_front_imm(mask), shift),
            dxil_front_imm(~0u));
        if (!emit_memory_op(f, &m, SB_IR_OP_ATOMIC_AND, aligned, keep) ||
            !emit_memory_op(f, &m, SB_IR_OP_ATOMIC_OR, aligned,
                            dxil_front_fresh_op2(f, SB_IR_OP_ISHL, element, shift)))
            return false;
    }
    w->phase = 2;
    return !f->failed && dxil_wmma_set_result(f, in, dxil_front_imm(0));
}

bool dxil_wmma_memory_call(struct dxil_front *f, struct dxil_wmma *w,
                           const struct sb_bc_instruction *in, uint32_t opcode, uint32_t phase,
                           uint32_t immediate)
{
    if (phase == 0) {
        if (immediate != 0)
            return dxil_wmma_out_of_sequence(f, opcode, phase);
        if (!dxil_wmma_require_wave32(f, opcode))
            return false;
        *w = (struct dxil_wmma){ .function = f->function, .opcode = opcode };
        return dxil_front_arg(f, in, ARG_COMPARE, &w->offset) &&
               dxil_front_arg(f, in, ARG_NEW, &w->stride) &&
               dxil_wmma_set_result(f, in, dxil_front_imm(0));
    }
    if (is_load(opcode))
        return phase == 1 ? load(f, w, in, opcode, immediate)
                          : dxil_wmma_output_call(f, w, in, opcode, phase, immediate);
    if (phase == 1) {
        if (w->opcode != opcode || w->phase > 1 || IO_REST(immediate) != 0)
            return dxil_wmma_out_of_sequence(f, opcode, phase);
        w->phase = 1;
        return dxil_wmma_take_input(f, in, opcode, IO_CHANNEL(immediate), IO_REGISTER(immediate),
                                    w->input, &w->inputs_seen) &&
               dxil_wmma_set_result(f, in, dxil_front_imm(0));
    }
    return store(f, w, in, opcode, immediate);
}
