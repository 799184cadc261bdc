/* SPDX-License-Identifier: MIT */
/*
 * sb_ir_pica_lower (ir.h, IR.md §PICA200 programs): rewrites a PICA program into core IR
 * so that the SPIR-V back end and the interpreter, which both call it, need no PICA code
 * of their own and cannot disagree. This file is the driver: it copies every function,
 * turns PICA register files into temps (a0/aL, cmp, the SETEMIT state) and reads of the
 * uniform buffer (c#, i#, b#; layout in ir.h), applies the §8 relative-address rules to
 * c#[a0.x + n], and hands arithmetic and PICA ops to pica_lower_ops.c.
 */
#include "pica_lower_private.h"

#include <stdio.h>
#include <string.h>

void sb_pl_fail(struct pica_lower *L, enum sb_result code, const char *message)
{
    if (L->result != SB_SUCCESS)
        return;
    L->result = code;
    if (L->error) {
        L->error->code = code;
        L->error->offset = L->at ? L->at->offset : 0;
        L->error->instr = UINT32_MAX;
        snprintf(L->error->message, sizeof(L->error->message), "PICA lowering: %s", message);
    }
}

uint32_t sb_pl_scratch(struct pica_lower *L)
{
    uint32_t t = L->next_scratch++;
    if (L->next_scratch > L->temp_total)
        L->temp_total = L->next_scratch;
    return t;
}

struct sb_ir_operand sb_pl_dst(uint32_t t, uint32_t mask)
{
    struct sb_ir_operand op = { .file = SB_IR_FILE_TEMP, .index_count = 1, .mask = (uint8_t)mask };
    op.index[0].offset = t;
    return op;
}

struct sb_ir_operand sb_pl_src(uint32_t t)
{
    struct sb_ir_operand op = { .file = SB_IR_FILE_TEMP, .index_count = 1, .swizzle = { 0, 1, 2, 3 } };
    op.index[0].offset = t;
    return op;
}

struct sb_ir_operand sb_pl_lane(uint32_t t, uint32_t lane)
{
    struct sb_ir_operand op = sb_pl_src(t);
    for (int i = 0; i < 4; i++)
        op.swizzle[i] = (uint8_t)(lane & 3u);
    return op;
}

struct sb_ir_operand sb_pl_imm(uint32_t bits)
{
    struct sb_ir_operand op = { .file = SB_IR_FILE_IMMEDIATE, .swizzle = { 0, 1, 2, 3 },
                                .imm = { bits, bits, bits, bits } };
    return op;
}

struct sb_ir_operand sb_pl_neg(struct sb_ir_operand op)
{
    op.modifiers ^= SB_IR_MOD_NEG;
    return op;
}

bool sb_pl_emit(struct pica_lower *L, uint32_t op, const struct sb_ir_operand *dst, uint32_t src_count,
               const struct sb_ir_operand *a, const struct sb_ir_operand *b, const struct sb_ir_operand *c)
{
    if (L->result != SB_SUCCESS)
        return false;
    const struct sb_ir_operand *srcs[3] = { a, b, c };
    uint32_t nd = dst ? 1u : 0u;
    struct sb_ir_operand *ops = sb_arena_alloc(L->arena, nd + src_count + 1, sizeof(*ops));
    struct sb_ir_instruction *inst = ops ? sb_ir_vec_push(L->arena, &L->code, sizeof(*inst)) : NULL;
    if (!inst) {
        sb_pl_fail(L, SB_ERROR_OUT_OF_MEMORY, "out of memory");
        return false;
    }
    if (dst)
        ops[0] = *dst;
    for (uint32_t i = 0; i < src_count && i < 3; i++)
        ops[nd + i] = *srcs[i];
    inst->op = op;
    inst->offset = L->at ? L->at->offset : 0;
    inst->dst_count = nd;
    inst->src_count = src_count;
    inst->dst = nd ? ops : NULL;
    inst->src = ops + nd;
    const struct sb_ir_op_info *info = sb_ir_op_info(op);
    if (info && info->dst_type[0] == SB_IR_TYPE_FLOAT && op != SB_IR_OP_MOV && op != SB_IR_OP_MOVC) {
        inst->flags |= SB_IR_FLAG_PRECISE;
        inst->precise_mask = 0xF;
    }
    return true;
}

