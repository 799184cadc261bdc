/* SPDX-License-Identifier: MIT */
/*
 * Property test of sb_dxil_structurize, seeded (argv[1]) and sized (argv[2]
 * cases of each family):
 *   - random structured programs (nested if/else, while/do-while/endless loops,
 *     switches with shared targets, fall-through and defaults to the merge,
 *     break/continue of the innermost and of outer loops, returns) lowered to
 *     CFGs the way dxc's are: one block per straight run, critical edges
 *     (an if without else branches straight to its merge), merges shared by
 *     breaks and fall-through;
 *   - random graphs of 1-10 blocks, mostly forward edges, so that both
 *     reducible and irreducible ones come out; an independent T1/T2
 *     reduction says which they are, and the structurizer must agree
 *     (dispatch loop exactly for the irreducible ones).
 * For each graph, the structured form and the forced dispatch form must obey
 * the IR nesting rules and, run on 8 decision seeds, give the CFG's trace of
 * blocks and edges exactly (cf_sim.h). A third family breaks one field of a
 * random graph: the result is success or the exact error at that block.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cf_sim.h"

#define NONE UINT32_MAX

static uint64_t rng_state;

static uint32_t rnd(uint32_t n)
{
    rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(rng_state >> 33) % n;
}

/* ---- structured programs lowered to CFGs ---- */

struct frame {
    bool is_loop;
    uint32_t break_to, continue_to;
};

struct gen {
    struct cf_graph *g;
    uint32_t preds[64];
    struct frame frames[16];
    uint32_t depth;
    bool overflow;
};

static uint32_t new_block(struct gen *s)
{
    struct cf_graph *g = s->g;
    if (g->cfg.block_count == 56) {
        s->overflow = true;
        return 0;
    }
    uint32_t b = g->cfg.block_count++;
    g->blocks[b] = (struct sb_dxil_cfg_block){ .terminator = SB_DXIL_CFG_RETURN, .successor_count = 0,
                                               .successors = g->successors[b],
                                               .case_values = g->case_values[b], .offset = b };
    return b;
}

static void branch(struct gen *s, uint32_t from, uint32_t to)
{
    s->g->blocks[from].terminator = SB_DXIL_CFG_BRANCH;
    s->g->blocks[from].successor_count = 1;
    s->g->successors[from][0] = to;
    s->preds[to]++;
}

static void cond(struct gen *s, uint32_t from, uint32_t t, uint32_t f)
{
    if (rnd(2)) { /* either order: the front end sees both polarities */
        uint32_t x = t;
        t = f;
        f = x;
    }
    s->g->blocks[from].terminator = SB_DXIL_CFG_COND_BRANCH;
    s->g->blocks[from].successor_count = 2;
    s->g->successors[from][0] = t;
    s->g->successors[from][1] = f;
    s->preds[t]++;
    s->preds[f]++;
}

static uint32_t gen_list(struct gen *s, uint32_t cur, uint32_t depth);

/* A frame to leave: usually the innermost, sometimes an outer one (a multi-level exit). */
static const struct frame *pick_frame(struct gen *s, bool loops_only)
{
    for (uint32_t k = s->depth; k-- > 0;) {
        if (loops_only && !s->frames[k].is_loop)
            continue;
        if (k == 0 || rnd(4))
            return &s->frames[k];
    }
    return NULL;
}

static uint32_t gen_if(struct gen *s, uint32_t cur, uint32_t depth)
{
    uint32_t then_b = new_block(s), merge = new_block(s), else_b = NONE;
    if (rnd(2))
        else_b = new_block(s);
    if (s->overflow)
        return NONE;
    cond(s, cur, then_b, else_b == NONE ? merge : else_b);
    uint32_t end = gen_list(s, then_b, depth + 1);
    if (end != NONE)
        branch(s, end, merge);
    if (else_b != NONE && (end = gen_list(s, else_b, depth + 1)) != NONE)
        branch(s, end, merge);
    return s->preds[merge] ? merge : NONE;
}

static uint32_t gen_loop(struct gen *s, uint32_t cur, uint32_t depth)
{
    uint32_t header = new_block(s), exit = new_block(s), kind = rnd(3), body = header;
    if (kind == 0)
        body = new_block(s); /* while: the header tests */
    if (s->overflow || s->depth == 16)
        return NONE;
    branch(s, cur, header);
    if (kind == 0)
        cond(s, header, body, exit);
    s->frames[s->depth++] = (struct frame){ .is_loop = true, .break_to = exit, .continue_to = header };
    uint32_t end = gen_list(s, body, depth + 1);
    s->depth--;
    if (end != NONE && !s->overflow) {
        if (kind == 1)
            cond(s, end, header, exit); /* do-while: the latch tests */
        else
            branch(s, end, header); /* while, or endless: left only by breaks */
    }
    return s->preds[exit] ? exit : NONE;
}

