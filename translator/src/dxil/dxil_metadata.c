/* SPDX-License-Identifier: MIT */
/*
 * The dx.* metadata schema of ../shared/docs/dxil.md §4 as name tables and
 * record sizes, and the coordinate counts of each resource kind (§3.5).
 *
 * Why tables: the metadata decoder, the disassembler and reflection all
 * print and check the same tags and fields; one const row per value keeps
 * them from disagreeing, and tests/dxil_ops walks the rows against the doc.
 */
#include "translator/dxil_metadata.h"

#include <stddef.h>

#include "shaderbridge/dxbc_dxil.h"

#define COUNT(array) ((uint32_t)(sizeof(array) / sizeof((array)[0])))

/* Entry `index` of a name table, NULL past its end or in a gap. */
static const char *name_at(const char *const *names, uint32_t count, uint32_t index)
{
    return index < count ? names[index] : NULL;
}

static const char *const entry_property_names[] = {
    "ShaderFlags", "GSState", "DSState", "HSState", "NumThreads", "AutoBindingSpace",
    "RayPayloadSize", "RayAttribSize", "ShaderKind", "MSState", "ASState", "WaveSize",
    "EntryRootSig", "NodeLaunchType", "NodeIsProgramEntry", "NodeId",
    "NodeLocalRootArgumentsTableIndex", "NodeShareInputOf", "NodeDispatchGrid",
    "NodeMaxRecursionDepth", "NodeInputs", "NodeOutputs", "NodeMaxDispatchGrid",
    "RangedWaveSize", "GroupSharedLimit",
};
_Static_assert(COUNT(entry_property_names) == SB_DXIL_PROPERTY_COUNT, "one name per tag");

const char *sb_dxil_entry_property_name(uint32_t tag)
{
    return name_at(entry_property_names, COUNT(entry_property_names), tag);
}

uint32_t sb_dxil_entry_property_field_count(uint32_t tag)
{
    /* §4.2's record layouts; tags absent here hold a scalar or a variable list. */
    static const uint8_t counts[SB_DXIL_PROPERTY_COUNT] = {
        [SB_DXIL_PROPERTY_GS_STATE] = 5, [SB_DXIL_PROPERTY_DS_STATE] = 2,
        [SB_DXIL_PROPERTY_HS_STATE] = 7, [SB_DXIL_PROPERTY_NUM_THREADS] = 3,
        [SB_DXIL_PROPERTY_AUTO_BINDING_SPACE] = 1, [SB_DXIL_PROPERTY_MS_STATE] = 5,
        [SB_DXIL_PROPERTY_AS_STATE] = 2, [SB_DXIL_PROPERTY_WAVE_SIZE] = 1,
        [15] = 2, /* NodeId: !{!"name", i32 index} */
        [SB_DXIL_PROPERTY_RANGED_WAVE_SIZE] = 3,
    };
    return tag < SB_DXIL_PROPERTY_COUNT ? counts[tag] : 0;
}

/* D3D_PRIMITIVE: 8 + n - 1 is a patch of n control points. */
#define TENS(n) "patch" #n "0", "patch" #n "1", "patch" #n "2", "patch" #n "3", "patch" #n "4", \
                  "patch" #n "5", "patch" #n "6", "patch" #n "7", "patch" #n "8", "patch" #n "9"
static const char *const input_primitive_names[] = {
    "undefined", "point", "line", "triangle", NULL, NULL, "lineadj", "triangleadj",
    "patch1", "patch2", "patch3", "patch4", "patch5", "patch6", "patch7", "patch8", "patch9",
    TENS(1), TENS(2), "patch30", "patch31", "patch32",
};
#undef TENS
_Static_assert(COUNT(input_primitive_names) == 40, "0-7 and 32 patch sizes");

static const char *const primitive_topology_names[] = {
    "undefined", "point list", "line list", "line strip", "triangle list", "triangle strip",
};
static const char *const tessellator_domain_names[] = { NULL, "isoline", "tri", "quad" };
static const char *const partitioning_names[] = {
    NULL, "integer", "pow2", "fractional-odd", "fractional-even",
};
static const char *const output_primitive_names[] = {
    NULL, "point", "line", "triangle-cw", "triangle-ccw",
};
static const char *const control_flow_hint_names[] = {
    NULL, "branch", "flatten", "fastopt", "allow_uav_condition", "forcecase", "call",
};

