/* SPDX-License-Identifier: MIT */
/*
 * What share of a DXIL program's numeric operations (the DXIL front end's
 * concern 4: LLVM instructions on other widths, sdiv/srem, fcmp predicates;
 * math, 16/64-bit and wave/quad dx.ops) the front end translates. A program
 * refuses at its first unsupported instruction, so the whole-file census
 * hides progress on one concern; this lowers each such instruction of every
 * function body on its own (its operands as fresh temps) and counts the
 * ones that lower. Project-internal (translator/src/dxil/ir_from_dxil_census.c);
 * the front end's numeric census test prints it over the corpus.
 */
#ifndef SB_TRANSLATOR_DXIL_NUMERIC_CENSUS_H
#define SB_TRANSLATOR_DXIL_NUMERIC_CENSUS_H

#include <stdint.h>

#include "shaderbridge/dxbc.h"

enum sb_dxil_numeric_group {
    SB_DXIL_NUMERIC_LLVM,  /**< binop/cmp/cast/select on i8/i16/half/i64/double, sdiv/srem,
                                fcmp other than oeq/ogt/oge/olt/ole/une, i1 -> float */
    SB_DXIL_NUMERIC_MATH,  /**< math dx.ops (6-56, doubles, legacy/bitcast conversions,
                                packed dot products, pack/unpack; derivatives are the pixel
                                ops') */
    SB_DXIL_NUMERIC_WAVE,  /**< wave and quad dx.ops */
    SB_DXIL_NUMERIC_GROUP_COUNT
};

struct sb_dxil_numeric_counts {
    uint32_t uses[SB_DXIL_NUMERIC_GROUP_COUNT];       /**< instructions of the group */
    uint32_t translated[SB_DXIL_NUMERIC_GROUP_COUNT]; /**< of those, lowered on their own */
    /** The message of the first use that did not lower (empty when all did). */
    char first_refusal[192];
};

/** Adds a container's counts to *counts; an error when its DXIL part cannot be read. */
enum sb_result sb_dxil_numeric_census(const struct sb_dxbc *container,
                                      struct sb_dxil_numeric_counts *counts,
                                      struct sb_error *error);

#endif
