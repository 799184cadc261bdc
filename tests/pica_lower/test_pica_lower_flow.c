/* SPDX-License-Identifier: MIT */
/*
 * sb_ir_from_pica on our own programs (instruction words from sb_pica_encode):
 * every flow-control form is lowered, checked with sb_ir_validate, checked
 * for the path it must take (structured IF/LOOP/CALL or the dispatch loop
 * that replays ../shared/docs/pica200.md §7.2), and run on the CPU interpreter against
 * the result §7.2 prescribes — including the programs whose scopes do not
 * nest (shared loop ends, jumps into an IF, backward jumps), the §14.1 CALL,
 * Conditional and Nested Loop vectors, stack limits, GS ops, MAX/MIN and
 * DVLE constants.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pica_lower_util.h"
#include "shaderbridge/translate.h"

#define N(a) ((uint32_t)(sizeof(a) / sizeof((a)[0])))
#define F24_ONE 0x3F0000u

static struct sb_ir_program *lower_ok(const uint32_t *code, uint32_t count, uint32_t outputs,
                                      const char *name)
{
    struct prog p = { code, count, 0, false, outputs, UINT32_MAX, { 0, 0, 0, 0 }, 0 };
    enum sb_result r;
    struct sb_error e;
    memset(&e, 0, sizeof(e));
    struct sb_ir_program *ir = lower_prog(&p, &r, &e);
    CHECK(ir != NULL, "%s: lowering failed (%d): %s", name, r, e.message);
    /* Structured or dispatch, the back end must give valid SPIR-V for every target. */
    for (int env = SB_TARGET_VULKAN_1_0; ir && env <= SB_TARGET_VULKAN_1_3; env++) {
        struct sb_translate_options options = { .target_env = (enum sb_target_env)env,
                                                .flags = SB_TRANSLATE_VALIDATE };
        struct sb_translation *t = NULL;
        r = sb_translate_ir(ir, &options, &t, &e);
        CHECK(r == SB_SUCCESS, "%s: translation for env %d: %s", name, env, e.message);
        sb_translation_destroy(t);
    }
    return ir;
}

/* Fills c[k] = (k, k, k, k) so c[aL] reads aL back. */
static void identity_uniforms(struct uniforms *u)
{
    memset(u, 0, sizeof(*u));
    for (int k = 0; k < 96; k++)
        for (int l = 0; l < 4; l++)
            u->c[k][l] = (float)k;
}

static void set_in(float (*in)[4][4], uint32_t v, uint32_t reg, float x, float y)
{
    in[v][reg][0] = x;
    in[v][reg][1] = y;
}

/* §14.1 "Conditional": every CONDOP, REFX, REFY against every cmp.x, cmp.y. */
static void test_conditions(void)
{
    for (uint32_t op = 0; op < 4; op++)
        for (uint32_t refs = 0; refs < 4; refs++) {
            bool refx = refs & 1, refy = refs & 2;
            const uint32_t code[] = {
                w_alu(SB_PICA_OP_MOV, R(0), V(3), NONE, D_XYZW),
                w_cmp(V(1), SB_PICA_COMPARE_EQ, SB_PICA_COMPARE_EQ, V(2)),
                w_f2(SB_PICA_OP_IFC, 5, 2, (enum sb_pica_condition_op)op, refx, refy),
                w_alu(SB_PICA_OP_MOV, O(0), V(0), NONE, D_XYZW),
                w_op0(SB_PICA_OP_END),
                w_alu(SB_PICA_OP_MOV, O(0), R(0), NONE, D_XYZW),
                w_op0(SB_PICA_OP_END),
            };
            struct sb_ir_program *ir = lower_ok(code, N(code), 1, "conditions");
            if (!ir)
                continue;
            CHECK(!is_dispatch(ir) && count_op(ir, SB_IR_OP_IF) == 1, "IFC not structured");
            float in[4][4][4], out[4][4][4];
            memset(in, 0, sizeof(in));
            memset(out, 0, sizeof(out));
            for (uint32_t v = 0; v < 4; v++) {
                set_in(in, v, 0, 1.0f, 1.0f);
                set_in(in, v, 1, (float)(v & 1), (float)(v >> 1));
                set_in(in, v, 2, 1.0f, 1.0f);
            }
            struct uniforms u;
            identity_uniforms(&u);
            CHECK(run(ir, &u, 4, (const float (*)[4][4])in, out), "run");
            for (uint32_t v = 0; v < 4; v++) {
                bool x_ok = (v & 1) == (uint32_t)refx, y_ok = (v >> 1) == (uint32_t)refy;
                bool cond = op == 0 ? (x_ok || y_ok) : op == 1 ? (x_ok && y_ok) : op == 2 ? x_ok : y_ok;
                CHECK(out[v][0][0] == (cond ? 1.0f : 0.0f), "condop %u refs %u cmp %u: got %g", op,
                      refs, v, out[v][0][0]);
            }
            sb_ir_program_destroy(ir);
        }
}

