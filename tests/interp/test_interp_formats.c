/* SPDX-License-Identifier: MIT */
/*
 * Texel formats (issue #15 item 5, uncompressed part), through shaders rather than the
 * interpreter's internals, so that the same programs can run on a device:
 *
 *  - known answers on the interpreter: texels of hand-picked bytes read with ld (and, for
 *    float formats, sample_l with a point sampler) must give the exact lanes D3D11's
 *    conversion rules give (unorm x / (2^n - 1); snorm max(x / (2^(n-1) - 1), -1); the exact
 *    sRGB curve; half and R11G11B10 denormals, infinities and NaNs), and lanes written with
 *    store_uav_typed must give the hand-computed bytes (clamping, rounding to nearest even,
 *    integer saturation);
 *  - with the argument "gpu": every format on the Vulkan runtime (lavapipe in CI) against the
 *    interpreter, same programs, same inputs, bit for bit except where lavapipe is looser than
 *    D3D's exact rules (see enum tolerance); a format the device cannot use as a sampled or
 *    storage image is skipped with the runtime's reason.
 *
 * Programs (8x1x1 group, one texel per thread, an 8x1 Texture2D or an 8-element typed buffer):
 *   read:  ld r0, (x, 0), t0 -> u0[32x]; float formats of a texture also sample_l at the
 *          texel centre, lod 0 -> u0[32x + 16].
 *   write: ld_raw r0, 16x, t1 -> store_uav_typed u1 (x, 0).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shaderbridge/interp.h"
#include "shaderbridge/runtime.h"
#include "shaderbridge/translate.h"
#include "translator/ir.h"
#include "translator/sm4.h"
#include "sm4_asm.h"

#define TEXELS 8u

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

enum lanes { FLOAT, UINT, SINT };

/* The lane type of each format's shader view. */
static enum lanes lanes_of(enum sb_rt_format f)
{
    const char *name = sb_rt_format_name(f);
    if (strstr(name, "_uint") && f != SB_RT_FORMAT_D24_UNORM_S8_UINT)
        return UINT;
    return strstr(name, "_sint") ? SINT : FLOAT;
}

static bool is_depth(enum sb_rt_format f)
{
    return f == SB_RT_FORMAT_D32_FLOAT || f == SB_RT_FORMAT_D16_UNORM || f == SB_RT_FORMAT_D24_UNORM_S8_UINT ||
           f == SB_RT_FORMAT_X24_TYPELESS_G8_UINT; /* depth/stencil memory: never a UAV or texel buffer */
}

static const uint32_t return_tokens[3] = { 0x5555, 0x4444, 0x3333 }; /* FLOAT, UINT, SINT (§8.4) */

/* dim: 3 a Texture2D, 1 a typed buffer (never sampled). */
static struct sm4_program read_program(enum lanes l, uint32_t dim)
{
    struct sm4_program p;
    sm4_begin_cs(&p, TEXELS, 1, 1, 4);
    sm4_dcl_resource(&p, 0, dim, return_tokens[l]);
    bool sample = l == FLOAT && dim == 3;
    if (sample)
        sm4_dcl_sampler(&p, 0);
    sm4_dcl_uav_raw(&p, 0);
    sm4_dcl_thread_id(&p, T_THREAD_ID, "xy");
    I(&p, OP_LD, dr(0, "xyzw"), special(T_THREAD_ID, "xyyy"), st(0, "xyzw"));
    I(&p, OP_ISHL, dr(1, "x"), special(T_THREAD_ID, "x"), l1(5));
    I(&p, OP_STORE_RAW, du(0, "xyzw"), sr(1, "x"), sr(0, "xyzw"));
    if (sample) {
        I(&p, OP_UTOF, dr(2, "x"), special(T_THREAD_ID, "x"));
        I(&p, OP_ADD, dr(2, "x"), sr(2, "x"), lf(0.5f));
        I(&p, OP_MUL, dr(2, "x"), sr(2, "x"), lf(1.0f / TEXELS));
        I(&p, OP_MOV, dr(2, "y"), lf(0.5f));
        I(&p, OP_SAMPLE_L, dr(3, "xyzw"), sr(2, "xyyy"), st(0, "xyzw"), ss(0), lf(0.0f));
        I(&p, OP_IADD, dr(1, "y"), sr(1, "x"), l1(16));
        I(&p, OP_STORE_RAW, du(0, "xyzw"), sr(1, "y"), sr(3, "xyzw"));
    }
    sm4_end(&p);
    return p;
}

static struct sm4_program write_program(enum lanes l, uint32_t dim)
{
    struct sm4_program p;
    sm4_begin_cs(&p, TEXELS, 1, 1, 2);
    sm4_dcl_resource_raw(&p, 1);
    sm4_dcl_uav_typed(&p, 1, dim, return_tokens[l]);
    sm4_dcl_thread_id(&p, T_THREAD_ID, "xy");
    I(&p, OP_ISHL, dr(1, "x"), special(T_THREAD_ID, "x"), l1(4));
    I(&p, OP_LD_RAW, dr(0, "xyzw"), sr(1, "x"), st(1, "xyzw"));
    I(&p, OP_STORE_UAV_TYPED, du(1, "xyzw"), special(T_THREAD_ID, "xyyy"), sr(0, "xyzw"));
    sm4_end(&p);
    return p;
}

