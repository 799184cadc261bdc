/* SPDX-License-Identifier: MIT */
/*
 * Multisampling (issue #15 item 3) through shaders, so the same programs run on a device:
 * ld_ms of every sample of every texel, samplepos of each sample and sampleinfo, on
 * texture2dms and texture2dmsarray resources of 1, 2, 4, 8 and 16 samples.
 *
 *  - known answers on the interpreter: each sample holds words or bytes made from its
 *    (layer, y, x, sample) position, so every loaded lane is known; samplepos must give
 *    D3D's standard pattern (hand-copied below in 1/16 pixel from the D3D11.3 functional
 *    specification, "Standard Sample Patterns": the same points as Vulkan's
 *    standardSampleLocations table shifted by -0.5, checked for 1, 2, 4, 8 and 16);
 *  - eval_* over hand-computed attribute planes, the rasterizer's samples and sample-frequency
 *    execution on 1, 2, 4 and 8 samples (pixel programs on the interpreter);
 *  - with the argument "gpu": the same programs on the Vulkan runtime (lavapipe in CI), whose
 *    multisampled textures are filled by a compute pass (runtime/src/vulkan/vk_image_ms.c; depth
 *    ones by a render pass, vk_image_ms_depth.c), bit for bit against the interpreter (unorm
 *    depth within 1 ulp); a sample count the device lacks must be refused with
 *    SB_ERROR_RUN_UNSUPPORTED naming the samples (lavapipe has 4 only); eval_* through
 *    sb_validate's triangle harness (hand rules per pixel and sample, 1 and 4 samples), and on
 *    real triangles drawn through sb_rt_draw_points; a
 *    per-sample pixel program on a 4-sample target (sb_rt_draw::samples).
 *
 * Program (cs_5_0, numthreads(W, H, S * L), one thread per sample):
 *   udiv r0.x (layer), r0.y (sample), vThreadIDInGroup.z, S
 *   ld_ms r2, (x, y, layer), t0, r0.y        -> u0 record words 0-3
 *   samplepos r4.xy, t0, r0.y; sampleinfo r4.z, t0 -> words 4-6 (word 7 = 0)
 * record = ((z * H) + y) * W + x, 32 bytes each.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shaderbridge/interp.h"
#include "shaderbridge/runtime.h"
#include "shaderbridge/translate.h"
#include "shaderbridge/validate.h"
#include "translator/ir.h"
#include "translator/sm4.h"
#include "check.h"
#include "sm4_asm.h"

#define W 4u
#define H 2u
#define OP_LD_MS 46u
#define OP_SAMPLE_POS 110u
#define OP_SAMPLE_INFO 111u

static unsigned device_runs, device_refusals;

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

/* D3D's standard sample positions in 1/16 pixel, for 1, 2, 4 and 8 samples. */
static const int8_t pattern1[1][2] = { { 0, 0 } };
static const int8_t pattern2[2][2] = { { 4, 4 }, { -4, -4 } };
static const int8_t pattern4[4][2] = { { -2, -6 }, { 6, -2 }, { -6, 2 }, { 2, 6 } };
static const int8_t pattern8[8][2] = { { 1, -3 }, { -1, 3 }, { 5, 1 }, { -3, -5 },
                                       { -5, 5 }, { -7, -1 }, { 3, 7 }, { 7, -7 } };
static const int8_t pattern16[16][2] = { { 1, 1 }, { -1, -3 }, { -3, 2 }, { 4, -1 }, { -5, -2 }, { 2, 5 },
                                         { 5, 3 }, { 3, -5 }, { -2, 6 }, { 0, -7 }, { -4, -6 }, { -6, 4 },
                                         { -8, 0 }, { 7, -4 }, { 6, 7 }, { -7, -8 } };

static const int8_t (*pattern(uint32_t samples))[2]
{
    return samples == 1 ? pattern1 : samples == 2 ? pattern2 : samples == 4 ? pattern4
           : samples == 8 ? pattern8 : pattern16;
}

struct ms_case {
    enum sb_rt_format format;
    uint32_t samples, layers; /* layers 0: a texture2dms; else a texture2dmsarray of that many */
};

static bool is_depth(enum sb_rt_format f)
{
    return f == SB_RT_FORMAT_D32_FLOAT || f == SB_RT_FORMAT_D16_UNORM || f == SB_RT_FORMAT_D24_UNORM_S8_UINT;
}

static struct sm4_program ms_program(const struct ms_case *k)
{
    uint32_t layers = k->layers ? k->layers : 1, dim = k->layers ? 9 : 4;
    struct sm4_program p;
    sm4_begin_cs(&p, W, H, k->samples * layers, 5);
    /* dcl_resource_texture2dms(S): the sample count sits in bits 16-22 of the opcode token. */
    /* uint return type; float for the depth formats */
    sm4_dcl_resource(&p, 0, dim | (k->samples << 5), is_depth(k->format) ? 0x5555 : 0x4444);
    sm4_dcl_uav_raw(&p, 0);
    sm4_dcl_thread_id(&p, T_THREAD_IN_GROUP, "xyz");
    I(&p, OP_UDIV, dr(0, "x"), dr(0, "y"), special(T_THREAD_IN_GROUP, "zzzz"), l1(k->samples));
    I(&p, OP_MOV, dr(1, "xy"), special(T_THREAD_IN_GROUP, "xyxx"));
    I(&p, OP_MOV, dr(1, "z"), sr(0, "xxxx"));
    I(&p, OP_MOV, dr(1, "w"), l1(0));
    I(&p, OP_LD_MS, dr(2, "xyzw"), sr(1, "xyzw"), st(0, "xyzw"), sr(0, "yyyy"));
    I(&p, OP_IMAD, dr(3, "x"), special(T_THREAD_IN_GROUP, "zzzz"), l1(H), special(T_THREAD_IN_GROUP, "yyyy"));
    I(&p, OP_IMAD, dr(3, "x"), sr(3, "xxxx"), l1(W), special(T_THREAD_IN_GROUP, "xxxx"));
    I(&p, OP_ISHL, dr(3, "x"), sr(3, "xxxx"), l1(5));
    I(&p, OP_STORE_RAW, du(0, "xyzw"), sr(3, "xxxx"), sr(2, "xyzw"));
    I(&p, OP_SAMPLE_POS, dr(4, "xy"), st(0, "xyxx"), sr(0, "yyyy"));
    I(&p, OP_SAMPLE_INFO, dr(4, "z"), st(0, "xxxx"));
    I(&p, OP_MOV, dr(4, "w"), l1(0));
    I(&p, OP_IADD, dr(3, "y"), sr(3, "xxxx"), l1(16));
    I(&p, OP_STORE_RAW, du(0, "xyzw"), sr(3, "yyyy"), sr(4, "xyzw"));
    sm4_end(&p);
    return p;
}

/* Byte `b` of the sample with global number g (resources.h order: layer, row, texel, sample). */
static uint8_t sample_byte(uint32_t g, uint32_t b)
{
    return (uint8_t)(g * 5u + b * 3u + 1u);
}

/* The texel data of a case: R32G32B32A32_UINT words 0x0L0Y0X(S)(c) name their place exactly; the
 * narrower formats take sample_byte; depth formats g / 256 (d32_float: inside [0, 1], as a depth
 * attachment holds), codes (517 g + 3) mod 2^16 (d16) and (70001 g + 5) mod 2^24 under a stencil
 * byte 0xAB that shaders never see (d24s8). */
static uint8_t *ms_texels(const struct ms_case *k, size_t *size)
{
    uint32_t layers = k->layers ? k->layers : 1, texel = sb_rt_format_size(k->format);
    *size = (size_t)layers * H * W * k->samples * texel;
    uint8_t *data = malloc(*size);
    if (!data)
        return NULL;
    for (uint32_t g = 0; g < layers * H * W * k->samples; g++) {
        uint32_t s = g % k->samples, x = g / k->samples % W, y = g / k->samples / W % H, l = g / k->samples / W / H;
        for (uint32_t b = 0; b < texel; b++)
            data[(size_t)g * texel + b] = sample_byte(g, b);
        if (k->format == SB_RT_FORMAT_R32G32B32A32_UINT)
            for (uint32_t c = 0; c < 4; c++) {
                uint32_t word = 0x01000000u * l + 0x10000u * y + 0x100u * x + 0x10u * s + c;
                memcpy(data + (size_t)g * 16 + 4 * c, &word, 4);
            }
        uint32_t depth = k->format == SB_RT_FORMAT_D32_FLOAT ? f2u((float)g / 256.0f)
                         : k->format == SB_RT_FORMAT_D16_UNORM ? (g * 517u + 3u) & 0xFFFFu
                                                               : ((g * 70001u + 5u) & 0xFFFFFFu) | 0xAB000000u;
        if (is_depth(k->format))
            memcpy(data + (size_t)g * texel, &depth, texel); /* little-endian: the low bytes for d16 */
    }
    return data;
}

/* What ld_ms returns for global sample g: the format's channels little-endian from its bytes,
 * missing channels 0 (alpha 1), as D3D reads integer formats. */
