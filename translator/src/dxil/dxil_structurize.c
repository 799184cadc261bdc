/* SPDX-License-Identifier: MIT */
/*
 * sb_dxil_structurize: a DXIL function's CFG as structured events
 * (../shared/docs/dxil.md §6; ../../IR.md "Control flow").
 *
 * dxc's graphs are reducible but not structured: merges shared by several
 * constructs, breaks out of several loops, early returns, switch cases that
 * fall into each other. The IR only has nested IF/LOOP/SWITCH with BREAK and
 * CONTINUE of the innermost construct, so the structurizer
 *   1. checks the input and analyses the graph (dxil_cfg_analysis.c: RPO,
 *      dominators, natural loops, reducibility);
 *   2. for a reducible graph builds a labelled nesting on the dominator tree
 *      (dxil_structurize_tree.c: every forward jump becomes a break of a
 *      construct that ends just before its target, every back edge a
 *      continue), then drops the jumps that falling through does anyway and
 *      writes the events, with a selector ladder for a jump that leaves more
 *      than the innermost construct (dxil_structurize_lower.c);
 *   3. for an irreducible graph writes the dispatch loop
 *      (dxil_structurize_dispatch.c), which needs no structure at all.
 * No block is duplicated and no edge is split: every CFG edge taken at run
 * time passes exactly one EDGE event, which is where its phi copies go.
 * Work: O(n^2) at worst for n blocks (dominators, loop membership),
 * hence SB_DXIL_CFG_MAX_BLOCKS. Output: a structured list longer than
 * SB_DXIL_STRUCTURED_EVENTS_PER_ITEM events per block and edge (ladders of
 * many jumps through deep nests grow as depth x jumps) is given up for the
 * dispatch loop, which is linear.
 */
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "dxil_structurize_private.h"

/* The successor count each terminator needs, and in-range successors and distinct cases. */
static enum sb_result check_cfg(const struct sb_dxil_cfg *cfg, struct sb_error *error)
{
    if (cfg->block_count == 0 || cfg->block_count > SB_DXIL_CFG_MAX_BLOCKS)
        return sb_error_set(error, SB_ERROR_TRANSLATE_UNSUPPORTED, 0, SB_ERROR_NO_INSTR,
                            "function has %u blocks; the structurizer takes 1 to %u",
                            cfg->block_count, SB_DXIL_CFG_MAX_BLOCKS);
    uint64_t cases = 0;
    for (uint32_t b = 0; b < cfg->block_count; b++) {
        const struct sb_dxil_cfg_block *block = &cfg->blocks[b];
        uint32_t want = 0;
        switch (block->terminator) {
        case SB_DXIL_CFG_RETURN:
        case SB_DXIL_CFG_UNREACHABLE:
            want = 0;
            break;
        case SB_DXIL_CFG_BRANCH:
            want = 1;
            break;
        case SB_DXIL_CFG_COND_BRANCH:
            want = 2;
            break;
        case SB_DXIL_CFG_SWITCH:
            want = block->successor_count ? block->successor_count : 1;
            cases += block->successor_count ? block->successor_count - 1u : 0;
            break;
        default:
            return sb_error_set(error, SB_ERROR_TRANSLATE_INVALID, block->offset, SB_ERROR_NO_INSTR,
                                "block %u: terminator kind %u is unknown", b,
                                (unsigned)block->terminator);
        }
        if (block->successor_count != want)
            return sb_error_set(error, SB_ERROR_TRANSLATE_INVALID, block->offset, SB_ERROR_NO_INSTR,
                                "block %u: %u successors for terminator kind %u, which needs %u", b,
                                block->successor_count, (unsigned)block->terminator, want);
        if ((want && !block->successors) ||
            (block->terminator == SB_DXIL_CFG_SWITCH && want > 1 && !block->case_values))
            return sb_error_set(error, SB_ERROR_TRANSLATE_INVALID, block->offset, SB_ERROR_NO_INSTR,
                                "block %u: no %s array", b, block->successors ? "case value" : "successor");
        if (cases > SB_DXIL_CFG_MAX_CASES)
            return sb_error_set(error, SB_ERROR_TRANSLATE_UNSUPPORTED, block->offset, SB_ERROR_NO_INSTR,
                                "block %u: more than %u switch cases in the function", b,
                                SB_DXIL_CFG_MAX_CASES);
        for (uint32_t k = 0; k < want; k++)
            if (block->successors[k] >= cfg->block_count)
                return sb_error_set(error, SB_ERROR_TRANSLATE_INVALID, block->offset,
                                    SB_ERROR_NO_INSTR, "block %u: successor %u is block %u of %u", b,
                                    k, block->successors[k], cfg->block_count);
    }
    return SB_SUCCESS;
}

