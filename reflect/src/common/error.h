/* SPDX-License-Identifier: MIT */
/*
 * The one way every module fills a struct sb_error (result.h), so that the
 * code, the byte offset, the instruction index and the message are always set
 * together and "not applicable" is spelled the same everywhere: an instruction
 * index of SB_ERROR_NO_INSTR (UINT32_MAX), never 0.
 */
#ifndef SB_COMMON_ERROR_H
#define SB_COMMON_ERROR_H

#include <stdarg.h>
#include <stdint.h>

#include "shaderbridge/result.h"

/*
 * Marks a failure reporter: GCC and clang then treat every path that calls it as
 * unlikely and move those paths (the message formatting, the early returns) out of
 * the hot code into .text.unlikely, so the instruction cache holds the paths that
 * run. Translation touches a large part of its code once per shader, and
 * instruction-cache misses outnumber data-cache misses (tests/bench/README.md).
 */
#if defined(__GNUC__) || defined(__clang__)
#define SB_COLD __attribute__((cold))
/* For a failure path split off a small lookup, so the lookup inlines and the path does not. */
#define SB_NOINLINE __attribute__((noinline))
#else
#define SB_COLD
#define SB_NOINLINE
#endif

/** sb_error::instr when the error is not about one instruction. */
#define SB_ERROR_NO_INSTR UINT32_MAX

/**
 * Fills `error` (NULL: nothing is written) with code, offset, instr and a
 * printf-formatted message (truncated to fit), and returns `code`, so a
 * failure path reads `return sb_error_set(error, ...);`.
 */
enum sb_result sb_error_set(struct sb_error *error, enum sb_result code, uint64_t offset,
                            uint32_t instr, const char *format, ...)
    __attribute__((format(printf, 5, 6))) SB_COLD;

/** sb_error_set with a va_list. */
enum sb_result sb_error_setv(struct sb_error *error, enum sb_result code, uint64_t offset,
                             uint32_t instr, const char *format, va_list args)
    __attribute__((format(printf, 5, 0))) SB_COLD;

#endif
