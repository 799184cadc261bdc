// Fragment stage of the "subpass" VBC test shaders, compiled once per
// SUBPASS_COUNT (1..4). Input attachment i sits at set 2, binding i with
// input_attachment_index i (../shared/docs/vbc.md §3.5, §7); the types cycle
// float, int, uint, float. No uniform: the engine would insert an empty
// set 1 so that the subpass set stays at index 2.
#version 450
#extension GL_EXT_scalar_block_layout : require

#ifndef SUBPASS_COUNT
#error SUBPASS_COUNT must be defined (1..4)
#endif

layout(set = 2, binding = 0, input_attachment_index = 0) uniform subpassInput _subpass0_;
#if SUBPASS_COUNT > 1
layout(set = 2, binding = 1, input_attachment_index = 1) uniform isubpassInput _subpass1_;
#endif
#if SUBPASS_COUNT > 2
layout(set = 2, binding = 2, input_attachment_index = 2) uniform usubpassInput _subpass2_;
#endif
#if SUBPASS_COUNT > 3
layout(set = 2, binding = 3, input_attachment_index = 3) uniform subpassInput _subpass3_;
#endif

layout(location = 0) out vec4 color;

void main()
{
    vec4 acc = subpassLoad(_subpass0_);
#if SUBPASS_COUNT > 1
    acc += vec4(subpassLoad(_subpass1_));
#endif
#if SUBPASS_COUNT > 2
    acc += vec4(subpassLoad(_subpass2_));
#endif
#if SUBPASS_COUNT > 3
    acc += subpassLoad(_subpass3_);
#endif
    color = acc;
}
