/* SPDX-License-Identifier: MIT */
/*
 * LLVM instructions of a DXIL body -> IR (../shared/docs/dxil.md §2.12, §7):
 * binop, cmp, select, cast and extractvalue on 32-bit lanes. Terminators and
 * phis are the flow file's; calls go to ir_from_dxil_dxop.c; alloca, GEP,
 * load, store and pointer casts to ir_from_dxil_memory.c, atomicrmw and
 * cmpxchg to ir_from_dxil_atomics.c. Anything else (64-bit and vector values)
 * refuses with the LLVM opcode's name.
 */
#include "ir_from_dxil_private.h"

/* LLVM 3.7 binop, cast and cmp codes (dxil.md §2.12). */
enum { BIN_ADD, BIN_SUB, BIN_MUL, BIN_UDIV, BIN_SDIV, BIN_UREM, BIN_SREM, BIN_SHL, BIN_LSHR,
       BIN_ASHR, BIN_AND, BIN_OR, BIN_XOR };
enum { CAST_TRUNC, CAST_ZEXT, CAST_SEXT, CAST_FPTOUI, CAST_FPTOSI, CAST_UITOFP, CAST_SITOFP,
       CAST_FPTRUNC, CAST_FPEXT, CAST_PTRTOINT, CAST_INTTOPTR, CAST_BITCAST };
enum { FCMP_OEQ = 1, FCMP_OGT = 2, FCMP_OGE = 3, FCMP_OLT = 4, FCMP_OLE = 5, FCMP_UNE = 14,
       ICMP_EQ = 32, ICMP_NE, ICMP_UGT, ICMP_UGE, ICMP_ULT, ICMP_ULE, ICMP_SGT, ICMP_SGE,
       ICMP_SLT, ICMP_SLE };

static const char *opcode_name(uint32_t opcode)
{
    switch (opcode) {
    case SB_BC_OP_EXTRACTELT: return "extractelement";
    case SB_BC_OP_INSERTELT: return "insertelement";
    case SB_BC_OP_SHUFFLEVEC: return "shufflevector";
    case SB_BC_OP_ALLOCA: return "alloca";
    case SB_BC_OP_LOAD: return "load";
    case SB_BC_OP_INSERTVAL: return "insertvalue";
    case SB_BC_OP_ATOMICRMW: return "atomicrmw";
    case SB_BC_OP_GEP: return "getelementptr";
    case SB_BC_OP_STORE: return "store";
    case SB_BC_OP_CMPXCHG: return "cmpxchg";
    default: return "?";
    }
}

/* The instruction's result is one 32-bit lane. */
static bool scalar_result(struct dxil_front *f, const struct sb_bc_instruction *in)
{
    if (dxil_front_type_lanes(f, in->type) != 1 ||
        dxil_front_type(f, in->type)->kind == SB_BC_TYPE_STRUCT)
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_UNSUPPORTED,
                               "a result that is not a 32-bit scalar");
    return true;
}

/* The one-lane destination of a result scalar_result() accepted. */
static bool value_dst(struct dxil_front *f, const struct sb_bc_instruction *in,
                      struct sb_ir_operand *dst)
{
    uint32_t temp = dxil_front_value_temp(f, in->value);
    if (temp == DXIL_FRONT_NONE)
        return false;
    *dst = dxil_front_temp_dst(temp, 0x1);
    return true;
}

/* The one-lane destination of an instruction's result. */
static bool result_dst(struct dxil_front *f, const struct sb_bc_instruction *in,
                       struct sb_ir_operand *dst)
{
    return scalar_result(f, in) && value_dst(f, in, dst);
}

static bool sources(struct dxil_front *f, const struct sb_bc_instruction *in, uint32_t count,
                    struct sb_ir_operand *src)
{
    if (in->operand_count < count)
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_INVALID, "%u operands, %u expected",
                               in->operand_count, count);
    for (uint32_t i = 0; i < count; i++)
        if (!dxil_front_src(f, in->operands[i], 0, &src[i]))
            return false;
    return true;
}

/* The type of value `id`; SB_BC_NONE when it does not exist. */
static uint32_t value_type(const struct dxil_front *f, uint32_t id)
{
    const struct sb_bc_value *v = sb_bc_value_get(f->module, f->function, id);
    return v ? v->type : SB_BC_NONE;
}

static bool is_float(const struct dxil_front *f, uint32_t type)
{
    const struct sb_bc_type *t = dxil_front_type(f, type);
    return t && t->kind == SB_BC_TYPE_FLOAT;
}

