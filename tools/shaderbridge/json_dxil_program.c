/* SPDX-License-Identifier: MIT */
/*
 * `reflect`'s "dxil_program" object: the program's own reflection from its
 * dx.* metadata (translator/dxil_program_info.h, ../shared/docs/dxil.md §4)
 * and the verdict of its cross-check with the container's PSV0 and
 * ISG1/OSG1/PSG1 parts; plus the one-line summary the text output prints.
 * Numbers sit beside their names (`kind`, `kind_name`) as in the part JSON.
 */
#include "cli.h"

#include <stdio.h>

#include "shaderbridge/dxbc_dxil.h"
#include "translator/dxil_ops.h"
#include "translator/dxil_program_info.h"

static void add_named(json_object *o, const char *key, uint32_t value, const char *name)
{
    char name_key[64];
    cli_json_add_u64(o, key, value);
    snprintf(name_key, sizeof(name_key), "%s_name", key);
    cli_json_add_str(o, name_key, name);
}

static json_object *element_json(const struct sb_dxil_signature_element *e)
{
    json_object *o = json_object_new_object();
    cli_json_add_u64(o, "id", e->id);
    cli_json_add_str(o, "semantic_name", e->semantic_name);
    cli_json_add(o, "semantic_indices", cli_json_u32_array(e->semantic_indices, e->semantic_index_count));
    add_named(o, "semantic_kind", e->semantic_kind, sb_dxil_semantic_kind_name(e->semantic_kind));
    add_named(o, "component_type", e->component_type,
              sb_dxil_enum_value_name(SB_DXIL_ENUM_COMPONENT_TYPE, e->component_type));
    add_named(o, "interpolation", e->interpolation, sb_dxil_interpolation_name(e->interpolation));
    cli_json_add_u64(o, "rows", e->rows);
    cli_json_add_u64(o, "cols", e->cols);
    cli_json_add(o, "start_row", json_object_new_int(e->start_row));
    cli_json_add(o, "start_col", json_object_new_int(e->start_col));
    cli_json_add_u64(o, "output_stream", e->output_stream);
    cli_json_add_u64(o, "dynamic_index_mask", e->dynamic_index_mask);
    cli_json_add(o, "usage_mask", e->has_usage_mask ? cli_json_u64(e->usage_mask) : NULL);
    return o;
}

static json_object *signature_json(const struct sb_dxil_signature *sig)
{
    json_object *a = json_object_new_array();
    for (uint32_t i = 0; i < sig->element_count; i++)
        json_object_array_add(a, element_json(&sig->elements[i]));
    return a;
}

static json_object *resource_json(const struct sb_dxil_resource *r)
{
    json_object *o = json_object_new_object();
    add_named(o, "class", r->resource_class,
              sb_dxil_enum_value_name(SB_DXIL_ENUM_RESOURCE_CLASS, r->resource_class));
    cli_json_add_u64(o, "id", r->id);
    cli_json_add_str(o, "name", r->name);
    cli_json_add_u64(o, "space", r->space);
    cli_json_add_u64(o, "lower_bound", r->lower_bound);
    cli_json_add_u64(o, "range_size", r->range_size);
    cli_json_add_bool(o, "unbounded", r->range_size == UINT32_MAX);
    add_named(o, "kind", r->kind, sb_dxil_enum_value_name(SB_DXIL_ENUM_RESOURCE_KIND, r->kind));
    switch (r->resource_class) {
    case SB_DXIL_RESOURCE_CLASS_CBUFFER:
        cli_json_add_u64(o, "size", r->cbuffer_size);
        cli_json_add(o, "layout", r->layout == SB_BC_NONE ? NULL : cli_json_u64(r->layout));
        break;
    case SB_DXIL_RESOURCE_CLASS_SAMPLER:
        add_named(o, "sampler_kind", r->sampler_kind,
                  sb_dxil_enum_value_name(SB_DXIL_ENUM_SAMPLER_KIND, r->sampler_kind));
        break;
    default:
        add_named(o, "element_type", r->element_type,
                  sb_dxil_enum_value_name(SB_DXIL_ENUM_COMPONENT_TYPE, r->element_type));
        cli_json_add_u64(o, "struct_stride", r->struct_stride);
        cli_json_add_u64(o, "sample_count", r->sample_count);
        cli_json_add_bool(o, "globally_coherent", r->globally_coherent);
        cli_json_add_bool(o, "has_counter", r->has_counter);
        cli_json_add_bool(o, "rasterizer_ordered", r->rasterizer_ordered);
        cli_json_add_bool(o, "atomic64_use", r->atomic64_use);
        break;
    }
    return o;
}

