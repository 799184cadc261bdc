/* SPDX-License-Identifier: MIT */
/*
 * Helpers of the DXC-era part tests: the byte builder and container
 * writer of tests/common/dxc_container_writer.h, a program-part builder,
 * and checks that count failures instead of aborting, so one run
 * reports every broken expectation with its line.
 */
#ifndef SB_TEST_DXIL_UTIL_H
#define SB_TEST_DXIL_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "shaderbridge/dxbc.h"
#include "shaderbridge/dxbc_dxil.h"

#include "dxc_container_writer.h"

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
