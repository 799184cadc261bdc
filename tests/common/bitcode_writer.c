/* SPDX-License-Identifier: MIT */
/* The tests' LLVM bitstream writer (bitcode_writer.h). */
#include "bitcode_writer.h"

#include <stdlib.h>
#include <string.h>

void bcw_init(struct bcw *w)
{
    memset(w, 0, sizeof(*w));
    w->width = 2;
}

void bcw_release(struct bcw *w)
{
    free(w->bytes);
    w->bytes = NULL;
}

size_t bcw_size(const struct bcw *w)
{
    return (size_t)((w->bit + 7) / 8);
}

static bool reserve(struct bcw *w, uint64_t bits)
{
    size_t needed = (size_t)((w->bit + bits + 7) / 8) + 8;
    if (w->failed)
        return false;
    if (needed <= w->capacity)
        return true;
    size_t capacity = w->capacity ? w->capacity * 2 : 256;
    while (capacity < needed)
        capacity *= 2;
    uint8_t *bigger = realloc(w->bytes, capacity);
    if (!bigger) {
        w->failed = true;
        return false;
    }
    memset(bigger + w->capacity, 0, capacity - w->capacity);
    w->bytes = bigger;
    w->capacity = capacity;
    return true;
}

void bcw_fixed(struct bcw *w, uint64_t value, uint32_t width)
{
    if (!reserve(w, width))
        return;
    for (uint32_t i = 0; i < width; i++, w->bit++)
        if ((value >> i) & 1)
            w->bytes[w->bit / 8] |= (uint8_t)(1u << (w->bit % 8));
}

void bcw_vbr(struct bcw *w, uint64_t value, uint32_t width)
{
    uint64_t payload = (1ull << (width - 1)) - 1;
    while (value > payload) {
        bcw_fixed(w, (value & payload) | (payload + 1), width);
        value >>= width - 1;
    }
    bcw_fixed(w, value, width);
}

void bcw_char6(struct bcw *w, char c)
{
    static const char table[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._";
    const char *at = strchr(table, c);
    bcw_fixed(w, at && c ? (uint64_t)(at - table) : 0, 6);
}

void bcw_align32(struct bcw *w)
{
    uint64_t aligned = (w->bit + 31) & ~(uint64_t)31;
    if (reserve(w, aligned - w->bit))
        w->bit = aligned;
}

void bcw_magic(struct bcw *w)
{
    bcw_fixed(w, 'B', 8);
    bcw_fixed(w, 'C', 8);
    bcw_fixed(w, 0x0, 4);
    bcw_fixed(w, 0xC, 4);
    bcw_fixed(w, 0xE, 4);
    bcw_fixed(w, 0xD, 4);
}

void bcw_abbrev_id(struct bcw *w, uint32_t id)
{
    bcw_fixed(w, id, w->width);
}

void bcw_enter_block(struct bcw *w, uint32_t block_id, uint32_t width)
{
    if (w->depth == BCW_MAX_DEPTH) {
        w->failed = true;
        return;
    }
    bcw_abbrev_id(w, 1);
    bcw_vbr(w, block_id, 8);
    bcw_vbr(w, width, 4);
    bcw_align32(w);
    w->blocks[w->depth].length_bit = w->bit;
    w->blocks[w->depth].outer_width = w->width;
    w->depth++;
    bcw_fixed(w, 0, 32);
    w->width = width;
}

void bcw_end_block(struct bcw *w)
{
    if (!w->depth) {
        w->failed = true;
        return;
    }
    bcw_abbrev_id(w, 0);
    bcw_align32(w);
    w->depth--;
    uint64_t at = w->blocks[w->depth].length_bit;
    uint32_t words = (uint32_t)((w->bit - at - 32) / 32);
    if (!w->failed)
        for (int i = 0; i < 4; i++)
            w->bytes[at / 8 + (uint64_t)i] = (uint8_t)(words >> (8 * i));
    w->width = w->blocks[w->depth].outer_width;
}

void bcw_record(struct bcw *w, uint32_t code, const uint64_t *ops, uint32_t count)
{
    bcw_abbrev_id(w, 3);
    bcw_vbr(w, code, 6);
    bcw_vbr(w, count, 6);
    for (uint32_t i = 0; i < count; i++)
        bcw_vbr(w, ops[i], 6);
}

void bcw_record_string(struct bcw *w, uint32_t code, const char *text)
{
    size_t length = strlen(text);
    bcw_abbrev_id(w, 3);
    bcw_vbr(w, code, 6);
    bcw_vbr(w, length, 6);
    for (size_t i = 0; i < length; i++)
        bcw_vbr(w, (uint8_t)text[i], 6);
}

void bcw_define_abbrev(struct bcw *w, const struct bcw_abbrev_op *ops, uint32_t count)
{
    bcw_abbrev_id(w, 2);
    bcw_vbr(w, count, 5);
    for (uint32_t i = 0; i < count; i++) {
        bcw_fixed(w, ops[i].encoding == 0, 1);
        if (ops[i].encoding == 0) {
            bcw_vbr(w, ops[i].value, 8);
            continue;
        }
        bcw_fixed(w, ops[i].encoding, 3);
        if (ops[i].encoding == 1 || ops[i].encoding == 2)
            bcw_vbr(w, ops[i].value, 5);
    }
}
