/* SPDX-License-Identifier: MIT */
/*
 * Structured buffers whose stride is not a multiple of 4 (StructuredBuffer<uint16_t>:
 * stride 2; a struct of three halves: stride 6). The IR's structured operations address
 * whole words of an element (as SM4's do), so such a buffer is declared as a raw buffer
 * instead: the bytes are laid out the same way (element i at byte i * stride), only the
 * addressing differs. Its 16-bit element accesses (rawBufferLoad/Store .i16/.f16,
 * ir_from_dxil_buffers16.c) take the byte offset index * stride + offset and read or write
 * the words around it as they do on a ByteAddressBuffer. Everything else that would
 * address it as a structured buffer refuses (other element widths, the SM 6.0
 * bufferLoad/bufferStore forms, atomics, getDimensions, whose element count the raw
 * buffer's byte size does not give): it would otherwise be translated as raw addressing.
 *
 * The IR resource keeps kind RAW and stride 0, so nothing downstream changes; the stride is
 * the DXIL record's (program->resources[i] is the entry's dx.resources record i).
 */
#include "ir_from_dxil_private.h"
#include "translator/dxil_opcodes.h"

bool dxil_front_declare_narrow_structured(const struct sb_dxil_resource *d,
                                          struct sb_ir_resource *r)
{
    if (d->kind != SB_DXIL_RESOURCE_KIND_STRUCTURED_BUFFER || d->struct_stride == 0 ||
        d->struct_stride % 4u == 0)
        return false;
    r->kind = SB_IR_RESOURCE_KIND_RAW;
    r->dimension = 11;
    return true;
}

uint32_t dxil_front_narrow_stride(const struct dxil_front *f, const struct sb_ir_resource *r)
{
    const struct sb_dxil_resource_list *list = &f->entry->resources;
    const struct sb_ir_resource *first = f->program->resources;
    if (!r || !first || r < first || r >= first + list->count || f->program->resource_count < list->count)
        return 0;
    const struct sb_dxil_resource *d = &list->resources[r - first];
    bool narrow = r->kind == SB_IR_RESOURCE_KIND_RAW &&
                  d->kind == SB_DXIL_RESOURCE_KIND_STRUCTURED_BUFFER && d->struct_stride % 4u != 0;
    return narrow ? d->struct_stride : 0;
}

bool dxil_front_refuse_narrow_structured(struct dxil_front *f, const struct sb_ir_resource *r,
                                         const char *what)
{
    uint32_t stride = dxil_front_narrow_stride(f, r);
    if (stride == 0)
        return true;
    return dxil_front_fail(f, SB_ERROR_TRANSLATE_UNSUPPORTED,
                           "%s on a structured buffer of stride %u (not a multiple of 4: only its "
                           "16-bit elements are translated)", what, stride);
}

bool dxil_front_narrow_structured_offset(struct dxil_front *f, const struct sb_ir_resource *r,
                                         struct sb_ir_operand index, struct sb_ir_operand offset,
                                         struct sb_ir_operand *out)
{
    struct sb_ir_operand s[3] = { index, dxil_front_imm(dxil_front_narrow_stride(f, r)), offset };
    return dxil_front_emit1(f, SB_IR_OP_IMAD, dxil_front_fresh(f, out), s, 3);
}
