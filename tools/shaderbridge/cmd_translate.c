/* SPDX-License-Identifier: MIT */
/*
 * `shaderbridge translate [-o OUT] [--target-env vulkan1.0|1.1|1.2|1.3] [-g]
 * [-O] [--validate] [--spirv-text] [--jobs N] [--unbounded-descriptors N]
 * [--device-profile lavapipe|FILE.json] [--target spirv|glsl|essl|msl|hlsl]
 * [--glsl-version N] [--essl-version N] [--msl-version X.Y] [--hlsl-shader-model N]
 * FILE...`: DXBC to SPIR-V, or to a text target through SPIRV-Cross (target_options.h;
 * the SPIR-V options still shape the module SPIRV-Cross reads). --unbounded-descriptors N sets
 * sb_translate_options::unbounded_descriptor_count (unbounded SM5.1 ranges as
 * fixed arrays of N descriptors, for devices without runtimeDescriptorArray).
 * --device-profile describes the device (sb_translate_options::device and
 * ::storage_formats; device_profile.h has the file format), selecting the
 * translator's fallbacks for the features it lacks.
 *
 * Where output goes (the help text in main.c says the same, shorter):
 *   one input, no -o        standard output; binary SPIR-V is refused when
 *                           standard output is a terminal (usage error: use
 *                           -o FILE, a pipe, or --spirv-text)
 *   one input, -o FILE      FILE ("-" = standard output, same terminal rule)
 *   -o DIR (exists, or several inputs)
 *                           DIR/NAME.spv per input (NAME.spvasm with
 *                           --spirv-text; NAME.glsl, .essl, .metal, .hlsl for
 *                           the text targets), NAME being the input's file name
 *                           without its last extension; DIR is created when
 *                           missing; two inputs that would write the same
 *                           file are a usage error, as is "-" among several.
 * Exit: 0 all translated, 1 any input failed (each reported as
 * FILE:OFFSET: error: MESSAGE [CODE]), 2 usage.
 */
#define _POSIX_C_SOURCE 200809L

#include "commands.h"
#include "device_profile.h"
#include "target_options.h"
#include "translate_jobs.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_JOBS 256

struct options {
    struct sb_translate_options translate;
    struct cli_target_choice target;
    struct cli_device_profile profile; /* --device-profile; zeroed without it */
    bool bad_profile;                   /* its file did not read: exit 1 (bad input), not 2 */
    bool text;
    const char *output;
    unsigned jobs;
    const char **inputs;
    size_t input_count;
};

/* The value of `--name VALUE` or `--name=VALUE`; NULL (after a usage error) when missing. */
static const char *option_value(int argc, char **argv, int *i, const char *name)
{
    size_t length = strlen(name);
    if (!strncmp(argv[*i], name, length) && argv[*i][length] == '=')
        return argv[*i] + length + 1;
    if (*i + 1 < argc)
        return argv[++*i];
    cli_usage_error("translate: %s needs a value", name);
    return NULL;
}

static bool is_option(const char *arg, const char *name)
{
    size_t length = strlen(name);
    return !strncmp(arg, name, length) && (arg[length] == 0 || arg[length] == '=');
}

static bool parse_jobs(const char *text, unsigned *jobs)
{
    char *end = NULL;
    long value = strtol(text, &end, 10);
    if (!*text || *end || value < 1 || value > MAX_JOBS) {
        cli_usage_error("translate: --jobs wants a number from 1 to %d, not '%s'", MAX_JOBS, text);
        return false;
    }
    *jobs = (unsigned)value;
    return true;
}

