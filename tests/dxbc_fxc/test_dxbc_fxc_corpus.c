/* SPDX-License-Identifier: MIT */
/*
 * Corpus test of the FXC-era decoders: parses every file of
 * corpus/dxbc/MANIFEST.tsv and every .dxbc/.cso/.bin/.dxil under
 * corpus/dxcontainer/real/<source>/ and corpus/dxcontainer/yaml/, requires
 * success, and compares what was decoded with the manifests:
 *   - the part list with `chunks` (dxbc) / `parts` (dxcontainer);
 *   - for shaders (SHDR/SHEX present) the program type and shader model
 *     with `program_type` / `shader_model`, or the profile with `stages`;
 *   - the RDEF creator with `compiler` when that column is not empty;
 *   - `checksum_ok` with the container's checksum verdict;
 * plus two consistency checks of our own: the SHDR/SHEX length token equals
 * the part size (true of every corpus shader, sm4-tokens.md §1) and an
 * RDEF's target names the same stage and model as the program.
 *
 * Files that must fail (negative inputs of other test suites) are listed
 * with their expected code in the file passed as the second argument; such
 * a file that parses, or fails with another code, is a mismatch.
 *
 * Usage: test_dxbc_fxc_corpus CORPUS_DIR EXPECTED_FAILURES_TSV
 * Exit: 0 all matched, 1 a mismatch, 77 corpus not found (skipped).
 */
#define _POSIX_C_SOURCE 200809L

#include <dirent.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "shaderbridge/dxbc_fxc.h"

#define MAX_COLUMNS 32
#define LINE_MAX_BYTES 8192

struct counts {
    unsigned parsed;
    unsigned compared;
    unsigned mismatches;
    unsigned expected_failures;
};

struct expected_failure {
    char path[512];
    char code[64];
};

static struct expected_failure expected[64];
static unsigned expected_count;

static void mismatch(struct counts *c, const char *file, const char *field, const char *want,
                     const char *got)
{
    fprintf(stderr, "MISMATCH %s: %s: manifest '%s', decoded '%s'\n", file, field, want, got);
    c->mismatches++;
}

static void compare(struct counts *c, const char *file, const char *field, const char *want,
                    const char *got)
{
    c->compared++;
    if (strcmp(want, got) != 0)
        mismatch(c, file, field, want, got);
}

static uint8_t *load(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    uint8_t *data = NULL;
    size_t used = 0, cap = 0;
    for (;;) {
        if (used == cap) {
            cap = cap ? cap * 2 : 65536;
            uint8_t *grown = realloc(data, cap);
            if (!grown) {
                free(data);
                fclose(f);
                return NULL;
            }
            data = grown;
        }
        size_t n = fread(data + used, 1, cap - used, f);
        used += n;
        if (n == 0)
            break;
    }
    fclose(f);
    *size = used;
    return data;
}

/* Splits a TSV line in place (trailing newline removed). Returns the column count. */
static unsigned split_tsv(char *line, char **cols)
{
    line[strcspn(line, "\r\n")] = 0;
    unsigned n = 0;
    char *p = line;
    while (n < MAX_COLUMNS) {
        cols[n++] = p;
        char *tab = strchr(p, '\t');
        if (!tab)
            break;
        *tab = 0;
        p = tab + 1;
    }
    return n;
}

static int column(char **header, unsigned n, const char *name)
{
    for (unsigned i = 0; i < n; i++)
        if (strcmp(header[i], name) == 0)
            return (int)i;
    fprintf(stderr, "manifest has no column '%s'\n", name);
    exit(1);
}

static const struct expected_failure *find_expected(const char *rel)
{
    for (unsigned i = 0; i < expected_count; i++)
        if (strcmp(expected[i].path, rel) == 0)
            return &expected[i];
    return NULL;
}

static void load_expected(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "cannot open expected-failure list %s\n", path);
        exit(1);
    }
    char line[LINE_MAX_BYTES];
    while (fgets(line, sizeof(line), f)) {
        if (line[0] == '#' || line[0] == '\n')
            continue;
        char *cols[MAX_COLUMNS];
        unsigned n = split_tsv(line, cols);
        if (n < 3 || expected_count == sizeof(expected) / sizeof(expected[0])) {
            fprintf(stderr, "bad line in %s (want path, code, reason)\n", path);
            exit(1);
        }
        snprintf(expected[expected_count].path, sizeof(expected[0].path), "%s", cols[0]);
        snprintf(expected[expected_count].code, sizeof(expected[0].code), "%s", cols[1]);
        expected_count++;
    }
    fclose(f);
}

/* What a parsed container says about the manifest columns. */
struct facts {
    char parts[512];
    const struct sb_dxbc_shader_header *shader;
    const struct sb_dxbc_rdef *rdef;
    const struct sb_dxbc_part *shader_part;
};

