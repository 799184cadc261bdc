// Fragment stage of the "flat" VBC draw: the provoking vertex's colour and tag.
#version 450
#extension GL_EXT_scalar_block_layout : require

layout(location = 0) flat in vec4 _local_color;
layout(location = 1) flat in uint _local_tag;
layout(location = 0) out vec4 color;
layout(location = 1) out uint tag;

void main()
{
    color = _local_color;
    tag = _local_tag;
}
