/* SPDX-License-Identifier: MIT */
/*
 * The SPIR-V of the render pass that fills a multisampled depth texture sample
 * by sample (vk_image_ms_depth.c says why a render pass), written as words like
 * the colour fill (vk_ms_fill_shader.c). In GLSL terms:
 *
 *   vertex:   gl_Position = vec4(gl_VertexIndex == 1 ? 3 : -1, gl_VertexIndex == 2 ? 3 : -1, 0, 1);
 *             (one triangle covering the viewport)
 *   fragment: layout(push_constant) uniform P { uint width, height, samples, layer, texel_bytes,
 *                                               mask, unorm; float denominator; } p;
 *             layout(set = 0, binding = 0) buffer B { uint words[]; } b;    // resources.h layout
 *             void main() {   // SampleId is read: one invocation per sample
 *                 uint x = uint(gl_FragCoord.x), y = uint(gl_FragCoord.y), s = uint(gl_SampleID);
 *                 uint byte = ((((p.layer * p.height + y) * p.width + x) * p.samples) + s)
 *                             * p.texel_bytes;
 *                 uint v = (b.words[min(byte >> 2, b.words.length() - 1)] >> (byte & 3) * 8) & p.mask;
 *                 gl_FragDepth = p.unorm != 0 ? float(v) / p.denominator : uintBitsToFloat(v);
 *             }
 *
 * so a d32_float sample is written as its bits, and a d16 / d24 one as code / (2^n - 1), which
 * the attachment's conversion to the nearest code turns back into that code.
 */
#include "vk_private.h"
#include "vk_spirv_words.h"

enum { MAIN_NAME = 0x6e69616du }; /* "main", then a zero word */

size_t sb_vk_ms_depth_vertex_shader(uint32_t *words, size_t capacity)
{
    struct spirv_words s = spirv_begin(words, capacity, 1);
    uint32_t t_void = spirv_id(&s), t_fn = spirv_id(&s), t_f32 = spirv_id(&s), t_i32 = spirv_id(&s);
    uint32_t t_v4 = spirv_id(&s), t_bool = spirv_id(&s), t_in_i32 = spirv_id(&s), t_out_v4 = spirv_id(&s);
    uint32_t vid = spirv_id(&s), pos = spirv_id(&s), main = spirv_id(&s);
    uint32_t i1 = spirv_id(&s), i2 = spirv_id(&s), minus1 = spirv_id(&s), three = spirv_id(&s);
    uint32_t zero = spirv_id(&s), one = spirv_id(&s);
    SPIRV_OP(&s, SpvOpCapability, SpvCapabilityShader);
    SPIRV_OP(&s, SpvOpMemoryModel, SpvAddressingModelLogical, SpvMemoryModelGLSL450);
    SPIRV_OP(&s, SpvOpEntryPoint, SpvExecutionModelVertex, main, MAIN_NAME, 0, vid, pos);
    SPIRV_OP(&s, SpvOpDecorate, vid, SpvDecorationBuiltIn, SpvBuiltInVertexIndex);
    SPIRV_OP(&s, SpvOpDecorate, pos, SpvDecorationBuiltIn, SpvBuiltInPosition);
    SPIRV_OP(&s, SpvOpTypeVoid, t_void);
    SPIRV_OP(&s, SpvOpTypeFunction, t_fn, t_void);
    SPIRV_OP(&s, SpvOpTypeFloat, t_f32, 32);
    SPIRV_OP(&s, SpvOpTypeInt, t_i32, 32, 1);
    SPIRV_OP(&s, SpvOpTypeVector, t_v4, t_f32, 4);
    SPIRV_OP(&s, SpvOpTypeBool, t_bool);
    SPIRV_OP(&s, SpvOpTypePointer, t_in_i32, SpvStorageClassInput, t_i32);
    SPIRV_OP(&s, SpvOpTypePointer, t_out_v4, SpvStorageClassOutput, t_v4);
    SPIRV_OP(&s, SpvOpVariable, t_in_i32, vid, SpvStorageClassInput);
    SPIRV_OP(&s, SpvOpVariable, t_out_v4, pos, SpvStorageClassOutput);
    SPIRV_OP(&s, SpvOpConstant, t_i32, i1, 1);
    SPIRV_OP(&s, SpvOpConstant, t_i32, i2, 2);
    SPIRV_OP(&s, SpvOpConstant, t_f32, minus1, 0xBF800000u);
    SPIRV_OP(&s, SpvOpConstant, t_f32, three, 0x40400000u);
    SPIRV_OP(&s, SpvOpConstant, t_f32, zero, 0);
    SPIRV_OP(&s, SpvOpConstant, t_f32, one, 0x3F800000u);
    SPIRV_OP(&s, SpvOpFunction, t_void, main, SpvFunctionControlMaskNone, t_fn);
    SPIRV_OP(&s, SpvOpLabel, spirv_id(&s));
    uint32_t index = spirv_value1(&s, SpvOpLoad, t_i32, vid);
    uint32_t corner[2], is[2] = { spirv_value(&s, SpvOpIEqual, t_bool, index, i1),
                                  spirv_value(&s, SpvOpIEqual, t_bool, index, i2) };
    for (uint32_t k = 0; k < 2; k++) {
        corner[k] = spirv_id(&s);
        SPIRV_OP(&s, SpvOpSelect, t_f32, corner[k], is[k], three, minus1);
    }
    uint32_t p = spirv_id(&s);
    SPIRV_OP(&s, SpvOpCompositeConstruct, t_v4, p, corner[0], corner[1], zero, one);
    SPIRV_OP(&s, SpvOpStore, pos, p);
    spirv_op(&s, SpvOpReturn, 0, NULL);
    spirv_op(&s, SpvOpFunctionEnd, 0, NULL);
    return spirv_finish(&s);
}

