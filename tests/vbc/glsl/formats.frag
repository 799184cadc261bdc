// Fragment stage of the "formats" VBC test shader: 32 bindings in slots
// 0..31 (declared in the order slot = 7 * i mod 32), every texel rank and
// every texel format of ../shared/docs/vbc.md §5.3-§5.4, no uniform.
#version 450
#extension GL_EXT_scalar_block_layout : require
struct Ro_t { vec4 v; };
struct Rw_t { uint a; uint b; };

layout(set = 0, binding = 0) uniform sampler1D _b0_sampler1D_[8192];
layout(set = 0, binding = 0) uniform isampler2D _b1_isampler2D_[8192];
layout(set = 0, binding = 0) uniform usampler3D _b2_usampler3D_[8192];
layout(set = 0, binding = 0) uniform sampler1DArray _b3_sampler1DArray_[8192];
layout(set = 0, binding = 0) uniform isampler2DArray _b4_isampler2DArray_[8192];
layout(set = 0, binding = 0) uniform usamplerCube _b5_usamplerCube_[8192];
layout(set = 0, binding = 1, r32i) uniform iimage1D _b6_iimage1D_[128];
layout(set = 0, binding = 1, rg32i) uniform iimage2D _b7_iimage2D_[128];
layout(set = 0, binding = 1, rgba32i) uniform iimage3D _b8_iimage3D_[128];
layout(set = 0, binding = 1, r32ui) uniform uimage1DArray _b9_uimage1DArray_[128];
layout(set = 0, binding = 1, rg32ui) uniform uimage2DArray _b10_uimage2DArray_[128];
layout(set = 0, binding = 1, rgba32ui) uniform uimage1D _b11_uimage1D_[128];
layout(set = 0, binding = 1, r32f) uniform image2D _b12_image2D_[128];
layout(set = 0, binding = 1, rg32f) uniform image3D _b13_image3D_[128];
layout(set = 0, binding = 1, rgba32f) uniform image1DArray _b14_image1DArray_[128];
layout(set = 0, binding = 1, r8) uniform image2DArray _b15_image2DArray_[128];
layout(set = 0, binding = 1, rg8) uniform image2D _b16_image2D_[128];
layout(set = 0, binding = 4, rgba8) uniform imageBuffer _b17_imageBuffer_[128];
layout(set = 0, binding = 4, r16) uniform imageBuffer _b18_imageBuffer_[128];
layout(set = 0, binding = 4, rg16) uniform imageBuffer _b19_imageBuffer_[128];
layout(set = 0, binding = 4, rgba16) uniform imageBuffer _b20_imageBuffer_[128];
layout(set = 0, binding = 4, r8_snorm) uniform imageBuffer _b21_imageBuffer_[128];
layout(set = 0, binding = 4, rg8_snorm) uniform imageBuffer _b22_imageBuffer_[128];
layout(set = 0, binding = 4, rgba8_snorm) uniform imageBuffer _b23_imageBuffer_[128];
layout(set = 0, binding = 4, r16_snorm) uniform imageBuffer _b24_imageBuffer_[128];
layout(set = 0, binding = 4, rg16_snorm) uniform imageBuffer _b25_imageBuffer_[128];
layout(set = 0, binding = 4, rgba16_snorm) uniform imageBuffer _b26_imageBuffer_[128];
layout(set = 0, binding = 3) uniform usamplerBuffer _b29_usamplerBuffer_[128];
layout(set = 0, binding = 2, scalar) readonly buffer _ROBuffer_Ro_t_ { Ro_t _data_[]; } _robuffers_Ro_t_[512];
layout(set = 0, binding = 2, scalar) buffer _RWBuffer_Rw_t_ { Rw_t _data_[]; } _rwbuffers_Rw_t_[512];
layout(push_constant) uniform _PushConstants_ {
    uint index0;
    uint index1;
    uint index2;
    uint index3;
    uint index4;
    uint index5;
    uint index6;
    uint index7;
    uint index8;
    uint index9;
    uint index10;
    uint index11;
    uint index12;
    uint index13;
    uint index14;
    uint index15;
} _pc_;

layout(location = 0) in vec4 v_color;
layout(location = 0) out vec4 color;
layout(location = 1) out uint id;

