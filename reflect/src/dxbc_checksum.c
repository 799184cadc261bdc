/* SPDX-License-Identifier: MIT */
/*
 * The DirectX Container checksum (../shared/docs/dxcontainer.md §1.3).
 *
 * It is MD5's compression function with MD5's initial state, run over the
 * bytes after the digest field, but with a non-standard final padding: the
 * bit length goes in the *first* word of the last block and (L >> 2) | 1 in
 * its last word. A stock MD5 library cannot produce it (none exposes the
 * bare block function in a supported API), so the block function is here.
 */
#include "dxbc_private.h"

#include <string.h>

static uint32_t rotl(uint32_t x, unsigned n)
{
    return (x << n) | (x >> (32 - n));
}

/* Per-round shift amounts and the sine-derived constants of RFC 1321. */
static const uint8_t md5_shift[64] = {
    7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22,
    5, 9,  14, 20, 5, 9,  14, 20, 5, 9,  14, 20, 5, 9,  14, 20,
    4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23,
    6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21,
};

static const uint32_t md5_sine[64] = {
    0xd76aa478, 0xe8c7b756, 0x242070db, 0xc1bdceee, 0xf57c0faf, 0x4787c62a, 0xa8304613,
    0xfd469501, 0x698098d8, 0x8b44f7af, 0xffff5bb1, 0x895cd7be, 0x6b901122, 0xfd987193,
    0xa679438e, 0x49b40821, 0xf61e2562, 0xc040b340, 0x265e5a51, 0xe9b6c7aa, 0xd62f105d,
    0x02441453, 0xd8a1e681, 0xe7d3fbc8, 0x21e1cde6, 0xc33707d6, 0xf4d50d87, 0x455a14ed,
    0xa9e3e905, 0xfcefa3f8, 0x676f02d9, 0x8d2a4c8a, 0xfffa3942, 0x8771f681, 0x6d9d6122,
    0xfde5380c, 0xa4beea44, 0x4bdecfa9, 0xf6bb4b60, 0xbebfbc70, 0x289b7ec6, 0xeaa127fa,
    0xd4ef3085, 0x04881d05, 0xd9d4d039, 0xe6db99e5, 0x1fa27cf8, 0xc4ac5665, 0xf4292244,
    0x432aff97, 0xab9423a7, 0xfc93a039, 0x655b59c3, 0x8f0ccc92, 0xffeff47d, 0x85845dd1,
    0x6fa87e4f, 0xfe2ce6e0, 0xa3014314, 0x4e0811a1, 0xf7537e82, 0xbd3af235, 0x2ad7d2bb,
    0xeb86d391,
};

void sb_md5_block(uint32_t state[4], const uint8_t block[64])
{
    uint32_t m[16];
    for (unsigned i = 0; i < 16; i++)
        m[i] = sb_load_u32(block + 4 * i);
    uint32_t a = state[0], b = state[1], c = state[2], d = state[3];
    for (unsigned i = 0; i < 64; i++) {
        uint32_t f;
        unsigned g;
        if (i < 16) {
            f = (b & c) | (~b & d);
            g = i;
        } else if (i < 32) {
            f = (d & b) | (~d & c);
            g = (5 * i + 1) & 15;
        } else if (i < 48) {
            f = b ^ c ^ d;
            g = (3 * i + 5) & 15;
        } else {
            f = c ^ (b | ~d);
            g = (7 * i) & 15;
        }
        uint32_t next_b = b + rotl(a + f + md5_sine[i] + m[g], md5_shift[i]);
        a = d;
        d = c;
        c = b;
        b = next_b;
    }
    state[0] += a;
    state[1] += b;
    state[2] += c;
    state[3] += d;
}

static void store_u32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
}

enum sb_result sb_dxbc_compute_checksum(const void *data, size_t size, uint8_t digest[16])
{
    if (!data || !digest || size < 20)
        return SB_ERROR_INVALID_ARGUMENT;
    const uint8_t *bytes = (const uint8_t *)data + 20;
    size_t length = size - 20;
    uint32_t state[4] = { 0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476 };

    size_t full = length & ~(size_t)63;
    for (size_t i = 0; i < full; i += 64)
        sb_md5_block(state, bytes + i);

    size_t rem = length - full;
    /* The format stores the bit length as a u32; containers are capped at 2 GiB. */
    uint32_t bits = (uint32_t)(length * 8);
    uint8_t block[64];
    memset(block, 0, sizeof(block));
    if (rem + 1 > 56) {
        memcpy(block, bytes + full, rem);
        block[rem] = 0x80;
        sb_md5_block(state, block);
        memset(block, 0, sizeof(block));
        store_u32(block, bits);
    } else {
        store_u32(block, bits);
        memcpy(block + 4, bytes + full, rem);
        block[4 + rem] = 0x80;
    }
    store_u32(block + 60, (bits >> 2) | 1);
    sb_md5_block(state, block);

    for (unsigned i = 0; i < 4; i++)
        store_u32(digest + 4 * i, state[i]);
    return SB_SUCCESS;
}
