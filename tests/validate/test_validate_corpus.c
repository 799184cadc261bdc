/* SPDX-License-Identifier: MIT */
/*
 * validate_corpus: every corpus compute, vertex, pixel, geometry, hull and domain shader run
 * on the Vulkan device (lavapipe in the test suite) and on the CPU interpreter
 * with the same seeded inputs (seed 1; one thread group, 64 vertices, 64
 * pixels, 16 input primitives, 16 patches, 8 patches per partitioning mode:
 * see sb_validate), every UAV word and stage output (geometry: every emitted
 * vertex, stream and cut; hull: every control point and patch constant;
 * domain: every invocation's outputs at the device's domain points) compared —
 * the acceptance measure of issues #5, #14 and #15 (`shaderbridge validate --seed 1
 * FILE` does the same for one file).
 *
 * Each shader gets sb_validate's verdict: agree, agree-within-precision (the
 * interpreter's bounds cover every difference), undefined (a race or undefined
 * read explains them), disagree (nothing does), or not-run (the translator,
 * device or interpreter lacks what it needs, the budget ran out, seeded data
 * cannot be bound) and error (the shader is invalid) when it was not compared;
 * the same split as `shaderbridge validate`. Every shader whose verdict is not
 * agree is listed with its verdict and reason in an expected list, generated,
 * never hand-edited:
 *   build/tests/validate/test_validate_corpus ../shared/corpus \
 *       tests/validate/corpus_expected.tsv --write-expected tests/validate/corpus_expected.tsv
 *
 * The test fails when a shader disagrees and the list does not name it as an
 * expected disagreement, when a shader stops running or loading (not-run or
 * error not listed so), and when a listed disagree, not-run or error now does
 * better (the list must shrink with the fix: an unexpected pass fails, as in
 * STYLE.md §5). Moves among agree, agree-within-precision and undefined are
 * printed but pass: all three are verdicts that accept the device, and which
 * one a shader gets follows the interpreter's evidence, not a regression.
 * A table of verdict counts per stage is printed either way.
 *
 * Usage: test_validate_corpus CORPUS_DIR EXPECTED_TSV [--write-expected OUT] [--stages cs,vs,ps,gs,hs,ds]
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

/* In the order of the per-stage table; the names are sb_validate_verdict_name()'s plus "error". */
enum outcome { AGREE, WITHIN_PRECISION, UNDEFINED, NOT_RUN, DISAGREE, LOAD_ERROR, OUTCOME_COUNT };
static const char *const outcome_names[OUTCOME_COUNT] = {
    "agree", "agree-within-precision", "undefined", "not-run", "disagree", "error",
};

struct entry {
    char *path;
    enum outcome outcome;
    char cause[400];
};

static enum outcome outcome_of_verdict(enum sb_validate_verdict verdict)
{
    switch (verdict) {
    case SB_VALIDATE_AGREE: return AGREE;
    case SB_VALIDATE_AGREE_WITHIN_PRECISION: return WITHIN_PRECISION;
    case SB_VALIDATE_UNDEFINED: return UNDEFINED;
    case SB_VALIDATE_NOT_RUN: return NOT_RUN;
    default: return DISAGREE;
    }
}

/* A failure to load or run: not-run when the translator, the device or the interpreter lacks
 * what the shader needs (or the budget or seeded bindings end it), error when the shader
 * itself is invalid — as `shaderbridge validate` decides. */
static enum outcome outcome_of_failure(enum sb_result code)
{
    switch (code) {
    case SB_ERROR_TRANSLATE_UNSUPPORTED: case SB_ERROR_RUN_UNSUPPORTED: case SB_ERROR_RUN_BUDGET:
    case SB_ERROR_RUN_BINDING: case SB_ERROR_NO_DEVICE: case SB_ERROR_VULKAN:
        return NOT_RUN;
    default:
        return LOAD_ERROR;
    }
}

static enum outcome outcome_named(const char *name)
{
    for (int k = 0; k < OUTCOME_COUNT; k++)
        if (!strcmp(outcome_names[k], name))
            return (enum outcome)k;
    return OUTCOME_COUNT;
}

