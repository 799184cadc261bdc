/* SPDX-License-Identifier: MIT */
/*
 * The abstract values of random_cs.c and the range check over a generated
 * program: per temp component an int range with known bits, or a float range
 * with a granularity and whether it can be -0 (random_cs.c says why); per
 * instruction whether it keeps every value exact; per loop the joined states
 * of all its iterations. An instruction that fails is marked dead.
 */
#include "random_cs_private.h"

#include <math.h>
#include <string.h>

/* ---- abstract values -------------------------------------------------- */

struct aval rcs_poison(void)
{
    struct aval a = { .kind = K_POISON };
    return a;
}

static struct aval a_int_full(void)
{
    struct aval a = { .kind = K_INT, .lo = I32_MIN, .hi = I32_MAX };
    return a;
}

static uint32_t fill_below_top(uint64_t v)
{
    uint32_t m = 0;
    for (; v; v >>= 1)
        m = (m << 1) | 1u;
    return m;
}

/* Makes the range and the known bits agree with each other. */
static void int_norm(struct aval *a)
{
    if (a->lo >= 0)
        a->zeros |= ~fill_below_top((uint64_t)a->hi);
    else if (a->hi < 0)
        a->ones |= 0x80000000u;
    if (a->zeros & 0x80000000u) {
        int64_t max = (int64_t)(~a->zeros & 0x7FFFFFFFu), min = (int64_t)(a->ones & 0x7FFFFFFFu);
        a->hi = a->hi > max ? max : a->hi;
        a->lo = a->lo < min ? min : a->lo;
    } else if (a->ones & 0x80000000u) {
        int64_t max = I32_MIN + (int64_t)(~a->zeros & 0x7FFFFFFFu), min = I32_MIN + (int64_t)(a->ones & 0x7FFFFFFFu);
        a->hi = a->hi > max ? max : a->hi;
        a->lo = a->lo < min ? min : a->lo;
    }
    if (a->lo > a->hi) /* contradictory facts: forget them rather than claim anything */
        *a = a_int_full();
}

static struct aval a_int_range(int64_t lo, int64_t hi)
{
    if (lo < I32_MIN || hi > I32_MAX || lo > hi)
        return a_int_full();
    struct aval a = { .kind = K_INT, .lo = lo, .hi = hi };
    int_norm(&a);
    return a;
}

static struct aval a_int_const(uint32_t v)
{
    struct aval a = { .kind = K_INT, .lo = (int32_t)v, .hi = (int32_t)v, .zeros = ~v, .ones = v };
    return a;
}

static struct aval a_int_bits(struct aval range, uint32_t zeros, uint32_t ones)
{
    range.zeros |= zeros;
    range.ones |= ones;
    int_norm(&range);
    return range;
}

static struct aval a_float(double lo, double hi, int g, bool canon)
{
    struct aval a = { .kind = K_FLOAT, .flo = lo, .fhi = hi, .g = g < 0 ? 0 : g };
    a.canon = canon || lo > 0.0 || hi < 0.0;
    return a;
}

static float as_float(uint32_t u)
{
    float f;
    memcpy(&f, &u, 4);
    return f;
}


/* The smallest g with v * 2^g an integer. */
static int granularity(double v)
{
    int g = 0;
    while (g < 64 && v != floor(v)) {
        v *= 2.0;
        g++;
    }
    return g;
}

static struct aval a_float_const(uint32_t bits)
{
    double v = as_float(bits);
    return a_float(v, v, granularity(v), (bits & 0x80000000u) == 0 || v != 0.0);
}

/* Whether values in [lo, hi] that are multiples of 2^-g are all exactly representable
 * (24 significant bits) and normal. */
static bool exact(double lo, double hi, int g)
{
    return g <= 60 && ldexp(fmax(fabs(lo), fabs(hi)), g) < 0x1p24;
}

static struct aval join(struct aval a, struct aval b)
{
    if (a.kind != b.kind)
        return rcs_poison();
    if (a.kind == K_INT) {
        return a_int_bits(a_int_range(a.lo < b.lo ? a.lo : b.lo, a.hi > b.hi ? a.hi : b.hi), a.zeros & b.zeros,
                          a.ones & b.ones);
    }
    if (a.kind == K_FLOAT)
        return a_float(fmin(a.flo, b.flo), fmax(a.fhi, b.fhi), a.g > b.g ? a.g : b.g, a.canon && b.canon);
    return a;
}

