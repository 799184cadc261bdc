/* SPDX-License-Identifier: MIT */
/*
 * Tests of the §3.4 operand-enumeration names (generated into dxil_ops_table.c)
 * and of the dx.* metadata schema (translator/dxil_metadata.h, §3.5 and §4 of
 * ../shared/docs/dxil.md). Expected values are read off the doc by hand.
 *
 *   test_dxil_metadata enums     §3.4 value names, flag formatting
 *   test_dxil_metadata schema    §4 tags, field layouts, state and hint names; §3.5 resource shapes
 */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "translator/dxil_metadata.h"
#include "translator/dxil_ops.h"

static bool same(const char *got, const char *want)
{
    return got == want || (got && want && strcmp(got, want) == 0);
}

static int run_enums(void)
{
    static const struct {
        enum sb_dxil_enum which;
        uint32_t value;
        const char *name;
    } names[] = {
        { SB_DXIL_ENUM_ATOMIC_BIN_OP_CODE, 0, "Add" },
        { SB_DXIL_ENUM_ATOMIC_BIN_OP_CODE, 7, "UMax" },
        { SB_DXIL_ENUM_ATOMIC_BIN_OP_CODE, 8, "Exchange" },
        { SB_DXIL_ENUM_ATOMIC_BIN_OP_CODE, 9, NULL },
        { SB_DXIL_ENUM_BARRIER_MODE, 8, "TGSMFence" },
        { SB_DXIL_ENUM_BARRIER_MODE, 3, NULL }, /* a combination, not one value */
        { SB_DXIL_ENUM_MEMORY_TYPE_FLAG, 4, "node input" },
        { SB_DXIL_ENUM_BARRIER_SEMANTIC_FLAG, 8, "ReorderScope" },
        { SB_DXIL_ENUM_WAVE_OP_KIND, 3, "Max" },
        { SB_DXIL_ENUM_SIGNED_OP_KIND, 0, "signed" },
        { SB_DXIL_ENUM_WAVE_BIT_OP_KIND, 2, "Xor" },
        { SB_DXIL_ENUM_WAVE_MULTI_PREFIX_OP_KIND, 4, "Product" },
        { SB_DXIL_ENUM_QUAD_OP_KIND, 2, "ReadAcrossDiagonal" },
        { SB_DXIL_ENUM_QUAD_VOTE_OP_KIND, 1, "All" },
        { SB_DXIL_ENUM_UNPACK_MODE, 1, "signed" },
        { SB_DXIL_ENUM_PACK_MODE, 2, "signed clamp" },
        { SB_DXIL_ENUM_PACK_MODE, 3, NULL },
        { SB_DXIL_ENUM_RESOURCE_CLASS, 2, "CBuffer" },
        { SB_DXIL_ENUM_RESOURCE_KIND, 0, "Invalid" },
        { SB_DXIL_ENUM_RESOURCE_KIND, 8, "Texture2DMSArray" },
        { SB_DXIL_ENUM_RESOURCE_KIND, 16, "RTAccelerationStructure" },
        { SB_DXIL_ENUM_RESOURCE_KIND, 18, "FeedbackTexture2DArray" },
        { SB_DXIL_ENUM_RESOURCE_KIND, 19, NULL },
        { SB_DXIL_ENUM_COMPONENT_TYPE, 9, "F32" },
        { SB_DXIL_ENUM_COMPONENT_TYPE, 14, "UNormF32" },
        { SB_DXIL_ENUM_COMPONENT_TYPE, 18, "PackedU8x32" },
        { SB_DXIL_ENUM_COMPONENT_TYPE, 21, "F8_E4M3FN" },
        { SB_DXIL_ENUM_COMPONENT_TYPE, 23, "BFloat16" },
        { SB_DXIL_ENUM_COMPONENT_TYPE, 24, NULL },
        { SB_DXIL_ENUM_SAMPLER_KIND, 1, "Comparison" },
        { SB_DXIL_ENUM_SAMPLER_FEEDBACK_TYPE, 1, "MipRegionUsed" },
        { SB_DXIL_ENUM_COMMITTED_STATUS, 2, "procedural" },
        { SB_DXIL_ENUM_CANDIDATE_TYPE, 0, "non-opaque triangle" },
        { SB_DXIL_ENUM_RAY_FLAG, 0x400, "ForceOMM2State" },
        { SB_DXIL_ENUM_RAY_FLAG, 0x10, "CullBackFacing" },
        { SB_DXIL_ENUM_HIT_KIND, 0xFE, "TriangleFrontFace" },
        { SB_DXIL_ENUM_HIT_KIND, 0, NULL },
        { SB_DXIL_ENUM_COUNT, 0, NULL },
    };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        const char *got = sb_dxil_enum_value_name(names[i].which, names[i].value);
        CHECK(same(got, names[i].name), "enum %d value %#x: %s, want %s", names[i].which,
              names[i].value, got ? got : "NULL", names[i].name ? names[i].name : "NULL");
    }
    /* Sizes of every §3.4 enumeration, and the generated constants. */
    static const uint32_t sizes[SB_DXIL_ENUM_COUNT] = {
        [SB_DXIL_ENUM_ATOMIC_BIN_OP_CODE] = 9, [SB_DXIL_ENUM_BARRIER_MODE] = 4,
        [SB_DXIL_ENUM_MEMORY_TYPE_FLAG] = 4, [SB_DXIL_ENUM_BARRIER_SEMANTIC_FLAG] = 4,
        [SB_DXIL_ENUM_WAVE_OP_KIND] = 4, [SB_DXIL_ENUM_SIGNED_OP_KIND] = 2,
        [SB_DXIL_ENUM_WAVE_BIT_OP_KIND] = 3, [SB_DXIL_ENUM_WAVE_MULTI_PREFIX_OP_KIND] = 5,
        [SB_DXIL_ENUM_QUAD_OP_KIND] = 3, [SB_DXIL_ENUM_QUAD_VOTE_OP_KIND] = 2,
        [SB_DXIL_ENUM_UNPACK_MODE] = 2, [SB_DXIL_ENUM_PACK_MODE] = 3,
        [SB_DXIL_ENUM_RESOURCE_CLASS] = 4, [SB_DXIL_ENUM_RESOURCE_KIND] = 19,
        [SB_DXIL_ENUM_COMPONENT_TYPE] = 24, [SB_DXIL_ENUM_SAMPLER_KIND] = 3,
        [SB_DXIL_ENUM_SAMPLER_FEEDBACK_TYPE] = 2, [SB_DXIL_ENUM_COMMITTED_STATUS] = 3,
        [SB_DXIL_ENUM_CANDIDATE_TYPE] = 2, [SB_DXIL_ENUM_RAY_FLAG] = 11, [SB_DXIL_ENUM_HIT_KIND] = 2,
    };
    for (int e = 0; e < SB_DXIL_ENUM_COUNT; e++)
        CHECK(sb_dxil_enums[e].count == sizes[e], "%s: %u values, want %u", sb_dxil_enums[e].name,
              sb_dxil_enums[e].count, sizes[e]);
    CHECK(SB_DXIL_BARRIER_MODE_UAV_FENCE_THREAD_GROUP == 4 && SB_DXIL_RESOURCE_KIND_TBUFFER == 15 &&
              SB_DXIL_COMPONENT_TYPE_SNORM_F64 == 15 && SB_DXIL_RAY_FLAG_SKIP_TRIANGLES == 0x100 &&
              SB_DXIL_PACK_MODE_UNSIGNED_CLAMP == 1 && SB_DXIL_RESOURCE_CLASS_SAMPLER == 3,
          "generated value constants");
    CHECK(sb_dxil_enums[SB_DXIL_ENUM_BARRIER_MODE].flags && sb_dxil_enums[SB_DXIL_ENUM_RAY_FLAG].flags &&
              !sb_dxil_enums[SB_DXIL_ENUM_RESOURCE_KIND].flags &&
              !sb_dxil_enums[SB_DXIL_ENUM_HIT_KIND].flags,
          "flag enums");
    /* Formatting, as the disassembler will print operands. */
    static const struct {
        enum sb_dxil_enum which;
        uint32_t value;
        const char *text;
    } formats[] = {
        { SB_DXIL_ENUM_BARRIER_MODE, 0x9, "SyncThreadGroup|TGSMFence" },
        { SB_DXIL_ENUM_BARRIER_MODE, 0x32, "UAVFenceGlobal|0x30" },
        { SB_DXIL_ENUM_BARRIER_MODE, 0, "0" },
        { SB_DXIL_ENUM_MEMORY_TYPE_FLAG, 0xF, "UAV|groupshared|node input|node output" },
        { SB_DXIL_ENUM_RESOURCE_KIND, 12, "StructuredBuffer" },
        { SB_DXIL_ENUM_RESOURCE_KIND, 77, "77" },
        { SB_DXIL_ENUM_COUNT, 5, "5" },
    };
    char text[64];
    for (size_t i = 0; i < sizeof formats / sizeof formats[0]; i++) {
        size_t need = sb_dxil_enum_format(formats[i].which, formats[i].value, text, sizeof text);
        CHECK(strcmp(text, formats[i].text) == 0 && need == strlen(formats[i].text),
              "format %#x: '%s' (%zu), want '%s'", formats[i].value, text, need, formats[i].text);
    }
    char small[8];
    size_t need = sb_dxil_enum_format(SB_DXIL_ENUM_BARRIER_MODE, 0x9, small, sizeof small);
    CHECK(need == strlen("SyncThreadGroup|TGSMFence") && strcmp(small, "SyncThr") == 0,
          "truncated format '%s' (%zu)", small, need);
    CHECK(sb_dxil_enum_format(SB_DXIL_ENUM_BARRIER_MODE, 0x9, NULL, 0) == 25, "size query");
    printf("dxil_metadata enums: %u checks, %u failures\n", checks, failures);
    return failures ? 1 : 0;
}

