/* SPDX-License-Identifier: MIT */
/*
 * DDS reader (dds.h). Every header field is read through the bounded
 * cursor, so a file cut inside the headers fails with SB_ERROR_TRUNCATED at
 * the first DWORD that does not fit. Values are checked only after both
 * headers are read: a truncated file is reported as truncated, never as a
 * bad value read from a half header. The subresource layout is sized in
 * 64 bits against the bytes left before anything is allocated, so a lying
 * header cannot make the reader allocate more than the file could hold.
 */
#include "shaderbridge/dds.h"

#include <string.h>

#include "reflect_private.h"

/* Header field offsets (file offsets, the magic included). */
enum {
    OFF_SIZE = 4,
    OFF_FLAGS = 8,
    OFF_HEIGHT = 12,
    OFF_WIDTH = 16,
    OFF_PITCH = 20,
    OFF_DEPTH = 24,
    OFF_MIPS = 28,
    OFF_PF_SIZE = 76,
    OFF_PF_FLAGS = 80,
    OFF_FOURCC = 84,
    OFF_CAPS2 = 112,
    OFF_DX10_FORMAT = 128,
    OFF_DX10_DIMENSION = 132,
    OFF_DX10_MISC = 136,
    OFF_DX10_ARRAY = 140,
};

#define DDSD_PITCH 0x8u
#define DDPF_ALPHAPIXELS 0x1u
#define DDPF_ALPHA 0x2u
#define DDPF_FOURCC 0x4u
#define DDPF_RGB 0x40u
#define DDPF_LUMINANCE 0x20000u
#define DDPF_BUMPDUDV 0x80000u
#define DDSCAPS2_CUBEMAP 0x200u
#define DDSCAPS2_ALL_FACES 0xFC00u
#define DDSCAPS2_VOLUME 0x200000u
#define DX10_MISC_TEXTURECUBE 0x4u

#define FOURCC(a, b, c, d) \
    ((uint32_t)(a) | ((uint32_t)(b) << 8) | ((uint32_t)(c) << 16) | ((uint32_t)(d) << 24))

/*
 * The DXGI formats the reader can size: bits per texel for plain formats,
 * bytes per 4x4 block for BC formats. Typeless, video and packed 4:2:2
 * formats are left out on purpose: their layouts are not plain rows.
 */
struct format_info {
    uint32_t dxgi;
    uint16_t bits;  /* per texel; 0 for block formats */
    uint16_t block; /* bytes per 4x4 block; 0 for plain formats */
    const char *name;
};