/* The uniform buffer operand of vector `vector` (relative part `rel` or NULL). */
static struct sb_ir_operand uniform_vector(uint32_t vector, const struct sb_ir_operand *rel)
{
    struct sb_ir_operand op = { .file = SB_IR_FILE_CONSTANT_BUFFER, .index_count = 2,
                                .swizzle = { 0, 1, 2, 3 } };
    op.index[0].offset = SB_IR_PICA_UNIFORM_REGISTER;
    op.index[1].offset = vector;
    op.index[1].relative = rel;
    return op;
}

static bool need_uniforms(struct pica_lower *L)
{
    if (!L->has_uniforms)
        sb_pl_fail(L, SB_ERROR_TRANSLATE_INVALID,
                  "the program reads PICA uniforms but declares no uniform buffer (cb0, ir.h "
                  "SB_IR_PICA_UNIFORM_REGISTER)");
    return L->has_uniforms;
}

/* An arena copy of `op` (relative parts must outlive the instruction list). */
static const struct sb_ir_operand *keep(struct pica_lower *L, const struct sb_ir_operand *op)
{
    struct sb_ir_operand *copy = sb_arena_alloc(L->arena, 1, sizeof(*copy));
    if (!copy) {
        sb_pl_fail(L, SB_ERROR_OUT_OF_MEMORY, "out of memory");
        return NULL;
    }
    *copy = *op;
    return copy;
}

/*
 * c[n], or c[rel + n] with docs/pica200.md §8: an offset outside -128..127 counts as 0,
 * the index wraps at 128, and indices >= 96 read (1, 1, 1, 1). Into all lanes of r`t`.
 */
static void float_uniform(struct pica_lower *L, const struct sb_ir_operand *in, uint32_t t)
{
    struct sb_ir_operand d = sb_pl_dst(t, 0xF), one = sb_pl_imm(0x3F800000u);
    uint32_t n = in->index_count ? in->index[0].offset : 0;
    if (!in->index_count || !in->index[0].relative) {
        if (n >= 96) {
            sb_pl_emit(L, SB_IR_OP_MOV, &d, 1, &one, NULL, NULL);
            return;
        }
        struct sb_ir_operand c = uniform_vector(n, NULL);
        sb_pl_emit(L, SB_IR_OP_MOV, &d, 1, &c, NULL, NULL);
        return;
    }
    struct sb_ir_operand rel;
    if (!sb_pl_source(L, in->index[0].relative, &rel))
        return;
    uint32_t i = sb_pl_scratch(L);
    struct sb_ir_operand ix = sb_pl_dst(i, 1), iy = sb_pl_dst(i, 2), sx = sb_pl_lane(i, 0), sy = sb_pl_lane(i, 1);
    struct sb_ir_operand k128 = sb_pl_imm(128), k256 = sb_pl_imm(256), kn = sb_pl_imm(n & 0x7Fu),
                         k7f = sb_pl_imm(0x7F), k96 = sb_pl_imm(96), k95 = sb_pl_imm(95);
    sb_pl_emit(L, SB_IR_OP_IADD, &ix, 2, &rel, &k128, NULL);
    sb_pl_emit(L, SB_IR_OP_ULT, &iy, 2, &sx, &k256, NULL);   /* -128 <= offset <= 127 */
    sb_pl_emit(L, SB_IR_OP_AND, &ix, 2, &rel, &sy, NULL);    /* else offset 0 */
    sb_pl_emit(L, SB_IR_OP_IADD, &ix, 2, &sx, &kn, NULL);
    sb_pl_emit(L, SB_IR_OP_AND, &ix, 2, &sx, &k7f, NULL);
    sb_pl_emit(L, SB_IR_OP_UGE, &iy, 2, &sx, &k96, NULL);
    sb_pl_emit(L, SB_IR_OP_UMIN, &ix, 2, &sx, &k95, NULL);   /* stay inside the buffer */
    const struct sb_ir_operand *kept = keep(L, &sx);
    if (!kept)
        return;
    struct sb_ir_operand c = uniform_vector(0, kept), whole = sb_pl_src(t);
    sb_pl_emit(L, SB_IR_OP_MOV, &d, 1, &c, NULL, NULL);
    sb_pl_emit(L, SB_IR_OP_MOVC, &d, 3, &sy, &one, &whole);
}

/* The source as a temp: swizzle and modifiers of `in` on r`t`. */
static void as_temp(const struct sb_ir_operand *in, uint32_t t, struct sb_ir_operand *out)
{
    *out = sb_pl_src(t);
    memcpy(out->swizzle, in->swizzle, 4);
    out->modifiers = in->modifiers;
}

