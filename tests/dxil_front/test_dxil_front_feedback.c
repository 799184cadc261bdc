/* SPDX-License-Identifier: MIT */
/*
 * Sampler feedback in the DXIL front end (translator/src/dxil/
 * ir_from_dxil_feedback.c) on the programs of tests/common/
 * dxil_programs_feedback.h: the feedback maps (R32_UINT storage images whose
 * width and height carry log2 of the mip region in their low 4 bits, see
 * translator/README.md "Sampler feedback") after a few writes at known LODs,
 * hand-computed, on the CPU interpreter and, with a Vulkan device (lavapipe),
 * through sb_validate on the GPU, which must agree; the implicit-LOD forms in
 * a pixel shader (GPU against interpreter) and their refusal in a compute
 * shader.
 *
 * Usage: test_dxil_front_feedback level|grad_array|implicit|refusals
 */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dxil_front_harness.h"
#include "dxil_programs_feedback.h"
#include "shaderbridge/interp.h"
#include "shaderbridge/validate.h"

/* Every map here: 18 x 18 texels, 18 & 15 = 2, so 4 x 4 texel regions; the paired
 * texture is 16 x 16 with 5 levels (16, 8, 4, 2, 1): 4 x 4 regions at level 0. */
enum { MAP_SIZE = 18, TEXTURE_SIZE = 16, TEXTURE_LEVELS = 5, NOT_SAMPLED = 0xFF };

/* Word of map texel (x, y) of `slice`. */
static uint32_t at(uint32_t x, uint32_t y, uint32_t slice)
{
    return (slice * MAP_SIZE + y) * MAP_SIZE + x;
}

static struct sb_rt_resource texture(uint32_t cls, uint32_t reg, uint32_t dimension,
                                     enum sb_rt_format format, uint32_t size, uint32_t levels,
                                     uint32_t layers)
{
    struct sb_rt_resource r = { .resource_class = cls, .register_index = reg,
                                .format = format, .dimension = dimension, .width = size,
                                .height = size, .depth = 1, .layers = layers,
                                .mip_levels = levels, .sample_count = 1 };
    r.size = sb_rt_texture_bytes(&r);
    r.data = calloc(1, r.size);
    return r;
}

/* A feedback map u`reg` (SM4 dimension 3 or 8) with every texel `fill`. */
static struct sb_rt_resource map(uint32_t reg, uint32_t dimension, uint32_t layers, uint32_t fill)
{
    struct sb_rt_resource r = texture(SB_IR_RESOURCE_UAV, reg, dimension, SB_RT_FORMAT_R32_UINT,
                                      MAP_SIZE, 1, layers);
    uint32_t *words = r.data;
    for (size_t i = 0; words && i < r.size / 4; i++)
        words[i] = fill;
    return r;
}

static struct sb_rt_resource trilinear_sampler(void)
{
    struct sb_rt_resource s = { .resource_class = SB_IR_RESOURCE_SAMPLER };
    s.sampler = (struct sb_rt_sampler){
        .mag_filter = SB_RT_FILTER_LINEAR, .min_filter = SB_RT_FILTER_LINEAR,
        .mip_filter = SB_RT_FILTER_LINEAR,
        .address = { SB_RT_ADDRESS_CLAMP_TO_EDGE, SB_RT_ADDRESS_CLAMP_TO_EDGE,
                     SB_RT_ADDRESS_CLAMP_TO_EDGE },
        .mip_lod_bias = 0.0f, .min_lod = 0.0f, .max_lod = 16.0f, .compare = false,
        .compare_op = 0, .border_color = { 0.0f, 0.0f, 0.0f, 0.0f }, .max_anisotropy = 0.0f,
    };
    return s;
}

/* The resources of the Texture2D programs: t0 (16 x 16, 5 levels), u0 MinMip (cleared to
 * 0xFF), u1 MipRegionUsed (cleared to 0), s0. */
