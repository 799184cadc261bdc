/* SPDX-License-Identifier: MIT */
/*
 * Wave and quad ops of the IR (translator/IR.md §Waves), with compute programs built in C
 * through the PICA IR harness (tests/pica_ir/pica_ir_harness.h: 64 threads a group, r0-r2
 * the thread's input vectors, r3 stored), marked as SM4 programs:
 *   known answers on the interpreter (waves of SB_INTERP_WAVE_SIZE = 32 lanes) under
 *   divergent flow: ballot, prefix sum, read lane, all-equal, counts, first lane, min, quad
 *   swap, any/all, float sum, or; every value below worked out by hand;
 *   the back end: spirv-val clean for Vulkan 1.1, each GroupNonUniform* capability present
 *   only where an op needs it, a Vulkan 1.0 target refused, the validator and printer;
 *   with --gpu a program whose answers do not depend on the wave size run on the device and
 *   compared word for word with the interpreter (exit 77 without a device);
 *   the wave size as a run parameter (sb_interp_options::wave_lanes, its section below): known
 *   answers at 8, 32 and 64 lanes; --gpu-sizes and --validate DIR run a wave-size-dependent
 *   program and corpus files on the device at its own subgroup size.
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

#define THREADS 128u /* two groups of 64: two waves each */

static struct pb b;
static struct pb_uniforms uniforms;
static uint32_t in[THREADS * 12], out[THREADS * 4];

/* Thread t: r0 = (t % 3 == 0, t, 100 + t, t >> 5), r1 = (0.5, 0, 0, 0). */
static void fill_inputs(void)
{
    memset(in, 0, sizeof(in));
    for (uint32_t t = 0; t < THREADS; t++) {
        in[t * 12 + 0] = t % 3 == 0;
        in[t * 12 + 1] = t;
        in[t * 12 + 2] = 100 + t;
        in[t * 12 + 3] = t >> 5;
        in[t * 12 + 4] = 0x3F000000u; /* 0.5f */
    }
}

static void begin(void)
{
    pb_begin_compute(&b, 0);
    b.program.source = SB_IR_SOURCE_SM4;
    struct sb_ir_operand d = pb_rd(3, 0xF), zero = pb_imm4(0, 0, 0, 0);
    pb_emit(&b, SB_IR_OP_MOV, 0, &d, 1, &zero, NULL, NULL);
}

/* r3.<lane> <- op(src0[, src1]) with the given wave_op. */
static void wave(uint32_t op, uint32_t wave_op, uint32_t lane, const struct sb_ir_operand *s0,
                 const struct sb_ir_operand *s1)
{
    struct sb_ir_operand d = pb_rd(3, 1u << lane);
    uint32_t n = s1 ? 2 : s0 ? 1 : 0;
    pb_emit(&b, op, 0, &d, n, s0, s1, NULL)->wave_op = wave_op;
}

static void emit_if(uint32_t op, const struct sb_ir_operand *a, const struct sb_ir_operand *c)
{
    struct sb_ir_operand d = pb_rd(4, 1);
    pb_emit(&b, op, 0, &d, 2, a, c, NULL);
    struct sb_ir_operand cond = pb_r(4, "x");
    pb_emit(&b, SB_IR_OP_IF, SB_IR_FLAG_TEST_NZ, NULL, 1, &cond, NULL, NULL);
}

static bool run(void)
{
    pb_end_compute(&b);
    struct sb_error err = { 0 };
    if (sb_ir_validate(&b.program, &err) != SB_SUCCESS) {
        fprintf(stderr, "IR validator: %s\n", err.message);
        return false;
    }
    return pb_run_interp(&b, &uniforms, in, THREADS, out);
}

