/* SPDX-License-Identifier: MIT */
/*
 * VBC reader, valid files: every test shader (glsl/, compiled by glslang at
 * build time) is assembled into a .vbc by the test writer, parsed, and every
 * decoded and derived value is compared with what was written
 * (../shared/docs/vbc.md §2-§7). The run also proves its own coverage: at the end it
 * fails unless the files together used every section and every enumerant
 * of the format. Last, every name table is walked row by row.
 *
 * Usage: test_vbc_parse SPV_DIR (exit 77 = skipped: no glslang).
 */
#include "vbc_writer.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__has_include)
#if __has_include(<vulkan/vulkan_core.h>)
#include <vulkan/vulkan_core.h>
/* The header promises these enums equal Vulkan's (../shared/docs/vbc.md §5.5, §5.6). */
#define SAME_VALUE(ours, vulkan) _Static_assert((int)(ours) == (int)(vulkan), #ours " != " #vulkan)
SAME_VALUE(SB_VBC_STAGE_VERTEX_BIT, VK_SHADER_STAGE_VERTEX_BIT);
SAME_VALUE(SB_VBC_STAGE_TESS_CONTROL_BIT, VK_SHADER_STAGE_TESSELLATION_CONTROL_BIT);
SAME_VALUE(SB_VBC_STAGE_TESS_EVALUATION_BIT, VK_SHADER_STAGE_TESSELLATION_EVALUATION_BIT);
SAME_VALUE(SB_VBC_STAGE_GEOMETRY_BIT, VK_SHADER_STAGE_GEOMETRY_BIT);
SAME_VALUE(SB_VBC_STAGE_FRAGMENT_BIT, VK_SHADER_STAGE_FRAGMENT_BIT);
SAME_VALUE(SB_VBC_STAGE_ALL_BITS, VK_SHADER_STAGE_ALL_GRAPHICS);
SAME_VALUE(SB_VBC_DESCRIPTOR_COMBINED_IMAGE_SAMPLER, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER);
SAME_VALUE(SB_VBC_DESCRIPTOR_STORAGE_IMAGE, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE);
SAME_VALUE(SB_VBC_DESCRIPTOR_UNIFORM_TEXEL_BUFFER, VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER);
SAME_VALUE(SB_VBC_DESCRIPTOR_STORAGE_TEXEL_BUFFER, VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER);
SAME_VALUE(SB_VBC_DESCRIPTOR_STORAGE_BUFFER, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER);
SAME_VALUE(SB_VBC_DESCRIPTOR_UNIFORM_BUFFER_DYNAMIC, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC);
SAME_VALUE(SB_VBC_DESCRIPTOR_INPUT_ATTACHMENT, VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT);
#endif
#endif

static int failures;
static const char *current;

#define CHECK_EQ(what, got, want)                                                             \
    do {                                                                                      \
        long long got_ = (long long)(got), want_ = (long long)(want);                         \
        if (got_ != want_) {                                                                  \
            fprintf(stderr, "%s:%d: %s: %s is %lld, expected %lld\n", __FILE__, __LINE__,     \
                    current, what, got_, want_);                                              \
            failures++;                                                                       \
        }                                                                                     \
    } while (0)

#define CHECK_STR(what, got, want)                                                            \
    do {                                                                                      \
        const char *got_ = (got), *want_ = (want);                                            \
        if (!got_ || strcmp(got_, want_)) {                                                   \
            fprintf(stderr, "%s:%d: %s: %s is '%s', expected '%s'\n", __FILE__, __LINE__,     \
                    current, what, got_ ? got_ : "(null)", want_);                            \
            failures++;                                                                       \
        }                                                                                     \
    } while (0)

