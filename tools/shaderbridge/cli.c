/* SPDX-License-Identifier: MIT */
/*
 * The bottom of the program (cli.h): loading input files (or stdin) and
 * printing input and usage errors in the CLI's format. Calls nothing above it.
 */
#include "cli.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

bool cli_file_load(const char *name, struct cli_file *file)
{
    memset(file, 0, sizeof(*file));
    file->name = name;
    bool is_stdin = !strcmp(name, "-");
    FILE *in = is_stdin ? stdin : fopen(name, "rb");
    if (!in) {
        int failure = errno;
        fprintf(stderr, "%s: error: cannot open: %s\n", name, strerror(failure));
        errno = failure; /* callers that report the failure again (validate --json) read it */
        return false;
    }
    size_t capacity = 0;
    for (;;) {
        if (file->size == capacity) {
            size_t grown = capacity ? capacity * 2 : 65536;
            uint8_t *bytes = realloc(file->bytes, grown);
            if (!bytes) {
                fprintf(stderr, "%s: error: out of memory reading the file\n", name);
                break;
            }
            file->bytes = bytes;
            capacity = grown;
        }
        size_t got = fread(file->bytes + file->size, 1, capacity - file->size, in);
        file->size += got;
        if (got == 0)
            break;
    }
    bool ok = !ferror(in) && (file->bytes != NULL);
    if (ferror(in))
        fprintf(stderr, "%s: error: read failed: %s\n", name, strerror(errno));
    if (!is_stdin)
        fclose(in);
    if (!ok)
        cli_file_free(file);
    return ok;
}

void cli_file_free(struct cli_file *file)
{
    free(file->bytes);
    file->bytes = NULL;
    file->size = 0;
}

void cli_report_error(const char *name, const struct sb_error *error)
{
    fprintf(stderr, "%s:%llu: error: %s [%s]\n", name, (unsigned long long)error->offset,
            error->message, sb_result_name(error->code));
}

void cli_usage_error(const char *format, ...)
{
    va_list args;
    va_start(args, format);
    fputs("shaderbridge: error: ", stderr);
    vfprintf(stderr, format, args);
    fputs("\n(run 'shaderbridge help' for usage)\n", stderr);
    va_end(args);
}
