/* SPDX-License-Identifier: MIT */
/*
 * PICA200 semantics of the IR (IR.md §PICA200 programs), with programs built directly in
 * C: every PICA op and register file in fast float32 mode and in float24-exact mode (both
 * rounding choices), run on the interpreter and checked against C references written
 * with plain float arithmetic and sb_pica_f32_round, and against the ../shared/docs/pica200.md §14
 * vectors and the §6.3 special-value table; the uniform files (c# direct and relative
 * through a0.x, a0.y and aL with the §8 rules, i#, b#), SETEMIT state, a vertex shader
 * (input rounding), and the errors of a program that reads uniforms without the uniform
 * buffer. With --gpu the same programs are translated (spirv-val clean) and dispatched on
 * the Vulkan device, and every result word must equal the interpreter's (exit 77 without
 * a device).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pica_ir_harness.h"
#include "shaderbridge/interp.h"
#include "translator/pica_float24.h"
#include "shaderbridge/translate.h"

static unsigned failures, cases;
static unsigned long long gpu_words;
static bool gpu_mode, gpu_skipped;
static uint32_t mode; /* pica_flags of the programs being built */

#define CHECK(cond, ...)                                                                  \
    do {                                                                                  \
        cases++;                                                                          \
        if (!(cond)) {                                                                    \
            if (failures < 40) {                                                          \
                fprintf(stderr, "%s:%d: [mode 0x%x] check failed: %s: ", __FILE__, __LINE__, mode, #cond); \
                fprintf(stderr, __VA_ARGS__);                                             \
                fprintf(stderr, "\n");                                                    \
            }                                                                             \
            failures++;                                                                   \
        }                                                                                 \
    } while (0)

static float F(uint32_t u)
{
    float f;
    memcpy(&f, &u, 4);
    return f;
}

static uint32_t U(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

#define NANF 0x7FC00000u
#define INF 0x7F800000u
#define NINF 0xFF800000u
#define SUB 0x207FFF00u  /* largest float24 subnormal */
#define NORM 0x20800000u /* smallest float24 normal */

/* Runs on the interpreter and, with --gpu, on the device: every word must agree. */
static bool run(const struct pb *b, const struct pb_uniforms *u, const uint32_t *in, uint32_t threads, uint32_t *out,
                const char *name)
{
    /* Both the program as built and its lowering keep the structural promises (sb_ir_validate);
     * the SETEMIT test reads the state temp beyond temp_count on purpose. */
    struct sb_error err = { 0 };
    struct sb_ir_program *lowered = NULL;
    if (strcmp(name, "setemit"))
        CHECK(sb_ir_validate(&b->program, &err) == SB_SUCCESS, "%s: sb_ir_validate: %s", name, err.message);
    CHECK(sb_ir_pica_lower(&b->program, &lowered, &err) == SB_SUCCESS, "%s: lowering: %s", name, err.message);
    if (lowered)
        CHECK(sb_ir_validate(lowered, &err) == SB_SUCCESS, "%s: lowered: sb_ir_validate: %s", name, err.message);
    sb_ir_program_destroy(lowered);
    if (!pb_run_interp(b, u, in, threads, out)) {
        CHECK(false, "%s: interpreter run failed", name);
        return false;
    }
    if (!gpu_mode)
        return true;
    uint32_t *g = calloc((size_t)threads * 4, sizeof(uint32_t));
    bool skipped = false;
    if (!g)
        return false;
    if (!pb_run_gpu(b, u, in, threads, g, &skipped)) {
        if (skipped)
            gpu_skipped = true;
        else
            CHECK(false, "%s: GPU run failed", name);
        free(g);
        return true;
    }
    unsigned shown = 0;
    for (uint32_t i = 0; i < threads * 4; i++) {
        if (g[i] != out[i] && shown++ < 4)
            fprintf(stderr, "%s [mode 0x%x]: thread %u lane %u: interpreter 0x%08x, GPU 0x%08x\n", name, mode, i / 4,
                    i % 4, out[i], g[i]);
    }
    CHECK(!shown, "%s: %u GPU words differ from the interpreter", name, shown);
    gpu_words += (unsigned long long)threads * 4;
    free(g);
    return true;
}

/* ---- C references ----------------------------------------------------------------------- */

static uint32_t flush(uint32_t x)
{
    return (x & 0x7FFFFFFFu) < NORM ? 0 : x;
}

static uint32_t fix(uint32_t x)
{
    if (mode & SB_IR_PICA_FLOAT24)
        return sb_pica_f32_round(x, (mode & SB_IR_PICA_ROUND_TRUNCATE) != 0, true);
    return isnan(F(x)) ? NANF : flush(x);
}

static uint32_t lmul(uint32_t a, uint32_t b)
{
    float p = F(a) * F(b);
    if (isnan(p) && !isnan(F(a)) && !isnan(F(b)))
        p = 0.0f;
    return U(p);
}

static uint32_t pmax(uint32_t a, uint32_t b)
{
    uint32_t r = F(b) < F(a) ? a : b;
    if (!(mode & SB_IR_PICA_MAX_EMULATOR) && isinf(F(b)))
        r = b;
    return r;
}

static int32_t ftoi(uint32_t x)
{
    float f = F(x);
    if (isnan(f))
        return 0;
    if (f >= 2147483648.0f)
        return INT32_MAX;
    if (f < -2147483648.0f)
        return INT32_MIN;
    return (int32_t)f;
}

static bool compare(uint32_t op, uint32_t a, uint32_t b)
{
    float x = F(a), y = F(b);
    switch (op) {
    case 0: return x == y;
    case 1: return x != y;
    case 2: return x < y;
    case 3: return x <= y;
    case 4: return x > y;
    case 5: return x >= y;
    default: return true;
    }
}

/* ---- programs --------------------------------------------------------------------------- */

enum test_op {
    T_ADD, T_MUL, T_MAD, T_DP3, T_DP4, T_DPH, T_DST, T_SGE, T_SLT, T_MIN, T_MAX, T_FLR,
    T_RCP, T_RSQ, T_EX2, T_LG2, T_CMP, T_MOVA, T_LITP, T_COUNT
};
static const char *const op_names[T_COUNT] = {
    "add", "mul", "mad", "dp3", "dp4", "dph", "dst", "sge", "slt", "min", "max", "flr",
    "rcp", "rsq", "ex2", "lg2", "cmp", "mova", "litp",
};

/* r3 <- op(r0, r1[, r2]); CMP with compare ops (cx, cy); flags/address moved into r3. */
static void build_op(struct pb *b, enum test_op t, uint32_t cx, uint32_t cy)
{
    static const uint32_t ir_op[T_COUNT] = {
        SB_IR_OP_ADD, SB_IR_OP_MUL, SB_IR_OP_MAD, SB_IR_OP_DP3, SB_IR_OP_DP4, SB_IR_OP_DPH, SB_IR_OP_DST,
        SB_IR_OP_SGE, SB_IR_OP_SLT, SB_IR_OP_MIN, SB_IR_OP_MAX, SB_IR_OP_ROUND_NI, SB_IR_OP_RCP, SB_IR_OP_RSQ,
        SB_IR_OP_EXP, SB_IR_OP_LOG, SB_IR_OP_PICA_CMP, SB_IR_OP_PICA_MOVA, SB_IR_OP_PICA_LITP,
    };
    pb_begin_compute(b, mode);
    struct sb_ir_operand d = pb_rd(3, 0xF), a = pb_r(0, "xyzw"), c = pb_r(1, "xyzw"), e = pb_r(2, "xyzw");
    struct sb_ir_operand zero = pb_imm4(0, 0, 0, 0);
    uint32_t legacy = SB_IR_FLAG_LEGACY_MUL;
    switch (t) {
    case T_ADD: case T_SGE: case T_SLT: case T_MIN: case T_MAX:
        pb_emit(b, ir_op[t], 0, &d, 2, &a, &c, NULL);
        break;
    case T_MUL: case T_DP3: case T_DP4: case T_DPH: case T_DST:
        pb_emit(b, ir_op[t], legacy, &d, 2, &a, &c, NULL);
        break;
    case T_MAD:
        pb_emit(b, ir_op[t], legacy, &d, 3, &a, &c, &e);
        break;
    case T_FLR: case T_LITP:
        pb_emit(b, ir_op[t], 0, &d, 1, &a, NULL, NULL);
        if (t == T_LITP) { /* r3.z (0 from LITP) <- cmp.x | cmp.y << 1 */
            struct sb_ir_operand fx = pb_reg(SB_IR_FILE_PICA_CONDITION, 0, "x"),
                                 fy = pb_reg(SB_IR_FILE_PICA_CONDITION, 0, "y"), one = pb_imm4(1, 1, 1, 1),
                                 two = pb_imm4(2, 2, 2, 2), t4 = pb_rd(4, 1), t4y = pb_rd(4, 2),
                                 s4x = pb_r(4, "x"), s4y = pb_r(4, "y"), d3z = pb_rd(3, 4);
            pb_emit(b, SB_IR_OP_AND, 0, &t4, 2, &fx, &one, NULL);
            pb_emit(b, SB_IR_OP_AND, 0, &t4y, 2, &fy, &two, NULL);
            pb_emit(b, SB_IR_OP_OR, 0, &d3z, 2, &s4x, &s4y, NULL);
        }
        break;
    case T_RCP: case T_RSQ: case T_EX2: case T_LG2: {
        struct sb_ir_operand ax = pb_r(0, "x");
        pb_emit(b, ir_op[t], 0, &d, 1, &ax, NULL, NULL);
        break;
    }
    case T_CMP: {
        struct sb_ir_instruction *i = pb_emit(b, ir_op[t], 0, NULL, 2, &a, &c, NULL);
        i->compare[0] = cx;
        i->compare[1] = cy;
        struct sb_ir_operand flags = pb_reg(SB_IR_FILE_PICA_CONDITION, 0, "xyxy"), d2 = pb_rd(3, 3), dz = pb_rd(3, 12);
        pb_emit(b, SB_IR_OP_MOV, 0, &d2, 1, &flags, NULL, NULL);
        pb_emit(b, SB_IR_OP_MOV, 0, &dz, 1, &zero, NULL, NULL);
        break;
    }
    case T_MOVA: {
        struct sb_ir_operand ad = pb_dst(SB_IR_FILE_PICA_ADDRESS, 0, 3), as = pb_reg(SB_IR_FILE_PICA_ADDRESS, 0, "xyxy"),
                             d2 = pb_rd(3, 3), dz = pb_rd(3, 12);
        pb_emit(b, ir_op[t], 0, &ad, 1, &a, NULL, NULL);
        pb_emit(b, SB_IR_OP_MOV, 0, &d2, 1, &as, NULL, NULL);
        pb_emit(b, SB_IR_OP_MOV, 0, &dz, 1, &zero, NULL, NULL);
        break;
    }
    default:
        break;
    }
    pb_end_compute(b);
}

/* The reference result of one thread. */
static void reference(enum test_op t, const uint32_t *in, uint32_t cx, uint32_t cy, uint32_t out[4])
{
    const uint32_t *a = in, *b = in + 4, *c = in + 8;
    uint32_t fa[4], fb[4], fc[4];
    for (int i = 0; i < 4; i++) {
        fa[i] = flush(a[i]);
        fb[i] = flush(b[i]);
        fc[i] = flush(c[i]);
    }
    const float M = 127.99609375f;
    switch (t) {
    case T_ADD: for (int i = 0; i < 4; i++) out[i] = fix(U(F(fa[i]) + F(fb[i]))); break;
    case T_MUL: for (int i = 0; i < 4; i++) out[i] = fix(lmul(fa[i], fb[i])); break;
    case T_MAD:
        for (int i = 0; i < 4; i++) {
            uint32_t p = lmul(fa[i], fb[i]);
            if (mode & SB_IR_PICA_FLOAT24)
                p = fix(p);
            out[i] = fix(U(F(p) + F(fc[i])));
        }
        break;
    case T_DP3: case T_DP4: case T_DPH: {
        uint32_t n = t == T_DP3 ? 3 : 4;
        if (t == T_DPH)
            fa[3] = U(1.0f);
        float s = F(lmul(fa[0], fb[0])) + F(lmul(fa[1], fb[1]));
        for (uint32_t k = 2; k < n; k++)
            s = s + F(lmul(fa[k], fb[k]));
        out[0] = out[1] = out[2] = out[3] = fix(U(s));
        break;
    }
    case T_DST:
        out[0] = fix(U(1.0f));
        out[1] = fix(lmul(fa[1], fb[1]));
        out[2] = fix(fa[2]);
        out[3] = fix(fb[3]);
        break;
    case T_SGE: for (int i = 0; i < 4; i++) out[i] = F(a[i]) >= F(b[i]) ? U(1.0f) : 0; break;
    case T_SLT: for (int i = 0; i < 4; i++) out[i] = F(a[i]) < F(b[i]) ? U(1.0f) : 0; break;
    case T_MIN: for (int i = 0; i < 4; i++) out[i] = F(a[i]) < F(b[i]) ? a[i] : b[i]; break;
    case T_MAX: for (int i = 0; i < 4; i++) out[i] = pmax(a[i], b[i]); break;
    case T_FLR: for (int i = 0; i < 4; i++) out[i] = fix(U(floorf(F(fa[i])))); break;
    case T_CMP:
        out[0] = compare(cx, a[0], b[0]) ? 0xFFFFFFFFu : 0;
        out[1] = compare(cy, a[1], b[1]) ? 0xFFFFFFFFu : 0;
        if ((mode & SB_IR_PICA_CMP67_KEEP) && cx >= 6)
            out[0] = 0;
        if ((mode & SB_IR_PICA_CMP67_KEEP) && cy >= 6)
            out[1] = 0;
        out[2] = out[3] = 0;
        break;
    case T_MOVA:
        out[0] = (uint32_t)ftoi(a[0]);
        out[1] = (uint32_t)ftoi(a[1]);
        out[2] = out[3] = 0;
        break;
    case T_LITP: {
        out[0] = 0.0f < F(a[0]) ? a[0] : 0;
        uint32_t y = -M < F(a[1]) ? a[1] : U(-M);
        out[1] = F(y) < M ? y : U(M);
        out[2] = (F(a[0]) >= 0.0f ? 1u : 0u) | (F(a[3]) >= 0.0f ? 2u : 0u);
        out[3] = 0.0f < F(a[3]) ? a[3] : 0;
        break;
    }
    default: /* the transcendental ops are checked by tolerance */
        break;
    }
}

/* ---- inputs ------------------------------------------------------------------------------ */

static uint64_t rng = 0x9E3779B97F4A7C15ull;

static uint32_t next(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (uint32_t)(rng >> 11);
}

static const uint32_t specials[] = {
    0, 0x80000000u, 0x3F800000u, 0xBF800000u, INF, NINF, NANF, 0xFFC00000u, SUB, NORM, 0xA0800000u,
    0x3F000000u, 0x40000000u, 0x4B000000u, 0x5F7FFF80u, 0x5F800000u, 0x42FFFE00u, 0x43480000u, 0xC3480000u,
    0x3FC00000u, 0xBFC00000u, 0x40800000u, 0x3D800000u, 0x00000001u, 0x1F000000u,
};

/* A float24-exact value (so that reads round nothing) or, now and then, a special. */
static uint32_t value(void)
{
    uint32_t r = next();
    if (r % 4 == 0)
        return specials[next() % (sizeof(specials) / sizeof(specials[0]))];
    uint32_t exp = 127 - 70 + next() % 141; /* 2^-70 .. 2^70 */
    uint32_t bits = (r & 0x80000000u) | (exp << 23) | (next() & 0x7FFFFFu);
    if (r % 4 == 1) /* small integers and halves for FLR / CMP / MOVA */
        bits = U((float)((int32_t)(next() % 401) - 200) * 0.5f);
    return r % 4 == 2 ? sb_pica_f32_round(bits, false, false) : bits;
}

/* ---- the op sweep -------------------------------------------------------------------------- */

static bool within(uint32_t got, double want, double rel)
{
    double g = F(got);
    if (isnan(want))
        return isnan(g);
    if (isinf(want))
        return g == want;
    if (want == 0)
        return g == 0;
    return fabs(g - want) <= rel * fabs(want);
}

static void check_transcendental(enum test_op t, const uint32_t *in, const uint32_t *out)
{
    uint32_t x = flush(in[0]);
    double v = F(x), want;
    switch (t) {
    case T_RCP: want = 1.0 / (v == 0 ? 0.0 : v); break;
    case T_RSQ: want = v < 0 || isnan(v) ? NAN : v == 0 ? INFINITY : 1.0 / sqrt(v); break;
    case T_EX2: want = exp2(v); break;
    default: want = v < 0 || isnan(v) ? NAN : v == 0 ? -INFINITY : log2(v); break;
    }
    if (!isnan(want) && !isinf(want) && fabs(want) < ldexp(1.0, -62))
        want = 0;
    if (!isnan(want) && fabs(want) >= ldexp(1.0, (mode & SB_IR_PICA_FLOAT24) ? 64 : 128))
        want = want > 0 ? INFINITY : -INFINITY;
    /* float24: half an ulp of rounding (2^-17, 2^-16 truncated) + the approximation */
    double rel = (mode & SB_IR_PICA_FLOAT24) ? ldexp(1.0, -15) : ldexp(1.0, -20);
    if (t == T_LG2 && fabs(want) < 0.01)
        rel = ldexp(1.0, -12); /* near 1 the result is small: relative error grows */
    if (t == T_EX2 && fabs(v) > 16)
        rel *= fabs(v) / 16; /* the fraction of a large x carries fewer bits */
    for (int i = 0; i < 4; i++)
        CHECK(within(out[i], want, rel) || (fabs(want) < ldexp(1.0, -60) && out[i] == 0),
              "%s(0x%08x = %g) lane %d = 0x%08x (%g), want %g", op_names[t], in[0], v, i, out[i], F(out[i]), want);
}

static void sweep(void)
{
    enum { THREADS = 256 };
    static uint32_t in[THREADS * 12], out[THREADS * 4];
    static struct pb b;
    struct pb_uniforms u;
    memset(&u, 0, sizeof(u));
    for (int t = 0; t < T_COUNT; t++) {
        uint32_t cx = (uint32_t)t % 8, cy = ((uint32_t)t * 3 + 1) % 8;
        for (uint32_t i = 0; i < THREADS * 12; i++)
            in[i] = value();
        for (uint32_t i = 0; i < THREADS; i++) /* shared lanes make equal / ordered pairs likely */
            if (i % 3 == 0)
                in[i * 12 + 4] = in[i * 12 + (i % 2)];
        build_op(&b, (enum test_op)t, cx, cy);
        if (!run(&b, &u, in, THREADS, out, op_names[t]))
            continue;
        for (uint32_t i = 0; i < THREADS; i++) {
            if (t >= T_RCP && t <= T_LG2) {
                check_transcendental((enum test_op)t, &in[i * 12], &out[i * 4]);
                continue;
            }
            uint32_t want[4];
            reference((enum test_op)t, &in[i * 12], cx, cy, want);
            for (int k = 0; k < 4; k++)
                CHECK(out[i * 4 + k] == want[k], "%s thread %u lane %d: inputs 0x%08x 0x%08x 0x%08x: got 0x%08x, want 0x%08x",
                      op_names[t], i, k, in[i * 12 + k], in[i * 12 + 4 + k], in[i * 12 + 8 + k], out[i * 4 + k], want[k]);
        }
    }
}

/* ---- ../shared/docs/pica200.md §14 and the §6.3 special-value table --------------------------------- */

struct vector_case {
    enum test_op op;
    float a[4], b[4], c[4];
    float want;            /* lane x; NAN = any NaN */
    double tolerance;      /* absolute; < 0: relative -tolerance */
};

#define V1(x) { x, 0, 0, 0 }
#define V4(x) { x, x, x, x }

static const struct vector_case vectors[] = {
    { T_ADD, V1(1), V1(-1), V1(0), 0, 0 }, { T_ADD, V1(0), V1(-0.0f), V1(0), 0, 0 },
    { T_ADD, V1(INFINITY), V1(-INFINITY), V1(0), NAN, 0 }, { T_ADD, V1(INFINITY), V1(1), V1(0), INFINITY, 0 },
    { T_ADD, V1(INFINITY), V1(-1), V1(0), INFINITY, 0 },
    { T_MUL, V1(1), V1(-1), V1(0), -1, 0 }, { T_MUL, V1(-1), V1(1), V1(0), -1, 0 },
    { T_MUL, V1(INFINITY), V1(0), V1(0), 0, 0 }, { T_MUL, V1(NAN), V1(0), V1(0), NAN, 0 },
    { T_MUL, V1(INFINITY), V1(INFINITY), V1(0), INFINITY, 0 },
    { T_MUL, V1(INFINITY), V1(-INFINITY), V1(0), -INFINITY, 0 },
    { T_DP3, V4(INFINITY), V4(0), V4(0), 0, 0 }, { T_DP4, V4(INFINITY), V4(0), V4(0), 0, 0 },
    { T_DPH, V4(INFINITY), V4(0), V4(0), 0, 0 }, { T_DP3, V4(NAN), V4(0), V4(0), NAN, 0 },
    { T_DP4, V4(NAN), V4(0), V4(0), NAN, 0 }, { T_DPH, V4(NAN), V4(0), V4(0), NAN, 0 },
    { T_DP3, V4(1), V4(1), V4(0), 3, 0 }, { T_DP4, V4(1), V4(1), V4(0), 4, 0 }, { T_DPH, V4(1), V4(1), V4(0), 4, 0 },
    { T_DPH, V4(0), V4(1), V4(0), 1, 0 },
    { T_SGE, V1(INFINITY), V1(0), V1(0), 1, 0 }, { T_SGE, V1(0), V1(INFINITY), V1(0), 0, 0 },
    { T_SGE, V1(NAN), V1(0), V1(0), 0, 0 }, { T_SGE, V1(0), V1(NAN), V1(0), 0, 0 },
    { T_SGE, V1(INFINITY), V1(INFINITY), V1(0), 1, 0 }, { T_SGE, V1(INFINITY), V1(-INFINITY), V1(0), 1, 0 },
    { T_SGE, V1(-INFINITY), V1(INFINITY), V1(0), 0, 0 }, { T_SGE, V1(1), V1(-1), V1(0), 1, 0 },
    { T_SGE, V1(-1), V1(1), V1(0), 0, 0 },
    { T_SLT, V1(INFINITY), V1(0), V1(0), 0, 0 }, { T_SLT, V1(0), V1(INFINITY), V1(0), 1, 0 },
    { T_SLT, V1(NAN), V1(0), V1(0), 0, 0 }, { T_SLT, V1(0), V1(NAN), V1(0), 0, 0 },
    { T_SLT, V1(INFINITY), V1(INFINITY), V1(0), 0, 0 }, { T_SLT, V1(INFINITY), V1(-INFINITY), V1(0), 0, 0 },
    { T_SLT, V1(-INFINITY), V1(INFINITY), V1(0), 1, 0 }, { T_SLT, V1(1), V1(-1), V1(0), 0, 0 },
    { T_SLT, V1(-1), V1(1), V1(0), 1, 0 },
    { T_FLR, V1(0.5f), V1(0), V1(0), 0, 0 }, { T_FLR, V1(-0.5f), V1(0), V1(0), -1, 0 },
    { T_FLR, V1(1.5f), V1(0), V1(0), 1, 0 }, { T_FLR, V1(-1.5f), V1(0), V1(0), -2, 0 },
    { T_FLR, V1(NAN), V1(0), V1(0), NAN, 0 }, { T_FLR, V1(INFINITY), V1(0), V1(0), INFINITY, 0 },
    { T_MAX, V1(1), V1(0), V1(0), 1, 0 }, { T_MAX, V1(0), V1(1), V1(0), 1, 0 },
    { T_MAX, V1(0), V1(INFINITY), V1(0), INFINITY, 0 }, { T_MAX, V1(0), V1(NAN), V1(0), NAN, 0 },
    { T_MAX, V1(NAN), V1(0), V1(0), 0, 0 }, { T_MAX, V1(-INFINITY), V1(INFINITY), V1(0), INFINITY, 0 },
    { T_MAX, V1(0), V1(-INFINITY), V1(0), -INFINITY, 0 }, /* [HW] table; Panda3DS */
    { T_MIN, V1(1), V1(0), V1(0), 0, 0 }, { T_MIN, V1(0), V1(1), V1(0), 0, 0 },
    { T_MIN, V1(0), V1(INFINITY), V1(0), 0, 0 }, { T_MIN, V1(0), V1(-INFINITY), V1(0), -INFINITY, 0 },
    { T_MIN, V1(0), V1(NAN), V1(0), NAN, 0 }, { T_MIN, V1(NAN), V1(0), V1(0), 0, 0 },
    { T_MIN, V1(-INFINITY), V1(INFINITY), V1(0), -INFINITY, 0 },
    { T_RCP, V1(0), V1(0), V1(0), INFINITY, 0 }, { T_RCP, V1(-0.0f), V1(0), V1(0), INFINITY, 0 },
    { T_RCP, V1(INFINITY), V1(0), V1(0), 0, 0 }, { T_RCP, V1(NAN), V1(0), V1(0), NAN, 0 },
    { T_RCP, V1(16), V1(0), V1(0), 0.0625f, 0.001 }, { T_RCP, V1(8), V1(0), V1(0), 0.125f, 0.001 },
    { T_RCP, V1(4), V1(0), V1(0), 0.25f, 0.001 }, { T_RCP, V1(2), V1(0), V1(0), 0.5f, 0.001 },
    { T_RCP, V1(1), V1(0), V1(0), 1, 0.001 }, { T_RCP, V1(0.5f), V1(0), V1(0), 2, 0.001 },
    { T_RCP, V1(0.25f), V1(0), V1(0), 4, 0.001 }, { T_RCP, V1(0.125f), V1(0), V1(0), 8, 0.002 },
    { T_RCP, V1(0.0625f), V1(0), V1(0), 16, 0.004 },
    { T_RSQ, V1(-2), V1(0), V1(0), NAN, 0 }, { T_RSQ, V1(INFINITY), V1(0), V1(0), 0, 0 },
    { T_RSQ, V1(-INFINITY), V1(0), V1(0), NAN, 0 }, { T_RSQ, V1(NAN), V1(0), V1(0), NAN, 0 },
    { T_RSQ, V1(-0.0f), V1(0), V1(0), INFINITY, 0 }, { T_RSQ, V1(0), V1(0), V1(0), INFINITY, 0 },
    { T_RSQ, V1(16), V1(0), V1(0), 0.25f, 0.001 }, { T_RSQ, V1(8), V1(0), V1(0), 0.35355339f, 0.001 },
    { T_RSQ, V1(4), V1(0), V1(0), 0.5f, 0.001 }, { T_RSQ, V1(2), V1(0), V1(0), 0.70710678f, 0.001 },
    { T_RSQ, V1(1), V1(0), V1(0), 1, 0.001 }, { T_RSQ, V1(0.5f), V1(0), V1(0), 1.41421356f, 0.001 },
    { T_RSQ, V1(0.25f), V1(0), V1(0), 2, 0.001 }, { T_RSQ, V1(0.125f), V1(0), V1(0), 2.82842712f, 0.002 },
    { T_RSQ, V1(0.0625f), V1(0), V1(0), 4, 0.004 },
    { T_LG2, V1(NAN), V1(0), V1(0), NAN, 0 }, { T_LG2, V1(-1), V1(0), V1(0), NAN, 0 },
    { T_LG2, V1(0), V1(0), V1(0), -INFINITY, 0 }, { T_LG2, V1(4), V1(0), V1(0), 2, 0 },
    { T_LG2, V1(64), V1(0), V1(0), 6, 0 }, { T_LG2, V1(1e24f), V1(0), V1(0), 79.7262742773f, -1e-4 },
    { T_EX2, V1(NAN), V1(0), V1(0), NAN, 0 }, { T_EX2, V1(-800), V1(0), V1(0), 0, 1e-30 },
    { T_EX2, V1(0), V1(0), V1(0), 1, 0 }, { T_EX2, V1(2), V1(0), V1(0), 4, 0 }, { T_EX2, V1(6), V1(0), V1(0), 64, 0 },
    { T_EX2, V1(79.7262742773f), V1(0), V1(0), 1e24f, -1e-3 }, { T_EX2, V1(800), V1(0), V1(0), INFINITY, 0 },
    { T_MAD, V4(0), V4(0), V4(0), 0, 0 }, { T_MAD, V4(1), V4(1), V4(1), 2, 0 },
    { T_MAD, V4(INFINITY), V4(0), V4(0), 0, 0 }, { T_MAD, V4(NAN), V4(0), V4(0), NAN, 0 },
};

static void vector_tests(void)
{
    enum { THREADS = 64 };
    static uint32_t in[THREADS * 12], out[THREADS * 4];
    static struct pb b;
    struct pb_uniforms u;
    memset(&u, 0, sizeof(u));
    size_t count = sizeof(vectors) / sizeof(vectors[0]);
    for (int t = 0; t < T_COUNT; t++) {
        memset(in, 0, sizeof(in));
        uint32_t slots = 0, index[THREADS];
        for (size_t v = 0; v < count && slots < THREADS; v++) {
            if (vectors[v].op != (enum test_op)t)
                continue;
            for (int k = 0; k < 4; k++) {
                in[slots * 12 + k] = U(vectors[v].a[k]);
                in[slots * 12 + 4 + k] = U(vectors[v].b[k]);
                in[slots * 12 + 8 + k] = U(vectors[v].c[k]);
            }
            index[slots++] = (uint32_t)v;
        }
        if (!slots)
            continue;
        build_op(&b, (enum test_op)t, 0, 0);
        if (!run(&b, &u, in, THREADS, out, op_names[t]))
            continue;
        for (uint32_t s = 0; s < slots; s++) {
            const struct vector_case *c = &vectors[index[s]];
            uint32_t lanes = t == T_MAD ? 4 : 1;
            for (uint32_t k = 0; k < lanes; k++) {
                float got = F(out[s * 4 + k]);
                double want = c->want;
                bool ok;
                if ((mode & SB_IR_PICA_FLOAT24) && fabs(want) >= ldexp(1.0, 64))
                    want = copysign(INFINITY, want); /* ex2(79.73) = 1e24 is beyond float24 (Azahar computes in float32) */
                if (isnan(c->want))
                    ok = isnan(got);
                else if (isinf(want))
                    ok = got == want;
                else if (c->tolerance < 0)
                    ok = fabs((double)got - want) <= -c->tolerance * fabs(want);
                else
                    ok = got == want || fabs((double)got - want) <= c->tolerance;
                CHECK(ok, "§14 %s(%g, %g, %g) lane %u = %g (0x%08x), want %g", op_names[t], c->a[k], c->b[k], c->c[k], k,
                      got, out[s * 4 + k], c->want);
                if (c->want == 0 && !isnan(got))
                    CHECK(out[s * 4 + k] == 0 || (t == T_ADD), "§6.1 no -0: %s lane %u = 0x%08x", op_names[t], k,
                          out[s * 4 + k]);
            }
        }
    }
}

/* §6.3 subnormal rows and §14.3 LITP (hardware test). */
static void special_tests(void)
{
    enum { THREADS = 64 };
    static uint32_t in[THREADS * 12], out[THREADS * 4];
    static struct pb b;
    struct pb_uniforms u;
    memset(&u, 0, sizeof(u));
    memset(in, 0, sizeof(in));
    /* mul(s, 2) = 0; mul(n, 0.5) = 0 */
    in[0] = SUB, in[4] = U(2.0f), in[12] = NORM, in[16] = U(0.5f);
    build_op(&b, T_MUL, 0, 0);
    if (run(&b, &u, in, THREADS, out, "mul subnormal"))
        CHECK(out[0] == 0 && out[4] == 0, "mul(s, 2) = 0x%08x, mul(n, 0.5) = 0x%08x", out[0], out[4]);
    /* max(s, 0) = s */
    build_op(&b, T_MAX, 0, 0);
    in[0] = SUB, in[4] = 0;
    if (run(&b, &u, in, THREADS, out, "max subnormal"))
        CHECK(out[0] == SUB, "max(s, 0) = 0x%08x", out[0]);
    /* cmp(s, 0): not equal (no flush) */
    build_op(&b, T_CMP, 0, 1);
    in[0] = SUB, in[1] = SUB, in[4] = 0, in[5] = 0;
    if (run(&b, &u, in, THREADS, out, "cmp subnormal"))
        CHECK(out[0] == 0 && out[1] == 0xFFFFFFFFu, "cmp(s, 0): eq 0x%08x ne 0x%08x", out[0], out[1]);
    /* 1.0 halved 63 times (§6.1): after 62 halvings 2^-62 is still normal, the 63rd gives 0 */
    /* LITP vectors (§14.3): input -> cmp.x, cmp.y, r2 when both false */
    static const struct { float in[4]; int cx, cy; float r[4]; } litp[] = {
        { { 1, 0, 0, 1 }, 1, 1, { 1, 0, 0, 1 } },
        { { -0.5f, 1, 0, 1 }, 0, 1, { 0, 1, 0, 1 } },
        { { 0.5f, 0, 1, -1 }, 1, 0, { 0.5f, 0, 0, 0 } },
        { { -1, 64, 0, -1 }, 0, 0, { 0, 64, 0, 0 } },
        { { -1, 256, 1, -1 }, 0, 0, { 0, 127.99609375f, 0, 0 } },
        { { -1, 0, 0.5f, -1 }, 0, 0, { 0, 0, 0, 0 } },
    };
    memset(in, 0, sizeof(in));
    for (uint32_t i = 0; i < 6; i++)
        for (int k = 0; k < 4; k++)
            in[i * 12 + k] = U(litp[i].in[k]);
    build_op(&b, T_LITP, 0, 0);
    if (run(&b, &u, in, THREADS, out, "litp")) {
        for (uint32_t i = 0; i < 6; i++) {
            uint32_t flags = out[i * 4 + 2];
            CHECK((int)(flags & 1) == litp[i].cx && (int)(flags >> 1) == litp[i].cy, "LITP %u flags %u", i, flags);
            CHECK(F(out[i * 4]) == litp[i].r[0] && F(out[i * 4 + 1]) == litp[i].r[1] && F(out[i * 4 + 3]) == litp[i].r[3],
                  "LITP %u = (%g, %g, _, %g)", i, F(out[i * 4]), F(out[i * 4 + 1]), F(out[i * 4 + 3]));
        }
    }
}

/* Halving 1.0: 62 times stays 2^-62, 63 times flushes to 0 (§6.1), as a MUL chain. */
static void halving(void)
{
    enum { THREADS = 64 };
    static uint32_t in[THREADS * 12], out[THREADS * 4];
    static struct pb b;
    struct pb_uniforms u;
    memset(&u, 0, sizeof(u));
    pb_begin_compute(&b, mode);
    struct sb_ir_operand d = pb_rd(3, 0xF), r3 = pb_r(3, "xyzw"), half = pb_immf(0.5f), one = pb_immf(1.0f);
    pb_emit(&b, SB_IR_OP_MOV, 0, &d, 1, &one, NULL, NULL);
    for (int i = 0; i < 62; i++)
        pb_emit(&b, SB_IR_OP_MUL, SB_IR_FLAG_LEGACY_MUL, &d, 2, &r3, &half, NULL);
    struct sb_ir_operand dy = pb_rd(3, 2);
    pb_emit(&b, SB_IR_OP_MUL, SB_IR_FLAG_LEGACY_MUL, &dy, 2, &r3, &half, NULL);
    pb_end_compute(&b);
    memset(in, 0, sizeof(in));
    if (run(&b, &u, in, THREADS, out, "halving"))
        CHECK(out[0] == NORM && out[1] == 0, "1/2^62 = 0x%08x, 1/2^63 = 0x%08x", out[0], out[1]);
}

/* ---- uniform files ------------------------------------------------------------------------ */

static void uniform_tests(void)
{
    enum { THREADS = 128 };
    static uint32_t in[THREADS * 12], out[THREADS * 4];
    static struct pb b;
    static struct pb_uniforms u;
    memset(&u, 0, sizeof(u));
    for (uint32_t i = 0; i < 96; i++) {
        uint32_t v = sb_pica_f32_round(U(2.0f * (float)i / 255.0f), false, false);
        u.words[i * 4] = u.words[i * 4 + 1] = u.words[i * 4 + 2] = v;
        u.words[i * 4 + 3] = U(1.0f);
    }
    for (uint32_t i = 0; i < 16; i++)
        u.words[SB_IR_PICA_UNIFORM_INT_VECTOR * 4 + i] = 3 * i + 1;
    u.words[SB_IR_PICA_UNIFORM_BOOL_VECTOR * 4] = 0xA5C3u;

    /* Uniform Read (§14.1): MOVA a0.x, v0.x; MOV o0, c0[a0.x], input i + (i mod 17)/17. */
    for (uint32_t lane = 0; lane < 3; lane++) {
        pb_begin_compute(&b, mode);
        struct sb_ir_operand a = pb_r(0, "xyzw"), ad = pb_dst(SB_IR_FILE_PICA_ADDRESS, 0, lane == 1 ? 2 : 1);
        if (lane == 2) { /* aL: an integer write to PICA_ADDRESS.z */
            struct sb_ir_operand t = pb_rd(4, 1), al = pb_dst(SB_IR_FILE_PICA_ADDRESS, 0, 4), s = pb_r(4, "x");
            pb_emit(&b, SB_IR_OP_FTOI, 0, &t, 1, &a, NULL, NULL);
            pb_emit(&b, SB_IR_OP_MOV, 0, &al, 1, &s, NULL, NULL);
        } else {
            struct sb_ir_operand src = pb_r(0, lane == 1 ? "xxxx" : "xyzw");
            pb_emit(&b, SB_IR_OP_PICA_MOVA, 0, &ad, 1, &src, NULL, NULL);
        }
        struct sb_ir_operand d = pb_rd(3, 0xF), c = pb_crel(&b, 0, lane, "xyzw");
        pb_emit(&b, SB_IR_OP_MOV, 0, &d, 1, &c, NULL, NULL);
        pb_end_compute(&b);
        memset(in, 0, sizeof(in));
        for (uint32_t i = 0; i < 96; i++)
            in[i * 12] = U((float)i + (float)(i % 17) / 17.0f);
        if (run(&b, &u, in, THREADS, out, "uniform read"))
            for (uint32_t i = 0; i < 96; i++)
                for (int k = 0; k < 4; k++)
                    CHECK(out[i * 4 + k] == u.words[i * 4 + k], "c[a0.%c = %u] lane %d = 0x%08x", "xyz"[lane], i, k,
                          out[i * 4 + k]);
    }

    /* Address Register Offset (§8, base c40). */
    static const struct { int32_t offset; int32_t reg; } offsets[] = {
        { 0, 40 }, { 13, 53 }, { 50, 90 }, { 60, -1 }, { 74, -1 }, { 87, -1 }, { 88, 0 }, { 128, 40 },
        { -40, 0 }, { -42, -1 }, { -70, -1 }, { -73, 95 }, { -127, 41 }, { -129, 40 },
    };
    pb_begin_compute(&b, mode);
    struct sb_ir_operand a = pb_r(0, "xyzw"), ad = pb_dst(SB_IR_FILE_PICA_ADDRESS, 0, 1);
    pb_emit(&b, SB_IR_OP_PICA_MOVA, 0, &ad, 1, &a, NULL, NULL);
    struct sb_ir_operand d = pb_rd(3, 0xF), c = pb_crel(&b, 40, 0, "xyzw");
    pb_emit(&b, SB_IR_OP_MOV, 0, &d, 1, &c, NULL, NULL);
    pb_end_compute(&b);
    memset(in, 0, sizeof(in));
    size_t n = sizeof(offsets) / sizeof(offsets[0]);
    for (size_t i = 0; i < n; i++)
        in[i * 12] = U((float)offsets[i].offset);
    if (run(&b, &u, in, THREADS, out, "address offset"))
        for (size_t i = 0; i < n; i++)
            for (int k = 0; k < 4; k++) {
                uint32_t want = offsets[i].reg < 0 ? U(1.0f) : u.words[offsets[i].reg * 4 + k];
                CHECK(out[i * 4 + k] == want, "c[a0.x = %d + 40] lane %d = 0x%08x, want 0x%08x", offsets[i].offset, k,
                      out[i * 4 + k], want);
            }

    /* i# and b#: r3 = i2 (raw lanes); r3.xy = b5, b6 (0 / 1); a relative c# with a swizzle and negation. */
    pb_begin_compute(&b, mode);
    struct sb_ir_operand i2 = pb_reg(SB_IR_FILE_PICA_INT_UNIFORM, 2, "xyzw"), b5 = pb_reg(SB_IR_FILE_PICA_BOOL_UNIFORM, 5, "x"),
                         b6 = pb_reg(SB_IR_FILE_PICA_BOOL_UNIFORM, 6, "x"), dx = pb_rd(3, 1), dy = pb_rd(3, 2),
                         dz = pb_rd(3, 4), dw = pb_rd(3, 8), d4 = pb_rd(4, 0xF), c7 = pb_reg(SB_IR_FILE_PICA_FLOAT_UNIFORM, 7, "wzyx"),
                         d5 = pb_rd(5, 0xF), s4 = pb_r(4, "xyzw"), s5 = pb_r(5, "yyyy");
    pb_emit(&b, SB_IR_OP_MOV, 0, &d4, 1, &i2, NULL, NULL);
    pb_emit(&b, SB_IR_OP_MOV, 0, &dx, 1, &b5, NULL, NULL);
    pb_emit(&b, SB_IR_OP_MOV, 0, &dy, 1, &b6, NULL, NULL);
    struct sb_ir_operand s4z = pb_r(4, "zzzz");
    pb_emit(&b, SB_IR_OP_MOV, 0, &dz, 1, &s4z, NULL, NULL);
    struct sb_ir_operand nc7 = pb_neg(c7);
    pb_emit(&b, SB_IR_OP_MOV, 0, &d5, 1, &nc7, NULL, NULL);
    pb_emit(&b, SB_IR_OP_MOV, 0, &dw, 1, &s5, NULL, NULL);
    (void)s4;
    pb_end_compute(&b);
    memset(in, 0, sizeof(in));
    if (run(&b, &u, in, THREADS, out, "int/bool uniforms")) {
        CHECK(out[0] == ((0xA5C3u >> 5) & 1) && out[1] == ((0xA5C3u >> 6) & 1), "b5 %u b6 %u", out[0], out[1]);
        CHECK(out[2] == 3 * 10 + 1, "i2.z = %u", out[2]);
        CHECK(out[3] == (u.words[7 * 4 + 2] ^ 0x80000000u), "-c7.z = 0x%08x", out[3]);
    }
}

/* SETEMIT state (§14.1 "SETEMIT"): read back from the documented state temp r(T+2). */
static void setemit_tests(void)
{
    enum { THREADS = 64 };
    static uint32_t in[THREADS * 12], out[THREADS * 4];
    static struct pb b;
    struct pb_uniforms u;
    memset(&u, 0, sizeof(u));
    memset(in, 0, sizeof(in));
    for (uint32_t f = 0; f < 16; f++) {
        uint32_t winding = f & 1, prim = (f >> 1) & 1, vtx = f >> 2;
        pb_begin_compute(&b, mode);
        struct sb_ir_instruction *i = pb_emit(&b, SB_IR_OP_PICA_SETEMIT, (winding ? SB_IR_FLAG_PICA_WINDING : 0) |
                                                                             (prim ? SB_IR_FLAG_PICA_PRIMITIVE : 0),
                                              NULL, 0, NULL, NULL, NULL);
        i->stream = vtx;
        struct sb_ir_operand d = pb_rd(3, 7), state = pb_r(PB_TEMPS + 2, "xyzw");
        pb_emit(&b, SB_IR_OP_MOV, 0, &d, 1, &state, NULL, NULL);
        pb_end_compute(&b);
        if (run(&b, &u, in, THREADS, out, "setemit"))
            CHECK(out[0] == vtx && out[1] == winding && out[2] == prim, "SETEMIT %u %u %u read back %u %u %u", vtx, winding,
                  prim, out[0], out[1], out[2]);
    }
}

/* A vertex shader: inputs are rounded in float24 mode, uniforms feed a legacy MUL. */
static void vertex_tests(void)
{
    static struct pb b;
    memset(&b, 0, sizeof(b));
    struct sb_ir_program *p = &b.program;
    p->source = SB_IR_SOURCE_PICA;
    p->stage = SB_IR_STAGE_VERTEX;
    p->temp_count = PB_TEMPS;
    p->pica_flags = mode;
    b.resources[0] = (struct sb_ir_resource){ .resource_class = SB_IR_RESOURCE_CBV, .id = 0, .count = 1,
                                              .cb_size = SB_IR_PICA_UNIFORM_VECTORS };
    p->resources = b.resources;
    p->resource_count = 1;
    b.signature[0] = (struct sb_ir_signature_element){ .kind = SB_IR_SIGNATURE_INPUT, .semantic = "TEXCOORD",
                                                       .file = SB_IR_FILE_INPUT, .mask = 0xF, .used_mask = 0xF,
                                                       .component_type = SB_IR_TYPE_FLOAT };
    b.signature[1] = (struct sb_ir_signature_element){ .kind = SB_IR_SIGNATURE_OUTPUT, .semantic = "SV_Position",
                                                       .system_value = 1, .file = SB_IR_FILE_OUTPUT, .mask = 0xF,
                                                       .used_mask = 0xF, .component_type = SB_IR_TYPE_FLOAT };
    b.signature[2] = (struct sb_ir_signature_element){ .kind = SB_IR_SIGNATURE_OUTPUT, .semantic = "TEXCOORD",
                                                       .register_index = 1, .file = SB_IR_FILE_OUTPUT, .mask = 0xF,
                                                       .used_mask = 0xF, .component_type = SB_IR_TYPE_FLOAT };
    p->signature = b.signature;
    p->signature_count = 3;
    struct sb_ir_operand o0 = pb_dst(SB_IR_FILE_OUTPUT, 0, 0xF), o1 = pb_dst(SB_IR_FILE_OUTPUT, 1, 0xF),
                         v0 = pb_reg(SB_IR_FILE_INPUT, 0, "xyzw"), c0 = pb_reg(SB_IR_FILE_PICA_FLOAT_UNIFORM, 0, "xyzw");
    pb_emit(&b, SB_IR_OP_MOV, 0, &o0, 1, &v0, NULL, NULL);
    pb_emit(&b, SB_IR_OP_MUL, SB_IR_FLAG_LEGACY_MUL, &o1, 2, &v0, &c0, NULL);
    b.functions[0] = (struct sb_ir_function){ .id = 0xFFFFFFFFu, .instruction_count = b.count[0],
                                              .instructions = b.instructions[0], .temp_count = PB_TEMPS };
    p->functions = b.functions;
    p->function_count = 1;

    struct pb_uniforms u;
    memset(&u, 0, sizeof(u));
    u.words[0] = U(2.0f), u.words[1] = U(0.0f), u.words[2] = U(1.0f + 1.0f / 1048576.0f), u.words[3] = U(1.0f);
    uint32_t in[8] = { U(1.0f + 1.0f / 1048576.0f), U(INFINITY), U(3.0f), 0x00000001u, U(-1.0f), 0, 0, 0 };
    uint32_t out[16] = { 0 };
    struct sb_rt_resource res = { .resource_class = SB_IR_RESOURCE_CBV, .data = u.words, .size = sizeof(u.words),
                                  .layers = 1, .mip_levels = 1, .sample_count = 1 };
    struct sb_interp_registers ri = { .registers = 1, .words = in }, ro = { .registers = 2, .words = out };
    struct sb_error err = { 0 };
    enum sb_result r = sb_interp_run_vertices(p, &res, 1, 2, &ri, &ro, NULL, NULL, &err);
    CHECK(r == SB_SUCCESS, "vertex run: %s", err.message);
    if (r == SB_SUCCESS) {
        bool f24 = (mode & SB_IR_PICA_FLOAT24) != 0;
        CHECK(out[0] == (f24 ? U(1.0f) : U(1.0f + 1.0f / 1048576.0f)), "o0.x = 0x%08x (input rounding)", out[0]);
        CHECK(out[3] == (f24 ? 0x00000000u : 0x00000000u), "o0.w = 0x%08x (a float32 denormal input reads as 0)", out[3]);
        CHECK(out[5] == 0, "o1.y = inf * 0 = 0x%08x", out[5]);
        uint32_t want = f24 ? sb_pica_f32_round(U(3.0f), false, true) : U(3.0f * (1.0f + 1.0f / 1048576.0f));
        CHECK(out[6] == want, "o1.z = 0x%08x, want 0x%08x", out[6], want);
    }
    struct sb_translate_options opt = { .target_env = SB_TARGET_VULKAN_1_1, .flags = SB_TRANSLATE_VALIDATE };
    struct sb_translation *t = NULL;
    r = sb_translate_ir(p, &opt, &t, &err);
    CHECK(r == SB_SUCCESS, "vertex translation: %s", err.message);
    if (r == SB_SUCCESS)
        CHECK(t->binding_count == 1 && t->bindings[0].set == 0 && t->bindings[0].binding == 0 &&
                  t->bindings[0].descriptor_type == 6,
              "uniform buffer binding");
    sb_translation_destroy(t);

    /* Without the uniform buffer: a structured error from every consumer. */
    p->resource_count = 0;
    struct sb_ir_program *lowered = NULL;
    r = sb_ir_pica_lower(p, &lowered, &err);
    CHECK(r == SB_ERROR_TRANSLATE_INVALID && !lowered && err.offset == b.instructions[0][1].offset,
          "lowering without cb0: %d at %llu", r, (unsigned long long)err.offset);
    r = sb_translate_ir(p, &opt, &t, &err);
    CHECK(r == SB_ERROR_TRANSLATE_INVALID, "translation without cb0: %d", r);
    r = sb_interp_run_vertices(p, NULL, 0, 2, &ri, &ro, NULL, NULL, &err);
    CHECK(r == SB_ERROR_TRANSLATE_INVALID, "interpreter without cb0: %d", r);

    /* i4 and b16 do not exist; a uniform is no destination; a lowered program lowers to itself. */
    p->resource_count = 1;
    struct sb_ir_operand bad[3] = { pb_reg(SB_IR_FILE_PICA_INT_UNIFORM, 4, "xyzw"),
                                    pb_reg(SB_IR_FILE_PICA_BOOL_UNIFORM, 16, "x"), c0 };
    for (int k = 0; k < 3; k++) {
        struct sb_ir_operand ops[2] = { k == 2 ? pb_dst(SB_IR_FILE_PICA_FLOAT_UNIFORM, 1, 0xF) : o0, bad[k] };
        struct sb_ir_instruction inst = { .op = SB_IR_OP_MOV, .offset = 12, .dst_count = 1, .src_count = 1,
                                          .dst = &ops[0], .src = &ops[1] };
        struct sb_ir_function fn = { .id = 0xFFFFFFFFu, .instruction_count = 1, .instructions = &inst,
                                     .temp_count = PB_TEMPS };
        p->functions = &fn;
        lowered = NULL;
        memset(&err, 0, sizeof(err));
        r = sb_ir_pica_lower(p, &lowered, &err);
        CHECK(r == SB_ERROR_TRANSLATE_INVALID && !lowered && err.offset == 12 && err.message[0],
              "bad operand %d: %d at %llu: %s", k, r, (unsigned long long)err.offset, err.message);
        sb_ir_program_destroy(lowered);
    }
    p->functions = b.functions;
    struct sb_ir_program *again = NULL;
    r = sb_ir_pica_lower(p, &lowered, &err);
    if (r == SB_SUCCESS) {
        CHECK(sb_ir_pica_lower(lowered, &again, &err) == SB_SUCCESS && again->functions == lowered->functions,
              "lowering a lowered program copies it");
        sb_ir_program_destroy(again);
        /* The pass stage: lowers (and validates) a PICA program once; a lowered one passes
         * through unchanged (out NULL); NULL arguments are refused. */
        again = NULL;
        r = sb_ir_run_passes(p, SB_IR_PASSES_VALIDATE, &again, &err);
        CHECK(r == SB_SUCCESS && again && (again->pica_flags & SB_IR_PICA_LOWERED) &&
                  again->function_count == lowered->function_count &&
                  again->functions[0].instruction_count == lowered->functions[0].instruction_count,
              "sb_ir_run_passes lowers a PICA program: %s", err.message);
        sb_ir_program_destroy(again);
        again = p;
        CHECK(sb_ir_run_passes(lowered, SB_IR_PASSES_VALIDATE, &again, &err) == SB_SUCCESS && !again,
              "sb_ir_run_passes leaves a lowered program as it is");
        CHECK(sb_ir_run_passes(NULL, 0, &again, &err) == SB_ERROR_INVALID_ARGUMENT && !again &&
                  err.instr == UINT32_MAX,
              "sb_ir_run_passes refuses NULL");
    }
    sb_ir_program_destroy(lowered);
}

int main(int argc, char **argv)
{
    gpu_mode = argc > 1 && !strcmp(argv[1], "--gpu");
    static const uint32_t modes[] = {
        0, SB_IR_PICA_FLOAT24, SB_IR_PICA_FLOAT24 | SB_IR_PICA_ROUND_TRUNCATE,
        SB_IR_PICA_MAX_EMULATOR | SB_IR_PICA_CMP67_KEEP,
    };
    for (size_t m = 0; m < sizeof(modes) / sizeof(modes[0]); m++) {
        mode = modes[m];
        sweep();
        if (m < 3)
            vector_tests();
        special_tests();
        halving();
        uniform_tests();
        setemit_tests();
        if (!gpu_mode)
            vertex_tests();
    }
    pb_gpu_shutdown();
    if (gpu_mode && gpu_skipped && !gpu_words) {
        printf("SKIPPED: no Vulkan device\n");
        return 77;
    }
    printf("%u checks, %u failure(s); %llu GPU words compared bit-exactly with the interpreter\n", cases, failures,
           gpu_words);
    return failures ? 1 : 0;
}
