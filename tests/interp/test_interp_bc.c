/* SPDX-License-Identifier: MIT */
/*
 * The CPU interpreter's block decoder (runtime/src/interp/interp_bc.c,
 * sb_interp_bc_decode) on hand-built blocks whose texels are worked out from
 * the formats' rules in the comments beside each expected value: BC1 four-
 * and three-colour modes, BC2 explicit alpha, BC3 eight- and six-value alpha,
 * BC4/BC5 unorm and snorm in both modes, BC6H UF16 and SF16 in D3D modes 1, 10,
 * 11 and 14 (deltas, partitions, reversed fields, unquantization, the one
 * infinity) and a reserved mode, BC7 modes 0, 1, 4, 5, 6 (partitions, anchors,
 * rotation, index selection, endpoint and shared p-bits). Then short blocks
 * are refused (each sits at the very end of a buffer, so a stray read would
 * leave it: sanitizer builds catch that), and random blocks of every format
 * decode to values in range, finite except SF16's one -inf.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "interp_private.h"
#include "check.h"

static float f_of(uint32_t u)
{
    float f;
    memcpy(&f, &u, sizeof(f));
    return f;
}

/* Expected values are exact rationals rounded once to float, the decoder's documented rule. */
#define Q(num, den) ((float)((double)(num) / (double)(den)))

static void expect(const char *what, uint32_t texels[16][4], uint32_t i, float r, float g, float b, float a)
{
    const float want[4] = { r, g, b, a };
    for (uint32_t c = 0; c < 4; c++)
        CHECK(f_of(texels[i][c]) == want[c], "%s texel %u channel %u: got %.9g want %.9g", what, i, c,
              (double)f_of(texels[i][c]), (double)want[c]);
}

/* Writes an n-bit field at bit pos of a little-endian, LSB-first block. */
static void put(uint8_t *block, uint32_t *pos, uint32_t n, uint32_t value)
{
    for (uint32_t k = 0; k < n; k++, (*pos)++)
        block[*pos >> 3] |= (uint8_t)((value >> k & 1u) << (*pos & 7u));
}

/* Eight bytes of a BC3-alpha/BC4 channel block: endpoints then sixteen 3-bit indices. */
static void channel_block(uint8_t *b, uint8_t e0, uint8_t e1, const uint8_t idx[16])
{
    memset(b, 0, 8);
    b[0] = e0;
    b[1] = e1;
    uint32_t pos = 16;
    for (uint32_t i = 0; i < 16; i++)
        put(b, &pos, 3, idx[i]);
}

static const uint8_t ramp8[16] = { 0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3, 4, 5, 6, 7 };

static void test_bc1(void)
{
    uint32_t t[16][4];
    /* c0 = 0xFC00: r 31 -> 255, g 32 -> (32 << 2) | (32 >> 4) = 130, b 0.
     * c1 = 0x803F: r 16 -> (16 << 3) | (16 >> 2) = 132, g 1 -> 4, b 31 -> 255.
     * c0 > c1: four colours. Index bytes 0xE4 = indices 0,1,2,3 along each row. */
    const uint8_t four[8] = { 0x00, 0xFC, 0x3F, 0x80, 0xE4, 0xE4, 0xE4, 0xE4 };
    CHECK(sb_interp_bc_decode(SB_INTERP_BC1, four, 8, t), "BC1 four-colour decodes");
    expect("bc1/4", t, 0, 1.0f, Q(130, 255), 0.0f, 1.0f);
    expect("bc1/4", t, 1, Q(132, 255), Q(4, 255), 1.0f, 1.0f);
    /* index 2 = (2 c0 + c1) / 3: r (510 + 132) / 765, g (260 + 4) / 765, b 255 / 765 */
    expect("bc1/4", t, 2, Q(642, 765), Q(264, 765), Q(255, 765), 1.0f);
    /* index 3 = (c0 + 2 c1) / 3: r (255 + 264) / 765, g (130 + 8) / 765, b 510 / 765 */
    expect("bc1/4", t, 3, Q(519, 765), Q(138, 765), Q(510, 765), 1.0f);
    expect("bc1/4", t, 14, Q(642, 765), Q(264, 765), Q(255, 765), 1.0f);

    /* The endpoints swapped: c0 = 0x803F <= c1 = 0xFC00, three colours + transparent. */
    const uint8_t three[8] = { 0x3F, 0x80, 0x00, 0xFC, 0xE4, 0xE4, 0xE4, 0xE4 };
    CHECK(sb_interp_bc_decode(SB_INTERP_BC1, three, 8, t), "BC1 three-colour decodes");
    expect("bc1/3", t, 0, Q(132, 255), Q(4, 255), 1.0f, 1.0f);
    expect("bc1/3", t, 1, 1.0f, Q(130, 255), 0.0f, 1.0f);
    /* index 2 = (c0 + c1) / 2: r (132 + 255) / 510, g (4 + 130) / 510, b 255 / 510 */
    expect("bc1/3", t, 2, Q(387, 510), Q(134, 510), 0.5f, 1.0f);
    /* index 3 = transparent black */
    expect("bc1/3", t, 3, 0.0f, 0.0f, 0.0f, 0.0f);

    /* Equal endpoints are three-colour mode too (c0 <= c1): index 3 is still transparent. */
    const uint8_t equal[8] = { 0x1F, 0x00, 0x1F, 0x00, 0xFF, 0x00, 0x00, 0x00 };
    CHECK(sb_interp_bc_decode(SB_INTERP_BC1, equal, 8, t), "BC1 equal endpoints decode");
    expect("bc1/eq", t, 0, 0.0f, 0.0f, 0.0f, 0.0f);
    expect("bc1/eq", t, 4, 0.0f, 0.0f, 1.0f, 1.0f);
}