/* Odd threads: ballot, prefix sum, read lane 5, all-equal; even threads: counts, first. */
static void divergent_test(void)
{
    begin();
    struct sb_ir_operand x = pb_r(0, "x"), y = pb_r(0, "y"), z = pb_r(0, "z"), w = pb_r(0, "w");
    struct sb_ir_operand one = pb_imm4(1, 1, 1, 1), five = pb_imm4(5, 5, 5, 5);
    emit_if(SB_IR_OP_AND, &y, &one);
    wave(SB_IR_OP_WAVE_BALLOT, 0, 0, &x, NULL);
    wave(SB_IR_OP_WAVE_PREFIX_INT, SB_IR_WAVE_SUM, 1, &y, NULL);
    wave(SB_IR_OP_WAVE_READ_LANE_AT, 0, 2, &z, &five);
    wave(SB_IR_OP_WAVE_ALL_EQUAL, 0, 3, &w, NULL);
    pb_emit(&b, SB_IR_OP_ELSE, 0, NULL, 0, NULL, NULL, NULL);
    wave(SB_IR_OP_WAVE_ACTIVE_COUNT_BITS, 0, 0, &x, NULL);
    wave(SB_IR_OP_WAVE_PREFIX_COUNT_BITS, 0, 1, &x, NULL);
    wave(SB_IR_OP_WAVE_READ_LANE_FIRST, 0, 2, &z, NULL);
    wave(SB_IR_OP_WAVE_LANE_INDEX, 0, 3, NULL, NULL);
    pb_emit(&b, SB_IR_OP_ENDIF, 0, NULL, 0, NULL, NULL, NULL);
    if (!run()) {
        CHECK(false, "divergent program did not run");
        return;
    }
    /* odd lanes with t % 3 == 0: wave 0 {3, 9, 15, 21, 27}, wave 1 (t - 32) {1, 7, 13, 19, 25, 31} */
    CHECK(out[1 * 4 + 0] == 0x08208208u, "ballot wave 0 = 0x%08x", out[1 * 4 + 0]);
    CHECK(out[63 * 4 + 0] == 0x82082082u, "ballot wave 1 = 0x%08x", out[63 * 4 + 0]);
    CHECK(out[65 * 4 + 0] == 0x20820820u, "ballot group 1 wave 0 = 0x%08x", out[65 * 4 + 0]);
    /* exclusive sums of the lower odd t: 1 -> 0, 3 -> 1, 5 -> 1 + 3, 31 -> 15^2; 35 -> 33, 63 -> 33 + ... + 61 */
    CHECK(out[1 * 4 + 1] == 0, "prefix t=1 %u", out[1 * 4 + 1]);
    CHECK(out[3 * 4 + 1] == 1, "prefix t=3 %u", out[3 * 4 + 1]);
    CHECK(out[5 * 4 + 1] == 4, "prefix t=5 %u", out[5 * 4 + 1]);
    CHECK(out[31 * 4 + 1] == 225, "prefix t=31 %u", out[31 * 4 + 1]);
    CHECK(out[33 * 4 + 1] == 0, "prefix t=33 %u", out[33 * 4 + 1]);
    CHECK(out[35 * 4 + 1] == 33, "prefix t=35 %u", out[35 * 4 + 1]);
    CHECK(out[63 * 4 + 1] == 705, "prefix t=63 %u", out[63 * 4 + 1]);
    CHECK(out[97 * 4 + 1] == 0, "prefix t=97 (first odd lane of its wave) %u", out[97 * 4 + 1]);
    /* lane 5 of each wave: 100 + 5, 100 + 37 */
    CHECK(out[7 * 4 + 2] == 105 && out[33 * 4 + 2] == 137, "read lane 5: %u %u", out[7 * 4 + 2], out[33 * 4 + 2]);
    CHECK(out[9 * 4 + 3] == 0xFFFFFFFFu && out[41 * 4 + 3] == 0xFFFFFFFFu, "all equal t >> 5");
    /* even lanes with t % 3 == 0: wave 0 {0, 6, 12, 18, 24, 30}: 6; wave 1 {36, 42, 48, 54, 60}: 5 */
    CHECK(out[0 * 4 + 0] == 6 && out[62 * 4 + 0] == 5, "count bits %u %u", out[0], out[62 * 4]);
    CHECK(out[0 * 4 + 1] == 0 && out[2 * 4 + 1] == 1 && out[30 * 4 + 1] == 5 && out[32 * 4 + 1] == 0 &&
          out[38 * 4 + 1] == 1, "prefix count bits %u %u %u %u %u", out[1], out[9], out[121], out[129], out[153]);
    CHECK(out[10 * 4 + 2] == 100 && out[40 * 4 + 2] == 132, "read first %u %u", out[42], out[162]);
    CHECK(out[34 * 4 + 3] == 2 && out[126 * 4 + 3] == 30, "lane index %u %u", out[139], out[507]);
}

