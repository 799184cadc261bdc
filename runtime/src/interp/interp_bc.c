/* SPDX-License-Identifier: MIT */
/*
 * Block-compressed texel decoding for the CPU interpreter (issue #15 item 5):
 * one 4x4 block of BC1..BC7 in, sixteen RGBA texels of float bits out.
 * Standalone: calls nothing but libc, so the texture path can adopt it later.
 *
 * Results (texel i = row i / 4, column i % 4, the blocks' own order):
 *   * unorm channels are floats in [0, 1], snorm channels in [-1, 1], BC6H
 *     channels the half D3D's decoding produces, widened exactly to float;
 *   * channels a format lacks read as D3D's defaults: 0 for G/B, 1 for A
 *     (BC4: (r, 0, 0, 1), BC5: (r, g, 0, 1), BC6H: (r, g, b, 1)).
 * How a value is computed, and why that way:
 *   * BC1..BC3 colour: 565 endpoints widen to 8 bits by bit replication
 *     ((v << 3) | (v >> 2), (v << 2) | (v >> 4)); D3D11 specifies the
 *     interpolants as exact thirds (and halves in BC1's three-colour mode),
 *     so an interpolated channel is the exact rational
 *     (w0 * e0 + w1 * e1) / (den * 255) rounded once to float. The endpoints
 *     themselves are e / 255 rounded once, as D3D's UNORM -> float rule says.
 *   * BC1 picks three-colour mode (index 2 = midpoint, index 3 = transparent
 *     black) when c0 <= c1 as 16-bit numbers; BC2/BC3 always use four colours
 *     (D3D: their colour block ignores the comparison).
 *   * BC2 alpha: 4 explicit bits per texel, a / 15.
 *   * BC3 alpha and BC4/BC5 channels: eight values when e0 > e1 (sevenths),
 *     else six (fifths) plus the two constants (0 and 1 unorm, -1 and 1
 *     snorm); snorm endpoints are signed bytes with -128 read as -127, values
 *     over 127 (again exact rationals rounded once).
 *   * BC6H: the 14 modes' field layouts, delta endpoints (sign-extended,
 *     added to endpoint 0, wrapped), unquantization, the 6-bit-weight
 *     interpolation and finish_unquantize are integer steps, so the half is
 *     exact. UF16 never exceeds 0x7BFF (65504); SF16 clamps every endpoint
 *     but a 16-bit one, so -inf comes only from endpoint -32768 in D3D mode
 *     14 (mode number 15), as the specified arithmetic gives. Reserved modes
 *     decode to (0, 0, 0, 1).
 *   * BC7: endpoints widen to 8 bits (p-bit appended, then the top bits
 *     replicated), interpolate with the format's 6-bit weights as
 *     ((64 - w) * e0 + w * e1 + 32) >> 6, and the 8-bit result is n / 255.
 *     The reserved mode (first byte 0) decodes to transparent black, as D3D says.
 * Tables (modes, partitions, anchors, BC6H field layouts) are transcribed from
 * the BPTC specification (ARB_texture_compression_bptc), which D3D shares.
 * Every read is bounded by block_bytes: the bit reader refuses past the end,
 * and the entry refuses a block shorter than the format's (8 or 16 bytes).
 */
#include "interp_private.h"

#include <string.h>

/* The float bits of a value. */
static uint32_t bits_of(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof(u));
    return u;
}

/* (w0 * e0 + w1 * e1) / den as a float rounded once: the integers are small (under 2^20),
 * so the double quotient is within half a double ULP and its rounding to float is the
 * correctly rounded rational except for exact float ties, which these denominators (3*255,
 * 2*255, 7*255, 5*255, 7*127, 5*127, 15, 255) never produce. */
static uint32_t ratio_bits(int32_t num, int32_t den)
{
    return bits_of((float)((double)num / (double)den));
}

/* ---- BC1..BC3 colour ---------------------------------------------------------------------- */

/* Colour block (8 bytes at b): RGB of each texel into out[i][0..2]; alpha into out[i][3]
 * (1, or 0 for BC1's transparent index). `three_colour_allowed` is BC1's rule. */
