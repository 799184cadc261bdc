/* SPDX-License-Identifier: MIT */
/*
 * Keeps the interface a translation reports in step with its module after
 * SPIRV-Tools' optimiser ran: the performance passes delete Input/Output
 * variables the shader never reads or writes, and a partner stage or vertex
 * input state built from a stale report would declare what the module no
 * longer has (the Vulkan tests saw this on -O translations).
 *
 * The optimised words are scanned once for Input/Output variables and their
 * Location / Component / Patch / BuiltIn decorations; report entries without
 * a surviving variable are dropped. BuiltIn decorations on block members
 * (gl_PerVertex style) are kept whenever the member decoration survives,
 * since the block type outlives its variable only when another variable
 * still uses it.
 */
#include <stdlib.h>
#include <string.h>

#include "spirv/spirv_private.h"

enum { STORAGE_NONE = 0, STORAGE_INPUT = 1, STORAGE_OUTPUT = 2 };

struct variable_facts {
    uint8_t storage;      /* STORAGE_* for OpVariable results, else NONE */
    bool has_location, patch, has_builtin;
    uint32_t location, component, builtin;
};

struct module_scan {
    struct variable_facts *ids;
    uint32_t bound;
    uint32_t *member_builtins; /* BuiltIn values seen on OpMemberDecorate */
    uint32_t member_builtin_count;
};

static bool scan_module(const uint32_t *words, size_t count, struct module_scan *scan)
{
    if (count < 5)
        return false;
    scan->bound = words[3];
    scan->ids = calloc(scan->bound ? scan->bound : 1, sizeof(*scan->ids));
    scan->member_builtins = calloc(count, sizeof(uint32_t));
    if (!scan->ids || !scan->member_builtins)
        return false;
    for (size_t at = 5; at < count;) {
        uint32_t op = words[at] & 0xFFFFu, length = words[at] >> 16;
        if (length == 0 || at + length > count)
            return false;
        const uint32_t *w = &words[at];
        if (op == SpvOpVariable && length >= 4 && w[2] < scan->bound) {
            if (w[3] == SpvStorageClassInput)
                scan->ids[w[2]].storage = STORAGE_INPUT;
            else if (w[3] == SpvStorageClassOutput)
                scan->ids[w[2]].storage = STORAGE_OUTPUT;
        } else if (op == SpvOpDecorate && length >= 3 && w[1] < scan->bound) {
            struct variable_facts *v = &scan->ids[w[1]];
            if (w[2] == SpvDecorationLocation && length >= 4) {
                v->has_location = true;
                v->location = w[3];
            } else if (w[2] == SpvDecorationComponent && length >= 4) {
                v->component = w[3];
            } else if (w[2] == SpvDecorationPatch) {
                v->patch = true;
            } else if (w[2] == SpvDecorationBuiltIn && length >= 4) {
                v->has_builtin = true;
                v->builtin = w[3];
            }
        } else if (op == SpvOpMemberDecorate && length >= 5 && w[3] == SpvDecorationBuiltIn) {
            scan->member_builtins[scan->member_builtin_count++] = w[4];
        }
        at += length;
    }
    return true;
}

static bool has_located_variable(const struct module_scan *scan, uint8_t storage,
                                 const struct sb_translated_interface *entry)
{
    for (uint32_t id = 0; id < scan->bound; id++) {
        const struct variable_facts *v = &scan->ids[id];
        if (v->storage == storage && v->has_location && v->location == entry->location &&
            v->component == entry->component && v->patch == entry->patch)
            return true;
    }
    return false;
}

static bool has_builtin(const struct module_scan *scan, uint8_t storage, uint32_t builtin)
{
    for (uint32_t id = 0; id < scan->bound; id++) {
        const struct variable_facts *v = &scan->ids[id];
        if (v->storage == storage && v->has_builtin && v->builtin == builtin)
            return true;
    }
    for (uint32_t i = 0; i < scan->member_builtin_count; i++)
        if (scan->member_builtins[i] == builtin)
            return true;
    return false;
}

static uint32_t prune_located(const struct module_scan *scan, uint8_t storage,
                              struct sb_translated_interface *entries, uint32_t count)
{
    uint32_t kept = 0;
    for (uint32_t i = 0; i < count; i++)
        if (has_located_variable(scan, storage, &entries[i]))
            entries[kept++] = entries[i];
    return kept;
}

static uint32_t prune_builtins(const struct module_scan *scan, uint8_t storage, uint32_t *builtins,
                               uint32_t count)
{
    uint32_t kept = 0;
    for (uint32_t i = 0; i < count; i++)
        if (has_builtin(scan, storage, builtins[i]))
            builtins[kept++] = builtins[i];
    return kept;
}

enum sb_result sb_translation_prune_interface(struct sb_translation *translation)
{
    struct module_scan scan;
    memset(&scan, 0, sizeof(scan));
    enum sb_result result = SB_SUCCESS;
    if (!scan_module(translation->words, translation->word_count, &scan)) {
        result = scan.ids && scan.member_builtins ? SB_ERROR_SPIRV_OPTIMIZE : SB_ERROR_OUT_OF_MEMORY;
    } else {
        /* The arrays are parts of the translation's block (translation_block.h); shrinking
         * the counts in place leaves them valid. */
        translation->input_count = prune_located(
            &scan, STORAGE_INPUT, (struct sb_translated_interface *)translation->inputs,
            translation->input_count);
        translation->output_count = prune_located(
            &scan, STORAGE_OUTPUT, (struct sb_translated_interface *)translation->outputs,
            translation->output_count);
        translation->builtin_input_count = prune_builtins(
            &scan, STORAGE_INPUT, (uint32_t *)translation->builtin_inputs,
            translation->builtin_input_count);
        translation->builtin_output_count = prune_builtins(
            &scan, STORAGE_OUTPUT, (uint32_t *)translation->builtin_outputs,
            translation->builtin_output_count);
    }
    free(scan.ids);
    free(scan.member_builtins);
    return result;
}