/* All threads: signed min, quad swap across x, first lane, lane count. */
static void uniform_test(void)
{
    begin();
    struct sb_ir_operand y = pb_r(0, "y"), z = pb_r(0, "z"), k40 = pb_imm4(40, 40, 40, 40);
    struct sb_ir_operand d = pb_rd(4, 1), v = pb_r(4, "x"), neg = pb_neg(k40);
    pb_emit(&b, SB_IR_OP_IADD, 0, &d, 2, &y, &neg, NULL);
    wave(SB_IR_OP_WAVE_ACTIVE_INT, SB_IR_WAVE_MIN, 0, &v, NULL);
    wave(SB_IR_OP_QUAD_READ_ACROSS_X, 0, 1, &z, NULL);
    wave(SB_IR_OP_WAVE_IS_FIRST_LANE, 0, 2, NULL, NULL);
    wave(SB_IR_OP_WAVE_LANE_COUNT, 0, 3, NULL, NULL);
    if (!run()) {
        CHECK(false, "uniform program did not run");
        return;
    }
    CHECK(out[5 * 4] == (uint32_t)-40 && out[40 * 4] == (uint32_t)-8 && out[100 * 4] == 56,
          "imin %d %d %d", (int)out[20], (int)out[160], (int)out[400]);
    CHECK(out[6 * 4 + 1] == 107 && out[7 * 4 + 1] == 106 && out[65 * 4 + 1] == 164, "quad x %u %u %u", out[25],
          out[29], out[261]);
    CHECK(out[0 * 4 + 2] == 0xFFFFFFFFu && out[32 * 4 + 2] == 0xFFFFFFFFu && out[64 * 4 + 2] == 0xFFFFFFFFu &&
          out[1 * 4 + 2] == 0 && out[33 * 4 + 2] == 0, "first lane");
    CHECK(out[17 * 4 + 3] == 32, "lane count %u", out[71]);
}

/* Threads t % 64 < 40 only: any, all, float sum, or (wave 1 has lanes 32-39). */
static void partial_test(void)
{
    begin();
    struct sb_ir_operand y = pb_r(0, "y"), half = pb_r(1, "x"), k63 = pb_imm4(63, 63, 63, 63);
    struct sb_ir_operand k40 = pb_imm4(40, 40, 40, 40), k35 = pb_imm4(35, 35, 35, 35), k36 = pb_imm4(36, 36, 36, 36);
    struct sb_ir_operand d5 = pb_rd(5, 1), local = pb_r(5, "x");
    pb_emit(&b, SB_IR_OP_AND, 0, &d5, 2, &y, &k63, NULL);
    emit_if(SB_IR_OP_ULT, &local, &k40);
    struct sb_ir_operand d6 = pb_rd(6, 1), r6 = pb_r(6, "x");
    pb_emit(&b, SB_IR_OP_IEQ, 0, &d6, 2, &local, &k35, NULL);
    wave(SB_IR_OP_WAVE_ANY_TRUE, 0, 0, &r6, NULL);
    pb_emit(&b, SB_IR_OP_ULT, 0, &d6, 2, &local, &k36, NULL);
    wave(SB_IR_OP_WAVE_ALL_TRUE, 0, 1, &r6, NULL);
    wave(SB_IR_OP_WAVE_ACTIVE_FLOAT, SB_IR_WAVE_SUM, 2, &half, NULL);
    wave(SB_IR_OP_WAVE_ACTIVE_UINT, SB_IR_WAVE_OR, 3, &local, NULL);
    pb_emit(&b, SB_IR_OP_ENDIF, 0, NULL, 0, NULL, NULL, NULL);
    if (!run()) {
        CHECK(false, "partial program did not run");
        return;
    }
    CHECK(out[3 * 4 + 0] == 0 && out[33 * 4 + 0] == 0xFFFFFFFFu && out[99 * 4 + 0] == 0xFFFFFFFFu, "any %x %x",
          out[12], out[132]);
    CHECK(out[3 * 4 + 1] == 0xFFFFFFFFu && out[33 * 4 + 1] == 0, "all %x %x", out[13], out[133]);
    CHECK(out[3 * 4 + 2] == 0x41800000u && out[39 * 4 + 2] == 0x40800000u, "float sum 0x%08x 0x%08x", out[14],
          out[158]);
    CHECK(out[3 * 4 + 3] == 31 && out[39 * 4 + 3] == 39, "or %u %u", out[15], out[159]);
    CHECK(out[40 * 4 + 0] == 0 && out[40 * 4 + 2] == 0 && out[63 * 4 + 3] == 0, "inactive lanes keep r3 = 0");
}

/* Float sums in any order: lane 0 of each wave holds 1.0, the others 2^-24. In lane order
 * every small addend rounds away (1.0); small ones first give 1 + 31 * 2^-24, rounded to
 * 1 + 2^-19. A tracked run's bound must cover that order; an integer OR stays exact, and
 * so does a sum whose every order is exact. */
