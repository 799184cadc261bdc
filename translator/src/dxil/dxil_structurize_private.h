/* SPDX-License-Identifier: MIT */
/*
 * What the files of the structurizer share: the analysed graph
 * (dxil_cfg_analysis.c), the labelled intermediate list the tree builder
 * writes and the lowering reads, and the growable output lists
 * (dxil_cf_list.c). Not seen outside src/dxil.
 */
#ifndef SB_DXIL_STRUCTURIZE_PRIVATE_H
#define SB_DXIL_STRUCTURIZE_PRIVATE_H

#include <stddef.h>

#include "dxil_structurize.h"

/** "No block", "no loop", "not reachable". */
#define SB_DXIL_NONE UINT32_MAX

/* The next `count` words of a slab being carved (the CFG analysis and the structurizer
 * each take one allocation per function and cut their arrays from it), advancing *at. */
static inline uint32_t *sb_dxil_take(uint32_t **at, size_t count)
{
    uint32_t *words = *at;
    *at += count;
    return words;
}

/**
 * The graph as the builders need it. Only blocks reachable from the entry have an RPO
 * number; every per-block array is block_count long.
 */
struct sb_dxil_cfg_info {
    const struct sb_dxil_cfg *cfg;
    uint32_t block_count;
    /* Distinct successors per block, in the order of first appearance (CSR). */
    uint32_t *succ_start; /* block_count + 1 */
    uint32_t *succ;
    /* Distinct reachable predecessors per block (CSR). */
    uint32_t *pred_start;
    uint32_t *pred;
    uint32_t reachable_count;
    uint32_t *rpo;       /* reachable blocks in reverse post-order; rpo[0] = 0 */
    uint32_t *rpo_index; /* block -> position in rpo, SB_DXIL_NONE when unreachable */
    uint32_t *idom;      /* immediate dominator; the entry's is itself */
    bool reducible;      /* every retreating edge goes to a block that dominates its source */
    bool *is_header;     /* target of a back edge */
    uint32_t *innermost_loop; /* header of the innermost loop holding the block, or NONE */
    uint32_t *loop_parent;    /* for a header: the header of the loop around its loop */
    uint32_t *slab;           /* the one allocation every array above lies in */
};

/** Fills `info` for `cfg` (already checked by the caller). SB_ERROR_OUT_OF_MEMORY only. */
enum sb_result sb_dxil_cfg_analyse(const struct sb_dxil_cfg *cfg, struct sb_dxil_cfg_info *info);
void sb_dxil_cfg_info_free(struct sb_dxil_cfg_info *info);
/** Whether block `y` lies in the loop headed by `header`. */
bool sb_dxil_cfg_in_loop(const struct sb_dxil_cfg_info *info, uint32_t y, uint32_t header);
/** Whether `a` dominates `b` (both reachable). */
bool sb_dxil_cfg_dominates(const struct sb_dxil_cfg_info *info, uint32_t a, uint32_t b);

/*
 * The labelled list (dxil_structurize_tree.c -> dxil_structurize_lower.c). Public event
 * kinds keep their meaning; these add constructs with labels: a "block" is left by a
 * break to its end (falling off its end leaves it too), a "loop" repeats when its end is
 * reached; a break names the block it leaves by the block index that follows it, a
 * continue names its loop by the header.
 */
enum sb_dxil_sx_kind {
    SB_DXIL_SX_BLOCK_OPEN = 100, /* a = the merge block that follows it */
    SB_DXIL_SX_BLOCK_END = 101,
    SB_DXIL_SX_LOOP_OPEN = 102, /* a = header */
    SB_DXIL_SX_LOOP_END = 103,
    SB_DXIL_SX_BREAK_TO = 104,    /* a = the merge block whose construct is left */
    SB_DXIL_SX_CONTINUE_TO = 105, /* a = header */
    SB_DXIL_SX_EDGE = 106,        /* a = pred, b = succ */
};

struct sb_dxil_sx {
    uint32_t kind; /* enum sb_dxil_cf_event_kind or enum sb_dxil_sx_kind */
    uint32_t a, b;
};

/**
 * Makes room for one more `size`-byte element in `*items` (holding `count` of `*capacity`),
 * doubling; false when out of memory (then `*items` is unchanged).
 */
bool sb_dxil_grow(void **items, size_t *capacity, size_t count, size_t size);

/** Growable lists with a sticky out-of-memory flag (dxil_cf_list.c). */
struct sb_dxil_sx_list {
    struct sb_dxil_sx *items;
    size_t count, capacity;
    bool failed;
};
void sb_dxil_sx_push(struct sb_dxil_sx_list *list, uint32_t kind, uint32_t a, uint32_t b);
void sb_dxil_sx_list_free(struct sb_dxil_sx_list *list);

/** Appends a public event; an EDGE also appends (pred, succ) to the edge list. */
struct sb_dxil_out {
    struct sb_dxil_structured *result;
    size_t event_capacity, edge_capacity;
    size_t event_limit; /* 0: none; else more events fail with over_limit set */
    bool failed, over_limit;
};
void sb_dxil_out_event(struct sb_dxil_out *out, enum sb_dxil_cf_event_kind kind, uint32_t value);
void sb_dxil_out_edge(struct sb_dxil_out *out, uint32_t pred, uint32_t succ);

/** The labelled structured list of a reducible graph (dxil_structurize_tree.c). */
enum sb_result sb_dxil_build_tree(const struct sb_dxil_cfg_info *info, struct sb_dxil_sx_list *sx);
/** Labelled list -> public events with the selector ladder (dxil_structurize_lower.c). */
enum sb_result sb_dxil_lower_tree(const struct sb_dxil_cfg_info *info, struct sb_dxil_sx_list *sx,
                                  struct sb_dxil_out *out);
/** The dispatch loop, right for any graph (dxil_structurize_dispatch.c). */
enum sb_result sb_dxil_build_dispatch(const struct sb_dxil_cfg_info *info, struct sb_dxil_out *out);

/**
 * The successor groups of a switch block: each distinct successor once, in order of first
 * appearance among the cases then the default, with the case indices that go to it
 * (dxil_cf_list.c). Scratch is block_count long, all SB_DXIL_NONE on entry and on return.
 */
struct sb_dxil_switch_groups {
    uint32_t group_count;
    uint32_t *target;       /* per group: the successor */
    uint32_t *label_start;  /* per group + 1: range in labels */
    uint32_t *labels;       /* case indices (0 = default, i = case_values[i - 1]) */
};
enum sb_result sb_dxil_switch_groups_make(const struct sb_dxil_cfg_block *block, uint32_t *scratch,
                                          struct sb_dxil_switch_groups *groups);
void sb_dxil_switch_groups_free(struct sb_dxil_switch_groups *groups);

#endif