/* Test-side expectations of §5.6, written independently of the library's table. */
struct resource_expectation {
    enum sb_vbc_binding_table table;
    enum sb_vbc_descriptor_type descriptor;
    bool buffer;
};
static const struct resource_expectation resources[] = {
    [SB_VBC_BASE_TYPE_SAMPLER] = { SB_VBC_TABLE_SAMPLERS,
                                   SB_VBC_DESCRIPTOR_COMBINED_IMAGE_SAMPLER, false },
    [SB_VBC_BASE_TYPE_IMAGE] = { SB_VBC_TABLE_IMAGES, SB_VBC_DESCRIPTOR_STORAGE_IMAGE, false },
    [SB_VBC_BASE_TYPE_RO_BUFFER] = { SB_VBC_TABLE_BUFFERS, SB_VBC_DESCRIPTOR_STORAGE_BUFFER, true },
    [SB_VBC_BASE_TYPE_RW_BUFFER] = { SB_VBC_TABLE_BUFFERS, SB_VBC_DESCRIPTOR_STORAGE_BUFFER, true },
    [SB_VBC_BASE_TYPE_RO_TEXELS] = { SB_VBC_TABLE_ROTEXELS,
                                     SB_VBC_DESCRIPTOR_UNIFORM_TEXEL_BUFFER, false },
    [SB_VBC_BASE_TYPE_RW_TEXELS] = { SB_VBC_TABLE_RWTEXELS,
                                     SB_VBC_DESCRIPTOR_STORAGE_TEXEL_BUFFER, false },
};

/* What the files used, to prove the run covered the whole format. */
static struct {
    uint32_t input_bases, output_bases, member_bases, binding_bases; /* bit per base type */
    uint32_t vector_sizes[5];      /* [base 1..4]: bit per dims[0] of non-matrices */
    uint32_t matrix_shapes;        /* bit (rows * 5 + columns) */
    uint32_t ranks[11];            /* [base type]: bit per texel rank */
    uint64_t formats[11];          /* [base type]: bit per (type, size, count), see format_bit */
    uint32_t subpass_types, subpass_counts, stage_bits, binding_types, blob_stages;
    bool uniform_present, uniform_absent, default_tables, custom_tables, unused_binding;
    bool input_array, member_array;
} seen;

static uint64_t format_bit(uint8_t type, uint8_t size, uint8_t count)
{
    unsigned size_index = size == 1 ? 0 : size == 2 ? 1 : 2;
    unsigned count_index = count == 1 ? 0 : count == 2 ? 1 : 2;
    return (uint64_t)1 << (type * 9 + size_index * 3 + count_index);
}

static void check_vars(const char *section, const struct sb_vbc_interface_var *got,
                       uint32_t got_count, const struct vw_var *want, uint32_t want_count,
                       const size_t *offsets, uint32_t *bases)
{
    CHECK_EQ(section, got_count, want_count);
    for (uint32_t i = 0; i < got_count && i < want_count; i++) {
        char what[64];
        snprintf(what, sizeof(what), "%s[%u]", section, i);
        CHECK_EQ(what, got[i].record_offset, offsets[i]);
        CHECK_EQ(what, got[i].location, want[i].location);
        CHECK_EQ(what, got[i].base_type, want[i].base_type);
        CHECK_EQ(what, got[i].dims[0], want[i].dims[0]);
        CHECK_EQ(what, got[i].dims[1], want[i].dims[1]);
        CHECK_EQ(what, got[i].array_size, want[i].array_size);
        CHECK_EQ(what, got[i].location_count, want[i].expect_location_count);
        *bases |= 1u << got[i].base_type;
        if (got[i].dims[1] > 1)
            seen.matrix_shapes |= 1u << (got[i].dims[0] * 5 + got[i].dims[1]);
        else
            seen.vector_sizes[got[i].base_type] |= 1u << got[i].dims[0];
        if (got[i].array_size > 1 && bases == &seen.input_bases)
            seen.input_array = true;
    }
}

