/* SPDX-License-Identifier: MIT */
/*
 * Corpus test of the SHBIN reader: every file of <corpus>/pica/bin must be
 * listed in <corpus>/pica/MANIFEST.tsv, parse, and agree with its row
 * (size, dvle_count, shader_types, and from the notes column dvlp_ver,
 * dvle_ver, code_words, opdescs). The worked example of ../shared/docs/pica200.md
 * §12.10 is then asserted field by field, its every truncation must fail,
 * and the test writer must reproduce it byte for byte.
 *
 * Usage: test_shbin_corpus CORPUS_DIR. Exits 77 (skipped) when the corpus
 * is absent.
 */
#define _POSIX_C_SOURCE 200809L

#include "shaderbridge/shbin.h"
#include "shbin_check.h"
#include "shbin_writer.h"

#include <dirent.h>
#include <stdlib.h>

#define SKIPPED 77
#define EXAMPLE "bin/aroulin_simple_tri__vshader_9cc2852d.shbin"

/* dir + "/" + name into buf; false (and a message) when it does not fit. */
static bool join_path(char *buf, size_t size, const char *dir, const char *name)
{
    int n = snprintf(buf, size, "%s/%s", dir, name);
    if (n < 0 || (size_t)n >= size) {
        fprintf(stderr, "path too long: %s/%s\n", dir, name);
        return false;
    }
    return true;
}

struct blob {
    uint8_t *bytes;
    size_t size;
};

static bool read_file(const char *path, struct blob *out)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return false;
    out->bytes = NULL;
    out->size = 0;
    size_t capacity = 0;
    for (;;) {
        if (out->size == capacity) {
            capacity = capacity ? capacity * 2 : 4096;
            uint8_t *grown = realloc(out->bytes, capacity);
            if (!grown) {
                fclose(f);
                free(out->bytes);
                return false;
            }
            out->bytes = grown;
        }
        size_t n = fread(out->bytes + out->size, 1, capacity - out->size, f);
        out->size += n;
        if (n == 0)
            break;
    }
    bool ok = !ferror(f);
    fclose(f);
    return ok;
}

/* Finds "key=" in the notes and parses its value in `base`; false when absent. */
static bool note_value(const char *notes, const char *key, int base, unsigned long *value)
{
    size_t n = strlen(key);
    for (const char *p = notes; (p = strstr(p, key)) != NULL; p += n) {
        if ((p == notes || p[-1] == ' ' || p[-1] == ';') && p[n] == '=') {
            *value = strtoul(p + n + 1, NULL, base);
            return true;
        }
    }
    return false;
}

/* The distinct shader types of the DVLEs, in order of appearance, comma-joined. */
static void shader_types(const struct sb_shbin *s, char *buf, size_t size)
{
    bool seen[2] = { false, false };
    size_t used = 0;
    buf[0] = 0;
    for (uint32_t i = 0; i < s->dvle_count; i++) {
        unsigned t = s->dvles[i].type;
        if (t < 2 && !seen[t] && used < size) {
            seen[t] = true;
            used += (size_t)snprintf(buf + used, size - used, "%s%s", used ? "," : "",
                                     sb_shbin_shader_type_name(s->dvles[i].type));
        }
    }
}

/* Splits a TSV line in place into at most `max` fields; returns the count. */
static int split_tabs(char *line, char **fields, int max)
{
    int n = 0;
    line[strcspn(line, "\r\n")] = 0;
    for (char *p = line; n < max;) {
        fields[n++] = p;
        char *tab = strchr(p, '\t');
        if (!tab)
            break;
        *tab = 0;
        p = tab + 1;
    }
    return n;
}

