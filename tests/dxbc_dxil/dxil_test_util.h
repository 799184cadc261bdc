/* SPDX-License-Identifier: MIT */
/*
 * Helpers of the DXC-era part tests: a little-endian byte builder, a
 * container writer (parts wrapped in a DXBC header with a correct
 * checksum) and checks that count failures instead of aborting, so one run
 * reports every broken expectation with its line.
 */
#ifndef SB_TEST_DXIL_UTIL_H
#define SB_TEST_DXIL_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "shaderbridge/dxbc.h"
#include "shaderbridge/dxbc_dxil.h"

/** A growable byte buffer; all writes are little-endian. */
struct tbuf {
    uint8_t *data;
    size_t size;
    size_t capacity;
};

void tb_u8(struct tbuf *b, uint8_t v);
void tb_u16(struct tbuf *b, uint16_t v);
void tb_u32(struct tbuf *b, uint32_t v);
void tb_f32(struct tbuf *b, float v);
void tb_bytes(struct tbuf *b, const void *bytes, size_t size);
/** Writes the string and its NUL. */
void tb_str(struct tbuf *b, const char *s);
/** Pads with zeros to a multiple of 4. */
void tb_align4(struct tbuf *b);
/** Overwrites a u32 already written at `offset`. */
void tb_set_u32(struct tbuf *b, size_t offset, uint32_t v);
void tb_free(struct tbuf *b);

/** One part to put in a container. */
struct tpart {
    uint32_t fourcc;
    const struct tbuf *data;
};

/** Builds a signed container of `count` parts (placed back to back). */
struct tbuf make_container(const struct tpart *parts, unsigned count);
/** File offset of part `index`'s data in a container made by make_container(). */
uint32_t part_data_offset(const struct tpart *parts, unsigned count, unsigned index);

/** Parses; records a failure (and returns NULL) unless it succeeds. */
struct sb_dxbc *parse_ok(const struct tbuf *file, int line);
/** Parses; records a failure unless it fails with `code` at `offset`. */
void parse_fails(const struct tbuf *file, enum sb_result code, uint64_t offset, int line);
/** Wraps `parts`, expects failure with `code` at data offset of part `index` + `delta`. */
void parts_fail(const struct tpart *parts, unsigned count, unsigned index, uint64_t delta,
                enum sb_result code, int line);

/** A program part (DXIL/ILDB/STAT): SM 6.5, DXIL 1.7, `bitcode_size` bytes of
 *  bitcode starting with 'B' 'C' 0xC0 0xDE, padded to 4 bytes. */
struct tbuf program_part(uint16_t kind, uint32_t bitcode_size);

extern int test_failures;
extern int test_checks;
void check_true(bool ok, const char *what, int line);
void check_u64(uint64_t got, uint64_t want, const char *what, int line);
void check_str(const char *got, const char *want, const char *what, int line);

#define CHECK(c) check_true((c), #c, __LINE__)
#define CHECK_EQ(got, want) check_u64((uint64_t)(got), (uint64_t)(want), #got, __LINE__)
#define CHECK_STR(got, want) check_str((got), (want), #got, __LINE__)

/** Prints the summary; returns the process exit code. */
int test_finish(const char *name);

#endif
