/* SPDX-License-Identifier: MIT */
/*
 * sb_dxbc_parse_ex: SB_DXBC_PARSE_SKIP_CHECKSUM (what sb_translate uses to
 * skip the container MD5) must change only the digest verdict. Checked on a
 * container built here (valid and wrong digests, bad flags, a broken part
 * table) and, when the corpus is present, on every DXBC corpus file: the
 * same result code, parts, decoded parts and warnings (less the digest one)
 * as sb_dxbc_parse. Exit 0 pass, 1 failure, 77 corpus absent (after the
 * built-container checks passed). SB_DXBC_PARSE_TRANSLATION_PARTS (what
 * sb_translate adds) must leave the parts translation never reads undecoded.
 */
#define _POSIX_C_SOURCE 200809L

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shaderbridge/dxbc.h"
#include "shaderbridge/dxbc_fxc.h"

static int failures;

#define CHECK(cond)                                                                        \
    do {                                                                                   \
        if (!(cond)) {                                                                     \
            fprintf(stderr, "%s:%d: CHECK(%s) failed\n", __FILE__, __LINE__, #cond);         \
            failures++;                                                                    \
        }                                                                                  \
    } while (0)

static void put32(uint8_t *p, uint32_t v)
{
    for (unsigned i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

/* A two-part container (an unknown part and RDAT) with a valid digest. */
static size_t make_container(uint8_t bytes[68])
{
    memset(bytes, 0, 68);
    memcpy(bytes, "DXBC", 4);
    put32(bytes + 20, 1);
    put32(bytes + 24, 68);
    put32(bytes + 28, 2);
    put32(bytes + 32, 40);
    put32(bytes + 36, 56);
    memcpy(bytes + 40, "ABCD", 4);
    put32(bytes + 44, 8);
    memcpy(bytes + 48, "12345678", 8);
    memcpy(bytes + 56, "RDAT", 4);
    put32(bytes + 60, 4);
    memcpy(bytes + 64, "wxyz", 4);
    sb_dxbc_compute_checksum(bytes, 68, bytes + 4);
    return 68;
}

static void test_built(void)
{
    static const uint8_t zero[16];
    uint8_t bytes[68];
    size_t size = make_container(bytes);
    struct sb_dxbc *dxbc = NULL;
    struct sb_error error;

    CHECK(sb_dxbc_parse_ex(bytes, size, 0, &dxbc, &error) == SB_SUCCESS);
    CHECK(dxbc && dxbc->digest_status == SB_DXBC_DIGEST_VALID && dxbc->checksum_ok);
    sb_dxbc_destroy(dxbc);

    /* A wrong digest: sb_dxbc_parse warns, the skipping parse does not look. */
    bytes[4] ^= 1;
    CHECK(sb_dxbc_parse(bytes, size, &dxbc, &error) == SB_SUCCESS);
    CHECK(dxbc && dxbc->digest_status == SB_DXBC_DIGEST_MISMATCH && dxbc->warning_count == 1);
    sb_dxbc_destroy(dxbc);
    CHECK(sb_dxbc_parse_ex(bytes, size, SB_DXBC_PARSE_SKIP_CHECKSUM, &dxbc, &error) == SB_SUCCESS);
    CHECK(dxbc != NULL);
    if (dxbc) {
        CHECK(dxbc->digest_status == SB_DXBC_DIGEST_UNCHECKED);
        CHECK(!dxbc->checksum_ok);
        CHECK(memcmp(dxbc->computed_digest, zero, 16) == 0);
        CHECK(dxbc->digest[0] == bytes[4]);
        CHECK(dxbc->warning_count == 0);
        CHECK(dxbc->part_count == 2 && dxbc->parts[1].kind == SB_DXBC_PART_RDAT);
        CHECK(memcmp(dxbc->parts[0].data, "12345678", 8) == 0);
    }
    sb_dxbc_destroy(dxbc);
    CHECK(strcmp(sb_dxbc_digest_status_name(SB_DXBC_DIGEST_UNCHECKED), "unchecked") == 0);

    /* Borrowing: the parts point into the caller's buffer (into a copy when not borrowing). */
    CHECK(sb_dxbc_parse_ex(bytes, size, SB_DXBC_PARSE_BORROW_INPUT, &dxbc, &error) == SB_SUCCESS);
    CHECK(dxbc && dxbc->bytes == bytes && dxbc->parts[0].data == bytes + 48);
    CHECK(dxbc && dxbc->digest_status == SB_DXBC_DIGEST_MISMATCH);
    sb_dxbc_destroy(dxbc);
    CHECK(sb_dxbc_parse_ex(bytes, size, 0, &dxbc, &error) == SB_SUCCESS);
    CHECK(dxbc && dxbc->bytes != bytes && memcmp(dxbc->bytes, bytes, size) == 0);
    sb_dxbc_destroy(dxbc);

    /* Unknown flag bits and missing pointers are argument errors. */
    dxbc = (struct sb_dxbc *)&error;
    CHECK(sb_dxbc_parse_ex(bytes, size, 8, &dxbc, &error) == SB_ERROR_INVALID_ARGUMENT);
    CHECK(dxbc == NULL && error.code == SB_ERROR_INVALID_ARGUMENT);
    CHECK(sb_dxbc_parse_ex(NULL, size, 0, &dxbc, &error) == SB_ERROR_INVALID_ARGUMENT);

    /* Structural errors are the same with and without the checksum. */
    put32(bytes + 36, 44); /* second part starts inside the first */
    struct sb_error plain, skipped;
    CHECK(sb_dxbc_parse(bytes, size, &dxbc, &plain) == SB_ERROR_BAD_OFFSET);
    CHECK(sb_dxbc_parse_ex(bytes, size, SB_DXBC_PARSE_SKIP_CHECKSUM, &dxbc, &skipped) ==
          SB_ERROR_BAD_OFFSET);
    CHECK(plain.offset == skipped.offset && strcmp(plain.message, skipped.message) == 0);
    CHECK(dxbc == NULL);
}

/*
 * SB_DXBC_PARSE_TRANSLATION_PARTS: a 4-byte FXC STAT (too short for its
 * counters) is decoded with one warning by the full parse; translation never
 * reads STAT, so the translation parse leaves it undecoded (no warning) and
 * still decodes SFI0 (flags 0x20).
 */
static void test_translation_parts(void)
{
    uint8_t bytes[68];
    memset(bytes, 0, sizeof(bytes));
    memcpy(bytes, "DXBC", 4);
    put32(bytes + 20, 1);
    put32(bytes + 24, 68);
    put32(bytes + 28, 2);
    put32(bytes + 32, 40);
    put32(bytes + 36, 52);
    memcpy(bytes + 40, "STAT", 4);
    put32(bytes + 44, 4);
    memcpy(bytes + 52, "SFI0", 4);
    put32(bytes + 56, 8);
    put32(bytes + 60, 0x20);
    struct sb_dxbc *dxbc = NULL;
    struct sb_error error;
    CHECK(sb_dxbc_parse_ex(bytes, sizeof(bytes), SB_DXBC_PARSE_SKIP_CHECKSUM, &dxbc, &error) ==
          SB_SUCCESS);
    CHECK(dxbc && dxbc->parts[0].decoded.any != NULL && dxbc->warning_count == 1);
    sb_dxbc_destroy(dxbc);
    CHECK(sb_dxbc_parse_ex(bytes, sizeof(bytes),
                           SB_DXBC_PARSE_SKIP_CHECKSUM | SB_DXBC_PARSE_TRANSLATION_PARTS, &dxbc,
                           &error) == SB_SUCCESS);
    CHECK(dxbc && dxbc->part_count == 2);
    if (dxbc && dxbc->part_count == 2) {
        CHECK(dxbc->parts[0].kind == SB_DXBC_PART_STAT && dxbc->parts[0].decoded.any == NULL);
        CHECK(dxbc->parts[0].size == 4 && dxbc->warning_count == 0);
        CHECK(dxbc->parts[1].kind == SB_DXBC_PART_SFI0 && dxbc->parts[1].decoded.sfi0 &&
              dxbc->parts[1].decoded.sfi0->flags == 0x20);
    }
    sb_dxbc_destroy(dxbc);
}

/* A container of `count` parts, each a fourcc and its bytes, in `out` (digest zero). */
struct part_bytes {
    const char *fourcc;
    const uint8_t *data;
    uint32_t size;
};

static size_t build_container(uint8_t *out, size_t room, const struct part_bytes *parts,
                              uint32_t count)
{
    size_t at = 32 + 4 * (size_t)count;
    memset(out, 0, room);
    memcpy(out, "DXBC", 4);
    put32(out + 20, 1);
    put32(out + 28, count);
    for (uint32_t i = 0; i < count; i++) {
        put32(out + 32 + 4 * i, (uint32_t)at);
        memcpy(out + at, parts[i].fourcc, 4);
        put32(out + at + 4, parts[i].size);
        memcpy(out + at + 8, parts[i].data, parts[i].size);
        at += 8 + parts[i].size;
    }
    put32(out + 24, (uint32_t)at);
    return at;
}

/*
 * SB_DXBC_PARSE_TRANSLATION_PARTS of a DXIL container: translated from its DXIL part
 * alone, so SFI0 stays undecoded; decoded without the flag, and with it once the
 * container also holds an SM4/5 program (which translation then reads instead).
 */
static void test_dxil_translation_parts(void)
{
    CHECK(!sb_dxbc_is_dxil_only(NULL));
    /* Program header: version 6.0 (0x60), kind 0; 6 words; 'DXIL' 1.0; bitcode at 16
     * from the magic, 0 bytes. */
    static const uint8_t dxil[24] = { 0x60, 0, 0, 0, 6, 0, 0, 0, 'D', 'X', 'I', 'L',
                                      0, 1, 0, 0, 16, 0, 0, 0, 0, 0, 0, 0 };
    static const uint8_t sfi0[8] = { 0x20 };
    /* ps_5_0, two dwords: the version and length tokens alone. */
    static const uint8_t shex[8] = { 0x50, 0, 0, 0, 2, 0, 0, 0 };
    const struct part_bytes without_sm4[] = { { "DXIL", dxil, 24 }, { "SFI0", sfi0, 8 } };
    const struct part_bytes with_sm4[] = { { "DXIL", dxil, 24 }, { "SFI0", sfi0, 8 },
                                           { "SHEX", shex, 8 } };
    uint8_t bytes[160];
    const uint32_t translation = SB_DXBC_PARSE_SKIP_CHECKSUM | SB_DXBC_PARSE_TRANSLATION_PARTS;
    struct {
        const struct part_bytes *parts;
        uint32_t count, flags;
        bool sfi0_decoded, dxil_only;
    } cases[] = {
        { without_sm4, 2, translation, false, true },
        { without_sm4, 2, SB_DXBC_PARSE_SKIP_CHECKSUM, true, true },
        { with_sm4, 3, translation, true, false },
    };
    for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
        size_t size = build_container(bytes, sizeof(bytes), cases[c].parts, cases[c].count);
        struct sb_dxbc *dxbc = NULL;
        struct sb_error error;
        CHECK(sb_dxbc_parse_ex(bytes, size, cases[c].flags, &dxbc, &error) == SB_SUCCESS);
        CHECK(dxbc && dxbc->is_dxil && dxbc->part_count == cases[c].count);
        CHECK(sb_dxbc_is_dxil_only(dxbc) == cases[c].dxil_only);
        if (dxbc && dxbc->part_count == cases[c].count) {
            CHECK(dxbc->parts[0].kind == SB_DXBC_PART_DXIL && dxbc->parts[0].decoded.program);
            CHECK(dxbc->parts[1].kind == SB_DXBC_PART_SFI0 &&
                  (dxbc->parts[1].decoded.sfi0 != NULL) == cases[c].sfi0_decoded);
            if (dxbc->parts[1].decoded.sfi0)
                CHECK(dxbc->parts[1].decoded.sfi0->flags == 0x20);
        }
        sb_dxbc_destroy(dxbc);
    }
}

static uint8_t *read_file(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    uint8_t *data = NULL;
    long n = fseek(f, 0, SEEK_END) == 0 ? ftell(f) : -1;
    if (n >= 0 && fseek(f, 0, SEEK_SET) == 0 && (data = malloc(n ? (size_t)n : 1)) &&
        fread(data, 1, (size_t)n, f) != (size_t)n) {
        free(data);
        data = NULL;
    }
    fclose(f);
    *size = (size_t)(n > 0 ? n : 0);
    return data;
}

/* Both parses of one file agree on everything but the digest verdict. */
static void compare_file(const char *path, unsigned *compared)
{
    size_t size;
    uint8_t *data = read_file(path, &size);
    if (!data) {
        fprintf(stderr, "%s: cannot read\n", path);
        failures++;
        return;
    }
    struct sb_dxbc *a = NULL, *b = NULL;
    struct sb_error ea, eb;
    memset(&ea, 0, sizeof(ea));
    memset(&eb, 0, sizeof(eb));
    enum sb_result ra = sb_dxbc_parse(data, size, &a, &ea);
    enum sb_result rb = sb_dxbc_parse_ex(data, size, SB_DXBC_PARSE_SKIP_CHECKSUM, &b, &eb);
    CHECK(ra == rb);
    if (ra != SB_SUCCESS && ra == rb)
        CHECK(ea.offset == eb.offset && strcmp(ea.message, eb.message) == 0);
    if (a && b) {
        CHECK(b->digest_status == SB_DXBC_DIGEST_UNCHECKED);
        CHECK(a->part_count == b->part_count && a->is_dxil == b->is_dxil);
        for (uint32_t i = 0; i < a->part_count && i < b->part_count; i++) {
            CHECK(a->parts[i].kind == b->parts[i].kind && a->parts[i].size == b->parts[i].size);
            CHECK((a->parts[i].decoded.any == NULL) == (b->parts[i].decoded.any == NULL));
        }
        uint32_t digest_warnings = a->digest_status == SB_DXBC_DIGEST_MISMATCH ? 1 : 0;
        CHECK(a->warning_count == b->warning_count + digest_warnings);
        for (uint32_t i = 0, j = 0; i < a->warning_count && j < b->warning_count; i++) {
            if (a->warnings[i].offset == 4 && digest_warnings)
                continue;
            CHECK(a->warnings[i].offset == b->warnings[j].offset);
            CHECK(strcmp(a->warnings[i].message, b->warnings[j].message) == 0);
            j++;
        }
    }
    sb_dxbc_destroy(a);
    sb_dxbc_destroy(b);
    free(data);
    (*compared)++;
}

int main(int argc, char **argv)
{
    test_built();
    test_translation_parts();
    test_dxil_translation_parts();
    if (argc < 2) {
        fprintf(stderr, "usage: test_dxbc_parse_ex CORPUS_DIR\n");
        return 1;
    }
    char path[4096 + 8192];
    snprintf(path, sizeof(path), "%s/dxbc/MANIFEST.tsv", argv[1]);
    FILE *manifest = fopen(path, "r");
    if (!manifest) {
        printf("SKIPPED: corpus not found at %s (built-container checks: %d failures)\n", argv[1],
               failures);
        return failures ? 1 : 77;
    }
    char line[8192];
    unsigned compared = 0;
    while (fgets(line, sizeof(line), manifest)) {
        char *tab = strchr(line, '\t');
        if (!tab || !strncmp(line, "file\t", 5))
            continue;
        *tab = 0;
        snprintf(path, sizeof(path), "%s/dxbc/%s", argv[1], line);
        compare_file(path, &compared);
    }
    fclose(manifest);
    CHECK(compared > 1000);
    printf("%u corpus containers compared, %d failures\n", compared, failures);
    return failures ? 1 : 0;
}
