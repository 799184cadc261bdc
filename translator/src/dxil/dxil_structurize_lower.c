/* SPDX-License-Identifier: MIT */
/*
 * The labelled list of dxil_structurize_tree.c made into IR-shaped events.
 *
 * 1. Where control goes. fall[i] is the first event that does something when
 *    control arrives at event i: ENDIF, a block's end, opens, CASE/DEFAULT
 *    labels (a case body falls into the next, as in the IR) and ENDSWITCH are
 *    passed, ELSE skips to after its ENDIF, a loop's end stops (it repeats).
 *    A break to block y goes to fall[end(y) + 1], a continue to its loop's
 *    end. Computed backwards in one pass, which also drops every jump whose
 *    destination equals where falling on would go (the jump at the end of an
 *    IF arm to the merge that follows, the continue before a loop's end);
 *    blocks no jump needs vanish (a ladder may reach a construct inside
 *    that lands there), and `IF a ELSE b ENDIF` whose arm a ends in a jump
 *    becomes `IF a ENDIF b`.
 * 2. Events. A block construct becomes `LOOP ... BREAK ENDLOOP` (one pass), a
 *    loop `LOOP ... ENDLOOP`. A jump becomes CONTINUE when its loop is the
 *    innermost LOOP, BREAK when leaving the innermost LOOP or SWITCH lands
 *    where the jump goes; otherwise SET_SELECTOR id; BREAK, and after the
 *    construct it left, `IF_SELECTOR id` resolves it the same way one level
 *    out (clearing the selector once it arrives). The selector starts at 0.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "dxil_structurize_private.h"

/* A jump target: a block construct left (continue false) or a loop repeated. */
struct target {
    bool is_continue;
    uint32_t label;
};

struct pending {
    struct target target;
    uint32_t next; /* index in the pool, NONE ends the list */
};

struct open_construct {
    uint32_t kind; /* SB_DXIL_SX_BLOCK_OPEN, SB_DXIL_SX_LOOP_OPEN or SB_DXIL_CF_SWITCH */
    uint32_t label;
    uint32_t end;  /* index of its end in the labelled list */
    uint32_t pending_head;
};
/* sb_dxil_lower_tree places these right after u32 arrays in one allocation. */
_Static_assert(_Alignof(struct open_construct) <= _Alignof(uint32_t), "u32-aligned constructs");

struct lower {
    const struct sb_dxil_sx *sx;
    uint32_t count;
    uint32_t *match;        /* open -> end; IF -> ELSE; ELSE -> ENDIF */
    bool *else_closes;      /* ELSE written as ENDIF: its IF's arm never falls through */
    uint32_t *fall;         /* count + 1 */
    bool *removed;
    uint32_t *block_end_at; /* merge block -> index of its block construct's end */
    uint32_t *loop_end_at;  /* header -> index of its loop's end */
    struct open_construct *open;
    uint32_t depth;
    struct pending *pool;
    uint32_t pool_count;
    size_t pool_capacity;
    struct sb_dxil_out *out;
};

static uint32_t selector_id(struct target t)
{
    return t.is_continue ? 2 * t.label + 2 : 2 * t.label + 1;
}

static uint32_t destination(const struct lower *l, struct target t)
{
    return t.is_continue ? l->loop_end_at[t.label] : l->fall[l->block_end_at[t.label] + 1];
}

/* Pairs opens with ends; the tree builder nests them, so a stack suffices. */
static void match_constructs(struct lower *l, uint32_t *stack, uint32_t *parent)
{
    uint32_t depth = 0, breakable = SB_DXIL_NONE;
    for (uint32_t i = 0; i < l->count; i++) {
        const struct sb_dxil_sx *e = &l->sx[i];
        bool opens = e->kind == SB_DXIL_SX_BLOCK_OPEN || e->kind == SB_DXIL_SX_LOOP_OPEN ||
                     e->kind == SB_DXIL_CF_SWITCH;
        bool ends = e->kind == SB_DXIL_SX_BLOCK_END || e->kind == SB_DXIL_SX_LOOP_END ||
                    e->kind == SB_DXIL_CF_ENDSWITCH;
        if (ends)
            breakable = parent[stack[depth - 1]];
        parent[i] = ends ? stack[depth - 1] : breakable;
        if (opens)
            breakable = i;
        switch (e->kind) {
        case SB_DXIL_SX_BLOCK_OPEN:
        case SB_DXIL_SX_LOOP_OPEN:
        case SB_DXIL_CF_IF_TRUE:
        case SB_DXIL_CF_IF_FALSE:
        case SB_DXIL_CF_SWITCH:
            stack[depth++] = i;
            break;
        case SB_DXIL_CF_ELSE:
            l->match[stack[depth - 1]] = i; /* IF -> ELSE; the ELSE then gets the ENDIF */
            stack[depth - 1] = i;
            break;
        case SB_DXIL_SX_BLOCK_END:
        case SB_DXIL_SX_LOOP_END:
        case SB_DXIL_CF_ENDIF:
        case SB_DXIL_CF_ENDSWITCH:
            l->match[stack[--depth]] = i;
            if (e->kind == SB_DXIL_SX_BLOCK_END)
                l->block_end_at[e->a] = i;
            else if (e->kind == SB_DXIL_SX_LOOP_END)
                l->loop_end_at[e->a] = i;
            break;
        default:
            break;
        }
    }
}

