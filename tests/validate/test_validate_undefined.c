/* SPDX-License-Identifier: MIT */
/*
 * validate_undefined: sb_validate's "undefined" evidence end to end on the Vulkan device
 * (lavapipe) for three hand-built programs whose results depend on the order invocations
 * run in, one per harness:
 *   compute: 64 threads store their id to u0[0] (write-write race);
 *   pixel:   o0 = the value imm_atomic_iadd u1[0] returned (atomic order), 64 pixels;
 *   vertex:  o1.x = the same, 64 vertices (their outputs come back through the capture UAV).
 * The device may or may not run them in the interpreter's order, so the verdict must be
 * "agree" or "undefined", never "disagree"; what is asserted exactly is the interpreter's
 * evidence in the report: the events, and the undefined words of the UAV (compute) and of the
 * output resources the graphics harnesses add after the program's own (validate_graphics.c
 * copies the interpreter's output_undefined there).
 *
 * Then what the pixel harness feeds (validate_graphics.c, partner.c), asserted as verdicts
 * and as the interpreter's values, on hand-built ps_5_0 programs:
 *   mixed:      one input register read as float (x), uint (y) and int (z) components: the
 *               feeder reads each location as raw words and writes each component with its
 *               own type, so the verdict is "agree" (it used to fail to bind);
 *   clip+cull:  SV_ClipDistance and SV_CullDistance in one register: both fed, the values
 *               the interpreter sees are the documented vertex / 4 + (4 * reg + comp) / 64;
 *   straddling: ClipDistance[3] + CullDistance[2] beside a varying, the layout lavapipe 22.3
 *               drops (test_lavapipe_clip_cull.c): "agree", or on such a device "disagree"
 *               with every target word at the clear value and the defect named in the reason;
 *   stencil:    oStencilRef = v1.x + 0x300 (seeded uint), o0.x = v1.x: the harness adds a
 *               stencil attachment (ALWAYS / REPLACE) whose bytes must equal the low 8 bits
 *               of the interpreter's reference, exactly; "agree", or "not-run" naming
 *               StencilExportEXT on a device without VK_EXT_shader_stencil_export.
 * Exit: 0 pass, 1 fail, 77 no Vulkan device.
 */
#include <dlfcn.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shaderbridge/interp.h"
#include "shaderbridge/validate.h"
#include "sm4_asm.h"
#include "check.h"

enum { SIG_UINT = 1, SIG_INT = 2, SIG_FLOAT = 3, OP_DCL_OUTPUT = 101, OP_DCL_OUTPUT_SIV = 103, SV_POSITION = 1,
       SV_CLIP = 2, SV_CULL = 3, OP_DCL_INPUT_PS = 98, OP_DCL_INPUT_PS_SIV = 100, CONSTANT = 1, LINEAR = 2,
       PIXELS = 64, T_STENCIL_REF = 41, SV_STENCIL_REF = 69 };


static struct sm4_operand dout(uint32_t r, const char *mask)
{
    return sm4_reg(T_OUTPUT, 1, &r, NULL, mask, 1);
}

static void compute_race(struct sm4_program *p, struct blob *out)
{
    sm4_begin_cs(p, 64, 1, 1, 0);
    sm4_dcl_uav_raw(p, 0);
    sm4_dcl_thread_id(p, T_THREAD_FLAT, "x");
    I(p, OP_STORE_RAW, du(0, "x"), l1(0), special(T_THREAD_FLAT, "x"));
    sm4_end(p);
    sm4_container(p, out);
}

/* imm_atomic_iadd r0.x, u1, 0, 1 then `output` = utof(r0.x). */
static void atomic_result(struct sm4_program *p, struct sm4_operand output)
{
    I(p, OP_IMM_ATOMIC_IADD, dr(0, "x"), du(1, ""), l1(0), l1(1));
    I(p, OP_UTOF, output, sr(0, "xxxx"));
    sm4_end(p);
}

static void pixel_atomic(struct sm4_program *p, struct blob *out)
{
    sm4_begin(p, 0, 5, 0, 1);
    sm4_dcl_uav_raw(p, 1);
    sm4_decl(p, OP_DCL_OUTPUT, dout(0, "xyzw"), 0, NULL);
    atomic_result(p, dout(0, "xyzw"));
    static const struct sig_element_spec in[] = { { 0, "SV_Position", 0, SV_POSITION, SIG_FLOAT, 0, 0xF, 0x0, 0 } };
    static const struct sig_element_spec target[] = { { 0, "SV_Target", 0, 0, SIG_FLOAT, 0, 0xF, 0x0, 0 } };
    sm4_container_sig(p, in, 1, target, 1, NULL, 0, out);
}

