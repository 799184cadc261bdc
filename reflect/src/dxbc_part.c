/* SPDX-License-Identifier: MIT */
/*
 * Finding a part of a container by FourCC, and which program of it translation
 * reads (dxbc.h). It sits below the
 * container reader (dxbc_container.c) and the part decoders that look up a
 * sibling part while the container is being decoded (dxbc_program.c reads
 * DXIL, dxbc_sym0.c reads STR0), so calls between those files point one way:
 * the reader calls the decoders, and both call down to this file.
 */
#include "shaderbridge/dxbc.h"

#include <stddef.h>

const struct sb_dxbc_part *sb_dxbc_find_part(const struct sb_dxbc *dxbc, uint32_t fourcc)
{
    if (!dxbc)
        return NULL;
    for (uint32_t i = 0; i < dxbc->part_count; i++)
        if (dxbc->parts[i].fourcc == fourcc)
            return &dxbc->parts[i];
    return NULL;
}

bool sb_dxbc_is_dxil_only(const struct sb_dxbc *dxbc)
{
    if (!dxbc || !dxbc->is_dxil)
        return false;
    for (uint32_t i = 0; i < dxbc->part_count; i++)
        if (dxbc->parts[i].kind == SB_DXBC_PART_SHDR || dxbc->parts[i].kind == SB_DXBC_PART_SHEX)
            return false;
    return true;
}
