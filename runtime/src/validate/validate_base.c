/* SPDX-License-Identifier: MIT */
/*
 * The bottom of validation: the failure every harness reports (through the one
 * error setter of reflect/src/common) and the clock behind the report's
 * timings. Every validate file calls down into these; nothing here calls up.
 */
#define _POSIX_C_SOURCE 200809L
#include "validate_private.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "error.h"

enum sb_result sb_validate_fail(struct sb_error *error, enum sb_result code, const char *message)
{
    return sb_error_set(error, code, 0, SB_ERROR_NO_INSTR, "%s", message);
}

uint64_t sb_validate_now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

bool sb_validate_track_resource(struct sb_validate_report *report, uint32_t index, size_t words, float **bound,
                                uint32_t **origin, uint8_t **undefined)
{
    struct sb_interp_tracking *t = &report->tracking;
    *bound = NULL;
    *origin = NULL;
    *undefined = NULL;
    if (!t->precision && !t->undefined)
        return true;
    if (index >= t->resource_count) {
        float **b = realloc(t->bound, (index + 1) * sizeof(*b));
        if (b)
            t->bound = b;
        uint32_t **o = realloc(t->origin, (index + 1) * sizeof(*o));
        if (o)
            t->origin = o;
        uint8_t **u = realloc(t->undefined_word, (index + 1) * sizeof(*u));
        if (u)
            t->undefined_word = u;
        if (!b || !o || !u)
            return false;
        for (uint32_t i = t->resource_count; i <= index; i++)
            t->bound[i] = NULL, t->origin[i] = NULL, t->undefined_word[i] = NULL;
        t->resource_count = index + 1;
    }
    free(t->bound[index]);
    free(t->origin[index]);
    free(t->undefined_word[index]);
    t->bound[index] = calloc(words + 1, sizeof(float));
    t->origin[index] = malloc((words + 1) * sizeof(uint32_t));
    t->undefined_word[index] = calloc(words + 1, 1);
    if (!t->bound[index] || !t->origin[index] || !t->undefined_word[index])
        return false;
    memset(t->origin[index], 0xFF, (words + 1) * sizeof(uint32_t));
    *bound = t->bound[index];
    *origin = t->origin[index];
    *undefined = t->undefined_word[index];
    return true;
}
