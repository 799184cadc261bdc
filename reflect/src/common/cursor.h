/* SPDX-License-Identifier: MIT */
/*
 * Bounded little-endian reading with a sticky error.
 *
 * Every byte a reader takes from its input passes through these helpers.
 * A cursor is a window [begin, end) over the input plus a position; all
 * offsets it reports are absolute input offsets, so an error names the
 * byte where the bad field lies. The first failure is recorded in the
 * shared `struct sb_reader` and every later read returns zero, so a
 * decoder can read a whole record and check once (no hidden returns in
 * macros). Counts from the file are checked with sb_cursor_fits() before
 * they size an allocation or a loop; the check divides, so it cannot
 * overflow.
 */
#ifndef SB_REFLECT_CURSOR_H
#define SB_REFLECT_CURSOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "shaderbridge/result.h"
#include "arena.h"
#include "error.h"

/** Per-parse state shared by all cursors of one input. */
struct sb_reader {
    const uint8_t *data;      /**< the whole input (a copy owned by the arena) */
    size_t size;              /**< its length */
    struct sb_arena *arena;   /**< where decoded structures live */
    struct sb_error error;    /**< the first failure */
    bool failed;              /**< sticky: set by the first failure */
    struct sb_warning *warnings; /**< growable array in the arena */
    uint32_t warning_count;
    uint32_t warning_capacity;
};

struct sb_cursor {
    struct sb_reader *reader;
    size_t begin; /**< absolute offset of the window start */
    size_t end;   /**< absolute offset one past the window */
    size_t pos;   /**< absolute read position, begin <= pos <= end */
};

#if defined(__GNUC__)
#define SB_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define SB_PRINTF(f, a)
#endif

/** Records the first failure; later calls are ignored. Returns false. */
bool sb_reader_fail(struct sb_reader *reader, enum sb_result code, uint64_t offset,
                    const char *format, ...) SB_PRINTF(4, 5) SB_COLD;

/** Adds a non-fatal warning (kept in the arena). */
void sb_reader_warn(struct sb_reader *reader, uint64_t offset, const char *format, ...)
    SB_PRINTF(3, 4);

/** Allocates zeroed memory for `count` items of `size` bytes; OOM is sticky. */
void *sb_reader_alloc(struct sb_reader *reader, size_t count, size_t size);

/** A cursor over the whole input. */
struct sb_cursor sb_cursor_whole(struct sb_reader *reader);

/** sb_cursor_window() for a range that leaves the window: the failure. */
struct sb_cursor sb_cursor_window_slow(const struct sb_cursor *parent, uint64_t offset,
                                       uint64_t size, const char *field);

/**
 * A cursor over [offset, offset + size) relative to `parent`'s window start.
 * Fails (and returns an empty cursor) when the range leaves the window.
 * Inline: every part, record table and nested record opens one.
 */
static inline struct sb_cursor sb_cursor_window(const struct sb_cursor *parent, uint64_t offset,
                                                uint64_t size, const char *field)
{
    size_t window = parent->end - parent->begin;
    if (offset > window || size > window - offset)
        return sb_cursor_window_slow(parent, offset, size, field);
    size_t begin = parent->begin + (size_t)offset;
    return (struct sb_cursor){ .reader = parent->reader, .begin = begin,
                               .end = begin + (size_t)size, .pos = begin };
}

/** A cursor over the rest of `parent`'s window from relative offset `offset`. */
struct sb_cursor sb_cursor_tail(const struct sb_cursor *parent, uint64_t offset,
                                const char *field);

static inline bool sb_cursor_ok(const struct sb_cursor *cur)
{
    return !cur->reader->failed;
}

static inline size_t sb_cursor_left(const struct sb_cursor *cur)
{
    return cur->end - cur->pos;
}

static inline size_t sb_cursor_size(const struct sb_cursor *cur)
{
    return cur->end - cur->begin;
}

