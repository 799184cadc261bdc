/* SPDX-License-Identifier: MIT */
/*
 * The undefined-behaviour detector of a tracked run (interp.h:
 * sb_interp_tracking::undefined, enum sb_interp_undefined_kind).
 *
 * Why: the interpreter runs racing invocations in one fixed order (lane
 * order within an instruction, instruction after instruction, batch after
 * batch), a device in another, and both are right. Validation must tell a
 * word that differs because of that from a word that differs because of a
 * bug, so this file records every UAV and g# access of a tracked run and
 * says which accesses D3D leaves unordered and which words they make
 * undefined.
 *
 * Ordering. An access is (invocation, epoch, instruction offset, time). Each
 * batch starts a fresh epoch from one run-wide clock; a `sync` with
 * threads-in-group moves the g# epoch on (with _g) and the UAV epoch (with
 * _ugroup or _uglobal): a fence without the group sync orders nothing
 * between invocations. Two accesses of different invocations are ordered
 * only when they are in one thread group and in different epochs of the
 * memory class. A program with sync or g# runs one group per batch
 * (interp_dispatch.c), so an access of an earlier batch is another group's
 * and ordered with nothing now; a batch of several groups (no sync, no g#)
 * has one epoch, where the group of each invocation decides. Vertex, pixel
 * and geometry invocations are never ordered.
 *
 * The shadow record of a 32-bit word (struct race_word; every texel format
 * the runtime knows is a whole number of words) holds its last write and the
 * reads since, as a list. A single "readers" field is not enough: a write
 * must find the reads of other invocations in its own epoch (or of another
 * group), ignoring its own and those a barrier put before it, and taint each
 * of those readers: one thread writing a word many others read (a broadcast
 * without a barrier) makes every reader's value undefined. A list holds at
 * most READS_KEPT reads; past that a racing write taints every invocation of
 * the batch (conservative, and only for words read that often between two
 * writes).
 *
 * What becomes undefined:
 *   - a word two unordered writes leave (WRITE_WRITE), unless the second
 *     stores the very value the first left: the outcome is the same in
 *     either order (benign races such as every thread setting a flag);
 *   - a word unordered atomics leave when its final value depends on their
 *     order: exchanges, compare-stores, or different operations
 *     (ATOMIC_ORDER); same commutative operations (add, or, min...) give one
 *     sum in any order;
 *   - an invocation that reads something undefined is "tainted" from then
 *     on: a read racing with a write (READ_WRITE, either order), the old
 *     value an atomic returned while others used the word atomically too
 *     (ATOMIC_ORDER), an append/consume counter value several invocations
 *     took, a g# word its group never wrote (UNINITIALIZED), a raced word, or
 *     a word a tainted invocation wrote after it was tainted (taint flows
 *     through memory, in any order). Accesses carry their time (the run's
 *     instruction count), so a taint found later (the second of two atomics
 *     shows the first one's result was order-dependent; a write shows an
 *     earlier read raced) dates from the access that saw the value. At the
 *     end of the run every UAV word whose final write came from an
 *     invocation after it was tainted is marked, and every output of a
 *     tainted vertex or pixel invocation (outputs are read at the end).
 *   Taint does not flow backwards: a read that a barrier put before a write
 *   is not tainted by a race of that write with a third invocation.
 *
 * The check of non-uniform range indices (interp_nonuniform.c) shares this clock, the event
 * list and the per-invocation taint (sb_interp_race_now / _event / _taint_from).
 *
 * Cost: nothing unless tracking asks for it (s->race is NULL; each access
 * site tests it once); with it, a record of 48 bytes per word of each UAV
 * and g#, allocated at the first access (calloc: untouched pages cost
 * nothing) and 16 bytes per read kept, a static scan for the r# components some instruction reads
 * (an atomic result or counter value nothing reads makes nothing
 * undefined), and 4 bytes per invocation.
 */
#include "interp_private.h"

#include <stdlib.h>
#include <string.h>
#include "translator/ir.h"
#include "translator/sm4.h"

#define READS_KEPT 4096u

/* One access. inv1 = invocation + 1 (0: none, so calloc'd records are empty). */
struct race_access {
    uint32_t inv1;
    uint32_t epoch;  /* of the memory class, when it was made */
    uint32_t inst;   /* byte offset of its instruction */
    uint32_t time;   /* when: the run's instruction count (s->executed, low 32 bits) */
};

