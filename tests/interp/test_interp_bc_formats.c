/* SPDX-License-Identifier: MIT */
/*
 * Block-compressed texture formats (issue #15 item 5, BC part), the sibling of
 * test_interp_formats.c and built the same way: programs run through shaders, so the same
 * ones run on a device.
 *
 *  - facts: per-block sizes, block extents, texture sizes with partial edge blocks and mips;
 *  - known answers on the interpreter: a 6x3 Texture2D of each BC format (2x1 blocks, the
 *    right block only half used, so ceil() sizing and in-block picking are both exercised)
 *    read with ld and point sample_l must give sb_interp_bc_decode's texel (with the exact
 *    sRGB curve applied for _SRGB), plus hand-computed values for BC1 and BC4;
 *  - a second level (its block after level 0's) read with ld, and a linear sample_l halfway
 *    across a block edge giving the mean of the two texels;
 *  - refusals: a BC UAV (store_uav_typed) and a BC typed buffer are binding errors;
 *  - with the argument "gpu": every BC format on the Vulkan runtime (lavapipe in CI) against
 *    the interpreter, same programs and blocks, exact or within the tolerances of
 *    bc_tolerance() (whose comment gives each reason); a format the device cannot sample is
 *    skipped with the runtime's reason.
 *
 * Program (6x3x1 group, one texel per thread): ld r0, (x, y, mip 0), t0 -> u0[32 i] and
 * sample_l at the texel centre, lod 0 -> u0[32 i + 16], i = 6 y + x.
 * mip_linear_program: see its comment.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "interp_private.h"
#include "shaderbridge/interp.h"
#include "shaderbridge/runtime.h"
#include "shaderbridge/translate.h"
#include "translator/ir.h"
#include "translator/sm4.h"
#include "sm4_asm.h"

#define W 6u
#define H 3u
#define BLOCKS 2u /* ceil(6/4) x ceil(3/4) */

static unsigned failures, checks, skips;

