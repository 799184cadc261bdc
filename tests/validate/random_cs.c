/* SPDX-License-Identifier: MIT */
/*
 * Random compute programs with exactly defined results (random_cs.h), for
 * test_validate_generated.c: a device and the interpreter running one must
 * produce identical words, so any difference is a bug on one side.
 *
 * What makes a random program exact is not the choice of opcodes alone but
 * the values they see: float add and mul are correctly rounded in Vulkan, yet
 * lavapipe contracts a mul feeding an add into an fma (no NoContraction
 * without `precise`), and an fma rounds once where the pair rounds twice. So
 * the generator keeps every float result exactly representable, where
 * rounding (and so fusion) changes nothing: it tracks, per temp component,
 * an abstract value
 *   - float: an interval and a granularity 2^-g (every value is a multiple of
 *     it); add and mul stay exact while max|v| * 2^g < 2^24. Such values are
 *     never denormal either (g <= 60), so flush-to-zero cannot differ;
 *   - int: a signed range and known-zero / known-one bits, enough to keep
 *     shift counts in 0..31, itof/utof sources below 2^24 (exact), and
 *     f16tof32 sources off half denormals, infinities and NaNs;
 *   - "canonical": whether the value can be -0. D3D (and the verdict's float
 *     rule) treats -0 as 0, and NIR folds x + 0.0 -> x or x * 0.0 -> 0.0
 *     without keeping the sign of zero, so the bits of a zero are not fixed.
 *     A possibly -0 float is never read as integer bits, and is turned into
 *     +0 (integer ops) before it is stored.
 * Ops that would leave the exact domain are not generated (div, rcp, rsq,
 * sqrt, exp, log, sincos: Vulkan's precision table allows ULPs of error; mad:
 * fused or not is the device's choice; dp2/3/4: any order of additions;
 * doubles: Vulkan only requires single-precision accuracy of 64-bit ops;
 * sample/gather: filtering precision is the device's; atomics returning a
 * value and append counters: the value depends on the order of threads).
 *
 * Loops and branches join states, so a choice valid in a loop's first
 * iteration may not be in the fourth: after generation every instruction is
 * re-checked against the joined states of all iterations (at most 4 per
 * loop), and those that would leave the domain are dropped (counted as
 * `pruned`), until nothing changes. Group-shared exchanges sit between two
 * barriers at the top level (uniform flow), every read address is masked
 * into its buffer, and atomics on one address all use one commutative op, so
 * no program has a race or an out-of-bounds access.
 */
#include "random_cs_private.h"

#include <math.h>
#include <string.h>

static uint32_t float_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

/* ---- random numbers ----------------------------------------------------- */