static void first_line(char *out, size_t size, const char *text)
{
    snprintf(out, size, "%s", text);
    out[strcspn(out, "\t\r\n")] = 0;
}

/* A failure's reason: the code, where in the shader, and the message naming what is missing. */
static void cause_of(char *out, size_t size, const struct sb_error *error)
{
    char cause[400];
    snprintf(cause, sizeof(cause), "%s at byte %llu: %s", sb_result_name(error->code),
             (unsigned long long)error->offset, error->message);
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
        e->outcome = outcome_of_failure(error.code);
        cause_of(e->cause, sizeof(e->cause), &error);
        return;
    }
    free(bytes);
    struct sb_validate_options options = { .inputs = { .seed = 1 }, .interp = { .instruction_budget = budget } };
    struct sb_validate_report *report = NULL;
    enum sb_result r = sb_validate(context, program, &options, &report, &error);
    if (r != SB_SUCCESS) {
        e->outcome = outcome_of_failure(error.code);
        cause_of(e->cause, sizeof(e->cause), &error);
    } else {
        e->outcome = outcome_of_verdict(report->verdict);
        if (e->outcome != AGREE)
            first_line(e->cause, sizeof(e->cause), report->reason);
    }
    if (verbose)
        printf("%-22s %s %s\n", outcome_names[e->outcome], e->path, e->cause);
    if (verbose && report && report->input_retries)
        printf("%-22s inputs changed: %s\n", "", report->input_note);
    struct sb_validate_precision precision;
    if (explain_ulps && r == SB_SUCCESS && report->mismatch_count &&
        sb_validate_explain_precision(program, &options, report, explain_ulps, &precision, &error) == SB_SUCCESS)
        printf("  %s: +-%d ULPs in approximated operations explain %llu of %llu mismatching words\n", e->path,
               explain_ulps, (unsigned long long)precision.explained,
               (unsigned long long)(precision.explained + precision.unexplained));
    sb_validate_report_destroy(report);
    sb_rt_program_destroy(program);
}

/* Verdicts that accept the device's results; moves among them follow the interpreter's
 * evidence (bounds, race detection) and are no regression. */
static bool accepting(enum outcome o)
{
    return o == AGREE || o == WITHIN_PRECISION || o == UNDEFINED;
}

/* Why a shader whose outcome is `now` fails against the list, where it is `listed` (AGREE
 * when the list does not name it); NULL when it passes. */
static const char *judge(enum outcome now, enum outcome listed)
{
    if (now == listed)
        return NULL;
    if (listed == OUTCOME_COUNT)
        return "the list names no known verdict for it";
    if (now == DISAGREE)
        return "a disagreement the list does not expect";
    if (now == NOT_RUN)
        return "it no longer runs";
    if (now == LOAD_ERROR)
        return "it no longer loads";
    if (!accepting(listed))
        return "it does better than listed: regenerate the list with --write-expected";
    return NULL;
}

