/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target for the dx.op function-name parser (translator/dxil_ops.h,
 * sb_dxil_op_name_parse; ../shared/docs/dxil.md §3.3): names come from a
 * module's string table, so any bytes are parsed. A success must spell the input
 * back exactly ("dx.op." + class + optional "." + suffix) with an overload the
 * class has; a failure must be SB_ERROR_BAD_VALUE at an offset inside the name.
 * The first four bytes also go through the opcode lookup. Built with clang as a
 * fuzzer (SB_BUILD_FUZZERS) and, with replay_main.c, as a ctest program replaying
 * tests/fuzz/dxil_op_name_seeds under ASan+UBSan.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "translator/dxil_ops.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The name `parsed` stands for, written into `text`; its length, or 0 when it does not fit. */
static size_t spell(const struct sb_dxil_op_name *parsed, char *text, size_t room)
{
    const char *class_name = sb_dxil_op_classes[parsed->op_class].name;
    const struct sb_dxil_overload_suffix *o = &parsed->overload;
    int n = 0;
    switch (o->kind) {
    case SB_DXIL_OVERLOAD_KIND_NONE:
        n = snprintf(text, room, "dx.op.%s", class_name);
        break;
    case SB_DXIL_OVERLOAD_KIND_SCALAR:
        n = snprintf(text, room, "dx.op.%s.%s", class_name, sb_dxil_overload_name(o->scalar));
        break;
    case SB_DXIL_OVERLOAD_KIND_VECTOR:
        n = snprintf(text, room, "dx.op.%s.v%u%s", class_name, o->vector_length,
                     sb_dxil_overload_name(o->scalar));
        break;
    case SB_DXIL_OVERLOAD_KIND_STRUCT:
        n = snprintf(text, room, "dx.op.%s.", class_name);
        /* copied, not printed: %.*s would stop at a NUL the parser should have refused */
        if (n > 0 && (size_t)n + o->type_name_length < room) {
            memcpy(text + n, o->type_name, o->type_name_length);
            n += (int)o->type_name_length;
        } else {
            n = 0;
        }
        break;
    }
    return n > 0 && (size_t)n < room ? (size_t)n : 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct sb_dxil_op_name parsed;
    struct sb_error error = { 0 };
    const char *name = (const char *)data;
    if (sb_dxil_op_name_parse(name, size, &parsed, &error) == SB_SUCCESS) {
        char text[512];
        if (parsed.op_class >= SB_DXIL_CLASS_COUNT)
            abort();
        if (parsed.overload.kind == SB_DXIL_OVERLOAD_KIND_STRUCT &&
            (parsed.overload.type_name < name ||
             parsed.overload.type_name + parsed.overload.type_name_length != name + size))
            abort(); /* a struct name outside the input */
        size_t length = spell(&parsed, text, sizeof text);
        if (size < sizeof text && (length != size || memcmp(text, data, size) != 0))
            abort(); /* the parse does not stand for the input */
    } else if (error.code != SB_ERROR_BAD_VALUE || error.offset > size || !error.message[0]) {
        abort(); /* a malformed error */
    }
    if (size >= 4) {
        uint32_t opcode;
        memcpy(&opcode, data, 4);
        const struct sb_dxil_op_info *op = sb_dxil_op_lookup(opcode);
        if (op && (op->opcode != opcode ||
                   (op->operand_count && !sb_dxil_op_operand(op, op->operand_count - 1))))
            abort();
    }
    return 0;
}
