/* SPDX-License-Identifier: MIT */
/*
 * validate_tess: sb_validate on hull and domain programs end to end (lavapipe against
 * the interpreter; runtime/src/validate/validate_hull.c, validate_domain.c), with hand-built IR
 * programs whose records have relations worked out by hand:
 *
 *   hs:        tri, 3 -> 3 control points; the control-point phase writes
 *              o0 = 2 x v[vOutputControlPointID][0]; the fork phase writes the factors
 *              2, 3, 4 (edges) and 2 (inside) and o4 = vocp[2][0] + vicp[0][0]. Verdict
 *              agree; 16 patches x (3 x 4 + 4 x 1 + 4) = 320 words compared; in every
 *              device record the factors are exactly those and o4 = cp2 + cp0 / 2.
 *   hs culled: the same with the first edge factor NaN, which culls every patch before
 *              the tessellator: the records are captured inside the TCS all the same
 *              (o4 as above, the NaN word compared as NaN on both sides).
 *   hs indexed: o0 = v[cb0[0].x][0]: the seeded cb0 word that indexes the input array
 *              is reseeded inside its 3 control points (cb0[0].x in 0-2), verdict agree
 *              (without that the device and the interpreter read different things
 *              past the array, which D3D leaves undefined).
 *   hs without phases: a control-point phase alone (o0 = 2 x v[id][0]), no fork or join
 *              phase: the capture copy adds a join phase of its own; verdict agree, 192
 *              words (16 patches x 3 control points x 4).
 *   ds:        tri, 3 control points: o0 = the barycentric blend of the three
 *              v[k][0] by vDomain, o1 = (vDomain.x, vDomain.y, vpc0.x, vpc4.y),
 *              o2.x = sin(1000 u + 7) / (3 + v / 3) + 2^(10 w + 0.3). Verdict agree or
 *              within precision (the blend's mads may fuse; Vulkan bounds sin only
 *              inside [-pi, pi] and lets rcp and exp err by ULPs: lavapipe's exp2 does),
 *              every differing word explained by the evidence run at the device's points; in every device
 *              record o1.xy are the record's u and v exactly, o1.z (the first edge factor)
 *              is one its partitioning mode seeds, o1.w is one value per patch; the
 *              device's domain points of every patch, all four partitioning modes, are
 *              the CPU tessellator's (gpu == cpu == matched).
 * Exit: 0 pass, 1 fail, 77 no Vulkan device.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "stage_ir.h"
#include "shaderbridge/validate.h"

enum { IN = SB_IR_SIGNATURE_INPUT, OUT = SB_IR_SIGNATURE_OUTPUT, PATCH = SB_IR_SIGNATURE_PATCH };

static struct sb_ir_operand src_lane(struct sb_ir_operand o, uint8_t c)
{
    for (int i = 0; i < 4; i++)
        o.swizzle[i] = c;
    return o;
}

static void op2(uint32_t op, struct sb_ir_operand d, struct sb_ir_operand a, struct sb_ir_operand b)
{
    struct sb_ir_operand s[2] = { a, b };
    st_inst(op, 1, &d, 2, s);
}

static void op3(uint32_t op, struct sb_ir_operand d, struct sb_ir_operand a, struct sb_ir_operand b,
                struct sb_ir_operand c)
{
    struct sb_ir_operand s[3] = { a, b, c };
    st_inst(op, 1, &d, 3, s);
}

static float word_float(uint32_t u)
{
    float f;
    memcpy(&f, &u, 4);
    return f;
}

static const struct sb_rt_resource *records(const struct sb_rt_inputs *side, uint32_t cls)
{
    for (uint32_t i = 0; i < side->count; i++)
        if (side->resources[i].resource_class == cls)
            return &side->resources[i];
    return NULL;
}

/* The IR program being built, translated and validated; NULL report on failure. */
static struct sb_validate_report *validate(struct sb_rt_context *ctx, struct sb_ir_program *ir, const char *name)
{
    struct sb_translate_options topts = { .target_env = SB_TARGET_VULKAN_1_1 };
    struct sb_translation *t = NULL;
    struct sb_error e = { 0 };
    if (sb_translate_ir(ir, &topts, &t, &e) != SB_SUCCESS) {
        CHECK(0, "%s: translate: %s", name, e.message);
        return NULL;
    }
    struct sb_rt_program program = { .stage = (enum sb_ir_stage)ir->stage, .ir = ir, .translation = t };
    struct sb_validate_options o = { .inputs = { .seed = 1 } };
    struct sb_validate_report *r = NULL;
    enum sb_result res = sb_validate(ctx, &program, &o, &r, &e);
    CHECK(res == SB_SUCCESS, "%s: sb_validate: %s", name, e.message);
    sb_translation_destroy(t);
    return res == SB_SUCCESS ? r : NULL;
}

