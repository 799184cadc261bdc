/* SPDX-License-Identifier: MIT */
/*
 * The evidence a tracked run keeps for validation verdicts (interp.h,
 * struct sb_interp_tracking): the per-word arrays beside each UAV of the
 * caller's table, allocated when a tracked run starts and released by the
 * caller. What fills them: the precision bounds (interp_precision.c) and the
 * undefined-behaviour detector (interp_race.c).
 */
#include "interp_private.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void sb_interp_tracking_release(struct sb_interp_tracking *t)
{
    if (!t)
        return;
    for (uint32_t i = 0; i < t->resource_count; i++) {
        if (t->bound)
            free(t->bound[i]);
        if (t->origin)
            free(t->origin[i]);
        if (t->undefined_word)
            free(t->undefined_word[i]);
    }
    free(t->bound);
    free(t->origin);
    free(t->undefined_word);
    free(t->output_bound);
    free(t->output_origin);
    free(t->output_undefined);
    bool precision = t->precision, undefined = t->undefined, origins = t->origins;
    memset(t, 0, sizeof(*t));
    t->precision = precision;
    t->undefined = undefined;
    t->origins = origins;
}

enum sb_result sb_interp_track_outputs(struct interp_state *s, size_t words)
{
    struct sb_interp_tracking *t = s->track;
    if (!t || t->output_bound || !words)
        return SB_SUCCESS;
    t->output_bound = calloc(words, sizeof(float));
    t->output_origin = malloc(words * sizeof(uint32_t));
    t->output_undefined = calloc(words, 1);
    if (!t->output_bound || !t->output_origin || !t->output_undefined)
        return sb_interp_fail(s, SB_ERROR_OUT_OF_MEMORY, "out of memory");
    memset(t->output_origin, 0xFF, words * sizeof(uint32_t));
    return SB_SUCCESS;
}

enum sb_result sb_interp_track_begin(struct interp_state *s, struct sb_interp_tracking *t)
{
    s->track = t;
    if (!t || (!t->precision && !t->undefined))
        return SB_SUCCESS;
    /* A later batch or stage of the same run keeps what is recorded. The tables, not the count,
     * say a run has begun: a program without resources has a count of 0 and tables all the same,
     * which hold nothing, so the first stage with resources after it replaces them. */
    if (t->bound && (t->resource_count || !s->resource_count))
        return SB_SUCCESS;
    free(t->bound);
    free(t->origin);
    free(t->undefined_word);
    t->resource_count = s->resource_count;
    t->bound = calloc(s->resource_count ? s->resource_count : 1, sizeof(*t->bound));
    t->origin = calloc(s->resource_count ? s->resource_count : 1, sizeof(*t->origin));
    t->undefined_word = calloc(s->resource_count ? s->resource_count : 1, sizeof(*t->undefined_word));
    if (!t->bound || !t->origin || !t->undefined_word)
        return sb_interp_fail(s, SB_ERROR_OUT_OF_MEMORY, "out of memory");
    for (uint32_t i = 0; i < s->resource_count; i++) {
        const struct sb_rt_resource *r = &s->resources[i];
        if (r->resource_class != SB_IR_RESOURCE_UAV || !r->data)
            continue;
        size_t words = r->size / 4 + 1;
        t->bound[i] = calloc(words, sizeof(float));
        t->origin[i] = malloc(words * sizeof(uint32_t));
        t->undefined_word[i] = calloc(words, 1);
        if (!t->bound[i] || !t->origin[i] || !t->undefined_word[i])
            return sb_interp_fail(s, SB_ERROR_OUT_OF_MEMORY, "out of memory");
        memset(t->origin[i], 0xFF, words * sizeof(uint32_t));
    }
    return SB_SUCCESS;
}