static struct sb_rt_resource plain(uint32_t cls, uint32_t reg, void *data, size_t size)
{
    return (struct sb_rt_resource){ .resource_class = cls, .register_index = reg, .data = data, .size = size,
                                    .width = 1, .height = 1, .depth = 1, .layers = 1, .mip_levels = 1,
                                    .sample_count = 1 };
}

static struct sb_rt_resource texture(uint32_t cls, uint32_t reg, enum sb_rt_format f, void *data, uint32_t dim)
{
    struct sb_rt_resource r = plain(cls, reg, data, (size_t)TEXELS * sb_rt_format_size(f));
    r.format = f;
    r.dimension = dim;
    r.width = TEXELS;
    return r;
}

/* Where a program runs: the interpreter, or the device through sb_translate + sb_rt_dispatch. */
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

/* ld (and sample_l) of TEXELS texels -> out[TEXELS][8] (ld lanes, then sample lanes). */
static enum sb_result read_texels(struct sb_rt_context *c, enum sb_rt_format f, uint32_t dim,
                                  const uint8_t *texels, uint32_t out[TEXELS][8], struct sb_error *err)
{
    struct sm4_program p = read_program(lanes_of(f), dim);
    uint8_t data[TEXELS * 16];
    memcpy(data, texels, (size_t)TEXELS * sb_rt_format_size(f));
    memset(out, 0xEE, sizeof(uint32_t) * TEXELS * 8);
    struct sb_rt_resource t[3] = { texture(SB_IR_RESOURCE_SRV, 0, f, data, dim),
                                   plain(SB_IR_RESOURCE_UAV, 0, out, sizeof(uint32_t) * TEXELS * 8),
                                   plain(SB_IR_RESOURCE_SAMPLER, 0, NULL, 0) };
    t[2].sampler.address[0] = t[2].sampler.address[1] = t[2].sampler.address[2] = SB_RT_ADDRESS_CLAMP_TO_EDGE;
    return run(c, &p, t, lanes_of(f) == FLOAT && dim == 3 ? 3 : 2, err);
}

/* store_uav_typed of lanes[TEXELS][4] into TEXELS texels initialised to `texels`. */
static enum sb_result write_texels(struct sb_rt_context *c, enum sb_rt_format f, uint32_t dim,
                                   uint32_t lanes[TEXELS][4], uint8_t *texels, struct sb_error *err)
{
    struct sm4_program p = write_program(lanes_of(f), dim);
    struct sb_rt_resource t[2] = { plain(SB_IR_RESOURCE_SRV, 1, lanes, sizeof(uint32_t) * TEXELS * 4),
                                   texture(SB_IR_RESOURCE_UAV, 1, f, texels, dim) };
    return run(c, &p, t, 2, err);
}

/* ---- known answers on the interpreter ----------------------------------------------------- */

struct decode_case {
    enum sb_rt_format format;
    uint8_t bytes[8];
    uint32_t want[4];
};

#define F(x) f2u(x)
#define ONE 0x3F800000u

