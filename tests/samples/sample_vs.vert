#version 450
// Vertex stage of samples/textured_quad.vbc, written the way vslc generates GLSL
// (../shared/docs/vbc.md §10): scalar uniform block at set 1, binding 0.
#extension GL_EXT_scalar_block_layout : require
layout(location = 0) in vec3 position;
layout(location = 1) in vec2 uv;
layout(set = 1, binding = 0, scalar) uniform Uniform_t { mat4 mvp; } _uniform_;
layout(location = 0) out vec2 out_uv;
void main()
{
    gl_Position = _uniform_.mvp * vec4(position, 1.0);
    out_uv = uv;
}
