/* SPDX-License-Identifier: MIT */
/*
 * The memory/atomics/barrier concern of the DXIL front end over the corpus
 * (CORPUS/dxil/MANIFEST.tsv): for each kind of use — groupshared accesses
 * (load, store, atomicrmw, cmpxchg through addrspace(3) pointers), allocas,
 * loads of initialised constant globals, LLVM atomics, dx.op atomicBinOp /
 * atomicCompareExchange, dx.op barrier — how many files and instructions use
 * it, and how many of those are in files that translate. A file refuses at its
 * first gap, so the files that refuse are split by where: at an instruction of
 * this concern (its message counted) or elsewhere (another concern first).
 * Fails only when the corpus cannot be read; SKIPPED (77) without it.
 * Usage: test_dxil_front_memory_census CORPUS_DIR.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "corpus_dxil.h"
#include "corpus_list.h"
#include "refusal_tally.h"
#include "reflect/bitcode.h"
#include "shaderbridge/dxbc.h"
#include "translator/ir.h"

enum use_kind { USE_GROUP_SHARED, USE_ALLOCA, USE_CONSTANT_ARRAY, USE_LLVM_ATOMIC,
                USE_DXOP_ATOMIC, USE_BARRIER, USE_KINDS };
static const char *const use_names[USE_KINDS] = {
    "groupshared load/store/atomic", "alloca", "constant-array load", "atomicrmw/cmpxchg",
    "dx.op atomicBinOp/atomicCompareExchange", "dx.op barrier",
};
enum { DXOP_ATOMIC_BIN_OP = 78, DXOP_ATOMIC_COMPARE_EXCHANGE = 79, DXOP_BARRIER = 80 };

struct census {
    uint32_t files, files_using, files_translated, refused_here, refused_elsewhere;
    uint32_t file_count[USE_KINDS], file_translated[USE_KINDS];
    uint32_t uses[USE_KINDS], uses_translated[USE_KINDS];
    struct refusal_tally refused_here_reasons;
};

static const struct sb_bc_type *type_at(const struct sb_bc_module *m, uint32_t id)
{
    return id < m->type_count ? &m->types[id] : NULL;
}

/* The address space of pointer value `id` (UINT32_MAX when it is no pointer). */
static uint32_t pointer_space(const struct sb_bc_module *m, const struct sb_bc_function *fn,
                              uint32_t id)
{
    const struct sb_bc_value *v = sb_bc_value_get(m, fn, id);
    const struct sb_bc_type *t = v ? type_at(m, v->type) : NULL;
    return t && t->kind == SB_BC_TYPE_POINTER ? t->address_space : UINT32_MAX;
}

/* Whether pointer `id` is (a GEP instruction or constant GEP over) an initialised constant
 * global. */
static bool constant_array(const struct sb_bc_module *m, const struct sb_bc_function *fn,
                           uint32_t id)
{
    const struct sb_bc_value *v = sb_bc_value_get(m, fn, id);
    if (v && v->kind == SB_BC_VALUE_INSTRUCTION && v->index < fn->instruction_count &&
        fn->instructions[v->index].opcode == SB_BC_OP_GEP &&
        fn->instructions[v->index].operand_count > 0)
        v = sb_bc_value_get(m, fn, fn->instructions[v->index].operands[0]);
    if (v && v->kind == SB_BC_VALUE_CONSTANT) {
        const struct sb_bc_constant *c = sb_bc_constant_get(m, fn, id);
        if (!c || c->kind != SB_BC_CONST_GEP || c->element_count < 1 ||
            c->elements[0] > UINT32_MAX)
            return false;
        v = sb_bc_value_get(m, fn, (uint32_t)c->elements[0]);
    }
    if (!v || v->kind != SB_BC_VALUE_GLOBAL || v->index >= m->global_count)
        return false;
    const struct sb_bc_global *g = &m->globals[v->index];
    return g->address_space == 0 && g->constant && g->initializer != SB_BC_NONE;
}

