/* SPDX-License-Identifier: MIT */
/*
 * Malformed SHBIN inputs (../shared/docs/pica200.md §12): each case changes one field
 * of a valid file built by the test writer and asserts the exact error code
 * and the byte offset the reader blames; every truncation of the unpadded
 * old-picasso file (the §12.10 arrangement, 279 bytes) is checked against
 * the error its length must produce.
 */
#include "shaderbridge/shbin.h"
#include "shbin_check.h"
#include "shbin_writer.h"

#include <stdlib.h>

static const uint32_t code[11] = {
    0x4E000000, 0x4E024001, 0x08020802, 0x08021803, 0x08022804, 0x08023805,
    0x4E024006, 0x4E024001, 0x16010003, 0x4C210007, 0x88000000,
};
static const uint32_t descriptors[8] = {
    0x0000034E, 0x00000AA1, 0x0006C368, 0x0006C364,
    0x0006C362, 0x0006C361, 0x0000000E, 0x0000036F,
};
static const struct shbin_writer_constant constant = {
    2, 4, { 0x000000, 0x3F0000, 0xC00000, 0xC59000 }
};
static const struct shbin_writer_output outputs[] = { { 0, 0, 0xF }, { 2, 1, 0xF } };
static const struct shbin_writer_uniform uniform = { "projection", 0x10, 0x13 };
static const struct shbin_writer_dvle example_dvle = {
    .end_address = 11, .constants = &constant, .constant_count = 1,
    .outputs = outputs, .output_count = 2, .uniforms = &uniform, .uniform_count = 1,
};

/* Absolute offsets of the old-picasso example (§12.10). */
enum {
    DVLP = 0x0C, DVLE = 0x34, CODE = 0x74, OPDESCS = 0xA0, CONSTANTS = 0xE0,
    OUTPUTS = 0xF4, UNIFORMS = 0x104, SYMBOLS = 0x10C, FILE_SIZE = 279,
};

static struct shbin_writer_file build_example(void)
{
    const struct shbin_writer_program prog = {
        .layout = SHBIN_WRITER_PICASSO_OLD, .code = code, .code_word_count = 11,
        .descriptors = descriptors, .descriptor_count = 8, .dvles = &example_dvle,
        .dvle_count = 1,
    };
    struct shbin_writer_file f;
    if (!shbin_writer_build(&prog, &f)) {
        fprintf(stderr, "writer failed\n");
        exit(1);
    }
    return f;
}

/* Parses `size` bytes and checks the failure code and offset. */
static void expect_error_at(const uint8_t *bytes, size_t size, enum sb_result code_expected,
                            uint64_t offset, int line)
{
    struct sb_shbin *s = NULL;
    struct sb_error error = { 0 };
    enum sb_result r = sb_shbin_parse(bytes, size, &s, &error);
    check_count++;
    if (r != code_expected || error.code != code_expected || error.offset != offset ||
        s != NULL || error.message[0] == 0) {
        fprintf(stderr, "%s:%d: expected %s at %llu, got %s at %llu (%s)\n", __FILE__, line,
                sb_result_name(code_expected), (unsigned long long)offset, sb_result_name(r),
                (unsigned long long)error.offset, error.message);
        check_failures++;
    }
    sb_shbin_destroy(s);
}

#define EXPECT_ERROR(file, code, offset) \
    expect_error_at((file)->bytes, (file)->size, (code), (offset), __LINE__)

/*
 * Sets the u32 at `at` of file `f` (through pointer `p`), expects the error, and
 * restores the old value.
 */
#define WITH_U32(at, value, code_expected, offset)                                        \
do {                                                                                  \
    uint32_t saved_ = f.bytes[at] | (uint32_t)f.bytes[(at) + 1] << 8 |                \
                      (uint32_t)f.bytes[(at) + 2] << 16 | (uint32_t)f.bytes[(at) + 3] << 24; \
    shbin_writer_put_u32(p, (at), (value));                                           \
    EXPECT_ERROR(p, (code_expected), (offset));                                       \
    shbin_writer_put_u32(p, (at), saved_);                                            \
} while (0)

