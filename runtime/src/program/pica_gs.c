/* SPDX-License-Identifier: MIT */
/*
 * PICA200 geometry shaders as a compute expansion (runtime/README.md "PICA200").
 * The hardware runs a GS on one unit, invocation after invocation, and its registers
 * (r#, a0, aL, cmp, the SETEMIT state, the two output banks) carry over from one
 * invocation to the next (../shared/docs/pica200.md §3.1, §9). A Vulkan geometry shader cannot
 * keep registers across invocations, so every GS runs here as one compute thread that
 * walks the input primitives in order. This file rewrites the lowered GS body
 * (sb_ir_pica_lower, run once by the loader: one semantics for the SPIR-V and the
 * interpreter) into function 1..
 * of that program: v# reads come from temps the entry loads per primitive, c#/i#/b#
 * reads from an image of the uniform buffer (u1) the entry patches per primitive (uniform
 * input modes, b15), o# writes go to the temps of the bank being written, and EMIT stores
 * that bank and the SETEMIT state as one record of u0, then swaps the banks.
 */
#include "pica_gs_private.h"

#include <stdlib.h>
#include <string.h>

#include "error.h"

#include "shaderbridge/shbin.h"

static enum sb_result gs_fail(struct sb_error *error, enum sb_result code, const char *message)
{
    return sb_error_set(error, code, 0, SB_ERROR_NO_INSTR, "PICA geometry expansion: %s", message);
}

/* An operand of the lowered body in the expansion's terms; false for a v#/o# past 15.
 * Uniform-buffer sources were loaded into r`loaded` by load_uniform_sources. */
static bool rewrite_operand(struct pgs *g, const struct sb_ir_operand *in, uint32_t loaded, struct sb_ir_operand *out)
{
    *out = *in;
    uint32_t n = in->index_count ? in->index[0].offset : 0;
    switch (in->file) {
    case SB_IR_FILE_INPUT:
    case SB_IR_FILE_OUTPUT:
        if (in->index_count != 1 || in->index[0].relative || n >= 16)
            return false;
        out->file = SB_IR_FILE_TEMP;
        out->index[0].offset = (in->file == SB_IR_FILE_INPUT ? g->in_temp : g->out_temp) + n;
        return true;
    case SB_IR_FILE_CONSTANT_BUFFER:
        if (in->index_count != 2 || n != SB_IR_PICA_UNIFORM_REGISTER)
            return true;
        *out = pgs_src(loaded);
        memcpy(out->swizzle, in->swizzle, 4);
        out->modifiers = in->modifiers;
        return true;
    default:
        return true;
    }
}

/* Each uniform-buffer source k of `inst` read from the u1 image into r(scratch + 2 + k):
 * the body's c#/i#/b# see what the entry patched in for this primitive. (A private array
 * would do as well, but lavapipe turns each dynamically indexed access of one into a
 * ladder of selects and then takes seconds to compile a program.) */
static void load_uniform_sources(struct pgs *g, const struct sb_ir_instruction *inst)
{
    uint32_t address = g->scratch_temp + 1;
    for (uint32_t k = 0; k < inst->src_count && k < 3; k++) {
        const struct sb_ir_operand *in = &inst->src[k];
        if (in->file != SB_IR_FILE_CONSTANT_BUFFER || in->index_count != 2 ||
            in->index[0].offset != SB_IR_PICA_UNIFORM_REGISTER)
            continue;
        struct sb_ir_operand byte = pgs_imm(in->index[1].offset * 16), at = pgs_dst(address, 1),
                             where = pgs_lane(address, 0), value = pgs_dst(g->scratch_temp + 2 + k, 0xF),
                             u1 = pgs_uav(SB_RT_PICA_GS_UNIFORM_REGISTER, 0);
        if (in->index[1].relative) {
            struct sb_ir_operand four = pgs_imm(4);
            pgs_emit(g, SB_IR_OP_ISHL, &at, 2, in->index[1].relative, &four, NULL);
            pgs_emit(g, SB_IR_OP_IADD, &at, 2, &where, &byte, NULL);
            pgs_emit(g, SB_IR_OP_LD_RAW, &value, 2, &where, &u1, NULL);
        } else {
            pgs_emit(g, SB_IR_OP_LD_RAW, &value, 2, &byte, &u1, NULL);
        }
    }
}

