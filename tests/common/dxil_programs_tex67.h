/* SPDX-License-Identifier: MIT */
/*
 * DXIL programs on the SM 6.7 texture operations the DXIL front end lowers to
 * IR ops of their own (translator/src/dxil/ir_from_dxil_textures.c) and on UAV
 * counters of resource-array elements (ir_from_dxil_buffers.c) and on SM 6.6
 * compute-shader derivatives (ir_from_dxil_derivatives.c), written
 * with dxil_program_writer.h, each standing for the HLSL in its comment in
 * dxil_programs_tex67.c. Each appends a whole dxc-shaped container to `out`
 * and returns false, with a message on stderr, if the writer rejected it.
 */
#ifndef SB_TEST_DXIL_PROGRAMS_TEX67_H
#define SB_TEST_DXIL_PROGRAMS_TEX67_H

#include <stdbool.h>
#include <stdint.h>

#include "dxc_container_writer.h"

/** cs_6_7, numthreads(2,1,1): Texture2D<float> t0, SamplerComparisonState s0,
 *  RWByteAddressBuffer u0; thread i at LOD i: u0[2i] = t0.SampleCmpLevel(s0, (0.625, 0.25),
 *  0.3, i), u0[2i + 1] = the same with the reference 0.6. */
bool dxil_program_tex67_sample_cmp_level(struct tbuf *out);
/** cs_6_8, numthreads(2,1,1): the same with SampleCmpGrad, ddx = (0.25 (1 + id.x), 0) and
 *  ddy = 0, so thread x samples level x. */
bool dxil_program_tex68_sample_cmp_grad(struct tbuf *out);
/** cs_6_8, numthreads(2,2,1) (one quad): u0[2 id.y + id.x] = t0.SampleCmpBias(s0,
 *  (0.125 + 0.25 id.x, 0.25), 0.1, bias id.y) (the quad's LOD is 0). */
bool dxil_program_tex68_sample_cmp_bias(struct tbuf *out);
/** cs_6_0, numthreads(1,1,1): RWStructuredBuffer<uint> u[2] : register(u0), each with a
 *  counter: a = u[0].IncrementCounter(), b = u[1].IncrementCounter(),
 *  c = u[1].IncrementCounter(), d = u[id.x].DecrementCounter() (a dynamic index);
 *  u[0][0..3] = (a, b, c, d). */
bool dxil_program_tex67_counter_array(struct tbuf *out);
/** cs_6_6, numthreads(threads_x, threads_y, 1): Texture2D<float> t0, SamplerState s0,
 *  RWByteAddressBuffer u0; thread (x, y), i = x + threads_x * y: v = x*x + 10*y*y + 100*x*y,
 *  u0 at byte 12 i = (ddx_fine(v), ddy_coarse(v),
 *  t0.CalculateLevelOfDetailUnclamped(s0, (0.25 x, 0.125 y))). */
bool dxil_program_tex67_derivatives(struct tbuf *out, uint32_t threads_x, uint32_t threads_y);

/** cs_6_7, numthreads(2,2,1): RWTexture2DMS<float4, 4> u0, RWByteAddressBuffer u1; thread
 *  (x, y), s = x + 2y: u0.sample[s][(x, y)] = (x, y, 100 + s, 1) (textureStoreSample), then
 *  u1[s] = u0.sample[s][(x, y)].z (textureLoad of the multisampled UAV). */
bool dxil_program_tex67_store_sample(struct tbuf *out);

#endif
