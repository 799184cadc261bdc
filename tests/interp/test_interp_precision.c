/* SPDX-License-Identifier: MIT */
/*
 * The interpreter's precision bounds (interp.h, sb_interp_tracking::precision;
 * runtime/src/interp/interp_precision.c) against the Vulkan precision rules
 * they implement, on one-thread programs that store what they compute to a
 * raw UAV: exact inputs to correctly rounded operations give exact results;
 * exp2, rcp, sincos, log2 get their documented allowance (bounds checked
 * from both sides: never below what Vulkan allows, never more than a few
 * ULPs above); a mad is exact when its product is, else allows the fused
 * and unfused roundings; max against a constant that certainly wins is
 * exact; comparisons and conversions whose operand bounds straddle, and
 * everything written after a branch on them, are precision-sensitive
 * (INFINITY); bounds travel through group-shared memory; the origin names
 * the instruction that contributed most; an untracked run allocates
 * nothing; a program without resources run twice on one record keeps the
 * tables its first run made, and a later stage with a UAV replaces them with
 * its own. Programs are assembled with tests/common/sm4_asm.h.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shaderbridge/interp.h"
#include "translator/ir.h"
#include "translator/sm4.h"
#include "sm4_asm.h"
#include "check.h"


#define WORDS 16u

static float u2f(uint32_t u)
{
    float f;
    memcpy(&f, &u, 4);
    return f;
}

/* One ULP of |x| (normal x). */
static double ulp_of(float x)
{
    int e;
    frexpf(x, &e);
    return ldexp(1.0, e - 24);
}

/* A program's results: the UAV words, their bounds and origins, and the IR (for offsets). */
struct outcome {
    uint32_t words[WORDS];
    float bound[WORDS];
    uint32_t origin[WORDS];
    struct sb_ir_program *ir;
    bool ok;
};

static void run(const struct sm4_program *p, bool tracked, struct outcome *out)
{
    memset(out, 0, sizeof(*out));
    struct sb_sm4_program *sm4 = NULL;
    struct sb_error err = { 0 };
    if (sb_sm4_decode(p->tok, p->n * 4, 0, &sm4, &err) != SB_SUCCESS ||
        sb_ir_from_sm4(sm4, NULL, &out->ir, &err) != SB_SUCCESS) {
        fprintf(stderr, "lowering failed: %s\n", err.message);
        sb_sm4_program_destroy(sm4);
        failures++;
        return;
    }
    sb_sm4_program_destroy(sm4);
    struct sb_rt_resource uav = { .resource_class = SB_IR_RESOURCE_UAV, .register_index = 0,
                                  .data = out->words, .size = sizeof(out->words) };
    struct sb_interp_tracking tracking = { .precision = tracked, .origins = tracked };
    struct sb_interp_options options = { .tracking = &tracking };
    const uint32_t groups[3] = { 1, 1, 1 };
    enum sb_result r = sb_interp_dispatch(out->ir, &uav, 1, groups, &options, NULL, &err);
    CHECK(r == SB_SUCCESS, "dispatch: %s", err.message);
    out->ok = r == SB_SUCCESS;
    if (tracked) {
        CHECK(tracking.resource_count == 1 && tracking.bound && tracking.bound[0], "the UAV's bounds exist");
        if (tracking.bound && tracking.bound[0]) {
            memcpy(out->bound, tracking.bound[0], sizeof(out->bound));
            memcpy(out->origin, tracking.origin[0], sizeof(out->origin));
        }
    } else {
        CHECK(tracking.resource_count == 0 && !tracking.bound, "an untracked run records nothing");
    }
    sb_interp_tracking_release(&tracking);
}

/* Byte offset of the n-th instruction of `op` in the program (its origin). */
static uint32_t offset_of(const struct sb_ir_program *ir, uint32_t op, uint32_t n)
{
    const struct sb_ir_function *f = &ir->functions[0];
    for (uint32_t i = 0; i < f->instruction_count; i++)
        if (f->instructions[i].op == op && n-- == 0)
            return (uint32_t)f->instructions[i].offset;
    return UINT32_MAX - 1;
}

static void begin(struct sm4_program *p, uint32_t temps)
{
    memset(p, 0, sizeof(*p));
    sm4_begin_cs(p, 1, 1, 1, temps);
    sm4_dcl_uav_raw(p, 0);
}

/* store_raw u0[word], r#.x */
static void store(struct sm4_program *p, uint32_t word, uint32_t r)
{
    I(p, OP_STORE_RAW, du(0, "x"), l1(word * 4), sr(r, "xxxx"));
}

/* sincos with only the sine written (SM4 opcode 77; not in sm4_asm.h's list). */
static void sine(struct sm4_program *p, uint32_t r, float x)
{
    I(p, 77, dr(r, "x"), snull(), lf(x));
}

