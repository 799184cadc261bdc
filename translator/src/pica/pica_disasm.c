/* SPDX-License-Identifier: MIT */
/*
 * SHBIN -> picasso-syntax disassembler (sb_pica_disassemble). picasso has no
 * syntax for raw branch fields: calls name procedures, ifc/ifu/for open
 * blocks closed by .else/.end, jumps name labels. So the code is first
 * analysed: entry points and call targets become .proc ranges, if/loop
 * ranges that nest properly become blocks, jump targets become labels.
 * Anything picasso cannot spell (crossing ranges, unused fields set,
 * invalid words) is written as a `.word` extension with the decoded form as
 * a comment, so the text always reassembles to the same code words.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pica_disasm_private.h"

const struct dis_proc *dis_find_proc(const struct dis_state *state, uint32_t start, uint32_t end)
{
    for (uint32_t i = 0; i < state->proc_count; ++i)
        if (state->procs[i].start == start && state->procs[i].end == end)
            return &state->procs[i];
    return NULL;
}

/* Accepts [start, end) when it equals a known range or overlaps none. */
static bool claim_range(struct dis_state *state, uint32_t start, uint32_t end, const char *name)
{
    if (start >= end || end > state->count)
        return false;
    if (dis_find_proc(state, start, end))
        return true;
    for (uint32_t i = 0; i < state->proc_count; ++i)
        if (start < state->procs[i].end && state->procs[i].start < end)
            return false;
    if (state->proc_count == DIS_MAX_PROCS)
        return false;
    struct dis_proc *proc = &state->procs[state->proc_count++];
    proc->start = start;
    proc->end = end;
    snprintf(proc->name, sizeof(proc->name), "%s", name);
    return true;
}

static bool is_call(enum sb_pica_opcode op)
{
    return op == SB_PICA_OP_CALL || op == SB_PICA_OP_CALLC || op == SB_PICA_OP_CALLU;
}

/* Fields picasso always writes as zero / can spell; false forces .word. */
static bool spellable(const struct sb_pica_instruction *in, uint32_t count)
{
    char cond[48];
    if (in->unused_bits)
        return false;
    switch (in->opcode) {
    case SB_PICA_OP_CALL:
        return !in->refx && !in->refy && in->condition == SB_PICA_CONDITION_OR;
    case SB_PICA_OP_CALLC:
    case SB_PICA_OP_IFC:
        return pica_condition_text(in, cond, sizeof(cond));
    case SB_PICA_OP_JMPC:
        return pica_condition_text(in, cond, sizeof(cond)) && in->flow_num == 0 &&
               in->flow_dest <= count;
    case SB_PICA_OP_JMPU:
        return (in->flow_num & ~1u) == 0 && in->flow_dest <= count;
    case SB_PICA_OP_LOOP:
        return in->flow_num == 0;
    case SB_PICA_OP_BREAKC:
        return pica_condition_text(in, cond, sizeof(cond)) && in->flow_dest == 0 &&
               in->flow_num == 0;
    default:
        return true;
    }
}

/*
 * The entry procedure of DVLE d: its [main, end) range when that can be a
 * procedure; else (an empty or crossing range) one word at main, any
 * procedure already known, or the whole program, so the text always names
 * an entry that exists. Only the first choice reproduces the DVLE's range.
 */
static void claim_entry(struct dis_state *state, uint32_t d, const char *name)
{
    const struct sb_shbin_dvle *dvle = &state->shbin->dvles[d];
    uint32_t main = dvle->main_address;
    if (claim_range(state, main, dvle->end_address, name))
        state->entry[d] = dis_find_proc(state, main, dvle->end_address);
    else if (claim_range(state, main, main + 1, name))
        state->entry[d] = dis_find_proc(state, main, main + 1);
    else if (state->proc_count)
        state->entry[d] = &state->procs[0];
    else if (claim_range(state, 0, state->count, name))
        state->entry[d] = &state->procs[0];
}

