/* SPDX-License-Identifier: MIT */
/*
 * Per-thread storage of the SPIR-V builder, kept from one module to the next.
 *
 * A translation used to start every module with empty streams and tables
 * and grow them through a dozen reallocs, each returning fresh memory that
 * the kernel had to fault in and the CPU had to pull into its caches; for the
 * small shaders that make up most workloads this was a large part of the
 * whole translation. Instead, sb_spv_builder_release() gives the buffers back
 * to this thread's workspace and the next sb_spv_builder_init() on the thread
 * takes them again, emptied: word streams by resetting their counts, hash
 * tables by a new generation number (an entry of another generation reads as
 * an empty slot), so nothing is cleared or copied.
 *
 * Each function of a module writes its own three streams (header, variables,
 * body), so modules of several functions (HS phases, subroutines) take spare
 * streams too, given back in function order (keep_function_streams).
 *
 * Limits keep one huge module from pinning its memory: a buffer over the
 * per-buffer limit, or one that would take the streams the thread keeps past
 * KEPT_BYTE_LIMIT, is freed as before. The workspace is freed when its thread
 * exits (thread_exit.h); the main thread's stays reachable until the
 * process ends.
 */
#include "spirv_builder.h"

#include "thread_exit.h"

#include <stdlib.h>
#include <string.h>

enum {
    SLOT_KEYS = SB_SPV_SECTION_COUNT,
    SLOT_FUNCTION, /* three slots: header, variables, body */
    SLOT_COUNT = SLOT_FUNCTION + 3,
    SPARE_PER_ROLE = 64,               /* extra function streams (subroutines, HS phases; the
                                          corpus has up to 53 functions in a module) */
    STREAM_WORD_LIMIT = 1u << 20,      /* 4 MiB */
    TABLE_ENTRY_LIMIT = 1u << 10, /* slots of a hash table kept (keep_table) */
};

/* All the streams a thread keeps together. */
#define KEPT_BYTE_LIMIT ((size_t)4 << 20)

struct workspace {
    bool in_use;
    struct sb_spv_stream slots[SLOT_COUNT];
    struct sb_spv_stream spare[3][SPARE_PER_ROLE];
    uint32_t spare_count[3];
    struct sb_spv_cache_entry *cache;
    uint32_t cache_capacity;
    struct sb_spv_const_entry *consts;
    uint32_t const_capacity;
    struct sb_spv_global *globals;
    uint32_t global_capacity;
    struct sb_spv_stream *fn_done;
    uint32_t fn_done_capacity;
    uint32_t generation;
    size_t kept_bytes; /* words of the streams in slots and spares, in bytes */
};

static _Thread_local struct workspace thread_workspace;
static _Thread_local bool thread_workspace_registered;

static void free_workspace(void *pointer)
{
    struct workspace *w = pointer;
    for (int i = 0; i < SLOT_COUNT; i++)
        free(w->slots[i].words);
    for (int r = 0; r < 3; r++)
        for (uint32_t i = 0; i < w->spare_count[r]; i++)
            free(w->spare[r][i].words);
    free(w->cache);
    free(w->consts);
    free(w->globals);
    free(w->fn_done);
    memset(w, 0, sizeof(*w));
}

/* The thread's workspace, registered for freeing at thread exit; NULL if that fails. */
static struct workspace *workspace(void)
{
    struct workspace *w = &thread_workspace;
    if (!thread_workspace_registered) {
        if (!sb_at_thread_exit(free_workspace, w))
            return NULL;
        thread_workspace_registered = true;
    }
    return w;
}

static size_t stream_bytes(const struct sb_spv_stream *s)
{
    return (size_t)s->capacity * sizeof(uint32_t);
}

static struct sb_spv_stream take_stream(struct workspace *w, struct sb_spv_stream *slot)
{
    struct sb_spv_stream s = *slot;
    w->kept_bytes -= stream_bytes(slot);
    s.count = 0;
    memset(slot, 0, sizeof(*slot));
    return s;
}

void sb_spv_storage_borrow(struct sb_spv_builder *b)
{
    b->generation = 1; /* fresh zeroed tables hold generation 0: all empty */
    struct workspace *w = workspace();
    if (!w || w->in_use)
        return;
    w->in_use = true;
    b->borrowed = true;
    for (int i = 0; i < SB_SPV_SECTION_COUNT; i++)
        b->sections[i] = take_stream(w, &w->slots[i]);
    b->keys = take_stream(w, &w->slots[SLOT_KEYS]);
    b->fn_header = take_stream(w, &w->slots[SLOT_FUNCTION]);
    b->fn_vars = take_stream(w, &w->slots[SLOT_FUNCTION + 1]);
    b->fn_body = take_stream(w, &w->slots[SLOT_FUNCTION + 2]);
    if (++w->generation == 0) {
        /* Wrapped: entries of generation 1 could be stale. */
        memset(w->cache, 0, w->cache_capacity * sizeof(*w->cache));
        memset(w->consts, 0, w->const_capacity * sizeof(*w->consts));
        w->generation = 1;
    }
    b->generation = w->generation;
    b->cache = w->cache;
    b->cache_capacity = w->cache_capacity;
    b->consts = w->consts;
    b->const_capacity = w->const_capacity;
    b->globals = w->globals;
    b->global_capacity = w->global_capacity;
    b->fn_done = w->fn_done;
    b->fn_done_capacity = w->fn_done_capacity;
    w->cache = NULL;
    w->consts = NULL;
    w->globals = NULL;
    w->fn_done = NULL;
    w->cache_capacity = w->const_capacity = w->global_capacity = w->fn_done_capacity = 0;
}