static void check_bindings(const struct sb_vbc *vbc, const struct vw_spec *spec,
                           const struct vw_layout *layout)
{
    CHECK_EQ("binding count", vbc->binding_count, spec->binding_count);
    uint32_t slot_mask = 0;
    for (uint32_t i = 0; i < vbc->binding_count && i < spec->binding_count; i++) {
        const struct sb_vbc_binding *b = &vbc->bindings[i];
        const struct vw_binding *w = &spec->bindings[i];
        char what[64];
        snprintf(what, sizeof(what), "binding[%u]", i);
        CHECK_EQ(what, b->record_offset, layout->binding_at[i]);
        CHECK_EQ(what, b->slot, w->slot);
        CHECK_EQ(what, b->base_type, w->base_type);
        CHECK_EQ(what, b->stage_mask, w->stage_mask);
        const struct resource_expectation *r = &resources[w->base_type];
        CHECK_EQ(what, b->is_buffer, r->buffer);
        CHECK_EQ(what, b->table, r->table);
        CHECK_EQ(what, b->descriptor_type, r->descriptor);
        CHECK_EQ(what, b->binding_type, w->expect_binding_type);
        if (r->buffer) {
            CHECK_EQ(what, b->buffer_stride, w->stride);
        } else {
            CHECK_EQ(what, b->rank, w->rank);
            CHECK_EQ(what, b->format.type, w->texel_type);
            CHECK_EQ(what, b->format.component_size, w->component_size);
            CHECK_EQ(what, b->format.component_count, w->component_count);
            seen.ranks[w->base_type] |= 1u << w->rank;
            seen.formats[w->base_type] |=
                format_bit(w->texel_type, w->component_size, w->component_count);
        }
        slot_mask |= 1u << w->slot;
        seen.binding_bases |= 1u << w->base_type;
        seen.stage_bits |= w->stage_mask;
        seen.binding_types |= 1u << w->expect_binding_type;
        if (!w->stage_mask)
            seen.unused_binding = true;
    }
    CHECK_EQ("binding slot mask", vbc->binding_slot_mask, slot_mask);
    CHECK_EQ("push constant size", vbc->push_constant_size, spec->expect_push_constant_size);
}

static void check_uniform(const struct sb_vbc *vbc, const struct vw_spec *spec,
                          const struct vw_layout *layout)
{
    CHECK_EQ("has uniform", vbc->has_uniform, spec->uniform_size != 0);
    CHECK_EQ("uniform size", vbc->uniform.size, spec->uniform_size);
    CHECK_EQ("uniform offset", vbc->uniform.record_offset, layout->uniform_at);
    if (!spec->uniform_size) {
        seen.uniform_absent = true;
        CHECK_EQ("member count", vbc->uniform.member_count, 0);
        return;
    }
    seen.uniform_present = true;
    seen.stage_bits |= spec->uniform_stage_mask;
    CHECK_EQ("uniform stage mask", vbc->uniform.stage_mask, spec->uniform_stage_mask);
    CHECK_EQ("member count", vbc->uniform.member_count, spec->member_count);
    for (uint32_t i = 0; i < vbc->uniform.member_count && i < spec->member_count; i++) {
        const struct sb_vbc_uniform_member *m = &vbc->uniform.members[i];
        const struct vw_member *w = &spec->members[i];
        char what[64];
        snprintf(what, sizeof(what), "member[%u]", i);
        CHECK_STR(what, m->name, w->name);
        CHECK_EQ(what, m->name_length, strlen(w->name));
        CHECK_EQ(what, m->record_offset, layout->member_at[i]);
        CHECK_EQ(what, m->offset, w->offset);
        CHECK_EQ(what, m->base_type, w->base_type);
        CHECK_EQ(what, m->dims[0], w->dims[0]);
        CHECK_EQ(what, m->dims[1], w->dims[1]);
        CHECK_EQ(what, m->array_size, w->array_size);
        CHECK_EQ(what, m->size, 4u * w->dims[0] * w->dims[1] * w->array_size);
        seen.member_bases |= 1u << w->base_type;
        if (w->dims[1] > 1)
            seen.matrix_shapes |= 1u << (w->dims[0] * 5 + w->dims[1]);
        else
            seen.vector_sizes[w->base_type] |= 1u << w->dims[0];
        if (w->array_size > 1)
            seen.member_array = true;
    }
}