/* Step 1: fall[], and the jumps and blocks that falling on makes unnecessary. */
static void drop_redundant_jumps(struct lower *l)
{
    l->fall[l->count] = l->count;
    for (uint32_t i = l->count; i-- > 0;) {
        const struct sb_dxil_sx *e = &l->sx[i];
        uint32_t next = l->fall[i + 1];
        switch (e->kind) {
        case SB_DXIL_CF_ENDIF:
        case SB_DXIL_SX_BLOCK_OPEN:
        case SB_DXIL_SX_BLOCK_END:
        case SB_DXIL_SX_LOOP_OPEN:
        case SB_DXIL_CF_CASE:
        case SB_DXIL_CF_DEFAULT:
        case SB_DXIL_CF_ENDSWITCH:
            l->fall[i] = next;
            break;
        case SB_DXIL_CF_ELSE:
            l->fall[i] = l->fall[l->match[i] + 1];
            break;
        case SB_DXIL_SX_BREAK_TO:
        case SB_DXIL_SX_CONTINUE_TO: {
            struct target t = { .is_continue = e->kind == SB_DXIL_SX_CONTINUE_TO, .label = e->a };
            l->removed[i] = destination(l, t) == next;
            l->fall[i] = l->removed[i] ? next : i;
            break;
        }
        default:
            l->fall[i] = i;
            break;
        }
    }
}

/* The innermost construct around event i that is still there, or NONE. */
static uint32_t innermost_present(const struct lower *l, const uint32_t *parent, uint32_t i)
{
    uint32_t open = parent[i];
    while (open != SB_DXIL_NONE && l->removed[open])
        open = parent[open];
    return open;
}

/*
 * A block construct goes when no jump needs it to land where it goes. Inner blocks are
 * decided first (in the order their ends come), so the constructs inside a block are
 * final when it is decided, and a jump never loses the block it needs.
 * `parent`: per event, the innermost block, loop or switch open around it.
 * `jumps_to`: per merge block, the indices of the surviving breaks to it (CSR by `start`).
 */
static void drop_unneeded_blocks(struct lower *l, const uint32_t *parent, const uint32_t *start,
                                 const uint32_t *jumps_to)
{
    for (uint32_t i = 0; i < l->count; i++) {
        if (l->sx[i].kind != SB_DXIL_SX_BLOCK_END)
            continue;
        uint32_t y = l->sx[i].a, open = parent[i];
        struct target t = { .is_continue = false, .label = y };
        bool needed = false;
        /* A jump needs the block unless a construct inside it, one the jump's selector
         * ladder reaches on its way out, already lands where the jump goes. */
        uint32_t dest = destination(l, t);
        for (uint32_t k = start[y]; k < start[y + 1] && !needed; k++) {
            uint32_t e = innermost_present(l, parent, jumps_to[k]);
            while (e != open && l->fall[l->match[e] + 1] != dest)
                e = innermost_present(l, parent, e);
            needed = e == open;
        }
        if (!needed)
            l->removed[open] = l->removed[i] = true;
    }
}

/*
 * `IF a ELSE b ENDIF` where arm a ends in a jump or a return (after the drops above) is
 * `IF a ENDIF b`: control never falls out of a, so b need not be nested.
 */