static void test_exact(void)
{
    static struct sm4_program prog;
    struct sm4_program *p = &prog;
    begin(p, 2);
    I(p, OP_ADD, dr(0, "x"), lf(1.5f), lf(2.25f));
    store(p, 0, 0);
    I(p, OP_MUL, dr(0, "x"), sr(0, "xxxx"), lf(0.1f)); /* rounded, but correctly: nothing to allow */
    store(p, 1, 0);
    I(p, OP_MAX, dr(0, "x"), sr(0, "xxxx"), lf(-2.0f));
    store(p, 2, 0);
    I(p, OP_MAD, dr(0, "x"), lf(0.5f), lf(0.25f), lf(1.0f)); /* exact product: fused = unfused */
    store(p, 3, 0);
    I(p, OP_ITOF, dr(1, "x"), l1(7));
    I(p, OP_LT, dr(1, "y"), sr(1, "xxxx"), lf(7.5f));
    I(p, OP_MOVC, dr(0, "x"), sr(1, "yyyy"), lf(3.0f), lf(4.0f));
    store(p, 4, 0);
    sm4_end(p);
    struct outcome o;
    run(p, true, &o);
    for (uint32_t w = 0; o.ok && w < 5; w++)
        CHECK(o.bound[w] == 0.0f, "word %u: exact inputs, correctly rounded ops: bound %g", w, (double)o.bound[w]);
    CHECK(u2f(o.words[3]) == 1.125f, "mad value %g", (double)u2f(o.words[3]));
    sb_ir_program_destroy(o.ir);
    struct outcome plain;
    run(p, false, &plain);
    CHECK(!memcmp(plain.words, o.words, sizeof(o.words)), "tracking changes no value");
    sb_ir_program_destroy(plain.ir);
}

static void test_approximated(void)
{
    static struct sm4_program prog;
    struct sm4_program *p = &prog;
    begin(p, 2);
    I(p, OP_EXP, dr(0, "x"), lf(3.3f));
    store(p, 0, 0);
    I(p, OP_RCP, dr(0, "x"), lf(3.0f));
    store(p, 1, 0);
    I(p, OP_LOG, dr(0, "x"), lf(1.5f)); /* inside [0.5, 2]: 2^-21 absolute */
    store(p, 2, 0);
    sine(p, 0, 1.0f);
    store(p, 3, 0);
    sine(p, 0, 50.0f); /* outside [-pi, pi]: Vulkan sets no bound */
    store(p, 4, 0);
    I(p, OP_MAD, dr(0, "x"), lf(0.1f), lf(0.1f), lf(0.0f)); /* the product is not a float */
    store(p, 5, 0);
    sm4_end(p);
    struct outcome o;
    run(p, true, &o);
    if (!o.ok)
        return;
    float e = u2f(o.words[0]);
    double u = ulp_of(e);
    CHECK(o.bound[0] >= (3.0 + 2.0 * 3.3) * u && o.bound[0] <= (6.0 + 2.0 * 3.3) * u * 2.0,
          "exp2(3.3) = %g: bound %g, Vulkan allows %g", (double)e, (double)o.bound[0], (3.0 + 2.0 * 3.3) * u);
    CHECK(o.origin[0] == offset_of(o.ir, SB_IR_OP_EXP, 0), "exp's origin %u, want %u", o.origin[0],
          offset_of(o.ir, SB_IR_OP_EXP, 0));
    u = ulp_of(u2f(o.words[1]));
    CHECK(o.bound[1] >= 2.5 * u && o.bound[1] <= 8.0 * u, "rcp(3): bound %g = %g ULPs", (double)o.bound[1],
          o.bound[1] / u);
    CHECK(o.bound[2] >= 0x1p-21 && o.bound[2] <= 0x1p-19, "log2(1.5): bound %g", (double)o.bound[2]);
    CHECK(o.bound[3] >= 0x1p-11 && o.bound[3] <= 0x1p-10, "sin(1): bound %g", (double)o.bound[3]);
    CHECK(o.bound[4] >= 2.0f && isfinite(o.bound[4]), "sin(50): bound %g", (double)o.bound[4]);
    float product = 0.1f * 0.1f;
    double gap = fabs((double)fmaf(0.1f, 0.1f, 0.0f) - (double)product);
    CHECK(o.bound[5] > 0.0f && o.bound[5] >= gap && o.bound[5] <= 4.0 * ulp_of(product),
          "mad(0.1, 0.1, 0): bound %g, fused-unfused gap %g", (double)o.bound[5], gap);
    CHECK(o.origin[5] == offset_of(o.ir, SB_IR_OP_MAD, 0), "mad's origin %u", o.origin[5]);
    sb_ir_program_destroy(o.ir);
}

