// Tessellation-control stage of the "full" VBC test shader (slot 0: Image2D).
#version 450
#extension GL_EXT_scalar_block_layout : require
layout(vertices = 3) out;

struct Uniform_t {
    mat2 m22; mat3 m33; mat4 m44; mat2x3 m23; mat3x2 m32; mat2x4 m24; mat4x2 m42;
    mat3x4 m34; mat4x3 m43; bool b1; bvec2 b2; bvec3 b3; bvec4 b4; ivec3 i3; uvec2 u2;
    vec4 farr[4]; int iarr[3]; float f;
};
layout(set = 1, binding = 0, scalar) uniform _Uniform_ { Uniform_t _data_; } _uniform_;
layout(push_constant) uniform _PushConstants_ {
    uint index0; uint index1; uint index2; uint index3; uint index4;
} _pc_;

layout(set = 0, binding = 1, rgba8) uniform image2D _images2D_rgba8_[16];

layout(location = 0) in vec4 v_color[];
layout(location = 0) out vec4 c_color[];

void main()
{
    vec4 t = imageLoad(_images2D_rgba8_[_pc_.index0 & 0xFFFFu], ivec2(gl_InvocationID, 0));
    c_color[gl_InvocationID] = v_color[gl_InvocationID] * t * _uniform_._data_.farr[1];
    gl_out[gl_InvocationID].gl_Position = gl_in[gl_InvocationID].gl_Position;
    gl_TessLevelOuter[0] = 1.0;
    gl_TessLevelOuter[1] = 1.0;
    gl_TessLevelOuter[2] = 1.0;
    gl_TessLevelInner[0] = 1.0;
}