static const struct format_info formats[] = {
    { 2, 128, 0, "R32G32B32A32_FLOAT" }, { 3, 128, 0, "R32G32B32A32_UINT" },
    { 4, 128, 0, "R32G32B32A32_SINT" },  { 6, 96, 0, "R32G32B32_FLOAT" },
    { 7, 96, 0, "R32G32B32_UINT" },      { 8, 96, 0, "R32G32B32_SINT" },
    { 10, 64, 0, "R16G16B16A16_FLOAT" }, { 11, 64, 0, "R16G16B16A16_UNORM" },
    { 12, 64, 0, "R16G16B16A16_UINT" },  { 13, 64, 0, "R16G16B16A16_SNORM" },
    { 14, 64, 0, "R16G16B16A16_SINT" },  { 16, 64, 0, "R32G32_FLOAT" },
    { 17, 64, 0, "R32G32_UINT" },        { 18, 64, 0, "R32G32_SINT" },
    { 24, 32, 0, "R10G10B10A2_UNORM" },  { 25, 32, 0, "R10G10B10A2_UINT" },
    { 26, 32, 0, "R11G11B10_FLOAT" },    { 28, 32, 0, "R8G8B8A8_UNORM" },
    { 29, 32, 0, "R8G8B8A8_UNORM_SRGB" }, { 30, 32, 0, "R8G8B8A8_UINT" },
    { 31, 32, 0, "R8G8B8A8_SNORM" },     { 32, 32, 0, "R8G8B8A8_SINT" },
    { 34, 32, 0, "R16G16_FLOAT" },       { 35, 32, 0, "R16G16_UNORM" },
    { 36, 32, 0, "R16G16_UINT" },        { 37, 32, 0, "R16G16_SNORM" },
    { 38, 32, 0, "R16G16_SINT" },        { 40, 32, 0, "D32_FLOAT" },
    { 41, 32, 0, "R32_FLOAT" },          { 42, 32, 0, "R32_UINT" },
    { 43, 32, 0, "R32_SINT" },           { 45, 32, 0, "D24_UNORM_S8_UINT" },
    { 49, 16, 0, "R8G8_UNORM" },         { 50, 16, 0, "R8G8_UINT" },
    { 51, 16, 0, "R8G8_SNORM" },         { 52, 16, 0, "R8G8_SINT" },
    { 54, 16, 0, "R16_FLOAT" },          { 55, 16, 0, "D16_UNORM" },
    { 56, 16, 0, "R16_UNORM" },          { 57, 16, 0, "R16_UINT" },
    { 58, 16, 0, "R16_SNORM" },          { 59, 16, 0, "R16_SINT" },
    { 61, 8, 0, "R8_UNORM" },            { 62, 8, 0, "R8_UINT" },
    { 63, 8, 0, "R8_SNORM" },            { 64, 8, 0, "R8_SINT" },
    { 65, 8, 0, "A8_UNORM" },            { 67, 32, 0, "R9G9B9E5_SHAREDEXP" },
    { 71, 0, 8, "BC1_UNORM" },           { 72, 0, 8, "BC1_UNORM_SRGB" },
    { 74, 0, 16, "BC2_UNORM" },          { 75, 0, 16, "BC2_UNORM_SRGB" },
    { 77, 0, 16, "BC3_UNORM" },          { 78, 0, 16, "BC3_UNORM_SRGB" },
    { 80, 0, 8, "BC4_UNORM" },           { 81, 0, 8, "BC4_SNORM" },
    { 83, 0, 16, "BC5_UNORM" },          { 84, 0, 16, "BC5_SNORM" },
    { 85, 16, 0, "B5G6R5_UNORM" },       { 86, 16, 0, "B5G5R5A1_UNORM" },
    { 87, 32, 0, "B8G8R8A8_UNORM" },     { 88, 32, 0, "B8G8R8X8_UNORM" },
    { 91, 32, 0, "B8G8R8A8_UNORM_SRGB" }, { 93, 32, 0, "B8G8R8X8_UNORM_SRGB" },
    { 95, 0, 16, "BC6H_UF16" },          { 96, 0, 16, "BC6H_SF16" },
    { 98, 0, 16, "BC7_UNORM" },          { 99, 0, 16, "BC7_UNORM_SRGB" },
    { 115, 16, 0, "B4G4R4A4_UNORM" },
};

static const struct format_info *find_format(uint32_t dxgi)
{
    for (size_t i = 0; i < sizeof(formats) / sizeof(formats[0]); i++)
        if (formats[i].dxgi == dxgi)
            return &formats[i];
    return NULL;
}

const char *sb_dds_format_name(uint32_t dxgi_format)
{
    const struct format_info *info = find_format(dxgi_format);
    return info ? info->name : "UNKNOWN";
}

/* Legacy FourCCs: the DXTn/ATIn/BCnX codes and the D3DFMT numbers of float formats. */
static uint32_t map_fourcc(uint32_t fourcc)
{
    switch (fourcc) {
    case FOURCC('D', 'X', 'T', '1'): return 71;
    case FOURCC('D', 'X', 'T', '2'): /* premultiplied alpha: same bits as DXT3 */
    case FOURCC('D', 'X', 'T', '3'): return 74;
    case FOURCC('D', 'X', 'T', '4'): /* premultiplied alpha: same bits as DXT5 */
    case FOURCC('D', 'X', 'T', '5'): return 77;
    case FOURCC('A', 'T', 'I', '1'):
    case FOURCC('B', 'C', '4', 'U'): return 80;
    case FOURCC('B', 'C', '4', 'S'): return 81;
    case FOURCC('A', 'T', 'I', '2'):
    case FOURCC('B', 'C', '5', 'U'): return 83;
    case FOURCC('B', 'C', '5', 'S'): return 84;
    case 36: return 11;  /* D3DFMT_A16B16G16R16 */
    case 110: return 13; /* D3DFMT_Q16W16V16U16 */
    case 111: return 54; /* D3DFMT_R16F */
    case 112: return 34; /* D3DFMT_G16R16F */
    case 113: return 10; /* D3DFMT_A16B16G16R16F */
    case 114: return 41; /* D3DFMT_R32F */
    case 115: return 16; /* D3DFMT_G32R32F */
    case 116: return 2;  /* D3DFMT_A32B32G32R32F */
    default: return 0;
    }
}