static void test_propagation(void)
{
    static struct sm4_program prog;
    struct sm4_program *p = &prog;
    begin(p, 3);
    sm4_dcl_tgsm_raw(p, 0, 16);
    I(p, OP_RCP, dr(0, "x"), lf(3.0f));
    I(p, OP_MUL, dr(1, "x"), sr(0, "xxxx"), lf(1000.0f)); /* scaled by 1000, plus a rounding */
    store(p, 0, 1);
    I(p, OP_ADD, dr(1, "x"), sr(0, "xxxx"), lf(-0.25f));
    store(p, 1, 1);
    I(p, OP_RCP, dr(2, "x"), lf(1e9f));
    I(p, OP_MAX, dr(1, "x"), sr(2, "xxxx"), lf(1e-7f)); /* the constant certainly wins */
    store(p, 2, 1);
    I(p, OP_STORE_RAW, dg(0, "x"), l1(0), sr(0, "xxxx")); /* through group-shared memory */
    I0(p, OP_SYNC, SM4_SYNC_G | SM4_SYNC_T);
    I(p, OP_LD_RAW, dr(1, "x"), l1(0), sg(0, "xxxx"));
    store(p, 3, 1);
    sm4_end(p);
    struct outcome o;
    run(p, true, &o);
    if (!o.ok)
        return;
    double rcp_bound = o.bound[3]; /* the rcp's own bound, as it came back from g0 */
    double u = ulp_of(1.0f / 3.0f);
    CHECK(rcp_bound >= 2.5 * u && rcp_bound <= 8.0 * u, "rcp(3) through g0: bound %g", rcp_bound);
    CHECK(o.bound[0] >= 1000.0 * rcp_bound && o.bound[0] <= 1000.0 * rcp_bound + 2.0 * ulp_of(u2f(o.words[0])),
          "x1000: bound %g from %g", (double)o.bound[0], rcp_bound);
    CHECK(o.origin[0] == offset_of(o.ir, SB_IR_OP_RCP, 0), "the scaled error's origin is the rcp");
    CHECK(o.bound[1] >= rcp_bound && o.bound[1] <= rcp_bound + 2.0 * ulp_of(u2f(o.words[1])),
          "add: bound %g from %g", (double)o.bound[1], rcp_bound);
    CHECK(o.bound[2] == 0.0f, "max(1e-9 +- e, 1e-7): bound %g", (double)o.bound[2]);
    CHECK(o.origin[3] == offset_of(o.ir, SB_IR_OP_RCP, 0), "g0 keeps the origin");
    sb_ir_program_destroy(o.ir);
}

static void test_sensitive(void)
{
    static struct sm4_program prog;
    struct sm4_program *p = &prog;
    begin(p, 3);
    I(p, OP_RCP, dr(0, "x"), lf(3.0f));               /* 0.33333334 +- a few ULPs */
    I(p, OP_LT, dr(1, "x"), sr(0, "xxxx"), lf(0.33333334f)); /* straddles */
    I(p, OP_LT, dr(1, "y"), sr(0, "xxxx"), lf(0.5f));        /* decided */
    store(p, 0, 1);
    I(p, OP_MOV, dr(2, "x"), sr(1, "yyyy"));
    store(p, 1, 2);
    I(p, OP_RCP, dr(2, "x"), lf(0.5f)); /* 2 +- e: its truncation may be 1 */
    I(p, OP_FTOI, dr(2, "x"), sr(2, "xxxx"));
    store(p, 2, 2);
    I(p, OP_RCP, dr(2, "x"), lf(0.4f)); /* 2.5 +- e: truncates to 2 either way */
    I(p, OP_FTOI, dr(2, "x"), sr(2, "xxxx"));
    store(p, 3, 2);
    /* movc on the straddling condition: either value, so as far apart as they are. */
    I(p, OP_MOVC, dr(2, "x"), sr(1, "xxxx"), lf(1.0f), lf(1.25f));
    store(p, 4, 2);
    I(p, OP_MOV, dr(2, "x"), lf(5.0f));
    store(p, 5, 2); /* before the branch: exact */
    IC(p, OP_IF, SM4_NZ, sr(1, "xxxx"));
    I(p, OP_MOV, dr(2, "x"), lf(6.0f));
    I0(p, OP_ENDIF, 0);
    store(p, 6, 2); /* after a branch on a precision-sensitive condition */
    sm4_end(p);
    struct outcome o;
    run(p, true, &o);
    if (!o.ok)
        return;
    CHECK(isinf(o.bound[0]), "lt straddling: bound %g", (double)o.bound[0]);
    CHECK(o.bound[1] == 0.0f, "lt decided: bound %g", (double)o.bound[1]);
    CHECK(isinf(o.bound[2]), "ftoi(2 +- e): bound %g", (double)o.bound[2]);
    CHECK(o.bound[3] == 0.0f, "ftoi(2.5 +- e): bound %g", (double)o.bound[3]);
    CHECK(o.bound[4] == 0.25f, "movc on an uncertain condition: bound %g", (double)o.bound[4]);
    CHECK(o.bound[5] == 0.0f, "written before the branch: bound %g", (double)o.bound[5]);
    CHECK(isinf(o.bound[6]), "written after a branch on an uncertain condition: bound %g", (double)o.bound[6]);
    sb_ir_program_destroy(o.ir);
}

