/* SPDX-License-Identifier: MIT */
/*
 * What the files of bench_pipeline share: one measurement of a module on the
 * device (bench_pipeline_vk.c) and the order statistics of the report
 * (bench_pipeline_stats.c). bench_pipeline.c drives both. Tests only.
 */
#ifndef SB_BENCH_PIPELINE_H
#define SB_BENCH_PIPELINE_H

#include <stddef.h>
#include <stdint.h>

#include "shaderbridge/resources.h"
#include "shaderbridge/translate.h"

/** One measurement of one module on a fresh device: what a child process sends back. */
struct bp_sample {
    int32_t ran;           /**< 1: every phase ran; 0: see message */
    uint64_t create_ns;    /**< vkCreateShaderModule + vkCreateComputePipelines (no cache) */
    uint64_t first_ns;     /**< the first vkCmdDispatch(1,1,1): record, submit, wait (lavapipe compiles here) */
    uint64_t large_ns;     /**< the large dispatch after the first one; 0 when none was asked for */
    uint64_t large_cpu_ns; /**< CPU time of the process, every thread, during the large dispatch: the
                                driver's worker threads run the shader, so on a loaded machine this
                                varies far less than large_ns, which counts waiting for a core */
    char device[96];       /**< the device's name */
    char message[320];     /**< why it did not run */
};

/**
 * Creates a runtime context (a VkDevice of its own, no validation layer), then
 * times, for the compute module of `t` over `resources` (found by register as for
 * sb_rt_dispatch): shader module + pipeline creation, the first 1x1x1 dispatch, and,
 * when large_groups is not NULL, one dispatch of that many groups after it. Descriptor
 * layouts, resources and descriptor sets are made before the clock starts and are not
 * counted. Everything is destroyed before it returns.
 */
void bp_measure_compute(const struct sb_translation *t, struct sb_rt_resource *resources, uint32_t resource_count,
                        const uint32_t *large_groups, struct bp_sample *out);

struct sb_rt_program;

/**
 * Creates a runtime context as bp_measure_compute does and draws a vertex or pixel
 * program once through sb_validate's device side (its generated partner stage: the
 * capture geometry stage of a vertex program, the feeder vertex stage of a pixel one;
 * its seeded inputs and point draw). create_ns: module(s), layouts, render pass and
 * pipeline (sb_rt_timing::pipeline_ns); first_ns: the first draw submitted and waited for
 * (run_ns). `spirv` (NULL: the program's translation) runs another compiler's module in
 * its place (sb_validate_options::gpu_spirv). large_ns stays 0.
 */
void bp_measure_graphics(const struct sb_rt_program *program, const uint32_t *spirv, size_t spirv_words,
                         struct bp_sample *out);

/** The p-th percentile (0..100, linear between the closest ranks) of n values; sorts them. 0 for n 0. */
double bp_percentile(double *values, size_t n, double p);
/** The median of n values (sorts them). */
double bp_median(double *values, size_t n);

#endif
