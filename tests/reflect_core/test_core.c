/* SPDX-License-Identifier: MIT */
/*
 * Unit tests of the reflect module's shared core: the bounded cursor and its
 * sticky error, the arena, the container checksum (../shared/docs/dxcontainer.md
 * §1.3), the container header and part table (§1.1, §1.2) with the exact
 * code and offset of each malformed case, and format detection.
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <threads.h>

#include "arena.h"
#include "cursor.h"
#include "reflect_private.h"
#include "shaderbridge/reflect.h"

static int failures;
static int checks;

#define CHECK(cond)                                                                        \
    do {                                                                                   \
        checks++;                                                                          \
        if (!(cond)) {                                                                     \
            failures++;                                                                    \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond);       \
        }                                                                                  \
    } while (0)

#define CHECK_EQ(a, b)                                                                     \
    do {                                                                                   \
        long long va_ = (long long)(a), vb_ = (long long)(b);                              \
        checks++;                                                                          \
        if (va_ != vb_) {                                                                  \
            failures++;                                                                    \
            fprintf(stderr, "%s:%d: %s == %lld, expected %s == %lld\n", __FILE__,          \
                    __LINE__, #a, va_, #b, vb_);                                           \
        }                                                                                  \
    } while (0)

/* ---- cursor ------------------------------------------------------------ */

static void test_cursor(void)
{
    static const uint8_t data[] = { 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08,
                                    'a', 'b', 0, 'c', 'd' };
    struct sb_reader reader;
    void *root = sb_reader_begin(&reader, data, sizeof(data), 8);
    CHECK(root != NULL);
    struct sb_cursor cur = sb_cursor_whole(&reader);
    CHECK_EQ(sb_cursor_u16(&cur, "a"), 0x0201);
    CHECK_EQ(sb_cursor_u32(&cur, "b"), 0x06050403);
    CHECK_EQ(sb_cursor_tell(&cur), 6);
    CHECK_EQ(sb_cursor_left(&cur), 7);
    CHECK(strcmp(sb_cursor_string_at(&cur, 8, "s"), "ab") == 0);

    /* A window reports absolute offsets in its errors. */
    struct sb_cursor window = sb_cursor_window(&cur, 4, 4, "w");
    CHECK_EQ(sb_cursor_u32(&window, "w0"), 0x08070605);
    CHECK(sb_cursor_ok(&window));
    CHECK_EQ(sb_cursor_u8(&window, "past"), 0);
    CHECK(reader.failed);
    CHECK_EQ(reader.error.code, SB_ERROR_TRUNCATED);
    CHECK_EQ(reader.error.offset, 8);
    CHECK(strstr(reader.error.message, "past") != NULL);

    /* Sticky: the first error stays, later reads give zero. */
    cur = sb_cursor_whole(&reader);
    CHECK_EQ(sb_cursor_u32(&cur, "after"), 0);
    CHECK_EQ(reader.error.offset, 8);
    CHECK_EQ(sb_reader_finish(&reader, NULL), SB_ERROR_TRUNCATED);

    /* Unterminated string: the scan stops at the window's end. */
    root = sb_reader_begin(&reader, data, sizeof(data), 8);
    cur = sb_cursor_whole(&reader);
    CHECK(sb_cursor_string_at(&cur, 11, "tail") == NULL);
    CHECK_EQ(reader.error.code, SB_ERROR_BAD_STRING);
    CHECK_EQ(reader.error.offset, 11);
    sb_reader_finish(&reader, NULL);

    /* String offset outside its window. */
    root = sb_reader_begin(&reader, data, sizeof(data), 8);
    cur = sb_cursor_whole(&reader);
    struct sb_cursor part = sb_cursor_window(&cur, 8, 3, "part");
    CHECK(strcmp(sb_cursor_string_at(&part, 0, "name"), "ab") == 0);
    CHECK(sb_cursor_string_at(&part, 3, "name") == NULL);
    CHECK_EQ(reader.error.code, SB_ERROR_BAD_OFFSET);
    CHECK_EQ(reader.error.offset, 8);
    sb_reader_finish(&reader, NULL);

    /* Counts are checked by division: a huge count cannot overflow the test. */
    root = sb_reader_begin(&reader, data, sizeof(data), 8);
    cur = sb_cursor_whole(&reader);
    CHECK(!sb_cursor_fits(&cur, 0x4000000000000001ull, 4, "records"));
    CHECK_EQ(reader.error.code, SB_ERROR_BAD_COUNT);
    sb_reader_finish(&reader, NULL);

    /* A window whose size runs past its parent. */
    root = sb_reader_begin(&reader, data, sizeof(data), 8);
    cur = sb_cursor_whole(&reader);
    sb_cursor_window(&cur, 10, 0xffffffffffffull, "big");
    CHECK_EQ(reader.error.code, SB_ERROR_BAD_SIZE);
    CHECK_EQ(reader.error.offset, 10);
    sb_reader_finish(&reader, NULL);

    /* Success keeps the object; destroy frees it. */
    root = sb_reader_begin(&reader, data, sizeof(data), 8);
    CHECK_EQ(sb_reader_finish(&reader, NULL), SB_SUCCESS);
    sb_object_destroy(root);
    sb_object_destroy(NULL);
}

