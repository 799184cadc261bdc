/* SPDX-License-Identifier: MIT */
/*
 * Flow control of the picasso-syntax assembler (../shared/docs/pica200.md §4 formats
 * 2/3, §6.5-§6.6): condition expressions, the block structure of ifc/ifu
 * (.else, .end / endif), for/loop (.end / endfor / endloop) and .proc, and
 * the relocations that fill in label and procedure addresses once they are
 * known (labels per DVLE section, procedures across the whole source).
 */
#include <string.h>

#include "pica_asm_private.h"

/* One flag: [!]*cmp.x or cmp.y; toggles its REF bit, returns 0 for x, 1 for y. */
static int condition_flag(struct asm_state *state, struct asm_span span, uint32_t *bits)
{
    span = asm_trim(span);
    uint32_t negate = 0;
    while (span.length && span.text[0] == '!') {
        negate ^= 1;
        span = asm_trim((struct asm_span){span.text + 1, span.length - 1, span.column + 1});
    }
    if (asm_span_equals(span, "cmp.x")) {
        *bits ^= negate << 25;
        return 0;
    }
    if (asm_span_equals(span, "cmp.y")) {
        *bits ^= negate << 24;
        return 1;
    }
    asm_fail(state, span.column, "invalid condition '%.*s' (expected [!]cmp.x or [!]cmp.y)",
             (int)(span.length > 24 ? 24 : span.length), span.text);
}

/* REFX/REFY/CONDOP bits of a condition expression (§6.5). */
static uint32_t condition(struct asm_state *state, struct asm_span span)
{
    uint32_t bits = (1u << 25) | (1u << 24);
    const char *op = NULL;
    for (size_t i = 0; i < span.length; ++i)
        if (span.text[i] == '&' || span.text[i] == '|') {
            op = span.text + i;
            break;
        }
    if (!op) {
        int which = condition_flag(state, span, &bits);
        return bits | ((uint32_t)(which + 2) << 22);
    }
    size_t at = (size_t)(op - span.text);
    size_t skip = (at + 1 < span.length && span.text[at + 1] == *op) ? 2 : 1;
    struct asm_span left = {span.text, at, span.column};
    struct asm_span right = {span.text + at + skip, span.length - at - skip,
                             span.column + (uint32_t)(at + skip)};
    int a = condition_flag(state, left, &bits);
    int b = condition_flag(state, right, &bits);
    if (a == b)
        asm_fail(state, span.column, "condition register checked twice");
    return bits | (*op == '&' ? 1u << 22 : 0);
}

static void add_reloc(struct asm_state *state, struct asm_span name, bool procedure)
{
    if (state->reloc_count == ASM_MAX_RELOCS)
        asm_fail(state, name.column, "too many branch targets");
    struct asm_reloc *reloc = &state->relocs[state->reloc_count++];
    asm_copy_name(state, name, reloc->name);
    reloc->address = state->code_count;
    reloc->line = state->line;
    reloc->column = name.column;
    reloc->procedure = procedure;
}

static void push_block(struct asm_state *state, enum asm_block_type type, uint32_t column)
{
    if (state->stack_depth == ASM_MAX_STACK)
        asm_fail(state, column, "too many nested blocks (limit %d)", ASM_MAX_STACK);
    struct asm_block *block = &state->stack[state->stack_depth++];
    memset(block, 0, sizeof(*block));
    block->type = type;
    block->position = state->code_count;
    block->line = state->line;
    block->column = column;
}

static uint32_t bool_register(struct asm_state *state, struct asm_span span, bool *negate)
{
    struct asm_operand op;
    *negate = false;
    span = asm_trim(span);
    if (span.length && span.text[0] == '!') {
        *negate = true;
        span = asm_trim((struct asm_span){span.text + 1, span.length - 1, span.column + 1});
    }
    asm_parse_operand(state, span, &op);
    if (op.file != ASM_B || op.negate || op.relative)
        asm_fail(state, span.column, "expected a bool uniform (b0-b15)");
    return (uint32_t)op.index;
}

static void expect(struct asm_state *state, struct asm_span mnemonic, uint32_t got, uint32_t want)
{
    if (got != want)
        asm_fail(state, mnemonic.column, "'%.*s' takes %u operand%s, got %u", (int)mnemonic.length,
                 mnemonic.text, want, want == 1 ? "" : "s", got);
}

