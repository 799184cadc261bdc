/* SPDX-License-Identifier: MIT */
/* Options, loading and naming shared by `shaderbridge run` and `validate`. */
#define _POSIX_C_SOURCE 200809L
#include "run_common.h"

#include "error.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool parse_u64(const char *text, uint64_t *out)
{
    char *end = NULL;
    errno = 0;
    unsigned long long v = strtoull(text, &end, 0);
    if (errno || !end || *end || end == text || text[0] == '-')
        return false;
    *out = v;
    return true;
}

static bool parse_groups(const char *text, uint32_t groups[3])
{
    uint64_t v[3] = { 1, 1, 1 };
    char copy[64];
    if (strlen(text) >= sizeof(copy))
        return false;
    strcpy(copy, text);
    char *save = NULL;
    int n = 0;
    for (char *part = strtok_r(copy, ",", &save); part; part = strtok_r(NULL, ",", &save)) {
        if (n == 3 || !parse_u64(part, &v[n]) || v[n] == 0 || v[n] > 65535)
            return false;
        n++;
    }
    if (n == 0)
        return false;
    for (int a = 0; a < 3; a++)
        groups[a] = (uint32_t)v[a];
    return true;
}

/* "o0=r8g8b8a8_unorm_srgb": a render target's format, by sb_rt_format_name's names. */
static bool parse_target(const char *text, struct cli_run_options *o)
{
    if (text[0] != 'o' || text[1] < '0' || text[1] > '7' || text[2] != '=')
        return false;
    for (uint32_t f = 1; f < SB_RT_FORMAT_COUNT; f++)
        if (!strcmp(text + 3, sb_rt_format_name((enum sb_rt_format)f))) {
            o->target_formats[text[1] - '0'] = f;
            return true;
        }
    return false;
}

/* "N" (a count) or "WxH" (a pixel target). */
static bool parse_draw(const char *text, struct cli_run_options *o)
{
    char *end = NULL;
    unsigned long a = strtoul(text, &end, 10);
    if (end == text || !a)
        return false;
    if (*end == 0) {
        if (a > 65536)
            return false;
        o->draw_count = (uint32_t)a;
        o->draw_width = o->draw_height = 0;
        o->draw = true;
        return true;
    }
    const char *rest = end + 1;
    if (*end != 'x' || *rest < '0' || *rest > '9')
        return false;
    unsigned long b = strtoul(rest, &end, 10);
    if (*end != 0 || !b || a > 2048 || b > 2048)
        return false;
    o->draw_width = (uint32_t)a;
    o->draw_height = (uint32_t)b;
    o->draw_count = 0;
    o->draw = true;
    return true;
}

int cli_run_parse_option(const char *command, int argc, char **argv, int *i,
                         struct cli_run_options *o)
{
    const char *arg = argv[*i];
    const char *value = *i + 1 < argc ? argv[*i + 1] : NULL;
    bool takes_value = !strcmp(arg, "--dispatch") || !strcmp(arg, "--seed") ||
                       !strcmp(arg, "--device") || !strcmp(arg, "--ulps") ||
                       !strcmp(arg, "--input") || !strcmp(arg, "--output") || !strcmp(arg, "-o") ||
                       !strcmp(arg, "--draw") || !strcmp(arg, "--dvle") ||
                       !strcmp(arg, "--explain-precision") || !strcmp(arg, "--spirv") ||
                       !strcmp(arg, "--bindings") || !strcmp(arg, "--target");
    if (takes_value && !value) {
        cli_usage_error("%s: %s needs a value", command, arg);
        return -1;
    }
    uint64_t number = 0;
    if (!strcmp(arg, "--dispatch")) {
        if (!parse_groups(value, o->groups)) {
            cli_usage_error("%s: --dispatch wants X[,Y[,Z]] thread-group counts 1-65535, not '%s'",
                            command, value);
            return -1;
        }
    } else if (!strcmp(arg, "--draw")) {
        if (!parse_draw(value, o)) {
            cli_usage_error("%s: --draw wants a count 1-65536 (vertices, primitives) or WxH pixels "
                            "(each 1-2048), not '%s'", command, value);
            return -1;
        }
    } else if (!strcmp(arg, "--target")) {
        if (!parse_target(value, o)) {
            cli_usage_error("%s: --target wants oN=FORMAT (N 0-7, a format name as 'info' and the README "
                            "spell them, e.g. o0=r8g8b8a8_unorm_srgb), not '%s'", command, value);
            return -1;
        }
    } else if (!strcmp(arg, "--seed")) {
        if (!parse_u64(value, &o->seed)) {
            cli_usage_error("%s: --seed wants a non-negative integer, not '%s'", command, value);
            return -1;
        }
    } else if (!strcmp(arg, "--ulps")) {
        if (!parse_u64(value, &number) || number > 1u << 22) {
            cli_usage_error("%s: --ulps wants an integer 0-4194304, not '%s'", command, value);
            return -1;
        }
        o->ulps = (uint32_t)number;
    } else if (!strcmp(arg, "--explain-precision")) {
        if (!parse_u64(value, &number) || number == 0 || number > 1u << 20) {
            cli_usage_error("%s: --explain-precision wants an integer 1-1048576, not '%s'", command, value);
            return -1;
        }
        o->explain_ulps = (uint32_t)number;
    } else if (!strcmp(arg, "--device")) {
        o->device = value;
    } else if (!strcmp(arg, "--spirv")) {
        o->spirv = value;
    } else if (!strcmp(arg, "--bindings")) {
        o->bindings = value;
    } else if (!strcmp(arg, "--input")) {
        if (o->input_count == sizeof(o->inputs) / sizeof(o->inputs[0]) || !strchr(value, '=')) {
            cli_usage_error("%s: --input wants REG=FILE (at most 64), not '%s'", command, value);
            return -1;
        }
        o->inputs[o->input_count++] = value;
    } else if (!strcmp(arg, "--output") || !strcmp(arg, "-o")) {
        o->output_dir = value;
    } else if (!strcmp(arg, "--dvle")) {
        if (!parse_u64(value, &number) || number > 0xFFFF) {
            cli_usage_error("%s: --dvle wants a DVLE index 0-65535, not '%s'", command, value);
            return -1;
        }
        o->dvle = (uint32_t)number;
    } else if (!strcmp(arg, "--pica-fast")) {
        o->pica_fast = true;
        return 1;
    } else if (!strcmp(arg, "--cpu")) {
        o->cpu = true;
        return 1;
    } else {
        return 0;
    }
    (*i)++;
    return 1;
}

