/* SPDX-License-Identifier: MIT */
/*
 * The interpreter's wave size as a run parameter (sb_interp_options::wave_lanes) and the
 * device's wave size in validation (runtime/src/validate/validate_waves.c):
 *   known answers at 8, 32 and 64 lanes on one thread group of 44 threads, so each size ends
 *   in a partial wave (8: five waves of 8 and one of 4; 32: one of 32 and one of 12; 64: one of
 *   44): WaveActiveSum, exclusive WavePrefixSum, WaveActiveBallot (both words past 32 lanes),
 *   WaveReadLaneAt, WaveGetLaneCount; a size the interpreter has no waves of refused; pixel
 *   waves at 8 and 32 lanes, with a helper lane's vCoverage (0) read across the quad;
 *   with --gpu the program pinned to the device's subgroup size (a required wave size, as
 *   DXIL [WaveSize(N)]) run on the device and compared with the interpreter at that size;
 *   with --validate CORPUS_DIR (the DXIL corpus) sb_validate on wave-size-dependent corpus
 *   programs: agree where the device runs the required size, not-run with the reason where it
 *   cannot, or where its subgroups lack the stage (exit 77 without a device or corpus).
 * Inputs per thread t (pica_ir harness: r0 = (t % 3 == 0, t, 100 + t, 0)).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../pica_ir/pica_ir_harness.h"
#include "check.h"
#include "shaderbridge/interp.h"
#include "shaderbridge/runtime.h"
#include "shaderbridge/translate.h"
#include "shaderbridge/validate.h"

#define THREADS 64u /* one group's buffers; the group runs GROUP of them */
#define GROUP 44u

static struct pb b;
static struct pb_uniforms uniforms;
static uint32_t in[THREADS * 12], out[THREADS * 4];

static void fill_inputs(void)
{
    memset(in, 0, sizeof(in));
    for (uint32_t t = 0; t < THREADS; t++) {
        in[t * 12 + 0] = t % 3 == 0;
        in[t * 12 + 1] = t;
        in[t * 12 + 2] = 100 + t;
    }
}

static void wave(uint32_t op, uint32_t wave_op, uint32_t mask, const struct sb_ir_operand *s0,
                 const struct sb_ir_operand *s1)
{
    struct sb_ir_operand d = pb_rd(3, mask);
    uint32_t n = s1 ? 2 : s0 ? 1 : 0;
    pb_emit(&b, op, 0, &d, n, s0, s1, NULL)->wave_op = wave_op;
}

/* r3 = (WaveActiveSum(t), WavePrefixSum(t), WaveActiveBallot(t % 3 == 0).x, ReadLaneAt(100 + t, 5)). */
static void build_reductions(void)
{
    pb_begin_compute(&b, 0);
    b.program.source = SB_IR_SOURCE_SM4;
    struct sb_ir_operand x = pb_r(0, "x"), y = pb_r(0, "y"), z = pb_r(0, "z"), five = pb_imm4(5, 5, 5, 5);
    wave(SB_IR_OP_WAVE_ACTIVE_UINT, SB_IR_WAVE_SUM, 1, &y, NULL);
    wave(SB_IR_OP_WAVE_PREFIX_INT, SB_IR_WAVE_SUM, 2, &y, NULL);
    struct sb_ir_operand r4 = pb_rd(4, 1), bits = pb_r(4, "x"), r3z = pb_rd(3, 4);
    pb_emit(&b, SB_IR_OP_WAVE_BALLOT, 0, &r4, 1, &x, NULL, NULL); /* the x word, into r3.z */
    pb_emit(&b, SB_IR_OP_MOV, 0, &r3z, 1, &bits, NULL, NULL);
    wave(SB_IR_OP_WAVE_READ_LANE_AT, 0, 8, &z, &five);
    pb_end_compute(&b);
    b.program.thread_group[0] = GROUP;
}

