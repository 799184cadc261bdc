/* SPDX-License-Identifier: MIT */
/*
 * Parse life cycle shared by the DXContainer, SHBIN and VBC readers (see
 * reflect_private.h), and the names of result codes.
 */
#include "reflect_private.h"

#include <stdio.h>
#include <string.h>

/* Sits in front of every root object so its destroy call can find the arena. */
struct object_header {
    struct sb_arena *arena;
    _Alignas(16) unsigned char object[];
};

static void *begin(struct sb_reader *reader, const void *data, size_t size, size_t object_size,
                   bool borrow)
{
    memset(reader, 0, sizeof(*reader));
    reader->arena = sb_arena_create();
    struct object_header *header = NULL;
    const uint8_t *bytes = data;
    if (reader->arena) {
        header = sb_arena_alloc(reader->arena, 1, sizeof(*header) + object_size);
        if (header && !borrow) {
            uint8_t *copy = sb_arena_alloc_uninit(reader->arena, size ? size : 1, 1);
            if (copy && size)
                memcpy(copy, data, size);
            bytes = copy;
        }
    }
    if (!header || !bytes) {
        sb_reader_fail(reader, SB_ERROR_OUT_OF_MEMORY, 0,
                       "out of memory copying a %zu-byte input", size);
        return NULL;
    }
    header->arena = reader->arena;
    reader->data = bytes;
    reader->size = size;
    return header->object;
}

void *sb_reader_begin(struct sb_reader *reader, const void *data, size_t size,
                      size_t object_size)
{
    return begin(reader, data, size, object_size, false);
}

void *sb_reader_begin_borrowed(struct sb_reader *reader, const void *data, size_t size,
                               size_t object_size)
{
    return begin(reader, data, size, object_size, true);
}

enum sb_result sb_reader_finish(struct sb_reader *reader, struct sb_error *error)
{
    if (!reader->failed)
        return SB_SUCCESS;
    if (error)
        *error = reader->error;
    sb_arena_destroy(reader->arena);
    reader->arena = NULL;
    return reader->error.code;
}

void sb_object_destroy(void *object)
{
    if (!object)
        return;
    struct object_header *header =
        (struct object_header *)((unsigned char *)object - offsetof(struct object_header, object));
    sb_arena_destroy(header->arena);
}

enum sb_result sb_report_argument_error(struct sb_error *error, const char *message)
{
    return sb_error_set(error, SB_ERROR_INVALID_ARGUMENT, 0, SB_ERROR_NO_INSTR, "%s", message);
}

const char *sb_result_name(enum sb_result result)
{
    switch (result) {
    case SB_SUCCESS: return "SB_SUCCESS";
    case SB_ERROR_INVALID_ARGUMENT: return "SB_ERROR_INVALID_ARGUMENT";
    case SB_ERROR_OUT_OF_MEMORY: return "SB_ERROR_OUT_OF_MEMORY";
    case SB_ERROR_UNKNOWN_FORMAT: return "SB_ERROR_UNKNOWN_FORMAT";
    case SB_ERROR_IO: return "SB_ERROR_IO";
    case SB_ERROR_TRUNCATED: return "SB_ERROR_TRUNCATED";
    case SB_ERROR_BAD_MAGIC: return "SB_ERROR_BAD_MAGIC";
    case SB_ERROR_BAD_VERSION: return "SB_ERROR_BAD_VERSION";
    case SB_ERROR_BAD_OFFSET: return "SB_ERROR_BAD_OFFSET";
    case SB_ERROR_BAD_SIZE: return "SB_ERROR_BAD_SIZE";
    case SB_ERROR_BAD_COUNT: return "SB_ERROR_BAD_COUNT";
    case SB_ERROR_BAD_VALUE: return "SB_ERROR_BAD_VALUE";
    case SB_ERROR_BAD_STRING: return "SB_ERROR_BAD_STRING";
    case SB_ERROR_TRAILING_DATA: return "SB_ERROR_TRAILING_DATA";
    case SB_ERROR_DUPLICATE: return "SB_ERROR_DUPLICATE";
    case SB_ERROR_SM4_BAD_HEADER: return "SB_ERROR_SM4_BAD_HEADER";
    case SB_ERROR_SM4_UNKNOWN_OPCODE: return "SB_ERROR_SM4_UNKNOWN_OPCODE";
    case SB_ERROR_SM4_BAD_LENGTH: return "SB_ERROR_SM4_BAD_LENGTH";
    case SB_ERROR_SM4_LENGTH_TOO_SHORT: return "SB_ERROR_SM4_LENGTH_TOO_SHORT";
    case SB_ERROR_SM4_BAD_OPERAND: return "SB_ERROR_SM4_BAD_OPERAND";
    case SB_ERROR_SM4_BAD_INDEX: return "SB_ERROR_SM4_BAD_INDEX";
    case SB_ERROR_SM4_BAD_EXTENDED: return "SB_ERROR_SM4_BAD_EXTENDED";
    case SB_ERROR_SM4_BAD_CUSTOM_DATA: return "SB_ERROR_SM4_BAD_CUSTOM_DATA";
    case SB_ERROR_TRANSLATE_UNSUPPORTED: return "SB_ERROR_TRANSLATE_UNSUPPORTED";
    case SB_ERROR_TRANSLATE_INVALID: return "SB_ERROR_TRANSLATE_INVALID";
    case SB_ERROR_SPIRV_INVALID: return "SB_ERROR_SPIRV_INVALID";
    case SB_ERROR_SPIRV_OPTIMIZE: return "SB_ERROR_SPIRV_OPTIMIZE";
    case SB_ERROR_TARGET_CROSS: return "SB_ERROR_TARGET_CROSS";
    case SB_ERROR_RUN_UNSUPPORTED: return "SB_ERROR_RUN_UNSUPPORTED";
    case SB_ERROR_RUN_BUDGET: return "SB_ERROR_RUN_BUDGET";
    case SB_ERROR_RUN_BINDING: return "SB_ERROR_RUN_BINDING";
    case SB_ERROR_VULKAN: return "SB_ERROR_VULKAN";
    case SB_ERROR_NO_DEVICE: return "SB_ERROR_NO_DEVICE";
    case SB_ERROR_ASM_SYNTAX: return "SB_ERROR_ASM_SYNTAX";
    case SB_ERROR_BC_BAD_ABBREV: return "SB_ERROR_BC_BAD_ABBREV";
    case SB_ERROR_BC_VBR_TOO_LONG: return "SB_ERROR_BC_VBR_TOO_LONG";
    case SB_ERROR_BC_BAD_BLOCK: return "SB_ERROR_BC_BAD_BLOCK";
    case SB_ERROR_BC_TOO_DEEP: return "SB_ERROR_BC_TOO_DEEP";
    case SB_ERROR_BC_BAD_RECORD: return "SB_ERROR_BC_BAD_RECORD";
    case SB_ERROR_BC_BAD_TYPE: return "SB_ERROR_BC_BAD_TYPE";
    case SB_ERROR_BC_BAD_REFERENCE: return "SB_ERROR_BC_BAD_REFERENCE";
    default: return "SB_RESULT_UNKNOWN";
    }
}