/* Nested IFU with an else block: r0 collects which blocks ran. */
static void test_nested_ifu(void)
{
    const uint32_t code[] = {
        w_alu(SB_PICA_OP_MOV, R(0), V(3), NONE, D_XYZW),
        w_f3(SB_PICA_OP_IFU, 5, 3, 0),
        w_f3(SB_PICA_OP_IFU, 4, 0, 1),
        w_alu(SB_PICA_OP_ADD, R(0), R(0), V(0), D_XYZW),
        w_alu(SB_PICA_OP_ADD, R(0), R(0), V(1), D_XYZW),
        w_alu(SB_PICA_OP_ADD, R(0), R(0), V(2), D_XYZW),
        w_op0(SB_PICA_OP_NOP),
        w_op0(SB_PICA_OP_NOP),
        w_alu(SB_PICA_OP_MOV, O(0), R(0), NONE, D_XYZW),
        w_op0(SB_PICA_OP_END),
    };
    struct sb_ir_program *ir = lower_ok(code, N(code), 1, "nested ifu");
    if (!ir)
        return;
    CHECK(!is_dispatch(ir) && count_op(ir, SB_IR_OP_IF) == 2 && count_op(ir, SB_IR_OP_ELSE) == 1,
          "nested IFU not structured");
    static const float expect[4] = { 100, 10, 100, 11 }; /* b = none, b0, b1, both */
    for (uint32_t b = 0; b < 4; b++) {
        float in[1][4][4], out[1][4][4];
        memset(in, 0, sizeof(in));
        memset(out, 0, sizeof(out));
        set_in(in, 0, 0, 1, 0);
        set_in(in, 0, 1, 10, 0);
        set_in(in, 0, 2, 100, 0);
        struct uniforms u;
        identity_uniforms(&u);
        u.b = b;
        CHECK(run(ir, &u, 1, (const float (*)[4][4])in, out), "run");
        CHECK(out[0][0][0] == expect[b], "b=%u: got %g want %g", b, out[0][0][0], expect[b]);
    }
    sb_ir_program_destroy(ir);
}

/*
 * §14.1 "Nested Loop": padded with a NOP the loops nest (structured) and give
 * (x0+1)(x1+1)+1 with aL = (x0+1)·z0; without the NOP both loops end on one
 * instruction, the inner frame takes that end and the outer loop is left
 * after its first pass (§7.2, dispatch loop): x1+2 and aL restored to 0.
 */
