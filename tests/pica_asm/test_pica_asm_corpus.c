/* SPDX-License-Identifier: MIT */
/*
 * The corpus (SB_CORPUS_DIR/pica/bin/NAME.shbin, picasso-built vertex shaders)
 * and samples/simple_tri.shbin: every code word decodes and re-encodes to
 * itself, and every file disassembles to text that reassembles to identical
 * code words and operand descriptors. Exits 77 when the corpus is absent.
 */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "pica_test_util.h"

static bool check_file(const char *path, unsigned *reencoded, unsigned *round_trips)
{
    size_t size = 0;
    uint8_t *bytes = pica_test_read(path, &size);
    CHECK(bytes != NULL, "cannot read %s", path);
    if (!bytes)
        return false;
    struct sb_shbin *shbin = NULL;
    struct sb_error error = {0};
    enum sb_result result = sb_shbin_parse(bytes, size, &shbin, &error);
    free(bytes);
    CHECK(result == SB_SUCCESS, "%s: %s", path, error.message);
    if (result != SB_SUCCESS)
        return false;
    uint32_t differ = pica_test_reencode(path, shbin);
    CHECK(differ == 0, "%s: %u words re-encode differently", path, differ);
    *reencoded += differ == 0;
    bool same = pica_test_round_trip(path, shbin);
    CHECK(same, "%s: disassembly does not reassemble identically", path);
    *round_trips += same;
    sb_shbin_destroy(shbin);
    return true;
}

static int compare_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: test_pica_asm_corpus CORPUS_DIR [SAMPLES_DIR]\n");
        return 2;
    }
    char dir[1024];
    snprintf(dir, sizeof(dir), "%s/pica/bin", argv[1]);
    DIR *listing = opendir(dir);
    if (!listing) {
        printf("SKIPPED: corpus not found at %s\n", dir);
        return 77;
    }
    char *names[256];
    unsigned count = 0;
    struct dirent *entry;
    while ((entry = readdir(listing)) && count < 256) {
        size_t len = strlen(entry->d_name);
        if (len > 6 && !strcmp(entry->d_name + len - 6, ".shbin"))
        {
            names[count] = malloc(len + 1);
            if (names[count])
                memcpy(names[count++], entry->d_name, len + 1);
        }
    }
    closedir(listing);
    qsort(names, count, sizeof(names[0]), compare_names);
    unsigned reencoded = 0, round_trips = 0, files = 0;
    for (unsigned i = 0; i < count; ++i) {
        char path[2048];
        snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
        files += check_file(path, &reencoded, &round_trips);
        free(names[i]);
    }
    CHECK(files >= 19, "only %u corpus files", files);
    printf("corpus: %u files, decode->encode identical %u/%u, disasm->reassemble identical "
           "%u/%u\n",
           files, reencoded, files, round_trips, files);
    if (argc > 2) {
        char path[2048];
        unsigned r = 0, t = 0;
        snprintf(path, sizeof(path), "%s/simple_tri.shbin", argv[2]);
        check_file(path, &r, &t);
        CHECK(r == 1 && t == 1, "samples/simple_tri.shbin");
    }
    if (pica_test_failures) {
        fprintf(stderr, "%d check(s) failed\n", pica_test_failures);
        return 1;
    }
    return 0;
}
