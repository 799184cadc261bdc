/* SPDX-License-Identifier: MIT */
/*
 * What each DXIL resource kind (../shared/docs/dxil.md §4.5, §5) is declared
 * as in the IR: the kind-specific fields of a program resource, which
 * ir_from_dxil_resources.c fills the binding of. Each kind becomes what the
 * SM4 front end declares for the same HLSL resource (sm4-tokens.md §8.3,
 * §8.4): dcl_resource_texture2d (float,float,float,float) t0 -> TYPED,
 * dimension 3, return type float x4; dcl_resource_structured t0, 16 ->
 * STRUCTURED, dimension 12, stride 16; dcl_uav_typed_buffer (uint,...) u0 ->
 * TYPED, dimension 1; and so on.
 */
#include "ir_from_dxil_private.h"
#include "translator/dxil_ops.h"
#include "translator/sm4.h"

/* SM4 resource dimensions (sm4-tokens.md §8.3) of the typed DXIL kinds, by DXIL kind;
 * 0 for a kind that is no typed resource. */
static const uint8_t typed_dimension[SB_DXIL_RESOURCE_KIND_TYPED_BUFFER + 1] = {
    [SB_DXIL_RESOURCE_KIND_TEXTURE1D] = 2,        [SB_DXIL_RESOURCE_KIND_TEXTURE2D] = 3,
    [SB_DXIL_RESOURCE_KIND_TEXTURE2DMS] = 4,      [SB_DXIL_RESOURCE_KIND_TEXTURE3D] = 5,
    [SB_DXIL_RESOURCE_KIND_TEXTURE_CUBE] = 6,     [SB_DXIL_RESOURCE_KIND_TEXTURE1D_ARRAY] = 7,
    [SB_DXIL_RESOURCE_KIND_TEXTURE2D_ARRAY] = 8,  [SB_DXIL_RESOURCE_KIND_TEXTURE2DMS_ARRAY] = 9,
    [SB_DXIL_RESOURCE_KIND_TEXTURE_CUBE_ARRAY] = 10, [SB_DXIL_RESOURCE_KIND_TYPED_BUFFER] = 1,
};

/* SM4 return type (§8.4: 1 unorm, 2 snorm, 3 sint, 4 uint, 5 float) of a DXIL element
 * type; 0 for one the IR has no 32-bit view of. Min-precision element types (16-bit
 * names without native 16-bit types) are declared as their 32-bit forms, as fxc declares
 * min16float textures float. */
static uint32_t sm4_return_type(uint32_t element_type)
{
    switch (element_type) {
    case SB_DXIL_COMPONENT_TYPE_F32:
    case SB_DXIL_COMPONENT_TYPE_F16: return 5;
    case SB_DXIL_COMPONENT_TYPE_I32:
    case SB_DXIL_COMPONENT_TYPE_I16: return 3;
    case SB_DXIL_COMPONENT_TYPE_U32:
    case SB_DXIL_COMPONENT_TYPE_U16: return 4;
    case SB_DXIL_COMPONENT_TYPE_SNORM_F32:
    case SB_DXIL_COMPONENT_TYPE_SNORM_F16: return 2;
    case SB_DXIL_COMPONENT_TYPE_UNORM_F32:
    case SB_DXIL_COMPONENT_TYPE_UNORM_F16: return 1;
    default: return 0;
    }
}

static bool refuse_kind(struct dxil_front *f, const struct sb_dxil_resource *d, const char *why)
{
    const char *kind = sb_dxil_enum_value_name(SB_DXIL_ENUM_RESOURCE_KIND, d->kind);
    return dxil_front_fail(f, SB_ERROR_TRANSLATE_UNSUPPORTED, "resource '%s' is a %s (kind %u): %s",
                           d->name, kind ? kind : "resource of unknown kind", d->kind, why);
}

/* Texture and typed-buffer views: dimension, sample count, one return type for all four
 * components (DXIL names the element type once; fxc repeats it per component). */