static void texture2d_resources(struct sb_rt_resource out[4])
{
    out[0] = texture(SB_IR_RESOURCE_SRV, 0, 3, SB_RT_FORMAT_R32_FLOAT, TEXTURE_SIZE,
                     TEXTURE_LEVELS, 1);
    out[1] = map(0, 3, 1, NOT_SAMPLED);
    out[2] = map(1, 3, 1, 0);
    out[3] = trilinear_sampler();
}

/* The expected map u`reg`: `fill` except the listed (word, value) pairs. */
struct expected_map {
    uint32_t reg, words, fill;
    const uint32_t (*set)[2];
    uint32_t set_count;
};

/* The words of u`reg` on one side of a report, NULL when absent or short. */
static const uint32_t *uav_words(const struct sb_rt_inputs *side, uint32_t reg, uint32_t words)
{
    for (uint32_t i = 0; side && i < side->count; i++) {
        const struct sb_rt_resource *r = &side->resources[i];
        if (r->resource_class == SB_IR_RESOURCE_UAV && r->register_index == reg &&
            r->size >= words * 4u)
            return r->data;
    }
    return NULL;
}

static void check_map(const char *name, const char *side_name, const struct sb_rt_inputs *side,
                      const struct expected_map *e)
{
    const uint32_t *got = uav_words(side, e->reg, e->words);
    CHECK(got != NULL, "%s (%s): no u%u", name, side_name, e->reg);
    for (uint32_t i = 0; got && i < e->words; i++) {
        uint32_t want = e->fill;
        for (uint32_t k = 0; k < e->set_count; k++)
            if (e->set[k][0] == i)
                want = e->set[k][1];
        CHECK(got[i] == want, "%s (%s): u%u texel (%u, %u) slice %u = 0x%x, expected 0x%x",
              name, side_name, e->reg, i % MAP_SIZE, i / MAP_SIZE % MAP_SIZE,
              i / (MAP_SIZE * MAP_SIZE), got[i], want);
    }
}

/* A side's u`reg` words that are not `fill` (the pixel shader's writes). */
static uint32_t written(const struct sb_rt_inputs *side, uint32_t reg, uint32_t words,
                        uint32_t fill)
{
    const uint32_t *got = uav_words(side, reg, words);
    uint32_t n = 0;
    for (uint32_t i = 0; got && i < words; i++)
        n += got[i] != fill;
    return n;
}

/* The maps both sides must hold; none: the interpreter must have written some u0 texel. */
struct expected_maps {
    const struct expected_map *maps;
    uint32_t count;
};

static void check_maps(const char *name, const char *side_name, const struct sb_rt_inputs *side,
                       const void *expected)
{
    const struct expected_maps *x = expected;
    for (uint32_t i = 0; i < x->count; i++)
        check_map(name, side_name, side, &x->maps[i]);
    if (x->count == 0 && !strcmp(side_name, "interpreter")) {
        /* Implicit LOD: no hand-computed map; the program must have written. */
        uint32_t n = written(side, 0, MAP_SIZE * MAP_SIZE, NOT_SAMPLED);
        CHECK(n > 0, "%s: the interpreter wrote no u0 texel", name);
        printf("%s: %u u0 texels written on the interpreter\n", name, n);
    }
}

/* Runs the program through sb_validate with `provided` (dxil_front_validate: the GPU too when
 * there is a device, verdict agree), checks the maps on both sides; frees the data. */
static void run(const char *name, bool (*write)(struct tbuf *), struct sb_rt_resource *provided,
                uint32_t provided_count, const struct expected_map *maps, uint32_t map_count)
{
    const struct expected_maps x = { maps, map_count };
    dxil_front_validate(name, write, provided, provided_count, 0, false, check_maps, &x);
    for (uint32_t i = 0; i < provided_count; i++)
        free(provided[i].data);
}

/* Counts the instructions of `op` in the entry. */
static uint32_t ops(const struct sb_ir_program *ir, uint32_t op)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < ir->functions[0].instruction_count; i++)
        n += ir->functions[0].instructions[i].op == op;
    return n;
}