/* Legacy bit masks: the D3D9 formats that have a DXGI format with the same bits. */
struct mask_map {
    uint32_t pf_flag, bits, r, g, b, a, dxgi;
};

static const struct mask_map masks[] = {
    { DDPF_RGB, 32, 0xFFu, 0xFF00u, 0xFF0000u, 0xFF000000u, 28 },
    { DDPF_RGB, 32, 0xFF0000u, 0xFF00u, 0xFFu, 0xFF000000u, 87 },
    { DDPF_RGB, 32, 0xFF0000u, 0xFF00u, 0xFFu, 0, 88 },
    { DDPF_RGB, 32, 0x3FFu, 0xFFC00u, 0x3FF00000u, 0xC0000000u, 24 },
    { DDPF_RGB, 32, 0xFFFFu, 0xFFFF0000u, 0, 0, 35 },
    { DDPF_RGB, 32, 0xFFFFFFFFu, 0, 0, 0, 41 },
    { DDPF_RGB, 16, 0xF800u, 0x07E0u, 0x001Fu, 0, 85 },
    { DDPF_RGB, 16, 0x7C00u, 0x03E0u, 0x001Fu, 0x8000u, 86 },
    { DDPF_RGB, 16, 0x0F00u, 0x00F0u, 0x000Fu, 0xF000u, 115 },
    { DDPF_LUMINANCE, 8, 0xFFu, 0, 0, 0, 61 },
    { DDPF_LUMINANCE, 16, 0xFFFFu, 0, 0, 0, 56 },
    { DDPF_LUMINANCE, 16, 0xFFu, 0, 0, 0xFF00u, 49 },
    { DDPF_ALPHA, 8, 0, 0, 0, 0xFFu, 65 },
    { DDPF_BUMPDUDV, 16, 0xFFu, 0xFF00u, 0, 0, 51 },
    { DDPF_BUMPDUDV, 32, 0xFFu, 0xFF00u, 0xFF0000u, 0xFF000000u, 31 },
    { DDPF_BUMPDUDV, 32, 0xFFFFu, 0xFFFF0000u, 0, 0, 37 },
};

static uint32_t map_masks(const struct sb_dds *d)
{
    /* Without DDPF_ALPHAPIXELS the alpha mask means nothing (BGRX files often
     * leave one behind); DDPF_ALPHA-only files carry their mask regardless. */
    uint32_t a = (d->pf_flags & (DDPF_ALPHAPIXELS | DDPF_ALPHA)) ? d->a_mask : 0;
    for (size_t i = 0; i < sizeof(masks) / sizeof(masks[0]); i++) {
        const struct mask_map *m = &masks[i];
        if ((d->pf_flags & m->pf_flag) && d->rgb_bit_count == m->bits && d->r_mask == m->r &&
            (m->pf_flag == DDPF_LUMINANCE || m->pf_flag == DDPF_ALPHA ||
             (d->g_mask == m->g && d->b_mask == m->b)) &&
            a == m->a)
            return m->dxgi;
    }
    return 0;
}

static void fourcc_text(uint32_t fourcc, char text[5])
{
    for (int i = 0; i < 4; i++) {
        char c = (char)((fourcc >> (8 * i)) & 0xFF);
        text[i] = (c >= 0x20 && c < 0x7F) ? c : '?';
    }
    text[4] = 0;
}

static bool fail(struct sb_reader *r, enum sb_result code, uint64_t offset, const char *what)
{
    return sb_reader_fail(r, code, offset, "%s", what);
}