static void unnest_else_arms(struct lower *l)
{
    for (uint32_t i = 0; i < l->count; i++) {
        uint32_t kind = l->sx[i].kind;
        if (kind != SB_DXIL_CF_IF_TRUE && kind != SB_DXIL_CF_IF_FALSE)
            continue;
        uint32_t last = l->match[i];
        while (--last > i && l->removed[last])
            ;
        kind = l->sx[last].kind;
        if (last > i && (kind == SB_DXIL_SX_BREAK_TO || kind == SB_DXIL_SX_CONTINUE_TO ||
                         kind == SB_DXIL_CF_RETURN || kind == SB_DXIL_CF_UNREACHABLE)) {
            l->else_closes[l->match[i]] = true;
            l->removed[l->match[l->match[i]]] = true;
        }
    }
}

/* Emits the jump to `t` from the current nesting; `arrived_by_selector`: inside a ladder. */
static bool resolve(struct lower *l, struct target t, bool arrived_by_selector)
{
    if (!l->depth)
        return false;
    struct open_construct *top = &l->open[l->depth - 1], *loop = NULL;
    for (uint32_t k = l->depth; k-- > 0 && !loop;)
        if (l->open[k].kind != SB_DXIL_CF_SWITCH)
            loop = &l->open[k];
    bool direct_continue = t.is_continue && loop && loop->kind == SB_DXIL_SX_LOOP_OPEN &&
                           loop->label == t.label;
    if (direct_continue || l->fall[top->end + 1] == destination(l, t)) {
        if (arrived_by_selector)
            sb_dxil_out_event(l->out, SB_DXIL_CF_SET_SELECTOR, 0);
        sb_dxil_out_event(l->out, direct_continue ? SB_DXIL_CF_CONTINUE : SB_DXIL_CF_BREAK, 0);
        return true;
    }
    if (!arrived_by_selector)
        sb_dxil_out_event(l->out, SB_DXIL_CF_SET_SELECTOR, selector_id(t));
    sb_dxil_out_event(l->out, SB_DXIL_CF_BREAK, 0);
    for (uint32_t p = top->pending_head; p != SB_DXIL_NONE; p = l->pool[p].next)
        if (l->pool[p].target.is_continue == t.is_continue && l->pool[p].target.label == t.label)
            return true;
    if (!sb_dxil_grow((void **)&l->pool, &l->pool_capacity, l->pool_count, sizeof(*l->pool))) {
        l->out->failed = true;
        return true;
    }
    /* Appended at the tail so that ladders test targets in the order jumps named them. */
    struct pending *slot = &l->pool[l->pool_count];
    *slot = (struct pending){ .target = t, .next = SB_DXIL_NONE };
    uint32_t *link = &top->pending_head;
    while (*link != SB_DXIL_NONE)
        link = &l->pool[*link].next;
    *link = l->pool_count++;
    return true;
}

/* Closes the innermost construct and writes the ladder for the jumps that crossed it. */
static bool close_construct(struct lower *l)
{
    struct open_construct closed = l->open[--l->depth];
    if (closed.kind == SB_DXIL_SX_BLOCK_OPEN)
        sb_dxil_out_event(l->out, SB_DXIL_CF_BREAK, 0);
    sb_dxil_out_event(l->out, closed.kind == SB_DXIL_CF_SWITCH ? SB_DXIL_CF_ENDSWITCH : SB_DXIL_CF_ENDLOOP, 0);
    for (uint32_t p = closed.pending_head; p != SB_DXIL_NONE; p = l->pool[p].next) {
        sb_dxil_out_event(l->out, SB_DXIL_CF_IF_SELECTOR, selector_id(l->pool[p].target));
        if (!resolve(l, l->pool[p].target, true))
            return false;
        sb_dxil_out_event(l->out, SB_DXIL_CF_ENDIF, 0);
    }
    return true;
}

