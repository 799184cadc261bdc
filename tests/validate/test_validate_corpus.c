/* SPDX-License-Identifier: MIT */
/*
 * validate_corpus: every corpus compute, vertex, pixel and geometry shader run
 * on the Vulkan device (lavapipe in the test suite) and on the CPU interpreter
 * with the same seeded inputs (seed 1; one thread group, 64 vertices, 64
 * pixels, 16 input primitives: see sb_validate), every UAV word and stage
 * output (geometry: every emitted vertex, stream and cut) compared — the
 * acceptance measure of issue #5 (`shaderbridge validate --seed 1 FILE`
 * does the same for one file).
 *
 * Outcomes: agree; disagree (words differ); not-run (the program could not be
 * run: an unsupported instruction or format, the budget, a Vulkan failure) and
 * error (it did not load). Every shader that does not agree is listed with
 * its outcome and cause in an expected-outcome list, generated, never
 * hand-edited:
 *   build/tests/validate/test_validate_corpus ../shared/corpus \
 *       tests/validate/corpus_expected.tsv --write-expected tests/validate/corpus_expected.tsv
 * The test fails when a shader's outcome differs from the list (a listed one
 * that now agrees must leave the list) and prints the counts either way.
 *
 * Usage: test_validate_corpus CORPUS_DIR EXPECTED_TSV [--write-expected OUT] [--stages cs,vs,ps,gs]
 *        [--every N] [--budget N] [--explain-precision ULPS] [--verbose]
 * --every N runs every Nth shader (the sanitizer build uses it to stay within CI time).
 * Exit: 0 as expected, 1 otherwise, 77 corpus or Vulkan device absent.
 */
#define _POSIX_C_SOURCE 200809L

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dlfcn.h>
#include <sys/stat.h>

#include "corpus_list.h"
#include "shaderbridge/validate.h"

enum outcome { AGREE, DISAGREE, NOT_RUN, LOAD_ERROR, OUTCOME_COUNT };
static const char *const outcome_names[OUTCOME_COUNT] = { "agree", "disagree", "not-run", "error" };

struct entry {
    char *path;
    enum outcome outcome;
    char cause[256];
};

static void first_line(char *out, size_t size, const char *text)
{
    snprintf(out, size, "%s", text);
    out[strcspn(out, "\t\r\n")] = 0;
}

static void cause_of(char *out, size_t size, const struct sb_error *error)
{
    char cause[256];
    snprintf(cause, sizeof(cause), "%s: %s", sb_result_name(error->code), error->message);
    first_line(out, size, cause);
}

/* --budget N: the interpreter's instruction budget (the sanitizer build lowers it: a
 * program that loops on seeded data would take minutes there to reach the default). */
static uint64_t budget;

/* --explain-precision N: for each disagreement, how many mismatching words an error of N ULPs
 * in Vulkan's approximated operations explains (sb_validate_explain_precision; printed,
 * not part of the expected list). */
static int32_t explain_ulps;

