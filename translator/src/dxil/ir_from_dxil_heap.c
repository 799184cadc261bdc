/* SPDX-License-Identifier: MIT */
/*
 * SM 6.6 descriptor heaps (../shared/docs/dxil.md §5.2, §5.3):
 * createHandleFromHeap(index, samplerHeap, nonUniform) names heap element
 * `index` without saying what it is; the annotateHandle that follows is the
 * only place that does (its ResourceProperties: kind, UAV bit, typed format,
 * structured stride, cbuffer size, comparison sampler). dxc may annotate one
 * heap handle several times with different properties (a ByteAddressBuffer
 * and a StructuredBuffer view of one element), so the resource is chosen at
 * the annotation, not at the creation.
 *
 * Binding convention (translator/README.md "Bindings"): each distinct view
 * (heap, decoded properties) becomes one program resource, an unbounded range
 * from register 0 of space SB_DESCRIPTOR_HEAP_SPACE (ResourceDescriptorHeap)
 * or SB_SAMPLER_HEAP_SPACE (SamplerDescriptorHeap), indexed dynamically by the
 * heap index: heap element i is register i of that space, which the binding
 * step puts in one descriptor set of its own, each view at its own binding,
 * like the typed heap arrays of descriptor-indexing translation layers. The
 * interpreter and run/validate bind heap element i to the resource the caller
 * gives at (class, heap space, register i). The view's kind fields come from
 * dxil_front_resource_kind on a resource record built from the properties,
 * so a heap view is declared exactly as a bound resource of that kind.
 */
#include "ir_from_dxil_private.h"
#include "shaderbridge/translate.h"
#include "translator/dxil_opcodes.h"

/* ResourceProperties (§5.2): dword 0 bits; dword 1 bytes of typed resources. */
#define PROPERTIES_KIND(dword0) ((dword0) & 0xFFu)
#define PROPERTIES_IS_UAV (1u << 12)
#define PROPERTIES_IS_ROV (1u << 13)
#define PROPERTIES_GLOBALLY_COHERENT (1u << 14)
#define PROPERTIES_COMPARISON_OR_COUNTER (1u << 15)

bool dxil_front_create_handle_from_heap(struct dxil_front *f, const struct sb_bc_instruction *in)
{
    uint32_t index = 0;
    uint64_t sampler_heap = 0, non_uniform = 0;
    if (!dxil_front_arg(f, in, 1, &index) || !dxil_front_const_arg(f, in, 2, &sampler_heap) ||
        !dxil_front_const_arg(f, in, 3, &non_uniform))
        return false;
    const struct sb_bc_function *fn = f->function;
    if (in->value < fn->first_value || in->value - fn->first_value >= fn->value_count)
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_INVALID,
                               "createHandleFromHeap without a result");
    if (!f->handles &&
        !(f->handles = dxil_front_alloc(f, fn->value_count, sizeof(*f->handles))))
        return false;
    uint64_t constant = 0;
    bool is_constant = dxil_front_const_int(f, index, &constant);
    f->handles[in->value - fn->first_value] = (struct dxil_front_handle){
        .resource = DXIL_FRONT_NONE,
        .element = is_constant ? (uint32_t)constant : 0,
        .index_value = is_constant ? DXIL_FRONT_NONE : index,
        .non_uniform = non_uniform != 0,
        .defined = true,
        .heap = sampler_heap ? DXIL_FRONT_SAMPLER_HEAP : DXIL_FRONT_RESOURCE_HEAP,
    };
    return true;
}

