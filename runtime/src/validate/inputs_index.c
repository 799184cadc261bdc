/* SPDX-License-Identifier: MIT */
/*
 * Which seeded words a descriptor-range index is computed from, and those words
 * put back inside the range (validate.h, sb_validate; runtime/README.md
 * "Validation").
 *
 * Bindless SM5.1 shaders index ranges (`T0[r0.x]`) with values read from buffers
 * or constant buffers. Seeded data knows nothing of the range, so the index
 * usually lands outside it: the interpreter stops (D3D leaves such an access
 * undefined, a GPU may read anything or fault), and nothing is validated. The
 * words that feed the index are found by following the program's registers
 * back from the index operand. A read of a temp lane at instruction u is fed by
 * every write of that lane that may reach it: earlier in the function, later
 * in a loop around both (the next iteration), or in another function (r# is
 * shared with subroutines); kills are not looked for, so the walk may find more
 * than feeds the index, and reseeding those words too costs only variety. A
 * load feeds its buffer or texture (all of its data: which element is read
 * depends on the address, not on the words), a constant-buffer source the word
 * it names, and memory the program writes and reads back (x#, g#, u#) whatever
 * any of its stores were given. Values from outside the inputs (thread ids,
 * stage inputs, sizes) are noted as `other`: there only more descriptors help.
 *
 * Example (bindless_srv): `mov r0.x, vThreadID.x; ld r0.x, l(0), T1[r0.x + 4]`
 * reads r0.x before the load overwrites it, so only vThreadID feeds the index,
 * not T1 (a walk that ignored positions would reseed T1 for nothing).
 * Naive alternatives fail: making all integers small leaves `idx = data + 5`
 * outside a range of 4, and re-rolling the seed rarely lands every lane in range.
 */
#include "validate_private.h"

#include <stdlib.h>
#include <string.h>

#include "translator/ir.h"

/* A traced read: temp lane `lane` of r`id` read by instruction `at` of `function`, or a whole
 * x#/g#/u# (lane ALL_LANES, any position: memory is followed through every store). */
#define ALL_LANES 4u
#define MAX_USES 2048u

struct use {
    uint32_t file, id, lane;
    uint32_t function, at;
};

/* LOOP .. ENDLOOP of a function, by instruction index. */
struct loop {
    uint32_t function, start, end;
};

struct walk {
    const struct sb_ir_program *ir;
    struct sb_rt_index_sources *out;
    uint32_t use_count, loop_count;
    struct use uses[MAX_USES];
    struct loop *loops;
};

static uint32_t class_of_file(uint32_t file)
{
    switch (file) {
    case SB_IR_FILE_CONSTANT_BUFFER: return SB_IR_RESOURCE_CBV;
    case SB_IR_FILE_RESOURCE: return SB_IR_RESOURCE_SRV;
    case SB_IR_FILE_SAMPLER: return SB_IR_RESOURCE_SAMPLER;
    case SB_IR_FILE_UAV: return SB_IR_RESOURCE_UAV;
    default: return UINT32_MAX;
    }
}

/* The declaration an operand names (by class and id), or UINT32_MAX. */
static uint32_t decl_of(const struct sb_ir_program *ir, const struct sb_ir_operand *op)
{
    uint32_t cls = class_of_file(op->file);
    if (cls == UINT32_MAX || op->index_count < 1 || op->index[0].relative)
        return UINT32_MAX;
    for (uint32_t i = 0; i < ir->resource_count; i++)
        if (ir->resources[i].resource_class == cls && ir->resources[i].id == op->index[0].offset)
            return i;
    return UINT32_MAX;
}

static void add_use(struct walk *w, struct use u)
{
    if (u.lane == ALL_LANES)
        u.function = u.at = 0; /* memory: one use stands for all */
    for (uint32_t i = 0; i < w->use_count; i++) {
        const struct use *o = &w->uses[i];
        if (o->file == u.file && o->id == u.id && o->lane == u.lane && o->function == u.function && o->at == u.at)
            return;
    }
    if (w->use_count == MAX_USES) {
        w->out->truncated = true;
        return;
    }
    w->uses[w->use_count++] = u;
}

static void add_word(struct walk *w, uint32_t decl, uint32_t word)
{
    struct sb_rt_index_sources *o = w->out;
    for (uint32_t i = 0; i < o->word_count; i++)
        if (o->words[i].decl == decl && (o->words[i].word == word || o->words[i].word == UINT32_MAX))
            return;
    if (o->word_count == SB_RT_INDEX_WORDS_MAX) {
        o->truncated = true;
        return;
    }
    o->words[o->word_count++] = (struct sb_rt_index_word){ decl, word };
}

