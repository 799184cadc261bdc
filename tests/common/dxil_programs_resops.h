/* SPDX-License-Identifier: MIT */
/*
 * DXIL programs on resource kinds and their operations (the DXIL front
 * end's structured, typed-buffer and texture operations), written with
 * dxil_program_writer.h, each standing for the HLSL in its comment in
 * dxil_programs_resops.c. Each appends a whole dxc-shaped container to `out`
 * and returns false, with a message on stderr, if the writer rejected it.
 */
#ifndef SB_TEST_DXIL_PROGRAMS_RESOPS_H
#define SB_TEST_DXIL_PROGRAMS_RESOPS_H

#include <stdbool.h>

#include "dxc_container_writer.h"

/** cs_6_2, numthreads(4,1,1): t0/u0 structured, stride 12 (uint a, b, c); i = thread:
 *  s = t0[i] (rawBufferLoad), bc = t0[3 - i] at byte 4 (bufferLoad, the SM 6.0 form),
 *  u0[i] = (s.a + bc.x, bc.y * 2, s.c) (rawBufferStore). */
bool dxil_program_resops_structured(struct tbuf *out);
/** cs_6_0, numthreads(2,1,1): Buffer<float4> t0, RWBuffer<uint4> u0, RWBuffer<uint> u1:
 *  v = t0[i]; u0[i] = (asuint(v.x), asuint(v.y), asuint(v.z), t0's element count);
 *  u1[i] = u1[i] * 3. */
bool dxil_program_resops_typed(struct tbuf *out);
/** cs_6_0, numthreads(1,1,1): Texture2D<float4> t0, SamplerState s0, RWByteAddressBuffer
 *  u0: u0[0..3] = t0.Load(int3(2, 1, 0)), u0[4..7] = t0.SampleLevel(s0, (0.375, 0.25), 0),
 *  u0[8] = t0.Load(int3(0, 0, 1), int2(1, 0)).x, u0[9..11] = GetDimensions(0): w, h, mips. */
bool dxil_program_resops_texture(struct tbuf *out);
/** cs_6_0, numthreads(1,1,1): RWStructuredBuffer<uint> u0 with a counter:
 *  u0[0] = u0.IncrementCounter(); u0[1] = u0.DecrementCounter(). */
bool dxil_program_resops_counter(struct tbuf *out);

/** cs_6_7, numthreads(1,1,1): SampleGrad, GatherGreen (immediate and programmable offsets),
 *  SampleCmpLevelZero, GatherCmpRed, a Texture2DMS load, sample position and dimensions, a
 *  load's residency status through CheckAccessFullyMapped, a RWTexture2D store, GatherRaw of
 *  a Texture2D<uint>, a RWTexture2D<float> load and size (the HLSL is
 *  in dxil_programs_resops.c). */
bool dxil_program_resops_sampling(struct tbuf *out);
/** ps_6_0: SampleBias (Texture1DArray, immediate offset), Sample with offsets and a LOD
 *  clamp (Texture3D), SampleGrad (TextureCube), SampleLevel (TextureCubeArray), SampleCmp
 *  (Texture2DArray), CalculateLOD clamped and unclamped, GetDimensions of a cube array, the
 *  render target's sample count and position, textureLoad and GetDimensions of the 1D array
 *  and 3D textures, from
 *  TEXCOORD0 into SV_Target0 (no known answer: checked by SPIRV-Tools and validate). */
bool dxil_program_resops_kinds(struct tbuf *out);

/** What dxil_program_resops_refusal writes: one dx.op the DXIL front end refuses. */
enum resops_refusal {
    RESOPS_REFUSE_OFFSET,    /**< sampleLevel with a texel offset that is not a constant */
    RESOPS_REFUSE_NARROW,    /**< bufferLoad.i16: a 16-bit overload */
};
/** cs_6_7, numthreads(1,1,1): the dx.op `which` names, its status stored to u0. */
bool dxil_program_resops_refusal(struct tbuf *out, enum resops_refusal which);

#endif
