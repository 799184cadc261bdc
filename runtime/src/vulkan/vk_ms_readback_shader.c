/* SPDX-License-Identifier: MIT */
/*
 * The SPIR-V of the compute shader that reads every sample of a multisampled
 * colour target back (vk_ms_readback.c says why a shader), written as words like
 * the fill shaders. In GLSL terms, for a target of component type T (float,
 * uint or int):
 *
 *   layout(local_size_x = 8, local_size_y = 8) in;
 *   layout(push_constant) uniform P { uint width, height, samples; } p;
 *   layout(set = 0, binding = 0) buffer B { uint words[]; } b;    // resources.h MS layout
 *   layout(set = 0, binding = 1) uniform Ttexture2DMS target;
 *   void main() {
 *       uvec3 id = gl_GlobalInvocationID;            // z = sample
 *       if (id.x < p.width && id.y < p.height && id.z < p.samples) {
 *           uvec4 v = bits of texelFetch(target, ivec2(id.xy), int(id.z));
 *           uint at = ((id.y * p.width + id.x) * p.samples + id.z) * 4;
 *           b.words[at + 0..3] = v;
 *       }
 *   }
 */
#include "vk_private.h"
#include "vk_spirv_words.h"

enum { MAIN_NAME = 0x6e69616du }; /* "main", then a zero word */

struct readback_ids {
    uint32_t t_void, t_fn, t_u32, t_i32, t_f32, t_v3u, t_v2i, t_v4u, t_v4x, t_bool, t_in_v3u, t_pc, t_pc_ptr,
        t_pc_u32, t_array, t_buf, t_buf_ptr, t_buf_u32, t_image, t_image_ptr, gid, pc, buf, image, main, merge,
        body;
    uint32_t u[4], i[3];
};