enum { WORD_ATOMIC = 1, WORD_RETURNED = 2, WORD_RACED = 4, WORD_READS_LOST = 8 };

/* Atomic operations as far as order matters: commutative ones end in one value in any order. */
enum { OP_PLAIN = 0, OP_AND, OP_OR, OP_XOR, OP_ADD, OP_IMAX, OP_IMIN, OP_UMAX, OP_UMIN, OP_EXCH, OP_CMP };

struct race_word {
    struct race_access write;   /* the last write, plain or atomic */
    struct race_access *reads;  /* the reads since it (the array is kept for reuse) */
    uint32_t read_count, read_capacity;
    uint32_t value, compare;    /* the word after a plain write; an atomic's operands */
    uint32_t batch;             /* g#: the batch the record belongs to (an older one is empty) */
    uint32_t lost_time;         /* WORD_READS_LOST: the first read not kept */
    uint8_t flags;              /* WORD_* of the last write (READS_LOST: of the reads since) */
    uint8_t op;                 /* OP_* of the last write */
};

/* A UAV of the table or a g# declaration: the memory its records shadow. */
struct race_space {
    uintptr_t start, end;
    uint32_t resource;          /* table index; UINT32_MAX: g# */
    uint32_t gs_id;             /* g#: its id */
    struct race_word *words;    /* (end - start) / 4 records, from the first access */
};

/* The invocations that took values from one append/consume counter. */
struct race_counter {
    struct race_access first;
    bool several;
};

struct interp_race {
    uint8_t *temps_read;        /* per r#: the components some instruction reads (bit 0 = x) */
    uint32_t temp_count;
    struct race_space *spaces;
    uint32_t space_count, last; /* last: the space of the latest access (most accesses repeat it) */
    struct race_counter *counters; /* per resource of the table */
    uint32_t *taint;            /* per invocation: when it first saw an undefined value (0: never) */
    size_t taint_count;
    uint32_t first;             /* invocation of lane 0 of the batch */
    uint32_t group_size;        /* compute: invocations per group; 0: nothing is ordered */
    uint32_t clock, batch, epoch_g, epoch_u;
};

/* The time of an access now: the run's instruction count plus one, so that "from the access on"
 * (time - 1, see sb_interp_race_taint_from) is never 0, which marks an untainted invocation. */
uint32_t sb_interp_race_now(const struct interp_state *s)
{
    return (uint32_t)s->executed + 1;
}

/* Did the access's invocation see an undefined value before it (so what it wrote is undefined)?
 * Strictly before: an atomic whose returned value is undefined still adds a defined operand. */
static bool tainted(const struct interp_race *r, const struct race_access *a)
{
    size_t i = (size_t)a->inv1 - 1;
    return a->inv1 && i < r->taint_count && r->taint[i] && r->taint[i] < a->time;
}

/* The access's invocation sees an undefined value (at the access: taint may be found later, as
 * when a second atomic shows that the first one's result depended on the order). */
static void taint(struct interp_race *r, const struct race_access *a)
{
    size_t i = (size_t)a->inv1 - 1;
    if (a->inv1 && i < r->taint_count && (!r->taint[i] || a->time < r->taint[i]))
        r->taint[i] = a->time;
}

static bool unordered(const struct interp_race *r, const struct race_access *a, const struct race_access *me)
{
    if (!a->inv1 || a->inv1 == me->inv1)
        return false;
    if (!r->group_size || a->epoch < r->batch)
        return true;
    if ((a->inv1 - 1) / r->group_size != (me->inv1 - 1) / r->group_size)
        return true;
    return a->epoch == me->epoch;
}

/* Counts an event and keeps it while there is room; `a` NULL or empty: no first access. */
static void record(struct interp_state *s, enum sb_interp_undefined_kind kind, uint32_t resource, uint32_t gs_id,
                   uint64_t byte_offset, const struct race_access *a, const struct race_access *b)
{
    struct sb_interp_undefined_event *e = sb_interp_race_event(s);
    if (!e)
        return;
    e->kind = kind;
    e->resource = resource;
    e->group_shared_id = gs_id;
    e->byte_offset = byte_offset;
    e->invocation[0] = a && a->inv1 ? a->inv1 - 1 : UINT32_MAX;
    e->instruction[0] = a && a->inv1 ? a->inst : UINT32_MAX;
    e->invocation[1] = b->inv1 - 1;
    e->instruction[1] = b->inst;
}

