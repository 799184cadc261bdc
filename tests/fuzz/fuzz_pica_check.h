/* SPDX-License-Identifier: MIT */
/*
 * The invariant both PICA200 fuzz targets check (fuzz_pica_check.c): a
 * parsed SHBIN decodes word by word without crashing, disassembles, and the
 * text either reassembles to the same code words or fails with a
 * positioned error. Violations abort, which libFuzzer reports as a crash.
 */
#ifndef SB_TEST_FUZZ_PICA_CHECK_H
#define SB_TEST_FUZZ_PICA_CHECK_H

#include "translator/pica.h"

/** Runs decoder, encoder, disassembler and assembler over one parsed file. */
void fuzz_pica_check_shbin(const struct sb_shbin *shbin);

#endif
