/* SPDX-License-Identifier: MIT */
/*
 * Lowered PICA200 vertex programs on Vulkan (lavapipe) against the CPU
 * interpreter, bit for bit: structured programs (IF/ELSE, nested LOOP with
 * c[aL], subroutines with END inside) and dispatch-loop programs (a CALL
 * ending its caller's range, loops sharing their last instruction, a jump
 * into an IF, a backward jump), each in fast and float24-exact mode. The
 * vertex outputs are captured by the runtime's capture geometry stage
 * (runtime/src/validate/validate_private.h) into a structured UAV. Exits 77 without
 * a Vulkan device.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pica_lower_util.h"
#include "shaderbridge/interp.h"
#include "shaderbridge/runtime.h"
#include "shaderbridge/translate.h"
#include "validate/validate_private.h"

#define N(a) ((uint32_t)(sizeof(a) / sizeof((a)[0])))
#define VERTICES 16u
#define CAPTURE_UAV 63u

struct case_ {
    const char *name;
    const uint32_t *code;
    uint32_t count;
    bool dispatch; /* the lowering it must take */
};

static void fill_uniforms(struct uniforms *u, uint32_t bools)
{
    memset(u, 0, sizeof(*u));
    for (int k = 0; k < 96; k++)
        for (int l = 0; l < 4; l++)
            u->c[k][l] = 0.5f * (float)k + (float)l;
    const uint32_t ints[4][3] = { { 3, 1, 2 }, { 2, 0, 1 }, { 4, 2, 3 }, { 1, 5, 1 } };
    for (int i = 0; i < 4; i++)
        for (int l = 0; l < 3; l++)
            u->i[i][l] = ints[i][l];
    u->b = bools;
}

/* One draw of VERTICES points; false when the device is missing (*skip) or on failure. */
static bool gpu_run(struct sb_rt_context *ctx, const struct sb_ir_program *ir, const struct uniforms *u,
                    const float (*in)[4][4], uint32_t *gpu_words, uint32_t *registers)
{
    struct sb_error e;
    struct sb_translate_options topts = { .target_env = SB_TARGET_VULKAN_1_1, .flags = SB_TRANSLATE_VALIDATE };
    struct sb_translation *vs = NULL, *gs = NULL;
    struct sb_ir_program *capture = sb_rt_capture_geometry_program(ir, CAPTURE_UAV, registers);
    bool ok = capture && sb_translate_ir(ir, &topts, &vs, &e) == SB_SUCCESS &&
              sb_translate_ir(capture, &topts, &gs, &e) == SB_SUCCESS;
    sb_rt_partner_destroy(capture);
    if (!ok) {
        fprintf(stderr, "translation: %s\n", e.message);
        sb_translation_destroy(vs);
        sb_translation_destroy(gs);
        return false;
    }
    static float streams_data[4][VERTICES][4];
    struct sb_rt_vertex_stream streams[4];
    uint32_t stream_count = 0;
    for (uint32_t i = 0; i < vs->input_count; i++) {
        uint32_t loc = vs->inputs[i].location;
        if (loc >= 4)
            continue;
        for (uint32_t v = 0; v < VERTICES; v++)
            memcpy(streams_data[loc][v], in[v][loc], 16);
        streams[stream_count++] = (struct sb_rt_vertex_stream){ loc, SB_RT_FORMAT_R32G32B32A32_FLOAT,
                                                                streams_data[loc] };
    }
    uint32_t buffer[SB_IR_PICA_UNIFORM_VECTORS * 4];
    memset(buffer, 0, sizeof(buffer));
    memcpy(buffer, u->c, sizeof(u->c));
    memcpy(&buffer[SB_IR_PICA_UNIFORM_INT_VECTOR * 4], u->i, sizeof(u->i));
    buffer[SB_IR_PICA_UNIFORM_BOOL_VECTOR * 4] = u->b;
    size_t capture_size = (size_t)VERTICES * *registers * 16;
    struct sb_rt_resource res[2];
    memset(res, 0, sizeof(res));
    res[0].resource_class = SB_IR_RESOURCE_CBV;
    res[0].register_index = SB_IR_PICA_UNIFORM_REGISTER;
    res[0].data = buffer;
    res[0].size = sizeof(buffer);
    res[1].resource_class = SB_IR_RESOURCE_UAV;
    res[1].register_index = CAPTURE_UAV;
    res[1].data = gpu_words;
    res[1].size = capture_size;
    struct sb_rt_draw draw;
    memset(&draw, 0, sizeof(draw));
    draw.vertex = vs;
    draw.geometry = gs;
    draw.vertex_count = VERTICES;
    draw.stream_count = stream_count;
    draw.streams = streams;
    draw.width = draw.height = 1;
    enum sb_result r = sb_rt_draw_points(ctx, &draw, res, 2, NULL, &e);
    if (r != SB_SUCCESS)
        fprintf(stderr, "draw: %s\n", e.message);
    sb_translation_destroy(vs);
    sb_translation_destroy(gs);
    return r == SB_SUCCESS;
}

