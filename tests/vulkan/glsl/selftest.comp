#version 450
// Harness self-test: out[i] = in[i] * 3 + 1, one thread per element.
layout(local_size_x = 4) in;
layout(set = 0, binding = 0) readonly buffer In { uint src[]; };
layout(set = 0, binding = 1) buffer Out { uint dst[]; };
void main()
{
    uint i = gl_GlobalInvocationID.x;
    dst[i] = src[i] * 3u + 1u;
}
