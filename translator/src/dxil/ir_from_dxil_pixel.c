/* SPDX-License-Identifier: MIT */
/*
 * Pixel-shader dx.ops (../shared/docs/dxil.md §3.6 "Pixel shader: discard and
 * derivatives", "System values read by intrinsic", the eval ops of "Signature
 * input/output") -> the IR the SM4 front end emits for fxc's discard_nz,
 * deriv_rt{x,y}_{coarse,fine}, vCoverage, vInnerCoverage, the sample-index v#
 * and eval_centroid / eval_sample_index / eval_snapped; isHelperLane, viewID and SM 6.8's
 * startVertexLocation / startInstanceLocation (vertex shaders) become special inputs. What
 * the IR has no operation for (attributeAtVertex) refuses by name.
 */
#include "ir_from_dxil_private.h"
#include "translator/dxil_opcodes.h"

bool dxil_front_is_pixel_op(uint64_t opcode)
{
    switch (opcode) {
    case SB_DXIL_OP_DISCARD:
    case SB_DXIL_OP_DERIV_COARSE_X:
    case SB_DXIL_OP_DERIV_COARSE_Y:
    case SB_DXIL_OP_DERIV_FINE_X:
    case SB_DXIL_OP_DERIV_FINE_Y:
    case SB_DXIL_OP_EVAL_SNAPPED:
    case SB_DXIL_OP_EVAL_SAMPLE_INDEX:
    case SB_DXIL_OP_EVAL_CENTROID:
    case SB_DXIL_OP_SAMPLE_INDEX:
    case SB_DXIL_OP_COVERAGE:
    case SB_DXIL_OP_INNER_COVERAGE:
    case SB_DXIL_OP_IS_HELPER_LANE:
    case SB_DXIL_OP_ATTRIBUTE_AT_VERTEX:
    case SB_DXIL_OP_VIEW_ID:
    case SB_DXIL_OP_START_VERTEX_LOCATION:
    case SB_DXIL_OP_START_INSTANCE_LOCATION:
        return true;
    default:
        return false;
    }
}

/* The call's result must be one 32-bit float lane (the f overload; h refuses). */
static bool float_result(struct dxil_front *f, const struct sb_bc_instruction *in, uint32_t *temp)
{
    const struct sb_bc_type *t = dxil_front_type(f, in->type);
    if (!t || t->kind != SB_BC_TYPE_FLOAT) /* HALF and DOUBLE are kinds of their own */
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_UNSUPPORTED,
                               "a pixel dx.op on a 16/64-bit float is not translated yet");
    return dxil_front_result_temp(f, in, 1, temp);
}

/* discard(condition): the pixel dies where the i1 (a D3D bool, 0 / all ones) is true. */
static bool discard(struct dxil_front *f, const struct sb_bc_instruction *in)
{
    uint32_t condition = 0;
    struct sb_ir_operand src;
    if (!dxil_front_arg(f, in, 1, &condition) || !dxil_front_src(f, condition, 0, &src))
        return false;
    struct sb_ir_instruction *out = dxil_front_emit(f, SB_IR_OP_DISCARD, NULL, 0, &src, 1);
    if (out)
        out->flags |= SB_IR_FLAG_TEST_NZ;
    return out != NULL;
}

static bool derivative(struct dxil_front *f, const struct sb_bc_instruction *in, uint32_t op)
{
    uint32_t temp = 0, value = 0;
    struct sb_ir_operand src;
    if (!float_result(f, in, &temp) || !dxil_front_arg(f, in, 1, &value) ||
        !dxil_front_src(f, value, 0, &src))
        return false;
    struct sb_ir_operand dst = dxil_front_temp_dst(temp, 0x1);
    return dxil_front_emit(f, op, &dst, 1, &src, 1) != NULL;
}

/* evalSnapped's offset: (offsetX, offsetY) in lanes x and y of one source. */
static bool offset_xy(struct dxil_front *f, const struct sb_bc_instruction *in,
                      struct sb_ir_operand *out)
{
    uint32_t x = 0, y = 0;
    uint64_t kx = 0, ky = 0;
    if (!dxil_front_arg(f, in, 4, &x) || !dxil_front_arg(f, in, 5, &y))
        return false;
    if (dxil_front_const_int(f, x, &kx) && dxil_front_const_int(f, y, &ky)) {
        *out = dxil_front_imm((uint32_t)kx);
        out->imm[1] = (uint32_t)ky;
        return true;
    }
    uint32_t temp = dxil_front_new_temp(f);
    struct sb_ir_operand src, dst = dxil_front_temp_dst(temp, 0x1);
    if (!dxil_front_src(f, x, 0, &src) || !dxil_front_emit(f, SB_IR_OP_MOV, &dst, 1, &src, 1))
        return false;
    dst.mask = 0x2;
    if (!dxil_front_src(f, y, 0, &src) || !dxil_front_emit(f, SB_IR_OP_MOV, &dst, 1, &src, 1))
        return false;
    *out = dxil_front_temp_src(temp, 0);
    out->swizzle[1] = 1;
    return true;
}

/* evalCentroid / evalSampleIndex / evalSnapped (inputSigId, row, col[, ...]): the element's
 * v# lane interpolated elsewhere in the pixel. */
