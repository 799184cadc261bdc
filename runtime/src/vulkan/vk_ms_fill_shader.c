/* SPDX-License-Identifier: MIT */
/*
 * The SPIR-V of the compute shader that fills a multisampled texture sample by
 * sample (vk_image_ms.c says why a shader and not a copy). Written here as
 * words, so the runtime needs no shader compiler and no translator; what it
 * does, in GLSL terms:
 *
 *   layout(local_size_x = 8, local_size_y = 8) in;
 *   layout(push_constant) uniform P { uint width, height, samples, texel_bytes, mask; } p;
 *   layout(set = 0, binding = 0) buffer B { uint words[]; } b;    // resources.h layout
 *   layout(set = 0, binding = 1, FORMAT) writeonly uniform uimage2DMSArray image;
 *   void main() {
 *       uvec3 id = gl_GlobalInvocationID;           // z = layer * samples + sample
 *       if (id.x < p.width && id.y < p.height) {
 *           uint layer = id.z / p.samples, sample = id.z % p.samples;
 *           uint byte = ((((layer * p.height + id.y) * p.width + id.x) * p.samples) + sample)
 *                       * p.texel_bytes;
 *           uint last = b.words.length() - 1, w = byte >> 2;
 *           uvec4 v = uvec4((b.words[min(w, last)] >> (byte & 3) * 8) & p.mask,
 *                           b.words[min(w + 1, last)], b.words[min(w + 2, last)],
 *                           b.words[min(w + 3, last)]);
 *           imageStore(image, ivec3(id.xy, layer), int(sample), v);
 *       }
 *   }
 *
 * The image is the texture's storage view in the unsigned-integer format of its
 * texel size (FORMAT: r8ui, r16ui, r32ui, rg32ui or rgba32ui), so every texel's
 * bits land unchanged whatever the texture's own format; words past the texel
 * are read (clamped to the buffer) and dropped by the narrower formats.
 * SPIR-V 1.0 (a storage buffer is a Uniform BufferBlock), valid for Vulkan 1.0.
 */
#include "vk_private.h"
#include "vk_spirv_words.h"

/* Fixed ids of the module's globals; the function body numbers its values from ID_BODY on. */
enum {
    ID_VOID = 1, ID_FN_VOID, ID_UINT, ID_V3UINT, ID_V4UINT, ID_INT, ID_V3INT, ID_BOOL,
    ID_PTR_IN_V3UINT, ID_GLOBAL_ID, ID_PC_STRUCT, ID_PTR_PC_STRUCT, ID_PC, ID_PTR_PC_UINT,
    ID_RUNTIME_ARRAY, ID_BUF_STRUCT, ID_PTR_BUF_STRUCT, ID_BUF, ID_PTR_BUF_UINT,
    ID_IMAGE_TYPE, ID_PTR_IMAGE, ID_IMAGE,
    ID_U0, ID_U1, ID_U2, ID_U3, ID_U8, ID_I0, ID_I1, ID_I2, ID_I3, ID_I4,
    ID_MAIN, ID_ENTRY, ID_BODY_LABEL, ID_MERGE, ID_BODY
};

static uint32_t load(struct spirv_words *s, uint32_t type, uint32_t pointer)
{
    uint32_t id = spirv_id(s);
    SPIRV_OP(s, SpvOpLoad, type, id, pointer);
    return id;
}

static uint32_t push_constant(struct spirv_words *s, uint32_t member)
{
    uint32_t pointer = spirv_id(s);
    SPIRV_OP(s, SpvOpAccessChain, ID_PTR_PC_UINT, pointer, ID_PC, ID_I0 + member);
    return load(s, ID_UINT, pointer);
}

