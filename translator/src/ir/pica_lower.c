/* SPDX-License-Identifier: MIT */
/*
 * sb_ir_pica_lower (ir.h, IR.md §PICA200 programs): rewrites a PICA program into core IR
 * so that the SPIR-V back end and the interpreter, which both call it, need no PICA code
 * of their own and cannot disagree. This file is the driver: it copies every function,
 * turns PICA register files into temps (a0/aL, cmp, the SETEMIT state) and reads of the
 * uniform buffer (c#, i#, b#; layout in ir.h), applies the §8 relative-address rules to
 * c#[a0.x + n] (operands: pica_lower_operand.c), and hands arithmetic and PICA ops to
 * pica_lower_ops.c.
 */
#include "pica_lower_private.h"

#include <stdio.h>
#include <string.h>

/* Copies an instruction that needs no PICA rule, with its operands rewritten. */
static void copy_instruction(struct pica_lower *L, const struct sb_ir_instruction *inst)
{
    uint32_t n = inst->dst_count + inst->src_count;
    struct sb_ir_operand *ops = sb_arena_alloc(L->arena, n ? n : 1, sizeof(*ops));
    if (!ops) {
        sb_pl_fail(L, SB_ERROR_OUT_OF_MEMORY, "out of memory");
        return;
    }
    for (uint32_t i = 0; i < inst->dst_count; i++)
        if (!sb_pl_destination(L, &inst->dst[i], &ops[i]))
            return;
    for (uint32_t i = 0; i < inst->src_count; i++)
        if (!sb_pl_source(L, &inst->src[i], &ops[inst->dst_count + i]))
            return;
    struct sb_ir_instruction *copy = sb_ir_vec_push(L->arena, &L->code, sizeof(*copy));
    if (!copy) {
        sb_pl_fail(L, SB_ERROR_OUT_OF_MEMORY, "out of memory");
        return;
    }
    *copy = *inst;
    copy->dst = inst->dst_count ? ops : NULL;
    copy->src = ops + inst->dst_count;
}

/* The entry starts from zeroed registers and PICA state (../shared/docs/pica200.md §3.1 recommends
 * zero for reads before writes; Private SPIR-V variables would start undefined). */
static void zero_registers(struct pica_lower *L)
{
    struct sb_ir_operand zero = sb_pl_imm(0);
    L->at = NULL;
    for (uint32_t t = 0; t < L->base + PICA_STATE_TEMPS; t++) {
        struct sb_ir_operand d = sb_pl_dst(t, 0xF);
        sb_pl_emit(L, SB_IR_OP_MOV, &d, 1, &zero, NULL, NULL);
    }
}

static void lower_function(struct pica_lower *L, const struct sb_ir_function *in, struct sb_ir_function *out,
                           bool entry)
{
    L->code = (struct sb_ir_vec){ 0 };
    if (entry)
        zero_registers(L);
    for (uint32_t i = 0; i < in->instruction_count && L->result == SB_SUCCESS; i++) {
        const struct sb_ir_instruction *inst = &in->instructions[i];
        L->at = inst;
        L->next_scratch = L->base + PICA_STATE_TEMPS;
        if (!sb_pl_lower_op(L, inst) && L->result == SB_SUCCESS)
            copy_instruction(L, inst);
    }
    *out = *in;
    out->instructions = L->code.data;
    out->instruction_count = L->code.count;
}

enum sb_result sb_ir_pica_lower(const struct sb_ir_program *program, struct sb_ir_program **out,
                                struct sb_error *error)
{
    struct pica_lower L = { .in = program, .error = error };
    if (out)
        *out = NULL;
    if (!program || !out || program->source != SB_IR_SOURCE_PICA) {
        sb_pl_fail(&L, SB_ERROR_INVALID_ARGUMENT, "not a PICA program");
        return L.result;
    }
    struct sb_ir_program *p = sb_ir_program_create(&L.arena);
    if (!p) {
        sb_pl_fail(&L, SB_ERROR_OUT_OF_MEMORY, "out of memory");
        return L.result;
    }
    *p = *program;
    if (program->pica_flags & SB_IR_PICA_LOWERED) {
        *out = p;
        return SB_SUCCESS;
    }
    L.out = p;
    L.flags = program->pica_flags;
    L.base = program->temp_count;
    for (uint32_t f = 0; f < program->function_count; f++)
        if (program->functions[f].temp_count > L.base)
            L.base = program->functions[f].temp_count;
    L.temp_total = L.base + PICA_STATE_TEMPS;
    for (uint32_t i = 0; i < program->resource_count; i++)
        if (program->resources[i].resource_class == SB_IR_RESOURCE_CBV &&
            program->resources[i].id == SB_IR_PICA_UNIFORM_REGISTER)
            L.has_uniforms = true;
    struct sb_ir_function *fns = sb_arena_alloc(L.arena, program->function_count ? program->function_count : 1,
                                                sizeof(*fns));
    if (!fns)
        sb_pl_fail(&L, SB_ERROR_OUT_OF_MEMORY, "out of memory");
    for (uint32_t f = 0; f < program->function_count && L.result == SB_SUCCESS; f++)
        lower_function(&L, &program->functions[f], &fns[f], f == 0);
    if (L.result == SB_SUCCESS && L.temp_total > 4096) {
        L.at = NULL;
        sb_pl_fail(&L, SB_ERROR_TRANSLATE_INVALID, "more than 4096 temporaries after lowering");
    }
    if (L.result != SB_SUCCESS) {
        sb_ir_program_destroy(p);
        return L.result;
    }
    for (uint32_t f = 0; f < program->function_count; f++)
        fns[f].temp_count = L.temp_total;
    p->functions = fns;
    p->temp_count = L.temp_total;
    p->pica_flags |= SB_IR_PICA_LOWERED;
    *out = p;
    return SB_SUCCESS;
}
