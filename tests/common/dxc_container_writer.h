/* SPDX-License-Identifier: MIT */
/*
 * A little-endian byte builder and a DirectX Container writer: parts placed
 * back to back behind the 32-byte header and part-offset table, with the
 * header digest computed by the library's own checksum
 * (../shared/docs/dxcontainer.md §1). Shared by the DXC-era part tests
 * (tests/dxbc_dxil) and the DXIL writer (dxil_program_writer.h).
 *
 * Out of memory ends the test program (exit 1): these are test helpers.
 */
#ifndef SB_TEST_DXC_CONTAINER_WRITER_H
#define SB_TEST_DXC_CONTAINER_WRITER_H

#include <stddef.h>
#include <stdint.h>

/** A growable byte buffer; all writes are little-endian. Zero-initialise it;
 *  the caller frees it with tb_free(). */
struct tbuf {
    uint8_t *data;
    size_t size;
    size_t capacity;
};

void tb_u8(struct tbuf *b, uint8_t v);
void tb_u16(struct tbuf *b, uint16_t v);
void tb_u32(struct tbuf *b, uint32_t v);
void tb_f32(struct tbuf *b, float v);
void tb_bytes(struct tbuf *b, const void *bytes, size_t size);
/** Writes the string and its NUL. */
void tb_str(struct tbuf *b, const char *s);
/** Pads with zeros to a multiple of 4. */
void tb_align4(struct tbuf *b);
/** Overwrites a u32 already written at `offset`. */
void tb_set_u32(struct tbuf *b, size_t offset, uint32_t v);
void tb_free(struct tbuf *b);

/** One part to put in a container. */
struct tpart {
    uint32_t fourcc;
    const struct tbuf *data;
};

/** Builds a signed container of `count` parts (placed back to back). */
struct tbuf make_container(const struct tpart *parts, unsigned count);
/** File offset of part `index`'s data in a container made by make_container(). */
uint32_t part_data_offset(const struct tpart *parts, unsigned count, unsigned index);

#endif
