/* SPDX-License-Identifier: MIT */
/*
 * The one entry into src/targets for ../translate.c, kept apart from targets_private.h
 * so that translate.c never sees SPIRV-Cross's own spirv.h beside the back end's.
 */
#ifndef SB_TARGETS_H
#define SB_TARGETS_H

#include "shaderbridge/translate.h"

/**
 * Fills pub->text / text_size and pub->target_bindings / target_binding_count for
 * options->target (not SB_TRANSLATE_TARGET_SPIRV) from pub->words and pub->bindings.
 * On failure: SB_ERROR_TARGET_CROSS with SPIRV-Cross's message (offset 0),
 * SB_ERROR_INVALID_ARGUMENT for a version outside the target's range, or
 * SB_ERROR_OUT_OF_MEMORY; pub is then left without text or report.
 */
enum sb_result sb_target_write(struct sb_translation *pub, const struct sb_translate_options *options,
                               struct sb_error *error);

#endif
