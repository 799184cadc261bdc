/* SPDX-License-Identifier: MIT */
/*
 * Oracle test of the DXIL disassembler: for every DXIL part of the corpus
 * (CORPUS/dxil/MANIFEST.tsv) our listing's module part (from `target
 * datalayout` on) against llvm-dis-14's text of the same bitcode, after the
 * normalisation below. Prints how many files agree on every function body
 * line for line, how many on the whole module, and the first differing line
 * of each other file. The body agreement must be total: a file whose bodies
 * differ fails the test; whole-module differences are reported, not failed.
 *
 * usage: test_dxil_disasm_corpus CORPUS_DIR LLVM_DIS
 * Exit 77 (SKIPPED) when the corpus or llvm-dis-14 is absent.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "corpus_list.h"
#include "cursor.h"
#include "dxil_part.h"
#include "translator/dxil_disasm.h"

/* A listing split into normalised lines. */
struct lines {
    char **items;
    size_t count, capacity;
};

static void lines_add(struct lines *l, char *line)
{
    if (l->count == l->capacity) {
        l->capacity = l->capacity ? l->capacity * 2 : 256;
        l->items = realloc(l->items, l->capacity * sizeof(l->items[0]));
        if (!l->items)
            abort();
    }
    l->items[l->count++] = line;
}

static void lines_free(struct lines *l)
{
    for (size_t i = 0; i < l->count; i++)
        free(l->items[i]);
    free(l->items);
    *l = (struct lines){ 0 };
}

/*
 * The known printing differences between dxc's LLVM 3.7 form (ours) and LLVM 14, each
 * rewritten to one spelling:
 *   1. dxc's trailing comment on dx.op calls ("  ; ThreadId(component)") is ours alone:
 *      dropped from our call lines.
 *   2. An unnamed block's label is "; <label>:N" in 3.7 and "N:" in 14: rewritten to "N:".
 *   3. The padding before a label's "; preds = " comment (both pad to column 50, which
 *      differs once the label's spelling differs): collapsed to one space.
 *   4. LLVM 14 prints ", align N" on atomicrmw and cmpxchg (3.7 has no alignment there):
 *      dropped from their lines.
 *   5. A load or store the bitcode gives no alignment: 3.7 prints none, LLVM 14 the ABI
 *      alignment from the datalayout. Lines equal but for their ", align N" agree
 *      (lines_equal).
 *   6. LLVM 14 renames the overloaded intrinsics llvm.lifetime.start/end to their
 *      mangled names (".p0i8"): the suffix is dropped from their lines.
 *   7. LLVM 14 also gives those upgraded declarations the intrinsics' own attribute set
 *      (argmemonly nofree nosync nounwind willreturn) and moves them to the end of the
 *      module, which renumbers every attribute group. In such files only, "#N" in the
 *      function bodies is renumbered on both sides by order of first appearance
 *      (renumber_attribute_refs): the bodies must still use groups consistently.
 */
static char *normalise(const char *raw, bool ours)
{
    char *line = strdup(raw);
    if (!line)
        abort();
    if (ours && (strstr(line, "@dx.op.") || strstr(line, "@\"dx.op."))) {
        char *comment = strstr(line, "  ; "), *next; /* rule 1 */
        while (comment && (next = strstr(comment + 1, "  ; ")))
            comment = next;
        if (comment)
            comment[0] = 0;
    }
    if (!strncmp(line, "; <label>:", 10)) { /* rule 2 */
        size_t digits = strspn(line + 10, "0123456789");
        memmove(line, line + 10, strlen(line + 10) + 1);
        memmove(line + digits + 1, line + digits, strlen(line + digits) + 1);
        line[digits] = ':';
    }
    if (line[0] != ' ' && line[0] != ';' && strchr(line, ':')) { /* rule 3 */
        char *run = strstr(line, "  ");
        size_t spaces = run ? strspn(run, " ") : 0;
        if (run && run[spaces] == ';')
            memmove(run + 1, run + spaces, strlen(run + spaces) + 1);
    }
    if (!ours && (strstr(line, "= atomicrmw ") || strstr(line, "= cmpxchg ") ||
                  !strncmp(line, "  atomicrmw ", 12) || !strncmp(line, "  cmpxchg ", 10))) {
        char *align = strstr(line, ", align "); /* rule 4 */
        if (align) {
            size_t digits = strspn(align + 8, "0123456789");
            memmove(align, align + 8 + digits, strlen(align + 8 + digits) + 1);
        }
    }
    static const char *const mangled[] = { "@llvm.lifetime.start.p0i8", "@llvm.lifetime.end.p0i8" };
    for (unsigned i = 0; !ours && i < 2; i++) { /* rule 6 */
        char *name = strstr(line, mangled[i]);
        if (name) {
            char *suffix = name + strlen(mangled[i]) - 5;
            memmove(suffix, suffix + 5, strlen(suffix + 5) + 1);
        }
    }
    return line;
}