static uint64_t mix64(uint64_t x)
{
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

static uint64_t rnd(struct gen *g)
{
    g->rng += 0x9E3779B97F4A7C15ull;
    return mix64(g->rng);
}

static uint32_t below(struct gen *g, uint32_t n)
{
    return n ? (uint32_t)(rnd(g) % n) : 0;
}

static bool chance(struct gen *g, uint32_t percent)
{
    return below(g, 100) < percent;
}

/* ---- building ----------------------------------------------------------- */

static uint32_t new_node(struct gen *g, uint8_t type)
{
    if (g->count >= MAX_NODES) {
        g->full = true;
        return 0; /* node 0 is a sink nothing links to */
    }
    uint32_t n = g->count++;
    memset(&g->nodes[n], 0, sizeof(g->nodes[n]));
    g->nodes[n].type = type;
    return n;
}

static void append_node(struct gen *g, struct list *l, uint32_t n)
{
    if (!n)
        return;
    if (l->tail)
        g->nodes[l->tail].next = n;
    else
        l->head = n;
    l->tail = n;
}

/* Appends an instruction and moves the generation state past it. */
static void add_inst(struct gen *g, struct list *l, const struct ginst *in)
{
    uint32_t n = new_node(g, N_INST);
    if (!n)
        return;
    g->nodes[n].inst = *in;
    append_node(g, l, n);
    rcs_run_node(g, n, &g->st, NULL);
}

static void add(struct gen *g, struct list *l, struct ginst in)
{
    add_inst(g, l, &in);
}

static struct gsrc s_reg(uint32_t file, uint32_t reg, const char *sel)
{
    struct gsrc s = { .file = (uint8_t)file, .reg = (uint8_t)reg, .sel = (uint8_t)(strlen(sel) == 1 ? 1 : 4) };
    for (uint32_t i = 0; i < 4; i++) {
        char ch = sel[i < strlen(sel) ? i : 0];
        s.swz[i] = (uint8_t)(ch == 'x' ? 0 : ch == 'y' ? 1 : ch == 'z' ? 2 : 3);
    }
    return s;
}

static struct gsrc s_imm(uint32_t v)
{
    struct gsrc s = { .file = F_IMM, .imm_count = 1, .imm = { v } };
    return s;
}

static struct gsrc s_imm4(uint32_t a, uint32_t b, uint32_t c, uint32_t d)
{
    struct gsrc s = { .file = F_IMM, .imm_count = 4, .imm = { a, b, c, d } };
    return s;
}

static struct gdst d_reg(uint32_t file, uint32_t reg, uint32_t mask)
{
    struct gdst d = { (uint8_t)file, (uint8_t)reg, (uint8_t)mask };
    return d;
}

static struct ginst inst1(uint16_t op, uint8_t sem, struct gdst dst, uint32_t nsrc, const struct gsrc *src)
{
    struct ginst in = { .opcode = op, .sem = sem, .ndst = 1, .nsrc = (uint8_t)nsrc, .dst = { dst } };
    for (uint32_t k = 0; k < nsrc; k++)
        in.src[k] = src[k];
    return in;
}

#define INST(op, sem, dst, ...)                                                             \
    inst1((op), (sem), (dst), sizeof((struct gsrc[]){ __VA_ARGS__ }) / sizeof(struct gsrc), \
          (struct gsrc[]){ __VA_ARGS__ })

static uint32_t int_pattern(struct gen *g)
{
    switch (below(g, 9)) {
    case 0: return below(g, 32);
    case 1: return below(g, 1024);
    case 2: return (uint32_t)-(int32_t)below(g, 100);
    case 3: return 0x80000000u;
    case 4: return 0xFFFFFFFFu;
    case 5: return 0x7FFFFFFFu;
    case 6: return 1u << below(g, 32);
    case 7: return (uint32_t)rnd(g) & 0xFFFFu;
    default: return (uint32_t)rnd(g);
    }
}

/* k / 2^j, |k| < 1024, j <= 8: exact, and small enough to combine exactly. */
static uint32_t float_pattern(struct gen *g)
{
    int k = (int)below(g, 2047) - 1023;
    return float_bits(ldexpf((float)k, -(int)below(g, 9)));
}

static struct gsrc s_imm_float(uint32_t v)
{
    struct gsrc s = { .file = F_IMM, .imm_count = 1, .imm_fmask = 1, .imm = { v } };
    return s;
}

static struct gsrc pick_imm(struct gen *g, bool floats)
{
    struct gsrc s = { .file = F_IMM, .imm_count = 4, .imm_fmask = floats ? 0xF : 0 };
    for (uint32_t i = 0; i < 4; i++)
        s.imm[i] = floats ? float_pattern(g) : int_pattern(g);
    return s;
}

static struct gsrc pick_tid(struct gen *g, bool select1)
{
    static const uint8_t files[4] = { F_TID, F_TGID, F_TIG, F_TFLAT };
    struct gsrc s = { .file = files[below(g, 4)], .sel = select1 ? 1 : 4 };
    uint32_t comps = s.file == F_TFLAT ? 1 : s.file == F_TGID ? 1 : 2; /* the components that vary */
    if (s.file == F_TFLAT)
        s.sel = 1;
    for (uint32_t i = 0; i < 4; i++)
        s.swz[i] = (uint8_t)below(g, comps);
    return s;
}

enum { W_INT, W_FLOAT, W_ANY };

static bool acceptable(const struct aval *v, int want)
{
    return want == W_ANY ? true : want == W_FLOAT ? v->kind == K_FLOAT : rcs_as_int(*v).kind == K_INT;
}

/* A data temp with components of the wanted kind, each lane picking one of them. */
static bool pick_temp(struct gen *g, int want, bool select1, struct gsrc *out)
{
    uint32_t start = below(g, g->data);
    for (uint32_t t = 0; t < g->data; t++) {
        uint32_t reg = (start + t) % g->data, comps[4], n = 0;
        for (uint32_t c = 0; c < 4; c++)
            if (acceptable(&g->st.r[reg][c], want))
                comps[n++] = c;
        if (!n)
            continue;
        memset(out, 0, sizeof(*out));
        out->file = F_TEMP;
        out->reg = (uint8_t)reg;
        out->sel = select1 ? 1 : 4;
        for (uint32_t i = 0; i < 4; i++)
            out->swz[i] = (uint8_t)comps[below(g, n)];
        return true;
    }
    return false;
}

static struct gsrc pick_src(struct gen *g, int want, uint32_t imm_percent, bool select1)
{
    struct gsrc s;
    uint32_t r = below(g, 100);
    if (r < imm_percent)
        return !select1 ? pick_imm(g, want == W_FLOAT) : want == W_FLOAT ? s_imm_float(float_pattern(g)) : s_imm(int_pattern(g));
    if (want != W_FLOAT && r < imm_percent + 8)
        return pick_tid(g, select1);
    if (pick_temp(g, want, select1, &s))
        return s;
    if (want != W_FLOAT)
        return pick_tid(g, select1);
    return select1 ? s_imm_float(float_pattern(g)) : pick_imm(g, true);
}

static uint8_t pick_float_mod(struct gen *g)
{
    return chance(g, 15) ? (uint8_t)(1 + below(g, 3)) : 0;
}

/* Shift counts: immediates 0..31, or a component known to be in 0..31. */
static struct gsrc pick_count(struct gen *g)
{
    if (chance(g, 25))
        for (uint32_t reg = 0; reg < g->data; reg++)
            for (uint32_t c = 0; c < 4; c++) {
                const struct aval *v = &g->st.r[reg][c];
                if (v->kind == K_INT && v->lo >= 0 && v->hi <= 31) {
                    struct gsrc s = { .file = F_TEMP, .reg = (uint8_t)reg, .sel = 4, .swz = { (uint8_t)c, (uint8_t)c, (uint8_t)c, (uint8_t)c } };
                    return s;
                }
            }
    return s_imm4(below(g, 32), below(g, 32), below(g, 32), below(g, 32));
}

/* Bitfield widths and offsets: D3D masks them with 31, so any integer will do. */
static struct gsrc pick_field(struct gen *g)
{
    return chance(g, 70) ? s_imm4(below(g, 32), below(g, 32), below(g, 32), below(g, 32)) : pick_src(g, W_INT, 0, false);
}

/* The generated opcodes and how often (relative weights). */
static const struct {
    uint16_t opcode;
    uint8_t weight;
} alu_ops[] = {
    { OP_IADD, 8 }, { OP_INEG, 2 }, { OP_IMUL, 3 }, { OP_UMUL, 2 }, { OP_IMAD, 2 }, { OP_UMAD, 1 },
    { OP_UDIV, 2 }, { OP_UADDC, 1 }, { OP_USUBB, 1 }, { OP_MSAD, 1 },
    { OP_AND, 4 }, { OP_OR, 3 }, { OP_XOR, 3 }, { OP_NOT, 2 },
    { OP_ISHL, 3 }, { OP_USHR, 3 }, { OP_ISHR, 3 },
    { OP_IMIN, 2 }, { OP_IMAX, 2 }, { OP_UMIN, 2 }, { OP_UMAX, 2 },
    { OP_IEQ, 1 }, { OP_INE, 1 }, { OP_ILT, 1 }, { OP_IGE, 1 }, { OP_ULT, 1 }, { OP_UGE, 1 },
    { OP_MOVC, 3 }, { OP_SWAPC, 1 }, { OP_MOV, 3 },
    { OP_BFI, 2 }, { OP_UBFE, 2 }, { OP_IBFE, 2 }, { OP_BFREV, 1 },
    { OP_COUNTBITS, 1 }, { OP_FIRSTBIT_HI, 1 }, { OP_FIRSTBIT_LO, 1 }, { OP_FIRSTBIT_SHI, 1 },
    { OP_ADD, 8 }, { OP_MUL, 6 }, { OP_MIN, 2 }, { OP_MAX, 2 },
    { OP_ROUND_NE, 1 }, { OP_ROUND_NI, 1 }, { OP_ROUND_PI, 1 }, { OP_ROUND_Z, 1 }, { OP_FRC, 1 },
    { OP_EQ, 1 }, { OP_NE, 1 }, { OP_LT, 1 }, { OP_GE, 1 },
    { OP_ITOF, 3 }, { OP_UTOF, 3 }, { OP_FTOI, 2 }, { OP_FTOU, 2 }, { OP_F32TOF16, 1 }, { OP_F16TOF32, 1 },
};

static uint16_t pick_opcode(struct gen *g)
{
    uint32_t total = 0;
    for (size_t i = 0; i < sizeof(alu_ops) / sizeof(alu_ops[0]); i++)
        total += alu_ops[i].weight;
    uint32_t r = below(g, total);
    for (size_t i = 0; i < sizeof(alu_ops) / sizeof(alu_ops[0]); i++) {
        if (r < alu_ops[i].weight)
            return alu_ops[i].opcode;
        r -= alu_ops[i].weight;
    }
    return OP_IADD;
}

static bool is_float_op(uint16_t op)
{
    return op == OP_ADD || op == OP_MUL || op == OP_MIN || op == OP_MAX || (op >= OP_ROUND_NE && op <= OP_ROUND_Z) ||
           op == OP_FRC || op == OP_EQ || op == OP_NE || op == OP_LT || op == OP_GE || op == OP_FTOI ||
           op == OP_FTOU || op == OP_F32TOF16;
}

/* One ALU instruction of a random opcode (with the prefix some conversions need),
 * retried with other choices until one stays in the exact domain. */
static void gen_alu(struct gen *g, struct list *l)
{
    for (uint32_t attempt = 0; attempt < 16; attempt++) {
        uint16_t op = pick_opcode(g);
        struct ginst in = { .opcode = op, .sem = SEM_ALU, .ndst = 1 }, pre = { .opcode = 0 };
        bool two = op == OP_IMUL || op == OP_UMUL || op == OP_UDIV || op == OP_UADDC || op == OP_USUBB || op == OP_SWAPC;
        uint32_t reg = below(g, g->data), mask = 1 + below(g, 15);
        in.dst[0] = d_reg(F_TEMP, reg, mask);
        if (two) {
            in.ndst = 2;
            uint32_t reg1 = (reg + 1 + below(g, g->data - 1)) % g->data;
            in.dst[1] = d_reg(F_TEMP, reg1, 1 + below(g, 15));
            if (chance(g, 25))
                in.dst[chance(g, 50) ? 0 : 1] = d_reg(F_NONE, 0, 0xF); /* null: that result unused */
        }
        switch (op) {
        case OP_INEG: case OP_NOT: case OP_BFREV: case OP_COUNTBITS: case OP_FIRSTBIT_HI: case OP_FIRSTBIT_LO:
        case OP_FIRSTBIT_SHI:
            in.nsrc = 1;
            in.src[0] = pick_src(g, W_INT, 10, false);
            break;
        case OP_ISHL: case OP_USHR: case OP_ISHR:
            in.nsrc = 2;
            in.src[0] = pick_src(g, W_INT, 10, false);
            in.src[1] = pick_count(g);
            break;
        case OP_IMAD: case OP_UMAD: case OP_MSAD:
            in.nsrc = 3;
            for (uint32_t k = 0; k < 3; k++)
                in.src[k] = pick_src(g, W_INT, k ? 30 : 5, false);
            break;
        case OP_UBFE: case OP_IBFE:
            in.nsrc = 3;
            in.src[0] = pick_field(g);
            in.src[1] = pick_field(g);
            in.src[2] = pick_src(g, W_INT, 10, false);
            break;
        case OP_BFI:
            in.nsrc = 4;
            in.src[0] = pick_field(g);
            in.src[1] = pick_field(g);
            in.src[2] = pick_src(g, W_INT, 10, false);
            in.src[3] = pick_src(g, W_INT, 20, false);
            break;
        case OP_MOVC: case OP_SWAPC: {
            in.nsrc = 3;
            in.src[0] = pick_src(g, W_INT, 0, false);
            int want = chance(g, 15) ? W_ANY : chance(g, 50) ? W_INT : W_FLOAT;
            in.src[1] = pick_src(g, want, 20, false);
            in.src[2] = pick_src(g, want, 20, false);
            break;
        }
        case OP_MOV:
            in.nsrc = 1;
            if (chance(g, 40)) { /* a float move: a modifier or saturation (immediates: _sat) */
                in.src[0] = pick_src(g, W_FLOAT, 5, false);
                bool temp = in.src[0].file == F_TEMP;
                in.src[0].mod = temp ? (uint8_t)(1 + below(g, 3)) : 0;
                if (!temp || chance(g, 40))
                    in.controls = SM4_SAT;
            } else {
                in.src[0] = pick_src(g, W_ANY, 10, false);
            }
            break;
        case OP_ITOF: case OP_UTOF: case OP_F16TOF32: {
            in.nsrc = 1;
            struct gsrc s = pick_src(g, W_INT, 5, false);
            if (op == OP_F16TOF32 || chance(g, 50)) {
                /* bound the source in the destination first: ibfe/ubfe to at most 24 bits,
                 * or the mask that makes a normal finite half */
                struct gsrc self = s_reg(F_TEMP, reg, "xyzw");
                if (op == OP_F16TOF32) {
                    uint32_t keep = 0xF3FFu | ((uint32_t)rnd(g) & 0xFFFF0000u);
                    pre = INST(OP_AND, SEM_ALU, in.dst[0], s, s_imm4(keep, keep, keep, keep));
                    struct ginst set = INST(OP_OR, SEM_ALU, in.dst[0], self, s_imm(0x400));
                    struct astate t = g->st;
                    if (!rcs_inst_apply(g, &pre, &t) || !rcs_inst_apply(g, &set, &t))
                        continue;
                    add_inst(g, l, &pre);
                    pre = set;
                } else {
                    uint32_t w[4], o[4];
                    for (uint32_t i = 0; i < 4; i++) {
                        w[i] = 1 + below(g, 24);
                        o[i] = below(g, 32);
                    }
                    pre = INST(op == OP_ITOF ? OP_IBFE : OP_UBFE, SEM_ALU, in.dst[0], s_imm4(w[0], w[1], w[2], w[3]),
                               s_imm4(o[0], o[1], o[2], o[3]), s);
                }
                s = self;
            }
            in.src[0] = s;
            break;
        }
        default:
            if (is_float_op(op)) {
                bool unary = (op >= OP_ROUND_NE && op <= OP_ROUND_Z) || op == OP_FRC || op == OP_FTOI ||
                             op == OP_FTOU || op == OP_F32TOF16;
                in.nsrc = unary ? 1 : 2;
                for (uint32_t k = 0; k < in.nsrc; k++) {
                    in.src[k] = pick_src(g, W_FLOAT, k ? 30 : 5, false);
                    if (in.src[k].file == F_TEMP)
                        in.src[k].mod = pick_float_mod(g);
                }
                if (op == OP_FTOU && in.src[0].file == F_TEMP) {
                    in.src[0].mod = 2; /* |x|: ftou of a negative value is out of range */
                } else if (op == OP_FTOU) {
                    for (uint32_t i = 0; i < 4; i++)
                        in.src[0].imm[i] &= 0x7FFFFFFFu;
                }
                if ((op == OP_ADD || op == OP_MUL || op == OP_MIN || op == OP_MAX) && chance(g, 10))
                    in.controls = SM4_SAT;
            } else { /* two integer sources */
                in.nsrc = 2;
                in.src[0] = pick_src(g, W_INT, 5, false);
                in.src[1] = pick_src(g, W_INT, 35, false);
                if (op == OP_IADD && in.src[1].file == F_TEMP && chance(g, 20))
                    in.src[1].mod = 1; /* integer negation: a - b */
            }
            break;
        }
        struct astate t = g->st;
        if (pre.opcode && !rcs_inst_apply(g, &pre, &t))
            continue;
        if (!rcs_inst_apply(g, &in, &t))
            continue;
        if (pre.opcode)
            add_inst(g, l, &pre);
        add_inst(g, l, &in);
        return;
    }
}

static const char *const lanes = "xyzw";

/* A random load into a data temp: t0 / u1 raw (uints 0..15), t1 structured (floats),
 * t2 typed (uints 0..15); the address is masked into the buffer (65536 bytes). */
static void gen_load(struct gen *g, struct list *l, uint32_t reg, uint32_t mask, bool from_tid)
{
    uint32_t which[4], n = 0;
    if (g->t0)
        which[n++] = 0;
    if (g->t1)
        which[n++] = 1;
    if (g->t2)
        which[n++] = 2;
    if (g->u1)
        which[n++] = 3;
    if (!n)
        return;
    uint32_t r = which[below(g, n)];
    struct gsrc from = from_tid ? pick_tid(g, true) : pick_src(g, W_INT, 0, true);
    /* bfi: (from & (2^w - 1)) << o, a byte address of a vec4 (raw), an element (structured, typed) */
    static const uint32_t width[4] = { 12, 10, 12, 12 }, offset[4] = { 4, 0, 0, 4 }, comp[4] = { 0, 1, 2, 0 };
    add(g, l, INST(OP_BFI, SEM_ALU, d_reg(F_RESERVED, g->reg_a, 1u << comp[r]), s_imm(width[r]),
                                        s_imm(offset[r]), from, s_imm(0)));
    char sel[2] = { lanes[comp[r]], 0 };
    struct gsrc addr = s_reg(F_RESERVED, g->reg_a, sel), res;
    uint8_t swz[4];
    for (uint32_t i = 0; i < 4; i++)
        swz[i] = (uint8_t)below(g, 4);
    struct ginst in;
    if (r == 1) {
        res = (struct gsrc){ .file = F_T, .reg = 1, .sel = 4 };
        uint32_t off = 4 * below(g, (g->t1_stride - 16) / 4 + 1);
        in = INST(OP_LD_STRUCTURED, SEM_LOAD, d_reg(F_TEMP, reg, mask), addr, s_imm(off), res);
        in.load_kind = LOAD_FLOAT;
    } else if (r == 2) {
        res = (struct gsrc){ .file = F_T, .reg = 2, .sel = 4 };
        addr.sel = 4;
        in = INST(OP_LD, SEM_LOAD, d_reg(F_TEMP, reg, mask), addr, res);
        in.load_kind = LOAD_SMALL_UINT;
    } else {
        res = (struct gsrc){ .file = r == 0 ? F_T : F_U, .reg = r == 0 ? 0 : 1, .sel = 4 };
        in = INST(OP_LD_RAW, SEM_LOAD, d_reg(F_TEMP, reg, mask), addr, res);
        in.load_kind = LOAD_SMALL_UINT;
    }
    memcpy(in.src[in.nsrc - 1].swz, swz, 4);
    add_inst(g, l, &in);
}

static const uint16_t atomic_ops[8] = {
    OP_ATOMIC_IADD, OP_ATOMIC_AND, OP_ATOMIC_OR, OP_ATOMIC_XOR,
    OP_ATOMIC_IMAX, OP_ATOMIC_IMIN, OP_ATOMIC_UMAX, OP_ATOMIC_UMIN,
};

/* An atomic without return on u2 (regions of 64 words) or g1 (regions of 4 words): one
 * op per region, so the result does not depend on the order threads arrive in. */
static void gen_atomic(struct gen *g, struct list *l)
{
    bool tgsm = g->g1 && (!g->u2 || chance(g, 40));
    uint32_t region = below(g, tgsm ? 4 : g->u2_regions);
    struct gsrc from = pick_src(g, W_INT, 5, true);
    struct ginst a = tgsm ? INST(OP_BFI, SEM_ALU, d_reg(F_RESERVED, g->reg_a, 8), s_imm(2), s_imm(2), from, s_imm(region * 16))
                          : INST(OP_BFI, SEM_ALU, d_reg(F_RESERVED, g->reg_a, 8), s_imm(6), s_imm(2), from, s_imm(region * 256));
    add_inst(g, l, &a);
    uint32_t address = l->tail;
    struct ginst in = INST(tgsm ? g->g1_op[region] : g->u2_op[region], SEM_ATOMIC,
                           d_reg(tgsm ? F_G : F_U, tgsm ? 1 : 2, 0), s_reg(F_RESERVED, g->reg_a, "w"),
                           pick_src(g, W_INT, 20, true));
    add_inst(g, l, &in);
    /* without its own address the atomic would hit a word of another region (another op:
     * order-dependent) or, on g1, an address past its end */
    if (l->tail != address)
        g->nodes[l->tail].requires = address;
}

/* A condition in rC.`comp`: an integer or float comparison, or a bit test. */
static struct gsrc gen_cond(struct gen *g, struct list *l, uint32_t comp)
{
    static const uint16_t icmp[6] = { OP_IEQ, OP_INE, OP_ILT, OP_IGE, OP_ULT, OP_UGE };
    static const uint16_t fcmp[4] = { OP_EQ, OP_NE, OP_LT, OP_GE };
    struct gdst d = d_reg(F_RESERVED, g->reg_c, 1u << comp);
    struct gsrc probe;
    uint32_t r = below(g, 100);
    struct ginst in;
    if (r < 35 && pick_temp(g, W_FLOAT, false, &probe))
        in = INST(fcmp[below(g, 4)], SEM_ALU, d, probe, pick_src(g, W_FLOAT, 50, false));
    else if (r < 80)
        in = INST(icmp[below(g, 6)], SEM_ALU, d, pick_src(g, W_INT, 0, false), pick_src(g, W_INT, 50, false));
    else
        in = INST(OP_AND, SEM_ALU, d, pick_src(g, W_INT, 0, false), s_imm(1u << below(g, 8)));
    add_inst(g, l, &in);
    char sel[2] = { lanes[comp], 0 };
    return s_reg(F_RESERVED, g->reg_c, sel);
}

static void gen_block(struct gen *g, struct list *l, uint32_t statements, bool top);

static void gen_if(struct gen *g, struct list *l)
{
    struct gsrc cond = gen_cond(g, l, 0);
    uint32_t n = new_node(g, N_IF);
    if (!n)
        return;
    struct astate before = g->st;
    g->nodes[n].inst.src[0] = cond;
    g->nodes[n].nz = chance(g, 50);
    g->depth++;
    gen_block(g, &g->nodes[n].kid[0], 1 + below(g, 5), false);
    if (chance(g, 50)) {
        g->nodes[n].has_else = true;
        g->st = before;
        gen_block(g, &g->nodes[n].kid[1], 1 + below(g, 5), false);
    }
    g->depth--;
    g->st = before;
    append_node(g, l, n);
    rcs_run_node(g, n, &g->st, NULL);
}

/* loop; if (counter >= count) break; counter++; body; endloop — the counter and the count
 * live in a reserved register, counted up before the body so continue cannot skip it. */
static void gen_loop(struct gen *g, struct list *l)
{
    uint32_t depth = g->loops, trips;
    struct gdst count = d_reg(F_RESERVED, g->reg_l + depth, 4);
    if (chance(g, 50)) {
        trips = 1 + below(g, 4);
        add(g, l, INST(OP_MOV, SEM_FIXED, count, s_imm(trips)));
    } else { /* 0..3 iterations, differing between threads; an older count (<= 4) if pruned */
        trips = 4;
        add(g, l, INST(OP_AND, SEM_ALU, count, pick_src(g, W_INT, 0, true), s_imm(3)));
    }
    uint32_t n = new_node(g, N_LOOP);
    if (!n)
        return;
    struct astate before = g->st;
    bool in_switch = g->in_switch;
    g->nodes[n].trips = (uint8_t)trips;
    g->nodes[n].loop_depth = (uint8_t)depth;
    g->loops++;
    g->depth++;
    g->in_switch = false;
    gen_block(g, &g->nodes[n].kid[0], 2 + below(g, 6), false);
    g->in_switch = in_switch;
    g->depth--;
    g->loops--;
    g->st = before;
    append_node(g, l, n);
    rcs_run_node(g, n, &g->st, NULL);
}

static void gen_switch(struct gen *g, struct list *l)
{
    struct gsrc from = pick_src(g, W_INT, 0, true);
    struct gdst sel = d_reg(F_RESERVED, g->reg_c, 2);
    if (chance(g, 50))
        add(g, l, INST(OP_AND, SEM_ALU, sel, from, s_imm(3)));
    else
        add(g, l, INST(OP_UBFE, SEM_ALU, sel, s_imm(2), s_imm(below(g, 31)), from));
    uint32_t n = new_node(g, N_SWITCH);
    if (!n)
        return;
    g->nodes[n].inst.src[0] = s_reg(F_RESERVED, g->reg_c, "y");
    uint32_t labels[4] = { 0, 1, 2, 3 };
    for (uint32_t i = 3; i > 0; i--) {
        uint32_t j = below(g, i + 1), t = labels[i];
        labels[i] = labels[j];
        labels[j] = t;
    }
    struct astate before = g->st;
    bool in_switch = g->in_switch;
    g->in_switch = true;
    g->depth++;
    uint32_t cases = 1 + below(g, 3), used = 0;
    for (uint32_t c = 0; c < cases + 1; c++) {
        bool is_default = c == cases;
        if (is_default && chance(g, 50))
            break;
        uint32_t count = is_default ? 0 : 1 + below(g, 2);
        count = count < 4 - used ? count : 4 - used;
        if (!is_default && !count)
            break; /* every label taken */
        uint32_t k = new_node(g, N_CASE);
        if (!k)
            break;
        g->nodes[k].is_default = is_default;
        while (count--)
            g->nodes[k].labels[g->nodes[k].label_count++] = labels[used++];
        g->st = before;
        gen_block(g, &g->nodes[k].kid[0], 1 + below(g, 3), false);
        append_node(g, &g->nodes[n].kid[0], k);
    }
    g->depth--;
    g->in_switch = in_switch;
    g->st = before;
    append_node(g, l, n);
    rcs_run_node(g, n, &g->st, NULL);
}

static void gen_break(struct gen *g, struct list *l, bool is_continue)
{
    struct gsrc cond = gen_cond(g, l, 2);
    uint32_t n = new_node(g, is_continue ? N_CONTC : N_BREAKC);
    if (!n)
        return;
    g->nodes[n].inst.src[0] = cond;
    g->nodes[n].nz = chance(g, 50);
    append_node(g, l, n);
    rcs_run_node(g, n, &g->st, NULL);
}

/* Thread i stores a temp to g0, and after a barrier reads thread (i + c) mod n's. */
static void gen_exchange(struct gen *g, struct list *l)
{
    if (g->xfers >= MAX_XFER)
        return;
    uint32_t n = g->x * g->y, from = below(g, g->data), to = below(g, g->data), c = 1 + below(g, n - 1);
    uint16_t id = (uint16_t)g->xfers++;
    struct gsrc flat = s_reg(F_TFLAT, 0, "x"), a = s_reg(F_RESERVED, g->reg_a, "x");
    struct gdst da = d_reg(F_RESERVED, g->reg_a, 1);
    struct ginst st;
    if (g->g0_structured) {
        st = INST(OP_STORE_STRUCTURED, SEM_XSTORE, d_reg(F_G, 0, 0xF), flat, s_imm(0), s_reg(F_TEMP, from, "xyzw"));
    } else {
        add(g, l, INST(OP_ISHL, SEM_FIXED, da, flat, s_imm(4)));
        st = INST(OP_STORE_RAW, SEM_XSTORE, d_reg(F_G, 0, 0xF), a, s_reg(F_TEMP, from, "xyzw"));
    }
    st.xfer = id;
    add_inst(g, l, &st);
    struct ginst sync = { .opcode = OP_SYNC, .controls = SM4_SYNC_G | SM4_SYNC_T, .sem = SEM_FIXED };
    add_inst(g, l, &sync);
    add(g, l, INST(OP_IADD, SEM_FIXED, da, flat, s_imm(c)));
    add(g, l, INST(OP_AND, SEM_FIXED, da, a, s_imm(n - 1)));
    struct gsrc res = { .file = F_G, .reg = 0, .sel = 4 };
    for (uint32_t i = 0; i < 4; i++)
        res.swz[i] = (uint8_t)below(g, 4);
    struct ginst ld;
    if (g->g0_structured) {
        ld = INST(OP_LD_STRUCTURED, SEM_XLOAD, d_reg(F_TEMP, to, 1 + below(g, 15)), a, s_imm(0), res);
    } else {
        add(g, l, INST(OP_ISHL, SEM_FIXED, da, a, s_imm(4)));
        ld = INST(OP_LD_RAW, SEM_XLOAD, d_reg(F_TEMP, to, 1 + below(g, 15)), a, res);
    }
    ld.xfer = id;
    add_inst(g, l, &ld);
    add_inst(g, l, &sync); /* no thread stores again before every thread has read */
}

static void gen_block(struct gen *g, struct list *l, uint32_t statements, bool top)
{
    for (uint32_t i = 0; (top || i < statements) && g->budget && !g->full; i++) {
        uint32_t r = below(g, 100);
        g->budget--;
        if (top && g->g0 && r < 5)
            gen_exchange(g, l);
        else if (g->depth < 3 && r < 15)
            gen_if(g, l);
        else if (g->depth < 3 && g->loops < 2 && r < 22)
            gen_loop(g, l);
        else if (g->depth < 3 && r < 26)
            gen_switch(g, l);
        else if (g->loops && !g->in_switch && r < 31)
            gen_break(g, l, r < 28);
        else if (r < 41)
            gen_load(g, l, below(g, g->data), 1 + below(g, 15), false);
        else if ((g->u2 || g->g1) && r < 48)
            gen_atomic(g, l);
        else
            gen_alu(g, l);
    }
}

/* Every data temp gets all four components before the body: immediates, thread ids
 * (as they are or as floats), or a load addressed by a thread id. */
static void gen_init(struct gen *g, struct list *l)
{
    static const uint8_t files[3] = { F_TID, F_TIG, F_TGID };
    for (uint32_t reg = 0; reg < g->data; reg++) {
        struct gdst d = d_reg(F_TEMP, reg, 0xF);
        uint32_t r = below(g, 100);
        if (r < 35) {
            struct gsrc s = pick_imm(g, false);
            for (uint32_t i = 0; i < 4; i++)
                if (chance(g, 50)) {
                    s.imm[i] = float_pattern(g);
                    s.imm_fmask |= (uint8_t)(1u << i);
                }
            add(g, l, INST(OP_MOV, SEM_ALU, d, s));
        } else if (r < 65) {
            struct gsrc s = { .file = files[below(g, 3)], .sel = 4 };
            for (uint32_t i = 0; i < 4; i++)
                s.swz[i] = (uint8_t)below(g, 3);
            add(g, l, INST(chance(g, 50) ? OP_MOV : OP_UTOF, SEM_ALU, d, s));
        } else {
            gen_load(g, l, reg, 0xF, true);
            if (g->st.r[reg][0].kind == K_POISON) /* no buffer: immediates after all */
                add(g, l, INST(OP_MOV, SEM_ALU, d, pick_imm(g, chance(g, 50))));
        }
    }
}

/* g1 (group-shared atomics): threads 0..15 of a group set its 16 words, a barrier. */
static void gen_g1_init(struct gen *g, struct list *l)
{
    struct gsrc flat = s_reg(F_TFLAT, 0, "x");
    add(g, l, INST(OP_ULT, SEM_FIXED, d_reg(F_RESERVED, g->reg_c, 1), flat, s_imm(16)));
    uint32_t n = new_node(g, N_IF);
    if (!n)
        return;
    g->nodes[n].inst.src[0] = s_reg(F_RESERVED, g->reg_c, "x");
    g->nodes[n].nz = true;
    add(g, &g->nodes[n].kid[0], INST(OP_ISHL, SEM_FIXED, d_reg(F_RESERVED, g->reg_a, 1), flat, s_imm(2)));
    add(g, &g->nodes[n].kid[0], INST(OP_STORE_RAW, SEM_FIXED, d_reg(F_G, 1, 1),
                                                         s_reg(F_RESERVED, g->reg_a, "x"), s_imm(int_pattern(g))));
    append_node(g, l, n);
    struct ginst sync = { .opcode = OP_SYNC, .controls = SM4_SYNC_G | SM4_SYNC_T, .sem = SEM_FIXED };
    add_inst(g, l, &sync);
}

/* After the body: a barrier, then each thread reads one g1 word into a data temp. */
static void gen_g1_read(struct gen *g, struct list *l)
{
    struct ginst sync = { .opcode = OP_SYNC, .controls = SM4_SYNC_G | SM4_SYNC_T, .sem = SEM_FIXED };
    add_inst(g, l, &sync);
    add(g, l, INST(OP_BFI, SEM_FIXED, d_reg(F_RESERVED, g->reg_a, 1), s_imm(4), s_imm(2),
                                        s_reg(F_TFLAT, 0, "x"), s_imm(0)));
    struct gsrc res = { .file = F_G, .reg = 1, .sel = 4 };
    struct ginst ld = INST(OP_LD_RAW, SEM_LOAD, d_reg(F_TEMP, below(g, g->data), 1u << below(g, 4)),
                           s_reg(F_RESERVED, g->reg_a, "x"), res);
    ld.load_kind = LOAD_ANY;
    add_inst(g, l, &ld);
}

/* ---- emitting tokens --------------------------------------------------- */

static void sel_text(const uint8_t *swz, uint32_t n, char *out)
{
    for (uint32_t i = 0; i < n; i++)
        out[i] = lanes[swz[i] & 3];
    out[n] = 0;
}

static void mask_text(uint32_t mask, char *out)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < 4; i++)
        if ((mask >> i) & 1)
            out[n++] = lanes[i];
    out[n] = 0;
}

