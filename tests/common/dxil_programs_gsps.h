/* SPDX-License-Identifier: MIT */
/*
 * DXIL programs of the geometry / pixel / system-value concern of the DXIL
 * front end (issue #18; translator/src/dxil/ir_from_dxil_{io,geometry,pixel}.c),
 * written with dxil_program_writer.h, each standing for the HLSL in its comment
 * in dxil_programs_gsps.c (dxc does not run here). Each appends a whole
 * dxc-shaped container to `out`; false, with a message on stderr, if the writer
 * rejected the program.
 */
#ifndef SB_TEST_DXIL_PROGRAMS_GSPS_H
#define SB_TEST_DXIL_PROGRAMS_GSPS_H

#include <stdbool.h>

#include "dxc_container_writer.h"
#include "dxil_program_writer.h"

/** gs_6_0, point -> triangle strip, maxvertexcount(3), 2 instances: each input point
 *  (SV_Position p, COLOR c) emits (p + (0,0,0,0), p + (1,0,0,0), p + (0,1,0,0)), each with
 *  COLOR (c.xy, float(SV_GSInstanceID), float(SV_PrimitiveID)), then cuts the strip. */
bool dxil_program_gs_triangle(struct tbuf *out);
/** The same body under another GSState (malformed ones included: the writer copies it). */
bool dxil_program_gs_triangle_state(const struct dxil_gs_state *gs, struct tbuf *out);
/** ps_6_0: discard where TEXCOORD0.x < 0; else SV_Target0 = (ddx_fine(pos.x * pos.x),
 *  ddy_coarse(pos.y * pos.y), TEXCOORD0.x, 1). */
bool dxil_program_ps_discard_ddx(struct tbuf *out);
/** ps_6_0: an input array indexed by another input, packed columns, SV_IsFrontFace and
 *  SV_Depth: v = COLORS[min(SEL, 2)] (3 rows, dynamic row); SV_Target0 = (v, PAIR.x, PAIR.y,
 *  front ? 1 : 0) with PAIR in columns 2-3 of SEL's row; SV_Depth = v * 0.5. */
bool dxil_program_ps_rows(struct tbuf *out);
/** ps_6_0: UV linear float2, OFF nointerpolation int: SV_Target0 =
 *  (EvaluateAttributeSnapped(UV, int2(7, 0)).x, EvaluateAttributeSnapped(UV, int2(0, OFF)).y,
 *  EvaluateAttributeCentroid(UV).x, UV.y): a constant and a computed offset. */
bool dxil_program_ps_eval(struct tbuf *out);
/** ps_6_1: SV_Target0 = (float(SV_ViewID), 0, 0, 1) (run by test_dxil_front_sysvals). */
bool dxil_program_ps_view_id(struct tbuf *out);
/** vs_6_0: SV_Position = (float(SV_VertexID), 0.5, 0, 1), TEXCOORD0 (uint) = id * 3 + 1,
 *  ARR[id & 1] (uint, 2 rows) = id + 100 (a dynamic output row; the other row unwritten). */
bool dxil_program_vs_vertex_id(struct tbuf *out);

#endif