/* EMIT: the bank being written and the SETEMIT state become record `count` of u0 (when
 * it fits); then the count advances and the banks swap (§9.1: an output not rewritten
 * before the next EMIT holds what was written two EMITs earlier). */
static void emit_record(struct pgs *g)
{
    uint32_t s = g->state_temp, k = g->loop_temp, w = g->scratch_temp, v = g->scratch_temp + 1;
    struct sb_ir_operand fits = pgs_dst(w, 1), offset = pgs_dst(w, 2), at = pgs_dst(w, 4);
    struct sb_ir_operand count = pgs_lane(s, 1), cap = pgs_lane(k, 1), record = pgs_imm(g->info.record_vectors * 16),
                         header = pgs_imm(16), value = pgs_src(v), u0 = pgs_uav(SB_RT_PICA_GS_OUTPUT_REGISTER, 0xF);
    pgs_emit(g, SB_IR_OP_ULT, &fits, 2, &count, &cap, NULL);
    pgs_test(g, SB_IR_OP_IF, w, 0);
    pgs_emit(g, SB_IR_OP_UMAD, &offset, 3, &count, &record, &header);
    struct sb_ir_operand vxyz = pgs_dst(v, 7), vw = pgs_dst(v, 8), emit_state = pgs_src(g->base + 2),
                         primitive = pgs_lane(s, 2), byte = pgs_lane(w, 1);
    pgs_emit(g, SB_IR_OP_MOV, &vxyz, 1, &emit_state, NULL, NULL);
    pgs_emit(g, SB_IR_OP_MOV, &vw, 1, &primitive, NULL, NULL);
    pgs_emit(g, SB_IR_OP_STORE_RAW, &u0, 2, &byte, &value, NULL);
    for (uint32_t j = 0; j < g->info.output_count; j++) {
        struct sb_ir_operand step = pgs_imm(16 * (j + 1)), where = pgs_lane(w, 2),
                             reg = pgs_src(g->out_temp + g->info.output_registers[j]);
        pgs_emit(g, SB_IR_OP_IADD, &at, 2, &byte, &step, NULL);
        pgs_emit(g, SB_IR_OP_STORE_RAW, &u0, 2, &where, &reg, NULL);
    }
    pgs_emit(g, SB_IR_OP_ENDIF, NULL, 0, NULL, NULL, NULL);
    struct sb_ir_operand next = pgs_dst(s, 2), one = pgs_imm(1);
    pgs_emit(g, SB_IR_OP_IADD, &next, 2, &count, &one, NULL);
    for (uint32_t r = 0; r < 16; r++) {
        struct sb_ir_operand keep = pgs_dst(v, 0xF), kept = pgs_src(v), cur = pgs_dst(g->out_temp + r, 0xF),
                             cur_src = pgs_src(g->out_temp + r), other = pgs_dst(g->other_temp + r, 0xF),
                             other_src = pgs_src(g->other_temp + r);
        pgs_emit(g, SB_IR_OP_MOV, &keep, 1, &cur_src, NULL, NULL);
        pgs_emit(g, SB_IR_OP_MOV, &cur, 1, &other_src, NULL, NULL);
        pgs_emit(g, SB_IR_OP_MOV, &other, 1, &kept, NULL, NULL);
    }
}

/* The entry's prologue that zeroes r0 .. r(T+2) (sb_ir_pica_lower): the expansion zeroes
 * them once, before the first primitive, so that they persist between invocations. */
static uint32_t prologue_length(const struct pgs *g, const struct sb_ir_function *f)
{
    uint32_t n = 0;
    while (n < f->instruction_count && n < g->base + 3) {
        const struct sb_ir_instruction *inst = &f->instructions[n];
        if (inst->op != SB_IR_OP_MOV || inst->dst_count != 1 || inst->dst[0].file != SB_IR_FILE_TEMP ||
            inst->dst[0].index[0].offset != n || inst->src[0].file != SB_IR_FILE_IMMEDIATE)
            break;
        n++;
    }
    return n;
}