static void test_example_is_valid(void)
{
    struct shbin_writer_file f = build_example();
    CHECK_EQ(f.size, FILE_SIZE);
    CHECK_EQ(f.dvle[0].header, DVLE);
    CHECK_EQ(f.code, CODE);
    CHECK_EQ(f.descriptors, OPDESCS);
    CHECK_EQ(f.dvle[0].constants, CONSTANTS);
    CHECK_EQ(f.dvle[0].outputs, OUTPUTS);
    CHECK_EQ(f.dvle[0].uniforms, UNIFORMS);
    CHECK_EQ(f.dvle[0].symbols, SYMBOLS);
    struct sb_shbin *s = NULL;
    CHECK_EQ(sb_shbin_parse(f.bytes, f.size, &s, NULL), SB_SUCCESS);
    sb_shbin_destroy(s);
    shbin_writer_free(&f);
}

/* The error each truncated length must give (derived from the layout above). */
static void expected_truncation(size_t length, enum sb_result *code_out, uint64_t *offset)
{
    if (length < 4) {
        *code_out = SB_ERROR_TRUNCATED, *offset = 0;            /* DVLB magic */
    } else if (length < 8) {
        *code_out = SB_ERROR_TRUNCATED, *offset = 4;            /* DVLE count */
    } else if (length < 64) {
        *code_out = SB_ERROR_BAD_COUNT, *offset = 4;            /* 1 DVLE needs 64 bytes */
    } else if (length < CODE) {
        *code_out = SB_ERROR_BAD_OFFSET, *offset = DVLP + 0x08; /* code offset */
    } else if (length < CODE + 44) {
        *code_out = SB_ERROR_BAD_SIZE, *offset = DVLP + 0x0C;   /* code size */
    } else if (length < OPDESCS + 64) {
        *code_out = SB_ERROR_BAD_COUNT, *offset = DVLP + 0x14;  /* descriptor count */
    } else if (length < SYMBOLS) {
        *code_out = SB_ERROR_BAD_OFFSET, *offset = DVLE + 0x38; /* symbol table offset */
    } else {
        *code_out = SB_ERROR_BAD_SIZE, *offset = DVLE + 0x3C;   /* symbol table size */
    }
}

static void test_every_truncation(void)
{
    struct shbin_writer_file f = build_example();
    for (size_t length = 0; length < f.size; length++) {
        enum sb_result code_expected;
        uint64_t offset;
        expected_truncation(length, &code_expected, &offset);
        /* A fresh copy of exactly `length` bytes, so ASan sees any overread. */
        uint8_t *copy = malloc(length ? length : 1);
        memcpy(copy, f.bytes, length);
        expect_error_at(copy, length, code_expected, offset, __LINE__);
        free(copy);
    }
    shbin_writer_free(&f);
}

/* Every truncation of the other layouts fails too, blaming a byte before the cut. */
static void test_truncation_other_layouts(void)
{
    static const struct shbin_writer_label labels[] = { { 1, 0, 0, "main" } };
    static const char *const names[] = { "a.vsh", "b.gsh" };
    const struct shbin_writer_dvle dvles[2] = {
        example_dvle,
        { .version = 1, .type = 1, .main_address = 2, .end_address = 11, .gs_mode = 1,
          .labels = labels, .label_count = 1, .outputs = outputs, .output_count = 1 },
    };
    for (int layout = SHBIN_WRITER_PICASSO; layout <= SHBIN_WRITER_NINTENDO; layout++) {
        const struct shbin_writer_program prog = {
            .layout = (enum shbin_writer_layout)layout, .dvlp_version = layout == 2 ? 1 : 0,
            .code = code, .code_word_count = 11, .descriptors = descriptors,
            .descriptor_count = 8, .filenames = names, .filename_count = 2, .dvles = dvles,
            .dvle_count = 2,
        };
        struct shbin_writer_file f;
        CHECK(shbin_writer_build(&prog, &f));
        size_t data_end = f.dvle[0].end > f.dvle[1].end ? f.dvle[0].end : f.dvle[1].end;
        for (size_t length = 0; length < data_end; length++) {
            uint8_t *copy = malloc(length ? length : 1);
            memcpy(copy, f.bytes, length);
            struct sb_shbin *s = NULL;
            struct sb_error error = { 0 };
            enum sb_result r = sb_shbin_parse(copy, length, &s, &error);
            CHECK(r == SB_ERROR_TRUNCATED || r == SB_ERROR_BAD_OFFSET ||
                  r == SB_ERROR_BAD_SIZE || r == SB_ERROR_BAD_COUNT);
            CHECK(error.offset <= length);
            CHECK(s == NULL);
            free(copy);
        }
        struct sb_shbin *s = NULL;
        CHECK_EQ(sb_shbin_parse(f.bytes, data_end, &s, NULL), SB_SUCCESS);
        sb_shbin_destroy(s);
        shbin_writer_free(&f);
    }
}