static uint32_t gen_switch(struct gen *s, uint32_t cur, uint32_t depth)
{
    uint32_t cases = 1 + rnd(4), merge = new_block(s), bodies[6], count = 0;
    struct sb_dxil_cfg_block *block = &s->g->blocks[cur];
    if (s->overflow || s->depth == 16)
        return NONE;
    block->terminator = SB_DXIL_CFG_SWITCH;
    block->successor_count = cases + 1;
    uint32_t value = rnd(5);
    for (uint32_t k = 0; k < cases; k++) {
        s->g->case_values[cur][k] = value; /* increasing: distinct */
        value += 1 + rnd(3);
        if (count && rnd(3) == 0) {
            s->g->successors[cur][k + 1] = bodies[count - 1]; /* shares the previous body */
        } else {
            bodies[count] = new_block(s);
            s->g->successors[cur][k + 1] = bodies[count++];
        }
    }
    if (rnd(2)) {
        bodies[count] = new_block(s);
        s->g->successors[cur][0] = bodies[count++];
    } else {
        s->g->successors[cur][0] = merge;
    }
    if (s->overflow)
        return NONE;
    for (uint32_t k = 0; k <= cases; k++)
        s->preds[s->g->successors[cur][k]]++;
    s->frames[s->depth++] = (struct frame){ .is_loop = false, .break_to = merge, .continue_to = NONE };
    for (uint32_t k = 0; k < count && !s->overflow; k++) {
        uint32_t end = gen_list(s, bodies[k], depth + 1);
        if (end != NONE)
            branch(s, end, k + 1 < count && rnd(3) == 0 ? bodies[k + 1] : merge); /* fall-through */
    }
    s->depth--;
    return s->preds[merge] ? merge : NONE;
}

static uint32_t gen_stmt(struct gen *s, uint32_t cur, uint32_t depth)
{
    uint32_t choice = depth >= 4 ? rnd(2) * 7 : rnd(11);
    const struct frame *f;
    uint32_t next;
    switch (choice) {
    case 0:
    case 1: /* a new straight run */
        next = new_block(s);
        if (!s->overflow)
            branch(s, cur, next);
        return s->overflow ? NONE : next;
    case 2:
    case 3:
        return gen_if(s, cur, depth);
    case 4:
    case 5:
        return gen_loop(s, cur, depth);
    case 6:
        return gen_switch(s, cur, depth);
    case 7: /* break */
        if (!(f = pick_frame(s, false)))
            return cur;
        branch(s, cur, f->break_to);
        return NONE;
    case 8: /* continue */
        if (!(f = pick_frame(s, true)))
            return cur;
        branch(s, cur, f->continue_to);
        return NONE;
    case 9: /* if (c) break / continue, folded into the block's branch */
        if (!(f = pick_frame(s, false)) || (next = new_block(s), s->overflow))
            return s->overflow ? NONE : cur;
        cond(s, cur, rnd(2) && f->is_loop ? f->continue_to : f->break_to, next);
        return next;
    default:
        return NONE; /* return: the block keeps its RETURN */
    }
}

static uint32_t gen_list(struct gen *s, uint32_t cur, uint32_t depth)
{
    for (uint32_t k = 1 + rnd(3); k-- > 0 && cur != NONE && !s->overflow;)
        cur = gen_stmt(s, cur, depth);
    return s->overflow ? NONE : cur;
}

static bool gen_program(struct cf_graph *g)
{
    struct gen s;
    memset(&s, 0, sizeof(s));
    memset(g, 0, sizeof(*g));
    g->cfg.blocks = g->blocks;
    s.g = g;
    new_block(&s);
    gen_list(&s, 0, 0);
    return !s.overflow;
}

/* ---- random graphs ---- */

