/* SPDX-License-Identifier: MIT */
/*
 * One-instruction mutants of a SPIR-V module (spirv_mutate.h).
 *
 * Operators: an arithmetic, comparison, bitwise or logical opcode traded for its
 * sibling of the same operand shape (FAdd<->FSub, IAdd<->ISub, FMul->FAdd,
 * SLessThan<->SGreaterThan, ...; negations become OpCopyObject), a GLSL.std.450
 * min/max/floor/ceil/sqrt traded the same way, OpSelect's values swapped, a 32-bit
 * constant moved by one (booleans flipped), an OpStore dropped. Each keeps the module
 * well formed in the common case; spirv-val judges the rest (test_validate_mutants.c
 * skips what it rejects).
 *
 * Why a guard: a mutant runs on a real device with no instruction budget, so no site
 * may lie in the slice spirv_slice.c computes (loop conditions, branches before a
 * barrier, indices into unguarded arrays, divisors, and everything they depend on):
 * those sites are counted as guarded and left alone. A constant is moved only where its
 * new value cannot change a type (an array length), a decoration, or a barrier's or an
 * atomic's scope and semantics.
 */
#include "spirv_mutate.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <spirv/unified1/GLSL.std.450.h>
#include <spirv/unified1/spirv.h>

#include "spirv_slice.h"

/* Opcode trades: one row per operator, same operand shape on both sides. */
static const struct opcode_trade {
    SpvOp from, to;
    const char *name;
} opcode_trades[] = {
    { SpvOpFAdd, SpvOpFSub, "FAdd->FSub" },
    { SpvOpFSub, SpvOpFAdd, "FSub->FAdd" },
    { SpvOpIAdd, SpvOpISub, "IAdd->ISub" },
    { SpvOpISub, SpvOpIAdd, "ISub->IAdd" },
    { SpvOpFMul, SpvOpFAdd, "FMul->FAdd" },
    { SpvOpIMul, SpvOpIAdd, "IMul->IAdd" },
    { SpvOpFDiv, SpvOpFMul, "FDiv->FMul" },
    { SpvOpSLessThan, SpvOpSGreaterThan, "SLessThan->SGreaterThan" },
    { SpvOpSGreaterThan, SpvOpSLessThan, "SGreaterThan->SLessThan" },
    { SpvOpSLessThanEqual, SpvOpSGreaterThanEqual, "SLessThanEqual->SGreaterThanEqual" },
    { SpvOpSGreaterThanEqual, SpvOpSLessThanEqual, "SGreaterThanEqual->SLessThanEqual" },
    { SpvOpULessThan, SpvOpUGreaterThan, "ULessThan->UGreaterThan" },
    { SpvOpUGreaterThan, SpvOpULessThan, "UGreaterThan->ULessThan" },
    { SpvOpULessThanEqual, SpvOpUGreaterThanEqual, "ULessThanEqual->UGreaterThanEqual" },
    { SpvOpUGreaterThanEqual, SpvOpULessThanEqual, "UGreaterThanEqual->ULessThanEqual" },
    { SpvOpFOrdLessThan, SpvOpFOrdGreaterThan, "FOrdLessThan->FOrdGreaterThan" },
    { SpvOpFOrdGreaterThan, SpvOpFOrdLessThan, "FOrdGreaterThan->FOrdLessThan" },
    { SpvOpFOrdLessThanEqual, SpvOpFOrdGreaterThanEqual, "FOrdLessThanEqual->FOrdGreaterThanEqual" },
    { SpvOpFOrdGreaterThanEqual, SpvOpFOrdLessThanEqual, "FOrdGreaterThanEqual->FOrdLessThanEqual" },
    { SpvOpIEqual, SpvOpINotEqual, "IEqual->INotEqual" },
    { SpvOpINotEqual, SpvOpIEqual, "INotEqual->IEqual" },
    { SpvOpFOrdEqual, SpvOpFOrdNotEqual, "FOrdEqual->FOrdNotEqual" },
    { SpvOpFOrdNotEqual, SpvOpFOrdEqual, "FOrdNotEqual->FOrdEqual" },
    { SpvOpFUnordNotEqual, SpvOpFOrdEqual, "FUnordNotEqual->FOrdEqual" },
    { SpvOpBitwiseAnd, SpvOpBitwiseOr, "BitwiseAnd->BitwiseOr" },
    { SpvOpBitwiseOr, SpvOpBitwiseAnd, "BitwiseOr->BitwiseAnd" },
    { SpvOpBitwiseXor, SpvOpBitwiseAnd, "BitwiseXor->BitwiseAnd" },
    { SpvOpShiftLeftLogical, SpvOpShiftRightLogical, "ShiftLeftLogical->ShiftRightLogical" },
    { SpvOpShiftRightLogical, SpvOpShiftLeftLogical, "ShiftRightLogical->ShiftLeftLogical" },
    { SpvOpShiftRightArithmetic, SpvOpShiftRightLogical, "ShiftRightArithmetic->ShiftRightLogical" },
    { SpvOpLogicalAnd, SpvOpLogicalOr, "LogicalAnd->LogicalOr" },
    { SpvOpLogicalOr, SpvOpLogicalAnd, "LogicalOr->LogicalAnd" },
    { SpvOpLogicalEqual, SpvOpLogicalNotEqual, "LogicalEqual->LogicalNotEqual" },
    { SpvOpLogicalNotEqual, SpvOpLogicalEqual, "LogicalNotEqual->LogicalEqual" },
    { SpvOpFNegate, SpvOpCopyObject, "FNegate->CopyObject" },
    { SpvOpSNegate, SpvOpCopyObject, "SNegate->CopyObject" },
    { SpvOpNot, SpvOpCopyObject, "Not->CopyObject" },
};