static void check_case(struct sb_rt_context *ctx, const struct case_ *c, uint32_t flags, uint32_t bools)
{
    struct prog p = { c->code, c->count, 0, false, 3, UINT32_MAX, { 0, 0, 0, 0 }, flags };
    enum sb_result r;
    struct sb_error e;
    struct sb_ir_program *ir = lower_prog(&p, &r, &e);
    CHECK(ir != NULL, "%s: lowering: %s", c->name, e.message);
    if (!ir)
        return;
    CHECK(is_dispatch(ir) == c->dispatch, "%s: dispatch %d", c->name, is_dispatch(ir));
    struct uniforms u;
    fill_uniforms(&u, bools);
    float in[VERTICES][4][4];
    for (uint32_t v = 0; v < VERTICES; v++)
        for (uint32_t reg = 0; reg < 4; reg++)
            for (uint32_t l = 0; l < 4; l++)
                in[v][reg][l] = (float)((v * 7 + reg * 3 + l) % 9) * 0.75f - 2.0f;
    uint32_t registers = 0;
    uint32_t *gpu = calloc((size_t)VERTICES * 16 * 4, 4);
    float (*cpu)[4][4] = calloc(VERTICES, sizeof(*cpu));
    bool ok = gpu && cpu && gpu_run(ctx, ir, &u, (const float (*)[4][4])in, gpu, &registers) &&
              run(ir, &u, VERTICES, (const float (*)[4][4])in, cpu);
    CHECK(ok, "%s: runs failed", c->name);
    for (uint32_t v = 0; ok && v < VERTICES; v++)
        for (uint32_t reg = 0; reg < registers && reg < 3; reg++)
            for (uint32_t l = 0; l < 4; l++) {
                uint32_t want;
                memcpy(&want, &cpu[v][reg][l], 4);
                uint32_t got = gpu[(v * registers + reg) * 4 + l];
                CHECK(got == want, "%s (flags %u, b %u) vertex %u o%u[%u]: GPU 0x%08x CPU 0x%08x", c->name,
                      flags, bools, v, reg, l, got, want);
            }
    free(gpu);
    free(cpu);
    sb_ir_program_destroy(ir);
}

