/* SPDX-License-Identifier: MIT */
/*
 * Focused tests of the CPU interpreter for what the known-answer cases do
 * not reach: the instruction budget on a loop that never ends (code and
 * offset), a missing or too small resource (RUN_BINDING), invalid
 * arguments, raw/structured accesses that run partly past the end of a
 * buffer (each DWORD checked on its own), group-shared clamping,
 * append/consume counters (consume below 0 wraps), typed UAV formats
 * (unorm8 and half float, written and read back), sample_l with linear
 * filtering and the address modes, and the RUN_UNSUPPORTED report of an op
 * the interpreter does not run, and dispatches on several worker threads
 * (same bits as one thread; UAV atomics stay on one thread; the budget
 * still ends a loop that never ends), and the precision-sensitivity
 * option approx_ulps. Programs are assembled with
 * tests/vulkan/sm4_asm.h and lowered with sb_sm4_decode + sb_ir_from_sm4.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shaderbridge/interp.h"
#include "translator/ir.h"
#include "translator/sm4.h"
#include "sm4_asm.h"

static unsigned failures;

#define CHECK(cond, ...)                                                                  \
    do {                                                                                  \
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

/* Lowers a program; NULL (with a message) on failure. */
static struct sb_ir_program *lower(const struct sm4_program *p)
{
    struct sb_sm4_program *sm4 = NULL;
    struct sb_ir_program *ir = NULL;
    struct sb_error err;
    memset(&err, 0, sizeof(err));
    if (sb_sm4_decode(p->tok, p->n * 4, 0, &sm4, &err) != SB_SUCCESS ||
        sb_ir_from_sm4(sm4, NULL, &ir, &err) != SB_SUCCESS)
        fprintf(stderr, "lowering failed: %s\n", err.message);
    sb_sm4_program_destroy(sm4);
    return ir;
}

static enum sb_result run(const struct sm4_program *p, struct sb_rt_resource *table, uint32_t count,
                          uint64_t budget, struct sb_error *err, struct sb_ir_program **out)
{
    struct sb_ir_program *ir = lower(p);
    if (!ir)
        return SB_ERROR_TRANSLATE_INVALID;
    const uint32_t groups[3] = { 1, 1, 1 };
    struct sb_interp_options options = { .instruction_budget = budget };
    memset(err, 0, sizeof(*err));
    enum sb_result r = sb_interp_dispatch(ir, table, count, groups, &options, NULL, err);
    if (out)
        *out = ir;
    else
        sb_ir_program_destroy(ir);
    return r;
}

static struct sb_rt_resource buffer(uint32_t cls, uint32_t reg, void *data, size_t size)
{
    struct sb_rt_resource r;
    memset(&r, 0, sizeof(r));
    r.resource_class = cls;
    r.register_index = reg;
    r.data = data;
    r.size = size;
    r.layers = r.mip_levels = r.sample_count = 1;
    return r;
}

/* loop/endloop without a break: RUN_BUDGET at one of the loop's instructions. */
static void test_budget(void)
{
    struct sm4_program p;
    sm4_begin_cs(&p, 4, 1, 1, 1);
    I(&p, OP_MOV, dr(0, "x"), l1(0));
    I0(&p, OP_LOOP, 0);
    I(&p, OP_IADD, dr(0, "x"), sr(0, "x"), l1(1));
    I0(&p, OP_ENDLOOP, 0);
    sm4_end(&p);
    struct sb_error err;
    struct sb_ir_program *ir = NULL;
    enum sb_result r = run(&p, NULL, 0, 1000, &err, &ir);
    CHECK(r == SB_ERROR_RUN_BUDGET, "got %s", sb_result_name(r));
    CHECK(err.code == SB_ERROR_RUN_BUDGET, "error code %d", (int)err.code);
    bool in_loop = false;
    for (uint32_t i = 0; ir && i < ir->functions[0].instruction_count; i++) {
        const struct sb_ir_instruction *in = &ir->functions[0].instructions[i];
        if ((in->op == SB_IR_OP_LOOP || in->op == SB_IR_OP_IADD || in->op == SB_IR_OP_ENDLOOP) &&
            in->offset == err.offset)
            in_loop = true;
    }
    CHECK(in_loop && err.offset > 0, "offset %llu is not in the loop", (unsigned long long)err.offset);
    CHECK(strstr(err.message, "budget") != NULL, "message: %s", err.message);
    sb_ir_program_destroy(ir);
}

