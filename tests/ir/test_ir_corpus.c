/* SPDX-License-Identifier: MIT */
/*
 * Every corpus shader that decodes must lower to the IR (translator/IR.md;
 * issue #4). Shaders come from corpus/dxbc/MANIFEST.tsv (program_type
 * vs/ps/gs/hs/ds/cs) and from the fxc containers of
 * corpus/dxcontainer/MANIFEST.tsv (kind real-dxbc-*). For each: the container
 * parses, the SHEX/SHDR part decodes, sb_ir_from_sm4() succeeds with the
 * container, sb_ir_validate() accepts the result, sb_ir_print() renders it,
 * and the lowered program agrees with
 * the decoder on stage, model and counts (functions, instructions,
 * resources, signature elements). Without the container it must lower too.
 * Prints lowered/decoded per stage and each failure as FILE:OFFSET: MESSAGE.
 * Shaders listed in EXPECTED_FAILURES (corpus_expected_failures.tsv) must
 * fail with the listed code and offset instead.
 *
 * Usage: test_ir_corpus CORPUS_DIR [EXPECTED_FAILURES]
 * Exit: 0 all lowered, 1 a failure, 77 corpus not found (skipped).
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shaderbridge/dxbc.h"
#include "shaderbridge/dxbc_fxc.h"
#include "translator/ir.h"
#include "shaderbridge/result.h"
#include "translator/sm4.h"

#define LINE_MAX_BYTES 8192
#define MAX_COLUMNS 32

static const char *const stage_names[6] = { "vs", "ps", "gs", "hs", "ds", "cs" };

struct tally {
    unsigned decoded, lowered, instructions, functions;
};
static struct tally tallies[6];
static unsigned failures;

/* One accepted failure: corpus-relative path, result name, offset. */
struct expected {
    char path[512];
    char code[64];
    unsigned long long offset;
    bool seen;
};
static struct expected expected[64];
static unsigned expected_count, expected_met;
static size_t corpus_prefix; /* length of "CORPUS_DIR/" in every path */

static struct expected *find_expected(const char *path)
{
    for (unsigned i = 0; i < expected_count; i++)
        if (strlen(path) > corpus_prefix && !strcmp(path + corpus_prefix, expected[i].path))
            return &expected[i];
    return NULL;
}

