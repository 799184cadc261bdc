/* SPDX-License-Identifier: MIT */
/*
 * Known-answer ALU cases: one cs_5_0 program shape for every arithmetic,
 * bit, conversion and double instruction class. Thread i reads four vec4
 * rows cb0[4i .. 4i+3] (a dynamically indexed constant buffer, so nothing
 * can be folded at compile time), runs one instruction with up to four
 * sources and two destinations, and stores both destinations with
 * store_raw at u0[32i]. The expected values come from C functions written
 * from D3D's rules (translator/IR.md §Semantics, the rule list of issue #4),
 * not from any implementation.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ka_cases.h"
#include "translator/ir.h"

#define THREADS 8
#define NAN_BITS 0x7fc00000u
#define INF_BITS 0x7f800000u
#define NINF_BITS 0xff800000u

/* One vec4 op: a..d sources, o0/o1 destinations (4 lanes each). */
typedef void (*ka_ref)(const uint32_t *a, const uint32_t *b, const uint32_t *c, const uint32_t *d,
                       uint32_t *o0, uint32_t *o1);

struct alu_case {
    const char *name;
    const char *mask;             /* first destination's mask */
    uint32_t opcode, controls, srcs, dsts;
    ka_ref ref;
    uint32_t inputs[THREADS][16]; /* per thread: rows a, b, c, d */
    uint32_t threads;
    uint32_t ulps;                /* 0 = exact */
};

static float F(uint32_t u) { return ka_asf(u); }
static uint32_t U(float f) { return ka_f(f); }

/* ---- float ---------------------------------------------------------- */

static uint32_t d3d_min(uint32_t a, uint32_t b)
{
    if (isnan(F(a)))
        return b;
    if (isnan(F(b)))
        return a;
    return F(a) < F(b) ? a : b;
}
static uint32_t d3d_max(uint32_t a, uint32_t b)
{
    if (isnan(F(a)))
        return b;
    if (isnan(F(b)))
        return a;
    return F(a) > F(b) ? a : b;
}
static uint32_t sat(float f) { return isnan(f) ? 0 : U(f < 0 ? 0.0f : f > 1 ? 1.0f : f); }

#define LANES(expr)                                                                        \
    for (int i = 0; i < 4; i++) {                                                          \
        o0[i] = (expr);                                                                    \
    }

static void r_add(const uint32_t *a, const uint32_t *b, const uint32_t *c, const uint32_t *d,
                  uint32_t *o0, uint32_t *o1) { LANES(U(F(a[i]) + F(b[i]))) }
static void r_mul(const uint32_t *a, const uint32_t *b, const uint32_t *c, const uint32_t *d,
                  uint32_t *o0, uint32_t *o1) { LANES(U(F(a[i]) * F(b[i]))) }
static void r_mad(const uint32_t *a, const uint32_t *b, const uint32_t *c, const uint32_t *d,
                  uint32_t *o0, uint32_t *o1) { LANES(U(F(a[i]) * F(b[i]) + F(c[i]))) }
static void r_min(const uint32_t *a, const uint32_t *b, const uint32_t *c, const uint32_t *d,
                  uint32_t *o0, uint32_t *o1) { LANES(d3d_min(a[i], b[i])) }
static void r_max(const uint32_t *a, const uint32_t *b, const uint32_t *c, const uint32_t *d,
                  uint32_t *o0, uint32_t *o1) { LANES(d3d_max(a[i], b[i])) }
static void r_add_sat(const uint32_t *a, const uint32_t *b, const uint32_t *c, const uint32_t *d,
                      uint32_t *o0, uint32_t *o1) { LANES(sat(F(a[i]) + F(b[i]))) }
static void r_dp4(const uint32_t *a, const uint32_t *b, const uint32_t *c, const uint32_t *d,
                  uint32_t *o0, uint32_t *o1)
{
    float s = F(a[0]) * F(b[0]) + F(a[1]) * F(b[1]) + F(a[2]) * F(b[2]) + F(a[3]) * F(b[3]);
    LANES(U(s))
}
static void r_div(const uint32_t *a, const uint32_t *b, const uint32_t *c, const uint32_t *d,
                  uint32_t *o0, uint32_t *o1) { LANES(U(F(a[i]) / F(b[i]))) }
static void r_sqrt(const uint32_t *a, const uint32_t *b, const uint32_t *c, const uint32_t *d,
                   uint32_t *o0, uint32_t *o1) { LANES(U(sqrtf(F(a[i])))) }
static void r_rsq(const uint32_t *a, const uint32_t *b, const uint32_t *c, const uint32_t *d,
                  uint32_t *o0, uint32_t *o1) { LANES(U(1.0f / sqrtf(F(a[i])))) }
static void r_rcp(const uint32_t *a, const uint32_t *b, const uint32_t *c, const uint32_t *d,
                  uint32_t *o0, uint32_t *o1) { LANES(U(1.0f / F(a[i]))) }
static void r_exp(const uint32_t *a, const uint32_t *b, const uint32_t *c, const uint32_t *d,
                  uint32_t *o0, uint32_t *o1) { LANES(U(exp2f(F(a[i])))) }
static void r_log(const uint32_t *a, const uint32_t *b, const uint32_t *c, const uint32_t *d,
                  uint32_t *o0, uint32_t *o1) { LANES(U(log2f(F(a[i])))) }
static void r_frc(const uint32_t *a, const uint32_t *b, const uint32_t *c, const uint32_t *d,
                  uint32_t *o0, uint32_t *o1) { LANES(U(F(a[i]) - floorf(F(a[i])))) }
