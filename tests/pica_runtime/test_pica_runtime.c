/* SPDX-License-Identifier: MIT */
/*
 * Our own PICA200 programs (programs/NAME.pica, picasso syntax, assembled at
 * test time) through the runtime's SHBIN path: each one in float24-exact and
 * fast mode, known answers checked on the interpreter and on the GPU (the
 * harness also requires the two sides to agree bit for bit), then
 * sb_validate with seeded inputs and uniforms. Covers every arithmetic
 * opcode and every flow-control form, the dispatch-loop fallback, and the
 * ../shared/docs/pica200.md §14.1 CALL / Nested Loop / Uniform Read / Address Register
 * Offset / Conditional vectors and the §14.3 LITP program.
 *
 * Usage: test_pica_runtime PROGRAM_DIR [--cpu]   (--cpu: interpreter only;
 * without it a missing Vulkan device skips the test with 77).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "pica_rt_harness.h"
#include "translator/pica.h"
#include "translator/pica_float24.h"
#include "translator/ir.h"

static const char *g_dir;
static struct prt_outputs g_out; /* large: one static buffer */

static const uint32_t MODES[2] = { SB_IR_PICA_FLOAT24, 0 };

static const char *mode_name(uint32_t flags)
{
    return flags & SB_IR_PICA_FLOAT24 ? "float24" : "fast";
}

static void expect_vec(const struct prt_outputs *o, uint32_t v, uint32_t reg, const float want[4], uint8_t lanes,
                       float tolerance, const char *what)
{
    for (uint32_t l = 0; l < 4; l++) {
        if (!(lanes >> l & 1))
            continue;
        float got = prt_out(o, v, reg, l);
        bool ok = tolerance > 0 ? fabsf(got - want[l]) <= tolerance : got == want[l];
        CHECK(ok, "%s: vertex %u o%u.%c = %.9g, want %.9g", what, v, reg, "xyzw"[l], (double)got, (double)want[l]);
    }
}

static void set_vec(float dst[4], float x, float y, float z, float w)
{
    dst[0] = x;
    dst[1] = y;
    dst[2] = z;
    dst[3] = w;
}

/* Inputs [vertex][register][lane]: static, one run at a time. */
static float g_in[PRT_MAX_VERTICES][16][4];
static struct prt_uniforms g_u;

static void clear_run(void)
{
    memset(g_in, 0, sizeof(g_in));
    memset(&g_u, 0, sizeof(g_u));
}

/* vs_alu.pica: every arithmetic opcode. */
static void kat_alu(const struct sb_rt_program *p, const char *what)
{
    clear_run();
    set_vec(g_in[0][0], 1, 2, 3, 4);
    set_vec(g_in[0][1], 0.5f, -2, 0.25f, 8);
    set_vec(g_in[0][2], -1, 256, 1, -1);
    for (int k = 0; k < 96; k++)
        set_vec(g_u.c[k], (float)k, k + 0.25f, k + 0.5f, k + 0.75f);
    if (!prt_run(p, 1, (const float (*)[16][4])g_in, &g_u, &g_out))
        return;
    static const float want[16][4] = {
        { 1, 2, 3, 4 },            /* mov */
        { 1.5f, 0, 3.25f, 12 },    /* add */
        { -0.5f, 4, -0.75f, -32 }, /* mul, negated source */
        { 1.5f, -2, 3.75f, 36 },   /* mad */
        { -2.75f, 29.25f, 5.25f, 16 }, /* dp3, dp4, dph, dphi */
        { 1, -4, 3, 8 },           /* dst */
        { 1, 1, 0, 0 },            /* sge, sgei, slt, slti */
        { 1, 2, 0.25f, 4 },        /* max, min */
        { -2, 1, -1, 0 },          /* flr */
        { 4, 3, 2, 2 },            /* ex2, lg2, rsq, rcp */
        { 0, 127.99609375f, 0, 0 },/* litp */
        { 1, 1, 3, 1 },            /* dsti */
        { 2.5f, -3.5f, 4.75f, 33 },/* madi */
        { 2.5f, -1, 12.25f, 12 },  /* mad, wide second factor */
        { 8, 8.5f, 9, 9.5f },      /* mova a0.xy + relative c[a0.x + 1] + c[a0.y] */
        { 1, 0.5f, 0, 0 },         /* cmp + ifc; litp flags */
    };
    for (uint32_t r = 0; r < 16; r++)
        expect_vec(&g_out, 0, r, want[r], g_out.mask[r], r == 9 ? 1e-4f : 0, what);
    CHECK(g_out.mask[15] == 3 && g_out.mask[4] == 0xF, "%s: output masks %x %x", what, g_out.mask[15], g_out.mask[4]);
}

