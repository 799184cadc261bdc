/* SPDX-License-Identifier: MIT */
/*
 * The DXIL front end's resource kinds and operations (translator/src/dxil/
 * ir_from_dxil_resource_kinds.c, _buffers.c, _textures.c, _resret.c) on the
 * programs of tests/common/dxil_programs_resops.h: each runs through
 * sb_validate with hand-made resources on the CPU interpreter and, when a
 * Vulkan device is there (lavapipe), on the GPU; both sides must hold the
 * hand-computed words and the verdict must be agree. Then the refusals of
 * the kinds the IR has no declaration for, and a census of the corpus's uses
 * of the concern's dx.ops (`census CORPUS`).
 *
 * Usage: test_dxil_front_resops structured|typed|texture|sampling|kinds|counter|refusals|
 *        census CORPUS
 */
#define _POSIX_C_SOURCE 200809L

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "corpus_list.h"
#include "dxc_container_writer.h"
#include "dxil_front_harness.h"
#include "dxil_program_writer.h"
#include "dxil_programs_resops.h"
#include "reflect/bitcode.h"
#include "shaderbridge/dxbc.h"
#include "shaderbridge/dxbc_dxil.h"
#include "shaderbridge/interp.h"
#include "shaderbridge/translate.h"
#include "shaderbridge/validate.h"
#include "translator/dxil_ops.h"
#include "translator/ir.h"