/* A source modifier needs the extended operand token (../shared/docs/sm4-tokens.md §6). */
static struct sm4_operand with_modifier(struct sm4_operand o, uint32_t mod)
{
    if (!mod)
        return o;
    struct sm4_operand r = { { 0 }, 0 };
    sm4_append(&r, o.tok[0] | 0x80000000u);
    sm4_append(&r, 1u | (mod << 6));
    for (uint32_t j = 1; j < o.n; j++)
        sm4_append(&r, o.tok[j]);
    return r;
}

static struct sm4_operand src_operand(const struct gsrc *s)
{
    char sel[5];
    sel_text(s->swz, s->sel == 1 ? 1 : 4, sel);
    switch (s->file) {
    case F_TEMP: case F_RESERVED: return with_modifier(sr(s->reg, sel), s->mod);
    case F_IMM: return s->imm_count == 1 ? l1(s->imm[0]) : l4(s->imm[0], s->imm[1], s->imm[2], s->imm[3]);
    case F_TID: return special(T_THREAD_ID, sel);
    case F_TGID: return special(T_GROUP_ID, sel);
    case F_TIG: return special(T_THREAD_IN_GROUP, sel);
    case F_TFLAT: return special(T_THREAD_FLAT, sel);
    case F_T: return st(s->reg, sel);
    case F_U: return su(s->reg, sel);
    default: return sg(s->reg, sel);
    }
}

