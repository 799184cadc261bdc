// Vertex stage of the "subpass" VBC test shaders: no bindings, no uniform,
// so no push-constant block is declared (../shared/docs/vbc.md §6).
#version 450
#extension GL_EXT_scalar_block_layout : require

layout(location = 0) in vec3 pos;

void main()
{
    gl_Position = vec4(pos, 1.0);
}
