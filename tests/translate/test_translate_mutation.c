/* SPDX-License-Identifier: MIT */
/*
 * translate_mutation: sb_translate on damaged corpus shaders (issue #4's
 * acceptance: "no crash on mutated inputs"). Every corpus/dxbc shader row is
 * mutated 8 times (--mutants) with a fixed seed (1-3 byte overwrites, bit flips, 0 /
 * 0xFFFFFFFF / 0x80000000 words, and a truncation every fourth mutant) and
 * translated in-process. Run under the ASan+UBSan build this is the memory-
 * safety check; in any build it asserts the error contract of result.h:
 *   - failure: the returned code is negative, error.code equals it, the
 *     message is a non-empty sentence without a newline, the offset lies
 *     within the input;
 *   - success: a module with the SPIR-V magic and a 5-word header.
 * A translated mutant that the validator rejects is counted and listed (a
 * gap in input checking: the translator should have refused it with
 * SB_ERROR_TRANSLATE_INVALID), not failed: random damage makes no stable list.
 *
 * Usage: test_translate_mutation CORPUS_DIR [--mutants N] [--seed S]
 * Exit: 0 contract held, 1 broken (each case printed with seed and index to
 * reproduce), 77 corpus absent. A crash ends the run: ctest reports it.
 */
#define _POSIX_C_SOURCE 200809L

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shaderbridge/translate.h"
#include "test_file.h"

#define LINE_BYTES 8192
#define SPIRV_MAGIC 0x07230203u
#define SHOWN 10

static uint64_t rng_state;

/* xorshift64*: the same mutants on every machine for a given seed. */
static uint64_t next_random(void)
{
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * 0x2545F4914F6CDD1DULL;
}

/* Damages a copy of the shader; returns its (possibly truncated) size. */
static size_t mutate(uint8_t *bytes, size_t size, unsigned index)
{
    static const uint32_t words[] = { 0, 0xFFFFFFFFu, 0x80000000u, 1 };
    /* Few edits: a mutant should mostly get past the container reader into the translator. */
    unsigned edits = 1 + (unsigned)(next_random() % 3);
    for (unsigned e = 0; e < edits && size > 4; e++) {
        /* Past the 32-byte header mostly, where the parts and tokens are. */
        size_t at = size > 36 ? 32 + (size_t)(next_random() % (size - 36)) : 0;
        uint64_t kind = next_random() % 10;
        if (kind < 6)
            bytes[at] = (uint8_t)next_random();
        else if (kind < 8)
            bytes[at] ^= (uint8_t)(1u << (next_random() % 8));
        else
            memcpy(bytes + at, &words[next_random() % 4], 4);
    }
    if (index % 4 == 3 && size > 1)
        size = (size_t)(next_random() % size);
    return size;
}

struct tally {
    size_t mutants, translated, failed, invalid, broken;
};

static void check_one(const char *rel, unsigned index, const uint8_t *bytes, size_t size,
                      struct tally *t)
{
    struct sb_error error = { .code = SB_SUCCESS, .instr = UINT32_MAX };
    struct sb_translation *translation = NULL;
    enum sb_result r = sb_translate(bytes, size, NULL, &translation, &error);
    t->mutants++;
    if (r != SB_SUCCESS) {
        t->failed++;
        size_t length = strnlen(error.message, sizeof(error.message));
        if (r > 0 || error.code != r || length == 0 || length == sizeof(error.message) ||
            strchr(error.message, '\n') || error.offset > size) {
            if (t->broken++ < SHOWN)
                printf("BROKEN ERROR %s #%u: returned %s, error.code %s, offset %llu of %zu, "
                       "message '%s'\n", rel, index, sb_result_name(r),
                       sb_result_name(error.code), (unsigned long long)error.offset, size,
                       length < sizeof(error.message) ? error.message : "(unterminated)");
        }
        sb_translation_destroy(translation);
        return;
    }
    t->translated++;
    if (!translation || !translation->words || translation->word_count < 5 ||
        translation->words[0] != SPIRV_MAGIC) {
        if (t->broken++ < SHOWN)
            printf("BROKEN MODULE %s #%u: success without a SPIR-V module\n", rel, index);
    } else if (sb_spirv_validate(translation->words, translation->word_count,
                                 SB_TARGET_VULKAN_1_1, &error) != SB_SUCCESS) {
        if (t->invalid++ < SHOWN)
            printf("invalid SPIR-V from %s #%u: %s\n", rel, index, error.message);
    }
    sb_translation_destroy(translation);
}

int main(int argc, char **argv)
{
    const char *corpus = NULL;
    unsigned long mutants = 8, seed = 4;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--mutants") && i + 1 < argc)
            mutants = strtoul(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--seed") && i + 1 < argc)
            seed = strtoul(argv[++i], NULL, 10);
        else
            corpus = argv[i];
    }
    if (!corpus || mutants == 0) {
        fprintf(stderr, "usage: %s CORPUS_DIR [--mutants N] [--seed S]\n", argv[0]);
        return 2;
    }
    char path[4096];
    snprintf(path, sizeof(path), "%s/dxbc/MANIFEST.tsv", corpus);
    FILE *manifest = fopen(path, "r");
    if (!manifest) {
        printf("SKIPPED: corpus not found at %s\n", corpus);
        return 77;
    }
    static char line[LINE_BYTES];
    struct tally t = { 0 };
    size_t shaders = 0;
    bool header = true;
    while (fgets(line, sizeof(line), manifest)) {
        /* Columns: file, sha256, bytes, program_type (the README's order). */
        char *file = strtok(line, "\t"), *type = NULL;
        for (int c = 0; c < 3 && file; c++)
            type = strtok(NULL, "\t");
        if (header || !file || !type || strlen(type) != 2 || !strchr("vpghdc", type[0]) ||
            type[1] != 's') {
            header = false;
            continue;
        }
        snprintf(path, sizeof(path), "%s/dxbc/%s", corpus, file);
        size_t size = 0;
        uint8_t *original = sb_test_read_file(path, &size), *copy = malloc(size ? size : 1);
        if (!original || !copy) {
            printf("cannot read %s\n", path);
            free(original);
            free(copy);
            fclose(manifest);
            return 1;
        }
        shaders++;
        rng_state = (seed + 1) * 0x9E3779B97F4A7C15ULL ^ (uint64_t)shaders;
        for (unsigned m = 0; m < mutants; m++) {
            memcpy(copy, original, size);
            size_t cut = mutate(copy, size, m);
            check_one(file, m, copy, cut, &t);
        }
        free(original);
        free(copy);
    }
    fclose(manifest);
    printf("translate_mutation: %zu shaders x %lu mutants (seed %lu) = %zu translations: %zu "
           "refused with a structured error, %zu translated (%zu of them invalid SPIR-V, not "
           "asserted); %zu broke the error contract\n", shaders, mutants, seed, t.mutants,
           t.failed, t.translated, t.invalid, t.broken);
    return t.broken || shaders == 0 ? 1 : 0;
}
