/* SPDX-License-Identifier: MIT */
/* Whole-file reads for test programs (growing buffer: works on pipes and odd files too), and
 * whole reads and writes of a descriptor. */
#define _POSIX_C_SOURCE 200809L

#include "test_file.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

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

bool sb_test_write_all(int fd, const void *data, size_t size)
{
    const char *p = data;
    while (size) {
        ssize_t n = write(fd, p, size);
        if (n <= 0)
            return false;
        p += n;
        size -= (size_t)n;
    }
    return true;
}

bool sb_test_read_all(int fd, void *data, size_t size)
{
    char *p = data;
    while (size) {
        ssize_t n = read(fd, p, size);
        if (n <= 0)
            return false;
        p += n;
        size -= (size_t)n;
    }
    return true;
}
