/* SPDX-License-Identifier: MIT */
/*
 * The subcommands of `shaderbridge`, one cmd_<name>.c each, called by main.c
 * alone. Each takes its own argv (argv[0] is the subcommand's name) and
 * returns the program's exit status (enum cli_exit, CLI_EXIT_NOT_RUN).
 */
#ifndef SB_CLI_COMMANDS_H
#define SB_CLI_COMMANDS_H

#include "cli.h"

int cli_cmd_info(int argc, char **argv);
int cli_cmd_reflect(int argc, char **argv);
int cli_cmd_disasm(int argc, char **argv);
int cli_cmd_assemble(int argc, char **argv);
int cli_cmd_translate(int argc, char **argv);
int cli_cmd_run(int argc, char **argv);
int cli_cmd_validate(int argc, char **argv);

struct cli_run_options;
/** `validate --reference OTHER FILE` (validate_reference.c): options->file against `other`;
 *  the exit status; `json`: one document instead of text. */
int cli_validate_reference(const struct cli_run_options *options, const char *other, bool json);

#endif
