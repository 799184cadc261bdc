/* SPDX-License-Identifier: MIT */
/*
 * Every corpus shader must decode (../shared/docs/sm4-tokens.md §10.2: all 1,618
 * corpus shader blobs decode with the reference decoder). For each row of
 * corpus/dxbc/MANIFEST.tsv whose program_type is vs/ps/gs/hs/ds/cs:
 *   - the container parses and sb_sm4_decode_container() succeeds;
 *   - the program's type and version equal the manifest's program_type and
 *     shader_model;
 *   - sb_sm4_decode() of the SHEX/SHDR part at its file offset succeeds
 *     with the same instruction count;
 *   - sb_sm4_disassemble() succeeds both with the header and with
 *     SB_SM4_DISASM_NO_HEADER, the latter starting with the version line.
 * Prints decoded/total per program type and shader model, and each failure
 * as FILE:OFFSET: error: MESSAGE (or FILE: MISMATCH ...).
 *
 * Usage: test_sm4_decode_corpus CORPUS_DIR
 * Exit: 0 all decoded, 1 a failure, 77 corpus not found (skipped).
 */
#define _POSIX_C_SOURCE 200809L

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shaderbridge/dxbc.h"
#include "shaderbridge/dxbc_fxc.h"
#include "shaderbridge/result.h"
#include "translator/sm4.h"

#define LINE_MAX_BYTES 8192
#define MAX_COLUMNS 32
#define MAX_GROUPS 64

/* One row of the summary: a program type and shader model. */
struct group {
    char type[8];
    char model[8];
    unsigned total;
    unsigned decoded;
    uint64_t instructions;
};

static struct group groups[MAX_GROUPS];
static unsigned group_count;
static unsigned failures;

static struct group *group_for(const char *type, const char *model)
{
    for (unsigned i = 0; i < group_count; i++)
        if (!strcmp(groups[i].type, type) && !strcmp(groups[i].model, model))
            return &groups[i];
    if (group_count == MAX_GROUPS)
        return NULL;
    struct group *g = &groups[group_count++];
    snprintf(g->type, sizeof(g->type), "%s", type);
    snprintf(g->model, sizeof(g->model), "%s", model);
    return g;
}

static uint8_t *load(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    uint8_t *data = NULL;
    if (fseek(f, 0, SEEK_END) == 0) {
        long length = ftell(f);
        if (length >= 0 && fseek(f, 0, SEEK_SET) == 0) {
            data = malloc(length ? (size_t)length : 1);
            if (data && fread(data, 1, (size_t)length, f) != (size_t)length) {
                free(data);
                data = NULL;
            }
            *size = (size_t)length;
        }
    }
    fclose(f);
    return data;
}

static void report_error(const char *file, const char *stage, const struct sb_error *error)
{
    fprintf(stderr, "%s:%llu: error: %s: %s (%s)\n", file, (unsigned long long)error->offset,
            stage, error->message, sb_result_name(error->code));
    failures++;
}

static void report_mismatch(const char *file, const char *what, const char *want, const char *got)
{
    fprintf(stderr, "%s: MISMATCH %s: manifest/expected '%s', got '%s'\n", file, what, want, got);
    failures++;
}

/* Disassembles with `flags`; true when it worked (and, without header, starts with `version`). */
static bool disassemble(const char *file, const struct sb_sm4_program *program,
                        const struct sb_dxbc *dxbc, uint32_t flags, const char *version)
{
    struct sb_error error;
    memset(&error, 0, sizeof(error));
    char *text = NULL;
    if (sb_sm4_disassemble(program, dxbc, flags, &text, &error) != SB_SUCCESS) {
        report_error(file, flags ? "sb_sm4_disassemble(NO_HEADER)" : "sb_sm4_disassemble", &error);
        return false;
    }
    bool ok = text != NULL;
    if (ok && (flags & SB_SM4_DISASM_NO_HEADER)) {
        size_t n = strlen(version);
        ok = !strncmp(text, version, n) && (text[n] == '\n' || text[n] == '\r' || text[n] == ' ');
        if (!ok) {
            char first[64];
            snprintf(first, sizeof(first), "%.*s", (int)strcspn(text, "\n"), text);
            report_mismatch(file, "first line of --no-header listing", version, first);
        }
    } else if (!ok) {
        report_mismatch(file, "listing", "text", "NULL");
    }
    sb_sm4_text_free(text);
    return ok;
}