static struct sb_ir_program *hull(float first_edge)
{
    struct sb_ir_program *p = st_begin(SB_IR_STAGE_HULL);
    p->input_control_points = p->output_control_points = 3;
    p->tess_domain = 2;
    p->tess_partitioning = 1;
    p->tess_output_primitive = 3;
    st_sig(IN, SB_IR_FILE_INPUT, 0, 0xF, "POSITION", 0, 0);
    st_sig(IN, SB_IR_FILE_OUTPUT_CONTROL_POINT_ID, 0, 0x1, "", 0, 0);
    st_sig(OUT, SB_IR_FILE_OUTPUT, 0, 0xF, "POSITION", 0, 0);
    for (uint32_t i = 0; i < 4; i++)
        st_sig(PATCH, SB_IR_FILE_OUTPUT, i, 0x1, i < 3 ? "SV_TessFactor" : "SV_InsideTessFactor", 17 + i, 0);
    st_sig(PATCH, SB_IR_FILE_OUTPUT, 4, 0xF, "EXTRA", 0, 0);
    st_function(1, 0); /* control points: o0 = 2 * v[id][0] */
    struct sb_ir_operand v = st_reg2(SB_IR_FILE_INPUT, 0, 0, 0);
    st_relative(&v, 0, SB_IR_FILE_OUTPUT_CONTROL_POINT_ID);
    op2(SB_IR_OP_MUL, st_reg(SB_IR_FILE_OUTPUT, 0, 0xF), v, st_immf(2.0f));
    st_op(SB_IR_OP_RET, 0);
    st_function(1, 0); /* patch constants */
    const float factors[4] = { first_edge, 3.0f, 4.0f, 2.0f };
    for (uint32_t i = 0; i < 4; i++)
        st_mov(st_reg(SB_IR_FILE_OUTPUT, i, 0x1), st_immf(factors[i]));
    op2(SB_IR_OP_ADD, st_reg(SB_IR_FILE_OUTPUT, 4, 0xF), st_reg2(SB_IR_FILE_OUTPUT_CONTROL_POINT, 2, 0, 0),
        st_reg2(SB_IR_FILE_INPUT_CONTROL_POINT, 0, 0, 0));
    st_op(SB_IR_OP_RET, 0);
    p = st_end();
    p->fork_phase_count = 1;
    return p;
}

static void check_hull(struct sb_rt_context *ctx, const char *name, float first_edge)
{
    struct sb_validate_report *r = validate(ctx, hull(first_edge), name);
    if (!r)
        return;
    CHECK(r->verdict == SB_VALIDATE_AGREE, "%s: verdict %s: %s", name, sb_validate_verdict_name(r->verdict),
          r->reason);
    CHECK(r->words_compared == 16 * (3 * 4 + 4 + 4), "%s: %llu words compared, want 320", name,
          (unsigned long long)r->words_compared);
    const struct sb_rt_resource *g = records(r->gpu, SB_VALIDATE_CLASS_HULL);
    CHECK(g && g->width == 1 && g->height == 3 && g->depth == 5 && g->size == 16 * 8 * 16,
          "%s: 16 records of 3 control points x 1 register + 5 patch constants", name);
    for (uint32_t p = 0; g && p < 16; p++) {
        const uint32_t *w = (const uint32_t *)g->data + p * 8 * 4;
        const uint32_t *pc = w + 3 * 4;
        const float want[4] = { first_edge, 3.0f, 4.0f, 2.0f };
        for (uint32_t i = 0; i < 4; i++)
            CHECK(isnan(want[i]) ? isnan(word_float(pc[i * 4])) : word_float(pc[i * 4]) == want[i],
                  "%s: patch %u factor %u = %g, want %g", name, p, i, word_float(pc[i * 4]), want[i]);
        for (uint32_t c = 0; c < 4; c++) {
            float sum = word_float(w[2 * 4 + c]) + word_float(w[c]) * 0.5f;
            CHECK(word_float(pc[4 * 4 + c]) == sum && sum != 0.0f, "%s: patch %u o4.%u = %g, want cp2 + cp0 / 2 = %g",
                  name, p, c, word_float(pc[4 * 4 + c]), sum);
        }
    }
    sb_validate_report_destroy(r);
}