/* A value source read in `lanes` (bit i: lane i of the register) by instruction `at` of
 * `function`: what it is made of. */
static void read_value(struct walk *w, const struct sb_ir_operand *op, uint32_t lanes, uint32_t function,
                       uint32_t at, unsigned depth)
{
    if (!op->index_count && (op->file == SB_IR_FILE_TEMP || op->file == SB_IR_FILE_INDEXABLE_TEMP)) {
        w->out->other = true; /* not a register the walk can name */
        return;
    }
    switch (op->file) {
    case SB_IR_FILE_TEMP:
        for (uint32_t l = 0; l < 4; l++)
            if (lanes & (1u << l))
                add_use(w, (struct use){ SB_IR_FILE_TEMP, op->index[0].offset, l, function, at });
        break;
    case SB_IR_FILE_INDEXABLE_TEMP:
        add_use(w, (struct use){ SB_IR_FILE_INDEXABLE_TEMP, op->index[0].offset, ALL_LANES, 0, 0 });
        break;
    case SB_IR_FILE_CONSTANT_BUFFER: {
        uint32_t decl = decl_of(w->ir, op);
        const struct sb_ir_index *vector = op->index_count ? &op->index[op->index_count - 1] : NULL;
        if (decl == UINT32_MAX || !vector) {
            w->out->other = true; /* class linkage picks the buffer at run time */
            break;
        }
        for (uint32_t l = 0; l < 4; l++)
            if (lanes & (1u << l))
                add_word(w, decl, vector->relative ? UINT32_MAX : vector->offset * 4 + l);
        break;
    }
    case SB_IR_FILE_IMMEDIATE: case SB_IR_FILE_IMMEDIATE_CONSTANT_BUFFER:
        break; /* constants: nothing to reseed */
    default:
        w->out->other = true; /* thread ids, stage inputs, ... */
        break;
    }
    /* A relative index picks which word is read, so it shapes the value too. */
    for (uint32_t k = 0; k < op->index_count && depth < 4; k++)
        if (op->index[k].relative)
            read_value(w, op->index[k].relative, 1u << (op->index[k].relative->swizzle[0] & 3), function, at,
                       depth + 1);
}

static bool is_memory_kind(uint8_t kind)
{
    return kind == SB_IR_KIND_RESOURCE || kind == SB_IR_KIND_UAV || kind == SB_IR_KIND_MEMORY;
}

/* A t#/u#/g# an instruction reads: its data, and for u#/g# what the program stores there. */
static void read_memory(struct walk *w, const struct sb_ir_operand *op)
{
    if (op->file == SB_IR_FILE_GROUP_SHARED && op->index_count) {
        add_use(w, (struct use){ SB_IR_FILE_GROUP_SHARED, op->index[0].offset, ALL_LANES, 0, 0 });
        return;
    }
    uint32_t decl = decl_of(w->ir, op);
    if (decl == UINT32_MAX) {
        w->out->other = true;
        return;
    }
    add_word(w, decl, UINT32_MAX);
    if (op->file == SB_IR_FILE_UAV)
        add_use(w, (struct use){ SB_IR_FILE_UAV, op->index[0].offset, ALL_LANES, 0, 0 });
}

/* Whether a write by instruction `at` of `function` may reach use `u`. */
static bool reaches(const struct walk *w, uint32_t function, uint32_t at, const struct use *u)
{
    if (u->lane == ALL_LANES || function != u->function || at < u->at)
        return true;
    for (uint32_t i = 0; i < w->loop_count; i++) /* the next iteration of a loop around both */
        if (w->loops[i].function == function && w->loops[i].start < u->at && at < w->loops[i].end)
            return true;
    return false;
}

/* The lanes of `u` instruction `inst` writes (bit i: lane i; 0xF for memory), 0 if none. */
static uint32_t writes(const struct sb_ir_instruction *inst, const struct use *u, bool *store)
{
    *store = false;
    for (uint32_t k = 0; k < inst->dst_count; k++) {
        const struct sb_ir_operand *d = &inst->dst[k];
        if (d->file != u->file || !d->index_count || d->index[0].offset != u->id)
            continue;
        if (u->lane != ALL_LANES)
            return (d->mask >> u->lane & 1u) << u->lane;
        *store = d->file != SB_IR_FILE_INDEXABLE_TEMP;
        return 0xFu;
    }
    return 0;
}