static void expected_texel(const struct ms_case *k, const uint8_t *data, uint32_t g, uint32_t out[4])
{
    uint32_t texel = sb_rt_format_size(k->format), channels = sb_rt_format_channels(k->format);
    uint32_t width = texel / channels; /* bytes per channel */
    const uint8_t *t = data + (size_t)g * texel;
    if (is_depth(k->format)) { /* the depth as red (unorm: code / (2^n - 1)), then 0, 0, 1.0 */
        uint32_t v = 0;
        memcpy(&v, t, texel);
        out[0] = k->format == SB_RT_FORMAT_D32_FLOAT ? v
                 : k->format == SB_RT_FORMAT_D16_UNORM ? f2u((float)v / 65535.0f)
                                                       : f2u((float)(v & 0xFFFFFFu) / 16777215.0f);
        out[1] = out[2] = 0;
        out[3] = f2u(1.0f);
        return;
    }
    out[0] = out[1] = out[2] = 0;
    out[3] = 1;
    for (uint32_t c = 0; c < channels; c++) {
        uint32_t v = 0;
        for (uint32_t b = 0; b < width; b++)
            v |= (uint32_t)t[c * width + b] << (8 * b);
        out[c] = v;
    }
}

static enum sb_result run(struct sb_rt_context *c, const struct ms_case *k, uint8_t *texels, size_t size,
                          uint32_t *records, size_t record_bytes, struct sb_error *err)
{
    struct sm4_program p = ms_program(k);
    memset(err, 0, sizeof(*err));
    memset(records, 0xEE, record_bytes);
    struct sb_rt_resource table[2] = {
        { .resource_class = SB_IR_RESOURCE_SRV, .register_index = 0, .data = texels, .size = size,
          .format = k->format, .dimension = k->layers ? 9 : 4, .width = W, .height = H, .depth = 1,
          .layers = k->layers ? k->layers : 1, .mip_levels = 1, .sample_count = k->samples },
        { .resource_class = SB_IR_RESOURCE_UAV, .register_index = 0, .data = records, .size = record_bytes,
          .width = 1, .height = 1, .depth = 1, .layers = 1, .mip_levels = 1, .sample_count = 1 },
    };
    const uint32_t groups[3] = { 1, 1, 1 };
    enum sb_result r;
    if (c) {
        static struct blob container;
        sm4_container(&p, &container);
        struct sb_translation *t = NULL;
        r = sb_translate(container.bytes, container.size, NULL, &t, err);
        if (r == SB_SUCCESS)
            r = sb_rt_dispatch(c, t, table, 2, groups, NULL, err);
        sb_translation_destroy(t);
        return r;
    }
    struct sb_sm4_program *sm4 = NULL;
    struct sb_ir_program *ir = NULL;
    r = sb_sm4_decode(p.tok, p.n * 4, 0, &sm4, err);
    if (r == SB_SUCCESS)
        r = sb_ir_from_sm4(sm4, NULL, &ir, err);
    sb_sm4_program_destroy(sm4);
    if (r == SB_SUCCESS) {
        struct sb_interp_options options = { 0 };
        r = sb_interp_dispatch(ir, table, 2, groups, &options, NULL, err);
    }
    sb_ir_program_destroy(ir);
    return r;
}

static const struct ms_case cases[] = {
    { SB_RT_FORMAT_R32G32B32A32_UINT, 1, 0 }, { SB_RT_FORMAT_R32G32B32A32_UINT, 2, 0 },
    { SB_RT_FORMAT_R32G32B32A32_UINT, 4, 0 }, { SB_RT_FORMAT_R32G32B32A32_UINT, 8, 0 },
    { SB_RT_FORMAT_R32G32B32A32_UINT, 16, 0 },
    { SB_RT_FORMAT_R32G32B32A32_UINT, 1, 2 }, { SB_RT_FORMAT_R32G32B32A32_UINT, 2, 2 },
    { SB_RT_FORMAT_R32G32B32A32_UINT, 4, 2 }, { SB_RT_FORMAT_R32G32B32A32_UINT, 8, 2 },
    /* one of each other texel size the device fills through its own integer view */
    { SB_RT_FORMAT_R8_UINT, 4, 0 }, { SB_RT_FORMAT_R16_UINT, 4, 2 }, { SB_RT_FORMAT_R32_UINT, 4, 0 },
    { SB_RT_FORMAT_R16G16B16A16_UINT, 4, 2 }, { SB_RT_FORMAT_R8G8B8A8_UINT, 2, 0 },
    /* depth textures, as resolve shaders read them (the device fills them by a render pass) */
    { SB_RT_FORMAT_D32_FLOAT, 4, 0 }, { SB_RT_FORMAT_D32_FLOAT, 8, 2 }, { SB_RT_FORMAT_D32_FLOAT, 4, 2 },
    { SB_RT_FORMAT_D16_UNORM, 4, 0 }, { SB_RT_FORMAT_D24_UNORM_S8_UINT, 4, 2 },
};

/* Every record of a case against its known answer; the count of lanes that differ. `unorm_ulps`:
 * how far a unorm depth may be (lavapipe multiplies by the reciprocal: runtime/README.md). */
static uint32_t check_records(const struct ms_case *k, const uint8_t *texels, const uint32_t *records,
                              const char *where, uint32_t unorm_ulps)
{
    bool unorm = k->format == SB_RT_FORMAT_D16_UNORM || k->format == SB_RT_FORMAT_D24_UNORM_S8_UINT;
    uint32_t layers = k->layers ? k->layers : 1, bad = 0;
    for (uint32_t z = 0; z < k->samples * layers; z++)
        for (uint32_t y = 0; y < H; y++)
            for (uint32_t x = 0; x < W; x++) {
                uint32_t l = z / k->samples, s = z % k->samples, g = ((l * H + y) * W + x) * k->samples + s;
                const uint32_t *rec = records + 8 * ((z * H + y) * W + x);
                uint32_t want[8];
                expected_texel(k, texels, g, want);
                want[4] = f2u(pattern(k->samples)[s][0] / 16.0f);
                want[5] = f2u(pattern(k->samples)[s][1] / 16.0f);
                want[6] = f2u((float)k->samples);
                want[7] = 0;
                for (uint32_t w = 0; w < 8; w++)
                    if (rec[w] != want[w] &&
                        !(w == 0 && unorm && (rec[w] > want[w] ? rec[w] - want[w] : want[w] - rec[w]) <= unorm_ulps) &&
                        bad++ < 4)
                        fprintf(stderr, "  %s %s %u samples %u layers: (x %u, y %u, layer %u, sample %u) word %u "
                                "= 0x%08x, want 0x%08x\n", where, sb_rt_format_name(k->format), k->samples,
                                layers, x, y, l, s, w, rec[w], want[w]);
            }
    return bad;
}

/*
 * Fetches outside a 2-sample 2DMS of 4x2 read 0 on the interpreter (D3D leaves an out-of-range
 * sample undefined; the interpreter's rule for every fetch outside a resource): ld_ms of sample
 * 2 and of sample -1 at texel (0, 0), of sample 0 at texel (4, 0) and at (0, -1), and a control
 * ld_ms of sample 1 at texel (3, 1) = words 0x00010310 + c (R32G32B32A32_UINT, made by
 * ms_texels: 0x10000 y + 0x100 x + 0x10 s + c).
 */
static void test_outside(void)
{
    static struct sm4_program p;
    sm4_begin_cs(&p, 1, 1, 1, 1);
    sm4_dcl_resource(&p, 0, 4 | (2u << 5), 0x4444);
    sm4_dcl_uav_raw(&p, 0);
    static const int32_t at[5][3] = { { 0, 0, 2 }, { 0, 0, -1 }, { 4, 0, 0 }, { 0, -1, 0 }, { 3, 1, 1 } };
    for (uint32_t k = 0; k < 5; k++) {
        I(&p, OP_LD_MS, dr(0, "xyzw"), l4((uint32_t)at[k][0], (uint32_t)at[k][1], 0, 0), st(0, "xyzw"),
          l1((uint32_t)at[k][2]));
        I(&p, OP_STORE_RAW, du(0, "xyzw"), l1(16 * k), sr(0, "xyzw"));
    }
    sm4_end(&p);
    const struct ms_case k = { SB_RT_FORMAT_R32G32B32A32_UINT, 2, 0 };
    size_t size;
    uint8_t *texels = ms_texels(&k, &size);
    uint32_t out[20];
    memset(out, 0xEE, sizeof(out));
    struct sb_rt_resource table[2] = {
        { .resource_class = SB_IR_RESOURCE_SRV, .register_index = 0, .data = texels, .size = size,
          .format = k.format, .dimension = 4, .width = W, .height = H, .depth = 1, .layers = 1, .mip_levels = 1,
          .sample_count = 2 },
        { .resource_class = SB_IR_RESOURCE_UAV, .register_index = 0, .data = out, .size = sizeof(out),
          .width = 1, .height = 1, .depth = 1, .layers = 1, .mip_levels = 1, .sample_count = 1 },
    };
    struct sb_sm4_program *sm4 = NULL;
    struct sb_ir_program *ir = NULL;
    struct sb_error err;
    memset(&err, 0, sizeof(err));
    enum sb_result r = sb_sm4_decode(p.tok, p.n * 4, 0, &sm4, &err);
    if (r == SB_SUCCESS)
        r = sb_ir_from_sm4(sm4, NULL, &ir, &err);
    if (r == SB_SUCCESS) {
        struct sb_interp_options options = { 0 };
        r = sb_interp_dispatch(ir, table, 2, (const uint32_t[3]){ 1, 1, 1 }, &options, NULL, &err);
    }
    CHECK(r == SB_SUCCESS, "outside: %s", err.message);
    for (uint32_t w = 0; r == SB_SUCCESS && w < 16; w++)
        CHECK(out[w] == 0, "outside: fetch %u word %u = 0x%08x, want 0", w / 4, w % 4, out[w]);
    for (uint32_t c = 0; r == SB_SUCCESS && c < 4; c++)
        CHECK(out[16 + c] == 0x00010310u + c, "control: word %u = 0x%08x, want 0x%08x", c, out[16 + c],
              0x00010310u + c);
    sb_ir_program_destroy(ir);
    sb_sm4_program_destroy(sm4);
    free(texels);
}

