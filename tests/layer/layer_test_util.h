/* SPDX-License-Identifier: MIT */
/*
 * Helpers of the layer tests: check counting, file reading, the captured
 * stderr log the layer writes to (so a test can assert on its lines), and
 * counting files in a directory.
 */
#ifndef SB_LAYER_TEST_UTIL_H
#define SB_LAYER_TEST_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

extern int lt_failures, lt_checks;

#define CHECK(cond, ...)                                                                   \
    do {                                                                                   \
        lt_checks++;                                                                       \
        if (!(cond)) {                                                                     \
            lt_failures++;                                                                 \
            printf("FAIL %s:%d: ", __FILE__, __LINE__);                                    \
            printf(__VA_ARGS__);                                                           \
            printf("\n");                                                                  \
            fflush(stdout);                                                                \
        }                                                                                  \
    } while (0)

/* The whole file, malloc'd (4 zero bytes of slack past `size`); NULL on error. */
uint8_t *lt_read_file(const char *path, size_t *size);
bool lt_write_file(const char *path, const void *data, size_t size);
/* Sends stderr to `path` (the layer logs there) until lt_log_stop. */
bool lt_log_start(const char *path);
void lt_log_stop(void);
/* Occurrences of `needle` in the log so far. */
int lt_log_count(const char *needle);
/* Regular files in `dir` whose name ends in `suffix` ("" = all); -1 when unreadable. */
int lt_dir_count(const char *dir, const char *suffix);
/* The first such file's full path into `out`; false when none. */
bool lt_dir_first(const char *dir, const char *suffix, char *out, size_t size);
/* Removes the regular files in `dir` and creates it when missing. */
void lt_dir_reset(const char *dir);

#endif