/* A hull program with a control-point phase alone (o0 = 2 x v[id][0]), no fork or join phase
 * and no patch constant: the capture copy adds a join phase that only stores the control points.
 * 16 patches x 3 control points x 4 words = 192 words, each twice its seeded input. */
static struct sb_ir_program *hull_without_phases(void)
{
    struct sb_ir_program *p = st_begin(SB_IR_STAGE_HULL);
    p->input_control_points = p->output_control_points = 3;
    p->tess_domain = 2;
    p->tess_partitioning = 1;
    p->tess_output_primitive = 3;
    st_sig(IN, SB_IR_FILE_INPUT, 0, 0xF, "POSITION", 0, 0);
    st_sig(IN, SB_IR_FILE_OUTPUT_CONTROL_POINT_ID, 0, 0x1, "", 0, 0);
    st_sig(OUT, SB_IR_FILE_OUTPUT, 0, 0xF, "POSITION", 0, 0);
    st_function(1, 0);
    struct sb_ir_operand v = st_reg2(SB_IR_FILE_INPUT, 0, 0, 0);
    st_relative(&v, 0, SB_IR_FILE_OUTPUT_CONTROL_POINT_ID);
    op2(SB_IR_OP_MUL, st_reg(SB_IR_FILE_OUTPUT, 0, 0xF), v, st_immf(2.0f));
    st_op(SB_IR_OP_RET, 0);
    return st_end();
}

static void check_hull_without_phases(struct sb_rt_context *ctx)
{
    struct sb_validate_report *r = validate(ctx, hull_without_phases(), "hs without phases");
    if (!r)
        return;
    CHECK(r->verdict == SB_VALIDATE_AGREE, "hs without phases: verdict %s: %s", sb_validate_verdict_name(r->verdict),
          r->reason);
    CHECK(r->words_compared == 16 * 3 * 4, "hs without phases: %llu words compared, want 192",
          (unsigned long long)r->words_compared);
    const struct sb_rt_resource *g = records(r->gpu, SB_VALIDATE_CLASS_HULL);
    uint32_t nonzero = 0;
    for (uint32_t w = 0; g && w < 16 * 3 * 4 && w < g->size / 4; w++)
        nonzero += ((const uint32_t *)g->data)[w] != 0;
    CHECK(g && nonzero > 0, "hs without phases: device records all zero");
    sb_validate_report_destroy(r);
}

/* tri, 3 -> 3 control points whose phase reads o0 = v[cb0[0].x][0]: a relative input index
 * from a constant-buffer word (as vkd3d's test_hull_shader_relative_addressing does). */