static void test_decode(void)
{
    /* automatic: the float lanes are bit patterns made by f2u */
    const struct decode_case decode_cases[] = {
        /* sRGB: 0x80 -> ((128/255 + 0.055) / 1.055)^2.4 = 0.2158605; 10 lies on the linear
         * segment: 10/255/12.92 = 0.00303527; alpha stays linear */
        { SB_RT_FORMAT_R8G8B8A8_UNORM_SRGB, { 0x80, 0x0A, 0xFF, 0x80 },
          { 0x3E5D0A89u, 0x3B46EB61u, ONE, F(128.0f / 255.0f) } },
        { SB_RT_FORMAT_R8G8B8A8_UNORM_SRGB, { 0x00, 0x01, 0x02, 0xFF },
          { 0, F((float)(1.0 / 255.0 / 12.92)), F((float)(2.0 / 255.0 / 12.92)), ONE } },
        /* BGRA: blue first in memory */
        { SB_RT_FORMAT_B8G8R8A8_UNORM, { 0x10, 0x20, 0x30, 0x40 },
          { F(48.0f / 255.0f), F(32.0f / 255.0f), F(16.0f / 255.0f), F(64.0f / 255.0f) } },
        { SB_RT_FORMAT_B8G8R8A8_UNORM_SRGB, { 0x80, 0x00, 0xFF, 0xFF }, { ONE, 0, 0x3E5D0A89u, ONE } },
        /* R10G10B10A2 (word 0x800803FF: r 1023, g 512, b 0, a 2) */
        { SB_RT_FORMAT_R10G10B10A2_UNORM, { 0xFF, 0x03, 0x08, 0x80 }, { ONE, F(512.0f / 1023.0f), 0, F(2.0f / 3.0f) } },
        /* word 0xD2C007FF: r 1023, g 1, b 300, a 3 */
        { SB_RT_FORMAT_R10G10B10A2_UINT, { 0xFF, 0x07, 0xC0, 0xD2 }, { 1023, 1, 300, 3 } },
        /* R11G11B10: r 0x3C0 (1.0), g 0x001 (denormal 2^-20), b 0x3E0 (+inf) -> 0xF8000BC0 */
        { SB_RT_FORMAT_R11G11B10_FLOAT, { 0xC0, 0x0B, 0x00, 0xF8 }, { ONE, 0x35800000u, 0x7F800000u, ONE } },
        /* r 0x7BF (largest: 65024), g 0x7C1 (NaN, payload kept), b 0x01F (denormal 31 * 2^-19) */
        { SB_RT_FORMAT_R11G11B10_FLOAT, { 0xBF, 0x0F, 0xFE, 0x07 },
          { F(65024.0f), 0x7F820000u, F(31.0f / 524288.0f), ONE } },
        /* unorm8 0x80 -> 128/255; snorm8 0x80 (-128) and 0x81 (-127) both -> -1.0 */
        { SB_RT_FORMAT_R8_UNORM, { 0x80 }, { F(128.0f / 255.0f), 0, 0, ONE } },
        { SB_RT_FORMAT_R8_SNORM, { 0x80 }, { F(-1.0f), 0, 0, ONE } },
        { SB_RT_FORMAT_R8_SNORM, { 0x81 }, { F(-1.0f), 0, 0, ONE } },
        { SB_RT_FORMAT_R8_SNORM, { 0x40 }, { F(64.0f / 127.0f), 0, 0, ONE } },
        { SB_RT_FORMAT_R8_UINT, { 0xC8 }, { 200, 0, 0, 1 } },
        { SB_RT_FORMAT_R8_SINT, { 0x80 }, { (uint32_t)-128, 0, 0, 1 } },
        { SB_RT_FORMAT_R8G8_UNORM, { 0xFF, 0x33 }, { ONE, F(0.2f), 0, ONE } },
        { SB_RT_FORMAT_R8G8_SNORM, { 0x7F, 0xC1 }, { ONE, F(-63.0f / 127.0f), 0, ONE } },
        { SB_RT_FORMAT_R8G8_UINT, { 0xFF, 0x07 }, { 255, 7, 0, 1 } },
        { SB_RT_FORMAT_R8G8_SINT, { 0xFF, 0x7F }, { (uint32_t)-1, 127, 0, 1 } },
        { SB_RT_FORMAT_R8G8B8A8_SNORM, { 0x80, 0x81, 0x00, 0x7F }, { F(-1.0f), F(-1.0f), 0, ONE } },
        { SB_RT_FORMAT_R8G8B8A8_UINT, { 1, 2, 0xFE, 0xFF }, { 1, 2, 254, 255 } },
        { SB_RT_FORMAT_R8G8B8A8_SINT, { 0x80, 0xFF, 0x01, 0x7F }, { (uint32_t)-128, (uint32_t)-1, 1, 127 } },
        { SB_RT_FORMAT_R16_UNORM, { 0x00, 0x80 }, { F(32768.0f / 65535.0f), 0, 0, ONE } },
        { SB_RT_FORMAT_R16_SNORM, { 0x00, 0x80 }, { F(-1.0f), 0, 0, ONE } },
        { SB_RT_FORMAT_R16_SNORM, { 0x01, 0x80 }, { F(-1.0f), 0, 0, ONE } },
        { SB_RT_FORMAT_R16_SNORM, { 0x00, 0x40 }, { F(16384.0f / 32767.0f), 0, 0, ONE } },
        { SB_RT_FORMAT_R16_UINT, { 0x34, 0x12 }, { 0x1234, 0, 0, 1 } },
        { SB_RT_FORMAT_R16_SINT, { 0x00, 0x80 }, { (uint32_t)-32768, 0, 0, 1 } },
        /* half denormals: 0x0001 = 2^-24, 0x03FF = 1023 * 2^-24; 0xFC00 = -inf */
        { SB_RT_FORMAT_R16_FLOAT, { 0x01, 0x00 }, { 0x33800000u, 0, 0, ONE } },
        { SB_RT_FORMAT_R16G16_FLOAT, { 0xFF, 0x03, 0x00, 0xFC }, { F(1023.0f / 16777216.0f), 0xFF800000u, 0, ONE } },
        { SB_RT_FORMAT_R16G16_UNORM, { 0xFF, 0xFF, 0x01, 0x00 }, { ONE, F(1.0f / 65535.0f), 0, ONE } },
        { SB_RT_FORMAT_R16G16_SNORM, { 0xFF, 0x7F, 0xFF, 0xFF }, { ONE, F(-1.0f / 32767.0f), 0, ONE } },
        { SB_RT_FORMAT_R16G16_UINT, { 0xFF, 0xFF, 0x00, 0x01 }, { 65535, 256, 0, 1 } },
        { SB_RT_FORMAT_R16G16_SINT, { 0xFE, 0xFF, 0xFF, 0x7F }, { (uint32_t)-2, 32767, 0, 1 } },
        { SB_RT_FORMAT_R16G16B16A16_UNORM, { 0, 0, 0xFF, 0xFF, 0, 0x80, 0x55, 0x55 },
          { 0, ONE, F(32768.0f / 65535.0f), F(1.0f / 3.0f) } },
        { SB_RT_FORMAT_R16G16B16A16_SNORM, { 0, 0x80, 0xFF, 0x7F, 0, 0xC0, 0, 0 },
          { F(-1.0f), ONE, F(-16384.0f / 32767.0f), 0 } },
        { SB_RT_FORMAT_R16G16B16A16_UINT, { 1, 0, 2, 0, 3, 0, 0xFF, 0xFF }, { 1, 2, 3, 65535 } },
        { SB_RT_FORMAT_R16G16B16A16_SINT, { 0xFF, 0xFF, 0, 0x80, 0xFF, 0x7F, 5, 0 },
          { (uint32_t)-1, (uint32_t)-32768, 32767, 5 } },
        /* depth reads as red */
        { SB_RT_FORMAT_D16_UNORM, { 0x00, 0x80 }, { F(32768.0f / 65535.0f), 0, 0, ONE } },
        { SB_RT_FORMAT_D16_UNORM, { 0xFF, 0xFF }, { ONE, 0, 0, ONE } },
        /* D24S8 0xAB800000: depth 0x800000 / 0xFFFFFF, the stencil byte 0xAB unseen */
        { SB_RT_FORMAT_D24_UNORM_S8_UINT, { 0x00, 0x00, 0x80, 0xAB }, { F(8388608.0f / 16777215.0f), 0, 0, ONE } },
        /* the same memory through its stencil (X24_TYPELESS_G8_UINT): (0, 0xAB, 0, 1) as uints */
        { SB_RT_FORMAT_X24_TYPELESS_G8_UINT, { 0x00, 0x00, 0x80, 0xAB }, { 0, 0xAB, 0, 1 } },
        { SB_RT_FORMAT_X24_TYPELESS_G8_UINT, { 0xFF, 0xFF, 0xFF, 0x00 }, { 0, 0, 0, 1 } },
    };
    for (size_t i = 0; i < sizeof(decode_cases) / sizeof(decode_cases[0]); i++) {
        const struct decode_case *k = &decode_cases[i];
        uint32_t size = sb_rt_format_size(k->format);
        uint8_t texels[TEXELS * 16];
        for (uint32_t x = 0; x < TEXELS; x++)
            memcpy(texels + x * size, k->bytes, size);
        uint32_t out[TEXELS][8];
        struct sb_error err;
        enum sb_result r = read_texels(NULL, k->format, 3, texels, out, &err);
        CHECK(r == SB_SUCCESS, "%s: %s: %s", sb_rt_format_name(k->format), sb_result_name(r), err.message);
        if (r != SB_SUCCESS)
            continue;
        for (uint32_t x = 0; x < TEXELS; x++)
            for (uint32_t c = 0; c < 4; c++) {
                CHECK(out[x][c] == k->want[c], "case %zu %s texel %u ld lane %u = 0x%08x, want 0x%08x", i,
                      sb_rt_format_name(k->format), x, c, out[x][c], k->want[c]);
                if (lanes_of(k->format) == FLOAT)
                    CHECK(out[x][4 + c] == k->want[c], "case %zu %s texel %u sample lane %u = 0x%08x, want 0x%08x",
                          i, sb_rt_format_name(k->format), x, c, out[x][4 + c], k->want[c]);
            }
    }
}

