/* SPDX-License-Identifier: MIT */
/*
 * Throughput of the SM4/5 token decoder and the fxc-syntax disassembler
 * (../shared/docs/sm4-tokens.md §1-§9) over every shader blob of the corpus.
 *
 * Usage: bench_sm4 CORPUS_DIR [--reps N] [--passes N]
 *   CORPUS_DIR  the shared corpus (holding dxbc/MANIFEST.tsv)
 *   --reps N    timed repetitions of each phase (default 7); min and median
 *               over them are printed
 *   --passes N  passes over all shaders inside one repetition (default 5)
 *
 * Every manifest row with program_type vs/ps/gs/hs/ds/cs is read and parsed
 * as a container once, before any timing; only the SHEX/SHDR part bytes
 * count as "bytes processed". Phases, each timed separately:
 *   decode         sb_sm4_decode() of the part + sb_sm4_program_destroy()
 *   decode+disasm  the same + sb_sm4_disassemble() of the full listing
 *                  (header from the container, as `shaderbridge disasm`)
 *   decode+body    the same with SB_SM4_DISASM_NO_HEADER
 * Printed per phase: min and median time per repetition, MB/s (10^6 bytes
 * of SHEX/SHDR per second) and shaders/s at the min and the median, and the
 * ratio of each phase's median to decode's median. Machines are noisy: the
 * numbers are for comparing phases within one run, not across machines,
 * and nothing here asserts a time. Shaders that fail to decode are left out
 * of the timing and counted (the sm4_decode_corpus test is the one that
 * requires them all to decode). Exit: 0, 1 on a usage/IO error, 77 when the
 * corpus is absent. Built with the tests; ctest only runs it once with
 * --reps 1 --passes 1 (label "bench") to check that it still works.
 */
#define _POSIX_C_SOURCE 200809L

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "shaderbridge/dxbc.h"
#include "shaderbridge/result.h"
#include "translator/sm4.h"

#define LINE_MAX_BYTES 8192
#define MAX_REPS 101

struct shader {
    char *path;
    struct sb_dxbc *dxbc;
    const struct sb_dxbc_part *part; /* SHEX or SHDR */
};

struct corpus {
    struct shader *items;
    size_t count, cap;
    uint64_t part_bytes;
    unsigned unreadable, no_part, decode_failures;
};

enum phase { PHASE_DECODE, PHASE_DISASM, PHASE_BODY, PHASE_COUNT };

static const char *const phase_names[PHASE_COUNT] = { "decode", "decode+disasm", "decode+body" };

/* Consumed results, so the compiler cannot drop the work. */
static uint64_t sink_instructions, sink_text_bytes;

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
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

static bool is_shader_type(const char *type)
{
    static const char *const types[] = { "vs", "ps", "gs", "hs", "ds", "cs" };
    for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++)
        if (!strcmp(type, types[i]))
            return true;
    return false;
}

/* Splits a TSV line in place; returns the number of cells. */
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

static void add_shader(struct corpus *c, const char *dir, const char *file)
{
    size_t path_length = strlen(dir) + strlen(file) + 2;
    char *path = malloc(path_length);
    if (!path)
        return;
    snprintf(path, path_length, "%s/%s", dir, file);
    size_t size = 0;
    uint8_t *bytes = load(path, &size);
    struct sb_dxbc *dxbc = NULL;
    if (!bytes || sb_dxbc_parse(bytes, size, &dxbc, NULL) != SB_SUCCESS) {
        fprintf(stderr, "unreadable: %s\n", path);
        c->unreadable++;
        free(bytes);
        free(path);
        return;
    }
    free(bytes);
    const struct sb_dxbc_part *part = sb_dxbc_find_part(dxbc, SB_FOURCC('S', 'H', 'E', 'X'));
    if (!part)
        part = sb_dxbc_find_part(dxbc, SB_FOURCC('S', 'H', 'D', 'R'));
    struct sb_sm4_program *program = NULL;
    if (part && sb_sm4_decode(part->data, part->size, part->data_offset, &program, NULL) !=
                    SB_SUCCESS) {
        fprintf(stderr, "does not decode (left out): %s\n", path);
        c->decode_failures++;
        part = NULL;
    } else if (!part) {
        fprintf(stderr, "no SHEX/SHDR part: %s\n", path);
        c->no_part++;
    }
    sb_sm4_program_destroy(program);
    if (part && c->count == c->cap) {
        size_t cap = c->cap ? c->cap * 2 : 256;
        struct shader *grown = realloc(c->items, cap * sizeof(*grown));
        if (grown) {
            c->items = grown;
            c->cap = cap;
        } else {
            part = NULL;
        }
    }
    if (!part) {
        sb_dxbc_destroy(dxbc);
        free(path);
        return;
    }
    c->items[c->count++] = (struct shader){ path, dxbc, part };
    c->part_bytes += part->size;
}

