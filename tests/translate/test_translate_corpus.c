/* SPDX-License-Identifier: MIT */
/*
 * translate_corpus: every corpus SM4/5 shader through sb_translate and the
 * SPIR-V validator (sb_spirv_validate, the rules of spirv-val) in one
 * process, the acceptance measure of issue #4 ("spirv-val-clean SPIR-V for
 * 100% of corpus shaders").
 *
 * Shaders: the rows of corpus/dxbc/MANIFEST.tsv whose program_type is
 * vs/ps/gs/hs/ds/cs (1,618), plus the files of corpus/dxcontainer/MANIFEST.tsv
 * under real/ whose part list holds SHDR or SHEX (the fxc containers of the
 * dxc_dxbc2dxil tests). Excluded, as the issue says: effects (program_type fx,
 * FX10 binaries, and fxlc, effect expression blobs; they hold no SM4/5
 * program of their own, and the shaders embedded in effects are rows of their
 * own), root-signature-only containers (rootsig, nonshader/), and DXIL
 * containers (SM6: DXIL part, no SHDR/SHEX).
 *
 * Output, for people measuring the translator: totals first, then per stage,
 * then failures grouped by their first error message (numbers in it replaced
 * by '#', so "at byte 120" and "at byte 96" group), biggest group first.
 *
 * Known failures sit in an expected-failure list (TSV: path, outcome,
 * result code, cause = the first error line), so the suite stays green while
 * the back end is completed: the test FAILS when a listed shader starts
 * passing (shrink the list) or an unlisted one fails. The list is generated,
 * never hand-edited, by the same program:
 *   build-tools/tests/translate/test_translate_corpus ../shared/corpus \
 *       tests/translate/corpus_expected_failures.tsv \
 *       --write-expected tests/translate/corpus_expected_failures.tsv
 *
 * Usage: test_translate_corpus CORPUS_DIR EXPECTED_TSV [--write-expected OUT]
 *        [--target-env vulkan1.x] [-g] [-O] [--verbose]
 *   -g / -O translate with debug info / the optimiser (manual runs; the
 *   expected list is for the default options).
 * Exit: 0 every shader clean or listed, 1 otherwise, 77 corpus absent.
 */
#define _POSIX_C_SOURCE 200809L

#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "shaderbridge/translate.h"
#include "translate_corpus.h"

#define LINE_BYTES 8192
#define MAX_COLUMNS 32

static struct tc_run run;

const char *const tc_outcome_names[TC_OUTCOME_COUNT] = { "clean", "translate", "spirv-val" };
const char *const tc_stages[TC_STAGE_COUNT] = { "vs", "ps", "gs", "hs", "ds", "cs" };

static void *xrealloc(void *p, size_t size)
{
    void *q = realloc(p, size);
    if (!q) {
        fputs("out of memory\n", stderr);
        exit(1);
    }
    return q;
}

static char *xstrdup(const char *s)
{
    return strcpy(xrealloc(NULL, strlen(s) + 1), s);
}

static unsigned split_tsv(char *line, char **cols)
{
    line[strcspn(line, "\r\n")] = 0;
    unsigned n = 0;
    for (char *p = line; n < MAX_COLUMNS;) {
        cols[n++] = p;
        char *tab = strchr(p, '\t');
        if (!tab)
            break;
        *tab = 0;
        p = tab + 1;
    }
    return n;
}

static int column(char **header, unsigned n, const char *name, const char *manifest)
{
    for (unsigned i = 0; i < n; i++)
        if (!strcmp(header[i], name))
            return (int)i;
    fprintf(stderr, "%s has no column '%s'\n", manifest, name);
    exit(1);
}

/* "ps" or "ps_5_1" -> index into tc_stages; -1 for fx, fxlc, rootsig, cs_6_0, lib_6_3... */
static int stage_index(const char *name)
{
    for (unsigned i = 0; i < TC_STAGE_COUNT; i++)
        if (!strncmp(name, tc_stages[i], 2) && (name[2] == 0 || name[2] == '_'))
            return (int)i;
    return -1;
}