static void join_state(struct astate *into, const struct astate *from)
{
    if (!from->live)
        return;
    if (!into->live) {
        *into = *from;
        return;
    }
    for (int r = 0; r < MAX_DATA; r++)
        for (int c = 0; c < 4; c++)
            into->r[r][c] = join(into->r[r][c], from->r[r][c]);
}

/* A value as integer bits: an int, or a float that cannot be -0 (its bits are fixed). */
struct aval rcs_as_int(struct aval v)
{
    if (v.kind == K_INT)
        return v;
    if (v.kind == K_FLOAT && v.canon)
        return a_int_full();
    return rcs_poison();
}

/* ---- reading operands ------------------------------------------------- */

static uint32_t tid_max(const struct gen *g, uint8_t file, uint32_t c)
{
    switch (file) {
    case F_TID: return c == 0 ? g->x * g->groups - 1 : c == 1 ? g->y - 1 : 0;
    case F_TGID: return c == 0 ? g->groups - 1 : 0;
    case F_TIG: return c == 0 ? g->x - 1 : c == 1 ? g->y - 1 : 0;
    default: return g->x * g->y - 1;
    }
}

static uint32_t src_lane(const struct gsrc *s, uint32_t lane)
{
    return s->sel == 1 ? s->swz[0] : s->swz[lane];
}

/* The value source `s` gives destination lane `lane`; `int_mod`: its modifier is the
 * integer negation of iadd/imad, else a float modifier. */
static struct aval read_src(const struct gen *g, const struct astate *st, const struct gsrc *s,
                            uint32_t lane, bool int_mod)
{
    struct aval v;
    uint32_t c = src_lane(s, lane);
    switch (s->file) {
    case F_TEMP: v = st->r[s->reg][c]; break;
    case F_IMM: {
        uint32_t k = s->imm_count == 1 ? 0 : lane;
        v = (s->imm_fmask >> k) & 1 ? a_float_const(s->imm[k]) : a_int_const(s->imm[k]);
        break;
    }
    case F_TID: case F_TGID: case F_TIG: case F_TFLAT: v = a_int_range(0, tid_max(g, s->file, c)); break;
    default: v = a_int_full(); break; /* reserved registers: built in range by construction */
    }
    if (!s->mod)
        return v;
    if (int_mod) {
        v = rcs_as_int(v);
        if (v.kind != K_INT)
            return v;
        return v.lo == I32_MIN ? a_int_full() : a_int_range(-v.hi, -v.lo);
    }
    if (v.kind != K_FLOAT)
        return rcs_poison();
    if (s->mod & 2) { /* abs */
        double lo = v.flo >= 0 ? v.flo : v.fhi <= 0 ? -v.fhi : 0.0, hi = fmax(fabs(v.flo), fabs(v.fhi));
        v = a_float(lo, hi, v.g, true);
    }
    if (s->mod & 1) /* neg: -(+0) is -0 */
        v = a_float(-v.fhi, -v.flo, v.g, false);
    return v;
}

/* ---- per-lane semantics ------------------------------------------------ */

static int64_t imin64(int64_t a, int64_t b) { return a < b ? a : b; }
static int64_t imax64(int64_t a, int64_t b) { return a > b ? a : b; }

static struct aval int_product(struct aval a, struct aval b, bool *fits)
{
    int64_t p[4] = { a.lo * b.lo, a.lo * b.hi, a.hi * b.lo, a.hi * b.hi };
    int64_t lo = p[0], hi = p[0];
    for (int i = 1; i < 4; i++) {
        lo = imin64(lo, p[i]);
        hi = imax64(hi, p[i]);
    }
    *fits = lo >= I32_MIN && hi <= I32_MAX;
    return a_int_range(lo, hi);
}

static bool is_const(const struct aval *v)
{
    return v->kind == K_INT && v->lo == v->hi;
}