/** Position relative to the window start. */
static inline size_t sb_cursor_tell(const struct sb_cursor *cur)
{
    return cur->pos - cur->begin;
}

/** Moves to relative offset `offset` (may equal the window size). */
bool sb_cursor_seek(struct sb_cursor *cur, uint64_t offset, const char *field);

/** Fails with SB_ERROR_TRUNCATED unless `size` bytes are left. */
bool sb_cursor_need(struct sb_cursor *cur, uint64_t size, const char *field);

/**
 * Fails with SB_ERROR_BAD_COUNT unless `count` records of `record_size`
 * bytes fit in what is left of the window.
 */
bool sb_cursor_fits(struct sb_cursor *cur, uint64_t count, uint64_t record_size,
                    const char *field);

/**
 * sb_cursor_bytes() for the case it cannot serve inline: a failed reader
 * (NULL) or fewer than `size` bytes left (the SB_ERROR_TRUNCATED failure).
 */
const uint8_t *sb_cursor_bytes_slow(struct sb_cursor *cur, uint64_t size, const char *field);

/**
 * Returns a pointer to `size` bytes inside the input and advances, or NULL.
 * Inline, because the container readers take most fields through it one at
 * a time: the in-bounds case is a compare and an add, the rest goes to
 * sb_cursor_bytes_slow().
 */
static inline const uint8_t *sb_cursor_bytes(struct sb_cursor *cur, uint64_t size,
                                             const char *field)
{
    if (cur->reader->failed || size > (uint64_t)(cur->end - cur->pos))
        return sb_cursor_bytes_slow(cur, size, field);
    const uint8_t *p = cur->reader->data + cur->pos;
    cur->pos += (size_t)size;
    return p;
}

/** Skips `size` bytes. */
bool sb_cursor_skip(struct sb_cursor *cur, uint64_t size, const char *field);

/**
 * Returns the NUL-terminated string at relative offset `offset` of the
 * window. The scan stops at the window end: an unterminated string fails
 * with SB_ERROR_BAD_STRING. The pointer lives as long as the arena.
 */
const char *sb_cursor_string_at(const struct sb_cursor *cur, uint64_t offset,
                                const char *field);

/**
 * Reads a NUL-terminated string at the position and advances past its
 * terminator.
 */
const char *sb_cursor_string(struct sb_cursor *cur, const char *field);

/** Copies `size` bytes at the position into a NUL-terminated arena string. */
const char *sb_cursor_fixed_string(struct sb_cursor *cur, uint64_t size, const char *field);

/** Little-endian loads from memory already bounds-checked by the caller. */
static inline uint16_t sb_load_u16(const uint8_t *p)
{
    return (uint16_t)(p[0] | (p[1] << 8));
}

static inline uint32_t sb_load_u32(const uint8_t *p)
{
    return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) |
           ((uint32_t)p[3] << 24);
}

/* Little-endian fields at the position; 0 once the reader has failed. */
static inline uint8_t sb_cursor_u8(struct sb_cursor *cur, const char *field)
{
    const uint8_t *p = sb_cursor_bytes(cur, 1, field);
    return p ? p[0] : 0;
}

static inline uint16_t sb_cursor_u16(struct sb_cursor *cur, const char *field)
{
    const uint8_t *p = sb_cursor_bytes(cur, 2, field);
    return p ? sb_load_u16(p) : 0;
}

static inline uint32_t sb_cursor_u32(struct sb_cursor *cur, const char *field)
{
    const uint8_t *p = sb_cursor_bytes(cur, 4, field);
    return p ? sb_load_u32(p) : 0;
}

static inline uint64_t sb_cursor_u64(struct sb_cursor *cur, const char *field)
{
    const uint8_t *p = sb_cursor_bytes(cur, 8, field);
    return p ? (uint64_t)sb_load_u32(p) | ((uint64_t)sb_load_u32(p + 4) << 32) : 0;
}

float sb_cursor_f32(struct sb_cursor *cur, const char *field);

#endif