static void test_nested_loops(void)
{
    const uint32_t padded[] = {
        w_alu(SB_PICA_OP_MOV, R(0), V(0), NONE, D_XYZW),
        w_f3(SB_PICA_OP_LOOP, 4, 0, 0),
        w_f3(SB_PICA_OP_LOOP, 3, 0, 1),
        w_alu(SB_PICA_OP_ADD, R(0), R(0), V(0), D_XYZW),
        w_op0(SB_PICA_OP_NOP),
        w_alu(SB_PICA_OP_MOV, O(0), R(0), NONE, D_XYZW),
        w_rel(SB_PICA_OP_MOV, O(1), C(0), SB_PICA_RELATIVE_AL, D_XYZW),
        w_op0(SB_PICA_OP_END),
    };
    const uint32_t shared_end[] = {
        w_alu(SB_PICA_OP_MOV, R(0), V(0), NONE, D_XYZW),
        w_f3(SB_PICA_OP_LOOP, 3, 0, 0),
        w_f3(SB_PICA_OP_LOOP, 3, 0, 1),
        w_alu(SB_PICA_OP_ADD, R(0), R(0), V(0), D_XYZW),
        w_alu(SB_PICA_OP_MOV, O(0), R(0), NONE, D_XYZW),
        w_rel(SB_PICA_OP_MOV, O(1), C(0), SB_PICA_RELATIVE_AL, D_XYZW),
        w_op0(SB_PICA_OP_END),
    };
    for (int variant = 0; variant < 2; variant++) {
        struct sb_ir_program *ir = variant ? lower_ok(shared_end, N(shared_end), 2, "shared end")
                                           : lower_ok(padded, N(padded), 2, "nested loops");
        if (!ir)
            continue;
        CHECK(is_dispatch(ir) == (variant == 1), "variant %d: dispatch %d", variant, is_dispatch(ir));
        static const uint32_t x0s[2] = { 4, 9 }, z0s[2] = { 1, 2 }, x1s[2] = { 4, 7 };
        for (int k = 0; k < 8; k++) {
            uint32_t x0 = x0s[k & 1], z0 = z0s[(k >> 1) & 1], x1 = x1s[k >> 2];
            struct uniforms u;
            identity_uniforms(&u);
            u.i[0][0] = x0;
            u.i[0][2] = z0;
            u.i[1][0] = x1;
            u.i[1][2] = 1;
            float in[1][4][4], out[1][4][4];
            memset(in, 0, sizeof(in));
            memset(out, 0, sizeof(out));
            set_in(in, 0, 0, 1, 0);
            CHECK(run(ir, &u, 1, (const float (*)[4][4])in, out), "run");
            float want = variant ? (float)(x1 + 2) : (float)((x0 + 1) * (x1 + 1) + 1);
            float want_al = variant ? 0.0f : (float)((x0 + 1) * z0);
            CHECK(out[0][0][0] == want, "variant %d x0 %u x1 %u: o0.x %g want %g", variant, x0, x1,
                  out[0][0][0], want);
            CHECK(out[0][1][0] == want_al, "variant %d x0 %u z0 %u: aL %g want %g", variant, x0, z0,
                  out[0][1][0], want_al);
        }
        sb_ir_program_destroy(ir);
    }
}

/* BREAKC leaves the loop with aL stepped once more (§7.2 step 5). */
static void test_breakc(void)
{
    const uint32_t code[] = {
        w_alu(SB_PICA_OP_MOV, R(0), V(3), NONE, D_XYZW),
        w_f3(SB_PICA_OP_LOOP, 5, 0, 0),
        w_alu(SB_PICA_OP_ADD, R(0), R(0), V(0), D_XYZW),
        w_cmp(R(0), SB_PICA_COMPARE_GE, SB_PICA_COMPARE_GE, V(1)),
        w_f2(SB_PICA_OP_BREAKC, 0, 0, SB_PICA_CONDITION_X, true, true),
        w_op0(SB_PICA_OP_NOP),
        w_alu(SB_PICA_OP_MOV, O(0), R(0), NONE, D_XYZW),
        w_rel(SB_PICA_OP_MOV, O(1), C(0), SB_PICA_RELATIVE_AL, D_XYZW),
        w_op0(SB_PICA_OP_END),
    };
    struct sb_ir_program *ir = lower_ok(code, N(code), 2, "breakc");
    if (!ir)
        return;
    CHECK(!is_dispatch(ir) && count_op(ir, SB_IR_OP_LOOP) == 1 && count_op(ir, SB_IR_OP_BREAK) == 1,
          "BREAKC loop not structured");
    struct uniforms u;
    identity_uniforms(&u);
    u.i[0][0] = 9;
    u.i[0][2] = 1;
    float in[2][4][4], out[2][4][4];
    memset(in, 0, sizeof(in));
    memset(out, 0, sizeof(out));
    set_in(in, 0, 0, 1, 0);
    set_in(in, 0, 1, 3, 3);
    set_in(in, 1, 0, 1, 0);
    set_in(in, 1, 1, 50, 50); /* never reached: all 10 passes run */
    CHECK(run(ir, &u, 2, (const float (*)[4][4])in, out), "run");
    CHECK(out[0][0][0] == 3.0f && out[0][1][0] == 3.0f, "break: r0 %g aL %g", out[0][0][0], out[0][1][0]);
    CHECK(out[1][0][0] == 10.0f && out[1][1][0] == 10.0f, "no break: r0 %g aL %g", out[1][0][0],
          out[1][1][0]);
    sb_ir_program_destroy(ir);
}

