/* SPDX-License-Identifier: MIT */
/*
 * Debug instructions removed from a SPIR-V module, so that the modules of two
 * translators can be compared by the code they carry rather than by how much
 * naming and source text each adds (bench_pipeline). Removed: OpSourceContinued,
 * OpSource, OpSourceExtension, OpName, OpMemberName, OpString, OpLine, OpNoLine,
 * OpModuleProcessed (the debug instructions of SPIR-V 1.6 §2.4's layout sections
 * 7a-7c, and the line instructions that may appear anywhere). Decorations stay:
 * they change what the module means. Tests only.
 */
#ifndef SB_BENCH_SPIRV_STRIP_H
#define SB_BENCH_SPIRV_STRIP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "shaderbridge/result.h"

/** Words in a SPIR-V module header (magic, version, generator, bound, schema). */
#define SPIRV_STRIP_HEADER_WORDS 5u

/**
 * Walks the `count` words of a module (host byte order, as translators return them)
 * and copies every instruction but the debug ones above, header included, into `out`
 * (at least `count` words; NULL only counts). *kept receives the words kept.
 * Returns SB_SUCCESS, or an error with the byte offset of the problem: SB_ERROR_TRUNCATED
 * (fewer words than a header, or an instruction whose word count runs past the end),
 * SB_ERROR_BAD_MAGIC (not 0x07230203), SB_ERROR_BAD_SIZE (an instruction word count of 0),
 * SB_ERROR_INVALID_ARGUMENT (NULL words or kept). `error` may be NULL.
 */
enum sb_result spirv_strip_debug(const uint32_t *words, size_t count, uint32_t *out, size_t *kept,
                                 struct sb_error *error);

#endif
