/* SPDX-License-Identifier: MIT */
/*
 * `-O`: SPIRV-Tools' performance passes over a translated module
 * (translate.h: sb_spirv_optimize).
 *
 * Why C++ here, in a C17 project: the SPIRV-Tools of Debian 12 (2023.1) has
 * no C entry point for its optimiser (spvOptimizerCreate and friends came in
 * later releases), only the C++ class spvtools::Optimizer. This one file is
 * the bridge: it exposes a plain C function and keeps every C++ type and
 * exception on this side, so no other file of the project needs a C++
 * compiler's view of anything.
 *
 * Bindings are preserved (a pass would otherwise delete an unused resource
 * variable, and the reflection the caller already holds would name a binding
 * the module no longer has). The input is validated first by the optimiser
 * itself, so an invalid module is reported, not "optimised".
 */
#include <cstdlib>
#include <cstring>
#include <new>
#include <string>
#include <vector>

#include <spirv-tools/optimizer.hpp>

// ir.h names a function after its struct (sb_ir_op_info), fine in C but a
// -Wshadow finding for a C++ reader of the header.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wshadow"
#include "shaderbridge/translate.h"

extern "C" {
#include "error.h" // a C header without C++ guards
}
#pragma GCC diagnostic pop

namespace {

spv_target_env spirv_env(enum sb_target_env env)
{
    switch (env) {
    case SB_TARGET_VULKAN_1_0: return SPV_ENV_VULKAN_1_0;
    case SB_TARGET_VULKAN_1_1: return SPV_ENV_VULKAN_1_1;
    case SB_TARGET_VULKAN_1_2: return SPV_ENV_VULKAN_1_2;
    case SB_TARGET_VULKAN_1_3: return SPV_ENV_VULKAN_1_3;
    default: return SPV_ENV_MAX;
    }
}

// The validator reports instruction ordinals (1 = first after the header): turn one into bytes.
uint64_t instruction_byte_offset(const uint32_t *words, size_t word_count, size_t ordinal)
{
    size_t at = 5;
    for (size_t i = 1; i < ordinal && at < word_count; i++) {
        uint32_t length = words[at] >> 16;
        if (length == 0 || length > word_count - at)
            break;
        at += length;
    }
    return (uint64_t)(at < word_count ? at : word_count) * 4;
}

void set_error(struct sb_error *error, enum sb_result code, uint64_t offset, const char *message)
{
    sb_error_set(error, code, offset, SB_ERROR_NO_INSTR, "%s", message);
    if (!error)
        return;
    // Only the first line: the optimiser's validator appends the disassembled instruction.
    if (char *newline = std::strchr(error->message, '\n'))
        *newline = 0;
}

enum sb_result optimize(const uint32_t *words, size_t word_count, enum sb_target_env env,
                        uint32_t **out_words, size_t *out_count, struct sb_error *error)
{
    spvtools::Optimizer optimizer(spirv_env(env));
    std::string first_error;
    uint64_t error_offset = 0;
    optimizer.SetMessageConsumer([&](spv_message_level_t level, const char *, const spv_position_t &position,
                                     const char *message) {
        if (level <= SPV_MSG_ERROR && first_error.empty()) {
            first_error = message ? message : "";
            error_offset = instruction_byte_offset(words, word_count, position.index);
        }
    });
    optimizer.RegisterPerformancePasses();
    spvtools::OptimizerOptions options;
    options.set_run_validator(true);
    options.set_preserve_bindings(true);
    std::vector<uint32_t> optimized;
    if (!optimizer.Run(words, word_count, &optimized, options)) {
        std::string message = "SPIR-V optimiser failed: " +
                              (first_error.empty() ? std::string("no message") : first_error);
        set_error(error, SB_ERROR_SPIRV_OPTIMIZE, error_offset, message.c_str());
        return SB_ERROR_SPIRV_OPTIMIZE;
    }
    uint32_t *copy = static_cast<uint32_t *>(std::malloc(optimized.size() * sizeof(uint32_t) + 1));
    if (!copy) {
        set_error(error, SB_ERROR_OUT_OF_MEMORY, 0, "out of memory copying the optimised module");
        return SB_ERROR_OUT_OF_MEMORY;
    }
    if (!optimized.empty())
        std::memcpy(copy, optimized.data(), optimized.size() * sizeof(uint32_t));
    *out_words = copy;
    *out_count = optimized.size();
    return SB_SUCCESS;
}

} // namespace

extern "C" enum sb_result sb_spirv_optimize(const uint32_t *words, size_t word_count,
                                            enum sb_target_env env, uint32_t **out_words,
                                            size_t *out_count, struct sb_error *error)
{
    if (!words || word_count == 0 || !out_words || !out_count) {
        set_error(error, SB_ERROR_INVALID_ARGUMENT, 0, "sb_spirv_optimize: no module or no output");
        return SB_ERROR_INVALID_ARGUMENT;
    }
    *out_words = nullptr;
    *out_count = 0;
    if (spirv_env(env) == SPV_ENV_MAX) {
        set_error(error, SB_ERROR_INVALID_ARGUMENT, 0, "unknown target environment for -O");
        return SB_ERROR_INVALID_ARGUMENT;
    }
    // No exception may cross into C: the optimiser allocates freely and may throw.
    try {
        return optimize(words, word_count, env, out_words, out_count, error);
    } catch (const std::bad_alloc &) {
        set_error(error, SB_ERROR_OUT_OF_MEMORY, 0, "out of memory in the SPIR-V optimiser");
        return SB_ERROR_OUT_OF_MEMORY;
    } catch (...) {
        set_error(error, SB_ERROR_SPIRV_OPTIMIZE, 0, "the SPIR-V optimiser threw an exception");
        return SB_ERROR_SPIRV_OPTIMIZE;
    }
}