static struct aval shift_result(uint16_t op, struct aval a, struct aval n)
{
    if (!is_const(&n)) {
        if (op == OP_USHR && a.lo >= 0)
            return a_int_range(0, a.hi);
        if (op == OP_ISHR)
            return a_int_range(imin64(a.lo, 0), imax64(a.hi, 0));
        return a_int_full();
    }
    uint32_t s = (uint32_t)n.lo;
    if (s == 0)
        return a;
    uint32_t top = ~(0xFFFFFFFFu >> s);
    if (op == OP_ISHL) {
        struct aval r = a_int_full();
        if (a.lo * (1LL << s) >= I32_MIN && a.hi * (1LL << s) <= I32_MAX)
            r = a_int_range(a.lo * (1LL << s), a.hi * (1LL << s));
        return a_int_bits(r, (a.zeros << s) | ((1u << s) - 1u), a.ones << s);
    }
    if (op == OP_USHR) {
        struct aval r = a.lo >= 0 ? a_int_range(a.lo >> s, a.hi >> s) : a_int_range(0, (int64_t)(0xFFFFFFFFu >> s));
        return a_int_bits(r, (a.zeros >> s) | top, a.ones >> s);
    }
    /* ishr: arithmetic (floor division by 2^s) */
    int64_t d = 1LL << s;
    int64_t lo = a.lo >= 0 ? a.lo / d : -((-a.lo + d - 1) / d), hi = a.hi >= 0 ? a.hi / d : -((-a.hi + d - 1) / d);
    return a_int_bits(a_int_range(lo, hi), (a.zeros >> s) | (a.zeros & 0x80000000u ? top : 0),
                      (a.ones >> s) | (a.ones & 0x80000000u ? top : 0));
}

static struct aval bitfield_extract(uint16_t op, struct aval width)
{
    if (!is_const(&width))
        return a_int_full();
    uint32_t w = (uint32_t)width.lo & 31u;
    if (w == 0)
        return a_int_const(0);
    if (op == OP_UBFE)
        return a_int_range(0, (int64_t)(0xFFFFFFFFu >> (32 - w)));
    return a_int_range(-(1LL << (w - 1)), (1LL << (w - 1)) - 1);
}

