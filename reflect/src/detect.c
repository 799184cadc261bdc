/* SPDX-License-Identifier: MIT */
/* Format detection from magic numbers (reflect.h). */
#include "shaderbridge/reflect.h"

#include "cursor.h"

enum sb_format sb_format_detect(const void *data, size_t size)
{
    const uint8_t *p = data;
    if (!p)
        return SB_FORMAT_UNKNOWN;
    if (size >= 4) {
        uint32_t magic = sb_load_u32(p);
        if (magic == SB_FOURCC('D', 'X', 'B', 'C'))
            return SB_FORMAT_DXCONTAINER;
        if (magic == SB_FOURCC('D', 'D', 'S', ' '))
            return SB_FORMAT_DDS;
        if (magic == SB_FOURCC('D', 'V', 'L', 'B'))
            return SB_FORMAT_SHBIN;
        if (magic == 0x07230203u || magic == 0x03022307u)
            return SB_FORMAT_SPIRV;
    }
    if (size >= 3 && p[0] == 'V' && p[1] == 'B' && p[2] == 'C')
        return SB_FORMAT_VBC;
    return SB_FORMAT_UNKNOWN;
}

const char *sb_format_name(enum sb_format format)
{
    switch (format) {
    case SB_FORMAT_DXCONTAINER: return "dxcontainer";
    case SB_FORMAT_SHBIN: return "shbin";
    case SB_FORMAT_VBC: return "vbc";
    case SB_FORMAT_SPIRV: return "spirv";
    case SB_FORMAT_DDS: return "dds";
    default: return "unknown";
    }
}