static uint32_t f2u(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

/* A buffer of class `cls` at register `reg`: its bytes; the shape is the declaration's. */
static struct sb_rt_resource buffer(uint32_t cls, uint32_t reg, void *data, size_t size)
{
    return (struct sb_rt_resource){ .resource_class = cls, .register_index = reg, .data = data,
                                    .size = size, .layers = 1, .mip_levels = 1,
                                    .sample_count = 1 };
}

/* The words of resource (class, reg) on one side of a report; NULL when absent or short. */
static const uint32_t *side_words(const struct sb_rt_inputs *side, uint32_t cls, uint32_t reg,
                                  size_t bytes, uint32_t *counter)
{
    for (uint32_t i = 0; side && i < side->count; i++) {
        const struct sb_rt_resource *r = &side->resources[i];
        if (r->resource_class == cls && r->register_index == reg && r->size >= bytes) {
            if (counter)
                *counter = r->counter;
            return r->data;
        }
    }
    return NULL;
}

/* One UAV whose words the program's answer is. */
struct expected_uav {
    uint32_t reg;
    const uint32_t *words;
    uint32_t count;
    uint32_t counter; /**< the counter after the run (checked when has_counter) */
    bool has_counter;
};

static void check_side(const char *name, const char *side_name, const struct sb_rt_inputs *side,
                       const struct expected_uav *uavs, uint32_t uav_count)
{
    for (uint32_t u = 0; u < uav_count; u++) {
        const struct expected_uav *e = &uavs[u];
        uint32_t counter = 0;
        const uint32_t *got = side_words(side, SB_IR_RESOURCE_UAV, e->reg, e->count * 4u,
                                         &counter);
        CHECK(got != NULL, "%s (%s): no u%u", name, side_name, e->reg);
        for (uint32_t i = 0; got && i < e->count; i++)
            CHECK(got[i] == e->words[i], "%s (%s): u%u word %u = 0x%08x, expected 0x%08x", name,
                  side_name, e->reg, i, got[i], e->words[i]);
        if (got && e->has_counter)
            CHECK(counter == e->counter, "%s (%s): u%u counter %u, expected %u", name, side_name,
                  e->reg, counter, e->counter);
    }
}

struct expected_uavs {
    const struct expected_uav *uavs;
    uint32_t count;
};

static void check_uavs(const char *name, const char *side_name, const struct sb_rt_inputs *side,
                       const void *expected)
{
    const struct expected_uavs *x = expected;
    check_side(name, side_name, side, x->uavs, x->count);
}

/* Writes the program, runs it through sb_validate (dxil_front_validate) with `provided` (the
 * GPU side too when the context has a device) and checks both sides' UAVs and the verdict.
 * Provided data
 * without a format takes the declared shape, textures texture_size texels wide and high
 * (0: sb_validate's default). `within_precision`: differences the interpreter's precision
 * bounds explain are allowed (implicit-LOD sampling of seeded textures). */
static void run_program(const char *name, bool (*write)(struct tbuf *),
                        const struct sb_rt_resource *provided, uint32_t provided_count,
                        const struct expected_uav *uavs, uint32_t uav_count,
                        uint32_t texture_size, bool within_precision)
{
    const struct expected_uavs x = { uavs, uav_count };
    dxil_front_validate(name, write, provided, provided_count, texture_size, within_precision,
                        check_uavs, &x);
}

/* t0[k] = (10k+1, 10k+2, 10k+3); thread i writes u0[i] = (t0[i].a + t0[3-i].b,
 * t0[3-i].c * 2, t0[i].c) = (33, 2 * (10 (3-i) + 3), 10i + 3). */
static void test_structured(void)
{
    uint32_t t0[12], u0[12];
    for (uint32_t k = 0; k < 4; k++)
        for (uint32_t m = 0; m < 3; m++)
            t0[k * 3 + m] = 10 * k + m + 1;
    memset(u0, 0xAA, sizeof(u0));
    static const uint32_t expected[12] = { 33, 66, 3, 33, 46, 13, 33, 26, 23, 33, 6, 33 };
    const struct sb_rt_resource provided[2] = {
        buffer(SB_IR_RESOURCE_SRV, 0, t0, sizeof(t0)),
        buffer(SB_IR_RESOURCE_UAV, 0, u0, sizeof(u0)),
    };
    const struct expected_uav uav = { 0, expected, 12, 0, false };
    run_program("structured", dxil_program_resops_structured, provided, 2, &uav, 1, 0, false);
}

/* t0 (r32g32b32a32_float, 3 elements) [k] = (k + 0.5, 10k + 2.25, -(k + 1), 100);
 * u0[i] = (bits of t0[i].xyz, 3); u1 (r32_uint) = (4, 9) -> (12, 27). */
static void test_typed(void)
{
    float t0[12];
    for (uint32_t k = 0; k < 3; k++) {
        t0[k * 4] = (float)k + 0.5f;
        t0[k * 4 + 1] = 10.0f * (float)k + 2.25f;
        t0[k * 4 + 2] = -((float)k + 1.0f);
        t0[k * 4 + 3] = 100.0f;
    }
    uint32_t u0[8] = { 0 }, u1[2] = { 4, 9 };
    const uint32_t expected0[8] = { f2u(0.5f), f2u(2.25f), f2u(-1.0f), 3,
                                    f2u(1.5f), f2u(12.25f), f2u(-2.0f), 3 };
    static const uint32_t expected1[2] = { 12, 27 };
    const struct sb_rt_resource provided[3] = {
        buffer(SB_IR_RESOURCE_SRV, 0, t0, sizeof(t0)),
        buffer(SB_IR_RESOURCE_UAV, 0, u0, sizeof(u0)),
        buffer(SB_IR_RESOURCE_UAV, 1, u1, sizeof(u1)),
    };
    const struct expected_uav uavs[2] = { { 0, expected0, 8, 0, false },
                                          { 1, expected1, 2, 0, false } };
    run_program("typed", dxil_program_resops_typed, provided, 3, uavs, 2, 0, false);
}

/* A texture of SM4 `dimension` at t`reg`: width x height, `levels` levels, `samples` each. */
static struct sb_rt_resource texture(uint32_t cls, uint32_t reg, uint32_t dimension,
                                     enum sb_rt_format format, void *data, size_t size,
                                     uint32_t width, uint32_t height, uint32_t levels,
                                     uint32_t samples)
{
    return (struct sb_rt_resource){ .resource_class = cls, .register_index = reg, .data = data,
                                    .size = size, .format = format, .dimension = dimension,
                                    .width = width, .height = height, .depth = 1, .layers = 1,
                                    .mip_levels = levels, .sample_count = samples };
}

/* s`reg`: point sampling everywhere, clamped; a comparison sampler passes where ref < texel. */
static struct sb_rt_resource point_sampler(uint32_t reg, bool compare)
{
    struct sb_rt_resource s = { .resource_class = SB_IR_RESOURCE_SAMPLER, .register_index = reg };
    s.sampler = (struct sb_rt_sampler){
        .mag_filter = SB_RT_FILTER_NEAREST, .min_filter = SB_RT_FILTER_NEAREST,
        .mip_filter = SB_RT_FILTER_NEAREST,
        .address = { SB_RT_ADDRESS_CLAMP_TO_EDGE, SB_RT_ADDRESS_CLAMP_TO_EDGE,
                     SB_RT_ADDRESS_CLAMP_TO_EDGE },
        .mip_lod_bias = 0.0f, .min_lod = 0.0f, .max_lod = 16.0f, .compare = compare,
        .compare_op = compare ? 1u : 0u, /* VK_COMPARE_OP_LESS */
        .border_color = { 0.0f, 0.0f, 0.0f, 0.0f }, .max_anisotropy = 0.0f,
    };
    return s;
}

/* The 4x2 r32g32b32a32_float texture of two levels both texture tests read: level 0 texel
 * (x, y) = (x + 10y, 100 + x, 200 + y, 1), level 1 (2x1) texel (x, 0) = (50 + x, 0, 0, 0). */
static void fill_levels(float texels[40])
{
    memset(texels, 0, 40 * sizeof(float));
    for (uint32_t y = 0; y < 2; y++)
        for (uint32_t x = 0; x < 4; x++) {
            float *t = &texels[(y * 4 + x) * 4];
            t[0] = (float)(x + 10 * y);
            t[1] = (float)(100 + x);
            t[2] = (float)(200 + y);
            t[3] = 1.0f;
        }
    texels[32] = 50.0f;
    texels[36] = 51.0f;
}

/* t0 (fill_levels), s0 point sampling. Load(2, 1, mip 0) = (12, 102, 201, 1);
 * SampleLevel((0.375, 0.25), 0) reads texel (floor(1.5), floor(0.5)) = (1, 0) =
 * (1, 101, 200, 1); Load((0, 0), mip 1, offset (1, 0)) reads level-1 texel 1: x = 51;
 * GetDimensions(0) = 4 x 2, 2 levels. */
static void test_texture(void)
{
    float texels[40];
    fill_levels(texels);
    uint32_t u0[12] = { 0 };
    const uint32_t expected[12] = { f2u(12), f2u(102), f2u(201), f2u(1), f2u(1), f2u(101),
                                    f2u(200), f2u(1), f2u(51), 4, 2, 2 };
    const struct sb_rt_resource provided[3] = {
        texture(SB_IR_RESOURCE_SRV, 0, 3, SB_RT_FORMAT_R32G32B32A32_FLOAT, texels,
                sizeof(texels), 4, 2, 2, 1),
        buffer(SB_IR_RESOURCE_UAV, 0, u0, sizeof(u0)),
        point_sampler(0, false),
    };
    const struct expected_uav uav = { 0, expected, 12, 0, false };
    run_program("texture", dxil_program_resops_texture, provided, 3, &uav, 1, 0, false);
}

/* t0 (fill_levels); t1 4x2 depth, texel (x, y) = x / 4; t2 2x2 with 4 samples, sample s of
 * texel (x, y) = (100x + 10y + s, s, 0, 1); s0 point, s1 comparison LESS (ref < texel).
 *   SampleGrad at (0.375, 0.25), ddx (0.5, 0), ddy (0, 1): rho = 4 x 0.5 = 2 x 1 = 2, LOD 1,
 *     level-1 texel floor(0.75) = 0: 50;
 *   GatherGreen at (0.5, 0.5): texels x 1-2, y 0-1 in the order (x0,y1) (x1,y1) (x1,y0)
 *     (x0,y0): (101, 102, 102, 101); with the offset (id.x + 1, id.y) = (1, 0): x 2-3:
 *     (102, 103, 103, 102);
 *   SampleCmpLevelZero at (0.625, 0.25), ref 0.3: texel (2, 0) = 0.5, 0.3 < 0.5: 1;
 *   GatherCmpRed at (0.5, 0.5), ref 0.3: texels 0.25, 0.5, 0.5, 0.25: (0, 1, 1, 0);
 *   t2.Load((1, 0), sample 2) = (102, 2, 0, 1); GetSamplePosition(1) of D3D's standard
 *     4-sample pattern: (6, -2) / 16 = (0.375, -0.125); GetDimensions = 2, 2, 4 samples;
 *   t0.Load(3, 1) with status: x = 13, CheckAccessFullyMapped 1 (nothing is sparse);
 *   u1[(1, 1)] = (7, 8, 9, 10): words 12-15 of the 2x2 texture;
 *   t3 (2x2 r32_uint, texels 0x11111111 0x22222222 / 0x33333333 0x44444444) GatherRaw at
 *     (0.5, 0.5): all four texels' bits in gather order (0x33.., 0x44.., 0x22.., 0x11..);
 *   u2 (2x2 r32_float, texels 0.5, 1.5 / 2.5, 3.5): u2[(1, 0)] = 1.5, size 2 x 2. */
static void test_sampling(void)
{
    float texels[40], depth[8], ms[64];
    fill_levels(texels);
    for (uint32_t i = 0; i < 8; i++)
        depth[i] = (float)(i % 4) / 4.0f;
    for (uint32_t texel = 0; texel < 4; texel++)
        for (uint32_t s = 0; s < 4; s++) {
            float *v = &ms[(texel * 4 + s) * 4];
            v[0] = (float)(100 * (texel % 2) + 10 * (texel / 2) + s);
            v[1] = (float)s;
            v[2] = 0.0f;
            v[3] = 1.0f;
        }
    uint32_t u0[32] = { 0 }, u1[16] = { 0 };
    float u2[4] = { 0.5f, 1.5f, 2.5f, 3.5f };
    uint32_t words[4] = { 0x11111111u, 0x22222222u, 0x33333333u, 0x44444444u };
    const uint32_t expected0[32] = {
        f2u(50), f2u(101), f2u(102), f2u(102), f2u(101), f2u(102), f2u(103), f2u(103),
        f2u(102), f2u(1), 0, f2u(1), f2u(1), 0, f2u(102), f2u(2), 0, f2u(1),
        f2u(0.375f), f2u(-0.125f), 2, 2, 4, f2u(13), 1,
        0x33333333u, 0x44444444u, 0x22222222u, 0x11111111u, f2u(1.5f), 2, 2,
    };
    const uint32_t expected2[4] = { f2u(0.5f), f2u(1.5f), f2u(2.5f), f2u(3.5f) };
    const uint32_t expected1[16] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                                     f2u(7), f2u(8), f2u(9), f2u(10) };
    const struct sb_rt_resource provided[9] = {
        texture(SB_IR_RESOURCE_SRV, 0, 3, SB_RT_FORMAT_R32G32B32A32_FLOAT, texels,
                sizeof(texels), 4, 2, 2, 1),
        texture(SB_IR_RESOURCE_SRV, 1, 3, SB_RT_FORMAT_D32_FLOAT, depth, sizeof(depth), 4, 2,
                1, 1),
        /* Multisampled data takes the declared shape: 2x2 (texture_size), 4 samples. */
        buffer(SB_IR_RESOURCE_SRV, 2, ms, sizeof(ms)),
        texture(SB_IR_RESOURCE_SRV, 3, 3, SB_RT_FORMAT_R32_UINT, words, sizeof(words), 2, 2, 1,
                1),
        buffer(SB_IR_RESOURCE_UAV, 0, u0, sizeof(u0)),
        texture(SB_IR_RESOURCE_UAV, 1, 3, SB_RT_FORMAT_R32G32B32A32_FLOAT, u1, sizeof(u1), 2, 2,
                1, 1),
        texture(SB_IR_RESOURCE_UAV, 2, 3, SB_RT_FORMAT_R32_FLOAT, u2, sizeof(u2), 2, 2, 1, 1),
        point_sampler(0, false),
        point_sampler(1, true),
    };
    const struct expected_uav uavs[3] = { { 0, expected0, 32, 0, false },
                                          { 1, expected1, 16, 0, false },
                                          { 2, expected2, 4, 0, false } };
    run_program("sampling", dxil_program_resops_sampling, provided, 9, uavs, 3, 2, false);
}

