/* SPDX-License-Identifier: MIT */
/*
 * sb_interp_dispatch (shaderbridge/interp.h): runs a compute program in
 * batches. A program with group-shared memory or `sync` runs one thread
 * group per batch: every invocation of it is a lane of the
 * structure-of-arrays state, so g# and barriers need nothing special — all
 * lanes reach a barrier together. Groups of any other program are
 * independent, so several share a batch (their lanes side by side) and the
 * per-instruction cost is paid once for all of them.
 *
 * Batches are independent too, so with options->threads > 1 several worker
 * threads (each with its own state) take batches from a shared counter. Only
 * programs without UAV atomics or counters run that way: the interpreter's
 * atomics are atomic only within one batch, and threads would make their
 * order, and so their return values, vary between runs. Plain UAV stores of
 * different groups to one address are a race in D3D and Vulkan alike; with
 * threads they stay a race here (last writer wins, in no fixed order).
 */
#include "interp_private.h"

#include "error.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <threads.h>
#include <unistd.h>
#include "translator/ir.h"

#define MAX_THREADS 64u

/* Thread-id-in-group registers (and the flattened one) of every lane: the same in every batch,
 * since a batch holds whole groups side by side. The .w lanes stay 0 from the allocation. */
static void fill_local_ids(struct interp_state *s, uint32_t groups)
{
    const uint32_t *tg = s->program->thread_group;
    uint32_t n = s->lanes, size = s->group_size, *local = s->special + 8 * n, *flat = s->special + 12 * n;
    for (uint32_t g = 0; g < groups; g++) {
        uint32_t xyz[3] = { 0, 0, 0 }; /* stepped, not divided */
        for (uint32_t i = 0; i < size; i++) {
            uint32_t l = g * size + i;
            for (uint32_t c = 0; c < 3; c++)
                local[c * n + l] = xyz[c];
            for (uint32_t c = 0; c < 4; c++)
                flat[c * n + l] = i;
            if (++xyz[0] == tg[0]) {
                xyz[0] = 0;
                if (++xyz[1] == tg[1]) {
                    xyz[1] = 0;
                    xyz[2]++;
                }
            }
        }
    }
}

/* Per-batch state: vThreadGroupID and vThreadID of `count` groups from linear group `first`
 * (x fastest), each group's invocations contiguous; then zeroed registers and g#. */
static void begin_batch(struct interp_state *s, const uint32_t group_count[3], uint64_t first, uint32_t count)
{
    const uint32_t *tg = s->program->thread_group;
    uint32_t n = s->lanes, size = s->group_size;
    uint32_t *tid = s->special, *gid = s->special + 4 * n, *local = s->special + 8 * n;
    for (uint32_t g = 0; g < count; g++) {
        uint64_t linear = first + g;
        uint32_t group[3] = { (uint32_t)(linear % group_count[0]),
                              (uint32_t)(linear / group_count[0] % group_count[1]),
                              (uint32_t)(linear / ((uint64_t)group_count[0] * group_count[1])) };
        for (uint32_t c = 0; c < 3; c++) {
            uint32_t *restrict gd = gid + c * n + g * size, *restrict td = tid + c * n + g * size;
            const uint32_t *restrict lc = local + c * n + g * size;
            uint32_t base = group[c] * tg[c];
            for (uint32_t i = 0; i < size; i++) {
                gd[i] = group[c];
                td[i] = base + lc[i];
            }
        }
    }
    s->invocations = count * size;
    sb_interp_clear(s);
    if (s->race)
        sb_interp_race_batch(s, (uint32_t)(first * size));
}

/* Groups that share nothing (no g#, no barrier) cannot observe one another within a dispatch, so
 * several run as one batch: the per-instruction cost is shared by more lanes. The batch stays
 * near BATCH_LANES lanes (large enough to amortize, small enough for the caches) and its x#
 * storage within BATCH_XTEMP_BYTES. */
#define BATCH_LANES 1024u
#define BATCH_XTEMP_BYTES (16u << 20)

static uint32_t groups_per_batch(const struct sb_ir_program *p, uint32_t size, uint64_t groups)
{
    if (p->group_shared_count)
        return 1;
    for (uint32_t f = 0; f < p->function_count; f++)
        for (uint32_t i = 0; i < p->functions[f].instruction_count; i++)
            if (p->functions[f].instructions[i].op == SB_IR_OP_SYNC)
                return 1;
    uint64_t xtemp_bytes = 0; /* per lane */
    for (uint32_t i = 0; i < p->indexable_temp_count; i++)
        xtemp_bytes += (uint64_t)(p->indexable_temps[i].count ? p->indexable_temps[i].count : 1) * 16u;
    uint64_t k = BATCH_LANES / size;
    if (xtemp_bytes && k * size * xtemp_bytes > BATCH_XTEMP_BYTES)
        k = BATCH_XTEMP_BYTES / (xtemp_bytes * size);
    if (k > groups)
        k = groups;
    return k ? (uint32_t)k : 1;
}