static void gather(const struct sb_dxbc *dxbc, struct facts *f)
{
    memset(f, 0, sizeof(*f));
    size_t used = 0;
    for (uint32_t i = 0; i < dxbc->part_count; i++) {
        const struct sb_dxbc_part *p = &dxbc->parts[i];
        used += (size_t)snprintf(f->parts + used, sizeof(f->parts) - used, "%s%s",
                                 i ? "," : "", p->name);
        if (used >= sizeof(f->parts))
            used = sizeof(f->parts) - 1;
        if ((p->kind == SB_DXBC_PART_SHDR || p->kind == SB_DXBC_PART_SHEX) && !f->shader) {
            f->shader = p->decoded.shader;
            f->shader_part = p;
        }
        if (p->kind == SB_DXBC_PART_RDEF && !f->rdef)
            f->rdef = p->decoded.rdef;
    }
}

/* Our own invariants, true of every corpus shader. */
static void check_consistency(struct counts *c, const char *file, const struct facts *f)
{
    char want[64], got[64];
    if (f->shader) {
        snprintf(want, sizeof(want), "%u", f->shader_part->size);
        snprintf(got, sizeof(got), "%u", f->shader->length_dwords * 4);
        compare(c, file, "length token * 4 vs part size", want, got);
    }
    if (f->shader && f->rdef) {
        snprintf(want, sizeof(want), "%s_%u_%u", sb_dxbc_program_type_name(f->shader->program_type),
                 f->shader->major, f->shader->minor);
        const char *stage = sb_dxbc_program_type_name(f->rdef->program_type);
        snprintf(got, sizeof(got), "%s_%u_%u", stage ? stage : "?", f->rdef->major,
                 f->rdef->minor);
        compare(c, file, "RDEF target vs program version", want, got);
    }
}

/* Parses one file; returns the container (caller destroys) or NULL. */
static struct sb_dxbc *parse_file(struct counts *c, const char *corpus, const char *rel)
{
    char path[1024];
    snprintf(path, sizeof(path), "%s/%s", corpus, rel);
    size_t size = 0;
    uint8_t *data = load(path, &size);
    if (!data) {
        mismatch(c, rel, "file", "readable", "cannot read");
        return NULL;
    }
    struct sb_dxbc *dxbc = NULL;
    struct sb_error error = { 0 };
    enum sb_result r = sb_dxbc_parse(data, size, &dxbc, &error);
    free(data);
    const struct expected_failure *exp = find_expected(rel);
    if (exp) {
        c->compared++;
        if (r == SB_SUCCESS || strcmp(sb_result_name(r), exp->code) != 0)
            mismatch(c, rel, "expected failure", exp->code,
                     r == SB_SUCCESS ? "success" : sb_result_name(r));
        else
            c->expected_failures++;
        sb_dxbc_destroy(dxbc);
        return NULL;
    }
    if (r != SB_SUCCESS) {
        char got[320];
        snprintf(got, sizeof(got), "%s at %llu: %s", sb_result_name(r),
                 (unsigned long long)error.offset, error.message);
        mismatch(c, rel, "parse", "success", got);
        return NULL;
    }
    c->parsed++;
    return dxbc;
}

static void run_dxbc_manifest(struct counts *c, const char *corpus)
{
    char path[1024];
    snprintf(path, sizeof(path), "%s/dxbc/MANIFEST.tsv", corpus);
    FILE *f = fopen(path, "r");
    if (!f) {
        mismatch(c, path, "manifest", "present", "missing");
        return;
    }
    static char header_line[LINE_MAX_BYTES], line[LINE_MAX_BYTES];
    char *header[MAX_COLUMNS], *cols[MAX_COLUMNS];
    if (!fgets(header_line, sizeof(header_line), f)) {
        fclose(f);
        return;
    }
    unsigned hn = split_tsv(header_line, header);
    int c_file = column(header, hn, "file"), c_type = column(header, hn, "program_type");
    int c_model = column(header, hn, "shader_model"), c_chunks = column(header, hn, "chunks");
    int c_sum = column(header, hn, "checksum_ok"), c_comp = column(header, hn, "compiler");
    while (fgets(line, sizeof(line), f)) {
        unsigned n = split_tsv(line, cols);
        if (n < hn)
            continue;
        char rel[600];
        snprintf(rel, sizeof(rel), "dxbc/%s", cols[c_file]);
        struct sb_dxbc *dxbc = parse_file(c, corpus, rel);
        if (!dxbc)
            continue;
        struct facts facts;
        gather(dxbc, &facts);
        compare(c, rel, "chunks", cols[c_chunks], facts.parts);
        compare(c, rel, "checksum_ok", cols[c_sum], dxbc->checksum_ok ? "1" : "0");
        if (facts.shader) {
            char model[32];
            const char *type = sb_dxbc_program_type_name(facts.shader->program_type);
            compare(c, rel, "program_type", cols[c_type], type ? type : "?");
            snprintf(model, sizeof(model), "%u.%u", facts.shader->major, facts.shader->minor);
            compare(c, rel, "shader_model", cols[c_model], model);
        }
        if (cols[c_comp][0])
            compare(c, rel, "compiler", cols[c_comp],
                    facts.rdef && facts.rdef->creator ? facts.rdef->creator : "(no RDEF creator)");
        check_consistency(c, rel, &facts);
        sb_dxbc_destroy(dxbc);
    }
    fclose(f);
}

