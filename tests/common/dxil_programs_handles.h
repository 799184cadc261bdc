/* SPDX-License-Identifier: MIT */
/*
 * DXIL programs for the resource-handle tests of the DXIL front end
 * (tests/dxil_front/test_dxil_front_handles.c): resource arrays indexed by a
 * constant and by a computed index, ranges in register space 1, SM 6.6
 * createHandleFromBinding + annotateHandle, and handles the front end must
 * refuse. Each stands for the HLSL in its comment in dxil_programs_handles.c
 * and appends a whole dxc-shaped container to `out`; false (with a message on
 * stderr) if the writer rejected it.
 */
#ifndef SB_TEST_DXIL_PROGRAMS_HANDLES_H
#define SB_TEST_DXIL_PROGRAMS_HANDLES_H

#include <stdbool.h>

#include "dxc_container_writer.h"

/** cs_6_0, numthreads(4,1,1), RWByteAddressBuffer bufs[4] : register(u2), cb0.x = k:
 *  bufs[1][t] = t + 100 (constant index); j = (t + k) & 3 (non-uniform):
 *  bufs[j][4 + t] = bufs[j][8] + t. */
bool dxil_program_cs_handle_array(struct tbuf *out);
/** cs_6_0, numthreads(2,1,1), ConstantBuffer cbs[2] : register(b1, space1),
 *  RWByteAddressBuffer o : register(u5, space1); i = SV_GroupID.x * 2 + SV_GroupIndex:
 *  o[2i] = cbs[0].x + cbs[1].y, o[2i + 1] = cbs[SV_GroupID.x].z. */
bool dxil_program_cs_handle_space1(struct tbuf *out);
/** cs_6_6, numthreads(1,1,1), cb0 : register(b0) with k at x, RWByteAddressBuffer
 *  bufs[3] : register(u1, space2), every handle from createHandleFromBinding + annotateHandle:
 *  bufs[k][0] = k + 7, bufs[2][1] = 99. */
bool dxil_program_cs_handle_sm66(struct tbuf *out);

/** cs_6_6, numthreads(2,1,1), cb0 : register(b0) with k at x, SM 6.6 descriptor heap:
 *  ByteAddressBuffer src = ResourceDescriptorHeap[0];
 *  RWByteAddressBuffer dst = ResourceDescriptorHeap[NonUniformResourceIndex(k + t)];
 *  dst.Store(t * 4, src.Load(t * 4) + 50). */
bool dxil_program_cs_handle_heap(struct tbuf *out);

/** cs_6_0, numthreads(2,1,1), RWByteAddressBuffer bufs[2] : register(u4):
 *  if (t != 0) bufs[NonUniformResourceIndex(t - 1)].Store(0, t + 5): thread 0, which skips
 *  the store, holds register 3 as its index, outside the range. */
bool dxil_program_cs_handle_guarded(struct tbuf *out);

/** Handles the front end refuses, one per program. */
enum dxil_bad_handle {
    DXIL_BAD_HANDLE_OUT_OF_RANGE,   /**< createHandle of u6 from the range u2..u5 (invalid) */
    DXIL_BAD_HANDLE_SELECT,         /**< a store through select(c, h0, h1) (not translated) */
    DXIL_BAD_HANDLE_HEAP,           /**< a store through createHandleFromHeap without annotateHandle
                                         (invalid) */
    DXIL_BAD_HANDLE_PROPERTIES,     /**< annotateHandle saying "Texture2D" of a raw UAV (invalid) */
    DXIL_BAD_HANDLE_SAMPLER_HEAP,   /**< a SamplerDescriptorHeap element annotated as a raw UAV
                                         (invalid) */
    DXIL_BAD_HANDLE_COUNT
};
/** A cs_6_6 program (6_0 for OUT_OF_RANGE and SELECT) built around bad handle `which`. */
bool dxil_program_cs_bad_handle(enum dxil_bad_handle which, struct tbuf *out);

#endif
