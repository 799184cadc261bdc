/* SPDX-License-Identifier: MIT */
/*
 * The bottom of validation: the failure every harness reports (through the one
 * error setter of reflect/src/common) and the clock behind the report's
 * timings. Every validate file calls down into these; nothing here calls up.
 */
#define _POSIX_C_SOURCE 200809L
#include "validate_private.h"

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