/* Parses argv into o; false after printing a usage error. */
static bool parse_options(int argc, char **argv, struct options *o)
{
    bool options_done = false, usage_failed = false;
    o->inputs = calloc((size_t)argc, sizeof(*o->inputs));
    if (!o->inputs)
        return false;
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i], *value;
        if (options_done || arg[0] != '-' || arg[1] == 0) {
            o->inputs[o->input_count++] = arg;
        } else if (!strcmp(arg, "--")) {
            options_done = true;
        } else if (!strcmp(arg, "-o") || is_option(arg, "--output")) {
            if (!(value = option_value(argc, argv, &i, arg[1] == 'o' ? "-o" : "--output")))
                return false;
            o->output = value;
        } else if (is_option(arg, "--target-env")) {
            if (!(value = option_value(argc, argv, &i, "--target-env")))
                return false;
            if (!sb_target_env_parse(value, &o->translate.target_env)) {
                cli_usage_error("translate: unknown target environment '%s' (vulkan1.0, "
                                "vulkan1.1, vulkan1.2 or vulkan1.3)", value);
                return false;
            }
        } else if (!strcmp(arg, "-j") || is_option(arg, "--jobs")) {
            if (!(value = option_value(argc, argv, &i, arg[1] == 'j' ? "-j" : "--jobs")) ||
                !parse_jobs(value, &o->jobs))
                return false;
        } else if (is_option(arg, "--unbounded-descriptors")) {
            if (!(value = option_value(argc, argv, &i, "--unbounded-descriptors")) ||
                !cli_parse_unbounded_descriptors("translate", value, &o->translate.unbounded_descriptor_count))
                return false;
        } else if (is_option(arg, "--device-profile")) {
            if (!(value = option_value(argc, argv, &i, "--device-profile")))
                return false;
            cli_device_profile_free(&o->profile);
            if (!cli_device_profile_load(value, &o->profile)) {
                o->bad_profile = true;
                return false;
            }
            cli_device_profile_apply(&o->profile, &o->translate);
        } else if (!strcmp(arg, "-g")) {
            o->translate.flags |= SB_TRANSLATE_DEBUG_INFO;
        } else if (!strcmp(arg, "-O")) {
            o->translate.flags |= SB_TRANSLATE_OPTIMIZE;
        } else if (!strcmp(arg, "--validate")) {
            o->translate.flags |= SB_TRANSLATE_VALIDATE;
        } else if (!strcmp(arg, "--spirv-text")) {
            o->text = true;
        } else if (cli_target_option(argc, argv, &i, "translate", &o->target, &usage_failed)) {
            if (usage_failed)
                return false;
        } else {
            cli_usage_error("translate: unknown option '%s'", arg);
            return false;
        }
    }
    if (o->input_count == 0) {
        cli_usage_error("translate: no input file");
        return false;
    }
    if (!cli_target_apply("translate", &o->target, &o->translate))
        return false;
    if (o->text && o->translate.target != SB_TRANSLATE_TARGET_SPIRV) {
        cli_usage_error("translate: --spirv-text is for --target spirv (the other targets are text)");
        return false;
    }
    return true;
}

/* mkdir -p; false with errno set. */
static bool make_directory(const char *path)
{
    char *copy = strdup(path);
    if (!copy)
        return false;
    for (char *p = copy + 1; *p; p++) {
        if (*p != '/')
            continue;
        *p = 0;
        if (mkdir(copy, 0777) != 0 && errno != EEXIST) {
            free(copy);
            return false;
        }
        *p = '/';
    }
    bool ok = mkdir(copy, 0777) == 0 || errno == EEXIST;
    free(copy);
    struct stat st;
    if (ok && (stat(path, &st) != 0 || !S_ISDIR(st.st_mode))) {
        errno = ENOTDIR;
        ok = false;
    }
    return ok;
}

/* DIR/NAME.spv (or the text target's extension) for an input path (malloc'd). */
static char *output_in_directory(const char *dir, const char *input, bool text,
                                 enum sb_translate_target target)
{
    static const char *const extensions[] = {
        [SB_TRANSLATE_TARGET_SPIRV] = ".spv", [SB_TRANSLATE_TARGET_GLSL] = ".glsl",
        [SB_TRANSLATE_TARGET_ESSL] = ".essl", [SB_TRANSLATE_TARGET_MSL] = ".metal",
        [SB_TRANSLATE_TARGET_HLSL] = ".hlsl",
    };
    const char *base = strrchr(input, '/');
    base = base ? base + 1 : input;
    const char *dot = strrchr(base, '.');
    size_t stem = dot && dot != base ? (size_t)(dot - base) : strlen(base);
    const char *extension = text ? ".spvasm" : extensions[target];
    size_t length = strlen(dir) + 1 + stem + strlen(extension) + 1;
    char *path = malloc(length);
    if (path)
        snprintf(path, length, "%s/%.*s%s", dir, (int)stem, base, extension);
    return path;
}

