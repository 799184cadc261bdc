/* SPDX-License-Identifier: MIT */
/*
 * Declarations of typed t#, typed u# and s# for the SPIR-V back end:
 *   t# texture  -> OpTypeImage Sampled=1 (SAMPLED_IMAGE), combined with an
 *                  s# at each use through OpSampledImage;
 *   t# buffer   -> Dim Buffer, Sampled=1 (UNIFORM_TEXEL_BUFFER);
 *   u# texture  -> Sampled=2 storage image, format Unknown (read/written with
 *                  StorageImage{Read,Write}WithoutFormat), or R32ui/R32i when
 *                  an atomic targets it (Vulkan allows image atomics only on
 *                  those formats; D3D only on R32 formats as well), or the
 *                  R32 format of its type when D3D itself restricts loads to
 *                  R32 (storage_format), or the bound view's format when
 *                  the device cannot read without one (spirv_storage_format.c);
 *   u# buffer   -> Dim Buffer, Sampled=2 (STORAGE_TEXEL_BUFFER);
 *   s#          -> OpTypeSampler (SAMPLER); comparison samplers need nothing
 *                  else: OpImageSampleDref* takes any Depth=0 image.
 * SM5.1 ranges become arrays of these (runtime arrays when unbounded).
 * Dimension facts (../shared/docs/sm4-tokens.md §8.3) are one table row each.
 */
#include "spirv_private.h"

#include "translator/sm4.h"

/* Row d = SM4 resource dimension d (§8.3); rows 0, 11, 12 are not images. */
static const struct sb_spv_dimension_info dimensions[] = {
    [1] = { SpvDimBuffer, false, false, 1, 0, 1, SpvCapabilitySampledBuffer, SpvCapabilityImageBuffer },
    [2] = { SpvDim1D, false, false, 1, 1, 1, SpvCapabilitySampled1D, SpvCapabilityImage1D },
    [3] = { SpvDim2D, false, false, 2, 2, 2, SpvCapabilityShader, SpvCapabilityShader },
    [4] = { SpvDim2D, false, true, 2, 2, 2, SpvCapabilityShader, SpvCapabilityStorageImageMultisample },
    [5] = { SpvDim3D, false, false, 3, 3, 3, SpvCapabilityShader, SpvCapabilityShader },
    [6] = { SpvDimCube, false, false, 3, 0, 2, SpvCapabilityShader, SpvCapabilityShader },
    [7] = { SpvDim1D, true, false, 2, 1, 2, SpvCapabilitySampled1D, SpvCapabilityImage1D },
    [8] = { SpvDim2D, true, false, 3, 2, 3, SpvCapabilityShader, SpvCapabilityShader },
    [9] = { SpvDim2D, true, true, 3, 2, 3, SpvCapabilityShader, SpvCapabilityImageMSArray },
    [10] = { SpvDimCube, true, false, 4, 0, 3, SpvCapabilitySampledCubeArray,
             SpvCapabilityImageCubeArray },
};

const struct sb_spv_dimension_info *sb_spv_dimension_info(uint32_t dimension)
{
    if (dimension < 1 || dimension > 10)
        return NULL;
    return &dimensions[dimension];
}

/* Lane view of a texel from the declared return type of x (§8.4). */
static uint32_t value_type_of(const struct sb_ir_resource *r)
{
    switch (r->return_type[0]) {
    case 3: return SB_IR_TYPE_INT;
    case 4: return SB_IR_TYPE_UINT;
    default: return SB_IR_TYPE_FLOAT; /* unorm, snorm, float, mixed; doubles are not images */
    }
}

/* Does D3D limit this shader's typed UAV loads to R32 views? Known only from a container
 * (no SFI0 part = no feature flags: limited); hand-built IR gets the general answer. */
static bool loads_r32_only(const struct sb_spv_context *ctx)
{
    uint32_t f = ctx->program->container_flags;
    return (f & SB_IR_CONTAINER_PRESENT) && !(f & SB_IR_CONTAINER_TYPED_UAV_LOAD_ADDITIONAL_FORMATS);
}

/*
 * The storage format of a typed u#. Image atomics need R32ui/R32i (Vulkan).
 * A u# that ld_uav_typed reads in a shader whose SFI0 flags lack
 * TypedUAVLoadAdditionalFormats can only be an R32_UINT/SINT/FLOAT view in
 * D3D, so the format is declared; that spares the device the "read without
 * format" feature, which some (lavapipe's texel buffers) lack. Otherwise
 * Unknown.
 */