int cli_run_load(const struct cli_run_options *o, struct sb_rt_program **program, struct sb_error *out)
{
    struct cli_file file;
    struct sb_error error = { 0 };
    errno = 0;
    if (!cli_file_load(o->file, &file)) {
        if (out)
            sb_error_set(out, SB_ERROR_IO, 0, SB_ERROR_NO_INSTR, "cannot read the file%s%s",
                         errno ? ": " : "", errno ? strerror(errno) : "");
        return CLI_EXIT_INVALID_INPUT;
    }
    bool shbin = file.size >= 4 && memcmp(file.bytes, "DVLB", 4) == 0;
    enum sb_result r = shbin ? sb_rt_program_load_shbin(file.bytes, file.size, o->dvle,
                                                        o->pica_fast ? 0u : SB_IR_PICA_FLOAT24, NULL,
                                                        program, &error)
                             : sb_rt_program_load(file.bytes, file.size, NULL, program, &error);
    cli_file_free(&file);
    if (r != SB_SUCCESS) {
        cli_report_error(o->file, &error);
        if (out)
            *out = error;
        return cli_run_exit_for(r);
    }
    return CLI_EXIT_OK;
}

bool cli_run_context(const struct cli_run_options *o, struct sb_rt_context **context)
{
    struct sb_rt_context_options options = { .device = o->device, .cpu_only = o->cpu };
    struct sb_error error = { 0 };
    if (sb_rt_context_create(&options, context, &error) != SB_SUCCESS) {
        fprintf(stderr, "shaderbridge: error: %s [%s]\n", error.message, sb_result_name(error.code));
        return false;
    }
    return true;
}

void cli_run_resource_name(const struct sb_rt_resource *r, char *buf, size_t size)
{
    static const char *const prefixes[] = { "cb", "t", "s", "u", "o" };
    if (r->resource_class == SB_VALIDATE_CLASS_DEPTH) {
        snprintf(buf, size, "oDepth");
        return;
    }
    if (r->resource_class == SB_VALIDATE_CLASS_STENCIL) {
        snprintf(buf, size, "oStencilRef");
        return;
    }
    if (r->resource_class == SB_VALIDATE_CLASS_GEOMETRY) {
        snprintf(buf, size, "gs-vertices");
        return;
    }
    if (r->resource_class == SB_VALIDATE_CLASS_HULL) {
        snprintf(buf, size, "hs-patches");
        return;
    }
    if (r->resource_class == SB_VALIDATE_CLASS_DOMAIN) {
        snprintf(buf, size, "ds-points");
        return;
    }
    const char *prefix = r->resource_class < 5 ? prefixes[r->resource_class] : "?";
    if (r->space)
        snprintf(buf, size, "%s%u@space%u", prefix, r->register_index, r->space);
    else
        snprintf(buf, size, "%s%u", prefix, r->register_index);
}

int cli_run_exit_for(enum sb_result result)
{
    switch (result) {
    case SB_ERROR_RUN_UNSUPPORTED: case SB_ERROR_RUN_BUDGET: case SB_ERROR_NO_DEVICE:
    case SB_ERROR_VULKAN:
        return CLI_EXIT_NOT_RUN;
    default:
        return CLI_EXIT_INVALID_INPUT;
    }
}