/* u1 declared and used but absent; then present but a texture too small. */
static void test_binding(void)
{
    struct sm4_program p;
    sm4_begin_cs(&p, 1, 1, 1, 1);
    sm4_dcl_uav_raw(&p, 0);
    sm4_dcl_uav_raw(&p, 1);
    I(&p, OP_LD_RAW, dr(0, "x"), l1(0), su(1, "x"));
    I(&p, OP_STORE_RAW, du(0, "x"), l1(0), sr(0, "x"));
    sm4_end(&p);
    uint32_t out = 0;
    struct sb_rt_resource t[1] = { buffer(SB_IR_RESOURCE_UAV, 0, &out, 4) };
    struct sb_error err;
    enum sb_result r = run(&p, t, 1, 0, &err, NULL);
    CHECK(r == SB_ERROR_RUN_BINDING, "got %s", sb_result_name(r));
    CHECK(strstr(err.message, "u1") != NULL, "message does not name u1: %s", err.message);

    sm4_begin_cs(&p, 1, 1, 1, 1);
    sm4_dcl_resource(&p, 0, 3, 0x5555);
    sm4_dcl_uav_raw(&p, 0);
    I(&p, OP_LD, dr(0, "xyzw"), l4(0, 0, 0, 0), st(0, "xyzw"));
    I(&p, OP_STORE_RAW, du(0, "x"), l1(0), sr(0, "x"));
    sm4_end(&p);
    float texels[4] = { 1, 2, 3, 4 };
    struct sb_rt_resource t2[2] = { buffer(SB_IR_RESOURCE_UAV, 0, &out, 4),
                                    buffer(SB_IR_RESOURCE_SRV, 0, texels, sizeof(texels)) };
    t2[1].format = SB_RT_FORMAT_R32G32B32A32_FLOAT;
    t2[1].width = 2; /* 2x1 needs 32 bytes */
    t2[1].height = 1;
    r = run(&p, t2, 2, 0, &err, NULL);
    CHECK(r == SB_ERROR_RUN_BINDING, "too small texture: got %s", sb_result_name(r));
    t2[1].width = 1;
    r = run(&p, t2, 2, 0, &err, NULL);
    CHECK(r == SB_SUCCESS && out == f2u(1.0f), "ld: %s, out 0x%08x", sb_result_name(r), out);

    struct sb_ir_program *ir = lower(&p);
    uint32_t zero[3] = { 0, 1, 1 };
    r = ir ? sb_interp_dispatch(ir, t2, 2, zero, NULL, NULL, &err) : SB_ERROR_TRANSLATE_INVALID;
    CHECK(r == SB_ERROR_INVALID_ARGUMENT, "zero groups: got %s", sb_result_name(r));
    sb_ir_program_destroy(ir);
}

/* Partly out-of-range raw and structured vectors; g# clamps. */
static void test_bounds(void)
{
    struct sm4_program p;
    sm4_begin_cs(&p, 1, 1, 1, 4);
    sm4_dcl_uav_raw(&p, 0);
    sm4_dcl_uav_raw(&p, 1);
    sm4_dcl_uav_structured(&p, 2, 8);
    sm4_dcl_tgsm_raw(&p, 0, 8);
    I(&p, OP_LD_RAW, dr(0, "xyzw"), l1(8), su(1, "xyzw"));           /* dwords 2, 3 in; 4, 5 out */
    I(&p, OP_STORE_RAW, du(0, "xyzw"), l1(0), sr(0, "xyzw"));
    I(&p, OP_STORE_RAW, du(1, "xyzw"), l1(12), l4(9, 9, 9, 9));       /* only dword 3 lands */
    I(&p, OP_LD_STRUCTURED, dr(1, "xy"), l1(1), l1(4), su(2, "xyxx")); /* dwords 3 (in), 4 (out) */
    I(&p, OP_STORE_RAW, du(0, "xy"), l1(16), sr(1, "xyxx"));
    I(&p, OP_STORE_RAW, dg(0, "x"), l1(400), l1(77));                 /* clamped to the last DWORD */
    I(&p, OP_LD_RAW, dr(2, "x"), l1(4), sg(0, "x"));
    I(&p, OP_STORE_RAW, du(0, "x"), l1(24), sr(2, "x"));
    sm4_end(&p);
    uint32_t out[8], in[6] = { 1, 2, 3, 4, 0xC0FFEE, 0xC0FFEE }, st[4] = { 10, 11, 12, 13 };
    memset(out, 0xEE, sizeof(out));
    struct sb_rt_resource t[3] = { buffer(SB_IR_RESOURCE_UAV, 0, out, sizeof(out)),
                                   buffer(SB_IR_RESOURCE_UAV, 1, in, 16),
                                   buffer(SB_IR_RESOURCE_UAV, 2, st, 16) };
    struct sb_error err;
    enum sb_result r = run(&p, t, 3, 0, &err, NULL);
    CHECK(r == SB_SUCCESS, "%s: %s", sb_result_name(r), err.message);
    const uint32_t want[7] = { 3, 4, 0, 0, 13, 0, 77 };
    for (uint32_t i = 0; i < 7; i++)
        CHECK(out[i] == want[i], "out[%u] = 0x%x, want 0x%x", i, out[i], want[i]);
    CHECK(in[3] == 9 && in[4] == 0xC0FFEE && in[5] == 0xC0FFEE, "store past the end: %x %x %x", in[3], in[4], in[5]);
}

