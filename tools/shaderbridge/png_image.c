/* SPDX-License-Identifier: MIT */
/*
 * Texel data of resources.h layouts to 8-bit RGBA PNG files through libpng, and PNG files
 * read back as 2D textures for `--input tN=FILE.png` (bounds-checked: libpng reads through a
 * callback that refuses to pass the end of the bytes and reports where it stopped).
 */
#include "png_image.h"

#include "error.h"
#include "shaderbridge/interp.h"

#include <errno.h>
#include <math.h>
#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool is_image(const struct sb_rt_resource *r)
{
    return r->dimension >= 2 && r->dimension != 11 && r->dimension != 12 && r->width && r->height &&
           sb_rt_format_size((enum sb_rt_format)r->format);
}

static uint8_t unit_byte(float v)
{
    if (!(v > 0.0f))
        return 0;
    return v >= 1.0f ? 255 : (uint8_t)lrintf(v * 255.0f);
}

/* Texel (x, y) of mip 0 / `layer` as RGBA8: its lanes as a shader reads them
 * (sb_interp_texel_unpack), floats clamped to [0, 1], integers to [0, 255]. */
static void texel_rgba8(const struct sb_rt_resource *r, uint32_t layer, uint32_t x, uint32_t y,
                        uint8_t out[4])
{
    enum sb_rt_format format = (enum sb_rt_format)r->format;
    uint32_t size = sb_rt_format_size(format);
    uint32_t channels = sb_rt_format_channels(format);
    uint64_t index = ((uint64_t)layer * r->height + y) * r->width + x;
    uint64_t sample_count = r->sample_count ? r->sample_count : 1;
    const uint8_t *t = (const uint8_t *)r->data + index * sample_count * size;
    out[0] = out[1] = out[2] = 0;
    out[3] = 255;
    uint32_t lanes[4];
    if (!sb_interp_texel_unpack(format, t, lanes))
        return;
    const char *name = sb_rt_format_name(format);
    bool sint = strstr(name, "_sint") != NULL, uint = strstr(name, "_uint") != NULL;
    for (uint32_t c = 0; c < channels && c < 4; c++) {
        float f;
        memcpy(&f, &lanes[c], 4);
        if (sint)
            out[c] = (int32_t)lanes[c] < 0 ? 0 : (int32_t)lanes[c] > 255 ? 255 : (uint8_t)lanes[c];
        else if (uint)
            out[c] = lanes[c] > 255 ? 255 : (uint8_t)lanes[c];
        else
            out[c] = unit_byte(f);
    }
}

static bool texels_differ(const struct sb_rt_resource *a, const struct sb_rt_resource *b, uint32_t layer,
                          uint32_t x, uint32_t y)
{
    uint32_t size = sb_rt_format_size((enum sb_rt_format)a->format);
    uint64_t offset = (((uint64_t)layer * a->height + y) * a->width + x) * size;
    return memcmp((const uint8_t *)a->data + offset, (const uint8_t *)b->data + offset, size) != 0;
}

static bool write_png(const char *path, uint32_t width, uint32_t height, const uint8_t *rgba)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return false;
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    bool ok = png && info;
    png_bytep *rows = ok ? malloc(sizeof(*rows) * height) : NULL;
    if (ok && rows && !setjmp(png_jmpbuf(png))) {
        png_init_io(png, f);
        png_set_IHDR(png, info, width, height, 8, PNG_COLOR_TYPE_RGBA, PNG_INTERLACE_NONE,
                     PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
        for (uint32_t y = 0; y < height; y++)
            rows[y] = (png_bytep)(rgba + (size_t)y * width * 4);
        png_write_info(png, info);
        png_write_image(png, rows);
        png_write_end(png, NULL);
    } else {
        ok = false;
        errno = errno ? errno : EIO;
    }
    free(rows);
    png_destroy_write_struct(png ? &png : NULL, info ? &info : NULL);
    if (fclose(f) != 0)
        ok = false;
    return ok;
}

bool cli_png_write_texture(const char *path, const struct sb_rt_resource *r, uint32_t layer)
{
    if (!is_image(r)) {
        errno = EINVAL;
        return false;
    }
    uint8_t *rgba = malloc((size_t)r->width * r->height * 4);
    if (!rgba)
        return false;
    for (uint32_t y = 0; y < r->height; y++)
        for (uint32_t x = 0; x < r->width; x++)
            texel_rgba8(r, layer, x, y, rgba + ((size_t)y * r->width + x) * 4);
    bool ok = write_png(path, r->width, r->height, rgba);
    free(rgba);
    return ok;
}

bool cli_png_write_difference(const char *path, const struct sb_rt_resource *a,
                              const struct sb_rt_resource *b, uint32_t layer)
{
    if (!is_image(a) || !is_image(b) || a->size != b->size || a->format != b->format) {
        errno = EINVAL;
        return false;
    }
    uint8_t *rgba = malloc((size_t)a->width * a->height * 4);
    if (!rgba)
        return false;
    for (uint32_t y = 0; y < a->height; y++) {
        for (uint32_t x = 0; x < a->width; x++) {
            uint8_t *out = rgba + ((size_t)y * a->width + x) * 4;
            if (texels_differ(a, b, layer, x, y)) {
                out[0] = 255;
                out[1] = out[2] = 0;
            } else {
                uint8_t t[4];
                texel_rgba8(a, layer, x, y, t);
                out[0] = out[1] = out[2] = (uint8_t)(t[0] / 3);
            }
            out[3] = 255;
        }
    }
    bool ok = write_png(path, a->width, a->height, rgba);
    free(rgba);
    return ok;
}