static void decode_colour(const uint8_t *b, bool three_colour_allowed, uint32_t out[16][4])
{
    const uint32_t c[2] = { (uint32_t)b[0] | (uint32_t)b[1] << 8, (uint32_t)b[2] | (uint32_t)b[3] << 8 };
    int32_t e[2][3];
    for (int k = 0; k < 2; k++) {
        const uint32_t r = c[k] >> 11 & 31u, g = c[k] >> 5 & 63u, bl = c[k] & 31u;
        e[k][0] = (int32_t)(r << 3 | r >> 2);
        e[k][1] = (int32_t)(g << 2 | g >> 4);
        e[k][2] = (int32_t)(bl << 3 | bl >> 2);
    }
    const bool four = !three_colour_allowed || c[0] > c[1];
    /* The palette as weights on (e0, e1) over a denominator, times 255 for the unorm scale. */
    static const int32_t w4[4][2] = { { 1, 0 }, { 0, 1 }, { 2, 1 }, { 1, 2 } };
    static const int32_t w3[4][2] = { { 1, 0 }, { 0, 1 }, { 1, 1 }, { 0, 0 } };
    const uint32_t indices = (uint32_t)b[4] | (uint32_t)b[5] << 8 | (uint32_t)b[6] << 16 | (uint32_t)b[7] << 24;
    for (uint32_t i = 0; i < 16; i++) {
        const uint32_t idx = indices >> (2 * i) & 3u;
        const int32_t(*w)[2] = four ? w4 : w3;
        const int32_t den = idx < 2 ? 255 : (four ? 3 * 255 : (idx == 2 ? 2 * 255 : 255));
        for (int ch = 0; ch < 3; ch++)
            out[i][ch] = ratio_bits(w[idx][0] * e[0][ch] + w[idx][1] * e[1][ch], den);
        out[i][3] = bits_of(!four && idx == 3 ? 0.0f : 1.0f);
    }
}

/* ---- BC3 alpha, BC4, BC5 ------------------------------------------------------------------- */

/* One 8-byte channel block (b) into channel ch of each texel; snorm per BC4/BC5_SNORM. */
static void decode_channel(const uint8_t *b, bool snorm, uint32_t ch, uint32_t out[16][4])
{
    int32_t e0, e1, scale;
    if (snorm) {
        /* Two's-complement bytes; -128 and -127 both mean -1. */
        e0 = b[0] < 128 ? (int32_t)b[0] : (int32_t)b[0] - 256;
        e1 = b[1] < 128 ? (int32_t)b[1] : (int32_t)b[1] - 256;
        e0 = e0 < -127 ? -127 : e0;
        e1 = e1 < -127 ? -127 : e1;
        scale = 127;
    } else {
        e0 = b[0];
        e1 = b[1];
        scale = 255;
    }
    /* The 48 index bits, three per texel, little-endian from byte 2. */
    uint64_t indices = 0;
    for (int k = 0; k < 6; k++)
        indices |= (uint64_t)b[2 + k] << (8 * k);
    const bool eight = e0 > e1;
    for (uint32_t i = 0; i < 16; i++) {
        const int32_t idx = (int32_t)(indices >> (3 * i) & 7u);
        int32_t num, den;
        if (idx == 0) {
            num = e0, den = scale;
        } else if (idx == 1) {
            num = e1, den = scale;
        } else if (eight) {
            /* Index 2..7: (8 - idx) / 7 of e0 plus (idx - 1) / 7 of e1. */
            num = (8 - idx) * e0 + (idx - 1) * e1, den = 7 * scale;
        } else if (idx < 6) {
            /* Index 2..5: (6 - idx) / 5 of e0 plus (idx - 1) / 5 of e1. */
            num = (6 - idx) * e0 + (idx - 1) * e1, den = 5 * scale;
        } else {
            /* Index 6 is the minimum (0 or -1), 7 the maximum (1). */
            num = idx == 6 ? (snorm ? -1 : 0) : 1, den = 1;
        }
        out[i][ch] = ratio_bits(num, den);
    }
}

/* ---- BC7 ------------------------------------------------------------------------------------ */

/* A bounded LSB-first reader over a 16-byte block: a read past the end yields zeros and
 * marks the reader, though the entry's length check means that never happens. */
struct bit_reader {
    const uint8_t *bytes;
    uint32_t size_bits;
    uint32_t pos;
    bool overrun;
};

static uint32_t read_bits(struct bit_reader *r, uint32_t n)
{
    uint32_t v = 0;
    for (uint32_t k = 0; k < n; k++) {
        if (r->pos >= r->size_bits) {
            r->overrun = true;
            return v;
        }
        v |= (uint32_t)(r->bytes[r->pos >> 3] >> (r->pos & 7u) & 1u) << k;
        r->pos++;
    }
    return v;
}

/* The BC7 mode table (Microsoft's "BC7 Format Mode Reference"). */
struct bc7_mode {
    uint8_t subsets, partition_bits, rotation_bits, selection_bits;
    uint8_t colour_bits, alpha_bits, endpoint_pbits, shared_pbits;
    uint8_t index_bits, index2_bits;
};

static const struct bc7_mode bc7_modes[8] = {
    { 3, 4, 0, 0, 4, 0, 1, 0, 3, 0 }, { 2, 6, 0, 0, 6, 0, 0, 1, 3, 0 }, { 3, 6, 0, 0, 5, 0, 0, 0, 2, 0 },
    { 2, 6, 0, 0, 7, 0, 1, 0, 2, 0 }, { 1, 0, 2, 1, 5, 6, 0, 0, 2, 3 }, { 1, 0, 2, 0, 7, 8, 0, 0, 2, 2 },
    { 1, 0, 0, 0, 7, 7, 1, 0, 4, 0 }, { 2, 6, 0, 0, 5, 5, 1, 0, 2, 0 },
};