/* The IR: u0 (and u1) typed UAVs of uint, `umin` atomics on u0, `or` atomics on u1, `lod`
 * queries (implicit LOD only). */
static void check_ir(const char *name, bool (*write)(struct tbuf *), uint32_t dimension,
                     uint32_t umin, uint32_t or_count, uint32_t lod)
{
    struct sb_error err;
    struct sb_ir_program *ir = dxil_front_lower(write, &err);
    CHECK(ir != NULL, "%s: %s", name, err.message);
    if (!ir)
        return;
    uint32_t maps = 0;
    for (uint32_t i = 0; i < ir->resource_count; i++) {
        const struct sb_ir_resource *r = &ir->resources[i];
        if (r->resource_class != SB_IR_RESOURCE_UAV)
            continue;
        maps++;
        CHECK(r->kind == SB_IR_RESOURCE_KIND_TYPED && r->dimension == dimension &&
                  r->return_type[0] == 4,
              "%s: u%u kind %u dimension %u return type %u", name, r->id, r->kind,
              r->dimension, r->return_type[0]);
    }
    CHECK(maps == (or_count ? 2u : 1u), "%s: %u feedback maps", name, maps);
    CHECK(ops(ir, SB_IR_OP_ATOMIC_UMIN) == umin && ops(ir, SB_IR_OP_ATOMIC_OR) == or_count,
          "%s: %u atomic_umin, %u atomic_or", name, ops(ir, SB_IR_OP_ATOMIC_UMIN),
          ops(ir, SB_IR_OP_ATOMIC_OR));
    CHECK(ops(ir, SB_IR_OP_LOD) == lod, "%s: %u lod, expected %u", name, ops(ir, SB_IR_OP_LOD),
          lod);
    sb_ir_program_destroy(ir);
}

/*
 * Five WriteSamplerFeedbackLevel calls on each map (u, v, LOD): LOD clamped to [0, 4].
 * MinMip (u0, level-0 regions: texel floor(u * 16) >> 2, at most 3; value floor(LOD)):
 *   (0.1, 0.1) 2   -> (0, 0) = 2;  (0.1, 0.1) 1.5 -> (0, 0) = min(2, 1) = 1;
 *   (0.9, 0.3) 3.7 -> (14 >> 2, 4 >> 2) = (3, 1) = 3;  (0.6, 0.6) -1 -> (2, 2) = 0;
 *   (1.5, 0.55) 9 -> LOD 4, (min(24 >> 2, 3), 8 >> 2) = (3, 2) = 4.
 * MipRegionUsed (u1, bit l at the region of level l, width 16 >> l, for l = floor and ceil):
 *   2 -> level 2 (4 wide): (0, 0) |= 4;  1.5 -> levels 1 and 2: (0, 0) |= 2 | 4;
 *   3.7 -> levels 3 (floor(1.8) >> 2 = 0) and 4: (0, 0) |= 8 | 16;  -1 -> level 0: (2, 2) |= 1;
 *   9 -> level 4: (0, 0) |= 16.  So (0, 0) = 0x1E, (2, 2) = 1, the rest 0.
 */
static void test_level(void)
{
    check_ir("level", dxil_program_feedback_level, 3, 5, 10, 0);
    const uint32_t min_mip[4][2] = { { at(0, 0, 0), 1 }, { at(3, 1, 0), 3 }, { at(2, 2, 0), 0 },
                               { at(3, 2, 0), 4 } };
    const uint32_t used[2][2] = { { at(0, 0, 0), 0x1E }, { at(2, 2, 0), 1 } };
    const struct expected_map maps[2] = {
        { 0, MAP_SIZE * MAP_SIZE, NOT_SAMPLED, min_mip, 4 },
        { 1, MAP_SIZE * MAP_SIZE, 0, used, 2 },
    };
    struct sb_rt_resource provided[4];
    texture2d_resources(provided);
    run("level", dxil_program_feedback_level, provided, 4, maps, 2);
}

