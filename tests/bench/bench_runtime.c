/* SPDX-License-Identifier: MIT */
/*
 * bench_runtime (issue #5 §7): the CPU interpreter against the Vulkan device
 * (lavapipe by default) on the same compute dispatches.
 *
 *   alu      an ALU-heavy kernel: 256 loop iterations of mad/mul/add/min/max
 *            per invocation; `--groups G` groups of 64 invocations (alu/mt:
 *            the same with the interpreter on one thread per online CPU)
 *   memory   a copy kernel (ld_structured + store_structured), same groups
 *   small    one group of the ALU kernel: "one small dispatch", where the
 *            end-to-end time (pipeline compile + run) decides
 *   alu/trk, memory/trk
 *            the same kernels with the evidence `validate` asks for
 *            (sb_interp_options::tracking: precision bounds and the
 *            undefined-behaviour detector, as sb_validate runs it); the
 *            last line gives its cost, the median over --reps of
 *            tracked / plain interpreter time measured back to back (so a
 *            busy machine slows both alike; issue #14: at most 2x)
 *
 * For each: interpreter wall time and invocations/s; GPU run time alone and
 * with pipeline creation (shader module, layouts, pipeline: what a first use
 * costs), invocations/s for both, and the ratios. Pipeline-creation latency
 * is also given alone (min and median of --reps runs). Nothing asserts a
 * time: these machines are shared and noisy, compare the ratios of one run.
 *
 * Usage: bench_runtime [--groups G] [--reps N]
 * Exit: 0, 77 when there is no Vulkan device, 1 on a failure.
 */
#define _POSIX_C_SOURCE 200809L

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "shaderbridge/validate.h"
#include "sm4_asm.h"

static uint64_t now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

static void alu_kernel(struct sm4_program *p)
{
    sm4_begin_cs(p, 64, 1, 1, 4);
    sm4_dcl_uav_structured(p, 0, 16);
    sm4_dcl_thread_id(p, T_THREAD_ID, "x");
    I(p, OP_UTOF, dr(0, "x"), special(T_THREAD_ID, "x"));
    I(p, OP_MUL, dr(0, "yzw"), sr(0, "xxxx"), l4(0, 0x3c23d70au, 0x3ca3d70au, 0x3cf5c28fu));
    I(p, OP_MOV, dr(1, "x"), l1(0));
    I0(p, OP_LOOP, 0);
    I(p, OP_UGE, dr(1, "y"), sr(1, "x"), l1(256));
    IC(p, OP_BREAKC, SM4_NZ, sr(1, "y"));
    I(p, OP_MAD, dr(0, "xyzw"), sr(0, "xyzw"), l4(0x3f7fbe77u, 0x3f7fbe77u, 0x3f7fbe77u, 0x3f7fbe77u),
      l4(0x3c23d70au, 0x3c23d70au, 0x3c23d70au, 0x3c23d70au));
    I(p, OP_MUL, dr(2, "xyzw"), sr(0, "yzwx"), sr(0, "zwxy"));
    I(p, OP_ADD, dr(0, "xyzw"), sr(0, "xyzw"), sr(2, "xyzw"));
    I(p, OP_MIN, dr(0, "xyzw"), sr(0, "xyzw"), l4(0x447a0000u, 0x447a0000u, 0x447a0000u, 0x447a0000u));
    I(p, OP_MAX, dr(0, "xyzw"), sr(0, "xyzw"), l4(0xc47a0000u, 0xc47a0000u, 0xc47a0000u, 0xc47a0000u));
    I(p, OP_IADD, dr(1, "x"), sr(1, "x"), l1(1));
    I0(p, OP_ENDLOOP, 0);
    I(p, OP_STORE_STRUCTURED, du(0, "xyzw"), special(T_THREAD_ID, "x"), l1(0), sr(0, "xyzw"));
    sm4_end(p);
}

static void copy_kernel(struct sm4_program *p)
{
    sm4_begin_cs(p, 64, 1, 1, 1);
    sm4_dcl_resource_structured(p, 0, 16);
    sm4_dcl_uav_structured(p, 0, 16);
    sm4_dcl_thread_id(p, T_THREAD_ID, "x");
    I(p, OP_LD_STRUCTURED, dr(0, "xyzw"), special(T_THREAD_ID, "x"), l1(0), st(0, "xyzw"));
    I(p, OP_STORE_STRUCTURED, du(0, "xyzw"), special(T_THREAD_ID, "x"), l1(0), sr(0, "xyzw"));
    sm4_end(p);
}

static int compare_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

