/* SPDX-License-Identifier: MIT */
/*
 * sb_dxil_structurize on hand-made graphs (--shapes): each shape dxc emits,
 * with the exact event list worked out by hand from the algorithm
 * (translator/src/dxil/dxil_structurize_tree.c, _lower.c); every list is also
 * run against its graph (cf_sim.h) on 32 decision seeds and checked against
 * the IR nesting rules. --errors: malformed graphs give the exact code, byte
 * offset and message.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cf_sim.h"

static int failures;

/* Structures `graph`, compares with `expected` and runs both forms against the graph. */
static void check(const char *name, const char *graph, bool want_dispatch, const char *expected)
{
    struct cf_graph g;
    if (!cf_graph_parse(graph, &g)) {
        printf("FAIL %s: bad graph text\n", name);
        failures++;
        return;
    }
    for (int force = 0; force < 2; force++) {
        struct sb_dxil_structured s;
        struct sb_error error;
        enum sb_result r = sb_dxil_structurize(&g.cfg, force, &s, &error);
        if (r != SB_SUCCESS) {
            printf("FAIL %s: %s: %s\n", name, sb_result_name(r), error.message);
            failures++;
            return;
        }
        static char text[16384];
        cf_sim_print(&s, text, sizeof(text));
        const char *bad = cf_sim_check_nesting(&s);
        if (!force && (strcmp(text, expected) || s.dispatch != want_dispatch)) {
            printf("FAIL %s:\n  got      %s%s\n  expected %s\n", name, text,
                   s.dispatch ? " (dispatch)" : "", expected);
            failures++;
        }
        for (uint64_t seed = 1; seed <= 32 && !bad; seed++) {
            struct cf_trace want, got;
            cf_sim_run_cfg(&g.cfg, seed, 64, &want);
            bad = cf_sim_run_events(&g.cfg, &s, seed, 64, &got);
            if (!bad && (want.count != got.count ||
                         memcmp(want.items, got.items, want.count * sizeof(want.items[0]))))
                bad = "trace differs from the CFG's";
        }
        if (bad) {
            printf("FAIL %s%s: %s\n  %s\n", name, force ? " (forced dispatch)" : "", bad, text);
            failures++;
        }
        sb_dxil_structured_free(&s);
    }
    printf("ok   %s\n", name);
}

