/* SPDX-License-Identifier: MIT */
/*
 * The CFG structurizer of the DXIL front end (../shared/docs/dxil.md §6,
 * ../../IR.md "Control flow"): a function's control-flow graph in, a flat
 * list of structured events out, which the front end turns into IR markers
 * while it emits each block's instructions. It knows nothing of bitcode or
 * of IR instructions: blocks are numbers, terminators are kinds with
 * successors, and the output names blocks, case values and edges.
 *
 * Reducible graphs (all dxc emits) come out as nested IF/LOOP/SWITCH with
 * BREAK/CONTINUE; an exit through several constructs goes through one
 * "selector" temporary (SET_SELECTOR k, then BREAK, and after each construct
 * it crosses an IF_SELECTOR k ladder). Irreducible graphs come out as the
 * dispatch loop `LOOP { SWITCH selector { CASE b: BLOCK b ... } }`, which
 * is right for any graph. dxil_structurize.c explains the algorithm.
 */
#ifndef SB_DXIL_STRUCTURIZE_H
#define SB_DXIL_STRUCTURIZE_H

#include <stdbool.h>
#include <stdint.h>

#include "shaderbridge/result.h"

/** Most blocks one function may have (the work is O(n^2) in the worst case). */
#define SB_DXIL_CFG_MAX_BLOCKS 16384u
/** Most switch cases one function may have, all switches together. */
#define SB_DXIL_CFG_MAX_CASES 65536u
/**
 * A structured list may hold this many events per reachable block and distinct edge (plus
 * 1024); a longer one (selector ladders of many exits through deep nests) is replaced by
 * the dispatch loop, whose length is linear.
 */
#define SB_DXIL_STRUCTURED_EVENTS_PER_ITEM 64u

/** How a block ends. */
enum sb_dxil_cfg_terminator {
    SB_DXIL_CFG_RETURN = 0,      /**< `ret`: leaves the function */
    SB_DXIL_CFG_UNREACHABLE = 1, /**< `unreachable`: control never gets here */
    SB_DXIL_CFG_BRANCH = 2,      /**< `br label`: to successors[0] */
    SB_DXIL_CFG_COND_BRANCH = 3, /**< `br i1`: successors[0] when true, [1] when false */
    SB_DXIL_CFG_SWITCH = 4,      /**< `switch`: successors[0] is the default, case_values[i]
                                      goes to successors[1 + i] */
    SB_DXIL_CFG_TERMINATOR_MAX_ENUM = 0x7fffffff
};

/** One block: its terminator and successors (borrowed; the caller keeps them alive). */
struct sb_dxil_cfg_block {
    enum sb_dxil_cfg_terminator terminator;
    /** 0 (RETURN, UNREACHABLE), 1 (BRANCH), 2 (COND_BRANCH), 1 + case_count (SWITCH). */
    uint32_t successor_count;
    const uint32_t *successors;  /**< block indices, each < block_count */
    const uint32_t *case_values; /**< SWITCH: successor_count - 1 distinct values; else NULL */
    uint64_t offset; /**< byte offset of the terminator in the input, for error messages */
};

/**
 * A function's CFG; block 0 is the entry. Blocks no path from the entry reaches get no
 * event (they are still checked like the others).
 */
struct sb_dxil_cfg {
    uint32_t block_count; /**< 1 .. SB_DXIL_CFG_MAX_BLOCKS */
    const struct sb_dxil_cfg_block *blocks;
};

/**
 * What the front end emits, in order. `value` is named per kind. The selector
 * is one 32-bit temporary of the function; it need not be initialised (the
 * list sets it before any read).
 */