static void test_bc2(void)
{
    uint32_t t[16][4];
    /* Alpha nibbles, low nibble first: texel i has alpha i, so i / 15. The colour block is
     * the three-colour BC1 block above, but BC2 always uses four colours: index 2 is
     * (2 c0 + c1) / 3 with c0 = (132, 4, 255), c1 = (255, 130, 0): (519, 138, 510) / 765,
     * and index 3 (c0 + 2 c1) / 3 = (642, 264, 255) / 765, opaque apart from the alpha. */
    const uint8_t b[16] = { 0x10, 0x32, 0x54, 0x76, 0x98, 0xBA, 0xDC, 0xFE,
                            0x3F, 0x80, 0x00, 0xFC, 0xE4, 0xE4, 0xE4, 0xE4 };
    CHECK(sb_interp_bc_decode(SB_INTERP_BC2, b, 16, t), "BC2 decodes");
    expect("bc2", t, 0, Q(132, 255), Q(4, 255), 1.0f, 0.0f);
    expect("bc2", t, 2, Q(519, 765), Q(138, 765), Q(510, 765), Q(2, 15));
    expect("bc2", t, 3, Q(642, 765), Q(264, 765), Q(255, 765), Q(3, 15));
    expect("bc2", t, 7, Q(642, 765), Q(264, 765), Q(255, 765), Q(7, 15));
    expect("bc2", t, 15, Q(642, 765), Q(264, 765), Q(255, 765), 1.0f);
}

static void test_bc3(void)
{
    uint32_t t[16][4];
    uint8_t b[16];
    /* Alpha a0 = 200 > a1 = 100: eight values; texel i has index i % 8. */
    channel_block(b, 200, 100, ramp8);
    /* Colour: c0 = c1 = 0x07E0 (pure green 63 -> 255), all indices 0. */
    const uint8_t colour[8] = { 0xE0, 0x07, 0xE0, 0x07, 0, 0, 0, 0 };
    memcpy(b + 8, colour, 8);
    CHECK(sb_interp_bc_decode(SB_INTERP_BC3, b, 16, t), "BC3 eight-value decodes");
    expect("bc3/8", t, 0, 0.0f, 1.0f, 0.0f, Q(200, 255));
    expect("bc3/8", t, 1, 0.0f, 1.0f, 0.0f, Q(100, 255));
    /* index k in 2..7: ((8 - k) a0 + (k - 1) a1) / 7 over 255 */
    expect("bc3/8", t, 2, 0.0f, 1.0f, 0.0f, Q(6 * 200 + 100, 7 * 255));
    expect("bc3/8", t, 3, 0.0f, 1.0f, 0.0f, Q(1200, 1785));
    expect("bc3/8", t, 7, 0.0f, 1.0f, 0.0f, Q(200 + 6 * 100, 1785));
    expect("bc3/8", t, 15, 0.0f, 1.0f, 0.0f, Q(800, 1785));

    /* a0 = 100 <= a1 = 200: six values, index 6 = 0, 7 = 1. */
    channel_block(b, 100, 200, ramp8);
    CHECK(sb_interp_bc_decode(SB_INTERP_BC3, b, 16, t), "BC3 six-value decodes");
    /* index k in 2..5: ((6 - k) a0 + (k - 1) a1) / 5 over 255 */
    expect("bc3/6", t, 2, 0.0f, 1.0f, 0.0f, Q(4 * 100 + 200, 5 * 255));
    expect("bc3/6", t, 5, 0.0f, 1.0f, 0.0f, Q(100 + 4 * 200, 1275));
    expect("bc3/6", t, 6, 0.0f, 1.0f, 0.0f, 0.0f);
    expect("bc3/6", t, 7, 0.0f, 1.0f, 0.0f, 1.0f);
    expect("bc3/6", t, 9, 0.0f, 1.0f, 0.0f, Q(200, 255));
}

static void test_bc4_bc5(void)
{
    uint32_t t[16][4];
    uint8_t b[16];
    /* BC4 unorm, 255 > 0: eight values; index 2 = 6/7, index 7 = 1/7. */
    channel_block(b, 255, 0, ramp8);
    CHECK(sb_interp_bc_decode(SB_INTERP_BC4_UNORM, b, 8, t), "BC4 unorm decodes");
    expect("bc4u/8", t, 0, 1.0f, 0.0f, 0.0f, 1.0f);
    expect("bc4u/8", t, 2, Q(6 * 255, 7 * 255), 0.0f, 0.0f, 1.0f);
    expect("bc4u/8", t, 7, Q(255, 7 * 255), 0.0f, 0.0f, 1.0f);

    /* BC4 snorm 0x7F (127) > 0x80 (-128, read as -127): eight values, index k in 2..7 is
     * ((8 - k) 127 - (k - 1) 127) / (7 * 127) = (9 - 2k) / 7. */
    channel_block(b, 0x7F, 0x80, ramp8);
    CHECK(sb_interp_bc_decode(SB_INTERP_BC4_SNORM, b, 8, t), "BC4 snorm decodes");
    expect("bc4s/8", t, 0, 1.0f, 0.0f, 0.0f, 1.0f);
    expect("bc4s/8", t, 1, -1.0f, 0.0f, 0.0f, 1.0f);
    expect("bc4s/8", t, 2, Q(5, 7), 0.0f, 0.0f, 1.0f);
    expect("bc4s/8", t, 7, Q(-5, 7), 0.0f, 0.0f, 1.0f);

    /* BC4 snorm 0xC0 (-64) <= 0x40 (64): six values; index k in 2..5 is
     * ((6 - k)(-64) + (k - 1) 64) / (5 * 127); 6 = -1, 7 = 1. */
    channel_block(b, 0xC0, 0x40, ramp8);
    CHECK(sb_interp_bc_decode(SB_INTERP_BC4_SNORM, b, 8, t), "BC4 snorm six-value decodes");
    expect("bc4s/6", t, 0, Q(-64, 127), 0.0f, 0.0f, 1.0f);
    expect("bc4s/6", t, 2, Q(-192, 635), 0.0f, 0.0f, 1.0f);
    expect("bc4s/6", t, 3, Q(-64, 635), 0.0f, 0.0f, 1.0f);
    expect("bc4s/6", t, 5, Q(192, 635), 0.0f, 0.0f, 1.0f);
    expect("bc4s/6", t, 6, -1.0f, 0.0f, 0.0f, 1.0f);
    expect("bc4s/6", t, 7, 1.0f, 0.0f, 0.0f, 1.0f);

    /* BC4 unorm six-value: 10 <= 20; index 3 = (3*10 + 2*20) / 5 = 70 / 1275. */
    channel_block(b, 10, 20, ramp8);
    CHECK(sb_interp_bc_decode(SB_INTERP_BC4_UNORM, b, 8, t), "BC4 unorm six-value decodes");
    expect("bc4u/6", t, 3, Q(70, 1275), 0.0f, 0.0f, 1.0f);
    expect("bc4u/6", t, 6, 0.0f, 0.0f, 0.0f, 1.0f);
    expect("bc4u/6", t, 15, 1.0f, 0.0f, 0.0f, 1.0f);

    /* BC5 unorm: red eight-value (255 > 0), green six-value (10 <= 20). */
    channel_block(b, 255, 0, ramp8);
    channel_block(b + 8, 10, 20, ramp8);
    CHECK(sb_interp_bc_decode(SB_INTERP_BC5_UNORM, b, 16, t), "BC5 unorm decodes");
    expect("bc5u", t, 2, Q(6, 7), Q(4 * 10 + 20, 1275), 0.0f, 1.0f);
    expect("bc5u", t, 6, Q(2, 7), 0.0f, 0.0f, 1.0f);
    expect("bc5u", t, 15, Q(1, 7), 1.0f, 0.0f, 1.0f);

    /* BC5 snorm: red six-value (-64 <= 64), green eight-value (127 > -127). */
    channel_block(b, 0xC0, 0x40, ramp8);
    channel_block(b + 8, 0x7F, 0x81, ramp8);
    CHECK(sb_interp_bc_decode(SB_INTERP_BC5_SNORM, b, 16, t), "BC5 snorm decodes");
    expect("bc5s", t, 1, Q(64, 127), -1.0f, 0.0f, 1.0f);
    expect("bc5s", t, 4, Q(64, 635), Q(1, 7), 0.0f, 1.0f);
    expect("bc5s", t, 14, -1.0f, Q(-3, 7), 0.0f, 1.0f);
}