static bool read_headers(struct sb_reader *r, struct sb_cursor *c, struct sb_dds *d)
{
    uint32_t magic = sb_cursor_u32(c, "DDS magic");
    if (!sb_cursor_ok(c))
        return false;
    if (magic != SB_DDS_MAGIC)
        return sb_reader_fail(r, SB_ERROR_BAD_MAGIC, 0,
                              "DDS magic: found 0x%08x, expected \"DDS \" (0x%08x)", magic,
                              SB_DDS_MAGIC);
    uint32_t header_size = sb_cursor_u32(c, "DDS_HEADER.dwSize");
    d->flags = sb_cursor_u32(c, "DDS_HEADER.dwFlags");
    d->header_height = sb_cursor_u32(c, "DDS_HEADER.dwHeight");
    d->header_width = sb_cursor_u32(c, "DDS_HEADER.dwWidth");
    d->pitch_or_linear_size = sb_cursor_u32(c, "DDS_HEADER.dwPitchOrLinearSize");
    d->header_depth = sb_cursor_u32(c, "DDS_HEADER.dwDepth");
    d->header_mip_count = sb_cursor_u32(c, "DDS_HEADER.dwMipMapCount");
    /* Reserved DWORDs one at a time, so a cut inside them is reported at its DWORD. */
    for (int i = 0; i < 11; i++)
        (void)sb_cursor_u32(c, "DDS_HEADER.dwReserved1");
    uint32_t pf_size = sb_cursor_u32(c, "DDS_PIXELFORMAT.dwSize");
    d->pf_flags = sb_cursor_u32(c, "DDS_PIXELFORMAT.dwFlags");
    d->fourcc = sb_cursor_u32(c, "DDS_PIXELFORMAT.dwFourCC");
    d->rgb_bit_count = sb_cursor_u32(c, "DDS_PIXELFORMAT.dwRGBBitCount");
    d->r_mask = sb_cursor_u32(c, "DDS_PIXELFORMAT.dwRBitMask");
    d->g_mask = sb_cursor_u32(c, "DDS_PIXELFORMAT.dwGBitMask");
    d->b_mask = sb_cursor_u32(c, "DDS_PIXELFORMAT.dwBBitMask");
    d->a_mask = sb_cursor_u32(c, "DDS_PIXELFORMAT.dwABitMask");
    d->caps = sb_cursor_u32(c, "DDS_HEADER.dwCaps");
    d->caps2 = sb_cursor_u32(c, "DDS_HEADER.dwCaps2");
    (void)sb_cursor_u32(c, "DDS_HEADER.dwCaps3");
    (void)sb_cursor_u32(c, "DDS_HEADER.dwCaps4");
    (void)sb_cursor_u32(c, "DDS_HEADER.dwReserved2");
    if (!sb_cursor_ok(c))
        return false;
    /* The sizes are checked after the header is whole so that a cut file is
     * always "truncated"; they are checked before the DX10 header is read
     * because a wrong size means the extension's position is unknown. */
    if (header_size != SB_DDS_HEADER_SIZE)
        return sb_reader_fail(r, SB_ERROR_BAD_SIZE, OFF_SIZE,
                              "DDS_HEADER.dwSize: found %u, expected %u", header_size,
                              SB_DDS_HEADER_SIZE);
    if (pf_size != SB_DDS_PIXELFORMAT_SIZE)
        return sb_reader_fail(r, SB_ERROR_BAD_SIZE, OFF_PF_SIZE,
                              "DDS_PIXELFORMAT.dwSize: found %u, expected %u", pf_size,
                              SB_DDS_PIXELFORMAT_SIZE);
    d->has_dx10 = (d->pf_flags & DDPF_FOURCC) && d->fourcc == FOURCC('D', 'X', '1', '0');
    if (d->has_dx10) {
        d->dx10_format = sb_cursor_u32(c, "DDS_HEADER_DXT10.dxgiFormat");
        d->dx10_dimension = sb_cursor_u32(c, "DDS_HEADER_DXT10.resourceDimension");
        d->dx10_misc_flag = sb_cursor_u32(c, "DDS_HEADER_DXT10.miscFlag");
        d->dx10_array_size = sb_cursor_u32(c, "DDS_HEADER_DXT10.arraySize");
        d->dx10_misc_flags2 = sb_cursor_u32(c, "DDS_HEADER_DXT10.miscFlags2");
    }
    d->data_offset = sb_cursor_tell(c);
    return sb_cursor_ok(c);
}

