/* SPDX-License-Identifier: MIT */
/*
 * DXIL mesh and amplification test programs (issue #18, concern 6), written with
 * dxil_program_writer.h: what tests/dxil_front/test_dxil_front_mesh.c translates and
 * checks word by word. Each writes one container to `out`; false when the writer fails.
 */
#ifndef SB_TEST_DXIL_PROGRAMS_MESH_H
#define SB_TEST_DXIL_PROGRAMS_MESH_H

#include <stdbool.h>

#include "dxc_container_writer.h"

/**
 * Mesh shader, numthreads(3,1,1), MSState: 3 vertices, 1 primitive, triangles, an
 * 8-byte payload ([2 x i32]). SetMeshOutputCounts(3, 1); thread t writes vertex t's
 * SV_Position = (float(t), 0.5, 0, 1); EmitIndices(0, 0, 1, 2); primitive 0 gets
 * COLOR (row 0, float4) = (0.25, 0.5, 0.75, 1) and PRIM_TAG (row 1, uint) = payload[1].
 */
bool dxil_program_ms_triangle(struct tbuf *out);

/**
 * Amplification shader, numthreads(4,1,1), ASState: an 8-byte payload, the groupshared
 * global @payload = [2 x i32]: payload[0] = the flattened thread id t, payload[1] = 7,
 * payload[t] = t (a dynamic index), then DispatchMesh(2, 1, 1, @payload).
 */
bool dxil_program_as_payload(struct tbuf *out);

#endif
