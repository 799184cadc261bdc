/* SPDX-License-Identifier: MIT */
/*
 * A tally of refusal messages for corpus censuses: each message with its digit
 * runs folded to N (so "space 1" and "space 2" count as one gap), optionally
 * prefixed by what refused, counted, then sorted most common first.
 */
#ifndef SB_TEST_REFUSAL_TALLY_H
#define SB_TEST_REFUSAL_TALLY_H

#include <stdint.h>

/** Longest folded text kept (longer ones are cut), terminator included. */
#define REFUSAL_TEXT_MAX 112
/** Distinct reasons kept; later new ones are dropped (the counts say how many files). */
#define REFUSAL_REASONS_MAX 512

struct refusal_reason {
    char text[REFUSAL_TEXT_MAX];
    uint32_t count;
};

struct refusal_tally {
    uint32_t count;
    struct refusal_reason reasons[REFUSAL_REASONS_MAX];
};

/** Counts `message` folded, after "prefix: " when prefix is not NULL. */
void refusal_tally_add(struct refusal_tally *tally, const char *prefix, const char *message);
/** Sorts the reasons by count (descending), then text. */
void refusal_tally_sort(struct refusal_tally *tally);
/** Prints the first `most` reasons as "  COUNT  TEXT" lines on stdout. */
void refusal_tally_print(const struct refusal_tally *tally, uint32_t most);

#endif