static void test_dvlb_and_dvlp(void)
{
    struct shbin_writer_file f = build_example();
    struct shbin_writer_file *p = &f;
    WITH_U32(0, 0x424C5645, SB_ERROR_BAD_MAGIC, 0);              /* "EVLB" */
    WITH_U32(4, 0x40000000, SB_ERROR_BAD_COUNT, 4);              /* DVLE count too large */
    WITH_U32(4, 5, SB_ERROR_BAD_COUNT, 4);                       /* 5 headers > 279 bytes */
    WITH_U32(8, 0x10000, SB_ERROR_BAD_OFFSET, 8);                /* DVLE offset out of range */
    WITH_U32(8, 0x10, SB_ERROR_BAD_OFFSET, 8);                   /* into the DVLP header */
    WITH_U32(8, FILE_SIZE, SB_ERROR_TRUNCATED, FILE_SIZE);       /* header past the end */
    WITH_U32(8, FILE_SIZE - 0x20, SB_ERROR_BAD_MAGIC, FILE_SIZE - 0x20);
    WITH_U32(DVLP, 0x504C5645, SB_ERROR_BAD_MAGIC, DVLP);        /* DVLP magic */
    WITH_U32(DVLP + 0x08, 0x1000, SB_ERROR_BAD_OFFSET, DVLP + 0x08); /* code offset */
    WITH_U32(DVLP + 0x08, 0x10, SB_ERROR_BAD_OFFSET, DVLP + 0x08);   /* code in header */
    WITH_U32(DVLP + 0x0C, 4096, SB_ERROR_BAD_SIZE, DVLP + 0x0C);     /* code size too large */
    WITH_U32(DVLP + 0x0C, 4097, SB_ERROR_BAD_SIZE, DVLP + 0x0C);     /* over the ISA limit */
    WITH_U32(DVLP + 0x0C, 0xFFFFFFFF, SB_ERROR_BAD_SIZE, DVLP + 0x0C);
    WITH_U32(DVLP + 0x10, 0x7FFFFFFF, SB_ERROR_BAD_OFFSET, DVLP + 0x10);
    WITH_U32(DVLP + 0x14, 20, SB_ERROR_BAD_COUNT, DVLP + 0x14);      /* descriptors do not fit */
    WITH_U32(DVLP + 0x14, 129, SB_ERROR_BAD_COUNT, DVLP + 0x14);     /* over the DESC limit */
    /* A nonzero DVLP version makes the filename table real: it must hold a terminated name. */
    shbin_writer_put_u32(p, DVLP + 0x04, 1);
    WITH_U32(DVLP + 0x18, 0x200, SB_ERROR_BAD_OFFSET, DVLP + 0x18);
    WITH_U32(DVLP + 0x18, FILE_SIZE - DVLP, SB_ERROR_BAD_OFFSET, DVLP + 0x18);
    shbin_writer_put_u32(p, DVLP + 0x18, SYMBOLS - DVLP);
    struct sb_shbin *s = NULL;
    CHECK_EQ(sb_shbin_parse(f.bytes, f.size, &s, NULL), SB_SUCCESS);
    if (s) {
        CHECK_EQ(s->layout, SB_SHBIN_LAYOUT_NINTENDO);
        CHECK_EQ(s->program.filename_count, 1);
        CHECK_STR(s->program.filenames[0].text, "projection");
    }
    sb_shbin_destroy(s);
    shbin_writer_put_u8(p, FILE_SIZE - 1, 'x'); /* the only terminator after the table */
    EXPECT_ERROR(p, SB_ERROR_BAD_STRING, SYMBOLS);
    shbin_writer_free(&f);
}

