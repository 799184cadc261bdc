/* SPDX-License-Identifier: MIT */
/*
 * The LLVM bitstream writer of dxil_bitcode_writer.h (../shared/docs/dxil.md
 * §2.1-§2.3). Fields go out bit by bit: these streams are a few kilobytes, and
 * one path for every width keeps the packing rule in one place.
 */
#include "dxil_bitcode_writer.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Abbreviation IDs every block knows (docs §2.2). */
enum { ID_END_BLOCK = 0, ID_ENTER_SUBBLOCK = 1, ID_DEFINE_ABBREV = 2, ID_UNABBREV_RECORD = 3 };

void bw_begin(struct bw *w)
{
    memset(w, 0, sizeof(*w));
    w->width = 2;
}

void bw_free(struct bw *w)
{
    free(w->data);
    memset(w, 0, sizeof(*w));
}

size_t bw_size(const struct bw *w) { return (w->bit + 7) / 8; }

static void put_bit(struct bw *w, unsigned bit)
{
    size_t byte = w->bit / 8;
    if (byte >= w->capacity) {
        size_t capacity = w->capacity ? w->capacity * 2 : 256;
        uint8_t *grown = realloc(w->data, capacity);
        if (!grown) {
            fprintf(stderr, "out of memory\n");
            exit(1);
        }
        memset(grown + w->capacity, 0, capacity - w->capacity);
        w->data = grown;
        w->capacity = capacity;
    }
    if (bit)
        w->data[byte] |= (uint8_t)(1u << (w->bit % 8));
    w->bit++;
}

void bw_fixed(struct bw *w, uint64_t value, unsigned width)
{
    if (width < 64 && (value >> width) != 0)
        w->failed = true; /* a value the field cannot hold */
    for (unsigned i = 0; i < width; i++)
        put_bit(w, (unsigned)(value >> i) & 1u);
}

void bw_vbr(struct bw *w, uint64_t value, unsigned width)
{
    uint64_t payload_mask = (1ull << (width - 1)) - 1;
    while (value > payload_mask) {
        bw_fixed(w, (value & payload_mask) | (payload_mask + 1), width);
        value >>= width - 1;
    }
    bw_fixed(w, value, width);
}

static int char6_code(char c)
{
    if (c >= 'a' && c <= 'z')
        return c - 'a';
    if (c >= 'A' && c <= 'Z')
        return c - 'A' + 26;
    if (c >= '0' && c <= '9')
        return c - '0' + 52;
    if (c == '.')
        return 62;
    if (c == '_')
        return 63;
    return -1;
}

bool bw_is_char6(const char *s)
{
    for (; *s; s++)
        if (char6_code(*s) < 0)
            return false;
    return true;
}

void bw_char6(struct bw *w, char c)
{
    int code = char6_code(c);
    if (code < 0) {
        w->failed = true;
        code = 0;
    }
    bw_fixed(w, (uint64_t)code, 6);
}

void bw_align32(struct bw *w)
{
    while (w->bit % 32)
        put_bit(w, 0);
}

void bw_enter_block(struct bw *w, unsigned block_id, unsigned width)
{
    if (w->depth == BW_MAX_DEPTH) {
        w->failed = true;
        return;
    }
    bw_fixed(w, ID_ENTER_SUBBLOCK, w->width);
    bw_vbr(w, block_id, 8);
    bw_vbr(w, width, 4);
    bw_align32(w);
    w->blocks[w->depth].outer_width = w->width;
    w->blocks[w->depth].length_word_bit = w->bit;
    w->depth++;
    bw_fixed(w, 0, 32); /* length, patched by bw_end_block */
    w->width = width;
}

void bw_end_block(struct bw *w)
{
    if (w->depth == 0) {
        w->failed = true;
        return;
    }
    bw_fixed(w, ID_END_BLOCK, w->width);
    bw_align32(w);
    struct bw_block *b = &w->blocks[--w->depth];
    /* The length counts the words after the length word, END_BLOCK padding included. */
    uint32_t words = (uint32_t)((w->bit - b->length_word_bit) / 32 - 1);
    size_t byte = b->length_word_bit / 8;
    for (unsigned i = 0; i < 4; i++)
        w->data[byte + i] = (uint8_t)(words >> (8 * i));
    w->width = b->outer_width;
}

void bw_record(struct bw *w, unsigned code, const uint64_t *ops, unsigned count)
{
    bw_fixed(w, ID_UNABBREV_RECORD, w->width);
    bw_vbr(w, code, 6);
    bw_vbr(w, count, 6);
    for (unsigned i = 0; i < count; i++)
        bw_vbr(w, ops[i], 6);
}

void bw_define_abbrev(struct bw *w, const struct bw_abbrev *a)
{
    bw_fixed(w, ID_DEFINE_ABBREV, w->width);
    bw_vbr(w, a->op_count, 5);
    for (unsigned i = 0; i < a->op_count; i++) {
        const struct bw_abbrev_op *op = &a->ops[i];
        bw_fixed(w, op->kind == BW_OP_LITERAL, 1);
        if (op->kind == BW_OP_LITERAL) {
            bw_vbr(w, op->value, 8);
            continue;
        }
        bw_fixed(w, (uint64_t)op->kind, 3);
        if (op->kind == BW_OP_FIXED || op->kind == BW_OP_VBR)
            bw_vbr(w, op->value, 5);
    }
}

/* One scalar field through a Fixed/VBR/Char6 operand. */
static void scalar_field(struct bw *w, const struct bw_abbrev_op *op, uint64_t v)
{
    if (op->kind == BW_OP_FIXED)
        bw_fixed(w, v, (unsigned)op->value);
    else if (op->kind == BW_OP_VBR)
        bw_vbr(w, v, (unsigned)op->value);
    else if (op->kind == BW_OP_CHAR6)
        bw_char6(w, (char)v);
    else
        w->failed = true;
}

void bw_abbrev_record(struct bw *w, unsigned id, const struct bw_abbrev *a,
                      const uint64_t *fields, unsigned count)
{
    bw_fixed(w, id, w->width);
    unsigned f = 0;
    for (unsigned i = 0; i < a->op_count; i++) {
        const struct bw_abbrev_op *op = &a->ops[i];
        if (op->kind == BW_OP_ARRAY) {
            if (i + 2 != a->op_count) {
                w->failed = true; /* an array is the last operand but its element's */
                return;
            }
            bw_vbr(w, count - f, 6);
            for (; f < count; f++)
                scalar_field(w, &a->ops[i + 1], fields[f]);
            return;
        }
        if (op->kind == BW_OP_BLOB) {
            bw_vbr(w, count - f, 6);
            bw_align32(w);
            for (; f < count; f++)
                bw_fixed(w, fields[f], 8);
            bw_align32(w);
            return;
        }
        if (f == count) {
            w->failed = true;
            return;
        }
        if (op->kind == BW_OP_LITERAL) {
            if (fields[f] != op->value)
                w->failed = true;
        } else {
            scalar_field(w, op, fields[f]);
        }
        f++;
    }
    if (f != count)
        w->failed = true;
}