static struct aval int_op(uint16_t op, uint32_t d, const struct aval *s, bool *ok)
{
    struct aval a = s[0], b = s[1], c = s[2];
    bool fits;
    switch (op) {
    case OP_IADD: return a_int_range(a.lo + b.lo, a.hi + b.hi);
    case OP_INEG: return a.lo == I32_MIN ? a_int_full() : a_int_range(-a.hi, -a.lo);
    case OP_IMUL: {
        struct aval p = int_product(a, b, &fits);
        if (d == 1)
            return fits ? p : a_int_full();
        return !fits ? a_int_full() : p.lo >= 0 ? a_int_const(0) : p.hi < 0 ? a_int_const(~0u) : a_int_range(-1, 0);
    }
    case OP_UMUL: {
        if (a.lo < 0 || b.lo < 0)
            return a_int_full();
        struct aval p = int_product(a, b, &fits);
        if (d == 1)
            return fits ? p : a_int_full();
        return (double)a.hi * (double)b.hi < 4294967296.0 ? a_int_const(0) : a_int_full();
    }
    case OP_IMAD: case OP_UMAD: {
        struct aval p = int_product(a, b, &fits);
        return fits ? a_int_range(p.lo + c.lo, p.hi + c.hi) : a_int_full();
    }
    case OP_UDIV:
        if (a.lo < 0 || b.lo < 1)
            return a_int_full(); /* a zero divisor gives 0xFFFFFFFF */
        return d == 0 ? a_int_range(0, a.hi) : a_int_range(0, imin64(a.hi, b.hi - 1));
    case OP_UADDC:
        if (d == 1)
            return a_int_range(0, 1);
        return a.lo >= 0 && b.lo >= 0 ? a_int_range(a.lo + b.lo, a.hi + b.hi) : a_int_full();
    case OP_USUBB: return d == 1 ? a_int_range(0, 1) : a_int_full();
    case OP_AND: {
        struct aval r = a.lo >= 0 && b.lo >= 0 ? a_int_range(0, imin64(a.hi, b.hi))
                        : a.lo >= 0            ? a_int_range(0, a.hi)
                        : b.lo >= 0            ? a_int_range(0, b.hi)
                                               : a_int_full();
        return a_int_bits(r, a.zeros | b.zeros, a.ones & b.ones);
    }
    case OP_OR: return a_int_bits(a_int_full(), a.zeros & b.zeros, a.ones | b.ones);
    case OP_XOR:
        return a_int_bits(a_int_full(), (a.zeros & b.zeros) | (a.ones & b.ones), (a.zeros & b.ones) | (a.ones & b.zeros));
    case OP_NOT: return a_int_bits(a_int_range(-a.hi - 1, -a.lo - 1), a.ones, a.zeros);
    case OP_ISHL: case OP_USHR: case OP_ISHR:
        if (b.lo < 0 || b.hi > 31) { /* the brief: in-range shift counts only */
            *ok = false;
            return a;
        }
        return shift_result(op, a, b);
    case OP_IMIN: return a_int_range(imin64(a.lo, b.lo), imin64(a.hi, b.hi));
    case OP_IMAX: return a_int_range(imax64(a.lo, b.lo), imax64(a.hi, b.hi));
    case OP_UMIN:
        return a.lo >= 0 && b.lo >= 0 ? a_int_range(imin64(a.lo, b.lo), imin64(a.hi, b.hi))
               : a.lo >= 0            ? a_int_range(0, a.hi)
               : b.lo >= 0            ? a_int_range(0, b.hi)
                                      : a_int_full();
    case OP_UMAX:
        return a.lo >= 0 && b.lo >= 0 ? a_int_range(imax64(a.lo, b.lo), imax64(a.hi, b.hi)) : a_int_full();
    case OP_IEQ: case OP_INE: case OP_ILT: case OP_IGE: case OP_ULT: case OP_UGE: return a_int_range(-1, 0);
    case OP_UBFE: case OP_IBFE: return bitfield_extract(op, a);
    case OP_COUNTBITS: return a_int_range(0, 32);
    case OP_FIRSTBIT_HI: case OP_FIRSTBIT_LO: case OP_FIRSTBIT_SHI: return a_int_range(-1, 31);
    case OP_ITOF:
        if (a.lo <= -(1LL << 24) || a.hi >= (1LL << 24))
            break;
        return a_float((double)a.lo, (double)a.hi, 0, true);
    case OP_UTOF:
        if (a.lo < 0 || a.hi >= (1LL << 24))
            break;
        return a_float((double)a.lo, (double)a.hi, 0, true);
    case OP_F16TOF32: {
        /* a normal, finite half: some exponent bit known 0 (not 31), some known 1 (not 0) */
        if (!(a.zeros & 0x7C00u) || !(a.ones & 0x7C00u))
            break;
        int emax = (int)((~a.zeros & 0x7C00u) >> 10), emin = (int)((a.ones & 0x7C00u) >> 10);
        double m = ldexp(2.0, emax - 15);
        return a_float(a.zeros & 0x8000u ? 0.0 : -m, a.ones & 0x8000u ? 0.0 : m, 25 - emin, true);
    }
    default: return a_int_full(); /* bfi, bfrev, msad */
    }
    *ok = false;
    return a;
}

static struct aval saturate(struct aval r)
{
    return a_float(fmin(fmax(r.flo, 0.0), 1.0), fmin(fmax(r.fhi, 0.0), 1.0), r.g, r.canon);
}

