/* SPDX-License-Identifier: MIT */
/*
 * DDS reader (shaderbridge/dds.h). Every file is written here by a small
 * writer from a spec, so no binary is committed: good files (2D RGBA8 with
 * mips, BC1 with sizes that are not multiples of 4, BC7 with the DX10
 * header, cube maps through DX10 and through legacy caps2, an array of 3
 * with mips, a volume) must parse with the expected layout; lying headers
 * must fail with the exact result code and byte offset of the field that
 * lies; every good file cut at every length must fail as truncated at the
 * first header DWORD or subresource that is not whole.
 *
 * Usage: test_dds [--write DIR]. With --write, the good files and one cut
 * file are written to DIR (seeds for the mutation test and the fuzzer, and
 * the CLI tests' inputs) and nothing is tested.
 */
#include "shaderbridge/dds.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

#define FCC(a, b, c, d) \
    ((uint32_t)(a) | ((uint32_t)(b) << 8) | ((uint32_t)(c) << 16) | ((uint32_t)(d) << 24))

/* What the writer puts in the headers; the data size is given by the caller. */
struct spec {
    uint32_t flags, width, height, depth, pitch, mips;
    uint32_t pf_flags, fourcc, bits, r, g, b, a;
    uint32_t caps, caps2;
    int dx10;
    uint32_t dxgi, dimension, misc, array, misc2;
    uint32_t header_size, pf_size; /* 0: the correct 124 / 32 */
    uint64_t data_size;
};

static void put32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
}

static uint8_t *write_dds(const struct spec *s, size_t *size)
{
    size_t head = s->dx10 ? 148 : 128;
    *size = head + (size_t)s->data_size;
    uint8_t *f = calloc(1, *size ? *size : 1);
    if (!f)
        abort();
    put32(f + 0, FCC('D', 'D', 'S', ' '));
    put32(f + 4, s->header_size ? s->header_size : 124);
    put32(f + 8, s->flags ? s->flags : 0x1007u); /* CAPS | HEIGHT | WIDTH | PIXELFORMAT */
    put32(f + 12, s->height);
    put32(f + 16, s->width);
    put32(f + 20, s->pitch);
    put32(f + 24, s->depth);
    put32(f + 28, s->mips);
    put32(f + 76, s->pf_size ? s->pf_size : 32);
    put32(f + 80, s->dx10 ? 0x4u : s->pf_flags);
    put32(f + 84, s->dx10 ? FCC('D', 'X', '1', '0') : s->fourcc);
    put32(f + 88, s->bits);
    put32(f + 92, s->r);
    put32(f + 96, s->g);
    put32(f + 100, s->b);
    put32(f + 104, s->a);
    put32(f + 108, s->caps ? s->caps : 0x1000u);
    put32(f + 112, s->caps2);
    if (s->dx10) {
        put32(f + 128, s->dxgi);
        put32(f + 132, s->dimension);
        put32(f + 136, s->misc);
        put32(f + 140, s->array);
        put32(f + 144, s->misc2);
    }
    for (size_t i = head; i < *size; i++)
        f[i] = (uint8_t)(i * 7u + 3u);
    return f;
}

/* Independent sizing: bytes of a mip chain of one slice. */
static uint64_t chain_size(uint32_t w, uint32_t h, uint32_t d, uint32_t mips, uint32_t bits,
                           uint32_t block)
{
    uint64_t total = 0;
    for (uint32_t m = 0; m < mips; m++) {
        uint64_t lw = w >> m ? w >> m : 1, lh = h >> m ? h >> m : 1, ld = d >> m ? d >> m : 1;
        if (block)
            total += ((lw + 3) / 4) * ((lh + 3) / 4) * block * ld;
        else
            total += (lw * bits + 7) / 8 * lh * ld;
    }
    return total;
}

/* The good files. */
static struct spec rgba8_mips(void)
{
    return (struct spec){ .flags = 0x2100Fu, .width = 8, .height = 4, .pitch = 32, .mips = 4,
                          .pf_flags = 0x41, .bits = 32, .r = 0xFF, .g = 0xFF00, .b = 0xFF0000,
                          .a = 0xFF000000u, .data_size = 128 + 32 + 8 + 4 };
}