static enum sb_result check_arguments(const struct sb_ir_program *p, const struct sb_rt_resource *resources,
                                      uint32_t resource_count, const uint32_t group_count[3],
                                      struct sb_error *error)
{
    const char *why = NULL;
    if (!p || !group_count || (resource_count && !resources))
        why = "NULL program, group count or resource table";
    else if (p->stage == SB_IR_STAGE_MESH || p->stage == SB_IR_STAGE_AMPLIFICATION)
        why = p->stage == SB_IR_STAGE_MESH ? "not run: the program is a mesh shader (the interpreter has no mesh stage)"
                                           : "not run: the program is an amplification shader (the interpreter has no "
                                             "amplification stage)";
    else if (p->stage != SB_IR_STAGE_COMPUTE)
        why = "the program is not a compute shader";
    else if (!p->function_count || !p->functions)
        why = "the program has no entry function";
    else if (!group_count[0] || !group_count[1] || !group_count[2] || group_count[0] > 65535 ||
             group_count[1] > 65535 || group_count[2] > 65535)
        why = "group counts must be 1..65535";
    else if (!p->thread_group[0] || !p->thread_group[1] || !p->thread_group[2] ||
             (uint64_t)p->thread_group[0] * p->thread_group[1] * p->thread_group[2] > SB_INTERP_MAX_LANES)
        why = "the thread group size must be 1..1024 invocations";
    if (!why)
        return SB_SUCCESS;
    return sb_error_set(error, SB_ERROR_INVALID_ARGUMENT, 0, SB_ERROR_NO_INSTR, "sb_interp_dispatch: %s", why);
}


/* True when batches may run on several threads: no atomic or counter operation on a UAV. */
static bool batches_are_independent(const struct sb_ir_program *p)
{
    for (uint32_t f = 0; f < p->function_count; f++) {
        for (uint32_t i = 0; i < p->functions[f].instruction_count; i++) {
            const struct sb_ir_instruction *in = &p->functions[f].instructions[i];
            bool atomic = (in->op >= SB_IR_OP_ATOMIC_AND && in->op <= SB_IR_OP_ATOMIC_UMIN) ||
                          (in->op >= SB_IR_OP_IMM_ATOMIC_ALLOC && in->op <= SB_IR_OP_IMM_ATOMIC_UMIN) ||
                          sb_ir_op_is_atomic64(in->op);
            if (!atomic)
                continue;
            for (uint32_t k = 0; k < in->dst_count + in->src_count; k++) {
                const struct sb_ir_operand *o = k < in->dst_count ? &in->dst[k] : &in->src[k - in->dst_count];
                if (o->file == SB_IR_FILE_UAV)
                    return false;
            }
            if (in->op == SB_IR_OP_IMM_ATOMIC_ALLOC || in->op == SB_IR_OP_IMM_ATOMIC_CONSUME)
                return false;
        }
    }
    return true;
}

static uint32_t thread_count(const struct sb_interp_options *options, uint64_t batches)
{
    uint32_t want = options ? options->threads : 0;
    if (want == SB_INTERP_THREADS_AUTO) {
        long online = sysconf(_SC_NPROCESSORS_ONLN);
        want = online > 0 ? (uint32_t)online : 1;
    }
    if (want > MAX_THREADS)
        want = MAX_THREADS;
    if (want > batches)
        want = (uint32_t)batches;
    return want ? want : 1;
}

/* What the workers of one dispatch share. */
struct dispatch_work {
    const uint32_t *group_count;
    uint64_t groups;
    uint32_t batch;                  /* groups per batch */
    uint64_t budget;                 /* of the whole dispatch */
    atomic_uint_least64_t next;      /* first group of the next batch nobody took */
    atomic_uint_least64_t executed;  /* instructions of every finished batch */
    atomic_bool stop;                /* a worker failed: take no more batches */
};

struct dispatch_worker {
    struct interp_state s;
    struct dispatch_work *work;
    struct sb_error error;
    uint64_t failed_group;           /* first group of the batch that failed (UINT64_MAX: none) */
    bool setup_done;
};

static int run_worker(void *arg)
{
    struct dispatch_worker *w = arg;
    struct dispatch_work *work = w->work;
    struct interp_state *s = &w->s;
    if (sb_interp_setup(s) != SB_SUCCESS) {
        w->failed_group = 0;
        atomic_store(&work->stop, true);
        return 0;
    }
    w->setup_done = true;
    fill_local_ids(s, work->batch);
    while (!atomic_load(&work->stop)) {
        uint64_t g = atomic_fetch_add(&work->next, work->batch);
        if (g >= work->groups)
            break;
        uint64_t spent = atomic_load(&work->executed);
        uint64_t before = s->executed;
        /* The budget is of the whole dispatch: this batch may use what the finished ones left. */
        s->budget = before + (spent < work->budget ? work->budget - spent : 0);
        uint32_t count = work->groups - g < work->batch ? (uint32_t)(work->groups - g) : work->batch;
        begin_batch(s, work->group_count, g, count);
        s->stats.invocations += s->invocations;
        sb_interp_flow_run(s);
        atomic_fetch_add(&work->executed, s->executed - before);
        if (s->result != SB_SUCCESS) {
            w->failed_group = g;
            atomic_store(&work->stop, true);
        }
    }
    return 0;
}

