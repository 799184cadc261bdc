// Tessellation-evaluation stage of the "full" VBC test shader (slot 9: RWBuffer).
#version 450
#extension GL_EXT_scalar_block_layout : require
layout(triangles) in;

struct Uniform_t {
    mat2 m22; mat3 m33; mat4 m44; mat2x3 m23; mat3x2 m32; mat2x4 m24; mat4x2 m42;
    mat3x4 m34; mat4x3 m43; bool b1; bvec2 b2; bvec3 b3; bvec4 b4; ivec3 i3; uvec2 u2;
    vec4 farr[4]; int iarr[3]; float f;
};
layout(set = 1, binding = 0, scalar) uniform _Uniform_ { Uniform_t _data_; } _uniform_;
layout(push_constant) uniform _PushConstants_ {
    uint index0; uint index1; uint index2; uint index3; uint index4;
} _pc_;

struct Rw_t { vec4 a; vec4 b; };
layout(set = 0, binding = 2, scalar) buffer _RWBuffer_Rw_t_ { Rw_t _data_[]; } _rwbuffers_Rw_t_[32];

layout(location = 0) in vec4 c_color[];
layout(location = 0) out vec4 e_color;

void main()
{
    Rw_t r = _rwbuffers_Rw_t_[_pc_.index4 >> 16]._data_[gl_PrimitiveID];
    e_color = c_color[0] * gl_TessCoord.x + c_color[1] * gl_TessCoord.y + r.a;
    gl_Position = gl_in[0].gl_Position * _uniform_._data_.m22[0].x;
}