/* The interpreter with counter 5: IncrementCounter returns 5 (the value before),
 * DecrementCounter 5 (the value after); the counter ends at 5. sb_validate seeds the
 * counter itself (half the buffer's elements for a program that decrements), so it checks
 * only that the GPU and the interpreter agree. */
static void test_counter(void)
{
    struct tbuf b = { 0 };
    struct sb_dxbc *container = NULL;
    struct sb_ir_program *ir = NULL;
    struct sb_error err = { 0 };
    CHECK(dxil_program_resops_counter(&b), "counter: the writer failed");
    enum sb_result r = sb_dxbc_parse(b.data, b.size, &container, &err);
    if (r == SB_SUCCESS)
        r = sb_ir_from_dxil(container, &ir, &err);
    CHECK(r == SB_SUCCESS, "counter: %s", err.message);
    if (r == SB_SUCCESS) {
        uint32_t u0[2] = { 0xAAAAAAAAu, 0xAAAAAAAAu };
        struct sb_rt_resource uav = buffer(SB_IR_RESOURCE_UAV, 0, u0, sizeof(u0));
        uav.counter = 5;
        const uint32_t groups[3] = { 1, 1, 1 };
        r = sb_interp_dispatch(ir, &uav, 1, groups, NULL, NULL, &err);
        CHECK(r == SB_SUCCESS, "counter: dispatch: %s", err.message);
        CHECK(u0[0] == 5 && u0[1] == 5 && uav.counter == 5, "counter: u0 = (%u, %u), counter %u",
              u0[0], u0[1], uav.counter);
    }
    sb_ir_program_destroy(ir);
    sb_dxbc_destroy(container);
    tb_free(&b);
    run_program("counter", dxil_program_resops_counter, NULL, 0, NULL, 0, 0, false);
}

