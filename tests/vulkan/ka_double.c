/* SPDX-License-Identifier: MIT */
/*
 * Known-answer cases for D3D's double rules (issue #16): `_sat` on double
 * results and the post-swizzle lane mapping of every double instruction, on
 * every write mask D3D allows, with swizzled registers and d()/l()
 * immediates. One case per op. Each of 4 threads reads its own 8 rows of a
 * dynamically indexed cb0 into r0..r6 (nothing can be folded), runs the op
 * several times into r8..r15 (zeroed first, so unwritten lanes read 0) and
 * stores the eight vec4s with store_raw.
 *
 * Ops with a double result (dmov, dmovc, dadd, dmul, ddiv, dmin, dmax, dfma,
 * drcp; ftod, itod, utod): .xy, .zw and .xyzw from swizzled registers, .zw
 * and .xy from immediates, then (not for the conversions, whose reference
 * pages have no _sat) `_sat` into .xyzw and into .zw from .zwxy sources, on
 * rows whose results are 1.5, -1.5, NaN, inf, -inf, 0.25, 1.0 and 0.75.
 * Ops with a 32-bit result (dtof, dtoi, dtou, deq, dne, dlt, dge): .y, .zw
 * and .xw from swizzled registers, .yz from immediates.
 *
 * Expected values follow D3D's reference pages (dadd, dmov, dmovc, ftod,
 * dtof; ../shared/docs/sm4-tokens.md §5.2): sources are swizzled as 32-bit
 * lanes first; the double written to pair p (xy = 0, zw = 1) takes the
 * swizzled source's double p (a 32-bit source: its swizzled lane p; dmovc's
 * condition: lane p of src0); a 32-bit result's k-th masked component takes
 * swizzled double k. `_sat` clamps to [0, 1] and NaN to 0. The reference
 * below reads those rules only, never the translator's code.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ka_cases.h"
#include "translator/ir.h"

#define DT 4          /* threads */
#define ROWS 8        /* cb0 rows per thread (r0..r6, one spare) */
#define OUTS 8        /* result vec4s per thread (r8..r15) */
#define FIRST_OUT 8
#define SAT_ROW 4     /* _sat rows: r4..r6 for the double slots */

/* What an operand slot holds. */
enum slot { S_D, S_F, S_I, S_U, S_COND };

static const struct dop {
    const char *name;
    uint32_t opcode;
    uint32_t srcs;
    bool double_result;
    uint8_t slot[3];
} ops[] = {
    { "dmov", OP_DMOV, 1, true, { S_D } },
    { "dmovc", OP_DMOVC, 3, true, { S_COND, S_D, S_D } },
    { "dadd", OP_DADD, 2, true, { S_D, S_D } },
    { "dmul", OP_DMUL, 2, true, { S_D, S_D } },
    { "ddiv", OP_DDIV, 2, true, { S_D, S_D } },
    { "dmin", OP_DMIN, 2, true, { S_D, S_D } },
    { "dmax", OP_DMAX, 2, true, { S_D, S_D } },
    { "dfma", OP_DFMA, 3, true, { S_D, S_D, S_D } },
    { "drcp", OP_DRCP, 1, true, { S_D } },
    { "ftod", OP_FTOD, 1, true, { S_F } },
    { "itod", OP_ITOD, 1, true, { S_I } },
    { "utod", OP_UTOD, 1, true, { S_U } },
    { "dtof", OP_DTOF, 1, false, { S_D } },
    { "dtoi", OP_DTOI, 1, false, { S_D } },
    { "dtou", OP_DTOU, 1, false, { S_D } },
    { "deq", OP_DEQ, 2, false, { S_D, S_D } },
    { "dne", OP_DNE, 2, false, { S_D, S_D } },
    { "dlt", OP_DLT, 2, false, { S_D, S_D } },
    { "dge", OP_DGE, 2, false, { S_D, S_D } },
};

/* One emitted instruction: the destination mask, `_sat`, and per source a
 * register + swizzle or (imm) the slot's immediate. */
struct dinst {
    const char *mask;
    bool sat, imm;
    uint32_t reg[3];
    const char *swz[3];
};

static bool is_conversion(const struct dop *op)
{
    return op->slot[0] == S_F || op->slot[0] == S_I || op->slot[0] == S_U;
}

static const char *register_swizzle(const struct dop *op, uint32_t i)
{
    static const char *const doubles[3] = { "zwxy", "zwzw", "xyxy" };
    if (op->slot[i] == S_COND)
        return "yxwz";
    if (op->slot[i] != S_D)
        return "wzyx";
    return op->double_result ? doubles[i] : (i == 0 ? "zwxy" : "xyzw");
}