/* §14.1 CALL: both frames end at 3 and pop in one step (dispatch: the inner CALL ends a range). */
static void test_call_vector(void)
{
    const uint32_t code[] = {
        w_f2(SB_PICA_OP_CALL, 2, 1, SB_PICA_CONDITION_OR, false, false),
        w_op0(SB_PICA_OP_END),
        w_f2(SB_PICA_OP_CALL, 4, 1, SB_PICA_CONDITION_OR, false, false),
        w_op0(SB_PICA_OP_END),
        w_alu(SB_PICA_OP_EX2, O(0), V(0), NONE, D_XYZW),
        w_op0(SB_PICA_OP_END),
    };
    struct sb_ir_program *ir = lower_ok(code, N(code), 1, "call vector");
    if (!ir)
        return;
    CHECK(is_dispatch(ir), "a CALL ending its caller's range must use the dispatch loop");
    struct uniforms u;
    identity_uniforms(&u);
    float in[1][4][4], out[1][4][4];
    memset(in, 0, sizeof(in));
    memset(out, 0, sizeof(out));
    CHECK(run(ir, &u, 1, (const float (*)[4][4])in, out), "run");
    CHECK(fabsf(out[0][0][0] - 1.0f) < 1e-6f, "ex2(0) via two calls: %g", out[0][0][0]);
    sb_ir_program_destroy(ir);
}

/* Nested subroutines (one function per range, shared by two call sites), CALLU, END in a callee. */
static void test_calls(void)
{
    const uint32_t code[] = {
        w_alu(SB_PICA_OP_MOV, R(0), V(3), NONE, D_XYZW),       /* 0 */
        w_f2(SB_PICA_OP_CALL, 6, 3, SB_PICA_CONDITION_OR, false, false),
        w_f3(SB_PICA_OP_CALLU, 10, 2, 0),
        w_f3(SB_PICA_OP_CALLU, 12, 2, 1),                        /* ends in the callee */
        w_alu(SB_PICA_OP_MOV, O(0), R(0), NONE, D_XYZW),
        w_op0(SB_PICA_OP_END),                                   /* 5 */
        w_alu(SB_PICA_OP_ADD, R(0), R(0), V(0), D_XYZW),       /* 6: f */
        w_f2(SB_PICA_OP_CALL, 10, 2, SB_PICA_CONDITION_OR, false, false),
        w_op0(SB_PICA_OP_NOP),
        w_op0(SB_PICA_OP_NOP),
        w_alu(SB_PICA_OP_ADD, R(0), R(0), V(1), D_XYZW),       /* 10: g */
        w_op0(SB_PICA_OP_NOP),
        w_alu(SB_PICA_OP_MOV, O(0), V(2), NONE, D_XYZW),       /* 12: h */
        w_op0(SB_PICA_OP_END),
    };
    struct sb_ir_program *ir = lower_ok(code, N(code), 1, "calls");
    if (!ir)
        return;
    CHECK(!is_dispatch(ir) && ir->function_count == 4, "calls: dispatch %d, %u functions",
          is_dispatch(ir), ir->function_count);
    CHECK(count_op(ir, SB_IR_OP_CALLC) == 2 && count_op(ir, SB_IR_OP_CALL) == 2, "call ops");
    static const float expect[4] = { 11, 21, 100, 100 };
    for (uint32_t b = 0; b < 4; b++) {
        struct uniforms u;
        identity_uniforms(&u);
        u.b = b;
        float in[1][4][4], out[1][4][4];
        memset(in, 0, sizeof(in));
        memset(out, 0, sizeof(out));
        set_in(in, 0, 0, 1, 0);
        set_in(in, 0, 1, 10, 0);
        set_in(in, 0, 2, 100, 0);
        CHECK(run(ir, &u, 1, (const float (*)[4][4])in, out), "run");
        CHECK(out[0][0][0] == expect[b], "calls b=%u: %g want %g", b, out[0][0][0], expect[b]);
    }
    sb_ir_program_destroy(ir);
}

