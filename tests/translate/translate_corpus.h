/* SPDX-License-Identifier: MIT */
/*
 * Shared by the two files of the translate_corpus test: the run over the
 * corpus (test_translate_corpus.c) and its report and expected-failure list
 * (translate_corpus_report.c).
 */
#ifndef TRANSLATE_CORPUS_H
#define TRANSLATE_CORPUS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "shaderbridge/translate.h"

/** What became of one shader. */
enum tc_outcome {
    TC_CLEAN,     /**< translated, and the SPIR-V validates */
    TC_TRANSLATE, /**< sb_translate failed */
    TC_INVALID,   /**< translated, but the validator rejects the module */
    TC_OUTCOME_COUNT
};

/** Index = enum tc_outcome: the spelling in the report and the expected list. */
extern const char *const tc_outcome_names[TC_OUTCOME_COUNT];

/** Stages in report order; tc_shader::stage indexes this. */
extern const char *const tc_stages[];
#define TC_STAGE_COUNT 6

struct tc_shader {
    char *rel;                           /**< path relative to the corpus */
    unsigned stage;                      /**< index into tc_stages */
    enum tc_outcome outcome;
    enum sb_result code;                 /**< failure code */
    uint64_t offset;                     /**< failure offset */
    char message[SB_ERROR_MESSAGE_SIZE]; /**< first line of the failure */
    size_t words;                        /**< SPIR-V words when translated */
};

struct tc_expected {
    char *rel;     /**< listed path */
    char *outcome; /**< listed outcome ("translate" / "spirv-val") */
};

struct tc_run {
    const char *corpus;
    struct sb_translate_options options;
    struct tc_shader *shaders;
    size_t count, cap;
    size_t from_dxbc;                    /**< how many came from dxbc/MANIFEST.tsv */
    struct tc_expected *expected;
    size_t expected_count;
};

/** Totals, per stage and failures grouped by first message, on stdout. */
void tc_print_report(const struct tc_run *run, bool verbose);
/** Compares outcomes with the list; prints every difference. True when none. */
bool tc_compare_expected(const struct tc_run *run);
/** Writes the current failures as the list (TSV with a header saying how it is made). */
bool tc_write_expected(const struct tc_run *run, const char *path);

#endif