static void check_row(const char *pica, char **field, unsigned *parsed)
{
    char path[4096];
    struct blob b;
    check_count++;
    if (!join_path(path, sizeof(path), pica, field[0]) || !read_file(path, &b)) {
        fprintf(stderr, "%s: cannot read\n", path);
        check_failures++;
        return;
    }
    CHECK_EQ(b.size, strtoul(field[2], NULL, 10));
    struct sb_shbin *s = NULL;
    struct sb_error error = { 0 };
    enum sb_result r = sb_shbin_parse(b.bytes, b.size, &s, &error);
    check_count++;
    if (r != SB_SUCCESS) {
        fprintf(stderr, "%s: %s at %llu: %s\n", path, sb_result_name(r),
                (unsigned long long)error.offset, error.message);
        check_failures++;
        free(b.bytes);
        return;
    }
    (*parsed)++;
    char types[64];
    shader_types(s, types, sizeof(types));
    CHECK_EQ(s->dvle_count, strtoul(field[3], NULL, 10));
    CHECK_STR(types, field[4]);
    unsigned long v;
    const char *notes = field[9];
    CHECK(note_value(notes, "dvlp_ver", 16, &v));
    CHECK_EQ(s->program.version, v);
    CHECK(note_value(notes, "dvle_ver", 16, &v));
    for (uint32_t i = 0; i < s->dvle_count; i++)
        CHECK_EQ(s->dvles[i].version, v);
    CHECK(note_value(notes, "code_words", 10, &v));
    CHECK_EQ(s->program.code_word_count, v);
    CHECK(note_value(notes, "opdescs", 10, &v));
    CHECK_EQ(s->program.operand_descriptor_count, v);
    /* picasso output: no labels, no filenames, nothing odd enough to warn about. */
    CHECK(s->layout != SB_SHBIN_LAYOUT_NINTENDO);
    CHECK_EQ(s->program.filename_count, 0);
    CHECK_EQ(s->warning_count, 0);
    for (uint32_t i = 0; i < s->dvle_count; i++) {
        CHECK_EQ(s->dvles[i].label_count, 0);
        for (uint32_t u = 0; u < s->dvles[i].uniform_count; u++)
            CHECK(s->dvles[i].uniforms[u].name && s->dvles[i].uniforms[u].name[0]);
    }
    printf("%s: %u DVLE, %u code words, %u descriptors, layout %s\n", field[0], s->dvle_count,
           s->program.code_word_count, s->program.operand_descriptor_count,
           sb_shbin_layout_name(s->layout));
    sb_shbin_destroy(s);
    free(b.bytes);
}

static unsigned count_bin_files(const char *pica)
{
    char path[4096];
    DIR *dir = join_path(path, sizeof(path), pica, "bin") ? opendir(path) : NULL;
    if (!dir)
        return 0;
    unsigned n = 0;
    for (struct dirent *e; (e = readdir(dir)) != NULL;) {
        size_t len = strlen(e->d_name);
        n += len > 6 && strcmp(e->d_name + len - 6, ".shbin") == 0;
    }
    closedir(dir);
    return n;
}

static unsigned check_manifest(const char *pica, FILE *manifest)
{
    char line[8192];
    unsigned rows = 0, parsed = 0;
    if (!fgets(line, sizeof(line), manifest))
        return 0;
    char *field[16];
    CHECK(split_tabs(line, field, 16) == 10 && strcmp(field[9], "notes") == 0);
    while (fgets(line, sizeof(line), manifest)) {
        if (line[0] == '\n' || line[0] == 0)
            continue;
        int n = split_tabs(line, field, 16);
        CHECK_EQ(n, 10);
        if (n != 10)
            continue;
        rows++;
        check_row(pica, field, &parsed);
    }
    unsigned files = count_bin_files(pica);
    CHECK_EQ(files, rows);
    CHECK_EQ(parsed, rows);
    CHECK(rows > 0);
    printf("parsed %u of %u manifest rows (%u files in bin/)\n", parsed, rows, files);
    return parsed;
}

