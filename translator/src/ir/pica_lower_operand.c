/* SPDX-License-Identifier: MIT */
/*
 * Operands of the PICA lowering (IR.md §PICA200 programs): PICA register files
 * become temps (a0/aL, cmp, the SETEMIT state) and reads of the uniform buffer
 * (c#, i#, b#; layout in ir.h), with the ../shared/docs/pica200.md §8 relative-address
 * rules applied to c#[a0.x + n]; float sources get the float24 read fix-up
 * (pica_lower_math.c).
 */
#include "pica_lower_private.h"

#include <string.h>

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
 * c[n], or c[rel + n] with ../shared/docs/pica200.md §8: an offset outside -128..127 counts as 0,
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