static struct sm4_operand dst_operand(const struct gdst *d)
{
    char mask[5];
    mask_text(d->mask, mask);
    switch (d->file) {
    case F_TEMP: case F_RESERVED: return dr(d->reg, mask);
    case F_U: return du(d->reg, mask);
    case F_G: return dg(d->reg, mask);
    default: return snull();
    }
}

static void emit(struct rcs_program *out, uint32_t opcode, uint32_t controls, uint32_t n, const struct sm4_operand *ops)
{
    sm4_inst(&out->program, opcode, controls, n, ops);
    out->instructions++;
    out->opcode_count[opcode & 0xFF]++;
}

static void emit_inst(struct rcs_program *out, const struct ginst *in)
{
    struct sm4_operand ops[6];
    uint32_t n = 0;
    for (uint32_t d = 0; d < in->ndst; d++)
        ops[n++] = dst_operand(&in->dst[d]);
    for (uint32_t k = 0; k < in->nsrc; k++)
        ops[n++] = src_operand(&in->src[k]);
    emit(out, in->opcode, in->controls, n, ops);
}

static void emit_list(const struct gen *g, struct rcs_program *out, uint32_t head)
{
    for (uint32_t n = head; n; n = g->nodes[n].next) {
        const struct node *nd = &g->nodes[n];
        if (nd->dead)
            continue;
        struct sm4_operand cond = src_operand(&nd->inst.src[0]);
        uint32_t nz = nd->nz ? SM4_NZ : SM4_Z;
        switch (nd->type) {
        case N_INST: emit_inst(out, &nd->inst); break;
        case N_IF:
            emit(out, OP_IF, nz, 1, &cond);
            emit_list(g, out, nd->kid[0].head);
            if (nd->has_else) {
                emit(out, OP_ELSE, 0, 0, NULL);
                emit_list(g, out, nd->kid[1].head);
            }
            emit(out, OP_ENDIF, 0, 0, NULL);
            break;
        case N_LOOP: {
            uint32_t r = g->reg_l + nd->loop_depth;
            emit(out, OP_MOV, 0, 2, (struct sm4_operand[]){ dr(r, "x"), l1(0) });
            emit(out, OP_LOOP, 0, 0, NULL);
            emit(out, OP_UGE, 0, 3, (struct sm4_operand[]){ dr(r, "w"), sr(r, "x"), sr(r, "z") });
            emit(out, OP_BREAKC, SM4_NZ, 1, (struct sm4_operand[]){ sr(r, "w") });
            emit(out, OP_IADD, 0, 3, (struct sm4_operand[]){ dr(r, "x"), sr(r, "x"), l1(1) });
            emit_list(g, out, nd->kid[0].head);
            emit(out, OP_ENDLOOP, 0, 0, NULL);
            break;
        }
        case N_SWITCH:
            emit(out, OP_SWITCH, 0, 1, &cond);
            for (uint32_t c = nd->kid[0].head; c; c = g->nodes[c].next) {
                const struct node *cs = &g->nodes[c];
                for (uint32_t k = 0; k < cs->label_count; k++)
                    emit(out, OP_CASE, 0, 1, (struct sm4_operand[]){ l1(cs->labels[k]) });
                if (cs->is_default)
                    emit(out, OP_DEFAULT, 0, 0, NULL);
                emit_list(g, out, cs->kid[0].head);
                emit(out, OP_BREAK, 0, 0, NULL);
            }
            emit(out, OP_ENDSWITCH, 0, 0, NULL);
            break;
        case N_BREAKC: emit(out, OP_BREAKC, nz, 1, &cond); break;
        case N_CONTC: emit(out, OP_CONTINUEC, nz, 1, &cond); break;
        default: break;
        }
    }
}

