/* SPDX-License-Identifier: MIT */
/*
 * The SPIRV-Tools glue of translate.h, independent of the translator:
 * sb_spirv_validate (verdicts per target env, the byte offset of the
 * offending instruction, argument errors), sb_spirv_disassemble (spirv-dis's
 * header and spelling, NULL on garbage), sb_spirv_optimize (dead code gone,
 * the result still valid, invalid input refused) and the shared per-env
 * validator contexts under concurrent use (translate --jobs N).
 * Exit: 0 all checks held, 1 otherwise.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shaderbridge/translate.h"

/*
 * `spirv-as --target-env spv1.0` of:
 *   OpCapability Shader / OpMemoryModel Logical GLSL450
 *   OpEntryPoint GLCompute %main "main" / OpExecutionMode %main LocalSize 1 1 1
 *   %void, %fn = void(), %int = int32, %c1 = 1, %c2 = 2
 *   %main: %l = OpLabel; %x = OpIAdd %int %c1 %c2 (unused); OpReturn
 * (no OpName: spirv-dis calls %main "%1" and the constants "%int_1", "%int_2").
 * The OpIAdd is instruction 12 (counting from 1 after the header), words 45..49.
 */
static const uint32_t module_words[] = {
    0x07230203, 0x00010000, 0x00070000, 0x00000009, 0x00000000, 0x00020011, 0x00000001,
    0x0003000e, 0x00000000, 0x00000001, 0x0005000f, 0x00000005, 0x00000001, 0x6e69616d,
    0x00000000, 0x00060010, 0x00000001, 0x00000011, 0x00000001, 0x00000001, 0x00000001,
    0x00020013, 0x00000002, 0x00030021, 0x00000003, 0x00000002, 0x00040015, 0x00000004,
    0x00000020, 0x00000001, 0x0004002b, 0x00000004, 0x00000005, 0x00000001, 0x0004002b,
    0x00000004, 0x00000006, 0x00000002, 0x00050036, 0x00000002, 0x00000001, 0x00000000,
    0x00000003, 0x000200f8, 0x00000007, 0x00050080, 0x00000004, 0x00000008, 0x00000005,
    0x00000006, 0x000100fd, 0x00010038,
};
#define MODULE_COUNT (sizeof(module_words) / sizeof(module_words[0]))
#define IADD_WORD 45
#define IADD_SECOND_OPERAND (IADD_WORD + 4)

static int failures;