/* The dxcontainer manifest row for `rel`: copies its parts and stages columns. */
static bool dxcontainer_row(const char *corpus, const char *rel, char *parts, char *stages,
                            size_t size)
{
    char path[1024];
    snprintf(path, sizeof(path), "%s/dxcontainer/MANIFEST.tsv", corpus);
    FILE *f = fopen(path, "r");
    if (!f)
        return false;
    static char header_line[LINE_MAX_BYTES], line[LINE_MAX_BYTES];
    char *header[MAX_COLUMNS], *cols[MAX_COLUMNS];
    bool found = false;
    if (fgets(header_line, sizeof(header_line), f)) {
        unsigned hn = split_tsv(header_line, header);
        int c_file = column(header, hn, "file"), c_parts = column(header, hn, "parts");
        int c_stages = column(header, hn, "stages");
        while (!found && fgets(line, sizeof(line), f)) {
            unsigned n = split_tsv(line, cols);
            if (n >= hn && strcmp(cols[c_file], rel + strlen("dxcontainer/")) == 0) {
                snprintf(parts, size, "%s", cols[c_parts]);
                snprintf(stages, size, "%s", cols[c_stages]);
                found = true;
            }
        }
    }
    fclose(f);
    return found;
}

static bool wanted_extension(const char *name)
{
    static const char *const exts[] = { ".dxbc", ".cso", ".bin", ".dxil" };
    size_t len = strlen(name);
    for (size_t i = 0; i < sizeof(exts) / sizeof(exts[0]); i++) {
        size_t e = strlen(exts[i]);
        if (len > e && strcmp(name + len - e, exts[i]) == 0)
            return true;
    }
    return false;
}

static int compare_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Parses every wanted file of one folder (relative to the corpus), sorted by name. */
static void run_folder(struct counts *c, const char *corpus, const char *folder)
{
    char path[1024];
    snprintf(path, sizeof(path), "%s/%s", corpus, folder);
    DIR *dir = opendir(path);
    if (!dir) {
        mismatch(c, path, "folder", "present", "missing");
        return;
    }
    char *names[1024];
    unsigned count = 0;
    for (struct dirent *e; (e = readdir(dir)) != NULL && count < 1024;)
        if (wanted_extension(e->d_name))
            names[count++] = strdup(e->d_name);
    closedir(dir);
    qsort(names, count, sizeof(names[0]), compare_names);
    for (unsigned i = 0; i < count; i++) {
        char rel[1024];
        snprintf(rel, sizeof(rel), "%s/%s", folder, names[i]);
        free(names[i]);
        struct sb_dxbc *dxbc = parse_file(c, corpus, rel);
        if (!dxbc)
            continue;
        struct facts facts;
        gather(dxbc, &facts);
        char parts[512], stages[512];
        if (dxcontainer_row(corpus, rel, parts, stages, sizeof(parts))) {
            compare(c, rel, "parts", parts, facts.parts);
            if (facts.shader) {
                char profile[16];
                sb_dxbc_shader_header_profile(facts.shader, profile, sizeof(profile));
                compare(c, rel, "stages", stages, profile);
            }
        }
        check_consistency(c, rel, &facts);
        sb_dxbc_destroy(dxbc);
    }
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: %s CORPUS_DIR EXPECTED_FAILURES_TSV\n", argv[0]);
        return 2;
    }
    const char *corpus = argv[1];
    char probe[1024];
    struct stat st;
    snprintf(probe, sizeof(probe), "%s/dxbc/MANIFEST.tsv", corpus);
    if (stat(probe, &st) != 0) {
        printf("SKIPPED: corpus not found at %s\n", corpus);
        return 77;
    }
    load_expected(argv[2]);
    struct counts c = { 0 };
    run_dxbc_manifest(&c, corpus);

    char real[1024];
    snprintf(real, sizeof(real), "%s/dxcontainer/real", corpus);
    DIR *dir = opendir(real);
    if (dir) {
        char *sources[64];
        unsigned n = 0;
        for (struct dirent *e; (e = readdir(dir)) != NULL && n < 64;)
            if (e->d_name[0] != '.')
                sources[n++] = strdup(e->d_name);
        closedir(dir);
        qsort(sources, n, sizeof(sources[0]), compare_names);
        for (unsigned i = 0; i < n; i++) {
            char folder[256];
            snprintf(folder, sizeof(folder), "dxcontainer/real/%s", sources[i]);
            run_folder(&c, corpus, folder);
            free(sources[i]);
        }
    } else {
        mismatch(&c, real, "folder", "present", "missing");
    }
    run_folder(&c, corpus, "dxcontainer/yaml");

    printf("%u files parsed, %u manifest fields compared, %u mismatches "
           "(%u expected failures confirmed)\n",
           c.parsed, c.compared, c.mismatches, c.expected_failures);
    return c.mismatches ? 1 : 0;
}