/* The ps program on the other texture kinds: its SPIR-V is valid, and lavapipe and the
 * interpreter agree on seeded inputs (within precision: implicit LODs of seeded textures). */
static void test_kinds(void)
{
    struct tbuf b = { 0 };
    struct sb_translation *t = NULL;
    struct sb_error err = { 0 };
    CHECK(dxil_program_resops_kinds(&b), "kinds: the writer failed");
    enum sb_result r = sb_translate(b.data, b.size, NULL, &t, &err);
    CHECK(r == SB_SUCCESS, "kinds: sb_translate: %s", err.message);
    if (r == SB_SUCCESS) {
        r = sb_spirv_validate(t->words, t->word_count, SB_TARGET_VULKAN_1_1, &err);
        CHECK(r == SB_SUCCESS, "kinds: spirv-val: %s", err.message);
    }
    sb_translation_destroy(t);
    tb_free(&b);
    run_program("kinds", dxil_program_resops_kinds, NULL, 0, NULL, 0, 0, true);
}

/* A cs_6_0 with one SRV of `kind` and an empty body. */
static bool write_kind(struct tbuf *out, uint32_t kind)
{
    struct dxil_module *m = dm_create();
    uint32_t entry = dm_entry(m, "main");
    dm_at(m, dm_block(m));
    dm_ret_void(m);
    const struct dxil_resource srv = { .resource_class = DXIL_CLASS_SRV, .kind = kind,
                                       .type_name = "srv", .element_type = DXIL_COMP_F32 };
    const struct dxil_program_desc d = {
        .shader_kind = SB_DXIL_SHADER_KIND_COMPUTE, .entry = entry, .entry_name = "main",
        .num_threads = { 1, 1, 1 }, .resources = &srv, .resource_count = 1,
    };
    bool ok = dxil_program_write(m, &d, out);
    dm_destroy(m);
    return ok;
}