static uint32_t int_width(const struct dxil_front *f, uint32_t type)
{
    const struct sb_bc_type *t = dxil_front_type(f, type);
    return t && t->kind == SB_BC_TYPE_INTEGER ? t->width : 0;
}

static bool emit1(struct dxil_front *f, uint32_t op, struct sb_ir_operand dst,
                  const struct sb_ir_operand *src, uint32_t count)
{
    return dxil_front_emit(f, op, &dst, 1, src, count) != NULL;
}

static bool float_binop(struct dxil_front *f, uint32_t code, struct sb_ir_operand dst,
                        struct sb_ir_operand *src)
{
    switch (code) {
    case BIN_ADD: return emit1(f, SB_IR_OP_ADD, dst, src, 2);
    case BIN_SUB:
        src[1].modifiers ^= SB_IR_MOD_NEG;
        return emit1(f, SB_IR_OP_ADD, dst, src, 2);
    case BIN_MUL: return emit1(f, SB_IR_OP_MUL, dst, src, 2);
    case BIN_SDIV: return emit1(f, SB_IR_OP_DIV, dst, src, 2); /* fdiv shares sdiv's code */
    default:
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_UNSUPPORTED, "float binop %u", code);
    }
}

/* Integer binops on 32-bit lanes; the IR's UDIV (by 0 -> all ones) and 5-bit shift
 * masks are D3D's rules (dxil.md §7). Narrower than 32 bits only for the bitwise ops,
 * whose results stay within the width (i1 bools are 0 / all ones). */
static bool int_binop(struct dxil_front *f, uint32_t code, uint32_t width,
                      struct sb_ir_operand dst, struct sb_ir_operand *src)
{
    struct sb_ir_operand none;
    memset(&none, 0, sizeof(none));
    bool bitwise = code == BIN_AND || code == BIN_OR || code == BIN_XOR;
    if (width != 32 && !bitwise)
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_UNSUPPORTED, "i%u binop %u", width, code);
    switch (code) {
    case BIN_ADD: return emit1(f, SB_IR_OP_IADD, dst, src, 2);
    case BIN_SUB: {
        uint32_t t = dxil_front_new_temp(f);
        struct sb_ir_operand neg = dxil_front_temp_dst(t, 0x1);
        if (!emit1(f, SB_IR_OP_INEG, neg, &src[1], 1))
            return false;
        src[1] = dxil_front_temp_src(t, 0);
        return emit1(f, SB_IR_OP_IADD, dst, src, 2);
    }
    case BIN_MUL: {
        struct sb_ir_operand d[2] = { none, dst }; /* imul: high word discarded */
        return dxil_front_emit(f, SB_IR_OP_IMUL, d, 2, src, 2) != NULL;
    }
    case BIN_UDIV: case BIN_UREM: {
        struct sb_ir_operand d[2] = { code == BIN_UDIV ? dst : none, code == BIN_UREM ? dst : none };
        return dxil_front_emit(f, SB_IR_OP_UDIV, d, 2, src, 2) != NULL;
    }
    case BIN_SHL: return emit1(f, SB_IR_OP_ISHL, dst, src, 2);
    case BIN_LSHR: return emit1(f, SB_IR_OP_USHR, dst, src, 2);
    case BIN_ASHR: return emit1(f, SB_IR_OP_ISHR, dst, src, 2);
    case BIN_AND: return emit1(f, SB_IR_OP_AND, dst, src, 2);
    case BIN_OR: return emit1(f, SB_IR_OP_OR, dst, src, 2);
    case BIN_XOR: return emit1(f, SB_IR_OP_XOR, dst, src, 2);
    default:
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_UNSUPPORTED,
                               "signed division (binop %u) is not translated yet", code);
    }
}

static bool binop(struct dxil_front *f, const struct sb_bc_instruction *in)
{
    /* dst starts zeroed: gcc 12 cannot see that result_dst sets it whenever it succeeds. */
    struct sb_ir_operand dst = { 0 }, src[2];
    if (!result_dst(f, in, &dst) || !sources(f, in, 2, src))
        return false;
    if (is_float(f, in->type))
        return float_binop(f, in->op, dst, src);
    return int_binop(f, in->op, int_width(f, in->type), dst, src);
}