static void globals(struct spirv_words *s, struct readback_ids *d, uint32_t component_type)
{
    uint32_t *const named[] = {
        &d->t_void, &d->t_fn, &d->t_u32, &d->t_i32, &d->t_f32, &d->t_v3u, &d->t_v2i, &d->t_v4u, &d->t_v4x,
        &d->t_bool, &d->t_in_v3u, &d->t_pc, &d->t_pc_ptr, &d->t_pc_u32, &d->t_array, &d->t_buf, &d->t_buf_ptr,
        &d->t_buf_u32, &d->t_image, &d->t_image_ptr, &d->gid, &d->pc, &d->buf, &d->image, &d->main, &d->merge,
        &d->body,
    };
    for (size_t k = 0; k < sizeof(named) / sizeof(named[0]); k++)
        *named[k] = spirv_id(s);
    for (uint32_t k = 0; k < 4; k++)
        d->u[k] = spirv_id(s);
    for (uint32_t k = 0; k < 3; k++)
        d->i[k] = spirv_id(s);
    uint32_t scalar = component_type == SB_IR_TYPE_UINT ? d->t_u32 : component_type == SB_IR_TYPE_INT ? d->t_i32
                                                                                                       : d->t_f32;
    SPIRV_OP(s, SpvOpCapability, SpvCapabilityShader);
    SPIRV_OP(s, SpvOpMemoryModel, SpvAddressingModelLogical, SpvMemoryModelGLSL450);
    SPIRV_OP(s, SpvOpEntryPoint, SpvExecutionModelGLCompute, d->main, MAIN_NAME, 0, d->gid);
    SPIRV_OP(s, SpvOpExecutionMode, d->main, SpvExecutionModeLocalSize, 8, 8, 1);
    SPIRV_OP(s, SpvOpDecorate, d->gid, SpvDecorationBuiltIn, SpvBuiltInGlobalInvocationId);
    SPIRV_OP(s, SpvOpDecorate, d->t_pc, SpvDecorationBlock);
    for (uint32_t m = 0; m < 3; m++)
        SPIRV_OP(s, SpvOpMemberDecorate, d->t_pc, m, SpvDecorationOffset, 4 * m);
    SPIRV_OP(s, SpvOpDecorate, d->t_array, SpvDecorationArrayStride, 4);
    SPIRV_OP(s, SpvOpDecorate, d->t_buf, SpvDecorationBufferBlock);
    SPIRV_OP(s, SpvOpMemberDecorate, d->t_buf, 0, SpvDecorationOffset, 0);
    SPIRV_OP(s, SpvOpDecorate, d->buf, SpvDecorationDescriptorSet, 0);
    SPIRV_OP(s, SpvOpDecorate, d->buf, SpvDecorationBinding, 0);
    SPIRV_OP(s, SpvOpDecorate, d->image, SpvDecorationDescriptorSet, 0);
    SPIRV_OP(s, SpvOpDecorate, d->image, SpvDecorationBinding, 1);
    SPIRV_OP(s, SpvOpTypeVoid, d->t_void);
    SPIRV_OP(s, SpvOpTypeFunction, d->t_fn, d->t_void);
    SPIRV_OP(s, SpvOpTypeInt, d->t_u32, 32, 0);
    SPIRV_OP(s, SpvOpTypeInt, d->t_i32, 32, 1);
    SPIRV_OP(s, SpvOpTypeFloat, d->t_f32, 32);
    SPIRV_OP(s, SpvOpTypeVector, d->t_v3u, d->t_u32, 3);
    SPIRV_OP(s, SpvOpTypeVector, d->t_v2i, d->t_i32, 2);
    SPIRV_OP(s, SpvOpTypeVector, d->t_v4u, d->t_u32, 4);
    SPIRV_OP(s, SpvOpTypeVector, d->t_v4x, scalar, 4);
    SPIRV_OP(s, SpvOpTypeBool, d->t_bool);
    SPIRV_OP(s, SpvOpTypePointer, d->t_in_v3u, SpvStorageClassInput, d->t_v3u);
    SPIRV_OP(s, SpvOpTypeStruct, d->t_pc, d->t_u32, d->t_u32, d->t_u32);
    SPIRV_OP(s, SpvOpTypePointer, d->t_pc_ptr, SpvStorageClassPushConstant, d->t_pc);
    SPIRV_OP(s, SpvOpTypePointer, d->t_pc_u32, SpvStorageClassPushConstant, d->t_u32);
    SPIRV_OP(s, SpvOpTypeRuntimeArray, d->t_array, d->t_u32);
    SPIRV_OP(s, SpvOpTypeStruct, d->t_buf, d->t_array);
    SPIRV_OP(s, SpvOpTypePointer, d->t_buf_ptr, SpvStorageClassUniform, d->t_buf);
    SPIRV_OP(s, SpvOpTypePointer, d->t_buf_u32, SpvStorageClassUniform, d->t_u32);
    /* a sampled multisampled 2D image (no sampler: texelFetch) */
    SPIRV_OP(s, SpvOpTypeImage, d->t_image, scalar, SpvDim2D, 0, 0, 1, 1, SpvImageFormatUnknown);
    SPIRV_OP(s, SpvOpTypePointer, d->t_image_ptr, SpvStorageClassUniformConstant, d->t_image);
    SPIRV_OP(s, SpvOpVariable, d->t_in_v3u, d->gid, SpvStorageClassInput);
    SPIRV_OP(s, SpvOpVariable, d->t_pc_ptr, d->pc, SpvStorageClassPushConstant);
    SPIRV_OP(s, SpvOpVariable, d->t_buf_ptr, d->buf, SpvStorageClassUniform);
    SPIRV_OP(s, SpvOpVariable, d->t_image_ptr, d->image, SpvStorageClassUniformConstant);
    for (uint32_t k = 0; k < 4; k++)
        SPIRV_OP(s, SpvOpConstant, d->t_u32, d->u[k], k);
    for (uint32_t k = 0; k < 3; k++)
        SPIRV_OP(s, SpvOpConstant, d->t_i32, d->i[k], k);
}