/* §12.10, field by field. */
static void check_worked_example(const struct sb_shbin *s)
{
    static const uint32_t code[11] = {
        0x4E000000, 0x4E024001, 0x08020802, 0x08021803, 0x08022804, 0x08023805,
        0x4E024006, 0x4E024001, 0x16010003, 0x4C210007, 0x88000000,
    };
    static const uint32_t descriptors[8] = {
        0x0000034E, 0x00000AA1, 0x0006C368, 0x0006C364,
        0x0006C362, 0x0006C361, 0x0000000E, 0x0000036F,
    };
    CHECK_EQ(s->size, 279);
    CHECK_EQ(s->layout, SB_SHBIN_LAYOUT_PICASSO_OLD);
    CHECK_EQ(s->dvle_count, 1);
    CHECK_EQ(s->dvle_offsets[0], 0x34);
    const struct sb_shbin_program *p = &s->program;
    CHECK_EQ(p->file_offset, 0x0C);
    CHECK_EQ(p->version, 0);
    CHECK_EQ(p->header_size, 0x28);
    CHECK_EQ(p->code_offset, 0x68);
    CHECK_EQ(p->code_word_count, 11);
    CHECK_EQ(p->operand_descriptor_offset, 0x94);
    CHECK_EQ(p->operand_descriptor_count, 8);
    CHECK_EQ(p->filename_table_offset, 0xD4);
    CHECK_EQ(p->filename_count, 0);
    CHECK_EQ(p->unknown_word_count, 3);
    for (unsigned i = 0; i < 3; i++)
        CHECK_EQ(p->unknown_words[i], 0);
    if (p->code_word_count == 11)
        for (unsigned i = 0; i < 11; i++)
            CHECK_EQ(p->code[i], code[i]);
    if (p->operand_descriptor_count == 8)
        for (unsigned i = 0; i < 8; i++) {
            CHECK_EQ(p->operand_descriptors[i].word, descriptors[i]);
            CHECK_EQ(p->operand_descriptors[i].extra_word, 0);
        }
    /* The table's decoding: desc 0 = mask xyz (0xE), SRC1 .xyzz (0x1A); desc 1 = w, .yyyy. */
    CHECK_EQ(p->operand_descriptors[0].dest_mask, 0xE);
    CHECK_EQ(p->operand_descriptors[0].selector[0], 0x1A);
    CHECK_EQ(p->operand_descriptors[1].dest_mask, 0x1);
    CHECK_EQ(p->operand_descriptors[1].selector[0], 0x55);
    CHECK_EQ(p->operand_descriptors[2].dest_mask, 0x8);
    CHECK_EQ(p->operand_descriptors[2].selector[0], 0x1B);
    CHECK_EQ(p->operand_descriptors[2].selector[1], 0x1B);

    const struct sb_shbin_dvle *d = &s->dvles[0];
    CHECK_EQ(d->file_offset, 0x34);
    CHECK(d->file_offset < p->file_offset + p->code_offset); /* header before the code */
    CHECK_EQ(d->version, 0);
    CHECK_EQ(d->type, SB_SHBIN_SHADER_VERTEX);
    CHECK_EQ(d->flags, 0);
    CHECK_EQ(d->main_address, 0);
    CHECK_EQ(d->end_address, 11);
    CHECK_EQ(d->input_mask, 0);
    CHECK_EQ(d->output_mask, 0);
    CHECK_EQ(d->constant_table_offset, 0xAC);
    CHECK_EQ(d->label_table_offset, 0xC0);
    CHECK_EQ(d->output_table_offset, 0xC0);
    CHECK_EQ(d->uniform_table_offset, 0xD0);
    CHECK_EQ(d->symbol_table_offset, 0xD8);
    CHECK_EQ(d->symbol_table_size, 11);
    CHECK_EQ(d->label_count, 0);
    CHECK_EQ(d->constant_count, 1);
    if (d->constant_count == 1) {
        const struct sb_shbin_constant *c = &d->constants[0];
        static const uint32_t raw[4] = { 0x000000, 0x3F0000, 0xC00000, 0xC59000 };
        static const float value[4] = { 0.0f, 1.0f, -2.0f, -100.0f };
        CHECK_EQ(c->file_offset, 0xE0);
        CHECK_EQ(c->type, SB_SHBIN_CONSTANT_FLOAT);
        CHECK_EQ(c->register_index, 4);
        for (unsigned k = 0; k < 4; k++) {
            CHECK_EQ(c->raw[k], raw[k]);
            CHECK_EQ(c->float24[k], raw[k]);
            CHECK(c->float_value[k] == value[k]);
        }
    }
    CHECK_EQ(d->output_count, 2);
    if (d->output_count == 2) {
        CHECK_EQ(d->outputs[0].type, SB_SHBIN_OUTPUT_POSITION);
        CHECK_EQ(d->outputs[0].register_index, 0);
        CHECK_EQ(d->outputs[0].mask, 0xF);
        CHECK_EQ(d->outputs[1].type, SB_SHBIN_OUTPUT_COLOR);
        CHECK_EQ(d->outputs[1].register_index, 1);
        CHECK_EQ(d->outputs[1].mask, 0xF);
        for (unsigned lane = 0; lane < 4; lane++) {
            CHECK_EQ(d->outputs[0].semantics[lane], 0x00 + lane);
            CHECK_EQ(d->outputs[1].semantics[lane], 0x08 + lane);
        }
    }
    CHECK_EQ(d->uniform_count, 1);
    if (d->uniform_count == 1) {
        const struct sb_shbin_uniform *u = &d->uniforms[0];
        CHECK_STR(u->name, "projection");
        CHECK_EQ(u->name_offset, 0);
        CHECK_EQ(u->first_register, 0x10);
        CHECK_EQ(u->last_register, 0x13);
        CHECK_EQ(u->register_class, SB_SHBIN_REGISTER_FLOAT);
        CHECK_EQ(u->first_index, 0);
        CHECK_EQ(u->last_index, 3);
    }
    CHECK_EQ(d->symbol_count, 1);
    if (d->symbol_count == 1)
        CHECK_STR(d->symbols[0].text, "projection");
}