static bool cmp(struct dxil_front *f, const struct sb_bc_instruction *in)
{
    struct sb_ir_operand dst, src[2];
    if (!result_dst(f, in, &dst) || !sources(f, in, 2, src))
        return false;
    uint32_t operand_type = value_type(f, in->operands[0]);
    if (in->op >= ICMP_EQ && int_width(f, operand_type) != 32)
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_UNSUPPORTED, "icmp on i%u",
                               int_width(f, operand_type));
    /* Greater-than and less-or-equal are the swapped less-than / greater-or-equal. */
    struct sb_ir_operand swapped[2] = { src[1], src[0] };
    switch (in->op) {
    case FCMP_OEQ: return emit1(f, SB_IR_OP_EQ, dst, src, 2);
    case FCMP_OLT: return emit1(f, SB_IR_OP_LT, dst, src, 2);
    case FCMP_OGE: return emit1(f, SB_IR_OP_GE, dst, src, 2);
    case FCMP_OGT: return emit1(f, SB_IR_OP_LT, dst, swapped, 2);
    case FCMP_OLE: return emit1(f, SB_IR_OP_GE, dst, swapped, 2);
    case FCMP_UNE: return emit1(f, SB_IR_OP_NE, dst, src, 2);
    case ICMP_EQ: return emit1(f, SB_IR_OP_IEQ, dst, src, 2);
    case ICMP_NE: return emit1(f, SB_IR_OP_INE, dst, src, 2);
    case ICMP_ULT: return emit1(f, SB_IR_OP_ULT, dst, src, 2);
    case ICMP_UGE: return emit1(f, SB_IR_OP_UGE, dst, src, 2);
    case ICMP_UGT: return emit1(f, SB_IR_OP_ULT, dst, swapped, 2);
    case ICMP_ULE: return emit1(f, SB_IR_OP_UGE, dst, swapped, 2);
    case ICMP_SLT: return emit1(f, SB_IR_OP_ILT, dst, src, 2);
    case ICMP_SGE: return emit1(f, SB_IR_OP_IGE, dst, src, 2);
    case ICMP_SGT: return emit1(f, SB_IR_OP_ILT, dst, swapped, 2);
    case ICMP_SLE: return emit1(f, SB_IR_OP_IGE, dst, swapped, 2);
    default:
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_UNSUPPORTED, "cmp predicate %u", in->op);
    }
}

static bool cast(struct dxil_front *f, const struct sb_bc_instruction *in)
{
    struct sb_ir_operand dst, src[2];
    if (!result_dst(f, in, &dst) || !sources(f, in, 1, src))
        return false;
    uint32_t from = int_width(f, value_type(f, in->operands[0]));
    uint32_t to = int_width(f, in->type);
    switch (in->op) {
    case CAST_ZEXT: /* i1 (0 / all ones) -> 0 / 1 */
        if (from != 1)
            break;
        src[1] = dxil_front_imm(1);
        return emit1(f, SB_IR_OP_AND, dst, src, 2);
    case CAST_SEXT: /* i1 -> 0 / all ones: the lane already is */
        if (from != 1)
            break;
        return emit1(f, SB_IR_OP_MOV, dst, src, 1);
    case CAST_TRUNC: /* -> i1: the low bit as a D3D bool */
        if (to != 1) {
            break;
        } else {
            uint32_t t = dxil_front_new_temp(f);
            src[1] = dxil_front_imm(1);
            if (!emit1(f, SB_IR_OP_AND, dxil_front_temp_dst(t, 0x1), src, 2))
                return false;
            struct sb_ir_operand test[2] = { dxil_front_temp_src(t, 0), dxil_front_imm(0) };
            return emit1(f, SB_IR_OP_INE, dst, test, 2);
        }
    case CAST_FPTOUI: return emit1(f, SB_IR_OP_FTOU, dst, src, 1);
    case CAST_FPTOSI: return emit1(f, SB_IR_OP_FTOI, dst, src, 1);
    case CAST_UITOFP:
        if (from != 32)
            break;
        return emit1(f, SB_IR_OP_UTOF, dst, src, 1);
    case CAST_SITOFP:
        if (from != 32)
            break;
        return emit1(f, SB_IR_OP_ITOF, dst, src, 1);
    case CAST_BITCAST: return emit1(f, SB_IR_OP_MOV, dst, src, 1);
    default:
        break;
    }
    return dxil_front_fail(f, SB_ERROR_TRANSLATE_UNSUPPORTED,
                                       "cast %u from i%u to i%u", in->op, from, to);
}

