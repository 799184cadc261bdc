/* SPDX-License-Identifier: MIT */
/*
 * validate_reference: sb_validate_reference (validate.h) on programs written here, with
 * answers worked out by hand. The DXIL programs come from the DXIL writer
 * (tests/common/dxil_programs.h), their DXBC counterparts are assembled with sm4_asm.h:
 *
 *  twin          DXIL cs_store (u0 raw, word i = i*2+1 for 8 threads) against the same
 *                computation in cs_5_0 tokens (ishl, iadd, store_raw): agree, 16385 words
 *                compared (the 64 KiB u0 = 16384 words, and its counter).
 *  variant       the same DXIL against a cs_5_0 program storing i*2+2: disagree, the 8
 *                words 0..7 differ; the first named: u0 dword 0, program 1, reference 2.
 *  self          the cs_5_0 program against itself, and the DXIL one against itself: agree.
 *  precision     cs_5_0 x / 3 against x * float(1/3) for x = 1000 .. 8000: two words one ULP
 *                apart (x = 5000 and 7000), within the division's bound: agree within precision.
 *  interfaces    the DXIL program against numthreads(4,1,1) (thread-group), against a
 *                program writing u1 (resource, "u0 (space 0) is declared by the program
 *                only"), against a vertex program (stage): verdict disagree, nothing run; a
 *                Texture2D<float4> t0 against a Texture2D<uint4> t0: resource-shape, the
 *                float texels refused by the uint declaration.
 *  vertex        DXIL vs_passthrough (POSITION v0 -> SV_Position o0, TEXCOORD0 v1.xy -> o1.xy)
 *                against vs_4_0 tokens reading TEXCOORD0 from v2 and writing it to o2.xy:
 *                inputs seeded and outputs matched by semantic, agree, 64 vertices x 6
 *                lanes = 384 words compared; against the
 *                same program writing TEXCOORD1 instead: signature, naming TEXCOORD0.
 *
 *  pixel         DXIL ps_scale (TEXCOORD0 in v0) against ps_4_0 tokens reading it from v2:
 *                inputs seeded by semantic, agree on SV_Target0 of 8 x 8 pixels (256 words).
 *  device        the twin pair with a Vulkan device: each program's own GPU-vs-interpreter
 *                verdict (the device leg) agree, the device's u0 holds 2i + 1.
 *
 * Usage: test_validate_reference CASE. Exit 0 pass, 1 fail, 77 skipped (device: no device).
 * Every case but `device` runs on the interpreter alone (a NULL context).
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shaderbridge/validate.h"
#include "dxil_programs.h"
#include "sm4_asm.h"
#include "check.h"

/* cs_5_0 numthreads(threads,1,1): u`u`[i*4] = i*2 + `add`, i = vThreadID.x. */
static void build_cs_store(uint32_t threads, uint32_t u, uint32_t add, struct blob *out)
{
    static struct sm4_program p;
    sm4_begin_cs(&p, threads, 1, 1, 2);
    sm4_dcl_uav_raw(&p, u);
    sm4_dcl_thread_id(&p, T_THREAD_ID, "x");
    I(&p, OP_ISHL, dr(0, "x"), special(T_THREAD_ID, "x"), l1(2));
    I(&p, OP_ISHL, dr(1, "x"), special(T_THREAD_ID, "x"), l1(1));
    I(&p, OP_IADD, dr(1, "x"), sr(1, "x"), l1(add));
    I(&p, OP_STORE_RAW, du(u, "x"), sr(0, "x"), sr(1, "x"));
    sm4_end(&p);
    sm4_container(&p, out);
}

/* vs_4_0: o0 = v0 (SV_Position), o`uv`.xy = v`uv_in`.xy (TEXCOORD`index`; the input is
 * TEXCOORD0). */
