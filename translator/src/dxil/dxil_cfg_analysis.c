/* SPDX-License-Identifier: MIT */
/*
 * The graph facts the structurizer stands on: distinct successors and
 * predecessors, reverse post-order (an iterative depth-first search: the
 * input picks the depth, so no recursion), immediate dominators (the
 * iterative algorithm of Cooper, Harvey and Kennedy over RPO numbers; at
 * most O(n^2)), reducibility (every retreating edge must end at a block
 * that dominates its source), and natural loops (the blocks that reach a
 * back edge's source without passing the header), nested by header.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "dxil_structurize_private.h"

void sb_dxil_cfg_info_free(struct sb_dxil_cfg_info *info)
{
    free(info->slab);
    memset(info, 0, sizeof(*info));
}

/*
 * Every array of `info` and the analysis's scratch arrays in one allocation (the arrays are
 * sized by the block count and the successor slots, both known up front): one malloc per
 * function instead of twenty. malloc and free took ~5% of a DXIL translation's time (perf),
 * and this analysis made a third of the calls. The three scratch arrays of n + 1 words are
 * reused by the phases in turn.
 */
struct cfg_scratch {
    uint32_t *a, *b, *c;
};

static bool carve(struct sb_dxil_cfg_info *info, size_t total, struct cfg_scratch *scratch)
{
    size_t n = info->block_count;
    /* succ_start, pred_start, fill-sized scratch x3: n + 1 each; succ and pred: the slots;
     * rpo, rpo_index, idom, innermost_loop, loop_parent: n each; is_header: n bytes. */
    if (n > SIZE_MAX / 64 || total > SIZE_MAX / 64)
        return false;
    size_t words = 5 * (n + 1) + (total + 1) + (total + 1) + 5 * n;
    uint32_t *w = malloc(words * sizeof(uint32_t) + n + 1);
    if (!w)
        return false;
    info->slab = w;
    info->succ_start = sb_dxil_take(&w, n + 1);
    info->pred_start = sb_dxil_take(&w, n + 1);
    scratch->a = sb_dxil_take(&w, n + 1);
    scratch->b = sb_dxil_take(&w, n + 1);
    scratch->c = sb_dxil_take(&w, n + 1);
    info->succ = sb_dxil_take(&w, total + 1);
    info->pred = sb_dxil_take(&w, total + 1);
    info->rpo = sb_dxil_take(&w, n);
    info->rpo_index = sb_dxil_take(&w, n);
    info->idom = sb_dxil_take(&w, n);
    info->innermost_loop = sb_dxil_take(&w, n);
    info->loop_parent = sb_dxil_take(&w, n);
    info->is_header = (bool *)w;
    return true;
}

/* Distinct successors of every block, first appearance first. `mark` is n long, NONE. */
static void distinct_successors(struct sb_dxil_cfg_info *info, uint32_t *mark)
{
    const struct sb_dxil_cfg *cfg = info->cfg;
    uint32_t n = info->block_count;
    uint32_t used = 0;
    for (uint32_t b = 0; b < n; b++) {
        const struct sb_dxil_cfg_block *block = &cfg->blocks[b];
        info->succ_start[b] = used;
        /* A switch lists its default first; cases come in order. */
        for (uint32_t k = 0; k < block->successor_count; k++) {
            uint32_t s = block->successors[k];
            if (mark[s] != b) {
                mark[s] = b;
                info->succ[used++] = s;
            }
        }
    }
    info->succ_start[n] = used;
}

/* Reverse post-order of the blocks reachable from 0, by an explicit-stack DFS. */
static void reverse_post_order(struct sb_dxil_cfg_info *info, const struct cfg_scratch *scratch)
{
    uint32_t n = info->block_count;
    uint32_t *stack = scratch->a, *next = scratch->b, *post = scratch->c;
    memset(next, 0, (size_t)n * sizeof(*next)); /* next successor slot to visit */
    for (uint32_t b = 0; b < n; b++)
        info->rpo_index[b] = SB_DXIL_NONE;
    uint32_t depth = 0, done = 0;
    stack[depth++] = 0;
    info->rpo_index[0] = 0; /* "seen"; real numbers come below */
    while (depth) {
        uint32_t b = stack[depth - 1];
        uint32_t k = info->succ_start[b] + next[b];
        if (k < info->succ_start[b + 1]) {
            next[b]++;
            uint32_t s = info->succ[k];
            if (info->rpo_index[s] == SB_DXIL_NONE) {
                info->rpo_index[s] = 0;
                stack[depth++] = s;
            }
            continue;
        }
        post[done++] = b;
        depth--;
    }
    info->reachable_count = done;
    for (uint32_t i = 0; i < done; i++) {
        info->rpo[i] = post[done - 1 - i];
        info->rpo_index[info->rpo[i]] = i;
    }
}

/* Distinct reachable predecessors (CSR), from the distinct successors. */
static void predecessors(struct sb_dxil_cfg_info *info, uint32_t *fill)
{
    uint32_t n = info->block_count;
    memset(info->pred_start, 0, ((size_t)n + 1) * sizeof(uint32_t));
    for (uint32_t i = 0; i < info->reachable_count; i++) {
        uint32_t b = info->rpo[i];
        for (uint32_t k = info->succ_start[b]; k < info->succ_start[b + 1]; k++)
            info->pred_start[info->succ[k] + 1]++;
    }
    for (uint32_t b = 0; b < n; b++)
        info->pred_start[b + 1] += info->pred_start[b];
    memcpy(fill, info->pred_start, ((size_t)n + 1) * sizeof(*fill));
    for (uint32_t i = 0; i < info->reachable_count; i++) {
        uint32_t b = info->rpo[i];
        for (uint32_t k = info->succ_start[b]; k < info->succ_start[b + 1]; k++)
            info->pred[fill[info->succ[k]]++] = b;
    }
}