static bool declare_typed(struct dxil_front *f, const struct sb_dxil_resource *d,
                          struct sb_ir_resource *r)
{
    uint32_t type = sm4_return_type(d->element_type);
    if (type == 0) {
        const char *name = sb_dxil_enum_value_name(SB_DXIL_ENUM_COMPONENT_TYPE, d->element_type);
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_UNSUPPORTED,
                               "resource '%s' has elements of type %s (%u): only 32-bit (and "
                               "min-precision) element types are translated", d->name,
                               name ? name : "?", d->element_type);
    }
    r->kind = SB_IR_RESOURCE_KIND_TYPED;
    r->dimension = typed_dimension[d->kind];
    for (unsigned i = 0; i < 4; i++)
        r->return_type[i] = type;
    if (d->kind == SB_DXIL_RESOURCE_KIND_TEXTURE2DMS ||
        d->kind == SB_DXIL_RESOURCE_KIND_TEXTURE2DMS_ARRAY)
        r->sample_count = d->sample_count;
    return true;
}

/* The kind-specific fields of the IR declaration of resource `d`. */
/* A FeedbackTexture2D(Array) as the R32_UINT storage image that emulates it (a typed UAV of
 * uint elements; ir_from_dxil_feedback.c says how the writes use it). */
static bool declare_feedback(struct dxil_front *f, const struct sb_dxil_resource *d,
                             struct sb_ir_resource *r)
{
    if (d->resource_class != SB_DXIL_RESOURCE_CLASS_UAV ||
        d->sampler_feedback_type > 1 /* MIP_REGION_USED, dxil.md §4.5 tag 2 */)
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_INVALID,
                               "feedback texture '%s' of class %u with feedback type %u", d->name,
                               d->resource_class, d->sampler_feedback_type);
    r->kind = SB_IR_RESOURCE_KIND_TYPED;
    /* SM4 dimensions (sm4-tokens.md §8.3): 3 Texture2D, 8 Texture2DArray. */
    r->dimension = d->kind == SB_DXIL_RESOURCE_KIND_FEEDBACK_TEXTURE2D ? 3 : 8;
    for (unsigned i = 0; i < 4; i++)
        r->return_type[i] = 4; /* uint (§8.4) */
    return true;
}

bool dxil_front_resource_kind(struct dxil_front *f, const struct sb_dxil_resource *d,
                              struct sb_ir_resource *r)
{
    if (d->resource_class == SB_DXIL_RESOURCE_CLASS_CBUFFER) {
        r->cb_size = (d->cbuffer_size + 15) / 16;
        return true;
    }
    if (d->resource_class == SB_DXIL_RESOURCE_CLASS_SAMPLER) {
        r->sampler_mode = d->sampler_kind;
        return true;
    }
    if (d->resource_class == SB_DXIL_RESOURCE_CLASS_UAV) {
        if (d->rasterizer_ordered)
            r->uav_flags |= SB_SM4_UAV_RASTERIZER_ORDERED;
        if (d->globally_coherent)
            r->uav_flags |= SB_SM4_UAV_GLOBALLY_COHERENT;
        r->has_counter = d->has_counter;
    }
    switch (d->kind) {
    case SB_DXIL_RESOURCE_KIND_RAW_BUFFER:
        r->kind = SB_IR_RESOURCE_KIND_RAW;
        r->dimension = 11;
        return true;
    case SB_DXIL_RESOURCE_KIND_STRUCTURED_BUFFER:
        /* The IR's structured loads and stores address whole DWORDs, as SM4's do; other
         * strides are raw buffers addressed in bytes (ir_from_dxil_narrow_structured.c). */
        if (dxil_front_declare_narrow_structured(d, r))
            return true;
        if (d->struct_stride == 0 || d->struct_stride % 4u)
            return refuse_kind(f, d, "its stride is not a positive multiple of 4");
        r->kind = SB_IR_RESOURCE_KIND_STRUCTURED;
        r->dimension = 12;
        r->stride = d->struct_stride;
        return true;
    case SB_DXIL_RESOURCE_KIND_TBUFFER:
        return refuse_kind(f, d, "tbuffers are not translated");
    case SB_DXIL_RESOURCE_KIND_RT_ACCELERATION_STRUCTURE:
        return refuse_kind(f, d, "ray-tracing acceleration structures are not translated");
    case SB_DXIL_RESOURCE_KIND_FEEDBACK_TEXTURE2D:
    case SB_DXIL_RESOURCE_KIND_FEEDBACK_TEXTURE2D_ARRAY:
        return declare_feedback(f, d, r);
    default:
        if (d->kind < sizeof(typed_dimension) && typed_dimension[d->kind] != 0)
            return declare_typed(f, d, r);
        return refuse_kind(f, d, "not a view kind");
    }
}