static int compare_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

/* A repeated case value would make two CASE labels of one SWITCH equal (IR.md forbids it). */
static enum sb_result check_cases(const struct sb_dxil_cfg *cfg, struct sb_error *error)
{
    size_t largest = 1;
    for (uint32_t b = 0; b < cfg->block_count; b++)
        if (cfg->blocks[b].terminator == SB_DXIL_CFG_SWITCH && cfg->blocks[b].successor_count > largest)
            largest = cfg->blocks[b].successor_count;
    uint32_t *sorted = malloc(largest * sizeof(*sorted));
    if (!sorted)
        return sb_error_set(error, SB_ERROR_OUT_OF_MEMORY, 0, SB_ERROR_NO_INSTR, "out of memory");
    enum sb_result r = SB_SUCCESS;
    for (uint32_t b = 0; b < cfg->block_count && r == SB_SUCCESS; b++) {
        const struct sb_dxil_cfg_block *block = &cfg->blocks[b];
        if (block->terminator != SB_DXIL_CFG_SWITCH || block->successor_count < 3)
            continue;
        uint32_t n = block->successor_count - 1;
        memcpy(sorted, block->case_values, (size_t)n * sizeof(*sorted));
        qsort(sorted, n, sizeof(*sorted), compare_u32);
        for (uint32_t k = 1; k < n && r == SB_SUCCESS; k++)
            if (sorted[k] == sorted[k - 1])
                r = sb_error_set(error, SB_ERROR_TRANSLATE_INVALID, block->offset, SB_ERROR_NO_INSTR,
                                 "block %u: switch case value %u appears twice", b, sorted[k]);
    }
    free(sorted);
    return r;
}

/* The structured form; SB_ERROR_TRANSLATE_INVALID only on a structurizer bug. */
static enum sb_result structured(const struct sb_dxil_cfg_info *info, struct sb_dxil_out *out)
{
    struct sb_dxil_sx_list sx = { .items = NULL, .count = 0, .capacity = 0, .failed = false };
    enum sb_result r = sb_dxil_build_tree(info, &sx);
    if (r == SB_SUCCESS && sx.count >= UINT32_MAX)
        r = SB_ERROR_OUT_OF_MEMORY;
    if (r == SB_SUCCESS)
        r = sb_dxil_lower_tree(info, &sx, out);
    sb_dxil_sx_list_free(&sx);
    struct sb_dxil_structured *result = out->result;
    if (r != SB_SUCCESS || out->failed || !result->uses_selector)
        return r;
    /* Ladders read the selector on every exit of their construct: start it at 0. */
    sb_dxil_out_event(out, SB_DXIL_CF_SET_SELECTOR, 0);
    if (!out->failed) {
        memmove(result->events + 1, result->events,
                (size_t)(result->event_count - 1) * sizeof(*result->events));
        result->events[0] = (struct sb_dxil_cf_event){ .kind = SB_DXIL_CF_SET_SELECTOR, .value = 0 };
    }
    return r;
}

