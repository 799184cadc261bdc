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
 * The DS also stores each invocation's domain point (slot from the counter), and
 * patches of every domain with fractional and integer factors (1.5, 2.3, 3.75,
 * 5.5, inside factors of 1 beside larger ones) must give exactly the CPU
 * tessellator's point set (sb_interp_tessellate_patch, D3D's 16.16 placement,
 * which lavapipe's port of D3D's reference tessellator shares), bit for bit.
 * Usage: test_runtime_tess. Exit 0 pass, 1 fail, 77 no Vulkan device.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "stage_ir.h"
#include "shaderbridge/interp.h"
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

/* Tess factor system values per domain (sm4-tokens.md §8.1), in sb_interp_tess_input order:
 * edges then insides; isoline density then detail. */
static const uint32_t factor_names[4][6] = {
    [1] = { 22, 21 }, [2] = { 17, 18, 19, 20 }, [3] = { 11, 12, 13, 14, 15, 16 },
};
static const uint32_t factor_counts[4] = { 0, 2, 4, 6 }, factor_edges[4] = { 0, 2, 3, 4 };

static struct sb_translation *hull_program(uint32_t domain, uint32_t partitioning, const float *factors,
                                           float max_factor)
{
    struct sb_ir_program *p = st_begin(SB_IR_STAGE_HULL);
    p->input_control_points = p->output_control_points = 1;
    p->tess_domain = domain;
    p->tess_partitioning = partitioning;
    p->tess_output_primitive = 1; /* points: each domain point once */
    p->max_tess_factor = max_factor;
    uint32_t count = factor_counts[domain];
    for (uint32_t i = 0; i < count; i++)
        st_sig(SB_IR_SIGNATURE_PATCH, SB_IR_FILE_OUTPUT, i, 0x1,
               i >= factor_edges[domain] ? "SV_InsideTessFactor" : "SV_TessFactor", factor_names[domain][i], 0);
    st_function(1, 0); /* no control-point phase: pass-through of nothing */
    st_function(1, 0);
    for (uint32_t i = 0; i < count; i++)
        st_mov(st_reg(SB_IR_FILE_OUTPUT, i, 0x1), st_immf(factors[i]));
    st_op(SB_IR_OP_RET, 0);
    p->fork_phase_count = 1;
    return translate(st_end(), "hs");
}

static struct sb_ir_operand imm_u32(uint32_t x)
{
    struct sb_ir_operand o = st_immf(0.0f);
    for (int c = 0; c < 4; c++)
        o.imm[c] = x;
    return o;
}

/* u0: word 0 counts the invocations; record k (16 bytes at 16 + 16 k) holds its domain point. */
enum { RECORDS = 512 };

static struct sb_translation *domain_program(uint32_t domain)
{
    static const struct sb_ir_resource counter = {
        .resource_class = SB_IR_RESOURCE_UAV, .id = 0, .lower_bound = 0, .count = 1,
        .kind = SB_IR_RESOURCE_KIND_RAW,
    };
    uint8_t lanes = domain == 2 ? 0x7 : 0x3;
    struct sb_ir_program *p = st_begin(SB_IR_STAGE_DOMAIN);
    p->input_control_points = 1;
    p->tess_domain = domain;
    st_sig(SB_IR_SIGNATURE_INPUT, SB_IR_FILE_DOMAIN_POINT, 0, lanes, "", 0, 0);
    st_function(1, 1);
    struct sb_ir_operand slot = st_reg(SB_IR_FILE_TEMP, 0, 0x1), slot_x = st_reg(SB_IR_FILE_TEMP, 0, 0);
    struct sb_ir_operand dst[2] = { slot, st_reg(SB_IR_FILE_UAV, 0, 0x1) };
    struct sb_ir_operand src[2] = { imm_u32(0), imm_u32(1) }; /* address 0, value 1 */
    st_inst(SB_IR_OP_IMM_ATOMIC_IADD, 2, dst, 2, src);
    /* The record of this invocation: address 16 + 16 x slot, while it fits. */
    struct sb_ir_operand shift[2] = { slot_x, imm_u32(4) }, offset[2] = { slot_x, imm_u32(16) };
    st_inst(SB_IR_OP_ISHL, 1, &slot, 2, shift);
    st_inst(SB_IR_OP_IADD, 1, &slot, 2, offset);
    struct sb_ir_operand limit[2] = { slot_x, imm_u32(16 + 16 * RECORDS) };
    st_inst(SB_IR_OP_UMIN, 1, &slot, 2, limit);
    struct sb_ir_operand where = st_reg(SB_IR_FILE_DOMAIN_POINT, 0, 0);
    where.index_count = 0;
    struct sb_ir_operand store[2] = { slot_x, where };
    struct sb_ir_operand target = st_reg(SB_IR_FILE_UAV, 0, lanes);
    st_inst(SB_IR_OP_STORE_RAW, 1, &target, 2, store);
    st_op(SB_IR_OP_RET, 0);
    p = st_end();
    p->resources = &counter;
    p->resource_count = 1;
    return translate(p, "ds");
}

/* Draws one patch; fills u0 (count then records, 16 + 16 x (RECORDS + 1) bytes). False when the
 * draw failed. */