bool sb_pl_source(struct pica_lower *L, const struct sb_ir_operand *in, struct sb_ir_operand *out)
{
    *out = *in;
    uint32_t n = in->index_count ? in->index[0].offset : 0;
    switch (in->file) {
    case SB_IR_FILE_PICA_ADDRESS:
    case SB_IR_FILE_PICA_CONDITION:
        out->file = SB_IR_FILE_TEMP;
        out->index_count = 1;
        out->index[0].offset = in->file == SB_IR_FILE_PICA_ADDRESS ? PICA_ADDRESS_TEMP(L) : PICA_CONDITION_TEMP(L);
        out->index[0].relative = NULL;
        return true;
    case SB_IR_FILE_PICA_INT_UNIFORM:
        if (!need_uniforms(L))
            return false;
        if (n >= 4 || (in->index_count && in->index[0].relative)) {
            sb_pl_fail(L, SB_ERROR_TRANSLATE_INVALID, "integer uniform index out of range i0-i3");
            return false;
        }
        *out = uniform_vector(SB_IR_PICA_UNIFORM_INT_VECTOR + n, NULL);
        memcpy(out->swizzle, in->swizzle, 4);
        out->modifiers = in->modifiers;
        return true;
    case SB_IR_FILE_PICA_BOOL_UNIFORM: {
        if (!need_uniforms(L))
            return false;
        if (n >= 16 || (in->index_count && in->index[0].relative)) {
            sb_pl_fail(L, SB_ERROR_TRANSLATE_INVALID, "bool uniform index out of range b0-b15");
            return false;
        }
        uint32_t t = sb_pl_scratch(L);
        struct sb_ir_operand d = sb_pl_dst(t, 0xF), w = sb_pl_imm(1), o = sb_pl_imm(n),
                             v = uniform_vector(SB_IR_PICA_UNIFORM_BOOL_VECTOR, NULL);
        memset(v.swizzle, 0, 4);
        sb_pl_emit(L, SB_IR_OP_UBFE, &d, 3, &w, &o, &v);
        as_temp(in, t, out);
        return L->result == SB_SUCCESS;
    }
    case SB_IR_FILE_PICA_FLOAT_UNIFORM: {
        if (!need_uniforms(L))
            return false;
        uint32_t t = sb_pl_scratch(L);
        float_uniform(L, in, t);
        sb_pl_read_fix(L, t, 0xF);
        as_temp(in, t, out);
        return L->result == SB_SUCCESS;
    }
    case SB_IR_FILE_INPUT:
        if (in->index_count == 1 && !in->index[0].relative) {
            uint32_t t = sb_pl_scratch(L);
            struct sb_ir_operand d = sb_pl_dst(t, 0xF), v = *in;
            memcpy(v.swizzle, (const uint8_t[]){ 0, 1, 2, 3 }, 4);
            v.modifiers = 0;
            sb_pl_emit(L, SB_IR_OP_MOV, &d, 1, &v, NULL, NULL);
            sb_pl_read_fix(L, t, 0xF);
            as_temp(in, t, out);
            return L->result == SB_SUCCESS;
        }
        break;
    default:
        break;
    }
    for (uint32_t i = 0; i < in->index_count && i < 3; i++) {
        if (!in->index[i].relative)
            continue;
        struct sb_ir_operand rel;
        if (!sb_pl_source(L, in->index[i].relative, &rel))
            return false;
        out->index[i].relative = keep(L, &rel);
        if (!out->index[i].relative)
            return false;
    }
    return true;
}

bool sb_pl_destination(struct pica_lower *L, const struct sb_ir_operand *in, struct sb_ir_operand *out)
{
    switch (in->file) {
    case SB_IR_FILE_PICA_FLOAT_UNIFORM:
    case SB_IR_FILE_PICA_INT_UNIFORM:
    case SB_IR_FILE_PICA_BOOL_UNIFORM:
        sb_pl_fail(L, SB_ERROR_TRANSLATE_INVALID, "a PICA uniform as a destination");
        return false;
    case SB_IR_FILE_PICA_ADDRESS:
    case SB_IR_FILE_PICA_CONDITION:
        *out = *in;
        out->file = SB_IR_FILE_TEMP;
        out->index_count = 1;
        out->index[0].offset = in->file == SB_IR_FILE_PICA_ADDRESS ? PICA_ADDRESS_TEMP(L) : PICA_CONDITION_TEMP(L);
        out->index[0].relative = NULL;
        return true;
    default:
        return sb_pl_source(L, in, out); /* relative parts (o[a0.x]) rewritten like sources */
    }
}

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

/* The entry starts from zeroed registers and PICA state (docs/pica200.md §3.1 recommends
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