static void gen_graph(struct cf_graph *g)
{
    memset(g, 0, sizeof(*g));
    g->cfg.blocks = g->blocks;
    uint32_t n = 1 + rnd(10);
    g->cfg.block_count = n;
    for (uint32_t b = 0; b < n; b++) {
        struct sb_dxil_cfg_block *block = &g->blocks[b];
        block->successors = g->successors[b];
        block->case_values = g->case_values[b];
        uint32_t r = rnd(20), count;
        block->terminator = r < 3 ? SB_DXIL_CFG_RETURN : r < 4 ? SB_DXIL_CFG_UNREACHABLE
                          : r < 11 ? SB_DXIL_CFG_BRANCH : r < 18 ? SB_DXIL_CFG_COND_BRANCH
                          : SB_DXIL_CFG_SWITCH;
        count = block->terminator == SB_DXIL_CFG_BRANCH ? 1 : block->terminator == SB_DXIL_CFG_COND_BRANCH ? 2
              : block->terminator == SB_DXIL_CFG_SWITCH ? 2 + rnd(4) : 0;
        block->successor_count = count;
        for (uint32_t k = 0; k < count; k++) {
            bool forward = b + 1 < n && rnd(10) < 7;
            g->successors[b][k] = forward ? b + 1 + rnd(n - b - 1) : rnd(n);
            if (k)
                g->case_values[b][k - 1] = k * 2 + (uint32_t)rnd(2);
        }
    }
}

/* T1/T2 reduction (Hecht and Ullman) of the blocks reachable from 0: reducible iff one is left. */
static bool reducible_by_t1_t2(const struct cf_graph *g)
{
    uint32_t n = g->cfg.block_count;
    uint64_t succ[64] = { 0 }, alive = 1, seen = 1, work = 1;
    for (uint32_t b = 0; b < n; b++)
        for (uint32_t k = 0; k < g->blocks[b].successor_count; k++)
            succ[b] |= 1ull << g->successors[b][k];
    while (work) { /* reachability */
        uint32_t b = (uint32_t)__builtin_ctzll(work);
        work &= work - 1;
        uint64_t fresh = succ[b] & ~seen;
        seen |= fresh;
        work |= fresh;
    }
    alive = seen;
    for (bool changed = true; changed;) {
        changed = false;
        for (uint32_t v = 0; v < n; v++)
            succ[v] &= ~(1ull << v); /* T1 */
        for (uint32_t v = 1; v < n && !changed; v++) {
            if (!(alive >> v & 1))
                continue;
            uint32_t pred_count = 0, u = 0;
            for (uint32_t p = 0; p < n; p++)
                if ((alive >> p & 1) && (succ[p] >> v & 1)) {
                    pred_count++;
                    u = p;
                }
            if (pred_count != 1)
                continue;
            succ[u] = (succ[u] & ~(1ull << v)) | succ[v]; /* T2: v merges into u */
            alive &= ~(1ull << v);
            for (uint32_t p = 0; p < n; p++)
                succ[p] &= ~(1ull << v) | (p == u ? succ[v] & (1ull << v) : 0);
            changed = true;
        }
    }
    return __builtin_popcountll(alive) == 1;
}

/* ---- malformed graphs ---- */

/*
 * One field of a random graph broken (terminator kind, successor count, a successor, a
 * case value made equal to another): the result must be success (the change kept the
 * graph valid, then the usual checks run) or SB_ERROR_TRANSLATE_INVALID at the offset
 * of the block broken. Under ASan this also shows nothing is read out of range.
 */
static bool check_malformed(uint32_t index, struct cf_graph *g, uint32_t *broken)
{
    uint32_t b = rnd(g->cfg.block_count);
    struct sb_dxil_cfg_block *block = &g->blocks[b];
    *broken = b;
    block->offset = 1000 + b;
    switch (rnd(4)) {
    case 0:
        block->terminator = (enum sb_dxil_cfg_terminator)rnd(7);
        break;
    case 1:
        block->successor_count = rnd(4);
        break;
    case 2:
        if (block->successor_count)
            g->successors[b][rnd(block->successor_count)] = g->cfg.block_count + rnd(3);
        break;
    default:
        if (block->terminator == SB_DXIL_CFG_SWITCH && block->successor_count > 2)
            g->case_values[b][1] = g->case_values[b][0];
        break;
    }
    struct sb_dxil_structured s;
    struct sb_error error;
    enum sb_result r = sb_dxil_structurize(&g->cfg, false, &s, &error);
    bool ok = r == SB_SUCCESS || (r == SB_ERROR_TRANSLATE_INVALID && error.code == r &&
                                  error.offset == 1000 + b && !s.events && !s.edges);
    sb_dxil_structured_free(&s);
    if (ok)
        return true;
    printf("FAIL malformed %u: block %u broken, got %s at %llu: %s\n", index, b, sb_result_name(r),
           (unsigned long long)error.offset, error.message);
    return false;
}

/* ---- the property ---- */

struct stats {
    uint32_t cases, reducible, irreducible, with_selector, events, blocks;
};

