/* SPDX-License-Identifier: MIT */
/*
 * The check macro of the tests that print a message with each failure: a
 * failed CHECK(cond, fmt, ...) prints file:line, the expression and the
 * message, counts into `failures`, and the test goes on, so one run shows
 * every mismatch; main returns failures ? 1 : 0. `checks` counts every CHECK run.
 */
#ifndef SB_TEST_CHECK_H
#define SB_TEST_CHECK_H

#include <stdio.h>

static unsigned failures, checks;

#define CHECK(cond, ...)                                                                  \
    do {                                                                                  \
        checks++;                                                                         \
        if (!(cond)) {                                                                    \
            fprintf(stderr, "%s:%d: check failed: %s: ", __FILE__, __LINE__, #cond);       \
            fprintf(stderr, __VA_ARGS__);                                                 \
            fprintf(stderr, "\n");                                                        \
            failures++;                                                                   \
        }                                                                                 \
    } while (0)

#endif