/* imm_atomic_consume below 0 wraps; imm_atomic_alloc returns the value before. */
static void test_counters(void)
{
    struct sm4_program p;
    sm4_begin_cs(&p, 4, 1, 1, 2);
    sm4_dcl_uav_raw(&p, 0);
    sm4_dcl_uav_structured(&p, 1, 4);
    sm4_dcl_uav_structured(&p, 2, 4);
    sm4_dcl_thread_id(&p, T_THREAD_ID, "x");
    I(&p, OP_IMM_ATOMIC_CONSUME, dr(0, "x"), du(1, ""));
    I(&p, OP_IMM_ATOMIC_ALLOC, dr(0, "y"), du(2, ""));
    I(&p, OP_ISHL, dr(1, "x"), special(T_THREAD_ID, "x"), l1(3));
    I(&p, OP_STORE_RAW, du(0, "xy"), sr(1, "x"), sr(0, "xyxx"));
    sm4_end(&p);
    uint32_t out[8] = { 0 }, b1[4] = { 0 }, b2[4] = { 0 };
    struct sb_rt_resource t[3] = { buffer(SB_IR_RESOURCE_UAV, 0, out, sizeof(out)),
                                   buffer(SB_IR_RESOURCE_UAV, 1, b1, sizeof(b1)),
                                   buffer(SB_IR_RESOURCE_UAV, 2, b2, sizeof(b2)) };
    t[1].counter = 2;
    t[2].counter = 10;
    struct sb_error err;
    enum sb_result r = run(&p, t, 3, 0, &err, NULL);
    CHECK(r == SB_SUCCESS, "%s: %s", sb_result_name(r), err.message);
    /* Lanes run in order: consume gives 1, 0, 0xFFFFFFFF, 0xFFFFFFFE; alloc 10..13. */
    const uint32_t consumed[4] = { 1, 0, 0xFFFFFFFFu, 0xFFFFFFFEu };
    for (uint32_t i = 0; i < 4; i++) {
        CHECK(out[2 * i] == consumed[i], "consume[%u] = 0x%x", i, out[2 * i]);
        CHECK(out[2 * i + 1] == 10 + i, "alloc[%u] = %u", i, out[2 * i + 1]);
    }
    CHECK(t[1].counter == 0xFFFFFFFEu && t[2].counter == 14, "counters %x %u", t[1].counter, t[2].counter);
}