/* b.words[min(index, last)] */
static uint32_t buffer_word(struct spirv_words *s, uint32_t index, uint32_t last)
{
    uint32_t below = spirv_value(s, SpvOpULessThan, ID_BOOL, index, last);
    uint32_t clamped = spirv_id(s);
    SPIRV_OP(s, SpvOpSelect, ID_UINT, clamped, below, index, last);
    uint32_t pointer = spirv_id(s);
    SPIRV_OP(s, SpvOpAccessChain, ID_PTR_BUF_UINT, pointer, ID_BUF, ID_I0, clamped);
    return load(s, ID_UINT, pointer);
}

static void header_and_globals(struct spirv_words *s, SpvImageFormat format, bool extended)
{
    SPIRV_OP(s, SpvOpCapability, SpvCapabilityShader);
    SPIRV_OP(s, SpvOpCapability, SpvCapabilityStorageImageMultisample);
    if (extended)
        SPIRV_OP(s, SpvOpCapability, SpvCapabilityStorageImageExtendedFormats);
    SPIRV_OP(s, SpvOpMemoryModel, SpvAddressingModelLogical, SpvMemoryModelGLSL450);
    SPIRV_OP(s, SpvOpEntryPoint, SpvExecutionModelGLCompute, ID_MAIN, 0x6e69616du /* "main" */, 0, ID_GLOBAL_ID);
    SPIRV_OP(s, SpvOpExecutionMode, ID_MAIN, SpvExecutionModeLocalSize, 8, 8, 1);

    SPIRV_OP(s, SpvOpDecorate, ID_GLOBAL_ID, SpvDecorationBuiltIn, SpvBuiltInGlobalInvocationId);
    SPIRV_OP(s, SpvOpDecorate, ID_PC_STRUCT, SpvDecorationBlock);
    for (uint32_t m = 0; m < 5; m++)
        SPIRV_OP(s, SpvOpMemberDecorate, ID_PC_STRUCT, m, SpvDecorationOffset, 4 * m);
    SPIRV_OP(s, SpvOpDecorate, ID_RUNTIME_ARRAY, SpvDecorationArrayStride, 4);
    SPIRV_OP(s, SpvOpDecorate, ID_BUF_STRUCT, SpvDecorationBufferBlock);
    SPIRV_OP(s, SpvOpMemberDecorate, ID_BUF_STRUCT, 0, SpvDecorationOffset, 0);
    SPIRV_OP(s, SpvOpMemberDecorate, ID_BUF_STRUCT, 0, SpvDecorationNonWritable);
    SPIRV_OP(s, SpvOpDecorate, ID_BUF, SpvDecorationDescriptorSet, 0);
    SPIRV_OP(s, SpvOpDecorate, ID_BUF, SpvDecorationBinding, 0);
    SPIRV_OP(s, SpvOpDecorate, ID_IMAGE, SpvDecorationDescriptorSet, 0);
    SPIRV_OP(s, SpvOpDecorate, ID_IMAGE, SpvDecorationBinding, 1);
    SPIRV_OP(s, SpvOpDecorate, ID_IMAGE, SpvDecorationNonReadable);

    SPIRV_OP(s, SpvOpTypeVoid, ID_VOID);
    SPIRV_OP(s, SpvOpTypeFunction, ID_FN_VOID, ID_VOID);
    SPIRV_OP(s, SpvOpTypeInt, ID_UINT, 32, 0);
    SPIRV_OP(s, SpvOpTypeVector, ID_V3UINT, ID_UINT, 3);
    SPIRV_OP(s, SpvOpTypeVector, ID_V4UINT, ID_UINT, 4);
    SPIRV_OP(s, SpvOpTypeInt, ID_INT, 32, 1);
    SPIRV_OP(s, SpvOpTypeVector, ID_V3INT, ID_INT, 3);
    SPIRV_OP(s, SpvOpTypeBool, ID_BOOL);
    SPIRV_OP(s, SpvOpTypePointer, ID_PTR_IN_V3UINT, SpvStorageClassInput, ID_V3UINT);
    SPIRV_OP(s, SpvOpVariable, ID_PTR_IN_V3UINT, ID_GLOBAL_ID, SpvStorageClassInput);
    SPIRV_OP(s, SpvOpTypeStruct, ID_PC_STRUCT, ID_UINT, ID_UINT, ID_UINT, ID_UINT, ID_UINT);
    SPIRV_OP(s, SpvOpTypePointer, ID_PTR_PC_STRUCT, SpvStorageClassPushConstant, ID_PC_STRUCT);
    SPIRV_OP(s, SpvOpVariable, ID_PTR_PC_STRUCT, ID_PC, SpvStorageClassPushConstant);
    SPIRV_OP(s, SpvOpTypePointer, ID_PTR_PC_UINT, SpvStorageClassPushConstant, ID_UINT);
    SPIRV_OP(s, SpvOpTypeRuntimeArray, ID_RUNTIME_ARRAY, ID_UINT);
    SPIRV_OP(s, SpvOpTypeStruct, ID_BUF_STRUCT, ID_RUNTIME_ARRAY);
    SPIRV_OP(s, SpvOpTypePointer, ID_PTR_BUF_STRUCT, SpvStorageClassUniform, ID_BUF_STRUCT);
    SPIRV_OP(s, SpvOpVariable, ID_PTR_BUF_STRUCT, ID_BUF, SpvStorageClassUniform);
    SPIRV_OP(s, SpvOpTypePointer, ID_PTR_BUF_UINT, SpvStorageClassUniform, ID_UINT);
    /* uimage2DMSArray: Dim 2D, not depth, arrayed, multisampled, read/write without a sampler. */
    SPIRV_OP(s, SpvOpTypeImage, ID_IMAGE_TYPE, ID_UINT, SpvDim2D, 0, 1, 1, 2, (uint32_t)format);
    SPIRV_OP(s, SpvOpTypePointer, ID_PTR_IMAGE, SpvStorageClassUniformConstant, ID_IMAGE_TYPE);
    SPIRV_OP(s, SpvOpVariable, ID_PTR_IMAGE, ID_IMAGE, SpvStorageClassUniformConstant);
    const uint32_t uints[5][2] = { { ID_U0, 0 }, { ID_U1, 1 }, { ID_U2, 2 }, { ID_U3, 3 }, { ID_U8, 8 } };
    for (uint32_t i = 0; i < 5; i++)
        SPIRV_OP(s, SpvOpConstant, ID_UINT, uints[i][0], uints[i][1]);
    for (uint32_t i = 0; i < 5; i++)
        SPIRV_OP(s, SpvOpConstant, ID_INT, ID_I0 + i, i);
}

