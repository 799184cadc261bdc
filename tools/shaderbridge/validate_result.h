/* SPDX-License-Identifier: MIT */
/*
 * One input's outcome in `shaderbridge validate`, below cmd_validate.c: the
 * names the text and the JSON output share (how a differing word is
 * explained, where an undefined access happened, which instruction a byte
 * offset is) and the JSON object of one input (the schema is in the
 * top-level README, "validate --json"). One place builds both names so the
 * two outputs cannot drift apart.
 */
#ifndef SB_CLI_VALIDATE_RESULT_H
#define SB_CLI_VALIDATE_RESULT_H

#include <stdbool.h>
#include <stdint.h>

#include "cli.h"
#include "shaderbridge/validate.h"

/** What `validate` concluded for one input. */
struct cli_validate_result {
    const char *file;
    const struct sb_rt_program *program;     /**< NULL when the file did not load */
    const struct sb_validate_report *report; /**< NULL unless both sides ran */
    /** sb_validate_verdict_name() of the report's verdict, "not-run" when sb_validate (or
     *  the device) could not run it, "error" when the input is invalid. */
    const char *verdict;
    /** One line: the report's reason, or for not-run / error the failure's message, byte
     *  offset and code. */
    char reason[SB_ERROR_MESSAGE_SIZE + 160];
    bool failed;                             /**< `error` holds why it was not compared */
    struct sb_error error;
    uint32_t ulps;                           /**< --ulps N as given (0: none) */
    /** --explain-precision N: the evidence, when it was asked for and could be computed. */
    uint32_t explain_ulps;
    bool explained;
    struct sb_validate_precision precision;
};

/** "unexplained", "within-precision", "precision-sensitive" (an infinite bound) or
 *  "undefined": how sb_validate explained a differing word. */
const char *cli_validate_explanation(const struct sb_validate_mismatch *m);

/** "float", "int", "uint", "bool", "double.lo", "double.hi", "unknown": a word kind. */
const char *cli_validate_word_kind(uint32_t kind);

/** "write-write", "read-write", "atomic-order", "uninitialized" ("undefined" otherwise). */
const char *cli_validate_undefined_kind(enum sb_interp_undefined_kind kind);

/** The register a report's resource index names ("u0", "o1", "gs-vertices"), or for an
 *  undefined event on group-shared memory (resource UINT32_MAX) "g<id>". */
void cli_validate_location(const struct sb_validate_report *report, uint32_t resource,
                           uint32_t group_shared_id, char *buf, size_t size);
/** The location of an undefined event: as cli_validate_location, "x3" for an indexable temp. */
void cli_validate_event_location(const struct sb_validate_report *report, const struct sb_interp_undefined_event *u,
                                 char *buf, size_t size);

/** The operation name ("rcp", "mad") of the instruction at shader byte offset `offset`;
 *  "" when there is none (UINT32_MAX, or no instruction starts there). */
void cli_validate_op_at(const struct sb_rt_program *program, uint32_t offset, char *buf, size_t size);

/** Loading's and sb_validate's failures: what we, the device or the interpreter cannot run (a
 *  missing feature or operation of the translator, the device or the interpreter, the budget,
 *  a binding the harness cannot make from seeded data) is "not-run"; anything else means the
 *  input itself is wrong ("error"). */
const char *cli_validate_failure_verdict(enum sb_result code);

/** The exit status a verdict name asks for: 1 disagree or error, 4 undefined, 3 not-run, else 0. */
int cli_validate_verdict_status(const char *verdict);

/** How bad an exit status is, for the worst-wins rule: 1 > 4 > 3 > 0 (ranks 3, 2, 1, 0). */
int cli_validate_status_rank(int status);

/** The JSON object of one input (a new reference). */
json_object *cli_validate_json(const struct cli_validate_result *result);

#endif
