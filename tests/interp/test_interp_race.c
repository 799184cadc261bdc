/* SPDX-License-Identifier: MIT */
/*
 * The undefined-behaviour detector of a tracked run (runtime/src/interp/interp_race.c,
 * sb_interp_tracking::undefined) on hand-built programs whose races are known: each test
 * asserts the events (kind, resource, byte offset, both invocations, both instructions'
 * offsets), the event count and the words marked undefined, and the race-free twin of each
 * case asserts no event at all:
 *   - two lanes of one store_raw writing different values to one word (write-write) and the
 *     same value (benign: no event);
 *   - g# read and written by different threads without a barrier (read-write), the same with
 *     sync_g_t (ordered), and a UAV with only sync_g_t between (still a race: the barrier
 *     does not fence UAVs);
 *   - imm_atomic_iadd with its result used (atomic order; the results' stores marked, the
 *     counter word itself not), atomic_iadd without result and an unused result (no event);
 *   - a g# word read before any thread wrote it (uninitialised);
 *   - two thread groups storing one word across a barrier (never ordered);
 *   - imm_atomic_alloc taken by several invocations (the counter's order);
 *   - a pixel shader whose outputs come from an order-dependent atomic (output_undefined).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shaderbridge/interp.h"
#include "translator/ir.h"
#include "translator/sm4.h"
#include "sm4_asm.h"
#include "check.h"


static struct sb_ir_program *lower(const struct sm4_program *p)
{
    struct sb_sm4_program *sm4 = NULL;
    struct sb_ir_program *ir = NULL;
    struct sb_error err;
    memset(&err, 0, sizeof(err));
    if (sb_sm4_decode(p->tok, p->n * 4, 0, &sm4, &err) != SB_SUCCESS ||
        sb_ir_from_sm4(sm4, NULL, &ir, &err) != SB_SUCCESS)
        fprintf(stderr, "lowering failed: %s\n", err.message);
    sb_sm4_program_destroy(sm4);
    return ir;
}

/* Byte offset of the n-th (0-based) instruction with `op` in the entry function. */
static uint32_t offset_of(const struct sb_ir_program *ir, uint32_t op, uint32_t n)
{
    for (uint32_t i = 0; ir && i < ir->functions[0].instruction_count; i++)
        if (ir->functions[0].instructions[i].op == op && n-- == 0)
            return (uint32_t)ir->functions[0].instructions[i].offset;
    return 0xDEADu;
}

static struct sb_rt_resource uav(uint32_t reg, void *data, size_t size)
{
    struct sb_rt_resource r;
    memset(&r, 0, sizeof(r));
    r.resource_class = SB_IR_RESOURCE_UAV;
    r.register_index = reg;
    r.data = data;
    r.size = size;
    r.layers = r.mip_levels = r.sample_count = 1;
    return r;
}

/* Dispatches `groups` x 1 x 1 groups with undefined-behaviour tracking into *t (released by
 * the caller); the lowered program comes back in *ir for instruction offsets. */
static enum sb_result dispatch(const struct sm4_program *p, struct sb_rt_resource *table, uint32_t count,
                               uint32_t groups, struct sb_interp_tracking *t, struct sb_ir_program **ir)
{
    *ir = lower(p);
    if (!*ir)
        return SB_ERROR_TRANSLATE_INVALID;
    const uint32_t g[3] = { groups, 1, 1 };
    memset(t, 0, sizeof(*t));
    t->undefined = true;
    struct sb_interp_options options = { .tracking = t };
    struct sb_error err;
    memset(&err, 0, sizeof(err));
    enum sb_result r = sb_interp_dispatch(*ir, table, count, g, &options, NULL, &err);
    if (r != SB_SUCCESS)
        fprintf(stderr, "dispatch: %s\n", err.message);
    return r;
}