static struct sb_ir_program *hull_indexed(void)
{
    static const struct sb_ir_resource cb0 = {
        .resource_class = SB_IR_RESOURCE_CBV, .id = 0, .lower_bound = 0, .count = 1, .cb_size = 1,
    };
    struct sb_ir_program *p = st_begin(SB_IR_STAGE_HULL);
    p->input_control_points = p->output_control_points = 3;
    p->tess_domain = 2;
    p->tess_partitioning = 1;
    p->tess_output_primitive = 3;
    st_sig(IN, SB_IR_FILE_INPUT, 0, 0xF, "POSITION", 0, 0);
    st_sig(OUT, SB_IR_FILE_OUTPUT, 0, 0xF, "POSITION", 0, 0);
    for (uint32_t i = 0; i < 4; i++)
        st_sig(PATCH, SB_IR_FILE_OUTPUT, i, 0x1, i < 3 ? "SV_TessFactor" : "SV_InsideTessFactor", 17 + i, 0);
    st_function(1, 1);
    st_mov(st_reg(SB_IR_FILE_TEMP, 0, 0x1), src_lane(st_reg2(SB_IR_FILE_CONSTANT_BUFFER, 0, 0, 0), 0));
    struct sb_ir_operand v = st_reg2(SB_IR_FILE_INPUT, 0, 0, 0);
    st_relative_temp(&v, 0, 0, 0);
    st_mov(st_reg(SB_IR_FILE_OUTPUT, 0, 0xF), v);
    st_op(SB_IR_OP_RET, 0);
    st_function(1, 0);
    for (uint32_t i = 0; i < 4; i++)
        st_mov(st_reg(SB_IR_FILE_OUTPUT, i, 0x1), st_immf(2.0f));
    st_op(SB_IR_OP_RET, 0);
    p = st_end();
    p->fork_phase_count = 1;
    p->resources = &cb0;
    p->resource_count = 1;
    return p;
}

/* The seeded cb0 word is reseeded inside the 3 control points (D3D leaves reads past them
 * undefined): every patch's control points are copies of its inputs, on both sides alike. */
static void check_hull_indexed(struct sb_rt_context *ctx)
{
    struct sb_validate_report *r = validate(ctx, hull_indexed(), "hs indexed");
    if (!r)
        return;
    CHECK(r->verdict == SB_VALIDATE_AGREE, "hs indexed: verdict %s: %s", sb_validate_verdict_name(r->verdict),
          r->reason);
    CHECK(r->words_compared == 16 * (3 * 4 + 4), "hs indexed: %llu words compared, want 256",
          (unsigned long long)r->words_compared);
    const struct sb_rt_resource *cb = NULL;
    for (uint32_t i = 0; i < r->cpu->count; i++)
        if (r->cpu->resources[i].resource_class == SB_IR_RESOURCE_CBV)
            cb = &r->cpu->resources[i];
    CHECK(cb && cb->data && ((const uint32_t *)cb->data)[0] < 3, "hs indexed: cb0[0].x = %u, want 0, 1 or 2",
          cb && cb->data ? ((const uint32_t *)cb->data)[0] : UINT32_MAX);
    sb_validate_report_destroy(r);
}