static void test_arena(void)
{
    struct sb_arena *arena = sb_arena_create();
    CHECK(arena != NULL);
    uint8_t *small = sb_arena_alloc(arena, 3, 1);
    uint8_t *big = sb_arena_alloc(arena, 1, 1 << 21);
    CHECK(small && big);
    CHECK(((uintptr_t)small & 15) == 0 && ((uintptr_t)big & 15) == 0);
    CHECK(small[0] == 0 && big[(1 << 21) - 1] == 0);
    CHECK(sb_arena_alloc(arena, SIZE_MAX / 2, 4) == NULL);
    uint32_t *grown = sb_arena_alloc(arena, 2, 4);
    grown[0] = 7;
    grown[1] = 9;
    grown = sb_arena_grow(arena, grown, 2, 4, 4);
    CHECK(grown && grown[0] == 7 && grown[1] == 9 && grown[3] == 0);
    sb_arena_destroy(arena);
    sb_arena_destroy(NULL);
}

/* Blocks are reused by the next arena of the thread: reused memory must still come back zeroed. */
static void dirty_arenas(void)
{
    for (int round = 0; round < 4; round++) {
        struct sb_arena *arena = sb_arena_create();
        CHECK(arena != NULL);
        if (!arena)
            return;
        for (size_t size = 16; size <= 300000; size = size * 3 + 5) {
            uint8_t *p = sb_arena_alloc(arena, 1, size);
            CHECK(p != NULL);
            if (!p)
                break;
            bool zero = true;
            for (size_t i = 0; i < size; i++)
                zero = zero && p[i] == 0;
            CHECK(zero);
            memset(p, 0xab, size);
            uint8_t *raw = sb_arena_alloc_uninit(arena, 1, size);
            CHECK(raw != NULL && ((uintptr_t)raw & 15) == 0 && raw != p);
            if (raw)
                memset(raw, 0xcd, size);
        }
        sb_arena_destroy(arena);
    }
}

static int arenas_in_thread(void *unused)
{
    (void)unused;
    dirty_arenas();
    return 0;
}

static void test_arena_reuse(void)
{
    dirty_arenas();
    /* A thread's cached blocks are freed when it exits (LeakSanitizer checks this in the sanitizer build). */
    thrd_t thread;
    CHECK(thrd_create(&thread, arenas_in_thread, NULL) == thrd_success);
    int result = -1;
    CHECK(thrd_join(thread, &result) == thrd_success && result == 0);
}

/* ---- container ---------------------------------------------------------- */

struct blob {
    uint8_t bytes[512];
    size_t size;
};

static void put32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
}

/* A container with two raw parts: 'PRIV'-like unknown 'ABCD' (8 bytes) and RDAT (4 bytes). */
static struct blob make_container(void)
{
    struct blob b;
    memset(&b, 0, sizeof(b));
    memcpy(b.bytes, "DXBC", 4);
    put32(b.bytes + 20, 1); /* version 1.0 */
    put32(b.bytes + 28, 2);
    put32(b.bytes + 32, 40);
    put32(b.bytes + 36, 56);
    memcpy(b.bytes + 40, "ABCD", 4);
    put32(b.bytes + 44, 8);
    memcpy(b.bytes + 48, "12345678", 8);
    memcpy(b.bytes + 56, "RDAT", 4);
    put32(b.bytes + 60, 4);
    memcpy(b.bytes + 64, "wxyz", 4);
    b.size = 68;
    put32(b.bytes + 24, (uint32_t)b.size);
    sb_dxbc_compute_checksum(b.bytes, b.size, b.bytes + 4);
    return b;
}

