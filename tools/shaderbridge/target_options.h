/* SPDX-License-Identifier: MIT */
/*
 * The options that choose a text target, shared by `translate` and `reflect`
 * (target_options.c): --target spirv|glsl|essl|msl|hlsl and one version option per
 * language, --glsl-version 450, --essl-version 310, --msl-version 2.1,
 * --hlsl-shader-model 50. A version option for another target than the chosen one is a
 * usage error (it would be silently ignored otherwise).
 */
#ifndef SB_CLI_TARGET_OPTIONS_H
#define SB_CLI_TARGET_OPTIONS_H

#include "cli.h"

#include "shaderbridge/translate.h"

/** What the command line said; zero-initialised means SPIR-V, default versions. */
struct cli_target_choice {
    enum sb_translate_target target;
    uint32_t versions[SB_TRANSLATE_TARGET_HLSL + 1]; /**< per target; 0 = not given */
};

/**
 * When argv[*i] is one of the target options, reads it (and its value, advancing *i) and
 * returns true; *usage_failed is set after printing a usage error for a bad value.
 * Returns false for any other argument.
 */
bool cli_target_option(int argc, char **argv, int *i, const char *command,
                       struct cli_target_choice *choice, bool *usage_failed);

/** Puts the choice into options (target, target_version); false after a usage error. */
bool cli_target_apply(const char *command, const struct cli_target_choice *choice,
                      struct sb_translate_options *options);

#endif