static bool evaluate(struct dxil_front *f, const struct sb_bc_instruction *in, uint64_t opcode)
{
    uint32_t temp = 0, sample = 0;
    struct sb_ir_operand src[2];
    uint32_t op = SB_IR_OP_EVAL_CENTROID, src_count = 1;
    if (!float_result(f, in, &temp) || !dxil_front_input_operand(f, in, &src[0]))
        return false;
    if (src[0].file != SB_IR_FILE_INPUT)
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_INVALID, "eval of a special input");
    if (opcode == SB_DXIL_OP_EVAL_SAMPLE_INDEX) {
        op = SB_IR_OP_EVAL_SAMPLE_INDEX;
        src_count = 2;
        if (!dxil_front_arg(f, in, 4, &sample) || !dxil_front_src(f, sample, 0, &src[1]))
            return false;
    } else if (opcode == SB_DXIL_OP_EVAL_SNAPPED) {
        op = SB_IR_OP_EVAL_SNAPPED;
        src_count = 2;
        if (!offset_xy(f, in, &src[1]))
            return false;
    }
    struct sb_ir_operand dst = dxil_front_temp_dst(temp, 0x1);
    return dxil_front_emit(f, op, &dst, 1, src, src_count) != NULL;
}

/* sampleIndex: the v# SV_SampleIndex was given (io.c), as fxc reads it. */
static bool sample_index(struct dxil_front *f, const struct sb_bc_instruction *in)
{
    uint32_t temp = 0;
    if (!f->has_sample_index)
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_INVALID,
                               "sampleIndex without SV_SampleIndex in the input signature");
    if (!dxil_front_result_temp(f, in, 1, &temp))
        return false;
    struct sb_ir_operand dst = dxil_front_temp_dst(temp, 0x1);
    struct sb_ir_operand src = dxil_front_temp_src(f->sample_index_register, 0);
    src.file = SB_IR_FILE_INPUT;
    return dxil_front_emit(f, SB_IR_OP_MOV, &dst, 1, &src, 1) != NULL;
}

bool dxil_front_pixel_op(struct dxil_front *f, const struct sb_bc_instruction *in,
                         uint64_t opcode)
{
    switch (opcode) {
    case SB_DXIL_OP_VIEW_ID: /* every graphics stage */
        return dxil_front_special_input(f, in, SB_IR_FILE_VIEW_ID);
    case SB_DXIL_OP_START_VERTEX_LOCATION: /* SM 6.8, vertex shaders */
    case SB_DXIL_OP_START_INSTANCE_LOCATION:
        if (f->program->stage != SB_IR_STAGE_VERTEX)
            return dxil_front_fail(f, SB_ERROR_TRANSLATE_INVALID,
                                   "StartVertexLocation / StartInstanceLocation outside a vertex shader");
        return dxil_front_special_input(f, in, opcode == SB_DXIL_OP_START_VERTEX_LOCATION
                                                   ? SB_IR_FILE_BASE_VERTEX
                                                   : SB_IR_FILE_BASE_INSTANCE);
    case SB_DXIL_OP_IS_HELPER_LANE: /* no helpers outside a pixel shader */
        return f->program->stage == SB_IR_STAGE_PIXEL
                   ? dxil_front_special_input(f, in, SB_IR_FILE_HELPER_LANE)
                   : dxil_front_sysval_false(f, in);
    case SB_DXIL_OP_ATTRIBUTE_AT_VERTEX:
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_UNSUPPORTED,
                               "dx.op attributeAtVertex (137): the IR has no per-vertex "
                               "attribute read");
    default:
        break;
    }
    uint32_t stage = f->program->stage;
    /* SM 6.6 derivatives in compute (mesh, amplification) shaders: ir_from_dxil_derivatives.c. */
    bool group_stage = stage == SB_IR_STAGE_COMPUTE || stage == SB_IR_STAGE_MESH ||
                       stage == SB_IR_STAGE_AMPLIFICATION;
    if (opcode >= SB_DXIL_OP_DERIV_COARSE_X && opcode <= SB_DXIL_OP_DERIV_FINE_Y && group_stage) {
        if (!dxil_front_derivative_quads(f, "a derivative"))
            return false;
    } else if (stage != SB_IR_STAGE_PIXEL) {
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_UNSUPPORTED,
                               "pixel dx.op %llu outside a pixel shader is not translated",
                               (unsigned long long)opcode);
    }
    switch (opcode) {
    case SB_DXIL_OP_DISCARD: return discard(f, in);
    case SB_DXIL_OP_DERIV_COARSE_X: return derivative(f, in, SB_IR_OP_DERIV_RTX_COARSE);
    case SB_DXIL_OP_DERIV_COARSE_Y: return derivative(f, in, SB_IR_OP_DERIV_RTY_COARSE);
    case SB_DXIL_OP_DERIV_FINE_X: return derivative(f, in, SB_IR_OP_DERIV_RTX_FINE);
    case SB_DXIL_OP_DERIV_FINE_Y: return derivative(f, in, SB_IR_OP_DERIV_RTY_FINE);
    case SB_DXIL_OP_SAMPLE_INDEX: return sample_index(f, in);
    case SB_DXIL_OP_COVERAGE: return dxil_front_special_input(f, in, SB_IR_FILE_COVERAGE_IN);
    case SB_DXIL_OP_INNER_COVERAGE:
        return dxil_front_special_input(f, in, SB_IR_FILE_INNER_COVERAGE);
    default: /* EVAL_SNAPPED, EVAL_SAMPLE_INDEX, EVAL_CENTROID */
        return evaluate(f, in, opcode);
    }
}