static void expect_error(const struct blob *b, enum sb_result code, uint64_t offset,
                         const char *what)
{
    struct sb_dxbc *dxbc = (struct sb_dxbc *)1;
    struct sb_error error;
    memset(&error, 0, sizeof(error));
    enum sb_result result = sb_dxbc_parse(b->bytes, b->size, &dxbc, &error);
    checks++;
    if (result != code || error.code != code || error.offset != offset || dxbc != NULL) {
        failures++;
        fprintf(stderr, "%s: got %s at %llu (%s), expected %s at %llu\n", what,
                sb_result_name(result), (unsigned long long)error.offset, error.message,
                sb_result_name(code), (unsigned long long)offset);
    }
}

static void test_container(void)
{
    struct blob b = make_container();
    struct sb_dxbc *dxbc = NULL;
    struct sb_error error;
    CHECK_EQ(sb_dxbc_parse(b.bytes, b.size, &dxbc, &error), SB_SUCCESS);
    CHECK(dxbc != NULL);
    CHECK_EQ(dxbc->part_count, 2);
    CHECK_EQ(dxbc->major_version, 1);
    CHECK_EQ(dxbc->file_size, 68);
    CHECK(dxbc->checksum_ok);
    CHECK_EQ(dxbc->digest_status, SB_DXBC_DIGEST_VALID);
    CHECK_EQ(dxbc->warning_count, 0);
    CHECK(!dxbc->is_dxil);
    CHECK(strcmp(dxbc->parts[0].name, "ABCD") == 0);
    CHECK_EQ(dxbc->parts[0].kind, SB_DXBC_PART_UNKNOWN);
    CHECK_EQ(dxbc->parts[0].data_offset, 48);
    CHECK_EQ(dxbc->parts[0].size, 8);
    CHECK(memcmp(dxbc->parts[0].data, "12345678", 8) == 0);
    CHECK_EQ(dxbc->parts[1].kind, SB_DXBC_PART_RDAT);
    CHECK(sb_dxbc_find_part(dxbc, SB_FOURCC('R', 'D', 'A', 'T')) == &dxbc->parts[1]);
    CHECK(sb_dxbc_find_part(dxbc, SB_FOURCC('X', 'X', 'X', 'X')) == NULL);
    sb_dxbc_destroy(dxbc);

    /* A wrong digest is a warning, not a failure. */
    b.bytes[4] ^= 1;
    CHECK_EQ(sb_dxbc_parse(b.bytes, b.size, &dxbc, &error), SB_SUCCESS);
    CHECK(!dxbc->checksum_ok);
    CHECK_EQ(dxbc->digest_status, SB_DXBC_DIGEST_MISMATCH);
    CHECK_EQ(dxbc->warning_count, 1);
    CHECK_EQ(dxbc->warnings[0].offset, 4);
    sb_dxbc_destroy(dxbc);
    memset(b.bytes + 4, 0, 16);
    CHECK_EQ(sb_dxbc_parse(b.bytes, b.size, &dxbc, &error), SB_SUCCESS);
    CHECK_EQ(dxbc->digest_status, SB_DXBC_DIGEST_UNSIGNED);
    CHECK_EQ(dxbc->warning_count, 0);
    sb_dxbc_destroy(dxbc);
    memset(b.bytes + 4, 2, 16);
    CHECK_EQ(sb_dxbc_parse(b.bytes, b.size, &dxbc, &error), SB_SUCCESS);
    CHECK_EQ(dxbc->digest_status, SB_DXBC_DIGEST_PREVIEW_BYPASS);
    sb_dxbc_destroy(dxbc);

    b = make_container();
    b.bytes[0] = 'X';
    expect_error(&b, SB_ERROR_BAD_MAGIC, 0, "bad magic");

    b = make_container();
    b.size = 30;
    expect_error(&b, SB_ERROR_TRUNCATED, 28, "header cut inside the part count");

    /* A lying file-size field is reported, not fatal (LLVM ignores the field). */
    b = make_container();
    put32(b.bytes + 24, 4616);
    sb_dxbc_compute_checksum(b.bytes, b.size, b.bytes + 4);
    CHECK_EQ(sb_dxbc_parse(b.bytes, b.size, &dxbc, &error), SB_SUCCESS);
    CHECK_EQ(dxbc->file_size, 4616);
    CHECK_EQ(dxbc->size, 68);
    CHECK_EQ(dxbc->warning_count, 1);
    CHECK_EQ(dxbc->warnings[0].offset, 24);
    sb_dxbc_destroy(dxbc);

    /* An empty part of a decoded kind is left undecoded with a warning. */
    b = make_container();
    memcpy(b.bytes + 56, "HASH", 4);
    put32(b.bytes + 60, 0);
    b.size = 64;
    put32(b.bytes + 24, 64);
    sb_dxbc_compute_checksum(b.bytes, b.size, b.bytes + 4);
    CHECK_EQ(sb_dxbc_parse(b.bytes, b.size, &dxbc, &error), SB_SUCCESS);
    CHECK_EQ(dxbc->parts[1].kind, SB_DXBC_PART_HASH);
    CHECK(dxbc->parts[1].decoded.any == NULL);
    CHECK_EQ(dxbc->warning_count, 1);
    CHECK_EQ(dxbc->warnings[0].offset, 56);
    sb_dxbc_destroy(dxbc);

    /* An undecodable debug module (ILDB) is a warning; the same bytes as DXIL fail. */
    b = make_container();
    memcpy(b.bytes + 40, "ILDB", 4);
    sb_dxbc_compute_checksum(b.bytes, b.size, b.bytes + 4);
    CHECK_EQ(sb_dxbc_parse(b.bytes, b.size, &dxbc, &error), SB_SUCCESS);
    CHECK(dxbc->parts[0].decoded.program == NULL);
    CHECK_EQ(dxbc->warning_count, 1);
    sb_dxbc_destroy(dxbc);
    memcpy(b.bytes + 40, "DXIL", 4);
    expect_error(&b, SB_ERROR_TRUNCATED, 56, "8-byte DXIL part: its magic field is cut off");

    b = make_container();
    put32(b.bytes + 20, 2);
    expect_error(&b, SB_ERROR_BAD_VERSION, 20, "version 2");

    b = make_container();
    put32(b.bytes + 28, 0x40000000);
    expect_error(&b, SB_ERROR_BAD_COUNT, 32, "part count larger than the file");

    b = make_container();
    put32(b.bytes + 32, 36);
    expect_error(&b, SB_ERROR_BAD_OFFSET, 32, "part offset inside the offset table");

    b = make_container();
    put32(b.bytes + 36, 52);
    expect_error(&b, SB_ERROR_BAD_OFFSET, 36, "part overlapping the previous one");

    b = make_container();
    put32(b.bytes + 36, 64);
    expect_error(&b, SB_ERROR_BAD_OFFSET, 36, "part header past the end");

    b = make_container();
    put32(b.bytes + 60, 5);
    expect_error(&b, SB_ERROR_BAD_SIZE, 60, "part size past the end");

    b = make_container();
    memcpy(b.bytes + 40, "PSV0", 4);
    memcpy(b.bytes + 56, "PSV0", 4);
    expect_error(&b, SB_ERROR_DUPLICATE, 56, "two PSV0 parts");

    struct sb_dxbc *out = (struct sb_dxbc *)1;
    CHECK_EQ(sb_dxbc_parse(NULL, 4, &out, &error), SB_ERROR_INVALID_ARGUMENT);
    CHECK(out == NULL);
    CHECK_EQ(error.code, SB_ERROR_INVALID_ARGUMENT);
    CHECK_EQ(sb_dxbc_parse(b.bytes, b.size, NULL, NULL), SB_ERROR_INVALID_ARGUMENT);
    sb_dxbc_destroy(NULL);
}

