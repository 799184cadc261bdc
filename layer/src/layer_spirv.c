/* SPDX-License-Identifier: MIT */
/*
 * The entry-point name of a SPIR-V module, read from its first OpEntryPoint
 * (SPIR-V spec §2.3 physical layout, §3.32 OpEntryPoint = opcode 15:
 * execution model, function id, then the name as a NUL-terminated literal).
 * The layer needs it to point a pipeline stage at the one entry point of a
 * module it produced, whatever pName the application passed
 * (layer/README.md §Entry points). Every read stays inside the word count.
 * Also the life of the layer's SPIR-V modules (struct sb_layer_spirv): one
 * allocation with the words inline, shared by reference between the in-process
 * cache and the calls using it (layer/README.md §Cache hit path), and the
 * index of a module's stage (sb_layer_stage_index). This file is the bottom
 * of the translation side: it calls nothing else of the layer.
 */
#include "layer_private.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *sb_layer_spirv_entry_name(const uint32_t *words, size_t word_count)
{
    if (!words || word_count < 5 || words[0] != 0x07230203u)
        return NULL;
    size_t at = 5;
    while (at < word_count) {
        uint32_t count = words[at] >> 16, opcode = words[at] & 0xffffu;
        if (count == 0 || count > word_count - at)
            return NULL;
        if (opcode == 15 && count >= 4) {
            const char *name = (const char *)&words[at + 3];
            size_t bytes = (count - 3) * 4;
            return memchr(name, 0, bytes) ? name : NULL;
        }
        if (opcode == 54) /* OpFunction: entry points are declared before any function */
            return NULL;
        at += count;
    }
    return NULL;
}

/* IDs a module may declare before the layer calls it corrupt: SPIR-V allows unused IDs
 * below the bound, but a bound far past what the words could define only makes the
 * validators below (ours and the driver's) allocate per-ID tables of that size. */
static uint32_t bound_limit(size_t word_count)
{
    return word_count > 4096 ? (uint32_t)(word_count > 0x0fffffff ? 0xffffffffu : word_count * 16) : 65536u;
}

enum sb_result sb_layer_spirv_check(const uint32_t *words, size_t word_count, enum sb_target_env env,
                                    struct sb_error *err)
{
    const char *why = NULL;
    size_t at = 5, bad_at = 0;
    if (word_count < 5 || words[0] != 0x07230203u)
        why = "no SPIR-V header (magic 0x07230203)";
    else if ((words[1] >> 16) != 1 || ((words[1] >> 8) & 0xffu) > 6 || (words[1] & 0xff0000ffu))
        why = "a SPIR-V version other than 1.0 .. 1.6", bad_at = 1;
    else if (words[3] == 0 || words[3] > bound_limit(word_count))
        why = "an ID bound of 0 or far beyond what the module's words can define", bad_at = 3;
    while (!why && at < word_count) {
        uint32_t count = words[at] >> 16;
        if (count == 0 || count > word_count - at)
            why = "an instruction word count of 0 or past the end of the module", bad_at = at;
        at += count;
    }
    if (why) {
        *err = (struct sb_error){ .code = SB_ERROR_SPIRV_INVALID, .offset = bad_at * 4, .instr = UINT32_MAX };
        snprintf(err->message, sizeof(err->message), "SPIR-V blob: %s", why);
        return SB_ERROR_SPIRV_INVALID;
    }
    return sb_spirv_validate(words, word_count, env, err);
}

/* ---- shared, immutable modules ----------------------------------------------------------------- */

struct sb_layer_spirv *sb_layer_spirv_new(uint32_t vk_stage, const void *words, size_t word_count)
{
    if (word_count > (SIZE_MAX - sizeof(struct sb_layer_spirv)) / 4)
        return NULL;
    struct sb_layer_spirv *s = malloc(sizeof(*s) + word_count * 4);
    if (!s)
        return NULL;
    atomic_init(&s->refs, 1);
    atomic_init(&s->evicted, false);
    s->vk_stage = vk_stage;
    s->word_count = word_count;
    s->entry = NULL;
    if (words) {
        memcpy(s->words, words, word_count * 4);
        sb_layer_spirv_seal(s);
    }
    return s;
}

void sb_layer_spirv_seal(struct sb_layer_spirv *spirv)
{
    spirv->entry = sb_layer_spirv_entry_name(spirv->words, spirv->word_count);
}

struct sb_layer_spirv *sb_layer_spirv_ref(struct sb_layer_spirv *spirv)
{
    atomic_fetch_add_explicit(&spirv->refs, 1, memory_order_relaxed);
    return spirv;
}

void sb_layer_spirv_unref(struct sb_layer_spirv *spirv)
{
    /* acq_rel: whatever another thread did with the module happens before the free */
    if (spirv && atomic_fetch_sub_explicit(&spirv->refs, 1, memory_order_acq_rel) == 1)
        free(spirv);
}

int sb_layer_stage_index(uint32_t vk_stage)
{
    for (int i = 0; i < SB_LAYER_STAGES; i++)
        if (vk_stage == (1u << i))
            return i;
    return -1;
}
