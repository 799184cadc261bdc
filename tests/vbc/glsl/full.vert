// Vertex stage of the "full" VBC test shader: every stage present, tables
// resized as by `vslc -Tsamplers=64 -Timages=16 -Tbuffers=32 -Trotexels=8
// -Trwtexels=4`, inputs declared out of location order (../shared/docs/vbc.md §3.1).
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

layout(set = 0, binding = 4, rg16_snorm) uniform imageBuffer _rwtexels_rg16_snorm_[4];

layout(location = 4) in mat4 m44_in;
layout(location = 0) in float f_in;
layout(location = 1) in ivec2 i2_in;
layout(location = 2) in uvec3 u3_in;
layout(location = 8) in mat2x3 m23_in;
layout(location = 10) in vec4 farr_in[2];
layout(location = 12) in int i_in;
layout(location = 13) in uint u_in;
layout(location = 14) in ivec4 i4_in;
layout(location = 15) in vec3 f3_in;
layout(location = 0) out vec4 v_color;

void main()
{
    vec4 t = imageLoad(_rwtexels_rg16_snorm_[_pc_.index3 >> 16], i_in);
    vec3 p = f3_in + m23_in * vec2(f_in) + vec3(i2_in, 0) + vec3(u3_in) + vec3(u_in);
    gl_Position = _uniform_._data_.m44 * m44_in * vec4(p, 1.0);
    v_color = t + farr_in[0] + farr_in[1] + vec4(i4_in) * _uniform_._data_.f;
}