struct encode_case {
    enum sb_rt_format format;
    uint32_t lanes[4];
    uint8_t want[8];
};

#define NAN_BITS 0x7FC00000u


static void test_encode(void)
{
    const struct encode_case encode_cases[] = {
        /* unorm8: 0.5 * 255 = 127.5 -> 128 (nearest even); 0.2 * 255 = 51.00000077 -> 51; clamps;
         * NaN -> 0 */
        { SB_RT_FORMAT_R8G8B8A8_UNORM, { F(0.5f), F(0.2f), F(1.5f), F(-0.5f) }, { 128, 51, 255, 0 } },
        { SB_RT_FORMAT_R8_UNORM, { NAN_BITS }, { 0 } },
        { SB_RT_FORMAT_R8_UNORM, { F(0.499f) }, { 127 } }, /* 127.245 */
        /* 0x3F444444 * 255 = 195.4999959 exactly, but the float32 product is 195.5, which rounds
         * to 196 (even): the product is taken in float, as lavapipe takes it */
        { SB_RT_FORMAT_R8_UNORM, { 0x3F444444u }, { 196 } },
        /* snorm8: -0.5 * 127 = -63.5 -> -64 (0xC0); -2 clamps to -1 -> -127 (0x81), never -128 */
        { SB_RT_FORMAT_R8G8_SNORM, { F(-0.5f), F(-2.0f) }, { 0xC0, 0x81 } },
        { SB_RT_FORMAT_R8G8B8A8_SNORM, { F(1.0f), F(0.5f), NAN_BITS, F(0.1f) }, { 0x7F, 0x40, 0, 13 } }, /* 12.7 */
        /* integers saturate to the narrower range */
        { SB_RT_FORMAT_R8G8B8A8_UINT, { 300, 255, 0, 7 }, { 255, 255, 0, 7 } },
        { SB_RT_FORMAT_R8G8B8A8_SINT, { (uint32_t)-200, 200, (uint32_t)-1, 5 }, { 0x80, 0x7F, 0xFF, 5 } },
        { SB_RT_FORMAT_R16G16_UINT, { 70000, 65535 }, { 0xFF, 0xFF, 0xFF, 0xFF } },
        { SB_RT_FORMAT_R16G16_SINT, { (uint32_t)-40000, 40000 }, { 0x00, 0x80, 0xFF, 0x7F } },
        /* unorm16: 0.5 * 65535 = 32767.5 -> 32768; snorm16: -0.5 -> -16383.5 -> -16384 (0xC000) */
        { SB_RT_FORMAT_R16G16_UNORM, { F(0.5f), F(1.0f / 3.0f) }, { 0x00, 0x80, 0x55, 0x55 } },
        { SB_RT_FORMAT_R16G16B16A16_SNORM, { F(-0.5f), F(-1.0f), F(2.0f), 0 },
          { 0x00, 0xC0, 0x01, 0x80, 0xFF, 0x7F, 0, 0 } },
        /* half: 2^-24 -> 0x0001; 2^-25 ties to 0 (even); 3 * 2^-25 ties to 0x0002; 65520 -> inf */
        { SB_RT_FORMAT_R16G16B16A16_FLOAT, { 0x33800000u, 0x33000000u, 0x33C00000u, F(65520.0f) },
          { 1, 0, 0, 0, 2, 0, 0x00, 0x7C } },
        { SB_RT_FORMAT_R16_FLOAT, { F(-1.5f) }, { 0x00, 0xBE } },
        /* R10G10B10A2: 0.5 -> 511.5 -> 512; alpha 2 bits: 0.5 * 3 = 1.5 -> 2 */
        { SB_RT_FORMAT_R10G10B10A2_UNORM, { F(0.5f), F(1.0f), 0, F(0.5f) }, { 0x00, 0xFE, 0x0F, 0x80 } },
        /* uint: 1023, 1, 2000 -> 1023, alpha 9 -> 3 */
        { SB_RT_FORMAT_R10G10B10A2_UINT, { 1023, 1, 2000, 9 }, { 0xFF, 0x07, 0xF0, 0xFF } },
        /* R11G11B10: 1.0 -> 0x3C0, -1 -> 0, 1.0 -> 0x1E0 (10 bits) => 0x780003C0 */
        { SB_RT_FORMAT_R11G11B10_FLOAT, { ONE, F(-1.0f), ONE, 0 }, { 0xC0, 0x03, 0x00, 0x78 } },
        /* 65279 -> 65024 (0x7BF); 65280 ties up to inf (0x7C0); NaN -> 0x3F0 (10-bit NaN) */
        { SB_RT_FORMAT_R11G11B10_FLOAT, { F(65279.0f), F(65280.0f), NAN_BITS, 0 }, { 0xBF, 0x07, 0x3E, 0xFC } },
        /* denormals: 2^-20 -> 1; 2^-21 ties to 0; 3 * 2^-21 ties to 2 (even) => g 0, b: 2^-19 = 1 * 2^-19 */
        { SB_RT_FORMAT_R11G11B10_FLOAT, { 0x35800000u, 0x35000000u, 0x36000000u, 0 }, { 0x01, 0x00, 0x40, 0x00 } },
        { SB_RT_FORMAT_R11G11B10_FLOAT, { 0x35C00000u, 0, 0, 0 }, { 0x02, 0x00, 0x00, 0x00 } },
        /* sRGB: 0.2158605 -> 127.99999997 -> 128; 0.5 -> 187.516 -> 188; 1e-3 -> 3.29 -> 3; alpha linear */
        { SB_RT_FORMAT_R8G8B8A8_UNORM_SRGB, { 0x3E5D0A89u, F(0.5f), F(0.001f), F(0.5f) }, { 128, 188, 3, 128 } },
        { SB_RT_FORMAT_B8G8R8A8_UNORM_SRGB, { F(1.0f), F(-1.0f), F(2.0f), F(0.2f) }, { 255, 0, 255, 51 } },
        { SB_RT_FORMAT_B8G8R8A8_UNORM, { F(0.2f), F(0.4f), F(0.6f), F(0.8f) }, { 153, 102, 51, 204 } },
    };
    for (size_t i = 0; i < sizeof(encode_cases) / sizeof(encode_cases[0]); i++) {
        const struct encode_case *k = &encode_cases[i];
        uint32_t size = sb_rt_format_size(k->format);
        uint32_t lanes[TEXELS][4];
        for (uint32_t x = 0; x < TEXELS; x++)
            memcpy(lanes[x], k->lanes, sizeof(lanes[x]));
        uint8_t texels[TEXELS * 16];
        memset(texels, 0x5A, sizeof(texels));
        struct sb_error err;
        enum sb_result r = write_texels(NULL, k->format, 3, lanes, texels, &err);
        CHECK(r == SB_SUCCESS, "%s: %s: %s", sb_rt_format_name(k->format), sb_result_name(r), err.message);
        for (uint32_t x = 0; x < TEXELS && r == SB_SUCCESS; x++)
            CHECK(memcmp(texels + x * size, k->want, size) == 0,
                  "case %zu %s texel %u = %02x %02x %02x %02x %02x %02x %02x %02x (first %u bytes), want "
                  "%02x %02x %02x %02x %02x %02x %02x %02x", i, sb_rt_format_name(k->format), x,
                  texels[x * size], texels[x * size + 1], texels[x * size + 2], texels[x * size + 3],
                  texels[x * size + 4], texels[x * size + 5], texels[x * size + 6], texels[x * size + 7], size,
                  k->want[0], k->want[1], k->want[2], k->want[3], k->want[4], k->want[5], k->want[6], k->want[7]);
        CHECK(texels[TEXELS * size] == 0x5A, "%s: written past the texture", sb_rt_format_name(k->format));
    }
    /* D24S8 keeps its stencil byte when the depth is written (the interpreter allows it; D3D
     * views the texture as R24_UNORM_X8) */
    uint32_t lanes[TEXELS][4] = { { F(0.5f) } };
    for (uint32_t x = 1; x < TEXELS; x++)
        memcpy(lanes[x], lanes[0], sizeof(lanes[0]));
    uint8_t texels[TEXELS * 4];
    memset(texels, 0xAB, sizeof(texels));
    struct sb_error err;
    enum sb_result r = write_texels(NULL, SB_RT_FORMAT_D24_UNORM_S8_UINT, 3, lanes, texels, &err);
    CHECK(r == SB_SUCCESS, "d24s8: %s", err.message);
    /* 0.5 * 16777215 = 8388607.5 -> 8388608 (0x800000) */
    CHECK(texels[0] == 0 && texels[1] == 0 && texels[2] == 0x80 && texels[3] == 0xAB, "d24s8 %02x %02x %02x %02x",
          texels[0], texels[1], texels[2], texels[3]);
}

