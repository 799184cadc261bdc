/* SPDX-License-Identifier: MIT */
/*
 * The results of resource reads (../shared/docs/dxil.md §3.2): a
 * dx.types.ResRet is four value members and a status word, consumed only by
 * extractvalue. The read writes only the members the body extracts (so a
 * structured load never reads DWORDs past what the program asked for, and a
 * sample of a 2-component format leaves the rest alone), and gets the IR's
 * residency status destination (dst[1], as SM5's `_s` forms) only when the
 * body extracts member 4, which then reads that status temp. The 32-bit
 * overload check for resource ops lives here too: 16- and 64-bit overloads
 * belong to the numeric-types work and refuse until it routes them.
 */
#include "ir_from_dxil_private.h"

#include "translator/dxil_ops.h"

/** The status member of a ResRet (kResRetStatusIndex). */
#define RESRET_STATUS_MEMBER 4u

/* One pass over the body: per function-local value, a bit per member that an
 * extractvalue reads (bit 4 = the status). */
static bool scan_extracted_members(struct dxil_front *f)
{
    const struct sb_bc_function *fn = f->function;
    if (f->extracted_members)
        return true;
    f->extracted_members = dxil_front_alloc(f, fn->value_count, sizeof(*f->extracted_members));
    f->value_status = dxil_front_alloc(f, fn->value_count, sizeof(*f->value_status));
    if (!f->extracted_members || !f->value_status)
        return false;
    for (uint32_t i = 0; i < fn->value_count; i++)
        f->value_status[i] = DXIL_FRONT_NONE;
    for (uint32_t i = 0; i < fn->instruction_count; i++) {
        const struct sb_bc_instruction *in = &fn->instructions[i];
        if (in->opcode != SB_BC_OP_EXTRACTVAL || in->operand_count < 1 || in->index_count != 1 ||
            in->indices[0] > RESRET_STATUS_MEMBER)
            continue;
        uint32_t v = in->operands[0];
        if (v >= fn->first_value && v - fn->first_value < fn->value_count)
            f->extracted_members[v - fn->first_value] |= (uint8_t)(1u << in->indices[0]);
    }
    return true;
}

bool dxil_front_overload_32(struct dxil_front *f, uint32_t type, const char *what)
{
    const struct sb_bc_type *t = dxil_front_type(f, type);
    if (t && t->kind == SB_BC_TYPE_STRUCT && t->member_count > 0)
        t = dxil_front_type(f, t->members[0]);
    if (t && (t->kind == SB_BC_TYPE_FLOAT || (t->kind == SB_BC_TYPE_INTEGER && t->width == 32)))
        return true;
    return dxil_front_fail(f, SB_ERROR_TRANSLATE_UNSUPPORTED,
                           "%s with a 16- or 64-bit overload is not translated yet (only 32-bit "
                           "resource elements)", what);
}

bool dxil_front_resret_dst(struct dxil_front *f, const struct sb_bc_instruction *in,
                           const char *what, struct sb_ir_operand dst[2], uint32_t *dst_count)
{
    return dxil_front_overload_32(f, in->type, what) &&
           dxil_front_resret_dst_any(f, in, dst, dst_count);
}

bool dxil_front_resret_dst_any(struct dxil_front *f, const struct sb_bc_instruction *in,
                               struct sb_ir_operand dst[2], uint32_t *dst_count)
{
    uint32_t temp = 0;
    const struct sb_bc_function *fn = f->function;
    if (!scan_extracted_members(f) || !dxil_front_result_temp(f, in, 4, &temp))
        return false;
    uint32_t local = in->value - fn->first_value;
    uint8_t members = f->extracted_members[local];
    /* A read whose value nobody extracts still runs (its status may be read): lane x. */
    uint8_t mask = members & 0xF ? members & 0xF : 0x1;
    dst[0] = dxil_front_temp_dst(temp, mask);
    *dst_count = 1;
    if (members & (1u << RESRET_STATUS_MEMBER)) {
        f->value_status[local] = dxil_front_new_temp(f);
        dst[1] = dxil_front_temp_dst(f->value_status[local], 0x1);
        *dst_count = 2;
    }
    return true;
}

bool dxil_front_resret_status(struct dxil_front *f, uint32_t aggregate, struct sb_ir_operand *src)
{
    const struct sb_bc_function *fn = f->function;
    uint32_t local = aggregate - fn->first_value;
    if (aggregate < fn->first_value || local >= fn->value_count || !f->value_status ||
        f->value_status[local] == DXIL_FRONT_NONE)
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_UNSUPPORTED,
                               "extractvalue of member 4 of a value that is no translated "
                               "resource read");
    *src = dxil_front_temp_src(f->value_status[local], 0);
    return true;
}

/* checkAccessFullyMapped(status): CHECK_ACCESS_FULLY_MAPPED, whose bool is the i1. */
bool dxil_front_check_access_fully_mapped(struct dxil_front *f,
                                          const struct sb_bc_instruction *in)
{
    uint32_t status = 0, temp = 0;
    struct sb_ir_operand src;
    if (!dxil_front_arg(f, in, 1, &status) || !dxil_front_src(f, status, 0, &src) ||
        !dxil_front_result_temp(f, in, 1, &temp))
        return false;
    struct sb_ir_operand dst = dxil_front_temp_dst(temp, 0x1);
    return dxil_front_emit(f, SB_IR_OP_CHECK_ACCESS_FULLY_MAPPED, &dst, 1, &src, 1) != NULL;
}
