/* SPDX-License-Identifier: MIT */
/* Whole-file reads for test programs (growing buffer: works on pipes and odd files too). */
#include "test_file.h"

#include <stdio.h>
#include <stdlib.h>

uint8_t *sb_test_read_file(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    uint8_t *data = NULL;
    size_t used = 0, cap = 0, got;
    do {
        if (used == cap) {
            uint8_t *grown = realloc(data, cap = cap ? cap * 2 : 4096);
            if (!grown) {
                free(data);
                fclose(f);
                return NULL;
            }
            data = grown;
        }
        got = fread(data + used, 1, cap - used, f);
        used += got;
    } while (got > 0);
    fclose(f);
    *size = used;
    return data;
}
