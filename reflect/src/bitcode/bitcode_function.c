/* SPDX-License-Identifier: MIT */
/*
 * FUNCTION_BLOCK (../shared/docs/dxil.md §2.9, §2.12): the body of one
 * function definition. Bodies come in the order of the FUNCTION records
 * that are not declarations (LLVM 3.7 has no offsets to match them by).
 *
 * The function's values are numbered on after the module's: its arguments,
 * then the constants of its CONSTANTS_BLOCK, then one id per instruction
 * that has a value. DECLAREBLOCKS fixes the number of basic blocks; every
 * terminator (ret, br, switch, unreachable) closes the current one. When the
 * block ends, every forward reference an instruction made must name a value
 * that now exists, with the type the instruction implied.
 */
#include "bitcode_private.h"

#include "arena.h"

enum {
    FUNC_DECLAREBLOCKS = 1,
    FUNC_DEBUG_LOC_AGAIN = 33,
    FUNC_DEBUG_LOC = 35,
};

/* The next definition in record order that has no body yet, or NULL. The search
 * resumes where the previous one stopped, so matching all bodies is linear. */
static struct sb_bc_function *next_definition(struct sb_bc_reader *r)
{
    struct sb_bc_module *m = r->module;
    while (r->next_body_scan < m->function_count) {
        struct sb_bc_function *f = &m->functions[r->next_body_scan++];
        if (!f->is_declaration)
            return f;
    }
    return NULL;
}

static bool is_terminator(enum sb_bc_opcode opcode)
{
    return opcode == SB_BC_OP_RET || opcode == SB_BC_OP_BR || opcode == SB_BC_OP_SWITCH ||
           opcode == SB_BC_OP_UNREACHABLE;
}

static bool declare_blocks(struct sb_bc_reader *r, struct sb_bc_function *f)
{
    if (f->blocks)
        return bc_fail(r, SB_ERROR_DUPLICATE, "FUNCTION_BLOCK: a second DECLAREBLOCKS");
    if (!bc_need_ops(r, 1, "DECLAREBLOCKS"))
        return false;
    /* Each block needs at least its terminator, a record of at least 4 bits. */
    uint64_t count = r->bs.ops[0];
    if (count == 0 || count > sb_bs_bits_left(&r->bs) / 4)
        return bc_fail(r, SB_ERROR_BAD_COUNT,
                       "DECLAREBLOCKS: %llu blocks, 1..%llu fit in the function's bits",
                       (unsigned long long)count,
                       (unsigned long long)(sb_bs_bits_left(&r->bs) / 4));
    f->blocks = sb_arena_alloc(r->arena, (size_t)count, sizeof(*f->blocks));
    if (!f->blocks)
        return bc_fail(r, SB_ERROR_OUT_OF_MEMORY, "DECLAREBLOCKS: out of memory");
    f->block_count = (uint32_t)count;
    return true;
}

static bool add_instruction(struct sb_bc_reader *r, struct sb_bc_function *f, uint32_t *current)
{
    if (!f->blocks)
        return bc_fail(r, SB_ERROR_BC_BAD_RECORD, "FUNCTION_BLOCK: an instruction before "
                                                  "DECLAREBLOCKS");
    if (*current >= f->block_count)
        return bc_fail(r, SB_ERROR_BC_BAD_RECORD,
                       "FUNCTION_BLOCK: an instruction after the last of %u basic blocks ended",
                       f->block_count);
    if (!bc_reserve(r, (void **)&f->instructions, &r->fn_instruction_capacity,
                    f->instruction_count + 1, sizeof(*f->instructions)))
        return false;
    struct sb_bc_instruction *inst = &f->instructions[f->instruction_count];
    if (!bc_decode_instruction(r, inst, f->block_count))
        return false;
    if (inst->type != SB_BC_NONE) {
        inst->value = bc_value_count(r);
        if (!bc_push_value(r, SB_BC_VALUE_INSTRUCTION, inst->type, f->instruction_count))
            return false;
    }
    f->instruction_count++;
    f->blocks[*current].instruction_count++;
    if (is_terminator(inst->opcode) && ++*current < f->block_count)
        f->blocks[*current].first_instruction = f->instruction_count;
    return true;
}