/* store_uav_typed into unorm8 and half-float 2D UAVs, read back with ld_uav_typed. */
static void test_formats(void)
{
    struct sm4_program p;
    sm4_begin_cs(&p, 1, 1, 1, 2);
    sm4_dcl_uav_raw(&p, 0);
    sm4_dcl_uav_typed(&p, 1, 3, 0x1111); /* Texture2D unorm */
    sm4_dcl_uav_typed(&p, 2, 3, 0x5555); /* Texture2D float */
    I(&p, OP_STORE_UAV_TYPED, du(1, "xyzw"), l4(1, 0, 0, 0),
      l4(f2u(0.5f), f2u(1.5f), f2u(-1.0f), f2u(0.2f)));
    I(&p, OP_STORE_UAV_TYPED, du(2, "xyzw"), l4(0, 1, 0, 0),
      l4(f2u(1.0f), f2u(0.5f), f2u(-2.0f), f2u(65504.0f)));
    I(&p, OP_LD_UAV_TYPED, dr(0, "xyzw"), l4(1, 0, 0, 0), su(1, "xyzw"));
    I(&p, OP_STORE_RAW, du(0, "xyzw"), l1(0), sr(0, "xyzw"));
    I(&p, OP_LD_UAV_TYPED, dr(1, "xyzw"), l4(0, 1, 0, 0), su(2, "wzyx"));
    I(&p, OP_STORE_RAW, du(0, "xyzw"), l1(16), sr(1, "xyzw"));
    I(&p, OP_STORE_UAV_TYPED, du(1, "xyzw"), l4(5, 0, 0, 0), l4(0, 0, 0, 0)); /* outside: dropped */
    sm4_end(&p);
    uint32_t out[8] = { 0 };
    uint8_t unorm[2 * 2 * 4 + 4];
    uint16_t half[2 * 2 * 4];
    memset(unorm, 0x11, sizeof(unorm));
    memset(half, 0, sizeof(half));
    struct sb_rt_resource t[3] = { buffer(SB_IR_RESOURCE_UAV, 0, out, sizeof(out)),
                                   buffer(SB_IR_RESOURCE_UAV, 1, unorm, 16),
                                   buffer(SB_IR_RESOURCE_UAV, 2, half, sizeof(half)) };
    t[1].format = SB_RT_FORMAT_R8G8B8A8_UNORM;
    t[2].format = SB_RT_FORMAT_R16G16B16A16_FLOAT;
    t[1].width = t[1].height = t[2].width = t[2].height = 2;
    t[1].dimension = t[2].dimension = 3;
    struct sb_error err;
    enum sb_result r = run(&p, t, 3, 0, &err, NULL);
    CHECK(r == SB_SUCCESS, "%s: %s", sb_result_name(r), err.message);
    CHECK(unorm[4] == 128 && unorm[5] == 255 && unorm[6] == 0 && unorm[7] == 51, "unorm texel %u %u %u %u",
          unorm[4], unorm[5], unorm[6], unorm[7]);
    CHECK(unorm[16] == 0x11 && unorm[0] == 0x11, "writes outside the texel");
    CHECK(half[8] == 0x3C00 && half[9] == 0x3800 && half[10] == 0xC000 && half[11] == 0x7BFF,
          "half texel %04x %04x %04x %04x", half[8], half[9], half[10], half[11]);
    const uint32_t want[8] = { f2u(128.0f / 255.0f), f2u(1.0f), f2u(0.0f), f2u(51.0f / 255.0f),
                               f2u(65504.0f), f2u(-2.0f), f2u(0.5f), f2u(1.0f) };
    for (uint32_t i = 0; i < 8; i++)
        CHECK(out[i] == want[i], "read back [%u] = 0x%08x, want 0x%08x", i, out[i], want[i]);
}