static void test_interpreter(void)
{
    uint32_t records[W * H * 16 * 8];
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        const struct ms_case *k = &cases[i];
        size_t size;
        uint8_t *texels = ms_texels(k, &size);
        struct sb_error err;
        enum sb_result r = run(NULL, k, texels, size, records, sizeof(records), &err);
        CHECK(r == SB_SUCCESS, "%s %u samples: %s", sb_rt_format_name(k->format), k->samples, err.message);
        if (r == SB_SUCCESS) {
            uint32_t bad = check_records(k, texels, records, "interpreter", 0);
            CHECK(bad == 0, "%s %u samples %u layers: %u words differ", sb_rt_format_name(k->format), k->samples,
                  k->layers, bad);
        }
        free(texels);
    }
    /* Spot checks written out by hand (4 samples, array of 2, R32G32B32A32_UINT): sample 2 of texel
     * (3, 1) of layer 1 holds 0x01010320 + c; samplepos of sample 3 is (2/16, 6/16) = (0.125, 0.375). */
    const struct ms_case k = { SB_RT_FORMAT_R32G32B32A32_UINT, 4, 2 };
    size_t size;
    uint8_t *texels = ms_texels(&k, &size);
    struct sb_error err;
    if (run(NULL, &k, texels, size, records, sizeof(records), &err) == SB_SUCCESS) {
        const uint32_t *rec = records + 8 * (((1 * 4 + 2) * H + 1) * W + 3); /* z = layer 1 * 4 + sample 2 */
        CHECK(rec[0] == 0x01010320u && rec[3] == 0x01010323u, "ld_ms (3, 1, 1) sample 2 = 0x%08x 0x%08x",
              rec[0], rec[3]);
        rec = records + 8 * ((3 * H + 0) * W + 0); /* layer 0, sample 3, texel (0, 0) */
        CHECK(rec[4] == 0x3E000000u && rec[5] == 0x3EC00000u && rec[6] == 0x40800000u,
              "samplepos / sampleinfo of sample 3 of 4 = 0x%08x 0x%08x 0x%08x", rec[4], rec[5], rec[6]);
    }
    free(texels);
    printf("interpreter: %zu cases\n", sizeof(cases) / sizeof(cases[0]));
}

/* ---- pull-model evaluation (eval_*) and the rasterizer's samples in pixel shaders ---------- */

#define OP_EVAL_SNAPPED 203u
#define OP_EVAL_SAMPLE_INDEX 204u
#define OP_EVAL_CENTROID 205u
#define T_RASTERIZER 14u
#define T_COVERAGE_IN 35u
#define PIXELS 10u

static struct sm4_operand vin(uint32_t r, const char *sel)
{
    return sm4_reg(T_INPUT, 1, &r, NULL, sel, 0);
}

static struct sm4_operand vout(uint32_t r, const char *mask)
{
    return sm4_reg(T_OUTPUT, 1, &r, NULL, mask, 1);
}

/*
 * ps_5_0: v0.xy linear_noperspective, v1.x constant (an integer sample index, also evaluated),
 * vCoverage.
 *   o0.xy = eval_snapped(v0.xy, (3, -2));  o0.zw = eval_snapped(v0.xy, (9, 0x17))  [low 4 bits: -7, 7]
 *   o1.xy = eval_sample_index(v0.xy, v1.x); o1.zw = eval_centroid(v0.xy)
 *   o2.x = sampleinfo(rasterizer); o2.yz = samplepos(rasterizer, 1); o2.w = vCoverage (uint)
 *   o3.x = eval_sample_index(v1.x, 1) (a constant input: its own value)
 */
static struct sb_ir_program *eval_program(void)
{
    static struct sm4_program p;
    sm4_begin(&p, 0, 5, 0, 0);
    sm4_dcl_io(&p, 98, 4, T_INPUT, 0, "xy", -1);
    sm4_dcl_io(&p, 98, 1, T_INPUT, 1, "x", -1);
    sm4_dcl_thread_id(&p, T_COVERAGE_IN, "x");
    for (uint32_t o = 0; o < 4; o++)
        sm4_dcl_io(&p, 101, 0, T_OUTPUT, o, o == 3 ? "x" : "xyzw", -1);
    I(&p, OP_EVAL_SNAPPED, vout(0, "xy"), vin(0, "xyxx"), l4(3, (uint32_t)-2, 0, 0));
    I(&p, OP_EVAL_SNAPPED, vout(0, "zw"), vin(0, "xxxy"), l4(9, 0x17, 0, 0));
    I(&p, OP_EVAL_SAMPLE_INDEX, vout(1, "xy"), vin(0, "xyxx"), vin(1, "xxxx"));
    I(&p, OP_EVAL_CENTROID, vout(1, "zw"), vin(0, "xxxy"));
    I(&p, OP_SAMPLE_INFO, vout(2, "x"), special(T_RASTERIZER, "xxxx"));
    I(&p, OP_SAMPLE_POS, vout(2, "yz"), special(T_RASTERIZER, "xxyx"), l1(1));
    I(&p, OP_MOV, vout(2, "w"), special(T_COVERAGE_IN, "xxxx"));
    I(&p, OP_EVAL_SAMPLE_INDEX, vout(3, "x"), vin(1, "xxxx"), l1(1));
    sm4_end(&p);
    struct sb_sm4_program *sm4 = NULL;
    struct sb_ir_program *ir = NULL;
    struct sb_error err;
    memset(&err, 0, sizeof(err));
    if (sb_sm4_decode(p.tok, p.n * 4, 0, &sm4, &err) != SB_SUCCESS || sb_ir_from_sm4(sm4, NULL, &ir, &err) != SB_SUCCESS)
        fprintf(stderr, "eval program: %s\n", err.message);
    sb_sm4_program_destroy(sm4);
    return ir;
}

/* Pixel i: v0 = (1 + i, 2) changing by (0.5, 2) per pixel right and (0.25, -1) down; v1.x = i
 * (constant: its planes, 9 and 9, must be ignored). Every value is a multiple of 1/64, so each
 * evaluation is exact and the expectations below need no tolerance. */