/* vs_flow.pica: every flow-control form; four condition combinations x b0. */
static void kat_flow(const struct sb_rt_program *p, const char *what)
{
    static const float xy[4][2] = { { 1, 1 }, { -1, -1 }, { 1, -1 }, { -1, 1 } };
    for (uint32_t b = 0; b < 2; b++) {
        clear_run();
        for (int k = 0; k < 96; k++)
            set_vec(g_u.c[k], (float)k, (float)k, (float)k, (float)k);
        uint32_t i0[4] = { 2, 1, 2, 0 }, i1[4] = { 1, 0, 1, 0 }, i2[4] = { 7, 0, 1, 0 };
        memcpy(g_u.i[0], i0, 16);
        memcpy(g_u.i[1], i1, 16);
        memcpy(g_u.i[2], i2, 16);
        g_u.b = b;
        for (uint32_t v = 0; v < 4; v++)
            set_vec(g_in[v][0], xy[v][0], xy[v][1], 0, 1);
        if (!prt_run(p, 4, (const float (*)[16][4])g_in, &g_u, &g_out))
            return;
        for (uint32_t v = 0; v < 4; v++) {
            bool cx = xy[v][0] > 0, cy = xy[v][1] < 0;
            float r1 = 1.0f + (cx ? 2 : 0) + (b ? 1 : 0) + (!cx && !cy ? 2 : 0);
            float want1[4] = { r1, r1, r1, r1 };
            float want2[4] = { cy ? 1.0f : 2.0f, b ? 3.0f : 4.0f, !b && cx ? 1.0f : 0.0f, 0 };
            /* outer aL = 1, 3, 5; inner aL = 0, 1 each pass; the outer aL restored after the inner loop */
            float want3[4] = { 9, 6, 3, 9 };
            float want4[4] = { 3, 1, cx ? 0.0f : 1.0f, b ? 1.0f : 0.0f };
            float want5[4] = { b ? 3.0f : 1.0f, 5, 0, 0 };
            char name[96];
            snprintf(name, sizeof(name), "%s b0=%u", what, b);
            expect_vec(&g_out, v, 1, want1, 0xF, 0, name);
            expect_vec(&g_out, v, 2, want2, 0xF, 0, name);
            expect_vec(&g_out, v, 3, want3, 0xF, 0, name);
            expect_vec(&g_out, v, 4, want4, 0xF, 0, name);
            expect_vec(&g_out, v, 5, want5, 0x3, 0, name);
        }
    }
}

/* vs_dispatch.pica: a jump into an IF, only the dispatch loop expresses it. */
static void kat_dispatch(const struct sb_rt_program *p, const char *what)
{
    CHECK(prt_is_dispatch(p), "%s: expected the dispatch-loop lowering", what);
    for (uint32_t b = 0; b < 2; b++) {
        clear_run();
        g_u.b = b;
        set_vec(g_in[0][0], 1, 0, 0, 1);
        set_vec(g_in[1][0], -1, 0, 0, 1);
        if (!prt_run(p, 2, (const float (*)[16][4])g_in, &g_u, &g_out))
            return;
        float want0[4] = { 6, 5, 0, 0 }, want1[4] = { b ? 3.0f : 4.0f, 5, 0, 0 };
        expect_vec(&g_out, 0, 1, want0, 3, 0, what);
        expect_vec(&g_out, 1, 1, want1, 3, 0, what);
    }
}

/* §14.1 CALL: both frames pop in one step, then END. */
static void kat_call(const struct sb_rt_program *p, const char *what)
{
    clear_run();
    set_vec(g_in[0][0], 0, 0, 0, 0);
    set_vec(g_in[1][0], 2, 0, 0, 0);
    if (!prt_run(p, 2, (const float (*)[16][4])g_in, NULL, &g_out))
        return;
    float want0[4] = { 1, 1, 1, 1 }, want1[4] = { 4, 4, 4, 4 };
    expect_vec(&g_out, 0, 0, want0, 0xF, 1e-5f, what);
    expect_vec(&g_out, 1, 0, want1, 0xF, 1e-4f, what);
}

