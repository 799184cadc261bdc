/* SPDX-License-Identifier: MIT */
/*
 * The report of translate_corpus (translate_corpus.h): totals, per stage,
 * failures grouped by first message, and the expected-failure list it is
 * checked against or writes.
 */
#define _POSIX_C_SOURCE 200809L

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "translate_corpus.h"

#define EXAMPLES 3

struct group {
    char key[SB_ERROR_MESSAGE_SIZE + 96]; /* outcome, code, message with numbers as '#' */
    size_t count;
    size_t first;                         /* index of the first shader in the group */
};

static double percent(size_t part, size_t whole)
{
    return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

/* Numbers (decimal or 0x hex) become '#': messages differing only in offsets or ids group. */
static void group_key(const struct tc_shader *s, char *key, size_t size)
{
    size_t n = (size_t)snprintf(key, size, "[%s] %s: ", tc_outcome_names[s->outcome],
                                sb_result_name(s->code));
    for (const char *p = s->message; *p && n + 1 < size;) {
        if (isdigit((unsigned char)*p)) {
            key[n++] = '#';
            if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
                p += 2;
            while (isxdigit((unsigned char)*p))
                p++;
        } else {
            key[n++] = *p++;
        }
    }
    key[n < size ? n : size - 1] = 0;
}

static int by_count(const void *a, const void *b)
{
    const struct group *x = a, *y = b;
    if (x->count != y->count)
        return x->count < y->count ? 1 : -1;
    return strcmp(x->key, y->key);
}

static void print_totals(const struct tc_run *run)
{
    size_t by_outcome[TC_OUTCOME_COUNT] = { 0 }, dxbc_clean = 0;
    for (size_t i = 0; i < run->count; i++) {
        by_outcome[run->shaders[i].outcome]++;
        if (i < run->from_dxbc && run->shaders[i].outcome == TC_CLEAN)
            dxbc_clean++;
    }
    printf("\nTOTAL %zu/%zu spirv-val clean (%.2f%%); %zu failed to translate, %zu translated to "
           "invalid SPIR-V\n", by_outcome[TC_CLEAN], run->count,
           percent(by_outcome[TC_CLEAN], run->count), by_outcome[TC_TRANSLATE],
           by_outcome[TC_INVALID]);
    printf("      dxbc/MANIFEST.tsv alone (the issue's 1,618; vkd3d-shader 1.2: 1,547 = 95.6%%): "
           "%zu/%zu clean (%.2f%%)\n", dxbc_clean, run->from_dxbc,
           percent(dxbc_clean, run->from_dxbc));
}

static void print_stages(const struct tc_run *run)
{
    printf("\n%-6s %7s %7s %8s %10s %10s\n", "stage", "total", "clean", "clean%", "translate",
           "spirv-val");
    for (unsigned stage = 0; stage < TC_STAGE_COUNT; stage++) {
        size_t counts[TC_OUTCOME_COUNT] = { 0 }, total = 0;
        for (size_t i = 0; i < run->count; i++)
            if (run->shaders[i].stage == stage) {
                counts[run->shaders[i].outcome]++;
                total++;
            }
        printf("%-6s %7zu %7zu %7.2f%% %10zu %10zu\n", tc_stages[stage], total, counts[TC_CLEAN],
               percent(counts[TC_CLEAN], total), counts[TC_TRANSLATE], counts[TC_INVALID]);
    }
}

static void print_groups(const struct tc_run *run, bool verbose)
{
    struct group *groups = calloc(run->count ? run->count : 1, sizeof(*groups));
    if (!groups)
        return;
    size_t group_count = 0;
    for (size_t i = 0; i < run->count; i++) {
        if (run->shaders[i].outcome == TC_CLEAN)
            continue;
        char key[sizeof(groups[0].key)];
        group_key(&run->shaders[i], key, sizeof(key));
        size_t g = 0;
        while (g < group_count && strcmp(groups[g].key, key))
            g++;
        if (g == group_count) {
            snprintf(groups[g].key, sizeof(groups[g].key), "%s", key);
            groups[g].first = i;
            group_count++;
        }
        groups[g].count++;
    }
    qsort(groups, group_count, sizeof(*groups), by_count);
    printf("\nfailures by first error message: %zu group(s)%s\n", group_count,
           group_count && !verbose ? " (up to 3 shaders each; --verbose lists all)" : "");
    for (size_t g = 0; g < group_count; g++) {
        printf("%6zu  %s\n", groups[g].count, groups[g].key);
        size_t shown = 0;
        for (size_t i = groups[g].first; i < run->count; i++) {
            char key[sizeof(groups[0].key)];
            if (run->shaders[i].outcome == TC_CLEAN)
                continue;
            group_key(&run->shaders[i], key, sizeof(key));
            if (strcmp(key, groups[g].key))
                continue;
            if (!verbose && shown == EXAMPLES) {
                printf("          ... %zu more\n", groups[g].count - shown);
                break;
            }
            printf("          %s @%llu: %s\n", run->shaders[i].rel,
                   (unsigned long long)run->shaders[i].offset, run->shaders[i].message);
            shown++;
        }
    }
    free(groups);
}

void tc_print_report(const struct tc_run *run, bool verbose)
{
    print_totals(run);
    print_stages(run);
    print_groups(run, verbose);
}

static const struct tc_expected *find_expected(const struct tc_run *run, const char *rel)
{
    for (size_t i = 0; i < run->expected_count; i++)
        if (!strcmp(run->expected[i].rel, rel))
            return &run->expected[i];
    return NULL;
}

bool tc_compare_expected(const struct tc_run *run)
{
    size_t now_passing = 0, unexpected = 0, listed_failing = 0, stale = 0;
    for (size_t i = 0; i < run->count; i++) {
        const struct tc_shader *s = &run->shaders[i];
        const struct tc_expected *e = find_expected(run, s->rel);
        if (e && s->outcome == TC_CLEAN) {
            printf("NOW PASSING (remove it from the expected-failure list): %s\n", s->rel);
            now_passing++;
        } else if (!e && s->outcome != TC_CLEAN) {
            printf("UNEXPECTED FAILURE: %s: [%s] %s @%llu: %s\n", s->rel,
                   tc_outcome_names[s->outcome], sb_result_name(s->code),
                   (unsigned long long)s->offset, s->message);
            unexpected++;
        } else if (e) {
            listed_failing++;
        }
    }
    for (size_t i = 0; i < run->expected_count; i++) {
        bool found = false;
        for (size_t j = 0; j < run->count && !found; j++)
            found = !strcmp(run->shaders[j].rel, run->expected[i].rel);
        if (!found) {
            printf("STALE LIST ENTRY (not a corpus shader): %s\n", run->expected[i].rel);
            stale++;
        }
    }
    printf("\nexpected-failure list: %zu listed, %zu still failing, %zu now passing, %zu stale; "
           "%zu unlisted failure(s)\n", run->expected_count, listed_failing, now_passing, stale,
           unexpected);
    bool ok = !now_passing && !unexpected && !stale;
    printf("%s\n", ok ? "PASS: every failure is listed with its cause"
                      : "FAIL: regenerate the list (command in tests/translate/"
                        "corpus_expected_failures.tsv) after checking the differences above");
    return ok;
}

bool tc_write_expected(const struct tc_run *run, const char *path)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "cannot write %s\n", path);
        return false;
    }
    fputs("# Corpus shaders that do not yet translate to spirv-val-clean SPIR-V (translate_corpus).\n"
          "# path (relative to the corpus)<TAB>outcome (translate | spirv-val)<TAB>result code"
          "<TAB>cause: the first error line\n"
          "# GENERATED, do not edit by hand; after a change to the translator run\n"
          "#   build-tools/tests/translate/test_translate_corpus ../shared/corpus \\\n"
          "#       tests/translate/corpus_expected_failures.tsv \\\n"
          "#       --write-expected tests/translate/corpus_expected_failures.tsv\n"
          "# and review the diff: lines that disappear are fixed shaders, new lines are\n"
          "# regressions. The goal (issue #4) is an empty list.\n", f);
    size_t rows = 0;
    for (size_t i = 0; i < run->count; i++) {
        const struct tc_shader *s = &run->shaders[i];
        if (s->outcome == TC_CLEAN)
            continue;
        fprintf(f, "%s\t%s\t%s\t@%llu: %s\n", s->rel, tc_outcome_names[s->outcome],
                sb_result_name(s->code), (unsigned long long)s->offset, s->message);
        rows++;
    }
    bool ok = fclose(f) == 0;
    printf("\nwrote %zu expected failure(s) to %s\n", rows, path);
    return ok;
}