/* One refused dx.op: SB_ERROR_TRANSLATE_UNSUPPORTED at a byte offset, the message naming it. */
static void check_op_refusal(enum resops_refusal which, const char *name, const char *needle)
{
    struct tbuf b = { 0 };
    bool written = dxil_program_resops_refusal(&b, which);
    dxil_front_expect_refusal(name, written, &b, needle);
}

/* What the IR has no declaration or op for refuses, naming the kind or the op. */
static void test_refusals(void)
{
    check_op_refusal(RESOPS_REFUSE_OFFSET, "offset", "texel offset 0 is not a constant");
    check_op_refusal(RESOPS_REFUSE_CMP_LEVEL, "cmp_level", "SampleCmpLevel");
    check_op_refusal(RESOPS_REFUSE_NARROW, "narrow", "16- or 64-bit overload");
    static const struct { uint32_t kind; const char *name; } kinds[2] = {
        { 15, "TBuffer" }, { 16, "RTAccelerationStructure" },
    };
    for (unsigned i = 0; i < 2; i++) {
        struct tbuf b = { 0 };
        struct sb_dxbc *container = NULL;
        struct sb_ir_program *ir = NULL;
        struct sb_error err = { 0 };
        CHECK(write_kind(&b, kinds[i].kind), "%s: the writer failed", kinds[i].name);
        enum sb_result r = sb_dxbc_parse(b.data, b.size, &container, &err);
        CHECK(r == SB_SUCCESS, "%s: parse: %s", kinds[i].name, err.message);
        if (r == SB_SUCCESS)
            r = sb_ir_from_dxil(container, &ir, &err);
        CHECK(r == SB_ERROR_TRANSLATE_UNSUPPORTED && strstr(err.message, kinds[i].name),
              "%s: %d '%s'", kinds[i].name, (int)r, err.message);
        sb_ir_program_destroy(ir);
        sb_dxbc_destroy(container);
        tb_free(&b);
    }
}

