#version 450
// Harness self-test: float and uint vertex inputs passed to the fragment stage.
layout(location = 0) in vec4 position;
layout(location = 1) in uvec2 ids;
layout(location = 0) out vec4 color;
layout(location = 1) flat out uint id;
void main()
{
    gl_Position = position;
    color = position * 0.5 + 0.5;
    id = ids.x + ids.y;
}
