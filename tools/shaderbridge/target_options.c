/* SPDX-License-Identifier: MIT */
/* --target and the version options of `translate` and `reflect` (target_options.h). */
#include "target_options.h"

#include <stdlib.h>
#include <string.h>

/* Index = enum sb_translate_target: the option naming that target's version. */
static const char *const version_options[] = {
    [SB_TRANSLATE_TARGET_SPIRV] = NULL,
    [SB_TRANSLATE_TARGET_GLSL] = "--glsl-version",
    [SB_TRANSLATE_TARGET_ESSL] = "--essl-version",
    [SB_TRANSLATE_TARGET_MSL] = "--msl-version",
    [SB_TRANSLATE_TARGET_HLSL] = "--hlsl-shader-model",
};

static bool matches(const char *arg, const char *name)
{
    size_t length = strlen(name);
    return !strncmp(arg, name, length) && (arg[length] == 0 || arg[length] == '=');
}

/* The value of `--name VALUE` or `--name=VALUE`; NULL after a usage error. */
static const char *value_of(int argc, char **argv, int *i, const char *command, const char *name)
{
    size_t length = strlen(name);
    if (argv[*i][length] == '=')
        return argv[*i] + length + 1;
    if (*i + 1 < argc)
        return argv[++*i];
    cli_usage_error("%s: %s needs a value", command, name);
    return NULL;
}

/* A whole number of at most 5 digits; false otherwise. */
static bool parse_number(const char *text, uint32_t *out)
{
    char *end = NULL;
    long value = strtol(text, &end, 10);
    if (!*text || *end || value < 1 || value > 99999)
        return false;
    *out = (uint32_t)value;
    return true;
}

/* "2.1" or "2.1.0" -> 20100 (SPIRV-Cross's MSL version number). */
static bool parse_msl_version(const char *text, uint32_t *out)
{
    unsigned part[3] = { 0, 0, 0 };
    const char *at = text;
    for (int k = 0; k < 3; k++) {
        char *end = NULL;
        long value = strtol(at, &end, 10);
        if (end == at || value < 0 || value > 99)
            return false;
        part[k] = (unsigned)value;
        if (*end == 0) {
            if (k == 0)
                return false; /* a bare "2" is ambiguous with the packed form */
            *out = part[0] * 10000u + part[1] * 100u + part[2];
            return true;
        }
        if (*end != '.')
            return false;
        at = end + 1;
    }
    return false;
}

bool cli_target_option(int argc, char **argv, int *i, const char *command,
                       struct cli_target_choice *choice, bool *usage_failed)
{
    const char *arg = argv[*i], *value;
    if (matches(arg, "--target")) {
        if (!(value = value_of(argc, argv, i, command, "--target"))) {
            *usage_failed = true;
        } else if (!sb_translate_target_parse(value, &choice->target)) {
            cli_usage_error("%s: unknown target '%s' (spirv, glsl, essl, msl or hlsl)", command, value);
            *usage_failed = true;
        }
        return true;
    }
    for (int t = SB_TRANSLATE_TARGET_GLSL; t <= SB_TRANSLATE_TARGET_HLSL; t++) {
        if (!matches(arg, version_options[t]))
            continue;
        if (!(value = value_of(argc, argv, i, command, version_options[t]))) {
            *usage_failed = true;
            return true;
        }
        bool ok = t == SB_TRANSLATE_TARGET_MSL ? parse_msl_version(value, &choice->versions[t])
                                               : parse_number(value, &choice->versions[t]);
        if (!ok) {
            static const char *const forms[] = {
                [SB_TRANSLATE_TARGET_GLSL] = "a number such as 450",
                [SB_TRANSLATE_TARGET_ESSL] = "a number such as 310",
                [SB_TRANSLATE_TARGET_MSL] = "MAJOR.MINOR[.PATCH] such as 2.1",
                [SB_TRANSLATE_TARGET_HLSL] = "the shader model times ten, such as 50",
            };
            cli_usage_error("%s: %s wants %s, not '%s'", command, version_options[t], forms[t], value);
            *usage_failed = true;
        }
        return true;
    }
    return false;
}

bool cli_target_apply(const char *command, const struct cli_target_choice *choice,
                      struct sb_translate_options *options)
{
    for (int t = SB_TRANSLATE_TARGET_GLSL; t <= SB_TRANSLATE_TARGET_HLSL; t++)
        if (choice->versions[t] && (int)choice->target != t) {
            cli_usage_error("%s: %s applies to --target %s only", command, version_options[t],
                            sb_translate_target_name((enum sb_translate_target)t));
            return false;
        }
    options->target = choice->target;
    options->target_version = choice->versions[choice->target];
    return true;
}