/* The facts of resources.h for the new formats. */
static void test_facts(void)
{
    CHECK(SB_RT_FORMAT_D32_FLOAT == 12, "existing values keep their numbers");
    CHECK(sb_rt_format_size(SB_RT_FORMAT_R11G11B10_FLOAT) == 4 &&
              sb_rt_format_channels(SB_RT_FORMAT_R11G11B10_FLOAT) == 3, "r11g11b10");
    CHECK(sb_rt_format_size(SB_RT_FORMAT_R16G16B16A16_SNORM) == 8 && sb_rt_format_size(SB_RT_FORMAT_D16_UNORM) == 2 &&
              sb_rt_format_size(SB_RT_FORMAT_R8_SINT) == 1 && sb_rt_format_size(SB_RT_FORMAT_D24_UNORM_S8_UINT) == 4,
          "sizes");
    CHECK(strcmp(sb_rt_format_name(SB_RT_FORMAT_B8G8R8A8_UNORM_SRGB), "b8g8r8a8_unorm_srgb") == 0, "%s",
          sb_rt_format_name(SB_RT_FORMAT_B8G8R8A8_UNORM_SRGB));
    for (uint32_t f = 1; f < SB_RT_FORMAT_COUNT; f++)
        CHECK(sb_rt_format_size((enum sb_rt_format)f) != 0 && strcmp(sb_rt_format_name((enum sb_rt_format)f),
                                                                      "undefined") != 0, "format %u", f);
}