static void check_shape(uint32_t kind, const struct sb_dxil_resource_shape *want)
{
    struct sb_dxil_resource_shape got;
    memset(&got, 0xCD, sizeof got);
    CHECK(sb_dxil_resource_shape(kind, &got), "kind %u unknown", kind);
    CHECK(got.dimensions == want->dimensions && got.array == want->array &&
              got.cube == want->cube && got.multisample == want->multisample &&
              got.buffer == want->buffer,
          "kind %u (%s): dims %u array %d cube %d ms %d buffer %d", kind,
          sb_dxil_enum_value_name(SB_DXIL_ENUM_RESOURCE_KIND, kind), got.dimensions, got.array,
          got.cube, got.multisample, got.buffer);
    CHECK(got.sample_coords == want->sample_coords && got.sample_offsets == want->sample_offsets &&
              got.gradients == want->gradients,
          "kind %u: sample %u offsets %u gradients %u", kind, got.sample_coords,
          got.sample_offsets, got.gradients);
    CHECK(got.load_coords == want->load_coords && got.store_coords == want->store_coords &&
              got.dimension_mask == want->dimension_mask,
          "kind %u: load %u store %u getDimensions %#x", kind, got.load_coords, got.store_coords,
          got.dimension_mask);
}

static int run_schema(void)
{
    /* §4.2 */
    CHECK(SB_DXIL_ENTRY_FIELD_COUNT == 5 && SB_DXIL_ENTRY_PROPERTIES == 4, "entry fields");
    CHECK(same(sb_dxil_entry_property_name(0), "ShaderFlags") &&
              same(sb_dxil_entry_property_name(4), "NumThreads") &&
              same(sb_dxil_entry_property_name(11), "WaveSize") &&
              same(sb_dxil_entry_property_name(23), "RangedWaveSize") &&
              same(sb_dxil_entry_property_name(24), "GroupSharedLimit") &&
              sb_dxil_entry_property_name(25) == NULL,
          "property names");
    static const uint32_t fields[][2] = { { 0, 0 }, { 1, 5 }, { 2, 2 }, { 3, 7 }, { 4, 3 },
                                          { 6, 0 }, { 9, 5 }, { 10, 2 }, { 11, 1 }, { 23, 3 },
                                          { 99, 0 } };
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++)
        CHECK(sb_dxil_entry_property_field_count(fields[i][0]) == fields[i][1],
              "tag %u: %u fields, want %u", fields[i][0],
              sb_dxil_entry_property_field_count(fields[i][0]), fields[i][1]);
    static const struct {
        enum sb_dxil_state_enum which;
        uint32_t value;
        const char *name;
    } states[] = {
        { SB_DXIL_STATE_INPUT_PRIMITIVE, 1, "point" },      /* the corpus GS: 1, !{1,4,1,5,1} */
        { SB_DXIL_STATE_INPUT_PRIMITIVE, 4, NULL },
        { SB_DXIL_STATE_INPUT_PRIMITIVE, 7, "triangleadj" },
        { SB_DXIL_STATE_INPUT_PRIMITIVE, 8, "patch1" },
        { SB_DXIL_STATE_INPUT_PRIMITIVE, 10, "patch3" },
        { SB_DXIL_STATE_INPUT_PRIMITIVE, 26, "patch19" },
        { SB_DXIL_STATE_INPUT_PRIMITIVE, 27, "patch20" },
        { SB_DXIL_STATE_INPUT_PRIMITIVE, 39, "patch32" },
        { SB_DXIL_STATE_INPUT_PRIMITIVE, 40, NULL },
        { SB_DXIL_STATE_PRIMITIVE_TOPOLOGY, 5, "triangle strip" },
        { SB_DXIL_STATE_PRIMITIVE_TOPOLOGY, 6, NULL },
        { SB_DXIL_STATE_TESSELLATOR_DOMAIN, 0, NULL },
        { SB_DXIL_STATE_TESSELLATOR_DOMAIN, 2, "tri" },
        { SB_DXIL_STATE_PARTITIONING, 3, "fractional-odd" },
        { SB_DXIL_STATE_OUTPUT_PRIMITIVE, 4, "triangle-ccw" },
        { SB_DXIL_STATE_CONTROL_FLOW_HINT, 4, "allow_uav_condition" },
        { SB_DXIL_STATE_CONTROL_FLOW_HINT, 7, NULL },
        { SB_DXIL_STATE_ENUM_COUNT, 1, NULL },
    };
    for (size_t i = 0; i < sizeof states / sizeof states[0]; i++)
        CHECK(same(sb_dxil_state_value_name(states[i].which, states[i].value), states[i].name),
              "state enum %d value %u: want %s", states[i].which, states[i].value,
              states[i].name ? states[i].name : "NULL");
    /* §4.3: the flag names at the ends of each column and around the gap. */
    static const struct {
        uint32_t bit;
        const char *name;
    } flags[] = { { 0, "DisableOptimizations" }, { 3, "ForceEarlyDepthStencil" },
                  { 5, "LowPrecisionPresent" },  { 19, "WaveOps" },
                  { 20, "Int64Ops" },            { 23, "UseNativeLowPrecision" },
                  { 35, "WriteableMSAATextures" }, { 36, NULL },
                  { 37, "SampleCmpGradientOrBias" }, { 40, "RequiresGroup" },
                  { 41, NULL },                  { 63, NULL } };
    for (size_t i = 0; i < sizeof flags / sizeof flags[0]; i++)
        CHECK(same(sb_dxil_shader_flag_name(flags[i].bit), flags[i].name), "flag bit %u: %s",
              flags[i].bit, sb_dxil_shader_flag_name(flags[i].bit));
    CHECK(same(sb_dxil_shader_flag_name(SB_DXIL_SHADER_FLAG_WAVE_OPS), "WaveOps") &&
              same(sb_dxil_shader_flag_name(SB_DXIL_SHADER_FLAG_ENABLE_DOUBLE_PRECISION),
                   "EnableDoublePrecision"),
          "flag constants");
    /* §4.4 */
    CHECK(SB_DXIL_SIG_FIELD_COUNT == 11 && SB_DXIL_SIG_START_ROW == 8 &&
              SB_DXIL_SIG_INTERPOLATION == 5, "signature fields");
    CHECK(same(sb_dxil_semantic_kind_name(0), "Arbitrary") &&
              same(sb_dxil_semantic_kind_name(3), "Position") &&
              same(sb_dxil_semantic_kind_name(16), "Target") &&
              same(sb_dxil_semantic_kind_name(21), "DispatchThreadID") &&
              same(sb_dxil_semantic_kind_name(30), "CullPrimitive") &&
              same(sb_dxil_semantic_kind_name(31), "StartVertexLocation") &&
              same(sb_dxil_semantic_kind_name(33), "Invalid") &&
              sb_dxil_semantic_kind_name(34) == NULL,
          "semantic kinds");
    CHECK(same(sb_dxil_interpolation_name(4), "LinearNoperspective") &&
              same(sb_dxil_interpolation_name(7), "LinearNoperspectiveSample") &&
              sb_dxil_interpolation_name(8) == NULL, "interpolation modes");
    CHECK(same(sb_dxil_signature_tag_name(3), "UsageCompMask") &&
              sb_dxil_signature_tag_name(1) == NULL && sb_dxil_signature_tag_name(4) == NULL,
          "signature tags");
    /* §4.5 */
    CHECK(sb_dxil_resource_field_count(0) == 9 && sb_dxil_resource_field_count(1) == 11 &&
              sb_dxil_resource_field_count(2) == 8 && sb_dxil_resource_field_count(3) == 8 &&
              sb_dxil_resource_field_count(4) == 0, "resource record sizes");
    CHECK(SB_DXIL_RES_UAV_TAGS == 10 && SB_DXIL_RES_SRV_TAGS == 8 && SB_DXIL_RES_CBV_TAGS == 7 &&
              SB_DXIL_RES_UAV_HAS_COUNTER == 8, "resource field positions");
    CHECK(same(sb_dxil_resource_tag_name(1), "StructStride") &&
              same(sb_dxil_resource_tag_name(4), "ReorderCoherent") &&
              sb_dxil_resource_tag_name(5) == NULL, "resource tags");
    /* §4.6 */
    CHECK(same(sb_dxil_field_tag_name(3), "CBufferOffset") &&
              same(sb_dxil_field_tag_name(13), "VectorSize") && sb_dxil_field_tag_name(14) == NULL,
          "field annotation tags");
    CHECK(same(sb_dxil_input_qualifier_name(2), "inout") &&
              same(sb_dxil_input_qualifier_name(7), "OutStream2") &&
              same(sb_dxil_input_qualifier_name(14), "NodeIO") &&
              sb_dxil_input_qualifier_name(15) == NULL, "input qualifiers");
    /* §3.5: dims, array, cube, ms, buffer, sample coords, offsets, gradients, load, store,
     * getDimensions components. */
    static const struct {
        uint32_t kind;
        struct sb_dxil_resource_shape shape;
    } shapes[] = {
        { 1, { 1, false, false, false, false, 1, 1, 1, 1, 1, 0x9 } },  /* 1D {w,-,-,mips} */
        { 6, { 1, true, false, false, false, 2, 1, 1, 2, 2, 0xB } },   /* 1DArray */
        { 2, { 2, false, false, false, false, 2, 2, 2, 2, 2, 0xB } },  /* 2D */
        { 7, { 2, true, false, false, false, 3, 2, 2, 3, 3, 0xF } },   /* 2DArray */
        { 4, { 3, false, false, false, false, 3, 3, 3, 3, 3, 0xF } },  /* 3D */
        { 5, { 3, false, true, false, false, 3, 0, 3, 0, 0, 0xB } },   /* Cube */
        { 9, { 3, true, true, false, false, 4, 0, 3, 0, 0, 0xF } },    /* CubeArray */
        { 3, { 2, false, false, true, false, 0, 0, 0, 2, 0, 0xB } },   /* 2DMS {w,h,-,samples} */
        { 8, { 2, true, false, true, false, 0, 0, 0, 3, 0, 0xF } },    /* 2DMSArray */
        { 10, { 1, false, false, false, true, 0, 0, 0, 1, 1, 0x1 } },  /* typed buffer */
        { 11, { 1, false, false, false, true, 0, 0, 0, 1, 1, 0x1 } },  /* raw: byte offset */
        { 12, { 1, false, false, false, true, 0, 0, 0, 2, 2, 0x1 } },  /* structured */
        { 13, { 0, false, false, false, false, 0, 0, 0, 0, 0, 0 } },   /* cbuffer */
    };
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++)
        check_shape(shapes[i].kind, &shapes[i].shape);
    struct sb_dxil_resource_shape none;
    CHECK(!sb_dxil_resource_shape(0, &none) && none.load_coords == 0 && none.dimensions == 0,
          "Invalid kind");
    CHECK(!sb_dxil_resource_shape(19, &none) && !sb_dxil_resource_shape(0xFFFFFFFFu, NULL),
          "kinds past the table");
    printf("dxil_metadata schema: %u checks, %u failures\n", checks, failures);
    return failures ? 1 : 0;
}

int main(int argc, char **argv)
{
    if (argc == 2 && strcmp(argv[1], "enums") == 0)
        return run_enums();
    if (argc == 2 && strcmp(argv[1], "schema") == 0)
        return run_schema();
    fprintf(stderr, "usage: test_dxil_metadata enums|schema\n");
    return 2;
}
