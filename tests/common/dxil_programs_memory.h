/* SPDX-License-Identifier: MIT */
/*
 * DXIL programs for the memory, atomics and barrier tests of the DXIL front
 * end (tests/dxil_front/test_dxil_front_memory.c), written with
 * dxil_program_writer.h; each stands for the HLSL in its comment in
 * dxil_programs_memory.c. Each appends a dxc-shaped container to `out` and
 * returns false, with a message on stderr, if the writer rejected it.
 */
#ifndef SB_TEST_DXIL_PROGRAMS_MEMORY_H
#define SB_TEST_DXIL_PROGRAMS_MEMORY_H

#include <stdbool.h>

#include "dxc_container_writer.h"

/** cs_6_0, numthreads(8,1,1): a local uint[4] of (t, t+10, 3t, 100) stored at constant
 *  indices; u0[t] = a[t & 3] + a[(t + 1) & 3] (dynamic indices). */
bool dxil_program_cs_local_array(struct tbuf *out);

/** cs_6_0, numthreads(8,1,1): groupshared uint g[2], uint total and uint flag zeroed by thread 0, a
 *  barrier, then InterlockedAdd(g[0], 1, old), InterlockedOr(g[1], 1 << t) and
 *  InterlockedAdd(total, t), an atomicrmw sub of 1 from total; cmpxchg(flag, 0, 77) with u0 byte 144 += its success and
 *  byte 148 += its old value; InterlockedAdd on u0 (byte 0: + t+1, no result; byte 4: + 1
 *  with result r); InterlockedCompareExchange(u0 byte 8, 0, 77, orig) and u0 byte 12 +=
 *  (orig == 0); u0[4 + r] = 1, u0[12 + old] = 1; a barrier; u0[20 + t] = g[0] + g[1],
 *  u0[28 + t] = total. */
bool dxil_program_cs_atomics(struct tbuf *out);

/** cs_6_0, numthreads(8,1,1): groupshared float4 v[8] (an array of vectors) and
 *  struct { uint a; uint b[3]; } s[8] (of structs with an array): thread t writes
 *  v[t].y = t and s[t].b[2] = 10 t, a barrier, then u0[t] = asuint(v[7 - t].y) and
 *  u0[8 + t] = s[(t + 1) & 7].b[2]; the path constants fold, the indices are dynamic. */
bool dxil_program_cs_groupshared_paths(struct tbuf *out);

/** cs_6_0, numthreads(8,1,1): static const uint table[4] = { 3, 1, 4, 1 } (an initialised
 *  constant global); u0[t] = table[t & 3] * 10 + table[2]. */
bool dxil_program_cs_constant_array(struct tbuf *out);

/** cs_6_0, numthreads(8,1,1): static uint s[4] = { 5, 6, 7, 8 } (an initialised global,
 *  per thread); s[t & 3] = t; u0[t] = s[0] + s[1] + s[2] + s[3]. */
bool dxil_program_cs_static_array(struct tbuf *out);

/** cs_6_0, numthreads(8,1,1), atomics on every UAV shape: u1 RWStructuredBuffer<uint2>
 *  (InterlockedAdd(u1[t & 3].y, t + 1); InterlockedCompareExchange(u1[0].x, 0, 99, orig)),
 *  u2 RWBuffer<uint> (InterlockedAdd(u2[t & 1], 1, r)), u3 RWTexture2D<uint> 2x2
 *  (InterlockedOr(u3[uint2(t & 1, t >> 2)], 1 << t)); u0 (raw) byte 0 += r, byte 4 +=
 *  (orig == 0). */
bool dxil_program_cs_uav_atomics(struct tbuf *out);

/** Refused: cs_6_0, numthreads(8,1,1): u0[t] = s, s an (external) global of address space
 *  0 without an initializer. */
bool dxil_program_cs_static_global(struct tbuf *out);

#endif
