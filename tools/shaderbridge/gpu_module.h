/* SPDX-License-Identifier: MIT */
/*
 * `validate --spirv MODULE.spv [--bindings MAP.json]` (gpu_module.c): the SPIR-V
 * file the device runs instead of shaderbridge's translation, and the binding map
 * that says where it binds the registers, read once and handed to sb_validate
 * (sb_validate_options::gpu_spirv, gpu_bindings).
 */
#ifndef SB_CLI_GPU_MODULE_H
#define SB_CLI_GPU_MODULE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "shaderbridge/validate.h"

struct cli_gpu_module {
    const char *spirv_name;     /**< as given to --spirv */
    const char *bindings_name;  /**< as given to --bindings, or NULL */
    uint32_t *words;            /**< the module in host byte order (malloc'd) */
    size_t word_count;
    struct sb_binding_override *bindings; /**< malloc'd; NULL without --bindings */
    uint32_t binding_count;
};

/**
 * Reads the module (either byte order, whole 32-bit words) and, when `bindings` is not
 * NULL, the map: the output of `reflect --json`, its "vulkan_bindings" object, or that
 * object's "bindings" array; each entry needs "class" (cbv, srv, sampler, uav), "space",
 * "lower_bound", "set" and "binding" (integers), and takes "counter_binding". Prints
 * `FILE:OFFSET: error: ...` and returns false on failure.
 */
bool cli_gpu_module_load(const char *spirv, const char *bindings, struct cli_gpu_module *out);

/** Points `options` at the module and map (borrowed: keep `module` until sb_validate returns). */
void cli_gpu_module_apply(const struct cli_gpu_module *module, struct sb_validate_options *options);

/** sb_validate_gpu_module_check for `program` (SB_SUCCESS when `module` is NULL); on failure
 *  prints the error against the module's or the map's file name and returns its code. */
enum sb_result cli_gpu_module_check(const struct cli_gpu_module *module, const struct sb_rt_program *program,
                          const struct sb_validate_options *options);

void cli_gpu_module_free(struct cli_gpu_module *module);

#endif
