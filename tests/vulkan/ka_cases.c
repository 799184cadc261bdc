/* SPDX-License-Identifier: MIT */
/*
 * Known-answer cases other than the ALU table (ka_alu.c): control flow
 * (if/else, loop with break/continue, switch, retc, call, callc),
 * indexable temps, the immediate constant buffer, typed / raw / structured
 * UAV loads and stores (one read past the end, which D3D defines as 0),
 * atomics with and without return values, group-shared memory with a
 * barrier, and textures read with ld and sample_l. Each builder writes
 * the program, the resources and the expected contents; the expected
 * values follow from the program text by hand and are spelled out as C.
 */
#include <string.h>

#include "ka_cases.h"
#include "translator/ir.h"

#define N 8 /* threads per case */

uint32_t ka_f(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

float ka_asf(uint32_t u)
{
    float f;
    memcpy(&f, &u, 4);
    return f;
}

uint64_t ka_d(double d)
{
    uint64_t u;
    memcpy(&u, &d, 8);
    return u;
}

double ka_asd(uint64_t u)
{
    double d;
    memcpy(&d, &u, 8);
    return d;
}

struct ka_resource *ka_add(struct ka_case *c, uint32_t cls, uint32_t reg, enum ka_kind kind,
                           uint32_t dwords)
{
    struct ka_resource *r = &c->res[c->resource_count < KA_MAX_RESOURCES ? c->resource_count++
                                                                          : KA_MAX_RESOURCES - 1];
    memset(r, 0, sizeof(*r));
    r->resource_class = cls;
    r->reg = reg;
    r->kind = kind;
    r->dwords = dwords;
    return r;
}

/* The usual frame: N threads, u0 raw output of `dwords`, checked exactly. */
static struct ka_resource *frame(struct ka_case *c, const char *name, uint32_t temps,
                                 uint32_t dwords)
{
    memset(c, 0, sizeof(*c));
    snprintf(c->name, sizeof(c->name), "%s", name);
    c->groups = 1;
    sm4_begin_cs(&c->program, N, 1, 1, temps);
    sm4_dcl_uav_raw(&c->program, 0);
    sm4_dcl_thread_id(&c->program, T_THREAD_ID, "x");
    struct ka_resource *out = ka_add(c, SB_IR_RESOURCE_UAV, 0, KA_BUFFER, dwords);
    out->check = true;
    out->check_count = dwords;
    return out;
}

/* r7.x = 4 * thread id: the byte offset of the thread's output dword. */
static void out_offset(struct sm4_program *p)
{
    I(p, OP_ISHL, dr(7, "x"), special(T_THREAD_ID, "x"), l1(2));
}

static void flow_if_else(struct ka_case *c)
{
    struct ka_resource *out = frame(c, "flow_if_else", 8, N);
    struct sm4_program *p = &c->program;
    out_offset(p);
    I(p, OP_AND, dr(0, "x"), special(T_THREAD_ID, "x"), l1(1));
    IC(p, OP_IF, SM4_NZ, sr(0, "x"));
    I(p, OP_IADD, dr(1, "x"), special(T_THREAD_ID, "x"), l1(100));
    I0(p, OP_ELSE, 0);
    I(p, OP_IADD, dr(1, "x"), special(T_THREAD_ID, "x"), l1(200));
    I0(p, OP_ENDIF, 0);
    I(p, OP_STORE_RAW, du(0, "x"), sr(7, "x"), sr(1, "x"));
    sm4_end(p);
    for (uint32_t i = 0; i < N; i++)
        out->expect[i] = (i & 1) ? 100 + i : 200 + i;
}

static void flow_loop(struct ka_case *c)
{
    struct ka_resource *out = frame(c, "flow_loop_break_continue", 8, N);
    struct sm4_program *p = &c->program;
    out_offset(p);
    I(p, OP_MOV, dr(1, "x"), l1(0));
    I(p, OP_MOV, dr(2, "x"), l1(0));
    I0(p, OP_LOOP, 0);
    I(p, OP_UGE, dr(3, "x"), sr(2, "x"), l1(10));
    IC(p, OP_BREAKC, SM4_NZ, sr(3, "x"));
    I(p, OP_IADD, dr(2, "x"), sr(2, "x"), l1(1));
    I(p, OP_AND, dr(3, "y"), sr(2, "x"), l1(1));
    IC(p, OP_CONTINUEC, SM4_NZ, sr(3, "y"));
    I(p, OP_IADD, dr(1, "x"), sr(1, "x"), sr(2, "x"));
    I(p, OP_ULT, dr(3, "z"), special(T_THREAD_ID, "x"), sr(2, "x"));
    IC(p, OP_BREAKC, SM4_NZ, sr(3, "z"));
    I0(p, OP_ENDLOOP, 0);
    I(p, OP_STORE_RAW, du(0, "x"), sr(7, "x"), sr(1, "x"));
    sm4_end(p);
    for (uint32_t i = 0; i < N; i++) {
        uint32_t sum = 0, j = 0;
        for (;;) {
            if (j >= 10)
                break;
            j++;
            if (j & 1)
                continue;
            sum += j;
            if (i < j)
                break;
        }
        out->expect[i] = sum;
    }
}

static void flow_switch(struct ka_case *c)
{
    struct ka_resource *out = frame(c, "flow_switch", 8, N);
    struct sm4_program *p = &c->program;
    out_offset(p);
    I(p, OP_SWITCH, special(T_THREAD_ID, "x"));
    I(p, OP_CASE, l1(0));
    I(p, OP_MOV, dr(1, "x"), l1(10));
    I0(p, OP_BREAK, 0);
    I(p, OP_CASE, l1(1));
    I(p, OP_CASE, l1(2));
    I(p, OP_MOV, dr(1, "x"), l1(12));
    I0(p, OP_BREAK, 0);
    I(p, OP_CASE, l1(5));
    I(p, OP_MOV, dr(1, "x"), l1(15));
    I0(p, OP_BREAK, 0);
    I0(p, OP_DEFAULT, 0);
    I(p, OP_MOV, dr(1, "x"), l1(99));
    I0(p, OP_BREAK, 0);
    I0(p, OP_ENDSWITCH, 0);
    I(p, OP_STORE_RAW, du(0, "x"), sr(7, "x"), sr(1, "x"));
    sm4_end(p);
    for (uint32_t i = 0; i < N; i++)
        out->expect[i] = i == 0 ? 10 : i <= 2 ? 12 : i == 5 ? 15 : 99;
}

static void flow_retc(struct ka_case *c)
{
    struct ka_resource *out = frame(c, "flow_retc", 8, N);
    struct sm4_program *p = &c->program;
    out_offset(p);
    I(p, OP_UGE, dr(0, "y"), special(T_THREAD_ID, "x"), l1(5));
    IC(p, OP_RETC, SM4_NZ, sr(0, "y"));
    I(p, OP_IADD, dr(1, "x"), special(T_THREAD_ID, "x"), l1(1000));
    I(p, OP_STORE_RAW, du(0, "x"), sr(7, "x"), sr(1, "x"));
    sm4_end(p);
    for (uint32_t i = 0; i < N; i++) {
        out->init[i] = 0xDEADBEEFu;
        out->expect[i] = i < 5 ? 1000 + i : 0xDEADBEEFu;
    }
}

/* call l0 twice (or callc on odd threads); l0 doubles r1.x. */
static void flow_call(struct ka_case *c, bool conditional)
{
    struct ka_resource *out = frame(c, conditional ? "flow_callc" : "flow_call_label", 8, N);
    struct sm4_program *p = &c->program;
    out_offset(p);
    I(p, OP_IADD, dr(1, "x"), special(T_THREAD_ID, "x"), l1(1));
    if (conditional) {
        I(p, OP_AND, dr(0, "x"), special(T_THREAD_ID, "x"), l1(1));
        IC(p, OP_CALLC, SM4_NZ, sr(0, "x"), label(0));
    } else {
        I(p, OP_CALL, label(0));
        I(p, OP_CALL, label(0));
    }
    I(p, OP_STORE_RAW, du(0, "x"), sr(7, "x"), sr(1, "x"));
    I0(p, OP_RET, 0);
    I(p, OP_LABEL, label(0));
    I(p, OP_IADD, dr(1, "x"), sr(1, "x"), sr(1, "x"));
    sm4_end(p);
    for (uint32_t i = 0; i < N; i++)
        out->expect[i] = conditional ? ((i & 1) ? (i + 1) * 2 : i + 1) : (i + 1) * 4;
}

static void flow_callc(struct ka_case *c) { flow_call(c, true); }
static void flow_call_plain(struct ka_case *c) { flow_call(c, false); }

static void indexable_temp(struct ka_case *c)
{
    struct ka_resource *out = frame(c, "indexable_temp", 8, N * 2);
    struct sm4_program *p = &c->program;
    sm4_dcl_indexable_temp(p, 0, 4, 4);
    I(p, OP_ISHL, dr(7, "x"), special(T_THREAD_ID, "x"), l1(3));
    for (uint32_t k = 0; k < 4; k++)
        I(p, OP_MOV, sx(0, k, NULL, "xyzw", 1), l4(k * k + 1, 50 + k, 0, 0));
    I(p, OP_AND, dr(0, "x"), special(T_THREAD_ID, "x"), l1(3));
    struct sm4_operand rel = sr(0, "x");
    I(p, OP_MOV, sx(0, 0, &rel, "y", 1), l1(77));
    I(p, OP_MOV, dr(1, "xy"), sx(0, 0, &rel, "xyxx", 0));
    I(p, OP_XOR, dr(0, "y"), sr(0, "x"), l1(1));
    struct sm4_operand other = sr(0, "y");
    I(p, OP_MOV, dr(1, "y"), sx(0, 0, &other, "y", 0));
    I(p, OP_STORE_RAW, du(0, "xy"), sr(7, "x"), sr(1, "xyxx"));
    sm4_end(p);
    for (uint32_t i = 0; i < N; i++) {
        uint32_t k = i & 3;
        out->expect[2 * i] = k * k + 1;
        /* element k's .y is 77 now; its neighbour k^1 keeps 50 + (k^1) */
        out->expect[2 * i + 1] = 50 + (k ^ 1);
    }
}

static void icb(struct ka_case *c)
{
    struct ka_resource *out = frame(c, "immediate_constant_buffer", 8, N * 4);
    struct sm4_program *p = &c->program;
    uint32_t data[16];
    for (uint32_t k = 0; k < 16; k++)
        data[k] = 1000 + 10 * (k / 4) + k % 4;
    sm4_icb(p, data, 16);
    I(p, OP_ISHL, dr(7, "x"), special(T_THREAD_ID, "x"), l1(4));
    I(p, OP_AND, dr(0, "x"), special(T_THREAD_ID, "x"), l1(3));
    struct sm4_operand rel = sr(0, "x");
    I(p, OP_MOV, dr(1, "xyzw"), sicb(0, &rel, "wzyx"));
    I(p, OP_STORE_RAW, du(0, "xyzw"), sr(7, "x"), sr(1, "xyzw"));
    sm4_end(p);
    for (uint32_t i = 0; i < N; i++)
        for (uint32_t k = 0; k < 4; k++)
            out->expect[4 * i + k] = data[4 * (i & 3) + (3 - k)];
}

static void uav_typed(struct ka_case *c)
{
    memset(c, 0, sizeof(*c));
    snprintf(c->name, sizeof(c->name), "uav_typed_buffer");
    c->groups = 1;
    struct sm4_program *p = &c->program;
    sm4_begin_cs(p, N, 1, 1, 4);
    sm4_dcl_uav_typed(p, 1, 1, 0x4444);
    sm4_dcl_uav_typed(p, 2, 1, 0x4444);
    sm4_dcl_thread_id(p, T_THREAD_ID, "x");
    I(p, OP_LD_UAV_TYPED, dr(0, "xyzw"), special(T_THREAD_ID, "xxxx"), su(1, "xyzw"));
    I(p, OP_IMUL, snull(), dr(0, "x"), sr(0, "x"), l1(3));
    I(p, OP_STORE_UAV_TYPED, du(2, "xyzw"), special(T_THREAD_ID, "xxxx"), sr(0, "xxxx"));
    sm4_end(p);
    struct ka_resource *in = ka_add(c, SB_IR_RESOURCE_UAV, 1, KA_TEXEL_BUFFER, N);
    struct ka_resource *out = ka_add(c, SB_IR_RESOURCE_UAV, 2, KA_TEXEL_BUFFER, N);
    in->format = out->format = 98; /* VK_FORMAT_R32_UINT */
    out->check = true;
    out->check_count = N;
    for (uint32_t i = 0; i < N; i++) {
        in->init[i] = 0x01000000u + i * 11;
        out->expect[i] = in->init[i] * 3;
    }
}

static void uav_raw(struct ka_case *c)
{
    struct ka_resource *out = frame(c, "uav_raw_and_out_of_bounds", 8, N * 4);
    struct sm4_program *p = &c->program;
    sm4_dcl_uav_raw(p, 1);
    I(p, OP_ISHL, dr(7, "x"), special(T_THREAD_ID, "x"), l1(4));
    /* the last thread reads 4 KiB past the end of u1: D3D gives zeros */
    I(p, OP_IEQ, dr(0, "x"), special(T_THREAD_ID, "x"), l1(N - 1));
    I(p, OP_MOVC, dr(0, "y"), sr(0, "x"), l1(4096), sr(7, "x"));
    I(p, OP_LD_RAW, dr(1, "xyzw"), sr(0, "y"), su(1, "xyzw"));
    I(p, OP_IADD, dr(1, "xyzw"), sr(1, "xyzw"), l4(1, 2, 3, 4));
    I(p, OP_STORE_RAW, du(0, "xyzw"), sr(7, "x"), sr(1, "xyzw"));
    sm4_end(p);
    struct ka_resource *in = ka_add(c, SB_IR_RESOURCE_UAV, 1, KA_BUFFER, N * 4);
    for (uint32_t i = 0; i < N * 4; i++)
        in->init[i] = 0xA0000000u + i;
    for (uint32_t i = 0; i < N; i++)
        for (uint32_t k = 0; k < 4; k++)
            out->expect[4 * i + k] = (i == N - 1 ? 0 : in->init[4 * i + k]) + k + 1;
}

static void uav_structured(struct ka_case *c)
{
    memset(c, 0, sizeof(*c));
    snprintf(c->name, sizeof(c->name), "uav_structured");
    c->groups = 1;
    struct sm4_program *p = &c->program;
    sm4_begin_cs(p, N, 1, 1, 4);
    sm4_dcl_uav_structured(p, 0, 12);
    sm4_dcl_uav_structured(p, 1, 12);
    sm4_dcl_thread_id(p, T_THREAD_ID, "x");
    I(p, OP_LD_STRUCTURED, dr(0, "xyz"), special(T_THREAD_ID, "x"), l1(0), su(1, "xyzx"));
    I(p, OP_LD_STRUCTURED, dr(1, "x"), special(T_THREAD_ID, "x"), l1(8), su(1, "x"));
    I(p, OP_STORE_STRUCTURED, du(0, "xyz"), special(T_THREAD_ID, "x"), l1(0), sr(0, "zxyz"));
    I(p, OP_STORE_STRUCTURED, du(0, "x"), special(T_THREAD_ID, "x"), l1(4), sr(1, "x"));
    sm4_end(p);
    struct ka_resource *out = ka_add(c, SB_IR_RESOURCE_UAV, 0, KA_BUFFER, N * 3);
    struct ka_resource *in = ka_add(c, SB_IR_RESOURCE_UAV, 1, KA_BUFFER, N * 3);
    out->check = true;
    out->check_count = N * 3;
    for (uint32_t i = 0; i < N * 3; i++)
        in->init[i] = 0x5000u + i;
    for (uint32_t i = 0; i < N; i++) {
        const uint32_t *s = &in->init[3 * i];
        out->expect[3 * i] = s[2];
        out->expect[3 * i + 1] = s[2]; /* member at byte 4 overwritten by the second store */
        out->expect[3 * i + 2] = s[1];
    }
}

static void atomics(struct ka_case *c)
{
    struct ka_resource *out = frame(c, "atomics", 8, 8);
    struct sm4_program *p = &c->program;
    sm4_dcl_uav_raw(p, 1);
    struct sm4_operand tid = special(T_THREAD_ID, "x");
    I(p, OP_IADD, dr(0, "x"), tid, l1(1));
    I(p, OP_ATOMIC_IADD, du(0, ""), l1(0), sr(0, "x"));
    I(p, OP_IMUL, snull(), dr(0, "y"), tid, l1(7));
    I(p, OP_ATOMIC_UMAX, du(0, ""), l1(4), sr(0, "y"));
    I(p, OP_ISHL, dr(0, "z"), l1(1), tid);
    I(p, OP_ATOMIC_OR, du(0, ""), l1(8), sr(0, "z"));
    I(p, OP_NOT, dr(0, "w"), sr(0, "z"));
    I(p, OP_ATOMIC_AND, du(0, ""), l1(12), sr(0, "w"));
    I(p, OP_INEG, dr(1, "x"), tid);
    I(p, OP_ATOMIC_IMIN, du(0, ""), l1(16), sr(1, "x"));
    I(p, OP_ATOMIC_XOR, du(0, ""), l1(20), sr(0, "z"));
    /* returning forms: imm_atomic_iadd's old value goes to u1[i] (0..N-1 in any
     * order); imm_atomic_umax's result is only seen in u0 */
    I(p, OP_IMM_ATOMIC_IADD, dr(2, "x"), du(0, ""), l1(24), l1(1));
    I(p, OP_IMM_ATOMIC_UMAX, dr(2, "y"), du(0, ""), l1(28), tid);
    out_offset(p);
    I(p, OP_STORE_RAW, du(1, "x"), sr(7, "x"), sr(2, "x"));
    sm4_end(p);
    struct ka_resource *ret = ka_add(c, SB_IR_RESOURCE_UAV, 1, KA_BUFFER, N);
    out->init[3] = 0xFFFFFFFFu;
    uint32_t expect[8] = { 0, 0, 0, 0xFFFFFFFFu, 0, 0, N, N - 1 };
    for (uint32_t i = 0; i < N; i++) {
        expect[0] += i + 1;
        expect[1] = i * 7 > expect[1] ? i * 7 : expect[1];
        expect[2] |= 1u << i;
        expect[3] &= ~(1u << i);
        expect[4] = (uint32_t)((int32_t)expect[4] < -(int32_t)i ? (int32_t)expect[4] : -(int32_t)i);
        expect[5] ^= 1u << i;
    }
    memcpy(out->expect, expect, sizeof(expect));
    ret->check = true;
    ret->compare = KA_MULTISET;
    ret->check_count = N;
    for (uint32_t i = 0; i < N; i++)
        ret->expect[i] = i;
}

/* Per-thread addresses make exchange and compare-exchange deterministic. */
static void atomics_exchange(struct ka_case *c)
{
    struct ka_resource *out = frame(c, "atomics_exchange", 8, N * 3);
    struct sm4_program *p = &c->program;
    sm4_dcl_uav_raw(p, 1);
    struct sm4_operand tid = special(T_THREAD_ID, "x");
    out_offset(p);
    I(p, OP_IADD, dr(0, "x"), tid, l1(100));
    I(p, OP_IMM_ATOMIC_EXCH, dr(1, "x"), du(0, ""), sr(7, "x"), sr(0, "x"));
    /* odd threads compare with their own index (a match), even ones with 999 */
    I(p, OP_AND, dr(0, "y"), tid, l1(1));
    I(p, OP_MOVC, dr(0, "z"), sr(0, "y"), tid, l1(999));
    I(p, OP_IADD, dr(0, "w"), sr(7, "x"), l1(N * 4));
    I(p, OP_IMM_ATOMIC_CMP_EXCH, dr(1, "y"), du(0, ""), sr(0, "w"), sr(0, "z"), l1(0x77));
    I(p, OP_IADD, dr(0, "w"), sr(7, "x"), l1(N * 8));
    I(p, OP_ATOMIC_CMP_STORE, du(0, ""), sr(0, "w"), sr(0, "z"), l1(0x88));
    I(p, OP_ISHL, dr(7, "y"), tid, l1(3));
    I(p, OP_STORE_RAW, du(1, "xy"), sr(7, "y"), sr(1, "xyxx"));
    sm4_end(p);
    struct ka_resource *ret = ka_add(c, SB_IR_RESOURCE_UAV, 1, KA_BUFFER, N * 2);
    ret->check = true;
    ret->check_count = N * 2;
    for (uint32_t i = 0; i < N; i++) {
        out->init[i] = i * 2;
        out->init[N + i] = i;
        out->init[2 * N + i] = i;
        out->expect[i] = i + 100;
        out->expect[N + i] = (i & 1) ? 0x77 : i;
        out->expect[2 * N + i] = (i & 1) ? 0x88 : i;
        ret->expect[2 * i] = i * 2;
        ret->expect[2 * i + 1] = i;
    }
}

/* Read-only buffers: ByteAddressBuffer t0, StructuredBuffer (stride 8) t1, Buffer<uint> t2. */
static void srv_buffers(struct ka_case *c)
{
    struct ka_resource *out = frame(c, "srv_raw_structured_typed", 8, N * 4);
    struct sm4_program *p = &c->program;
    sm4_dcl_resource_raw(p, 0);
    sm4_dcl_resource_structured(p, 1, 8);
    sm4_dcl_resource(p, 2, 1, 0x4444);
    struct sm4_operand tid = special(T_THREAD_ID, "x");
    I(p, OP_ISHL, dr(7, "x"), tid, l1(4));
    I(p, OP_ISHL, dr(0, "x"), tid, l1(2));
    I(p, OP_LD_RAW, dr(1, "x"), sr(0, "x"), st(0, "xxxx"));
    I(p, OP_LD_STRUCTURED, dr(1, "yz"), tid, l1(0), st(1, "xxyx"));
    I(p, OP_LD, dr(1, "w"), special(T_THREAD_ID, "xxxx"), st(2, "xxxx"));
    I(p, OP_STORE_RAW, du(0, "xyzw"), sr(7, "x"), sr(1, "xyzw"));
    sm4_end(p);
    struct ka_resource *raw = ka_add(c, SB_IR_RESOURCE_SRV, 0, KA_BUFFER, N);
    struct ka_resource *st1 = ka_add(c, SB_IR_RESOURCE_SRV, 1, KA_BUFFER, N * 2);
    struct ka_resource *typed = ka_add(c, SB_IR_RESOURCE_SRV, 2, KA_TEXEL_BUFFER, N);
    typed->format = 98; /* VK_FORMAT_R32_UINT */
    for (uint32_t i = 0; i < N; i++) {
        raw->init[i] = 0x1000 + i;
        st1->init[2 * i] = 0x2000 + i;
        st1->init[2 * i + 1] = 0x3000 + i;
        typed->init[i] = 0x4000 + i;
        out->expect[4 * i] = raw->init[i];
        out->expect[4 * i + 1] = st1->init[2 * i];
        out->expect[4 * i + 2] = st1->init[2 * i + 1];
        out->expect[4 * i + 3] = typed->init[i];
    }
}

/* Atomics on group-shared memory between two barriers. */
static void tgsm_atomics(struct ka_case *c)
{
    struct ka_resource *out = frame(c, "group_shared_atomics", 8, N * 2);
    struct sm4_program *p = &c->program;
    sm4_dcl_tgsm_raw(p, 0, 8);
    struct sm4_operand tid = special(T_THREAD_ID, "x");
    I(p, OP_ISHL, dr(7, "x"), tid, l1(3));
    I(p, OP_IEQ, dr(0, "x"), tid, l1(0));
    IC(p, OP_IF, SM4_NZ, sr(0, "x"));
    I(p, OP_STORE_RAW, dg(0, "xy"), l1(0), l4(0, 0, 0, 0));
    I0(p, OP_ENDIF, 0);
    I0(p, OP_SYNC, SM4_SYNC_G | SM4_SYNC_T);
    I(p, OP_ATOMIC_IADD, dg(0, ""), l1(0), l1(3));
    I(p, OP_IMM_ATOMIC_IADD, dr(1, "y"), dg(0, ""), l1(4), l1(1));
    I0(p, OP_SYNC, SM4_SYNC_G | SM4_SYNC_T);
    I(p, OP_LD_RAW, dr(1, "x"), l1(0), sg(0, "x"));
    I(p, OP_STORE_RAW, du(0, "xy"), sr(7, "x"), sr(1, "xyxx"));
    sm4_end(p);
    /* every thread sees the sum 3N; the old values of the second counter are 0..N-1 */
    out->compare = KA_MULTISET;
    for (uint32_t i = 0; i < N; i++) {
        out->expect[2 * i] = 3 * N;
        out->expect[2 * i + 1] = i;
    }
}

/* bufinfo: bytes of a raw UAV, structures of a structured UAV. */
static void bufinfo(struct ka_case *c)
{
    struct ka_resource *out = frame(c, "bufinfo", 8, 4);
    struct sm4_program *p = &c->program;
    sm4_dcl_uav_structured(p, 1, 12);
    I(p, OP_BUFINFO, dr(0, "x"), su(0, "xxxx"));
    I(p, OP_BUFINFO, dr(0, "y"), su(1, "xxxx"));
    I(p, OP_IEQ, dr(1, "x"), special(T_THREAD_ID, "x"), l1(0));
    IC(p, OP_IF, SM4_NZ, sr(1, "x"));
    I(p, OP_STORE_RAW, du(0, "xy"), l1(0), sr(0, "xyxx"));
    I0(p, OP_ENDIF, 0);
    sm4_end(p);
    ka_add(c, SB_IR_RESOURCE_UAV, 1, KA_BUFFER, 30); /* 10 structures of 12 bytes */
    out->check_count = 2;
    out->expect[0] = 16; /* u0: 4 dwords */
    out->expect[1] = 10;
}

/* A switch inside a loop: `break` leaves the switch, `continue` the loop; plus an
 * if nested in a case and a conditional break of the loop from inside the switch. */
static void flow_nested(struct ka_case *c)
{
    struct ka_resource *out = frame(c, "flow_loop_switch_nested", 8, N);
    struct sm4_program *p = &c->program;
    out_offset(p);
    I(p, OP_MOV, dr(1, "x"), l1(0)); /* sum */
    I(p, OP_MOV, dr(2, "x"), l1(0)); /* j */
    I0(p, OP_LOOP, 0);
    I(p, OP_IADD, dr(2, "x"), sr(2, "x"), l1(1));
    I(p, OP_UGE, dr(3, "x"), sr(2, "x"), l1(12));
    IC(p, OP_BREAKC, SM4_NZ, sr(3, "x"));
    I(p, OP_AND, dr(3, "y"), sr(2, "x"), l1(3));
    I(p, OP_SWITCH, sr(3, "y"));
    I(p, OP_CASE, l1(0));
    I0(p, OP_CONTINUE, 0);                       /* j % 4 == 0: skip */
    I(p, OP_CASE, l1(1));
    I(p, OP_IADD, dr(1, "x"), sr(1, "x"), sr(2, "x"));
    I0(p, OP_BREAK, 0);
    I(p, OP_CASE, l1(2));
    I(p, OP_ULT, dr(3, "z"), special(T_THREAD_ID, "x"), sr(2, "x"));
    IC(p, OP_IF, SM4_NZ, sr(3, "z"));
    I(p, OP_IADD, dr(1, "x"), sr(1, "x"), l1(100));
    I0(p, OP_ELSE, 0);
    I(p, OP_IADD, dr(1, "x"), sr(1, "x"), l1(1000));
    I0(p, OP_ENDIF, 0);
    I0(p, OP_BREAK, 0);
    I0(p, OP_DEFAULT, 0);
    I(p, OP_IEQ, dr(3, "w"), special(T_THREAD_ID, "x"), sr(2, "x"));
    IC(p, OP_BREAKC, SM4_NZ, sr(3, "w"));        /* leaves the switch only */
    I(p, OP_IADD, dr(1, "x"), sr(1, "x"), l1(10000));
    I0(p, OP_BREAK, 0);
    I0(p, OP_ENDSWITCH, 0);
    I(p, OP_IADD, dr(1, "x"), sr(1, "x"), l1(1));  /* after the switch, still in the loop */
    I0(p, OP_ENDLOOP, 0);
    I(p, OP_STORE_RAW, du(0, "x"), sr(7, "x"), sr(1, "x"));
    sm4_end(p);
    for (uint32_t i = 0; i < N; i++) {
        uint32_t sum = 0;
        for (uint32_t j = 1; j < 12; j++) {
            switch (j & 3) {
            case 0:
                continue;
            case 1:
                sum += j;
                break;
            case 2:
                sum += i < j ? 100 : 1000;
                break;
            default:
                if (i != j)
                    sum += 10000;
                break;
            }
            sum += 1;
        }
        out->expect[i] = sum;
    }
}

/* Append buffer: imm_atomic_alloc hands out 0..N-1; each thread stores its id there. */
static void append_counter(struct ka_case *c)
{
    struct ka_resource *out = frame(c, "append_counter", 8, N);
    struct sm4_program *p = &c->program;
    sm4_dcl_uav_structured(p, 1, 4);
    I(p, OP_IMM_ATOMIC_ALLOC, dr(0, "x"), du(1, ""));
    I(p, OP_STORE_STRUCTURED, du(1, "x"), sr(0, "x"), l1(0), special(T_THREAD_ID, "x"));
    out_offset(p);
    I(p, OP_STORE_RAW, du(0, "x"), sr(7, "x"), sr(0, "x"));
    sm4_end(p);
    struct ka_resource *buf = ka_add(c, SB_IR_RESOURCE_UAV, 1, KA_BUFFER, N);
    out->compare = KA_MULTISET;
    buf->check = true;
    buf->compare = KA_MULTISET;
    buf->check_count = N;
    for (uint32_t i = 0; i < N; i++) {
        out->expect[i] = i;
        buf->expect[i] = i;
    }
}

static void group_shared(struct ka_case *c)
{
    struct ka_resource *out = frame(c, "group_shared_sync", 8, N);
    struct sm4_program *p = &c->program;
    sm4_dcl_tgsm_raw(p, 0, N * 4);
    out_offset(p);
    I(p, OP_IMUL, snull(), dr(0, "x"), special(T_THREAD_ID, "x"), l1(3));
    I(p, OP_IADD, dr(0, "x"), sr(0, "x"), l1(1));
    I(p, OP_STORE_RAW, dg(0, "x"), sr(7, "x"), sr(0, "x"));
    I0(p, OP_SYNC, SM4_SYNC_G | SM4_SYNC_T);
    I(p, OP_IADD, dr(1, "x"), special(T_THREAD_ID, "x"), l1(1));
    I(p, OP_AND, dr(1, "x"), sr(1, "x"), l1(N - 1));
    I(p, OP_ISHL, dr(1, "x"), sr(1, "x"), l1(2));
    I(p, OP_LD_RAW, dr(2, "x"), sr(1, "x"), sg(0, "x"));
    I(p, OP_STORE_RAW, du(0, "x"), sr(7, "x"), sr(2, "x"));
    sm4_end(p);
    for (uint32_t i = 0; i < N; i++)
        out->expect[i] = ((i + 1) & (N - 1)) * 3 + 1;
}

/* A 4x2 RGBA32F texture read with ld (integer texel) or sample_l (nearest). */
static void texture(struct ka_case *c, bool sample)
{
    struct ka_resource *out = frame(c, sample ? "texture_sample_l" : "texture_ld", 8, N * 4);
    struct sm4_program *p = &c->program;
    sm4_dcl_resource(p, 0, 3, 0x5555);
    if (sample)
        sm4_dcl_sampler(p, 0);
    I(p, OP_ISHL, dr(7, "x"), special(T_THREAD_ID, "x"), l1(4));
    I(p, OP_AND, dr(0, "x"), special(T_THREAD_ID, "x"), l1(3));
    I(p, OP_USHR, dr(0, "y"), special(T_THREAD_ID, "x"), l1(2));
    if (sample) {
        I(p, OP_UTOF, dr(1, "xy"), sr(0, "xyxx"));
        I(p, OP_ADD, dr(1, "xy"), sr(1, "xyxx"), l4(ka_f(0.5f), ka_f(0.5f), 0, 0));
        I(p, OP_MUL, dr(1, "xy"), sr(1, "xyxx"), l4(ka_f(0.25f), ka_f(0.5f), 0, 0));
        I(p, OP_SAMPLE_L, dr(2, "xyzw"), sr(1, "xyxx"), st(0, "xyzw"), ss(0), lf(0.0f));
    } else {
        I(p, OP_MOV, dr(0, "zw"), l4(0, 0, 0, 0));
        I(p, OP_LD, dr(2, "xyzw"), sr(0, "xyzw"), st(0, "xyzw"));
    }
    I(p, OP_STORE_RAW, du(0, "xyzw"), sr(7, "x"), sr(2, "xyzw"));
    sm4_end(p);
    struct ka_resource *img = ka_add(c, SB_IR_RESOURCE_SRV, 0, KA_IMAGE, 4 * 2 * 4);
    img->view_type = 1; /* VK_IMAGE_VIEW_TYPE_2D */
    img->width = 4;
    img->height = 2;
    for (uint32_t t = 0; t < 8; t++)
        for (uint32_t k = 0; k < 4; k++)
            img->init[4 * t + k] = ka_f((float)(t * 10 + k) + 0.25f);
    if (sample)
        ka_add(c, SB_IR_RESOURCE_SAMPLER, 0, KA_SAMPLER, 0);
    memcpy(out->expect, img->init, sizeof(uint32_t) * 32);
}

/* An RGBA32F image whose texel k holds (10k, 10k+1, 10k+2, 10k+3) + 0.25. */
static struct ka_resource *numbered_image(struct ka_case *c, uint32_t view_type, uint32_t w,
                                          uint32_t h, uint32_t d, uint32_t layers, uint32_t mips)
{
    uint32_t texels = 0;
    for (uint32_t m = 0; m < mips; m++)
        texels += (w >> m ? w >> m : 1) * (h >> m ? h >> m : 1) * (d >> m ? d >> m : 1) * layers;
    struct ka_resource *img = ka_add(c, SB_IR_RESOURCE_SRV, 0, KA_IMAGE, texels * 4);
    img->view_type = view_type;
    img->width = w;
    img->height = h;
    img->depth = d;
    img->layers = layers;
    img->mips = mips;
    for (uint32_t t = 0; t < texels; t++)
        for (uint32_t k = 0; k < 4; k++)
            img->init[4 * t + k] = ka_f((float)(t * 10 + k) + 0.25f);
    return img;
}

/* Texture2DArray (2x2, 3 layers): ld at (x, y, layer) and sample_l at the texel centre. */
static void texture_array(struct ka_case *c)
{
    struct ka_resource *out = frame(c, "texture2darray_ld_sample_l", 8, N * 8);
    struct sm4_program *p = &c->program;
    sm4_dcl_resource(p, 0, 8, 0x5555);
    sm4_dcl_sampler(p, 0);
    struct sm4_operand tid = special(T_THREAD_ID, "x");
    I(p, OP_ISHL, dr(7, "x"), tid, l1(5));
    I(p, OP_AND, dr(0, "x"), tid, l1(1));
    I(p, OP_UBFE, dr(0, "y"), l1(1), l1(1), tid);
    I(p, OP_UDIV, snull(), dr(0, "z"), tid, l1(3));
    I(p, OP_MOV, dr(0, "w"), l1(0));
    I(p, OP_LD, dr(2, "xyzw"), sr(0, "xyzw"), st(0, "xyzw"));
    I(p, OP_UTOF, dr(1, "xyz"), sr(0, "xyzx"));
    I(p, OP_ADD, dr(1, "xy"), sr(1, "xyxx"), l4(ka_f(0.5f), ka_f(0.5f), 0, 0));
    I(p, OP_MUL, dr(1, "xy"), sr(1, "xyxx"), l4(ka_f(0.5f), ka_f(0.5f), 0, 0));
    I(p, OP_SAMPLE_L, dr(3, "xyzw"), sr(1, "xyzx"), st(0, "xyzw"), ss(0), lf(0.0f));
    I(p, OP_STORE_RAW, du(0, "xyzw"), sr(7, "x"), sr(2, "xyzw"));
    I(p, OP_IADD, dr(7, "x"), sr(7, "x"), l1(16));
    I(p, OP_STORE_RAW, du(0, "xyzw"), sr(7, "x"), sr(3, "xyzw"));
    sm4_end(p);
    struct ka_resource *img = numbered_image(c, 5 /* 2D_ARRAY */, 2, 2, 1, 3, 1);
    ka_add(c, SB_IR_RESOURCE_SAMPLER, 0, KA_SAMPLER, 0);
    for (uint32_t i = 0; i < N; i++) {
        uint32_t t = (i % 3) * 4 + ((i >> 1) & 1) * 2 + (i & 1);
        memcpy(&out->expect[8 * i], &img->init[4 * t], 16);
        memcpy(&out->expect[8 * i + 4], &img->init[4 * t], 16);
    }
}

/* Texture3D (2x2x2): ld at (x, y, z). */
static void texture_3d(struct ka_case *c)
{
    struct ka_resource *out = frame(c, "texture3d_ld", 8, N * 4);
    struct sm4_program *p = &c->program;
    sm4_dcl_resource(p, 0, 5, 0x5555);
    struct sm4_operand tid = special(T_THREAD_ID, "x");
    I(p, OP_ISHL, dr(7, "x"), tid, l1(4));
    I(p, OP_AND, dr(0, "x"), tid, l1(1));
    I(p, OP_UBFE, dr(0, "y"), l1(1), l1(1), tid);
    I(p, OP_UBFE, dr(0, "z"), l1(1), l1(2), tid);
    I(p, OP_MOV, dr(0, "w"), l1(0));
    I(p, OP_LD, dr(2, "xyzw"), sr(0, "xyzw"), st(0, "xyzw"));
    I(p, OP_STORE_RAW, du(0, "xyzw"), sr(7, "x"), sr(2, "xyzw"));
    sm4_end(p);
    struct ka_resource *img = numbered_image(c, 2 /* 3D */, 2, 2, 2, 1, 1);
    memcpy(out->expect, img->init, sizeof(uint32_t) * N * 4);
}

/* resinfo_uint of a 4x2 Texture2DArray with 3 layers and 2 mips: group g queries mip g.
 * The mip is uniform within a group on purpose: lavapipe 22.3 answers a size query
 * whose lod differs between invocations with the first invocation's size (a GLSL
 * textureSize with a per-invocation lod does the same there). */
static void texture_resinfo(struct ka_case *c)
{
    struct ka_resource *out = frame(c, "texture_resinfo_uint", 8, 2 * N * 4);
    struct sm4_program *p = &c->program;
    c->groups = 2;
    sm4_dcl_resource(p, 0, 8, 0x5555);
    sm4_dcl_thread_id(p, T_GROUP_ID, "x");
    I(p, OP_ISHL, dr(7, "x"), special(T_THREAD_ID, "x"), l1(4));
    I(p, OP_MOV, dr(0, "x"), special(T_GROUP_ID, "x"));
    IC(p, OP_RESINFO, 2u << 11, dr(1, "xyzw"), sr(0, "x"), st(0, "xyzw"));
    I(p, OP_STORE_RAW, du(0, "xyzw"), sr(7, "x"), sr(1, "xyzw"));
    sm4_end(p);
    numbered_image(c, 5 /* 2D_ARRAY */, 4, 2, 1, 3, 2);
    for (uint32_t i = 0; i < 2 * N; i++) {
        uint32_t mip = i / N; /* vThreadID.x = group * N + thread */
        out->expect[4 * i] = 4 >> mip;
        out->expect[4 * i + 1] = 2 >> mip;
        out->expect[4 * i + 2] = 3;
        out->expect[4 * i + 3] = 2;
    }
}

/* gather4 at the centre of a 2x2 texture: the four texels' red (x) or green (y) channel,
 * counter-clockwise from the lower left: (0,1), (1,1), (1,0), (0,0). */
static void texture_gather(struct ka_case *c)
{
    struct ka_resource *out = frame(c, "texture_gather4", 8, N * 4);
    struct sm4_program *p = &c->program;
    sm4_dcl_resource(p, 0, 3, 0x5555);
    sm4_dcl_sampler(p, 0);
    struct sm4_operand tid = special(T_THREAD_ID, "x");
    I(p, OP_ISHL, dr(7, "x"), tid, l1(4));
    I(p, OP_AND, dr(0, "x"), tid, l1(1));
    I(p, OP_GATHER4, dr(1, "xyzw"), l4(ka_f(0.5f), ka_f(0.5f), 0, 0), st(0, "xyzw"),
      ss_channel(0, "x"));
    I(p, OP_GATHER4, dr(2, "xyzw"), l4(ka_f(0.5f), ka_f(0.5f), 0, 0), st(0, "xyzw"),
      ss_channel(0, "y"));
    I(p, OP_MOVC, dr(1, "xyzw"), sr(0, "xxxx"), sr(2, "xyzw"), sr(1, "xyzw"));
    I(p, OP_STORE_RAW, du(0, "xyzw"), sr(7, "x"), sr(1, "xyzw"));
    sm4_end(p);
    struct ka_resource *img = numbered_image(c, 1 /* 2D */, 2, 2, 1, 1, 1);
    ka_add(c, SB_IR_RESOURCE_SAMPLER, 0, KA_SAMPLER, 0);
    static const uint32_t order[4] = { 2, 3, 1, 0 }; /* texel index of (x, y) = y * 2 + x */
    for (uint32_t i = 0; i < N; i++)
        for (uint32_t k = 0; k < 4; k++)
            out->expect[4 * i + k] = img->init[4 * order[k] + (i & 1)];
}

static void texture_ld(struct ka_case *c) { texture(c, false); }
static void texture_sample(struct ka_case *c) { texture(c, true); }

/* One row per case (after the ALU and double tables). */
static void (*const builders[])(struct ka_case *) = {
    flow_if_else, flow_loop, flow_switch, flow_retc, flow_call_plain, flow_callc,
    indexable_temp, icb, uav_typed, uav_raw, uav_structured, atomics, atomics_exchange, group_shared, srv_buffers,
    tgsm_atomics, bufinfo, flow_nested, append_counter,
    texture_ld, texture_sample, texture_array, texture_3d, texture_resinfo, texture_gather,
};

uint32_t ka_case_count(void)
{
    return ka_alu_count() + ka_double_count() + (uint32_t)(sizeof(builders) / sizeof(builders[0]));
}

void ka_case_build(uint32_t index, struct ka_case *c)
{
    if (index < ka_alu_count())
        ka_alu_build(index, c);
    else if (index < ka_alu_count() + ka_double_count())
        ka_double_build(index - ka_alu_count(), c);
    else
        builders[index - ka_alu_count() - ka_double_count()](c);
}