struct measure {
    uint64_t cpu_ns, gpu_run_ns, gpu_total_ns, pipeline_ns;
};

/* Median interpreter time of the last bench() call, for the tracking ratios. */
static double last_cpu_ms;

static int bench(struct sb_rt_context *context, const char *name, void (*build)(struct sm4_program *),
                 uint32_t groups, uint32_t reps, uint32_t threads, bool tracked)
{
    struct sb_interp_tracking tracking = { .precision = tracked, .undefined = tracked };
    const struct sb_interp_options interp_options = { .threads = threads, .tracking = tracked ? &tracking : NULL };
    static struct sm4_program program;
    static struct blob container;
    memset(&program, 0, sizeof(program));
    build(&program);
    sm4_container(&program, &container);
    struct sb_rt_program *loaded = NULL;
    struct sb_error error = { 0 };
    if (sb_rt_program_load(container.bytes, container.size, NULL, &loaded, &error) != SB_SUCCESS) {
        fprintf(stderr, "%s: %s\n", name, error.message);
        return 1;
    }
    struct sb_rt_input_options input_options = { .seed = 1, .buffer_bytes = groups * 64 * 16 };
    struct sb_rt_inputs *inputs = NULL;
    if (sb_rt_inputs_create(loaded, &input_options, &inputs, &error) != SB_SUCCESS) {
        fprintf(stderr, "%s: %s\n", name, error.message);
        sb_rt_program_destroy(loaded);
        return 1;
    }
    const uint32_t count[3] = { groups, 1, 1 };
    uint64_t *cpu = calloc(reps, 8), *run = calloc(reps, 8), *total = calloc(reps, 8), *pipe = calloc(reps, 8);
    int status = cpu && run && total && pipe ? 0 : 1;
    struct sb_interp_stats stats = { 0 };
    for (uint32_t r = 0; r < reps && !status; r++) {
        uint64_t start = now_ns();
        if (sb_interp_dispatch(loaded->ir, inputs->resources, inputs->count, count, &interp_options, &stats,
                               &error) != SB_SUCCESS) {
            fprintf(stderr, "%s: interpreter: %s\n", name, error.message);
            status = 1;
            break;
        }
        cpu[r] = now_ns() - start;
        sb_interp_tracking_release(&tracking);
        struct sb_rt_timing timing = { 0 };
        if (sb_rt_dispatch(context, loaded->translation, inputs->resources, inputs->count, count,
                           &timing, &error) != SB_SUCCESS) {
            fprintf(stderr, "%s: gpu: %s\n", name, error.message);
            status = 1;
            break;
        }
        run[r] = timing.run_ns;
        pipe[r] = timing.pipeline_ns;
        total[r] = timing.pipeline_ns + timing.upload_ns + timing.run_ns + timing.readback_ns;
    }
    if (!status) {
        qsort(cpu, reps, 8, compare_u64);
        qsort(run, reps, 8, compare_u64);
        qsort(total, reps, 8, compare_u64);
        qsort(pipe, reps, 8, compare_u64);
        double invocations = (double)groups * 64;
        double c = cpu[reps / 2] / 1e9, g = run[reps / 2] / 1e9, t = total[reps / 2] / 1e9;
        last_cpu_ms = c * 1e3;
        printf("%-7s %7u %10.3f %12.0f %10.3f %12.0f %10.3f %12.0f %8.2f %8.2f %9.3f %9.3f\n", name,
               groups, c * 1e3, invocations / c, g * 1e3, invocations / g, t * 1e3, invocations / t,
               g / c, t / c, pipe[0] / 1e6, pipe[reps / 2] / 1e6);
    }
    free(cpu);
    free(run);
    free(total);
    free(pipe);
    sb_rt_inputs_destroy(inputs);
    sb_rt_program_destroy(loaded);
    return status;
}

