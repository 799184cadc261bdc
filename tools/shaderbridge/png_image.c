/* SPDX-License-Identifier: MIT */
/* Texel data of resources.h layouts to 8-bit RGBA PNG files through libpng. */
#include "png_image.h"

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

static float half_to_float(uint16_t h)
{
    uint32_t sign = (uint32_t)(h >> 15) << 31, exponent = (h >> 10) & 31, mantissa = h & 1023;
    uint32_t bits;
    if (exponent == 0) {
        float f = ldexpf((float)mantissa, -24);
        return sign ? -f : f;
    }
    if (exponent == 31)
        bits = sign | 0x7f800000u | (mantissa << 13);
    else
        bits = sign | ((exponent + 112) << 23) | (mantissa << 13);
    float f;
    memcpy(&f, &bits, 4);
    return f;
}

static uint8_t unit_byte(float v)
{
    if (!(v > 0.0f))
        return 0;
    return v >= 1.0f ? 255 : (uint8_t)lrintf(v * 255.0f);
}

/* Texel (x, y) of mip 0 / `layer` as RGBA8. */
static void texel_rgba8(const struct sb_rt_resource *r, uint32_t layer, uint32_t x, uint32_t y,
                        uint8_t out[4])
{
    uint32_t size = sb_rt_format_size((enum sb_rt_format)r->format);
    uint32_t channels = sb_rt_format_channels((enum sb_rt_format)r->format);
    uint64_t index = ((uint64_t)layer * r->height + y) * r->width + x;
    uint64_t sample_count = r->sample_count ? r->sample_count : 1;
    const uint8_t *t = (const uint8_t *)r->data + index * sample_count * size;
    out[0] = out[1] = out[2] = 0;
    out[3] = 255;
    for (uint32_t c = 0; c < channels && c < 4; c++) {
        switch (r->format) {
        case SB_RT_FORMAT_R8G8B8A8_UNORM:
            out[c] = t[c];
            break;
        case SB_RT_FORMAT_R16G16B16A16_FLOAT: {
            uint16_t h;
            memcpy(&h, t + 2 * c, 2);
            out[c] = unit_byte(half_to_float(h));
            break;
        }
        case SB_RT_FORMAT_R32_FLOAT: case SB_RT_FORMAT_R32G32_FLOAT: case SB_RT_FORMAT_R32G32B32A32_FLOAT: {
            float f;
            memcpy(&f, t + 4 * c, 4);
            out[c] = unit_byte(f);
            break;
        }
        case SB_RT_FORMAT_R32_SINT: case SB_RT_FORMAT_R32G32_SINT: case SB_RT_FORMAT_R32G32B32A32_SINT: {
            int32_t v;
            memcpy(&v, t + 4 * c, 4);
            out[c] = v < 0 ? 0 : v > 255 ? 255 : (uint8_t)v;
            break;
        }
        default: {
            uint32_t v;
            memcpy(&v, t + 4 * c, 4);
            out[c] = v > 255 ? 255 : (uint8_t)v;
            break;
        }
        }
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