/* Forward JMPU (an IF around the skipped code) and a backward JMPC (dispatch). */
static void test_jumps(void)
{
    for (uint32_t inverted = 0; inverted < 2; inverted++) {
        const uint32_t code[] = {
            w_alu(SB_PICA_OP_MOV, O(0), V(0), NONE, D_XYZW),
            w_f3(SB_PICA_OP_JMPU, 3, inverted, 0),
            w_alu(SB_PICA_OP_MOV, O(0), V(1), NONE, D_XYZW),
            w_op0(SB_PICA_OP_END),
        };
        struct sb_ir_program *ir = lower_ok(code, N(code), 1, "jmpu");
        if (!ir)
            continue;
        CHECK(!is_dispatch(ir) && count_op(ir, SB_IR_OP_IF) == 1, "forward JMPU not structured");
        for (uint32_t b = 0; b < 2; b++) {
            struct uniforms u;
            identity_uniforms(&u);
            u.b = b;
            float in[1][4][4], out[1][4][4];
            memset(in, 0, sizeof(in));
            memset(out, 0, sizeof(out));
            set_in(in, 0, 0, 1, 0);
            set_in(in, 0, 1, 2, 0);
            CHECK(run(ir, &u, 1, (const float (*)[4][4])in, out), "run");
            bool jumped = inverted ? b == 0 : b == 1;
            CHECK(out[0][0][0] == (jumped ? 1.0f : 2.0f), "jmpu inv %u b %u: %g", inverted, b,
                  out[0][0][0]);
        }
        sb_ir_program_destroy(ir);
    }
    const uint32_t back[] = {
        w_alu(SB_PICA_OP_MOV, R(0), V(3), NONE, D_XYZW),
        w_alu(SB_PICA_OP_ADD, R(0), R(0), V(0), D_XYZW),
        w_cmp(R(0), SB_PICA_COMPARE_LT, SB_PICA_COMPARE_LT, V(1)),
        w_f2(SB_PICA_OP_JMPC, 1, 0, SB_PICA_CONDITION_X, true, true),
        w_alu(SB_PICA_OP_MOV, O(0), R(0), NONE, D_XYZW),
        w_op0(SB_PICA_OP_END),
    };
    struct sb_ir_program *ir = lower_ok(back, N(back), 1, "backward jmpc");
    if (!ir)
        return;
    CHECK(is_dispatch(ir), "backward JMPC must use the dispatch loop");
    struct uniforms u;
    identity_uniforms(&u);
    float in[1][4][4], out[1][4][4];
    memset(in, 0, sizeof(in));
    memset(out, 0, sizeof(out));
    set_in(in, 0, 0, 1, 0);
    set_in(in, 0, 1, 5, 5);
    CHECK(run(ir, &u, 1, (const float (*)[4][4])in, out), "run");
    CHECK(out[0][0][0] == 5.0f, "backward jump loop: %g", out[0][0][0]);
    sb_ir_program_destroy(ir);
}