static bool select_value(struct dxil_front *f, const struct sb_bc_instruction *in)
{
    struct sb_ir_operand dst, src[3];
    if (!result_dst(f, in, &dst) || !sources(f, in, 3, src))
        return false;
    return emit1(f, SB_IR_OP_MOVC, dst, src, 3);
}

/*
 * A member extracted in the block that computed its aggregate (a ResRet or CBufRet read
 * right after the load) names the aggregate's register lane `src` from then on, instead of
 * a copy into a register of its own: the aggregate's register is written once per run of
 * the block, always before the extractvalue, so every use the member dominates reads the
 * same bits either way.
 */
static bool alias_member(struct dxil_front *f, const struct sb_bc_instruction *in,
                         const struct sb_ir_operand *src)
{
    const struct sb_bc_function *fn = f->function;
    if (!f->block_first_plus1 || src->file != SB_IR_FILE_TEMP || src->index_count != 1)
        return false;
    const struct sb_bc_value *aggregate = sb_bc_value_get(f->module, fn, in->operands[0]);
    uint32_t here = (uint32_t)(in - fn->instructions);
    return aggregate && aggregate->kind == SB_BC_VALUE_INSTRUCTION &&
           aggregate->index >= f->block_first_plus1 - 1 && aggregate->index < here &&
           dxil_front_alias(f, in->value, SB_IR_FILE_TEMP, src->index[0].offset, src->swizzle[0]);
}

static bool extract_value(struct dxil_front *f, const struct sb_bc_instruction *in)
{
    struct sb_ir_operand dst, src;
    if (in->index_count != 1 || in->operand_count < 1)
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_UNSUPPORTED, "extractvalue with %u indices",
                               in->index_count);
    uint32_t aggregate = value_type(f, in->operands[0]);
    if (dxil_front_cbufret_packed(f, aggregate)) /* 16/64-bit rows (ir_from_dxil_cbuf.c) */
        return dxil_front_cbufret_extract(f, in, aggregate);
    if (dxil_front_resret64_claims(f, aggregate)) /* ir_from_dxil_buffers64.c */
        return dxil_front_resret64_extract(f, in);
    if (in->indices[0] == 4 && dxil_front_type_lanes(f, aggregate) == 4) {
        /* The status word of a ResRet (ir_from_dxil_resret.c). */
        if (!result_dst(f, in, &dst) || !dxil_front_resret_status(f, in->operands[0], &src))
            return false;
        return emit1(f, SB_IR_OP_MOV, dst, &src, 1);
    }
    if (in->indices[0] >= dxil_front_type_lanes(f, aggregate))
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_UNSUPPORTED,
                               "extractvalue of member %u (the status of a ResRet)",
                               in->indices[0]);
    if (!scalar_result(f, in) || !dxil_front_src(f, in->operands[0], in->indices[0], &src))
        return false;
    if (alias_member(f, in, &src))
        return true;
    if (!value_dst(f, in, &dst))
        return false;
    return emit1(f, SB_IR_OP_MOV, dst, &src, 1);
}

bool dxil_front_instruction(struct dxil_front *f, const struct sb_bc_instruction *in)
{
    f->offset = in->offset;
    if (dxil_front_is_payload_access(f, in)) /* mesh / amplification (ir_from_dxil_mesh.c) */
        return dxil_front_payload_access(f, in);
    if (dxil_front_wide_claims(f, in)) /* other widths, signed division, other predicates */
        return dxil_front_wide_instruction(f, in);
    switch (in->opcode) {
    case SB_BC_OP_BINOP: return binop(f, in);
    case SB_BC_OP_CAST:
        return dxil_front_is_pointer_cast(f, in) ? dxil_front_memory_instruction(f, in) : cast(f, in);
    case SB_BC_OP_ALLOCA:
    case SB_BC_OP_GEP:
    case SB_BC_OP_LOAD:
    case SB_BC_OP_STORE: return dxil_front_memory_instruction(f, in);
    case SB_BC_OP_ATOMICRMW:
    case SB_BC_OP_CMPXCHG: return dxil_front_atomic_instruction(f, in);
    case SB_BC_OP_CMP2: return cmp(f, in);
    case SB_BC_OP_VSELECT: return select_value(f, in);
    case SB_BC_OP_EXTRACTVAL: return extract_value(f, in);
    case SB_BC_OP_CALL: return dxil_front_call(f, in);
    default:
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_UNSUPPORTED, "LLVM instruction %s is not translated yet",
                               opcode_name(in->opcode));
    }
}