static struct sb_ir_program *domain(void)
{
    struct sb_ir_program *p = st_begin(SB_IR_STAGE_DOMAIN);
    p->input_control_points = 3;
    p->tess_domain = 2;
    st_sig(IN, SB_IR_FILE_INPUT, 0, 0xF, "POSITION", 0, 0);
    st_sig(IN, SB_IR_FILE_DOMAIN_POINT, 0, 0x7, "", 0, 0);
    for (uint32_t i = 0; i < 4; i++)
        st_sig(PATCH, SB_IR_FILE_INPUT_PATCH_CONSTANT, i, 0x1, i < 3 ? "SV_TessFactor" : "SV_InsideTessFactor",
               17 + i, 0);
    st_sig(PATCH, SB_IR_FILE_INPUT_PATCH_CONSTANT, 4, 0xF, "EXTRA", 0, 0);
    st_sig(OUT, SB_IR_FILE_OUTPUT, 0, 0xF, "SV_Position", 1, 0);
    st_sig(OUT, SB_IR_FILE_OUTPUT, 1, 0xF, "TEXCOORD", 0, 0);
    st_sig(OUT, SB_IR_FILE_OUTPUT, 2, 0x1, "TEXCOORD", 1, 0);
    st_function(1, 1);
    struct sb_ir_operand where = st_reg(SB_IR_FILE_DOMAIN_POINT, 0, 0);
    where.index_count = 0;
    struct sb_ir_operand r0 = st_reg(SB_IR_FILE_TEMP, 0, 0xF), r0s = st_reg(SB_IR_FILE_TEMP, 0, 0);
    op2(SB_IR_OP_MUL, r0, src_lane(where, 0), st_reg2(SB_IR_FILE_INPUT_CONTROL_POINT, 0, 0, 0));
    op3(SB_IR_OP_MAD, r0, src_lane(where, 1), st_reg2(SB_IR_FILE_INPUT_CONTROL_POINT, 1, 0, 0), r0s);
    op3(SB_IR_OP_MAD, st_reg(SB_IR_FILE_OUTPUT, 0, 0xF), src_lane(where, 2),
        st_reg2(SB_IR_FILE_INPUT_CONTROL_POINT, 2, 0, 0), r0s);
    st_mov(st_reg(SB_IR_FILE_OUTPUT, 1, 0x3), where);
    st_mov(st_reg(SB_IR_FILE_OUTPUT, 1, 0x4), src_lane(st_reg(SB_IR_FILE_INPUT_PATCH_CONSTANT, 0, 0), 0));
    st_mov(st_reg(SB_IR_FILE_OUTPUT, 1, 0x8), src_lane(st_reg(SB_IR_FILE_INPUT_PATCH_CONSTANT, 4, 0), 1));
    /* o2.x = sin(1000 u + 7) / (3 + v / 3) + 2^(10 w + 0.3): Vulkan bounds sin only inside
     * [-pi, pi] and lets rcp and exp err, so the device may differ (lavapipe's exp2 does) and
     * the words take the evidence run to be explained. */
    op3(SB_IR_OP_MAD, st_reg(SB_IR_FILE_TEMP, 0, 0x1), src_lane(where, 0), st_immf(1000.0f), st_immf(7.0f));
    struct sb_ir_operand sincos_dst[2] = { st_reg(SB_IR_FILE_TEMP, 0, 0x2), st_reg(SB_IR_FILE_NULL, 0, 0) };
    sincos_dst[1].index_count = 0;
    struct sb_ir_operand angle = src_lane(st_reg(SB_IR_FILE_TEMP, 0, 0), 0);
    st_inst(SB_IR_OP_SINCOS, 2, sincos_dst, 1, &angle);
    /* ... times rcp(3 + v / 3): rcp is allowed 2.5 ULP. */
    op3(SB_IR_OP_MAD, st_reg(SB_IR_FILE_TEMP, 0, 0x4), src_lane(where, 1), st_immf(1.0f / 3.0f), st_immf(3.0f));
    struct sb_ir_operand denominator = src_lane(st_reg(SB_IR_FILE_TEMP, 0, 0), 2);
    struct sb_ir_operand reciprocal = st_reg(SB_IR_FILE_TEMP, 0, 0x4);
    st_inst(SB_IR_OP_RCP, 1, &reciprocal, 1, &denominator);
    op2(SB_IR_OP_MUL, st_reg(SB_IR_FILE_TEMP, 0, 0x1), src_lane(st_reg(SB_IR_FILE_TEMP, 0, 0), 1),
        src_lane(st_reg(SB_IR_FILE_TEMP, 0, 0), 2));
    /* ... plus 2^(10 w + 0.3): exp is allowed 3 + 2|x| ULP. */
    op3(SB_IR_OP_MAD, st_reg(SB_IR_FILE_TEMP, 0, 0x2), src_lane(where, 2), st_immf(10.0f), st_immf(0.3f));
    struct sb_ir_operand power = st_reg(SB_IR_FILE_TEMP, 0, 0x2), exponent = src_lane(st_reg(SB_IR_FILE_TEMP, 0, 0), 1);
    st_inst(SB_IR_OP_EXP, 1, &power, 1, &exponent);
    op2(SB_IR_OP_ADD, st_reg(SB_IR_FILE_OUTPUT, 2, 0x1), src_lane(st_reg(SB_IR_FILE_TEMP, 0, 0), 0),
        src_lane(st_reg(SB_IR_FILE_TEMP, 0, 0), 1));
    st_op(SB_IR_OP_RET, 0);
    return st_end();
}