/* Interpolation weights (out of 64) for 2-, 3- and 4-bit indices. */
static const uint8_t bc7_w2[4] = { 0, 21, 43, 64 };
static const uint8_t bc7_w3[8] = { 0, 9, 18, 27, 37, 46, 55, 64 };
static const uint8_t bc7_w4[16] = { 0, 4, 9, 13, 17, 21, 26, 30, 34, 38, 43, 47, 51, 55, 60, 64 };

static uint32_t bc7_interp(uint32_t e0, uint32_t e1, uint32_t index, uint32_t bits)
{
    const uint32_t w = bits == 2 ? bc7_w2[index & 3u] : bits == 3 ? bc7_w3[index & 7u] : bc7_w4[index & 15u];
    return ((64u - w) * e0 + w * e1 + 32u) >> 6;
}

/* Widens an n-bit endpoint (n >= 4, p-bit included) to 8 bits by replicating its top bits. */
static uint32_t bc7_widen(uint32_t v, uint32_t n)
{
    v <<= 8 - n;
    return (v | v >> n) & 255u;
}

/* Subset of texel i under a mode's partition (0 for one-subset modes); false out of range. */
static bool bc7_subset(uint32_t subsets, uint32_t partition, uint32_t i, uint32_t *subset);
/* The anchor texel of `subset` (its index has one bit fewer). */
static uint32_t bc7_anchor(uint32_t subsets, uint32_t partition, uint32_t subset);

static bool decode_bc7(const uint8_t *b, uint32_t out[16][4])
{
    uint32_t mode = 0;
    while (mode < 8 && !(b[0] >> mode & 1u))
        mode++;
    if (mode == 8) {
        memset(out, 0, 16 * 4 * sizeof(uint32_t));
        return true;
    }
    const struct bc7_mode *m = &bc7_modes[mode];
    struct bit_reader r = { b, 128, mode + 1, false };
    const uint32_t partition = read_bits(&r, m->partition_bits);
    const uint32_t rotation = read_bits(&r, m->rotation_bits);
    const uint32_t selection = read_bits(&r, m->selection_bits);
    const uint32_t ns = m->subsets;
    /* Endpoints [subset][end][channel], first as stored: all R, then G, B, A. */
    uint32_t ep[3][2][4];
    for (uint32_t ch = 0; ch < 4; ch++) {
        const uint32_t n = ch < 3 ? m->colour_bits : m->alpha_bits;
        for (uint32_t s = 0; s < ns; s++)
            for (uint32_t e = 0; e < 2; e++)
                ep[s][e][ch] = read_bits(&r, n);
    }
    uint32_t pbit[3][2] = { { 0, 0 }, { 0, 0 }, { 0, 0 } };
    for (uint32_t s = 0; s < ns; s++) {
        if (m->endpoint_pbits) {
            pbit[s][0] = read_bits(&r, 1);
            pbit[s][1] = read_bits(&r, 1);
        }
    }
    if (m->shared_pbits) {
        for (uint32_t s = 0; s < ns; s++)
            pbit[s][0] = pbit[s][1] = read_bits(&r, 1);
    }
    const bool has_pbit = m->endpoint_pbits || m->shared_pbits;
    for (uint32_t s = 0; s < ns; s++) {
        for (uint32_t e = 0; e < 2; e++) {
            for (uint32_t ch = 0; ch < 4; ch++) {
                const uint32_t n = ch < 3 ? m->colour_bits : m->alpha_bits;
                if (n == 0) {
                    ep[s][e][ch] = 255;
                    continue;
                }
                const uint32_t v = has_pbit ? ep[s][e][ch] << 1 | pbit[s][e] : ep[s][e][ch];
                ep[s][e][ch] = bc7_widen(v, has_pbit ? n + 1 : n);
            }
        }
    }
    uint32_t subset_of[16];
    for (uint32_t i = 0; i < 16; i++) {
        if (!bc7_subset(ns, partition, i, &subset_of[i]))
            return false;
    }
    /* Primary indices, then secondary; an anchor texel's index drops its top bit. */
    uint32_t idx1[16], idx2[16] = { 0 };
    for (uint32_t i = 0; i < 16; i++) {
        const bool anchor = bc7_anchor(ns, partition, subset_of[i]) == i;
        idx1[i] = read_bits(&r, m->index_bits - (anchor ? 1u : 0u));
    }
    if (m->index2_bits) {
        for (uint32_t i = 0; i < 16; i++)
            idx2[i] = read_bits(&r, m->index2_bits - (i == 0 ? 1u : 0u));
    }
    if (r.overrun || r.pos != 128)
        return false;
    for (uint32_t i = 0; i < 16; i++) {
        const uint32_t(*e)[4] = ep[subset_of[i]];
        uint32_t colour_index = idx1[i], colour_bits = m->index_bits;
        uint32_t alpha_index = idx1[i], alpha_bits = m->index_bits;
        if (m->index2_bits) {
            /* Modes 4 and 5: primary indices drive colour, secondary alpha; mode 4's
             * selection bit swaps them. */
            alpha_index = idx2[i], alpha_bits = m->index2_bits;
            if (selection) {
                colour_index = idx2[i], colour_bits = m->index2_bits;
                alpha_index = idx1[i], alpha_bits = m->index_bits;
            }
        }
        uint32_t c[4];
        for (uint32_t ch = 0; ch < 3; ch++)
            c[ch] = bc7_interp(e[0][ch], e[1][ch], colour_index, colour_bits);
        c[3] = bc7_interp(e[0][3], e[1][3], alpha_index, alpha_bits);
        if (rotation) {
            /* 1, 2, 3 swap alpha with red, green, blue. */
            const uint32_t t = c[3];
            c[3] = c[rotation - 1];
            c[rotation - 1] = t;
        }
        for (uint32_t ch = 0; ch < 4; ch++)
            out[i][ch] = ratio_bits((int32_t)c[ch], 255);
    }
    return true;
}

