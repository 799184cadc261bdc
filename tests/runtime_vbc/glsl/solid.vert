// Vertex stage of the runtime's "solid" VBC draw, laid out as vslc generates
// GLSL (../shared/docs/vbc.md §6, §10): the uniform struct at set 1 in scalar layout,
// where `color` sits at byte 8 (std140 would put it at 16).
#version 450
#extension GL_EXT_scalar_block_layout : require

struct Uniform_t { vec2 offset; vec4 color; uvec4 tag; };
layout(set = 1, binding = 0, scalar) uniform _Uniform_ { Uniform_t _data_; } _uniform_;

layout(location = 0) in vec2 pos;

void main()
{
    gl_Position = vec4(pos + _uniform_._data_.offset, 0.0, 1.0);
}