/*
 * A jump into an IF's then-block: with no IF frame on the stack the else
 * block runs after it; entered through the IFU, the frame skips the else.
 */
static void test_jump_into_if(void)
{
    const uint32_t code[] = {
        w_f3(SB_PICA_OP_JMPU, 3, 0, 0),
        w_f3(SB_PICA_OP_IFU, 4, 1, 1),
        w_op0(SB_PICA_OP_NOP),
        w_alu(SB_PICA_OP_MOV, O(0), V(0), NONE, D_XYZW),
        w_alu(SB_PICA_OP_MOV, O(0), V(1), NONE, D_XYZW),
        w_op0(SB_PICA_OP_END),
    };
    struct sb_ir_program *ir = lower_ok(code, N(code), 1, "jump into if");
    if (!ir)
        return;
    CHECK(is_dispatch(ir), "a jump into an IF must use the dispatch loop");
    static const float expect[4] = { 2, 2, 1, 2 }; /* b0 jumps; b1 takes the then-block */
    for (uint32_t b = 0; b < 4; b++) {
        struct uniforms u;
        identity_uniforms(&u);
        u.b = b;
        float in[1][4][4], out[1][4][4];
        memset(in, 0, sizeof(in));
        memset(out, 0, sizeof(out));
        set_in(in, 0, 0, 1, 0);
        set_in(in, 0, 1, 2, 0);
        CHECK(run(ir, &u, 1, (const float (*)[4][4])in, out), "run");
        CHECK(out[0][0][0] == expect[b], "b=%u: %g want %g", b, out[0][0][0], expect[b]);
    }
    sb_ir_program_destroy(ir);
}

/* Static nesting beyond §7.1's stacks: unsupported, at the offending instruction. */
static void test_limits(void)
{
    uint32_t ifs[19], loops[12], calls[20];
    for (uint32_t k = 0; k < 19; k++)
        ifs[k] = k < 9 ? w_f3(SB_PICA_OP_IFU, 18 - k, 0, 0)
                       : w_op0(k == 18 ? SB_PICA_OP_END : SB_PICA_OP_NOP);
    for (uint32_t k = 0; k < 12; k++)
        loops[k] = k < 5 ? w_f3(SB_PICA_OP_LOOP, 10 - k, 0, 0)
                         : w_op0(k == 11 ? SB_PICA_OP_END : SB_PICA_OP_NOP);
    for (uint32_t k = 0; k < 20; k++)
        calls[k] = w_op0(SB_PICA_OP_NOP);
    calls[0] = w_f2(SB_PICA_OP_CALL, 10, 2, SB_PICA_CONDITION_OR, false, false);
    calls[1] = w_op0(SB_PICA_OP_END);
    for (uint32_t k = 0; k < 4; k++)
        calls[10 + 2 * k] = w_f2(SB_PICA_OP_CALL, 12 + 2 * k, 2, SB_PICA_CONDITION_OR, false, false);
    struct {
        const uint32_t *code;
        uint32_t count, address;
        const char *what;
    } cases[] = { { ifs, 19, 8, "IF" }, { loops, 12, 4, "LOOP" }, { calls, 20, 16, "CALL" } };
    for (uint32_t c = 0; c < 3; c++) {
        struct prog p = { cases[c].code, cases[c].count, 0, false, 1, UINT32_MAX, { 0, 0, 0, 0 }, 0 };
        enum sb_result r;
        struct sb_error e;
        memset(&e, 0, sizeof(e));
        struct sb_ir_program *ir = lower_prog(&p, &r, &e);
        CHECK(!ir && r == SB_ERROR_TRANSLATE_UNSUPPORTED, "%s nesting: result %d", cases[c].what, r);
        CHECK(e.offset == g_code_offset + 4u * cases[c].address, "%s nesting: offset 0x%llx want 0x%x",
              cases[c].what, (unsigned long long)e.offset, g_code_offset + 4u * cases[c].address);
        CHECK(strstr(e.message, cases[c].what) != NULL, "%s nesting: message %s", cases[c].what, e.message);
        sb_ir_program_destroy(ir);
    }
    /* One level less is fine. */
    ifs[8] = w_op0(SB_PICA_OP_NOP);
    struct sb_ir_program *ir = lower_ok(ifs, 19, 1, "8 IFs");
    CHECK(ir && !is_dispatch(ir) && count_op(ir, SB_IR_OP_IF) == 8, "8 nested IFs");
    sb_ir_program_destroy(ir);
}

