// Fragment stage of the "solid" VBC draw: both outputs come from the uniform
// block, a float4 and a uint4 (color attachment types follow the outputs).
#version 450
#extension GL_EXT_scalar_block_layout : require

struct Uniform_t { vec2 offset; vec4 color; uvec4 tag; };
layout(set = 1, binding = 0, scalar) uniform _Uniform_ { Uniform_t _data_; } _uniform_;

layout(location = 0) out vec4 color;
layout(location = 1) out uvec4 tag;

void main()
{
    color = _uniform_._data_.color;
    tag = _uniform_._data_.tag;
}