static void build_vs_passthrough(uint32_t uv_in, uint32_t uv, uint32_t index, struct blob *out)
{
    static struct sm4_program p;
    sm4_begin(&p, 1, 4, 0, 1);
    sm4_dcl_io(&p, 95, 0, T_INPUT, 0, "xyzw", -1);
    sm4_dcl_io(&p, 95, 0, T_INPUT, uv_in, "xy", -1);
    sm4_dcl_io(&p, 103, 0, T_OUTPUT, 0, "xyzw", 1); /* SV_Position */
    sm4_dcl_io(&p, 101, 0, T_OUTPUT, uv, "xy", -1);
    I(&p, OP_MOV, sm4_reg(T_OUTPUT, 1, (uint32_t[]){ 0 }, NULL, "xyzw", 1),
      sm4_reg(T_INPUT, 1, (uint32_t[]){ 0 }, NULL, "xyzw", 0));
    I(&p, OP_MOV, sm4_reg(T_OUTPUT, 1, (uint32_t[]){ uv }, NULL, "xy", 1),
      sm4_reg(T_INPUT, 1, (uint32_t[]){ uv_in }, NULL, "xyyy", 0));
    sm4_end(&p);
    const struct sig_element_spec in[] = {
        { 0, "POSITION", 0, 0, 3, 0, 0xf, 0xf, 0 },
        { 0, "TEXCOORD", 0, 0, 3, uv_in, 0x3, 0x3, 0 },
    };
    const struct sig_element_spec outs[] = {
        { 0, "SV_Position", 0, 1, 3, 0, 0xf, 0x0, 0 },
        { 0, "TEXCOORD", index, 0, 3, uv, 0x3, 0xc, 0 },
    };
    sm4_container_sig(&p, in, 2, outs, 2, NULL, 0, out);
}

/* cs_5_0 numthreads(8,1,1): u0[i*4] = asuint(float((i+1) * 1000) / 3), by a division
 * (`divide`) or by a multiplication with 1/3 rounded to float (0x3eaaaaab). */
static void build_cs_third(bool divide, struct blob *out)
{
    static struct sm4_program p;
    sm4_begin_cs(&p, 8, 1, 1, 2);
    sm4_dcl_uav_raw(&p, 0);
    sm4_dcl_thread_id(&p, T_THREAD_ID, "x");
    I(&p, OP_IADD, dr(0, "x"), special(T_THREAD_ID, "x"), l1(1));
    I(&p, OP_UTOF, dr(0, "x"), sr(0, "x"));
    I(&p, OP_MUL, dr(0, "x"), sr(0, "x"), lf(1000.0f));
    if (divide)
        I(&p, OP_DIV, dr(0, "x"), sr(0, "x"), lf(3.0f));
    else
        I(&p, OP_MUL, dr(0, "x"), sr(0, "x"), l1(0x3eaaaaabu));
    I(&p, OP_ISHL, dr(1, "x"), special(T_THREAD_ID, "x"), l1(2));
    I(&p, OP_STORE_RAW, du(0, "x"), sr(1, "x"), sr(0, "x"));
    sm4_end(&p);
    sm4_container(&p, out);
}

/* cs_5_0 numthreads(1,1,1): u0[0] = t0.Load(0, 0).x, t0 a Texture2D returning `ret` (SM4
 * return-type token, ../shared/docs/sm4-tokens.md §8.4: 0x5555 float4, 0x4444 uint4). */
static void build_cs_texel(uint32_t ret, struct blob *out)
{
    static struct sm4_program p;
    sm4_begin_cs(&p, 1, 1, 1, 1);
    sm4_dcl_resource(&p, 0, 3 /* 2D */, ret);
    sm4_dcl_uav_raw(&p, 0);
    I(&p, OP_LD, dr(0, "xyzw"), l4(0, 0, 0, 0), st(0, "xyzw"));
    I(&p, OP_STORE_RAW, du(0, "x"), l1(0), sr(0, "x"));
    sm4_end(&p);
    sm4_container(&p, out);
}

/* ps_4_0, the DXIL ps_scale in tokens with TEXCOORD0 in v`uv` (the DXIL program's is v0):
 * o0 = (v.x * cb0[0].x, v.y * cb0[0].y, cb0[0].z * 0, cb0[0].w). */
