/* SPDX-License-Identifier: MIT */
/*
 * The DXIL front end (translator/src/dxil/ir_from_dxil*.c) on the DXIL test
 * writer's programs (tests/common/dxil_programs.h): each translated one goes
 * through sb_translate + SPIRV-Tools validation and runs on the CPU
 * interpreter against hand-computed answers; the programs the first slice
 * does not cover yet refuse with a structured SB_ERROR_TRANSLATE_UNSUPPORTED.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "dxc_container_writer.h"
#include "dxil_front_harness.h"
#include "dxil_programs.h"
#include "dxil_programs_atomic64.h"
#include "dxil_programs_memory.h"
#include "shaderbridge/dxbc.h"
#include "shaderbridge/interp.h"
#include "shaderbridge/translate.h"
#include "translator/ir.h"

/* A buffer bound at register `reg` of class `cls`: one layer, one level, one sample. */
static struct sb_rt_resource buffer(uint32_t cls, uint32_t reg, void *data, size_t size)
{
    return (struct sb_rt_resource){ .resource_class = cls, .register_index = reg, .data = data,
                                    .size = size, .layers = 1, .mip_levels = 1,
                                    .sample_count = 1 };
}

/* u0[i*4] = i*2 + 1 for the 8 threads of one group: 1, 3, 5, ..., 15. */
static void test_cs_store(void)
{
    struct sb_error err;
    struct sb_ir_program *ir = dxil_front_lower(dxil_program_cs_store, &err);
    CHECK(ir != NULL, "%s", err.message);
    if (!ir)
        return;
    CHECK(ir->stage == SB_IR_STAGE_COMPUTE && ir->thread_group[0] == 8 && ir->thread_group[1] == 1,
          "stage %u group %u", ir->stage, ir->thread_group[0]);
    uint32_t words[8] = { 0 };
    struct sb_rt_resource u0 = buffer(SB_IR_RESOURCE_UAV, 0, words, sizeof(words));
    const uint32_t groups[3] = { 1, 1, 1 };
    enum sb_result r = sb_interp_dispatch(ir, &u0, 1, groups, NULL, NULL, &err);
    CHECK(r == SB_SUCCESS, "dispatch: %s", err.message);
    static const uint32_t expected[8] = { 1, 3, 5, 7, 9, 11, 13, 15 };
    for (unsigned i = 0; i < 8; i++)
        CHECK(words[i] == expected[i], "u0[%u] = %u, expected %u", i, words[i], expected[i]);
    sb_ir_program_destroy(ir);
}

/* u0[0] = 0 + 1 + ... + (n-1), n = cb0[0].x: the loop with its phis (n = 5 -> 10,
 * n = 1 -> 0) and the branch around it (n = 0 -> 0; u0 starts at 77 to see the store). */
static void test_cs_loop(void)
{
    struct sb_error err;
    struct sb_ir_program *ir = dxil_front_lower(dxil_program_cs_loop, &err);
    CHECK(ir != NULL, "%s", err.message);
    if (!ir)
        return;
    static const uint32_t n[4] = { 5, 1, 0, 100 };
    static const uint32_t expected[4] = { 10, 0, 0, 4950 };
    for (unsigned c = 0; c < 4; c++) {
        uint32_t cb[4] = { n[c], 0, 0, 0 }, out = 77;
        struct sb_rt_resource table[2] = { buffer(SB_IR_RESOURCE_UAV, 0, &out, 4),
                                           buffer(SB_IR_RESOURCE_CBV, 0, cb, sizeof(cb)) };
        const uint32_t groups[3] = { 1, 1, 1 };
        enum sb_result r = sb_interp_dispatch(ir, table, 2, groups, NULL, NULL, &err);
        CHECK(r == SB_SUCCESS, "dispatch: %s", err.message);
        CHECK(out == expected[c], "n = %u: u0[0] = %u, expected %u", n[c], out, expected[c]);
    }
    sb_ir_program_destroy(ir);
}