static void r_round_ne(const uint32_t *a, const uint32_t *b, const uint32_t *c, const uint32_t *d,
                       uint32_t *o0, uint32_t *o1) { LANES(U(nearbyintf(F(a[i])))) }
static void r_round_ni(const uint32_t *a, const uint32_t *b, const uint32_t *c, const uint32_t *d,
                       uint32_t *o0, uint32_t *o1) { LANES(U(floorf(F(a[i])))) }
static void r_round_pi(const uint32_t *a, const uint32_t *b, const uint32_t *c, const uint32_t *d,
                       uint32_t *o0, uint32_t *o1) { LANES(U(ceilf(F(a[i])))) }
static void r_round_z(const uint32_t *a, const uint32_t *b, const uint32_t *c, const uint32_t *d,
                      uint32_t *o0, uint32_t *o1) { LANES(U(truncf(F(a[i])))) }

static uint32_t cmp(bool v) { return v ? 0xFFFFFFFFu : 0; }
static void r_eq(const uint32_t *a, const uint32_t *b, const uint32_t *c, const uint32_t *d,
                 uint32_t *o0, uint32_t *o1) { LANES(cmp(F(a[i]) == F(b[i]))) }
static void r_ne(const uint32_t *a, const uint32_t *b, const uint32_t *c, const uint32_t *d,
                 uint32_t *o0, uint32_t *o1) { LANES(cmp(!(F(a[i]) == F(b[i])))) }
static void r_lt(const uint32_t *a, const uint32_t *b, const uint32_t *c, const uint32_t *d,
                 uint32_t *o0, uint32_t *o1) { LANES(cmp(F(a[i]) < F(b[i]))) }
static void r_ge(const uint32_t *a, const uint32_t *b, const uint32_t *c, const uint32_t *d,
                 uint32_t *o0, uint32_t *o1) { LANES(cmp(F(a[i]) >= F(b[i]))) }
static void r_movc(const uint32_t *a, const uint32_t *b, const uint32_t *c, const uint32_t *d,
                   uint32_t *o0, uint32_t *o1) { LANES(a[i] ? b[i] : c[i]) }

/* ---- conversions ------------------------------------------------------ */

static uint32_t ftoi(float f)
{
    if (isnan(f))
        return 0;
    if (f >= 2147483648.0f)
        return 0x7FFFFFFFu;
    if (f <= -2147483648.0f)
        return 0x80000000u;
    return (uint32_t)(int32_t)f;
}
static uint32_t ftou(float f)
{
    if (isnan(f) || f <= 0.0f)
        return 0;
    if (f >= 4294967296.0f)
        return 0xFFFFFFFFu;
    return (uint32_t)f;
}
static void r_ftoi(const uint32_t *a, const uint32_t *b, const uint32_t *c, const uint32_t *d,
                   uint32_t *o0, uint32_t *o1) { LANES(ftoi(F(a[i]))) }
static void r_ftou(const uint32_t *a, const uint32_t *b, const uint32_t *c, const uint32_t *d,
                   uint32_t *o0, uint32_t *o1) { LANES(ftou(F(a[i]))) }
static void r_itof(const uint32_t *a, const uint32_t *b, const uint32_t *c, const uint32_t *d,
                   uint32_t *o0, uint32_t *o1) { LANES(U((float)(int32_t)a[i])) }
static void r_utof(const uint32_t *a, const uint32_t *b, const uint32_t *c, const uint32_t *d,
                   uint32_t *o0, uint32_t *o1) { LANES(U((float)a[i])) }
/* Inputs are exactly representable as half, so the rounding mode does not matter. */
static uint32_t to_half(float f)
{
    uint32_t u = U(f), sign = (u >> 16) & 0x8000u;
    if (isinf(f))
        return sign | 0x7C00u;
    if (f == 0.0f)
        return sign;
    int e = (int)((u >> 23) & 0xff) - 127 + 15;
    return sign | ((uint32_t)e << 10) | ((u >> 13) & 0x3ffu);
}
static float from_half(uint32_t h)
{
    uint32_t sign = (h & 0x8000u) << 16, e = (h >> 10) & 0x1f, m = h & 0x3ff;
    if (e == 0)
        return (sign ? -1.0f : 1.0f) * ldexpf((float)m, -24);
    if (e == 31)
        return ka_asf(sign | 0x7f800000u | (m << 13));
    return ka_asf(sign | ((e - 15 + 127) << 23) | (m << 13));
}
static void r_f32tof16(const uint32_t *a, const uint32_t *b, const uint32_t *c, const uint32_t *d,
                       uint32_t *o0, uint32_t *o1) { LANES(to_half(F(a[i]))) }
static void r_f16tof32(const uint32_t *a, const uint32_t *b, const uint32_t *c, const uint32_t *d,
                       uint32_t *o0, uint32_t *o1) { LANES(U(from_half(a[i] & 0xffff))) }

/* ---- integer ---------------------------------------------------------- */

static void r_iadd(const uint32_t *a, const uint32_t *b, const uint32_t *c, const uint32_t *d,
                   uint32_t *o0, uint32_t *o1) { LANES(a[i] + b[i]) }
static void r_ineg(const uint32_t *a, const uint32_t *b, const uint32_t *c, const uint32_t *d,
                   uint32_t *o0, uint32_t *o1) { LANES(0u - a[i]) }
static void r_imax(const uint32_t *a, const uint32_t *b, const uint32_t *c, const uint32_t *d,
                   uint32_t *o0, uint32_t *o1) { LANES((int32_t)a[i] > (int32_t)b[i] ? a[i] : b[i]) }
