/* SPDX-License-Identifier: MIT */
/*
 * Differential test of the two PICA flow lowerings: random programs built
 * from every flow instruction (IFC/IFU with and without else blocks, LOOP,
 * BREAK/BREAKC, CALL/CALLC/CALLU, JMPC/JMPU forward and backward, END) and
 * path-recording arithmetic are lowered twice — as sb_ir_from_pica chooses
 * and forced onto the dispatch loop, which replays ../shared/docs/pica200.md §7.2
 * literally — and run on the interpreter with random uniforms: whenever the
 * structured lowering is taken, both must give the same output bits. Every
 * lowered program must pass sb_ir_validate; lowering must never crash.
 * A fixed seed keeps the run reproducible.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pica_lower_util.h"
#include "shaderbridge/translate.h"

#define PROGRAMS 4000u
#define MAX_WORDS 28u
#define VERTICES 4u

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;

static uint32_t rnd(uint32_t n)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return n ? (uint32_t)(rng_state % n) : 0;
}

/* Arithmetic that records the path: r0 = r0 * 2 + v(k), r1 += v(k), outputs follow. */
static uint32_t random_alu(uint32_t *code, uint32_t at)
{
    switch (rnd(5)) {
    case 0: code[at] = w_alu(SB_PICA_OP_ADD, R(0), R(0), V(rnd(4)), D_XYZW); return 1;
    case 1: code[at] = w_alu(SB_PICA_OP_ADD, R(1), R(1), V(rnd(4)), D_XYZW); return 1;
    case 2: code[at] = w_alu(SB_PICA_OP_MUL, R(0), R(0), V(3), D_XYZW); return 1;
    case 3: {
        uint32_t o = rnd(2), r = rnd(2);
        code[at] = w_alu(SB_PICA_OP_MOV, O(o), R(r), NONE, D_XYZW);
        return 1;
    }
    default: {
        /* Drawn one by one: argument evaluation order is unspecified in C. */
        uint32_t r = rnd(2), x = rnd(6), y = rnd(6), v = rnd(4);
        code[at] = w_cmp(R(r), (enum sb_pica_compare_op)x, (enum sb_pica_compare_op)y, V(v));
        return 1;
    }
    }
}

static uint32_t random_target(uint32_t at, uint32_t count)
{
    /* Mostly short forward distances, sometimes anywhere. */
    if (rnd(4)) {
        uint32_t t = at + 1 + rnd(6);
        return t < count ? t : count - 1;
    }
    return rnd(count);
}

static void random_flow(uint32_t *code, uint32_t at, uint32_t count)
{
    /* Every draw in its own statement: argument evaluation order is unspecified in C. */
    enum sb_pica_condition_op cond = (enum sb_pica_condition_op)rnd(4);
    bool rx = rnd(2), ry = rnd(2);
    uint32_t d = random_target(at, count), n = rnd(4);
    uint32_t anywhere = rnd(count), call_n = 1 + rnd(4), id = rnd(4), bit = rnd(2), far = rnd(3);
    switch (rnd(12)) {
    case 0: code[at] = w_f2(SB_PICA_OP_IFC, d, n, cond, rx, ry); break;
    case 1: code[at] = w_f3(SB_PICA_OP_IFU, d, n, id % 3); break;
    case 2: case 3: code[at] = w_f3(SB_PICA_OP_LOOP, d > at ? d - 1 : d, 0, id); break;
    case 4: code[at] = w_op0(SB_PICA_OP_BREAK); break;
    case 5: code[at] = w_f2(SB_PICA_OP_BREAKC, 0, 0, cond, rx, ry); break;
    case 6: code[at] = w_f2(SB_PICA_OP_CALL, anywhere, call_n, cond, rx, ry); break;
    case 7: code[at] = w_f2(SB_PICA_OP_CALLC, anywhere, call_n, cond, rx, ry); break;
    case 8: code[at] = w_f3(SB_PICA_OP_CALLU, anywhere, call_n, id % 3); break;
    case 9: code[at] = w_f2(SB_PICA_OP_JMPC, d, 0, cond, rx, ry); break;
    case 10: code[at] = w_f3(SB_PICA_OP_JMPU, far ? d : anywhere, bit, id % 3); break;
    default: code[at] = w_op0(bit ? SB_PICA_OP_END : SB_PICA_OP_NOP); break;
    }
}