static bool load_expected(const char *file)
{
    FILE *f = fopen(file, "r");
    if (!f)
        return false;
    char line[1024];
    while (fgets(line, sizeof(line), f) && expected_count < 64) {
        if (line[0] == '#' || line[0] == '\n')
            continue;
        struct expected *e = &expected[expected_count];
        if (sscanf(line, "%511[^\t]\t%63[^\t]\t%llu", e->path, e->code, &e->offset) == 3)
            expected_count++;
    }
    fclose(f);
    return true;
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

static void fail(const char *path, uint64_t offset, const char *what, const char *message)
{
    fprintf(stderr, "%s:%llu: error: %s: %s\n", path, (unsigned long long)offset, what, message);
    failures++;
}

/* Instructions the IR should hold: everything but declarations, labels,
 * hull-phase markers and custom data. */
static unsigned expected_instructions(const struct sb_sm4_program *sm4)
{
    unsigned n = 0;
    for (uint32_t i = 0; i < sm4->instruction_count; i++) {
        const struct sb_sm4_instruction *in = &sm4->instructions[i];
        n += !in->is_declaration && !in->is_custom_data && in->opcode != SB_SM4_OP_LABEL;
    }
    return n;
}

static bool check_program(const char *path, const struct sb_sm4_program *sm4,
                          const struct sb_ir_program *ir)
{
    static const uint32_t stage_of_type[6] = { SB_IR_STAGE_PIXEL, SB_IR_STAGE_VERTEX,
                                               SB_IR_STAGE_GEOMETRY, SB_IR_STAGE_HULL,
                                               SB_IR_STAGE_DOMAIN, SB_IR_STAGE_COMPUTE };
    char message[256];
    unsigned have = 0;
    for (uint32_t f = 0; f < ir->function_count; f++)
        have += ir->functions[f].instruction_count;
    unsigned want = expected_instructions(sm4);
    if (ir->stage != stage_of_type[sm4->program_type] || ir->major != sm4->major ||
        ir->minor != sm4->minor || have != want || ir->function_count == 0) {
        snprintf(message, sizeof(message),
                 "stage %u model %u.%u instructions %u (decoder: type %u %u.%u, %u)", ir->stage,
                 ir->major, ir->minor, have, sm4->program_type, sm4->major, sm4->minor, want);
        fail(path, 0, "lowered program disagrees with the decoder", message);
        return false;
    }
    return true;
}

static void check_shader(const char *path)
{
    size_t size = 0;
    uint8_t *bytes = load(path, &size);
    if (!bytes) {
        fail(path, 0, "load", "unreadable");
        return;
    }
    struct sb_dxbc *dxbc = NULL;
    struct sb_error error;
    memset(&error, 0, sizeof(error));
    enum sb_result result = sb_dxbc_parse(bytes, size, &dxbc, &error);
    free(bytes);
    if (result != SB_SUCCESS)
        return; /* the reader's tests own unreadable containers */
    struct sb_sm4_program *sm4 = NULL;
    if (sb_sm4_decode_container(dxbc, &sm4, &error) != SB_SUCCESS || sm4->program_type > 5) {
        sb_sm4_program_destroy(sm4);
        sb_dxbc_destroy(dxbc);
        return;
    }
    struct tally *t = &tallies[sm4->program_type == 0 ? 1 : sm4->program_type == 1 ? 0
                                                                                 : sm4->program_type];
    t->decoded++;
    struct sb_ir_program *ir = NULL, *bare = NULL;
    bool ok = false;
    struct expected *known = find_expected(path);
    if (known) {
        known->seen = true;
        if (sb_ir_from_sm4(sm4, dxbc, &ir, &error) == SB_SUCCESS)
            fail(path, 0, "listed as an expected failure", "but it lowered");
        else if (strcmp(sb_result_name(error.code), known->code) || error.offset != known->offset)
            fail(path, error.offset, "expected failure changed", error.message);
        else
            expected_met++;
        sb_ir_program_destroy(ir);
        sb_sm4_program_destroy(sm4);
        sb_dxbc_destroy(dxbc);
        return;
    }
    if (sb_ir_from_sm4(sm4, dxbc, &ir, &error) != SB_SUCCESS) {
        fail(path, error.offset, sb_result_name(error.code), error.message);
    } else if (sb_ir_from_sm4(sm4, NULL, &bare, &error) != SB_SUCCESS) {
        fail(path, error.offset, "without container", error.message);
    } else if (sb_ir_validate(ir, &error) != SB_SUCCESS) {
        fail(path, error.offset, "sb_ir_validate", error.message);
    } else if (check_program(path, sm4, ir)) {
        char *text = sb_ir_print(ir);
        ok = text && strlen(text) > 0;
        if (!ok)
            fail(path, 0, "sb_ir_print", "no text");
        free(text);
        if (bare->signature_count > ir->signature_count + 64 ||
            bare->function_count != ir->function_count) {
            fail(path, 0, "without container", "function or signature count differs");
            ok = false;
        }
    }
    if (ok) {
        t->lowered++;
        t->functions += ir->function_count;
        for (uint32_t f = 0; f < ir->function_count; f++)
            t->instructions += ir->functions[f].instruction_count;
    }
    sb_ir_program_destroy(ir);
    sb_ir_program_destroy(bare);
    sb_sm4_program_destroy(sm4);
    sb_dxbc_destroy(dxbc);
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

/* Runs every row of `dir`/MANIFEST.tsv whose `filter_col` passes `keep`. */
static bool walk(const char *dir, const char *filter_col, bool (*keep)(const char *))
{
    char manifest[4200];
    snprintf(manifest, sizeof(manifest), "%s/MANIFEST.tsv", dir);
    FILE *f = fopen(manifest, "r");
    if (!f)
        return false;
    static char line[LINE_MAX_BYTES];
    char *cells[MAX_COLUMNS];
    int n = fgets(line, sizeof(line), f) ? split_tabs(line, cells, MAX_COLUMNS) : 0;
    int file_col = column(cells, n, "file"), filter = column(cells, n, filter_col);
    if (file_col < 0 || filter < 0) {
        fprintf(stderr, "%s: missing file/%s columns\n", manifest, filter_col);
        failures++;
        fclose(f);
        return true;
    }
    while (fgets(line, sizeof(line), f)) {
        n = split_tabs(line, cells, MAX_COLUMNS);
        if (n <= file_col || n <= filter || !keep(cells[filter]))
            continue;
        char path[8600];
        snprintf(path, sizeof(path), "%s/%s", dir, cells[file_col]);
        check_shader(path);
    }
    fclose(f);
    return true;
}

static bool is_stage(const char *type)
{
    for (size_t i = 0; i < 6; i++)
        if (!strcmp(type, stage_names[i]))
            return true;
    return false;
}

static bool is_fxc_container(const char *kind)
{
    return !strncmp(kind, "real-dxbc", 9);
}

int main(int argc, char **argv)
{
    if (argc != 2 && argc != 3) {
        fprintf(stderr, "usage: test_ir_corpus CORPUS_DIR [EXPECTED_FAILURES]\n");
        return 1;
    }
    if (argc == 3 && !load_expected(argv[2])) {
        fprintf(stderr, "%s: unreadable\n", argv[2]);
        return 1;
    }
    corpus_prefix = strlen(argv[1]) + 1;
    char dir[4200];
    snprintf(dir, sizeof(dir), "%s/dxbc", argv[1]);
    if (!walk(dir, "program_type", is_stage)) {
        printf("SKIPPED: corpus not found at %s\n", argv[1]);
        return 77;
    }
    snprintf(dir, sizeof(dir), "%s/dxcontainer", argv[1]);
    walk(dir, "kind", is_fxc_container);
    unsigned decoded = 0, lowered = 0;
    printf("%-5s %8s %8s %10s %13s\n", "stage", "lowered", "decoded", "functions", "instructions");
    for (int s = 0; s < 6; s++) {
        printf("%-5s %8u %8u %10u %13u\n", stage_names[s], tallies[s].lowered, tallies[s].decoded,
               tallies[s].functions, tallies[s].instructions);
        decoded += tallies[s].decoded;
        lowered += tallies[s].lowered;
    }
    for (unsigned i = 0; i < expected_count; i++)
        if (!expected[i].seen) {
            fprintf(stderr, "%s: listed as an expected failure but not in the corpus\n",
                    expected[i].path);
            failures++;
        }
    printf("ir lowering: %u/%u decoded corpus shaders lowered, %u listed invalid shaders "
           "rejected as expected, %u failures\n",
           lowered, decoded - expected_met, expected_met, failures);
    return (failures || decoded == 0 || lowered + expected_met != decoded) ? 1 : 0;
}
