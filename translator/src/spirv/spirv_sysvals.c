/* SPDX-License-Identifier: MIT */
/*
 * System values of the newer D3D features as Vulkan built-ins (IR.md §System values):
 *   vViewID (SV_ViewID)         -> ViewIndex (MultiView; SPV_KHR_multiview before SPIR-V 1.3);
 *   vHelperLane (IsHelperLane)  -> HelperInvocation, as SV_IsFrontFace's bool -> 0xFFFFFFFF/0;
 *   SV_Barycentrics (v#.xyz)    -> BaryCoordKHR, or BaryCoordNoPerspKHR for a noperspective
 *                                  element (SPV_KHR_fragment_shader_barycentric);
 *   SV_ShadingRate              -> PrimitiveShadingRateKHR (vertex/geometry output) or
 *                                  ShadingRateKHR (pixel input) (SPV_KHR_fragment_shading_rate).
 *
 * Why the values are copied at the entry like the other built-ins: a discard is OpKill here
 * (spirv_flow.c), so an invocation never becomes a helper after it started, and
 * HelperInvocation read once is the value of every later IsHelperLane().
 *
 * The shading rate needs no conversion: D3D12_SHADING_RATE puts log2 of the width in bits
 * 2-3 and log2 of the height in bits 0-1 (1X2 = 0x1, 2X1 = 0x4, 4X4 = 0xA), and Vulkan's
 * ShadingRate flags are Vertical2Pixels 0x1, Vertical4Pixels 0x2, Horizontal2Pixels 0x4,
 * Horizontal4Pixels 0x8: for the rates D3D defines (each log2 at most 2) the bit patterns
 * are the same numbers.
 *
 * A described device profile without the feature (translate.h: multiview,
 * fragment_shading_rate, fragment_shader_barycentric) refuses the element, naming it, as
 * SV_InnerCoverage is refused (spirv_io.c): no fallback gives these values.
 *
 * A leaf below spirv_io.c: it picks the built-in and declares its capability and extension;
 * spirv_io.c creates the variable and the copy. The runtime enables neither
 * VK_KHR_fragment_shading_rate nor VK_KHR_fragment_shader_barycentric (vk_capability.c
 * refuses such modules by name).
 */
#include "spirv_io_private.h"

/* An instruction standing for the declaration of `e`, for refusals. */
static struct sb_ir_instruction declared_at(const struct sb_ir_signature_element *e)
{
    struct sb_ir_instruction at = { .offset = e->offset };
    return at;
}

/* A described device profile without the feature a system value needs: refused at the
 * element, naming it (translate.h; no fallback gives the value). */
static bool missing(struct sb_spv_context *ctx, const struct sb_ir_signature_element *e, bool present,
                    const char *what, const char *feature)
{
    if (!ctx->options->device.described || present)
        return false;
    struct sb_ir_instruction at = declared_at(e);
    sb_spv_fail(ctx, SB_ERROR_TRANSLATE_UNSUPPORTED, &at, "%s needs %s, which the device lacks", what,
                feature);
    return true;
}

/* SV_Barycentrics: a vec3 in lanes xyz of its v#, by the element's interpolation. */
static bool barycentrics(struct sb_spv_context *ctx, const struct sb_ir_signature_element *e,
                         struct sb_spv_sysval *out)
{
    struct sb_ir_instruction at = declared_at(e);
    if (ctx->execution_model != SpvExecutionModelFragment)
        return sb_spv_fail(ctx, SB_ERROR_TRANSLATE_UNSUPPORTED, &at,
                           "SV_Barycentrics outside a pixel shader input") == SB_SUCCESS;
    if (e->interpolation != SB_IR_INTERP_LINEAR && e->interpolation != SB_IR_INTERP_LINEAR_NOPERSPECTIVE)
        return sb_spv_fail(ctx, SB_ERROR_TRANSLATE_UNSUPPORTED, &at,
                           "SV_Barycentrics with interpolation mode %u (only linear and "
                           "noperspective are translated)", e->interpolation) == SB_SUCCESS;
    if ((e->mask & 0x7u) != e->mask)
        return sb_spv_fail(ctx, SB_ERROR_TRANSLATE_UNSUPPORTED, &at,
                           "SV_Barycentrics in lanes 0x%x of v%u (expected within xyz)", e->mask,
                           e->register_index) == SB_SUCCESS;
    if (missing(ctx, e, ctx->options->device.fragment_shader_barycentric, "SV_Barycentrics",
                "FragmentBarycentricKHR (VK_KHR_fragment_shader_barycentric fragmentShaderBarycentric)"))
        return false;
    sb_spv_capability(&ctx->builder, SpvCapabilityFragmentBarycentricKHR);
    sb_spv_extension(&ctx->builder, "SPV_KHR_fragment_shader_barycentric");
    out->builtin = e->interpolation == SB_IR_INTERP_LINEAR ? SpvBuiltInBaryCoordKHR
                                                           : SpvBuiltInBaryCoordNoPerspKHR;
    out->shape = SB_SPV_SYSVAL_FVEC3;
    return true;
}

