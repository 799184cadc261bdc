// Fragment stage of the "quad" VBC draw: two Sampler2D slots, 0 and 3, read
// through the push-constant table indices (slot 0: low half of word 0,
// slot 3: high half of word 1; ../shared/docs/vbc.md §6), one per output.
#version 450
#extension GL_EXT_scalar_block_layout : require

// The sampler table has 16 elements: the file is written with -Tsamplers=16.
layout(set = 0, binding = 0) uniform sampler2D _samplers2D_[16];

layout(push_constant) uniform _PushConstants_ { uint index0; uint index1; } _pc_;

layout(location = 0) in vec2 _local_uv;
layout(location = 0) out vec4 color0;
layout(location = 1) out vec4 color1;

void main()
{
    color0 = texture(_samplers2D_[_pc_.index0 & 0xFFFFu], _local_uv);
    color1 = texture(_samplers2D_[_pc_.index1 >> 16], _local_uv);
}
