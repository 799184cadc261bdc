/* SPDX-License-Identifier: MIT */
/* Helpers of the DXC-era part tests (see dxil_test_util.h). */
#include "dxil_test_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int test_failures;
int test_checks;

static void reserve(struct tbuf *b, size_t extra)
{
    if (b->size + extra <= b->capacity)
        return;
    size_t capacity = b->capacity ? b->capacity * 2 : 64;
    while (capacity < b->size + extra)
        capacity *= 2;
    uint8_t *grown = realloc(b->data, capacity);
    if (!grown) {
        fprintf(stderr, "out of memory\n");
        exit(1);
    }
    b->data = grown;
    b->capacity = capacity;
}

void tb_bytes(struct tbuf *b, const void *bytes, size_t size)
{
    reserve(b, size);
    if (size)
        memcpy(b->data + b->size, bytes, size);
    b->size += size;
}

void tb_u8(struct tbuf *b, uint8_t v) { tb_bytes(b, &v, 1); }

void tb_u16(struct tbuf *b, uint16_t v)
{
    uint8_t x[2] = { (uint8_t)v, (uint8_t)(v >> 8) };
    tb_bytes(b, x, 2);
}

void tb_u32(struct tbuf *b, uint32_t v)
{
    uint8_t x[4] = { (uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24) };
    tb_bytes(b, x, 4);
}

void tb_f32(struct tbuf *b, float v)
{
    uint32_t bits;
    memcpy(&bits, &v, 4);
    tb_u32(b, bits);
}

void tb_str(struct tbuf *b, const char *s) { tb_bytes(b, s, strlen(s) + 1); }

void tb_align4(struct tbuf *b)
{
    while (b->size % 4)
        tb_u8(b, 0);
}

void tb_set_u32(struct tbuf *b, size_t offset, uint32_t v)
{
    for (unsigned i = 0; i < 4; i++)
        b->data[offset + i] = (uint8_t)(v >> (8 * i));
}

void tb_free(struct tbuf *b)
{
    free(b->data);
    memset(b, 0, sizeof(*b));
}

uint32_t part_data_offset(const struct tpart *parts, unsigned count, unsigned index)
{
    uint32_t offset = SB_DXBC_HEADER_SIZE + 4 * count;
    for (unsigned i = 0; i < index; i++)
        offset += 8 + (uint32_t)parts[i].data->size;
    return offset + 8;
}

struct tbuf make_container(const struct tpart *parts, unsigned count)
{
    struct tbuf b = { 0 };
    tb_bytes(&b, "DXBC", 4);
    for (unsigned i = 0; i < 16; i++)
        tb_u8(&b, 0);
    tb_u16(&b, 1);
    tb_u16(&b, 0);
    tb_u32(&b, 0); /* file size, set below */
    tb_u32(&b, count);
    for (unsigned i = 0; i < count; i++)
        tb_u32(&b, part_data_offset(parts, count, i) - 8);
    for (unsigned i = 0; i < count; i++) {
        tb_u32(&b, parts[i].fourcc);
        tb_u32(&b, (uint32_t)parts[i].data->size);
        tb_bytes(&b, parts[i].data->data, parts[i].data->size);
    }
    tb_set_u32(&b, 24, (uint32_t)b.size);
    sb_dxbc_compute_checksum(b.data, b.size, b.data + 4);
    return b;
}

struct sb_dxbc *parse_ok(const struct tbuf *file, int line)
{
    struct sb_dxbc *dxbc = NULL;
    struct sb_error error = { 0 };
    enum sb_result r = sb_dxbc_parse(file->data, file->size, &dxbc, &error);
    test_checks++;
    if (r != SB_SUCCESS) {
        test_failures++;
        fprintf(stderr, "line %d: parse failed: %s at %llu: %s\n", line, sb_result_name(r),
                (unsigned long long)error.offset, error.message);
        return NULL;
    }
    return dxbc;
}

void parse_fails(const struct tbuf *file, enum sb_result code, uint64_t offset, int line)
{
    struct sb_dxbc *dxbc = NULL;
    struct sb_error error = { 0 };
    enum sb_result r = sb_dxbc_parse(file->data, file->size, &dxbc, &error);
    test_checks++;
    if (r != code || error.offset != offset || dxbc) {
        test_failures++;
        fprintf(stderr, "line %d: expected %s at %llu, got %s at %llu (%s)\n", line,
                sb_result_name(code), (unsigned long long)offset, sb_result_name(r),
                (unsigned long long)error.offset, r ? error.message : "no error");
    }
    sb_dxbc_destroy(dxbc);
}

void parts_fail(const struct tpart *parts, unsigned count, unsigned index, uint64_t delta,
                enum sb_result code, int line)
{
    struct tbuf file = make_container(parts, count);
    parse_fails(&file, code, part_data_offset(parts, count, index) + delta, line);
    tb_free(&file);
}

void check_true(bool ok, const char *what, int line)
{
    test_checks++;
    if (!ok) {
        test_failures++;
        fprintf(stderr, "line %d: check failed: %s\n", line, what);
    }
}

void check_u64(uint64_t got, uint64_t want, const char *what, int line)
{
    test_checks++;
    if (got != want) {
        test_failures++;
        fprintf(stderr, "line %d: %s is %llu (0x%llx), expected %llu (0x%llx)\n", line, what,
                (unsigned long long)got, (unsigned long long)got, (unsigned long long)want,
                (unsigned long long)want);
    }
}

void check_str(const char *got, const char *want, const char *what, int line)
{
    test_checks++;
    if (!got || !want ? got != want : strcmp(got, want) != 0) {
        test_failures++;
        fprintf(stderr, "line %d: %s is \"%s\", expected \"%s\"\n", line, what,
                got ? got : "(null)", want ? want : "(null)");
    }
}

int test_finish(const char *name)
{
    printf("%s: %d checks, %d failures\n", name, test_checks, test_failures);
    return test_failures ? 1 : 0;
}

struct tbuf program_part(uint16_t kind, uint32_t bitcode_size)
{
    struct tbuf b = { 0 };
    tb_u8(&b, 0x65);
    tb_u8(&b, 0);
    tb_u16(&b, kind);
    tb_u32(&b, 6 + (bitcode_size + 3) / 4);
    tb_bytes(&b, "DXIL", 4);
    tb_u8(&b, 7); /* DXIL minor */
    tb_u8(&b, 1); /* DXIL major */
    tb_u16(&b, 0);
    tb_u32(&b, 16);
    tb_u32(&b, bitcode_size);
    static const uint8_t bc[8] = { 'B', 'C', 0xC0, 0xDE, 0x35, 0x14, 0, 0 };
    for (uint32_t i = 0; i < bitcode_size; i++)
        tb_u8(&b, bc[i % 8]);
    tb_align4(&b);
    return b;
}