size_t sb_vk_ms_readback_shader(uint32_t component_type, uint32_t *words, size_t capacity)
{
    struct spirv_words s = spirv_begin(words, capacity, 1);
    struct readback_ids d;
    globals(&s, &d, component_type);
    SPIRV_OP(&s, SpvOpFunction, d.t_void, d.main, SpvFunctionControlMaskNone, d.t_fn);
    SPIRV_OP(&s, SpvOpLabel, spirv_id(&s));
    uint32_t id = spirv_value1(&s, SpvOpLoad, d.t_v3u, d.gid), xyz[3], p[3];
    for (uint32_t c = 0; c < 3; c++) {
        xyz[c] = spirv_id(&s);
        SPIRV_OP(&s, SpvOpCompositeExtract, d.t_u32, xyz[c], id, c);
        p[c] = spirv_value1(&s, SpvOpLoad, d.t_u32, spirv_value(&s, SpvOpAccessChain, d.t_pc_u32, d.pc, d.i[c]));
    }
    uint32_t inside = spirv_value(&s, SpvOpULessThan, d.t_bool, xyz[0], p[0]);
    for (uint32_t c = 1; c < 3; c++)
        inside = spirv_value(&s, SpvOpLogicalAnd, d.t_bool, inside,
                             spirv_value(&s, SpvOpULessThan, d.t_bool, xyz[c], p[c]));
    SPIRV_OP(&s, SpvOpSelectionMerge, d.merge, SpvSelectionControlMaskNone);
    SPIRV_OP(&s, SpvOpBranchConditional, inside, d.body, d.merge);
    SPIRV_OP(&s, SpvOpLabel, d.body);
    uint32_t coord = spirv_id(&s);
    SPIRV_OP(&s, SpvOpCompositeConstruct, d.t_v2i, coord, spirv_value1(&s, SpvOpBitcast, d.t_i32, xyz[0]),
             spirv_value1(&s, SpvOpBitcast, d.t_i32, xyz[1]));
    uint32_t image = spirv_value1(&s, SpvOpLoad, d.t_image, d.image), texel = spirv_id(&s);
    SPIRV_OP(&s, SpvOpImageFetch, d.t_v4x, texel, image, coord, SpvImageOperandsSampleMask,
             spirv_value1(&s, SpvOpBitcast, d.t_i32, xyz[2]));
    uint32_t bits = component_type == SB_IR_TYPE_UINT ? texel : spirv_value1(&s, SpvOpBitcast, d.t_v4u, texel);
    uint32_t at = spirv_value(&s, SpvOpIMul, d.t_u32, xyz[1], p[0]);
    at = spirv_value(&s, SpvOpIAdd, d.t_u32, at, xyz[0]);
    at = spirv_value(&s, SpvOpIMul, d.t_u32, at, p[2]);
    at = spirv_value(&s, SpvOpIAdd, d.t_u32, at, xyz[2]);
    at = spirv_value(&s, SpvOpShiftLeftLogical, d.t_u32, at, d.u[2]); /* 4 words a sample */
    for (uint32_t c = 0; c < 4; c++) {
        uint32_t word = spirv_id(&s), pointer = spirv_id(&s);
        SPIRV_OP(&s, SpvOpCompositeExtract, d.t_u32, word, bits, c);
        SPIRV_OP(&s, SpvOpAccessChain, d.t_buf_u32, pointer, d.buf, d.i[0],
                 c ? spirv_value(&s, SpvOpIAdd, d.t_u32, at, d.u[c]) : at);
        SPIRV_OP(&s, SpvOpStore, pointer, word);
    }
    SPIRV_OP(&s, SpvOpBranch, d.merge);
    SPIRV_OP(&s, SpvOpLabel, d.merge);
    spirv_op(&s, SpvOpReturn, 0, NULL);
    spirv_op(&s, SpvOpFunctionEnd, 0, NULL);
    return spirv_finish(&s);
}