/* §14.1 Nested Loop: o0.x = (x0 + 1)(x1 + 1) + 1, final aL = (x0 + 1) z0. */
static void kat_loop(const struct sb_rt_program *p, const char *what)
{
    static const uint32_t x0s[2] = { 4, 9 }, z0s[2] = { 1, 2 }, x1s[2] = { 4, 7 };
    for (uint32_t n = 0; n < 8; n++) {
        uint32_t x0 = x0s[n & 1], z0 = z0s[n >> 1 & 1], x1 = x1s[n >> 2];
        clear_run();
        for (int k = 0; k < 96; k++)
            set_vec(g_u.c[k], (float)k, 0, 0, 0);
        uint32_t i0[4] = { x0, 0, z0, 0 }, i1[4] = { x1, 0, 1, 0 };
        memcpy(g_u.i[0], i0, 16);
        memcpy(g_u.i[1], i1, 16);
        set_vec(g_in[0][0], 1, 0, 0, 0);
        if (!prt_run(p, 1, (const float (*)[16][4])g_in, &g_u, &g_out))
            return;
        float want0[4] = { (float)((x0 + 1) * (x1 + 1) + 1), 0, 0, 0 };
        float want1[4] = { (float)((x0 + 1) * z0), 0, 0, 0 };
        char name[96];
        snprintf(name, sizeof(name), "%s x0=%u z0=%u x1=%u", what, x0, z0, x1);
        expect_vec(&g_out, 0, 0, want0, 1, 0, name);
        expect_vec(&g_out, 0, 1, want1, 1, 0, name);
    }
}

/* §8: the register `base + offset` reads, or -1 for (1, 1, 1, 1). */
static int relative_index(int base, int offset)
{
    if (offset < -128 || offset > 127)
        offset = 0;
    int index = (base + offset) & 0x7F;
    return index >= 96 ? -1 : index;
}

/* §14.1 Uniform Read and Address Register Offset. */
static void kat_address(const struct sb_rt_program *p, uint32_t flags, const char *what)
{
    static const int offsets[] = { 0, 13, 50, 60, 74, 87, 88, 128, -40, -42, -70, -73, -127, -129 };
    const uint32_t n_off = (uint32_t)(sizeof(offsets) / sizeof(offsets[0]));
    clear_run();
    for (int k = 0; k < 96; k++)
        set_vec(g_u.c[k], 2.0f * k / 255.0f, 2.0f * k / 255.0f, 2.0f * k / 255.0f, 1);
    for (uint32_t i = 0; i < 96; i++)
        set_vec(g_in[i][0], (float)i + (float)(i % 17) / 17.0f, 0, 0, 0);
    for (uint32_t k = 0; k < n_off; k++)
        set_vec(g_in[96 + k][0], (float)offsets[k], 0, 0, 0);
    if (!prt_run(p, 96 + n_off, (const float (*)[16][4])g_in, &g_u, &g_out))
        return;
    for (uint32_t v = 0; v < 96 + n_off; v++) {
        int off = v < 96 ? (int)v : offsets[v - 96];
        for (uint32_t reg = 0; reg < 2; reg++) {
            int index = relative_index(reg ? 40 : 0, off);
            float want[4] = { 1, 1, 1, 1 };
            for (uint32_t l = 0; index >= 0 && l < 4; l++) {
                uint32_t bits;
                memcpy(&bits, &g_u.c[index][l], 4);
                if (flags & SB_IR_PICA_FLOAT24)
                    bits = sb_pica_f32_round(bits, false, false); /* float24 mode rounds uniform reads */
                memcpy(&want[l], &bits, 4);
            }
            expect_vec(&g_out, v, reg, want, 0xF, 0, what);
        }
    }
}