/* Geometry ops, and EMIT in a vertex shader. */
static void test_geometry(void)
{
    const uint32_t code[] = {
        w_setemit(2, true, true),
        w_alu(SB_PICA_OP_MOV, O(0), V(0), NONE, D_XYZW),
        w_op0(SB_PICA_OP_EMIT),
        w_op0(SB_PICA_OP_END),
    };
    struct prog p = { code, N(code), 0, true, 1, UINT32_MAX, { 0, 0, 0, 0 }, 0 };
    enum sb_result r;
    struct sb_error e;
    struct sb_ir_program *ir = lower_prog(&p, &r, &e);
    CHECK(ir && ir->stage == SB_IR_STAGE_GEOMETRY, "GS lowering: %d", r);
    if (ir) {
        CHECK(count_op(ir, SB_IR_OP_EMIT) == 1 && count_op(ir, SB_IR_OP_PICA_SETEMIT) == 1, "GS ops");
        const struct sb_ir_instruction *set = &ir->functions[0].instructions[1];
        CHECK(set->op == SB_IR_OP_PICA_SETEMIT && set->stream == 2 &&
                  set->flags == (SB_IR_FLAG_PICA_WINDING | SB_IR_FLAG_PICA_PRIMITIVE),
              "SETEMIT fields: op %u stream %u flags 0x%x", set->op, set->stream, set->flags);
    }
    sb_ir_program_destroy(ir);
    p.geometry = false;
    ir = lower_prog(&p, &r, &e);
    CHECK(!ir && r == SB_ERROR_TRANSLATE_INVALID && e.offset == g_code_offset,
          "SETEMIT in a VS: %d at 0x%llx", r, (unsigned long long)e.offset);
    sb_ir_program_destroy(ir);
}

/* MAX/MIN follow ../shared/docs/pica200.md §6.3's table, not D3D's min/max. */
static void test_max_min(void)
{
    const uint32_t code[] = {
        w_alu(SB_PICA_OP_MAX, O(0), V(0), V(1), D_XYZW),
        w_alu(SB_PICA_OP_MIN, O(1), V(0), V(1), D_XYZW),
        w_op0(SB_PICA_OP_END),
    };
    struct sb_ir_program *ir = lower_ok(code, N(code), 2, "max/min");
    if (!ir)
        return;
    const float inf = INFINITY, nan = NAN;
    const float a[] = { 0, nan, 0, 1, -inf, 0 }, b[] = { -inf, 0, nan, 0, inf, inf };
    const float mx[] = { -inf, 0, nan, 1, inf, inf }, mn[] = { -inf, 0, nan, 0, -inf, 0 };
    float in[6][4][4], out[6][4][4];
    memset(in, 0, sizeof(in));
    memset(out, 0, sizeof(out));
    for (uint32_t v = 0; v < 6; v++) {
        set_in(in, v, 0, a[v], 0);
        set_in(in, v, 1, b[v], 0);
    }
    struct uniforms u;
    identity_uniforms(&u);
    CHECK(run(ir, &u, 6, (const float (*)[4][4])in, out), "run");
    for (uint32_t v = 0; v < 6; v++) {
        bool max_ok = isnan(mx[v]) ? isnan(out[v][0][0]) : out[v][0][0] == mx[v];
        bool min_ok = isnan(mn[v]) ? isnan(out[v][1][0]) : out[v][1][0] == mn[v];
        CHECK(max_ok, "max(%g, %g) = %g want %g", a[v], b[v], out[v][0][0], mx[v]);
        CHECK(min_ok, "min(%g, %g) = %g want %g", a[v], b[v], out[v][1][0], mn[v]);
    }
    sb_ir_program_destroy(ir);
}