static void build_ps_scale(uint32_t uv, struct blob *out)
{
    static struct sm4_program p;
    sm4_begin(&p, 0, 4, 0, 1);
    sm4_dcl_cb(&p, 0, 1, 0);
    sm4_dcl_io(&p, 98, 2 /* linear */, T_INPUT, uv, "xy", -1);
    sm4_dcl_io(&p, 101, 0, T_OUTPUT, 0, "xyzw", -1);
    I(&p, OP_MUL, dr(0, "xy"), sm4_reg(T_INPUT, 1, (uint32_t[]){ uv }, NULL, "xyxx", 0), scb(0, 0, NULL, "xyxx"));
    I(&p, OP_MUL, dr(0, "z"), scb(0, 0, NULL, "zzzz"), lf(0.0f));
    I(&p, OP_MOV, dr(0, "w"), scb(0, 0, NULL, "wwww"));
    I(&p, OP_MOV, sm4_reg(T_OUTPUT, 1, (uint32_t[]){ 0 }, NULL, "xyzw", 1), sr(0, "xyzw"));
    sm4_end(&p);
    const struct sig_element_spec in[] = { { 0, "TEXCOORD", 0, 0, 3, uv, 0x3, 0x3, 0 } };
    const struct sig_element_spec outs[] = { { 0, "SV_Target", 0, 0, 3, 0, 0xf, 0x0, 0 } };
    sm4_container_sig(&p, in, 1, outs, 1, NULL, 0, out);
}

static struct sb_rt_program *load(const void *bytes, size_t size, const char *what)
{
    struct sb_rt_program *program = NULL;
    struct sb_error error = { 0 };
    if (sb_rt_program_load(bytes, size, NULL, &program, &error) != SB_SUCCESS) {
        fprintf(stderr, "%s: %s [%s] at byte %llu\n", what, error.message, sb_result_name(error.code),
                (unsigned long long)error.offset);
        return NULL;
    }
    return program;
}

static struct sb_rt_program *load_dxil(bool (*write)(struct tbuf *), const char *what)
{
    struct tbuf b = { 0 };
    struct sb_rt_program *program = write(&b) ? load(b.data, b.size, what) : NULL;
    tb_free(&b);
    return program;
}

static struct sb_rt_program *load_cs(uint32_t threads, uint32_t u, uint32_t add, const char *what)
{
    static struct blob b;
    memset(&b, 0, sizeof(b));
    build_cs_store(threads, u, add, &b);
    return load(b.bytes, b.size, what);
}

/* The report of `program` against `reference` on the interpreter, seed 1; NULL (a failed
 * check) when the call fails. */
static struct sb_validate_reference_report *compare(const struct sb_rt_program *program,
                                                    const struct sb_rt_program *reference)
{
    struct sb_validate_options options = { .inputs = { .seed = 1 } };
    struct sb_validate_reference_report *report = NULL;
    struct sb_error error = { 0 };
    enum sb_result r = sb_validate_reference(NULL, program, reference, &options, &report, &error);
    CHECK(r == SB_SUCCESS, "sb_validate_reference: %s [%s]", error.message, sb_result_name(r));
    if (report)
        printf("  %s: %s\n", sb_validate_verdict_name(report->verdict), report->reason);
    return r == SB_SUCCESS ? report : NULL;
}

/* DXIL cs_store against the cs_5_0 program storing i*2 + `add`: the report (NULL after a
 * failed check); programs[] receive both, which finish() frees with the report. */
static struct sb_validate_reference_report *cs_store_against(uint32_t add, struct sb_rt_program *programs[2])
{
    char what[32];
    snprintf(what, sizeof(what), "cs_5_0 i*2+%u", add);
    programs[0] = load_dxil(dxil_program_cs_store, "dxil cs_store");
    programs[1] = load_cs(8, 0, add, what);
    CHECK(programs[0] && programs[1], "both programs load");
    return programs[0] && programs[1] ? compare(programs[0], programs[1]) : NULL;
}

