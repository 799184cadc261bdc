/* SPDX-License-Identifier: MIT */
/*
 * SPIRV-Tools glue: validation and disassembly of the modules the back end
 * builds (translate.h: sb_spirv_validate, sb_spirv_disassemble), through
 * SPIRV-Tools' C API (libspirv.h). The optimiser has no C API in the
 * SPIRV-Tools of Debian 12 (2023.1) and lives in spirv_optimize.cpp.
 *
 * A spv_context holds the grammar tables of one target environment and
 * costs far more to build than validating a small shader, so one context per
 * environment is created on first use and kept for the life of the process.
 * The C API copies the context before it installs its diagnostic consumer
 * (validate and binary-to-text take `spv_const_context`), so the cached
 * contexts are only read after creation and may be shared by the threads of
 * `shaderbridge translate --jobs N`; creation itself runs under a mutex.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <spirv-tools/libspirv.h>

#include "shaderbridge/translate.h"
#include "error.h"

/* Index = enum sb_target_env: the environment spirv-val's --target-env of the same name selects. */
static const spv_target_env spirv_envs[] = {
    SPV_ENV_VULKAN_1_0, /* SB_TARGET_VULKAN_1_0 */
    SPV_ENV_VULKAN_1_1, /* SB_TARGET_VULKAN_1_1 */
    SPV_ENV_VULKAN_1_2, /* SB_TARGET_VULKAN_1_2 */
    SPV_ENV_VULKAN_1_3, /* SB_TARGET_VULKAN_1_3 */
};
#define ENV_COUNT (sizeof(spirv_envs) / sizeof(spirv_envs[0]))
/* One more context: Vulkan 1.1 with VK_KHR_spirv_1_4 (spirv-val's vulkan1.1spv1.4), for the
 * SPIR-V 1.4 modules a Vulkan 1.1 target gets for mesh and amplification shaders. */
#define ENV_VULKAN_1_1_SPIRV_1_4 ENV_COUNT

static spv_context contexts[ENV_COUNT + 1];
static pthread_mutex_t contexts_lock = PTHREAD_MUTEX_INITIALIZER;

/* The shared context of `env`, or NULL for an unknown env or when SPIRV-Tools cannot make one. */
static spv_const_context context_for(unsigned env)
{
    if (env > ENV_COUNT)
        return NULL;
    pthread_mutex_lock(&contexts_lock);
    if (!contexts[env])
        contexts[env] = spvContextCreate(env == ENV_VULKAN_1_1_SPIRV_1_4 ? SPV_ENV_VULKAN_1_1_SPIRV_1_4
                                                                         : spirv_envs[env]);
    spv_const_context context = contexts[env];
    pthread_mutex_unlock(&contexts_lock);
    return context;
}

/*
 * The validator reports the ordinal of the offending instruction (1 for the
 * first after the header), not a word index; walking the word counts turns it
 * into the byte offset the API promises. Bad word counts stop the walk, since
 * the validator may be complaining about exactly that.
 */
static uint64_t instruction_byte_offset(const uint32_t *words, size_t word_count, size_t ordinal)
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

enum sb_result sb_spirv_validate(const uint32_t *words, size_t word_count, enum sb_target_env env,
                                 struct sb_error *error)
{
    if (!words || word_count == 0) {
        sb_error_set(error, SB_ERROR_INVALID_ARGUMENT, 0, SB_ERROR_NO_INSTR, "%s",
                     "no SPIR-V words to validate");
        return SB_ERROR_INVALID_ARGUMENT;
    }
    /* A SPIR-V 1.4 module for Vulkan 1.1 is one for VK_KHR_spirv_1_4 (the back end writes
     * those for mesh and amplification shaders only). */
    bool spirv_1_4 = word_count > 1 && words[1] == 0x00010400u && env == SB_TARGET_VULKAN_1_1;
    spv_const_context context = (unsigned)env < ENV_COUNT
                                    ? context_for(spirv_1_4 ? ENV_VULKAN_1_1_SPIRV_1_4 : (unsigned)env)
                                    : NULL;
    if (!context) {
        sb_error_set(error, SB_ERROR_INVALID_ARGUMENT, 0, SB_ERROR_NO_INSTR, "%s",
                     "unknown target environment for SPIR-V validation");
        return SB_ERROR_INVALID_ARGUMENT;
    }
    /* Default validator options: the rules `spirv-val --target-env vulkan1.x` applies. */
    spv_diagnostic diagnostic = NULL;
    spv_result_t result = spvValidateBinary(context, words, word_count, &diagnostic);
    if (result == SPV_SUCCESS) {
        spvDiagnosticDestroy(diagnostic);
        return SB_SUCCESS;
    }
    uint64_t offset = 0;
    const char *message = "the SPIR-V validator rejected the module without a message";
    if (diagnostic) {
        offset = instruction_byte_offset(words, word_count, diagnostic->position.index);
        if (diagnostic->error)
            message = diagnostic->error;
    }
    enum sb_result code = result == SPV_ERROR_OUT_OF_MEMORY ? SB_ERROR_OUT_OF_MEMORY
                                                             : SB_ERROR_SPIRV_INVALID;
    sb_error_set(error, code, offset, SB_ERROR_NO_INSTR, "%s", message);
    if (error) {
        /* spirv-val's messages carry the disassembled instruction on a second line: keep line one. */
        char *newline = strchr(error->message, '\n');
        if (newline)
            *newline = 0;
    }
    spvDiagnosticDestroy(diagnostic);
    return code;
}

char *sb_spirv_disassemble(const uint32_t *words, size_t word_count, enum sb_target_env env)
{
    spv_const_context context = (unsigned)env < ENV_COUNT ? context_for((unsigned)env) : NULL;
    if (!words || !context)
        return NULL;
    /* spirv-dis's defaults: indented, friendly names, with the "; SPIR-V" header. */
    const uint32_t options = SPV_BINARY_TO_TEXT_OPTION_INDENT |
                             SPV_BINARY_TO_TEXT_OPTION_FRIENDLY_NAMES;
    spv_text text = NULL;
    spv_diagnostic diagnostic = NULL;
    spv_result_t result = spvBinaryToText(context, words, word_count, options, &text, &diagnostic);
    spvDiagnosticDestroy(diagnostic);
    char *copy = NULL;
    if (result == SPV_SUCCESS && text && (copy = malloc(text->length + 1)) != NULL) {
        memcpy(copy, text->str, text->length);
        copy[text->length] = 0;
    }
    spvTextDestroy(text);
    return copy;
}