static void add_shader(const char *rel, unsigned stage)
{
    if (run.count == run.cap) {
        run.cap = run.cap ? run.cap * 2 : 2048;
        run.shaders = xrealloc(run.shaders, run.cap * sizeof(*run.shaders));
    }
    run.shaders[run.count++] = (struct tc_shader){ .rel = xstrdup(rel), .stage = stage };
}

/*
 * Adds the shaders of one manifest. dxbc/: program_type names the stage;
 * dxcontainer/: rows under real/ with SHDR/SHEX in `parts` (SM6 profiles in
 * `stages` are DXIL and have neither), stage from `stages`.
 */
static bool read_manifest(const char *folder, bool dxbc)
{
    char path[4096];
    snprintf(path, sizeof(path), "%s/%s/MANIFEST.tsv", run.corpus, folder);
    FILE *f = fopen(path, "r");
    if (!f)
        return false;
    static char header_line[LINE_BYTES], line[LINE_BYTES];
    char *header[MAX_COLUMNS], *cols[MAX_COLUMNS];
    if (!fgets(header_line, sizeof(header_line), f)) {
        fclose(f);
        return false;
    }
    unsigned hn = split_tsv(header_line, header);
    int c_file = column(header, hn, "file", path);
    int c_stage = column(header, hn, dxbc ? "program_type" : "stages", path);
    int c_parts = dxbc ? -1 : column(header, hn, "parts", path);
    while (fgets(line, sizeof(line), f)) {
        if (split_tsv(line, cols) < hn)
            continue;
        int stage = stage_index(cols[c_stage]);
        if (stage < 0)
            continue;
        if (!dxbc && (strncmp(cols[c_file], "real/", 5) ||
                      (!strstr(cols[c_parts], "SHDR") && !strstr(cols[c_parts], "SHEX"))))
            continue;
        char rel[1024];
        snprintf(rel, sizeof(rel), "%s/%s", folder, cols[c_file]);
        add_shader(rel, (unsigned)stage);
    }
    fclose(f);
    return true;
}

static void read_expected(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "cannot open the expected-failure list %s\n", path);
        exit(1);
    }
    char line[LINE_BYTES];
    char *cols[MAX_COLUMNS];
    while (fgets(line, sizeof(line), f)) {
        if (line[0] == '#' || line[0] == '\n')
            continue;
        if (split_tsv(line, cols) < 4) {
            fprintf(stderr, "%s: want path, outcome, code, cause: %s\n", path, line);
            exit(1);
        }
        run.expected = xrealloc(run.expected, (run.expected_count + 1) * sizeof(*run.expected));
        run.expected[run.expected_count++] =
            (struct tc_expected){ .rel = xstrdup(cols[0]), .outcome = xstrdup(cols[1]) };
    }
    fclose(f);
}

static uint8_t *load(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    uint8_t *data = NULL;
    size_t used = 0, cap = 0, got;
    do {
        if (used == cap)
            data = xrealloc(data, cap = cap ? cap * 2 : 65536);
        got = fread(data + used, 1, cap - used, f);
        used += got;
    } while (got > 0);
    fclose(f);
    *size = used;
    return data;
}

/* The shader being translated, for the crash handler: a crash must name its input. */
static const char *volatile current_shader;

static void on_crash(int sig)
{
    static const char prefix[] = "\nCRASH while translating ";
    const char *name = current_shader ? current_shader : "(no shader)";
    if (write(STDERR_FILENO, prefix, sizeof(prefix) - 1) < 0 ||
        write(STDERR_FILENO, name, strlen(name)) < 0 || write(STDERR_FILENO, "\n", 1) < 0)
        _exit(1);
    signal(sig, SIG_DFL);
    raise(sig);
}

