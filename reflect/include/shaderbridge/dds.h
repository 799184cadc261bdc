/* SPDX-License-Identifier: MIT */
/*
 * DDS (DirectDraw Surface) textures: the "DDS " magic, DDS_HEADER with its
 * DDS_PIXELFORMAT, the optional DDS_HEADER_DXT10 extension, and the layout
 * of every subresource (array element, cube face, mip level) in the data
 * that follows.
 *
 * One call, sb_dds_parse(), reads a whole file. The result is one
 * allocation owned by the returned `struct sb_dds` and released by
 * sb_dds_destroy(). Unlike the shader readers it does NOT copy the input:
 * texture data can be large and the point of the layout is to let the
 * caller upload it in place, so `bytes` and every subresource's `data`
 * point into the caller's buffer, which must outlive the struct.
 *
 * What is an error: anything that would make the layout unknowable or
 * point past the data -- a wrong magic or structure size, a zero or
 * oversized dimension, more mip levels than the largest dimension allows,
 * a cube map without all six faces or with non-square faces, a volume
 * with an array, a format this reader cannot size (FourCC, pixel masks or
 * DXGI number, named in the message), an uncompressed row pitch that
 * disagrees with the width, and data that ends before the last
 * subresource. Bytes after the last subresource are allowed (some writers
 * pad) and counted in `trailing_size`.
 */
#ifndef SHADERBRIDGE_DDS_H
#define SHADERBRIDGE_DDS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "shaderbridge/result.h"

#ifdef __cplusplus
extern "C" {
#endif

/** "DDS " read as a little-endian DWORD. */
#define SB_DDS_MAGIC 0x20534444u
/** Byte sizes of the structures, as their own size fields must state them. */
#define SB_DDS_HEADER_SIZE 124u
#define SB_DDS_PIXELFORMAT_SIZE 32u
#define SB_DDS_DX10_HEADER_SIZE 20u
/** Offset of the first data byte without / with the DX10 extension. */
#define SB_DDS_DATA_OFFSET 128u
#define SB_DDS_DX10_DATA_OFFSET 148u

/* Limits (Direct3D 11's resource limits); a file breaking one fails to parse. */
#define SB_DDS_MAX_DIMENSION 16384u /**< width and height */
#define SB_DDS_MAX_DEPTH 2048u      /**< depth of a volume texture */
#define SB_DDS_MAX_SLICES 2048u     /**< array elements times cube faces */

/** How the texture is indexed; the values equal D3D10_RESOURCE_DIMENSION's. */
enum sb_dds_dimension {
    SB_DDS_DIMENSION_1D = 2, /**< DX10 header only; height is 1 */
    SB_DDS_DIMENSION_2D = 3, /**< plain, array or cube map */
    SB_DDS_DIMENSION_3D = 4, /**< volume texture; never an array */
    SB_DDS_DIMENSION_MAX_ENUM = 0x7fffffff
};

/** One subresource: one mip level of one face of one array element. */
struct sb_dds_subresource {
    uint32_t array_index; /**< array element (a whole cube for cube arrays) */
    uint32_t face;        /**< cube face 0..5 (+X -X +Y -Y +Z -Z); 0 when not a cube */
    uint32_t mip;         /**< mip level, 0 = largest */
    uint32_t width;       /**< texels, at least 1 */
    uint32_t height;      /**< texels, at least 1 */
    uint32_t depth;       /**< slices, at least 1; above 1 for volumes only */
    uint32_t row_pitch;   /**< bytes of one row of texels, or of 4x4 blocks */
    uint32_t row_count;   /**< rows of texels, or of blocks (height / 4 rounded up) */
    uint64_t slice_size;  /**< row_pitch * row_count */
    uint64_t size;        /**< slice_size * depth */
    uint64_t offset;      /**< byte offset in the file */
    const uint8_t *data;  /**< the caller's bytes at `offset` */
};

/** A parsed DDS file. Raw header fields are kept as read; derived fields follow. */
struct sb_dds {
    /* DDS_HEADER as read. */
    uint32_t flags;                /**< DDSD_* */
    uint32_t header_height;
    uint32_t header_width;
    uint32_t pitch_or_linear_size;
    uint32_t header_depth;
    uint32_t header_mip_count;     /**< dwMipMapCount (0 and 1 both mean one level) */
    uint32_t caps;                 /**< DDSCAPS_* */
    uint32_t caps2;                /**< DDSCAPS2_* (cube faces, volume) */
    /* DDS_PIXELFORMAT as read. */
    uint32_t pf_flags;             /**< DDPF_* */
    uint32_t fourcc;               /**< little-endian FourCC, or a D3DFMT number */
    uint32_t rgb_bit_count;
    uint32_t r_mask, g_mask, b_mask, a_mask;
    /* DDS_HEADER_DXT10, when `has_dx10` (zero otherwise). */
    bool has_dx10;
    uint32_t dx10_format;          /**< DXGI_FORMAT as read */
    uint32_t dx10_dimension;       /**< D3D10_RESOURCE_DIMENSION as read */
    uint32_t dx10_misc_flag;       /**< 0x4: texture cube */
    uint32_t dx10_array_size;
    uint32_t dx10_misc_flags2;     /**< alpha mode in bits 0..2 */

    /* Derived. */
    uint32_t dxgi_format;          /**< DXGI_FORMAT number (legacy headers are mapped) */
    enum sb_dds_dimension dimension;
    bool cube;                     /**< six faces per array element */
    bool block_compressed;         /**< BC1..BC7: 4x4 blocks */
    uint32_t bits_per_texel;       /**< uncompressed formats; 0 for block formats */
    uint32_t block_size;           /**< bytes of a 4x4 block; 0 for uncompressed formats */
    uint32_t width, height, depth; /**< of mip 0; depth 1 unless 3D */
    uint32_t mip_count;            /**< at least 1 */
    uint32_t array_size;           /**< array elements (cubes for cube arrays), at least 1 */
    uint32_t face_count;           /**< 6 for cube maps, else 1 */

    uint64_t data_offset;          /**< first byte after the headers (128 or 148) */
    uint64_t data_size;            /**< bytes all subresources take */
    uint64_t trailing_size;        /**< bytes after the last subresource */
    uint32_t subresource_count;    /**< array_size * face_count * mip_count */
    struct sb_dds_subresource *subresources; /**< in file order: element, face, mip */

    const uint8_t *bytes;          /**< the caller's input (borrowed) */
    size_t size;
};

/**
 * Parses a DDS file of `size` bytes at `data` into `*out` (NULL on
 * failure). The result borrows `data` (see the file comment). On failure
 * returns the code and fills `error` (if given) with the byte offset of
 * the offending field and a sentence naming it.
 */
SB_API enum sb_result sb_dds_parse(const void *data, size_t size, struct sb_dds **out,
                                   struct sb_error *error);

/** Frees what sb_dds_parse() made; NULL is a no-op. Never frees the caller's bytes. */
SB_API void sb_dds_destroy(struct sb_dds *dds);

/**
 * Name of a DXGI_FORMAT number without the "DXGI_FORMAT_" prefix
 * ("BC1_UNORM"), for the formats this reader sizes; "UNKNOWN" for every
 * other number. The string is static.
 */
SB_API const char *sb_dds_format_name(uint32_t dxgi_format);

#ifdef __cplusplus
}
#endif

#endif
