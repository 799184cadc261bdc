/* SPDX-License-Identifier: MIT */
/*
 * Shared by `run` and `validate`: their common options, loading a program,
 * opening a device, and naming resources the way shaders name them (u0, t3,
 * cb1, s0; `u0@space2` in register space 2).
 */
#ifndef SB_CLI_RUN_COMMON_H
#define SB_CLI_RUN_COMMON_H

#include <stdbool.h>
#include <stdint.h>

#include "cli.h"
#include "shaderbridge/validate.h"

struct cli_gpu_module;

/** Exit status of run/validate when the shader could not be run (unsupported, no device). */
#define CLI_EXIT_NOT_RUN 3
/** Exit status of validate when an input's verdict is `undefined` (a race or undefined read
 *  explains its differences) and none disagrees; above not-run, below disagree. */
#define CLI_EXIT_UNDEFINED 4

struct cli_run_options {
    const char *file;
    uint32_t groups[3];
    uint64_t seed;
    const char *device;
    bool cpu;
    uint32_t ulps;
    const char *output_dir;
    /** --draw: vertices (vertex shaders) or primitives (geometry shaders); 0 = the default. */
    uint32_t draw_count;
    /** --draw WxH: the render target of a pixel shader; 0 = the default. */
    uint32_t draw_width, draw_height;
    bool draw;
    uint32_t explain_ulps;    /**< validate --explain-precision N */
    uint32_t input_count;
    const char *inputs[64];   /**< REG=FILE */
    /** --target oN=FORMAT: pixel shaders' render-target formats (sb_validate_options::
     *  target_formats); 0 = the default. */
    uint32_t target_formats[8];
    /** SHBIN files: --dvle N picks the entry point (default 0); --pica-fast the fast float32
     *  mode instead of float24-exact (sb_rt_program_load_shbin). */
    uint32_t dvle;
    bool pica_fast;
    /** validate --spirv FILE.spv: the module the device runs instead of the translation;
     *  --bindings MAP.json: where it binds the registers (gpu_module.h). NULL when not given. */
    const char *spirv;
    const char *bindings;
    /** The loaded module and map (cmd_validate.c fills it once from spirv/bindings). */
    const struct cli_gpu_module *gpu_module;
};

/**
 * Parses one option of run/validate at argv[*i] (advancing *i past its value).
 * Returns 1 when it was one, 0 when not, -1 on a usage error (printed).
 */
int cli_run_parse_option(const char *command, int argc, char **argv, int *i,
                         struct cli_run_options *options);

/** Loads FILE into a program: CLI_EXIT_OK, or (the error printed) the exit status for the
 *  failure — CLI_EXIT_NOT_RUN for what cannot be run (cli_run_exit_for), else 1. `error`
 *  (NULL: not wanted) receives the failure too: the loader's, or SB_ERROR_IO when the file
 *  could not be read. */
int cli_run_load(const struct cli_run_options *options, struct sb_rt_program **program,
                 struct sb_error *error);

/** Opens the device (or a CPU-only context with `cpu`); prints the error on failure. */
bool cli_run_context(const struct cli_run_options *options, struct sb_rt_context **context);

/** "u0", "t3@space1", "cb2", "s0" for a resource. */
void cli_run_resource_name(const struct sb_rt_resource *r, char *buf, size_t size);

/** `run --draw` (run_draw.c): a vertex, pixel or geometry program on one side; the exit status. */
int cli_run_draw(const struct cli_run_options *options, const struct sb_rt_program *program);

/** Exit status for a failed run: CLI_EXIT_NOT_RUN for unsupported/no device/budget, else 1. */
int cli_run_exit_for(enum sb_result result);

#endif