static json_object *resources_json(const struct sb_dxil_resource_list *list)
{
    json_object *a = json_object_new_array();
    for (uint32_t i = 0; i < list->count; i++)
        json_object_array_add(a, resource_json(&list->resources[i]));
    return a;
}

static json_object *state_name(enum sb_dxil_state_enum which, uint32_t value)
{
    return cli_json_string_or_null(sb_dxil_state_value_name(which, value));
}

/* The stage state records the entry has (GS, DS, HS, MS, AS). */
static void add_stage_state(json_object *o, const struct sb_dxil_entry_point *e)
{
    if (e->has_gs_state) {
        json_object *gs = json_object_new_object();
        cli_json_add_u64(gs, "input_primitive", e->gs.input_primitive);
        cli_json_add(gs, "input_primitive_name",
                     state_name(SB_DXIL_STATE_INPUT_PRIMITIVE, e->gs.input_primitive));
        cli_json_add_u64(gs, "max_vertex_count", e->gs.max_vertex_count);
        cli_json_add_u64(gs, "active_stream_mask", e->gs.active_stream_mask);
        cli_json_add_u64(gs, "output_topology", e->gs.output_topology);
        cli_json_add(gs, "output_topology_name",
                     state_name(SB_DXIL_STATE_PRIMITIVE_TOPOLOGY, e->gs.output_topology));
        cli_json_add_u64(gs, "instance_count", e->gs.instance_count);
        cli_json_add(o, "gs_state", gs);
    }
    if (e->has_ds_state) {
        json_object *ds = json_object_new_object();
        cli_json_add_u64(ds, "domain", e->ds.domain);
        cli_json_add(ds, "domain_name", state_name(SB_DXIL_STATE_TESSELLATOR_DOMAIN, e->ds.domain));
        cli_json_add_u64(ds, "input_control_points", e->ds.input_control_points);
        cli_json_add(o, "ds_state", ds);
    }
    if (e->has_hs_state) {
        json_object *hs = json_object_new_object();
        cli_json_add(hs, "patch_constant_function",
                     e->hs.patch_constant_function == SB_BC_NONE
                         ? NULL : cli_json_u64(e->hs.patch_constant_function));
        cli_json_add_u64(hs, "input_control_points", e->hs.input_control_points);
        cli_json_add_u64(hs, "output_control_points", e->hs.output_control_points);
        cli_json_add_u64(hs, "domain", e->hs.domain);
        cli_json_add(hs, "domain_name", state_name(SB_DXIL_STATE_TESSELLATOR_DOMAIN, e->hs.domain));
        cli_json_add_u64(hs, "partitioning", e->hs.partitioning);
        cli_json_add(hs, "partitioning_name",
                     state_name(SB_DXIL_STATE_PARTITIONING, e->hs.partitioning));
        cli_json_add_u64(hs, "output_primitive", e->hs.output_primitive);
        cli_json_add(hs, "output_primitive_name",
                     state_name(SB_DXIL_STATE_OUTPUT_PRIMITIVE, e->hs.output_primitive));
        cli_json_add(hs, "max_tess_factor", json_object_new_double(e->hs.max_tess_factor));
        cli_json_add(o, "hs_state", hs);
    }
    for (int mesh = 1; mesh >= 0; mesh--) {
        const struct sb_dxil_mesh_state *s = mesh ? &e->ms : &e->as;
        if (!(mesh ? e->has_ms_state : e->has_as_state))
            continue;
        json_object *st = json_object_new_object();
        cli_json_add(st, "num_threads", cli_json_u32_array(s->num_threads, 3));
        if (mesh) {
            cli_json_add_u64(st, "max_vertex_count", s->max_vertex_count);
            cli_json_add_u64(st, "max_primitive_count", s->max_primitive_count);
            cli_json_add_u64(st, "output_topology", s->output_topology);
        }
        cli_json_add_u64(st, "payload_size", s->payload_size);
        cli_json_add(o, mesh ? "ms_state" : "as_state", st);
    }
}