/* Argument checks and the padding rule's two tails (rem <= 55: one final block;
 * rem >= 56: two); known answers against real signed files are in the corpus tests. */
static void test_checksum(void)
{
    uint8_t digest[16];
    CHECK_EQ(sb_dxbc_compute_checksum(NULL, 40, digest), SB_ERROR_INVALID_ARGUMENT);
    CHECK_EQ(sb_dxbc_compute_checksum("DXBC", 4, digest), SB_ERROR_INVALID_ARGUMENT);

    /* Same bytes, two lengths on each side of the 56-byte threshold: digests differ
     * and each is stable. */
    uint8_t data[20 + 64 + 60];
    for (size_t i = 0; i < sizeof(data); i++)
        data[i] = (uint8_t)(i * 7 + 3);
    uint8_t a[16], b[16], c[16];
    sb_dxbc_compute_checksum(data, 20 + 64 + 55, a);
    sb_dxbc_compute_checksum(data, 20 + 64 + 56, b);
    sb_dxbc_compute_checksum(data, 20 + 64 + 55, c);
    CHECK(memcmp(a, b, 16) != 0);
    CHECK(memcmp(a, c, 16) == 0);
    /* The digest field itself is not covered. */
    data[5] ^= 0xff;
    sb_dxbc_compute_checksum(data, 20 + 64 + 55, c);
    CHECK(memcmp(a, c, 16) == 0);
}

