/* SPDX-License-Identifier: MIT */
/*
 * Binding-step fallbacks of translate.c that live in their own files (below it).
 */
#ifndef SHADERBRIDGE_TRANSLATE_FIT_H
#define SHADERBRIDGE_TRANSLATE_FIT_H

#include <stdint.h>

#include "shaderbridge/translate.h"
#include "translator/ir.h"

/**
 * Fits the program's storage-buffer descriptors to the described device's per-stage limit
 * (translate_fit_storage.c): marks raw/structured resources sb_ir_resource::texel_memory by
 * the rule of sb_device_profile::max_per_stage_storage_buffers. `res` holds `count`
 * resources with their counts already sized (unbounded_descriptor_count applied).
 * SB_ERROR_TRANSLATE_UNSUPPORTED (error filled) when no choice fits every limit.
 */
enum sb_result sb_translate_fit_storage_buffers(struct sb_ir_resource *res, uint32_t count,
                                                const struct sb_translate_options *options,
                                                struct sb_error *error);

#endif
