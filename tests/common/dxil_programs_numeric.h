/* SPDX-License-Identifier: MIT */
/*
 * DXIL programs for the numeric known-answer tests of the DXIL front end
 * (tests/dxil_front/test_dxil_front_numeric.c): integer, 16/64-bit, float
 * predicate and wave operations, each standing for the HLSL in its comment in
 * dxil_programs_numeric.c. All are compute programs reading cb0[0] (four
 * words) and writing words of the raw buffer u0; each appends a dxc-shaped
 * container to `out` and returns false, with a message on stderr, if the
 * writer rejected it.
 */
#ifndef SB_TEST_DXIL_PROGRAMS_NUMERIC_H
#define SB_TEST_DXIL_PROGRAMS_NUMERIC_H

#include <stdbool.h>

#include "dxc_container_writer.h"

/** cs_6_2, (a, b, c, d) = cb0[0] as int: u0[0..9] = a / b, a % b, countbits(a),
 *  FirstbitHi(a), FirstbitLo(a), Bfi(c, d, a, b), Ibfe(c, d, a), (uint16_t)(a16 * a16),
 *  (int)(int16_t)(a16 + a16), a16 < b16 (signed) with a16 = (int16_t)a, b16 = (int16_t)b. */
bool dxil_program_numeric_int(struct tbuf *out);
/** cs_6_2, A = cb0[0].y:x, B = cb0[0].w:z as uint64: u0[0..7] = A * B, A / B (unsigned),
 *  A << B, A >> B (arithmetic), each as (low, high) words. */
bool dxil_program_numeric_int64(struct tbuf *out);
/** cs_6_2 with native 16-bit types, (x, y, z, w) = cb0[0] as float: u0[0..6] =
 *  isunordered(x, y), !(x < y || x > y) (ueq), x < y || x > y (one), asuint16(half(x)),
 *  asuint(float(half(x) + half(z))), splitDouble(fma(double(x), double(z), double(w))),
 *  Dot2AddHalf(w, half2(x, z), half2(z, x)). */
bool dxil_program_numeric_float(struct tbuf *out);
/** cs_6_2 with native 16-bit types, (x, y, z, w) = cb0[0] as float: u0[0..4] = fmod(x, y),
 *  fmod(z, w) (LLVM frem on float), asuint16(fmod(half(x), half(y))) zero-extended, and the
 *  frem of x, y and of z, w as doubles, rounded to float. */
bool dxil_program_numeric_frem(struct tbuf *out);
/** cs_6_2 with native 16-bit types, (x, y, z, w) = cb0[0] as float: u0[0..6] = acos(x),
 *  asin(x), atan(x), atan(y), acos(z), asin(z) and asuint16(atan(half(w))) zero-extended. */
bool dxil_program_numeric_inverse_trig(struct tbuf *out);
/** cs_6_2 with native 16-bit types and int64, (a, b, c, d) = cb0[0] as uint, s = (uint16_t)a,
 *  L = d:c as uint64: u0[0..10] = Countbits, FirstbitLo, FirstbitHi, FirstbitSHi of s (the
 *  dx.ops), Bfrev(s) zero-extended, the four of L, Bfrev(L) as (low, high). */
bool dxil_program_numeric_bits_wide(struct tbuf *out);
/** cs_6_2 with native 16-bit types, (a, b, c, d) = cb0[0] as uint, s = (int16_t)a,
 *  t = (int16_t)c, A = b:a, B = d:c as int64: u0[0..3] = IMax, IMin, UMax, UMin of s, t
 *  (zero-extended), u0[4..11] the same of A, B as (low, high), u0[12..13] IMad(s, t, s),
 *  UMad(s, t, t), u0[14..17] IMad(A, B, A), UMad(A, B, B) as (low, high). */
bool dxil_program_numeric_int_wide(struct tbuf *out);
/** cs_6_6 with native 16-bit types, (a, b, c, d) = cb0[0] as int: u0[0..12] =
 *  Unpack4x8(signed, a) as 4 x i32, Pack4x8 of (a, b, c, d) clamped signed and unsigned,
 *  Dot4AddI8Packed(d, a, c), Dot4AddU8Packed(d, a, c), Pack4x8 of the i16 truncations
 *  clamped signed, Unpack4x8(signed, a) as 4 x i16 zero-extended. */
bool dxil_program_numeric_packed(struct tbuf *out);
/** cs_6_2 with native 16-bit types, o = cb0[0].x: four uint16 elements loaded from u0
 *  byte o and stored at byte 32 + o; u0[16..18] = element 0, element 3 and the f32 bits of
 *  the half at byte 16 + o. */
bool dxil_program_numeric_buffer16(struct tbuf *out);
/** cs_6_0, n = cb0[0].x: a do-while loop whose phis carry acc (i64, 1, then acc * 3 + i)
 *  and d (double, 0, then d / 2 + 1) for i = 0 .. max(n, 1) - 1; u0[0..3] = acc and d as
 *  (low, high) words. */
bool dxil_program_numeric_loop64(struct tbuf *out);
/** cs_6_5, numthreads(64,1,1), t = SV_GroupIndex: u0[8t..8t+7] = WaveActiveSum(t),
 *  WavePrefixSum(t), QuadReadAcrossX(t), WaveMatch(t & 3).xy, and over the lanes of t's
 *  parity (mask 0x55555555 << (t & 1)): WaveMultiPrefixSum(t), WaveMultiPrefixBitOr(t),
 *  WaveMultiPrefixCountBits(t % 3 == 0). */
bool dxil_program_numeric_wave(struct tbuf *out);

/** cs_6_2 with native 16-bit types, i = cb0[0].x, u0 a structured buffer of
 *  { int16_t a; half3 b; } (stride 8): u0[i + 1].b = u0[i].b * 2, u0[i + 1].a = u0[i].a + 1. */
bool dxil_program_numeric_structured16(struct tbuf *out);
/** vs_6_2 with native 16-bit types: half2 TEXCOORD0 in, v * 2 + 1 out (16-bit elements). */
bool dxil_program_numeric_vs_half(struct tbuf *out);
/** One construct the numeric lowering refuses: which = 0 Ibfe of an i64, 1 an i1 add,
 *  2 three 64-bit raw
 *  buffer elements (rawBufferLoad.i64 of mask xyz: six words). */
bool dxil_program_numeric_refused(struct tbuf *out, unsigned which);

#endif
