/* SPDX-License-Identifier: MIT */
/*
 * The two interpreters and the nesting checker of cf_sim.h. The event
 * interpreter resolves the nesting once (each IF's ELSE/ENDIF, each LOOP's
 * ENDLOOP, each BREAK's construct, each SWITCH's labels) and then walks the
 * list with a program counter, as the IR's consumers do.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cf_sim.h"

#define MAX_EVENTS (1u << 21)
#define MAX_BLOCKS 16384u

bool cf_graph_parse(const char *text, struct cf_graph *g)
{
    memset(g, 0, sizeof(*g));
    g->cfg.blocks = g->blocks;
    const char *p = text;
    while (*p) {
        while (*p == ' ')
            p++;
        if (!*p)
            break;
        if (g->cfg.block_count == 64)
            return false;
        uint32_t b = g->cfg.block_count++;
        struct sb_dxil_cfg_block *block = &g->blocks[b];
        block->successors = g->successors[b];
        block->offset = b * 16u; /* a made-up byte offset, so errors can be checked */
        char kind = *p++;
        block->terminator = kind == 'r' ? SB_DXIL_CFG_RETURN : kind == 'u' ? SB_DXIL_CFG_UNREACHABLE
                          : kind == 'b' ? SB_DXIL_CFG_BRANCH : kind == 'c' ? SB_DXIL_CFG_COND_BRANCH
                          : SB_DXIL_CFG_SWITCH;
        if (kind == 's')
            block->case_values = g->case_values[b];
        else if (kind != 'r' && kind != 'u' && kind != 'b' && kind != 'c')
            return false;
        while (*p && *p != ' ') {
            char *end;
            unsigned long first = strtoul(p, &end, 10);
            if (end == p || block->successor_count == 16)
                return false;
            p = end;
            if (*p == '=') {
                unsigned long target = strtoul(p + 1, &end, 10);
                if (end == p + 1 || block->successor_count == 0)
                    return false;
                g->case_values[b][block->successor_count - 1] = (uint32_t)first;
                first = target;
                p = end;
            }
            g->successors[b][block->successor_count++] = (uint32_t)first;
            if (*p == ',')
                p++;
        }
    }
    return g->cfg.block_count > 0;
}

