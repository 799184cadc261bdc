/* SPDX-License-Identifier: MIT */
/*
 * Non-uniform range indices of a tracked run (interp.h: SB_INTERP_UNDEFINED_NON_UNIFORM_INDEX).
 *
 * Why: an SM5.1 range (T0[r0.x], CB1[r1.y][2], ...) becomes a descriptor array in the SPIR-V,
 * and Vulkan requires its index to be dynamically uniform (the same in every invocation of the
 * invocation group that executes the instruction) unless the access is decorated NonUniform,
 * which the translation does only for operands HLSL marked NonUniformResourceIndex. A device
 * may then fetch one descriptor for the whole group (a scalar register on most GPUs), so every
 * invocation can get any of the group's resources. The interpreter binds each lane its own
 * resource, which is one of the allowed outcomes but not the only one: a device that differs
 * here is not wrong, and validation must say so instead of reporting a bug.
 *
 * What is checked: every source or destination operand of the program that indexes a t#, s#,
 * u# or cb# range relatively without the flag is a "site" (found once at the start). Vulkan's
 * rule is per dynamic instance of the instruction: a loop may index T0[i] with a different i
 * in each iteration as long as all invocations agree within one iteration. So the registers
 * are compared only between invocations of one group at one dynamic instance. The invocation
 * group is a compute thread group, and for the other stages the whole run (Vulkan's group for
 * graphics is the draw). A compute batch holds whole groups and runs in lockstep, so one
 * execution of the instruction over a batch is one dynamic instance per group: the reference
 * is the group's first active lane there. Vertex, pixel, geometry, hull and domain runs span
 * many batches: the k-th execution of the site in a batch is taken as the same dynamic instance
 * as the k-th of every other batch (the batches run the same program in lockstep; where their
 * control flow differs, the pairing is an approximation), and the reference is the first lane
 * that reached that k. A site keeps, per invocation of the current group, the time of its
 * first use (the race detector's clock), because the difference may show after earlier uses
 * by the same group (another batch): then every invocation that used the site is tainted from
 * its first use on (so a store through the range is undefined too; earlier, uniform dynamic
 * instances of a loop are tainted with it, which errs on the safe side), and later uses in that
 * group are tainted as they happen. Helper and discarded pixel lanes are skipped: their
 * results reach nothing kept, and counting them would call uniform-by-pixel draws non-uniform
 * because of the helpers' made-up neighbours.
 *
 * Cost: nothing on untracked runs (s->nonuniform is NULL; the two call sites test it once per
 * relatively indexed range operand and instruction); tracked, one binary search per such
 * operand and instruction, one pass over the lanes, 4 bytes per invocation of a group per site.
 */
#include "interp_private.h"

#include <stdlib.h>
#include <string.h>
#include "translator/ir.h"

/* The first use of one dynamic instance: the reference the other invocations must match. */
struct nonuniform_use {
    uint32_t invocation1;              /* invocation + 1; 0: not reached yet (zero-filled arrays) */
    uint32_t index;                    /* its index into the range */
};

struct nonuniform_site {
    const struct sb_ir_operand *op;    /* the range operand (the key: operands live in the program) */
    uint64_t executed;                 /* s->executed when last checked: one check per execution */
    uint32_t batch_first;              /* the batch of `instance` (its first invocation) */
    uint32_t instance;                 /* executions of the site in that batch */
    struct nonuniform_use *instances;  /* graphics runs: per execution ordinal, the first use */
    size_t instance_count;
    /* Per invocation from `base` (compute: the batch's first, graphics: 0): the time of its
     * first use, 0 none; compute clears it with each batch (a batch holds whole groups). */
    uint32_t *times;
    size_t time_count;
    uint8_t *reported;                 /* per group (compute: of the batch; graphics: one): event recorded */
    size_t reported_count;
};

struct interp_nonuniform {
    struct nonuniform_site *sites;     /* sorted by operand address */
    uint32_t count;
};

