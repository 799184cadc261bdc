/* SPDX-License-Identifier: MIT */
/*
 * DXIL programs of the newer system values (SV_ViewID, IsHelperLane, SV_Barycentrics,
 * SV_ShadingRate; translator/src/dxil/ir_from_dxil_sysvals.c), written with
 * dxil_program_writer.h, each standing for the HLSL in its comment in
 * dxil_programs_sysvals.c. Each appends a whole dxc-shaped container to `out`; false, with a
 * message on stderr, if the writer rejected the program.
 */
#ifndef SB_TEST_DXIL_PROGRAMS_SYSVALS_H
#define SB_TEST_DXIL_PROGRAMS_SYSVALS_H

#include <stdbool.h>

#include "dxc_container_writer.h"

/** vs_6_1: SV_Position = (float(SV_VertexID), 0.5, 0, 1), VIEW (uint, o1.x) = SV_ViewID + 7. */
bool dxil_program_vs_view_id(struct tbuf *out);
/** vs_6_8: SV_Position = (id, 0.5, 0, 1) from SV_VertexID, o1.x (BASE) =
 *  StartVertexLocation + 1000 StartInstanceLocation + 7. */
bool dxil_program_vs_start_location(struct tbuf *out);
/** ps_6_6: h = IsHelperLane() ? 1.0 : 0.0; SV_Target0 = (h, QuadReadAcrossX(h),
 *  QuadReadAcrossY(h), QuadReadAcrossDiagonal(h)). */
bool dxil_program_ps_helper_lane(struct tbuf *out);
/** The helper lanes set h = 1 in a branch the pixel skips (h = 2); then the quad reads h. */
bool dxil_program_ps_helper_branch(struct tbuf *out);
/** h = 1 in helper lanes, 2 in the pixel; the helpers discard; then the quad reads h. */
bool dxil_program_ps_helper_discard(struct tbuf *out);
/** Each quad lane loads t0[lane] (a StructuredBuffer<float>); then the quad reads it. */
bool dxil_program_ps_helper_load(struct tbuf *out);
/** ps_6_1: b = SV_Barycentrics (linear), n = SV_Barycentrics1 (noperspective), both
 *  unallocated in the signature: SV_Target0 = (b.x, b.y + 2 * b.z, 4 * n.x, n.y + n.z). */
bool dxil_program_ps_barycentrics(struct tbuf *out);
/** vs_6_4: SV_Position = (float(SV_VertexID), 0.5, 0, 1), SV_ShadingRate (o1.x) =
 *  0x4 | (SV_VertexID & 1): D3D12_SHADING_RATE_2X1 for even vertices, 2X2 for odd ones. */
bool dxil_program_vs_shading_rate(struct tbuf *out);
/** ps_6_4: r = SV_ShadingRate (v1.x): SV_Target0 = (float(r + 1), float(r >> 2),
 *  float(r & 3), 1). */
bool dxil_program_ps_shading_rate(struct tbuf *out);
/** ps_6_1: SV_Target0.x = GetAttributeAtVertex(COLOR.x, 1), COLOR nointerpolation: the
 *  front end refuses attributeAtVertex (the IR has no per-vertex pixel inputs). */
bool dxil_program_ps_attribute_at_vertex(struct tbuf *out);

#endif
