/* SPDX-License-Identifier: MIT */
/*
 * Five DXIL programs written with dxil_program_writer.h, each standing for the
 * HLSL in its comment in dxil_programs.c, for known-answer tests of the DXIL
 * front end (dxc does not run here). Each appends a whole dxc-shaped
 * container (SFI0, ISG1, OSG1, PSV0, DXIL) to `out` and returns false, with
 * a message on stderr, if the writer rejected the program.
 */
#ifndef SB_TEST_DXIL_PROGRAMS_H
#define SB_TEST_DXIL_PROGRAMS_H

#include <stdbool.h>

#include "dxc_container_writer.h"

/** cs_6_0, numthreads(8,1,1): u0 (raw) [i*4] = i*2+1, i = SV_DispatchThreadID.x. */
bool dxil_program_cs_store(struct tbuf *out);
/** vs_6_0: POSITION float4 -> SV_Position, TEXCOORD0 float2 -> TEXCOORD0. */
bool dxil_program_vs_passthrough(struct tbuf *out);
/** ps_6_0: SV_Target0 = float4(TEXCOORD0.xy, 0, 1) * cb0[0]. */
bool dxil_program_ps_scale(struct tbuf *out);
/** cs_6_0, numthreads(1,1,1): u0[0] = sum of 0..n-1, n = cb0[0].x (loop, branch, phis). */
bool dxil_program_cs_loop(struct tbuf *out);
/** cs_6_0, numthreads(8,1,1): groupshared g[t] = t*t, barrier, u0[t*4] = g[7-t]. */
bool dxil_program_cs_groupshared(struct tbuf *out);
/** cs_groupshared as cs_6_8 with Barrier(memory, semantics) (barrierByMemoryType) in place of
 *  GroupMemoryBarrierWithGroupSync(). */
bool dxil_program_cs_groupshared_barrier68(struct tbuf *out, uint32_t memory, uint32_t semantics);

/** cs_6_0, numthreads(1,1,1): u0[0..3] = asuint(FMad(x,y,z), Dot3(xyz, yzw), FMax(x, NaN),
 *  Saturate(w)) of cb0[0]; not in dxil_programs[] (the DXIL front end's math test). */
bool dxil_program_cs_math(struct tbuf *out);

/* Building blocks for other program files: createHandle(class, rangeId, register) and
 * bufferStore.i32 of one word at a byte offset (both take dxil_module_writer.h handles). */
struct dxil_module;
uint32_t dxil_programs_create_handle(struct dxil_module *m, uint8_t cls, int32_t range, int32_t reg);
void dxil_programs_store_u32(struct dxil_module *m, uint32_t handle, uint32_t offset, uint32_t value);

/** The five, for tests that walk them all. */
struct dxil_program_entry {
    const char *name;
    bool (*write)(struct tbuf *out);
};
extern const struct dxil_program_entry dxil_programs[5];

#endif