static void finish(struct sb_validate_reference_report *report, struct sb_rt_program *programs[2])
{
    sb_validate_reference_report_destroy(report);
    sb_rt_program_destroy(programs[0]);
    sb_rt_program_destroy(programs[1]);
}

static void case_twin(void)
{
    struct sb_rt_program *programs[2];
    struct sb_validate_reference_report *r = cs_store_against(1, programs);
    if (r) {
        CHECK(r->verdict == SB_VALIDATE_AGREE, "verdict %s", sb_validate_verdict_name(r->verdict));
        CHECK(r->difference == SB_VALIDATE_INTERFACE_SAME, "difference %s", sb_validate_interface_name(r->difference));
        CHECK(r->words_compared == 16385, "words compared %llu, want 16384 + the counter",
              (unsigned long long)r->words_compared);
        CHECK(r->mismatch_count == 0, "%llu differ", (unsigned long long)r->mismatch_count);
        /* Both read the same u0 and wrote i*2+1 into words 0..7: the results hold it. */
        const uint32_t *words = r->program_run ? r->program_run->cpu->resources[0].data : NULL;
        for (uint32_t i = 0; words && i < 8; i++)
            CHECK(words[i] == i * 2 + 1, "u0 word %u = %u", i, words[i]);
        CHECK(!r->device_leg, "no device leg without a context");
    }
    finish(r, programs);
}

static void case_variant(void)
{
    struct sb_rt_program *programs[2];
    struct sb_validate_reference_report *r = cs_store_against(2, programs);
    if (r) {
        CHECK(r->verdict == SB_VALIDATE_DISAGREE, "verdict %s", sb_validate_verdict_name(r->verdict));
        CHECK(r->words_compared == 16385, "words compared %llu", (unsigned long long)r->words_compared);
        CHECK(r->mismatch_count == 8 && r->unexplained == 8, "%llu differ, %llu unexplained; want 8 and 8",
              (unsigned long long)r->mismatch_count, (unsigned long long)r->unexplained);
        CHECK(r->kept == 8, "kept %u", r->kept);
        for (uint32_t k = 0; k < r->kept && k < 8; k++) {
            const struct sb_validate_reference_mismatch *m = &r->mismatches[k];
            CHECK(m->resource_class == SB_IR_RESOURCE_UAV && m->register_index == 0 && m->space == 0,
                  "mismatch %u on class %u register %u", k, m->resource_class, m->register_index);
            CHECK(m->element == k && m->value == k * 2 + 1 && m->reference == k * 2 + 2,
                  "mismatch %u: element %llu program %u reference %u", k, (unsigned long long)m->element, m->value,
                  m->reference);
            CHECK(m->explained == SB_VALIDATE_DISAGREE, "mismatch %u explained as %s", k,
                  sb_validate_verdict_name(m->explained));
        }
        CHECK(strstr(r->reason, "u0 (space 0) dword 0: program 0x00000001 (1), reference 0x00000002 (2)") != NULL,
              "reason '%s' names u0, dword 0 and both values", r->reason);
    }
    finish(r, programs);
}

static void case_self(void)
{
    struct sb_rt_program *dxbc = load_cs(8, 0, 1, "cs_5_0 i*2+1");
    struct sb_rt_program *dxil = load_dxil(dxil_program_cs_store, "dxil cs_store");
    CHECK(dxbc && dxil, "both programs load");
    struct sb_rt_program *pairs[2] = { dxbc, dxil };
    for (int k = 0; k < 2; k++) {
        struct sb_validate_reference_report *r = pairs[k] ? compare(pairs[k], pairs[k]) : NULL;
        if (r) {
            CHECK(r->verdict == SB_VALIDATE_AGREE && r->words_compared == 16385 && r->mismatch_count == 0,
                  "%s against itself: %s, %llu compared, %llu differ", k ? "DXIL" : "DXBC",
                  sb_validate_verdict_name(r->verdict), (unsigned long long)r->words_compared,
                  (unsigned long long)r->mismatch_count);
            CHECK(!strcmp(r->reason, "16385 words identical"), "reason '%s'", r->reason);
        }
        sb_validate_reference_report_destroy(r);
    }
    sb_rt_program_destroy(dxbc);
    sb_rt_program_destroy(dxil);
}