static void test_detect(void)
{
    CHECK_EQ(sb_format_detect("DXBC....", 8), SB_FORMAT_DXCONTAINER);
    CHECK_EQ(sb_format_detect("DVLB....", 8), SB_FORMAT_SHBIN);
    CHECK_EQ(sb_format_detect("VBC\1", 4), SB_FORMAT_VBC);
    CHECK_EQ(sb_format_detect("VBC", 3), SB_FORMAT_VBC);
    static const uint8_t spirv_le[] = { 0x03, 0x02, 0x23, 0x07 };
    static const uint8_t spirv_be[] = { 0x07, 0x23, 0x02, 0x03 };
    CHECK_EQ(sb_format_detect(spirv_le, 4), SB_FORMAT_SPIRV);
    CHECK_EQ(sb_format_detect(spirv_be, 4), SB_FORMAT_SPIRV);
    CHECK_EQ(sb_format_detect("DXB", 3), SB_FORMAT_UNKNOWN);
    CHECK_EQ(sb_format_detect(NULL, 8), SB_FORMAT_UNKNOWN);
    CHECK(strcmp(sb_format_name(SB_FORMAT_VBC), "vbc") == 0);
    CHECK_EQ(sb_format_detect("DDS |...", 8), SB_FORMAT_DDS);
    CHECK_EQ(sb_format_detect("DDS", 3), SB_FORMAT_UNKNOWN);
    CHECK(strcmp(sb_format_name(SB_FORMAT_DDS), "dds") == 0);
    CHECK(strcmp(sb_result_name(SB_ERROR_TRAILING_DATA), "SB_ERROR_TRAILING_DATA") == 0);
    CHECK(strcmp(sb_result_name((enum sb_result)-77), "SB_RESULT_UNKNOWN") == 0);
}

/* Every FourCC row maps back to itself and has a description. */
static void test_part_table(void)
{
    static const char *const known[] = { "RDEF", "ISGN", "OSGN", "OSG5", "PCSG", "ISG1",
                                         "OSG1", "PSG1", "SHDR", "SHEX", "STAT", "SFI0",
                                         "IFCE", "HASH", "PSV0", "RTS0", "DXIL", "ILDB",
                                         "VERS", "ILDN", "SRCI", "SYM0", "STR0", "RDAT",
                                         "PDBI", "PRIV", "Aon9", "XNAS", "XNAP", "FX10",
                                         "CTAB", "CLI4", "FXLC", "SDBG", "SPDB", "TEXT" };
    for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++) {
        const char *f = known[i];
        enum sb_dxbc_part_kind kind = sb_dxbc_part_kind_from_fourcc(SB_FOURCC(f[0], f[1], f[2], f[3]));
        CHECK(kind != SB_DXBC_PART_UNKNOWN);
        CHECK_EQ(kind, (long long)i + 1);
        CHECK(strcmp(sb_dxbc_part_kind_description(kind), "unknown part") != 0);
    }
    CHECK_EQ(sb_dxbc_part_kind_from_fourcc(SB_FOURCC('Z', 'Z', 'Z', 'Z')), SB_DXBC_PART_UNKNOWN);
}

int main(void)
{
    test_cursor();
    test_arena();
    test_arena_reuse();
    test_container();
    test_checksum();
    test_detect();
    test_part_table();
    printf("%d checks, %d failed\n", checks, failures);
    return failures ? 1 : 0;
}
