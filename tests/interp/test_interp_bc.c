/* SPDX-License-Identifier: MIT */
/*
 * The CPU interpreter's block decoder (runtime/src/interp/interp_bc.c,
 * sb_interp_bc_decode) on hand-built blocks whose texels are worked out from
 * the formats' rules in the comments beside each expected value: BC1 four-
 * and three-colour modes, BC2 explicit alpha, BC3 eight- and six-value alpha,
 * BC4/BC5 unorm and snorm in both modes, BC7 modes 0, 1, 4, 5, 6 (partitions,
 * anchors, rotation, index selection, endpoint and shared p-bits). Then short blocks are refused without
 * a read past their end (the block sits at the end of a guarded buffer), and
 * random blocks of every format decode to finite values in range.
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

/* Random blocks: no crash (the sanitizer builds catch stray reads), every value finite and
 * in its format's range. Blocks of modes not decoded yet may be refused. */
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
        if (!sb_interp_bc_decode(f, b, sizeof(b), t))
            continue;
        decoded[f]++;
        const bool snorm = f == SB_INTERP_BC4_SNORM || f == SB_INTERP_BC5_SNORM || f == SB_INTERP_BC6H_SF16;
        const bool hdr = f == SB_INTERP_BC6H_UF16 || f == SB_INTERP_BC6H_SF16;
        for (uint32_t i = 0; i < 16; i++) {
            for (uint32_t c = 0; c < 4; c++) {
                const float v = f_of(t[i][c]);
                /* BC6H's largest finish_unquantize result is the half 0x7BFF = 65504. */
                const float lo = snorm ? (hdr ? -65504.0f : -1.0f) : 0.0f, hi = hdr ? 65504.0f : 1.0f;
                CHECK(isfinite(v) && v >= lo && v <= hi, "format %u round %u texel %u.%u = %g", f, round, i,
                      c, (double)v);
            }
        }
    }
    for (uint32_t f = SB_INTERP_BC1; f <= SB_INTERP_BC7; f++)
        CHECK(f == SB_INTERP_BC6H_UF16 || f == SB_INTERP_BC6H_SF16 || decoded[f] > 0, "format %u decoded random blocks", f);
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
    test_truncated();
    test_random();
    if (failures)
        fprintf(stderr, "%u failures\n", failures);
    return failures ? 1 : 0;
}