struct sb_spv_stream sb_spv_storage_function_stream(struct sb_spv_builder *b, uint32_t role)
{
    struct sb_spv_stream none = { 0 };
    if (!b->borrowed || role > 2 || !thread_workspace.spare_count[role])
        return none;
    struct workspace *w = &thread_workspace;
    return take_stream(w, &w->spare[role][--w->spare_count[role]]);
}

/* Can the thread keep `s` besides what it keeps already? */
static bool within_limits(const struct workspace *w, const struct sb_spv_stream *s)
{
    return s->capacity <= STREAM_WORD_LIMIT && w->kept_bytes + stream_bytes(s) <= KEPT_BYTE_LIMIT;
}

/* Keeps `s` in `slot` when the slot is free and the buffer within the limits. */
static bool keep_stream(struct workspace *w, struct sb_spv_stream *slot, struct sb_spv_stream *s)
{
    if (!s->words || slot->words || !within_limits(w, s))
        return false;
    *slot = *s;
    w->kept_bytes += stream_bytes(s);
    memset(s, 0, sizeof(*s));
    return true;
}

/* Stacks a function stream of `role` on the spares (an empty one too: it keeps the
 * order), or frees it past the limits. */
static void keep_spare(struct workspace *w, uint32_t role, struct sb_spv_stream *s)
{
    if (w->spare_count[role] < SPARE_PER_ROLE && within_limits(w, s)) {
        w->kept_bytes += stream_bytes(s);
        w->spare[role][w->spare_count[role]++] = *s;
    } else {
        free(s->words);
    }
    memset(s, 0, sizeof(*s));
}

/*
 * Function k's streams go back where the next module's function k takes them: function
 * 0's to the slots (borrowed at init), the others stacked from the last down, so that
 * the spares pop in function order, under them the streams taken for a function that
 * never began. The same shader translated again finds each stream as large as it
 * needs, so a module of several functions (HS phases, subroutines) grows none.
 */
static void keep_function_streams(struct workspace *w, struct sb_spv_builder *b)
{
    struct sb_spv_stream *open[3] = { &b->fn_header, &b->fn_vars, &b->fn_body };
    for (uint32_t role = 0; role < 3; role++) {
        if (!b->fn_done_count) {
            if (!keep_stream(w, &w->slots[SLOT_FUNCTION + role], open[role]))
                free(open[role]->words);
            continue;
        }
        keep_spare(w, role, open[role]);
        for (uint32_t i = b->fn_done_count - 3 + role; i >= 3; i -= 3)
            keep_spare(w, role, &b->fn_done[i]);
        if (!keep_stream(w, &w->slots[SLOT_FUNCTION + role], &b->fn_done[role]))
            free(b->fn_done[role].words);
    }
}

/*
 * A hash table to keep for the next module: at most TABLE_ENTRY_LIMIT slots, cut down
 * (every entry is of the finished module's generation, stale for the next) when a large
 * module grew it further. Sized for the largest module ever, a small module's few lookups
 * landed on lines spread over hundreds of KiB, each an L1 miss (perf: half the samples of
 * sb_spv_const32_slow on its first probe). NULL, capacity 0, when nothing is kept.
 */
static void *keep_table(void *table, uint32_t *capacity, size_t entry_size)
{
    if (*capacity <= TABLE_ENTRY_LIMIT)
        return table;
    void *smaller = realloc(table, (size_t)TABLE_ENTRY_LIMIT * entry_size);
    if (!smaller) {
        free(table);
        *capacity = 0;
        return NULL;
    }
    *capacity = TABLE_ENTRY_LIMIT;
    return smaller;
}

void sb_spv_storage_return(struct sb_spv_builder *b)
{
    if (!b->borrowed)
        return;
    struct workspace *w = &thread_workspace;
    for (int i = 0; i < SB_SPV_SECTION_COUNT; i++)
        if (!keep_stream(w, &w->slots[i], &b->sections[i]))
            free(b->sections[i].words);
    if (!keep_stream(w, &w->slots[SLOT_KEYS], &b->keys))
        free(b->keys.words);
    keep_function_streams(w, b);
    w->cache = keep_table(b->cache, &b->cache_capacity, sizeof(*b->cache));
    w->cache_capacity = b->cache_capacity;
    w->consts = keep_table(b->consts, &b->const_capacity, sizeof(*b->consts));
    w->const_capacity = b->const_capacity;
    w->globals = b->globals;
    w->global_capacity = b->global_capacity;
    w->fn_done = b->fn_done;
    w->fn_done_capacity = b->fn_done_capacity;
    w->in_use = false;
    b->borrowed = false;
}
