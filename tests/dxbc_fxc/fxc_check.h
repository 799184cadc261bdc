/* SPDX-License-Identifier: MIT */
/*
 * Minimal checking macros for the dxbc_fxc tests: a failed check prints
 * file:line, the expression and both values, and the test keeps going so
 * one run shows every mismatch; check_report() turns the count into the
 * exit status.
 */
#ifndef SB_TEST_FXC_CHECK_H
#define SB_TEST_FXC_CHECK_H

#include <stdio.h>
#include <string.h>

static int check_failures;

#define CHECK(cond)                                                                       \
    do {                                                                                  \
        if (!(cond)) {                                                                    \
            fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond);      \
            check_failures++;                                                             \
        }                                                                                 \
    } while (0)

#define CHECK_EQ(a, b)                                                                    \
    do {                                                                                  \
        unsigned long long check_a_ = (unsigned long long)(a);                            \
        unsigned long long check_b_ = (unsigned long long)(b);                            \
        if (check_a_ != check_b_) {                                                       \
            fprintf(stderr, "%s:%d: CHECK_EQ failed: %s == %s (0x%llx vs 0x%llx)\n",      \
                    __FILE__, __LINE__, #a, #b, check_a_, check_b_);                      \
            check_failures++;                                                             \
        }                                                                                 \
    } while (0)

#define CHECK_STR(a, b)                                                                   \
    do {                                                                                  \
        const char *check_a_ = (a);                                                       \
        const char *check_b_ = (b);                                                       \
        if (!check_a_ || !check_b_ || strcmp(check_a_, check_b_) != 0) {                  \
            fprintf(stderr, "%s:%d: CHECK_STR failed: %s == \"%s\" (got \"%s\")\n",       \
                    __FILE__, __LINE__, #a, check_b_ ? check_b_ : "(null)",              \
                    check_a_ ? check_a_ : "(null)");                                      \
            check_failures++;                                                             \
        }                                                                                 \
    } while (0)

static inline int check_report(const char *name)
{
    if (check_failures) {
        fprintf(stderr, "%s: %d check(s) failed\n", name, check_failures);
        return 1;
    }
    printf("%s: all checks passed\n", name);
    return 0;
}

#endif