static void check_event(const struct sb_interp_tracking *t, uint32_t k, enum sb_interp_undefined_kind kind,
                        uint32_t resource, uint64_t byte, uint32_t inv0, uint32_t inv1, uint32_t inst0,
                        uint32_t inst1, int line)
{
    if (k >= t->kept) {
        fprintf(stderr, "line %d: event %u not kept (%u kept)\n", line, k, t->kept);
        failures++;
        return;
    }
    const struct sb_interp_undefined_event *e = &t->events[k];
    CHECK(e->kind == kind && e->resource == resource && e->byte_offset == byte && e->invocation[0] == inv0 &&
              e->invocation[1] == inv1 && e->instruction[0] == inst0 && e->instruction[1] == inst1,
          "line %d event %u: kind %d resource %u byte %llu invocations %u %u instructions 0x%x 0x%x; want "
          "%d %u %llu %u %u 0x%x 0x%x", line, k, (int)e->kind, e->resource, (unsigned long long)e->byte_offset,
          e->invocation[0], e->invocation[1], e->instruction[0], e->instruction[1], (int)kind, resource,
          (unsigned long long)byte, inv0, inv1, inst0, inst1);
}

/* store_raw u0.x, 0, vThreadIDInGroupFlattened by 4 lanes: three write-write events in lane
 * order; then l(7) from every lane: the same value in any order, no event. */
static void test_write_write(void)
{
    static struct sm4_program p;
    sm4_begin_cs(&p, 4, 1, 1, 0);
    sm4_dcl_uav_raw(&p, 0);
    sm4_dcl_thread_id(&p, T_THREAD_FLAT, "x");
    I(&p, OP_STORE_RAW, du(0, "x"), l1(0), special(T_THREAD_FLAT, "x"));
    I(&p, OP_STORE_RAW, du(0, "x"), l1(4), l1(7));
    sm4_end(&p);
    uint32_t mem[2] = { 0, 0 };
    struct sb_rt_resource table[1] = { uav(0, mem, sizeof(mem)) };
    struct sb_interp_tracking t;
    struct sb_ir_program *ir = NULL;
    CHECK(dispatch(&p, table, 1, 1, &t, &ir) == SB_SUCCESS, "write-write dispatch");
    uint32_t store = offset_of(ir, SB_IR_OP_STORE_RAW, 0);
    CHECK(t.undefined_events == 3, "%llu events, want 3", (unsigned long long)t.undefined_events);
    for (uint32_t k = 0; k < 3; k++)
        check_event(&t, k, SB_INTERP_UNDEFINED_WRITE_WRITE, 0, 0, k, k + 1, store, store, __LINE__);
    CHECK(t.undefined_word && t.undefined_word[0] && t.undefined_word[0][0] == 1 && t.undefined_word[0][1] == 0,
          "undefined words %d %d, want 1 0", t.undefined_word[0][0], t.undefined_word[0][1]);
    CHECK(mem[0] == 3 && mem[1] == 7, "memory %u %u, want 3 7 (lane order)", mem[0], mem[1]);
    sb_interp_tracking_release(&t);
    sb_ir_program_destroy(ir);
}

/*
 * Every thread stores its id to g0[tid], then (with or without sync_g_t) reads g0[(tid + 1) & 3]
 * and stores it to u0[tid]. Without the barrier each read races with its neighbour's store
 * (four read-write events, every u0 word written by a tainted thread); with it, nothing.
 * `uav`: the same through u1 instead of g0, with sync_g_t between: a g# barrier does not
 * order UAV accesses, so the races stay.
 */
static void neighbour_program(struct sm4_program *p, bool barrier, bool through_uav)
{
    sm4_begin_cs(p, 4, 1, 1, 1);
    sm4_dcl_uav_raw(p, 0);
    if (through_uav)
        sm4_dcl_uav_raw(p, 1);
    else
        sm4_dcl_tgsm_raw(p, 0, 16);
    sm4_dcl_thread_id(p, T_THREAD_FLAT, "x");
    I(p, OP_ISHL, dr(0, "x"), special(T_THREAD_FLAT, "x"), l1(2));
    I(p, OP_STORE_RAW, through_uav ? du(1, "x") : dg(0, "x"), sr(0, "x"), special(T_THREAD_FLAT, "x"));
    if (barrier)
        I0(p, OP_SYNC, SM4_SYNC_T | SM4_SYNC_G);
    I(p, OP_IADD, dr(0, "y"), sr(0, "x"), l1(4));
    I(p, OP_AND, dr(0, "y"), sr(0, "y"), l1(15));
    I(p, OP_LD_RAW, dr(0, "z"), sr(0, "y"), through_uav ? su(1, "x") : sg(0, "x"));
    I(p, OP_STORE_RAW, du(0, "x"), sr(0, "x"), sr(0, "z"));
    sm4_end(p);
}