/* The partition tables of the BPTC specification (ARB_texture_compression_bptc Table.P2 and
 * Table.P3, the same as D3D's): texel i (x + 4y) of two-subset partition p is in subset
 * bc7_p2[p] >> i & 1; of three-subset partition p in subset bc7_p3[p] >> 2i & 3. BC6H's
 * two-subset blocks use the first 32 rows of bc7_p2. */
static const uint16_t bc7_p2[64] = {
    0xcccc, 0x8888, 0xeeee, 0xecc8, 0xc880, 0xfeec, 0xfec8, 0xec80,
    0xc800, 0xffec, 0xfe80, 0xe800, 0xffe8, 0xff00, 0xfff0, 0xf000,
    0xf710, 0x008e, 0x7100, 0x08ce, 0x008c, 0x7310, 0x3100, 0x8cce,
    0x088c, 0x3110, 0x6666, 0x366c, 0x17e8, 0x0ff0, 0x718e, 0x399c,
    0xaaaa, 0xf0f0, 0x5a5a, 0x33cc, 0x3c3c, 0x55aa, 0x9696, 0xa55a,
    0x73ce, 0x13c8, 0x324c, 0x3bdc, 0x6996, 0xc33c, 0x9966, 0x0660,
    0x0272, 0x04e4, 0x4e40, 0x2720, 0xc936, 0x936c, 0x39c6, 0x639c,
    0x9336, 0x9cc6, 0x817e, 0xe718, 0xccf0, 0x0fcc, 0x7744, 0xee22,
};

static const uint32_t bc7_p3[64] = {
    0xaa685050, 0x6a5a5040, 0x5a5a4200, 0x5450a0a8, 0xa5a50000, 0xa0a05050,
    0x5555a0a0, 0x5a5a5050, 0xaa550000, 0xaa555500, 0xaaaa5500, 0x90909090,
    0x94949494, 0xa4a4a4a4, 0xa9a59450, 0x2a0a4250, 0xa5945040, 0x0a425054,
    0xa5a5a500, 0x55a0a0a0, 0xa8a85454, 0x6a6a4040, 0xa4a45000, 0x1a1a0500,
    0x0050a4a4, 0xaaa59090, 0x14696914, 0x69691400, 0xa08585a0, 0xaa821414,
    0x50a4a450, 0x6a5a0200, 0xa9a58000, 0x5090a0a8, 0xa8a09050, 0x24242424,
    0x00aa5500, 0x24924924, 0x24499224, 0x50a50a50, 0x500aa550, 0xaaaa4444,
    0x66660000, 0xa5a0a5a0, 0x50a050a0, 0x69286928, 0x44aaaa44, 0x66666600,
    0xaa444444, 0x54a854a8, 0x95809580, 0x96969600, 0xa85454a8, 0x80959580,
    0xaa141414, 0x96960000, 0xaaaa1414, 0xa05050a0, 0xa0a5a5a0, 0x96000000,
    0x40804080, 0xa9a8a9a8, 0xaaaaaa44, 0x2a4a5254,
};

/* Anchor texels (the spec's Table.A2, A3a, A3b): subset 0's is always texel 0. */
static const uint8_t bc7_a2[64] = {
    15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15,
    15, 2,  8,  2,  2,  8,  8,  15, 2,  8,  2,  2,  8,  8,  2,  2,
    15, 15, 6,  8,  2,  8,  15, 15, 2,  8,  2,  2,  2,  15, 15, 6,
    6,  2,  6,  8,  15, 15, 2,  2,  15, 15, 15, 15, 15, 2,  2,  15,
};
static const uint8_t bc7_a3a[64] = {
    3,  3,  15, 15, 8,  3,  15, 15, 8,  8,  6,  6,  6,  5,  3,  3,
    3,  3,  8,  15, 3,  3,  6,  10, 5,  8,  8,  6,  8,  5,  15, 15,
    8,  15, 3,  5,  6,  10, 8,  15, 15, 3,  15, 5,  15, 15, 15, 15,
    3,  15, 5,  5,  5,  8,  5,  10, 5,  10, 8,  13, 15, 12, 3,  3,
};
static const uint8_t bc7_a3b[64] = {
    15, 8,  8,  3,  15, 15, 3,  8,  15, 15, 15, 15, 15, 15, 15, 8,
    15, 8,  15, 3,  15, 8,  15, 8,  3,  15, 6,  10, 15, 15, 10, 8,
    15, 3,  15, 10, 10, 8,  9,  10, 6,  15, 8,  15, 3,  6,  6,  8,
    15, 3,  15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 3,  15, 15, 8,
};

