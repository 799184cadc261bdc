/* SPDX-License-Identifier: MIT */
/*
 * spirv_strip_debug (spirv_strip.h) on a hand-assembled module: which words
 * survive, in order, and the error code and byte offset of each malformed case.
 */
#include <string.h>

#include "check.h"
#include "spirv_strip.h"

/* header; OpCapability Shader; OpName %1 "ab"; OpMemoryModel Logical Simple;
 * OpLine %2 3 4; OpNoLine; OpModuleProcessed "x" */
static const uint32_t module[] = {
    0x07230203, 0x00010000, 0, 8, 0,
    0x00020011, 1,
    0x00030005, 1, 0x00006261,
    0x0003000e, 0, 0,
    0x00040008, 2, 3, 4,
    0x0001013d,
    0x0002014a, 0x00000078,
};

static void check_stripped(void)
{
    uint32_t out[32];
    size_t kept = 0;
    struct sb_error error = { 0 };
    enum sb_result r = spirv_strip_debug(module, sizeof(module) / 4, out, &kept, &error);
    CHECK(r == SB_SUCCESS, "result %d: %s", r, error.message);
    /* header 5 + OpCapability 2 + OpMemoryModel 3; 10 debug words removed */
    static const uint32_t want[] = { 0x07230203, 0x00010000, 0, 8, 0, 0x00020011, 1, 0x0003000e, 0, 0 };
    CHECK(kept == 10, "kept %zu words", kept);
    CHECK(kept == 10 && !memcmp(out, want, sizeof(want)), "stripped words differ");
    size_t counted = 0;
    CHECK(spirv_strip_debug(module, sizeof(module) / 4, NULL, &counted, NULL) == SB_SUCCESS && counted == 10,
          "counting only: %zu", counted);
}

static void check_error(const uint32_t *words, size_t count, enum sb_result code, uint64_t offset, const char *what)
{
    size_t kept = 99;
    struct sb_error error = { 0 };
    enum sb_result r = spirv_strip_debug(words, count, NULL, &kept, &error);
    CHECK(r == code && error.code == code, "%s: result %d, want %d", what, r, code);
    CHECK(error.offset == offset, "%s: offset %llu, want %llu", what, (unsigned long long)error.offset,
          (unsigned long long)offset);
    CHECK(kept == 0, "%s: kept %zu after an error", what, kept);
    CHECK(error.message[0] != 0, "%s: no message", what);
}

int main(void)
{
    check_stripped();
    uint32_t bad[sizeof(module) / 4];
    check_error(module, 4, SB_ERROR_TRUNCATED, 0, "short header");
    memcpy(bad, module, sizeof(bad));
    bad[0] = 0x03022307; /* byte-swapped magic */
    check_error(bad, sizeof(bad) / 4, SB_ERROR_BAD_MAGIC, 0, "magic");
    memcpy(bad, module, sizeof(bad));
    bad[7] = 0x00100005; /* OpName claiming 16 words, 13 left from word 7 */
    check_error(bad, sizeof(bad) / 4, SB_ERROR_TRUNCATED, 28, "overlong instruction");
    memcpy(bad, module, sizeof(bad));
    bad[10] = 0x0000000e; /* OpMemoryModel with word count 0 */
    check_error(bad, sizeof(bad) / 4, SB_ERROR_BAD_SIZE, 40, "zero word count");
    check_error(module, 19, SB_ERROR_TRUNCATED, 72, "module cut inside OpModuleProcessed");
    size_t kept = 0;
    CHECK(spirv_strip_debug(NULL, 5, NULL, &kept, NULL) == SB_ERROR_INVALID_ARGUMENT, "NULL words");
    printf("test_spirv_strip: %u checks, %u failed\n", checks, failures);
    return failures ? 1 : 0;
}