static void r_umin(const uint32_t *a, const uint32_t *b, const uint32_t *c, const uint32_t *d,
                   uint32_t *o0, uint32_t *o1) { LANES(a[i] < b[i] ? a[i] : b[i]) }
static void r_ilt(const uint32_t *a, const uint32_t *b, const uint32_t *c, const uint32_t *d,
                  uint32_t *o0, uint32_t *o1) { LANES(cmp((int32_t)a[i] < (int32_t)b[i])) }
static void r_uge(const uint32_t *a, const uint32_t *b, const uint32_t *c, const uint32_t *d,
                  uint32_t *o0, uint32_t *o1) { LANES(cmp(a[i] >= b[i])) }
static void r_imul(const uint32_t *a, const uint32_t *b, const uint32_t *c, const uint32_t *d,
                   uint32_t *o0, uint32_t *o1)
{
    for (int i = 0; i < 4; i++) {
        int64_t p = (int64_t)(int32_t)a[i] * (int32_t)b[i];
        o0[i] = (uint32_t)((uint64_t)p >> 32);
        o1[i] = (uint32_t)p;
    }
}
static void r_umul(const uint32_t *a, const uint32_t *b, const uint32_t *c, const uint32_t *d,
                   uint32_t *o0, uint32_t *o1)
{
    for (int i = 0; i < 4; i++) {
        uint64_t p = (uint64_t)a[i] * b[i];
        o0[i] = (uint32_t)(p >> 32);
        o1[i] = (uint32_t)p;
    }
}
static void r_udiv(const uint32_t *a, const uint32_t *b, const uint32_t *c, const uint32_t *d,
                   uint32_t *o0, uint32_t *o1)
{
    for (int i = 0; i < 4; i++) {
        o0[i] = b[i] ? a[i] / b[i] : 0xFFFFFFFFu;
        o1[i] = b[i] ? a[i] % b[i] : 0xFFFFFFFFu;
    }
}
static void r_uaddc(const uint32_t *a, const uint32_t *b, const uint32_t *c, const uint32_t *d,
                    uint32_t *o0, uint32_t *o1)
{
    for (int i = 0; i < 4; i++) {
        o0[i] = a[i] + b[i];
        o1[i] = o0[i] < a[i];
    }
}
static void r_usubb(const uint32_t *a, const uint32_t *b, const uint32_t *c, const uint32_t *d,
                    uint32_t *o0, uint32_t *o1)
{
    for (int i = 0; i < 4; i++) {
        o0[i] = a[i] - b[i];
        o1[i] = a[i] < b[i];
    }
}

/* ---- bits ------------------------------------------------------------- */

static void r_and(const uint32_t *a, const uint32_t *b, const uint32_t *c, const uint32_t *d,
                  uint32_t *o0, uint32_t *o1) { LANES(a[i] & b[i]) }
static void r_xor(const uint32_t *a, const uint32_t *b, const uint32_t *c, const uint32_t *d,
                  uint32_t *o0, uint32_t *o1) { LANES(a[i] ^ b[i]) }
static void r_not(const uint32_t *a, const uint32_t *b, const uint32_t *c, const uint32_t *d,
                  uint32_t *o0, uint32_t *o1) { LANES(~a[i]) }
static void r_ishl(const uint32_t *a, const uint32_t *b, const uint32_t *c, const uint32_t *d,
                   uint32_t *o0, uint32_t *o1) { LANES(a[i] << (b[i] & 31)) }
static void r_ishr(const uint32_t *a, const uint32_t *b, const uint32_t *c, const uint32_t *d,
                   uint32_t *o0, uint32_t *o1)
{
    LANES((uint32_t)((int32_t)a[i] >> (b[i] & 31)))
}
static void r_ushr(const uint32_t *a, const uint32_t *b, const uint32_t *c, const uint32_t *d,
                   uint32_t *o0, uint32_t *o1) { LANES(a[i] >> (b[i] & 31)) }
static uint32_t bfe(uint32_t width, uint32_t offset, uint32_t value, bool is_signed)
{
    width &= 31;
    offset &= 31;
    if (width == 0)
        return 0;
    if (width + offset < 32) {
        uint32_t up = value << (32 - width - offset);
        return is_signed ? (uint32_t)((int32_t)up >> (32 - width)) : up >> (32 - width);
    }
    return is_signed ? (uint32_t)((int32_t)value >> offset) : value >> offset;
}
static void r_ubfe(const uint32_t *a, const uint32_t *b, const uint32_t *c, const uint32_t *d,
                   uint32_t *o0, uint32_t *o1) { LANES(bfe(a[i], b[i], c[i], false)) }
static void r_ibfe(const uint32_t *a, const uint32_t *b, const uint32_t *c, const uint32_t *d,
                   uint32_t *o0, uint32_t *o1) { LANES(bfe(a[i], b[i], c[i], true)) }
static uint32_t bfi(uint32_t width, uint32_t offset, uint32_t insert, uint32_t base)
{
    width &= 31;
    offset &= 31;
    uint32_t mask = (uint32_t)((((uint64_t)1 << width) - 1) << offset);
    return ((insert << offset) & mask) | (base & ~mask);
}
static void r_bfi(const uint32_t *a, const uint32_t *b, const uint32_t *c, const uint32_t *d,
                  uint32_t *o0, uint32_t *o1) { LANES(bfi(a[i], b[i], c[i], d[i])) }