static void precision_test(void)
{
    for (uint32_t t = 0; t < THREADS; t++) {
        float whole = (float)(t % 32) * 0.25f;
        in[t * 12 + 4] = t % 32 ? 0x33800000u : 0x3F800000u;
        memcpy(&in[t * 12 + 5], &whole, 4);
    }
    begin();
    struct sb_ir_operand small = pb_r(1, "x"), y = pb_r(0, "y");
    wave(SB_IR_OP_WAVE_ACTIVE_FLOAT, SB_IR_WAVE_SUM, 0, &small, NULL);
    wave(SB_IR_OP_WAVE_ACTIVE_UINT, SB_IR_WAVE_OR, 1, &y, NULL);
    wave(SB_IR_OP_WAVE_PREFIX_FLOAT, SB_IR_WAVE_SUM, 2, &small, NULL);
    struct sb_ir_operand quarters = pb_r(1, "y");
    wave(SB_IR_OP_WAVE_ACTIVE_FLOAT, SB_IR_WAVE_SUM, 3, &quarters, NULL);
    pb_end_compute(&b);
    struct sb_interp_tracking tracking = { .precision = true, .origins = true };
    struct sb_interp_options options = { .tracking = &tracking };
    bool ran = pb_run_interp_with(&b, &uniforms, in, THREADS, out, &options);
    CHECK(ran && tracking.bound && tracking.bound[2], "tracked run");
    if (ran && tracking.bound && tracking.bound[2]) {
        const float *bound = tracking.bound[2];
        float small_first = 1.0f + 31.0f * 0x1p-24f, prefix_small_first = 1.0f + 30.0f * 0x1p-24f;
        CHECK(out[5 * 4] == 0x3F800000u, "lane-order sum 0x%08x", out[20]);
        CHECK(small_first == 1.0f + 0x1p-19f, "the other order's sum");
        CHECK(bound[5 * 4] >= small_first - 1.0f && bound[5 * 4] < 1e-5f, "sum bound %g", (double)bound[20]);
        CHECK(bound[5 * 4 + 1] == 0.0f, "integer bound %g", (double)bound[21]);
        CHECK(out[31 * 4 + 2] == 0x3F800000u && bound[31 * 4 + 2] >= prefix_small_first - 1.0f,
              "prefix 0x%08x bound %g", out[126], (double)bound[126]);
        CHECK(bound[0 * 4 + 2] == 0.0f && out[0 * 4 + 2] == 0, "empty prefix: exact 0");
        /* 0.25 * (0 + 1 + ... + 31) = 124: quarters whose every partial sum is a float */
        CHECK(out[7 * 4 + 3] == 0x42F80000u && bound[7 * 4 + 3] == 0.0f, "exact sum 0x%08x bound %g", out[31],
              (double)bound[31]);
    }
    sb_interp_tracking_release(&tracking);
    fill_inputs();
}

/* A pixel program over 16 points (pixel i at (i + 0.5, 0.5), the lone real lane of its quad):
 * pixel 0 discards first; then o0 = (active count, ftou(quad across x of SV_Position.x),
 * prefix count, lane index). Helpers and the discarded pixel are not active: a wave (32
 * lanes, 8 quads) counts 7 pixels in wave 0 and 8 in wave 1; quad reads see the helpers. */
/* A pixel program of one temp writing a uint4 SV_Target (o0), reading SV_Position (v0) when
 * `position`; pixel_end() closes its body. */
static struct sb_ir_program *pixel_begin(bool position)
{
    memset(&b, 0, sizeof(b));
    struct sb_ir_program *p = &b.program;
    p->source = SB_IR_SOURCE_SM4;
    p->stage = SB_IR_STAGE_PIXEL;
    p->temp_count = 1;
    uint32_t n = 0;
    if (position)
        b.signature[n++] = (struct sb_ir_signature_element){
            .kind = SB_IR_SIGNATURE_INPUT, .semantic = "SV_Position", .system_value = 1, .file = SB_IR_FILE_INPUT,
            .mask = 0xF, .used_mask = 0xF, .component_type = SB_IR_TYPE_FLOAT,
            .interpolation = SB_IR_INTERP_LINEAR_NOPERSPECTIVE };
    b.signature[n++] = (struct sb_ir_signature_element){ .kind = SB_IR_SIGNATURE_OUTPUT, .semantic = "SV_Target",
                                                         .file = SB_IR_FILE_OUTPUT, .mask = 0xF, .used_mask = 0xF,
                                                         .component_type = SB_IR_TYPE_UINT };
    p->signature = b.signature;
    p->signature_count = n;
    return p;
}

static void pixel_end(void)
{
    b.functions[0] = (struct sb_ir_function){ .id = 0xFFFFFFFFu, .instruction_count = b.count[0],
                                              .instructions = b.instructions[0], .temp_count = 1 };
    b.program.functions = b.functions;
    b.program.function_count = 1;
}