static struct spec bc1_odd(void)
{
    /* 5x3: 2x1 blocks (16 bytes), then 2x1 and 1x1: one block each. */
    return (struct spec){ .width = 5, .height = 3, .mips = 3, .pf_flags = 0x4,
                          .fourcc = FCC('D', 'X', 'T', '1'), .data_size = 16 + 8 + 8 };
}

static struct spec bc7_dx10(void)
{
    return (struct spec){ .width = 13, .height = 9, .mips = 1, .dx10 = 1, .dxgi = 98,
                          .dimension = 3, .array = 1, .data_size = 4 * 3 * 16 };
}

static struct spec cube_dx10(void)
{
    return (struct spec){ .width = 4, .height = 4, .mips = 3, .dx10 = 1, .dxgi = 87,
                          .dimension = 3, .misc = 4, .array = 1,
                          .data_size = 6 * (64 + 16 + 4) };
}

static struct spec cube_legacy(void)
{
    return (struct spec){ .width = 8, .height = 8, .mips = 1, .pf_flags = 0x4,
                          .fourcc = FCC('D', 'X', 'T', '5'), .caps2 = 0xFE00u,
                          .data_size = 6 * 4 * 16 };
}

static struct spec array3(void)
{
    return (struct spec){ .width = 16, .height = 8, .mips = 5, .dx10 = 1, .dxgi = 10,
                          .dimension = 3, .array = 3,
                          .data_size = 3 * chain_size(16, 8, 1, 5, 64, 0) };
}

static struct spec volume(void)
{
    return (struct spec){ .flags = 0x80100Fu, .width = 4, .height = 4, .depth = 8, .mips = 4,
                          .pf_flags = 0x41, .bits = 32, .r = 0xFF0000, .g = 0xFF00, .b = 0xFF,
                          .a = 0xFF000000u, .caps2 = 0x200000u,
                          .data_size = chain_size(4, 4, 8, 4, 32, 0) };
}

static struct spec float_legacy(void)
{
    /* D3DFMT_A32B32G32R32F (116) as a FourCC number. */
    return (struct spec){ .width = 3, .height = 2, .mips = 2, .pf_flags = 0x4, .fourcc = 116,
                          .data_size = chain_size(3, 2, 1, 2, 128, 0) };
}

static const struct {
    const char *name;
    struct spec (*make)(void);
} good_files[] = {
    { "rgba8_mips", rgba8_mips }, { "bc1_odd", bc1_odd },       { "bc7_dx10", bc7_dx10 },
    { "cube_dx10", cube_dx10 },   { "cube_legacy", cube_legacy }, { "array3", array3 },
    { "volume", volume },         { "float_legacy", float_legacy },
};
#define GOOD_COUNT (sizeof(good_files) / sizeof(good_files[0]))

static struct sb_dds *parse_good(const char *label, const struct spec *s, uint8_t **bytes,
                                 size_t *size)
{
    *bytes = write_dds(s, size);
    struct sb_dds *dds = NULL;
    struct sb_error error = { 0 };
    enum sb_result r = sb_dds_parse(*bytes, *size, &dds, &error);
    CHECK(r == SB_SUCCESS && dds, "%s: %s at %llu: %s", label, sb_result_name(r),
          (unsigned long long)error.offset, error.message);
    return dds;
}

/* Common layout invariants of a parsed file: contiguous, in order, inside the input. */
static void check_layout(const char *label, const struct sb_dds *d, const uint8_t *bytes,
                         size_t size)
{
    uint64_t at = d->data_offset;
    CHECK(d->subresource_count == d->array_size * d->face_count * d->mip_count, "%s: count",
          label);
    for (uint32_t i = 0; i < d->subresource_count; i++) {
        const struct sb_dds_subresource *s = &d->subresources[i];
        CHECK(s->offset == at && s->data == bytes + at, "%s: subresource %u at %llu", label, i,
              (unsigned long long)s->offset);
        CHECK(s->mip == i % d->mip_count, "%s: mip order", label);
        CHECK(s->face == (i / d->mip_count) % d->face_count, "%s: face order", label);
        CHECK(s->array_index == i / d->mip_count / d->face_count, "%s: element order", label);
        CHECK(s->size == s->slice_size * s->depth &&
                  s->slice_size == (uint64_t)s->row_pitch * s->row_count,
              "%s: sizes", label);
        at += s->size;
    }
    CHECK(at == d->data_offset + d->data_size && at + d->trailing_size == size,
          "%s: total %llu of %zu", label, (unsigned long long)at, size);
}