const char *sb_dxil_state_value_name(enum sb_dxil_state_enum which, uint32_t value)
{
    static const struct {
        const char *const *names;
        uint32_t count;
    } tables[SB_DXIL_STATE_ENUM_COUNT] = {
        [SB_DXIL_STATE_INPUT_PRIMITIVE] = { input_primitive_names, COUNT(input_primitive_names) },
        [SB_DXIL_STATE_PRIMITIVE_TOPOLOGY] = { primitive_topology_names,
                                               COUNT(primitive_topology_names) },
        [SB_DXIL_STATE_TESSELLATOR_DOMAIN] = { tessellator_domain_names,
                                               COUNT(tessellator_domain_names) },
        [SB_DXIL_STATE_PARTITIONING] = { partitioning_names, COUNT(partitioning_names) },
        [SB_DXIL_STATE_OUTPUT_PRIMITIVE] = { output_primitive_names, COUNT(output_primitive_names) },
        [SB_DXIL_STATE_CONTROL_FLOW_HINT] = { control_flow_hint_names,
                                              COUNT(control_flow_hint_names) },
    };
    if ((unsigned)which >= SB_DXIL_STATE_ENUM_COUNT)
        return NULL;
    return name_at(tables[which].names, tables[which].count, value);
}

static const char *const shader_flag_names[SB_DXIL_SHADER_FLAG_BIT_COUNT] = {
    "DisableOptimizations", "DisableMathRefactoring", "EnableDoublePrecision",
    "ForceEarlyDepthStencil", "EnableRawAndStructuredBuffers", "LowPrecisionPresent",
    "EnableDoubleExtensions", "EnableMSAD", "AllResourcesBound",
    "ViewportAndRTArrayIndexFromAnyStage", "InnerCoverage", "StencilRef", "TiledResources",
    "TypedUAVLoadAdditionalFormats", "Level9ComparisonFiltering", "64UAVs",
    "UAVsAtEveryStage", "CSRawAndStructuredViaShader4X", "ROVs", "WaveOps", "Int64Ops",
    "ViewID", "Barycentrics", "UseNativeLowPrecision", "ShadingRate", "RaytracingTier1_1",
    "SamplerFeedback", "AtomicInt64OnTypedResource", "AtomicInt64OnGroupShared",
    "DerivativesInMeshAndAmpShaders", "ResourceDescriptorHeapIndexing",
    "SamplerDescriptorHeapIndexing", "AtomicInt64OnHeapResource", "ResMayNotAlias",
    "AdvancedTextureOps", "WriteableMSAATextures", NULL /* 36: reserved */,
    "SampleCmpGradientOrBias", "ExtendedCommandInfo", "UsesDerivatives", "RequiresGroup",
};

const char *sb_dxil_shader_flag_name(uint32_t bit)
{
    return name_at(shader_flag_names, COUNT(shader_flag_names), bit);
}

static const char *const signature_tag_names[] = {
    "OutputStream", NULL /* 1: unused */, "DynIdxCompMask", "UsageCompMask",
};

const char *sb_dxil_signature_tag_name(uint32_t tag)
{
    return name_at(signature_tag_names, COUNT(signature_tag_names), tag);
}

const char *sb_dxil_semantic_kind_name(uint32_t kind)
{
    /* Kinds 0-30 are PSV0's (container §6.4), whose names reflect already holds; SM 6.8
     * appended two kinds and moved Invalid from 31 to 33 (§4.4). */
    static const char *const since_sm68[] = {
        "StartVertexLocation", "StartInstanceLocation", "Invalid",
    };
    if (kind < SB_DXIL_SEMANTIC_START_VERTEX_LOCATION)
        return sb_dxbc_psv0_semantic_kind_name(kind);
    return name_at(since_sm68, COUNT(since_sm68), kind - SB_DXIL_SEMANTIC_START_VERTEX_LOCATION);
}

const char *sb_dxil_interpolation_name(uint32_t mode)
{
    /* The same eight modes as PSV0's (which adds an Invalid 8 the metadata never holds). */
    return mode < SB_DXIL_INTERP_COUNT ? sb_dxbc_psv0_interpolation_mode_name(mode) : NULL;
}

uint32_t sb_dxil_resource_field_count(uint32_t resource_class)
{
    /* SRV, UAV, CBV, sampler: the loader checks these counts exactly (§4.5). */
    static const uint8_t counts[] = { 9, 11, 8, 8 };
    return resource_class < COUNT(counts) ? counts[resource_class] : 0;
}

static const char *const resource_tag_names[] = {
    "ElementType", "StructStride", "SamplerFeedbackKind", "Atomic64Use", "ReorderCoherent",
};

const char *sb_dxil_resource_tag_name(uint32_t tag)
{
    return name_at(resource_tag_names, COUNT(resource_tag_names), tag);
}

/* One row per resource kind (§3.4 numbering), from §3.5's coordinate table and
 * getDimensions list. Kinds the table has no column for (cbuffers, samplers,
 * acceleration structures, feedback textures) take no coordinates. */
#define SHAPE(dims, arr, cub, ms, buf, sc, so, gr, lc, stc, mask)                                   \
    { .dimensions = dims, .array = arr, .cube = cub, .multisample = ms, .buffer = buf,          \
      .sample_coords = sc, .sample_offsets = so, .gradients = gr, .load_coords = lc,            \
      .store_coords = stc, .dimension_mask = mask }