static void run_one(struct tc_shader *s)
{
    char path[4096];
    snprintf(path, sizeof(path), "%s/%s", run.corpus, s->rel);
    size_t size = 0;
    uint8_t *bytes = load(path, &size);
    if (!bytes) {
        s->outcome = TC_TRANSLATE;
        s->code = SB_ERROR_IO;
        snprintf(s->message, sizeof(s->message), "cannot read the file");
        return;
    }
    current_shader = s->rel;
    struct sb_error error = { .code = SB_SUCCESS, .instr = UINT32_MAX };
    struct sb_translation *t = NULL;
    enum sb_result r = sb_translate(bytes, size, &run.options, &t, &error);
    if (r == SB_SUCCESS) {
        s->words = t->word_count;
        r = sb_spirv_validate(t->words, t->word_count, run.options.target_env, &error);
        s->outcome = r == SB_SUCCESS ? TC_CLEAN : TC_INVALID;
    } else {
        s->outcome = TC_TRANSLATE;
    }
    current_shader = NULL;
    if (r != SB_SUCCESS) {
        s->code = r;
        s->offset = error.offset;
        snprintf(s->message, sizeof(s->message), "%s", error.message);
        s->message[strcspn(s->message, "\r\n\t")] = 0;
    }
    sb_translation_destroy(t);
    free(bytes);
}

int main(int argc, char **argv)
{
    const char *expected_path = NULL, *write_path = NULL;
    run.options.target_env = SB_TARGET_VULKAN_1_1;
    bool verbose = false, usage = false;
    for (int i = 1; i < argc && !usage; i++) {
        if (!strcmp(argv[i], "--write-expected") && i + 1 < argc)
            write_path = argv[++i];
        else if (!strcmp(argv[i], "--target-env") && i + 1 < argc)
            usage = !sb_target_env_parse(argv[++i], &run.options.target_env);
        else if (!strcmp(argv[i], "-g"))
            run.options.flags |= SB_TRANSLATE_DEBUG_INFO;
        else if (!strcmp(argv[i], "-O"))
            run.options.flags |= SB_TRANSLATE_OPTIMIZE;
        else if (!strcmp(argv[i], "--verbose"))
            verbose = true;
        else if (!run.corpus && argv[i][0] != '-')
            run.corpus = argv[i];
        else if (!expected_path && argv[i][0] != '-')
            expected_path = argv[i];
        else
            usage = true;
    }
    if (usage || !run.corpus || !expected_path) {
        fprintf(stderr, "usage: %s CORPUS_DIR EXPECTED_TSV [--write-expected OUT] "
                        "[--target-env vulkan1.x] [-g] [-O] [--verbose]\n", argv[0]);
        return 2;
    }
    if (!read_manifest("dxbc", true)) {
        printf("SKIPPED: corpus not found at %s\n", run.corpus);
        return 77;
    }
    run.from_dxbc = run.count;
    read_manifest("dxcontainer", false);
    read_expected(expected_path);
    signal(SIGSEGV, on_crash);
    signal(SIGBUS, on_crash);
    signal(SIGFPE, on_crash);
    signal(SIGABRT, on_crash);

    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (size_t i = 0; i < run.count; i++)
        run_one(&run.shaders[i]);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double seconds = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
    printf("translate_corpus: %zu shaders (%zu from dxbc/MANIFEST.tsv, %zu fxc containers from "
           "dxcontainer/real), target %s%s%s; translate + validate took %.2f s\n",
           run.count, run.from_dxbc, run.count - run.from_dxbc,
           sb_target_env_name(run.options.target_env),
           run.options.flags & SB_TRANSLATE_DEBUG_INFO ? ", -g" : "",
           run.options.flags & SB_TRANSLATE_OPTIMIZE ? ", -O" : "", seconds);
    tc_print_report(&run, verbose);
    if (write_path)
        return tc_write_expected(&run, write_path) ? 0 : 1;
    return tc_compare_expected(&run) ? 0 : 1;
}