/* Pixel i of `count` at window position (i + 0.5, 0.5), z = w = 1: one row of points. */
static void pixel_row(float *positions, uint32_t count)
{
    for (uint32_t i = 0; i < count; i++) {
        positions[i * 4] = (float)i + 0.5f;
        positions[i * 4 + 1] = 0.5f;
        positions[i * 4 + 2] = positions[i * 4 + 3] = 1.0f;
    }
}

static void pixel_test(void)
{
    struct sb_ir_program *p = pixel_begin(true);
    struct sb_ir_operand x = pb_reg(SB_IR_FILE_INPUT, 0, "x"), one = pb_imm4(1, 1, 1, 1);
    struct sb_ir_operand d = pb_rd(0, 1), r0 = pb_r(0, "x"), k1 = pb_immf(1.0f);
    pb_emit(&b, SB_IR_OP_LT, 0, &d, 2, &x, &k1, NULL);
    pb_emit(&b, SB_IR_OP_DISCARD, SB_IR_FLAG_TEST_NZ, NULL, 1, &r0, NULL, NULL);
    struct sb_ir_operand o[4] = { pb_dst(SB_IR_FILE_OUTPUT, 0, 1), pb_dst(SB_IR_FILE_OUTPUT, 0, 2),
                                  pb_dst(SB_IR_FILE_OUTPUT, 0, 4), pb_dst(SB_IR_FILE_OUTPUT, 0, 8) };
    pb_emit(&b, SB_IR_OP_WAVE_ACTIVE_COUNT_BITS, 0, &o[0], 1, &one, NULL, NULL);
    pb_emit(&b, SB_IR_OP_QUAD_READ_ACROSS_X, 0, &d, 1, &x, NULL, NULL);
    pb_emit(&b, SB_IR_OP_FTOU, 0, &o[1], 1, &r0, NULL, NULL);
    pb_emit(&b, SB_IR_OP_WAVE_PREFIX_COUNT_BITS, 0, &o[2], 1, &one, NULL, NULL);
    pb_emit(&b, SB_IR_OP_WAVE_LANE_INDEX, 0, &o[3], 0, NULL, NULL, NULL);
    pixel_end();
    enum { PIXELS = 16 };
    float positions[PIXELS * 4];
    uint32_t inputs[PIXELS * 4] = { 0 }, outputs[PIXELS * 4] = { 0 };
    uint8_t discarded[PIXELS] = { 0 };
    pixel_row(positions, PIXELS);
    struct sb_interp_registers in_regs = { 1, inputs }, out_regs = { 1, outputs };
    struct sb_interp_pixel_results results = { .discarded = discarded };
    struct sb_error err = { 0 };
    enum sb_result r = sb_interp_run_pixels(p, NULL, 0, PIXELS, positions, &in_regs, &out_regs, &results, NULL,
                                            NULL, &err);
    CHECK(r == SB_SUCCESS, "pixel run: %s", err.message);
    if (r != SB_SUCCESS)
        return;
    CHECK(discarded[0] == 1 && discarded[1] == 0, "pixel 0 discarded");
    CHECK(outputs[1 * 4] == 7 && outputs[7 * 4] == 7 && outputs[8 * 4] == 8, "counts %u %u %u", outputs[4],
          outputs[28], outputs[32]);
    /* pixel 2 (x & 1 = 0) reads its helper at x = 3; pixel 3 its helper at x = 2 */
    CHECK(outputs[2 * 4 + 1] == 3 && outputs[3 * 4 + 1] == 2 && outputs[10 * 4 + 1] == 11, "quad x %u %u %u",
          outputs[9], outputs[13], outputs[41]);
    CHECK(outputs[1 * 4 + 2] == 0 && outputs[5 * 4 + 2] == 4 && outputs[8 * 4 + 2] == 0 &&
          outputs[15 * 4 + 2] == 7, "prefix %u %u %u %u", outputs[6], outputs[22], outputs[34], outputs[62]);
    /* lane 4 * (i % 8) + (i & 1) */
    CHECK(outputs[3 * 4 + 3] == 13 && outputs[12 * 4 + 3] == 16, "lane index %u %u", outputs[15], outputs[51]);
    /* the same program as a fragment shader (built-in integer inputs, quad swap) */
    struct sb_translate_options opt = { .target_env = SB_TARGET_VULKAN_1_1 };
    struct sb_translation *t = NULL;
    r = sb_translate_ir(p, &opt, &t, &err);
    CHECK(r == SB_SUCCESS, "pixel translate: %s", err.message);
    if (r == SB_SUCCESS) {
        r = sb_spirv_validate(t->words, t->word_count, SB_TARGET_VULKAN_1_1, &err);
        CHECK(r == SB_SUCCESS, "pixel spirv-val: %s", err.message);
        sb_translation_destroy(t);
    }
}