static SpvImageFormat storage_format(bool r32_only, const struct sb_ir_resource *r, uint32_t uses)
{
    if ((uses & SB_SPV_USE_ATOMIC) || ((uses & SB_SPV_USE_READ) && r32_only)) {
        switch (r->return_type[0]) {
        case 3: return SpvImageFormatR32i;
        case 4: return SpvImageFormatR32ui;
        case 5: return (uses & SB_SPV_USE_ATOMIC) ? SpvImageFormatR32ui : SpvImageFormatR32f;
        default: break; /* unorm/snorm views are never R32 */
        }
        if (uses & SB_SPV_USE_ATOMIC)
            return SpvImageFormatR32ui;
    }
    return SpvImageFormatUnknown;
}

/* Wraps a descriptor type into the variable type of a range (count != 1). */
static uint32_t range_type(struct sb_spv_context *ctx, uint32_t element, uint32_t count)
{
    if (count == 1)
        return element;
    if (count != UINT32_MAX)
        return sb_spv_type_array(&ctx->builder, element, count);
    sb_spv_resource_need_indexing(ctx, SpvCapabilityRuntimeDescriptorArray);
    return sb_spv_type_runtime_array_unique(&ctx->builder, element);
}

/* The image type of a typed t#/u#; 0 (recorded) for impossible dimensions. */
static uint32_t image_type(struct sb_spv_context *ctx, const struct sb_ir_resource *r,
                           uint32_t sampled_type, uint32_t uses,
                           const struct sb_ir_instruction *first_read, bool *atomic_format)
{
    struct sb_spv_builder *b = &ctx->builder;
    const struct sb_spv_dimension_info *d = sb_spv_dimension_info(r->dimension);
    bool storage = r->resource_class == SB_IR_RESOURCE_UAV;
    if (!d) {
        sb_spv_fail(ctx, SB_ERROR_TRANSLATE_INVALID, NULL,
                    "typed resource %u of class %u has dimension %u", r->id, r->resource_class,
                    r->dimension);
        return 0;
    }
    sb_spv_capability(b, storage ? d->storage_cap : d->sampled_cap);
    SpvImageFormat format = SpvImageFormatUnknown;
    if (storage)
        format = storage_format(loads_r32_only(ctx), r, uses);
    /* A device that cannot read Unknown-format images gets the bound view's format. */
    if (storage && format == SpvImageFormatUnknown && (uses & SB_SPV_USE_READ) &&
        !sb_spv_device_reads_without_format(ctx)) {
        format = sb_spv_storage_format_given(ctx, r, first_read);
        if (format == SpvImageFormatUnknown)
            return 0;
    }
    *atomic_format = format != SpvImageFormatUnknown;
    return sb_spv_type_image(b, sampled_type, d->dim, 0, d->arrayed, d->ms, storage ? 2 : 1, format);
}

enum sb_result sb_spv_texture_declare(struct sb_spv_context *ctx, uint32_t index)
{
    struct sb_spv_builder *b = &ctx->builder;
    const struct sb_ir_resource *r = &ctx->program->resources[index];
    struct sb_spv_resource *out = &ctx->resources[index];
    struct sb_spv_resource_info *info = &sb_spv_resource_state(ctx)->info[index];
    uint32_t element;
    if (r->resource_class == SB_IR_RESOURCE_SAMPLER) {
        element = sb_spv_type_sampler(b);
    } else {
        info->dimension = r->dimension;
        info->value_type = value_type_of(r);
        bool atomic_format = false;
        /* Image atomics run on the integer view (R32ui/R32i). */
        if (r->resource_class == SB_IR_RESOURCE_UAV && info->value_type == SB_IR_TYPE_FLOAT &&
            (info->uses & SB_SPV_USE_ATOMIC))
            info->value_type = SB_IR_TYPE_UINT;
        out->sampled_type = sb_spv_type_of(ctx, info->value_type, 1);
        element = image_type(ctx, r, out->sampled_type, info->uses, info->first_read, &atomic_format);
        if (!element)
            return ctx->result;
        info->atomic_format = atomic_format;
    }
    out->element_type = element;
    out->type = range_type(ctx, element, r->count);
    out->arrayed = r->count != 1;
    out->pointer_type = sb_spv_type_pointer(b, SpvStorageClassUniformConstant, out->type);
    info->element_pointer = sb_spv_type_pointer(b, SpvStorageClassUniformConstant, element);
    out->var = sb_spv_variable_global(b, out->pointer_type, SpvStorageClassUniformConstant, 0);
    sb_spv_decorate1(b, out->var, SpvDecorationDescriptorSet, r->set);
    sb_spv_decorate1(b, out->var, SpvDecorationBinding, r->binding);
    if (r->resource_class == SB_IR_RESOURCE_UAV && (r->uav_flags & SB_SM4_UAV_GLOBALLY_COHERENT))
        sb_spv_decorate(b, out->var, SpvDecorationCoherent, NULL, 0);
    if (r->name)
        sb_spv_debug_name(ctx, out->var, r->name);
    return SB_SUCCESS;
}
