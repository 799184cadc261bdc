// Fragment stage of the "full" VBC test shader: eight outputs declared out of
// order, an ImageCube (slot 2, not an engine binding type), the RWBuffer
// (slot 9) and two subpass inputs (../shared/docs/vbc.md §3.2, §3.5).
#version 450
#extension GL_EXT_scalar_block_layout : require

struct Uniform_t {
    mat2 m22; mat3 m33; mat4 m44; mat2x3 m23; mat3x2 m32; mat2x4 m24; mat4x2 m42;
    mat3x4 m34; mat4x3 m43; bool b1; bvec2 b2; bvec3 b3; bvec4 b4; ivec3 i3; uvec2 u2;
    vec4 farr[4]; int iarr[3]; float f;
};
layout(set = 1, binding = 0, scalar) uniform _Uniform_ { Uniform_t _data_; } _uniform_;
layout(push_constant) uniform _PushConstants_ {
    uint index0; uint index1; uint index2; uint index3; uint index4;
} _pc_;

layout(set = 0, binding = 1, r32f) uniform imageCube _imagesCube_r32f_[16];
struct Rw_t { vec4 a; vec4 b; };
layout(set = 0, binding = 2, scalar) buffer _RWBuffer_Rw_t_ { Rw_t _data_[]; } _rwbuffers_Rw_t_[32];
layout(set = 2, binding = 0, input_attachment_index = 0) uniform subpassInput _subpass0_;
layout(set = 2, binding = 1, input_attachment_index = 1) uniform usubpassInput _subpass1_;

layout(location = 0) in vec4 g_color;
layout(location = 3) out int o_i;
layout(location = 0) out vec4 o_f4;
layout(location = 1) out uvec2 o_u2;
layout(location = 2) out float o_f;
layout(location = 4) out ivec4 o_i4;
layout(location = 5) out uvec4 o_u4;
layout(location = 6) out vec2 o_f2;
layout(location = 7) out ivec2 o_i2;

void main()
{
    Uniform_t u = _uniform_._data_;
    float c = imageLoad(_imagesCube_r32f_[_pc_.index1 & 0xFFFFu], ivec3(0)).x;
    vec4 s0 = subpassLoad(_subpass0_);
    uvec4 s1 = subpassLoad(_subpass1_);
    _rwbuffers_Rw_t_[_pc_.index4 >> 16]._data_[0].b = s0;
    o_f4 = g_color * c + s0 + u.m34[0] + vec4(u.m43[1], 1.0) + u.m24[0] + vec4(u.m42[3], 0, 0);
    o_i = u.iarr[2] + u.i3.y;
    o_u2 = s1.xy + u.u2;
    o_f = u.b1 ? u.m32[2].y : u.m23[1].z;
    o_i4 = ivec4(u.b4) + ivec4(u.b3, 0) + ivec4(u.b2, 0, 0);
    o_u4 = s1;
    o_f2 = u.m22[1] + u.m44[3].xy;
    o_i2 = ivec2(gl_FragCoord.xy);
}