/* Expected list: path TAB verdict TAB reason. Returns the failures (printed). */
static int compare_expected(struct entry *entries, uint32_t n, const char *expected_path)
{
    size_t size = 0;
    char *text = read_file(expected_path, &size);
    int failures = 0;
    enum outcome *listed = malloc((n ? n : 1) * sizeof(*listed));
    if (!listed) {
        free(text);
        return 1;
    }
    for (uint32_t i = 0; i < n; i++)
        listed[i] = AGREE;
    char *save = NULL;
    for (char *line = text ? strtok_r(text, "\n", &save) : NULL; line; line = strtok_r(NULL, "\n", &save)) {
        if (line[0] == '#')
            continue;
        char *tab = strchr(line, '\t');
        if (!tab)
            continue;
        *tab = 0;
        char *outcome = tab + 1;
        outcome[strcspn(outcome, "\t")] = 0;
        uint32_t i = 0;
        while (i < n && strcmp(entries[i].path, line))
            i++;
        if (i < n) /* else a shader this corpus copy (or --stages, --every) leaves out */
            listed[i] = outcome_named(outcome);
    }
    for (uint32_t i = 0; i < n; i++) {
        enum outcome now = entries[i].outcome;
        const char *why = judge(now, listed[i]);
        if (why)
            failures++;
        if (now != listed[i])
            printf("%s: %s is %s, listed as %s%s%s (%s)\n", why ? "UNEXPECTED" : "changed", entries[i].path,
                   outcome_names[now], listed[i] < OUTCOME_COUNT ? outcome_names[listed[i]] : "?",
                   why ? ": " : "", why ? why : "", now == AGREE ? "every word identical" : entries[i].cause);
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
    fprintf(f, "# validate_corpus: the verdict of every corpus shader that does not agree (GPU vs CPU,\n"
               "# seed 1), and its reason. A disagree not listed as one fails the test, as does a new\n"
               "# not-run or error, or a listed disagree / not-run / error that now does better.\n"
               "# Generated by test_validate_corpus --write-expected; do not edit by hand.\n"
               "# path\tverdict\treason\n");
    for (uint32_t i = 0; i < n; i++)
        if (entries[i].outcome != AGREE)
            fprintf(f, "%s\t%s\t%s\n", entries[i].path, outcome_names[entries[i].outcome], entries[i].cause);
    return fclose(f) == 0;
}

/* Every shader that does not agree, grouped by verdict, with its reason. */
static void print_non_agreeing(const struct entry *entries, uint32_t n)
{
    for (int o = WITHIN_PRECISION; o < OUTCOME_COUNT; o++)
        for (uint32_t i = 0; i < n; i++)
            if (entries[i].outcome == (enum outcome)o)
                printf("  %-22s %s: %s\n", outcome_names[o], entries[i].path, entries[i].cause);
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: test_validate_corpus CORPUS_DIR EXPECTED_TSV [--write-expected OUT] [--verbose]\n");
        return 2;
    }
    const char *corpus = argv[1], *expected = argv[2], *write_to = NULL, *stages = "cs,vs,ps,gs,hs,ds";
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
    static const char *const stage_names[] = { "cs", "vs", "ps", "gs", "hs", "ds" };
    enum { STAGES = sizeof(stage_names) / sizeof(stage_names[0]) };
    uint32_t counts[STAGES][OUTCOME_COUNT] = { { 0 } }, totals[STAGES] = { 0 };
    for (uint32_t i = 0; i < n; i++) {
        entries[i].path = paths[i];
        uint32_t errors_before = sb_rt_context_validation_errors(context);
        run_one(context, corpus, &entries[i], verbose);
        if (sb_rt_context_validation_errors(context) != errors_before)
            printf("validation-layer errors while running %s\n", entries[i].path);
        for (int s = 0; s < STAGES; s++)
            if (!strcmp(types[i], stage_names[s])) {
                counts[s][entries[i].outcome]++;
                totals[s]++;
            }
    }
    uint32_t validation_errors = sb_rt_context_validation_errors(context);
    printf("validate_corpus on %s, seed 1: %u shaders; %u validation-layer errors\n",
           sb_rt_context_device_name(context), n, validation_errors);
    printf("  %-5s %7s %7s %11s %9s %7s %8s %5s %s\n", "stage", "shaders", "agree", "within-prec", "undefined",
           "not-run", "disagree", "error", "accepted");
    for (int s = 0; s < STAGES; s++) {
        if (!totals[s])
            continue;
        uint32_t *c = counts[s], accepted = c[AGREE] + c[WITHIN_PRECISION] + c[UNDEFINED];
        printf("  %-5s %7u %7u %11u %9u %7u %8u %5u %u (%.1f%%)\n", stage_names[s], totals[s], c[AGREE],
               c[WITHIN_PRECISION], c[UNDEFINED], c[NOT_RUN], c[DISAGREE], c[LOAD_ERROR], accepted,
               100.0 * accepted / totals[s]);
    }
    printf("shaders that do not agree:\n");
    print_non_agreeing(entries, n);
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
        printf("%d unexpected verdicts\n", failures);
    }
    sb_rt_context_destroy(context);
    for (uint32_t i = 0; i < n; i++)
        free(paths[i]);
    free(entries);
    return status;
}