/* Lowered function `f` as function f + 1 of the expansion. */
static bool rewrite_function(struct pgs *g, uint32_t f, struct sb_ir_function *out)
{
    const struct sb_ir_function *in = &g->lowered->functions[f];
    for (uint32_t i = f == 0 ? prologue_length(g, in) : 0; i < in->instruction_count && !g->failed; i++) {
        const struct sb_ir_instruction *inst = &in->instructions[i];
        if (inst->op == SB_IR_OP_EMIT) {
            emit_record(g);
            continue;
        }
        struct sb_ir_operand ops[8];
        uint32_t n = inst->dst_count + inst->src_count;
        if (n > 8 || inst->src_count > 3)
            return false;
        load_uniform_sources(g, inst);
        for (uint32_t k = 0; k < n; k++) {
            bool dst = k < inst->dst_count;
            const struct sb_ir_operand *o = dst ? &inst->dst[k] : &inst->src[k - inst->dst_count];
            uint32_t loaded = dst ? 0 : g->scratch_temp + 2 + (k - inst->dst_count);
            if (!rewrite_operand(g, o, loaded, &ops[k]))
                return false;
        }
        struct sb_ir_instruction *copy = pgs_emit(g, inst->op, NULL, 0, NULL, NULL, NULL);
        struct sb_ir_operand *kept = pgs_alloc(g, n, sizeof(*kept));
        if (!copy || !kept)
            return false;
        memcpy(kept, ops, n * sizeof(*kept));
        *copy = *inst;
        copy->dst = inst->dst_count ? kept : NULL;
        copy->src = kept + inst->dst_count;
        if (inst->op == SB_IR_OP_CALL || inst->op == SB_IR_OP_CALLC)
            copy->target = inst->target + 1;
    }
    return pgs_finish(g, out, f == 0 ? 0xFFFFFFFDu : in->id);
}

/* The DVLE's facts: mode, where uniform-mode inputs go, the output registers of a record. */
static void describe(struct pgs *g, const struct sb_shbin_dvle *dvle, const struct sb_ir_program *front)
{
    struct sb_rt_pica_gs *info = &g->info;
    info->mode = dvle->gs_mode;
    info->first_uniform = dvle->gs_mode == SB_SHBIN_GS_MODE_FIXED ? dvle->gs_fixed_start_register % 96u : 0;
    info->max_record_vectors = dvle->gs_mode == SB_SHBIN_GS_MODE_POINT ? 16u : 96u - info->first_uniform;
    info->vertex_count = dvle->gs_mode == SB_SHBIN_GS_MODE_FIXED      ? dvle->gs_fixed_vertex_count
                         : dvle->gs_mode == SB_SHBIN_GS_MODE_VARIABLE ? dvle->gs_variable_vertex_count
                                                                      : 0;
    uint32_t used = 0;
    for (uint32_t i = 0; i < front->signature_count; i++) {
        const struct sb_ir_signature_element *e = &front->signature[i];
        if (e->kind == SB_IR_SIGNATURE_OUTPUT && e->file == SB_IR_FILE_OUTPUT && e->register_index < 16)
            used |= 1u << e->register_index;
    }
    for (uint32_t r = 0; r < 16; r++)
        if (used >> r & 1)
            info->output_registers[info->output_count++] = (uint8_t)r;
    info->record_vectors = 1 + info->output_count;
}

/* Declarations: the lowered program's plus t0, u0, u1; the temps laid out after its own. */
static bool declare(struct pgs *g)
{
    const struct sb_ir_program *lp = g->lowered;
    struct sb_ir_program *p = &g->program;
    struct sb_ir_resource *res = pgs_alloc(g, lp->resource_count + 3, sizeof(*res));
    if (!res)
        return false;
    if (lp->resource_count)
        memcpy(res, lp->resources, lp->resource_count * sizeof(*res));
    for (uint32_t i = 0; i < lp->resource_count; i++)
        if (res[i].resource_class == SB_IR_RESOURCE_CBV && res[i].id == SB_IR_PICA_UNIFORM_REGISTER)
            g->has_uniforms = true;
    static const struct {
        uint32_t resource_class, reg;
        const char *name;
    } added[3] = {
        { SB_IR_RESOURCE_SRV, SB_RT_PICA_GS_INPUT_REGISTER, "pica_gs_inputs" },
        { SB_IR_RESOURCE_UAV, SB_RT_PICA_GS_OUTPUT_REGISTER, "pica_gs_vertices" },
        { SB_IR_RESOURCE_UAV, SB_RT_PICA_GS_UNIFORM_REGISTER, "pica_gs_uniforms" },
    };
    for (uint32_t i = 0; i < 3; i++)
        res[lp->resource_count + i] = (struct sb_ir_resource){ .resource_class = added[i].resource_class,
                                                               .id = added[i].reg, .lower_bound = added[i].reg,
                                                               .count = 1, .kind = SB_IR_RESOURCE_KIND_RAW,
                                                               .dimension = 11, .name = added[i].name };
    p->resources = res;
    p->resource_count = lp->resource_count + 3;
    g->lowered_temps = lp->temp_count;
    g->in_temp = lp->temp_count;
    g->out_temp = g->in_temp + 16;
    g->other_temp = g->out_temp + 16;
    g->state_temp = g->other_temp + 16;
    g->loop_temp = g->state_temp + 1;
    g->scratch_temp = g->loop_temp + 1;
    return true;
}