/* Picks the DXGI format; fails naming the FourCC, masks or number it cannot size. */
static bool resolve_format(struct sb_reader *r, struct sb_dds *d)
{
    uint32_t dxgi;
    if (d->has_dx10) {
        dxgi = d->dx10_format;
        if (!find_format(dxgi))
            return sb_reader_fail(r, SB_ERROR_BAD_VALUE, OFF_DX10_FORMAT,
                                  "DDS_HEADER_DXT10.dxgiFormat: DXGI format %u is not one this "
                                  "reader can size",
                                  dxgi);
    } else if (d->pf_flags & DDPF_FOURCC) {
        dxgi = map_fourcc(d->fourcc);
        if (!dxgi) {
            char text[5];
            fourcc_text(d->fourcc, text);
            return sb_reader_fail(r, SB_ERROR_BAD_VALUE, OFF_FOURCC,
                                  "DDS_PIXELFORMAT.dwFourCC: unknown FourCC '%s' (0x%08x)", text,
                                  d->fourcc);
        }
    } else {
        dxgi = map_masks(d);
        if (!dxgi)
            return sb_reader_fail(r, SB_ERROR_BAD_VALUE, OFF_PF_FLAGS,
                                  "DDS_PIXELFORMAT: no DXGI format for flags 0x%x, %u bits, masks "
                                  "R 0x%x G 0x%x B 0x%x A 0x%x",
                                  d->pf_flags, d->rgb_bit_count, d->r_mask, d->g_mask, d->b_mask,
                                  d->a_mask);
    }
    const struct format_info *info = find_format(dxgi);
    d->dxgi_format = dxgi;
    d->bits_per_texel = info->bits;
    d->block_size = info->block;
    d->block_compressed = info->block != 0;
    return true;
}

static uint32_t max_mips(uint32_t w, uint32_t h, uint32_t depth)
{
    uint32_t m = w > h ? w : h;
    m = m > depth ? m : depth;
    uint32_t levels = 1;
    while (m > 1) {
        m >>= 1;
        levels++;
    }
    return levels;
}