/* ---- the device against the interpreter --------------------------------------------------- */

static uint32_t next(uint32_t *seed)
{
    *seed = *seed * 1664525u + 1013904223u;
    return *seed >> 8;
}

static bool is_nan(uint32_t v)
{
    return (v & 0x7F800000u) == 0x7F800000u && (v & 0x7FFFFFu);
}

/* Inputs the formats define results for: lanes in range for integer formats (Vulkan leaves
 * out-of-range integer writes undefined), floats from -1.5 to 1.5 otherwise. */
static void inputs(enum sb_rt_format f, uint32_t seed, uint8_t *texels, uint32_t lanes[TEXELS][4])
{
    for (uint32_t i = 0; i < TEXELS * 16; i++)
        texels[i] = (uint8_t)next(&seed);
    for (uint32_t x = 0; x < TEXELS; x++)
        for (uint32_t c = 0; c < 4; c++) {
            uint32_t v = next(&seed);
            switch (lanes_of(f)) {
            case UINT: lanes[x][c] = c == 3 ? v % 4 : v % 1024; break;
            case SINT: lanes[x][c] = (uint32_t)((int32_t)(v % 256) - 128); break;
            default: lanes[x][c] = f2u(-1.5f + 3.0f * (float)(v % 4096) / 4095.0f); break;
            }
        }
    if (lanes_of(f) == FLOAT) {
        lanes[0][0] = f2u(0.5f);
        lanes[0][1] = f2u(1.0f);
        lanes[0][2] = 0;
        lanes[0][3] = f2u(-1.0f);
    }
}