static void word_event(struct interp_state *s, enum sb_interp_undefined_kind kind, const struct race_space *sp,
                       size_t word, const struct race_access *a, const struct race_access *b)
{
    record(s, kind, sp->resource, sp->gs_id, (uint64_t)word * 4, a, b);
}

static void mark(struct interp_state *s, const struct race_space *sp, size_t word)
{
    if (sp->resource != UINT32_MAX && s->track->undefined_word[sp->resource])
        s->track->undefined_word[sp->resource][word] = 1;
}

static uint8_t op_kind(uint32_t op)
{
    switch (op) {
    case SB_IR_OP_ATOMIC_AND: case SB_IR_OP_IMM_ATOMIC_AND: return OP_AND;
    case SB_IR_OP_ATOMIC_OR: case SB_IR_OP_IMM_ATOMIC_OR: return OP_OR;
    case SB_IR_OP_ATOMIC_XOR: case SB_IR_OP_IMM_ATOMIC_XOR: return OP_XOR;
    case SB_IR_OP_ATOMIC_IADD: case SB_IR_OP_IMM_ATOMIC_IADD: return OP_ADD;
    case SB_IR_OP_ATOMIC_IMAX: case SB_IR_OP_IMM_ATOMIC_IMAX: return OP_IMAX;
    case SB_IR_OP_ATOMIC_IMIN: case SB_IR_OP_IMM_ATOMIC_IMIN: return OP_IMIN;
    case SB_IR_OP_ATOMIC_UMAX: case SB_IR_OP_IMM_ATOMIC_UMAX: return OP_UMAX;
    case SB_IR_OP_ATOMIC_UMIN: case SB_IR_OP_IMM_ATOMIC_UMIN: return OP_UMIN;
    case SB_IR_OP_IMM_ATOMIC_EXCH: return OP_EXCH;
    /* 64-bit atomics: each DWORD half as the same operation (interp_atomic64.c). */
    case SB_IR_OP_IMM_ATOMIC64_AND: return OP_AND;
    case SB_IR_OP_IMM_ATOMIC64_OR: return OP_OR;
    case SB_IR_OP_IMM_ATOMIC64_XOR: return OP_XOR;
    case SB_IR_OP_IMM_ATOMIC64_IADD: return OP_ADD;
    case SB_IR_OP_IMM_ATOMIC64_IMAX: return OP_IMAX;
    case SB_IR_OP_IMM_ATOMIC64_IMIN: return OP_IMIN;
    case SB_IR_OP_IMM_ATOMIC64_UMAX: return OP_UMAX;
    case SB_IR_OP_IMM_ATOMIC64_UMIN: return OP_UMIN;
    case SB_IR_OP_IMM_ATOMIC64_EXCH: return OP_EXCH;
    default: return OP_CMP;
    }
}

/* Does the invocation get the atomic's old value: an imm_atomic_* whose destination is not null
 * and, for an r#, has a component some instruction reads (fxc keeps the imm_ form for a result
 * HLSL names but never uses, and a value nothing reads cannot make anything undefined)? */
static bool read_later(const struct interp_race *r, const struct sb_ir_operand *d)
{
    if (d->file == SB_IR_FILE_NULL)
        return false;
    if (d->file != SB_IR_FILE_TEMP || d->index_count < 1 || d->index[0].relative ||
        d->index[0].offset >= r->temp_count)
        return true;
    return (r->temps_read[d->index[0].offset] & d->mask) != 0;
}

static bool returns_value(const struct interp_race *r, const struct sb_ir_instruction *in)
{
    return ((in->op >= SB_IR_OP_IMM_ATOMIC_IADD && in->op <= SB_IR_OP_IMM_ATOMIC_UMIN) ||
            sb_ir_op_is_atomic64(in->op)) &&
           in->dst_count >= 2 && read_later(r, &in->dst[0]);
}

