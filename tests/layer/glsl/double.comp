// Pass-through SPIR-V for the layer test: v[i] = 2 * v[i] + 1 over 256 uints.
#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Values { uint v[]; } values;

void main()
{
    uint i = gl_GlobalInvocationID.x;
    values.v[i] = 2u * values.v[i] + 1u;
}