static void check_bytecode(const struct sb_vbc *vbc, const struct vw_spec *spec,
                           const struct vw_layout *layout)
{
    uint32_t present = 0, n = 0;
    for (uint32_t s = 0; s < SB_VBC_STAGE_COUNT; s++) {
        const struct vw_blob *blob = &spec->blobs[s];
        CHECK_EQ("header bytecode words", vbc->header.bytecode_words[s],
                 blob->bytes ? blob->size / 4 : 0);
        const struct sb_vbc_spirv *slice = sb_vbc_find_spirv(vbc, (enum sb_vbc_stage)s);
        if (!blob->bytes) {
            CHECK_EQ("absent stage has no slice", slice != NULL, 0);
            continue;
        }
        present |= 1u << s;
        seen.blob_stages |= 1u << s;
        CHECK_EQ("slice found", slice != NULL, 1);
        if (!slice || n >= vbc->spirv_count)
            continue;
        CHECK_EQ("slice order", slice == &vbc->spirv[n], 1);
        n++;
        CHECK_EQ("slice stage", slice->stage, s);
        CHECK_EQ("slice offset", slice->offset, layout->blob_at[s]);
        CHECK_EQ("slice word count", slice->word_count, blob->size / 4);
        CHECK_EQ("slice size", slice->size, blob->size);
        CHECK_EQ("slice points into the copy", slice->bytes == vbc->bytes + slice->offset, 1);
        CHECK_EQ("slice bytes", memcmp(slice->bytes, blob->bytes, blob->size), 0);
    }
    CHECK_EQ("spirv count", vbc->spirv_count, n);
    CHECK_EQ("stage mask", vbc->stage_mask, present);
}

static void check_file(const struct vw_spec *spec, const char *label)
{
    current = label;
    struct vw_layout layout;
    size_t size = 0;
    uint8_t *bytes = vw_write(spec, &size, &layout);
    if (!bytes) {
        fprintf(stderr, "%s: writer out of memory\n", label);
        failures++;
        return;
    }
    struct sb_vbc *vbc = NULL;
    struct sb_error error = { 0 };
    enum sb_result result = sb_vbc_parse(bytes, size, &vbc, &error);
    if (result != SB_SUCCESS) {
        fprintf(stderr, "%s: parse failed: %s at %llu: %s\n", label, sb_result_name(result),
                (unsigned long long)error.offset, error.message);
        failures++;
        free(bytes);
        return;
    }
    CHECK_EQ("size", vbc->size, size);
    CHECK_EQ("bytes are a copy", vbc->bytes != bytes, 1);
    CHECK_EQ("magic", memcmp(vbc->header.magic, "VBC", 3), 0);
    CHECK_EQ("version", vbc->header.version, 1);
    CHECK_EQ("shader type", vbc->header.shader_type, SB_VBC_SHADER_TYPE_GRAPHICS);
    bool default_tables = true;
    for (uint32_t t = 0; t < SB_VBC_TABLE_COUNT; t++) {
        CHECK_EQ("table size", vbc->header.table_sizes[t], spec->table_sizes[t]);
        default_tables &= spec->table_sizes[t] ==
                          sb_vbc_table_default_size((enum sb_vbc_binding_table)t);
    }
    seen.default_tables |= default_tables;
    seen.custom_tables |= !default_tables;

    check_vars("vertex input", vbc->vertex_inputs, vbc->vertex_input_count, spec->inputs,
               spec->input_count, layout.input_at, &seen.input_bases);
    CHECK_EQ("vertex location mask", vbc->vertex_location_mask, spec->expect_location_mask);
    check_vars("fragment output", vbc->fragment_outputs, vbc->fragment_output_count,
               spec->outputs, spec->output_count, layout.output_at, &seen.output_bases);
    check_bindings(vbc, spec, &layout);
    check_uniform(vbc, spec, &layout);

    CHECK_EQ("subpass count", vbc->subpass_input_count, spec->subpass_count);
    seen.subpass_counts |= 1u << spec->subpass_count;
    for (uint32_t i = 0; i < vbc->subpass_input_count && i < spec->subpass_count; i++) {
        CHECK_EQ("subpass index", vbc->subpass_inputs[i].index, i);
        CHECK_EQ("subpass offset", vbc->subpass_inputs[i].record_offset, layout.subpass_at[i]);
        CHECK_EQ("subpass type", vbc->subpass_inputs[i].texel_type, spec->subpasses[i].texel_type);
        CHECK_EQ("subpass components", vbc->subpass_inputs[i].component_count, 4);
        seen.subpass_types |= 1u << spec->subpasses[i].texel_type;
    }
    check_bytecode(vbc, spec, &layout);

    CHECK_EQ("engine stages", vbc->engine_stages, spec->expect_engine_stages);
    CHECK_EQ("engine default tables", vbc->engine_default_tables,
             spec->expect_engine_default_tables);
    CHECK_EQ("engine binding types", vbc->engine_binding_types,
             spec->expect_engine_binding_types);
    CHECK_EQ("engine loadable", vbc->engine_loadable,
             spec->expect_engine_stages && spec->expect_engine_default_tables &&
                 spec->expect_engine_binding_types);
    sb_vbc_destroy(vbc);
    free(bytes);
}

