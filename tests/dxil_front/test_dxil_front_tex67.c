/* SPDX-License-Identifier: MIT */
/*
 * The SM 6.7 texture operations of the DXIL front end that need IR ops of
 * their own (IR.md §Resources: SAMPLE_C_L), on the programs of
 * tests/common/dxil_programs_tex67.h: the translation is spirv-val clean and
 * holds the op, then the program runs through sb_validate with hand-made
 * resources on the CPU interpreter and, when a Vulkan device is there
 * (lavapipe), on the GPU; both sides must hold the hand-computed words and the
 * verdict must be agree.
 *
 * counter_array: bufferUpdateCounter on elements of a UAV range (constant and
 * dynamic indices), on the interpreter with given counters and then through
 * sb_validate.
 *
 * derivatives: SM 6.6 compute derivatives and calculateLOD in 2x2 and linear
 * quads on the interpreter (lavapipe lacks VK_NV_compute_shader_derivatives:
 * the device side must be not-run), and a group without quads refused.
 *
 * store_sample: SM 6.7 textureStoreSample and textureLoad of a RWTexture2DMS on
 * the interpreter (the runtime reads no multisampled UAV back: not-run).
 *
 * Usage: test_dxil_front_tex67 sample_cmp_level|sample_cmp_grad|sample_cmp_bias|counter_array|
 *        derivatives|store_sample
 */
#define _POSIX_C_SOURCE 200809L

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "dxil_front_harness.h"
#include "dxil_programs_tex67.h"
#include "shaderbridge/interp.h"
#include "shaderbridge/validate.h"

