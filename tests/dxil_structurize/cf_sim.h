/* SPDX-License-Identifier: MIT */
/*
 * Test helpers for the DXIL structurizer: a CFG interpreter and an
 * interpreter of the structured event list, driven by the same per-block
 * decisions, so that both must produce the same trace of blocks and edges;
 * a checker of the IR nesting rules (translator/IR.md "Control flow"); and
 * the event list as text.
 */
#ifndef SB_TEST_CF_SIM_H
#define SB_TEST_CF_SIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dxil/dxil_structurize.h"

/* A CFG with its own storage, for tests (at most 64 blocks, 16 successors each). */
struct cf_graph {
    struct sb_dxil_cfg cfg;
    struct sb_dxil_cfg_block blocks[64];
    uint32_t successors[64][16];
    uint32_t case_values[64][16];
};

/*
 * Reads a graph written as blocks in order, separated by spaces: "r" return,
 * "u" unreachable, "bS" branch, "cT,F" conditional branch, "sD,V=S,V=S..." switch
 * with default D and cases. Example: "c1,2 b3 b3 r". False on a syntax error.
 */
bool cf_graph_parse(const char *text, struct cf_graph *g);

/* One trace item: a block number, an edge (CF_SIM_EDGE | pred << 12 | succ), or the end. */
#define CF_SIM_EDGE 0x80000000u
#define CF_SIM_END 0xFFFFFFFFu

struct cf_trace {
    uint32_t items[1024];
    size_t count;
};

/* The decision of the visit-th execution of block b: bit 0 picks a branch, the rest a case. */
uint32_t cf_sim_decision(uint64_t seed, uint32_t block, uint32_t visit);

/* Runs the CFG for at most `max_blocks` blocks. */
void cf_sim_run_cfg(const struct sb_dxil_cfg *cfg, uint64_t seed, uint32_t max_blocks,
                    struct cf_trace *trace);

/*
 * Runs the event list the same way. Returns NULL, or a message when the list does
 * something no front end could follow (a condition read from a block that did not just
 * run, an edge whose predecessor did not just run, the selector read before it was set,
 * too many events without a block).
 */
const char *cf_sim_run_events(const struct sb_dxil_cfg *cfg, const struct sb_dxil_structured *s,
                              uint64_t seed, uint32_t max_blocks, struct cf_trace *trace);

/* NULL when the events obey the IR nesting rules, else what broke them. */
const char *cf_sim_check_nesting(const struct sb_dxil_structured *s);

/* The events as "BLOCK 0, IF_TRUE 0, EDGE 0>1, ..." into `text`. */
void cf_sim_print(const struct sb_dxil_structured *s, char *text, size_t size);

#endif
