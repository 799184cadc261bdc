/* SPDX-License-Identifier: MIT */
/* The single error setter (error.h). */
#include "error.h"

#include <stdio.h>

enum sb_result sb_error_setv(struct sb_error *error, enum sb_result code, uint64_t offset,
                             uint32_t instr, const char *format, va_list args)
{
    if (!error)
        return code;
    error->code = code;
    error->offset = offset;
    error->instr = instr;
    vsnprintf(error->message, sizeof(error->message), format, args);
    return code;
}

enum sb_result sb_error_set(struct sb_error *error, enum sb_result code, uint64_t offset,
                            uint32_t instr, const char *format, ...)
{
    va_list args;
    va_start(args, format);
    sb_error_setv(error, code, offset, instr, format, args);
    va_end(args);
    return code;
}