/* The common dominator of two blocks, walking up by RPO number. */
static uint32_t intersect(const struct sb_dxil_cfg_info *info, uint32_t a, uint32_t b)
{
    while (a != b) {
        while (info->rpo_index[a] > info->rpo_index[b])
            a = info->idom[a];
        while (info->rpo_index[b] > info->rpo_index[a])
            b = info->idom[b];
    }
    return a;
}

static void dominators(struct sb_dxil_cfg_info *info)
{
    uint32_t n = info->block_count;
    for (uint32_t b = 0; b < n; b++)
        info->idom[b] = SB_DXIL_NONE;
    info->idom[0] = 0;
    bool changed = true;
    while (changed) {
        changed = false;
        for (uint32_t i = 1; i < info->reachable_count; i++) {
            uint32_t b = info->rpo[i], best = SB_DXIL_NONE;
            for (uint32_t k = info->pred_start[b]; k < info->pred_start[b + 1]; k++) {
                uint32_t p = info->pred[k];
                if (info->idom[p] == SB_DXIL_NONE)
                    continue;
                best = best == SB_DXIL_NONE ? p : intersect(info, p, best);
            }
            if (best != info->idom[b]) {
                info->idom[b] = best;
                changed = true;
            }
        }
    }
}

bool sb_dxil_cfg_dominates(const struct sb_dxil_cfg_info *info, uint32_t a, uint32_t b)
{
    /* Dominators of b have smaller RPO numbers, so the walk stops at a's number. */
    while (info->rpo_index[b] > info->rpo_index[a])
        b = info->idom[b];
    return a == b;
}

bool sb_dxil_cfg_in_loop(const struct sb_dxil_cfg_info *info, uint32_t y, uint32_t header)
{
    for (uint32_t l = info->innermost_loop[y]; l != SB_DXIL_NONE; l = info->loop_parent[l])
        if (l == header)
            return true;
    return false;
}

/*
 * Headers in increasing RPO order: an enclosing loop's header comes first, so the last
 * header to claim a block is its innermost loop, and a header's own previous claim is its
 * parent loop. Only called on reducible graphs.
 */
static void natural_loops(struct sb_dxil_cfg_info *info, const struct cfg_scratch *scratch)
{
    uint32_t n = info->block_count;
    uint32_t *work = scratch->a, *seen = scratch->b;
    memset(info->is_header, 0, n);
    for (uint32_t b = 0; b < n; b++)
        info->innermost_loop[b] = info->loop_parent[b] = seen[b] = SB_DXIL_NONE;
    for (uint32_t i = 0; i < info->reachable_count; i++) {
        uint32_t h = info->rpo[i], count = 0;
        bool back_edge = false;
        seen[h] = h; /* the walk stops at the header */
        for (uint32_t k = info->pred_start[h]; k < info->pred_start[h + 1]; k++) {
            uint32_t p = info->pred[k];
            if (info->rpo_index[p] < i)
                continue;
            back_edge = true;
            if (seen[p] != h) {
                seen[p] = h;
                work[count++] = p;
            }
        }
        if (!back_edge)
            continue;
        info->is_header[h] = true;
        info->loop_parent[h] = info->innermost_loop[h];
        info->innermost_loop[h] = h;
        while (count) {
            uint32_t b = work[--count];
            info->innermost_loop[b] = h;
            for (uint32_t k = info->pred_start[b]; k < info->pred_start[b + 1]; k++) {
                uint32_t p = info->pred[k];
                if (seen[p] != h) {
                    seen[p] = h;
                    work[count++] = p;
                }
            }
        }
    }
}

enum sb_result sb_dxil_cfg_analyse(const struct sb_dxil_cfg *cfg, struct sb_dxil_cfg_info *info)
{
    memset(info, 0, sizeof(*info));
    info->cfg = cfg;
    info->block_count = cfg->block_count;
    size_t total = 0;
    for (uint32_t b = 0; b < cfg->block_count; b++)
        total += cfg->blocks[b].successor_count;
    struct cfg_scratch scratch;
    if (!carve(info, total, &scratch))
        return SB_ERROR_OUT_OF_MEMORY;
    uint32_t *mark = scratch.a;
    for (uint32_t b = 0; b < cfg->block_count; b++)
        mark[b] = SB_DXIL_NONE;
    distinct_successors(info, mark);
    reverse_post_order(info, &scratch);
    predecessors(info, scratch.a);
    dominators(info);
    info->reducible = true;
    for (uint32_t i = 0; i < info->reachable_count && info->reducible; i++) {
        uint32_t b = info->rpo[i];
        for (uint32_t k = info->succ_start[b]; k < info->succ_start[b + 1]; k++) {
            uint32_t s = info->succ[k];
            if (info->rpo_index[s] <= i && !sb_dxil_cfg_dominates(info, s, b))
                info->reducible = false;
        }
    }
    if (info->reducible) {
        natural_loops(info, &scratch);
    } else { /* no loop facts for an irreducible graph (the dispatch form needs none) */
        memset(info->is_header, 0, info->block_count);
        for (uint32_t b = 0; b < info->block_count; b++)
            info->innermost_loop[b] = info->loop_parent[b] = SB_DXIL_NONE;
    }
    return SB_SUCCESS;
}