static void shapes(void)
{
    /* one block, most shaders' whole body (sb_dxil_structurize answers it without the
     * analysis) */
    check("one block returning", "r", false, "BLOCK 0, RETURN 0");
    check("one block ending unreachable", "u", false, "BLOCK 0, UNREACHABLE 0");
    check("straight line", "b1 b2 r", false,
          "BLOCK 0, EDGE 0>1, BLOCK 1, EDGE 1>2, BLOCK 2, RETURN 2");
    /* if (c) { 1 } 2: the false edge 0>2 is critical; its copies need the ELSE arm */
    check("if without else", "c1,2 b2 r", false,
          "BLOCK 0, IF_TRUE 0, EDGE 0>1, BLOCK 1, EDGE 1>2, ELSE, EDGE 0>2, ENDIF, BLOCK 2, RETURN 2");
    check("if/else diamond", "c1,2 b3 b3 r", false,
          "BLOCK 0, IF_TRUE 0, EDGE 0>1, BLOCK 1, EDGE 1>3, ELSE, EDGE 0>2, BLOCK 2, EDGE 2>3, "
          "ENDIF, BLOCK 3, RETURN 3");
    /* the arm that returns closes its IF; the rest is not nested */
    check("early return", "c1,2 r b3 r", false,
          "BLOCK 0, IF_TRUE 0, EDGE 0>1, BLOCK 1, RETURN 1, ENDIF, EDGE 0>2, BLOCK 2, EDGE 2>3, "
          "BLOCK 3, RETURN 3");
    /* while (c) { 2 } 3: `if (!c) break;`, the body unnested, its continue falls to ENDLOOP */
    check("while loop", "b1 c2,3 b1 r", false,
          "BLOCK 0, EDGE 0>1, LOOP, BLOCK 1, IF_FALSE 1, EDGE 1>3, BREAK, ENDIF, EDGE 1>2, BLOCK 2, "
          "EDGE 2>1, ENDLOOP, BLOCK 3, RETURN 3");
    /* do { 1 } while (c); 2 (rotated loop: the latch is the header) */
    check("do-while loop", "b1 c1,2 r", false,
          "BLOCK 0, EDGE 0>1, LOOP, BLOCK 1, IF_TRUE 1, EDGE 1>1, ELSE, EDGE 1>2, BREAK, ENDIF, "
          "ENDLOOP, BLOCK 2, RETURN 2");
    /* loop { 1: if (a) break; 2: if (b) continue; 3 } 4 */
    check("loop with break and continue", "b1 c4,2 c1,3 b1 r", false,
          "BLOCK 0, EDGE 0>1, LOOP, BLOCK 1, IF_TRUE 1, EDGE 1>4, BREAK, ENDIF, EDGE 1>2, BLOCK 2, "
          "IF_TRUE 2, EDGE 2>1, ELSE, EDGE 2>3, BLOCK 3, EDGE 3>1, ENDIF, ENDLOOP, BLOCK 4, "
          "RETURN 4");
    /* outer 1 { inner 2 { 2: if (c) leave both to 5; 3: latch of inner } 4: latch of outer }
     * 5. Block 4 is dominated by 3, so it is written in the inner loop's code; its
     * continue of the outer loop crosses the inner one through the selector (4 = 2 * 1 + 2,
     * "continue header 1"), while 2>5 and 4>5 are plain BREAKs: after the inner loop comes 5. */
    check("break out of two loops", "b1 b2 c5,3 c2,4 c1,5 r", false,
          "SET_SELECTOR 0, BLOCK 0, EDGE 0>1, LOOP, BLOCK 1, EDGE 1>2, LOOP, BLOCK 2, IF_TRUE 2, "
          "EDGE 2>5, BREAK, ENDIF, EDGE 2>3, BLOCK 3, IF_TRUE 3, EDGE 3>2, ELSE, EDGE 3>4, BLOCK 4, "
          "IF_TRUE 4, EDGE 4>1, SET_SELECTOR 4, BREAK, ENDIF, EDGE 4>5, BREAK, ENDIF, ENDLOOP, "
          "IF_SELECTOR 4, SET_SELECTOR 0, CONTINUE, ENDIF, BLOCK 5, RETURN 5, ENDLOOP");
    /* loop { 1: if (c) leave to 4 (returns); 2: latch, else leave to 3 (returns) }: the
     * header's exit 4 follows the loop; the latch's exit 3 (dominated by 2) returns inside */
    check("return inside a loop", "b1 c4,2 c1,3 r r", false,
          "BLOCK 0, EDGE 0>1, LOOP, BLOCK 1, IF_TRUE 1, EDGE 1>4, BREAK, ENDIF, EDGE 1>2, BLOCK 2, "
          "IF_TRUE 2, EDGE 2>1, ELSE, EDGE 2>3, BLOCK 3, RETURN 3, ENDIF, ENDLOOP, BLOCK 4, "
          "RETURN 4");
    /* switch: cases 1 and 2 share block 2, case 3 runs 3 and falls into 2, the default goes
     * straight to the merge 4, past 2: a one-pass LOOP around the switch and 2 gives it a
     * construct to leave (selector 9 = 2 * 4 + 1, "leave to block 4") */
    check("switch with shared target and fall-through", "s4,1=2,2=2,3=3 u b4 b2 r", false,
          "SET_SELECTOR 0, LOOP, BLOCK 0, SWITCH 0, CASE 1, CASE 2, EDGE 0>2, BREAK, CASE 3, "
          "EDGE 0>3, BLOCK 3, EDGE 3>2, BREAK, DEFAULT, EDGE 0>4, SET_SELECTOR 9, BREAK, ENDSWITCH, "
          "IF_SELECTOR 9, SET_SELECTOR 0, BREAK, ENDIF, BLOCK 2, EDGE 2>4, BREAK, ENDLOOP, BLOCK 4, "
          "RETURN 4");
    /* loop 1 { switch { case 7: leave the loop to 4; default: 2: if (c) continue; else leave
     * to 4 } }: both exits cross the switch by the selector (9 = "leave to block 4") and
     * resolve as a BREAK of the loop, which 4 follows: no one-pass construct is needed */
    check("switch in a loop, cases leaving the loop", "b1 s2,7=4 c1,4 u r", false,
          "SET_SELECTOR 0, BLOCK 0, EDGE 0>1, LOOP, BLOCK 1, SWITCH 1, CASE 7, EDGE 1>4, "
          "SET_SELECTOR 9, BREAK, DEFAULT, EDGE 1>2, BLOCK 2, IF_TRUE 2, EDGE 2>1, ELSE, EDGE 2>4, "
          "SET_SELECTOR 9, BREAK, ENDIF, ENDSWITCH, IF_SELECTOR 9, SET_SELECTOR 0, BREAK, ENDIF, "
          "ENDLOOP, BLOCK 4, RETURN 4");
    /* a cycle 1 <-> 2 entered at both: irreducible; cases in RPO (0, 1, 2, 3) */
    check("irreducible", "c1,2 c2,3 c1,3 r", true,
          "SET_SELECTOR 0, LOOP, SWITCH_SELECTOR, CASE 0, BLOCK 0, IF_TRUE 0, EDGE 0>1, "
          "SET_SELECTOR 1, ELSE, EDGE 0>2, SET_SELECTOR 2, ENDIF, BREAK, CASE 1, BLOCK 1, "
          "IF_TRUE 1, EDGE 1>2, SET_SELECTOR 2, ELSE, EDGE 1>3, SET_SELECTOR 3, ENDIF, BREAK, "
          "CASE 2, BLOCK 2, IF_TRUE 2, EDGE 2>1, SET_SELECTOR 1, ELSE, EDGE 2>3, SET_SELECTOR 3, "
          "ENDIF, BREAK, CASE 3, BLOCK 3, RETURN 3, ENDSWITCH, ENDLOOP");
    /* block 2 is unreachable and gets no event; both edges of 0 go to 1 */
    check("unreachable block and a doubled edge", "c1,1 r b1", false,
          "BLOCK 0, EDGE 0>1, BLOCK 1, RETURN 1");
}

