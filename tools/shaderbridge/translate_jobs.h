/* SPDX-License-Identifier: MIT */
/*
 * The work of `shaderbridge translate` once its command line is understood:
 * a list of inputs, each with where its SPIR-V goes, run by N threads of one
 * process (translate_jobs.c). cmd_translate.c parses options and plans names.
 */
#ifndef SB_CLI_TRANSLATE_JOBS_H
#define SB_CLI_TRANSLATE_JOBS_H

#include "cli.h"

#include "shaderbridge/translate.h"

/** One input file and its outcome. */
struct translate_item {
    const char *input;    /**< path as given ("-" = stdin) */
    char *output;         /**< path to write (malloc'd), or NULL for stdout */
    bool done;            /**< finished (set under the run's lock) */
    bool failed;          /**< finished with `error` set */
    struct sb_error error; /**< why it failed; offset into the input file */
};

/** Everything one `translate` invocation does. */
struct translate_run {
    struct sb_translate_options options; /**< target env, SB_TRANSLATE_* flags, text target */
    bool text;                           /**< --spirv-text: spirv-dis text, not binary */
    unsigned jobs;                       /**< threads (1 = in the calling thread) */
    struct translate_item *items;
    size_t count;
};

/**
 * Translates every item, writing outputs as they finish and printing each
 * failure as `FILE:OFFSET: error: MESSAGE [CODE]` in input order; a progress
 * bar goes to stderr when stderr is a terminal and there is more than one
 * input. Returns the number of failed inputs.
 */
size_t cli_translate_run(struct translate_run *run);

#endif