static void test_eval(void)
{
    struct sb_ir_program *ir = eval_program();
    CHECK(ir != NULL, "eval program");
    if (!ir)
        return;
    static const uint32_t counts[5] = { 1, 2, 4, 8, 16 };
    for (uint32_t k = 0; k < 5; k++) {
        uint32_t samples = counts[k];
        float pos[PIXELS * 4];
        uint32_t in[PIXELS * 8], ddx[PIXELS * 8], ddy[PIXELS * 8], out[PIXELS * 16];
        for (uint32_t i = 0; i < PIXELS; i++) {
            const float p[4] = { (float)(i % 4) + 0.5f, (float)(i / 4) + 0.5f, 0.5f, 1.0f };
            memcpy(pos + 4 * i, p, sizeof(p));
            const uint32_t v[8] = { f2u(1.0f + (float)i), f2u(2.0f), 0, 0, i, 0, 0, 0 };
            const uint32_t dx[8] = { f2u(0.5f), f2u(2.0f), 0, 0, f2u(9.0f), 0, 0, 0 };
            const uint32_t dy[8] = { f2u(0.25f), f2u(-1.0f), 0, 0, f2u(9.0f), 0, 0, 0 };
            memcpy(in + 8 * i, v, sizeof(v));
            memcpy(ddx + 8 * i, dx, sizeof(dx));
            memcpy(ddy + 8 * i, dy, sizeof(dy));
        }
        memset(out, 0, sizeof(out));
        struct sb_interp_registers inputs = { 2, in }, planes_x = { 2, ddx }, planes_y = { 2, ddy };
        struct sb_interp_registers outputs = { 4, out };
        struct sb_interp_options o = { .input_ddx = &planes_x, .input_ddy = &planes_y, .sample_count = samples };
        struct sb_error err;
        memset(&err, 0, sizeof(err));
        enum sb_result r = sb_interp_run_pixels(ir, NULL, 0, PIXELS, pos, &inputs, &outputs, NULL, &o, NULL, &err);
        CHECK(r == SB_SUCCESS, "%u samples: %s", samples, err.message);
        uint32_t bad = 0;
        for (uint32_t i = 0; i < PIXELS && r == SB_SUCCESS; i++) {
            float x = 1.0f + (float)i, sx = 0, sy = 0, one_x = 0, one_y = 0;
            if (i < samples) { /* pixel i evaluates at sample i; an index past the count at the centre */
                sx = pattern(samples)[i][0] / 16.0f;
                sy = pattern(samples)[i][1] / 16.0f;
            }
            if (samples > 1) {
                one_x = pattern(samples)[1][0] / 16.0f;
                one_y = pattern(samples)[1][1] / 16.0f;
            }
            const uint32_t want[13] = {
                f2u(x + 0.0625f), f2u(2.5f), f2u(x - 0.109375f), f2u(0.6875f),
                f2u(x + sx * 0.5f + sy * 0.25f), f2u(2.0f + sx * 2.0f - sy), f2u(x), f2u(2.0f),
                f2u((float)samples), f2u(one_x), f2u(one_y), (1u << samples) - 1, i,
            };
            for (uint32_t w = 0; w < 13; w++)
                if (out[16 * i + w] != want[w] && bad++ < 4)
                    fprintf(stderr, "  %u samples, pixel %u: o%u.%c = 0x%08x, want 0x%08x\n", samples, i, w / 4,
                            "xyzw"[w % 4], out[16 * i + w], want[w]);
        }
        CHECK(bad == 0, "%u samples: %u eval / rasterizer words differ", samples, bad);
    }
    /* Worked by hand for 4 samples: pixel 1 evaluates at sample 1, (6, -2) / 16 = (0.375, -0.125):
     * v0.x = 2 + 0.375 * 0.5 - 0.125 * 0.25 = 2.15625, v0.y = 2 + 0.375 * 2 + 0.125 = 2.875. */
    {
        float pos[4] = { 1.5f, 0.5f, 0.5f, 1.0f };
        uint32_t in[8] = { f2u(2.0f), f2u(2.0f), 0, 0, 1, 0, 0, 0 }, out[16] = { 0 };
        uint32_t ddx[8] = { f2u(0.5f), f2u(2.0f), 0, 0, 0, 0, 0, 0 }, ddy[8] = { f2u(0.25f), f2u(-1.0f), 0, 0, 0, 0, 0, 0 };
        struct sb_interp_registers inputs = { 2, in }, px = { 2, ddx }, py = { 2, ddy }, outputs = { 4, out };
        struct sb_interp_options o = { .input_ddx = &px, .input_ddy = &py, .sample_count = 4 };
        struct sb_error err;
        memset(&err, 0, sizeof(err));
        CHECK(sb_interp_run_pixels(ir, NULL, 0, 1, pos, &inputs, &outputs, NULL, &o, NULL, &err) == SB_SUCCESS &&
                  out[4] == 0x400A0000u && out[5] == 0x40380000u,
              "eval_sample_index at sample 1 of 4: 0x%08x 0x%08x (%s)", out[4], out[5], err.message);
        /* Without planes (points of size 1) every evaluation is the input itself. */
        o.input_ddx = o.input_ddy = NULL;
        CHECK(sb_interp_run_pixels(ir, NULL, 0, 1, pos, &inputs, &outputs, NULL, &o, NULL, &err) == SB_SUCCESS &&
                  out[0] == f2u(2.0f) && out[1] == f2u(2.0f) && out[4] == f2u(2.0f) && out[7] == f2u(2.0f),
              "constant inputs: 0x%08x 0x%08x 0x%08x", out[0], out[1], out[4]);
    }
    sb_ir_program_destroy(ir);
}

/*
 * Sample-frequency execution: a program reading SV_SampleIndex runs once per sample.
 * ps_5_0: v0.x SV_SampleIndex, v1.xy linear sample, v2.x linear, v3.xy SV_Position, vCoverage.
 *   o0 = (SV_SampleIndex, v1.x, v1.y, v2.x); o1 = (v3.x, v3.y, vCoverage, eval_centroid(v1.x))
 * Pixel i at (i + 0.5, 0.5): v1 = (10 + i, 20) with planes ddx (1, 0.5), ddy (0.25, 2); v2 = 5
 * with ddx 1 (interpolated at the centre, so it stays 5).
 */
static void test_sample_rate(void)
{
    static struct sm4_program p;
    sm4_begin(&p, 0, 5, 0, 0);
    sm4_dcl_io(&p, 99, 1, T_INPUT, 0, "x", 10); /* dcl_input_ps_sgv constant v0.x, sampleIndex */
    sm4_dcl_io(&p, 98, 6, T_INPUT, 1, "xy", -1); /* linear sample */
    sm4_dcl_io(&p, 98, 2, T_INPUT, 2, "x", -1);
    sm4_dcl_io(&p, 100, 4, T_INPUT, 3, "xy", 1); /* linear noperspective v3.xy, position */
    sm4_dcl_thread_id(&p, T_COVERAGE_IN, "x");
    sm4_dcl_io(&p, 101, 0, T_OUTPUT, 0, "xyzw", -1);
    sm4_dcl_io(&p, 101, 0, T_OUTPUT, 1, "xyzw", -1);
    I(&p, OP_MOV, vout(0, "x"), vin(0, "xxxx"));
    I(&p, OP_MOV, vout(0, "yz"), vin(1, "xxyx"));
    I(&p, OP_MOV, vout(0, "w"), vin(2, "xxxx"));
    I(&p, OP_MOV, vout(1, "xy"), vin(3, "xyxx"));
    I(&p, OP_MOV, vout(1, "z"), special(T_COVERAGE_IN, "xxxx"));
    I(&p, OP_EVAL_CENTROID, vout(1, "w"), vin(1, "xxxx"));
    sm4_end(&p);
    struct sb_sm4_program *sm4 = NULL;
    struct sb_ir_program *ir = NULL;
    struct sb_error err;
    memset(&err, 0, sizeof(err));
    if (sb_sm4_decode(p.tok, p.n * 4, 0, &sm4, &err) != SB_SUCCESS || sb_ir_from_sm4(sm4, NULL, &ir, &err) != SB_SUCCESS)
        fprintf(stderr, "sample-rate program: %s\n", err.message);
    sb_sm4_program_destroy(sm4);
    CHECK(ir != NULL, "sample-rate program");
    if (!ir)
        return;
    enum { N = 2 };
    static const uint32_t counts[4] = { 1, 2, 4, 8 };
    for (uint32_t k = 0; k < 4; k++) {
        uint32_t samples = counts[k];
        float pos[N * 4];
        uint32_t in[N * 16] = { 0 }, ddx[N * 16] = { 0 }, ddy[N * 16] = { 0 }, out[N * 8 * 8];
        for (uint32_t i = 0; i < N; i++) {
            const float q[4] = { (float)i + 0.5f, 0.5f, 0.5f, 1.0f };
            memcpy(pos + 4 * i, q, sizeof(q));
            in[16 * i + 4] = f2u(10.0f + (float)i);
            in[16 * i + 5] = f2u(20.0f);
            in[16 * i + 8] = f2u(5.0f);
            ddx[16 * i + 4] = f2u(1.0f);
            ddx[16 * i + 5] = f2u(0.5f);
            ddx[16 * i + 8] = f2u(1.0f);
            ddy[16 * i + 4] = f2u(0.25f);
            ddy[16 * i + 5] = f2u(2.0f);
        }
        memset(out, 0, sizeof(out));
        struct sb_interp_registers inputs = { 4, in }, px = { 4, ddx }, py = { 4, ddy }, outputs = { 2, out };
        struct sb_interp_options o = { .input_ddx = &px, .input_ddy = &py, .sample_count = samples };
        struct sb_interp_stats stats;
        enum sb_result r = sb_interp_run_pixels(ir, NULL, 0, N, pos, &inputs, &outputs, NULL, &o, &stats, &err);
        CHECK(r == SB_SUCCESS, "%u samples: %s", samples, err.message);
        CHECK(r != SB_SUCCESS || stats.invocations == 4ull * N * samples, "%u samples: %llu lanes, want %u",
              samples, (unsigned long long)stats.invocations, 4 * N * samples);
        uint32_t bad = 0;
        for (uint32_t i = 0; i < N && r == SB_SUCCESS; i++)
            for (uint32_t smp = 0; smp < samples; smp++) {
                float ox = pattern(samples)[smp][0] / 16.0f, oy = pattern(samples)[smp][1] / 16.0f;
                const uint32_t want[8] = {
                    smp, f2u(10.0f + (float)i + ox + oy * 0.25f), f2u(20.0f + ox * 0.5f + oy * 2.0f), f2u(5.0f),
                    f2u((float)i + 0.5f + ox), f2u(0.5f + oy), 1u << smp, f2u(10.0f + (float)i),
                };
                const uint32_t *rec = out + 8 * (i * samples + smp);
                for (uint32_t w = 0; w < 8; w++)
                    if (rec[w] != want[w] && bad++ < 4)
                        fprintf(stderr, "  %u samples, pixel %u sample %u: o%u.%c = 0x%08x, want 0x%08x\n", samples,
                                i, smp, w / 4, "xyzw"[w % 4], rec[w], want[w]);
            }
        CHECK(bad == 0, "%u samples: %u per-sample words differ", samples, bad);
        if (samples == 4 && r == SB_SUCCESS) {
            /* By hand: pixel 1, sample 2 at (-6, 2) / 16 = (-0.375, 0.125): v1 = (11 - 0.375 + 0.03125,
             * 20 - 0.1875 + 0.25) = (10.65625, 20.0625), SV_Position (1.125, 0.625), vCoverage 4. */
            const uint32_t *rec = out + 8 * (1 * 4 + 2);
            CHECK(rec[0] == 2 && rec[1] == 0x412A8000u && rec[2] == 0x41A08000u && rec[4] == 0x3F900000u &&
                      rec[5] == 0x3F200000u && rec[6] == 4,
                  "pixel 1 sample 2: %u 0x%08x 0x%08x 0x%08x 0x%08x %u", rec[0], rec[1], rec[2], rec[4], rec[5], rec[6]);
        }
    }
    sb_ir_program_destroy(ir);
}