static uint32_t msb(uint32_t v)
{
    int i = 31;
    while (i >= 0 && !((v >> i) & 1))
        i--;
    return (uint32_t)i;
}
static uint32_t firstbit_hi(uint32_t v) { return v ? 31 - msb(v) : 0xFFFFFFFFu; }
static uint32_t firstbit_shi(uint32_t v)
{
    uint32_t x = (v & 0x80000000u) ? ~v : v;
    return x ? 31 - msb(x) : 0xFFFFFFFFu;
}
static uint32_t firstbit_lo(uint32_t v)
{
    if (!v)
        return 0xFFFFFFFFu;
    uint32_t i = 0;
    while (!((v >> i) & 1))
        i++;
    return i;
}
static uint32_t popcount(uint32_t v)
{
    uint32_t n = 0;
    for (; v; v &= v - 1)
        n++;
    return n;
}
static uint32_t reverse(uint32_t v)
{
    uint32_t r = 0;
    for (int i = 0; i < 32; i++)
        r |= ((v >> i) & 1u) << (31 - i);
    return r;
}
static void r_fbhi(const uint32_t *a, const uint32_t *b, const uint32_t *c, const uint32_t *d,
                   uint32_t *o0, uint32_t *o1) { LANES(firstbit_hi(a[i])) }
static void r_fbshi(const uint32_t *a, const uint32_t *b, const uint32_t *c, const uint32_t *d,
                    uint32_t *o0, uint32_t *o1) { LANES(firstbit_shi(a[i])) }
static void r_fblo(const uint32_t *a, const uint32_t *b, const uint32_t *c, const uint32_t *d,
                   uint32_t *o0, uint32_t *o1) { LANES(firstbit_lo(a[i])) }
static void r_countbits(const uint32_t *a, const uint32_t *b, const uint32_t *c, const uint32_t *d,
                        uint32_t *o0, uint32_t *o1) { LANES(popcount(a[i])) }
static void r_bfrev(const uint32_t *a, const uint32_t *b, const uint32_t *c, const uint32_t *d,
                    uint32_t *o0, uint32_t *o1) { LANES(reverse(a[i])) }

/* ---- more: multiply-add, dot products, swapc, msad ---------------------- */

static void r_imad(const uint32_t *a, const uint32_t *b, const uint32_t *c, const uint32_t *d,
                   uint32_t *o0, uint32_t *o1) { LANES(a[i] * b[i] + c[i]) }
static void r_dp2(const uint32_t *a, const uint32_t *b, const uint32_t *c, const uint32_t *d,
                  uint32_t *o0, uint32_t *o1) { LANES(U(F(a[0]) * F(b[0]) + F(a[1]) * F(b[1]))) }
static void r_dp3(const uint32_t *a, const uint32_t *b, const uint32_t *c, const uint32_t *d,
                  uint32_t *o0, uint32_t *o1)
{
    LANES(U(F(a[0]) * F(b[0]) + F(a[1]) * F(b[1]) + F(a[2]) * F(b[2])))
}
static void r_swapc(const uint32_t *a, const uint32_t *b, const uint32_t *c, const uint32_t *d,
                    uint32_t *o0, uint32_t *o1)
{
    for (int i = 0; i < 4; i++) {
        o0[i] = a[i] ? c[i] : b[i];
        o1[i] = a[i] ? b[i] : c[i];
    }
}
/* Masked sum of absolute byte differences: reference bytes of 0 are skipped. */
static uint32_t msad(uint32_t ref, uint32_t src, uint32_t accum)
{
    for (int k = 0; k < 32; k += 8) {
        int r = (int)((ref >> k) & 0xff), v = (int)((src >> k) & 0xff);
        if (r)
            accum += (uint32_t)(r > v ? r - v : v - r);
    }
    return accum;
}
static void r_msad(const uint32_t *a, const uint32_t *b, const uint32_t *c, const uint32_t *d,
                   uint32_t *o0, uint32_t *o1) { LANES(msad(a[i], b[i], c[i])) }

/* ---- doubles (two per vec4: lanes xy and zw) -------------------------- */

static double D2(const uint32_t *v, int pair)
{
    return ka_asd((uint64_t)v[2 * pair] | ((uint64_t)v[2 * pair + 1] << 32));
}
static void put_d(uint32_t *o, int pair, double v)
{
    uint64_t u = ka_d(v);
    o[2 * pair] = (uint32_t)u;
    o[2 * pair + 1] = (uint32_t)(u >> 32);
}
static double dmin(double a, double b) { return isnan(a) ? b : isnan(b) ? a : a < b ? a : b; }
static double dmax(double a, double b) { return isnan(a) ? b : isnan(b) ? a : a > b ? a : b; }
#define DLANES(expr)                                                                       \
    for (int p = 0; p < 2; p++)                                                            \
        put_d(o0, p, (expr));
static void r_dadd(const uint32_t *a, const uint32_t *b, const uint32_t *c, const uint32_t *d,
                   uint32_t *o0, uint32_t *o1) { DLANES(D2(a, p) + D2(b, p)) }
static void r_dmul(const uint32_t *a, const uint32_t *b, const uint32_t *c, const uint32_t *d,
                   uint32_t *o0, uint32_t *o1) { DLANES(D2(a, p) * D2(b, p)) }
static void r_ddiv(const uint32_t *a, const uint32_t *b, const uint32_t *c, const uint32_t *d,
                   uint32_t *o0, uint32_t *o1) { DLANES(D2(a, p) / D2(b, p)) }
static void r_dmin(const uint32_t *a, const uint32_t *b, const uint32_t *c, const uint32_t *d,
                   uint32_t *o0, uint32_t *o1) { DLANES(dmin(D2(a, p), D2(b, p))) }
