/* SPDX-License-Identifier: MIT */
/*
 * The DXIL front end's numeric lowering (translator/src/dxil/ir_from_dxil_wide.c,
 * _math.c, _math_more.c, _wave.c) on the programs of tests/common/dxil_programs_numeric.h:
 * each is translated, its SPIR-V validated, and run on the CPU interpreter against
 * hand-computed answers (D3D's rules: dxil.md §7).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "dxil_front_harness.h"
#include "corpus_list.h"
#include "dxc_container_writer.h"
#include "dxil_programs_numeric.h"
#include "shaderbridge/dxbc.h"
#include "shaderbridge/interp.h"
#include "shaderbridge/translate.h"
#include "translator/dxil_numeric_census.h"
#include "translator/ir.h"

/* Writes the program, checks its SPIR-V and returns its IR (NULL on failure). */
static struct sb_ir_program *lower(bool (*write)(struct tbuf *))
{
    struct sb_error err;
    struct sb_ir_program *ir = dxil_front_lower(write, &err); /* dxil_front_harness.h */
    CHECK(ir != NULL, "front end: %s (offset %llu)", err.message, (unsigned long long)err.offset);
    return ir;
}

/* Runs `ir` (one group) with cb0[0] = cb and u0 = out (out_words words, as they are). */
static void run_on(const struct sb_ir_program *ir, const uint32_t cb[4], uint32_t *out,
                   size_t out_words)
{
    uint32_t row[4] = { cb[0], cb[1], cb[2], cb[3] };
    struct sb_rt_resource table[2] = {
        { .resource_class = SB_IR_RESOURCE_UAV, .register_index = 0, .data = out,
          .size = out_words * 4, .layers = 1, .mip_levels = 1, .sample_count = 1 },
        { .resource_class = SB_IR_RESOURCE_CBV, .register_index = 0, .data = row,
          .size = sizeof(row), .layers = 1, .mip_levels = 1, .sample_count = 1 },
    };
    const uint32_t groups[3] = { 1, 1, 1 };
    struct sb_error err;
    enum sb_result r = sb_interp_dispatch(ir, table, 2, groups, NULL, NULL, &err);
    CHECK(r == SB_SUCCESS, "dispatch: %s", err.message);
}

/* run_on with u0 zeroed first. */
static void run(const struct sb_ir_program *ir, const uint32_t cb[4], uint32_t *out,
                size_t out_words)
{
    memset(out, 0, out_words * 4);
    run_on(ir, cb, out, out_words);
}

static void expect(const char *what, const uint32_t *got, const uint32_t *want, unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        CHECK(got[i] == want[i], "%s word %u: 0x%08x, expected 0x%08x", what, i, got[i], want[i]);
}

/* One run per row of cb, each compared with its `words` words of want (rows one after
 * another); at most 16 words. */
static void run_cases(const struct sb_ir_program *ir, const char *name, const uint32_t (*cb)[4],
                      const uint32_t *want, unsigned cases, unsigned words)
{
    for (unsigned c = 0; c < cases; c++) {
        uint32_t out[16];
        char what[48];
        run(ir, cb[c], out, words);
        snprintf(what, sizeof(what), "%s case %u", name, c);
        expect(what, out, want + c * words, words);
    }
}

