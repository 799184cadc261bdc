/* SPDX-License-Identifier: MIT */
/*
 * PICA200 float24 conversions and rounding in C (translator/pica_float24.h): the
 * statement of ../shared/docs/pica200.md §2 / §6.1 that loaders and tests use. The IR lowering
 * (pica_lower_math.c) emits the same rounding as IR integer ops; tests/pica_ir checks
 * the two against each other on the interpreter and on the GPU.
 */
#include "translator/pica_float24.h"

uint32_t sb_pica_f24_to_f32(uint32_t f24)
{
    uint32_t sign = (f24 & 0x800000u) << 8, e = (f24 >> 16) & 0x7Fu, m = f24 & 0xFFFFu;
    if (e == 127)
        return sign | 0x7F800000u | (m << 7);
    if (e == 0) {
        if (!m)
            return sign;
        /* m * 2^-78 as a normal float32: shift the leading one to bit 16. */
        uint32_t exp = 127 - 78 + 16; /* the value of bit 16 is 2^(16-78) */
        while (!(m & 0x10000u)) {
            m <<= 1;
            exp--;
        }
        return sign | (exp << 23) | ((m & 0xFFFFu) << 7);
    }
    return sign | ((e + 64) << 23) | (m << 7);
}

uint32_t sb_pica_f32_to_f24_truncate(uint32_t f32)
{
    uint32_t sign = (f32 >> 8) & 0x800000u;
    int32_t e = (int32_t)((f32 >> 23) & 0xFFu) - 127 + 63;
    uint32_t m = (f32 >> 7) & 0xFFFFu;
    if (e < 0)
        return sign;
    if (e > 127)
        return sign | 0x7F0000u;
    return sign | ((uint32_t)e << 16) | m;
}

uint32_t sb_pica_f32_round(uint32_t f32, bool truncate, bool arithmetic)
{
    uint32_t sign = f32 & 0x80000000u, mag = f32 & 0x7FFFFFFFu;
    if (mag > 0x7F800000u)
        return SB_PICA_F32_NAN;
    if (mag < SB_PICA_F32_MIN_NORMAL) {
        if (arithmetic)
            return 0;
        /* Subnormal float24: a multiple of 2^-78 (at most 0xFFFF of them, or 2^-62 after
         * rounding up). Exponent field e holds mag = M * 2^(e - 150), M with its hidden bit. */
        uint32_t e = mag >> 23;
        if (e < 127 - 79) /* below 2^-79: rounds to 0 either way */
            return sign;
        uint32_t full = (mag & 0x7FFFFFu) | (e ? 0x800000u : 0);
        uint32_t shift = 72 - e; /* M * 2^(e-150) / 2^-78 = M >> (72 - e); 8..24 here */
        uint32_t q = full >> shift, rest = full & ((1u << shift) - 1), half = 1u << (shift - 1);
        if (!truncate && (rest > half || (rest == half && (q & 1u))))
            q++;
        if (!q)
            return sign;
        /* q * 2^-78 as float32 bits */
        uint32_t exp = 127 - 78, mant = q;
        while (mant >= 0x1000000u) { /* cannot happen (q <= 0x10000) but keeps the loop safe */
            mant >>= 1;
            exp++;
        }
        while (!(mant & 0x800000u)) {
            mant <<= 1;
            exp--;
        }
        exp += 23;
        return sign | (exp << 23) | (mant & 0x7FFFFFu);
    }
    uint32_t kept = mag >> 7, rest = mag & 0x7Fu;
    if (!truncate && (rest > 0x40u || (rest == 0x40u && (kept & 1u))))
        kept++; /* a carry into the exponent is the right result */
    mag = kept << 7;
    if (mag >= SB_PICA_F32_OVERFLOW)
        return sign | 0x7F800000u;
    return sign | mag;
}

uint32_t sb_pica_f32_to_f24(uint32_t f32)
{
    uint32_t sign = (f32 >> 8) & 0x800000u, mag = f32 & 0x7FFFFFFFu;
    if (mag > 0x7F800000u)
        return sign | 0x7F0000u | ((mag >> 7) & 0xFFFFu ? (mag >> 7) & 0xFFFFu : 0x8000u);
    mag = sb_pica_f32_round(mag, false, false);
    if (mag == 0x7F800000u)
        return sign | 0x7F0000u;
    if (!mag)
        return sign;
    if (mag < SB_PICA_F32_MIN_NORMAL) {
        /* value = mag's float32 value = q * 2^-78 */
        uint32_t e = mag >> 23, full = (mag & 0x7FFFFFu) | 0x800000u;
        return sign | (full >> (72 - e));
    }
    return sign | (((mag >> 23) - 64) << 16) | ((mag >> 7) & 0xFFFFu);
}