static struct aval float_op(uint16_t op, uint32_t controls, const struct aval *s, bool *ok)
{
    struct aval a = s[0], b = s[1], r;
    switch (op) {
    case OP_ADD:
        r = a_float(a.flo + b.flo, a.fhi + b.fhi, a.g > b.g ? a.g : b.g, a.canon && b.canon);
        if (!exact(r.flo, r.fhi, r.g))
            *ok = false;
        break;
    case OP_MUL: {
        double p[4] = { a.flo * b.flo, a.flo * b.fhi, a.fhi * b.flo, a.fhi * b.fhi };
        double lo = fmin(fmin(p[0], p[1]), fmin(p[2], p[3])), hi = fmax(fmax(p[0], p[1]), fmax(p[2], p[3]));
        bool nonzero = (a.flo > 0 || a.fhi < 0) && (b.flo > 0 || b.fhi < 0);
        r = a_float(lo, hi, a.g + b.g, nonzero || (a.canon && b.canon && a.flo >= 0 && b.flo >= 0));
        if (!exact(lo, hi, a.g + b.g))
            *ok = false;
        break;
    }
    case OP_MIN: r = a_float(fmin(a.flo, b.flo), fmin(a.fhi, b.fhi), a.g > b.g ? a.g : b.g, a.canon && b.canon); break;
    case OP_MAX: r = a_float(fmax(a.flo, b.flo), fmax(a.fhi, b.fhi), a.g > b.g ? a.g : b.g, a.canon && b.canon); break;
    case OP_MOV: r = a; break;
    case OP_ROUND_NE: case OP_ROUND_NI: case OP_ROUND_PI: case OP_ROUND_Z:
        r = a_float(floor(a.flo), ceil(a.fhi), 0, a.canon && a.flo >= 0);
        break;
    case OP_FRC:
        /* x - floor(x) is exact for x >= 0; for x < 0 it is x + n, exact while g <= 23 */
        if (a.flo < 0 && a.g > 23)
            *ok = false;
        r = a_float(0.0, a.g ? 1.0 - ldexp(1.0, -a.g) : 0.0, a.g, true);
        break;
    case OP_EQ: case OP_NE: case OP_LT: case OP_GE: return a_int_range(-1, 0);
    case OP_FTOI:
        if (a.flo <= -2147483648.0 || a.fhi >= 2147483648.0)
            *ok = false;
        return a_int_range((int64_t)trunc(a.flo), (int64_t)trunc(a.fhi));
    case OP_FTOU: /* the source carries |abs| */
        if (a.flo < 0 || a.fhi >= 2147483648.0)
            *ok = false;
        return a_int_range((int64_t)trunc(a.flo), (int64_t)trunc(a.fhi));
    case OP_F32TOF16: {
        /* an exact half: 11 significant bits, a normal exponent, no -0 */
        double m = fmax(fabs(a.flo), fabs(a.fhi));
        if (!a.canon || a.g > 14 || ldexp(m, a.g) >= 2048.0 || m > 65504.0)
            *ok = false;
        return a_int_range(0, 0xFFFF);
    }
    default: *ok = false; return a;
    }
    return (controls & SM4_SAT) ? saturate(r) : r;
}

/* Result of destination `d` of `in` in one lane from its source values. */
static struct aval lane_op(const struct ginst *in, uint32_t d, struct aval *s, bool *ok)
{
    uint16_t op = in->opcode;
    bool float_mov = op == OP_MOV && (in->src[0].mod || (in->controls & SM4_SAT));
    if (op == OP_MOV && !float_mov)
        return s[0]; /* bits, whatever they are */
    if (op == OP_MOVC || op == OP_SWAPC) {
        if (rcs_as_int(s[0]).kind != K_INT) {
            *ok = false;
            return s[0];
        }
        return join(s[1], s[2]);
    }
    bool float_srcs = float_mov || op == OP_ADD || op == OP_MUL || op == OP_MIN || op == OP_MAX ||
                      (op >= OP_ROUND_NE && op <= OP_ROUND_Z) || op == OP_FRC || op == OP_EQ || op == OP_NE ||
                      op == OP_LT || op == OP_GE || op == OP_FTOI || op == OP_FTOU || op == OP_F32TOF16;
    for (uint32_t k = 0; k < in->nsrc; k++) {
        if (float_srcs ? s[k].kind != K_FLOAT : (s[k] = rcs_as_int(s[k])).kind != K_INT) {
            *ok = false;
            return s[0];
        }
    }
    return float_srcs ? float_op(op, in->controls, s, ok) : int_op(op, d, s, ok);
}

/* Applies one instruction to `st`; false (and `st` unchanged) when it would read a value
 * it must not or leave the exact domain. */
