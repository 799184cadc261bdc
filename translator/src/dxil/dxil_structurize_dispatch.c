/* SPDX-License-Identifier: MIT */
/*
 * The dispatch loop, for graphs no nesting of IF/LOOP/SWITCH expresses
 * (irreducible ones: a cycle entered at two blocks): the selector holds the
 * next block, and
 *
 *   SET_SELECTOR 0; LOOP { SWITCH_SELECTOR { CASE b: BLOCK b; <b's terminator,
 *   each edge setting the selector to its successor>; BREAK ... } ENDSWITCH } ENDLOOP
 *
 * runs one block per iteration. Right for any graph, slower than structured
 * flow (a switch per block) and opaque to a reader, so used only when the
 * structured form cannot be had. Cases come in RPO order; unreachable blocks
 * get none.
 */
#include <stdlib.h>

#include "dxil_structurize_private.h"

/* `pred`'s edge to `succ`: the phi copies, then the next block. */
static void edge(struct sb_dxil_out *out, uint32_t pred, uint32_t succ)
{
    sb_dxil_out_edge(out, pred, succ);
    sb_dxil_out_event(out, SB_DXIL_CF_SET_SELECTOR, succ);
}

static enum sb_result terminator(struct sb_dxil_out *out, const struct sb_dxil_cfg_block *block,
                                 uint32_t b, uint32_t *scratch)
{
    switch (block->terminator) {
    case SB_DXIL_CFG_RETURN:
        sb_dxil_out_event(out, SB_DXIL_CF_RETURN, b);
        return SB_SUCCESS;
    case SB_DXIL_CFG_UNREACHABLE:
        sb_dxil_out_event(out, SB_DXIL_CF_UNREACHABLE, b);
        return SB_SUCCESS;
    case SB_DXIL_CFG_BRANCH:
        edge(out, b, block->successors[0]);
        break;
    case SB_DXIL_CFG_COND_BRANCH:
        if (block->successors[0] == block->successors[1]) {
            edge(out, b, block->successors[0]);
            break;
        }
        sb_dxil_out_event(out, SB_DXIL_CF_IF_TRUE, b);
        edge(out, b, block->successors[0]);
        sb_dxil_out_event(out, SB_DXIL_CF_ELSE, 0);
        edge(out, b, block->successors[1]);
        sb_dxil_out_event(out, SB_DXIL_CF_ENDIF, 0);
        break;
    default: { /* SB_DXIL_CFG_SWITCH: the entry point checked every kind */
        struct sb_dxil_switch_groups groups;
        enum sb_result r = sb_dxil_switch_groups_make(block, scratch, &groups);
        if (r != SB_SUCCESS)
            return r;
        sb_dxil_out_event(out, SB_DXIL_CF_SWITCH, b);
        for (uint32_t g = 0; g < groups.group_count; g++) {
            for (uint32_t k = groups.label_start[g]; k < groups.label_start[g + 1]; k++) {
                uint32_t label = groups.labels[k];
                if (label == 0)
                    sb_dxil_out_event(out, SB_DXIL_CF_DEFAULT, 0);
                else
                    sb_dxil_out_event(out, SB_DXIL_CF_CASE, block->case_values[label - 1]);
            }
            edge(out, b, groups.target[g]);
            sb_dxil_out_event(out, SB_DXIL_CF_BREAK, 0);
        }
        sb_dxil_out_event(out, SB_DXIL_CF_ENDSWITCH, 0);
        sb_dxil_switch_groups_free(&groups);
        break;
    }
    }
    /* Leaves the dispatch SWITCH; ENDLOOP then runs the next block. */
    sb_dxil_out_event(out, SB_DXIL_CF_BREAK, 0);
    return SB_SUCCESS;
}

enum sb_result sb_dxil_build_dispatch(const struct sb_dxil_cfg_info *info, struct sb_dxil_out *out)
{
    uint32_t *scratch = malloc((size_t)info->block_count * sizeof(*scratch));
    if (!scratch)
        return SB_ERROR_OUT_OF_MEMORY;
    for (uint32_t b = 0; b < info->block_count; b++)
        scratch[b] = SB_DXIL_NONE;
    enum sb_result r = SB_SUCCESS;
    sb_dxil_out_event(out, SB_DXIL_CF_SET_SELECTOR, 0);
    sb_dxil_out_event(out, SB_DXIL_CF_LOOP, 0);
    sb_dxil_out_event(out, SB_DXIL_CF_SWITCH_SELECTOR, 0);
    for (uint32_t i = 0; i < info->reachable_count && r == SB_SUCCESS; i++) {
        uint32_t b = info->rpo[i];
        sb_dxil_out_event(out, SB_DXIL_CF_CASE, b);
        sb_dxil_out_event(out, SB_DXIL_CF_BLOCK, b);
        r = terminator(out, &info->cfg->blocks[b], b, scratch);
    }
    sb_dxil_out_event(out, SB_DXIL_CF_ENDSWITCH, 0);
    sb_dxil_out_event(out, SB_DXIL_CF_ENDLOOP, 0);
    free(scratch);
    return r;
}
