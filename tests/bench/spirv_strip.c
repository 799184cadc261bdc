/* SPDX-License-Identifier: MIT */
/*
 * spirv_strip_debug (spirv_strip.h): one pass over the instruction stream. Each
 * instruction's first word holds its word count (high 16 bits) and opcode (low
 * 16 bits), SPIR-V 1.6 §2.3; the count is checked against the words left before
 * anything past the first word is touched, so a corrupt module ends in an error at
 * the instruction's byte offset, never in a read past `count`.
 */
#include "spirv_strip.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define SPIRV_MAGIC 0x07230203u

/* Opcode numbers of the SPIR-V specification's debug instructions (OpModuleProcessed
 * exists since SPIR-V 1.1; the rest since 1.0). */
enum {
    OP_SOURCE_CONTINUED = 2,
    OP_SOURCE = 3,
    OP_SOURCE_EXTENSION = 4,
    OP_NAME = 5,
    OP_MEMBER_NAME = 6,
    OP_STRING = 7,
    OP_LINE = 8,
    OP_NO_LINE = 317,
    OP_MODULE_PROCESSED = 330,
};

static enum sb_result fail(struct sb_error *error, enum sb_result code, size_t word, const char *format, ...)
{
    if (!error)
        return code;
    error->code = code;
    error->offset = (uint64_t)word * 4u;
    error->instr = UINT32_MAX;
    va_list args;
    va_start(args, format);
    vsnprintf(error->message, sizeof(error->message), format, args);
    va_end(args);
    return code;
}

static bool is_debug(uint32_t opcode)
{
    switch (opcode) {
    case OP_SOURCE_CONTINUED: case OP_SOURCE: case OP_SOURCE_EXTENSION: case OP_NAME:
    case OP_MEMBER_NAME: case OP_STRING: case OP_LINE: case OP_NO_LINE: case OP_MODULE_PROCESSED:
        return true;
    default:
        return false;
    }
}

enum sb_result spirv_strip_debug(const uint32_t *words, size_t count, uint32_t *out, size_t *kept,
                                 struct sb_error *error)
{
    if (!words || !kept)
        return fail(error, SB_ERROR_INVALID_ARGUMENT, 0, "spirv_strip_debug: words or kept is NULL");
    *kept = 0;
    if (count < SPIRV_STRIP_HEADER_WORDS)
        return fail(error, SB_ERROR_TRUNCATED, 0, "a SPIR-V module needs %u header words; it has %zu",
                    SPIRV_STRIP_HEADER_WORDS, count);
    if (words[0] != SPIRV_MAGIC)
        return fail(error, SB_ERROR_BAD_MAGIC, 0, "SPIR-V magic is 0x%08x, not 0x%08x", words[0], SPIRV_MAGIC);
    size_t n = SPIRV_STRIP_HEADER_WORDS;
    if (out)
        memcpy(out, words, SPIRV_STRIP_HEADER_WORDS * sizeof(*words));
    for (size_t at = SPIRV_STRIP_HEADER_WORDS; at < count;) {
        uint32_t length = words[at] >> 16, opcode = words[at] & 0xffffu;
        if (length == 0)
            return fail(error, SB_ERROR_BAD_SIZE, at, "instruction at word %zu (opcode %u) has a word count of 0",
                        at, opcode);
        if (length > count - at)
            return fail(error, SB_ERROR_TRUNCATED, at, "instruction at word %zu (opcode %u) claims %u words; "
                        "the module ends %zu words later", at, opcode, length, count - at);
        if (!is_debug(opcode)) {
            if (out)
                memcpy(out + n, words + at, (size_t)length * sizeof(*words));
            n += length;
        }
        at += length;
    }
    *kept = n;
    return SB_SUCCESS;
}
