/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target for the DDS reader: parse, then walk the decoded result
 * through the CLI's JSON builder and read the first and last byte of every
 * subresource (fuzz_exercise.c), so a layout pointing outside the input is
 * an ASan finding. Built with clang as a fuzzer (SB_BUILD_FUZZERS) and,
 * with replay_main.c, as a ctest program that replays seed files under
 * ASan+UBSan; the seeds are the files tests/dds writes at build time.
 */
#include "fuzz_exercise.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_exercise(FUZZ_READER_DDS, data, size);
    return 0;
}