static const struct sb_dxil_resource_shape resource_shapes[] = {
    [SB_DXIL_RESOURCE_KIND_TEXTURE1D] = SHAPE(1, false, false, false, false, 1, 1, 1, 1, 1, 0x9),
    [SB_DXIL_RESOURCE_KIND_TEXTURE2D] = SHAPE(2, false, false, false, false, 2, 2, 2, 2, 2, 0xB),
    [SB_DXIL_RESOURCE_KIND_TEXTURE2DMS] = SHAPE(2, false, false, true, false, 0, 0, 0, 2, 0, 0xB),
    [SB_DXIL_RESOURCE_KIND_TEXTURE3D] = SHAPE(3, false, false, false, false, 3, 3, 3, 3, 3, 0xF),
    [SB_DXIL_RESOURCE_KIND_TEXTURE_CUBE] = SHAPE(3, false, true, false, false, 3, 0, 3, 0, 0, 0xB),
    [SB_DXIL_RESOURCE_KIND_TEXTURE1D_ARRAY] = SHAPE(1, true, false, false, false, 2, 1, 1, 2, 2, 0xB),
    [SB_DXIL_RESOURCE_KIND_TEXTURE2D_ARRAY] = SHAPE(2, true, false, false, false, 3, 2, 2, 3, 3, 0xF),
    [SB_DXIL_RESOURCE_KIND_TEXTURE2DMS_ARRAY] = SHAPE(2, true, false, true, false, 0, 0, 0, 3, 0, 0xF),
    [SB_DXIL_RESOURCE_KIND_TEXTURE_CUBE_ARRAY] = SHAPE(3, true, true, false, false, 4, 0, 3, 0, 0, 0xF),
    [SB_DXIL_RESOURCE_KIND_TYPED_BUFFER] = SHAPE(1, false, false, false, true, 0, 0, 0, 1, 1, 0x1),
    [SB_DXIL_RESOURCE_KIND_RAW_BUFFER] = SHAPE(1, false, false, false, true, 0, 0, 0, 1, 1, 0x1),
    /* structured: c0 = element index, c1 = byte offset inside the element */
    [SB_DXIL_RESOURCE_KIND_STRUCTURED_BUFFER] = SHAPE(1, false, false, false, true, 0, 0, 0, 2, 2, 0x1),
    [SB_DXIL_RESOURCE_KIND_CBUFFER] = SHAPE(0, false, false, false, false, 0, 0, 0, 0, 0, 0),
    [SB_DXIL_RESOURCE_KIND_SAMPLER] = SHAPE(0, false, false, false, false, 0, 0, 0, 0, 0, 0),
    /* a tbuffer is read with BufferLoad, index = 16-byte row */
    [SB_DXIL_RESOURCE_KIND_TBUFFER] = SHAPE(1, false, false, false, true, 0, 0, 0, 1, 0, 0),
    [SB_DXIL_RESOURCE_KIND_RT_ACCELERATION_STRUCTURE] = SHAPE(0, false, false, false, false, 0, 0, 0, 0, 0, 0),
    [SB_DXIL_RESOURCE_KIND_FEEDBACK_TEXTURE2D] = SHAPE(2, false, false, false, false, 0, 0, 0, 0, 0, 0),
    [SB_DXIL_RESOURCE_KIND_FEEDBACK_TEXTURE2D_ARRAY] = SHAPE(2, true, false, false, false, 0, 0, 0, 0, 0, 0),
};
#undef SHAPE

bool sb_dxil_resource_shape(uint32_t kind, struct sb_dxil_resource_shape *out)
{
    static const struct sb_dxil_resource_shape none;
    bool known = kind != SB_DXIL_RESOURCE_KIND_INVALID && kind < COUNT(resource_shapes);
    if (out)
        *out = known ? resource_shapes[kind] : none;
    return known;
}

static const char *const field_tag_names[SB_DXIL_FIELD_TAG_COUNT] = {
    "SNorm", "UNorm", "Matrix", "CBufferOffset", "SemanticString", "InterpolationMode",
    "FieldName", "CompType", "Precise", "CBUsed", "ResProp", "BitFields", "BitFieldWidth",
    "VectorSize",
};

const char *sb_dxil_field_tag_name(uint32_t tag)
{
    return name_at(field_tag_names, COUNT(field_tag_names), tag);
}

static const char *const input_qualifier_names[SB_DXIL_INPUT_QUALIFIER_COUNT] = {
    "in", "out", "inout", "InputPatch", "OutputPatch", "OutStream0", "OutStream1",
    "OutStream2", "OutStream3", "InputPrimitive", "OutIndices", "OutVertices",
    "OutPrimitives", "InPayload", "NodeIO",
};

const char *sb_dxil_input_qualifier_name(uint32_t qualifier)
{
    return name_at(input_qualifier_names, COUNT(input_qualifier_names), qualifier);
}
