// Vertex stage of the layer test's VBC: a triangle covering the framebuffer,
// from gl_VertexIndex alone (the VBC declares no vertex inputs).
#version 450

void main()
{
    vec2 p = vec2(float((gl_VertexIndex << 1) & 2), float(gl_VertexIndex & 2));
    gl_Position = vec4(p * 2.0 - 1.0, 0.0, 1.0);
}