static uint32_t f2u(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

/* POSITION (v0) -> SV_Position (o0), TEXCOORD0.xy (v1) -> TEXCOORD0 (o1) for two vertices;
 * o1.zw, which the program does not write, keep the caller's 0xAAAAAAAA. */
static void test_vs_passthrough(void)
{
    struct sb_error err;
    struct sb_ir_program *ir = dxil_front_lower(dxil_program_vs_passthrough, &err);
    CHECK(ir != NULL, "%s", err.message);
    if (!ir)
        return;
    static const float in[2][8] = { { 1, 2, 3, 4, 0.25f, 0.75f, 0, 0 },
                                    { -5, 6.5f, 0, 1, 9, -8, 0, 0 } };
    uint32_t in_words[16], out_words[16];
    for (unsigned i = 0; i < 16; i++) {
        in_words[i] = f2u(in[i / 8][i % 8]);
        out_words[i] = 0xAAAAAAAAu;
    }
    struct sb_interp_registers inputs = { 2, in_words }, outputs = { 2, out_words };
    enum sb_result r = sb_interp_run_vertices(ir, NULL, 0, 2, &inputs, &outputs, NULL, NULL, &err);
    CHECK(r == SB_SUCCESS, "run: %s", err.message);
    for (unsigned v = 0; v < 2; v++) {
        for (unsigned c = 0; c < 6; c++)
            CHECK(out_words[v * 8 + c] == in_words[v * 8 + c], "vertex %u lane %u: 0x%08x", v, c,
                  out_words[v * 8 + c]);
        CHECK(out_words[v * 8 + 6] == 0xAAAAAAAAu && out_words[v * 8 + 7] == 0xAAAAAAAAu,
              "vertex %u: o1.zw written", v);
    }
    sb_ir_program_destroy(ir);
}

/* SV_Target0 = float4(uv, 0, 1) * cb0[0]: uv = (0.5, 0.25), scale = (2, 4, 8, 3) ->
 * (1, 1, 0, 3). */
static void test_ps_scale(void)
{
    struct sb_error err;
    struct sb_ir_program *ir = dxil_front_lower(dxil_program_ps_scale, &err);
    CHECK(ir != NULL, "%s", err.message);
    if (!ir)
        return;
    uint32_t cb[4] = { f2u(2), f2u(4), f2u(8), f2u(3) };
    struct sb_rt_resource cb0 = buffer(SB_IR_RESOURCE_CBV, 0, cb, sizeof(cb));
    uint32_t in_words[4] = { f2u(0.5f), f2u(0.25f), 0, 0 }, out_words[4] = { 0 };
    const float position[4] = { 0.5f, 0.5f, 0, 1 };
    struct sb_interp_registers inputs = { 1, in_words }, outputs = { 1, out_words };
    enum sb_result r = sb_interp_run_pixels(ir, &cb0, 1, 1, position, &inputs, &outputs, NULL,
                                            NULL, NULL, &err);
    CHECK(r == SB_SUCCESS, "run: %s", err.message);
    static const float expected[4] = { 1, 1, 0, 3 };
    for (unsigned c = 0; c < 4; c++)
        CHECK(out_words[c] == f2u(expected[c]), "SV_Target0 lane %u: 0x%08x", c, out_words[c]);
    sb_ir_program_destroy(ir);
}

/* FMad, Dot3, FMax with a NaN operand (the other one wins, docs §7.3) and Saturate of
 * cb0[0] = (x, y, z, w): (1.5, 2, 0.25, -3) -> (3.25, 2.75, 1.5, 0);
 * (1.5, 2, 0.25, 0.5) -> (3.25, 3.625, 1.5, 0.5). */
static void test_cs_math(void)
{
    struct sb_error err;
    struct sb_ir_program *ir = dxil_front_lower(dxil_program_cs_math, &err);
    CHECK(ir != NULL, "%s", err.message);
    if (!ir)
        return;
    static const float w[2] = { -3.0f, 0.5f };
    static const float expected[2][4] = { { 3.25f, 2.75f, 1.5f, 0.0f }, { 3.25f, 3.625f, 1.5f, 0.5f } };
    for (unsigned c = 0; c < 2; c++) {
        uint32_t cb[4] = { f2u(1.5f), f2u(2.0f), f2u(0.25f), f2u(w[c]) }, out[4] = { 0 };
        struct sb_rt_resource table[2] = { buffer(SB_IR_RESOURCE_UAV, 0, out, sizeof(out)),
                                           buffer(SB_IR_RESOURCE_CBV, 0, cb, sizeof(cb)) };
        const uint32_t groups[3] = { 1, 1, 1 };
        enum sb_result r = sb_interp_dispatch(ir, table, 2, groups, NULL, NULL, &err);
        CHECK(r == SB_SUCCESS, "dispatch: %s", err.message);
        for (unsigned i = 0; i < 4; i++)
            CHECK(out[i] == f2u(expected[c][i]), "case %u word %u: 0x%08x, expected %g", c, i,
                  out[i], (double)expected[c][i]);
    }
    sb_ir_program_destroy(ir);
}

/* What this slice does not translate yet refuses, with the construct named. */
static void test_refusals(void)
{
    struct sb_error err;
    struct sb_ir_program *ir = dxil_front_lower(dxil_program_atomic64_groupshared, &err);
    CHECK(ir == NULL && err.code == SB_ERROR_TRANSLATE_UNSUPPORTED, "atomic64_groupshared: code %d",
          (int)err.code);
    CHECK(strstr(err.message, "not translated") != NULL, "atomic64_groupshared: message '%s'",
          err.message);
    CHECK(err.offset > 0, "atomic64_groupshared: no offset");
    sb_ir_program_destroy(ir);
}

int main(int argc, char **argv)
{
    const char *which = argc > 1 ? argv[1] : "all";
    bool all = !strcmp(which, "all");
    if (all || !strcmp(which, "cs_store"))
        test_cs_store();
    if (all || !strcmp(which, "cs_loop"))
        test_cs_loop();
    if (all || !strcmp(which, "vs_passthrough"))
        test_vs_passthrough();
    if (all || !strcmp(which, "ps_scale"))
        test_ps_scale();
    if (all || !strcmp(which, "cs_math"))
        test_cs_math();
    if (all || !strcmp(which, "refusals"))
        test_refusals();
    if (failures)
        fprintf(stderr, "%u check(s) failed\n", failures);
    return failures ? 1 : 0;
}