static void test_bc7_single(void)
{
    uint32_t t[16][4];
    uint8_t b[16];
    uint32_t pos;

    /* Mode 6: 7-bit RGBA endpoints, a p-bit per endpoint, 4-bit indices. R 0/127, G 64/64,
     * B 10/20, A 127/0, p 1/0 widen (v << 1 | p, 8 bits) to R 1/254, G 129/128, B 21/40,
     * A 255/0. Texel i has index i (texel 0, the anchor, 3 bits). */
    memset(b, 0, sizeof(b));
    pos = 0;
    put(b, &pos, 7, 1u << 6);
    const uint32_t m6[8] = { 0, 127, 64, 64, 10, 20, 127, 0 };
    for (uint32_t k = 0; k < 8; k++)
        put(b, &pos, 7, m6[k]);
    put(b, &pos, 1, 1);
    put(b, &pos, 1, 0);
    for (uint32_t i = 0; i < 16; i++)
        put(b, &pos, i == 0 ? 3 : 4, i);
    CHECK(pos == 128, "mode 6 block is %u bits", pos);
    CHECK(sb_interp_bc_decode(SB_INTERP_BC7, b, 16, t), "BC7 mode 6 decodes");
    expect("bc7/6", t, 0, Q(1, 255), Q(129, 255), Q(21, 255), 1.0f);
    /* index 5, w 21: ((43 e0 + 21 e1 + 32) >> 6): R 5409 >> 6 = 84, G 8267 >> 6 = 129,
     * B 1775 >> 6 = 27, A 10997 >> 6 = 171 */
    expect("bc7/6", t, 5, Q(84, 255), Q(129, 255), Q(27, 255), Q(171, 255));
    /* index 8, w 34: R 8698 >> 6 = 135, G 8254 >> 6 = 128, B 2022 >> 6 = 31, A 7682 >> 6 = 120 */
    expect("bc7/6", t, 8, Q(135, 255), Q(128, 255), Q(31, 255), Q(120, 255));
    expect("bc7/6", t, 15, Q(254, 255), Q(128, 255), Q(40, 255), 0.0f);

    /* Mode 5 with rotation 1 (alpha <-> red): 7-bit colour, 8-bit alpha, 2-bit colour and
     * alpha indices. R 0/127 -> 0/255, G 64/64 -> 129/129, B 127/0 -> 255/0, A 0/200.
     * Colour index i % 4, alpha index (i % 4) ^ 1 (texel 0's are 0 and 1, fitting 1 bit). */
    memset(b, 0, sizeof(b));
    pos = 0;
    put(b, &pos, 6, 1u << 5);
    put(b, &pos, 2, 1);
    const uint32_t m5[6] = { 0, 127, 64, 64, 127, 0 };
    for (uint32_t k = 0; k < 6; k++)
        put(b, &pos, 7, m5[k]);
    put(b, &pos, 8, 0);
    put(b, &pos, 8, 200);
    for (uint32_t i = 0; i < 16; i++)
        put(b, &pos, i == 0 ? 1 : 2, i % 4);
    for (uint32_t i = 0; i < 16; i++)
        put(b, &pos, i == 0 ? 1 : 2, (i % 4) ^ 1u);
    CHECK(pos == 128, "mode 5 block is %u bits", pos);
    CHECK(sb_interp_bc_decode(SB_INTERP_BC7, b, 16, t), "BC7 mode 5 decodes");
    /* texel 0: colour (0, 129, 255); alpha index 1, w 21: (21 * 200 + 32) >> 6 = 66;
     * rotated: (66, 129, 255, 0) */
    expect("bc7/5", t, 0, Q(66, 255), Q(129, 255), 1.0f, 0.0f);
    /* texel 1: colour w 21: R (21 * 255 + 32) >> 6 = 84, B (43 * 255 + 32) >> 6 = 171;
     * alpha index 0 = 0; rotated: (0, 129, 171, 84) */
    expect("bc7/5", t, 1, 0.0f, Q(129, 255), Q(171, 255), Q(84, 255));
    /* texel 2: colour w 43: R 171, B 84; alpha index 3 = 200; rotated (200, 129, 84, 171) */
    expect("bc7/5", t, 2, Q(200, 255), Q(129, 255), Q(84, 255), Q(171, 255));
    /* texel 3: colour (255, 129, 0); alpha w 43: (43 * 200 + 32) >> 6 = 134; rotated */
    expect("bc7/5", t, 3, Q(134, 255), Q(129, 255), 0.0f, 1.0f);

    /* Mode 4, rotation 0, index selection 1 (colour from the 3-bit set, alpha from the
     * 2-bit set): 5-bit colour R 0/31 -> 0/255, G 16/16 -> 132/132, B 31/0 -> 255/0;
     * 6-bit alpha 0/40 -> 0/((40 << 2) | (40 >> 4)) = 162. 2-bit index i % 4,
     * 3-bit index i % 8. */
    memset(b, 0, sizeof(b));
    pos = 0;
    put(b, &pos, 5, 1u << 4);
    put(b, &pos, 2, 0);
    put(b, &pos, 1, 1);
    const uint32_t m4[6] = { 0, 31, 16, 16, 31, 0 };
    for (uint32_t k = 0; k < 6; k++)
        put(b, &pos, 5, m4[k]);
    put(b, &pos, 6, 0);
    put(b, &pos, 6, 40);
    for (uint32_t i = 0; i < 16; i++)
        put(b, &pos, i == 0 ? 1 : 2, i % 4);
    for (uint32_t i = 0; i < 16; i++)
        put(b, &pos, i == 0 ? 2 : 3, i % 8);
    CHECK(pos == 128, "mode 4 block is %u bits", pos);
    CHECK(sb_interp_bc_decode(SB_INTERP_BC7, b, 16, t), "BC7 mode 4 decodes");
    expect("bc7/4", t, 0, 0.0f, Q(132, 255), 1.0f, 0.0f);
    /* texel 3: colour index 3, w 27: R (27 * 255 + 32) >> 6 = 108, B (37 * 255 + 32) >> 6 =
     * 147; alpha index 3 = 162 */
    expect("bc7/4", t, 3, Q(108, 255), Q(132, 255), Q(147, 255), Q(162, 255));
    /* texel 6: colour index 6, w 55: R (55 * 255 + 32) >> 6 = 219, B (9 * 255 + 32) >> 6 = 36;
     * alpha index 2, w 43: (43 * 162 + 32) >> 6 = 109 */
    expect("bc7/4", t, 6, Q(219, 255), Q(132, 255), Q(36, 255), Q(109, 255));

    /* The reserved mode 8 (first byte 0): transparent black. */
    memset(b, 0, sizeof(b));
    b[5] = 0xFF;
    CHECK(sb_interp_bc_decode(SB_INTERP_BC7, b, 16, t), "BC7 reserved mode decodes");
    expect("bc7/8", t, 9, 0.0f, 0.0f, 0.0f, 0.0f);
}