/* A range operand whose register index is relative and not marked NonUniformResourceIndex:
 * t#/s#/u# [id][index], cb# [id][index][vector]. Class linkage's t[r] (index[0]) is not a range. */
static bool is_site(const struct sb_ir_operand *op)
{
    switch (op->file) {
    case SB_IR_FILE_RESOURCE: case SB_IR_FILE_SAMPLER: case SB_IR_FILE_UAV:
        return op->index_count >= 2 && op->index[1].relative && !op->non_uniform;
    case SB_IR_FILE_CONSTANT_BUFFER:
        return op->index_count >= 3 && op->index[1].relative && !op->non_uniform;
    default:
        return false;
    }
}

static int by_address(const void *a, const void *b)
{
    uintptr_t x = (uintptr_t)((const struct nonuniform_site *)a)->op;
    uintptr_t y = (uintptr_t)((const struct nonuniform_site *)b)->op;
    return x < y ? -1 : x > y;
}

/* Visits every operand of the program; with `sites` NULL only counts the sites. */
static uint32_t collect(const struct sb_ir_program *p, struct nonuniform_site *sites)
{
    uint32_t n = 0;
    for (uint32_t f = 0; f < p->function_count; f++)
        for (uint32_t i = 0; i < p->functions[f].instruction_count; i++) {
            const struct sb_ir_instruction *in = &p->functions[f].instructions[i];
            for (uint32_t k = 0; k < in->dst_count + in->src_count; k++) {
                const struct sb_ir_operand *op = k < in->dst_count ? &in->dst[k] : &in->src[k - in->dst_count];
                if (!is_site(op))
                    continue;
                if (sites)
                    sites[n] = (struct nonuniform_site){ .op = op, .batch_first = UINT32_MAX };
                n++;
            }
        }
    return n;
}

enum sb_result sb_interp_nonuniform_begin(struct interp_state *s)
{
    uint32_t n = collect(s->program, NULL);
    if (!n)
        return SB_SUCCESS; /* nothing to check: s->nonuniform stays NULL, as untracked */
    struct interp_nonuniform *u = calloc(1, sizeof(*u));
    if (u)
        u->sites = calloc(n, sizeof(*u->sites));
    if (!u || !u->sites) {
        free(u);
        return sb_interp_fail(s, SB_ERROR_OUT_OF_MEMORY, "out of memory");
    }
    u->count = collect(s->program, u->sites);
    qsort(u->sites, u->count, sizeof(*u->sites), by_address);
    s->nonuniform = u;
    return SB_SUCCESS;
}

void sb_interp_nonuniform_finish(struct interp_state *s)
{
    struct interp_nonuniform *u = s->nonuniform;
    for (uint32_t i = 0; u && i < u->count; i++) {
        free(u->sites[i].times);
        free(u->sites[i].instances);
        free(u->sites[i].reported);
    }
    if (u)
        free(u->sites);
    free(u);
    s->nonuniform = NULL;
}

static struct nonuniform_site *find(struct interp_nonuniform *u, const struct sb_ir_operand *op)
{
    struct nonuniform_site key = { .op = op };
    return bsearch(&key, u->sites, u->count, sizeof(*u->sites), by_address);
}

/* Grows a zero-filled array of `size`-byte items to hold item `k`; false on memory exhaustion
 * (recorded). */
static bool hold(struct interp_state *s, void **array, size_t *count, size_t size, size_t k)
{
    if (k < *count)
        return true;
    size_t grown = 2 * *count > k + 1 ? 2 * *count : k + 1;
    uint8_t *a = realloc(*array, grown * size);
    if (!a) {
        sb_interp_fail(s, SB_ERROR_OUT_OF_MEMORY, "out of memory");
        return false;
    }
    memset(a + *count * size, 0, (grown - *count) * size);
    *array = a;
    *count = grown;
    return true;
}