static int compare_outputs(const void *a, const void *b)
{
    const struct translate_item *x = *(const struct translate_item *const *)a;
    const struct translate_item *y = *(const struct translate_item *const *)b;
    return strcmp(x->output, y->output);
}

/* Two inputs writing one file would make the result depend on thread timing. */
static bool outputs_distinct(struct translate_item *items, size_t count)
{
    struct translate_item **sorted = malloc(count * sizeof(*sorted));
    if (!sorted)
        return false;
    for (size_t i = 0; i < count; i++)
        sorted[i] = &items[i];
    qsort(sorted, count, sizeof(*sorted), compare_outputs);
    bool distinct = true;
    for (size_t i = 1; i < count && distinct; i++)
        if (!strcmp(sorted[i - 1]->output, sorted[i]->output)) {
            cli_usage_error("translate: '%s' and '%s' would both be written to %s",
                            sorted[i - 1]->input, sorted[i]->input, sorted[i]->output);
            distinct = false;
        }
    free(sorted);
    return distinct;
}

/* Decides each item's output path (translate_jobs.h); false after a usage error. */
static bool plan_outputs(const struct options *o, struct translate_item *items)
{
    struct stat st;
    bool to_directory = o->input_count > 1 ||
                        (o->output && strcmp(o->output, "-") && stat(o->output, &st) == 0 &&
                         S_ISDIR(st.st_mode));
    if (!to_directory) {
        bool to_stdout = !o->output || !strcmp(o->output, "-");
        bool binary = !o->text && o->translate.target == SB_TRANSLATE_TARGET_SPIRV;
        if (to_stdout && binary && isatty(STDOUT_FILENO)) {
            cli_usage_error("translate: refusing to write binary SPIR-V to a terminal "
                            "(use -o FILE, a pipe, or --spirv-text)");
            return false;
        }
        items[0].output = to_stdout ? NULL : strdup(o->output);
        return to_stdout || items[0].output;
    }
    if (!o->output || !strcmp(o->output, "-")) {
        cli_usage_error("translate: several inputs need -o DIRECTORY");
        return false;
    }
    for (size_t i = 0; i < o->input_count; i++) {
        if (!strcmp(o->inputs[i], "-")) {
            cli_usage_error("translate: '-' (standard input) is allowed only as the one input");
            return false;
        }
        if (!(items[i].output = output_in_directory(o->output, o->inputs[i], o->text, o->translate.target)))
            return false;
    }
    if (!outputs_distinct(items, o->input_count))
        return false;
    if (!make_directory(o->output)) {
        cli_usage_error("translate: cannot create output directory %s: %s", o->output,
                        strerror(errno));
        return false;
    }
    return true;
}

int cli_cmd_translate(int argc, char **argv)
{
    struct options o = { .translate = { .target_env = SB_TARGET_VULKAN_1_1 }, .jobs = 1 };
    struct translate_item *items = NULL;
    int status = CLI_EXIT_USAGE;
    if (!parse_options(argc, argv, &o)) {
        if (o.bad_profile)
            status = CLI_EXIT_INVALID_INPUT;
        goto done;
    }
    items = calloc(o.input_count, sizeof(*items));
    if (!items)
        goto done;
    for (size_t i = 0; i < o.input_count; i++)
        items[i].input = o.inputs[i];
    if (!plan_outputs(&o, items))
        goto done;
    struct translate_run run = { .options = o.translate, .text = o.text, .jobs = o.jobs,
                                 .items = items, .count = o.input_count };
    status = cli_translate_run(&run) ? CLI_EXIT_INVALID_INPUT : CLI_EXIT_OK;
done:
    for (size_t i = 0; items && i < o.input_count; i++)
        free(items[i].output);
    free(items);
    free(o.inputs);
    cli_device_profile_free(&o.profile);
    return status;
}