static void r_dmax(const uint32_t *a, const uint32_t *b, const uint32_t *c, const uint32_t *d,
                   uint32_t *o0, uint32_t *o1) { DLANES(dmax(D2(a, p), D2(b, p))) }

static void r_dfma(const uint32_t *a, const uint32_t *b, const uint32_t *c, const uint32_t *d,
                   uint32_t *o0, uint32_t *o1) { DLANES(fma(D2(a, p), D2(b, p), D2(c, p))) }
/* Conversions to double read lanes x and y of the source; from double write x and y. */
static void r_ftod(const uint32_t *a, const uint32_t *b, const uint32_t *c, const uint32_t *d,
                   uint32_t *o0, uint32_t *o1) { DLANES((double)F(a[p])) }
static void r_itod(const uint32_t *a, const uint32_t *b, const uint32_t *c, const uint32_t *d,
                   uint32_t *o0, uint32_t *o1) { DLANES((double)(int32_t)a[p]) }
static void r_utod(const uint32_t *a, const uint32_t *b, const uint32_t *c, const uint32_t *d,
                   uint32_t *o0, uint32_t *o1) { DLANES((double)a[p]) }
static void r_dtof(const uint32_t *a, const uint32_t *b, const uint32_t *c, const uint32_t *d,
                   uint32_t *o0, uint32_t *o1)
{
    for (int p = 0; p < 2; p++)
        o0[p] = U((float)D2(a, p));
}
static void r_dtoi(const uint32_t *a, const uint32_t *b, const uint32_t *c, const uint32_t *d,
                   uint32_t *o0, uint32_t *o1)
{
    for (int p = 0; p < 2; p++)
        o0[p] = (uint32_t)(int32_t)D2(a, p);
}
static void r_dtou(const uint32_t *a, const uint32_t *b, const uint32_t *c, const uint32_t *d,
                   uint32_t *o0, uint32_t *o1)
{
    for (int p = 0; p < 2; p++)
        o0[p] = (uint32_t)D2(a, p);
}
static void r_deq(const uint32_t *a, const uint32_t *b, const uint32_t *c, const uint32_t *d,
                  uint32_t *o0, uint32_t *o1)
{
    for (int p = 0; p < 2; p++)
        o0[p] = cmp(D2(a, p) == D2(b, p));
}
static void r_dlt(const uint32_t *a, const uint32_t *b, const uint32_t *c, const uint32_t *d,
                  uint32_t *o0, uint32_t *o1)
{
    for (int p = 0; p < 2; p++)
        o0[p] = cmp(D2(a, p) < D2(b, p));
}

/* ---- inputs: one set per instruction family ------------------------- */

enum input_set {
    IN_FLOAT, IN_HALF, IN_HALF_BITS, IN_INT, IN_SHIFT, IN_BITFIELD, IN_BITS, IN_DOUBLE,
    IN_DOUBLE_INT, IN_DOUBLE_UINT
};

#define V4(a, b, c, d) a, b, c, d
#define FV(a, b, c, d) U(a), U(b), U(c), U(d)