/* GLSL.std.450 trades (OpExtInst's instruction number). */
static const struct ext_trade {
    uint32_t from, to;
    const char *name;
} ext_trades[] = {
    { GLSLstd450FMin, GLSLstd450FMax, "FMin->FMax" },
    { GLSLstd450FMax, GLSLstd450FMin, "FMax->FMin" },
    { GLSLstd450NMin, GLSLstd450NMax, "NMin->NMax" },
    { GLSLstd450NMax, GLSLstd450NMin, "NMax->NMin" },
    { GLSLstd450UMin, GLSLstd450UMax, "UMin->UMax" },
    { GLSLstd450UMax, GLSLstd450UMin, "UMax->UMin" },
    { GLSLstd450SMin, GLSLstd450SMax, "SMin->SMax" },
    { GLSLstd450SMax, GLSLstd450SMin, "SMax->SMin" },
    { GLSLstd450Floor, GLSLstd450Ceil, "Floor->Ceil" },
    { GLSLstd450Ceil, GLSLstd450Floor, "Ceil->Floor" },
    { GLSLstd450Sqrt, GLSLstd450InverseSqrt, "Sqrt->InverseSqrt" },
    { GLSLstd450InverseSqrt, GLSLstd450Sqrt, "InverseSqrt->Sqrt" },
};

#define COUNT_OF(a) (sizeof(a) / sizeof((a)[0]))
/* Whether constant `id` is used only where a new value keeps the module's types and
 * the device's progress: not by a type (an array's length), a decoration or a
 * specialisation, nor as a barrier's or an atomic's scope or semantics (a narrower
 * scope on a barrier could leave invocations waiting). */
static bool constant_movable(const struct spirv_module *m, uint32_t id)
{
    for (uint32_t i = 0; i < m->count; i++) {
        const struct spirv_inst *n = &m->insts[i];
        bool synchronises = n->op >= SpvOpControlBarrier && n->op <= SpvOpAtomicXor;
        if ((n->function != SPIRV_NO_INSTRUCTION && !synchronises) || n->op == SpvOpConstantComposite)
            continue;
        for (uint32_t k = 1; k < n->length; k++)
            if (m->words[n->word + k] == id && n->result != id)
                return false;
    }
    return true;
}

/* Width and kind of a 32-bit scalar type: 'i' int, 'f' float, 0 otherwise. */
static char scalar_kind(const struct spirv_module *m, uint32_t type)
{
    const struct spirv_inst *t = spirv_module_def(m, type);
    if (!t || t->length < 3 || m->words[t->word + 2] != 32)
        return 0;
    return t->op == SpvOpTypeInt ? 'i' : t->op == SpvOpTypeFloat ? 'f' : 0;
}

static bool add_site(struct spirv_mutation_sites *out, uint32_t *capacity, enum spirv_mutation_kind kind,
                     size_t word, uint32_t from, uint32_t to)
{
    if (out->count == *capacity) {
        uint32_t grown = *capacity ? *capacity * 2 : 64;
        struct spirv_mutation *sites = realloc(out->sites, grown * sizeof(*sites));
        if (!sites)
            return false;
        out->sites = sites;
        *capacity = grown;
    }
    out->sites[out->count++] = (struct spirv_mutation){ kind, word, from, to };
    return true;
}

/* The candidate mutation of instruction `n`, if any: kind and from/to. */
static bool candidate(const struct spirv_module *m, const struct spirv_inst *n, enum spirv_mutation_kind *kind,
                      uint32_t *from, uint32_t *to)
{
    const uint32_t *w = &m->words[n->word];
    *from = *to = 0;
    if (n->function != SPIRV_NO_INSTRUCTION) {
        for (size_t t = 0; t < COUNT_OF(opcode_trades); t++)
            if (opcode_trades[t].from == n->op) {
                *kind = SPIRV_MUTATE_OPCODE;
                *from = n->op;
                *to = opcode_trades[t].to;
                return true;
            }
        if (n->op == SpvOpExtInst && n->length >= 5 && m->glsl_set && w[3] == m->glsl_set)
            for (size_t t = 0; t < COUNT_OF(ext_trades); t++)
                if (ext_trades[t].from == w[4]) {
                    *kind = SPIRV_MUTATE_EXT_INST;
                    *from = w[4];
                    *to = ext_trades[t].to;
                    return true;
                }
        if (n->op == SpvOpSelect && n->length == 6) {
            *kind = SPIRV_MUTATE_SELECT;
            return true;
        }
        if (n->op == SpvOpStore) {
            *kind = SPIRV_MUTATE_DROP_STORE;
            return true;
        }
        return false;
    }
    if (n->op == SpvOpConstant && n->length == 4 && scalar_kind(m, w[1])) {
        *kind = SPIRV_MUTATE_CONSTANT;
        return constant_movable(m, n->result);
    }
    if ((n->op == SpvOpConstantTrue || n->op == SpvOpConstantFalse) && n->length == 3) {
        *kind = SPIRV_MUTATE_BOOL;
        *from = n->op;
        *to = n->op == SpvOpConstantTrue ? SpvOpConstantFalse : SpvOpConstantTrue;
        return constant_movable(m, n->result);
    }
    return false;
}