uint32_t cf_sim_decision(uint64_t seed, uint32_t block, uint32_t visit)
{
    /* splitmix64 of the three inputs */
    uint64_t z = seed ^ ((uint64_t)block << 40) ^ ((uint64_t)visit * 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return (uint32_t)(z ^ (z >> 31));
}

/* The value a switch block compares: one of its cases, or (1 time in n+1) none of them. */
static uint32_t switch_value(const struct sb_dxil_cfg_block *block, uint32_t decision)
{
    uint32_t cases = block->successor_count - 1;
    uint32_t pick = (decision >> 1) % (cases + 1);
    if (pick < cases)
        return block->case_values[pick];
    uint32_t v = decision >> 1;
    for (bool clash = true; clash;) {
        clash = false;
        for (uint32_t k = 0; k < cases; k++)
            if (block->case_values[k] == v) {
                clash = true;
                v++;
            }
    }
    return v;
}

static uint32_t switch_successor(const struct sb_dxil_cfg_block *block, uint32_t value)
{
    for (uint32_t k = 0; k + 1 < block->successor_count; k++)
        if (block->case_values[k] == value)
            return block->successors[k + 1];
    return block->successors[0];
}

static void push(struct cf_trace *trace, uint32_t item)
{
    if (trace->count < sizeof(trace->items) / sizeof(trace->items[0]))
        trace->items[trace->count++] = item;
}

void cf_sim_run_cfg(const struct sb_dxil_cfg *cfg, uint64_t seed, uint32_t max_blocks,
                    struct cf_trace *trace)
{
    static uint32_t visits[MAX_BLOCKS];
    memset(visits, 0, sizeof(visits));
    trace->count = 0;
    uint32_t b = 0;
    for (uint32_t steps = 0; steps < max_blocks; steps++) {
        push(trace, b);
        const struct sb_dxil_cfg_block *block = &cfg->blocks[b];
        uint32_t d = cf_sim_decision(seed, b, visits[b]++), s;
        switch (block->terminator) {
        case SB_DXIL_CFG_BRANCH:
            s = block->successors[0];
            break;
        case SB_DXIL_CFG_COND_BRANCH:
            s = block->successors[(d & 1) ? 0 : 1];
            break;
        case SB_DXIL_CFG_SWITCH:
            s = switch_successor(block, switch_value(block, d));
            break;
        default:
            push(trace, CF_SIM_END);
            return;
        }
        push(trace, CF_SIM_EDGE | b << 12 | s);
        b = s;
    }
}

/* Static structure of an event list: for each event, where control goes. */
struct shape {
    uint32_t *jump;  /* IF -> after ELSE or ENDIF; ELSE -> ENDIF; ENDLOOP/CONTINUE -> LOOP;
                        BREAK -> its ENDLOOP/ENDSWITCH; SWITCH -> its ENDSWITCH */
};

static const char *resolve_shape(const struct sb_dxil_structured *s, uint32_t *jump)
{
    static uint32_t stack[MAX_EVENTS];
    uint32_t depth = 0;
    for (uint32_t i = 0; i < s->event_count; i++) {
        enum sb_dxil_cf_event_kind k = s->events[i].kind;
        switch (k) {
        case SB_DXIL_CF_IF_TRUE:
        case SB_DXIL_CF_IF_FALSE:
        case SB_DXIL_CF_IF_SELECTOR:
        case SB_DXIL_CF_LOOP:
        case SB_DXIL_CF_SWITCH:
        case SB_DXIL_CF_SWITCH_SELECTOR:
            stack[depth++] = i;
            break;
        case SB_DXIL_CF_ELSE:
            if (!depth)
                return "ELSE outside IF";
            jump[stack[depth - 1]] = i; /* the IF skips to after the ELSE */
            stack[depth - 1] = i;
            break;
        case SB_DXIL_CF_ENDIF:
        case SB_DXIL_CF_ENDLOOP:
        case SB_DXIL_CF_ENDSWITCH:
            if (!depth)
                return "end without an open construct";
            {
                uint32_t open = stack[--depth];
                if (k == SB_DXIL_CF_ENDLOOP) {
                    jump[i] = open;
                    jump[open] = i;
                } else if (s->events[open].kind == SB_DXIL_CF_ELSE ||
                           jump[open] == UINT32_MAX) {
                    jump[open] = i;
                }
            }
            break;
        default:
            break;
        }
    }
    return depth ? "unclosed construct" : NULL;
}

/* Closes the innermost construct if it is one of `kinds`; false if it is not. */
static bool pop(const char *stack, uint32_t *depth, const char *kinds)
{
    if (!*depth || !strchr(kinds, stack[*depth - 1]))
        return false;
    --*depth;
    return true;
}

const char *cf_sim_check_nesting(const struct sb_dxil_structured *s)
{
    /* kinds on the stack: 'I' IF, 'E' IF after its ELSE, 'L' LOOP, 'S' SWITCH */
    static char stack[MAX_EVENTS];
    static uint32_t switch_start[MAX_EVENTS];
    uint32_t depth = 0, edges = 0;
    if (s->event_count > MAX_EVENTS)
        return "too many events for the checker";
    for (uint32_t i = 0; i < s->event_count; i++) {
        enum sb_dxil_cf_event_kind k = s->events[i].kind;
        uint32_t v = s->events[i].value;
        bool after_switch = i > 0 && (s->events[i - 1].kind == SB_DXIL_CF_SWITCH ||
                                      s->events[i - 1].kind == SB_DXIL_CF_SWITCH_SELECTOR);
        if (after_switch && k != SB_DXIL_CF_CASE && k != SB_DXIL_CF_DEFAULT)
            return "something between SWITCH and its first label";
        switch (k) {
        case SB_DXIL_CF_IF_TRUE:
        case SB_DXIL_CF_IF_FALSE:
        case SB_DXIL_CF_IF_SELECTOR:
            stack[depth++] = 'I';
            break;
        case SB_DXIL_CF_ELSE:
            if (!depth || stack[depth - 1] != 'I')
                return "ELSE not directly in an IF, or a second ELSE";
            stack[depth - 1] = 'E';
            break;
        case SB_DXIL_CF_ENDIF:
            if (!pop(stack, &depth, "IE"))
                return "ENDIF closes something else";
            break;
        case SB_DXIL_CF_LOOP:
            stack[depth++] = 'L';
            break;
        case SB_DXIL_CF_ENDLOOP:
            if (!pop(stack, &depth, "L"))
                return "ENDLOOP closes something else";
            break;
        case SB_DXIL_CF_SWITCH:
        case SB_DXIL_CF_SWITCH_SELECTOR:
            switch_start[depth] = i;
            stack[depth++] = 'S';
            break;
        case SB_DXIL_CF_CASE:
        case SB_DXIL_CF_DEFAULT:
            if (!depth || stack[depth - 1] != 'S')
                return "CASE/DEFAULT not directly in a SWITCH";
            for (uint32_t j = switch_start[depth - 1] + 1, inner = 0; j < i; j++) {
                enum sb_dxil_cf_event_kind o = s->events[j].kind;
                if (o == SB_DXIL_CF_SWITCH || o == SB_DXIL_CF_SWITCH_SELECTOR)
                    inner++;
                else if (o == SB_DXIL_CF_ENDSWITCH)
                    inner--;
                else if (!inner && o == k && (k == SB_DXIL_CF_DEFAULT || s->events[j].value == v))
                    return k == SB_DXIL_CF_DEFAULT ? "two DEFAULTs" : "repeated CASE value";
            }
            break;
        case SB_DXIL_CF_ENDSWITCH:
            if (!pop(stack, &depth, "S"))
                return "ENDSWITCH closes something else";
            break;
        case SB_DXIL_CF_BREAK:
        case SB_DXIL_CF_CONTINUE: {
            bool found = false;
            for (uint32_t d = depth; d-- > 0 && !found;)
                found = stack[d] == 'L' || (k == SB_DXIL_CF_BREAK && stack[d] == 'S');
            if (!found)
                return k == SB_DXIL_CF_BREAK ? "BREAK outside LOOP and SWITCH" : "CONTINUE outside LOOP";
            break;
        }
        case SB_DXIL_CF_EDGE:
            if (v != edges++ || v >= s->edge_count)
                return "EDGE events do not number the edges in order";
            break;
        default:
            break;
        }
    }
    if (edges != s->edge_count)
        return "edge count differs from the EDGE events";
    return depth ? "construct left open at the end" : NULL;
}

/* The construct a BREAK leaves (innermost LOOP or SWITCH) or a CONTINUE repeats. */
static uint32_t jump_target(const struct sb_dxil_structured *s, const uint32_t *jump, uint32_t i,
                            bool is_continue)
{
    uint32_t inner = 0;
    for (uint32_t j = i; j-- > 0;) {
        enum sb_dxil_cf_event_kind k = s->events[j].kind;
        if (k == SB_DXIL_CF_ENDLOOP || k == SB_DXIL_CF_ENDSWITCH)
            inner++;
        else if (k == SB_DXIL_CF_LOOP || k == SB_DXIL_CF_SWITCH || k == SB_DXIL_CF_SWITCH_SELECTOR) {
            if (inner) {
                inner--;
                continue;
            }
            if (k == SB_DXIL_CF_LOOP || !is_continue)
                return is_continue ? j : jump[j];
        }
    }
    return UINT32_MAX;
}

static uint32_t find_label(const struct sb_dxil_structured *s, const uint32_t *jump, uint32_t sw,
                           uint32_t value)
{
    uint32_t fallback = jump[sw], inner = 0;
    for (uint32_t j = sw + 1; j < jump[sw]; j++) {
        enum sb_dxil_cf_event_kind k = s->events[j].kind;
        if (k == SB_DXIL_CF_SWITCH || k == SB_DXIL_CF_SWITCH_SELECTOR)
            inner++;
        else if (k == SB_DXIL_CF_ENDSWITCH)
            inner--;
        else if (!inner && k == SB_DXIL_CF_CASE && s->events[j].value == value)
            return j;
        else if (!inner && k == SB_DXIL_CF_DEFAULT)
            fallback = j;
    }
    return fallback;
}

const char *cf_sim_run_events(const struct sb_dxil_cfg *cfg, const struct sb_dxil_structured *s,
                              uint64_t seed, uint32_t max_blocks, struct cf_trace *trace)
{
    static uint32_t jump[MAX_EVENTS], visits[MAX_BLOCKS], decision[MAX_BLOCKS];
    trace->count = 0;
    if (s->event_count > MAX_EVENTS || cfg->block_count > MAX_BLOCKS)
        return "too big for the simulator";
    for (uint32_t i = 0; i < s->event_count; i++)
        jump[i] = UINT32_MAX;
    const char *bad = resolve_shape(s, jump);
    if (bad)
        return bad;
    memset(visits, 0, sizeof(visits));
    uint32_t selector = 0, last_block = UINT32_MAX, steps = 0;
    bool selector_set = false;
    uint64_t budget = 1000000;
    uint32_t pc = 0;
    while (pc < s->event_count) {
        if (!budget--)
            return "event budget exhausted (a loop that runs no block)";
        const struct sb_dxil_cf_event *e = &s->events[pc];
        uint32_t v = e->value, next = pc + 1;
        switch (e->kind) {
        case SB_DXIL_CF_BLOCK:
            if (steps++ == max_blocks)
                return NULL;
            push(trace, v);
            decision[v] = cf_sim_decision(seed, v, visits[v]++);
            last_block = v;
            break;
        case SB_DXIL_CF_IF_TRUE:
        case SB_DXIL_CF_IF_FALSE:
            if (v != last_block)
                return "IF on a block that did not just run";
            if (((decision[v] & 1) != 0) != (e->kind == SB_DXIL_CF_IF_TRUE))
                next = jump[pc] + 1;
            break;
        case SB_DXIL_CF_IF_SELECTOR:
            if (!selector_set)
                return "selector read before it was set";
            if (selector != v)
                next = jump[pc] + 1;
            break;
        case SB_DXIL_CF_ELSE:
            next = jump[pc] + 1;
            break;
        case SB_DXIL_CF_ENDLOOP:
            next = jump[pc] + 1;
            break;
        case SB_DXIL_CF_BREAK:
        case SB_DXIL_CF_CONTINUE: {
            uint32_t t = jump_target(s, jump, pc, e->kind == SB_DXIL_CF_CONTINUE);
            if (t == UINT32_MAX)
                return "BREAK/CONTINUE without a construct";
            next = t + 1;
            break;
        }
        case SB_DXIL_CF_SWITCH:
            if (v != last_block)
                return "SWITCH on a block that did not just run";
            next = find_label(s, jump, pc, switch_value(&cfg->blocks[v], decision[v])) + 1;
            break;
        case SB_DXIL_CF_SWITCH_SELECTOR:
            if (!selector_set)
                return "selector read before it was set";
            next = find_label(s, jump, pc, selector) + 1;
            break;
        case SB_DXIL_CF_RETURN:
        case SB_DXIL_CF_UNREACHABLE:
            push(trace, CF_SIM_END);
            return NULL;
        case SB_DXIL_CF_EDGE:
            if (s->edges[v].pred != last_block)
                return "EDGE from a block that did not just run";
            push(trace, CF_SIM_EDGE | s->edges[v].pred << 12 | s->edges[v].succ);
            break;
        case SB_DXIL_CF_SET_SELECTOR:
            selector = v;
            selector_set = true;
            break;
        default: /* LOOP, ENDIF, CASE, DEFAULT, ENDSWITCH: nothing to do */
            break;
        }
        pc = next;
    }
    push(trace, CF_SIM_END); /* falling off the end returns */
    return NULL;
}

void cf_sim_print(const struct sb_dxil_structured *s, char *text, size_t size)
{
    size_t used = 0;
    text[0] = 0;
    for (uint32_t i = 0; i < s->event_count && used < size; i++) {
        const struct sb_dxil_cf_event *e = &s->events[i];
        const char *sep = i ? ", " : "";
        const char *name = sb_dxil_cf_event_name(e->kind);
        int n;
        switch (e->kind) {
        case SB_DXIL_CF_EDGE:
            n = snprintf(text + used, size - used, "%s%s %u>%u", sep, name, s->edges[e->value].pred,
                         s->edges[e->value].succ);
            break;
        case SB_DXIL_CF_BLOCK:
        case SB_DXIL_CF_IF_TRUE:
        case SB_DXIL_CF_IF_FALSE:
        case SB_DXIL_CF_SWITCH:
        case SB_DXIL_CF_CASE:
        case SB_DXIL_CF_SET_SELECTOR:
        case SB_DXIL_CF_IF_SELECTOR:
        case SB_DXIL_CF_RETURN:
        case SB_DXIL_CF_UNREACHABLE:
            n = snprintf(text + used, size - used, "%s%s %u", sep, name, e->value);
            break;
        default:
            n = snprintf(text + used, size - used, "%s%s", sep, name);
            break;
        }
        if (n < 0)
            return;
        used += (size_t)n;
    }
}