/* call, callc, callu, jmpc, jmpu, breakc: everything that is not a block opener. */
static bool branch(struct asm_state *state, enum sb_pica_opcode op, struct asm_span mnemonic,
                   struct asm_span *args, uint32_t count)
{
    uint32_t word = (uint32_t)op << 26;
    bool negate = false;
    switch (op) {
    case SB_PICA_OP_CALL:
        expect(state, mnemonic, count, 1);
        add_reloc(state, args[0], true);
        break;
    case SB_PICA_OP_CALLC:
    case SB_PICA_OP_JMPC:
        expect(state, mnemonic, count, 2);
        word |= condition(state, args[0]);
        add_reloc(state, args[1], op == SB_PICA_OP_CALLC);
        break;
    case SB_PICA_OP_CALLU:
    case SB_PICA_OP_JMPU:
        expect(state, mnemonic, count, 2);
        word |= bool_register(state, args[0], &negate) << 22;
        if (negate && op != SB_PICA_OP_JMPU)
            asm_fail(state, args[0].column, "only jmpu can invert its condition");
        word |= negate ? 1u : 0u;
        add_reloc(state, args[1], op == SB_PICA_OP_CALLU);
        break;
    case SB_PICA_OP_BREAKC:
        expect(state, mnemonic, count, 1);
        word |= condition(state, args[0]);
        break;
    default:
        return false;
    }
    asm_emit(state, word, mnemonic.column);
    return true;
}

bool asm_flow_instruction(struct asm_state *state, struct asm_span mnemonic, struct asm_span rest)
{
    struct asm_span args[ASM_MAX_ARGS];
    uint32_t count = asm_split_args(rest, args, ASM_MAX_ARGS);
    bool negate = false;
    if (asm_span_equals(mnemonic, "for") || asm_span_equals(mnemonic, "loop")) {
        expect(state, mnemonic, count, 1);
        struct asm_operand op;
        asm_parse_operand(state, args[0], &op);
        if (op.file != ASM_I || op.negate || op.relative)
            asm_fail(state, args[0].column, "expected an integer uniform (i0-i3)");
        push_block(state, ASM_BLOCK_FOR, mnemonic.column);
        asm_emit(state, ((uint32_t)SB_PICA_OP_LOOP << 26) | ((uint32_t)op.index << 22),
                 mnemonic.column);
        return true;
    }
    if (asm_span_equals(mnemonic, "ifc")) {
        expect(state, mnemonic, count, 1);
        uint32_t bits = condition(state, args[0]);
        push_block(state, ASM_BLOCK_IF, mnemonic.column);
        asm_emit(state, ((uint32_t)SB_PICA_OP_IFC << 26) | bits, mnemonic.column);
        return true;
    }
    if (asm_span_equals(mnemonic, "ifu")) {
        expect(state, mnemonic, count, 1);
        uint32_t id = bool_register(state, args[0], &negate);
        if (negate)
            asm_fail(state, args[0].column, "only jmpu can invert its condition");
        push_block(state, ASM_BLOCK_IF, mnemonic.column);
        asm_emit(state, ((uint32_t)SB_PICA_OP_IFU << 26) | (id << 22), mnemonic.column);
        return true;
    }
    if (asm_span_equals(mnemonic, "else")) {
        expect(state, mnemonic, count, 0);
        asm_block_else(state, mnemonic);
        return true;
    }
    if (asm_span_equals(mnemonic, "endif")) {
        expect(state, mnemonic, count, 0);
        asm_block_end(state, mnemonic, ASM_BLOCK_IF);
        return true;
    }
    if (asm_span_equals(mnemonic, "endfor") || asm_span_equals(mnemonic, "endloop")) {
        expect(state, mnemonic, count, 0);
        asm_block_end(state, mnemonic, ASM_BLOCK_FOR);
        return true;
    }
    const struct pica_opcode_info *info = pica_opcode_by_name(mnemonic.text, mnemonic.length);
    if (!info)
        return false;
    return branch(state, info->opcode, mnemonic, args, count);
}

