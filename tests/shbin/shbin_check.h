/* SPDX-License-Identifier: MIT */
/*
 * Minimal assertion macros for the SHBIN tests: each failed check prints
 * file:line, the expression, the value found and the value expected, and
 * counts; a test's main() returns check_result() at the end so one run
 * reports every mismatch instead of stopping at the first.
 */
#ifndef SB_TESTS_SHBIN_CHECK_H
#define SB_TESTS_SHBIN_CHECK_H

#include <stdio.h>
#include <string.h>

static int check_failures;
static int check_count;

#define CHECK(cond)                                                                      \
    do {                                                                                 \
        check_count++;                                                                   \
        if (!(cond)) {                                                                   \
            fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond);     \
            check_failures++;                                                            \
        }                                                                                \
    } while (0)

#define CHECK_EQ(found, expected)                                                        \
    do {                                                                                 \
        unsigned long long found_ = (unsigned long long)(found);                         \
        unsigned long long expected_ = (unsigned long long)(expected);                   \
        check_count++;                                                                   \
        if (found_ != expected_) {                                                       \
            fprintf(stderr, "%s:%d: %s is %llu (0x%llx), expected %llu (0x%llx)\n",      \
                    __FILE__, __LINE__, #found, found_, found_, expected_, expected_);   \
            check_failures++;                                                            \
        }                                                                                \
    } while (0)

#define CHECK_STR(found, expected)                                                       \
    do {                                                                                 \
        const char *found_ = (found);                                                    \
        const char *expected_ = (expected);                                              \
        check_count++;                                                                   \
        if (!found_ || strcmp(found_, expected_) != 0) {                                 \
            fprintf(stderr, "%s:%d: %s is \"%s\", expected \"%s\"\n", __FILE__,          \
                    __LINE__, #found, found_ ? found_ : "(null)", expected_);            \
            check_failures++;                                                            \
        }                                                                                \
    } while (0)

/* Compares a float by its bit pattern, so -0, NaN payloads and exactness count. */
#define CHECK_FLOAT_BITS(found, expected_bits)                                           \
    do {                                                                                 \
        float value_ = (found);                                                          \
        unsigned bits_;                                                                  \
        memcpy(&bits_, &value_, sizeof(bits_));                                          \
        CHECK_EQ(bits_, (expected_bits));                                                \
    } while (0)

static inline int check_result(const char *name)
{
    if (check_failures) {
        fprintf(stderr, "%s: %d of %d checks failed\n", name, check_failures, check_count);
        return 1;
    }
    printf("%s: all %d checks passed\n", name, check_count);
    return 0;
}

#endif
