/* SPDX-License-Identifier: MIT */
/*
 * PICA200 geometry shaders through their compute expansion (runtime/README.md
 * "PICA200"): one program of our own per input mode (programs/gs_*.pica), run
 * with chosen input records on the interpreter and on the device, u0 (emitted
 * vertices) and u1 (the uniform image) bit-identical, and hand-computed vertices
 * checked: SETEMIT vertex id / winding / primitive flags, output banking, LOOP
 * over relative uniforms, registers persisting across invocations and b15.
 * Both float24-exact and fast mode; plus sb_validate with seeds.
 * Usage: test_pica_gs PROGRAM_DIR [--cpu]
 */
#include <stdlib.h>
#include <string.h>

#include "validate/validate_pica.h"
#include "pica_rt_harness.h"

static const uint32_t MODES[2] = { SB_IR_PICA_FLOAT24, 0 };

static uint32_t fbits(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

/* Runs `program` over `primitives` records of `vectors` vectors (`records` as floats) on
 * both sides; returns the interpreter's u0 words (malloc'd) or NULL. */
static uint32_t *run(const struct sb_rt_program *program, uint32_t primitives, uint32_t vectors,
                     const float *records, const char *what)
{
    struct sb_rt_inputs *in = NULL, *cpu = NULL, *gpu = NULL;
    struct sb_error e;
    memset(&e, 0, sizeof(e));
    enum sb_result r = sb_rt_pica_gs_inputs(program, primitives, vectors, 64, 1, &in, &e);
    CHECK(r == SB_SUCCESS, "%s: inputs: %s", what, e.message);
    if (r != SB_SUCCESS)
        return NULL;
    int t0 = -1, u0 = -1;
    for (uint32_t i = 0; i < in->count; i++) {
        if (in->resources[i].resource_class == SB_IR_RESOURCE_SRV)
            t0 = (int)i;
        if (in->resources[i].resource_class == SB_IR_RESOURCE_UAV &&
            in->resources[i].register_index == SB_RT_PICA_GS_OUTPUT_REGISTER)
            u0 = (int)i;
    }
    CHECK(t0 >= 0 && u0 >= 0 && in->resources[t0].size == 16 + (size_t)primitives * vectors * 16,
          "%s: t0/u0 missing or sized wrong", what);
    uint32_t *result = NULL;
    if (t0 >= 0 && u0 >= 0) {
        uint32_t *words = in->resources[t0].data;
        for (uint32_t w = 0; w < primitives * vectors * 4; w++)
            words[4 + w] = fbits(records[w]);
        static const uint32_t one[3] = { 1, 1, 1 };
        r = sb_rt_inputs_clone(in, &cpu, &e);
        if (r == SB_SUCCESS)
            r = sb_interp_dispatch(program->ir, cpu->resources, cpu->count, one, NULL, NULL, &e);
        CHECK(r == SB_SUCCESS, "%s: interpreter: %s", what, e.message);
        if (r == SB_SUCCESS && g_context && sb_rt_context_has_device(g_context)) {
            r = sb_rt_inputs_clone(in, &gpu, &e);
            if (r == SB_SUCCESS)
                r = sb_rt_dispatch(g_context, program->translation, gpu->resources, gpu->count, one, NULL, &e);
            CHECK(r == SB_SUCCESS, "%s: device: %s", what, e.message);
            for (uint32_t i = 0; r == SB_SUCCESS && i < in->count; i++)
                if (in->resources[i].resource_class == SB_IR_RESOURCE_UAV)
                    CHECK(!memcmp(cpu->resources[i].data, gpu->resources[i].data, cpu->resources[i].size),
                          "%s: u%u differs between the device and the interpreter", what,
                          in->resources[i].register_index);
        }
        if (cpu && r == SB_SUCCESS && (result = malloc(cpu->resources[u0].size)) != NULL)
            memcpy(result, cpu->resources[u0].data, cpu->resources[u0].size);
    }
    sb_rt_inputs_destroy(in);
    sb_rt_inputs_destroy(cpu);
    sb_rt_inputs_destroy(gpu);
    return result;
}

/* Record `k` of u0: header (vertex id, winding, primitive flag, input primitive), then
 * `regs` vectors; checks the header and lanes `mask` of vector `v` against `want`. */
static void expect(const uint32_t *u0, uint32_t stride, uint32_t k, const uint32_t header[4], uint32_t v,
                   const float want[4], uint32_t mask, const char *what)
{
    const uint32_t *rec = &u0[4 + (size_t)k * stride * 4];
    for (uint32_t l = 0; l < 4; l++)
        CHECK(rec[l] == header[l], "%s: record %u header[%u] = %u, want %u", what, k, l, rec[l], header[l]);
    for (uint32_t l = 0; l < 4; l++)
        if (mask >> l & 1)
            CHECK(rec[4 * v + l] == fbits(want[l]), "%s: record %u vector %u.%c = 0x%08x, want %g", what, k, v,
                  "xyzw"[l], rec[4 * v + l], (double)want[l]);
}

static void kat_point(const struct sb_rt_program *p, const char *what)
{
    const struct sb_rt_pica_gs *gs = sb_rt_program_pica_gs(p);
    CHECK(gs && gs->mode == 0 && gs->record_vectors == 3, "%s: point mode, o0 and o1 expected", what);
    float records[2][16][4] = { { { 1, 2, 3, 1 }, { 0.5f, 0.25f, 0.75f, 1 } },
                                { { -4, 0.5f, 8, 1 }, { 1, 0, 0.5f, 0.125f } } };
    uint32_t *u0 = run(p, 2, 16, &records[0][0][0], what);
    if (!u0 || !gs)
        return;
    CHECK(u0[0] == 8 && u0[1] == 2 && u0[2] == 3, "%s: header %u %u %u, want 8 2 3", what, u0[0], u0[1], u0[2]);
    static const uint32_t slot[4][3] = { { 0, 0, 0 }, { 1, 0, 0 }, { 2, 0, 1 }, { 0, 1, 1 } };
    static const float dx[4] = { 0, 1, 0, 1 }, dy[4] = { 0, 0, 1, 1 };
    for (uint32_t prim = 0; prim < 2; prim++)
        for (uint32_t k = 0; k < 4; k++) {
            const float *v0 = records[prim][0], *v1 = records[prim][1];
            uint32_t header[4] = { slot[k][0], slot[k][1], slot[k][2], prim };
            float pos[4] = { v0[0] + dx[k], v0[1] + dy[k], v0[2], v0[3] };
            float zero[4] = { 0, 0, 0, 0 };
            expect(u0, 3, prim * 4 + k, header, 1, pos, 0xF, what);
            /* banks: the colour written before EMIT 1 reaches EMITs 1 and 3 only */
            expect(u0, 3, prim * 4 + k, header, 2, k % 2 ? zero : v1, 0xF, what);
        }
    free(u0);
}

static void kat_variable(const struct sb_rt_program *p, const char *what)
{
    const struct sb_rt_pica_gs *gs = sb_rt_program_pica_gs(p);
    CHECK(gs && gs->mode == 1 && gs->first_uniform == 0 && gs->vertex_count == 3, "%s: variable mode", what);
    float records[2][4][4] = { { { 3, 3, 3, 3 }, { 1, 0, 0, 1 }, { 0, 1, 0, 1 }, { 0, 0, 1, 1 } },
                               { { 3, 3, 3, 3 }, { -1, -2, 0.5f, 1 }, { 2, 4, 8, 1 }, { 0.25f, 0, 0, 2 } } };
    uint32_t *u0 = run(p, 2, 4, &records[0][0][0], what);
    if (!u0 || !gs)
        return;
    CHECK(u0[0] == 8 && u0[1] == 2 && u0[2] == 2, "%s: header %u %u %u, want 8 2 2", what, u0[0], u0[1], u0[2]);
    for (uint32_t prim = 0; prim < 2; prim++) {
        for (uint32_t k = 0; k < 3; k++) {
            uint32_t header[4] = { 0, 0, 0, prim };
            expect(u0, 2, prim * 4 + k, header, 1, records[prim][1 + k], 0xF, what);
        }
        uint32_t header[4] = { 1, 0, 1, prim };
        expect(u0, 2, prim * 4 + 3, header, 1, records[prim][0], 0xF, what);
    }
    free(u0);
}

static void kat_fixed(const struct sb_rt_program *p, const char *what)
{
    const struct sb_rt_pica_gs *gs = sb_rt_program_pica_gs(p);
    CHECK(gs && gs->mode == 2 && gs->first_uniform == 0 && gs->vertex_count == 2, "%s: fixed mode", what);
    float records[3][2][4] = { { { 1, 2, 3, 4 }, { 0.5f, 1.5f, 0, 0 } },
                               { { 5, 6, 7, 8 }, { 100, 100, 0, 0 } },
                               { { -1, -2, -3, -4 }, { 200, 200, 0, 0 } } };
    uint32_t *u0 = run(p, 3, 2, &records[0][0][0], what);
    if (!u0 || !gs)
        return;
    CHECK(u0[0] == 3 && u0[1] == 3, "%s: header %u %u, want 3 3", what, u0[0], u0[1]);
    for (uint32_t prim = 0; prim < 3; prim++) {
        uint32_t header[4] = { 0, 0, 1, prim };
        float tex[4] = { 0.5f + (float)prim, 1.5f + (float)prim, 0, 0 }; /* r0 persists; b15 after the first */
        expect(u0, 3, prim, header, 1, records[prim][0], 0xF, what);
        expect(u0, 3, prim, header, 2, tex, 0x3, what);
    }
    free(u0);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: test_pica_gs PROGRAM_DIR [--cpu]\n");
        return 2;
    }
    bool cpu = argc > 2 && !strcmp(argv[2], "--cpu");
    struct sb_rt_context_options options = { .cpu_only = cpu };
    struct sb_error e;
    memset(&e, 0, sizeof(e));
    if (sb_rt_context_create(&options, &g_context, &e) != SB_SUCCESS ||
        (!cpu && !sb_rt_context_has_device(g_context))) {
        printf("SKIPPED: no Vulkan device (%s)\n", e.message);
        sb_rt_context_destroy(g_context);
        return 77;
    }
    static const struct {
        const char *file;
        void (*kat)(const struct sb_rt_program *, const char *);
    } cases[] = { { "gs_quad_point.pica", kat_point },
                  { "gs_fan_variable.pica", kat_variable },
                  { "gs_particle_fixed.pica", kat_fixed } };
    uint64_t compared = 0;
    for (uint32_t m = 0; m < 2; m++)
        for (uint32_t c = 0; c < 3; c++) {
            struct sb_rt_program *p = prt_load(argv[1], cases[c].file, 0, MODES[m]);
            if (!p)
                continue;
            char what[96];
            snprintf(what, sizeof(what), "%s (%s)", cases[c].file, MODES[m] ? "float24" : "fast");
            int before = g_failures;
            CHECK(p->stage == SB_IR_STAGE_GEOMETRY && p->ir->stage == SB_IR_STAGE_COMPUTE, "%s: stages", what);
            cases[c].kat(p, what);
            for (uint64_t seed = 1; seed <= 2; seed++)
                compared += prt_validate(p, seed, 8);
            printf("%-26s %-8s %s\n", cases[c].file, MODES[m] ? "float24" : "fast",
                   g_failures == before ? "ok" : "FAILED");
            sb_rt_program_destroy(p);
        }
    printf("validate: %llu words compared\n", (unsigned long long)compared);
    sb_rt_context_destroy(g_context);
    return g_failures ? 1 : 0;
}