/* x / 3 against x * float(1/3) for x = 1000 .. 8000: correctly rounded, they differ by one
 * ULP at x = 5000 (0x44d05555 against 0x44d05556) and x = 7000 (0x4511d555 against
 * 0x4511d556), beyond D3D's absolute 2^-20 but within the 2.5 ULPs Vulkan allows a division:
 * agree within precision, 2 words, none unexplained. */
static void case_precision(void)
{
    static struct blob b;
    struct sb_rt_program *programs[2];
    memset(&b, 0, sizeof(b));
    build_cs_third(true, &b);
    programs[0] = load(b.bytes, b.size, "cs_5_0 x / 3");
    memset(&b, 0, sizeof(b));
    build_cs_third(false, &b);
    programs[1] = load(b.bytes, b.size, "cs_5_0 x * (1/3)");
    CHECK(programs[0] && programs[1], "both programs load");
    struct sb_validate_reference_report *r = programs[0] && programs[1] ? compare(programs[0], programs[1]) : NULL;
    if (r) {
        CHECK(r->verdict == SB_VALIDATE_AGREE_WITHIN_PRECISION, "verdict %s", sb_validate_verdict_name(r->verdict));
        CHECK(r->mismatch_count == 2 && r->within_precision == 2 && r->unexplained == 0,
              "%llu differ, %llu within precision, %llu unexplained; want 2, 2, 0",
              (unsigned long long)r->mismatch_count, (unsigned long long)r->within_precision,
              (unsigned long long)r->unexplained);
        static const uint32_t want[2][3] = { { 4, 0x44d05555u, 0x44d05556u }, { 6, 0x4511d555u, 0x4511d556u } };
        for (uint32_t k = 0; k < 2 && k < r->kept; k++) {
            const struct sb_validate_reference_mismatch *m = &r->mismatches[k];
            CHECK(m->element == want[k][0] && m->value == want[k][1] && m->reference == want[k][2],
                  "mismatch %u: dword %llu, 0x%08x against 0x%08x", k, (unsigned long long)m->element, m->value,
                  m->reference);
            /* One ULP of 1666.67 is 2^-13, of 2333.33 2^-12: the division's bound covers 2.5 of them. */
            CHECK(m->bound >= 2.5f * (k ? 0x1p-12f : 0x1p-13f) && m->explained == SB_VALIDATE_AGREE_WITHIN_PRECISION,
                  "mismatch %u: bound %g, explained %s", k, (double)m->bound, sb_validate_verdict_name(m->explained));
        }
    }
    finish(r, programs);
}

static void expect_difference(const struct sb_rt_program *a, const struct sb_rt_program *b,
                              enum sb_validate_interface want, const char *text)
{
    struct sb_validate_reference_report *r = a && b ? compare(a, b) : NULL;
    CHECK(r != NULL, "a report for the %s difference", sb_validate_interface_name(want));
    if (r) {
        CHECK(r->verdict == SB_VALIDATE_DISAGREE, "verdict %s", sb_validate_verdict_name(r->verdict));
        CHECK(r->difference == want, "difference %s, want %s", sb_validate_interface_name(r->difference),
              sb_validate_interface_name(want));
        CHECK(strstr(r->reason, text) != NULL, "reason '%s' should contain '%s'", r->reason, text);
        CHECK(r->words_compared == 0 && !r->program_run && !r->reference_run, "nothing ran");
    }
    sb_validate_reference_report_destroy(r);
}

