/* SPDX-License-Identifier: MIT */
/*
 * PNG files of 2D texels (libpng): what `run` writes for 2D typed UAVs and
 * `validate` for the two sides of a mismatching image plus their difference, and
 * what `--input tN=FILE.png` reads.
 */
#ifndef SB_CLI_PNG_IMAGE_H
#define SB_CLI_PNG_IMAGE_H

#include <stdbool.h>
#include <stdint.h>

#include "shaderbridge/resources.h"

/**
 * Writes mip 0, layer/slice `layer` of a 2D texture resource as 8-bit RGBA: float
 * channels clamped to [0, 1], integer channels clamped to [0, 255], missing channels
 * 0 (alpha 255). False (errno set, nothing printed) when it cannot be written or the
 * resource is not an image.
 */
bool cli_png_write_texture(const char *path, const struct sb_rt_resource *texture, uint32_t layer);

/**
 * Writes a difference image of two same-shaped textures: texels that differ in any
 * word red (255, 0, 0), equal texels as a dimmed grey of the first one's red channel.
 */
bool cli_png_write_difference(const char *path, const struct sb_rt_resource *a,
                              const struct sb_rt_resource *b, uint32_t layer);

/** Whether an --input file is to be read as PNG: its name ends in ".png" or ".PNG". */
bool cli_png_input_named(const char *path);

/**
 * Reads `size` bytes of PNG into `r` (its register fields kept) as a one-level Texture2D:
 * 8-bit (and palette, grey, lower depths) images as r8g8b8a8_unorm, 16-bit ones as
 * r16g16b16a16_unorm, every colour type expanded to RGBA (alpha 1 where the file has none),
 * the stored values as they are (no gamma applied). `*texels` receives the malloc'd texels,
 * also r->data (the caller frees them). Errors: SB_ERROR_BAD_MAGIC (not a PNG),
 * SB_ERROR_BAD_VALUE with libpng's message and the byte offset it had read to (a
 * truncated or corrupt file, a side above 16384), SB_ERROR_OUT_OF_MEMORY.
 */
enum sb_result cli_png_read_texture(const uint8_t *bytes, size_t size, struct sb_rt_resource *r, void **texels,
                                    struct sb_error *error);

#endif