/* A program without resources, run twice on one tracking record: the second run is a later
 * stage of the same tracked run and keeps the (empty) tables the first one made; taking it for
 * a first run again would allocate them anew and lose the old ones (LeakSanitizer: 72 bytes
 * over a domain validation's runs). */
static void test_no_resources_twice(void)
{
    static struct sm4_program prog;
    struct sm4_program *p = &prog;
    memset(p, 0, sizeof(*p));
    sm4_begin_cs(p, 1, 1, 1, 1);
    I(p, OP_MOV, dr(0, "x"), lf(1.0f));
    sm4_end(p);
    struct sb_sm4_program *sm4 = NULL;
    struct sb_ir_program *ir = NULL;
    struct sb_error err = { 0 };
    if (sb_sm4_decode(p->tok, p->n * 4, 0, &sm4, &err) != SB_SUCCESS ||
        sb_ir_from_sm4(sm4, NULL, &ir, &err) != SB_SUCCESS) {
        CHECK(false, "lowering failed: %s", err.message);
        sb_sm4_program_destroy(sm4);
        return;
    }
    sb_sm4_program_destroy(sm4);
    struct sb_interp_tracking tracking = { .precision = true, .undefined = true };
    struct sb_interp_options options = { .tracking = &tracking };
    const uint32_t groups[3] = { 1, 1, 1 };
    CHECK(sb_interp_dispatch(ir, NULL, 0, groups, &options, NULL, &err) == SB_SUCCESS, "run 1: %s", err.message);
    float **first = tracking.bound;
    CHECK(tracking.resource_count == 0 && first, "run 1: no resources, tables made");
    CHECK(sb_interp_dispatch(ir, NULL, 0, groups, &options, NULL, &err) == SB_SUCCESS, "run 2: %s", err.message);
    CHECK(tracking.bound == first, "run 2 made its tables again (the first ones leak)");
    /* A later stage with a UAV on the same record replaces the empty tables with its own. */
    static struct sm4_program with_uav;
    begin(&with_uav, 1);
    I(&with_uav, OP_ADD, dr(0, "x"), lf(1.5f), lf(2.25f));
    store(&with_uav, 0, 0);
    sm4_end(&with_uav);
    struct sb_ir_program *ir_uav = NULL;
    sm4 = NULL;
    if (sb_sm4_decode(with_uav.tok, with_uav.n * 4, 0, &sm4, &err) == SB_SUCCESS &&
        sb_ir_from_sm4(sm4, NULL, &ir_uav, &err) == SB_SUCCESS) {
        uint32_t words[WORDS] = { 0 };
        struct sb_rt_resource uav = { .resource_class = SB_IR_RESOURCE_UAV, .register_index = 0, .data = words,
                                      .size = sizeof(words) };
        CHECK(sb_interp_dispatch(ir_uav, &uav, 1, groups, &options, NULL, &err) == SB_SUCCESS, "run 3: %s",
              err.message);
        CHECK(tracking.resource_count == 1 && tracking.bound && tracking.bound[0] && tracking.undefined_word[0],
              "run 3: the UAV's tables exist after a resource-less stage");
        CHECK(u2f(words[0]) == 3.75f, "run 3 wrote %g", (double)u2f(words[0]));
    } else {
        CHECK(false, "lowering failed: %s", err.message);
    }
    sb_sm4_program_destroy(sm4);
    sb_interp_tracking_release(&tracking);
    CHECK(!tracking.bound && tracking.precision && tracking.undefined, "release frees, keeps the switches");
    sb_ir_program_destroy(ir);
    sb_ir_program_destroy(ir_uav);
}

int main(void)
{
    test_exact();
    test_no_resources_twice();
    test_approximated();
    test_propagation();
    test_sensitive();
    if (failures) {
        fprintf(stderr, "%u check(s) failed\n", failures);
        return 1;
    }
    printf("interp precision: all checks passed\n");
    return 0;
}
