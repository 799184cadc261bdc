/* SPDX-License-Identifier: MIT */
/*
 * The life cycle shared by the three container readers: an arena is made,
 * the input copied into it, the root object allocated first behind a small
 * header that remembers the arena, and on failure everything is released
 * at once. The root object's destroy function frees the arena.
 */
#ifndef SB_REFLECT_PRIVATE_H
#define SB_REFLECT_PRIVATE_H

#include "cursor.h"
#include "error.h"

/**
 * Starts a parse: creates the arena, copies `size` input bytes and returns
 * a zeroed root object of `object_size` bytes (NULL on OOM, with the
 * failure recorded in `reader`).
 */
void *sb_reader_begin(struct sb_reader *reader, const void *data, size_t size,
                      size_t object_size);

/** sb_reader_begin() that reads `data` in place instead of copying it (the caller keeps it alive). */
void *sb_reader_begin_borrowed(struct sb_reader *reader, const void *data, size_t size,
                               size_t object_size);

/**
 * Ends a parse: on failure copies the error out, frees the arena and
 * returns the failure code; on success returns SB_SUCCESS and keeps it.
 */
enum sb_result sb_reader_finish(struct sb_reader *reader, struct sb_error *error);

/** Frees a root object made by sb_reader_begin() and its arena; NULL is a no-op. */
void sb_object_destroy(void *object);

/** Fills `error` (if given) with SB_ERROR_INVALID_ARGUMENT and returns that code. */
enum sb_result sb_report_argument_error(struct sb_error *error, const char *message);

#endif