/* r3 = (WaveActiveBallot(t % 3 == 0).xy, WaveGetLaneCount(), WaveGetLaneIndex()). */
static void build_ballot(void)
{
    pb_begin_compute(&b, 0);
    b.program.source = SB_IR_SOURCE_SM4;
    struct sb_ir_operand x = pb_r(0, "x");
    wave(SB_IR_OP_WAVE_BALLOT, 0, 3, &x, NULL);
    wave(SB_IR_OP_WAVE_LANE_COUNT, 0, 4, NULL, NULL);
    wave(SB_IR_OP_WAVE_LANE_INDEX, 0, 8, NULL, NULL);
    pb_end_compute(&b);
    b.program.thread_group[0] = GROUP;
}

static bool run_at(uint32_t lanes)
{
    struct sb_interp_options o = { .wave_lanes = lanes };
    return pb_run_interp_with(&b, &uniforms, in, THREADS, out, &o);
}

#define AT(t, c) out[(t) * 4 + (c)]

static void eight_lanes(void)
{
    build_reductions();
    if (!run_at(8)) {
        CHECK(false, "8 lanes did not run");
        return;
    }
    /* waves [0,8) [8,16) [16,24) [24,32) [32,40) and the partial [40,44) */
    CHECK(AT(0, 0) == 28 && AT(13, 0) == 92 && AT(39, 0) == 284 && AT(41, 0) == 166, "sum %u %u %u %u",
          AT(0, 0), AT(13, 0), AT(39, 0), AT(41, 0));
    /* exclusive: t 5 -> 0+..+4, 13 -> 8+..+12, 41 -> 40, 43 -> 40+41+42 */
    CHECK(AT(5, 1) == 10 && AT(13, 1) == 50 && AT(8, 1) == 0 && AT(41, 1) == 40 && AT(43, 1) == 123,
          "prefix %u %u %u %u %u", AT(5, 1), AT(13, 1), AT(8, 1), AT(41, 1), AT(43, 1));
    /* t % 3 == 0: {0, 3, 6} -> 0x49, {9, 12, 15} -> 0x92, {18, 21} -> 0x24, {42} -> lane 2 */
    CHECK(AT(1, 2) == 0x49 && AT(9, 2) == 0x92 && AT(20, 2) == 0x24 && AT(43, 2) == 0x4,
          "ballot %x %x %x %x", AT(1, 2), AT(9, 2), AT(20, 2), AT(43, 2));
    /* lane 5 of each wave; the partial wave has no lane 5 (the interpreter reads 0) */
    CHECK(AT(0, 3) == 105 && AT(15, 3) == 113 && AT(39, 3) == 137 && AT(40, 3) == 0, "read lane %u %u %u %u",
          AT(0, 3), AT(15, 3), AT(39, 3), AT(40, 3));
    CHECK(AT(44, 0) == 0 && AT(63, 3) == 0, "threads past the group are not run");
    build_ballot();
    if (!run_at(8)) {
        CHECK(false, "8-lane ballot did not run");
        return;
    }
    CHECK(AT(3, 0) == 0x49 && AT(3, 1) == 0 && AT(3, 2) == 8 && AT(3, 3) == 3 && AT(42, 3) == 2,
          "ballot %x %x, count %u, index %u %u", AT(3, 0), AT(3, 1), AT(3, 2), AT(3, 3), AT(42, 3));
}

static void thirty_two_lanes(void)
{
    build_reductions();
    for (uint32_t pass = 0; pass < 2; pass++) { /* 0 lanes: the default, 32 */
        if (!run_at(pass ? 32 : 0)) {
            CHECK(false, "32 lanes did not run");
            return;
        }
        /* waves [0,32) and [32,44) */
        CHECK(AT(0, 0) == 496 && AT(31, 0) == 496 && AT(32, 0) == 450 && AT(43, 0) == 450, "sum %u %u",
              AT(0, 0), AT(43, 0));
        CHECK(AT(5, 1) == 10 && AT(13, 1) == 78 && AT(33, 1) == 32 && AT(41, 1) == 324 && AT(43, 1) == 407,
              "prefix %u %u %u %u %u", AT(5, 1), AT(13, 1), AT(33, 1), AT(41, 1), AT(43, 1));
        /* {0, 3, ..., 30}: every third bit from 0; {33, 36, 39, 42}: lanes 1, 4, 7, 10 */
        CHECK(AT(7, 2) == 0x49249249u && AT(40, 2) == 0x492, "ballot %x %x", AT(7, 2), AT(40, 2));
        CHECK(AT(20, 3) == 105 && AT(43, 3) == 137, "read lane %u %u", AT(20, 3), AT(43, 3));
    }
}

