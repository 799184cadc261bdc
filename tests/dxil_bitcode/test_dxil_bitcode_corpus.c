/* SPDX-License-Identifier: MIT */
/*
 * Every DXIL part of the corpus (CORPUS/dxil/MANIFEST.tsv) through
 * sb_bc_read_dxil_part, and, when llvm-dis is given (LLVM 14 reads DXIL's
 * LLVM 3.7 bitcode), a cross-check of each file against its disassembly:
 * the numbers of global variables, functions and definitions, per defined
 * function (by name) its basic blocks and instructions, the named metadata
 * names and the dx.op.* functions called must be equal.
 *
 * usage: test_dxil_bitcode_corpus CORPUS_DIR [LLVM_DIS]
 * Exit 77 (SKIPPED) when the corpus is absent; without LLVM_DIS only the
 * reading is checked and the cross-check is reported SKIPPED.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "corpus_list.h"
#include "cursor.h"
#include "reflect/bitcode.h"
#include "shaderbridge/reflect.h"

#define MAX_NAMES 512

/* A set of strings, kept sorted for comparison. */
struct names {
    char *items[MAX_NAMES];
    unsigned count;
};

static void names_add(struct names *set, const char *name, size_t length)
{
    for (unsigned i = 0; i < set->count; i++)
        if (strlen(set->items[i]) == length && !strncmp(set->items[i], name, length))
            return;
    if (set->count < MAX_NAMES)
        set->items[set->count++] = strndup(name, length);
}