static void vertex_atomic(struct sm4_program *p, struct blob *out)
{
    sm4_begin(p, 1, 5, 0, 1);
    sm4_dcl_uav_raw(p, 1);
    uint32_t position = SV_POSITION;
    sm4_decl(p, OP_DCL_OUTPUT_SIV, dout(0, "xyzw"), 1, &position);
    sm4_decl(p, OP_DCL_OUTPUT, dout(1, "x"), 0, NULL);
    I(p, OP_MOV, dout(0, "xyzw"), l4(0, 0, 0, 0x3f800000u));
    atomic_result(p, dout(1, "x"));
    static const struct sig_element_spec outs[] = {
        { 0, "SV_Position", 0, SV_POSITION, SIG_FLOAT, 0, 0xF, 0x0, 0 },
        { 0, "TEXCOORD", 0, 0, SIG_FLOAT, 1, 0x1, 0xE, 0 },
    };
    sm4_container_sig(p, NULL, 0, outs, 2, NULL, 0, out);
}

/* The first report resource of `cls` (and, for UAVs, register `reg`); UINT32_MAX when none. */
static uint32_t resource_of(const struct sb_validate_report *r, uint32_t cls, uint32_t reg)
{
    for (uint32_t i = 0; i < r->cpu->count; i++)
        if (r->cpu->resources[i].resource_class == cls &&
            (cls != SB_IR_RESOURCE_UAV || r->cpu->resources[i].register_index == reg))
            return i;
    return UINT32_MAX;
}

/* Words [first, first + count) of resource `i` all marked undefined in the report's evidence. */
static bool marked(const struct sb_validate_report *r, uint32_t i, uint64_t first, uint64_t count)
{
    const struct sb_interp_tracking *t = &r->tracking;
    if (i >= t->resource_count || !t->undefined_word || !t->undefined_word[i])
        return false;
    for (uint64_t w = first; w < first + count; w++)
        if (!t->undefined_word[i][w])
            return false;
    return true;
}

static void run(struct sb_rt_context *ctx, const char *name, void (*build)(struct sm4_program *, struct blob *),
                enum sb_interp_undefined_kind kind, uint64_t events)
{
    static struct sm4_program p;
    static struct blob dxbc;
    build(&p, &dxbc);
    struct sb_error e = { 0 };
    struct sb_rt_program *program = NULL;
    if (sb_rt_program_load(dxbc.bytes, dxbc.size, NULL, &program, &e) != SB_SUCCESS) {
        CHECK(false, "%s: load: %s", name, e.message);
        return;
    }
    struct sb_validate_options o = { .inputs = { .seed = 1 } };
    struct sb_validate_report *r = NULL;
    enum sb_result res = sb_validate(ctx, program, &o, &r, &e);
    CHECK(res == SB_SUCCESS, "%s: sb_validate: %s", name, e.message);
    if (res == SB_SUCCESS) {
        printf("%s: %s (%llu events, %llu of %llu words differ): %s\n", name, sb_validate_verdict_name(r->verdict),
               (unsigned long long)r->undefined_events, (unsigned long long)r->mismatch_count,
               (unsigned long long)r->words_compared, r->reason);
        CHECK(r->verdict == SB_VALIDATE_AGREE || r->verdict == SB_VALIDATE_UNDEFINED, "%s: verdict %s", name,
              sb_validate_verdict_name(r->verdict));
        if (r->verdict == SB_VALIDATE_AGREE) {
            /* Identical words need no explanation, so sb_validate gathered no evidence; the
             * interpreter-only evidence run (what it makes when words differ) must still see
             * the undefined behaviour. */
            CHECK(r->undefined_events == 0 && r->tracking.resource_count == 0, "%s: agree gathers no evidence",
                  name);
            struct sb_validate_options evidence = o;
            evidence.sides = SB_VALIDATE_SIDE_CPU;
            evidence.origins = true;
            sb_validate_report_destroy(r);
            r = NULL;
            res = sb_validate(NULL, program, &evidence, &r, &e);
            CHECK(res == SB_SUCCESS, "%s: evidence run: %s", name, e.message);
            if (res != SB_SUCCESS) {
                sb_rt_program_destroy(program);
                return;
            }
            r->undefined_events = r->tracking.undefined_events; /* a one-sided run compares nothing */
            r->undefined_kept = r->tracking.kept;
            memcpy(r->undefined, r->tracking.events, sizeof(r->undefined));
        }
        CHECK(r->undefined_events == events && r->undefined_kept == SB_VALIDATE_UNDEFINED_KEPT &&
                  r->undefined[0].kind == kind && r->undefined[0].invocation[0] == 0 &&
                  r->undefined[0].invocation[1] == 1,
              "%s: %llu events (want %llu), first kind %d between %u and %u", name,
              (unsigned long long)r->undefined_events, (unsigned long long)events, (int)r->undefined[0].kind,
              r->undefined[0].invocation[0], r->undefined[0].invocation[1]);
        if (kind == SB_INTERP_UNDEFINED_WRITE_WRITE) {
            uint32_t u0 = resource_of(r, SB_IR_RESOURCE_UAV, 0);
            CHECK(u0 != UINT32_MAX && marked(r, u0, 0, 1) && !marked(r, u0, 1, 1), "%s: u0 word 0 alone marked",
                  name);
        } else {
            uint32_t u1 = resource_of(r, SB_IR_RESOURCE_UAV, 1), out = resource_of(r, SB_VALIDATE_CLASS_OUTPUT, 0);
            CHECK(u1 != UINT32_MAX && !marked(r, u1, 0, 1), "%s: u1[0] holds 64 in any order, marked", name);
            CHECK(out != UINT32_MAX && marked(r, out, 0, r->cpu->resources[out].size / 4),
                  "%s: outputs of invocations that got order-dependent values not all marked", name);
        }
    }
    sb_validate_report_destroy(r);
    sb_rt_program_destroy(program);
}

