/* SPDX-License-Identifier: MIT */
/*
 * shaderbridge reflection: the umbrella header of the `reflect` module and
 * format detection from the bytes.
 *
 * The module reads DirectX Containers (dxbc.h), PICA200 SHBIN/DVLB files
 * (shbin.h), VBC files (vbc.h) and DDS textures (dds.h) with libc alone; every reader is bounds
 * checked and reports failures as `struct sb_error` (result.h).
 */
#ifndef SHADERBRIDGE_REFLECT_H
#define SHADERBRIDGE_REFLECT_H

#include "shaderbridge/result.h"
#include "shaderbridge/dxbc.h"
#include "shaderbridge/dxbc_fxc.h"
#include "shaderbridge/dxbc_dxil.h"
#include "shaderbridge/shbin.h"
#include "shaderbridge/vbc.h"
#include "shaderbridge/dds.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The library version (major * 10000 + minor * 100 + patch). */
#define SB_VERSION 100

/** A file format recognised from its first bytes. */
enum sb_format {
    SB_FORMAT_UNKNOWN = 0,
    SB_FORMAT_DXCONTAINER = 1, /**< 'DXBC' magic: fxc (DXBC) or dxc (DXIL) container */
    SB_FORMAT_SHBIN = 2,       /**< 'DVLB' magic: PICA200 shader binary */
    SB_FORMAT_VBC = 3,         /**< 'VBC' magic: compiled VSL shader */
    SB_FORMAT_SPIRV = 4,       /**< SPIR-V magic 0x07230203 (either byte order) */
    SB_FORMAT_DDS = 5,         /**< 'DDS ' magic: DirectDraw Surface texture (dds.h) */
    SB_FORMAT_MAX_ENUM = 0x7fffffff
};

/** Recognises the format from the magic at the start of `data` (NULL-safe). */
SB_API enum sb_format sb_format_detect(const void *data, size_t size);

/** Lower-case name of a format ("dxcontainer", "shbin", "vbc", "spirv", "dds", "unknown"). */
SB_API const char *sb_format_name(enum sb_format format);

#ifdef __cplusplus
}
#endif

#endif