/* sample_l on a 2x1 R32_FLOAT texture (0, 1) with a linear sampler under three address modes. */
static void test_linear(void)
{
    struct sm4_program p;
    sm4_begin_cs(&p, 1, 1, 1, 2);
    sm4_dcl_uav_raw(&p, 0);
    sm4_dcl_resource(&p, 0, 3, 0x5555);
    sm4_dcl_sampler(&p, 0);
    I(&p, OP_SAMPLE_L, dr(0, "x"), l4(f2u(0.5f), f2u(0.5f), 0, 0), st(0, "xxxx"), ss(0), lf(0.0f));
    I(&p, OP_SAMPLE_L, dr(0, "y"), l4(0, f2u(0.5f), 0, 0), st(0, "xxxx"), ss(0), lf(0.0f));
    I(&p, OP_SAMPLE_L, dr(0, "z"), l4(f2u(0.375f), f2u(0.5f), 0, 0), st(0, "xxxx"), ss(0), lf(0.0f));
    I(&p, OP_STORE_RAW, du(0, "xyz"), l1(0), sr(0, "xyzx"));
    sm4_end(&p);
    static const uint32_t modes[3] = { SB_RT_ADDRESS_CLAMP_TO_EDGE, SB_RT_ADDRESS_REPEAT,
                                       SB_RT_ADDRESS_CLAMP_TO_BORDER };
    static const float want_y[3] = { 0.0f, 0.5f, 0.0f };
    for (uint32_t m = 0; m < 3; m++) {
        float texels[2] = { 0.0f, 1.0f };
        uint32_t out[3] = { 0 };
        struct sb_rt_resource t[3] = { buffer(SB_IR_RESOURCE_UAV, 0, out, sizeof(out)),
                                       buffer(SB_IR_RESOURCE_SRV, 0, texels, sizeof(texels)),
                                       buffer(SB_IR_RESOURCE_SAMPLER, 0, NULL, 0) };
        t[1].format = SB_RT_FORMAT_R32_FLOAT;
        t[1].width = 2;
        t[1].height = 1;
        t[1].dimension = 3;
        t[2].sampler.mag_filter = t[2].sampler.min_filter = SB_RT_FILTER_LINEAR;
        t[2].sampler.address[0] = t[2].sampler.address[1] = modes[m];
        t[2].sampler.max_lod = 1.0f;
        struct sb_error err;
        enum sb_result r = run(&p, t, 3, 0, &err, NULL);
        CHECK(r == SB_SUCCESS, "%s: %s", sb_result_name(r), err.message);
        /* u = 0.5 is halfway between the texel centres, 0.375 a quarter of the way; v = 0.5 hits
         * the one row exactly (v * 1 - 0.5 = 0). At u = 0 the left neighbour is texel 0 itself
         * (clamp), texel 1 (repeat) or the transparent border. */
        CHECK(out[0] == f2u(0.5f), "mode %u: u=0.5 gives %08x", m, out[0]);
        CHECK(out[1] == f2u(want_y[m]), "mode %u: u=0 gives %08x, want %g", m, out[1], (double)want_y[m]);
        CHECK(out[2] == f2u(0.25f), "mode %u: u=0.375 gives %08x", m, out[2]);
    }
}

/* An op the interpreter does not run: RUN_UNSUPPORTED naming it, at its offset. */
static void test_unsupported(void)
{
    struct sm4_program p;
    sm4_begin_cs(&p, 1, 1, 1, 2);
    sm4_dcl_uav_raw(&p, 0);
    sm4_dcl_resource(&p, 0, 4, 0x5555); /* Texture2DMS: never sampled */
    sm4_dcl_sampler(&p, 0);
    I(&p, OP_SAMPLE_L, dr(0, "xyzw"), l4(0, 0, 0, 0), st(0, "xyzw"), ss(0), lf(0.0f));
    I(&p, OP_STORE_RAW, du(0, "x"), l1(0), sr(0, "x"));
    sm4_end(&p);
    float cube[6 * 4] = { 0 };
    uint32_t out = 0;
    struct sb_rt_resource t[3] = { buffer(SB_IR_RESOURCE_UAV, 0, &out, 4),
                                   buffer(SB_IR_RESOURCE_SRV, 0, cube, sizeof(cube)),
                                   buffer(SB_IR_RESOURCE_SAMPLER, 0, NULL, 0) };
    t[1].format = SB_RT_FORMAT_R32G32B32A32_FLOAT;
    t[1].width = t[1].height = 1;
    t[1].dimension = 4;
    struct sb_error err;
    struct sb_ir_program *ir = NULL;
    enum sb_result r = run(&p, t, 3, 0, &err, &ir);
    CHECK(r == SB_ERROR_RUN_UNSUPPORTED, "got %s", sb_result_name(r));
    CHECK(strstr(err.message, "sample_l") != NULL, "message does not name the op: %s", err.message);
    uint64_t want = 0;
    for (uint32_t i = 0; ir && i < ir->functions[0].instruction_count; i++)
        if (ir->functions[0].instructions[i].op == SB_IR_OP_SAMPLE_L)
            want = ir->functions[0].instructions[i].offset;
    CHECK(want && err.offset == want, "offset %llu, want %llu", (unsigned long long)err.offset,
          (unsigned long long)want);
    sb_ir_program_destroy(ir);
}

