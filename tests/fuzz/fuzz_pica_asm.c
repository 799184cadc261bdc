/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target for the picasso-syntax assembler: any text either
 * assembles to a SHBIN that our reader parses (and that then survives
 * fuzz_pica_check_shbin()) or fails with a positioned, non-empty error.
 */
#include <stdio.h>
#include <stdlib.h>

#include "fuzz_pica_check.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    uint8_t *bytes = NULL;
    size_t length = 0;
    struct sb_pica_asm_error error;
    if (sb_pica_assemble((const char *)data, size, &bytes, &length, &error) != SB_SUCCESS) {
        if (!error.error.message[0] || error.error.code >= 0) {
            fprintf(stderr, "assembler error without code or message\n");
            abort();
        }
        return 0;
    }
    struct sb_shbin *shbin = NULL;
    if (sb_shbin_parse(bytes, length, &shbin, NULL) != SB_SUCCESS) {
        fprintf(stderr, "assembled SHBIN does not parse\n");
        abort();
    }
    fuzz_pica_check_shbin(shbin);
    sb_shbin_destroy(shbin);
    sb_pica_free(bytes);
    return 0;
}