/* What the device may differ by, where lavapipe is looser than the exact rules the interpreter
 * follows (all measured on llvmpipe 15; anything past these is a failure):
 *  - unorm/snorm reads: lavapipe multiplies by 1 / (2^n - 1) instead of dividing, 1 ulp off
 *    the correctly rounded quotient on some values (r8g8b8a8_unorm 0xFB: 0x3f7afafb vs ..fc);
 *  - sRGB reads: lavapipe approximates the curve, up to 0.0012 off (0.3 of an 8-bit step;
 *    allowed: 1/512);
 *  - float16 and R11G11B10 writes: lavapipe truncates where D3D rounds to nearest even, so a
 *    stored field may be 1 below the interpreter's. */
enum tolerance { EXACT, ULP1, SRGB };

static enum tolerance read_tolerance(enum sb_rt_format f, uint32_t lane)
{
    const char *name = sb_rt_format_name(f);
    if (strstr(name, "_srgb") && lane % 4 < 3)
        return SRGB;
    return strstr(name, "norm") ? ULP1 : EXACT;
}

struct figures {
    uint32_t exact, tolerated, differ;
    double srgb_max;
};

static bool lanes_close(enum tolerance t, uint32_t a, uint32_t b, struct figures *fig)
{
    if (a == b || (is_nan(a) && is_nan(b)))
        return true;
    float fa, fb;
    memcpy(&fa, &a, 4);
    memcpy(&fb, &b, 4);
    double d = fabs((double)fa - (double)fb);
    if (t == SRGB && d <= 1.0 / 512) {
        fig->srgb_max = d > fig->srgb_max ? d : fig->srgb_max;
        return true;
    }
    return t == ULP1 && (a >> 31) == (b >> 31) && (a > b ? a - b : b - a) == 1;
}

static void compare_lanes(enum sb_rt_format f, uint32_t cpu[TEXELS][8], uint32_t gpu[TEXELS][8], uint32_t lanes,
                          struct figures *fig, uint32_t *diffs)
{
    for (uint32_t x = 0; x < TEXELS; x++)
        for (uint32_t c = 0; c < lanes; c++) {
            if (cpu[x][c] == gpu[x][c] || (is_nan(cpu[x][c]) && is_nan(gpu[x][c]))) {
                fig->exact++;
                continue;
            }
            if (lanes_close(read_tolerance(f, c), cpu[x][c], gpu[x][c], fig)) {
                fig->tolerated++;
                continue;
            }
            fig->differ++;
            if ((*diffs)++ < 4)
                fprintf(stderr, "  %s ld/sample_l texel %u lane %u: interpreter 0x%08x, device 0x%08x\n",
                        sb_rt_format_name(f), x, c, cpu[x][c], gpu[x][c]);
        }
}

/* Stored fields of a float16 or R11G11B10 texel: equal, or the device's 1 below (truncation). */
static bool texels_close(enum sb_rt_format f, const uint8_t *a, const uint8_t *b)
{
    static const uint8_t r11[3] = { 11, 11, 10 };
    bool half = strstr(sb_rt_format_name(f), "16_float") != NULL;
    if (!half && f != SB_RT_FORMAT_R11G11B10_FLOAT)
        return false;
    uint32_t fields = half ? sb_rt_format_size(f) / 2 : 3, offset = 0;
    uint64_t va = 0, vb = 0;
    memcpy(&va, a, sb_rt_format_size(f));
    memcpy(&vb, b, sb_rt_format_size(f));
    for (uint32_t i = 0; i < fields; i++) {
        uint32_t bits = half ? 16 : r11[i];
        uint64_t fa = (va >> offset) & ((1ull << bits) - 1), fb = (vb >> offset) & ((1ull << bits) - 1);
        uint64_t sign = half ? 0x8000u : 0; /* magnitudes: truncation goes toward zero */
        if (fa != fb && ((fa & sign) != (fb & sign) || (fa & ~sign) != (fb & ~sign) + 1))
            return false;
        offset += bits;
    }
    return true;
}

struct device_figures {
    struct figures read;
    uint32_t writes_exact, writes_tolerated;
};

static const char *const dim_names[4] = { "", "buffer", "", "texture2d" };