/* A destination that is also its own swizzled source reads every lane before writing any. */
static void test_alias(void)
{
    struct sm4_program p;
    sm4_begin_cs(&p, 1, 1, 1, 1);
    sm4_dcl_uav_raw(&p, 0);
    sm4_dcl_indexable_temp(&p, 0, 2, 4);
    I(&p, OP_MOV, dr(0, "xyzw"), l4(1, 2, 3, 4));
    I(&p, OP_MOV, dr(0, "xyz"), sr(0, "yxxz"));                  /* (2, 1, 1, 4) */
    I(&p, OP_MOV, sx(0, 1, NULL, "xyzw", 1), l4(5, 6, 7, 8));
    I(&p, OP_MOV, sx(0, 1, NULL, "xy", 1), sx(0, 1, NULL, "yxzw", 0)); /* x0[1] = (6, 5, 7, 8) */
    I(&p, OP_STORE_RAW, du(0, "xyzw"), l1(0), sr(0, "xyzw"));
    I(&p, OP_MOV, dr(0, "xyzw"), sx(0, 1, NULL, "xyzw", 0));
    I(&p, OP_STORE_RAW, du(0, "xyzw"), l1(16), sr(0, "xyzw"));
    sm4_end(&p);
    uint32_t out[8] = { 0 };
    struct sb_rt_resource t[1] = { buffer(SB_IR_RESOURCE_UAV, 0, out, sizeof(out)) };
    struct sb_error err;
    enum sb_result r = run(&p, t, 1, 0, &err, NULL);
    CHECK(r == SB_SUCCESS, "%s: %s", sb_result_name(r), err.message);
    const uint32_t want[8] = { 2, 1, 1, 4, 6, 5, 7, 8 };
    for (uint32_t i = 0; i < 8; i++)
        CHECK(out[i] == want[i], "out[%u] = %u, want %u", i, out[i], want[i]);
}

/* sb_interp_options::approx_ulps: exp and div results move by exactly that many ULPs, away
 * from zero for a positive count, toward it for a negative one; 0 leaves them exact. */
static void test_approx_ulps(void)
{
    struct sm4_program p;
    sm4_begin_cs(&p, 1, 1, 1, 1);
    sm4_dcl_uav_raw(&p, 0);
    I(&p, OP_EXP, dr(0, "x"), lf(1.0f));
    I(&p, OP_DIV, dr(0, "y"), lf(-1.0f), lf(3.0f));
    I(&p, OP_ADD, dr(0, "z"), lf(1.0f), lf(1.0f));
    I(&p, OP_STORE_RAW, du(0, "xyz"), l1(0), sr(0, "xyzx"));
    sm4_end(&p);
    struct sb_ir_program *ir = lower(&p);
    const int32_t moves[3] = { 0, 3, -3 };
    for (int k = 0; ir && k < 3; k++) {
        uint32_t out[3] = { 0 };
        struct sb_rt_resource t = buffer(SB_IR_RESOURCE_UAV, 0, out, sizeof(out));
        const uint32_t groups[3] = { 1, 1, 1 };
        struct sb_interp_options options = { .approx_ulps = moves[k] };
        struct sb_error err;
        memset(&err, 0, sizeof(err));
        enum sb_result r = sb_interp_dispatch(ir, &t, 1, groups, &options, NULL, &err);
        CHECK(r == SB_SUCCESS, "%s: %s", sb_result_name(r), err.message);
        CHECK(out[0] == (uint32_t)((int32_t)f2u(2.0f) + moves[k]), "exp(1) moved by %d: 0x%x", moves[k], out[0]);
        CHECK(out[1] == (uint32_t)((int32_t)f2u(-1.0f / 3.0f) + moves[k]), "-1/3 moved by %d: 0x%x", moves[k],
              out[1]);
        CHECK(out[2] == f2u(2.0f), "add is exact whatever approx_ulps: 0x%x", out[2]);
    }
    sb_ir_program_destroy(ir);
}

static enum sb_result dispatch_threads(const struct sb_ir_program *ir, struct sb_rt_resource *table, uint32_t groups,
                                       uint32_t threads, uint64_t budget, struct sb_error *err)
{
    const uint32_t count[3] = { groups, 1, 1 };
    struct sb_interp_options options = { .instruction_budget = budget, .threads = threads };
    memset(err, 0, sizeof(*err));
    return sb_interp_dispatch(ir, table, 1, count, &options, NULL, err);
}

/* Worker threads: the same bits as one thread; an atomic counter over every group stays exact
 * (such programs run on one thread); the budget still ends a loop that never ends. */