/* §14.3 LITP: colour from the flags, or the scaled result when both are false. */
static void kat_litp(const struct sb_rt_program *p, const char *what)
{
    static const float in[6][4] = { { 1, 0, 0, 1 }, { -0.5f, 1, 0, 1 }, { 0.5f, 0, 1, -1 },
                                     { -1, 64, 0, -1 }, { -1, 256, 1, -1 }, { -1, 0, 0.5f, -1 } };
    static const float colour[6][4] = { { 1, 1, 0, 0 }, { 0, 1, 0, 0 }, { 1, 0, 0, 0 },
                                        { 0, 0.5f, 0, 1 }, { 0, 127.99609375f / 128.0f, 0, 1 }, { 0, 0, 0, 1 } };
    static const float result[6][4] = { { 1, 0, 0, 1 }, { 0, 1, 0, 1 }, { 0.5f, 0, 0, 0 },
                                        { 0, 64, 0, 0 }, { 0, 127.99609375f, 0, 0 }, { 0, 0, 0, 0 } };
    clear_run();
    for (uint32_t v = 0; v < 6; v++)
        memcpy(g_in[v][1], in[v], 16);
    if (!prt_run(p, 6, (const float (*)[16][4])g_in, NULL, &g_out))
        return;
    for (uint32_t v = 0; v < 6; v++) {
        expect_vec(&g_out, v, 1, colour[v], 0xF, 0, what);
        expect_vec(&g_out, v, 2, result[v], 0xF, 0, what);
    }
}

/* vs_const.pica: LITP and MAX of constants give +0 (not -0) where they clamp to zero. */
static void kat_const(const struct sb_rt_program *p, const char *what)
{
    static const uint32_t litp_bits[4] = { 0, 0x42FFFE00u /* 127.99609375 */, 0, 0 };
    static const uint32_t max_bits[4] = { 0, 0, 0x40400000u /* 3.0 */, 0 };
    clear_run();
    if (!prt_run(p, 2, (const float (*)[16][4])g_in, NULL, &g_out))
        return;
    for (uint32_t v = 0; v < 2; v++)
        for (uint32_t l = 0; l < 4; l++) {
            CHECK(g_out.words[v][1][l] == litp_bits[l], "%s: vertex %u o1.%c = 0x%08x, want 0x%08x", what, v,
                  "xyzw"[l], g_out.words[v][1][l], litp_bits[l]);
            CHECK(g_out.words[v][2][l] == max_bits[l], "%s: vertex %u o2.%c = 0x%08x, want 0x%08x", what, v,
                  "xyzw"[l], g_out.words[v][2][l], max_bits[l]);
        }
}

/* §14.1 Conditional: IFC with every CONDOP and REFX/REFY, generated as picasso text. */
static void kat_conditions(uint32_t flags)
{
    static const char *const forms[4][4] = {
        { "cmp.x || cmp.y", "!cmp.x || cmp.y", "cmp.x || !cmp.y", "!cmp.x || !cmp.y" },
        { "cmp.x && cmp.y", "!cmp.x && cmp.y", "cmp.x && !cmp.y", "!cmp.x && !cmp.y" },
        { "cmp.x", "!cmp.x", "cmp.x", "!cmp.x" },
        { "cmp.y", "cmp.y", "!cmp.y", "!cmp.y" },
    };
    for (uint32_t op = 0; op < 4; op++)
        for (uint32_t refs = 0; refs < 4; refs++) {
            char text[512];
            snprintf(text, sizeof(text),
                     ".constf one(1.0, 1.0, 1.0, 1.0)\n.out opos position\n.out - dummy o1\n"
                     ".proc main\n    mov opos, v0\n    cmp v1, eq, eq, one\n    ifc %s\n"
                     "        mov o1, one\n    .else\n        mov o1, r0\n    .end\n    end\n.end\n",
                     forms[op][refs]);
            uint8_t *bytes = NULL;
            size_t size = 0;
            struct sb_pica_asm_error ae;
            memset(&ae, 0, sizeof(ae));
            struct sb_rt_program *p = NULL;
            struct sb_error e;
            memset(&e, 0, sizeof(e));
            enum sb_result r = sb_pica_assemble(text, strlen(text), &bytes, &size, &ae);
            CHECK(r == SB_SUCCESS, "conditions: %s", ae.error.message);
            if (r == SB_SUCCESS)
                r = sb_rt_program_load_shbin(bytes, size, 0, flags, NULL, &p, &e);
            sb_pica_free(bytes);
            CHECK(r == SB_SUCCESS, "conditions load: %s", e.message);
            if (r != SB_SUCCESS)
                continue;
            clear_run();
            for (uint32_t v = 0; v < 4; v++)
                set_vec(g_in[v][1], (float)(v & 1), (float)(v >> 1), 0, 0);
            if (prt_run(p, 4, (const float (*)[16][4])g_in, NULL, &g_out)) {
                bool refx = !(refs & 1), refy = !(refs & 2); /* "!" = the flag must be false */
                for (uint32_t v = 0; v < 4; v++) {
                    bool x = (v & 1) == (uint32_t)refx, y = (v >> 1) == (uint32_t)refy;
                    bool cond = op == 0 ? (x || y) : op == 1 ? (x && y) : op == 2 ? x : y;
                    float want[4] = { cond, cond, cond, cond };
                    expect_vec(&g_out, v, 1, want, 0xF, 0, forms[op][refs]);
                }
            }
            sb_rt_program_destroy(p);
        }
}

