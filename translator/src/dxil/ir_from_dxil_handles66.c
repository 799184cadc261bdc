/* SPDX-License-Identifier: MIT */
/*
 * SM 6.6 handles (../shared/docs/dxil.md §5.2): createHandleFromBinding finds
 * the declared range (dx.resources is still written) that holds the binding
 * constant {lower, upper, space, class}, with the same index rules as
 * createHandle (ir_from_dxil_resources.c); annotateHandle passes a handle
 * through after checking that its ResourceProperties agree with the
 * declaration, since the properties are what a 6.6 resource op trusts and a
 * disagreement means the program is not what its metadata says.
 * Heap handles are annotated by ir_from_dxil_heap.c.
 */
#include "ir_from_dxil_private.h"
#include "translator/dxil_opcodes.h"
#include "translator/dxil_ops.h"

/* ResourceProperties dword 0 (§5.2): kind in bits 0-7, IsUAV in bit 12. */
#define PROPERTIES_KIND_MASK 0xFFu
#define PROPERTIES_IS_UAV (1u << 12)

/* The integer fields of a constant struct argument (ResBind, ResourceProperties); a NULL
 * (zeroinitializer) constant has all fields 0 (§5.2). */
static bool const_struct_arg(struct dxil_front *f, const struct sb_bc_instruction *in, uint32_t i,
                             const char *what, uint32_t count, uint32_t *fields)
{
    uint32_t value = 0;
    if (!dxil_front_arg(f, in, i, &value))
        return false;
    const struct sb_bc_constant *c = sb_bc_constant_get(f->module, f->function, value);
    if (c && c->kind == SB_BC_CONST_NULL) {
        memset(fields, 0, count * sizeof(*fields));
        return true;
    }
    if (!c || c->kind != SB_BC_CONST_AGGREGATE || c->element_count != count)
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_UNSUPPORTED,
                               "%s operand that is not a constant of %u fields", what, count);
    for (uint32_t k = 0; k < count; k++) {
        uint64_t bits = 0;
        if (c->elements[k] > UINT32_MAX || !dxil_front_const_int(f, (uint32_t)c->elements[k], &bits))
            return dxil_front_fail(f, SB_ERROR_TRANSLATE_UNSUPPORTED,
                                   "field %u of the %s constant is not an integer", k, what);
        fields[k] = (uint32_t)bits;
    }
    return true;
}

/* createHandleFromBinding(ResBind{lower, upper, space, class}, index, nonUniform): the declared
 * range of that class and space that holds registers lower..upper. */
bool dxil_front_create_handle_from_binding(struct dxil_front *f,
                                           const struct sb_bc_instruction *in)
{
    uint32_t bind[4] = { 0 }, index = 0;
    uint64_t non_uniform = 0;
    if (!const_struct_arg(f, in, 1, "ResBind", 4, bind) || !dxil_front_arg(f, in, 2, &index) ||
        !dxil_front_const_arg(f, in, 3, &non_uniform))
        return false;
    uint32_t lower = bind[0], upper = bind[1], space = bind[2], cls = bind[3] & 0xFFu;
    if (cls > 3 || upper < lower)
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_INVALID,
                               "createHandleFromBinding of class %u registers %u..%u", cls, lower,
                               upper);
    for (uint32_t i = 0; i < f->program->resource_count; i++) {
        const struct sb_ir_resource *r = &f->program->resources[i];
        uint64_t last = r->count == UINT32_MAX ? UINT32_MAX
                                               : (uint64_t)r->lower_bound + r->count - 1;
        if (r->resource_class != dxil_front_ir_resource_class(cls) || r->space != space ||
            lower < r->lower_bound || upper > last)
            continue;
        return dxil_front_bind_handle(f, in, i, index, lower, upper, non_uniform != 0);
    }
    return dxil_front_fail(f, SB_ERROR_TRANSLATE_INVALID,
                           "createHandleFromBinding of class %u registers %u..%u space %u: no "
                           "declared resource holds them", cls, lower, upper, space);
}

/* annotateHandle(handle, ResourceProperties{dword0, dword1}): the handle, whose declaration
 * must agree with the properties' UAV bit and (SRV/UAV) resource kind. */
bool dxil_front_annotate_handle(struct dxil_front *f, const struct sb_bc_instruction *in)
{
    const struct dxil_front_handle *h = NULL;
    uint32_t props[2] = { 0 };
    if (!dxil_front_handle(f, in, 1, &h) ||
        !const_struct_arg(f, in, 2, "ResourceProperties", 2, props))
        return false;
    if (h->heap != DXIL_FRONT_NOT_HEAP)
        return dxil_front_annotate_heap_handle(f, in, h, props);
    if (h->resource >= f->entry->resources.count)
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_UNSUPPORTED,
                               "annotateHandle of an annotated descriptor-heap handle");
    const struct sb_dxil_resource *d = &f->entry->resources.resources[h->resource];
    uint32_t kind = props[0] & PROPERTIES_KIND_MASK;
    bool is_uav = (props[0] & PROPERTIES_IS_UAV) != 0;
    bool typed_view = d->resource_class == SB_DXIL_RESOURCE_CLASS_SRV ||
                      d->resource_class == SB_DXIL_RESOURCE_CLASS_UAV;
    /* Kind 0 is the all-zero constant, which states nothing to compare. */
    if (kind != 0 && (is_uav != (d->resource_class == SB_DXIL_RESOURCE_CLASS_UAV) ||
                      (typed_view && kind != d->kind))) {
        const char *said = sb_dxil_enum_value_name(SB_DXIL_ENUM_RESOURCE_KIND, kind);
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_INVALID,
                               "annotateHandle properties 0x%x (%s%s) disagree with resource "
                               "'%s' (class %u, kind %u)", props[0], is_uav ? "UAV " : "",
                               said ? said : "unknown kind", d->name, d->resource_class, d->kind);
    }
    uint32_t from = 0;
    const struct sb_bc_function *fn = f->function;
    if (!dxil_front_arg(f, in, 1, &from))
        return false;
    if (in->value < fn->first_value || in->value - fn->first_value >= fn->value_count)
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_INVALID, "annotateHandle without a result");
    f->handles[in->value - fn->first_value] = *h;
    f->value_resource[in->value - fn->first_value] = f->value_resource[from - fn->first_value];
    return true;
}
