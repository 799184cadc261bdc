#version 450
// Fragment stage of samples/textured_quad.vbc: one sampler in binding slot 0
// of the global table (set 0, binding 0, 8192 entries), indexed through the
// push-constant slot table (../shared/docs/vbc.md §6).
#extension GL_EXT_scalar_block_layout : require
layout(set = 0, binding = 0) uniform sampler2D _samplers2D_[8192];
layout(push_constant) uniform BindingIndices_t { uint index0; } _bidx_;
layout(location = 0) in vec2 in_uv;
layout(location = 0) out vec4 color;
void main()
{
    color = texture(_samplers2D_[_bidx_.index0 & 0xFFFFu], in_uv);
}