static bool bc7_subset(uint32_t subsets, uint32_t partition, uint32_t i, uint32_t *subset)
{
    if (partition >= 64 || i >= 16)
        return false;
    *subset = subsets == 1 ? 0u : subsets == 2 ? (uint32_t)(bc7_p2[partition] >> i & 1u)
                                               : bc7_p3[partition] >> (2 * i) & 3u;
    return true;
}

static uint32_t bc7_anchor(uint32_t subsets, uint32_t partition, uint32_t subset)
{
    if (subset == 0 || partition >= 64)
        return 0;
    if (subsets == 2)
        return bc7_a2[partition];
    return subset == 1 ? bc7_a3a[partition] : bc7_a3b[partition];
}

/* ---- BC6H ----------------------------------------------------------------------------------- */

/* One field of a BC6H block: bits a..b of endpoint value `var` (endpoint k channel c is
 * var 3k + c; r0 g0 b0 r1 ...). a >= b: the block's next bits fill bits b, b + 1, ..., a;
 * a < b (the spec's reversed fields, r0[10:15]): they fill b, b - 1, ..., a. */
struct bc6h_field {
    uint8_t var, a, b;
};

/* The 14 modes (D3D's modes 1..14 in order): mode number (the low 2 or 5 bits), whether
 * endpoints 1..3 are deltas from endpoint 0, partition bits (5: two subsets, 0: one),
 * endpoint bits, delta bits per channel, and the fields after the mode bits, in block order
 * (ARB_texture_compression_bptc Table.MF and Table.F, which match D3D's BC6H tables). The
 * partition index follows the fields; then the indices. */
struct bc6h_mode {
    uint8_t number, transformed, partition_bits, endpoint_bits, delta_bits[3], field_count;
    struct bc6h_field fields[23];
};

