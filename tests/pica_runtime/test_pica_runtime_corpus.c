/* SPDX-License-Identifier: MIT */
/*
 * What `shaderbridge validate --seed 1 FILE.shbin` does, over every corpus
 * SHBIN (SB_CORPUS_DIR/pica/bin) and samples/simple_tri.shbin: every DVLE in
 * float24-exact mode (the default load) and in fast mode, GPU (lavapipe)
 * against the interpreter, which must agree bit for bit on every output word.
 *
 * Usage: test_pica_runtime_corpus CORPUS_DIR SAMPLE.shbin. Exit 77 without a
 * Vulkan device, or (after checking the sample) without the corpus.
 */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shaderbridge/shbin.h"
#include "shaderbridge/validate.h"

static int g_failures;

static uint8_t *read_file(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    uint8_t *bytes = NULL;
    if (fseek(f, 0, SEEK_END) == 0) {
        long n = ftell(f);
        if (n > 0 && fseek(f, 0, SEEK_SET) == 0 && (bytes = malloc((size_t)n)) != NULL)
            *size = fread(bytes, 1, (size_t)n, f);
    }
    fclose(f);
    return bytes;
}

/* Validates every DVLE of one file in both modes; true when all agree bit for bit. */
static bool check_file(struct sb_rt_context *ctx, const char *path)
{
    size_t size = 0;
    uint8_t *bytes = read_file(path, &size);
    struct sb_shbin *shbin = NULL;
    struct sb_error e;
    memset(&e, 0, sizeof(e));
    bool ok = bytes && sb_shbin_parse(bytes, size, &shbin, &e) == SB_SUCCESS;
    uint32_t dvles = ok ? shbin->dvle_count : 0;
    sb_shbin_destroy(shbin);
    for (uint32_t d = 0; ok && d < dvles; d++)
        for (uint32_t mode = 0; ok && mode < 2; mode++) {
            struct sb_rt_program *p = NULL;
            /* DVLE 0 in float24 mode goes through the plain loader, as the CLI's default does. */
            enum sb_result r = d == 0 && mode == 0 ? sb_rt_program_load(bytes, size, NULL, &p, &e)
                                                   : sb_rt_program_load_shbin(bytes, size, d, mode ? 0u : SB_IR_PICA_FLOAT24,
                                                                              NULL, &p, &e);
            struct sb_validate_options o = { .inputs = { .seed = 1 } };
            struct sb_validate_report *report = NULL;
            if (r == SB_SUCCESS)
                r = sb_validate(ctx, p, &o, &report, &e);
            ok = r == SB_SUCCESS && report->mismatch_count == 0 && report->words_compared > 0;
            if (!ok)
                fprintf(stderr, "%s DVLE %u %s: %s\n", path, d, mode ? "fast" : "float24",
                        r != SB_SUCCESS ? e.message : "GPU and CPU disagree");
            else
                printf("  %s DVLE %u %-7s %llu words bit-identical\n", strrchr(path, '/') ? strrchr(path, '/') + 1 : path,
                       d, mode ? "fast" : "float24", (unsigned long long)report->words_compared);
            sb_validate_report_destroy(report);
            sb_rt_program_destroy(p);
        }
    if (!bytes || !dvles)
        fprintf(stderr, "%s: cannot read or parse: %s\n", path, e.message);
    free(bytes);
    if (!ok || !dvles)
        g_failures++;
    return ok && dvles;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: test_pica_runtime_corpus CORPUS_DIR SAMPLE.shbin\n");
        return 2;
    }
    struct sb_rt_context_options options = { 0 };
    struct sb_rt_context *ctx = NULL;
    struct sb_error e;
    memset(&e, 0, sizeof(e));
    if (sb_rt_context_create(&options, &ctx, &e) != SB_SUCCESS || !sb_rt_context_has_device(ctx)) {
        printf("SKIPPED: no Vulkan device (%s)\n", e.message);
        sb_rt_context_destroy(ctx);
        return 77;
    }
    uint32_t files = 1, agree = check_file(ctx, argv[2]);
    char dir[1024];
    snprintf(dir, sizeof(dir), "%s/pica/bin", argv[1]);
    DIR *d = opendir(dir);
    if (!d) {
        sb_rt_context_destroy(ctx);
        if (g_failures)
            return 1;
        printf("SKIPPED: corpus not found at %s\n", dir);
        return 77;
    }
    char *names[256];
    uint32_t count = 0;
    for (struct dirent *ent; (ent = readdir(d)) != NULL && count < 256;) {
        size_t n = strlen(ent->d_name);
        if (n > 6 && !strcmp(ent->d_name + n - 6, ".shbin"))
            names[count++] = strdup(ent->d_name);
    }
    closedir(d);
    qsort(names, count, sizeof(names[0]), by_name);
    for (uint32_t i = 0; i < count; i++) {
        char path[2048];
        snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
        files++;
        agree += check_file(ctx, path);
        free(names[i]);
    }
    printf("%u/%u SHBIN files agree bit-exact (every DVLE, float24 and fast mode, seed 1) on %s\n", agree, files,
           sb_rt_context_device_name(ctx));
    sb_rt_context_destroy(ctx);
    if (count == 0) {
        printf("SKIPPED: corpus not found at %s (no .shbin files)\n", dir);
        return g_failures ? 1 : 77;
    }
    return g_failures ? 1 : 0;
}