/* Equal lines, or (rule 5) a load/store of ours without alignment against theirs with one. */
static bool lines_equal(const char *ours, const char *theirs)
{
    if (!strcmp(ours, theirs))
        return true;
    bool memory = strstr(ours, "= load ") || !strncmp(ours, "  store ", 8);
    const char *align = strstr(theirs, ", align ");
    if (!memory || strstr(ours, ", align ") || !align)
        return false;
    size_t prefix = (size_t)(align - theirs);
    const char *rest = align + 8 + strspn(align + 8, "0123456789");
    return !strncmp(ours, theirs, prefix) && !strcmp(ours + prefix, rest);
}

/* The module part of a listing (from "target datalayout" on), normalised. */
static void split_module(char *text, bool ours, struct lines *out)
{
    bool started = false;
    char *save = NULL;
    for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        started = started || !strncmp(line, "target datalayout", 17);
        if (started)
            lines_add(out, normalise(line, ours));
    }
}

/* Lines of function bodies only ("define" ... "}"). */
static void bodies(const struct lines *all, struct lines *out)
{
    bool in_body = false;
    for (size_t i = 0; i < all->count; i++) {
        in_body = in_body || !strncmp(all->items[i], "define ", 7);
        if (in_body)
            lines_add(out, strdup(all->items[i]));
        if (in_body && !strcmp(all->items[i], "}"))
            in_body = false;
    }
}

/* Rule 7: "#N" -> "#k", k = N's rank of first appearance in `l`. */
static void renumber_attribute_refs(struct lines *l)
{
    unsigned long seen[64];
    unsigned seen_count = 0;
    for (size_t i = 0; i < l->count; i++) {
        char *line = l->items[i];
        char *ref = strstr(line, " #");
        if (!ref || ref[2] < '0' || ref[2] > '9')
            continue;
        char *end = NULL;
        unsigned long n = strtoul(ref + 2, &end, 10);
        unsigned k = 0;
        while (k < seen_count && seen[k] != n)
            k++;
        if (k == seen_count && seen_count < 64)
            seen[seen_count++] = n;
        char renumbered[4096];
        snprintf(renumbered, sizeof(renumbered), "%.*s #%u%s", (int)(ref - line), line, k, end);
        free(line);
        l->items[i] = strdup(renumbered);
    }
}

/* Index of the first differing line, or SIZE_MAX when equal. */
static size_t first_difference(const struct lines *a, const struct lines *b)
{
    size_t n = a->count < b->count ? a->count : b->count;
    for (size_t i = 0; i < n; i++)
        if (!lines_equal(a->items[i], b->items[i]))
            return i;
    return a->count == b->count ? SIZE_MAX : n;
}

static char *run_llvm_dis(const char *llvm_dis, const uint8_t *bitcode, size_t size)
{
    char path[] = "/tmp/dxil_disasm_XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0)
        return NULL;
    bool written = write(fd, bitcode, size) == (ssize_t)size;
    close(fd);
    char *text = NULL;
    if (written) {
        char command[512];
        snprintf(command, sizeof(command), "%s %s -o - 2>/dev/null", llvm_dis, path);
        FILE *pipe = popen(command, "r");
        size_t length = 0;
        FILE *memory = open_memstream(&text, &length);
        char buffer[4096];
        size_t got;
        while (pipe && memory && (got = fread(buffer, 1, sizeof(buffer), pipe)) > 0)
            fwrite(buffer, 1, got, memory);
        if (memory)
            fclose(memory);
        if (pipe && pclose(pipe) != 0) {
            free(text);
            text = NULL;
        }
    }
    unlink(path);
    return text;
}