static const struct bc6h_mode bc6h_modes[14] = {
    /* D3D mode 1 */ { 0, 1, 5, 10, { 5, 5, 5 }, 19,
      { { 7, 4, 4 }, { 8, 4, 4 }, { 11, 4, 4 }, { 0, 9, 0 }, { 1, 9, 0 }, { 2, 9, 0 }, { 3, 4, 0 },
        { 10, 4, 4 }, { 7, 3, 0 }, { 4, 4, 0 }, { 11, 0, 0 }, { 10, 3, 0 }, { 5, 4, 0 }, { 11, 1, 1 },
        { 8, 3, 0 }, { 6, 4, 0 }, { 11, 2, 2 }, { 9, 4, 0 }, { 11, 3, 3 } } },
    /* D3D mode 2 */ { 1, 1, 5, 7, { 6, 6, 6 }, 23,
      { { 7, 5, 5 }, { 10, 4, 4 }, { 10, 5, 5 }, { 0, 6, 0 }, { 11, 0, 0 }, { 11, 1, 1 }, { 8, 4, 4 },
        { 1, 6, 0 }, { 8, 5, 5 }, { 11, 2, 2 }, { 7, 4, 4 }, { 2, 6, 0 }, { 11, 3, 3 }, { 11, 5, 5 },
        { 11, 4, 4 }, { 3, 5, 0 }, { 7, 3, 0 }, { 4, 5, 0 }, { 10, 3, 0 }, { 5, 5, 0 }, { 8, 3, 0 },
        { 6, 5, 0 }, { 9, 5, 0 } } },
    /* D3D mode 3 */ { 2, 1, 5, 11, { 5, 4, 4 }, 18,
      { { 0, 9, 0 }, { 1, 9, 0 }, { 2, 9, 0 }, { 3, 4, 0 }, { 0, 10, 10 }, { 7, 3, 0 }, { 4, 3, 0 },
        { 1, 10, 10 }, { 11, 0, 0 }, { 10, 3, 0 }, { 5, 3, 0 }, { 2, 10, 10 }, { 11, 1, 1 }, { 8, 3, 0 },
        { 6, 4, 0 }, { 11, 2, 2 }, { 9, 4, 0 }, { 11, 3, 3 } } },
    /* D3D mode 4 */ { 6, 1, 5, 11, { 4, 5, 4 }, 20,
      { { 0, 9, 0 }, { 1, 9, 0 }, { 2, 9, 0 }, { 3, 3, 0 }, { 0, 10, 10 }, { 10, 4, 4 }, { 7, 3, 0 },
        { 4, 4, 0 }, { 1, 10, 10 }, { 10, 3, 0 }, { 5, 3, 0 }, { 2, 10, 10 }, { 11, 1, 1 }, { 8, 3, 0 },
        { 6, 3, 0 }, { 11, 0, 0 }, { 11, 2, 2 }, { 9, 3, 0 }, { 7, 4, 4 }, { 11, 3, 3 } } },
    /* D3D mode 5 */ { 10, 1, 5, 11, { 4, 4, 5 }, 20,
      { { 0, 9, 0 }, { 1, 9, 0 }, { 2, 9, 0 }, { 3, 3, 0 }, { 0, 10, 10 }, { 8, 4, 4 }, { 7, 3, 0 },
        { 4, 3, 0 }, { 1, 10, 10 }, { 11, 0, 0 }, { 10, 3, 0 }, { 5, 4, 0 }, { 2, 10, 10 }, { 8, 3, 0 },
        { 6, 3, 0 }, { 11, 1, 1 }, { 11, 2, 2 }, { 9, 3, 0 }, { 11, 4, 4 }, { 11, 3, 3 } } },
    /* D3D mode 6 */ { 14, 1, 5, 9, { 5, 5, 5 }, 19,
      { { 0, 8, 0 }, { 8, 4, 4 }, { 1, 8, 0 }, { 7, 4, 4 }, { 2, 8, 0 }, { 11, 4, 4 }, { 3, 4, 0 },
        { 10, 4, 4 }, { 7, 3, 0 }, { 4, 4, 0 }, { 11, 0, 0 }, { 10, 3, 0 }, { 5, 4, 0 }, { 11, 1, 1 },
        { 8, 3, 0 }, { 6, 4, 0 }, { 11, 2, 2 }, { 9, 4, 0 }, { 11, 3, 3 } } },
    /* D3D mode 7 */ { 18, 1, 5, 8, { 6, 5, 5 }, 19,
      { { 0, 7, 0 }, { 10, 4, 4 }, { 8, 4, 4 }, { 1, 7, 0 }, { 11, 2, 2 }, { 7, 4, 4 }, { 2, 7, 0 },
        { 11, 3, 3 }, { 11, 4, 4 }, { 3, 5, 0 }, { 7, 3, 0 }, { 4, 4, 0 }, { 11, 0, 0 }, { 10, 3, 0 },
        { 5, 4, 0 }, { 11, 1, 1 }, { 8, 3, 0 }, { 6, 5, 0 }, { 9, 5, 0 } } },
    /* D3D mode 8 */ { 22, 1, 5, 8, { 5, 6, 5 }, 21,
      { { 0, 7, 0 }, { 11, 0, 0 }, { 8, 4, 4 }, { 1, 7, 0 }, { 7, 5, 5 }, { 7, 4, 4 }, { 2, 7, 0 },
        { 10, 5, 5 }, { 11, 4, 4 }, { 3, 4, 0 }, { 10, 4, 4 }, { 7, 3, 0 }, { 4, 5, 0 }, { 10, 3, 0 },
        { 5, 4, 0 }, { 11, 1, 1 }, { 8, 3, 0 }, { 6, 4, 0 }, { 11, 2, 2 }, { 9, 4, 0 }, { 11, 3, 3 } } },
    /* D3D mode 9 */ { 26, 1, 5, 8, { 5, 5, 6 }, 21,
      { { 0, 7, 0 }, { 11, 1, 1 }, { 8, 4, 4 }, { 1, 7, 0 }, { 8, 5, 5 }, { 7, 4, 4 }, { 2, 7, 0 },
        { 11, 5, 5 }, { 11, 4, 4 }, { 3, 4, 0 }, { 10, 4, 4 }, { 7, 3, 0 }, { 4, 4, 0 }, { 11, 0, 0 },
        { 10, 3, 0 }, { 5, 5, 0 }, { 8, 3, 0 }, { 6, 4, 0 }, { 11, 2, 2 }, { 9, 4, 0 }, { 11, 3, 3 } } },
    /* D3D mode 10 */ { 30, 0, 5, 6, { 6, 6, 6 }, 23,
      { { 0, 5, 0 }, { 10, 4, 4 }, { 11, 0, 0 }, { 11, 1, 1 }, { 8, 4, 4 }, { 1, 5, 0 }, { 7, 5, 5 },
        { 8, 5, 5 }, { 11, 2, 2 }, { 7, 4, 4 }, { 2, 5, 0 }, { 10, 5, 5 }, { 11, 3, 3 }, { 11, 5, 5 },
        { 11, 4, 4 }, { 3, 5, 0 }, { 7, 3, 0 }, { 4, 5, 0 }, { 10, 3, 0 }, { 5, 5, 0 }, { 8, 3, 0 },
        { 6, 5, 0 }, { 9, 5, 0 } } },
    /* D3D mode 11 */ { 3, 0, 0, 10, { 10, 10, 10 }, 6,
      { { 0, 9, 0 }, { 1, 9, 0 }, { 2, 9, 0 }, { 3, 9, 0 }, { 4, 9, 0 }, { 5, 9, 0 } } },
    /* D3D mode 12 */ { 7, 1, 0, 11, { 9, 9, 9 }, 9,
      { { 0, 9, 0 }, { 1, 9, 0 }, { 2, 9, 0 }, { 3, 8, 0 }, { 0, 10, 10 }, { 4, 8, 0 }, { 1, 10, 10 },
        { 5, 8, 0 }, { 2, 10, 10 } } },
    /* D3D mode 13 */ { 11, 1, 0, 12, { 8, 8, 8 }, 9,
      { { 0, 9, 0 }, { 1, 9, 0 }, { 2, 9, 0 }, { 3, 7, 0 }, { 0, 10, 11 }, { 4, 7, 0 }, { 1, 10, 11 },
        { 5, 7, 0 }, { 2, 10, 11 } } },
    /* D3D mode 14 */ { 15, 1, 0, 16, { 4, 4, 4 }, 9,
      { { 0, 9, 0 }, { 1, 9, 0 }, { 2, 9, 0 }, { 3, 3, 0 }, { 0, 10, 15 }, { 4, 3, 0 }, { 1, 10, 15 },
        { 5, 3, 0 }, { 2, 10, 15 } } },
};