/* Forward references resolved: each names a value, of the type its use implied. */
static bool check_fixups(struct sb_bc_reader *r)
{
    uint32_t values = bc_value_count(r);
    for (uint32_t i = 0; i < r->fixup_count; i++) {
        const struct bc_fixup *fix = &r->fixups[i];
        if (fix->id >= values)
            return sb_bs_fail(&r->bs, SB_ERROR_BC_BAD_REFERENCE, fix->bit,
                              "forward reference to value %u, the function ends at %u", fix->id,
                              values);
        uint32_t type = bc_value_type(r, fix->id);
        if (fix->type != SB_BC_NONE && type != fix->type)
            return sb_bs_fail(&r->bs, SB_ERROR_BC_BAD_TYPE, fix->bit,
                              "forward reference to value %u of type %u used as type %u", fix->id,
                              type, fix->type);
    }
    return true;
}

static bool finish(struct sb_bc_reader *r, struct sb_bc_function *f, uint32_t current)
{
    if (!f->blocks)
        return bc_fail(r, SB_ERROR_BC_BAD_RECORD, "FUNCTION_BLOCK '%s' has no DECLAREBLOCKS",
                       f->name ? f->name : "");
    if (current != f->block_count)
        return bc_fail(r, SB_ERROR_BC_BAD_RECORD,
                       "FUNCTION_BLOCK '%s' ends with %u of %u basic blocks terminated",
                       f->name ? f->name : "", current, f->block_count);
    if (!check_fixups(r))
        return false;
    r->function = NULL;
    return true;
}

static bool read_sub_block(struct sb_bc_reader *r)
{
    switch (r->bs.block_id) {
    case BC_BLOCK_CONSTANTS: return bc_read_constants_block(r);
    case BC_BLOCK_METADATA: return bc_read_metadata_block(r);
    case BC_BLOCK_METADATA_ATTACHMENT:
        if (r->flags & SB_BC_READ_SKIP_ATTRIBUTES_AND_ATTACHMENTS)
            return bc_skip_block(r);
        return bc_read_attachment_block(r);
    case BC_BLOCK_VALUE_SYMTAB: return bc_read_symtab_block(r);
    default: return bc_skip_block(r);
    }
}

bool bc_read_function_block(struct sb_bc_reader *r)
{
    struct sb_bc_module *m = r->module;
    struct sb_bc_function *f = next_definition(r);
    if (!f)
        return bc_fail(r, SB_ERROR_BC_BAD_BLOCK,
                       "FUNCTION_BLOCK %u: the module defines only %u functions", r->bodies_read + 1,
                       r->bodies_read);
    r->bodies_read++;
    r->function = f;
    r->fn_value_capacity = r->fn_instruction_capacity = r->fn_constant_capacity = 0;
    r->fn_metadata_capacity = r->fn_attachment_capacity = 0;
    r->fixup_count = 0;
    f->first_value = m->value_count;
    const struct sb_bc_type *type = &m->types[f->type];
    /* An instruction record takes 32 bits or more (a CALL far more). */
    if (!bc_reserve_block(r, (void **)&f->instructions, &r->fn_instruction_capacity, 0, 32,
                          sizeof(*f->instructions)) ||
        !bc_reserve_block(r, (void **)&f->values, &r->fn_value_capacity, type->member_count, 32,
                          sizeof(*f->values)))
        return false;
    for (uint32_t i = 0; i < type->member_count; i++)
        if (!bc_push_value(r, SB_BC_VALUE_ARGUMENT, type->members[i], i))
            return false;
    uint32_t current = 0;
    for (;;) {
        switch (sb_bs_next(&r->bs)) {
        case SB_BS_RECORD:
            break;
        case SB_BS_ENTER:
            if (!read_sub_block(r))
                return false;
            continue;
        case SB_BS_END:
            return finish(r, f, current);
        default:
            return false;
        }
        uint32_t code = r->bs.code;
        if (code == FUNC_DEBUG_LOC || code == FUNC_DEBUG_LOC_AGAIN)
            continue; /* source positions: attach to the previous instruction, no value */
        bool ok = code == FUNC_DECLAREBLOCKS ? declare_blocks(r, f) : add_instruction(r, f, &current);
        if (!ok)
            return false;
    }
}
