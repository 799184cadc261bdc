/* SPDX-License-Identifier: MIT */
/*
 * Writes the DXIL sample, samples/dxil/store_index_cs_6_0.dxil, from the
 * cs_store program of tests/common/dxil_programs.h (cs_6_0, 8 threads:
 * u0[i*4] = i*2+1), or with --check compares the committed file with what
 * the writer produces now (ctest dxil_writer_sample_reproducible).
 *
 *   make_dxil_sample [--check] SAMPLES_DIR
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dxil_programs.h"
#include "test_file.h"

static const char SAMPLE[] = "dxil/store_index_cs_6_0.dxil";

int main(int argc, char **argv)
{
    bool check = argc == 3 && strcmp(argv[1], "--check") == 0;
    if (!(argc == 2 || check)) {
        fprintf(stderr, "usage: make_dxil_sample [--check] SAMPLES_DIR\n");
        return 2;
    }
    char path[4096];
    snprintf(path, sizeof(path), "%s/%s", argv[argc - 1], SAMPLE);
    struct tbuf written = { 0 };
    if (!dxil_program_cs_store(&written)) {
        fprintf(stderr, "make_dxil_sample: the writer rejected the program\n");
        return 1;
    }
    int status = 0;
    if (check) {
        size_t size = 0;
        uint8_t *committed = sb_test_read_file(path, &size);
        bool same = committed && size == written.size && memcmp(committed, written.data, size) == 0;
        printf("%s: %s\n", SAMPLE, same ? "up to date" : "DIFFERS from make_dxil_sample");
        status = same ? 0 : 1;
        free(committed);
    } else {
        FILE *f = fopen(path, "wb");
        if (!f || fwrite(written.data, 1, written.size, f) != written.size || fclose(f)) {
            fprintf(stderr, "make_dxil_sample: cannot write %s\n", path);
            status = 1;
        } else {
            printf("%s: %zu bytes\n", path, written.size);
        }
    }
    tb_free(&written);
    return status;
}
