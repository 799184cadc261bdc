/* SPDX-License-Identifier: MIT */
/*
 * Pull-model attribute evaluation in pixel shaders (eval_snapped,
 * eval_sample_index, eval_centroid: ps_5_0, ../shared/docs/sm4-tokens.md), after
 * translator/src/spirv/spirv_io.c, which interpolates the input variable of each
 * source lane with GLSL.std.450 InterpolateAtOffset / AtSample / AtCentroid.
 *
 * A pixel batch holds each input at its pixel's centre (v#) and, when the caller
 * gave attribute planes (sb_interp_options::input_ddx / input_ddy), each word's
 * change per pixel right and down (0 for constant inputs and system values; no
 * planes at all for points, whose inputs are constant). Each lane of the result is
 *
 *     v + dx * ddx + dy * ddy
 *
 * at the offset (dx, dy) from the centre that the instruction names:
 *   eval_snapped       the offset operand's x and y, of which D3D reads the low
 *                      4 bits as a signed count of 1/16 pixel: [-8, 7] / 16,
 *                      which is also the offset range Vulkan guarantees;
 *   eval_sample_index  sample `index` of the render target's standard pattern
 *                      (sb_interp_sample_position, sb_interp_options::sample_count);
 *                      an index past the count evaluates at the centre (D3D and
 *                      Vulkan leave that position undefined);
 *   eval_centroid      the centre: every pixel a run draws is fully covered, and a
 *                      fully covered pixel's centroid is its centre.
 * At sample frequency an input interpolated at the sample holds its value there, so
 * the offset is taken from the lane's sample instead of the centre. The source is a
 * directly indexed v#, read through its swizzle without modifiers (fxc gives an
 * attribute operand none; the translation reads the variable).
 */
#include "interp_private.h"

#include "translator/ir.h"

/* Does an input element interpolated at the sample hold lane `c` of v`reg`? At sample frequency
 * its v# lanes hold the value at the sample, which an evaluation moves back to the centre. */
static bool held_at_sample(const struct interp_state *s, uint32_t reg, uint32_t c)
{
    for (uint32_t e = 0; e < s->program->signature_count; e++) {
        const struct sb_ir_signature_element *el = &s->program->signature[e];
        if (el->kind == SB_IR_SIGNATURE_INPUT && el->file == SB_IR_FILE_INPUT && el->register_index == reg &&
            (el->mask & (1u << c)))
            return el->interpolation == SB_IR_INTERP_LINEAR_SAMPLE ||
                   el->interpolation == SB_IR_INTERP_LINEAR_NOPERSPECTIVE_SAMPLE;
    }
    return false;
}

/* The low 4 bits of an integer offset, signed, in pixels. */
static float snapped(uint32_t v)
{
    int32_t sixteenths = (int32_t)(v << 28) >> 28; /* arithmetic shift: sign of bit 3 */
    return (float)sixteenths / 16.0f;
}

/* The offsets (dx, dy) of every lane from its pixel centre, as float bits. */
static bool offsets(struct interp_state *s, const struct sb_ir_instruction *in, uint32_t *dx, uint32_t *dy)
{
    for (uint32_t l = 0; l < s->lanes; l++)
        dx[l] = dy[l] = 0;
    if (in->op == SB_IR_OP_EVAL_SNAPPED) {
        const uint32_t *o[4] = { NULL };
        if (!sb_interp_load_n(s, &in->src[1], 2, SB_IR_TYPE_INT, o))
            return false;
        for (uint32_t l = 0; l < s->lanes; l++) {
            dx[l] = U(snapped(o[0][l]));
            dy[l] = U(snapped(o[1][l]));
        }
    } else if (in->op == SB_IR_OP_EVAL_SAMPLE_INDEX) {
        const uint32_t *index = sb_interp_load_scalar(s, &in->src[1], SB_IR_TYPE_INT);
        if (!index)
            return false;
        for (uint32_t l = 0; l < s->lanes; l++) {
            float xy[2];
            sb_interp_sample_position(s->samples, index[l], xy);
            dx[l] = U(xy[0]);
            dy[l] = U(xy[1]);
        }
    }
    return true;
}

enum sb_result sb_interp_eval(struct interp_state *s, const struct sb_ir_instruction *in)
{
    if (in->op != SB_IR_OP_EVAL_SNAPPED && in->op != SB_IR_OP_EVAL_SAMPLE_INDEX && in->op != SB_IR_OP_EVAL_CENTROID)
        return SB_ERROR_TRANSLATE_UNSUPPORTED;
    if (!s->quad)
        return sb_interp_fail(s, SB_ERROR_RUN_UNSUPPORTED, "'%s' outside a pixel shader", sb_ir_op_name(in->op));
    bool with_offset = in->op != SB_IR_OP_EVAL_CENTROID;
    const struct sb_ir_operand *src = &in->src[0];
    if (in->dst_count < 1 || in->src_count < (with_offset ? 2u : 1u) || src->file != SB_IR_FILE_INPUT ||
        src->index_count < 1 || src->index[0].relative)
        return sb_interp_unsupported(s, "attribute evaluation of anything but a directly indexed v#");
    uint32_t *dx = sb_interp_scratch(s), *dy = sb_interp_scratch(s), *t[4];
    for (uint32_t c = 0; c < 4; c++)
        t[c] = sb_interp_scratch(s);
    if (!dx || !dy || !t[0] || !t[1] || !t[2] || !t[3] || !offsets(s, in, dx, dy))
        return s->result;
    uint32_t reg = src->index[0].offset;
    for (uint32_t c = 0; c < 4; c++) {
        uint32_t from = src->swizzle[c] & 3u;
        size_t row = ((size_t)reg * 4 + from) * s->lanes;
        bool shifted = s->sample_dx && s->io_ddx && reg < s->in_regs && held_at_sample(s, reg, from);
        for (uint32_t l = 0; l < s->lanes; l++) {
            if (reg >= s->in_regs) {
                t[c][l] = 0;
                continue;
            }
            float v = F(s->io_in[row + l]), ox = F(dx[l]), oy = F(dy[l]);
            if (shifted) { /* from the lane's sample back to the centre */
                ox -= F(s->sample_dx[l]);
                oy -= F(s->sample_dy[l]);
            }
            if (s->io_ddx)
                v = v + ox * F(s->io_ddx[row + l]) + oy * F(s->io_ddy[row + l]);
            t[c][l] = U(v);
        }
    }
    sb_interp_store(s, &in->dst[0], in->dst[0].mask, (const uint32_t *const *)t, SB_IR_TYPE_FLOAT);
    return s->result;
}