struct totals {
    const char *llvm_dis;
    unsigned files, compared, bodies_agree, modules_agree;
};

static void report(const char *file, const char *what, const struct lines *ours,
                   const struct lines *theirs, size_t at)
{
    printf("  %s: %s line %zu:\n    ours:     %s\n    llvm-dis: %s\n", file, what, at + 1,
           at < ours->count ? ours->items[at] : "<end>",
           at < theirs->count ? theirs->items[at] : "<end>");
}

/* corpus_manifest_each's visitor: one corpus file. */
static void compare_one(const char *path, const char *relative, void *user)
{
    struct totals *t = user;
    const char *llvm_dis = t->llvm_dis;
    size_t size = 0;
    char *bytes = read_file(path, &size);
    t->files++;
    CHECK(bytes != NULL, "%s: unreadable", relative);
    struct sb_dxbc *dxbc = NULL;
    struct sb_error error = { 0 };
    const struct sb_dxbc_part *part = dxil_part_of(bytes, size, &dxbc);
    CHECK(part != NULL, "%s: no DXIL part", relative);
    char *ours_text = NULL;
    if (part) {
        enum sb_result result =
            sb_dxil_disassemble(part->data, part->size, part->data_offset, &ours_text, &error);
        CHECK(result == SB_SUCCESS, "%s: %s at byte %llu: %s", relative, sb_result_name(result),
              (unsigned long long)error.offset, error.message);
    }
    char *theirs_text = NULL;
    if (ours_text) {
        uint32_t offset = sb_load_u32(part->data + 16), length = sb_load_u32(part->data + 20);
        if ((uint64_t)8 + offset + length <= part->size)
            theirs_text = run_llvm_dis(llvm_dis, part->data + 8 + offset, length);
        CHECK(theirs_text != NULL, "%s: llvm-dis-14 failed", relative);
    }
    if (ours_text && theirs_text) {
        struct lines ours = { 0 }, theirs = { 0 }, ours_bodies = { 0 }, theirs_bodies = { 0 };
        bool upgraded = strstr(theirs_text, "@llvm.lifetime.start.p0i8(") ||
                        strstr(theirs_text, "@llvm.lifetime.end.p0i8(");
        split_module(ours_text, true, &ours);
        split_module(theirs_text, false, &theirs);
        bodies(&ours, &ours_bodies);
        bodies(&theirs, &theirs_bodies);
        if (upgraded) {
            renumber_attribute_refs(&ours_bodies);
            renumber_attribute_refs(&theirs_bodies);
        }
        t->compared++;
        size_t at = first_difference(&ours_bodies, &theirs_bodies);
        CHECK(at == SIZE_MAX, "%s: function bodies differ", relative);
        if (at != SIZE_MAX) {
            report(relative, "body", &ours_bodies, &theirs_bodies, at);
        } else {
            t->bodies_agree++;
            at = first_difference(&ours, &theirs);
            if (at == SIZE_MAX)
                t->modules_agree++;
            else
                report(relative, "module", &ours, &theirs, at);
        }
        lines_free(&ours);
        lines_free(&theirs);
        lines_free(&ours_bodies);
        lines_free(&theirs_bodies);
    }
    free(theirs_text);
    sb_dxil_text_free(ours_text);
    sb_dxbc_destroy(dxbc);
    free(bytes);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s CORPUS_DIR [LLVM_DIS]\n", argv[0]);
        return 2;
    }
    const char *llvm_dis = argc > 2 && argv[2][0] && access(argv[2], X_OK) == 0 ? argv[2] : NULL;
    if (!llvm_dis) {
        printf("SKIPPED: llvm-dis-14 not installed\n");
        return 77;
    }
    struct totals t = { .llvm_dis = llvm_dis };
    if (corpus_manifest_each(argv[1], "dxil", compare_one, &t) < 0) {
        printf("SKIPPED: %s/dxil/MANIFEST.tsv not found\n", argv[1]);
        return 77;
    }
    printf("dxil_disasm_corpus: %u files, %u compared with llvm-dis-14: function bodies agree "
           "line for line in %u, whole module in %u\n",
           t.files, t.compared, t.bodies_agree, t.modules_agree);
    printf("dxil_disasm_corpus: %u checks, %u failed\n", checks, failures);
    return failures ? 1 : 0;
}