static void test_dvle(void)
{
    struct shbin_writer_file f = build_example();
    struct shbin_writer_file *p = &f;
    WITH_U32(DVLE, 0x454C5645, SB_ERROR_BAD_MAGIC, DVLE);
    WITH_U32(DVLE + 0x04, 0x00020000, SB_ERROR_BAD_VALUE, DVLE + 0x06); /* shader type 2 */
    WITH_U32(DVLE + 0x08, 11, SB_ERROR_BAD_OFFSET, DVLE + 0x08);        /* main == code size */
    WITH_U32(DVLE + 0x08, 0xFFFFFFFF, SB_ERROR_BAD_OFFSET, DVLE + 0x08);
    WITH_U32(DVLE + 0x0C, 12, SB_ERROR_BAD_OFFSET, DVLE + 0x0C);        /* end past the code */
    shbin_writer_put_u32(p, DVLE + 0x08, 5);
    WITH_U32(DVLE + 0x0C, 3, SB_ERROR_BAD_VALUE, DVLE + 0x0C);          /* end before main */
    shbin_writer_put_u32(p, DVLE + 0x08, 0);
    /* GS mode 3: fatal for a geometry shader, kept raw for a vertex shader. */
    shbin_writer_put_u32(p, DVLE + 0x04, 0x00010000);
    WITH_U32(DVLE + 0x14, 3, SB_ERROR_BAD_VALUE, DVLE + 0x14);
    shbin_writer_put_u32(p, DVLE + 0x04, 0);
    shbin_writer_put_u32(p, DVLE + 0x14, 3);
    struct sb_shbin *s = NULL;
    CHECK_EQ(sb_shbin_parse(f.bytes, f.size, &s, NULL), SB_SUCCESS);
    if (s) {
        CHECK_EQ(s->dvles[0].gs_mode_value, 3);
        CHECK_EQ(s->dvles[0].gs_mode, SB_SHBIN_GS_MODE_POINT);
    }
    sb_shbin_destroy(s);
    shbin_writer_put_u32(p, DVLE + 0x14, 0);
    /* Tables: offsets and counts. */
    WITH_U32(DVLE + 0x18, 0x1000, SB_ERROR_BAD_OFFSET, DVLE + 0x18);
    WITH_U32(DVLE + 0x1C, 1000, SB_ERROR_BAD_COUNT, DVLE + 0x1C);       /* constant count */
    WITH_U32(DVLE + 0x1C, 0x10000000, SB_ERROR_BAD_COUNT, DVLE + 0x1C);
    WITH_U32(DVLE + 0x24, 100, SB_ERROR_BAD_COUNT, DVLE + 0x24);        /* label count */
    WITH_U32(DVLE + 0x28, 0x1000, SB_ERROR_BAD_OFFSET, DVLE + 0x28);
    WITH_U32(DVLE + 0x2C, 100, SB_ERROR_BAD_COUNT, DVLE + 0x2C);        /* output count */
    WITH_U32(DVLE + 0x34, 100, SB_ERROR_BAD_COUNT, DVLE + 0x34);        /* uniform count */
    WITH_U32(DVLE + 0x38, 0xFFFFFFFF, SB_ERROR_BAD_OFFSET, DVLE + 0x38);
    WITH_U32(DVLE + 0x3C, 12, SB_ERROR_BAD_SIZE, DVLE + 0x3C);          /* symbol table size */
    shbin_writer_free(&f);
}