/* Sign-extends the low n bits of v. */
static int32_t sign_extend(uint32_t v, uint32_t n)
{
    const uint32_t m = 1u << (n - 1);
    v &= (1u << n) - 1u;
    return (int32_t)(v ^ m) - (int32_t)m;
}

/* The spec's unquantization of an endpoint component x of n bits to the 16-bit range. */
static int32_t bc6h_unquantize(int32_t x, uint32_t n, bool is_signed)
{
    if (!is_signed) {
        if (n >= 15)
            return x;
        if (x == 0)
            return 0;
        if (x == (int32_t)((1u << n) - 1u))
            return 0xFFFF;
        return (int32_t)((((uint32_t)x << 15) + 0x4000u) >> (n - 1));
    }
    if (n >= 16)
        return x;
    const bool negative = x < 0;
    uint32_t magnitude = negative ? (uint32_t)-x : (uint32_t)x;
    int32_t unq;
    if (magnitude == 0)
        unq = 0;
    else if (magnitude >= (1u << (n - 1)) - 1u)
        unq = 0x7FFF;
    else
        unq = (int32_t)(((magnitude << 15) + 0x4000u) >> (n - 1));
    return negative ? -unq : unq;
}

/* floor(x / 64): the interpolation's >> 6 on a possibly negative sum, without relying on
 * the implementation-defined right shift of negative integers. */
static int32_t floor_div64(int32_t x)
{
    return x >= 0 ? x / 64 : -((-x + 63) / 64);
}

/* A half's float value (exact: every half is a float). */
static float half_to_float(uint32_t h)
{
    const uint32_t sign = h >> 15 & 1u, exponent = h >> 10 & 31u, mantissa = h & 1023u;
    uint32_t bits;
    if (exponent == 0 && mantissa == 0) {
        bits = sign << 31;
    } else if (exponent == 0) {
        /* Subnormal: normalise the mantissa into the float's wider exponent range. */
        uint32_t e = 113, m = mantissa;
        while (!(m & 1024u)) {
            m <<= 1;
            e--;
        }
        bits = sign << 31 | e << 23 | (m & 1023u) << 13;
    } else if (exponent == 31) {
        bits = sign << 31 | 255u << 23 | mantissa << 13;
    } else {
        bits = sign << 31 | (exponent + 112u) << 23 | mantissa << 13;
    }
    float f;
    memcpy(&f, &bits, sizeof(f));
    return f;
}