bool rcs_inst_apply(struct gen *g, const struct ginst *in, struct astate *st)
{
    struct aval out[2][4];
    bool write[2][4] = { { false } };
    const struct gsrc *last = &in->src[in->nsrc ? in->nsrc - 1 : 0];
    switch (in->sem) {
    case SEM_FIXED:
        return true;
    case SEM_ATOMIC:
        return rcs_as_int(read_src(g, st, &in->src[1], 0, false)).kind == K_INT;
    case SEM_XSTORE:
        for (uint32_t c = 0; c < 4; c++)
            g->xfer[in->xfer][c] = read_src(g, st, last, c, false);
        return true;
    case SEM_XLOAD: case SEM_LOAD:
        for (uint32_t lane = 0; lane < 4; lane++) {
            if (!((in->dst[0].mask >> lane) & 1))
                continue;
            write[0][lane] = true;
            out[0][lane] = in->sem == SEM_XLOAD               ? g->xfer[in->xfer][last->swz[lane]]
                           : in->load_kind == LOAD_FLOAT      ? a_float(-2.0, 2.0, 8, true)
                           : in->load_kind == LOAD_SMALL_UINT ? a_int_range(0, 15)
                                                              : a_int_full();
        }
        break;
    default:
        for (uint32_t d = 0; d < in->ndst; d++) {
            if (in->dst[d].file == F_NONE)
                continue;
            for (uint32_t lane = 0; lane < 4; lane++) {
                if (!((in->dst[d].mask >> lane) & 1))
                    continue;
                struct aval s[4] = { { 0 } };
                bool ok = true, int_mod = in->opcode == OP_IADD || in->opcode == OP_IMAD;
                for (uint32_t k = 0; k < in->nsrc; k++)
                    s[k] = read_src(g, st, &in->src[k], lane, int_mod);
                struct aval r = lane_op(in, d, s, &ok);
                if (!ok)
                    return false;
                if (in->dst[d].file == F_TEMP) {
                    out[d][lane] = r;
                    write[d][lane] = true;
                }
            }
        }
        break;
    }
    /* every source is read before any destination is written, as in D3D */
    for (uint32_t d = 0; d < 2; d++)
        for (uint32_t lane = 0; lane < 4; lane++)
            if (write[d][lane])
                st->r[in->dst[d].reg][lane] = out[d][lane];
    return true;
}

/* ---- the range check over the tree ------------------------------------- */



void rcs_run_node(struct gen *g, uint32_t n, struct astate *st, struct flow *f)
{
    struct node *nd = &g->nodes[n];
    if (nd->dead || !st->live)
        return;
    switch (nd->type) {
    case N_INST:
        if ((nd->requires && g->nodes[nd->requires].dead) || !rcs_inst_apply(g, &nd->inst, st)) {
            nd->dead = true;
            g->deaths++;
        }
        break;
    case N_IF: {
        struct astate a = *st, b = *st;
        rcs_run_list(g, nd->kid[0].head, &a, f);
        rcs_run_list(g, nd->kid[1].head, &b, f);
        join_state(&a, &b);
        *st = a;
        break;
    }
    case N_LOOP: {
        /* iteration k starts from what iteration k-1 left (its end and its continues);
         * after the loop: any iteration's start (the count test) or a break */
        struct astate cur = *st, after = { .live = false };
        for (uint32_t it = 0;; it++) {
            join_state(&after, &cur);
            if (it == nd->trips || !cur.live)
                break;
            struct flow lf = { .brk = { .live = false }, .cont = { .live = false } };
            rcs_run_list(g, nd->kid[0].head, &cur, &lf);
            join_state(&after, &lf.brk);
            join_state(&cur, &lf.cont);
        }
        *st = after;
        break;
    }
    case N_SWITCH: {
        struct astate out = { .live = false };
        bool has_default = false;
        for (uint32_t c = nd->kid[0].head; c; c = g->nodes[c].next) {
            struct astate cs = *st;
            rcs_run_list(g, g->nodes[c].kid[0].head, &cs, f);
            join_state(&out, &cs);
            has_default |= g->nodes[c].is_default;
        }
        if (!has_default)
            join_state(&out, st);
        *st = out;
        break;
    }
    case N_BREAKC:
        if (f)
            join_state(&f->brk, st);
        break;
    case N_CONTC:
        if (f)
            join_state(&f->cont, st);
        break;
    default:
        break;
    }
}

void rcs_run_list(struct gen *g, uint32_t head, struct astate *st, struct flow *f)
{
    for (uint32_t n = head; n; n = g->nodes[n].next)
        rcs_run_node(g, n, st, f);
}

