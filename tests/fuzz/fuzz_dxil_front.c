/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target for the DXIL front end (issue #18): sb_translate on a dxc
 * container, so the bitcode reader, the dx.* metadata reader, the
 * structurizer, the DXIL -> IR lowering and the SPIR-V back end all see the
 * input. Any failure must come back as a structured error; a success must
 * hand back a module. Seeds: samples/ and the corpus's dxc containers.
 */
#include <stdint.h>
#include <stdlib.h>

#include "shaderbridge/translate.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const struct sb_translate_options options = { .target_env = SB_TARGET_VULKAN_1_1 };
    struct sb_translation *translation = NULL;
    struct sb_error error = { 0 };
    enum sb_result result = sb_translate(data, size, &options, &translation, &error);
    /* The contract the fuzzer checks beyond memory safety: success means a module,
     * failure means an error code and no module. */
    if (result == SB_SUCCESS && (!translation || !translation->words || !translation->word_count))
        abort();
    if (result != SB_SUCCESS && error.code == SB_SUCCESS)
        abort();
    sb_translation_destroy(translation);
    return 0;
}
