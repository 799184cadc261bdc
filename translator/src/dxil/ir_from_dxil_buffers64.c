/* SPDX-License-Identifier: MIT */
/*
 * 64-bit elements of raw and structured buffers (rawBufferLoad/rawBufferStore .i64/.f64,
 * SM 6.3+; StructuredBuffer<uint64_t>, ByteAddressBuffer.Load<double>). A 64-bit value is
 * a lane pair in this front end (x low, y high: ir_from_dxil_wide.c) and its bytes in
 * memory are the low word then the high word, so one or two elements are simply two or
 * four consecutive words: ld_raw / ld_structured / store_raw / store_structured with the
 * mask of those words, as for 32-bit elements.
 *
 * The call's ResRet.i64 (four 64-bit members and the status) does not fit one temp, so
 * its temp holds the words loaded (member k in lanes 2k, 2k+1) and each extractvalue
 * copies its member's pair. Refused: three or four elements (six or eight words), the
 * status of such a load, typed buffers of 64-bit texels, structured buffers of a narrow
 * stride (ir_from_dxil_narrow_structured.c).
 */
#include "ir_from_dxil_private.h"
#include "translator/dxil_opcodes.h"

/* The buffer of a rawBufferLoad/Store in argument 1 and its element address: (byte offset)
 * for a raw buffer, (index, byte offset) for a structured one, in src[0..*count). */
static bool address(struct dxil_front *f, const struct sb_bc_instruction *in,
                    const struct sb_ir_resource **r, struct sb_ir_operand src[2], uint32_t *count)
{
    uint32_t first = 0, second = 0;
    if (!dxil_front_handle_resource(f, in, 1, r) || !dxil_front_arg(f, in, 2, &first) ||
        !dxil_front_src(f, first, 0, &src[0]))
        return false;
    *count = 1;
    if ((*r)->kind != SB_IR_RESOURCE_KIND_STRUCTURED)
        return true;
    *count = 2;
    return dxil_front_arg(f, in, 3, &second) && dxil_front_src(f, second, 0, &src[1]);
}

/* Elements (1 or 2) a mask names; three or four need more than a temp's four words. */
static bool elements(struct dxil_front *f, uint64_t mask, uint32_t *n)
{
    if (mask != 1 && mask != 3)
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_UNSUPPORTED,
                               "a 64-bit buffer access of mask 0x%llx (only one or two elements)",
                               (unsigned long long)mask);
    *n = mask == 1 ? 1 : 2;
    return true;
}

bool dxil_front_buffer64_claims(struct dxil_front *f, const struct sb_bc_instruction *in,
                                bool load)
{
    uint64_t opcode = 0;
    if (dxil_front_buffer_element_bits(f, in, load) != 64 || in->operand_count < 3 ||
        !dxil_front_const_int(f, in->operands[1], &opcode))
        return false;
    return opcode == (load ? SB_DXIL_OP_RAW_BUFFER_LOAD : SB_DXIL_OP_RAW_BUFFER_STORE);
}

bool dxil_front_buffer_wide(struct dxil_front *f, const struct sb_bc_instruction *in, bool load)
{
    const struct sb_ir_resource *r = NULL;
    struct sb_ir_operand src[4];
    uint32_t n = 0, count = 0;
    uint64_t mask = 0;
    if (!address(f, in, &r, src, &count) ||
        !dxil_front_const_arg(f, in, load ? 4 : 8, &mask) || !elements(f, mask, &n))
        return false;
    if (r->kind != SB_IR_RESOURCE_KIND_RAW && r->kind != SB_IR_RESOURCE_KIND_STRUCTURED)
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_UNSUPPORTED,
                               "a 64-bit element of a typed buffer");
    if (!dxil_front_refuse_narrow_structured(f, r, "a 64-bit buffer access"))
        return false;
    bool structured = r->kind == SB_IR_RESOURCE_KIND_STRUCTURED;
    uint8_t words = (uint8_t)((1u << (2 * n)) - 1);
    struct sb_ir_operand view = dxil_front_resource_operand(r);
    if (load) {
        uint32_t temp = dxil_front_value_temp(f, in->value);
        if (temp == DXIL_FRONT_NONE)
            return false;
        src[count] = view;
        return dxil_front_emit1(f, structured ? SB_IR_OP_LD_STRUCTURED : SB_IR_OP_LD_RAW,
                                dxil_front_temp_dst(temp, words), src, count + 1);
    }
    if (r->resource_class != SB_IR_RESOURCE_UAV)
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_INVALID, "a store to a read-only buffer");
    uint32_t values = dxil_front_new_temp(f);
    for (uint32_t k = 0; k < n; k++) { /* element k's pair -> lanes 2k, 2k+1 */
        uint32_t value = 0;
        struct sb_ir_operand pair;
        if (!dxil_front_arg(f, in, 4 + k, &value) || !dxil_front_src64_lanes(f, value, &pair) ||
            !dxil_front_emit1(f, SB_IR_OP_MOV, dxil_front_temp_dst(values, (uint8_t)(3u << (2 * k))),
                              &pair, 1))
            return false;
    }
    view.mask = words;
    src[count] = dxil_front_temp_src(values, 0);
    for (unsigned i = 0; i < 4; i++)
        src[count].swizzle[i] = (uint8_t)i;
    return dxil_front_emit1(f, structured ? SB_IR_OP_STORE_STRUCTURED : SB_IR_OP_STORE_RAW, view,
                            src, count + 1);
}

/* Whether `type` is a ResRet of 64-bit members (ResRet.i64 / .f64). */
static bool is_resret64(const struct dxil_front *f, uint32_t type)
{
    const struct sb_bc_type *t = dxil_front_type(f, type);
    return t && t->kind == SB_BC_TYPE_STRUCT && t->member_count == 5 &&
           dxil_front_is_wide_type(f, t->members[0]);
}

bool dxil_front_resret64_claims(const struct dxil_front *f, uint32_t aggregate_type)
{
    return is_resret64(f, aggregate_type);
}

bool dxil_front_resret64_extract(struct dxil_front *f, const struct sb_bc_instruction *in)
{
    uint32_t member = in->indices[0];
    if (member >= 2)
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_UNSUPPORTED,
                               "extractvalue of member %u of a 64-bit ResRet (only elements 0 "
                               "and 1 are loaded; the status is not)", member);
    uint32_t temp = dxil_front_value_temp(f, in->value);
    struct sb_ir_operand pair;
    if (temp == DXIL_FRONT_NONE || !dxil_front_src(f, in->operands[0], 0, &pair))
        return false;
    for (unsigned i = 0; i < 4; i++)
        pair.swizzle[i] = (uint8_t)(2 * member + (i & 1));
    return dxil_front_emit1(f, SB_IR_OP_MOV, dxil_front_temp_dst(temp, 0x3), &pair, 1);
}
