/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target for the PICA200 decoder and SHBIN disassembler: parse
 * the bytes as SHBIN and, when that succeeds, run fuzz_pica_check_shbin()
 * (decode/encode every word, disassemble, reassemble, compare).
 */
#include <stddef.h>
#include <stdint.h>

#include "fuzz_pica_check.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct sb_shbin *shbin = NULL;
    if (sb_shbin_parse(data, size, &shbin, NULL) == SB_SUCCESS)
        fuzz_pica_check_shbin(shbin);
    sb_shbin_destroy(shbin);
    return 0;
}