/* The record of each thread: every data temp (a component that may be a float -0 made
 * +0 with integer ops, so its bits are fixed), then the signature. */
static void emit_output(const struct gen *g, const struct astate *final, struct rcs_program *out)
{
    uint32_t a = g->reg_a, c = g->reg_c;
    emit(out, OP_IMAD, 0, 4, (struct sm4_operand[]){ dr(a, "x"), special(T_GROUP_ID, "x"), l1(g->x * g->y),
                                                     special(T_THREAD_FLAT, "x") });
    emit(out, OP_IMUL, 0, 4, (struct sm4_operand[]){ snull(), dr(a, "y"), sr(a, "x"), l1(out->record_bytes) });
    for (uint32_t reg = 0; reg < g->data; reg++) {
        uint32_t mask = 0;
        for (uint32_t k = 0; k < 4; k++)
            if (final->r[reg][k].kind != K_INT)
                mask |= 1u << k;
        if (mask) {
            char m[5];
            mask_text(mask, m);
            emit(out, OP_INE, 0, 3, (struct sm4_operand[]){ dr(c, m), sr(reg, "xyzw"),
                                                            l4(0x80000000u, 0x80000000u, 0x80000000u, 0x80000000u) });
            emit(out, OP_AND, 0, 3, (struct sm4_operand[]){ dr(reg, m), sr(reg, "xyzw"), sr(c, "xyzw") });
        }
        emit(out, OP_STORE_RAW, 0, 3, (struct sm4_operand[]){ du(0, "xyzw"), sr(a, "y"), sr(reg, "xyzw") });
        emit(out, OP_IADD, 0, 3, (struct sm4_operand[]){ dr(a, "y"), sr(a, "y"), l1(16) });
    }
    emit(out, OP_MOV, 0, 2, (struct sm4_operand[]){ dr(c, "x"), sr(a, "x") });
    emit(out, OP_MOV, 0, 2, (struct sm4_operand[]){ dr(c, "y"), special(T_GROUP_ID, "x") });
    emit(out, OP_NOT, 0, 2, (struct sm4_operand[]){ dr(c, "z"), sr(a, "x") });
    emit(out, OP_MOV, 0, 2, (struct sm4_operand[]){ dr(c, "w"), l1(RCS_SIGNATURE | g->data) });
    emit(out, OP_STORE_RAW, 0, 3, (struct sm4_operand[]){ du(0, "xyzw"), sr(a, "y"), sr(c, "xyzw") });
}