/* Step 2: the events. False on a structure the tree builder cannot have made. */
static bool write_events(struct lower *l)
{
    for (uint32_t i = 0; i < l->count; i++) {
        const struct sb_dxil_sx *e = &l->sx[i];
        if (l->removed[i])
            continue;
        switch (e->kind) {
        case SB_DXIL_SX_BLOCK_OPEN:
        case SB_DXIL_SX_LOOP_OPEN:
        case SB_DXIL_CF_SWITCH:
            l->open[l->depth++] = (struct open_construct){ .kind = e->kind, .label = e->a,
                                                           .end = l->match[i],
                                                           .pending_head = SB_DXIL_NONE };
            if (e->kind == SB_DXIL_CF_SWITCH)
                sb_dxil_out_event(l->out, SB_DXIL_CF_SWITCH, e->a);
            else
                sb_dxil_out_event(l->out, SB_DXIL_CF_LOOP, 0);
            break;
        case SB_DXIL_SX_BLOCK_END:
        case SB_DXIL_SX_LOOP_END:
        case SB_DXIL_CF_ENDSWITCH:
            if (!close_construct(l))
                return false;
            break;
        case SB_DXIL_SX_BREAK_TO:
        case SB_DXIL_SX_CONTINUE_TO: {
            struct target t = { .is_continue = e->kind == SB_DXIL_SX_CONTINUE_TO, .label = e->a };
            if (!resolve(l, t, false))
                return false;
            break;
        }
        case SB_DXIL_SX_EDGE:
            sb_dxil_out_edge(l->out, e->a, e->b);
            break;
        case SB_DXIL_CF_ELSE:
            sb_dxil_out_event(l->out, l->else_closes[i] ? SB_DXIL_CF_ENDIF : SB_DXIL_CF_ELSE, 0);
            break;
        default:
            sb_dxil_out_event(l->out, (enum sb_dxil_cf_event_kind)e->kind, e->a);
            break;
        }
    }
    return l->depth == 0;
}

enum sb_result sb_dxil_lower_tree(const struct sb_dxil_cfg_info *info, struct sb_dxil_sx_list *sx,
                                  struct sb_dxil_out *out)
{
    uint32_t count = (uint32_t)sx->count, n = info->block_count;
    struct lower l = { .sx = sx->items, .count = count, .out = out, .depth = 0, .pool = NULL,
                      .pool_count = 0, .pool_capacity = 0 };
    /* Every array in one allocation, its size known up front (one malloc per function
     * instead of eleven: the allocator was ~5% of a DXIL translation): the u32 arrays, then
     * the open constructs (u32 fields), then the two bool arrays. */
    size_t c1 = (size_t)count + 1, n1 = (size_t)n + 1, most = (c1 > n1 ? c1 : n1);
    if (c1 > SIZE_MAX / 64 || n1 > SIZE_MAX / 64)
        return SB_ERROR_OUT_OF_MEMORY;
    size_t words = 4 * c1 + 2 * (size_t)n + most + n1;
    uint32_t *w = malloc(words * sizeof(uint32_t) + c1 * sizeof(struct open_construct) + 2 * c1);
    if (!w)
        return SB_ERROR_OUT_OF_MEMORY;
    void *slab = w;
    l.match = sb_dxil_take(&w, c1);
    l.fall = sb_dxil_take(&w, c1);
    uint32_t *parent = sb_dxil_take(&w, c1);
    uint32_t *jumps_to = sb_dxil_take(&w, c1);
    l.block_end_at = sb_dxil_take(&w, n);
    l.loop_end_at = sb_dxil_take(&w, n);
    uint32_t *stack = sb_dxil_take(&w, most);
    uint32_t *start = sb_dxil_take(&w, n1);
    l.open = (struct open_construct *)w; /* four u32 fields: u32 alignment is enough */
    l.removed = (bool *)(l.open + c1);
    l.else_closes = l.removed + c1;
    memset(start, 0, n1 * sizeof(uint32_t));
    memset(l.removed, 0, 2 * c1);
    match_constructs(&l, stack, parent);
    drop_redundant_jumps(&l);
    /* The surviving breaks grouped by the block they leave (stack reused as fill). */
    for (uint32_t i = 0; i < count; i++)
        if (l.sx[i].kind == SB_DXIL_SX_BREAK_TO && !l.removed[i])
            start[l.sx[i].a + 1]++;
    for (uint32_t b = 0; b < n; b++)
        start[b + 1] += start[b];
    for (uint32_t b = 0; b < n; b++)
        stack[b] = start[b];
    for (uint32_t i = 0; i < count; i++)
        if (l.sx[i].kind == SB_DXIL_SX_BREAK_TO && !l.removed[i])
            jumps_to[stack[l.sx[i].a]++] = i;
    drop_unneeded_blocks(&l, parent, start, jumps_to);
    unnest_else_arms(&l);
    enum sb_result r = write_events(&l) ? SB_SUCCESS : SB_ERROR_TRANSLATE_INVALID;
    free(l.pool);
    free(slab);
    return r;
}
