/* SPDX-License-Identifier: MIT */
/*
 * Lookups on a read module (reflect/bitcode.h): value ids, constants and
 * metadata ids to their entries, in the module's tables or a function's own.
 */
#include <string.h>

#include "reflect/bitcode.h"

const struct sb_bc_value *sb_bc_value_get(const struct sb_bc_module *module,
                                          const struct sb_bc_function *function, uint32_t id)
{
    if (!module)
        return NULL;
    if (id < module->value_count)
        return &module->values[id];
    if (function && id - module->value_count < function->value_count)
        return &function->values[id - module->value_count];
    return NULL;
}

const struct sb_bc_constant *sb_bc_constant_get(const struct sb_bc_module *module,
                                                const struct sb_bc_function *function, uint32_t id)
{
    const struct sb_bc_value *value = sb_bc_value_get(module, function, id);
    if (!value || value->kind != SB_BC_VALUE_CONSTANT)
        return NULL;
    if (id < module->value_count)
        return value->index < module->constant_count ? &module->constants[value->index] : NULL;
    return value->index < function->constant_count ? &function->constants[value->index] : NULL;
}

const struct sb_bc_metadata *sb_bc_metadata_get(const struct sb_bc_module *module,
                                                const struct sb_bc_function *function, uint32_t id)
{
    if (!module)
        return NULL;
    if (id < module->metadata_count)
        return &module->metadata[id];
    if (function && id - module->metadata_count < function->metadata_count)
        return &function->metadata[id - module->metadata_count];
    return NULL;
}

const struct sb_bc_named_metadata *sb_bc_named_metadata_find(const struct sb_bc_module *module,
                                                             const char *name)
{
    if (!module || !name)
        return NULL;
    /* The lengths first: the dx.* names a translation looks up differ in most. */
    size_t length = strlen(name);
    for (uint32_t i = 0; i < module->named_metadata_count; i++) {
        const struct sb_bc_named_metadata *named = &module->named_metadata[i];
        if (named->name_length == length && !memcmp(named->name, name, length))
            return named;
    }
    return NULL;
}

const struct sb_bc_function *sb_bc_callee(const struct sb_bc_module *module,
                                          const struct sb_bc_function *function,
                                          const struct sb_bc_instruction *call)
{
    if (!call || call->opcode != SB_BC_OP_CALL || !call->operand_count)
        return NULL;
    const struct sb_bc_value *value = sb_bc_value_get(module, function, call->operands[0]);
    if (!value || value->kind != SB_BC_VALUE_FUNCTION || value->index >= module->function_count)
        return NULL;
    return &module->functions[value->index];
}
