// Fragment stage of the layer test's VBC: a gradient from the pixel centre,
// exact in float for an 8x8 target, so the image shows orientation too.
#version 450
layout(location = 0) out vec4 color;

void main()
{
    color = vec4(gl_FragCoord.x / 8.0, gl_FragCoord.y / 8.0, 0.5, 1.0);
}
