/* SPDX-License-Identifier: MIT */
/* The byte builder and container writer (see dxc_container_writer.h). */
#include "dxc_container_writer.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shaderbridge/dxbc.h"

static void reserve(struct tbuf *b, size_t extra)
{
    if (b->size + extra <= b->capacity)
        return;
    size_t capacity = b->capacity ? b->capacity * 2 : 64;
    while (capacity < b->size + extra)
        capacity *= 2;
    uint8_t *grown = realloc(b->data, capacity);
    if (!grown) {
        fprintf(stderr, "out of memory\n");
        exit(1);
    }
    b->data = grown;
    b->capacity = capacity;
}

void tb_bytes(struct tbuf *b, const void *bytes, size_t size)
{
    reserve(b, size);
    if (size)
        memcpy(b->data + b->size, bytes, size);
    b->size += size;
}

void tb_u8(struct tbuf *b, uint8_t v) { tb_bytes(b, &v, 1); }

void tb_u16(struct tbuf *b, uint16_t v)
{
    uint8_t x[2] = { (uint8_t)v, (uint8_t)(v >> 8) };
    tb_bytes(b, x, 2);
}

void tb_u32(struct tbuf *b, uint32_t v)
{
    uint8_t x[4] = { (uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24) };
    tb_bytes(b, x, 4);
}

void tb_f32(struct tbuf *b, float v)
{
    uint32_t bits;
    memcpy(&bits, &v, 4);
    tb_u32(b, bits);
}

void tb_str(struct tbuf *b, const char *s) { tb_bytes(b, s, strlen(s) + 1); }

void tb_align4(struct tbuf *b)
{
    while (b->size % 4)
        tb_u8(b, 0);
}

void tb_set_u32(struct tbuf *b, size_t offset, uint32_t v)
{
    for (unsigned i = 0; i < 4; i++)
        b->data[offset + i] = (uint8_t)(v >> (8 * i));
}

void tb_free(struct tbuf *b)
{
    free(b->data);
    memset(b, 0, sizeof(*b));
}

uint32_t part_data_offset(const struct tpart *parts, unsigned count, unsigned index)
{
    uint32_t offset = SB_DXBC_HEADER_SIZE + 4 * count;
    for (unsigned i = 0; i < index; i++)
        offset += 8 + (uint32_t)parts[i].data->size;
    return offset + 8;
}

struct tbuf make_container(const struct tpart *parts, unsigned count)
{
    struct tbuf b = { 0 };
    tb_bytes(&b, "DXBC", 4);
    for (unsigned i = 0; i < 16; i++)
        tb_u8(&b, 0);
    tb_u16(&b, 1);
    tb_u16(&b, 0);
    tb_u32(&b, 0); /* file size, set below */
    tb_u32(&b, count);
    for (unsigned i = 0; i < count; i++)
        tb_u32(&b, part_data_offset(parts, count, i) - 8);
    for (unsigned i = 0; i < count; i++) {
        tb_u32(&b, parts[i].fourcc);
        tb_u32(&b, (uint32_t)parts[i].data->size);
        tb_bytes(&b, parts[i].data->data, parts[i].data->size);
    }
    tb_set_u32(&b, 24, (uint32_t)b.size);
    sb_dxbc_compute_checksum(b.data, b.size, b.data + 4);
    return b;
}
