/* SPDX-License-Identifier: MIT */
/*
 * Patch-list draws (sb_rt_draw_points with hull + domain translations) on
 * lavapipe, counting the domain points the device's tessellator makes from
 * factors the translated hull shader writes, to check D3D's factor rules in
 * the translation (translator/src/spirv/spirv_stage_io.c). The HS (quad
 * domain, point output, one control point) writes all six factors as one
 * constant; the DS adds 1 to u0's word 0 per invocation. A quad of n x m
 * segments in point mode has (n + 1) x (m + 1) points:
 *   integer, 3.0                 -> 3 segments: 16 points
 *   pow2, 3.0                    -> rounded up to 4: 25 (Vulkan alone: 16)
 *   pow2, 5.0, max factor 6      -> 8 is above 6, so 4: 25
 *   integer, 4.0, max factor 2   -> clamped to 2: 9 (Vulkan alone: 25)
 *   fractional_odd, 2.5, max 2.5 -> 2.5 rounds up to odd 3: 16
 *   integer, NaN / -1 / 0        -> the patch is culled: 0
 * Usage: test_runtime_tess. Exit 0 pass, 1 fail, 77 no Vulkan device.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "stage_ir.h"
#include "shaderbridge/runtime.h"

static int failures;

static struct sb_translation *translate(const struct sb_ir_program *p, const char *what)
{
    struct sb_translate_options o = { .target_env = SB_TARGET_VULKAN_1_1 };
    struct sb_translation *t = NULL;
    struct sb_error e = { 0 };
    if (sb_translate_ir(p, &o, &t, &e) != SB_SUCCESS) {
        fprintf(stderr, "FAIL %s: translate: %s\n", what, e.message);
        failures++;
    }
    return t;
}

static struct sb_translation *vertex_program(void)
{
    st_begin(SB_IR_STAGE_VERTEX);
    st_function(1, 0);
    st_op(SB_IR_OP_RET, 0);
    return translate(st_end(), "vs");
}

static struct sb_translation *hull_program(uint32_t partitioning, float factor, float max_factor)
{
    struct sb_ir_program *p = st_begin(SB_IR_STAGE_HULL);
    p->input_control_points = p->output_control_points = 1;
    p->tess_domain = 3;
    p->tess_partitioning = partitioning;
    p->tess_output_primitive = 1; /* points: each domain point once */
    p->max_tess_factor = max_factor;
    for (uint32_t i = 0; i < 6; i++)
        st_sig(SB_IR_SIGNATURE_PATCH, SB_IR_FILE_OUTPUT, i, 0x1, i < 4 ? "SV_TessFactor" : "SV_InsideTessFactor",
               11 + i, 0);
    st_function(1, 0); /* no control-point phase: pass-through of nothing */
    st_function(1, 0);
    for (uint32_t i = 0; i < 6; i++)
        st_mov(st_reg(SB_IR_FILE_OUTPUT, i, 0x1), st_immf(factor));
    st_op(SB_IR_OP_RET, 0);
    p->fork_phase_count = 1;
    return translate(st_end(), "hs");
}

static struct sb_translation *domain_program(void)
{
    static const struct sb_ir_resource counter = {
        .resource_class = SB_IR_RESOURCE_UAV, .id = 0, .lower_bound = 0, .count = 1,
        .kind = SB_IR_RESOURCE_KIND_RAW,
    };
    struct sb_ir_program *p = st_begin(SB_IR_STAGE_DOMAIN);
    p->input_control_points = 1;
    p->tess_domain = 3;
    st_function(1, 1);
    struct sb_ir_operand dst[2] = { st_reg(SB_IR_FILE_TEMP, 0, 0x1), st_reg(SB_IR_FILE_UAV, 0, 0x1) };
    struct sb_ir_operand src[2] = { st_immf(0.0f), st_immf(0.0f) };
    uint32_t one = 1;
    memcpy(src[1].imm, &one, 4); /* address 0, value 1 */
    for (int c = 1; c < 4; c++)
        src[1].imm[c] = one;
    st_inst(SB_IR_OP_IMM_ATOMIC_IADD, 2, dst, 2, src);
    st_op(SB_IR_OP_RET, 0);
    p = st_end();
    p->resources = &counter;
    p->resource_count = 1;
    return translate(p, "ds");
}

/* Domain-shader invocations of one patch, or UINT32_MAX when the draw failed. */
static uint32_t points(struct sb_rt_context *c, const struct sb_translation *vs, uint32_t partitioning, float factor,
                       float max_factor)
{
    struct sb_translation *hs = hull_program(partitioning, factor, max_factor), *ds = domain_program();
    uint32_t count[4] = { 0 };
    struct sb_rt_resource u0 = { .resource_class = SB_IR_RESOURCE_UAV, .size = sizeof(count), .data = count };
    struct sb_rt_draw d = { .vertex = vs, .hull = hs, .domain = ds, .vertex_count = 1, .width = 1, .height = 1,
                            .topology = SB_RT_TOPOLOGY_PATCH_LIST };
    struct sb_error e = { 0 };
    enum sb_result r = hs && ds ? sb_rt_draw_points(c, &d, &u0, 1, NULL, &e) : SB_ERROR_INVALID_ARGUMENT;
    if (r != SB_SUCCESS)
        fprintf(stderr, "draw: %s\n", e.message);
    sb_translation_destroy(hs);
    sb_translation_destroy(ds);
    return r == SB_SUCCESS ? count[0] : UINT32_MAX;
}

int main(void)
{
    struct sb_rt_context_options o = { .allow_cpu_only = true, .validation = true };
    struct sb_rt_context *c = NULL;
    struct sb_error e = { 0 };
    if (sb_rt_context_create(&o, &c, &e) != SB_SUCCESS || !sb_rt_context_has_device(c)) {
        fprintf(stderr, "SKIPPED: no Vulkan device\n");
        sb_rt_context_destroy(c);
        return 77;
    }
    static const struct {
        const char *name;
        uint32_t partitioning;
        float factor, max_factor;
        uint32_t expected;
    } cases[] = {
        { "integer 3", 1, 3.0f, 0.0f, 16 },
        { "pow2 3", 2, 3.0f, 0.0f, 25 },
        { "pow2 5 max 6", 2, 5.0f, 6.0f, 25 },
        { "integer 4 max 2", 1, 4.0f, 2.0f, 9 },
        { "fractional_odd 2.5 max 2.5", 3, 2.5f, 2.5f, 16 },
        { "integer NaN", 1, NAN, 0.0f, 0 },
        { "integer -1", 1, -1.0f, 0.0f, 0 },
        { "integer 0", 1, 0.0f, 0.0f, 0 },
    };
    struct sb_translation *vs = vertex_program();
    for (size_t i = 0; vs && i < sizeof(cases) / sizeof(cases[0]); i++) {
        uint32_t n = points(c, vs, cases[i].partitioning, cases[i].factor, cases[i].max_factor);
        if (n != cases[i].expected) {
            fprintf(stderr, "FAIL %s: %u domain points, expected %u\n", cases[i].name, n, cases[i].expected);
            failures++;
        }
    }
    if (sb_rt_context_validation_errors(c)) {
        fprintf(stderr, "FAIL: %u validation-layer errors; first: %s\n", sb_rt_context_validation_errors(c),
                sb_rt_context_first_validation_error(c));
        failures++;
    }
    sb_translation_destroy(vs);
    sb_rt_context_destroy(c);
    printf("%s: %d failures\n", failures ? "FAIL" : "PASS", failures);
    return failures ? 1 : 0;
}
