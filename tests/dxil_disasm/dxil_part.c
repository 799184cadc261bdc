/* SPDX-License-Identifier: MIT */
/* The DXIL part of a container file (dxil_part.h). */
#include "dxil_part.h"

const struct sb_dxbc_part *dxil_part_of(const char *bytes, size_t size, struct sb_dxbc **dxbc)
{
    struct sb_error error = { 0 };
    *dxbc = NULL;
    if (!bytes || sb_dxbc_parse(bytes, size, dxbc, &error) != SB_SUCCESS)
        return NULL;
    const struct sb_dxbc_part *part = sb_dxbc_find_part(*dxbc, SB_FOURCC('D', 'X', 'I', 'L'));
    return part && part->size >= 24 ? part : NULL;
}