/* The indices differ: the event, and every invocation of the group (times[from, to)) that used
 * the site is tainted from its first use on. */
static void report(struct interp_state *s, struct nonuniform_site *site, uint32_t base, size_t from, size_t to,
                   const struct nonuniform_use *reference, uint32_t invocation, uint32_t index)
{
    const struct sb_ir_operand *op = site->op;
    const struct sb_ir_resource *d = sb_interp_decl(s, op->file, op->index[0].offset);
    struct sb_interp_undefined_event *e = sb_interp_race_event(s);
    if (e) {
        e->kind = SB_INTERP_UNDEFINED_NON_UNIFORM_INDEX;
        e->resource = UINT32_MAX;
        e->invocation[0] = reference->invocation1 - 1;
        e->invocation[1] = invocation;
        e->instruction[0] = e->instruction[1] = (uint32_t)s->inst->offset;
        e->range_class = (enum sb_ir_resource_class)sb_interp_resource_class(op->file);
        e->range_space = d ? d->space : 0;
        e->range_lower_bound = d ? d->lower_bound : op->index[0].offset;
        e->range_register[0] = e->range_lower_bound + reference->index;
        e->range_register[1] = e->range_lower_bound + index;
    }
    for (size_t k = from; k < to && k < site->time_count; k++)
        if (site->times[k])
            sb_interp_race_taint_from(s, base + (uint32_t)k, site->times[k]);
}

void sb_interp_nonuniform_check(struct interp_state *s, const struct sb_ir_operand *op, const uint32_t *index)
{
    struct nonuniform_site *site = find(s->nonuniform, op);
    if (!site || site->executed == s->executed)
        return;
    site->executed = s->executed;
    uint32_t first = sb_interp_race_first(s), now = sb_interp_race_now(s);
    uint32_t group_size = s->program->stage == SB_IR_STAGE_COMPUTE && s->group_size ? s->group_size : 0;
    if (site->batch_first != first) {
        site->batch_first = first;
        site->instance = 0;
        if (group_size) { /* a compute batch holds whole groups: the last batch's are done */
            if (site->times)
                memset(site->times, 0, site->time_count * sizeof(*site->times));
            if (site->reported)
                memset(site->reported, 0, site->reported_count);
        }
    }
    size_t instance = site->instance++;
    if (!group_size && !hold(s, (void **)&site->instances, &site->instance_count, sizeof(*site->instances), instance))
        return;
    uint32_t base = group_size ? first : 0, group = UINT32_MAX;
    struct nonuniform_use local = { .invocation1 = 0, .index = 0 };
    struct nonuniform_use *reference = group_size ? &local : &site->instances[instance];
    for (uint32_t l = 0; l < s->lanes; l++) {
        if (!s->active[l] || (s->helper && (s->helper[l] || s->discarded[l])))
            continue;
        uint32_t invocation = first + (s->quad ? l / 4 : l);
        size_t k = invocation - base;
        if (group_size && (invocation - first) / group_size != group) {
            group = (invocation - first) / group_size;
            local.invocation1 = 0; /* this group's first active lane is its reference */
        }
        size_t g = group_size ? group : 0;
        if (!hold(s, (void **)&site->times, &site->time_count, sizeof(*site->times), k) ||
            !hold(s, (void **)&site->reported, &site->reported_count, 1, g))
            return;
        if (!site->times[k])
            site->times[k] = now;
        if (!reference->invocation1) {
            *reference = (struct nonuniform_use){ .invocation1 = invocation + 1, .index = index[l] };
        } else if (!site->reported[g] && index[l] != reference->index) {
            site->reported[g] = 1;
            size_t from = group_size ? g * group_size : 0, to = group_size ? from + group_size : site->time_count;
            report(s, site, base, from, to, reference, invocation, index[l]);
        } else if (site->reported[g]) {
            sb_interp_race_taint_from(s, invocation, now);
        }
    }
}