static void test_entries(void)
{
    struct shbin_writer_file f = build_example();
    struct shbin_writer_file *p = &f;
    WITH_U32(CONSTANTS, 0x00040003, SB_ERROR_BAD_VALUE, CONSTANTS);      /* type 3 */
    WITH_U32(CONSTANTS, 0x00600002, SB_ERROR_BAD_VALUE, CONSTANTS + 2);  /* c96 */
    WITH_U32(CONSTANTS, 0x00040001, SB_ERROR_BAD_VALUE, CONSTANTS + 2);  /* i4 */
    WITH_U32(CONSTANTS, 0x00100000, SB_ERROR_BAD_VALUE, CONSTANTS + 2);  /* b16 */
    WITH_U32(OUTPUTS, 0x00000007, SB_ERROR_BAD_VALUE, OUTPUTS);          /* output type 7 */
    WITH_U32(OUTPUTS, 0x0000000A, SB_ERROR_BAD_VALUE, OUTPUTS);          /* output type 10 */
    WITH_U32(OUTPUTS, 0x00100000, SB_ERROR_BAD_VALUE, OUTPUTS + 2);      /* o16 */
    WITH_U32(UNIFORMS + 4, 0x00130074, SB_ERROR_BAD_VALUE, UNIFORMS + 4); /* first in a gap */
    WITH_U32(UNIFORMS + 4, 0x00880078, SB_ERROR_BAD_VALUE, UNIFORMS + 6); /* last past b15 */
    WITH_U32(UNIFORMS + 4, 0x00100013, SB_ERROR_BAD_VALUE, UNIFORMS + 6); /* last < first */
    WITH_U32(UNIFORMS + 4, 0x0070006F, SB_ERROR_BAD_VALUE, UNIFORMS + 6); /* class changes */
    WITH_U32(UNIFORMS, 11, SB_ERROR_BAD_OFFSET, UNIFORMS);               /* name past table */
    /* Unterminated uniform name: the table is cut before the NUL, or the NUL is gone. */
    WITH_U32(DVLE + 0x3C, 10, SB_ERROR_BAD_STRING, SYMBOLS);
    shbin_writer_put_u8(p, FILE_SIZE - 1, 'n');
    EXPECT_ERROR(p, SB_ERROR_BAD_STRING, SYMBOLS);
    shbin_writer_free(&f);
}

static void test_labels(void)
{
    static const struct shbin_writer_label labels[] = { { 1, 0, 0, "main" }, { 2, 11, 0, "e" } };
    struct shbin_writer_dvle dvle = example_dvle;
    dvle.labels = labels;
    dvle.label_count = 2;
    const struct shbin_writer_program prog = {
        .layout = SHBIN_WRITER_NINTENDO, .dvlp_version = 2, .code = code,
        .code_word_count = 11, .descriptors = descriptors, .descriptor_count = 8,
        .filenames = (const char *const[]){ "x.vsh" }, .filename_count = 1, .dvles = &dvle,
        .dvle_count = 1,
    };
    struct shbin_writer_file f;
    CHECK(shbin_writer_build(&prog, &f));
    struct shbin_writer_file *p = &f;
    uint32_t l = f.dvle[0].labels;
    struct sb_shbin *s = NULL;
    CHECK_EQ(sb_shbin_parse(f.bytes, f.size, &s, NULL), SB_SUCCESS); /* address == size is fine */
    sb_shbin_destroy(s);
    WITH_U32(l + 16 + 4, 12, SB_ERROR_BAD_OFFSET, l + 16 + 4);       /* address past the code */
    WITH_U32(l + 12, 100, SB_ERROR_BAD_OFFSET, l + 12);              /* name offset */
    shbin_writer_free(&f);
}

/* Two DVLE entries naming one header whose symbol table spans most of the file. */
static void test_overlapping_tables(void)
{
    const struct shbin_writer_dvle dvles[2] = { example_dvle, example_dvle };
    const struct shbin_writer_program prog = {
        .layout = SHBIN_WRITER_PICASSO_OLD, .code = code, .code_word_count = 11,
        .descriptors = descriptors, .descriptor_count = 8, .dvles = dvles, .dvle_count = 2,
    };
    struct shbin_writer_file f;
    CHECK(shbin_writer_build(&prog, &f));
    struct shbin_writer_file *p = &f;
    uint32_t h = f.dvle[0].header;
    struct sb_shbin *s = NULL;
    CHECK_EQ(sb_shbin_parse(f.bytes, f.size, &s, NULL), SB_SUCCESS);
    sb_shbin_destroy(s);
    shbin_writer_put_u32(p, 12, h);                           /* DVLE 1 -> DVLE 0's header */
    CHECK_EQ(sb_shbin_parse(f.bytes, f.size, &s, NULL), SB_SUCCESS); /* small tables: fine */
    sb_shbin_destroy(s);
    shbin_writer_put_u32(p, h + 0x38, 0);                     /* symbols = the DVLE itself */
    shbin_writer_put_u32(p, h + 0x3C, (uint32_t)f.size - h);
    EXPECT_ERROR(p, SB_ERROR_BAD_COUNT, h + 0x3C);
    shbin_writer_free(&f);
}

int main(void)
{
    test_example_is_valid();
    test_every_truncation();
    test_truncation_other_layouts();
    test_dvlb_and_dvlp();
    test_dvle();
    test_entries();
    test_labels();
    test_overlapping_tables();
    return check_result("test_shbin_malformed");
}
