/* SPDX-License-Identifier: MIT */
/*
 * The text targets (GLSL, ESSL, MSL, HLSL) written by SPIRV-Cross from the finished
 * SPIR-V module. Calls point down this list:
 *   target_cross.c      sb_target_write: SPIRV-Cross set up for the target (names, ESSL's
 *                       combined samplers and bindings, HLSL registers), compiled
 *   target_report.c     sb_target_report: what each binding and stage variable became
 *   target_bitcasts.c   64/32-bit bitcasts spelled as Pack/UnpackDouble2x32 for SPIRV-Cross
 *   target_registers.c  the D3D register behind a SPIR-V binding, and its name
 *   target_names.c      the targets' names (sb_translate_target_parse / _name, public)
 * Only this folder includes spirv_cross_c.h (it brings its own spirv.h).
 */
#ifndef SB_TARGETS_PRIVATE_H
#define SB_TARGETS_PRIVATE_H

#include <spirv_cross_c.h>

#include "targets.h"

/** The SPIR-V descriptor a text-target resource came from (its decorations may have been
 *  renumbered for ESSL before compiling). */
struct sb_target_origin {
    spvc_variable_id id;
    uint32_t set, binding;
};

/**
 * After spvc_compiler_compile: the report of every resource, then every stage input and
 * output, as `compiler` declared them for `target` (HLSL: shader model hlsl_model x 10).
 * `origins` gives the SPIR-V set and binding of each resource variable (looked up by id;
 * one not listed keeps its decorations). Allocates one block holding the array and its
 * strings into pub->target_bindings. Returns SB_SUCCESS, SB_ERROR_OUT_OF_MEMORY or
 * SB_ERROR_TARGET_CROSS (the context's last error says why); sets no sb_error.
 */
enum sb_result sb_target_report(spvc_compiler compiler, enum sb_translate_target target,
                                uint32_t hlsl_model, const struct sb_target_origin *origins,
                                uint32_t origin_count, struct sb_translation *pub);

/**
 * When the module has OpBitcasts between 64- and 32-bit components (which this SPIRV-Cross
 * drops), a malloc'd copy with each written as GLSL.std.450 Pack/UnpackDouble2x32 in
 * *out_words / *out_count, and true; false (nothing allocated) when there is nothing to
 * rewrite, the module does not parse, or it lacks the types a rewrite needs.
 */
bool sb_target_split_bitcasts(const uint32_t *words, size_t count, uint32_t **out_words, size_t *out_count);

/** The translation's binding that (set, binding) is, or its counter is (*is_counter). */
const struct sb_translated_binding *sb_target_find_binding(const struct sb_translation *pub,
                                                          uint32_t set, uint32_t binding,
                                                          bool *is_counter);

/** "t3", "cb0", "u1_counter", "t3_space1": an identifier naming a binding's register. */
void sb_target_register_name(const struct sb_translated_binding *b, bool is_counter, char *buf,
                             size_t size);

#endif