static void case_interfaces(void)
{
    struct sb_rt_program *dxil = load_dxil(dxil_program_cs_store, "dxil cs_store");
    struct sb_rt_program *four = load_cs(4, 0, 1, "cs_5_0 numthreads(4,1,1)");
    struct sb_rt_program *u1 = load_cs(8, 1, 1, "cs_5_0 on u1");
    struct sb_rt_program *vs = load_dxil(dxil_program_vs_passthrough, "dxil vs_passthrough");
    CHECK(dxil && four && u1 && vs, "every program loads");
    expect_difference(dxil, four, SB_VALIDATE_INTERFACE_THREAD_GROUP,
                      "the program runs numthreads(8, 1, 1), the reference numthreads(4, 1, 1)");
    expect_difference(dxil, u1, SB_VALIDATE_INTERFACE_RESOURCE, "u0 (space 0) is declared by the program only");
    expect_difference(u1, dxil, SB_VALIDATE_INTERFACE_RESOURCE, "u1 (space 0) is declared by the program only");
    expect_difference(dxil, vs, SB_VALIDATE_INTERFACE_STAGE, "the program is a compute program, the reference a "
                      "vertex program");
    CHECK(!strcmp(sb_validate_interface_name(SB_VALIDATE_INTERFACE_SIGNATURE), "signature"), "interface names");
    /* t0 a float texture in one, a uint texture in the other: the float texels cannot be given
     * to the uint declaration. */
    static struct blob b;
    memset(&b, 0, sizeof(b));
    build_cs_texel(0x5555, &b);
    struct sb_rt_program *float_t0 = load(b.bytes, b.size, "cs_5_0 Texture2D<float4>");
    memset(&b, 0, sizeof(b));
    build_cs_texel(0x4444, &b);
    struct sb_rt_program *uint_t0 = load(b.bytes, b.size, "cs_5_0 Texture2D<uint4>");
    CHECK(float_t0 && uint_t0, "the texture programs load");
    expect_difference(float_t0, uint_t0, SB_VALIDATE_INTERFACE_RESOURCE_SHAPE,
                      "the reference cannot take the program's inputs: provided input 0: t0 (space 0)");
    sb_rt_program_destroy(float_t0);
    sb_rt_program_destroy(uint_t0);
    sb_rt_program_destroy(dxil);
    sb_rt_program_destroy(four);
    sb_rt_program_destroy(u1);
    sb_rt_program_destroy(vs);
}

static void case_vertex(void)
{
    static struct blob b;
    memset(&b, 0, sizeof(b));
    build_vs_passthrough(2, 2, 0, &b);
    struct sb_rt_program *dxbc = load(b.bytes, b.size, "vs_4_0 TEXCOORD0 from v2 in o2");
    struct sb_rt_program *dxil = load_dxil(dxil_program_vs_passthrough, "dxil vs_passthrough");
    CHECK(dxbc && dxil, "both programs load");
    struct sb_validate_reference_report *r = dxbc && dxil ? compare(dxil, dxbc) : NULL;
    if (r) {
        CHECK(r->verdict == SB_VALIDATE_AGREE, "verdict %s", sb_validate_verdict_name(r->verdict));
        CHECK(r->words_compared == 384, "words compared %llu, want 64 vertices x 6 lanes",
              (unsigned long long)r->words_compared);
    }
    sb_validate_reference_report_destroy(r);
    /* The same program writing TEXCOORD1 instead: the outputs no longer match. */
    memset(&b, 0, sizeof(b));
    build_vs_passthrough(1, 1, 1, &b);
    struct sb_rt_program *renamed = load(b.bytes, b.size, "vs_4_0 TEXCOORD1 in o1");
    CHECK(renamed != NULL, "the renamed program loads");
    expect_difference(dxil, renamed, SB_VALIDATE_INTERFACE_SIGNATURE, "output TEXCOORD0 is in the program's "
                      "signature only");
    sb_rt_program_destroy(renamed);
    sb_rt_program_destroy(dxbc);
    sb_rt_program_destroy(dxil);
}

/* The twin pair with a device (lavapipe in ctest): each program is also validated GPU against
 * its own interpreter (the device leg), both agree, and the comparison is the interpreter's:
 * agree, 16385 words. Skipped (77) without a device. */
