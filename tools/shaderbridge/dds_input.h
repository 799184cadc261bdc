/* SPDX-License-Identifier: MIT */
/* `--input tN=FILE.dds` for run's draws and dispatches: a DDS file as a shaped texture. */
#ifndef SHADERBRIDGE_CLI_DDS_INPUT_H
#define SHADERBRIDGE_CLI_DDS_INPUT_H

#include <stdbool.h>

#include "cli.h"
#include "shaderbridge/resources.h"

/** Whether an --input file is to be read as DDS: its name ends in ".dds" (any case). */
bool cli_dds_input_named(const char *path);

/**
 * Reads `file` (named `path`) as DDS into `r` (its register fields kept): format, dimension
 * (SM4 numbering), extents, layers and mip levels from the file, data re-laid out level-major
 * as sb_rt_texture_bytes expects and owned by `file` (its bytes are replaced). Prints why and
 * returns false for a file the DDS reader refuses (with its byte offset) or a DXGI format
 * sb_rt_format has no counterpart for.
 */
bool cli_dds_input_load(const char *path, struct cli_file *file, struct sb_rt_resource *r);

#endif