static void test_read_write(void)
{
    for (int variant = 0; variant < 3; variant++) {
        bool barrier = variant >= 1, through_uav = variant == 2;
        static struct sm4_program p;
        neighbour_program(&p, barrier, through_uav);
        uint32_t out[4] = { 0 }, shared[4] = { 0 };
        struct sb_rt_resource table[2] = { uav(0, out, sizeof(out)), uav(1, shared, sizeof(shared)) };
        struct sb_interp_tracking t;
        struct sb_ir_program *ir = NULL;
        CHECK(dispatch(&p, table, through_uav ? 2 : 1, 1, &t, &ir) == SB_SUCCESS, "variant %d", variant);
        CHECK(out[0] == 1 && out[3] == 0, "variant %d: out %u %u, want 1 0", variant, out[0], out[3]);
        uint32_t store = offset_of(ir, SB_IR_OP_STORE_RAW, 0), load = offset_of(ir, SB_IR_OP_LD_RAW, 0);
        if (barrier && !through_uav) {
            CHECK(t.undefined_events == 0, "ordered by sync_g_t: %llu events", (unsigned long long)t.undefined_events);
            for (uint32_t w = 0; w < 4; w++)
                CHECK(t.undefined_word[0][w] == 0, "word %u marked", w);
        } else {
            /* Lane l reads word l + 1 after every store: the writer is the earlier access. */
            uint32_t resource = through_uav ? 1 : UINT32_MAX;
            CHECK(t.undefined_events == 4, "variant %d: %llu events, want 4", variant,
                  (unsigned long long)t.undefined_events);
            for (uint32_t l = 0; l < 4; l++)
                check_event(&t, l, SB_INTERP_UNDEFINED_READ_WRITE, resource, ((l + 1) & 3) * 4, (l + 1) & 3, l,
                            store, load, __LINE__);
            for (uint32_t w = 0; w < 4; w++)
                CHECK(t.undefined_word[0][w] == 1, "variant %d: u0 word %u written by a tainted thread, not marked",
                      variant, w);
            if (through_uav)
                CHECK(t.undefined_word[1][0] == 0, "u1 word 0: a read-write race leaves the word defined");
        }
        sb_interp_tracking_release(&t);
        sb_ir_program_destroy(ir);
    }
}

/*
 * imm_atomic_iadd r0.x, u0[0], 1 with r0.x stored to u1[tid]: the value each thread gets
 * depends on the order (three events, u1 marked; u0[0] ends at 4 in any order, not marked).
 * Then atomic_iadd without a result, and imm_atomic_iadd whose r1.x nothing reads: no event.
 */
static void test_atomics(void)
{
    for (int variant = 0; variant < 3; variant++) {
        static struct sm4_program p;
        sm4_begin_cs(&p, 4, 1, 1, 2);
        sm4_dcl_uav_raw(&p, 0);
        sm4_dcl_uav_raw(&p, 1);
        sm4_dcl_thread_id(&p, T_THREAD_FLAT, "x");
        if (variant == 0) {
            I(&p, OP_IMM_ATOMIC_IADD, dr(0, "x"), du(0, ""), l1(0), l1(1));
            I(&p, OP_ISHL, dr(0, "y"), special(T_THREAD_FLAT, "x"), l1(2));
            I(&p, OP_STORE_RAW, du(1, "x"), sr(0, "y"), sr(0, "x"));
        } else if (variant == 1) {
            I(&p, OP_ATOMIC_IADD, du(0, ""), l1(0), l1(1));
        } else {
            I(&p, OP_IMM_ATOMIC_IADD, dr(1, "x"), du(0, ""), l1(0), l1(1));
        }
        sm4_end(&p);
        uint32_t counter = 0, got[4] = { 0 };
        struct sb_rt_resource table[2] = { uav(0, &counter, 4), uav(1, got, sizeof(got)) };
        struct sb_interp_tracking t;
        struct sb_ir_program *ir = NULL;
        CHECK(dispatch(&p, table, 2, 1, &t, &ir) == SB_SUCCESS, "atomics variant %d", variant);
        CHECK(counter == 4, "variant %d: counter %u, want 4", variant, counter);
        CHECK(t.undefined_word[0][0] == 0, "variant %d: the sum is the same in any order, marked", variant);
        if (variant == 0) {
            uint32_t atomic = offset_of(ir, SB_IR_OP_IMM_ATOMIC_IADD, 0);
            CHECK(t.undefined_events == 3, "%llu events, want 3", (unsigned long long)t.undefined_events);
            for (uint32_t k = 0; k < 3; k++)
                check_event(&t, k, SB_INTERP_UNDEFINED_ATOMIC_ORDER, 0, 0, k, k + 1, atomic, atomic, __LINE__);
            CHECK(got[0] == 0 && got[3] == 3, "returned %u %u, want 0 3", got[0], got[3]);
            for (uint32_t w = 0; w < 4; w++)
                CHECK(t.undefined_word[1][w] == 1, "u1 word %u holds an order-dependent value, not marked", w);
        } else {
            CHECK(t.undefined_events == 0, "variant %d: %llu events, want none", variant,
                  (unsigned long long)t.undefined_events);
        }
        sb_interp_tracking_release(&t);
        sb_ir_program_destroy(ir);
    }
}