/* The writer, given §12.10's content in the old layout, must produce the same bytes. */
static void check_writer_reproduces(const struct sb_shbin *s, const struct blob *b)
{
    const struct sb_shbin_dvle *d = &s->dvles[0];
    const struct shbin_writer_constant constant = {
        2, 4, { d->constants[0].raw[0], d->constants[0].raw[1], d->constants[0].raw[2],
                d->constants[0].raw[3] }
    };
    const struct shbin_writer_output outputs[2] = { { 0, 0, 0xF }, { 2, 1, 0xF } };
    const struct shbin_writer_uniform uniform = { "projection", 0x10, 0x13 };
    const struct shbin_writer_dvle dvle = {
        .end_address = 11, .constants = &constant, .constant_count = 1,
        .outputs = outputs, .output_count = 2, .uniforms = &uniform, .uniform_count = 1,
    };
    uint32_t descriptors[8];
    for (unsigned i = 0; i < 8; i++)
        descriptors[i] = s->program.operand_descriptors[i].word;
    const struct shbin_writer_program prog = {
        .layout = SHBIN_WRITER_PICASSO_OLD, .code = s->program.code, .code_word_count = 11,
        .descriptors = descriptors, .descriptor_count = 8, .dvles = &dvle, .dvle_count = 1,
    };
    struct shbin_writer_file f;
    CHECK(shbin_writer_build(&prog, &f));
    CHECK_EQ(f.size, b->size);
    CHECK(f.size == b->size && memcmp(f.bytes, b->bytes, f.size) == 0);
    shbin_writer_free(&f);
}

static void check_truncations(const struct blob *b)
{
    unsigned failed = 0;
    for (size_t length = 0; length < b->size; length++) {
        uint8_t *copy = malloc(length ? length : 1);
        memcpy(copy, b->bytes, length);
        struct sb_shbin *s = NULL;
        struct sb_error error = { 0 };
        enum sb_result r = sb_shbin_parse(copy, length, &s, &error);
        failed += r != SB_SUCCESS && s == NULL && error.offset <= length;
        free(copy);
    }
    CHECK_EQ(failed, b->size);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s CORPUS_DIR\n", argv[0]);
        return 2;
    }
    char pica[4096], path[4096];
    if (!join_path(pica, sizeof(pica), argv[1], "pica") ||
        !join_path(path, sizeof(path), pica, "MANIFEST.tsv"))
        return 2;
    FILE *manifest = fopen(path, "r");
    if (!manifest) {
        printf("SKIPPED: corpus not found at %s\n", path);
        return SKIPPED;
    }
    check_manifest(pica, manifest);
    fclose(manifest);

    struct blob b;
    if (!join_path(path, sizeof(path), pica, EXAMPLE) || !read_file(path, &b)) {
        fprintf(stderr, "%s: cannot read the worked example\n", path);
        return 1;
    }
    struct sb_shbin *s = NULL;
    CHECK_EQ(sb_shbin_parse(b.bytes, b.size, &s, NULL), SB_SUCCESS);
    if (s) {
        check_worked_example(s);
        check_writer_reproduces(s, &b);
    }
    check_truncations(&b);
    sb_shbin_destroy(s);
    free(b.bytes);
    return check_result("test_shbin_corpus");
}
