/* SPDX-License-Identifier: MIT */
/*
 * DXIL writer programs of the SM 6.6 64-bit atomics (tests/dxil_front/test_dxil_front_atomic64.c;
 * translator/src/dxil/ir_from_dxil_atomic64.c). Each comment gives the HLSL the program is
 * dxc's translation of; the known answers are in the test.
 */
#ifndef SB_TEST_DXIL_PROGRAMS_ATOMIC64_H
#define SB_TEST_DXIL_PROGRAMS_ATOMIC64_H

#include <stdbool.h>

#include "dxc_container_writer.h"

/** The slot each operation of dxil_program_atomic64_raw works on (8 bytes each, byte 8k). */
enum atomic64_raw_slot {
    ATOMIC64_SLOT_ADD, ATOMIC64_SLOT_AND, ATOMIC64_SLOT_OR, ATOMIC64_SLOT_XOR,
    ATOMIC64_SLOT_IMIN, ATOMIC64_SLOT_IMAX, ATOMIC64_SLOT_UMIN, ATOMIC64_SLOT_UMAX,
    ATOMIC64_SLOT_EXCHANGE, ATOMIC64_SLOT_CMP_HIT, ATOMIC64_SLOT_CMP_MISS,
    ATOMIC64_SLOT_ADD_NO_RETURN, ATOMIC64_SLOT_CMP_NO_RETURN, ATOMIC64_SLOT_COUNT
};
/** Byte at which dxil_program_atomic64_raw stores the old value of slot k (k < 11): 128 + 8k. */
#define ATOMIC64_RESULTS_BYTE 128u

/** cs_6_6, numthreads(1,1,1), RWByteAddressBuffer u0: slot k (byte 8k) gets the operation of
 *  enum atomic64_raw_slot with the operands atomic64_raw_operands gives (value; compare for
 *  the exchanges); slots 0..10 store the old value at ATOMIC64_RESULTS_BYTE + 8k
 *  (rawBufferStore.i64), slots 11 and 12 discard it (InterlockedAdd / InterlockedCompareStore). */
bool dxil_program_atomic64_raw(struct tbuf *out);
/** The value (and compare value) slot `slot` of dxil_program_atomic64_raw uses. */
void atomic64_raw_operands(unsigned slot, unsigned long long *value, unsigned long long *compare);

/** cs_6_6, numthreads(4,1,1), RWStructuredBuffer<{int64_t a; uint64_t b;}> u0 (stride 16):
 *  InterlockedAdd(u0[t & 1].b, (uint64_t)(t + 1) * 0x80000000);
 *  InterlockedMin(u0[t & 1].a, (int64_t)((int)t - 2)); — structured addresses, carries and
 *  signed min from several invocations (both commute: no old value is read). */
bool dxil_program_atomic64_structured(struct tbuf *out);

/** Refused: cs_6_6, numthreads(1,1,1), groupshared uint64_t g; InterlockedAdd(g, 1)
 *  (atomicrmw add i64 on groupshared memory). */
bool dxil_program_atomic64_groupshared(struct tbuf *out);

#endif
