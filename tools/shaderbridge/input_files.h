/* SPDX-License-Identifier: MIT */
/*
 * `--input REG=FILE` of draws (`run --draw`) and of `validate`: the register a spec names
 * and its file read by what the register takes, as one sb_validate_options::provided entry.
 */
#ifndef SB_CLI_INPUT_FILES_H
#define SB_CLI_INPUT_FILES_H

#include <stdint.h>

#include "cli.h"
#include "shaderbridge/validate.h"

/**
 * Loads one `REG=FILE` spec: REG is cb#, t#, u#, s# or v# (`@spaceN` after the number for
 * cb/t/u/s in a register space). FILE is read as: for cb#, u#, t# and v#, its bytes (a t# or
 * u# named *.dds a DDS texture, *.png a PNG texture, each with its own format and shape); for
 * s#, sampler text (sampler_text.h). `entry` receives the register and the data, which
 * `file` owns until cli_input_free. Returns CLI_EXIT_OK, or CLI_EXIT_USAGE after printing
 * why (a bad register name, an unreadable file, a file its reader refuses, as
 * `FILE:OFFSET: error: MESSAGE [CODE]`); `command` prefixes usage errors. Nothing is left to
 * free after a failure.
 */
int cli_input_load(const char *command, const char *spec, struct sb_rt_resource *entry, struct cli_file *file);

/** Frees what cli_input_load kept for `count` entries. */
void cli_input_free(struct cli_file *files, uint32_t count);

/**
 * When `r`/`error` is the library's refusal of provided entry error->offset (a message that
 * starts "provided input"), prints it against that entry's spec
 * (`shaderbridge: error: COMMAND: --input SPEC: MESSAGE [CODE]`) and returns true.
 */
bool cli_input_report_refusal(const char *command, enum sb_result r, const struct sb_error *error,
                              const char *const *specs, uint32_t count);

#endif
