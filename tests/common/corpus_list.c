/* SPDX-License-Identifier: MIT */
/* Files and the corpus manifest for the corpus tests (corpus_list.h). */
#define _POSIX_C_SOURCE 200809L
#include "corpus_list.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

char *read_file(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *data = NULL;
    if (fseek(f, 0, SEEK_END) == 0) {
        long n = ftell(f);
        if (n >= 0 && fseek(f, 0, SEEK_SET) == 0 && (data = malloc((size_t)n + 1))) {
            *size = fread(data, 1, (size_t)n, f);
            data[*size] = 0;
        }
    }
    fclose(f);
    return data;
}

uint32_t corpus_shaders(const char *corpus, const char *stages, uint32_t every, char **paths,
                        char (*types)[3])
{
    return corpus_shaders_in(corpus, "dxbc", stages, every, paths, types);
}

uint32_t corpus_shaders_in(const char *corpus, const char *top, const char *stages, uint32_t every,
                           char **paths, char (*types)[3])
{
    char manifest[4096];
    snprintf(manifest, sizeof(manifest), "%s/%s/MANIFEST.tsv", corpus, top);
    size_t size = 0;
    char *text = read_file(manifest, &size);
    if (!text)
        return 0;
    if (every == 0)
        every = 1;
    uint32_t n = 0, seen = 0;
    char *save = NULL;
    for (char *line = strtok_r(text, "\n", &save); line && n < MAX_SHADERS;
         line = strtok_r(NULL, "\n", &save)) {
        char *cols[5] = { 0 };
        char *p = line;
        for (int c = 0; c < 5 && p; c++) {
            cols[c] = p;
            p = strchr(p, '\t');
            if (p)
                *p++ = 0;
        }
        if (!cols[3] || strlen(cols[3]) != 2 || !strstr(stages, cols[3]) || seen++ % every)
            continue;
        paths[n] = strdup(cols[0]);
        if (paths[n]) {
            memcpy(types[n], cols[3], 3);
            n++;
        }
    }
    free(text);
    if (every > 1)
        printf("every %u-th shader: %u of them\n", every, n);
    return n;
}

int corpus_manifest_each(const char *corpus, const char *top,
                         void (*visit)(const char *path, const char *relative, void *user),
                         void *user)
{
    char manifest[4096];
    snprintf(manifest, sizeof(manifest), "%s/%s/MANIFEST.tsv", corpus, top);
    size_t size = 0;
    char *text = read_file(manifest, &size);
    if (!text)
        return -1;
    int count = 0;
    char *save = NULL;
    for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        line[strcspn(line, "\t")] = 0;
        if (!strcmp(line, "file") || !line[0])
            continue;
        char path[4096];
        snprintf(path, sizeof(path), "%s/%s/%s", corpus, top, line);
        visit(path, line, user);
        count++;
    }
    free(text);
    return count;
}