/*
 * eval_* through sb_validate on the device: the pixel harness draws such a program as one
 * triangle per pixel whose interpolated inputs are planes with v a multiple of 1/8 in
 * [-64, 64) at the centre and integer ddx, ddy in [-4, 4] (validate_pixel_planes.c), and gives
 * the interpreter the same planes. Besides `agree`, every evaluation must land where the
 * instruction says, found by hand from the pixel's own v and planes, which the program also
 * writes out (its derivatives are the planes exactly):
 *
 * one sample (ps_5_0, v1.xy linear (`mode` 2) or linear_noperspective (4)):
 *   o0.xy = eval_centroid(v1.xy)            want v (a fully covered pixel's centroid is its centre)
 *   o0.zw = eval_snapped(v1.xy, (3, -2))    want v + 3/16 ddx - 2/16 ddy
 *   o1.xy = eval_sample_index(v1.xy, 0)     want v (one sample: the centre)
 *   o1.zw = eval_snapped(v1.xy, (9, 0x17))  want v - 7/16 ddx + 7/16 ddy (low 4 bits, signed)
 *   o2.xy = v1.xy, o2.z = SV_IsFrontFace ? 1 : -1 (want 1); o3.xy = deriv_rtx(v1.xy),
 *   o3.zw = deriv_rty(v1.xy)
 * four samples (SV_SampleIndex in v2.x: the program runs per sample, 4 records per pixel):
 *   o0.xy = eval_sample_index(v1.xy, SV_SampleIndex)  want v + (dx_s ddx + dy_s ddy) / 16, the
 *           standard 4-sample position (dx_s, dy_s) of sample s (pattern4)
 *   o0.zw = eval_snapped(v1.xy, (-8, 7))              want v - 8/16 ddx + 7/16 ddy
 *   o1.xy = v1.xy; o2.xy = deriv_rtx(v1.xy), o2.zw = deriv_rty(v1.xy); o1.z = float(SV_SampleIndex)
 * An evaluation that gave v back everywhere (constant inputs, as on points) fails: most pixels
 * have a plane other than 0 (checked).
 */
enum { OP_DERIV_RTX = 11, OP_DERIV_RTY = 12 };

static void eval_container(uint32_t mode, bool per_sample, bool discards, struct blob *out)
{
    static struct sm4_program p;
    sm4_begin(&p, 0, 5, 0, 0);
    sm4_dcl_io(&p, 98, mode, T_INPUT, 1, "xy", -1);
    /* SV_SampleIndex, or at one sample SV_IsFrontFace (the harness's triangles face the front, as
     * the interpreter's pixels do) */
    sm4_dcl_io(&p, 99, 1, T_INPUT, 2, "x", per_sample ? 10 : 9);
    uint32_t targets = per_sample ? 3 : 4;
    for (uint32_t t = 0; t < targets; t++)
        sm4_dcl_io(&p, 101, 0, T_OUTPUT, t, "xyzw", -1);
    if (!per_sample) {
        I(&p, OP_EVAL_CENTROID, vout(0, "xy"), vin(1, "xyxx"));
        I(&p, OP_EVAL_SNAPPED, vout(0, "zw"), vin(1, "xxxy"), l4(3, (uint32_t)-2, 0, 0));
        I(&p, OP_EVAL_SAMPLE_INDEX, vout(1, "xy"), vin(1, "xyxx"), l1(0));
        I(&p, OP_EVAL_SNAPPED, vout(1, "zw"), vin(1, "xxxy"), l4(9, 0x17, 0, 0));
        I(&p, OP_MOV, vout(2, "xy"), vin(1, "xyxx"));
        I(&p, OP_MOVC, vout(2, "z"), vin(2, "xxxx"), lf(1.0f), lf(-1.0f));
        I(&p, OP_DERIV_RTX, vout(3, "xy"), vin(1, "xyxx"));
        I(&p, OP_DERIV_RTY, vout(3, "zw"), vin(1, "xxxy"));
    } else {
        I(&p, OP_EVAL_SAMPLE_INDEX, vout(0, "xy"), vin(1, "xyxx"), vin(2, "xxxx"));
        I(&p, OP_EVAL_SNAPPED, vout(0, "zw"), vin(1, "xxxy"), l4((uint32_t)-8, 7, 0, 0));
        I(&p, OP_MOV, vout(1, "xyw"), vin(1, "xyxx"));
        I(&p, OP_UTOF, vout(1, "z"), vin(2, "xxxx"));
        I(&p, OP_DERIV_RTX, vout(2, "xy"), vin(1, "xyxx"));
        I(&p, OP_DERIV_RTY, vout(2, "zw"), vin(1, "xxxy"));
    }
    if (discards)
        IC(&p, OP_DISCARD, SM4_NZ, vin(1, "xxxx"));
    sm4_end(&p);
    const struct sig_element_spec in[2] = {
        { 0, "TEXCOORD", 0, 0, 3, 1, 0x3, 0x3, 0 },
        { 0, per_sample ? "SV_SampleIndex" : "SV_IsFrontFace", 0, per_sample ? 10 : 9, 1, 2, 0x1, 0x1, 0 },
    };
    const struct sig_element_spec target[4] = {
        { 0, "SV_Target", 0, 0, 3, 0, 0xF, 0x0, 0 },
        { 0, "SV_Target", 1, 0, 3, 1, 0xF, 0x0, 0 },
        { 0, "SV_Target", 2, 0, 3, 2, 0xF, 0x0, 0 },
        { 0, "SV_Target", 3, 0, 3, 3, 0xF, 0x0, 0 },
    };
    sm4_container_sig(&p, in, 2, target, targets, NULL, 0, out);
}

/* Words of render target o`reg` in one side of a report (NULL when absent). */
static const float *report_target(const struct sb_rt_inputs *side, uint32_t reg, uint32_t records)
{
    for (uint32_t i = 0; side && i < side->count; i++) {
        const struct sb_rt_resource *r = &side->resources[i];
        if (r->resource_class == SB_VALIDATE_CLASS_OUTPUT && r->register_index == reg && r->size == records * 16u)
            return r->data;
    }
    return NULL;
}

/* Checks one side's records against the hand rules above; returns the words that break them. */
static uint32_t check_eval_side(const struct sb_rt_inputs *side, const char *name, bool per_sample,
                                uint32_t pixels, uint32_t *sloped)
{
    uint32_t samples = per_sample ? 4 : 1, records = pixels * samples, bad = 0;
    const float *o[4] = { NULL };
    for (uint32_t t = 0; t < (per_sample ? 3u : 4u); t++) {
        o[t] = report_target(side, t, records);
        if (!o[t])
            return fprintf(stderr, "  %s: no o%u of %u records\n", name, t, records), 1;
    }
    const float *value = per_sample ? o[1] : o[2], *planes = per_sample ? o[2] : o[3];
    *sloped = 0;
    for (uint32_t n = 0; n < records; n++) {
        uint32_t s = n % samples;
        for (uint32_t c = 0; c < 2; c++) {
            float v = value[n * 4 + c], gx = planes[n * 4 + c], gy = planes[n * 4 + 2 + c];
            bool shape = v == (float)(int)(v * 8.0f) / 8.0f && v >= -64.0f && v < 64.0f && gx == (float)(int)gx &&
                         gy == (float)(int)gy && gx >= -4.0f && gx <= 4.0f && gy >= -4.0f && gy <= 4.0f;
            *sloped += c == 0 && s == 0 && (gx != 0.0f || gy != 0.0f);
            float want[4];
            uint32_t lanes;
            if (!per_sample) {
                want[0] = v;
                want[1] = v + 0.1875f * gx - 0.125f * gy;
                want[2] = v;
                want[3] = v - 0.4375f * gx + 0.4375f * gy;
                lanes = 4;
            } else {
                want[0] = v + (float)pattern4[s][0] / 16.0f * gx + (float)pattern4[s][1] / 16.0f * gy;
                want[1] = v - 0.5f * gx + 0.4375f * gy;
                lanes = 2;
            }
            /* lane k of the evaluations: o0.xy, o0.zw, o1.xy, o1.zw (component c of each pair) */
            for (uint32_t k = 0; k < lanes; k++) {
                float got = o[k / 2][n * 4 + (k % 2) * 2 + c];
                if ((!shape || f2u(got) != f2u(want[k])) && bad++ < 4)
                    fprintf(stderr, "  %s record %u (sample %u) eval %u.%c: %g, want %g (v %g, planes %g %g)\n",
                            name, n, s, k, "xy"[c], (double)got, (double)want[k], (double)v, (double)gx,
                            (double)gy);
            }
        }
        if (per_sample && o[1][n * 4 + 2] != (float)s && bad++ < 4)
            fprintf(stderr, "  %s record %u: SV_SampleIndex %g, want %u\n", name, n, (double)o[1][n * 4 + 2], s);
        if (!per_sample && o[2][n * 4 + 2] != 1.0f && bad++ < 4)
            fprintf(stderr, "  %s record %u: SV_IsFrontFace gave %g, want 1 (front)\n", name, n,
                    (double)o[2][n * 4 + 2]);
    }
    return bad;
}

