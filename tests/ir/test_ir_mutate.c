/* SPDX-License-Identifier: MIT */
/*
 * Robustness of the SM4/5 -> IR lowering on garbage (translator/IR.md
 * §Errors): every corpus shader's SHEX/SHDR part is mutated many times with
 * a fixed-seed generator (byte flips, DWORDs set to small or random values,
 * DWORDs copied from elsewhere; the version and length tokens are kept so
 * the decoder goes on). Whatever the decoder accepts is lowered with and
 * without the container; a lowered program must pass sb_ir_validate() and
 * print, a rejected one must carry SB_ERROR_TRANSLATE_INVALID/_UNSUPPORTED
 * with an offset inside the part. Run under ASan+UBSan in the sanitizer
 * build, this is the "never crash on any decoded program" check.
 *
 * Usage: test_ir_mutate CORPUS_DIR [MUTANTS_PER_SHADER]
 * Exit: 0 ok, 1 a broken promise, 77 corpus not found (skipped).
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shaderbridge/dxbc.h"
#include "translator/ir.h"
#include "shaderbridge/result.h"
#include "translator/sm4.h"
#include "mutation_util.h"
#include "test_file.h"

static unsigned failures;
static unsigned long long mutants, decoded, lowered, rejected;

static void mutate(uint8_t *data, size_t size)
{
    size_t dwords = size / 4;
    if (dwords <= 2)
        return;
    unsigned edits = 1 + next_random() % 4;
    for (unsigned e = 0; e < edits; e++) {
        size_t at = 2 + next_random() % (dwords - 2);
        uint32_t value;
        switch (next_random() % 4) {
        case 0: data[at * 4 + next_random() % 4] ^= (uint8_t)(1u << (next_random() % 8)); continue;
        case 1: value = next_random() % 300; break;
        case 2: value = next_random(); break;
        default: memcpy(&value, data + 4 * (2 + next_random() % (dwords - 2)), 4); break;
        }
        memcpy(data + at * 4, &value, 4);
    }
}

static void lower_one(const char *path, const struct sb_sm4_program *sm4,
                      const struct sb_dxbc *container, uint64_t part_offset, size_t part_size)
{
    struct sb_ir_program *ir = NULL;
    struct sb_error error;
    memset(&error, 0, sizeof(error));
    if (sb_ir_from_sm4(sm4, container, &ir, &error) == SB_SUCCESS) {
        lowered++;
        struct sb_error verdict;
        memset(&verdict, 0, sizeof(verdict));
        char *text = sb_ir_print(ir);
        if (sb_ir_validate(ir, &verdict) != SB_SUCCESS || !text) {
            fprintf(stderr, "%s: mutant lowered but %s\n", path,
                    text ? verdict.message : "does not print");
            failures++;
        }
        free(text);
        sb_ir_program_destroy(ir);
        return;
    }
    rejected++;
    bool code_ok = error.code == SB_ERROR_TRANSLATE_INVALID ||
                   error.code == SB_ERROR_TRANSLATE_UNSUPPORTED ||
                   error.code == SB_ERROR_OUT_OF_MEMORY;
    if (!code_ok || ir || error.offset < part_offset || error.offset >= part_offset + part_size ||
        !error.message[0]) {
        fprintf(stderr, "%s: bad rejection: %s at %llu (%s)\n", path, sb_result_name(error.code),
                (unsigned long long)error.offset, error.message);
        failures++;
    }
}

static void run_shader(const char *path, unsigned count, uint64_t seed)
{
    size_t size = 0;
    uint8_t *bytes = sb_test_read_file(path, &size);
    struct sb_dxbc *dxbc = NULL;
    struct sb_error error;
    if (!bytes || sb_dxbc_parse(bytes, size, &dxbc, &error) != SB_SUCCESS) {
        free(bytes);
        return;
    }
    free(bytes);
    const struct sb_dxbc_part *part = sb_dxbc_find_part(dxbc, SB_FOURCC('S', 'H', 'E', 'X'));
    if (!part)
        part = sb_dxbc_find_part(dxbc, SB_FOURCC('S', 'H', 'D', 'R'));
    uint8_t *copy = part ? malloc(part->size ? part->size : 1) : NULL;
    for (unsigned k = 0; copy && k < count; k++) {
        rng_state = seed * 0x9E3779B97F4A7C15ull + k + 1;
        memcpy(copy, part->data, part->size);
        mutate(copy, part->size);
        mutants++;
        struct sb_sm4_program *sm4 = NULL;
        if (sb_sm4_decode(copy, part->size, part->data_offset, &sm4, &error) != SB_SUCCESS)
            continue;
        decoded++;
        lower_one(path, sm4, dxbc, part->data_offset, part->size);
        lower_one(path, sm4, NULL, part->data_offset, part->size);
        sb_sm4_program_destroy(sm4);
    }
    free(copy);
    sb_dxbc_destroy(dxbc);
}

int main(int argc, char **argv)
{
    if (argc < 2 || argc > 3) {
        fprintf(stderr, "usage: test_ir_mutate CORPUS_DIR [MUTANTS_PER_SHADER]\n");
        return 1;
    }
    unsigned count = argc == 3 ? (unsigned)strtoul(argv[2], NULL, 10) : 16;
    char manifest[4400], dir[4200];
    snprintf(dir, sizeof(dir), "%s/dxbc", argv[1]);
    snprintf(manifest, sizeof(manifest), "%s/MANIFEST.tsv", dir);
    FILE *f = fopen(manifest, "r");
    if (!f) {
        printf("SKIPPED: corpus not found at %s\n", argv[1]);
        return 77;
    }
    static char line[8192];
    uint64_t seed = 0;
    /* Column 0 is the file; rows whose program_type (column 3) is a stage. */
    while (fgets(line, sizeof(line), f)) {
        char *type = line;
        for (int c = 0; c < 3 && type; c++) {
            type = strchr(type, '\t');
            type = type ? type + 1 : NULL;
        }
        if (!type || type[0] == 0 || type[1] == 0 || type[2] != '\t' ||
            !strchr("vpghdc", type[0]) || type[1] != 's')
            continue;
        line[strcspn(line, "\t")] = 0;
        char path[12600];
        snprintf(path, sizeof(path), "%s/%s", dir, line);
        run_shader(path, count, ++seed);
    }
    fclose(f);
    printf("ir mutation: %llu mutants, %llu decoded, %llu lowered (with and without container), "
           "%llu rejected, %u broken promises\n",
           mutants, decoded, lowered, rejected, failures);
    return failures || decoded == 0 ? 1 : 0;
}