/* The back end: spirv-val, capabilities only where used, Vulkan 1.0 refused; validator, printer. */
static void backend_test(void)
{
    struct sb_ir_operand x = pb_r(0, "x");
    struct {
        uint32_t op, wave_op;
        const char *needs, *not;
    } rows[] = {
        { SB_IR_OP_WAVE_BALLOT, 0, "GroupNonUniformBallot", "GroupNonUniformArithmetic" },
        { SB_IR_OP_WAVE_ACTIVE_UINT, SB_IR_WAVE_XOR, "GroupNonUniformArithmetic", "GroupNonUniformBallot" },
        { SB_IR_OP_WAVE_ALL_TRUE, 0, "GroupNonUniformVote", "GroupNonUniformShuffle" },
        { SB_IR_OP_QUAD_READ_ACROSS_Y, 0, "GroupNonUniformQuad", "GroupNonUniformVote" },
        { SB_IR_OP_WAVE_PREFIX_FLOAT, SB_IR_WAVE_PRODUCT, "GroupNonUniformArithmetic", "GroupNonUniformQuad" },
    };
    for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
        begin();
        wave(rows[i].op, rows[i].wave_op, 0, &x, NULL);
        pb_end_compute(&b);
        struct sb_translate_options opt = { .target_env = SB_TARGET_VULKAN_1_1 };
        struct sb_translation *t = NULL;
        struct sb_error err = { 0 };
        enum sb_result r = sb_translate_ir(&b.program, &opt, &t, &err);
        CHECK(r == SB_SUCCESS, "%s: translate: %s", sb_ir_op_name(rows[i].op), err.message);
        if (r != SB_SUCCESS)
            continue;
        r = sb_spirv_validate(t->words, t->word_count, SB_TARGET_VULKAN_1_1, &err);
        CHECK(r == SB_SUCCESS, "%s: spirv-val: %s", sb_ir_op_name(rows[i].op), err.message);
        char *text = sb_spirv_disassemble(t->words, t->word_count, SB_TARGET_VULKAN_1_1);
        char needs[80], not[80];
        snprintf(needs, sizeof(needs), "OpCapability %s\n", rows[i].needs);
        snprintf(not, sizeof(not), "OpCapability %s\n", rows[i].not);
        CHECK(text && strstr(text, needs) && !strstr(text, not), "%s: capabilities", sb_ir_op_name(rows[i].op));
        free(text);
        sb_translation_destroy(t);
        opt.target_env = SB_TARGET_VULKAN_1_0;
        r = sb_translate_ir(&b.program, &opt, &t, &err);
        CHECK(r == SB_ERROR_TRANSLATE_UNSUPPORTED && strstr(err.message, "Vulkan 1.1"), "%s on Vulkan 1.0: %d %s",
              sb_ir_op_name(rows[i].op), (int)r, err.message);
        if (r == SB_SUCCESS)
            sb_translation_destroy(t);
    }
    /* a bitwise reduction on floats and a min prefix have no meaning */
    begin();
    wave(SB_IR_OP_WAVE_ACTIVE_FLOAT, SB_IR_WAVE_AND, 0, &x, NULL);
    pb_end_compute(&b);
    struct sb_error err = { 0 };
    CHECK(sb_ir_validate(&b.program, &err) == SB_ERROR_TRANSLATE_INVALID && strstr(err.message, "wave_op 4"),
          "validator: %s", err.message);
    begin();
    wave(SB_IR_OP_WAVE_PREFIX_INT, SB_IR_WAVE_SUM, 0, &x, NULL);
    pb_end_compute(&b);
    char *text = sb_ir_print(&b.program);
    CHECK(text && strstr(text, "wave_prefix_i_sum r3.x, r0.x"), "printer");
    free(text);
}

/* --gpu: answers that hold for any subgroup size dividing 64 and lanes in SV_GroupIndex
 * order (lavapipe's compute layout). */