static int case_device(void)
{
    struct sb_rt_context_options context_options = { .validation = true };
    struct sb_rt_context *context = NULL;
    struct sb_error error = { 0 };
    if (sb_rt_context_create(&context_options, &context, &error) != SB_SUCCESS) {
        printf("SKIPPED: no Vulkan device: %s\n", error.message);
        return 77;
    }
    struct sb_rt_program *programs[2];
    programs[0] = load_dxil(dxil_program_cs_store, "dxil cs_store");
    programs[1] = load_cs(8, 0, 1, "cs_5_0 i*2+1");
    CHECK(programs[0] && programs[1], "both programs load");
    struct sb_validate_options options = { .inputs = { .seed = 1 } };
    struct sb_validate_reference_report *r = NULL;
    if (programs[0] && programs[1])
        CHECK(sb_validate_reference(context, programs[0], programs[1], &options, &r, &error) == SB_SUCCESS,
              "sb_validate_reference: %s", error.message);
    if (r) {
        printf("  %s: %s\n", sb_validate_verdict_name(r->verdict), r->reason);
        CHECK(r->verdict == SB_VALIDATE_AGREE && r->words_compared == 16385, "verdict %s, %llu words",
              sb_validate_verdict_name(r->verdict), (unsigned long long)r->words_compared);
        CHECK(r->device_leg && r->program_run && r->reference_run, "the device leg ran");
        if (r->device_leg) {
            CHECK(r->program_run->verdict == SB_VALIDATE_AGREE, "DXIL on the device: %s (%s)",
                  sb_validate_verdict_name(r->program_run->verdict), r->program_run->reason);
            CHECK(r->reference_run->verdict == SB_VALIDATE_AGREE, "DXBC on the device: %s (%s)",
                  sb_validate_verdict_name(r->reference_run->verdict), r->reference_run->reason);
            const uint32_t *gpu = r->program_run->gpu->resources[0].data;
            for (uint32_t i = 0; i < 8; i++)
                CHECK(gpu[i] == i * 2 + 1, "device u0 word %u = %u", i, gpu[i]);
        }
    }
    CHECK(sb_rt_context_validation_errors(context) == 0, "Vulkan validation layer errors");
    finish(r, programs);
    sb_rt_context_destroy(context);
    return 0;
}

/* The DXIL ps_scale (TEXCOORD0 in v0) against the same in ps_4_0 tokens reading it from v2:
 * both interpolate the same seeded TEXCOORD0 and read the same cb0: agree on the 8 x 8
 * pixels' SV_Target0, 64 x 4 = 256 words. */
static void case_pixel(void)
{
    static struct blob b;
    memset(&b, 0, sizeof(b));
    build_ps_scale(2, &b);
    struct sb_rt_program *programs[2] = { load_dxil(dxil_program_ps_scale, "dxil ps_scale"),
                                          load(b.bytes, b.size, "ps_4_0 TEXCOORD0 from v2") };
    CHECK(programs[0] && programs[1], "both programs load");
    struct sb_validate_reference_report *r = programs[0] && programs[1] ? compare(programs[0], programs[1]) : NULL;
    if (r)
        CHECK(r->verdict == SB_VALIDATE_AGREE && r->words_compared == 256, "verdict %s, %llu words; want agree, 256",
              sb_validate_verdict_name(r->verdict), (unsigned long long)r->words_compared);
    finish(r, programs);
}

int main(int argc, char **argv)
{
    static const struct {
        const char *name;
        void (*run)(void);
    } cases[] = { { "twin", case_twin }, { "variant", case_variant }, { "self", case_self },
                  { "precision", case_precision }, { "interfaces", case_interfaces },
                  { "vertex", case_vertex }, { "pixel", case_pixel } };
    if (argc != 2) {
        fprintf(stderr, "usage: test_validate_reference CASE\n");
        return 2;
    }
    if (!strcmp(argv[1], "device")) {
        int skipped = case_device();
        printf("device: %u checks, %u failed\n", checks, failures);
        return failures ? 1 : skipped;
    }
    for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++)
        if (!strcmp(argv[1], cases[k].name)) {
            cases[k].run();
            printf("%s: %u checks, %u failed\n", argv[1], checks, failures);
            return failures ? 1 : 0;
        }
    fprintf(stderr, "unknown case '%s'\n", argv[1]);
    return 2;
}