#define REQUIRE_COVERED(what, got, want)                                                      \
    do {                                                                                      \
        if ((got) != (want)) {                                                                \
            fprintf(stderr, "coverage: %s is 0x%llx, expected 0x%llx\n", what,                \
                    (unsigned long long)(got), (unsigned long long)(want));                   \
            failures++;                                                                       \
        }                                                                                     \
    } while (0)

static void check_coverage(void)
{
    const uint32_t numeric = (1u << 2) | (1u << 3) | (1u << 4);
    REQUIRE_COVERED("vertex input base types", seen.input_bases, numeric);
    REQUIRE_COVERED("fragment output base types", seen.output_bases, numeric);
    REQUIRE_COVERED("uniform member base types", seen.member_bases, numeric | (1u << 1));
    REQUIRE_COVERED("binding base types", seen.binding_bases, 0x7e0u);
    for (int base = 1; base <= 4; base++)
        REQUIRE_COVERED("vector sizes 1..4", seen.vector_sizes[base], 0x1eu);
    uint32_t shapes = 0;
    for (uint32_t rows = 2; rows <= 4; rows++)
        for (uint32_t columns = 2; columns <= 4; columns++)
            shapes |= 1u << (rows * 5 + columns);
    REQUIRE_COVERED("matrix shapes", seen.matrix_shapes, shapes);
    REQUIRE_COVERED("sampler ranks", seen.ranks[SB_VBC_BASE_TYPE_SAMPLER], 0x3fu);
    REQUIRE_COVERED("image ranks", seen.ranks[SB_VBC_BASE_TYPE_IMAGE], 0x3fu);
    REQUIRE_COVERED("rotexels ranks", seen.ranks[SB_VBC_BASE_TYPE_RO_TEXELS], 0x40u);
    REQUIRE_COVERED("rwtexels ranks", seen.ranks[SB_VBC_BASE_TYPE_RW_TEXELS], 0x40u);
    uint64_t sampled = format_bit(0, 4, 4) | format_bit(1, 4, 4) | format_bit(2, 4, 4);
    REQUIRE_COVERED("sampler formats", seen.formats[SB_VBC_BASE_TYPE_SAMPLER], sampled);
    REQUIRE_COVERED("rotexels formats", seen.formats[SB_VBC_BASE_TYPE_RO_TEXELS], sampled);
    uint64_t all_formats = 0;
    static const uint8_t sizes_of_type[5][2] = { { 4, 4 }, { 4, 4 }, { 4, 4 }, { 1, 2 }, { 1, 2 } };
    for (uint8_t type = 0; type < 5; type++)
        for (int s = 0; s < 2; s++)
            for (uint8_t count = 1; count <= 4; count *= 2)
                all_formats |= format_bit(type, sizes_of_type[type][s], count);
    REQUIRE_COVERED("storage formats (images + rwtexels)",
                    seen.formats[SB_VBC_BASE_TYPE_IMAGE] | seen.formats[SB_VBC_BASE_TYPE_RW_TEXELS],
                    all_formats);
    REQUIRE_COVERED("subpass texel types", seen.subpass_types, 0x7u);
    REQUIRE_COVERED("subpass counts 0..4", seen.subpass_counts, 0x1fu);
    REQUIRE_COVERED("stage bits", seen.stage_bits, 0x1fu);
    REQUIRE_COVERED("engine binding types", seen.binding_types, 0xffffu);
    REQUIRE_COVERED("SPIR-V stages", seen.blob_stages, 0x1fu);
    REQUIRE_COVERED("uniform present and absent", seen.uniform_present + seen.uniform_absent, 2);
    REQUIRE_COVERED("default and -T tables", seen.default_tables + seen.custom_tables, 2);
    REQUIRE_COVERED("unused binding", seen.unused_binding, 1);
    REQUIRE_COVERED("arrays", seen.input_array + seen.member_array, 2);
}