/* Dimension, size, array, cube and mip rules; each failure names its field. */
static bool resolve_shape(struct sb_reader *r, struct sb_dds *d)
{
    bool legacy_cube = (d->caps2 & DDSCAPS2_CUBEMAP) != 0;
    if (d->has_dx10) {
        if (d->dx10_dimension < SB_DDS_DIMENSION_1D || d->dx10_dimension > SB_DDS_DIMENSION_3D)
            return sb_reader_fail(r, SB_ERROR_BAD_VALUE, OFF_DX10_DIMENSION,
                                  "DDS_HEADER_DXT10.resourceDimension: found %u, expected 2 "
                                  "(1D), 3 (2D) or 4 (3D)",
                                  d->dx10_dimension);
        d->dimension = (enum sb_dds_dimension)d->dx10_dimension;
        d->cube = (d->dx10_misc_flag & DX10_MISC_TEXTURECUBE) != 0;
        if (d->cube && d->dimension != SB_DDS_DIMENSION_2D)
            return fail(r, SB_ERROR_BAD_VALUE, OFF_DX10_MISC,
                        "DDS_HEADER_DXT10.miscFlag: TEXTURECUBE on a texture that is not 2D");
        if (d->dx10_array_size == 0)
            return fail(r, SB_ERROR_BAD_VALUE, OFF_DX10_ARRAY,
                        "DDS_HEADER_DXT10.arraySize: 0 (at least 1 is required)");
        if (d->dimension == SB_DDS_DIMENSION_3D && d->dx10_array_size != 1)
            return sb_reader_fail(r, SB_ERROR_BAD_VALUE, OFF_DX10_ARRAY,
                                  "DDS_HEADER_DXT10.arraySize: %u on a volume texture (3D "
                                  "textures cannot be arrays)",
                                  d->dx10_array_size);
        d->array_size = d->dx10_array_size;
    } else {
        bool volume = (d->caps2 & DDSCAPS2_VOLUME) != 0;
        if (legacy_cube && volume)
            return fail(r, SB_ERROR_BAD_VALUE, OFF_CAPS2,
                        "DDS_HEADER.dwCaps2: both CUBEMAP and VOLUME are set");
        if (legacy_cube && (d->caps2 & DDSCAPS2_ALL_FACES) != DDSCAPS2_ALL_FACES)
            return sb_reader_fail(r, SB_ERROR_BAD_VALUE, OFF_CAPS2,
                                  "DDS_HEADER.dwCaps2: cube map with face bits 0x%x, all six "
                                  "(0xfc00) are required",
                                  d->caps2 & DDSCAPS2_ALL_FACES);
        d->dimension = volume ? SB_DDS_DIMENSION_3D : SB_DDS_DIMENSION_2D;
        d->cube = legacy_cube;
        d->array_size = 1;
    }
    d->face_count = d->cube ? 6 : 1;
    d->width = d->header_width;
    d->height = d->header_height;
    d->depth = d->dimension == SB_DDS_DIMENSION_3D ? d->header_depth : 1;

    if (d->width == 0 || d->width > SB_DDS_MAX_DIMENSION)
        return sb_reader_fail(r, SB_ERROR_BAD_VALUE, OFF_WIDTH,
                              "DDS_HEADER.dwWidth: %u, expected 1..%u", d->width,
                              SB_DDS_MAX_DIMENSION);
    if (d->height == 0 || d->height > SB_DDS_MAX_DIMENSION)
        return sb_reader_fail(r, SB_ERROR_BAD_VALUE, OFF_HEIGHT,
                              "DDS_HEADER.dwHeight: %u, expected 1..%u", d->height,
                              SB_DDS_MAX_DIMENSION);
    if (d->dimension == SB_DDS_DIMENSION_1D && d->height != 1)
        return sb_reader_fail(r, SB_ERROR_BAD_VALUE, OFF_HEIGHT,
                              "DDS_HEADER.dwHeight: %u on a 1D texture, expected 1", d->height);
    if (d->depth == 0 || d->depth > SB_DDS_MAX_DEPTH)
        return sb_reader_fail(r, SB_ERROR_BAD_VALUE, OFF_DEPTH,
                              "DDS_HEADER.dwDepth: %u on a volume texture, expected 1..%u",
                              d->depth, SB_DDS_MAX_DEPTH);
    if (d->cube && d->width != d->height)
        return sb_reader_fail(r, SB_ERROR_BAD_VALUE, OFF_WIDTH,
                              "DDS_HEADER.dwWidth: cube faces must be square, found %ux%u",
                              d->width, d->height);
    if ((uint64_t)d->array_size * d->face_count > SB_DDS_MAX_SLICES)
        return sb_reader_fail(r, SB_ERROR_BAD_VALUE, OFF_DX10_ARRAY,
                              "DDS_HEADER_DXT10.arraySize: %u elements of %u faces exceed %u "
                              "slices",
                              d->array_size, d->face_count, SB_DDS_MAX_SLICES);

    uint32_t limit = max_mips(d->width, d->height, d->depth);
    d->mip_count = d->header_mip_count ? d->header_mip_count : 1;
    if (d->mip_count > limit)
        return sb_reader_fail(r, SB_ERROR_BAD_COUNT, OFF_MIPS,
                              "DDS_HEADER.dwMipMapCount: %u levels, a %ux%ux%u texture has at "
                              "most %u",
                              d->mip_count, d->width, d->height, d->depth, limit);
    return true;
}

/* Size of one mip level of one face: row pitch, row count, slice, depth. */
static void level_layout(const struct sb_dds *d, uint32_t mip, struct sb_dds_subresource *s)
{
    s->mip = mip;
    s->width = d->width >> mip ? d->width >> mip : 1;
    s->height = d->height >> mip ? d->height >> mip : 1;
    s->depth = d->depth >> mip ? d->depth >> mip : 1;
    if (d->block_compressed) {
        /* 4x4 blocks, partial blocks rounded up: a 1x1 level still takes one block. */
        s->row_pitch = ((s->width + 3) / 4) * d->block_size;
        s->row_count = (s->height + 3) / 4;
    } else {
        s->row_pitch = (uint32_t)(((uint64_t)s->width * d->bits_per_texel + 7) / 8);
        s->row_count = s->height;
    }
    s->slice_size = (uint64_t)s->row_pitch * s->row_count;
    s->size = s->slice_size * s->depth;
}