enum sb_dxil_cf_event_kind {
    SB_DXIL_CF_BLOCK = 0,        /**< emit block `value`'s instructions (not its terminator) */
    SB_DXIL_CF_IF_TRUE = 1,      /**< IF on block `value`'s branch condition */
    SB_DXIL_CF_IF_FALSE = 2,     /**< IF on the negation of block `value`'s condition */
    SB_DXIL_CF_ELSE = 3,
    SB_DXIL_CF_ENDIF = 4,
    SB_DXIL_CF_LOOP = 5,
    SB_DXIL_CF_ENDLOOP = 6,
    SB_DXIL_CF_BREAK = 7,        /**< leaves the innermost LOOP or SWITCH */
    SB_DXIL_CF_CONTINUE = 8,     /**< next iteration of the innermost LOOP */
    SB_DXIL_CF_SWITCH = 9,       /**< SWITCH on block `value`'s switch selector */
    SB_DXIL_CF_SWITCH_SELECTOR = 10, /**< SWITCH on the selector temporary (dispatch loop) */
    SB_DXIL_CF_CASE = 11,        /**< CASE `value` (a 32-bit literal) */
    SB_DXIL_CF_DEFAULT = 12,
    SB_DXIL_CF_ENDSWITCH = 13,
    SB_DXIL_CF_RETURN = 14,      /**< RET: block `value` ended in `ret` */
    SB_DXIL_CF_UNREACHABLE = 15, /**< block `value` ended in `unreachable` (the front end may
                                      emit RET) */
    /** Edge `value` of sb_dxil_structured::edges is taken here: emit its phi copies (the
     *  successor's phis read from the predecessor) as one parallel copy, at this point.
     *  Every edge taken at run time passes exactly one EDGE event, after the predecessor's
     *  BLOCK and with no other BLOCK before the successor's. */
    SB_DXIL_CF_EDGE = 16,
    SB_DXIL_CF_SET_SELECTOR = 17, /**< selector = `value` */
    SB_DXIL_CF_IF_SELECTOR = 18,  /**< IF selector == `value` (closed by ENDIF) */
    SB_DXIL_CF_EVENT_KIND_MAX_ENUM = 0x7fffffff
};

struct sb_dxil_cf_event {
    enum sb_dxil_cf_event_kind kind;
    uint32_t value; /**< block, case literal, edge index or selector value; 0 when unused */
};

/** A CFG edge the events realise: EDGE event number i (in list order) is edges[i]. */
struct sb_dxil_cf_edge {
    uint32_t pred;
    uint32_t succ;
};

/** The result; free with sb_dxil_structured_free. */
struct sb_dxil_structured {
    uint32_t event_count;
    struct sb_dxil_cf_event *events; /**< owned */
    uint32_t edge_count;             /**< = the number of EDGE events */
    struct sb_dxil_cf_edge *edges;   /**< owned; edges[i] belongs to the i-th EDGE event */
    bool dispatch;     /**< true when the dispatch loop was used: the graph was irreducible,
                            the structured list passed its event budget
                            (SB_DXIL_STRUCTURED_EVENTS_PER_ITEM) or it was forced */
    bool uses_selector; /**< true when any event reads or writes the selector */
};

/**
 * Structures `cfg` into `*out` (zeroed first). `force_dispatch` asks for the dispatch loop
 * even when the graph is reducible (tests compare both forms; a front end never needs it). Errors: SB_ERROR_INVALID_ARGUMENT (NULL
 * pointers), SB_ERROR_TRANSLATE_UNSUPPORTED (more blocks or cases than the limits),
 * SB_ERROR_TRANSLATE_INVALID (an unknown terminator, a successor out of range, a successor
 * count that does not fit the terminator, a missing array, a repeated case value; offset =
 * that block's `offset`),
 * SB_ERROR_OUT_OF_MEMORY. On failure `*out` holds nothing to free.
 */
enum sb_result sb_dxil_structurize(const struct sb_dxil_cfg *cfg, bool force_dispatch,
                                   struct sb_dxil_structured *out, struct sb_error *error);

/** Frees what sb_dxil_structurize made; NULL is a no-op. */
void sb_dxil_structured_free(struct sb_dxil_structured *structured);

/** The event kind's name ("IF_TRUE"), for listings and test messages; "?" if unknown. */
const char *sb_dxil_cf_event_name(enum sb_dxil_cf_event_kind kind);

#endif
