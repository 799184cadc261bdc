/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target for the DXIL disassembler (translator/dxil_disasm.h): a
 * DXContainer's DXIL part, or any other input taken as a DXIL part, through
 * sb_bc_read_dxil_part; every module the reader accepts is disassembled,
 * which must succeed with a listing that has the target lines. A rejected
 * input is the reader's business (fuzz_dxil_bitcode.c checks its errors).
 * Built with clang as a fuzzer (SB_BUILD_FUZZERS) and, with replay_main.c,
 * as a ctest program over samples/ and the corpus's DXIL files.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reflect/bitcode.h"
#include "shaderbridge/reflect.h"
#include "translator/dxil_disasm.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct sb_error error = { 0 };
    struct sb_dxbc *dxbc = NULL;
    const uint8_t *part = data;
    size_t part_size = size;
    uint64_t base = 0;
    if (size >= 4 && !memcmp(data, "DXBC", 4)) {
        const struct sb_dxbc_part *found = NULL;
        if (sb_dxbc_parse(data, size, &dxbc, &error) == SB_SUCCESS)
            found = sb_dxbc_find_part(dxbc, SB_FOURCC('D', 'X', 'I', 'L'));
        if (!found) {
            sb_dxbc_destroy(dxbc);
            return 0;
        }
        part = found->data;
        part_size = found->size;
        base = found->data_offset;
    }
    struct sb_bc_module *module = NULL;
    if (sb_bc_read_dxil_part(part, part_size, base, &module, &error) == SB_SUCCESS) {
        char *text = NULL;
        if (sb_dxil_disassemble_module(module, &text, &error) != SB_SUCCESS ||
            !strstr(text, "target datalayout = \"") || !strstr(text, "target triple = \"")) {
            fprintf(stderr, "fuzz_dxil_disasm: an accepted module did not disassemble: %s\n",
                    error.message);
            abort();
        }
        sb_dxil_text_free(text);
    }
    sb_bc_module_destroy(module);
    sb_dxbc_destroy(dxbc);
    return 0;
}
