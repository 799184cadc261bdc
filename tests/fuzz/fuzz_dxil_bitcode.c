/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target for the DXIL bitcode reader (reflect/bitcode.h): a
 * DXContainer's DXIL part, or any other input taken as a DXIL part, through
 * sb_bc_read_dxil_part; a module that reads is checked for consistency
 * (every operand, block, metadata and type reference resolves) by
 * fuzz_exercise.c. Built with clang as a fuzzer (SB_BUILD_FUZZERS) and, with
 * replay_main.c, as a ctest program that replays the corpus's DXIL files.
 */
#include "fuzz_exercise.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_exercise(FUZZ_READER_DXIL_BITCODE, data, size);
    return 0;
}
