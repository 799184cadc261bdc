/* SPDX-License-Identifier: MIT */
/* Helpers of the PICA200 assembler tests (see pica_test_util.h). */
#include "pica_test_util.h"

#include <stdlib.h>
#include <string.h>

int pica_test_failures;

uint8_t *pica_test_read(const char *path, size_t *size)
{
    FILE *file = fopen(path, "rb");
    if (!file)
        return NULL;
    size_t capacity = 4096, length = 0;
    uint8_t *bytes = malloc(capacity + 1);
    size_t got;
    while (bytes && (got = fread(bytes + length, 1, capacity - length, file)) > 0) {
        length += got;
        if (length == capacity) {
            uint8_t *grown = realloc(bytes, 2 * capacity + 1);
            if (!grown) {
                free(bytes);
                bytes = NULL;
                break;
            }
            bytes = grown;
            capacity *= 2;
        }
    }
    fclose(file);
    if (bytes) {
        bytes[length] = 0;
        *size = length;
    }
    return bytes;
}

struct sb_shbin *pica_test_assemble(const char *name, const char *text)
{
    uint8_t *bytes = NULL;
    size_t size = 0;
    struct sb_pica_asm_error error;
    if (sb_pica_assemble(text, strlen(text), &bytes, &size, &error) != SB_SUCCESS) {
        fprintf(stderr, "%s:%u:%u: error: %s\n", name, (unsigned)error.line,
                (unsigned)error.column, error.error.message);
        return NULL;
    }
    struct sb_shbin *shbin = NULL;
    struct sb_error perror = {0};
    if (sb_shbin_parse(bytes, size, &shbin, &perror) != SB_SUCCESS)
        fprintf(stderr, "%s: the assembled SHBIN does not parse: %s\n", name, perror.message);
    sb_pica_free(bytes);
    return shbin;
}

bool pica_test_round_trip(const char *name, const struct sb_shbin *shbin)
{
    char *text = NULL;
    struct sb_error error = {0};
    if (sb_pica_disassemble(shbin, &text, &error) != SB_SUCCESS) {
        fprintf(stderr, "%s: disassembly failed: %s\n", name, error.message);
        return false;
    }
    struct sb_shbin *again = pica_test_assemble(name, text);
    bool same = again != NULL;
    const struct sb_shbin_program *a = &shbin->program;
    if (again) {
        const struct sb_shbin_program *b = &again->program;
        same = a->code_word_count == b->code_word_count &&
               a->operand_descriptor_count == b->operand_descriptor_count;
        for (uint32_t i = 0; same && i < a->code_word_count; ++i)
            if (a->code[i] != b->code[i]) {
                fprintf(stderr, "%s: word %u: 0x%08X reassembled as 0x%08X\n", name, i,
                        (unsigned)a->code[i], (unsigned)b->code[i]);
                same = false;
            }
        for (uint32_t i = 0; same && i < a->operand_descriptor_count; ++i)
            if (a->operand_descriptors[i].word != b->operand_descriptors[i].word) {
                fprintf(stderr, "%s: descriptor %u: 0x%08X reassembled as 0x%08X\n", name, i,
                        (unsigned)a->operand_descriptors[i].word,
                        (unsigned)b->operand_descriptors[i].word);
                same = false;
            }
        if (!same)
            fprintf(stderr, "%s: counts %u/%u words, %u/%u descriptors\n", name,
                    (unsigned)a->code_word_count, (unsigned)b->code_word_count,
                    (unsigned)a->operand_descriptor_count, (unsigned)b->operand_descriptor_count);
        sb_shbin_destroy(again);
    }
    if (!same)
        fprintf(stderr, "---- %s disassembly ----\n%s\n", name, text);
    sb_pica_free(text);
    return same;
}

uint32_t pica_test_reencode(const char *name, const struct sb_shbin *shbin)
{
    const struct sb_shbin_program *p = &shbin->program;
    struct sb_pica_instruction *code = calloc(p->code_word_count + 1, sizeof(*code));
    uint32_t differ = 0;
    struct sb_error error = {0};
    if (!code || sb_pica_decode_shbin(shbin, code, &error) != SB_SUCCESS) {
        fprintf(stderr, "%s: decode failed: %s\n", name, error.message);
        free(code);
        return p->code_word_count ? p->code_word_count : 1;
    }
    for (uint32_t i = 0; i < p->code_word_count; ++i) {
        uint32_t word = 0;
        if (sb_pica_encode(&code[i], &word, &error) != SB_SUCCESS || word != p->code[i]) {
            fprintf(stderr, "%s: word %u: 0x%08X re-encoded as 0x%08X\n", name, i,
                    (unsigned)p->code[i], (unsigned)word);
            differ++;
        }
    }
    free(code);
    return differ;
}