/*
 * Texture2DArray, 2 slices; u0 MinMip, 18 x 18 x 2. Grad LOD = 0.5 log2 max(|ddx * 16|^2,
 * |ddy * 16|^2):
 *   (0.3, 0.7, 1.4) ddx (0.3, 0) ddy (0, 0.0625): max(23.04, 1), LOD 2.26 -> 2, slice
 *     round(1.4) = 1, texel (4 >> 2, 11 >> 2) = (1, 2): slice 1 (1, 2) = 2;
 *   (0.3, 0.7, 0.5) ddx (0.5, 0.5) ddy 0, clamp 1: 128, LOD 3.5 -> 3, slice round-even(0.5)
 *     = 0: slice 0 (1, 2) = 3;
 *   (0.05, 0.05, 7) ddx (0.01, 0) ddy (0, 0.01), clamp 2.5: LOD -2.6 -> 2.5 -> 2, slice
 *     min(7, 1) = 1: slice 1 (0, 0) = 2;
 *   Level (0.99, 0.99, 0) LOD 0: texel (15 >> 2, 15 >> 2): slice 0 (3, 3) = 0.
 */
static void test_grad_array(void)
{
    check_ir("grad_array", dxil_program_feedback_grad_array, 8, 4, 0, 0);
    const uint32_t set[4][2] = { { at(1, 2, 1), 2 }, { at(1, 2, 0), 3 }, { at(0, 0, 1), 2 },
                           { at(3, 3, 0), 0 } };
    const struct expected_map expected = { 0, 2 * MAP_SIZE * MAP_SIZE, NOT_SAMPLED,
                                           set, 4 };
    struct sb_rt_resource provided[3] = {
        texture(SB_IR_RESOURCE_SRV, 0, 8, SB_RT_FORMAT_R32_FLOAT, TEXTURE_SIZE, TEXTURE_LEVELS, 2),
        map(0, 8, 2, NOT_SAMPLED),
        trilinear_sampler(),
    };
    run("grad_array", dxil_program_feedback_grad_array, provided, 3, &expected, 1);
}

/* WriteSamplerFeedback and -Bias in a pixel shader over sb_validate's seeded inputs: the
 * interpreter writes u0 and the GPU agrees (no hand-computed map: the LODs come from the
 * seeded interpolants' derivatives). */
static void test_implicit(void)
{
    check_ir("implicit", dxil_program_feedback_implicit, 3, 1, 2, 2);
    struct sb_rt_resource provided[4];
    texture2d_resources(provided);
    run("implicit", dxil_program_feedback_implicit, provided, 4, NULL, 0);
}

/* The implicit-LOD writes in a compute shader refuse: SB_ERROR_TRANSLATE_UNSUPPORTED, the
 * op named, a byte offset. */
static void test_refusals(void)
{
    struct sb_error err;
    struct sb_ir_program *ir = dxil_front_lower(dxil_program_feedback_implicit_cs, &err);
    CHECK(ir == NULL && err.code == SB_ERROR_TRANSLATE_UNSUPPORTED,
          "implicit_cs: lowered or code %d", (int)err.code);
    CHECK(strstr(err.message, "WriteSamplerFeedback outside a pixel shader") != NULL,
          "implicit_cs: message '%s'", err.message);
    CHECK(err.offset > 0, "implicit_cs: no byte offset");
    sb_ir_program_destroy(ir);
}

int main(int argc, char **argv)
{
    const char *which = argc > 1 ? argv[1] : "all";
    bool all = !strcmp(which, "all"), known = false;
    static const struct {
        const char *name;
        void (*run)(void);
    } cases[] = { { "level", test_level }, { "grad_array", test_grad_array },
                  { "implicit", test_implicit }, { "refusals", test_refusals } };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
        if (all || !strcmp(which, cases[i].name)) {
            cases[i].run();
            known = true;
        }
    CHECK(known, "no case '%s'", which);
    if (failures)
        fprintf(stderr, "%u of %u checks failed\n", failures, checks);
    return failures ? 1 : 0;
}