/* Dot products mix every lane; 64-bit sources name lane pairs. */
static bool lanewise(const struct sb_ir_instruction *inst, const struct sb_ir_op_info *info, uint32_t k)
{
    return inst->op != SB_IR_OP_DP2 && inst->op != SB_IR_OP_DP3 && inst->op != SB_IR_OP_DP4 &&
           inst->op != SB_IR_OP_DPH && info->src_type[k] != SB_IR_TYPE_DOUBLE;
}

/* What instruction `at` of `function` writes into the lanes `lanes` is made of. */
static void sources_of(struct walk *w, uint32_t function, uint32_t at, uint32_t lanes, bool store)
{
    const struct sb_ir_instruction *inst = &w->ir->functions[function].instructions[at];
    const struct sb_ir_op_info *info = sb_ir_op_info(inst->op);
    /* A load's (or returning atomic's) value is its memory's: the address only picks a word. */
    bool loads = false;
    for (uint32_t k = 0; k < inst->src_count && k < SB_IR_OP_MAX_SOURCES; k++)
        if (is_memory_kind(info->src_kind[k]) && inst->src[k].file != SB_IR_FILE_RASTERIZER) {
            read_memory(w, &inst->src[k]);
            loads = true;
        }
    if (inst->dst_count == 2 && is_memory_kind(info->dst_kind[1]) && info->dst_kind[0] == SB_IR_KIND_VALUE) {
        read_memory(w, &inst->dst[1]);
        loads = true;
    }
    for (uint32_t k = 0; k < inst->src_count && k < SB_IR_OP_MAX_SOURCES; k++)
        if (info->src_kind[k] == SB_IR_KIND_TEXTURE_OR_UAV || inst->src[k].file == SB_IR_FILE_RASTERIZER)
            w->out->other = true; /* resinfo, bufinfo, sample_pos: sizes and patterns the runtime chose */
    if (loads && !store)
        return;
    for (uint32_t k = 0; k < inst->src_count && k < SB_IR_OP_MAX_SOURCES; k++) {
        if (info->src_kind[k] != SB_IR_KIND_VALUE)
            continue;
        const struct sb_ir_operand *s = &inst->src[k];
        uint32_t read = 0;
        for (uint32_t l = 0; l < 4; l++)
            if (!lanewise(inst, info, k) || (lanes & (1u << l)))
                read |= 1u << (s->swizzle[l] & 3);
        read_value(w, s, read, function, at, 0);
    }
}

/* Every write that may reach use `u`, followed to its sources. */
static void follow(struct walk *w, const struct use u)
{
    const struct sb_ir_program *ir = w->ir;
    for (uint32_t f = 0; f < ir->function_count; f++)
        for (uint32_t n = 0; n < ir->functions[f].instruction_count; n++) {
            const struct sb_ir_op_info *info = sb_ir_op_info(ir->functions[f].instructions[n].op);
            bool store;
            uint32_t lanes = info && !info->control_flow ? writes(&ir->functions[f].instructions[n], &u, &store) : 0;
            if (lanes && reaches(w, f, n, &u))
                sources_of(w, f, n, lanes, store);
        }
}

/* The range an index operand names: noted in `out` (once), with a literal index's need. */
static void note_range(struct sb_rt_index_sources *out, const struct sb_ir_program *ir, uint32_t decl,
                       const struct sb_ir_index *index)
{
    const struct sb_ir_resource *d = &ir->resources[decl];
    if (d->count == UINT32_MAX) {
        out->unbounded = true;
        if (!index->relative && index->offset + 1 > out->literal_end)
            out->literal_end = index->offset + 1;
    }
    uint32_t count = d->count == UINT32_MAX ? 0 : d->count ? d->count : 1;
    if (count && (!out->smallest_range || count < out->smallest_range))
        out->smallest_range = count;
    for (uint32_t i = 0; i < out->range_count; i++)
        if (out->ranges[i] == decl)
            return;
    if (out->range_count < SB_RT_INDEX_RANGES_MAX)
        out->ranges[out->range_count++] = decl;
}

/* Starts the walk at every range index of instruction `at` of `function`; false when it has none. */
static bool start(struct walk *w, uint32_t function, uint32_t at)
{
    const struct sb_ir_instruction *inst = &w->ir->functions[function].instructions[at];
    bool found = false;
    for (uint32_t k = 0; k < inst->src_count + inst->dst_count; k++) {
        const struct sb_ir_operand *op = k < inst->src_count ? &inst->src[k] : &inst->dst[k - inst->src_count];
        uint32_t slot = op->file == SB_IR_FILE_CONSTANT_BUFFER ? 3 : 2; /* [id][register][vector] */
        uint32_t decl = decl_of(w->ir, op);
        if (decl == UINT32_MAX || op->index_count < slot)
            continue;
        found = true;
        note_range(w->out, w->ir, decl, &op->index[1]);
        const struct sb_ir_operand *rel = op->index[1].relative;
        if (rel)
            read_value(w, rel, 1u << (rel->swizzle[0] & 3), function, at, 0);
    }
    return found;
}