static void emit_program(const struct gen *g, const struct list *top, const struct astate *final,
                         struct rcs_program *out)
{
    struct sm4_program *p = &out->program;
    sm4_begin_cs(p, g->x, g->y, 1, g->data + 4);
    sm4_dcl_uav_raw(p, 0);
    if (g->t0)
        sm4_dcl_resource_raw(p, 0);
    if (g->t1)
        sm4_dcl_resource_structured(p, 1, g->t1_stride);
    if (g->t2)
        sm4_dcl_resource(p, 2, 1, 0x4444); /* Buffer<uint4> */
    if (g->u1)
        sm4_dcl_uav_raw(p, 1);
    if (g->u2)
        sm4_dcl_uav_raw(p, 2);
    if (g->g0 && g->g0_structured)
        sm4_decl(p, OP_DCL_TGSM_STRUCTURED, sm4_reg(T_TGSM, 1, (uint32_t[]){ 0 }, NULL, "", 0), 2,
                 (uint32_t[]){ 16, g->x * g->y });
    else if (g->g0)
        sm4_dcl_tgsm_raw(p, 0, g->x * g->y * 16);
    if (g->g1)
        sm4_dcl_tgsm_raw(p, 1, 64);
    sm4_dcl_thread_id(p, T_THREAD_ID, "xyz");
    sm4_dcl_thread_id(p, T_GROUP_ID, "xyz");
    sm4_dcl_thread_id(p, T_THREAD_IN_GROUP, "xyz");
    sm4_dcl_thread_id(p, T_THREAD_FLAT, "x");
    for (uint32_t r = 0; r < 4; r++) /* reserved registers start at 0 */
        emit(out, OP_MOV, 0, 2, (struct sm4_operand[]){ dr(g->data + r, "xyzw"), l4(0, 0, 0, 0) });
    emit_list(g, out, top->head);
    emit_output(g, final, out);
    sm4_end(p);
}