static bool gpu_test(bool *skipped)
{
    begin();
    struct sb_ir_operand y = pb_r(0, "y"), one = pb_imm4(1, 1, 1, 1), r4x = pb_r(4, "x"), r4y = pb_r(4, "y");
    struct sb_ir_operand d4x = pb_rd(4, 1), d4y = pb_rd(4, 2), d3x = pb_rd(3, 1), d3y = pb_rd(3, 2), d3w = pb_rd(3, 8);
    pb_emit(&b, SB_IR_OP_WAVE_ACTIVE_COUNT_BITS, 0, &d4x, 1, &one, NULL, NULL);
    pb_emit(&b, SB_IR_OP_WAVE_LANE_COUNT, 0, &d4y, 0, NULL, NULL, NULL);
    pb_emit(&b, SB_IR_OP_IEQ, 0, &d3x, 2, &r4x, &r4y, NULL);
    pb_emit(&b, SB_IR_OP_WAVE_PREFIX_COUNT_BITS, 0, &d4x, 1, &one, NULL, NULL);
    pb_emit(&b, SB_IR_OP_WAVE_LANE_INDEX, 0, &d4y, 0, NULL, NULL, NULL);
    pb_emit(&b, SB_IR_OP_IEQ, 0, &d3y, 2, &r4x, &r4y, NULL);
    wave(SB_IR_OP_QUAD_READ_ACROSS_DIAGONAL, 0, 2, &y, NULL);
    pb_emit(&b, SB_IR_OP_WAVE_ACTIVE_UINT, 0, &d4x, 1, &one, NULL, NULL)->wave_op = SB_IR_WAVE_SUM;
    pb_emit(&b, SB_IR_OP_WAVE_ALL_EQUAL, 0, &d3w, 1, &r4x, NULL, NULL);
    pb_end_compute(&b);
    static uint32_t gpu[THREADS * 4];
    if (!pb_run_interp(&b, &uniforms, in, THREADS, out) || !pb_run_gpu(&b, &uniforms, in, THREADS, gpu, skipped))
        return *skipped;
    for (uint32_t t = 0; t < THREADS; t++) {
        CHECK(out[t * 4 + 0] == 0xFFFFFFFFu && out[t * 4 + 1] == 0xFFFFFFFFu && out[t * 4 + 2] == (t ^ 3u) &&
                  out[t * 4 + 3] == 0xFFFFFFFFu, "interpreter thread %u", t);
        CHECK(!memcmp(&gpu[t * 4], &out[t * 4], 16), "thread %u: device %08x %08x %08x %08x", t, gpu[t * 4],
              gpu[t * 4 + 1], gpu[t * 4 + 2], gpu[t * 4 + 3]);
    }
    return true;
}

/* ---- the wave size as a run parameter ------------------------------------------------------
 * sb_interp_options::wave_lanes at 8, 32 and 64 lanes on one thread group of GROUP threads, so
 * each size ends in a partial wave (8: five waves of 8 and one of 4; 32: one of 32 and one of 12;
 * 64: one of 44); pixel waves with a helper's vCoverage; with --gpu-sizes the program pinned to
 * the device's subgroup size (as DXIL [WaveSize(N)]) against the interpreter at that size; with
 * --validate CORPUS/dxil sb_validate on wave-size-dependent corpus programs
 * (runtime/src/validate/validate_waves.c). */

#define SIZE_THREADS 64u /* one group's buffers; the group runs GROUP of them */
#define GROUP 44u

/* r3 = (WaveActiveSum(t), WavePrefixSum(t), WaveActiveBallot(t % 3 == 0).x, ReadLaneAt(100 + t, 5)). */
static void build_reductions(void)
{
    begin();
    struct sb_ir_operand x = pb_r(0, "x"), y = pb_r(0, "y"), z = pb_r(0, "z"), five = pb_imm4(5, 5, 5, 5);
    wave(SB_IR_OP_WAVE_ACTIVE_UINT, SB_IR_WAVE_SUM, 0, &y, NULL);
    wave(SB_IR_OP_WAVE_PREFIX_INT, SB_IR_WAVE_SUM, 1, &y, NULL);
    struct sb_ir_operand r4 = pb_rd(4, 1), bits = pb_r(4, "x"), r3z = pb_rd(3, 4);
    pb_emit(&b, SB_IR_OP_WAVE_BALLOT, 0, &r4, 1, &x, NULL, NULL); /* the x word, into r3.z */
    pb_emit(&b, SB_IR_OP_MOV, 0, &r3z, 1, &bits, NULL, NULL);
    wave(SB_IR_OP_WAVE_READ_LANE_AT, 0, 3, &z, &five);
    pb_end_compute(&b);
    b.program.thread_group[0] = GROUP;
}

/* r3 = (WaveActiveBallot(t % 3 == 0).xy, WaveGetLaneCount(), WaveGetLaneIndex()). */
static void build_ballot(void)
{
    begin();
    struct sb_ir_operand x = pb_r(0, "x"), xy = pb_rd(3, 3);
    pb_emit(&b, SB_IR_OP_WAVE_BALLOT, 0, &xy, 1, &x, NULL, NULL);
    wave(SB_IR_OP_WAVE_LANE_COUNT, 0, 2, NULL, NULL);
    wave(SB_IR_OP_WAVE_LANE_INDEX, 0, 3, NULL, NULL);
    pb_end_compute(&b);
    b.program.thread_group[0] = GROUP;
}