/* LOOP .. ENDLOOP pairs of every function; false when out of memory. */
static bool find_loops(struct walk *w)
{
    const struct sb_ir_program *ir = w->ir;
    uint32_t total = 0;
    for (uint32_t f = 0; f < ir->function_count; f++)
        for (uint32_t n = 0; n < ir->functions[f].instruction_count; n++)
            total += ir->functions[f].instructions[n].op == SB_IR_OP_LOOP;
    w->loops = calloc(total ? total : 1, sizeof(*w->loops));
    if (!w->loops)
        return false;
    for (uint32_t f = 0; f < ir->function_count; f++) {
        uint32_t open[64], depth = 0; /* the IR validator bounds nesting well below this */
        for (uint32_t n = 0; n < ir->functions[f].instruction_count; n++) {
            uint32_t op = ir->functions[f].instructions[n].op;
            if (op == SB_IR_OP_LOOP && depth < 64)
                open[depth++] = n;
            else if (op == SB_IR_OP_ENDLOOP && depth && w->loop_count < total)
                w->loops[w->loop_count++] = (struct loop){ f, open[--depth], n };
        }
    }
    return true;
}

bool sb_rt_index_sources(const struct sb_ir_program *ir, uint32_t offset, struct sb_rt_index_sources *out)
{
    memset(out, 0, sizeof(*out));
    struct walk *w = calloc(1, sizeof(*w));
    if (!w || (w->ir = ir, w->out = out, !find_loops(w))) {
        if (w)
            free(w->loops);
        free(w);
        return false;
    }
    bool found = false;
    for (uint32_t f = 0; f < ir->function_count; f++)
        for (uint32_t n = 0; n < ir->functions[f].instruction_count; n++)
            if (ir->functions[f].instructions[n].offset == offset)
                found |= start(w, f, n);
    /* The uses found so far are the work list: following one may append more. */
    for (uint32_t i = 0; i < w->use_count; i++)
        follow(w, w->uses[i]);
    free(w->loops);
    free(w);
    return found;
}

/* Registers an index into `file` based at register `base` may reach: the dcl_indexrange
 * holding `base` (vicp and v# ranges are declared on either file), else `base` alone. */
static uint32_t input_registers(const struct sb_ir_program *ir, uint32_t file, uint32_t base)
{
    bool inputs = file == SB_IR_FILE_INPUT || file == SB_IR_FILE_INPUT_CONTROL_POINT;
    for (uint32_t i = 0; i < ir->index_range_count; i++) {
        const struct sb_ir_index_range *r = &ir->index_ranges[i];
        bool same = r->file == file ||
                    (inputs && (r->file == SB_IR_FILE_INPUT || r->file == SB_IR_FILE_INPUT_CONTROL_POINT));
        if (same && base >= r->first && base - r->first < r->count)
            return r->first + r->count - base;
    }
    return 1;
}

/* Starts the walk at the relative indices into arrayed stage inputs of instruction `at` of
 * `function`; *limit takes the fewest elements one of them may address. False when none. */
static bool start_input(struct walk *w, uint32_t function, uint32_t at, uint32_t *limit)
{
    const struct sb_ir_program *ir = w->ir;
    const struct sb_ir_instruction *inst = &ir->functions[function].instructions[at];
    bool found = false;
    for (uint32_t k = 0; k < inst->src_count; k++) {
        const struct sb_ir_operand *op = &inst->src[k];
        bool arrayed = (op->file == SB_IR_FILE_INPUT && op->index_count == 2 && ir->stage != SB_IR_STAGE_PIXEL &&
                        ir->stage != SB_IR_STAGE_VERTEX) ||
                       op->file == SB_IR_FILE_INPUT_CONTROL_POINT || op->file == SB_IR_FILE_OUTPUT_CONTROL_POINT;
        if (!arrayed || op->index_count != 2)
            continue;
        for (uint32_t slot = 0; slot < 2; slot++) {
            const struct sb_ir_operand *rel = op->index[slot].relative;
            if (!rel)
                continue;
            uint32_t points = ir->input_control_points;
            if (op->file == SB_IR_FILE_OUTPUT_CONTROL_POINT)
                points = ir->output_control_points;
            else if (ir->stage == SB_IR_STAGE_GEOMETRY)
                points = sb_interp_geometry_input_vertices(ir->gs_input_primitive);
            uint32_t n = slot == 0 ? (points > op->index[0].offset ? points - op->index[0].offset : 1)
                                   : input_registers(ir, op->file, op->index[1].offset);
            if (n < *limit)
                *limit = n;
            found = true;
            read_value(w, rel, 1u << (rel->swizzle[0] & 3), function, at, 0);
        }
    }
    return found;
}