static void set_inputs(struct alu_case *k, enum input_set set)
{
    /* Signed zeros are never paired with each other: min/max may return either. */
    const uint32_t floats[4][16] = {
        { V4(NAN_BITS, U(1.0f), NAN_BITS, U(-0.0f)), V4(U(1.0f), NAN_BITS, NAN_BITS, U(-4.0f)),
          FV(2.0f, 0.5f, -1.0f, 0.0f) },
        { FV(3.0f, -2.0f, 0.5f, 1e30f), FV(2.0f, -3.0f, 0.25f, 1e10f), FV(1.0f, 1.0f, 1.0f, 1.0f) },
        { V4(INF_BITS, NINF_BITS, U(-1.5f), U(0.0f)), V4(NINF_BITS, U(5.0f), U(-1.5f), INF_BITS),
          FV(-4.0f, 0.0f, 8.0f, 0.125f) },
        { FV(0.75f, -0.75f, 100.0f, -100.0f), FV(0.25f, 0.5f, -99.0f, 101.0f),
          FV(0.5f, -0.0f, 3.0f, 1e-3f) },
    };
    const uint32_t halves[4][16] = {
        { FV(1.0f, -2.0f, 0.5f, 65504.0f) },
        { V4(INF_BITS, NINF_BITS, 0, 0x80000000u) },
        { FV(0.125f, 3.0f, -1024.0f, 6.103515625e-05f) },
        { FV(2.0f, -4.0f, 1.5f, 0.333251953125f) },
    };
    const uint32_t half_bits[4][16] = {
        { V4(0x3c00u, 0xffffc000u, 0x7bffu, 0x12340400u) },
        { V4(0x7c00u, 0xfc00u, 0u, 0x8000u) },
        { V4(0x3555u, 0x5640u, 0x3800u, 0xabcd4000u) },
        { V4(0x0400u, 0xc400u, 0x7800u, 0xffff3c01u) },
    };
    const uint32_t ints[4][16] = {
        { V4(7, 0xFFFFFFF9u, 0x7FFFFFFFu, 0x80000000u), V4(3, 3, 1, 0xFFFFFFFFu) },
        { V4(0, 0xFFFFFFFFu, 5, 100), V4(0, 1, 0, 7) },
        { V4(12345678, 0xDEADBEEFu, 1, 2), V4(87654321, 0x0BADF00Du, 0xFFFFFFFFu, 0xFFFFFFFEu) },
        { V4(0x10000, 0xFFFF, 0x80000001u, 2), V4(0x10000, 0xFFFF, 2, 0x80000000u) },
    };
    const uint32_t shifts[4][16] = {
        { V4(1, 0x80000000u, 0x80000000u, 0xDEADBEEFu), V4(33, 31, 35, 0) },
        { V4(0xFFFFFFFFu, 0x12345678u, 5, 0x80000001u), V4(32, 4, 64, 63) },
        { V4(0x0F0F0F0Fu, 0xF0000000u, 3, 0x40000000u), V4(1, 28, 0xFFFFFFE1u, 2) },
        { V4(0xC0000000u, 7, 0x80000000u, 1), V4(30, 3, 0xFFFFFFFFu, 31) },
    };
    /* width, offset, value, base */
    const uint32_t fields[4][16] = {
        { V4(8, 0, 31, 33), V4(16, 5, 1, 4), V4(0x12345678u, 0xFFFFFFFFu, 0x80000001u, 0xFF00u),
          V4(0xAAAAAAAAu, 0x55555555u, 0, 0xFFFFFFFFu) },
        { V4(4, 16, 24, 1), V4(28, 20, 8, 31), V4(0xF0000000u, 0x8000FFFFu, 0xDEADBEEFu, 0x80000000u),
          V4(0x12345678u, 0, 0xFFFFFFFFu, 0x7FFFFFFFu) },
        { V4(8, 12, 32, 5), V4(28, 24, 3, 36), V4(0xFEDCBA98u, 0x87654321u, 0xC0000000u, 0x3E0u),
          V4(0, 0xFFFFFFFFu, 0x11111111u, 0x22222222u) },
        { V4(1, 31, 2, 16), V4(0, 0, 30, 16), V4(0xFFFFFFFFu, 0x7FFFFFFFu, 0xFFFFFFFFu, 0x8001FFFFu),
          V4(0, 0, 0, 0xFFFF0000u) },
    };
    const uint32_t bits[4][16] = {
        { V4(0, 1, 0x08000000u, 0x80000000u) },
        { V4(0xFFFFFFFFu, 0xFFFFFFFEu, 0x7FFFFFFFu, 0x00010000u) },
        { V4(0xF0F0F0F0u, 0x12345678u, 0xC0000000u, 3) },
        { V4(0xF7FFFFFFu, 0x00000100u, 0x80000001u, 0x55555555u) },
    };
    /* doubles: rows a, b, c hold two doubles each; the integer sets stay in range */
    static const double doubles[3][4][6] = {
        { { 1.5, NAN, 2.25, 7.0, 0.5, -1.0 }, { 1e300, -3.0, 1e10, 0.5, 1.0, 1e300 },
          { 1.0, 3.0, 3.0, 1e-300, -3.0, 0.0 }, { -2.5, INFINITY, NAN, NAN, 2.0, 2.0 } },
        { { 1.5, -2.75 }, { 1e9, -1e9 }, { 0.0, 3.9999 }, { -0.5, 123456.75 } },
        { { 1.5, 2.75 }, { 4e9, 1e9 }, { 0.0, 3.9999 }, { 0.5, 123456.75 } },
    };
    static uint32_t d[3][4][16];
    for (int s = 0; s < 3; s++)
        for (int t = 0; t < 4; t++)
            for (int i = 0; i < 6; i++) {
                uint64_t u = ka_d(doubles[s][t][i]);
                d[s][t][2 * i] = (uint32_t)u;
                d[s][t][2 * i + 1] = (uint32_t)(u >> 32);
            }
    const uint32_t(*sets[])[16] = { floats, halves, half_bits, ints, shifts, fields, bits,
                                    d[0], d[1], d[2] };
    k->threads = 4;
    memcpy(k->inputs, sets[set], sizeof(uint32_t) * 16 * 4);
}

