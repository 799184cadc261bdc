/* SPDX-License-Identifier: MIT */
/* The refusal tally of refusal_tally.h. */
#include "refusal_tally.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void refusal_tally_add(struct refusal_tally *tally, const char *prefix, const char *message)
{
    char text[REFUSAL_TEXT_MAX];
    size_t n = prefix ? (size_t)snprintf(text, sizeof(text), "%s: ", prefix) : 0;
    if (n >= sizeof(text))
        n = sizeof(text) - 1;
    for (const char *p = message; *p && n + 1 < sizeof(text); p++) {
        if (isdigit((unsigned char)*p)) {
            while (isdigit((unsigned char)p[1]))
                p++;
            text[n++] = 'N';
        } else {
            text[n++] = *p;
        }
    }
    text[n] = '\0';
    for (uint32_t i = 0; i < tally->count; i++)
        if (!strcmp(tally->reasons[i].text, text)) {
            tally->reasons[i].count++;
            return;
        }
    if (tally->count < REFUSAL_REASONS_MAX) {
        struct refusal_reason *r = &tally->reasons[tally->count++];
        memcpy(r->text, text, sizeof(text));
        r->count = 1;
    }
}

static int by_count(const void *a, const void *b)
{
    const struct refusal_reason *x = a, *y = b;
    return x->count != y->count ? (x->count < y->count ? 1 : -1) : strcmp(x->text, y->text);
}

void refusal_tally_sort(struct refusal_tally *tally)
{
    qsort(tally->reasons, tally->count, sizeof(tally->reasons[0]), by_count);
}

void refusal_tally_print(const struct refusal_tally *tally, uint32_t most)
{
    for (uint32_t i = 0; i < tally->count && i < most; i++)
        printf("  %4u  %s\n", tally->reasons[i].count, tally->reasons[i].text);
}