static void test_good(void)
{
    for (size_t i = 0; i < GOOD_COUNT; i++) {
        struct spec s = good_files[i].make();
        uint8_t *bytes;
        size_t size;
        struct sb_dds *d = parse_good(good_files[i].name, &s, &bytes, &size);
        if (d) {
            check_layout(good_files[i].name, d, bytes, size);
            CHECK(d->trailing_size == 0, "%s: trailing %llu", good_files[i].name,
                  (unsigned long long)d->trailing_size);
        }
        sb_dds_destroy(d);
        free(bytes);
    }

    uint8_t *bytes;
    size_t size;
    struct spec s = rgba8_mips();
    struct sb_dds *d = parse_good("rgba8", &s, &bytes, &size);
    if (d) {
        CHECK(d->dxgi_format == 28 && !strcmp(sb_dds_format_name(d->dxgi_format), "R8G8B8A8_UNORM"),
              "rgba8: format %u", d->dxgi_format);
        CHECK(d->mip_count == 4 && d->dimension == SB_DDS_DIMENSION_2D && !d->cube &&
                  d->data_offset == 128,
              "rgba8: shape");
        CHECK(d->subresources[0].row_pitch == 32 && d->subresources[1].width == 4 &&
                  d->subresources[1].height == 2 && d->subresources[3].size == 4 &&
                  d->subresources[3].offset == 128 + 128 + 32 + 8,
              "rgba8: levels");
    }
    sb_dds_destroy(d);
    free(bytes);

    s = bc1_odd();
    d = parse_good("bc1", &s, &bytes, &size);
    if (d) {
        CHECK(d->dxgi_format == 71 && d->block_compressed && d->block_size == 8, "bc1: format");
        CHECK(d->subresources[0].row_pitch == 16 && d->subresources[0].row_count == 1 &&
                  d->subresources[0].size == 16 && d->subresources[2].width == 1 &&
                  d->subresources[2].size == 8,
              "bc1: blocks rounded up");
    }
    sb_dds_destroy(d);
    free(bytes);

    s = bc7_dx10();
    d = parse_good("bc7", &s, &bytes, &size);
    if (d) {
        CHECK(d->has_dx10 && d->dxgi_format == 98 && d->data_offset == 148 &&
                  d->subresources[0].row_pitch == 64 && d->subresources[0].row_count == 3,
              "bc7: layout");
        CHECK(!strcmp(sb_dds_format_name(98), "BC7_UNORM"), "bc7: name");
    }
    sb_dds_destroy(d);
    free(bytes);

    s = cube_dx10();
    d = parse_good("cube_dx10", &s, &bytes, &size);
    if (d)
        CHECK(d->cube && d->face_count == 6 && d->array_size == 1 && d->subresource_count == 18 &&
                  d->subresources[3].face == 1 && d->subresources[3].mip == 0 &&
                  d->subresources[3].offset == 148 + 84,
              "cube_dx10: faces");
    sb_dds_destroy(d);
    free(bytes);

    s = cube_legacy();
    d = parse_good("cube_legacy", &s, &bytes, &size);
    if (d)
        CHECK(d->cube && d->face_count == 6 && d->dxgi_format == 77 && d->subresource_count == 6,
              "cube_legacy: faces");
    sb_dds_destroy(d);
    free(bytes);

    s = array3();
    d = parse_good("array3", &s, &bytes, &size);
    if (d)
        CHECK(d->array_size == 3 && d->subresource_count == 15 &&
                  d->subresources[5].array_index == 1 && d->subresources[5].mip == 0 &&
                  d->subresources[14].width == 1 && d->subresources[14].height == 1,
              "array3: elements");
    sb_dds_destroy(d);
    free(bytes);

    s = volume();
    d = parse_good("volume", &s, &bytes, &size);
    if (d)
        CHECK(d->dimension == SB_DDS_DIMENSION_3D && d->depth == 8 && d->dxgi_format == 87 &&
                  d->subresources[0].size == 4 * 4 * 4 * 8 && d->subresources[3].depth == 1 &&
                  d->subresources[2].depth == 2,
              "volume: slices");
    sb_dds_destroy(d);
    free(bytes);

    s = float_legacy();
    d = parse_good("float", &s, &bytes, &size);
    if (d)
        CHECK(d->dxgi_format == 2 && d->subresources[0].row_pitch == 48, "float: format");
    sb_dds_destroy(d);
    free(bytes);

    /* Trailing bytes are allowed and counted; BGRX with a stray alpha mask maps to BGRX. */
    s = rgba8_mips();
    s.data_size += 5;
    d = parse_good("trailing", &s, &bytes, &size);
    if (d)
        CHECK(d->trailing_size == 5, "trailing: %llu", (unsigned long long)d->trailing_size);
    sb_dds_destroy(d);
    free(bytes);
    s = volume();
    s.pf_flags = 0x40;
    s.caps2 = 0;
    s.mips = 1;
    s.data_size = 64;
    d = parse_good("bgrx", &s, &bytes, &size);
    if (d)
        CHECK(d->dxgi_format == 88, "bgrx: format %u", d->dxgi_format);
    sb_dds_destroy(d);
    free(bytes);
}