/* The instructions of a case, in output order; returns how many. */
static uint32_t plan(const struct dop *op, struct dinst out[OUTS])
{
    static const char *const wide[5] = { "xy", "zw", "xyzw", "zw", "xy" };
    static const char *const narrow[4] = { "y", "zw", "xw", "yz" };
    uint32_t n = op->double_result ? 5 : 4;
    memset(out, 0, sizeof(struct dinst) * OUTS);
    for (uint32_t k = 0; k < n; k++) {
        out[k].mask = op->double_result ? wide[k] : narrow[k];
        out[k].imm = k >= 3;
        for (uint32_t i = 0; i < op->srcs; i++) {
            out[k].reg[i] = i;
            out[k].swz[i] = register_swizzle(op, i);
        }
    }
    if (!op->double_result || is_conversion(op))
        return n;
    for (uint32_t k = 5; k < 7; k++) {
        out[k].mask = k == 5 ? "xyzw" : "zw";
        out[k].sat = true;
        for (uint32_t i = 0; i < op->srcs; i++) {
            bool cond = op->slot[i] == S_COND;
            out[k].reg[i] = cond ? i : SAT_ROW + i;
            out[k].swz[i] = cond || k == 5 ? "xyzw" : "zwxy";
        }
    }
    return 7;
}

/* ---- inputs ------------------------------------------------------------ */

static void put_d(uint32_t *o, uint32_t pair, double v)
{
    uint64_t u = ka_d(v);
    o[2 * pair] = (uint32_t)u;
    o[2 * pair + 1] = (uint32_t)(u >> 32);
}

static double get_d(const uint32_t *v, uint32_t pair)
{
    return ka_asd((uint64_t)v[2 * pair] | ((uint64_t)v[2 * pair + 1] << 32));
}

/* Register row of slot i for thread t; doubles differ per pair so a wrong pair shows. */
static void register_row(const struct dop *op, uint32_t i, uint32_t t, uint32_t row[4])
{
    double ft = (double)t;
    switch (op->slot[i]) {
    case S_D:
        if (i == 0) {
            put_d(row, 0, 3.0 + ft);
            put_d(row, 1, -5.5 - ft);
        } else if (i == 1 && !(t & 1)) { /* equal to slot 0 after .zwxy / .xyzw: compares see true */
            put_d(row, 0, -5.5 - ft);
            put_d(row, 1, 3.0 + ft);
        } else if (i == 1) {
            put_d(row, 0, 0.25);
            put_d(row, 1, 8.0 + ft);
        } else {
            put_d(row, 0, -1.0 - ft);
            put_d(row, 1, 0.5);
        }
        break;
    case S_F:
        row[0] = ka_f(1.5f + (float)t);
        row[1] = ka_f(-2.25f);
        row[2] = ka_f(1e30f);
        row[3] = ka_f(7.0f + (float)t);
        break;
    case S_I:
        row[0] = (uint32_t)((int32_t)t - 2);
        row[1] = (uint32_t)-100;
        row[2] = 7;
        row[3] = 123456u + t;
        break;
    case S_U:
        row[0] = t;
        row[1] = 0xFFFFFFF0u;
        row[2] = 7;
        row[3] = 4000000000u;
        break;
    default: /* S_COND */
        row[0] = (t & 1) ? 0 : 0xFFFFFFFFu;
        row[1] = (t & 1) ? 1 : 0;
        row[2] = 5;
        row[3] = 0;
        break;
    }
}

/* Saturate row of double slot i for thread t: the op's result is target(t, pair). */
static double target(uint32_t t, uint32_t pair)
{
    static const double targets[DT][2] = { { 1.5, -1.5 }, { NAN, INFINITY }, { -INFINITY, 0.25 }, { 1.0, 0.75 } };
    return targets[t][pair];
}

static void saturate_row(const struct dop *op, uint32_t i, uint32_t t, uint32_t row[4])
{
    for (uint32_t p = 0; p < 2; p++) {
        double v = target(t, p), x;
        switch (op->opcode) {
        case OP_DADD: x = i == 0 ? v - 0.5 : 0.5; break;
        case OP_DMUL: x = i == 0 ? v / 2.0 : 2.0; break;
        case OP_DDIV: x = i == 0 ? v * 2.0 : 2.0; break;
        case OP_DFMA: x = i == 0 ? v / 2.0 : i == 1 ? 2.0 : 0.0; break;
        case OP_DRCP: x = 1.0 / v; break;
        default: x = v; break; /* dmov, dmovc (both choices), dmin, dmax */
        }
        put_d(row, p, x);
    }
}