/* Marks the r# components `op` (and the relative indices inside it) reads. */
static void note_reads(struct interp_race *r, const struct sb_ir_operand *op, bool source)
{
    for (uint32_t k = 0; k < op->index_count && k < 3; k++)
        if (op->index[k].relative)
            note_reads(r, op->index[k].relative, true);
    if (!source || op->file != SB_IR_FILE_TEMP || op->index_count < 1 || op->index[0].relative ||
        op->index[0].offset >= r->temp_count)
        return;
    for (uint32_t c = 0; c < 4; c++)
        r->temps_read[op->index[0].offset] |= (uint8_t)(1u << (op->swizzle[c] & 3u));
}

/* Reads since the last write that race with `me`'s write: READ_WRITE each, the reader tainted;
 * then the list is emptied for the reads after `me`. */
static void racing_reads(struct interp_state *s, struct race_space *sp, size_t u, const struct race_access *me)
{
    struct interp_race *r = s->race;
    struct race_word *w = &sp->words[u];
    bool raced = false;
    for (uint32_t k = 0; k < w->read_count; k++)
        if (unordered(r, &w->reads[k], me)) {
            word_event(s, SB_INTERP_UNDEFINED_READ_WRITE, sp, u, &w->reads[k], me);
            taint(r, &w->reads[k]);
            raced = true;
        }
    if (raced && (w->flags & WORD_READS_LOST)) {
        uint32_t lanes = s->quad ? s->invocations / 4 : s->invocations;
        for (uint32_t l = 0; l < lanes; l++) {
            struct race_access lost = { r->first + l + 1, 0, 0, w->lost_time };
            if (lost.inv1 != me->inv1)
                taint(r, &lost);
        }
    }
    w->read_count = 0;
}

static void add_read(struct race_word *w, const struct race_access *me)
{
    if (w->read_count && w->reads[w->read_count - 1].inv1 == me->inv1 &&
        w->reads[w->read_count - 1].epoch == me->epoch)
        return; /* the same read again (a swizzle, a loop): the first one dates the taint */
    if (w->read_count == w->read_capacity) {
        uint32_t grown = w->read_capacity ? 2 * w->read_capacity : 4;
        struct race_access *reads = grown <= READS_KEPT ? realloc(w->reads, grown * sizeof(*reads)) : NULL;
        if (!reads) {
            if (!(w->flags & WORD_READS_LOST))
                w->lost_time = me->time;
            w->flags |= WORD_READS_LOST; /* the list is full (or memory is): see racing_reads */
            return;
        }
        w->reads = reads;
        w->read_capacity = grown;
    }
    w->reads[w->read_count++] = *me;
}

/* The word as it is now (after the access). */
static uint32_t word_value(const struct race_space *sp, size_t u)
{
    uint32_t v;
    memcpy(&v, (const uint8_t *)(sp->start + u * 4), 4);
    return v;
}

static void on_read(struct interp_state *s, struct race_space *sp, size_t u, const struct race_access *me)
{
    struct interp_race *r = s->race;
    struct race_word *w = &sp->words[u];
    if (sp->resource == UINT32_MAX && !w->write.inv1) {
        word_event(s, SB_INTERP_UNDEFINED_UNINITIALIZED, sp, u, NULL, me);
        taint(r, me);
    } else if (unordered(r, &w->write, me)) {
        word_event(s, SB_INTERP_UNDEFINED_READ_WRITE, sp, u, &w->write, me);
        taint(r, me);
    } else if ((w->flags & WORD_RACED) || tainted(r, &w->write)) {
        taint(r, me);
    }
    add_read(w, me);
}

static void on_write(struct interp_state *s, struct race_space *sp, size_t u, const struct race_access *me)
{
    struct interp_race *r = s->race;
    struct race_word *w = &sp->words[u];
    uint32_t now = word_value(sp, u);
    uint8_t flags = 0;
    if (unordered(r, &w->write, me)) {
        if (!(w->flags & WORD_ATOMIC) && w->value == now && !tainted(r, &w->write)) {
            flags = w->flags & WORD_RACED; /* the same value either way: nothing new is undefined */
        } else {
            word_event(s, SB_INTERP_UNDEFINED_WRITE_WRITE, sp, u, &w->write, me);
            if (w->flags & WORD_RETURNED)
                taint(r, &w->write); /* its atomic returned what it saw before or after this */
            flags = WORD_RACED;
        }
    }
    racing_reads(s, sp, u, me);
    w->write = *me;
    w->value = now;
    w->flags = flags;
    w->op = OP_PLAIN;
}