/* ld_raw r0.x, 8, g0 before any store: uninitialised (no first access), the store marked;
 * a word thread 0 wrote before a barrier reads clean. */
static void test_uninitialized(void)
{
    static struct sm4_program p;
    sm4_begin_cs(&p, 2, 1, 1, 1);
    sm4_dcl_uav_raw(&p, 0);
    sm4_dcl_tgsm_raw(&p, 0, 16);
    sm4_dcl_thread_id(&p, T_THREAD_FLAT, "x");
    I(&p, OP_STORE_RAW, dg(0, "x"), l1(0), l1(5));
    I0(&p, OP_SYNC, SM4_SYNC_T | SM4_SYNC_G);
    I(&p, OP_LD_RAW, dr(0, "x"), l1(0), sg(0, "x"));
    I(&p, OP_LD_RAW, dr(0, "y"), l1(8), sg(0, "x"));
    I(&p, OP_ISHL, dr(0, "z"), special(T_THREAD_FLAT, "x"), l1(2));
    I(&p, OP_IADD, dr(0, "x"), sr(0, "x"), sr(0, "y"));
    I(&p, OP_STORE_RAW, du(0, "x"), sr(0, "z"), sr(0, "x"));
    sm4_end(&p);
    uint32_t out[2] = { 0 };
    struct sb_rt_resource table[1] = { uav(0, out, sizeof(out)) };
    struct sb_interp_tracking t;
    struct sb_ir_program *ir = NULL;
    CHECK(dispatch(&p, table, 1, 1, &t, &ir) == SB_SUCCESS, "uninitialised dispatch");
    /* Both threads store 5 to g0[0] unordered: the same value, no event. */
    uint32_t load = offset_of(ir, SB_IR_OP_LD_RAW, 1);
    CHECK(t.undefined_events == 2, "%llu events, want 2", (unsigned long long)t.undefined_events);
    check_event(&t, 0, SB_INTERP_UNDEFINED_UNINITIALIZED, UINT32_MAX, 8, UINT32_MAX, 0, UINT32_MAX, load, __LINE__);
    check_event(&t, 1, SB_INTERP_UNDEFINED_UNINITIALIZED, UINT32_MAX, 8, UINT32_MAX, 1, UINT32_MAX, load, __LINE__);
    CHECK(t.kept == 2 && t.events[0].group_shared_id == 0, "g# id %u", t.events[0].group_shared_id);
    CHECK(t.undefined_word[0][0] == 1 && t.undefined_word[0][1] == 1, "stores of uninitialised sums not marked");
    sb_interp_tracking_release(&t);
    sb_ir_program_destroy(ir);
}

/* Two groups of one thread store their group id to u0[0] around a sync_uglobal_t: the
 * barrier orders nothing between groups (one group per batch here: the program has sync). */
/* x0[2] indexed by the thread id: threads 2 and 3 read past its end (D3D: undefined), and
 * what they store is marked; threads 0 and 1 are not. */