/* The ids the fragment shader's body uses. */
struct depth_ids {
    uint32_t t_void, t_fn, t_u32, t_i32, t_f32, t_v4, t_bool, t_in_v4, t_in_i32, t_out_f32;
    uint32_t t_pc, t_pc_ptr, t_pc_u32, t_pc_f32, t_array, t_buf, t_buf_ptr, t_buf_u32;
    uint32_t frag_coord, sample_id, frag_depth, pc, buf, main;
    uint32_t u[9], i[8]; /* uint constants 0..8, int constants 0..7 (push-constant members) */
};

static void fragment_globals(struct spirv_words *s, struct depth_ids *d)
{
    uint32_t *const named[] = {
        &d->t_void, &d->t_fn, &d->t_u32, &d->t_i32, &d->t_f32, &d->t_v4, &d->t_bool, &d->t_in_v4, &d->t_in_i32,
        &d->t_out_f32, &d->t_pc, &d->t_pc_ptr, &d->t_pc_u32, &d->t_pc_f32, &d->t_array, &d->t_buf, &d->t_buf_ptr,
        &d->t_buf_u32, &d->frag_coord, &d->sample_id, &d->frag_depth, &d->pc, &d->buf, &d->main,
    };
    for (size_t k = 0; k < sizeof(named) / sizeof(named[0]); k++)
        *named[k] = spirv_id(s);
    for (uint32_t k = 0; k < 9; k++)
        d->u[k] = spirv_id(s);
    for (uint32_t k = 0; k < 8; k++)
        d->i[k] = spirv_id(s);
    SPIRV_OP(s, SpvOpCapability, SpvCapabilityShader);
    SPIRV_OP(s, SpvOpCapability, SpvCapabilitySampleRateShading);
    SPIRV_OP(s, SpvOpMemoryModel, SpvAddressingModelLogical, SpvMemoryModelGLSL450);
    SPIRV_OP(s, SpvOpEntryPoint, SpvExecutionModelFragment, d->main, MAIN_NAME, 0, d->frag_coord, d->sample_id,
             d->frag_depth);
    SPIRV_OP(s, SpvOpExecutionMode, d->main, SpvExecutionModeOriginUpperLeft);
    SPIRV_OP(s, SpvOpExecutionMode, d->main, SpvExecutionModeDepthReplacing);
    SPIRV_OP(s, SpvOpDecorate, d->frag_coord, SpvDecorationBuiltIn, SpvBuiltInFragCoord);
    SPIRV_OP(s, SpvOpDecorate, d->sample_id, SpvDecorationBuiltIn, SpvBuiltInSampleId);
    SPIRV_OP(s, SpvOpDecorate, d->sample_id, SpvDecorationFlat);
    SPIRV_OP(s, SpvOpDecorate, d->frag_depth, SpvDecorationBuiltIn, SpvBuiltInFragDepth);
    SPIRV_OP(s, SpvOpDecorate, d->t_pc, SpvDecorationBlock);
    for (uint32_t m = 0; m < 8; m++)
        SPIRV_OP(s, SpvOpMemberDecorate, d->t_pc, m, SpvDecorationOffset, 4 * m);
    SPIRV_OP(s, SpvOpDecorate, d->t_array, SpvDecorationArrayStride, 4);
    SPIRV_OP(s, SpvOpDecorate, d->t_buf, SpvDecorationBufferBlock);
    SPIRV_OP(s, SpvOpMemberDecorate, d->t_buf, 0, SpvDecorationOffset, 0);
    SPIRV_OP(s, SpvOpMemberDecorate, d->t_buf, 0, SpvDecorationNonWritable);
    SPIRV_OP(s, SpvOpDecorate, d->buf, SpvDecorationDescriptorSet, 0);
    SPIRV_OP(s, SpvOpDecorate, d->buf, SpvDecorationBinding, 0);
    SPIRV_OP(s, SpvOpTypeVoid, d->t_void);
    SPIRV_OP(s, SpvOpTypeFunction, d->t_fn, d->t_void);
    SPIRV_OP(s, SpvOpTypeInt, d->t_u32, 32, 0);
    SPIRV_OP(s, SpvOpTypeInt, d->t_i32, 32, 1);
    SPIRV_OP(s, SpvOpTypeFloat, d->t_f32, 32);
    SPIRV_OP(s, SpvOpTypeVector, d->t_v4, d->t_f32, 4);
    SPIRV_OP(s, SpvOpTypeBool, d->t_bool);
    SPIRV_OP(s, SpvOpTypePointer, d->t_in_v4, SpvStorageClassInput, d->t_v4);
    SPIRV_OP(s, SpvOpTypePointer, d->t_in_i32, SpvStorageClassInput, d->t_i32);
    SPIRV_OP(s, SpvOpTypePointer, d->t_out_f32, SpvStorageClassOutput, d->t_f32);
    SPIRV_OP(s, SpvOpTypeStruct, d->t_pc, d->t_u32, d->t_u32, d->t_u32, d->t_u32, d->t_u32, d->t_u32, d->t_u32,
             d->t_f32);
    SPIRV_OP(s, SpvOpTypePointer, d->t_pc_ptr, SpvStorageClassPushConstant, d->t_pc);
    SPIRV_OP(s, SpvOpTypePointer, d->t_pc_u32, SpvStorageClassPushConstant, d->t_u32);
    SPIRV_OP(s, SpvOpTypePointer, d->t_pc_f32, SpvStorageClassPushConstant, d->t_f32);
    SPIRV_OP(s, SpvOpTypeRuntimeArray, d->t_array, d->t_u32);
    SPIRV_OP(s, SpvOpTypeStruct, d->t_buf, d->t_array);
    SPIRV_OP(s, SpvOpTypePointer, d->t_buf_ptr, SpvStorageClassUniform, d->t_buf);
    SPIRV_OP(s, SpvOpTypePointer, d->t_buf_u32, SpvStorageClassUniform, d->t_u32);
    SPIRV_OP(s, SpvOpVariable, d->t_in_v4, d->frag_coord, SpvStorageClassInput);
    SPIRV_OP(s, SpvOpVariable, d->t_in_i32, d->sample_id, SpvStorageClassInput);
    SPIRV_OP(s, SpvOpVariable, d->t_out_f32, d->frag_depth, SpvStorageClassOutput);
    SPIRV_OP(s, SpvOpVariable, d->t_pc_ptr, d->pc, SpvStorageClassPushConstant);
    SPIRV_OP(s, SpvOpVariable, d->t_buf_ptr, d->buf, SpvStorageClassUniform);
    for (uint32_t k = 0; k < 9; k++)
        SPIRV_OP(s, SpvOpConstant, d->t_u32, d->u[k], k);
    for (uint32_t k = 0; k < 8; k++)
        SPIRV_OP(s, SpvOpConstant, d->t_i32, d->i[k], k);
}