/* An atomic reads and writes the word (before the operation); value and compare: its operands. */
static void on_atomic(struct interp_state *s, struct race_space *sp, size_t u, const struct race_access *me,
                        uint32_t value, uint32_t compare)
{
    struct interp_race *r = s->race;
    struct race_word *w = &sp->words[u];
    bool returns = returns_value(r, s->inst);
    uint8_t op = op_kind(s->inst->op);
    bool raced = false;
    if (sp->resource == UINT32_MAX && !w->write.inv1) {
        word_event(s, SB_INTERP_UNDEFINED_UNINITIALIZED, sp, u, NULL, me);
        raced = true;
    } else if (unordered(r, &w->write, me)) {
        if (w->flags & WORD_ATOMIC) {
            /* Exchanges and compare-stores end in one value in any order only when they all
             * store the same value under the same comparison (every thread claiming a flag). */
            bool final_depends = op != w->op || ((op == OP_EXCH || op == OP_CMP) &&
                                                 (value != w->value || compare != w->compare));
            if (returns || (w->flags & WORD_RETURNED) || final_depends) {
                word_event(s, SB_INTERP_UNDEFINED_ATOMIC_ORDER, sp, u, &w->write, me);
                if (w->flags & WORD_RETURNED)
                    taint(r, &w->write);
                raced = final_depends;
                if (returns)
                    taint(r, me);
            }
        } else {
            word_event(s, SB_INTERP_UNDEFINED_WRITE_WRITE, sp, u, &w->write, me);
            raced = true;
        }
    }
    /* The new value derives from the old one: an undefined old value stays undefined. */
    raced |= (w->flags & WORD_RACED) || tainted(r, &w->write);
    if (raced && returns)
        taint(r, me);
    racing_reads(s, sp, u, me);
    w->write = *me;
    w->flags = (uint8_t)(WORD_ATOMIC | (returns ? WORD_RETURNED : 0) | (raced ? WORD_RACED : 0));
    w->op = op;
    w->value = value;
    w->compare = compare;
}

static struct race_space *find(struct interp_race *r, uintptr_t a)
{
    struct race_space *sp = &r->spaces[r->last];
    if (r->space_count && a >= sp->start && a < sp->end)
        return sp;
    for (uint32_t i = 0; i < r->space_count; i++)
        if (a >= r->spaces[i].start && a < r->spaces[i].end) {
            r->last = i;
            return &r->spaces[i];
        }
    return NULL;
}

/* The space of `address` with its records, and `lane`'s access; NULL when nothing is to record. */
static struct race_space *locate(struct interp_state *s, const void *address, uint32_t lane,
                                 struct race_access *me)
{
    struct interp_race *r = s->race;
    if (s->helper && (s->helper[lane] || s->discarded[lane]))
        return NULL; /* helpers and discarded pixels: their reads reach nothing a device keeps */
    struct race_space *sp = find(r, (uintptr_t)address);
    if (!sp)
        return NULL; /* a read-only t#: nothing writes it */
    size_t words = (sp->end - sp->start) / 4;
    if (!sp->words && !(sp->words = calloc(words ? words : 1, sizeof(*sp->words)))) {
        sb_interp_fail(s, SB_ERROR_OUT_OF_MEMORY, "out of memory");
        return NULL;
    }
    me->inv1 = r->first + (s->quad ? lane / 4 : lane) + 1;
    me->epoch = sp->resource == UINT32_MAX ? r->epoch_g : r->epoch_u;
    me->inst = (uint32_t)s->inst->offset;
    me->time = sb_interp_race_now(s);
    return sp;
}

/* The record of word `u`, emptied first when it is another group's g#. */
static bool fresh(const struct interp_race *r, struct race_space *sp, size_t u)
{
    if (u >= (sp->end - sp->start) / 4)
        return false;
    struct race_word *w = &sp->words[u];
    if (sp->resource == UINT32_MAX && w->batch != r->batch) {
        struct race_access *reads = w->reads;
        uint32_t capacity = w->read_capacity;
        memset(w, 0, sizeof(*w));
        w->reads = reads;
        w->read_capacity = capacity;
        w->batch = r->batch;
    }
    return true;
}