static void test_threads(void)
{
    enum { GROUPS = 40, THREADS_PER_GROUP = 64, N = GROUPS * THREADS_PER_GROUP };
    struct sm4_program p;
    sm4_begin_cs(&p, THREADS_PER_GROUP, 1, 1, 2);
    sm4_dcl_uav_raw(&p, 0);
    sm4_dcl_thread_id(&p, T_THREAD_ID, "x");
    I(&p, OP_ISHL, dr(0, "x"), special(T_THREAD_ID, "x"), l1(5));
    I(&p, OP_XOR, dr(0, "x"), sr(0, "x"), special(T_THREAD_ID, "x"));
    I(&p, OP_IADD, dr(0, "x"), sr(0, "x"), l1(7));
    I(&p, OP_ISHL, dr(1, "x"), special(T_THREAD_ID, "x"), l1(2));
    I(&p, OP_STORE_RAW, du(0, "x"), sr(1, "x"), sr(0, "xxxx"));
    sm4_end(&p);
    struct sb_ir_program *ir = lower(&p);
    static uint32_t serial[N], threaded[N];
    memset(serial, 0xEE, sizeof(serial));
    memset(threaded, 0xEE, sizeof(threaded));
    struct sb_rt_resource a = buffer(SB_IR_RESOURCE_UAV, 0, serial, sizeof(serial));
    struct sb_rt_resource b = buffer(SB_IR_RESOURCE_UAV, 0, threaded, sizeof(threaded));
    struct sb_error err;
    enum sb_result r = ir ? dispatch_threads(ir, &a, GROUPS, 1, 0, &err) : SB_ERROR_TRANSLATE_INVALID;
    CHECK(r == SB_SUCCESS, "serial: %s: %s", sb_result_name(r), err.message);
    r = ir ? dispatch_threads(ir, &b, GROUPS, 4, 0, &err) : SB_ERROR_TRANSLATE_INVALID;
    CHECK(r == SB_SUCCESS, "threads: %s: %s", sb_result_name(r), err.message);
    for (uint32_t i = 0; i < N; i++) {
        uint32_t want = ((i << 5) ^ i) + 7;
        if (serial[i] != want || threaded[i] != want) {
            CHECK(false, "element %u: serial 0x%x threaded 0x%x, want 0x%x", i, serial[i], threaded[i], want);
            break;
        }
    }
    sb_ir_program_destroy(ir);

    sm4_begin_cs(&p, THREADS_PER_GROUP, 1, 1, 1);
    sm4_dcl_uav_raw(&p, 0);
    I(&p, OP_ATOMIC_IADD, du(0, "x"), l1(0), l1(1));
    sm4_end(&p);
    ir = lower(&p);
    uint32_t sum[4] = { 0 };
    struct sb_rt_resource c = buffer(SB_IR_RESOURCE_UAV, 0, sum, sizeof(sum));
    r = ir ? dispatch_threads(ir, &c, GROUPS, 4, 0, &err) : SB_ERROR_TRANSLATE_INVALID;
    CHECK(r == SB_SUCCESS && sum[0] == N, "atomic sum %u of %u (%s: %s)", sum[0], (unsigned)N, sb_result_name(r),
          err.message);
    sb_ir_program_destroy(ir);

    sm4_begin_cs(&p, THREADS_PER_GROUP, 1, 1, 1);
    sm4_dcl_uav_raw(&p, 0);
    I(&p, OP_MOV, dr(0, "x"), l1(0));
    I0(&p, OP_LOOP, 0);
    I(&p, OP_IADD, dr(0, "x"), sr(0, "x"), l1(1));
    I0(&p, OP_ENDLOOP, 0);
    sm4_end(&p);
    ir = lower(&p);
    struct sb_rt_resource d = buffer(SB_IR_RESOURCE_UAV, 0, sum, sizeof(sum));
    r = ir ? dispatch_threads(ir, &d, GROUPS, 4, 5000, &err) : SB_ERROR_TRANSLATE_INVALID;
    CHECK(r == SB_ERROR_RUN_BUDGET && err.code == SB_ERROR_RUN_BUDGET && strstr(err.message, "5000"),
          "%s: %s", sb_result_name(r), err.message);
    sb_ir_program_destroy(ir);
}

int main(void)
{
    test_alias();
    test_budget();
    test_binding();
    test_bounds();
    test_counters();
    test_formats();
    test_linear();
    test_unsupported();
    test_threads();
    test_approx_ulps();
    if (failures) {
        fprintf(stderr, "%u check(s) failed\n", failures);
        return 1;
    }
    printf("interp unit tests passed\n");
    return 0;
}