/* A DVLE constant read directly is an immediate; the program then needs no uniform buffer. */
static void test_constants(void)
{
    const uint32_t code[] = {
        w_alu(SB_PICA_OP_MOV, O(0), C(95), NONE, D_XYZW),
        w_op0(SB_PICA_OP_END),
    };
    struct prog p = { code, N(code), 0, false, 1, 95, { F24_ONE, 0x400000u, 0x408000u, 0xBF0000u }, 0 };
    enum sb_result r;
    struct sb_error e;
    struct sb_ir_program *ir = lower_prog(&p, &r, &e);
    CHECK(ir != NULL, "constant program: %d", r);
    if (!ir)
        return;
    const struct sb_ir_instruction *mov = &ir->functions[0].instructions[1];
    float v[4];
    memcpy(v, mov->src[0].imm, sizeof(v));
    CHECK(mov->op == SB_IR_OP_MOV && mov->src[0].file == SB_IR_FILE_IMMEDIATE && v[0] == 1.0f &&
              v[1] == 2.0f && v[2] == 3.0f && v[3] == -1.0f,
          "c95 constant: file %u (%g %g %g %g)", mov->src[0].file, v[0], v[1], v[2], v[3]);
    CHECK(ir->resource_count == 0, "no uniform buffer needed");
    sb_ir_program_destroy(ir);
    p.float_constant = 94; /* c95 is then a uniform: the buffer is declared */
    ir = lower_prog(&p, &r, &e);
    CHECK(ir && ir->resource_count == 1 && ir->resources[0].cb_size == SB_IR_PICA_UNIFORM_VECTORS,
          "uniform buffer declared");
    sb_ir_program_destroy(ir);
}

/* The mode flags reach the program: float24 mode rounds 1 + 2^-20 to 1 (16-bit mantissa). */
static void test_float24_mode(void)
{
    const uint32_t code[] = {
        w_alu(SB_PICA_OP_ADD, O(0), V(0), V(1), D_XYZW),
        w_op0(SB_PICA_OP_END),
    };
    for (uint32_t mode = 0; mode < 2; mode++) {
        struct prog p = { code, N(code), 0, false, 1, UINT32_MAX, { 0, 0, 0, 0 },
                          mode ? SB_IR_PICA_FLOAT24 : 0u };
        enum sb_result r;
        struct sb_error e;
        struct sb_ir_program *ir = lower_prog(&p, &r, &e);
        CHECK(ir && ir->pica_flags == p.pica_flags, "mode %u: %d", mode, r);
        if (!ir)
            continue;
        struct uniforms u;
        identity_uniforms(&u);
        float in[1][4][4], out[1][4][4];
        memset(in, 0, sizeof(in));
        memset(out, 0, sizeof(out));
        set_in(in, 0, 0, 1.0f, 0);
        set_in(in, 0, 1, ldexpf(1.0f, -20), 0);
        CHECK(run(ir, &u, 1, (const float (*)[4][4])in, out), "run");
        float want = mode ? 1.0f : 1.0f + ldexpf(1.0f, -20);
        CHECK(out[0][0][0] == want, "mode %u: 1 + 2^-20 = %.9g want %.9g", mode, out[0][0][0], want);
        sb_ir_program_destroy(ir);
    }
}

int main(void)
{
    test_conditions();
    test_nested_ifu();
    test_nested_loops();
    test_breakc();
    test_call_vector();
    test_calls();
    test_jumps();
    test_jump_into_if();
    test_limits();
    test_geometry();
    test_max_min();
    test_constants();
    test_float24_mode();
    if (g_failures) {
        fprintf(stderr, "%d check(s) failed\n", g_failures);
        return 1;
    }
    printf("pica_lower_flow: all checks passed\n");
    return 0;
}