static uint32_t f2u(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

/* Point sampling on every level, clamped; a comparison sampler passes where ref < texel
 * (VK_COMPARE_OP_LESS). */
static struct sb_rt_sampler point_sampler(bool compare)
{
    return (struct sb_rt_sampler){
        .mag_filter = SB_RT_FILTER_NEAREST, .min_filter = SB_RT_FILTER_NEAREST,
        .mip_filter = SB_RT_FILTER_NEAREST,
        .address = { SB_RT_ADDRESS_CLAMP_TO_EDGE, SB_RT_ADDRESS_CLAMP_TO_EDGE,
                     SB_RT_ADDRESS_CLAMP_TO_EDGE },
        .mip_lod_bias = 0.0f, .min_lod = 0.0f, .max_lod = 16.0f, .compare = compare,
        .compare_op = compare ? 1u : 0u, .border_color = { 0.0f, 0.0f, 0.0f, 0.0f },
        .max_anisotropy = 0.0f,
    };
}

static uint32_t count_op(const struct sb_ir_program *ir, uint32_t op)
{
    uint32_t n = 0;
    for (uint32_t f = 0; f < ir->function_count; f++)
        for (uint32_t i = 0; i < ir->functions[f].instruction_count; i++)
            n += ir->functions[f].instructions[i].op == op;
    return n;
}

/* The words of u`reg` on one side of a report, checked against `expected`. */
static void check_uav(const char *name, const char *side_name, const struct sb_rt_inputs *side,
                      uint32_t reg, const uint32_t *expected, uint32_t count)
{
    const uint32_t *got = NULL;
    for (uint32_t i = 0; side && i < side->count && !got; i++) {
        const struct sb_rt_resource *r = &side->resources[i];
        if (r->resource_class == SB_IR_RESOURCE_UAV && r->register_index == reg &&
            r->size >= count * 4u)
            got = r->data;
    }
    CHECK(got != NULL, "%s (%s): no u%u", name, side_name, reg);
    for (uint32_t i = 0; got && i < count; i++)
        CHECK(got[i] == expected[i], "%s (%s): u%u word %u = 0x%08x, expected 0x%08x", name,
              side_name, reg, i, got[i], expected[i]);
}

/* The written program through sb_validate with `provided` (lavapipe when there, else the
 * interpreter alone: *gpu says which); the report, or NULL with the failure in *res and e.
 * A validation-layer error fails the test. */
static struct sb_validate_report *validate(const char *name, bool (*write)(struct tbuf *),
                                           const struct sb_rt_resource *provided,
                                           uint32_t provided_count, bool *gpu,
                                           enum sb_result *res, struct sb_error *e)
{
    struct sb_rt_context *context = NULL;
    struct sb_rt_context_options options = { .validation = true, .allow_cpu_only = true };
    *res = sb_rt_context_create(&options, &context, e);
    if (*res != SB_SUCCESS)
        return NULL;
    /* Keep lavapipe loaded after the context goes (LeakSanitizer; tests/CMakeLists.txt). */
    (void)dlopen("libvulkan_lvp.so", RTLD_NOW | RTLD_NOLOAD);
    *gpu = sb_rt_context_has_device(context);
    struct tbuf b = { 0 };
    struct sb_rt_program *program = NULL;
    struct sb_validate_report *report = NULL;
    *res = write(&b) ? sb_rt_program_load(b.data, b.size, NULL, &program, e) : SB_ERROR_BAD_VALUE;
    if (*res == SB_SUCCESS) {
        struct sb_validate_options o = { .inputs = { .seed = 1 },
                                         .sides = *gpu ? 0 : SB_VALIDATE_SIDE_CPU,
                                         .provided_count = provided_count, .provided = provided };
        *res = sb_validate(context, program, &o, &report, e);
    }
    uint32_t layer_errors = sb_rt_context_validation_errors(context);
    CHECK(layer_errors == 0, "%s: %u validation-layer errors; first: %s", name, layer_errors,
          sb_rt_context_first_validation_error(context));
    sb_rt_program_destroy(program);
    tb_free(&b);
    sb_rt_context_destroy(context);
    return report;
}

/* Lowers the program (spirv-val checked, `op` present `op_count` times), then runs it through
 * sb_validate with `provided`: the interpreter always, lavapipe when there; u`reg` must hold
 * `expected` on each side and the sides must agree. */
static void run_program(const char *name, bool (*write)(struct tbuf *), uint32_t op,
                        uint32_t op_count, const struct sb_rt_resource *provided,
                        uint32_t provided_count, uint32_t reg, const uint32_t *expected,
                        uint32_t count)
{
    struct sb_error e = { 0 };
    struct sb_ir_program *ir = dxil_front_lower(write, &e);
    CHECK(ir != NULL, "%s: does not lower: %s", name, e.message);
    if (ir)
        CHECK(count_op(ir, op) == op_count, "%s: %u %s, expected %u", name, count_op(ir, op),
              sb_ir_op_info(op)->name, op_count);
    sb_ir_program_destroy(ir);
    bool gpu = false;
    enum sb_result res = SB_SUCCESS;
    struct sb_validate_report *r = validate(name, write, provided, provided_count, &gpu, &res, &e);
    CHECK(res == SB_SUCCESS, "%s: sb_validate: %s", name, e.message);
    if (res == SB_SUCCESS) {
        check_uav(name, "interpreter", r->cpu, reg, expected, count);
        if (gpu) {
            check_uav(name, "device", r->gpu, reg, expected, count);
            CHECK(r->verdict == SB_VALIDATE_AGREE, "%s: verdict %s (%s)", name,
                  sb_validate_verdict_name(r->verdict), r->reason);
        }
        printf("%s: %s\n", name, gpu ? sb_validate_verdict_name(r->verdict)
                                     : "interpreter only (no device)");
    }
    sb_validate_report_destroy(r);
}

/* t0: 4x2 D32 with two levels, level 0 texel (x, y) = x / 4, level 1 (2x1) = (0.2, 0.7),
 * the texture of the comparison cases; u0 four words of 0xAA; s0 point_sampler(true). */
struct depth_case {
    float depth[10];
    uint32_t u0[4];
    struct sb_rt_resource resources[3];
};

static void depth_case_init(struct depth_case *c)
{
    for (uint32_t i = 0; i < 8; i++)
        c->depth[i] = (float)(i % 4) / 4.0f;
    c->depth[8] = 0.2f;
    c->depth[9] = 0.7f;
    memset(c->u0, 0xAA, sizeof(c->u0));
    const struct sb_rt_resource resources[3] = {
        { .resource_class = SB_IR_RESOURCE_SRV, .register_index = 0, .data = c->depth,
          .size = sizeof(c->depth), .format = SB_RT_FORMAT_D32_FLOAT, .dimension = 3, .width = 4,
          .height = 2, .depth = 1, .layers = 1, .mip_levels = 2, .sample_count = 1 },
        { .resource_class = SB_IR_RESOURCE_UAV, .register_index = 0, .data = c->u0,
          .size = sizeof(c->u0), .layers = 1, .mip_levels = 1, .sample_count = 1 },
        { .resource_class = SB_IR_RESOURCE_SAMPLER, .register_index = 0,
          .sampler = point_sampler(true) },
    };
    memcpy(c->resources, resources, sizeof(resources));
}

/* At (0.625, 0.25):
 *   thread 0, LOD 0: level-0 texel (floor(2.5), floor(0.5)) = (2, 0) = 0.5:
 *     0.3 < 0.5 -> 1, 0.6 < 0.5 -> 0;
 *   thread 1, LOD 1: level-1 texel floor(1.25) = 1 = 0.7: 0.3 < 0.7 -> 1, 0.6 < 0.7 -> 1.
 * SampleCmpLevel takes the LOD as it is; SM 6.8's SampleCmpGrad from ddx = (0.25, 0) (0.25 x
 * 4 texels = 1: LOD 0) and (0.5, 0) (LOD 1): the same four words. */
static void test_sample_cmp_pair(const char *name, bool (*write)(struct tbuf *), uint32_t op)
{
    struct depth_case c;
    depth_case_init(&c);
    const uint32_t expected[4] = { f2u(1.0f), f2u(0.0f), f2u(1.0f), f2u(1.0f) };
    run_program(name, write, op, 2, c.resources, 3, 0, expected, 4);
}

static void test_sample_cmp_level(void)
{
    test_sample_cmp_pair("sample_cmp_level", dxil_program_tex67_sample_cmp_level, SB_IR_OP_SAMPLE_C_L);
}

static void test_sample_cmp_grad(void)
{
    test_sample_cmp_pair("sample_cmp_grad", dxil_program_tex68_sample_cmp_grad, SB_IR_OP_SAMPLE_C_D);
}

/* SM 6.8's SampleCmpBias in one 2x2 compute quad on the same texture, reference 0.1: the
 * quad's LOD is 0 (u steps 0.25 = one texel), the bias id.y. (0, 0): level 0 texel 0 = 0,
 * 0.1 < 0 fails; (1, 0): level 0 texel 1 = 0.25 passes; the bottom row at LOD 1: level 1
 * texel 0 = 0.2 passes (0 if the bias were lost). The interpreter only: on the device the
 * run is refused, as every compute program with quad derivatives (no
 * VK_NV_compute_shader_derivatives). */
static void test_sample_cmp_bias(void)
{
    struct sb_error e = { 0 };
    struct sb_ir_program *ir = dxil_front_lower(dxil_program_tex68_sample_cmp_bias, &e);
    CHECK(ir != NULL, "sample_cmp_bias: does not lower: %s", e.message);
    if (!ir)
        return;
    CHECK(count_op(ir, SB_IR_OP_SAMPLE_C_B) == 1, "sample_cmp_bias: %u sample_c_b",
          count_op(ir, SB_IR_OP_SAMPLE_C_B));
    struct depth_case c;
    depth_case_init(&c);
    const uint32_t groups[3] = { 1, 1, 1 };
    enum sb_result r = sb_interp_dispatch(ir, c.resources, 3, groups, NULL, NULL, &e);
    CHECK(r == SB_SUCCESS, "sample_cmp_bias: dispatch: %s", e.message);
    const uint32_t expected[4] = { f2u(0.0f), f2u(1.0f), f2u(1.0f), f2u(1.0f) };
    for (uint32_t i = 0; r == SB_SUCCESS && i < 4; i++)
        CHECK(c.u0[i] == expected[i], "sample_cmp_bias: word %u = 0x%08x, expected 0x%08x", i,
              c.u0[i], expected[i]);
    sb_ir_program_destroy(ir);
    printf("sample_cmp_bias: interpreter checked\n");
}

/* The interpreter with u0 counter 5 and u1 counter 10: a = 5 (the value before; u0 -> 6),
 * b = 10 (u1 -> 11), c = 11 (u1 -> 12), d = u[0].DecrementCounter() = 5 (the value after);
 * u0 = (5, 10, 11, 5), counters end at 5 and 12. sb_validate seeds counters itself, so on
 * lavapipe only the agreement with the interpreter is checked. */
static void test_counter_array(void)
{
    struct sb_error e = { 0 };
    struct sb_ir_program *ir = dxil_front_lower(dxil_program_tex67_counter_array, &e);
    CHECK(ir != NULL, "counter_array: does not lower: %s", e.message);
    if (ir) {
        uint32_t indexed = 0;
        const struct sb_ir_function *fn = &ir->functions[0];
        for (uint32_t i = 0; i < fn->instruction_count; i++) {
            const struct sb_ir_instruction *in = &fn->instructions[i];
            if ((in->op == SB_IR_OP_IMM_ATOMIC_ALLOC || in->op == SB_IR_OP_IMM_ATOMIC_CONSUME) &&
                in->dst_count == 2 && in->dst[1].index_count == 2)
                indexed++;
        }
        CHECK(indexed == 4, "counter_array: %u counter ops on a range element, expected 4",
              indexed);
        uint32_t u0[4] = { 0xAAAAAAAAu, 0xAAAAAAAAu, 0xAAAAAAAAu, 0xAAAAAAAAu };
        uint32_t u1[4] = { 0 };
        struct sb_rt_resource uavs[2] = {
            { .resource_class = SB_IR_RESOURCE_UAV, .register_index = 0, .data = u0,
              .size = sizeof(u0), .layers = 1, .mip_levels = 1, .sample_count = 1, .counter = 5 },
            { .resource_class = SB_IR_RESOURCE_UAV, .register_index = 1, .data = u1,
              .size = sizeof(u1), .layers = 1, .mip_levels = 1, .sample_count = 1, .counter = 10 },
        };
        const uint32_t groups[3] = { 1, 1, 1 };
        enum sb_result r = sb_interp_dispatch(ir, uavs, 2, groups, NULL, NULL, &e);
        CHECK(r == SB_SUCCESS, "counter_array: dispatch: %s", e.message);
        CHECK(u0[0] == 5 && u0[1] == 10 && u0[2] == 11 && u0[3] == 5,
              "counter_array: u0 = (%u, %u, %u, %u), expected (5, 10, 11, 5)", u0[0], u0[1],
              u0[2], u0[3]);
        CHECK(uavs[0].counter == 5 && uavs[1].counter == 12,
              "counter_array: counters %u, %u, expected 5, 12", uavs[0].counter, uavs[1].counter);
    }
    sb_ir_program_destroy(ir);
    run_program("counter_array", dxil_program_tex67_counter_array, SB_IR_OP_IMM_ATOMIC_ALLOC, 3,
                NULL, 0, 0, NULL, 0);
}

static bool write_derivatives_4x2(struct tbuf *out)
{
    return dxil_program_tex67_derivatives(out, 4, 2);
}

static bool write_derivatives_8x1(struct tbuf *out)
{
    return dxil_program_tex67_derivatives(out, 8, 1);
}

static bool write_derivatives_3x1(struct tbuf *out)
{
    return dxil_program_tex67_derivatives(out, 3, 1);
}

/* One shape of the derivatives program: the IR records `grouping`, the interpreter gives
 * `expected` (3 words per thread), and on a device the run is refused (not-run), never a
 * disagreement: the runtime enables no VK_NV_compute_shader_derivatives. */
static void check_derivatives(const char *name, bool (*write)(struct tbuf *), uint32_t grouping,
                              const float *expected, uint32_t threads)
{
    struct sb_error e = { 0 };
    struct sb_ir_program *ir = dxil_front_lower(write, &e);
    CHECK(ir != NULL, "%s: does not lower: %s", name, e.message);
    if (!ir)
        return;
    CHECK(ir->compute_derivatives == grouping, "%s: compute_derivatives %u, expected %u", name,
          ir->compute_derivatives, grouping);
    float texels[256] = { 0 };
    uint32_t u0[24];
    memset(u0, 0xAA, sizeof(u0));
    struct sb_rt_resource res[3] = {
        { .resource_class = SB_IR_RESOURCE_SRV, .register_index = 0, .data = texels,
          .size = sizeof(texels), .format = SB_RT_FORMAT_R32_FLOAT, .dimension = 3, .width = 16,
          .height = 16, .depth = 1, .layers = 1, .mip_levels = 1, .sample_count = 1 },
        { .resource_class = SB_IR_RESOURCE_UAV, .register_index = 0, .data = u0,
          .size = sizeof(u0), .layers = 1, .mip_levels = 1, .sample_count = 1 },
        { .resource_class = SB_IR_RESOURCE_SAMPLER, .register_index = 0 },
    };
    res[2].sampler = point_sampler(false);
    const uint32_t groups[3] = { 1, 1, 1 };
    enum sb_result r = sb_interp_dispatch(ir, res, 3, groups, NULL, NULL, &e);
    CHECK(r == SB_SUCCESS, "%s: dispatch: %s", name, e.message);
    for (uint32_t i = 0; r == SB_SUCCESS && i < threads * 3; i++)
        CHECK(u0[i] == f2u(expected[i]), "%s: word %u = 0x%08x, expected %g", name, i, u0[i],
              (double)expected[i]);
    sb_ir_program_destroy(ir);

    bool gpu = false;
    struct sb_validate_report *report = validate(name, write, res, 3, &gpu, &r, &e);
    if (gpu) {
        const char *why = r == SB_SUCCESS ? report->reason : e.message;
        bool refused = r == SB_SUCCESS ? report->verdict == SB_VALIDATE_NOT_RUN
                                       : r == SB_ERROR_RUN_UNSUPPORTED;
        CHECK(refused && why && strstr(why, "ComputeDerivativeGroup"), "%s: on the device: %s, %s",
              name, sb_result_name(r), why ? why : "");
        printf("%s: device not-run (%s)\n", name, why ? why : "");
    }
    sb_validate_report_destroy(report);
}

/* v = x*x + 10*y*y + 100*x*y, uv = (0.25 x, 0.125 y) on a 16x16 texture.
 * 4x2 (2x2 quads): v rows (0, 1, 4, 9) / (10, 111, 214, 319); fine x per quad row: 1, 101 |
 *   5, 105; coarse y (left column): 10 | 210; LOD: |du/dx| 16 x 0.25 = 4, |dv/dy| 16 x 0.125 = 2,
 *   rho 4: 2.
 * 8x1 (linear quads of 4): v = 0 1 4 9 | 16 25 36 49; fine x (positions 1-0, 3-2): 1, 5 |
 *   9, 13; coarse y (position 2 - 0): 4 | 20; LOD: dx 16 x 0.25 = 4, dy (u of position 2)
 *   16 x 0.5 = 8: 3.
 * 3x1: no quads, refused (SB_ERROR_TRANSLATE_INVALID). */
static void test_derivatives(void)
{
    static const float quads[24] = { 1, 10, 2, 1, 10, 2, 5, 210, 2, 5, 210, 2,
                                     101, 10, 2, 101, 10, 2, 105, 210, 2, 105, 210, 2 };
    static const float linear[24] = { 1, 4, 3, 1, 4, 3, 5, 4, 3, 5, 4, 3,
                                      9, 20, 3, 9, 20, 3, 13, 20, 3, 13, 20, 3 };
    check_derivatives("derivatives 4x2", write_derivatives_4x2, SB_IR_COMPUTE_DERIVATIVES_QUADS,
                      quads, 8);
    check_derivatives("derivatives 8x1", write_derivatives_8x1, SB_IR_COMPUTE_DERIVATIVES_LINEAR,
                      linear, 8);
    struct sb_error e = { 0 };
    struct sb_ir_program *ir = dxil_front_lower(write_derivatives_3x1, &e);
    CHECK(ir == NULL && e.code == SB_ERROR_TRANSLATE_INVALID && e.offset > 0 &&
              strstr(e.message, "form no quads"),
          "derivatives 3x1: %s at %llu '%s'", sb_result_name(e.code),
          (unsigned long long)e.offset, e.message);
    sb_ir_program_destroy(ir);
}

/* u0: 2x2 texels of 4 float4 samples, zeroed; thread (x, y) writes sample s = x + 2y of
 * texel (x, y) = (x, y, 100 + s, 1) and reads its z back into u1[s]. resources.h lays a
 * multisampled texel's samples in a row: float index ((y * 2 + x) * 4 + s) * 4, which is
 * 20 s for this s. The other samples stay 0; u1 = (100, 101, 102, 103). lavapipe: not-run
 * (the runtime reads no multisampled UAV back). */
static void test_store_sample(void)
{
    struct sb_error e = { 0 };
    struct sb_ir_program *ir = dxil_front_lower(dxil_program_tex67_store_sample, &e);
    CHECK(ir != NULL, "store_sample: does not lower: %s", e.message);
    if (!ir)
        return;
    CHECK(count_op(ir, SB_IR_OP_STORE_UAV_TYPED_MS) == 1 && count_op(ir, SB_IR_OP_LD_UAV_TYPED_MS) == 1,
          "store_sample: %u store_uav_typed_ms, %u ld_uav_typed_ms, expected 1 and 1",
          count_op(ir, SB_IR_OP_STORE_UAV_TYPED_MS), count_op(ir, SB_IR_OP_LD_UAV_TYPED_MS));
    float u0[64] = { 0 }, expected0[64] = { 0 };
    uint32_t u1[4] = { 0 };
    for (uint32_t t = 0; t < 4; t++) {
        float *v = &expected0[20 * t];
        v[0] = (float)(t % 2);
        v[1] = (float)(t / 2);
        v[2] = 100.0f + (float)t;
        v[3] = 1.0f;
    }
    struct sb_rt_resource res[2] = {
        { .resource_class = SB_IR_RESOURCE_UAV, .register_index = 0, .data = u0,
          .size = sizeof(u0), .format = SB_RT_FORMAT_R32G32B32A32_FLOAT, .dimension = 4,
          .width = 2, .height = 2, .depth = 1, .layers = 1, .mip_levels = 1, .sample_count = 4 },
        { .resource_class = SB_IR_RESOURCE_UAV, .register_index = 1, .data = u1,
          .size = sizeof(u1), .layers = 1, .mip_levels = 1, .sample_count = 1 },
    };
    const uint32_t groups[3] = { 1, 1, 1 };
    enum sb_result r = sb_interp_dispatch(ir, res, 2, groups, NULL, NULL, &e);
    CHECK(r == SB_SUCCESS, "store_sample: dispatch: %s", e.message);
    for (uint32_t i = 0; r == SB_SUCCESS && i < 64; i++)
        CHECK(f2u(u0[i]) == f2u(expected0[i]), "store_sample: u0 float %u = %g, expected %g", i,
              (double)u0[i], (double)expected0[i]);
    for (uint32_t i = 0; r == SB_SUCCESS && i < 4; i++)
        CHECK(u1[i] == f2u(100.0f + (float)i), "store_sample: u1[%u] = 0x%08x, expected %g", i,
              u1[i], (double)(100.0f + (float)i));
    sb_ir_program_destroy(ir);
    bool gpu = false;
    struct sb_validate_report *report =
        validate("store_sample", dxil_program_tex67_store_sample, NULL, 0, &gpu, &r, &e);
    if (gpu) {
        const char *why = r == SB_SUCCESS ? report->reason : e.message;
        bool refused = r == SB_SUCCESS ? report->verdict == SB_VALIDATE_NOT_RUN
                                       : r == SB_ERROR_RUN_UNSUPPORTED;
        CHECK(refused && why && strstr(why, "multisampled UAV"), "store_sample: on the device: %s, %s",
              sb_result_name(r), why ? why : "");
        printf("store_sample: device not-run (%s)\n", why ? why : "");
    }
    sb_validate_report_destroy(report);
}

int main(int argc, char **argv)
{
    const char *which = argc > 1 ? argv[1] : "";
    if (strcmp(which, "sample_cmp_level") == 0)
        test_sample_cmp_level();
    else if (strcmp(which, "sample_cmp_grad") == 0)
        test_sample_cmp_grad();
    else if (strcmp(which, "sample_cmp_bias") == 0)
        test_sample_cmp_bias();
    else if (strcmp(which, "counter_array") == 0)
        test_counter_array();
    else if (strcmp(which, "derivatives") == 0)
        test_derivatives();
    else if (strcmp(which, "store_sample") == 0)
        test_store_sample();
    else
        CHECK(false, "unknown case '%s'", which);
    if (failures)
        fprintf(stderr, "%u check(s) failed\n", failures);
    return failures ? 1 : 0;
}