/* The table: one row per instruction class. */
static const struct {
    const char *name;
    uint32_t opcode, controls, srcs, dsts;
    ka_ref ref;
    enum input_set inputs;
    uint32_t ulps;
    const char *mask; /* first destination's mask; NULL = xyzw */
} rows[] = {
    { "add", OP_ADD, 0, 2, 1, r_add, IN_FLOAT, 0, NULL },
    { "mul", OP_MUL, 0, 2, 1, r_mul, IN_FLOAT, 0, NULL },
    { "mad", OP_MAD, 0, 3, 1, r_mad, IN_FLOAT, 1, NULL },
    { "min_nan", OP_MIN, 0, 2, 1, r_min, IN_FLOAT, 0, NULL },
    { "max_nan", OP_MAX, 0, 2, 1, r_max, IN_FLOAT, 0, NULL },
    { "add_sat", OP_ADD, SM4_SAT, 2, 1, r_add_sat, IN_FLOAT, 0, NULL },
    { "dp4", OP_DP4, 0, 2, 1, r_dp4, IN_FLOAT, 2, NULL },
    { "div", OP_DIV, 0, 2, 1, r_div, IN_FLOAT, 3, NULL },
    { "sqrt", OP_SQRT, 0, 1, 1, r_sqrt, IN_FLOAT, 3, NULL },
    { "rsq", OP_RSQ, 0, 1, 1, r_rsq, IN_FLOAT, 3, NULL },
    { "rcp", OP_RCP, 0, 1, 1, r_rcp, IN_FLOAT, 3, NULL },
    { "exp", OP_EXP, 0, 1, 1, r_exp, IN_HALF, 3, NULL },
    { "log", OP_LOG, 0, 1, 1, r_log, IN_FLOAT, 3, NULL },
    { "frc", OP_FRC, 0, 1, 1, r_frc, IN_FLOAT, 0, NULL },
    { "round_ne", OP_ROUND_NE, 0, 1, 1, r_round_ne, IN_FLOAT, 0, NULL },
    { "round_ni", OP_ROUND_NI, 0, 1, 1, r_round_ni, IN_FLOAT, 0, NULL },
    { "round_pi", OP_ROUND_PI, 0, 1, 1, r_round_pi, IN_FLOAT, 0, NULL },
    { "round_z", OP_ROUND_Z, 0, 1, 1, r_round_z, IN_FLOAT, 0, NULL },
    { "eq", OP_EQ, 0, 2, 1, r_eq, IN_FLOAT, 0, NULL },
    { "ne", OP_NE, 0, 2, 1, r_ne, IN_FLOAT, 0, NULL },
    { "lt", OP_LT, 0, 2, 1, r_lt, IN_FLOAT, 0, NULL },
    { "ge", OP_GE, 0, 2, 1, r_ge, IN_FLOAT, 0, NULL },
    { "movc", OP_MOVC, 0, 3, 1, r_movc, IN_FLOAT, 0, NULL },
    { "ftoi", OP_FTOI, 0, 1, 1, r_ftoi, IN_FLOAT, 0, NULL },
    { "ftou", OP_FTOU, 0, 1, 1, r_ftou, IN_FLOAT, 0, NULL },
    { "itof", OP_ITOF, 0, 1, 1, r_itof, IN_INT, 0, NULL },
    { "utof", OP_UTOF, 0, 1, 1, r_utof, IN_INT, 0, NULL },
    { "f32tof16", OP_F32TOF16, 0, 1, 1, r_f32tof16, IN_HALF, 0, NULL },
    { "f16tof32", OP_F16TOF32, 0, 1, 1, r_f16tof32, IN_HALF_BITS, 0, NULL },
    { "iadd", OP_IADD, 0, 2, 1, r_iadd, IN_INT, 0, NULL },
    { "ineg", OP_INEG, 0, 1, 1, r_ineg, IN_INT, 0, NULL },
    { "imax", OP_IMAX, 0, 2, 1, r_imax, IN_INT, 0, NULL },
    { "umin", OP_UMIN, 0, 2, 1, r_umin, IN_INT, 0, NULL },
    { "ilt", OP_ILT, 0, 2, 1, r_ilt, IN_INT, 0, NULL },
    { "uge", OP_UGE, 0, 2, 1, r_uge, IN_INT, 0, NULL },
    { "imul", OP_IMUL, 0, 2, 2, r_imul, IN_INT, 0, NULL },
    { "umul", OP_UMUL, 0, 2, 2, r_umul, IN_INT, 0, NULL },
    { "udiv_by_zero", OP_UDIV, 0, 2, 2, r_udiv, IN_INT, 0, NULL },
    { "uaddc", OP_UADDC, 0, 2, 2, r_uaddc, IN_INT, 0, NULL },
    { "usubb", OP_USUBB, 0, 2, 2, r_usubb, IN_INT, 0, NULL },
    { "and", OP_AND, 0, 2, 1, r_and, IN_INT, 0, NULL },
    { "xor", OP_XOR, 0, 2, 1, r_xor, IN_INT, 0, NULL },
    { "not", OP_NOT, 0, 1, 1, r_not, IN_INT, 0, NULL },
    { "ishl", OP_ISHL, 0, 2, 1, r_ishl, IN_SHIFT, 0, NULL },
    { "ishr", OP_ISHR, 0, 2, 1, r_ishr, IN_SHIFT, 0, NULL },
    { "ushr", OP_USHR, 0, 2, 1, r_ushr, IN_SHIFT, 0, NULL },
    { "ubfe", OP_UBFE, 0, 3, 1, r_ubfe, IN_BITFIELD, 0, NULL },
    { "ibfe", OP_IBFE, 0, 3, 1, r_ibfe, IN_BITFIELD, 0, NULL },
    { "bfi", OP_BFI, 0, 4, 1, r_bfi, IN_BITFIELD, 0, NULL },
    { "firstbit_hi", OP_FIRSTBIT_HI, 0, 1, 1, r_fbhi, IN_BITS, 0, NULL },
    { "firstbit_shi", OP_FIRSTBIT_SHI, 0, 1, 1, r_fbshi, IN_BITS, 0, NULL },
    { "firstbit_lo", OP_FIRSTBIT_LO, 0, 1, 1, r_fblo, IN_BITS, 0, NULL },
    { "countbits", OP_COUNTBITS, 0, 1, 1, r_countbits, IN_BITS, 0, NULL },
    { "bfrev", OP_BFREV, 0, 1, 1, r_bfrev, IN_BITS, 0, NULL },
    { "dadd", OP_DADD, 0, 2, 1, r_dadd, IN_DOUBLE, 0, NULL },
    { "dmul", OP_DMUL, 0, 2, 1, r_dmul, IN_DOUBLE, 0, NULL },
    { "ddiv", OP_DDIV, 0, 2, 1, r_ddiv, IN_DOUBLE, 0, NULL },
    { "dmin_nan", OP_DMIN, 0, 2, 1, r_dmin, IN_DOUBLE, 0, NULL },
    { "dmax_nan", OP_DMAX, 0, 2, 1, r_dmax, IN_DOUBLE, 0, NULL },
    { "imad", OP_IMAD, 0, 3, 1, r_imad, IN_INT, 0, NULL },
    { "umad", OP_UMAD, 0, 3, 1, r_imad, IN_INT, 0, NULL },
    { "dp2", OP_DP2, 0, 2, 1, r_dp2, IN_FLOAT, 1, NULL },
    { "dp3", OP_DP3, 0, 2, 1, r_dp3, IN_FLOAT, 2, NULL },
    { "swapc", OP_SWAPC, 0, 3, 2, r_swapc, IN_FLOAT, 0, NULL },
    { "msad", OP_MSAD, 0, 3, 1, r_msad, IN_INT, 0, NULL },
    { "dfma", OP_DFMA, 0, 3, 1, r_dfma, IN_DOUBLE, 0, NULL },
    { "ftod", OP_FTOD, 0, 1, 1, r_ftod, IN_FLOAT, 0, NULL },
    { "itod", OP_ITOD, 0, 1, 1, r_itod, IN_INT, 0, NULL },
    { "utod", OP_UTOD, 0, 1, 1, r_utod, IN_INT, 0, NULL },
    { "dtof", OP_DTOF, 0, 1, 1, r_dtof, IN_DOUBLE, 0, "xy" },
    { "dtoi", OP_DTOI, 0, 1, 1, r_dtoi, IN_DOUBLE_INT, 0, "xy" },
    { "dtou", OP_DTOU, 0, 1, 1, r_dtou, IN_DOUBLE_UINT, 0, "xy" },
    { "deq", OP_DEQ, 0, 2, 1, r_deq, IN_DOUBLE, 0, "xy" },
    { "dlt", OP_DLT, 0, 2, 1, r_dlt, IN_DOUBLE, 0, "xy" },
};