static void test_device_eval(struct sb_rt_context *c)
{
    /* 6 x 5 and 7 x 3 draw on 8 x 8 and 8 x 4 framebuffers (corners exact only for power-of-two sides) */
    const struct { uint32_t mode; bool per_sample; uint32_t width, height; } variants[] = {
        { 2, false, 8, 8 }, { 4, false, 6, 5 }, { 2, true, 7, 3 }, { 4, true, 8, 8 },
    };
    for (size_t v = 0; v < sizeof(variants) / sizeof(variants[0]); v++) {
        static struct blob dxbc;
        eval_container(variants[v].mode, variants[v].per_sample, false, &dxbc);
        struct sb_error e = { 0 };
        struct sb_rt_program *program = NULL;
        enum sb_result r = sb_rt_program_load(dxbc.bytes, dxbc.size, NULL, &program, &e);
        CHECK(r == SB_SUCCESS, "eval program: %s", e.message);
        if (r != SB_SUCCESS)
            continue;
        struct sb_validate_options o = { .inputs = { .seed = 7 }, .draw_width = variants[v].width,
                                         .draw_height = variants[v].height };
        struct sb_validate_report *report = NULL;
        r = sb_validate(c, program, &o, &report, &e);
        CHECK(r == SB_SUCCESS && report->verdict == SB_VALIDATE_AGREE && report->words_compared > 0,
              "eval_* (mode %u, %s) on triangles: %s: %s", variants[v].mode,
              variants[v].per_sample ? "4 samples" : "1 sample",
              r == SB_SUCCESS ? sb_validate_verdict_name(report->verdict) : sb_result_name(r),
              r == SB_SUCCESS ? report->reason : e.message);
        if (r == SB_SUCCESS) {
            const uint32_t pixels = variants[v].width * variants[v].height;
            uint32_t sloped_gpu = 0, sloped_cpu = 0;
            uint32_t bad_gpu = check_eval_side(report->gpu, "device", variants[v].per_sample, pixels, &sloped_gpu);
            uint32_t bad_cpu = check_eval_side(report->cpu, "interpreter", variants[v].per_sample, pixels,
                                               &sloped_cpu);
            CHECK(bad_gpu == 0 && bad_cpu == 0, "eval_* (mode %u, %s): %u device and %u interpreter words off "
                  "the hand rules", variants[v].mode, variants[v].per_sample ? "4 samples" : "1 sample", bad_gpu,
                  bad_cpu);
            /* seeded planes are 0 in both directions for 1 pixel in 81 on average */
            CHECK(sloped_gpu >= pixels / 2 && sloped_cpu >= pixels / 2, "only %u / %u pixels with a plane",
                  sloped_gpu, sloped_cpu);
            printf("eval_* (mode %u, %s, %ux%u) on triangles through sb_validate: %s, %llu words, %u pixels "
                   "with a plane\n", variants[v].mode, variants[v].per_sample ? "4 samples" : "1 sample",
                   variants[v].width, variants[v].height, sb_validate_verdict_name(report->verdict),
                   (unsigned long long)report->words_compared, sloped_gpu);
        }
        sb_validate_report_destroy(report);
        sb_rt_program_destroy(program);
    }
    /* At 4 samples a triangle reaches some samples of the pixels right and below before their own
     * fragments: a discarded sample would keep that, so such a program is refused, named. */
    static struct blob dxbc;
    eval_container(2, true, true, &dxbc);
    struct sb_error e = { 0 };
    struct sb_rt_program *program = NULL;
    struct sb_validate_report *report = NULL;
    enum sb_result r = sb_rt_program_load(dxbc.bytes, dxbc.size, NULL, &program, &e);
    struct sb_validate_options o = { .inputs = { .seed = 7 } };
    if (r == SB_SUCCESS)
        r = sb_validate(c, program, &o, &report, &e);
    CHECK(r == SB_ERROR_RUN_UNSUPPORTED && strstr(e.message, "discard"), "eval_* + discard at 4 samples: %s: %s",
          sb_result_name(r), e.message);
    sb_validate_report_destroy(report);
    sb_rt_program_destroy(program);
}

/*
 * eval_* on real triangles on the device (lavapipe evaluates those right), against the
 * interpreter given the same attribute planes and against hand-computed values.
 * A 4x2 target; vs_5_0 passes each point's position through; gs_4_0 turns the point into the
 * two triangles of its pixel's square, each corner carrying its own window position in
 * TEXCOORD (o1.xy), so the input's plane is x per pixel right and y down (ddx (1, 0), ddy (0, 1));
 * ps_5_0 (v1.xy linear_noperspective):
 *   o0.xy = eval_snapped(v1.xy, (3, -2)) = centre + (0.1875, -0.125); o0.zw = eval_centroid(v1.xy)
 *   o1.xy = eval_sample_index(v1.xy, 0) (one sample: the centre);   o1.zw = v1.xy
 *   o2.xy = eval_snapped(v1.xy, (9, 0x17)): D3D reads the low 4 bits, (-7, 7) / 16
 */
enum { TW = 4, TH = 2, OP_DCL_INPUT_PRIMITIVE = 93, OP_DCL_OUTPUT_TOPOLOGY = 92, OP_DCL_MAX_OUTPUT = 94,
       OP_EMIT = 19, OP_CUT = 9 };

static struct sb_translation *translate_blob(const struct blob *b)
{
    struct sb_translation *t = NULL;
    struct sb_error e = { 0 };
    if (sb_translate(b->bytes, b->size, NULL, &t, &e) != SB_SUCCESS)
        fprintf(stderr, "translate: %s\n", e.message);
    return t;
}

static const struct sig_element_spec position_sig[1] = { { 0, "SV_Position", 0, 1, 3, 0, 0xF, 0xF, 0 } };
static const struct sig_element_spec varying_sig[2] = {
    { 0, "SV_Position", 0, 1, 3, 0, 0xF, 0x0, 0 },
    { 0, "TEXCOORD", 0, 0, 3, 1, 0x3, 0x3, 0 },
};

static void quad_stages(struct blob *vs_blob, struct blob *gs_blob, struct blob *ps_blob)
{
    static struct sm4_program vs, gs, ps;
    sm4_begin(&vs, 1, 5, 0, 0);
    sm4_dcl_io(&vs, 95, 0, T_INPUT, 0, "xyzw", -1);
    sm4_dcl_io(&vs, 103, 0, T_OUTPUT, 0, "xyzw", 1);
    I(&vs, OP_MOV, vout(0, "xyzw"), vin(0, "xyzw"));
    sm4_end(&vs);
    const struct sig_element_spec vs_in[1] = { { 0, "POSITION", 0, 0, 3, 0, 0xF, 0xF, 0 } };
    sm4_container_sig(&vs, vs_in, 1, position_sig, 1, NULL, 0, vs_blob);

    sm4_begin(&gs, 2, 4, 0, 0);
    sm4_raw(&gs, OP_DCL_INPUT_PRIMITIVE | (1u << 11), 0, NULL);  /* point */
    sm4_raw(&gs, OP_DCL_OUTPUT_TOPOLOGY | (5u << 11), 0, NULL);  /* triangle strip */
    const uint32_t four = 4, sv_position = 1, in_idx[2] = { 1, 0 }, at[2] = { 0, 0 };
    sm4_raw(&gs, OP_DCL_MAX_OUTPUT, 1, &four);
    sm4_decl(&gs, 97, sm4_reg(T_INPUT, 2, in_idx, NULL, "xyzw", 1), 1, &sv_position);
    sm4_dcl_io(&gs, 103, 0, T_OUTPUT, 0, "xyzw", 1);
    sm4_dcl_io(&gs, 101, 0, T_OUTPUT, 1, "xy", -1);
    struct sm4_operand centre = sm4_reg(T_INPUT, 2, at, NULL, "xyzw", 0);
    /* corners in NDC (half a pixel: 0.25 across, 0.5 down) and in pixels */
    static const float corner[4][2] = { { -1, -1 }, { 1, -1 }, { -1, 1 }, { 1, 1 } };
    for (int k = 0; k < 4; k++) {
        struct sm4_operand xy = sm4_reg(T_INPUT, 2, at, NULL, "xyxy", 0);
        I(&gs, OP_ADD, vout(0, "xy"), xy, l4(f2u(corner[k][0] * 0.25f), f2u(corner[k][1] * 0.5f), 0, 0));
        I(&gs, OP_MOV, vout(0, "zw"), centre);
        /* window = ndc * (W/2, H/2) + (W/2, H/2), plus the corner's half pixel */
        I(&gs, OP_MAD, vout(1, "xy"), xy, l4(f2u(TW / 2.0f), f2u(TH / 2.0f), 0, 0),
          l4(f2u(TW / 2.0f + corner[k][0] * 0.5f), f2u(TH / 2.0f + corner[k][1] * 0.5f), 0, 0));
        I0(&gs, OP_EMIT, 0);
    }
    I0(&gs, OP_CUT, 0);
    sm4_end(&gs);
    sm4_container_sig(&gs, position_sig, 1, varying_sig, 2, NULL, 0, gs_blob);

    sm4_begin(&ps, 0, 5, 0, 0);
    sm4_dcl_io(&ps, 98, 4, T_INPUT, 1, "xy", -1);
    sm4_dcl_io(&ps, 101, 0, T_OUTPUT, 0, "xyzw", -1);
    sm4_dcl_io(&ps, 101, 0, T_OUTPUT, 1, "xyzw", -1);
    sm4_dcl_io(&ps, 101, 0, T_OUTPUT, 2, "xy", -1);
    I(&ps, OP_EVAL_SNAPPED, vout(0, "xy"), vin(1, "xyxx"), l4(3, (uint32_t)-2, 0, 0));
    I(&ps, OP_EVAL_SNAPPED, vout(2, "xy"), vin(1, "xyxx"), l4(9, 0x17, 0, 0));
    I(&ps, OP_EVAL_CENTROID, vout(0, "zw"), vin(1, "xxxy"));
    I(&ps, OP_EVAL_SAMPLE_INDEX, vout(1, "xy"), vin(1, "xyxx"), l1(0));
    I(&ps, OP_MOV, vout(1, "zw"), vin(1, "xxxy"));
    sm4_end(&ps);
    const struct sig_element_spec targets[3] = {
        { 0, "SV_Target", 0, 0, 3, 0, 0xF, 0x0, 0 },
        { 0, "SV_Target", 1, 0, 3, 1, 0xF, 0x0, 0 },
        { 0, "SV_Target", 2, 0, 3, 2, 0x3, 0xC, 0 },
    };
    sm4_container_sig(&ps, varying_sig, 2, targets, 3, NULL, 0, ps_blob);
}