/* The concern's use an instruction is, or USE_KINDS. A GEP is counted at its access. */
static enum use_kind classify(const struct sb_bc_module *m, const struct sb_bc_function *fn,
                              const struct sb_bc_instruction *in)
{
    switch (in->opcode) {
    case SB_BC_OP_ALLOCA:
        return USE_ALLOCA;
    case SB_BC_OP_ATOMICRMW:
    case SB_BC_OP_CMPXCHG:
        return USE_LLVM_ATOMIC;
    case SB_BC_OP_LOAD:
    case SB_BC_OP_STORE:
        if (in->operand_count && pointer_space(m, fn, in->operands[0]) == 3)
            return USE_GROUP_SHARED;
        if (in->opcode == SB_BC_OP_LOAD && in->operand_count &&
            constant_array(m, fn, in->operands[0]))
            return USE_CONSTANT_ARRAY;
        return USE_KINDS;
    case SB_BC_OP_CALL: {
        const struct sb_bc_function *callee = sb_bc_callee(m, fn, in);
        if (!callee || !callee->name || strncmp(callee->name, "dx.op.", 6) || in->operand_count < 2)
            return USE_KINDS;
        const struct sb_bc_constant *c = sb_bc_constant_get(m, fn, in->operands[1]);
        uint64_t opcode = c && c->kind == SB_BC_CONST_INTEGER ? c->bits : 0;
        if (opcode == DXOP_ATOMIC_BIN_OP || opcode == DXOP_ATOMIC_COMPARE_EXCHANGE)
            return USE_DXOP_ATOMIC;
        return opcode == DXOP_BARRIER ? USE_BARRIER : USE_KINDS;
    }
    default:
        return USE_KINDS;
    }
}

/* One file: its uses by kind, then the front end's verdict. */
static void census_one(struct census *c, const struct sb_dxbc *container,
                       const struct sb_bc_module *m)
{
    uint32_t uses[USE_KINDS] = { 0 };
    bool any = false, refused_here = false;
    struct sb_ir_program *ir = NULL;
    struct sb_error err;
    memset(&err, 0, sizeof(err));
    bool translated = sb_ir_from_dxil(container, &ir, &err) == SB_SUCCESS;
    sb_ir_program_destroy(ir);
    for (uint32_t f = 0; f < m->function_count; f++) {
        const struct sb_bc_function *fn = &m->functions[f];
        for (uint32_t i = 0; i < fn->instruction_count; i++) {
            enum use_kind k = classify(m, fn, &fn->instructions[i]);
            if (k == USE_KINDS)
                continue;
            uses[k]++;
            any = true;
            refused_here |= !translated && fn->instructions[i].offset == err.offset;
        }
    }
    if (!any)
        return;
    c->files_using++;
    c->files_translated += translated;
    if (refused_here) {
        c->refused_here++;
        refusal_tally_add(&c->refused_here_reasons, "refused here", err.message);
    } else if (!translated) {
        c->refused_elsewhere++;
    }
    for (unsigned k = 0; k < USE_KINDS; k++) {
        if (!uses[k])
            continue;
        c->file_count[k]++;
        c->uses[k] += uses[k];
        c->file_translated[k] += translated;
        c->uses_translated[k] += translated ? uses[k] : 0;
    }
}

static void visit(const char *path, const char *relative, void *user)
{
    struct census *c = user;
    struct corpus_dxil d;
    c->files++;
    if (corpus_dxil_open(path, &d))
        census_one(c, d.container, d.module);
    else
        fprintf(stderr, "%s: not read\n", relative);
    corpus_dxil_close(&d);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s CORPUS_DIR\n", argv[0]);
        return 1;
    }
    static struct census c;
    if (corpus_manifest_each(argv[1], "dxil", visit, &c) < 0) {
        printf("SKIPPED: %s/dxil/MANIFEST.tsv not found\n", argv[1]);
        return 77;
    }
    printf("memory/atomics/barriers: %u of %u files use them: %u translate, %u refuse at one "
           "of them, %u refuse elsewhere first\n", c.files_using, c.files, c.files_translated,
           c.refused_here, c.refused_elsewhere);
    for (unsigned k = 0; k < USE_KINDS; k++)
        printf("  %-40s %3u files (%u translate), %4u uses (%u in translated files)\n",
               use_names[k], c.file_count[k], c.file_translated[k], c.uses[k],
               c.uses_translated[k]);
    refusal_tally_sort(&c.refused_here_reasons);
    refusal_tally_print(&c.refused_here_reasons, REFUSAL_REASONS_MAX);
    return 0;
}