bool spirv_mutation_sites_find(const uint32_t *words, size_t word_count, struct spirv_mutation_sites *out)
{
    memset(out, 0, sizeof(*out));
    struct spirv_module m;
    struct spirv_guard guard = { 0 };
    bool ok = spirv_module_parse(words, word_count, &m) && spirv_guard_find(&m, &guard);
    uint32_t capacity = 0;
    for (uint32_t i = 0; ok && i < m.count; i++) {
        const struct spirv_inst *n = &m.insts[i];
        enum spirv_mutation_kind kind;
        uint32_t from, to;
        if (!candidate(&m, n, &kind, &from, &to))
            continue;
        if (kind == SPIRV_MUTATE_DROP_STORE ? guard.inst[i] : guard.id[n->result] != 0)
            out->guarded++;
        else
            ok = add_site(out, &capacity, kind, n->word, from, to);
    }
    spirv_guard_free(&guard);
    spirv_module_free(&m);
    if (!ok)
        spirv_mutation_sites_free(out);
    return ok;
}

void spirv_mutation_sites_free(struct spirv_mutation_sites *sites)
{
    free(sites->sites);
    memset(sites, 0, sizeof(*sites));
}

static uint32_t moved_constant(const uint32_t *words, size_t count, const uint32_t *inst)
{
    /* The type is defined before its use: find it for the value's kind. */
    for (size_t i = 5; i < count;) {
        uint32_t length = words[i] >> 16;
        if (!length)
            break;
        if ((words[i] & 0xffffu) == SpvOpTypeFloat && length >= 3 && words[i + 1] == inst[1]) {
            float f;
            memcpy(&f, &inst[3], 4);
            float g = f + 1.0f;
            if (g == f) /* too large for +1 to show */
                g = f * 2.0f;
            uint32_t u;
            memcpy(&u, &g, 4);
            return u;
        }
        i += length;
    }
    return inst[3] + 1u;
}

uint32_t *spirv_mutation_apply(const uint32_t *words, size_t word_count, const struct spirv_mutation *mu,
                               size_t *out_count)
{
    uint32_t *copy = malloc(word_count * sizeof(uint32_t));
    if (!copy)
        return NULL;
    memcpy(copy, words, word_count * sizeof(uint32_t));
    uint32_t *inst = &copy[mu->word];
    uint32_t length = inst[0] >> 16;
    *out_count = word_count;
    switch (mu->kind) {
    case SPIRV_MUTATE_OPCODE:
    case SPIRV_MUTATE_BOOL:
        inst[0] = (inst[0] & 0xffff0000u) | mu->to;
        break;
    case SPIRV_MUTATE_EXT_INST:
        inst[4] = mu->to;
        break;
    case SPIRV_MUTATE_SELECT: {
        uint32_t t = inst[4];
        inst[4] = inst[5];
        inst[5] = t;
        break;
    }
    case SPIRV_MUTATE_CONSTANT:
        inst[3] = moved_constant(words, word_count, &words[mu->word]);
        break;
    case SPIRV_MUTATE_DROP_STORE:
        memmove(inst, inst + length, (word_count - mu->word - length) * sizeof(uint32_t));
        *out_count = word_count - length;
        break;
    default:
        break;
    }
    return copy;
}

const char *spirv_mutation_kind_name(enum spirv_mutation_kind kind)
{
    static const char *const names[SPIRV_MUTATE_KIND_COUNT] = { "opcode", "ext-inst", "select-swap", "constant",
                                                                "bool-constant", "drop-store" };
    return (unsigned)kind < SPIRV_MUTATE_KIND_COUNT ? names[kind] : "?";
}

void spirv_mutation_describe(const struct spirv_mutation *mu, char *buf, size_t size)
{
    const char *name = spirv_mutation_kind_name(mu->kind);
    for (size_t t = 0; mu->kind == SPIRV_MUTATE_OPCODE && t < COUNT_OF(opcode_trades); t++)
        if (opcode_trades[t].from == mu->from)
            name = opcode_trades[t].name;
    for (size_t t = 0; mu->kind == SPIRV_MUTATE_EXT_INST && t < COUNT_OF(ext_trades); t++)
        if (ext_trades[t].from == mu->from)
            name = ext_trades[t].name;
    snprintf(buf, size, "%s@word%zu", name, mu->word);
}