static void run_one(struct sb_rt_context *context, const char *corpus, struct entry *e, bool verbose)
{
    char path[4096];
    snprintf(path, sizeof(path), "%s/dxbc/%s", corpus, e->path);
    size_t size = 0;
    char *bytes = read_file(path, &size);
    if (!bytes) {
        e->outcome = LOAD_ERROR;
        snprintf(e->cause, sizeof(e->cause), "cannot read the file");
        return;
    }
    struct sb_rt_program *program = NULL;
    struct sb_error error = { 0 };
    if (sb_rt_program_load(bytes, size, NULL, &program, &error) != SB_SUCCESS) {
        free(bytes);
        e->outcome = LOAD_ERROR;
        cause_of(e->cause, sizeof(e->cause), &error);
        return;
    }
    free(bytes);
    struct sb_validate_options options = { .inputs = { .seed = 1 }, .interp = { .instruction_budget = budget } };
    struct sb_validate_report *report = NULL;
    enum sb_result r = sb_validate(context, program, &options, &report, &error);
    if (r != SB_SUCCESS) {
        e->outcome = NOT_RUN;
        cause_of(e->cause, sizeof(e->cause), &error);
    } else if (report->mismatch_count) {
        e->outcome = DISAGREE;
        const struct sb_validate_mismatch *m = &report->mismatches[0];
        const struct sb_rt_resource *res = &report->gpu->resources[m->resource];
        snprintf(e->cause, sizeof(e->cause), "%llu of %llu words; first u%u byte %llu gpu 0x%08x cpu 0x%08x",
                 (unsigned long long)report->mismatch_count, (unsigned long long)report->words_compared,
                 res->register_index, (unsigned long long)m->byte_offset, m->gpu, m->cpu);
    } else {
        e->outcome = AGREE;
    }
    if (verbose)
        printf("%-9s %s %s\n", outcome_names[e->outcome], e->path, e->cause);
    if (verbose && report && report->input_retries)
        printf("          inputs changed: %s\n", report->input_note);
    struct sb_validate_precision precision;
    if (explain_ulps && e->outcome == DISAGREE &&
        sb_validate_explain_precision(program, &options, report, explain_ulps, &precision, &error) == SB_SUCCESS)
        printf("  %s: +-%d ULPs in approximated operations explain %llu of %llu mismatching words\n", e->path,
               explain_ulps, (unsigned long long)precision.explained,
               (unsigned long long)(precision.explained + precision.unexplained));
    sb_validate_report_destroy(report);
    sb_rt_program_destroy(program);
}

/* Expected list: path TAB outcome TAB cause. */
static int compare_expected(struct entry *entries, uint32_t n, const char *expected_path)
{
    size_t size = 0;
    char *text = read_file(expected_path, &size);
    int failures = 0;
    bool *listed = calloc(n ? n : 1, 1);
    if (!listed) {
        free(text);
        return 1;
    }
    char *save = NULL;
    for (char *line = text ? strtok_r(text, "\n", &save) : NULL; line; line = strtok_r(NULL, "\n", &save)) {
        if (line[0] == '#')
            continue;
        char *tab = strchr(line, '\t');
        if (!tab)
            continue;
        *tab = 0;
        char *outcome = tab + 1;
        char *tab2 = strchr(outcome, '\t');
        if (tab2)
            *tab2 = 0;
        uint32_t i = 0;
        while (i < n && strcmp(entries[i].path, line))
            i++;
        if (i == n)
            continue; /* a shader this corpus copy lacks */
        listed[i] = true;
        if (strcmp(outcome_names[entries[i].outcome], outcome)) {
            printf("UNEXPECTED: %s is %s, listed as %s (%s)\n", entries[i].path,
                   outcome_names[entries[i].outcome], outcome, entries[i].cause);
            failures++;
        }
    }
    for (uint32_t i = 0; i < n; i++) {
        if (!listed[i] && entries[i].outcome != AGREE) {
            printf("UNEXPECTED: %s is %s: %s\n", entries[i].path, outcome_names[entries[i].outcome],
                   entries[i].cause);
            failures++;
        }
    }
    free(listed);
    free(text);
    return failures;
}

