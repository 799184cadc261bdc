/* SPDX-License-Identifier: MIT */
/*
 * What each DXIL resource kind (../shared/docs/dxil.md §5) is declared as in
 * the IR: the kind-specific fields of a program resource, which
 * ir_from_dxil_resources.c fills the binding of. So far raw buffers,
 * cbuffers and samplers.
 */
#include "ir_from_dxil_private.h"
#include "translator/dxil_ops.h"

/* The kind-specific fields of the IR declaration of resource `d`. */
bool dxil_front_resource_kind(struct dxil_front *f, const struct sb_dxil_resource *d,
                              struct sb_ir_resource *r)
{
    if (d->resource_class == SB_DXIL_RESOURCE_CLASS_CBUFFER) {
        r->cb_size = (d->cbuffer_size + 15) / 16;
    } else if (d->resource_class == SB_DXIL_RESOURCE_CLASS_SAMPLER) {
        r->sampler_mode = d->sampler_kind;
    } else if (d->kind == SB_DXIL_RESOURCE_KIND_RAW_BUFFER) {
        r->kind = SB_IR_RESOURCE_KIND_RAW;
    } else {
        const char *kind = sb_dxil_enum_value_name(SB_DXIL_ENUM_RESOURCE_KIND, d->kind);
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_UNSUPPORTED,
                               "resource '%s' is a %s (kind %u): only raw buffers, cbuffers "
                               "and samplers are translated yet", d->name,
                               kind ? kind : "resource of unknown kind", d->kind);
    }
    return true;
}
