// Geometry stage of the "full" VBC test shader (slot 5: SamplerCube).
#version 450
#extension GL_EXT_scalar_block_layout : require
layout(triangles) in;
layout(triangle_strip, max_vertices = 3) out;

struct Uniform_t {
    mat2 m22; mat3 m33; mat4 m44; mat2x3 m23; mat3x2 m32; mat2x4 m24; mat4x2 m42;
    mat3x4 m34; mat4x3 m43; bool b1; bvec2 b2; bvec3 b3; bvec4 b4; ivec3 i3; uvec2 u2;
    vec4 farr[4]; int iarr[3]; float f;
};
layout(set = 1, binding = 0, scalar) uniform _Uniform_ { Uniform_t _data_; } _uniform_;
layout(push_constant) uniform _PushConstants_ {
    uint index0; uint index1; uint index2; uint index3; uint index4;
} _pc_;

layout(set = 0, binding = 0) uniform samplerCube _samplersCube_[64];

layout(location = 0) in vec4 e_color[];
layout(location = 0) out vec4 g_color;

void main()
{
    vec4 sky = textureLod(_samplersCube_[_pc_.index2 >> 16], _uniform_._data_.m33[0], 0.0);
    for (int i = 0; i < 3; i++) {
        g_color = e_color[i] * sky;
        gl_Position = gl_in[i].gl_Position;
        EmitVertex();
    }
    EndPrimitive();
}