/* ------------------------------------------------------------------------ */
/* Census: the corpus's uses of this concern's dx.ops                       */
/* ------------------------------------------------------------------------ */

/* The dx.ops of the concern (resource kinds and operations), by opcode. */
static bool concern_op(uint32_t op)
{
    return (op >= 60 && op <= 77) || op == 81 || op == 139 || op == 140 ||
           (op >= 223 && op <= 225) || op == 254 || op == 255 || op == 303 || op == 304;
}

struct op_count {
    uint32_t uses, in_translated, narrow_or_wide, files;
};

struct census {
    struct op_count ops[320];
    uint32_t files, using_files, translated_using_files;
};

/* Whether a dx.op declaration names a 16- or 64-bit overload (".f16", ".i64", ...). */
static bool narrow_or_wide(const char *name)
{
    static const char *const suffixes[] = { ".f16", ".i16", ".f64", ".i64" };
    for (unsigned i = 0; i < 4; i++)
        if (strstr(name, suffixes[i]))
            return true;
    return false;
}

static void census_one(const char *path, const char *relative, void *user)
{
    struct census *c = user;
    size_t size = 0;
    char *bytes = read_file(path, &size);
    struct sb_dxbc *container = NULL;
    struct sb_bc_module *module = NULL;
    struct sb_error err = { 0 };
    (void)relative;
    c->files++;
    const struct sb_dxbc_part *part = NULL;
    if (bytes && sb_dxbc_parse(bytes, size, &container, &err) == SB_SUCCESS)
        part = sb_dxbc_find_part(container, SB_FOURCC('D', 'X', 'I', 'L'));
    if (!part || sb_bc_read_dxil_part(part->data, part->size, part->data_offset, &module,
                                      &err) != SB_SUCCESS) {
        sb_dxbc_destroy(container);
        free(bytes);
        return;
    }
    struct sb_translation *t = NULL;
    bool translated = sb_translate(bytes, size, NULL, &t, &err) == SB_SUCCESS;
    sb_translation_destroy(t);
    bool seen[320] = { false }, any = false;
    for (uint32_t f = 0; f < module->function_count; f++) {
        const struct sb_bc_function *fn = &module->functions[f];
        for (uint32_t i = 0; i < fn->instruction_count; i++) {
            const struct sb_bc_instruction *in = &fn->instructions[i];
            if (in->opcode != SB_BC_OP_CALL || in->operand_count < 2)
                continue;
            const struct sb_bc_function *callee = sb_bc_callee(module, fn, in);
            const struct sb_bc_constant *k = sb_bc_constant_get(module, fn, in->operands[1]);
            if (!callee || !callee->name || strncmp(callee->name, "dx.op.", 6) || !k ||
                k->kind != SB_BC_CONST_INTEGER || k->bits >= 320 || !concern_op((uint32_t)k->bits))
                continue;
            struct op_count *o = &c->ops[k->bits];
            o->uses++;
            o->in_translated += translated;
            o->narrow_or_wide += narrow_or_wide(callee->name);
            if (!seen[k->bits]) {
                seen[k->bits] = true;
                o->files++;
            }
            any = true;
        }
    }
    c->using_files += any;
    c->translated_using_files += any && translated;
    sb_bc_module_destroy(module);
    sb_dxbc_destroy(container);
    free(bytes);
}