static void analyse(struct dis_state *state)
{
    const struct sb_shbin *shbin = state->shbin;
    for (uint32_t d = 0; d < shbin->dvle_count && d < DIS_MAX_DVLES; ++d) {
        char name[32];
        if (d == 0)
            snprintf(name, sizeof(name), "main");
        else
            snprintf(name, sizeof(name), "main%u", (unsigned)d);
        claim_entry(state, d, name);
    }
    for (uint32_t a = 0; a < state->count; ++a) {
        const struct sb_pica_instruction *in = &state->code[a];
        state->raw[a] = !state->valid[a] || !spellable(in, state->count);
        if (state->raw[a])
            continue;
        if (is_call(in->opcode)) {
            char name[32];
            snprintf(name, sizeof(name), "proc_%u", (unsigned)in->flow_dest);
            if (!claim_range(state, in->flow_dest, in->flow_dest + in->flow_num, name))
                state->raw[a] = true;
        } else if (in->opcode == SB_PICA_OP_JMPC || in->opcode == SB_PICA_OP_JMPU) {
            state->label[in->flow_dest] = true;
        }
    }
}

/*
 * Replays picasso's descriptor allocation over the words that will be
 * printed as instructions. When that reproduces every DESC field and the
 * whole table, the text needs nothing more; otherwise the table is written
 * with `.opdesc` and each instruction whose first matching entry is not the
 * one it names becomes a `.word`.
 */
static void check_descriptors(struct dis_state *state)
{
    const struct sb_shbin_program *p = &state->shbin->program;
    struct pica_opdesc_table table = {0};
    uint32_t *index = calloc(state->count + 1, sizeof(uint32_t));
    bool same = index != NULL;
    for (uint32_t a = 0; same && a < state->count; ++a) {
        const struct sb_pica_instruction *in = &state->code[a];
        if (state->raw[a] || !in->has_descriptor)
            continue;
        uint32_t x, y;
        int got = pica_opdesc_allocate(&table, in->opcode, pica_opdesc_of(in), &x, &y);
        if (got < 0) {
            same = false;
            break;
        }
        for (uint32_t b = 0; x != y && b < a; ++b)
            if (!state->raw[b] && state->code[b].has_descriptor &&
                state->code[b].opcode != SB_PICA_OP_MAD && state->code[b].opcode != SB_PICA_OP_MADI)
                index[b] = index[b] == x ? y : index[b] == y ? x : index[b];
        index[a] = (uint32_t)got;
    }
    for (uint32_t a = 0; same && a < state->count; ++a)
        if (!state->raw[a] && state->code[a].has_descriptor &&
            index[a] != state->code[a].descriptor_index)
            same = false;
    uint32_t count = p->operand_descriptor_count;
    same = same && table.count == count;
    for (uint32_t i = 0; same && i < count; ++i)
        same = table.word[i] == p->operand_descriptors[i].word;
    free(index);
    state->fixed_descriptors = !same;
    if (same)
        return;
    struct pica_opdesc_table fixed = {.count = count, .fixed = true};
    for (uint32_t i = 0; i < count && i < SB_SHBIN_MAX_OPERAND_DESCRIPTORS; ++i)
        fixed.word[i] = p->operand_descriptors[i].word;
    for (uint32_t a = 0; a < state->count; ++a) {
        const struct sb_pica_instruction *in = &state->code[a];
        uint32_t x, y;
        if (!state->raw[a] && in->has_descriptor &&
            pica_opdesc_allocate(&fixed, in->opcode, pica_opdesc_of(in), &x, &y) !=
                (int)in->descriptor_index)
            state->raw[a] = true;
    }
}

static void write_descriptor_table(struct dis_state *state)
{
    const struct sb_shbin_program *p = &state->shbin->program;
    if (!state->fixed_descriptors || p->operand_descriptor_count == 0)
        return;
    pica_text_append(&state->text, "; operand descriptors as stored (picasso would build "
                                   "another table)\n");
    for (uint32_t i = 0; i < p->operand_descriptor_count; ++i)
        pica_text_append(&state->text, "%s0x%08X%s", i % 8 ? ", " : ".opdesc ",
                         (unsigned)p->operand_descriptors[i].word,
                         (i % 8 == 7 || i + 1 == p->operand_descriptor_count) ? "\n" : "");
}

struct dis_block {
    bool is_if, has_else, in_else;
    uint32_t else_at, end;
};

struct dis_walk {
    struct dis_block blocks[32];
    uint32_t depth;
    const struct dis_proc *proc; /**< open procedure */
};