static void expect_fail(const char *label, const uint8_t *bytes, size_t size,
                        enum sb_result code, uint64_t offset)
{
    struct sb_dds *dds = (struct sb_dds *)(uintptr_t)1;
    struct sb_error error = { 0 };
    enum sb_result r = sb_dds_parse(bytes, size, &dds, &error);
    CHECK(r == code && dds == NULL && error.code == code && error.offset == offset &&
              error.message[0] != 0,
          "%s: got %s at %llu (%s), expected %s at %llu", label, sb_result_name(r),
          (unsigned long long)error.offset, error.message, sb_result_name(code),
          (unsigned long long)offset);
    if (r == SB_SUCCESS && dds != (struct sb_dds *)(uintptr_t)1)
        sb_dds_destroy(dds);
}

static void expect_spec_fail(const char *label, const struct spec *s, enum sb_result code,
                             uint64_t offset, const char *needle)
{
    size_t size;
    uint8_t *bytes = write_dds(s, &size);
    expect_fail(label, bytes, size, code, offset);
    if (needle) {
        struct sb_dds *dds = NULL;
        struct sb_error error = { 0 };
        sb_dds_parse(bytes, size, &dds, &error);
        CHECK(strstr(error.message, needle), "%s: message '%s' lacks '%s'", label, error.message,
              needle);
        sb_dds_destroy(dds);
    }
    free(bytes);
}

