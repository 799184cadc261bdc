/* SPDX-License-Identifier: MIT */
/*
 * PICA200 float24 numbers (../shared/docs/pica200.md §2, §6.1) in C: conversions between the
 * 24-bit encoding (1 sign, 7 exponent bits biased by 63, 16 mantissa bits) and float32,
 * and the rounding of float32 values to float24 that the IR's float24-exact mode applies
 * (IR.md §PICA200 programs). The IR lowering (sb_ir_pica_lower) spells out the same rules
 * as IR ops for the SPIR-V back end and the interpreter; these functions are the C
 * statement of them, for loaders (SHBIN constants, uniform uploads) and for tests.
 * All values are passed as bit patterns (uint32_t) so that NaN payloads and signed
 * zeros survive.
 */
#ifndef SHADERBRIDGE_PICA_FLOAT24_H
#define SHADERBRIDGE_PICA_FLOAT24_H

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** float32 bits of the smallest normal float24, 2^-62: arithmetic flushes magnitudes below it. */
#define SB_PICA_F32_MIN_NORMAL 0x20800000u
/** float32 bits of 2^64: float24-exact results at or above it become infinite. */
#define SB_PICA_F32_OVERFLOW 0x5F800000u
/** The NaN every PICA arithmetic result that is NaN becomes (float24 0x7F8000). */
#define SB_PICA_F32_NAN 0x7FC00000u

/**
 * float24 (low 24 bits of `f24`; upper bits ignored) -> float32 bits, exactly: normal values
 * re-biased, subnormals (exponent 0) as the normal float32 m * 2^-78, exponent 127 as
 * infinity (mantissa 0) or a NaN keeping the mantissa, zero keeping its sign.
 */
uint32_t sb_pica_f24_to_f32(uint32_t f24);

/**
 * float32 bits -> float24 the way picasso stores constants (§2): the mantissa's 7 low bits
 * dropped, exponent re-biased; below the float24 exponent range a signed zero, above it a
 * signed infinity (float32 values >= 2^64, infinities and NaNs keep their mantissa bits
 * in an exponent-127 encoding, as picasso does).
 */
uint32_t sb_pica_f32_to_f24_truncate(uint32_t f32);

/**
 * The float24 value nearest `f32` as float32 bits, as float24-exact mode rounds:
 * mantissa to 16 bits (nearest even, or truncated when `truncate`), magnitudes >= 2^64
 * (after rounding) to a signed infinity, NaN to SB_PICA_F32_NAN. Below 2^-62:
 * when `arithmetic`, +0 (arithmetic results and inputs flush); otherwise rounded to a
 * multiple of 2^-78 (the subnormal float24 a register can hold, sign kept).
 */
uint32_t sb_pica_f32_round(uint32_t f32, bool truncate, bool arithmetic);

/**
 * float32 bits of a value float24 can hold exactly (any sb_pica_f32_round result, and
 * every value sb_pica_f24_to_f32 returns) -> its float24 encoding; other values are
 * rounded to nearest first (sb_pica_f32_round with arithmetic = false). NaN -> 0x7F8000
 * with the sign (a NaN payload of sb_pica_f24_to_f32 is kept).
 */
uint32_t sb_pica_f32_to_f24(uint32_t f32);

#ifdef __cplusplus
}
#endif

#endif