uint32_t ka_alu_count(void) { return sizeof(rows) / sizeof(rows[0]); }

/* Assembles the shared program shape around one instruction. */
static void assemble(const struct alu_case *k, struct ka_case *c)
{
    struct sm4_program *p = &c->program;
    sm4_begin_cs(p, THREADS, 1, 1, 8);
    sm4_dcl_cb(p, 0, THREADS * 4, 1);
    sm4_dcl_uav_raw(p, 0);
    sm4_dcl_thread_id(p, T_THREAD_ID, "x");
    /* r7.x = 4i (first row), r7.y = 32i (output byte offset) */
    I(p, OP_ISHL, dr(7, "x"), special(T_THREAD_ID, "x"), l1(2));
    I(p, OP_ISHL, dr(7, "y"), special(T_THREAD_ID, "x"), l1(5));
    struct sm4_operand row = sr(7, "x");
    I(p, OP_MOV, dr(0, "xyzw"), scb(0, 0, &row, "xyzw"));
    I(p, OP_MOV, dr(1, "xyzw"), scb(0, 1, &row, "xyzw"));
    I(p, OP_MOV, dr(2, "xyzw"), scb(0, 2, &row, "xyzw"));
    I(p, OP_MOV, dr(3, "xyzw"), scb(0, 3, &row, "xyzw"));
    I(p, OP_MOV, dr(4, "xyzw"), l4(0, 0, 0, 0));
    I(p, OP_MOV, dr(5, "xyzw"), l4(0, 0, 0, 0));
    struct sm4_operand ops[6];
    uint32_t n = 0;
    ops[n++] = dr(4, k->mask);
    if (k->dsts == 2)
        ops[n++] = dr(5, "xyzw");
    for (uint32_t s = 0; s < k->srcs; s++)
        ops[n++] = sr(s, "xyzw");
    sm4_inst(p, k->opcode, k->controls, n, ops);
    I(p, OP_STORE_RAW, du(0, "xyzw"), sr(7, "y"), sr(4, "xyzw"));
    I(p, OP_IADD, dr(7, "y"), sr(7, "y"), l1(16));
    I(p, OP_STORE_RAW, du(0, "xyzw"), sr(7, "y"), sr(5, "xyzw"));
    sm4_end(p);
}

void ka_alu_build(uint32_t index, struct ka_case *c)
{
    static struct alu_case k;
    memset(&k, 0, sizeof(k));
    if (index >= ka_alu_count())
        index = 0;
    k.name = rows[index].name;
    k.opcode = rows[index].opcode;
    k.controls = rows[index].controls;
    k.srcs = rows[index].srcs;
    k.dsts = rows[index].dsts;
    k.ref = rows[index].ref;
    k.ulps = rows[index].ulps;
    k.mask = rows[index].mask ? rows[index].mask : "xyzw";
    set_inputs(&k, rows[index].inputs);
    memset(c, 0, sizeof(*c));
    snprintf(c->name, sizeof(c->name), "alu_%s", k.name);
    assemble(&k, c);
    c->groups = 1;
    struct ka_resource *cb = ka_add(c, SB_IR_RESOURCE_CBV, 0, KA_BUFFER, THREADS * 16);
    struct ka_resource *out = ka_add(c, SB_IR_RESOURCE_UAV, 0, KA_BUFFER, THREADS * 8);
    out->check = true;
    out->compare = k.ulps ? KA_ULPS : KA_EXACT;
    out->ulps = k.ulps;
    out->check_count = THREADS * 8;
    for (uint32_t t = 0; t < THREADS; t++) {
        /* Threads past the input set repeat it, shifted, so every thread is checked. */
        const uint32_t *in = k.inputs[t % k.threads];
        memcpy(&cb->init[t * 16], in, 64);
        uint32_t o1[4] = { 0, 0, 0, 0 };
        k.ref(in, in + 4, in + 8, in + 12, &out->expect[t * 8], o1);
        memcpy(&out->expect[t * 8 + 4], o1, 16);
    }
}
