/* SPDX-License-Identifier: MIT */
/*
 * A DXIL hull shader and the domain shader it feeds, written with
 * dxil_program_writer.h, each standing for the HLSL in its comment in
 * dxil_programs_tess.c, for known-answer tests of the DXIL front end's hull
 * and domain stages (dxc does not run here). Both use the same patch-constant
 * layout, as dxc packs it:
 *
 *   row 0: CORNER.xy (cols 0-1), SV_TessFactor[0] (col 3)
 *   row 1: SV_TessFactor[1] (col 3)     row 2: SV_TessFactor[2] (col 3)
 *   row 3: SV_InsideTessFactor (col 0)
 *
 * and the control point { float4 pos : POSITION } in register 0. Each
 * appends a whole dxc-shaped container (SFI0, ISG1, OSG1, PSG1, PSV0, DXIL)
 * to `out` and returns false, with a message on stderr, if the writer
 * rejected the program.
 */
#ifndef SB_TEST_DXIL_PROGRAMS_TESS_H
#define SB_TEST_DXIL_PROGRAMS_TESS_H

#include <stdbool.h>

#include "dxc_container_writer.h"

/** hs_6_0, tri domain, integer partitioning, triangle_cw, 3 -> 3 control points,
 *  max tess factor 16: each output control point copies input control point
 *  SV_OutputControlPointID; the patch-constant function writes the edge factors
 *  cb0[0].xyz, the inside factor cb0[0].w, CORNER.x = output control point 2's pos.y
 *  (loadOutputControlPoint) and CORNER.y = input control point 1's pos.x (loadInput). */
bool dxil_program_hs_tri(struct tbuf *out);

/** hs_6_0 as hs_tri but broken the way the DXIL validator forbids: the control-point
 *  function also calls storePatchConstant (a patch-constant function's op), which the
 *  front end must refuse, not place. */
bool dxil_program_hs_misplaced_store(struct tbuf *out);

/** hs_tri with a null entry function: dx.entryPoints names no control-point function,
 *  D3D's pass-through (each output control point is the input one of its index); the
 *  patch-constant function as in hs_tri. */
bool dxil_program_hs_pass_through(struct tbuf *out);

/** ds_6_0, tri domain, 3 control points: SV_Position = u*p0 + v*p1 + w*p2 of
 *  SV_DomainLocation (u, v, w), TEXCOORD0.x = SV_InsideTessFactor, TEXCOORD0.y =
 *  CORNER.y (loadPatchConstant), PRIM (uint, o2.x) = SV_PrimitiveID. */
bool dxil_program_ds_tri(struct tbuf *out);

#endif
