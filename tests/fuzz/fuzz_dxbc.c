/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target for the DXBC reader: parse, then walk the decoded result
 * through the CLI's JSON builder (fuzz_exercise.c). Built with clang as a
 * fuzzer (SB_BUILD_FUZZERS) and, with replay_main.c, as a ctest program
 * that replays seed files under ASan+UBSan.
 */
#include "fuzz_exercise.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_exercise(FUZZ_READER_DXBC, data, size);
    return 0;
}