static void test_bc7_partitioned(void)
{
    uint32_t t[16][4];
    uint8_t b[16];
    uint32_t pos;

    /* Mode 0: three subsets, partition 4 (texels 0-7 subset 0; 8, 9, 12, 13 subset 1;
     * 10, 11, 14, 15 subset 2; anchors 0, 8 and 15), 4-bit colour with a p-bit per endpoint,
     * 3-bit indices. Widened (c << 1 | p, 5 bits, then v << 3 | v >> 2):
     *   s0: R 0/15 p 0/1 -> 0/255, G 0/0 -> 0/8, B 0/0 -> 0/8
     *   s1: R 8/8 p 1/0 -> 140/132, G 4/12 -> 74/198, B 0/0 -> 8/0
     *   s2: R 15/0 p 1/1 -> 255/8, G 0/0 -> 8/8, B 5/10 -> 90/173
     * Alpha is 255. Index i % 8, but texel 15 (an anchor, 2 bits) has 3. */
    memset(b, 0, sizeof(b));
    pos = 0;
    put(b, &pos, 1, 1);
    put(b, &pos, 4, 4);
    const uint32_t m0[18] = { 0, 15, 8, 8, 15, 0, 0, 0, 4, 12, 0, 0, 0, 0, 0, 0, 5, 10 };
    for (uint32_t k = 0; k < 18; k++)
        put(b, &pos, 4, m0[k]);
    const uint32_t m0p[6] = { 0, 1, 1, 0, 1, 1 };
    for (uint32_t k = 0; k < 6; k++)
        put(b, &pos, 1, m0p[k]);
    for (uint32_t i = 0; i < 16; i++) {
        const bool anchor = i == 0 || i == 8 || i == 15;
        put(b, &pos, anchor ? 2 : 3, i == 15 ? 3 : i % 8);
    }
    CHECK(pos == 128, "mode 0 block is %u bits", pos);
    CHECK(sb_interp_bc_decode(SB_INTERP_BC7, b, 16, t), "BC7 mode 0 decodes");
    expect("bc7/0", t, 0, 0.0f, 0.0f, 0.0f, 1.0f);
    /* texel 5, s0, w 46: R (46 * 255 + 32) >> 6 = 183, G, B (46 * 8 + 32) >> 6 = 6 */
    expect("bc7/0", t, 5, Q(183, 255), Q(6, 255), Q(6, 255), 1.0f);
    expect("bc7/0", t, 8, Q(140, 255), Q(74, 255), Q(8, 255), 1.0f);
    /* texel 9, s1, w 9: R (55 * 140 + 9 * 132 + 32) >> 6 = 139, G (55 * 74 + 9 * 198 + 32) >> 6
     * = 91, B (55 * 8 + 32) >> 6 = 7 */
    expect("bc7/0", t, 9, Q(139, 255), Q(91, 255), Q(7, 255), 1.0f);
    /* texel 10, s2, w 18: R (46 * 255 + 18 * 8 + 32) >> 6 = 186, G 544 >> 6 = 8,
     * B (46 * 90 + 18 * 173 + 32) >> 6 = 113 */
    expect("bc7/0", t, 10, Q(186, 255), Q(8, 255), Q(113, 255), 1.0f);
    /* texel 15, s2, w 27: R (37 * 255 + 27 * 8 + 32) >> 6 = 151, G 8,
     * B (37 * 90 + 27 * 173 + 32) >> 6 = 125 */
    expect("bc7/0", t, 15, Q(151, 255), Q(8, 255), Q(125, 255), 1.0f);

    /* Mode 1: two subsets, partition 13 (texels 8-15 subset 1, anchor 15), 6-bit colour with
     * a p-bit shared per subset (s0 1, s1 0), 3-bit indices. Widened (c << 1 | p, 7 bits,
     * then v << 1 | v >> 6): s0 R 63/0 -> 255/2, G 0/0 -> 2/2, B 32/32 -> 131/131;
     * s1 R 0/0 -> 0/0, G 10/20 -> 40/80, B 0/63 -> 0/253. Index i % 8, texel 15 has 3. */
    memset(b, 0, sizeof(b));
    pos = 0;
    put(b, &pos, 2, 2);
    put(b, &pos, 6, 13);
    const uint32_t m1[12] = { 63, 0, 0, 0, 0, 0, 10, 20, 32, 32, 0, 63 };
    for (uint32_t k = 0; k < 12; k++)
        put(b, &pos, 6, m1[k]);
    put(b, &pos, 1, 1);
    put(b, &pos, 1, 0);
    for (uint32_t i = 0; i < 16; i++)
        put(b, &pos, i == 0 || i == 15 ? 2 : 3, i == 15 ? 3 : i % 8);
    CHECK(pos == 128, "mode 1 block is %u bits", pos);
    CHECK(sb_interp_bc_decode(SB_INTERP_BC7, b, 16, t), "BC7 mode 1 decodes");
    /* texel 3, s0, w 27: R (37 * 255 + 27 * 2 + 32) >> 6 = 148, G 128 >> 6 = 2, B 131 */
    expect("bc7/1", t, 3, Q(148, 255), Q(2, 255), Q(131, 255), 1.0f);
    /* texel 12, s1, w 37: G (27 * 40 + 37 * 80 + 32) >> 6 = 63, B (37 * 253 + 32) >> 6 = 146 */
    expect("bc7/1", t, 12, 0.0f, Q(63, 255), Q(146, 255), 1.0f);
    /* texel 15, s1, w 27: G (37 * 40 + 27 * 80 + 32) >> 6 = 57, B (27 * 253 + 32) >> 6 = 107 */
    expect("bc7/1", t, 15, 0.0f, Q(57, 255), Q(107, 255), 1.0f);
}