static bool check_pitch(struct sb_reader *r, const struct sb_dds *d)
{
    /* Only DDSD_PITCH on a plain format changes how rows are laid out; the
     * linear size of block formats is advisory (writers disagree on it) and
     * the layout follows from the width alone. */
    if (d->block_compressed || !(d->flags & DDSD_PITCH) || d->pitch_or_linear_size == 0)
        return true;
    struct sb_dds_subresource top;
    level_layout(d, 0, &top);
    if (d->pitch_or_linear_size != top.row_pitch)
        return sb_reader_fail(r, SB_ERROR_BAD_SIZE, OFF_PITCH,
                              "DDS_HEADER.dwPitchOrLinearSize: pitch %u, but %u texels of %s "
                              "take %u bytes",
                              d->pitch_or_linear_size, d->width, sb_dds_format_name(d->dxgi_format),
                              top.row_pitch);
    return true;
}

static bool lay_out(struct sb_reader *r, struct sb_dds *d)
{
    /* One element's mip chain, then all elements: 64-bit sums of values
     * below 2^33 and at most 2048 slices cannot overflow, and the whole is
     * compared with the bytes present before anything is allocated. */
    uint64_t chain = 0;
    for (uint32_t mip = 0; mip < d->mip_count; mip++) {
        struct sb_dds_subresource s;
        level_layout(d, mip, &s);
        chain += s.size;
    }
    uint64_t slices = (uint64_t)d->array_size * d->face_count;
    d->data_size = chain * slices;
    d->subresource_count = (uint32_t)(slices * d->mip_count);
    uint64_t available = r->size - d->data_offset;
    uint64_t offset = d->data_offset;
    if (d->data_size > available) {
        /* Find the first subresource that does not fit, for the offset. */
        for (uint64_t slice = 0; slice < slices; slice++) {
            for (uint32_t mip = 0; mip < d->mip_count; mip++) {
                struct sb_dds_subresource s;
                level_layout(d, mip, &s);
                if (s.size > r->size - offset)
                    return sb_reader_fail(
                        r, SB_ERROR_TRUNCATED, offset,
                        "DDS data: element %llu face %llu mip %u needs %llu bytes at offset "
                        "%llu but only %llu remain (all subresources need %llu)",
                        (unsigned long long)(slice / d->face_count),
                        (unsigned long long)(slice % d->face_count), mip,
                        (unsigned long long)s.size, (unsigned long long)offset,
                        (unsigned long long)(r->size - offset),
                        (unsigned long long)d->data_size);
                offset += s.size;
            }
        }
        return fail(r, SB_ERROR_TRUNCATED, d->data_offset, "DDS data: runs past the end");
    }
    d->trailing_size = available - d->data_size;
    d->subresources = sb_reader_alloc(r, d->subresource_count, sizeof(*d->subresources));
    if (!d->subresources)
        return false;
    uint32_t n = 0;
    for (uint64_t slice = 0; slice < slices; slice++) {
        for (uint32_t mip = 0; mip < d->mip_count; mip++) {
            struct sb_dds_subresource *s = &d->subresources[n++];
            level_layout(d, mip, s);
            s->array_index = (uint32_t)(slice / d->face_count);
            s->face = (uint32_t)(slice % d->face_count);
            s->offset = offset;
            s->data = r->data + offset;
            offset += s->size;
        }
    }
    return true;
}

enum sb_result sb_dds_parse(const void *data, size_t size, struct sb_dds **out,
                            struct sb_error *error)
{
    if (out)
        *out = NULL;
    if (!data || !out)
        return sb_report_argument_error(error, "sb_dds_parse: data and out must not be NULL");

    struct sb_reader reader;
    struct sb_dds *dds = sb_reader_begin_borrowed(&reader, data, size, sizeof(*dds));
    if (!dds)
        return sb_reader_finish(&reader, error);
    dds->bytes = reader.data;
    dds->size = reader.size;
    struct sb_cursor file = sb_cursor_whole(&reader);
    if (read_headers(&reader, &file, dds) && resolve_format(&reader, dds) &&
        resolve_shape(&reader, dds) && check_pitch(&reader, dds))
        lay_out(&reader, dds);
    enum sb_result result = sb_reader_finish(&reader, error);
    if (result == SB_SUCCESS)
        *out = dds;
    return result;
}

void sb_dds_destroy(struct sb_dds *dds)
{
    sb_object_destroy(dds);
}