static bool run_at(uint32_t lanes)
{
    struct sb_interp_options o = { .wave_lanes = lanes };
    return pb_run_interp_with(&b, &uniforms, in, SIZE_THREADS, out, &o);
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
    CHECK(!pb_run_interp_with(&b, &uniforms, in, SIZE_THREADS, out, &o), "12 lanes are no wave size");
}

/* Pixels (each its own quad, three helpers; runtime/src/interp/interp_graphics.c) at 8 and 32
 * lanes: o0 = (vCoverage, vCoverage of the quad's x neighbour, WaveActiveCountBits(1),
 * WaveGetLaneCount()). A helper covers no sample, so the neighbour, always a helper, reads 0;
 * a wave holds lanes / 4 quads, so lanes / 4 pixels that are not helpers. */
static void pixel_sizes_test(void)
{
    struct sb_ir_program *p = pixel_begin(false);
    struct sb_ir_operand cov = pb_reg(SB_IR_FILE_COVERAGE_IN, 0, "x"), one = pb_imm4(1, 1, 1, 1);
    struct sb_ir_operand o[4] = { pb_dst(SB_IR_FILE_OUTPUT, 0, 1), pb_dst(SB_IR_FILE_OUTPUT, 0, 2),
                                  pb_dst(SB_IR_FILE_OUTPUT, 0, 4), pb_dst(SB_IR_FILE_OUTPUT, 0, 8) };
    pb_emit(&b, SB_IR_OP_MOV, 0, &o[0], 1, &cov, NULL, NULL);
    pb_emit(&b, SB_IR_OP_QUAD_READ_ACROSS_X, 0, &o[1], 1, &cov, NULL, NULL);
    pb_emit(&b, SB_IR_OP_WAVE_ACTIVE_COUNT_BITS, 0, &o[2], 1, &one, NULL, NULL);
    pb_emit(&b, SB_IR_OP_WAVE_LANE_COUNT, 0, &o[3], 0, NULL, NULL, NULL);
    pixel_end();
    enum { PIXELS = 12 };
    float positions[PIXELS * 4];
    pixel_row(positions, PIXELS);
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

/* A context with a Vulkan device, or NULL (SKIPPED printed). */
static struct sb_rt_context *device_context(void)
{
    struct sb_rt_context *c = NULL;
    struct sb_rt_context_options co = { .allow_cpu_only = true };
    struct sb_error err = { 0 };
    if (sb_rt_context_create(&co, &c, &err) == SB_SUCCESS && sb_rt_context_has_device(c))
        return c;
    sb_rt_context_destroy(c);
    printf("SKIPPED: no Vulkan device\n");
    return NULL;
}

/* --gpu-sizes: the reductions pinned to the device's subgroup size on both sides. */
static int gpu_sizes_test(void)
{
    struct sb_error err = { 0 };
    struct sb_rt_context *c = device_context();
    if (!c)
        return 77;
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
    static uint32_t gpu[SIZE_THREADS * 4];
    bool skipped = false;
    bool ran = run_at(lanes) && pb_run_gpu(&b, &uniforms, in, SIZE_THREADS, gpu, &skipped);
    pb_gpu_shutdown();
    CHECK(ran, "runs at %u lanes", lanes);
    uint32_t partial = GROUP / lanes * lanes; /* ReadLaneAt past a partial wave's end is undefined */
    for (uint32_t t = 0; ran && t < SIZE_THREADS; t++)
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
    struct sb_error err = { 0 };
    struct sb_rt_context *c = device_context();
    if (!c)
        return 77;
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
    if (argc > 1 && !strcmp(argv[1], "--gpu-sizes")) {
        if (gpu_sizes_test() == 77)
            return 77;
    } else if (argc > 2 && !strcmp(argv[1], "--validate")) {
        if (validate_test(argv[2]) == 77)
            return 77;
    } else if (argc > 1 && !strcmp(argv[1], "--gpu")) {
        bool skipped = false;
        bool ran = gpu_test(&skipped);
        pb_gpu_shutdown();
        if (skipped) {
            printf("SKIPPED: no Vulkan device\n");
            return 77;
        }
        CHECK(ran, "device run failed");
    } else {
        divergent_test();
        uniform_test();
        partial_test();
        precision_test();
        pixel_test();
        backend_test();
        eight_lanes();
        thirty_two_lanes();
        sixty_four_lanes();
        pixel_sizes_test();
    }
    printf("%u checks, %u failure(s)\n", checks, failures);
    return failures ? 1 : 0;
}