/* Runs the batches on `threads` workers (the caller's thread is the first) and merges their
 * statistics; of several failures the one of the earliest batch is reported, as a serial run
 * would have met it first. */
static enum sb_result run_workers(const struct interp_state *model, struct dispatch_work *work, uint32_t threads,
                                  struct sb_interp_stats *stats, struct sb_error *error)
{
    struct dispatch_worker *workers = calloc(threads, sizeof(*workers));
    thrd_t *handles = calloc(threads, sizeof(*handles));
    bool *started = calloc(threads, sizeof(*started));
    if (!workers || !handles || !started) {
        free(workers);
        free(handles);
        free(started);
        return sb_error_set(error, SB_ERROR_OUT_OF_MEMORY, 0, SB_ERROR_NO_INSTR, "out of memory");
    }
    for (uint32_t t = 0; t < threads; t++) {
        workers[t].s = *model;
        workers[t].s.error = &workers[t].error;
        workers[t].work = work;
        workers[t].failed_group = UINT64_MAX;
    }
    for (uint32_t t = 1; t < threads; t++)
        started[t] = thrd_create(&handles[t], run_worker, &workers[t]) == thrd_success;
    run_worker(&workers[0]); /* a thread that could not start leaves its batches to the others */
    for (uint32_t t = 1; t < threads; t++)
        if (started[t])
            thrd_join(handles[t], NULL);
    struct sb_interp_stats total = { 0 };
    const struct dispatch_worker *failed = NULL;
    for (uint32_t t = 0; t < threads; t++) {
        const struct dispatch_worker *w = &workers[t];
        total.invocations += w->s.stats.invocations;
        total.lane_instructions += w->s.stats.lane_instructions;
        total.instructions += w->s.executed;
        if (w->s.result != SB_SUCCESS && (!failed || w->failed_group < failed->failed_group))
            failed = w;
    }
    enum sb_result r = failed ? failed->s.result : SB_SUCCESS;
    if (failed && error) {
        *error = failed->error;
        if (r == SB_ERROR_RUN_BUDGET) /* the worker's message names its own share of the budget */
            snprintf(error->message, sizeof(error->message),
                     "instruction budget of %llu exhausted (a loop that does not end?)",
                     (unsigned long long)work->budget);
    }
    for (uint32_t t = 0; t < threads; t++) /* safe on a state that was never set up */
        sb_interp_release(&workers[t].s);
    if (stats)
        *stats = total;
    free(workers);
    free(handles);
    free(started);
    return r;
}

enum sb_result sb_interp_dispatch(const struct sb_ir_program *program, struct sb_rt_resource *resources,
                                  uint32_t resource_count, const uint32_t group_count[3],
                                  const struct sb_interp_options *options, struct sb_interp_stats *stats,
                                  struct sb_error *error)
{
    enum sb_result r = check_arguments(program, resources, resource_count, group_count, error);
    if (r != SB_SUCCESS)
        return r;
    struct sb_ir_program *lowered = NULL;
    r = sb_interp_lower(&program, &lowered, stats, error);
    if (r != SB_SUCCESS)
        return r;
    uint32_t group_size = program->thread_group[0] * program->thread_group[1] * program->thread_group[2];
    uint64_t groups = (uint64_t)group_count[0] * group_count[1] * group_count[2];
    uint32_t batch = groups_per_batch(program, group_size, groups);
    struct interp_state s;
    sb_interp_state_init(&s, program, resources, resource_count, batch * group_size, options, error);
    s.group_size = group_size;
    uint64_t batches = (groups + batch - 1) / batch;
    uint32_t threads = thread_count(options, batches);
    if (threads > 1 && batches_are_independent(program) && !s.track) {
        struct dispatch_work work = { .group_count = group_count, .groups = groups, .batch = batch,
                                      .budget = s.budget };
        atomic_init(&work.next, 0);
        atomic_init(&work.executed, 0);
        atomic_init(&work.stop, false);
        r = run_workers(&s, &work, threads, stats, error);
        sb_ir_program_destroy(lowered);
        return r;
    }
    if (sb_interp_setup(&s) == SB_SUCCESS) {
        fill_local_ids(&s, batch);
        for (uint64_t g = 0; g < groups && s.result == SB_SUCCESS; g += batch) {
            uint32_t count = groups - g < batch ? (uint32_t)(groups - g) : batch;
            begin_batch(&s, group_count, g, count);
            s.stats.invocations += s.invocations;
            sb_interp_flow_run(&s);
        }
    }
    sb_interp_release(&s);
    s.stats.instructions = s.executed;
    if (stats)
        *stats = s.stats;
    sb_ir_program_destroy(lowered);
    return s.result;
}
