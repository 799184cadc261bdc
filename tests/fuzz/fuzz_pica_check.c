/* SPDX-License-Identifier: MIT */
/*
 * Shared check of the PICA200 fuzz targets (see fuzz_pica_check.h): decode
 * every word (valid ones must re-encode to themselves), disassemble, and
 * reassemble; code words and the descriptor table must survive the round
 * trip unchanged.
 */
#include "fuzz_pica_check.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void fail(const char *what)
{
    fprintf(stderr, "fuzz_pica: %s\n", what);
    abort();
}

void fuzz_pica_check_shbin(const struct sb_shbin *shbin)
{
    const struct sb_shbin_program *p = &shbin->program;
    uint32_t descriptors[128];
    uint32_t count = p->operand_descriptor_count < 128 ? p->operand_descriptor_count : 128;
    for (uint32_t i = 0; i < count; ++i)
        descriptors[i] = p->operand_descriptors[i].word;
    for (uint32_t i = 0; i < p->code_word_count; ++i) {
        struct sb_pica_instruction in;
        struct sb_error error = {0};
        if (sb_pica_decode(p->code[i], descriptors, count, &in, &error) != SB_SUCCESS) {
            if (error.code >= 0 || !error.message[0])
                fail("decode error without code or message");
            continue;
        }
        uint32_t word = 0;
        if (sb_pica_encode(&in, &word, NULL) != SB_SUCCESS || word != p->code[i])
            fail("decode -> encode changed a word");
        char text[256];
        sb_pica_format_instruction(&in, text, sizeof(text));
    }
    char *text = NULL;
    struct sb_error error = {0};
    if (sb_pica_disassemble(shbin, &text, &error) != SB_SUCCESS) {
        if (error.code != SB_ERROR_OUT_OF_MEMORY)
            fail("disassembly failed");
        return;
    }
    uint8_t *bytes = NULL;
    size_t size = 0;
    struct sb_pica_asm_error asm_error;
    if (sb_pica_assemble(text, strlen(text), &bytes, &size, &asm_error) == SB_SUCCESS) {
        struct sb_shbin *again = NULL;
        if (sb_shbin_parse(bytes, size, &again, NULL) != SB_SUCCESS)
            fail("assembled SHBIN does not parse");
        if (again->program.code_word_count != p->code_word_count ||
            memcmp(again->program.code, p->code, 4u * (size_t)p->code_word_count) != 0) {
            fprintf(stderr, "%s\n", text);
            fail("disassembly reassembled to different code words");
        }
        bool same = again->program.operand_descriptor_count == p->operand_descriptor_count;
        for (uint32_t i = 0; same && i < p->operand_descriptor_count; ++i)
            same = again->program.operand_descriptors[i].word == p->operand_descriptors[i].word;
        if (!same) {
            fprintf(stderr, "%s\n", text);
            fail("disassembly reassembled to a different descriptor table");
        }
        sb_shbin_destroy(again);
    } else if (!asm_error.error.message[0] || asm_error.line == 0) {
        fprintf(stderr, "%s\n", text);
        fail("reassembly failed without a positioned message");
    }
    sb_pica_free(bytes);
    sb_pica_free(text);
}