static void test_lying(void)
{
    struct spec s;
    s = rgba8_mips();
    size_t size;
    uint8_t *bytes = write_dds(&s, &size);
    bytes[3] = 'X';
    expect_fail("bad magic", bytes, size, SB_ERROR_BAD_MAGIC, 0);
    free(bytes);

    s = rgba8_mips(); s.header_size = 123;
    expect_spec_fail("header size", &s, SB_ERROR_BAD_SIZE, 4, "124");
    s = rgba8_mips(); s.pf_size = 24;
    expect_spec_fail("pixelformat size", &s, SB_ERROR_BAD_SIZE, 76, "32");
    s = rgba8_mips(); s.width = 0;
    expect_spec_fail("width 0", &s, SB_ERROR_BAD_VALUE, 16, NULL);
    s = rgba8_mips(); s.width = 16385; s.mips = 1;
    expect_spec_fail("width huge", &s, SB_ERROR_BAD_VALUE, 16, NULL);
    s = rgba8_mips(); s.height = 0x80000000u; s.mips = 1;
    expect_spec_fail("height huge", &s, SB_ERROR_BAD_VALUE, 12, NULL);
    s = rgba8_mips(); s.height = 0;
    expect_spec_fail("height 0", &s, SB_ERROR_BAD_VALUE, 12, NULL);
    s = volume(); s.depth = 0;
    expect_spec_fail("depth 0", &s, SB_ERROR_BAD_VALUE, 24, NULL);
    s = volume(); s.depth = 4096; s.mips = 1;
    expect_spec_fail("depth huge", &s, SB_ERROR_BAD_VALUE, 24, NULL);
    s = rgba8_mips(); s.mips = 5;
    expect_spec_fail("mips 5 of 8x4", &s, SB_ERROR_BAD_COUNT, 28, NULL);
    s = rgba8_mips(); s.mips = 0xFFFFFFFFu;
    expect_spec_fail("mips absurd", &s, SB_ERROR_BAD_COUNT, 28, NULL);
    s = bc1_odd(); s.fourcc = FCC('X', 'Y', 'Z', 'W');
    expect_spec_fail("unknown fourcc", &s, SB_ERROR_BAD_VALUE, 84, "XYZW");
    s = bc7_dx10(); s.dxgi = 1; /* R32G32B32A32_TYPELESS */
    expect_spec_fail("unknown dxgi", &s, SB_ERROR_BAD_VALUE, 128, "DXGI format 1");
    s = bc7_dx10(); s.dxgi = 0x7FFFFFFFu;
    expect_spec_fail("dxgi out of range", &s, SB_ERROR_BAD_VALUE, 128, NULL);
    s = rgba8_mips(); s.bits = 24; s.r = 0xFF0000; s.g = 0xFF00; s.b = 0xFF; s.a = 0;
    expect_spec_fail("24-bit rgb", &s, SB_ERROR_BAD_VALUE, 80, "24 bits");
    s = cube_legacy(); s.caps2 = 0x200 | 0x7C00;
    expect_spec_fail("cube 5 faces", &s, SB_ERROR_BAD_VALUE, 112, NULL);
    s = cube_legacy(); s.caps2 |= 0x200000u;
    expect_spec_fail("cube and volume", &s, SB_ERROR_BAD_VALUE, 112, NULL);
    s = cube_dx10(); s.height = 2; s.mips = 1;
    expect_spec_fail("cube not square", &s, SB_ERROR_BAD_VALUE, 16, NULL);
    s = cube_dx10(); s.dimension = 4;
    expect_spec_fail("cube 3D", &s, SB_ERROR_BAD_VALUE, 136, NULL);
    s = cube_dx10(); s.array = 342;
    expect_spec_fail("cube array too big", &s, SB_ERROR_BAD_VALUE, 140, NULL);
    s = bc7_dx10(); s.dimension = 5;
    expect_spec_fail("dimension 5", &s, SB_ERROR_BAD_VALUE, 132, NULL);
    s = bc7_dx10(); s.dimension = 1; /* D3D10_RESOURCE_DIMENSION_BUFFER */
    expect_spec_fail("dimension buffer", &s, SB_ERROR_BAD_VALUE, 132, NULL);
    s = bc7_dx10(); s.dimension = 2;
    expect_spec_fail("1D with height", &s, SB_ERROR_BAD_VALUE, 12, NULL);
    s = bc7_dx10(); s.array = 0;
    expect_spec_fail("array 0", &s, SB_ERROR_BAD_VALUE, 140, NULL);
    s = bc7_dx10(); s.dimension = 4; s.depth = 2; s.array = 2;
    expect_spec_fail("volume array", &s, SB_ERROR_BAD_VALUE, 140, NULL);
    s = rgba8_mips(); s.pitch = 33;
    expect_spec_fail("pitch", &s, SB_ERROR_BAD_SIZE, 20, NULL);
    s = rgba8_mips(); s.data_size -= 1;
    expect_spec_fail("data one byte short", &s, SB_ERROR_TRUNCATED, 128 + 128 + 32 + 8, "mip 3");
    /* The biggest texture the limits allow, with no data: sized in 64 bits, nothing allocated. */
    s = bc7_dx10(); s.dxgi = 2; s.width = 16384; s.height = 16384; s.mips = 15; s.array = 2048;
    s.data_size = 0;
    expect_spec_fail("huge, no data", &s, SB_ERROR_TRUNCATED, 148, NULL);
    s = bc7_dx10(); s.dxgi = 2; s.dimension = 4; s.width = 16384; s.height = 16384;
    s.depth = 2048; s.mips = 15; s.data_size = 16;
    expect_spec_fail("huge volume", &s, SB_ERROR_TRUNCATED, 148, NULL);

    /* Arguments. */
    struct sb_dds *dds = NULL;
    struct sb_error error = { 0 };
    CHECK(sb_dds_parse(NULL, 0, &dds, &error) == SB_ERROR_INVALID_ARGUMENT && !dds, "NULL data");
    CHECK(sb_dds_parse("DDS ", 4, NULL, &error) == SB_ERROR_INVALID_ARGUMENT, "NULL out");
    sb_dds_destroy(NULL);
    CHECK(!strcmp(sb_dds_format_name(0), "UNKNOWN") && !strcmp(sb_dds_format_name(71), "BC1_UNORM"),
          "format names");
}