/* A geometry-shader DVLE is refused with a structured RUN_UNSUPPORTED (no GS path yet). */
static void check_geometry_refused(void)
{
    static const char text[] = ".gsh point c0\n.out opos position\n.proc main\n    mov opos, v0\n"
                               "    setemit 0, prim\n    emit\n    end\n.end\n";
    uint8_t *bytes = NULL;
    size_t size = 0;
    struct sb_pica_asm_error ae;
    memset(&ae, 0, sizeof(ae));
    enum sb_result r = sb_pica_assemble(text, strlen(text), &bytes, &size, &ae);
    CHECK(r == SB_SUCCESS, "gs: %s", ae.error.message);
    struct sb_rt_program *p = NULL;
    struct sb_error e;
    memset(&e, 0, sizeof(e));
    if (r == SB_SUCCESS) {
        /* Geometry shaders load as their compute expansion (test_pica_gs.c runs them). */
        r = sb_rt_program_load(bytes, size, NULL, &p, &e);
        CHECK(r == SB_SUCCESS && p && p->stage == SB_IR_STAGE_GEOMETRY && p->ir->stage == SB_IR_STAGE_COMPUTE,
              "a PICA geometry shader loaded with %d: %s", r, e.message);
    }
    sb_rt_program_destroy(p);
    sb_pica_free(bytes);
}

struct program_case {
    const char *file;
    void (*kat)(const struct sb_rt_program *p, const char *what);
};

static void kat_address_f24(const struct sb_rt_program *p, const char *what)
{
    kat_address(p, SB_IR_PICA_FLOAT24, what);
}

static void kat_address_fast(const struct sb_rt_program *p, const char *what)
{
    kat_address(p, 0, what);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: test_pica_runtime PROGRAM_DIR [--cpu]\n");
        return 2;
    }
    g_dir = argv[1];
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
    static const struct program_case cases[] = {
        { "vs_alu.pica", kat_alu },         { "vs_flow.pica", kat_flow },
        { "vs_dispatch.pica", kat_dispatch }, { "vs_call14.pica", kat_call },
        { "vs_loop14.pica", kat_loop },     { "vs_address14.pica", NULL },
        { "vs_litp14.pica", kat_litp },     { "vs_const.pica", kat_const },
    };
    uint64_t compared = 0;
    uint32_t programs = 0;
    check_geometry_refused();
    for (uint32_t m = 0; m < 2; m++) {
        for (uint32_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
            struct sb_rt_program *p = prt_load(g_dir, cases[c].file, 0, MODES[m]);
            if (!p)
                continue;
            char what[128];
            snprintf(what, sizeof(what), "%s (%s)", cases[c].file, mode_name(MODES[m]));
            int before = g_failures;
            void (*kat)(const struct sb_rt_program *, const char *) =
                cases[c].kat ? cases[c].kat : MODES[m] ? kat_address_f24 : kat_address_fast;
            kat(p, what);
            for (uint64_t seed = 1; seed <= 2; seed++)
                compared += prt_validate(p, seed, 0);
            printf("%-24s %-8s %s\n", cases[c].file, mode_name(MODES[m]), g_failures == before ? "ok" : "FAILED");
            programs++;
            sb_rt_program_destroy(p);
        }
        kat_conditions(MODES[m]);
    }
    printf("%u program runs, %llu words compared GPU vs CPU by sb_validate (%s), %d failures\n", programs,
           (unsigned long long)compared, cpu ? "interpreter only" : sb_rt_context_device_name(g_context),
           g_failures);
    sb_rt_context_destroy(g_context);
    return g_failures ? 1 : 0;
}