static int load_corpus(const char *corpus_dir, struct corpus *c)
{
    char dir[4096], manifest[4200];
    snprintf(dir, sizeof(dir), "%s/dxbc", corpus_dir);
    snprintf(manifest, sizeof(manifest), "%s/MANIFEST.tsv", dir);
    FILE *f = fopen(manifest, "r");
    if (!f)
        return -1;
    static char line[LINE_MAX_BYTES];
    char *cells[32];
    int file_col = -1, type_col = -1;
    if (fgets(line, sizeof(line), f)) {
        int n = split_tabs(line, cells, 32);
        for (int i = 0; i < n; i++) {
            if (!strcmp(cells[i], "file"))
                file_col = i;
            else if (!strcmp(cells[i], "program_type"))
                type_col = i;
        }
    }
    if (file_col < 0 || type_col < 0) {
        fclose(f);
        fprintf(stderr, "%s: no file/program_type columns\n", manifest);
        return 1;
    }
    while (fgets(line, sizeof(line), f)) {
        int n = split_tabs(line, cells, 32);
        if (n > file_col && n > type_col && is_shader_type(cells[type_col]))
            add_shader(c, dir, cells[file_col]);
    }
    fclose(f);
    return 0;
}

/* One pass over every shader in the given phase; returns the failures. */
static unsigned run_pass(const struct corpus *c, enum phase phase)
{
    unsigned failures = 0;
    for (size_t i = 0; i < c->count; i++) {
        const struct shader *s = &c->items[i];
        struct sb_sm4_program *program = NULL;
        if (sb_sm4_decode(s->part->data, s->part->size, s->part->data_offset, &program, NULL) !=
            SB_SUCCESS) {
            failures++;
            continue;
        }
        sink_instructions += program->instruction_count;
        if (phase != PHASE_DECODE) {
            char *text = NULL;
            uint32_t flags = phase == PHASE_BODY ? SB_SM4_DISASM_NO_HEADER : 0;
            if (sb_sm4_disassemble(program, s->dxbc, flags, &text, NULL) == SB_SUCCESS)
                sink_text_bytes += strlen(text);
            else
                failures++;
            sb_sm4_text_free(text);
        }
        sb_sm4_program_destroy(program);
    }
    return failures;
}

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static long parse_count(const char *text, long max)
{
    char *end = NULL;
    long value = strtol(text, &end, 10);
    return (end && *end == 0 && value >= 1 && value <= max) ? value : -1;
}

int main(int argc, char **argv)
{
    const char *corpus_dir = NULL;
    long reps = 7, passes = 5;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--reps") && i + 1 < argc)
            reps = parse_count(argv[++i], MAX_REPS);
        else if (!strcmp(argv[i], "--passes") && i + 1 < argc)
            passes = parse_count(argv[++i], 100000);
        else if (argv[i][0] != '-' && !corpus_dir)
            corpus_dir = argv[i];
        else
            reps = -1;
    }
    if (!corpus_dir || reps < 1 || passes < 1) {
        fprintf(stderr, "usage: bench_sm4 CORPUS_DIR [--reps 1..%d] [--passes N]\n", MAX_REPS);
        return 1;
    }
    struct corpus c = { 0 };
    int loaded = load_corpus(corpus_dir, &c);
    if (loaded < 0) {
        printf("SKIPPED: %s/dxbc/MANIFEST.tsv not found\n", corpus_dir);
        return 77;
    }
    if (loaded > 0 || c.count == 0) {
        fprintf(stderr, "no shader to measure\n");
        return 1;
    }
    printf("shaders: %zu (%.3f MB of SHEX/SHDR), left out: %u unreadable, %u without part, "
           "%u not decoding\n", c.count, (double)c.part_bytes / 1e6, c.unreadable, c.no_part,
           c.decode_failures);
    printf("repetitions: %ld, passes over all shaders per repetition: %ld\n\n", reps, passes);
    printf("%-14s %10s %10s %10s %10s %14s %14s %8s\n", "phase", "min ms", "median ms",
           "MB/s@min", "MB/s@med", "shaders/s@min", "shaders/s@med", "x decode");

    double medians[PHASE_COUNT] = { 0 };
    unsigned failures = 0;
    for (int phase = 0; phase < PHASE_COUNT; phase++) {
        double times[MAX_REPS];
        failures += run_pass(&c, (enum phase)phase); /* warm-up, untimed */
        for (long r = 0; r < reps; r++) {
            double start = now_seconds();
            for (long p = 0; p < passes; p++)
                failures += run_pass(&c, (enum phase)phase);
            times[r] = now_seconds() - start;
        }
        qsort(times, (size_t)reps, sizeof(times[0]), compare_doubles);
        double min = times[0];
        double median = reps % 2 ? times[reps / 2] : (times[reps / 2 - 1] + times[reps / 2]) / 2;
        medians[phase] = median;
        double bytes = (double)c.part_bytes * (double)passes;
        double shaders = (double)c.count * (double)passes;
        printf("%-14s %10.2f %10.2f %10.1f %10.1f %14.0f %14.0f %8.2f\n", phase_names[phase],
               min * 1e3, median * 1e3, bytes / min / 1e6, bytes / median / 1e6, shaders / min,
               shaders / median, median / medians[PHASE_DECODE]);
    }
    printf("\ninstructions decoded: %llu, listing bytes printed: %llu, failures while timing: %u\n",
           (unsigned long long)sink_instructions, (unsigned long long)sink_text_bytes, failures);
    for (size_t i = 0; i < c.count; i++) {
        sb_dxbc_destroy(c.items[i].dxbc);
        free(c.items[i].path);
    }
    free(c.items);
    return 0;
}