#define CHECK(cond, ...)                                                                  \
    do {                                                                                  \
        checks++;                                                                         \
        if (!(cond)) {                                                                    \
            fprintf(stderr, "%s:%d: check failed: %s: ", __FILE__, __LINE__, #cond);       \
            fprintf(stderr, __VA_ARGS__);                                                 \
            fprintf(stderr, "\n");                                                        \
            failures++;                                                                   \
        }                                                                                 \
    } while (0)

static uint32_t f2u(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

static float u2f(uint32_t u)
{
    float f;
    memcpy(&f, &u, 4);
    return f;
}

/* Each BC format with its decoder format and whether it is sRGB. */
static const struct bc_format {
    enum sb_rt_format format;
    uint32_t bc;
    bool srgb;
} bc_formats[] = {
    { SB_RT_FORMAT_BC1_UNORM, SB_INTERP_BC1, false },      { SB_RT_FORMAT_BC1_UNORM_SRGB, SB_INTERP_BC1, true },
    { SB_RT_FORMAT_BC2_UNORM, SB_INTERP_BC2, false },      { SB_RT_FORMAT_BC2_UNORM_SRGB, SB_INTERP_BC2, true },
    { SB_RT_FORMAT_BC3_UNORM, SB_INTERP_BC3, false },      { SB_RT_FORMAT_BC3_UNORM_SRGB, SB_INTERP_BC3, true },
    { SB_RT_FORMAT_BC4_UNORM, SB_INTERP_BC4_UNORM, false }, { SB_RT_FORMAT_BC4_SNORM, SB_INTERP_BC4_SNORM, false },
    { SB_RT_FORMAT_BC5_UNORM, SB_INTERP_BC5_UNORM, false }, { SB_RT_FORMAT_BC5_SNORM, SB_INTERP_BC5_SNORM, false },
    { SB_RT_FORMAT_BC6H_UF16, SB_INTERP_BC6H_UF16, false }, { SB_RT_FORMAT_BC6H_SF16, SB_INTERP_BC6H_SF16, false },
    { SB_RT_FORMAT_BC7_UNORM, SB_INTERP_BC7, false },      { SB_RT_FORMAT_BC7_UNORM_SRGB, SB_INTERP_BC7, true },
};
#define BC_COUNT (sizeof(bc_formats) / sizeof(bc_formats[0]))

static struct sm4_program read_program(void)
{
    struct sm4_program p;
    sm4_begin_cs(&p, W, H, 1, 5);
    sm4_dcl_resource(&p, 0, 3, 0x5555); /* Texture2D<float4> */
    sm4_dcl_sampler(&p, 0);
    sm4_dcl_uav_raw(&p, 0);
    sm4_dcl_thread_id(&p, T_THREAD_ID, "xy");
    I(&p, OP_MOV, dr(4, "xy"), special(T_THREAD_ID, "xyyy"));
    I(&p, OP_MOV, dr(4, "zw"), l1(0));
    I(&p, OP_LD, dr(0, "xyzw"), sr(4, "xyzw"), st(0, "xyzw"));
    I(&p, OP_IMAD, dr(1, "x"), special(T_THREAD_ID, "y"), l1(W), special(T_THREAD_ID, "x"));
    I(&p, OP_ISHL, dr(1, "x"), sr(1, "x"), l1(5));
    I(&p, OP_STORE_RAW, du(0, "xyzw"), sr(1, "x"), sr(0, "xyzw"));
    I(&p, OP_UTOF, dr(2, "xy"), special(T_THREAD_ID, "xyyy"));
    I(&p, OP_ADD, dr(2, "xy"), sr(2, "xyyy"), lf(0.5f));
    I(&p, OP_MUL, dr(2, "x"), sr(2, "x"), lf(1.0f / W));
    I(&p, OP_MUL, dr(2, "y"), sr(2, "y"), lf(1.0f / H));
    I(&p, OP_SAMPLE_L, dr(3, "xyzw"), sr(2, "xyyy"), st(0, "xyzw"), ss(0), lf(0.0f));
    I(&p, OP_IADD, dr(1, "y"), sr(1, "x"), l1(16));
    I(&p, OP_STORE_RAW, du(0, "xyzw"), sr(1, "y"), sr(3, "xyzw"));
    sm4_end(&p);
    return p;
}

/* store_uav_typed into u1: must be refused for a BC format. */
static struct sm4_program write_program(void)
{
    struct sm4_program p;
    sm4_begin_cs(&p, 1, 1, 1, 1);
    sm4_dcl_uav_typed(&p, 1, 3, 0x5555);
    I(&p, OP_STORE_UAV_TYPED, du(1, "xyzw"), l1(0), lf(0.5f));
    sm4_end(&p);
    return p;
}

/* ld from a typed buffer t0: must be refused for a BC format. */
static struct sm4_program buffer_program(void)
{
    struct sm4_program p;
    sm4_begin_cs(&p, 1, 1, 1, 1);
    sm4_dcl_resource(&p, 0, 1, 0x5555);
    sm4_dcl_uav_raw(&p, 0);
    I(&p, OP_LD, dr(0, "xyzw"), l1(0), st(0, "xyzw"));
    I(&p, OP_STORE_RAW, du(0, "xyzw"), l1(0), sr(0, "xyzw"));
    sm4_end(&p);
    return p;
}

static struct sb_rt_resource plain(uint32_t cls, uint32_t reg, void *data, size_t size)
{
    return (struct sb_rt_resource){ .resource_class = cls, .register_index = reg, .data = data, .size = size,
                                    .width = 1, .height = 1, .depth = 1, .layers = 1, .mip_levels = 1,
                                    .sample_count = 1 };
}

/* The interpreter (c NULL) or the device through sb_translate + sb_rt_dispatch. */
static enum sb_result run(struct sb_rt_context *c, const struct sm4_program *p, struct sb_rt_resource *table,
                          uint32_t count, struct sb_error *err)
{
    memset(err, 0, sizeof(*err));
    const uint32_t groups[3] = { 1, 1, 1 };
    enum sb_result r;
    if (c) {
        static struct blob container;
        sm4_container(p, &container);
        struct sb_translation *t = NULL;
        r = sb_translate(container.bytes, container.size, NULL, &t, err);
        if (r == SB_SUCCESS)
            r = sb_rt_dispatch(c, t, table, count, groups, NULL, err);
        sb_translation_destroy(t);
        return r;
    }
    struct sb_sm4_program *sm4 = NULL;
    struct sb_ir_program *ir = NULL;
    r = sb_sm4_decode(p->tok, p->n * 4, 0, &sm4, err);
    if (r == SB_SUCCESS)
        r = sb_ir_from_sm4(sm4, NULL, &ir, err);
    sb_sm4_program_destroy(sm4);
    if (r == SB_SUCCESS) {
        struct sb_interp_options options = { 0 };
        r = sb_interp_dispatch(ir, table, count, groups, &options, NULL, err);
    }
    sb_ir_program_destroy(ir);
    return r;
}

/* A 6x3 texture with 2 levels (level 1 is 3x1: one block after level 0's two): thread x
 * (0..2) does ld (x, 0) of level 1 -> u0[32 x], and a linear sample_l of level 0 at
 * u = 4/6, v = 0.5/3 (halfway between texels (3, 0) and (4, 0), across the block edge)
 * -> u0[32 x + 16]. */
static struct sm4_program mip_linear_program(void)
{
    struct sm4_program p;
    sm4_begin_cs(&p, 3, 1, 1, 5);
    sm4_dcl_resource(&p, 0, 3, 0x5555);
    sm4_dcl_sampler(&p, 0);
    sm4_dcl_uav_raw(&p, 0);
    sm4_dcl_thread_id(&p, T_THREAD_ID, "xy");
    I(&p, OP_MOV, dr(4, "x"), special(T_THREAD_ID, "x"));
    I(&p, OP_MOV, dr(4, "yz"), l1(0));
    I(&p, OP_MOV, dr(4, "w"), l1(1));
    I(&p, OP_LD, dr(0, "xyzw"), sr(4, "xyzw"), st(0, "xyzw"));
    I(&p, OP_ISHL, dr(1, "x"), special(T_THREAD_ID, "x"), l1(5));
    I(&p, OP_STORE_RAW, du(0, "xyzw"), sr(1, "x"), sr(0, "xyzw"));
    I(&p, OP_MOV, dr(2, "x"), lf(4.0f / W));
    I(&p, OP_MOV, dr(2, "y"), lf(0.5f / H));
    I(&p, OP_SAMPLE_L, dr(3, "xyzw"), sr(2, "xyyy"), st(0, "xyzw"), ss(0), lf(0.0f));
    I(&p, OP_IADD, dr(1, "y"), sr(1, "x"), l1(16));
    I(&p, OP_STORE_RAW, du(0, "xyzw"), sr(1, "y"), sr(3, "xyzw"));
    sm4_end(&p);
    return p;
}

/* Runs mip_linear_program on three blocks (level 0's two, level 1's one) -> out[3][8]. */
static enum sb_result read_mip_linear(struct sb_rt_context *c, enum sb_rt_format f, const uint8_t *blocks,
                                      uint32_t out[3][8], struct sb_error *err)
{
    struct sm4_program p = mip_linear_program();
    uint8_t data[3 * 16];
    size_t bytes = (size_t)3 * sb_rt_format_size(f);
    memcpy(data, blocks, bytes);
    memset(out, 0xEE, sizeof(uint32_t) * 3 * 8);
    struct sb_rt_resource t[3] = { plain(SB_IR_RESOURCE_SRV, 0, data, bytes),
                                   plain(SB_IR_RESOURCE_UAV, 0, out, sizeof(uint32_t) * 3 * 8),
                                   plain(SB_IR_RESOURCE_SAMPLER, 0, NULL, 0) };
    t[0].format = f;
    t[0].dimension = 3;
    t[0].width = W;
    t[0].height = H;
    t[0].mip_levels = 2;
    t[2].sampler.mag_filter = t[2].sampler.min_filter = SB_RT_FILTER_LINEAR;
    t[2].sampler.address[0] = t[2].sampler.address[1] = t[2].sampler.address[2] = SB_RT_ADDRESS_CLAMP_TO_EDGE;
    return run(c, &p, t, 3, err);
}

/* ld and sample_l of every texel of a 6x3 texture of `blocks` -> out[6 y + x][8]. */
static enum sb_result read_texels(struct sb_rt_context *c, enum sb_rt_format f, const uint8_t *blocks,
                                  uint32_t out[W * H][8], struct sb_error *err)
{
    struct sm4_program p = read_program();
    uint8_t data[BLOCKS * 16];
    size_t bytes = (size_t)BLOCKS * sb_rt_format_size(f);
    memcpy(data, blocks, bytes);
    memset(out, 0xEE, sizeof(uint32_t) * W * H * 8);
    struct sb_rt_resource t[3] = { plain(SB_IR_RESOURCE_SRV, 0, data, bytes),
                                   plain(SB_IR_RESOURCE_UAV, 0, out, sizeof(uint32_t) * W * H * 8),
                                   plain(SB_IR_RESOURCE_SAMPLER, 0, NULL, 0) };
    t[0].format = f;
    t[0].dimension = 3;
    t[0].width = W;
    t[0].height = H;
    t[2].sampler.address[0] = t[2].sampler.address[1] = t[2].sampler.address[2] = SB_RT_ADDRESS_CLAMP_TO_EDGE;
    return run(c, &p, t, 3, err);
}

/* What texel (x, y) must read as: the decoder's value, then the exact sRGB curve on rgb. */
static void expected(const struct bc_format *k, const uint8_t *blocks, uint32_t x, uint32_t y, uint32_t want[4])
{
    uint32_t size = sb_rt_format_size(k->format), texels[16][4];
    bool ok = sb_interp_bc_decode(k->bc, blocks + (x / 4) * size, size, texels);
    CHECK(ok, "%s: the reference decode failed", sb_rt_format_name(k->format));
    memcpy(want, texels[(y % 4) * 4 + x % 4], 16);
    for (uint32_t c = 0; k->srgb && c < 3; c++) {
        double v = u2f(want[c]);
        want[c] = f2u((float)(v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4)));
    }
}

/* Pseudo-random blocks, avoiding the reserved BC6H and BC7 modes: D3D defines what they
 * decode to but Vulkan does not, so the device comparison would test nothing. */
static uint32_t next(uint32_t *seed)
{
    *seed = *seed * 1664525u + 1013904223u;
    return *seed >> 8;
}

/* Fills BLOCKS + 1 blocks: level 0 of the 6x3 texture, then level 1's one block. */
static void random_blocks(const struct bc_format *k, uint32_t seed, uint8_t blocks[(BLOCKS + 1) * 16])
{
    uint32_t size = sb_rt_format_size(k->format);
    for (uint32_t i = 0; i < (BLOCKS + 1) * 16; i++)
        blocks[i] = (uint8_t)next(&seed);
    for (uint32_t b = 0; b < BLOCKS + 1; b++) {
        uint8_t *m = blocks + b * size;
        if (k->bc == SB_INTERP_BC7 && m[0] == 0)
            m[0] = (uint8_t)(1u << (next(&seed) % 8)); /* mode 8 (no bit set) is reserved */
        if ((k->bc == SB_INTERP_BC6H_UF16 || k->bc == SB_INTERP_BC6H_SF16) && (m[0] & 0x13) == 0x13)
            m[0] &= (uint8_t)~0x10u; /* 5-bit modes 10011, 10111, 11011, 11111 are reserved */
    }
}

/* ---- facts --------------------------------------------------------------------------------- */

static void test_facts(void)
{
    CHECK(SB_RT_FORMAT_D24_UNORM_S8_UINT + 1 == SB_RT_FORMAT_BC1_UNORM, "BC formats appended after D24S8");
    CHECK(sb_rt_format_size(SB_RT_FORMAT_BC1_UNORM) == 8 && sb_rt_format_size(SB_RT_FORMAT_BC4_SNORM) == 8 &&
              sb_rt_format_size(SB_RT_FORMAT_BC2_UNORM_SRGB) == 16 && sb_rt_format_size(SB_RT_FORMAT_BC7_UNORM) == 16 &&
              sb_rt_format_size(SB_RT_FORMAT_BC6H_SF16) == 16,
          "bytes per block");
    CHECK(sb_rt_format_block_extent(SB_RT_FORMAT_BC5_SNORM) == 4 &&
              sb_rt_format_block_extent(SB_RT_FORMAT_R8_UNORM) == 1 &&
              sb_rt_format_block_extent(SB_RT_FORMAT_UNDEFINED) == 0,
          "block extents");
    CHECK(sb_rt_format_channels(SB_RT_FORMAT_BC4_UNORM) == 1 && sb_rt_format_channels(SB_RT_FORMAT_BC5_UNORM) == 2 &&
              sb_rt_format_channels(SB_RT_FORMAT_BC6H_UF16) == 3 && sb_rt_format_channels(SB_RT_FORMAT_BC3_UNORM) == 4,
          "channels");
    CHECK(strcmp(sb_rt_format_name(SB_RT_FORMAT_BC6H_UF16), "bc6h_uf16") == 0, "%s",
          sb_rt_format_name(SB_RT_FORMAT_BC6H_UF16));
    struct sb_rt_resource r = plain(SB_IR_RESOURCE_SRV, 0, NULL, 0);
    r.format = SB_RT_FORMAT_BC1_UNORM;
    r.width = 6;
    r.height = 3;
    CHECK(sb_rt_texture_bytes(&r) == 16, "6x3 bc1: 2x1 blocks = 16 bytes, got %zu", sb_rt_texture_bytes(&r));
    r.mip_levels = 3; /* 6x3 (2 blocks), 3x1 (1), 1x1 (1) */
    CHECK(sb_rt_texture_bytes(&r) == 32, "6x3 bc1 3 mips: 32 bytes, got %zu", sb_rt_texture_bytes(&r));
    r.format = SB_RT_FORMAT_BC7_UNORM;
    r.width = r.height = 5;
    r.mip_levels = 1;
    r.layers = 2; /* 2x2 blocks per layer */
    CHECK(sb_rt_texture_bytes(&r) == 128, "5x5 x2 bc7: 128 bytes, got %zu", sb_rt_texture_bytes(&r));
}

/* ---- known answers on the interpreter ------------------------------------------------------ */

static void check_reads(const struct bc_format *k, const uint8_t *blocks, const char *what)
{
    uint32_t out[W * H][8];
    struct sb_error err;
    enum sb_result r = read_texels(NULL, k->format, blocks, out, &err);
    CHECK(r == SB_SUCCESS, "%s %s: %s: %s", sb_rt_format_name(k->format), what, sb_result_name(r), err.message);
    for (uint32_t y = 0; y < H && r == SB_SUCCESS; y++)
        for (uint32_t x = 0; x < W; x++) {
            uint32_t want[4];
            expected(k, blocks, x, y, want);
            for (uint32_t c = 0; c < 8; c++)
                CHECK(out[y * W + x][c] == want[c % 4], "%s %s texel (%u, %u) %s lane %u = 0x%08x, want 0x%08x",
                      sb_rt_format_name(k->format), what, x, y, c < 4 ? "ld" : "sample_l", c % 4,
                      out[y * W + x][c], want[c % 4]);
        }
}

/* Level 1's texels from the third block; the linear sample is the mean of level 0's texels
 * (3, 0) and (4, 0), one from each block (weights exactly 1/2; the filter's float sums may
 * round: 2^-22 relative allowed). */
static void check_mip_linear(const struct bc_format *k, const uint8_t *blocks)
{
    uint32_t out[3][8];
    struct sb_error err;
    enum sb_result r = read_mip_linear(NULL, k->format, blocks, out, &err);
    CHECK(r == SB_SUCCESS, "%s mip/linear: %s", sb_rt_format_name(k->format), err.message);
    if (r != SB_SUCCESS)
        return;
    uint32_t size = sb_rt_format_size(k->format), a[4], b[4];
    expected(k, blocks, 3, 0, a);
    expected(k, blocks, 4, 0, b);
    for (uint32_t x = 0; x < 3; x++) {
        uint32_t want[4];
        struct bc_format one = *k;
        expected(&one, blocks + 2 * size, x, 0, want); /* level 1: the third block */
        for (uint32_t c = 0; c < 4; c++) {
            CHECK(out[x][c] == want[c], "%s level 1 texel %u lane %u = 0x%08x, want 0x%08x",
                  sb_rt_format_name(k->format), x, c, out[x][c], want[c]);
            double mean = ((double)u2f(a[c]) + (double)u2f(b[c])) / 2, got = u2f(out[x][4 + c]);
            CHECK(fabs(got - mean) <= fabs(mean) * 0x1p-22 + 0x1p-40, "%s linear lane %u = %.9g, want %.9g",
                  sb_rt_format_name(k->format), c, got, mean);
        }
    }
}

static void test_decode(void)
{
    /* test_interp_bc.c's worked BC1 block (c0 0xFC00, c1 0x803F, indices 0..3 along each row)
     * on the left, the same block with rows of index 1 on the right. */
    const uint8_t bc1[16] = { 0x00, 0xFC, 0x3F, 0x80, 0xE4, 0xE4, 0xE4, 0xE4,
                              0x00, 0xFC, 0x3F, 0x80, 0x55, 0x55, 0x55, 0x55 };
    uint32_t out[W * H][8];
    struct sb_error err;
    enum sb_result r = read_texels(NULL, SB_RT_FORMAT_BC1_UNORM, bc1, out, &err);
    CHECK(r == SB_SUCCESS, "bc1: %s", err.message);
    if (r == SB_SUCCESS) {
        /* (0, 0) is c0: (1, 130/255, 0, 1); (3, 2) index 3: ((255 + 264)/765, (130 + 8)/765, 510/765);
         * (5, 1) in the right block, index 1 = c1: (132/255, 4/255, 1, 1) */
        const uint32_t want[3][4] = { { 0x3F800000u, f2u(130.0f / 255.0f), 0, 0x3F800000u },
                                      { f2u((float)(519.0 / 765.0)), f2u((float)(138.0 / 765.0)),
                                        f2u((float)(510.0 / 765.0)), 0x3F800000u },
                                      { f2u(132.0f / 255.0f), f2u(4.0f / 255.0f), 0x3F800000u, 0x3F800000u } };
        const uint32_t at[3] = { 0, 2 * W + 3, 1 * W + 5 };
        for (uint32_t i = 0; i < 3; i++)
            for (uint32_t c = 0; c < 8; c++)
                CHECK(out[at[i]][c] == want[i][c % 4], "bc1 texel %u lane %u = 0x%08x, want 0x%08x", at[i], c,
                      out[at[i]][c], want[i][c % 4]);
    }
    /* BC4: e0 255 > e1 0 gives 8 levels; index 2 = (6 * 255 + 0) / 7 -> 6/7; missing g, b 0, a 1 */
    uint8_t bc4[16] = { 0xFF, 0x00 };
    uint32_t pos = 16;
    for (uint32_t i = 0; i < 16; i++, pos += 3) /* every index 2 */
        bc4[pos / 8] |= (uint8_t)(2u << (pos % 8)), bc4[pos / 8 + 1] |= (uint8_t)((2u << (pos % 8)) >> 8);
    memcpy(bc4 + 8, bc4, 8);
    r = read_texels(NULL, SB_RT_FORMAT_BC4_UNORM, bc4, out, &err);
    CHECK(r == SB_SUCCESS, "bc4: %s", err.message);
    for (uint32_t i = 0; i < W * H && r == SB_SUCCESS; i++)
        CHECK(out[i][0] == f2u(6.0f / 7.0f) && out[i][1] == 0 && out[i][2] == 0 && out[i][3] == 0x3F800000u &&
                  out[i][4] == out[i][0], "bc4 texel %u = 0x%08x 0x%08x 0x%08x 0x%08x", i, out[i][0], out[i][1],
              out[i][2], out[i][3]);
    /* Every format: the blocks above where they fit, and random blocks, against the decoder. */
    for (size_t i = 0; i < BC_COUNT; i++) {
        const struct bc_format *k = &bc_formats[i];
        uint8_t blocks[(BLOCKS + 1) * 16];
        random_blocks(k, 0x51u + (uint32_t)i * 13, blocks);
        check_reads(k, blocks, "random");
        check_mip_linear(k, blocks);
        if (k->bc == SB_INTERP_BC1)
            check_reads(k, bc1, "worked");
    }
}

/* BC textures are read-only and never typed buffers: both are refused before running, as
 * binding errors by the interpreter (c NULL) and as unsupported by the device. */
static void test_refusals(struct sb_rt_context *c)
{
    enum sb_result want = c ? SB_ERROR_RUN_UNSUPPORTED : SB_ERROR_RUN_BINDING;
    uint8_t blocks[BLOCKS * 16] = { 0 }, raw[16];
    struct sm4_program p = write_program();
    struct sb_rt_resource u = plain(SB_IR_RESOURCE_UAV, 1, blocks, BLOCKS * 8);
    u.format = SB_RT_FORMAT_BC1_UNORM;
    u.dimension = 3;
    u.width = W;
    u.height = H;
    struct sb_error err;
    enum sb_result r = run(c, &p, &u, 1, &err);
    CHECK(r == want && strstr(err.message, "block-compressed"), "bc1 UAV: %s: %s", sb_result_name(r),
          err.message);
    CHECK(blocks[0] == 0, "the refused store wrote");
    p = buffer_program();
    struct sb_rt_resource t[2] = { plain(SB_IR_RESOURCE_SRV, 0, blocks, 32), plain(SB_IR_RESOURCE_UAV, 0, raw, 16) };
    t[0].format = SB_RT_FORMAT_BC7_UNORM;
    t[0].dimension = 1;
    t[0].width = 2;
    r = run(c, &p, t, 2, &err);
    /* the device names the format the texel buffer cannot have */
    CHECK(r == want && strstr(err.message, c ? "bc7_unorm" : "block-compressed"), "bc7 buffer: %s: %s",
          sb_result_name(r), err.message);
    if (c)
        printf("refused on the device: %s\n", err.message);
}

/* ---- the device against the interpreter ---------------------------------------------------- */

/*
 * Where the device may differ from the interpreter's exact decode (D3D's rules), measured on
 * llvmpipe (LLVM 15, Mesa 22.3); anything past these is a failure:
 *  - every float lane: 1 ulp, as in test_interp_formats.c (lavapipe multiplies an 8-bit code
 *    by 1/255 instead of dividing; BC7 0x3ed0d0d1 vs ..d2);
 *  - BC1-BC5 unorm: lavapipe decodes to 8-bit codes, rounding the 1/3, 2/3 (BC1-3) and n/7,
 *    n/5 (BC3 alpha, BC4, BC5) interpolants its own way, where the interpreter keeps D3D's
 *    exact quotient: measured up to one code (1/255) off, and 1.2 codes on BC3_SRGB's
 *    (linear) alpha, whose sRGB path lavapipe decodes separately: allowed 1.5/255;
 *  - BC4/BC5 snorm: likewise in signed 8-bit codes, measured up to 1.2 codes (1.2/127) off:
 *    allowed 1.5/127;
 *  - sRGB rgb: one 8-bit code through the curve (whose slope reaches 2.4 near 1) plus
 *    lavapipe's approximate curve: 2.5/255 (measured up to 0.0083, 2.1/255, on BC2_SRGB);
 *  - BC6H: none (measured bit-exact).
 */
static double bc_tolerance(const struct bc_format *k, uint32_t lane)
{
    if (k->srgb && lane < 3)
        return 2.5 / 255;
    switch (k->bc) {
    case SB_INTERP_BC1:
    case SB_INTERP_BC2:
    case SB_INTERP_BC3:
    case SB_INTERP_BC4_UNORM:
    case SB_INTERP_BC5_UNORM:
        return 1.5 / 255;
    case SB_INTERP_BC4_SNORM:
    case SB_INTERP_BC5_SNORM:
        return 1.5 / 127;
    default:
        return 0.0;
    }
}

/* Linear filtering: lavapipe blends the 8-bit formats (all but BC6H) in 8-bit fixed point and
 * rounds the blend to a code (BC7 (165 + 166) / 2 -> 166/255), where the interpreter keeps
 * the float mean: half a code more. BC6H filters in float: nothing more (measured exact). */
static double linear_extra(const struct bc_format *k)
{
    return k->bc == SB_INTERP_BC6H_UF16 || k->bc == SB_INTERP_BC6H_SF16 ? 0.0 : 0.5 / 255 + 1e-6;
}

static bool one_ulp(uint32_t a, uint32_t b)
{
    return (a >> 31) == (b >> 31) && (a > b ? a - b : b - a) == 1;
}

struct figures {
    uint32_t exact, tolerated, differ;
    double max_off;
};

static void device_case(struct sb_rt_context *c, const struct bc_format *k, struct figures *all)
{
    const char *name = sb_rt_format_name(k->format);
    uint8_t blocks[(BLOCKS + 1) * 16];
    random_blocks(k, 0x9E37u + (uint32_t)k->format * 7, blocks);
    uint32_t cpu[W * H][8], gpu[W * H][8];
    struct sb_error err;
    enum sb_result r = read_texels(NULL, k->format, blocks, cpu, &err);
    CHECK(r == SB_SUCCESS, "interpreter %s: %s", name, err.message);
    enum sb_result g = read_texels(c, k->format, blocks, gpu, &err);
    if (g == SB_ERROR_RUN_UNSUPPORTED) {
        printf("skip %s: %s\n", name, err.message);
        skips++;
        return;
    }
    CHECK(g == SB_SUCCESS, "device %s: %s: %s", name, sb_result_name(g), err.message);
    if (g != SB_SUCCESS || r != SB_SUCCESS)
        return;
    struct figures f = { 0 };
    uint32_t shown = 0;
    for (uint32_t i = 0; i < W * H; i++)
        for (uint32_t l = 0; l < 8; l++) {
            uint32_t a = cpu[i][l], b = gpu[i][l];
            if (a == b) {
                f.exact++;
                continue;
            }
            double d = fabs((double)u2f(a) - (double)u2f(b));
            if (d <= bc_tolerance(k, l % 4) || one_ulp(a, b)) {
                f.tolerated++;
                f.max_off = d > f.max_off ? d : f.max_off;
                continue;
            }
            f.differ++;
            if (shown++ < 4)
                fprintf(stderr, "  %s texel (%u, %u) %s lane %u: interpreter 0x%08x (%g), device 0x%08x (%g)\n",
                        name, i % W, i / W, l < 4 ? "ld" : "sample_l", l % 4, a, u2f(a), b, u2f(b));
        }
    /* level 1 (offsets past level 0's blocks) and linear filtering across a block edge */
    uint32_t cpu_m[3][8], gpu_m[3][8];
    r = read_mip_linear(NULL, k->format, blocks, cpu_m, &err);
    g = read_mip_linear(c, k->format, blocks, gpu_m, &err);
    CHECK(r == SB_SUCCESS && g == SB_SUCCESS, "%s mip/linear: %s", name, err.message);
    for (uint32_t i = 0; i < 3 && r == SB_SUCCESS && g == SB_SUCCESS; i++)
        for (uint32_t l = 0; l < 8; l++) {
            uint32_t a = cpu_m[i][l], b = gpu_m[i][l];
            double d = fabs((double)u2f(a) - (double)u2f(b));
            if (a == b) {
                f.exact++;
            } else if (d <= bc_tolerance(k, l % 4) + (l >= 4 ? linear_extra(k) : 0.0) || one_ulp(a, b)) {
                f.tolerated++;
                f.max_off = d > f.max_off ? d : f.max_off;
            } else {
                f.differ++;
                if (shown++ < 4)
                    fprintf(stderr, "  %s %s lane %u: interpreter 0x%08x (%g), device 0x%08x (%g)\n", name,
                            l < 4 ? "level 1 ld" : "linear sample_l", l % 4, a, u2f(a), b, u2f(b));
            }
        }
    CHECK(f.differ == 0, "%s: %u lanes differ past the tolerance", name, f.differ);
    printf("%-16s %3u lanes exact, %3u within tolerance (max %.6f off), %u differ\n", name, f.exact, f.tolerated,
           f.max_off, f.differ);
    all->exact += f.exact;
    all->tolerated += f.tolerated;
    all->differ += f.differ;
    all->max_off = f.max_off > all->max_off ? f.max_off : all->max_off;
}

int main(int argc, char **argv)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    bool gpu = argc > 1 && strcmp(argv[1], "gpu") == 0;
    if (!gpu) {
        test_facts();
        test_decode();
        test_refusals(NULL);
    } else {
        struct sb_error err = { 0 };
        struct sb_rt_context_options o = { .validation = true };
        struct sb_rt_context *c = NULL;
        enum sb_result r = sb_rt_context_create(&o, &c, &err);
        if (r == SB_ERROR_NO_DEVICE) {
            printf("SKIPPED: no Vulkan device (%s)\n", err.message);
            return 77;
        }
        if (r != SB_SUCCESS) {
            fprintf(stderr, "context: %s: %s\n", sb_result_name(r), err.message);
            return 1;
        }
        printf("device: %s\n", sb_rt_context_device_name(c));
        struct figures all = { 0 };
        for (size_t i = 0; i < BC_COUNT; i++)
            device_case(c, &bc_formats[i], &all);
        test_refusals(c);
        printf("all BC formats: %u lanes exact, %u within tolerance (max %.6f off), %u differ\n", all.exact,
               all.tolerated, all.max_off, all.differ);
        uint32_t errors = sb_rt_context_validation_errors(c);
        CHECK(errors == 0, "%u validation errors; first: %.300s", errors,
              errors ? sb_rt_context_first_validation_error(c) : "");
        sb_rt_context_destroy(c);
    }
    printf("%u checks, %u failed, %u device cases skipped\n", checks, failures, skips);
    return failures ? 1 : 0;
}
