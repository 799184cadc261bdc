/* SPDX-License-Identifier: MIT */
/*
 * What every fuzz target and the mutation test do with one input: parse it
 * with one reader and, when that succeeds, build and serialise the CLI's
 * JSON for it, so the decoded structures are walked end to end. On failure
 * the structured error must be well formed (negative known code, offset
 * inside the input, a message); check_error() aborts otherwise, which the
 * fuzzer and the mutation test report as a crash.
 */
#ifndef SB_TEST_FUZZ_EXERCISE_H
#define SB_TEST_FUZZ_EXERCISE_H

#include <stddef.h>
#include <stdint.h>

#include "shaderbridge/reflect.h"

/** Which reader to run. */
enum fuzz_reader {
    FUZZ_READER_DXBC,
    FUZZ_READER_SHBIN,
    FUZZ_READER_VBC,
    FUZZ_READER_DDS,
    FUZZ_READER_DXIL_BITCODE, /**< a container's DXIL part (or the input as a part) */
    FUZZ_READER_COUNT
};

/** Parses `data` with `reader`, walks the result; returns the parse result. */
/** What the containers that parsed became when translated (fuzz_exercise, DXBC only). */
struct fuzz_translate_counts {
    unsigned long translated;    /**< valid SPIR-V */
    unsigned long rejected;      /**< a structured reader/translator error */
    unsigned long invalid_spirv; /**< SB_ERROR_SPIRV_INVALID: a translator bug to look at */
};
extern struct fuzz_translate_counts fuzz_translate_counts;

enum sb_result fuzz_exercise(enum fuzz_reader reader, const uint8_t *data, size_t size);

/** The reader for a format, or FUZZ_READER_COUNT when none. */
enum fuzz_reader fuzz_reader_for_format(enum sb_format format);

const char *fuzz_reader_name(enum fuzz_reader reader);

/** Reads a whole file into a malloc'd buffer (free() it); NULL when unreadable. */
uint8_t *fuzz_read_file(const char *path, size_t *size);

#endif
