/* SPDX-License-Identifier: MIT */
/*
 * Reflection of the five tests/common DXIL writer programs (dxil_programs.h),
 * each value hand-derived from the program's description in dxil_programs.c:
 * versions, stage, entry, thread-group size, shader flags, signature
 * elements and resources; each must agree with the PSV0 and signature parts
 * the writer put beside it. Then the cross-check must notice a change: a
 * reflected field altered after reading is reported under its field name.
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "dxil_programs.h"
#include "shaderbridge/dxbc_dxil.h"
#include "translator/dxil_program_info.h"

struct loaded {
    struct tbuf bytes;
    struct sb_dxbc *dxbc;
    struct sb_dxil_program_info *info;
};

static bool load(bool (*write)(struct tbuf *), struct loaded *l)
{
    memset(l, 0, sizeof(*l));
    struct sb_error error = { 0 };
    if (!write(&l->bytes))
        return false;
    enum sb_result result = sb_dxbc_parse(l->bytes.data, l->bytes.size, &l->dxbc, &error);
    if (result == SB_SUCCESS)
        result = sb_dxil_program_info_from_container(l->dxbc, &l->info, &error);
    CHECK(result == SB_SUCCESS, "%s at %llu: %s", sb_result_name(result),
          (unsigned long long)error.offset, error.message);
    return result == SB_SUCCESS;
}

static void unload(struct loaded *l)
{
    sb_dxil_program_info_destroy(l->info);
    sb_dxbc_destroy(l->dxbc);
    free(l->bytes.data);
}

/* What every writer program shares: DXIL 1.0, validator 1.8, SM 6.0, one entry "main". */
static const struct sb_dxil_entry_point *common(const struct sb_dxil_program_info *info,
                                                const char *stage, uint32_t kind)
{
    CHECK(info->dxil_major == 1 && info->dxil_minor == 0, "dx.version %u.%u", info->dxil_major,
          info->dxil_minor);
    CHECK(info->validator_major == 1 && info->validator_minor == 8, "dx.valver %u.%u",
          info->validator_major, info->validator_minor);
    CHECK(!strcmp(info->stage_name, stage), "stage %s, expected %s", info->stage_name, stage);
    CHECK(info->shader_kind == kind, "shader kind %u", info->shader_kind);
    CHECK(info->shader_model_major == 6 && info->shader_model_minor == 0, "SM %u.%u",
          info->shader_model_major, info->shader_model_minor);
    CHECK(info->entry_point_count == 1, "%u entry points", info->entry_point_count);
    CHECK(info->struct_count == 0, "%u struct annotations", info->struct_count);
    const struct sb_dxil_entry_point *e = &info->entry_points[0];
    CHECK(!strcmp(e->name, "main"), "entry name %s", e->name);
    CHECK(e->function != SB_BC_NONE, "no entry function");
    CHECK(e->shader_kind == kind, "entry kind %u", e->shader_kind);
    CHECK(!e->has_gs_state && !e->has_ds_state && !e->has_hs_state && !e->has_ms_state &&
          !e->has_as_state, "a stage state on a %s program", stage);
    return e;
}

static void check_element(const struct sb_dxil_signature_element *e, uint32_t id,
                          const char *name, uint32_t kind, uint32_t interpolation,
                          uint32_t cols, int32_t start_row)
{
    CHECK(e->id == id, "element id %u, expected %u", e->id, id);
    CHECK(!strcmp(e->semantic_name, name), "semantic %s, expected %s", e->semantic_name, name);
    CHECK(e->component_type == SB_DXIL_COMPONENT_TYPE_F32, "%s component type %u", name,
          e->component_type);
    CHECK(e->semantic_kind == kind, "%s kind %u, expected %u", name, e->semantic_kind, kind);
    CHECK(e->interpolation == interpolation, "%s interpolation %u, expected %u", name,
          e->interpolation, interpolation);
    CHECK(e->rows == 1 && e->cols == cols, "%s %ux%u, expected 1x%u", name, e->rows, e->cols, cols);
    CHECK(e->start_row == start_row && e->start_col == 0, "%s at %d.%d, expected %d.0", name,
          e->start_row, e->start_col, start_row);
    CHECK(e->semantic_index_count == 1 && e->semantic_indices[0] == 0, "%s indices", name);
    /* The writer marks every allocated column as used (UsageCompMask = 2^cols - 1). */
    CHECK(e->has_usage_mask && e->usage_mask == (1u << cols) - 1, "%s usage mask %u", name,
          e->usage_mask);
    CHECK(e->output_stream == 0 && e->dynamic_index_mask == 0, "%s stream/dynamic mask", name);
}

