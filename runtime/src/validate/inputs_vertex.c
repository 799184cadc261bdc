/* SPDX-License-Identifier: MIT */
/*
 * Vertex streams a caller provides (sb_validate_options::provided entries of class
 * SB_VALIDATE_CLASS_VERTEX_INPUT, `shaderbridge run --draw --input v0=FILE`): checked once for
 * the program's stage and duplicates, then unpacked into the harness's four-word vertex
 * records. The file layout is the input element's own (only the components the module
 * reads, 4 bytes each), not the harness's R32G32B32A32 record, so a user writes what the
 * shader declares; validate.h gives the rule.
 */
#include "validate_private.h"

#include "error.h"

#include <string.h>

enum sb_result sb_validate_vertex_inputs_check(const struct sb_rt_program *program,
                                               const struct sb_validate_options *o, struct sb_error *error)
{
    for (uint32_t k = 0; k < o->provided_count; k++) {
        const struct sb_rt_resource *p = &o->provided[k];
        if (p->resource_class != SB_VALIDATE_CLASS_VERTEX_INPUT)
            continue;
        if (program->stage != SB_IR_STAGE_VERTEX)
            return sb_error_set(error, SB_ERROR_RUN_BINDING, k, SB_ERROR_NO_INSTR,
                                "provided input %u: v%u is a vertex stream, which only vertex programs take", k,
                                p->register_index);
        if (p->size && !p->data)
            return sb_error_set(error, SB_ERROR_BAD_SIZE, k, SB_ERROR_NO_INSTR,
                                "provided input %u: v%u has a size but no data", k, p->register_index);
        for (uint32_t j = 0; j < k; j++)
            if (o->provided[j].resource_class == SB_VALIDATE_CLASS_VERTEX_INPUT &&
                o->provided[j].register_index == p->register_index)
                return sb_error_set(error, SB_ERROR_RUN_BINDING, k, SB_ERROR_NO_INSTR,
                                    "provided inputs %u and %u both give v%u", j, k, p->register_index);
    }
    return SB_SUCCESS;
}

enum sb_result sb_validate_vertex_input_fill(const struct sb_validate_options *o, uint32_t reg, uint32_t mask,
                                             uint32_t count, uint32_t *words, struct sb_error *error)
{
    for (uint32_t k = 0; k < o->provided_count; k++) {
        const struct sb_rt_resource *p = &o->provided[k];
        if (p->resource_class != SB_VALIDATE_CLASS_VERTEX_INPUT || p->register_index != reg)
            continue;
        uint32_t components = 0;
        for (uint32_t c = 0; c < 4; c++)
            components += mask >> c & 1u;
        size_t stride = (size_t)components * 4, want = stride * count;
        if (p->size != want)
            return sb_error_set(error, SB_ERROR_BAD_SIZE, k, SB_ERROR_NO_INSTR,
                                "provided input %u: v%u takes %u vertices of %zu bytes (components %s%s%s%s, 4 "
                                "bytes each) = %zu bytes, %zu given", k, reg, count, stride,
                                mask & 1u ? "x" : "", mask & 2u ? "y" : "", mask & 4u ? "z" : "",
                                mask & 8u ? "w" : "", want, p->size);
        const uint8_t *bytes = p->data;
        for (uint32_t v = 0; v < count; v++)
            for (uint32_t c = 0, at = 0; c < 4; c++)
                if (mask >> c & 1u) {
                    memcpy(&words[(size_t)v * 4 + c], bytes + v * stride + (size_t)at * 4, 4);
                    at++;
                }
        return SB_SUCCESS;
    }
    return SB_SUCCESS;
}

enum sb_result sb_validate_vertex_inputs_read(const struct sb_validate_options *o, const uint8_t mask[256],
                                              struct sb_error *error)
{
    for (uint32_t k = 0; k < o->provided_count; k++) {
        const struct sb_rt_resource *p = &o->provided[k];
        if (p->resource_class == SB_VALIDATE_CLASS_VERTEX_INPUT && (p->register_index >= 256 || !mask[p->register_index]))
            return sb_error_set(error, SB_ERROR_RUN_BINDING, k, SB_ERROR_NO_INSTR,
                                "provided input %u: v%u is not an input register the program reads", k,
                                p->register_index);
    }
    return SB_SUCCESS;
}