static uint32_t region_limit(const struct dis_state *state, const struct dis_walk *walk,
                             uint32_t address)
{
    uint32_t limit = walk->proc ? walk->proc->end : state->count;
    if (!walk->proc)
        for (uint32_t i = 0; i < state->proc_count; ++i)
            if (state->procs[i].start > address && state->procs[i].start < limit)
                limit = state->procs[i].start;
    for (uint32_t i = 0; i < walk->depth; ++i) {
        const struct dis_block *b = &walk->blocks[i];
        uint32_t end = (b->is_if && b->has_else && !b->in_else) ? b->else_at : b->end;
        if (end < limit)
            limit = end;
    }
    return limit;
}

/* Opens a block for ifc/ifu/for at address a, or marks the word raw. */
static void open_block(struct dis_state *state, struct dis_walk *walk, uint32_t a)
{
    const struct sb_pica_instruction *in = &state->code[a];
    struct dis_block block = {0};
    if (in->opcode == SB_PICA_OP_LOOP) {
        block.end = in->flow_dest + 1;
        if (in->flow_dest < a)
            block.end = 0;
    } else {
        block.is_if = true;
        block.has_else = in->flow_num != 0;
        block.else_at = in->flow_dest;
        block.end = in->flow_dest + in->flow_num;
        if (in->flow_dest <= a)
            block.end = 0;
    }
    if (block.end == 0 || block.end > region_limit(state, walk, a) ||
        walk->depth == sizeof(walk->blocks) / sizeof(walk->blocks[0])) {
        state->raw[a] = true;
        return;
    }
    walk->blocks[walk->depth++] = block;
}

/* .else / .end lines due before address a. */
static void close_blocks(struct dis_state *state, struct dis_walk *walk, uint32_t a)
{
    while (walk->depth) {
        struct dis_block *top = &walk->blocks[walk->depth - 1];
        if (top->is_if && top->has_else && !top->in_else && top->else_at == a) {
            top->in_else = true;
            pica_text_append(&state->text, "%*s.else\n", 4 * (int)walk->depth - 4 + 4, "");
            continue;
        }
        if (top->end == a) {
            walk->depth--;
            pica_text_append(&state->text, "%*s.end\n", 4 * (int)walk->depth + 4, "");
            continue;
        }
        break;
    }
}

static bool float_name(void *context, uint32_t index, char *buffer, size_t size)
{
    const struct dis_state *state = context;
    if (index >= 96 || !state->float_names[index][0])
        return false;
    snprintf(buffer, size, "%s", state->float_names[index]);
    return true;
}

static const char *proc_name(const struct dis_state *state, const struct sb_pica_instruction *in)
{
    const struct dis_proc *proc = dis_find_proc(state, in->flow_dest, in->flow_dest + in->flow_num);
    return proc ? proc->name : "?";
}

static void instruction_text(struct dis_state *state, uint32_t a, char *buffer, size_t size)
{
    const struct sb_pica_instruction *in = &state->code[a];
    struct pica_names names = {float_name, state};
    char cond[48];
    pica_condition_text(in, cond, sizeof(cond));
    switch (in->opcode) {
    case SB_PICA_OP_CALL: snprintf(buffer, size, "call %s", proc_name(state, in)); break;
    case SB_PICA_OP_CALLC: snprintf(buffer, size, "callc %s, %s", cond, proc_name(state, in)); break;
    case SB_PICA_OP_CALLU:
        snprintf(buffer, size, "callu b%u, %s", (unsigned)in->bool_id, proc_name(state, in));
        break;
    case SB_PICA_OP_JMPC:
        snprintf(buffer, size, "jmpc %s, label_%u", cond, (unsigned)in->flow_dest);
        break;
    case SB_PICA_OP_JMPU:
        snprintf(buffer, size, "jmpu %sb%u, label_%u", in->jmpu_inverted ? "!" : "",
                 (unsigned)in->bool_id, (unsigned)in->flow_dest);
        break;
    case SB_PICA_OP_IFC: snprintf(buffer, size, "ifc %s", cond); break;
    case SB_PICA_OP_IFU: snprintf(buffer, size, "ifu b%u", (unsigned)in->bool_id); break;
    case SB_PICA_OP_LOOP: snprintf(buffer, size, "for i%u", (unsigned)in->int_id); break;
    case SB_PICA_OP_BREAKC: snprintf(buffer, size, "breakc %s", cond); break;
    default: pica_format_operands(in, &names, buffer, size); break;
    }
}