size_t sb_vk_ms_depth_fragment_shader(uint32_t *words, size_t capacity)
{
    struct spirv_words s = spirv_begin(words, capacity, 1);
    struct depth_ids d;
    fragment_globals(&s, &d);
    SPIRV_OP(&s, SpvOpFunction, d.t_void, d.main, SpvFunctionControlMaskNone, d.t_fn);
    SPIRV_OP(&s, SpvOpLabel, spirv_id(&s));
    uint32_t coord = spirv_value1(&s, SpvOpLoad, d.t_v4, d.frag_coord), xy[2];
    for (uint32_t c = 0; c < 2; c++) {
        uint32_t f = spirv_id(&s);
        SPIRV_OP(&s, SpvOpCompositeExtract, d.t_f32, f, coord, c);
        xy[c] = spirv_value1(&s, SpvOpConvertFToU, d.t_u32, f);
    }
    uint32_t sample = spirv_value1(&s, SpvOpBitcast, d.t_u32, spirv_value1(&s, SpvOpLoad, d.t_i32, d.sample_id));
    uint32_t p[7]; /* width, height, samples, layer, texel_bytes, mask, unorm */
    for (uint32_t m = 0; m < 7; m++)
        p[m] = spirv_value1(&s, SpvOpLoad, d.t_u32, spirv_value(&s, SpvOpAccessChain, d.t_pc_u32, d.pc, d.i[m]));
    uint32_t denominator = spirv_value1(&s, SpvOpLoad, d.t_f32,
                                        spirv_value(&s, SpvOpAccessChain, d.t_pc_f32, d.pc, d.i[7]));
    uint32_t index = spirv_value(&s, SpvOpIMul, d.t_u32, p[3], p[1]);
    index = spirv_value(&s, SpvOpIAdd, d.t_u32, index, xy[1]);
    index = spirv_value(&s, SpvOpIMul, d.t_u32, index, p[0]);
    index = spirv_value(&s, SpvOpIAdd, d.t_u32, index, xy[0]);
    index = spirv_value(&s, SpvOpIMul, d.t_u32, index, p[2]);
    index = spirv_value(&s, SpvOpIAdd, d.t_u32, index, sample);
    uint32_t byte = spirv_value(&s, SpvOpIMul, d.t_u32, index, p[4]);
    uint32_t word = spirv_value(&s, SpvOpShiftRightLogical, d.t_u32, byte, d.u[2]);
    uint32_t length = spirv_id(&s);
    SPIRV_OP(&s, SpvOpArrayLength, d.t_u32, length, d.buf, 0);
    uint32_t last = spirv_value(&s, SpvOpISub, d.t_u32, length, d.u[1]);
    uint32_t clamped = spirv_id(&s);
    SPIRV_OP(&s, SpvOpSelect, d.t_u32, clamped, spirv_value(&s, SpvOpULessThan, d.t_bool, word, last), word, last);
    uint32_t pointer = spirv_id(&s);
    SPIRV_OP(&s, SpvOpAccessChain, d.t_buf_u32, pointer, d.buf, d.i[0], clamped);
    uint32_t v = spirv_value1(&s, SpvOpLoad, d.t_u32, pointer);
    uint32_t shift = spirv_value(&s, SpvOpIMul, d.t_u32, spirv_value(&s, SpvOpBitwiseAnd, d.t_u32, byte, d.u[3]),
                                 d.u[8]);
    v = spirv_value(&s, SpvOpBitwiseAnd, d.t_u32, spirv_value(&s, SpvOpShiftRightLogical, d.t_u32, v, shift), p[5]);
    uint32_t as_float = spirv_value1(&s, SpvOpBitcast, d.t_f32, v);
    uint32_t as_unorm = spirv_value(&s, SpvOpFDiv, d.t_f32, spirv_value1(&s, SpvOpConvertUToF, d.t_f32, v),
                                    denominator);
    uint32_t depth = spirv_id(&s);
    SPIRV_OP(&s, SpvOpSelect, d.t_f32, depth, spirv_value(&s, SpvOpINotEqual, d.t_bool, p[6], d.u[0]), as_unorm,
             as_float);
    SPIRV_OP(&s, SpvOpStore, d.frag_depth, depth);
    spirv_op(&s, SpvOpReturn, 0, NULL);
    spirv_op(&s, SpvOpFunctionEnd, 0, NULL);
    return spirv_finish(&s);
}
