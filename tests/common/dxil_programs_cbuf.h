/* SPDX-License-Identifier: MIT */
/*
 * DXIL programs for the DXIL front end's constant-buffer reads through 16- and 64-bit
 * overloads (ir_from_dxil_cbuf.c), structured buffers of strides that are not a multiple
 * of 4 (ir_from_dxil_narrow_structured.c), gathers with 16-bit overloads
 * (ir_from_dxil_gather16.c) and 64-bit buffer elements (ir_from_dxil_buffers64.c), written
 * with dxil_program_writer.h. All are cs_6_2 with native 16-bit types and write 32-bit
 * words to u0 (a RWByteAddressBuffer); the cbuffer ones read cb0 (48 bytes: 3 rows). Each
 * appends a whole dxc-shaped container to `out` and returns false, with a message on
 * stderr, if the writer rejected it.
 */
#ifndef SB_TEST_DXIL_PROGRAMS_CBUF_H
#define SB_TEST_DXIL_PROGRAMS_CBUF_H

#include <stdbool.h>

#include "dxc_container_writer.h"

/** Bytes of cb0 the programs read. */
#define DXIL_CBUF_BYTES 48u

/** numthreads(1,1,1), cbufferLoadLegacy with CBufRet.i16.8 / .f16.8; t = thread id (0):
 *  r = row t + 1 (a dynamic row): u0[0] = zext r[1], u0[1] = zext r[3], u0[2] = zext r[6];
 *  h = row 2 (.f16.8): u0[3] = asuint((float)h[1]). */
bool dxil_program_cbuf_legacy16(struct tbuf *out);
/** numthreads(1,1,1), cbufferLoadLegacy with CBufRet.i64 / .f64: a = row 0 (.i64),
 *  s = a[0] + a[1]: u0[0] = low word of s, u0[1] = high word; d = row 2 (.f64):
 *  u0[2] = asuint((float)(d[1] * 3.0)). */
bool dxil_program_cbuf_legacy64(struct tbuf *out);
/** numthreads(2,1,1), cbufferLoad (non-legacy layout) at byte offsets; t = thread id:
 *  u0[8t + 0] = i32 at 20, u0[8t + 1] = zext i16 at 26, u0[8t + 2] = zext i16 at 6 + 6t,
 *  u0[8t + 3], u0[8t + 4] = low, high word of the i64 at 12 + 8t (alignment 4: t = 0
 *  straddles rows 0 and 1), u0[8t + 5] = i32 at 28 + 4t, u0[8t + 6] = asuint((float) f16 at
 *  34), u0[8t + 7] = asuint((float) f64 at 40). */
bool dxil_program_cbuf_modern(struct tbuf *out);
/** numthreads(2,1,1), the structured strides that are not a multiple of 4: t0
 *  StructuredBuffer<uint16_t> (stride 2), u1 RWStructuredBuffer<uint16_t3> (stride 6);
 *  t = thread id: a = t0[2t + 1]; u1[t + 1].y = a + 1; u0[t] = a (rawBufferLoad/Store.i16). */
bool dxil_program_cbuf_narrow_structured(struct tbuf *out);
/** numthreads(1,1,1), gathers with 16-bit overloads: t0 Texture2D<int16_t>, t1
 *  Texture2D<half>, s0; red gathered at (0.5, 0.5): u0[0..3] = zext of t0's i16 lanes,
 *  u0[4..7] = asuint((float) t1's f16 lanes). */
bool dxil_program_cbuf_gather16(struct tbuf *out);
/** numthreads(1,1,1), 64-bit elements: t0 StructuredBuffer<uint64_t2> (stride 16):
 *  v = t0[1] (rawBufferLoad.i64, mask xy); u0 bytes 0-7 = v.y (mask x), bytes 8-23 =
 *  (v.x + v.y, v.x) (rawBufferStore.i64, mask xy). */
bool dxil_program_cbuf_buffer64(struct tbuf *out);

#endif
