/* SPDX-License-Identifier: MIT */
/*
 * Replays files through a fuzz target's LLVMFuzzerTestOneInput, so the same
 * target runs under ctest with gcc and the sanitizers, and a crash found by
 * libFuzzer reproduces with `fuzz_<reader>_replay CRASH-FILE`. Arguments
 * are files or directories (walked recursively); a missing argument is an
 * error unless it is the corpus, which may be absent (the test then says
 * it was skipped).
 */
#define _DEFAULT_SOURCE
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz_exercise.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static unsigned long replayed;

static int replay_file(const char *path)
{
    size_t size = 0;
    uint8_t *bytes = fuzz_read_file(path, &size);
    if (!bytes) {
        perror(path);
        return 1;
    }
    LLVMFuzzerTestOneInput(bytes, size);
    free(bytes);
    replayed++;
    return 0;
}

static int replay_path(const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0) {
        perror(path);
        return 1;
    }
    if (!S_ISDIR(st.st_mode))
        return replay_file(path);
    DIR *dir = opendir(path);
    if (!dir) {
        perror(path);
        return 1;
    }
    int failures = 0;
    struct dirent *entry;
    while ((entry = readdir(dir)) != NULL) {
        if (entry->d_name[0] == '.')
            continue;
        size_t length = strlen(path) + strlen(entry->d_name) + 2;
        char *child = malloc(length);
        if (!child)
            return 1;
        snprintf(child, length, "%s/%s", path, entry->d_name);
        failures += replay_path(child);
        free(child);
    }
    closedir(dir);
    return failures;
}

int main(int argc, char **argv)
{
    int failures = 0;
    for (int i = 1; i < argc; i++) {
        if (!strncmp(argv[i], "--optional=", 11)) {
            struct stat st;
            if (stat(argv[i] + 11, &st) != 0) {
                printf("SKIPPED: %s not found\n", argv[i] + 11);
                continue;
            }
            failures += replay_path(argv[i] + 11);
        } else {
            failures += replay_path(argv[i]);
        }
    }
    printf("replayed %lu inputs, %d unreadable\n", replayed, failures);
    return failures ? 1 : 0;
}
