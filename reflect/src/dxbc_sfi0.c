/* SPDX-License-Identifier: MIT */
/*
 * SFI0 decoder: the 64-bit shader feature flags (../shared/docs/dxcontainer.md §4)
 * and LLVM's names of the bits. Shorter than 8 bytes is an error; a longer
 * part is decoded from its first 8 bytes with a warning, because a newer
 * producer may append data we do not know.
 */
#include "dxbc_fxc_private.h"

enum { SFI0_SIZE = 8 };

bool sb_dxbc_decode_sfi0(struct sb_dxbc_decode_context *ctx, struct sb_cursor *data,
                         struct sb_dxbc_part *part)
{
    struct sb_dxbc_sfi0 *sfi0 = sb_reader_alloc(ctx->reader, 1, sizeof(*sfi0));
    if (!sfi0)
        return false;
    struct sb_cursor cur = *data;
    sfi0->flags = sb_cursor_u64(&cur, "SFI0 flags");
    if (!sb_cursor_ok(&cur))
        return false;
    if (sb_cursor_size(data) > SFI0_SIZE)
        sb_reader_warn(ctx->reader, sb_fxc_at(data, SFI0_SIZE),
                       "SFI0: %zu bytes after the 8-byte flags are ignored",
                       sb_cursor_size(data) - SFI0_SIZE);
    part->decoded.sfi0 = sfi0;
    return true;
}

const char *sb_dxbc_sfi0_flag_name(unsigned bit)
{
    static const char *const names[] = {
        "Doubles",
        "ComputeShadersPlusRawAndStructuredBuffers",
        "UAVsAtEveryStage",
        "Max64UAVs",
        "MinimumPrecision",
        "DX11_1_DoubleExtensions",
        "DX11_1_ShaderExtensions",
        "LEVEL9ComparisonFiltering",
        "TiledResources",
        "StencilRef",
        "InnerCoverage",
        "TypedUAVLoadAdditionalFormats",
        "ROVs",
        "ViewportAndRTArrayIndexFromAnyShaderFeedingRasterizer",
        "WaveOps",
        "Int64Ops",
        "ViewID",
        "Barycentrics",
        "NativeLowPrecision",
        "ShadingRate",
        "Raytracing_Tier_1_1",
        "SamplerFeedback",
        "AtomicInt64OnTypedResource",
        "AtomicInt64OnGroupShared",
        "DerivativesInMeshAndAmpShaders",
        "ResourceDescriptorHeapIndexing",
        "SamplerDescriptorHeapIndexing",
        "RESERVED",
        "AtomicInt64OnHeapResource",
        "AdvancedTextureOps",
        "WriteableMSAATextures",
        "SampleCmpWithGradientOrBias",
        "ExtendedCommandInfo",
        NULL, NULL, NULL, NULL, NULL, NULL, NULL, /* 33..39 unassigned */
        "UsesDerivatives",
        "RequiresGroup",
    };
    return bit < sizeof(names) / sizeof(names[0]) ? names[bit] : NULL;
}