void sb_interp_race_access(struct interp_state *s, const void *address, uint32_t bytes, uint32_t lane,
                           enum interp_access kind)
{
    struct race_access me;
    struct race_space *sp = locate(s, address, lane, &me);
    if (!sp)
        return;
    size_t u = ((uintptr_t)address - sp->start) / 4;
    for (uint32_t k = 0; k < (bytes > 4 ? bytes / 4 : 1) && fresh(s->race, sp, u + k); k++) {
        if (kind == INTERP_ACCESS_READ)
            on_read(s, sp, u + k, &me);
        else
            on_write(s, sp, u + k, &me);
    }
}

void sb_interp_race_atomic(struct interp_state *s, const void *address, uint32_t lane, uint32_t value,
                           uint32_t compare)
{
    struct race_access me;
    struct race_space *sp = locate(s, address, lane, &me);
    size_t u = sp ? ((uintptr_t)address - sp->start) / 4 : 0;
    if (sp && fresh(s->race, sp, u))
        on_atomic(s, sp, u, &me, value, compare);
}

void sb_interp_race_counter(struct interp_state *s, const struct sb_rt_resource *resource, uint32_t lane)
{
    struct interp_race *r = s->race;
    size_t i = (size_t)(resource - s->resources);
    if (i >= s->resource_count)
        return;
    struct race_counter *c = &r->counters[i];
    if (s->inst->dst_count < 1 || !read_later(r, &s->inst->dst[0]))
        return;
    struct race_access me = { r->first + (s->quad ? lane / 4 : lane) + 1, r->epoch_u, (uint32_t)s->inst->offset,
                              sb_interp_race_now(s) };
    if (!c->first.inv1) {
        c->first = me;
        return;
    }
    if (c->first.inv1 == me.inv1 && !c->several)
        return;
    /* Several invocations take values: which one gets which depends on the order. */
    if (c->first.inv1 != me.inv1)
        record(s, SB_INTERP_UNDEFINED_ATOMIC_ORDER, (uint32_t)i, 0, UINT64_MAX, &c->first, &me);
    taint(r, &c->first);
    taint(r, &me);
    c->several = true;
}

void sb_interp_race_sync(struct interp_state *s, uint32_t sync_flags)
{
    struct interp_race *r = s->race;
    if (!(sync_flags & SB_SM4_SYNC_THREADS_IN_GROUP))
        return; /* a fence alone orders an invocation's own accesses, not two invocations' */
    if (sync_flags & SB_SM4_SYNC_GROUP_SHARED_MEMORY)
        r->epoch_g = ++r->clock;
    if (sync_flags & (SB_SM4_SYNC_UAV_GROUP | SB_SM4_SYNC_UAV_GLOBAL))
        r->epoch_u = ++r->clock;
}

void sb_interp_race_batch(struct interp_state *s, uint32_t first)
{
    struct interp_race *r = s->race;
    r->first = first;
    r->batch = r->epoch_g = r->epoch_u = ++r->clock;
    size_t need = (size_t)first + s->invocations;
    if (need <= r->taint_count)
        return;
    size_t grown = need > 2 * r->taint_count ? need : 2 * r->taint_count;
    uint32_t *t = realloc(r->taint, grown * sizeof(*t));
    if (!t) {
        sb_interp_fail(s, SB_ERROR_OUT_OF_MEMORY, "out of memory");
        return;
    }
    memset(t + r->taint_count, 0, (grown - r->taint_count) * sizeof(*t));
    r->taint = t;
    r->taint_count = grown;
}

void sb_interp_race_outputs(struct interp_state *s, uint32_t registers, uint32_t count)
{
    struct sb_interp_tracking *t = s->track;
    size_t per = (size_t)registers * 4, bytes = count * per;
    if (!t->output_undefined && !(t->output_undefined = calloc(bytes ? bytes : 1, 1))) {
        sb_interp_fail(s, SB_ERROR_OUT_OF_MEMORY, "out of memory");
        return;
    }
    /* Outputs are read at the end: any undefined value the invocation saw may be in them. */
    for (uint32_t i = 0; i < count && i < s->race->taint_count; i++)
        if (s->race->taint[i])
            memset(t->output_undefined + i * per, 1, per);
}

