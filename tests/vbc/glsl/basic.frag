// Fragment stage of the "basic" VBC test shader (slot 0: Sampler2D,
// slot 2: ROTexels, both read through the push-constant indices).
#version 450
#extension GL_EXT_scalar_block_layout : require

struct Uniform_t { mat4 mvp; vec2 scale; int mode; uint flags; };
layout(set = 1, binding = 0, scalar) uniform _Uniform_ { Uniform_t _data_; } _uniform_;

layout(set = 0, binding = 0) uniform sampler2D _samplers2D_[8192];
layout(set = 0, binding = 3) uniform samplerBuffer _rotexels_[128];

layout(push_constant) uniform _PushConstants_ { uint index0; uint index1; } _pc_;

layout(location = 0) in vec2 _local_uv;
layout(location = 0) out vec4 color;

void main()
{
    vec4 t = texture(_samplers2D_[_pc_.index0 & 0xFFFFu], _local_uv);
    vec4 b = texelFetch(_rotexels_[_pc_.index1 & 0xFFFFu], _uniform_._data_.mode);
    color = t * b * float(_uniform_._data_.flags);
}
