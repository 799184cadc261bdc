/* SPDX-License-Identifier: MIT */
/*
 * A 128-bit non-cryptographic content hash for the translation cache and the
 * dump file names (layer/README.md §Cache). Two 64-bit lanes, each a
 * multiply-xorshift over 8-byte little-endian words with its own multiplier,
 * and a final avalanche mixing both lanes with the length: collisions of
 * distinct shaders are not a practical concern at cache sizes, and nothing
 * trusts the hash for security (a cache directory is the user's own).
 */
#include "layer_private.h"

#include <string.h>

static uint64_t mix(uint64_t x)
{
    x ^= x >> 31;
    x *= 0x7fb5d329728ea185ull;
    x ^= x >> 27;
    x *= 0x81dadef4bc2dd44dull;
    x ^= x >> 33;
    return x;
}

static uint64_t load64(const uint8_t *p, size_t n)
{
    uint64_t v = 0;
    for (size_t i = 0; i < n; i++)
        v |= (uint64_t)p[i] << (8 * i);
    return v;
}

struct sb_layer_hash sb_layer_hash_bytes(const void *data, size_t size, uint64_t seed)
{
    const uint8_t *p = data;
    uint64_t a = 0x243f6a8885a308d3ull ^ seed, b = 0x13198a2e03707344ull ^ (seed * 0x9e3779b97f4a7c15ull);
    size_t i = 0;
    for (; i + 8 <= size; i += 8) {
        uint64_t w;
        memcpy(&w, p + i, 8); /* little-endian hosts only (x86-64, aarch64) */
        a = (a ^ w) * 0x9e3779b97f4a7c15ull;
        a ^= a >> 29;
        b = (b + w) * 0xc2b2ae3d27d4eb4full;
        b ^= b >> 31;
    }
    uint64_t tail = load64(p + i, size - i);
    a = mix(a ^ tail ^ (uint64_t)size);
    b = mix(b + tail + ((uint64_t)size << 1));
    struct sb_layer_hash h = { mix(a ^ (b >> 1)), mix(b ^ (a << 1) ^ 0x452821e638d01377ull) };
    return h;
}

void sb_layer_hash_hex(struct sb_layer_hash hash, char out[33])
{
    static const char digits[] = "0123456789abcdef";
    for (int i = 0; i < 16; i++) {
        out[i] = digits[(hash.hi >> (60 - 4 * i)) & 15];
        out[16 + i] = digits[(hash.lo >> (60 - 4 * i)) & 15];
    }
    out[32] = 0;
}
