/* SPDX-License-Identifier: MIT */
/*
 * The float24 C module (translator/pica_float24.h) against ../shared/docs/pica200.md §2 and
 * against references written differently (doubles, ldexp, nearbyint): every float24
 * encoding round-trips through float32, the §2 table decodes to its values, picasso's
 * truncating conversion matches the table's 0.1, and sb_pica_f32_round agrees with the
 * double-precision reference on every 251st float32 bit pattern in all four modes.
 */
#include <fenv.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "translator/pica_float24.h"

static unsigned failures;

#define CHECK(cond, ...)                                                                  \
    do {                                                                                  \
        if (!(cond)) {                                                                    \
            if (failures < 20) {                                                          \
                fprintf(stderr, "%s:%d: check failed: %s: ", __FILE__, __LINE__, #cond);   \
                fprintf(stderr, __VA_ARGS__);                                             \
                fprintf(stderr, "\n");                                                    \
            }                                                                             \
            failures++;                                                                   \
        }                                                                                 \
    } while (0)

static float u2f(uint32_t u)
{
    float f;
    memcpy(&f, &u, 4);
    return f;
}

static uint32_t f2u(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

/* The §2 reference encodings. */
static void table(void)
{
    static const struct { uint32_t f24; float value; } rows[] = {
        { 0x3F0000, 1.0f }, { 0xBF0000, -1.0f }, { 0x3E0000, 0.5f }, { 0xBE0000, -0.5f },
        { 0x3D0000, 0.25f }, { 0x408000, 3.0f }, { 0xC00000, -2.0f }, { 0xC59000, -100.0f },
    };
    for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
        CHECK(sb_pica_f24_to_f32(rows[i].f24) == f2u(rows[i].value), "0x%06x", rows[i].f24);
        CHECK(sb_pica_f32_to_f24(f2u(rows[i].value)) == rows[i].f24, "%g", rows[i].value);
    }
    CHECK(sb_pica_f24_to_f32(0x000000) == 0 && sb_pica_f24_to_f32(0x800000) == 0x80000000u, "zeros");
    CHECK(sb_pica_f24_to_f32(0x010000) == 0x20800000u, "smallest normal");
    CHECK(sb_pica_f24_to_f32(0x7EFFFF) == 0x5F7FFF80u, "largest normal");
    CHECK(sb_pica_f24_to_f32(0x7F0000) == 0x7F800000u && sb_pica_f24_to_f32(0xFF0000) == 0xFF800000u, "inf");
    CHECK(isnan(u2f(sb_pica_f24_to_f32(0x7F8000))), "NaN");
    CHECK(sb_pica_f24_to_f32(0x000001) == 0x18800000u, "smallest subnormal");
    CHECK(sb_pica_f24_to_f32(0x00FFFF) == 0x207FFF00u, "largest subnormal");
    CHECK(sb_pica_f32_to_f24_truncate(f2u(0.1f)) == 0x3B9999, "picasso 0.1: 0x%06x",
          sb_pica_f32_to_f24_truncate(f2u(0.1f)));
    CHECK(sb_pica_f32_to_f24_truncate(f2u(1e30f)) == 0x7F0000, "picasso overflow");
    CHECK(sb_pica_f32_to_f24_truncate(f2u(-1e-30f)) == 0x800000, "picasso underflow");
}

/* Every encoding: decode, encode back (NaN payloads and signed zeros included). */
static void round_trip(void)
{
    for (uint32_t v = 0; v < (1u << 24); v++) {
        uint32_t f = sb_pica_f24_to_f32(v);
        CHECK(sb_pica_f32_to_f24(f) == v, "0x%06x -> 0x%08x -> 0x%06x", v, f, sb_pica_f32_to_f24(f));
        /* a float24 value is already rounded */
        if ((v & 0x7F0000) != 0x7F0000)
            CHECK(sb_pica_f32_round(f, false, false) == f && sb_pica_f32_round(f, true, false) == f,
                  "0x%06x not fixed by rounding", v);
    }
}

/* The rounding, restated with doubles. */
static uint32_t reference(uint32_t bits, bool truncate, bool arithmetic)
{
    float x = u2f(bits);
    if (isnan(x))
        return SB_PICA_F32_NAN;
    double a = fabs((double)x), q;
    if (a < ldexp(1.0, -62)) {
        if (arithmetic)
            return 0;
        q = ldexp(truncate ? trunc(ldexp(a, 78)) : nearbyint(ldexp(a, 78)), -78);
    } else if (isinf(a)) {
        q = a;
    } else {
        int e;
        frexp(a, &e); /* a = m 2^e, m in [0.5, 1): the float24 ulp is 2^(e - 17) */
        double scaled = ldexp(a, 17 - e);
        q = ldexp(truncate ? trunc(scaled) : nearbyint(scaled), e - 17);
        if (q >= ldexp(1.0, 64))
            q = INFINITY;
    }
    float r = (float)(signbit(x) ? -q : q);
    return f2u(r);
}

static void rounding(void)
{
    fesetround(FE_TONEAREST);
    uint64_t checked = 0;
    for (uint64_t b = 0; b < (1ull << 32); b += 251) {
        uint32_t bits = (uint32_t)b;
        for (int mode = 0; mode < 4; mode++) {
            bool truncate = mode & 1, arithmetic = (mode & 2) != 0;
            uint32_t got = sb_pica_f32_round(bits, truncate, arithmetic);
            uint32_t want = reference(bits, truncate, arithmetic);
            CHECK(got == want, "round(0x%08x, truncate %d, arithmetic %d) = 0x%08x, reference 0x%08x", bits,
                  truncate, arithmetic, got, want);
        }
        checked++;
    }
    /* Ties and carries written out. */
    CHECK(sb_pica_f32_round(0x3F800040u, false, true) == 0x3F800000u, "tie to even (down)");
    CHECK(sb_pica_f32_round(0x3F8000C0u, false, true) == 0x3F800100u, "tie to even (up)");
    CHECK(sb_pica_f32_round(0x3FFFFFC0u, false, true) == 0x40000000u, "carry into the exponent");
    CHECK(sb_pica_f32_round(0x5F7FFFC0u, false, true) == 0x7F800000u, "rounds up to 2^64: inf");
    CHECK(sb_pica_f32_round(0x5F7FFFC0u, true, true) == 0x5F7FFF80u, "truncated: largest normal");
    CHECK(sb_pica_f32_round(0x207FFF00u, false, true) == 0 && sb_pica_f32_round(0x207FFF00u, false, false) == 0x207FFF00u,
          "largest subnormal: flushed in arithmetic, kept in a register");
    CHECK(sb_pica_f32_round(0x80000000u, false, true) == 0, "no -0 from arithmetic");
    printf("rounding: %llu float32 patterns x 4 modes\n", (unsigned long long)checked);
}

int main(void)
{
    table();
    round_trip();
    rounding();
    if (failures) {
        fprintf(stderr, "%u failure(s)\n", failures);
        return 1;
    }
    printf("float24: all checks passed\n");
    return 0;
}
