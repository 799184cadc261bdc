/* SPDX-License-Identifier: MIT */
/*
 * VALUE_SYMTAB (../shared/docs/dxil.md §2.4, §2.5 item 11): the names of
 * values and basic blocks. At module level it names globals and functions
 * (how a reader recognises the dx.op.* declarations); inside a function, the
 * function's own values and its basic blocks, when dxc kept them.
 */
#include "bitcode_private.h"

enum {
    VST_ENTRY = 1,   /* [value id, name chars...] */
    VST_BBENTRY = 2, /* [block index, name chars...] */
    VST_FNENTRY = 3, /* [value id, offset, name chars...] (LLVM >= 3.8; accepted) */
};

static bool name_value(struct sb_bc_reader *r, uint64_t id, const char *name)
{
    struct sb_bc_module *m = r->module;
    struct sb_bc_function *f = r->function;
    struct sb_bc_value *value = NULL;
    if (!f && id < m->value_count)
        value = &m->values[id];
    else if (f && id >= m->value_count && id - m->value_count < f->value_count)
        value = &f->values[id - m->value_count];
    if (!value)
        return bc_fail(r, SB_ERROR_BC_BAD_REFERENCE,
                       "VALUE_SYMTAB entry '%s': value id %llu is not a value of this %s", name,
                       (unsigned long long)id, f ? "function" : "module");
    value->name = name;
    if (!f && value->kind == SB_BC_VALUE_GLOBAL)
        m->globals[value->index].name = name;
    else if (!f && value->kind == SB_BC_VALUE_FUNCTION)
        m->functions[value->index].name = name;
    return true;
}

static bool read_entry(struct sb_bc_reader *r)
{
    uint32_t code = r->bs.code;
    uint32_t chars = code == VST_FNENTRY ? 2 : 1;
    if (code != VST_ENTRY && code != VST_BBENTRY && code != VST_FNENTRY)
        return true; /* COMBINED_ENTRY and later codes carry no names DXIL needs */
    if (!bc_need_ops(r, chars, "VALUE_SYMTAB entry"))
        return false;
    const char *name = bc_ops_string(r, chars, r->bs.op_count - chars, "VALUE_SYMTAB name");
    if (!name)
        return false;
    uint64_t id = r->bs.ops[0];
    if (code != VST_BBENTRY)
        return name_value(r, id, name);
    struct sb_bc_function *f = r->function;
    if (!f || id >= f->block_count)
        return bc_fail(r, SB_ERROR_BC_BAD_REFERENCE,
                       "VALUE_SYMTAB BBENTRY '%s': block %llu, the function has %u", name,
                       (unsigned long long)id, f ? f->block_count : 0);
    f->blocks[id].name = name;
    return true;
}

bool bc_read_symtab_block(struct sb_bc_reader *r)
{
    for (;;) {
        enum sb_bs_entry entry = bc_next_record(r);
        if (entry == SB_BS_END)
            return true;
        if (entry != SB_BS_RECORD || !read_entry(r))
            return false;
    }
}
