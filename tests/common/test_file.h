/* SPDX-License-Identifier: MIT */
/* File input for test programs, and whole reads and writes of a descriptor (the pipes
 * forked measuring children report through). */
#ifndef SB_TESTS_COMMON_TEST_FILE_H
#define SB_TESTS_COMMON_TEST_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/** The whole file (malloc'd, caller frees) and its size; NULL if it cannot be read. */
uint8_t *sb_test_read_file(const char *path, size_t *size);

/** Writes all `size` bytes to `fd` (retrying short writes); false on an error or a closed pipe. */
bool sb_test_write_all(int fd, const void *data, size_t size);
/** Reads exactly `size` bytes from `fd`; false on an error or end of file first. */
bool sb_test_read_all(int fd, void *data, size_t size);

#endif
