/* SPDX-License-Identifier: MIT */
/*
 * `--input sN=FILE`: a sampler described in a few lines of text (the syntax is in
 * tools/shaderbridge/README.md, "Sampler files", and in sampler_text.c's opening comment).
 */
#ifndef SB_CLI_SAMPLER_TEXT_H
#define SB_CLI_SAMPLER_TEXT_H

#include <stddef.h>
#include <stdint.h>

#include "shaderbridge/resources.h"
#include "shaderbridge/result.h"

/**
 * Parses `size` bytes of sampler text into `out` (every field set: the keys the text gives,
 * D3D11's default sampler state for the rest). `compare` is left false: whether a sampler
 * compares is its declaration's business; `compare_op` holds the text's comparison function.
 * Errors (SB_SUCCESS otherwise; `out` is then unspecified), with the byte offset of the
 * offending token: SB_ERROR_BAD_STRING for a line that is not `key = value` or a NUL byte,
 * SB_ERROR_BAD_VALUE for an unknown key, a word or number the key does not take, or
 * min_lod above max_lod, SB_ERROR_DUPLICATE for a key given twice, SB_ERROR_TRAILING_DATA
 * for words after a complete value.
 */
enum sb_result cli_sampler_text_parse(const uint8_t *text, size_t size, struct sb_rt_sampler *out,
                                      struct sb_error *error);

#endif