/* Every cut of every good file: truncated at the DWORD or subresource that is not whole. */
static void test_truncation(void)
{
    unsigned cuts = 0;
    for (size_t i = 0; i < GOOD_COUNT; i++) {
        struct spec s = good_files[i].make();
        uint8_t *bytes;
        size_t size;
        struct sb_dds *d = parse_good(good_files[i].name, &s, &bytes, &size);
        if (!d) {
            free(bytes);
            continue;
        }
        for (size_t cut = 0; cut < size; cut++) {
            uint64_t expected = cut & ~(size_t)3;
            if (cut >= d->data_offset) {
                uint32_t k = 0;
                while (d->subresources[k].offset + d->subresources[k].size <= cut)
                    k++;
                expected = d->subresources[k].offset;
            }
            /* A copy of exactly `cut` bytes, so ASan sees any read past it. */
            uint8_t *copy = malloc(cut ? cut : 1);
            if (!copy)
                abort();
            memcpy(copy, bytes, cut);
            char label[64];
            snprintf(label, sizeof(label), "%s cut at %zu", good_files[i].name, cut);
            expect_fail(label, copy, cut, SB_ERROR_TRUNCATED, expected);
            free(copy);
            cuts++;
        }
        sb_dds_destroy(d);
        free(bytes);
    }
    CHECK(cuts > 1000, "only %u cuts", cuts);
    printf("test_dds: %u truncations checked\n", cuts);
}

/* The good files, and bc1_odd one byte short (truncated.dds, for the CLI test). */
static int write_seeds(const char *dir)
{
    for (size_t i = 0; i <= GOOD_COUNT; i++) {
        struct spec s = good_files[i < GOOD_COUNT ? i : 1].make();
        if (i == GOOD_COUNT)
            s.data_size--;
        size_t size;
        uint8_t *bytes = write_dds(&s, &size);
        char path[1024];
        snprintf(path, sizeof(path), "%s/%s.dds", dir,
                 i < GOOD_COUNT ? good_files[i].name : "truncated");
        FILE *f = fopen(path, "wb");
        if (!f || fwrite(bytes, 1, size, f) != size) {
            fprintf(stderr, "test_dds: cannot write %s\n", path);
            if (f)
                fclose(f);
            free(bytes);
            return 1;
        }
        fclose(f);
        free(bytes);
    }
    return 0;
}

int main(int argc, char **argv)
{
    if (argc == 3 && !strcmp(argv[1], "--write"))
        return write_seeds(argv[2]);
    test_good();
    test_lying();
    test_truncation();
    if (failures)
        fprintf(stderr, "test_dds: %u failures\n", failures);
    else
        printf("test_dds: all checks passed\n");
    return failures ? 1 : 0;
}
