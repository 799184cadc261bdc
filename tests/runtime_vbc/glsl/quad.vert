// Vertex stage of the "quad" VBC draw: position and texture coordinate
// straight through (no bindings in this stage, so no push-constant block).
#version 450
#extension GL_EXT_scalar_block_layout : require

layout(location = 0) in vec2 pos;
layout(location = 1) in vec2 uv;
layout(location = 0) out vec2 _local_uv;

void main()
{
    gl_Position = vec4(pos, 0.0, 1.0);
    _local_uv = uv;
}
