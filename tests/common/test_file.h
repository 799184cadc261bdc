/* SPDX-License-Identifier: MIT */
/* File input for test programs. */
#ifndef SB_TESTS_COMMON_TEST_FILE_H
#define SB_TESTS_COMMON_TEST_FILE_H

#include <stddef.h>
#include <stdint.h>

/** The whole file (malloc'd, caller frees) and its size; NULL if it cannot be read. */
uint8_t *sb_test_read_file(const char *path, size_t *size);

#endif
