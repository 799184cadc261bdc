/* SPDX-License-Identifier: MIT */
/*
 * validate_inputs: sb_validate retrying with inputs a shader can run with
 * (validate.h, runtime/src/validate/validate_retry.c), on hand-assembled
 * shaders that need no corpus:
 *
 *  1. index_from_buffer (cs_5_1): U0[0:1] (space 1) indexed with a word loaded
 *     from raw T0; a seed whose word is >= 2 stops the interpreter, the retry
 *     reseeds T0 in [0, 2) and each thread's store lands in that UAV.
 *  2. bounded_by_thread: U0[0:1] indexed by vThreadID.x over 8 threads: no
 *     input feeds the index, so sb_validate gives up with the interpreter's
 *     SB_ERROR_RUN_BINDING.
 *  3. unbounded_by_thread (cs_5_1, interpreter only: the index is not uniform,
 *     which lavapipe 22.3 cannot run): U0[0:*] indexed by vThreadID.x over 32
 *     threads gets 64 descriptors, each 8 KiB (a 64 KiB buffer / 8).
 *  4. compute_loop (cs_5_0): x from a structured buffer doubled while <= 100:
 *     seeded x <= 0 never ends; the retry with SB_RT_INPUTS_SMALL does, and the
 *     iteration counts are what x gives.
 *  5. vertex_loop (vs_4_0): the same loop on v0.x from the vertex streams,
 *     which the graphics harness seeds small on the retry.
 * With a Vulkan device (lavapipe in ctest) 1, 4 and 5 also run on it and must
 * agree; without one every case runs on the interpreter alone.
 *
 * Usage: test_validate_inputs. Exit 0 pass, 1 fail.
 */
#define _POSIX_C_SOURCE 200809L

#include <dlfcn.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "shaderbridge/validate.h"
#include "sm4_asm.h"
#include "check.h"

