/* SPDX-License-Identifier: MIT */
/*
 * Helpers of the PICA200 assembler tests: a CHECK macro that counts
 * failures, file loading, and the round trip SHBIN -> disassembly ->
 * assembly with a comparison of code words and operand descriptors.
 */
#ifndef PICA_TEST_UTIL_H
#define PICA_TEST_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "translator/pica.h"
#include "shaderbridge/shbin.h"

extern int pica_test_failures;

#define CHECK(cond, ...)                                                   \
    do {                                                                   \
        if (!(cond)) {                                                     \
            fprintf(stderr, "%s:%d: CHECK(%s) failed: ", __FILE__, __LINE__, #cond); \
            fprintf(stderr, __VA_ARGS__);                                  \
            fputc('\n', stderr);                                           \
            pica_test_failures++;                                          \
        }                                                                  \
    } while (0)

/** Reads a whole file (malloc'd, NUL-terminated); NULL when it cannot be read. */
uint8_t *pica_test_read(const char *path, size_t *size);

/** Assembles text; prints the error and returns NULL on failure. */
struct sb_shbin *pica_test_assemble(const char *name, const char *text);

/**
 * Disassembles `shbin`, reassembles the text and compares code words and
 * descriptors. Returns true when both are identical; prints what differs.
 */
bool pica_test_round_trip(const char *name, const struct sb_shbin *shbin);

/** Decodes and re-encodes every word; returns the number of words that differ. */
uint32_t pica_test_reencode(const char *name, const struct sb_shbin *shbin);

#endif