void sb_rt_pica_gs_destroy(struct sb_ir_program *expansion)
{
    struct pgs *g = (struct pgs *)expansion;
    if (!g)
        return;
    for (uint32_t i = 0; i < g->block_count; i++)
        free(g->blocks[i]);
    free(g->blocks);
    free(g->code);
    free(g);
}

const struct sb_rt_pica_gs *sb_rt_pica_gs_info(const struct sb_ir_program *expansion)
{
    return expansion ? &((const struct pgs *)expansion)->info : NULL;
}

enum sb_result sb_rt_pica_gs_expand(const struct sb_shbin *shbin, uint32_t dvle_index,
                                    const struct sb_ir_program *front, const struct sb_ir_program *lowered,
                                    struct sb_ir_program **out, struct sb_error *error)
{
    if (out)
        *out = NULL;
    if (!shbin || !front || !lowered || !out || dvle_index >= shbin->dvle_count ||
        front->stage != SB_IR_STAGE_GEOMETRY || !(lowered->pica_flags & SB_IR_PICA_LOWERED))
        return gs_fail(error, SB_ERROR_INVALID_ARGUMENT, "a geometry-shader DVLE and its program are required");
    struct pgs *g = calloc(1, sizeof(*g));
    if (!g)
        return gs_fail(error, SB_ERROR_OUT_OF_MEMORY, "out of memory");
    g->lowered = lowered;
    enum sb_result r;
    describe(g, &shbin->dvles[dvle_index], front);
    g->base = front->temp_count;
    for (uint32_t f = 0; f < front->function_count; f++)
        if (front->functions[f].temp_count > g->base)
            g->base = front->functions[f].temp_count;
    struct sb_ir_program *p = &g->program;
    *p = *g->lowered;
    p->stage = SB_IR_STAGE_COMPUTE;
    p->signature_count = 0;
    p->signature = NULL;
    p->index_range_count = 0;
    p->thread_group[0] = p->thread_group[1] = p->thread_group[2] = 1;
    p->gs_input_primitive = p->gs_output_topology = 0;
    uint32_t count = g->lowered->function_count + 1;
    struct sb_ir_function *fns = declare(g) ? pgs_alloc(g, count, sizeof(*fns)) : NULL;
    bool ok = fns != NULL;
    for (uint32_t f = 0; ok && f < g->lowered->function_count; f++)
        if (!rewrite_function(g, f, &fns[f + 1]))
            ok = false;
    if (!ok && !g->failed) {
        sb_rt_pica_gs_destroy(&g->program);
        return gs_fail(error, SB_ERROR_TRANSLATE_INVALID, "an input or output register the expansion cannot map");
    }
    ok = ok && pgs_entry(g, &fns[0]);
    if (!ok) {
        sb_rt_pica_gs_destroy(&g->program);
        return gs_fail(error, SB_ERROR_OUT_OF_MEMORY, "out of memory");
    }
    uint32_t temps = g->scratch_temp + PGS_SCRATCH_TEMPS;
    for (uint32_t f = 0; f < count; f++)
        fns[f].temp_count = temps;
    p->functions = fns;
    p->function_count = count;
    p->temp_count = temps;
    r = sb_ir_validate(p, error);
    if (r != SB_SUCCESS) {
        sb_rt_pica_gs_destroy(&g->program);
        return r;
    }
    *out = p;
    return SB_SUCCESS;
}