static json_object *entry_json(const struct sb_dxil_program_info *info,
                               const struct sb_dxil_entry_point *e)
{
    json_object *o = json_object_new_object();
    cli_json_add_str(o, "name", e->name);
    cli_json_add(o, "function_index", e->function == SB_BC_NONE ? NULL : cli_json_u64(e->function));
    add_named(o, "shader_kind", e->shader_kind, sb_dxil_shader_kind_name(e->shader_kind));
    cli_json_add_u64(o, "shader_flags", e->shader_flags);
    const char *flag_names[64] = { 0 };
    for (unsigned bit = 0; bit < SB_DXIL_SHADER_FLAG_BIT_COUNT; bit++)
        flag_names[bit] = sb_dxil_shader_flag_name(bit);
    cli_json_add(o, "shader_flag_names", cli_json_flag_names(e->shader_flags, flag_names, 64));
    cli_json_add(o, "num_threads", e->has_num_threads ? cli_json_u32_array(e->num_threads, 3) : NULL);
    add_stage_state(o, e);
    if (e->wave_size_min || e->wave_size_max || e->wave_size_preferred) {
        uint32_t wave[3] = { e->wave_size_min, e->wave_size_max, e->wave_size_preferred };
        cli_json_add(o, "wave_size_min_max_preferred", cli_json_u32_array(wave, 3));
    }
    if (e->has_auto_binding_space)
        cli_json_add_u64(o, "auto_binding_space", e->auto_binding_space);
    json_object *sigs = json_object_new_object();
    cli_json_add(sigs, "input", signature_json(&e->signatures[SB_DXIL_SIGNATURE_INPUT]));
    cli_json_add(sigs, "output", signature_json(&e->signatures[SB_DXIL_SIGNATURE_OUTPUT]));
    cli_json_add(sigs, "patch_constant_or_primitive",
                 signature_json(&e->signatures[SB_DXIL_SIGNATURE_PATCH_CONSTANT]));
    cli_json_add(o, "signatures", sigs);
    /* A null resource field means the module's dx.resources (libraries). */
    cli_json_add(o, "resources", resources_json(e->has_resources ? &e->resources : &info->resources));
    return o;
}

static json_object *layouts_json(const struct sb_dxil_program_info *info)
{
    json_object *a = json_object_new_array();
    for (uint32_t s = 0; s < info->struct_count; s++) {
        const struct sb_dxil_struct_annotation *st = &info->structs[s];
        json_object *o = json_object_new_object();
        cli_json_add_str(o, "type_name", st->type_name);
        cli_json_add_u64(o, "size", st->size);
        json_object *fields = json_object_new_array();
        for (uint32_t i = 0; i < st->field_count; i++) {
            const struct sb_dxil_field_annotation *f = &st->fields[i];
            json_object *fo = json_object_new_object();
            cli_json_add_str(fo, "name", f->name);
            cli_json_add(fo, "offset", f->has_cbuffer_offset ? cli_json_u64(f->cbuffer_offset) : NULL);
            add_named(fo, "component_type", f->component_type,
                      sb_dxil_enum_value_name(SB_DXIL_ENUM_COMPONENT_TYPE, f->component_type));
            if (f->matrix_rows) {
                uint32_t matrix[3] = { f->matrix_rows, f->matrix_cols, f->matrix_orientation };
                cli_json_add(fo, "matrix_rows_cols_orientation", cli_json_u32_array(matrix, 3));
            }
            if (f->vector_size)
                cli_json_add_u64(fo, "vector_size", f->vector_size);
            json_object_array_add(fields, fo);
        }
        cli_json_add(o, "fields", fields);
        json_object_array_add(a, o);
    }
    return a;
}