uint32_t sb_rt_input_index_marks(const struct sb_ir_program *ir, struct sb_rt_index_mark *marks, uint32_t max)
{
    uint32_t n = 0;
    struct sb_rt_index_sources *out = calloc(1, sizeof(*out));
    struct walk *w = calloc(1, sizeof(*w));
    if (!out || !w || (w->ir = ir, w->out = out, !find_loops(w))) {
        if (w)
            free(w->loops);
        free(w);
        free(out);
        return 0;
    }
    for (uint32_t f = 0; f < ir->function_count; f++)
        for (uint32_t at = 0; at < ir->functions[f].instruction_count; at++) {
            uint32_t limit = UINT32_MAX;
            memset(out, 0, sizeof(*out));
            w->use_count = 0;
            if (!start_input(w, f, at, &limit))
                continue;
            for (uint32_t i = 0; i < w->use_count; i++)
                follow(w, w->uses[i]);
            for (uint32_t k = 0; k < out->word_count; k++) {
                uint32_t m = 0;
                while (m < n && !(marks[m].at.decl == out->words[k].decl && marks[m].at.word == out->words[k].word))
                    m++;
                if (m == n && n < max)
                    marks[n++] = (struct sb_rt_index_mark){ .at = out->words[k], .limit = limit, .integer = true };
                else if (m < n && limit < marks[m].limit)
                    marks[m].limit = limit;
            }
        }
    free(w->loops);
    free(w);
    free(out);
    return n;
}

/* The values a mark gives: seeded as every input is, but keyed apart from the first fill. */
static uint32_t index_value(uint8_t kind, uint64_t random, uint32_t limit)
{
    uint32_t v = (uint32_t)(random % (limit ? limit : 1));
    if (kind != SB_RT_WORD_FLOAT)
        return v;
    float f = (float)v;
    uint32_t bits;
    memcpy(&bits, &f, 4);
    return bits;
}

static bool in_range(const struct sb_ir_resource *d, const struct sb_rt_resource *r, uint32_t unbounded)
{
    uint32_t n = d->count == UINT32_MAX ? unbounded : d->count ? d->count : 1;
    return r->resource_class == d->resource_class && r->space == d->space && r->register_index >= d->lower_bound &&
           r->register_index - d->lower_bound < n;
}

void sb_rt_inputs_fit_indices(const struct sb_ir_program *ir, struct sb_rt_inputs *in,
                              const struct sb_rt_index_mark *marks, uint32_t mark_count,
                              uint32_t unbounded, uint64_t seed)
{
    for (uint32_t i = 0; i < in->count; i++) {
        struct sb_rt_resource *r = &in->resources[i];
        uint32_t *words = r->data;
        uint64_t count = r->size / 4;
        if (!words || r->format == SB_RT_FORMAT_D32_FLOAT)
            continue; /* depth stays in [0, 1] */
        uint64_t key = ((uint64_t)r->resource_class << 56) ^ ((uint64_t)r->space << 32) ^ r->register_index;
        uint64_t base = sb_rt_mix64(seed ^ sb_rt_mix64(key ^ 0x1D3Eu));
        for (uint32_t m = 0; m < mark_count; m++) {
            if (marks[m].at.decl >= ir->resource_count || !in_range(&ir->resources[marks[m].at.decl], r, unbounded))
                continue;
            uint64_t from = marks[m].at.word == UINT32_MAX ? 0 : marks[m].at.word;
            uint64_t to = marks[m].at.word == UINT32_MAX ? count : from + 1;
            for (uint64_t w = from; w < to && w < count; w++) {
                uint8_t kind = sb_rt_word_kind_of(in, i, w);
                if (kind == SB_RT_WORD_FLOAT || kind == SB_RT_WORD_INT || kind == SB_RT_WORD_UINT ||
                    kind == SB_RT_WORD_UNKNOWN)
                    words[w] = index_value(marks[m].integer ? SB_RT_WORD_UINT : kind, sb_rt_mix64(base + w),
                                           marks[m].limit);
            }
        }
    }
}
