/* SPDX-License-Identifier: MIT */
/*
 * The D3D register behind a SPIR-V binding of a translation (targets_private.h): the
 * text targets name each resource after it and HLSL declares it there again.
 */
#include "targets_private.h"

#include <stdio.h>

const struct sb_translated_binding *sb_target_find_binding(const struct sb_translation *pub,
                                                          uint32_t set, uint32_t binding,
                                                          bool *is_counter)
{
    for (uint32_t i = 0; i < pub->binding_count; i++) {
        const struct sb_translated_binding *b = &pub->bindings[i];
        if (b->set != set)
            continue;
        if (b->binding == binding) {
            *is_counter = false;
            return b;
        }
        if (b->has_counter && b->counter_binding == binding) {
            *is_counter = true;
            return b;
        }
    }
    *is_counter = false;
    return NULL;
}

void sb_target_register_name(const struct sb_translated_binding *b, bool is_counter, char *buf,
                             size_t size)
{
    /* Index = enum sb_ir_resource_class (CBV, SRV, SAMPLER, UAV). */
    static const char *const prefixes[] = { "cb", "t", "s", "u" };
    const char *prefix = (unsigned)b->resource_class < 4 ? prefixes[b->resource_class] : "r";
    int n = snprintf(buf, size, "%s%u%s", prefix, b->lower_bound, is_counter ? "_counter" : "");
    if (b->space && n > 0 && (size_t)n < size)
        snprintf(buf + n, size - (size_t)n, "_space%u", b->space);
}