static int compare_strings(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void names_free(struct names *set)
{
    for (unsigned i = 0; i < set->count; i++)
        free(set->items[i]);
    set->count = 0;
}

/* What both sides count for one file. */
struct counts {
    unsigned functions, definitions, globals;
    struct names bodies;        /* "name blocks instructions" per definition */
    struct names named_metadata;
    struct names dx_ops;
};

static void counts_free(struct counts *c)
{
    names_free(&c->bodies);
    names_free(&c->named_metadata);
    names_free(&c->dx_ops);
}

static void add_body(struct counts *c, const char *name, size_t length, unsigned blocks,
                     unsigned instructions)
{
    char line[300];
    int n = snprintf(line, sizeof(line), "%.*s %u %u", (int)length, name, blocks, instructions);
    names_add(&c->bodies, line, (size_t)n < sizeof(line) ? (size_t)n : sizeof(line) - 1);
}

static void count_module(const struct sb_bc_module *m, struct counts *c)
{
    c->functions = m->function_count;
    c->globals = m->global_count;
    for (uint32_t i = 0; i < m->function_count; i++) {
        const struct sb_bc_function *f = &m->functions[i];
        if (f->is_declaration)
            continue;
        c->definitions++;
        const char *name = f->name ? f->name : "";
        add_body(c, name, strlen(name), f->block_count, f->instruction_count);
        for (uint32_t k = 0; k < f->instruction_count; k++) {
            const struct sb_bc_function *callee = sb_bc_callee(m, f, &f->instructions[k]);
            if (callee && callee->name && !strncmp(callee->name, "dx.op.", 6))
                names_add(&c->dx_ops, callee->name, strlen(callee->name));
        }
    }
    for (uint32_t i = 0; i < m->named_metadata_count; i++)
        names_add(&c->named_metadata, m->named_metadata[i].name,
                  strlen(m->named_metadata[i].name));
}

/* A global name as llvm-dis prints it after '@' or '!': plain, or "quoted" with \XX
 * hex escapes (dxc's mangled names start with byte 1, printed "\01?main@@..."). Writes
 * the name's bytes to `out` and returns their count. */
static size_t global_name(const char *p, char *out, size_t capacity)
{
    size_t n = 0;
    if (*p != '"') {
        while (n + 1 < capacity && p[n] &&
               (p[n] == '.' || p[n] == '_' || p[n] == '$' || p[n] == '-' ||
                (p[n] >= '0' && p[n] <= '9') || (p[n] >= 'a' && p[n] <= 'z') ||
                (p[n] >= 'A' && p[n] <= 'Z'))) {
            out[n] = p[n];
            n++;
        }
        out[n] = 0;
        return n;
    }
    for (p++; *p && *p != '"' && n + 1 < capacity; p++) {
        unsigned byte;
        if (*p == '\\' && sscanf(p + 1, "%2x", &byte) == 1) {
            out[n++] = (char)byte;
            p += 2;
        } else {
            out[n++] = *p;
        }
    }
    out[n] = 0;
    return n;
}

/* Parses llvm-dis output: define/declare lines, body lines, named metadata, dx.op calls. */
static void count_disassembly(FILE *text, struct counts *c)
{
    char *line = NULL;
    size_t capacity = 0;
    const char *body_name = NULL;
    char name_buffer[256], scratch[256];
    size_t body_name_length = 0;
    unsigned blocks = 0, instructions = 0;
    bool in_body = false, first_line = false, in_switch = false;
    while (getline(&line, &capacity, text) > 0) {
        line[strcspn(line, "\n")] = 0;
        if (!in_body) {
            if (line[0] == '@') {
                c->globals++;
            } else if (!strncmp(line, "define ", 7) || !strncmp(line, "declare ", 8)) {
                c->functions++;
                if (line[1] == 'e' && line[2] == 'f') {
                    const char *at = strchr(line, '@');
                    body_name_length = at ? global_name(at + 1, name_buffer, sizeof(name_buffer)) : 0;
                    name_buffer[body_name_length] = 0;
                    body_name = name_buffer;
                    c->definitions++;
                    in_body = true;
                    first_line = true;
                    blocks = instructions = 0;
                }
            } else if (line[0] == '!' && line[1] && !(line[1] >= '0' && line[1] <= '9') &&
                       strstr(line, " = !{")) {
                names_add(&c->named_metadata, scratch,
                          global_name(line + 1, scratch, sizeof(scratch)));
            }
            continue;
        }
        if (!strcmp(line, "}")) {
            add_body(c, body_name, body_name_length, blocks, instructions);
            in_body = false;
            continue;
        }
        if (!line[0])
            continue;
        if (in_switch) {
            in_switch = strcmp(line, "  ]") != 0;
            continue;
        }
        bool label = line[0] != ' ' && strchr(line, ':');
        if (first_line && !label)
            blocks++; /* an unnamed entry block has no label line */
        first_line = false;
        if (label) {
            blocks++;
            continue;
        }
        const char *p = line + strspn(line, " ");
        if (*p == ';')
            continue;
        instructions++;
        if (!strncmp(p, "switch ", 7) && line[strlen(line) - 1] == '[')
            in_switch = true;
        const char *call = strstr(p, "@dx.op.");
        if (!call)
            call = strstr(p, "@\"dx.op.");
        if (call && (strstr(p, "call ") == p || strstr(p, " call ")))
            names_add(&c->dx_ops, scratch, global_name(call + 1, scratch, sizeof(scratch)));
    }
    free(line);
}

static bool names_equal(struct names *a, struct names *b, const char *file, const char *what)
{
    qsort(a->items, a->count, sizeof(a->items[0]), compare_strings);
    qsort(b->items, b->count, sizeof(b->items[0]), compare_strings);
    bool same = a->count == b->count;
    for (unsigned i = 0; same && i < a->count; i++)
        same = !strcmp(a->items[i], b->items[i]);
    CHECK(same, "%s: %s differ: reader %u (first '%s'), llvm-dis %u (first '%s')", file, what,
          a->count, a->count ? a->items[0] : "", b->count, b->count ? b->items[0] : "");
    return same;
}

struct totals {
    unsigned files, read, compared, agreed;
    unsigned long functions, definitions, globals, blocks, instructions, named, dx_ops;
};

static void cross_check(const char *llvm_dis, const uint8_t *bitcode, size_t size,
                        struct counts *ours, const char *file, struct totals *t)
{
    char path[] = "/tmp/dxil_bitcode_XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0 || write(fd, bitcode, size) != (ssize_t)size) {
        CHECK(false, "%s: cannot write a temporary file", file);
        if (fd >= 0)
            close(fd);
        return;
    }
    close(fd);
    char command[512];
    snprintf(command, sizeof(command), "%s %s -o - 2>&1", llvm_dis, path);
    FILE *pipe = popen(command, "r");
    struct counts theirs = { 0 };
    if (pipe) {
        count_disassembly(pipe, &theirs);
        int status = pclose(pipe);
        CHECK(status == 0, "%s: llvm-dis failed (status %d)", file, status);
    }
    unlink(path);
    t->compared++;
    bool same = ours->functions == theirs.functions && ours->definitions == theirs.definitions &&
                ours->globals == theirs.globals;
    CHECK(same, "%s: functions %u/%u definitions %u/%u globals %u/%u (reader/llvm-dis)", file,
          ours->functions, theirs.functions, ours->definitions, theirs.definitions, ours->globals,
          theirs.globals);
    same &= names_equal(&ours->bodies, &theirs.bodies, file, "bodies (name blocks instructions)");
    same &= names_equal(&ours->named_metadata, &theirs.named_metadata, file, "named metadata");
    same &= names_equal(&ours->dx_ops, &theirs.dx_ops, file, "dx.op functions called");
    t->agreed += same;
    counts_free(&theirs);
}

