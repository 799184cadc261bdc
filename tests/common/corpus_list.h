/* SPDX-License-Identifier: MIT */
/* Shared by the corpus tests (validate, runtime, runtime_draw, interp): files and the corpus manifest. */
#ifndef SB_TEST_VALIDATE_CORPUS_LIST_H
#define SB_TEST_VALIDATE_CORPUS_LIST_H

#include <stddef.h>
#include <stdint.h>

#define MAX_SHADERS 4096

/** The whole file, NUL-terminated (malloc'd; *size excludes the NUL), or NULL. */
char *read_file(const char *path, size_t *size);

/**
 * The paths (strdup'd, relative to CORPUS/dxbc) of the manifest rows whose program_type
 * is one of `stages` ("cs,vs,ps"), every `every`-th of them (1 = all), at most
 * MAX_SHADERS; types[i] receives the row's program_type. Prints how many were kept
 * when `every` > 1.
 */
uint32_t corpus_shaders(const char *corpus, const char *stages, uint32_t every, char **paths,
                        char (*types)[3]);
/** corpus_shaders over CORPUS/`top`/MANIFEST.tsv ("dxbc" or "dxil"; paths relative to it). */
uint32_t corpus_shaders_in(const char *corpus, const char *top, const char *stages, uint32_t every,
                           char **paths, char (*types)[3]);

/**
 * Calls `visit` with the full path and the manifest-relative name of every file of
 * CORPUS/TOP/MANIFEST.tsv (first column; the header line skipped). Returns the number of
 * files, or -1 when the manifest cannot be read (the caller then reports SKIPPED).
 */
int corpus_manifest_each(const char *corpus, const char *top,
                         void (*visit)(const char *path, const char *relative, void *user),
                         void *user);

#endif