enum sb_result sb_dxil_structurize(const struct sb_dxil_cfg *cfg, bool force_dispatch,
                                   struct sb_dxil_structured *out, struct sb_error *error)
{
    if (!out)
        return sb_error_set(error, SB_ERROR_INVALID_ARGUMENT, 0, SB_ERROR_NO_INSTR,
                            "sb_dxil_structurize: no output");
    memset(out, 0, sizeof(*out));
    if (!cfg || !cfg->blocks)
        return sb_error_set(error, SB_ERROR_INVALID_ARGUMENT, 0, SB_ERROR_NO_INSTR,
                            "sb_dxil_structurize: no CFG");
    enum sb_result r = check_cfg(cfg, error);
    if (r == SB_SUCCESS)
        r = check_cases(cfg, error);
    if (r != SB_SUCCESS)
        return r;
    /* One block ending the function (most shaders' whole body): the block and its end,
     * as the analysis below would give them, without its tables. */
    const struct sb_dxil_cfg_block *only = &cfg->blocks[0];
    if (cfg->block_count == 1 && !force_dispatch &&
        (only->terminator == SB_DXIL_CFG_RETURN || only->terminator == SB_DXIL_CFG_UNREACHABLE)) {
        out->events = malloc(2 * sizeof(*out->events));
        if (!out->events)
            return sb_error_set(error, SB_ERROR_OUT_OF_MEMORY, 0, SB_ERROR_NO_INSTR, "out of memory");
        out->events[0] = (struct sb_dxil_cf_event){ .kind = SB_DXIL_CF_BLOCK, .value = 0 };
        out->events[1] = (struct sb_dxil_cf_event){
            .kind = only->terminator == SB_DXIL_CFG_RETURN ? SB_DXIL_CF_RETURN : SB_DXIL_CF_UNREACHABLE,
            .value = 0,
        };
        out->event_count = 2;
        return SB_SUCCESS;
    }
    struct sb_dxil_cfg_info info;
    if (sb_dxil_cfg_analyse(cfg, &info) != SB_SUCCESS)
        return sb_error_set(error, SB_ERROR_OUT_OF_MEMORY, 0, SB_ERROR_NO_INSTR, "out of memory");
    /* Ladders cost O(depth) events per multi-level jump; past this budget (deep nests
     * with many such jumps) the dispatch loop, O(blocks + edges), is the smaller form. */
    size_t edges = info.succ_start[info.block_count];
    struct sb_dxil_out writer = {
        .result = out, .event_capacity = 0, .edge_capacity = 0, .failed = false, .over_limit = false,
        .event_limit = SB_DXIL_STRUCTURED_EVENTS_PER_ITEM * ((size_t)info.reachable_count + edges) + 1024,
    };
    out->dispatch = force_dispatch || !info.reducible;
    r = out->dispatch ? sb_dxil_build_dispatch(&info, &writer) : structured(&info, &writer);
    if (r == SB_SUCCESS && writer.over_limit) {
        sb_dxil_structured_free(out);
        writer = (struct sb_dxil_out){ .result = out, .event_capacity = 0, .edge_capacity = 0,
                                       .event_limit = 0, .failed = false, .over_limit = false };
        out->dispatch = true;
        r = sb_dxil_build_dispatch(&info, &writer);
    }
    sb_dxil_cfg_info_free(&info);
    if (r == SB_SUCCESS && writer.failed)
        r = SB_ERROR_OUT_OF_MEMORY;
    if (r != SB_SUCCESS) {
        sb_dxil_structured_free(out);
        if (r == SB_ERROR_OUT_OF_MEMORY)
            return sb_error_set(error, r, 0, SB_ERROR_NO_INSTR, "out of memory");
        return sb_error_set(error, r, 0, SB_ERROR_NO_INSTR,
                            "internal error: the structured nesting did not close");
    }
    return SB_SUCCESS;
}

void sb_dxil_structured_free(struct sb_dxil_structured *structured)
{
    if (!structured)
        return;
    free(structured->events);
    free(structured->edges);
    memset(structured, 0, sizeof(*structured));
}

const char *sb_dxil_cf_event_name(enum sb_dxil_cf_event_kind kind)
{
    static const char *const names[] = {
        [SB_DXIL_CF_BLOCK] = "BLOCK",
        [SB_DXIL_CF_IF_TRUE] = "IF_TRUE",
        [SB_DXIL_CF_IF_FALSE] = "IF_FALSE",
        [SB_DXIL_CF_ELSE] = "ELSE",
        [SB_DXIL_CF_ENDIF] = "ENDIF",
        [SB_DXIL_CF_LOOP] = "LOOP",
        [SB_DXIL_CF_ENDLOOP] = "ENDLOOP",
        [SB_DXIL_CF_BREAK] = "BREAK",
        [SB_DXIL_CF_CONTINUE] = "CONTINUE",
        [SB_DXIL_CF_SWITCH] = "SWITCH",
        [SB_DXIL_CF_SWITCH_SELECTOR] = "SWITCH_SELECTOR",
        [SB_DXIL_CF_CASE] = "CASE",
        [SB_DXIL_CF_DEFAULT] = "DEFAULT",
        [SB_DXIL_CF_ENDSWITCH] = "ENDSWITCH",
        [SB_DXIL_CF_RETURN] = "RETURN",
        [SB_DXIL_CF_UNREACHABLE] = "UNREACHABLE",
        [SB_DXIL_CF_EDGE] = "EDGE",
        [SB_DXIL_CF_SET_SELECTOR] = "SET_SELECTOR",
        [SB_DXIL_CF_IF_SELECTOR] = "IF_SELECTOR",
    };
    if ((unsigned)kind >= sizeof(names) / sizeof(names[0]) || !names[kind])
        return "?";
    return names[kind];
}