static void test_out_of_bounds(void)
{
    static struct sm4_program p;
    sm4_begin_cs(&p, 4, 1, 1, 1);
    sm4_dcl_uav_raw(&p, 0);
    sm4_dcl_indexable_temp(&p, 0, 2, 4);
    sm4_dcl_thread_id(&p, T_THREAD_FLAT, "x");
    I(&p, OP_MOV, dr(0, "x"), special(T_THREAD_FLAT, "x"));
    I(&p, OP_MOV, sx(0, 0, NULL, "x", 1), l1(7));
    I(&p, OP_MOV, sx(0, 1, NULL, "x", 1), l1(8));
    struct sm4_operand index = sr(0, "x");
    I(&p, OP_MOV, dr(0, "y"), sx(0, 0, &index, "xxxx", 0));
    I(&p, OP_ISHL, dr(0, "z"), sr(0, "x"), l1(2));
    I(&p, OP_STORE_RAW, du(0, "x"), sr(0, "z"), sr(0, "y"));
    sm4_end(&p);
    uint32_t out[4] = { 0 };
    struct sb_rt_resource table[1] = { uav(0, out, sizeof(out)) };
    struct sb_interp_tracking t;
    struct sb_ir_program *ir = NULL;
    CHECK(dispatch(&p, table, 1, 1, &t, &ir) == SB_SUCCESS, "out-of-bounds dispatch");
    uint32_t read = offset_of(ir, SB_IR_OP_MOV, 3);
    CHECK(t.undefined_events == 2, "%llu events, want 2", (unsigned long long)t.undefined_events);
    check_event(&t, 0, SB_INTERP_UNDEFINED_OUT_OF_BOUNDS, UINT32_MAX, 32, UINT32_MAX, 2, UINT32_MAX, read, __LINE__);
    check_event(&t, 1, SB_INTERP_UNDEFINED_OUT_OF_BOUNDS, UINT32_MAX, 48, UINT32_MAX, 3, UINT32_MAX, read, __LINE__);
    CHECK(out[0] == 7 && out[1] == 8 && out[2] == 0 && out[3] == 0, "values %u %u %u %u", out[0], out[1], out[2],
          out[3]);
    CHECK(!t.undefined_word[0][0] && !t.undefined_word[0][1] && t.undefined_word[0][2] && t.undefined_word[0][3],
          "marks %u %u %u %u", t.undefined_word[0][0], t.undefined_word[0][1], t.undefined_word[0][2],
          t.undefined_word[0][3]);
    sb_interp_tracking_release(&t);
    sb_ir_program_destroy(ir);
}

static void test_groups(void)
{
    static struct sm4_program p;
    sm4_begin_cs(&p, 1, 1, 1, 0);
    sm4_dcl_uav_raw(&p, 0);
    sm4_dcl_thread_id(&p, T_GROUP_ID, "x");
    I0(&p, OP_SYNC, SM4_SYNC_T | SM4_SYNC_UGLOBAL);
    I(&p, OP_STORE_RAW, du(0, "x"), l1(0), special(T_GROUP_ID, "x"));
    sm4_end(&p);
    uint32_t out = 0;
    struct sb_rt_resource table[1] = { uav(0, &out, 4) };
    struct sb_interp_tracking t;
    struct sb_ir_program *ir = NULL;
    CHECK(dispatch(&p, table, 1, 2, &t, &ir) == SB_SUCCESS, "groups dispatch");
    uint32_t store = offset_of(ir, SB_IR_OP_STORE_RAW, 0);
    CHECK(t.undefined_events == 1, "%llu events, want 1", (unsigned long long)t.undefined_events);
    check_event(&t, 0, SB_INTERP_UNDEFINED_WRITE_WRITE, 0, 0, 0, 1, store, store, __LINE__);
    CHECK(t.undefined_word[0][0] == 1, "word not marked");
    sb_interp_tracking_release(&t);
    sb_ir_program_destroy(ir);
}

/* imm_atomic_alloc by 3 threads, the index used: which thread gets which slot depends on the
 * order (events at byte UINT64_MAX, the counter), the slots' stores marked. */