bool sb_spv_sysval_builtin(struct sb_spv_context *ctx, const struct sb_ir_signature_element *e, bool output,
                           struct sb_spv_sysval *out)
{
    struct sb_spv_builder *b = &ctx->builder;
    const struct sb_device_profile *d = &ctx->options->device;
    out->decorate_volatile = false;
    if (e->file == SB_IR_FILE_VIEW_ID) {
        if (missing(ctx, e, d->multiview, "SV_ViewID", "MultiView (the Vulkan 1.1 multiview feature)"))
            return false;
        sb_spv_capability(b, SpvCapabilityMultiView);
        if (ctx->spirv_version < 0x00010300)
            sb_spv_extension(b, "SPV_KHR_multiview");
        out->builtin = SpvBuiltInViewIndex;
        out->shape = SB_SPV_SYSVAL_UINT;
        return true;
    }
    if (e->file == SB_IR_FILE_BASE_VERTEX || e->file == SB_IR_FILE_BASE_INSTANCE) {
        /* D3D's start vertex (base vertex when indexed) and start instance are Vulkan's. */
        sb_spv_capability(b, SpvCapabilityDrawParameters);
        if (ctx->spirv_version < 0x00010300)
            sb_spv_extension(b, "SPV_KHR_shader_draw_parameters");
        out->builtin = e->file == SB_IR_FILE_BASE_VERTEX ? SpvBuiltInBaseVertex : SpvBuiltInBaseInstance;
        out->shape = SB_SPV_SYSVAL_INT; /* int, as SV_VertexID's VertexIndex - BaseVertex declares it */
        return true;
    }
    if (e->file == SB_IR_FILE_HELPER_LANE) {
        /* SPIR-V 1.6 asks for Volatile on HelperInvocation (demote may change it). */
        out->builtin = SpvBuiltInHelperInvocation;
        out->shape = SB_SPV_SYSVAL_BOOL;
        out->decorate_volatile = ctx->spirv_version >= 0x00010600;
        return true;
    }
    if (e->system_value == 23) {
        if (output)
            return sb_spv_fail(ctx, SB_ERROR_TRANSLATE_UNSUPPORTED, NULL,
                               "SV_Barycentrics as an output") == SB_SUCCESS;
        return barycentrics(ctx, e, out);
    }
    /* SV_ShadingRate: written before the rasterizer, read by the pixel shader. */
    bool pixel = ctx->execution_model == SpvExecutionModelFragment;
    if (pixel == output) {
        struct sb_ir_instruction at = declared_at(e);
        return sb_spv_fail(ctx, SB_ERROR_TRANSLATE_UNSUPPORTED, &at, "SV_ShadingRate as a %s %s",
                           pixel ? "pixel shader" : "pre-rasterization",
                           output ? "output" : "input") == SB_SUCCESS;
    }
    if (missing(ctx, e, d->fragment_shading_rate, "SV_ShadingRate",
                "FragmentShadingRateKHR (VK_KHR_fragment_shading_rate primitiveFragmentShadingRate)"))
        return false;
    sb_spv_capability(b, SpvCapabilityFragmentShadingRateKHR);
    sb_spv_extension(b, "SPV_KHR_fragment_shading_rate");
    out->builtin = output ? SpvBuiltInPrimitiveShadingRateKHR : SpvBuiltInShadingRateKHR;
    out->shape = SB_SPV_SYSVAL_UINT;
    return true;
}
