// Vertex stage of the "formats" VBC test shader (texel buffers and
// structured buffers read from the vertex stage).
#version 450
#extension GL_EXT_scalar_block_layout : require
struct Ro_t { vec4 v; };
struct Rw_t { uint a; uint b; };

layout(set = 0, binding = 3) uniform samplerBuffer _b27_samplerBuffer_[128];
layout(set = 0, binding = 3) uniform isamplerBuffer _b28_isamplerBuffer_[128];
layout(set = 0, binding = 3) uniform usamplerBuffer _b29_usamplerBuffer_[128];
layout(set = 0, binding = 2, scalar) readonly buffer _ROBuffer_Ro_t_ { Ro_t _data_[]; } _robuffers_Ro_t_[512];
layout(push_constant) uniform _PushConstants_ {
    uint index0;
    uint index1;
    uint index2;
    uint index3;
    uint index4;
    uint index5;
    uint index6;
    uint index7;
    uint index8;
    uint index9;
    uint index10;
    uint index11;
    uint index12;
    uint index13;
    uint index14;
    uint index15;
} _pc_;

layout(location = 0) in vec2 uv;
layout(location = 1) in ivec3 cell;
layout(location = 2) in uvec2 ids;
layout(location = 3) in uvec4 bones;
layout(location = 4) in mat3 basis;
layout(location = 7) in vec4 weights;
layout(location = 0) out vec4 v_color;

void main()
{
    vec4 acc = weights + vec4(bones) + vec4(ids, uv);
    acc += vec4(texelFetch(_b27_samplerBuffer_[(_pc_.index14 >> 16)], 0)); // slot 29
    acc += vec4(texelFetch(_b28_isamplerBuffer_[(_pc_.index2 & 0xFFFFu)], 0)); // slot 4
    acc += vec4(texelFetch(_b29_usamplerBuffer_[(_pc_.index5 >> 16)], 0)); // slot 11
    acc += vec4(_robuffers_Ro_t_[(_pc_.index9 & 0xFFFFu)]._data_[0].v); // slot 18
    gl_Position = vec4(basis * vec3(cell), 1.0);
    v_color = acc;
}