/* The median over `reps` of (tracked time / plain time), each pair measured back to back. */
static double tracking_cost(void (*build)(struct sm4_program *), uint32_t groups, uint32_t reps)
{
    static struct sm4_program program;
    static struct blob container;
    memset(&program, 0, sizeof(program));
    build(&program);
    sm4_container(&program, &container);
    struct sb_rt_program *loaded = NULL;
    struct sb_rt_inputs *inputs = NULL;
    struct sb_error error = { 0 };
    struct sb_rt_input_options input_options = { .seed = 1, .buffer_bytes = groups * 64 * 16 };
    if (sb_rt_program_load(container.bytes, container.size, NULL, &loaded, &error) != SB_SUCCESS ||
        sb_rt_inputs_create(loaded, &input_options, &inputs, &error) != SB_SUCCESS) {
        fprintf(stderr, "tracking cost: %s\n", error.message);
        sb_rt_program_destroy(loaded);
        return 0.0;
    }
    const uint32_t count[3] = { groups, 1, 1 };
    double *ratio = calloc(reps, sizeof(double));
    uint32_t done = 0;
    for (uint32_t r = 0; ratio && r < reps; r++) {
        struct sb_interp_tracking tracking = { .precision = true, .undefined = true };
        const struct sb_interp_options plain = { .threads = 1 }, tracked = { .threads = 1, .tracking = &tracking };
        uint64_t t0 = now_ns();
        enum sb_result a = sb_interp_dispatch(loaded->ir, inputs->resources, inputs->count, count, &plain, NULL,
                                              &error);
        uint64_t t1 = now_ns();
        enum sb_result b = sb_interp_dispatch(loaded->ir, inputs->resources, inputs->count, count, &tracked, NULL,
                                              &error);
        uint64_t t2 = now_ns();
        sb_interp_tracking_release(&tracking);
        if (a != SB_SUCCESS || b != SB_SUCCESS)
            break;
        ratio[done++] = (double)(t2 - t1) / (double)(t1 - t0 ? t1 - t0 : 1);
    }
    for (uint32_t i = 1; i < done; i++) /* insertion sort: a handful of values */
        for (uint32_t j = i; j > 0 && ratio[j - 1] > ratio[j]; j--) {
            double t = ratio[j];
            ratio[j] = ratio[j - 1];
            ratio[j - 1] = t;
        }
    double median = done ? ratio[done / 2] : 0.0;
    free(ratio);
    sb_rt_inputs_destroy(inputs);
    sb_rt_program_destroy(loaded);
    return median;
}

int main(int argc, char **argv)
{
    uint32_t groups = 256, reps = 5;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--groups") && i + 1 < argc)
            groups = (uint32_t)strtoul(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--reps") && i + 1 < argc)
            reps = (uint32_t)strtoul(argv[++i], NULL, 10);
        else {
            fprintf(stderr, "usage: bench_runtime [--groups G] [--reps N]\n");
            return 2;
        }
    }
    if (!groups || groups > 65535 || !reps || reps > 1000) {
        fprintf(stderr, "bench_runtime: --groups 1..65535, --reps 1..1000\n");
        return 2;
    }
    struct sb_rt_context *context = NULL;
    struct sb_error error = { 0 };
    if (sb_rt_context_create(NULL, &context, &error) != SB_SUCCESS) {
        printf("SKIPPED: no Vulkan device: %s\n", error.message);
        return 77;
    }
    printf("device: %s; %u repetitions, medians (pipeline: min and median)\n",
           sb_rt_context_device_name(context), reps);
    printf("%-7s %7s %10s %12s %10s %12s %10s %12s %8s %8s %9s %9s\n", "kernel", "groups", "cpu ms",
           "cpu inv/s", "gpu ms", "gpu inv/s", "gpu+pso ms", "inv/s", "gpu/cpu", "e2e/cpu",
           "pso min", "pso med");
    int status = bench(context, "alu", alu_kernel, groups, reps, 1, false);
    double alu_ms = last_cpu_ms;
    status |= bench(context, "alu/mt", alu_kernel, groups, reps, SB_INTERP_THREADS_AUTO, false);
    status |= bench(context, "memory", copy_kernel, groups, reps, 1, false);
    double memory_ms = last_cpu_ms;
    status |= bench(context, "small", alu_kernel, 1, reps, 1, false);
    status |= bench(context, "alu/trk", alu_kernel, groups, reps, 1, true);
    status |= bench(context, "memory/trk", copy_kernel, groups, reps, 1, true);
    (void)alu_ms;
    (void)memory_ms;
    printf("gpu/cpu < 1: the device is faster at running; e2e/cpu > 1: the interpreter is faster "
           "end to end (pipeline creation included); alu/mt: the interpreter on one worker thread "
           "per online CPU (sb_interp_options::threads), the others on the calling thread alone\n");
    uint32_t pairs = reps < 9 ? 9 : reps;
    printf("tracking cost (validate's evidence; median of %u back-to-back tracked / plain interpreter "
           "times, one thread): alu %.2fx, memory %.2fx\n", pairs, tracking_cost(alu_kernel, groups, pairs),
           tracking_cost(copy_kernel, groups, pairs));
    sb_rt_context_destroy(context);
    return status;
}
