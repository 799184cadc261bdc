/* SPDX-License-Identifier: MIT */
/*
 * The bottom of the interpreter: recording a failure (the first one wins, at the
 * current instruction, through the one error setter of reflect/src/common) and
 * finding the declaration and the caller's table entry an operand names, and
 * D3D's standard sample patterns (samplepos and eval_sample_index). Every
 * other interp_*.c file calls down into these; nothing here calls back up.
 */
#include "interp_private.h"

#include <stdarg.h>

#include "error.h"

enum sb_result sb_interp_fail(struct interp_state *s, enum sb_result code, const char *fmt, ...)
{
    if (s->result != SB_SUCCESS)
        return s->result;
    s->result = code;
    va_list ap;
    va_start(ap, fmt);
    sb_error_setv(s->error, code, s->inst ? s->inst->offset : 0, SB_ERROR_NO_INSTR, fmt, ap);
    va_end(ap);
    return code;
}

enum sb_result sb_interp_unsupported(struct interp_state *s, const char *what)
{
    return sb_interp_fail(s, SB_ERROR_RUN_UNSUPPORTED, "'%s': %s is not supported by the interpreter",
                          s->inst ? sb_ir_op_name(s->inst->op) : "?", what);
}

struct sb_rt_resource *sb_interp_find(struct interp_state *s, uint32_t resource_class, uint32_t space,
                                      uint32_t reg)
{
    for (uint32_t i = 0; i < s->resource_count; i++) {
        struct sb_rt_resource *r = &s->resources[i];
        if (r->resource_class == resource_class && r->space == space && r->register_index == reg)
            return r;
    }
    return NULL;
}

uint32_t sb_interp_resource_class(uint32_t file)
{
    switch (file) {
    case SB_IR_FILE_CONSTANT_BUFFER: return SB_IR_RESOURCE_CBV;
    case SB_IR_FILE_RESOURCE: return SB_IR_RESOURCE_SRV;
    case SB_IR_FILE_SAMPLER: return SB_IR_RESOURCE_SAMPLER;
    case SB_IR_FILE_UAV: return SB_IR_RESOURCE_UAV;
    default: return UINT32_MAX;
    }
}

const struct sb_ir_resource *sb_interp_decl(const struct interp_state *s, uint32_t file, uint32_t id)
{
    uint32_t cls = sb_interp_resource_class(file);
    for (uint32_t i = 0; i < s->program->resource_count; i++)
        if (s->program->resources[i].resource_class == cls && s->program->resources[i].id == id)
            return &s->program->resources[i];
    return NULL;
}

bool sb_interp_sample_position(uint32_t count, uint32_t index, float xy[2])
{
    return sb_ir_standard_sample_position(count, index, xy);
}