/* A malformed graph must fail with exactly this code, offset and message. */
static void check_error(const char *name, const struct sb_dxil_cfg *cfg, enum sb_result code,
                        uint64_t offset, const char *message)
{
    struct sb_dxil_structured s;
    struct sb_error error;
    memset(&error, 0, sizeof(error));
    enum sb_result r = sb_dxil_structurize(cfg, false, &s, &error);
    if (r != code || error.code != code || error.offset != offset || strcmp(error.message, message) ||
        s.events || s.edges) {
        printf("FAIL %s: %s at %llu: %s\n", name, sb_result_name(r), (unsigned long long)error.offset,
               error.message);
        failures++;
        sb_dxil_structured_free(&s);
        return;
    }
    printf("ok   %s\n", name);
}

static void errors(void)
{
    struct cf_graph g;
    cf_graph_parse("b1 b7 r", &g);
    check_error("successor out of range", &g.cfg, SB_ERROR_TRANSLATE_INVALID, 16,
                "block 1: successor 0 is block 7 of 3");
    cf_graph_parse("s2,5=1,5=2 r r", &g);
    check_error("repeated case value", &g.cfg, SB_ERROR_TRANSLATE_INVALID, 0,
                "block 0: switch case value 5 appears twice");
    cf_graph_parse("r c0 r", &g);
    check_error("conditional branch with one successor", &g.cfg, SB_ERROR_TRANSLATE_INVALID, 16,
                "block 1: 1 successors for terminator kind 3, which needs 2");
    cf_graph_parse("r s0,3=0", &g);
    g.blocks[1].case_values = NULL;
    check_error("switch without case values", &g.cfg, SB_ERROR_TRANSLATE_INVALID, 16,
                "block 1: no case value array");
    cf_graph_parse("r", &g);
    g.blocks[0].terminator = (enum sb_dxil_cfg_terminator)9;
    check_error("unknown terminator", &g.cfg, SB_ERROR_TRANSLATE_INVALID, 0,
                "block 0: terminator kind 9 is unknown");
    cf_graph_parse("r", &g);
    g.cfg.block_count = SB_DXIL_CFG_MAX_BLOCKS + 1;
    check_error("too many blocks", &g.cfg, SB_ERROR_TRANSLATE_UNSUPPORTED, 0,
                "function has 16385 blocks; the structurizer takes 1 to 16384");
    g.cfg.block_count = 0;
    check_error("no blocks", &g.cfg, SB_ERROR_TRANSLATE_UNSUPPORTED, 0,
                "function has 0 blocks; the structurizer takes 1 to 16384");
    check_error("no CFG", NULL, SB_ERROR_INVALID_ARGUMENT, 0, "sb_dxil_structurize: no CFG");
}

