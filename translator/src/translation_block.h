/* SPDX-License-Identifier: MIT */
/*
 * The one allocation a translation hands its user (translation_block.c): the struct
 * sb_translation and every array and string it reports, sized up front. Below both
 * translate.c (bindings, destroy) and the SPIR-V back end (which lays the block out when
 * it knows the module's size).
 */
#ifndef SHADERBRIDGE_TRANSLATION_BLOCK_H
#define SHADERBRIDGE_TRANSLATION_BLOCK_H

#include <stddef.h>
#include <stdint.h>

#include "shaderbridge/translate.h"

/** What one block holds: element counts of each array, and the bytes of all its strings
 *  (terminators included). */
struct sb_translation_layout {
    size_t word_count;
    uint32_t binding_count;
    uint32_t input_count, output_count;
    uint32_t builtin_input_count, builtin_output_count;
    uint32_t origin_count;
    size_t string_bytes;
};

/**
 * One malloc'd block for `layout`: a zeroed struct sb_translation whose array pointers
 * and counts are set (the arrays' contents left for the caller to write; an empty array
 * is NULL) and an empty string area. NULL when out of memory or the sizes overflow.
 * Free with sb_translation_block_destroy() (sb_translation_destroy()).
 */
struct sb_translation *sb_translation_block_create(const struct sb_translation_layout *layout);

/** Bytes `s` takes in the string area (0 for NULL). */
size_t sb_translation_string_bytes(const char *s);

/**
 * Copies `s` into the block's string area and returns the copy; NULL for NULL, and NULL
 * when the area has no room left (a layout that did not count `s`).
 */
const char *sb_translation_block_string(struct sb_translation *translation, const char *s);

/** Makes `words` (malloc'd, e.g. the optimiser's module) the translation's words, freed
 *  with it; the block's own words stay unused. */
void sb_translation_block_replace_words(struct sb_translation *translation, uint32_t *words,
                                        size_t count);

/** Frees the block and what was attached to it later (replaced words, text target
 *  output); NULL is a no-op. */
void sb_translation_block_destroy(struct sb_translation *translation);

#endif
