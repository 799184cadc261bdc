#version 450
// Harness self-test: a DS-like stage whose VS, TCS and PS partners are generated.
layout(quads, fractional_odd_spacing, ccw) in;
layout(location = 0) in vec4 cp_color[];
layout(location = 1) patch in vec4 edge;
layout(location = 0) out vec4 color;
void main()
{
    color = cp_color[0] * gl_TessCoord.x + edge;
    gl_Position = vec4(gl_TessCoord, 1.0);
}