/* The resource record a view with these properties would have if it were bound. */
static bool view_record(struct dxil_front *f, bool sampler_heap, const uint32_t props[2],
                        struct sb_dxil_resource *d)
{
    uint32_t kind = PROPERTIES_KIND(props[0]);
    bool is_uav = (props[0] & PROPERTIES_IS_UAV) != 0;
    memset(d, 0, sizeof(*d));
    d->kind = kind;
    d->name = sampler_heap ? "SamplerDescriptorHeap" : "ResourceDescriptorHeap";
    d->space = sampler_heap ? SB_SAMPLER_HEAP_SPACE : SB_DESCRIPTOR_HEAP_SPACE;
    d->range_size = UINT32_MAX;
    d->struct_type = d->layout = SB_BC_NONE;
    if (kind == SB_DXIL_RESOURCE_KIND_SAMPLER) {
        d->resource_class = SB_DXIL_RESOURCE_CLASS_SAMPLER;
        d->sampler_kind = (props[0] & PROPERTIES_COMPARISON_OR_COUNTER)
                              ? SB_DXIL_SAMPLER_KIND_COMPARISON
                              : SB_DXIL_SAMPLER_KIND_DEFAULT;
    } else if (kind == SB_DXIL_RESOURCE_KIND_CBUFFER) {
        d->resource_class = SB_DXIL_RESOURCE_CLASS_CBUFFER;
        d->cbuffer_size = props[1];
    } else if (kind >= SB_DXIL_RESOURCE_KIND_TEXTURE1D &&
               kind <= SB_DXIL_RESOURCE_KIND_FEEDBACK_TEXTURE2D_ARRAY) {
        d->resource_class = is_uav ? SB_DXIL_RESOURCE_CLASS_UAV : SB_DXIL_RESOURCE_CLASS_SRV;
        d->globally_coherent = (props[0] & PROPERTIES_GLOBALLY_COHERENT) != 0;
        d->rasterizer_ordered = (props[0] & PROPERTIES_IS_ROV) != 0;
        d->has_counter = is_uav && (props[0] & PROPERTIES_COMPARISON_OR_COUNTER) != 0;
        if (kind == SB_DXIL_RESOURCE_KIND_STRUCTURED_BUFFER) {
            d->struct_stride = props[1];
        } else if (kind == SB_DXIL_RESOURCE_KIND_FEEDBACK_TEXTURE2D ||
                   kind == SB_DXIL_RESOURCE_KIND_FEEDBACK_TEXTURE2D_ARRAY) {
            d->sampler_feedback_type = props[1];
        } else if (kind != SB_DXIL_RESOURCE_KIND_RAW_BUFFER &&
                   kind != SB_DXIL_RESOURCE_KIND_RT_ACCELERATION_STRUCTURE) {
            d->element_type = props[1] & 0xFFu;
            d->sample_count = props[1] >> 16 & 0xFFu;
        }
    } else {
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_INVALID,
                               "annotateHandle of a heap handle with resource kind %u", kind);
    }
    if ((d->resource_class == SB_DXIL_RESOURCE_CLASS_SAMPLER) != sampler_heap)
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_INVALID,
                               "a %s heap handle annotated as resource kind %u",
                               sampler_heap ? "sampler" : "resource", kind);
    return true;
}

/* Two views are the same when everything but their ID and binding agrees. */
static bool same_view(const struct sb_ir_resource *a, const struct sb_ir_resource *b)
{
    return a->resource_class == b->resource_class && a->space == b->space &&
           a->kind == b->kind && a->dimension == b->dimension &&
           a->sample_count == b->sample_count &&
           !memcmp(a->return_type, b->return_type, sizeof(a->return_type)) &&
           a->stride == b->stride && a->cb_size == b->cb_size &&
           a->sampler_mode == b->sampler_mode && a->uav_flags == b->uav_flags &&
           a->has_counter == b->has_counter;
}

/* The program resource of this view, declared on its first use (the array is re-allocated
 * in the arena: pointers into it do not outlive one operation). */
static bool heap_view(struct dxil_front *f, const struct sb_dxil_resource *d, uint32_t *index)
{
    struct sb_ir_resource view;
    memset(&view, 0, sizeof(view));
    view.resource_class = dxil_front_ir_resource_class(d->resource_class);
    view.space = d->space;
    view.lower_bound = 0;
    view.count = UINT32_MAX;
    view.name = d->name;
    if (!dxil_front_resource_kind(f, d, &view))
        return false;
    /* The views follow the entry's records in program->resources. */
    uint32_t count = f->program->resource_count, views = 0;
    for (uint32_t i = f->entry->resources.count; i < count; i++) {
        const struct sb_ir_resource *r = &f->program->resources[i];
        if (same_view(r, &view)) {
            *index = i;
            return true;
        }
        views++;
    }
    view.id = DXIL_FRONT_HEAP_VIEW_ID_BASE + views;
    struct sb_ir_resource *grown = dxil_front_alloc(f, (size_t)count + 1, sizeof(*grown));
    if (!grown)
        return false;
    if (count)
        memcpy(grown, f->program->resources, count * sizeof(*grown));
    grown[count] = view;
    f->program->resources = grown;
    f->program->resource_count = count + 1;
    *index = count;
    return true;
}

bool dxil_front_annotate_heap_handle(struct dxil_front *f, const struct sb_bc_instruction *in,
                                     const struct dxil_front_handle *pending,
                                     const uint32_t props[2])
{
    struct sb_dxil_resource d;
    uint32_t resource = 0;
    struct dxil_front_handle h = *pending;
    if (!view_record(f, pending->heap == DXIL_FRONT_SAMPLER_HEAP, props, &d) ||
        !heap_view(f, &d, &resource))
        return false;
    const struct sb_bc_function *fn = f->function;
    if (in->value < fn->first_value || in->value - fn->first_value >= fn->value_count)
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_INVALID, "annotateHandle without a result");
    h.resource = resource;
    h.heap = DXIL_FRONT_NOT_HEAP;
    f->handles[in->value - fn->first_value] = h;
    f->value_resource[in->value - fn->first_value] = resource;
    return true;
}