static void random_uniforms(struct uniforms *u)
{
    memset(u, 0, sizeof(*u));
    for (int k = 0; k < 96; k++)
        for (int l = 0; l < 4; l++)
            u->c[k][l] = (float)(k + l);
    for (int i = 0; i < 4; i++) {
        u->i[i][0] = rnd(3);
        u->i[i][1] = rnd(4);
        u->i[i][2] = rnd(3);
    }
    u->b = rnd(8);
}

/*
 * Arbitrary words (any opcode, any field): lowering succeeds with valid IR that
 * translates to spirv-val-clean SPIR-V, or fails with a translation error at a
 * code word — never anything else.
 */
static void random_words(uint32_t programs)
{
    uint32_t lowered = 0, refused = 0;
    for (uint32_t iter = 0; iter < programs; iter++) {
        uint32_t count = 1 + rnd(MAX_WORDS), code[MAX_WORDS];
        for (uint32_t at = 0; at < count; at++) {
            uint32_t hi = rnd(0x10000), lo = rnd(0x10000);
            code[at] = hi << 16 | lo;
            if (rnd(16)) /* keep most descriptor indices inside the table */
                code[at] &= ~0x7Cu;
        }
        uint32_t main_address = rnd(count);
        bool geometry = rnd(2) != 0;
        struct prog p = { code, count, main_address, geometry, 2, UINT32_MAX, { 0, 0, 0, 0 }, 0 };
        enum sb_result r;
        struct sb_error e;
        memset(&e, 0, sizeof(e));
        struct sb_ir_program *ir = lower_prog(&p, &r, &e);
        if (!ir) {
            refused++;
            CHECK(r == SB_ERROR_TRANSLATE_INVALID || r == SB_ERROR_TRANSLATE_UNSUPPORTED,
                  "random words %u: result %d (%s)", iter, r, e.message);
            CHECK(e.offset >= g_code_offset && e.offset < g_code_offset + 4u * count,
                  "random words %u: error offset 0x%llx outside the code", iter,
                  (unsigned long long)e.offset);
            continue;
        }
        lowered++;
        /* Geometry shaders wait for the PICA GS runtime (issue #6 Deliver 5) to translate. */
        if (iter % 4 == 0 && !p.geometry) {
            struct sb_translate_options options = { .target_env = SB_TARGET_VULKAN_1_1,
                                                    .flags = SB_TRANSLATE_VALIDATE };
            struct sb_translation *t = NULL;
            r = sb_translate_ir(ir, &options, &t, &e);
            CHECK(r == SB_SUCCESS, "random words %u: translation: %s", iter, e.message);
            sb_translation_destroy(t);
        }
        sb_ir_program_destroy(ir);
    }
    printf("pica_lower_random: %u programs of arbitrary words: %u lowered with valid IR, %u refused "
           "with a translation error at a code word\n",
           programs, lowered, refused);
}