/* ---- the program ---------------------------------------------------------- */

static struct gen gen_state;

static void setup(struct gen *g, uint64_t seed, uint32_t index, uint32_t attempt)
{
    memset(g, 0, sizeof(*g));
    g->rng = mix64(seed ^ mix64(((uint64_t)index << 8) | attempt));
    g->count = 1;
    static const uint32_t shapes[][2] = { { 8, 2 }, { 16, 1 }, { 32, 1 }, { 64, 1 }, { 16, 2 }, { 32, 2 }, { 8, 4 }, { 16, 4 } };
    uint32_t s = below(g, 8);
    g->x = shapes[s][0];
    g->y = shapes[s][1];
    g->groups = 1 + below(g, 3);
    g->data = 4 + below(g, MAX_DATA - 3);
    g->reg_a = g->data;
    g->reg_c = g->data + 1;
    g->reg_l = g->data + 2;
    g->t0 = chance(g, 50);
    g->t1 = chance(g, 50);
    g->t2 = chance(g, 30);
    g->u1 = chance(g, 30);
    g->u2 = chance(g, 50);
    g->g0 = chance(g, 50);
    g->g0_structured = chance(g, 50);
    g->g1 = chance(g, 30);
    g->t1_stride = chance(g, 50) ? 16 : 32;
    g->u2_regions = 1 + below(g, 8);
    for (uint32_t i = 0; i < 8; i++)
        g->u2_op[i] = atomic_ops[below(g, 8)];
    for (uint32_t i = 0; i < 4; i++)
        g->g1_op[i] = atomic_ops[below(g, 8)];
    g->budget = (40 + below(g, 60)) >> (attempt > 2 ? 2 : attempt);
    g->st.live = true;
    for (uint32_t r = 0; r < MAX_DATA; r++)
        for (uint32_t c = 0; c < 4; c++)
            g->st.r[r][c] = rcs_poison(); /* not written yet: nothing may read it */
}

bool rcs_generate(uint64_t seed, uint32_t index, struct rcs_program *out)
{
    struct gen *g = &gen_state;
    for (uint32_t attempt = 0; attempt < 6; attempt++) {
        setup(g, seed, index, attempt);
        struct astate initial = g->st;
        struct list top = { 0, 0 };
        gen_init(g, &top);
        if (g->g1)
            gen_g1_init(g, &top);
        gen_block(g, &top, 0, true);
        if (g->g1)
            gen_g1_read(g, &top);
        /* the whole program against the joined states of every iteration, until no
         * instruction is dropped */
        struct astate final;
        do {
            g->deaths = 0;
            final = initial;
            rcs_run_list(g, top.head, &final, NULL);
        } while (g->deaths);
        memset(out, 0, sizeof(*out));
        out->threads_x = g->x;
        out->threads_y = g->y;
        out->groups = g->groups;
        out->data_temps = g->data;
        out->record_bytes = (g->data + 1) * 16;
        for (uint32_t n = 1; n < g->count; n++)
            out->pruned += g->nodes[n].dead;
        emit_program(g, &top, &final, out);
        if (!g->full && !out->program.overflow)
            return true;
    }
    return false;
}