/* Every row of every name table, by value, and one past the end. */
static void check_names(void)
{
    current = "names";
    static const char *const bases[] = { "void", "boolean", "signed", "unsigned", "float",
                                         "sampler", "image", "ro_buffer", "rw_buffer",
                                         "ro_texels", "rw_texels", "sp_input", "uniform",
                                         "struct" };
    for (uint32_t i = 0; i < 14; i++)
        CHECK_STR("base type name", sb_vbc_base_type_name((enum sb_vbc_base_type)i), bases[i]);
    CHECK_STR("base type 14", sb_vbc_base_type_name((enum sb_vbc_base_type)14), "unknown");
    static const char *const ranks[] = { "1d", "2d", "3d", "1d_array", "2d_array", "cube",
                                         "buffer" };
    for (uint32_t i = 0; i < 7; i++)
        CHECK_STR("rank name", sb_vbc_texel_rank_name((enum sb_vbc_texel_rank)i), ranks[i]);
    CHECK_STR("rank 7", sb_vbc_texel_rank_name((enum sb_vbc_texel_rank)7), "unknown");
    static const char *const types[] = { "signed", "unsigned", "float", "unorm", "snorm" };
    for (uint32_t i = 0; i < 5; i++)
        CHECK_STR("texel type name", sb_vbc_texel_type_name((enum sb_vbc_texel_type)i), types[i]);
    CHECK_STR("texel type 5", sb_vbc_texel_type_name((enum sb_vbc_texel_type)5), "unknown");
    static const char *const stages[] = { "vert", "tesc", "tese", "geom", "frag" };
    for (uint32_t i = 0; i < 5; i++) {
        CHECK_STR("stage name", sb_vbc_stage_name((enum sb_vbc_stage)i), stages[i]);
        CHECK_STR("stage bit name", sb_vbc_stage_bit_name(1u << i), stages[i]);
    }
    CHECK_STR("stage 5", sb_vbc_stage_name((enum sb_vbc_stage)5), "unknown");
    CHECK_STR("stage bit 0x20", sb_vbc_stage_bit_name(0x20), "unknown");
    CHECK_STR("stage bits 0x11", sb_vbc_stage_bit_name(0x11), "unknown");
    static const char *const tables[] = { "samplers", "images", "buffers", "rotexels", "rwtexels" };
    static const uint32_t defaults[] = { 8192, 128, 512, 128, 128 };
    for (uint32_t i = 0; i < 5; i++) {
        CHECK_STR("table name", sb_vbc_binding_table_name((enum sb_vbc_binding_table)i), tables[i]);
        CHECK_EQ("table default", sb_vbc_table_default_size((enum sb_vbc_binding_table)i),
                 defaults[i]);
    }
    CHECK_STR("table 5", sb_vbc_binding_table_name((enum sb_vbc_binding_table)5), "unknown");
    CHECK_EQ("table 5 default", sb_vbc_table_default_size((enum sb_vbc_binding_table)5), 0);
    static const struct { uint32_t value; const char *name; } descriptors[] = {
        { 1, "COMBINED_IMAGE_SAMPLER" }, { 3, "STORAGE_IMAGE" }, { 4, "UNIFORM_TEXEL_BUFFER" },
        { 5, "STORAGE_TEXEL_BUFFER" },   { 7, "STORAGE_BUFFER" }, { 8, "UNIFORM_BUFFER_DYNAMIC" },
        { 10, "INPUT_ATTACHMENT" },      { 0, "unknown" },        { 2, "unknown" },
        { 11, "unknown" },
    };
    for (size_t i = 0; i < sizeof(descriptors) / sizeof(descriptors[0]); i++)
        CHECK_STR("descriptor name",
                  sb_vbc_descriptor_type_name((enum sb_vbc_descriptor_type)descriptors[i].value),
                  descriptors[i].name);
    static const char *const binding_types[] = {
        "Sampler1D", "Sampler2D", "Sampler3D", "Sampler1DArray", "Sampler2DArray",
        "SamplerCube", "Image1D", "Image2D", "Image3D", "Image1DArray", "Image2DArray",
        "ROBuffer", "RWBuffer", "ROTexels", "RWTexels", "unmapped",
    };
    for (uint32_t i = 0; i < 16; i++)
        CHECK_STR("binding type name", sb_vbc_binding_type_name((enum sb_vbc_binding_type)i),
                  binding_types[i]);
    CHECK_STR("binding type 16", sb_vbc_binding_type_name((enum sb_vbc_binding_type)16), "unknown");
    CHECK_STR("shader type 1", sb_vbc_shader_type_name(SB_VBC_SHADER_TYPE_GRAPHICS), "graphics");
    CHECK_STR("shader type 2", sb_vbc_shader_type_name((enum sb_vbc_shader_type)2), "unknown");

    /* The 21 formats of §5.4, and a few that are not formats. */
    static const struct { uint8_t type, size, count; const char *name; } formats[] = {
        { 0, 4, 1, "int" },      { 0, 4, 2, "int2" },      { 0, 4, 4, "int4" },
        { 1, 4, 1, "uint" },     { 1, 4, 2, "uint2" },     { 1, 4, 4, "uint4" },
        { 2, 4, 1, "float" },    { 2, 4, 2, "float2" },    { 2, 4, 4, "float4" },
        { 3, 1, 1, "u8norm" },   { 3, 1, 2, "u8norm2" },   { 3, 1, 4, "u8norm4" },
        { 3, 2, 1, "u16norm" },  { 3, 2, 2, "u16norm2" },  { 3, 2, 4, "u16norm4" },
        { 4, 1, 1, "s8norm" },   { 4, 1, 2, "s8norm2" },   { 4, 1, 4, "s8norm4" },
        { 4, 2, 1, "s16norm" },  { 4, 2, 2, "s16norm2" },  { 4, 2, 4, "s16norm4" },
    };
    for (size_t i = 0; i < sizeof(formats) / sizeof(formats[0]); i++) {
        struct sb_vbc_texel_format f = { (enum sb_vbc_texel_type)formats[i].type,
                                         formats[i].size, formats[i].count };
        CHECK_STR("texel format name", sb_vbc_texel_format_name(&f), formats[i].name);
    }
    struct sb_vbc_texel_format not_formats[] = {
        { SB_VBC_TEXEL_TYPE_FLOAT, 2, 4 }, { SB_VBC_TEXEL_TYPE_UNORM, 4, 1 },
        { SB_VBC_TEXEL_TYPE_SIGNED, 4, 3 }, { (enum sb_vbc_texel_type)5, 4, 4 },
    };
    for (size_t i = 0; i < sizeof(not_formats) / sizeof(not_formats[0]); i++)
        CHECK_EQ("not a texel format", sb_vbc_texel_format_name(&not_formats[i]) == NULL, 1);
    CHECK_EQ("NULL format", sb_vbc_texel_format_name(NULL) == NULL, 1);
    CHECK_EQ("find_spirv(NULL)", sb_vbc_find_spirv(NULL, SB_VBC_STAGE_VERTEX) == NULL, 1);
}

int main(int argc, char **argv)
{
    check_names();
    if (argc < 2 || !argv[1][0]) {
        printf("SKIP: glslangValidator was not found at configure time, so the SPIR-V of the "
               "test shaders was not built\n");
        return failures ? 1 : 77;
    }
    struct vw_modules modules;
    if (!vw_modules_load(&modules, argv[1]))
        return 1;
    static struct vw_spec spec; /* large: keep it off the stack */
    vw_spec_basic(&spec, &modules);
    check_file(&spec, "basic");
    vw_spec_full(&spec, &modules);
    check_file(&spec, "full");
    vw_spec_formats(&spec, &modules);
    check_file(&spec, "formats");
    for (uint32_t n = 1; n <= 4; n++) {
        char label[32];
        snprintf(label, sizeof(label), "subpass%u", n);
        vw_spec_subpass(&spec, &modules, n);
        check_file(&spec, label);
    }
    check_coverage();
    vw_modules_free(&modules);
    if (failures) {
        fprintf(stderr, "%d check(s) failed\n", failures);
        return 1;
    }
    printf("test_vbc_parse: 7 files, every value as written, full format coverage\n");
    return 0;
}