static uint32_t f2u(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

/* sdiv/srem (incl. by 0 -> all ones and INT_MIN / -1), countbits, FirstbitHi (from the MSB),
 * FirstbitLo, Bfi and Ibfe (width/offset & 31), i16 mul/add wrapping and a signed i16 compare. */
static void test_int(void)
{
    struct sb_ir_program *ir = lower(dxil_program_numeric_int);
    if (!ir)
        return;
    static const uint32_t cb[3][4] = {
        { 0xFFFFFFF9u /* -7 */, 2, 4, 8 },
        { 0x7FFF, 0, 36, 36 },               /* 36 & 31 = 4 */
        { 0x80000000u, 0xFFFFFFFFu, 0, 0 },  /* INT_MIN / -1 */
    };
    static const uint32_t want[3][10] = {
        /* -7/2 = -3, -7%2 = -1, 30 bits, MSB at 0, LSB 0, bfi(4,8): (a<<8 & 0xF00) | (2 & ~0xF00),
         * ibfe(4,8,a) = bits 8..11 (0xF) signed = -1, (-7)^2 = 49, -7-7 = -14, -7 < 2 */
        { 0xFFFFFFFDu, 0xFFFFFFFFu, 30, 0, 0, 0x902, 0xFFFFFFFFu, 49, 0xFFFFFFF2u, 1 },
        /* by zero: all ones; 0x7FFF: 15 bits, FindUMsb 14 -> 17, bfi(4,4): 0xF0, ibfe(4,4)=-1,
         * 0x7FFF^2 = 0x3FFF0001 -> 0x0001, 0x7FFF+0x7FFF = 0xFFFE -> -2, 0x7FFF < 0 false */
        { 0xFFFFFFFFu, 0xFFFFFFFFu, 15, 17, 0, 0xF0, 0xFFFFFFFFu, 1, 0xFFFFFFFEu, 0 },
        /* INT_MIN / -1 wraps, remainder 0; one bit at 31: from the MSB 0, from the LSB 31;
         * width 0: bfi gives b, ibfe 0; i16 parts are 0: 0, 0, 0 < -1 false */
        { 0x80000000u, 0, 1, 0, 31, 0xFFFFFFFFu, 0, 0, 0, 0 },
    };
    run_cases(ir, "int", cb, want[0], 3, 10);
    sb_ir_program_destroy(ir);
}

/* i64 mul, udiv, shl and ashr (count & 63) on (low, high) word pairs. */
static void test_int64(void)
{
    struct sb_ir_program *ir = lower(dxil_program_numeric_int64);
    if (!ir)
        return;
    static const uint32_t cb[2][4] = {
        { 3, 1, 5, 0 },             /* A = 0x1_00000003, B = 5 */
        { 0, 0x80000000u, 65, 0 },  /* A = 2^63, B = 65 (shift by 65 & 63 = 1) */
    };
    /* 2^63 / 65: 9223372036854775808 = 65 * 141898031336227320 + 8 */
    const uint64_t q = 141898031336227320ull;
    const uint32_t want[2][8] = {
        /* A*B = 0x5_0000000F; A/B = 4294967299 / 5 = 858993459; A<<5 = 0x20_00000060;
         * A>>5 = 0x08000000 */
        { 0xF, 5, 0x33333333u, 0, 0x60, 0x20, 0x08000000u, 0 },
        /* 2^63 * 65 = 2^63 (mod 2^64); q; 2^63 << 1 = 0; 2^63 >> 1 (arithmetic) =
         * 0xC0000000_00000000 */
        { 0, 0x80000000u, (uint32_t)q, (uint32_t)(q >> 32), 0, 0, 0, 0xC0000000u },
    };
    run_cases(ir, "int64", cb, want[0], 2, 8);
    sb_ir_program_destroy(ir);
}

/* fcmp uno/ueq/one with and without NaN, half rounding (1/3 -> 0x3555; 1/3 + 1 in half is
 * 1 + 341/1024), a double fma split into words. */
static void test_float(void)
{
    struct sb_ir_program *ir = lower(dxil_program_numeric_float);
    if (!ir)
        return;
    const uint32_t nan = 0x7FC00000u;
    const uint32_t cb[2][4] = {
        { f2u(1.0f / 3.0f), nan, f2u(1.0f), 0 },
        { f2u(1.5f), f2u(2.0f), f2u(0.25f), f2u(-3.0f) },
    };
    static const uint32_t want[2][8] = {
        /* unordered: uno, ueq true, one false; float(1/3) as a double: 0x3FD55555_60000000;
         * dot2add: 0 + 2 * half(1/3) * 1 = 1365/2048 */
        { 1, 1, 0, 0x3555, 0x3FAAA000u, 0x60000000u, 0x3FD55555u, 0x3F2AA000u },
        /* 1.5 vs 2: ordered, unequal; half(1.5) = 0x3E00; 1.75; fma = 0.375 - 3 = -2.625;
         * dot2add: -3 + 2 * 1.5 * 0.25 = -2.25 */
        { 0, 0, 1, 0x3E00, 0x3FE00000u, 0, 0xC0050000u, 0xC0100000u },
    };
    run_cases(ir, "float", cb, want[0], 2, 8);
    sb_ir_program_destroy(ir);
}

/* frem (fmod) takes the dividend's sign, whatever the divisor's: 5.5 % 2 = 1.5,
 * -5.5 % 2 = -1.5, 7 % -3 = 1, -0.75 % 0.5 = -0.25, 0.75 % 2 = 0.75 (a quotient below 1) and
 * 1e20 % 3 (a quotient past 2^52 in double: no fraction to drop), each a - b * trunc(a / b)
 * in float (the C expression, unfused) and in double (rounded to float); the half results
 * are half(1.5) = 0x3E00, half(1) = 0x3C00, half(0.75) = 0x3A00. */
static void test_frem(void)
{
    struct sb_ir_program *ir = lower(dxil_program_numeric_frem);
    if (!ir)
        return;
    static const float rows[3][4] = {
        { 5.5f, 2.0f, -5.5f, 2.0f }, { 7.0f, -3.0f, -0.75f, 0.5f }, { 0.75f, 2.0f, 1e20f, 3.0f },
    };
    static const uint32_t halves[3] = { 0x3E00, 0x3C00, 0x3A00 };
    for (unsigned c = 0; c < 3; c++) {
        uint32_t cb[4], out[5];
        memcpy(cb, rows[c], sizeof(cb));
        const float x = rows[c][0], y = rows[c][1], z = rows[c][2], w = rows[c][3];
        const double dx = x, dy = y, dz = z, dw = w;
        const uint32_t want[5] = {
            f2u(x - y * truncf(x / y)), f2u(z - w * truncf(z / w)), halves[c],
            f2u((float)(dx - dy * trunc(dx / dy))), f2u((float)(dz - dw * trunc(dz / dw))),
        };
        char what[32];
        snprintf(what, sizeof(what), "frem case %u", c);
        run(ir, cb, out, 5);
        expect(what, out, want, 5);
    }
    sb_ir_program_destroy(ir);
}

static float u2f(uint32_t u)
{
    float f;
    memcpy(&f, &u, 4);
    return f;
}

/* The float value of half bits (normal and zero halves only: what the cases produce). */
static float half_value(uint32_t h)
{
    float magnitude = (h & 0x7C00u) ? ldexpf(1.0f + (float)(h & 0x3FFu) / 1024.0f, (int)((h >> 10) & 31u) - 15)
                                    : 0.0f;
    return (h & 0x8000u) ? -magnitude : magnitude;
}

/* Acos/Asin/Atan (lowered onto IR arithmetic) against the C library's, in double: within
 * 3e-7 relative (the lowering's error is about 2e-7); NaN where the C library gives NaN
 * (|x| > 1, NaN); the sign of zero kept (atan(-0) = -0); half(atan(w)) within one half ULP. */
static void test_inverse_trig(void)
{
    struct sb_ir_program *ir = lower(dxil_program_numeric_inverse_trig);
    if (!ir)
        return;
    const float nan = u2f(0x7FC00000u), inf = u2f(0x7F800000u);
    const float cases[6][4] = {
        { 0.5f, -3.0f, -0.8f, 2.0f },   { -1.0f, inf, 1.0f, -0.0f },
        { nan, -inf, 1.5f, 0.25f },     { 0.999999f, 1e-30f, -1e-6f, -100.0f },
        { -0.0f, 0.7f, -0.99f, 1.0f },  { 1e-8f, -1e20f, 0.0f, 0.5f },
    };
    for (unsigned c = 0; c < 6; c++) {
        uint32_t cb[4], out[7];
        memcpy(cb, cases[c], sizeof(cb));
        run(ir, cb, out, 7);
        const float x = cases[c][0], y = cases[c][1], z = cases[c][2];
        const double want[6] = { acos(x), asin(x), atan(x), atan(y), acos(z), asin(z) };
        for (unsigned i = 0; i < 6; i++) {
            float got = u2f(out[i]);
            if (isnan(want[i])) {
                CHECK(isnan(got), "inverse trig case %u word %u: %.9g, expected NaN", c, i, got);
                continue;
            }
            double error = fabs((double)got - want[i]);
            CHECK(error <= 3e-7 * fabs(want[i]) && !signbit(got) == !signbit(want[i]),
                  "inverse trig case %u word %u: %.9g, expected %.9g", c, i, got, want[i]);
        }
        /* every w is a half exactly: atan of it, within one ULP of the half result */
        double half_want = atan((double)cases[c][3]);
        float half_got = half_value(out[6] & 0xFFFFu);
        double half_ulp = half_want == 0.0 ? 0.0 : ldexp(1.0, ilogb(half_want) - 10);
        CHECK(out[6] <= 0xFFFFu && fabs(half_got - half_want) <= half_ulp &&
                  !signbit(half_got) == !signbit(half_want),
              "inverse trig case %u half: 0x%04x (%.6g), expected %.6g", c, out[6], half_got,
              half_want);
    }
    sb_ir_program_destroy(ir);
}

/* The DXIL bit ops at `width` bits, written from their definitions bit by bit. */
static uint32_t ref_count(uint64_t x, unsigned width)
{
    uint32_t n = 0;
    for (unsigned k = 0; k < width; k++)
        n += (x >> k) & 1;
    return n;
}

static uint32_t ref_first_lo(uint64_t x, unsigned width)
{
    for (unsigned k = 0; k < width; k++)
        if ((x >> k) & 1)
            return k;
    return 0xFFFFFFFFu;
}

/* From the top bit down: the distance of the first bit that differs from `background`. */
static uint32_t ref_first_hi(uint64_t x, unsigned width, unsigned background)
{
    for (unsigned k = 0; k < width; k++)
        if (((x >> (width - 1 - k)) & 1) != background)
            return k;
    return 0xFFFFFFFFu;
}

static uint64_t ref_reverse(uint64_t x, unsigned width)
{
    uint64_t r = 0;
    for (unsigned k = 0; k < width; k++)
        r |= ((x >> k) & 1) << (width - 1 - k);
    return r;
}

/* Countbits, FirstbitLo, FirstbitHi, FirstbitSHi and Bfrev of i16 and i64 values: zero, one
 * bit at each end, all ones, the sign bit alone, a positive and negative mix, a value whose
 * answer is in the other word. */
static void test_bits_wide(void)
{
    struct sb_ir_program *ir = lower(dxil_program_numeric_bits_wide);
    if (!ir)
        return;
    static const uint32_t cases[7][4] = {
        { 0x00001234u, 0, 0, 0 },          { 0xFFFF8000u, 0, 0, 0x80000000u },
        { 0x0000FFFFu, 0, 0xFFFFFFFFu, 0xFFFFFFFFu }, { 0x00000001u, 0, 0x00010000u, 0 },
        { 0x00007FFFu, 0, 0x00000010u, 0xFFFFFFFFu }, { 0, 0, 0x80000000u, 1 },
        { 0x0000C001u, 0, 0x00000001u, 0xC0000000u },
    };
    for (unsigned c = 0; c < 7; c++) {
        uint32_t out[11], want[11];
        uint64_t s = cases[c][0] & 0xFFFFu, l = (uint64_t)cases[c][3] << 32 | cases[c][2];
        const uint64_t values[2] = { s, l };
        const unsigned widths[2] = { 16, 64 };
        for (unsigned v = 0; v < 2; v++) {
            uint64_t x = values[v];
            unsigned w = widths[v], sign = (unsigned)(x >> (w - 1)) & 1;
            uint32_t *row = want + 5 * v;
            row[0] = ref_count(x, w);
            row[1] = ref_first_lo(x, w);
            row[2] = ref_first_hi(x, w, 0);
            row[3] = ref_first_hi(x, w, sign);
        }
        want[4] = (uint32_t)ref_reverse(s, 16);
        uint64_t reversed = ref_reverse(l, 64);
        want[9] = (uint32_t)reversed;
        want[10] = (uint32_t)(reversed >> 32);
        run(ir, cases[c], out, 11);
        char what[32];
        snprintf(what, sizeof(what), "bits_wide case %u", c);
        expect(what, out, want, 11);
    }
    sb_ir_program_destroy(ir);
}

/* IMax/IMin/UMax/UMin of i16 and i64 values: signed and unsigned orders differ where the
 * signs do; equal high words leave the low words to decide. IMad/UMad: the low 16 / 64 bits
 * of a * b + c. */
static void test_int_wide(void)
{
    struct sb_ir_program *ir = lower(dxil_program_numeric_int_wide);
    if (!ir)
        return;
    static const uint32_t cases[5][4] = {
        { 0x00008000u, 0x00000001u, 0x00000005u, 0xFFFFFFFFu }, /* s = -32768, t = 5; A > 0 > B */
        { 0x0000FFFFu, 0x80000000u, 0x00000001u, 0x7FFFFFFFu }, /* s = -1, t = 1; A < 0 < B */
        { 0x00001234u, 0x00000007u, 0x00001235u, 0x00000007u }, /* high words equal */
        { 0xFFFF7FFFu, 0xFFFFFFFFu, 0x00000000u, 0xFFFFFFFFu }, /* s = 32767, t = 0; A > B, both < 0 */
        { 0x00000009u, 0x00000000u, 0x00000009u, 0x00000000u }, /* equal */
    };
    for (unsigned c = 0; c < 5; c++) {
        uint32_t out[18], want[18];
        int16_t s = (int16_t)cases[c][0], t = (int16_t)cases[c][2];
        uint16_t us = (uint16_t)s, ut = (uint16_t)t;
        uint64_t ua = (uint64_t)cases[c][1] << 32 | cases[c][0], ub = (uint64_t)cases[c][3] << 32 | cases[c][2];
        int64_t sa = (int64_t)ua, sb = (int64_t)ub;
        want[0] = (uint16_t)(s > t ? s : t);
        want[1] = (uint16_t)(s < t ? s : t);
        want[2] = us > ut ? us : ut;
        want[3] = us < ut ? us : ut;
        const uint64_t r[4] = { (uint64_t)(sa > sb ? sa : sb), (uint64_t)(sa < sb ? sa : sb),
                                ua > ub ? ua : ub, ua < ub ? ua : ub };
        for (unsigned i = 0; i < 4; i++) {
            want[4 + 2 * i] = (uint32_t)r[i];
            want[5 + 2 * i] = (uint32_t)(r[i] >> 32);
        }
        want[12] = (uint16_t)((uint32_t)us * ut + us);
        want[13] = (uint16_t)((uint32_t)us * ut + ut);
        const uint64_t mads[2] = { ua * ub + ua, ua * ub + ub };
        for (unsigned k = 0; k < 2; k++) {
            want[14 + 2 * k] = (uint32_t)mads[k];
            want[15 + 2 * k] = (uint32_t)(mads[k] >> 32);
        }
        run(ir, cases[c], out, 18);
        char what[32];
        snprintf(what, sizeof(what), "int_wide case %u", c);
        expect(what, out, want, 18);
    }
    sb_ir_program_destroy(ir);
}

/* a = 0x80FF7F01 (bytes 1, 127, -1, -128), b = 300, c = -200 (bytes 0x38 0xFF 0xFF 0xFF),
 * d = 5. */
static void test_packed(void)
{
    struct sb_ir_program *ir = lower(dxil_program_numeric_packed);
    if (!ir)
        return;
    static const uint32_t cb[1][4] = { { 0x80FF7F01u, 300, 0xFFFFFF38u, 5 } };
    static const uint32_t want[13] = {
        1, 127, 0xFFFFFFFFu, 0xFFFFFF80u,
        0x05807F80u,  /* clamped to [-128, 127]: -128, 127, -128, 5 */
        0x0500FF00u,  /* clamped to [0, 255]: 0, 255, 0, 5 */
        63,           /* 5 + 1*56 + 127*-1 + -1*-1 + -128*-1 */
        130111,       /* 5 + 1*56 + 127*255 + 255*255 + 128*255 */
        0x05807F7Fu,  /* i16: 0x7F01 = 32513 -> 127, 300 -> 127, -200 -> -128, 5 */
        1, 0x7F, 0xFFFF, 0xFF80,
    };
    run_cases(ir, "packed", cb, want, 1, 13);
    sb_ir_program_destroy(ir);
}

/* 16-bit members of a structured buffer (stride 8): element 0 = { a = 0x1234, b = (1.0,
 * 0x3555 = 1365/4096, -2.0) } (words 0x3C001234, 0xC0003555); element 1 starts as
 * 0xAAAAAAAA twice. b * 2 = (2.0, 1365/2048 = 0x3955, -4.0), a + 1 = 0x1235: element 1
 * becomes 0x40001235, 0xC4003955 and element 0 is untouched. */
static void test_structured16(void)
{
    struct sb_ir_program *ir = lower(dxil_program_numeric_structured16);
    if (!ir)
        return;
    uint32_t buffer[4] = { 0x3C001234u, 0xC0003555u, 0xAAAAAAAAu, 0xAAAAAAAAu };
    const uint32_t cb[4] = { 0, 0, 0, 0 };
    static const uint32_t want[4] = { 0x3C001234u, 0xC0003555u, 0x40001235u, 0xC4003955u };
    run_on(ir, cb, buffer, 4);
    expect("structured16", buffer, want, 4);
    sb_ir_program_destroy(ir);
}

/* Phis of i64 and double in a do-while loop of max(n, 1) iterations k = 0 ..: acc = 1,
 * then 3 acc + k, so acc = (5 * 3^n - 2n - 1) / 4; d = 0, then d / 2 + 1, so
 * d = 2 - 2^(1 - n). n = 1: 3, 1.0; n = 3: 32, 1.75; n = 25: (5 * 847288609443 - 51) / 4
 * = 1059110761791 = 0xF6_97EBB53F, 2 - 2^-24 = 0x3FFFFFFF_F0000000; n = 0 runs once. */
static void test_loop64(void)
{
    struct sb_ir_program *ir = lower(dxil_program_numeric_loop64);
    if (!ir)
        return;
    static const uint32_t cb[4][4] = { { 1 }, { 3 }, { 25 }, { 0 } };
    static const uint32_t want[4][4] = {
        { 3, 0, 0, 0x3FF00000u },
        { 32, 0, 0, 0x3FFC0000u },
        { 0x97EBB53Fu, 0xF6, 0xF0000000u, 0x3FFFFFFFu },
        { 3, 0, 0, 0x3FF00000u },
    };
    run_cases(ir, "loop64", cb, want[0], 4, 4);
    sb_ir_program_destroy(ir);
}

/* 16-bit raw buffer elements at a word-aligned and a 2-byte offset: u0 holds the halves
 * 0x1000 * i + i at byte 2i (i < 8), then 1.0, 0x3555 (1365/4096), -2.0 as halves at byte 16,
 * and 0xAAAAAAAA at bytes 32-47, which the 16-bit store must leave alone outside its 8
 * bytes. */
static void test_buffer16(void)
{
    struct sb_ir_program *ir = lower(dxil_program_numeric_buffer16);
    if (!ir)
        return;
    static const uint32_t start[12] = { 0x10010000u, 0x30032002u, 0x50054004u, 0x70076006u,
                                        0x35553C00u, 0x0000C000u, 0, 0,
                                        0xAAAAAAAAu, 0xAAAAAAAAu, 0xAAAAAAAAu, 0xAAAAAAAAu };
    static const uint32_t want[2][11] = {
        /* o = 0: elements 0x0000 0x1001 0x2002 0x3003 copied to bytes 32-39; half 1.0 */
        { 0x10010000u, 0x30032002u, 0xAAAAAAAAu, 0xAAAAAAAAu, 0, 0, 0, 0, 0, 0x3003,
          0x3F800000u },
        /* o = 2: elements 0x1001 .. 0x4004 to bytes 34-41; the half 0x3555 = 0.333251953125 */
        { 0x1001AAAAu, 0x30032002u, 0xAAAA4004u, 0xAAAAAAAAu, 0, 0, 0, 0, 0x1001, 0x4004,
          0x3EAAA000u },
    };
    for (unsigned c = 0; c < 2; c++) {
        uint32_t buffer[19] = { 0 };
        const uint32_t cb[4] = { 2 * c, 0, 0, 0 };
        memcpy(buffer, start, sizeof(start));
        run_on(ir, cb, buffer, 19);
        expect(c ? "buffer16 offset 2" : "buffer16 offset 0", &buffer[8], want[c], 11);
        expect("buffer16 source", buffer, start, 8);
    }
    sb_ir_program_destroy(ir);
}

/* 64 threads = two waves of SB_INTERP_WAVE_SIZE (32) lanes; lane i = t % 32, wave base
 * b = t - i. The wave sum is 0+..+31 = 496 and 32+..+63 = 1520; the exclusive prefix sums
 * the lanes below in the same wave; across x is t ^ 1; WaveMatch(t & 3) sets lanes
 * i' = i mod 4: 0x11111111 << (i & 3) in word 0, word 1 empty. The multi-prefix ops run
 * over the lower lanes of the same parity p = i & 1: i' = p, p + 2, ..., i - 2. */
static void test_wave(void)
{
    struct sb_ir_program *ir = lower(dxil_program_numeric_wave);
    if (!ir)
        return;
    CHECK(SB_INTERP_WAVE_SIZE == 32, "the known answers assume 32-lane waves");
    uint32_t out[64 * 8];
    const uint32_t cb[4] = { 0, 0, 0, 0 };
    run(ir, cb, out, 64 * 8);
    for (uint32_t t = 0; t < 64; t++) {
        uint32_t i = t % 32, b = t - i, p = i & 1, n = (i - p) / 2; /* n lower same-parity */
        uint32_t prefix = i * b + i * (i - 1) / 2;   /* b+0 + ... + b+(i-1) */
        uint32_t multi = n * b + n * (p + i - 2) / 2; /* n terms b + p ... b + i - 2 */
        uint32_t any_bits = 0, thirds = 0;
        for (uint32_t k = p; k < i; k += 2) {
            any_bits |= b + k;
            thirds += (b + k) % 3 == 0;
        }
        const uint32_t want[8] = { t < 32 ? 496u : 1520u, prefix, t ^ 1, 0x11111111u << (i & 3),
                                   0, n ? multi : 0, any_bits, thirds };
        char what[32];
        snprintf(what, sizeof(what), "wave thread %u", t);
        expect(what, &out[8 * t], want, 8);
    }
    /* spot checks by hand: thread 37 (lane 5, odd): lanes 1, 3 -> 33 + 35 = 68, 33 | 35 = 35,
     * one multiple of 3 (33) */
    CHECK(out[8 * 37 + 5] == 68 && out[8 * 37 + 6] == 35 && out[8 * 37 + 7] == 1,
          "thread 37: %u %u %u", out[8 * 37 + 5], out[8 * 37 + 6], out[8 * 37 + 7]);
    sb_ir_program_destroy(ir);
}

/* Native half I/O: the inputs arrive as f32 and are rounded to half on load, the half
 * arithmetic rounds, the outputs are the halves' f32 values. v = (1/3, 70000):
 * half(1/3) = 1365/4096, * 2 = 1365/2048 (exact), + 1 = 1 + 682.5/1024: a tie between two
 * halves, to even: 1 + 682/1024 = 1.666015625 (0x3FD54000); 70000 is past the half range
 * (max 65504): +inf, then inf * 2 + 1 = +inf. */
static void test_vs_half(void)
{
    struct sb_ir_program *ir = lower(dxil_program_numeric_vs_half);
    if (!ir)
        return;
    uint32_t in_words[4] = { f2u(1.0f / 3.0f), f2u(70000.0f), 0, 0 };
    uint32_t out_words[4] = { 0, 0, 0xAAAAAAAAu, 0xAAAAAAAAu };
    struct sb_interp_registers inputs = { 1, in_words }, outputs = { 1, out_words };
    struct sb_error err;
    enum sb_result r = sb_interp_run_vertices(ir, NULL, 0, 1, &inputs, &outputs, NULL, NULL, &err);
    CHECK(r == SB_SUCCESS, "run: %s", err.message);
    static const uint32_t want[4] = { 0x3FD54000u, 0x7F800000u, 0xAAAAAAAAu, 0xAAAAAAAAu };
    expect("vs_half o0", out_words, want, 4);
    sb_ir_program_destroy(ir);
}

static bool write_refused_0(struct tbuf *out) { return dxil_program_numeric_refused(out, 0); }
static bool write_refused_1(struct tbuf *out) { return dxil_program_numeric_refused(out, 1); }
static bool write_refused_2(struct tbuf *out) { return dxil_program_numeric_refused(out, 2); }

/* Ibfe of an i64, an i1 add and three 64-bit buffer elements refuse with SB_ERROR_TRANSLATE_UNSUPPORTED, the
 * construct named and the byte offset of the instruction (past the container header). */
static void test_refusals(void)
{
    static const struct { bool (*write)(struct tbuf *); const char *name; } cases[3] = {
        { write_refused_0, "64-bit integer" }, { write_refused_1, "i1 binop" }, { write_refused_2, "64-bit" },
    };
    for (unsigned c = 0; c < 3; c++) {
        struct tbuf b = { 0 };
        struct sb_dxbc *container = NULL;
        struct sb_ir_program *ir = NULL;
        struct sb_error err;
        memset(&err, 0, sizeof(err));
        bool written = cases[c].write(&b);
        CHECK(written, "writer failed for %s", cases[c].name);
        enum sb_result r = written ? sb_dxbc_parse(b.data, b.size, &container, &err) : SB_SUCCESS;
        if (written && r == SB_SUCCESS)
            r = sb_ir_from_dxil(container, &ir, &err);
        CHECK(written && r == SB_ERROR_TRANSLATE_UNSUPPORTED && ir == NULL, "%s: result %d",
              cases[c].name, (int)r);
        CHECK(strstr(err.message, cases[c].name) != NULL, "%s: message '%s'", cases[c].name,
              err.message);
        CHECK(err.offset > 32 && err.offset < b.size, "%s: offset %llu of %zu", cases[c].name,
              (unsigned long long)err.offset, b.size);
        sb_ir_program_destroy(ir);
        sb_dxbc_destroy(container);
        tb_free(&b);
    }
}

struct census {
    uint32_t files, unreadable;
    uint32_t files_using[SB_DXIL_NUMERIC_GROUP_COUNT], files_complete[SB_DXIL_NUMERIC_GROUP_COUNT];
    struct sb_dxil_numeric_counts total;
};

static const char *const group_names[SB_DXIL_NUMERIC_GROUP_COUNT] = {
    "LLVM other widths/sdiv/fcmp", "math dx.ops", "wave/quad dx.ops",
};

static void census_one(const char *path, const char *relative, void *user)
{
    struct census *c = user;
    size_t size = 0;
    char *bytes = read_file(path, &size);
    struct sb_dxbc *container = NULL;
    struct sb_dxil_numeric_counts counts;
    struct sb_error err;
    memset(&counts, 0, sizeof(counts));
    c->files++;
    if (!bytes || sb_dxbc_parse(bytes, size, &container, &err) != SB_SUCCESS ||
        sb_dxil_numeric_census(container, &counts, &err) != SB_SUCCESS) {
        c->unreadable++;
        fprintf(stderr, "%s: unreadable\n", relative);
    } else {
        for (unsigned g = 0; g < SB_DXIL_NUMERIC_GROUP_COUNT; g++) {
            c->total.uses[g] += counts.uses[g];
            c->total.translated[g] += counts.translated[g];
            c->files_using[g] += counts.uses[g] != 0;
            c->files_complete[g] += counts.uses[g] != 0 && counts.uses[g] == counts.translated[g];
        }
        if (counts.first_refusal[0])
            printf("  %s: %s\n", relative, counts.first_refusal);
    }
    sb_dxbc_destroy(container);
    free(bytes);
}

/* `census CORPUS`: per group, the corpus files that use it and the uses that lower on their
 * own (each untranslated file's first refusal is listed). Fails when a file is unreadable or
 * a use does not lower: every numeric instruction of the corpus does today, so a refusal is
 * a regression. */
static int census(const char *corpus)
{
    static struct census c;
    if (corpus_manifest_each(corpus, "dxil", census_one, &c) < 0) {
        printf("SKIPPED: %s/dxil/MANIFEST.tsv not found\n", corpus);
        return 77;
    }
    printf("dxil_front_numeric_census: %u files\n", c.files);
    for (unsigned g = 0; g < SB_DXIL_NUMERIC_GROUP_COUNT; g++) {
        printf("  %-28s %3u files use it (%3u fully translated), %5u uses, %5u translated\n",
               group_names[g], c.files_using[g], c.files_complete[g], c.total.uses[g],
               c.total.translated[g]);
        CHECK(c.total.translated[g] == c.total.uses[g], "%s: %u of %u uses lower",
              group_names[g], c.total.translated[g], c.total.uses[g]);
    }
    CHECK(c.unreadable == 0, "%u unreadable files", c.unreadable);
    return failures ? 1 : 0;
}

/* `write DIR`: the nine containers as DIR/numeric_<name>.dxil, for `shaderbridge validate`
 * (interpreter against lavapipe on seeded inputs). */
static int write_programs(const char *dir)
{
    static const struct { const char *name; bool (*write)(struct tbuf *); } programs[13] = {
        { "int", dxil_program_numeric_int }, { "int64", dxil_program_numeric_int64 },
        { "float", dxil_program_numeric_float }, { "frem", dxil_program_numeric_frem },
        { "inverse_trig", dxil_program_numeric_inverse_trig },
        { "bits_wide", dxil_program_numeric_bits_wide },
        { "int_wide", dxil_program_numeric_int_wide },
        { "packed", dxil_program_numeric_packed },
        { "buffer16", dxil_program_numeric_buffer16 }, { "loop64", dxil_program_numeric_loop64 },
        { "wave", dxil_program_numeric_wave }, { "vs_half", dxil_program_numeric_vs_half },
        { "structured16", dxil_program_numeric_structured16 },
    };
    for (unsigned i = 0; i < 13; i++) {
        struct tbuf b = { 0 };
        char path[4096];
        snprintf(path, sizeof(path), "%s/numeric_%s.dxil", dir, programs[i].name);
        FILE *file = programs[i].write(&b) ? fopen(path, "wb") : NULL;
        bool ok = file && fwrite(b.data, 1, b.size, file) == b.size;
        if (file)
            ok = fclose(file) == 0 && ok;
        tb_free(&b);
        if (!ok) {
            fprintf(stderr, "cannot write %s\n", path);
            return 1;
        }
    }
    return 0;
}

int main(int argc, char **argv)
{
    if (argc > 2 && !strcmp(argv[1], "write"))
        return write_programs(argv[2]);
    if (argc > 2 && !strcmp(argv[1], "census"))
        return census(argv[2]);
    const char *which = argc > 1 ? argv[1] : "all";
    bool all = !strcmp(which, "all");
    if (all || !strcmp(which, "int"))
        test_int();
    if (all || !strcmp(which, "int64"))
        test_int64();
    if (all || !strcmp(which, "float"))
        test_float();
    if (all || !strcmp(which, "frem"))
        test_frem();
    if (all || !strcmp(which, "inverse_trig"))
        test_inverse_trig();
    if (all || !strcmp(which, "bits_wide"))
        test_bits_wide();
    if (all || !strcmp(which, "int_wide"))
        test_int_wide();
    if (all || !strcmp(which, "packed"))
        test_packed();
    if (all || !strcmp(which, "structured16"))
        test_structured16();
    if (all || !strcmp(which, "loop64"))
        test_loop64();
    if (all || !strcmp(which, "buffer16"))
        test_buffer16();
    if (all || !strcmp(which, "wave"))
        test_wave();
    if (all || !strcmp(which, "vs_half"))
        test_vs_half();
    if (all || !strcmp(which, "refusals"))
        test_refusals();
    if (failures)
        fprintf(stderr, "%u check(s) failed\n", failures);
    return failures ? 1 : 0;
}