/* ---- reading: `--input tN=FILE.png` ------------------------------------------------------ */

/* The PNG bytes libpng reads from, and how far it got (the offset of an error). */
struct png_source {
    const uint8_t *bytes;
    size_t size, at;
    char message[160];
};

static void read_source(png_structp png, png_bytep out, size_t length)
{
    struct png_source *src = png_get_io_ptr(png);
    if (length > src->size - src->at) {
        snprintf(src->message, sizeof(src->message), "the file ends: %zu bytes wanted at offset %zu, %zu remain",
                 length, src->at, src->size - src->at);
        png_error(png, src->message);
    }
    memcpy(out, src->bytes + src->at, length);
    src->at += length;
}

static void read_error(png_structp png, png_const_charp message)
{
    struct png_source *src = png_get_io_ptr(png);
    if (src->message != message)
        snprintf(src->message, sizeof(src->message), "%s", message);
    png_longjmp(png, 1);
}

static void read_warning(png_structp png, png_const_charp message)
{
    (void)png;
    (void)message; /* libpng's warnings (an unknown chunk) do not change the texels */
}

/* What a decode allocates, freed by its caller whether or not libpng jumped out. */
struct png_buffers {
    uint8_t *texels;
    png_bytep *rows;
};

/* The decode, apart so that setjmp's caller has no locals that change after it. */
static bool decode_png(png_structp png, png_infop info, struct sb_rt_resource *r, struct png_buffers *b)
{
    if (setjmp(png_jmpbuf(png)))
        return false;
    /* 16384 x 16384 is D3D11's largest 2D texture. */
    png_set_user_limits(png, 16384, 16384);
    png_read_info(png, info);
    uint32_t width = png_get_image_width(png, info), height = png_get_image_height(png, info);
    int depth = png_get_bit_depth(png, info), type = png_get_color_type(png, info);
    /* Every colour type as RGBA at its own depth: palettes and low bit depths expand to 8 bits,
     * grey to RGB, a missing alpha becomes opaque; 16-bit samples in the host's little-endian
     * order (sb_rt_format layouts). No gamma is applied: the texels are the stored values. */
    png_set_expand(png);
    png_set_gray_to_rgb(png);
    if (!(type & PNG_COLOR_MASK_ALPHA) && !png_get_valid(png, info, PNG_INFO_tRNS))
        png_set_add_alpha(png, depth == 16 ? 0xFFFF : 0xFF, PNG_FILLER_AFTER);
    if (depth == 16)
        png_set_swap(png);
    png_set_interlace_handling(png);
    png_read_update_info(png, info);
    size_t row = png_get_rowbytes(png, info), texel = depth == 16 ? 8 : 4;
    if (row != (size_t)width * texel)
        png_error(png, "unexpected row size after expansion to RGBA");
    b->texels = malloc(row * height);
    b->rows = b->texels ? malloc(sizeof(*b->rows) * height) : NULL;
    if (!b->rows)
        png_error(png, "out of memory");
    for (uint32_t y = 0; y < height; y++)
        b->rows[y] = b->texels + (size_t)y * row;
    png_read_image(png, b->rows);
    r->format = depth == 16 ? SB_RT_FORMAT_R16G16B16A16_UNORM : SB_RT_FORMAT_R8G8B8A8_UNORM;
    r->dimension = 3; /* Texture2D */
    r->width = width;
    r->height = height;
    r->depth = r->layers = r->mip_levels = r->sample_count = 1;
    r->size = row * height;
    return true;
}

bool cli_png_input_named(const char *path)
{
    size_t n = strlen(path);
    return n >= 4 && (!strcmp(path + n - 4, ".png") || !strcmp(path + n - 4, ".PNG"));
}

enum sb_result cli_png_read_texture(const uint8_t *bytes, size_t size, struct sb_rt_resource *r, void **texels,
                                    struct sb_error *error)
{
    *texels = NULL;
    struct png_source src = { .bytes = bytes, .size = size };
    if (size < 8 || png_sig_cmp(bytes, 0, 8))
        return sb_error_set(error, SB_ERROR_BAD_MAGIC, 0, SB_ERROR_NO_INSTR, "not a PNG file (no PNG signature)");
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &src, read_error, read_warning);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    if (!info) {
        png_destroy_read_struct(png ? &png : NULL, NULL, NULL);
        return sb_error_set(error, SB_ERROR_OUT_OF_MEMORY, 0, SB_ERROR_NO_INSTR, "out of memory reading a PNG");
    }
    png_set_read_fn(png, &src, read_source);
    struct png_buffers b = { NULL, NULL };
    struct sb_rt_resource shaped = *r;
    bool ok = decode_png(png, info, &shaped, &b);
    png_destroy_read_struct(&png, &info, NULL);
    free(b.rows);
    if (!ok) {
        free(b.texels);
        return sb_error_set(error, SB_ERROR_BAD_VALUE, src.at, SB_ERROR_NO_INSTR, "PNG: %s", src.message);
    }
    *r = shaped;
    r->data = b.texels;
    *texels = b.texels;
    return SB_SUCCESS;
}