static void add_disagreement(void *user, const char *field, const char *detail)
{
    json_object *o = json_object_new_object();
    cli_json_add_str(o, "field", field);
    cli_json_add_str(o, "detail", detail);
    json_object_array_add(user, o);
}

json_object *cli_json_dxil_program(const struct sb_dxbc *dxbc, char *summary, size_t summary_size)
{
    json_object *o = json_object_new_object();
    struct sb_dxil_program_info *info = NULL;
    struct sb_error error = { 0 };
    enum sb_result result = sb_dxil_program_info_from_container(dxbc, &info, &error);
    if (result != SB_SUCCESS) {
        cli_json_add(o, "error", cli_json_error(result, &error));
        snprintf(summary, summary_size, "dxil program: not reflected: %s at byte %llu: %s",
                 sb_result_name(result), (unsigned long long)error.offset, error.message);
        return o;
    }
    char version[16];
    snprintf(version, sizeof(version), "%u.%u", info->dxil_major, info->dxil_minor);
    cli_json_add_str(o, "dxil_version", version);
    snprintf(version, sizeof(version), "%u.%u", info->validator_major, info->validator_minor);
    cli_json_add_str(o, "validator_version", version);
    char model[32];
    snprintf(model, sizeof(model), "%s_%u_%u", info->stage_name, info->shader_model_major,
             info->shader_model_minor);
    cli_json_add_str(o, "shader_model", model);
    add_named(o, "shader_kind", info->shader_kind, sb_dxil_shader_kind_name(info->shader_kind));
    json_object *entries = json_object_new_array();
    for (uint32_t i = 0; i < info->entry_point_count; i++)
        json_object_array_add(entries, entry_json(info, &info->entry_points[i]));
    cli_json_add(o, "entry_points", entries);
    cli_json_add(o, "cbuffer_layouts", layouts_json(info));
    cli_json_add_u64(o, "function_annotation_count", info->function_annotation_count);
    json_object *check = json_object_new_object();
    json_object *disagreements = json_object_new_array();
    uint32_t count = sb_dxil_program_info_check(info, dxbc, add_disagreement, disagreements);
    cli_json_add_bool(check, "agrees", count == 0);
    cli_json_add(check, "disagreements", disagreements);
    cli_json_add(o, "container_check", check);

    const struct sb_dxil_entry_point *e = &info->entry_points[0];
    uint32_t elements = 0;
    for (uint32_t s = 0; s < SB_DXIL_SIGNATURE_LIST_COUNT; s++)
        elements += e->signatures[s].element_count;
    const struct sb_dxil_resource_list *resources = e->has_resources ? &e->resources : &info->resources;
    snprintf(summary, summary_size,
             "dxil program: %s, %u entry point%s, first \"%s\", %u resource%s, %u signature "
             "element%s; %s PSV0/ISG1/OSG1/PSG1%s",
             model, info->entry_point_count, info->entry_point_count == 1 ? "" : "s", e->name,
             resources->count, resources->count == 1 ? "" : "s", elements,
             elements == 1 ? "" : "s", count ? "disagrees with" : "agrees with",
             count ? " (see reflect --json)" : "");
    sb_dxil_program_info_destroy(info);
    return o;
}