static bool write_expected(const struct entry *entries, uint32_t n, const char *out_path)
{
    FILE *f = fopen(out_path, "w");
    if (!f)
        return false;
    fprintf(f, "# validate_corpus: corpus shaders that do not agree (GPU vs CPU, seed 1).\n"
               "# Generated by test_validate_corpus --write-expected; do not edit by hand.\n"
               "# path\toutcome\tcause\n");
    for (uint32_t i = 0; i < n; i++)
        if (entries[i].outcome != AGREE)
            fprintf(f, "%s\t%s\t%s\n", entries[i].path, outcome_names[entries[i].outcome], entries[i].cause);
    return fclose(f) == 0;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: test_validate_corpus CORPUS_DIR EXPECTED_TSV [--write-expected OUT] [--verbose]\n");
        return 2;
    }
    const char *corpus = argv[1], *expected = argv[2], *write_to = NULL, *stages = "cs,vs,ps,gs";
    uint32_t every = 1;
    bool verbose = false;
    for (int i = 3; i < argc; i++) {
        if (!strcmp(argv[i], "--write-expected") && i + 1 < argc)
            write_to = argv[++i];
        else if (!strcmp(argv[i], "--stages") && i + 1 < argc)
            stages = argv[++i];
        else if (!strcmp(argv[i], "--every") && i + 1 < argc)
            every = (uint32_t)strtoul(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--budget") && i + 1 < argc)
            budget = strtoull(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--explain-precision") && i + 1 < argc)
            explain_ulps = (int32_t)strtol(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--verbose"))
            verbose = true;
    }
    if (write_to && every > 1) {
        fprintf(stderr, "test_validate_corpus: --write-expected needs every shader (no --every)\n");
        return 2;
    }
    struct stat st;
    if (stat(corpus, &st) != 0) {
        printf("SKIPPED: corpus not found at %s\n", corpus);
        return 77;
    }
    static char *paths[MAX_SHADERS];
    static char types[MAX_SHADERS][3];
    uint32_t n = corpus_shaders(corpus, stages, every, paths, types);
    struct sb_rt_context *context = NULL;
    struct sb_error error = { 0 };
    struct sb_rt_context_options context_options = { .validation = true };
    if (sb_rt_context_create(&context_options, &context, &error) != SB_SUCCESS) {
        printf("SKIPPED: no Vulkan device: %s\n", error.message);
        return 77;
    }
    /* Keep lavapipe loaded after the context goes: unloading it leaves the LLVM caches it
     * built reachable from nowhere, which LeakSanitizer reports (SB_SANITIZE builds). */
    (void)dlopen("libvulkan_lvp.so", RTLD_NOW | RTLD_NOLOAD);
    struct entry *entries = calloc(n ? n : 1, sizeof(*entries));
    if (!entries)
        return 1;
    static const char *const stage_names[] = { "cs", "vs", "ps", "gs" };
    uint32_t counts[4][OUTCOME_COUNT] = { { 0 } }, totals[4] = { 0 };
    for (uint32_t i = 0; i < n; i++) {
        entries[i].path = paths[i];
        uint32_t errors_before = sb_rt_context_validation_errors(context);
        run_one(context, corpus, &entries[i], verbose);
        if (sb_rt_context_validation_errors(context) != errors_before)
            printf("validation-layer errors while running %s\n", entries[i].path);
        for (int s = 0; s < 4; s++)
            if (!strcmp(types[i], stage_names[s])) {
                counts[s][entries[i].outcome]++;
                totals[s]++;
            }
    }
    uint32_t validation_errors = sb_rt_context_validation_errors(context);
    printf("validate_corpus on %s, seed 1: %u shaders; %u validation-layer errors\n",
           sb_rt_context_device_name(context), n, validation_errors);
    for (int s = 0; s < 4; s++)
        if (totals[s])
            printf("  %s: %u shaders: %u agree (%.1f%%), %u disagree, %u not run, %u did not load\n",
                   stage_names[s], totals[s], counts[s][AGREE], 100.0 * counts[s][AGREE] / totals[s],
                   counts[s][DISAGREE], counts[s][NOT_RUN], counts[s][LOAD_ERROR]);
    if (validation_errors)
        printf("first validation error: %s\n", sb_rt_context_first_validation_error(context));
    int status = 0;
    if (write_to) {
        status = write_expected(entries, n, write_to) ? 0 : 1;
        printf("wrote %s\n", write_to);
    } else {
        int failures = compare_expected(entries, n, expected);
        if (failures || validation_errors)
            status = 1;
        printf("%d unexpected outcomes\n", failures);
    }
    sb_rt_context_destroy(context);
    for (uint32_t i = 0; i < n; i++)
        free(paths[i]);
    free(entries);
    return status;
}