#define CHECK(cond, ...)                                                      \
    do {                                                                      \
        if (!(cond)) {                                                        \
            fprintf(stderr, "FAIL line %d: %s: ", __LINE__, #cond);           \
            fprintf(stderr, __VA_ARGS__);                                     \
            fputc('\n', stderr);                                              \
            failures++;                                                       \
        }                                                                     \
    } while (0)

static void test_validate(void)
{
    for (int env = SB_TARGET_VULKAN_1_0; env <= SB_TARGET_VULKAN_1_3; env++) {
        struct sb_error error = { .code = SB_SUCCESS };
        enum sb_result r = sb_spirv_validate(module_words, MODULE_COUNT, (enum sb_target_env)env,
                                             &error);
        CHECK(r == SB_SUCCESS, "env %d: %s %s", env, sb_result_name(r), error.message);
    }

    /* The IAdd's second operand becomes %void: a type where a value must be. */
    uint32_t bad[MODULE_COUNT];
    memcpy(bad, module_words, sizeof(bad));
    bad[IADD_SECOND_OPERAND] = 2;
    struct sb_error error = { 0 };
    enum sb_result r = sb_spirv_validate(bad, MODULE_COUNT, SB_TARGET_VULKAN_1_1, &error);
    CHECK(r == SB_ERROR_SPIRV_INVALID, "got %s", sb_result_name(r));
    CHECK(error.code == SB_ERROR_SPIRV_INVALID, "error.code %s", sb_result_name(error.code));
    CHECK(error.offset == IADD_WORD * 4, "offset %llu, want %d", (unsigned long long)error.offset,
          IADD_WORD * 4);
    CHECK(error.message[0] != 0 && !strchr(error.message, '\n'), "message '%s'", error.message);

    /* SPIR-V 1.6 is beyond Vulkan 1.0 (SPIR-V 1.0) but fine for Vulkan 1.3. */
    uint32_t v16[MODULE_COUNT];
    memcpy(v16, module_words, sizeof(v16));
    v16[1] = 0x00010600;
    r = sb_spirv_validate(v16, MODULE_COUNT, SB_TARGET_VULKAN_1_0, &error);
    CHECK(r == SB_ERROR_SPIRV_INVALID, "1.6 module for vulkan1.0: %s", sb_result_name(r));
    r = sb_spirv_validate(v16, MODULE_COUNT, SB_TARGET_VULKAN_1_3, &error);
    CHECK(r == SB_SUCCESS, "1.6 module for vulkan1.3: %s %s", sb_result_name(r), error.message);

    r = sb_spirv_validate(module_words, MODULE_COUNT, (enum sb_target_env)7, &error);
    CHECK(r == SB_ERROR_INVALID_ARGUMENT, "unknown env: %s", sb_result_name(r));
    r = sb_spirv_validate(NULL, 0, SB_TARGET_VULKAN_1_1, NULL);
    CHECK(r == SB_ERROR_INVALID_ARGUMENT, "no words: %s", sb_result_name(r));
    /* A truncated module (header only, half an instruction) is refused, not read past its end. */
    r = sb_spirv_validate(module_words, 6, SB_TARGET_VULKAN_1_1, &error);
    CHECK(r == SB_ERROR_SPIRV_INVALID, "truncated: %s", sb_result_name(r));
}

static void test_disassemble(void)
{
    char *text = sb_spirv_disassemble(module_words, MODULE_COUNT, SB_TARGET_VULKAN_1_1);
    CHECK(text != NULL, "no text");
    if (text) {
        CHECK(!strncmp(text, "; SPIR-V\n", 9), "starts '%.20s'", text);
        CHECK(strstr(text, "OpEntryPoint GLCompute %1 \"main\"") != NULL, "%s", text);
        CHECK(strstr(text, "%x = OpIAdd %int %c1 %c2") == NULL &&
                  strstr(text, "OpIAdd %int %int_1 %int_2") != NULL,
              "friendly names expected: %s", text);
    }
    free(text);
    static const uint32_t garbage[] = { 0xdeadbeef, 1, 2, 3, 4, 5 };
    CHECK(sb_spirv_disassemble(garbage, 6, SB_TARGET_VULKAN_1_1) == NULL, "garbage disassembled");
    CHECK(sb_spirv_disassemble(module_words, MODULE_COUNT, (enum sb_target_env)9) == NULL,
          "unknown env disassembled");
}

static void test_optimize(void)
{
    uint32_t *out = NULL;
    size_t count = 0;
    struct sb_error error = { 0 };
    enum sb_result r = sb_spirv_optimize(module_words, MODULE_COUNT, SB_TARGET_VULKAN_1_1, &out,
                                         &count, &error);
    CHECK(r == SB_SUCCESS, "%s %s", sb_result_name(r), error.message);
    CHECK(out && count > 5 && out[0] == 0x07230203, "output %p / %zu words", (void *)out, count);
    if (out) {
        /* The unused OpIAdd (5 words) is dead code for the performance passes. */
        CHECK(count + 5 <= MODULE_COUNT, "optimised %zu words from %zu", count,
              (size_t)MODULE_COUNT);
        bool has_iadd = false;
        for (size_t at = 5; at < count && (out[at] >> 16); at += out[at] >> 16)
            has_iadd |= (out[at] & 0xffff) == 128;
        CHECK(!has_iadd, "OpIAdd survived");
        r = sb_spirv_validate(out, count, SB_TARGET_VULKAN_1_1, &error);
        CHECK(r == SB_SUCCESS, "optimised module invalid: %s", error.message);
    }
    free(out);

    uint32_t bad[MODULE_COUNT];
    memcpy(bad, module_words, sizeof(bad));
    bad[IADD_SECOND_OPERAND] = 2;
    out = (uint32_t *)&error; /* must be reset to NULL on failure */
    r = sb_spirv_optimize(bad, MODULE_COUNT, SB_TARGET_VULKAN_1_1, &out, &count, &error);
    CHECK(r == SB_ERROR_SPIRV_OPTIMIZE, "invalid input: %s", sb_result_name(r));
    CHECK(error.code == SB_ERROR_SPIRV_OPTIMIZE && error.message[0], "error %s '%s'",
          sb_result_name(error.code), error.message);
    CHECK(out == NULL && count == 0, "outputs not cleared");
    r = sb_spirv_optimize(module_words, MODULE_COUNT, (enum sb_target_env)5, &out, &count, NULL);
    CHECK(r == SB_ERROR_INVALID_ARGUMENT, "unknown env: %s", sb_result_name(r));
}

#define THREADS 4
#define ROUNDS 200

static void *validate_many(void *arg)
{
    enum sb_target_env env = (enum sb_target_env)((uintptr_t)arg % 4);
    uintptr_t bad_results = 0;
    for (int i = 0; i < ROUNDS; i++)
        if (sb_spirv_validate(module_words, MODULE_COUNT, env, NULL) != SB_SUCCESS)
            bad_results++;
    return (void *)bad_results;
}

static void test_threads(void)
{
    pthread_t threads[THREADS];
    for (uintptr_t i = 0; i < THREADS; i++)
        CHECK(pthread_create(&threads[i], NULL, validate_many, (void *)i) == 0, "thread %u",
              (unsigned)i);
    for (int i = 0; i < THREADS; i++) {
        void *bad = NULL;
        pthread_join(threads[i], &bad);
        CHECK(bad == NULL, "thread %d: %zu failed validations", i, (size_t)(uintptr_t)bad);
    }
}

int main(void)
{
    test_validate();
    test_disassemble();
    test_optimize();
    test_threads();
    if (failures) {
        fprintf(stderr, "%d check(s) failed\n", failures);
        return 1;
    }
    puts("spirv tools glue: validate, disassemble, optimise, threads: all checks held");
    return 0;
}