static void sixty_four_lanes(void)
{
    build_ballot();
    if (!run_at(64)) {
        CHECK(false, "64 lanes did not run");
        return;
    }
    /* one wave of 44 lanes: lanes 32-43 in the second word; lane count is the wave size */
    CHECK(AT(0, 0) == 0x49249249u && AT(0, 1) == 0x492 && AT(43, 1) == 0x492, "ballot %x %x", AT(0, 0),
          AT(0, 1));
    CHECK(AT(10, 2) == 64 && AT(43, 3) == 43, "count %u index %u", AT(10, 2), AT(43, 3));
    build_reductions();
    CHECK(run_at(64) && AT(43, 0) == 946 && AT(43, 1) == 903, "sum %u prefix %u", AT(43, 0), AT(43, 1));
    struct sb_interp_options o = { .wave_lanes = 12 };
    CHECK(!pb_run_interp_with(&b, &uniforms, in, THREADS, out, &o), "12 lanes are no wave size");
}

/* Pixels (each its own quad, three helpers; runtime/src/interp/interp_graphics.c) at 8 and 32
 * lanes: o0 = (vCoverage, vCoverage of the quad's x neighbour, WaveActiveCountBits(1),
 * WaveGetLaneCount()). A helper covers no sample, so the neighbour, always a helper, reads 0;
 * a wave holds lanes / 4 quads, so lanes / 4 pixels that are not helpers. */
static void pixel_test(void)
{
    memset(&b, 0, sizeof(b));
    struct sb_ir_program *p = &b.program;
    p->source = SB_IR_SOURCE_SM4;
    p->stage = SB_IR_STAGE_PIXEL;
    p->temp_count = 1;
    b.signature[0] = (struct sb_ir_signature_element){ .kind = SB_IR_SIGNATURE_OUTPUT, .semantic = "SV_Target",
                                                       .file = SB_IR_FILE_OUTPUT, .mask = 0xF, .used_mask = 0xF,
                                                       .component_type = SB_IR_TYPE_UINT };
    p->signature = b.signature;
    p->signature_count = 1;
    struct sb_ir_operand cov = pb_reg(SB_IR_FILE_COVERAGE_IN, 0, "x"), one = pb_imm4(1, 1, 1, 1);
    struct sb_ir_operand o[4] = { pb_dst(SB_IR_FILE_OUTPUT, 0, 1), pb_dst(SB_IR_FILE_OUTPUT, 0, 2),
                                  pb_dst(SB_IR_FILE_OUTPUT, 0, 4), pb_dst(SB_IR_FILE_OUTPUT, 0, 8) };
    pb_emit(&b, SB_IR_OP_MOV, 0, &o[0], 1, &cov, NULL, NULL);
    pb_emit(&b, SB_IR_OP_QUAD_READ_ACROSS_X, 0, &o[1], 1, &cov, NULL, NULL);
    pb_emit(&b, SB_IR_OP_WAVE_ACTIVE_COUNT_BITS, 0, &o[2], 1, &one, NULL, NULL);
    pb_emit(&b, SB_IR_OP_WAVE_LANE_COUNT, 0, &o[3], 0, NULL, NULL, NULL);
    b.functions[0] = (struct sb_ir_function){ .id = 0xFFFFFFFFu, .instruction_count = b.count[0],
                                              .instructions = b.instructions[0], .temp_count = 1 };
    p->functions = b.functions;
    p->function_count = 1;
    enum { PIXELS = 12 };
    float positions[PIXELS * 4];
    for (uint32_t i = 0; i < PIXELS; i++) {
        positions[i * 4] = (float)i + 0.5f;
        positions[i * 4 + 1] = 0.5f;
        positions[i * 4 + 2] = positions[i * 4 + 3] = 1.0f;
    }
    for (uint32_t lanes = 8; lanes <= 32; lanes += 24) {
        uint32_t inputs[PIXELS * 4] = { 0 }, outputs[PIXELS * 4] = { 0 };
        struct sb_interp_registers in_regs = { 1, inputs }, out_regs = { 1, outputs };
        struct sb_interp_options opt = { .wave_lanes = lanes };
        struct sb_error err = { 0 };
        enum sb_result r = sb_interp_run_pixels(p, NULL, 0, PIXELS, positions, &in_regs, &out_regs, NULL, &opt,
                                                NULL, &err);
        CHECK(r == SB_SUCCESS, "pixel run at %u lanes: %s", lanes, err.message);
        /* one sample: coverage 1; 12 pixels: waves of 2 (8 lanes) or 8 then 4 (32 lanes) */
        CHECK(outputs[0] == 1 && outputs[5 * 4] == 1 && outputs[1] == 0 && outputs[5 * 4 + 1] == 0,
              "coverage %u %u, helper's %u %u", outputs[0], outputs[20], outputs[1], outputs[21]);
        CHECK(outputs[2] == lanes / 4 && outputs[11 * 4 + 2] == (lanes == 8 ? 2u : 4u) &&
                  outputs[11 * 4 + 3] == lanes, "%u lanes: count %u %u, lane count %u", lanes, outputs[2],
              outputs[46], outputs[47]);
    }
}

