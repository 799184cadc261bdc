#version 450
// Harness self-test: one float and one uint render target.
layout(location = 0) in vec4 color;
layout(location = 1) flat in uint id;
layout(location = 0) out vec4 target0;
layout(location = 1) out uvec4 target1;
void main()
{
    target0 = color;
    target1 = uvec4(id);
}