/* A graph of up to SB_DXIL_CFG_MAX_BLOCKS blocks on the heap, two successors or a switch each. */
struct big_graph {
    struct sb_dxil_cfg cfg;
    struct sb_dxil_cfg_block *blocks;
    uint32_t *succ;  /* per block: up to `width` successors */
    uint32_t *cases; /* per block: up to `width` case values */
    uint32_t width;
};

static bool big_graph_init(struct big_graph *g, uint32_t blocks, uint32_t width)
{
    g->cfg.block_count = blocks;
    g->width = width;
    g->blocks = calloc(blocks, sizeof(*g->blocks));
    g->succ = calloc((size_t)blocks * width, sizeof(*g->succ));
    g->cases = calloc((size_t)blocks * width, sizeof(*g->cases));
    g->cfg.blocks = g->blocks;
    for (uint32_t b = 0; g->blocks && g->succ && g->cases && b < blocks; b++) {
        g->blocks[b].successors = &g->succ[(size_t)b * width];
        g->blocks[b].case_values = &g->cases[(size_t)b * width];
        g->blocks[b].terminator = SB_DXIL_CFG_RETURN;
    }
    return g->blocks && g->succ && g->cases;
}

static void big_set(struct big_graph *g, uint32_t b, enum sb_dxil_cfg_terminator kind, uint32_t s0, uint32_t s1)
{
    g->blocks[b].terminator = kind;
    g->blocks[b].successor_count = kind == SB_DXIL_CFG_BRANCH ? 1 : 2;
    g->succ[(size_t)b * g->width] = s0;
    g->succ[(size_t)b * g->width + 1] = s1;
}

static void big_graph_free(struct big_graph *g)
{
    free(g->blocks);
    free(g->succ);
    free(g->cases);
}

/* Structures `g` and runs the result against it; the dispatch flag must be `want_dispatch`. */
static void check_big(const char *name, struct big_graph *g, bool want_dispatch)
{
    struct sb_dxil_structured s;
    struct sb_error error;
    enum sb_result r = sb_dxil_structurize(&g->cfg, false, &s, &error);
    const char *bad = r != SB_SUCCESS ? error.message : cf_sim_check_nesting(&s);
    if (!bad && s.dispatch != want_dispatch)
        bad = want_dispatch ? "structured form kept past its event budget" : "dispatch loop used";
    for (uint64_t seed = 1; seed <= 4 && !bad; seed++) {
        static struct cf_trace want, got;
        cf_sim_run_cfg(&g->cfg, seed, 400, &want);
        bad = cf_sim_run_events(&g->cfg, &s, seed, 400, &got);
        if (!bad && (want.count != got.count || memcmp(want.items, got.items, want.count * sizeof(want.items[0]))))
            bad = "trace differs from the CFG's";
    }
    printf("%s %s: %u blocks, %u events%s%s%s\n", bad ? "FAIL" : "ok  ", name, g->cfg.block_count,
           r == SB_SUCCESS ? s.event_count : 0, s.dispatch ? " (dispatch)" : "", bad ? ": " : "",
           bad ? bad : "");
    failures += bad != NULL;
    sb_dxil_structured_free(&s);
}