static void test_device_eval_triangles(struct sb_rt_context *c)
{
    static struct blob vs_blob, gs_blob, ps_blob;
    quad_stages(&vs_blob, &gs_blob, &ps_blob);
    struct sb_translation *vs = translate_blob(&vs_blob), *gs = translate_blob(&gs_blob),
                          *ps = translate_blob(&ps_blob);
    CHECK(vs && gs && ps, "eval on triangles: the stages translate");
    static float points[TW * TH][4], gpu[3][TW * TH][4];
    for (uint32_t i = 0; i < TW * TH; i++) {
        const float p[4] = { ((float)(i % TW) + 0.5f) / (TW / 2.0f) - 1.0f, ((float)(i / TW) + 0.5f) / (TH / 2.0f) - 1.0f,
                             0.0f, 1.0f };
        memcpy(points[i], p, sizeof(p));
    }
    memset(gpu, 0, sizeof(gpu));
    struct sb_rt_vertex_stream stream = { vs ? vs->inputs[0].location : 0, SB_RT_FORMAT_R32G32B32A32_FLOAT, points };
    struct sb_rt_color_target targets[3] = { { 0, SB_RT_FORMAT_R32G32B32A32_FLOAT, gpu[0] },
                                             { 1, SB_RT_FORMAT_R32G32B32A32_FLOAT, gpu[1] },
                                             { 2, SB_RT_FORMAT_R32G32B32A32_FLOAT, gpu[2] } };
    struct sb_rt_draw draw = { .vertex = vs, .geometry = gs, .pixel = ps, .vertex_count = TW * TH,
                               .stream_count = 1, .streams = &stream, .width = TW, .height = TH,
                               .target_count = 3, .targets = targets };
    struct sb_error e = { 0 };
    enum sb_result r = vs && gs && ps ? sb_rt_draw_points(c, &draw, NULL, 0, NULL, &e) : SB_ERROR_INVALID_ARGUMENT;
    CHECK(r == SB_SUCCESS, "eval on triangles: draw: %s", e.message);

    /* The interpreter: the pixel program with the same planes. */
    const struct sb_ir_program *ir = NULL;
    struct sb_rt_program *program = NULL;
    if (sb_rt_program_load(ps_blob.bytes, ps_blob.size, NULL, &program, &e) == SB_SUCCESS)
        ir = program->ir;
    CHECK(ir != NULL, "eval on triangles: the pixel program loads: %s", e.message);
    uint32_t in[TW * TH * 8] = { 0 }, ddx[TW * TH * 8] = { 0 }, ddy[TW * TH * 8] = { 0 }, out[TW * TH * 12];
    float pos[TW * TH * 4];
    for (uint32_t i = 0; i < TW * TH; i++) {
        float x = (float)(i % TW) + 0.5f, y = (float)(i / TW) + 0.5f;
        const float q[4] = { x, y, 0.0f, 1.0f };
        memcpy(pos + 4 * i, q, sizeof(q));
        in[8 * i + 4] = f2u(x);
        in[8 * i + 5] = f2u(y);
        ddx[8 * i + 4] = f2u(1.0f);
        ddy[8 * i + 5] = f2u(1.0f);
    }
    struct sb_interp_registers inputs = { 2, in }, px = { 2, ddx }, py = { 2, ddy }, outputs = { 3, out };
    struct sb_interp_options o = { .input_ddx = &px, .input_ddy = &py, .sample_count = 1 };
    enum sb_result cr = ir ? sb_interp_run_pixels(ir, NULL, 0, TW * TH, pos, &inputs, &outputs, NULL, &o, NULL, &e)
                           : SB_ERROR_INVALID_ARGUMENT;
    CHECK(cr == SB_SUCCESS, "eval on triangles: interpreter: %s", e.message);
    uint32_t bad = 0;
    for (uint32_t i = 0; i < TW * TH && r == SB_SUCCESS && cr == SB_SUCCESS; i++) {
        float x = (float)(i % TW) + 0.5f, y = (float)(i / TW) + 0.5f;
        const float want[10] = { x + 0.1875f, y - 0.125f, x, y, x, y, x, y, x - 0.4375f, y + 0.4375f };
        for (uint32_t w = 0; w < 10; w++) {
            uint32_t device = f2u(gpu[w / 4][i][w % 4]), cpu = out[12 * i + w];
            if ((device != f2u(want[w]) || cpu != f2u(want[w])) && bad++ < 4)
                fprintf(stderr, "  eval on triangles, pixel %u o%u.%c: device %g, interpreter %g, want %g\n", i,
                        w / 4, "xyzw"[w % 4], (double)gpu[w / 4][i][w % 4], (double)u2f(cpu), (double)want[w]);
        }
    }
    CHECK(bad == 0, "eval on triangles: %u words differ", bad);
    if (r == SB_SUCCESS && cr == SB_SUCCESS && !bad)
        printf("eval_* on triangles: %u pixels, device and interpreter give the hand-computed values\n", TW * TH);
    sb_rt_program_destroy(program);
    sb_translation_destroy(vs);
    sb_translation_destroy(gs);
    sb_translation_destroy(ps);
}

/*
 * Sample-rate shading on the device: a 4x2 target of 4 samples drawn as points (each covers every
 * sample of its pixel); the pixel shader reads SV_SampleIndex, so it runs per sample.
 * ps_5_0: o0 = (float(SV_SampleIndex), SV_Position.x, SV_Position.y, float(vCoverage));
 *         o1.xyz = (sampleinfo(rasterizer), samplepos(rasterizer, SV_SampleIndex))
 * Want, for sample s of pixel (x, y): o0 = (s, x + 0.5 + dx_s, y + 0.5 + dy_s, 1 << s) and
 * o1.xyz = (4, dx_s, dy_s), the standard 4-sample positions (dx_s, dy_s); the interpreter runs
 * the same program with sample_count 4.
 */
