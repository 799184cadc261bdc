#version 450
// Harness self-test: an HS-like stage whose VS and TES partners are generated.
layout(vertices = 4) out;
layout(location = 0) in vec4 color[];
layout(location = 3) in ivec2 ids[];
layout(location = 0) out vec4 cp_color[];
layout(location = 1) patch out vec4 edge;
void main()
{
    cp_color[gl_InvocationID] = color[gl_InvocationID] + vec4(ids[gl_InvocationID].x);
    if (gl_InvocationID == 0) {
        edge = vec4(1.0);
        gl_TessLevelOuter[0] = gl_TessLevelOuter[1] = 2.0;
        gl_TessLevelOuter[2] = gl_TessLevelOuter[3] = 2.0;
        gl_TessLevelInner[0] = gl_TessLevelInner[1] = 2.0;
    }
}
