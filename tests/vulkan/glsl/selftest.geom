#version 450
// Harness self-test: a GS whose partners (VS before, PS after) are generated.
layout(triangles) in;
layout(triangle_strip, max_vertices = 3) out;
layout(location = 0) in vec4 color[];
layout(location = 1) flat in uint id[];
layout(location = 0) out vec4 out_color;
layout(location = 2, component = 1) out float out_extra;
void main()
{
    for (int i = 0; i < 3; i++) {
        gl_Position = gl_in[i].gl_Position;
        out_color = color[i];
        out_extra = float(id[i]);
        EmitVertex();
    }
    EndPrimitive();
}