static struct sm4_operand vin(uint32_t r, const char *swizzle)
{
    return sm4_reg(T_INPUT, 1, &r, NULL, swizzle, 0);
}

static float as_float(uint32_t u)
{
    float f;
    memcpy(&f, &u, 4);
    return f;
}

/* v1.x float, v1.y uint, v1.z int in one register; o0 (float) = v1.x * 2, utof(v1.y);
 * o1 (uint) = v1.y + 1, the bits of v1.x, -v1.z. */
static void pixel_mixed(struct sm4_program *p, struct blob *out)
{
    sm4_begin(p, 0, 5, 0, 0);
    sm4_dcl_io(p, OP_DCL_INPUT_PS, CONSTANT, T_INPUT, 1, "x", -1);
    sm4_dcl_io(p, OP_DCL_INPUT_PS, CONSTANT, T_INPUT, 1, "y", -1);
    sm4_dcl_io(p, OP_DCL_INPUT_PS, CONSTANT, T_INPUT, 1, "z", -1);
    sm4_decl(p, OP_DCL_OUTPUT, dout(0, "xy"), 0, NULL);
    sm4_decl(p, OP_DCL_OUTPUT, dout(1, "xyz"), 0, NULL);
    I(p, OP_MUL, dout(0, "x"), vin(1, "xxxx"), lf(2.0f));
    I(p, OP_UTOF, dout(0, "y"), vin(1, "yyyy"));
    I(p, OP_IADD, dout(1, "x"), vin(1, "yyyy"), l1(1));
    I(p, OP_MOV, dout(1, "y"), vin(1, "xxxx"));
    I(p, OP_INEG, dout(1, "z"), vin(1, "zzzz"));
    sm4_end(p);
    static const struct sig_element_spec in[] = {
        { 0, "TEXCOORD", 0, 0, SIG_FLOAT, 1, 0x1, 0x1, 0 },
        { 0, "TEXCOORD", 1, 0, SIG_UINT, 1, 0x2, 0x2, 0 },
        { 0, "TEXCOORD", 2, 0, SIG_INT, 1, 0x4, 0x4, 0 },
    };
    static const struct sig_element_spec targets[] = {
        { 0, "SV_Target", 0, 0, SIG_FLOAT, 0, 0x3, 0x0, 0 },
        { 0, "SV_Target", 1, 0, SIG_UINT, 1, 0x7, 0x0, 0 },
    };
    sm4_container_sig(p, in, 3, targets, 2, NULL, 0, out);
}