static uint32_t fbits(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

static float bitsf(uint32_t u)
{
    float f;
    memcpy(&f, &u, 4);
    return f;
}

/* ---- SM5.1 operands (../shared/docs/sm4-tokens.md §5.5) ------------------------------------- */

/* ---- the shaders ---------------------------------------------------------------------------- */

/* Case 1 (index from T0's first word) or 2 (index = vThreadID.x): thread t stores t + 1 at
 * byte 4t of U0[index], a range of two raw UAVs in space 1. */
static void build_indexed_store(bool from_buffer, struct blob *out)
{
    static struct sm4_program p;
    sm4_begin_cs51(&p, 8, 2);
    uint32_t space0 = 0, space1 = 1;
    sm4_decl(&p, OP_DCL_RESOURCE_RAW, sm4_range51(T_RESOURCE, 0, 0, 0), 1, &space0);
    sm4_decl(&p, OP_DCL_UAV_RAW, sm4_range51(T_UAV, 0, 0, 1), 1, &space1);
    sm4_dcl_thread_id(&p, T_THREAD_ID, "x");
    if (from_buffer)
        I(&p, OP_LD_RAW, dr(0, "x"), l1(0), sm4_reg51(T_RESOURCE, 0, 0, NULL, "xxxx", 0, 0));
    else
        I(&p, OP_MOV, dr(0, "x"), special(T_THREAD_ID, "x"));
    I(&p, OP_ISHL, dr(1, "x"), special(T_THREAD_ID, "x"), l1(2));
    I(&p, OP_IADD, dr(1, "y"), special(T_THREAD_ID, "x"), l1(1));
    struct sm4_operand index = sr(0, "x");
    I(&p, OP_STORE_RAW, sm4_reg51(T_UAV, 0, 0, &index, "x", 1, 0), sr(1, "x"), sr(1, "y"));
    sm4_end(&p);
    sm4_container(&p, out);
}

/* Case 3: thread t (of 32) stores t + 1 at byte 0 of U0[t], an unbounded range of raw UAVs. */
static void build_unbounded_store(struct blob *out)
{
    static struct sm4_program p;
    sm4_begin_cs51(&p, 32, 2);
    uint32_t space0 = 0;
    sm4_decl(&p, OP_DCL_UAV_RAW, sm4_range51(T_UAV, 0, 0, 0xFFFFFFFFu), 1, &space0);
    sm4_dcl_thread_id(&p, T_THREAD_ID, "x");
    I(&p, OP_MOV, dr(0, "x"), special(T_THREAD_ID, "x"));
    I(&p, OP_IADD, dr(1, "x"), special(T_THREAD_ID, "x"), l1(1));
    struct sm4_operand index = sr(0, "x");
    I(&p, OP_STORE_RAW, sm4_reg51(T_UAV, 0, 0, &index, "x", 1, 0), l1(0), sr(1, "x"));
    sm4_end(&p);
    sm4_container(&p, out);
}

/* r0.x doubled while it is <= 100, r0.y counting the doublings. */
static void emit_doubling_loop(struct sm4_program *p)
{
    I(p, OP_MOV, dr(0, "y"), l1(0));
    I0(p, OP_LOOP, 0);
    I(p, OP_LT, dr(1, "x"), lf(100.0f), sr(0, "x"));
    IC(p, OP_BREAKC, SM4_NZ, sr(1, "x"));
    I(p, OP_ADD, dr(0, "x"), sr(0, "x"), sr(0, "x"));
    I(p, OP_IADD, dr(0, "y"), sr(0, "y"), l1(1));
    I0(p, OP_ENDLOOP, 0);
}

/* Case 4: 64 threads; x = t0[thread] (structured, 4 bytes, no RDEF: float words); u0 (raw)
 * gets the doublings at byte 4 * thread. */
static void build_compute_loop(struct blob *out)
{
    static struct sm4_program p;
    sm4_begin_cs(&p, 64, 1, 1, 2);
    sm4_dcl_resource_structured(&p, 0, 4);
    sm4_dcl_uav_raw(&p, 0);
    sm4_dcl_thread_id(&p, T_THREAD_ID, "x");
    I(&p, OP_LD_STRUCTURED, dr(0, "x"), special(T_THREAD_ID, "x"), l1(0), st(0, "xxxx"));
    emit_doubling_loop(&p);
    I(&p, OP_ISHL, dr(1, "x"), special(T_THREAD_ID, "x"), l1(2));
    I(&p, OP_STORE_RAW, du(0, "x"), sr(1, "x"), sr(0, "y"));
    sm4_end(&p);
    sm4_container(&p, out);
}

/* Case 5: o0 = SV_Position (0, 0, 0, 1), o1.x = v0.x doubled past 100, o1.y = the doublings. */
static void build_vertex_loop(struct blob *out)
{
    static struct sm4_program p;
    sm4_begin(&p, 1, 4, 0, 2);
    sm4_dcl_io(&p, 95, 0, T_INPUT, 0, "xyzw", -1);
    sm4_dcl_io(&p, 103, 0, T_OUTPUT, 0, "xyzw", 1); /* SV_Position */
    sm4_dcl_io(&p, 101, 0, T_OUTPUT, 1, "xy", -1);
    I(&p, OP_MOV, dr(0, "x"), sm4_reg(T_INPUT, 1, (uint32_t[]){ 0 }, NULL, "x", 0));
    emit_doubling_loop(&p);
    I(&p, OP_MOV, sm4_reg(T_OUTPUT, 1, (uint32_t[]){ 0 }, NULL, "xyzw", 1), l4(0, 0, 0, fbits(1.0f)));
    I(&p, OP_MOV, sm4_reg(T_OUTPUT, 1, (uint32_t[]){ 1 }, NULL, "xy", 1), sr(0, "xyyy"));
    sm4_end(&p);
    const struct sig_element_spec in[] = { { 0, "ATTR", 0, 0, 3, 0, 0xf, 0x1, 0 } };
    const struct sig_element_spec outs[] = {
        { 0, "SV_Position", 0, 1, 3, 0, 0xf, 0x0, 0 },
        { 0, "TEXCOORD", 0, 0, 3, 1, 0x3, 0xc, 0 },
    };
    sm4_container_sig(&p, in, 1, outs, 2, NULL, 0, out);
}

/* ---- running them --------------------------------------------------------------------------- */

static const struct sb_rt_resource *find(const struct sb_rt_inputs *in, uint32_t resource_class, uint32_t space,
                                         uint32_t reg)
{
    for (uint32_t i = 0; in && i < in->count; i++)
        if (in->resources[i].resource_class == resource_class && in->resources[i].space == space &&
            in->resources[i].register_index == reg)
            return &in->resources[i];
    return NULL;
}

static uint32_t word(const struct sb_rt_resource *r, uint64_t w)
{
    uint32_t v = 0;
    if (r && r->data && (w + 1) * 4 <= r->size)
        memcpy(&v, (const uint8_t *)r->data + w * 4, 4);
    return v;
}

static struct sb_rt_program *load(const struct blob *b, const char *name)
{
    struct sb_rt_program *program = NULL;
    struct sb_error e = { 0 };
    if (sb_rt_program_load(b->bytes, b->size, NULL, &program, &e) != SB_SUCCESS)
        printf("FAIL %s: does not load: %s\n", name, e.message);
    return program;
}

/* sb_validate on both sides when `gpu`, else the interpreter alone. */
static enum sb_result validate(struct sb_rt_context *context, bool gpu, const struct sb_rt_program *program,
                               uint64_t seed, struct sb_validate_report **report, struct sb_error *error)
{
    struct sb_validate_options o = { .inputs = { .seed = seed }, .sides = gpu ? 0 : SB_VALIDATE_SIDE_CPU };
    /* The loops' first runs end at the budget: a small one keeps that quick. */
    o.interp.instruction_budget = 1u << 20;
    memset(error, 0, sizeof(*error));
    return sb_validate(context, program, &o, report, error);
}

static void expect_agreement(const struct sb_validate_report *r, bool gpu, const char *name)
{
    printf("%s: %s; %s\n", name, r->input_note, gpu ? sb_validate_verdict_name(r->verdict) : "interpreter only");
    if (gpu)
        CHECK(r->verdict == SB_VALIDATE_AGREE && r->mismatch_count == 0, "%s: verdict %s (%s)", name,
              sb_validate_verdict_name(r->verdict), r->reason);
}

static void case_index_from_buffer(struct sb_rt_context *context, bool gpu)
{
    static struct blob b;
    build_indexed_store(true, &b);
    struct sb_rt_program *program = load(&b, "index_from_buffer");
    if (!program) {
        failures++;
        return;
    }
    /* A seed whose T0 word 0 lies outside U0[0:1]: the first run must stop. */
    uint64_t seed = 0;
    for (uint64_t s = 1; s < 256 && !seed; s++) {
        struct sb_rt_inputs *in = NULL;
        struct sb_error e = { 0 };
        struct sb_rt_input_options io = { .seed = s };
        if (sb_rt_inputs_create(program, &io, &in, &e) == SB_SUCCESS &&
            word(find(in, SB_IR_RESOURCE_SRV, 0, 0), 0) >= 2)
            seed = s;
        sb_rt_inputs_destroy(in);
    }
    CHECK(seed, "index_from_buffer: no seed among 255 puts T0's word outside the range");
    struct sb_validate_report *r = NULL;
    struct sb_error e;
    enum sb_result res = validate(context, gpu, program, seed, &r, &e);
    CHECK(res == SB_SUCCESS, "index_from_buffer: %s", e.message);
    if (res == SB_SUCCESS) {
        CHECK(r->input_retries == 1, "index_from_buffer: %u retries, want 1", r->input_retries);
        CHECK(r->input_changes == SB_VALIDATE_INPUTS_INDEX_DATA, "index_from_buffer: changes %#x",
              r->input_changes);
        CHECK(r->unbounded_descriptors == 0, "index_from_buffer: %u unbounded descriptors",
              r->unbounded_descriptors);
        CHECK(strstr(r->input_note, "t0 [0, 2)") && strstr(r->input_note, "outside the range u0..1"),
              "index_from_buffer: note '%s'", r->input_note);
        uint32_t index = word(find(r->cpu, SB_IR_RESOURCE_SRV, 0, 0), 0);
        CHECK(index < 2, "index_from_buffer: T0 word 0 = %u after the retry", index);
        const struct sb_rt_resource *u = find(r->cpu, SB_IR_RESOURCE_UAV, 1, index);
        for (uint32_t t = 0; t < 8; t++)
            CHECK(word(u, t) == t + 1, "index_from_buffer: u%u (space 1) word %u = %u, want %u", index, t,
                  word(u, t), t + 1);
        expect_agreement(r, gpu, "index_from_buffer");
    }
    sb_validate_report_destroy(r);
    sb_rt_program_destroy(program);
}

static void case_bounded_by_thread(struct sb_rt_context *context, bool gpu)
{
    static struct blob b;
    build_indexed_store(false, &b);
    struct sb_rt_program *program = load(&b, "bounded_by_thread");
    if (!program) {
        failures++;
        return;
    }
    struct sb_validate_report *r = NULL;
    struct sb_error e;
    enum sb_result res = validate(context, gpu, program, 1, &r, &e);
    CHECK(res == SB_ERROR_RUN_BINDING && !r, "bounded_by_thread: %s, want SB_ERROR_RUN_BINDING",
          sb_result_name(res));
    CHECK(strstr(e.message, "u2 (space 1) is outside the range u0..1"), "bounded_by_thread: '%s'", e.message);
    printf("bounded_by_thread: %s (%s)\n", sb_result_name(res), e.message);
    sb_validate_report_destroy(r);
    sb_rt_program_destroy(program);
}

static void case_unbounded_by_thread(struct sb_rt_context *context)
{
    static struct blob b;
    build_unbounded_store(&b);
    struct sb_rt_program *program = load(&b, "unbounded_by_thread");
    if (!program) {
        failures++;
        return;
    }
    struct sb_validate_report *r = NULL;
    struct sb_error e;
    enum sb_result res = validate(context, false, program, 1, &r, &e);
    CHECK(res == SB_SUCCESS, "unbounded_by_thread: %s", e.message);
    if (res == SB_SUCCESS) {
        CHECK(r->input_retries == 1 && r->input_changes == SB_VALIDATE_INPUTS_DESCRIPTORS,
              "unbounded_by_thread: %u retries, changes %#x", r->input_retries, r->input_changes);
        CHECK(r->unbounded_descriptors == 64 && r->cpu->count == 64, "unbounded_by_thread: %u descriptors, %u "
              "resources, want 64", r->unbounded_descriptors, r->cpu->count);
        CHECK(strstr(r->input_note, "64 descriptors per unbounded range") &&
              strstr(r->input_note, "u8 (space 0) is not bound"), "unbounded_by_thread: note '%s'", r->input_note);
        for (uint32_t t = 0; t < 32; t++) {
            const struct sb_rt_resource *u = find(r->cpu, SB_IR_RESOURCE_UAV, 0, t);
            CHECK(u && u->size == 65536 / 8, "unbounded_by_thread: u%u holds %zu bytes, want 8192", t,
                  u ? u->size : 0);
            CHECK(word(u, 0) == t + 1, "unbounded_by_thread: u%u word 0 = %u, want %u", t, word(u, 0), t + 1);
        }
        expect_agreement(r, false, "unbounded_by_thread");
    }
    sb_validate_report_destroy(r);
    sb_rt_program_destroy(program);
}

/* Doublings that take x past 100. */
static uint32_t doublings(float x)
{
    uint32_t n = 0;
    while (!(100.0f < x) && n < 1000) {
        x += x;
        n++;
    }
    return n;
}

static void case_compute_loop(struct sb_rt_context *context, bool gpu)
{
    static struct blob b;
    build_compute_loop(&b);
    struct sb_rt_program *program = load(&b, "compute_loop");
    if (!program) {
        failures++;
        return;
    }
    struct sb_validate_report *r = NULL;
    struct sb_error e;
    enum sb_result res = validate(context, gpu, program, 1, &r, &e);
    CHECK(res == SB_SUCCESS, "compute_loop: %s", e.message);
    if (res == SB_SUCCESS) {
        CHECK(r->input_retries == 1 && r->input_changes == SB_VALIDATE_INPUTS_SMALL,
              "compute_loop: %u retries, changes %#x", r->input_retries, r->input_changes);
        CHECK(strstr(r->input_note, "seeded numbers small and positive") &&
              strstr(r->input_note, "instruction budget of 1048576 exhausted"), "compute_loop: note '%s'",
              r->input_note);
        const struct sb_rt_resource *t0 = find(r->cpu, SB_IR_RESOURCE_SRV, 0, 0);
        const struct sb_rt_resource *u0 = find(r->cpu, SB_IR_RESOURCE_UAV, 0, 0);
        for (uint32_t t = 0; t < 64; t++) {
            float x = bitsf(word(t0, t));
            CHECK(x > 0.0f && x <= 2.0f && x * 256.0f == (float)(int)(x * 256.0f),
                  "compute_loop: t0[%u] = %g, want a multiple of 1/256 in (0, 2]", t, (double)x);
            CHECK(word(u0, t) == doublings(x), "compute_loop: u0[%u] = %u, want %u for %g", t, word(u0, t),
                  doublings(x), (double)x);
        }
        expect_agreement(r, gpu, "compute_loop");
    }
    sb_validate_report_destroy(r);
    sb_rt_program_destroy(program);
}

static void case_vertex_loop(struct sb_rt_context *context, bool gpu)
{
    static struct blob b;
    build_vertex_loop(&b);
    struct sb_rt_program *program = load(&b, "vertex_loop");
    if (!program) {
        failures++;
        return;
    }
    struct sb_validate_report *r = NULL;
    struct sb_error e;
    enum sb_result res = validate(context, gpu, program, 1, &r, &e);
    CHECK(res == SB_SUCCESS, "vertex_loop: %s", e.message);
    if (res == SB_SUCCESS) {
        CHECK(r->input_retries == 1 && r->input_changes == SB_VALIDATE_INPUTS_SMALL,
              "vertex_loop: %u retries, changes %#x", r->input_retries, r->input_changes);
        /* The captured outputs (SB_VALIDATE_CLASS_OUTPUT): o0, o1 of each of the 64 vertices. */
        const struct sb_rt_resource *o = find(r->cpu, SB_VALIDATE_CLASS_OUTPUT, 0, 0);
        CHECK(o && o->size == 64 * 2 * 16, "vertex_loop: output record of %zu bytes, want %u", o ? o->size : 0,
              64 * 2 * 16);
        for (uint32_t v = 0; o && v < 64; v++) {
            float x = bitsf(word(o, v * 8 + 4));
            uint32_t n = word(o, v * 8 + 5);
            /* v0.x in (0, 2] doubled n times ends in (100, 200], after 6 to 15 doublings. */
            CHECK(x > 100.0f && x <= 200.0f && n >= 6 && n <= 15, "vertex_loop: vertex %u: x %g after %u "
                  "doublings", v, (double)x, n);
        }
        expect_agreement(r, gpu, "vertex_loop");
    }
    sb_validate_report_destroy(r);
    sb_rt_program_destroy(program);
}

int main(void)
{
    struct sb_rt_context *context = NULL;
    struct sb_error error = { 0 };
    struct sb_rt_context_options options = { .validation = true, .allow_cpu_only = true };
    if (sb_rt_context_create(&options, &context, &error) != SB_SUCCESS) {
        printf("FAIL: no context: %s\n", error.message);
        return 1;
    }
    /* Keep lavapipe loaded after the context goes (LeakSanitizer; tests/CMakeLists.txt). */
    (void)dlopen("libvulkan_lvp.so", RTLD_NOW | RTLD_NOLOAD);
    bool gpu = sb_rt_context_has_device(context);
    printf("validate_inputs on %s\n", sb_rt_context_device_name(context));
    case_index_from_buffer(context, gpu);
    case_bounded_by_thread(context, gpu);
    case_unbounded_by_thread(context);
    case_compute_loop(context, gpu);
    case_vertex_loop(context, gpu);
    uint32_t layer_errors = sb_rt_context_validation_errors(context);
    CHECK(layer_errors == 0, "%u validation-layer errors; first: %s", layer_errors,
          sb_rt_context_first_validation_error(context));
    sb_rt_context_destroy(context);
    printf("%s: %d failures\n", failures ? "FAIL" : "PASS", failures);
    return failures ? 1 : 0;
}