static void test_device_sample_rate(struct sb_rt_context *c)
{
    static struct blob vs_blob, gs_blob, unused_ps, ps_blob;
    quad_stages(&vs_blob, &gs_blob, &unused_ps);
    static struct sm4_program ps;
    sm4_begin(&ps, 0, 5, 0, 0);
    sm4_dcl_io(&ps, 100, 4, T_INPUT, 0, "xy", 1);      /* linear noperspective v0.xy, position */
    sm4_dcl_io(&ps, 99, 1, T_INPUT, 1, "x", 10);       /* constant v1.x, sampleIndex */
    sm4_dcl_thread_id(&ps, T_COVERAGE_IN, "x");
    sm4_dcl_io(&ps, 101, 0, T_OUTPUT, 0, "xyzw", -1);
    sm4_dcl_io(&ps, 101, 0, T_OUTPUT, 1, "xyz", -1);
    I(&ps, OP_SAMPLE_INFO, vout(1, "x"), special(T_RASTERIZER, "xxxx"));
    I(&ps, OP_SAMPLE_POS, vout(1, "yz"), special(T_RASTERIZER, "xxyx"), vin(1, "xxxx"));
    I(&ps, OP_UTOF, vout(0, "x"), vin(1, "xxxx"));
    I(&ps, OP_MOV, vout(0, "yz"), vin(0, "xxyx"));
    I(&ps, OP_UTOF, vout(0, "w"), special(T_COVERAGE_IN, "xxxx"));
    sm4_end(&ps);
    const struct sig_element_spec in[2] = {
        { 0, "SV_Position", 0, 1, 3, 0, 0xF, 0x3, 0 },
        { 0, "SV_SampleIndex", 0, 10, 1, 1, 0x1, 0x1, 0 },
    };
    const struct sig_element_spec target[2] = { { 0, "SV_Target", 0, 0, 3, 0, 0xF, 0x0, 0 },
                                                { 0, "SV_Target", 1, 0, 3, 1, 0x7, 0x8, 0 } };
    sm4_container_sig(&ps, in, 2, target, 2, NULL, 0, &ps_blob);
    struct sb_translation *vs = translate_blob(&vs_blob), *pt = translate_blob(&ps_blob);
    CHECK(vs && pt, "sample rate: the stages translate");
    enum { S = 4 };
    static float points[TW * TH][4], gpu[TW * TH * S][4], gpu1[TW * TH * S][4];
    for (uint32_t i = 0; i < TW * TH; i++) {
        const float p[4] = { ((float)(i % TW) + 0.5f) / (TW / 2.0f) - 1.0f, ((float)(i / TW) + 0.5f) / (TH / 2.0f) - 1.0f,
                             0.0f, 1.0f };
        memcpy(points[i], p, sizeof(p));
    }
    memset(gpu, 0xEE, sizeof(gpu));
    memset(gpu1, 0xEE, sizeof(gpu1));
    struct sb_rt_vertex_stream stream = { vs ? vs->inputs[0].location : 0, SB_RT_FORMAT_R32G32B32A32_FLOAT, points };
    struct sb_rt_color_target t[2] = { { 0, SB_RT_FORMAT_R32G32B32A32_FLOAT, gpu },
                                       { 1, SB_RT_FORMAT_R32G32B32A32_FLOAT, gpu1 } };
    struct sb_rt_draw draw = { .vertex = vs, .pixel = pt, .vertex_count = TW * TH, .stream_count = 1,
                               .streams = &stream, .width = TW, .height = TH, .target_count = 2, .targets = t,
                               .samples = S };
    struct sb_error e = { 0 };
    enum sb_result r = vs && pt ? sb_rt_draw_points(c, &draw, NULL, 0, NULL, &e) : SB_ERROR_INVALID_ARGUMENT;
    CHECK(r == SB_SUCCESS || r == SB_ERROR_RUN_UNSUPPORTED, "sample rate: draw: %s", e.message);
    if (r == SB_ERROR_RUN_UNSUPPORTED)
        printf("sample rate: refused: %s\n", e.message);

    struct sb_rt_program *program = NULL;
    const struct sb_ir_program *ir = NULL;
    if (sb_rt_program_load(ps_blob.bytes, ps_blob.size, NULL, &program, &e) == SB_SUCCESS)
        ir = program->ir;
    uint32_t in_words[TW * TH * 8] = { 0 }, out[TW * TH * S * 8];
    float pos[TW * TH * 4];
    for (uint32_t i = 0; i < TW * TH; i++) {
        const float q[4] = { (float)(i % TW) + 0.5f, (float)(i / TW) + 0.5f, 0.0f, 1.0f };
        memcpy(pos + 4 * i, q, sizeof(q));
    }
    struct sb_interp_registers inputs = { 2, in_words }, outputs = { 2, out };
    struct sb_interp_options o = { .sample_count = S };
    enum sb_result cr = ir ? sb_interp_run_pixels(ir, NULL, 0, TW * TH, pos, &inputs, &outputs, NULL, &o, NULL, &e)
                           : SB_ERROR_INVALID_ARGUMENT;
    CHECK(cr == SB_SUCCESS, "sample rate: interpreter: %s", e.message);
    uint32_t bad = 0;
    for (uint32_t i = 0; i < TW * TH && cr == SB_SUCCESS; i++)
        for (uint32_t smp = 0; smp < S; smp++) {
            float x = (float)(i % TW) + 0.5f + pattern4[smp][0] / 16.0f, y = (float)(i / TW) + 0.5f + pattern4[smp][1] / 16.0f;
            const float want[7] = { (float)smp, x, y, (float)(1u << smp), (float)S, pattern4[smp][0] / 16.0f,
                                    pattern4[smp][1] / 16.0f };
            for (uint32_t w = 0; w < 7; w++) {
                uint32_t cpu = out[(i * S + smp) * 8 + w];
                float device = w < 4 ? gpu[i * S + smp][w] : gpu1[i * S + smp][w - 4];
                bool device_bad = r == SB_SUCCESS && f2u(device) != f2u(want[w]);
                if ((device_bad || cpu != f2u(want[w])) && bad++ < 6)
                    fprintf(stderr, "  sample rate, pixel %u sample %u o%u.%c: device %g, interpreter %g, want %g\n",
                            i, smp, w / 4, "xyzw"[w % 4], (double)device, (double)u2f(cpu), (double)want[w]);
            }
        }
    CHECK(bad == 0, "sample rate: %u words differ", bad);
    if (r == SB_SUCCESS && cr == SB_SUCCESS && !bad)
        printf("sample-rate shading: %u pixels x %u samples, device and interpreter give the hand-computed values\n",
               TW * TH, S);
    sb_rt_program_destroy(program);
    sb_translation_destroy(vs);
    sb_translation_destroy(pt);
}

static void test_device(struct sb_rt_context *c)
{
    uint32_t cpu[W * H * 16 * 8], gpu[W * H * 16 * 8];
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        const struct ms_case *k = &cases[i];
        size_t size;
        uint8_t *texels = ms_texels(k, &size);
        struct sb_error err;
        enum sb_result r = run(NULL, k, texels, size, cpu, sizeof(cpu), &err);
        CHECK(r == SB_SUCCESS, "interpreter: %s", err.message);
        r = run(c, k, texels, size, gpu, sizeof(gpu), &err);
        if (r == SB_ERROR_RUN_UNSUPPORTED) {
            device_refusals++;
            CHECK(strstr(err.message, "sample") != NULL, "a refusal names the samples: %s", err.message);
            printf("%-20s %u samples %u layers: refused: %s\n", sb_rt_format_name(k->format), k->samples,
                   k->layers, err.message);
        } else {
            CHECK(r == SB_SUCCESS, "device: %s: %s", sb_result_name(r), err.message);
            if (r == SB_SUCCESS) {
                device_runs++;
                uint32_t layers = k->layers ? k->layers : 1, words = W * H * k->samples * layers * 8;
                bool unorm = k->format == SB_RT_FORMAT_D16_UNORM || k->format == SB_RT_FORMAT_D24_UNORM_S8_UINT;
                CHECK(unorm || memcmp(cpu, gpu, words * 4) == 0, "%s %u samples: device and interpreter differ",
                      sb_rt_format_name(k->format), k->samples);
                uint32_t bad = check_records(k, texels, gpu, "device", 1);
                CHECK(bad == 0, "device: %u words differ from the known answers", bad);
                uint32_t off = 0; /* unorm depths 1 ulp from the interpreter's */
                for (uint32_t w = 0; w < words; w++)
                    off += cpu[w] != gpu[w];
                printf("%-20s %u samples %u layers: same on the device (%u of %u words 1 ulp off)\n",
                       sb_rt_format_name(k->format), k->samples, k->layers, off, words);
            }
        }
        free(texels);
    }
    /* A d32_float sample a depth attachment cannot hold is refused, naming it. */
    const struct ms_case k = { SB_RT_FORMAT_D32_FLOAT, 4, 0 };
    size_t size;
    uint8_t *texels = ms_texels(&k, &size);
    float bad_depth = 1.5f;
    memcpy(texels + 4 * 5, &bad_depth, 4);
    struct sb_error err;
    enum sb_result r = run(c, &k, texels, size, gpu, sizeof(gpu), &err);
    CHECK(r == SB_ERROR_RUN_UNSUPPORTED && strstr(err.message, "sample 5 is 1.5"), "d32_float 1.5: %s: %s",
          sb_result_name(r), err.message);
    free(texels);
    CHECK(device_runs > 0, "no case ran on the device");
    printf("device: %u cases ran, %u refused\n", device_runs, device_refusals);
}

int main(int argc, char **argv)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    bool gpu = argc > 1 && strcmp(argv[1], "gpu") == 0;
    if (!gpu) {
        test_interpreter();
        test_outside();
        test_eval();
        test_sample_rate();
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
        test_device_eval(c);
        test_device_eval_triangles(c);
        test_device_sample_rate(c);
        uint32_t errors = sb_rt_context_validation_errors(c);
        CHECK(errors == 0, "%u validation errors; first: %.400s", errors,
              errors ? sb_rt_context_first_validation_error(c) : "");
        sb_rt_context_destroy(c);
    }
    printf("%u checks, %u failed\n", checks, failures);
    return failures ? 1 : 0;
}
