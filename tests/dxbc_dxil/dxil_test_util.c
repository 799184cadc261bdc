/* SPDX-License-Identifier: MIT */
/* Helpers of the DXC-era part tests (see dxil_test_util.h). */
#include "dxil_test_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int test_failures;
int test_checks;

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