static void test_counter(void)
{
    static struct sm4_program p;
    sm4_begin_cs(&p, 3, 1, 1, 1);
    sm4_dcl_uav_structured(&p, 0, 4);
    sm4_dcl_thread_id(&p, T_THREAD_FLAT, "x");
    I(&p, OP_IMM_ATOMIC_ALLOC, dr(0, "x"), du(0, ""));
    I(&p, OP_STORE_STRUCTURED, du(0, "x"), sr(0, "x"), l1(0), special(T_THREAD_FLAT, "x"));
    sm4_end(&p);
    uint32_t slots[3] = { 0 };
    struct sb_rt_resource table[1] = { uav(0, slots, sizeof(slots)) };
    struct sb_interp_tracking t;
    struct sb_ir_program *ir = NULL;
    CHECK(dispatch(&p, table, 1, 1, &t, &ir) == SB_SUCCESS, "counter dispatch");
    uint32_t alloc = offset_of(ir, SB_IR_OP_IMM_ATOMIC_ALLOC, 0);
    CHECK(t.undefined_events == 2, "%llu events, want 2", (unsigned long long)t.undefined_events);
    check_event(&t, 0, SB_INTERP_UNDEFINED_ATOMIC_ORDER, 0, UINT64_MAX, 0, 1, alloc, alloc, __LINE__);
    check_event(&t, 1, SB_INTERP_UNDEFINED_ATOMIC_ORDER, 0, UINT64_MAX, 0, 2, alloc, alloc, __LINE__);
    for (uint32_t w = 0; w < 3; w++)
        CHECK(t.undefined_word[0][w] == 1 && slots[w] == w, "slot %u: marked %d value %u", w,
              t.undefined_word[0][w], slots[w]);
    sb_interp_tracking_release(&t);
    sb_ir_program_destroy(ir);
}

/* ps_5_0: o0.x = imm_atomic_iadd u0[0] += 1 for 3 pixels: atomic order between pixels 0-1 and
 * 1-2 (helpers write nothing), every pixel's outputs marked in output_undefined. */
static void test_pixels(void)
{
    static struct sm4_program p;
    sm4_begin(&p, 0, 5, 0, 1);
    sm4_dcl_uav_raw(&p, 0);
    sm4_dcl_io(&p, 101, 0, T_OUTPUT, 0, "xyzw", -1);
    I(&p, OP_IMM_ATOMIC_IADD, dr(0, "x"), du(0, ""), l1(0), l1(1));
    I(&p, OP_MOV, sm4_reg(T_OUTPUT, 1, (uint32_t[]){ 0 }, NULL, "x", 1), sr(0, "x"));
    sm4_end(&p);
    struct sb_ir_program *ir = lower(&p);
    CHECK(ir != NULL, "ps lowering");
    if (!ir)
        return;
    enum { N = 3 };
    const float pos[N * 4] = { 0.5f, 0.5f, 0, 1, 2.5f, 0.5f, 0, 1, 4.5f, 2.5f, 0, 1 };
    uint32_t in[N * 4] = { 0 }, out[N * 4] = { 0 }, mem = 0;
    struct sb_rt_resource u = uav(0, &mem, 4);
    struct sb_interp_registers vin = { 1, in }, vout = { 1, out };
    struct sb_interp_tracking t;
    memset(&t, 0, sizeof(t));
    t.undefined = true;
    struct sb_interp_options options = { .tracking = &t };
    struct sb_error err;
    memset(&err, 0, sizeof(err));
    enum sb_result r = sb_interp_run_pixels(ir, &u, 1, N, pos, &vin, &vout, NULL, &options, NULL, &err);
    CHECK(r == SB_SUCCESS, "run_pixels: %s", err.message);
    uint32_t atomic = offset_of(ir, SB_IR_OP_IMM_ATOMIC_IADD, 0);
    CHECK(mem == 3 && out[8] == 2, "counter %u, pixel 2 got %u; want 3 2", mem, out[8]);
    CHECK(t.undefined_events == 2, "%llu events, want 2", (unsigned long long)t.undefined_events);
    check_event(&t, 0, SB_INTERP_UNDEFINED_ATOMIC_ORDER, 0, 0, 0, 1, atomic, atomic, __LINE__);
    check_event(&t, 1, SB_INTERP_UNDEFINED_ATOMIC_ORDER, 0, 0, 1, 2, atomic, atomic, __LINE__);
    for (uint32_t i = 0; t.output_undefined && i < N * 4; i++)
        CHECK(t.output_undefined[i] == 1, "output word %u not marked", i);
    CHECK(t.output_undefined != NULL, "no output evidence");
    sb_interp_tracking_release(&t);
    sb_ir_program_destroy(ir);
}

int main(void)
{
    test_write_write();
    test_read_write();
    test_atomics();
    test_uninitialized();
    test_out_of_bounds();
    test_groups();
    test_counter();
    test_pixels();
    if (failures) {
        fprintf(stderr, "%u check(s) failed\n", failures);
        return 1;
    }
    printf("interp race: all checks passed\n");
    return 0;
}
