/* SPDX-License-Identifier: MIT */
/*
 * DXIL programs on the SM 6.7 texture operations the DXIL front end lowers to
 * IR ops of their own (translator/src/dxil/ir_from_dxil_textures.c), written
 * with dxil_program_writer.h, each standing for the HLSL in its comment in
 * dxil_programs_tex67.c. Each appends a whole dxc-shaped container to `out`
 * and returns false, with a message on stderr, if the writer rejected it.
 */
#ifndef SB_TEST_DXIL_PROGRAMS_TEX67_H
#define SB_TEST_DXIL_PROGRAMS_TEX67_H

#include <stdbool.h>

#include "dxc_container_writer.h"

/** cs_6_7, numthreads(2,1,1): Texture2D<float> t0, SamplerComparisonState s0,
 *  RWByteAddressBuffer u0; thread i at LOD i: u0[2i] = t0.SampleCmpLevel(s0, (0.625, 0.25),
 *  0.3, i), u0[2i + 1] = the same with the reference 0.6. */
bool dxil_program_tex67_sample_cmp_level(struct tbuf *out);

#endif