int main(void)
{
    struct sb_rt_context_options options;
    memset(&options, 0, sizeof(options));
    struct sb_rt_context *ctx = NULL;
    struct sb_error e;
    if (sb_rt_context_create(&options, &ctx, &e) != SB_SUCCESS || !sb_rt_context_has_device(ctx)) {
        printf("SKIPPED: no Vulkan device (%s)\n", e.message);
        sb_rt_context_destroy(ctx);
        return 77;
    }
    const uint32_t ifelse[] = {
        w_alu(SB_PICA_OP_MOV, R(0), V(3), NONE, D_XYZW),
        w_f3(SB_PICA_OP_IFU, 5, 3, 0),
        w_f3(SB_PICA_OP_IFU, 4, 0, 1),
        w_alu(SB_PICA_OP_ADD, R(0), R(0), V(0), D_XYZW),
        w_alu(SB_PICA_OP_MUL, R(0), R(0), V(1), D_XYZW),
        w_alu(SB_PICA_OP_ADD, R(0), R(0), V(2), D_XYZW),
        w_op0(SB_PICA_OP_NOP),
        w_op0(SB_PICA_OP_NOP),
        w_alu(SB_PICA_OP_MOV, O(0), R(0), NONE, D_XYZW),
        w_alu(SB_PICA_OP_MOV, O(1), R(0), NONE, D_NEG1),
        w_op0(SB_PICA_OP_END),
    };
    const uint32_t loops[] = {
        w_alu(SB_PICA_OP_MOV, R(0), V(0), NONE, D_XYZW),
        w_f3(SB_PICA_OP_LOOP, 5, 0, 0),
        w_f3(SB_PICA_OP_LOOP, 4, 0, 1),
        w_rel(SB_PICA_OP_MOV, R(1), C(2), SB_PICA_RELATIVE_AL, D_XYZW),
        w_alu(SB_PICA_OP_ADD, R(0), R(0), R(1), D_XYZW),
        w_op0(SB_PICA_OP_NOP),
        w_alu(SB_PICA_OP_MOV, O(0), R(0), NONE, D_XYZW),
        w_rel(SB_PICA_OP_MOV, O(1), C(0), SB_PICA_RELATIVE_AL, D_XYZW),
        w_op0(SB_PICA_OP_END),
    };
    const uint32_t shared_end[] = {
        w_alu(SB_PICA_OP_MOV, R(0), V(0), NONE, D_XYZW),
        w_f3(SB_PICA_OP_LOOP, 3, 0, 0),
        w_f3(SB_PICA_OP_LOOP, 3, 0, 1),
        w_alu(SB_PICA_OP_ADD, R(0), R(0), V(1), D_XYZW),
        w_alu(SB_PICA_OP_MOV, O(0), R(0), NONE, D_XYZW),
        w_rel(SB_PICA_OP_MOV, O(1), C(0), SB_PICA_RELATIVE_AL, D_XYZW),
        w_op0(SB_PICA_OP_END),
    };
    const uint32_t calls[] = {
        w_alu(SB_PICA_OP_MOV, R(0), V(3), NONE, D_XYZW),
        w_f2(SB_PICA_OP_CALL, 6, 3, SB_PICA_CONDITION_OR, false, false),
        w_f3(SB_PICA_OP_CALLU, 10, 2, 0),
        w_f3(SB_PICA_OP_CALLU, 12, 2, 1),
        w_alu(SB_PICA_OP_MOV, O(0), R(0), NONE, D_XYZW),
        w_op0(SB_PICA_OP_END),
        w_alu(SB_PICA_OP_ADD, R(0), R(0), V(0), D_XYZW),
        w_f2(SB_PICA_OP_CALL, 10, 2, SB_PICA_CONDITION_OR, false, false),
        w_op0(SB_PICA_OP_NOP),
        w_op0(SB_PICA_OP_NOP),
        w_alu(SB_PICA_OP_MUL, R(0), R(0), V(1), D_XYZW),
        w_op0(SB_PICA_OP_NOP),
        w_alu(SB_PICA_OP_MOV, O(0), V(2), NONE, D_XYZW),
        w_op0(SB_PICA_OP_END),
    };
    const uint32_t call_vector[] = {
        w_f2(SB_PICA_OP_CALL, 2, 1, SB_PICA_CONDITION_OR, false, false),
        w_op0(SB_PICA_OP_END),
        w_f2(SB_PICA_OP_CALL, 4, 1, SB_PICA_CONDITION_OR, false, false),
        w_op0(SB_PICA_OP_END),
        w_alu(SB_PICA_OP_EX2, O(0), V(0), NONE, D_XYZW),
        w_op0(SB_PICA_OP_END),
    };
    const uint32_t into_if[] = {
        w_f3(SB_PICA_OP_JMPU, 3, 0, 0),
        w_f3(SB_PICA_OP_IFU, 4, 1, 1),
        w_alu(SB_PICA_OP_MOV, O(1), V(2), NONE, D_XYZW),
        w_alu(SB_PICA_OP_MOV, O(0), V(0), NONE, D_XYZW),
        w_alu(SB_PICA_OP_MOV, O(0), V(1), NONE, D_XYZW),
        w_op0(SB_PICA_OP_END),
    };
    const uint32_t backward[] = {
        w_alu(SB_PICA_OP_MOV, R(0), V(3), NONE, D_XYZW),
        w_alu(SB_PICA_OP_ADD, R(0), C(3), R(0), D_NEG1), /* r0 -= c3 (positive): terminates */
        w_cmp(R(0), SB_PICA_COMPARE_GT, SB_PICA_COMPARE_GT, V(1)),
        w_f2(SB_PICA_OP_JMPC, 1, 0, SB_PICA_CONDITION_AND, true, true),
        w_alu(SB_PICA_OP_MOV, O(0), R(0), NONE, D_XYZW),
        w_op0(SB_PICA_OP_END),
    };
    const struct case_ cases[] = {
        { "if/else", ifelse, N(ifelse), false },       { "nested loops", loops, N(loops), false },
        { "shared loop end", shared_end, N(shared_end), true },
        { "calls", calls, N(calls), false },           { "call vector", call_vector, N(call_vector), true },
        { "jump into if", into_if, N(into_if), true }, { "backward jump", backward, N(backward), true },
    };
    for (uint32_t c = 0; c < N(cases); c++)
        for (uint32_t mode = 0; mode < 2; mode++)
            for (uint32_t bools = 0; bools < 4; bools++)
                check_case(ctx, &cases[c], mode ? SB_IR_PICA_FLOAT24 : 0u, bools);
    printf("pica_lower_gpu: %u programs x 2 modes x 4 bool sets on %s\n", N(cases),
           sb_rt_context_device_name(ctx));
    sb_rt_context_destroy(ctx);
    if (g_failures) {
        fprintf(stderr, "%d check(s) failed\n", g_failures);
        return 1;
    }
    return 0;
}
