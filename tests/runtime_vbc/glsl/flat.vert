// Vertex stage of the "flat" VBC draw: a float2 position, a float4 colour
// and a uint tag per vertex, passed flat (integer locals must be flat in VSL).
#version 450
#extension GL_EXT_scalar_block_layout : require

layout(location = 0) in vec2 pos;
layout(location = 1) in vec4 color;
layout(location = 2) in uint tag;
layout(location = 0) flat out vec4 _local_color;
layout(location = 1) flat out uint _local_tag;

void main()
{
    gl_Position = vec4(pos, 0.0, 1.0);
    _local_color = color;
    _local_tag = tag;
}
