/* SPDX-License-Identifier: MIT */
/*
 * Word streams of the SPIR-V builder (spirv_builder.h): growth. Below the
 * builder core (spirv_builder.c), whose emitters reserve room inline and come
 * here only to grow.
 */
#include "spirv_builder.h"

#include <stdlib.h>

bool sb_spv_stream_grow(struct sb_spv_builder *b, struct sb_spv_stream *s, size_t extra)
{
    if (b->failed)
        return false;
    if (s->count + extra <= s->capacity)
        return true;
    /* Small modules are the norm: grow fast at first so a module needs few reallocs. */
    size_t cap = !s->capacity ? 256 : s->capacity < 4096 ? s->capacity * 4 : s->capacity * 2;
    while (cap < s->count + extra)
        cap *= 2;
    uint32_t *words = realloc(s->words, cap * sizeof(*words));
    if (!words) {
        b->failed = true;
        return false;
    }
    s->words = words;
    s->capacity = cap;
    return true;
}