static bool check_graph(const char *family, uint32_t index, const struct cf_graph *g, int want_dispatch,
                        struct stats *st)
{
    for (int force = 0; force < 2; force++) {
        struct sb_dxil_structured s;
        struct sb_error error;
        enum sb_result r = sb_dxil_structurize(&g->cfg, force, &s, &error);
        const char *bad = r != SB_SUCCESS ? error.message : cf_sim_check_nesting(&s);
        if (!bad && !force && want_dispatch >= 0 && s.dispatch != (want_dispatch != 0))
            bad = want_dispatch ? "reducible by the structurizer, not by T1/T2"
                                : "dispatch loop for a reducible graph";
        for (uint64_t seed = 1; seed <= 8 && !bad; seed++) {
            static struct cf_trace want, got;
            cf_sim_run_cfg(&g->cfg, seed * 0x9E3779B97F4A7C15ull + index, 200, &want);
            bad = cf_sim_run_events(&g->cfg, &s, seed * 0x9E3779B97F4A7C15ull + index, 200, &got);
            if (!bad && (want.count != got.count ||
                         memcmp(want.items, got.items, want.count * sizeof(want.items[0]))))
                bad = "trace differs from the CFG's";
        }
        if (bad) {
            static char text[65536];
            if (r == SB_SUCCESS)
                cf_sim_print(&s, text, sizeof(text));
            else
                text[0] = 0;
            printf("FAIL %s %u%s: %s\n  graph:", family, index, force ? " (forced dispatch)" : "", bad);
            for (uint32_t b = 0; b < g->cfg.block_count; b++) {
                printf(" %u:%u", b, g->blocks[b].terminator);
                for (uint32_t k = 0; k < g->blocks[b].successor_count; k++)
                    printf(k ? ",%u" : "(%u", g->successors[b][k]);
                printf(g->blocks[b].successor_count ? ")" : "");
            }
            printf("\n  events: %s\n", text);
            sb_dxil_structured_free(&s);
            return false;
        }
        if (!force) {
            st->cases++;
            st->reducible += !s.dispatch;
            st->irreducible += s.dispatch;
            st->with_selector += s.uses_selector && !s.dispatch;
            st->events += s.event_count;
            st->blocks += g->cfg.block_count;
        }
        sb_dxil_structured_free(&s);
    }
    return true;
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: %s SEED CASES\n", argv[0]);
        return 2;
    }
    rng_state = strtoull(argv[1], NULL, 0);
    uint32_t cases = (uint32_t)strtoul(argv[2], NULL, 0);
    static struct cf_graph g;
    struct stats programs = { 0 }, graphs = { 0 }, graphs_after = { 0 };
    uint32_t failures = 0;
    for (uint32_t i = 0; i < cases && failures < 5; i++) {
        while (!gen_program(&g))
            ;
        failures += !check_graph("program", i, &g, 0, &programs);
    }
    for (uint32_t i = 0; i < cases && failures < 5; i++) {
        gen_graph(&g);
        failures += !check_graph("graph", i, &g, !reducible_by_t1_t2(&g), &graphs);
    }
    uint32_t malformed_ok = 0;
    for (uint32_t i = 0; i < cases && failures < 5; i++) {
        uint32_t broken;
        gen_graph(&g);
        if (!check_malformed(i, &g, &broken)) {
            failures++;
            continue;
        }
        struct sb_dxil_structured s;
        if (sb_dxil_structurize(&g.cfg, false, &s, NULL) == SB_SUCCESS) {
            malformed_ok++;
            sb_dxil_structured_free(&s);
            failures += !check_graph("malformed", i, &g, !reducible_by_t1_t2(&g), &graphs_after);
        }
    }
    printf("programs: %u (%u blocks, %u events, %u with a selector ladder)\n", programs.cases,
           programs.blocks, programs.events, programs.with_selector);
    printf("graphs: %u (%u reducible, %u irreducible, %u with a selector ladder)\n", graphs.cases,
           graphs.reducible, graphs.irreducible, graphs.with_selector);
    printf("malformed: %u (%u still valid, checked as graphs)\n", cases, malformed_ok);
    /* The families must really cover both sides, or the test proves little. */
    if (!failures && cases >= 1000 &&
        (programs.with_selector < cases / 50 || graphs.irreducible < cases / 20 ||
         graphs.reducible < cases / 5)) {
        printf("FAIL: too few ladders, irreducible or reducible graphs for a meaningful test\n");
        failures++;
    }
    printf("%s\n", failures ? "FAILED" : "all passed");
    return failures ? 1 : 0;
}