enum sb_result sb_interp_race_begin(struct interp_state *s)
{
    struct interp_race *r = calloc(1, sizeof(*r));
    const struct sb_ir_program *p = s->program;
    uint32_t n = s->resource_count + p->group_shared_count;
    if (r) {
        r->spaces = calloc(n ? n : 1, sizeof(*r->spaces));
        r->counters = calloc(s->resource_count ? s->resource_count : 1, sizeof(*r->counters));
    }
    s->race = r;
    if (!r || !r->spaces || !r->counters)
        return sb_interp_fail(s, SB_ERROR_OUT_OF_MEMORY, "out of memory");
    r->group_size = p->stage == SB_IR_STAGE_COMPUTE ? s->group_size : 0;
    r->temp_count = s->temp_count;
    if (!(r->temps_read = calloc(s->temp_count ? s->temp_count : 1, 1)))
        return sb_interp_fail(s, SB_ERROR_OUT_OF_MEMORY, "out of memory");
    for (uint32_t f = 0; f < p->function_count; f++)
        for (uint32_t i = 0; i < p->functions[f].instruction_count; i++) {
            const struct sb_ir_instruction *in = &p->functions[f].instructions[i];
            for (uint32_t k = 0; k < in->dst_count; k++)
                note_reads(r, &in->dst[k], false);
            for (uint32_t k = 0; k < in->src_count; k++)
                note_reads(r, &in->src[k], true);
        }
    for (uint32_t i = 0; i < s->resource_count; i++) {
        const struct sb_rt_resource *res = &s->resources[i];
        if (res->resource_class != SB_IR_RESOURCE_UAV || !res->data || res->size < 4)
            continue;
        struct race_space *sp = &r->spaces[r->space_count++];
        sp->start = (uintptr_t)res->data;
        sp->end = sp->start + res->size;
        sp->resource = i;
    }
    for (uint32_t i = 0; i < p->group_shared_count; i++) {
        struct race_space *sp = &r->spaces[r->space_count++];
        sp->start = (uintptr_t)s->gsm[i];
        sp->end = sp->start + (size_t)s->gsm_dwords[i] * 4;
        sp->resource = UINT32_MAX;
        sp->gs_id = p->group_shared[i].id;
    }
    return SB_SUCCESS;
}

void sb_interp_race_finish(struct interp_state *s)
{
    struct interp_race *r = s->race;
    for (uint32_t i = 0; i < r->space_count; i++) {
        struct race_space *sp = &r->spaces[i];
        size_t words = (sp->end - sp->start) / 4;
        for (size_t u = 0; sp->words && u < words; u++) {
            const struct race_word *w = &sp->words[u];
            if ((w->flags & WORD_RACED) || tainted(r, &w->write))
                mark(s, sp, u);
            free(w->reads);
        }
        free(sp->words);
    }
    free(r->spaces);
    free(r->temps_read);
    free(r->counters);
    free(r->taint);
    free(r);
    s->race = NULL;
}

void sb_interp_race_out_of_bounds(struct interp_state *s, uint32_t lane, uint32_t id, uint32_t element)
{
    struct interp_race *r = s->race;
    struct race_access me = { r->first + (s->quad ? lane / 4 : lane) + 1, r->epoch_u, (uint32_t)s->inst->offset,
                              sb_interp_race_now(s) };
    record(s, SB_INTERP_UNDEFINED_OUT_OF_BOUNDS, UINT32_MAX, id, (uint64_t)element * 16, NULL, &me);
    taint(r, &me);
}

uint32_t sb_interp_race_first(const struct interp_state *s)
{
    return s->race->first;
}

struct sb_interp_undefined_event *sb_interp_race_event(struct interp_state *s)
{
    struct sb_interp_tracking *t = s->track;
    t->undefined_events++;
    if (t->kept >= SB_INTERP_UNDEFINED_KEPT)
        return NULL;
    struct sb_interp_undefined_event *e = &t->events[t->kept++];
    memset(e, 0, sizeof(*e));
    return e;
}

void sb_interp_race_taint_from(struct interp_state *s, uint32_t invocation, uint32_t time)
{
    /* Strictly-before taint at time - 1 makes what the invocation does at `time` undefined too. */
    struct race_access a = { invocation + 1, 0, 0, time - 1 };
    taint(s->race, &a);
}