/* o0.xy = v2.x (SV_ClipDistance), v2.y (SV_CullDistance); o0.z = v1.x (a varying). */
static void pixel_clip_cull(struct sm4_program *p, struct blob *out)
{
    sm4_begin(p, 0, 5, 0, 0);
    sm4_dcl_io(p, OP_DCL_INPUT_PS, LINEAR, T_INPUT, 1, "x", -1);
    sm4_dcl_io(p, OP_DCL_INPUT_PS_SIV, LINEAR, T_INPUT, 2, "x", SV_CLIP);
    sm4_dcl_io(p, OP_DCL_INPUT_PS_SIV, LINEAR, T_INPUT, 2, "y", SV_CULL);
    sm4_decl(p, OP_DCL_OUTPUT, dout(0, "xyz"), 0, NULL);
    I(p, OP_MOV, dout(0, "xy"), vin(2, "xyyy"));
    I(p, OP_MOV, dout(0, "z"), vin(1, "xxxx"));
    sm4_end(p);
    static const struct sig_element_spec in[] = {
        { 0, "TEXCOORD", 0, 0, SIG_FLOAT, 1, 0x1, 0x1, 0 },
        { 0, "SV_ClipDistance", 0, SV_CLIP, SIG_FLOAT, 2, 0x1, 0x1, 0 },
        { 0, "SV_CullDistance", 0, SV_CULL, SIG_FLOAT, 2, 0x2, 0x2, 0 },
    };
    static const struct sig_element_spec target[] = { { 0, "SV_Target", 0, 0, SIG_FLOAT, 0, 0x7, 0x0, 0 } };
    sm4_container_sig(p, in, 3, target, 1, NULL, 0, out);
}

/* ClipDistance[3] (v2.xyz) and CullDistance[2] (v3.xy) beside a varying: o0 = v2.xyz, v1.x;
 * o1.xy = v3.xy. */
static void pixel_straddling(struct sm4_program *p, struct blob *out)
{
    sm4_begin(p, 0, 5, 0, 0);
    sm4_dcl_io(p, OP_DCL_INPUT_PS, LINEAR, T_INPUT, 1, "x", -1);
    sm4_dcl_io(p, OP_DCL_INPUT_PS_SIV, LINEAR, T_INPUT, 2, "xyz", SV_CLIP);
    sm4_dcl_io(p, OP_DCL_INPUT_PS_SIV, LINEAR, T_INPUT, 3, "xy", SV_CULL);
    sm4_decl(p, OP_DCL_OUTPUT, dout(0, "xyzw"), 0, NULL);
    sm4_decl(p, OP_DCL_OUTPUT, dout(1, "xy"), 0, NULL);
    I(p, OP_MOV, dout(0, "xyz"), vin(2, "xyzz"));
    I(p, OP_MOV, dout(0, "w"), vin(1, "xxxx"));
    I(p, OP_MOV, dout(1, "xy"), vin(3, "xyyy"));
    sm4_end(p);
    static const struct sig_element_spec in[] = {
        { 0, "TEXCOORD", 0, 0, SIG_FLOAT, 1, 0x1, 0x1, 0 },
        { 0, "SV_ClipDistance", 0, SV_CLIP, SIG_FLOAT, 2, 0x7, 0x7, 0 },
        { 0, "SV_CullDistance", 0, SV_CULL, SIG_FLOAT, 3, 0x3, 0x3, 0 },
    };
    static const struct sig_element_spec targets[] = {
        { 0, "SV_Target", 0, 0, SIG_FLOAT, 0, 0xF, 0x0, 0 },
        { 0, "SV_Target", 1, 0, SIG_FLOAT, 1, 0x3, 0x0, 0 },
    };
    sm4_container_sig(p, in, 3, targets, 2, NULL, 0, out);
}

