/* SPDX-License-Identifier: MIT */
/*
 * Multisampled textures (issue #15 item 3) through shaders, so the same programs run on a
 * device: ld_ms of every sample of every texel, samplepos of each sample and sampleinfo, on
 * texture2dms and texture2dmsarray resources of 1, 2, 4 and 8 samples.
 *
 *  - known answers on the interpreter: each sample holds words or bytes made from its
 *    (layer, y, x, sample) position, so every loaded lane is known; samplepos must give
 *    D3D's standard pattern (hand-copied below in 1/16 pixel from the D3D11.3 functional
 *    specification, "Standard Sample Patterns": the same points as Vulkan's
 *    standardSampleLocations table shifted by -0.5);
 *  - with the argument "gpu": the same programs on the Vulkan runtime (lavapipe in CI), whose
 *    multisampled textures are filled by a compute pass (runtime/src/vulkan/vk_image_ms.c),
 *    bit for bit against the interpreter; a sample count the device lacks must be refused
 *    with SB_ERROR_RUN_UNSUPPORTED naming the samples (lavapipe has 4 only).
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
#include "translator/ir.h"
#include "translator/sm4.h"
#include "sm4_asm.h"

#define W 4u
#define H 2u
#define OP_LD_MS 46u
#define OP_SAMPLE_POS 110u
#define OP_SAMPLE_INFO 111u

static unsigned failures, checks, device_runs, device_refusals;

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

/* D3D's standard sample positions in 1/16 pixel, for 1, 2, 4 and 8 samples. */
static const int8_t pattern1[1][2] = { { 0, 0 } };
static const int8_t pattern2[2][2] = { { 4, 4 }, { -4, -4 } };
static const int8_t pattern4[4][2] = { { -2, -6 }, { 6, -2 }, { -6, 2 }, { 2, 6 } };
static const int8_t pattern8[8][2] = { { 1, -3 }, { -1, 3 }, { 5, 1 }, { -3, -5 },
                                       { -5, 5 }, { -7, -1 }, { 3, 7 }, { 7, -7 } };

static const int8_t (*pattern(uint32_t samples))[2]
{
    return samples == 1 ? pattern1 : samples == 2 ? pattern2 : samples == 4 ? pattern4 : pattern8;
}

struct ms_case {
    enum sb_rt_format format;
    uint32_t samples, layers; /* layers 0: a texture2dms; else a texture2dmsarray of that many */
};

static struct sm4_program ms_program(const struct ms_case *k)
{
    uint32_t layers = k->layers ? k->layers : 1, dim = k->layers ? 9 : 4;
    struct sm4_program p;
    sm4_begin_cs(&p, W, H, k->samples * layers, 5);
    /* dcl_resource_texture2dms(S): the sample count sits in bits 16-22 of the opcode token. */
    sm4_dcl_resource(&p, 0, dim | (k->samples << 5), 0x4444); /* uint return type */
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
 * narrower formats take sample_byte. */
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
    { SB_RT_FORMAT_R32G32B32A32_UINT, 1, 2 }, { SB_RT_FORMAT_R32G32B32A32_UINT, 2, 2 },
    { SB_RT_FORMAT_R32G32B32A32_UINT, 4, 2 }, { SB_RT_FORMAT_R32G32B32A32_UINT, 8, 2 },
    /* one of each other texel size the device fills through its own integer view */
    { SB_RT_FORMAT_R8_UINT, 4, 0 }, { SB_RT_FORMAT_R16_UINT, 4, 2 }, { SB_RT_FORMAT_R32_UINT, 4, 0 },
    { SB_RT_FORMAT_R16G16B16A16_UINT, 4, 2 }, { SB_RT_FORMAT_R8G8B8A8_UINT, 2, 0 },
};

/* Every record of a case against its known answer; the count of lanes that differ. */
static uint32_t check_records(const struct ms_case *k, const uint8_t *texels, const uint32_t *records,
                              const char *where)
{
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
                    if (rec[w] != want[w] && bad++ < 4)
                        fprintf(stderr, "  %s %s %u samples %u layers: (x %u, y %u, layer %u, sample %u) word %u "
                                "= 0x%08x, want 0x%08x\n", where, sb_rt_format_name(k->format), k->samples,
                                layers, x, y, l, s, w, rec[w], want[w]);
            }
    return bad;
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
            uint32_t bad = check_records(k, texels, records, "interpreter");
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
                CHECK(memcmp(cpu, gpu, words * 4) == 0, "%s %u samples: device and interpreter differ",
                      sb_rt_format_name(k->format), k->samples);
                uint32_t bad = check_records(k, texels, gpu, "device");
                CHECK(bad == 0, "device: %u words differ from the known answers", bad);
                printf("%-20s %u samples %u layers: same on the device\n", sb_rt_format_name(k->format),
                       k->samples, k->layers);
            }
        }
        free(texels);
    }
    CHECK(device_runs > 0, "no case ran on the device");
    printf("device: %u cases ran, %u refused\n", device_runs, device_refusals);
}

int main(int argc, char **argv)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    bool gpu = argc > 1 && strcmp(argv[1], "gpu") == 0;
    if (!gpu) {
        test_interpreter();
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
        CHECK(errors == 0, "%u validation errors; first: %.400s", errors,
              errors ? sb_rt_context_first_validation_error(c) : "");
        sb_rt_context_destroy(c);
    }
    printf("%u checks, %u failed\n", checks, failures);
    return failures ? 1 : 0;
}