/* The immediate of slot i (identity swizzle: its lanes as written). */
static struct sm4_operand immediate(const struct dop *op, uint32_t i, uint32_t lanes[4])
{
    static const double doubles[3][2] = { { 1.25, -2.5 }, { 1.25, 0.5 }, { -3.0, 10.0 } };
    switch (op->slot[i]) {
    case S_D:
        put_d(lanes, 0, doubles[i][0]);
        put_d(lanes, 1, doubles[i][1]);
        return ld2(ka_d(doubles[i][0]), ka_d(doubles[i][1]));
    case S_F: lanes[0] = ka_f(1.5f); lanes[1] = ka_f(-8.0f); lanes[2] = ka_f(3.0f); lanes[3] = ka_f(4.0f); break;
    case S_I: lanes[0] = (uint32_t)-7; lanes[1] = 9; lanes[2] = 0; lanes[3] = 0; break;
    case S_U: lanes[0] = 7; lanes[1] = 0xFFFFFFFFu; lanes[2] = 0; lanes[3] = 0; break;
    default: lanes[0] = 0; lanes[1] = 0xFFFFFFFFu; lanes[2] = 0; lanes[3] = 0; break; /* S_COND */
    }
    return l4(lanes[0], lanes[1], lanes[2], lanes[3]);
}

/* ---- the reference: D3D's rules --------------------------------------- */

static uint32_t lane_of(char c) { return c == 'x' ? 0 : c == 'y' ? 1 : c == 'z' ? 2 : 3; }

static uint32_t mask_bits(const char *mask)
{
    uint32_t bits = 0;
    for (const char *c = mask; *c; c++)
        bits |= 1u << lane_of(*c);
    return bits;
}

static double sat(double v) { return v > 0.0 ? (v < 1.0 ? v : 1.0) : 0.0; }
static double nmin(double a, double b) { return isnan(a) ? b : isnan(b) ? a : a < b ? a : b; }
static double nmax(double a, double b) { return isnan(a) ? b : isnan(b) ? a : a > b ? a : b; }

static uint32_t to_int(double d, bool is_signed)
{
    if (isnan(d))
        return 0;
    if (is_signed)
        return d >= 2147483648.0 ? 0x7FFFFFFFu : d <= -2147483649.0 ? 0x80000000u : (uint32_t)(int32_t)d;
    return d >= 4294967296.0 ? 0xFFFFFFFFu : d <= -1.0 ? 0 : (uint32_t)d;
}

/* A source slot's value at position p, swizzled (a double, or a 32-bit lane widened). */
static double value_at(const struct dop *op, uint32_t i, const uint32_t post[4], uint32_t p)
{
    switch (op->slot[i]) {
    case S_D: return get_d(post, p);
    case S_F: return (double)ka_asf(post[p]);
    case S_I: return (double)(int32_t)post[p];
    case S_U: return (double)post[p];
    default: return post[p] != 0 ? 1.0 : 0.0; /* S_COND */
    }
}

static void reference(const struct dop *op, const struct dinst *in, uint32_t post[3][4], uint32_t out[4])
{
    memset(out, 0, 16);
    uint32_t mask = mask_bits(in->mask);
    if (op->double_result) {
        for (uint32_t p = 0; p < 2; p++) {
            if (!(mask & (3u << (2 * p))))
                continue;
            double a = value_at(op, 0, post[0], p), b = op->srcs > 1 ? value_at(op, 1, post[1], p) : 0.0,
                   c = op->srcs > 2 ? value_at(op, 2, post[2], p) : 0.0, v;
            switch (op->opcode) {
            case OP_DMOVC: v = a != 0.0 ? b : c; break;
            case OP_DADD: v = a + b; break;
            case OP_DMUL: v = a * b; break;
            case OP_DDIV: v = a / b; break;
            case OP_DMIN: v = nmin(a, b); break;
            case OP_DMAX: v = nmax(a, b); break;
            case OP_DFMA: v = fma(a, b, c); break;
            case OP_DRCP: v = 1.0 / a; break;
            default: v = a; break; /* dmov, ftod, itod, utod */
            }
            put_d(out, p, in->sat ? sat(v) : v);
        }
        return;
    }
    uint32_t k = 0;
    for (uint32_t lane = 0; lane < 4; lane++) {
        if (!(mask & (1u << lane)))
            continue;
        double a = get_d(post[0], k), b = op->srcs > 1 ? get_d(post[1], k) : 0.0;
        switch (op->opcode) {
        case OP_DTOF: out[lane] = ka_f((float)a); break;
        case OP_DTOI: out[lane] = to_int(a, true); break;
        case OP_DTOU: out[lane] = to_int(a, false); break;
        case OP_DEQ: out[lane] = a == b ? 0xFFFFFFFFu : 0; break;
        case OP_DNE: out[lane] = a != b ? 0xFFFFFFFFu : 0; break;
        case OP_DLT: out[lane] = a < b ? 0xFFFFFFFFu : 0; break;
        default: out[lane] = a >= b ? 0xFFFFFFFFu : 0; break; /* DGE */
        }
        k++;
    }
}