void main()
{
    vec4 acc = v_color;
    acc += vec4(texelFetch(_b0_sampler1D_[(_pc_.index0 & 0xFFFFu)], 0, 0)); // slot 0
    acc += vec4(texelFetch(_b1_isampler2D_[(_pc_.index3 >> 16)], ivec2(0), 0)); // slot 7
    acc += vec4(texelFetch(_b2_usampler3D_[(_pc_.index7 & 0xFFFFu)], ivec3(0), 0)); // slot 14
    acc += vec4(texelFetch(_b3_sampler1DArray_[(_pc_.index10 >> 16)], ivec2(0), 0)); // slot 21
    acc += vec4(texelFetch(_b4_isampler2DArray_[(_pc_.index14 & 0xFFFFu)], ivec3(0), 0)); // slot 28
    acc += vec4(textureLod(_b5_usamplerCube_[(_pc_.index1 >> 16)], vec3(1.0, 0.0, 0.0), 0.0)); // slot 3
    acc += vec4(imageLoad(_b6_iimage1D_[(_pc_.index5 & 0xFFFFu)], 0)); // slot 10
    acc += vec4(imageLoad(_b7_iimage2D_[(_pc_.index8 >> 16)], ivec2(0))); // slot 17
    acc += vec4(imageLoad(_b8_iimage3D_[(_pc_.index12 & 0xFFFFu)], ivec3(0))); // slot 24
    acc += vec4(imageLoad(_b9_uimage1DArray_[(_pc_.index15 >> 16)], ivec2(0))); // slot 31
    acc += vec4(imageLoad(_b10_uimage2DArray_[(_pc_.index3 & 0xFFFFu)], ivec3(0))); // slot 6
    acc += vec4(imageLoad(_b11_uimage1D_[(_pc_.index6 >> 16)], 0)); // slot 13
    acc += vec4(imageLoad(_b12_image2D_[(_pc_.index10 & 0xFFFFu)], ivec2(0))); // slot 20
    acc += vec4(imageLoad(_b13_image3D_[(_pc_.index13 >> 16)], ivec3(0))); // slot 27
    acc += vec4(imageLoad(_b14_image1DArray_[(_pc_.index1 & 0xFFFFu)], ivec2(0))); // slot 2
    acc += vec4(imageLoad(_b15_image2DArray_[(_pc_.index4 >> 16)], ivec3(0))); // slot 9
    acc += vec4(imageLoad(_b16_image2D_[(_pc_.index8 & 0xFFFFu)], ivec2(0))); // slot 16
    acc += vec4(imageLoad(_b17_imageBuffer_[(_pc_.index11 >> 16)], 0)); // slot 23
    acc += vec4(imageLoad(_b18_imageBuffer_[(_pc_.index15 & 0xFFFFu)], 0)); // slot 30
    acc += vec4(imageLoad(_b19_imageBuffer_[(_pc_.index2 >> 16)], 0)); // slot 5
    acc += vec4(imageLoad(_b20_imageBuffer_[(_pc_.index6 & 0xFFFFu)], 0)); // slot 12
    acc += vec4(imageLoad(_b21_imageBuffer_[(_pc_.index9 >> 16)], 0)); // slot 19
    acc += vec4(imageLoad(_b22_imageBuffer_[(_pc_.index13 & 0xFFFFu)], 0)); // slot 26
    acc += vec4(imageLoad(_b23_imageBuffer_[(_pc_.index0 >> 16)], 0)); // slot 1
    acc += vec4(imageLoad(_b24_imageBuffer_[(_pc_.index4 & 0xFFFFu)], 0)); // slot 8
    acc += vec4(imageLoad(_b25_imageBuffer_[(_pc_.index7 >> 16)], 0)); // slot 15
    acc += vec4(imageLoad(_b26_imageBuffer_[(_pc_.index11 & 0xFFFFu)], 0)); // slot 22
    acc += vec4(texelFetch(_b29_usamplerBuffer_[(_pc_.index5 >> 16)], 0)); // slot 11
    acc += vec4(_robuffers_Ro_t_[(_pc_.index9 & 0xFFFFu)]._data_[0].v); // slot 18
    _rwbuffers_Rw_t_[(_pc_.index12 >> 16)]._data_[0].a = uint(acc.x);
    color = acc;
    id = uint(gl_FragCoord.x);
}