int main(void)
{
    uint32_t structured = 0, compared = 0, budget = 0, unsupported = 0;
    uint32_t with_if = 0, with_loop = 0, with_call = 0;
    for (uint32_t iter = 0; iter < PROGRAMS; iter++) {
        uint32_t count = 6 + rnd(MAX_WORDS - 6), code[MAX_WORDS];
        for (uint32_t at = 0; at < count;)
            if (rnd(3))
                at += random_alu(code, at);
            else
                random_flow(code, at++, count);
        code[count - 1] = w_op0(SB_PICA_OP_END);
        struct prog p = { code, count, 0, false, 2, UINT32_MAX, { 0, 0, 0, 0 }, 0 };
        enum sb_result r1, r2;
        struct sb_error e1, e2;
        struct sb_ir_program *chosen = lower_prog_mode(&p, false, &r1, &e1);
        struct sb_ir_program *dispatch = lower_prog_mode(&p, true, &r2, &e2);
        CHECK(r2 == SB_SUCCESS && dispatch, "program %u: dispatch lowering failed: %s", iter, e2.message);
        if (r1 == SB_ERROR_TRANSLATE_UNSUPPORTED)
            unsupported++;
        else
            CHECK(r1 == SB_SUCCESS && chosen, "program %u: lowering failed: %s", iter, e1.message);
        if (chosen && dispatch && !is_dispatch(chosen)) {
            structured++;
            with_if += count_op(chosen, SB_IR_OP_IF) != 0;
            with_loop += count_op(chosen, SB_IR_OP_LOOP) != 0;
            with_call += count_op(chosen, SB_IR_OP_CALL) + count_op(chosen, SB_IR_OP_CALLC) != 0;
            struct uniforms u;
            random_uniforms(&u);
            float in[VERTICES][4][4], out1[VERTICES][4][4], out2[VERTICES][4][4];
            memset(in, 0, sizeof(in));
            memset(out1, 0, sizeof(out1));
            memset(out2, 0, sizeof(out2));
            for (uint32_t v = 0; v < VERTICES; v++)
                for (uint32_t reg = 0; reg < 4; reg++)
                    for (uint32_t l = 0; l < 4; l++)
                        in[v][reg][l] = (float)rnd(4) - 1.0f;
            enum sb_result q1, q2;
            run_budget(chosen, &u, VERTICES, (const float (*)[4][4])in, out1, 1u << 16, &q1);
            run_budget(dispatch, &u, VERTICES, (const float (*)[4][4])in, out2, 1u << 18, &q2);
            if (q1 == SB_ERROR_RUN_BUDGET || q2 == SB_ERROR_RUN_BUDGET) {
                budget++;
            } else {
                CHECK(q1 == SB_SUCCESS && q2 == SB_SUCCESS, "program %u: runs %d %d", iter, q1, q2);
                compared++;
                if (memcmp(out1, out2, sizeof(out1))) {
                    CHECK(false, "program %u: structured and dispatch results differ", iter);
                    for (uint32_t at = 0; at < count; at++) {
                        char text[96];
                        static const uint32_t any_descriptors[D_COUNT];
                        struct sb_pica_instruction in_;
                        text[0] = 0;
                        if (sb_pica_decode(code[at], any_descriptors, D_COUNT, &in_, NULL) == SB_SUCCESS)
                            sb_pica_format_instruction(&in_, text, sizeof(text));
                        fprintf(stderr, "  %2u: %08x %s\n", at, code[at], text);
                    }
                    for (uint32_t v = 0; v < VERTICES; v++)
                        fprintf(stderr, "  v%u: o0.x %g/%g o1.x %g/%g\n", v, out1[v][0][0], out2[v][0][0],
                                out1[v][1][0], out2[v][1][0]);
                }
            }
        }
        sb_ir_program_destroy(chosen);
        sb_ir_program_destroy(dispatch);
        if (g_failures > 20)
            break;
    }
    printf("pica_lower_random: %u programs, %u structured (with IF %u, LOOP %u, CALL %u; %u compared "
           "bit-exactly with the dispatch loop, %u over the budget), %u refused as beyond the stacks\n",
           PROGRAMS, structured, with_if, with_loop, with_call, compared, budget, unsupported);
    CHECK(compared > PROGRAMS / 20, "too few structured programs compared: %u", compared);
    random_words(PROGRAMS / 2);
    if (g_failures) {
        fprintf(stderr, "%d check(s) failed\n", g_failures);
        return 1;
    }
    return 0;
}
