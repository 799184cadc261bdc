/* SPDX-License-Identifier: MIT */
/*
 * System values of the newer D3D features (../shared/docs/dxil.md §3 "System values read by
 * intrinsic", §4.4 signatures; ../../IR.md §System values):
 *   - viewID (138) reads vViewID, isHelperLane (221) vHelperLane (ir_from_dxil_pixel.c), both
 *     special inputs declared after the body like vCoverage (ir_from_dxil_io.c); outside a
 *     pixel shader no invocation is a helper, so isHelperLane is the constant false there
 *     (here);
 *   - SV_Barycentrics, which DXIL leaves unallocated (start row -1, 1x3 floats), takes a v#
 *     of its own, as SV_SampleIndex does: the first input registers no allocated element and
 *     no SV_SampleIndex use, in signature order;
 *   - SV_ShadingRate is allocated like any uint element; the element's D3D_NAME (24) tells
 *     the back end it is the shading-rate built-in.
 * attributeAtVertex (137) stays refused (ir_from_dxil_pixel.c): the IR has no per-vertex
 * pixel inputs. A leaf below ir_from_dxil_io.c and ir_from_dxil_pixel.c (calls only the emit
 * helpers).
 */
#include "ir_from_dxil_private.h"
#include "translator/dxil_opcodes.h"

/* D3D's 32 input registers. */
#define INPUT_REGISTERS 32u

bool dxil_front_sysval_false(struct dxil_front *f, const struct sb_bc_instruction *in)
{
    uint32_t temp = 0;
    if (!dxil_front_result_temp(f, in, 1, &temp))
        return false;
    struct sb_ir_operand dst = dxil_front_temp_dst(temp, 0x1), src = dxil_front_imm(0);
    return dxil_front_emit(f, SB_IR_OP_MOV, &dst, 1, &src, 1) != NULL;
}

bool dxil_front_is_barycentrics(const struct sb_dxil_signature_element *d, uint32_t list)
{
    return list == SB_DXIL_SIGNATURE_INPUT && d->semantic_kind == SB_DXIL_SEMANTIC_BARYCENTRICS &&
           d->start_row < 0;
}

bool dxil_front_barycentrics_register(struct dxil_front *f, const struct sb_dxil_signature_element *d,
                                      uint32_t *out)
{
    const struct sb_dxil_signature *sig = &f->entry->signatures[SB_DXIL_SIGNATURE_INPUT];
    uint32_t used = f->has_sample_index ? 1u << f->sample_index_register : 0u, rank = 0;
    for (uint32_t i = 0; i < sig->element_count && &sig->elements[i] != d; i++)
        rank += dxil_front_is_barycentrics(&sig->elements[i], SB_DXIL_SIGNATURE_INPUT);
    for (uint32_t i = 0; i < sig->element_count; i++) {
        const struct sb_dxil_signature_element *e = &sig->elements[i];
        for (uint32_t row = 0; e->start_row >= 0 && row < e->rows; row++)
            if ((uint32_t)e->start_row + row < INPUT_REGISTERS)
                used |= 1u << ((uint32_t)e->start_row + row);
    }
    for (uint32_t r = 0; r < INPUT_REGISTERS; r++)
        if (!(used & (1u << r)) && rank-- == 0) {
            *out = r;
            return true;
        }
    return dxil_front_fail(f, SB_ERROR_TRANSLATE_UNSUPPORTED,
                           "no input register is left for %s", d->semantic_name);
}