/* m * 2^e, exact: how the BC6H expectations below write a half's value. */
#define H(m, e) ldexpf((float)(m), (e))

/* Writes one mode-3-style 10-bit single-subset BC6H block (D3D mode 11, mode number 3):
 * m[4:0] = 00011, then r0 g0 b0 r1 g1 b1 (10 bits each), then 16 indices, texel i = i. */
static void bc6h_mode11(uint8_t *b, const uint32_t e[6])
{
    uint32_t pos = 0;
    memset(b, 0, 16);
    put(b, &pos, 5, 3);
    for (uint32_t k = 0; k < 6; k++)
        put(b, &pos, 10, e[k]);
    for (uint32_t i = 0; i < 16; i++)
        put(b, &pos, i == 0 ? 3 : 4, i);
    CHECK(pos == 128, "D3D mode 11 block is %u bits", pos);
}

static void test_bc6h(void)
{
    uint32_t t[16][4];
    uint8_t b[16];
    uint32_t pos;

    /* D3D mode 11, untransformed 10-bit endpoints r 0/1023, g 512/512, b 1/100.
     * UF16 unquantize (x == 0: 0, x == 1023: 0xFFFF, else ((x << 15) + 0x4000) >> 9):
     * r 0/65535, g 32800/32800, b 96/6432. finish_unquantize: h = v * 31 >> 6. */
    const uint32_t e11[6] = { 0, 512, 1, 1023, 512, 100 };
    bc6h_mode11(b, e11);
    CHECK(sb_interp_bc_decode(SB_INTERP_BC6H_UF16, b, 16, t), "BC6H UF16 mode 11 decodes");
    /* texel 0: r 0; g 32800 * 31 >> 6 = 15887 = 0x3E0F = 1.5146484375; b 96 * 31 >> 6 = 46,
     * a subnormal 46 * 2^-24 */
    expect("bc6u/11", t, 0, 0.0f, 1.5146484375f, H(46, -24), 1.0f);
    /* texel 5, w 21: r (21 * 65535 + 32) >> 6 = 21504 -> h 10416 = 0x28B0 = 1200 * 2^-15;
     * b (43 * 96 + 21 * 6432 + 32) >> 6 = 2175 -> h 1053 = 0x041D = 1053 * 2^-24 */
    expect("bc6u/11", t, 5, H(1200, -15), 1.5146484375f, H(1053, -24), 1.0f);
    /* texel 15, w 64: r 65535 -> h 31743 = 0x7BFF = 65504; b 6432 -> h 3115 = 0x0C2B =
     * 1067 * 2^-22 */
    expect("bc6u/11", t, 15, 65504.0f, 1.5146484375f, H(1067, -22), 1.0f);

    /* The same block as SF16: every endpoint sign-extends at 10 bits: r 0/-1, g -512/-512,
     * b 1/100. Unquantize: |x| >= 511 -> 0x7FFF, else ((|x| << 15) + 0x4000) >> 9, sign back:
     * r 0/-96, g -32767, b 96/6432. finish_unquantize: |v| * 31 >> 5, sign bit 15. */
    CHECK(sb_interp_bc_decode(SB_INTERP_BC6H_SF16, b, 16, t), "BC6H SF16 mode 11 decodes");
    /* texel 0: g -32767 -> h 0xFBFF = -65504; b 96 * 31 >> 5 = 93 -> 93 * 2^-24 */
    expect("bc6s/11", t, 0, 0.0f, -65504.0f, H(93, -24), 1.0f);
    /* texel 5, w 21: r floor((21 * -96 + 32) / 64) = -31 -> h 0x801E = -30 * 2^-24;
     * g floor(-32766.5) = -32767 -> -65504; b 2175 -> h 2107 = 0x083B = 1083 * 2^-23 */
    expect("bc6s/11", t, 5, -H(30, -24), -65504.0f, H(1083, -23), 1.0f);
    /* texel 15: r -96 -> h 93 | sign; b 6432 -> h 6231 = 0x1857 = 1111 * 2^-19 */
    expect("bc6s/11", t, 15, -H(93, -24), -65504.0f, H(1111, -19), 1.0f);

    /* D3D mode 10 (mode number 30): two subsets, untransformed 6-bit endpoints, fields
     * m[4:0], r0[5:0], g3[4], b3[0], b3[1], b2[4], g0[5:0], g2[5], b2[5], b3[2], g2[4],
     * b0[5:0], g3[5], b3[3], b3[5], b3[4], r1[5:0], g2[3:0], g1[5:0], g3[3:0], b1[5:0],
     * b2[3:0], r2[5:0], r3[5:0], then the partition (13: texels 8-15 subset 1, anchor 15)
     * and 3-bit indices i % 8 (texel 15 has 3). Endpoints: r0 63, g1 32, b2 32 (only b2[5]
     * set), g3 16 (only g3[4] set), all others 0. */
    memset(b, 0, sizeof(b));
    pos = 0;
    put(b, &pos, 5, 30);
    put(b, &pos, 6, 63); /* r0 */
    put(b, &pos, 1, 1);  /* g3[4] */
    put(b, &pos, 3, 0);  /* b3[0], b3[1], b2[4] */
    put(b, &pos, 6, 0);  /* g0 */
    put(b, &pos, 1, 0);  /* g2[5] */
    put(b, &pos, 1, 1);  /* b2[5] */
    put(b, &pos, 2, 0);  /* b3[2], g2[4] */
    put(b, &pos, 6, 0);  /* b0 */
    put(b, &pos, 4, 0);  /* g3[5], b3[3], b3[5], b3[4] */
    put(b, &pos, 6, 0);  /* r1 */
    put(b, &pos, 4, 0);  /* g2[3:0] */
    put(b, &pos, 6, 32); /* g1 */
    put(b, &pos, 4, 0);  /* g3[3:0] */
    put(b, &pos, 6, 0);  /* b1 */
    put(b, &pos, 4, 0);  /* b2[3:0] */
    put(b, &pos, 6, 0);  /* r2 */
    put(b, &pos, 6, 0);  /* r3 */
    put(b, &pos, 5, 13);
    for (uint32_t i = 0; i < 16; i++)
        put(b, &pos, i == 0 || i == 15 ? 2 : 3, i == 15 ? 3 : i % 8);
    CHECK(pos == 128, "D3D mode 10 block is %u bits", pos);
    /* UF16: r0 63 -> 0xFFFF; 32 -> ((32 << 15) + 0x4000) >> 5 = 33280; 16 -> 16896.
     * s0: e0 (65535, 0, 0), e1 (0, 33280, 0); s1: e0 (0, 0, 33280), e1 (0, 16896, 0). */
    CHECK(sb_interp_bc_decode(SB_INTERP_BC6H_UF16, b, 16, t), "BC6H UF16 mode 10 decodes");
    expect("bc6u/10", t, 0, 65504.0f, 0.0f, 0.0f, 1.0f);
    /* texel 3, w 27: r (37 * 65535 + 32) >> 6 = 37887 -> h 18351 = 0x47AF = 1967 * 2^-8;
     * g (27 * 33280 + 32) >> 6 = 14040 -> h 6800 = 0x1A90 = 1680 * 2^-19 */
    expect("bc6u/10", t, 3, H(1967, -8), H(1680, -19), 0.0f, 1.0f);
    /* texel 12, s1, w 37: g (37 * 16896 + 32) >> 6 = 9768 -> h 4731 = 1659 * 2^-21;
     * b (27 * 33280 + 32) >> 6 = 14040 -> 1680 * 2^-19 */
    expect("bc6u/10", t, 12, 0.0f, H(1659, -21), H(1680, -19), 1.0f);
    /* texel 15, s1, w 27: g 7128 -> h 3452 = 1404 * 2^-22; b 19240 -> h 9319 = 1127 * 2^-16 */
    expect("bc6u/10", t, 15, 0.0f, H(1404, -22), H(1127, -16), 1.0f);

    /* SF16: 6-bit sign extension: r0 -1, g1 -32, b2 -32, g3 16. Unquantize: -1 -> -1536,
     * -32 (|x| >= 31) -> -32767, 16 -> 16896. */
    CHECK(sb_interp_bc_decode(SB_INTERP_BC6H_SF16, b, 16, t), "BC6H SF16 mode 10 decodes");
    /* texel 0: r -1536 -> h 1488 | sign = -1488 * 2^-24 */
    expect("bc6s/10", t, 0, -H(1488, -24), 0.0f, 0.0f, 1.0f);
    /* texel 3, w 27: r floor((37 * -1536 + 32) / 64) = -888 -> h 860 -> -860 * 2^-24;
     * g floor((27 * -32767 + 32) / 64) = -13824 -> h 13392 = 0x3450 -> -1104 * 2^-12 */
    expect("bc6s/10", t, 3, -H(860, -24), -H(1104, -12), 0.0f, 1.0f);
    /* texel 12, s1, w 37: g 9768 -> h 9462 = 1270 * 2^-16; b -13824 -> -1104 * 2^-12 */
    expect("bc6s/10", t, 12, 0.0f, H(1270, -16), -H(1104, -12), 1.0f);
    /* texel 15, w 27: g 7128 -> h 6905 = 1785 * 2^-19; b floor((37 * -32767 + 32) / 64) =
     * -18943 -> h 18351 -> -1967 * 2^-8 */
    expect("bc6s/10", t, 15, 0.0f, H(1785, -19), -H(1967, -8), 1.0f);

    /* D3D mode 1 (mode number 0): two subsets, transformed: 10-bit endpoint 0, 5-bit deltas.
     * Fields m[1:0], g2[4], b2[4], b3[4], r0[9:0], g0[9:0], b0[9:0], r1[4:0], g3[4], g2[3:0],
     * g1[4:0], b3[0], g3[3:0], b1[4:0], b3[1], b2[3:0], r2[4:0], b3[2], r3[4:0], b3[3],
     * partition 0 (0xcccc: columns 2, 3 subset 1; anchor 15), indices i % 8 (texel 15: 3).
     * r0 100, g0 1000, b0 0; deltas r1 +5, g1 0x1F (-1), b1 0x10 (-16), r2 0, g2 0x11 (-15),
     * b2 +8, r3 0x1F (-1), g3 0x10 (-16), b3 +10. */
    memset(b, 0, sizeof(b));
    pos = 0;
    put(b, &pos, 2, 0);
    put(b, &pos, 1, 1);     /* g2[4] */
    put(b, &pos, 1, 0);     /* b2[4] */
    put(b, &pos, 1, 0);     /* b3[4] */
    put(b, &pos, 10, 100);  /* r0 */
    put(b, &pos, 10, 1000); /* g0 */
    put(b, &pos, 10, 0);    /* b0 */
    put(b, &pos, 5, 5);     /* r1 */
    put(b, &pos, 1, 1);     /* g3[4] */
    put(b, &pos, 4, 1);     /* g2[3:0] */
    put(b, &pos, 5, 0x1F);  /* g1 */
    put(b, &pos, 1, 0);     /* b3[0] */
    put(b, &pos, 4, 0);     /* g3[3:0] */
    put(b, &pos, 5, 0x10);  /* b1 */
    put(b, &pos, 1, 1);     /* b3[1] */
    put(b, &pos, 4, 8);     /* b2[3:0] */
    put(b, &pos, 5, 0);     /* r2 */
    put(b, &pos, 1, 0);     /* b3[2] */
    put(b, &pos, 5, 0x1F);  /* r3 */
    put(b, &pos, 1, 1);     /* b3[3] */
    put(b, &pos, 5, 0);
    for (uint32_t i = 0; i < 16; i++)
        put(b, &pos, i == 0 || i == 15 ? 2 : 3, i == 15 ? 3 : i % 8);
    CHECK(pos == 128, "D3D mode 1 block is %u bits", pos);
    /* UF16: (e0 + delta) & 1023: s0 e1 (105, 999, 1008); s1 e0 (100, 985, 8), e1 (99, 984, 10).
     * Unquantize 0 < x < 1023 is 64x + 32: s0 (6432, 64032, 0) / (6752, 63968, 64544),
     * s1 (6432, 63072, 544) / (6368, 63008, 672). */
    CHECK(sb_interp_bc_decode(SB_INTERP_BC6H_UF16, b, 16, t), "BC6H UF16 mode 1 decodes");
    /* texel 0: r 6432 -> h 3115 = 1067 * 2^-22; g 64032 -> h 31015 = 1319 * 2^5 */
    expect("bc6u/1", t, 0, H(1067, -22), H(1319, 5), 0.0f, 1.0f);
    /* texel 1, w 9: r 6477 -> h 3137 = 1089 * 2^-22; g 64023 -> h 31011 = 1315 * 2^5;
     * b 9077 -> h 4396 = 1324 * 2^-21 */
    expect("bc6u/1", t, 1, H(1089, -22), H(1315, 5), H(1324, -21), 1.0f);
    /* texel 2, s1, w 18: r 6414 -> h 3106 = 1058 * 2^-22; g 63054 -> h 30541 = 1869 * 2^4;
     * b 580 -> h 280 -> 280 * 2^-24 */
    expect("bc6u/1", t, 2, H(1058, -22), H(1869, 4), H(280, -24), 1.0f);
    /* texel 15, s1, w 27: r 6405 -> h 3102 = 1054 * 2^-22; g 63045 -> h 30537 = 1865 * 2^4;
     * b 598 -> h 289 */
    expect("bc6u/1", t, 15, H(1054, -22), H(1865, 4), H(289, -24), 1.0f);

    /* SF16: g0 1000 sign-extends to -24; the sums re-extend at 10 bits: s0 e1 (105, -25, -16),
     * s1 (100, -39, 8) / (99, -40, 10). Unquantize |x| < 511: sign(x) (64|x| + 32):
     * s0 (6432, -1568, 0) / (6752, -1632, -1056), s1 (6432, -2528, 544) / (6368, -2592, 672). */
    CHECK(sb_interp_bc_decode(SB_INTERP_BC6H_SF16, b, 16, t), "BC6H SF16 mode 1 decodes");
    /* texel 0: r h 6231 = 1111 * 2^-19; g -1568 -> h 1519 -> -1519 * 2^-24 */
    expect("bc6s/1", t, 0, H(1111, -19), -H(1519, -24), 0.0f, 1.0f);
    /* texel 1, w 9: r 6477 -> h 6274 = 1154 * 2^-19; g floor(-1576.5) = -1577 -> h 1527;
     * b -148 -> h 143 */
    expect("bc6s/1", t, 1, H(1154, -19), -H(1527, -24), -H(143, -24), 1.0f);
    /* texel 2, w 18: r 6414 -> h 6213 = 1093 * 2^-19; g floor(-2545.5) = -2546 -> h 2466 =
     * 1442 * 2^-23; b 580 -> h 561 */
    expect("bc6s/1", t, 2, H(1093, -19), -H(1442, -23), H(561, -24), 1.0f);
    /* texel 15, w 27: r 6405 -> h 6204 = 1084 * 2^-19; g -2555 -> h 2475 = 1451 * 2^-23;
     * b 598 -> h 579 */
    expect("bc6s/1", t, 15, H(1084, -19), -H(1451, -23), H(579, -24), 1.0f);

    /* D3D mode 14 (mode number 15): one subset, 16-bit endpoint 0, 4-bit deltas, with the
     * spec's reversed fields: r0[10:15] takes its first bit into bit 15. Fields m[4:0],
     * r0[9:0], g0[9:0], b0[9:0], r1[3:0], r0[10:15], g1[3:0], g0[10:15], b1[3:0], b0[10:15].
     * r0 0x8000 (the reversed field's first bit), g0 0x0400 (its last bit), b0 0;
     * deltas r1 0, g1 +1, b1 0xF (-1). Indices: texel i = i. */
    memset(b, 0, sizeof(b));
    pos = 0;
    put(b, &pos, 5, 15);
    put(b, &pos, 30, 0);   /* r0, g0, b0 [9:0] */
    put(b, &pos, 4, 0);    /* r1 */
    put(b, &pos, 6, 1);    /* r0[10:15]: bit 15 first */
    put(b, &pos, 4, 1);    /* g1 */
    put(b, &pos, 6, 32);   /* g0[10:15]: bit 10 last */
    put(b, &pos, 4, 0xF);  /* b1 */
    put(b, &pos, 6, 0);    /* b0[10:15] */
    for (uint32_t i = 0; i < 16; i++)
        put(b, &pos, i == 0 ? 3 : 4, i);
    CHECK(pos == 128, "D3D mode 14 block is %u bits", pos);
    /* UF16, 16 bits are not unquantized: r 32768/32768, g 1024/1025, b 0/(0 - 1) & 0xFFFF.
     * r 32768 * 31 >> 6 = 15872 = 0x3E00 = 1.5; g 1024 -> 496, 1025 -> 496 (subnormals);
     * b 65535 -> 0x7BFF. */
    CHECK(sb_interp_bc_decode(SB_INTERP_BC6H_UF16, b, 16, t), "BC6H UF16 mode 14 decodes");
    expect("bc6u/14", t, 0, 1.5f, H(496, -24), 0.0f, 1.0f);
    expect("bc6u/14", t, 15, 1.5f, H(496, -24), 65504.0f, 1.0f);
    /* SF16: r0 is -32768 and passes unquantization unchanged; finish_unquantize gives
     * 32768 * 31 >> 5 = 0x7C00 with the sign: -inf, the one infinity BC6H can produce.
     * g 1024 * 31 >> 5 = 992, 1025 -> 992; b texel 15: -1 -> 31 >> 5 = 0, sign: -0. */
    CHECK(sb_interp_bc_decode(SB_INTERP_BC6H_SF16, b, 16, t), "BC6H SF16 mode 14 decodes");
    expect("bc6s/14", t, 0, -INFINITY, H(992, -24), 0.0f, 1.0f);
    expect("bc6s/14", t, 15, -INFINITY, H(992, -24), -0.0f, 1.0f);
    CHECK(t[15][2] == 0x80000000u, "bc6s/14 texel 15 blue is -0: %08x", t[15][2]);

    /* A reserved mode (19 = 10011): (0, 0, 0, 1). */
    memset(b, 0xA5, sizeof(b));
    b[0] = 0x13;
    CHECK(sb_interp_bc_decode(SB_INTERP_BC6H_SF16, b, 16, t), "BC6H reserved mode decodes");
    expect("bc6/reserved", t, 7, 0.0f, 0.0f, 0.0f, 1.0f);
}