/* o0.x (uint) = v1.x; oStencilRef = v1.x + 0x300 (the 0x300 falls outside an 8-bit attachment). */
static void pixel_stencil(struct sm4_program *p, struct blob *out)
{
    sm4_begin(p, 0, 5, 0, 0);
    sm4_dcl_io(p, OP_DCL_INPUT_PS, CONSTANT, T_INPUT, 1, "x", -1);
    sm4_decl(p, OP_DCL_OUTPUT, dout(0, "x"), 0, NULL);
    struct sm4_operand ostencil = { { 1u | (T_STENCIL_REF << 12) }, 1 };
    sm4_decl(p, OP_DCL_OUTPUT, ostencil, 0, NULL);
    I(p, OP_MOV, dout(0, "x"), vin(1, "xxxx"));
    I(p, OP_IADD, ostencil, vin(1, "xxxx"), l1(0x300));
    sm4_end(p);
    static const struct sig_element_spec in[] = {
        { 0, "TEXCOORD", 0, 0, SIG_UINT, 1, 0x1, 0x1, 0 },
    };
    static const struct sig_element_spec outs[] = {
        { 0, "SV_Target", 0, 0, SIG_UINT, 0, 0x1, 0xe, 0 },
        { 0, "SV_StencilRef", 0, SV_STENCIL_REF, SIG_UINT, 0xFFFFFFFFu, 0x1, 0xe, 0 },
    };
    sm4_container_sig(p, in, 1, outs, 2, NULL, 0, out);
}

/* The words of render target o`reg` on one side (pixel i's four at [i * 4]), or NULL. */
static const uint32_t *target_words(const struct sb_rt_inputs *side, uint32_t reg)
{
    for (uint32_t i = 0; i < side->count; i++)
        if (side->resources[i].resource_class == SB_VALIDATE_CLASS_OUTPUT && side->resources[i].register_index == reg &&
            side->resources[i].size >= PIXELS * 16)
            return side->resources[i].data;
    return NULL;
}

/* The distance the feeder writes for pixel (= vertex) i in register `reg`, component `c`:
 * the contract of sb_rt_feeder_distance (validate_private.h). */
static float feeder_distance(uint32_t i, uint32_t reg, uint32_t c)
{
    return (float)i * 0.25f + (float)(reg * 4 + c) / 64.0f;
}

static struct sb_validate_report *validate_pixel(struct sb_rt_context *ctx, const char *name,
                                                 void (*build)(struct sm4_program *, struct blob *),
                                                 struct sb_rt_program **program)
{
    static struct sm4_program p;
    static struct blob dxbc;
    build(&p, &dxbc);
    struct sb_error e = { 0 };
    *program = NULL;
    if (sb_rt_program_load(dxbc.bytes, dxbc.size, NULL, program, &e) != SB_SUCCESS) {
        CHECK(false, "%s: load: %s", name, e.message);
        return NULL;
    }
    struct sb_validate_options o = { .inputs = { .seed = 1 } };
    struct sb_validate_report *r = NULL;
    if (sb_validate(ctx, *program, &o, &r, &e) != SB_SUCCESS) {
        CHECK(false, "%s: sb_validate: %s", name, e.message);
        return NULL;
    }
    printf("%s: %s (%llu of %llu words differ): %s\n", name, sb_validate_verdict_name(r->verdict),
           (unsigned long long)r->mismatch_count, (unsigned long long)r->words_compared, r->reason);
    return r;
}

static void feed_mixed(struct sb_rt_context *ctx)
{
    struct sb_rt_program *program;
    struct sb_validate_report *r = validate_pixel(ctx, "pixel mixed-type location", pixel_mixed, &program);
    const uint32_t *o0 = r ? target_words(r->cpu, 0) : NULL, *o1 = r ? target_words(r->cpu, 1) : NULL;
    if (r) {
        CHECK(r->verdict == SB_VALIDATE_AGREE && r->mismatch_count == 0, "mixed: verdict %s",
              sb_validate_verdict_name(r->verdict));
        CHECK(r->words_compared == PIXELS * 5, "mixed: %llu words compared, want %u (o0.xy, o1.xyz)",
              (unsigned long long)r->words_compared, PIXELS * 5);
        CHECK(o0 && o1, "mixed: no render targets in the report");
    }
    /* The interpreter's outputs follow from v1 alone: the float bits came through o1.y and the
     * uint through o1.x, so each output checks the component's type. */
    uint32_t distinct_uint = 0, distinct_float = 0;
    for (uint32_t i = 0; o0 && o1 && i < PIXELS; i++) {
        uint32_t u = o1[i * 4] - 1, fbits = o1[i * 4 + 1];
        CHECK(as_float(o0[i * 4]) == as_float(fbits) * 2.0f, "mixed: pixel %u: o0.x %g, want 2 * %g", i,
              as_float(o0[i * 4]), as_float(fbits));
        CHECK(as_float(o0[i * 4 + 1]) == (float)u, "mixed: pixel %u: o0.y %g, want utof(%u)", i,
              as_float(o0[i * 4 + 1]), u);
        distinct_uint += i == 0 || u != o1[(i - 1) * 4] - 1;
        distinct_float += i == 0 || fbits != o1[(i - 1) * 4 + 1];
    }
    CHECK(!o0 || (distinct_uint > PIXELS / 2 && distinct_float > PIXELS / 2),
          "mixed: seeded inputs barely vary (%u uint, %u float changes)", distinct_uint, distinct_float);
    sb_validate_report_destroy(r);
    sb_rt_program_destroy(program);
}