static void read_one(const char *corpus, const char *relative, const char *llvm_dis,
                     struct totals *t)
{
    char path[1024];
    snprintf(path, sizeof(path), "%s/dxil/%s", corpus, relative);
    size_t size = 0;
    char *bytes = read_file(path, &size);
    t->files++;
    CHECK(bytes != NULL, "%s: unreadable", relative);
    if (!bytes)
        return;
    struct sb_dxbc *dxbc = NULL;
    struct sb_error error = { 0 };
    enum sb_result result = sb_dxbc_parse(bytes, size, &dxbc, &error);
    const struct sb_dxbc_part *part = result == SB_SUCCESS ? sb_dxbc_find_part(dxbc, SB_FOURCC('D', 'X', 'I', 'L')) : NULL;
    CHECK(part != NULL, "%s: no DXIL part (%s)", relative, error.message);
    struct sb_bc_module *module = NULL;
    if (part)
        result = sb_bc_read_dxil_part(part->data, part->size, part->data_offset, &module, &error);
    CHECK(!part || result == SB_SUCCESS, "%s: %s at byte %llu: %s", relative, sb_result_name(result),
          (unsigned long long)error.offset, error.message);
    if (module) {
        t->read++;
        struct counts ours = { 0 };
        count_module(module, &ours);
        t->functions += ours.functions;
        t->definitions += ours.definitions;
        t->globals += ours.globals;
        t->named += ours.named_metadata.count;
        t->dx_ops += ours.dx_ops.count;
        for (uint32_t i = 0; i < module->function_count; i++) {
            t->blocks += module->functions[i].block_count;
            t->instructions += module->functions[i].instruction_count;
        }
        uint32_t offset = sb_load_u32(part->data + 16);
        if (llvm_dis)
            cross_check(llvm_dis, part->data + 8 + offset, sb_load_u32(part->data + 20), &ours,
                        relative, t);
        counts_free(&ours);
    }
    sb_bc_module_destroy(module);
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
    char manifest_path[1024];
    snprintf(manifest_path, sizeof(manifest_path), "%s/dxil/MANIFEST.tsv", argv[1]);
    size_t size = 0;
    char *manifest = read_file(manifest_path, &size);
    if (!manifest) {
        printf("SKIPPED: %s not found\n", manifest_path);
        return 77;
    }
    struct totals t = { 0 };
    char *save = NULL;
    for (char *line = strtok_r(manifest, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        if (!strncmp(line, "file\t", 5))
            continue;
        line[strcspn(line, "\t")] = 0;
        read_one(argv[1], line, llvm_dis, &t);
    }
    free(manifest);
    printf("dxil_bitcode_corpus: %u files, %u read; %lu globals, %lu functions (%lu defined), %lu "
           "basic blocks, %lu instructions, %lu named metadata, %lu distinct dx.op functions "
           "called per file summed\n",
           t.files, t.read, t.globals, t.functions, t.definitions, t.blocks, t.instructions,
           t.named, t.dx_ops);
    if (llvm_dis)
        printf("dxil_bitcode_corpus: llvm-dis cross-check: %u of %u files agree on every count\n",
               t.agreed, t.compared);
    else
        printf("dxil_bitcode_corpus: llvm-dis cross-check SKIPPED (llvm-dis-14 not installed)\n");
    printf("dxil_bitcode_corpus: %u checks, %u failed\n", checks, failures);
    return failures ? 1 : 0;
}