/* Prints, per dx.op of the concern, its uses in the corpus, how many sit in files that now
 * translate (spirv-val clean: dxil_front_corpus), and how many are 16/64-bit overloads. */
static int census(const char *corpus)
{
    static struct census c;
    if (corpus_manifest_each(corpus, "dxil", census_one, &c) < 0) {
        printf("SKIPPED: %s/dxil/MANIFEST.tsv not found\n", corpus);
        return 77;
    }
    uint32_t uses = 0, in_translated = 0;
    printf("%-32s %6s %6s %12s %8s\n", "dx.op", "files", "uses", "translated", "16/64b");
    for (uint32_t op = 0; op < 320; op++) {
        const struct op_count *o = &c.ops[op];
        if (!o->uses)
            continue;
        const struct sb_dxil_op_info *info = sb_dxil_op_lookup(op);
        printf("%-32s %6u %6u %12u %8u\n", info && info->name ? info->name : "?", o->files,
               o->uses, o->in_translated, o->narrow_or_wide);
        uses += o->uses;
        in_translated += o->in_translated;
    }
    printf("resops census: %u files, %u use resource ops, %u of them translate; %u uses, %u in "
           "translated files\n", c.files, c.using_files, c.translated_using_files, uses,
           in_translated);
    CHECK(c.using_files > 0, "no file uses a resource op: the census reads nothing");
    return failures ? 1 : 0;
}

int main(int argc, char **argv)
{
    const char *which = argc > 1 ? argv[1] : "all";
    bool all = !strcmp(which, "all");
    if (!strcmp(which, "census"))
        return census(argc > 2 ? argv[2] : "");
    if (all || !strcmp(which, "structured"))
        test_structured();
    if (all || !strcmp(which, "typed"))
        test_typed();
    if (all || !strcmp(which, "texture"))
        test_texture();
    if (all || !strcmp(which, "sampling"))
        test_sampling();
    if (all || !strcmp(which, "kinds"))
        test_kinds();
    if (all || !strcmp(which, "counter"))
        test_counter();
    if (all || !strcmp(which, "refusals"))
        test_refusals();
    if (failures)
        fprintf(stderr, "%u check(s) failed\n", failures);
    return failures ? 1 : 0;
}