/*
 * Graphs at the block limit (16384 blocks): deep nests that would overflow a recursive
 * implementation's stack, and a nest whose selector ladders would grow quadratically.
 */
static void large(void)
{
    struct big_graph g;
    uint32_t n = SB_DXIL_CFG_MAX_BLOCKS;
    /* Block i: if (c) i + 1 else i - 1: each block heads a loop around all later ones (a
     * nest 16383 deep); the last returns. */
    if (!big_graph_init(&g, n, 2))
        abort();
    for (uint32_t b = 0; b + 1 < n; b++)
        big_set(&g, b, SB_DXIL_CFG_COND_BRANCH, b + 1, b ? b - 1 : 0);
    check_big("16384 nested loops", &g, false);
    /* An if/else chain 8191 deep whose merges all come at the end. */
    for (uint32_t b = 0; b + 2 < n; b += 2)
        big_set(&g, b, SB_DXIL_CFG_COND_BRANCH, b + 2, b + 1);
    for (uint32_t b = 1; b + 1 < n; b += 2)
        big_set(&g, b, SB_DXIL_CFG_BRANCH, n - 1, 0);
    g.blocks[n - 2].terminator = SB_DXIL_CFG_RETURN;
    g.blocks[n - 2].successor_count = 0;
    check_big("8191 nested ifs", &g, false);
    big_graph_free(&g);

    /* D = 1000 nested loops (headers 1..D); the innermost body D + 1 switches to each loop's
     * exit: exit k (D + 1 + k) continues at latch k - 1 (2D + 1 + k), latch k repeats loop k
     * or leaves to exit k. Every latch sits in the innermost loop's code, so each repeat of
     * loop k crosses D - k loops by the selector: about 2 million ladder events against a
     * budget of 64 per block and edge, so the dispatch loop is used. */
    uint32_t d = 1000, blocks = 3 * d + 3;
    if (!big_graph_init(&g, blocks, d + 1))
        abort();
    big_set(&g, 0, SB_DXIL_CFG_BRANCH, 1, 0);
    for (uint32_t k = 1; k <= d; k++)
        big_set(&g, k, SB_DXIL_CFG_BRANCH, k + 1, 0);
    struct sb_dxil_cfg_block *body = &g.blocks[d + 1];
    body->terminator = SB_DXIL_CFG_SWITCH;
    body->successor_count = d + 1;
    g.succ[(size_t)(d + 1) * g.width] = 2 * d + 1 + d; /* default: latch D */
    for (uint32_t k = 1; k <= d; k++) {
        g.cases[(size_t)(d + 1) * g.width + k - 1] = k;
        g.succ[(size_t)(d + 1) * g.width + k] = d + 1 + k;                     /* exit k */
        big_set(&g, d + 1 + k, SB_DXIL_CFG_BRANCH, 2 * d + 1 + k - 1, 0);      /* -> latch k-1 */
        big_set(&g, 2 * d + 1 + k, SB_DXIL_CFG_COND_BRANCH, k, d + 1 + k);      /* latch k */
    }
    /* latch 0 (2D + 1) is the function's exit: it returns */
    check_big("1000 nested loops left by a switch", &g, true);
    big_graph_free(&g);
}

int main(int argc, char **argv)
{
    if (argc == 2 && !strcmp(argv[1], "--shapes"))
        shapes();
    else if (argc == 2 && !strcmp(argv[1], "--errors"))
        errors();
    else if (argc == 2 && !strcmp(argv[1], "--large"))
        large();
    else {
        fprintf(stderr, "usage: %s --shapes | --errors | --large\n", argv[0]);
        return 2;
    }
    printf("%s\n", failures ? "FAILED" : "all passed");
    return failures ? 1 : 0;
}