static void body(struct spirv_words *s)
{
    SPIRV_OP(s, SpvOpFunction, ID_VOID, ID_MAIN, SpvFunctionControlMaskNone, ID_FN_VOID);
    SPIRV_OP(s, SpvOpLabel, ID_ENTRY);
    uint32_t id = load(s, ID_V3UINT, ID_GLOBAL_ID), xyz[3], p[5];
    for (uint32_t c = 0; c < 3; c++) {
        xyz[c] = spirv_id(s);
        SPIRV_OP(s, SpvOpCompositeExtract, ID_UINT, xyz[c], id, c);
    }
    for (uint32_t m = 0; m < 5; m++)
        p[m] = push_constant(s, m); /* width, height, samples, texel_bytes, mask */
    uint32_t inside = spirv_value(s, SpvOpLogicalAnd, ID_BOOL, spirv_value(s, SpvOpULessThan, ID_BOOL, xyz[0], p[0]),
                            spirv_value(s, SpvOpULessThan, ID_BOOL, xyz[1], p[1]));
    SPIRV_OP(s, SpvOpSelectionMerge, ID_MERGE, SpvSelectionControlMaskNone);
    SPIRV_OP(s, SpvOpBranchConditional, inside, ID_BODY_LABEL, ID_MERGE);
    SPIRV_OP(s, SpvOpLabel, ID_BODY_LABEL);
    uint32_t layer = spirv_value(s, SpvOpUDiv, ID_UINT, xyz[2], p[2]);
    uint32_t sample = spirv_value(s, SpvOpUMod, ID_UINT, xyz[2], p[2]);
    uint32_t index = spirv_value(s, SpvOpIMul, ID_UINT, layer, p[1]);
    index = spirv_value(s, SpvOpIAdd, ID_UINT, index, xyz[1]);
    index = spirv_value(s, SpvOpIMul, ID_UINT, index, p[0]);
    index = spirv_value(s, SpvOpIAdd, ID_UINT, index, xyz[0]);
    index = spirv_value(s, SpvOpIMul, ID_UINT, index, p[2]);
    index = spirv_value(s, SpvOpIAdd, ID_UINT, index, sample);
    uint32_t byte = spirv_value(s, SpvOpIMul, ID_UINT, index, p[3]);
    uint32_t word = spirv_value(s, SpvOpShiftRightLogical, ID_UINT, byte, ID_U2);
    uint32_t length = spirv_id(s);
    SPIRV_OP(s, SpvOpArrayLength, ID_UINT, length, ID_BUF, 0);
    uint32_t last = spirv_value(s, SpvOpISub, ID_UINT, length, ID_U1);
    uint32_t v[4];
    for (uint32_t k = 0; k < 4; k++)
        v[k] = buffer_word(s, k ? spirv_value(s, SpvOpIAdd, ID_UINT, word, ID_U0 + k) : word, last);
    uint32_t shift = spirv_value(s, SpvOpIMul, ID_UINT, spirv_value(s, SpvOpBitwiseAnd, ID_UINT, byte, ID_U3), ID_U8);
    v[0] = spirv_value(s, SpvOpBitwiseAnd, ID_UINT, spirv_value(s, SpvOpShiftRightLogical, ID_UINT, v[0], shift), p[4]);
    uint32_t texel = spirv_id(s);
    SPIRV_OP(s, SpvOpCompositeConstruct, ID_V4UINT, texel, v[0], v[1], v[2], v[3]);
    uint32_t coord[3], signed_sample = spirv_id(s);
    SPIRV_OP(s, SpvOpBitcast, ID_INT, signed_sample, sample);
    const uint32_t from[3] = { xyz[0], xyz[1], layer };
    for (uint32_t c = 0; c < 3; c++) {
        coord[c] = spirv_id(s);
        SPIRV_OP(s, SpvOpBitcast, ID_INT, coord[c], from[c]);
    }
    uint32_t coords = spirv_id(s);
    SPIRV_OP(s, SpvOpCompositeConstruct, ID_V3INT, coords, coord[0], coord[1], coord[2]);
    uint32_t image = load(s, ID_IMAGE_TYPE, ID_IMAGE);
    SPIRV_OP(s, SpvOpImageWrite, image, coords, texel, SpvImageOperandsSampleMask, signed_sample);
    SPIRV_OP(s, SpvOpBranch, ID_MERGE);
    SPIRV_OP(s, SpvOpLabel, ID_MERGE);
    spirv_op(s, SpvOpReturn, 0, NULL);
    spirv_op(s, SpvOpFunctionEnd, 0, NULL);
}

size_t sb_vk_ms_fill_shader(uint32_t texel_bytes, uint32_t *words, size_t capacity)
{
    SpvImageFormat format;
    switch (texel_bytes) {
    case 1: format = SpvImageFormatR8ui; break;
    case 2: format = SpvImageFormatR16ui; break;
    case 4: format = SpvImageFormatR32ui; break;
    case 8: format = SpvImageFormatRg32ui; break;
    case 16: format = SpvImageFormatRgba32ui; break;
    default: return 0;
    }
    struct spirv_words s = spirv_begin(words, capacity, ID_BODY);
    header_and_globals(&s, format, texel_bytes != 4 && texel_bytes != 16);
    body(&s);
    return spirv_finish(&s);
}
