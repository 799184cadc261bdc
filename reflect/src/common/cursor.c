/* SPDX-License-Identifier: MIT */
/*
 * Bounded reading helpers (see cursor.h). Each failure message names the
 * field, the offset, what was needed and what was there, following the
 * review checklist of STYLE.md §7.4.
 */
#include "cursor.h"
#include "error.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

bool sb_reader_fail(struct sb_reader *reader, enum sb_result code, uint64_t offset,
                    const char *format, ...)
{
    if (reader->failed)
        return false;
    reader->failed = true;
    va_list args;
    va_start(args, format);
    sb_error_setv(&reader->error, code, offset, SB_ERROR_NO_INSTR, format, args);
    va_end(args);
    return false;
}

void sb_reader_warn(struct sb_reader *reader, uint64_t offset, const char *format, ...)
{
    if (reader->warning_count == reader->warning_capacity) {
        uint32_t capacity = reader->warning_capacity ? reader->warning_capacity * 2 : 4;
        struct sb_warning *grown = sb_arena_grow(reader->arena, reader->warnings,
                                                 reader->warning_count, capacity,
                                                 sizeof(*grown));
        if (!grown) {
            sb_reader_fail(reader, SB_ERROR_OUT_OF_MEMORY, offset, "out of memory");
            return;
        }
        reader->warnings = grown;
        reader->warning_capacity = capacity;
    }
    struct sb_warning *w = &reader->warnings[reader->warning_count++];
    w->offset = offset;
    va_list args;
    va_start(args, format);
    vsnprintf(w->message, sizeof(w->message), format, args);
    va_end(args);
}

void *sb_reader_alloc(struct sb_reader *reader, size_t count, size_t size)
{
    if (reader->failed)
        return NULL;
    void *p = sb_arena_alloc(reader->arena, count, size);
    if (!p)
        sb_reader_fail(reader, SB_ERROR_OUT_OF_MEMORY, 0,
                       "out of memory allocating %zu records of %zu bytes", count, size);
    return p;
}

struct sb_cursor sb_cursor_whole(struct sb_reader *reader)
{
    return (struct sb_cursor){ .reader = reader, .begin = 0, .end = reader->size, .pos = 0 };
}

static struct sb_cursor empty_at(const struct sb_cursor *parent, size_t at)
{
    return (struct sb_cursor){ .reader = parent->reader, .begin = at, .end = at, .pos = at };
}

struct sb_cursor sb_cursor_window_slow(const struct sb_cursor *parent, uint64_t offset,
                                       uint64_t size, const char *field)
{
    size_t window = parent->end - parent->begin;
    if (offset > window || size > window - offset) {
        sb_reader_fail(parent->reader, offset > window ? SB_ERROR_BAD_OFFSET : SB_ERROR_BAD_SIZE,
                       parent->begin + (offset > window ? 0 : offset),
                       "%s: range at +%llu of %llu bytes leaves its %zu-byte container", field,
                       (unsigned long long)offset, (unsigned long long)size, window);
        return empty_at(parent, parent->end);
    }
    size_t begin = parent->begin + (size_t)offset;
    return (struct sb_cursor){ .reader = parent->reader, .begin = begin,
                               .end = begin + (size_t)size, .pos = begin };
}

struct sb_cursor sb_cursor_tail(const struct sb_cursor *parent, uint64_t offset,
                                const char *field)
{
    size_t window = parent->end - parent->begin;
    if (offset > window) {
        sb_reader_fail(parent->reader, SB_ERROR_BAD_OFFSET, parent->begin,
                       "%s: offset %llu is past the end of its %zu-byte container", field,
                       (unsigned long long)offset, window);
        return empty_at(parent, parent->end);
    }
    return sb_cursor_window(parent, offset, window - offset, field);
}

bool sb_cursor_seek(struct sb_cursor *cur, uint64_t offset, const char *field)
{
    if (offset > (uint64_t)(cur->end - cur->begin))
        return sb_reader_fail(cur->reader, SB_ERROR_BAD_OFFSET, cur->begin,
                              "%s: offset %llu is past the end of its %zu-byte container",
                              field, (unsigned long long)offset, cur->end - cur->begin);
    cur->pos = cur->begin + (size_t)offset;
    return !cur->reader->failed;
}

bool sb_cursor_need(struct sb_cursor *cur, uint64_t size, const char *field)
{
    if (cur->reader->failed)
        return false;
    if (size > (uint64_t)(cur->end - cur->pos))
        return sb_reader_fail(cur->reader, SB_ERROR_TRUNCATED, cur->pos,
                              "%s: needs %llu bytes at offset %zu but only %zu remain", field,
                              (unsigned long long)size, cur->pos, cur->end - cur->pos);
    return true;
}

bool sb_cursor_fits(struct sb_cursor *cur, uint64_t count, uint64_t record_size,
                    const char *field)
{
    if (cur->reader->failed)
        return false;
    size_t left = cur->end - cur->pos;
    if (record_size && count > left / record_size)
        return sb_reader_fail(cur->reader, SB_ERROR_BAD_COUNT, cur->pos,
                              "%s: count %llu of %llu-byte records needs more than the %zu "
                              "bytes that remain", field, (unsigned long long)count,
                              (unsigned long long)record_size, left);
    return true;
}

const uint8_t *sb_cursor_bytes_slow(struct sb_cursor *cur, uint64_t size, const char *field)
{
    if (!sb_cursor_need(cur, size, field))
        return NULL;
    const uint8_t *p = cur->reader->data + cur->pos;
    cur->pos += (size_t)size;
    return p;
}

bool sb_cursor_skip(struct sb_cursor *cur, uint64_t size, const char *field)
{
    return sb_cursor_bytes(cur, size, field) != NULL;
}

float sb_cursor_f32(struct sb_cursor *cur, const char *field)
{
    uint32_t bits = sb_cursor_u32(cur, field);
    float f;
    memcpy(&f, &bits, sizeof(f));
    return f;
}

const char *sb_cursor_string_at(const struct sb_cursor *cur, uint64_t offset, const char *field)
{
    struct sb_reader *reader = cur->reader;
    if (reader->failed)
        return NULL;
    size_t window = cur->end - cur->begin;
    if (offset >= window) {
        sb_reader_fail(reader, SB_ERROR_BAD_OFFSET, cur->begin,
                       "%s: string offset %llu is outside its %zu-byte container", field,
                       (unsigned long long)offset, window);
        return NULL;
    }
    const uint8_t *start = reader->data + cur->begin + (size_t)offset;
    const uint8_t *nul = memchr(start, 0, window - (size_t)offset);
    if (!nul) {
        sb_reader_fail(reader, SB_ERROR_BAD_STRING, cur->begin + (size_t)offset,
                       "%s: string at offset %zu has no terminator before the end of its "
                       "container at %zu", field, cur->begin + (size_t)offset, cur->end);
        return NULL;
    }
    return (const char *)start;
}

const char *sb_cursor_string(struct sb_cursor *cur, const char *field)
{
    const char *s = sb_cursor_string_at(cur, cur->pos - cur->begin, field);
    if (s)
        cur->pos += strlen(s) + 1;
    return s;
}

const char *sb_cursor_fixed_string(struct sb_cursor *cur, uint64_t size, const char *field)
{
    const uint8_t *p = sb_cursor_bytes(cur, size, field);
    if (!p)
        return NULL;
    char *s = sb_reader_alloc(cur->reader, (size_t)size + 1, 1);
    if (s)
        memcpy(s, p, (size_t)size);
    return s;
}