static bool draw_patch(struct sb_rt_context *c, const struct sb_translation *vs, uint32_t domain,
                       uint32_t partitioning, const float *factors, float max_factor, uint32_t *words)
{
    struct sb_translation *hs = hull_program(domain, partitioning, factors, max_factor),
                          *ds = domain_program(domain);
    size_t size = 16 + 16 * (RECORDS + 1);
    memset(words, 0, size);
    struct sb_rt_resource u0 = { .resource_class = SB_IR_RESOURCE_UAV, .size = size, .data = words };
    struct sb_rt_draw d = { .vertex = vs, .hull = hs, .domain = ds, .vertex_count = 1, .width = 1, .height = 1,
                            .topology = SB_RT_TOPOLOGY_PATCH_LIST };
    struct sb_error e = { 0 };
    enum sb_result r = hs && ds ? sb_rt_draw_points(c, &d, &u0, 1, NULL, &e) : SB_ERROR_INVALID_ARGUMENT;
    if (r != SB_SUCCESS)
        fprintf(stderr, "draw: %s\n", e.message);
    sb_translation_destroy(hs);
    sb_translation_destroy(ds);
    return r == SB_SUCCESS;
}

static uint32_t words_buffer[4 + 4 * (RECORDS + 1)];

/* Domain-shader invocations of one quad patch with all six factors `factor`, or UINT32_MAX when
 * the draw failed. */
static uint32_t points(struct sb_rt_context *c, const struct sb_translation *vs, uint32_t partitioning, float factor,
                       float max_factor)
{
    const float factors[6] = { factor, factor, factor, factor, factor, factor };
    return draw_patch(c, vs, 3, partitioning, factors, max_factor, words_buffer) ? words_buffer[0] : UINT32_MAX;
}

static uint32_t checked_points;

static bool same_point(const float *a, const float *b, uint32_t components)
{
    return memcmp(a, b, components * sizeof(float)) == 0;
}

/* The device's distinct domain points of one patch against the CPU tessellator's, exactly. */
static void check_point_set(struct sb_rt_context *c, const struct sb_translation *vs, const char *name,
                            uint32_t domain, uint32_t partitioning, const float *factors)
{
    if (!draw_patch(c, vs, domain, partitioning, factors, 0.0f, words_buffer)) {
        fprintf(stderr, "FAIL %s: draw failed\n", name);
        failures++;
        return;
    }
    struct sb_interp_tess_input in = { .domain = domain, .partitioning = partitioning,
                                       .output_primitive = SB_INTERP_TESS_POINT, .max_factor = 0.0f };
    for (uint32_t k = 0; k < factor_counts[domain]; k++) {
        if (k < factor_edges[domain])
            in.edge[k] = factors[k];
        else
            in.inside[k - factor_edges[domain]] = factors[k];
    }
    struct sb_interp_tess_output cpu = { 0 };
    struct sb_error e = { 0 };
    if (sb_interp_tessellate_patch(&in, &cpu, &e) != SB_SUCCESS) {
        fprintf(stderr, "FAIL %s: CPU tessellator: %s\n", name, e.message);
        failures++;
        return;
    }
    uint32_t invocations = words_buffer[0], components = cpu.components, distinct = 0, unmatched = 0;
    if (invocations > RECORDS) {
        fprintf(stderr, "FAIL %s: %u invocations, room for %u\n", name, invocations, RECORDS);
        failures++;
        invocations = RECORDS;
    }
    for (uint32_t k = 0; k < invocations; k++) {
        float point[3];
        memcpy(point, &words_buffer[4 + 4 * k], sizeof(point));
        bool repeat = false;
        for (uint32_t j = 0; j < k && !repeat; j++)
            repeat = same_point((const float *)&words_buffer[4 + 4 * j], point, components);
        if (repeat)
            continue;
        distinct++;
        bool found = false;
        for (uint32_t j = 0; j < cpu.point_count && !found; j++)
            found = same_point(&cpu.points[j * components], point, components);
        if (!found) {
            if (unmatched++ < 3)
                fprintf(stderr, "%s: device point (%.9g, %.9g) not the CPU tessellator's\n", name, point[0],
                        point[1]);
        }
    }
    checked_points += distinct;
    if (distinct != cpu.point_count || unmatched) {
        fprintf(stderr, "FAIL %s: device %u distinct points (%u invocations), CPU %u, %u unmatched\n", name,
                distinct, invocations, cpu.point_count, unmatched);
        failures++;
    }
    sb_interp_tess_release(&cpu);
}

static void check_point_sets(struct sb_rt_context *c, const struct sb_translation *vs)
{
    /* Factors in sb_interp_tess_input order: edges, then insides (isoline: density, detail). */
    static const struct {
        const char *name;
        uint32_t domain, partitioning;
        float factors[6];
    } cases[] = {
        { "quad fractional_odd", 3, 3, { 1.5f, 2.3f, 3.75f, 5.5f, 2.3f, 1.0f } },
        { "quad fractional_odd frame", 3, 3, { 3.0f, 3.0f, 3.0f, 3.0f, 1.0f, 1.0f } },
        { "quad fractional_even", 3, 4, { 2.3f, 3.75f, 5.5f, 1.5f, 3.75f, 5.5f } },
        { "quad integer", 3, 1, { 2.3f, 1.0f, 4.0f, 2.0f, 1.0f, 5.0f } },
        { "tri fractional_odd frame", 2, 3, { 2.5f, 1.5f, 2.3f, 1.0f } },
        { "tri fractional_odd", 2, 3, { 3.75f, 5.5f, 1.5f, 3.75f } },
        { "tri fractional_even", 2, 4, { 3.75f, 2.3f, 5.5f, 5.5f } },
        { "tri pow2", 2, 2, { 4.0f, 2.0f, 1.0f, 8.0f } },
        { "isoline fractional_odd", 1, 3, { 2.3f, 5.5f } },
        { "isoline fractional_even", 1, 4, { 2.0f, 2.3f } },
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
        check_point_set(c, vs, cases[i].name, cases[i].domain, cases[i].partitioning, cases[i].factors);
    printf("point sets: %zu patches, %u device points\n", sizeof(cases) / sizeof(cases[0]), checked_points);
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
    if (vs)
        check_point_sets(c, vs);
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
