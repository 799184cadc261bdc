/* SPDX-License-Identifier: MIT */
/* The file -> container -> DXIL part -> module steps every DXIL corpus census repeats. */
#include "corpus_dxil.h"

#include <stdlib.h>
#include <string.h>

#include "corpus_list.h"

bool corpus_dxil_open(const char *path, struct corpus_dxil *d)
{
    memset(d, 0, sizeof(*d));
    if (!(d->bytes = read_file(path, &d->size)) ||
        sb_dxbc_parse((const uint8_t *)d->bytes, d->size, &d->container, &d->error) != SB_SUCCESS)
        return false;
    d->part = sb_dxbc_find_part(d->container, SB_FOURCC('D', 'X', 'I', 'L'));
    return d->part &&
           sb_bc_read_dxil_part(d->part->data, d->part->size, d->part->data_offset, &d->module, &d->error) ==
               SB_SUCCESS;
}

void corpus_dxil_close(struct corpus_dxil *d)
{
    sb_bc_module_destroy(d->module);
    sb_dxbc_destroy(d->container);
    free(d->bytes);
    memset(d, 0, sizeof(*d));
}