/* --gpu: the reductions pinned to the device's subgroup size on both sides. */
static int gpu_test(void)
{
    struct sb_rt_context *c = NULL;
    struct sb_rt_context_options co = { .allow_cpu_only = true };
    struct sb_error err = { 0 };
    if (sb_rt_context_create(&co, &c, &err) != SB_SUCCESS || !sb_rt_context_has_device(c)) {
        sb_rt_context_destroy(c);
        printf("SKIPPED: no Vulkan device\n");
        return 77;
    }
    uint32_t lanes = 0;
    CHECK(sb_rt_context_wave_size(c, SB_IR_STAGE_COMPUTE, 0, 0, 0, &lanes, &err) == SB_SUCCESS && lanes >= 4,
          "device wave size %u: %s", lanes, err.message);
    /* 256 exceeds every device's subgroups */
    uint32_t none = 0;
    CHECK(sb_rt_context_wave_size(c, SB_IR_STAGE_COMPUTE, 128, 128, 0, &none, &err) != SB_SUCCESS || lanes == 128,
          "wave size 128 on a device of %u", lanes);
    sb_rt_context_destroy(c);
    build_reductions();
    b.program.wave_size_min = b.program.wave_size_max = b.program.wave_size_preferred = lanes;
    static uint32_t gpu[THREADS * 4];
    bool skipped = false;
    bool ran = run_at(lanes) && pb_run_gpu(&b, &uniforms, in, THREADS, gpu, &skipped);
    pb_gpu_shutdown();
    CHECK(ran, "runs at %u lanes", lanes);
    uint32_t partial = GROUP / lanes * lanes; /* ReadLaneAt past a partial wave's end is undefined */
    for (uint32_t t = 0; ran && t < THREADS; t++)
        CHECK(!memcmp(&gpu[t * 4], &out[t * 4], t >= partial && 5 >= GROUP - partial ? 12 : 16),
              "thread %u at %u lanes: device %u %u %x %u, interpreter %u %u %x %u", t, lanes, gpu[t * 4],
              gpu[t * 4 + 1], gpu[t * 4 + 2], gpu[t * 4 + 3], AT(t, 0), AT(t, 1), AT(t, 2), AT(t, 3));
    return 0;
}