/* Short blocks are refused; a block that ends a page-sized buffer is the whole read. */
static void test_truncated(void)
{
    uint32_t t[16][4];
    uint8_t buffer[64];
    memset(buffer, 0x5A, sizeof(buffer));
    for (uint32_t f = SB_INTERP_BC1; f <= SB_INTERP_BC7; f++) {
        const size_t need = f == SB_INTERP_BC1 || f == SB_INTERP_BC4_UNORM || f == SB_INTERP_BC4_SNORM ? 8 : 16;
        for (size_t n = 0; n < need; n++)
            CHECK(!sb_interp_bc_decode(f, buffer + sizeof(buffer) - n, n, t), "format %u, %zu bytes refused", f, n);
    }
    CHECK(!sb_interp_bc_decode(0, buffer, 16, t), "format 0 refused");
    CHECK(!sb_interp_bc_decode(99, buffer, 16, t), "format 99 refused");
    CHECK(!sb_interp_bc_decode(SB_INTERP_BC1, NULL, 8, t), "NULL block refused");
}

/* Random blocks: no crash (sanitizer builds catch stray reads), every one decodes, every
 * value in its format's range and finite but for SF16's -inf. */
static void test_random(void)
{
    uint32_t state = 12345u;
    uint32_t decoded[SB_INTERP_BC7 + 1] = { 0 };
    for (uint32_t round = 0; round < 20000; round++) {
        uint8_t b[16];
        for (size_t k = 0; k < sizeof(b); k++) {
            state = state * 1664525u + 1013904223u;
            b[k] = (uint8_t)(state >> 24);
        }
        const uint32_t f = SB_INTERP_BC1 + round % SB_INTERP_BC7;
        uint32_t t[16][4];
        /* Every block of the right length decodes: reserved modes have defined results. */
        if (!sb_interp_bc_decode(f, b, sizeof(b), t))
            continue;
        decoded[f]++;
        const bool snorm = f == SB_INTERP_BC4_SNORM || f == SB_INTERP_BC5_SNORM || f == SB_INTERP_BC6H_SF16;
        const bool hdr = f == SB_INTERP_BC6H_UF16 || f == SB_INTERP_BC6H_SF16;
        for (uint32_t i = 0; i < 16; i++) {
            for (uint32_t c = 0; c < 4; c++) {
                const float v = f_of(t[i][c]);
                /* BC6H's largest finish_unquantize result is the half 0x7BFF = 65504; SF16's
                 * 16-bit endpoint -32768 (D3D mode 14) gives -inf, the only infinity. */
                const float lo = snorm ? (hdr ? -65504.0f : -1.0f) : 0.0f, hi = hdr ? 65504.0f : 1.0f;
                const bool allowed_inf = f == SB_INTERP_BC6H_SF16 && v == -INFINITY;
                CHECK(allowed_inf || (isfinite(v) && v >= lo && v <= hi), "format %u round %u texel %u.%u = %g", f,
                      round, i, c, (double)v);
            }
        }
    }
    for (uint32_t f = SB_INTERP_BC1; f <= SB_INTERP_BC7; f++)
        CHECK(decoded[f] == 2000, "format %u decoded %u of 2000 random blocks", f, decoded[f]);
    printf("random blocks decoded per format 1..10:");
    for (uint32_t f = SB_INTERP_BC1; f <= SB_INTERP_BC7; f++)
        printf(" %u", decoded[f]);
    printf("\n");
}

int main(void)
{
    test_bc1();
    test_bc2();
    test_bc3();
    test_bc4_bc5();
    test_bc7_single();
    test_bc7_partitioned();
    test_bc6h();
    test_truncated();
    test_random();
    if (failures)
        fprintf(stderr, "%u failures\n", failures);
    return failures ? 1 : 0;
}