static void feed_clip_cull(struct sb_rt_context *ctx)
{
    struct sb_rt_program *program;
    struct sb_validate_report *r = validate_pixel(ctx, "pixel clip+cull", pixel_clip_cull, &program);
    const uint32_t *o0 = r ? target_words(r->cpu, 0) : NULL;
    if (r)
        CHECK(r->verdict == SB_VALIDATE_AGREE && r->words_compared == PIXELS * 3, "clip+cull: verdict %s, %llu words",
              sb_validate_verdict_name(r->verdict), (unsigned long long)r->words_compared);
    for (uint32_t i = 0; o0 && i < PIXELS; i++)
        CHECK(as_float(o0[i * 4]) == feeder_distance(i, 2, 0) && as_float(o0[i * 4 + 1]) == feeder_distance(i, 2, 1),
              "clip+cull: pixel %u reads clip %g cull %g, want %g %g", i, as_float(o0[i * 4]),
              as_float(o0[i * 4 + 1]), feeder_distance(i, 2, 0), feeder_distance(i, 2, 1));
    CHECK(!r || o0, "clip+cull: no o0 in the report");
    sb_validate_report_destroy(r);
    sb_rt_program_destroy(program);
}

static void feed_straddling(struct sb_rt_context *ctx)
{
    struct sb_rt_program *program;
    struct sb_validate_report *r = validate_pixel(ctx, "pixel ClipDistance[3] + CullDistance[2]", pixel_straddling,
                                                  &program);
    const uint32_t *o0 = r ? target_words(r->cpu, 0) : NULL, *o1 = r ? target_words(r->cpu, 1) : NULL;
    CHECK(!r || (o0 && o1), "straddling: render targets missing from the report");
    for (uint32_t i = 0; o0 && o1 && i < PIXELS; i++)
        for (uint32_t c = 0; c < 3; c++)
            CHECK(as_float(o0[i * 4 + c]) == feeder_distance(i, 2, c) &&
                      (c == 2 || as_float(o1[i * 4 + c]) == feeder_distance(i, 3, c)),
                  "straddling: pixel %u component %u: clip %g cull %g", i, c, as_float(o0[i * 4 + c]),
                  as_float(o1[i * 4 + c]));
    if (r && r->verdict != SB_VALIDATE_AGREE) {
        /* The known defect: nothing drawn, and the reason says so. */
        const uint32_t *g0 = target_words(r->gpu, 0), *g1 = target_words(r->gpu, 1);
        bool clear = g0 && g1;
        for (uint32_t w = 0; clear && w < PIXELS * 4; w++)
            clear = !g0[w] && !g1[w];
        CHECK(r->verdict == SB_VALIDATE_DISAGREE && clear && strstr(r->reason, "test_lavapipe_clip_cull"),
              "straddling: verdict %s without the known defect's evidence: %s", sb_validate_verdict_name(r->verdict),
              r->reason);
    }
    sb_validate_report_destroy(r);
    sb_rt_program_destroy(program);
}

/* The per-pixel records of `cls` on one side (x of pixel i at [i * 4]), or NULL. */
static const uint32_t *class_words(const struct sb_rt_inputs *side, uint32_t cls)
{
    for (uint32_t i = 0; i < side->count; i++)
        if (side->resources[i].resource_class == cls && side->resources[i].size >= PIXELS * 16)
            return side->resources[i].data;
    return NULL;
}

