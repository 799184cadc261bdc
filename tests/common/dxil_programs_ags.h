/* SPDX-License-Identifier: MIT */
/*
 * DXIL programs that use AMD AGS shader intrinsics the way AGS's HLSL helpers
 * compile (../shared/docs/dxil.md §5.4): atomicCompareExchange on a raw UAV
 * in register space 0x7FFF0ADE whose constant offset is the code word
 * (magic 5 << 28 | phase << 24 | immediate << 8 | opcode). For the DXIL front
 * end's AGS tests (tests/dxil_front, dxil_front_ags_*).
 */
#ifndef SB_TEST_DXIL_PROGRAMS_AGS_H
#define SB_TEST_DXIL_PROGRAMS_AGS_H

#include <stdbool.h>

#include "dxc_container_writer.h"

/** Threads (and test vectors) of the float8 program. */
#define DXIL_AGS_FLOAT8_THREADS 16u
/** Byte offset in u0 where the float8 program's results start (after the inputs). */
#define DXIL_AGS_FLOAT8_OUT (8u * DXIL_AGS_FLOAT8_THREADS)

/**
 * [numthreads(16, 1, 1)], u0 a RWByteAddressBuffer, MAGIC the AGS UAV (u0, space
 * 0x7FFF0ADE); thread i reads a = u0[8i] (f32 bits) and b = u0[8i + 4] (a float8 byte) and
 * writes 8 words at DXIL_AGS_FLOAT8_OUT + 32i: FP8->F32(b), BF8->F32(b), F32->FP8(a),
 * F32->BF8(a), then the same four with the saturate bit.
 */
bool dxil_program_ags_float8(struct tbuf *out);

/** The matrix type codes dxil_program_ags_length asks WaveMatrixLength of, in order: F16 A,
 *  B, accumulator, F32 accumulator, transposed F16 A, B, transposed F32 accumulator, FP8 A,
 *  B, accumulator, transposed FP8 A. */
#define DXIL_AGS_LENGTH_TYPES { 0x04, 0x14, 0x24, 0x26, 0x84, 0x94, 0xA6, 0x0A, 0x1A, 0x2A, 0x8A }
#define DXIL_AGS_LENGTH_COUNT 11u

/**
 * [numthreads(32, 1, 1)] [WaveSize(32)], u0 and MAGIC as above: every thread stores
 * WaveMatrixLength(type k) at u0[4k] for the DXIL_AGS_LENGTH_TYPES.
 */
bool dxil_program_ags_length(struct tbuf *out);

/** Threads of the wave-matrix program; its results start at u0 word 16 (inputs 0-3). */
#define DXIL_AGS_WMMA_THREADS 4u
#define DXIL_AGS_WMMA_OUT 16u

/**
 * The per-lane wave-matrix intrinsics, [numthreads(4, 1, 1)]: thread i reads v = u0[4i] and
 * writes at u0 word 16 + 7i:
 *   M = Fill(F32 accumulator, v); U = Copy(M to FP8 accumulator); S = the saturating Copy;
 *   Extract(FP8, U, 0), Extract(FP8, S, 1), Extract(F32, Copy(S to F32), 5),
 *   Extract(F16 accumulator, Fill(F16 accumulator, 0x12345678), i), Extract(FP8, U, i + 1),
 *   then P = ElementFill(F32, M, 5, i): Extract(F32, P, 5), Extract(F32, P, 4).
 */
bool dxil_program_ags_wmma(struct tbuf *out);

/** Programs the AGS lowering must refuse (dxil_program_ags_refusal). */
/* WaveMatrixUavLoad / UavStore round trips in one wave of 32 ([WaveSize(32)]), u0 bytes:
 * a row-major F32 accumulator (stride 64) at F32_IN stored transposed at F32_OUT; a
 * row-major F16 A (stride 32) at F16_IN stored transposed at F16_OUT; a row-major FP8 B
 * (stride 16) at FP8_IN stored transposed at FP8_OUT; then each lane's element 0 of the
 * F32 matrix as it was loaded, at LANES + 4 * lane. */
#define DXIL_AGS_MEMORY_F32_IN 0
#define DXIL_AGS_MEMORY_F32_OUT 1024
#define DXIL_AGS_MEMORY_F16_IN 2048
#define DXIL_AGS_MEMORY_F16_OUT 2560
#define DXIL_AGS_MEMORY_FP8_IN 3072
#define DXIL_AGS_MEMORY_FP8_OUT 3328
#define DXIL_AGS_MEMORY_LANES 3584
#define DXIL_AGS_MEMORY_BYTES (DXIL_AGS_MEMORY_LANES + 128)

bool dxil_program_ags_memory(struct tbuf *out);

/* WaveMatrixMulAcc in one wave of 32: row-major F16 A and B (stride 32), F32 C (stride 64),
 * FP8 A and B (stride 16) loaded from u0 at these byte offsets; D = A x B + C of the F16
 * pair (WMMA_F32_16X16X16_F16) stored row-major at D16, of the FP8 pair
 * (WMMA_F32_16X16X16_FP8_FP8, the same C) at D8; the F16 pair's D converted to a
 * transposed F16 accumulator (WaveMatrixCopy) and stored column-major (stride 32) at
 * D16_HALF. */
#define DXIL_AGS_MULACC_A16 0
#define DXIL_AGS_MULACC_B16 512
#define DXIL_AGS_MULACC_C 1024
#define DXIL_AGS_MULACC_A8 2048
#define DXIL_AGS_MULACC_B8 2304
#define DXIL_AGS_MULACC_D16 2560
#define DXIL_AGS_MULACC_D8 3584
#define DXIL_AGS_MULACC_D16_HALF 4608
#define DXIL_AGS_MULACC_BYTES 5120

bool dxil_program_ags_mul_acc(struct tbuf *out);

enum ags_refusal {
    AGS_REFUSE_WMMA,          /**< WaveMatrixMulAcc without [WaveSize(32)] */
    AGS_REFUSE_LENGTH_WAVE,   /**< WaveMatrixLength without [WaveSize(32)] */
    AGS_REFUSE_LENGTH_TYPE,   /**< WaveMatrixLength of an I8 A matrix (type 0x02) */
    AGS_REFUSE_BAD_MAGIC,     /**< a code word without magic 5 */
    AGS_REFUSE_DYNAMIC_CODE,  /**< the code word is not a constant */
    AGS_REFUSE_BUFFER_USE,    /**< the magic UAV written by a plain bufferStore */
    AGS_REFUSE_BAD_CONVERSION, /**< Float8Conversion with conversion 4 */
    AGS_REFUSE_WMMA_SEQUENCE,  /**< a WaveMatrixCopy result call without its inputs */
    AGS_REFUSE_WMMA_KIND,      /**< a WaveMatrixCopy that changes the kind (F16 C to F16 A) */
    AGS_REFUSE_MULACC_OPCODE   /**< WaveMatrixMulAcc WMMA_I32_16X16X16_I8 (opcode 0xC) */
};
bool dxil_program_ags_refusal(struct tbuf *out, enum ags_refusal which);

#endif
