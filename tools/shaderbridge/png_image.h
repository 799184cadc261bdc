/* SPDX-License-Identifier: MIT */
/*
 * PNG files of 2D texels (libpng): what `run` writes for 2D typed UAVs and
 * `validate` for the two sides of a mismatching image plus their difference.
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

#endif