/* ---- assembly ----------------------------------------------------------- */

uint32_t ka_double_count(void) { return (uint32_t)(sizeof(ops) / sizeof(ops[0])); }

void ka_double_build(uint32_t index, struct ka_case *c)
{
    const struct dop *op = &ops[index < ka_double_count() ? index : 0];
    static struct dinst plan_of[OUTS];
    uint32_t count = plan(op, plan_of);
    memset(c, 0, sizeof(*c));
    snprintf(c->name, sizeof(c->name), "double_%s", op->name);
    c->groups = 1;
    struct sm4_program *p = &c->program;
    sm4_begin_cs(p, DT, 1, 1, FIRST_OUT + OUTS);
    sm4_dcl_cb(p, 0, DT * ROWS, 1);
    sm4_dcl_uav_raw(p, 0);
    sm4_dcl_thread_id(p, T_THREAD_ID, "x");
    /* r7.x = 8t (first row), r7.y = 128t (output byte offset) */
    I(p, OP_ISHL, dr(7, "x"), special(T_THREAD_ID, "x"), l1(3));
    I(p, OP_ISHL, dr(7, "y"), special(T_THREAD_ID, "x"), l1(7));
    struct sm4_operand row = sr(7, "x");
    for (uint32_t r = 0; r < 7; r++)
        I(p, OP_MOV, dr(r, "xyzw"), scb(0, r, &row, "xyzw"));
    for (uint32_t o = 0; o < OUTS; o++)
        I(p, OP_MOV, dr(FIRST_OUT + o, "xyzw"), l4(0, 0, 0, 0));
    uint32_t imm_lanes[3][4] = { { 0 } };
    for (uint32_t k = 0; k < count; k++) {
        const struct dinst *in = &plan_of[k];
        struct sm4_operand operands[4];
        operands[0] = dr(FIRST_OUT + k, in->mask);
        for (uint32_t i = 0; i < op->srcs; i++)
            operands[1 + i] = in->imm ? immediate(op, i, imm_lanes[i]) : sr(in->reg[i], in->swz[i]);
        sm4_inst(p, op->opcode, in->sat ? SM4_SAT : 0, 1 + op->srcs, operands);
    }
    for (uint32_t o = 0; o < OUTS; o++) {
        I(p, OP_STORE_RAW, du(0, "xyzw"), sr(7, "y"), sr(FIRST_OUT + o, "xyzw"));
        I(p, OP_IADD, dr(7, "y"), sr(7, "y"), l1(16));
    }
    sm4_end(p);

    struct ka_resource *cb = ka_add(c, SB_IR_RESOURCE_CBV, 0, KA_BUFFER, DT * ROWS * 4);
    struct ka_resource *out = ka_add(c, SB_IR_RESOURCE_UAV, 0, KA_BUFFER, DT * OUTS * 4);
    out->check = true;
    out->compare = KA_EXACT;
    out->check_count = DT * OUTS * 4;
    for (uint32_t t = 0; t < DT; t++) {
        uint32_t *rows = &cb->init[t * ROWS * 4];
        for (uint32_t i = 0; i < op->srcs; i++) {
            register_row(op, i, t, &rows[4 * i]);
            if (op->slot[i] == S_D)
                saturate_row(op, i, t, &rows[4 * (SAT_ROW + i)]);
        }
        for (uint32_t k = 0; k < count; k++) {
            const struct dinst *in = &plan_of[k];
            uint32_t post[3][4];
            for (uint32_t i = 0; i < op->srcs; i++)
                for (uint32_t l = 0; l < 4; l++)
                    post[i][l] = in->imm ? imm_lanes[i][l] : rows[4 * in->reg[i] + lane_of(in->swz[i][l])];
            reference(op, in, post, &out->expect[(t * OUTS + k) * 4]);
        }
    }
}