static void check_resource(const struct sb_dxil_resource *r, uint32_t resource_class,
                           uint32_t kind, uint32_t cbuffer_size)
{
    CHECK(r->resource_class == resource_class, "class %u, expected %u", r->resource_class,
          resource_class);
    CHECK(r->id == 0 && r->space == 0 && r->lower_bound == 0 && r->range_size == 1,
          "binding id %u space %u register %u range %u", r->id, r->space, r->lower_bound,
          r->range_size);
    CHECK(r->kind == kind, "kind %u, expected %u", r->kind, kind);
    CHECK(r->cbuffer_size == cbuffer_size, "cbuffer size %u", r->cbuffer_size);
    CHECK(!r->globally_coherent && !r->has_counter && !r->rasterizer_ordered, "UAV flags");
    CHECK(r->element_type == 0 && r->struct_stride == 0, "tags");
    CHECK(!strcmp(r->name, ""), "name %s", r->name);
    CHECK(r->layout == SB_BC_NONE, "a layout without annotations");
}

static void check_compute(const struct sb_dxil_program_info *info, uint32_t threads_x,
                          uint32_t resource_count)
{
    const struct sb_dxil_entry_point *e = common(info, "cs", SB_DXIL_SHADER_KIND_COMPUTE);
    CHECK(e->has_num_threads && e->num_threads[0] == threads_x && e->num_threads[1] == 1 &&
          e->num_threads[2] == 1, "numthreads %u,%u,%u", e->num_threads[0], e->num_threads[1],
          e->num_threads[2]);
    CHECK(e->shader_flags == 0x10, "shader flags %#llx (raw buffers: bit 4)",
          (unsigned long long)e->shader_flags);
    for (uint32_t s = 0; s < SB_DXIL_SIGNATURE_LIST_COUNT; s++)
        CHECK(e->signatures[s].element_count == 0, "signature %u has elements", s);
    CHECK(e->has_resources && e->resources.count == resource_count, "%u resources",
          e->resources.count);
    CHECK(info->has_resources && info->resources.count == resource_count,
          "dx.resources has %u", info->resources.count);
    if (e->resources.count >= 1)
        check_resource(&e->resources.resources[0], SB_DXIL_RESOURCE_CLASS_UAV,
                       SB_DXIL_RESOURCE_KIND_RAW_BUFFER, 0);
    if (e->resources.count >= 2)
        check_resource(&e->resources.resources[1], SB_DXIL_RESOURCE_CLASS_CBUFFER,
                       SB_DXIL_RESOURCE_KIND_CBUFFER, 16);
}

static void test_cs_store(const struct sb_dxil_program_info *info) { check_compute(info, 8, 1); }
static void test_cs_loop(const struct sb_dxil_program_info *info) { check_compute(info, 1, 2); }
static void test_cs_groupshared(const struct sb_dxil_program_info *info) { check_compute(info, 8, 1); }

static void test_vs_passthrough(const struct sb_dxil_program_info *info)
{
    const struct sb_dxil_entry_point *e = common(info, "vs", SB_DXIL_SHADER_KIND_VERTEX);
    CHECK(!e->has_num_threads && e->shader_flags == 0, "vs properties");
    CHECK(!e->has_resources && !info->has_resources, "vs resources");
    const struct sb_dxil_signature *in = &e->signatures[SB_DXIL_SIGNATURE_INPUT];
    const struct sb_dxil_signature *out = &e->signatures[SB_DXIL_SIGNATURE_OUTPUT];
    CHECK(in->element_count == 2 && out->element_count == 2, "%u inputs, %u outputs",
          in->element_count, out->element_count);
    if (in->element_count == 2 && out->element_count == 2) {
        check_element(&in->elements[0], 0, "POSITION", SB_DXIL_SEMANTIC_ARBITRARY,
                      SB_DXIL_INTERP_UNDEFINED, 4, 0);
        check_element(&in->elements[1], 1, "TEXCOORD", SB_DXIL_SEMANTIC_ARBITRARY,
                      SB_DXIL_INTERP_UNDEFINED, 2, 1);
        check_element(&out->elements[0], 0, "SV_Position", SB_DXIL_SEMANTIC_POSITION,
                      SB_DXIL_INTERP_LINEAR_NOPERSPECTIVE, 4, 0);
        check_element(&out->elements[1], 1, "TEXCOORD", SB_DXIL_SEMANTIC_ARBITRARY,
                      SB_DXIL_INTERP_LINEAR, 2, 1);
    }
    CHECK(e->signatures[SB_DXIL_SIGNATURE_PATCH_CONSTANT].element_count == 0, "patch constants");
}

static void test_ps_scale(const struct sb_dxil_program_info *info)
{
    const struct sb_dxil_entry_point *e = common(info, "ps", SB_DXIL_SHADER_KIND_PIXEL);
    CHECK(!e->has_num_threads && e->shader_flags == 0, "ps properties");
    const struct sb_dxil_signature *in = &e->signatures[SB_DXIL_SIGNATURE_INPUT];
    const struct sb_dxil_signature *out = &e->signatures[SB_DXIL_SIGNATURE_OUTPUT];
    CHECK(in->element_count == 1 && out->element_count == 1, "%u inputs, %u outputs",
          in->element_count, out->element_count);
    if (in->element_count == 1 && out->element_count == 1) {
        check_element(&in->elements[0], 0, "TEXCOORD", SB_DXIL_SEMANTIC_ARBITRARY,
                      SB_DXIL_INTERP_LINEAR, 2, 0);
        check_element(&out->elements[0], 0, "SV_Target", SB_DXIL_SEMANTIC_TARGET,
                      SB_DXIL_INTERP_UNDEFINED, 4, 0);
    }
    CHECK(e->has_resources && e->resources.count == 1, "%u resources", e->resources.count);
    if (e->resources.count == 1)
        check_resource(&e->resources.resources[0], SB_DXIL_RESOURCE_CLASS_CBUFFER,
                       SB_DXIL_RESOURCE_KIND_CBUFFER, 16);
}