static void feed_stencil(struct sb_rt_context *ctx)
{
    static struct sm4_program p;
    static struct blob dxbc;
    pixel_stencil(&p, &dxbc);
    struct sb_error e = { 0 };
    struct sb_rt_program *program = NULL;
    if (sb_rt_program_load(dxbc.bytes, dxbc.size, NULL, &program, &e) != SB_SUCCESS) {
        CHECK(false, "stencil: load: %s", e.message);
        return;
    }
    struct sb_validate_options o = { .inputs = { .seed = 1 } };
    struct sb_validate_report *r = NULL;
    enum sb_result res = sb_validate(ctx, program, &o, &r, &e);
    if (res == SB_ERROR_RUN_UNSUPPORTED) {
        /* Only a device without the extension may refuse, and it must say which. */
        CHECK(strstr(e.message, "StencilExport") != NULL, "stencil: unsupported without naming it: %s", e.message);
        printf("pixel oStencilRef: not-run: %s\n", e.message);
        sb_rt_program_destroy(program);
        return;
    }
    CHECK(res == SB_SUCCESS && r, "stencil: sb_validate: %s", e.message);
    if (r && r->verdict == SB_VALIDATE_NOT_RUN) {
        CHECK(strstr(r->reason, "StencilExport") != NULL, "stencil: not-run without naming it: %s", r->reason);
    } else if (r) {
        printf("pixel oStencilRef: %s (%llu of %llu words differ): %s\n", sb_validate_verdict_name(r->verdict),
               (unsigned long long)r->mismatch_count, (unsigned long long)r->words_compared, r->reason);
        CHECK(r->verdict == SB_VALIDATE_AGREE && r->words_compared == PIXELS * 2,
              "stencil: verdict %s, %llu words compared, want agree on %u (o0.x, stencil)",
              sb_validate_verdict_name(r->verdict), (unsigned long long)r->words_compared, PIXELS * 2);
        const uint32_t *o0 = target_words(r->cpu, 0), *cs = class_words(r->cpu, SB_VALIDATE_CLASS_STENCIL),
                       *gs = class_words(r->gpu, SB_VALIDATE_CLASS_STENCIL);
        CHECK(o0 && cs && gs, "stencil: o0 or the stencil records missing from the report");
        uint32_t distinct = 0;
        for (uint32_t i = 0; o0 && cs && gs && i < PIXELS; i++) {
            CHECK(cs[i * 4] == ((o0[i * 4] + 0x300u) & 0xFFu), "stencil: pixel %u: interpreter 0x%x, want 0x%x", i,
                  cs[i * 4], (o0[i * 4] + 0x300u) & 0xFFu);
            CHECK(gs[i * 4] == cs[i * 4], "stencil: pixel %u: device 0x%x, interpreter 0x%x", i, gs[i * 4],
                  cs[i * 4]);
            distinct += i == 0 || cs[i * 4] != cs[(i - 1) * 4];
        }
        CHECK(!cs || distinct > PIXELS / 2, "stencil: seeded references barely vary (%u changes)", distinct);
    }
    sb_validate_report_destroy(r);
    sb_rt_program_destroy(program);
}

int main(void)
{
    struct sb_rt_context *ctx = NULL;
    struct sb_error e = { 0 };
    struct sb_rt_context_options co = { .validation = true };
    if (sb_rt_context_create(&co, &ctx, &e) != SB_SUCCESS) {
        printf("SKIPPED: no Vulkan device: %s\n", e.message);
        return 77;
    }
    /* Keep lavapipe loaded after the context goes (LeakSanitizer and LLVM's caches). */
    (void)dlopen("libvulkan_lvp.so", RTLD_NOW | RTLD_NOLOAD);
    run(ctx, "compute write-write", compute_race, SB_INTERP_UNDEFINED_WRITE_WRITE, 63);
    run(ctx, "pixel atomic order", pixel_atomic, SB_INTERP_UNDEFINED_ATOMIC_ORDER, 63);
    run(ctx, "vertex atomic order", vertex_atomic, SB_INTERP_UNDEFINED_ATOMIC_ORDER, 63);
    feed_mixed(ctx);
    feed_clip_cull(ctx);
    feed_straddling(ctx);
    feed_stencil(ctx);
    CHECK(sb_rt_context_validation_errors(ctx) == 0, "validation-layer errors: %s",
          sb_rt_context_first_validation_error(ctx));
    sb_rt_context_destroy(ctx);
    if (failures) {
        fprintf(stderr, "%u check(s) failed\n", failures);
        return 1;
    }
    return 0;
}