static void check_domain(struct sb_rt_context *ctx)
{
    struct sb_validate_report *r = validate(ctx, domain(), "ds");
    if (!r)
        return;
    CHECK(r->verdict == SB_VALIDATE_AGREE || r->verdict == SB_VALIDATE_AGREE_WITHIN_PRECISION, "ds: verdict %s: %s",
          sb_validate_verdict_name(r->verdict), r->reason);
    const struct sb_rt_resource *g = records(r->gpu, SB_VALIDATE_CLASS_DOMAIN);
    size_t count = g ? g->size / (4 * 16) : 0;
    size_t count4 = g ? g->size / (4 * 16) : 0;
    CHECK(g && g->width == 4 && count4 >= 32 * 4, "ds: records of 4 vectors, at least 4 points for each of 32 patches");
    /* Mode m holds patches 8m .. 8m + 7 and seeds these first-edge factors. */
    static const float seeded[4][5] = {
        { 1, 2, 3, 4 }, { 1, 2, 4 }, { 1, 1.5f, 2.25f, 3, 3.75f }, { 2, 2.5f, 3.25f, 4 },
    };
    float extra[32];
    bool seen[32] = { false };
    for (size_t k = 0; k < count; k++) {
        const uint32_t *w = (const uint32_t *)g->data + k * 16;
        uint32_t patch = w[3];
        CHECK(patch < 32, "ds: record %zu names patch %u", k, patch);
        if (patch >= 32)
            continue;
        CHECK(w[8] == w[0] && w[9] == w[1], "ds: record %zu o1.xy = (u, v) of the record", k);
        bool known = false;
        for (int i = 0; i < 5; i++)
            known |= seeded[patch / 8][i] != 0.0f && word_float(w[10]) == seeded[patch / 8][i];
        CHECK(known, "ds: record %zu (patch %u) reads edge factor %g, not one its mode seeds", k, patch,
              word_float(w[10]));
        if (!seen[patch])
            extra[patch] = word_float(w[11]);
        seen[patch] = true;
        CHECK(word_float(w[11]) == extra[patch], "ds: record %zu o1.w is its patch's vpc4.y", k);
    }
    /* Differing words (the sines) are explained by the evidence run, which evaluates at the
     * device's points: none may stay unexplained. */
    CHECK(!r->mismatch_count || (r->evidence_ns > 0 && r->unexplained == 0), "ds: %llu differing words, %llu "
          "unexplained, evidence run %llu ns", (unsigned long long)r->mismatch_count,
          (unsigned long long)r->unexplained, (unsigned long long)r->evidence_ns);
    printf("ds: %llu words compared, %llu differ (%llu within precision, %llu precision-sensitive)\n",
           (unsigned long long)r->words_compared, (unsigned long long)r->mismatch_count,
           (unsigned long long)r->within_precision, (unsigned long long)r->precision_sensitive);
    /* lavapipe's tessellator is Mesa's port of D3D's reference, so every patch's point set must
     * be the CPU tessellator's: the fractional modes' seeded factors (1.5, 2.25, 3.75; 2.5, 3.25)
     * place their short segments by D3D's 16.16 rules, and an inside factor of 1 gets no ring of
     * its own (fractional_odd's 1 + 2^-16 frame lies on the corners). */
    CHECK(r->domain_points_gpu > 0 && r->domain_points_cpu == r->domain_points_gpu &&
          r->domain_points_matched == r->domain_points_gpu, "ds: domain points gpu %u cpu %u matched %u",
          r->domain_points_gpu, r->domain_points_cpu, r->domain_points_matched);
    printf("ds: domain points gpu %u cpu %u matched %u\n", r->domain_points_gpu, r->domain_points_cpu,
           r->domain_points_matched);
    sb_validate_report_destroy(r);
}

int main(void)
{
    struct sb_rt_context_options co = { .allow_cpu_only = true, .validation = true };
    struct sb_rt_context *ctx = NULL;
    struct sb_error e = { 0 };
    if (sb_rt_context_create(&co, &ctx, &e) != SB_SUCCESS || !sb_rt_context_has_device(ctx)) {
        printf("SKIPPED: no Vulkan device\n");
        sb_rt_context_destroy(ctx);
        return 77;
    }
    check_hull(ctx, "hs", 2.0f);
    check_hull(ctx, "hs culled", NAN);
    check_hull_indexed(ctx);
    check_hull_without_phases(ctx);
    check_domain(ctx);
    CHECK(sb_rt_context_validation_errors(ctx) == 0, "validation-layer errors: %u, first: %s",
          sb_rt_context_validation_errors(ctx), sb_rt_context_first_validation_error(ctx));
    sb_rt_context_destroy(ctx);
    printf("validate_tess: %u failures\n", failures);
    return failures ? 1 : 0;
}