/* --validate DIR: corpus programs whose results depend on the wave size. */
static int validate_test(const char *dir)
{
    static const struct {
        const char *file;
        enum sb_result result; /* SB_SUCCESS: the verdict must be agree */
        const char *reason;
    } rows[] = {
        { "vkd3d-proton/sm_advanced__cs_wave_size_range_8_16_code_dxil.dxil", SB_SUCCESS, NULL },
        { "vkd3d-proton/sm_advanced__cs_wave_match_code_dxil.dxil", SB_SUCCESS, NULL },
        { "vkd3d-proton/sm_advanced__cs_wave_multi_prefix_code_dxil.dxil", SB_SUCCESS, NULL },
        { "vkd3d-proton/sm_advanced__cs_wave_size_wave32_code_dxil.dxil", SB_ERROR_RUN_UNSUPPORTED,
          "cannot run wave size 32" },
        /* wave ops in a vertex shader: lavapipe's subgroups cover fragment and compute only (llvmpipe
         * aborted compiling it before the runtime refused it) */
        { "vkd3d-proton/sm_advanced__vs_instance_input_nonuniform_workarounds_code_dxil.dxil",
          SB_ERROR_RUN_UNSUPPORTED, "in a stage whose subgroup operations" },
    };
    struct sb_rt_context *c = NULL;
    struct sb_rt_context_options co = { .allow_cpu_only = true };
    struct sb_error err = { 0 };
    if (sb_rt_context_create(&co, &c, &err) != SB_SUCCESS || !sb_rt_context_has_device(c)) {
        sb_rt_context_destroy(c);
        printf("SKIPPED: no Vulkan device\n");
        return 77;
    }
    uint32_t lanes = 0;
    sb_rt_context_wave_size(c, SB_IR_STAGE_COMPUTE, 0, 0, 0, &lanes, &err);
    int ran = 0;
    for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
        char path[1024];
        snprintf(path, sizeof(path), "%s/%s", dir, rows[i].file);
        FILE *f = fopen(path, "rb");
        if (!f)
            continue;
        static unsigned char bytes[1 << 16];
        size_t size = fread(bytes, 1, sizeof(bytes), f);
        fclose(f);
        struct sb_rt_program *p = NULL;
        struct sb_validate_report *report = NULL;
        CHECK(sb_rt_program_load(bytes, size, NULL, &p, &err) == SB_SUCCESS, "%s: load: %s", rows[i].file,
              err.message);
        enum sb_result r = p ? sb_validate(c, p, NULL, &report, &err) : SB_ERROR_INVALID_ARGUMENT;
        if (lanes == 8) /* lavapipe's one size: the answers above hold for it */
            CHECK(r == rows[i].result && (r != SB_SUCCESS || report->verdict == SB_VALIDATE_AGREE) &&
                      (!rows[i].reason || strstr(err.message, rows[i].reason)),
                  "%s: result %d verdict %s: %s", rows[i].file, (int)r,
                  report ? sb_validate_verdict_name(report->verdict) : "-", err.message);
        else /* another device may run any of them: whatever runs must agree */
            CHECK(r != SB_SUCCESS || report->verdict == SB_VALIDATE_AGREE, "%s: verdict %s", rows[i].file,
                  report ? sb_validate_verdict_name(report->verdict) : "-");
        sb_validate_report_destroy(report);
        sb_rt_program_destroy(p);
        ran++;
    }
    sb_rt_context_destroy(c);
    if (!ran) {
        printf("SKIPPED: no corpus at %s\n", dir);
        return 77;
    }
    return 0;
}

int main(int argc, char **argv)
{
    fill_inputs();
    int code = 0;
    if (argc > 1 && !strcmp(argv[1], "--gpu"))
        code = gpu_test();
    else if (argc > 2 && !strcmp(argv[1], "--validate"))
        code = validate_test(argv[2]);
    else {
        eight_lanes();
        thirty_two_lanes();
        sixty_four_lanes();
        pixel_test();
    }
    if (code == 77)
        return 77;
    printf("%u checks, %u failure(s)\n", checks, failures);
    return failures ? 1 : 0;
}
