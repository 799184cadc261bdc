/* SPDX-License-Identifier: MIT */
/*
 * `shaderbridge assemble [-o OUT] FILE.pica`: picasso-syntax PICA200
 * assembly to a SHBIN file (../shared/docs/pica200.md §12). Errors in the source are
 * printed as FILE:LINE:COL: error: MESSAGE (the compiler convention, since
 * a text position helps more than a byte offset) and exit with status 1.
 */
#include "commands.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "translator/pica.h"

/* FILE.pica -> FILE.shbin; any other name gets .shbin appended. */
static char *default_output(const char *input)
{
    size_t length = strlen(input);
    const char *dot = strrchr(input, '.');
    const char *slash = strrchr(input, '/');
    if (dot && (!slash || dot > slash) && dot != input)
        length = (size_t)(dot - input);
    char *out = malloc(length + 7);
    if (out) {
        memcpy(out, input, length);
        memcpy(out + length, ".shbin", 7);
    }
    return out;
}

static int write_file(const char *name, const uint8_t *bytes, size_t size)
{
    bool to_stdout = !strcmp(name, "-");
    FILE *out = to_stdout ? stdout : fopen(name, "wb");
    if (!out) {
        fprintf(stderr, "%s: error: cannot create: %s\n", name, strerror(errno));
        return CLI_EXIT_INVALID_INPUT;
    }
    bool ok = fwrite(bytes, 1, size, out) == size;
    if (!to_stdout)
        ok = (fclose(out) == 0) && ok;
    else
        ok = (fflush(out) == 0) && ok;
    if (!ok) {
        fprintf(stderr, "%s: error: write failed: %s\n", name, strerror(errno));
        return CLI_EXIT_INVALID_INPUT;
    }
    return CLI_EXIT_OK;
}

int cli_cmd_assemble(int argc, char **argv)
{
    const char *input = NULL, *output = NULL;
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        if (!strcmp(arg, "-o")) {
            if (i + 1 >= argc) {
                cli_usage_error("assemble: -o needs a file name");
                return CLI_EXIT_USAGE;
            }
            output = argv[++i];
        } else if (arg[0] == '-' && arg[1] != 0) {
            cli_usage_error("assemble: unknown option '%s'", arg);
            return CLI_EXIT_USAGE;
        } else if (input) {
            cli_usage_error("assemble: takes one file ('%s' and '%s' given)", input, arg);
            return CLI_EXIT_USAGE;
        } else {
            input = arg;
        }
    }
    if (!input) {
        cli_usage_error("assemble: no input file");
        return CLI_EXIT_USAGE;
    }
    struct cli_file file;
    if (!cli_file_load(input, &file))
        return CLI_EXIT_INVALID_INPUT;
    uint8_t *shbin = NULL;
    size_t size = 0;
    struct sb_pica_asm_error error;
    memset(&error, 0, sizeof(error));
    enum sb_result result = sb_pica_assemble((const char *)file.bytes, file.size, &shbin, &size,
                                             &error);
    int status = CLI_EXIT_OK;
    if (result != SB_SUCCESS) {
        if (error.line)
            fprintf(stderr, "%s:%u:%u: error: %s\n", input, (unsigned)error.line,
                    (unsigned)error.column, error.error.message);
        else
            fprintf(stderr, "%s: error: %s\n", input, error.error.message);
        status = CLI_EXIT_INVALID_INPUT;
    } else {
        char *fallback = NULL;
        if (!output)
            output = fallback = default_output(strcmp(input, "-") ? input : "out.pica");
        status = output ? write_file(output, shbin, size) : CLI_EXIT_INVALID_INPUT;
        free(fallback);
    }
    sb_pica_free(shbin);
    cli_file_free(&file);
    return status;
}
