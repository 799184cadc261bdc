/* SPDX-License-Identifier: MIT */
/*
 * Harness of the PICA200 runtime tests: picasso-syntax programs assembled at
 * test time (sb_pica_assemble), loaded as the runtime loads SHBIN files
 * (sb_rt_program_load_shbin), run with chosen inputs and uniforms on the CPU
 * interpreter and, through the runtime's capture geometry stage, on Vulkan,
 * and compared bit for bit; plus sb_validate runs with seeded inputs.
 */
#ifndef SB_TESTS_PICA_RT_HARNESS_H
#define SB_TESTS_PICA_RT_HARNESS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "shaderbridge/validate.h"

extern int g_failures;

#define CHECK(cond, ...)                                                                        \
    do {                                                                                        \
        if (!(cond)) {                                                                          \
            g_failures++;                                                                       \
            fprintf(stderr, "%s:%d: FAILED %s: ", __FILE__, __LINE__, #cond);                   \
            fprintf(stderr, __VA_ARGS__);                                                       \
            fputc('\n', stderr);                                                                \
        }                                                                                       \
    } while (0)

/** Vertices one harness run draws at most. */
#define PRT_MAX_VERTICES 256u

/** Uniform values of a run (the DVLE constants are applied on top, as the runtime does). */
struct prt_uniforms {
    float c[96][4];
    uint32_t i[4][4];  /* x count - 1, y start, z step, w */
    uint32_t b;        /* bit n = b n */
};

/** Outputs of a run: [vertex][o register][lane] as float bits; `mask` = declared lanes. */
struct prt_outputs {
    uint32_t count;
    uint32_t words[PRT_MAX_VERTICES][16][4];
    uint8_t mask[16];
    bool gpu_ran;      /* whether the GPU side ran and agreed bit for bit */
};

/** The context tests share: a device, or NULL for CPU-only runs. */
extern struct sb_rt_context *g_context;

/** Reads and assembles `dir`/`name` and loads DVLE `dvle` with `pica_flags`; NULL on failure
 *  (a test failure is recorded). */
struct sb_rt_program *prt_load(const char *dir, const char *name, uint32_t dvle, uint32_t pica_flags);

/**
 * Runs `count` vertices with inputs in[v][reg][lane] (NULL: zeros) and uniforms `u` (NULL:
 * seeded as sb_rt_inputs_create does) on the interpreter and, when g_context has a device,
 * on the GPU; the GPU's outputs must equal the interpreter's in every declared lane (a
 * failure is recorded). `out` receives the interpreter's. False when a side failed to run.
 */
bool prt_run(const struct sb_rt_program *program, uint32_t count, const float (*in)[16][4],
             const struct prt_uniforms *u, struct prt_outputs *out);

/** sb_validate with `seed` (both sides when there is a device, else the CPU only); records a
 *  failure unless it ran and agreed bit for bit; returns the words compared. */
uint64_t prt_validate(const struct sb_rt_program *program, uint64_t seed, uint32_t draw_count);

/** Lane `lane` of o`reg` of vertex `v` as a float. */
float prt_out(const struct prt_outputs *out, uint32_t v, uint32_t reg, uint32_t lane);

/** Whether the lowered program took the dispatch-loop path (a SWITCH in its entry). */
bool prt_is_dispatch(const struct sb_rt_program *program);

#endif