/* The checker's reports, kept for comparison. */
struct reports {
    unsigned count;
    char field[64];
    char detail[128];
};

static void keep_report(void *user, const char *field, const char *detail)
{
    struct reports *r = user;
    if (r->count++ == 0) {
        snprintf(r->field, sizeof(r->field), "%s", field);
        snprintf(r->detail, sizeof(r->detail), "%s", detail);
    }
}

/* One altered field must give exactly one report, naming it. */
static void expect_one(struct loaded *l, const char *field, const char *detail)
{
    struct reports r = { 0 };
    uint32_t count = sb_dxil_program_info_check(l->info, l->dxbc, keep_report, &r);
    CHECK(count == 1 && r.count == 1, "%s: %u reports, expected 1", field, count);
    CHECK(!strcmp(r.field, field), "reported %s, expected %s", r.field, field);
    CHECK(!strcmp(r.detail, detail), "%s: detail \"%s\", expected \"%s\"", field, r.detail, detail);
}

/* The info is arena memory this test owns: altering it stands for a container whose parts
 * were written from another program. */
static void test_check_notices(void)
{
    struct loaded l;
    if (load(dxil_program_cs_store, &l)) {
        struct sb_dxil_entry_point *e = (struct sb_dxil_entry_point *)&l.info->entry_points[0];
        e->num_threads[0] = 9;
        expect_one(&l, "psv0.num_threads_x", "metadata 9, part 8");
        e->num_threads[0] = 8;
        struct sb_dxil_resource *u0 = (struct sb_dxil_resource *)&e->resources.resources[0];
        u0->lower_bound = 3;
        expect_one(&l, "psv0.resources", "no record for the UAV at space 0 register 3");
        u0->lower_bound = 0;
        u0->kind = SB_DXIL_RESOURCE_KIND_STRUCTURED_BUFFER;
        /* PSV ResType 8 (structured UAV) for 7 (raw), then PSV kind 12 for 11. */
        struct reports r = { 0 };
        CHECK(sb_dxil_program_info_check(l.info, l.dxbc, keep_report, &r) == 2, "%u reports", r.count);
        CHECK(!strcmp(r.field, "psv0.resources[0].type") && !strcmp(r.detail, "metadata 8, part 7"),
              "reported %s: %s", r.field, r.detail);
        unload(&l);
    }
    if (load(dxil_program_vs_passthrough, &l)) {
        struct sb_dxil_signature_element *texcoord = (struct sb_dxil_signature_element *)
            &l.info->entry_points[0].signatures[SB_DXIL_SIGNATURE_OUTPUT].elements[1];
        texcoord->interpolation = SB_DXIL_INTERP_CONSTANT;
        expect_one(&l, "psv0.output_elements[1].interpolation_mode", "metadata 1, part 2");
        texcoord->interpolation = SB_DXIL_INTERP_LINEAR;
        texcoord->start_col = 1;
        struct reports r = { 0 };
        /* ISG1-family mask 0b0110 against 0b0011, then PSV0's start column. */
        CHECK(sb_dxil_program_info_check(l.info, l.dxbc, keep_report, &r) == 2, "%u reports", r.count);
        CHECK(!strcmp(r.field, "OSG1[1].mask") && !strcmp(r.detail, "metadata 6, part 3"),
              "reported %s: %s", r.field, r.detail);
        unload(&l);
    }
}

int main(void)
{
    static void (*const TESTS[5])(const struct sb_dxil_program_info *) = {
        test_cs_store, test_vs_passthrough, test_ps_scale, test_cs_loop, test_cs_groupshared,
    };
    for (unsigned i = 0; i < 5; i++) {
        struct loaded l;
        if (!load(dxil_programs[i].write, &l)) {
            CHECK(false, "%s did not load", dxil_programs[i].name);
            unload(&l);
            continue;
        }
        TESTS[i](l.info);
        struct reports r = { 0 };
        uint32_t mismatches = sb_dxil_program_info_check(l.info, l.dxbc, keep_report, &r);
        CHECK(mismatches == 0, "%s: %u disagreements with its own parts, first %s: %s",
              dxil_programs[i].name, mismatches, r.field, r.detail);
        unload(&l);
    }
    test_check_notices();
    printf("dxil_reflect_programs: %u checks, %u failed\n", checks, failures);
    return failures ? 1 : 0;
}
