/* SPDX-License-Identifier: MIT */
/*
 * DXIL programs writing sampler feedback (SM 6.5, dx.op 174-177; the DXIL
 * front end's ir_from_dxil_feedback.c), written with dxil_program_writer.h,
 * each standing for the HLSL in its comment in dxil_programs_feedback.c. Each
 * appends a whole dxc-shaped container to `out` and returns false, with a
 * message on stderr, if the writer rejected it.
 */
#ifndef SB_TEST_DXIL_PROGRAMS_FEEDBACK_H
#define SB_TEST_DXIL_PROGRAMS_FEEDBACK_H

#include <stdbool.h>

#include "dxc_container_writer.h"

/** cs_6_5, numthreads(1,1,1): Texture2D<float> t0, SamplerState s0,
 *  FeedbackTexture2D<SAMPLER_FEEDBACK_MIN_MIP> u0, FeedbackTexture2D<
 *  SAMPLER_FEEDBACK_MIP_REGION_USED> u1; the same five WriteSamplerFeedbackLevel calls on
 *  each map: (0.1, 0.1) LOD 2, (0.1, 0.1) LOD 1.5, (0.9, 0.3) LOD 3.7, (0.6, 0.6) LOD -1,
 *  (1.5, 0.55) LOD 9. */
bool dxil_program_feedback_level(struct tbuf *out);
/** cs_6_5, numthreads(1,1,1): Texture2DArray<float> t0, SamplerState s0,
 *  FeedbackTexture2DArray<SAMPLER_FEEDBACK_MIN_MIP> u0: WriteSamplerFeedbackGrad at
 *  (0.3, 0.7, slice 1.4) ddx (0.3, 0) ddy (0, 0.0625); at (0.3, 0.7, 0.5) ddx (0.5, 0.5)
 *  ddy (0, 0) clamp 1; at (0.05, 0.05, 7) ddx (0.01, 0) ddy (0, 0.01) clamp 2.5; and
 *  WriteSamplerFeedbackLevel at (0.99, 0.99, 0) LOD 0. */
bool dxil_program_feedback_grad_array(struct tbuf *out);
/** ps_6_5: the same resources as dxil_program_feedback_level; input TEXCOORD0 uv;
 *  WriteSamplerFeedback(u0, t0, s0, uv) and WriteSamplerFeedbackBias(u1, t0, s0,
 *  uv, bias 1): implicit LOD from the quad's derivatives. */
bool dxil_program_feedback_implicit(struct tbuf *out);
/** cs_6_5: the writes of dxil_program_feedback_implicit at uv (0.5, 0.5) in a compute
 *  shader, which has no derivatives for them. */
bool dxil_program_feedback_implicit_cs(struct tbuf *out);

#endif