/* Decodes one corpus shader; true when every check passed. */
static bool check_shader(const char *path, const char *type, const char *model)
{
    size_t size = 0;
    uint8_t *bytes = load(path, &size);
    if (!bytes) {
        fprintf(stderr, "%s: error: unreadable\n", path);
        failures++;
        return false;
    }
    struct sb_dxbc *dxbc = NULL;
    struct sb_error error;
    memset(&error, 0, sizeof(error));
    enum sb_result result = sb_dxbc_parse(bytes, size, &dxbc, &error);
    free(bytes);
    if (result != SB_SUCCESS) {
        report_error(path, "sb_dxbc_parse", &error);
        return false;
    }
    bool ok = true;
    struct sb_sm4_program *program = NULL;
    if (sb_sm4_decode_container(dxbc, &program, &error) != SB_SUCCESS) {
        report_error(path, "sb_sm4_decode_container", &error);
        sb_dxbc_destroy(dxbc);
        return false;
    }
    char got[32], version[32];
    const char *type_name = sb_dxbc_program_type_name((uint32_t)program->program_type);
    snprintf(got, sizeof(got), "%s", type_name ? type_name : "?");
    if (strcmp(type, got) != 0) {
        report_mismatch(path, "program_type", type, got);
        ok = false;
    }
    snprintf(got, sizeof(got), "%u.%u", (unsigned)program->major, (unsigned)program->minor);
    if (strcmp(model, got) != 0) {
        report_mismatch(path, "shader_model", model, got);
        ok = false;
    }
    snprintf(version, sizeof(version), "%s_%u_%u", type, (unsigned)program->major,
             (unsigned)program->minor);

    const struct sb_dxbc_part *part = sb_dxbc_find_part(dxbc, SB_FOURCC('S', 'H', 'E', 'X'));
    if (!part)
        part = sb_dxbc_find_part(dxbc, SB_FOURCC('S', 'H', 'D', 'R'));
    struct sb_sm4_program *direct = NULL;
    if (!part) {
        report_mismatch(path, "part", "SHEX or SHDR", "none");
        ok = false;
    } else if (sb_sm4_decode(part->data, part->size, part->data_offset, &direct, &error) !=
               SB_SUCCESS) {
        report_error(path, "sb_sm4_decode", &error);
        ok = false;
    } else if (direct->instruction_count != program->instruction_count) {
        char want[24];
        snprintf(want, sizeof(want), "%llu", (unsigned long long)program->instruction_count);
        snprintf(got, sizeof(got), "%llu", (unsigned long long)direct->instruction_count);
        report_mismatch(path, "instruction count of sb_sm4_decode (vs _container)", want, got);
        ok = false;
    }
    sb_sm4_program_destroy(direct);

    ok = disassemble(path, program, dxbc, 0, version) && ok;
    ok = disassemble(path, program, dxbc, SB_SM4_DISASM_NO_HEADER, version) && ok;
    struct group *g = group_for(type, model);
    if (g && ok)
        g->instructions += program->instruction_count;
    sb_sm4_program_destroy(program);
    sb_dxbc_destroy(dxbc);
    return ok;
}

static int split_tabs(char *line, char **cells, int max)
{
    int n = 0;
    line[strcspn(line, "\r\n")] = 0;
    cells[n++] = line;
    for (char *p = line; *p && n < max; p++)
        if (*p == '\t') {
            *p = 0;
            cells[n++] = p + 1;
        }
    return n;
}

static int column(char **cells, int n, const char *name)
{
    for (int i = 0; i < n; i++)
        if (!strcmp(cells[i], name))
            return i;
    return -1;
}

static bool is_shader_type(const char *type)
{
    static const char *const types[] = { "vs", "ps", "gs", "hs", "ds", "cs" };
    for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++)
        if (!strcmp(type, types[i]))
            return true;
    return false;
}

static int compare_groups(const void *a, const void *b)
{
    const struct group *x = a, *y = b;
    int by_type = strcmp(x->type, y->type);
    return by_type ? by_type : strcmp(x->model, y->model);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: test_sm4_decode_corpus CORPUS_DIR\n");
        return 1;
    }
    char dir[4096], manifest[4200];
    snprintf(dir, sizeof(dir), "%s/dxbc", argv[1]);
    snprintf(manifest, sizeof(manifest), "%s/MANIFEST.tsv", dir);
    FILE *f = fopen(manifest, "r");
    if (!f) {
        printf("SKIPPED: %s not found\n", manifest);
        return 77;
    }
    static char line[LINE_MAX_BYTES];
    char *cells[MAX_COLUMNS];
    int n = fgets(line, sizeof(line), f) ? split_tabs(line, cells, MAX_COLUMNS) : 0;
    int file_col = column(cells, n, "file"), type_col = column(cells, n, "program_type"),
        model_col = column(cells, n, "shader_model");
    if (file_col < 0 || type_col < 0 || model_col < 0) {
        fprintf(stderr, "%s: missing file/program_type/shader_model columns\n", manifest);
        fclose(f);
        return 1;
    }
    unsigned total = 0, decoded = 0;
    while (fgets(line, sizeof(line), f)) {
        n = split_tabs(line, cells, MAX_COLUMNS);
        if (n <= file_col || n <= type_col || n <= model_col || !is_shader_type(cells[type_col]))
            continue;
        char path[4600];
        snprintf(path, sizeof(path), "%s/%s", dir, cells[file_col]);
        struct group *g = group_for(cells[type_col], cells[model_col]);
        bool ok = check_shader(path, cells[type_col], cells[model_col]);
        total++;
        decoded += ok;
        if (g) {
            g->total++;
            g->decoded += ok;
        }
    }
    fclose(f);

    qsort(groups, group_count, sizeof(groups[0]), compare_groups);
    printf("%-4s %-6s %8s %8s %12s\n", "type", "model", "decoded", "total", "instructions");
    for (unsigned i = 0; i < group_count; i++)
        printf("%-4s %-6s %8u %8u %12llu\n", groups[i].type, groups[i].model, groups[i].decoded,
               groups[i].total, (unsigned long long)groups[i].instructions);
    printf("sm4 decode: %u/%u corpus shaders decoded and disassembled, %u failures\n", decoded,
           total, failures);
    return (failures || total == 0) ? 1 : 0;
}
