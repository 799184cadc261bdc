// Vertex stage of the "basic" VBC test shader, written the way vslc lays
// out generated GLSL (../shared/docs/vbc.md §6, §10): set-0 tables, uniform at set 1,
// push-constant table indices (slots 0..2 -> 2 words).
#version 450
#extension GL_EXT_scalar_block_layout : require

struct Uniform_t { mat4 mvp; vec2 scale; int mode; uint flags; };
layout(set = 1, binding = 0, scalar) uniform _Uniform_ { Uniform_t _data_; } _uniform_;

struct Particle_t { vec4 pos; vec4 vel; vec4 col; vec4 extra; };
layout(set = 0, binding = 2, scalar) readonly buffer _ROBuffer_Particle_t_ {
    Particle_t _data_[];
} _robuffers_Particle_t_[512];

layout(push_constant) uniform _PushConstants_ { uint index0; uint index1; } _pc_;

layout(location = 0) in vec3 pos;
layout(location = 1) in vec2 uv;
layout(location = 0) out vec2 _local_uv;

void main()
{
    Particle_t p = _robuffers_Particle_t_[_pc_.index0 >> 16]._data_[gl_VertexIndex];
    vec3 scaled = pos * vec3(_uniform_._data_.scale, 1.0) + p.pos.xyz;
    gl_Position = _uniform_._data_.mvp * vec4(scaled, 1.0);
    _local_uv = uv;
}
