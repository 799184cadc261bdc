/* SPDX-License-Identifier: MIT */
/*
 * The Vulkan runtime: a context that reaches Vulkan through volk (no
 * link-time libvulkan dependency), picks a device, and runs translated
 * shaders on it with resources described by shaderbridge/resources.h.
 *
 * Device choice: options->device, else the environment variable
 * SHADERBRIDGE_DEVICE, else lavapipe (the embedded default: the CPU device
 * whose name contains "llvmpipe"), else the first device. A device is named
 * by its index ("0", "1") or a case-insensitive substring of its name.
 *
 * CPU-only mode: with options->cpu_only, or when no Vulkan loader or no
 * device can be found and options->allow_cpu_only is set, the context is
 * created without Vulkan; sb_rt_context_has_device() says which happened and
 * GPU entry points then fail with SB_ERROR_NO_DEVICE. The CPU interpreter
 * (interp.h) needs no context at all.
 */
#ifndef SHADERBRIDGE_RUNTIME_H
#define SHADERBRIDGE_RUNTIME_H

#include <stdbool.h>
#include <stdint.h>

#include "shaderbridge/resources.h"
#include "shaderbridge/result.h"
#include "shaderbridge/translate.h"

#ifdef __cplusplus
extern "C" {
#endif

struct sb_rt_context;

struct sb_rt_context_options {
    const char *device;     /**< index or name substring; NULL = SHADERBRIDGE_DEVICE / lavapipe */
    bool cpu_only;          /**< do not load Vulkan at all */
    bool allow_cpu_only;    /**< no loader / no device is not an error: CPU-only context */
    /** Enable VK_LAYER_KHRONOS_validation when installed; its errors are counted
     *  (sb_rt_context_validation_errors) and the first is kept. */
    bool validation;
};

enum sb_result sb_rt_context_create(const struct sb_rt_context_options *options,
                                    struct sb_rt_context **out, struct sb_error *error);
void sb_rt_context_destroy(struct sb_rt_context *context);

/** True when the context has a Vulkan device (false in CPU-only mode). */
bool sb_rt_context_has_device(const struct sb_rt_context *context);
/** The device name, or "cpu-only". Owned by the context. */
const char *sb_rt_context_device_name(const struct sb_rt_context *context);
/** Validation-layer errors reported since the context was created (0 without the layer). */
uint32_t sb_rt_context_validation_errors(const struct sb_rt_context *context);
/** The first validation-layer error message, or "". Owned by the context. */
const char *sb_rt_context_first_validation_error(const struct sb_rt_context *context);

/** Wall times of one GPU run, in nanoseconds. */
struct sb_rt_timing {
    uint64_t pipeline_ns;   /**< shader module + layouts + pipeline creation */
    uint64_t upload_ns;     /**< resource creation and upload */
    uint64_t run_ns;        /**< command submission to fence signalled */
    uint64_t readback_ns;   /**< copying UAV results back */
};

/**
 * Runs a translated compute shader for group_count[0] x [1] x [2] thread groups.
 * Every binding of `translation` must find its resource(s) in `resources` by
 * (class, space, register); UAV contents and counters are written back into
 * `resources`. timing may be NULL.
 * Errors: SB_ERROR_NO_DEVICE, SB_ERROR_RUN_BINDING, SB_ERROR_RUN_UNSUPPORTED (a format
 * or dimension the runtime cannot create), SB_ERROR_VULKAN (the failing call and VkResult
 * in the message), SB_ERROR_INVALID_ARGUMENT (not a compute translation).
 */
enum sb_result sb_rt_dispatch(struct sb_rt_context *context, const struct sb_translation *translation,
                              struct sb_rt_resource *resources, uint32_t resource_count,
                              const uint32_t group_count[3], struct sb_rt_timing *timing,
                              struct sb_error *error);

#ifdef __cplusplus
}
#endif

#endif