/* One format as one kind of resource (dim 3 Texture2D, 1 typed buffer): read, then write. */
static void device_case(struct sb_rt_context *c, enum sb_rt_format format, uint32_t dim, struct device_figures *fig)
{
    const char *name = sb_rt_format_name(format);
    uint32_t size = sb_rt_format_size(format);
    uint8_t texels[TEXELS * 16], cpu_t[TEXELS * 16], gpu_t[TEXELS * 16];
    uint32_t lanes[TEXELS][4], cpu[TEXELS][8], gpu[TEXELS][8];
    inputs(format, 0x1234u + (uint32_t)format * 7 + dim, texels, lanes);
    struct sb_error err;
    enum sb_result r = read_texels(NULL, format, dim, texels, cpu, &err);
    CHECK(r == SB_SUCCESS, "interpreter %s %s read: %s", name, dim_names[dim], err.message);
    enum sb_result g = read_texels(c, format, dim, texels, gpu, &err);
    uint32_t diffs = 0;
    if (g == SB_ERROR_RUN_UNSUPPORTED) {
        printf("skip %s %s read: %s\n", name, dim_names[dim], err.message);
        skips++;
    } else {
        CHECK(g == SB_SUCCESS, "device %s %s read: %s: %s", name, dim_names[dim], sb_result_name(g), err.message);
        if (g == SB_SUCCESS && r == SB_SUCCESS)
            compare_lanes(format, cpu, gpu, lanes_of(format) == FLOAT && dim == 3 ? 8 : 4, &fig->read, &diffs);
    }
    enum sb_result w = SB_ERROR_RUN_UNSUPPORTED;
    if (!is_depth(format)) { /* depth formats are never UAVs (D3D and Vulkan alike) */
        memcpy(cpu_t, texels, sizeof(texels));
        memcpy(gpu_t, texels, sizeof(texels));
        r = write_texels(NULL, format, dim, lanes, cpu_t, &err);
        CHECK(r == SB_SUCCESS, "interpreter %s %s write: %s", name, dim_names[dim], err.message);
        w = write_texels(c, format, dim, lanes, gpu_t, &err);
        if (w == SB_ERROR_RUN_UNSUPPORTED) {
            printf("skip %s %s write: %s\n", name, dim_names[dim], err.message);
            skips++;
        } else {
            CHECK(w == SB_SUCCESS, "device %s %s write: %s: %s", name, dim_names[dim], sb_result_name(w),
                  err.message);
        }
        for (uint32_t x = 0; x < TEXELS && w == SB_SUCCESS && r == SB_SUCCESS; x++) {
            if (memcmp(cpu_t + x * size, gpu_t + x * size, size) == 0) {
                fig->writes_exact++;
                continue;
            }
            if (texels_close(format, cpu_t + x * size, gpu_t + x * size)) {
                fig->writes_tolerated++;
                continue;
            }
            if (diffs++ < 4) {
                uint32_t va = 0, vb = 0;
                memcpy(&va, cpu_t + x * size, size < 4 ? size : 4);
                memcpy(&vb, gpu_t + x * size, size < 4 ? size : 4);
                fprintf(stderr, "  %s %s store texel %u: interpreter %08x.., device %08x.. (input %08x %08x "
                        "%08x %08x)\n", name, dim_names[dim], x, va, vb, lanes[x][0], lanes[x][1], lanes[x][2],
                        lanes[x][3]);
            }
        }
    }
    CHECK(diffs == 0, "%s %s: %u lanes or texels differ", name, dim_names[dim], diffs);
    printf("%-22s %-9s read %s, write %s\n", name, dim_names[dim], g == SB_SUCCESS ? "same" : "skipped",
           is_depth(format) ? "n/a (depth)" : w == SB_SUCCESS ? "same" : "skipped");
}

static void test_device(struct sb_rt_context *c)
{
    struct device_figures fig = { 0 };
    for (uint32_t f = 1; f < SB_RT_FORMAT_COUNT; f++) {
        if (sb_rt_format_block_extent((enum sb_rt_format)f) > 1)
            continue; /* BC formats: test_interp_bc_formats.c (read-only, 4x4 blocks) */
        device_case(c, (enum sb_rt_format)f, 3, &fig);
        if (!is_depth((enum sb_rt_format)f)) /* depth formats are never texel buffers */
            device_case(c, (enum sb_rt_format)f, 1, &fig);
    }
    printf("read lanes: %u exact, %u within tolerance (sRGB at most %.6f off), %u differ; written texels: %u "
           "exact, %u within 1 of the last place\n", fig.read.exact, fig.read.tolerated, fig.read.srgb_max,
           fig.read.differ, fig.writes_exact, fig.writes_tolerated);
}

int main(int argc, char **argv)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    bool gpu = argc > 1 && strcmp(argv[1], "gpu") == 0;
    if (!gpu) {
        test_facts();
        test_decode();
        test_encode();
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
        test_device(c);
        uint32_t errors = sb_rt_context_validation_errors(c);
        CHECK(errors == 0, "%u validation errors; first: %.300s", errors,
              errors ? sb_rt_context_first_validation_error(c) : "");
        sb_rt_context_destroy(c);
    }
    printf("%u checks, %u failed, %u device cases skipped\n", checks, failures, skips);
    return failures ? 1 : 0;
}