static bool decode_bc6h(const uint8_t *b, bool is_signed, uint32_t out[16][4])
{
    struct bit_reader r = { b, 128, 0, false };
    uint32_t number = read_bits(&r, 2);
    if (number >= 2)
        number |= read_bits(&r, 3) << 2;
    const struct bc6h_mode *m = NULL;
    for (uint32_t k = 0; k < 14; k++) {
        if (bc6h_modes[k].number == number)
            m = &bc6h_modes[k];
    }
    const uint32_t one = bits_of(1.0f), zero = bits_of(0.0f);
    if (!m) {
        /* Reserved modes (19, 23, 27, 31) decode to (0, 0, 0, 1), as the spec says. */
        for (uint32_t i = 0; i < 16; i++) {
            out[i][0] = out[i][1] = out[i][2] = zero;
            out[i][3] = one;
        }
        return true;
    }
    uint32_t raw[12] = { 0 };
    for (uint32_t f = 0; f < m->field_count; f++) {
        const struct bc6h_field *field = &m->fields[f];
        if (field->a >= field->b) {
            for (uint32_t k = field->b; k <= field->a; k++)
                raw[field->var] |= read_bits(&r, 1) << k;
        } else {
            for (uint32_t k = field->b + 1u; k-- > field->a;)
                raw[field->var] |= read_bits(&r, 1) << k;
        }
    }
    const uint32_t partition = read_bits(&r, m->partition_bits);
    const uint32_t ns = m->partition_bits ? 2 : 1, n = m->endpoint_bits;
    /* Endpoint 0 is sign-extended for the signed format; the others also when they are
     * deltas (at the delta width), then added to endpoint 0 and wrapped to n bits. */
    int32_t e[12];
    for (uint32_t v = 0; v < 6 * ns; v++) {
        const uint32_t width = v < 3 ? n : m->delta_bits[v % 3];
        e[v] = (is_signed || (v >= 3 && m->transformed)) ? sign_extend(raw[v], width) : (int32_t)raw[v];
    }
    if (m->transformed) {
        for (uint32_t v = 3; v < 6 * ns; v++) {
            const uint32_t sum = (uint32_t)(e[v % 3] + e[v]) & ((1u << n) - 1u);
            e[v] = is_signed ? sign_extend(sum, n) : (int32_t)sum;
        }
    }
    for (uint32_t v = 0; v < 6 * ns; v++)
        e[v] = bc6h_unquantize(e[v], n, is_signed);
    /* Indices: 4 bits with one subset, 3 with two; anchors drop their top bit. */
    const uint32_t index_bits = ns == 1 ? 4u : 3u;
    uint32_t index[16], subset[16];
    for (uint32_t i = 0; i < 16; i++) {
        if (!bc7_subset(ns, partition, i, &subset[i]))
            return false;
        const bool anchor = bc7_anchor(ns, partition, subset[i]) == i;
        index[i] = read_bits(&r, index_bits - (anchor ? 1u : 0u));
    }
    if (r.overrun || r.pos != 128)
        return false;
    for (uint32_t i = 0; i < 16; i++) {
        const uint32_t w = index_bits == 3 ? bc7_w3[index[i]] : bc7_w4[index[i]];
        for (uint32_t c = 0; c < 3; c++) {
            const int32_t a = e[subset[i] * 6 + c], z = e[subset[i] * 6 + 3 + c];
            const int32_t v = floor_div64(a * (int32_t)(64 - w) + z * (int32_t)w + 32);
            /* finish_unquantize: scale into the half range (31/64 unsigned, 31/32 of the
             * magnitude signed, with the sign bit put back). */
            uint32_t h;
            if (!is_signed)
                h = (uint32_t)v * 31u >> 6;
            else
                h = v < 0 ? ((uint32_t)-v * 31u >> 5) | 0x8000u : (uint32_t)v * 31u >> 5;
            out[i][c] = bits_of(half_to_float(h));
        }
        out[i][3] = one;
    }
    return true;
}

/* ---- entry ---------------------------------------------------------------------------------- */

bool sb_interp_bc_decode(uint32_t bc_format, const uint8_t block[], size_t block_bytes, uint32_t texels[16][4])
{
    if (!block || !texels)
        return false;
    const size_t need = bc_format == SB_INTERP_BC1 || bc_format == SB_INTERP_BC4_UNORM ||
                                bc_format == SB_INTERP_BC4_SNORM
                            ? 8u
                            : 16u;
    if (block_bytes < need)
        return false;
    const uint32_t zero = bits_of(0.0f), one = bits_of(1.0f);
    switch (bc_format) {
    case SB_INTERP_BC1:
        decode_colour(block, true, texels);
        return true;
    case SB_INTERP_BC2:
        decode_colour(block + 8, false, texels);
        for (uint32_t i = 0; i < 16; i++)
            texels[i][3] = ratio_bits(block[i / 2] >> (4 * (i & 1u)) & 15, 15);
        return true;
    case SB_INTERP_BC3:
        decode_colour(block + 8, false, texels);
        decode_channel(block, false, 3, texels);
        return true;
    case SB_INTERP_BC4_UNORM:
    case SB_INTERP_BC4_SNORM:
        decode_channel(block, bc_format == SB_INTERP_BC4_SNORM, 0, texels);
        for (uint32_t i = 0; i < 16; i++) {
            texels[i][1] = texels[i][2] = zero;
            texels[i][3] = one;
        }
        return true;
    case SB_INTERP_BC5_UNORM:
    case SB_INTERP_BC5_SNORM:
        decode_channel(block, bc_format == SB_INTERP_BC5_SNORM, 0, texels);
        decode_channel(block + 8, bc_format == SB_INTERP_BC5_SNORM, 1, texels);
        for (uint32_t i = 0; i < 16; i++) {
            texels[i][2] = zero;
            texels[i][3] = one;
        }
        return true;
    case SB_INTERP_BC6H_UF16:
    case SB_INTERP_BC6H_SF16:
        return decode_bc6h(block, bc_format == SB_INTERP_BC6H_SF16, texels);
    case SB_INTERP_BC7:
        return decode_bc7(block, texels);
    default:
        return false;
    }
}