static void write_code(struct dis_state *state)
{
    struct dis_walk walk = {0};
    char line[256];
    for (uint32_t a = 0; a <= state->count; ++a) {
        close_blocks(state, &walk, a);
        if (walk.proc && walk.proc->end == a) {
            pica_text_append(&state->text, ".end\n");
            walk.proc = NULL;
        }
        if (state->label[a])
            pica_text_append(&state->text, "label_%u:\n", (unsigned)a);
        if (a == state->count)
            break;
        for (uint32_t i = 0; !walk.proc && i < state->proc_count; ++i)
            if (state->procs[i].start == a) {
                walk.proc = &state->procs[i];
                pica_text_append(&state->text, "\n.proc %s\n", walk.proc->name);
            }
        const struct sb_pica_instruction *in = &state->code[a];
        bool opens = !state->raw[a] && (in->opcode == SB_PICA_OP_IFC ||
                                        in->opcode == SB_PICA_OP_IFU || in->opcode == SB_PICA_OP_LOOP);
        uint32_t indent = 4 * walk.depth + 4;
        if (opens)
            open_block(state, &walk, a);
        if (state->raw[a]) {
            if (state->valid[a])
                sb_pica_format_instruction(in, line, sizeof(line));
            else
                snprintf(line, sizeof(line), "invalid word");
            pica_text_append(&state->text, "%*s.word 0x%08X ; %s\n", (int)indent, "",
                             (unsigned)in->word, line);
        } else {
            instruction_text(state, a, line, sizeof(line));
            pica_text_append(&state->text, "%*s%s\n", (int)indent, "", line);
        }
    }
    while (walk.depth) {
        walk.depth--;
        pica_text_append(&state->text, ".end\n");
    }
}

static void release(struct dis_state *state)
{
    free(state->code);
    free(state->valid);
    free(state->raw);
    free(state->label);
}

enum sb_result sb_pica_disassemble(const struct sb_shbin *shbin, char **text,
                                   struct sb_error *error)
{
    if (text)
        *text = NULL;
    if (!shbin || !text) {
        sb_error_set(error, SB_ERROR_INVALID_ARGUMENT, 0, SB_ERROR_NO_INSTR,
                     "sb_pica_disassemble: NULL file or output");
        return SB_ERROR_INVALID_ARGUMENT;
    }
    struct dis_state *state = calloc(1, sizeof(*state));
    if (!state)
        goto oom;
    state->shbin = shbin;
    state->count = shbin->program.code_word_count;
    size_t n = (size_t)state->count + 1;
    state->code = calloc(n, sizeof(*state->code));
    state->valid = calloc(n, sizeof(bool));
    state->raw = calloc(n, sizeof(bool));
    state->label = calloc(n, sizeof(bool));
    if (!state->code || !state->valid || !state->raw || !state->label) {
        release(state);
        free(state);
        goto oom;
    }
    uint32_t descriptors[SB_SHBIN_MAX_OPERAND_DESCRIPTORS];
    uint32_t dcount = shbin->program.operand_descriptor_count;
    if (dcount > SB_SHBIN_MAX_OPERAND_DESCRIPTORS)
        dcount = SB_SHBIN_MAX_OPERAND_DESCRIPTORS;
    for (uint32_t i = 0; i < dcount; ++i)
        descriptors[i] = shbin->program.operand_descriptors[i].word;
    for (uint32_t a = 0; a < state->count; ++a) {
        state->valid[a] = sb_pica_decode(shbin->program.code[a], descriptors, dcount,
                                         &state->code[a], NULL) == SB_SUCCESS;
        if (!state->valid[a])
            state->code[a].word = shbin->program.code[a];
    }
    analyse(state);
    check_descriptors(state);
    pica_text_append(&state->text, "; disassembled by shaderbridge: %u code words, %u operand "
                                   "descriptors, %u DVLE(s)\n",
                     (unsigned)state->count, (unsigned)dcount, (unsigned)shbin->dvle_count);
    if (shbin->dvle_count > 0)
        dis_declarations(state, 0);
    write_descriptor_table(state);
    write_code(state);
    for (uint32_t d = 1; d < shbin->dvle_count; ++d) {
        pica_text_append(&state->text, "\n.dvle\n");
        dis_declarations(state, d);
    }
    release(state);
    if (state->text.failed) {
        free(state->text.data);
        free(state);
        goto oom;
    }
    *text = state->text.data;
    free(state);
    return SB_SUCCESS;
oom:
    sb_error_set(error, SB_ERROR_OUT_OF_MEMORY, 0, SB_ERROR_NO_INSTR, "out of memory");
    return SB_ERROR_OUT_OF_MEMORY;
}