void asm_block_else(struct asm_state *state, struct asm_span keyword)
{
    struct asm_block *block = state->stack_depth ? &state->stack[state->stack_depth - 1] : NULL;
    if (!block || block->type != ASM_BLOCK_IF)
        asm_fail(state, keyword.column, "else without a matching ifc/ifu");
    if (block->has_else)
        asm_fail(state, keyword.column, "second else in one if block");
    block->has_else = true;
    block->else_position = state->code_count;
    if (state->code_count > 0xFFF)
        asm_fail(state, keyword.column, "else address beyond 4095");
    uint32_t *word = &state->code[block->position];
    *word = (*word & ~(0xFFFu << 10)) | (state->code_count << 10);
}

static void record_proc(struct asm_state *state, const struct asm_block *block, uint32_t column)
{
    if (state->proc_count == ASM_MAX_PROCS)
        asm_fail(state, column, "too many procedures (limit %d)", ASM_MAX_PROCS);
    struct asm_proc *proc = &state->procs[state->proc_count++];
    memcpy(proc->name, block->name, sizeof(proc->name));
    proc->start = block->position;
    proc->size = state->code_count - block->position;
}

void asm_block_end(struct asm_state *state, struct asm_span keyword, int expected)
{
    if (!state->stack_depth)
        asm_fail(state, keyword.column, "'%.*s' without an open block", (int)keyword.length,
                 keyword.text);
    struct asm_block block = state->stack[state->stack_depth - 1];
    if (expected >= 0 && (int)block.type != expected)
        asm_fail(state, keyword.column, "'%.*s' does not match the open block (line %u)",
                 (int)keyword.length, keyword.text, block.line);
    if (block.type == ASM_BLOCK_ARRAY)
        return; /* the directive code closes .constfa arrays itself */
    state->stack_depth--;
    uint32_t here = state->code_count;
    uint32_t *word = block.type == ASM_BLOCK_PROC ? NULL : &state->code[block.position];
    switch (block.type) {
    case ASM_BLOCK_PROC:
        record_proc(state, &block, keyword.column);
        break;
    case ASM_BLOCK_FOR:
        *word = (*word & ~(0xFFFu << 10)) | ((here - 1) << 10);
        break;
    default:
        if (!block.has_else) {
            if (here > 0xFFF)
                asm_fail(state, keyword.column, "block end beyond address 4095");
            *word = (*word & ~(0xFFFu << 10)) | (here << 10);
        } else {
            if (here - block.else_position > 0xFF)
                asm_fail(state, keyword.column, "else block longer than 255 instructions");
            *word = (*word & ~0xFFu) | (here - block.else_position);
        }
        break;
    }
}

static const struct asm_label *find_label(const struct asm_state *state, const char *name)
{
    for (uint32_t i = 0; i < state->label_count; ++i)
        if (strcmp(state->labels[i].name, name) == 0)
            return &state->labels[i];
    return NULL;
}

static const struct asm_proc *find_proc(const struct asm_state *state, const char *name)
{
    for (uint32_t i = 0; i < state->proc_count; ++i)
        if (strcmp(state->procs[i].name, name) == 0)
            return &state->procs[i];
    return NULL;
}

void asm_resolve_relocations(struct asm_state *state, uint32_t first, bool procedures)
{
    for (uint32_t i = first; i < state->reloc_count; ++i) {
        const struct asm_reloc *reloc = &state->relocs[i];
        if (reloc->procedure != procedures)
            continue;
        uint32_t *word = &state->code[reloc->address];
        state->line = reloc->line;
        if (procedures) {
            const struct asm_proc *proc = find_proc(state, reloc->name);
            if (!proc)
                asm_fail(state, reloc->column, "procedure '%s' is undefined", reloc->name);
            if (proc->start > 0xFFF || proc->size > 0xFF)
                asm_fail(state, reloc->column, "procedure '%s' does not fit a call (start %u, size %u)",
                         reloc->name, proc->start, proc->size);
            *word = (*word & ~0x3FFFFFu) | (proc->start << 10) | proc->size;
        } else {
            const struct asm_label *label = find_label(state, reloc->name);
            if (!label)
                asm_fail(state, reloc->column, "label '%s' is undefined", reloc->name);
            if (label->address > 0xFFF)
                asm_fail(state, reloc->column, "label '%s' beyond address 4095", reloc->name);
            *word = (*word & ~(0xFFFu << 10)) | (label->address << 10);
        }
    }
}
